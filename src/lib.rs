//! ruledoku: a Sudoku engine whose solving techniques are declarative
//! resolution rules written as text (`rules/*.rules`).
//!
//! The library holds only generic machinery, in pipeline order:
//!
//! 1. [`grid`]: the CSP model (geometry, bitsets, links, resolution state);
//! 2. [`input`]: puzzle text in every common format → [`input::Puzzle`];
//! 3. [`oracle`]: the brute-force solver and the referee built on it;
//! 4. [`lang`]: rule text → AST → typed, checked rules → lowered searchers;
//! 5. [`search`]: the [`search::Searcher`] interface and its three kinds
//!    (pattern plans, chain searches, trial searches);
//! 6. [`rule`] and [`ruleset`]: compiled rules (head + searcher) and linked
//!    rule sets;
//! 7. [`engine`]: the runner that applies a rule set to a board, one loop
//!    whose observers are paths, statistics and tallies;
//! 8. [`path`]: renderers of resolution paths (SudoRules text, JSON, CSV);
//! 9. [`draw`]: pictures of steps (SVG) and paths as HTML pages, drawn
//!    from the steps' evidence.
//! 10. [`study`]: tools that study rules over collections (`subsume`,
//!     `classify`);
//! 11. [`rating`] and [`serate`]: ratings, and Sudoku Explainer's ER/EP/ED;
//! 12. [`generate`]: random minimal puzzles, by the oracle alone;
//! 13. [`batch`]: slices of a batch's input, their summaries and how
//!     pieces tile the input (`rate --shard`, `--resume`, `merge`).
//!
//! See `ARCHITECTURE.md` for the map and its invariants.

pub mod batch;
pub mod draw;
pub mod engine;
pub mod generate;
pub mod grid;
pub mod input;
pub mod lang;
pub mod model;
pub mod oracle;
pub mod path;
pub mod rating;
pub mod rule;
pub mod ruleset;
pub mod search;
pub mod serate;
pub mod study;
pub mod typed;

#[cfg(test)]
pub(crate) mod test_data;
