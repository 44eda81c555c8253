//! Chain searches: whips, braids, bivalue chains, z-chains and t-whips of
//! one length, over the link graph, configured by a chain rule's clauses.
//!
//! A chain for a target `Z` is a sequence of CSP variables `V1..Vn`, each
//! with a left-linking candidate `Lk` and (but the last) a right-linking
//! candidate `Rk`. What makes one family differ from another is a handful
//! of choices, which a [`ChainSpec`] holds and the rule text states:
//!
//! - which spaces the variables may come from (all four, or one: typed
//!   chains);
//! - which other candidates `Ok` of `Vk` are allowed besides `Lk` and `Rk`:
//!   none (bivalue chains), those linked to `Z` (z), those linked to an
//!   earlier `R` (t), or both (whips, braids); a t-whip allows z only in
//!   `V1`;
//! - how `Lk` is linked: to `R(k−1)` (`Z` for `k = 1`), or to `Z` or any
//!   earlier `R` (braids);
//! - how the chain ends: `Vn` has no candidate left but `Ln` once the
//!   allowed ones are set aside (whips, braids, z-chains), or exactly one
//!   more candidate `Rn`, linked to `Z` (bivalue chains, t-whips).
//!
//! Then `Z` is false. The search builds partial chains breadth-first, one
//! target at a time, as bitsets: the set of right-linking candidates so
//! far, the left-linking ones, the variables used, and the candidates the
//! allowed extras cover. Extending a partial chain is a few set
//! operations per candidate variable. The search is complete: it finds a
//! chain of the spec's length whenever one exists. Partial chains are
//! merged only when they have exactly the same extensions: those with the
//! same last `R` (when it links the next `L`), the same `R`s, the same
//! variables that can still matter and the same left-linking candidates
//! that later steps can still read ([`ChainSearch::key`],
//! [`ChainSearch::lefts_kept`]); the ones that differ only in those
//! candidates share one partial chain of the search and are extended
//! together ([`bfs`]). CSP-Rules keeps one partial whip per `R` sequence,
//! whatever its `L`s, and so misses whips a kept copy's `L`s forbid
//! (`docs/chains.md` §5.6). See `docs/chains.md` for the definitions and
//! their sources; `tests/chain_completeness.rs` holds the search equal to a
//! brute-force enumeration of the definitions.
//!
//! Architecture Invariant: no family is named here. A family is a
//! combination of the spec's fields, chosen by a rule file.

mod aic;
mod bfs;
mod reach;
pub mod target;

use super::{Evidence, Found, SearchCx, Searcher, SearcherKind, Targets};
use crate::grid::bits::{Bits, VarSet};
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::segments::segment_in_var;
pub use crate::grid::segments::{SEGMENTS, Segment};
use crate::grid::state::State;
use crate::grid::tables::*;
pub use aic::{LOOP_TARGET, als_node_id};
use bfs::{After, Buffers, Key, Node, Outcome};
use std::ops::ControlFlow;

/// What the other candidates of a chain's variables may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Extras {
    /// Candidates linked to the target (z-candidates).
    pub z: bool,
    /// Candidates linked to an earlier right-linking candidate (t-candidates).
    pub t: bool,
    /// z-candidates only in the first variable (CSP-Rules' t-whips).
    pub z_in_first_only: bool,
}

/// How a left-linking candidate is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linking {
    /// To the previous right-linking candidate (the target for the first).
    Previous,
    /// To the target or to any earlier right-linking candidate (braids).
    TargetOrAny,
}

/// How a chain ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The last variable has no candidate left but its left-linking one.
    Contradiction,
    /// The last variable has exactly one more candidate, linked to the target.
    LinkedToTarget,
    /// A lasso (Berthier's rl- and lr-lassos): the last variable's
    /// right-linking candidate, the one candidate left besides its
    /// left-linking one once the extras are set aside (or, when none is
    /// left, any candidate of it linked to an earlier right-linking one), is
    /// an earlier left-linking candidate (rl) or is linked to an earlier
    /// right-linking candidate (lr), so the loop would close on a candidate
    /// already known true or false. The target need not be linked to it.
    Lasso,
    /// A loop (Continuous Nice Loop): the last variable's right-linking
    /// node is linked to the first left-linking one, and every weak link of
    /// the loop concludes ([`aic`]). Chains without a target: their
    /// evidence's target is [`LOOP_TARGET`].
    Loop,
    /// A chain from a candidate back to itself (HoDoKu's discontinuous nice
    /// loop whose two links at the start are strong): the candidate false
    /// makes it true, so it is true and its cell's other candidates are
    /// false ([`aic`]). The evidence's target is the candidate, the first
    /// node and the last.
    BackToStart,
}

