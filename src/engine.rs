//! The engine: applies a rule set to a state, simplest rule first,
//! re-starting from the simplest after every change (SudoRules' strategy).
//!
//! Like egg's `Runner`, a run has limits (steps, time) and ends with a
//! [`StopReason`]; every applied match becomes a [`Step`] that keeps its
//! evidence and the state it was found in, so that it is rendered only when
//! a path is printed. With statistics on, the run also counts, per rule,
//! the searches made, the time they took and the conclusions they gave.
//! A tally ([`Runner::tally`]) runs the same steps for callers that only
//! count them, building none.
//!
//! Architecture Invariant: the engine knows no technique. It only orders
//! compiled rules by complexity, asks each searcher for its first match,
//! and applies conclusions (asserting a value eliminates its nrc-linked
//! candidates).

use crate::grid::bits::Bits;
use crate::grid::state::State;
use crate::rule::Rule;
use crate::ruleset::RuleSet;
use crate::search::branch::{CountPlan, Lanes};
use crate::search::{ConclusionKind, Evidence, Grade, SearchCx, trial};
use serde::Serialize;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// Every cell has its value.
    Solved,
    /// No rule of the set applies any more.
    Stuck,
    /// A CSP variable has no candidate left (the puzzle has no solution, or
    /// an unsound rule was used).
    Contradiction,
    StepLimit,
    TimeLimit,
}

impl StopReason {
    /// The kebab-case name used in JSON, CSV and rate lines.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Solved => "solved",
            StopReason::Stuck => "stuck",
            StopReason::Contradiction => "contradiction",
            StopReason::StepLimit => "step-limit",
            StopReason::TimeLimit => "time-limit",
        }
    }
}

/// Limits of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub max_steps: Option<usize>,
    pub max_time: Option<Duration>,
}

/// One applied match: which rule, what it concluded, how it was graded,
/// and what explains it.
#[derive(Clone, Debug)]
pub struct Step {
    pub rule: Arc<Rule>,
    pub kind: ConclusionKind,
    /// Concluded candidates (asserted or eliminated), in print order.
    pub conclusions: Vec<usize>,
    pub grade: Grade,
    pub evidence: Evidence,
    /// The state the match was found in (renderers read it).
    pub before: State,
    /// Live candidates and decided cells after the step.
    pub cands_after: usize,
    pub values_after: usize,
}

impl Step {
    /// The step of match `f` of `rule` in `before`, not yet applied.
    pub fn found(rule: &Arc<Rule>, f: crate::search::Found, before: &State) -> Step {
        Step {
            rule: rule.clone(),
            kind: f.kind,
            conclusions: Step::ordered(&f.conclusions),
            grade: rule.grade_of(&f),
            evidence: f.evidence,
            before: *before,
            cands_after: 0,
            values_after: 0,
        }
    }

    /// The conclusions in print order (SudoRules prints them by decreasing
    /// candidate number).
    pub fn ordered(set: &Bits) -> Vec<usize> {
        let mut v = Vec::with_capacity(set.len());
        for (w, &word) in set.0.iter().enumerate().rev() {
            let mut bits = word;
            while bits != 0 {
                let top = 63 - bits.leading_zeros() as usize;
                v.push(64 * w + top);
                bits &= !(1 << top);
            }
        }
        v
    }

    /// The rule's name.
    pub fn rule_name(&self) -> &str {
        &self.rule.head.name
    }

    /// The matched pattern in SudoRules notation (empty for singles).
    pub fn pattern(&self) -> String {
        self.rule.searcher.render(&self.before, &self.evidence)
    }
}

/// What one rule cost and gave during a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RuleStats {
    /// Searches made (one per engine step that reached this rule).
    pub calls: u64,
    /// Search nodes visited (bindings tried).
    pub nodes: u64,
    /// Time spent searching.
    #[serde(serialize_with = "as_secs")]
    pub time: Duration,
    /// Steps this rule made, and the candidates they concluded upon.
    pub steps: u64,
    pub conclusions: u64,
}

