//! Alternating inference chains whose nodes may be groups on either side of
//! a link and at either end (`nodes groups`), and loops of them (`ends
//! loop`): HoDoKu's grouped X-chains, grouped AICs and Continuous Nice
//! Loops. A search of its own, over a graph of the state built once per
//! search; the breadth-first search of whips and bivalue chains ([`super::bfs`])
//! is not involved, so what it costs is not changed by these rules.
//!
//! A *node* is a live candidate or a g-candidate (a digit's candidates in a
//! block ∩ row or column, [`SEGMENTS`]) with two live candidates or more;
//! it is *true* when one of its candidates is. Two nodes are
//! *strongly linked* by a variable whose live candidates are exactly theirs
//! (a bivalue cell, a digit's conjugate pair in a house, a house's digit in
//! a group and one more candidate or group): when one is false, the other
//! is true. Two disjoint nodes are *weakly linked* when each candidate of
//! one is linked to each of the other: when one is true, the other is
//! false. A chain of `n` variables `N1 = N2 - N3 = N4 - … = N2n` (strong
//! links in the variables, weak links between them) shows that `N1` false
//! makes `N2n` true: a candidate linked to every candidate of `N1` and of
//! `N2n` is false (the chain's target). A loop `N1 = N2 - … = N2n - N1`
//! (its last node weakly linked to its first) makes every weak link a
//! strong one: of its two ends one is true (were both false, walking the
//! loop from the later one would make the earlier one true), so a
//! candidate linked to every candidate of both ends of one of its weak
//! links is false: in a house, the digit in cells that see both ends; in a
//! cell that the loop leaves by another digit than it entered, the cell's
//! other candidates.
//!
//! The search is breadth-first over the nodes, false and true: a target's
//! chains start from the nodes weakly linked to it (false when it is
//! true), a loop's from each node in turn (false), and each node is
//! reached once per polarity, so what is found is a shortest walk. A rule
//! of length `n` reports a target (a loop start) whose shortest walk has
//! `n` variables, when its nodes are pairwise disjoint and, for a chain,
//! none holds the target (a shorter walk, or one that is not such a chain,
//! leaves the target to the rule of its own length or to none). Every
//! step of a walk is an implication, so what it concludes is sound
//! whatever the walk.

use super::{ChainEvidence, ChainSearch, Ending, G_BASE, Link, SEGMENTS};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::segments::segment_of;
use crate::grid::state::State;
use crate::grid::tables::TABLES;
use crate::search::{ConclusionKind, Evidence, Found, SearchCx};
use std::collections::HashSet;
use std::ops::ControlFlow;

/// The target of a loop's evidence (a loop has none).
pub const LOOP_TARGET: usize = usize::MAX;

const NONE: u32 = u32::MAX;

/// The nodes of a state and their links.
struct Graph {
    /// Each node's id: a candidate, or `G_BASE + segment`.
    ids: Vec<u16>,
    /// Each node's digit.
    digit: Vec<u8>,
    /// Each node's live candidates.
    cands: Vec<Bits>,
    /// The live candidates linked to every candidate of each node.
    wlinks: Vec<Bits>,
    /// The node of each id (`NONE`: not a node of the state).
    index: Vec<u32>,
    /// Each node's strongly linked nodes, with the variable linking them.
    strong: Vec<Vec<(u32, u16)>>,
    /// Each node's weakly linked nodes.
    weak: Vec<Vec<u32>>,
}

