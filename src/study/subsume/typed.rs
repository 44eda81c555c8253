//! Subsumption on puzzles of any type ([`crate::model`]): the question of
//! the parent module asked with rule sets compiled for the type
//! ([`crate::typed`]).
//!
//! The states examined, the two modes (direct, closure) and what covers a
//! conclusion are those of the classic study, with a type's CSP variables
//! in place of the four of a classic candidate. At each state, A's rules
//! give all their matches, a chain rule searching only the candidates
//! that are not of the puzzle's solution (a chain proves its target
//! false); B is then asked rule by rule, simplest first, until what A
//! concluded is covered, a chain rule searching only the eliminations
//! that would cover what is still missed. The other rules of B give all
//! their matches (the typed back end has no targeted pattern search).
//!
//! Limits are honoured: the puzzle's deadline stops its study where it is
//! (the states left are not examined), and a state where a search went
//! over the memory cap is undecided as a whole: what B seemed to miss
//! there is counted as not decided, never as missed.

use super::{Counts, Mode, PuzzleStudy, Stopped};
use crate::engine::{Limits, StopReason};
use crate::grid::bits::BitSet;
use crate::model::Model;
use crate::rating::Rating;
use crate::search::{ConclusionKind, SearchCx, Stop};
use crate::typed::engine::{Options, Snapshot, Start, TypedStep, run_at};
use crate::typed::{Found, Frame, NoFrame, State, TypedSet, elems};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

/// A study on a type: A, B, how B is taken, and the set whose resolution
/// paths give the states examined, all compiled for the type.
pub struct TypedStudy<'a> {
    pub a: &'a TypedSet,
    pub b: &'a TypedSet,
    pub mode: Mode,
    pub path: &'a TypedSet,
    /// Counter-examples to keep per puzzle.
    pub examples: usize,
    /// The time each puzzle's study may take, and the path's step limit.
    pub limits: Limits,
    /// The memory one search context may hold (bytes).
    pub max_memory: Option<usize>,
    /// Stop a puzzle's study at this many states where B misses something.
    pub max_counterexamples: Option<usize>,
    /// Examine the states before a single's step too.
    pub every_state: bool,
}

/// One state where B missed something A concluded, in the type's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedExample {
    /// The state before A's step: each cell's value, or its live symbols,
    /// cells in order, separated by spaces.
    pub state: String,
    /// A's step (its first match that concludes something B missed), as a
    /// path prints it; empty when the time limit stopped its search.
    pub step: String,
    /// What B missed (`r1c2≠3`, `r4c5=6`), eliminations first.
    pub missed: Vec<String>,
    /// The study stopped at this state (`--max-counterexamples`).
    pub partial: bool,
}

/// Eliminations and assertions in a frame's local candidates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Concl<const W: usize> {
    elim: BitSet<W>,
    assert: BitSet<W>,
}

impl<const W: usize> Concl<W> {
    fn add(&mut self, f: &Found<W>) {
        match f.kind {
            ConclusionKind::Eliminate => self.elim = self.elim.or(&f.conclusions),
            ConclusionKind::Assert => self.assert = self.assert.or(&f.conclusions),
        }
    }

    fn or(&self, o: &Concl<W>) -> Concl<W> {
        Concl {
            elim: self.elim.or(&o.elim),
            assert: self.assert.or(&o.assert),
        }
    }

    fn is_empty(&self) -> bool {
        self.elim.is_empty() && self.assert.is_empty()
    }

    fn len(&self) -> usize {
        self.elim.len() + self.assert.len()
    }

    fn intersects(&self, o: &Concl<W>) -> bool {
        self.elim.intersects(&o.elim) || self.assert.intersects(&o.assert)
    }
}

/// A's conclusions `a` that B's conclusions `b` do not cover at `st`: an
/// elimination is covered when B eliminates the candidate or places a
/// value linked to it; an assertion when B places it, or removes every
/// other live candidate of one of its CSP variables.
fn missed<const W: usize>(frame: &Frame<W>, st: &State<W>, a: &Concl<W>, b: &Concl<W>) -> Concl<W> {
    let mut gone = b.elim;
    for v in b.assert.iter() {
        gone = gone.or(&frame.links[v]);
    }
    let gone = gone.and(&st.cands);
    let mut assert = a.assert.minus(&b.assert);
    for v in a.assert.iter() {
        let only_place = frame.cand_vars[v].iter().any(|&x| {
            let mut others = frame.vars[x as usize].cands.and(&st.cands);
            others.remove(v);
            others.minus(&gone).is_empty()
        });
        if only_place {
            assert.remove(v);
        }
    }
    Concl {
        elim: a.elim.minus(&gone),
        assert,
    }
}

