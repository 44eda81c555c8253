//! Subsumption: does rule set B conclude everything rule set A concludes?
//!
//! Along each puzzle's resolution path (the path rules applied as `solve`
//! applies them), every state before a step that is not by a rule of level
//! 0 (the singles), and the state the path ends in when it is not solved,
//! is *examined* ([`Study::every_state`]: every state before a step). A
//! state where a single applies is not one where a resolution theory (all
//! of which hold the singles, applied first) would try A's rules; A's
//! patterns there can be degenerate (an X-Wing whose row holds one
//! candidate, a hidden single), which chains do not take as a variable (a
//! variable with one candidate is a single, not a link of a chain): with
//! every state, `x-wing ⊆ whip` fails on them, and holds without.
//!
//! - **A's conclusions** are everything the rules of A conclude there:
//!   every match of every rule of A (not only the first), their
//!   eliminations and assertions as two sets of candidates;
//! - **B's conclusions** are the same for B (*direct*), or with `--closure`
//!   B run to its fixpoint on a copy of the state (B's rules only, simplest
//!   first, each match's conclusions applied, until none applies): every
//!   candidate that went, every value that was placed, together with B's
//!   direct conclusions at the state itself.
//!
//! A's conclusions that B's do not cover ([`cover`]) are *missed*; A ⊆ B
//! held when nothing was missed on any state examined.
//!
//! Nothing is searched for that the answer does not need. A's rules are
//! asked in groups ([`ask::groups`]: a chain family is one breadth-first
//! search per target for all its lengths), each for the candidates no
//! group before it concluded; B is asked, after each group of A, about
//! what that group newly concluded and nothing else: a search for those
//! conclusions ([`Searcher::search_for`]: a chain rule searches those
//! targets only), stopped once they are covered; the closure is run only
//! when direct conclusions leave something missed. The verdict, the counts
//! and the counter-examples are those of the whole computation.
//!
//! A chain rule proves its target false, so the candidates of the puzzle's
//! solution are not searched for by A's chain families: a target without
//! a chain is the most costly search there is (every partial chain to the
//! longest length), and for those the answer is known. Pattern rules are
//! asked about every candidate (a rule file may hold an unsound one).
//!
//! Limits are honoured inside every search: a puzzle's deadline
//! (`--max-seconds`) stops its study where it is (the states left are not
//! examined), and a search that would hold more memory than the cap is
//! given up, its question left undecided ([`SearchCx::undecided`]). What
//! was not decided is counted, never taken for an answer: a conclusion is
//! missed only when B's searches for it all ended.

mod cover;
pub mod typed;

pub use cover::{Conclusions, cover_targets, depending_on, missed, removed};

use crate::engine::{Limits, Runner, Step, StopReason};
use crate::grid::bits::Bits;
use crate::grid::geometry::{N_CELLS, cand};
use crate::grid::state::State;
use crate::oracle::solver::{Solutions, solve_candidates};
use crate::rating::Rating;
use crate::rule::Rule;
use crate::ruleset::RuleSet;
use crate::search::ask::{self, Group};
use crate::search::{SearchCx, Searcher, Stop, Targets};
use serde::Serialize;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

/// How B's conclusions are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// B's matches at the state itself.
    Direct,
    /// B to its fixpoint on a copy of the state.
    Closure,
}

/// One state where B missed something A concluded.
#[derive(Clone, Debug)]
pub struct Example {
    /// The state, before A's step.
    pub state: State,
    /// A's step (the first match of A that concludes something B missed),
    /// in SudoRules' notation; empty when a limit stopped its search.
    pub step: String,
    /// What B missed at this state, of all A concluded.
    pub missed: Conclusions,
    /// The study stopped at this state (`--max-counterexamples`): what B
    /// misses is what was found before, not all A concludes there.
    pub partial: bool,
}

