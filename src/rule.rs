//! Compiled rules: a head (name, complexity, rating, provenance) and a
//! searcher, as egg's rewrites are a searcher and an applier.
//!
//! The head says how the rule is ordered and rated; the
//! [`Searcher`](crate::search::Searcher) says what it looks for. The engine
//! needs nothing else: applying a conclusion is the same for every rule.

use crate::rating::Rating;
use crate::search::{Found, Grade, Searcher, SearcherKind, pattern::Plan};
use std::sync::Arc;

/// How a rule is named, ordered and rated, and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleHead {
    pub name: String,
    /// Doc comment lines (`///`).
    pub docs: Vec<String>,
    /// The file it was compiled from, and the line and column of its
    /// name.
    pub file: String,
    pub line: usize,
    pub column: usize,
    /// Ordering key: smaller runs first (SudoRules' simplest-first).
    pub complexity: i64,
    /// The rating level (0 = singles; W[n]'s n; SE's 7.5).
    pub level: Rating,
    /// The rating label (`NP`, `FSHT`, `W[1]`); the name when absent.
    pub label: Option<String>,
    /// False for an `unrated` rule: its steps never rate a run.
    pub rated: bool,
    /// For a rule of other puzzle types only: the space of those types
    /// it reads (`dn`: a diagonal's symbol), which classic Sudoku has not
    /// (`lang::names::FOREIGN_SPACES`). A set keeps such rules apart
    /// ([`crate::ruleset::RuleSet::foreign`]).
    pub space: Option<String>,
}

impl RuleHead {
    /// The grade every match of this rule has unless it brings its own.
    pub fn grade(&self) -> Grade {
        Grade {
            complexity: self.complexity,
            level: self.level,
            label: self.label.clone().unwrap_or_else(|| self.name.clone()),
        }
    }
}

/// A rule ready to run.
#[derive(Clone, Debug)]
pub struct Rule {
    pub head: RuleHead,
    pub searcher: Arc<dyn Searcher>,
}

impl Rule {
    /// The grade of one match: its own, or the head's.
    pub fn grade_of(&self, found: &Found) -> Grade {
        found.grade.clone().unwrap_or_else(|| self.head.grade())
    }

    /// The pattern plan, when the rule is a pattern rule.
    pub fn plan(&self) -> Option<&Plan> {
        match self.searcher.kind() {
            SearcherKind::Pattern(plan) => Some(plan),
            _ => None,
        }
    }
}
