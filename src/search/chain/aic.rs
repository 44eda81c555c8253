//! Alternating inference chains whose nodes may be groups on either side of
//! a link and at either end (`nodes groups`), and loops of them (`ends
//! loop`), and chains from a candidate back to itself (`ends
//! back-to-start`): HoDoKu's grouped X-chains, grouped AICs, Continuous
//! Nice Loops and Discontinuous Nice Loops; and chains whose nodes are a digit's candidates in an almost
//! locked set (`nodes als`, [`AlsGraph`]): HoDoKu's ALS chains. A search of its own, over a graph of the state built once per
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
//! other candidates. A chain `Z = N2 - … = Z` from a candidate back to
//! itself shows that `Z` false makes `Z` true: `Z` is true, its cell's
//! other candidates are false.
//!
//! The search is breadth-first over the nodes, false and true: a target's
//! chains start from the nodes weakly linked to it (false when it is
//! true), a loop's from each node in turn (false), a chain back to its
//! start from each candidate (false), and each node is reached once per
//! polarity, so what is found is a shortest walk. When none of a target's
//! (a start's) shortest walks is a chain (pairwise disjoint nodes, none
//! holding the target but a chain back to its start's own ends), a
//! depth-first search ([`Shortest`]) looks for its shortest chain, pruned
//! by the breadth-first distances from the starts, which are also the
//! distances to the ends (every link goes both ways, and a target's
//! chains start and end on the same nodes); it tries at most
//! [`SHORTEST_STEPS`] strong links per target, past which the target is
//! left. A rule of length `n` reports a target whose shortest chain has
//! `n` variables (a shorter one leaves the target to the rule of its
//! length). Loops keep their shortest walks only: a loop start whose
//! shortest walks repeat a node is left to none. ALS chains (`nodes als`)
//! keep their shortest walks only too. Every step of a walk is an
//! implication, so what it concludes is sound whatever the walk.

use super::{ALS_BASE, ChainEvidence, ChainSearch, Ending, G_BASE, Link, SEGMENTS};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::segments::segment_of;
use crate::grid::state::State;
use crate::grid::tables::TABLES;
use crate::search::pattern::als::AlsList;
use crate::search::{ConclusionKind, Evidence, Found, SearchCx};
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::rc::Rc;

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

/// The ALS nodes of a state (`nodes als`): a graph whose nodes are the
/// digits of almost locked sets, with what a target's search starts from.
struct AlsGraph {
    g: Graph,
    /// Each node's set, an index into `sets`.
    set_of: Vec<u32>,
    /// The state's almost locked sets (the ALS generator's list).
    sets: Rc<AlsList>,
    /// The nodes each live candidate is linked to (all of whose candidates
    /// it sees): a target's first nodes, false when it is true.
    starts: Vec<Vec<u32>>,
}

impl AlsGraph {
    /// A node `(A, d)` is the live candidates of digit `d` in the cells of
    /// the ALS `A`, true when one of them is. Two nodes of one ALS are
    /// strongly linked (were both false, its `n` cells would hold `n - 1`
    /// digits); `(A, d)` is weakly linked to `(B, d)` when the two sets
    /// share no cell and each candidate of one sees each of the other
    /// (`d` is a restricted common digit of `A` and `B`).
    fn new(state: &State, sets: Rc<AlsList>) -> AlsGraph {
        let live = &state.cands;
        let mut g = Graph {
            ids: Vec::new(),
            digit: Vec::new(),
            cands: Vec::new(),
            wlinks: Vec::new(),
            index: Vec::new(),
            strong: Vec::new(),
            weak: Vec::new(),
        };
        let mut set_of: Vec<u32> = Vec::new();
        let mut cells: Vec<u128> = Vec::new();
        // The nodes of each set are consecutive: `first[i]..first[i + 1]`.
        let mut first: Vec<u32> = Vec::with_capacity(sets.sets.len() + 1);
        for (i, a) in sets.sets.iter().enumerate() {
            first.push(g.digit.len() as u32);
            for d in 0..9 {
                if a.digits >> d & 1 == 0 {
                    continue;
                }
                let cands = Bits::from_indices(
                    (0..N_CELLS)
                        .filter(|&c| a.cells >> c & 1 != 0)
                        .map(|c| cand(c, d)),
                )
                .and(live);
                let mut wl = *live;
                for c in cands.iter() {
                    wl = wl.and(links(c));
                }
                g.digit.push(d as u8);
                g.cands.push(cands);
                g.wlinks.push(wl);
                set_of.push(i as u32);
                cells.push(a.cells);
            }
        }
        let n = g.digit.len();
        first.push(n as u32);
        // The nodes by their lowest candidate, to find those within a
        // node's links.
        let mut by_min: Vec<Vec<u32>> = vec![Vec::new(); N_CANDS];
        let mut starts: Vec<Vec<u32>> = vec![Vec::new(); N_CANDS];
        for j in 0..n {
            if let Some(c) = g.cands[j].min() {
                by_min[c].push(j as u32);
            }
            // A target of the node's digit (linked to every candidate of
            // the node, so outside it).
            for c in g.wlinks[j].and(&TABLES.digit[g.digit[j] as usize]).iter() {
                starts[c].push(j as u32);
            }
        }
        g.strong = vec![Vec::new(); n];
        g.weak = vec![Vec::new(); n];
        for i in 0..n {
            let s = set_of[i] as usize;
            for j in first[s]..first[s + 1] {
                if j as usize != i {
                    g.strong[i].push((j, s as u16));
                }
            }
            let wl = g.wlinks[i];
            for c in wl.iter() {
                for &j in &by_min[c] {
                    let ju = j as usize;
                    if cells[ju] & cells[i] == 0 && g.cands[ju].is_subset(&wl) {
                        g.weak[i].push(j);
                    }
                }
            }
        }
        AlsGraph {
            g,
            set_of,
            sets,
            starts,
        }
    }

