//! `solve --type` and `rate --type` (issue 23): the typed back end from
//! the command line, its output forms, `--verify`, and what it refuses.

mod common;

use common::*;

fn csp_rules(name: &str) -> String {
    data(&format!("csp-rules/{name}")).display().to_string()
}

#[test]
fn a_latin_square_path_names_its_type_and_cells() {
    // A puzzle of `generate --type latin:4 --seed 1`, on the command line.
    let run = ruledoku([
        "solve",
        "--type",
        "latin:4",
        "--rules",
        "singles",
        "--no-time",
        "43...2.1.......3",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines[0], "43...2.1.......3");
    assert_eq!(lines[1], "rule set: singles (3 rules), type latin:4");
    assert!(lines.contains(&"PUZZLE SOLVED."), "{}", run.stdout);
    assert_eq!(
        lines[lines.len() - 1],
        "rating: NS (level 0, hardest rule: naked-single)"
    );
    // Every step is a single, named as CSP-Rules names them.
    let steps = &lines[2..lines.iter().position(|l| *l == "PUZZLE SOLVED.").unwrap()];
    assert_eq!(steps.len(), 11, "{steps:?}");
    assert_eq!(steps[0], "naked-single ==> r1c4 = 2");
    assert_eq!(steps[10], "naked-single ==> r4c3 = 2");
    assert_eq!(
        &lines[lines.len() - 5..lines.len() - 1],
        ["   4312", "   3241", "   2134", "   1423"]
    );
}

#[test]
fn rate_lines_json_and_csv_of_a_type() {
    let input = csp_rules("latin-9.txt");
    let line = ruledoku([
        "rate",
        "--type",
        "latin:9",
        "--rules",
        "singles",
        "--no-time",
        &input,
    ]);
    assert_eq!(line.code, Some(0), "{}", line.stderr);
    assert_eq!(line.lines().len(), 6);
    assert_eq!(
        line.lines()[0],
        "1 ....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8 \
         stuck - - -"
    );
    let json = ruledoku([
        "rate", "--type", "latin:9", "--rules", "singles", "--json", &input,
    ]);
    assert_eq!(json.code, Some(0));
    let first: serde_json::Value = serde_json::from_str(json.lines()[1]).unwrap();
    assert_eq!(first["type"], "latin:9");
    assert_eq!(first["stop"], "stuck");
    assert_eq!(first["level"], serde_json::Value::Null);
    assert_eq!(first["steps"][0], "hidden-single-in-a-column ==> r6c3 = 5");
    let csv = ruledoku([
        "rate",
        "--type",
        "latin:9",
        "--rules",
        "singles",
        "--csv",
        "--no-time",
        &input,
    ]);
    assert_eq!(csv.code, Some(0));
    assert_eq!(csv.lines().len(), 7, "a header and six rows");
    assert!(csv.lines()[2].starts_with("2,..345.789"), "{}", csv.stdout);
}

#[test]
fn bad_records_are_reported_and_the_batch_goes_on() {
    // A short line, a row with a symbol twice, an empty grid (many
    // solutions), a grid with no solution, then a good puzzle.
    let input = "12\n11..............\n................\n.2341...........\n43...2.1.......3\n";
    let run = ruledoku_stdin(
        [
            "rate",
            "--type",
            "latin:4",
            "--rules",
            "singles",
            "--no-time",
            "--verify",
            "-",
        ],
        input,
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines.len(), 5, "{}", run.stdout);
    assert!(lines[0].starts_with("1 - invalid - - - "), "{}", lines[0]);
    assert_eq!(
        lines[1],
        "2 - invalid - - - givens r1c1 = 1 and r1c2 = 1 contradict each other (both in row 1)"
    );
    assert_eq!(
        lines[2],
        "3 ................ multiple-solutions - - - the puzzle has several solutions"
    );
    assert_eq!(
        lines[3],
        "4 .2341........... no-solution - - - the puzzle has no solution"
    );
    assert_eq!(lines[4], "5 43...2.1.......3 solved NS naked-single 0");
    assert!(
        run.stderr
            .contains("verify: 1 puzzle checked, 0 with a wrong step"),
        "{}",
        run.stderr
    );
}

#[test]
fn sets_and_options_the_typed_back_end_does_not_serve_are_errors() {
    let input = csp_rules("latin-9.txt");
    // `band(x)` has no meaning on irregular regions: a set with a rule
    // that reads it is refused on such a type, the rule named.
    let dir = tempfile::tempdir().unwrap();
    let jigsaw = dir.path().join("jigsaw.yaml");
    std::fs::write(
        &jigsaw,
        "size: 4\nregions: |\n  A A B B\n  A C C B\n  A C D B\n  C D D D\n",
    )
    .unwrap();
    let adv = ruledoku([
        "rate",
        "--type",
        jigsaw.to_str().unwrap(),
        "--rules",
        "advanced",
        "....",
    ]);
    assert_eq!(adv.code, Some(2));
    assert!(
        adv.stderr
            .contains("rule set `advanced` does not run on type `jigsaw`")
            && adv.stderr.contains("rule `empty-rectangle-column-pair` (")
            && adv.stderr.contains("needs regular blocks"),
        "{}",
        adv.stderr
    );
    let se = ruledoku(["rate", "--type", "latin:9", "--se", &input]);
    assert_eq!(se.code, Some(2));
    assert!(
        se.stderr
            .contains("--se is not available with --type latin:9"),
        "{}",
        se.stderr
    );
    // Pictures are drawn for every type (tests/draw_typed.rs); `rate`
    // has no --svg.
    let dir = tempfile::tempdir().unwrap();
    let svg = ruledoku([
        "rate",
        "--type",
        "latin:9",
        "--svg",
        dir.path().to_str().unwrap(),
        &input,
    ]);
    assert_eq!(svg.code, Some(2));
    assert!(svg.stderr.contains("--svg"), "{}", svg.stderr);
    let bad = ruledoku(["rate", "--type", "latin:0", &input]);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("from 2 to 64"), "{}", bad.stderr);
}

