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

/// `n` and a noun, plural unless `n` is 1 ("1 puzzle", "2 puzzles"): the
/// counts in summaries and headers. Every noun counted here takes "s".
pub fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, noun: &str) -> String {
    if n == N::from(1) {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A whole run as text: the puzzle, the rule set, one line per step, the
/// solution (or the resolution state reached) and the rating line.
/// Timing is left out so that the text is reproducible.
pub fn render_run(puzzle_text: &str, set: &RuleSet, run: &Run) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{puzzle_text}");
    let _ = writeln!(
        out,
        "rule set: {} ({})",
        set.name,
        counted(set.rules.len(), "rule")
    );
    for s in &run.steps {
        let _ = writeln!(out, "{}", s.text());
    }
    if run.stop == StopReason::Solved {
        let _ = writeln!(out, "PUZZLE SOLVED.");
        out.push_str(&grid_lines(&run.state));
    } else {
        let why = unsolved_why(run.stop);
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

/// Why a run ended without a solution, as a path says it.
fn unsolved_why(stop: StopReason) -> &'static str {
    match stop {
        StopReason::Stuck => "no rule applies",
        StopReason::Contradiction => "contradiction: a CSP variable has no candidate",
        StopReason::StepLimit => "step limit reached",
        StopReason::TimeLimit => "time limit reached",
        StopReason::MemoryLimit => "memory limit reached",
        StopReason::Solved => "",
    }
}

/// The header of `rate --csv`; without the `seconds` column when `time` is
/// false (`--no-time`).
pub fn csv_header(time: bool) -> String {
    let seconds = if time { "seconds," } else { "" };
    format!("line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,{seconds}error")
}

/// A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break.
pub fn csv_quoted(s: &str) -> String {
    csv_field(s)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// One rated puzzle, ready to render in every output form.
pub struct Rated<'a> {
    /// The input line of the puzzle (the first line of its record).
    pub line: usize,
    /// The puzzle as read (its canonical text).
    pub puzzle: &'a str,
    pub set: &'a RuleSet,
    pub run: &'a Run,
    /// Whether to show the time the run took (`false` with `--no-time`, so
    /// that outputs can be compared).
    pub time: bool,
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

    /// The full path (as [`render_run`]), its time (unless left out) and,
    /// when the run kept them, the per-rule statistics.
    pub fn path(&self) -> String {
        let mut out = render_run(self.puzzle, self.set, self.run);
        if self.time {
            let _ = writeln!(out, "seconds: {:.6}", self.secs());
        }
        if let Some(st) = &self.run.stats {
            out.push_str(&stats_table(self.set, st, self.time));
        }
        out
    }

    /// `LINE PUZZLE STOP RATING HARDEST LEVEL [SECONDS]`, `-` for what a
    /// run that did not solve the puzzle does not have.
    pub fn line(&self) -> String {
        let mut out = format!(
            "{} {} {} {} {} {}",
            self.line,
            self.puzzle,
            self.run.stop.name(),
            self.rating().as_deref().unwrap_or("-"),
            self.run.hardest_rule().unwrap_or("-"),
            self.level().as_deref().unwrap_or("-"),
        );
        if self.time {
            let _ = write!(out, " {:.6}", self.secs());
        }
        out.push('\n');
        out
    }

    /// One CSV row under [`csv_header`] (the `error` column is empty).
    pub fn csv(&self) -> String {
        let mut out = format!(
            "{},{},{},{},{},{},{},{},{},",
            self.line,
            self.puzzle,
            self.solved(),
            self.run.stop.name(),
            self.rating().unwrap_or_default(),
            self.level().unwrap_or_default(),
            self.run.hardest_rule().unwrap_or(""),
            self.run.steps.len(),
            81 - self.run.state.value_count(),
        );
        if self.time {
            let _ = write!(out, "{:.6},", self.secs());
        }
        out.push('\n');
        out
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
            "steps": self.run.steps.iter().map(Step::text).collect::<Vec<_>>(),
            "final": self.run.state.values_line(),
        });
        if self.time {
            o["seconds"] = json!(self.secs());
        }
        if let Some(st) = &self.run.stats {
            o["stats"] = stats_json(self.set, st, self.time);
        }
        format!("{o}\n")
    }
}

/// Why a record was not rated: its `stop` value in every output form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// The record is not a valid puzzle (its error says why).
    Invalid,
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has more than one solution.
    MultipleSolutions,
}

impl Unrated {
    /// The value of the `stop` field.
    pub fn name(self) -> &'static str {
        match self {
            Unrated::Invalid => "invalid",
            Unrated::NoSolution => "no-solution",
            Unrated::MultipleSolutions => "multiple-solutions",
        }
    }
}

