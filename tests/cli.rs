//! End-to-end tests of the `ruledoku` binary: user-defined rules and rule
//! sets, rule-file diagnostics (snapshots under `tests/snapshots/`), the
//! brute-force `check`, `solve`/`rate` output formats and `bench`.
//!
//! Every command is run as a child process from the crate root; every run
//! is checked not to have panicked (exit status 101 or a "panicked" message).
//!

use serde_json::Value;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

mod common;
use common::*;

const EMPTY_GRID: &str =
    ".................................................................................";

/// SudoRules' path of an x-wing-in-rows puzzle (config SFin).
const SHP_ROW_FILE: &str = "tests/data/sudorules/subsets-S2-SHP-row-Royle17-6973.sdk.txt";

// ---------------------------------------------------------------------------
// helpers

/// Runs the binary with a standard output whose reading end is already
/// closed (as in `ruledoku … | head -1` once `head` has exited).
fn ruledoku_closed_stdout(args: &[&str]) -> Option<i32> {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let (mut cmd, _) = command(args);
    cmd.stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::null())
        .status()
        .expect("run the ruledoku binary")
        .code()
}

/// The first `n` lines (at most 1000) of the cbg-000 corpus, from its copy
/// in tests/data/, in a temporary file.
fn corpus_head(n: usize) -> (tempfile::TempDir, PathBuf, Vec<String>) {
    let corpus = root().join("tests/data/cbg-000-first1000.txt");
    let text = fs::read_to_string(&corpus).expect("tests/data/cbg-000-first1000.txt");
    let lines: Vec<String> = text.lines().take(n).map(str::to_string).collect();
    assert_eq!(lines.len(), n, "the corpus has at least {n} lines");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("first-{n}.txt"));
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    (dir, path, lines)
}

/// The 81 cells of a line of the corpus (the puzzle, without its metadata).
fn cells(line: &str) -> &str {
    let cells = &line[..81];
    assert!(cells.bytes().all(|b| b == b'.' || b.is_ascii_digit()));
    cells
}

/// Checks that `solution` is a complete valid grid that keeps the givens of
/// `puzzle`.
fn assert_solution_of(solution: &str, puzzle: &str) {
    assert_eq!(solution.len(), 81, "solution {solution:?} has 81 digits");
    let d: Vec<u8> = solution.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    assert!(
        d.iter().all(|&x| (1..=9).contains(&x)),
        "solution {solution:?} has digits 1-9 only"
    );
    for (i, g) in puzzle.bytes().enumerate() {
        if matches!(g, b'1'..=b'9') {
            assert_eq!(
                g - b'0',
                d[i],
                "solution {solution} keeps given {i} of {puzzle}"
            );
        }
    }
    for h in 0..9 {
        let row: Vec<usize> = (0..9).map(|i| 9 * h + i).collect();
        let col: Vec<usize> = (0..9).map(|i| 9 * i + h).collect();
        let block: Vec<usize> = (0..9)
            .map(|i| 27 * (h / 3) + 3 * (h % 3) + 9 * (i / 3) + i % 3)
            .collect();
        for house in [row, col, block] {
            let mut seen = [false; 10];
            for c in house {
                assert!(!seen[d[c] as usize], "solution {solution} repeats a digit");
                seen[d[c] as usize] = true;
            }
        }
    }
}

/// The solution found by `ruledoku check --solution` for one puzzle.
fn oracle_solution(puzzle: &str) -> String {
    let run = ruledoku_stdin(["check", "--solution", "-"], &format!("{puzzle}\n"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let first = run.lines()[0].to_string();
    let fields: Vec<&str> = first.split(' ').collect();
    assert_eq!(fields[..3], ["1", puzzle, "unique"], "{first}");
    fields[3].to_string()
}

/// The 81-character grid printed by `solve` after "PUZZLE SOLVED.".
fn solved_grid(stdout: &str) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == "PUZZLE SOLVED.")
        .unwrap_or_else(|| panic!("no PUZZLE SOLVED. in\n{stdout}"));
    lines[at + 1..at + 10].iter().map(|l| l.trim()).collect()
}

/// The puzzle SudoRules solved in one of its path files, and the lines of its
/// path that are not singles.
fn sudorules_path(file: &str) -> (String, Vec<String>) {
    let text = fs::read_to_string(root().join(file)).unwrap();
    let puzzle = text
        .lines()
        .find_map(|l| l.strip_prefix("(solve \"")?.strip_suffix("\")"))
        .expect("a (solve \"…\") line")
        .to_string();
    let steps = text
        .lines()
        .filter(|l| l.contains(" ==> ") && !l.contains("single"))
        .map(str::to_string)
        .collect();
    (puzzle, steps)
}

/// The steps of a `solve` text output that are not singles.
fn non_single_steps(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.contains(" ==> ") && !l.contains("single"))
        .collect()
}

/// A temporary folder holding singles.rules and whips1.rules (copied from
/// rules/), xwing-rows.rules (MY_X_WING) and my.yaml listing the three.
fn user_rules_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["singles.rules", "whips1.rules"] {
        fs::copy(root().join("rules").join(f), dir.path().join(f)).unwrap();
    }
    fs::write(dir.path().join("xwing-rows.rules"), MY_X_WING).unwrap();
    fs::write(
        dir.path().join("my.yaml"),
        "# Singles, whips[1] and a user-defined x-wing in rows.\n\
         name: my\n\
         description: Singles, whips[1] and my x-wing in rows\n\
         files:\n  - singles.rules\n  - whips1.rules\n  - xwing-rows.rules\n",
    )
    .unwrap();
    dir
}

