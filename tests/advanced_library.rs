//! The `advanced` rule library (rules/advanced/, issue 28): for each
//! technique, a cbg-000 puzzle whose `advanced` path uses it, and the
//! exact first step it makes there (pattern and eliminations). The
//! library's soundness is refereed with `--verify` over cbg-000 and
//! hard-972 (docs/advanced.md gives the hit counts).

use ruledoku::engine::{self, Limits};
use ruledoku::grid::state::State;
use ruledoku::path::render_run;
use ruledoku::{input, ruleset};

/// The lines of the `advanced` path of a puzzle that are steps of a rule
/// whose name starts with `rule`.
fn steps_of(puzzle: &str, rule: &str) -> Vec<String> {
    let set = ruleset::load("advanced").unwrap();
    let p = input::parse_puzzle(puzzle).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    render_run(&p.text, &set, &run)
        .lines()
        .filter(|l| l.starts_with(rule))
        .map(str::to_string)
        .collect()
}

/// Puzzle 975 of cbg-000: two Empty Rectangles, each with a conjugate
/// pair in column 1 (box 9's 5s lie in row 9 and column 9; r9c1 = r5c1
/// on 5, so r5c9 is not 5).
#[test]
fn empty_rectangle() {
    let p = ".23.567.94.6......7....1.6.23.9....1....43...9.......7...8.54..6..3..91.....6....";
    assert_eq!(
        steps_of(p, "empty-rectangle"),
        [
            "empty-rectangle-column-pair: n5b9 r9c9 n5r9c1=n5r5c1 ==> r5c9 ≠ 5",
            "empty-rectangle-column-pair: n8b6 r5c7 n8r5c1=n8r9c1 ==> r9c7 ≠ 8",
        ]
    );
}

/// Puzzle 3 of cbg-000: box 6's 9s lie in row 6 and column 8, and r7c8 =
/// r7c4 is a conjugate pair in row 7: r6c4 is not 9.
#[test]
fn empty_rectangle_with_a_row_pair() {
    let p = ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";
    assert_eq!(
        steps_of(p, "empty-rectangle"),
        ["empty-rectangle-row-pair: n9b6 r6c8 n9r7c8=n9r7c4 ==> r6c4 ≠ 9"]
    );
}
