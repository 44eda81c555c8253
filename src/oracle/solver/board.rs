//! The oracle's board.
//!
//! The grid is split into three horizontal *bands* of 27 cells (three rows of
//! nine).  For every band and every digit the state keeps a 27-bit mask of the
//! cells of the band where the digit is still possible; bit `9 * r + c` stands
//! for row `r` of the band and column `c`.  The 27 masks sit in the 32-bit
//! lanes of five vectors of eight lanes: vector `j` holds digit `2j`
//! in lanes 0-2 (bands 0-2) and digit `2j + 1` in lanes 4-6; lanes 3 and 7 and
//! the second half of the last vector (a tenth digit) are padding and stay
//! zero.  So the nine digits of a band are lane `b` of the ten half-vectors,
//! and the three bands of a digit are lanes 0-2 of one half-vector.
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

/// Lanes that hold a digit of a band (all ones), per vector.
pub(super) const REAL: [[u32; 8]; 5] = {
    let mut t = [[0; 8]; 5];
    let mut j = 0;
    while j < 5 {
        let mut l = 0;
        while l < 8 {
            if l % 4 < 3 && 2 * j + l / 4 < 9 {
                t[j][l] = !0;
            }
            l += 1;
        }
        j += 1;
    }
    t
};
/// Band lanes (0-2, 4-6) holding all their cells.
pub(super) const FULL_BANDS: [u32; 8] = [
    BAND_ALL, BAND_ALL, BAND_ALL, 0, BAND_ALL, BAND_ALL, BAND_ALL, 0,
];

/// bitboards (not the engine's [`crate::grid::state::State`]).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(super) struct Board {
    /// Digit `d` of band `b` is lane `4 * (d % 2) + b` of vector `d / 2`.
    pub(super) v: [[u32; 8]; 5],
}

impl Board {
    /// Builds the initial state; `None` when some cell has no candidate.
    pub(super) fn from_masks(masks: &[u16; 81]) -> Option<Board> {
        let mut board = Board { v: REAL };
        for x in board.v.iter_mut().flatten() {
            *x &= BAND_ALL;
        }
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

    /// The cells of band `b` where digit `d` is possible.
    #[inline(always)]
    pub(super) fn mask(&self, d: usize, b: usize) -> u32 {
        self.v[d / 2][4 * (d % 2) + b]
    }

    #[inline(always)]
    pub(super) fn mask_mut(&mut self, d: usize, b: usize) -> &mut u32 {
        &mut self.v[d / 2][4 * (d % 2) + b]
    }

    /// Digits possible in cell `i` of band `b`, digit `d` as bit `4 * d`.
    #[inline(always)]
    pub(super) fn cell_digits<L: Lanes>(v: &[L; 5], b: usize, i: u32) -> u64 {
        let mut m = 0u64;
        for (j, x) in v.iter().enumerate() {
            m |= (x.bits_at(i) as u64) << (8 * j);
        }
        (m >> b) & 0x1_1111_1111
    }

    /// Places digit `d` in cell `i` of band `b`: every other digit leaves the
    /// cell (the next sweep does the rest).
    #[inline(always)]
    pub(super) fn assign(&mut self, d: usize, b: usize, i: u32) {
        for e in 0..9 {
            if e != d {
                *self.mask_mut(e, b) &= !(1 << i);
            }
        }
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
