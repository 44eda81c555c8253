//! The branch runner of trial rules that `propagate with SET`: the linked
//! set run in a copy of the state after an assumption, to its fixpoint or
//! for N rounds, until a CSP variable has no candidate left.
//!
//! A branch needs only two answers: is it contradicted, and how many
//! literals did the set conclude on the way (the match's complexity). So
//! a branch builds no [`super::Found`], no evidence and no implication
//! graph; the reported match's chain is found again later by replaying
//! its branch through the generic runner (`trial::run_branch`), which
//! gives the same literals in the same order.
//!
//! Speed comes from two generic devices, neither of which knows a
//! technique:
//!
//! - [`Lanes`]: the branch's state with, beside its candidates, the number
//!   of live candidates of each of the 324 CSP variables and the set of
//!   decided variables, kept up to date as candidates go. "Is some
//!   variable empty" is then a counter, and "the variables of a space with
//!   exactly K candidates" one look at 81 counters.
//! - [`CountPlan`]: a pattern plan of the shape "one variable generator
//!   over a space's live variables, a filter `|V| == K`, conclude on `V`"
//!   (`let V: rn; where |V| == 1; assert V` is one) is recognised from its
//!   compiled instructions and run on the counters. The plan's other
//!   forms (any rule of any other shape) run through
//!   [`Searcher::search`] on the branch's [`State`], so a set may mix both.
//!
//! The order of matches is the plan's (variables in index order), and the
//! set's rules keep their order, so a branch concludes exactly what the
//! generic runner concludes.

use super::pattern::{CmpOp, Elem, Instr, Op, Plan};
use super::{ConclusionKind, Found, SearchCx, Searcher};
use crate::grid::bits::{Bits, VarSet};
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::state::State;
use std::ops::ControlFlow;
use std::sync::Arc;

/// A pattern plan that is one generator over the live variables of a
/// space, filtered by the variable's number of live candidates, concluding
/// on the variable's candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountPlan {
    pub space: Space,
    /// The number of live candidates the filter asks for (1 or more).
    pub count: usize,
    pub kind: ConclusionKind,
}

impl CountPlan {
    /// The count form of a searcher, when it is a plan of that shape.
    pub fn of(s: &dyn Searcher) -> Option<CountPlan> {
        let plan = s.as_any().downcast_ref::<Plan>()?;
        let [
            Instr::Gen {
                slot,
                elem: Elem::Var(Some(space)),
                size: None,
                domain: None,
            },
            Instr::Filter(filter),
        ] = plan.instrs.as_slice()
        else {
            return None;
        };
        // `|V| == K` either way round: the count of V's live candidates.
        let Op::Cmp(CmpOp::Eq, a, b) = filter else {
            return None;
        };
        let count = match (&**a, &**b) {
            (x, Op::Int(k)) | (Op::Int(k), x) if counts_slot(x, *slot) => *k,
            _ => return None,
        };
        // The conclusion: V's live candidates.
        if !is_cands_of_slot(&plan.target, *slot) || count < 1 {
            return None;
        }
        if plan.conclusion == ConclusionKind::Assert && count != 1 {
            return None;
        }
        // A show template can only fail to be defined through `first` or
        // `last`; such a plan keeps the generic path.
        let plain = plan.show.iter().all(|p| match p {
            super::pattern::ShowPart::Lit(_) => true,
            super::pattern::ShowPart::Value(_, op) => !op.may_fail(),
            super::pattern::ShowPart::Within { ctx, x, .. } => !ctx.may_fail() && !x.may_fail(),
        });
        plain.then_some(CountPlan {
            space: *space,
            count: count as usize,
            kind: plan.conclusion,
        })
    }