    /// The chain of a walk (node pairs, each in one set), if its sets are
    /// pairwise distinct and its nodes pairwise disjoint and free of the
    /// target `z`: its evidence and the candidates of its nodes.
    fn chain(&self, walk: &[(u32, u32)], z: usize) -> Option<(ChainEvidence, Bits)> {
        let g = &self.g;
        let mut all = Bits::EMPTY;
        let mut used: Vec<u32> = Vec::with_capacity(walk.len());
        let mut links = Vec::with_capacity(walk.len());
        let mut als = Vec::with_capacity(walk.len());
        for (k, &(f, t)) in walk.iter().enumerate() {
            let s = self.set_of[f as usize];
            if used.contains(&s) {
                return None;
            }
            used.push(s);
            for x in [f, t] {
                let c = &g.cands[x as usize];
                if c.intersects(&all) {
                    return None;
                }
                all = all.or(c);
            }
            links.push(Link {
                var: k,
                left: als_node_id(k, g.digit[f as usize] as usize),
                right: Some(als_node_id(k, g.digit[t as usize] as usize)),
            });
            let a = self.sets.sets[s as usize];
            als.push((a.cells, a.digits));
        }
        if all.contains(z) {
            return None;
        }
        Some((
            ChainEvidence {
                target: z,
                links,
                als,
            },
            all,
        ))
    }
}

