//! Classification: how far up a ladder each puzzle must climb, and how a
//! rating is distributed over a collection; the tables `classify` prints.
//!
//! Climbing a ladder stops at the first rung that solves the puzzle: the
//! rungs of a ladder grow (each holds the rules of the one below), so the
//! puzzle is solved by every rung above. Each rung goes on from the state
//! the rung below got stuck in, which gives the same answer as starting
//! again (the chain rules shipped have the confluence property: what a set
//! of them solves does not depend on the order of the steps) and costs a
//! fraction. With `--all` every rung starts from the puzzle itself and the
//! table says how many each solves, for ladders whose rungs do not grow.
//!
//! A rung whose run a limit stops (`--max-seconds`) has no answer: the
//! climb stops there and the puzzle counts as stopped, never as solved by
//! no rung (which says the puzzle is beyond the ladder).

use crate::engine::{Limits, Runner, StopReason};
use crate::grid::state::State;
use crate::rating::Rating;
use crate::ruleset::RuleSet;
use crate::study::ladder::Ladder;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One puzzle on one ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Climb {
    /// The first rung that solves it.
    pub first: Option<usize>,
    /// Whether each rung solves it.
    pub solved: Vec<bool>,
    /// The first rung whose run a limit stopped before an answer (the
    /// climb stops there).
    pub limited: Option<usize>,
}

/// Climbs `ladder` from `start` (see the module docs for `all`).
pub fn climb(ladder: &Ladder, start: State, all: bool, limits: Limits) -> Climb {
    climb_with(ladder.rungs.len(), start, all, |i, state| {
        let run = Runner::new(&ladder.rungs[i].set)
            .limits(limits)
            .outcome_only(true)
            .run(*state);
        (run.stop, run.state)
    })
}

/// Climbs `n` rungs from `start` (see the module docs for `all`), whatever
/// a state is: `run(i, s)` runs rung `i` from `s` and says how it stopped
/// and where (puzzle types climb so with the typed back end).
pub fn climb_with<S>(
    n: usize,
    start: S,
    all: bool,
    run: impl Fn(usize, &S) -> (StopReason, S),
) -> Climb {
    if all {
        let stops: Vec<StopReason> = (0..n).map(|i| run(i, &start).0).collect();
        let solved: Vec<bool> = stops.iter().map(|&s| s == StopReason::Solved).collect();
        let first = solved.iter().position(|&s| s);
        let limited = stops.iter().position(|&s| limit_stop(s));
        return Climb {
            first,
            solved,
            limited,
        };
    }
    let mut state = start;
    let (mut first, mut limited) = (None, None);
    for i in 0..n {
        let (stop, end) = run(i, &state);
        match stop {
            StopReason::Solved => {
                first = Some(i);
                break;
            }
            StopReason::Contradiction => break,
            s if limit_stop(s) => {
                limited = Some(i);
                break;
            }
            _ => state = end,
        }
    }
    Climb {
        first,
        solved: (0..n).map(|i| first.is_some_and(|f| i >= f)).collect(),
        limited,
    }
}

/// Did a limit (time, steps) stop the run, rather than an answer?
fn limit_stop(s: StopReason) -> bool {
    matches!(
        s,
        StopReason::TimeLimit | StopReason::StepLimit | StopReason::MemoryLimit
    )
}

impl Climb {
    /// The climb's answer in one word: the first rung that solves the
    /// puzzle, `-` when no rung does, `limit@RUNG` when a limit stopped
    /// the run of that rung first.
    pub fn word(&self, ladder: &Ladder) -> String {
        match (self.first, self.limited) {
            (Some(f), None) => ladder.rungs[f].name.clone(),
            (Some(f), Some(l)) if f < l => ladder.rungs[f].name.clone(),
            (_, Some(l)) => format!("limit@{}", ladder.rungs[l].name),
            (None, None) => "-".into(),
        }
    }

    /// Is the answer unknown (a limit stopped a rung below the first that
    /// solves the puzzle, or no rung solved it)?
    pub fn stopped(&self) -> bool {
        self.limited
            .is_some_and(|l| self.first.is_none_or(|f| l < f))
    }
}

