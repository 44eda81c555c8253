//! Sudoku Explainer's ratings of a run: ER, EP and ED (the ratings of
//! `serate`, SE 1.2.1's command-line rater), with its early exits.
//!
//! A set whose strategy is first-producer (`strategy: first-producer`, the
//! `se` set) lists its rules in SE's producer order; the engine's step
//! choice is then SE's: the first match of the first rule that has one.
//! This module watches such a run step by step (the engine's own loop,
//! [`Runner::run_observed`]) and keeps SE's three figures as
//! `Solver.getDifficulty` does:
//!
//! - **ER**, the rating: the highest level of the steps applied;
//! - **EP**, the pearl rating: the highest level up to and including the
//!   first step that places a value (0.0 until one does);
//! - **ED**, the diamond rating: the first step's level.
//!
//! A run that gets stuck (no rule applies) is rated ER 20.0, as serate
//! rates a valid puzzle its rules cannot solve; EP and ED keep what was
//! known then. Early exits ([`Bounds`]) stop a run as soon as its outcome
//! for a filter is known: `diamond` (SE's `--diamond`: stop when the first
//! placement is harder than the first step, or a later step harder than
//! the first placement), `pearl` (SE's `--pearl`: stop when a step after the
//! first placement is harder than it), `above R` (stop once ER is known to
//! exceed R) and `below R` (stop once ER is known to be R or more, i.e.
//! not below R). A run stopped early, or by its time limit, knows only a
//! lower bound of ER: [`SeRating::complete`] is false and the renderers
//! mark ER with a `+`.
//!
//! Architecture Invariant: nothing here knows a technique. A step's SE
//! rating is its grade's level (the match's own grade, or the rule's
//! `level`); a placement is a step whose conclusion kind is `assert`.

use crate::engine::{Limits, Run, Runner, StopReason};
use crate::grid::state::State;
use crate::rating::Rating;
use crate::ruleset::RuleSet;
use crate::search::ConclusionKind;
use serde::Serialize;
use std::ops::ControlFlow;

/// serate's rating of a puzzle its rules cannot solve.
pub const UNSOLVED: Rating = Rating::tenths(200);

/// serate's `--diamond` and `--pearl` filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// ER = EP = ED: stop once the puzzle is known not to be a diamond.
    Diamond,
    /// ER = EP: stop once the puzzle is known not to be a pearl.
    Pearl,
}

/// When to stop rating a puzzle before it is solved.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bounds {
    pub filter: Option<Filter>,
    /// Stop once ER is known to be above this rating.
    pub above: Option<Rating>,
    /// Stop once ER is known not to be below this rating (ER ≥ it).
    pub below: Option<Rating>,
}

/// Why a run stopped before its end, on a [`Bounds`] condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Early {
    /// `diamond`: a placement or a step harder than the first step.
    NotDiamond,
    /// `pearl` (or `diamond`): a step after the first placement harder than it.
    NotPearl,
    /// `above R`: ER > R.
    Above,
    /// `below R`: ER ≥ R.
    NotBelow,
}

impl Early {
    /// The kebab-case name used in JSON, CSV and messages.
    pub fn name(self) -> &'static str {
        match self {
            Early::NotDiamond => "not-diamond",
            Early::NotPearl => "not-pearl",
            Early::Above => "above",
            Early::NotBelow => "not-below",
        }
    }
}

/// ER, EP, ED of a run, as serate keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeRating {
    /// The highest step level so far (`None`: no step); [`UNSOLVED`]
    /// when the run got stuck.
    pub er: Option<Rating>,
    /// ER when the first placement was made (`None`: none made).
    pub ep: Option<Rating>,
    /// The first step's level (`None`: no step).
    pub ed: Option<Rating>,
    /// False when the run stopped early or at a limit: ER is then a lower
    /// bound.
    pub complete: bool,
}

/// The one-decimal text serate prints (0.0 for a value not known).
pub fn tenths_text(r: Option<Rating>) -> String {
    let t = r.map_or(0, |r| (r.as_f64() * 10.0).round() as i64);
    format!("{}.{}", t / 10, t % 10)
}

impl SeRating {
    /// ER as printed: one decimal, `+` when only a lower bound is known.
    pub fn er_text(&self) -> String {
        let plus = if self.complete { "" } else { "+" };
        format!("{}{plus}", tenths_text(self.er))
    }

    pub fn ep_text(&self) -> String {
        tenths_text(self.ep)
    }

    pub fn ed_text(&self) -> String {
        tenths_text(self.ed)
    }
}

/// A run rated the SE way.
#[derive(Clone, Debug)]
pub struct SeRun {
    pub run: Run,
    pub rating: SeRating,
    /// Set when a [`Bounds`] condition stopped the run.
    pub early: Option<Early>,
}

