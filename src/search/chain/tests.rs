//! Targeted searches against whole searches, and the memory cap. (The
//! search itself is held equal to a brute-force enumeration of the
//! definitions by `tests/chain_completeness.rs`.)

use super::reference::old_search;
use super::target::Family;
use super::*;
use crate::engine::Runner;
use crate::ruleset;
use crate::search::ask;
use crate::test_data::CBG_FIRST1000;

/// The states before each step of the W paths of puzzles `lines` of the
/// sample, with the start states.
fn states(lines: std::ops::Range<usize>) -> Vec<State> {
    let set = ruleset::load("w").unwrap();
    let mut out = Vec::new();
    for line in CBG_FIRST1000.lines().skip(lines.start).take(lines.len()) {
        let givens: [u8; 81] =
            std::array::from_fn(|i| line.as_bytes()[i].saturating_sub(b'0').min(9));
        let run = Runner::new(&set).run(State::from_givens(&givens));
        out.extend(run.steps.iter().map(|s| s.before));
    }
    out
}

/// The chain rules of the built-in set `name` of length at most `max`.
fn chains(name: &str, max: usize) -> Vec<ChainSearch> {
    ruleset::load(name)
        .unwrap()
        .rules
        .iter()
        .filter_map(|r| match r.searcher.kind() {
            SearcherKind::Chain(c) if c.spec.length <= max => Some(c.clone()),
            _ => None,
        })
        .collect()
}

/// Every built-in chain family, up to length `max`.
fn every_family(max: usize) -> Vec<ChainSearch> {
    let mut all: Vec<ChainSearch> = Vec::new();
    for set in [
        "w", "b", "bc", "z", "tw", "gw", "gb", "gbc", "gz", "gtw", "typed", "lassos",
    ] {
        for c in chains(set, max) {
            if !all.iter().any(|a| a.spec == c.spec) {
                all.push(c);
            }
        }
    }
    all
}

fn whole(s: &ChainSearch, state: &State) -> (Vec<Found>, u64) {
    let mut cx = SearchCx::new(None);
    let mut out = Vec::new();
    let _ = s.search(&mut cx, state, &mut |f| {
        out.push(f);
        ControlFlow::Continue(())
    });
    (out, cx.nodes)
}

/// The conclusions among `wanted` of every match of `rules`' whole searches.
fn concluded(rules: &[&ChainSearch], state: &State, wanted: &Bits) -> Bits {
    let mut c = Bits::EMPTY;
    for s in rules {
        for f in whole(s, state).0 {
            c = c.or(&f.conclusions);
        }
    }
    c.and(wanted)
}

#[test]
fn a_family_searched_for_targets_concludes_what_its_rules_conclude() {
    family_as_rules(4, 4..6, 9);
}

#[test]
#[ignore = "longer chains on more states: run with --ignored in release"]
fn a_family_searched_for_targets_concludes_what_its_rules_conclude_on_more_states() {
    family_as_rules(6, 4..10, 3);
}

/// Long bivalue chains, where the searches for targets are bounded by the
/// distance to the target's links (`reach.rs`) and, for the chains of other
/// targets, by the candidates they must fit.
#[test]
fn long_bivalue_chain_families_searched_for_targets_conclude_what_their_rules_conclude() {
    families_as_rules(chains("bc", 9), 4..6, 7);
}

fn family_as_rules(max: usize, lines: std::ops::Range<usize>, step: usize) {
    families_as_rules(every_family(max), lines, step)
}

