//! Engine behaviour: blocked and unblocked steps, limits and stop reasons,
//! restart from the simplest rule.

use ruledoku::engine::{self, Limits, StopReason};
use ruledoku::grid::state::State;
use ruledoku::oracle::referee::Referee;
use ruledoku::rating::Rating;
use ruledoku::search::Evidence;
use ruledoku::{input, ruleset};
use std::collections::BTreeSet;
use std::time::Duration;

mod common;
use common::FSHT;

fn start(p: &str) -> State {
    let p = input::parse_puzzle(p).unwrap();
    State::from_masks(&p.masks, &p.givens)
}

#[test]
fn blocked_steps_apply_every_conclusion_of_a_match() {
    let set = ruleset::load("sfin").unwrap();
    let run = engine::run(&set, start(FSHT), Limits::default());
    assert_eq!(run.stop, StopReason::Solved);
    let pair = run
        .steps
        .iter()
        .find(|s| s.rule_name() == "naked-pairs-in-a-row")
        .unwrap();
    assert_eq!(
        pair.text(),
        "naked-pairs-in-a-row: r1{c3 c9}{n4 n7} ==> r1c7 ≠ 7, r1c5 ≠ 7, r1c1 ≠ 4"
    );
    // Restart from the simplest: after every non-single step, the next step
    // is never more complex than needed; here the step after the finned
    // swordfish is a single.
    let i = run
        .steps
        .iter()
        .position(|s| s.rule_name() == "finned-swordfish-in-rows")
        .unwrap();
    assert_eq!(run.steps[i + 1].grade.level, Rating::level(0));
    assert_eq!(run.rating(), "FSHT");
    assert_eq!(run.level(), Rating::level(3));
}

#[test]
fn unblocked_steps_apply_one_conclusion_each() {
    let mut set = ruleset::load("sfin").unwrap();
    set.blocked = false;
    let run = engine::run(&set, start(FSHT), Limits::default());
    assert_eq!(run.stop, StopReason::Solved);
    assert!(run.steps.iter().all(|s| s.conclusions.len() == 1));
    let referee = Referee::new(&input::parse_puzzle(FSHT).unwrap().masks).unwrap();
    referee.check_run(&run).unwrap();
    assert_eq!(run.state.grid(), referee.solution);
}

#[test]
fn limits_stop_the_run_with_a_reason() {
    let set = ruleset::load("sfin").unwrap();
    let run = engine::run(
        &set,
        start(FSHT),
        Limits {
            max_steps: Some(5),
            max_time: None,
            max_memory: None,
            max_cpu: None,
        },
    );
    assert_eq!((run.stop, run.steps.len()), (StopReason::StepLimit, 5));
    let run = engine::run(
        &set,
        start(FSHT),
        Limits {
            max_steps: None,
            max_time: Some(Duration::ZERO),
            max_memory: None,
            max_cpu: None,
        },
    );
    assert_eq!((run.stop, run.steps.len()), (StopReason::TimeLimit, 0));
}

#[test]
fn stuck_and_contradiction() {
    let singles = ruleset::load("singles").unwrap();
    let run = engine::run(&singles, start(FSHT), Limits::default());
    assert_eq!(run.stop, StopReason::Stuck);
    // 30 givens and the 14 singles SudoRules also finds before whips[1].
    assert_eq!(run.state.value_count(), 44);
    // Two 1s in row 1 are rejected by the input reader; as candidate states,
    // a cell with no candidate left is a contradiction at once.
    let mut s = start(FSHT);
    for d in 0..9 {
        s.eliminate(d);
    }
    let run = engine::run(&singles, s, Limits::default());
    assert_eq!(run.stop, StopReason::Contradiction);
}

/// A rule set made of the given rule text.
fn set_of(src: &str) -> ruleset::RuleSet {
    let rules = ruledoku::lang::compile_source("t.rules", src).unwrap();
    ruleset::RuleSet {
        name: "t".into(),
        description: String::new(),
        rules: rules.into_iter().map(std::sync::Arc::new).collect(),
        foreign: Vec::new(),
        blocked: true,
        strategy: ruleset::Strategy::SimplestFirst,
        assumes_unique: false,
        rating_type: None,
        warnings: Vec::new(),
    }
}

/// `--max-seconds` is honoured inside a search: a rule whose search space
/// is C(729, 5) combinations (no match can pass its filter) stops at the
/// deadline instead of running for hours.
#[test]
fn the_time_limit_stops_a_slow_rule_inside_its_search() {
    let slow = set_of(
        "rule slow {
            complexity 1
            let A: 5 cand
            where |A| == 6
            eliminate A
        }",
    );
    let t = std::time::Instant::now();
    let run = engine::run(
        &slow,
        start(FSHT),
        Limits {
            max_steps: None,
            max_time: Some(Duration::from_millis(200)),
            max_memory: None,
            max_cpu: None,
        },
    );
    assert_eq!(run.stop, StopReason::TimeLimit);
    assert!(run.steps.is_empty());
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
}

