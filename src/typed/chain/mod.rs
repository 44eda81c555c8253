//! Chains on any type: the chain families of the language (whips, braids,
//! g-whips, g-braids, z-chains, t-whips, bivalue chains, typed chains,
//! lassos), searched on a run's [`Frame`] with the same definitions as
//! the classic search (`search::chain`, `docs/chains.md`).
//!
//! The search ([`bfs`]) is the classic one written over the frame's local
//! candidates, variables and groups in sets of `W` words: breadth-first,
//! one target at a time in increasing order, partial chains merged only
//! when they have the same extensions (the same key: last right-linking
//! candidate when it links the next left-linking one, right-linking
//! candidates and g-candidates, variables that can still matter; and the
//! same left-linking candidates later steps can read). The proof that
//! this loses no chain is the classic one (`search::chain`, `ChainSearch::key`
//! and `ChainSearch::lefts_kept`): it reads the definitions only, never
//! the grid. On `sudoku:9` the typed search finds the chains the classic
//! one finds, in the same order (`tests/typed_chains.rs`).

mod bfs;
mod reach;

use super::frame::Frame;
use super::state::State;
use super::{Evidence, Found, Unfit, space_named};
use crate::grid::bits::BitSet;
use crate::grid::geometry::Space;
use crate::model::Model;
use crate::search::chain::{ChainEvidence, ChainSpec, Ending, Link, Linking};
use crate::search::{ConclusionKind, SearchCx};
use bfs::Buffers;
use std::ops::ControlFlow;

/// A chain rule of one length, for the typed back end.
#[derive(Clone, Debug)]
pub struct TypedChain {
    pub spec: ChainSpec,
    /// Per model space: may the chain's variables come from it?
    pub spaces: Vec<bool>,
}

/// What a chain's left-linking candidates must be for its last variable
/// to end it ([`TypedChain::ends`]).
#[derive(Clone, Copy)]
enum EndIf<const W: usize> {
    Always,
    /// This candidate is none of them (it is the last, new, `R`).
    LeftNot(usize),
    /// One of these is one of them (a lasso closing on an earlier `L`).
    LeftIn(BitSet<W>),
}

impl<const W: usize> EndIf<W> {
    fn holds(self, lefts: &BitSet<W>) -> bool {
        match self {
            EndIf::Always => true,
            EndIf::LeftNot(r) => !lefts.contains(r),
            EndIf::LeftIn(c) => c.intersects(lefts),
        }
    }
}

impl TypedChain {
    /// The chain rule of `spec` on `model`: every space when the spec
    /// allows the four classic ones, else the type's spaces of those
    /// names (none: the rule does not apply to the type).
    pub fn of(spec: &ChainSpec, model: &Model) -> Result<TypedChain, Unfit> {
        if spec.left_groups
            || spec.als_nodes
            || matches!(spec.ending, Ending::Loop | Ending::BackToStart)
        {
            return Err(Unfit::Unsupported(
                "chains with `nodes groups`, `nodes als`, `ends loop` or `ends back-to-start` run on classic Sudoku only"
                    .into(),
            ));
        }
        let spaces = if spec.spaces.iter().all(|&b| b) {
            vec![true; model.spaces.len()]
        } else {
            let mut on = vec![false; model.spaces.len()];
            for sp in Space::ALL {
                if spec.spaces[sp as usize]
                    && let Some(i) = space_named(model, sp.name())
                {
                    on[i] = true;
                }
            }
            if !on.contains(&true) {
                let names: Vec<&str> = Space::ALL
                    .iter()
                    .filter(|sp| spec.spaces[**sp as usize])
                    .map(|sp| sp.name())
                    .collect();
                return Err(Unfit::Space(names.join(", ")));
            }
            on
        };
        Ok(TypedChain {
            spec: spec.clone(),
            spaces,
        })
    }

