//! The rule language's semantics: one meaning for set algebra (no silent
//! empty sets between unrelated element types), assertions of exactly one
//! candidate, quantifiers and `grid`, head clauses, and the values of
//! `first`/`last` on empty sets. Test rules written in the language
//! (tests/data/rules/) run over cbg-000 with the referee judging every
//! step.

mod common;

use common::matches::{matches_shown, matches_text};
use common::{FSHT, data, errors, shipped};
use ruledoku::engine::{self, Limits, StopReason};
use ruledoku::grid::geometry::cand;
use ruledoku::grid::state::State;
use ruledoku::lang::compile_source;
use ruledoku::oracle::referee::Referee;
use ruledoku::rule::Rule;
use ruledoku::{input, ruleset};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The one error of a rule text.
fn error(src: &str) -> String {
    let es = errors(src);
    assert_eq!(es.len(), 1, "{es:?}");
    es[0].2.clone()
}

/// A rule body wrapped in a rule with a complexity.
fn rule(body: &str) -> String {
    format!("rule t {{\n    complexity 1\n{body}\n}}\n")
}

fn compile(src: &str) -> Vec<Rule> {
    compile_source("t.rules", src).unwrap_or_else(|e| panic!("{}", ruledoku::lang::Diagnostics(e)))
}

fn state(p: &str) -> State {
    let p = input::parse_puzzle(p).unwrap();
    State::from_masks(&p.masks, &p.givens)
}

/// Every match of the only rule of `src` on `state`, as a step reads
/// (`matches_shown`).
fn source_matches(src: &str, state: &State) -> Vec<String> {
    let rules = compile(src);
    assert_eq!(rules.len(), 1);
    matches_shown(&*rules[0].searcher, state)
}

/// Runs the basic set plus the rules of `extra` over the first 1,000
/// puzzles of cbg-000, judging every step with the referee; returns the
/// number of steps of each rule of `extra`, and the number of puzzles
/// solved.
fn referee_run(extra: &str) -> (BTreeMap<String, usize>, usize) {
    let mut set = ruleset::load("basic").unwrap();
    let path = data(extra);
    let text = std::fs::read_to_string(&path).unwrap();
    let added = compile_source(&path.display().to_string(), &text)
        .unwrap_or_else(|e| panic!("{}", ruledoku::lang::Diagnostics(e)));
    let mut counts: BTreeMap<String, usize> =
        added.iter().map(|r| (r.head.name.clone(), 0)).collect();
    set.rules.extend(added.into_iter().map(Arc::new));
    set.rules.sort_by_key(|r| r.head.complexity);
    let puzzles = std::fs::read_to_string(data("cbg-000-first1000.txt")).unwrap();
    let mut solved = 0;
    for rec in input::parse_str("cbg-000-first1000.txt", &puzzles) {
        let p = rec.unwrap();
        let referee = Referee::new(&p.masks).unwrap();
        let run = engine::run(
            &set,
            State::from_masks(&p.masks, &p.givens),
            Limits::default(),
        );
        if let Err(e) = referee.check_run(&run) {
            panic!("puzzle {} (line {}): {e}", p.text, p.line);
        }
        assert_ne!(run.stop, StopReason::Contradiction, "{}", p.text);
        solved += usize::from(run.stop == StopReason::Solved);
        for s in &run.steps {
            if let Some(n) = counts.get_mut(s.rule_name()) {
                *n += 1;
            }
        }
    }
    (counts, solved)
}

// ---- 1. One meaning for set algebra ----------------------------------------

/// The 2-String Kite of the issue: `|R & C| == 0` meant "no common
/// candidate" to its author but was the intersection of two variables
/// (always empty for an rn and a cn). It is now an error that says how to
/// write what was meant.
#[test]
fn intersecting_variables_of_two_spaces_is_an_error_with_the_fix() {
    let src = rule(
        "    let R: rn
    where |R| == 2
    let C: cn in vars(cn, cands(digits(R)))
    where |C| == 2 and |R & C| == 0
    let a: cand in cands(R)
    let b: cand in cands(C)
    where blocks(a) == blocks(b)
    eliminate linked(cands(R) - a | cands(C) - b)",
    );
    assert_eq!(
        errors(&src),
        [(
            6,
            25,
            "`&` between rn and cn is always empty (no rn is a cn): for their common candidates write `cands(R) & cands(C)`".into()
        )]
    );
}

