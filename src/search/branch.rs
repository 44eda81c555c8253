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
//!   of live candidates of each of the 324 CSP variables (a decided one
//!   marked by an offset), kept up to date as candidates go, and the
//!   candidates by digit (one 81-bit plane a digit). "Is some
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
//!
//! A set of count plans that all assert at count 1 (the singles) reads a
//! round's matches off the `ones`; when no trace is wanted its last round
//! is not applied in turn but judged on the planes
//! ([`Lanes::last_round_of_ones`]): when no two of the round's candidates
//! are linked, the round asserts them all whatever the order, and the
//! branch is contradicted when a variable loses all its candidates to
//! them.

use super::implication::lit;
use super::pattern::{Elem, Op, Plan, count_head};
use super::{ConclusionKind, Found, SearchCx, Searcher};
use crate::grid::bits::{Bits, VarSet};
use crate::grid::geometry::*;
use crate::grid::plane::*;
use crate::grid::state::{State, cell_mask, cell_masks};
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
        if plan.instrs.len() != 2 {
            return None;
        }
        let (slot, space, count) = count_head(&plan.instrs)?;
        // The conclusion: V's live candidates.
        if !is_cands_of_slot(&plan.target, slot) {
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
            space,
            count,
            kind: plan.conclusion,
        })
    }

    /// The first match's variable on `l`, in the plan's order.
    pub fn first(&self, l: &Lanes) -> Option<usize> {
        let mut first = None;
        let _ = self.each(l, |v| {
            first = Some(v);
            ControlFlow::Break(())
        });
        first
    }

    /// Calls `f` with each match's variable (its live candidates are the
    /// match's conclusions) on `l`, in the plan's order (variables in
    /// index order), until it breaks.
    fn each(&self, l: &Lanes, mut f: impl FnMut(usize) -> ControlFlow<()>) -> ControlFlow<()> {
        let base = var(self.space, 0);
        if self.count == 1 {
            for (w, mask) in space_words(self.space) {
                let mut bits = l.ones.0[w] & mask;
                while bits != 0 {
                    f(64 * w + bits.trailing_zeros() as usize)?;
                    bits &= bits - 1;
                }
            }
            return ControlFlow::Continue(());
        }
        for v in base..base + 81 {
            if usize::from(l.count[v]) == self.count {
                f(v)?;
            }
        }
        ControlFlow::Continue(())
    }
}

/// Is `op` the live candidates of the variable bound in `slot`?
fn is_cands_of_slot(op: &Op, slot: usize) -> bool {
    matches!(op, Op::Cands(Elem::Var(_), x) if matches!(**x, Op::Slot(s) if s == slot))
}

/// Added to the count of a decided variable.
const DECIDED: u8 = 100;

/// A branch's state with per-variable counts of live candidates.
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    pub state: State,
    /// The live candidates of each digit, one bit a cell (the same
    /// candidates as `state.cands`, read by digit).
    planes: [u128; 9],
    /// Live candidates of each CSP variable, plus [`DECIDED`] for a
    /// decided one (so that a decided variable never counts 0 or 1).
    count: [u8; N_VARS],
    /// Undecided variables with exactly one live candidate.
    ones: VarSet,
    /// The houses where each digit is undecided, as [`occupied`] masks.
    open: [u128; 9],
    /// Undecided variables without a live candidate.
    empty: u32,
    /// Decided cells.
    values: u32,
}

