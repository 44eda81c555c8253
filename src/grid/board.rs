//! The board: the one incremental resolution state that the engine and
//! the branch runner of trial rules change.
//!
//! A [`Board`] is a [`State`] (which steps record and renderers read) with,
//! kept up to date as candidates go, what makes the common questions one
//! look:
//!
//! - the number of live candidates of each of the 324 CSP variables (a
//!   decided one marked by an offset, [`DECIDED`]): "is some variable
//!   empty" is a counter, "the variables of a space with exactly K
//!   candidates" one look at 81 counters (a count plan's matches, see
//!   `search::pattern::count`), and the undecided variables with one
//!   candidate a set ([`Board::ones`]);
//! - the candidates by digit, one [`Plane`] (81 bits) a digit, and the
//!   houses where each digit is undecided: a round of assertions of the
//!   variables with one candidate is judged on them
//!   ([`Board::last_round_of_ones`]).
//!
//! Asserting a candidate removes its nrc-linked candidates, read as the
//! cell's other digits and the digit in the cell's peers
//! ([`super::plane::PEER_PARTS`], tables the link graph's test pins).
//!
//! A board is made of a state that [`State`]'s own methods made (no live
//! candidate is linked to a value): then a live candidate's variables are
//! all undecided, which [`Board::assert`] relies on.
//!
//! Architecture Invariant: the board's candidates and values are always
//! those of the [`State`] the same conclusions give through
//! [`State::assert`] and [`State::eliminate`], and its counts are always
//! those a fresh [`Board::new`] computes (a test follows both). Only a
//! last round ([`Board::last_round_of_ones`]) leaves it inconsistent, and
//! its caller drops it.

mod round;

use super::bits::{Bits, VarSet};
use super::geometry::*;
use super::plane::*;
use super::state::{State, cell_mask, cell_masks};

/// What a conclusion does to its candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum ConclusionKind {
    Eliminate,
    Assert,
}

/// Added to the count of a decided variable.
pub const DECIDED: u8 = 100;

/// A resolution state with per-variable counts of live candidates.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    /// The candidates and values (read it; change it through the board).
    pub state: State,
    /// The live candidates of each digit, one bit a cell (the same
    /// candidates as `state.cands`, read by digit).
    planes: [Plane; 9],
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
    /// By space, the values beyond the first of each variable (two values
    /// of one digit in a house, as invalid givens make): each value
    /// decides one variable of each space but these.
    dup: [u8; 4],
}

