//! The grid model: indices of digits, cells, houses, candidates and CSP
//! variables ([`geometry`]), the bitsets that hold changing sets ([`bits`]),
//! the candidate sets of the geometry ([`tables`]),
//! the link graph ([`links`]), the resolution state ([`state`]), the same
//! geometry as 81-bit cell masks ([`plane`]), the g-candidates of chains
//! ([`segments`]), and the board, the incremental state that runs change
//! ([`board`]).
//!
//! Architecture Invariant: nothing here knows a technique. This layer is
//! the CSP: 729 candidates, 324 variables in four spaces, and nrc-links.
//! Its structure has one definition, [`geometry`]'s functions: the link
//! graph is built from them, and every table here is derived from them
//! or from the graph (tests check the tables against the graph).

pub mod bits;
pub mod board;
pub mod geometry;
pub mod links;
pub mod plane;
pub mod segments;
pub mod state;
pub mod tables;