#[test]
fn mixing_elements_and_candidates_is_an_error_that_suggests_cands() {
    let with = |cond: &str| {
        error(&rule(&format!(
            "    let V: rc\n    let Q: block\n    where {cond}\n    eliminate V"
        )))
    };
    assert_eq!(
        with("|V & cands(Q)| == 1"),
        "type mismatch: `&` between rc and set of cand (a rc is not a candidate); for candidates write `cands(V) & cands(Q)`"
    );
    assert_eq!(
        with("|cands(Q) - V| == 1"),
        "type mismatch: `-` between set of cand and rc (a rc is not a candidate); for candidates write `cands(Q) - cands(V)`"
    );
    assert_eq!(
        with("|cands(Q) | V| == 1"),
        "type mismatch: `|` between set of cand and rc (a rc is not a candidate); for candidates write `cands(Q) | cands(V)`"
    );
    assert_eq!(
        with("cands(Q) == V"),
        "type mismatch: `==` between set of cand and rc"
    );
    assert_eq!(
        with("first(cands(Q)) in V"),
        "type mismatch: `in` between cand and rc (a rc is not a candidate); write `first(cands(Q)) in cands(V)`"
    );
    assert_eq!(
        with("|digits(V) & cells(Q)| == 1"),
        "type mismatch: `&` between set of digit and set of cell; for candidates write `cands(digits(V)) & cands(cells(Q))`"
    );
}

#[test]
fn set_algebra_between_disjoint_kinds_is_an_error() {
    let with = |cond: &str| {
        error(&rule(&format!(
            "    let H: row\n    let K: column\n    let U: 2 rn\n    let W: 2 cn\n    where {cond}\n    eliminate cands(H) & cands(K) & cands(U) & cands(W)"
        )))
    };
    assert_eq!(
        with("H == K"),
        "`==` between row and column is always false (no row is a column)"
    );
    assert_eq!(
        with("H < K"),
        "`<` between row and column compares unrelated numbers (no row is a column)"
    );
    assert_eq!(
        with("H in houses(column, cands(K))"),
        "`in` between row and set of column is always false (no row is a column)"
    );
    assert_eq!(
        with("|U - W| == 2"),
        "`-` between set of rn and set of cn removes nothing (no rn is a cn): for their candidates write `cands(U) - cands(W)`"
    );
    assert_eq!(
        with("W <= U"),
        "`<=` between set of cn and set of rn is always false (no cn is a rn): for their candidates write `cands(W) <= cands(U)`"
    );
    // Two single elements of one type: `&` is not their common candidates.
    assert_eq!(
        with("|H & first(rows(cands(K)))| == 0"),
        "`&` between two single elements (row and row) is a set of at most one of them, not their candidates: compare them with `==`, or write `cands(H) & cands(first(rows(cands(K))))`"
    );
}

/// What stays valid: algebra within one element type (rows and houses,
/// one space and `var`), unions across kinds, a set with one of its kind.
#[test]
fn set_algebra_within_one_element_type_is_valid() {
    compile(&rule(
        "    let H: row
    let K: column
    let B: block
    let A: cell in cells(B)
    let V: rn
    let x: digit in digits(A)
    let S = houses(house, cands(A)) & (H | K)
    where |S| >= 1 and H in houses(house, cands(B)) and V in vars(var, cands(A)) and x in digits(A) - x | digits(B)
    where peers(A) - A <= peers(A) and cells(B) - A != cells(B)
    eliminate cands(S) & cands(x) & cands(V)",
    ));
}

// ---- 2. Assertions place one candidate ------------------------------------

#[test]
fn assert_needs_one_candidate() {
    let with = |body: &str| error(&rule(body));
    assert_eq!(
        with("    let V: rc\n    where |V| <= 2\n    assert V"),
        "`assert` places one candidate, but `V` is a rc, which may hold several candidates: add `where |V| == 1`, or assert a `cand`"
    );
    // A guard inside `or` proves nothing.
    assert_eq!(
        with("    let V: bn\n    where |V| == 1 or |V| == 2\n    assert V"),
        "`assert` places one candidate, but `V` is a bn, which may hold several candidates: add `where |V| == 1`, or assert a `cand`"
    );
    assert_eq!(
        with(
            "    let H: row\n    let D: digit\n    where |cands(H) & cands(D)| == 1\n    assert cands(H) & cands(D)"
        ),
        "`assert` places one candidate, found a set of candidates: write `let Z = cands(H) & cands(D)`, `where |Z| == 1` and `assert Z`, or assert a `cand`"
    );
    // `|C|` counts cells: it is no guard for the candidates of C.
    assert_eq!(
        with("    let C: 2 cell\n    where |C| == 1\n    assert C"),
        "`assert` places one candidate, found set of cell: write `let Z = cands(C)`, `where |Z| == 1` and `assert Z`, or assert a `cand`"
    );
    assert_eq!(
        with("    let C: cell\n    assert first(cells(C))"),
        "`assert` places one candidate, found a cell, which may hold several candidates: write `let Z = first(cells(C))`, `where |Z| == 1` and `assert Z`, or assert a `cand`"
    );
}