    /// The first chain of the spec's length on `st` (targets in increasing
    /// order), as a match; `None` when there is none or the search context
    /// stopped the search.
    pub fn first<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Found<W>> {
        let n = self.spec.length;
        if !(1..64).contains(&n) {
            return None;
        }
        let mut buf = Buffers::default();
        let mut hit = None;
        for z in st.cands.iter() {
            if let Some(found) = self.bfs(cx, frame, st, z, &mut buf) {
                hit = Some(found);
                break;
            }
            if cx.interrupted() {
                break;
            }
        }
        buf.release(cx);
        hit
    }

    /// Every target of `st` for which a chain of the spec exists, each with
    /// the first chain found for it (its conclusions as [`TypedChain::first`]
    /// gives them); `None` when the search context stopped the search.
    pub fn all<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Vec<Found<W>>> {
        let n = self.spec.length;
        if !(1..64).contains(&n) {
            return Some(Vec::new());
        }
        let mut buf = Buffers::default();
        let mut out = Vec::new();
        for z in st.cands.iter() {
            if let Some(found) = self.bfs(cx, frame, st, z, &mut buf) {
                out.push(found);
            }
            if cx.interrupted() {
                buf.release(cx);
                return None;
            }
        }
        buf.release(cx);
        Some(out)
    }