/// The configuration of a chain search of one length.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainSpec {
    /// The number of CSP variables of the chains searched.
    pub length: usize,
    /// The spaces the variables may come from (indexed by [`Space`]).
    pub spaces: [bool; 4],
    pub extras: Extras,
    pub linking: Linking,
    pub ending: Ending,
    /// Print the last variable's right-linking candidate (bivalue chains)
    /// instead of `.`.
    pub show_last_right: bool,
    /// May a right-linking candidate be a g-candidate (g-whips, g-braids)?
    pub groups: bool,
    /// May a left-linking candidate be a g-candidate too, and so either end
    /// of a chain (grouped AICs, `nodes groups`: searched by [`aic`])?
    pub left_groups: bool,
    /// Are the nodes a digit's candidates in an almost locked set, strongly
    /// linked to the set's other digits and weakly to the same digit in
    /// another set (ALS chains, `nodes als`: searched by [`aic`])?
    pub als_nodes: bool,
    /// Conclude, with the target found, every other live candidate for
    /// which the same chain is a chain of the family (SudoRules' "blocked"
    /// chains: whip[2], bivalue chains, z-chains, t-whips).
    pub all_targets: bool,
    /// Are all the chain's candidates of the target's digit (x-chains,
    /// Berthier's c-chains)?
    pub one_digit: bool,
}

/// First index of g-candidates in [`Link::right`]: `G_BASE + segment`
/// (a segment of [`SEGMENTS`], in `grid::segments`).
pub const G_BASE: usize = N_CANDS;

/// First index of an ALS chain's nodes in [`Link`]s ([`als_node_id`]).
pub const ALS_BASE: usize = G_BASE + N_SEGMENTS;

/// What a chain's left-linking candidates must be for its last variable
/// to end it ([`ChainSearch::ends`]).
#[derive(Clone, Copy)]
enum EndIf {
    Always,
    /// This candidate is none of them (it is the last, new, `R`).
    LeftNot(usize),
    /// One of these is one of them (a lasso closing on an earlier `L`).
    LeftIn(Bits),
}

impl EndIf {
    fn holds(self, lefts: &Bits) -> bool {
        match self {
            EndIf::Always => true,
            EndIf::LeftNot(r) => !lefts.contains(r),
            EndIf::LeftIn(c) => c.intersects(lefts),
        }
    }
}

/// One variable of a found chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    pub var: usize,
    pub left: usize,
    /// `None` for the last variable of a whip or braid.
    pub right: Option<usize>,
}

/// The evidence of a chain: its target and its variables in order.
///
/// An ALS chain's (`nodes als`) links are its sets in order: the `k`-th
/// link's `var` is `k`, its nodes [`als_node_id`]`(k, d)` for the digit
/// `d` it enters the set by (false) and the one it leaves by (true), and
/// `als[k]` the set's cells (bit `c` for cell `c`) and digits (bit `d`
/// for digit `d + 1`). Other chains have no `als`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainEvidence {
    pub target: usize,
    pub links: Vec<Link>,
    pub als: Vec<(u128, u16)>,
}

/// A compiled chain rule of one length: the [`Searcher`] of the `chain` kind.
#[derive(Clone, Debug)]
pub struct ChainSearch {
    pub spec: ChainSpec,
}

impl ChainSearch {
    pub fn new(spec: ChainSpec) -> ChainSearch {
        ChainSearch { spec }
    }

    /// Is the rule searched by [`aic`] (groups on both sides, ALS nodes, or
    /// a loop)
    /// rather than by the breadth-first search of whips and chains?
    pub fn alternating(&self) -> bool {
        self.spec.left_groups
            || self.spec.als_nodes
            || matches!(self.spec.ending, Ending::Loop | Ending::BackToStart)
    }

    fn space_ok(&self, v: usize) -> bool {
        self.spec.spaces[var_space(v) as usize]
    }

    /// The candidates the extras set aside in a variable, before step `k`
    /// (0-based), given the target's links `nz` and the t-cover so far.
    #[inline]
    fn cover(&self, k: usize, nz: &Bits, t_cover: &Bits) -> Bits {
        let e = self.spec.extras;
        let mut c = Bits::EMPTY;
        if e.z && (!e.z_in_first_only || k == 0) {
            c = c.or(nz);
        }
        if e.t {
            c = c.or(t_cover);
        }
        c
    }

