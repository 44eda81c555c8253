//! Candidate sets of the static geometry, derived once at start-up
//! ([`LazyLock`]) from [`super::geometry`]'s functions: each variable's,
//! cell's, house's and digit's candidates, and each cell's peers and
//! houses as sets. The bitset type ([`Bits`]) sits below this module and
//! above the indices.

use super::bits::Bits;
use super::geometry::*;
use std::sync::LazyLock;

/// Precomputed candidate sets of the static geometry.
pub struct Tables {
    /// All candidates of each CSP variable.
    pub var: Vec<Bits>,
    /// All candidates of each cell.
    pub cell: Vec<Bits>,
    /// All candidates of each house (81 each).
    pub house: Vec<Bits>,
    /// All candidates of each digit (81 each).
    pub digit: Vec<Bits>,
}

pub static TABLES: LazyLock<Tables> = LazyLock::new(|| Tables {
    var: (0..N_VARS)
        .map(|v| Bits::from_indices(var_cands(v)))
        .collect(),
    cell: (0..N_CELLS)
        .map(|c| Bits::from_indices((0..9).map(|d| cand(c, d))))
        .collect(),
    house: (0..N_HOUSES)
        .map(|h| {
            Bits::from_indices(
                house_cells(h)
                    .into_iter()
                    .flat_map(|c| (0..9).map(move |d| cand(c, d))),
            )
        })
        .collect(),
    digit: (0..9)
        .map(|d| Bits::from_indices((0..N_CELLS).map(|c| cand(c, d))))
        .collect(),
});

// Tables of cells and houses that the pattern matcher reads in its inner
// loops, derived from the definitions above ([`cell_houses`],
// [`house_cells`]).

/// Each cell's 20 peers (the other cells of its row, column and block).
pub static CELL_PEERS: LazyLock<Vec<Bits>> = LazyLock::new(|| {
    (0..N_CELLS)
        .map(|c| {
            let mut b = Bits::EMPTY;
            for h in cell_houses(c) {
                for x in house_cells(h) {
                    b.insert(x);
                }
            }
            b.remove(c);
            b
        })
        .collect()
});

/// Each cell's three houses as bits of one word (bit `h` for house `h`).
pub static CELL_HOUSE_BITS: LazyLock<[u64; N_CELLS]> =
    LazyLock::new(|| std::array::from_fn(|c| cell_houses(c).iter().fold(0, |a, &h| a | 1 << h)));

#[cfg(test)]
mod tests {
    use super::*;

    /// The constant and lazy tables of cells and houses agree with the
    /// definitions they are derived from.
    #[test]
    fn cell_and_house_tables() {
        use crate::grid::plane::HOUSE81;
        for (h, cells) in HOUSE_CELLS.iter().enumerate() {
            assert_eq!(
                HOUSE81[h],
                cells.iter().fold(0, |a, &c| a | 1u128 << c),
                "house {h}"
            );
        }
        for c in 0..N_CELLS {
            assert_eq!(CELL_PEERS[c].len(), 20);
            assert!(!CELL_PEERS[c].contains(c));
            assert_eq!(CELL_HOUSE_BITS[c].count_ones(), 3);
        }
    }
}