/// Counts for one puzzle (or, added up, for a collection).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Puzzles studied.
    pub puzzles: u64,
    /// States examined.
    pub states: u64,
    /// States before a step by a rule of level 0 (a single), not examined.
    pub states_before_singles: u64,
    /// States where A concludes something.
    pub states_with_a: u64,
    pub a_eliminations: u64,
    pub a_assertions: u64,
    pub missed_eliminations: u64,
    pub missed_assertions: u64,
    /// States where B missed something.
    pub states_missed: u64,
    /// Puzzles with such a state.
    pub puzzles_missed: u64,
    /// States examined where something was not decided: a search over the
    /// memory cap, or the deadline during the state.
    pub states_undecided: u64,
    /// Candidates A's searches gave up on (A may conclude them).
    pub undecided_a: u64,
    /// A's conclusions whose cover B's searches gave up on.
    pub undecided_cover: u64,
    /// States of the paths not examined (after a puzzle's time limit).
    pub states_not_examined: u64,
    /// Puzzles whose study the time limit stopped.
    pub puzzles_time_limit: u64,
    /// Puzzles whose resolution path the memory cap stopped.
    pub puzzles_memory_limit: u64,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.puzzles += o.puzzles;
        self.states += o.states;
        self.states_before_singles += o.states_before_singles;
        self.states_with_a += o.states_with_a;
        self.a_eliminations += o.a_eliminations;
        self.a_assertions += o.a_assertions;
        self.missed_eliminations += o.missed_eliminations;
        self.missed_assertions += o.missed_assertions;
        self.states_missed += o.states_missed;
        self.puzzles_missed += o.puzzles_missed;
        self.states_undecided += o.states_undecided;
        self.undecided_a += o.undecided_a;
        self.undecided_cover += o.undecided_cover;
        self.states_not_examined += o.states_not_examined;
        self.puzzles_time_limit += o.puzzles_time_limit;
        self.puzzles_memory_limit += o.puzzles_memory_limit;
    }

    pub fn missed(&self) -> u64 {
        self.missed_eliminations + self.missed_assertions
    }

    /// Was everything decided (no limit left a question open)?
    pub fn complete(&self) -> bool {
        self.states_undecided == 0
            && self.states_not_examined == 0
            && self.puzzles_time_limit == 0
            && self.puzzles_memory_limit == 0
    }
}

/// Why a puzzle's study ended before its path's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stopped {
    /// The puzzle's time ran out (`--max-seconds`).
    TimeLimit,
    /// The resolution path went over the memory cap.
    MemoryLimit,
    /// The counter-examples asked for were found (`--max-counterexamples`).
    Counterexamples,
}

/// One puzzle's study (its counter-examples: [`Example`] on classic
/// Sudoku, [`typed::TypedExample`] on another type).
#[derive(Clone, Debug)]
pub struct PuzzleStudy<E = Example> {
    pub counts: Counts,
    /// How the resolution path ended.
    pub stop: StopReason,
    /// The first counter-examples along the path (at most the number asked).
    pub examples: Vec<E>,
    /// Why the study ended early, if it did.
    pub stopped: Option<Stopped>,
}

impl<E> PuzzleStudy<E> {
    /// A puzzle's study once its states are examined: its counts get the
    /// puzzle-level tallies (missed, stopped by a limit) from its states'.
    fn ended(
        mut counts: Counts,
        stop: StopReason,
        examples: Vec<E>,
        stopped: Option<Stopped>,
    ) -> PuzzleStudy<E> {
        if counts.states_missed > 0 {
            counts.puzzles_missed = 1;
        }
        match stopped {
            Some(Stopped::TimeLimit) => counts.puzzles_time_limit = 1,
            Some(Stopped::MemoryLimit) => counts.puzzles_memory_limit = 1,
            _ => {}
        }
        PuzzleStudy {
            counts,
            stop,
            examples,
            stopped,
        }
    }
}

/// A subsumption study: A, B, how B is taken, and the rules that make the
/// resolution paths.
pub struct Study<'a> {
    pub a: &'a [Arc<Rule>],
    pub b: &'a [Arc<Rule>],
    pub mode: Mode,
    pub path: &'a RuleSet,
    /// Counter-examples to keep per puzzle.
    pub examples: usize,
    /// The time each puzzle's study may take (its path, every search, the
    /// closures), and the path's step limit.
    pub limits: Limits,
    /// The memory one search context may hold (bytes; see
    /// [`SearchCx::hold`]): a search that would hold more is given up.
    pub max_memory: Option<usize>,
    /// Stop a puzzle's study at this many states where B misses something.
    pub max_counterexamples: Option<usize>,
    /// Examine the states before a single's step too.
    pub every_state: bool,
}

/// What one state's examination found.
#[derive(Default)]
struct Examined {
    a: Conclusions,
    /// Candidates A's searches gave up on, not concluded by another group.
    a_unknown: Targets,
    /// A's conclusions B misses, every search for their cover ended.
    missed: Conclusions,
    /// A's conclusions whose cover is not known.
    cover_unknown: Conclusions,
    /// The deadline passed during the state.
    timed_out: bool,
    /// A counter-example stopped the state before its end.
    cut: bool,
}

/// B's side at one state: what it concluded of what it was asked, and what
/// each group was asked in searches that ran to their end.
struct BSide<'g, 'a> {
    groups: &'g [Group<'a>],
    b: Conclusions,
    asked: Vec<Targets>,
    unknown: Targets,
}

