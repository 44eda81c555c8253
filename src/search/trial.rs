//! Trial searches: assume a literal, propagate, conclude.
//!
//! A trial rule (the `trial` kind of the language) is one or more
//! *passes*. A pass says, and the rule file chooses:
//!
//! - which candidates are assumed: those of cells holding between
//!   `min_cell` and `max_cell` live candidates, in cell order, each
//!   assumed on, off, or both ([`Pass::assume_on`], [`Pass::assume_off`]);
//! - which implication steps propagate an assumption ([`Steps`]): "on ⇒
//!   off" by the cell's or the houses' constraint (the other candidates
//!   of the cell, the other places of the digit in its houses), "off ⇒
//!   on" by the cell (a cell left with two candidates) or a house (a
//!   digit left with two places);
//! - what those steps read ([`Reads`]): the original state (static
//!   chains: "off ⇒ on" needs two candidates in the original grid) or the
//!   branch's state, where every literal inferred off is gone (dynamic
//!   chains: a step then also depends on the candidates already gone, and
//!   records them as parents);
//! - what concludes ([`Mode`]), each with its rating base, its sort key
//!   and its label: a *cycle* through the assumption, a *forcing* chain (the
//!   assumption implies its own negation), a *contradiction* (a literal
//!   inferred both on and off), a *double* implication (both values of a
//!   candidate imply one literal), or what every candidate of a *cell*, or
//!   every place of a digit in a *region* (house), implies.
//!
//! Propagation records an implication graph ([`super::implication`]); the
//! complexity of a conclusion is the number of distinct literals among its
//! chains' ancestors, summed over the chains, and its difficulty is the
//! conclusion's base plus the rule's length increment ([`Increment`]).
//! The matches of all passes are collected, sorted by difficulty, then
//! complexity, then key (a stable sort: ties keep the order in which they
//! were found), matches with the same eliminations kept once, and reported
//! in that order, which is Sudoku Explainer's.
//!
//! The order in which one pass finds its matches is fixed: for each cell,
//! for each candidate: cycles and forcing chains from the candidate on,
//! forcing chains from it off; its contradictions (on, then off) and its
//! double implications (on, then off); its regions (block, row, column:
//! each house where it is the digit's first place); then, after its last
//! candidate, the cell's conclusions (literals on, then off).
//!
//! Architecture Invariant: no technique is named here. A technique is a
//! combination of these fields, chosen by a rule file.

use super::branch::{Lanes, Prepared};
use super::implication::{
    self, Cause, Chain, Graph, Implications, SavedGraph, chains_key, lit, lit_cand, lit_on,
};
use super::{ConclusionKind, Evidence, Found, Grade, SearchCx, Searcher};
use crate::grid::bits::{Bits, LitSet};
use crate::grid::geometry::*;
use crate::grid::state::{State, cell_mask, cell_masks};
use crate::rating::Rating;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::{Arc, OnceLock};

/// The implication steps a pass propagates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Steps {
    /// On ⇒ off: the cell's other candidates.
    pub on_off_cell: bool,
    /// On ⇒ off: the digit's other places in the candidate's houses.
    pub on_off_house: bool,
    /// Off ⇒ on: the other candidate of a cell left with two.
    pub off_on_cell: bool,
    /// Off ⇒ on: the other place of a digit left with two in a house.
    pub off_on_house: bool,
}

/// What the implication steps read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// The state the search was given (static chains).
    Original,
    /// The branch's state: literals inferred off are gone (dynamic chains).
    Branch,
}

/// What a conclusion looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A cycle back to the assumed-on candidate; eliminates candidates that
    /// see both an on and an off literal of the cycle, for one digit.
    Cycle,
    /// The assumption implies its negation: it is false.
    Forcing,
    /// The assumption implies a literal and its negation: it is false.
    Contradiction,
    /// A candidate on and the same candidate off imply the same literal.
    Double,
    /// Every candidate of a cell implies the same literal.
    Cell,
    /// Every place of a digit in a house implies the same literal.
    Region,
}

impl Mode {
    /// The word of the `conclude` clause.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Cycle => "cycle",
            Mode::Forcing => "forcing",
            Mode::Contradiction => "contradiction",
            Mode::Double => "double",
            Mode::Cell => "cell",
            Mode::Region => "region",
        }
    }

    pub const ALL: [Mode; 6] = [
        Mode::Cycle,
        Mode::Forcing,
        Mode::Contradiction,
        Mode::Double,
        Mode::Cell,
        Mode::Region,
    ];
}

/// One `conclude` clause of a pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Conclude {
    pub mode: Mode,
    /// The difficulty before the length increment.
    pub level: Rating,
    /// Sort key among matches of equal difficulty and complexity.
    pub key: i64,
    /// The rating label of its matches (the rule's when `None`).
    pub label: Option<String>,
    /// Only from cells holding at least this many candidates.
    pub min_cell: usize,
}

/// How a match's difficulty grows with its complexity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Increment {
    /// The base only.
    None,
    /// Sudoku Explainer's: with `length = complexity − 2` and a ceiling
    /// starting at 4, add 0.1 while the length exceeds the ceiling, the
    /// ceiling growing alternately ×3/2 and ×4/3 (4, 6, 8, 12, 16, 24, …).
    SeLength,
}

impl Increment {
    /// The increment in tenths and as SE adds it (a sum of `0.1`s in
    /// double precision, which SE's sort compares).
    pub fn of(self, complexity: usize) -> (i64, f64) {
        match self {
            Increment::None => (0, 0.0),
            Increment::SeLength => {
                let length = complexity as i64 - 2;
                let (mut ceil, mut odd, mut n, mut added) = (4i64, false, 0i64, 0.0f64);
                while length > ceil {
                    added += 0.1;
                    n += 1;
                    ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
                    odd = !odd;
                }
                (n, added)
            }
        }
    }
}

/// One pass of a trial rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub min_cell: usize,
    pub max_cell: usize,
    pub assume_on: bool,
    pub assume_off: bool,
    pub steps: Steps,
    pub reads: Reads,
    /// `propagate with SET [rounds N]`: instead of implication steps, the
    /// rule set linked under that name runs in each branch, to its
    /// fixpoint (one match at a time, as the engine runs a set) or for N
    /// rounds (each applying every match found on the round's state).
    pub propagate: Option<(String, Option<usize>)>,
    /// `apply SET`: whenever the implication steps of a branch are
    /// exhausted, the rules of the set linked under that name are searched
    /// on the branch's state, a group of rules of equal complexity at a
    /// time; the first group with a match that has parents
    /// ([`Searcher::parents`]) wins, and each candidate its matches remove
    /// becomes a literal off whose parents are the match's parents.
    pub apply: Option<String>,
    /// `sweep`: the pass finds one match, every assumption refuted while
    /// the candidates are tried in order, each refuted candidate removed
    /// from the state before the next assumption (Mike Metcalf's loop).
    /// Only with `propagate with`, `assume on` alone, and as the rule's
    /// only pass.
    pub sweep: bool,
    pub concludes: Vec<Conclude>,
}

impl Pass {
    fn wants(&self, m: Mode) -> Option<&Conclude> {
        self.concludes.iter().find(|c| c.mode == m)
    }
}

/// The configuration of a trial search: its passes and its increment.
#[derive(Clone, Debug, PartialEq)]
pub struct TrialSpec {
    pub passes: Vec<Pass>,
    pub increment: Increment,
    /// The rule head's complexity (the grade's ordering key).
    pub complexity: i64,
    /// The rule's rating label (or name), for conclusions without one.
    pub label: String,
}

/// The searchers of a linked rule set, in the set's order.
pub type Linked = Vec<Arc<dyn Searcher>>;

/// The rules a pass applies between implication rounds (`apply SET`), in
/// the set's order.
pub type Applied = Vec<AppliedRule>;

/// One rule a pass applies in its branches.
#[derive(Clone, Debug)]
pub struct AppliedRule {
    /// Rules of equal complexity form one group.
    pub complexity: i64,
    /// The rule's name, shown beside the literals its matches conclude.
    pub name: Arc<str>,
    pub searcher: Arc<dyn Searcher>,
}

/// The search a trial rule compiles to.
#[derive(Debug)]
pub struct TrialSearch {
    pub spec: TrialSpec,
    /// Per pass: the rule set its `propagate with` names, once linked.
    linked: Vec<OnceLock<Linked>>,
    /// Per pass: the linked set prepared for the branch runner.
    prepared: Vec<OnceLock<Prepared>>,
    /// Per pass: the rule set its `apply` names, once linked.
    applied: Vec<OnceLock<Applied>>,
}

impl TrialSearch {
    pub fn new(spec: TrialSpec) -> TrialSearch {
        let linked = spec.passes.iter().map(|_| OnceLock::new()).collect();
        let prepared = spec.passes.iter().map(|_| OnceLock::new()).collect();
        let applied = spec.passes.iter().map(|_| OnceLock::new()).collect();
        TrialSearch {
            spec,
            linked,
            prepared,
            applied,
        }
    }

    /// The rule sets to apply between implication rounds: (pass index, set
    /// name as written).
    pub fn apply_links(&self) -> Vec<(usize, String)> {
        self.spec
            .passes
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.apply.as_ref().map(|n| (i, n.clone())))
            .collect()
    }

    /// Gives pass `pass` the rules its `apply` names (the loader calls this
    /// once). A pass whose set is not linked applies nothing.
    pub fn set_apply_link(&self, pass: usize, rules: Applied) {
        if let (Some(l), Some(p)) = (self.applied.get(pass), self.spec.passes.get(pass)) {
            let config = (p.steps, p.reads == Reads::Branch, signature(&rules));
            let mut known = EXTENDERS.lock().unwrap_or_else(|e| e.into_inner());
            if !known.contains(&config) {
                known.push(config);
            }
            let _ = l.set(rules);
        }
    }

    /// The rules pass `pass` applies, once linked.
    fn applied(&self, pass: usize) -> Option<&[AppliedRule]> {
        self.applied.get(pass)?.get().map(|v| v.as_slice())
    }

    /// The rule sets to link: (pass index, set name as written).
    pub fn links(&self) -> Vec<(usize, String)> {
        self.spec
            .passes
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.propagate.as_ref().map(|(n, _)| (i, n.clone())))
            .collect()
    }

    /// Gives pass `pass` its linked set (the loader calls this once, see
    /// `ruleset::Library`). A pass whose set is not linked finds nothing.
    pub fn set_link(&self, pass: usize, searchers: Linked) {
        if let (Some(l), Some(p)) = (self.linked.get(pass), self.prepared.get(pass)) {
            let _ = p.set(Prepared::new(&searchers));
            let _ = l.set(searchers);
        }
    }

    /// A pass that propagates with a linked rule set: each candidate of the
    /// chosen cells assumed on (off), the set run in the branch by the
    /// branch runner ([`super::branch`]); a branch where some CSP variable
    /// has no candidate left refutes its assumption. The match's
    /// complexity is the assumption and the literals the set concluded.
    ///
    /// `best_only`: collect only the pass's first match in report order
    /// (least complexity, then the first found), pruning every branch that
    /// cannot beat the best so far (see [`TrialSearch::first_match_pass`]).
    #[allow(clippy::too_many_arguments)]
    fn run_set_pass(
        &self,
        cx: &mut SearchCx,
        pi: usize,
        pass: &Pass,
        set: &Prepared,
        rounds: Option<usize>,
        col: &mut Collector,
        best_only: bool,
    ) {
        let state = col.state;
        let Some(cc) = pass.wants(Mode::Contradiction) else {
            return;
        };
        // The assumptions, in order: cell by cell, candidate by candidate.
        let mut assumptions = Vec::new();
        for c in 0..N_CELLS {
            let live = state.cands.and(&TABLES.cell[c]);
            let n = live.len();
            if n < pass.min_cell.max(1) || n > pass.max_cell || n < cc.min_cell {
                continue;
            }
            for z in live.iter() {
                for (on, wanted) in [(true, pass.assume_on), (false, pass.assume_off)] {
                    if wanted {
                        assumptions.push((z, on));
                    }
                }
            }
        }
        let base = Lanes::new(state);
        let mut found = Vec::new();
        let mut branch = |cx: &mut SearchCx, (z, on): (usize, bool), limit: Option<usize>| {
            let mut branch = base;
            if on {
                branch.assert(z);
            } else {
                branch.eliminate(z);
            }
            set.run(cx, rounds, &mut branch, &mut found, limit, None)
        };
        let add = |col: &mut Collector, (z, on): (usize, bool), complexity: usize| {
            col.add(cc, lit(z, !on), complexity, Recipe::Set { pass: pi, z, on });
        };
        if !best_only {
            for &a in &assumptions {
                if cx.interrupted() {
                    return;
                }
                if let Some(n) = branch(cx, a, None) {
                    add(col, a, 1 + n);
                }
            }
            return;
        }
        // The least complexity there is, 1, is an assumption contradicted
        // by itself: when there is one, the first is the match.
        for &a in &assumptions {
            if cx.interrupted() {
                return;
            }
            if branch(cx, a, Some(0)).is_some() {
                return add(col, a, 1);
            }
        }
        // Then every branch concludes a literal at least; one of complexity
        // 1 + n beats the best so far, b, when n <= b - 2.
        let mut best: Option<(usize, (usize, bool))> = None;
        for &a in &assumptions {
            if cx.interrupted() {
                return;
            }
            let limit = match best {
                Some((b, _)) if b <= 2 => break,
                Some((b, _)) => Some(b - 2),
                None => None,
            };
            if let Some(n) = branch(cx, a, limit) {
                best = Some((1 + n, a));
            }
        }
        if let Some((k, a)) = best {
            add(col, a, k);
        }
    }

    /// The pass whose first match in report order can be found alone, by
    /// a pruned sweep: the rule's only pass, propagating with a set and
    /// concluding on contradictions only. Its matches are sorted by
    /// rating, then complexity (the key is one), and the rating grows
    /// with the complexity, so the first is the least complex, the first
    /// found among equals.
    fn first_match_pass(&self) -> Option<&Prepared> {
        let [pass] = self.spec.passes.as_slice() else {
            return None;
        };
        let [c] = pass.concludes.as_slice() else {
            return None;
        };
        if c.mode != Mode::Contradiction || pass.propagate.is_none() {
            return None;
        }
        self.prepared[0].get()
    }
}

