//! Static reachability: what each literal implies through any number of
//! static steps, from Tarjan's strongly connected components of the
//! static implication graph (each component's closure a bitset). A
//! forcing chain needs no propagation from a literal that cannot reach its
//! negation, and a cycle search follows only inferences that stay in its
//! source's component.
//!
//! Architecture Invariant: reachability only prunes. A search that reads
//! it makes the same chains, in the same order, and counts the same nodes
//! (the literals it skips are counted at once) as one that does not.

use super::steps::{Infer, Inference, Stepper};
use crate::grid::bits::LitSet;
use crate::grid::geometry::N_CANDS;
use crate::search::implication::lit_cand;

/// What each literal implies through any number of static steps (its
/// strongly connected component's closure), for forcing chains and
/// cycles: a breadth-first propagation from a literal reaches exactly
/// these literals, so one that cannot reach its negation needs no
/// propagation, and a literal that cannot lead back to a cycle's source
/// starts no cycle through it.
#[derive(Default)]
pub(super) struct Reach {
    /// Computed for the current pass.
    pub(super) ready: bool,
    /// With each component's closure (`sets`, `counts`): a forcing chain
    /// search needs them, a cycle search only the components.
    pub(super) closed: bool,
    /// The literals visited (reachable from the roots): only theirs
    /// `comp` and `index` are set.
    pub(super) visited: LitSet,
    /// Per visited literal: its component.
    pub(super) comp: Vec<u32>,
    /// Per visited literal: its visit order, its bit in the components'
    /// sets.
    pub(super) index: Vec<u32>,
    /// Per component, `words` words: the literals its members reach,
    /// themselves included.
    pub(super) sets: Vec<u64>,
    pub(super) words: usize,
    // Tarjan's search: low links, the component stack, the call stack
    // (literal, its next and end inferences in the cache), a component's
    // members, the last component merged into each.
    pub(super) low: Vec<u32>,
    pub(super) on_stack: LitSet,
    pub(super) stack: Vec<u16>,
    pub(super) call: Vec<(u16, u32, u32)>,
    pub(super) members: Vec<u16>,
    pub(super) merged: Vec<u32>,
    /// Per component: its number of literals.
    pub(super) sizes: Vec<u32>,
    /// Per component: the number of literals its members reach.
    pub(super) counts: Vec<u32>,
    /// Per visited literal, once `inner_done` holds it: its inferences
    /// that stay in its component, in order, at
    /// `inner[inner_span[l].0 ..][.. inner_span[l].1]` (a cycle search
    /// follows no other).
    pub(super) inner: Vec<Inference>,
    pub(super) inner_span: Vec<(u32, u32)>,
    pub(super) inner_done: LitSet,
}

const NONE: u32 = u32::MAX;

impl Reach {
    /// Does literal `from` reach literal `to`? `None` when `from` was not
    /// visited.
    #[inline]
    pub(super) fn reaches(&self, from: u16, to: u16) -> Option<bool> {
        if !self.visited.contains(usize::from(from)) {
            return None;
        }
        if !self.visited.contains(usize::from(to)) {
            return Some(false);
        }
        let k = self.comp[usize::from(from)];
        let j = self.index[usize::from(to)];
        let w = self.sets[k as usize * self.words + (j / 64) as usize];
        Some(w >> (j % 64) & 1 != 0)
    }

    /// The inferences of visited literal `l` that stay in its component
    /// (its static inferences, in `infer`'s cache, are known).
    #[inline]
    pub(super) fn inner(&mut self, l: u16, infer: &Infer) -> &[Inference] {
        let i = usize::from(l);
        if !self.inner_done.contains(i) {
            self.find_inner(i, infer);
        }
        let (s, n) = self.inner_span[i];
        &self.inner[s as usize..(s + n) as usize]
    }

    #[inline(never)]
    fn find_inner(&mut self, i: usize, infer: &Infer) {
        self.inner_done.insert(i);
        let start = self.inner.len();
        let home = self.comp[i];
        let (s, n) = infer.span[i];
        for e in &infer.cache[s as usize..(s + n) as usize] {
            if self.comp[usize::from(e.lit)] == home {
                self.inner.push(*e);
            }
        }
        self.inner_span[i] = (start as u32, (self.inner.len() - start) as u32);
    }

    /// Is visited literal `l` alone in its component? (Then no inference
    /// stays in it: no literal infers itself.)
    #[inline]
    pub(super) fn alone(&self, l: u16) -> bool {
        self.sizes[self.comp[usize::from(l)] as usize] == 1
    }

