//! Aligned pair exclusion (`rules/se/exclusion.rules`) is written for
//! speed: one pass over the excluders per value instead of one per pair
//! of values. These tests hold it to the literal reading of Sudoku
//! Explainer 1.2.1's rule (every pair of values of the two cells, excluded
//! by an equal value in cells that see each other or by an excluder left
//! empty): on every state of the `se` set's paths of puzzles where SE
//! applies it, both forms find the same matches in the same order, with
//! the same conclusions and texts. Aligned triplet exclusion
//! (`rules/se/triplet-exclusion.rules`) is held to SE's triplet loop the
//! same way.

mod common;

use common::matches::matches_shown;
use ruledoku::engine::Runner;
use ruledoku::grid::state::State;
use ruledoku::input::parse_puzzle;
use ruledoku::lang::compile_source;
use ruledoku::rule::Rule;
use ruledoku::ruleset::{self, RuleSet};

/// SE's pair loop as written: every pair (z, w) of values is tried.
const LITERAL: &str = r#"
rule literal-aligned-pair-exclusion {
    complexity 260
    let T = select(c in cells(grid): |c| == 2)
    let B: cell
    where |B| >= 2
    let A: cell
    where A < B and |A| >= 2
    let X = peers(A | B) & T
    where |X| >= 2
    let EA = select(z in cands(A): all(w in cands(B): (digits(z) == digits(w) and B in peers(A)) or any(x in X: digits(x) <= digits(z) | digits(w))))
    let EB = select(w in cands(B): all(z in cands(A): (digits(z) == digits(w) and B in peers(A)) or any(x in X: digits(x) <= digits(z) | digits(w))))
    eliminate EA | EB
    show "${A}${B} excluders ${X}"
}
"#;

/// The rule `name` of `set` (the shipped `se` set), and the first rule
/// of the source `literal`.
fn shipped_and_literal(set: &RuleSet, name: &str, literal: &str) -> (Rule, Rule) {
    let shipped = set.rules.iter().find(|r| r.head.name == name).unwrap();
    let mut literal = compile_source("literal.rules", literal).unwrap();
    (Rule::clone(shipped), literal.swap_remove(0))
}

/// The matches of `shipped` on `state`, asserted equal to those of
/// `literal` (same conclusions, same order, same texts).
fn same_matches(shipped: &Rule, literal: &Rule, state: &State) -> Vec<String> {
    let ours = matches_shown(&*shipped.searcher, state);
    assert_eq!(ours, matches_shown(&*literal.searcher, state));
    ours
}

/// Runs the `se` set on each puzzle and, on the state before every step,
/// compares the matches of the shipped rule `name` with those of the
/// literal rule in `literal` (same conclusions, same order, same texts).
/// Returns the number of states, of matches, and of steps the shipped
/// rule took.
fn shipped_rule_matches_literal(
    name: &str,
    literal: &str,
    puzzles: &[&str],
) -> (usize, usize, usize) {
    let set = ruleset::load("se").unwrap();
    let (shipped, literal) = shipped_and_literal(&set, name, literal);
    let (mut states, mut found, mut applied) = (0, 0, 0);
    for p in puzzles {
        let p = parse_puzzle(p).unwrap();
        let run = Runner::new(&set).run(State::from_masks(&p.masks, &p.givens));
        for step in &run.steps {
            states += 1;
            found += same_matches(&shipped, &literal, &step.before).len();
            applied += usize::from(step.rule.head.name == shipped.head.name);
        }
    }
    (states, found, applied)
}

#[test]
fn pair_exclusion_finds_what_the_pair_loop_finds() {
    // cbg-000 puzzles on whose SE path aligned pair exclusion applies.
    let puzzles = [
        "....5...9......1..789.3...624.6.3.....89......3.54..2.3....1.7.61....8......9.4..",
        "....56...45...9......2.....2..37...4.8.....61..5.68.......12.7.6.....9...14..7.52",
        "..3...7.945....2.6.9..73......9..1.7...7.1.25....4...3..6.1....84.....5.9..6.....",
        "..3.5.......7..1.3..9..2.6..3.9..4.8.6..1..72...5...3....648.956........8......4.",
    ];
    let (states, found, applied) =
        shipped_rule_matches_literal("se-aligned-pair-exclusion", LITERAL, &puzzles);
    // Matches were compared, not only empty searches.
    assert!(
        states > 200 && found >= 400 && applied >= 4,
        "{states} states, {found} matches, {applied} steps"
    );
}