#[test]
fn assert_of_a_cand_or_a_guarded_name_is_valid() {
    for body in [
        "    let V: rc\n    where |V| == 1\n    assert V",
        "    let V: rc\n    where 1 == count(V) and |V| >= 1\n    assert V",
        "    let V: cn\n    where |V| < 2\n    assert V",
        "    let H: row\n    let D: digit\n    let Z = cands(H) & cands(D)\n    where |Z| == 1\n    assert Z",
        "    let V: bn\n    assert first(V)",
        "    let Z: cand\n    assert Z",
    ] {
        compile(&rule(body));
    }
    // The shipped singles are written this way.
    // (and five for other types' houses: diagonals, windows, …).
    let singles = compile_source("singles.rules", &shipped("singles.rules")).unwrap();
    assert_eq!(singles.iter().filter(|r| r.head.space.is_some()).count(), 5);
    assert_eq!(singles.iter().filter(|r| r.head.space.is_none()).count(), 4);
}

// ---- 3. Quantifiers and `grid` ---------------------------------------------

#[test]
fn quantifiers_decide_over_a_set() {
    let p = state(FSHT);
    let undecided = p.cands.len();
    // `grid` is every live candidate; `count(X in S: C)` counts members.
    let src = |cond: &str| {
        format!(
            "rule t {{\n complexity 1\n let D: digit\n where D == first(digits(grid)) and {cond}\n eliminate grid\n}}"
        )
    };
    let hit = |cond: &str| !source_matches(&src(cond), &p).is_empty();
    assert!(hit(&format!("|grid| == {undecided}")));
    // Live candidates of each undecided cell.
    let sizes: Vec<usize> = (0..81)
        .map(|c| (0..9).filter(|&d| p.cands.contains(cand(c, d))).count())
        .filter(|&n| n > 0)
        .collect();
    let count = |n: usize| sizes.iter().filter(|&&k| k == n).count();
    assert_eq!(
        (1..=9).map(count).collect::<Vec<_>>(),
        [4, 6, 19, 15, 4, 2, 1, 0, 0]
    );
    assert!(hit("count(C in cells(grid): |C| == 2) == 6"));
    assert!(!hit("count(C in cells(grid): |C| == 2) == 5"));
    assert!(hit("count(C in cells(grid): |C| >= 4) == 22"));
    assert!(hit("all(C in cells(grid): |C| >= 1)"));
    assert!(!hit("all(C in cells(grid): |C| >= 2)"));
    assert!(hit("any(C in cells(grid): |C| == 7)"));
    assert!(!hit("any(C in cells(grid): |C| == 8)"));
    assert!(hit("none(C in cells(grid): |C| == 8)"));
    assert!(!hit("none(C in cells(grid): |C| == 1)"));
    // Over an empty set: all and none hold, any does not, count is 0.
    let empty = "cells(grid) - cells(grid)";
    assert!(hit(&format!("all(C in {empty}: |C| == 7)")));
    assert!(hit(&format!("none(C in {empty}: |C| >= 0)")));
    assert!(!hit(&format!("any(C in {empty}: |C| >= 0)")));
    assert!(hit(&format!("count(C in {empty}: |C| >= 0) == 0")));
    // Nested, with the outer generator's value inside.
    assert!(hit(
        "all(H in houses(row, grid): any(C in cells(H): D in digits(C)) or not D in digits(H))"
    ));
}

