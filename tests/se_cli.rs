//! `solve --se` and `rate --se`: serate's line and format, early exits,
//! CSV/JSON, time limits, bad options and bad records; snapshot paths of a
//! puzzle per SE technique family.

mod common;
use common::*;

/// cbg-000 line 1: SE 2.0/1.2/1.2 (a direct hidden pair).
const EASY: &str =
    "...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361";
/// cbg-000 line 1292: SE 5.6/1.2/1.2 (BUG type 1).
const BUG: &str =
    "12..........7.9.2..98..2......64.8....9..7452.....5..6...2.....56..7..4...4..1..8";
/// cbg-000 line 3: SE 7.1/1.2/1.2 (forcing chains).
const CHAINS: &str =
    ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";
/// se-hard/hard-972.txt line 1: SE 11.9/11.9/3.4 (nested forcing chains:
/// the `se` set rates it so, in a minute or two; without its nested levels,
/// `NO_NESTED`, it gets stuck and rates it 20.0 as serate does a puzzle its
/// producers cannot solve).
const STUCK: &str =
    "........1.....2.34.35.......62......7.3.25..885...67...7853....32..68...5.62.7.8.";
/// The `se` set without dynamic forcing chains (+) and the nested levels.
const NO_NESTED: &str = "tests/data/rules/se-no-nested.yaml";

#[test]
fn rate_se_prints_serate_s_line() {
    let r = ruledoku(["rate", "--se", EASY]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, format!("{EASY} ED=2.0/1.2/1.2\n"));
    assert_eq!(r.stderr, "");
}

#[test]
fn rate_se_format_conversions() {
    let r = ruledoku(["rate", "--se", BUG, "--format", "%n\\t%r %p %d 100%% %g"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, format!("1\t5.6 1.2 1.2 100% {BUG}\n"));
}

#[test]
fn rate_se_streams_a_batch_in_input_order_on_both_cores() {
    let input = format!("{EASY}\n{BUG}\n{CHAINS}\n{STUCK}\n{EASY}\n");
    for jobs in ["1", "2"] {
        let r = ruledoku_stdin(
            [
                "rate", "--se", "-", "-j", jobs, "--format", "%r/%p/%d", "--rules", NO_NESTED,
            ],
            &input,
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        // A puzzle the set cannot solve is rated 20.0, as serate does.
        assert_eq!(
            r.stdout,
            "2.0/1.2/1.2\n5.6/1.2/1.2\n7.1/1.2/1.2\n20.0/0.0/3.4\n2.0/1.2/1.2\n"
        );
    }
}

#[test]
fn rate_se_bad_records_are_reported_and_the_batch_goes_on() {
    let input = format!("{EASY}\nnot a puzzle\n{BUG}\n");
    let r = ruledoku_stdin(["rate", "--se", "-"], &input);
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stdout,
        format!("{EASY} ED=2.0/1.2/1.2\n- ED=0.0/0.0/0.0\n{BUG} ED=5.6/1.2/1.2\n")
    );
    assert_eq!(r.stderr, "<stdin>:2:1: not a puzzle: \"not a puzzle\"\n");
}

#[test]
fn rate_se_early_exits() {
    // --below 2.0: BUG reaches 2.3 (its first naked single) and stops there.
    let input = format!("{EASY}\n{BUG}\n");
    let r = ruledoku_stdin(
        [
            "rate", "--se", "-", "--below", "2.3", "--format", "%r/%p/%d",
        ],
        &input,
    );
    assert_eq!(r.stdout, "2.0/1.2/1.2\n2.3+/1.2/1.2\n");
    // --above 4.2: stops once ER is above 4.2 (the BUG step, 5.6).
    let r = ruledoku_stdin(
        ["rate", "--se", "-", "--above", "4.2", "--format", "%r"],
        &input,
    );
    assert_eq!(r.stdout, "2.0\n5.6+\n");
    // --pearl: a step after the first placement (1.2) that is harder (1.5).
    let r = ruledoku_stdin(
        ["rate", "--se", "-", "--pearl", "--format", "%r/%p/%d"],
        &input,
    );
    assert_eq!(r.stdout, "1.5+/1.2/1.2\n1.5+/1.2/1.2\n");
    let r = ruledoku_stdin(["rate", "--se", "-", "--diamond", "--format", "%r"], &input);
    assert_eq!(r.stdout, "1.5+\n1.5+\n");
    assert_eq!(r.code, Some(0));
}

#[test]
fn rate_se_time_limit_stops_one_puzzle_and_says_so() {
    let input = format!("{EASY}\n{BUG}\n");
    let r = ruledoku_stdin(
        [
            "rate",
            "--se",
            "-",
            "--max-seconds",
            "0.000000001",
            "--format",
            "%r/%p/%d",
        ],
        &input,
    );
    assert_eq!(r.code, Some(0));
    assert_eq!(r.stdout, "0.0+/0.0/0.0\n0.0+/0.0/0.0\n");
    assert_eq!(
        r.stderr,
        "<stdin>:1: time limit reached after 0 step(s); ER 0.0+ is a lower bound\n\
         <stdin>:2: time limit reached after 0 step(s); ER 0.0+ is a lower bound\n"
    );
}

#[test]
fn rate_se_csv_and_json() {
    let r = ruledoku(["rate", "--se", EASY, "--csv", "--no-time"]);
    assert_eq!(
        r.stdout,
        format!(
            "line,puzzle,er,ep,ed,complete,stop,early,hardest_rule,steps,error\n\
             1,{EASY},2.0,1.2,1.2,true,solved,,se-direct-hidden-pair-in-a-block,55,\n"
        )
    );
    let r = ruledoku([
        "rate",
        "--se",
        STUCK,
        "--json",
        "--no-time",
        "--rules",
        NO_NESTED,
    ]);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["er"], 20.0);
    // No value was placed before the run got stuck.
    assert_eq!(v["ep"], 0.0);
    assert_eq!(v["ed"], 3.4);
    assert_eq!(v["stop"], "stuck");
    assert_eq!(v["complete"], true);
    assert_eq!(v["steps"][0]["rating"], 3.4);
    assert_eq!(
        v["steps"][0]["text"],
        "se-hidden-pair-in-a-block: b5{n7 n8}{r4c4 r4c5} ==> r4c5 ≠ 9, r4c5 ≠ 4, r4c5 ≠ 1, r4c4 ≠ 9, r4c4 ≠ 4, r4c4 ≠ 3, r4c4 ≠ 1"
    );
}

