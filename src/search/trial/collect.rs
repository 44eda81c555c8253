//! A search's matches before they are reported, and their order: Sudoku
//! Explainer's. Each match (a [`Hint`]) carries its sort key (difficulty:
//! level plus increment, then complexity, then the conclusion's key),
//! what it removes, and how to find its chains again ([`Recipe`]); the
//! [`Collector`] gathers them for one search and, when the search is for
//! its first match only, knows the best found so far, which lets passes
//! skip what cannot come first.

use super::spec::{Conclude, Mode, TrialSpec};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::state::State;
use crate::grid::tables::*;
use crate::rating::Rating;
use crate::search::implication::{Chain, lit_cand, lit_on};

/// A match before sorting.
pub(super) struct Hint {
    pub(super) difficulty: f64,
    pub(super) complexity: usize,
    pub(super) key: i64,
    /// SE's removable candidates: what the match takes away.
    pub(super) removable: Bits,
    /// A placement (an "on" result): its candidate.
    pub(super) placed: Option<usize>,
    pub(super) level: Rating,
    pub(super) label: Option<String>,
    pub(super) mode: Mode,
    /// How to find the match's chains again (evidence is extracted only
    /// for the matches reported).
    pub(super) recipe: Recipe,
    /// The match's chains, extracted when it was found (see
    /// [`Collector::keep_chains`]); `None`: replayed from `recipe` if the
    /// match is reported.
    pub(super) chains: Option<Vec<Chain>>,
}

/// Where a match came from, to replay its propagation when it is
/// reported: the pass, and what was assumed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Recipe {
    /// A branch of a linked rule set from candidate `z` on (off).
    Set { pass: usize, z: usize, on: bool },
    /// A sweep's branches: each refuted candidate on, in order, each in the
    /// state without the ones before it.
    Sweep { pass: usize, refuted: Bits },
    /// The `nth` cycle from `z` on.
    Cycle { pass: usize, z: usize, nth: usize },
    /// The forcing chain from literal `source`.
    Forcing { pass: usize, source: u16 },
    /// The contradiction from literal `source`.
    Contra { pass: usize, source: u16 },
    /// `target` from `z` on and from `z` off.
    Double { pass: usize, z: usize, target: u16 },
    /// `target` from every candidate of `cell` on.
    Cell {
        pass: usize,
        cell: usize,
        target: u16,
    },
    /// `target` from every place of `z`'s digit in `house`, `z` first.
    Region {
        pass: usize,
        z: usize,
        house: usize,
        target: u16,
    },
}

/// Collects matches with their sort keys.
pub(super) struct Collector<'a> {
    pub(super) spec: &'a TrialSpec,
    pub(super) state: &'a State,
    pub(super) hints: Vec<Hint>,
    /// Keeps the chains of matches as they are found
    /// ([`Collector::keep_chains`]).
    pub(super) eager: bool,
    /// The search is for its first match only ([`Searcher::first`](crate::search::Searcher::first)): a
    /// match that sorts after one already found is never reported, so a
    /// search may skip it (keeping its node count).
    pub(super) first: bool,
    /// With `first`: the order of the first of `hints` (see [`order`]).
    pub(super) best: Option<Order>,
}

/// Where a match sorts among a search's matches: its difficulty, its
/// complexity, its key; equal ones in the order they were found.
pub(super) type Order = (f64, usize, i64);

/// Does a match of order `a` sort before one of order `b`?
pub(super) fn sorts_before(a: &Order, b: &Order) -> bool {
    a.0.partial_cmp(&b.0)
        .unwrap_or(std::cmp::Ordering::Equal)
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
        .is_lt()
}

/// The order of hint `h`.
pub(super) fn order(h: &Hint) -> Order {
    (h.difficulty, h.complexity, h.key)
}

impl Collector<'_> {
    /// What SE's hint removes for a result literal: an "on" result takes
    /// the cell's other candidates (and places the digit), an "off" one
    /// the candidate.
    pub(super) fn removable(&self, target: u16) -> (Bits, Option<usize>) {
        let z = lit_cand(target);
        if lit_on(target) {
            let cell = TABLES.cell[cand_cell(z)];
            let mut r = self.state.cands.and(&cell);
            r.remove(z);
            (r, Some(z))
        } else {
            (Bits::single(z), None)
        }
    }

    pub(super) fn add(&mut self, c: &Conclude, target: u16, complexity: usize, recipe: Recipe) {
        let (removable, placed) = self.removable(target);
        if removable.is_empty() {
            return;
        }
        self.push(c, removable, placed, complexity, recipe);
    }

    pub(super) fn push(
        &mut self,
        c: &Conclude,
        removable: Bits,
        placed: Option<usize>,
        complexity: usize,
        recipe: Recipe,
    ) {
        let (tenths, added) = self.spec.increment.of(complexity);
        if self.first {
            let o = (c.level.as_f64() + added, complexity, c.key);
            if self.best.is_none_or(|b| sorts_before(&o, &b)) {
                self.best = Some(o);
            }
        }
        self.hints.push(Hint {
            difficulty: c.level.as_f64() + added,
            complexity,
            key: c.key,
            removable,
            placed,
            level: if tenths == 0 {
                c.level
            } else {
                c.level.plus_tenths(tenths)
            },
            label: c.label.clone(),
            mode: c.mode,
            recipe,
            chains: None,
        });
    }

    /// Adds a hint found before (see [`Collector::best`]).
    pub(super) fn take(&mut self, h: Hint) {
        let o = order(&h);
        if self.first && self.best.is_none_or(|b| sorts_before(&o, &b)) {
            self.best = Some(o);
        }
        self.hints.push(h);
    }

    /// The largest complexity of a match concluded by `c` that sorts
    /// before the first of the hints (`best`) and not after `later` (the
    /// first of the hints found ahead, of candidates after the current
    /// one); `None`: any. A match whose order is that of one found before
    /// it sorts after it.
    pub(super) fn limit(&self, c: &Conclude, later: Option<Order>) -> Option<usize> {
        if self.best.is_none() && later.is_none() {
            return None;
        }
        let wins = |k: usize| {
            let o = (c.level.as_f64() + self.spec.increment.of(k).1, k, c.key);
            self.best.is_none_or(|b| sorts_before(&o, &b))
                && later.is_none_or(|l| !sorts_before(&l, &o))
        };
        // A chain has at most one node per literal.
        let most = 2 * N_CANDS + 1;
        let mut k = 1;
        while k < most && wins(k + 1) {
            k += 1;
        }
        (k < most).then_some(k)
    }

    /// Gives the chains of the matches pushed since there were `from`
    /// (none or one), extracted by `chains` from the graph that found
    /// them, when the search is `eager`: a rule applied in another's
    /// branches reports every match it finds with its chains, and taking
    /// them now costs less than making the propagation again
    /// (`report::replay` finds the same graph: it is
    /// deterministic). An engine's search reports few of its matches: it
    /// replays those.
    pub(super) fn keep_chains(&mut self, from: usize, chains: impl FnOnce() -> Vec<Chain>) {
        if self.eager
            && let Some(h) = self.hints.get_mut(from)
        {
            h.chains = Some(chains());
        }
    }
}
