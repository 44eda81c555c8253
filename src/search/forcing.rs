//! Forcing whips from a disjunction (CSP-Rules' `OR_k-forcing-whips`): the
//! generic machinery behind the pattern function `forcing_whips(G, N)`.
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
//! true. Architecture Invariant: no pattern is named here; the disjunction
//! comes from the rule text.

use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::links::links;
use crate::grid::state::State;
use crate::grid::tables::*;
use std::collections::HashSet;

/// No partial whip reaches the candidate.
const NONE: u8 = u8::MAX;

/// The most partial whips kept at one depth of one guardian's search; a
/// search that would keep more stops there (deterministically: fewer
/// eliminations, never a wrong one).
pub const MAX_FRONTIER: usize = 1 << 18;

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
            let mut ls = links(*last).and(live).minus(rights);
            ls.remove(g);
            for l in ls.iter() {
                for v in cand_vars(l) {
                    let live_v = live.and(&TABLES.var[v]);
                    if live_v.len() < 2 {
                        continue;
                    }
                    let mut rest = live_v.minus(cover);
                    rest.remove(l);
                    if rest.len() != 1 {
                        continue;
                    }
                    let Some(r) = rest.min() else {
                        continue;
                    };
                    if r == g || rights.contains(r) {
                        continue;
                    }
                    if depth[r] == NONE {
                        depth[r] = (k + 1) as u8;
                    }
                    if k + 1 == max || next.len() >= MAX_FRONTIER {
                        continue;
                    }
                    let mut nr = *rights;
                    nr.insert(r);
                    if seen.insert((r, nr)) {
                        next.push((r, nr, cover.or(&links(r).and(live))));
                    }
                }
            }
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
