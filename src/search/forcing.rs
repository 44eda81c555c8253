//! Whips from a disjunction (CSP-Rules' `OR_k-forcing-whips`,
//! `OR_k-contrad-whips` and `OR_k-whips`): the generic machinery behind
//! the pattern functions `forcing_whips(G, N)`, `contrad_whips(G, N)`,
//! `strict_contrad_whips(G, N)` and `or_whips(G, N)`.
//!
//! A pattern rule that proves "one of the candidates of G is true" (the
//! guardians of an impossible pattern: Berthier's anti-tridagon) hands G to
//! `forcing_whips`. For each `g` of G, a *partial whip* from `g` is a
//! sequence of CSP variables `V1..Vm`, each with a left-linking candidate
//! `Lk` linked to the previous right-linking candidate `R(k−1)` (to `g` for
//! `k = 1`) and one right-linking candidate `Rk`, every other candidate of
//! `Vk` being linked to `g` or to an earlier `R`: if `g` were true, every
//! `Rk` would be. A candidate `Z` is eliminated by a forcing whip of
//! length `1 + m1 + … + mk` when, for each `gi`, `Z` is linked to `gi`
//! (`mi = 0`) or to the last `R` of a partial whip of length `mi` from
//! `gi`: whichever guardian is true, `Z` is false. The disjunction counts
//! as one variable, as in CSP-Rules' lengths (`OR2-forcing-whip[3]` is two
//! partial whips of length 1).
//!
//! The search is breadth-first from each guardian over partial whips kept
//! once per (last `R`, set of `R`s), which is all an extension reads: the
//! candidates set aside in a variable are those linked to `g` or to an `R`.
//! It records, for each candidate, the shortest partial whip that makes it
//! true.
//!
//! The others start from the target `Z` instead, as a whip does, and
//! use the disjunction as one of the whip's variables (its candidates
//! are the guardians): a partial whip from `Z` (every variable's other
//! candidates linked to `Z` or to an earlier right-linking candidate) up
//! to a point where every live guardian is linked to `Z` or to a
//! right-linking candidate is an *OR_k-contrad-whip* (if `Z` were true,
//! no guardian could be); one where all live guardians but one, `g`,
//! are, goes on from `g` as its next right-linking candidate, and an
//! *OR_k-whip* ends, as a whip, in a variable whose left-linking
//! candidate is linked to the last right-linking one and whose every
//! candidate is linked to `Z` or to a right-linking one. CSP-Rules'
//! OR_k-contrad-whips are stricter (`strict_contrad_whips`): every
//! guardian is linked to a right-linking candidate, none to `Z` only.
//! All count the disjunction as one variable. The search is breadth-first from each
//! target over partial chains kept once per (last `R`, set of `R`s,
//! disjunction used or not), at most [`MAX_TARGET_FRONTIER`] a depth.
//!
//! Architecture Invariant: no pattern is named here; the disjunction
//! comes from the rule text.

use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::state::State;
use crate::grid::tables::*;
use std::collections::HashSet;
use std::ops::ControlFlow;

/// No partial whip reaches the candidate.
const NONE: u8 = u8::MAX;

/// The most partial whips kept at one depth of one guardian's search; a
/// search that would keep more stops there (deterministically: fewer
/// eliminations, never a wrong one).
pub const MAX_FRONTIER: usize = 1 << 18;

/// The most partial chains kept at one depth of one target's search
/// (contrad-whips and OR-whips: one search per live candidate, so a
/// smaller bound than [`MAX_FRONTIER`]); beyond it, fewer eliminations,
/// never a wrong one.
pub const MAX_TARGET_FRONTIER: usize = 1 << 14;

/// Calls `f` for each variable by which a partial whip from `start`,
/// whose last right-linking candidate is `last`, may go on: each variable
/// of each live candidate `l` linked to `last` (neither `start` nor a
/// right-linking candidate), with its live candidates and those of them
/// left once `l` and the candidates linked to `start` or to a
/// right-linking one (`cover`) are set aside.
fn each_variable(
    live: &Bits,
    start: usize,
    last: usize,
    rights: &Bits,
    cover: &Bits,
    mut f: impl FnMut(&Bits, Bits) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut ls = links(last).and(live).minus(rights);
    ls.remove(start);
    for l in ls.iter() {
        for v in cand_vars(l) {
            let live_v = live.and(&TABLES.var[v]);
            let mut rest = live_v.minus(cover);
            rest.remove(l);
            f(&live_v, rest)?;
        }
    }
    ControlFlow::Continue(())
}

