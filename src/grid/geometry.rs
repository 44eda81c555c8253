//! Static grid geometry: candidates, cells, houses and the 324 CSP variables.
//!
//! Indices (all 0-based inside the library, printed 1-based):
//! - digit `d` in `0..9`, row `r`, column `c`, block `b`, square `s` in `0..9`;
//! - cell `r * 9 + c` in `0..81`;
//! - candidate `cell * 9 + d` in `0..729` (Berthier's `nXrYcZ`);
//! - house in `0..27`: rows `0..9`, columns `9..18`, blocks `18..27`;
//! - CSP variable `space * 81 + i` in `0..324`, where space is
//!   [`Space::Rc`] (`i` = cell), [`Space::Rn`] (`i = r*9+d`),
//!   [`Space::Cn`] (`i = c*9+d`) or [`Space::Bn`] (`i = b*9+d`).
//!
//! Every candidate belongs to exactly one variable of each space. The tables
//! here are computed once ([`LazyLock`]) and shared by everything else.

use crate::grid::bits::Bits;
use std::sync::LazyLock;

pub const N_CANDS: usize = 729;
pub const N_CELLS: usize = 81;
pub const N_HOUSES: usize = 27;
pub const N_VARS: usize = 324;

/// One of the four 2D spaces of CSP variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    Rc = 0,
    Rn = 1,
    Cn = 2,
    Bn = 3,
}

impl Space {
    pub const ALL: [Space; 4] = [Space::Rc, Space::Rn, Space::Cn, Space::Bn];

    pub fn name(self) -> &'static str {
        match self {
            Space::Rc => "rc",
            Space::Rn => "rn",
            Space::Cn => "cn",
            Space::Bn => "bn",
        }
    }

    pub fn from_name(s: &str) -> Option<Space> {
        Space::ALL.into_iter().find(|sp| sp.name() == s)
    }
}

/// The kind of a house.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HouseKind {
    Row,
    Column,
    Block,
}

impl HouseKind {
    pub fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Block => "block",
        }
    }
}

#[inline]
pub fn cand(cell: usize, digit: usize) -> usize {
    cell * 9 + digit
}
#[inline]
pub fn cand_cell(c: usize) -> usize {
    c / 9
}
#[inline]
pub fn cand_digit(c: usize) -> usize {
    c % 9
}
#[inline]
pub fn cell(row: usize, col: usize) -> usize {
    row * 9 + col
}
#[inline]
pub const fn cell_row(cell: usize) -> usize {
    cell / 9
}
#[inline]
pub const fn cell_col(cell: usize) -> usize {
    cell % 9
}
#[inline]
pub const fn cell_block(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}
/// Position of a cell inside its block, `0..9`.
#[inline]
pub fn cell_square(cell: usize) -> usize {
    ((cell / 9) % 3) * 3 + cell % 3
}
/// The cell at square `s` of block `b`.
#[inline]
pub fn block_cell(b: usize, s: usize) -> usize {
    cell((b / 3) * 3 + s / 3, (b % 3) * 3 + s % 3)
}

pub fn house_kind(h: usize) -> HouseKind {
    match h / 9 {
        0 => HouseKind::Row,
        1 => HouseKind::Column,
        _ => HouseKind::Block,
    }
}

/// The nine cells of house `h`, in increasing order.
pub fn house_cells(h: usize) -> [usize; 9] {
    let i = h % 9;
    std::array::from_fn(|k| match house_kind(h) {
        HouseKind::Row => cell(i, k),
        HouseKind::Column => cell(k, i),
        HouseKind::Block => block_cell(i, k),
    })
}

/// The nine cells of each house, as [`house_cells`].
pub static HOUSE_CELLS: LazyLock<[[usize; 9]; N_HOUSES]> =
    LazyLock::new(|| std::array::from_fn(house_cells));

/// The three houses of a cell: row, column, block (as house indices).
pub const fn cell_houses(c: usize) -> [usize; 3] {
    [cell_row(c), 9 + cell_col(c), 18 + cell_block(c)]
}