/// The per-rung counts of one ladder over a collection.
#[derive(Clone, Debug)]
pub struct LadderTable {
    pub name: String,
    pub description: String,
    /// Rung names and levels.
    pub rungs: Vec<(String, Option<i64>)>,
    /// Puzzles whose first solving rung is this one.
    pub new: Vec<u64>,
    /// Puzzles this rung solves (cumulative when the rungs grow).
    pub solved: Vec<u64>,
    pub puzzles: u64,
    /// Puzzles whose climb a limit stopped before an answer.
    pub stopped: u64,
}

/// `part` of `whole` as a percentage with two decimals.
fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.2}%", 100.0 * part as f64 / whole as f64)
}

impl LadderTable {
    pub fn new(l: &Ladder) -> LadderTable {
        let n = l.rungs.len();
        LadderTable {
            name: l.name.clone(),
            description: l.description.clone(),
            rungs: l.rungs.iter().map(|r| (r.name.clone(), r.level)).collect(),
            new: vec![0; n],
            solved: vec![0; n],
            puzzles: 0,
            stopped: 0,
        }
    }

    pub fn add(&mut self, c: &Climb) {
        self.puzzles += 1;
        if c.stopped() {
            self.stopped += 1;
        } else if let Some(f) = c.first {
            self.new[f] += 1;
        }
        for (s, &ok) in self.solved.iter_mut().zip(&c.solved) {
            *s += u64::from(ok);
        }
    }

    /// The rungs the text tables and plots show: up to the last one that
    /// solved a puzzle first when every puzzle was solved (the rungs above
    /// add nothing), every rung otherwise.
    pub fn shown(&self) -> usize {
        if self.unsolved() > 0 || self.stopped > 0 {
            return self.rungs.len();
        }
        self.new.iter().rposition(|&n| n > 0).map_or(1, |i| i + 1)
    }

    /// Puzzles no rung solves (those a limit stopped are not counted).
    pub fn unsolved(&self) -> u64 {
        self.puzzles - self.stopped - self.new.iter().sum::<u64>()
    }

    pub fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "ladder {}: {}", self.name, self.description);
        let w = self
            .rungs
            .iter()
            .map(|r| r.0.len())
            .max()
            .unwrap_or(4)
            .max(4);
        let _ = writeln!(
            t,
            "{:<w$} {:>8} {:>8} {:>8}",
            "rung", "new", "solved", "share"
        );
        for (i, (name, _)) in self.rungs.iter().enumerate().take(self.shown()) {
            let _ = writeln!(
                t,
                "{name:<w$} {:>8} {:>8} {:>8}",
                self.new[i],
                self.solved[i],
                share(self.solved[i], self.puzzles)
            );
        }
        if self.shown() < self.rungs.len() {
            let _ = writeln!(
                t,
                "(rungs {} to {}: nothing new)",
                self.rungs[self.shown()].0,
                self.rungs[self.rungs.len() - 1].0
            );
        }
        let _ = write!(
            t,
            "{}, {} solved by no rung",
            crate::path::counted(self.puzzles, "puzzle"),
            self.unsolved()
        );
        if self.stopped > 0 {
            let _ = write!(
                t,
                ", {} stopped by the time limit before an answer",
                self.stopped
            );
        }
        t.push('\n');
        t
    }

    /// CSV rows (no header): ladder, rung, level, new, solved, share.
    pub fn csv(&self) -> String {
        let mut t = String::new();
        for (i, (name, level)) in self.rungs.iter().enumerate() {
            let _ = writeln!(
                t,
                "{},{name},{},{},{},{:.4}",
                self.name,
                level.map(|l| l.to_string()).unwrap_or_default(),
                self.new[i],
                self.solved[i],
                self.solved[i] as f64 / self.puzzles.max(1) as f64
            );
        }
        t
    }
}

/// The CSV header of ladder tables.
pub const LADDER_CSV_HEADER: &str = "ladder,rung,level,new,solved,share";