impl Graph {
    fn new(search: &ChainSearch, state: &State) -> Graph {
        let live = &state.cands;
        let groups = search.spec.left_groups;
        let mut g = Graph {
            ids: Vec::new(),
            digit: Vec::new(),
            cands: Vec::new(),
            wlinks: Vec::new(),
            index: vec![NONE; G_BASE + N_SEGMENTS],
            strong: Vec::new(),
            weak: Vec::new(),
        };
        let add = |g: &mut Graph, id: usize, digit: usize, cands: Bits, wl: Bits| {
            g.index[id] = g.ids.len() as u32;
            g.ids.push(id as u16);
            g.digit.push(digit as u8);
            g.cands.push(cands);
            g.wlinks.push(wl.and(live));
        };
        for c in live.iter() {
            add(&mut g, c, cand_digit(c), Bits::single(c), *links(c));
        }
        let n_cands = g.ids.len();
        if groups {
            for (s, seg) in SEGMENTS.iter().enumerate() {
                let lc = seg.cands.and(live);
                if lc.len() >= 2 {
                    add(&mut g, G_BASE + s, seg.digit, lc, seg.glinks);
                }
            }
        }
        let n = g.ids.len();
        g.strong = vec![Vec::new(); n];
        g.weak = vec![Vec::new(); n];
        for i in 0..n {
            let id = g.ids[i] as usize;
            let vars: Vec<usize> = if id < G_BASE {
                cand_vars(id).to_vec()
            } else {
                let seg = &SEGMENTS[id - G_BASE];
                let line = if seg.horizontal {
                    var(Space::Rn, seg.line * 9 + seg.digit)
                } else {
                    var(Space::Cn, seg.line * 9 + seg.digit)
                };
                vec![line, var(Space::Bn, seg.block * 9 + seg.digit)]
            };
            for v in vars {
                if !search.space_ok(v) {
                    continue;
                }
                let rest = state.var_cands(v).minus(&g.cands[i]);
                let j = match rest.len() {
                    0 => continue,
                    1 => rest.min().map_or(NONE, |c| g.index[c]),
                    _ if groups => segment_of(v, &rest).map_or(NONE, |s| g.index[G_BASE + s]),
                    _ => NONE,
                };
                if j != NONE {
                    g.strong[i].push((j, v as u16));
                }
            }
            // Weakly linked candidates (a group's weakly linked candidates
            // are added below, from the group's side: links are symmetric).
            if id < G_BASE {
                for c in g.wlinks[i].iter() {
                    g.weak[i].push(g.index[c]);
                }
            }
        }
        // A group is linked to every live candidate of its g-links (linked
        // to all three of its cells, so to its live ones; and conversely,
        // two live cells of a segment share only its block and its line),
        // and to the groups of its digit within them.
        for i in n_cands..n {
            let wl = g.wlinks[i];
            for c in wl.iter() {
                let ci = g.index[c] as usize;
                g.weak[ci].push(i as u32);
                g.weak[i].push(ci as u32);
            }
            for j in n_cands..n {
                if j != i && g.digit[j] == g.digit[i] && g.cands[j].is_subset(&wl) {
                    g.weak[i].push(j as u32);
                }
            }
        }
        g
    }
}

/// A breadth-first search's marks, kept from one start to the next.
struct Marks {
    stamp: u32,
    /// The stamp of the search that reached each node false, true.
    seen: [Vec<u32>; 2],
    /// A false node's true node before it (`NONE`: a start).
    from_true: Vec<u32>,
    /// A true node's false node before it, and the variable between.
    from_false: Vec<(u32, u16)>,
}

impl Marks {
    fn new(n: usize) -> Marks {
        Marks {
            stamp: 0,
            seen: [vec![0; n], vec![0; n]],
            from_true: vec![NONE; n],
            from_false: vec![(NONE, 0); n],
        }
    }

    /// The true nodes that end the shortest walks from `starts` (false) of
    /// `min` variables or more, when these have `n`: those of the first
    /// true layer from `min` on where `is_end` holds, if it is layer `n`;
    /// none otherwise.
    fn ends(
        &mut self,
        g: &Graph,
        starts: &[u32],
        digit: Option<u8>,
        (min, n): (usize, usize),
        is_end: impl Fn(usize) -> bool,
    ) -> Vec<u32> {
        self.stamp += 1;
        let s = self.stamp;
        let ok = |j: usize| digit.is_none_or(|d| g.digit[j] == d);
        let mut falses: Vec<u32> = Vec::new();
        for &j in starts {
            let j = j as usize;
            if ok(j) && self.seen[0][j] != s {
                self.seen[0][j] = s;
                self.from_true[j] = NONE;
                falses.push(j as u32);
            }
        }
        let mut trues: Vec<u32> = Vec::new();
        for depth in 1..=n {
            trues.clear();
            for &f in &falses {
                for &(j, v) in &g.strong[f as usize] {
                    let ju = j as usize;
                    if ok(ju) && self.seen[1][ju] != s {
                        self.seen[1][ju] = s;
                        self.from_false[ju] = (f, v);
                        trues.push(j);
                    }
                }
            }
            let ends: Vec<u32> = trues
                .iter()
                .copied()
                .filter(|&t| depth >= min && is_end(t as usize))
                .collect();
            if !ends.is_empty() {
                return if depth == n { ends } else { Vec::new() };
            }
            if depth == n || trues.is_empty() {
                break;
            }
            falses.clear();
            for &t in &trues {
                for &j in &g.weak[t as usize] {
                    let ju = j as usize;
                    if ok(ju) && self.seen[0][ju] != s {
                        self.seen[0][ju] = s;
                        self.from_true[ju] = t;
                        falses.push(j);
                    }
                }
            }
        }
        Vec::new()
    }

    /// The walk ending at true node `t`, as a chain's links (node ids).
    fn walk(&self, g: &Graph, mut t: u32) -> Vec<Link> {
        let mut out = Vec::new();
        loop {
            let (f, v) = self.from_false[t as usize];
            out.push(Link {
                var: v as usize,
                left: g.ids[f as usize] as usize,
                right: Some(g.ids[t as usize] as usize),
            });
            t = self.from_true[f as usize];
            if t == NONE {
                break;
            }
        }
        out.reverse();
        out
    }
}

