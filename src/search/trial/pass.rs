//! An implication pass: the chosen cells' candidates assumed, each
//! propagated by the pass's steps, and the pass's matches collected in
//! their fixed order. For each chosen cell, for each candidate: cycles and
//! forcing chains from the candidate on, forcing chains from it off
//! ([`PassRun::unary`]); its contradictions (on, then off), its double
//! implications and its regions ([`PassRun::binary`]); then, after the
//! cell's last candidate, the cell's conclusions ([`PassRun::cell`]).

use super::collect::{Collector, Hint, Order, Recipe, order, sorts_before};
use super::link::PassLinks;
use super::modes::cycle_removable;
use super::prop::Prop;
use super::scratch::{Buffers, Graphs};
use super::spec::{Conclude, Mode, Pass};
use crate::grid::geometry::*;
use crate::grid::plane::HOUSES81_BRC;
use crate::grid::state::cell_masks;
use crate::search::SearchCx;
use crate::search::implication::{self, Cause, Graph, SavedGraph, lit, lit_on};

/// Runs implication pass `pi` (`pass`, linked as `links`) on the
/// collector's state, adding its matches to `col`, with the search's
/// graphs `g`.
pub(super) fn run_pass(
    cx: &mut SearchCx,
    pi: usize,
    pass: &Pass,
    links: &PassLinks,
    col: &mut Collector,
    g: &mut Graphs,
) {
    let state = col.state;
    let mut sc = cx.trial.buffers();
    let prop = Prop::new(cx, state, links);
    sc.ready_for(&prop.st);
    let run = PassRun {
        pi,
        pass,
        prop,
        wants: Wants {
            cycle: pass.wants(Mode::Cycle),
            forcing: pass.wants(Mode::Forcing),
            contradiction: pass.wants(Mode::Contradiction),
            double: pass.wants(Mode::Double),
            cell: pass.wants(Mode::Cell),
            region: pass.wants(Mode::Region),
        },
        masks: cell_masks(&state.cands),
    };
    run.run(cx, &mut sc, col, g);
    cx.trial.give_buffers(sc);
}

/// The conclusions a pass looks for, by mode.
struct Wants<'p> {
    cycle: Option<&'p Conclude>,
    forcing: Option<&'p Conclude>,
    contradiction: Option<&'p Conclude>,
    double: Option<&'p Conclude>,
    cell: Option<&'p Conclude>,
    region: Option<&'p Conclude>,
}

impl Wants<'_> {
    /// Does the pass propagate each candidate to a fixpoint (the modes
    /// read off full propagations)?
    fn binary(&self) -> bool {
        self.contradiction.is_some()
            || self.double.is_some()
            || self.cell.is_some()
            || self.region.is_some()
    }
}

/// A pass under way on a state.
struct PassRun<'p> {
    pi: usize,
    pass: &'p Pass,
    prop: Prop<'p>,
    wants: Wants<'p>,
    /// Each cell's live digits (a pass reads them twice per cell).
    masks: [u16; N_CELLS],
}

/// A search for its first match finds a pass's cycles first (in the same
/// order, put back among the matches where they come): a forcing chain
/// that cannot sort before one of them, or before a match found earlier,
/// is not completed (its nodes are counted).
#[derive(Default)]
struct Ahead {
    /// Cycles were found ahead.
    on: bool,
    /// The cycles found ahead, each with its candidate, in order.
    later: Vec<(usize, Option<Hint>)>,
    /// The next of `later` to put back.
    next: usize,
    /// The first of `later` in report order.
    best: Option<Order>,
    /// The forcing chains' limit, for the first of the hints it was
    /// computed with.
    limit: Option<(Option<Order>, Option<usize>)>,
}

