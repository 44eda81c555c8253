//! ruledoku: a Sudoku engine whose solving techniques are declarative
//! resolution rules written as text (`rules/*.rules`).
//!
//! The library holds only generic machinery: the grid model ([`geometry`],
//! [`bits`], [`links`], [`state`]), puzzle input ([`input`]), the brute-force
//! oracle ([`solver`]), the rule language front end ([`lang`]), its compiler
//! ([`compile`]), the [`engine`] that runs rule sets, and renderers of
//! resolution paths ([`path`]). See `ARCHITECTURE.md` for the map.

pub mod bits;
pub mod engine;
pub mod geometry;
pub mod input;
pub mod lang;
pub mod links;
pub mod matcher;
pub mod path;
pub mod referee;
pub mod ruleset;
pub mod solver;
pub mod state;
