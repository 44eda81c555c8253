//! Checking trial rules: each clause's words (read from
//! [`crate::lang::names`]), each pass complete and coherent, errors at
//! their clause (file:line:column like every kind).

use super::Checker;
use crate::lang::ast::*;
use crate::lang::expand::{Errors, Params, substitute};
use crate::lang::names::{self, StepBy};
use crate::rating::Rating;
use crate::search::trial::{Conclude, Increment, Mode, Pass, Reads, Steps, TrialSpec};

/// A checked trial rule instance: its head and its search configuration.
#[derive(Clone, Debug)]
pub struct CheckedTrial {
    pub name: String,
    pub complexity: i64,
    pub level: Rating,
    pub label: Option<String>,
    pub spec: TrialSpec,
}

/// Checks one instance of a trial rule.
pub fn check_trial(
    ast: &RuleAst,
    clauses: &[TrialClause],
    params: &Params,
) -> Result<CheckedTrial, Errors> {
    let mut c = Checker::new(params);
    let name = substitute(&ast.name, params);
    let (complexity, level, label) = c.head(ast);
    let mut increment = None;
    let mut passes = Vec::new();
    let mut loose: Vec<&TrialClause> = Vec::new();
    let mut first_pass_span = None;
    let mut blocks = 0;
    let mut sweep_span = None;
    for cl in clauses {
        let inner = match &cl.kind {
            TrialKind::Pass(inner) => inner.as_slice(),
            _ => std::slice::from_ref(cl),
        };
        if let Some(s) = inner.iter().find(|k| matches!(k.kind, TrialKind::Sweep)) {
            sweep_span.get_or_insert(s.span);
        }
        match &cl.kind {
            TrialKind::Increment(w) => {
                let v = c.word_of(w, &names::TRIAL_INCREMENT, "increment");
                if let Some(v) = v {
                    if increment.is_some() {
                        c.err(cl.span, "`increment` given twice");
                    }
                    increment = Some(v);
                }
            }
            TrialKind::Pass(inner) => {
                blocks += 1;
                first_pass_span.get_or_insert(cl.span);
                let refs: Vec<&TrialClause> = inner.iter().collect();
                if let Some(p) = c.pass(&refs, cl.span, level) {
                    passes.push(p);
                }
            }
            _ => loose.push(cl),
        }
    }
    if !loose.is_empty() {
        if first_pass_span.is_some() {
            c.err(
                loose[0].span,
                "this clause is outside the rule's `pass` blocks: move it into one",
            );
        } else if let Some(p) = c.pass(&loose, ast.name_span, level) {
            passes.push(p);
        }
    } else if first_pass_span.is_none() {
        c.err(ast.name_span, "missing `conclude` clause");
    }
    if let (Some(sp), true) = (sweep_span, blocks > 1) {
        c.err(
            sp,
            "a `sweep` is the rule's one match: the rule can have only one pass",
        );
    }
    if !c.errs.is_empty() {
        return Err(c.errs);
    }
    let complexity = complexity.unwrap_or(0);
    Ok(CheckedTrial {
        spec: TrialSpec {
            passes,
            increment: increment.unwrap_or(Increment::None),
            complexity,
            label: label.clone().unwrap_or_else(|| name.clone()),
        },
        name,
        complexity,
        level,
        label,
    })
}

/// `A..=B` as a range of cell sizes, or an error.
fn cell_range(c: &mut Checker, a: i64, b: i64, sp: Span) -> Option<(usize, usize)> {
    if !(1..=9).contains(&a) || !(1..=9).contains(&b) || a > b {
        c.err(
            sp,
            format!("a range of cell sizes must be within 1..=9 and not empty, found {a}..={b}"),
        );
        return None;
    }
    Some((a as usize, b as usize))
}