#[inline]
pub fn var(space: Space, i: usize) -> usize {
    space as usize * 81 + i
}
#[inline]
pub fn var_space(v: usize) -> Space {
    Space::ALL[v / 81]
}

/// The four CSP variables of a candidate, in space order rc, rn, cn, bn.
#[inline]
pub fn cand_vars(z: usize) -> [usize; 4] {
    let c = cand_cell(z);
    let d = cand_digit(z);
    [
        var(Space::Rc, c),
        var(Space::Rn, cell_row(c) * 9 + d),
        var(Space::Cn, cell_col(c) * 9 + d),
        var(Space::Bn, cell_block(c) * 9 + d),
    ]
}

/// The nine candidates of a CSP variable, in increasing order.
pub fn var_cands(v: usize) -> [usize; 9] {
    let i = v % 81;
    std::array::from_fn(|k| match var_space(v) {
        Space::Rc => cand(i, k),
        Space::Rn => cand(cell(i / 9, k), i % 9),
        Space::Cn => cand(cell(k, i / 9), i % 9),
        Space::Bn => cand(block_cell(i / 9, k), i % 9),
    })
}

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

/// `n5r1c2` style name of a candidate.
pub fn cand_name(z: usize) -> String {
    let c = cand_cell(z);
    format!(
        "n{}r{}c{}",
        cand_digit(z) + 1,
        cell_row(c) + 1,
        cell_col(c) + 1
    )
}

/// `r1c2` style name of a cell.
pub fn cell_name(c: usize) -> String {
    format!("r{}c{}", cell_row(c) + 1, cell_col(c) + 1)
}

/// `r3`, `c5`, `b7` style name of a house.
pub fn house_name(h: usize) -> String {
    let p = match house_kind(h) {
        HouseKind::Row => 'r',
        HouseKind::Column => 'c',
        HouseKind::Block => 'b',
    };
    format!("{}{}", p, h % 9 + 1)
}

/// `r1c2`, `r4n7`, `c3n1`, `b9n2` style name of a CSP variable.
pub fn var_name(v: usize) -> String {
    let i = v % 81;
    match var_space(v) {
        Space::Rc => cell_name(i),
        Space::Rn => format!("r{}n{}", i / 9 + 1, i % 9 + 1),
        Space::Cn => format!("c{}n{}", i / 9 + 1, i % 9 + 1),
        Space::Bn => format!("b{}n{}", i / 9 + 1, i % 9 + 1),
    }
}

/// How a candidate is written inside the braces of a variable of `space`:
/// `n5` in a cell, `c3` in a row/digit, `r7` in a column/digit, `r7c3` in a
/// block/digit (as SudoRules prints them).
pub fn cand_in_var(space: Space, z: usize) -> String {
    let c = cand_cell(z);
    match space {
        Space::Rc => format!("n{}", cand_digit(z) + 1),
        Space::Rn => format!("c{}", cell_col(c) + 1),
        Space::Cn => format!("r{}", cell_row(c) + 1),
        Space::Bn => cell_name(c),
    }
}

// Cells as 81-bit masks (bit `c` of a `u128` for cell `c`): tables
// computed at compile time from the definitions above, plain statics
// because hot loops read them.

/// The cells of each house, as an 81-bit mask.
pub static HOUSE81: [u128; N_HOUSES] = {
    let mut t = [0u128; N_HOUSES];
    let mut c = 0;
    while c < N_CELLS {
        let hs = cell_houses(c);
        let mut k = 0;
        while k < 3 {
            t[hs[k]] |= 1 << c;
            k += 1;
        }
        c += 1;
    }
    t
};

/// The peers of each cell (the cells that share a house with it, the cell
/// excluded), as an 81-bit mask.
pub static PEERS81: [u128; N_CELLS] = {
    let mut t = [0u128; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let [r, k, b] = cell_houses(c);
        t[c] = (HOUSE81[r] | HOUSE81[k] | HOUSE81[b]) & !(1 << c);
        c += 1;
    }
    t
};