/// The live candidates of a node id (a candidate or `G_BASE + segment`).
fn node_cands(id: usize, live: &Bits) -> Bits {
    if id >= G_BASE {
        SEGMENTS[id - G_BASE].cands.and(live)
    } else {
        Bits::single(id)
    }
}

/// The candidates of a walk's nodes, if they are pairwise disjoint.
fn disjoint(walk: &[Link], live: &Bits) -> Option<Bits> {
    let mut all = Bits::EMPTY;
    for l in walk {
        for id in [Some(l.left), l.right].into_iter().flatten() {
            let c = node_cands(id, live);
            if c.intersects(&all) {
                return None;
            }
            all = all.or(&c);
        }
    }
    Some(all)
}

/// The live candidates linked to every candidate of node `id`.
fn node_wlinks(id: usize, live: &Bits) -> Bits {
    if id >= G_BASE {
        SEGMENTS[id - G_BASE].glinks.and(live)
    } else {
        links(id).and(live)
    }
}

/// Runs the search of `search` (a chain with `nodes groups`, or a loop).
pub(super) fn search(
    search: &ChainSearch,
    cx: &mut SearchCx,
    state: &State,
    f: &mut dyn FnMut(Found) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = search.spec.length;
    if n == 0 {
        return ControlFlow::Continue(());
    }
    let live = &state.cands;
    let g = Graph::new(search, state);
    let mut marks = Marks::new(g.ids.len());
    let one_digit = search.spec.one_digit;
    if search.spec.ending == Ending::Loop {
        let mut reported: HashSet<Vec<(usize, usize)>> = HashSet::new();
        for s in 0..g.ids.len() {
            if cx.tick_n(g.strong[s].len() as u32 + 1) {
                return ControlFlow::Break(());
            }
            let first = g.cands[s];
            let digit = one_digit.then_some(g.digit[s]);
            // A loop has two variables at least (one variable's two nodes
            // are linked both ways).
            let ends = marks.ends(&g, &[s as u32], digit, (2, n), |t| {
                first.is_subset(&g.wlinks[t])
            });
            for t in ends {
                let walk = marks.walk(&g, t);
                let Some(all) = disjoint(&walk, live) else {
                    continue;
                };
                // A loop is its links, whatever its start and direction.
                let mut key: Vec<(usize, usize)> = Vec::with_capacity(2 * walk.len());
                for (k, l) in walk.iter().enumerate() {
                    let r = l.right.unwrap_or(l.left);
                    let next = walk[(k + 1) % walk.len()].left;
                    key.push((l.left.min(r), l.left.max(r)));
                    key.push((r.min(next), r.max(next)));
                }
                key.sort_unstable();
                if !reported.insert(key) {
                    continue;
                }
                // Every weak link: each right node and the next left one,
                // the last right one and the first left one.
                let mut elim = Bits::EMPTY;
                for (k, l) in walk.iter().enumerate() {
                    let a = l.right.unwrap_or(l.left);
                    let b = walk[(k + 1) % walk.len()].left;
                    elim = elim.or(&node_wlinks(a, live).and(&node_wlinks(b, live)));
                }
                let elim = elim.minus(&all);
                if elim.is_empty() {
                    continue;
                }
                let found = Found {
                    kind: ConclusionKind::Eliminate,
                    conclusions: elim,
                    grade: None,
                    evidence: Evidence::Chain(ChainEvidence {
                        target: LOOP_TARGET,
                        links: walk,
                    }),
                };
                f(found)?;
            }
        }
        return ControlFlow::Continue(());
    }
    for z in live.iter() {
        let zi = g.index[z] as usize;
        if cx.tick_n(g.weak[zi].len() as u32 + 1) {
            return ControlFlow::Break(());
        }
        let digit = one_digit.then_some(g.digit[zi]);
        let ends = marks.ends(&g, &g.weak[zi], digit, (1, n), |t| g.wlinks[t].contains(z));
        for t in ends {
            let walk = marks.walk(&g, t);
            let Some(all) = disjoint(&walk, live) else {
                continue;
            };
            if all.contains(z) {
                continue;
            }
            let mut conclusions = Bits::single(z);
            if search.spec.all_targets {
                let (a, b) = (walk[0].left, walk[walk.len() - 1].right.unwrap_or(0));
                conclusions =
                    conclusions.or(&node_wlinks(a, live).and(&node_wlinks(b, live)).minus(&all));
                if one_digit {
                    conclusions = conclusions.and(&TABLES.digit[cand_digit(z)]);
                }
            }
            let found = Found {
                kind: ConclusionKind::Eliminate,
                conclusions,
                grade: None,
                evidence: Evidence::Chain(ChainEvidence {
                    target: z,
                    links: walk,
                }),
            };
            f(found)?;
            break;
        }
    }
    ControlFlow::Continue(())
}