/// Runs `set` on `state` SE's way: at each step the first match of the
/// first rule (in the set's order) that has one, all its conclusions
/// applied (or the first only, for an unblocked set), ER/EP/ED kept as
/// serate keeps them, stopping early on `bounds`.
pub fn run(set: &RuleSet, state: State, limits: Limits, bounds: Bounds, stats: bool) -> SeRun {
    let mut r = SeRating {
        er: None,
        ep: None,
        ed: None,
        complete: true,
    };
    let mut early = None;
    let mut run = Runner::new(set)
        .limits(limits)
        .with_stats(stats)
        .run_observed(state, |step, _| {
            let level = step.grade.level;
            let er = r.er.map_or(level, |e| e.max(level));
            r.er = Some(er);
            let places = step.kind == ConclusionKind::Assert;
            // serate: the diamond is ER after the first step, the pearl ER
            // after the first placement; with a filter, a harder step after
            // them ends the run.
            match r.ep {
                None => {
                    let ed = *r.ed.get_or_insert(er);
                    if places {
                        if bounds.filter == Some(Filter::Diamond) && er > ed {
                            early = Some(Early::NotDiamond);
                        }
                        r.ep = Some(er);
                    }
                }
                Some(ep) => {
                    if bounds.filter.is_some() && er > ep {
                        early = Some(Early::NotPearl);
                    }
                }
            }
            if early.is_none() {
                if bounds.above.is_some_and(|a| er > a) {
                    early = Some(Early::Above);
                } else if bounds.below.is_some_and(|b| er >= b) {
                    early = Some(Early::NotBelow);
                }
            }
            if early.is_some() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
    // A bound reached by the step that solved the puzzle stops nothing.
    if run.stop == StopReason::Solved {
        early = None;
    }
    match run.stop {
        StopReason::Solved => {}
        StopReason::Stuck | StopReason::Contradiction => r.er = Some(UNSOLVED),
        StopReason::StepLimit | StopReason::TimeLimit | StopReason::MemoryLimit => {
            r.complete = false
        }
    }
    // SE's hardest step is the one of the highest rating (the first of them).
    run.hardest = None;
    for (i, s) in run.steps.iter().enumerate() {
        if run
            .hardest
            .is_none_or(|h| run.steps[h].grade.level < s.grade.level)
        {
            run.hardest = Some(i);
        }
    }
    SeRun {
        run,
        rating: r,
        early,
    }
}

/// serate's `--format` conversions: `%r` ER, `%p` EP, `%d` ED, `%g` the
/// puzzle, `%n` its line number, `%e` the seconds taken, `%%` a percent
/// sign, `\t` a tab, `\n` a line break; any other character is copied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format(Vec<Piece>);

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Er,
    Ep,
    Ed,
    Grid,
    Line,
    Seconds,
}

/// The default `rate --se` line: the puzzle, then `ED=ER/EP/ED` as puzzle
/// lists on forums write it.
pub const DEFAULT_FORMAT: &str = "%g ED=%r/%p/%d";

impl Format {
    /// Parses a format; an unknown conversion (`%x`) or a lone `%` or `\`
    /// at the end is an error naming it.
    pub fn parse(s: &str) -> Result<Format, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        let mut chars = s.chars();
        while let Some(c) = chars.next() {
            let piece = match c {
                '%' => match chars.next() {
                    Some('r') => Piece::Er,
                    Some('p') => Piece::Ep,
                    Some('d') => Piece::Ed,
                    Some('g') => Piece::Grid,
                    Some('n') => Piece::Line,
                    Some('e') => Piece::Seconds,
                    Some('%') => {
                        text.push('%');
                        continue;
                    }
                    Some(o) => {
                        return Err(format!(
                            "unknown conversion `%{o}` (known: %r %p %d %g %n %e %%)"
                        ));
                    }
                    None => return Err("a `%` at the end needs a conversion letter".into()),
                },
                '\\' => match chars.next() {
                    Some('t') => {
                        text.push('\t');
                        continue;
                    }
                    Some('n') => {
                        text.push('\n');
                        continue;
                    }
                    Some('\\') => {
                        text.push('\\');
                        continue;
                    }
                    Some(o) => return Err(format!("unknown escape `\\{o}` (known: \\t \\n \\\\)")),
                    None => return Err("a `\\` at the end needs an escape letter".into()),
                },
                c => {
                    text.push(c);
                    continue;
                }
            };
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(piece);
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(Format(pieces))
    }

    /// Whether the format prints the time taken (`%e`).
    pub fn has_time(&self) -> bool {
        self.0.contains(&Piece::Seconds)
    }

    /// One puzzle's line (without the line break).
    pub fn render(&self, puzzle: &str, line: usize, r: &SeRating, seconds: f64) -> String {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Er => out.push_str(&r.er_text()),
                Piece::Ep => out.push_str(&r.ep_text()),
                Piece::Ed => out.push_str(&r.ed_text()),
                Piece::Grid => out.push_str(puzzle),
                Piece::Line => out.push_str(&line.to_string()),
                Piece::Seconds => out.push_str(&format!("{seconds:.2}s")),
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------
// Renderers of SE runs (`solve --se`, `rate --se --json/--csv`).

/// `solve --se`: the puzzle, the set, one line per step with its SE rating
/// first (`1.2  se-hidden-single-in-a-block ==> r1c3 = 4`), how the run
/// ended, and the `ER/EP/ED` line.
pub fn render_path(puzzle: &str, set: &RuleSet, se: &SeRun) -> String {
    use std::fmt::Write;
    let run = &se.run;
    let mut out = String::new();
    let _ = writeln!(out, "{puzzle}");
    let _ = writeln!(
        out,
        "rule set: {} ({})",
        set.name,
        crate::path::counted(set.rules.len(), "rule")
    );
    for s in &run.steps {
        let _ = writeln!(out, "{:>4}  {}", tenths_text(Some(s.grade.level)), s.text());
    }
    if run.stop == StopReason::Solved {
        let _ = writeln!(out, "PUZZLE SOLVED.");
        out.push_str(&crate::path::grid_lines(&run.state));
    } else {
        let why = match (se.early, run.stop) {
            (Some(e), _) => format!("stopped early: {}", e.name()),
            (None, StopReason::Stuck) => "no rule applies".into(),
            (None, StopReason::Contradiction) => {
                "contradiction: a CSP variable has no candidate".into()
            }
            (None, StopReason::StepLimit) => "step limit reached".into(),
            (None, StopReason::TimeLimit) => "time limit reached".into(),
            (None, StopReason::MemoryLimit) => "memory limit reached".into(),
            (None, StopReason::Solved) => String::new(),
        };
        let missing = 81 - run.state.value_count();
        let _ = writeln!(out, "PUZZLE NOT SOLVED ({why}). {missing} VALUES MISSING.");
        let _ = writeln!(out, "Resolution state:");
        let _ = write!(out, "{}", run.state);
    }
    let r = &se.rating;
    let _ = writeln!(
        out,
        "ER/EP/ED: {}/{}/{} (hardest rule: {})",
        r.er_text(),
        r.ep_text(),
        r.ed_text(),
        run.hardest_rule().unwrap_or("none")
    );
    out
}

/// The header of `rate --se --csv` (without `seconds` when `time` is false).
pub fn csv_header(time: bool) -> String {
    let seconds = if time { ",seconds" } else { "" };
    format!("line,puzzle,er,ep,ed,complete,stop,early,hardest_rule,steps{seconds},error")
}

/// One CSV row of a rated puzzle under [`csv_header`].
pub fn csv_row(line: usize, puzzle: &str, se: &SeRun, time: bool) -> String {
    let r = &se.rating;
    let seconds = if time {
        format!(",{:.6}", se.run.elapsed.as_secs_f64())
    } else {
        String::new()
    };
    format!(
        "{line},{puzzle},{},{},{},{},{},{},{},{}{seconds},\n",
        tenths_text(r.er),
        r.ep_text(),
        r.ed_text(),
        r.complete,
        se.run.stop.name(),
        se.early.map_or("", Early::name),
        se.run.hardest_rule().unwrap_or(""),
        se.run.steps.len(),
    )
}

/// One JSON object of a rated puzzle, with its steps (rating and text).
pub fn json_object(line: usize, puzzle: &str, se: &SeRun, time: bool) -> serde_json::Value {
    let r = &se.rating;
    let num = |x: Option<Rating>| x.map_or(0.0, Rating::as_f64);
    let mut o = serde_json::json!({
        "line": line, "puzzle": puzzle,
        "er": num(r.er), "ep": num(r.ep), "ed": num(r.ed),
        "complete": r.complete,
        "stop": se.run.stop.name(),
        "early": se.early.map(Early::name),
        "hardest_rule": se.run.hardest_rule(),
        "steps": se.run.steps.iter().map(|s| serde_json::json!({
            "rating": s.grade.level.as_f64(), "text": s.text(),
        })).collect::<Vec<_>>(),
    });
    if time {
        o["seconds"] = serde_json::json!(se.run.elapsed.as_secs_f64());
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_render() {
        let f = Format::parse(DEFAULT_FORMAT).unwrap();
        let r = SeRating {
            er: Some(Rating::tenths(42)),
            ep: Some(Rating::tenths(15)),
            ed: Some(Rating::tenths(12)),
            complete: true,
        };
        assert_eq!(f.render("P", 3, &r, 0.0), "P ED=4.2/1.5/1.2");
        let f = Format::parse("%n\\t%r%%\\\\%d").unwrap();
        assert_eq!(f.render("P", 3, &r, 0.0), "3\t4.2%\\1.2");
        let open = SeRating {
            complete: false,
            ep: None,
            ..r
        };
        assert_eq!(
            Format::parse("%r %p").unwrap().render("P", 1, &open, 0.0),
            "4.2+ 0.0"
        );
    }

    #[test]
    fn bad_formats_are_refused() {
        assert_eq!(
            Format::parse("%r %x").unwrap_err(),
            "unknown conversion `%x` (known: %r %p %d %g %n %e %%)"
        );
        assert_eq!(
            Format::parse("%r%").unwrap_err(),
            "a `%` at the end needs a conversion letter"
        );
        assert_eq!(
            Format::parse("a\\q").unwrap_err(),
            "unknown escape `\\q` (known: \\t \\n \\\\)"
        );
    }
}
