//! The walk generator (`let Q, A: loop from S through P by … length N
//! [next z] [gather X = G] [when C]`, an [`Instr::Walk`](super::Instr)):
//! closed walks from a cell, house to house, found depth-first in the
//! order the clause states, each closed walk of N cells (N to M with
//! `length N to M`) a binding.
//!
//! From the current cell, the walk looks at the cells of its house of
//! each kind listed after `by`, in that order (not the kind of the step
//! that led to the cell), each house's cells in increasing order. The
//! start cell, met when the walk has N cells (N to M), closes a loop: Q is bound to
//! its cells, A to those at even places (the start is place 0), `next` to
//! the start and X to what was gathered, and the plan goes on (with
//! `once`, only the first time the walk closes a loop of these cells and
//! even cells: a loop is met in both directions, and again through
//! houses of other kinds where two of its cells share two houses). Any other
//! cell of P not on the walk yet, met while the walk has fewer than N (M)
//! cells, is looked at: `next` is bound to it, G (evaluated then) is added
//! to X, and the walk steps to it when C holds (Q and A then hold the walk
//! so far, without the cell). X belongs to the walk up to the current
//! cell: what a step gathers is kept by the later steps from the same
//! cell and by the walks that go on from them, not by the walks that
//! backtrack past the cell. So X holds G of every cell looked at on the way
//! from the start, siblings of the walk included: what Sudoku Explainer's
//! unique loops gather (its `exValues`), and why it misses some of them
//! (`rules/se/uniqueness.rules`).
//!
//! An undefined G (`first` of an empty set, …) gathers nothing and takes
//! no step; an undefined C takes no step.
//!
//! Every slot the walk writes (Q, A, `next`, X) is declared by the
//! instruction ([`super::Walk::slots`]), so that a shared prefix that
//! ends after a walk records and replays them all ([`super::prefix`]).

use super::eval::Env;
use super::ir::{Elem, Val, Walk};
use super::plan::Plan;
use super::run::Frame;
use super::typed::{TOp, TWalk};
use crate::grid::bits::Bits;
use crate::grid::geometry::{HOUSE_CELLS, cell_houses};
use std::cell::RefCell;
use std::ops::ControlFlow;

/// One walk's fixed parts, for its depth-first search.
struct Ctx<'w> {
    /// The instruction's number (the plan goes on at the next).
    k: usize,
    walk: &'w Walk,
    typed: &'w TWalk,
    start: usize,
    through: Bits,
    /// The house index of each `by` kind, by its place among a cell's
    /// houses ([`cell_houses`]: row, column, block).
    by: Vec<usize>,
    /// With `once`: the cells and even cells of the loops closed so far
    /// (cells are indices below 128: two words each).
    closed: RefCell<Vec<[u64; 4]>>,
}

impl Ctx<'_> {
    /// With `once`: whether the loop `path` closes was closed before by
    /// this walk (same cells, same even cells: the other direction, or
    /// the same cells by houses of other kinds); else it is noted.
    fn closed_before(&self, path: &Path) -> bool {
        let key = [
            path.cells.0[0],
            path.cells.0[1],
            path.even.0[0],
            path.even.0[1],
        ];
        let mut closed = self.closed.borrow_mut();
        if closed.contains(&key) {
            return true;
        }
        closed.push(key);
        false
    }
}

/// The walk so far.
struct Path {
    cells: Bits,
    even: Bits,
    len: usize,
}

