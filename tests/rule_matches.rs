//! `ruledoku rules matches`: every match of each rule of a set at each
//! input state, none applied (docs/advanced.md, "Compared with HoDoKu").

mod common;
use common::{CBG_SAMPLE, data, ruledoku, ruledoku_stdin};

/// Line `n` (1-based) of the cbg-000 sample.
fn cbg_line(n: usize) -> String {
    let text = std::fs::read_to_string(data(CBG_SAMPLE)).unwrap();
    text.lines().nth(n - 1).unwrap().to_string()
}

const DEATH_BLOSSOM: &str = "rules/advanced/death-blossom.rules";

#[test]
fn every_match_of_each_rule_is_listed_with_the_union_of_its_conclusions() {
    // The state where `basic` stops on the sample's second puzzle.
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        DEATH_BLOSSOM,
        "--after",
        "basic",
        "-j",
        "1",
        &cbg_line(2),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "1 death-blossom-2 5 matches: r2c3 ≠ 4, r3c6 ≠ 6, r6c7 ≠ 2, r8c3 ≠ 4\n\
         1 death-blossom-3 2 matches: r2c4 ≠ 6\n"
    );
    assert_eq!(run.stderr, "death-blossom: 1 state searched\n");
}

#[test]
fn the_state_searched_read_back_gives_the_same_matches() {
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        DEATH_BLOSSOM,
        "--after",
        "basic",
        "--json",
        &cbg_line(2),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["line"], 1);
    assert_eq!(
        v["givens"],
        "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75"
    );
    let state = v["state"].as_str().unwrap();
    assert_eq!(state.len(), 729);
    assert_eq!(v["rules"][0]["rule"], "death-blossom-2");
    assert_eq!(v["rules"][0]["matches"], 5);
    assert_eq!(
        v["rules"][0]["eliminations"],
        serde_json::json!(["r2c3 ≠ 4", "r3c6 ≠ 6", "r6c7 ≠ 2", "r8c3 ≠ 4"])
    );
    assert_eq!(v["rules"][0]["assertions"], serde_json::json!([]));
    // The pencil marks alone (their cells of one candidate decided).
    let back = ruledoku_stdin(["rules", "matches", "--rules", DEATH_BLOSSOM, "-"], state);
    assert_eq!(back.code, Some(0), "{}", back.stderr);
    assert_eq!(
        back.stdout,
        "1 death-blossom-2 5 matches: r2c3 ≠ 4, r3c6 ≠ 6, r6c7 ≠ 2, r8c3 ≠ 4\n\
         1 death-blossom-3 2 matches: r2c4 ≠ 6\n"
    );
}

#[test]
fn a_record_the_after_set_ends_has_no_state_to_search() {
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        DEATH_BLOSSOM,
        "--after",
        "basic",
        &cbg_line(1),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "1 ended: solved\n");
    assert_eq!(
        run.stderr,
        "death-blossom: 0 states searched, 1 ended by --after (solved or contradictory)\n"
    );
}

#[test]
fn stats_count_every_search_and_what_it_matched() {
    let input: String = (1..=30).map(|n| cbg_line(n) + "\n").collect();
    let run = ruledoku_stdin(
        [
            "rules",
            "matches",
            "--rules",
            "rules/advanced/als-xz.rules",
            "--after",
            "basic",
            "--stats",
            "--no-time",
            "-j",
            "1",
            "-",
        ],
        &input,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Vec<Vec<&str>> = run
        .stderr
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        run.stderr.lines().next(),
        Some("als-xz: 17 states searched, 13 ended by --after (solved or contradictory)")
    );
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0][..6],
        ["als-xz-doubly-linked", "17", "0", "3", "25", "23"]
    );
    assert_eq!(rows[1][..6], ["als-xz", "17", "0", "16", "156", "75"]);
    // One text line per state and rule with a match.
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.contains(" als-xz "))
            .count(),
        16
    );
}