/// The id of the node of digit `d` in the `k`-th set of an ALS chain's
/// evidence ([`ChainEvidence::als`]).
pub fn als_node_id(k: usize, d: usize) -> usize {
    ALS_BASE + 9 * k + d
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
    /// `min` variables or more, when these have `n` or fewer: those of the
    /// first true layer from `min` on where `is_end` holds, with its number
    /// of variables (`0` and none when no walk of `n` variables or fewer
    /// ends).
    fn ends(
        &mut self,
        g: &Graph,
        starts: &[u32],
        digit: Option<u8>,
        (min, n): (usize, usize),
        is_end: impl Fn(usize) -> bool,
    ) -> (usize, Vec<u32>) {
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
                return (depth, ends);
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
        (0, Vec::new())
    }

    /// The walk ending at true node `t`, as a chain's links (node ids).
    fn walk(&self, g: &Graph, t: u32) -> Vec<Link> {
        self.walk_nodes(t)
            .into_iter()
            .map(|(f, t)| Link {
                var: self.from_false[t as usize].1 as usize,
                left: g.ids[f as usize] as usize,
                right: Some(g.ids[t as usize] as usize),
            })
            .collect()
    }

    /// The walk ending at true node `t`: each strong link's false and true
    /// node, in order.
    fn walk_nodes(&self, mut t: u32) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        loop {
            let f = self.from_false[t as usize].0;
            out.push((f, t));
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

/// Runs the search of `search` (a chain with `nodes groups` or `nodes
/// als`, or a loop).
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
    if search.spec.als_nodes {
        return search_als(search, cx, state, f);
    }
    let g = Graph::new(search, state);
    let mut marks = Marks::new(g.ids.len());
    let one_digit = search.spec.one_digit;
    if search.spec.ending == Ending::BackToStart {
        return back_to_start(search, cx, state, &g, &mut marks, f);
    }
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
            let (depth, ends) = marks.ends(&g, &[s as u32], digit, (2, n), |t| {
                first.is_subset(&g.wlinks[t])
            });
            if depth != n {
                continue;
            }
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
                        als: Vec::new(),
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
        let (depth, ends) = marks.ends(&g, &g.weak[zi], digit, (1, n), |t| g.wlinks[t].contains(z));
        if depth == 0 {
            continue;
        }
        // The first of the shortest walks that is a chain; when none is, the
        // shortest chain, searched depth-first.
        let mut chain = None;
        for &t in &ends {
            let walk = marks.walk(&g, t);
            if let Some(all) = disjoint(&walk, live).filter(|all| !all.contains(z)) {
                chain = Some((walk, all));
                break;
            }
        }
        if chain.is_some() && depth < n {
            continue;
        }
        if chain.is_none() {
            let mut dfs = Shortest::new(&g, z, false, digit, n);
            match dfs.run() {
                Outcome::Chain(walk) => {
                    let all = disjoint(&walk, live).filter(|all| !all.contains(z));
                    chain = all.map(|all| (walk, all));
                }
                Outcome::None => {}
            }
            if cx.tick_n(dfs.steps) {
                return ControlFlow::Break(());
            }
        }
        let Some((walk, all)) = chain else {
            continue;
        };
        let mut conclusions = Bits::single(z);
        if search.spec.all_targets {
            let (a, b) = (walk[0].left, walk[walk.len() - 1].right.unwrap_or(0));
            conclusions =
                conclusions.or(&node_wlinks(a, live).and(&node_wlinks(b, live)).minus(&all));
            if one_digit {
                conclusions = conclusions.and(&TABLES.digit[cand_digit(z)]);
            }
        }
        f(eliminated_by_chain(z, walk, conclusions))?;
    }
    ControlFlow::Continue(())
}

/// Runs the search of `search` with `ends back-to-start`: for each live
/// candidate whose cell holds others, the breadth-first search from it
/// false back to it true (its shortest walk; when that is not a chain,
/// its shortest chain, depth-first). A rule of length `n` reports the
/// candidate when its shortest chain has `n` variables, with its cell's
/// other candidates as conclusions.
fn back_to_start(
    search: &ChainSearch,
    cx: &mut SearchCx,
    state: &State,
    g: &Graph,
    marks: &mut Marks,
    f: &mut dyn FnMut(Found) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = search.spec.length;
    let live = &state.cands;
    for z in live.iter() {
        let zi = g.index[z];
        if cx.tick_n(g.strong[zi as usize].len() as u32 + 1) {
            return ControlFlow::Break(());
        }
        let conclusions = state
            .var_cands(var(Space::Rc, cand_cell(z)))
            .minus(&Bits::single(z));
        if conclusions.is_empty() {
            continue;
        }
        let digit = search.spec.one_digit.then_some(g.digit[zi as usize]);
        let (depth, ends) = marks.ends(g, &[zi], digit, (2, n), |t| t == zi as usize);
        if depth == 0 {
            continue;
        }
        let mut chain = ends
            .first()
            .map(|&t| marks.walk(g, t))
            .filter(|walk| back_chain(walk, live));
        if chain.is_some() && depth < n {
            continue;
        }
        if chain.is_none() {
            let mut dfs = Shortest::new(g, z, true, digit, n);
            if let Outcome::Chain(walk) = dfs.run() {
                chain = Some(walk).filter(|walk| back_chain(walk, live));
            }
            if cx.tick_n(dfs.steps) {
                return ControlFlow::Break(());
            }
        }
        let Some(walk) = chain else {
            continue;
        };
        f(eliminated_by_chain(z, walk, conclusions))?;
    }
    ControlFlow::Continue(())
}

/// The match of a chain `walk` on candidate `z` (its target, or its start
/// and end) that eliminates `conclusions`.
fn eliminated_by_chain(z: usize, walk: Vec<Link>, conclusions: Bits) -> Found {
    Found {
        kind: ConclusionKind::Eliminate,
        conclusions,
        grade: None,
        evidence: Evidence::Chain(ChainEvidence {
            target: z,
            links: walk,
            als: Vec::new(),
        }),
    }
}

