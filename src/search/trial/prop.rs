//! Propagation: from the assumptions in an implication graph, the pass's
//! implication steps to a fixpoint ("on" literals first), stopping at the
//! first literal inferred both on and off; with `apply SET`, whenever the
//! steps are exhausted, the first group of the set's rules with a match
//! that has parents turns each candidate it removes into a literal off,
//! and the steps go on.
//!
//! A propagation from one assumption in a trial the engine searches is
//! shared through the run's memo ([`super::memo`]) with the trials that
//! apply the same rules and more.

use super::link::{AppliedRule, PassLinks, PropKey};
use super::memo::Taken;
use super::scratch::{Buffers, Queue};
use super::steps::{Live, Stepper, parents};
use crate::grid::bits::Bits;
use crate::grid::geometry::*;
use crate::grid::state::State;
use crate::grid::tables::*;
use crate::search::implication::{self, Cause, Graph, chains_key, lit, lit_cand, lit_on};
use crate::search::{ConclusionKind, Evidence, Found, SearchCx};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::rc::Rc;

/// A match of a rule applied in a branch, with parents: the rule's place
/// in the applied set, the candidates it removes, its parents, and for a
/// nested trial's match its complexity and the key of its chains.
struct AppliedMatch {
    rule: usize,
    removed: Bits,
    parents: Bits,
    nest: Option<(usize, u64)>,
}

/// The applied rules' matches in a branch's state (after the first rules
/// given), with the search nodes they took.
type Matched = HashMap<(Bits, usize), (Rc<Vec<AppliedMatch>>, u64)>;

/// Propagation in one pass: the original state, the steps, and the rules
/// applied at stalls.
pub(super) struct Prop<'a> {
    pub(super) original: &'a State,
    /// The pass's implication steps on the original state.
    pub(super) st: Stepper,
    /// The rules applied when the steps are exhausted (`apply SET`).
    apply: Option<&'a [AppliedRule]>,
    /// The key of the propagations (see [`PropKey`]).
    key: &'a PropKey,
    /// The applied rules' matches in the branch states met so far.
    matched: RefCell<Matched>,
    /// Shares its propagations through the run's memo: a trial searched by
    /// the engine (not one applied in another's branch).
    memo: bool,
    /// Keeps its propagations in the memo: a linked trial applies rules
    /// that extend its own.
    keep: bool,
}

