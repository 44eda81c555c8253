//! The engine: applies a rule set to a state, simplest rule first,
//! re-starting from the simplest after every change (SudoRules' strategy).
//!
//! Like egg's `Runner`, a run has limits (steps, time) and ends with a
//! [`StopReason`]; every applied pattern becomes a [`Step`] record.
//!
//! Architecture Invariant: the engine knows no technique. It only orders
//! compiled rules by complexity, asks each for its first match, and applies
//! conclusions (asserting a value eliminates its nrc-linked candidates).

use crate::matcher::ConclusionKind;
use crate::path::Step;
use crate::ruleset::RuleSet;
use crate::state::State;
use serde::Serialize;
use std::ops::ControlFlow;
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

/// Limits of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub max_steps: Option<usize>,
    pub max_time: Option<Duration>,
}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct Run {
    pub initial: State,
    pub state: State,
    pub steps: Vec<Step>,
    pub stop: StopReason,
    /// Index into the set's rules of the most complex rule applied.
    pub hardest: Option<usize>,
    pub elapsed: Duration,
}

impl Run {
    /// Highest level among applied rules (0 when only singles, or nothing, were needed).
    pub fn level(&self, set: &RuleSet) -> i64 {
        self.hardest.map_or(0, |i| set.rules[i].level)
    }

    /// The rating label: the most complex applied rule's `rating` (or its
    /// name), `Singles` when nothing but singles (or nothing) was needed.
    pub fn rating(&self, set: &RuleSet) -> String {
        match self.hardest {
            Some(h) => set.rules[h]
                .rating
                .clone()
                .unwrap_or_else(|| set.rules[h].name.clone()),
            None => "Singles".into(),
        }
    }
}

/// Runs `set` on `state` until solved, stuck, contradictory or out of limits.
pub fn run(set: &RuleSet, mut state: State, limits: Limits) -> Run {
    let start = Instant::now();
    let initial = state;
    let mut steps = Vec::new();
    let mut hardest: Option<usize> = None;
    let stop = loop {
        if state.is_solved() {
            break StopReason::Solved;
        }
        if state.has_empty_var() {
            break StopReason::Contradiction;
        }
        if limits.max_steps.is_some_and(|m| steps.len() >= m) {
            break StopReason::StepLimit;
        }
        if limits.max_time.is_some_and(|t| start.elapsed() >= t) {
            break StopReason::TimeLimit;
        }
        let Some((ri, step)) = first_step(set, &state) else {
            break StopReason::Stuck;
        };
        apply(&mut state, &step, set.blocked);
        let rule = &set.rules[ri];
        if hardest.is_none_or(|h| set.rules[h].complexity < rule.complexity) {
            hardest = Some(ri);
        }
        let mut step = step;
        if !set.blocked {
            step.conclusions.truncate(1);
        }
        step.cands_after = state.cand_count();
        step.values_after = state.value_count();
        steps.push(step);
    };
    Run {
        initial,
        state,
        steps,
        stop,
        hardest,
        elapsed: start.elapsed(),
    }
}

/// The first match of the simplest applicable rule, as a step.
pub fn first_step(set: &RuleSet, state: &State) -> Option<(usize, Step)> {
    for (ri, rule) in set.rules.iter().enumerate() {
        let mut found = None;
        let _ = rule.plan.search(state, &mut |m| {
            found = Some(Step {
                rule: rule.name.clone(),
                pattern: rule.plan.render(state, m.env),
                kind: rule.plan.conclusion,
                conclusions: Step::ordered(&m.conclusions),
                complexity: rule.complexity,
                level: rule.level,
                cands_after: 0,
                values_after: 0,
            });
            ControlFlow::Break(())
        });
        if let Some(s) = found {
            return Some((ri, s));
        }
    }
    None
}

/// Applies a step's conclusions (only the first one when not blocked).
pub fn apply(state: &mut State, step: &Step, blocked: bool) {
    let n = if blocked { step.conclusions.len() } else { 1 };
    for &z in step.conclusions.iter().take(n) {
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