#[test]
fn quantifier_errors() {
    let with = |cond: &str| {
        errors(&rule(&format!(
            "    let V: rc\n    where {cond}\n    eliminate V"
        )))
        .into_iter()
        .map(|e| e.2)
        .collect::<Vec<_>>()
    };
    assert_eq!(
        with("all(C in cells(V): |V| == 2)"),
        ["unused variable `C`"]
    );
    assert_eq!(
        with("all(C in 3: |C| == 2)"),
        ["`all` ranges over a set, found integer"]
    );
    assert_eq!(
        with("any(C in cell: |C| == 2)"),
        [
            "`any` ranges over a set, found type name `cell` (for every live cell, write `cells(grid)`)"
        ]
    );
    assert_eq!(
        with("none(V in cells(V): |V| == 2)"),
        ["`V` is already defined"]
    );
    assert_eq!(
        with("all(C in cells(V): C)"),
        ["expected a condition, found cell"]
    );
    assert_eq!(
        with("count(C in cells(V): |C| == 2)"),
        ["expected a condition, found integer"]
    );
    assert_eq!(
        with("all(cells(V)) and |V| == 2"),
        ["`all` is a quantifier: write `all(X in S: condition)`"]
    );
    assert_eq!(
        with("count(C in cells(V)) == 1"),
        [
            "cannot count a condition: to count the members of a set that satisfy a condition, write `count(X in S: condition)`"
        ]
    );
    // `grid` and the quantifier words are reserved.
    assert_eq!(
        errors("rule t {\n complexity 1\n let grid: rc\n let all = grid\n eliminate cands(grid) | cands(all)\n}")
            .into_iter()
            .map(|e| e.2)
            .collect::<Vec<_>>(),
        ["`grid` is a reserved name", "`all` is a reserved name"]
    );
}

/// `grid` depends on the state: it is not a constant.
#[test]
fn grid_is_not_a_constant() {
    assert_eq!(
        error("rule t {\n complexity |grid|\n let V: rc\n where |V| == 1\n assert V\n}"),
        "expected a constant integer for `complexity`"
    );
}

/// BUG+1 ("every undecided cell but one is bivalue"), written with `all`
/// and `grid`, makes only true placements over 1,000 cbg-000 puzzles.
#[test]
fn bug_plus_1_is_sound_on_a_cbg_sample() {
    let (counts, solved) = referee_run("rules/bug-plus-1.rules");
    assert_eq!(counts["bug-plus-1"], 7);
    assert_eq!(solved, 652);
}

/// Skyscraper and 2-String Kite written as the language now requires
/// (`cands(R) & cands(C)`) make only true eliminations over 1,000
/// cbg-000 puzzles.
#[test]
fn kite_and_skyscraper_are_sound_on_a_cbg_sample() {
    let (counts, solved) = referee_run("rules/kite-skyscraper.rules");
    assert_eq!(counts["2-string-kite"], 336);
    assert_eq!(counts["skyscraper-in-rows"], 107);
    assert_eq!(counts["skyscraper-in-columns"], 63);
    assert_eq!(solved, 647);
}

/// The referee run above can fail: a kite whose two ends need not see
/// each other makes a false elimination.
#[test]
#[should_panic(expected = "unsound step: wrong-kite")]
fn a_wrong_rule_is_caught_by_the_referee_run() {
    referee_run("rules/wrong-kite.rules");
}

// ---- 4. Head clauses and families -----------------------------------------

#[test]
fn complexity_and_level_are_constants_of_zero_or_more() {
    let head = |h: &str| {
        errors(&format!(
            "rule t-{{N}} for N in 1..=2 {{\n{h}\n let V: rc\n where |V| == 1\n assert V\n}}"
        ))
        .into_iter()
        .map(|e| e.2)
        .collect::<Vec<_>>()
    };
    assert_eq!(
        head(" complexity 2 - 5 * N\n level 1"),
        [
            "`complexity` must be 0 or more, found -3 (for N = 1)",
            "`complexity` must be 0 or more, found -8 (for N = 2)"
        ]
    );
    assert_eq!(
        head(" complexity 1\n level 1 - N"),
        ["`level` must be 0 or more, found -1 (for N = 2)"]
    );
    assert_eq!(
        head(" complexity 1\n level 922337203685477581"),
        ["level 922337203685477581 is too large"]
    );
    assert_eq!(
        head(" complexity 1\n level 922337203685477580.8"),
        ["level 922337203685477580.8 is too large"]
    );
    assert_eq!(
        head(" complexity 9223372036854775807 * 2"),
        ["integer overflow: `9223372036854775807 * 2` does not fit in 64 bits"]
    );
    assert_eq!(
        head(" complexity 1\n level 2\n rating \"x\"\n level 3\n rating \"y\"\n complexity 2"),
        [
            "`level` given twice",
            "`rating` given twice",
            "`complexity` given twice"
        ]
    );
}

/// An unknown name in `complexity` is one error, not also "missing
/// complexity".
#[test]
fn an_unknown_name_in_complexity_is_one_error() {
    assert_eq!(
        errors("rule t {\n complexity V\n let V: rc\n where |V| == 1\n assert V\n}"),
        [(2, 13, "unknown name `V`".to_string())]
    );
}