impl Board {
    /// The board of `state`, its counts computed.
    pub fn new(state: &State) -> Board {
        let mut l = Board {
            state: *state,
            planes: [0; 9],
            count: [0; N_VARS],
            ones: VarSet::EMPTY,
            open: [ALL_HOUSE_BITS; 9],
            empty: 0,
            values: state.values.len() as u32,
            dup: [0; 4],
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
            for (s, v) in CAND_VARS[z].into_iter().enumerate() {
                let n = &mut l.count[usize::from(v)];
                if *n < DECIDED {
                    *n += DECIDED;
                } else {
                    l.dup[s] += 1;
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
    /// out of the variables `VARS` selects (as [`Board::drop_counting`]).
    #[inline(always)]
    fn drop_peers<const VARS: u8>(&mut self, mut cells: u128, d: usize) {
        while cells != 0 {
            let p = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            self.drop_counting::<VARS>(p, d);
        }
    }

    /// Applies a conclusion on candidate `z` when it is live; whether it was.
    #[inline(always)]
    pub fn conclude(&mut self, kind: ConclusionKind, z: usize) -> bool {
        let live = self.state.cands.contains(z);
        if live {
            match kind {
                ConclusionKind::Eliminate => self.drop_cand(z),
                ConclusionKind::Assert => self.assert(z),
            }
        }
        live
    }

    /// The first live candidate of variable `v`, if any (as
    /// [`Board::live_cands`]).
    #[inline]
    pub fn first_live(&self, v: usize) -> Option<usize> {
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
    pub fn live_cands(&self, v: usize) -> ([u16; 9], usize) {
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

    /// The undecided variables with exactly one live candidate.
    #[inline]
    pub fn ones(&self) -> VarSet {
        self.ones
    }

    /// The number of live candidates of undecided variable `v`
    /// ([`DECIDED`] or more for a decided one).
    #[inline]
    pub fn count(&self, v: usize) -> usize {
        usize::from(self.count[v])
    }

    /// The variables of `v`'s space from its first to `v` that have a live
    /// candidate (the nodes a full search of a count plan visits up to
    /// `v`, see `search::pattern::count`).
    #[inline]
    pub fn live_vars_upto(&self, v: usize) -> usize {
        let space = var_space(v);
        let i = v - var(space, 0);
        if self.empty > 0 {
            // Rare (the engine searches no board with an empty variable):
            // each variable looked at.
            return self.count[v - i..=v]
                .iter()
                .filter(|&&n| (1..DECIDED).contains(&n))
                .count();
        }
        // No variable is empty: the live ones are the undecided ones.
        if i == N_CELLS - 1 {
            // Each value decides one variable of each space (but those of
            // `dup`, decided twice).
            return N_CELLS - self.values as usize + usize::from(self.dup[space as usize]);
        }
        if space == Space::Rc {
            let cells = self.planes.iter().fold(0, |m, p| m | p);
            return (cells & ((2 << i) - 1)).count_ones() as usize;
        }
        // A house's digit is undecided where `open` has the house: the
        // houses of the kind before this one, and this one for the digits
        // up to `v`'s.
        let (h, dv) = (9 * (space as usize - 1) + i / 9, i % 9);
        let (before, at) = (HOUSE_BITS_BEFORE[h], 1u128 << house_bit(h));
        let mut n = 0;
        for (d, &open) in self.open.iter().enumerate() {
            let mask = if d <= dv { before | at } else { before };
            n += (open & mask).count_ones();
        }
        n as usize
    }

    /// The live candidates of variable `v`, as a set.
    #[inline]
    pub fn var_cands(&self, v: usize) -> Bits {
        let (zs, n) = self.live_cands(v);
        let mut set = Bits::EMPTY;
        for &z in &zs[..n] {
            set.insert(usize::from(z));
        }
        set
    }

    /// Applies a step's conclusions `zs`, in print order (decreasing), or
    /// (`all` off) only the first, the greatest: a live candidate is
    /// eliminated or asserted as `kind` says, one no longer live is left
    /// alone. Returns how many conclusions the step has.
    pub fn apply(&mut self, kind: ConclusionKind, zs: &Bits, all: bool) -> usize {
        let mut n = 0;
        let mut w = zs.0.len();
        while w > 0 {
            w -= 1;
            let mut bits = zs.0[w];
            while bits != 0 {
                let top = 63 - bits.leading_zeros() as usize;
                bits ^= 1 << top;
                self.conclude(kind, 64 * w + top);
                n += 1;
                if !all {
                    return n;
                }
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_follows_the_state() {
        let mut s = State::empty_grid();
        let mut l = Board::new(&s);
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
        let fresh = Board::new(&s);
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
            assert_eq!(l.var_cands(v), s.var_cands(v), "{v}");
        }
        live_vars_are_counted(&l);
        assert_eq!(l.count, fresh.count);
        assert_eq!(l.ones, fresh.ones);
        assert!(!l.has_empty_var());
        for d in 0..9 {
            l.eliminate(cand(70, d));
        }
        assert!(l.has_empty_var());
        live_vars_are_counted(&l);
        assert_eq!(Board::new(&l.state).empty, 1);
        assert_eq!(l.empty_vars(), l.state.empty_vars());
        assert_eq!(l.empty_vars(), vec![var(Space::Rc, 70)]);
    }

    /// The live variables up to each variable, counted by the board, are
    /// those the state has.
    fn live_vars_are_counted(b: &Board) {
        let s = &b.state;
        for v in 0..N_VARS {
            let base = var(var_space(v), 0);
            let live = (base..=v)
                .filter(|&w| !s.is_decided(w) && !s.var_cands(w).is_empty())
                .count();
            assert_eq!(b.live_vars_upto(v), live, "{v}");
        }
    }

    /// So are they after invalid givens (two 1s in a row, two 2s in a
    /// column, two 3s in a block).
    #[test]
    fn live_vars_are_counted_after_invalid_givens() {
        let mut givens = [0u8; 81];
        for (c, d) in [(0, 1), (5, 1), (10, 2), (73, 2), (30, 3), (50, 3), (40, 4)] {
            givens[c] = d;
        }
        let mut b = Board::new(&State::from_givens(&givens));
        assert_eq!(b.dup, [0, 1, 1, 1]);
        live_vars_are_counted(&b);
        let z = b.state.cands.min().unwrap();
        b.assert(z);
        live_vars_are_counted(&b);
    }

    /// A step's conclusions are applied greatest first, all of them or
    /// the greatest only, and one no longer live is left alone.
    #[test]
    fn conclusions_are_applied_in_print_order() {
        let s = State::empty_grid();
        let zs = Bits::from_indices([cand(0, 0), cand(0, 4), cand(3, 4)]);
        let mut b = Board::new(&s);
        assert_eq!(b.apply(ConclusionKind::Assert, &zs, false), 1);
        assert!(b.state.values.contains(cand(3, 4)));
        assert_eq!(b.state.values.len(), 1);
        let mut b = Board::new(&s);
        // n5r1c4 goes first: then n5r1c1 is no longer live (same row and
        // digit), n1r1c1 still is.
        assert_eq!(b.apply(ConclusionKind::Assert, &zs, true), 3);
        assert_eq!(b.state.values, Bits::from_indices([cand(0, 0), cand(3, 4)]));
        let mut e = Board::new(&s);
        assert_eq!(e.apply(ConclusionKind::Eliminate, &zs, true), 3);
        assert_eq!(e.state.cands, s.cands.minus(&zs));
    }
}
