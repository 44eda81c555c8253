//! Shared prefixes of pattern plans (`search::prefix`): which rules of a
//! file share their first instructions, and that a plan searched with its
//! shared prefix finds exactly the matches, in the same order, that it
//! finds run whole.

mod common;

use common::matches::matches_in_full;
use common::shipped;
use ruledoku::engine::Runner;
use ruledoku::grid::state::State;
use ruledoku::input::parse_puzzle;
use ruledoku::lang::compile_source;
use ruledoku::rule::Rule;
use ruledoku::ruleset;
use ruledoku::search::pattern::{Instr, Plan};

fn uniqueness_rules() -> Vec<Rule> {
    compile_source("uniqueness.rules", &shipped("se/uniqueness.rules")).unwrap()
}

fn plan<'a>(rules: &'a [Rule], name: &str) -> &'a Plan {
    let r = rules.iter().find(|r| r.head.name == name).unwrap();
    r.plan().unwrap()
}

#[test]
fn unique_loop_rules_share_their_loop_search() {
    let rules = uniqueness_rules();
    let lens =
        |name: &str| -> Vec<usize> { plan(&rules, name).prefixes.iter().map(|p| p.len).collect() };
    let key = |name: &str, i: usize| plan(&rules, name).prefixes[i].key;
    // Every rule of types 1, 3 and 4, whatever its loops' length, shares
    // the walk and the check of the loop's houses (9 instructions): the
    // walk runs once per state for all of them.
    let walkers: Vec<&str> = (rules.iter())
        .map(|r| r.head.name.as_str())
        .filter(|n| {
            n.starts_with("se-unique-loop-")
                && ["-type-1", "-type-3-", "-type-4"]
                    .iter()
                    .any(|t| n.contains(t))
        })
        .collect();
    assert_eq!(walkers.len(), 4 + 30 + 10 + 8 + 4);
    for n in &walkers {
        assert_eq!(lens(n)[0], 9, "{n}");
        assert_eq!(key(n, 0), key("se-unique-loop-2-type-1", 0), "{n}");
    }
    // The rules of one length share the loop's length filter and its
    // extra cells too (11), so that they replay only the loops of their
    // length; types 3 and 4 also the two extra cells (12); the type-3
    // sets also their extra digits X (13), and the rules of one set and
    // size the filter on X (14; loops of ten cells or more: the house H
    // too, 15, one rule for its three kinds).
    assert_eq!(lens("se-unique-loop-2-type-1"), [9, 11]);
    assert_eq!(lens("se-unique-loop-2-type-4"), [9, 11, 12]);
    assert_eq!(
        lens("se-unique-loop-2-type-3-naked-pair-in-a-row"),
        [9, 11, 12, 13, 14]
    );
    assert_eq!(
        lens("se-unique-loop-2-type-3-hidden-pair-in-a-row"),
        [9, 11, 12, 13]
    );
    assert_eq!(
        lens("se-unique-loop-5-type-3-hidden-quad"),
        [9, 11, 12, 13, 15]
    );
    assert_eq!(
        key("se-unique-loop-5-type-4", 1),
        key("se-unique-loop-5-type-1", 1)
    );
    assert_eq!(
        key("se-unique-loop-3-type-3-naked-quad-in-a-block", 4),
        key("se-unique-loop-3-type-3-naked-quad-in-a-column", 4)
    );
    // Loops of another length share only the walk.
    assert_ne!(
        key("se-unique-loop-3-type-4", 1),
        key("se-unique-loop-2-type-4", 1)
    );
    // Type 2 (SE's walk with its miss) shares its own walk (9) among its
    // lengths, and the start cell and its digits (4) with the corrected
    // form.
    assert_eq!(lens("se-unique-loop-5-type-2"), [4, 9]);
    assert_eq!(
        key("se-unique-loop-5-type-2", 1),
        key("se-unique-loop-2-type-2", 1)
    );
    // Every rule of the file shares something.
    assert!(rules.iter().all(|r| !r.plan().unwrap().prefixes.is_empty()));
}

/// On the states of the se set's paths of puzzles rated 4.5 and 4.6 (a
/// unique rectangle or loop), every pattern rule of the set finds the same matches with
/// its shared prefixes as without them.
#[test]
fn shared_prefixes_change_no_match() {
    let set = ruleset::load("se").unwrap();
    let puzzles = [
        // cbg-000 puzzles rated 4.5 by SE 1.2.1 (unique rectangles), and
        // 4.6 (lines 1329 and 1583: loops of six).
        "..3..6..9456.8.1.3......4..2.7...3....5...271.....1..6.9.5....8......9......3..17",
        "......7.945........891......3..6.8.........429...45.3...5...2.86...3.5...1....37.",
        "1...5.........91.3..81.2..4...5.....6.43..9...7..24....4.8.5.......6..9..6...73.5",
        ".....6.89.5.7......9..1...423...8....75.6...1....2..5...9..5.1........76...9.2.3.",
    ];
    let mut states = 0;
    let mut found = 0;
    for p in puzzles {
        let p = parse_puzzle(p).unwrap();
        let run = Runner::new(&set).run(State::from_masks(&p.masks, &p.givens));
        for step in &run.steps {
            states += 1;
            for rule in &set.rules {
                let Some(plan) = rule.plan() else {
                    continue;
                };
                if plan.prefixes.is_empty() {
                    continue;
                }
                let mut whole = plan.clone();
                whole.prefixes.clear();
                let shared = matches_in_full(plan, &step.before);
                assert_eq!(
                    shared,
                    matches_in_full(&whole, &step.before),
                    "{}",
                    rule.head.name
                );
                if rule.head.name.starts_with("se-unique-loop") {
                    found += shared.len();
                }
            }
        }
    }
    // Matches of unique loops were compared, not only empty searches.
    assert!(
        states > 100 && found >= 4,
        "{states} states, {found} matches"
    );
}