#[test]
fn rating_holes_must_be_family_parameters() {
    assert_eq!(
        errors(
            "rule t-{N} for N in 1..=2 {\n complexity 1\n rating \"A{Q}{N}\"\n let V: rc\n where |V| == 1\n assert V\n}"
        ),
        [(
            3,
            11,
            "`{Q}` in the rating is not a family parameter (only the rule's name may take a value bound by its match)".to_string()
        )]
    );
    // A hole that is a parameter is substituted.
    let rules = compile(
        "rule t-{N} for N in 1..=2 {\n complexity 1\n rating \"A{N}\"\n let V: rc\n where |V| == 1\n assert V\n}",
    );
    assert_eq!(rules[1].head.label.as_deref(), Some("A2"));
}

#[test]
fn family_sizes_and_integers_out_of_range_are_clear_errors() {
    // 2^63 values: counted exactly (it used to overflow to a negative count).
    assert_eq!(
        errors(
            "rule t-{N} for N in 0..=9223372036854775807 {\n complexity 1\n let V: rc\n where |V| == 1\n assert V\n}"
        ),
        [(
            1,
            16,
            "unbounded family: 9223372036854775808 values (at most 256)".to_string()
        )]
    );
    // 2^64 does not fit an integer: one error at the number.
    assert_eq!(
        errors(
            "rule t-{N} for N in 1..=18446744073709551616 {\n complexity 1\n let V: rc\n where |V| == 1\n assert V\n}"
        ),
        [(
            1,
            25,
            "number too large: `18446744073709551616` (at most 9223372036854775807)".to_string()
        )]
    );
    assert_eq!(
        error(&rule(
            "    let C: 99999999999999999999 cell\n    eliminate C"
        )),
        "number too large: `99999999999999999999` (at most 9223372036854775807)"
    );
}

#[test]
fn family_parameters_are_not_reserved_words_and_name_each_rule() {
    assert_eq!(
        error(
            "rule t-{cell} for cell in [1, 2] {\n complexity 1\n let V: rc\n where |V| == 1\n assert V\n}"
        ),
        "`cell` is a reserved name and cannot be a family parameter"
    );
    assert_eq!(
        error(
            "rule t for N in 1..=3, (K, W) in [(row, a), (column, b)] {\n complexity N\n let H: K\n eliminate cands(H) & cands(first(digits(H)))\n show \"{W}\"\n}"
        ),
        "several rules of the family are named `t`: put `{K}` or `{W}` in the name"
    );
    // A name bound in the rule may not shadow a parameter.
    let es: Vec<String> = errors(
        "rule t-{N} for N in 1..=2 {\n complexity N\n let V: rc\n where |V| == 1 and all(N in cells(V): N == N)\n let N = V\n assert V\n}",
    )
    .into_iter()
    .map(|e| e.2)
    .collect();
    assert_eq!(
        es,
        [
            "`N` is a family parameter",
            "`N` is a family parameter",
            "unused variable `N`"
        ]
    );
}

// ---- 5. Siblings ------------------------------------------------------------

/// `first` and `last` of an empty set: the rule does not match there (it
/// used to yield index usize::MAX: `cands(first(S))` panicked, and two
/// such values compared equal).
#[test]
fn first_and_last_of_an_empty_set_make_no_match() {
    let p = state(FSHT);
    let count = |body: &str| source_matches(&rule(body), &p).len();
    let none = "digits(C) - digits(C)";
    assert_eq!(
        count(&format!(
            "    let C: cell\n    let x = first({none})\n    eliminate cands(x)"
        )),
        0
    );
    assert_eq!(
        count(&format!(
            "    let C: cell\n    eliminate cands(C) & cands(last({none}))"
        )),
        0
    );
    assert_eq!(
        count(&format!(
            "    let C: cell\n    where first({none}) == last({none})\n    eliminate C"
        )),
        0
    );
    assert_eq!(
        count(&format!(
            "    let C: cell\n    where not first({none}) in digits(C)\n    eliminate C"
        )),
        0
    );
    assert_eq!(
        count(
            "    let A: cell\n    let C: cell in peers(first(cells(digits(A) - digits(A))))\n    eliminate C"
        ),
        0
    );
    assert_eq!(
        count(
            "    let C: cell\n    where any(D in digits(C): first(cells(D) - cells(D)) == C)\n    eliminate C"
        ),
        0
    );
    // In a show template too: a match is only found where it can be shown.
    assert_eq!(
        count(&format!(
            "    let C: cell\n    eliminate C\n    show \"${{C}} ${{first({none})}}\""
        )),
        0
    );
    // Defined: one match per undecided cell, shown.
    let undecided = (0..81)
        .filter(|&c| (0..9).any(|d| p.cands.contains(cand(c, d))))
        .count();
    assert_eq!(undecided, 51);
    assert_eq!(
        count("    let C: cell\n    eliminate cands(C) & cands(first(digits(C)))"),
        51
    );
    let shown = source_matches(
        &rule(
            "    let C: cell\n    eliminate C\n    show \"${C} ${first(digits(C))}-${last(digits(C))}\"",
        ),
        &p,
    );
    assert_eq!(shown.len(), 51);
    assert_eq!(shown[0], "r1c1 n4-n7 ==> n4r1c1 n5r1c1 n6r1c1 n7r1c1");
}

