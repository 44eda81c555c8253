//! The typed run: a rule set applied to one puzzle of any type, simplest
//! rule first, restarting from the simplest after every step, as the
//! classic engine (`crate::engine`) does; steps and ratings as SudoRules
//! gives them.

use super::frame::{Frame, NoFrame, live_after_givens};
use super::state::State;
use super::{Evidence, Form, Found, TypedRule, TypedSet};
use crate::engine::{Limits, RuleStats, StopReason};
use crate::model::{DynBits, Model};
use crate::rating::Rating;
use crate::rule::Rule;
use crate::search::{ConclusionKind, Grade, SearchCx, Stop};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One applied step.
#[derive(Clone, Debug)]
pub struct TypedStep {
    pub rule: Arc<Rule>,
    pub kind: ConclusionKind,
    /// Concluded model candidates, in print order (decreasing).
    pub conclusions: Vec<usize>,
    pub grade: Grade,
    /// The matched pattern in SudoRules notation (empty for singles, and
    /// when the run was asked for outcomes only).
    pub pattern: String,
    /// What the step shows, for pictures ([`Options::pictures`]).
    pub picture: Option<Box<StepPicture>>,
    /// The name the step prints under when its match fills holes of the
    /// rule's name (`asc[3]` of `asc[{K}]`); `None`: the rule's.
    pub name: Option<String>,
}

/// A resolution state in the model's candidates, for pictures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The live candidates.
    pub cands: DynBits,
    /// The candidates asserted since the givens, increasing.
    pub values: Vec<usize>,
}

/// What a step shows, in the model's candidates and variables: the state
/// before it and its evidence ([`super::Evidence`], read on the frame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepPicture {
    pub before: Snapshot,
    pub shown: Shown,
}

/// A typed match's evidence in the model's terms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Nothing to show but the conclusions.
    Nothing,
    /// A variable rule's variable.
    Var(usize),
    /// A chain: its target and its variables in order.
    Chain {
        target: usize,
        links: Vec<ShownLink>,
    },
    /// A trial's literals (candidate, true?), branch after branch, each
    /// from its assumption.
    Literals(Vec<(usize, bool)>),
}

/// One variable of a [`Shown::Chain`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShownLink {
    pub var: usize,
    pub left: usize,
    pub right: Option<Right>,
}

/// A chain's right-linking candidate, or a g-candidate's live candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Right {
    Cand(usize),
    Group(Vec<usize>),
}

impl TypedStep {
    /// The name the step prints under: the rule's, with the holes its
    /// match binds filled in.
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.rule.head.name)
    }

    /// The step as one line of a path (`whip[2]: r1n2{c3 c4} - … ==> r5c6 ≠ 7`).
    pub fn text(&self, model: &Model) -> String {
        let concl: Vec<String> = self
            .conclusions
            .iter()
            .map(|&z| match self.kind {
                ConclusionKind::Assert => model.asserted_name(z),
                ConclusionKind::Eliminate => model.eliminated_name(z),
            })
            .collect();
        let name = self.name();
        if self.pattern.is_empty() {
            format!("{name} ==> {}", concl.join(", "))
        } else {
            format!("{name}: {} ==> {}", self.pattern, concl.join(", "))
        }
    }
}

/// A finished typed run.
#[derive(Clone, Debug)]
pub struct TypedRun {
    pub stop: StopReason,
    pub steps: Vec<TypedStep>,
    /// Each cell's symbol at the end (`None`: open).
    pub grid: Vec<Option<usize>>,
    /// Live candidates at the start (after the givens) and at the end.
    pub cands_start: usize,
    pub cands_end: usize,
    /// Index into `steps` of the most complex step (the first of equals).
    pub hardest: Option<usize>,
    pub rating_type: Option<String>,
    pub elapsed: Duration,
    /// The state at the start, for pictures ([`Options::pictures`]).
    pub start: Option<Snapshot>,
    /// The state the run ended in.
    pub end: Snapshot,
    /// Per rule of the set (in its order): searches, nodes, time, steps
    /// and conclusions, when [`Options::stats`] asked for them.
    pub stats: Option<Vec<RuleStats>>,
}

impl TypedRun {
    /// The level of the most complex step (0: singles or nothing).
    pub fn level(&self) -> Rating {
        self.hardest
            .map_or(Rating::level(0), |h| self.steps[h].grade.level)
    }

