//! The static link graph: candidates, CSP variables and nrc-links.
//!
//! The one definition of the grid's structure is a `petgraph` graph with a
//! node per candidate (indices `0..729`) and per CSP variable (indices
//! `729..1053`), and an edge for each membership "candidate ∈ variable".
//! Two distinct candidates are *nrc-linked* iff they have a common neighbour
//! variable in that graph. The relation is derived once from the graph into
//! per-candidate bitsets ([`LinkGraph::links`], read with [`links`]) that hot
//! loops use.
//!
//! Conjugacy ("strong links") depends on the state: two candidates are
//! conjugate when they are the only two live candidates of some variable;
//! see [`crate::grid::state::State::conjugates`].

use crate::grid::bits::Bits;
use crate::grid::geometry::{N_CANDS, N_VARS, cand_vars};
use petgraph::graph::{NodeIndex, UnGraph};
use std::sync::LazyLock;

/// A node of the link graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Cand(u16),
    Var(u16),
}

/// The static graph of candidates and CSP variables (membership edges).
pub struct LinkGraph {
    pub graph: UnGraph<Node, ()>,
    /// nrc-links of each candidate (never contains the candidate itself).
    pub links: Vec<Bits>,
}

impl LinkGraph {
    fn build() -> LinkGraph {
        let mut graph = UnGraph::with_capacity(N_CANDS + N_VARS, N_CANDS * 4);
        for z in 0..N_CANDS {
            graph.add_node(Node::Cand(z as u16));
        }
        for v in 0..N_VARS {
            graph.add_node(Node::Var(v as u16));
        }
        for z in 0..N_CANDS {
            for v in cand_vars(z) {
                graph.add_edge(NodeIndex::new(z), var_node(v), ());
            }
        }
        let links = (0..N_CANDS)
            .map(|z| {
                let mut set = Bits::EMPTY;
                for v in graph.neighbors(NodeIndex::new(z)) {
                    for w in graph.neighbors(v) {
                        set.insert(w.index());
                    }
                }
                set.remove(z);
                set
            })
            .collect();
        LinkGraph { graph, links }
    }

    /// The variables a candidate belongs to, read from the graph.
    pub fn vars_of(&self, z: usize) -> impl Iterator<Item = usize> + '_ {
        self.graph
            .neighbors(NodeIndex::new(z))
            .map(|n| n.index() - N_CANDS)
    }

    /// Number of nrc-links (unordered pairs of linked candidates).
    pub fn link_count(&self) -> usize {
        self.links.iter().map(Bits::len).sum::<usize>() / 2
    }
}

/// Graph node of CSP variable `v`.
pub fn var_node(v: usize) -> NodeIndex {
    NodeIndex::new(N_CANDS + v)
}

/// The link graph, built on first use.
pub static GRAPH: LazyLock<LinkGraph> = LazyLock::new(LinkGraph::build);

/// nrc-links of candidate `z`.
#[inline]
pub fn links(z: usize) -> &'static Bits {
    &GRAPH.links[z]
}

/// Are `a` and `b` nrc-linked?
#[inline]
pub fn linked(a: usize, b: usize) -> bool {
    GRAPH.links[a].contains(b)
}

static ALL_CANDS: LazyLock<Bits> = LazyLock::new(|| Bits::first(N_CANDS));

/// Candidates linked to every member of `set` (the empty set gives all 729).
pub fn common_links(set: &Bits) -> Bits {
    common_links_in(set, &ALL_CANDS)
}

/// The members of `within` linked to every member of `set`.
#[inline(always)]
pub fn common_links_in(set: &Bits, within: &Bits) -> Bits {
    let links = &GRAPH.links;
    let mut acc = *within;
    for z in set.iter() {
        acc = acc.and(&links[z]);
        if acc.is_empty() {
            break;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::*;

    #[test]
    fn each_candidate_has_28_links() {
        for z in 0..N_CANDS {
            let l = links(z);
            assert_eq!(l.len(), 28, "{}", cand_name(z));
            let c = cand_cell(z);
            let in_cell = l.iter().filter(|&w| cand_cell(w) == c).count();
            let in_row = l
                .iter()
                .filter(|&w| {
                    cand_digit(w) == cand_digit(z) && cell_row(cand_cell(w)) == cell_row(c)
                })
                .count();
            let in_col = l
                .iter()
                .filter(|&w| {
                    cand_digit(w) == cand_digit(z) && cell_col(cand_cell(w)) == cell_col(c)
                })
                .count();
            let block_only = l
                .iter()
                .filter(|&w| {
                    let wc = cand_cell(w);
                    cand_digit(w) == cand_digit(z)
                        && cell_block(wc) == cell_block(c)
                        && cell_row(wc) != cell_row(c)
                        && cell_col(wc) != cell_col(c)
                })
                .count();
            assert_eq!((in_cell, in_row, in_col, block_only), (8, 8, 8, 4));
        }
    }

    #[test]
    fn total_links() {
        assert_eq!(GRAPH.link_count(), 10_206);
        assert_eq!(GRAPH.graph.node_count(), 729 + 324);
        assert_eq!(GRAPH.graph.edge_count(), 729 * 4);
    }

    #[test]
    fn links_are_symmetric_and_match_geometry() {
        for a in 0..N_CANDS {
            let va = cand_vars(a);
            for b in 0..N_CANDS {
                let share = a != b && cand_vars(b).iter().any(|v| va.contains(v));
                assert_eq!(linked(a, b), share);
            }
            let mut from_graph: Vec<_> = GRAPH.vars_of(a).collect();
            from_graph.sort();
            assert_eq!(from_graph, va.to_vec());
        }
    }

    #[test]
    fn common_links_of_a_pair() {
        // n1r1c1 and n1r1c5: common links are the other n1 of row 1.
        let set = Bits::from_indices([cand(cell(0, 0), 0), cand(cell(0, 4), 0)]);
        let common = common_links(&set);
        assert_eq!(common.len(), 7);
        assert!(
            common
                .iter()
                .all(|z| cand_digit(z) == 0 && cell_row(cand_cell(z)) == 0)
        );
    }
}
