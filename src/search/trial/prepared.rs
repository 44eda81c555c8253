//! The branch runner of passes that `propagate with SET`: the linked set,
//! prepared for branches ([`Prepared`]: each rule in its count form when it
//! has one), run in a copy of the state after an assumption
//! ([`Prepared::run`]), to its fixpoint or for N rounds, until a CSP
//! variable has no candidate left.
//!
//! A branch needs only two answers: is it contradicted, and how many
//! literals did the set conclude on the way (the match's complexity). So a
//! branch builds no [`Found`] for a count plan, no evidence and no
//! implication graph; the reported match's chain is found again later by
//! running its branch once more with a trace (`set_pass::replay_branch`),
//! which gives the same literals in the same order. The branch's state is
//! a [`Board`] (per-variable counts kept up to date), and a count plan
//! ([`CountPlan`]) runs on its counters; any other rule runs through
//! [`Searcher::search`] on the branch's [`crate::grid::state::State`].
//!
//! Architecture Invariant: the order of matches is the plan's (variables
//! in index order) and the set's rules keep their order, so a branch
//! concludes exactly what the generic runner (the set's searchers applied
//! to a `State`) concludes; a test holds the two equal.

use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::Space;
use crate::grid::geometry::space_words;
use crate::search::implication::lit;
use crate::search::pattern::CountPlan;
use crate::search::{ConclusionKind, Found, SearchCx, Searcher};
use std::ops::ControlFlow;
use std::sync::Arc;

/// What one match in a branch concludes on: a count plan's variable (its
/// live candidates when the match is applied: a subset of those it had
/// when found, so applying them is applying those still live), or any
/// other match's candidates.
#[derive(Clone, Copy, Debug)]
pub enum Concluded {
    Var(ConclusionKind, u16),
    Cands(ConclusionKind, Bits),
}

/// One rule of a linked set, prepared for branches.
#[derive(Debug)]
enum Member {
    Count(CountPlan),
    Other(Arc<dyn Searcher>),
}

/// A linked rule set prepared for branches: each rule in its count form
/// when it has one.
#[derive(Debug)]
pub struct Prepared {
    members: Vec<Member>,
    /// When every member is a count plan asserting on variables with one
    /// live candidate: their spaces, in order (a round then reads its
    /// matches off a copy of the lanes' `ones`, with no list built).
    asserts_ones: Option<Vec<Space>>,
}

impl Prepared {
    pub fn new(set: &[Arc<dyn Searcher>]) -> Prepared {
        let members: Vec<Member> = set
            .iter()
            .map(|s| match CountPlan::of(&**s) {
                Some(c) => Member::Count(c),
                None => Member::Other(s.clone()),
            })
            .collect();
        let asserts_ones = members
            .iter()
            .map(|m| match m {
                Member::Count(c) if c.count == 1 && c.kind == ConclusionKind::Assert => {
                    Some(c.space)
                }
                _ => None,
            })
            .collect();
        Prepared {
            members,
            asserts_ones,
        }
    }

