//! The chain search as it was before it was complete (one breadth-first
//! search per target and length, one partial chain kept per last
//! right-linking candidate and set of them, whatever its left-linking
//! candidates, as CSP-Rules keeps them): kept to show what it missed.

use super::*;
use crate::grid::bits::VarSet;
use crate::grid::segments::segment_of;
use crate::search::ConclusionKind;
use std::collections::HashSet;

#[derive(Clone)]
struct Partial {
    parent: u32,
    var: u16,
    left: u16,
    right: u16,
    rights: Bits,
    g_rights: Bits,
    lefts: Bits,
    vars: VarSet,
    t_cover: Bits,
}

fn old_evidence(
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
        als: Vec::new(),
    }
}

/// Every match of the old whole search, in order.
pub(super) fn old_search(s: &ChainSearch, cx: &mut SearchCx, state: &State) -> Vec<Found> {
    let mut out = Vec::new();
    if s.spec.length == 0 {
        return out;
    }
    for z in state.cands.iter() {
        let _ = old_search_target(s, cx, state, z, &mut |f| {
            out.push(f);
            ControlFlow::Continue(())
        });
    }
    out
}

fn old_search_target(
    s: &ChainSearch,
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
    let n = s.spec.length;
    let mut arena: Vec<Partial> = Vec::new();
    // The frontier: indices into the arena of partial chains of length k.
    let mut frontier: Vec<u32> = vec![u32::MAX];
    let mut seen: HashSet<(u16, Bits, Bits)> = HashSet::new();
    for k in 0..n {
        let last = k + 1 == n;
        let mut next: Vec<u32> = Vec::new();
        for &pi in &frontier {
            let (rights, g_rights, lefts, vars, t_cover, rlast) = if pi == u32::MAX {
                let e = Bits::EMPTY;
                (e, e, e, VarSet::EMPTY, e, None)
            } else {
                let p = &arena[pi as usize];
                let r = p.right as usize;
                (p.rights, p.g_rights, p.lefts, p.vars, p.t_cover, Some(r))
            };
            let mut ls = match (rlast, s.spec.linking) {
                (None, _) => nz,
                (Some(r), Linking::Previous) if r >= G_BASE => {
                    SEGMENTS[r - G_BASE].glinks.and(live)
                }
                (Some(r), Linking::Previous) => links(r).and(live),
                (Some(_), Linking::TargetOrAny) => nz.or(&t_cover),
            };
            ls = ls.minus(&rights);
            ls.remove(z);
            if s.spec.one_digit {
                ls = ls.and(&TABLES.digit[cand_digit(z)]);
            }
            if s.spec.linking == Linking::Previous {
                ls = ls.minus(&lefts);
            }
            let cover = s.cover(k, &nz, &t_cover);
            for l in ls.iter() {
                for v in cand_vars(l) {
                    if cx.tick() {
                        return ControlFlow::Break(());
                    }
                    if !s.space_ok(v) || vars.contains(v) {
                        continue;
                    }
                    let live_v = live.and(&TABLES.var[v]);
                    if last {
                        let Some(shown) = s
                            .ends(&live_v, l, &cover, &nz, &t_cover, &rights)
                            .and_then(|(shown, cond)| cond.holds(&lefts).then_some(shown))
                        else {
                            continue;
                        };
                        let evidence = old_evidence(&arena, pi, z, v, l, shown);
                        let mut conclusions = Bits::single(z);
                        if s.spec.all_targets {
                            for t in live.iter() {
                                if t != z && s.fits(state, t, &evidence.links) {
                                    conclusions.insert(t);
                                }
                            }
                        }
                        return f(Found {
                            kind: ConclusionKind::Eliminate,
                            conclusions,
                            grade: None,
                            evidence: Evidence::Chain(evidence),
                        });
                    }
                    let mut rest = live_v.minus(&cover);
                    rest.remove(l);
                    let (r, r_links, new_rights, new_g_rights) = match rest.len() {
                        1 => {
                            let r = rest.min().unwrap_or(0);
                            if r == z || rights.contains(r) || lefts.contains(r) || r == l {
                                continue;
                            }
                            let mut nr = rights;
                            nr.insert(r);
                            (r, links(r).and(live), nr, g_rights)
                        }
                        2.. if s.spec.groups => {
                            let Some(sg) = segment_of(v, &rest) else {
                                continue;
                            };
                            let seg = &SEGMENTS[sg];
                            if seg.cands.contains(l)
                                || seg.cands.contains(z)
                                || seg.cands.intersects(&rights)
                                || g_rights.contains(sg)
                            {
                                continue;
                            }
                            // A candidate R of the segment after the same
                            // R's is preferred to the g-candidate (as
                            // CSP-Rules keeps it).
                            let prefer_single = seg.cands.and(live).iter().any(|c| {
                                let mut nr = rights;
                                nr.insert(c);
                                seen.contains(&(c as u16, nr, g_rights))
                            });
                            if prefer_single {
                                continue;
                            }
                            let mut ng = g_rights;
                            ng.insert(sg);
                            (G_BASE + sg, seg.glinks.and(live), rights, ng)
                        }
                        _ => continue,
                    };
                    let key_last = match s.spec.linking {
                        Linking::Previous => r as u16,
                        Linking::TargetOrAny => u16::MAX,
                    };
                    if !seen.insert((key_last, new_rights, new_g_rights)) {
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
                        g_rights: new_g_rights,
                        lefts: new_lefts,
                        vars: new_vars,
                        t_cover: t_cover.or(&r_links),
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