/// The rule names of a `rules list` output (its lines after the header).
fn listed_rules(stdout: &str) -> Vec<String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("rule ") && l.contains("complexity"))
        .unwrap_or_else(|| panic!("no header in\n{stdout}"));
    lines[header + 1..]
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temporary path")
}

// ---------------------------------------------------------------------------
// 1. a user-defined rule

#[test]
fn user_rule_in_a_set_file_reproduces_the_sudorules_x_wing_step() {
    let (puzzle, sudorules) = sudorules_path(SHP_ROW_FILE);
    assert_eq!(
        sudorules,
        [
            "whip[1]: b6n5{r6c9 .} ==> r2c9 ≠ 5",
            "x-wing-in-rows: n5{r2 r8}{c2 c8} ==> r9c8 ≠ 5, r5c2 ≠ 5, r1c2 ≠ 5",
        ],
        "SudoRules' path in {SHP_ROW_FILE}"
    );
    let dir = user_rules_dir();
    let set = dir.path().join("my.yaml");
    let run = ruledoku(["solve", "--rules", path_str(&set), &puzzle]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.has_line("rule set: my (6 rules)"), "{}", run.stdout);
    assert!(
        run.has_line("my-x-wing-in-rows: n5{r2 r8}{c2 c8} ==> r9c8 ≠ 5, r5c2 ≠ 5, r1c2 ≠ 5"),
        "{}",
        run.stdout
    );
    // The whole non-singles part of the path is SudoRules' one, with the
    // user's rule name.
    let expected: Vec<String> = sudorules
        .iter()
        .map(|l| l.replace("x-wing-in-rows:", "my-x-wing-in-rows:"))
        .collect();
    assert_eq!(non_single_steps(&run.stdout), expected);
    assert!(run.has_line("PUZZLE SOLVED."), "{}", run.stdout);
    assert!(
        run.has_line("rating: SHP (level 2, hardest rule: my-x-wing-in-rows)"),
        "{}",
        run.stdout
    );
    assert_eq!(solved_grid(&run.stdout), oracle_solution(&puzzle));
}

