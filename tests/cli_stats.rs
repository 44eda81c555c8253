//! `--stats` on the command line: the per-rule table printed after a path
//! adds up to the steps of that path; `rate` prints it on stderr, `bench`
//! on stdout, with the figures of the runs it timed.

mod common;
use common::{CBG_SAMPLE, FSHT, bench_line, cbg_input, data, ruledoku, ruledoku_stdin};
use ruledoku::engine::{Runner, StopReason};
use ruledoku::grid::state::State;
use ruledoku::{input, ruleset};
use std::collections::BTreeMap;

/// Columns of the stats table: rule, calls, nodes, seconds, steps, conclusions.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip_while(|l| !(l.starts_with("rule ") && l.contains(" calls ")))
        .skip(1)
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The rows without their seconds (the one column that differs from run
/// to run).
fn untimed(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            assert_eq!(r.len(), 6, "{r:?}");
            let mut r = r.clone();
            r.remove(3);
            r
        })
        .collect()
}

#[test]
fn solve_stats_add_up_to_the_printed_steps() {
    let run = ruledoku(["solve", "--rules", "sfin", "--stats", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let out = &run.stdout;
    let steps: Vec<&str> = out.lines().filter(|l| l.contains(" ==> ")).collect();
    let conclusions: usize = steps
        .iter()
        .map(|l| l.split(" ==> ").nth(1).unwrap().split(", ").count())
        .sum();
    let rows = table_rows(out);
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
fn rate_stats_go_to_stderr() {
    let run = ruledoku(["rate", "--rules", "sfin", "--stats", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 1, "{}", run.stdout);
    assert!(table_rows(&run.stdout).is_empty(), "{}", run.stdout);
    let total = table_rows(&run.stderr).pop().unwrap();
    assert_eq!(total[0], "total");
    assert!(total[4].parse::<usize>().unwrap() > 0);
}

/// `bench --rules sfin --limit 20 --stats` on cbg-000: its summary line,
/// then, on stdout, the per-rule table of the runs it timed. Steps and
/// conclusions per rule are those of the same runs made here through the
/// library; searches and nodes are those `rate --stats` counts on the same
/// puzzles; the simplest rule is searched once per step and once more
/// for each puzzle left stuck.
#[test]
fn bench_stats_go_to_stdout() {
    const N: usize = 20;
    let file = data(CBG_SAMPLE);
    let limit = N.to_string();
    let bench = ruledoku([
        "bench",
        file.to_str().unwrap(),
        "--rules",
        "sfin",
        "--limit",
        &limit,
        "--stats",
    ]);
    assert_eq!(bench.code, Some(0), "{}", bench.stderr);
    assert_eq!(bench.stderr, "");

    // The same puzzles, run here: steps and conclusions per rule.
    let set = ruleset::load("sfin").unwrap();
    let runner = Runner::new(&set);
    let (mut solved, mut steps) = (0, 0);
    let mut per_rule: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for line in cbg_input(N).lines() {
        let p = input::parse_puzzle(line).unwrap();
        let run = runner.run(State::from_masks(&p.masks, &p.givens));
        solved += usize::from(run.stop == StopReason::Solved);
        assert!(matches!(run.stop, StopReason::Solved | StopReason::Stuck));
        steps += run.steps.len();
        for s in &run.steps {
            let e = per_rule.entry(s.rule_name().to_string()).or_default();
            e.0 += 1;
            e.1 += s.conclusions.len();
        }
    }
    // Half are solved by sfin, half stuck: both kinds of run are counted.
    assert_eq!(solved, 10);

    let lines: Vec<&str> = bench.stdout.lines().collect();
    let line = bench_line(lines[0], N);
    assert_eq!(
        line.head,
        format!("rule set sfin: {N} puzzles ({solved} solved)")
    );
    assert_eq!(line.tail, "one thread");
    assert!(lines[1].starts_with("rule ") && lines[1].ends_with(" conclusions"));
    let rows = table_rows(&bench.stdout);
    assert_eq!(lines.len(), 2 + rows.len(), "{}", bench.stdout);
    let (total, rule_rows) = rows.split_last().unwrap();
    assert_eq!(total[0], "total");
    let int = |s: &str| s.parse::<usize>().unwrap();

    // Every rule that made a step has its row (a rule never searched has
    // none), in the set's order, with the steps and conclusions made here.
    let names: Vec<&str> = rule_rows.iter().map(|r| r[0].as_str()).collect();
    let order: Vec<&str> = set
        .rules
        .iter()
        .map(|r| r.head.name.as_str())
        .filter(|n| names.contains(n))
        .collect();
    assert_eq!(names, order);
    for (name, (n_steps, n_concl)) in &per_rule {
        let row = rule_rows.iter().find(|r| &r[0] == name);
        let row = row.unwrap_or_else(|| panic!("no row for {name}"));
        assert_eq!((int(&row[4]), int(&row[5])), (*n_steps, *n_concl), "{name}");
    }
    for row in rule_rows {
        if !per_rule.contains_key(&row[0]) {
            assert_eq!((int(&row[4]), int(&row[5])), (0, 0), "{}", row[0]);
        }
    }
    assert_eq!(int(&total[4]), steps);
    assert_eq!(
        int(&total[5]),
        per_rule.values().map(|&(_, c)| c).sum::<usize>()
    );
    for col in [1, 2, 4, 5] {
        let sum: usize = rule_rows.iter().map(|r| int(&r[col])).sum();
        assert_eq!(int(&total[col]), sum, "column {col}");
    }
    assert_eq!(rule_rows[0][0], "naked-single");
    assert_eq!(int(&rule_rows[0][1]), steps + (N - solved));
    assert!(per_rule["finned-x-wing-in-rows"].0 > 0);

    // Searches and nodes: rate's count on the same puzzles (one thread).
    let rate = ruledoku_stdin(
        ["rate", "--rules", "sfin", "--stats", "-j", "1", "-"],
        &cbg_input(N),
    );
    assert_eq!(rate.code, Some(0), "{}", rate.stderr);
    assert_eq!(untimed(&rows), untimed(&table_rows(&rate.stderr)));
}
