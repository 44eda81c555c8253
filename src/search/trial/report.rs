//! Reporting a match: its conclusion, its grade, and its evidence, the
//! chains of its implications. Evidence is extracted only for the matches
//! reported: a match keeps how it was found ([`Recipe`]: the pass and what
//! was assumed) and its propagation is made again, which gives the same
//! graph (propagation is deterministic). A match found with its chains
//! already ([`Hint::chains`]: a trial applied in another's branches keeps
//! them) is reported with those.

use super::collect::{Hint, Recipe};
use super::link::PassLinks;
use super::prop::Prop;
use super::scratch::Buffers;
use super::set_pass;
use super::spec::TrialSpec;
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::*;
use crate::grid::state::State;
use crate::grid::tables::*;
use crate::search::implication::{Cause, Chain, Graph, Implications, lit};
use crate::search::{ConclusionKind, Evidence, Found, Grade, SearchCx};
use std::ops::ControlFlow;

/// Reports match `h` of a search of `spec` (linked as `links`) on `state`
/// to `f`, unless an earlier one (its removals in `seen`) removed the same
/// candidates. With [`SearchCx::outcome_only`], the match's chains are not
/// found again: its evidence holds none.
pub(super) fn report(
    cx: &mut SearchCx,
    (spec, links): (&TrialSpec, &[PassLinks]),
    state: &State,
    h: Hint,
    seen: &mut Vec<Bits>,
    f: &mut dyn FnMut(Found) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if seen.contains(&h.removable) {
        return ControlFlow::Continue(());
    }
    seen.push(h.removable);
    let (kind, conclusions) = match h.placed {
        Some(z) => (ConclusionKind::Assert, Bits::single(z)),
        None => (ConclusionKind::Eliminate, h.removable),
    };
    let (chains, empty) = if cx.outcome_only {
        (Vec::new(), Vec::new())
    } else if let Some(chains) = h.chains {
        (chains, Vec::new())
    } else {
        replay(cx, (spec, links), state, h.recipe)
    };
    let region = match h.recipe {
        Recipe::Region { house, .. } => Some(house),
        _ => None,
    };
    let evidence = Implications {
        conclusion: h.mode.word(),
        chains,
        complexity: h.complexity,
        empty,
        region,
    };
    f(Found {
        kind,
        conclusions,
        grade: Some(Grade {
            complexity: spec.complexity,
            level: h.level,
            label: h.label.unwrap_or_else(|| spec.label.clone()),
        }),
        evidence: Evidence::Implications(evidence),
    })
}

/// The chains of a match found by `recipe`, and for each chain the CSP
/// variables its branch left without a candidate (a branch of a linked
/// set), found again by replaying its propagation. The replay has no
/// deadline (it is bounded) and counts of its own; it borrows the run's
/// trial scratch from `cx`, so that it reads the memo and nests as the
/// search did.
fn replay(
    cx: &mut SearchCx,
    on: (&TrialSpec, &[PassLinks]),
    state: &State,
    recipe: Recipe,
) -> (Vec<Chain>, Vec<Vec<usize>>) {
    let mut rcx = SearchCx::new(None);
    rcx.trial = std::mem::take(&mut cx.trial);
    let out = replay_in(&mut rcx, on, state, recipe);
    cx.trial = rcx.trial;
    out
}

fn replay_in(
    cx: &mut SearchCx,
    (spec, links): (&TrialSpec, &[PassLinks]),
    state: &State,
    recipe: Recipe,
) -> (Vec<Chain>, Vec<Vec<usize>>) {
    let set = |p: usize| {
        let set = links[p].set()?;
        let (_, rounds) = spec.passes[p].propagate.as_ref()?;
        Some((set, *rounds))
    };
    let chains = match recipe {
        Recipe::Set { pass, z, on } => {
            return match set(pass) {
                Some(set) => {
                    let (chain, empty) =
                        set_pass::replay_branch(cx, set, &Board::new(state), z, on);
                    (vec![chain], vec![empty])
                }
                None => (Vec::new(), Vec::new()),
            };
        }
        Recipe::Sweep { pass, refuted } => {
            let mut current = Board::new(state);
            let mut out = (Vec::new(), Vec::new());
            for z in refuted.iter() {
                if let Some(set) = set(pass) {
                    let (chain, empty) = set_pass::replay_branch(cx, set, &current, z, true);
                    out.0.push(chain);
                    out.1.push(empty);
                }
                current.eliminate(z);
            }
            return out;
        }
        _ => {
            let mut sc = cx.trial.buffers();
            let chains = replay_steps(cx, &mut sc, links, state, recipe);
            cx.trial.give_buffers(sc);
            chains
        }
    };
    (chains, Vec::new())
}

/// The chains of a match of an implication pass (see [`replay`]), with
/// buffers `sc`.
fn replay_steps(
    cx: &mut SearchCx,
    sc: &mut Buffers,
    links: &[PassLinks],
    state: &State,
    recipe: Recipe,
) -> Vec<Chain> {
    // A propagation of pass `p`, its buffers made ready for it.
    let prop = |cx: &SearchCx, sc: &mut Buffers, p: usize| {
        let prop = Prop::new(cx, state, &links[p]);
        sc.ready_for(&prop.st);
        prop
    };
    let from = |cx: &mut SearchCx, sc: &mut Buffers, p: usize, l: u16| {
        let mut g = Graph::new();
        g.add(l, Cause::Assumption, &[]);
        let r = prop(cx, sc, p).chain(cx, sc, &mut g);
        (g, r)
    };
    let at = |g: &Graph, l: u16| g.extract(g.get(l).unwrap_or(0));
    match recipe {
        Recipe::Set { .. } | Recipe::Sweep { .. } => Vec::new(),
        Recipe::Cycle { pass, z, nth } => {
            let mut g = Graph::new();
            let found = prop(cx, sc, pass).st.cycles(cx, sc, &mut g, z);
            found
                .get(nth)
                .map(|&d| vec![g.extract(d)])
                .unwrap_or_default()
        }
        Recipe::Forcing { pass, source } => {
            let mut g = Graph::new();
            prop(cx, sc, pass)
                .st
                .forcing(cx, sc, &mut g, source, None)
                .map(|t| vec![g.extract(t)])
                .unwrap_or_default()
        }
        Recipe::Contra { pass, source } => match from(cx, sc, pass, source) {
            (g, Some((a, b))) => vec![g.extract(a), g.extract(b)],
            _ => Vec::new(),
        },
        Recipe::Double { pass, z, target } => {
            let (g_on, _) = from(cx, sc, pass, lit(z, true));
            let (g_off, _) = from(cx, sc, pass, lit(z, false));
            vec![at(&g_on, target), at(&g_off, target)]
        }
        Recipe::Cell { pass, cell, target } => {
            let live = state.cands.and(&TABLES.cell[cell]);
            live.iter()
                .map(|y| at(&from(cx, sc, pass, lit(y, true)).0, target))
                .collect()
        }
        Recipe::Region {
            pass,
            z,
            house,
            target,
        } => {
            let d = cand_digit(z);
            house_cells(house)
                .into_iter()
                .map(|o| cand(o, d))
                .filter(|&y| state.cands.contains(y))
                .map(|y| at(&from(cx, sc, pass, lit(y, true)).0, target))
                .collect()
        }
    }
}
