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
    // Subsets bind cells and houses: not a portable rule yet.
    let sfin = ruledoku(["rate", "--type", "latin:9", "--rules", "sfin", &input]);
    assert_eq!(sfin.code, Some(2));
    assert!(
        sfin.stderr
            .contains("rule set `sfin` does not run on type `latin:9`")
            && sfin.stderr.contains("rule `naked-pairs-in-a-row` (")
            && sfin.stderr.contains("cannot run on type `latin:9`"),
        "{}",
        sfin.stderr
    );
    let se = ruledoku(["rate", "--type", "latin:9", "--se", &input]);
    assert_eq!(se.code, Some(2));
    assert!(
        se.stderr
            .contains("--se is not available with --type latin:9"),
        "{}",
        se.stderr
    );
    let dir = tempfile::tempdir().unwrap();
    let svg = ruledoku([
        "solve",
        "--type",
        "latin:9",
        "--rules",
        "singles",
        "--svg",
        dir.path().to_str().unwrap(),
        &input,
    ]);
    assert_eq!(svg.code, Some(2));
    assert!(
        svg.stderr.contains("--svg is not available"),
        "{}",
        svg.stderr
    );
    let bad = ruledoku(["rate", "--type", "latin:0", &input]);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("from 2 to 64"), "{}", bad.stderr);
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
        lines[5].ends_with("(left out: no such space)"),
        "{}",
        list.stdout
    );
    assert!(lines[4].starts_with("hidden-single-in-a-column ") && !lines[4].contains("left out"));
    let check = ruledoku(["rules", "check", "--type", "latin:9", "singles", "sfin"]);
    assert_eq!(check.code, Some(1), "{}", check.stderr);
    assert_eq!(
        check.lines()[0],
        "singles: ok on type latin:9, 3 rules (6 left out: a space the type has not)"
    );
    assert!(
        check.lines()[1].starts_with("sfin: rule set `sfin` does not run on type `latin:9`:"),
        "{}",
        check.stdout
    );
    let se = ruledoku(["rules", "list", "--rules", "se", "--type", "sudoku:16"]);
    assert_eq!(se.code, Some(2));
    assert!(se.stderr.contains("first-producer"), "{}", se.stderr);
}
