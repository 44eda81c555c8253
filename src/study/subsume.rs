//! Subsumption: does rule set B conclude everything rule set A concludes?
//!
//! Along each puzzle's resolution path (the path rules applied as `solve`
//! applies them), every state before a step, and the state the path ends
//! in when it is not solved, is *examined*:
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
//! An **elimination** of A is covered when B eliminates the candidate, or
//! the candidate goes because of a value B places (it is nrc-linked to
//! it: the consequences of an assertion count, as the engine applies them).
//! An **assertion** of A is covered when B places the same value, or when B
//! removes every other live candidate of one of the candidate's four CSP
//! variables (its cell, or its row, column or block for the digit): B then
//! leaves it the only place, which is what the assertion says. A's
//! conclusions that are not covered are *missed*; A ⊆ B held when nothing
//! was missed on any state examined.
//!
//! B's direct search stops as soon as everything A concluded at the state
//! is covered, and the closure is run only when the direct conclusions
//! leave something missed: the verdict and the counts are those of the full
//! computation, the cost is not.

use crate::engine::{Limits, Runner, Step, StopReason};
use crate::grid::bits::Bits;
use crate::grid::geometry::{cand_vars, var_cands};
use crate::grid::links::links;
use crate::grid::state::State;
use crate::path::conclusion_text;
use crate::rule::Rule;
use crate::ruleset::RuleSet;
use crate::search::{ConclusionKind, Found, SearchCx};
use serde::Serialize;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Eliminations and assertions, as candidate sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conclusions {
    pub elim: Bits,
    pub assert: Bits,
}

impl Conclusions {
    pub fn add(&mut self, f: &Found) {
        match f.kind {
            ConclusionKind::Eliminate => self.elim = self.elim.or(&f.conclusions),
            ConclusionKind::Assert => self.assert = self.assert.or(&f.conclusions),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.elim.is_empty() && self.assert.is_empty()
    }

    pub fn len(&self) -> usize {
        self.elim.len() + self.assert.len()
    }

    /// The conclusions as SudoRules writes them (`r1c2 ≠ 3`, `r4c5 = 6`),
    /// eliminations first, each in candidate order.
    pub fn texts(&self) -> Vec<String> {
        let e = self
            .elim
            .iter()
            .map(|z| conclusion_text(ConclusionKind::Eliminate, z));
        let a = self
            .assert
            .iter()
            .map(|z| conclusion_text(ConclusionKind::Assert, z));
        e.chain(a).collect()
    }

    /// Whether a match's conclusions meet these.
    fn meets(&self, f: &Found) -> bool {
        match f.kind {
            ConclusionKind::Eliminate => self.elim.intersects(&f.conclusions),
            ConclusionKind::Assert => self.assert.intersects(&f.conclusions),
        }
    }
}

/// The live candidates of `state` that conclusions `c` remove: their
/// eliminations, and the candidates linked to the values they place.
pub fn removed(state: &State, c: &Conclusions) -> Bits {
    let mut r = c.elim;
    for v in c.assert.iter() {
        r = r.or(links(v));
    }
    r.and(&state.cands)
}

/// A's conclusions that B's do not cover at `state` (see the module docs).
pub fn missed(state: &State, a: &Conclusions, b: &Conclusions) -> Conclusions {
    let gone = removed(state, b);
    let elim = a.elim.minus(&gone);
    let mut assert = a.assert.minus(&b.assert);
    for v in a.assert.iter() {
        let only_place = cand_vars(v).into_iter().any(|x| {
            var_cands(x)
                .into_iter()
                .all(|z| z == v || !state.cands.contains(z) || gone.contains(z))
        });
        if only_place {
            assert.remove(v);
        }
    }
    Conclusions { elim, assert }
}

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
    /// in SudoRules' notation.
    pub step: String,
    /// What B missed at this state, of all A concluded.
    pub missed: Conclusions,
}

/// Counts for one puzzle (or, added up, for a collection).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Puzzles studied.
    pub puzzles: u64,
    pub states: u64,
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
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.puzzles += o.puzzles;
        self.states += o.states;
        self.states_with_a += o.states_with_a;
        self.a_eliminations += o.a_eliminations;
        self.a_assertions += o.a_assertions;
        self.missed_eliminations += o.missed_eliminations;
        self.missed_assertions += o.missed_assertions;
        self.states_missed += o.states_missed;
        self.puzzles_missed += o.puzzles_missed;
    }

    pub fn missed(&self) -> u64 {
        self.missed_eliminations + self.missed_assertions
    }
}

/// One puzzle's study.
#[derive(Clone, Debug)]
pub struct PuzzleStudy {
    pub counts: Counts,
    /// How the resolution path ended.
    pub stop: StopReason,
    /// The first counter-examples along the path (at most the number asked).
    pub examples: Vec<Example>,
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
    /// Limits of each path run (and of each closure run).
    pub limits: Limits,
}

