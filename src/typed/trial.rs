//! Trial rules on any type: T&E(n) and Metcalf's contradiction filter, the
//! passes of a trial rule that `propagate with SET` ([`TrialSpec`]), run
//! on a [`Frame`] with the linked set compiled for the type.
//!
//! A pass assumes each live candidate of the cells holding between
//! `min_cell` and `max_cell` live candidates (cell by cell, symbol by
//! symbol), on and/or off; the linked set runs in the branch to its
//! fixpoint (the first match of the first rule that has one, again and
//! again) or for N rounds (each applying every match found on the
//! round's state); a branch that leaves a CSP variable without a value
//! and a candidate refutes its assumption. The match's complexity is the
//! assumption plus the literals the set concluded; matches sort by
//! difficulty (level plus increment), complexity, key, ties in the order
//! found. A `sweep` pass has one match: the candidates refuted while
//! they are tried in order, each removed before the next is tried.
//!
//! These are the classic definitions (`search::trial::set_pass`,
//! `search::trial::prepared`), read on local candidates: a cell is a
//! variable of the type without a house. A cell range whose upper end is
//! 9, the language's largest (and its default: `cells` is written for
//! 9×9), reaches every cell of a larger type: T&E assumes the candidates
//! of a 16×16 cell with 12 of them. Passes that propagate by
//! implication steps (forcing chains, cycles, …) or `apply` a set have no
//! typed form yet: such a rule is [`Unfit::Unsupported`], naming the
//! clause.
//!
//! The linked set is resolved as the classic linker resolves it (a set
//! name from the rule file's folder, [`Library::link`]) and compiled with
//! [`super::compile`]: a nested trial (T&E(2) propagates with the set
//! holding T&E(1)) is a trial of its own.

use super::frame::Frame;
use super::state::State;
use super::{Evidence, Form, Found, TypedRule, Unfit, space_named};
use crate::grid::bits::BitSet;
use crate::model::Model;
use crate::rating::Rating;
use crate::ruleset::{Library, Location};
use crate::search::pattern::CountPlan;
use crate::search::trial::{Conclude, Increment, Mode, TrialSpec};
use crate::search::{ConclusionKind, Grade, SearchCx};
use std::path::Path;

/// A trial rule, for the typed back end.
#[derive(Clone, Debug)]
pub struct TypedTrial {
    /// The rule head's complexity (the grade's ordering key).
    complexity: i64,
    /// The rating label of matches whose conclusion has none.
    label: String,
    increment: Increment,
    passes: Vec<SetPass>,
    /// Whether a pass propagates with pattern rules over elements
    /// ([`super::TypedSet::elements`]).
    elements: bool,
}

/// One pass: which candidates are assumed, the set a branch runs, what
/// concludes.
#[derive(Clone, Debug)]
struct SetPass {
    min_cell: usize,
    max_cell: usize,
    assume_on: bool,
    assume_off: bool,
    sweep: bool,
    /// `rounds N`; `None`: to the fixpoint.
    rounds: Option<usize>,
    /// The linked set's rules that apply to the type, in order.
    members: Vec<Member>,
    conclude: Conclude,
}

/// A rule of a linked set, for branches: in its count form when it has
/// one (as the classic branch runner reads it, `search::trial::Prepared`),
/// else the typed rule.
#[derive(Clone, Debug)]
enum Member {
    /// The variables of a model space with `count` live candidates, each
    /// concluding on its live candidates.
    Count {
        space: usize,
        count: usize,
        kind: ConclusionKind,
    },
    Rule(TypedRule),
}

/// How a match was found, to replay its branches when it is shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Recipe {
    /// The branch of pass `pass` from local candidate `z` on (off).
    Set { pass: usize, z: usize, on: bool },
    /// A sweep's branches: each refuted local candidate on, in order, each
    /// in the state without the ones before it.
    Sweep { pass: usize, refuted: Vec<usize> },
}

/// A match before sorting (see [`TypedTrial::matches`]).
struct Hint<const W: usize> {
    difficulty: f64,
    complexity: usize,
    key: i64,
    /// What the match takes away (an "on" result: the cell's other
    /// candidates).
    removable: BitSet<W>,
    /// An "on" result: its candidate.
    placed: Option<usize>,
    level: Rating,
    label: Option<String>,
    recipe: Recipe,
}

