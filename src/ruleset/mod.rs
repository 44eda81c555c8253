//! Rule sets: which rules run, in which order, rated how.
//!
//! A rule set is loaded from a *spec*: a built-in set name (`basic`,
//! `sfin`, `singles`: the sets under `rules/sets/`, embedded in the
//! binary) or a path to a set file (`.yaml`), a rule file (`.rules`) or a
//! folder of rule files. A spec is a path only if it is spelled as one (a
//! `/`, an extension, `.`/`..`, see [`source`]); `a+b` joins specs.
//!
//! A set file lists what it includes under `files:` (rule files, folders,
//! other set files, built-in sets by name, resolved from the set file's
//! folder) and may narrow or re-rate the result (the `setfile` module checks its fields):
//!
//! ```yaml
//! name: my-set
//! description: Basic without XY-Wing, and my rules
//! files: [basic, ./my-rules/]
//! max-level: 4          # drop rules of a higher level
//! exclude: [xy-wing]    # drop rules by name
//! ratings:              # override a rule's rating label / level
//!   whip[1]: { rating: W1, level: 1 }
//! blocked: true         # all conclusions of a match in one step (default)
//! strategy: first-producer  # Sudoku Explainer's order and ratings (default: simplest-first)
//! assumes-unique: true   # the set has rules sound only for puzzles with one solution
//! ```
//!
//! An included set's own `max-level`, `exclude` and `ratings` shape what it
//! contributes; the including set's apply to the union. Rules are ordered
//! by complexity, ties keeping the order in which they were included
//! (SudoRules: simplest first). The [`Library`] does the loading and
//! linking; [`load`] is the one-call form.

mod library;
mod setfile;
pub mod source;

pub use library::{Library, MAX_DEPTH};
pub use setfile::Strategy;
pub use source::Location;

use crate::lang::Diagnostic;
use crate::rule::Rule;
use std::sync::Arc;

/// The rule set used when `--rules` is absent.
pub const DEFAULT_SET: &str = "basic";

/// A loaded, compiled rule set.
#[derive(Clone, Debug)]
pub struct RuleSet {
    pub name: String,
    pub description: String,
    /// The rules, simplest first (by complexity; ties keep file order).
    pub rules: Vec<Arc<Rule>>,
    /// The set's rules for other puzzle types only (a space classic Sudoku
    /// has not: [`RuleHead::space`](crate::rule::RuleHead::space)), in the
    /// same order; classic runs never see them, `crate::typed` merges them
    /// in for the types that have their space.
    pub foreign: Vec<Arc<Rule>>,
    pub blocked: bool,
    /// How steps are picked and the run rated: simplest-first (SudoRules),
    /// or first-producer (Sudoku Explainer: listed order, ER/EP/ED).
    pub strategy: Strategy,
    /// Whether some rule holds only for a puzzle with one solution
    /// (uniqueness techniques); `rules list` shows it.
    pub assumes_unique: bool,
    /// SudoRules' rating type (`W`, `B`, `gW`, `gB`: a set file's
    /// `rating-type:`): a run of level `n` ≥ 1 is rated `TYPE[n]`,
    /// whatever rule of the set its hardest step was; `None`: the hardest
    /// step's own label.
    pub rating_type: Option<String>,
    /// Warnings of the rule files reached (e.g. a huge search space), each
    /// once; `rules check` prints them.
    pub warnings: Vec<crate::lang::Diagnostic>,
}

