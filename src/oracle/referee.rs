//! The referee: checks that what a rule concludes agrees with a puzzle's
//! unique solution, as found by the brute-force oracle ([`crate::oracle::solver`]).
//!
//! ```
//! use ruledoku::{oracle::referee::Referee, ruleset, engine, grid::state::State};
//! let p = ".2.1.3.9..8.4.9.6...........6..1..3...8.3.1..2.......5..56.84...42...65.81.7.5.29";
//! let puzzle = ruledoku::input::parse_puzzle(p).unwrap();
//! let referee = Referee::new(&puzzle.masks).unwrap();
//! let set = ruleset::load("sfin").unwrap();
//! let run = engine::run(&set, State::from_masks(&puzzle.masks, &puzzle.givens), Default::default());
//! referee.check_run(&run).unwrap();
//! ```

use crate::engine::Run;
use crate::engine::Step;
use crate::grid::geometry::*;
use crate::oracle::solver::{Solutions, solve_candidates};
use crate::search::ConclusionKind;

/// The first step of a run that disagrees with the solution: what a rule
/// author needs to find the bug (`solve --verify`).
#[derive(Clone, Debug, PartialEq)]
pub struct WrongStep {
    /// Index of the step in the run (0-based).
    pub index: usize,
    pub rule: String,
    /// The step in SudoRules notation.
    pub text: String,
    /// The state the step was found in, as a pencil-mark line.
    pub state: String,
    /// The wrong conclusion (`r3c4 ≠ 7`) and the solution's digit there.
    pub conclusion: String,
    pub solution_digit: u8,
}

impl std::fmt::Display for WrongStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "wrong step {} by rule `{}`: {}",
            self.index + 1,
            self.rule,
            self.text
        )?;
        writeln!(
            f,
            "  wrong conclusion: {} (the solution has {})",
            self.conclusion, self.solution_digit
        )?;
        write!(f, "  state before the step: {}", self.state)
    }
}

/// A puzzle's unique solution, used to judge conclusions.
pub struct Referee {
    pub solution: [u8; 81],
}

impl Referee {
    /// The referee of a puzzle given as per-cell masks; `Err` holds the
    /// oracle's verdict when the puzzle has no or several solutions.
    pub fn new(masks: &[u16; 81]) -> Result<Referee, Solutions> {
        match solve_candidates(masks) {
            Solutions::Unique(solution) => Ok(Referee { solution }),
            other => Err(other),
        }
    }

    /// Is candidate `z` true in the solution?
    pub fn is_true(&self, z: usize) -> bool {
        self.solution[cand_cell(z)] as usize == cand_digit(z) + 1
    }

    /// Every elimination of the step is false and every assertion true.
    pub fn check_step(&self, step: &Step) -> Result<(), String> {
        for &z in &step.conclusions {
            let ok = match step.kind {
                ConclusionKind::Eliminate => !self.is_true(z),
                ConclusionKind::Assert => self.is_true(z),
            };
            if !ok {
                return Err(format!(
                    "unsound step: {} (the solution has {} = {})",
                    step.text(),
                    cell_name(cand_cell(z)),
                    self.solution[cand_cell(z)]
                ));
            }
        }
        Ok(())
    }

    /// Every step of a run is sound.
    pub fn check_run(&self, run: &Run) -> Result<(), String> {
        run.steps.iter().try_for_each(|s| self.check_step(s))
    }

    /// The first step of a run with a conclusion that disagrees with the
    /// solution, if any.
    pub fn first_wrong(&self, run: &Run) -> Option<WrongStep> {
        run.steps.iter().enumerate().find_map(|(index, s)| {
            let &z = s.conclusions.iter().find(|&&z| match s.kind {
                ConclusionKind::Eliminate => self.is_true(z),
                ConclusionKind::Assert => !self.is_true(z),
            })?;
            Some(WrongStep {
                index,
                rule: s.rule_name().to_string(),
                text: s.text(),
                state: s.before.pencil_marks(),
                conclusion: crate::path::conclusion_text(s.kind, z),
                solution_digit: self.solution[cand_cell(z)],
            })
        })
    }
}