/// A shared prefix's bindings are kept by the slots its generators and
/// definitions bind (the first `width`), not by all of the plan's.
#[test]
fn prefixes_keep_only_their_own_slots() {
    let rules = uniqueness_rules();
    let row = plan(&rules, "se-unique-loop-2-type-3-naked-pair-in-a-row");
    let widths: Vec<usize> = row.prefixes.iter().map(|p| p.width).collect();
    for p in &row.prefixes {
        let bound = row.instrs[..p.len].iter().flat_map(Instr::writes);
        assert_eq!(bound.max().map(|s| s + 1), Some(p.width));
    }
    // The walk and the check of its houses (9 instructions) bind up to
    // slot 10 (the walk's loop, even cells and cell looked at, and the
    // quantifiers' variables before it), the loop's length filter and
    // extra cells (11) slot 11, the filter on them (12) nothing more, the
    // extra digits X (13) slot 12, the filter on X (14) nothing more; the
    // plan has 16 slots in all.
    assert_eq!(widths, [11, 12, 12, 13, 13]);
    assert_eq!(row.slots, 16);
}

/// Two rules that share a walk (`let Q, A: loop …`) and differ after it:
/// their shared prefix ends after the walk, which writes four slots (the
/// loop, its even cells, the cell looked at, what it gathered). Every one
/// is recorded and replayed: each match holds the same bindings with the
/// prefix as without it, on every state of the `se` set's paths of the
/// four puzzles whose type-2 loops SE's walk misses.
#[test]
fn a_shared_walk_replays_every_slot_it_writes() {
    let src = r#"
rule walk-a {
    complexity 1
    let S: cell
    where |S| == 2
    let D = digits(S)
    let PD = cells(cands(first(D))) & cells(cands(last(D)))
    let Q, A: loop from S through PD by block then row then column length 6
        next z gather X = digits(z) - D
        when |z| <= 3 and (|z| == 2 or |X| == 1 or |select(x in Q: |x| > 2)| < 2)
    where all(H in houses(house, cands(Q)): |cells(H) & Q| == 2 and |cells(H) & A| == 1)
    eliminate cands(peers(Q - A)) & cands(D) - cands(Q)
    show "${Q} ${A}"
}
rule walk-b {
    complexity 2
    let S: cell
    where |S| == 2
    let D = digits(S)
    let PD = cells(cands(first(D))) & cells(cands(last(D)))
    let Q, A: loop from S through PD by block then row then column length 6
        next z gather X = digits(z) - D
        when |z| <= 3 and (|z| == 2 or |X| == 1 or |select(x in Q: |x| > 2)| < 2)
    let E = select(x in Q: |x| > 2)
    where |E| >= 1
    eliminate cands(peers(E)) & cands(digits(E) - D)
    show "${Q} ${A} ${E}"
}
"#;
    let rules = compile_source("walks.rules", src).unwrap();
    // The prefix holds the walk: it writes slots up to the width.
    let a = plan(&rules, "walk-a");
    let p = a.prefixes.last().unwrap();
    let walk = a.instrs[..p.len]
        .iter()
        .find_map(|i| match i {
            Instr::Walk(w) => Some(w),
            _ => None,
        })
        .expect("the shared prefix ends after the walk");
    assert_eq!(walk.slots().count(), 4);
    assert!(walk.slots().all(|s| s < p.width));
    assert_eq!(plan(&rules, "walk-b").prefixes.last().unwrap().key, p.key);
    let set = ruleset::load("se").unwrap();
    let text = std::fs::read_to_string(common::data("se-cb-type-2-miss.txt")).unwrap();
    let (mut states, mut found) = (0, 0);
    for l in text.lines() {
        let p = parse_puzzle(l.split_whitespace().nth(1).unwrap()).unwrap();
        let run = Runner::new(&set).run(State::from_masks(&p.masks, &p.givens));
        for step in &run.steps {
            states += 1;
            for r in &rules {
                let plan = r.plan().unwrap();
                let mut whole = plan.clone();
                whole.prefixes.clear();
                let shared = matches_in_full(plan, &step.before);
                assert_eq!(
                    shared,
                    matches_in_full(&whole, &step.before),
                    "{}",
                    r.head.name
                );
                found += shared.len();
            }
        }
    }
    assert!(
        states > 100 && found > 0,
        "{states} states, {found} matches"
    );
}
