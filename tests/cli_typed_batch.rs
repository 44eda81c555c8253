//! `rate --type` on many puzzles (issue 23): streamed input, `-j` in input
//! order, `--stats`, and the batch options (slices, `--output`, `--resume`,
//! `merge`) on typed outputs; bad types and bad records.

mod common;

use common::*;
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

fn csp_rules(name: &str) -> String {
    data(&format!("csp-rules/{name}")).display().to_string()
}

/// Two latin:4 puzzles (one with no solution) as a file in a fresh folder.
fn latin4_file() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l4.txt");
    std::fs::write(&path, "43...2.1.......3 first\n.2341...........\n").unwrap();
    let p = path.display().to_string();
    (dir, p)
}

#[test]
fn stats_of_a_typed_run_count_each_rules_searches() {
    let run = ruledoku_stdin(
        [
            "rate",
            "--type",
            "latin:4",
            "--rules",
            "singles",
            "--no-time",
            "--stats",
            "-",
        ],
        "43...2.1.......3\n12\n",
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            "1 43...2.1.......3 solved NS naked-single 0",
            "2 - invalid - - - line has 2 cells, expected 16"
        ]
    );
    assert_eq!(
        run.stderr,
        "<stdin>:2:1: line has 2 cells, expected 16\n\
rule                                    calls        nodes   steps conclusions\n\
naked-single                               11           66      11          11\n\
total                                      11           66      11          11\n"
    );
    let json = ruledoku([
        "rate",
        "--type",
        "latin:4",
        "--rules",
        "singles",
        "--no-time",
        "--stats",
        "--json",
        "43...2.1.......3",
    ]);
    assert!(
        json.stdout.contains(
            r#""stats":{"naked-single":{"calls":11,"conclusions":11,"nodes":66,"steps":11}}"#
        ),
        "{}",
        json.stdout
    );
}

#[test]
fn parallel_runs_keep_input_order() {
    let input = csp_rules("latin-9.txt");
    let args = |j: &str| {
        ruledoku([
            "rate",
            "--type",
            "latin:9",
            "--rules",
            "w",
            "--no-time",
            "-j",
            j,
            &input,
        ])
    };
    let (one, two) = (args("1"), args("2"));
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout);
    let lines = one.lines();
    assert_eq!(lines.len(), 6);
    let numbers: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(numbers, ["1", "2", "3", "4", "5", "6"]);
}

