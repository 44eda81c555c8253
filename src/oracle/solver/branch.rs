//! The branching choice.
//!
//! At a fixpoint with unsolved cells the solver branches on a bivalue cell if
//! there is one (otherwise on a cell with the fewest candidates).  Among the
//! bivalue cells it picks the one maximising the number of peers that lose a
//! candidate in one of the two branches, minus twice the number of unsolved
//! peers with three or more candidates; on hard puzzles this explores several
//! times fewer nodes than taking the first bivalue cell.  Every candidate but
//! the last is tried on a copy of the state, depth first, and then eliminated
//! from the current state; the last one is placed in the current state.  The
//! search stops as soon as the requested number of solutions has been found.

use super::board::*;
use super::lanes::Lanes;

impl Board {
    /// Chooses the branching cell.  Requires an unsolved cell.
    ///
    /// Among the bivalue cells it takes the one maximising "peers that lose
    /// a candidate in either branch" minus twice "unsolved peers with three or
    /// more candidates": placing either digit then eliminates most, in the
    /// most constrained part of the grid.  Without bivalue cells it takes an
    /// unsolved cell with the fewest candidates.
    #[inline(always)]
    pub(super) fn pick<L: Lanes>(&self) -> (usize, u32, u64) {
        let v = self.vectors::<L>();
        let mut ones = L::splat(0);
        let mut twos = L::splat(0);
        let mut threes = L::splat(0);
        for &x in v.iter().take(L::COUNT) {
            threes = threes.or(twos.and(x));
            twos = twos.or(ones.and(x));
            ones = ones.or(x);
        }
        let (o, t, h) = (ones.other_half(), twos.other_half(), threes.other_half());
        let threes = threes.or(h).or(twos.and(o)).or(ones.and(t));
        let twos = twos.or(t).or(ones.and(o));
        let (mut unsolved, mut biv) = ([0u32; 8], [0u32; 8]);
        twos.store(&mut unsolved);
        twos.and_not(threes).store(&mut biv);
        if biv[..3] == [0; 3] {
            return Self::fewest(&v, &unsolved);
        }
        // Unsolved cells holding each digit: digit `d` of band `b` at
        // `4 * d + b`, as in `cell_digits` (64 entries: any index masked
        // with 63 is in bounds).
        let mut du = [0u32; 64];
        for (j, x) in v.iter().enumerate().take(L::COUNT) {
            x.and(twos).store(&mut du[L::WIDTH * j..]);
        }
        let mut rest = [0u32; 4];
        for b in 0..3 {
            rest[b] = unsolved[b] & !biv[b];
        }
        // Per bivalue cell (index `32 * b + i`): its unsolved peers holding
        // each of its two digits, summed digit by digit.
        let mut hits = [0i32; 96];
        for (b, [o1, o2]) in [[1, 2], [0, 2], [0, 1]].into_iter().enumerate() {
            for d in 0..9 {
                let (sb, s1, s2) = (du[4 * d + b], du[4 * d + o1], du[4 * d + o2]);
                let mut m = sb & biv[b];
                while m != 0 {
                    let i = m.trailing_zeros() as usize & 31;
                    m &= m - 1;
                    let (peers, col) = BAND_PEERS[i];
                    let n = ((sb & peers) as u64 | (((s1 & col) | (s2 & col) << 1) as u64) << 32)
                        .count_ones();
                    hits[32 * b + i] += n as i32;
                }
            }
        }
        let mut best = (0, 0);
        let mut best_score = i32::MIN;
        for (b, [o1, o2]) in [[1, 2], [0, 2], [0, 1]].into_iter().enumerate() {
            let mut m = biv[b];
            while m != 0 {
                let i = m.trailing_zeros() as usize & 31;
                m &= m - 1;
                let (peers, col) = BAND_PEERS[i];
                let (sb, s1, s2) = (rest[b & 3], rest[o1 & 3], rest[o2 & 3]);
                let crowded = ((sb & peers) as u64 | (((s1 & col) | (s2 & col) << 1) as u64) << 32)
                    .count_ones() as i32;
                let score = hits[32 * b + i] - 2 * crowded;
                if score > best_score {
                    best_score = score;
                    best = (b, i as u32);
                }
            }
        }
        (best.0, best.1, Self::cell_digits(&v, best.0, best.1))
    }

    /// An unsolved cell with the fewest candidates (the first in cell
    /// order), and its digits.
    #[inline(always)]
    pub(super) fn fewest<L: Lanes>(v: &[L; 9], unsolved: &[u32; 8]) -> (usize, u32, u64) {
        let mut best = (0, 0, 0);
        let mut best_count = u32::MAX;
        for (b, &u) in unsolved[..3].iter().enumerate() {
            let mut u = u;
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let digits = Self::cell_digits(v, b, i);
                let n = digits.count_ones();
                if n < best_count {
                    best_count = n;
                    best = (b, i, digits);
                }
            }
        }
        best
    }
}

/// For each band cell (32 entries: any index masked with 31 is in bounds):
/// its row and box peers inside its band (the cell excluded), and the cells
/// of its column in a band.
pub(super) static BAND_PEERS: [(u32, u32); 32] = {
    let mut t = [(0, 0); 32];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let peers = ((ROW << (9 * r)) | (BOX_CELLS << (c / 3 * 3))) & !(1 << i);
        t[i] = (peers, COLUMN_CELLS << c);
        i += 1;
    }
    t
};