fn as_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl RuleStats {
    /// Adds another run's figures.
    pub fn add(&mut self, o: &RuleStats) {
        self.calls += o.calls;
        self.nodes += o.nodes;
        self.time += o.time;
        self.steps += o.steps;
        self.conclusions += o.conclusions;
    }
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Run {
    pub initial: State,
    pub state: State,
    pub steps: Vec<Step>,
    pub stop: StopReason,
    /// Index into `steps` of the most complex step (the first of equals).
    pub hardest: Option<usize>,
    pub elapsed: Duration,
    /// Per-rule statistics, in the set's rule order (when asked for).
    pub stats: Option<Vec<RuleStats>>,
}

impl Run {
    /// The most complex step applied.
    pub fn hardest_step(&self) -> Option<&Step> {
        self.hardest.map(|h| &self.steps[h])
    }

    /// The name of the most complex rule applied.
    pub fn hardest_rule(&self) -> Option<&str> {
        self.hardest_step().map(Step::rule_name)
    }

    /// The level of the most complex step (0 when only singles, or
    /// nothing, were needed).
    pub fn level(&self) -> crate::rating::Rating {
        self.hardest_step()
            .map_or(crate::rating::Rating::level(0), |s| s.grade.level)
    }

    /// The rating label: the most complex step's label, `Singles` when
    /// nothing but singles (or nothing) was needed.
    pub fn rating(&self) -> String {
        self.hardest_step()
            .map_or_else(|| "Singles".into(), |s| s.grade.label.clone())
    }
}

/// The outcome of a run without its steps ([`Runner::tally`]): how it
/// ended and, per rule, the steps it made and their conclusions.
#[derive(Clone, Debug)]
pub struct Tally {
    pub state: State,
    pub stop: StopReason,
    pub elapsed: Duration,
    /// Steps applied by each rule, in the set's rule order.
    pub steps: Vec<usize>,
    /// Conclusions of those steps (candidates asserted or eliminated,
    /// as many as the steps' `conclusions`), by rule.
    pub conclusions: Vec<usize>,
}

/// Runs a rule set with limits, optionally counting per-rule statistics.
pub struct Runner<'a> {
    set: &'a RuleSet,
    limits: Limits,
    stats: bool,
    outcome_only: bool,
}