/// A record is rated as soon as it has been read: a pipe that stays open
/// does not hold back the records before it, and Futoshiki's three lines
/// are one record.
#[test]
fn a_record_is_rated_before_the_input_ends() {
    let text = std::fs::read_to_string(csp_rules("futoshiki-7.txt")).unwrap();
    let first = text.lines().next().unwrap();
    // The same puzzle as CSP-Rules writes it: givens, row signs, column signs.
    let mut parts = first.split(' ');
    let three = format!(
        "{}\n{}\n{}\n",
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap()
    );
    let (mut cmd, _) = command([
        "rate",
        "--type",
        "futoshiki:7",
        "--rules",
        "w",
        "--no-time",
        "-",
    ]);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(three.as_bytes()).unwrap();
    stdin.flush().unwrap();
    // The input stays open: the line comes all the same.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(
        line,
        format!("1 {first} solved W[13] whip[13] 13\n"),
        "the first record's line"
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn slices_of_a_typed_input_merge_into_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = csp_rules("latin-9.txt");
    let d = |f: &str| dir.path().join(f).display().to_string();
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let run = ruledoku([
            "rate",
            "--type",
            "latin:9",
            "--rules",
            "w",
            "--no-time",
            "--csv",
            &input,
            "--shard",
            &shard,
            "--output",
            &d(&format!("s{i}.csv")),
        ]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
    let merged = ruledoku(["merge", &d("s3.csv"), &d("s1.csv"), &d("s2.csv")]);
    assert_eq!(merged.code, Some(0), "{}", merged.stderr);
    let single = ruledoku([
        "rate",
        "--type",
        "latin:9",
        "--rules",
        "w",
        "--no-time",
        "--csv",
        &input,
    ]);
    assert_eq!(merged.stdout, single.stdout);
    assert!(
        merged
            .stderr
            .contains("merged 3 pieces: records 1–6 of 6, no gap, no overlap; 0 unrated"),
        "{}",
        merged.stderr
    );
    let summary = std::fs::read_to_string(d("s1.csv.summary.json")).unwrap();
    assert!(summary.contains(r#""type": "latin:9""#), "{summary}");
    // A resume of a complete output does nothing; one of another type
    // (other options) is refused, and nothing is touched.
    let again = ruledoku([
        "rate",
        "--type",
        "latin:9",
        "--rules",
        "w",
        "--no-time",
        "--csv",
        &input,
        "--shard",
        "1/3",
        "--output",
        &d("s1.csv"),
        "--resume",
    ]);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    let other = ruledoku([
        "rate",
        "--type",
        "pandiagonal:9",
        "--rules",
        "w",
        "--no-time",
        "--csv",
        &input,
        "--shard",
        "1/3",
        "--output",
        &d("s1.csv"),
        "--resume",
    ]);
    assert_eq!(other.code, Some(2), "{}", other.stderr);
    assert!(
        other
            .stderr
            .contains(r#"option type: "pandiagonal:9" vs "latin:9""#),
        "{}",
        other.stderr
    );
    // Nor can a classic piece be merged with typed ones.
    let classic = ruledoku([
        "rate",
        "--rules",
        "w",
        "--no-time",
        "--csv",
        &input,
        "--shard",
        "1/3",
        "--output",
        &d("c1.csv"),
    ]);
    assert!(matches!(classic.code, Some(0 | 1)), "{}", classic.stderr);
    let mixed = ruledoku(["merge", &d("c1.csv"), &d("s2.csv"), &d("s3.csv")]);
    assert_eq!(mixed.code, Some(2));
    assert!(
        mixed.stderr.contains(r#"option type: - vs "latin:9""#),
        "{}",
        mixed.stderr
    );
}

#[test]
fn a_typed_batch_reports_bad_records_with_their_lines_and_goes_on() {
    let (_dir, file) = latin4_file();
    let run = ruledoku([
        "rate",
        "--type",
        "latin:4",
        "--rules",
        "singles",
        "--no-time",
        "--csv",
        "--line-offset",
        "100",
        "--keep-fields",
        &file,
    ]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,error,fields",
            "101,43...2.1.......3,true,solved,NS,0,naked-single,11,0,,first",
            "102,.2341...........,false,no-solution,,,,,,the puzzle has no solution,",
        ]
    );
    assert_eq!(
        run.stderr,
        format!("{file}:102: the puzzle has no solution\n")
    );
    // Puzzles of another size: each record is invalid, with its line.
    let wrong = ruledoku([
        "rate",
        "--type",
        "latin:5",
        "--rules",
        "singles",
        "--no-time",
        "--skip",
        "1",
        &file,
    ]);
    assert_eq!(wrong.code, Some(1));
    assert_eq!(
        wrong.lines(),
        ["2 - invalid - - - line has 16 cells, expected 25"]
    );
    assert_eq!(
        wrong.stderr,
        format!("{file}:2:1: line has 16 cells, expected 25\n")
    );
}

#[test]
fn bad_types_are_one_line_errors() {
    let (dir, file) = latin4_file();
    let folder = dir.path().display().to_string();
    for args in [
        vec!["rate", "--type", &folder, &file],
        vec!["rate", "--type", &folder, "--limit", "1", &file],
        vec!["rate", "--type", "latin:99", "--output", "x", &file],
        vec!["rate", "--type", "latin:4", "--se", "--limit", "1", &file],
    ] {
        let run = ruledoku(&args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
        assert_eq!(run.stdout, "");
    }
    assert!(!dir.path().join("x.part").exists());
}

/// `bench --type`: the generic oracle, or a set on the typed back end.
#[test]
fn bench_measures_a_type() {
    let input = csp_rules("latin-9.txt");
    let oracle = ruledoku(["bench", "--type", "latin:9", &input]);
    assert_eq!(oracle.code, Some(0), "{}", oracle.stderr);
    let line = oracle.lines()[0];
    assert!(
        line.starts_with("oracle: 6 puzzles (6 unique) in ")
            && line.ends_with(" (best of 1, one thread, generic oracle, type latin:9)"),
        "{line}"
    );
    let rules = ruledoku([
        "bench", "--type", "latin:9", "--rules", "w", "--limit", "2", "--stats", &input,
    ]);
    assert_eq!(rules.code, Some(0), "{}", rules.stderr);
    let lines = rules.lines();
    assert!(
        lines[0].starts_with("rule set w on type latin:9: 2 puzzles (2 solved) in "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("rule ") && lines[1].contains("conclusions"),
        "{}",
        lines[1]
    );
    // The two puzzles are rated W5 and W6: whip[6] is the last rule searched.
    let last_rule = lines[lines.len() - 2].split_whitespace().next().unwrap();
    assert_eq!(last_rule, "whip[6]", "{}", rules.stdout);
    assert!(lines[lines.len() - 1].starts_with("total "));
    // A set that does not run on the type: a usage error.
    let se = ruledoku(["bench", "--type", "latin:9", "--rules", "se", &input]);
    assert_eq!(se.code, Some(2));
    assert!(
        se.stderr
            .starts_with("error: rule set `se` is first-producer (Sudoku Explainer's ratings)"),
        "{}",
        se.stderr
    );
}

/// A filter's CSV rows as `line stop eliminations filter_steps
/// candidates_left`.
fn filter_rows(run: &Run) -> Vec<String> {
    run.lines()
        .iter()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{} {} {} {} {}", f[0], f[3], f[4], f[5], f[6])
        })
        .collect()
}

/// `filter --type`: Metcalf's fast filter on a type, and the slow one.
#[test]
fn the_fast_filter_runs_on_a_type() {
    let run = ruledoku_stdin(
        ["filter", "--type", "latin:4", "-j", "1", "-"],
        "43...2.1.......3\n12\n.2341...........\n",
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stdout, "1 43...2.1.......3 solved 0\n");
    let err: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(err[0], "<stdin>:2:1: line has 2 cells, expected 16");
    assert_eq!(err[1], "<stdin>:3: the puzzle has no solution");
    assert!(
        err[2].starts_with(
            "filter-fast: 1 puzzle, 1 solved by the filter (100.0%), 0 eliminations by its \
             trial rules, 2 records not filtered; "
        ),
        "{}",
        err[2]
    );
    // On CSP-Rules' Latin squares the filter eliminates, but solves none.
    let input = csp_rules("latin-9.txt");
    let latin = ruledoku(["filter", "--type", "latin:9", "-j", "2", "--csv", &input]);
    assert_eq!(latin.code, Some(0), "{}", latin.stderr);
    let rows = filter_rows(&latin);
    assert_eq!(
        rows,
        [
            "1 stuck 1 1 148",
            "2 stuck 19 1 121",
            "3 stuck 4 1 140",
            "4 stuck 10 1 143",
            "5 stuck 0 0 181",
            "6 stuck 0 0 188"
        ]
    );
    // The slow filter's linked basic set (subsets in rows and columns; no
    // block on a Latin square) solves all six.
    let slow = ruledoku(["filter", "--type", "latin:9", "--slow", "--csv", &input]);
    assert_eq!(slow.code, Some(0), "{}", slow.stderr);
    let rows = filter_rows(&slow);
    assert_eq!(
        rows,
        [
            "1 solved 106 1 0",
            "2 solved 73 1 0",
            "3 solved 92 1 0",
            "4 solved 89 1 0",
            "5 solved 130 1 0",
            "6 solved 125 1 0"
        ]
    );
}
