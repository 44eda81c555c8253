//! The brute-force oracle ([`solver`], classic 9×9; [`generic`], any
//! puzzle type) and the [`referee`] that judges
//! conclusions against a puzzle's unique solution.
//!
//! Architecture Invariant: the oracle never uses rules; rules never use the
//! oracle. Soundness tests and `--verify` compare the two.

pub mod generic;
pub mod referee;
pub mod solver;