/// The houses of each cell in the order block, row, column (the order in
/// which Sudoku Explainer's chains read a cell's houses), each as (its
/// cells as an 81-bit mask, the house).
pub static HOUSES81_BRC: [[(u128, u8); 3]; N_CELLS] = {
    let mut t = [[(0u128, 0u8); 3]; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let [r, k, b] = cell_houses(c);
        t[c] = [
            (HOUSE81[b], b as u8),
            (HOUSE81[r], r as u8),
            (HOUSE81[k], k as u8),
        ];
        c += 1;
    }
    t
};

/// The peers of each cell by house, in the order of [`HOUSES81_BRC`],
/// each peer with the first house that holds it: (its block's other cells,
/// its row's cells outside the block, its column's cells outside the
/// block), each as (an 81-bit mask, the house).
pub static PEERS81_BRC: [[(u128, u8); 3]; N_CELLS] = {
    let mut t = [[(0u128, 0u8); 3]; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let mut taken = 1u128 << c;
        let mut k = 0;
        while k < 3 {
            let (cells, h) = HOUSES81_BRC[c][k];
            t[c][k] = (cells & !taken, h);
            taken |= cells;
            k += 1;
        }
        c += 1;
    }
    t
};

/// The CSP variable of digit `d` in house `h` (its `rn`, `cn` or `bn`
/// variable).
pub fn house_var(h: usize, d: usize) -> usize {
    let space = match house_kind(h) {
        HouseKind::Row => Space::Rn,
        HouseKind::Column => Space::Cn,
        HouseKind::Block => Space::Bn,
    };
    var(space, (h % 9) * 9 + d)
}

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

    #[test]
    fn every_candidate_has_one_variable_per_space() {
        for z in 0..N_CANDS {
            let vs = cand_vars(z);
            for (k, &v) in vs.iter().enumerate() {
                assert_eq!(var_space(v) as usize, k);
                assert!(
                    var_cands(v).contains(&z),
                    "{} not in {}",
                    cand_name(z),
                    var_name(v)
                );
            }
        }
    }

    #[test]
    fn houses_and_blocks() {
        assert_eq!(cell_block(cell(4, 5)), 4);
        assert_eq!(cell_block(cell(8, 0)), 6);
        assert_eq!(cell_square(cell(4, 5)), 5);
        for b in 0..9 {
            for s in 0..9 {
                let c = block_cell(b, s);
                assert_eq!((cell_block(c), cell_square(c)), (b, s));
            }
        }
        assert_eq!(house_cells(9 + 2)[4], cell(4, 2));
        assert_eq!(house_name(20), "b3");
        assert_eq!(var_name(var(Space::Bn, 2 * 9 + 4)), "b3n5");
        assert_eq!(TABLES.house[5].len(), 81);
        assert_eq!(cand_name(cand(cell(0, 1), 4)), "n5r1c2");
    }

    #[test]
    fn cell_masks_follow_the_houses() {
        for (h, &mask) in HOUSE81.iter().enumerate() {
            let cells = house_cells(h).iter().fold(0u128, |m, &c| m | 1 << c);
            assert_eq!(mask, cells);
            for d in 0..9 {
                let v = house_var(h, d);
                assert_eq!(
                    TABLES.var[v],
                    TABLES.house[h].and(&TABLES.digit[d]),
                    "{}",
                    var_name(v)
                );
            }
        }
        for c in 0..N_CELLS {
            let seen = cell_houses(c).iter().fold(0u128, |m, &h| m | HOUSE81[h]);
            assert_eq!(PEERS81[c], seen & !(1 << c));
            let groups = PEERS81_BRC[c];
            assert_eq!(groups.iter().fold(0, |m, g| m | g.0), PEERS81[c]);
            assert_eq!(groups[0].0 & groups[1].0, 0);
            assert_eq!((groups[0].0 | groups[1].0) & groups[2].0, 0);
            for (k, (cells, h)) in HOUSES81_BRC[c].into_iter().enumerate() {
                assert_eq!(usize::from(h), cell_houses(c)[[2, 0, 1][k]]);
                assert_eq!(cells, HOUSE81[usize::from(h)]);
                assert_eq!(groups[k].1, h);
            }
        }
    }

    /// The constant and lazy tables of cells and houses agree with the
    /// definitions they are derived from.
    #[test]
    fn cell_and_house_tables() {
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
