//! Planes: sets of cells as 81-bit masks (`u128`, bit `c` for cell `c`),
//! the form in which the [`Board`](super::board::Board) keeps each digit's
//! candidates, and the geometry's tables in that form: a cell's bit, a
//! house's cells, a cell's peers, and the houses a set of cells meets.
//!
//! Every table is computed when compiling from [`super::geometry`]'s
//! functions (cell to row, column and block), which the link graph is
//! built from too; a test checks the peers against the link graph.

use super::geometry::*;

/// An 81-bit set of cells (bit `c` for cell `c`).
pub type Plane = u128;

/// Each cell's bit.
pub static CELL81: [Plane; N_CELLS] = {
    let mut t = [0; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        t[c] = 1 << c;
        c += 1;
    }
    t
};

/// The cells of each house (rows, columns, blocks, as house indices).
pub static HOUSE81: [Plane; N_HOUSES] = {
    let mut t = [0; N_HOUSES];
    let mut c = 0;
    while c < N_CELLS {
        t[cell_row(c)] |= 1 << c;
        t[9 + cell_col(c)] |= 1 << c;
        t[18 + cell_block(c)] |= 1 << c;
        c += 1;
    }
    t
};

/// The peers of each cell in five parts: its row inside its block, its
/// row outside, its column inside its block, its column outside, and its
/// block outside its row and column.
pub static PEER_PARTS: [[Plane; 5]; N_CELLS] = {
    let mut t = [[0; 5]; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let (row, col, block) = (
            HOUSE81[cell_row(c)],
            HOUSE81[9 + cell_col(c)],
            HOUSE81[18 + cell_block(c)],
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

/// The peers of each cell (the cell excluded).
pub static PEERS81: [Plane; N_CELLS] = {
    let mut t = [0; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        let [a, b, d, e, f] = PEER_PARTS[c];
        t[c] = a | b | d | e | f;
        c += 1;
    }
    t
};

/// The bit of house `h` in an [`occupied`] mask.
pub const fn house_bit(h: usize) -> u32 {
    match h / 9 {
        0 => 9 * h as u32,
        1 => 81 + (h - 9) as u32,
        _ => {
            let b = (h - 18) as u32;
            27 * (b / 3) + 3 * (b % 3) + 1
        }
    }
}

/// The houses of each cell, as bits of an [`occupied`] mask.
pub static HOUSE_BITS: [u128; N_CELLS] = {
    let mut t = [0u128; N_CELLS];
    let mut c = 0;
    while c < N_CELLS {
        t[c] = 1 << house_bit(cell_row(c))
            | 1 << house_bit(9 + cell_col(c))
            | 1 << house_bit(18 + cell_block(c));
        c += 1;
    }
    t
};

/// The bits of all 27 houses in an [`occupied`] mask.
pub const ALL_HOUSE_BITS: u128 = {
    let mut m = 0u128;
    let mut h = 0;
    while h < N_HOUSES {
        m |= 1 << house_bit(h);
        h += 1;
    }
    m
};

/// The bits, in an [`occupied`] mask, of the houses of each house's kind
/// (rows, columns or blocks) that come before it.
pub static HOUSE_BITS_BEFORE: [u128; N_HOUSES] = {
    let mut t = [0u128; N_HOUSES];
    let mut h = 0;
    while h < N_HOUSES {
        let mut g = h - h % 9;
        while g < h {
            t[h] |= 1 << house_bit(g);
            g += 1;
        }
        h += 1;
    }
    t
};

/// The first cell of each row.
const ROW_STARTS: Plane = {
    let mut m = 0;
    let mut r = 0;
    while r < 9 {
        m |= 1 << cell(r, 0);
        r += 1;
    }
    m
};

/// The first cell of each block.
const BLOCK_STARTS: Plane = {
    let mut m = 0;
    let mut b = 0;
    while b < 9 {
        m |= 1 << block_cell(b, 0);
        b += 1;
    }
    m
};

/// The houses that hold a cell of `cells`, one bit a house: row `r` at
/// bit `9r`, block `3b + j` (band `b`, stack `j`) at bit `27b + 3j + 1`,
/// column `k` at bit `81 + k` (as [`HOUSE_BITS`]).
#[inline(always)]
pub fn occupied(cells: Plane) -> u128 {
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

/// The houses of each cell in the order block, row, column (the order in
/// which Sudoku Explainer's chains read a cell's houses), each as (its
/// cells as an 81-bit mask, the house).
pub static HOUSES81_BRC: [[(Plane, u8); 3]; N_CELLS] = {
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
pub static PEERS81_BRC: [[(Plane, u8); 3]; N_CELLS] = {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::links::links;
    use crate::grid::tables::TABLES;

    /// A cell's peers are the cells of its digit's nrc-links (the link
    /// graph's), in five disjoint parts.
    #[test]
    fn peers_are_the_link_graphs() {
        for c in 0..N_CELLS {
            for d in 0..9 {
                let linked = links(cand(c, d))
                    .iter()
                    .filter(|&y| cand_digit(y) == d)
                    .fold(0u128, |m, y| m | CELL81[cand_cell(y)]);
                assert_eq!(PEERS81[c], linked, "{c} {d}");
            }
            let parts = PEER_PARTS[c];
            let n: u32 = parts.iter().map(|p| p.count_ones()).sum();
            assert_eq!(n, 20);
            for h in cell_houses(c) {
                assert_eq!(
                    HOUSE81[h],
                    house_cells(h).iter().fold(0, |m, &x| m | CELL81[x])
                );
            }
        }
    }

    /// The houses a set of cells meets, read off the set with shifts, are
    /// those of its cells.
    #[test]
    fn occupied_houses_are_the_cells_houses() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for round in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let cells: Plane = (0..N_CELLS)
                .filter(|&c| (x.rotate_left(c as u32) ^ round).is_multiple_of(7))
                .fold(0, |m, c| m | CELL81[c]);
            let want = (0..N_CELLS)
                .filter(|&c| cells & CELL81[c] != 0)
                .fold(0, |m, c| m | HOUSE_BITS[c]);
            assert_eq!(occupied(cells), want);
        }
        // Row 1 and column 1: every row and column, blocks 1, 2, 3, 4 and 7.
        assert_eq!(occupied(HOUSE81[0] | HOUSE81[9]).count_ones(), 9 + 9 + 5);
        assert_eq!(ALL_HOUSE_BITS.count_ones(), 27);
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
}