impl BSide<'_, '_> {
    /// Asks B's groups about A's conclusions `new` until they are covered;
    /// `Break` at the deadline.
    fn ask(&mut self, cx: &mut SearchCx, s: &State, new: &Conclusions) -> ControlFlow<()> {
        for (gi, g) in self.groups.iter().enumerate() {
            let todo = missed(s, new, &self.b);
            if todo.is_empty() {
                break;
            }
            let w = cover_targets(s, &todo).minus(&self.asked[gi]);
            if w.is_empty() {
                continue;
            }
            cx.undecided = Targets::default();
            let mut covered = false;
            let b = &mut self.b;
            let flow = g.search_for(cx, s, &w, &mut |_, f| {
                b.add(&f);
                if missed(s, &todo, b).is_empty() {
                    covered = true;
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            self.unknown = self.unknown.or(&cx.undecided);
            if covered {
                break;
            }
            if flow.is_break() {
                return ControlFlow::Break(());
            }
            self.asked[gi] = self.asked[gi].or(&w);
        }
        ControlFlow::Continue(())
    }
}

impl Study<'_> {
    fn searchers(rules: &[Arc<Rule>]) -> Vec<&dyn Searcher> {
        rules.iter().map(|r| &*r.searcher).collect()
    }

    /// B to its fixpoint from `state`: what went and what was placed, or
    /// `None` when a limit stopped it.
    fn closure(&self, cx: &SearchCx, state: &State) -> Option<Conclusions> {
        let set = RuleSet {
            name: "B".into(),
            description: String::new(),
            rules: self.b.to_vec(),
            foreign: Vec::new(),
            blocked: true,
            warnings: Vec::new(),
            strategy: Default::default(),
            assumes_unique: false,
            rating_type: None,
        };
        let left = match cx.deadline() {
            Some(d) => Some(d.checked_duration_since(Instant::now())?),
            None => None,
        };
        let run = Runner::new(&set)
            .limits(Limits {
                max_steps: None,
                max_time: left,
                max_memory: None,
                max_cpu: None,
            })
            .max_memory(self.max_memory)
            .outcome_only(true)
            .run(*state);
        if matches!(run.stop, StopReason::TimeLimit | StopReason::MemoryLimit) {
            return None;
        }
        Some(Conclusions {
            elim: state.cands.minus(&run.state.cands),
            assert: run.state.values.minus(&state.values),
        })
    }

    /// Examines one state: A's conclusions group by group, B asked about
    /// each group's new ones; with `stop_on_miss`, returns at the first
    /// group after which B misses something.
    fn examine(
        &self,
        cx: &mut SearchCx,
        s: &State,
        a_groups: &[Group],
        b_groups: &[Group],
        stop_on_miss: bool,
        solution: &Bits,
    ) -> Examined {
        let mut e = Examined::default();
        let mut bs = BSide {
            groups: b_groups,
            b: Conclusions::default(),
            asked: vec![Targets::default(); b_groups.len()],
            unknown: Targets::default(),
        };
        // A's conclusions whose cover B was asked about to the end.
        let mut asked = Conclusions::default();
        for g in a_groups {
            let mut wanted = Targets::all(s).minus(&e.a.targets());
            if let Group::Chains(_) = g {
                // A chain proves its target false: no chain rule concludes
                // a candidate of the solution, so none is searched for
                // (a target without a chain costs the whole search).
                wanted.elim = wanted.elim.minus(solution);
            }
            cx.undecided = Targets::default();
            let before = e.a;
            let a = &mut e.a;
            let flow = g.search_for(cx, s, &wanted, &mut |_, f| {
                a.add(&f);
                ControlFlow::Continue(())
            });
            e.a_unknown = e.a_unknown.or(&cx.undecided);
            let new = e.a.minus(&before);
            if flow.is_break() {
                e.timed_out = true;
                break;
            }
            if new.is_empty() {
                continue;
            }
            if bs.ask(cx, s, &new).is_break() {
                e.timed_out = true;
                break;
            }
            asked = asked.or(&new);
            if stop_on_miss && self.mode == Mode::Direct {
                let m = missed(s, &asked, &bs.b);
                if !m.minus(&depending_on(s, &m, &bs.unknown)).is_empty() {
                    e.cut = true;
                    break;
                }
            }
        }
        e.a_unknown = e.a_unknown.minus(&e.a.targets());
        let mut m = missed(s, &asked, &bs.b);
        let mut unknown = depending_on(s, &m, &bs.unknown);
        if self.mode == Mode::Closure && !m.is_empty() && !e.cut {
            let closure = if e.timed_out {
                None
            } else {
                self.closure(cx, s)
            };
            match closure {
                Some(c) => {
                    m = missed(s, &m, &bs.b.or(&c));
                    unknown = depending_on(s, &m, &bs.unknown);
                }
                None => {
                    e.timed_out |= cx.deadline().is_some_and(|d| Instant::now() >= d);
                    unknown = m;
                }
            }
        }
        // What A concluded and B was not asked about (the deadline) is not
        // known either.
        e.cover_unknown = unknown.or(&e.a.minus(&asked));
        e.missed = m.minus(&unknown);
        e
    }

    /// The first match of A at `state` that concludes something in `gone`,
    /// as a step line (empty when a limit stopped the search).
    fn step_text(&self, cx: &mut SearchCx, state: &State, gone: &Conclusions) -> String {
        let wanted = gone.targets();
        for r in self.a {
            let hit = r.searcher.first_for(cx, state, &wanted);
            if cx.interrupted() {
                cx.resume();
                return String::new();
            }
            if let Some(f) = hit {
                return Step::found(r, f, state).text();
            }
        }
        String::new()
    }

    /// Studies one puzzle from its starting state.
    pub fn puzzle(&self, start: State) -> PuzzleStudy {
        let t0 = Instant::now();
        let deadline = self.limits.max_time.and_then(|t| t0.checked_add(t));
        let run = Runner::new(self.path)
            .limits(self.limits)
            .max_memory(self.max_memory)
            .run(start);
        let mut counts = Counts {
            puzzles: 1,
            ..Counts::default()
        };
        let mut states: Vec<State> = Vec::with_capacity(run.steps.len() + 1);
        for step in &run.steps {
            if self.every_state || step.rule.head.level != Rating::level(0) {
                states.push(step.before);
            } else {
                counts.states_before_singles += 1;
            }
        }
        if run.stop != StopReason::Solved && run.stop != StopReason::Contradiction {
            states.push(run.state);
        }
        let mut stopped = match run.stop {
            StopReason::TimeLimit => Some(Stopped::TimeLimit),
            StopReason::MemoryLimit => Some(Stopped::MemoryLimit),
            _ => None,
        };
        let a_searchers = Self::searchers(self.a);
        let b_searchers = Self::searchers(self.b);
        let (a_groups, b_groups) = (ask::groups(&a_searchers), ask::groups(&b_searchers));
        let mut cx = SearchCx::new(deadline);
        cx.set_memory_limit(self.max_memory);
        let solution = solution_of(&start);
        let mut examples = Vec::new();
        for (i, s) in states.iter().enumerate() {
            if cx.stop() == Some(Stop::Deadline) || deadline.is_some_and(|d| Instant::now() >= d) {
                counts.states_not_examined += (states.len() - i) as u64;
                stopped = Some(Stopped::TimeLimit);
                break;
            }
            counts.states += 1;
            let last = self
                .max_counterexamples
                .is_some_and(|n| counts.states_missed + 1 >= n as u64);
            let e = self.examine(&mut cx, s, &a_groups, &b_groups, last, &solution);
            if !e.a.is_empty() {
                counts.states_with_a += 1;
                counts.a_eliminations += e.a.elim.len() as u64;
                counts.a_assertions += e.a.assert.len() as u64;
            }
            let undecided_a = (e.a_unknown.elim.len() + e.a_unknown.assert.len()) as u64;
            if undecided_a > 0 || !e.cover_unknown.is_empty() || e.timed_out {
                counts.states_undecided += 1;
                counts.undecided_a += undecided_a;
                counts.undecided_cover += e.cover_unknown.len() as u64;
            }
            if !e.missed.is_empty() {
                counts.states_missed += 1;
                counts.missed_eliminations += e.missed.elim.len() as u64;
                counts.missed_assertions += e.missed.assert.len() as u64;
                if examples.len() < self.examples {
                    examples.push(Example {
                        state: *s,
                        step: self.step_text(&mut cx, s, &e.missed),
                        missed: e.missed,
                        partial: e.cut,
                    });
                }
            }
            if e.timed_out {
                counts.states_not_examined += (states.len() - i - 1) as u64;
                stopped = Some(Stopped::TimeLimit);
                break;
            }
            if e.cut || last && !e.missed.is_empty() {
                counts.states_not_examined += (states.len() - i - 1) as u64;
                stopped = Some(Stopped::Counterexamples);
                break;
            }
        }
        PuzzleStudy::ended(counts, run.stop, examples, stopped)
    }
}

/// The candidates of the puzzle's solution, when it has exactly one (else
/// none: nothing is left out of A's searches).
fn solution_of(start: &State) -> Bits {
    let masks: [u16; 81] = std::array::from_fn(|c| {
        (0..9)
            .filter(|&d| start.cands.contains(cand(c, d)) || start.values.contains(cand(c, d)))
            .fold(0u16, |m, d| m | 1 << d)
    });
    match solve_candidates(&masks) {
        Solutions::Unique(digits) => {
            Bits::from_indices((0..N_CELLS).map(|c| cand(c, usize::from(digits[c]) - 1)))
        }
        _ => Bits::EMPTY,
    }
}