impl TrialSearch {
    /// The rule's sweep pass (`sweep`, its only pass), with its set and rounds.
    fn sweep_pass(&self) -> Option<(&Prepared, Option<usize>)> {
        let [pass] = self.spec.passes.as_slice() else {
            return None;
        };
        if !pass.sweep {
            return None;
        }
        let rounds = pass.propagate.as_ref().and_then(|p| p.1);
        Some((self.prepared[0].get()?, rounds))
    }

    /// A sweep: each live candidate of the chosen cells, in order (cell by
    /// cell, candidate by candidate), assumed on in the current state and
    /// the set run in the branch; a contradicted branch removes its
    /// candidate from the current state before the next assumption.
    /// Returns the removed candidates and the greatest complexity among
    /// their branches (`None` when nothing was refuted).
    fn run_sweep(
        &self,
        cx: &mut SearchCx,
        set: &Prepared,
        rounds: Option<usize>,
        state: &State,
    ) -> Option<(Bits, usize)> {
        let pass = &self.spec.passes[0];
        let min_cell = pass
            .min_cell
            .max(1)
            .max(pass.wants(Mode::Contradiction)?.min_cell);
        let mut current = Lanes::new(state);
        let mut found = Vec::new();
        let (mut refuted, mut complexity) = (Bits::EMPTY, 0);
        for c in 0..N_CELLS {
            let mut digits = cell_mask(&state.cands, c);
            while digits != 0 {
                let z = cand(c, digits.trailing_zeros() as usize);
                digits &= digits - 1;
                if cx.interrupted() || current.has_empty_var() {
                    break;
                }
                let n = cell_mask(&current.state.cands, c).count_ones() as usize;
                if n < min_cell || n > pass.max_cell || !current.state.cands.contains(z) {
                    continue;
                }
                let mut branch = current;
                branch.assert(z);
                if let Some(k) = set.run(cx, rounds, &mut branch, &mut found, None, None) {
                    refuted.insert(z);
                    complexity = complexity.max(1 + k);
                    current.eliminate(z);
                }
            }
        }
        (!refuted.is_empty() && !cx.interrupted()).then_some((refuted, complexity))
    }

    /// Reports one match, unless an earlier one removed the same candidates.
    /// With `outcome_only`, the match's chains are not found again: its
    /// evidence holds none.
    fn report(
        &self,
        outcome_only: bool,
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
        let (chains, empty) = if outcome_only {
            (Vec::new(), Vec::new())
        } else if let Some(chains) = h.chains {
            (chains, Vec::new())
        } else {
            self.replay(state, h.recipe)
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
                complexity: self.spec.complexity,
                level: h.level,
                label: h.label.unwrap_or_else(|| self.spec.label.clone()),
            }),
            evidence: Evidence::Implications(evidence),
        })
    }

    /// The chains of a match, found again by replaying its propagation
    /// (deterministic, so the same graph; no deadline: it is bounded).
    /// A branch of pass `pass`'s linked set from `z` on (off) in `base`,
    /// replayed: its chain (the assumption, then each literal the set
    /// concluded, each after the one before) and the CSP variables it left
    /// without a candidate.
    fn set_branch(
        &self,
        base: &Lanes,
        pass: usize,
        z: usize,
        on: bool,
    ) -> Option<(Chain, Vec<usize>)> {
        let set = self.prepared[pass].get()?;
        let (_, rounds) = self.spec.passes[pass].propagate.as_ref()?;
        let mut branch = *base;
        if on {
            branch.assert(z);
        } else {
            branch.eliminate(z);
        }
        let mut trace = Vec::new();
        let mut cx = SearchCx::new(None);
        set.run(
            &mut cx,
            *rounds,
            &mut branch,
            &mut Vec::new(),
            None,
            Some(&mut trace),
        );
        let mut g = Graph::new();
        let mut last = g.add(lit(z, on), Cause::Assumption, &[]);
        for l in trace {
            last = g.add(l, Cause::Rule, &[last]);
        }
        Some((g.extract(last), branch.empty_vars()))
    }

    /// The chains of a match, and for each chain the CSP variables its
    /// branch left without a candidate (a branch of a linked set).
    fn replay(&self, state: &State, recipe: Recipe) -> (Vec<Chain>, Vec<Vec<usize>>) {
        let mut cx = SearchCx::new(None);
        let cx = &mut cx;
        let pass_of = |p: usize| &self.spec.passes[p];
        let prop = |p: usize| {
            let pass = pass_of(p);
            Prop::new(state, pass.steps, pass.reads == Reads::Branch).applying(self.applied(p))
        };
        let from = |cx: &mut SearchCx, p: usize, l: u16| {
            let mut g = Graph::new();
            g.add(l, Cause::Assumption, &[]);
            let r = prop(p).chain(cx, &mut g);
            (g, r)
        };
        let at = |g: &Graph, l: u16| g.extract(g.get(l).unwrap_or(0));
        let chains = match recipe {
            Recipe::Set { pass, z, on } => {
                return match self.set_branch(&Lanes::new(state), pass, z, on) {
                    Some((chain, empty)) => (vec![chain], vec![empty]),
                    None => (Vec::new(), Vec::new()),
                };
            }
            Recipe::Sweep { pass, refuted } => {
                let mut current = Lanes::new(state);
                let mut out = (Vec::new(), Vec::new());
                for z in refuted.iter() {
                    if let Some((chain, empty)) = self.set_branch(&current, pass, z, true) {
                        out.0.push(chain);
                        out.1.push(empty);
                    }
                    current.eliminate(z);
                }
                return out;
            }
            Recipe::Cycle { pass, z, nth } => {
                let mut g = Graph::new();
                let found = prop(pass).cycles(cx, &mut g, z);
                found
                    .get(nth)
                    .map(|&d| vec![g.extract(d)])
                    .unwrap_or_default()
            }
            Recipe::Forcing { pass, source } => {
                let mut g = Graph::new();
                prop(pass)
                    .forcing(cx, &mut g, source, None)
                    .map(|t| vec![g.extract(t)])
                    .unwrap_or_default()
            }
            Recipe::Contra { pass, source } => match from(cx, pass, source) {
                (g, Some((a, b))) => vec![g.extract(a), g.extract(b)],
                _ => Vec::new(),
            },
            Recipe::Double { pass, z, target } => {
                let (g_on, _) = from(cx, pass, lit(z, true));
                let (g_off, _) = from(cx, pass, lit(z, false));
                vec![at(&g_on, target), at(&g_off, target)]
            }
            Recipe::Cell { pass, cell, target } => {
                let live = state.cands.and(&TABLES.cell[cell]);
                live.iter()
                    .map(|y| at(&from(cx, pass, lit(y, true)).0, target))
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
                    .map(|y| at(&from(cx, pass, lit(y, true)).0, target))
                    .collect()
            }
        };
        (chains, Vec::new())
    }
}

/// A match before sorting.
struct Hint {
    difficulty: f64,
    complexity: usize,
    key: i64,
    /// SE's removable candidates: what the match takes away.
    removable: Bits,
    /// A placement (an "on" result): its candidate.
    placed: Option<usize>,
    level: Rating,
    label: Option<String>,
    mode: Mode,
    /// How to find the match's chains again (evidence is extracted only
    /// for the matches reported).
    recipe: Recipe,
    /// The match's chains, extracted when it was found (see
    /// [`Collector::keep_chains`]); `None`: replayed from `recipe` if the
    /// match is reported.
    chains: Option<Vec<Chain>>,
}

/// Where a match came from, to replay its propagation when it is
/// reported: the pass, and what was assumed.
#[derive(Clone, Copy, Debug)]
enum Recipe {
    /// A branch of a linked rule set from candidate `z` on (off).
    Set { pass: usize, z: usize, on: bool },
    /// A sweep's branches: each refuted candidate on, in order, each in the
    /// state without the ones before it.
    Sweep { pass: usize, refuted: Bits },
    /// The `nth` cycle from `z` on.
    Cycle { pass: usize, z: usize, nth: usize },
    /// The forcing chain from literal `source`.
    Forcing { pass: usize, source: u16 },
    /// The contradiction from literal `source`.
    Contra { pass: usize, source: u16 },
    /// `target` from `z` on and from `z` off.
    Double { pass: usize, z: usize, target: u16 },
    /// `target` from every candidate of `cell` on.
    Cell {
        pass: usize,
        cell: usize,
        target: u16,
    },
    /// `target` from every place of `z`'s digit in `house`, `z` first.
    Region {
        pass: usize,
        z: usize,
        house: usize,
        target: u16,
    },
}

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
type Matched = std::collections::HashMap<(Bits, usize), (Rc<Vec<AppliedMatch>>, u64)>;

/// Propagation in one pass: the original state and the steps.
struct Prop<'a> {
    original: &'a State,
    /// The original state's live candidates.
    orig: Live,
    steps: Steps,
    dynamic: bool,
    /// The rules applied when the steps are exhausted (`apply SET`).
    apply: Option<&'a [AppliedRule]>,
    /// The applied rules' signature (see [`MemoTable::sig`]).
    sig: Vec<(usize, i64)>,
    /// The applied rules' matches in the branch states met so far.
    matched: std::cell::RefCell<Matched>,
    /// Shares its propagations through the thread's [`MEMO`]: a trial
    /// searched by the engine (not one applied in another's branch).
    memo: bool,
    /// Keeps its propagations in the [`MEMO`]: a linked trial applies
    /// rules that extend its own.
    keep: bool,
    /// Queues, buffers and the static steps' inferences, kept between the
    /// propagations of one pass (one per candidate) and, through the
    /// thread's [`SCRATCHES`], between passes and searches (boxed: moved
    /// in and out of the pool).
    scratch: std::cell::RefCell<Option<Box<Scratch>>>,
}

thread_local! {
    /// The buffers of finished propagations, reused by the next ones (a
    /// trial applied in another's branches makes thousands a step). Boxed:
    /// a propagation takes one and gives it back by moving a pointer, not
    /// the kilobyte of its sets and queue heads.
    #[allow(clippy::vec_box)]
    static SCRATCHES: std::cell::RefCell<Vec<Box<Scratch>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Prop<'_> {
    fn drop(&mut self) {
        if let Some(sc) = self.scratch.get_mut().take() {
            SCRATCHES.with(|p| p.borrow_mut().push(sc));
        }
    }
}

thread_local! {
    /// How many trial searches are under way on this thread: 1 in a trial
    /// the engine searches, more in one applied in another's branches.
    static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };

    /// The propagations of the engine's trial searches in the current
    /// state (see [`Prop::chain`]).
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

/// A trial search under way ([`DEPTH`]), however it ends.
struct DepthGuard;