    /// The rating label, as [`crate::engine::Run::rating`] gives it.
    pub fn rating(&self) -> String {
        crate::engine::rating_name(
            self.rating_type.as_deref(),
            self.hardest.map(|h| &self.steps[h].grade),
        )
    }

    /// Where the run ended, as a start for another set: the values it
    /// placed join `from`'s givens, its live candidates are the start's.
    pub fn end_start(&self, model: &Model, from: &Start) -> Start {
        let mut givens = from.givens.clone();
        for &z in self.end.values.iter().filter(|&&z| model.is_cell_cand(z)) {
            givens[model.cand_cell(z)] = Some(model.cand_symbol(z));
        }
        let mut live = vec![false; model.n_cands];
        for z in self.end.cands.iter() {
            live[z] = true;
        }
        Start { givens, live }
    }

    /// The name of the most complex rule applied.
    pub fn hardest_rule(&self) -> Option<&str> {
        self.hardest.map(|h| self.steps[h].name())
    }
}

/// What a caller wants of a run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub limits: Limits,
    /// Render each step's pattern (for paths).
    pub patterns: bool,
    /// Cap on the memory searches hold (bytes).
    pub max_memory: Option<usize>,
    /// Keep what each step shows, and the start and end states, for
    /// pictures.
    pub pictures: bool,
    /// Count searches, nodes, time, steps and conclusions per rule.
    pub stats: bool,
}

/// Where a run starts: the givens (each cell's symbol, 0-based) and the
/// candidates live once they are placed. [`TypedRun::end_start`] is where
/// a run ended, for another set to go on from (`classify` climbs a ladder
/// so).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub givens: Vec<Option<usize>>,
    pub live: Vec<bool>,
}

impl Start {
    /// The start of the puzzle of `model` with `givens`, or why its givens
    /// contradict.
    pub fn of(model: &Model, givens: &[Option<usize>]) -> Result<Start, NoFrame> {
        Ok(Start {
            givens: givens.to_vec(),
            live: live_after_givens(model, givens)?,
        })
    }
}

/// Runs `set` on the puzzle of `model` with `givens` (each cell's given
/// symbol, 0-based), or says why its givens contradict.
pub fn run(
    model: &Arc<Model>,
    set: &TypedSet,
    givens: &[Option<usize>],
    opts: Options,
) -> Result<TypedRun, NoFrame> {
    run_at(model, set, &Start::of(model, givens)?, opts)
}

/// Runs `set` from `start` (a puzzle's [`Start::of`], or where a run of it
/// ended: [`TypedRun::end_start`]).
pub fn run_at(
    model: &Arc<Model>,
    set: &TypedSet,
    start: &Start,
    opts: Options,
) -> Result<TypedRun, NoFrame> {
    let (givens, live) = (&start.givens, &start.live);
    let mut n = live.iter().filter(|&&b| b).count();
    if set.elements {
        n = n.max(super::elems::needed(model, live));
    }
    macro_rules! dispatch {
        ($($w:literal),*) => {
            $(if n <= 64 * $w {
                let frame = Frame::<$w>::build(model.clone(), givens, live);
                return Ok(play(&frame, set, opts));
            })*
        };
    }
    dispatch!(2, 4, 8, 12, 16, 32, 64, 128, 256, 512);
    Err(NoFrame(format!(
        "{n} live candidates once the givens are placed: the typed engine holds at most {}",
        64 * 512
    )))
}