#[test]
fn rate_se_bad_options_are_usage_errors() {
    let cases: [(&[&str], &str); 6] = [
        (&["--format", "%q"], "unknown conversion `%q`"),
        (
            &["--format", "%r%"],
            "a `%` at the end needs a conversion letter",
        ),
        (&["--above", "21"], "`21` is no SE rating"),
        (&["--below", "4.25"], "`4.25` is no SE rating"),
        (&["--diamond", "--pearl"], "cannot be used with"),
        (
            &["--rules", "basic"],
            "--se needs a rule set whose strategy is first-producer",
        ),
    ];
    for (extra, msg) in cases {
        let mut args = vec!["rate", "--se", EASY];
        args.extend_from_slice(extra);
        let r = ruledoku(&args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(msg), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "");
    }
    // The SE options need --se.
    let r = ruledoku(["rate", EASY, "--pearl"]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("--se"), "{}", r.stderr);
}

#[test]
fn rules_list_shows_the_se_strategy_and_uniqueness() {
    let r = ruledoku(["rules", "list", "--rules", "se"]);
    let lines = r.lines();
    assert_eq!(
        lines[1],
        "strategy: first-producer (rules in the order listed; the first match of the first rule that has one is applied)"
    );
    assert_eq!(
        lines[2],
        "assumes a unique solution: some rules hold only for a puzzle with one solution"
    );
    // SE's producer order: hidden singles first, the nested forcing chains
    // of level 5 (11.0) last.
    assert!(lines[4].starts_with("se-full-house-in-a-block "));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("dynamic-forcing-chains-plus-dfc-fc ")
    );
    // A SudoRules set says nothing of either.
    let r = ruledoku(["rules", "list", "--rules", "basic"]);
    assert!(r.lines()[1].starts_with("rule "));
}

/// `solve --se` paths, one puzzle per family of SE techniques (cbg-000
/// lines; reviewed: every step's rating is SE's, the ER/EP/ED line is
/// serate's).
#[test]
fn solve_se_paths() {
    let cases = [
        ("direct-hidden-pair", EASY),
        (
            "claiming",
            "1....6.8...67......9.1.2....1...8.....794.6.....2...5..6.8..9..87..9.4.59......3.",
        ),
        (
            "x-wing",
            "1...56......7...2.78.....6.2..97.34.37.2..9..96.8..2.....64....63...8.71.....7...",
        ),
        (
            "xy-wing",
            ".2..5..89..67....37.....5..2...61..55.1..........9.2...6.91..5..7..2539......48..",
        ),
        (
            "unique-rectangle",
            "..3.5.........91...98132..42..5....15.9...4..81...36....5.9..1...1....97....7...5",
        ),
        (
            "unique-loop",
            "1...5.........91.3..81.2..4...5.....6.43..9...7..24....4.8.5.......6..9..6...73.5",
        ),
        ("bug-type-1", BUG),
        (
            "bug-type-4",
            "12.4.6..9..67...2.7.......5...5..94..4...2.5......1.3.3...........9.4.76..8.1...4",
        ),
        (
            "bug-type-3",
            "1.34...8...71.9..6.8..72.......9.3.85...........537..2........57...15...89....61.",
        ),
        (
            "aligned-pair-exclusion",
            "..3.5.......7..1.3..9..2.6..3.9..4.8.6..1..72...5...3....648.956........8......4.",
        ),
        (
            "aligned-triplet-exclusion",
            "12..5....4.6..9...78.............85...724...16............6.915..192..36...3....8",
        ),
        ("forcing-chains", CHAINS),
    ];
    for (name, p) in cases {
        let r = ruledoku(["solve", "--se", p]);
        assert_eq!(r.code, Some(0), "{name}: {}", r.stderr);
        insta::assert_snapshot!(format!("se_{name}"), r.stdout);
    }
    // Stuck without the nested levels: rated 20.0.
    let r = ruledoku(["solve", "--se", "--rules", NO_NESTED, STUCK]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    insta::assert_snapshot!("se_stuck-needs-nested-chains", r.stdout);
}