/// Is `walk` a chain from a candidate back to itself: its last node its
/// first, its other nodes pairwise disjoint and apart from the first?
fn back_chain(walk: &[Link], live: &Bits) -> bool {
    let (Some(first), Some(last)) = (walk.first(), walk.last()) else {
        return false;
    };
    if last.right != Some(first.left) {
        return false;
    }
    let mut open = walk.to_vec();
    if let Some(l) = open.last_mut() {
        l.right = None;
    }
    disjoint(&open, live).is_some()
}

/// The most steps (strong links tried) the depth-first search of one
/// target's shortest chain may take; past it the target is given up (left
/// to no rule), so that a state's search stays bounded.
const SHORTEST_STEPS: u32 = 20_000;

/// What the depth-first search of a target's shortest chain found.
enum Outcome {
    /// The first chain found of the length searched, none being shorter.
    Chain(Vec<Link>),
    /// No chain of the length searched, or a shorter one (the target is
    /// another rule's), or the search gave up.
    None,
}

/// The depth-first search of a target's shortest chain, when none of its
/// shortest walks is one (they repeat a node or hold the target): the
/// chains (from the target back to itself, with `back`) whose nodes are pairwise disjoint and
/// free of the target, of `n` variables or fewer, pruned by the
/// breadth-first distances (a lower bound on what a chain still needs).
struct Shortest<'a> {
    g: &'a Graph,
    z: usize,
    /// The target's node.
    zi: u32,
    /// Does the chain go from the target back to itself (`ends
    /// back-to-start`: its one start and end), rather than from a node
    /// linked to it to another?
    back: bool,
    digit: Option<u8>,
    n: usize,
    /// The variables a chain may still have (`n`, then `n - 1` once one of
    /// `n` is found: only a shorter one matters).
    limit: usize,
    /// The fewest variables from each node false (`[0]`) and true (`[1]`)
    /// to an end node: a walk from a start to a node true, reversed, is a
    /// walk from that node false to an end, and the starts are the ends
    /// (the nodes linked to the target), so these are the breadth-first
    /// distances from the starts to each node true and false.
    rest: [Vec<u8>; 2],
    /// The chain so far: each variable's false node, true node, variable.
    path: Vec<(u32, u32, u16)>,
    found: Option<Vec<(u32, u32, u16)>>,
    shorter: bool,
    /// Strong links tried.
    steps: u32,
}