/// SE's triplet loop as written: cells A, B (two candidates or more, B
/// first), a third cell C of two or three candidates seeing A or B, the
/// common excluders of the three, and every combination of their values.
const LITERAL_TRIPLET: &str = r#"
rule literal-aligned-triplet-exclusion {
    complexity 700
    let T = select(c in cells(grid): |c| == 2 or |c| == 3)
    let B: cell
    where |B| >= 2
    let A: cell
    where A < B and |A| >= 2
    let C: cell in ((peers(A) | peers(B)) & T) - A - B
    let X = peers(A | B | C) & T
    where |X| >= 2
    let EA = select(z in digits(A): all(w in digits(B): all(u in digits(C): (z == w and B in peers(A)) or (z == u and C in peers(A)) or (w == u and C in peers(B)) or any(x in X: digits(x) <= z | w | u))))
    let EB = select(w in digits(B): all(z in digits(A): all(u in digits(C): (z == w and B in peers(A)) or (z == u and C in peers(A)) or (w == u and C in peers(B)) or any(x in X: digits(x) <= z | w | u))))
    let EC = select(u in digits(C): all(z in digits(A): all(w in digits(B): (z == w and B in peers(A)) or (z == u and C in peers(A)) or (w == u and C in peers(B)) or any(x in X: digits(x) <= z | w | u))))
    eliminate cands(A) & cands(EA) | cands(B) & cands(EB) | cands(C) & cands(EC)
    show "${A}${B}${C} excluders ${X}"
}
"#;

#[test]
fn triplet_exclusion_finds_what_the_triplet_loop_finds() {
    // cbg-000 puzzles on whose SE path aligned triplet exclusion applies.
    let puzzles = [
        "....5...9...1.92.6..82.......5.3...43.1....7.9.4.6.1..5..82..9......5.....2...5.1",
        ".2...6...4...8......92.....2..1..6....86.39....1.4.3.8.74.6.8...15....9......5..7",
        ".23..6.....67...3278..2......83.49...7...5..8.......2.5.2.1...4.......91.9....35.",
    ];
    let (states, found, applied) =
        shipped_rule_matches_literal("se-aligned-triplet-exclusion", LITERAL_TRIPLET, &puzzles);
    // Matches were compared, not only empty searches.
    assert!(
        states > 250 && found >= 2000 && applied >= 4,
        "{states} states, {found} matches, {applied} steps"
    );
}

/// The triplet rule drops a triplet before its values unless some value can
/// pass its tests; a value outside the digits of the usable excluders (DU)
/// passes only when the other two cells' digits outside those of the
/// two-valued excluders are two at most. This state sits on that bound:
/// r1c2 and r1c3 hold {1, 2} and see r1c1 {1, 3, 4} and each other, so 1
/// goes from r1c1 though no excluder (r1c4 {5, 6}, r1c5 {7, 8}) is usable,
/// and r1c2, r1c3 have two digits outside the two-valued excluders'. The
/// other cells hold every digit. Both forms find the same matches.
#[test]
fn triplet_exclusion_keeps_values_outside_the_usable_excluders() {
    let mut masks = [0x1FF_u16; 81];
    let digits = |ds: &[u16]| ds.iter().fold(0, |m, d| m | 1 << (d - 1));
    masks[0] = digits(&[1, 3, 4]);
    masks[1] = digits(&[1, 2]);
    masks[2] = digits(&[1, 2]);
    masks[3] = digits(&[5, 6]);
    masks[4] = digits(&[7, 8]);
    let state = State::from_masks(&masks, &[0; 81]);
    let set = ruleset::load("se").unwrap();
    let (shipped, literal) =
        shipped_and_literal(&set, "se-aligned-triplet-exclusion", LITERAL_TRIPLET);
    let ours = same_matches(&shipped, &literal, &state);
    assert_eq!(ours.len(), 209);
    // The first: 1 goes from r1c1, with r1c2 and r1c3.
    assert_eq!(ours[0], "r1c1r1c2r1c3 excluders {r1c4 r1c5} ==> n1r1c1");
}
