//! The engine: applies a rule set to a board, simplest rule first,
//! re-starting from the simplest after every change (SudoRules' strategy).
//!
//! Like egg's `Runner`, a run has limits (steps, time) and ends with a
//! [`StopReason`]. There is one loop ([`Runner::observe`]): it asks the
//! rules, in order, for their first match on the run's [`Board`] (the one
//! incremental state, which a rule whose plan has the count shape answers
//! from its counts), applies it, and reports to an [`Observer`], as egg
//! reports each iteration. What a caller wants of a run is an observer:
//! the path's steps ([`Runner::run`], [`Runner::run_observed`]: every
//! applied match becomes a [`Step`] that keeps its evidence and the state
//! it was found in, so that it is rendered only when a path is printed),
//! per-rule statistics ([`Stats`]: searches made, nodes, time,
//! conclusions), or only the steps' counts ([`Runner::tally`]: no step
//! built). Statistics thus time the code that every run uses.
//!
//! Architecture Invariant: the engine knows no technique. It only orders
//! compiled rules by complexity, asks each searcher for its first match,
//! and applies conclusions (asserting a value eliminates its nrc-linked
//! candidates).

use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::state::State;
use crate::rule::Rule;
use crate::ruleset::RuleSet;
use crate::search::{ConclusionKind, Evidence, Found, Grade, SearchCx, Stop, trial};
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
    /// A search went over the memory cap ([`Runner::max_memory`]).
    MemoryLimit,
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
            StopReason::MemoryLimit => "memory-limit",
        }
    }
}

/// Limits of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub max_steps: Option<usize>,
    pub max_time: Option<Duration>,
    /// A cap on the memory a search may hold (bytes, as searches count it:
    /// [`SearchCx::hold`]); a search over it stops the run
    /// ([`StopReason::MemoryLimit`]). [`Runner::max_memory`], when set,
    /// takes its place.
    pub max_memory: Option<usize>,
    /// The CPU time the run's thread may spend (a limit that does not
    /// depend on the machine's load, unlike `max_time`); past it the run
    /// stops with [`StopReason::TimeLimit`].
    pub max_cpu: Option<Duration>,
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
    /// The name the step prints under when its match fills holes of the
    /// rule's name (`asc[3]` of `asc[{K}]`); `None`: the rule's.
    pub name: Option<String>,
}