impl<'a> Shortest<'a> {
    fn new(g: &'a Graph, z: usize, back: bool, digit: Option<u8>, n: usize) -> Shortest<'a> {
        let ok = |j: usize| digit.is_none_or(|d| g.digit[j] == d);
        let nodes = g.ids.len();
        // Distances to each node false (`dist[0]`) and true (`dist[1]`).
        let mut dist = [vec![u8::MAX; nodes], vec![u8::MAX; nodes]];
        let zi = g.index[z];
        let mut falses: Vec<u32> = Vec::new();
        let starts = if back {
            std::slice::from_ref(&zi)
        } else {
            &g.weak[zi as usize][..]
        };
        for &j in starts {
            if ok(j as usize) && dist[0][j as usize] == u8::MAX {
                dist[0][j as usize] = 0;
                falses.push(j);
            }
        }
        let mut trues: Vec<u32> = Vec::new();
        for depth in 1..=n as u8 {
            trues.clear();
            for &f in &falses {
                for &(j, _) in &g.strong[f as usize] {
                    if ok(j as usize) && dist[1][j as usize] == u8::MAX {
                        dist[1][j as usize] = depth;
                        trues.push(j);
                    }
                }
            }
            falses.clear();
            for &t in &trues {
                for &j in &g.weak[t as usize] {
                    if ok(j as usize) && dist[0][j as usize] == u8::MAX {
                        dist[0][j as usize] = depth;
                        falses.push(j);
                    }
                }
            }
        }
        let [to_false, to_true] = dist;
        Shortest {
            g,
            z,
            zi,
            back,
            digit,
            n,
            limit: n,
            rest: [to_true, to_false],
            path: Vec::with_capacity(n),
            found: None,
            shorter: false,
            steps: 0,
        }
    }

    fn ok(&self, j: usize) -> bool {
        self.digit.is_none_or(|d| self.g.digit[j] == d)
    }

    /// The shortest chain, if it has `n` variables.
    fn run(&mut self) -> Outcome {
        let g = self.g;
        let zi = self.zi;
        let starts = if self.back {
            std::slice::from_ref(&zi)
        } else {
            &g.weak[self.zi as usize][..]
        };
        for &s in starts {
            let su = s as usize;
            if !self.ok(su) || usize::from(self.rest[0][su]) > self.limit {
                continue;
            }
            if self.go(s, g.cands[su]).is_break() {
                break;
            }
        }
        match self.found.take() {
            Some(path) if !self.shorter && self.steps <= SHORTEST_STEPS => Outcome::Chain(
                path.into_iter()
                    .map(|(f, t, v)| Link {
                        var: v as usize,
                        left: g.ids[f as usize] as usize,
                        right: Some(g.ids[t as usize] as usize),
                    })
                    .collect(),
            ),
            _ => Outcome::None,
        }
    }

    /// Goes on from false node `f` (the chain's nodes so far hold `all`);
    /// breaks when a shorter chain is found or the steps run out.
    fn go(&mut self, f: u32, all: Bits) -> ControlFlow<()> {
        let g = self.g;
        let k = self.path.len() + 1;
        for &(t, v) in &g.strong[f as usize] {
            self.steps += 1;
            if self.steps > SHORTEST_STEPS {
                return ControlFlow::Break(());
            }
            let tu = t as usize;
            let tc = &g.cands[tu];
            // Back to the start, the end is the start's node (its
            // candidates are in `all`); else a node linked to the target.
            let end = if self.back {
                t == self.zi
            } else {
                g.wlinks[tu].contains(self.z)
            };
            if !self.ok(tu) || !(end && self.back) && (tc.intersects(&all) || tc.contains(self.z)) {
                continue;
            }
            if end {
                if k < self.n {
                    self.shorter = true;
                    return ControlFlow::Break(());
                }
                if self.found.is_none() {
                    let mut path = self.path.clone();
                    path.push((f, t, v));
                    self.found = Some(path);
                    self.limit = self.n - 1;
                }
                continue;
            }
            if k + usize::from(self.rest[1][tu]) > self.limit {
                continue;
            }
            let all = all.or(tc);
            self.path.push((f, t, v));
            for &y in &g.weak[tu] {
                let yu = y as usize;
                let yc = &g.cands[yu];
                if !self.ok(yu)
                    || yc.intersects(&all)
                    || yc.contains(self.z)
                    || k + usize::from(self.rest[0][yu]) > self.limit
                {
                    continue;
                }
                if self.go(y, all.or(yc)).is_break() {
                    self.path.pop();
                    return ControlFlow::Break(());
                }
            }
            self.path.pop();
        }
        ControlFlow::Continue(())
    }
}

/// Runs the search of `search` with `nodes als`: for each target, the
/// breadth-first search from the ALS nodes it sees, to an ALS node it sees
/// (an ALS chain whose first and last sets hold its digit).
fn search_als(
    search: &ChainSearch,
    cx: &mut SearchCx,
    state: &State,
    f: &mut dyn FnMut(Found) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let n = search.spec.length;
    let live = &state.cands;
    let sets = cx.pattern.als_list(state);
    let ag = AlsGraph::new(state, sets);
    let g = &ag.g;
    let mut marks = Marks::new(g.digit.len());
    for z in live.iter() {
        let starts = &ag.starts[z];
        if cx.tick_n(starts.len() as u32 + 1) {
            return ControlFlow::Break(());
        }
        if starts.is_empty() {
            continue;
        }
        let digit = Some(cand_digit(z) as u8);
        // The first and last nodes hold the target's digit; the others any.
        let (depth, ends) = marks.ends(g, starts, None, (1, n), |t| {
            Some(g.digit[t]) == digit && g.wlinks[t].contains(z)
        });
        if depth != n {
            continue;
        }
        for t in ends {
            let walk = marks.walk_nodes(t);
            let Some((evidence, all)) = ag.chain(&walk, z) else {
                continue;
            };
            let mut conclusions = Bits::single(z);
            if search.spec.all_targets {
                let (a, b) = (walk[0].0 as usize, walk[walk.len() - 1].1 as usize);
                conclusions = conclusions.or(&g.wlinks[a].and(&g.wlinks[b]).minus(&all));
            }
            let found = Found {
                kind: ConclusionKind::Eliminate,
                conclusions,
                grade: None,
                evidence: Evidence::Chain(evidence),
            };
            f(found)?;
            break;
        }
    }
    ControlFlow::Continue(())
}