/// The loop, on a frame of `W` words.
fn play<const W: usize>(frame: &Frame<W>, set: &TypedSet, opts: Options) -> TypedRun {
    let start = Instant::now();
    let deadline = opts.limits.max_time.and_then(|t| start.checked_add(t));
    let mut cx = SearchCx::new(deadline);
    cx.set_memory_limit(opts.max_memory.or(opts.limits.max_memory));
    cx.set_cpu_limit(opts.limits.max_cpu);
    let mut st = State::start(frame);
    let mut steps: Vec<TypedStep> = Vec::new();
    let mut hardest: Option<usize> = None;
    let mut stats = opts
        .stats
        .then(|| vec![RuleStats::default(); set.rules.len()]);
    let stop = loop {
        if st.solved(frame) {
            break StopReason::Solved;
        }
        if st.empty_var(frame).is_some() {
            break StopReason::Contradiction;
        }
        if opts.limits.max_steps.is_some_and(|m| steps.len() >= m) {
            break StopReason::StepLimit;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) || cx.past_cpu_limit() {
            break StopReason::TimeLimit;
        }
        let mut found: Option<(usize, Found<W>)> = None;
        for (ri, r) in set.rules.iter().enumerate() {
            let (t0, n0) = (stats.is_some().then(Instant::now), cx.nodes);
            let first = r.first(&mut cx, frame, &st);
            if let (Some(t0), Some(s)) = (t0, stats.as_mut()) {
                let s = &mut s[ri];
                s.calls += 1;
                s.nodes += cx.nodes - n0;
                s.time += t0.elapsed();
            }
            if let Some(f) = first {
                found = Some((ri, f));
                break;
            }
            if cx.interrupted() {
                break;
            }
        }
        let Some((ri, f)) = found else {
            match cx.stop() {
                Some(Stop::Memory) => break StopReason::MemoryLimit,
                Some(_) => break StopReason::TimeLimit,
                None => break StopReason::Stuck,
            }
        };
        let rule = &set.rules[ri];
        // Print order: decreasing candidate number, as SudoRules prints.
        let mut zs: Vec<usize> = f.conclusions.iter().collect();
        zs.reverse();
        if !set.blocked {
            zs.truncate(1);
        }
        let pattern = if opts.patterns {
            rule.render(frame, &st, &f.evidence)
        } else {
            String::new()
        };
        let picture = opts.pictures.then(|| {
            Box::new(StepPicture {
                before: snapshot(frame, &st),
                shown: shown(rule, frame, &st, &f.evidence),
            })
        });
        for &z in &zs {
            match f.kind {
                ConclusionKind::Assert => st.assert(frame, z),
                ConclusionKind::Eliminate => st.cands.remove(z),
            }
        }
        if let Some(s) = stats.as_mut() {
            s[ri].steps += 1;
            s[ri].conclusions += zs.len() as u64;
        }
        let grade = f.grade.unwrap_or_else(|| rule.rule.head.grade());
        if rule.rule.head.rated
            && hardest.is_none_or(|h| steps[h].grade.complexity < grade.complexity)
        {
            hardest = Some(steps.len());
        }
        steps.push(TypedStep {
            name: rule.name_of(&f.evidence),
            rule: rule.rule.clone(),
            kind: f.kind,
            conclusions: zs.iter().map(|&z| frame.cand(z)).collect(),
            grade,
            pattern,
            picture,
        });
    };
    TypedRun {
        start: opts.pictures.then(|| snapshot(frame, &State::start(frame))),
        end: snapshot(frame, &st),
        stop,
        grid: st.grid(frame),
        cands_start: frame.len(),
        cands_end: st.cands.len(),
        steps,
        hardest,
        rating_type: set.rating_type.clone(),
        elapsed: start.elapsed(),
        stats,
    }
}

/// A state in the model's candidates.
fn snapshot<const W: usize>(frame: &Frame<W>, st: &State<W>) -> Snapshot {
    Snapshot {
        cands: DynBits::from_indices(frame.model.n_cands, st.cands.iter().map(|z| frame.cand(z))),
        values: st.values.iter().map(|z| frame.cand(z)).collect(),
    }
}

/// A match's evidence in the model's terms, read on the state it was
/// found in.
fn shown<const W: usize>(
    rule: &TypedRule,
    frame: &Frame<W>,
    st: &State<W>,
    ev: &Evidence,
) -> Shown {
    match (ev, &rule.form) {
        (Evidence::Var(v), _) => Shown::Var(frame.vars[*v].var as usize),
        (Evidence::Chain(ch), _) => Shown::Chain {
            target: frame.cand(ch.target),
            links: ch
                .links
                .iter()
                .map(|l| ShownLink {
                    var: frame.vars[l.var].var as usize,
                    left: frame.cand(l.left),
                    right: l.right.map(|r| {
                        if r >= frame.len() {
                            let g = frame.groups[r - frame.len()].cands.and(&st.cands);
                            Right::Group(g.iter().map(|z| frame.cand(z)).collect())
                        } else {
                            Right::Cand(frame.cand(r))
                        }
                    }),
                })
                .collect(),
        },
        (Evidence::Trial(recipe), Form::Trial(t)) => Shown::Literals(
            t.literals(frame, st, recipe)
                .into_iter()
                .map(|(z, on)| (frame.cand(z), on))
                .collect(),
        ),
        _ => Shown::Nothing,
    }
}
