//! Killer cages (issue 24): a cage with a sum is a CSP variable whose
//! candidates are its combinations (`docs/puzzle-types.md`, "Killer
//! cages"). A published killer puzzle solved with `--verify`, its exact
//! path, the type file's errors.

mod common;

use common::*;

fn killer(name: &str) -> String {
    data(&format!("killer/{name}")).display().to_string()
}

#[test]
fn the_wikipedia_killer_is_solved_by_whips_with_its_exact_path() {
    let run = ruledoku([
        "solve",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "w",
        "--no-time",
        "--verify",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "verify: 1 puzzle checked, 0 with a wrong step"
    );
    let want = std::fs::read_to_string(killer("wikipedia-w.path")).unwrap();
    assert_eq!(run.stdout, want);
    // The grid solved is the article's solution.
    let solution = std::fs::read_to_string(killer("wikipedia.solution")).unwrap();
    let grid: String = run
        .lines()
        .iter()
        .filter(|l| l.starts_with("   "))
        .map(|l| l.trim())
        .collect();
    assert_eq!(grid, solution.trim());
    assert!(run.has_line("rating: W[1] (level 1, hardest rule: whip[1])"));
    assert!(run.has_line("single-combination-in-a-cage ==> k1 = 12"));
}

#[test]
fn singles_alone_stall_on_the_wikipedia_killer_and_t_and_e_solves_it() {
    let run = ruledoku([
        "rate",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "singles",
        "--no-time",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.contains("not solved"), "{}", run.stdout);
    let run = ruledoku([
        "rate",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "te",
        "--no-time",
        "--verify",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("0 with a wrong step"), "{}", run.stderr);
}

#[test]
fn a_cage_the_grid_cannot_fill_is_an_error_naming_its_line() {
    let dir = std::env::temp_dir().join(format!("ruledoku-killer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.yaml");
    std::fs::write(
        &file,
        "size: 9\nblocks: 3x3\ncages:\n  - { cells: r1c1 r1c2, sum: 3 }\n  - { cells: r2c1 r2c2, sum: 18 }\n",
    )
    .unwrap();
    let run = ruledoku([
        "check",
        "--type",
        &file.display().to_string(),
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        format!(
            "error: --type: {}:5: the killer cage at r2c1: 2 distinct numbers from 1 to 9 never sum to 18",
            file.display()
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}
