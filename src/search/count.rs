//! Count plans: pattern plans answered from the board's counts.
//!
//! A plan of the shape "one generator over the variables of a space, a
//! filter `|V| == K`, conclude on `V`'s live candidates" (`let V: rn;
//! where |V| == 1; assert V` is one) is recognised from its compiled
//! instructions when the plan is built ([`Strategy::of`]), as regex's meta
//! engine picks its strategy once per regex, not per search. The plan's
//! matches are then the variables of the space whose count on the
//! [`Board`] is K, in index order, and no instruction runs: the engine
//! asks the plan for its first match ([`CountPlan::first`]) and the branch
//! runner of trial rules for all of them ([`CountPlan::each`]).
//!
//! The first match read this way is the full search's: the same variable
//! (the first with K live candidates), the same conclusions (its live
//! candidates), the same bound values, and the same node count charged to
//! the [`SearchCx`]: the live variables of the space up to the match, or
//! all of them when there is none, which is what the full search's
//! generator visits (`Plan::run_counted`). So `--stats` runs this code and
//! reports what full searches count. A test compares both along the paths
//! of many puzzles. (A caller that reads only outcomes, a tally, reads no
//! statistics either: then no node is charged, and no bound value kept.)
//!
//! Architecture Invariant: a count plan is a *compiled shape* of rules,
//! not a technique: it is recognised from a plan's instructions whatever
//! the rule is called, and proved equal to the full plan by a test.

use super::pattern::{CmpOp, Elem, Instr, Op, ShowPart, Val};
use super::{ConclusionKind, Evidence, Found, SearchCx, Searcher, SearcherKind};
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::{Space, space_words, var};
use std::ops::ControlFlow;

/// How a pattern plan finds its first match on a board, chosen when the
/// plan is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Its instructions, run on the board's state.
    #[default]
    Full,
    /// Read off the board's counts.
    Count(CountPlan),
}

impl Strategy {
    /// The fastest strategy of a plan with these instructions, target,
    /// conclusion kind, show template and number of slots.
    pub fn of(
        instrs: &[Instr],
        target: &Op,
        conclusion: ConclusionKind,
        show: &[ShowPart],
        slots: usize,
    ) -> Strategy {
        CountPlan::recognise(instrs, target, conclusion, show, slots)
            .map_or(Strategy::Full, Strategy::Count)
    }
}

/// A pattern plan that is one generator over the live variables of a
/// space, filtered by the variable's number of live candidates, concluding
/// on the variable's candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountPlan {
    pub space: Space,
    /// The number of live candidates the filter asks for (1 or more).
    pub count: usize,
    pub kind: ConclusionKind,
    /// The generator's slot, and the plan's number of slots (a match's
    /// bound values).
    pub slot: usize,
    pub slots: usize,
}

/// A plan that starts "one generator over a space's variables, then the
/// filter `|V| == K`" (`let V: rn; where |V| == 1` is one): the variables
/// that pass are read from a table of counts instead of evaluating the
/// filter on each. Returns the generator's slot, the space and K (1 or
/// more).
pub fn count_head(instrs: &[Instr]) -> Option<(usize, Space, usize)> {
    let [
        Instr::Gen {
            slot,
            elem: Elem::Var(Some(space)),
            size: None,
            domain: None,
            ..
        },
        Instr::Filter(Op::Cmp(CmpOp::Eq, a, b)),
        ..,
    ] = instrs
    else {
        return None;
    };
    let of_slot = |x: &Op| {
        matches!(x, Op::Len(c) if matches!(&**c,
            Op::Cands(Elem::Var(_), v) if matches!(**v, Op::Slot(s) if s == *slot)))
    };
    let k = match (&**a, &**b) {
        (x, Op::Int(k)) | (Op::Int(k), x) if of_slot(x) => *k,
        _ => return None,
    };
    (k >= 1).then_some((*slot, *space, k as usize))
}

/// Is `op` the live candidates of the variable bound in `slot`?
fn is_cands_of_slot(op: &Op, slot: usize) -> bool {
    matches!(op, Op::Cands(Elem::Var(_), x) if matches!(**x, Op::Slot(s) if s == slot))
}