/// The location of the rule file a rule head names (`rules/te.rules` for
/// a built-in file not on disk), from which its links are resolved.
fn rule_location(file: &str) -> Location {
    if file == "<stdin>" {
        return Location::Stdin;
    }
    if !Path::new(file).exists()
        && let Some(k) = file.strip_prefix("rules/")
        && crate::ruleset::source::EMBEDDED
            .iter()
            .any(|(p, _)| *p == k)
    {
        return Location::BuiltIn(k.to_string());
    }
    Location::Disk(file.into())
}

impl TypedTrial {
    /// The trial rule of `spec` (written in `file`) on `model`, its linked
    /// sets compiled for the type, or why it cannot run there.
    pub fn of(spec: &TrialSpec, model: &Model, file: &str) -> Result<TypedTrial, Unfit> {
        let unsupported = |what: String| {
            Err(Unfit::Unsupported(format!(
                "{what}; the typed back end runs trial passes that `propagate with` a rule set \
                 and `conclude contradiction`"
            )))
        };
        let mut passes = Vec::new();
        let mut elements = false;
        for (i, p) in spec.passes.iter().enumerate() {
            let n = i + 1;
            if let Some(name) = &p.apply {
                return unsupported(format!("its pass {n} has `apply {name}`"));
            }
            let Some((name, rounds)) = &p.propagate else {
                return unsupported(format!(
                    "its pass {n} propagates by implication steps (no `propagate with`)"
                ));
            };
            if let Some(c) = p.concludes.iter().find(|c| c.mode != Mode::Contradiction) {
                return unsupported(format!("its pass {n} has `conclude {}`", c.mode.word()));
            }
            let Some(conclude) = p.wants(Mode::Contradiction).cloned() else {
                return unsupported(format!("its pass {n} concludes nothing"));
            };
            let set = Library::new()
                .link(name, &rule_location(file))
                .map_err(|e| {
                    Unfit::Unsupported(format!(
                        "its pass {n} propagates with `{name}`, which does not load: {e}"
                    ))
                })?;
            let typed = super::compile(&set, model).map_err(|e| {
                Unfit::Unsupported(format!(
                    "its pass {n} propagates with `{name}`, which does not run on the type: {e}"
                ))
            })?;
            elements |= typed.elements;
            if rounds.is_some()
                && let Some(r) = typed
                    .rules
                    .iter()
                    .find(|r| matches!(r.form, Form::Chain(_)))
            {
                return unsupported(format!(
                    "its pass {n} propagates with `{name}` in rounds, and the chain rule `{}` \
                     gives its first match only",
                    r.rule.head.name
                ));
            }
            let members = typed
                .rules
                .into_iter()
                .map(|r| match CountPlan::of(&*r.rule.searcher) {
                    Some(c) if matches!(r.form, Form::Var(_)) => {
                        match space_named(model, c.space.name()) {
                            Some(space) => Member::Count {
                                space,
                                count: c.count,
                                kind: c.kind,
                            },
                            None => Member::Rule(r),
                        }
                    }
                    _ => Member::Rule(r),
                })
                .collect();
            passes.push(SetPass {
                min_cell: p.min_cell,
                // The language's largest cell size, 9 (its default upper
                // end), reaches every cell of a larger type.
                max_cell: if p.max_cell >= 9 {
                    usize::MAX
                } else {
                    p.max_cell
                },
                assume_on: p.assume_on,
                assume_off: p.assume_off,
                sweep: p.sweep,
                rounds: *rounds,
                members,
                conclude,
            });
        }
        if passes.is_empty() {
            return unsupported("it has no pass".into());
        }
        Ok(TypedTrial {
            complexity: spec.complexity,
            label: spec.label.clone(),
            increment: spec.increment,
            passes,
            elements,
        })
    }

    /// Whether a pass propagates with pattern rules over elements.
    pub fn elements(&self) -> bool {
        self.elements
    }

    /// The rule's first match on `st`: its matches' first in report order.
    pub fn first<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Found<W>> {
        if let [pass] = self.passes.as_slice() {
            if pass.sweep {
                return self.sweep(cx, frame, st).map(|h| self.found(h));
            }
            // One pass concluding on contradictions: its matches sort by
            // complexity, so the first is found alone, pruning every
            // branch that cannot beat the best so far.
            if let Some(h) = self.best(cx, frame, st) {
                return Some(self.found(h));
            }
            if cx.interrupted() {
                return None;
            }
        }
        self.matches(cx, frame, st).into_iter().next()
    }