/// Every conclusion of every match of `rules` at `state`.
pub fn all_conclusions(rules: &[Arc<Rule>], state: &State) -> Conclusions {
    let mut c = Conclusions::default();
    let mut cx = SearchCx::new(None);
    for r in rules {
        let _ = r.searcher.search(&mut cx, state, &mut |f| {
            c.add(&f);
            ControlFlow::Continue(())
        });
    }
    c
}

impl Study<'_> {
    /// B's conclusions at `state`, enough to decide what of `a` is missed.
    fn b_conclusions(&self, state: &State, a: &Conclusions) -> Conclusions {
        let mut b = Conclusions::default();
        let mut cx = SearchCx::new(None);
        for r in self.b {
            let done = r.searcher.search(&mut cx, state, &mut |f| {
                b.add(&f);
                if missed(state, a, &b).is_empty() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if done.is_break() {
                return b;
            }
        }
        if self.mode == Mode::Closure {
            let set = RuleSet {
                name: "B".into(),
                description: String::new(),
                rules: self.b.to_vec(),
                blocked: true,
                warnings: Vec::new(),
                strategy: Default::default(),
                assumes_unique: false,
            };
            let end = Runner::new(&set)
                .limits(self.limits)
                .outcome_only(true)
                .run(*state)
                .state;
            b.elim = b.elim.or(&state.cands.minus(&end.cands));
            b.assert = b.assert.or(&end.values.minus(&state.values));
        }
        b
    }

    /// The first match of A at `state` that concludes something in `gone`,
    /// as a step line.
    fn step_text(&self, state: &State, gone: &Conclusions) -> String {
        let mut cx = SearchCx::new(None);
        for r in self.a {
            let mut hit = None;
            let _ = r.searcher.search(&mut cx, state, &mut |f| {
                if gone.meets(&f) {
                    hit = Some(f);
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if let Some(f) = hit {
                return Step::found(r, f, state).text();
            }
        }
        String::new()
    }

    /// Studies one puzzle from its starting state.
    pub fn puzzle(&self, start: State) -> PuzzleStudy {
        let run = Runner::new(self.path).limits(self.limits).run(start);
        let mut states: Vec<State> = run.steps.iter().map(|s| s.before).collect();
        if run.stop != StopReason::Solved && run.stop != StopReason::Contradiction {
            states.push(run.state);
        }
        let mut counts = Counts {
            puzzles: 1,
            ..Counts::default()
        };
        let mut examples = Vec::new();
        for s in &states {
            counts.states += 1;
            let a = all_conclusions(self.a, s);
            if a.is_empty() {
                continue;
            }
            counts.states_with_a += 1;
            counts.a_eliminations += a.elim.len() as u64;
            counts.a_assertions += a.assert.len() as u64;
            let b = self.b_conclusions(s, &a);
            let m = missed(s, &a, &b);
            if m.is_empty() {
                continue;
            }
            counts.states_missed += 1;
            counts.missed_eliminations += m.elim.len() as u64;
            counts.missed_assertions += m.assert.len() as u64;
            if examples.len() < self.examples {
                examples.push(Example {
                    state: *s,
                    step: self.step_text(s, &m),
                    missed: m,
                });
            }
        }
        if counts.states_missed > 0 {
            counts.puzzles_missed = 1;
        }
        PuzzleStudy {
            counts,
            stop: run.stop,
            examples,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::{cand, cell};

    #[test]
    fn an_assertion_covers_what_it_removes_and_its_only_place() {
        let s = State::empty_grid();
        let v = cand(cell(0, 0), 4);
        let b = Conclusions {
            elim: Bits::EMPTY,
            assert: Bits::single(v),
        };
        // B places 5 in r1c1: r1c2 ≠ 5 and r1c1 ≠ 3 follow.
        let a = Conclusions {
            elim: Bits::from_indices([cand(cell(0, 1), 4), cand(cell(0, 0), 2)]),
            assert: Bits::single(v),
        };
        assert!(missed(&s, &a, &b).is_empty());
        // B removes every other 5 of row 1: r1c1 = 5 is covered.
        let others = Bits::from_indices((1..9).map(|c| cand(cell(0, c), 4)));
        let b = Conclusions {
            elim: others,
            assert: Bits::EMPTY,
        };
        let a = Conclusions {
            elim: Bits::EMPTY,
            assert: Bits::single(v),
        };
        assert!(missed(&s, &a, &b).is_empty());
        // One of them left: not covered.
        let mut fewer = others;
        fewer.remove(cand(cell(0, 8), 4));
        let b = Conclusions {
            elim: fewer,
            assert: Bits::EMPTY,
        };
        assert_eq!(missed(&s, &a, &b), a);
    }
}
