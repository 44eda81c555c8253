//! `--type` from the command line (issue 23, first stage): `check` and
//! `generate` on types other than classic 9×9, the commands that do not
//! take them yet refusing them, and type files that are no type.

mod common;

use common::*;

fn csp_rules(name: &str) -> String {
    data(&format!("csp-rules/{name}")).display().to_string()
}

#[test]
fn check_takes_every_shipped_latin_square_as_unique() {
    let run = ruledoku(["check", "--type", "latin:9", &csp_rules("latin-9.txt")]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines.len(), 7, "six verdicts and the summary");
    assert_eq!(
        lines[6],
        "6 puzzles: 6 unique, 0 multiple, 0 no solution; 0 invalid lines"
    );
    assert_eq!(
        lines[0],
        "1 ....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8 unique"
    );
    assert!(
        lines[..6].iter().all(|l| l.ends_with(" unique")),
        "{lines:?}"
    );
}

#[test]
fn check_reads_futoshiki_signs() {
    let run = ruledoku([
        "check",
        "--type",
        "futoshiki:7",
        &csp_rules("futoshiki-7.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.lines().len(), 5);
    assert!(
        run.stdout
            .contains("4 puzzles: 4 unique, 0 multiple, 0 no solution; 0 invalid lines"),
        "{}",
        run.stdout
    );
}

#[test]
fn generated_puzzles_of_a_type_check_as_unique() {
    let made = ruledoku(["generate", "--type", "latin:6", "--seed", "3", "-n", "3"]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    assert_eq!(made.lines().len(), 3);
    assert!(
        made.lines().iter().all(|l| l.len() == 36),
        "{:?}",
        made.lines()
    );
    let again = ruledoku(["generate", "--type", "latin:6", "--seed", "3", "-n", "3"]);
    assert_eq!(made.stdout, again.stdout, "a seed gives the same puzzles");
    let check = ruledoku_stdin(["check", "--type", "latin:6", "-"], &made.stdout);
    assert_eq!(check.code, Some(0), "{}", check.stderr);
    assert!(
        check.lines()[..3].iter().all(|l| l.ends_with(" unique")),
        "{}",
        check.stdout
    );
}

#[test]
fn a_bad_record_of_a_type_is_reported_and_the_batch_goes_on() {
    let input = "12345\n....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8\n";
    let run = ruledoku_stdin(["check", "--type", "latin:9", "-"], input);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>:1:"), "{}", run.stderr);
    assert!(run.has_line(
        "2 ....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8 unique"
    ));
}

#[test]
fn type_files_that_are_no_type_are_errors() {
    let input = csp_rules("latin-9.txt");
    let zero = ruledoku(["check", "--type", "/dev/zero", &input]);
    assert_eq!(zero.code, Some(2));
    assert!(zero.stderr.contains("too large"), "{}", zero.stderr);
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("regions.yaml");
    std::fs::create_dir(&folder).unwrap();
    let run = ruledoku(["check", "--type", folder.to_str().unwrap(), &input]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("it is a folder"), "{}", run.stderr);
    let big = ruledoku(["check", "--type", "latin:99", &input]);
    assert_eq!(big.code, Some(2));
    assert!(big.stderr.contains("from 2 to 64"), "{}", big.stderr);
}

#[test]
fn a_type_without_any_solution_grid_generates_nothing_and_says_why() {
    // Two cells of one row forced equal: no grid exists. `generate`
    // panicked ("an empty grid … has a solution") before.
    let dir = tempfile::tempdir().unwrap();
    let ty = dir.path().join("never.yaml");
    std::fs::write(
        &ty,
        "size: 4\nblocks: 2x2\nconstraints:\n  - cells: r1c1 r1c2\n    relation: \"=\"\n",
    )
    .unwrap();
    let run = ruledoku(["generate", "--type", ty.to_str().unwrap(), "--seed", "1"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert!(
        run.stderr.contains("type never has no solution grid"),
        "{}",
        run.stderr
    );
}

#[test]
fn f_puzzles_addresses_check_with_their_own_types_and_a_bad_one_is_reported() {
    // X-Sudoku puzzles written as f-puzzles addresses by `generate`, then
    // checked with `--type f-puzzles`; a corrupt address in between is an
    // invalid line and the batch goes on.
    let dir = tempfile::tempdir().unwrap();
    let ty = dir.path().join("x.yaml");
    std::fs::write(&ty, "size: 9\nblocks: 3x3\ndiagonals: both\n").unwrap();
    let gen_ = ruledoku([
        "generate",
        "--type",
        ty.to_str().unwrap(),
        "--seed",
        "3",
        "-n",
        "2",
        "--f-puzzles",
    ]);
    assert_eq!(gen_.code, Some(0), "{}", gen_.stderr);
    let lines: Vec<&str> = gen_.stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("https://f-puzzles.com/?load="))
    );
    let plain = ruledoku([
        "generate",
        "--type",
        ty.to_str().unwrap(),
        "--seed",
        "3",
        "-n",
        "2",
    ]);
    let input = dir.path().join("in.txt");
    std::fs::write(
        &input,
        format!(
            "{}\nhttps://f-puzzles.com/?load=N4IgHiBcDMC+Q===\n{}\n",
            lines[0], lines[1]
        ),
    )
    .unwrap();
    let run = ruledoku(["check", "--type", "f-puzzles", input.to_str().unwrap()]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let want: Vec<String> = plain.stdout.lines().map(str::to_string).collect();
    assert_eq!(
        run.stdout,
        format!(
            "1 {} unique\n2 - invalid f-puzzles: constraint `x` is not supported (ruledoku reads \
             diagonals, antiknight, antiking, nonconsecutive, disjointgroups, extraregion, \
             difference, ratio, xv, negative, thermometer and killercage; remove it to check the rest)\n\
             3 {} unique\n2 puzzles: 2 unique, 0 multiple, 0 no solution; 1 invalid line\n",
            want[0], want[1]
        )
    );
    assert!(
        run.stderr.contains("in.txt:2: f-puzzles: constraint `x`"),
        "{}",
        run.stderr
    );
    // Only `check`, `solve`, `rate` and `classify` read records with their
    // own types.
    let other = ruledoku(["generate", "--type", "f-puzzles"]);
    assert_eq!(other.code, Some(2));
    assert!(
        other.stderr.contains(
            "read by `check`, `solve`, `rate` (without the batch options) and `classify` only"
        ),
        "{}",
        other.stderr
    );
    let futoshiki = ruledoku([
        "generate",
        "--type",
        "futoshiki:4",
        "--f-puzzles",
        "--seed",
        "1",
    ]);
    assert_eq!(futoshiki.code, Some(2));
    assert!(
        futoshiki.stderr.contains("no inequality signs"),
        "{}",
        futoshiki.stderr
    );
}