/// The eliminations that would cover `m` at `st` (a chain concludes
/// eliminations only): `m`'s own, and for each assertion the other live
/// candidates of its CSP variables.
fn cover_eliminations<const W: usize>(frame: &Frame<W>, st: &State<W>, m: &Concl<W>) -> BitSet<W> {
    let mut t = m.elim;
    for v in m.assert.iter() {
        for &x in &frame.cand_vars[v] {
            t = t.or(&frame.vars[x as usize].cands.and(&st.cands));
        }
        t.remove(v);
    }
    t
}

/// What one state's examination found.
#[derive(Default)]
struct Examined<const W: usize> {
    a: Concl<W>,
    missed: Concl<W>,
    /// A search went over the memory cap: nothing at the state is decided.
    undecided: bool,
    timed_out: bool,
}

impl TypedStudy<'_> {
    /// Studies one puzzle of `model` from `start`.
    pub fn puzzle(
        &self,
        model: &Arc<Model>,
        start: &Start,
    ) -> Result<PuzzleStudy<TypedExample>, NoFrame> {
        let t0 = Instant::now();
        let deadline = self.limits.max_time.and_then(|t| t0.checked_add(t));
        // The path, with the state before each step.
        let run = run_at(
            model,
            self.path,
            start,
            Options {
                limits: self.limits,
                max_memory: self.max_memory,
                pictures: true,
                ..Default::default()
            },
        )?;
        let mut n = start.live.iter().filter(|&&b| b).count();
        if self.a.elements || self.b.elements {
            n = n.max(elems::needed(model, &start.live));
        }
        macro_rules! dispatch {
            ($($w:literal),*) => {
                $(if n <= 64 * $w {
                    let frame = Frame::<$w>::build(model.clone(), &start.givens, &start.live);
                    return Ok(self.on_frame(&frame, start, &run, deadline));
                })*
            };
        }
        dispatch!(2, 4, 8, 12, 16, 32, 64, 128, 256, 512);
        Err(NoFrame(format!(
            "{n} live candidates once the givens are placed: the typed engine holds at most {}",
            64 * 512
        )))
    }

    fn on_frame<const W: usize>(
        &self,
        frame: &Frame<W>,
        start: &Start,
        run: &crate::typed::TypedRun,
        deadline: Option<Instant>,
    ) -> PuzzleStudy<TypedExample> {
        let mut counts = Counts {
            puzzles: 1,
            ..Counts::default()
        };
        let mut states: Vec<State<W>> = Vec::with_capacity(run.steps.len() + 1);
        for step in &run.steps {
            if self.every_state || step.grade.level != Rating::level(0) {
                let before = &step
                    .picture
                    .as_ref()
                    .expect("the path keeps its states")
                    .before;
                states.push(local(frame, before));
            } else {
                counts.states_before_singles += 1;
            }
        }
        if run.stop != StopReason::Solved && run.stop != StopReason::Contradiction {
            states.push(local(frame, &run.end));
        }
        let mut stopped = match run.stop {
            StopReason::TimeLimit => Some(Stopped::TimeLimit),
            StopReason::MemoryLimit => Some(Stopped::MemoryLimit),
            _ => None,
        };
        let mut cx = SearchCx::new(deadline);
        cx.set_memory_limit(self.max_memory);
        let solution = solution_of(frame, start);
        let mut examples = Vec::new();
        for (i, s) in states.iter().enumerate() {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                counts.states_not_examined += (states.len() - i) as u64;
                stopped = Some(Stopped::TimeLimit);
                break;
            }
            counts.states += 1;
            let e = self.examine(&mut cx, frame, start, s, deadline, &solution);
            if !e.a.is_empty() {
                counts.states_with_a += 1;
                counts.a_eliminations += e.a.elim.len() as u64;
                counts.a_assertions += e.a.assert.len() as u64;
            }
            if e.undecided || e.timed_out {
                counts.states_undecided += 1;
                counts.undecided_cover += e.missed.len() as u64;
            } else if !e.missed.is_empty() {
                counts.states_missed += 1;
                counts.missed_eliminations += e.missed.elim.len() as u64;
                counts.missed_assertions += e.missed.assert.len() as u64;
                if examples.len() < self.examples {
                    examples.push(TypedExample {
                        state: pencil_marks(frame, start, s),
                        step: self.step_text(&mut cx, frame, s, &e.missed),
                        missed: texts(frame, &e.missed),
                        partial: false,
                    });
                }
            }
            if e.timed_out {
                counts.states_not_examined += (states.len() - i - 1) as u64;
                stopped = Some(Stopped::TimeLimit);
                break;
            }
            if self
                .max_counterexamples
                .is_some_and(|n| counts.states_missed >= n as u64)
            {
                counts.states_not_examined += (states.len() - i - 1) as u64;
                stopped = Some(Stopped::Counterexamples);
                break;
            }
        }
        PuzzleStudy::ended(counts, run.stop, examples, stopped)
    }

    #[allow(clippy::too_many_arguments)]
    fn examine<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        start: &Start,
        s: &State<W>,
        deadline: Option<Instant>,
        solution: &BitSet<W>,
    ) -> Examined<W> {
        let mut e = Examined::default();
        // A stop at the memory cap leaves the state undecided; another
        // stop is the deadline.
        let given_up = |cx: &mut SearchCx, e: &mut Examined<W>| {
            if cx.stop() == Some(Stop::Memory) && cx.resume() {
                e.undecided = true;
            } else {
                e.timed_out = true;
            }
        };
        // A: every match. A chain proves its target false, so a chain
        // rule is not asked about the solution's candidates (a target
        // without a chain is the costliest search there is), nor about
        // what A has concluded already.
        for r in &self.a.rules {
            let targets = s.cands.minus(solution).minus(&e.a.elim);
            let a = &mut e.a;
            r.each_for(cx, frame, s, &targets, &mut |f| {
                a.add(&f);
                ControlFlow::Continue(())
            });
            if cx.interrupted() {
                given_up(cx, &mut e);
                e.missed = e.a;
                return e;
            }
        }
        if e.a.is_empty() {
            return e;
        }
        // B, simplest rule first, until it covers all A concludes: a chain
        // rule is asked about the eliminations that would cover what is
        // still missed.
        let mut b = Concl::default();
        let mut m = e.a;
        for r in &self.b.rules {
            if m.is_empty() {
                break;
            }
            let targets = cover_eliminations(frame, s, &m);
            let todo = m;
            let bb = &mut b;
            r.each_for(cx, frame, s, &targets, &mut |f| {
                bb.add(&f);
                if missed(frame, s, &todo, bb).is_empty() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            m = missed(frame, s, &m, &b);
            if cx.interrupted() && !m.is_empty() {
                given_up(cx, &mut e);
                e.missed = m;
                return e;
            }
            // A search stopped by the cap once its answer was complete
            // leaves nothing undecided.
            cx.resume();
        }
        e.missed = m;
        if self.mode == Mode::Closure && !e.missed.is_empty() {
            match self.closure(frame, start, s, deadline) {
                Some(c) => e.missed = missed(frame, s, &e.missed, &b.or(&c)),
                None => e.timed_out = true,
            }
        }
        e
    }

    /// B to its fixpoint from `s`: what went and what was placed, or
    /// `None` when a limit stopped it.
    fn closure<const W: usize>(
        &self,
        frame: &Frame<W>,
        start: &Start,
        s: &State<W>,
        deadline: Option<Instant>,
    ) -> Option<Concl<W>> {
        let m = &frame.model;
        let mut from = Start {
            givens: start.givens.clone(),
            live: vec![false; m.n_cands],
        };
        // A cage's combination placed is no cell's value: its variable is
        // left without a live candidate, out of the frame, as in a run.
        for g in s.values.iter().map(|z| frame.cand(z)) {
            if m.is_cell_cand(g) {
                from.givens[m.cand_cell(g)] = Some(m.cand_symbol(g));
            }
        }
        for z in s.cands.iter() {
            from.live[frame.cand(z)] = true;
        }
        let left = match deadline {
            Some(d) => Some(d.checked_duration_since(Instant::now())?),
            None => None,
        };
        let run = run_at(
            m,
            self.b,
            &from,
            Options {
                limits: Limits {
                    max_steps: None,
                    max_time: left,
                    max_memory: None,
                    max_cpu: None,
                },
                max_memory: self.max_memory,
                ..Default::default()
            },
        )
        .ok()?;
        if matches!(run.stop, StopReason::TimeLimit | StopReason::MemoryLimit) {
            return None;
        }
        let end = local(frame, &run.end);
        Some(Concl {
            elim: s.cands.minus(&end.cands).minus(&end.values),
            assert: end.values,
        })
    }

    /// The first match of A at `s` that concludes something in `gone`, as
    /// a path's step line (empty when a limit stopped the search).
    fn step_text<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        s: &State<W>,
        gone: &Concl<W>,
    ) -> String {
        for r in &self.a.rules {
            let mut hit = None;
            r.each(cx, frame, s, &mut |f| {
                let mut c = Concl::default();
                c.add(&f);
                if c.intersects(gone) {
                    hit = Some(f);
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if let Some(f) = hit {
                let mut zs: Vec<usize> = f.conclusions.iter().map(|z| frame.cand(z)).collect();
                zs.reverse();
                let step = TypedStep {
                    name: r.name_of(&f.evidence),
                    rule: r.rule.clone(),
                    kind: f.kind,
                    conclusions: zs,
                    grade: f.grade.unwrap_or_else(|| r.rule.head.grade()),
                    pattern: r.render(frame, s, &f.evidence),
                    picture: None,
                };
                return step.text(&frame.model);
            }
            if cx.interrupted() {
                cx.resume();
                return String::new();
            }
        }
        String::new()
    }
}

/// The local candidates of the puzzle's solution (none when it has not
/// exactly one: nothing is then left out of A's chain searches).
fn solution_of<const W: usize>(frame: &Frame<W>, start: &Start) -> BitSet<W> {
    use crate::oracle::generic::{Verdict, live_from_givens, solve};
    let m = &frame.model;
    match solve(m, &live_from_givens(m, &start.givens)) {
        Verdict::Unique(sol) => BitSet::from_indices(
            sol.iter()
                .enumerate()
                .map(|(cell, &sym)| frame.local[m.cand(cell, sym)])
                .filter(|&z| z != crate::typed::frame::NONE)
                .map(|z| z as usize),
        ),
        _ => BitSet::EMPTY,
    }
}

/// A snapshot (model candidates) as a state of `frame`.
fn local<const W: usize>(frame: &Frame<W>, snap: &Snapshot) -> State<W> {
    let to_local = |z: usize| frame.local[z] as usize;
    State {
        cands: BitSet::from_indices(snap.cands.iter().map(to_local)),
        values: BitSet::from_indices(snap.values.iter().map(|&z| to_local(z))),
    }
}

/// Each cell's value, or its live symbols, in cell order (a cage's
/// combinations are not shown: the cells' candidates say what is left).
fn pencil_marks<const W: usize>(frame: &Frame<W>, start: &Start, s: &State<W>) -> String {
    let m = &frame.model;
    let mut cells: Vec<String> = start
        .givens
        .iter()
        .map(|g| g.map_or(String::new(), |v| m.symbol_text(v).to_string()))
        .collect();
    let mut decided = vec![false; m.n_cells];
    let cell_cand = |z: usize| Some(frame.cand(z)).filter(|&g| m.is_cell_cand(g));
    for g in s.values.iter().filter_map(cell_cand) {
        cells[m.cand_cell(g)] = m.symbol_text(m.cand_symbol(g)).to_string();
        decided[m.cand_cell(g)] = true;
    }
    let mut live: Vec<Vec<&str>> = vec![Vec::new(); m.n_cells];
    for g in s.cands.iter().filter_map(cell_cand) {
        let c = m.cand_cell(g);
        if start.givens[c].is_none() && !decided[c] {
            live[c].push(m.symbol_text(m.cand_symbol(g)));
        }
    }
    for (cell, syms) in cells.iter_mut().zip(live) {
        if !syms.is_empty() {
            // Symbols of more than one character (sides over 35) are
            // separated by commas.
            let sep = if syms.iter().any(|t| t.len() > 1) {
                ","
            } else {
                ""
            };
            *cell = syms.join(sep);
        }
    }
    cells.join(" ")
}

/// Conclusions as a path writes them, eliminations first.
fn texts<const W: usize>(frame: &Frame<W>, c: &Concl<W>) -> Vec<String> {
    let m = &frame.model;
    let e = c.elim.iter().map(|z| m.eliminated_name(frame.cand(z)));
    let a = c.assert.iter().map(|z| m.asserted_name(frame.cand(z)));
    e.chain(a).collect()
}
