//! Implication graphs: what a trial's propagation inferred, and why.
//!
//! A *literal* is a candidate on (`2z`) or off (`2z + 1`), as in
//! [`LitSet`]. Propagating an assumption adds nodes to an arena, each a
//! literal with the nodes it was inferred from (its parents, the first one
//! being the literal whose step produced it; the others are the literals
//! that a dynamic step read from the branch's state, such as the
//! candidates already gone from a cell). The first node of a branch is
//! its assumption. One literal may have several nodes (cycle searches
//! keep every path); [`Graph::get`] finds the latest.
//!
//! Sudoku Explainer's *complexity* of a chain is the number of distinct
//! literals among a target's ancestors, itself included
//! ([`Graph::ancestor_count`]). A chain's printed form and the evidence a
//! step carries ([`Implications`]) are read off the graph too; [`to_petgraph`]
//! gives a `petgraph` view for tools.

use crate::grid::bits::LitSet;
use crate::grid::geometry::*;
use std::sync::Arc;

/// The literal "candidate `z` is on" (`true`) or "off" (`false`).
#[inline]
pub fn lit(z: usize, on: bool) -> u16 {
    (2 * z + usize::from(!on)) as u16
}

/// The candidate of a literal.
#[inline]
pub fn lit_cand(l: u16) -> usize {
    usize::from(l) / 2
}

/// Is the literal an "on" literal?
#[inline]
pub fn lit_on(l: u16) -> bool {
    l & 1 == 0
}

/// The opposite literal of the same candidate.
#[inline]
pub fn conjugate(l: u16) -> u16 {
    l ^ 1
}

/// `r1c2=5` / `r1c2≠5`.
pub fn lit_name(l: u16) -> String {
    let z = lit_cand(l);
    let op = if lit_on(l) { "=" } else { "≠" };
    format!("{}{op}{}", cell_name(cand_cell(z)), cand_digit(z) + 1)
}

/// Why a node holds: the step that inferred it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Cause {
    /// The branch's assumption.
    Assumption,
    /// The cell's constraint: one value per cell.
    Cell,
    /// A house's constraint (house index 0..27): one place per digit.
    House(u8),
    /// A rule of the set a trial propagates with.
    Rule,
}

/// One inferred literal.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub lit: u16,
    pub cause: Cause,
    first_parent: u32,
    n_parents: u32,
    /// A literal concluded by a nested match (a trial rule applied in a
    /// branch): its number among the graph's nests, from 1; 0 otherwise.
    nest: u32,
    /// A literal concluded by a rule applied in the branch: the rule's
    /// name, its number in the graph's `rules` from 1; 0 otherwise.
    by: u32,
}

/// An arena of inferred literals with their parents.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    /// Literals that have a node in `index`.
    present: LitSet,
    /// The complexity of each nested match whose conclusions are nodes,
    /// with the key of its chains (see [`Graph::nest`]).
    nests: Vec<(usize, u64)>,
    /// The latest node of each present literal.
    index: Vec<u32>,
    /// The names of the rules that concluded nodes ([`Graph::mark_rule`]).
    rules: Vec<Arc<str>>,
    /// Scratch for [`Graph::ancestor_count`]: the pass that last visited
    /// each node, and the current pass.
    visits: std::cell::RefCell<(Vec<u32>, u32, Vec<u32>)>,
}

/// A graph kept for later ([`Graph::save`], [`Graph::restore`]): its nodes,
/// and the latest node of each present literal, in literal order.
#[derive(Clone, Debug, Default)]
pub struct SavedGraph {
    nodes: Vec<Node>,
    parents: Vec<u32>,
    present: LitSet,
    nests: Vec<(usize, u64)>,
    rules: Vec<Arc<str>>,
    latest: Vec<u32>,
}

impl SavedGraph {
    /// The bytes it holds (for the memory cap of a search).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + (self.parents.capacity() + self.latest.capacity()) * 4
            + self.nests.capacity() * size_of::<(usize, u64)>()
    }
}

