//! Count plans: a plan that starts "one generator over a space's
//! variables, `|V| == K`" ([`count_head`]) reads the variables that pass
//! from each house's digit counts (the cells' digit masks) instead of
//! evaluating the filter per variable, with the same matches, order and
//! node counts; and a plan whose first match's variable is known runs from
//! there ([`Plan::search_counted_at`]).

use super::ir::{CmpOp, Elem, Instr, Op, Val};
use super::plan::Plan;
use super::run::Frame;
use crate::grid::geometry::*;
use crate::grid::state::{State, cell_masks};
use crate::search::{Found, SearchCx, Searcher};
use std::ops::ControlFlow;

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

/// For the `i`-th house of a space's variables (row, column or block `i`
/// for rn, cn, bn): the digits with at least one live place in it, and
/// those with exactly `k`, from the cells' digit masks.
fn house_digits(space: Space, i: usize, masks: &[u16; N_CELLS], k: usize) -> (u16, u16) {
    let h = match space {
        Space::Rn => i,
        Space::Cn => 9 + i,
        _ => 18 + i,
    };
    let cells = &HOUSE_CELLS[h];
    if k == 1 {
        // Bit-sliced: `one` has the digits seen once or more, `two` twice
        // or more.
        let (mut one, mut two) = (0u16, 0u16);
        for &c in cells {
            let m = masks[c];
            two |= one & m;
            one |= m;
        }
        return (one, one & !two);
    }
    let mut n = [0usize; 9];
    let mut live = 0u16;
    for &c in cells {
        live |= masks[c];
        let mut m = masks[c];
        while m != 0 {
            n[m.trailing_zeros() as usize] += 1;
            m &= m - 1;
        }
    }
    let exact = (0..9).filter(|&d| n[d] == k).fold(0u16, |a, d| a | 1 << d);
    (live, exact)
}

impl Plan {
    /// Runs a plan with a count head ([`count_head`]): the live variables
    /// of the space count as the generator's nodes (nine at a time); those
    /// with K live candidates, in index order, go on to the third
    /// instruction.
    pub(super) fn run_counted(
        &self,
        head: (usize, Space, usize),
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        let (slot, space, k) = head;
        let masks = cell_masks(&fr.state.cands);
        let base = var(space, 0);
        for i in 0..9 {
            // The space's variables 9i..9i+9: a cell's digits (rc), or a
            // house's digits.
            let (live, exact) = match space {
                Space::Rc => {
                    let mut live = 0u16;
                    let mut exact = 0u16;
                    for j in 0..9 {
                        let m = masks[9 * i + j];
                        if m != 0 {
                            live |= 1 << j;
                        }
                        if m.count_ones() as usize == k {
                            exact |= 1 << j;
                        }
                    }
                    (live, exact)
                }
                _ => house_digits(space, i, &masks, k),
            };
            // The generator's nodes are the live variables, counted up to
            // each match before it goes on (as one at a time would).
            let mut ticked = 0u16;
            let mut m = exact & live;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let upto = live & ((2u16 << j) - 1) & !ticked;
                ticked |= upto;
                if fr.cx.tick_n(upto.count_ones()) {
                    return ControlFlow::Break(());
                }
                fr.env[slot] = Val::Idx(base + 9 * i + j);
                self.run(2, fr)?;
            }
            if fr.cx.tick_n((live & !ticked).count_ones()) {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

impl Plan {
    /// The matches of a plan with a count head ([`count_head`]) whose
    /// generator binds variable `v`, a variable that passes the count
    /// filter: the plan from its third instruction, as
    /// [`Plan::run_counted`] goes on with each variable that passes (an
    /// engine that keeps the counts finds the variable itself).
    pub fn search_counted_at(
        &self,
        cx: &mut SearchCx,
        state: &State,
        v: usize,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some((slot, _, _)) = count_head(&self.instrs) else {
            return self.search(cx, state, f);
        };
        self.framed(cx, state, f, |plan, fr| {
            fr.env[slot] = Val::Idx(v);
            plan.run(2, fr)
        })
    }
}
