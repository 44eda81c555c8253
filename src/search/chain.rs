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

use super::{ConclusionKind, Evidence, Found, SearchCx, Searcher, SearcherKind};
use crate::grid::bits::{Bits, VarSet};
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::state::State;
use std::any::Any;
use std::collections::HashSet;
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

/// A partial chain: its last step and what it has used and covered.
#[derive(Clone)]
struct Partial {
    /// Index of the previous partial chain in the arena (`u32::MAX` for none).
    parent: u32,
    var: u16,
    left: u16,
    right: u16,
    rights: Bits,
    lefts: Bits,
    vars: VarSet,
    /// Live candidates linked to some right-linking candidate so far.
    t_cover: Bits,
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

    /// Does the last variable `v` with left-linking `l` end a chain?
    /// Returns the last right-linking candidate shown (if any).
    #[inline]
    fn ends(&self, live_v: &Bits, l: usize, cover: &Bits, nz: &Bits) -> Option<Option<usize>> {
        // A variable with one candidate is a single, not a chain's end.
        if live_v.len() < 2 {
            return None;
        }
        let mut rest = live_v.minus(cover);
        rest.remove(l);
        if !rest.is_subset(nz) {
            return None;
        }
        match self.spec.ending {
            Ending::Contradiction => Some(None),
            Ending::LinkedToTarget => {
                if rest.len() == 1 {
                    Some(rest.min())
                } else {
                    None
                }
            }
        }
    }

    /// Searches chains of the spec's length for target `z`; calls `f` with
    /// the first one found. Returns `Break` when `f` (or the deadline) does.
    fn search_target(
        &self,
        cx: &mut SearchCx,
        state: &State,
        z: usize,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let live = &state.cands;
        let nz = links(z).and(live);
        if nz.is_empty() {
            return ControlFlow::Continue(());
        }
        let n = self.spec.length;
        let mut arena: Vec<Partial> = Vec::new();
        // The frontier: indices into the arena of partial chains of length k.
        let mut frontier: Vec<u32> = vec![u32::MAX];
        let mut seen: HashSet<(u16, Bits)> = HashSet::new();
        for k in 0..n {
            let last = k + 1 == n;
            let mut next: Vec<u32> = Vec::new();
            for &pi in &frontier {
                let (rights, lefts, vars, t_cover, rlast) = if pi == u32::MAX {
                    (Bits::EMPTY, Bits::EMPTY, VarSet::EMPTY, Bits::EMPTY, None)
                } else {
                    let p = &arena[pi as usize];
                    (p.rights, p.lefts, p.vars, p.t_cover, Some(p.right as usize))
                };
                let mut ls = match (rlast, self.spec.linking) {
                    (None, _) => nz,
                    (Some(r), Linking::Previous) => links(r).and(live),
                    (Some(_), Linking::TargetOrAny) => nz.or(&t_cover),
                };
                ls = ls.minus(&rights);
                ls.remove(z);
                if self.spec.linking == Linking::Previous {
                    ls = ls.minus(&lefts);
                }
                let cover = self.cover(k, &nz, &t_cover);
                for l in ls.iter() {
                    for v in cand_vars(l) {
                        if cx.tick() {
                            return ControlFlow::Break(());
                        }
                        if !self.space_ok(v) || vars.contains(v) {
                            continue;
                        }
                        let live_v = live.and(&TABLES.var[v]);
                        if last {
                            let Some(shown) = self.ends(&live_v, l, &cover, &nz) else {
                                continue;
                            };
                            let evidence = self.evidence(&arena, pi, z, v, l, shown);
                            return f(Found {
                                kind: ConclusionKind::Eliminate,
                                conclusions: Bits::single(z),
                                grade: None,
                                evidence: Evidence::Chain(evidence),
                            });
                        }
                        let mut rest = live_v.minus(&cover);
                        rest.remove(l);
                        if rest.len() != 1 {
                            continue;
                        }
                        let r = rest.min().unwrap_or(0);
                        if r == z || rights.contains(r) || lefts.contains(r) || r == l {
                            continue;
                        }
                        let mut new_rights = rights;
                        new_rights.insert(r);
                        let key_last = match self.spec.linking {
                            Linking::Previous => r as u16,
                            Linking::TargetOrAny => u16::MAX,
                        };
                        if !seen.insert((key_last, new_rights)) {
                            continue;
                        }
                        let mut new_lefts = lefts;
                        new_lefts.insert(l);
                        let mut new_vars = vars;
                        new_vars.insert(v);
                        arena.push(Partial {
                            parent: pi,
                            var: v as u16,
                            left: l as u16,
                            right: r as u16,
                            rights: new_rights,
                            lefts: new_lefts,
                            vars: new_vars,
                            t_cover: t_cover.or(&links(r).and(live)),
                        });
                        next.push((arena.len() - 1) as u32);
                    }
                }
            }
            if next.is_empty() {
                break;
            }
            frontier = next;
        }
        ControlFlow::Continue(())
    }

    /// The chain ending with the partial chain `pi` and the last variable.
    fn evidence(
        &self,
        arena: &[Partial],
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
    fn kind(&self) -> SearcherKind {
        SearcherKind::Chain
    }

    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.spec.length == 0 {
            return ControlFlow::Continue(());
        }
        for z in state.cands.iter() {
            self.search_target(cx, state, z, f)?;
        }
        ControlFlow::Continue(())
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

    fn as_any(&self) -> &dyn Any {
        self
    }
}