impl Graph {
    /// The bytes it holds (for the memory cap of a search).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + (self.parents.capacity() + self.index.capacity()) * 4
            + self.nests.capacity() * size_of::<(usize, u64)>()
    }

    /// An empty graph (one allocation for the literal index).
    pub fn new() -> Graph {
        Graph {
            nodes: Vec::with_capacity(256),
            parents: Vec::with_capacity(512),
            present: LitSet::EMPTY,
            nests: Vec::new(),
            index: vec![0; 2 * N_CANDS],
            rules: Vec::new(),
            visits: Default::default(),
        }
    }

    /// Empties the graph, keeping its memory.
    #[inline(always)]
    pub fn clear(&mut self) {
        // Every present literal has a node: a few nodes are cleared one by
        // one (most searches that clear a graph leave it nearly empty).
        if self.nodes.len() <= 8 {
            for n in &self.nodes {
                self.present.remove(usize::from(n.lit));
            }
        } else {
            self.present = LitSet::EMPTY;
        }
        self.nodes.clear();
        self.parents.clear();
        self.nests.clear();
        self.rules.clear();
    }

    /// Keeps this graph in `saved` (its memory reused), without the
    /// literal index's unused entries.
    pub fn save(&self, saved: &mut SavedGraph) {
        saved.nodes.clone_from(&self.nodes);
        saved.parents.clone_from(&self.parents);
        saved.present = self.present;
        saved.nests.clone_from(&self.nests);
        saved.rules.clone_from(&self.rules);
        saved.latest.clear();
        saved
            .latest
            .extend(self.present.iter().map(|l| self.index[l]));
    }

    /// Makes this graph the one kept in `saved`, keeping its memory.
    pub fn restore(&mut self, saved: &SavedGraph) {
        self.nodes.clone_from(&saved.nodes);
        self.parents.clone_from(&saved.parents);
        self.present = saved.present;
        self.nests.clone_from(&saved.nests);
        self.rules.clone_from(&saved.rules);
        if self.index.len() < 2 * N_CANDS {
            self.index.resize(2 * N_CANDS, 0);
        }
        for (l, &n) in saved.present.iter().zip(&saved.latest) {
            self.index[l] = n;
        }
    }

    /// Registers a nested match of complexity `complexity` (a trial rule's
    /// match applied in a branch) whose chains have key `key`
    /// ([`chains_key`]); nodes it concludes are marked with the returned
    /// number ([`Graph::mark_nest`]), and the chains of a match whose
    /// ancestors hold nested matches add the complexity of each distinct
    /// key once.
    pub fn nest(&mut self, complexity: usize, key: u64) -> u32 {
        self.nests.push((complexity, key));
        self.nests.len() as u32
    }

    /// Marks node `n` as concluded by the rule named `name` (applied in
    /// the branch).
    pub fn mark_rule(&mut self, n: u32, name: &Arc<str>) {
        // The same name from another rule set (a graph copied from a
        // propagation of another trial, see `trial::memo`) is the same rule.
        let k = match self
            .rules
            .iter()
            .position(|r| Arc::ptr_eq(r, name) || **r == **name)
        {
            Some(k) => k,
            None => {
                self.rules.push(name.clone());
                self.rules.len() - 1
            }
        };
        self.nodes[n as usize].by = k as u32 + 1;
    }

    /// Marks node `n` as concluded by nested match `nest`.
    pub fn mark_nest(&mut self, n: u32, nest: u32) {
        self.nodes[n as usize].nest = nest;
    }

    /// Adds a node without making it the literal's latest (a conclusion
    /// reached but not propagated). Returns its index.
    pub fn push(&mut self, lit: u16, cause: Cause, parents: &[u32]) -> u32 {
        let first_parent = self.parents.len() as u32;
        self.parents.extend_from_slice(parents);
        self.nodes.push(Node {
            lit,
            cause,
            first_parent,
            n_parents: parents.len() as u32,
            nest: 0,
            by: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// [`Graph::add`] with one parent.
    #[inline]
    pub fn add_one(&mut self, lit: u16, cause: Cause, parent: u32) -> u32 {
        let first_parent = self.parents.len() as u32;
        self.parents.push(parent);
        self.nodes.push(Node {
            lit,
            cause,
            first_parent,
            n_parents: 1,
            nest: 0,
            by: 0,
        });
        let n = (self.nodes.len() - 1) as u32;
        self.set_latest(lit, n);
        n
    }

    /// Adds a node and makes it the literal's latest. Returns its index.
    pub fn add(&mut self, lit: u16, cause: Cause, parents: &[u32]) -> u32 {
        let n = self.push(lit, cause, parents);
        self.set_latest(lit, n);
        n
    }

    /// Makes node `n` the latest of literal `lit`.
    #[inline]
    pub fn set_latest(&mut self, lit: u16, n: u32) {
        self.present.insert(usize::from(lit));
        self.index[usize::from(lit)] = n;
    }

    /// Does the literal have a node?
    #[inline]
    pub fn contains(&self, lit: u16) -> bool {
        self.present.contains(usize::from(lit))
    }

    /// The literal's latest node.
    #[inline]
    pub fn get(&self, lit: u16) -> Option<u32> {
        self.contains(lit).then(|| self.index[usize::from(lit)])
    }

    /// The literals that have a node.
    pub fn literals(&self) -> &LitSet {
        &self.present
    }

    pub fn node(&self, n: u32) -> &Node {
        &self.nodes[n as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The parents of node `n`, the producing one first.
    #[inline]
    pub fn parents(&self, n: u32) -> &[u32] {
        let nd = &self.nodes[n as usize];
        &self.parents[nd.first_parent as usize..(nd.first_parent + nd.n_parents) as usize]
    }

    /// Is `lit` the literal of a strict ancestor of `n` along first parents?
    pub fn on_first_path(&self, n: u32, lit: u16) -> bool {
        let mut cur = n;
        while let Some(&p) = self.parents(cur).first() {
            if self.nodes[p as usize].lit == lit {
                return true;
            }
            cur = p;
        }
        false
    }

    /// The number of distinct literals among `n` and its ancestors (Sudoku
    /// Explainer's complexity of the chain that ends at `n`), plus the
    /// complexity of each distinct nested match among them.
    pub fn ancestor_count(&self, n: u32) -> usize {
        self.complexity_of(&[n])
    }

    /// The complexity of the chains ending at `ns` (nodes of this graph):
    /// see [`Graph::complexity_across`].
    pub fn complexity_of(&self, ns: &[u32]) -> usize {
        Graph::complexity_across(ns.iter().map(|&n| (self, n)))
    }

    /// The complexity of a match whose chains end at nodes of several
    /// graphs (one per branch), each chain given as its graph and its
    /// last node: the distinct literals among each chain's ancestors,
    /// summed over the chains, plus the complexity of each distinct nested
    /// match among all of them, counted once. Nested matches are the same
    /// when their chains are ([`chains_key`]), in one graph or in several:
    /// Sudoku Explainer counts a hint's equal nested chains once.
    pub fn complexity_across<'a>(ends: impl IntoIterator<Item = (&'a Graph, u32)>) -> usize {
        let mut total = 0;
        let mut keys: Vec<(u64, usize)> = Vec::new();
        let mut nests: Vec<u32> = Vec::new();
        for (g, n) in ends {
            nests.clear();
            total += g.walk_from(n, &mut nests);
            for &k in &nests {
                let (complexity, key) = g.nests[k as usize - 1];
                if !keys.iter().any(|&(o, _)| o == key) {
                    keys.push((key, complexity));
                }
            }
        }
        total + keys.iter().map(|&(_, c)| c).sum::<usize>()
    }

    /// The distinct literals among `n` and its ancestors, the nests met
    /// added to `nests`.
    fn walk_from(&self, n: u32, nests: &mut Vec<u32>) -> usize {
        let mut v = self.visits.borrow_mut();
        let (mark, pass, stack) = &mut *v;
        if mark.len() < self.nodes.len() {
            mark.resize(self.nodes.len(), 0);
        }
        *pass = pass.wrapping_add(1);
        if *pass == 0 {
            mark.fill(0);
            *pass = 1;
        }
        let pass = *pass;
        let mut seen = LitSet::EMPTY;
        self.walk(n, mark, pass, stack, &mut seen, nests)
    }

    /// Visits `n` and its ancestors (marking them with `pass`): the number
    /// of distinct literals, the nests met added to `nests`.
    fn walk(
        &self,
        n: u32,
        mark: &mut [u32],
        pass: u32,
        stack: &mut Vec<u32>,
        seen: &mut LitSet,
        nests: &mut Vec<u32>,
    ) -> usize {
        stack.clear();
        stack.push(n);
        let mut count = 0;
        while let Some(m) = stack.pop() {
            if mark[m as usize] == pass {
                continue;
            }
            mark[m as usize] = pass;
            let node = &self.nodes[m as usize];
            let l = usize::from(node.lit);
            if !seen.contains(l) {
                seen.insert(l);
                count += 1;
            }
            if node.nest != 0 && !nests.contains(&node.nest) {
                nests.push(node.nest);
            }
            stack.extend_from_slice(self.parents(m));
        }
        count
    }

    /// The sub-graph of `n` and its ancestors, each once, parents before
    /// children: what a step keeps as evidence.
    pub fn extract(&self, n: u32) -> Chain {
        let mut order: Vec<u32> = Vec::new();
        let mut state = vec![0u8; self.nodes.len()];
        // Iterative depth-first post-order: parents first.
        let mut stack = vec![(n, false)];
        while let Some((m, expanded)) = stack.pop() {
            if expanded {
                if state[m as usize] != 2 {
                    state[m as usize] = 2;
                    order.push(m);
                }
                continue;
            }
            if state[m as usize] != 0 {
                continue;
            }
            state[m as usize] = 1;
            stack.push((m, true));
            for &p in self.parents(m).iter().rev() {
                if state[p as usize] == 0 {
                    stack.push((p, false));
                }
            }
        }
        let mut at = vec![u32::MAX; self.nodes.len()];
        for (i, &m) in order.iter().enumerate() {
            at[m as usize] = i as u32;
        }
        let nodes = order
            .iter()
            .map(|&m| ChainNode {
                lit: self.nodes[m as usize].lit,
                cause: self.nodes[m as usize].cause,
                by: match self.nodes[m as usize].by {
                    0 => None,
                    k => Some(self.rules[k as usize - 1].to_string()),
                },
                parents: self
                    .parents(m)
                    .iter()
                    .map(|&p| at[p as usize] as usize)
                    .collect(),
            })
            .collect();
        Chain { nodes }
    }
}

/// One node of an extracted chain; parents are indices of earlier nodes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChainNode {
    pub lit: u16,
    pub cause: Cause,
    pub parents: Vec<usize>,
    /// The rule applied in the branch that concluded it (`apply SET`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
}

/// A key for a match's chains, equal for equal chains: their literals in
/// order, chain by chain (Sudoku Explainer compares nested chains by their
/// targets and their ancestors' literals).
pub fn chains_key(chains: &[Chain]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for c in chains {
        c.nodes.len().hash(&mut h);
        for n in &c.nodes {
            n.lit.hash(&mut h);
        }
    }
    h.finish()
}

/// A target and its ancestors, parents before children; the last node is
/// the target.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Chain {
    pub nodes: Vec<ChainNode>,
}