    /// Each target of `targets` (the live ones, in increasing order) for
    /// which a chain of the spec exists, with the first chain found for it,
    /// until `f` breaks or the search context stops the search.
    pub fn each_target<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        targets: &BitSet<W>,
        f: &mut dyn FnMut(Found<W>) -> ControlFlow<()>,
    ) {
        if !(1..64).contains(&self.spec.length) {
            return;
        }
        let mut buf = Buffers::default();
        for z in targets.and(&st.cands).iter() {
            if let Some(found) = self.bfs(cx, frame, st, z, &mut buf)
                && f(found).is_break()
            {
                break;
            }
            if cx.interrupted() {
                break;
            }
        }
        buf.release(cx);
    }

    fn space_ok<const W: usize>(&self, frame: &Frame<W>, v: usize) -> bool {
        self.spaces[frame.vars[v].space as usize]
    }

    /// The candidates the extras set aside in a variable, before step `k`
    /// (0-based), given the target's links `nz` and the t-cover so far.
    #[inline]
    fn cover<const W: usize>(&self, k: usize, nz: &BitSet<W>, t_cover: &BitSet<W>) -> BitSet<W> {
        let e = self.spec.extras;
        let mut c = BitSet::EMPTY;
        if e.z && (!e.z_in_first_only || k == 0) {
            c = c.or(nz);
        }
        if e.t {
            c = c.or(t_cover);
        }
        c
    }

    /// Does the last variable (live candidates `live_v`) with left-linking
    /// `l` end a chain? As the classic `ChainSearch::ends`: the last
    /// right-linking candidate shown (if any) and what the chain's
    /// left-linking candidates must be for it.
    #[inline]
    fn ends<const W: usize>(
        &self,
        live_v: &BitSet<W>,
        l: usize,
        cover: &BitSet<W>,
        nz: &BitSet<W>,
        t_cover: &BitSet<W>,
        rights: &BitSet<W>,
    ) -> Option<(Option<usize>, EndIf<W>)> {
        // A variable with one candidate is a single, not a chain's end.
        if live_v.len() < 2 {
            return None;
        }
        let mut rest = live_v.minus(cover);
        rest.remove(l);
        if self.spec.ending == Ending::Lasso {
            let mut others = *live_v;
            others.remove(l);
            let closing = match rest.len() {
                0 => others,
                1 => rest,
                _ => return None,
            };
            let cond = if closing.intersects(t_cover) {
                EndIf::Always
            } else {
                EndIf::LeftIn(closing)
            };
            return Some((None, cond));
        }
        if !rest.is_subset(nz) {
            return None;
        }
        match self.spec.ending {
            Ending::Lasso | Ending::Loop | Ending::BackToStart => None,
            Ending::Contradiction => Some((None, EndIf::Always)),
            // The last right-linking candidate is a new one.
            Ending::LinkedToTarget => match rest.min() {
                Some(r) if rest.len() == 1 && !rights.contains(r) => {
                    Some((Some(r), EndIf::LeftNot(r)))
                }
                _ => None,
            },
        }
    }

    /// Can a variable whose right-linking candidate is a candidate give a
    /// child or an end when taken again? (The classic
    /// `ChainSearch::candidate_vars_matter`, whose proof reads the
    /// definitions only.)
    fn candidate_vars_matter(&self) -> bool {
        let e = self.spec.extras;
        match self.spec.ending {
            Ending::Contradiction => !e.z || e.z_in_first_only,
            Ending::LinkedToTarget | Ending::Loop | Ending::BackToStart => false,
            Ending::Lasso => !e.t,
        }
    }

    /// Which left-linking candidates of a partial chain of length `k + 1`
    /// (of chains of `n` variables) whose key has `t_cover` and last
    /// right-linking candidate `last` its extensions can read (the classic
    /// `ChainSearch::lefts_kept`).
    fn lefts_kept<const W: usize>(
        &self,
        frame: &Frame<W>,
        (k, n): (usize, usize),
        last: usize,
        t_cover: &BitSet<W>,
        nz: &BitSet<W>,
        live: &BitSet<W>,
    ) -> BitSet<W> {
        if self.spec.ending == Ending::Lasso
            || (self.spec.linking == Linking::Previous && k + 2 < n)
        {
            return frame.all;
        }
        let e = self.spec.extras;
        let mut stable = BitSet::EMPTY;
        if e.t {
            stable = stable.or(t_cover);
        }
        if e.z && !e.z_in_first_only {
            stable = stable.or(nz);
        }
        let mut keep = live.minus(&stable);
        if self.spec.linking == Linking::Previous {
            keep = keep.or(&right_links(frame, last, live));
        }
        keep
    }

    /// Is the chain `links` (found for another target) a chain of the
    /// family for target `t` too? (The classic `ChainSearch::fits`.)
    fn fits<const W: usize>(
        &self,
        frame: &Frame<W>,
        st: &State<W>,
        t: usize,
        chain: &[Link],
    ) -> bool {
        let live = &st.cands;
        let nt = frame.links[t].and(live);
        let Some(first) = chain.first() else {
            return false;
        };
        if !nt.contains(first.left) {
            return false;
        }
        let m = &frame.model;
        if self.spec.one_digit
            && m.cand_symbol(frame.cand(t)) != m.cand_symbol(frame.cand(first.left))
        {
            return false;
        }
        if self.spec.linking == Linking::TargetOrAny {
            return false;
        }
        let mut t_cover = BitSet::EMPTY;
        let mut lefts = BitSet::EMPTY;
        let mut rights = BitSet::EMPTY;
        let n = chain.len();
        let base = frame.len();
        for (k, link) in chain.iter().enumerate() {
            let live_v = st.var_live(frame, link.var);
            let cover = self.cover(k, &nt, &t_cover);
            if k + 1 == n {
                return self
                    .ends(&live_v, link.left, &cover, &nt, &t_cover, &rights)
                    .is_some_and(|(_, cond)| cond.holds(&lefts));
            }
            lefts.insert(link.left);
            let Some(r) = link.right else {
                return false;
            };
            let mut rest = live_v.minus(&cover);
            rest.remove(link.left);
            let r_cands = if r >= base {
                frame.groups[r - base].cands
            } else {
                BitSet::single(r)
            };
            if !rest.minus(&r_cands).is_empty() {
                return false;
            }
            t_cover = t_cover.or(&right_links(frame, r, live));
            if r < base {
                rights.insert(r);
            }
        }
        false
    }

    /// The match of a chain found for target `z`: its conclusions (with
    /// `all_targets`, every other live candidate the chain fits).
    fn found<const W: usize>(
        &self,
        frame: &Frame<W>,
        st: &State<W>,
        evidence: ChainEvidence,
    ) -> Found<W> {
        let z = evidence.target;
        let mut conclusions = BitSet::single(z);
        if self.spec.all_targets {
            // Another target fits only when linked to the first
            // left-linking candidate (links are symmetric).
            let first = evidence.links[0].left;
            for t in frame.links[first].and(&st.cands).iter() {
                if t != z && self.fits(frame, st, t, &evidence.links) {
                    conclusions.insert(t);
                }
            }
        }
        Found {
            kind: ConclusionKind::Eliminate,
            conclusions,
            grade: None,
            evidence: Evidence::Chain(evidence),
        }
    }

    /// The chain in SudoRules notation (`r1n2{c3 c4} - c4n5{r6 .}`), with
    /// the model's names; a g-candidate is written by its cells as
    /// CSP-Rules writes it ([`group_in_var`]).
    pub fn render<const W: usize>(&self, frame: &Frame<W>, ev: &ChainEvidence) -> String {
        let n = ev.links.len();
        let base = frame.len();
        ev.links
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let right = match k.right {
                    Some(r) if r >= base => group_in_var(frame, k.var, r - base),
                    Some(r) if i + 1 < n || self.spec.show_last_right => {
                        frame.cand_in_var(k.var, r)
                    }
                    _ => ".".to_string(),
                };
                format!(
                    "{}{{{} {}}}",
                    frame.var_name(k.var),
                    frame.cand_in_var(k.var, k.left),
                    right
                )
            })
            .collect::<Vec<_>>()
            .join(" - ")
    }
}