/// A rule named under a set's `exclude:` or `ratings:` that none of its
/// files defines.
#[derive(Clone, Debug, PartialEq)]
pub struct UnknownRule {
    /// `exclude` or `ratings`.
    pub key: &'static str,
    pub name: String,
    /// The closest rule name the set has, if one is close.
    pub suggestion: Option<String>,
}

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    /// A file or folder that cannot be read, or is not a rule or set file.
    #[error("{path}: {message}")]
    File { path: String, message: String },
    /// A set file that is not a valid set.
    #[error("{0}: invalid rule set: {1}")]
    Yaml(String, String),
    /// A name that is no built-in set.
    #[error("unknown rule set `{name}` (built-in sets: {known}){hint}")]
    Unknown {
        name: String,
        known: String,
        hint: String,
    },
    /// Errors in rule files, every one of them.
    #[error("{}", render_diags(.0))]
    Rules(Vec<Diagnostic>),
    /// Two rules of one name, from two places (`file:line:column`).
    #[error("{second}: rule `{name}` is defined twice (first at {first})")]
    Duplicate {
        name: String,
        first: String,
        second: String,
    },
    /// One rule reached through two included sets that rate it differently.
    #[error(
        "rule `{name}` ({place}) is included twice with different ratings: {first}, {second}; include it through one set only"
    )]
    Conflict {
        name: String,
        place: String,
        first: String,
        second: String,
    },
    /// Sets that include each other, outermost first, the first repeated last.
    #[error("include cycle: {}", .0.join(" → "))]
    Cycle(Vec<String>),
    /// A set, folder or file with no rule.
    #[error("{what}: empty rule set: {why}")]
    Empty { what: String, why: String },
    /// Names under `exclude:` or `ratings:` that are no rule of the set.
    #[error("{}", render_unknown(set, rules))]
    UnknownRules {
        set: String,
        rules: Vec<UnknownRule>,
    },
    /// An entry of a set file's `files:` that cannot be resolved or read.
    #[error("{set}: `files:` entry `{entry}`: {error}")]
    Entry {
        set: String,
        entry: String,
        error: Box<SetError>,
    },
    /// The set a trial rule propagates with (`propagate with NAME`)
    /// cannot be linked.
    #[error("{file}: rule `{rule}`: `propagate with {name}`: {error}")]
    Link {
        file: String,
        rule: String,
        name: String,
        error: Box<SetError>,
    },
    /// The set a trial rule applies between implication rounds (`apply
    /// NAME`) cannot be linked.
    #[error("{file}: rule `{rule}`: `apply {name}`: {error}")]
    ApplyLink {
        file: String,
        rule: String,
        name: String,
        error: Box<SetError>,
    },
    /// Sets included more than [`MAX_DEPTH`] deep.
    #[error("{path}: included more than {depth} sets deep")]
    TooDeep { path: String, depth: usize },
    /// `a+b` when a path `a+b` exists: `+` always joins.
    #[error(
        "`{0}`: `+` joins rule sets, so this names several; to use a path with a `+` in it, list it under `files:` in a set file"
    )]
    PlusInPath(String),
    /// `a+` or `+b`.
    #[error("`{0}`: empty part: `+` joins two rule sets")]
    EmptyPart(String),
    /// An empty spec.
    #[error(
        "the rule set is empty: give a built-in set (`basic`, `w`, …), a path, or `-` for standard input"
    )]
    EmptyName,
}

fn render_diags(d: &[Diagnostic]) -> String {
    crate::lang::Diagnostics(d.to_vec()).to_string()
}

fn render_unknown(set: &str, rules: &[UnknownRule]) -> String {
    rules
        .iter()
        .map(|u| {
            let hint = u
                .suggestion
                .as_ref()
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            format!("{set}: `{}:` names no rule `{}`{hint}", u.key, u.name)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The candidate closest to `word` by edit distance (ignoring case), if it
/// is close enough to be a likely misspelling.
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let w: Vec<char> = word.to_lowercase().chars().collect();
    let limit = (w.len() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| {
            let c_chars: Vec<char> = c.to_lowercase().chars().collect();
            (edit_distance(&w, &c_chars), c)
        })
        // A word changed as a whole is no misspelling (`-` is not `b`).
        .filter(|&(d, _)| d <= limit && d < w.len())
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// Levenshtein distance.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Names of the built-in rule sets (file stems under `rules/sets/`), sorted.
pub fn embedded_set_names() -> Vec<String> {
    Library::new().built_in_names()
}

/// Loads a rule set from a spec (see the module docs): a built-in set name,
/// a path to a set file, rule file or folder, or specs joined by `+`.
/// Paths are relative to the current directory. An empty set is an error.
pub fn load(spec: impl AsRef<std::ffi::OsStr>) -> Result<RuleSet, SetError> {
    Library::new().load(spec).map(Arc::unwrap_or_clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_find_the_closest_name() {
        // Rule names as a user writes them (made up: any name works).
        let names = ["my-first-rule", "ab-rule", "loop[1]", "abc-rule"];
        assert_eq!(closest("my-frist-rule", names), Some("my-first-rule"));
        assert_eq!(closest("AB-Rule", names), Some("ab-rule"));
        assert_eq!(closest("loop1", names), Some("loop[1]"));
        assert_eq!(closest("elsewhere", names), None);
        assert_eq!(edit_distance(&['a', 'b'], &[]), 2);
    }
}
