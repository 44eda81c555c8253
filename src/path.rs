//! Resolution paths: the structured record of a run and its renderers
//! (SudoRules' text notation and JSON).

use crate::bits::Bits;
use crate::engine::{Run, StopReason};
use crate::geometry::*;
use crate::matcher::ConclusionKind;
use crate::ruleset::RuleSet;
use crate::state::State;
use serde::Serialize;

/// One applied pattern: which rule, what it matched, what it concluded.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub rule: String,
    /// The matched pattern in SudoRules notation (empty for singles).
    pub pattern: String,
    pub kind: ConclusionKind,
    /// Concluded candidates (asserted or eliminated), in print order.
    pub conclusions: Vec<usize>,
    pub complexity: i64,
    pub level: i64,
    /// Live candidates and decided cells after the step.
    pub cands_after: usize,
    pub values_after: usize,
}

impl Step {
    /// The conclusions in print order (SudoRules prints them by decreasing
    /// candidate number).
    pub fn ordered(set: &Bits) -> Vec<usize> {
        let mut v: Vec<usize> = set.iter().collect();
        v.reverse();
        v
    }

    /// `r1c7 ≠ 7` / `r9c7 = 3`.
    pub fn conclusion_text(kind: ConclusionKind, z: usize) -> String {
        let op = match kind {
            ConclusionKind::Eliminate => "≠",
            ConclusionKind::Assert => "=",
        };
        format!("{} {op} {}", cell_name(cand_cell(z)), cand_digit(z) + 1)
    }

    /// The step as one line of a SudoRules path.
    pub fn text(&self) -> String {
        let concl: Vec<String> = self
            .conclusions
            .iter()
            .map(|&z| Step::conclusion_text(self.kind, z))
            .collect();
        if self.pattern.is_empty() {
            format!("{} ==> {}", self.rule, concl.join(", "))
        } else {
            format!("{}: {} ==> {}", self.rule, self.pattern, concl.join(", "))
        }
    }
}

/// The 9 lines of a solved grid, indented as SudoRules prints them.
pub fn grid_lines(state: &State) -> String {
    let g = state.grid();
    let mut out = String::new();
    for r in 0..9 {
        out.push_str("   ");
        for c in 0..9 {
            out.push(char::from(b'0' + g[cell(r, c)]));
        }
        out.push('\n');
    }
    out
}

/// A whole run as text: the puzzle, the rule set, one line per step, the
/// solution (or the resolution state reached) and the rating line.
/// Timing is left out so that the text is reproducible.
pub fn render_run(puzzle_text: &str, set: &RuleSet, run: &Run) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{puzzle_text}");
    let _ = writeln!(out, "rule set: {} ({} rules)", set.name, set.rules.len());
    for s in &run.steps {
        let _ = writeln!(out, "{}", s.text());
    }
    if run.stop == StopReason::Solved {
        let _ = writeln!(out, "PUZZLE SOLVED.");
        out.push_str(&grid_lines(&run.state));
    } else {
        let why = match run.stop {
            StopReason::Stuck => "no rule applies",
            StopReason::Contradiction => "contradiction: a CSP variable has no candidate",
            StopReason::StepLimit => "step limit reached",
            StopReason::TimeLimit => "time limit reached",
            StopReason::Solved => "",
        };
        let missing = 81 - run.state.value_count();
        let _ = writeln!(out, "PUZZLE NOT SOLVED ({why}). {missing} VALUES MISSING.");
        let _ = writeln!(out, "Resolution state:");
        let _ = write!(out, "{}", run.state);
    }
    let hardest = run.hardest.map_or("none", |h| set.rules[h].name.as_str());
    if run.stop == StopReason::Solved {
        let _ = writeln!(
            out,
            "rating: {} (level {}, hardest rule: {hardest})",
            run.rating(set),
            run.level(set)
        );
    } else {
        let _ = writeln!(
            out,
            "rating: none (not solved by {}; hardest rule applied: {hardest})",
            set.name
        );
    }
    out
}
