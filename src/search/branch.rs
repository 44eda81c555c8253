//! The state of a trial's branches and the count shape of rules, for the
//! branch runner of trial rules that `propagate with SET`
//! ([`super::trial::Prepared`], which runs the linked set in a copy of the
//! state after an assumption).
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
//! A set of count plans that all assert at count 1 (the singles) reads a
//! round's matches off the `ones`; when no trace is wanted its last round
//! is not applied in turn but judged on the planes
//! ([`Lanes::last_round_of_ones`]): when no two of the round's candidates
//! are linked, the round asserts them all whatever the order, and the
//! branch is contradicted when a variable loses all its candidates to
//! them.

use super::pattern::{Elem, Op, Plan, count_head};
use super::{ConclusionKind, Searcher};
use crate::grid::bits::VarSet;
use crate::grid::geometry::*;
use crate::grid::state::{State, cell_mask, cell_masks};
use std::ops::ControlFlow;

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
    pub(crate) fn each(
        &self,
        l: &Lanes,
        mut f: impl FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
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

/// The variables of each space, as the words of a [`VarSet`].
static SPACE_WORDS: [[u64; 6]; 4] = {
    let mut t = [[0u64; 6]; 4];
    let mut v = 0;
    while v < N_VARS {
        t[v / 81][v / 64] |= 1 << (v % 64);
        v += 1;
    }
    t
};

/// The words of a [`VarSet`] that hold variables of `space` (two or
/// three), each with the mask of those variables.
#[inline(always)]
pub(crate) fn space_words(space: Space) -> impl Iterator<Item = (usize, u64)> {
    let s = space as usize;
    (81 * s / 64..=(81 * s + 80) / 64).map(move |w| (w, SPACE_WORDS[s][w]))
}

/// Is `op` the live candidates of the variable bound in `slot`?
fn is_cands_of_slot(op: &Op, slot: usize) -> bool {
    matches!(op, Op::Cands(Elem::Var(_), x) if matches!(**x, Op::Slot(s) if s == slot))
}

/// Added to the count of a decided variable.
const DECIDED: u8 = 100;

/// The four variables of each candidate (as [`cand_vars`]), as a table.
static CAND_VARS: [[u16; 4]; N_CANDS] = {
    let mut t = [[0u16; 4]; N_CANDS];
    let mut z = 0;
    while z < N_CANDS {
        let (c, d) = (z / 9, z % 9);
        let (r, k, b) = (c / 9, c % 9, (c / 27) * 3 + (c % 9) / 3);
        t[z] = [
            c as u16,
            (81 + r * 9 + d) as u16,
            (162 + k * 9 + d) as u16,
            (243 + b * 9 + d) as u16,
        ];
        z += 1;
    }
    t
};

/// The cells of each house (rows, columns, blocks), as 81-bit masks.
static HOUSE81: [u128; N_HOUSES] = {
    let mut t = [0u128; N_HOUSES];
    let mut c = 0;
    while c < N_CELLS {
        let (r, k) = (c / 9, c % 9);
        t[r] |= 1 << c;
        t[9 + k] |= 1 << c;
        t[18 + (r / 3) * 3 + k / 3] |= 1 << c;
        c += 1;
    }
    t
};

/// The peers of each cell in five parts, as 81-bit masks: its row inside
/// its block, its row outside, its column inside its block, its column
/// outside, and its block outside its row and column.
static PEER_PARTS: [[u128; 5]; N_CELLS] = {
    let mut t = [[0u128; 5]; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let (r, k) = (c / 9, c % 9);
        let (row, col, block) = (
            HOUSE81[r],
            HOUSE81[9 + k],
            HOUSE81[18 + (r / 3) * 3 + k / 3],
        );
        let me = !(1u128 << c);
        t[c] = [
            row & block & me,
            row & !block,
            col & block & me,
            col & !block,
            block & !row & !col,
        ];
        c += 1;
    }
    t
};

/// The peers of each cell, as 81-bit masks (the cell excluded).
static PEERS81: [u128; N_CELLS] = {
    let mut t = [0u128; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let [a, b, d, e, f] = PEER_PARTS[c];
        t[c] = a | b | d | e | f;
        c += 1;
    }
    t
};

/// The houses of each cell, as bits of an [`occupied`] mask.
static HOUSE_BITS: [u128; N_CELLS] = {
    let mut t = [0u128; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let (r, k) = (c / 9, c % 9);
        t[c] = 1 << (9 * r) | 1 << (27 * (r / 3) + 3 * (k / 3) + 1) | 1 << (81 + k);
        c += 1;
    }
    t
};

/// The bits of all 27 houses in an [`occupied`] mask.
const ALL_HOUSE_BITS: u128 = {
    let mut m = 0u128;
    let mut c = 0;
    while c < N_CELLS {
        m |= HOUSE_BITS[c];
        c += 1;
    }
    m
};

/// The houses that hold a cell of `cells` (an 81-bit mask), one bit a
/// house: row `r` at bit `9r`, block `3b + j` (band `b`, stack `j`) at bit
/// `27b + 3j + 1`, column `k` at bit `81 + k`.
#[inline(always)]
fn occupied(cells: u128) -> u128 {
    // Each mini-row's cells gathered at its first cell (bit 9r + 3j).
    let minis = cells | cells >> 1 | cells >> 2;
    let rows = minis | minis >> 3 | minis >> 6;
    let blocks = minis | minis >> 9 | minis >> 18;
    // Each column's cells gathered at its first-row cell (bit k).
    let mut cols = cells | cells >> 36;
    cols |= cols >> 18;
    cols |= cols >> 9;
    cols |= cells >> 72;
    (rows & ROW_STARTS) | (blocks & BLOCK_STARTS) << 1 | (cols & 0x1FF) << 81
}

/// The first cell of each row, as an 81-bit mask.
const ROW_STARTS: u128 = {
    let mut m = 0u128;
    let mut r = 0;
    while r < 9 {
        m |= 1 << (9 * r);
        r += 1;
    }
    m
};

/// The first cell of each block, as an 81-bit mask.
const BLOCK_STARTS: u128 = {
    let mut m = 0u128;
    let mut b = 0;
    while b < 9 {
        m |= 1 << (27 * (b / 3) + 3 * (b % 3));
        b += 1;
    }
    m
};

/// Each cell's bit in an 81-bit mask.
static CELL81: [u128; N_CELLS] = {
    let mut t = [0u128; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

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
    pub(crate) ones: VarSet,
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
    pub(crate) fn last_round_of_ones(&mut self, spaces: &[Space]) -> (bool, usize) {
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
    pub(crate) fn conclude(&mut self, kind: ConclusionKind, z: usize) -> bool {
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
    pub(crate) fn first_live(&self, v: usize) -> Option<usize> {
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
    pub(crate) fn live_cands(&self, v: usize) -> ([u16; 9], usize) {
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
