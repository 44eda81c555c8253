//! The groups g-candidates stand for: one symbol's candidates in the
//! intersection of two houses of different kinds, when it has at least
//! two cells (Sudoku: a block ∩ a row, a block ∩ a column; a Latin square
//! has none, a row and a column meeting in one cell).
//!
//! Order: symbol by symbol; for each symbol, house by house (the later
//! house of the pair, in house order), then the earlier house. For
//! `sudoku:9` this is the classic grid's segment order (`grid::segments`:
//! digit, block, the block's three rows then its three columns).

use super::csp::Model;

/// A g-candidate: symbol `symbol` in the cells common to houses `outer`
/// and `inner` (`inner < outer`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub symbol: usize,
    pub outer: usize,
    pub inner: usize,
    /// Its candidates, in increasing order (two or more).
    pub cands: Vec<usize>,
}

/// The groups of a model, in the order above.
pub(super) fn groups(m: &Model) -> Vec<Group> {
    // The pairs of houses with two or more common cells, per outer house.
    let mut pairs: Vec<(usize, usize, Vec<usize>)> = Vec::new();
    for (o, outer) in m.houses.iter().enumerate() {
        let mut inners: Vec<usize> = outer
            .cells
            .iter()
            .flat_map(|&c| m.cell_houses(c))
            .filter(|&i| i < o && m.houses[i].kind != outer.kind)
            .collect();
        inners.sort_unstable();
        inners.dedup();
        for i in inners {
            let common: Vec<usize> = outer
                .cells
                .iter()
                .copied()
                .filter(|c| m.houses[i].cells.binary_search(c).is_ok())
                .collect();
            if common.len() >= 2 {
                pairs.push((o, i, common));
            }
        }
    }
    let mut out = Vec::with_capacity(pairs.len() * m.n);
    for s in 0..m.n {
        for (o, i, cells) in &pairs {
            out.push(Group {
                symbol: s,
                outer: *o,
                inner: *i,
                cands: cells.iter().map(|&c| m.cand(c, s)).collect(),
            });
        }
    }
    out
}

impl Model {
    /// The candidates g-linked to group `g`: linked to each of its
    /// candidates, in increasing order.
    pub fn group_links(&self, g: usize) -> Vec<usize> {
        let cands = &self.groups[g].cands;
        let mut acc = self.links(cands[0]);
        for &z in &cands[1..] {
            let l = self.links(z);
            acc.retain(|w| l.binary_search(w).is_ok());
        }
        acc
    }
}