impl Chain {
    /// The chain's target (its last node).
    pub fn target(&self) -> u16 {
        self.nodes.last().map_or(0, |n| n.lit)
    }

    /// The number of distinct literals (SE's complexity of this chain).
    pub fn complexity(&self) -> usize {
        let mut seen = LitSet::EMPTY;
        for n in &self.nodes {
            seen.insert(usize::from(n.lit));
        }
        seen.len()
    }

    /// The main line: from the target back along first parents, printed
    /// from the assumption on, `r1c2=5 ⇒ r1c7≠5 ⇒ …`. A node inferred from
    /// more than one literal lists the others in brackets.
    pub fn text(&self) -> String {
        let mut line = Vec::new();
        let mut cur = self.nodes.len().checked_sub(1);
        while let Some(i) = cur {
            line.push(i);
            cur = self.nodes[i].parents.first().copied();
            if line.len() > self.nodes.len() {
                break;
            }
        }
        line.reverse();
        line.iter()
            .map(|&i| {
                let n = &self.nodes[i];
                let mut s = lit_name(n.lit);
                if let Some(r) = &n.by {
                    s.push_str(&format!(" ({r})"));
                }
                if n.parents.len() > 1 {
                    let more: Vec<String> = n.parents[1..]
                        .iter()
                        .map(|&p| lit_name(self.nodes[p].lit))
                        .collect();
                    s.push_str(&format!(" [with {}]", more.join(", ")));
                }
                s
            })
            .collect::<Vec<_>>()
            .join(" ⇒ ")
    }
}