/// A record that was not rated (an invalid record, or a puzzle without a
/// unique solution), rendered so that every input record has its line in
/// every output form.
pub struct Rejected<'a> {
    /// The first line of the record.
    pub line: usize,
    /// The puzzle as read, when the record is one.
    pub puzzle: Option<&'a str>,
    pub why: Unrated,
    /// The message (without file and line), as on standard error.
    pub error: &'a str,
    /// Whether the time column is shown (it is left empty).
    pub time: bool,
}

impl Rejected<'_> {
    /// `LINE PUZZLE STOP - - - [-] ERROR`: the columns of [`Rated::line`],
    /// then the message.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} - - -{} {}\n",
            self.line,
            self.puzzle.unwrap_or("-"),
            self.why.name(),
            if self.time { " -" } else { "" },
            self.error
        )
    }

    /// One CSV row under [`csv_header`]: line, puzzle, `false`, stop and error.
    pub fn csv(&self) -> String {
        format!(
            "{},{},false,{},,,,,,{}{}\n",
            self.line,
            self.puzzle.unwrap_or(""),
            self.why.name(),
            if self.time { "," } else { "" },
            csv_field(self.error)
        )
    }

    /// One JSON object: line, puzzle (or null), `solved: false`, stop, error.
    pub fn json(&self) -> String {
        let o = json!({
            "line": self.line, "puzzle": self.puzzle, "solved": false,
            "stop": self.why.name(), "error": self.error,
        });
        format!("{o}\n")
    }
}

/// Per-rule statistics as a table: one line per rule that was searched,
/// in the set's order, and a total line; without the `seconds` column when
/// `time` is false (`--no-time`).
pub fn stats_table(set: &RuleSet, stats: &[RuleStats], time: bool) -> String {
    stats_table_of(set.rules.iter().map(|r| r.head.name.as_str()), stats, time)
}

/// The statistics table of rules named `names` (in the order of `stats`).
pub fn stats_table_of<'a>(
    names: impl Iterator<Item = &'a str>,
    stats: &[RuleStats],
    time: bool,
) -> String {
    let row = |name: &str, s: &RuleStats| {
        let seconds = if time {
            format!(" {:>10.4}", s.time.as_secs_f64())
        } else {
            String::new()
        };
        format!(
            "{name:<34} {:>10} {:>12}{seconds} {:>7} {:>11}\n",
            s.calls, s.nodes, s.steps, s.conclusions
        )
    };
    let mut out = format!(
        "{:<34} {:>10} {:>12}{} {:>7} {:>11}\n",
        "rule",
        "calls",
        "nodes",
        if time { "    seconds" } else { "" },
        "steps",
        "conclusions"
    );
    let mut total = RuleStats::default();
    for (name, s) in names.zip(stats) {
        total.add(s);
        if s.calls > 0 {
            out.push_str(&row(name, s));
        }
    }
    out.push_str(&row("total", &total));
    out
}

/// Per-rule statistics as a JSON object keyed by rule name (rules never
/// searched are left out); without the `time` field when `time` is false.
pub fn stats_json(set: &RuleSet, stats: &[RuleStats], time: bool) -> serde_json::Value {
    stats_json_of(set.rules.iter().map(|r| r.head.name.as_str()), stats, time)
}

/// Per-rule statistics of rules named `names`, as [`stats_json`].
pub fn stats_json_of<'a>(
    names: impl Iterator<Item = &'a str>,
    stats: &[RuleStats],
    time: bool,
) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for (name, s) in names.zip(stats) {
        if s.calls > 0 {
            let mut o = json!(s);
            if !time && let Some(o) = o.as_object_mut() {
                o.remove("time");
            }
            m.insert(name.to_string(), o);
        }
    }
    serde_json::Value::Object(m)
}

/// A typed run (a puzzle of another type than classic 9×9,
/// [`crate::typed`]), ready to render in every output form: the same
/// lines, columns and fields as [`Rated`], with the type's names.
pub struct TypedRated<'a> {
    pub line: usize,
    pub puzzle: &'a str,
    pub model: &'a crate::model::Model,
    /// The set compiled for the type.
    pub set: &'a crate::typed::TypedSet,
    pub run: &'a crate::typed::TypedRun,
    pub time: bool,
}