    /// Calls `f` with each match's conclusions on `l`, in the plan's order
    /// (variables in index order), until it breaks.
    fn each(&self, l: &Lanes, mut f: impl FnMut(Bits) -> ControlFlow<()>) -> ControlFlow<()> {
        let base = var(self.space, 0);
        for v in base..base + 81 {
            if usize::from(l.count[v]) == self.count && !l.decided.contains(v) {
                f(l.state.var_cands(v))?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Is `op` the number of live candidates of the variable bound in `slot`?
fn counts_slot(op: &Op, slot: usize) -> bool {
    matches!(op, Op::Len(x) if is_cands_of_slot(x, slot))
}

/// Is `op` the live candidates of the variable bound in `slot`?
fn is_cands_of_slot(op: &Op, slot: usize) -> bool {
    matches!(op, Op::Cands(Elem::Var(_), x) if matches!(**x, Op::Slot(s) if s == slot))
}

/// A branch's state with per-variable counts of live candidates.
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    pub state: State,
    /// Live candidates of each CSP variable.
    count: [u8; N_VARS],
    /// Variables holding a value.
    decided: VarSet,
    /// Undecided variables without a live candidate.
    empty: u32,
}

impl Lanes {
    pub fn new(state: &State) -> Lanes {
        let mut l = Lanes {
            state: *state,
            count: [0; N_VARS],
            decided: VarSet::EMPTY,
            empty: 0,
        };
        for z in state.cands.iter() {
            for v in cand_vars(z) {
                l.count[v] += 1;
            }
        }
        for z in state.values.iter() {
            for v in cand_vars(z) {
                l.decided.insert(v);
            }
        }
        l.empty = (0..N_VARS)
            .filter(|&v| l.count[v] == 0 && !l.decided.contains(v))
            .count() as u32;
        l
    }

    /// Is some undecided variable without a candidate?
    #[inline]
    pub fn has_empty_var(&self) -> bool {
        self.empty > 0
    }

    #[inline]
    fn drop_cand(&mut self, y: usize) {
        self.state.cands.remove(y);
        for v in cand_vars(y) {
            self.count[v] -= 1;
            if self.count[v] == 0 && !self.decided.contains(v) {
                self.empty += 1;
            }
        }
    }

    /// Removes a live candidate; whether it was live.
    #[inline]
    pub fn eliminate(&mut self, z: usize) -> bool {
        let live = self.state.cands.contains(z);
        if live {
            self.drop_cand(z);
        }
        live
    }

    /// Decides live candidate `z`: its linked candidates go (as
    /// [`State::assert`]).
    pub fn assert(&mut self, z: usize) {
        for v in cand_vars(z) {
            if self.count[v] == 0 && !self.decided.contains(v) {
                self.empty -= 1;
            }
            self.decided.insert(v);
        }
        self.state.values.insert(z);
        self.drop_cand(z);
        for y in self.state.cands.and(links(z)).iter() {
            self.drop_cand(y);
        }
    }
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
}

impl Prepared {
    pub fn new(set: &[Arc<dyn Searcher>]) -> Prepared {
        let members = set
            .iter()
            .map(|s| match CountPlan::of(&**s) {
                Some(c) => Member::Count(c),
                None => Member::Other(s.clone()),
            })
            .collect();
        Prepared { members }
    }

    /// Runs the set in branch `l` to its fixpoint (`rounds: None`: the first
    /// match of the first rule that has one, applied, again and again) or
    /// for N rounds (each applying every match found on the round's state,
    /// in order). Returns `Some(n)` when the branch ends with a CSP
    /// variable without a candidate, `n` being the number of literals the
    /// set concluded (candidates placed or eliminated); `None` otherwise.
    pub fn run(
        &self,
        cx: &mut SearchCx,
        rounds: Option<usize>,
        l: &mut Lanes,
        found: &mut Vec<(ConclusionKind, Bits)>,
    ) -> Option<usize> {
        let mut round = 0;
        let mut applied = 0;
        loop {
            if l.has_empty_var() {
                return Some(applied);
            }
            if l.state.is_solved() || cx.interrupted() || rounds.is_some_and(|r| round >= r) {
                return None;
            }
            round += 1;
            found.clear();
            let all = rounds.is_some();
            for m in &self.members {
                match m {
                    Member::Count(c) => {
                        let _ = c.each(l, |b| {
                            found.push((c.kind, b));
                            if all {
                                ControlFlow::Continue(())
                            } else {
                                ControlFlow::Break(())
                            }
                        });
                    }
                    Member::Other(s) => {
                        let _ = s.search(cx, &l.state, &mut |f: Found| {
                            found.push((f.kind, f.conclusions));
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
            for (kind, zs) in found.iter() {
                for z in zs.iter() {
                    let done = match kind {
                        ConclusionKind::Eliminate => l.eliminate(z),
                        ConclusionKind::Assert => {
                            let live = l.state.cands.contains(z);
                            if live {
                                l.assert(z);
                            }
                            live
                        }
                    };
                    applied += usize::from(done);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
                    kind: ConclusionKind::Assert
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

    #[test]
    fn lanes_follow_the_state() {
        let mut s = State::empty_grid();
        let mut l = Lanes::new(&s);
        for z in [cand(0, 0), cand(1, 1), cand(12, 2)] {
            s.assert(z);
            l.assert(z);
        }
        for z in [cand(80, 3), cand(80, 4), cand(40, 0)] {
            s.eliminate(z);
            assert!(l.eliminate(z));
        }
        assert!(!l.eliminate(cand(40, 0)));
        assert_eq!(l.state, s);
        let fresh = Lanes::new(&s);
        assert_eq!(l.count, fresh.count);
        assert_eq!(l.decided, fresh.decided);
        assert!(!l.has_empty_var());
        for d in 0..9 {
            l.eliminate(cand(70, d));
        }
        assert!(l.has_empty_var());
        assert_eq!(Lanes::new(&l.state).empty, 1);
    }
}