    /// Does the last variable `v` with left-linking `l` end a chain, given
    /// what the extras set aside (`cover`), the target's links `nz`, the
    /// candidates linked to the chain's right-linking ones (`t_cover`) and
    /// those (`rights`)? Returns the last right-linking candidate shown (if
    /// any) and what the chain's left-linking candidates must be for it
    /// (the rest of the test, which [`EndIf::holds`] makes).
    #[inline]
    fn ends(
        &self,
        live_v: &Bits,
        l: usize,
        cover: &Bits,
        nz: &Bits,
        t_cover: &Bits,
        rights: &Bits,
    ) -> Option<(Option<usize>, EndIf)> {
        // A variable with one candidate is a single, not a chain's end.
        if live_v.len() < 2 {
            return None;
        }
        let mut rest = live_v.minus(cover);
        rest.remove(l);
        if self.spec.ending == Ending::Lasso {
            // The candidate that would be the next R (or, none left, any
            // other) is linked to an earlier R, or is an earlier L.
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
            // The last right-linking candidate is a new one: all the
            // candidates of a chain differ (Berthier's no-loop condition).
            Ending::LinkedToTarget => match rest.min() {
                Some(r) if rest.len() == 1 && !rights.contains(r) => {
                    Some((Some(r), EndIf::LeftNot(r)))
                }
                _ => None,
            },
        }
    }

    /// The key of a partial chain, after its step `k` (0-based): its last
    /// right-linking candidate `last` (the links of the next left-linking
    /// one come from it when linking is `Previous`), its right-linking
    /// candidates and segments, and the variables it used that can still
    /// matter, `vars` (all of them, or those of its segment steps: see
    /// [`ChainSearch::candidate_vars_matter`]).
    ///
    /// Claim: partial chains of one target with the same key and the same
    /// [`ChainSearch::lefts_kept`] have exactly the same extensions:
    /// for each left-linking candidate `l` and variable `v`, both make a
    /// child, with the same key and relevant left-linking candidates, or
    /// neither does; and both end a chain at `(l, v)` or neither does. So,
    /// by induction on the length still to go, keeping one of them loses
    /// no chain. Proof, by what an extension reads (`ChainSearch::bfs`,
    /// `ends`), besides the target and the state:
    ///
    /// - `k` is `|rights| + |g_rights|` (each step adds one right-linking
    ///   candidate or segment, new to the chain), and `t_cover` (the live
    ///   candidates linked to one of `rights` or g-linked to one of
    ///   `g_rights`) is a function of the key; so is the cover of the
    ///   extras (`cover`), from `k`, `t_cover` and the target's links.
    /// - The candidates `l` tried are the links of `last` (`Previous`) or
    ///   of the target and `t_cover` (`TargetOrAny`), less `rights`, the
    ///   target and, for `Previous`, the left-linking candidates.
    /// - The left-linking candidates are read by that last test, by "a
    ///   new right-linking candidate is no earlier left-linking one" (a
    ///   single `R`, and the last one of `LinkedToTarget`) and by a lasso's
    ///   end: [`ChainSearch::lefts_kept`] keeps every one these can
    ///   read.
    /// - The variables are read by "no variable twice" only. A variable
    ///   `Vj` whose `Rj` is a candidate can give no later child and no end:
    ///   `Rj` stays live, is not the target, is never a later `L` (they
    ///   exclude `rights`) and stays outside the cover: for `t`, the
    ///   right-linking candidates are pairwise unlinked (each was outside
    ///   the links of the earlier ones when chosen), and a later segment
    ///   `R` has two live members outside `Rj`'s links, so is not g-linked
    ///   to `Rj`; for `z` (not first-only), `Rj` was outside the target's
    ///   links when chosen. So `Rj` is in `rest`, which then makes no
    ///   single `R` (`Rj` is in `rights`) and no segment (it would hold
    ///   `Rj`); nor an end: `LinkedToTarget` wants a new `R`,
    ///   `Contradiction` wants `rest` within the target's links, which
    ///   `Rj` is not when `z` is set aside at every step, and a lasso wants
    ///   `Rj` in `t_cover` or among the left-linking candidates, in neither
    ///   of which it is when `t` is set aside. Only then are the variables
    ///   of candidate steps left out of the key
    ///   ([`ChainSearch::candidate_vars_matter`]).
    /// - A child's key is a function of the parent's and of `(l, v)` and
    ///   its `R`; so are its relevant left-linking candidates (below).
    fn key(&self, last: usize, rights: Bits, g_rights: Bits, vars: VarSet) -> Key {
        Key {
            last: match self.spec.linking {
                Linking::Previous => last as u16,
                Linking::TargetOrAny => u16::MAX,
            },
            rights,
            g_rights,
            vars,
        }
    }