#[test]
fn an_unknown_set_is_a_usage_error() {
    let run = ruledoku(["rules", "matches", "--rules", "no-such-set", &cbg_line(2)]);
    assert_eq!(run.code, Some(2));
    assert!(
        run.stderr.contains("unknown rule set `no-such-set`"),
        "{}",
        run.stderr
    );
}

/// Our technique's name in `tests/data/hodoku/eliminations-20.tsv` for a
/// rule of the library, if it is one of those compared there.
fn technique(rule: &str) -> Option<&'static str> {
    Some(match rule {
        r if r.starts_with("als-xz") => "als-xz",
        r if r.starts_with("w-wing-") => "w-wing",
        "2-string-kite" => "2-string-kite",
        r if r.starts_with("multi-colouring-") => "multi-colours",
        "unique-rectangle-type-4" => "ur-4",
        _ => return None,
    })
}

/// The first 20 of the 1,000 states of docs/advanced.md, "Compared with
/// HoDoKu": for the techniques where the two agree on all 1,000, every
/// state's union of eliminations is HoDoKu v2.3.0 beta's (recorded from its
/// find-all methods; ALS-XZ with HoDoKu's ALSs limited to the library's
/// 1 to 5 cells).
#[test]
fn eliminations_agree_with_hodoku_on_sample_states() {
    use std::collections::{BTreeMap, BTreeSet};
    let mut want: BTreeMap<(u64, String), BTreeSet<String>> = BTreeMap::new();
    let table = std::fs::read_to_string(data("hodoku/eliminations-20.tsv")).unwrap();
    for l in table.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        want.insert(
            (f[0].parse().unwrap(), f[1].to_string()),
            f[2].split(' ').map(str::to_string).collect(),
        );
    }
    let states = data("hodoku/states-20.txt");
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        "rules/advanced/als-xz.rules+rules/advanced/single-digit.rules+rules/advanced/colouring.rules+rules/advanced/unique-rectangles.rules",
        "--json",
        "-j",
        "1",
        states.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut got: BTreeMap<(u64, String), BTreeSet<String>> = BTreeMap::new();
    let mut lines = 0;
    for l in run.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        lines += 1;
        let line = v["line"].as_u64().unwrap();
        for r in v["rules"].as_array().unwrap() {
            let Some(t) = technique(r["rule"].as_str().unwrap()) else {
                continue;
            };
            let e = got.entry((line, t.to_string())).or_default();
            for x in r["eliminations"].as_array().unwrap() {
                // "r1c2 ≠ 3" as HoDoKu's harness wrote it: "r1c2-3".
                let x = x.as_str().unwrap().replace(" ≠ ", "-");
                e.insert(x);
            }
        }
    }
    assert_eq!(lines, 20);
    assert_eq!(got, want);
}

/// CSP-Rules-Examples' Tridagons #20958: its whips of every length, all of
/// them, would hold more than 24 GB (a search for every match has no first
/// match to stop at).
const HARD_20958: &str =
    "1....6.8.......2..6...72.14275......369......841.67....8..2167..1...8.4.....4.1.8";

#[test]
fn a_search_over_the_memory_cap_stops_and_says_so() {
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        "rules/whips.rules",
        "--max-memory",
        "8",
        "-j",
        "1",
        "--stats",
        "--no-time",
        HARD_20958,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // Whips of length 1 to 36, one line for each with a match or stopped:
    // the short ones end, the long ones stop at 8 MiB.
    assert_eq!(
        lines.iter().filter(|l| l.contains("(stopped: ")).count(),
        lines
            .iter()
            .filter(|l| l.contains("(stopped: memory-limit)"))
            .count()
    );
    assert!(lines.contains(&"1 whip[36] no match (stopped: memory-limit)"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("1 whip[2] 10 matches: ") && !l.contains("stopped")),
        "{}",
        run.stdout
    );
    let stopped = lines.iter().filter(|l| l.contains("(stopped: ")).count();
    assert!(stopped >= 10, "{}", run.stdout);
    let summary = run.stderr.lines().next().unwrap();
    assert_eq!(
        summary,
        format!("whips: 1 state searched, {stopped} searches stopped by a limit")
    );
    // The --stats table counts them per rule.
    let row36: Vec<&str> = run
        .stderr
        .lines()
        .find(|l| l.starts_with("whip[36] "))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(row36[..4], ["whip[36]", "1", "1", "0"]);
}

