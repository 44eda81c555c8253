//! SE's chaining techniques as trial rules (`rules/se/chaining.rules`),
//! checked against Sudoku Explainer 1.2.1 step by step.
//!
//! `tests/data/se-chaining-steps.tsv` (and `-hard-steps.tsv`, from
//! hard-972 lines 1, 200, 400, 600, 900) hold steps that SE 1.2.1 took on
//! cbg-000 puzzles whose SER is 6.5–9.0 (transcribed from its output):
//! the difficulty, SE's hint name, the placement (if any), the removed
//! candidates and the state before the step as a 729-character pencil-mark
//! line. For each, the first match of the `se-chaining` set on that state
//! must be SE's hint: the same difficulty, placement and eliminations.

mod common;

use common::se_steps::{ours, state_of, steps};
use ruledoku::ruleset;

#[test]
fn se_chaining_first_hints_are_ses() {
    compare("se-chaining-steps.tsv");
}

#[test]
fn se_chaining_first_hints_are_ses_on_hard_puzzles() {
    compare("se-chaining-hard-steps.tsv");
}

fn compare(file: &str) {
    let set = ruleset::load("se-chaining").unwrap();
    let mut bad = Vec::new();
    let all = steps(file, 0);
    for st in &all {
        let state = state_of(&st.pm);
        let got = ours(&set, &state);
        let want = (st.difficulty.clone(), st.placed.clone(), st.removed.clone());
        match got {
            Some((d, p, r, _)) if (d.clone(), p.clone(), r.clone()) == want => {}
            other => bad.push(format!(
                "line {}: SE {} {:?} {:?} {:?}; ours {:?}",
                st.line, st.name, want.0, want.1, want.2, other
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        all.len(),
        bad.join("\n")
    );
}