    /// Can a variable whose right-linking candidate is a candidate give a
    /// child or an end when taken again (see [`ChainSearch::key`])? Only
    /// when the extras do not set the target's links aside at every step
    /// and the chain ends in a contradiction, or do not set `t` aside and
    /// it ends in a lasso.
    fn candidate_vars_matter(&self) -> bool {
        let e = self.spec.extras;
        match self.spec.ending {
            Ending::Contradiction => !e.z || e.z_in_first_only,
            Ending::LinkedToTarget | Ending::Loop | Ending::BackToStart => false,
            Ending::Lasso => !e.t,
        }
    }

    /// Which left-linking candidates of a partial chain of length `k + 1`,
    /// in a search for chains of `n` variables at most, whose key has
    /// `t_cover` and last right-linking candidate `last`, its extensions
    /// can read (a partial chain keeps its left-linking candidates within
    /// this mask, [`Member::lefts`]):
    ///
    /// - all of them for a lasso, whose end reads them anywhere;
    /// - those a later `L` could be, with linking `Previous`: any, when a
    ///   step follows the next one, else the links of `last` (the next
    ///   step's candidates `l`);
    /// - those a later `R` (single, or the last one of `LinkedToTarget`)
    ///   could be: a later `R` lies in a later `rest`, outside what the
    ///   extras set aside at that step, which holds `stable`, what they
    ///   set aside at every later step (`t_cover`, which only grows, when
    ///   `t`; the target's links when `z` is not first-only).
    ///
    /// A child keeps its parent's kept candidates and its `l` within its
    /// own mask, which only shrinks along a chain: so what a child keeps is
    /// a function of what its parent kept, the step and the child's key.
    ///
    /// A search for several lengths keeps what the longest can read (a
    /// superset of what a shorter one keeps: the same chains are found).
    ///
    /// [`Member::lefts`]: bfs::Member::lefts
    fn lefts_kept(
        &self,
        (k, n): (usize, usize),
        last: usize,
        t_cover: &Bits,
        nz: &Bits,
        live: &Bits,
    ) -> Bits {
        if self.spec.ending == Ending::Lasso
            || (self.spec.linking == Linking::Previous && k + 2 < n)
        {
            return Bits::first(N_CANDS);
        }
        let e = self.spec.extras;
        let mut stable = Bits::EMPTY;
        if e.t {
            stable = stable.or(t_cover);
        }
        if e.z && !e.z_in_first_only {
            stable = stable.or(nz);
        }
        let mut keep = live.minus(&stable);
        if self.spec.linking == Linking::Previous {
            keep = keep.or(&right_links(last, live));
        }
        keep
    }

    /// Is the chain `links` (found for another target) a chain of the
    /// family for target `t` too? Its variables and linking candidates stay;
    /// what the extras cover and how it ends are judged for `t`.
    fn fits(&self, state: &State, t: usize, chain: &[Link]) -> bool {
        let live = &state.cands;
        let nt = links(t).and(live);
        let Some(first) = chain.first() else {
            return false;
        };
        if !nt.contains(first.left) {
            return false;
        }
        if self.spec.one_digit && cand_digit(t) != cand_digit(first.left) {
            return false;
        }
        if self.spec.linking == Linking::TargetOrAny {
            return false;
        }
        let mut t_cover = Bits::EMPTY;
        let mut lefts = Bits::EMPTY;
        let mut rights = Bits::EMPTY;
        let n = chain.len();
        for (k, link) in chain.iter().enumerate() {
            let live_v = live.and(&TABLES.var[link.var]);
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
            let r_cands = if r >= G_BASE {
                SEGMENTS[r - G_BASE].cands
            } else {
                Bits::single(r)
            };
            if !rest.minus(&r_cands).is_empty() {
                return false;
            }
            let r_links = if r >= G_BASE {
                SEGMENTS[r - G_BASE].glinks
            } else {
                *links(r)
            };
            t_cover = t_cover.or(&r_links.and(live));
            if r < G_BASE {
                rights.insert(r);
            }
        }
        false
    }

