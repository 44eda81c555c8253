//! g-candidates: one digit's candidates in the intersection of a block and
//! a row or a column (a *segment*), taken together as chains take them
//! (Berthier's g-candidates; g-whips and g-braids link through them).
//!
//! There are 486: nine digits × nine blocks × six parts (the block's three
//! rows and three columns). Each is derived from the geometry and the link
//! graph: its three candidates and the candidates g-linked to it (linked
//! to all three).

use super::bits::Bits;
use super::geometry::*;
use super::links::links;
use std::sync::LazyLock;

/// A g-candidate: one digit's candidates in the intersection of a block and
/// a row (horizontal) or a column (vertical), taken together. Candidate `x`
/// is g-linked to it when `x` is linked to all three of its cells' `d`
/// candidates (same digit, in the line outside the block or in the block
/// outside the line).
#[derive(Clone, Debug)]
pub struct Segment {
    pub digit: usize,
    pub block: usize,
    /// Row (horizontal) or column (vertical) index, 0..9.
    pub line: usize,
    pub horizontal: bool,
    /// The three candidates of `digit` in the segment's cells.
    pub cands: Bits,
    /// The candidates g-linked to the segment.
    pub glinks: Bits,
}

/// The segments: `digit * 54 + block * 6 + k`, with `k` 0..3 the rows and
/// 3..6 the columns of the block.
pub static SEGMENTS: LazyLock<Vec<Segment>> = LazyLock::new(|| {
    let mut out = Vec::with_capacity(N_SEGMENTS);
    for d in 0..9 {
        for b in 0..9 {
            for k in 0..6 {
                let horizontal = k < 3;
                let (r0, c0) = (b / 3 * 3, b % 3 * 3);
                let cells: Vec<usize> = (0..3)
                    .map(|i| {
                        if horizontal {
                            cell(r0 + k, c0 + i)
                        } else {
                            cell(r0 + i, c0 + k - 3)
                        }
                    })
                    .collect();
                let cands = Bits::from_indices(cells.iter().map(|&c| cand(c, d)));
                let mut glinks = Bits::first(N_CANDS);
                for z in cands.iter() {
                    glinks = glinks.and(links(z));
                }
                out.push(Segment {
                    digit: d,
                    block: b,
                    line: if horizontal { r0 + k } else { c0 + k - 3 },
                    horizontal,
                    cands,
                    glinks,
                });
            }
        }
    }
    out
});

/// The segment of variable `v` that holds every candidate of `rest` (at
/// least two), if one does: a row or column variable's block part, or a
/// block variable's row or column part.
pub fn segment_of(v: usize, rest: &Bits) -> Option<usize> {
    let first = rest.min()?;
    let (d, c0) = (cand_digit(first), cand_cell(first));
    let same = |f: fn(usize) -> usize| rest.iter().all(|z| f(cand_cell(z)) == f(c0));
    let b = cell_block(c0);
    let (row_k, col_k) = (cell_row(c0) % 3, 3 + cell_col(c0) % 3);
    let k = match var_space(v) {
        Space::Rc => return None,
        Space::Rn if same(cell_block) => row_k,
        Space::Cn if same(cell_block) => col_k,
        Space::Bn if same(cell_row) => row_k,
        Space::Bn if same(cell_col) => col_k,
        _ => return None,
    };
    Some(d * 54 + b * 6 + k)
}

/// How a segment is written inside the braces of a variable of `space`
/// (SudoRules' g-labels): `c123` in a row, `r456` in a column, `r3c456` or
/// `r123c5` in a block.
pub fn segment_in_var(space: Space, seg: &Segment) -> String {
    let (b0r, b0c) = (seg.block / 3 * 3, seg.block % 3 * 3);
    let three = |base: usize| format!("{}{}{}", base + 1, base + 2, base + 3);
    match (space, seg.horizontal) {
        (Space::Rn, _) => format!("c{}", three(b0c)),
        (Space::Cn, _) => format!("r{}", three(b0r)),
        (_, true) => format!("r{}c{}", seg.line + 1, three(b0c)),
        (_, false) => format!("r{}c{}", three(b0r), seg.line + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index of the segment of digit `d` (0-based), block `b`, part `k`.
    fn seg(d: usize, b: usize, k: usize) -> usize {
        d * 54 + b * 6 + k
    }

    #[test]
    fn segments_and_their_glinks() {
        assert_eq!(SEGMENTS.len(), N_SEGMENTS);
        // n2 in r3 ∩ b2 (cells r3c4, r3c5, r3c6).
        let s = &SEGMENTS[seg(1, 1, 2)];
        assert_eq!((s.digit, s.block, s.line, s.horizontal), (1, 1, 2, true));
        assert_eq!(
            s.cands,
            Bits::from_indices([
                cand(cell(2, 3), 1),
                cand(cell(2, 4), 1),
                cand(cell(2, 5), 1)
            ])
        );
        // g-linked: n2 elsewhere in row 3 (6 cells) and in block 2 outside row 3 (6 cells).
        assert_eq!(s.glinks.len(), 12);
        assert!(s.glinks.iter().all(|z| cand_digit(z) == 1));
        assert_eq!(segment_in_var(Space::Bn, s), "r3c456");
        assert_eq!(segment_in_var(Space::Rn, s), "c456");
        let v = &SEGMENTS[seg(1, 3, 3)];
        assert_eq!(segment_in_var(Space::Bn, v), "r456c1");
        assert_eq!(segment_in_var(Space::Cn, v), "r456");
        // A row variable's candidates in one block make one segment.
        let rest = Bits::from_indices([cand(cell(2, 3), 1), cand(cell(2, 5), 1)]);
        assert_eq!(segment_of(var(Space::Rn, 19), &rest), Some(seg(1, 1, 2)));
        assert_eq!(segment_of(var(Space::Bn, 10), &rest), Some(seg(1, 1, 2)));
        let spread = Bits::from_indices([cand(cell(2, 3), 1), cand(cell(2, 8), 1)]);
        assert_eq!(segment_of(var(Space::Rn, 19), &spread), None);
    }
}