#[test]
fn comparisons_of_a_set_with_one_element_say_what_to_write() {
    let with = |cond: &str| {
        error(&rule(&format!(
            "    let C: cell\n    let x: digit\n    where {cond}\n    eliminate cands(C) & cands(x)"
        )))
    };
    assert_eq!(
        with("digits(C) <= x"),
        "type mismatch: `<=` between set of digit and digit; for membership write `x in digits(C)`"
    );
    assert_eq!(
        with("x == digits(C)"),
        "type mismatch: `==` between digit and set of digit; for membership write `x in digits(C)`"
    );
    assert_eq!(
        with("digits(C) in digits(C)"),
        "type mismatch: `in` between set of digit and set of digit; `in` tests one element: for inclusion write `digits(C) <= digits(C)`"
    );
    assert_eq!(
        with("digits(C) < digits(C)"),
        "type mismatch: `<` between set of digit and set of digit; for inclusion write `<=` or `>=`"
    );
}

#[test]
fn generator_domains_of_the_wrong_kind_are_errors() {
    assert_eq!(
        error(&rule(
            "    let A: cell\n    let C: 2 cell in A\n    eliminate cands(C)"
        )),
        "a set of size 2 cannot be taken from a single cell: the rule never matches"
    );
    assert_eq!(
        error(&rule("    let H: house in row\n    eliminate cands(H)")),
        "expected a set of house, found type name `row` (every live row is the default domain: write `let X: row`)"
    );
    assert_eq!(
        error(&rule("    let H: house in 3\n    eliminate cands(H)")),
        "expected a set of house, found integer"
    );
    // A domain of another element type is projected: the cells of a row.
    compile(&rule(
        "    let H: row\n    let C: 2 cell in H\n    eliminate cands(C)",
    ));
}

/// A generator's type must name a type; a wrong one is reported once and
/// its name is not then "unknown" everywhere it is used.
#[test]
fn a_generator_type_must_name_a_type() {
    let es: Vec<String> = errors(
        "rule a-{N} for N in 1..=2 {\n complexity 1\n let X: N\n let Y: frob\n where |X| == 2 and |Y| == 1 and all(C in zork: C in cells(X))\n eliminate X\n}",
    )
    .into_iter()
    .map(|e| e.2)
    .collect();
    assert_eq!(
        es,
        [
            "family parameter `N` is an integer, not a type",
            "unknown type `frob`, expected one of digit, row, column, block, house, cell, cand, var, rc, rn, cn, bn",
            "unknown name `zork`"
        ]
    );
}

// ---- No panic at run time ---------------------------------------------------

use proptest::prelude::*;

/// Random well-typed candidate sets over the bound names of a fixed rule
/// skeleton (so that most of them compile and run).
fn cand_set() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("grid".to_string()),
        Just("cands(C)".to_string()),
        Just("cands(x)".to_string()),
        Just("cands(V)".to_string()),
        Just("cands(Z)".to_string()),
        Just("cands(H)".to_string()),
    ];
    leaf.prop_recursive(4, 32, 2, |inner| {
        prop_oneof![
            (
                prop_oneof![
                    Just("cells"),
                    Just("digits"),
                    Just("rows"),
                    Just("first"),
                    Just("last"),
                    Just("linked")
                ],
                inner.clone()
            )
                .prop_map(|(f, a)| format!("cands({f}({a}))")),
            inner
                .clone()
                .prop_map(|a| format!("cands(peers(cells({a})))")),
            inner.clone().prop_map(|a| format!("cands(vars(rn, {a}))")),
            (
                prop_oneof![Just("first"), Just("last")],
                prop_oneof![Just("cells"), Just("digits"), Just("rows")],
                inner.clone()
            )
                .prop_map(|(f, g, a)| format!("cands({f}({g}({a})))")),
            inner
                .clone()
                .prop_map(|a| format!("cands(peers(first(cells({a}))))")),
            (
                prop_oneof![Just("&"), Just("|"), Just("-")],
                inner.clone(),
                inner
            )
                .prop_map(|(op, a, b)| format!("({a} {op} {b})")),
        ]
    })
}