#[test]
fn a_search_past_its_time_stops_and_says_so_in_json() {
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        "rules/whips.rules",
        "--max-seconds",
        "0.05",
        "--json",
        "-j",
        "1",
        HARD_20958,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let rules = v["rules"].as_array().unwrap();
    let last = rules.last().unwrap();
    assert_eq!(last["rule"], "whip[36]");
    assert_eq!(last["stopped"], "time-limit");
    // A search that ended has no "stopped".
    assert_eq!(rules[0]["rule"], "whip[2]");
    assert!(rules[0].get("stopped").is_none());
}

#[test]
fn limits_are_checked() {
    for (opt, bad) in [("--max-memory", "0"), ("--max-seconds", "-1")] {
        let run = ruledoku([
            "rules",
            "matches",
            "--rules",
            "rules/whips.rules",
            opt,
            bad,
            HARD_20958,
        ]);
        assert_eq!(run.code, Some(2), "{opt} {bad}: {}", run.stderr);
        assert!(run.stderr.contains(opt), "{}", run.stderr);
    }
}

#[test]
fn an_after_run_stopped_by_a_limit_is_reported_not_searched() {
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        DEATH_BLOSSOM,
        "--after",
        "w-sfin",
        "--max-seconds",
        "0.2",
        "-j",
        "1",
        HARD_20958,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, "1 ended: time-limit\n");
    assert_eq!(
        run.stderr,
        "death-blossom: 0 states searched, 1 whose --after run was stopped by a limit\n"
    );
}

/// The 14 states of the 1,000 (docs/advanced.md, "Compared with HoDoKu")
/// where HoDoKu's Hidden Rectangle eliminated what the library's did not:
/// each comes from a rectangle whose corners beside the bivalue one lack
/// the eliminated digit (HoDoKu's "Hidden Rectangle with missing
/// candidate"). The library's `hidden-rectangle` now makes every one of
/// HoDoKu's eliminations there, and beyond them only its own, recorded
/// with them (rectangles with two bivalue corners side by side or three).
#[test]
fn hidden_rectangles_take_in_hodokus_missing_candidate_rectangles() {
    use std::collections::{BTreeMap, BTreeSet};
    let words = |s: &str| -> BTreeSet<String> {
        s.split(' ')
            .filter(|w| *w != "-")
            .map(str::to_string)
            .collect()
    };
    let mut hodoku: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    let mut want: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    let table = std::fs::read_to_string(data("hodoku/hidden-rectangle.tsv")).unwrap();
    for l in table.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        let line: u64 = f[0].parse().unwrap();
        let (theirs, ours_only) = (words(f[2]), words(f[3]));
        assert!(theirs.is_disjoint(&ours_only));
        want.insert(line, theirs.union(&ours_only).cloned().collect());
        hodoku.insert(line, theirs);
    }
    assert_eq!(want.len(), 14);
    let states = data("hodoku/hidden-rectangle-states.txt");
    let run = ruledoku([
        "rules",
        "matches",
        "--rules",
        "rules/advanced/unique-rectangles.rules",
        "--json",
        "-j",
        "1",
        states.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut got: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    for l in run.stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        let e = got.entry(v["line"].as_u64().unwrap()).or_default();
        for r in v["rules"].as_array().unwrap() {
            if r["rule"] != "hidden-rectangle" {
                continue;
            }
            for x in r["eliminations"].as_array().unwrap() {
                e.insert(x.as_str().unwrap().replace(" ≠ ", "-"));
            }
        }
    }
    for (line, theirs) in &hodoku {
        assert!(
            theirs.is_subset(&got[line]),
            "state {line}: HoDoKu's {theirs:?}, ours {:?}",
            got[line]
        );
    }
    assert_eq!(got, want);
}