    /// Runs the set in branch `l` to its fixpoint (`rounds: None`: the first
    /// match of the first rule that has one, applied, again and again) or
    /// for N rounds (each applying every match found on the round's state,
    /// in order). Returns `Some(n)` when the branch ends with a CSP
    /// variable without a candidate, `n` being the number of literals the
    /// set concluded (candidates placed or eliminated); `None` otherwise.
    ///
    /// With a `limit`, only a contradiction reached with at most `limit`
    /// literals is wanted: the branch gives up (`None`) as soon as it has
    /// concluded more, or must conclude more to change (a round that
    /// concludes nothing ends the branch, so a contradiction not yet there
    /// costs one more literal at least).
    ///
    /// With a `trace`, each concluded literal is pushed on it, in order
    /// (the match's chain, when it is reported).
    pub fn run(
        &self,
        cx: &mut SearchCx,
        rounds: Option<usize>,
        l: &mut Board,
        found: &mut Vec<Concluded>,
        limit: Option<usize>,
        mut trace: Option<&mut Vec<u16>>,
    ) -> Option<usize> {
        let over = |n: usize| limit.is_some_and(|m| n > m);
        let mut round = 0;
        let mut applied = 0;
        loop {
            if l.has_empty_var() {
                return Some(applied);
            }
            if l.is_solved()
                || cx.interrupted()
                || rounds.is_some_and(|r| round >= r)
                || over(applied + 1)
            {
                return None;
            }
            round += 1;
            let all = rounds.is_some();
            if let Some(spaces) = &self.asserts_ones
                && trace.is_none()
                && rounds == Some(round)
            {
                // The last round, when no trace is wanted: its outcome only.
                let (empty, n) = l.last_round_of_ones(spaces);
                applied += n;
                return (empty && !over(applied)).then_some(applied);
            }
            if let Some(spaces) = &self.asserts_ones {
                // The round's matches: the variables with one candidate
                // when it starts, space by space, each in index order;
                // each asserts its candidate if one is still live.
                let ones = l.ones();
                let mut any = false;
                for &space in spaces {
                    for (w, mask) in space_words(space) {
                        let mut bits = ones.0[w] & mask;
                        while bits != 0 {
                            let v = 64 * w + bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            any = true;
                            if let Some(z) = l.first_live(v) {
                                l.assert(z);
                                applied += 1;
                                if let Some(t) = trace.as_deref_mut() {
                                    t.push(lit(z, true));
                                }
                            }
                            if over(applied) {
                                return None;
                            }
                            if !all {
                                break;
                            }
                        }
                        if any && !all {
                            break;
                        }
                    }
                    if any && !all {
                        break;
                    }
                }
                if !any {
                    return None;
                }
                continue;
            }
            found.clear();
            for m in &self.members {
                match m {
                    Member::Count(c) => {
                        let _ = c.each(l, |v| {
                            found.push(Concluded::Var(c.kind, v as u16));
                            if all {
                                ControlFlow::Continue(())
                            } else {
                                ControlFlow::Break(())
                            }
                        });
                    }
                    Member::Other(s) => {
                        let _ = s.search(cx, &l.state, &mut |f: Found| {
                            found.push(Concluded::Cands(f.kind, f.conclusions));
                            if all {
                                ControlFlow::Continue(())
                            } else {
                                ControlFlow::Break(())
                            }
                        });
                    }
                }
                if !all && !found.is_empty() {
                    break;
                }
            }
            if found.is_empty() {
                return None;
            }
            for m in found.iter() {
                let mut done = |l: &mut Board, kind: ConclusionKind, z: usize| {
                    // A candidate no longer live is neither eliminated nor
                    // asserted.
                    if l.conclude(kind, z) {
                        applied += 1;
                        if let Some(t) = trace.as_deref_mut() {
                            t.push(lit(z, kind == ConclusionKind::Assert));
                        }
                    }
                };
                match *m {
                    // An assert's variable had one live candidate: the
                    // first still live, if any, is asserted.
                    Concluded::Var(ConclusionKind::Assert, v) => {
                        if let Some(z) = l.first_live(usize::from(v)) {
                            done(l, ConclusionKind::Assert, z);
                        }
                    }
                    Concluded::Var(kind, v) => {
                        let (zs, n) = l.live_cands(usize::from(v));
                        for &z in &zs[..n] {
                            done(l, kind, usize::from(z));
                        }
                    }
                    Concluded::Cands(kind, zs) => {
                        for z in zs.iter() {
                            done(l, kind, z);
                        }
                    }
                }
                if over(applied) {
                    return None;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::*;
    use crate::grid::plane::PEERS81;
    use crate::grid::state::State;
    use crate::ruleset;

    /// The generic runner the branch runner must equal: the set's
    /// searchers on a [`State`], every match as a [`Found`].
    fn generic(
        set: &[Arc<dyn Searcher>],
        rounds: Option<usize>,
        branch: &mut State,
        trace: &mut Vec<u16>,
    ) -> bool {
        let mut cx = SearchCx::new(None);
        let mut round = 0;
        loop {
            if branch.has_empty_var() {
                return true;
            }
            if branch.is_solved() || rounds.is_some_and(|r| round >= r) {
                return false;
            }
            round += 1;
            let mut found: Vec<Found> = Vec::new();
            for s in set {
                let _ = s.search(&mut cx, branch, &mut |f| {
                    found.push(f);
                    if rounds.is_some() {
                        ControlFlow::Continue(())
                    } else {
                        ControlFlow::Break(())
                    }
                });
                if rounds.is_none() && !found.is_empty() {
                    break;
                }
            }
            if found.is_empty() {
                return false;
            }
            for f in &found {
                for z in f.conclusions.iter() {
                    let (done, on) = match f.kind {
                        ConclusionKind::Eliminate => (branch.eliminate(z), false),
                        ConclusionKind::Assert => {
                            let live = branch.cands.contains(z);
                            if live {
                                branch.assert(z);
                            }
                            (live, true)
                        }
                    };
                    if done {
                        trace.push(lit(z, on));
                    }
                }
            }
        }
    }

    /// Every branch (each candidate on and off) of states along the paths
    /// of a few cbg-000 puzzles: the branch runner concludes the same
    /// literals, in the same order, and ends in the same state as the
    /// generic runner, with singles for one round and to the fixpoint, and
    /// with the basic rules (count plans mixed with other plans).
    #[test]
    fn branches_equal_the_generic_runner() {
        let text = crate::test_data::CBG_FIRST1000;
        let singles = ruleset::load("singles").unwrap();
        let basic = ruleset::load("basic").unwrap();
        let filter = ruleset::load("filter-fast").unwrap();
        let searchers = |s: &crate::ruleset::RuleSet| -> Vec<Arc<dyn Searcher>> {
            s.rules.iter().map(|r| r.searcher.clone()).collect()
        };
        let (singles, basic) = (searchers(&singles), searchers(&basic));
        // (set, rounds, puzzles, candidates: every n-th)
        type Case<'a> = (&'a [Arc<dyn Searcher>], Option<usize>, usize, usize);
        let cases: [Case; 3] = [
            (&singles, Some(1), 20, 1),
            (&singles, None, 20, 1),
            (&basic, None, 3, 6),
        ];
        let (mut branches, mut contradictions) = (0, 0);
        for (set, rounds, puzzles, every) in cases {
            let prepared = Prepared::new(set);
            for line in text.lines().skip(1).take(puzzles) {
                let p = crate::input::parse_puzzle(&line[..81]).unwrap();
                let run = crate::engine::run(
                    &filter,
                    State::from_masks(&p.masks, &p.givens),
                    crate::engine::Limits::default(),
                );
                for step in run
                    .steps
                    .iter()
                    .filter(|s| s.grade.complexity >= 1000)
                    .take(3)
                {
                    let state = step.before;
                    let base = Board::new(&state);
                    for z in state.cands.iter().step_by(every) {
                        for on in [true, false] {
                            let (mut a, mut b) = (state, base);
                            if on {
                                a.assert(z);
                                b.assert(z);
                            } else {
                                a.eliminate(z);
                                b.eliminate(z);
                            }
                            let (mut ta, mut tb) = (Vec::new(), Vec::new());
                            let ca = generic(set, rounds, &mut a, &mut ta);
                            let mut cx = SearchCx::new(None);
                            let cb = prepared.run(
                                &mut cx,
                                rounds,
                                &mut b,
                                &mut Vec::new(),
                                None,
                                Some(&mut tb),
                            );
                            assert_eq!(ca, cb.is_some(), "{z} {on}");
                            assert_eq!(ta, tb, "{z} {on}");
                            assert_eq!(a, b.state);
                            if let Some(n) = cb {
                                assert_eq!(n, tb.len());
                                contradictions += 1;
                            }
                            branches += 1;
                        }
                    }
                }
            }
        }
        assert!(
            branches > 5000 && contradictions > 500,
            "{branches} {contradictions}"
        );
    }

    /// The candidates a round of count-1 asserts of `spaces` starts with
    /// on `l`, and whether two of them are linked (then the round's
    /// outcome depends on their order).
    fn round_is_linked(l: &Board, spaces: &[Space]) -> bool {
        let mut zs: Vec<usize> = Vec::new();
        for &sp in spaces {
            for v in var(sp, 0)..var(sp, 0) + 81 {
                if l.ones().contains(v)
                    && let Some(z) = l.first_live(v)
                    && !zs.contains(&z)
                {
                    zs.push(z);
                }
            }
        }
        zs.iter().enumerate().any(|(i, &y)| {
            zs[i + 1..].iter().any(|&z| {
                cand_cell(y) == cand_cell(z)
                    || (cand_digit(y) == cand_digit(z)
                        && PEERS81[cand_cell(y)] >> cand_cell(z) & 1 != 0)
            })
        })
    }

    /// A run without a trace (whose last round of singles is judged on
    /// the planes when no two of its candidates are linked, in turn
    /// otherwise) gives what the traced run gives, with and without a
    /// limit, for sets of singles of all or some spaces, in any order,
    /// for one round and two. Both kinds of last rounds occur: unlinked
    /// ones, with and without a contradiction, and linked ones (always a
    /// contradiction: the first of two linked candidates asserted leaves
    /// the other's variable empty).
    #[test]
    fn untraced_runs_equal_traced_runs() {
        let text = crate::test_data::CBG_FIRST1000;
        let singles = ruleset::load("singles").unwrap();
        let filter = ruleset::load("filter-fast").unwrap();
        let s: Vec<Arc<dyn Searcher>> = singles.rules.iter().map(|r| r.searcher.clone()).collect();
        type Set = Vec<Arc<dyn Searcher>>;
        let sets: [(Set, Option<usize>); 4] = [
            (s.clone(), Some(1)),
            (s.clone(), Some(2)),
            (vec![s[0].clone()], Some(1)),
            (vec![s[3].clone(), s[1].clone()], Some(1)),
        ];
        // (linked, contradicted) -> last rounds seen
        let mut seen = std::collections::BTreeMap::<(bool, bool), usize>::new();
        for (set, rounds) in &sets {
            let prepared = Prepared::new(set);
            let spaces = prepared.asserts_ones.clone().unwrap();
            for line in text.lines().skip(1).take(12) {
                let p = crate::input::parse_puzzle(&line[..81]).unwrap();
                let run = crate::engine::run(
                    &filter,
                    State::from_masks(&p.masks, &p.givens),
                    crate::engine::Limits::default(),
                );
                for step in run.steps.iter().filter(|s| s.grade.complexity >= 1000) {
                    let base = Board::new(&step.before);
                    for z in step.before.cands.iter() {
                        let mut b = base;
                        b.assert(z);
                        let linked = *rounds == Some(1)
                            && !b.has_empty_var()
                            && round_is_linked(&b, &spaces);
                        let mut cx = SearchCx::new(None);
                        let mut traced = |l: Board, limit| {
                            let mut l = l;
                            let mut t = Vec::new();
                            let n = prepared.run(
                                &mut cx,
                                *rounds,
                                &mut l,
                                &mut Vec::new(),
                                limit,
                                Some(&mut t),
                            );
                            if let Some(n) = n {
                                assert_eq!(n, t.len());
                            }
                            n
                        };
                        let want = traced(b, None);
                        let limits =
                            want.map_or(vec![0, 3], |n| vec![n.saturating_sub(1), n, n + 1]);
                        let with_limits: Vec<_> =
                            limits.iter().map(|&k| traced(b, Some(k))).collect();
                        let mut cx = SearchCx::new(None);
                        let mut untraced = |limit| {
                            let mut l = b;
                            prepared.run(&mut cx, *rounds, &mut l, &mut Vec::new(), limit, None)
                        };
                        assert_eq!(untraced(None), want, "{z}");
                        for (&k, &w) in limits.iter().zip(&with_limits) {
                            assert_eq!(untraced(Some(k)), w, "{z} {k}");
                            assert_eq!(w, want.filter(|&n| n <= k), "{z} {k}");
                        }
                        if *rounds == Some(1) && !b.has_empty_var() {
                            *seen.entry((linked, want.is_some())).or_default() += 1;
                        }
                    }
                }
            }
        }
        let count = |k| seen.get(&k).copied().unwrap_or(0);
        assert!(
            count((false, false)) > 1000
                && count((false, true)) > 50
                && count((true, true)) > 50
                && count((true, false)) == 0,
            "{seen:?}"
        );
    }

    /// Metcalf's loop written plainly with the generic runner: each live
    /// candidate in order, assumed on in the current state, one round of
    /// singles; a contradicted one is removed before the next is tried.
    /// Each sweep step of the fast filter's runs concludes exactly those
    /// candidates (in order), and every one agrees with the solution.
    #[test]
    fn a_sweep_step_is_metcalfs_loop() {
        let text = crate::test_data::CBG_FIRST1000;
        let singles = ruleset::load("singles").unwrap();
        let singles: Vec<Arc<dyn Searcher>> =
            singles.rules.iter().map(|r| r.searcher.clone()).collect();
        let filter = ruleset::load("filter-fast").unwrap();
        let (mut sweeps, mut refuted) = (0, 0);
        for line in text.lines().skip(1).take(12) {
            let p = crate::input::parse_puzzle(&line[..81]).unwrap();
            let crate::oracle::solver::Solutions::Unique(solution) =
                crate::oracle::solver::solve_candidates(&p.masks)
            else {
                panic!("{line}");
            };
            let run = crate::engine::run(
                &filter,
                State::from_masks(&p.masks, &p.givens),
                crate::engine::Limits::default(),
            );
            for step in run.steps.iter().filter(|s| s.grade.complexity >= 1000) {
                let mut current = step.before;
                let mut expect = Vec::new();
                for z in step.before.cands.iter() {
                    if !current.cands.contains(z) {
                        continue;
                    }
                    let mut branch = current;
                    branch.assert(z);
                    if generic(&singles, Some(1), &mut branch, &mut Vec::new()) {
                        expect.push(z);
                        current.eliminate(z);
                    }
                }
                let mut got = step.conclusions.clone();
                got.sort_unstable();
                assert_eq!(got, expect);
                assert_eq!(step.kind, ConclusionKind::Eliminate);
                for &z in &got {
                    assert_ne!(solution[cand_cell(z)], cand_digit(z) as u8 + 1);
                }
                sweeps += 1;
                refuted += got.len();
            }
        }
        assert!(sweeps >= 10 && refuted >= 200, "{sweeps} {refuted}");
    }
}