    /// Every match on `st`, in report order, those removing what an
    /// earlier one removes left out.
    pub fn matches<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Vec<Found<W>> {
        if let [pass] = self.passes.as_slice()
            && pass.sweep
        {
            return self
                .sweep(cx, frame, st)
                .map(|h| self.found(h))
                .into_iter()
                .collect();
        }
        let mut hints = Vec::new();
        let base = Branch::of(frame, st);
        for pi in 0..self.passes.len() {
            for (z, on) in self.assumptions(pi, frame, st) {
                if cx.interrupted() {
                    return Vec::new();
                }
                let mut branch = base.assumed(frame, z, on);
                if let Some(n) = self.run(pi, cx, frame, &mut branch, None, None) {
                    hints.extend(self.hint(pi, frame, st, z, on, 1 + n));
                }
            }
        }
        hints.sort_by(|a, b| {
            a.difficulty
                .partial_cmp(&b.difficulty)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.complexity.cmp(&b.complexity))
                .then(a.key.cmp(&b.key))
        });
        let mut seen: Vec<BitSet<W>> = Vec::new();
        let mut out = Vec::new();
        for h in hints {
            if seen.contains(&h.removable) {
                continue;
            }
            seen.push(h.removable);
            out.push(self.found(h));
        }
        out
    }

    /// The first match of the rule's one pass (a contradiction pass): the
    /// least complexity, the first found among equals; `None` also when
    /// that match takes nothing away (an "off" assumption refuted in a
    /// cell with one candidate: the caller then sorts every match).
    fn best<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Hint<W>> {
        let assumptions = self.assumptions(0, frame, st);
        let base = Branch::of(frame, st);
        let branch = |cx: &mut SearchCx, (z, on): (usize, bool), limit: Option<usize>| {
            let mut b = base.assumed(frame, z, on);
            self.run(0, cx, frame, &mut b, limit, None)
        };
        // An assumption contradicted by itself has the least complexity.
        for &a in &assumptions {
            if cx.interrupted() {
                return None;
            }
            if branch(cx, a, Some(0)).is_some() {
                return self.hint(0, frame, st, a.0, a.1, 1);
            }
        }
        // Then a branch of 1 + n literals beats the best so far, b, when
        // n <= b - 2.
        let mut best: Option<(usize, (usize, bool))> = None;
        for &a in &assumptions {
            if cx.interrupted() {
                return None;
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
        let (k, (z, on)) = best?;
        self.hint(0, frame, st, z, on, k)
    }

    /// A sweep (the rule's one pass): each live candidate of the chosen
    /// cells, in order, assumed on in the current state; a refuted one is
    /// removed from it before the next is tried.
    fn sweep<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Hint<W>> {
        let pass = &self.passes[0];
        let min_cell = pass.min_cell.max(1).max(pass.conclude.min_cell);
        let mut current = Branch::of(frame, st);
        let mut refuted = Vec::new();
        let mut complexity = 0;
        for cv in cell_vars(frame) {
            for z in st.var_live(frame, cv).iter() {
                if cx.interrupted() || current.empty > 0 {
                    break;
                }
                let n = usize::from(current.counts[cv]);
                if n < min_cell || n > pass.max_cell || !current.st.cands.contains(z) {
                    continue;
                }
                let mut branch = current.assumed(frame, z, true);
                if let Some(k) = self.run(0, cx, frame, &mut branch, None, None) {
                    refuted.push(z);
                    complexity = complexity.max(1 + k);
                    current.remove(frame, z);
                }
            }
        }
        if refuted.is_empty() || cx.interrupted() {
            return None;
        }
        let mut removable = BitSet::EMPTY;
        for &z in &refuted {
            removable.insert(z);
        }
        let c = &pass.conclude;
        let (level, difficulty) = self.level(c, complexity);
        Some(Hint {
            difficulty,
            complexity,
            key: c.key,
            removable,
            placed: None,
            level,
            label: c.label.clone(),
            recipe: Recipe::Sweep { pass: 0, refuted },
        })
    }

    /// The level and the difficulty (its sort key) of a match of
    /// conclusion `c` with `complexity`.
    fn level(&self, c: &Conclude, complexity: usize) -> (Rating, f64) {
        let (tenths, added) = self.increment.of(complexity);
        let level = if tenths == 0 {
            c.level
        } else {
            c.level.plus_tenths(tenths)
        };
        (level, c.level.as_f64() + added)
    }

    /// The match of pass `pi` whose assumption `z` on (off) was refuted
    /// with `complexity`, unless it takes nothing away.
    fn hint<const W: usize>(
        &self,
        pi: usize,
        frame: &Frame<W>,
        st: &State<W>,
        z: usize,
        on: bool,
        complexity: usize,
    ) -> Option<Hint<W>> {
        // The refuted assumption's negation: `z` off, or `z` on (its
        // cell's other candidates off).
        let (removable, placed) = if on {
            (BitSet::single(z), None)
        } else {
            let mut r = cell_of(frame, z).map_or(BitSet::EMPTY, |cv| st.var_live(frame, cv));
            r.remove(z);
            (r, Some(z))
        };
        if removable.is_empty() {
            return None;
        }
        let c = &self.passes[pi].conclude;
        let (level, difficulty) = self.level(c, complexity);
        Some(Hint {
            difficulty,
            complexity,
            key: c.key,
            removable,
            placed,
            level,
            label: c.label.clone(),
            recipe: Recipe::Set { pass: pi, z, on },
        })
    }

    fn found<const W: usize>(&self, h: Hint<W>) -> Found<W> {
        let (kind, conclusions) = match h.placed {
            Some(z) => (ConclusionKind::Assert, BitSet::single(z)),
            None => (ConclusionKind::Eliminate, h.removable),
        };
        Found {
            kind,
            conclusions,
            grade: Some(Grade {
                complexity: self.complexity,
                level: h.level,
                label: h.label.unwrap_or_else(|| self.label.clone()),
            }),
            evidence: Evidence::Trial(h.recipe),
        }
    }

    /// The assumptions of pass `pi` on `st`, in order: cell by cell (cells
    /// with as many live candidates as the pass and its conclusion want),
    /// candidate by candidate, on then off as the pass assumes them.
    fn assumptions<const W: usize>(
        &self,
        pi: usize,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Vec<(usize, bool)> {
        let pass = &self.passes[pi];
        let mut out = Vec::new();
        for cv in cell_vars(frame) {
            let live = st.var_live(frame, cv);
            let n = live.len();
            if n < pass.min_cell.max(1) || n > pass.max_cell || n < pass.conclude.min_cell {
                continue;
            }
            for z in live.iter() {
                for (on, wanted) in [(true, pass.assume_on), (false, pass.assume_off)] {
                    if wanted {
                        out.push((z, on));
                    }
                }
            }
        }
        out
    }

    /// Runs pass `pi`'s set in `branch` to its fixpoint or for its rounds.
    /// `Some(n)`: the branch ends with a variable without a value and a
    /// candidate, the set having concluded `n` literals; `None` otherwise,
    /// and when a `limit` is given, as soon as the branch has concluded
    /// more literals than it (or must, to change). With a `trace`, each
    /// literal concluded (local candidate, on) is pushed on it, in order.
    fn run<const W: usize>(
        &self,
        pi: usize,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        branch: &mut Branch<W>,
        limit: Option<usize>,
        mut trace: Option<&mut Vec<(usize, bool)>>,
    ) -> Option<usize> {
        let pass = &self.passes[pi];
        let over = |n: usize| limit.is_some_and(|m| n > m);
        let all = pass.rounds.is_some();
        let (mut round, mut applied) = (0, 0);
        let mut found: Vec<(ConclusionKind, BitSet<W>)> = Vec::new();
        loop {
            if branch.empty > 0 {
                return Some(applied);
            }
            if branch.st.solved(frame)
                || cx.interrupted()
                || pass.rounds.is_some_and(|r| round >= r)
                || over(applied + 1)
            {
                return None;
            }
            round += 1;
            found.clear();
            for m in &pass.members {
                let before = found.len();
                match m {
                    Member::Count { space, count, kind } => {
                        for v in frame_space(frame, *space) {
                            if usize::from(branch.counts[v]) == *count {
                                found.push((*kind, branch.st.var_live(frame, v)));
                                if !all {
                                    break;
                                }
                            }
                        }
                    }
                    Member::Rule(r) if all => each_match(r, cx, frame, &branch.st, &mut found),
                    Member::Rule(r) => found.extend(
                        r.first(cx, frame, &branch.st)
                            .map(|f| (f.kind, f.conclusions)),
                    ),
                }
                if !all && found.len() > before {
                    break;
                }
            }
            if found.is_empty() {
                return None;
            }
            for (kind, zs) in &found {
                for z in zs.iter() {
                    // A candidate no longer live is neither eliminated
                    // nor asserted.
                    if !branch.st.cands.contains(z) {
                        continue;
                    }
                    match kind {
                        ConclusionKind::Assert => branch.assert(frame, z),
                        ConclusionKind::Eliminate => branch.remove(frame, z),
                    }
                    applied += 1;
                    if let Some(t) = trace.as_deref_mut() {
                        t.push((z, *kind == ConclusionKind::Assert));
                    }
                }
                if over(applied) {
                    return None;
                }
            }
        }
    }

    /// The literals of the match's branches, replayed from `before`:
    /// each branch's assumption, then what propagation derived in it, in
    /// order (local candidates; `true` when asserted).
    pub fn literals<const W: usize>(
        &self,
        frame: &Frame<W>,
        before: &State<W>,
        recipe: &Recipe,
    ) -> Vec<(usize, bool)> {
        let mut cx = SearchCx::new(None);
        let mut out = Vec::new();
        let mut replay = |pass: usize, st: &State<W>, z: usize, on: bool| {
            let mut branch = Branch::of(frame, st).assumed(frame, z, on);
            let mut trace = Vec::new();
            self.run(pass, &mut cx, frame, &mut branch, None, Some(&mut trace));
            out.push((z, on));
            out.extend(trace);
        };
        match recipe {
            Recipe::Set { pass, z, on } => replay(*pass, before, *z, *on),
            Recipe::Sweep { pass, refuted } => {
                let mut current = *before;
                for &z in refuted {
                    replay(*pass, &current, z, true);
                    current.cands.remove(z);
                }
            }
        }
        out
    }

    /// The match in SudoRules notation, as the classic prints a trial's
    /// (`contradiction (r3c2=4 ⇒ r5c4=8): no candidate left for r2n4`),
    /// its branches replayed from `before`.
    pub fn render<const W: usize>(
        &self,
        frame: &Frame<W>,
        before: &State<W>,
        recipe: &Recipe,
    ) -> String {
        let mut cx = SearchCx::new(None);
        let mut replay = |pass: usize, st: &State<W>, z: usize, on: bool| {
            let mut branch = Branch::of(frame, st).assumed(frame, z, on);
            let mut trace = Vec::new();
            self.run(pass, &mut cx, frame, &mut branch, None, Some(&mut trace));
            let branch = branch.st;
            let lits: Vec<String> = std::iter::once((z, on))
                .chain(trace)
                .map(|(z, on)| lit_name(frame, z, on))
                .collect();
            let empty: Vec<String> = (0..frame.vars.len())
                .filter(|&v| !branch.decided(frame, v) && branch.var_live(frame, v).is_empty())
                .map(|v| frame.var_name(v))
                .collect();
            (lits.join(" ⇒ "), empty)
        };
        let branches = match recipe {
            Recipe::Set { pass, z, on } => vec![replay(*pass, before, *z, *on)],
            Recipe::Sweep { pass, refuted } => {
                let mut current = *before;
                let mut out = Vec::new();
                for &z in refuted {
                    out.push(replay(*pass, &current, z, true));
                    current.cands.remove(z);
                }
                out
            }
        };
        let emptied = branches.iter().any(|(_, e)| !e.is_empty());
        let chains: Vec<String> = branches
            .into_iter()
            .map(|(chain, empty)| {
                if empty.is_empty() {
                    format!("({chain})")
                } else {
                    format!("({chain}): no candidate left for {}", empty.join(", "))
                }
            })
            .collect();
        let sep = if emptied { "; " } else { " " };
        format!("{} {}", Mode::Contradiction.word(), chains.join(sep))
    }
}

/// Every match of `r` on `st` (a round of a set), pushed on `out`.
fn each_match<const W: usize>(
    r: &TypedRule,
    cx: &mut SearchCx,
    frame: &Frame<W>,
    st: &State<W>,
    out: &mut Vec<(ConclusionKind, BitSet<W>)>,
) {
    match &r.form {
        Form::Var(v) => v.each(cx, frame, st, &mut |f| {
            out.push((f.kind, f.conclusions));
            std::ops::ControlFlow::Continue(())
        }),
        Form::Pattern(p) => p.each(cx, frame, st, &mut |f| {
            out.push((f.kind, f.conclusions));
            std::ops::ControlFlow::Continue(())
        }),
        Form::Trial(t) => {
            let ms = t.matches(cx, frame, st);
            out.extend(ms.into_iter().map(|f| (f.kind, f.conclusions)));
        }
        // Refused in rounds by `TypedTrial::of`.
        Form::Chain(_) => {
            out.extend(r.first(cx, frame, st).map(|f| (f.kind, f.conclusions)));
        }
    }
}

/// A branch's state, with each frame variable's number of live
/// candidates and the number of variables left without a value and a
/// candidate, kept up to date (as the classic `grid::board::Board` keeps
/// them).
#[derive(Clone)]
struct Branch<const W: usize> {
    st: State<W>,
    counts: Vec<u16>,
    decided: Vec<bool>,
    /// Variables with neither a value nor a live candidate.
    empty: usize,
}

impl<const W: usize> Branch<W> {
    fn of(frame: &Frame<W>, st: &State<W>) -> Branch<W> {
        let n = frame.vars.len();
        let counts: Vec<u16> = (0..n).map(|v| st.var_live(frame, v).len() as u16).collect();
        let decided: Vec<bool> = (0..n).map(|v| st.decided(frame, v)).collect();
        let empty = (0..n).filter(|&v| counts[v] == 0 && !decided[v]).count();
        Branch {
            st: *st,
            counts,
            decided,
            empty,
        }
    }

    /// A copy with local candidate `z` asserted (`on`) or eliminated.
    fn assumed(&self, frame: &Frame<W>, z: usize, on: bool) -> Branch<W> {
        let mut b = self.clone();
        if on {
            b.assert(frame, z);
        } else {
            b.remove(frame, z);
        }
        b
    }

    /// Eliminates live candidate `z`.
    fn remove(&mut self, frame: &Frame<W>, z: usize) {
        self.st.cands.remove(z);
        for &v in &frame.cand_vars[z] {
            let v = v as usize;
            self.counts[v] -= 1;
            if self.counts[v] == 0 && !self.decided[v] {
                self.empty += 1;
            }
        }
    }

    /// Asserts live candidate `z`: its variables have their value; it and
    /// its live links are eliminated.
    fn assert(&mut self, frame: &Frame<W>, z: usize) {
        for &v in &frame.cand_vars[z] {
            self.decided[v as usize] = true;
        }
        self.st.values.insert(z);
        self.remove(frame, z);
        for y in frame.links[z].and(&self.st.cands).iter() {
            self.remove(frame, y);
        }
    }
}

/// The frame variables of model space `space`, in order (a frame's
/// variables are in model order, so a space's are consecutive).
fn frame_space<const W: usize>(frame: &Frame<W>, space: usize) -> std::ops::Range<usize> {
    let lo = frame.vars.partition_point(|v| (v.space as usize) < space);
    let hi = frame.vars.partition_point(|v| (v.space as usize) <= space);
    lo..hi
}

/// The frame variables that are cells (not houses' nor killer cages'),
/// in order.
fn cell_vars<const W: usize>(frame: &Frame<W>) -> impl Iterator<Item = usize> + '_ {
    (0..frame.vars.len()).filter(|&v| frame.model.is_cell_var(frame.vars[v].var as usize))
}

/// The cell variable of local candidate `z`.
fn cell_of<const W: usize>(frame: &Frame<W>, z: usize) -> Option<usize> {
    frame.cand_vars[z]
        .iter()
        .map(|&v| v as usize)
        .find(|&v| frame.model.is_cell_var(frame.vars[v].var as usize))
}

/// `r3c2=4`, `r3c2≠4`: a literal as a trial's chain prints it.
fn lit_name<const W: usize>(frame: &Frame<W>, z: usize, on: bool) -> String {
    let m = &frame.model;
    let g = frame.cand(z);
    let op = if on { "=" } else { "≠" };
    if let Some((k, i)) = m.cage_cand(g) {
        let combo = m.combo_name(&m.cages[k].combos[i]);
        return format!("{}{op}{combo}", m.cage_name(k));
    }
    format!(
        "{}{op}{}",
        m.cell_name(m.cand_cell(g)),
        m.symbol_name(m.cand_symbol(g))
    )
}