#[test]
fn user_rule_set_is_checked_and_listed() {
    let dir = user_rules_dir();
    let set = dir.path().join("my.yaml");
    let set = path_str(&set);

    let check = ruledoku(["rules", "check", set]);
    assert_eq!(check.code, Some(0), "{}{}", check.stdout, check.stderr);
    assert_eq!(check.stdout, format!("{set}: ok, 6 rules\n"));
    // `--rules` names the set as on the other commands.
    let by_option = ruledoku(["rules", "check", "--rules", set]);
    assert_eq!(by_option.code, Some(0), "{}", by_option.stderr);
    assert_eq!(by_option.stdout, check.stdout);
    let none = ruledoku(["rules", "check"]);
    assert_eq!(none.code, Some(2));

    let list = ruledoku(["rules", "list", "--rules", set]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(
        list.has_line("rule set my: Singles, whips[1] and my x-wing in rows"),
        "{}",
        list.stdout
    );
    assert_eq!(
        listed_rules(&list.stdout),
        [
            "naked-single",
            "hidden-single-in-a-row",
            "hidden-single-in-a-column",
            "hidden-single-in-a-block",
            "whip[1]",
            "my-x-wing-in-rows",
        ]
    );
    let mine = list
        .lines()
        .into_iter()
        .find(|l| l.starts_with("my-x-wing-in-rows "))
        .unwrap();
    let fields: Vec<&str> = mine.split_whitespace().collect();
    assert_eq!(fields[1..4], ["202", "2", "SHP"], "{mine}");
    assert!(
        fields[4].starts_with(&format!(
            "{}:",
            dir.path().join("xwing-rows.rules").display()
        )),
        "{mine}"
    );
}

#[test]
fn rules_option_accepts_a_folder_of_rule_files() {
    let (puzzle, _) = sudorules_path(SHP_ROW_FILE);
    let dir = user_rules_dir();
    let folder = path_str(dir.path());

    let list = ruledoku(["rules", "list", "--rules", folder]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let rules = listed_rules(&list.stdout);
    assert_eq!(rules.len(), 6, "{}", list.stdout);
    assert!(
        rules.iter().any(|r| r == "my-x-wing-in-rows"),
        "{}",
        list.stdout
    );

    let run = ruledoku(["solve", "--rules", folder, &puzzle]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        non_single_steps(&run.stdout),
        [
            "whip[1]: b6n5{r6c9 .} ==> r2c9 ≠ 5",
            "my-x-wing-in-rows: n5{r2 r8}{c2 c8} ==> r9c8 ≠ 5, r5c2 ≠ 5, r1c2 ≠ 5",
        ]
    );
    assert!(
        run.has_line("rating: SHP (level 2, hardest rule: my-x-wing-in-rows)"),
        "{}",
        run.stdout
    );

    let check = ruledoku(["rules", "check", folder]);
    assert_eq!(check.code, Some(0), "{}", check.stdout);
    assert_eq!(check.stdout, format!("{folder}: ok, 6 rules\n"));
}

#[test]
fn rules_option_accepts_a_single_rule_file() {
    let (puzzle, _) = sudorules_path(SHP_ROW_FILE);
    let dir = user_rules_dir();
    let file = dir.path().join("xwing-rows.rules");
    let file = path_str(&file);

    let list = ruledoku(["rules", "list", "--rules", file]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert_eq!(listed_rules(&list.stdout), ["my-x-wing-in-rows"]);

    // Without singles only the x-wing applies; the first one found from the
    // givens is n1{r1 r7}{c3 c6} (row 1 has 1 in c6 only, row 7 in c3 only).
    let run = ruledoku(["solve", "--rules", file, &puzzle]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let steps: Vec<&str> = run
        .lines()
        .into_iter()
        .filter(|l| l.contains(" ==> "))
        .collect();
    assert_eq!(
        steps.first().copied(),
        Some(
            "my-x-wing-in-rows: n1{r1 r7}{c3 c6} ==> r9c6 ≠ 1, r9c3 ≠ 1, r6c3 ≠ 1, r4c3 ≠ 1, r3c6 ≠ 1"
        ),
        "{}",
        run.stdout
    );
    assert!(
        steps.iter().all(|s| s.starts_with("my-x-wing-in-rows: ")),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("PUZZLE NOT SOLVED (no rule applies)."),
        "{}",
        run.stdout
    );
    assert!(
        run.has_line(
            "rating: none (not solved by xwing-rows; hardest rule applied: my-x-wing-in-rows)"
        ),
        "{}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------
// 2. rule-file diagnostics

/// The x-wing rule with `body` (lines 2 to 11) changed: one broken file.
fn broken_rule(body: &str) -> String {
    format!("rule my-x-wing-in-rows {{\n{body}}}\n")
}

/// Writes `source` to `<tmp>/<name>.rules`, runs `rules check` on it,
/// asserts it fails, reports an error at each of `locations` (`line:column`)
/// and counts its errors right; returns its output, with the temporary
/// folder replaced by `<tmp>`, and the number of errors.
fn rules_check_broken(name: &str, source: &str, locations: &[&str]) -> (String, usize) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(format!("{name}.rules"));
    fs::write(&file, source).unwrap();
    let run = ruledoku(["rules", "check", path_str(&file)]);
    let tmp = path_str(dir.path());
    let stdout = run.stdout.replace(tmp, "<tmp>");
    let stderr = run.stderr.replace(tmp, "<tmp>");
    assert_eq!(
        run.code,
        Some(1),
        "`rules check` fails on {name}\n{stdout}{stderr}"
    );
    let all = format!("{stdout}{stderr}");
    for at in locations {
        assert!(
            all.contains(&format!("  --> <tmp>/{name}.rules:{at}\n")),
            "an error at {at} in\n{all}"
        );
    }
    let errors = all.matches("\nerror: ").count() + usize::from(all.starts_with("error: "));
    assert!(
        all.contains(&format!("\n{errors} error(s)")),
        "{errors} error(s) counted in\n{all}"
    );
    let out = format!(
        "exit status: {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        run.code.unwrap()
    );
    (out, errors)
}

const GOOD_BODY: &str = "    complexity 202
    level 2
    rating \"SHP\"
    let X: digit
    let B: 2 row in houses(row, cands(X))
    let C = houses(column, cands(X) & cands(B))
    where |C| == 2
    eliminate cands(X) & cands(C) - cands(B)
    show \"${X}${B}${C}\"
";

#[test]
fn the_broken_rule_template_is_valid_when_unbroken() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("good.rules");
    fs::write(&file, broken_rule(GOOD_BODY)).unwrap();
    let run = ruledoku(["rules", "check", path_str(&file)]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert_eq!(run.stdout, format!("{}: ok, 1 rule\n", file.display()));
}

#[test]
fn rules_check_syntax_error_missing_closing_brace() {
    let source = format!(
        "/// An x-wing whose closing brace is missing.\nrule my-x-wing-in-rows {{\n{GOOD_BODY}"
    );
    let (out, errors) = rules_check_broken("missing-brace", &source, &["12:1"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("syntax error: expected "), "{out}");
    assert!(out.contains("found end of file"), "{out}");
    insta::assert_snapshot!("rules_check_missing_brace", out);
}

#[test]
fn rules_check_syntax_error_misspelled_keyword() {
    let source = broken_rule(&GOOD_BODY.replace("where |C|", "wehre |C|"));
    let (out, errors) = rules_check_broken("misspelled-keyword", &source, &["8:5"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("`where`"), "{out}");
    assert!(out.contains("found `wehre`"), "{out}");
    insta::assert_snapshot!("rules_check_misspelled_keyword", out);
}

#[test]
fn rules_check_unknown_function() {
    let source =
        broken_rule(&GOOD_BODY.replace("houses(row, cands(X))", "houses(row, candidates(X))"));
    let (out, errors) = rules_check_broken("unknown-function", &source, &["6:33"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("unknown function `candidates`"), "{out}");
    assert!(
        out.contains("cands"),
        "the known functions are listed: {out}"
    );
    insta::assert_snapshot!("rules_check_unknown_function", out);
}

#[test]
fn rules_check_unknown_name() {
    let source = broken_rule(&GOOD_BODY.replace("eliminate cands(X)", "eliminate cands(Y)"));
    let (out, errors) = rules_check_broken("unknown-name", &source, &["9:21"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("unknown name `Y`"), "{out}");
    insta::assert_snapshot!("rules_check_unknown_name", out);
}

#[test]
fn rules_check_type_mismatch() {
    let source = broken_rule(&GOOD_BODY.replace("where |C| == 2", "where |X| == cands(X)"));
    let (out, errors) = rules_check_broken("type-mismatch", &source, &["8:11"]);
    assert_eq!(errors, 1, "{out}");
    assert!(
        out.contains("type mismatch: `==` between integer and set of cand"),
        "{out}"
    );
    insta::assert_snapshot!("rules_check_type_mismatch", out);
}

#[test]
fn rules_check_unused_variable() {
    let source = broken_rule(&GOOD_BODY.replace(
        "    where |C| == 2\n",
        "    let D = digits(B)\n    where |C| == 2\n",
    ));
    let (out, errors) = rules_check_broken("unused-variable", &source, &["8:9"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("unused variable `D`"), "{out}");
    insta::assert_snapshot!("rules_check_unused_variable", out);
}

#[test]
fn rules_check_unbounded_family() {
    let source = broken_rule(&GOOD_BODY.replace(
        "    let C = houses(column, cands(X) & cands(B))\n",
        "    let C: M cell in cells(B)\n",
    ));
    let (out, errors) = rules_check_broken("unbounded-family", &source, &["7:12"]);
    assert_eq!(errors, 1, "{out}");
    assert!(
        out.contains("unbounded family: size `M` is not a family parameter"),
        "{out}"
    );
    insta::assert_snapshot!("rules_check_unbounded_family", out);
}

#[test]
fn rules_check_missing_conclusion() {
    let source =
        broken_rule(&GOOD_BODY.replace("    eliminate cands(X) & cands(C) - cands(B)\n", ""));
    let (out, errors) = rules_check_broken("missing-conclusion", &source, &["1:6"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("missing conclusion"), "{out}");
    assert!(out.contains("`eliminate` or `assert`"), "{out}");
    insta::assert_snapshot!("rules_check_missing_conclusion", out);
}

#[test]
fn rules_check_duplicate_conclusion() {
    let source =
        broken_rule(&GOOD_BODY.replace("    show ", "    assert cands(X) & cands(C)\n    show "));
    let (out, errors) = rules_check_broken("duplicate-conclusion", &source, &["10:5"]);
    assert_eq!(errors, 1, "{out}");
    assert!(out.contains("one conclusion"), "{out}");
    insta::assert_snapshot!("rules_check_duplicate_conclusion", out);
}

#[test]
fn rules_check_errors_in_a_show_template_after_non_ascii_text() {
    // Columns count characters, not bytes: `Q` is the 23rd character of its
    // line, `frob` starts at the 28th.
    let source = broken_rule(&GOOD_BODY.replace(
        "show \"${X}${B}${C}\"",
        "show \"≠≠ ${X} ≠ ${Q} ${frob(B)} ${C}\"",
    ));
    let (out, errors) = rules_check_broken("show-template", &source, &["10:23", "10:28"]);
    assert_eq!(errors, 2, "{out}");
    assert!(out.contains("unknown name `Q`"), "{out}");
    assert!(out.contains("unknown function `frob`"), "{out}");
    insta::assert_snapshot!("rules_check_show_template", out);
}

#[test]
fn rules_check_reports_all_errors_of_a_file() {
    // An unknown function (line 6), an unused definition (line 8) and an
    // unknown name (line 10), each reported once.
    let body = GOOD_BODY
        .replace("houses(row, cands(X))", "houses(row, frobnicate(X))")
        .replace(
            "    where |C| == 2\n",
            "    let Unused = cells(B)\n    where |C| == 2\n",
        )
        .replace(
            "eliminate cands(X) & cands(C)",
            "eliminate cands(X) & cands(Z)",
        );
    let (out, errors) = rules_check_broken(
        "three-errors",
        &broken_rule(&body),
        &["6:33", "8:9", "10:32"],
    );
    assert_eq!(errors, 3, "{out}");
    assert!(out.contains("unknown function `frobnicate`"), "{out}");
    assert!(out.contains("unused variable `Unused`"), "{out}");
    assert!(out.contains("unknown name `Z`"), "{out}");
    insta::assert_snapshot!("rules_check_three_errors", out);
}

#[test]
fn rules_check_on_a_folder_reports_every_broken_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a-good.rules"), broken_rule(GOOD_BODY)).unwrap();
    fs::write(
        dir.path().join("b-unused.rules"),
        broken_rule(&GOOD_BODY.replace("    where", "    let D = digits(B)\n    where")),
    )
    .unwrap();
    fs::write(
        dir.path().join("c-mismatch.rules"),
        broken_rule(&GOOD_BODY.replace("where |C| == 2", "where |X| == cands(X)")),
    )
    .unwrap();
    let run = ruledoku(["rules", "check", path_str(dir.path())]);
    assert_eq!(run.code, Some(1), "{}", run.stdout);
    let b = dir.path().join("b-unused.rules");
    let c = dir.path().join("c-mismatch.rules");
    assert!(
        run.stdout.contains(&format!("--> {}:8:9\n", b.display())),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("--> {}:8:11\n", c.display())),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\n2 error(s)"), "{}", run.stdout);
}

#[test]
fn rules_check_accepts_the_shipped_sets_and_folder() {
    for (path, set) in [
        ("rules/sets/sfin.yaml", "sfin"),
        ("rules/", "rules/"),
        ("sfin", "sfin"),
    ] {
        let run = ruledoku(["rules", "check", path]);
        assert_eq!(
            run.code,
            Some(0),
            "rules check {path}: {}{}",
            run.stdout,
            run.stderr
        );
        let count: usize = run
            .stdout
            .strip_prefix(&format!("{path}: ok, "))
            .and_then(|s| s.strip_suffix(" rules\n"))
            .unwrap_or_else(|| panic!("rules check {path}: {}", run.stdout))
            .parse()
            .unwrap();
        // As many rules as `rules list` shows for the same set.
        let list = ruledoku(["rules", "list", "--rules", set]);
        assert_eq!(list.code, Some(0), "{}", list.stderr);
        assert_eq!(listed_rules(&list.stdout).len(), count, "rules of {path}");
    }
}

// ---------------------------------------------------------------------------
// 3. check (the brute-force oracle)

#[test]
fn check_broken_file_reports_each_bad_line_and_goes_on() {
    const FILE: &str = "tests/data/broken.txt";
    let text = fs::read_to_string(root().join(FILE)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // (line, start of the message after "FILE:line")
    let bad: [(usize, &str); 8] = [
        (8, ":81: line has 80 cell characters"),
        (11, ":40: bad character 'x'"),
        (13, ":5: digit 3 given twice in row 1"),
        (15, ":28: digit 4 given twice in column 1"),
        (17, ":19: digit 6 given twice in block 1"),
        (22, ":37: r1c5 has no candidate"),
        (38, ": grid has 8 rows, expected 9"),
        (48, ":1: not a puzzle"),
    ];
    for (n, _) in bad {
        assert!(
            lines[n - 2].starts_with('#'),
            "{FILE}:{n} is a broken record announced by a comment (the file changed?)"
        );
    }

    let run = ruledoku(["check", FILE]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let errors: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        errors.len(),
        bad.len(),
        "one message per bad line:\n{}",
        run.stderr
    );
    for ((n, what), error) in bad.iter().zip(&errors) {
        let prefix = format!("{FILE}:{n}{what}");
        assert!(
            error.starts_with(&prefix),
            "{error:?} starts with {prefix:?}"
        );
    }

    let grid = |from: usize| -> String {
        lines[from - 1..from + 10]
            .iter()
            .filter(|l| !l.starts_with('-'))
            .flat_map(|l| l.chars().filter(|c| *c == '.' || c.is_ascii_digit()))
            .collect()
    };
    let plain: String = lines[65..74].concat();
    let good = [
        cells(lines[4]).to_string(),
        cells(lines[5]).to_string(),
        cells(lines[8]).to_string(),
        lines[19].to_string(), // pencil marks
        grid(25),              // 9-line grid with separators
        String::new(),         // resolution state: checked below
        plain,                 // plain 9-line grid
        cells(lines[75]).to_string(),
        cells(lines[76]).to_string(),
    ];
    assert_eq!(good[4].len(), 81);
    assert_eq!(good[6].len(), 81);
    // One line per record, in input order, with the line it starts on:
    // the bad ones too, as `rate` lists them.
    let out = run.lines();
    assert_eq!(out.len(), good.len() + bad.len() + 1, "{}", run.stdout);
    let starts = [
        5, 6, 8, 9, 11, 13, 15, 17, 20, 22, 25, 38, 48, 51, 66, 76, 77,
    ];
    let numbers: Vec<usize> = out[..starts.len()]
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, starts, "{}", run.stdout);
    let (invalid, valid): (Vec<&str>, Vec<&str>) = out[..starts.len()]
        .iter()
        .partition(|l| l.split(' ').nth(1) == Some("-"));
    for ((n, _), line) in bad.iter().zip(&invalid) {
        let error = errors
            .iter()
            .find(|e| e.starts_with(&format!("{FILE}:{n}:")))
            .unwrap();
        let message = error.split_once(": ").unwrap().1;
        assert_eq!(*line, format!("{n} - invalid {message}"));
    }
    for (line, puzzle) in valid.iter().zip(&good) {
        let (text, verdict) = line.rsplit_once(' ').unwrap();
        let text = text.split_once(' ').unwrap().1;
        assert_eq!(verdict, "unique", "{line}");
        if puzzle.is_empty() {
            // The resolution state comes out as a pencil-mark line.
            assert_eq!(text.len(), 729, "{line}");
            assert!(
                text.bytes()
                    .all(|b| b == b'.' || (b'1'..=b'9').contains(&b))
            );
        } else {
            assert_eq!(text, puzzle);
        }
    }
    assert_eq!(
        out[starts.len()],
        "9 puzzles: 9 unique, 0 multiple, 0 no solution; 8 invalid lines"
    );
}

#[test]
fn check_first_200_corpus_puzzles() {
    let (_dir, file, lines) = corpus_head(200);
    let run = ruledoku([OsStr::new("check"), file.as_os_str()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stderr, "");
    let out = run.lines();
    assert_eq!(out.len(), 201);
    for (i, (line, input)) in out.iter().zip(&lines).enumerate() {
        assert_eq!(*line, format!("{} {} unique", i + 1, cells(input)));
    }
    assert_eq!(
        out[200],
        "200 puzzles: 200 unique, 0 multiple, 0 no solution; 0 invalid lines"
    );
}

#[test]
fn check_json_gives_one_object_per_puzzle_and_a_summary() {
    let (_dir, file, lines) = corpus_head(200);
    let run = ruledoku([OsStr::new("check"), OsStr::new("--json"), file.as_os_str()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let objects: Vec<Value> = run
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objects.len(), 201);
    for (i, (o, input)) in objects.iter().zip(&lines).enumerate() {
        assert_eq!(o["line"], i + 1, "{o}");
        assert_eq!(o["puzzle"], cells(input), "{o}");
        assert_eq!(o["solutions"], "unique", "{o}");
    }
    let summary = &objects[200]["summary"];
    assert_eq!(summary["puzzles"], 200, "{summary}");
    assert_eq!(summary["unique"], 200, "{summary}");
    assert_eq!(summary["multiple"], 0, "{summary}");
    assert_eq!(summary["none"], 0, "{summary}");
    assert_eq!(summary["invalid"], 0, "{summary}");
}

#[test]
fn check_solution_prints_solutions_that_keep_the_givens() {
    let (_dir, file, lines) = corpus_head(200);
    let run = ruledoku([
        OsStr::new("check"),
        OsStr::new("--solution"),
        file.as_os_str(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = run.lines();
    assert_eq!(out.len(), 201);
    for (i, (line, input)) in out.iter().zip(&lines).enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert_eq!(fields[..3], [&(i + 1).to_string(), cells(input), "unique"]);
        assert_solution_of(fields[3], cells(input));
    }

    let json = ruledoku([
        OsStr::new("check"),
        OsStr::new("--solution"),
        OsStr::new("--json"),
        file.as_os_str(),
    ]);
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    for (line, text) in json.lines().iter().zip(&out).take(200) {
        let o: Value = serde_json::from_str(line).unwrap();
        assert_eq!(o["solution"], text.split(' ').nth(3).unwrap(), "{o}");
    }
}

#[test]
fn check_reads_standard_input() {
    let run = ruledoku_stdin(["check", "-"], &format!("{FSHT}\n"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "1 {FSHT} unique\n1 puzzle: 1 unique, 0 multiple, 0 no solution; 0 invalid lines\n"
        )
    );

    let input = format!("# three verdicts\n{MULTIPLE}\n{NO_SOLUTION}\n{EMPTY_GRID}\n\n{FSHT}\n");
    let run = ruledoku_stdin(["check", "-"], &input);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            format!("2 {MULTIPLE} multiple"),
            format!("3 {NO_SOLUTION} none"),
            format!("4 {EMPTY_GRID} multiple"),
            format!("6 {FSHT} unique"),
            "4 puzzles: 1 unique, 2 multiple, 1 no solution; 0 invalid lines".to_string(),
        ]
    );

    let run = ruledoku_stdin(["check", "-"], &format!("{FSHT}\n{DUPLICATE_GIVEN}\n"));
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        "<stdin>:2:2: digit 1 given twice in row 1 (r1c1, r1c2)\n"
    );
    assert_eq!(
        run.lines(),
        [
            format!("1 {FSHT} unique"),
            "2 - invalid digit 1 given twice in row 1 (r1c1, r1c2)".to_string(),
            "1 puzzle: 1 unique, 0 multiple, 0 no solution; 1 invalid line".to_string(),
        ]
    );
}

// ---------------------------------------------------------------------------
// 4. solve and rate

#[test]
fn solve_json_fsht() {
    let run = ruledoku(["solve", "--json", "--rules", "sfin", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines.len(), 1, "one object: {}", run.stdout);
    let o: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(o["puzzle"], FSHT);
    assert_eq!(o["solved"], true);
    assert_eq!(o["rating"], "FSHT");
    assert_eq!(o["level"], 3);
    assert_eq!(o["hardest_rule"], "finned-swordfish-in-rows");
    assert_eq!(o["stop"], "solved");
    assert_eq!(o["values_missing"], 0);
    let seconds = o["seconds"].as_f64().expect("seconds is a number");
    assert!((0.0..60.0).contains(&seconds), "seconds = {seconds}");
    let solution = oracle_solution(FSHT);
    assert_eq!(o["final"], solution.as_str());

    let steps: Vec<&str> = o["steps"]
        .as_array()
        .expect("steps is an array")
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    // SudoRules' own lines for these two steps.
    assert!(
        steps.contains(&"naked-pairs-in-a-row: r1{c3 c9}{n4 n7} ==> r1c7 ≠ 7, r1c5 ≠ 7, r1c1 ≠ 4")
    );
    assert!(steps.contains(&"whip[1]: c4n8{r6 .} ==> r6c5 ≠ 8"));
    assert_eq!(
        steps
            .iter()
            .filter(|s| s.starts_with("finned-swordfish-in-rows: "))
            .count(),
        1
    );

    // The text output has the same steps, grid and rating.
    let text = ruledoku(["solve", "--rules", "sfin", FSHT]);
    assert_eq!(text.code, Some(0), "{}", text.stderr);
    let text_steps: Vec<&str> = text
        .lines()
        .into_iter()
        .filter(|l| l.contains(" ==> "))
        .collect();
    assert_eq!(text_steps, steps);
    assert_eq!(solved_grid(&text.stdout), solution);
    assert!(
        text.has_line("rating: FSHT (level 3, hardest rule: finned-swordfish-in-rows)"),
        "{}",
        text.stdout
    );
}

#[test]
fn rate_csv_has_a_header_and_one_line_per_puzzle() {
    let (shp, _) = sudorules_path(SHP_ROW_FILE);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("three.txt");
    fs::write(
        &file,
        format!("# three puzzles\n{FSHT}\n\n{shp}\n{MULTIPLE}\n"),
    )
    .unwrap();
    let run = ruledoku([
        OsStr::new("rate"),
        OsStr::new("--csv"),
        OsStr::new("--rules"),
        OsStr::new("sfin"),
        file.as_os_str(),
    ]);
    // The puzzle with several solutions is reported on stderr, not rated:
    // its row says why.
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains(":5: the puzzle has several solutions"),
        "{}",
        run.stderr
    );
    let out = run.lines();
    assert_eq!(out.len(), 4, "{}", run.stdout);
    assert_eq!(
        out[0],
        "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,seconds,error"
    );
    let rows: Vec<Vec<&str>> = out[1..].iter().map(|l| l.split(',').collect()).collect();
    for row in &rows[..2] {
        assert_eq!(row.len(), 11, "{row:?}");
        assert!(row[9].parse::<f64>().is_ok(), "{row:?}");
        assert!(row[7].parse::<usize>().is_ok(), "{row:?}");
        assert_eq!(row[10], "", "{row:?}");
    }
    assert_eq!(
        out[3],
        format!("5,{MULTIPLE},false,multiple-solutions,,,,,,,the puzzle has several solutions")
    );
    assert_eq!(
        rows[0][..7],
        [
            "2",
            FSHT,
            "true",
            "solved",
            "FSHT",
            "3",
            "finned-swordfish-in-rows"
        ]
    );
    assert_eq!(rows[0][8], "0");
    assert_eq!(
        rows[1][..7],
        [
            "4",
            shp.as_str(),
            "true",
            "solved",
            "SHP",
            "2",
            "x-wing-in-rows"
        ]
    );

    // The same three puzzles as JSON.
    let json = ruledoku([
        OsStr::new("rate"),
        OsStr::new("--json"),
        OsStr::new("--rules"),
        OsStr::new("sfin"),
        file.as_os_str(),
    ]);
    assert_eq!(json.code, Some(1), "{}", json.stderr);
    let objects: Vec<Value> = json
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[1]["rating"], "SHP");
    assert_eq!(objects[2]["error"], "the puzzle has several solutions");
}

#[test]
fn solve_rejects_a_puzzle_with_several_solutions() {
    let run = ruledoku(["solve", "--rules", "sfin", MULTIPLE]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "<arg>:1: the puzzle has several solutions\n");

    let json = ruledoku(["solve", "--json", "--rules", "sfin", MULTIPLE]);
    assert_eq!(json.code, Some(1), "{}", json.stderr);
    let o: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(o["error"], "the puzzle has several solutions");

    let empty = ruledoku(["solve", "--json", "--rules", "sfin", EMPTY_GRID]);
    assert_eq!(empty.code, Some(1), "{}", empty.stderr);
    assert!(
        empty.stderr.contains("several solutions"),
        "{}",
        empty.stderr
    );
}

#[test]
fn solve_rejects_a_puzzle_without_solution() {
    let run = ruledoku(["solve", "--rules", "sfin", NO_SOLUTION]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, "<arg>:1: the puzzle has no solution\n");
    let json = ruledoku(["solve", "--json", "--rules", "sfin", NO_SOLUTION]);
    assert_eq!(json.code, Some(1), "{}", json.stderr);
    let o: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(o["error"], "the puzzle has no solution");
}

#[test]
fn solve_contradictory_givens_is_an_input_error() {
    let run = ruledoku(["solve", "--rules", "sfin", DUPLICATE_GIVEN]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "<arg>:1:2: digit 1 given twice in row 1 (r1c1, r1c2)\n"
    );

    let json = ruledoku(["solve", "--json", "--rules", "sfin", DUPLICATE_GIVEN]);
    assert_eq!(json.code, Some(1), "{}{}", json.stdout, json.stderr);
    let o: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(o["line"], 1);
    assert_eq!(o["error"], "digit 1 given twice in row 1 (r1c1, r1c2)");
}

#[test]
fn solve_missing_file_and_unknown_set_are_errors() {
    let run = ruledoku(["solve", "/nonexistent/puzzles.txt"]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("/nonexistent/puzzles.txt"),
        "{}",
        run.stderr
    );

    let run = ruledoku(["solve", "--rules", "nosuchset", FSHT]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("unknown rule set `nosuchset`"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("sfin"),
        "the known sets are listed: {}",
        run.stderr
    );
}

#[test]
fn check_solve_and_rate_survive_a_closed_stdout() {
    for args in [
        &["check", "tests/data/broken.txt"][..],
        &["solve", "--rules", "sfin", FSHT],
        &["rate", "--csv", "--rules", "sfin", "tests/data/broken.txt"],
    ] {
        let code = ruledoku_closed_stdout(args);
        assert!(
            code.is_some() && code != Some(101),
            "{args:?} exited with {code:?}"
        );
    }
}

/// The resolution state is a SudoRules grid: every row as wide as the
/// borders, a space before each `!` even after the widest cell.
#[test]
fn resolution_state_rows_are_as_wide_as_its_borders() {
    // cbg-000 line 2: singles alone leave a resolution state.
    let stuck = "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75";
    let run = ruledoku(["solve", "--rules", "singles", stuck]);
    let state: Vec<&str> = run
        .lines()
        .into_iter()
        .skip_while(|l| *l != "Resolution state:")
        .skip(1)
        .take(13)
        .collect();
    assert_eq!(state.len(), 13, "{}", run.stdout);
    let width = state[0].chars().count();
    for line in &state {
        assert_eq!(
            line.chars().count(),
            width,
            "{line:?} in\n{}",
            state.join("\n")
        );
    }
    assert!(!run.stdout.contains("12456789!"), "{}", run.stdout);
}

// ---------------------------------------------------------------------------
// 5. bench

/// What the oracle's bench line ends with on this machine.
fn oracle_tail(repeat: usize) -> String {
    format!(
        "best of {repeat}, one thread, {} oracle",
        ruledoku::oracle::solver::instruction_set()
    )
}

#[test]
fn bench_oracle_and_rule_set() {
    let (_dir, file, _) = corpus_head(200);
    let run = ruledoku([OsStr::new("bench"), file.as_os_str()]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = bench_line(run.lines()[0], 200);
    assert_eq!(line.head, "oracle: 200 puzzles (200 unique)");
    assert_eq!(line.tail, oracle_tail(1));

    let run = ruledoku([
        OsStr::new("bench"),
        OsStr::new("--limit"),
        OsStr::new("10"),
        OsStr::new("--repeat"),
        OsStr::new("3"),
        file.as_os_str(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = bench_line(run.lines()[0], 10);
    assert_eq!(line.head, "oracle: 10 puzzles (10 unique)");
    assert_eq!(line.tail, oracle_tail(3));
    assert_eq!(run.lines().len(), 1, "{}", run.stdout);

    let run = ruledoku([
        OsStr::new("bench"),
        OsStr::new("--rules"),
        OsStr::new("sfin"),
        file.as_os_str(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = bench_line(run.lines()[0], 200);
    assert_eq!(line.tail, "one thread");
    let solved: usize = line
        .head
        .strip_prefix("rule set sfin: 200 puzzles (")
        .and_then(|s| s.strip_suffix(" solved)"))
        .unwrap_or_else(|| panic!("{}", line.head))
        .parse()
        .unwrap();
    // Solving takes longer than the clocks' resolution.
    assert!(line.cpu > 0.0 && line.wall > 0.0, "{}", run.stdout);
    // As many solved as `rate` finds.
    let rate = ruledoku([
        OsStr::new("rate"),
        OsStr::new("--csv"),
        OsStr::new("--rules"),
        OsStr::new("sfin"),
        file.as_os_str(),
    ]);
    assert_eq!(rate.code, Some(0), "{}", rate.stderr);
    let rated = rate
        .lines()
        .iter()
        .skip(1)
        .filter(|l| l.contains(",true,solved,"))
        .count();
    assert_eq!(solved, rated, "{}", run.stdout);
    assert!(solved > 0 && solved < 200, "{}", run.stdout);
}

// ---------------------------------------------------------------------------
// bugs found while writing these tests (run with `-- --ignored`)

#[test]
fn rules_and_bench_survive_a_closed_stdout() {
    for args in [
        &["rules", "list"][..],
        &["rules", "check", "rules"],
        &["bench", "tests/data/broken.txt"],
    ] {
        let code = ruledoku_closed_stdout(args);
        assert!(
            code.is_some() && code != Some(101),
            "{args:?} exited with {code:?}"
        );
    }
}

#[test]
fn unknown_function_in_a_condition_is_reported_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("unknown-function.rules");
    let body = GOOD_BODY.replace("where |C| == 2", "where |C| == 2 and frobnicate(C)");
    fs::write(&file, broken_rule(&body)).unwrap();
    let run = ruledoku(["rules", "check", path_str(&file)]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stdout.contains("unknown function `frobnicate`"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("\n1 error(s)\n"), "{}", run.stdout);
}

#[test]
fn missing_brace_error_mentions_the_brace() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("missing-brace.rules");
    fs::write(&file, format!("rule my-x-wing-in-rows {{\n{GOOD_BODY}")).unwrap();
    let run = ruledoku(["rules", "check", path_str(&file)]);
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(first.contains("`}`"), "{first}");
}

#[test]
fn broken_rule_set_error_is_prefixed_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("unused.rules");
    fs::write(
        &file,
        broken_rule(&GOOD_BODY.replace("    where", "    let D = digits(B)\n    where")),
    )
    .unwrap();
    let run = ruledoku(["solve", "--rules", path_str(&file), FSHT]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("unused variable `D`"), "{}", run.stderr);
    assert!(!run.stderr.contains("error: error:"), "{}", run.stderr);
}

/// `rate -j 2` gives the same lines, in the same order, as one thread.
#[test]
fn rate_with_two_jobs_keeps_input_order() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/cbg-000-first1000.txt"
    );
    let one = ruledoku(["rate", "--no-time", "--rules", "sfin", sample]);
    let two = ruledoku(["rate", "--no-time", "-j", "2", "--rules", "sfin", sample]);
    assert_eq!((one.code, two.code), (Some(0), Some(0)));
    assert_eq!(one.stdout, two.stdout);
    let lines = one.lines();
    assert_eq!(lines.len(), 1000);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("{} ", i + 1)), "{l}");
    }
    assert_eq!(lines.iter().filter(|l| l.contains(" solved ")).count(), 576);
}
