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
//! operations per candidate variable; partial chains with the same last
//! `R` and the same set of `R`s (whips, chains), or the same set of `R`s
//! (braids), are kept once (CSP-Rules keeps the first as well). See
//! `docs/chains.md` for the definitions and their sources.
//!
//! Architecture Invariant: no family is named here. A family is a
//! combination of the spec's fields, chosen by a rule file.

mod bfs;
pub mod target;

use super::{Evidence, Found, SearchCx, Searcher, SearcherKind, Targets};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::segments::segment_in_var;
pub use crate::grid::segments::{SEGMENTS, Segment};
use crate::grid::state::State;
use crate::grid::tables::*;
use bfs::{After, Buffers, Node, Outcome};
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

/// What a partial chain has decided, the target assumed true: the
/// candidates linked to its right-linking candidates (false), its
/// left-linking candidates (false) and its right-linking candidates (true).
#[derive(Clone, Copy)]
struct Decided {
    t_cover: Bits,
    lefts: Bits,
    rights: Bits,
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
#[derive(Clone, Debug, PartialEq)]
pub struct ChainEvidence {
    pub target: usize,
    pub links: Vec<Link>,
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
    /// what the extras set aside (`cover`), the target's links `nz` and what
    /// the chain decided before? Returns the last right-linking candidate
    /// shown (if any).
    #[inline]
    fn ends(
        &self,
        live_v: &Bits,
        l: usize,
        cover: &Bits,
        nz: &Bits,
        before: Decided,
    ) -> Option<Option<usize>> {
        let Decided {
            t_cover,
            lefts,
            rights,
        } = before;
        // A variable with one candidate is a single, not a chain's end.
        if live_v.len() < 2 {
            return None;
        }
        let mut rest = live_v.minus(cover);
        rest.remove(l);
        if self.spec.ending == Ending::Lasso {
            let mut others = *live_v;
            others.remove(l);
            let closes = match rest.len() {
                0 => others.intersects(&t_cover.or(&lefts)),
                1 => rest.intersects(&t_cover.or(&lefts)),
                _ => false,
            };
            return closes.then_some(None);
        }
        if !rest.is_subset(nz) {
            return None;
        }
        match self.spec.ending {
            Ending::Lasso => None,
            Ending::Contradiction => Some(None),
            // The last right-linking candidate is a new one: all the
            // candidates of a chain differ (Berthier's no-loop condition).
            Ending::LinkedToTarget => match rest.min() {
                Some(r) if rest.len() == 1 && !rights.contains(r) && !lefts.contains(r) => {
                    Some(Some(r))
                }
                _ => None,
            },
        }
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
                    .ends(
                        &live_v,
                        link.left,
                        &cover,
                        &nt,
                        Decided {
                            t_cover,
                            lefts,
                            rights,
                        },
                    )
                    .is_some();
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
        target::Family::of(self).search_for(cx, state, wanted, &mut |_, found| f(found))
    }

    fn first_for(&self, cx: &mut SearchCx, state: &State, wanted: &Targets) -> Option<Found> {
        target::Family::of(self).first_for(cx, state, wanted)
    }

    fn render(&self, _before: &State, evidence: &Evidence) -> String {
        let Evidence::Chain(c) = evidence else {
            return String::new();
        };
        let n = c.links.len();
        c.links
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let sp = var_space(k.var);
                let right = match k.right {
                    Some(r) if r >= G_BASE => segment_in_var(sp, &SEGMENTS[r - G_BASE]),
                    Some(r) if i + 1 < n || self.spec.show_last_right => cand_in_var(sp, r),
                    _ => ".".to_string(),
                };
                format!(
                    "{}{{{} {}}}",
                    var_name(k.var),
                    cand_in_var(sp, k.left),
                    right
                )
            })
            .collect::<Vec<_>>()
            .join(" - ")
    }

    fn kind(&self) -> SearcherKind<'_> {
        SearcherKind::Chain(self)
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