/// Berthier's table: one row per ladder, one column per level, the number
/// of puzzles solved at that level; for the ladders written by levels
/// (`None` when there is none), up to the last level a table shows.
pub fn levels_table(tables: &[LadderTable]) -> Option<String> {
    let by_level: Vec<&LadderTable> = tables
        .iter()
        .filter(|t| t.rungs.iter().all(|r| r.1.is_some()))
        .collect();
    if by_level.is_empty() {
        return None;
    }
    let mut levels: Vec<i64> = by_level
        .iter()
        .flat_map(|t| t.rungs.iter().take(t.shown()).filter_map(|r| r.1))
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let nw = by_level
        .iter()
        .map(|t| t.name.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let cw = by_level
        .iter()
        .map(|t| t.puzzles.to_string().len())
        .max()
        .unwrap_or(1)
        .max(3);
    let mut out = format!("{:<nw$}", "level");
    for l in &levels {
        let _ = write!(out, " {l:>cw$}");
    }
    out.push('\n');
    for t in by_level {
        let _ = write!(out, "{:<nw$}", t.name);
        for l in &levels {
            match t.rungs.iter().position(|r| r.1 == Some(*l)) {
                Some(i) => {
                    let _ = write!(out, " {:>cw$}", t.solved[i]);
                }
                None => {
                    let _ = write!(out, " {:>cw$}", "-");
                }
            }
        }
        out.push('\n');
    }
    Some(out)
}

/// How a rating is distributed over a collection.
#[derive(Clone, Debug)]
pub struct Distribution {
    /// What is rated (a set's name, or the rating's).
    pub label: String,
    pub counts: BTreeMap<Rating, u64>,
    /// Puzzles the set does not solve (it is stuck, or meets a
    /// contradiction).
    pub unsolved: u64,
    /// Puzzles a limit (time, steps, memory) stopped before an answer:
    /// their rating is unknown, not beyond the set.
    pub stopped: u64,
    pub puzzles: u64,
}

/// One puzzle's rating by a set: the level of its hardest step when the
/// set solves it, or how its run stopped.
pub type Rated = Result<Rating, StopReason>;

/// The rating of one puzzle by `set`: the level of its hardest step when
/// the set solves it, or the reason its run stopped.
pub fn rate(set: &RuleSet, start: State, limits: Limits) -> Rated {
    let run = Runner::new(set)
        .limits(limits)
        .outcome_only(true)
        .run(start);
    rated(run.stop, || run.level())
}

/// A run's rating from its stop and, when it solved the puzzle, its level.
pub fn rated(stop: StopReason, level: impl FnOnce() -> Rating) -> Rated {
    if stop == StopReason::Solved {
        Ok(level())
    } else {
        Err(stop)
    }
}

/// The word `classify --each` prints for a rating: the level, `-` when
/// the set does not solve the puzzle, `limit` when a limit stopped it.
pub fn rated_word(r: &Rated) -> String {
    match r {
        Ok(r) => r.to_string(),
        Err(s) if limit_stop(*s) => "limit".into(),
        Err(_) => "-".into(),
    }
}

/// What a distribution's plot title adds about the puzzles in no bar:
/// `, 5 unsolved, 2 stopped by a limit` (empty when every puzzle is rated).
pub fn unrated_note(d: &Distribution) -> String {
    let mut t = String::new();
    if d.unsolved > 0 {
        t += &format!(", {} unsolved", d.unsolved);
    }
    if d.stopped > 0 {
        t += &format!(", {} stopped by a limit", d.stopped);
    }
    t
}

impl Distribution {
    pub fn new(label: &str) -> Distribution {
        Distribution {
            label: label.to_string(),
            counts: BTreeMap::new(),
            unsolved: 0,
            stopped: 0,
            puzzles: 0,
        }
    }

    pub fn add(&mut self, r: Rated) {
        self.puzzles += 1;
        match r {
            Ok(r) => *self.counts.entry(r).or_default() += 1,
            Err(s) if limit_stop(s) => self.stopped += 1,
            Err(_) => self.unsolved += 1,
        }
    }

    /// `0:7489 1:2093 …`, the form of the reference data's README.
    pub fn line(&self) -> String {
        let mut v: Vec<String> = self
            .counts
            .iter()
            .map(|(r, n)| format!("{r}:{n}"))
            .collect();
        if self.unsolved > 0 {
            v.push(format!("unsolved:{}", self.unsolved));
        }
        if self.stopped > 0 {
            v.push(format!("stopped:{}", self.stopped));
        }
        v.join(" ")
    }

    pub fn text(&self) -> String {
        let mut t = String::new();
        let w = self.label.len().max(8);
        let _ = writeln!(
            t,
            "{:<w$} {:>8} {:>8} {:>10}",
            self.label, "puzzles", "share", "cumulative"
        );
        let mut cum = 0;
        for (r, n) in &self.counts {
            cum += n;
            let _ = writeln!(
                t,
                "{:<w$} {n:>8} {:>8} {:>10}",
                r.to_string(),
                share(*n, self.puzzles),
                share(cum, self.puzzles)
            );
        }
        let _ = writeln!(
            t,
            "{:<w$} {:>8} {:>8}",
            "unsolved",
            self.unsolved,
            share(self.unsolved, self.puzzles)
        );
        if self.stopped > 0 {
            let _ = writeln!(
                t,
                "{:<w$} {:>8} {:>8}",
                "stopped",
                self.stopped,
                share(self.stopped, self.puzzles)
            );
        }
        let _ = writeln!(
            t,
            "{}; distribution: {}",
            crate::path::counted(self.puzzles, "puzzle"),
            self.line()
        );
        t
    }

    /// CSV with its header: rating, puzzles, share, cumulative share.
    pub fn csv(&self) -> String {
        let mut t = String::from("rating,puzzles,share,cumulative\n");
        let mut cum = 0;
        let whole = self.puzzles.max(1) as f64;
        for (r, n) in &self.counts {
            cum += n;
            let _ = writeln!(
                t,
                "{r},{n},{:.4},{:.4}",
                *n as f64 / whole,
                cum as f64 / whole
            );
        }
        let _ = writeln!(
            t,
            "unsolved,{},{:.4},",
            self.unsolved,
            self.unsolved as f64 / whole
        );
        if self.stopped > 0 {
            let _ = writeln!(
                t,
                "stopped,{},{:.4},",
                self.stopped,
                self.stopped as f64 / whole
            );
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_count_and_print() {
        let mut d = Distribution::new("W");
        for r in [0, 0, 2, 1, 0] {
            d.add(Ok(Rating::level(r)));
        }
        d.add(Err(StopReason::Stuck));
        assert_eq!(d.line(), "0:3 1:1 2:1 unsolved:1");
        assert_eq!(
            d.csv(),
            "rating,puzzles,share,cumulative\n0,3,0.5000,0.5000\n1,1,0.1667,0.6667\n\
             2,1,0.1667,0.8333\nunsolved,1,0.1667,\n"
        );
        // A limit's stop is counted apart: its rating is unknown.
        d.add(Err(StopReason::TimeLimit));
        d.add(Err(StopReason::Contradiction));
        assert_eq!(d.line(), "0:3 1:1 2:1 unsolved:2 stopped:1");
        assert!(d.csv().ends_with("unsolved,2,0.2500,\nstopped,1,0.1250,\n"));
        assert!(
            d.text().contains("\nstopped         1   12.50%\n"),
            "{}",
            d.text()
        );
        assert_eq!(rated_word(&Err(StopReason::TimeLimit)), "limit");
        assert_eq!(rated_word(&Err(StopReason::Stuck)), "-");
        assert_eq!(rated_word(&Ok(Rating::level(2))), "2");
        assert_eq!(unrated_note(&d), ", 2 unsolved, 1 stopped by a limit");
        assert_eq!(unrated_note(&Distribution::new("W")), "");
    }

    #[test]
    fn the_levels_table_has_a_column_per_level() {
        let t = |name: &str, solved: Vec<u64>| LadderTable {
            name: name.into(),
            description: String::new(),
            rungs: (4..4 + solved.len() as i64)
                .map(|l| (format!("{name}{l}"), Some(l)))
                .collect(),
            new: vec![0; solved.len()],
            solved,
            puzzles: 10000,
            stopped: 0,
        };
        let s = levels_table(&[t("L", vec![8271, 8959]), t("M", vec![9638, 9893, 9964])]);
        assert_eq!(
            s.unwrap(),
            "level     4     5     6\nL      8271  8959     -\nM      9638  9893  9964\n"
        );
    }
}