impl Lanes {
    pub fn new(state: &State) -> Lanes {
        let mut l = Lanes {
            state: *state,
            planes: [0; 9],
            count: [0; N_VARS],
            ones: VarSet::EMPTY,
            open: [ALL_HOUSE_BITS; 9],
            empty: 0,
            values: state.values.len() as u32,
        };
        // The planes from the cells' digits; then a cell's count is its
        // digits', a house's for a digit the digit's cells in the house.
        let masks = cell_masks(&state.cands);
        for (c, &m) in masks.iter().enumerate() {
            l.count[c] = m.count_ones() as u8;
            let mut m = m;
            while m != 0 {
                l.planes[m.trailing_zeros() as usize] |= CELL81[c];
                m &= m - 1;
            }
        }
        for (d, &plane) in l.planes.iter().enumerate() {
            for (h, &house) in HOUSE81.iter().enumerate() {
                l.count[N_CELLS + 9 * h + d] = (plane & house).count_ones() as u8;
            }
        }
        for z in state.values.iter() {
            l.open[z % 9] &= !HOUSE_BITS[z / 9];
            for v in CAND_VARS[z] {
                let n = &mut l.count[usize::from(v)];
                if *n < DECIDED {
                    *n += DECIDED;
                }
            }
        }
        for (v, &n) in l.count.iter().enumerate() {
            if n <= 1 {
                if n == 1 {
                    l.ones.insert(v);
                } else {
                    l.empty += 1;
                }
            }
        }
        l
    }

