//! The `filter` command (Metcalf's contradiction filter as rule files),
//! driven through the binary: exact per-puzzle outcomes on a cbg-000 sample
//! (each one checked against the brute-force solution by `--verify` runs of
//! the same sets), output forms, and bad input.

mod common;

use common::{cbg_input, ruledoku, ruledoku_stdin};

#[test]
fn the_fast_filter_solves_exactly_these_puzzles() {
    let r = ruledoku_stdin(["filter", "-j", "2", "-"], &cbg_input(40));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 40);
    // In input order, one line per puzzle: line, puzzle, outcome, eliminations.
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("{} ", i + 1)), "{l}");
    }
    assert_eq!(
        lines[1],
        "2 ..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75 stuck 8"
    );
    let solved = lines.iter().filter(|l| l.contains(" solved ")).count();
    assert_eq!(solved, 26);
    assert_eq!(
        r.stderr.split(';').next().unwrap(),
        "filter-fast: 40 puzzles, 26 solved by the filter (65.0%), 1066 eliminations by its trial rules"
    );
}

#[test]
fn the_slow_filter_solves_more_and_every_step_is_sound() {
    let input = cbg_input(10);
    let r = ruledoku_stdin(["filter", "--slow", "--csv", "-"], &input);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut lines = r.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("line,puzzle,solved,stop,eliminations,filter_steps,candidates_left,seconds")
    );
    assert_eq!(lines.filter(|l| l.contains(",true,solved,")).count(), 10);
    // The same set's steps agree with the solution.
    let v = ruledoku_stdin(
        [
            "rate",
            "--rules",
            "filter-slow",
            "--verify",
            "--no-time",
            "-",
        ],
        &input,
    );
    assert_eq!(v.code, Some(0), "{}", v.stderr);
    assert!(
        v.stderr.contains("10 puzzles checked, 0 with a wrong step"),
        "{}",
        v.stderr
    );
}

#[test]
fn filter_output_forms_and_bad_input() {
    let one = cbg_input(1);
    let j = ruledoku_stdin(["filter", "--json", "-"], &one);
    assert_eq!(j.code, Some(0));
    let v: serde_json::Value = serde_json::from_str(j.stdout.trim()).unwrap();
    assert_eq!(v["solved"], true);
    assert_eq!(v["eliminations"], 0);
    assert_eq!(v["stop"], "solved");
    let q = ruledoku_stdin(["filter", "-q", "-"], &one);
    assert_eq!(q.stdout, "");
    assert!(
        q.stderr.starts_with("filter-fast: 1 puzzle, 1 solved"),
        "{}",
        q.stderr
    );
    // A bad record is reported and the batch goes on; exit status 1.
    let b = ruledoku_stdin(["filter", "-"], &format!("bad\n{one}"));
    assert_eq!(b.code, Some(1));
    assert!(
        b.stderr.starts_with("<stdin>:1:1: not a puzzle"),
        "{}",
        b.stderr
    );
    assert!(b.stdout.starts_with("2 "), "{}", b.stdout);
    // Usage errors and a set with no trial rule: status 2.
    for args in [
        vec!["filter", "--fast", "--slow", "-"],
        vec!["filter", "--rules", "basic", "-"],
        vec!["filter", "-j", "x", "-"],
        vec!["filter", "--max-seconds", "inf", "-"],
    ] {
        let r = ruledoku_stdin(args.clone(), &one);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
    }
    let none = ruledoku(["filter", "/dev/null"]);
    assert_eq!(none.code, Some(1));
    assert_eq!(none.stderr, "/dev/null: no puzzle found\n");
}

/// `--bands FILE`: the share solved per half-point rating band, after the
/// summary; a puzzle without a rating in the file is counted apart.
#[test]
fn shares_solved_by_rating_band() {
    let dir = tempfile::tempdir().unwrap();
    let ratings = dir.path().join("ratings.txt");
    // Lines 1 and 4 solved (no elimination), 2 stuck, 3 solved; 4 unrated.
    std::fs::write(&ratings, "1.2\n7.1\n7.3\nn/a\n").unwrap();
    let r = ruledoku_stdin(
        ["filter", "-q", "--bands", ratings.to_str().unwrap(), "-"],
        &cbg_input(4),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let after: Vec<&str> = r.stderr.lines().skip(1).collect();
    assert_eq!(
        after,
        [
            "filter-fast by rating band:",
            "band          puzzles   solved    share",
            "1.0-1.4             1        1  100.00%",
            "7.0-7.4             2        1   50.00%",
            &format!("1 puzzle without a rating in {}", ratings.display()),
        ]
    );
    let missing = ruledoku_stdin(
        ["filter", "--bands", "/nonexistent/ser.txt", "-"],
        &cbg_input(1),
    );
    assert_eq!(missing.code, Some(2), "{}", missing.stderr);
    assert!(
        missing.stderr.starts_with("error: /nonexistent/ser.txt: "),
        "{}",
        missing.stderr
    );
}

/// A thousand puzzles through one and two workers (chunks queued
/// while others run): the same lines, in input order, and the same summary.
#[test]
fn worker_counts_give_the_same_lines_in_order() {
    let input = cbg_input(1000);
    let runs: Vec<_> = ["1", "2"]
        .iter()
        .map(|j| ruledoku_stdin(["filter", "-j", j, "-"], &input))
        .collect();
    let lines: Vec<&str> = runs[0].stdout.lines().collect();
    assert_eq!(lines.len(), 1000, "{}", runs[0].stderr);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("{} ", i + 1)), "{l}");
    }
    for r in &runs {
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(r.stdout, runs[0].stdout);
        assert_eq!(
            r.stderr.split(';').next().unwrap(),
            "filter-fast: 1000 puzzles, 784 solved by the filter (78.4%), 25897 eliminations by its trial rules"
        );
    }
}
