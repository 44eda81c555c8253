//! The mode finders that follow one assumption by themselves, on a pass's
//! implication steps: cycles through a candidate on ([`Stepper::cycles`])
//! and forcing chains from a literal to its negation
//! ([`Stepper::forcing`]), both breadth-first, both pruned by static
//! reachability when it is known ([`super::reach`]). The binary modes
//! (contradiction, double, cell, region) read the graphs of full
//! propagations instead ([`super::pass`]).

use super::scratch::Buffers;
use super::steps::{Live, Stepper, parents};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::plane::PEERS81;
use crate::search::SearchCx;
use crate::search::implication::{self, Cause, Graph, lit, lit_cand, lit_on};

impl Stepper {
    /// Cycles from `z` on: breadth-first, layer by layer, a literal not
    /// repeated along its own path; every return to `z` on after at least
    /// four layers is a cycle. Returns the nodes of `z` on that close one.
    ///
    /// With static reachability known, the search follows only the
    /// inferences that stay in the source's strongly connected component
    /// (a literal outside it cannot lead back to the source), and a source
    /// with none of them counts its one node and leaves `g` as it is.
    pub(super) fn cycles(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        g: &mut Graph,
        z: usize,
    ) -> Vec<u32> {
        let source = lit(z, true);
        let r = &mut sc.reach;
        if !r.ready || !r.visited.contains(usize::from(source)) {
            return self.cycles_in(cx, g, z, sc.emptied());
        }
        if r.alone(source) {
            cx.tick();
            return Vec::new();
        }
        self.cycles_inner(cx, g, source, sc.emptied())
    }

