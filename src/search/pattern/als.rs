//! The ALS generator (`let A: als [size N [to M]] [in P]`, an
//! [`Instr::Als`](super::Instr)): the almost locked sets of a state, the
//! building block of ALS-XZ, ALS-XY-Wing, Death Blossom and ALS chains.
//!
//! An almost locked set is N undecided cells of one house whose live
//! candidates are N + 1 digits (N ≥ 1: a bivalue cell is one). Decided
//! cells never belong, nor do cells left with no candidate. Each set of
//! cells is one ALS, however many houses hold it: a set in a row and a
//! block (or a column and a block; a single cell in all three) is found in
//! its first house in the order rows, columns, blocks, and not again.
//!
//! The state's ALSs, of every size 1 to [`MAX_ALS`], are listed once per
//! state ([`AlsCache`], kept in the search context's [`Scratch`] and
//! computed again only when the candidates change): each house's subsets
//! with their digits, 27 × 511 at most, the digits of a subset being
//! those of the subset less its lowest cell with that cell's. The list is
//! in increasing size, then in the order of the house the ALS is found
//! in, then of the subset's cells in the house (as a bitmask of the
//! house's positions, increasing). The generator's step (`run_als`, in
//! `run`) walks the list's range
//! of its sizes and binds its slot to each ALS whose cells lie in its
//! domain and whose digits include its `holding` digits: both are
//! evaluated once per binding of the generators before it, and the test
//! is two word operations per ALS.
//!
//! [`Scratch`]: super::run::Scratch

use super::ir::MAX_ALS;
use crate::grid::bits::Bits;
use crate::grid::geometry::{HOUSE_CELLS, N_HOUSES, cell_col, cell_row};
use crate::grid::state::{State, cell_masks};
use std::rc::Rc;

/// One almost locked set: its cells (bit `c` for cell `c`) and digits
/// (bit `d` for digit `d + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlsSet {
    pub cells: u128,
    pub digits: u16,
    /// The cells as the matcher's set of cells.
    pub set: Bits,
}

/// The ALSs of the last state asked about ([`AlsCache::of`]).
#[derive(Debug, Default)]
pub struct AlsCache {
    cands: Option<Bits>,
    list: Rc<AlsList>,
}

/// A state's ALSs in the generator's order, and where each size begins.
#[derive(Debug, Default)]
pub struct AlsList {
    pub sets: Vec<AlsSet>,
    /// `sets[start[n]..start[n + 1]]` are the ALSs of `n` cells.
    pub start: [usize; MAX_ALS + 2],
}

impl AlsList {
    /// The ALSs of `min` to `max` cells (1 ≤ min ≤ max ≤ [`MAX_ALS`]).
    pub fn sized(&self, min: usize, max: usize) -> &[AlsSet] {
        &self.sets[self.start[min]..self.start[max + 1]]
    }
}

impl AlsCache {
    /// The ALSs of `state`, listed when its candidates are not those of
    /// the state asked about last.
    pub fn of(&mut self, state: &State) -> Rc<AlsList> {
        if self.cands != Some(state.cands) {
            self.cands = Some(state.cands);
            self.list = Rc::new(als_list(state));
        }
        Rc::clone(&self.list)
    }
}

/// Every ALS of `state` (see the module documentation).
pub fn als_list(state: &State) -> AlsList {
    let masks = cell_masks(&state.cands);
    let mut by_size: [Vec<AlsSet>; MAX_ALS + 1] = Default::default();
    for h in 0..N_HOUSES {
        let kind = h / 9;
        // The house's cells with a live candidate (decided cells have none).
        let mut cells = [0usize; 9];
        let mut n = 0;
        for &c in &HOUSE_CELLS[h] {
            if masks[c] != 0 {
                cells[n] = c;
                n += 1;
            }
        }
        // A locked house of n cells holds n digits: an ALS has n - 1 cells
        // at most.
        if n < 2 {
            continue;
        }
        let mut digits = [0u16; 512];
        for m in 1usize..1 << n {
            let low = m.trailing_zeros() as usize;
            digits[m] = digits[m & (m - 1)] | masks[cells[low]];
            let size = m.count_ones() as usize;
            if size > MAX_ALS || digits[m].count_ones() as usize != size + 1 {
                continue;
            }
            let mut set = 0u128;
            let (mut rows, mut cols) = (0u16, 0u16);
            for (i, &c) in cells[..n].iter().enumerate() {
                if m >> i & 1 != 0 {
                    set |= 1 << c;
                    rows |= 1 << cell_row(c);
                    cols |= 1 << cell_col(c);
                }
            }
            // Found in an earlier house: a column's set in one row (one
            // cell), a block's in one row or one column.
            let earlier = match kind {
                0 => false,
                1 => rows.count_ones() == 1,
                _ => rows.count_ones() == 1 || cols.count_ones() == 1,
            };
            if earlier {
                continue;
            }
            by_size[size].push(AlsSet {
                cells: set,
                digits: digits[m],
                set: Bits::from_indices((0..81).filter(|&c| set >> c & 1 != 0)),
            });
        }
    }
    let mut list = AlsList::default();
    for (n, sets) in by_size.iter_mut().enumerate().skip(1) {
        list.start[n] = list.sets.len();
        list.sets.append(sets);
    }
    list.start[0] = 0;
    list.start[MAX_ALS + 1] = list.sets.len();
    list
}

/// The cells of a set of cells (bits 0 to 80 of the matcher's set) as one
/// word.
#[inline]
pub(super) fn cell_word(b: &Bits) -> u128 {
    (b.0[0] as u128 | (b.0[1] as u128) << 64) & ((1 << 81) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_grid_has_only_the_eight_cell_sets() {
        let list = als_list(&State::empty_grid());
        // Eight of a house's nine cells hold nine digits: 9 per house, 27
        // houses, none in two houses.
        assert_eq!(list.sized(1, 7).len(), 0);
        assert_eq!(list.sized(8, 8).len(), 27 * 9);
    }

    #[test]
    fn a_bivalue_cell_is_one_als_and_a_pair_in_a_row_and_block_is_found_once() {
        // r1c1 {1,2}, r1c2 {1,3}: the cells are in row 1 and block 1.
        let mut masks = [0x1FFu16; 81];
        masks[0] = 0b011;
        masks[1] = 0b101;
        let state = State::from_masks(&masks, &[0; 81]);
        let list = als_list(&state);
        let ones = list.sized(1, 1);
        assert_eq!(ones.len(), 2);
        assert_eq!((ones[0].cells, ones[1].cells), (0b01, 0b10));
        let pairs: Vec<_> = list
            .sized(2, 2)
            .iter()
            .filter(|s| s.cells == 0b11)
            .collect();
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].digits, 0b111);
    }
}
