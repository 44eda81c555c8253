//! The cluster generator (`let K, A: cluster [in P]`, an
//! [`Instr::Cluster`](super::Instr)): the colour clusters of a set of
//! candidates, as Simple Colouring, Multi-Colouring and 3D Medusa colour
//! them.
//!
//! Two live candidates of P are strongly linked when they are the only
//! two live candidates of a CSP variable (a conjugate pair of a digit in
//! a row, column or block; the two candidates of a bivalue cell), both in
//! P. A cluster is a connected component of that graph with two
//! candidates or more, coloured by breadth-first search from its smallest
//! candidate: strongly linked candidates take opposite colours, so in any
//! solution one colour class is wholly true and the other wholly false.
//! K is bound to each cluster's candidates, clusters in the order of
//! their smallest candidate; for each, A is bound to the colour class
//! holding that candidate, then to the other class, and the plan goes on
//! after each binding. A component whose strong links close a cycle of
//! odd length cannot be coloured in two (the state has no solution): it
//! is skipped.
//!
//! So `cluster in cands(D)` (one digit: rows, columns and blocks) gives
//! Simple Colouring's clusters, and `cluster` (every live candidate, every
//! variable) 3D Medusa's.

use super::ir::{Cluster, Val};
use super::plan::Plan;
use super::run::Frame;
use super::typed::TOp;
use crate::grid::bits::{BitSet, Bits};
use crate::grid::geometry::N_VARS;
use crate::grid::tables::TABLES;
use std::ops::ControlFlow;

/// The colour clusters of the strong links `pairs` (each two distinct
/// candidates, below `BitSet::<W>::CAPACITY`): `f` is called with each
/// cluster's candidates and one colour class, the class of its smallest
/// candidate first, then the other; clusters in order of their smallest
/// candidate. A component with an odd cycle of links is skipped (see the
/// module documentation). `f` breaking stops the enumeration.
pub fn colour_clusters<const W: usize>(
    pairs: &[(usize, usize)],
    mut f: impl FnMut(BitSet<W>, BitSet<W>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if pairs.is_empty() {
        return ControlFlow::Continue(());
    }
    // Adjacency in compressed rows: each candidate's partners.
    let n = BitSet::<W>::CAPACITY;
    let mut start = vec![0u32; n + 1];
    let mut nodes = BitSet::<W>::EMPTY;
    for &(a, b) in pairs {
        start[a + 1] += 1;
        start[b + 1] += 1;
        nodes.insert(a);
        nodes.insert(b);
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut adj = vec![0u32; 2 * pairs.len()];
    for &(a, b) in pairs {
        adj[fill[a] as usize] = b as u32;
        fill[a] += 1;
        adj[fill[b] as usize] = a as u32;
        fill[b] += 1;
    }
    let mut seen = BitSet::<W>::EMPTY;
    let mut queue: Vec<usize> = Vec::new();
    for s in nodes.iter() {
        if seen.contains(s) {
            continue;
        }
        // Breadth-first colouring from the smallest candidate.
        let (mut first, mut second) = (BitSet::<W>::single(s), BitSet::<W>::EMPTY);
        let mut odd = false;
        seen.insert(s);
        queue.clear();
        queue.push(s);
        let mut i = 0;
        while i < queue.len() {
            let x = queue[i];
            i += 1;
            let in_first = first.contains(x);
            for &y in &adj[start[x] as usize..start[x + 1] as usize] {
                let y = y as usize;
                if seen.contains(y) {
                    // Both ends of a strong link in one colour.
                    odd |= first.contains(y) == in_first;
                    continue;
                }
                seen.insert(y);
                if in_first {
                    second.insert(y);
                } else {
                    first.insert(y);
                }
                queue.push(y);
            }
        }
        if odd {
            continue;
        }
        let all = first.or(&second);
        f(all, first)?;
        f(all, second)?;
    }
    ControlFlow::Continue(())
}

impl Plan {
    /// Runs cluster generator `k` on the current binding: each cluster of
    /// its domain with each of its two colours, then the rest of the plan.
    pub(super) fn run_cluster(&self, k: usize, c: &Cluster, fr: &mut Frame) -> ControlFlow<()> {
        let Some(Some(domain)) = self.typed.clusters.get(k) else {
            unreachable!("a cluster generator has its typed domain")
        };
        let Some(domain) = domain.defined_in(
            fr.state,
            &fr.dc,
            &mut fr.env,
            fr.cx.clock_and_givens(),
            TOp::eval_set,
        ) else {
            return if fr.cx.interrupted() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
        };
        let live: Bits = domain.and(&fr.state.cands);
        // The strong links: variables whose only two live candidates are
        // in the domain.
        let mut pairs = Vec::new();
        for v in 0..N_VARS {
            let pair = live.and(&TABLES.var[v]);
            if pair.len() == 2
                && fr.state.var_cands(v).len() == 2
                && let (Some(a), Some(b)) = (pair.min(), pair.max())
            {
                pairs.push((a, b));
            }
        }
        colour_clusters::<{ crate::grid::bits::WORDS }>(&pairs, |all, colour| {
            if fr.cx.tick() {
                return ControlFlow::Break(());
            }
            fr.env[c.cands] = Val::Set(all);
            fr.env[c.colour] = Val::Set(colour);
            self.run(k + 1, fr)
        })
    }
}
