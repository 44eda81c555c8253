//! Engine behaviour: blocked and unblocked steps, limits and stop reasons,
//! restart from the simplest rule.

use ruledoku::engine::{self, Limits, StopReason};
use ruledoku::grid::state::State;
use ruledoku::oracle::referee::Referee;
use ruledoku::rating::Rating;
use ruledoku::{input, ruleset};
use std::time::Duration;

const FSHT: &str =
    ".2.1.3.9..8.4.9.6...........6..1..3...8.3.1..2.......5..56.84...42...65.81.7.5.29";

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
        },
    );
    assert_eq!((run.stop, run.steps.len()), (StopReason::StepLimit, 5));
    let run = engine::run(
        &set,
        start(FSHT),
        Limits {
            max_steps: None,
            max_time: Some(Duration::ZERO),
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