impl Step {
    /// The step of match `f` of `rule` in `before`, not yet applied.
    pub fn found(rule: &Arc<Rule>, f: crate::search::Found, before: &State) -> Step {
        Step {
            name: rule.searcher.step_name(&rule.head.name, &f.evidence),
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

    /// The name the step prints under: the rule's, with the holes its
    /// match binds filled in ([`crate::search::Searcher::step_name`]).
    pub fn rule_name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.rule.head.name)
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
    /// The set's rating type ([`RuleSet::rating_type`]).
    pub rating_type: Option<String>,
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

    /// The rating label: the most complex step's label (a run of singles
    /// only is rated by its hardest single: `HS` or `NS`), `Singles` when
    /// no step was applied; for a set with a rating type `T` and a hardest
    /// step of integral level `n` ≥ 1, `T[n]` (a gW run whose hardest step
    /// is a plain whip[8] is `gW[8]`, as SudoRules names it).
    pub fn rating(&self) -> String {
        rating_name(
            self.rating_type.as_deref(),
            self.hardest_step().map(|s| &s.grade),
        )
    }
}

/// A run's rating label from its set's rating type and its hardest step's
/// grade (see [`Run::rating`]; the typed engine's runs are named alike).
pub fn rating_name(rating_type: Option<&str>, hardest: Option<&Grade>) -> String {
    let Some(g) = hardest else {
        return "Singles".into();
    };
    match (rating_type, g.level.integral()) {
        (Some(t), Some(n)) if n >= 1 => format!("{t}[{n}]"),
        _ => g.label.clone(),
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

/// What a run reports to as it goes, as egg's runner reports each
/// iteration: each search made (which rule, the nodes it visited, the time
/// it took), each step applied (which rule, how many conclusions), and,
/// when the observer reads them, the steps themselves.
///
/// Per-rule statistics ([`Stats`]), a tally's counts ([`Runner::tally`])
/// and a path's steps ([`Runner::run_observed`]) are observers of the one
/// loop ([`Runner::observe`]); a pair of observers, or an optional one, is
/// an observer too.
pub trait Observer {
    /// Does it read steps ([`Observer::step`])? When no observer does, no
    /// [`Step`] is built, and searchers may leave out evidence
    /// ([`SearchCx::outcome_only`]).
    fn wants_steps(&self) -> bool {
        false
    }

    /// Does it read searches ([`Observer::searched`])? Searches are then
    /// timed.
    fn wants_searches(&self) -> bool {
        false
    }

    /// Rule `rule` (its index in the set) was searched: `nodes` visited
    /// in `time`.
    fn searched(&mut self, _rule: usize, _nodes: u64, _time: Duration) {}

    /// Rule `rule` made a step with `conclusions` conclusions, applied.
    fn applied(&mut self, _rule: usize, _conclusions: usize) {}

    /// The step just applied and the state after it (when steps are
    /// wanted). `Break` stops the run there.
    fn step(&mut self, _step: &Step, _after: &State) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// No observer.
impl Observer for () {}

/// Both observers, each told everything.
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn wants_steps(&self) -> bool {
        self.0.wants_steps() || self.1.wants_steps()
    }

    fn wants_searches(&self) -> bool {
        self.0.wants_searches() || self.1.wants_searches()
    }

    fn searched(&mut self, rule: usize, nodes: u64, time: Duration) {
        self.0.searched(rule, nodes, time);
        self.1.searched(rule, nodes, time);
    }

    fn applied(&mut self, rule: usize, conclusions: usize) {
        self.0.applied(rule, conclusions);
        self.1.applied(rule, conclusions);
    }

    fn step(&mut self, step: &Step, after: &State) -> ControlFlow<()> {
        let a = self.0.step(step, after);
        let b = self.1.step(step, after);
        if a.is_break() || b.is_break() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// An observer when there is one.
impl<O: Observer> Observer for Option<O> {
    fn wants_steps(&self) -> bool {
        self.as_ref().is_some_and(O::wants_steps)
    }

    fn wants_searches(&self) -> bool {
        self.as_ref().is_some_and(O::wants_searches)
    }

    fn searched(&mut self, rule: usize, nodes: u64, time: Duration) {
        if let Some(o) = self {
            o.searched(rule, nodes, time);
        }
    }

    fn applied(&mut self, rule: usize, conclusions: usize) {
        if let Some(o) = self {
            o.applied(rule, conclusions);
        }
    }

    fn step(&mut self, step: &Step, after: &State) -> ControlFlow<()> {
        match self {
            Some(o) => o.step(step, after),
            None => ControlFlow::Continue(()),
        }
    }
}

/// Per-rule figures of a run, as an observer: the steps each rule made and
/// their conclusions, and, with `searches`, the searches made, the nodes
/// they visited and the time they took.
#[derive(Clone, Debug)]
pub struct Stats {
    /// In the set's rule order.
    pub rules: Vec<RuleStats>,
    searches: bool,
}

impl Stats {
    /// Figures for a set of `rules` rules; searches counted or not.
    pub fn new(rules: usize, searches: bool) -> Stats {
        Stats {
            rules: vec![RuleStats::default(); rules],
            searches,
        }
    }
}

impl Observer for Stats {
    fn wants_searches(&self) -> bool {
        self.searches
    }

    fn searched(&mut self, rule: usize, nodes: u64, time: Duration) {
        let s = &mut self.rules[rule];
        s.calls += 1;
        s.nodes += nodes;
        s.time += time;
    }

    fn applied(&mut self, rule: usize, conclusions: usize) {
        let s = &mut self.rules[rule];
        s.steps += 1;
        s.conclusions += conclusions as u64;
    }
}

/// A path's observer: shows each step to a closure.
struct Watch<F>(F);

impl<F: FnMut(&Step, &State) -> ControlFlow<()>> Observer for Watch<F> {
    fn wants_steps(&self) -> bool {
        true
    }

    fn step(&mut self, step: &Step, after: &State) -> ControlFlow<()> {
        (self.0)(step, after)
    }
}

/// Runs a rule set with limits, optionally counting per-rule statistics.
#[derive(Clone, Copy)]
pub struct Runner<'a> {
    set: &'a RuleSet,
    limits: Limits,
    stats: bool,
    outcome_only: bool,
    max_memory: Option<usize>,
}

impl<'a> Runner<'a> {
    pub fn new(set: &'a RuleSet) -> Runner<'a> {
        Runner {
            set,
            limits: Limits::default(),
            stats: false,
            outcome_only: false,
            max_memory: None,
        }
    }

    /// A cap on the memory a search may hold (bytes, as searches count it:
    /// [`SearchCx::hold`]); a search over it stops the run
    /// ([`StopReason::MemoryLimit`]).
    pub fn max_memory(mut self, bytes: Option<usize>) -> Self {
        self.max_memory = bytes;
        self
    }

    /// Only the steps' conclusions and grades will be read (their counts,
    /// the outcome): searchers may skip evidence that costs a search of its
    /// own ([`SearchCx::outcome_only`]), so steps may show less. (Off while
    /// statistics are counted: they read every search.)
    pub fn outcome_only(mut self, on: bool) -> Self {
        self.outcome_only = on;
        self
    }

    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Count calls, nodes, time and conclusions per rule ([`Stats`]).
    pub fn with_stats(mut self, on: bool) -> Self {
        self.stats = on;
        self
    }

    /// Runs as [`Runner::run`] does (the same steps to the same end, with
    /// [`Runner::outcome_only`] on), keeping only how many steps each rule
    /// made and how many conclusions they had: no [`Step`] is built. For
    /// batches that only count (the contradiction filter).
    pub fn tally(&self, state: State) -> Tally {
        let mut counts = Stats::new(self.set.rules.len(), false);
        let run = self.observe(state, &mut counts);
        Tally {
            state: run.state,
            stop: run.stop,
            elapsed: run.elapsed,
            steps: counts.rules.iter().map(|s| s.steps as usize).collect(),
            conclusions: counts
                .rules
                .iter()
                .map(|s| s.conclusions as usize)
                .collect(),
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
        state: State,
        observe: impl FnMut(&Step, &State) -> ControlFlow<()>,
    ) -> Run {
        let stats = self.stats.then(|| Stats::new(self.set.rules.len(), true));
        let mut obs = (Watch(observe), stats);
        let mut run = self.observe(state, &mut obs);
        run.stats = obs.1.map(|s| s.rules);
        run
    }

    /// The loop of every run: on a [`Board`] of `state`, until solved,
    /// stuck, contradictory or out of limits, the first match of the
    /// simplest rule that has one is applied (all its conclusions, or the
    /// first only for an unblocked set), and `obs` is told of each search
    /// and step. When `obs` breaks on a step and the puzzle is not solved
    /// yet, the run stops there with [`StopReason::StepLimit`]. The run's
    /// steps are kept when `obs` reads them ([`Observer::wants_steps`]);
    /// its `stats` are left to the caller.
    pub fn observe<O: Observer>(&self, state: State, obs: &mut O) -> Run {
        let set = self.set;
        let start = Instant::now();
        let deadline = self.limits.max_time.and_then(|t| start.checked_add(t));
        let mut cx = SearchCx::new(deadline);
        // The run's givens: the values it starts from.
        cx.set_givens(state.values);
        cx.set_memory_limit(self.max_memory.or(self.limits.max_memory));
        cx.set_cpu_limit(self.limits.max_cpu);
        cx.trial = trial::Scratch::for_rules(set.rules.iter().map(|r| &*r.searcher));
        let keep = obs.wants_steps();
        // Statistics read every search's nodes, which an outcome-only
        // search may skip.
        cx.outcome_only = (self.outcome_only || !keep) && !obs.wants_searches();
        let mut board = Board::new(&state);
        // Room for a typical path's steps from the start (a Step is large:
        // growing the vector step by step copies them again and again).
        let mut steps: Vec<Step> = Vec::with_capacity(if keep { 64 } else { 0 });
        let mut hardest: Option<usize> = None;
        let mut made = 0;
        let stop = loop {
            if board.is_solved() {
                break StopReason::Solved;
            }
            if board.has_empty_var() {
                break StopReason::Contradiction;
            }
            if self.limits.max_steps.is_some_and(|m| made >= m) {
                break StopReason::StepLimit;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) || cx.past_cpu_limit() {
                break StopReason::TimeLimit;
            }
            // Found in place (a match is large: moving it costs a copy).
            let mut found = None;
            let ri = find(set, &board, &mut cx, obs, &mut found);
            let Some(f) = &found else {
                match cx.stop() {
                    Some(Stop::Memory) => break StopReason::MemoryLimit,
                    Some(_) => break StopReason::TimeLimit,
                    None => break StopReason::Stuck,
                }
            };
            made += 1;
            if !keep {
                let n = board.apply(f.kind, &f.conclusions, set.blocked);
                obs.applied(ri, n);
                continue;
            }
            let (kind, zs) = (f.kind, f.conclusions);
            let found = found.expect("a match was found");
            let mut step = Step::found(&set.rules[ri], found, &board.state);
            if !set.blocked {
                step.conclusions.truncate(1);
            }
            board.apply(kind, &zs, set.blocked);
            step.cands_after = board.state.cand_count();
            step.values_after = board.state.value_count();
            obs.applied(ri, step.conclusions.len());
            if set.rules[ri].head.rated
                && hardest.is_none_or(|h| steps[h].grade.complexity < step.grade.complexity)
            {
                hardest = Some(steps.len());
            }
            let seen = obs.step(&step, &board.state);
            steps.push(step);
            if seen.is_break() && !board.is_solved() {
                break StopReason::StepLimit;
            }
        };
        Run {
            initial: state,
            state: board.state,
            steps,
            stop,
            hardest,
            elapsed: start.elapsed(),
            stats: None,
            rating_type: set.rating_type.clone(),
        }
    }
}

/// Runs `set` on `state` until solved, stuck, contradictory or out of limits.
pub fn run(set: &RuleSet, state: State, limits: Limits) -> Run {
    Runner::new(set).limits(limits).run(state)
}

/// The first match of the simplest rule that has one on `board`, in
/// `found`, and its rule's index in the set: each rule's
/// [`Searcher::first`] in the set's order, each search shown to `obs`.
/// `found` is left `None` when no rule applies or the deadline passed.
///
/// [`Searcher::first`]: crate::search::Searcher::first
fn find<O: Observer>(
    set: &RuleSet,
    board: &Board,
    cx: &mut SearchCx,
    obs: &mut O,
    found: &mut Option<Found>,
) -> usize {
    let timed = obs.wants_searches();
    for (ri, r) in set.rules.iter().enumerate() {
        let (t0, n0) = (timed.then(Instant::now), cx.nodes);
        let first = r.searcher.first(cx, board);
        if let Some(t0) = t0 {
            obs.searched(ri, cx.nodes - n0, t0.elapsed());
        }
        if first.is_some() {
            *found = first;
            return ri;
        }
        if cx.interrupted() {
            return ri;
        }
    }
    set.rules.len()
}

/// The first match of the simplest applicable rule in `state`, as a step
/// (not yet applied), with the rule's index in the set: what a run applies
/// next. `None` when no rule applies or the deadline passed.
pub fn first_step(set: &RuleSet, state: &State, cx: &mut SearchCx) -> Option<(usize, Step)> {
    let mut found = None;
    let ri = find(set, &Board::new(state), cx, &mut (), &mut found);
    Some((ri, Step::found(&set.rules[ri], found?, state)))
}

/// Applies a step's conclusions to `state`, as a run applies them to its
/// board.
pub fn apply(state: &mut State, step: &Step) {
    let mut board = Board::new(state);
    for &z in &step.conclusions {
        board.conclude(step.kind, z);
    }
    *state = board.state;
}

/// Every match of one rule at a given state, none applied: what
/// `ruledoku rules matches` lists, to compare a rule's hits with another
/// solver's on the same states. A run applies the first match of the
/// simplest rule that has one; this asks each rule for all of its
/// matches ([`Searcher::search`](crate::search::Searcher::search)), in its
/// order, as the engine would search them at that state.
pub struct Matcher {
    cx: SearchCx,
    /// The time each search may take (`None`: no limit).
    per_search: Option<Duration>,
}

impl Matcher {
    /// A context for the searches of `rules` (their trial scratch), with
    /// the puzzle's given values `givens` (as candidates: what the rule
    /// language's `givens` reads; the decided cells that are not given are
    /// values placed since).
    pub fn new(rules: &[Arc<Rule>], givens: Bits) -> Matcher {
        let mut cx = SearchCx::new(None);
        cx.set_givens(givens);
        cx.trial = trial::Scratch::for_rules(rules.iter().map(|r| &*r.searcher));
        Matcher {
            cx,
            per_search: None,
        }
    }

    /// Limits of each search: the time it may take, and the memory it may
    /// hold (bytes, as searches count it: [`SearchCx::hold`]). A search
    /// that reaches either stops there, and its matches are those found
    /// until then ([`Matches::stop`]). A search for all matches has no
    /// first match to stop at: whips of every length to every target may
    /// hold gigabytes on a hard state.
    pub fn limits(mut self, per_search: Option<Duration>, max_memory: Option<usize>) -> Self {
        self.per_search = per_search;
        self.cx.set_memory_limit(max_memory);
        self
    }

    /// The matches of `rule` at `state` with a non-empty conclusion,
    /// summed up as they are found (a search may have millions: whips of
    /// every length to every target), and the search nodes it visited.
    pub fn matches(&mut self, rule: &Rule, state: &State) -> (Matches, u64) {
        self.cx.restart(self.per_search.map(|d| Instant::now() + d));
        let before = self.cx.nodes;
        let mut sum = Matches::default();
        let _ = rule.searcher.search(&mut self.cx, state, &mut |m| {
            sum.count += 1;
            match m.kind {
                ConclusionKind::Eliminate => sum.eliminated = sum.eliminated.or(&m.conclusions),
                ConclusionKind::Assert => sum.asserted = sum.asserted.or(&m.conclusions),
            }
            ControlFlow::Continue(())
        });
        sum.stop = self.cx.stop();
        (sum, self.cx.nodes - before)
    }
}

/// What a rule's matches at one state conclude together.
#[derive(Clone, Debug, Default)]
pub struct Matches {
    /// The number of matches.
    pub count: usize,
    /// The union of their eliminations.
    pub eliminated: Bits,
    /// The union of their assertions.
    pub asserted: Bits,
    /// Why the search stopped before its end ([`Matcher::limits`]); `None`:
    /// these are all of the rule's matches.
    pub stop: Option<Stop>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run with full searches on a [`State`], the definition the one
    /// loop must equal: each rule's whole search stopped at its first
    /// match, the match applied through [`State::assert`] and
    /// [`State::eliminate`]. Returns the steps (rule, kind, conclusions,
    /// state before, pattern), the end and, per rule, the searches made
    /// and their nodes.
    #[allow(clippy::type_complexity)]
    fn full_searches(
        set: &RuleSet,
        mut state: State,
    ) -> (
        Vec<(usize, ConclusionKind, Vec<usize>, State, String)>,
        State,
        StopReason,
        Vec<(u64, u64)>,
    ) {
        let mut cx = SearchCx::new(None);
        let mut searched = vec![(0, 0); set.rules.len()];
        let mut steps = Vec::new();
        let stop = loop {
            if state.is_solved() {
                break StopReason::Solved;
            }
            if state.has_empty_var() {
                break StopReason::Contradiction;
            }
            let mut hit = None;
            for (ri, rule) in set.rules.iter().enumerate() {
                let n0 = cx.nodes;
                let _ = rule.searcher.search(&mut cx, &state, &mut |f| {
                    hit = Some((ri, f));
                    ControlFlow::Break(())
                });
                searched[ri].0 += 1;
                searched[ri].1 += cx.nodes - n0;
                if hit.is_some() {
                    break;
                }
            }
            let Some((ri, f)) = hit else {
                break StopReason::Stuck;
            };
            let mut zs = Step::ordered(&f.conclusions);
            if !set.blocked {
                zs.truncate(1);
            }
            let shown = set.rules[ri].searcher.render(&state, &f.evidence);
            steps.push((ri, f.kind, zs.clone(), state, shown));
            for z in zs {
                match f.kind {
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
        };
        (steps, state, stop, searched)
    }

    /// The one loop on its board (count plans read off the board's
    /// counts) takes the steps that full searches on a state take, in the
    /// same order, to the same end, with the singles, the basic rules, the
    /// fast filter, the W rules and SudoRules' sfin; with statistics on,
    /// it counts the searches and nodes the full searches count.
    #[test]
    fn the_loop_takes_the_steps_of_full_searches() {
        let text = crate::test_data::CBG_FIRST1000;
        let mut steps = 0;
        for (name, puzzles) in [
            ("singles", 40),
            ("basic", 20),
            ("filter-fast", 20),
            ("w", 4),
            ("sfin", 4),
        ] {
            let set = crate::ruleset::load(name).unwrap();
            for line in text.lines().take(puzzles) {
                let p = crate::input::parse_puzzle(&line[..81]).unwrap();
                let state = State::from_masks(&p.masks, &p.givens);
                // Each run on a thread of its own: the searchers' caches
                // (shared prefixes' bindings, trials' memo) start empty.
                let alone = |f: &(dyn Fn() -> Run + Sync)| {
                    std::thread::scope(|s| s.spawn(f).join().unwrap())
                };
                let (want, end, stop, searched) =
                    std::thread::scope(|s| s.spawn(|| full_searches(&set, state)).join().unwrap());
                for stats in [false, true] {
                    let run = alone(&|| Runner::new(&set).with_stats(stats).run(state));
                    assert_eq!(run.stop, stop, "{name} {line}");
                    assert_eq!(run.state, end, "{name} {line}");
                    assert_eq!(run.steps.len(), want.len(), "{name} {line}");
                    for (a, (ri, kind, zs, before, shown)) in run.steps.iter().zip(&want) {
                        assert!(Arc::ptr_eq(&a.rule, &set.rules[*ri]));
                        assert_eq!((a.kind, &a.conclusions), (*kind, zs));
                        assert_eq!(a.before, *before);
                        assert_eq!(&a.pattern(), shown);
                    }
                    if let Some(st) = &run.stats {
                        let got: Vec<(u64, u64)> = st.iter().map(|s| (s.calls, s.nodes)).collect();
                        assert_eq!(got, searched, "{name} {line}");
                    }
                }
                steps += want.len();
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
                max_memory: None,
                max_cpu: None,
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
