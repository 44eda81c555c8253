//! The spec of a trial rule: its passes (which candidates are assumed,
//! how an assumption propagates, what concludes) and its increment, as the
//! rule file writes them ([`TrialSpec`]). Plain data: the checker
//! (`lang::check_trial`) builds it, every other part of a trial search
//! reads it.
//!
//! Architecture Invariant: no technique is named here; a technique is a
//! combination of these fields, chosen by a rule file.

use crate::rating::Rating;

/// The implication steps a pass propagates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Steps {
    /// On ⇒ off: the cell's other candidates.
    pub on_off_cell: bool,
    /// On ⇒ off: the digit's other places in the candidate's houses.
    pub on_off_house: bool,
    /// Off ⇒ on: the other candidate of a cell left with two.
    pub off_on_cell: bool,
    /// Off ⇒ on: the other place of a digit left with two in a house.
    pub off_on_house: bool,
}

/// What the implication steps read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// The state the search was given (static chains).
    Original,
    /// The branch's state: literals inferred off are gone (dynamic chains).
    Branch,
}

/// What a conclusion looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A cycle back to the assumed-on candidate; eliminates candidates that
    /// see both an on and an off literal of the cycle, for one digit.
    Cycle,
    /// The assumption implies its negation: it is false.
    Forcing,
    /// The assumption implies a literal and its negation: it is false.
    Contradiction,
    /// A candidate on and the same candidate off imply the same literal.
    Double,
    /// Every candidate of a cell implies the same literal.
    Cell,
    /// Every place of a digit in a house implies the same literal.
    Region,
}

impl Mode {
    /// The word of the `conclude` clause.
    pub fn word(self) -> &'static str {
        match self {
            Mode::Cycle => "cycle",
            Mode::Forcing => "forcing",
            Mode::Contradiction => "contradiction",
            Mode::Double => "double",
            Mode::Cell => "cell",
            Mode::Region => "region",
        }
    }

    pub const ALL: [Mode; 6] = [
        Mode::Cycle,
        Mode::Forcing,
        Mode::Contradiction,
        Mode::Double,
        Mode::Cell,
        Mode::Region,
    ];
}

/// One `conclude` clause of a pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Conclude {
    pub mode: Mode,
    /// The difficulty before the length increment.
    pub level: Rating,
    /// Sort key among matches of equal difficulty and complexity.
    pub key: i64,
    /// The rating label of its matches (the rule's when `None`).
    pub label: Option<String>,
    /// Only from cells holding at least this many candidates.
    pub min_cell: usize,
}

/// How a match's difficulty grows with its complexity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Increment {
    /// The base only.
    None,
    /// Sudoku Explainer's: with `length = complexity − 2` and a ceiling
    /// starting at 4, add 0.1 while the length exceeds the ceiling, the
    /// ceiling growing alternately ×3/2 and ×4/3 (4, 6, 8, 12, 16, 24, …).
    SeLength,
}

impl Increment {
    /// The increment in tenths and as SE adds it (a sum of `0.1`s in
    /// double precision, which SE's sort compares).
    pub fn of(self, complexity: usize) -> (i64, f64) {
        match self {
            Increment::None => (0, 0.0),
            Increment::SeLength => {
                let length = complexity as i64 - 2;
                let (mut ceil, mut odd, mut n, mut added) = (4i64, false, 0i64, 0.0f64);
                while length > ceil {
                    added += 0.1;
                    n += 1;
                    ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
                    odd = !odd;
                }
                (n, added)
            }
        }
    }
}

/// One pass of a trial rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub min_cell: usize,
    pub max_cell: usize,
    pub assume_on: bool,
    pub assume_off: bool,
    pub steps: Steps,
    pub reads: Reads,
    /// `propagate with SET [rounds N]`: instead of implication steps, the
    /// rule set linked under that name runs in each branch, to its
    /// fixpoint (one match at a time, as the engine runs a set) or for N
    /// rounds (each applying every match found on the round's state).
    pub propagate: Option<(String, Option<usize>)>,
    /// `apply SET`: whenever the implication steps of a branch are
    /// exhausted, the rules of the set linked under that name are searched
    /// on the branch's state, a group of rules of equal complexity at a
    /// time; the first group with a match that has parents
    /// ([`Searcher::parents`](crate::search::Searcher::parents)) wins, and each candidate its matches remove
    /// becomes a literal off whose parents are the match's parents.
    pub apply: Option<String>,
    /// `sweep`: the pass finds one match, every assumption refuted while
    /// the candidates are tried in order, each refuted candidate removed
    /// from the state before the next assumption (Mike Metcalf's loop).
    /// Only with `propagate with`, `assume on` alone, and as the rule's
    /// only pass.
    pub sweep: bool,
    pub concludes: Vec<Conclude>,
}

impl Pass {
    /// The pass's `conclude` clause of mode `m`, if it has one.
    pub(crate) fn wants(&self, m: Mode) -> Option<&Conclude> {
        self.concludes.iter().find(|c| c.mode == m)
    }
}

/// The configuration of a trial search: its passes and its increment.
#[derive(Clone, Debug, PartialEq)]
pub struct TrialSpec {
    pub passes: Vec<Pass>,
    pub increment: Increment,
    /// The rule head's complexity (the grade's ordering key).
    pub complexity: i64,
    /// The rule's rating label (or name), for conclusions without one.
    pub label: String,
}
