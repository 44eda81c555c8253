//! Exact brute-force Sudoku solver, used as the oracle (referee) for the
//! rule-based solver.
//!
//! It answers "how many solutions, up to a limit" for a grid of givens or for
//! pencil marks (a sukaku: any set of candidates per cell), and returns a
//! solution.  It is a depth-first search over a bitboard state; between
//! guesses, propagation runs whole *sweeps* over the state, each a fixed
//! sequence of vector operations with no branch on the data.
//!
//! # Instruction sets
//!
//! The sweep and the branching choice are written once, over a small trait
//! of vector operations (`lanes::Lanes`), and compiled once per *tier*: on
//! x86-64 with AVX2 (vectors of two digits), with SSE4.1 and with SSE2 (the
//! x86-64 baseline; vectors of one digit), and over plain arrays (`scalar`,
//! the only tier elsewhere).  The best tier the CPU has runs, checked once
//! at the first call; the environment variable `RULEDOKU_ORACLE`
//! (`avx2`, `sse4`, `sse2` or `scalar`) forces one.  All tiers find the same
//! counts and the same first solutions (see `tier`).
//!
//! The parts: `board` (the representation), `sweep` (propagation),
//! `branch` (the branching choice), `search` (the depth-first search, one
//! copy per tier), `tier` (the tiers and the choice among them), `lanes`
//! (the vector operations, and their plain-array form), `avx2` and `sse`
//! (the x86-64 vector types).

#[cfg(target_arch = "x86_64")]
mod avx2;
mod board;
mod branch;
mod lanes;
mod search;
#[cfg(target_arch = "x86_64")]
mod sse;
mod sweep;
#[cfg(test)]
mod tests;
mod tier;

use tier::Tier;

/// Outcome of counting solutions up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solutions {
    /// The puzzle has no solution.
    None,
    /// The puzzle has exactly one solution (digits `1..=9`, index `row * 9 + col`).
    Unique([u8; 81]),
    /// The puzzle has at least two solutions; `first` is the first one found.
    Multiple {
        /// One of the solutions (digits `1..=9`, index `row * 9 + col`).
        first: [u8; 81],
    },
}

/// Solves a puzzle given as 81 cells: `0` = empty, `1..=9` = given.
///
/// Values above 9 are treated as empty cells.  Contradictory givens yield
/// [`Solutions::None`].
pub fn solve_givens(givens: &[u8; 81]) -> Solutions {
    let mut masks = [0u16; 81];
    for (m, &g) in masks.iter_mut().zip(givens.iter()) {
        *m = if (1..=9).contains(&g) {
            1 << (g - 1)
        } else {
            0x1FF
        };
    }
    solve_candidates(&masks)
}

/// Pencil-mark (sukaku) input: `masks[cell]` bit d (0..9) set = digit d+1 still possible in that cell.
///
/// Bits above bit 8 are ignored; a cell with no candidate makes the puzzle
/// unsolvable.
pub fn solve_candidates(masks: &[u16; 81]) -> Solutions {
    let ctx = Tier::chosen().run(masks, 2);
    match (ctx.count, ctx.first) {
        (0, _) | (_, None) => Solutions::None,
        (1, Some(grid)) => Solutions::Unique(grid),
        (_, Some(grid)) => Solutions::Multiple { first: grid },
    }
}

/// Count solutions up to `limit` (returns min(count, limit)).
///
/// Input is the same pencil-mark format as [`solve_candidates`].
pub fn count_solutions(masks: &[u16; 81], limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    Tier::chosen().run(masks, limit).count
}

/// The tier of the oracle's search on this machine, named after its
/// instruction set: `"avx2"`, `"sse4"`, `"sse2"` or `"scalar"` (the best the
/// CPU has, or the one `RULEDOKU_ORACLE` names).  All find the same counts
/// and the same solutions.
pub fn instruction_set() -> &'static str {
    Tier::chosen().name()
}

/// Search bookkeeping: how many solutions were found and the first one.
pub(super) struct Search {
    pub(super) limit: usize,
    pub(super) count: usize,
    pub(super) first: Option<[u8; 81]>,
}

impl Search {
    pub(super) fn new(limit: usize) -> Self {
        Search {
            limit,
            count: 0,
            first: None,
        }
    }
}

/// Outcome of propagation.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Status {
    Contradiction,
    Solved,
    Open,
}
