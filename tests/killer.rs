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
    // Singles (with the cages' single) stop short: the rate line says
    // stuck, after the cages' singles.
    assert!(
        run.stdout
            .contains(" stuck - single-combination-in-a-cage -"),
        "{}",
        run.stdout
    );
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

/// The example's figures: the start, and every step of its W path.
fn wikipedia_figures() -> (
    std::sync::Arc<ruledoku::model::Model>,
    Vec<ruledoku::draw::Figure>,
    ruledoku::draw::Figure,
) {
    use ruledoku::draw::typed::TypedPictures;
    use ruledoku::engine::Limits;
    use ruledoku::typed::engine::Options;
    let m = std::sync::Arc::new(ruledoku::model::load(&killer("wikipedia.yaml")).unwrap());
    let givens = vec![None; 81];
    let set = ruledoku::ruleset::load("w").unwrap();
    let tset = ruledoku::typed::compile(&set, &m).unwrap();
    let opts = Options {
        limits: Limits {
            max_steps: None,
            max_time: None,
            max_memory: None,
            max_cpu: None,
        },
        patterns: true,
        max_memory: None,
        pictures: true,
        stats: false,
    };
    let run = ruledoku::typed::run(&m, &tset, &givens, opts).expect("a frame");
    let pics = TypedPictures::new(&m, &givens);
    let start = pics.grid(run.start.as_ref().expect("pictures kept"));
    let steps = pics.step_figures(1, &run).collect();
    (m, steps, start)
}

fn raster(svg: &str) -> resvg::tiny_skia::Pixmap {
    use resvg::usvg;
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("well-formed SVG");
    let size = tree.size();
    let mut pm = resvg::tiny_skia::Pixmap::new(
        (size.width() * 2.0).ceil() as u32,
        (size.height() * 2.0).ceil() as u32,
    )
    .expect("a pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(2.0, 2.0),
        &mut pm.as_mut(),
    );
    pm
}