impl DepthGuard {
    fn enter() -> DepthGuard {
        DEPTH.with(|d| d.set(d.get() + 1));
        DepthGuard
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// Propagations shared between the trial rules the engine searches in one
/// state. A dynamic trial that applies rule groups R, and one that
/// propagates with the same steps and applies R followed by more groups,
/// make the same propagation from an assumption until the first one stops:
/// at each stall both search R's groups first, in the same state, and
/// only when none has a match with parents does the second one go on to
/// its further groups. So the second takes the first's graph and goes on
/// from its last stall (a rule set applied in branches that begins with
/// another such set, whole groups, shares the first level of its chains
/// this way); a trial applying no rules is the prefix of every trial with
/// the same steps. The second also takes the search nodes the first
/// counted, so that statistics are those of making the graph again.
#[derive(Default)]
struct Memo {
    /// The state the tables hold propagations of.
    state: Option<State>,
    tables: Vec<MemoTable>,
    /// Propagations taken from a trial with fewer rules, and continued.
    resumed: u64,
}

/// The propagations of the trials with one configuration.
struct MemoTable {
    steps: Steps,
    dynamic: bool,
    /// The applied rules, in order: each one's searcher (its address: the
    /// linker gives a rule file's rules to every set that includes it) and
    /// its complexity (which groups it).
    sig: Vec<(usize, i64)>,
    /// Per literal: its propagation's place in `chains`, plus one (0: none).
    at: Vec<u32>,
    chains: Vec<MemoChain>,
    /// The entries of `chains` in use (the others keep their memory).
    used: usize,
    /// The applied rules' searchers, held so that no other searcher (of a
    /// rule set loaded later) takes the address `sig` names them by while
    /// the table lives.
    #[allow(dead_code)]
    searchers: Vec<Arc<dyn Searcher>>,
}

/// A propagation taken from the memo ([`Memo::lookup`]).
struct Taken {
    /// Its contradiction, if it found one.
    absurd: Option<(u32, u32)>,
    /// The applied rules it searched, without a match with parents at its
    /// last stall.
    skip: usize,
    /// The search nodes it counted.
    nodes: u64,
}

/// One finished propagation from an assumption.
struct MemoChain {
    graph: SavedGraph,
    /// Its contradiction, if it found one.
    absurd: Option<(u32, u32)>,
    /// The branch's state where it stopped.
    cur: Live,
    /// The search nodes it counted.
    nodes: u64,
}

impl MemoTable {
    /// Does a propagation of this table's trials make the same graph as
    /// `p`'s until it stops (`p`'s rules begin with this table's, a whole
    /// number of groups)?
    fn prefix_of(&self, p: &Prop) -> bool {
        self.steps == p.steps && self.dynamic == p.dynamic && begins_with(&p.sig, &self.sig)
    }
}

/// Does signature `long` begin with `short`, a whole number of groups?
fn begins_with(long: &[(usize, i64)], short: &[(usize, i64)]) -> bool {
    let k = short.len();
    long.len() >= k
        && long[..k] == *short
        && (k == 0 || k == long.len() || long[k].1 != long[k - 1].1)
}

/// The signature of applied rules (see [`MemoTable::sig`]).
fn signature(rules: &[AppliedRule]) -> Vec<(usize, i64)> {
    rules
        .iter()
        .map(|r| (Arc::as_ptr(&r.searcher) as *const () as usize, r.complexity))
        .collect()
}

/// The configurations of the linked passes that apply rules: their steps,
/// whether they read the branch, and their rules' signature. A
/// propagation is kept in the [`MEMO`] only when one of them extends its
/// own (another trial may take it).
static EXTENDERS: std::sync::Mutex<Vec<Config>> = std::sync::Mutex::new(Vec::new());

/// A pass's steps, whether it reads the branch, and its applied rules'
/// signature.
type Config = (Steps, bool, Vec<(usize, i64)>);

impl Memo {
    /// The propagation from `source` that `p` can start from, the longest
    /// made by a trial whose rules `p`'s extend: copied into `g`, its state
    /// into `cur`; returns its contradiction, the number of `p`'s rules it
    /// searched (without a match with parents at its last stall) and the
    /// search nodes it counted.
    fn lookup(&mut self, p: &Prop, source: u16, g: &mut Graph, cur: &mut Live) -> Option<Taken> {
        if self.state.as_ref() != Some(p.original) {
            return None;
        }
        let (t, i) = self
            .tables
            .iter()
            .filter(|t| t.prefix_of(p))
            .filter_map(|t| match t.at[usize::from(source)] {
                0 => None,
                i => Some((t, i as usize - 1)),
            })
            .max_by_key(|(t, _)| t.sig.len())?;
        let m = &t.chains[i];
        g.restore(&m.graph);
        *cur = m.cur;
        let found = Taken {
            absurd: m.absurd,
            skip: t.sig.len(),
            nodes: m.nodes,
        };
        if found.absurd.is_none() && found.skip < p.sig.len() {
            self.resumed += 1;
        }
        Some(found)
    }

    /// Keeps `p`'s finished propagation from `source`.
    fn record(
        &mut self,
        p: &Prop,
        source: u16,
        g: &Graph,
        absurd: Option<(u32, u32)>,
        cur: &Live,
        nodes: u64,
    ) {
        if self.state.as_ref() != Some(p.original) {
            self.state = Some(*p.original);
            for t in &mut self.tables {
                t.at.fill(0);
                t.used = 0;
            }
        }
        let t = match self
            .tables
            .iter()
            .position(|t| t.steps == p.steps && t.dynamic == p.dynamic && t.sig == p.sig)
        {
            Some(k) => &mut self.tables[k],
            None => {
                self.tables.push(MemoTable {
                    steps: p.steps,
                    dynamic: p.dynamic,
                    sig: p.sig.clone(),
                    searchers: p
                        .apply
                        .unwrap_or_default()
                        .iter()
                        .map(|r| r.searcher.clone())
                        .collect(),
                    at: vec![0; 2 * N_CANDS],
                    chains: Vec::new(),
                    used: 0,
                });
                self.tables.last_mut().expect("just pushed")
            }
        };
        let at = &mut t.at[usize::from(source)];
        let i = match *at {
            0 => {
                t.used += 1;
                *at = t.used as u32;
                if t.chains.len() < t.used {
                    t.chains.push(MemoChain {
                        graph: SavedGraph::default(),
                        absurd: None,
                        cur: *cur,
                        nodes: 0,
                    });
                }
                t.used - 1
            }
            i => i as usize - 1,
        };
        let m = &mut t.chains[i];
        g.save(&mut m.graph);
        m.absurd = absurd;
        m.cur = *cur;
        m.nodes = nodes;
    }
}

/// A first-in first-out queue of nodes that keeps its memory (a
/// propagation only appends to it, so it never wraps).
#[derive(Default)]
struct Queue {
    items: Vec<u32>,
    head: usize,
}

impl Queue {
    fn clear(&mut self) {
        self.items.clear();
        self.head = 0;
    }

    #[inline]
    fn push_back(&mut self, n: u32) {
        self.items.push(n);
    }

    #[inline]
    fn pop_front(&mut self) -> Option<u32> {
        let n = *self.items.get(self.head)?;
        self.head += 1;
        Some(n)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.head == self.items.len()
    }

    /// The number of nodes queued.
    #[inline]
    fn len(&self) -> u32 {
        (self.items.len() - self.head) as u32
    }
}

/// Reusable buffers of a breadth-first propagation.
#[derive(Default)]
struct Scratch {
    pend_on: Queue,
    pend_off: Queue,
    par: Vec<u32>,
    infer: Infer,
    reach: Reach,
}

/// What each literal implies through any number of static steps (its
/// strongly connected component's closure), for forcing chains and
/// cycles: a breadth-first propagation from a literal reaches exactly
/// these literals, so one that cannot reach its negation needs no
/// propagation, and a literal that cannot lead back to a cycle's source
/// starts no cycle through it.
#[derive(Default)]
struct Reach {
    /// Computed for the current pass.
    ready: bool,
    /// With each component's closure (`sets`, `counts`): a forcing chain
    /// search needs them, a cycle search only the components.
    closed: bool,
    /// The literals visited (reachable from the roots): only theirs
    /// `comp` and `index` are set.
    visited: LitSet,
    /// Per visited literal: its component.
    comp: Vec<u32>,
    /// Per visited literal: its visit order, its bit in the components'
    /// sets.
    index: Vec<u32>,
    /// Per component, `words` words: the literals its members reach,
    /// themselves included.
    sets: Vec<u64>,
    words: usize,
    // Tarjan's search: low links, the component stack, the call stack
    // (literal, its next and end inferences in the cache), a component's
    // members, the last component merged into each.
    low: Vec<u32>,
    on_stack: LitSet,
    stack: Vec<u16>,
    call: Vec<(u16, u32, u32)>,
    members: Vec<u16>,
    merged: Vec<u32>,
    /// Per component: its number of literals.
    sizes: Vec<u32>,
    /// Per component: the number of literals its members reach.
    counts: Vec<u32>,
    /// Per visited literal, once `inner_done` holds it: its inferences
    /// that stay in its component, in order, at
    /// `inner[inner_span[l].0 ..][.. inner_span[l].1]` (a cycle search
    /// follows no other).
    inner: Vec<Inference>,
    inner_span: Vec<(u32, u32)>,
    inner_done: LitSet,
}

const NONE: u32 = u32::MAX;

impl Reach {
    /// Does literal `from` reach literal `to`? `None` when `from` was not
    /// visited.
    #[inline]
    fn reaches(&self, from: u16, to: u16) -> Option<bool> {
        if !self.visited.contains(usize::from(from)) {
            return None;
        }
        if !self.visited.contains(usize::from(to)) {
            return Some(false);
        }
        let k = self.comp[usize::from(from)];
        let j = self.index[usize::from(to)];
        let w = self.sets[k as usize * self.words + (j / 64) as usize];
        Some(w >> (j % 64) & 1 != 0)
    }

    /// The inferences of visited literal `l` that stay in its component
    /// (its static inferences, in `infer`'s cache, are known).
    #[inline]
    fn inner(&mut self, l: u16, infer: &Infer) -> &[Inference] {
        let i = usize::from(l);
        if !self.inner_done.contains(i) {
            self.find_inner(i, infer);
        }
        let (s, n) = self.inner_span[i];
        &self.inner[s as usize..(s + n) as usize]
    }

    #[inline(never)]
    fn find_inner(&mut self, i: usize, infer: &Infer) {
        self.inner_done.insert(i);
        let start = self.inner.len();
        let home = self.comp[i];
        let (s, n) = infer.span[i];
        for e in &infer.cache[s as usize..(s + n) as usize] {
            if self.comp[usize::from(e.lit)] == home {
                self.inner.push(*e);
            }
        }
        self.inner_span[i] = (start as u32, (self.inner.len() - start) as u32);
    }

    /// Is visited literal `l` alone in its component? (Then no inference
    /// stays in it: no literal infers itself.)
    #[inline]
    fn alone(&self, l: u16) -> bool {
        self.sizes[self.comp[usize::from(l)] as usize] == 1
    }

    /// The number of literals `from` reaches (it was visited).
    #[inline]
    fn count(&self, from: u16) -> u32 {
        self.counts[self.comp[usize::from(from)] as usize]
    }
}

impl Scratch {
    /// Ready for a new propagation: the queues emptied (the other buffers
    /// are cleared where they are filled; the static inferences stay).
    fn emptied(&mut self) -> &mut Scratch {
        self.pend_on.clear();
        self.pend_off.clear();
        self
    }
}

/// The inferences of literals: a dynamic step's, computed at each step, or
/// the static steps', which read only the original state: each literal's
/// computed the first time it is stepped, then kept for the pass, and for
/// later passes and searches that read the same state with the same steps
/// ([`Infer::keep_for`]; the scratch holding them goes back to the pool).
#[derive(Default)]
struct Infer {
    /// A dynamic step's inferences.
    out: Vec<Inference>,
    /// The hidden literals of `out`'s inferences.
    hidden: Vec<u16>,
    /// Static steps: once `done` holds literal `l`, its inferences are
    /// `cache[span[l].0 ..][.. span[l].1]` (one array, not one per literal).
    cache: Vec<Inference>,
    span: Vec<(u32, u32)>,
    done: LitSet,
    /// What the "on" literals' lists in `cache` were computed for: the
    /// original candidates and the steps an "on" literal takes (on ⇒ off
    /// by the cell, by the houses); `None`: nothing kept.
    on_key: Option<(Bits, bool, bool)>,
    /// The same for the "off" literals' lists (off ⇒ on by the cell, by
    /// the houses).
    off_key: Option<(Bits, bool, bool)>,
}

impl Infer {
    /// Ready for a static propagation from `cands` with `steps`: the lists
    /// of a previous pass or search that read the same candidates with the
    /// same steps for a literal's polarity are kept (a literal's static
    /// inferences depend on nothing else), the others dropped; `cache` is
    /// emptied when neither polarity's lists are kept.
    fn keep_for(&mut self, cands: &Bits, steps: Steps) {
        if self.span.len() < 2 * N_CANDS {
            self.span.resize(2 * N_CANDS, (0, 0));
        }
        let on_key = Some((*cands, steps.on_off_cell, steps.on_off_house));
        let off_key = Some((*cands, steps.off_on_cell, steps.off_on_house));
        let (keep_on, keep_off) = (self.on_key == on_key, self.off_key == off_key);
        if !keep_on && !keep_off {
            self.cache.clear();
            self.done = LitSet::EMPTY;
        } else {
            // "On" literals are the even ones, "off" the odd ones.
            let mask = match (keep_on, keep_off) {
                (true, false) => 0x5555_5555_5555_5555u64,
                (false, true) => 0xAAAA_AAAA_AAAA_AAAAu64,
                _ => u64::MAX,
            };
            for w in &mut self.done.0 {
                *w &= mask;
            }
        }
        self.on_key = on_key;
        self.off_key = off_key;
    }
}

/// An inferred literal before it becomes a node: its cause, and the
/// literals (off) it also depends on, read from the branch's state: the
/// `n_hidden` literals from `hidden` in the step's hidden buffer.
#[derive(Clone, Copy)]
struct Inference {
    lit: u16,
    cause: Cause,
    hidden: u16,
    n_hidden: u8,
}

impl Inference {
    fn new(lit: u16, cause: Cause) -> Inference {
        Inference {
            lit,
            cause,
            hidden: 0,
            n_hidden: 0,
        }
    }
}

const HOUSE_ORDER: [usize; 3] = [2, 0, 1]; // block, row, column

/// The candidates of digit `d` in house `h`, at `h * 9 + d`.
static HOUSE_DIGIT: std::sync::LazyLock<Vec<Bits>> = std::sync::LazyLock::new(|| {
    (0..N_HOUSES * 9)
        .map(|i| TABLES.house[i / 9].and(&TABLES.digit[i % 9]))
        .collect()
});

/// The cells of each house, as bits of a cell mask.
static HOUSE_MASK: std::sync::LazyLock<Vec<u128>> = std::sync::LazyLock::new(|| {
    (0..N_HOUSES)
        .map(|h| house_cells(h).iter().fold(0u128, |m, &o| m | 1u128 << o))
        .collect()
});

/// The peers of each cell, in the order an "on" literal's house steps take
/// them: its block's, its row's, then its column's ([`HOUSE_ORDER`]), each
/// peer once (with the first house that holds it), in cell order within a
/// house: (the peers as a cell mask, their house).
static PEER_GROUPS: std::sync::LazyLock<Vec<[(u128, u8); 3]>> = std::sync::LazyLock::new(|| {
    (0..N_CELLS)
        .map(|c| {
            let mut taken = 1u128 << c;
            HOUSE_ORDER.map(|k| {
                let h = cell_houses(c)[k];
                let peers = HOUSE_MASK[h] & !taken;
                taken |= peers;
                (peers, h as u8)
            })
        })
        .collect()
});

/// The houses of each cell in the order an "off" literal's house steps
/// take them (block, row, column: [`HOUSE_ORDER`]): (the house's cells as
/// a cell mask, the house).
static CELL_HOUSES: std::sync::LazyLock<Vec<[(u128, u8); 3]>> = std::sync::LazyLock::new(|| {
    (0..N_CELLS)
        .map(|c| HOUSE_ORDER.map(|k| (HOUSE_MASK[cell_houses(c)[k]], cell_houses(c)[k] as u8)))
        .collect()
});

/// Live candidates, with each digit's cells as a plane of 81 bits (house
/// steps read a digit's places in a house with one mask).
#[derive(Clone, Copy)]
struct Live {
    cands: Bits,
    planes: [u128; 9],
}

impl Live {
    fn of(cands: &Bits) -> Live {
        let mut planes = [0u128; 9];
        for z in cands.iter() {
            planes[cand_digit(z)] |= 1u128 << cand_cell(z);
        }
        Live {
            cands: *cands,
            planes,
        }
    }

    #[inline]
    fn remove(&mut self, z: usize) {
        self.cands.remove(z);
        self.planes[cand_digit(z)] &= !(1u128 << cand_cell(z));
    }
}

impl<'a> Prop<'a> {
    fn new(original: &'a State, steps: Steps, dynamic: bool) -> Prop<'a> {
        let mut sc = SCRATCHES.with(|p| p.borrow_mut().pop()).unwrap_or_default();
        sc.reach.ready = false;
        if !dynamic {
            sc.infer.keep_for(&original.cands, steps);
        }
        Prop {
            original,
            orig: Live::of(&original.cands),
            steps,
            dynamic,
            apply: None,
            sig: Vec::new(),
            matched: Default::default(),
            memo: DEPTH.with(|d| d.get()) == 1,
            keep: false,
            scratch: std::cell::RefCell::new(Some(sc)),
        }
    }

    /// The same propagation, applying `rules` whenever its steps are
    /// exhausted.
    fn applying(mut self, rules: Option<&'a [AppliedRule]>) -> Prop<'a> {
        self.apply = rules;
        self.sig = signature(rules.unwrap_or_default());
        self.keep = self.memo && {
            let known = EXTENDERS.lock().unwrap_or_else(|e| e.into_inner());
            known.iter().any(|(steps, dynamic, sig)| {
                *steps == self.steps
                    && *dynamic == self.dynamic
                    && sig.len() > self.sig.len()
                    && begins_with(sig, &self.sig)
            })
        };
        self
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

    /// The inferences of literal `l` in `cur`, with the buffer of hidden
    /// literals they index. Static steps read the original state (`cur`
    /// is not read): a literal's are computed once, then read from
    /// `inf`'s cache.
    #[inline(always)]
    fn step<'s>(&self, l: u16, cur: &Live, inf: &'s mut Infer) -> (&'s [Inference], &'s [u16]) {
        if !self.dynamic {
            let i = usize::from(l);
            if !inf.done.contains(i) {
                self.infer_static(l, inf);
            }
            let (s, n) = inf.span[i];
            return (&inf.cache[s as usize..(s + n) as usize], &[]);
        }
        self.step_dynamic(l, cur, inf)
    }

    /// A static step's inferences of literal `l`, into `inf`'s cache.
    #[inline(never)]
    fn infer_static(&self, l: u16, inf: &mut Infer) {
        let (i, z) = (usize::from(l), lit_cand(l));
        inf.done.insert(i);
        let start = inf.cache.len();
        let orig = &self.orig;
        if orig.cands.contains(z) {
            if lit_on(l) {
                self.on_to_off(z, orig, &mut inf.cache);
            } else {
                self.off_to_on(z, orig, &mut inf.cache, &mut inf.hidden);
            }
        }
        inf.span[i] = (start as u32, (inf.cache.len() - start) as u32);
    }

    /// A dynamic step's inferences of literal `l` in `cur`.
    #[inline(never)]
    fn step_dynamic<'s>(
        &self,
        l: u16,
        cur: &Live,
        inf: &'s mut Infer,
    ) -> (&'s [Inference], &'s [u16]) {
        let z = lit_cand(l);
        inf.out.clear();
        inf.hidden.clear();
        if lit_on(l) {
            self.on_to_off(z, cur, &mut inf.out);
        } else {
            self.off_to_on(z, cur, &mut inf.out, &mut inf.hidden);
        }
        (&inf.out, &inf.hidden)
    }

    /// Appends to `out` the literals an "on" literal of `z` makes off, in
    /// `cur`: the cell's other candidates, then the digit's other places
    /// in the block, the row and the column (each once).
    fn on_to_off(&self, z: usize, cur: &Live, out: &mut Vec<Inference>) {
        let (c, d) = (cand_cell(z), cand_digit(z));
        if self.steps.on_off_cell {
            let mut m = cell_mask(&cur.cands, c) & !(1u16 << d);
            while m != 0 {
                let e = m.trailing_zeros() as usize;
                m &= m - 1;
                out.push(Inference::new(lit(cand(c, e), false), Cause::Cell));
            }
        }
        if self.steps.on_off_house {
            for &(peers, h) in &PEER_GROUPS[c] {
                let mut m = cur.planes[d] & peers;
                while m != 0 {
                    let o = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out.push(Inference::new(lit(cand(o, d), false), Cause::House(h)));
                }
            }
        }
    }

    /// Appends to `out` the literals an "off" literal of `z` makes on, in
    /// `cur`; dynamic steps also name the candidates gone from the cell or
    /// house, appended to `hidden`.
    fn off_to_on(&self, z: usize, cur: &Live, out: &mut Vec<Inference>, hidden: &mut Vec<u16>) {
        let start = out.len();
        let (c, d) = (cand_cell(z), cand_digit(z));
        if self.steps.off_on_cell {
            let live = cell_mask(&cur.cands, c);
            if live.count_ones() == 2 {
                // The other candidate (the first when `z` is not live).
                let rest = live & !(1u16 << d);
                let e = if rest != 0 {
                    rest.trailing_zeros() as usize
                } else {
                    d
                };
                let mut inf = Inference::new(lit(cand(c, e), true), Cause::Cell);
                if self.dynamic {
                    inf.hidden = hidden.len() as u16;
                    let mut gone = cell_mask(&self.orig.cands, c) & !live;
                    while gone != 0 {
                        let e = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        hidden.push(lit(cand(c, e), false));
                        inf.n_hidden += 1;
                    }
                }
                out.push(inf);
            }
        }
        if self.steps.off_on_house {
            for &(cells, h) in &CELL_HOUSES[c] {
                let live = cur.planes[d] & cells;
                if live.count_ones() != 2 {
                    continue;
                }
                // The first place that is not `z`'s cell.
                let o = (live & !(1u128 << c)).trailing_zeros() as usize;
                let l = lit(cand(o, d), true);
                if out[start..].iter().any(|i| i.lit == l) {
                    continue;
                }
                let mut inf = Inference::new(l, Cause::House(h));
                if self.dynamic {
                    inf.hidden = hidden.len() as u16;
                    let mut gone = self.orig.planes[d] & cells & !live;
                    while gone != 0 {
                        let p = gone.trailing_zeros() as usize;
                        gone &= gone - 1;
                        hidden.push(lit(cand(p, d), false));
                        inf.n_hidden += 1;
                    }
                }
                out.push(inf);
            }
        }
    }

    /// The parents of an inference: the producing node, then the latest
    /// nodes of its hidden literals.
    #[inline]
    fn parents(g: &Graph, p: u32, inf: &Inference, hidden: &[u16], buf: &mut Vec<u32>) {
        buf.clear();
        buf.push(p);
        if inf.n_hidden == 0 {
            return;
        }
        let at = usize::from(inf.hidden);
        for &h in &hidden[at..at + usize::from(inf.n_hidden)] {
            if let Some(n) = g.get(h) {
                buf.push(n);
            }
        }
    }

    /// Propagates the graph's nodes (its assumptions) to a fixpoint, one
    /// literal at a time ("on" literals first). Stops at the first literal
    /// inferred both on and off and returns its two nodes (on, off).
    ///
    /// A propagation from one assumption is shared, through the thread's
    /// [`MEMO`], with the later trials of the step that propagate from the
    /// same state with the same steps and apply the same rules, maybe
    /// followed by more groups (see [`Memo::lookup`]): they take its graph,
    /// and its count of search nodes, instead of making it again, then go
    /// on from where it stopped with their further rules.
    fn chain(&self, cx: &mut SearchCx, g: &mut Graph) -> Option<(u32, u32)> {
        let mut sc = self.scratch.borrow_mut();
        let sc = sc.as_deref_mut().expect("a propagation keeps its scratch");
        let sc = sc.emptied();
        let mut cur = self.orig;
        if !self.memo || g.len() != 1 {
            return self.chain_in(cx, g, sc, &mut cur, None);
        }
        let source = g.node(0).lit;
        let before = cx.nodes;
        let hit = MEMO.with(|m| m.borrow_mut().lookup(self, source, g, &mut cur));
        let absurd = match hit {
            Some(Taken {
                absurd,
                skip,
                nodes,
            }) => {
                if cx.charge(nodes) {
                    return None;
                }
                if absurd.is_some() || skip == self.sig.len() {
                    return absurd;
                }
                self.chain_in(cx, g, sc, &mut cur, Some(skip))
            }
            None => self.chain_in(cx, g, sc, &mut cur, None),
        };
        if self.keep && !cx.interrupted() {
            let nodes = cx.nodes - before;
            MEMO.with(|m| m.borrow_mut().record(self, source, g, absurd, &cur, nodes));
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
        sc: &mut Scratch,
        cur: &mut Live,
        resume: Option<usize>,
    ) -> Option<(u32, u32)> {
        let Scratch {
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
                let (infs, _) = self.step(g.node(p).lit, cur, infer);
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
                let (infs, hidden) = self.step(g.node(p).lit, cur, infer);
                if self.dynamic {
                    cur.remove(z);
                }
                for inf in infs {
                    // An inference with no hidden literals has `p` as its
                    // one parent (no parent list to build).
                    let simple = inf.n_hidden == 0;
                    if !simple {
                        Self::parents(g, p, inf, hidden, par);
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

    /// Cycles from `z` on: breadth-first, layer by layer, a literal not
    /// repeated along its own path; every return to `z` on after at least
    /// four layers is a cycle. Returns the nodes of `z` on that close one.
    ///
    /// With static reachability known, the search follows only the
    /// inferences that stay in the source's strongly connected component
    /// (a literal outside it cannot lead back to the source), and a source
    /// with none of them counts its one node and leaves `g` as it is.
    fn cycles(&self, cx: &mut SearchCx, g: &mut Graph, z: usize) -> Vec<u32> {
        let mut sc = self.scratch.borrow_mut();
        let sc = sc.as_deref_mut().expect("a propagation keeps its scratch");
        let source = lit(z, true);
        let r = &mut sc.reach;
        if !r.ready || !r.visited.contains(usize::from(source)) {
            return self.cycles_in(cx, g, z, sc.emptied());
        }
        if r.alone(source) {
            cx.tick();
            return Vec::new();
        }
        self.cycles_inner(cx, g, source, sc.emptied())
    }

    /// The cycle search of [`Prop::cycles`] along the inferences that stay
    /// in the component of `source` (visited by [`Prop::reach_from`]):
    /// the same nodes, in the same order, as [`Prop::cycles_in`] makes.
    fn cycles_inner(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        source: u16,
        sc: &mut Scratch,
    ) -> Vec<u32> {
        let s = g.add(source, Cause::Assumption, &[]);
        let Scratch {
            pend_on,
            pend_off,
            infer,
            reach,
            ..
        } = sc;
        pend_on.push_back(s);
        let mut found = Vec::new();
        let mut length = 0;
        // A layer's nodes are counted before it is drained: a queue drained
        // fills only the other one.
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            if cx.tick_n(pend_on.len()) {
                return found;
            }
            while let Some(p) = pend_on.pop_front() {
                for inf in reach.inner(g.node(p).lit, infer) {
                    // A literal never inferred is on no path (the cheap test
                    // first).
                    if !g.contains(inf.lit) || !g.on_first_path(p, inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            }
            length += 1;
            if cx.tick_n(pend_off.len()) {
                return found;
            }
            while let Some(p) = pend_off.pop_front() {
                for inf in reach.inner(g.node(p).lit, infer) {
                    if length >= 4 && inf.lit == source {
                        found.push(g.push(inf.lit, inf.cause, &[p]));
                    }
                    if !g.contains(inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_on.push_back(n);
                    }
                }
            }
        }
        found
    }

    fn cycles_in(&self, cx: &mut SearchCx, g: &mut Graph, z: usize, sc: &mut Scratch) -> Vec<u32> {
        let cur = &self.orig;
        let source = lit(z, true);
        let s = g.add(source, Cause::Assumption, &[]);
        let Scratch {
            pend_on,
            pend_off,
            par,
            infer,
            reach,
        } = sc;
        // With static reachability known, a literal that cannot lead back
        // to the source starts no cycle: it is not searched from. Every
        // literal met is reached from the source, so it leads back to it
        // exactly when it is in the source's strongly connected component
        // (what `reach.reaches(l, source)` says, read from one array).
        let home = reach
            .visited
            .contains(usize::from(source))
            .then(|| reach.comp[usize::from(source)]);
        let returns = |l: u16| {
            !reach.ready
                || !reach.visited.contains(usize::from(l))
                || home == Some(reach.comp[usize::from(l)])
        };
        pend_on.push_back(s);
        let mut found = Vec::new();
        let mut length = 0;
        while !pend_on.is_empty() || !pend_off.is_empty() {
            length += 1;
            while let Some(p) = pend_on.pop_front() {
                if cx.tick() {
                    return found;
                }
                let (infs, _) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    // A literal never inferred is on no path (the cheap tests
                    // first).
                    if returns(inf.lit) && (!g.contains(inf.lit) || !g.on_first_path(p, inf.lit)) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            }
            length += 1;
            while let Some(p) = pend_off.pop_front() {
                if cx.tick() {
                    return found;
                }
                let (infs, hidden) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    Self::parents(g, p, inf, hidden, par);
                    if length >= 4 && inf.lit == source {
                        found.push(g.push(inf.lit, inf.cause, par));
                    }
                    if !g.contains(inf.lit) && returns(inf.lit) {
                        let n = g.add(inf.lit, inf.cause, par);
                        pend_on.push_back(n);
                    }
                }
            }
        }
        found
    }

    /// Computes what the literals `roots` reach by static steps (see
    /// [`Reach`]), for [`Prop::forcing`] and [`Prop::cycles`]; nothing when
    /// the steps are dynamic.
    fn reach_from(&self, roots: impl Iterator<Item = u16>, closures: bool) {
        if self.dynamic {
            return;
        }
        let mut sc = self.scratch.borrow_mut();
        let sc = sc.as_deref_mut().expect("a propagation keeps its scratch");
        let Scratch { infer, reach, .. } = sc;
        let orig = &self.orig;
        let n = 2 * N_CANDS;
        let words = (2 * orig.cands.len()).div_ceil(64).max(1);
        reach.words = words;
        if reach.comp.len() < n {
            reach.comp.resize(n, NONE);
            reach.index.resize(n, NONE);
            reach.low.resize(n, 0);
        }
        reach.visited = LitSet::EMPTY;
        reach.inner_done = LitSet::EMPTY;
        reach.inner.clear();
        if reach.inner_span.len() < n {
            reach.inner_span.resize(n, (0, 0));
        }
        reach.sets.clear();
        reach.merged.clear();
        reach.sizes.clear();
        reach.counts.clear();
        reach.on_stack = LitSet::EMPTY;
        reach.stack.clear();
        reach.call.clear();
        let mut counter = 0u32;
        let visit = |r: &mut Reach, inf: &mut Infer, v: u16, counter: &mut u32| {
            let i = usize::from(v);
            r.visited.insert(i);
            r.index[i] = *counter;
            r.low[i] = *counter;
            *counter += 1;
            r.stack.push(v);
            r.on_stack.insert(i);
            if !inf.done.contains(i) {
                self.infer_static(v, inf);
            }
            let (s, n) = inf.span[i];
            r.call.push((v, s, s + n));
        };
        for root in roots {
            if reach.visited.contains(usize::from(root)) || !orig.cands.contains(lit_cand(root)) {
                continue;
            }
            visit(reach, infer, root, &mut counter);
            while let Some(top) = reach.call.last_mut() {
                let (v, next, end) = *top;
                if next < end {
                    top.1 += 1;
                    let w = infer.cache[next as usize].lit;
                    if !reach.visited.contains(usize::from(w)) {
                        visit(reach, infer, w, &mut counter);
                    } else if reach.on_stack.contains(usize::from(w)) {
                        let iw = reach.index[usize::from(w)];
                        let lv = &mut reach.low[usize::from(v)];
                        *lv = (*lv).min(iw);
                    }
                    continue;
                }
                reach.call.pop();
                let lowv = reach.low[usize::from(v)];
                if let Some(&(u, _, _)) = reach.call.last() {
                    let lu = &mut reach.low[usize::from(u)];
                    *lu = (*lu).min(lowv);
                }
                if lowv != reach.index[usize::from(v)] {
                    continue;
                }
                // `v` roots a component: its members are on the stack;
                // every other component they reach is complete.
                let k = reach.sizes.len() as u32;
                reach.members.clear();
                while let Some(w) = reach.stack.pop() {
                    reach.on_stack.remove(usize::from(w));
                    reach.comp[usize::from(w)] = k;
                    reach.members.push(w);
                    if w == v {
                        break;
                    }
                }
                reach.sizes.push(reach.members.len() as u32);
                if !closures {
                    continue;
                }
                // The component's set is built in place, after the sets
                // of the components before it (the ones it reaches).
                let at = reach.sets.len();
                reach.sets.resize(at + words, 0);
                let (done, set) = reach.sets.split_at_mut(at);
                for &w in &reach.members {
                    let j = reach.index[usize::from(w)] as usize;
                    set[j / 64] |= 1u64 << (j % 64);
                }
                // Each component reached merged once (`merged` holds the
                // last component that took it).
                for &m in &reach.members {
                    let (s, n) = infer.span[usize::from(m)];
                    for e in &infer.cache[s as usize..(s + n) as usize] {
                        let c = reach.comp[usize::from(e.lit)];
                        if c != k && reach.merged[c as usize] != k {
                            reach.merged[c as usize] = k;
                            let from = &done[c as usize * words..][..words];
                            for (a, b) in set.iter_mut().zip(from) {
                                *a |= b;
                            }
                        }
                    }
                }
                reach.merged.push(NONE);
                let count = set.iter().map(|w| w.count_ones()).sum();
                reach.counts.push(count);
            }
        }
        reach.ready = true;
        reach.closed = closures;
    }

    /// Forcing chains from literal `source`: breadth-first until nothing
    /// is new; returns the first node of the negation of `source` reached.
    ///
    /// With static reachability known, the search stops at that node:
    /// every node after it is no ancestor of it, and the literals it would
    /// still have visited (those `source` reaches, less the ones popped)
    /// are counted at once, so node counts stay the same.
    ///
    /// `limit`: the largest complexity a chain the caller still wants may
    /// have (a search for the first match only: a longer one cannot come
    /// first). With reachability known, the search ends before the layer
    /// whose hits would be longer, its other literals counted at once:
    /// static steps give each literal one node and one parent, so the
    /// chain to a hit at layer `k` (the source is layer 0) has exactly
    /// `k + 1` distinct literals.
    fn forcing(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        source: u16,
        limit: Option<usize>,
    ) -> Option<u32> {
        let mut sc = self.scratch.borrow_mut();
        let sc = sc.as_deref_mut().expect("a propagation keeps its scratch");
        let r = &sc.reach;
        let total = if r.ready && r.closed && r.visited.contains(usize::from(source)) {
            let total = r.count(source);
            if limit.is_some_and(|m| m < 2)
                || r.reaches(source, implication::conjugate(source)) == Some(false)
            {
                // The propagation would visit each literal `source` reaches
                // once, to find nothing (or nothing short enough).
                cx.tick_n(total);
                return None;
            }
            Some(total)
        } else {
            None
        };
        let limit = if total.is_some() { limit } else { None };
        self.forcing_in(cx, g, source, sc.emptied(), total, limit)
    }

    /// The breadth-first search of [`Prop::forcing`]; `total`: the number
    /// of literals `source` reaches, when known (then the search stops at
    /// the first node of its negation).
    fn forcing_in(
        &self,
        cx: &mut SearchCx,
        g: &mut Graph,
        source: u16,
        sc: &mut Scratch,
        total: Option<u32>,
        limit: Option<usize>,
    ) -> Option<u32> {
        let cur = &self.orig;
        let s = g.add(source, Cause::Assumption, &[]);
        let neg = implication::conjugate(source);
        let Scratch {
            pend_on,
            pend_off,
            par,
            infer,
            reach,
        } = sc;
        if lit_on(source) {
            pend_on.push_back(s);
        } else {
            pend_off.push_back(s);
        }
        // With reachability known, a literal that cannot reach the
        // negation is not queued: it is no ancestor of the hit, and the
        // literals that are keep their order and first parents (the first
        // node that infers one reaches the negation through it), so the
        // hit's chain is the same.
        // Every literal met is visited (the source is): `l` reaches the
        // negation when its component's closure holds the negation's bit.
        let (nw, nb) = match total {
            Some(_) => {
                let j = reach.index[usize::from(neg)] as usize;
                (j / 64, j % 64)
            }
            None => (0, 0),
        };
        let leads = |l: u16| {
            total.is_none() || {
                let k = reach.comp[usize::from(l)] as usize;
                reach.sets[k * reach.words + nw] >> nb & 1 != 0
            }
        };
        // The nodes counted so far (the layers drained and the one being
        // drained); at the first hit, with `total` known, the rest are
        // counted and the search ends.
        let mut popped = 0u32;
        let stop = |cx: &mut SearchCx, popped: u32, hit: u32| {
            total.map(|t| (!cx.tick_n(t - popped)).then_some(hit))
        };
        let mut hit = None;
        // The layer of the hits the queue drained next gives: "on" and
        // "off" literals alternate, a queue drained at a time, so the nodes
        // popped from it are all of one layer (an "off" source's first
        // "on" queue is empty: it is layer -1).
        let mut next: usize = if lit_on(source) { 1 } else { 0 };
        // A hit at layer `k` has complexity `k + 1`: past the limit, the
        // literals left are counted and the search ends.
        let past = |next: usize| limit.is_some_and(|m| next + 1 > m);
        while !pend_on.is_empty() || !pend_off.is_empty() {
            if !pend_on.is_empty() && past(next) {
                cx.tick_n(total.unwrap_or(0) - popped);
                return None;
            }
            // A layer's nodes are counted before it is drained (a queue
            // drained fills only the other one).
            popped += pend_on.len();
            if cx.tick_n(pend_on.len()) {
                return None;
            }
            while let Some(p) = pend_on.pop_front() {
                let (infs, _) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    if inf.lit == neg && hit.is_none() {
                        let t = g.push(inf.lit, inf.cause, &[p]);
                        if let Some(r) = stop(cx, popped, t) {
                            return r;
                        }
                        hit = Some(t);
                    }
                    // SE also asks that the literal is not on `p`'s path;
                    // a literal never inferred is on no path.
                    if !g.contains(inf.lit) && leads(inf.lit) {
                        let n = g.add_one(inf.lit, inf.cause, p);
                        pend_off.push_back(n);
                    }
                }
            }
            next += 1;
            if !pend_off.is_empty() && past(next) {
                cx.tick_n(total.unwrap_or(0) - popped);
                return None;
            }
            popped += pend_off.len();
            if cx.tick_n(pend_off.len()) {
                return None;
            }
            while let Some(p) = pend_off.pop_front() {
                let (infs, hidden) = self.step(g.node(p).lit, cur, infer);
                for inf in infs {
                    // No hidden literals: `p` is the one parent.
                    let simple = inf.n_hidden == 0;
                    if !simple {
                        Self::parents(g, p, inf, hidden, par);
                    }
                    if inf.lit == neg && hit.is_none() {
                        let t = if simple {
                            g.push(inf.lit, inf.cause, &[p])
                        } else {
                            g.push(inf.lit, inf.cause, par)
                        };
                        if let Some(r) = stop(cx, popped, t) {
                            return r;
                        }
                        hit = Some(t);
                    }
                    if !g.contains(inf.lit) && leads(inf.lit) {
                        let n = if simple {
                            g.add_one(inf.lit, inf.cause, p)
                        } else {
                            g.add(inf.lit, inf.cause, par)
                        };
                        pend_on.push_back(n);
                    }
                }
            }
            next += 1;
        }
        hit
    }
}

/// The candidates of cell `c` whose digits are the bits of `mask`, in
/// order.
fn cell_cands(c: usize, mask: u16) -> impl Iterator<Item = usize> + Clone {
    (0..9)
        .filter(move |&d| mask >> d & 1 != 0)
        .map(move |d| cand(c, d))
}

/// Collects matches with their sort keys.
struct Collector<'a> {
    spec: &'a TrialSpec,
    state: &'a State,
    hints: Vec<Hint>,
    /// Keeps the chains of matches as they are found
    /// ([`Collector::keep_chains`]).
    eager: bool,
    /// The search is for its first match only ([`Searcher::first`]): a
    /// match that sorts after one already found is never reported, so a
    /// search may skip it (keeping its node count).
    first: bool,
    /// With `first`: the order of the first of `hints` (see [`order`]).
    best: Option<Order>,
}

/// Where a match sorts among a search's matches: its difficulty, its
/// complexity, its key; equal ones in the order they were found.
type Order = (f64, usize, i64);

/// Does a match of order `a` sort before one of order `b`?
fn sorts_before(a: &Order, b: &Order) -> bool {
    a.0.partial_cmp(&b.0)
        .unwrap_or(std::cmp::Ordering::Equal)
        .then(a.1.cmp(&b.1))
        .then(a.2.cmp(&b.2))
        .is_lt()
}

/// The order of hint `h`.
fn order(h: &Hint) -> Order {
    (h.difficulty, h.complexity, h.key)
}

impl Collector<'_> {
    /// What SE's hint removes for a result literal: an "on" result takes
    /// the cell's other candidates (and places the digit), an "off" one
    /// the candidate.
    fn removable(&self, target: u16) -> (Bits, Option<usize>) {
        let z = lit_cand(target);
        if lit_on(target) {
            let cell = TABLES.cell[cand_cell(z)];
            let mut r = self.state.cands.and(&cell);
            r.remove(z);
            (r, Some(z))
        } else {
            (Bits::single(z), None)
        }
    }

    fn add(&mut self, c: &Conclude, target: u16, complexity: usize, recipe: Recipe) {
        let (removable, placed) = self.removable(target);
        if removable.is_empty() {
            return;
        }
        self.push(c, removable, placed, complexity, recipe);
    }

    fn push(
        &mut self,
        c: &Conclude,
        removable: Bits,
        placed: Option<usize>,
        complexity: usize,
        recipe: Recipe,
    ) {
        let (tenths, added) = self.spec.increment.of(complexity);
        if self.first {
            let o = (c.level.as_f64() + added, complexity, c.key);
            if self.best.is_none_or(|b| sorts_before(&o, &b)) {
                self.best = Some(o);
            }
        }
        self.hints.push(Hint {
            difficulty: c.level.as_f64() + added,
            complexity,
            key: c.key,
            removable,
            placed,
            level: if tenths == 0 {
                c.level
            } else {
                c.level.plus_tenths(tenths)
            },
            label: c.label.clone(),
            mode: c.mode,
            recipe,
            chains: None,
        });
    }

    /// Gives the chains of the matches pushed since there were `from`
    /// (none or one), extracted by `chains` from the graph that found
    /// them, when the search is `eager`: a rule applied in another's
    /// branches reports every match it finds with its chains, and taking
    /// them now costs less than making the propagation again
    /// ([`TrialSearch::replay`] finds the same graph: it is
    /// deterministic). An engine's search reports few of its matches: it
    /// replays those.
    /// Adds a hint found before (see [`Collector::best`]).
    fn take(&mut self, h: Hint) {
        let o = order(&h);
        if self.first && self.best.is_none_or(|b| sorts_before(&o, &b)) {
            self.best = Some(o);
        }
        self.hints.push(h);
    }

    /// The largest complexity of a match concluded by `c` that sorts
    /// before the first of the hints (`best`) and not after `later` (the
    /// first of the hints found ahead, of candidates after the current
    /// one); `None`: any. A match whose order is that of one found before
    /// it sorts after it.
    fn limit(&self, c: &Conclude, later: Option<Order>) -> Option<usize> {
        if self.best.is_none() && later.is_none() {
            return None;
        }
        let wins = |k: usize| {
            let o = (c.level.as_f64() + self.spec.increment.of(k).1, k, c.key);
            self.best.is_none_or(|b| sorts_before(&o, &b))
                && later.is_none_or(|l| !sorts_before(&l, &o))
        };
        // A chain has at most one node per literal.
        let most = 2 * N_CANDS + 1;
        let mut k = 1;
        while k < most && wins(k + 1) {
            k += 1;
        }
        (k < most).then_some(k)
    }

    fn keep_chains(&mut self, from: usize, chains: impl FnOnce() -> Vec<Chain>) {
        if self.eager
            && let Some(h) = self.hints.get_mut(from)
        {
            h.chains = Some(chains());
        }
    }
}

/// Graphs reused across the candidates of one search.
struct Pool {
    on: Vec<Graph>,
    off: Graph,
    region: Vec<Graph>,
    /// Per candidate: its "on" propagation in the current pass, when a
    /// region computed it before the candidate's own cell came (the same
    /// propagation: it is deterministic), with its contradiction if any.
    cached: Vec<Option<Propagated>>,
}

/// A propagation's graph and its contradiction (the two nodes), if any.
type Propagated = (SavedGraph, Option<(u32, u32)>);

thread_local! {
    /// Pools of finished searches, reused by the next ones (every graph is
    /// cleared or overwritten before it is read, `cached` at each pass).
    static POOLS: std::cell::RefCell<Vec<Pool>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A search's pool, given back to [`POOLS`] however the search ends.
struct PoolGuard(Option<Pool>);

impl Drop for PoolGuard {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            POOLS.with(|ps| ps.borrow_mut().push(p));
        }
    }
}

impl TrialSearch {
    fn run_pass(
        &self,
        cx: &mut SearchCx,
        pi: usize,
        pass: &Pass,
        col: &mut Collector,
        pool: &mut Pool,
    ) {
        let state = col.state;
        let prop =
            Prop::new(state, pass.steps, pass.reads == Reads::Branch).applying(self.applied(pi));
        pool.cached.iter_mut().for_each(|c| *c = None);
        // Each cell's live digits (a pass reads them twice per cell).
        let masks = cell_masks(&state.cands);
        let cyc = pass.wants(Mode::Cycle);
        let forc = pass.wants(Mode::Forcing);
        if forc.is_some() || cyc.is_some() {
            // Both literals of every candidate the pass starts from.
            let (lo, hi) = (pass.min_cell.max(1), pass.max_cell);
            prop.reach_from(
                (0..N_CELLS).flat_map(|c| {
                    let n = masks[c].count_ones() as usize;
                    let chosen = (lo..=hi).contains(&n);
                    cell_cands(c, masks[c])
                        .filter(move |_| chosen)
                        .flat_map(|z| [lit(z, true), lit(z, false)])
                }),
                forc.is_some(),
            );
        }
        let contra = pass.wants(Mode::Contradiction);
        let dbl = pass.wants(Mode::Double);
        let cellc = pass.wants(Mode::Cell);
        let region = pass.wants(Mode::Region);
        let binary = contra.is_some() || dbl.is_some() || cellc.is_some() || region.is_some();
        // A search for its first match finds the pass's cycles first (in
        // the same order, put back among the matches where they come): a
        // forcing chain that cannot sort before one of them, or before a
        // match found earlier, is not completed (its nodes are counted).
        let ahead = col.first && cyc.is_some() && forc.is_some();
        let mut later: Vec<(usize, Hint)> = Vec::new();
        if ahead && let Some(cc) = cyc {
            let best = col.best;
            for (c, &mask) in masks.iter().enumerate() {
                if cx.interrupted() {
                    return;
                }
                let n = mask.count_ones() as usize;
                if n < pass.min_cell.max(1) || n > pass.max_cell || n < cc.min_cell {
                    continue;
                }
                for z in cell_cands(c, mask) {
                    let k = col.hints.len();
                    cycle_hints(cx, &prop, (pi, cc), z, col, &mut pool.off);
                    later.extend(col.hints.drain(k..).map(|h| (z, h)));
                }
            }
            col.best = best;
        }
        let later_best = later
            .iter()
            .map(|(_, h)| order(h))
            .reduce(|a, b| if sorts_before(&b, &a) { b } else { a });
        // The next of `later` to put back (a position: most passes have
        // none).
        let mut later = later
            .into_iter()
            .map(|(z, h)| (z, Some(h)))
            .collect::<Vec<_>>();
        let mut li = 0;
        // The forcing chains' limit, for the first of the hints it was
        // computed with.
        let mut limit: Option<(Option<Order>, Option<usize>)> = None;
        for (c, &mask) in masks.iter().enumerate() {
            if cx.interrupted() {
                return;
            }
            let live = cell_cands(c, mask);
            let n = mask.count_ones() as usize;
            if n < pass.min_cell.max(1) || n > pass.max_cell {
                continue;
            }
            // Unary searches: cycles and forcing chains.
            for z in live.clone() {
                if ahead {
                    while let Some((y, h)) = later.get_mut(li)
                        && *y == z
                    {
                        col.take(h.take().expect("put back once"));
                        li += 1;
                    }
                } else if let Some(cc) = cyc.filter(|cc| n >= cc.min_cell) {
                    cycle_hints(cx, &prop, (pi, cc), z, col, &mut pool.off);
                }
                if let Some(fc) = forc.filter(|fc| n >= fc.min_cell) {
                    for (on, wanted) in [(true, pass.assume_on), (false, pass.assume_off)] {
                        if !wanted {
                            continue;
                        }
                        let lim = match limit {
                            _ if !col.first => None,
                            Some((b, m)) if b == col.best => m,
                            _ => {
                                let m = col.limit(fc, later_best);
                                limit = Some((col.best, m));
                                m
                            }
                        };
                        let g = &mut pool.off;
                        g.clear();
                        if let Some(t) = prop.forcing(cx, g, lit(z, on), lim) {
                            let recipe = Recipe::Forcing {
                                pass: pi,
                                source: lit(z, on),
                            };
                            let k = col.hints.len();
                            col.add(fc, g.node(t).lit, g.ancestor_count(t), recipe);
                            col.keep_chains(k, || vec![g.extract(t)]);
                        }
                    }
                }
            }
            if !binary {
                continue;
            }
            // Binary searches: each candidate on (and off), to a fixpoint.
            for (i, z) in live.clone().enumerate() {
                let g_on = &mut pool.on[i];
                let absurd_on = match pool.cached[z].take() {
                    Some((g, absurd)) => {
                        g_on.restore(&g);
                        absurd
                    }
                    None => {
                        g_on.clear();
                        g_on.add(lit(z, true), Cause::Assumption, &[]);
                        prop.chain(cx, g_on)
                    }
                };
                if let (Some(cc), Some((a, b))) = (contra, absurd_on)
                    && n >= cc.min_cell
                    && pass.assume_on
                {
                    let n_ab = g_on.complexity_of(&[a, b]);
                    let recipe = Recipe::Contra {
                        pass: pi,
                        source: lit(z, true),
                    };
                    let k = col.hints.len();
                    col.add(cc, lit(z, false), n_ab, recipe);
                    col.keep_chains(k, || vec![g_on.extract(a), g_on.extract(b)]);
                }
                let need_off =
                    pass.assume_off && (contra.is_some() || dbl.is_some_and(|d| n >= d.min_cell));
                if need_off {
                    let g_off = &mut pool.off;
                    g_off.clear();
                    g_off.add(lit(z, false), Cause::Assumption, &[]);
                    let absurd_off = prop.chain(cx, g_off);
                    if let (Some(cc), Some((a, b))) = (contra, absurd_off)
                        && n >= cc.min_cell
                    {
                        let n_ab = g_off.complexity_of(&[a, b]);
                        let recipe = Recipe::Contra {
                            pass: pi,
                            source: lit(z, false),
                        };
                        let k = col.hints.len();
                        col.add(cc, lit(z, true), n_ab, recipe);
                        col.keep_chains(k, || vec![g_off.extract(a), g_off.extract(b)]);
                    }
                    if let Some(dc) = dbl.filter(|d| n >= d.min_cell) {
                        let g_on = &pool.on[i];
                        let g_off = &pool.off;
                        for wanted_on in [true, false] {
                            for t in nodes_in_order(g_on) {
                                let l = g_on.node(t).lit;
                                if lit_on(l) != wanted_on {
                                    continue;
                                }
                                if let Some(u) = g_off.get(l) {
                                    let n = Graph::complexity_across([(g_on, t), (g_off, u)]);
                                    let recipe = Recipe::Double {
                                        pass: pi,
                                        z,
                                        target: l,
                                    };
                                    col.add(dc, l, n, recipe);
                                }
                            }
                        }
                    }
                }
                if let Some(rc) = region.filter(|r| n >= r.min_cell) {
                    self.regions(cx, &prop, (pi, rc), col, pool, i, z);
                }
            }
            if let Some(cc) = cellc.filter(|cc| n >= cc.min_cell) {
                let k = n;
                for wanted_on in [true, false] {
                    let first = &pool.on[0];
                    for t in nodes_in_order(first) {
                        let l = first.node(t).lit;
                        if lit_on(l) != wanted_on || !pool.on[1..k].iter().all(|g| g.contains(l)) {
                            continue;
                        }
                        let n = Graph::complexity_across(
                            pool.on[..k].iter().map(|g| (g, g.get(l).unwrap_or(0))),
                        );
                        let recipe = Recipe::Cell {
                            pass: pi,
                            cell: c,
                            target: l,
                        };
                        col.add(cc, l, n, recipe);
                    }
                }
            }
        }
    }

    /// Region conclusions for candidate `z` (the `i`-th of its cell, whose
    /// "on" graph is `pool.on[i]`): each house where `z` is the first place
    /// of its digit, and the digit has two places or more.
    #[allow(clippy::too_many_arguments)]
    fn regions(
        &self,
        cx: &mut SearchCx,
        prop: &Prop,
        (pi, rc): (usize, &Conclude),
        col: &mut Collector,
        pool: &mut Pool,
        i: usize,
        z: usize,
    ) {
        let state = col.state;
        let (c, d) = (cand_cell(z), cand_digit(z));
        for k in HOUSE_ORDER {
            let h = cell_houses(c)[k];
            let places: Vec<usize> = house_cells(h)
                .into_iter()
                .filter(|&o| state.cands.contains(cand(o, d)))
                .collect();
            if places.len() < 2 || places[0] != c {
                continue;
            }
            for (j, &o) in places.iter().enumerate().skip(1) {
                // Every place after the first is a later cell: its own
                // binary search takes this propagation from the cache.
                let y = cand(o, d);
                let g = &mut pool.region[j];
                match &pool.cached[y] {
                    Some((c, _)) => g.restore(c),
                    None => {
                        g.clear();
                        g.add(lit(y, true), Cause::Assumption, &[]);
                        let absurd = prop.chain(cx, g);
                        let mut saved = SavedGraph::default();
                        g.save(&mut saved);
                        pool.cached[y] = Some((saved, absurd));
                    }
                }
            }
            let own = &pool.on[i];
            let others = &pool.region[1..places.len()];
            for wanted_on in [true, false] {
                for t in nodes_in_order(own) {
                    let l = own.node(t).lit;
                    if lit_on(l) != wanted_on || !others.iter().all(|g| g.contains(l)) {
                        continue;
                    }
                    let n = Graph::complexity_across(
                        std::iter::once((own, t))
                            .chain(others.iter().map(|g| (g, g.get(l).unwrap_or(0)))),
                    );
                    let recipe = Recipe::Region {
                        pass: pi,
                        z,
                        house: h,
                        target: l,
                    };
                    col.add(rc, l, n, recipe);
                }
            }
        }
    }
}

/// The cycles from candidate `z` on in pass `pi`, concluded by `cc`, as
/// hints of `col` (graph `g` is the search's).
fn cycle_hints(
    cx: &mut SearchCx,
    prop: &Prop,
    (pi, cc): (usize, &Conclude),
    z: usize,
    col: &mut Collector,
    g: &mut Graph,
) {
    g.clear();
    for (nth, dst) in prop.cycles(cx, g, z).into_iter().enumerate() {
        if let Some(rem) = cycle_removable(&prop.orig, g, dst) {
            let recipe = Recipe::Cycle { pass: pi, z, nth };
            let k = col.hints.len();
            col.push(cc, rem, None, g.ancestor_count(dst), recipe);
            col.keep_chains(k, || vec![g.extract(dst)]);
        }
    }
}

/// The nodes of a graph that are their literal's latest, in order of
/// insertion (a branch's sets of literals on and off, in SE's order).
fn nodes_in_order(g: &Graph) -> impl Iterator<Item = u32> + '_ {
    (0..g.len() as u32).filter(move |&n| g.get(g.node(n).lit) == Some(n))
}

/// Each cell with its peers, as a cell mask.
static SEEN: std::sync::LazyLock<Vec<u128>> = std::sync::LazyLock::new(|| {
    (0..N_CELLS)
        .map(|c| cell_houses(c).iter().fold(0u128, |m, &h| m | HOUSE_MASK[h]))
        .collect()
});

/// The eliminations of a cycle closing at node `dst`: candidates of the
/// cycle's digits (live in `live`, the search's state), outside the
/// cycle's cells, that see a cell of the cycle where the digit is on and
/// one where it is off.
fn cycle_removable(live: &Live, g: &Graph, dst: u32) -> Option<Bits> {
    // The cycle's cells, its digits, and per digit the cells that see a
    // cell of the cycle where the digit is on (`fwd`), off (`back`), as
    // cell masks.
    let (mut cells, mut digits) = (0u128, 0u16);
    let (mut fwd, mut back) = ([0u128; 9], [0u128; 9]);
    let mut p = dst;
    while let Some(&q) = g.parents(p).first() {
        let l = g.node(p).lit;
        let (c, d) = (cand_cell(lit_cand(l)), cand_digit(lit_cand(l)));
        cells |= 1u128 << c;
        digits |= 1 << d;
        if lit_on(l) {
            fwd[d] |= SEEN[c];
        } else {
            back[d] |= SEEN[c];
        }
        p = q;
    }
    let mut r = Bits::EMPTY;
    while digits != 0 {
        let d = digits.trailing_zeros() as usize;
        digits &= digits - 1;
        let mut m = fwd[d] & back[d] & !cells & live.planes[d];
        while m != 0 {
            let o = m.trailing_zeros() as usize;
            m &= m - 1;
            r.insert(cand(o, d));
        }
    }
    (!r.is_empty()).then_some(r)
}

impl TrialSearch {
    /// [`Searcher::search`]; with `first`, for the first match only (`f`
    /// stops the search at it), which may skip matches that sort after one
    /// already found.
    fn find(
        &self,
        cx: &mut SearchCx,
        state: &State,
        first: bool,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let _depth = DepthGuard::enter();
        let mut col = Collector {
            spec: &self.spec,
            state,
            hints: Vec::new(),
            // A trial applied in another's branches reports every match.
            eager: !cx.outcome_only && DEPTH.with(|d| d.get()) > 1,
            first,
            best: None,
        };
        // Graphs for implication passes (not needed by set passes), from
        // the thread's pool: a trial applied in another's branches is
        // searched thousands of times a step.
        let mut pool = PoolGuard(None);
        // Matches are reported in sorted order as soon as no later pass can
        // precede them: a later pass's matches rate at least its lowest
        // conclusion level. So a search that is stopped at its first match
        // skips the passes that could only come after it.
        let min_level = |p: &Pass| {
            p.concludes
                .iter()
                .map(|c| c.level.as_f64())
                .fold(f64::INFINITY, f64::min)
        };
        let passes = &self.spec.passes;
        let mut seen: Vec<Bits> = Vec::new();
        // A sweep's one match.
        if let Some((set, rounds)) = self.sweep_pass() {
            if let Some((refuted, complexity)) = self.run_sweep(cx, set, rounds, state) {
                let c = &passes[0].concludes[0];
                let recipe = Recipe::Sweep { pass: 0, refuted };
                col.push(c, refuted, None, complexity, recipe);
                for h in std::mem::take(&mut col.hints) {
                    self.report(cx.outcome_only, state, h, &mut seen, f)?;
                }
            }
            return if cx.interrupted() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
        }
        // The first match alone, by a pruned sweep (an engine stops there);
        // a caller that wants more gets them from the whole sweep below,
        // where this one is a repeat and is dropped.
        if let Some(set) = self.first_match_pass() {
            let rounds = passes[0].propagate.as_ref().and_then(|p| p.1);
            self.run_set_pass(cx, 0, &passes[0], set, rounds, &mut col, true);
            if cx.interrupted() {
                return ControlFlow::Break(());
            }
            for h in std::mem::take(&mut col.hints) {
                self.report(cx.outcome_only, state, h, &mut seen, f)?;
            }
        }
        for (i, pass) in passes.iter().enumerate() {
            if let Some((_, rounds)) = &pass.propagate {
                if let Some(set) = self.prepared[i].get() {
                    self.run_set_pass(cx, i, pass, set, *rounds, &mut col, false);
                }
            } else {
                let pool = pool.0.get_or_insert_with(|| {
                    POOLS
                        .with(|p| p.borrow_mut().pop())
                        .unwrap_or_else(|| Pool {
                            on: (0..9).map(|_| Graph::new()).collect(),
                            off: Graph::new(),
                            region: (0..9).map(|_| Graph::new()).collect(),
                            cached: (0..N_CANDS).map(|_| None).collect(),
                        })
                });
                self.run_pass(cx, i, pass, &mut col, pool);
            }
            if cx.interrupted() {
                return ControlFlow::Break(());
            }
            let bound = passes[i + 1..]
                .iter()
                .map(min_level)
                .fold(f64::INFINITY, f64::min);
            // A stable sort: ties keep the order in which they were found
            // (the kept rest, already sorted, was found before new matches).
            let mut hints = std::mem::take(&mut col.hints);
            hints.sort_by(|a, b| {
                a.difficulty
                    .partial_cmp(&b.difficulty)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(a.complexity.cmp(&b.complexity))
                    .then(a.key.cmp(&b.key))
            });
            let rest = hints.split_off(hints.partition_point(|h| h.difficulty < bound));
            col.hints = rest;
            for h in hints {
                self.report(cx.outcome_only, state, h, &mut seen, f)?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl Searcher for TrialSearch {
    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.find(cx, state, false, f)
    }

    fn first(&self, cx: &mut SearchCx, board: &crate::grid::board::Board) -> Option<Found> {
        let mut found = None;
        let _ = self.find(cx, &board.state, true, &mut |m| {
            found = Some(m);
            ControlFlow::Break(())
        });
        found
    }

    /// What a match found on `branch` relies on (when a trial rule is
    /// applied inside another's branch): every literal on among its chains'
    /// ancestors that a cell (a cell conclusion's assumptions too) or a
    /// house (a region conclusion's assumptions too) made on depends on the
    /// candidates of that cell, or of that digit in that house, that were
    /// live in `original` and are gone from `branch`.
    ///
    /// A cycle is read in both directions, as Sudoku Explainer reads it:
    /// in the reverse direction every literal of the cycle is flipped and
    /// keeps the cause of the link that made it in the forward direction,
    /// so an "off" literal that a house (or a cell) made off stands, on,
    /// for a literal that house (or cell) made on.
    fn parents(&self, original: &State, branch: &State, evidence: &Evidence) -> Bits {
        let Evidence::Implications(imp) = evidence else {
            return Bits::EMPTY;
        };
        let gone = original.cands.minus(&branch.cands);
        let both_ways = imp.conclusion == Mode::Cycle.word();
        let mut out = Bits::EMPTY;
        for chain in &imp.chains {
            for node in &chain.nodes {
                if !lit_on(node.lit) && !both_ways {
                    continue;
                }
                let z = lit_cand(node.lit);
                let house = match node.cause {
                    Cause::Cell => None,
                    Cause::House(h) => Some(usize::from(h)),
                    Cause::Assumption if imp.conclusion == Mode::Cell.word() => None,
                    Cause::Assumption if imp.region.is_some() => imp.region,
                    _ => continue,
                };
                let from = match house {
                    None => TABLES.cell[cand_cell(z)],
                    Some(h) => HOUSE_DIGIT[h * 9 + cand_digit(z)],
                };
                out = out.or(&gone.and(&from));
            }
        }
        out
    }

    fn render(&self, _before: &State, evidence: &Evidence) -> String {
        let Evidence::Implications(imp) = evidence else {
            return String::new();
        };
        // Each chain, then the variables its branch emptied (a sweep has
        // several such branches, separated by `;`).
        let chains: Vec<String> = imp
            .chains
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut t = format!("({})", c.text());
                if let Some(e) = imp.empty.get(i).filter(|e| !e.is_empty()) {
                    let vars: Vec<String> = e.iter().map(|&v| var_name(v)).collect();
                    t.push_str(&format!(": no candidate left for {}", vars.join(", ")));
                }
                t
            })
            .collect();
        let emptied = imp.empty.iter().any(|e| !e.is_empty());
        let sep = if emptied { "; " } else { " " };
        format!("{} {}", imp.conclusion, chains.join(sep))
    }

    fn kind(&self) -> super::SearcherKind<'_> {
        super::SearcherKind::Trial(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hard puzzle (hard-972, line 900): its start state has forcing
    /// chains and cycles of every kind of static step.
    const PUZZLE: &str =
        "...........1..2.34..2.3156....2.43.5.2..5641..4.31..26..4....5...7.63...8.9..5...";

    /// The static steps of X, Y and XY chains.
    fn chain_steps() -> [Steps; 3] {
        let x = Steps {
            on_off_house: true,
            off_on_house: true,
            ..Steps::default()
        };
        let y = Steps {
            on_off_cell: true,
            on_off_house: true,
            off_on_cell: true,
            ..Steps::default()
        };
        let xy = Steps {
            off_on_house: true,
            ..y
        };
        [x, y, xy]
    }

    /// A trial whose applied rules extend another's takes the other's
    /// propagations in the same state and finds the same matches, in the
    /// same order, with the same evidence, as when it makes them alone.
    #[test]
    fn a_trial_extending_anothers_rules_finds_the_same_matches() {
        let set = crate::ruleset::load("se").unwrap();
        let rule = |name: &str| {
            set.rules
                .iter()
                .find(|r| r.head.name == name)
                .unwrap()
                .searcher
                .clone()
        };
        let (plus, fc) = (
            rule("dynamic-forcing-chains-plus"),
            rule("dynamic-forcing-chains-plus-fc"),
        );
        let givens: [u8; 81] =
            std::array::from_fn(|i| PUZZLE.as_bytes()[i].saturating_sub(b'0').min(9));
        let state = State::from_givens(&givens);
        // Each run in a thread of its own: a memo of its own.
        let run = |rules: Vec<Arc<dyn Searcher>>| {
            std::thread::spawn(move || {
                let out: Vec<Vec<String>> = rules
                    .iter()
                    .map(|r| {
                        let mut found = Vec::new();
                        let _ = r.search(&mut SearchCx::new(None), &state, &mut |f| {
                            found.push(format!(
                                "{:?} {:?} {:?} {}",
                                f.kind,
                                f.conclusions.iter().collect::<Vec<_>>(),
                                f.grade,
                                r.render(&state, &f.evidence)
                            ));
                            ControlFlow::Continue(())
                        });
                        found
                    })
                    .collect();
                (out, MEMO.with(|m| m.borrow().resumed))
            })
            .join()
            .unwrap()
        };
        let (alone, resumed_alone) = run(vec![fc.clone()]);
        let (after, resumed_after) = run(vec![plus, fc]);
        assert_eq!(resumed_alone, 0);
        assert!(resumed_after > 100, "{resumed_after}");
        assert!(!alone[0].is_empty());
        assert_eq!(after[1], alone[0]);
    }

    /// Static reachability changes nothing a forcing chain or cycle search
    /// finds: the same chains (so the same complexities and paths), the
    /// same cycle eliminations, the same node counts for forcing chains
    /// and no more for cycles.
    #[test]
    fn reachability_keeps_forcing_chains_and_cycles() {
        let givens: [u8; 81] =
            std::array::from_fn(|i| PUZZLE.as_bytes()[i].saturating_sub(b'0').min(9));
        let state = State::from_givens(&givens);
        let (mut hits, mut cycles, mut spared) = (0, 0, 0);
        for steps in chain_steps() {
            let plain = Prop::new(&state, steps, false);
            let pruned = Prop::new(&state, steps, false);
            // Components alone (a pass that looks for cycles only).
            let comps = Prop::new(&state, steps, false);
            let roots = || {
                state
                    .cands
                    .iter()
                    .flat_map(|z| [lit(z, true), lit(z, false)])
            };
            pruned.reach_from(roots(), true);
            comps.reach_from(roots(), false);
            let (mut g1, mut g2) = (Graph::new(), Graph::new());
            for z in state.cands.iter() {
                for on in [true, false] {
                    let (mut c1, mut c2) = (SearchCx::new(None), SearchCx::new(None));
                    g1.clear();
                    g2.clear();
                    let a = plain.forcing(&mut c1, &mut g1, lit(z, on), None);
                    let b = pruned.forcing(&mut c2, &mut g2, lit(z, on), None);
                    assert_eq!(a.map(|t| g1.extract(t)), b.map(|t| g2.extract(t)));
                    assert_eq!(
                        a.map(|t| g1.ancestor_count(t)),
                        b.map(|t| g2.ancestor_count(t))
                    );
                    assert_eq!(c1.nodes, c2.nodes, "{}", implication::lit_name(lit(z, on)));
                    hits += usize::from(a.is_some());
                    // A limit at the chain's complexity finds it, one less
                    // nothing; the node count stays.
                    if let Some(t) = b {
                        let k = g2.ancestor_count(t);
                        for limit in [k - 1, k] {
                            let (mut c4, mut g4) = (SearchCx::new(None), Graph::new());
                            let d = pruned.forcing(&mut c4, &mut g4, lit(z, on), Some(limit));
                            assert_eq!(
                                d.map(|t| g4.extract(t)),
                                (limit == k).then(|| g2.extract(t))
                            );
                            assert_eq!(c4.nodes, c2.nodes);
                        }
                    }
                }
                let (mut c1, mut c2) = (SearchCx::new(None), SearchCx::new(None));
                g1.clear();
                g2.clear();
                let a = plain.cycles(&mut c1, &mut g1, z);
                let b = pruned.cycles(&mut c2, &mut g2, z);
                let (mut c3, mut g3) = (SearchCx::new(None), Graph::new());
                let b3 = comps.cycles(&mut c3, &mut g3, z);
                assert_eq!(c3.nodes, c2.nodes);
                assert_eq!(
                    b.iter().map(|&d| g2.extract(d)).collect::<Vec<_>>(),
                    b3.iter().map(|&d| g3.extract(d)).collect::<Vec<_>>()
                );
                assert_eq!(a.len(), b.len());
                for (&d1, &d2) in a.iter().zip(&b) {
                    assert_eq!(g1.extract(d1), g2.extract(d2));
                    assert_eq!(g1.ancestor_count(d1), g2.ancestor_count(d2));
                    assert_eq!(
                        cycle_removable(&plain.orig, &g1, d1),
                        cycle_removable(&pruned.orig, &g2, d2)
                    );
                }
                assert!(c2.nodes <= c1.nodes);
                cycles += a.len();
                spared += c1.nodes - c2.nodes;
            }
        }
        assert!(
            hits > 0 && cycles > 0 && spared > 0,
            "{hits} {cycles} {spared}"
        );
    }

    /// A search for the first match only finds the first match of the
    /// whole search, with the same evidence and node count, on states of
    /// the hard puzzle where forcing chains and cycles apply.
    #[test]
    fn the_first_match_alone_is_the_searchs_first() {
        let set = crate::ruleset::load("se").unwrap();
        let rule = set
            .rules
            .iter()
            .find(|r| r.head.name == "forcing-chains-and-cycles")
            .unwrap();
        let givens: [u8; 81] =
            std::array::from_fn(|i| PUZZLE.as_bytes()[i].saturating_sub(b'0').min(9));
        let mut state = State::from_givens(&givens);
        let show = |f: &Found, state: &State| {
            format!(
                "{:?} {:?} {:?} {}",
                f.kind,
                f.conclusions.iter().collect::<Vec<_>>(),
                f.grade,
                rule.searcher.render(state, &f.evidence)
            )
        };
        let mut steps = 0;
        // Each state after the one before without the first match's
        // eliminations (placements are not applied).
        while steps < 6 {
            let (mut c1, mut c2) = (SearchCx::new(None), SearchCx::new(None));
            let mut whole = None;
            let _ = rule.searcher.search(&mut c1, &state, &mut |f| {
                whole = Some(f);
                ControlFlow::Break(())
            });
            let first = rule
                .searcher
                .first(&mut c2, &crate::grid::board::Board::new(&state));
            assert_eq!(
                whole.as_ref().map(|f| show(f, &state)),
                first.as_ref().map(|f| show(f, &state))
            );
            assert_eq!(c1.nodes, c2.nodes);
            let Some(f) = whole else { break };
            steps += 1;
            match f.kind {
                ConclusionKind::Eliminate => state.cands = state.cands.minus(&f.conclusions),
                ConclusionKind::Assert => break,
            }
        }
        assert!(steps >= 2, "{steps}");
    }

    /// Static inference lists kept from an earlier pass (same candidates,
    /// same steps for a polarity) are the lists computed afresh, and only
    /// those are kept.
    #[test]
    fn kept_static_inferences_are_the_fresh_ones() {
        let givens: [u8; 81] =
            std::array::from_fn(|i| PUZZLE.as_bytes()[i].saturating_sub(b'0').min(9));
        let first = State::from_givens(&givens);
        let mut second = first;
        second.cands.remove(first.cands.min().expect("a candidate"));
        let [x, y, xy] = chain_steps();
        let lists = |inf: &Infer, l: u16| -> Vec<(u16, Cause)> {
            let (s, n) = inf.span[usize::from(l)];
            inf.cache[s as usize..(s + n) as usize]
                .iter()
                .map(|i| (i.lit, i.cause))
                .collect()
        };
        // (state, steps, on lists kept, off lists kept) in turn, one
        // propagation at a time: each takes the scratch the one before
        // gave back to the pool.
        let runs = [
            (&first, x, false, false),
            (&first, y, false, false),
            (&first, xy, true, false),
            (&first, xy, true, true),
            (&second, xy, false, false),
            (&first, x, false, false),
        ];
        for (state, steps, on_kept, off_kept) in runs {
            let prop = Prop::new(state, steps, false);
            let mut sc = prop.scratch.borrow_mut();
            let inf = &mut sc.as_deref_mut().expect("a scratch").infer;
            let done = inf.done;
            let (mut fresh, mut kept) = (Infer::default(), [0, 0]);
            fresh.keep_for(&state.cands, steps);
            for z in state.cands.iter() {
                for on in [true, false] {
                    let l = lit(z, on);
                    let was = done.contains(usize::from(l));
                    assert_eq!(was, if on { on_kept } else { off_kept }, "{l}");
                    kept[usize::from(!on)] += usize::from(was);
                    if !was {
                        prop.infer_static(l, inf);
                    }
                    prop.infer_static(l, &mut fresh);
                    assert_eq!(lists(inf, l), lists(&fresh, l), "{l}");
                }
            }
            let n = state.cands.len();
            assert_eq!(kept, [n * usize::from(on_kept), n * usize::from(off_kept)]);
        }
    }
}
