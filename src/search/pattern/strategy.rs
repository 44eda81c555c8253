//! The compiler's last pass: the strategy a plan's first match is found
//! by, chosen once when the plan is built (as regex's meta engine picks
//! its strategy once per regex, not per search).
//!
//! A plan of the shape "one generator over the variables of a space, a
//! filter `|V| == K`, conclude on `V`'s live candidates" (`let V: rn;
//! where |V| == 1; assert V` is one) is a [`CountPlan`]: its matches are
//! the variables of the space whose count on the board is K, in index
//! order, and no instruction needs to run (see [`super::count`], which
//! reads them off the board). Any other plan runs its instructions
//! ([`Strategy::Full`]).
//!
//! Architecture Invariant: a count plan is a *compiled shape* of rules,
//! not a technique: it is recognised from a plan's instructions whatever
//! the rule is called, and a test proves it equal to the full plan
//! (`count::tests::count_plans_find_what_full_searches_find`).

use super::ir::{CmpOp, Elem, Instr, Op, ShowPart};
use crate::grid::geometry::Space;
use crate::search::ConclusionKind;

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
    pub(super) fn recognise(
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
}