impl CountPlan {
    /// The count form of a plan, when it has that shape: a count head
    /// ([`count_head`]) and nothing else, concluding on the variable's
    /// live candidates (asserting only at count 1), with a show template
    /// that is always defined.
    fn recognise(
        instrs: &[Instr],
        target: &Op,
        conclusion: ConclusionKind,
        show: &[ShowPart],
        slots: usize,
    ) -> Option<CountPlan> {
        if instrs.len() != 2 {
            return None;
        }
        let (slot, space, count) = count_head(instrs)?;
        if !is_cands_of_slot(target, slot) {
            return None;
        }
        if conclusion == ConclusionKind::Assert && count != 1 {
            return None;
        }
        // A show template can only fail to be defined through `first` or
        // `last`; such a plan keeps the full search.
        let plain = show.iter().all(|p| match p {
            ShowPart::Lit(_) => true,
            ShowPart::Value(_, op) => !op.may_fail(),
            ShowPart::Within { ctx, x, .. } => !ctx.may_fail() && !x.may_fail(),
        });
        plain.then_some(CountPlan {
            space,
            count,
            kind: conclusion,
            slot,
            slots,
        })
    }

    /// The count form of a searcher: a pattern plan whose strategy is
    /// [`Strategy::Count`].
    pub fn of(s: &dyn Searcher) -> Option<CountPlan> {
        match s.kind() {
            SearcherKind::Pattern(plan) => match plan.strategy {
                Strategy::Count(c) => Some(c),
                Strategy::Full => None,
            },
            _ => None,
        }
    }

    /// The plan's first match on `board`, as the full search finds it on
    /// the board's state, with the same nodes charged to `cx`. With
    /// [`SearchCx::outcome_only`] (a caller that reads neither evidence
    /// nor statistics), its bound values are left out (its evidence holds
    /// none) and no node is charged.
    #[inline]
    pub fn first(&self, cx: &mut SearchCx, board: &Board) -> Option<Found> {
        let v = self.first_var(board);
        let stop = match cx.outcome_only {
            true => cx.interrupted(),
            false => cx.tick_n(board.live_vars_upto(v.unwrap_or(var(self.space, 80))) as u32),
        };
        if stop {
            return None;
        }
        let v = v?;
        let env = if cx.outcome_only {
            Vec::new()
        } else {
            let mut env = vec![Val::Int(0); self.slots];
            env[self.slot] = Val::Idx(v);
            env
        };
        let conclusions = match board.first_live(v) {
            Some(z) if self.count == 1 => Bits::single(z),
            _ => board.var_cands(v),
        };
        Some(Found {
            kind: self.kind,
            conclusions,
            grade: None,
            evidence: Evidence::Bindings(env),
        })
    }

    /// The first match's variable on `board`, in the plan's order.
    #[inline]
    pub fn first_var(&self, board: &Board) -> Option<usize> {
        let mut first = None;
        let _ = self.each(board, |v| {
            first = Some(v);
            ControlFlow::Break(())
        });
        first
    }