impl PassRun<'_> {
    /// Is a cell with `n` live candidates one the pass assumes from?
    fn chosen(&self, n: usize) -> bool {
        n >= self.pass.min_cell.max(1) && n <= self.pass.max_cell
    }

    fn run(&self, cx: &mut SearchCx, sc: &mut Buffers, col: &mut Collector, g: &mut Graphs) {
        g.cached.iter_mut().for_each(|c| *c = None);
        self.reachability(sc);
        let Some(mut ahead) = self.cycles_ahead(cx, sc, col, g) else {
            return;
        };
        // The graphs and kept propagations grow with the passes run (a pass
        // over 81 cells holds a bounded amount): looked at against the
        // memory cap once a pass. Adding up what they hold walks every
        // graph; once a cell, it cost SE's ratings 12% of their
        // instructions.
        if cx.memory_limit().is_some() {
            let held = g.bytes() + cx.trial.memo.bytes();
            if cx.over(held) {
                return;
            }
        }
        for (c, &mask) in self.masks.iter().enumerate() {
            if cx.interrupted() {
                return;
            }
            let n = mask.count_ones() as usize;
            if !self.chosen(n) {
                continue;
            }
            for z in cell_cands(c, mask) {
                self.unary(cx, sc, col, g, &mut ahead, z, n);
            }
            if !self.wants.binary() {
                continue;
            }
            g.reserve(n);
            for (i, z) in cell_cands(c, mask).enumerate() {
                self.binary(cx, sc, col, g, i, z, n);
            }
            if let Some(cc) = self.wants.cell.filter(|cc| n >= cc.min_cell) {
                self.cell(col, g, cc, c, n);
            }
        }
    }

    /// Static reachability from both literals of every candidate the pass
    /// starts from, when it looks for forcing chains or cycles (with the
    /// components' closures for forcing chains).
    fn reachability(&self, sc: &mut Buffers) {
        let forcing = self.wants.forcing.is_some();
        if !forcing && self.wants.cycle.is_none() {
            return;
        }
        let roots = self.masks.iter().enumerate().flat_map(|(c, &mask)| {
            let chosen = self.chosen(mask.count_ones() as usize);
            cell_cands(c, mask)
                .filter(move |_| chosen)
                .flat_map(|z| [lit(z, true), lit(z, false)])
        });
        self.prop.reach_from(sc, roots, forcing);
    }

    /// In a search for its first match, the pass's cycles, found before its
    /// other matches (see [`Ahead`]); `None` when the search was
    /// interrupted.
    fn cycles_ahead(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        col: &mut Collector,
        g: &mut Graphs,
    ) -> Option<Ahead> {
        let mut ahead = Ahead::default();
        let (Some(cc), Some(_)) = (self.wants.cycle, self.wants.forcing) else {
            return Some(ahead);
        };
        if !col.first {
            return Some(ahead);
        }
        ahead.on = true;
        let mut later = Vec::new();
        let best = col.best;
        for (c, &mask) in self.masks.iter().enumerate() {
            if cx.interrupted() {
                return None;
            }
            let n = mask.count_ones() as usize;
            if !self.chosen(n) || n < cc.min_cell {
                continue;
            }
            for z in cell_cands(c, mask) {
                let k = col.hints.len();
                self.cycle_hints(cx, sc, cc, z, col, &mut g.off);
                later.extend(col.hints.drain(k..).map(|h| (z, h)));
            }
        }
        col.best = best;
        ahead.best = later
            .iter()
            .map(|(_, h)| order(h))
            .reduce(|a, b| if sorts_before(&b, &a) { b } else { a });
        ahead.later = later.into_iter().map(|(z, h)| (z, Some(h))).collect();
        Some(ahead)
    }

    /// The unary searches from candidate `z` (of a cell with `n`
    /// candidates): its cycles (or those found ahead, put back), then its
    /// forcing chains from `z` on and off.
    #[allow(clippy::too_many_arguments)]
    fn unary(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        col: &mut Collector,
        g: &mut Graphs,
        ahead: &mut Ahead,
        z: usize,
        n: usize,
    ) {
        if ahead.on {
            while let Some((y, h)) = ahead.later.get_mut(ahead.next)
                && *y == z
            {
                col.take(h.take().expect("put back once"));
                ahead.next += 1;
            }
        } else if let Some(cc) = self.wants.cycle.filter(|cc| n >= cc.min_cell) {
            self.cycle_hints(cx, sc, cc, z, col, &mut g.off);
        }
        if let Some(fc) = self.wants.forcing.filter(|fc| n >= fc.min_cell) {
            for (on, wanted) in [(true, self.pass.assume_on), (false, self.pass.assume_off)] {
                if wanted {
                    self.forcing_hint(cx, sc, col, &mut g.off, ahead, fc, lit(z, on));
                }
            }
        }
    }

    /// The cycles from candidate `z` on, concluded by `cc`, as hints of
    /// `col` (in graph `g`).
    fn cycle_hints(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        cc: &Conclude,
        z: usize,
        col: &mut Collector,
        g: &mut Graph,
    ) {
        g.clear();
        for (nth, dst) in self.prop.st.cycles(cx, sc, g, z).into_iter().enumerate() {
            if let Some(rem) = cycle_removable(&self.prop.st.orig, g, dst) {
                let recipe = Recipe::Cycle {
                    pass: self.pi,
                    z,
                    nth,
                };
                let k = col.hints.len();
                col.push(cc, rem, None, g.ancestor_count(dst), recipe);
                col.keep_chains(k, || vec![g.extract(dst)]);
            }
        }
    }

    /// The forcing chain from literal `source`, concluded by `fc`, as a
    /// hint of `col` (in graph `g`); in a search for its first match, only
    /// if it can come first.
    #[allow(clippy::too_many_arguments)]
    fn forcing_hint(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        col: &mut Collector,
        g: &mut Graph,
        ahead: &mut Ahead,
        fc: &Conclude,
        source: u16,
    ) {
        let lim = match ahead.limit {
            _ if !col.first => None,
            Some((b, m)) if b == col.best => m,
            _ => {
                let m = col.limit(fc, ahead.best);
                ahead.limit = Some((col.best, m));
                m
            }
        };
        g.clear();
        if let Some(t) = self.prop.st.forcing(cx, sc, g, source, lim) {
            let recipe = Recipe::Forcing {
                pass: self.pi,
                source,
            };
            let k = col.hints.len();
            col.add(fc, g.node(t).lit, g.ancestor_count(t), recipe);
            col.keep_chains(k, || vec![g.extract(t)]);
        }
    }

    /// The binary searches from candidate `z`, the `i`-th of a cell with
    /// `n` candidates: `z` on to a fixpoint (kept in `g.on[i]` for the
    /// cell's conclusions), its contradiction; `z` off when wanted, its
    /// contradiction and the double implications; the regions `z` starts.
    #[allow(clippy::too_many_arguments)]
    fn binary(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        col: &mut Collector,
        g: &mut Graphs,
        i: usize,
        z: usize,
        n: usize,
    ) {
        let (pass, w) = (self.pass, &self.wants);
        let absurd_on = self.propagate_on(cx, sc, g, i, z);
        if let (Some(cc), Some(ab)) = (w.contradiction, absurd_on)
            && n >= cc.min_cell
            && pass.assume_on
        {
            self.contradiction(col, &g.on[i], cc, ab, lit(z, true));
        }
        let need_off = pass.assume_off
            && (w.contradiction.is_some() || w.double.is_some_and(|d| n >= d.min_cell));
        if need_off {
            let g_off = &mut g.off;
            g_off.clear();
            g_off.add(lit(z, false), Cause::Assumption, &[]);
            let absurd_off = self.prop.chain(cx, sc, g_off);
            if let (Some(cc), Some(ab)) = (w.contradiction, absurd_off)
                && n >= cc.min_cell
            {
                self.contradiction(col, &g.off, cc, ab, lit(z, false));
            }
            if let Some(dc) = w.double.filter(|d| n >= d.min_cell) {
                self.doubles(col, &g.on[i], &g.off, dc, z);
            }
        }
        if let Some(rc) = w.region.filter(|r| n >= r.min_cell) {
            self.regions(cx, sc, col, g, rc, i, z);
        }
    }

    /// Candidate `z` on, to a fixpoint, in `g.on[i]`: taken from the
    /// pass's cache when a region made it, else propagated. Its
    /// contradiction, if any.
    fn propagate_on(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        g: &mut Graphs,
        i: usize,
        z: usize,
    ) -> Option<(u32, u32)> {
        let g_on = &mut g.on[i];
        match g.cached[z].take() {
            Some((saved, absurd)) => {
                g_on.restore(&saved);
                absurd
            }
            None => {
                g_on.clear();
                g_on.add(lit(z, true), Cause::Assumption, &[]);
                self.prop.chain(cx, sc, g_on)
            }
        }
    }

    /// The contradiction (nodes `a`, `b` of graph `g`) that the assumption
    /// `source` led to, concluded by `cc`: the assumption is false.
    fn contradiction(
        &self,
        col: &mut Collector,
        g: &Graph,
        cc: &Conclude,
        (a, b): (u32, u32),
        source: u16,
    ) {
        let n_ab = g.complexity_of(&[a, b]);
        let recipe = Recipe::Contra {
            pass: self.pi,
            source,
        };
        let k = col.hints.len();
        col.add(cc, implication::conjugate(source), n_ab, recipe);
        col.keep_chains(k, || vec![g.extract(a), g.extract(b)]);
    }

    /// The literals that candidate `z` on (graph `g_on`) and off (`g_off`)
    /// both imply, concluded by `dc`: literals on, then off, each in the
    /// order `z` on inferred them.
    fn doubles(&self, col: &mut Collector, g_on: &Graph, g_off: &Graph, dc: &Conclude, z: usize) {
        for wanted_on in [true, false] {
            for t in nodes_in_order(g_on) {
                let l = g_on.node(t).lit;
                if lit_on(l) != wanted_on {
                    continue;
                }
                if let Some(u) = g_off.get(l) {
                    let n = Graph::complexity_across([(g_on, t), (g_off, u)]);
                    let recipe = Recipe::Double {
                        pass: self.pi,
                        z,
                        target: l,
                    };
                    col.add(dc, l, n, recipe);
                }
            }
        }
    }

    /// Region conclusions for candidate `z` (the `i`-th of its cell, whose
    /// "on" graph is `g.on[i]`), concluded by `rc`: each house where `z` is
    /// the first place of its digit, and the digit has two places or more.
    #[allow(clippy::too_many_arguments)]
    fn regions(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        col: &mut Collector,
        g: &mut Graphs,
        rc: &Conclude,
        i: usize,
        z: usize,
    ) {
        let state = col.state;
        let (c, d) = (cand_cell(z), cand_digit(z));
        for (_, h) in HOUSES81_BRC[c] {
            let h = usize::from(h);
            let places: Vec<usize> = house_cells(h)
                .into_iter()
                .filter(|&o| state.cands.contains(cand(o, d)))
                .collect();
            if places.len() < 2 || places[0] != c {
                continue;
            }
            g.reserve(places.len());
            for (j, &o) in places.iter().enumerate().skip(1) {
                // Every place after the first is a later cell: its own
                // binary search takes this propagation from the cache.
                let y = cand(o, d);
                let gr = &mut g.region[j];
                match &g.cached[y] {
                    Some((saved, _)) => gr.restore(saved),
                    None => {
                        gr.clear();
                        gr.add(lit(y, true), Cause::Assumption, &[]);
                        let absurd = self.prop.chain(cx, sc, gr);
                        let mut saved = SavedGraph::default();
                        gr.save(&mut saved);
                        g.cached[y] = Some((saved, absurd));
                    }
                }
            }
            let own = &g.on[i];
            let others = &g.region[1..places.len()];
            for wanted_on in [true, false] {
                for t in nodes_in_order(own) {
                    let l = own.node(t).lit;
                    if lit_on(l) != wanted_on || !others.iter().all(|g| g.contains(l)) {
                        continue;
                    }
                    let n = Graph::complexity_across(
                        std::iter::once((own, t))
                            .chain(others.iter().map(|g| (g, g.get(l).unwrap_or(0)))),
                    );
                    let recipe = Recipe::Region {
                        pass: self.pi,
                        z,
                        house: h,
                        target: l,
                    };
                    col.add(rc, l, n, recipe);
                }
            }
        }
    }

    /// The cell conclusions of cell `c` (its `n` candidates' "on" graphs in
    /// `g.on`), concluded by `cc`: the literals every candidate on implies,
    /// on, then off, in the order the first candidate inferred them.
    fn cell(&self, col: &mut Collector, g: &Graphs, cc: &Conclude, c: usize, n: usize) {
        let graphs = &g.on[..n];
        for wanted_on in [true, false] {
            let first = &graphs[0];
            for t in nodes_in_order(first) {
                let l = first.node(t).lit;
                if lit_on(l) != wanted_on || !graphs[1..].iter().all(|g| g.contains(l)) {
                    continue;
                }
                let k = Graph::complexity_across(graphs.iter().map(|g| (g, g.get(l).unwrap_or(0))));
                let recipe = Recipe::Cell {
                    pass: self.pi,
                    cell: c,
                    target: l,
                };
                col.add(cc, l, k, recipe);
            }
        }
    }
}

/// The candidates of cell `c` whose digits are the bits of `mask`, in
/// order.
fn cell_cands(c: usize, mask: u16) -> impl Iterator<Item = usize> + Clone {
    (0..9)
        .filter(move |&d| mask >> d & 1 != 0)
        .map(move |d| cand(c, d))
}

/// The nodes of a graph that are their literal's latest, in order of
/// insertion (a branch's sets of literals on and off, in SE's order).
fn nodes_in_order(g: &Graph) -> impl Iterator<Item = u32> + '_ {
    (0..g.len() as u32).filter(move |&n| g.get(g.node(n).lit) == Some(n))
}