    /// The chain ending with the partial chain `pi` and the last variable.
    fn evidence(
        &self,
        arena: &[Node],
        mut pi: u32,
        z: usize,
        v: usize,
        l: usize,
        shown: Option<usize>,
    ) -> ChainEvidence {
        let mut out = vec![Link {
            var: v,
            left: l,
            right: shown,
        }];
        while pi != u32::MAX {
            let p = &arena[pi as usize];
            out.push(Link {
                var: p.var as usize,
                left: p.left as usize,
                right: Some(p.right as usize),
            });
            pi = p.parent;
        }
        out.reverse();
        ChainEvidence {
            target: z,
            links: out,
            als: Vec::new(),
        }
    }
}

impl Searcher for ChainSearch {
    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.alternating() {
            return aic::search(self, cx, state, f);
        }
        let lengths = target::lengths_of(self.spec.length);
        let mut buf = Buffers::default();
        let mut flow = ControlFlow::Continue(());
        for z in state.cands.iter() {
            let out = self.bfs(
                cx,
                state,
                z,
                lengths,
                &mut buf,
                &mut |_, found| match f(found) {
                    ControlFlow::Continue(()) => After::NextTarget,
                    ControlFlow::Break(()) => After::Abort,
                },
            );
            if matches!(out, Outcome::Aborted | Outcome::Stopped) {
                flow = ControlFlow::Break(());
                break;
            }
        }
        buf.release(cx);
        flow
    }

    fn search_for(
        &self,
        cx: &mut SearchCx,
        state: &State,
        wanted: &Targets,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.alternating() {
            return super::search_filtered(self, cx, state, wanted, f);
        }
        target::Family::of(self).search_for(cx, state, wanted, &mut |_, found| f(found))
    }

    fn first_for(&self, cx: &mut SearchCx, state: &State, wanted: &Targets) -> Option<Found> {
        if self.alternating() {
            let mut hit = None;
            let _ = self.search(cx, state, &mut |m| {
                if wanted.meets(&m) {
                    hit = Some(m);
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            return hit;
        }
        target::Family::of(self).first_for(cx, state, wanted)
    }

    fn render(&self, _before: &State, evidence: &Evidence) -> String {
        let Evidence::Chain(c) = evidence else {
            return String::new();
        };
        if !c.als.is_empty() {
            return render_als(c);
        }
        let n = c.links.len();
        c.links
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let sp = var_space(k.var);
                let left = if k.left >= G_BASE {
                    segment_in_var(sp, &SEGMENTS[k.left - G_BASE])
                } else {
                    cand_in_var(sp, k.left)
                };
                let right = match k.right {
                    Some(r) if r >= G_BASE => segment_in_var(sp, &SEGMENTS[r - G_BASE]),
                    Some(r) if i + 1 < n || self.spec.show_last_right => cand_in_var(sp, r),
                    _ => ".".to_string(),
                };
                format!("{}{{{} {}}}", var_name(k.var), left, right)
            })
            .collect::<Vec<_>>()
            .join(" - ")
    }

    fn kind(&self) -> SearcherKind<'_> {
        SearcherKind::Chain(self)
    }
}

/// An ALS chain in text: each set as its cells and digits, then the digit
/// it is entered by (false) and the one it is left by (true), as
/// `{r1c1 r1c2}(1 2 3){n1 n3}`.
fn render_als(c: &ChainEvidence) -> String {
    c.links
        .iter()
        .zip(&c.als)
        .map(|(l, &(cells, digits))| {
            let cells: Vec<String> = (0..N_CELLS)
                .filter(|&x| cells >> x & 1 != 0)
                .map(cell_name)
                .collect();
            let digits: String = (0..9)
                .filter(|&d| digits >> d & 1 != 0)
                .map(|d| char::from(b'1' + d as u8))
                .collect();
            let node = |id: usize| format!("n{}", (id - ALS_BASE) % 9 + 1);
            format!(
                "{{{}}}({}){{{} {}}}",
                cells.join(" "),
                digits,
                node(l.left),
                node(l.right.unwrap_or(l.left))
            )
        })
        .collect::<Vec<_>>()
        .join(" - ")
}

/// The live candidates linked to a right-linking candidate `r` (g-linked
/// when it is a segment).
fn right_links(r: usize, live: &Bits) -> Bits {
    if r >= G_BASE {
        SEGMENTS[r - G_BASE].glinks.and(live)
    } else {
        links(r).and(live)
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
