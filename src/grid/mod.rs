//! The grid model: indices of digits, cells, houses, candidates and CSP
//! variables ([`geometry`]), the bitsets that hold changing sets ([`bits`]),
//! the link graph ([`links`]) and the resolution state ([`state`]).
//!
//! Architecture Invariant: nothing here knows a technique. This layer is
//! the CSP: 729 candidates, 324 variables in four spaces, and nrc-links.

pub mod bits;
pub mod geometry;
pub mod links;
pub mod state;
