//! Passes that propagate with a linked rule set (`propagate with SET`):
//! each candidate of the chosen cells assumed on (off), the set run in the
//! branch by the branch runner ([`Prepared::run`]); a branch where some
//! CSP variable has no candidate left refutes its assumption. The match's
//! complexity is the assumption and the literals the set concluded.
//!
//! A sweep (`sweep`, Mike Metcalf's loop) has one match: every candidate
//! refuted while the live candidates are tried in order, each refuted one
//! removed before the next is tried.

use super::collect::{Collector, Recipe};
use super::prepared::Prepared;
use super::spec::{Mode, Pass};
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::*;
use crate::grid::state::{State, cell_mask};
use crate::grid::tables::*;
use crate::search::SearchCx;
use crate::search::implication::{Cause, Chain, Graph, lit};

/// Runs set pass `pi` (`pass`, its set `set` run for `rounds`) on the
/// collector's state, adding its matches to `col`.
///
/// `best_only`: collect only the pass's first match in report order
/// (least complexity, then the first found), pruning every branch that
/// cannot beat the best so far (the pass is the rule's only one and
/// concludes on contradictions only: its matches are sorted by rating,
/// then complexity, and the rating grows with the complexity).
pub(super) fn run(
    cx: &mut SearchCx,
    pi: usize,
    pass: &Pass,
    (set, rounds): (&Prepared, Option<usize>),
    col: &mut Collector,
    best_only: bool,
) {
    let Some(cc) = pass.wants(Mode::Contradiction) else {
        return;
    };
    let assumptions = assumptions(col.state, pass, cc.min_cell);
    let base = Board::new(col.state);
    let mut found = Vec::new();
    let mut branch = |cx: &mut SearchCx, (z, on): (usize, bool), limit: Option<usize>| {
        let mut branch = base;
        if on {
            branch.assert(z);
        } else {
            branch.eliminate(z);
        }
        set.run(cx, rounds, &mut branch, &mut found, limit, None)
    };
    let add = |col: &mut Collector, (z, on): (usize, bool), complexity: usize| {
        col.add(cc, lit(z, !on), complexity, Recipe::Set { pass: pi, z, on });
    };
    if !best_only {
        for &a in &assumptions {
            if cx.interrupted() {
                return;
            }
            if let Some(n) = branch(cx, a, None) {
                add(col, a, 1 + n);
            }
        }
        return;
    }
    // The least complexity there is, 1, is an assumption contradicted
    // by itself: when there is one, the first is the match.
    for &a in &assumptions {
        if cx.interrupted() {
            return;
        }
        if branch(cx, a, Some(0)).is_some() {
            return add(col, a, 1);
        }
    }
    // Then every branch concludes a literal at least; one of complexity
    // 1 + n beats the best so far, b, when n <= b - 2.
    let mut best: Option<(usize, (usize, bool))> = None;
    for &a in &assumptions {
        if cx.interrupted() {
            return;
        }
        let limit = match best {
            Some((b, _)) if b <= 2 => break,
            Some((b, _)) => Some(b - 2),
            None => None,
        };
        if let Some(n) = branch(cx, a, limit) {
            best = Some((1 + n, a));
        }
    }
    if let Some((k, a)) = best {
        add(col, a, k);
    }
}

/// The assumptions of a set pass in `state`, in order: cell by cell (cells
/// the pass chooses, with `min_cell` candidates at least), candidate by
/// candidate, on then off as the pass assumes them.
fn assumptions(state: &State, pass: &Pass, min_cell: usize) -> Vec<(usize, bool)> {
    let mut out = Vec::new();
    for c in 0..N_CELLS {
        let live = state.cands.and(&TABLES.cell[c]);
        let n = live.len();
        if n < pass.min_cell.max(1) || n > pass.max_cell || n < min_cell {
            continue;
        }
        for z in live.iter() {
            for (on, wanted) in [(true, pass.assume_on), (false, pass.assume_off)] {
                if wanted {
                    out.push((z, on));
                }
            }
        }
    }
    out
}

/// A sweep: each live candidate of the chosen cells, in order (cell by
/// cell, candidate by candidate), assumed on in the current state and the
/// set run in the branch; a contradicted branch removes its candidate from
/// the current state before the next assumption. Returns the removed
/// candidates and the greatest complexity among their branches (`None`
/// when nothing was refuted).
pub(super) fn sweep(
    cx: &mut SearchCx,
    pass: &Pass,
    (set, rounds): (&Prepared, Option<usize>),
    state: &State,
) -> Option<(Bits, usize)> {
    let min_cell = pass
        .min_cell
        .max(1)
        .max(pass.wants(Mode::Contradiction)?.min_cell);
    let mut current = Board::new(state);
    let mut found = Vec::new();
    let (mut refuted, mut complexity) = (Bits::EMPTY, 0);
    for c in 0..N_CELLS {
        let mut digits = cell_mask(&state.cands, c);
        while digits != 0 {
            let z = cand(c, digits.trailing_zeros() as usize);
            digits &= digits - 1;
            if cx.interrupted() || current.has_empty_var() {
                break;
            }
            let n = cell_mask(&current.state.cands, c).count_ones() as usize;
            if n < min_cell || n > pass.max_cell || !current.state.cands.contains(z) {
                continue;
            }
            let mut branch = current;
            branch.assert(z);
            if let Some(k) = set.run(cx, rounds, &mut branch, &mut found, None, None) {
                refuted.insert(z);
                complexity = complexity.max(1 + k);
                current.eliminate(z);
            }
        }
    }
    (!refuted.is_empty() && !cx.interrupted()).then_some((refuted, complexity))
}

/// A branch of `set` (run for `rounds`) from `z` on (off) in `base`, run
/// again with a trace: its chain (the assumption, then each literal the
/// set concluded, each after the one before) and the CSP variables it left
/// without a candidate.
pub(super) fn replay_branch(
    cx: &mut SearchCx,
    (set, rounds): (&Prepared, Option<usize>),
    base: &Board,
    z: usize,
    on: bool,
) -> (Chain, Vec<usize>) {
    let mut branch = *base;
    if on {
        branch.assert(z);
    } else {
        branch.eliminate(z);
    }
    let mut trace = Vec::new();
    set.run(
        cx,
        rounds,
        &mut branch,
        &mut Vec::new(),
        None,
        Some(&mut trace),
    );
    let mut g = Graph::new();
    let mut last = g.add(lit(z, on), Cause::Assumption, &[]);
    for l in trace {
        last = g.add(l, Cause::Rule, &[last]);
    }
    (g.extract(last), branch.empty_vars())
}
