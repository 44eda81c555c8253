//! `--stats` on the command line: the per-rule table printed after a path
//! adds up to the steps of that path.

use std::process::Command;

mod common;
use common::FSHT;

fn ruledoku(args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_ruledoku"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// Columns of the stats table: rule, calls, nodes, seconds, steps, conclusions.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !(l.starts_with("rule ") && l.contains(" calls ")))
        .skip(1)
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn solve_stats_add_up_to_the_printed_steps() {
    let (out, err, code) = ruledoku(&["solve", "--rules", "sfin", "--stats", FSHT]);
    assert_eq!(code, Some(0), "{err}");
    let steps: Vec<&str> = out.lines().filter(|l| l.contains(" ==> ")).collect();
    let conclusions: usize = steps
        .iter()
        .map(|l| l.split(" ==> ").nth(1).unwrap().split(", ").count())
        .sum();
    let rows = table_rows(&out);
    let (total, per_rule) = rows.split_last().unwrap();
    assert_eq!(total[0], "total");
    assert_eq!(total[4].parse::<usize>().unwrap(), steps.len());
    assert_eq!(total[5].parse::<usize>().unwrap(), conclusions);
    for row in per_rule {
        let name = &row[0];
        let printed = steps
            .iter()
            .filter(|l| l.starts_with(&format!("{name}:")) || l.starts_with(&format!("{name} ==>")))
            .count();
        assert_eq!(row[4].parse::<usize>().unwrap(), printed, "{name}");
    }
    assert!(
        per_rule
            .iter()
            .any(|r| r[0] == "finned-swordfish-in-rows" && r[4] == "1")
    );
}

#[test]
fn rate_stats_go_to_stderr_and_bench_stats_to_stdout() {
    let (out, err, code) = ruledoku(&["rate", "--rules", "sfin", "--stats", FSHT]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    let total = table_rows(&err).pop().unwrap();
    assert_eq!(total[0], "total");
    assert!(total[4].parse::<usize>().unwrap() > 0);
}