/// A `petgraph` view of an extracted chain: one node per chain node
/// (weighted by its literal), one edge from each parent to its child.
pub fn to_petgraph(chain: &Chain) -> petgraph::graph::DiGraph<u16, ()> {
    let mut g = petgraph::graph::DiGraph::new();
    let ids: Vec<_> = chain.nodes.iter().map(|n| g.add_node(n.lit)).collect();
    for (i, n) in chain.nodes.iter().enumerate() {
        for &p in &n.parents {
            g.add_edge(ids[p], ids[i], ());
        }
    }
    g
}

/// What a trial step carries: what it concluded from, and each branch's
/// chain from its assumption to the literal it contributes.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Implications {
    /// The kind of conclusion (the `conclude` word of the rule).
    pub conclusion: &'static str,
    /// The chains, in the order the conclusion reads them: a contradiction's
    /// two sides, a cycle's two directions, or one per branch.
    pub chains: Vec<Chain>,
    /// The complexity (distinct literals summed over the chains).
    pub complexity: usize,
    /// Branches run with a rule set: for each chain, the CSP variables its
    /// branch left without a candidate (its contradiction); empty for other
    /// matches.
    pub empty: Vec<Vec<usize>>,
    /// A region conclusion: the house whose places of a digit were assumed.
    pub region: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A nested match counts its complexity once per match whose chains
    /// reach it, in one graph or across the graphs of several branches,
    /// when its chains are equal; different nested matches count each.
    #[test]
    fn equal_nested_matches_count_once() {
        let chain_of = |lits: &[u16]| {
            let mut g = Graph::new();
            let mut last = g.add(lits[0], Cause::Assumption, &[]);
            for &l in &lits[1..] {
                last = g.add(l, Cause::Rule, &[last]);
            }
            g.extract(last)
        };
        let (k1, k2) = (
            chains_key(&[chain_of(&[lit(5, true), lit(6, false)])]),
            chains_key(&[chain_of(&[lit(5, true), lit(7, false)])]),
        );
        assert_ne!(k1, k2);
        assert_eq!(k1, chains_key(&[chain_of(&[lit(5, true), lit(6, false)])]));
        // A branch: its assumption, then a literal concluded by a nested
        // match of complexity 7 with key `key`.
        let branch = |z: usize, key: u64| {
            let mut g = Graph::new();
            let a = g.add(lit(z, true), Cause::Assumption, &[]);
            let k = g.nest(7, key);
            let n = g.add(lit(40, false), Cause::Rule, &[a]);
            g.mark_nest(n, k);
            (g, n)
        };
        let ((g1, n1), (g2, n2), (g3, n3)) = (branch(0, k1), branch(1, k1), branch(2, k2));
        assert_eq!(g1.ancestor_count(n1), 2 + 7);
        assert_eq!(Graph::complexity_across([(&g1, n1), (&g2, n2)]), 4 + 7);
        assert_eq!(Graph::complexity_across([(&g1, n1), (&g3, n3)]), 4 + 14);
        assert_eq!(
            Graph::complexity_across([(&g1, n1), (&g2, n2), (&g3, n3)]),
            6 + 14
        );
    }

    #[test]
    fn ancestors_count_distinct_literals() {
        let mut g = Graph::new();
        let a = g.add(lit(0, true), Cause::Assumption, &[]);
        let b = g.add(lit(1, false), Cause::Cell, &[a]);
        let c = g.add(lit(10, true), Cause::House(0), &[b]);
        // A second node of literal b, and a node with two parents.
        let b2 = g.push(lit(1, false), Cause::Cell, &[c]);
        let d = g.add(lit(20, false), Cause::House(1), &[b2, c]);
        assert_eq!(g.ancestor_count(a), 1);
        assert_eq!(g.ancestor_count(c), 3);
        assert_eq!(g.ancestor_count(d), 4);
        assert_eq!(g.get(lit(1, false)), Some(b));
        assert!(g.on_first_path(d, lit(0, true)));
        assert!(!g.on_first_path(a, lit(0, true)));
        let ch = g.extract(d);
        assert_eq!(ch.complexity(), 4);
        assert_eq!(ch.nodes.len(), 5);
        assert_eq!(ch.target(), lit(20, false));
        assert_eq!(
            ch.text(),
            "r1c1=1 ⇒ r1c1≠2 ⇒ r1c2=2 ⇒ r1c1≠2 ⇒ r1c3≠3 [with r1c2=2]"
        );
        let pg = to_petgraph(&ch);
        assert_eq!(pg.node_count(), 5);
        assert_eq!(pg.edge_count(), 5);
    }
}