    /// The cycle search of [`Stepper::cycles`] along the inferences that stay
    /// in the component of `source` (visited by [`super::reach::Reach::compute`]):
    /// the same nodes, in the same order, as [`Stepper::cycles_in`] makes.
    fn cycles_inner(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        source: u16,
        sc: &mut Buffers,
    ) -> Vec<u32> {
        let s = g.add(source, Cause::Assumption, &[]);
        let Buffers {
            pend_on,
            pend_off,
            infer,
            reach,
            ..
        } = sc;
        pend_on.push_back(s);
        let mut found = Vec::new();
        let mut length = 0;
        // A layer's nodes are counted before it is drained: a queue drained
        // fills only the other one.
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            if cx.tick_n(pend_on.len()) {
                return found;
            }
            while let Some(p) = pend_on.pop_front() {
                for inf in reach.inner(g.node(p).lit, infer) {
                    // A literal never inferred is on no path (the cheap test
                    // first).
                    if !g.contains(inf.lit) || !g.on_first_path(p, inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            }
            length += 1;
            if cx.tick_n(pend_off.len()) {
                return found;
            }
            while let Some(p) = pend_off.pop_front() {
                for inf in reach.inner(g.node(p).lit, infer) {
                    if length >= 4 && inf.lit == source {
                        found.push(g.push(inf.lit, inf.cause, &[p]));
                    }
                    if !g.contains(inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_on.push_back(n);
                    }
                }
            }
        }
        found
    }

    fn cycles_in(&self, cx: &mut SearchCx, g: &mut Graph, z: usize, sc: &mut Buffers) -> Vec<u32> {
        let cur = &self.orig;
        let source = lit(z, true);
        let s = g.add(source, Cause::Assumption, &[]);
        let Buffers {
            pend_on,
            pend_off,
            par,
            infer,
            reach,
        } = sc;
        // With static reachability known, a literal that cannot lead back
        // to the source starts no cycle: it is not searched from. Every
        // literal met is reached from the source, so it leads back to it
        // exactly when it is in the source's strongly connected component
        // (what `reach.reaches(l, source)` says, read from one array).
        let home = reach
            .visited
            .contains(usize::from(source))
            .then(|| reach.comp[usize::from(source)]);
        let returns = |l: u16| {
            !reach.ready
                || !reach.visited.contains(usize::from(l))
                || home == Some(reach.comp[usize::from(l)])
        };
        pend_on.push_back(s);
        let mut found = Vec::new();
        let mut length = 0;
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            while let Some(p) = pend_on.pop_front() {
                if cx.tick() {
                    return found;
                }
                let (infs, _) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    // A literal never inferred is on no path (the cheap tests
                    // first).
                    if returns(inf.lit) && (!g.contains(inf.lit) || !g.on_first_path(p, inf.lit)) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            }
            length += 1;
            while let Some(p) = pend_off.pop_front() {
                if cx.tick() {
                    return found;
                }
                let (infs, hidden) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    parents(g, p, inf, hidden, par);
                    if length >= 4 && inf.lit == source {
                        found.push(g.push(inf.lit, inf.cause, par));
                    }
                    if !g.contains(inf.lit) && returns(inf.lit) {
                        let n = g.add(inf.lit, inf.cause, par);
                        pend_on.push_back(n);
                    }
                }
            }
        }
        found
    }

    /// Forcing chains from literal `source`: breadth-first until nothing
    /// is new; returns the first node of the negation of `source` reached.
    ///
    /// With static reachability known, the search stops at that node:
    /// every node after it is no ancestor of it, and the literals it would
    /// still have visited (those `source` reaches, less the ones popped)
    /// are counted at once, so node counts stay the same.
    ///
    /// `limit`: the largest complexity a chain the caller still wants may
    /// have (a search for the first match only: a longer one cannot come
    /// first). With reachability known, the search ends before the layer
    /// whose hits would be longer, its other literals counted at once:
    /// static steps give each literal one node and one parent, so the
    /// chain to a hit at layer `k` (the source is layer 0) has exactly
    /// `k + 1` distinct literals.
    pub(super) fn forcing(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        g: &mut Graph,
        source: u16,
        limit: Option<usize>,
    ) -> Option<u32> {
        let r = &sc.reach;
        let total = if r.ready && r.closed && r.visited.contains(usize::from(source)) {
            let total = r.count(source);
            if limit.is_some_and(|m| m < 2)
                || r.reaches(source, implication::conjugate(source)) == Some(false)
            {
                // The propagation would visit each literal `source` reaches
                // once, to find nothing (or nothing short enough).
                cx.tick_n(total);
                return None;
            }
            Some(total)
        } else {
            None
        };
        let limit = if total.is_some() { limit } else { None };
        self.forcing_in(cx, g, source, sc.emptied(), total, limit)
    }

    /// The breadth-first search of [`Stepper::forcing`]; `total`: the number
    /// of literals `source` reaches, when known (then the search stops at
    /// the first node of its negation).
    fn forcing_in(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        source: u16,
        sc: &mut Buffers,
        total: Option<u32>,
        limit: Option<usize>,
    ) -> Option<u32> {
        let cur = &self.orig;
        let s = g.add(source, Cause::Assumption, &[]);
        let neg = implication::conjugate(source);
        let Buffers {
            pend_on,
            pend_off,
            par,
            infer,
            reach,
        } = sc;
        if lit_on(source) {
            pend_on.push_back(s);
        } else {
            pend_off.push_back(s);
        }
        // With reachability known, a literal that cannot reach the
        // negation is not queued: it is no ancestor of the hit, and the
        // literals that are keep their order and first parents (the first
        // node that infers one reaches the negation through it), so the
        // hit's chain is the same.
        // Every literal met is visited (the source is): `l` reaches the
        // negation when its component's closure holds the negation's bit.
        let (nw, nb) = match total {
            Some(_) => {
                let j = reach.index[usize::from(neg)] as usize;
                (j / 64, j % 64)
            }
            None => (0, 0),
        };
        let leads = |l: u16| {
            total.is_none() || {
                let k = reach.comp[usize::from(l)] as usize;
                reach.sets[k * reach.words + nw] >> nb & 1 != 0
            }
        };
        // The nodes counted so far (the layers drained and the one being
        // drained); at the first hit, with `total` known, the rest are
        // counted and the search ends.
        let mut popped = 0u32;
        let stop = |cx: &mut SearchCx, popped: u32, hit: u32| {
            total.map(|t| (!cx.tick_n(t - popped)).then_some(hit))
        };
        let mut hit = None;
        // The layer of the hits the queue drained next gives: "on" and
        // "off" literals alternate, a queue drained at a time, so the nodes
        // popped from it are all of one layer (an "off" source's first
        // "on" queue is empty: it is layer -1).
        let mut next: usize = if lit_on(source) { 1 } else { 0 };
        // A hit at layer `k` has complexity `k + 1`: past the limit, the
        // literals left are counted and the search ends.
        let past = |next: usize| limit.is_some_and(|m| next + 1 > m);
        while !pend_on.is_empty() || !pend_off.is_empty() {
            if !pend_on.is_empty() && past(next) {
                cx.tick_n(total.unwrap_or(0) - popped);
                return None;
            }
            // A layer's nodes are counted before it is drained (a queue
            // drained fills only the other one).
            popped += pend_on.len();
            if cx.tick_n(pend_on.len()) {
                return None;
            }
            while let Some(p) = pend_on.pop_front() {
                let (infs, _) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    if inf.lit == neg && hit.is_none() {
                        let t = g.push(inf.lit, inf.cause, &[p]);
                        if let Some(r) = stop(cx, popped, t) {
                            return r;
                        }
                        hit = Some(t);
                    }
                    // SE also asks that the literal is not on `p`'s path;
                    // a literal never inferred is on no path.
                    if !g.contains(inf.lit) && leads(inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            }
            next += 1;
            if !pend_off.is_empty() && past(next) {
                cx.tick_n(total.unwrap_or(0) - popped);
                return None;
            }
            popped += pend_off.len();
            if cx.tick_n(pend_off.len()) {
                return None;
            }
            while let Some(p) = pend_off.pop_front() {
                let (infs, hidden) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    // No hidden literals: `p` is the one parent.
                    let simple = inf.n_hidden == 0;
                    if !simple {
                        parents(g, p, inf, hidden, par);
                    }
                    if inf.lit == neg && hit.is_none() {
                        let t = if simple {
                            g.push(inf.lit, inf.cause, &[p])
                        } else {
                            g.push(inf.lit, inf.cause, par)
                        };
                        if let Some(r) = stop(cx, popped, t) {
                            return r;
                        }
                        hit = Some(t);
                    }
                    if !g.contains(inf.lit) && leads(inf.lit) {
                        let n = if simple {
                            g.add_one(inf.lit, inf.cause, p)
                        } else {
                            g.add(inf.lit, inf.cause, par)
                        };
                        pend_on.push_back(n);
                    }
                }
            }
            next += 1;
        }
        hit
    }
}