/// The right-linking candidate a variable gives, when one candidate is
/// left in it (`rest`) and it is new (neither `start` nor an earlier one).
fn right_linking(rest: &Bits, start: usize, rights: &Bits) -> Option<usize> {
    if rest.len() != 1 {
        return None;
    }
    let r = rest.min()?;
    (r != start && !rights.contains(r)).then_some(r)
}

/// For each candidate, the length of the shortest partial whip from `g`
/// (of `max` variables at most) whose last right-linking candidate it is
/// (0 for `g` itself, [`NONE`] when none is).
fn depths_from(state: &State, g: usize, max: usize) -> Vec<u8> {
    let live = &state.cands;
    let mut depth = vec![NONE; N_CANDS];
    depth[g] = 0;
    // (last R, the R's so far, the live candidates linked to g or an R).
    let mut frontier: Vec<(usize, Bits, Bits)> = vec![(g, Bits::EMPTY, links(g).and(live))];
    for k in 0..max {
        let mut next = Vec::new();
        let mut seen: HashSet<(usize, Bits)> = HashSet::new();
        for (last, rights, cover) in &frontier {
            let _ = each_variable(live, g, *last, rights, cover, |live_v, rest| {
                if live_v.len() < 2 {
                    return ControlFlow::Continue(());
                }
                let Some(r) = right_linking(&rest, g, rights) else {
                    return ControlFlow::Continue(());
                };
                if depth[r] == NONE {
                    depth[r] = (k + 1) as u8;
                }
                if k + 1 < max && next.len() < MAX_FRONTIER {
                    let mut nr = *rights;
                    nr.insert(r);
                    if seen.insert((r, nr)) {
                        next.push((r, nr, cover.or(&links(r).and(live))));
                    }
                }
                ControlFlow::Continue(())
            });
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    depth
}

/// The live candidates, outside `or`, that forcing whips of `n` variables
/// at most eliminate, given that one candidate of `or` is true (see the
/// module's documentation). An empty `or` or an `n` below 1 gives none.
pub fn forcing_whips(state: &State, or: &Bits, n: i64) -> Bits {
    let live = &state.cands;
    if or.is_empty() || n < 1 {
        return Bits::EMPTY;
    }
    // Each branch has at most n − 1 variables; lengths fit in a u8.
    let max = (n - 1).min(60) as usize;
    let mut total = vec![1usize; N_CANDS];
    for g in or.iter() {
        let depth = depths_from(state, g, max);
        // The shortest branch from g that makes each candidate false.
        let mut best = vec![NONE; N_CANDS];
        for (r, &d) in depth.iter().enumerate() {
            if d == NONE {
                continue;
            }
            for z in links(r).and(live).iter() {
                if d < best[z] {
                    best[z] = d;
                }
            }
        }
        for (t, &b) in total.iter_mut().zip(&best) {
            *t = if b == NONE || *t == usize::MAX {
                usize::MAX
            } else {
                *t + b as usize
            };
        }
    }
    let mut out = Bits::EMPTY;
    for z in live.minus(or).iter() {
        if total[z] != usize::MAX && total[z] as i64 <= n {
            out.insert(z);
        }
    }
    out
}

/// Where the disjunction stands in a chain from a target.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OrPlace {
    /// The last variable: an OR_k-contrad-whip.
    Last,
    /// The last variable, every guardian linked to a right-linking
    /// candidate (none to the target only): CSP-Rules' OR_k-contrad-whip.
    StrictLast,
    /// A variable before the last: an OR_k-whip.
    Inner,
}

/// Is there a chain from `z` of `n` variables at most, with the
/// disjunction `or` at `place` (see the module's documentation)?
fn refuted_from(state: &State, or: &Bits, z: usize, n: usize, place: OrPlace) -> bool {
    let live = &state.cands;
    // (last R, the R's so far, the live candidates linked to z or an R,
    // the disjunction used). The first variable's left-linking candidate
    // is linked to z itself.
    let mut frontier: Vec<(usize, Bits, Bits, bool)> =
        vec![(z, Bits::EMPTY, links(z).and(live), false)];
    // `k` variables are behind every chain of the frontier.
    for k in 0..n {
        let mut next = Vec::new();
        let mut seen: HashSet<(usize, Bits, bool)> = HashSet::new();
        let mut keep = |next: &mut Vec<_>, item: (usize, Bits, Bits, bool)| {
            if k + 1 < n
                && next.len() < MAX_TARGET_FRONTIER
                && seen.insert((item.0, item.1, item.3))
            {
                next.push(item);
            }
        };
        for (last, rights, cover, used) in &frontier {
            if place == OrPlace::StrictLast {
                // Every guardian linked to a right-linking candidate.
                if !rights.is_empty() && or.iter().all(|g| !links(g).and(rights).is_empty()) {
                    return true;
                }
            } else if !used {
                let open = or.minus(cover);
                match (open.len(), place) {
                    // Every guardian false: the disjunction is the last
                    // variable, the (k + 1)th.
                    (0, OrPlace::Last) => return true,
                    (0, _) => {}
                    // All but one false: that one is the next R.
                    (1, OrPlace::Inner) => {
                        if let Some(g) = right_linking(&open, z, rights) {
                            let mut nr = *rights;
                            nr.insert(g);
                            keep(&mut next, (g, nr, cover.or(&links(g).and(live)), true));
                        }
                    }
                    _ => {}
                }
            }
            let end = each_variable(live, z, *last, rights, cover, |_, rest| {
                // A variable with no candidate left: the whip's last, the
                // (k + 1)th.
                if rest.is_empty() && *used {
                    return ControlFlow::Break(());
                }
                if let Some(r) = right_linking(&rest, z, rights) {
                    let mut nr = *rights;
                    nr.insert(r);
                    keep(&mut next, (r, nr, cover.or(&links(r).and(live)), *used));
                }
                ControlFlow::Continue(())
            });
            if end.is_break() {
                return true;
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    false
}

/// The live candidates outside `or` in which a chain of `n` variables at
/// most, with the disjunction at `place`, ends.
fn refuted(state: &State, or: &Bits, n: i64, place: OrPlace) -> Bits {
    let live = &state.cands;
    let or = or.and(live);
    if or.is_empty() || n < 1 {
        return Bits::EMPTY;
    }
    let n = n.min(60) as usize;
    let mut out = Bits::EMPTY;
    for z in live.minus(&or).iter() {
        if refuted_from(state, &or, z, n, place) {
            out.insert(z);
        }
    }
    out
}

/// The live candidates, outside `or`, that OR_k-contrad-whips of `n`
/// variables at most eliminate, given that one candidate of `or` is
/// true: a partial whip from the candidate after which every guardian is
/// linked to it or to a right-linking candidate (see the module's
/// documentation).
pub fn contrad_whips(state: &State, or: &Bits, n: i64) -> Bits {
    refuted(state, or, n, OrPlace::Last)
}

/// The live candidates, outside `or`, that OR_k-whips of `n` variables at
/// most eliminate, given that one candidate of `or` is true: whips from
/// the candidate in which the disjunction is one variable before the
/// last (see the module's documentation).
pub fn or_whips(state: &State, or: &Bits, n: i64) -> Bits {
    refuted(state, or, n, OrPlace::Inner)
}

/// The OR_k-contrad-whips as CSP-Rules defines them: those of
/// [`contrad_whips`] in which every guardian is linked to a right-linking
/// candidate of the partial whip, none to the target only (CSP-Rules'
/// `ORk-contrad-whip[N]` rules ask a link to a member of the chain's
/// right-linking candidates for each guardian). A subset of
/// [`contrad_whips`]' eliminations at each length.
pub fn strict_contrad_whips(state: &State, or: &Bits, n: i64) -> Bits {
    refuted(state, or, n, OrPlace::StrictLast)
}