    /// The number of literals `from` reaches (it was visited).
    #[inline]
    pub(super) fn count(&self, from: u16) -> u32 {
        self.counts[self.comp[usize::from(from)] as usize]
    }

    /// Computes what the literals `roots` reach by `st`'s static steps
    /// (their inferences read from, and added to, `infer`'s cache), for
    /// forcing chains and cycles; with `closures`, each component's
    /// closure too (a cycle search needs only the components).
    pub(super) fn compute(
        &mut self,
        st: &Stepper,
        infer: &mut Infer,
        roots: impl Iterator<Item = u16>,
        closures: bool,
    ) {
        let orig = &st.orig;
        let (reach, infer) = (self, infer);
        let n = 2 * N_CANDS;
        let words = (2 * orig.cands.len()).div_ceil(64).max(1);
        reach.words = words;
        if reach.comp.len() < n {
            reach.comp.resize(n, NONE);
            reach.index.resize(n, NONE);
            reach.low.resize(n, 0);
        }
        reach.visited = LitSet::EMPTY;
        reach.inner_done = LitSet::EMPTY;
        reach.inner.clear();
        if reach.inner_span.len() < n {
            reach.inner_span.resize(n, (0, 0));
        }
        reach.sets.clear();
        reach.merged.clear();
        reach.sizes.clear();
        reach.counts.clear();
        reach.on_stack = LitSet::EMPTY;
        reach.stack.clear();
        reach.call.clear();
        let mut counter = 0u32;
        let visit = |r: &mut Reach, inf: &mut Infer, v: u16, counter: &mut u32| {
            let i = usize::from(v);
            r.visited.insert(i);
            r.index[i] = *counter;
            r.low[i] = *counter;
            *counter += 1;
            r.stack.push(v);
            r.on_stack.insert(i);
            if !inf.done.contains(i) {
                st.infer_static(v, inf);
            }
            let (s, n) = inf.span[i];
            r.call.push((v, s, s + n));
        };
        for root in roots {
            if reach.visited.contains(usize::from(root)) || !orig.cands.contains(lit_cand(root)) {
                continue;
            }
            visit(reach, infer, root, &mut counter);
            while let Some(top) = reach.call.last_mut() {
                let (v, next, end) = *top;
                if next < end {
                    top.1 += 1;
                    let w = infer.cache[next as usize].lit;
                    if !reach.visited.contains(usize::from(w)) {
                        visit(reach, infer, w, &mut counter);
                    } else if reach.on_stack.contains(usize::from(w)) {
                        let iw = reach.index[usize::from(w)];
                        let lv = &mut reach.low[usize::from(v)];
                        *lv = (*lv).min(iw);
                    }
                    continue;
                }
                reach.call.pop();
                let lowv = reach.low[usize::from(v)];
                if let Some(&(u, _, _)) = reach.call.last() {
                    let lu = &mut reach.low[usize::from(u)];
                    *lu = (*lu).min(lowv);
                }
                if lowv != reach.index[usize::from(v)] {
                    continue;
                }
                // `v` roots a component: its members are on the stack;
                // every other component they reach is complete.
                let k = reach.sizes.len() as u32;
                reach.members.clear();
                while let Some(w) = reach.stack.pop() {
                    reach.on_stack.remove(usize::from(w));
                    reach.comp[usize::from(w)] = k;
                    reach.members.push(w);
                    if w == v {
                        break;
                    }
                }
                reach.sizes.push(reach.members.len() as u32);
                if !closures {
                    continue;
                }
                // The component's set is built in place, after the sets
                // of the components before it (the ones it reaches).
                let at = reach.sets.len();
                reach.sets.resize(at + words, 0);
                let (done, set) = reach.sets.split_at_mut(at);
                for &w in &reach.members {
                    let j = reach.index[usize::from(w)] as usize;
                    set[j / 64] |= 1u64 << (j % 64);
                }
                // Each component reached merged once (`merged` holds the
                // last component that took it).
                for &m in &reach.members {
                    let (s, n) = infer.span[usize::from(m)];
                    for e in &infer.cache[s as usize..(s + n) as usize] {
                        let c = reach.comp[usize::from(e.lit)];
                        if c != k && reach.merged[c as usize] != k {
                            reach.merged[c as usize] = k;
                            let from = &done[c as usize * words..][..words];
                            for (a, b) in set.iter_mut().zip(from) {
                                *a |= b;
                            }
                        }
                    }
                }
                reach.merged.push(NONE);
                let count = set.iter().map(|w| w.count_ones()).sum();
                reach.counts.push(count);
            }
        }
        reach.ready = true;
        reach.closed = closures;
    }
}