    /// Calls `f` with each match's variable (its live candidates are the
    /// match's conclusions) on `board`, in the plan's order (variables in
    /// index order), until it breaks.
    #[inline]
    pub fn each(
        &self,
        board: &Board,
        mut f: impl FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.count == 1 {
            let ones = board.ones();
            for (w, mask) in space_words(self.space) {
                let mut bits = ones.0[w] & mask;
                while bits != 0 {
                    f(64 * w + bits.trailing_zeros() as usize)?;
                    bits &= bits - 1;
                }
            }
            return ControlFlow::Continue(());
        }
        let base = var(self.space, 0);
        for v in base..base + 81 {
            if board.count(v) == self.count {
                f(v)?;
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Limits, Runner};
    use crate::grid::state::State;
    use crate::ruleset;

    #[test]
    fn the_singles_are_count_plans_and_subsets_are_not() {
        let set = ruleset::load("singles").unwrap();
        let forms: Vec<_> = set
            .rules
            .iter()
            .map(|r| CountPlan::of(&*r.searcher))
            .collect();
        let spaces = [Space::Rc, Space::Rn, Space::Cn, Space::Bn];
        assert_eq!(forms.len(), 4);
        for (f, sp) in forms.iter().zip(spaces) {
            assert_eq!(
                *f,
                Some(CountPlan {
                    space: sp,
                    count: 1,
                    kind: ConclusionKind::Assert,
                    slot: 0,
                    slots: 1,
                })
            );
        }
        let basic = ruleset::load("basic").unwrap();
        let n = basic
            .rules
            .iter()
            .filter(|r| CountPlan::of(&*r.searcher).is_some())
            .count();
        assert_eq!(n, 4);
    }

    /// On every state along the paths of cbg-000 puzzles (and those of
    /// states emptied of some candidates, where counts other than one
    /// match), each count plan of the shipped sets gives, on the board,
    /// the first match its full search gives on the state (conclusions
    /// and bound values), with the same nodes, and none when the full
    /// search has none. No count plan shares a prefix with another plan
    /// (its full search would then replay recorded bindings, whose nodes
    /// the board does not know).
    #[test]
    fn count_plans_find_what_full_searches_find() {
        let text = crate::test_data::CBG_FIRST1000;
        let mut plans = Vec::new();
        for name in ["sfin", "basic", "w", "se", "filter-fast", "filter-slow"] {
            let set = ruleset::load(name).unwrap();
            for r in &set.rules {
                if let (Some(c), Some(plan)) = (CountPlan::of(&*r.searcher), r.plan()) {
                    assert!(plan.prefixes.is_empty(), "{}", r.head.name);
                    plans.push((r.clone(), c));
                }
            }
        }
        // Count plans of other counts and of elimination, as a rule file
        // may write them.
        let src = "rule pairs-of-cells {\n complexity 5\n let V: rc\n where |V| == 2\n eliminate V\n show \"${V}\"\n}\nrule triples-in-columns {\n complexity 6\n let V: cn\n where 3 == |V|\n eliminate V\n}\n";
        for r in crate::lang::compile_source("counts.rules", src).unwrap() {
            assert!(CountPlan::of(&*r.searcher).is_some(), "{}", r.head.name);
            let c = CountPlan::of(&*r.searcher).unwrap();
            plans.push((std::sync::Arc::new(r), c));
        }
        let sfin = ruleset::load("sfin").unwrap();
        let (mut states, mut found) = (0, 0);
        for line in text.lines().skip(1).take(30) {
            let p = crate::input::parse_puzzle(&line[..81]).unwrap();
            let run = Runner::new(&sfin)
                .limits(Limits::default())
                .run(State::from_masks(&p.masks, &p.givens));
            let mut all: Vec<State> = run.steps.iter().map(|s| s.before).collect();
            // Thinned copies: every third candidate of some cells gone.
            for (i, s) in run.steps.iter().enumerate().step_by(7) {
                let mut t = s.before;
                for z in s.before.cands.iter().skip(i % 3).step_by(5) {
                    t.eliminate(z);
                }
                all.push(t);
            }
            for state in all {
                states += 1;
                let board = Board::new(&state);
                for (rule, c) in &plans {
                    let (mut full_cx, mut cx) = (SearchCx::new(None), SearchCx::new(None));
                    let mut full = None;
                    let _ = rule.searcher.search(&mut full_cx, &state, &mut |f| {
                        full = Some(f);
                        ControlFlow::Break(())
                    });
                    let got = c.first(&mut cx, &board);
                    let key = |f: &Found| (f.kind, f.conclusions, f.evidence.clone());
                    assert_eq!(got.as_ref().map(key), full.as_ref().map(key));
                    assert_eq!(cx.nodes, full_cx.nodes, "{}", rule.head.name);
                    // Through the searcher, without evidence (and without
                    // the nodes, which no outcome-only caller reads).
                    let mut cx = SearchCx::new(None);
                    cx.outcome_only = true;
                    let quick = rule.searcher.first(&mut cx, &board);
                    assert_eq!(
                        quick.map(|f| (f.kind, f.conclusions)),
                        full.as_ref().map(|f| (f.kind, f.conclusions))
                    );
                    assert_eq!(cx.nodes, 0);
                    found += usize::from(full.is_some());
                }
            }
        }
        assert!(states > 1000 && found > 3000, "{states} {found}");
    }
}