/// The live candidates linked to a right-linking candidate `r` (g-linked
/// when it is a g-candidate, `r ≥ frame.len()`).
#[inline]
fn right_links<const W: usize>(frame: &Frame<W>, r: usize, live: &BitSet<W>) -> BitSet<W> {
    let base = frame.len();
    if r >= base {
        frame.groups[r - base].glinks.and(live)
    } else {
        frame.links[r].and(live)
    }
}

/// How g-candidate `g` (a frame group) is written inside the braces of
/// frame variable `v`, as SudoRules writes it (`grid::segments::
/// segment_in_var` on classic Sudoku): a cell's segment of symbols as
/// `n5-` or `n3+`; the columns of its cells in a row
/// (`c456`), their rows in a column (`r456`), elsewhere the row and the
/// columns (`r3c456`) or the rows and the column (`r456c1`), or the cells'
/// names when they share neither.
pub fn group_in_var<const W: usize>(frame: &Frame<W>, v: usize, g: usize) -> String {
    let m = &frame.model;
    let group = &m.groups[frame.groups[g].group as usize];
    if let crate::model::GroupKind::Segment { low, high, .. } = group.kind {
        // A segment of a cell's symbols, as CSP-Rules' FutoRules prints
        // it: `n5-` for 1 to 5, `n3+` for 3 to N.
        return if low == 0 {
            format!("n{}-", high + 1)
        } else {
            format!("n{}+", low + 1)
        };
    }
    let cells: Vec<usize> = group.cands.iter().map(|&z| m.cand_cell(z)).collect();
    let rows: Vec<usize> = cells.iter().map(|&c| m.cell_row(c) + 1).collect();
    let cols: Vec<usize> = cells.iter().map(|&c| m.cell_col(c) + 1).collect();
    let join = |xs: &[usize]| xs.iter().map(usize::to_string).collect::<String>();
    let kind = m
        .var_house(frame.vars[v].var as usize)
        .map(|h| m.houses[h].kind);
    match kind {
        Some(0) => format!("c{}", join(&cols)),
        Some(1) => format!("r{}", join(&rows)),
        _ if rows.iter().all(|&r| r == rows[0]) => format!("r{}c{}", rows[0], join(&cols)),
        _ if cols.iter().all(|&c| c == cols[0]) => format!("r{}c{}", join(&rows), cols[0]),
        _ => cells
            .iter()
            .map(|&c| m.cell_name(c))
            .collect::<Vec<_>>()
            .join(""),
    }
}