impl<'a> Prop<'a> {
    /// A propagation from `original` with the steps of a pass linked as
    /// `links`, applying its rules whenever its steps are exhausted; `cx`
    /// says whether the engine searches it (the memo is used then) and
    /// whether another trial of the run may take its propagations.
    pub(super) fn new(cx: &SearchCx, original: &'a State, links: &'a PassLinks) -> Prop<'a> {
        let key = &links.key;
        let memo = cx.trial.depth == 1;
        let keep = memo && cx.trial.memo.keeps(key);
        Prop {
            original,
            st: Stepper::new(&original.cands, key.steps, key.dynamic),
            apply: links.applied(),
            key,
            matched: Default::default(),
            memo,
            keep,
        }
    }

    /// Computes what the literals `roots` reach by static steps (see
    /// [`super::reach::Reach`]), for forcing chains and cycles, into `sc`;
    /// nothing when the steps are dynamic.
    pub(super) fn reach_from(
        &self,
        sc: &mut Buffers,
        roots: impl Iterator<Item = u16>,
        closures: bool,
    ) {
        if self.st.dynamic {
            return;
        }
        sc.reach.compute(&self.st, &mut sc.infer, roots, closures);
    }

    /// Propagates the graph's nodes (its assumptions) to a fixpoint, one
    /// literal at a time ("on" literals first), with buffers `sc`. Stops at
    /// the first literal inferred both on and off and returns its two nodes
    /// (on, off).
    ///
    /// A propagation from one assumption is shared, through the run's memo,
    /// with the later trials of the step that propagate from the same state
    /// with the same steps and apply the same rules, maybe followed by more
    /// groups (see [`super::memo::Memo::lookup`]): they take its graph, and
    /// its count of search nodes, instead of making it again, then go on
    /// from where it stopped with their further rules.
    pub(super) fn chain(
        &self,
        cx: &mut SearchCx,
        sc: &mut Buffers,
        g: &mut Graph,
    ) -> Option<(u32, u32)> {
        let sc = sc.emptied();
        let mut cur = self.st.orig;
        if !self.memo || g.len() != 1 {
            return self.chain_in(cx, g, sc, &mut cur, None);
        }
        let source = g.node(0).lit;
        let before = cx.nodes;
        let hit = cx
            .trial
            .memo
            .lookup(self.key, self.original, source, g, &mut cur);
        let absurd = match hit {
            Some(Taken {
                absurd,
                skip,
                nodes,
            }) => {
                if cx.charge(nodes) {
                    return None;
                }
                if absurd.is_some() || skip == self.key.sig.len() {
                    return absurd;
                }
                self.chain_in(cx, g, sc, &mut cur, Some(skip))
            }
            None => self.chain_in(cx, g, sc, &mut cur, None),
        };
        if self.keep && !cx.interrupted() {
            let nodes = cx.nodes - before;
            let memo = &mut cx.trial.memo;
            let rules = self.apply.unwrap_or_default();
            memo.record(
                self.key,
                rules,
                self.original,
                source,
                g,
                absurd,
                &cur,
                nodes,
            );
        }
        absurd
    }

    /// Propagates from the graph's nodes in `cur` (see [`Prop::chain`]).
    /// `resume`: the graph is a finished propagation whose state is `cur`,
    /// where the first `skip` applied rules have no match with parents;
    /// it goes on with the rules after them.
    fn chain_in(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        sc: &mut Buffers,
        cur: &mut Live,
        resume: Option<usize>,
    ) -> Option<(u32, u32)> {
        let Buffers {
            pend_on,
            pend_off,
            par,
            infer,
            ..
        } = sc;
        if resume.is_none() {
            for n in 0..g.len() as u32 {
                if lit_on(g.node(n).lit) {
                    pend_on.push_back(n);
                } else {
                    pend_off.push_back(n);
                }
            }
        }
        // The node of the resumed stall was counted where it was made.
        let mut skip = resume;
        loop {
            if skip.is_none() && cx.tick() {
                return None;
            }
            if let Some(p) = pend_on.pop_front() {
                let (infs, _) = self.st.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    if let Some(on) = g.get(implication::conjugate(inf.lit)) {
                        let off = g.push(inf.lit, inf.cause, &[p]);
                        return Some((on, off));
                    }
                    if !g.contains(inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            } else if let Some(p) = pend_off.pop_front() {
                let z = lit_cand(g.node(p).lit);
                let (infs, hidden) = self.st.step(g.node(p).lit, cur, infer);
                if self.st.dynamic {
                    cur.remove(z);
                }
                for inf in infs {
                    // An inference with no hidden literals has `p` as its
                    // one parent (no parent list to build).
                    let simple = inf.n_hidden == 0;
                    if !simple {
                        parents(g, p, inf, hidden, par);
                    }
                    if let Some(off) = g.get(implication::conjugate(inf.lit)) {
                        let on = if simple {
                            g.push(inf.lit, inf.cause, &[p])
                        } else {
                            g.push(inf.lit, inf.cause, par)
                        };
                        return Some((on, off));
                    }
                    if !g.contains(inf.lit) {
                        let n = if simple {
                            g.add_one(inf.lit, inf.cause, p)
                        } else {
                            g.add(inf.lit, inf.cause, par)
                        };
                        pend_on.push_back(n);
                    }
                }
            } else if !self.advanced(cx, g, &cur.cands, pend_off, skip.unwrap_or(0)) {
                return None;
            }
            skip = None;
        }
    }

    /// The applied rules' literals off in the branch `cur`, each a node
    /// whose parents are its match's parents, queued on `pend_off`: the
    /// first group of rules (equal complexity) with a match that has
    /// parents gives them all. `false` when no group has one. The first
    /// `skip` rules (whole groups) are known to have none in `cur`: they
    /// are not searched.
    fn advanced(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        cur: &Bits,
        pend_off: &mut Queue,
        skip: usize,
    ) -> bool {
        let Some(rules) = self.apply else {
            return false;
        };
        // The applied rules' matches with parents depend only on the
        // branch's state (and the original one, the pass's): a state met
        // again in another branch takes them from the pass's table.
        let key = (*cur, skip);
        let known = self.matched.borrow().get(&key).cloned();
        let hit = known.is_some();
        let (matches, nodes) = match known {
            Some(m) => m,
            None => {
                let before = cx.nodes;
                let Some(m) = self.search_applied(cx, rules, cur, skip) else {
                    return false;
                };
                let m = (Rc::new(m), cx.nodes - before);
                self.matched.borrow_mut().insert(key, m.clone());
                m
            }
        };
        if hit {
            // The searches' nodes, as counted when they were made.
            cx.charge(nodes);
        }
        let mut par: Vec<u32> = Vec::new();
        let mut any = false;
        for m in matches.iter() {
            par.clear();
            par.extend(m.parents.iter().filter_map(|p| g.get(lit(p, false))));
            // A nested trial's match adds its own complexity.
            let nest = m.nest.map(|(c, k)| g.nest(c, k));
            for z in m.removed.iter() {
                any = true;
                let l = lit(z, false);
                if !g.contains(l) {
                    let n = g.add(l, Cause::Rule, &par);
                    g.mark_rule(n, &rules[m.rule].name);
                    if let Some(k) = nest {
                        g.mark_nest(n, k);
                    }
                    pend_off.push_back(n);
                }
            }
        }
        any
    }

    /// The matches with parents of the applied rules `rules` after the first
    /// `skip` in the branch's state `cur`, a group of rules (equal
    /// complexity) at a time, up to the first group with a match that
    /// removes a candidate; `None` when the search was interrupted.
    fn search_applied(
        &self,
        cx: &mut SearchCx,
        rules: &[AppliedRule],
        cur: &Bits,
        skip: usize,
    ) -> Option<Vec<AppliedMatch>> {
        let branch = State {
            cands: *cur,
            values: self.original.values,
        };
        let mut found: Vec<Found> = Vec::new();
        let mut out = Vec::new();
        let mut any = false;
        let mut i = skip;
        while i < rules.len() && !any {
            let group = rules[i].complexity;
            while i < rules.len() && rules[i].complexity == group {
                let rule = &rules[i].searcher;
                i += 1;
                found.clear();
                // The matches' evidence gives their parents.
                let _ = cx.with_evidence(|cx| {
                    rule.search(cx, &branch, &mut |f| {
                        found.push(f);
                        ControlFlow::Continue(())
                    })
                });
                if cx.interrupted() {
                    return None;
                }
                for f in &found {
                    let parents = rule.parents(self.original, &branch, &f.evidence);
                    if parents.is_empty() {
                        continue;
                    }
                    let nest = match &f.evidence {
                        Evidence::Implications(imp) => {
                            Some((imp.complexity, chains_key(&imp.chains)))
                        }
                        _ => None,
                    };
                    let removed = match f.kind {
                        ConclusionKind::Eliminate => f.conclusions,
                        ConclusionKind::Assert => {
                            let mut r = Bits::EMPTY;
                            for z in f.conclusions.iter() {
                                r = r.or(&cur.and(&TABLES.cell[cand_cell(z)]));
                                r.remove(z);
                            }
                            r
                        }
                    };
                    any |= !removed.is_empty();
                    out.push(AppliedMatch {
                        rule: i - 1,
                        removed,
                        parents,
                        nest,
                    });
                }
            }
        }
        Some(out)
    }
}
