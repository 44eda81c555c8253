//! Propagation in sweeps of vector operations.
//!
//!
//! One sweep, on all 27 masks at once:
//!
//! 1. **Naked singles.**  A bit-sliced count over the ten half-vectors (two
//!    levels, "one or more" and "two or more") gives, for each band, the empty
//!    cells (contradiction) and the solved ones.  Each digit's solved cells
//!    clear the digit from their row and box (spread inside the lane) and from
//!    their column (lanes 0-2 of a half-vector rotated).
//! 2. **Band filter.**  Inside one band a digit occupies exactly one cell per
//!    row and one per box, so the three (row, box) pairs it uses form a
//!    permutation of the 3×3 grid of *mini-rows* (the three cells a row shares
//!    with a box).  From the nine "mini-row not empty" flags, mini-row (r, k)
//!    is kept when the two other rows and the two other boxes still hold a
//!    permutation of theirs: a 2×2 permanent of rotated flags, computed with
//!    shifts.  This performs the box/line interactions (pointing and claiming)
//!    inside the band; a digit with no permutation left (zero flags kept) is a
//!    contradiction.
//! 3. **Hidden singles.**  A row of a band with one cell left for a digit
//!    (counted per mini-row, then across the three mini-rows), and a column
//!    with one cell left (counted in each band, then across the three lanes of
//!    the digit), place the digit: the cell is cleared from every other
//!    digit.  A box with one cell left is turned into such a row by step 2, so
//!    box hidden singles need no step of their own.  A column with no cell
//!    left is a contradiction.
//!
//! Besides an empty cell, a digit left without a permutation in a band and
//! a column left without a digit, a sweep checks what placing conclusions
//! one at a time would have met: two solved cells of one digit in one
//! mini-row, or in one column of two bands (two in one row and two boxes,
//! or in one box and two rows, leave the band filter no permutation), and
//! two hidden singles placed in one cell.  Each is a contradiction.
//!
//! Sweeps repeat until one places no hidden single and leaves no new solved
//! cell: the next one would change nothing (the band filter keeps what it
//! keeps).  The fixpoint is that of the same rules applied one conclusion
//! at a time, so the search tree is the one such a solver explores.
//!
//! Each step of a sweep is written for the five vectors in turn, so that
//! five independent chains of operations stand side by side in the
//! instruction stream; written vector after vector, the chains are too long
//! for the CPU to overlap more than two, and a sweep takes a third longer.

use super::Status;
use super::board::*;
use super::lanes::Lanes;

/// Rows of a band rotated: row `r` gets row `r + 1` (bits above 26 are
/// garbage, removed by the caller's mask).
#[inline(always)]
pub(super) fn next_row<L: Lanes>(x: L) -> L {
    x.shr::<9>().or(x.shl::<18>())
}

/// `[e(0), e(1), e(2), e(3), e(4)]`: an expression of `j` for each of the
/// board's five vectors, written out (no closure: everything stays inlined
/// into the function compiled for the instruction set).
macro_rules! each {
    ($j:ident => $e:expr) => {
        [
            {
                let $j = 0;
                $e
            },
            {
                let $j = 1;
                $e
            },
            {
                let $j = 2;
                $e
            },
            {
                let $j = 3;
                $e
            },
            {
                let $j = 4;
                $e
            },
        ]
    };
}

/// `L::splat`, short.
#[inline(always)]
pub(super) fn c<L: Lanes>(x: u32) -> L {
    L::splat(x)
}

/// Per band lane (0-2, 4-6): the cells with one candidate; `None` when some
/// cell has none.  `full` holds all cells in those lanes.
#[inline(always)]
pub(super) fn solved_cells<L: Lanes>(v: &[L; 5], full: L) -> Option<L> {
    let mut ones = L::splat(0);
    let mut twos = L::splat(0);
    for &x in v {
        twos = twos.or(ones.and(x));
        ones = ones.or(x);
    }
    let (o, t) = (ones.swap_halves(), twos.swap_halves());
    let twos = twos.or(t).or(ones.and(o));
    let ones = ones.or(o);
    if full.and_not(ones).any() {
        None
    } else {
        Some(ones.and_not(twos))
    }
}

