//! ruledoku: a Sudoku engine whose solving techniques are declarative
//! resolution rules written as text (`rules/*.rules`).
//!
//! The library holds only generic machinery: the grid model ([`geometry`],
//! [`bits`], [`links`], [`state`]), puzzle input ([`input`]), the brute-force
//! oracle ([`solver`]), the rule language front end ([`lang`]), its compiler
//! ([`compile`]), the [`engine`] that runs rule sets, and renderers of
//! resolution paths ([`path`]). See `ARCHITECTURE.md` for the map.

pub mod bits;
pub mod geometry;
pub mod input;
pub mod links;
pub mod solver;
pub mod state;