/// Black pixels in the rectangle `(x0, y0)`–`(x1, y1)` (SVG units).
fn ink_in(pm: &resvg::tiny_skia::Pixmap, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> usize {
    let mut n = 0;
    for py in (y0 * 2.0) as u32..(y1 * 2.0) as u32 {
        for px in (x0 * 2.0) as u32..(x1 * 2.0) as u32 {
            if let Some(p) = pm.pixel(px, py)
                && p.alpha() == 255
                && p.red() < 60
                && p.green() < 60
                && p.blue() < 60
            {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn cages_are_drawn_as_dashed_outlines_with_their_sums() {
    use ruledoku::draw::svg::{Layout, Svg};
    let (m, steps, start) = wikipedia_figures();
    assert_eq!(start.sheet.cages.len(), 29);
    assert_eq!(start.sheet.cages[0], (vec![0, 1], Some(3)));
    let svg = Svg::file().render(&start);
    assert_eq!(svg.matches("stroke-dasharray=\"3,2\"").count(), 1);
    assert!(svg.contains(">22</text>"), "the sum of k3");
    let lay = Layout::of(&start);
    let pm = raster(&svg);
    let cell = lay.cell;
    let (x, y) = lay.cell_origin(0);
    // k1 (r1c1 r1c2 = 3): its sum in r1c1's top-left corner (text: the
    // rasteriser here has no fonts), its outline 3 px inside the cells'
    // outer borders (r1c2 | r1c3 is k1 | k2), none along r1c1 | r1c2,
    // inside the cage.
    assert!(svg.contains(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\">3</text>",
        x + 2.5,
        y + 10.5
    )));
    let band = |x0: f64| ink_in(&pm, (x0 - 1.0, y + 20.0), (x0 + 1.0, y + cell - 20.0));
    assert!(
        band(x + 2.0 * cell - 3.0) > 5,
        "{}",
        band(x + 2.0 * cell - 3.0)
    );
    assert_eq!(band(x + cell - 3.0), 0);
    assert_eq!(band(x + cell + 3.0), 0);
    assert!(band(x + 3.0) > 5);
    // Every step draws, the cages' steps too.
    assert_eq!(steps.len(), 142);
    for f in &steps {
        raster(&Svg::file().render(f));
    }
    let k1 = &steps[0];
    assert_eq!(k1.caption, "single-combination-in-a-cage ==> k1 = 12");
    assert_eq!(k1.cells.iter().collect::<Vec<_>>(), [0, 1]);
    assert_eq!(m.cages[0].combos, [[0, 1]]);
}

#[test]
fn generated_killers_are_unique_and_the_same_for_a_seed() {
    let args = [
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "5",
        "-n",
        "12",
    ];
    let a = ruledoku(args);
    assert_eq!(a.code, Some(0), "{}", a.stderr);
    assert_eq!(a.lines().len(), 12);
    assert_eq!(ruledoku(args).stdout, a.stdout);
    let other = ruledoku([
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "6",
        "-n",
        "12",
    ]);
    assert_ne!(other.stdout, a.stdout);
    // Read back as f-puzzles records: each its own type, one solution.
    let check = ruledoku_stdin(["check", "--type", "f-puzzles", "-"], &a.stdout);
    assert_eq!(check.code, Some(0), "{}", check.stderr);
    assert!(
        check.has_line("12 puzzles: 12 unique, 0 multiple, 0 no solution; 0 invalid lines"),
        "{}",
        check.stdout
    );
    // The JSON form: the same puzzles, with their cages covering the grid.
    let json = ruledoku(["generate", "--killer", "--json", "--seed", "5", "-n", "12"]);
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    for line in json.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let cages = v["cages"].as_array().unwrap();
        let cells: usize = cages
            .iter()
            .map(|c| c["cells"].as_str().unwrap().split(' ').count())
            .sum();
        assert_eq!(cells, 81, "{line}");
        let sums: u64 = cages.iter().map(|c| c["sum"].as_u64().unwrap()).sum();
        assert_eq!(sums, 405, "{line}");
        assert_eq!(v["puzzle"].as_str().unwrap(), ".".repeat(81));
    }
    // Without a form that carries the cages: a usage error.
    let bare = ruledoku(["generate", "--killer", "--seed", "5"]);
    assert_eq!(bare.code, Some(2));
    assert!(
        bare.stderr.contains("add --f-puzzles or --json"),
        "{}",
        bare.stderr
    );
}

#[test]
fn the_45_rule_fires_on_the_wikipedia_killer_with_its_exact_path() {
    let run = ruledoku([
        "solve",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "killer-sums+w",
        "--no-time",
        "--verify",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "verify: 1 puzzle checked, 0 with a wrong step"
    );
    let want = std::fs::read_to_string(killer("wikipedia-killer-sums.path")).unwrap();
    assert_eq!(run.stdout, want);
    // Block 4 less its cages (r4c1 r5c1 = 16 ... wholly inside) leaves
    // r6c1 and r6c3 summing to 12: only 9 + 3 fits.
    assert!(run.has_line(
        "innies-2: innies of b4: {r6c1 r6c3} sum to 12 ==> r6c3 ≠ 2, r6c3 ≠ 1, r6c1 ≠ 8, \
         r6c1 ≠ 7, r6c1 ≠ 6, r6c1 ≠ 5, r6c1 ≠ 4, r6c1 ≠ 3, r6c1 ≠ 2, r6c1 ≠ 1"
    ));
    assert!(run.has_line(
        "outies-3: outies of c1: {r1c2 r2c2 r3c2} sum to 16 ==> r3c2 ≠ 4, r3c2 ≠ 3, r3c2 ≠ 2, \
         r3c2 ≠ 1, r2c2 ≠ 4, r2c2 ≠ 3, r2c2 ≠ 2, r2c2 ≠ 1"
    ));
}

#[test]
fn the_45_rule_makes_no_wrong_step_on_generated_killers() {
    let made = ruledoku([
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "5",
        "-n",
        "12",
    ]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let run = ruledoku_stdin(
        [
            "solve",
            "--type",
            "f-puzzles",
            "--rules",
            "killer-sums+w",
            "--no-time",
            "--verify",
            "-",
        ],
        &made.stdout,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "verify: 12 puzzles checked, 0 with a wrong step"
    );
    let fired = |p: &str| run.lines().iter().filter(|l| l.starts_with(p)).count();
    assert_eq!(
        run.lines()
            .iter()
            .filter(|l| l.starts_with("PUZZLE SOLVED"))
            .count(),
        12
    );
    assert_eq!(fired("innies-1:"), 23);
    assert_eq!(fired("innies-2:"), 46);
    assert_eq!(fired("innies-3:"), 25);
    assert_eq!(fired("outies-1:"), 8);
    assert_eq!(fired("outies-2:"), 18);
    assert_eq!(fired("outies-3:"), 13);
    assert_eq!(fired("innies-1-of-two-"), 2);
    assert_eq!(fired("outies-2-of-two-"), 1);
}

#[test]
fn f_puzzles_records_are_solved_each_with_its_own_type() {
    // Two killers (each its own cages), a 6×6 anti-knight puzzle, a
    // corrupted address.
    let mut input = ruledoku([
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "5",
        "-n",
        "2",
    ])
    .stdout;
    let six = ruledoku([
        "generate",
        "--type",
        &data("types/anti-knight-6.yaml").display().to_string(),
        "--f-puzzles",
        "--seed",
        "3",
    ]);
    assert_eq!(six.code, Some(0), "{}", six.stderr);
    input.push_str(&six.stdout);
    input.push_str("https://f-puzzles.com/?load=notbase64!!\n");
    let check = ruledoku_stdin(["check", "--type", "f-puzzles", "--solution", "-"], &input);
    let solutions: Vec<&str> = check
        .lines()
        .iter()
        .filter(|l| l.contains(" unique "))
        .filter_map(|l| l.split(' ').nth(3))
        .collect();
    assert_eq!(solutions.len(), 3, "{}", check.stdout);
    let run = ruledoku_stdin(
        [
            "solve",
            "--type",
            "f-puzzles",
            "--rules",
            "w",
            "--no-time",
            "--verify",
            "-",
        ],
        &input,
    );
    // The bad record makes the status 1; the others are solved.
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "<stdin>:4: f-puzzles: character '!' at position 10 is not base64 (the compressed form)\n\
         verify: 3 puzzles checked, 0 with a wrong step\n"
    );
    // Each grid solved is its record's solution: the killers' cages and
    // the 6×6 anti-knight rule were each the record's own.
    let mut grids: Vec<String> = Vec::new();
    for l in run.lines() {
        if l.starts_with("rule set:") {
            grids.push(String::new());
        } else if l.starts_with("   ") {
            grids.last_mut().unwrap().push_str(l.trim());
        }
    }
    assert_eq!(grids, solutions);
    assert!(run.has_line("rule set: w (40 rules), type f-puzzles"));
    // What needs one type for the whole input is refused.
    let stats = ruledoku_stdin(
        [
            "rate",
            "--type",
            "f-puzzles",
            "--rules",
            "w",
            "--stats",
            "-",
        ],
        &input,
    );
    assert_eq!(stats.code, Some(2));
    assert!(
        stats.stderr.contains(
            "--stats is not available with --type f-puzzles: each record has its own type"
        ),
        "{}",
        stats.stderr
    );
}

#[test]
fn the_sum_functions_have_clear_errors() {
    let dir = std::env::temp_dir().join(format!("ruledoku-sums-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.rules");
    std::fs::write(
        &file,
        "rule a {\n    complexity 1\n    let C: cell\n    where number(C) == 1\n    eliminate cands(C)\n}\n\
         rule b {\n    complexity 1\n    let H: 2 row\n    where sum(H) == 90\n    eliminate cands(H)\n}\n\
         rule c {\n    complexity 1\n    let V: dn\n    where |cages(V)| == 1\n    eliminate cands(V)\n}\n\
         rule d {\n    complexity 1\n    let z: cand\n    where |area(z)| == 1\n    eliminate z\n}\n",
    )
    .unwrap();
    let run = ruledoku(["rules", "check", &file.display().to_string()]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    for want in [
        "`number` of a cell has no value: `number` takes one digit; the number of a decided cell is `number(value(C))`",
        "`sum` takes one element, and `H` is a set of 2 rows",
        "`cages(…)` reads killer cages (space `kc`), and this rule's generator names space `dn`",
        "`area` of a cand has no value: `area` takes cells, houses or variables (a killer cage is a `kc` variable) (for the cells of candidates write `cells(z)`)",
    ] {
        let all = format!("{}{}", run.stdout, run.stderr);
        assert!(all.contains(want), "{want}\n{all}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn classify_reads_f_puzzles_records_each_with_its_own_type() {
    let mut input = ruledoku([
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "5",
        "-n",
        "4",
    ])
    .stdout;
    input.push_str("https://f-puzzles.com/?load=notbase64!!\n");
    let run = ruledoku_stdin(
        [
            "classify",
            "--type",
            "f-puzzles",
            "--rating",
            "W",
            "--ladder",
            "te",
            "-",
        ],
        &input,
    );
    // The bad record is reported and makes the status 1; the four
    // killers, each with its cages, are classified.
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "<stdin>:5: f-puzzles: character '!' at position 10 is not base64 (the compressed form)"
    );
    assert!(
        run.has_line("4 puzzles; distribution: 1:2 2:2"),
        "{}",
        run.stdout
    );
    assert!(
        run.has_line("TE1         4        4  100.00%"),
        "{}",
        run.stdout
    );
    // Other commands that take one type still refuse it, naming those
    // that read it.
    let bare = ruledoku(["subsume", "--type", "f-puzzles", "w", "w", "-"]);
    assert_eq!(bare.code, Some(2));
    assert!(
        bare.stderr.contains("and `classify` only"),
        "{}",
        bare.stderr
    );
}
