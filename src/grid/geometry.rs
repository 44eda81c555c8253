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
//! Every candidate belongs to exactly one variable of each space. This
//! module holds indices, sizes, the functions between them and names; the
//! tables derived from them are in [`super::tables`] (candidate sets) and
//! [`super::plane`] (cell masks).

use std::sync::LazyLock;

pub const N_CANDS: usize = 729;
pub const N_CELLS: usize = 81;
pub const N_HOUSES: usize = 27;
/// The number of g-candidates ([`super::segments`]): each digit in each
/// block ∩ row and block ∩ column (9 digits × 54 segments).
pub const N_SEGMENTS: usize = 486;
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
pub const fn cand(cell: usize, digit: usize) -> usize {
    cell * 9 + digit
}
#[inline]
pub const fn cand_cell(c: usize) -> usize {
    c / 9
}
#[inline]
pub const fn cand_digit(c: usize) -> usize {
    c % 9
}
#[inline]
pub const fn cell(row: usize, col: usize) -> usize {
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
pub const fn cell_square(cell: usize) -> usize {
    ((cell / 9) % 3) * 3 + cell % 3
}
/// The cell at square `s` of block `b`.
#[inline]
pub const fn block_cell(b: usize, s: usize) -> usize {
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
pub const fn var(space: Space, i: usize) -> usize {
    space as usize * 81 + i
}
#[inline]
pub fn var_space(v: usize) -> Space {
    Space::ALL[v / 81]
}

/// The four CSP variables of a candidate, in space order rc, rn, cn, bn.
#[inline]
pub const fn cand_vars(z: usize) -> [usize; 4] {
    let c = cand_cell(z);
    let d = cand_digit(z);
    [
        var(Space::Rc, c),
        var(Space::Rn, cell_row(c) * 9 + d),
        var(Space::Cn, cell_col(c) * 9 + d),
        var(Space::Bn, cell_block(c) * 9 + d),
    ]
}

/// The four variables of each candidate ([`cand_vars`]), as a table (hot
/// loops read it).
pub static CAND_VARS: [[u16; 4]; N_CANDS] = {
    let mut t = [[0u16; 4]; N_CANDS];
    let mut z = 0;
    while z < N_CANDS {
        let [a, b, c, d] = cand_vars(z);
        t[z] = [a as u16, b as u16, c as u16, d as u16];
        z += 1;
    }
    t
};

/// The variables of each space, as the words of a
/// [`VarSet`](crate::grid::bits::VarSet).
static SPACE_WORDS: [[u64; 6]; 4] = {
    let mut t = [[0u64; 6]; 4];
    let mut v = 0;
    while v < N_VARS {
        t[v / 81][v / 64] |= 1 << (v % 64);
        v += 1;
    }
    t
};

/// The words of a [`VarSet`](crate::grid::bits::VarSet) that hold
/// variables of `space` (two or three), each with the mask of those
/// variables.
#[inline(always)]
pub fn space_words(space: Space) -> impl Iterator<Item = (usize, u64)> {
    let s = space as usize;
    // An exclusive range: an inclusive one costs a test more per step.
    (81 * s / 64..(81 * s + 80) / 64 + 1).map(move |w| (w, SPACE_WORDS[s][w]))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::bits::VarSet;
    use crate::grid::tables::TABLES;

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
    fn tables_are_the_functions() {
        for (z, vars) in CAND_VARS.iter().enumerate() {
            assert_eq!(vars.map(usize::from), cand_vars(z));
        }
        for sp in Space::ALL {
            let mut set = VarSet::EMPTY;
            for (w, mask) in space_words(sp) {
                set.0[w] |= mask;
            }
            let want: Vec<usize> = (var(sp, 0)..var(sp, 0) + 81).collect();
            assert_eq!(set.iter().collect::<Vec<_>>(), want);
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
}
