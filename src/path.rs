//! Rendering of resolution paths, and nothing else: SudoRules' text
//! notation, the one-line `rate` form, CSV, JSON, and per-rule statistics.
//!
//! Architecture Invariant: renderers read runs; they never run rules. A
//! step's pattern text is produced here, from its evidence, only when a
//! path is printed (the engine never formats text).

use crate::engine::{RuleStats, Run, Step, StopReason};
use crate::grid::geometry::*;
use crate::grid::state::State;
use crate::ruleset::RuleSet;
use crate::search::ConclusionKind;
use serde_json::json;
use std::fmt::Write;

/// `r1c7 ≠ 7` / `r9c7 = 3`.
pub fn conclusion_text(kind: ConclusionKind, z: usize) -> String {
    let op = match kind {
        ConclusionKind::Eliminate => "≠",
        ConclusionKind::Assert => "=",
    };
    format!("{} {op} {}", cell_name(cand_cell(z)), cand_digit(z) + 1)
}

/// A step as one line of a SudoRules path.
pub fn step_text(step: &Step) -> String {
    let concl: Vec<String> = step
        .conclusions
        .iter()
        .map(|&z| conclusion_text(step.kind, z))
        .collect();
    let pattern = step.pattern();
    if pattern.is_empty() {
        format!("{} ==> {}", step.rule_name(), concl.join(", "))
    } else {
        format!("{}: {pattern} ==> {}", step.rule_name(), concl.join(", "))
    }
}

impl Step {
    /// The step as one line of a SudoRules path (rendered here, so the
    /// engine never depends on the renderers).
    pub fn text(&self) -> String {
        step_text(self)
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
    let hardest = run.hardest_rule().unwrap_or("none");
    if run.stop == StopReason::Solved {
        let _ = writeln!(
            out,
            "rating: {} (level {}, hardest rule: {hardest})",
            run.rating(),
            run.level()
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

/// The header of `rate --csv`.
pub const CSV_HEADER: &str =
    "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,seconds";

/// One rated puzzle, ready to render in every output form.
pub struct Rated<'a> {
    /// The input line of the puzzle.
    pub line: usize,
    /// The puzzle as read (its canonical text).
    pub puzzle: &'a str,
    pub set: &'a RuleSet,
    pub run: &'a Run,
}

impl Rated<'_> {
    fn solved(&self) -> bool {
        self.run.stop == StopReason::Solved
    }

    /// A rule set rates only the puzzles it solves.
    fn rating(&self) -> Option<String> {
        self.solved().then(|| self.run.rating())
    }

    fn level(&self) -> Option<String> {
        self.solved().then(|| self.run.level().to_string())
    }

    fn secs(&self) -> f64 {
        self.run.elapsed.as_secs_f64()
    }

    /// The full path (as [`render_run`]) and its time.
    pub fn path(&self) -> String {
        format!(
            "{}seconds: {:.6}\n",
            render_run(self.puzzle, self.set, self.run),
            self.secs()
        )
    }

    /// `PUZZLE solved|STOP RATING HARDEST LEVEL SECONDS`.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {:.6}\n",
            self.puzzle,
            if self.solved() {
                "solved"
            } else {
                self.run.stop.name()
            },
            self.rating().as_deref().unwrap_or("-"),
            self.run.hardest_rule().unwrap_or("-"),
            self.level().as_deref().unwrap_or("-"),
            self.secs()
        )
    }

    /// One CSV row under [`CSV_HEADER`].
    pub fn csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{:.6}\n",
            self.line,
            self.puzzle,
            self.solved(),
            self.run.stop.name(),
            self.rating().unwrap_or_default(),
            self.level().unwrap_or_default(),
            self.run.hardest_rule().unwrap_or(""),
            self.run.steps.len(),
            81 - self.run.state.value_count(),
            self.secs()
        )
    }

    /// One JSON object (with the path's steps) on one line.
    pub fn json(&self) -> String {
        let mut o = json!({
            "line": self.line, "puzzle": self.puzzle, "solved": self.solved(),
            "stop": self.run.stop.name(),
            "rating": self.rating(),
            "level": self.solved().then(|| self.run.level()),
            "hardest_rule": self.run.hardest_rule(),
            "values_missing": 81 - self.run.state.value_count(),
            "seconds": self.secs(),
            "steps": self.run.steps.iter().map(Step::text).collect::<Vec<_>>(),
            "final": self.run.state.values_line(),
        });
        if let Some(st) = &self.run.stats {
            o["stats"] = stats_json(self.set, st);
        }
        format!("{o}\n")
    }
}

/// Per-rule statistics as a table: one line per rule that was searched,
/// in the set's order, and a total line.
pub fn stats_table(set: &RuleSet, stats: &[RuleStats]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<34} {:>10} {:>12} {:>10} {:>7} {:>11}",
        "rule", "calls", "nodes", "seconds", "steps", "conclusions"
    );
    let mut total = RuleStats::default();
    for (r, s) in set.rules.iter().zip(stats) {
        total.add(s);
        if s.calls == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "{:<34} {:>10} {:>12} {:>10.4} {:>7} {:>11}",
            r.head.name,
            s.calls,
            s.nodes,
            s.time.as_secs_f64(),
            s.steps,
            s.conclusions
        );
    }
    let _ = writeln!(
        out,
        "{:<34} {:>10} {:>12} {:>10.4} {:>7} {:>11}",
        "total",
        total.calls,
        total.nodes,
        total.time.as_secs_f64(),
        total.steps,
        total.conclusions
    );
    out
}

/// Per-rule statistics as a JSON object keyed by rule name (rules never
/// searched are left out).
pub fn stats_json(set: &RuleSet, stats: &[RuleStats]) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (r, s) in set.rules.iter().zip(stats) {
        if s.calls > 0 {
            m.insert(r.head.name.clone(), json!(s));
        }
    }
    serde_json::Value::Object(m)
}