    /// Is every cell decided?
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.values as usize == N_CELLS
    }

    /// Is some undecided variable without a candidate?
    #[inline]
    pub fn has_empty_var(&self) -> bool {
        self.empty > 0
    }

    #[inline]
    fn drop_cand(&mut self, y: usize) {
        self.drop_cell_digit(y / 9, y % 9);
    }

    /// Removes live candidate `9c + d` (the cell and digit known).
    #[inline(always)]
    fn drop_cell_digit(&mut self, c: usize, d: usize) {
        self.drop_counting::<0b1111>(c, d);
    }

    /// Removes live candidate `9c + d`, counting it out of those of its
    /// four variables (rc, rn, cn, bn) that `VARS` has bits for (bits 0 to
    /// 3): the others are decided (an assertion's own variables), whose
    /// count is [`DECIDED`] whatever goes.
    #[inline(always)]
    fn drop_counting<const VARS: u8>(&mut self, c: usize, d: usize) {
        let y = 9 * c + d;
        self.state.cands.remove(y);
        self.planes[d] ^= CELL81[c];
        let vars = CAND_VARS[y];
        for (i, &v) in vars.iter().enumerate() {
            if VARS & (1 << i) != 0 {
                self.count_var_out(usize::from(v));
            }
        }
    }

    /// One live candidate fewer for undecided variable `v`.
    #[inline(always)]
    fn count_var_out(&mut self, v: usize) {
        self.count[v] -= 1;
        match self.count[v] {
            1 => self.ones.insert(v),
            0 => {
                self.ones.remove(v);
                self.empty += 1;
            }
            _ => {}
        }
    }

    /// The undecided variables without a live candidate, in index order
    /// (as [`State::empty_vars`]).
    pub fn empty_vars(&self) -> Vec<usize> {
        if self.empty == 0 {
            return Vec::new();
        }
        (0..N_VARS).filter(|&v| self.count[v] == 0).collect()
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
        for v in CAND_VARS[z] {
            let v = usize::from(v);
            // `z` is live: its variables are neither decided nor empty.
            // Their candidates all go below (each is linked to `z`).
            if self.count[v] == 1 {
                self.ones.remove(v);
            }
            self.count[v] = DECIDED;
        }
        self.state.values.insert(z);
        self.values += 1;
        let (c, d) = (z / 9, z % 9);
        self.open[d] &= !HOUSE_BITS[c];
        self.drop_counting::<0>(c, d);
        // The linked candidates: the cell's other digits (their rc
        // variable is z's), and the digit in the cell's peers (their rn,
        // cn or bn variable is z's when they share its row, column or
        // block).
        let mut digits = cell_mask(&self.state.cands, c);
        while digits != 0 {
            let e = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            self.drop_counting::<0b1110>(c, e);
        }
        let plane = self.planes[d];
        let [row_in, row_out, col_in, col_out, block_only] = PEER_PARTS[c];
        self.drop_peers::<0b0101>(plane & row_in, d);
        self.drop_peers::<0b1101>(plane & row_out, d);
        self.drop_peers::<0b0011>(plane & col_in, d);
        self.drop_peers::<0b1011>(plane & col_out, d);
        self.drop_peers::<0b0111>(plane & block_only, d);
    }

    /// Drops digit `d` from the cells of `cells` (live there), counting it
    /// out of the variables `VARS` selects (as [`Lanes::drop_counting`]).
    #[inline(always)]
    fn drop_peers<const VARS: u8>(&mut self, mut cells: u128, d: usize) {
        while cells != 0 {
            let p = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            self.drop_counting::<VARS>(p, d);
        }
    }

    /// A last round of assertions, when only its outcome is wanted: the
    /// undecided variables of `spaces` with one live candidate (the
    /// round's matches, space by space, each in index order) each assert
    /// their candidate if it is still live. Returns whether some
    /// undecided variable is left without a candidate, and how many
    /// candidates were asserted: what the same round gives through
    /// [`Lanes::assert`]. The lanes are left as they are (or, when the
    /// order matters, inconsistent): drop them.
    ///
    /// When no two of the round's candidates are linked, each is still
    /// live when its turn comes and the round's outcome does not depend
    /// on their order: it is read off the planes, with no count kept up
    /// to date. Otherwise they are asserted in turn
    /// ([`Lanes::last_round_in_order`]).
    fn last_round_of_ones(&mut self, spaces: &[Space]) -> (bool, usize) {
        // The round's candidates, by digit (`on`), their cells, and the
        // peers of each digit's candidates (what they eliminate).
        let (mut on, mut kill, mut cells) = ([0u128; 9], [0u128; 9], 0u128);
        let mut applied = 0;
        for &space in spaces {
            for (w, mask) in space_words(space) {
                let mut bits = self.ones.0[w] & mask;
                while bits != 0 {
                    let v = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (c, d) = if v < N_CELLS {
                        let m = cell_mask(&self.state.cands, v);
                        (v, m.trailing_zeros() as usize)
                    } else {
                        let (h, d) = ((v - N_CELLS) / 9, v % 9);
                        let m = self.planes[d] & HOUSE81[h];
                        (m.trailing_zeros() as usize, d)
                    };
                    let bit = CELL81[c];
                    if on[d] & bit != 0 {
                        // Asserted already: no longer live.
                        continue;
                    }
                    if (cells | kill[d]) & bit != 0 {
                        // Linked to a candidate asserted before it: the
                        // order matters (which one is asserted).
                        return self.last_round_in_order(spaces);
                    }
                    on[d] |= bit;
                    cells |= bit;
                    kill[d] |= PEERS81[c];
                    applied += 1;
                }
            }
        }
        // No two are linked: each is live when its turn comes, and the
        // round ends with all of them asserted whatever the order. A
        // variable is then empty when it is undecided and every candidate
        // it had is gone: a cell whose digits all went, a digit whose
        // places in an open house all went (and not to one asserted
        // there).
        let (mut undecided, mut left) = (0u128, 0u128);
        for d in 0..9 {
            let plane = self.planes[d];
            undecided |= plane;
            let kept = plane & !cells & !kill[d];
            left |= kept;
            if kept | on[d] != plane && self.open[d] & !occupied(kept | on[d]) != 0 {
                return (true, applied);
            }
        }
        (undecided & !cells & !left != 0, applied)
    }

    /// [`Lanes::last_round_of_ones`] when the order of the round's
    /// assertions matters: each is made in turn. Nothing is kept for a
    /// later round, so only the planes and the counts are kept up to date
    /// (no candidates, values or `ones`), and once a variable is empty
    /// only the planes (which candidates are still live).
    #[inline(never)]
    fn last_round_in_order(&mut self, spaces: &[Space]) -> (bool, usize) {
        let ones = self.ones;
        // Cells decided in this round (their candidates are no longer live).
        let mut taken = 0u128;
        let mut empty = false;
        let mut applied = 0;
        for &space in spaces {
            for (w, mask) in space_words(space) {
                let mut bits = ones.0[w] & mask;
                while bits != 0 {
                    let v = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // The variable's one candidate when the round began, if
                    // it is still live (a cell's from the candidates, which
                    // this round leaves as they were; a house's from the
                    // planes, which it keeps up to date).
                    let (c, d) = if v < N_CELLS {
                        let m = cell_mask(&self.state.cands, v);
                        let d = m.trailing_zeros() as usize;
                        if self.planes[d] & !taken & CELL81[v] == 0 {
                            continue;
                        }
                        (v, d)
                    } else {
                        let (h, d) = ((v - N_CELLS) / 9, v % 9);
                        let m = self.planes[d] & !taken & HOUSE81[h];
                        if m == 0 {
                            continue;
                        }
                        (m.trailing_zeros() as usize, d)
                    };
                    applied += 1;
                    taken |= CELL81[c];
                    if empty {
                        self.planes[d] &= !PEERS81[c];
                        continue;
                    }
                    empty = self.assert_counting(c, d);
                }
            }
        }
        (empty, applied)
    }

    /// Decides live candidate `9c + d` keeping only the planes and the
    /// counts (see [`Lanes::last_round_of_ones`]); whether an undecided
    /// variable lost its last candidate.
    #[inline(always)]
    fn assert_counting(&mut self, c: usize, d: usize) -> bool {
        let mut empty = false;
        // The cell's other live digits: their rn, cn and bn variables
        // lose a candidate (the cell's own variable is decided).
        self.planes[d] ^= CELL81[c];
        let mut digits = cell_mask(&self.state.cands, c) & !(1 << d);
        while digits != 0 {
            let e = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if self.planes[e] & CELL81[c] != 0 {
                empty |= self.drop_light::<0b1110>(c, e);
            }
        }
        let plane = self.planes[d];
        let [row_in, row_out, col_in, col_out, block_only] = PEER_PARTS[c];
        empty |= self.drop_peers_light::<0b0101>(plane & row_in, d);
        empty |= self.drop_peers_light::<0b1101>(plane & row_out, d);
        empty |= self.drop_peers_light::<0b0011>(plane & col_in, d);
        empty |= self.drop_peers_light::<0b1011>(plane & col_out, d);
        empty |= self.drop_peers_light::<0b0111>(plane & block_only, d);
        empty
    }

    /// Drops digit `d` from the cells of `cells` as [`Lanes::drop_light`].
    #[inline(always)]
    fn drop_peers_light<const VARS: u8>(&mut self, mut cells: u128, d: usize) -> bool {
        let mut empty = false;
        while cells != 0 {
            let p = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            empty |= self.drop_light::<VARS>(p, d);
        }
        empty
    }

    /// Removes live candidate `9c + d` from its plane and counts it out of
    /// the variables `VARS` selects (as [`Lanes::drop_counting`]); whether
    /// one of them is left without a candidate.
    #[inline(always)]
    fn drop_light<const VARS: u8>(&mut self, c: usize, d: usize) -> bool {
        self.planes[d] ^= CELL81[c];
        let vars = CAND_VARS[9 * c + d];
        let mut empty = false;
        for (i, &v) in vars.iter().enumerate() {
            if VARS & (1 << i) != 0 {
                let n = &mut self.count[usize::from(v)];
                *n -= 1;
                empty |= *n == 0;
            }
        }
        empty
    }

    /// Applies a conclusion on candidate `z` when it is live; whether it was.
    #[inline]
    fn conclude(&mut self, kind: ConclusionKind, z: usize) -> bool {
        let live = self.state.cands.contains(z);
        if live {
            match kind {
                ConclusionKind::Eliminate => self.drop_cand(z),
                ConclusionKind::Assert => self.assert(z),
            }
        }
        live
    }

    /// Applies the match of a count plan concluding `kind` on variable
    /// `v` as an engine step does: its conclusions are `v`'s live
    /// candidates, all of them or (`all` off) only the first in print
    /// order, the greatest; they are applied in print order (decreasing).
    /// Returns how many conclusions the step has.
    pub fn conclude_var(&mut self, kind: ConclusionKind, v: usize, all: bool) -> usize {
        let (zs, n) = self.live_cands(v);
        let zs = if all {
            &zs[..n]
        } else {
            &zs[n.saturating_sub(1)..n]
        };
        for &z in zs.iter().rev() {
            self.conclude(kind, usize::from(z));
        }
        zs.len()
    }

    /// The first live candidate of variable `v`, if any (as
    /// [`Lanes::live_cands`]).
    #[inline]
    fn first_live(&self, v: usize) -> Option<usize> {
        if v < N_CELLS {
            let m = cell_mask(&self.state.cands, v);
            (m != 0).then(|| 9 * v + m.trailing_zeros() as usize)
        } else {
            let (h, d) = ((v - N_CELLS) / 9, v % 9);
            let m = self.planes[d] & HOUSE81[h];
            (m != 0).then(|| 9 * m.trailing_zeros() as usize + d)
        }
    }

    /// The live candidates of variable `v`, in increasing order (at most
    /// nine): a cell's digits, or a house's places for a digit.
    #[inline]
    fn live_cands(&self, v: usize) -> ([u16; 9], usize) {
        let mut out = [0u16; 9];
        let mut n = 0;
        if v < N_CELLS {
            let mut m = cell_mask(&self.state.cands, v);
            while m != 0 {
                out[n] = (9 * v + m.trailing_zeros() as usize) as u16;
                n += 1;
                m &= m - 1;
            }
        } else {
            // rn, cn, bn: variable 81 s + 9 i + d is digit d in house
            // 9 (s - 1) + i.
            let (h, d) = ((v - N_CELLS) / 9, v % 9);
            let mut m = self.planes[d] & HOUSE81[h];
            while m != 0 {
                out[n] = (9 * m.trailing_zeros() as usize + d) as u16;
                n += 1;
                m &= m - 1;
            }
        }
        (out, n)
    }
}

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
        l: &mut Lanes,
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
                let ones = l.ones;
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
                let mut done = |l: &mut Lanes, kind: ConclusionKind, z: usize| {
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
                    let base = Lanes::new(&state);
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
    fn round_is_linked(l: &Lanes, spaces: &[Space]) -> bool {
        let mut zs: Vec<usize> = Vec::new();
        for &sp in spaces {
            for v in var(sp, 0)..var(sp, 0) + 81 {
                if l.ones.contains(v)
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
                        && PEERS81[cand_cell(y)] & CELL81[cand_cell(z)] != 0)
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
                    let base = Lanes::new(&step.before);
                    for z in step.before.cands.iter() {
                        let mut b = base;
                        b.assert(z);
                        let linked = *rounds == Some(1)
                            && !b.has_empty_var()
                            && round_is_linked(&b, &spaces);
                        let mut cx = SearchCx::new(None);
                        let mut traced = |l: Lanes, limit| {
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
        for (z, vars) in CAND_VARS.iter().enumerate() {
            assert_eq!(vars.map(usize::from), cand_vars(z));
        }
        assert_eq!(l.planes, fresh.planes);
        assert_eq!((l.values, l.is_solved()), (fresh.values, s.is_solved()));
        for v in 0..N_VARS {
            let (zs, n) = l.live_cands(v);
            let want: Vec<u16> = var_cands(v)
                .into_iter()
                .filter(|&z| s.cands.contains(z))
                .map(|z| z as u16)
                .collect();
            assert_eq!(zs[..n], want[..], "{v}");
        }
        assert_eq!(l.count, fresh.count);
        assert_eq!(l.ones, fresh.ones);
        assert!(!l.has_empty_var());
        for d in 0..9 {
            l.eliminate(cand(70, d));
        }
        assert!(l.has_empty_var());
        assert_eq!(Lanes::new(&l.state).empty, 1);
        assert_eq!(l.empty_vars(), l.state.empty_vars());
        assert_eq!(l.empty_vars(), vec![var(Space::Rc, 70)]);
    }
}