impl Checker<'_> {
    /// One pass: its clauses, checked; `sp` is where a missing clause is
    /// reported.
    fn pass(&mut self, clauses: &[&TrialClause], sp: Span, head_level: Rating) -> Option<Pass> {
        let n0 = self.errs.len();
        let mut seen: Vec<&str> = Vec::new();
        let mut cells = None;
        let (mut assume_on, mut assume_off) = (None::<bool>, false);
        let mut steps = Steps::default();
        let mut reads = None;
        let mut propagate: Option<(String, Option<usize>)> = None;
        let mut propagate_span = sp;
        let mut apply: Option<(String, Span)> = None;
        let mut sweep: Option<Span> = None;
        let mut concludes: Vec<(Conclude, Span)> = Vec::new();
        // A `conclude` clause with an error is not also a missing one.
        let mut conclude_seen = false;
        for cl in clauses {
            let word = match &cl.kind {
                TrialKind::Assume(_) => "assume",
                TrialKind::Cells(..) => "cells",
                TrialKind::OnOff(_) => "on-off",
                TrialKind::OffOn(_) => "off-on",
                TrialKind::Reads(_) => "reads",
                TrialKind::Propagate { .. } => "propagate",
                TrialKind::Apply(_) => "apply",
                TrialKind::Sweep => "sweep",
                TrialKind::Conclude { .. } => "conclude",
                TrialKind::Pass(_) => {
                    self.err(cl.span, "a `pass` cannot hold another `pass`");
                    continue;
                }
                TrialKind::Increment(_) => {
                    self.err(cl.span, "`increment` belongs to the rule, not to a pass");
                    continue;
                }
            };
            if word != "conclude" {
                if seen.contains(&word) {
                    self.err(cl.span, format!("`{word}` given twice"));
                    continue;
                }
                seen.push(word);
            }
            match &cl.kind {
                TrialKind::Assume(ws) => {
                    let (mut on, mut off) = (false, false);
                    for w in ws {
                        match self.word_of(w, &names::TRIAL_ASSUME, "assumption") {
                            Some(true) => on = true,
                            Some(false) => off = true,
                            None => {}
                        }
                    }
                    assume_on = Some(on);
                    assume_off = off;
                }
                TrialKind::Cells(a, b) => cells = cell_range(self, *a, *b, cl.span),
                TrialKind::OnOff(ws) | TrialKind::OffOn(ws) => {
                    let on_off = matches!(cl.kind, TrialKind::OnOff(_));
                    for w in ws {
                        let (cell, house) = if on_off {
                            (&mut steps.on_off_cell, &mut steps.on_off_house)
                        } else {
                            (&mut steps.off_on_cell, &mut steps.off_on_house)
                        };
                        match self.word_of(w, &names::TRIAL_STEPS, "implication step") {
                            Some(StepBy::Cell) => *cell = true,
                            Some(StepBy::House) => *house = true,
                            Some(StepBy::None) | None => {}
                        }
                    }
                }
                TrialKind::Reads(w) => reads = self.word_of(w, &names::TRIAL_READS, "state"),
                TrialKind::Propagate { set, rounds } => {
                    propagate_span = cl.span;
                    let rounds = match rounds {
                        None => None,
                        Some((n, rsp)) if (1..=1000).contains(n) => {
                            let _ = rsp;
                            Some(*n as usize)
                        }
                        Some((n, rsp)) => {
                            self.err(
                                *rsp,
                                format!("rounds must be between 1 and 1000, found {n}"),
                            );
                            None
                        }
                    };
                    propagate = Some((self.param_word(set), rounds));
                }
                TrialKind::Apply(set) => apply = Some((self.param_word(set), cl.span)),
                TrialKind::Sweep => sweep = Some(cl.span),
                TrialKind::Conclude {
                    what,
                    level,
                    key,
                    rating,
                    cells,
                } => {
                    conclude_seen = true;
                    let Some(mode) = self.word_of(what, &names::TRIAL_CONCLUDE, "conclusion")
                    else {
                        continue;
                    };
                    let word = mode.word();
                    if concludes.iter().any(|(k, _)| k.mode == mode) {
                        self.err(
                            cl.span,
                            format!("`conclude {word}` given twice in one pass"),
                        );
                        continue;
                    }
                    let lvl = match level {
                        None => head_level,
                        Some((t, sp)) => match Rating::parse(t) {
                            Some(r) => r,
                            None => {
                                self.err(
                                    *sp,
                                    format!(
                                        "expected a level with at most one decimal, found `{t}`"
                                    ),
                                );
                                head_level
                            }
                        },
                    };
                    let min_cell = match cells {
                        None => 1,
                        Some((a, b, sp)) => cell_range(self, *a, *b, *sp).map_or(1, |r| r.0),
                    };
                    concludes.push((
                        Conclude {
                            mode,
                            level: lvl,
                            key: key.map_or(0, |k| k.0),
                            label: rating.as_ref().map(|s| substitute(s, self.params)),
                            min_cell,
                        },
                        cl.span,
                    ));
                }
                TrialKind::Pass(_) | TrialKind::Increment(_) => {}
            }
        }
        if !conclude_seen {
            self.err(sp, "missing `conclude` clause");
        }
        let assume_on = assume_on.unwrap_or(true);
        let has_steps =
            steps.on_off_cell || steps.on_off_house || steps.off_on_cell || steps.off_on_house;
        if propagate.is_some() {
            if has_steps {
                self.err(
                    propagate_span,
                    "a pass propagates either with implication steps (`on-off`, `off-on`) or with a rule set, not both",
                );
            }
            for (k, ksp) in &concludes {
                if k.mode != Mode::Contradiction {
                    self.err(
                        *ksp,
                        format!(
                            "`conclude {}` reads implication steps: with `propagate with`, conclude contradiction",
                            k.mode.word()
                        ),
                    );
                }
            }
        } else if !has_steps {
            self.err(
                sp,
                "nothing propagates: give `on-off` or `off-on` implication steps (cell, house), or `propagate with` a rule set",
            );
        }
        if let Some(ssp) = sweep {
            if propagate.is_none() {
                self.err(
                    ssp,
                    "`sweep` runs a rule set in each branch: it needs `propagate with`",
                );
            } else if !assume_on || assume_off {
                self.err(
                    ssp,
                    "`sweep` eliminates the candidates it refutes: it needs `assume on` alone",
                );
            }
        }
        let reads = reads.unwrap_or(Reads::Original);
        if let Some((_, asp)) = &apply {
            if propagate.is_some() {
                self.err(
                    *asp,
                    "`apply` runs between implication steps: it cannot go with `propagate with`",
                );
            } else if reads != Reads::Branch {
                self.err(
                    *asp,
                    "`apply` reads the branch's state: it needs `reads branch`",
                );
            }
        }
        for (k, ksp) in &concludes {
            let w = k.mode.word();
            match k.mode {
                Mode::Cycle | Mode::Forcing if reads == Reads::Branch => self.err(
                    *ksp,
                    format!("`conclude {w}` follows the original state: it needs `reads original`"),
                ),
                Mode::Cycle | Mode::Cell | Mode::Region if !assume_on => self.err(
                    *ksp,
                    format!("`conclude {w}` starts from candidates assumed on: add `assume on`"),
                ),
                Mode::Double if !(assume_on && assume_off) => self.err(
                    *ksp,
                    "`conclude double` compares both assumptions of a candidate: it needs `assume on, off`",
                ),
                Mode::Forcing | Mode::Contradiction if !assume_on && !assume_off => self.err(
                    *ksp,
                    format!("`conclude {w}` needs an assumption: `assume on`, `off` or both"),
                ),
                _ => {}
            }
        }
        if self.errs.len() > n0 {
            return None;
        }
        let (min_cell, max_cell) = cells.unwrap_or((1, 9));
        Some(Pass {
            min_cell,
            max_cell,
            assume_on,
            assume_off,
            steps,
            reads,
            propagate,
            apply: apply.map(|(n, _)| n),
            sweep: sweep.is_some(),
            concludes: concludes.into_iter().map(|(k, _)| k).collect(),
        })
    }
}
