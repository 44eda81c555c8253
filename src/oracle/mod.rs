//! The brute-force oracle ([`solver`]) and the [`referee`] that judges
//! conclusions against a puzzle's unique solution.
//!
//! Architecture Invariant: the oracle never uses rules; rules never use the
//! oracle. Soundness tests and `--verify` compare the two.

pub mod referee;
pub mod solver;