fn families_as_rules(rules: Vec<ChainSearch>, lines: std::ops::Range<usize>, step: usize) {
    let searchers: Vec<&dyn Searcher> = rules.iter().map(|r| r as &dyn Searcher).collect();
    let groups = ask::groups(&searchers);
    // One group per family of the sets above (spaces, extras, ends…).
    assert!(groups.len() < 40, "{}", groups.len());
    for (i, state) in states(lines).iter().enumerate().step_by(step) {
        // Every live candidate, and a sparse sample of them.
        let sparse = Bits::from_indices(state.cands.iter().step_by(7));
        for wanted in [state.cands, sparse] {
            let w = Targets {
                elim: wanted,
                assert: Bits::EMPTY,
            };
            for g in &groups {
                let ask::Group::Chains(fam) = g else {
                    unreachable!()
                };
                let members: Vec<&ChainSearch> = fam.ids().map(|i| &rules[i]).collect();
                let expected = concluded(&members, state, &wanted);
                let mut cx = SearchCx::new(None);
                let mut got = Bits::EMPTY;
                let _ = fam.search_for(&mut cx, state, &w, &mut |id, f| {
                    assert!(fam.ids().any(|m| m == id));
                    got = got.or(&f.conclusions);
                    ControlFlow::Continue(())
                });
                assert_eq!(
                    got.and(&wanted),
                    expected,
                    "state {i}, {:?}",
                    rules[fam.ids().next().unwrap()].spec
                );
            }
        }
    }
}

#[test]
fn the_first_match_for_targets_is_the_whole_searchs_first_that_meets_them() {
    let rules = every_family(4);
    for (i, state) in states(7..9).iter().enumerate().step_by(9) {
        for s in &rules {
            let (all, _) = whole(s, state);
            for y in state.cands.iter().step_by(11) {
                let wanted = Targets {
                    elim: Bits::single(y),
                    assert: Bits::EMPTY,
                };
                let want = all.iter().find(|f| wanted.meets(f));
                let got = Family::of(s).first_for(&mut SearchCx::new(None), state, &wanted);
                assert_eq!(
                    want.map(|f| &f.evidence),
                    got.as_ref().map(|f| &f.evidence),
                    "state {i}, {y}, {:?}",
                    s.spec
                );
            }
        }
    }
}

#[test]
fn a_search_over_the_memory_cap_stops_and_gives_its_bytes_back() {
    let s = chains("w", 12)
        .into_iter()
        .find(|c| c.spec.length == 12)
        .unwrap();
    let state = states(0..1)[0];
    let mut cx = SearchCx::new(None);
    cx.set_memory_limit(Some(64 << 10));
    let flow = s.search(&mut cx, &state, &mut |_| ControlFlow::Continue(()));
    assert!(flow.is_break());
    assert_eq!(cx.stop(), Some(crate::search::Stop::Memory));
    assert!(cx.resume());
    // Nothing is held once the search is over: the next one starts afresh.
    assert!(!cx.hold(0));
}

/// The targets of the matches of `s` at `state`: by the search, and by the
/// search as it was (one partial chain per sequence of right-linking
/// candidates, [`super::reference`]).
fn targets_new_and_old(s: &ChainSearch, state: &State) -> (Bits, Bits) {
    let target = |f: &Found| match &f.evidence {
        Evidence::Chain(c) => c.target,
        _ => unreachable!(),
    };
    let new = Bits::from_indices(whole(s, state).0.iter().map(target));
    let old = old_search(s, &mut SearchCx::new(None), state);
    (new, Bits::from_indices(old.iter().map(target)))
}

/// The search as it was lost whips: a partial chain kept for a sequence of
/// right-linking candidates forbade, as later left-linking candidates,
/// those it had used, which another copy had not. On the W path of cbg-000
/// line 3 (its 65 states, whips up to 4) it misses 83 (state, length,
/// target), among them the whip[2] `b9n5{r7c9 r8c7} - r6n5{c7 .} ==> r5c9
/// ≠ 5` at state 23 (the copy kept for `R1 = r8c7` used `L1 = r6c7`). The
/// search finds every target it found, and those.
#[test]
fn the_search_finds_whips_one_partial_chain_per_r_sequence_misses() {
    let rules: Vec<ChainSearch> = chains("w", 4);
    let mut missed = Vec::new();
    let states = states(2..3);
    assert_eq!(states.len(), 65);
    for (i, state) in states.iter().enumerate() {
        for s in &rules {
            let (new, old) = targets_new_and_old(s, state);
            assert!(old.minus(&new).is_empty(), "state {i}, {:?}", s.spec);
            for z in new.minus(&old).iter() {
                missed.push((i, s.spec.length, cand_name(z)));
            }
        }
    }
    assert!(
        missed.contains(&(23, 2, "n5r5c9".to_string())),
        "{missed:?}"
    );
    assert_eq!(missed.len(), 83, "{missed:?}");
}