impl<'a> Runner<'a> {
    pub fn new(set: &'a RuleSet) -> Runner<'a> {
        Runner {
            set,
            limits: Limits::default(),
            stats: false,
            outcome_only: false,
        }
    }

    /// Only the steps' conclusions and grades will be read (their counts,
    /// the outcome): searchers may skip evidence that costs a search of its
    /// own ([`SearchCx::outcome_only`]), so steps may show less.
    pub fn outcome_only(mut self, on: bool) -> Self {
        self.outcome_only = on;
        self
    }

    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Count calls, nodes, time and conclusions per rule.
    pub fn with_stats(mut self, on: bool) -> Self {
        self.stats = on;
        self
    }

    /// Runs as [`Runner::run`] does (the same steps to the same end, with
    /// [`Runner::outcome_only`] on), keeping only how many steps each rule
    /// made and how many conclusions they had: no [`Step`] is built, and a
    /// count plan's match is applied straight from the lanes' counts (its
    /// conclusions are its variable's live candidates), with no search.
    /// For batches that only count (the contradiction filter).
    pub fn tally(&self, state: State) -> Tally {
        let set = self.set;
        let start = Instant::now();
        let deadline = self.limits.max_time.and_then(|t| start.checked_add(t));
        let mut cx = SearchCx::new(deadline);
        cx.outcome_only = true;
        cx.trial = trial::Scratch::for_rules(set.rules.iter().map(|r| &*r.searcher));
        let n = set.rules.len();
        let (mut steps, mut conclusions) = (vec![0; n], vec![0; n]);
        let counted: Vec<Option<CountPlan>> = set
            .rules
            .iter()
            .map(|r| CountPlan::of(&*r.searcher))
            .collect();
        let mut lanes = Lanes::new(&state);
        let mut made = 0;
        let stop = loop {
            if lanes.is_solved() {
                break StopReason::Solved;
            }
            if lanes.has_empty_var() {
                break StopReason::Contradiction;
            }
            if self.limits.max_steps.is_some_and(|m| made >= m) {
                break StopReason::StepLimit;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break StopReason::TimeLimit;
            }
            let Some((ri, k)) = tally_step(set, &mut lanes, &counted, &mut cx) else {
                if cx.interrupted() {
                    break StopReason::TimeLimit;
                }
                break StopReason::Stuck;
            };
            steps[ri] += 1;
            conclusions[ri] += k;
            made += 1;
        };
        Tally {
            state: lanes.state,
            stop,
            elapsed: start.elapsed(),
            steps,
            conclusions,
        }
    }

    /// Runs until solved, stuck, contradictory or out of limits.
    pub fn run(&self, state: State) -> Run {
        self.run_observed(state, |_, _| ControlFlow::Continue(()))
    }

    /// Runs like [`Runner::run`], showing each applied step and the state
    /// after it to `observe`. When `observe` breaks and the puzzle is not
    /// solved yet, the run stops there with [`StopReason::StepLimit`] (a
    /// limit of the caller's: Sudoku Explainer's early exits use it).
    pub fn run_observed(
        &self,
        mut state: State,
        mut observe: impl FnMut(&Step, &State) -> ControlFlow<()>,
    ) -> Run {
        let set = self.set;
        let start = Instant::now();
        let deadline = self.limits.max_time.and_then(|t| start.checked_add(t));
        let mut cx = SearchCx::new(deadline);
        cx.outcome_only = self.outcome_only;
        cx.trial = trial::Scratch::for_rules(set.rules.iter().map(|r| &*r.searcher));
        let initial = state;
        // Room for a typical path's steps from the start (a Step is large:
        // growing the vector step by step copies them again and again).
        let mut steps: Vec<Step> = Vec::with_capacity(64);
        let mut hardest: Option<usize> = None;
        let mut stats = self
            .stats
            .then(|| vec![RuleStats::default(); set.rules.len()]);
        // Count plans (one variable generator filtered by `|V| == K`) are
        // answered from per-variable counts kept up to date as the state
        // changes (`search::branch::Lanes`): a rule without a match is not
        // searched, one with a match is run from its first variable on.
        // With statistics, every search is made in full (its nodes count).
        let counted: Vec<Option<CountPlan>> = if self.stats {
            Vec::new()
        } else {
            set.rules
                .iter()
                .map(|r| CountPlan::of(&*r.searcher))
                .collect()
        };
        let mut lanes = counted
            .iter()
            .any(Option::is_some)
            .then(|| Lanes::new(&state));
        let stop = loop {
            let (solved, empty) = match &lanes {
                Some(l) => (l.is_solved(), l.has_empty_var()),
                None => (state.is_solved(), state.has_empty_var()),
            };
            if solved {
                break StopReason::Solved;
            }
            if empty {
                break StopReason::Contradiction;
            }
            if self.limits.max_steps.is_some_and(|m| steps.len() >= m) {
                break StopReason::StepLimit;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break StopReason::TimeLimit;
            }
            let first = match &lanes {
                Some(l) => first_counted_step(set, l, &counted, &mut cx),
                None => first_step(set, &state, &mut cx, stats.as_deref_mut()),
            };
            let Some((ri, mut step)) = first else {
                if cx.interrupted() {
                    break StopReason::TimeLimit;
                }
                break StopReason::Stuck;
            };
            if !set.blocked {
                step.conclusions.truncate(1);
            }
            match lanes.as_mut() {
                Some(l) => {
                    apply_lanes(l, step.kind, &step.conclusions);
                    state = l.state;
                }
                None => apply(&mut state, &step),
            }
            step.cands_after = state.cand_count();
            step.values_after = state.value_count();
            if let Some(st) = stats.as_deref_mut() {
                st[ri].steps += 1;
                st[ri].conclusions += step.conclusions.len() as u64;
            }
            if hardest.is_none_or(|h| steps[h].grade.complexity < step.grade.complexity) {
                hardest = Some(steps.len());
            }
            let seen = observe(&step, &state);
            steps.push(step);
            if seen.is_break() && !state.is_solved() {
                break StopReason::StepLimit;
            }
        };
        Run {
            initial,
            state,
            steps,
            stop,
            hardest,
            elapsed: start.elapsed(),
            stats,
        }
    }
}

/// Runs `set` on `state` until solved, stuck, contradictory or out of limits.
pub fn run(set: &RuleSet, state: State, limits: Limits) -> Run {
    Runner::new(set).limits(limits).run(state)
}

/// The first match of the simplest applicable rule, as a step (not yet
/// applied), with the rule's index in the set. `None` when no rule applies
/// or the deadline passed. Counts calls, nodes and time in `stats`.
pub fn first_step(
    set: &RuleSet,
    state: &State,
    cx: &mut SearchCx,
    mut stats: Option<&mut [RuleStats]>,
) -> Option<(usize, Step)> {
    for (ri, rule) in set.rules.iter().enumerate() {
        let (t0, n0) = (stats.is_some().then(Instant::now), cx.nodes);
        let found = rule.searcher.first(cx, state);
        if let Some(st) = stats.as_deref_mut() {
            let s = &mut st[ri];
            s.calls += 1;
            s.nodes += cx.nodes - n0;
            s.time += t0.map_or(Duration::ZERO, |t| t.elapsed());
        }
        if let Some(f) = found {
            return Some((ri, Step::found(rule, f, state)));
        }
        if cx.interrupted() {
            return None;
        }
    }
    None
}

/// As [`first_step`], with the counts of `lanes` (its state): a rule that
/// is a count plan (`counted`, by rule) is searched only when the counts
/// give it a match, from the first match's variable.
fn first_counted_step(
    set: &RuleSet,
    lanes: &Lanes,
    counted: &[Option<CountPlan>],
    cx: &mut SearchCx,
) -> Option<(usize, Step)> {
    let state = &lanes.state;
    for (ri, rule) in set.rules.iter().enumerate() {
        let found = match (counted[ri], rule.plan()) {
            (Some(cp), Some(plan)) => {
                let Some(v) = cp.first(lanes) else {
                    continue;
                };
                let mut found = None;
                let _ = plan.search_counted_at(cx, state, v, &mut |m| {
                    found = Some(m);
                    ControlFlow::Break(())
                });
                found
            }
            _ => rule.searcher.first(cx, state),
        };
        if let Some(f) = found {
            return Some((ri, Step::found(rule, f, state)));
        }
        if cx.interrupted() {
            return None;
        }
    }
    None
}

/// The first match of the simplest applicable rule, applied to `lanes`
/// as [`first_counted_step`]'s step would be: the rule's index and the
/// number of the step's conclusions. `None` when no rule applies or the
/// deadline passed.
fn tally_step(
    set: &RuleSet,
    lanes: &mut Lanes,
    counted: &[Option<CountPlan>],
    cx: &mut SearchCx,
) -> Option<(usize, usize)> {
    for (ri, rule) in set.rules.iter().enumerate() {
        if let Some(cp) = counted[ri] {
            let Some(v) = cp.first(lanes) else {
                continue;
            };
            return Some((ri, lanes.conclude_var(cp.kind, v, set.blocked)));
        }
        if let Some(f) = rule.searcher.first(cx, &lanes.state) {
            let mut zs = Step::ordered(&f.conclusions);
            if !set.blocked {
                zs.truncate(1);
            }
            apply_lanes(lanes, f.kind, &zs);
            return Some((ri, zs.len()));
        }
        if cx.interrupted() {
            return None;
        }
    }
    None
}

/// Applies a step's conclusions (`kind`, `conclusions`) to `lanes` (as
/// [`apply`]).
fn apply_lanes(lanes: &mut Lanes, kind: ConclusionKind, conclusions: &[usize]) {
    for &z in conclusions {
        match kind {
            ConclusionKind::Eliminate => {
                lanes.eliminate(z);
            }
            ConclusionKind::Assert => {
                if lanes.state.cands.contains(z) {
                    lanes.assert(z);
                }
            }
        }
    }
}

/// Applies a step's conclusions.
pub fn apply(state: &mut State, step: &Step) {
    for &z in &step.conclusions {
        match step.kind {
            ConclusionKind::Eliminate => {
                state.eliminate(z);
            }
            ConclusionKind::Assert => {
                if state.cands.contains(z) {
                    state.assert(z);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counted engine (count plans answered from the lanes' counts:
    /// statistics off) and the full searches (statistics on) take the
    /// same steps, in the same order, to the same end, with the singles,
    /// the basic rules, the fast filter and the W rules.
    #[test]
    fn counted_steps_equal_full_searches() {
        let text = crate::test_data::CBG_FIRST1000;
        let mut steps = 0;
        for (name, puzzles) in [
            ("singles", 40),
            ("basic", 20),
            ("filter-fast", 20),
            ("w", 4),
        ] {
            let set = crate::ruleset::load(name).unwrap();
            for line in text.lines().take(puzzles) {
                let p = crate::input::parse_puzzle(&line[..81]).unwrap();
                let state = State::from_masks(&p.masks, &p.givens);
                let fast = Runner::new(&set).run(state);
                let full = Runner::new(&set).with_stats(true).run(state);
                assert_eq!(fast.stop, full.stop, "{name} {line}");
                assert_eq!(fast.state, full.state, "{name} {line}");
                assert_eq!(fast.steps.len(), full.steps.len(), "{name} {line}");
                for (a, b) in fast.steps.iter().zip(&full.steps) {
                    assert_eq!(a.rule_name(), b.rule_name());
                    assert_eq!((a.kind, &a.conclusions), (b.kind, &b.conclusions));
                    assert_eq!(a.before, b.before);
                    assert_eq!(a.pattern(), b.pattern());
                }
                steps += fast.steps.len();
            }
        }
        assert!(steps > 2000, "{steps}");
    }

    /// A tally ends as the outcome-only run does, in the same state, with
    /// the same steps and conclusions per rule, with the singles, the basic
    /// rules, both filters and the W rules, and under a step limit.
    #[test]
    fn tallies_count_the_runs_steps() {
        let text = crate::test_data::CBG_FIRST1000;
        let mut steps = 0;
        for (name, puzzles, max_steps) in [
            ("singles", 40, None),
            ("basic", 20, None),
            ("filter-fast", 40, None),
            ("filter-fast", 10, Some(30)),
            ("filter-slow", 4, None),
            ("w", 4, None),
        ] {
            let set = crate::ruleset::load(name).unwrap();
            let limits = Limits {
                max_steps,
                max_time: None,
            };
            for line in text.lines().skip(1).take(puzzles) {
                let p = crate::input::parse_puzzle(&line[..81]).unwrap();
                let state = State::from_masks(&p.masks, &p.givens);
                let runner = Runner::new(&set).limits(limits).outcome_only(true);
                let run = runner.run(state);
                let tally = runner.tally(state);
                assert_eq!(tally.stop, run.stop, "{name} {line}");
                assert_eq!(tally.state, run.state, "{name} {line}");
                let (mut per_rule, mut concl) =
                    (vec![0; set.rules.len()], vec![0; set.rules.len()]);
                for s in &run.steps {
                    let ri = set
                        .rules
                        .iter()
                        .position(|r| Arc::ptr_eq(r, &s.rule))
                        .unwrap();
                    per_rule[ri] += 1;
                    concl[ri] += s.conclusions.len();
                }
                assert_eq!(tally.steps, per_rule, "{name} {line}");
                assert_eq!(tally.conclusions, concl, "{name} {line}");
                steps += run.steps.len();
            }
        }
        assert!(steps > 3000, "{steps}");
    }

    #[test]
    fn conclusions_are_ordered_by_decreasing_candidate() {
        for set in [
            Bits::EMPTY,
            Bits::single(0),
            Bits::single(728),
            Bits::from_indices([0, 63, 64, 65, 127, 128, 400, 727, 728]),
        ] {
            let mut want: Vec<usize> = set.iter().collect();
            want.reverse();
            assert_eq!(Step::ordered(&set), want);
        }
    }
}