impl Plan {
    /// Runs walk `k` on the current binding: each loop it closes, then
    /// the rest of the plan.
    pub(super) fn run_walk(&self, k: usize, walk: &Walk, fr: &mut Frame) -> ControlFlow<()> {
        let Some(Some(typed)) = self.typed.walks.get(k) else {
            unreachable!("a walk has its typed expressions")
        };
        let Some(start) = typed.start.defined_in(
            fr.state,
            &fr.dc,
            &mut fr.env,
            fr.cx.clock_and_givens(),
            TOp::eval,
        ) else {
            return self.stopped(fr);
        };
        let start = match start {
            Val::Idx(c) => c,
            Val::Set(s) if s.len() == 1 => s.min().unwrap_or(0),
            _ => return ControlFlow::Continue(()),
        };
        let Some(through) = typed.through.defined_in(
            fr.state,
            &fr.dc,
            &mut fr.env,
            fr.cx.clock_and_givens(),
            TOp::eval_set,
        ) else {
            return self.stopped(fr);
        };
        let by = (walk.by.iter())
            .map(|e| match e {
                Elem::Row => 0,
                Elem::Column => 1,
                _ => 2,
            })
            .collect();
        let cx = Ctx {
            k,
            walk,
            typed,
            start,
            through,
            by,
            closed: RefCell::new(Vec::new()),
        };
        let path = Path {
            cells: Bits::single(start),
            even: Bits::single(start),
            len: 1,
        };
        self.step(&cx, start, None, &path, Bits::EMPTY, fr)
    }

    /// The walk from `cell` (the last of `path`, reached by a step of the
    /// `by` kind `last`), with X holding `gathered`.
    fn step(
        &self,
        cx: &Ctx,
        cell: usize,
        last: Option<usize>,
        path: &Path,
        mut gathered: Bits,
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        let w = cx.walk;
        let houses = cell_houses(cell);
        // Q and A hold this walk, written again after a step's walk
        // (which wrote its own).
        let mut stale = true;
        for (i, &kind) in cx.by.iter().enumerate() {
            if last == Some(i) {
                continue;
            }
            for &next in &HOUSE_CELLS[houses[kind]] {
                if next == cx.start {
                    if path.len < w.min_length || (w.once && cx.closed_before(path)) {
                        continue;
                    }
                    if fr.cx.tick() {
                        return ControlFlow::Break(());
                    }
                    fr.env[w.lp] = Val::Set(path.cells);
                    fr.env[w.even] = Val::Set(path.even);
                    stale = false;
                    if let Some(z) = w.next {
                        fr.env[z] = Val::Idx(cx.start);
                    }
                    if let Some((x, _)) = &w.gather {
                        fr.env[*x] = Val::Set(gathered);
                    }
                    self.run(cx.k + 1, fr)?;
                    continue;
                }
                if path.len == w.length || path.cells.contains(next) || !cx.through.contains(next) {
                    continue;
                }
                if fr.cx.tick() {
                    return ControlFlow::Break(());
                }
                if stale {
                    fr.env[w.lp] = Val::Set(path.cells);
                    fr.env[w.even] = Val::Set(path.even);
                    stale = false;
                }
                if let Some(z) = w.next {
                    fr.env[z] = Val::Idx(next);
                }
                let mut env = Env {
                    state: fr.state,
                    vals: &mut fr.env,
                    undefined: false,
                    dc: &fr.dc,
                    clock: &mut fr.cx.clock,
                    givens: &fr.cx.givens,
                };
                if let (Some((x, _)), Some(g)) = (&w.gather, &cx.typed.gather) {
                    let more = g.eval_set(&mut env);
                    if env.undefined {
                        continue;
                    }
                    gathered = gathered.or(&more);
                    env.vals[*x] = Val::Set(gathered);
                }
                if let Some(c) = &cx.typed.when {
                    let holds = c.eval_bool(&mut env);
                    if env.undefined || !holds {
                        continue;
                    }
                }
                let mut on = Path {
                    cells: path.cells,
                    even: path.even,
                    len: path.len + 1,
                };
                on.cells.insert(next);
                if path.len.is_multiple_of(2) {
                    on.even.insert(next);
                }
                self.step(cx, next, Some(i), &on, gathered, fr)?;
                stale = true;
            }
        }
        ControlFlow::Continue(())
    }

    /// The end of a walk whose start or cells are undefined: the search
    /// goes on, unless the deadline passed.
    fn stopped(&self, fr: &Frame) -> ControlFlow<()> {
        if fr.cx.interrupted() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}