/// Random conditions over candidate sets.
fn condition() -> impl Strategy<Value = String> {
    let s = cand_set;
    let leaf = prop_oneof![
        (s(), 0..4).prop_map(|(a, k)| format!("|{a}| == {k}")),
        (s(), s()).prop_map(|(a, b)| format!("{a} <= {b}")),
        (s(), s()).prop_map(|(a, b)| format!("{a} != {b}")),
        (s(), s()).prop_map(|(a, b)| format!("first({a}) in {b}")),
        (s(), s()).prop_map(|(a, b)| format!("last({a}) == first({b})")),
        (s(), s()).prop_map(|(a, b)| format!("all(Q in {a}: Q in {b})")),
        s().prop_map(|a| format!("any(Q in cells({a}): |Q| == 2)")),
        (s(), s())
            .prop_map(|(a, b)| format!("none(Q in digits({a}): first(cands(Q) & {b}) in {b})")),
        (s(), 0..3).prop_map(|(a, k)| format!("count(Q in rows({a}): |Q| > 5) > {k}")),
    ];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| format!("not ({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} and {b})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("({a} or {b})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Well-typed rules run and render without panicking, whatever their
    /// sets (empty ones under `first`, `last`, quantifiers, `peers`).
    #[test]
    fn every_rule_that_compiles_runs(cond in condition(), target in cand_set(), hole in cand_set()) {
        let src = format!(
            "rule t {{
    complexity 1
    let C: cell
    let x: digit in digits(C)
    let V: rn in vars(rn, cands(C) & cands(x))
    let Z = first(cands(C) & cands(x))
    let H = first(rows(C))
    where |C| + |x| + |V| + |Z| + |H| > 0 and {cond}
    eliminate {target}
    show \"${{{hole}}}\"
}}"
        );
        let rules = compile_source("fuzz.rules", &src)
            .unwrap_or_else(|e| panic!("{}", ruledoku::lang::Diagnostics(e)));
        let _ = matches_text(&*rules[0].searcher, &state(FSHT));
    }
}

/// `let X: T in A then B then C`: the elements of A first, then those of
/// B not taken yet, then C's; each part in increasing order. The cells of
/// r5c5's block, then its row, then its column, on an empty grid.
#[test]
fn then_orders_a_generator_s_domain() {
    // Every cell has every candidate, but r5c5 has two.
    let mut pm = "123456789".repeat(81);
    pm.replace_range(40 * 9..41 * 9, "12.......");
    let empty = state(&pm);
    let src = rule(
        "    let P: cell\n    where |P| == 2\n    let A: cell in cells(blocks(P)) - P then cells(rows(P)) - P then cells(columns(P)) - P\n    eliminate cands(A) & cands(first(digits(A)))\n    show \"${A}\"",
    );
    let got = source_matches(&src, &empty);
    let order: Vec<&str> = got.iter().map(|m| m.split(' ').next().unwrap()).collect();
    assert_eq!(
        order,
        [
            "r4c4", "r4c5", "r4c6", "r5c4", "r5c6", "r6c4", "r6c5", "r6c6", // block
            "r5c1", "r5c2", "r5c3", "r5c7", "r5c8", "r5c9", // row, less the block
            "r1c5", "r2c5", "r3c5", "r7c5", "r8c5", "r9c5", // column, less the block
        ]
    );
    // Without `then`, the union in increasing order.
    let plain = rule(
        "    let P: cell\n    where |P| == 2\n    let A: cell in peers(P)\n    eliminate cands(A) & cands(first(digits(A)))\n    show \"${A}\"",
    );
    assert_eq!(source_matches(&plain, &empty).len(), 20);
    assert_eq!(
        source_matches(&plain, &empty)[0].split(' ').next().unwrap(),
        "r1c5"
    );
}

/// `then` on a set generator, and a `then` part of the wrong type, are
/// errors at the part.
#[test]
fn then_is_checked() {
    let sized = rule(
        "    let P: cell\n    let A: 2 cell in cells(rows(P)) then cells(columns(P))\n    eliminate cands(A)",
    );
    assert_eq!(
        errors(&sized),
        [(
            4,
            42,
            "`then` orders the elements of a one-element generator; a set generator takes its subsets in increasing order".to_string()
        )]
    );
    let kind =
        rule("    let P: cell\n    let A: cell in peers(P) then row\n    eliminate cands(A)");
    let es = errors(&kind);
    assert_eq!(es.len(), 1, "{es:?}");
    assert_eq!((es[0].0, es[0].1), (4, 34), "{es:?}");
    assert!(
        es[0]
            .2
            .starts_with("expected a set of cell, found type name `row`"),
        "{es:?}"
    );
}