/// The eliminations of a cycle closing at node `dst`: candidates of the
/// cycle's digits (live in `live`, the search's state), outside the
/// cycle's cells, that see a cell of the cycle where the digit is on and
/// one where it is off.
pub(super) fn cycle_removable(live: &Live, g: &Graph, dst: u32) -> Option<Bits> {
    // The cycle's cells, its digits, and per digit the cells that see a
    // cell of the cycle where the digit is on (`fwd`), off (`back`), as
    // cell masks.
    let (mut cells, mut digits) = (0u128, 0u16);
    let (mut fwd, mut back) = ([0u128; 9], [0u128; 9]);
    let mut p = dst;
    while let Some(&q) = g.parents(p).first() {
        let l = g.node(p).lit;
        let (c, d) = (cand_cell(lit_cand(l)), cand_digit(lit_cand(l)));
        cells |= 1u128 << c;
        digits |= 1 << d;
        if lit_on(l) {
            fwd[d] |= PEERS81[c] | 1 << c;
        } else {
            back[d] |= PEERS81[c] | 1 << c;
        }
        p = q;
    }
    let mut r = Bits::EMPTY;
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut m = fwd[d] & back[d] & !cells & live.planes[d];
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            r.insert(cand(o, d));
        }
    }
    (!r.is_empty()).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{chain_steps, hard_state};
    use super::*;

    /// Static reachability changes nothing a forcing chain or cycle search
    /// finds: the same chains (so the same complexities and paths), the
    /// same cycle eliminations, the same node counts for forcing chains
    /// and no more for cycles.
    #[test]
    fn reachability_keeps_forcing_chains_and_cycles() {
        let state = hard_state();
        let (mut hits, mut cycles, mut spared) = (0, 0, 0);
        for steps in chain_steps() {
            let st = Stepper::new(&state.cands, steps, false);
            // Buffers without reachability, with it, and with components
            // alone (a pass that looks for cycles only).
            let [mut plain, mut pruned, mut comps] = [(); 3].map(|_| Buffers::default());
            for sc in [&mut plain, &mut pruned, &mut comps] {
                sc.ready_for(&st);
            }
            let roots = || {
                state
                    .cands
                    .iter()
                    .flat_map(|z| [lit(z, true), lit(z, false)])
            };
            pruned.reach.compute(&st, &mut pruned.infer, roots(), true);
            comps.reach.compute(&st, &mut comps.infer, roots(), false);
            let (mut g1, mut g2) = (Graph::new(), Graph::new());
            for z in state.cands.iter() {
                for on in [true, false] {
                    let (mut c1, mut c2) = (SearchCx::new(None), SearchCx::new(None));
                    g1.clear();
                    g2.clear();
                    let a = st.forcing(&mut c1, &mut plain, &mut g1, lit(z, on), None);
                    let b = st.forcing(&mut c2, &mut pruned, &mut g2, lit(z, on), None);
                    assert_eq!(a.map(|t| g1.extract(t)), b.map(|t| g2.extract(t)));
                    assert_eq!(
                        a.map(|t| g1.ancestor_count(t)),
                        b.map(|t| g2.ancestor_count(t))
                    );
                    assert_eq!(c1.nodes, c2.nodes, "{}", implication::lit_name(lit(z, on)));
                    hits += usize::from(a.is_some());
                    // A limit at the chain's complexity finds it, one less
                    // nothing; the node count stays.
                    if let Some(t) = b {
                        let k = g2.ancestor_count(t);
                        for limit in [k - 1, k] {
                            let (mut c4, mut g4) = (SearchCx::new(None), Graph::new());
                            let d =
                                st.forcing(&mut c4, &mut pruned, &mut g4, lit(z, on), Some(limit));
                            assert_eq!(
                                d.map(|t| g4.extract(t)),
                                (limit == k).then(|| g2.extract(t))
                            );
                            assert_eq!(c4.nodes, c2.nodes);
                        }
                    }
                }
                let (mut c1, mut c2) = (SearchCx::new(None), SearchCx::new(None));
                g1.clear();
                g2.clear();
                let a = st.cycles(&mut c1, &mut plain, &mut g1, z);
                let b = st.cycles(&mut c2, &mut pruned, &mut g2, z);
                let (mut c3, mut g3) = (SearchCx::new(None), Graph::new());
                let b3 = st.cycles(&mut c3, &mut comps, &mut g3, z);
                assert_eq!(c3.nodes, c2.nodes);
                assert_eq!(
                    b.iter().map(|&d| g2.extract(d)).collect::<Vec<_>>(),
                    b3.iter().map(|&d| g3.extract(d)).collect::<Vec<_>>()
                );
                assert_eq!(a.len(), b.len());
                for (&d1, &d2) in a.iter().zip(&b) {
                    assert_eq!(g1.extract(d1), g2.extract(d2));
                    assert_eq!(g1.ancestor_count(d1), g2.ancestor_count(d2));
                    assert_eq!(
                        cycle_removable(&st.orig, &g1, d1),
                        cycle_removable(&st.orig, &g2, d2)
                    );
                }
                assert!(c2.nodes <= c1.nodes);
                cycles += a.len();
                spared += c1.nodes - c2.nodes;
            }
        }
        assert!(
            hits > 0 && cycles > 0 && spared > 0,
            "{hits} {cycles} {spared}"
        );
    }
}