/// Per-rule statistics add up to the path: steps per rule, conclusions per
/// rule, and every rule before the applied one was searched.
#[test]
fn stats_add_up_to_the_steps_of_the_path() {
    let set = ruleset::load("sfin").unwrap();
    let run = engine::Runner::new(&set).with_stats(true).run(start(FSHT));
    assert_eq!(run.stop, StopReason::Solved);
    let stats = run.stats.as_ref().unwrap();
    assert_eq!(stats.len(), set.rules.len());
    let steps: u64 = stats.iter().map(|s| s.steps).sum();
    let concl: u64 = stats.iter().map(|s| s.conclusions).sum();
    assert_eq!(steps as usize, run.steps.len());
    assert_eq!(
        concl as usize,
        run.steps.iter().map(|s| s.conclusions.len()).sum::<usize>()
    );
    for (r, s) in set.rules.iter().zip(stats) {
        let applied = run
            .steps
            .iter()
            .filter(|st| st.rule_name() == r.head.name)
            .count();
        assert_eq!(s.steps as usize, applied, "{}", r.head.name);
        assert!(s.calls >= s.steps);
    }
    // The simplest rule is searched once per step: the run stops on a
    // solved grid before searching again.
    assert_eq!(stats[0].calls as usize, run.steps.len());
    // Without statistics, nothing is counted.
    assert!(
        engine::run(&set, start(FSHT), Limits::default())
            .stats
            .is_none()
    );
}

/// The run's rating is its most complex step's grade. A pattern rule's
/// matches bring no grade of their own: here every grade is the head's
/// (`a_step_is_graded_by_its_match` has matches that bring theirs).
#[test]
fn the_hardest_step_gives_the_rating() {
    let set = ruleset::load("sfin").unwrap();
    let run = engine::run(&set, start(FSHT), Limits::default());
    let h = run.hardest_step().unwrap();
    assert_eq!(h.rule_name(), "finned-swordfish-in-rows");
    assert_eq!(h.grade, h.rule.head.grade());
    assert!(
        run.steps
            .iter()
            .all(|s| s.grade.complexity <= h.grade.complexity)
    );
}

/// cbg-000 line 19,860 (`tests/data/se-cbg-000-isomorphs.txt`): ER 7.2 in
/// Sudoku Explainer 1.2.1, reached by forcing chains.
const SE_FORCING_CHAINS: &str =
    ".....6..35...1.....16...98....3..2..7.....15.6.8.2.3....79.3..4....82.9.......7..";

/// The grade of a step is its match's. SE's forcing chains and cycles
/// (`rules/se/forcing-chains.rules`) is one trial rule (`level 6.5`,
/// `rating "Forcing Chains & Cycles"`) whose matches bring their own
/// grade: the level and label of the conclusion they reach (a forcing
/// X-chain 6.6, a cycle 6.5 or 7.0, a forcing chain 7.0) plus SE's length
/// increment for their chain's complexity (length = complexity − 2; 0.1
/// each time the length passes 4, 6, 8, 12, 16, 24, …). On this puzzle the
/// `se` set applies it with chains of three lengths, and one label is
/// graded at two levels. Were steps graded by their rule's head, every
/// one would be 6.5 "Forcing Chains & Cycles".
#[test]
fn a_step_is_graded_by_its_match() {
    let set = ruleset::load("se").unwrap();
    let run = engine::run(&set, start(SE_FORCING_CHAINS), Limits::default());
    assert_eq!(run.stop, StopReason::Solved);
    // The rule's conclusions: their labels and levels in tenths.
    let base = |label: &str| match label {
        "Bidirectional X-Cycle" | "Bidirectional Y-Cycle" => 65,
        "Forcing X-Chain" => 66,
        "Bidirectional Cycle" | "Forcing Chain" => 70,
        _ => panic!("not a conclusion of forcing-chains-and-cycles: {label}"),
    };
    let increment = |complexity: usize| {
        let length = complexity - 2;
        let (mut ceil, mut odd, mut tenths) = (4, false, 0);
        while length > ceil {
            tenths += 1;
            ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
            odd = !odd;
        }
        tenths
    };
    let mut grades = BTreeSet::new();
    for s in run
        .steps
        .iter()
        .filter(|s| s.rule_name() == "forcing-chains-and-cycles")
    {
        let head = s.rule.head.grade();
        assert_eq!(
            (head.level, head.label.as_str()),
            (Rating::tenths(65), "Forcing Chains & Cycles")
        );
        let Evidence::Implications(chains) = &s.evidence else {
            panic!("a trial step without its chains: {}", s.text());
        };
        let want = base(&s.grade.label) + increment(chains.complexity);
        assert_eq!(s.grade.level, Rating::tenths(want), "{}", s.text());
        // The rule's place in the order stays the head's.
        assert_eq!(s.grade.complexity, head.complexity, "{}", s.text());
        grades.insert((
            chains.complexity,
            s.grade.level.to_string(),
            s.grade.label.clone(),
        ));
    }
    let grade = |k: usize, level: &str, label: &str| (k, level.to_string(), label.to_string());
    assert_eq!(
        grades,
        BTreeSet::from([
            grade(6, "6.6", "Forcing X-Chain"),
            grade(6, "7.0", "Bidirectional Cycle"),
            grade(8, "7.1", "Bidirectional Cycle"),
            grade(8, "7.1", "Forcing Chain"),
            grade(10, "7.2", "Forcing Chain"),
        ])
    );
    // The run is rated by its most complex step (the first of equals: every
    // step of the rule has its complexity, 650), with that step's grade.
    let h = run.hardest_step().unwrap();
    assert_eq!(h.rule_name(), "forcing-chains-and-cycles");
    assert_eq!(run.level(), Rating::tenths(66));
    assert_eq!(run.rating(), "Forcing X-Chain");
    // SE's ER is the highest step level: 7.2, as SE 1.2.1 rates it.
    let highest = run.steps.iter().map(|s| s.grade.level).max().unwrap();
    assert_eq!(highest, Rating::tenths(72));
}