#[test]
fn subsets_run_on_a_latin_square() {
    // CSP-Rules-Examples' 9×9 Latin squares: sfin's subsets in rows and
    // columns (puzzles 2 and 4), no block.
    let input = csp_rules("latin-9.txt");
    let run = ruledoku([
        "solve",
        "--type",
        "latin:9",
        "--rules",
        "sfin",
        "--no-time",
        "--verify",
        &input,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let steps: Vec<&str> = (run.stdout.lines())
        .filter(|l| l.starts_with("hidden-pairs") || l.starts_with("naked-pairs"))
        .collect();
    assert_eq!(
        steps,
        [
            "hidden-pairs-in-a-row: r2{n4 n7}{c1 c3} ==> r2c3 ≠ 9, r2c3 ≠ 1, r2c1 ≠ 9, r2c1 ≠ 6, r2c1 ≠ 3, r2c1 ≠ 2, r2c1 ≠ 1",
            "hidden-pairs-in-a-row: r8{n4 n7}{c1 c2} ==> r8c2 ≠ 9, r8c2 ≠ 8, r8c2 ≠ 3, r8c2 ≠ 2, r8c2 ≠ 1, r8c1 ≠ 9, r8c1 ≠ 5, r8c1 ≠ 3, r8c1 ≠ 2, r8c1 ≠ 1",
            "naked-pairs-in-a-column: c1{r2 r8}{n4 n7} ==> r5c1 ≠ 4, r4c1 ≠ 7",
            "hidden-pairs-in-a-column: c3{n4 n8}{r7 r8} ==> r8c3 ≠ 7, r8c3 ≠ 6, r8c3 ≠ 5, r8c3 ≠ 3, r7c3 ≠ 9, r7c3 ≠ 7, r7c3 ≠ 6, r7c3 ≠ 5, r7c3 ≠ 3, r7c3 ≠ 1",
        ]
    );
    assert!(
        run.stderr
            .contains("verify: 6 puzzles checked, 0 with a wrong step"),
        "{}",
        run.stderr
    );
}

#[test]
fn the_classic_type_by_name_is_the_classic_path() {
    let p = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";
    let plain = ruledoku(["rate", "--rules", "singles", "--no-time", p]);
    let named = ruledoku([
        "rate",
        "--type",
        "sudoku:9",
        "--rules",
        "singles",
        "--no-time",
        p,
    ]);
    assert_eq!(plain.code, Some(0));
    assert_eq!(plain.stdout, named.stdout);
}

#[test]
fn hidden_singles_of_x_sudoku_diagonals_are_placed() {
    // rules/singles.rules names the diagonal spaces (`dn`, `an`), which
    // classic Sudoku has not: five rules of the set run on X-Sudoku, four
    // on classic Sudoku.
    let dir = tempfile::tempdir().unwrap();
    let ty = dir.path().join("x.yaml");
    std::fs::write(
        &ty,
        "name: x-sudoku\nsize: 9\nblocks: 3x3\ndiagonals: both\n",
    )
    .unwrap();
    // `generate --type x.yaml --seed 2`'s first puzzle.
    let p = "...61.7.8.3........4.....65...2.....................19...546.......3..8.4...7....";
    let run = ruledoku([
        "solve",
        "--type",
        ty.to_str().unwrap(),
        "--rules",
        "singles",
        "--no-time",
        p,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines[1], "rule set: singles (5 rules), type x-sudoku");
    assert_eq!(lines[2], "hidden-single-in-a-diagonal ==> r6c6 = 4");
    assert_eq!(lines[3], "hidden-single-in-a-row ==> r1c8 = 4");
    let list = ruledoku(["rules", "list", "--rules", "singles"]);
    assert_eq!(list.lines().len(), 6, "{}", list.stdout);
    assert!(!list.stdout.contains("diagonal"), "{}", list.stdout);
}

#[test]
fn rules_list_and_check_for_a_type() {
    let list = ruledoku(["rules", "list", "--rules", "singles", "--type", "latin:9"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let lines = list.lines();
    assert_eq!(
        lines[0],
        "rule set singles on type latin:9: Naked and hidden singles only"
    );
    assert!(
        lines[5].starts_with("hidden-single-in-a-block "),
        "{}",
        list.stdout
    );
    assert!(
        lines[5].ends_with("(left out: the type has no bn)"),
        "{}",
        list.stdout
    );
    assert!(lines[4].starts_with("hidden-single-in-a-column ") && !lines[4].contains("left out"));
    let check = ruledoku(["rules", "check", "--type", "latin:9", "singles", "sfin"]);
    assert_eq!(check.code, Some(0), "{}", check.stderr);
    assert_eq!(
        check.lines(),
        [
            "singles: ok on type latin:9, 3 rules (6 left out: a space or house kind the type has not)",
            "sfin: ok on type latin:9, 22 rules (18 left out: a space or house kind the type has not)"
        ]
    );
    let fish = ruledoku(["rules", "list", "--rules", "sfin", "--type", "latin:9"]);
    assert!(
        fish.lines()
            .iter()
            .any(|l| l.starts_with("finned-x-wing-in-rows ")
                && l.ends_with("(left out: the type has no blocks)")),
        "{}",
        fish.stdout
    );
    let se = ruledoku(["rules", "list", "--rules", "se", "--type", "sudoku:16"]);
    assert_eq!(se.code, Some(2));
    assert!(se.stderr.contains("first-producer"), "{}", se.stderr);
}

/// Issue 23's user type: a 6×6 Sudoku with irregular regions, its YAML
/// written from docs/puzzle-types.md alone (tests/data/types/jigsaw-6.yaml),
/// 18 of its generated puzzles rated with `w`, every step verified.
#[test]
fn a_users_own_irregular_type_is_rated_and_verified() {
    let ty = data("types/jigsaw-6.yaml").display().to_string();
    let input = data("types/jigsaw-6.txt");
    let text = std::fs::read_to_string(&input).unwrap();
    // Each record: the puzzle, the hardest rule `w` uses, `#` its number.
    let expected: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[0], f[1])
        })
        .collect();
    assert_eq!(expected.len(), 18);
    let input = input.display().to_string();
    let run = ruledoku([
        "rate",
        "--type",
        &ty,
        "--rules",
        "w",
        "--json",
        "--no-time",
        "--verify",
        &input,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("verify: 18 puzzles checked, 0 with a wrong step"),
        "{}",
        run.stderr
    );
    let got: Vec<serde_json::Value> = run
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(got.len(), 18);
    for (g, (puzzle, hardest)) in got.iter().zip(&expected) {
        assert_eq!(g["puzzle"], *puzzle);
        assert_eq!(g["type"], "jigsaw-6");
        assert_eq!(g["solved"], true, "{g}");
        assert_eq!(g["hardest_rule"], *hardest, "{puzzle}");
    }
    let levels: Vec<i64> = got.iter().map(|g| g["level"].as_i64().unwrap()).collect();
    assert_eq!(
        levels,
        [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4]
    );
    // The hardest one's path, reviewed by eye: regions are blocks b1…b6
    // (in the order their letters first appear), whips cross them.
    let path = ruledoku([
        "solve",
        "--type",
        &ty,
        "--rules",
        "w",
        "--no-time",
        expected[17].0,
    ]);
    assert_eq!(path.code, Some(0), "{}", path.stderr);
    insta::assert_snapshot!("jigsaw_6_w4_path", path.stdout);
}

#[test]
fn a_refused_set_writes_no_picture_folder() {
    // The set is checked against the type before `--svg DIR` is made.
    let input = csp_rules("futoshiki-7.txt");
    let dir = tempfile::tempdir().unwrap();
    let pics = dir.path().join("pics");
    let page = dir.path().join("f.html");
    let run = ruledoku([
        "solve",
        "--type",
        "futoshiki:7",
        "--rules",
        "se",
        "--svg",
        pics.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr
            .starts_with("error: rule set `se` is first-producer"),
        "{}",
        run.stderr
    );
    assert!(!pics.exists() && !page.exists());
    // The same run with a set for the type: a picture per step, one page,
    // the same paths with -j 2 and --stats after each.
    let ok = ruledoku([
        "solve",
        "--type",
        "futoshiki:7",
        "--rules",
        "w",
        "--no-time",
        "--stats",
        "-j",
        "2",
        "--svg",
        pics.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(ok.code, Some(0), "{}", ok.stderr);
    let steps = ok.stdout.lines().filter(|l| l.contains(" ==> ")).count();
    let svgs = std::fs::read_dir(&pics).unwrap().count();
    assert_eq!(svgs, steps);
    // The page: a frame per step, and the start and end of each of the
    // four puzzles.
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<h2>Line ").count(), 4);
    assert_eq!(html.matches("<svg").count(), steps + 2 * 4);
    let plain = ruledoku([
        "solve",
        "--type",
        "futoshiki:7",
        "--rules",
        "w",
        "--no-time",
        "-j",
        "1",
        &input,
    ]);
    // Each path is followed by its table (from `rule … calls` to `total`).
    let mut in_table = false;
    let mut without_stats = String::new();
    for l in ok.stdout.lines() {
        if l.starts_with("rule ") && l.contains(" calls ") {
            in_table = true;
        }
        if !in_table {
            without_stats.push_str(l);
            without_stats.push('\n');
        }
        if l.starts_with("total ") {
            in_table = false;
        }
    }
    assert_eq!(ok.stdout.matches("\ntotal ").count(), 4);
    assert_eq!(without_stats.trim_end(), plain.stdout.trim_end());
}

#[test]
fn classify_climbs_ladders_on_a_type() {
    // Each rung goes on from where the one below stopped: the W ladder's
    // first solving rung is each puzzle's W rating (run from the givens).
    let input = csp_rules("futoshiki-7.txt");
    let run = ruledoku([
        "classify",
        "--type",
        "futoshiki:7",
        "--ladder",
        "w",
        "--rating",
        "W",
        "--each",
        &input,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let words: Vec<String> = run
        .lines()
        .iter()
        .take(4)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {}", f[0], f[f.len() - 2], f[f.len() - 1])
        })
        .collect();
    assert_eq!(words, ["1 W13 13", "2 W13 13", "3 W9 9", "4 W2 2"]);
    assert!(
        run.has_line("4 puzzles; distribution: 2:1 9:1 13:2"),
        "{}",
        run.stdout
    );
    // Every rung from the puzzle itself: the same first rungs.
    let all = ruledoku([
        "classify",
        "--type",
        "futoshiki:7",
        "--ladder",
        "w",
        "--all",
        "--each",
        &input,
    ]);
    assert_eq!(all.code, Some(0), "{}", all.stderr);
    let firsts: Vec<&str> = all
        .lines()
        .iter()
        .take(4)
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(firsts, ["W13", "W13", "W9", "W2"]);
    // Latin squares on Berthier's L and M ladders (typed chains and
    // 3D chains over the basic rules).
    let latin = ruledoku([
        "classify",
        "--type",
        "latin:9",
        "--ladder",
        "l",
        "--ladder",
        "m",
        "--each",
        &csp_rules("latin-9.txt"),
    ]);
    assert_eq!(latin.code, Some(0), "{}", latin.stderr);
    let words: Vec<String> = latin
        .lines()
        .iter()
        .take(6)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            format!("{} {} {}", f[0], f[2], f[3])
        })
        .collect();
    assert_eq!(
        words,
        [
            "1 L8 M5", "2 L10 M6", "3 - M7", "4 L12 M9", "5 - M9", "6 - -"
        ]
    );
    // X-Sudoku: the rungs keep the rules over the diagonals' spaces (a
    // random minimal puzzle that is W5; without the diagonals' hidden
    // singles the W ladder took it to W8).
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x.yaml");
    std::fs::write(&x, "size: 9\nblocks: 3x3\ndiagonals: both\n").unwrap();
    let x = ruledoku([
        "classify",
        "--type",
        x.to_str().unwrap(),
        "--ladder",
        "w",
        "--rating",
        "W",
        "--each",
        "..2.....73...6.....4........1.8..........5.....3.915.........3.48..7.......2.....",
    ]);
    assert_eq!(x.code, Some(0), "{}", x.stderr);
    assert!(x.lines()[0].ends_with(" W5 5"), "{}", x.stdout);
    // A set that does not run on the type, and a bad record.
    let se = ruledoku(["classify", "--type", "futoshiki:7", "--rules", "se", &input]);
    assert_eq!(se.code, Some(2));
    assert!(se.stderr.contains("first-producer"), "{}", se.stderr);
    let bad = ruledoku_stdin(
        ["classify", "--type", "latin:4", "--rating", "W", "-"],
        "12\n",
    );
    assert_eq!(bad.code, Some(1));
    assert_eq!(
        bad.stderr,
        "<stdin>:1:1: line has 2 cells, expected 16\n<stdin>: no puzzle could be classified\n"
    );
}

#[test]
fn subsume_studies_rules_on_a_type() {
    // Latin squares have rows and columns: an X-Wing is a whip there too,
    // and a whip[3] is not an X-Wing (the first counter-example, exactly).
    let latin = csp_rules("latin-9.txt");
    let run = ruledoku(["subsume", "--type", "latin:9", "x-wing", "whip", &latin]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    for line in [
        "puzzles: 6 studied, 0 not studied",
        "states examined: 177 (where no single applies; 275 before a single not examined: --every-state)",
        "A concludes at 6 states: 11 eliminations, 0 assertions",
        "B misses: 0 eliminations, 0 assertions (at 0 states, in 0 puzzles)",
        "result: A ⊆ B on every state examined",
    ] {
        assert!(run.has_line(line), "{line}\n{}", run.stdout);
    }
    let run = ruledoku([
        "subsume",
        "--type",
        "latin:9",
        "whip[..3]",
        "x-wing",
        "--examples",
        "1",
        &latin,
    ]);
    assert_eq!(run.code, Some(4), "{}", run.stderr);
    for line in [
        "counter-example 1: ".to_string() + &latin + ":1",
        "  A: whip[3]: r1c1{n7 n1} - c3n1{r1 r6} - r6c2{n1 .} ==> r1c2 ≠ 7".into(),
        "  B misses: r1c2 ≠ 7".into(),
        "result: A ⊄ B".into(),
    ] {
        assert!(run.has_line(&line), "{line}\n{}", run.stdout);
    }
    // The state is the type's pencil marks: 81 cells, givens as they are.
    let state = run
        .lines()
        .into_iter()
        .find_map(|l| l.strip_prefix("  state: ").map(str::to_string))
        .unwrap();
    let cells: Vec<&str> = state.split(' ').collect();
    assert_eq!(cells.len(), 81);
    assert_eq!(&cells[..5], ["17", "1278", "123467", "467", "5"]);
    // B to its fixpoint covers more than B's direct matches.
    let counts = |closure: bool| {
        let mut args = vec![
            "subsume",
            "--type",
            "latin:9",
            "whip[3]",
            "basic+whip[..2]",
            "--every-counterexample",
            "--examples",
            "0",
        ];
        if closure {
            args.push("--closure");
        }
        args.push(&latin);
        let run = ruledoku(args);
        assert_eq!(run.code, Some(4), "{}", run.stderr);
        assert!(run.has_line("A concludes at 27 states: 96 eliminations, 0 assertions"));
        run.lines()
            .into_iter()
            .find(|l| l.starts_with("B misses: "))
            .unwrap()
            .to_string()
    };
    assert_eq!(
        counts(false),
        "B misses: 47 eliminations, 0 assertions (at 16 states, in 6 puzzles)"
    );
    assert_eq!(
        counts(true),
        "B misses: 34 eliminations, 0 assertions (at 9 states, in 4 puzzles)"
    );
    // Futoshiki: a whip over one kind of variable is a whip.
    let futo = csp_rules("futoshiki-7.txt");
    let run = ruledoku([
        "subsume",
        "--type",
        "futoshiki:7",
        "whip-rc[2]",
        "whip[2]",
        "--json",
        &futo,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["subsumed"], true);
    // (FutoRules' own rules, rules/futoshiki.rules, run on the path
    // before any whip: most eliminations are theirs.)
    assert_eq!(v["counts"]["states"], 147);
    assert_eq!(v["counts"]["states_with_a"], 22);
    assert_eq!(v["counts"]["a_eliminations"], 58);
    // A set that cannot run on the type is an error before any puzzle.
    let run = ruledoku(["subsume", "--type", "latin:9", "x-wing", "se", &latin]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("B: rule set `se` does not run on type `latin:9`"),
        "{}",
        run.stderr
    );
}

/// FutoRules' order rules are `unrated` (rules/futoshiki.rules): a
/// thermometer puzzle they and the naked singles solve is rated by its
/// hardest single, not by the first order step (which comes first, at the
/// singles' complexity 0).
#[test]
fn order_rules_never_rate_a_run() {
    let ty = data("types/thermo-4.yaml").display().to_string();
    let run = ruledoku([
        "solve",
        "--type",
        &ty,
        "--rules",
        "w",
        "--no-time",
        "--verify",
        "................",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = run.lines();
    let asc: Vec<&&str> = lines.iter().filter(|l| l.starts_with("asc[3]: ")).collect();
    assert_eq!(asc.len(), 3, "{}", run.stdout);
    assert_eq!(
        lines[2],
        "asc[3]: r1c1 < ... < r1c4 ==> r1c4 ≠ 3, r1c4 ≠ 2, r1c4 ≠ 1, r1c3 ≠ 4, r1c3 ≠ 2, r1c3 ≠ 1, r1c2 ≠ 4, r1c2 ≠ 3, r1c2 ≠ 1, r1c1 ≠ 4, r1c1 ≠ 3, r1c1 ≠ 2"
    );
    assert_eq!(
        lines[lines.len() - 1],
        "rating: NS (level 0, hardest rule: naked-single)"
    );
    assert_eq!(
        &lines[lines.len() - 5..lines.len() - 1],
        ["   1234", "   4321", "   2143", "   3412"]
    );
}