// ---- Names that take a value from the match ---------------------------------

/// Every match of `rule` on `state` as `NAME: conclusions`, the name the
/// step prints under (`Searcher::step_name`), in the search's order.
fn named_matches(rule: &Rule, state: &State) -> Vec<String> {
    let mut out = Vec::new();
    let mut cx = ruledoku::search::SearchCx::new(None);
    let _ = rule.searcher.search(&mut cx, state, &mut |f| {
        let name = (rule.searcher.step_name(&rule.head.name, &f.evidence))
            .unwrap_or_else(|| rule.head.name.clone());
        let zs: Vec<String> = f
            .conclusions
            .iter()
            .map(ruledoku::grid::geometry::cand_name)
            .collect();
        out.push(format!("{name}: {}", zs.join(" ")));
        std::ops::ControlFlow::Continue(())
    });
    out
}

/// `rule ns[{K}]` with `let K = …` is the family `for K in …` with `where
/// … == K`: its matches are named by their value and come in increasing
/// order of it (binding order among equals), as the family's instances
/// find them one after the other.
#[test]
fn a_name_hole_bound_by_the_match_orders_and_names_as_the_family_would() {
    let one = compile(
        "rule ns[{K}] {\n complexity 0\n let V: rc\n where |V| == 1\n \
         let K = 10 - number(first(digits(V)))\n assert V\n}",
    );
    let family = compile(
        "rule ns[{K}] for K in 1..=9 {\n complexity 0\n let V: rc\n where |V| == 1\n \
         where 10 - number(first(digits(V))) == K\n assert V\n}",
    );
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].head.name, "ns[{K}]");
    let st = state(FSHT);
    let got = named_matches(&one[0], &st);
    let want: Vec<String> = family.iter().flat_map(|r| named_matches(r, &st)).collect();
    assert!(got.len() > 3, "{got:?}");
    assert_eq!(got, want);
    // The first match is the smallest value's: what the engine applies.
    let board = ruledoku::grid::board::Board::new(&st);
    let mut cx = ruledoku::search::SearchCx::new(None);
    let f = one[0].searcher.first(&mut cx, &board).unwrap();
    let name = one[0].searcher.step_name(&one[0].head.name, &f.evidence);
    assert_eq!(Some(want[0].split(':').next().unwrap()), name.as_deref());
}

#[test]
fn a_name_hole_must_name_an_integer_the_rule_binds() {
    let body = " complexity 0\n let C: rc\n where |C| == 1\n assert C\n}";
    assert_eq!(
        errors(&format!("rule ns[{{K}}] {{\n{body}")),
        [(
            1,
            9,
            "`{K}` in the rule name is neither a family parameter nor a name the rule binds: \
             bind it (`let K = …`, an integer) or add it to the family (`for K in …`)"
                .to_string()
        )]
    );
    assert_eq!(
        errors(&format!("rule ns[{{C}}] {{\n{body}")),
        [(
            1,
            9,
            "`{C}` in the rule name must be an integer (the match's value printed in the \
             step's name), found a rc"
                .to_string()
        )]
    );
    // A quantifier's variable is bound in its quantifier only.
    assert_eq!(
        error(
            "rule ns[{x}] {\n complexity 0\n let C: rc\n where |C| == 1\n \
             where any(x in digits(C): number(x) == 1)\n assert C\n}"
        ),
        "`{x}` in the rule name is neither a family parameter nor a name the rule binds: \
         bind it (`let x = …`, an integer) or add it to the family (`for x in …`)"
    );
    // A chain's name and a rating label take family parameters only.
    assert_eq!(
        error(
            "chain w[{K}] {\n complexity 1\n length 2\n others z, t\n links previous\n \
             ends contradiction\n targets all\n}"
        ),
        "`{K}` in the rule name is not a family parameter (only a pattern rule's name may \
         take a value bound by its match)"
    );
    assert_eq!(
        error(
            "rule ns[{K}] {\n complexity 0\n rating \"NS{K}\"\n let C: rc\n \
             where |C| == 1\n let K = 1\n assert C\n}"
        ),
        "`{K}` in the rating is not a family parameter (only the rule's name may take a \
         value bound by its match)"
    );
}
