//! The oracle's board.
//!
//! The grid is split into three horizontal *bands* of 27 cells (three rows of
//! nine).  For every band and every digit the state keeps a 27-bit mask of the
//! cells of the band where the digit is still possible; bit `9 * r + c` stands
//! for row `r` of the band and column `c`.  The 27 masks sit in 40 entries
//! of 32 bits: digit `d` of band `b` is entry `4 * d + b`; entries
//! `4 * d + 3` and the last four (a tenth digit) are padding and stay zero.
//! Loaded as vectors of four lanes, vector `d` is digit `d` (lanes 0-2: its
//! three bands); as vectors of eight lanes, vector `j` is digits `2j` and
//! `2j + 1` (lanes 0-2 and 4-6), five vectors in all.  Either way the three
//! bands of a digit sit in lanes 0-2 of one half of a vector, so a rotation
//! inside the half moves a digit from band to band.
//!
//! A cell is *solved* when it has one candidate left; a solved digit stays in
//! its mask as a single bit.  "Every house contains every digit at least once"
//! and "no cell is empty" stay valid consistency tests during the whole
//! search, and a state in which every cell is solved and they hold is a
//! solution (81 cells, nine per row, each row holding all nine digits).

use super::lanes::Lanes;

/// All 27 cells of a band.
pub(super) const BAND_ALL: u32 = (1 << 27) - 1;
/// The nine cells of one row inside a band (or nine columns).
pub(super) const ROW: u32 = 0x1FF;
/// The first cell of each mini-row: bits `9 * r + 3 * k`.
pub(super) const MINI: u32 = 0x124_9249;
/// The first cell of each row (mini-rows of box 0): bits `9 * r`.
pub(super) const BOX0: u32 = 0x4_0201;
/// Mini-rows of box 1 and of box 2 (first cells).
pub(super) const BOX1: u32 = BOX0 << 3;
pub(super) const BOX2: u32 = BOX0 << 6;
/// The cells of box 0 of a band; times a flag at bit `3 * k`, box `k`.
pub(super) const BOX_CELLS: u32 = 0x1C_0E07;
/// The three cells of column 0 in a band; times a column set, those columns.
pub(super) const COLUMN_CELLS: u32 = 0x4_0201;

/// Entries of the board: nine digits of four lanes, and a tenth digit of
/// padding (so that five vectors of eight lanes cover the board).
pub(super) const ENTRIES: usize = 40;

/// The nine digits, one bit each.
pub(super) const ALL_DIGITS: u32 = 0x1FF;

/// The entries that hold a band of a digit (all ones); padding zero.
pub(super) const REAL: [u32; ENTRIES] = {
    let mut t = [0; ENTRIES];
    let mut k = 0;
    while k < 36 {
        if k % 4 < 3 {
            t[k] = !0;
        }
        k += 1;
    }
    t
};
/// The entries that hold a band of a digit, all their cells.
pub(super) const FULL: [u32; ENTRIES] = {
    let mut t = REAL;
    let mut k = 0;
    while k < ENTRIES {
        t[k] &= BAND_ALL;
        k += 1;
    }
    t
};

/// The oracle's board: candidates of the whole grid as per-band digit
/// bitboards (not the engine's [`crate::grid::state::State`]).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(super) struct Board {
    /// Digit `d` of band `b` is entry `4 * d + b`.
    pub(super) v: [u32; ENTRIES],
}

impl Board {
    /// Builds the initial state; `None` when some cell has no candidate.
    pub(super) fn from_masks(masks: &[u16; 81]) -> Option<Board> {
        let mut board = Board { v: FULL };
        for (b, band) in masks.chunks_exact(27).enumerate() {
            for (i, &m) in band.iter().enumerate() {
                let m = m & 0x1FF;
                if m == 0x1FF {
                    continue;
                }
                if m == 0 {
                    return None;
                }
                let mut absent = !m & 0x1FF;
                while absent != 0 {
                    let d = absent.trailing_zeros() as usize;
                    absent &= absent - 1;
                    *board.mask_mut(d, b) &= !(1 << i);
                }
            }
        }
        Some(board)
    }

    /// The board as vectors: the first `L::COUNT`, the others zero.
    #[inline(always)]
    pub(super) fn vectors<L: Lanes>(&self) -> [L; 9] {
        let mut v = [L::splat(0); 9];
        for (j, v) in v.iter_mut().enumerate().take(L::COUNT) {
            *v = L::load(&self.v[L::WIDTH * j..]);
        }
        v
    }

    /// Writes the first `L::COUNT` vectors back.
    #[inline(always)]
    pub(super) fn set_vectors<L: Lanes>(&mut self, v: &[L; 9]) {
        for (j, v) in v.iter().enumerate().take(L::COUNT) {
            v.store(&mut self.v[L::WIDTH * j..]);
        }
    }

    /// The cells of band `b` where digit `d` is possible.
    #[inline(always)]
    pub(super) fn mask(&self, d: usize, b: usize) -> u32 {
        self.v[4 * d + b]
    }

    #[inline(always)]
    pub(super) fn mask_mut(&mut self, d: usize, b: usize) -> &mut u32 {
        &mut self.v[4 * d + b]
    }

    /// Digits possible in cell `i` of band `b`, digit `d` as bit `4 * d`.
    #[inline(always)]
    pub(super) fn cell_digits<L: Lanes>(v: &[L; 9], b: usize, i: u32) -> u64 {
        let mut m = 0u64;
        for (j, x) in v.iter().enumerate().take(L::COUNT) {
            m |= (x.bits_at(i) as u64) << (L::WIDTH * j);
        }
        (m >> b) & 0x1_1111_1111
    }

    /// Places digit `d` in cell `i` of band `b`: every other digit leaves the
    /// cell (the next sweep does the rest).  Returns the digits (bit `d`)
    /// that changed: `d` and those that left the cell.
    #[inline(always)]
    pub(super) fn assign(&mut self, d: usize, b: usize, i: u32) -> u32 {
        let mut changed = 1 << d;
        for e in 0..9 {
            let m = self.mask_mut(e, b);
            changed |= ((*m >> i) & 1) << e;
            if e != d {
                *m &= !(1 << i);
            }
        }
        changed
    }

    /// Removes digit `d` from cell `i` of band `b`; returns the digit as a
    /// change (bit `d`).
    #[inline(always)]
    pub(super) fn eliminate(&mut self, d: usize, b: usize, i: u32) -> u32 {
        *self.mask_mut(d, b) &= !(1 << i);
        1 << d
    }

    /// The solved grid; requires every cell to be solved.
    pub(super) fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for b in 0..3 {
            for d in 0..9 {
                let mut x = self.mask(d, b);
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    g[27 * b + i] = d as u8 + 1;
                }
            }
        }
        g
    }
}
