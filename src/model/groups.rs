//! The groups g-candidates stand for:
//!
//! - one symbol's candidates in the intersection of two houses of
//!   different kinds, when it has at least two cells (Sudoku: a block ∩ a
//!   row, a block ∩ a column; a Latin square has none, a row and a column
//!   meeting in one cell);
//! - a *segment* of one cell's symbols, `n ≥ k` or `n ≤ k`, when a binary
//!   constraint links all of them to one candidate of another cell, and
//!   the segment and the rest of the cell have two symbols or more each
//!   (Futoshiki: `a < b` links `a ≥ k` to `b = k`, for k from 3 to N − 1,
//!   and `b ≤ k` to `a = k`, for k from 2 to N − 2: the g-labels of
//!   CSP-Rules' FutoRules, which prints them `n5+` and `n5-`).
//!
//! Order: the house groups symbol by symbol, for each symbol house by
//! house (the later house of the pair, in house order), then the earlier
//! house; for `sudoku:9` this is the classic grid's segment order
//! (`grid::segments`: digit, block, the block's three rows then its three
//! columns). Then the segments, by cell, lower segments (`n ≤ k`) before
//! upper ones, each smallest first.

use super::csp::Model;

/// A g-candidate: what it stands for, and its candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub kind: GroupKind,
    /// Its candidates, in increasing order (two or more).
    pub cands: Vec<usize>,
}

/// What a group stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// Symbol `symbol` in the cells common to houses `outer` and `inner`
    /// (`inner < outer`).
    Houses {
        symbol: usize,
        outer: usize,
        inner: usize,
    },
    /// Cell `cell` holding a symbol from `low` to `high` (0-based, one of
    /// them the first or the last symbol).
    Segment {
        cell: usize,
        low: usize,
        high: usize,
    },
}

impl Group {
    /// The symbol of a house group (`None` for a segment).
    pub fn symbol(&self) -> Option<usize> {
        match self.kind {
            GroupKind::Houses { symbol, .. } => Some(symbol),
            GroupKind::Segment { .. } => None,
        }
    }
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
                kind: GroupKind::Houses {
                    symbol: s,
                    outer: *o,
                    inner: *i,
                },
                cands: cells.iter().map(|&c| m.cand(c, s)).collect(),
            });
        }
    }
    out.extend(segments(m));
    out
}

/// The segment groups of a model's binary constraints (see the module
/// docs): for each constraint and each candidate `y` of one of its two
/// cells, the other cell's symbols that cannot stand with `y`, when they
/// form a segment that touches the first or the last symbol and that
/// segment and the rest of the cell have two symbols or more each.
fn segments(m: &Model) -> Vec<Group> {
    let n = m.n;
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for c in &m.spec.constraints {
        // Per symbol of one cell, the other cell's symbols it forbids.
        let mut from_b = vec![Vec::new(); n];
        let mut from_a = vec![Vec::new(); n];
        for &(x, y) in &c.forbidden {
            from_b[y].push(x);
            from_a[x].push(y);
        }
        for (cell, lists) in [(c.a, from_b), (c.b, from_a)] {
            for mut xs in lists {
                xs.sort_unstable();
                xs.dedup();
                let (Some(&low), Some(&high)) = (xs.first(), xs.last()) else {
                    continue;
                };
                let segment = high - low + 1 == xs.len() && (low == 0 || high == n - 1);
                if segment && xs.len() >= 2 && n - xs.len() >= 2 {
                    found.push((cell, low, high));
                }
            }
        }
    }
    // By cell, lower segments (from the first symbol) first, each
    // smallest first (chain searches rely on it: `typed::chain`).
    found.sort_unstable_by_key(|&(cell, low, high)| (cell, low != 0, high - low));
    found.dedup();
    found
        .into_iter()
        .map(|(cell, low, high)| Group {
            kind: GroupKind::Segment { cell, low, high },
            cands: (low..=high).map(|s| m.cand(cell, s)).collect(),
        })
        .collect()
}

/// Two variables that share two or more candidates (a group's two house
/// variables), seen from one of them: `other`, and the common candidates'
/// positions among this variable's candidates (`mine`) and among
/// `other`'s (`theirs`), one bit each (a variable has at most 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    pub other: u32,
    pub mine: u64,
    pub theirs: u64,
}

/// Per variable, its overlaps (compressed rows: variable `v`'s are
/// `list[start[v]..start[v + 1]]`), one each way per group.
pub(super) fn overlaps(m: &Model) -> (Vec<u32>, Vec<Overlap>) {
    let mut per: Vec<Vec<Overlap>> = vec![Vec::new(); m.n_vars];
    let position = |z: usize, v: usize| -> u64 {
        let (vars, pos) = m.cand_var_slots(z);
        let j = vars
            .iter()
            .position(|&w| w as usize == v)
            .expect("a variable of the candidate");
        1u64 << pos[j]
    };
    for g in &m.groups {
        let GroupKind::Houses { outer, inner, .. } = g.kind else {
            continue;
        };
        let var_of = |h: usize| {
            m.cand_vars(g.cands[0])
                .find(|&v| m.var_house(v) == Some(h))
                .expect("a group's candidates lie in both its houses")
        };
        let (a, b) = (var_of(outer), var_of(inner));
        let bits = |v: usize| g.cands.iter().fold(0, |w, &z| w | position(z, v));
        let (in_a, in_b) = (bits(a), bits(b));
        per[a].push(Overlap {
            other: b as u32,
            mine: in_a,
            theirs: in_b,
        });
        per[b].push(Overlap {
            other: a as u32,
            mine: in_b,
            theirs: in_a,
        });
    }
    let mut start = vec![0u32];
    let mut list = Vec::new();
    for l in per {
        list.extend(l);
        start.push(list.len() as u32);
    }
    (start, list)
}

impl Model {
    /// The variables sharing two or more candidates with variable `v`
    /// (house variables of one symbol whose houses meet in a group).
    #[inline]
    pub fn var_overlaps(&self, v: usize) -> &[Overlap] {
        &self.overlaps[self.overlap_start[v] as usize..self.overlap_start[v + 1] as usize]
    }

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