impl TypedRated<'_> {
    fn solved(&self) -> bool {
        self.run.stop == StopReason::Solved
    }

    fn rating(&self) -> Option<String> {
        self.solved().then(|| self.run.rating())
    }

    fn missing(&self) -> usize {
        self.run.grid.iter().filter(|g| g.is_none()).count()
    }

    /// The grid's symbols as puzzle text writes them, one row per line
    /// (indented as [`grid_lines`]; separated by spaces beyond side 35).
    fn grid_text(&self, g: &[Option<usize>]) -> String {
        let m = self.model;
        let sep = if m.n > 35 { " " } else { "" };
        let mut out = String::new();
        for r in 0..m.n {
            let row: Vec<&str> = (0..m.n)
                .map(|c| g[r * m.n + c].map_or(".", |s| m.symbol_text(s)))
                .collect();
            let _ = writeln!(out, "   {}", row.join(sep));
        }
        out
    }

    /// The path, as [`render_run`] prints a classic one.
    pub fn path(&self) -> String {
        let run = self.run;
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.puzzle);
        let _ = writeln!(
            out,
            "rule set: {} ({}), type {}",
            self.set.name,
            counted(self.set.rules.len(), "rule"),
            self.model.name()
        );
        for s in &run.steps {
            let _ = writeln!(out, "{}", s.text(self.model));
        }
        if self.solved() {
            let _ = writeln!(out, "PUZZLE SOLVED.");
        } else {
            let why = unsolved_why(run.stop);
            let _ = writeln!(
                out,
                "PUZZLE NOT SOLVED ({why}). {} VALUES MISSING.",
                self.missing()
            );
        }
        out.push_str(&self.grid_text(&run.grid));
        let hardest = run.hardest_rule().unwrap_or("none");
        if self.solved() {
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
                self.set.name
            );
        }
        if self.time {
            let _ = writeln!(out, "seconds: {:.6}", run.elapsed.as_secs_f64());
        }
        if let Some(st) = &run.stats {
            out.push_str(&stats_table_of(self.names(), st, self.time));
        }
        out
    }

    /// The names of the set's rules, in its order.
    fn names(&self) -> impl Iterator<Item = &str> {
        self.set.rules.iter().map(|r| r.rule.head.name.as_str())
    }

    /// `LINE PUZZLE STOP RATING HARDEST LEVEL [SECONDS]`, as [`Rated::line`].
    pub fn line(&self) -> String {
        let run = self.run;
        let mut out = format!(
            "{} {} {} {} {} {}",
            self.line,
            self.puzzle,
            run.stop.name(),
            self.rating().as_deref().unwrap_or("-"),
            run.hardest_rule().unwrap_or("-"),
            self.solved()
                .then(|| run.level().to_string())
                .as_deref()
                .unwrap_or("-"),
        );
        if self.time {
            let _ = write!(out, " {:.6}", run.elapsed.as_secs_f64());
        }
        out.push('\n');
        out
    }

    /// One CSV row under [`csv_header`], as [`Rated::csv`].
    pub fn csv(&self) -> String {
        let run = self.run;
        let mut out = format!(
            "{},{},{},{},{},{},{},{},{},",
            self.line,
            csv_field(self.puzzle),
            self.solved(),
            run.stop.name(),
            self.rating().unwrap_or_default(),
            if self.solved() {
                run.level().to_string()
            } else {
                String::new()
            },
            run.hardest_rule().unwrap_or(""),
            run.steps.len(),
            self.missing(),
        );
        if self.time {
            let _ = write!(out, "{:.6},", run.elapsed.as_secs_f64());
        }
        out.push('\n');
        out
    }

    /// One JSON object (with the path's steps) on one line, as
    /// [`Rated::json`], plus the type.
    pub fn json(&self) -> String {
        let run = self.run;
        let final_line: String = {
            let m = self.model;
            let sep = if m.n > 35 { " " } else { "" };
            run.grid
                .iter()
                .map(|g| g.map_or(".", |s| m.symbol_text(s)))
                .collect::<Vec<_>>()
                .join(sep)
        };
        let mut o = json!({
            "line": self.line, "puzzle": self.puzzle, "type": self.model.name(),
            "solved": self.solved(),
            "stop": run.stop.name(),
            "rating": self.rating(),
            "level": self.solved().then(|| run.level()),
            "hardest_rule": run.hardest_rule(),
            "values_missing": self.missing(),
            "steps": run.steps.iter().map(|s| s.text(self.model)).collect::<Vec<_>>(),
            "final": final_line,
        });
        if self.time {
            o["seconds"] = json!(run.elapsed.as_secs_f64());
        }
        if let Some(st) = &run.stats {
            o["stats"] = stats_json_of(self.names(), st, self.time);
        }
        format!("{o}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(counted(0usize, "puzzle"), "0 puzzles");
        assert_eq!(counted(1usize, "puzzle"), "1 puzzle");
        assert_eq!(counted(2u64, "invalid line"), "2 invalid lines");
        assert_eq!(counted(1u64, "rule"), "1 rule");
    }
}
