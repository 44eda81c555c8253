//! The step checker for rule authors: a deliberately wrong rule is caught
//! at its first wrong step, with a state that reads back as a puzzle.

use ruledoku::engine::{self, Limits};
use ruledoku::grid::state::State;
use ruledoku::oracle::referee::Referee;
use ruledoku::{input, lang, ruleset};
use std::sync::Arc;

mod common;
use common::{FSHT, ruledoku};

/// Singles, then a "rule" that wrongly eliminates both candidates of a
/// bivalue cell (one of them is the cell's value).
fn with_wrong_rule() -> ruleset::RuleSet {
    let mut set = ruleset::load("singles").unwrap();
    let wrong = lang::compile_source(
        "wrong.rules",
        "rule bivalue-guess {
            complexity 50
            let V: rc
            where |V| == 2
            eliminate V
            show \"${V}\"
        }",
    )
    .unwrap();
    set.rules.extend(wrong.into_iter().map(Arc::new));
    set
}

#[test]
fn the_first_wrong_step_names_its_rule_and_state() {
    let set = with_wrong_rule();
    let p = input::parse_puzzle(FSHT).unwrap();
    let referee = Referee::new(&p.masks).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    let wrong = referee.first_wrong(&run).unwrap_or_else(|| {
        panic!(
            "{}",
            run.steps
                .iter()
                .map(|s| s.text())
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    assert_eq!(wrong.rule, "bivalue-guess");
    assert!(wrong.text.starts_with("bivalue-guess: r"), "{}", wrong.text);
    // Every step before it is sound; this one is not.
    for s in &run.steps[..wrong.index] {
        referee.check_step(s).unwrap();
    }
    assert!(referee.check_step(&run.steps[wrong.index]).is_err());
    // The wrong conclusion is the solution's digit.
    let (cell, digit) = wrong.conclusion.split_once(" ≠ ").unwrap();
    assert_eq!(digit.parse::<u8>().unwrap(), wrong.solution_digit);
    assert!(cell.starts_with('r'));
    // The state reads back as pencil marks, with the same candidates.
    let back = input::parse_puzzle(&wrong.state).unwrap();
    assert_eq!(back.format, input::Format::PencilMarks729);
    let before = &run.steps[wrong.index].before;
    let again = State::from_masks(&back.masks, &[0; 81]);
    for c in 0..81 {
        assert_eq!(again.cell_text(c), before.cell_text(c), "cell {c}");
    }
    let shown = wrong.to_string();
    assert!(shown.contains("wrong step"), "{shown}");
    assert!(shown.contains("bivalue-guess"), "{shown}");
}

#[test]
fn a_sound_run_has_no_wrong_step() {
    let set = ruleset::load("sfin").unwrap();
    let p = input::parse_puzzle(FSHT).unwrap();
    let referee = Referee::new(&p.masks).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    assert_eq!(referee.first_wrong(&run), None);
}

/// `solve --verify` and `rate --verify` name the deliberately wrong rule,
/// its wrong conclusion and the state before it; exit status 1. A sound
/// set passes with status 0.
#[test]
fn verify_on_the_command_line_names_the_wrong_rule() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("wrong.rules");
    std::fs::write(
        &rules,
        "/// Deliberately wrong: both candidates of a bivalue cell go.\nrule bivalue-wipe {\n complexity 50\n let V: rc\n where |V| == 2\n eliminate V\n show \"${V}\"\n}\n",
    )
    .unwrap();
    let set = dir.path().join("wrong.yaml");
    std::fs::write(&set, format!("files: [singles, {}]\n", rules.display())).unwrap();
    for cmd in ["solve", "rate"] {
        let out = ruledoku([cmd, "--verify", "--rules", set.to_str().unwrap(), FSHT]);
        let err = &out.stderr;
        assert_eq!(out.code, Some(4), "{cmd}: {err}");
        assert!(
            err.contains(
                "wrong step 15 by rule `bivalue-wipe`: bivalue-wipe: r1c3 ==> r1c3 ≠ 7, r1c3 ≠ 4"
            ),
            "{err}"
        );
        assert!(
            err.contains("wrong conclusion: r1c3 ≠ 7 (the solution has 7)"),
            "{err}"
        );
        let state = err
            .lines()
            .find_map(|l| l.strip_prefix("  state before the step: "))
            .unwrap();
        assert_eq!(
            input::parse_puzzle(state).unwrap().format,
            input::Format::PencilMarks729
        );
        assert!(
            err.ends_with("verify: 1 puzzle checked, 1 with a wrong step\n"),
            "{err}"
        );
    }
    let out = ruledoku(["rate", "--verify", "--rules", "sfin", FSHT]);
    assert_eq!(out.code, Some(0));
    assert_eq!(
        out.stderr,
        "verify: 1 puzzle checked, 0 with a wrong step\n"
    );
}