impl Board {
    /// Sweeps until nothing changes.
    #[inline(always)]
    pub(super) fn propagate<L: Lanes>(&mut self) -> Status {
        let mut v = [L::splat(0); 5];
        for (v, a) in v.iter_mut().zip(&self.v) {
            *v = L::load(a);
        }
        let full = L::load(&FULL_BANDS);
        let Some(mut solved) = solved_cells(&v, full) else {
            return Status::Contradiction;
        };
        let status = loop {
            // Each step is written for the five vectors in turn (`each!`),
            // so that five independent chains of operations sit side by
            // side for the CPU.
            // 1. Solved cells clear their digit from their peers.
            let p = each!(j => v[j].and(solved));
            let (p1, p2) = (each!(j => p[j].shr::<1>()), each!(j => p[j].shr::<2>()));
            let pm = each!(j => p[j].or(p1[j]).or(p2[j]).and(c(MINI)));
            let rows = each!(j => pm[j].or(pm[j].shr::<3>()).or(pm[j].shr::<6>()).and(c(BOX0)));
            let boxes = each!(j => pm[j].or(pm[j].shr::<9>()).or(pm[j].shr::<18>()).and(c(0x49)));
            let cols = each!(j => p[j].or(p[j].shr::<9>()).or(p[j].shr::<18>()).and(c(ROW)));
            // Two solved cells of a digit in one mini-row, or in one column
            // of two bands, contradict each other.  (Two in one row and two
            // boxes, or in one box and two rows, leave the band filter below
            // no permutation.)
            let clash = each!(j => {
                let twin = p[j].and(p1[j].or(p2[j])).or(p1[j].and(p2[j])).and(c(MINI));
                twin.or(cols[j].and(cols[j].next_band())).and(L::load(&REAL[j]))
            });
            let cols = each!(j => cols[j].or(cols[j].next_band()).or(cols[j].prev_band()));
            let x = each!(j => {
                let peers = rows[j]
                    .mul(c(ROW))
                    .or(boxes[j].mul(c(BOX_CELLS)))
                    .or(cols[j].mul(c(COLUMN_CELLS)));
                v[j].and_not(peers).or(p[j])
            });
            // 2. Band filter.
            let x1 = each!(j => x[j].shr::<1>());
            let x2 = each!(j => x[j].shr::<2>());
            let f = each!(j => x[j].or(x1[j]).or(x2[j]).and(c(MINI)));
            let t = each!(j => x[j].and(x1[j].or(x2[j])).or(x1[j].and(x2[j])).and(c(MINI)));
            let c1 =
                each!(j => f[j].shr::<3>().and(c(BOX0 | BOX1)).or(f[j].shl::<6>().and(c(BOX2))));
            let c2 =
                each!(j => f[j].shr::<6>().and(c(BOX0)).or(f[j].shl::<3>().and(c(BOX1 | BOX2))));
            let a = each!(j => {
                let minor = c1[j].and(next_row(c2[j])).or(c2[j].and(next_row(c1[j])));
                f[j].and(next_row(minor))
            });
            let bad = each!(j => a[j].is_zero().and(L::load(&REAL[j])).or(clash[j]));
            let x = each!(j => x[j].and(a[j].mul(c(7))));
            // 3. Hidden singles in rows ...
            let single_rows = each!(j => {
                let t = t[j].and(a[j]);
                let (a3, a6) = (a[j].shr::<3>(), a[j].shr::<6>());
                let more = t
                    .or(t.shr::<3>())
                    .or(t.shr::<6>())
                    .or(a[j].and(a3.or(a6)))
                    .or(a3.and(a6));
                a[j].or(a3).or(a6).and_not(more).and(c(BOX0))
            });
            // ... and in columns.
            let co = each!(j => x[j].or(x[j].shr::<9>()).or(x[j].shr::<18>()).and(c(ROW)));
            let ct = each!(j => {
                let (y1, y2) = (x[j].shr::<9>(), x[j].shr::<18>());
                x[j].and(y1.or(y2)).or(y1.and(y2)).and(c(ROW))
            });
            let any = each!(j => co[j].or(co[j].next_band()).or(co[j].prev_band()));
            let single_cols = each!(j => {
                let (o1, o2) = (co[j].next_band(), co[j].prev_band());
                let more = ct[j]
                    .or(ct[j].next_band())
                    .or(ct[j].prev_band())
                    .or(co[j].and(o1.or(o2)))
                    .or(o1.and(o2));
                any[j].and_not(more)
            });
            let bad = each!(j => bad[j].or(any[j].xor(c(ROW)).and(L::load(&REAL[j]))));
            let hidden = each!(j => x[j].and(
                single_rows[j].mul(c(ROW)).or(single_cols[j].mul(c(COLUMN_CELLS))),
            ));
            let next = x;
            let bad = bad[0].or(bad[1]).or(bad[2]).or(bad[3]).or(bad[4]);
            // Cells placed by a hidden single, and cells placed by two (a
            // contradiction), per band lane.
            let mut placed = L::splat(0);
            let mut twice = L::splat(0);
            for h in hidden {
                twice = twice.or(placed.and(h));
                placed = placed.or(h);
            }
            let (o, t) = (placed.swap_halves(), twice.swap_halves());
            let bad = bad.or(twice).or(t).or(placed.and(o));
            let placed = placed.or(o);
            // What placing the hidden singles removed.
            let mut removed = L::splat(0);
            for j in 0..5 {
                removed = removed.or(next[j].and(placed.and_not(hidden[j])));
                v[j] = next[j].and_not(placed.and_not(hidden[j]));
            }
            if bad.any() {
                break Status::Contradiction;
            }
            let Some(now) = solved_cells(&v, full) else {
                break Status::Contradiction;
            };
            // Nothing placed and no new solved cell: the next sweep would
            // change nothing (the band filter keeps what it keeps).
            if !removed.or(now.xor(solved)).any() {
                break if full.and_not(now).any() {
                    Status::Open
                } else {
                    Status::Solved
                };
            }
            solved = now;
        };
        for (v, a) in v.iter().zip(&mut self.v) {
            v.store(a);
        }
        status
    }
}
