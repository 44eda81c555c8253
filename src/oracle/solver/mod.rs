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
//! of eight-lane operations (`lanes::Lanes`), and compiled once per
//! implementation.  On x86-64 there are two copies: the portable one with
//! SSE2 (part of the x86-64 baseline, so every x86-64 CPU runs it: each
//! operation is two 128-bit instructions, and a lane product is emulated),
//! and one with AVX2, BMI1, BMI2, LZCNT and POPCNT (one 256-bit instruction
//! per operation; board building and the solved grid use byte shuffles
//! too).  The AVX2 copy runs when the CPU has those features (checked once,
//! at the first call), unless the environment variable `RULEDOKU_ORACLE` is
//! `scalar`, which forces the portable copy.  Other targets compile a
//! portable copy over plain arrays, which the tests also run on x86-64.
//!
//! The parts: `board` (the representation), `sweep` (propagation),
//! `branch` (the branching choice), `search` (the depth-first search, one
//! copy per instruction set), `lanes` (the vector operations, and their
//! plain-array form), `avx2` and `sse2` (the x86-64 vector types).

#[cfg(target_arch = "x86_64")]
mod avx2;
mod board;
mod branch;
mod lanes;
mod search;
#[cfg(target_arch = "x86_64")]
mod sse2;
mod sweep;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
use search::count_avx2;
use search::count_portable;

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
    let ctx = run(Isa::detect(), masks, 2);
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
    run(Isa::detect(), masks, limit).count
}

/// The instruction set of the oracle's search on this machine: `"avx2"`
/// (x86-64 CPUs with AVX2, BMI1, BMI2, LZCNT and POPCNT) or `"portable"`
/// (any CPU, or `RULEDOKU_ORACLE=scalar`).  Both find the same counts and
/// the same solutions.
pub fn instruction_set() -> &'static str {
    match Isa::detect() {
        Isa::Portable => "portable",
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => "avx2",
    }
}

/// The compiled copy of the search that runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Isa {
    /// The baseline instruction set of the target.
    Portable,
    /// AVX2, BMI1, BMI2, LZCNT and POPCNT (x86-64 only).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Isa {
    /// The copy for this CPU and environment, decided at the first call:
    /// AVX2 where the CPU has it, unless `RULEDOKU_ORACLE` is `scalar`.
    fn detect() -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            static CHOSEN: AtomicU8 = AtomicU8::new(0);
            match CHOSEN.load(Ordering::Relaxed) {
                1 => return Isa::Portable,
                2 => return Isa::Avx2,
                _ => {}
            }
            let forced = std::env::var_os("RULEDOKU_ORACLE").is_some_and(|v| v == "scalar");
            let isa = if !forced && Isa::avx2_available() {
                Isa::Avx2
            } else {
                Isa::Portable
            };
            CHOSEN.store(if isa == Isa::Avx2 { 2 } else { 1 }, Ordering::Relaxed);
            isa
        }
        #[cfg(not(target_arch = "x86_64"))]
        Isa::Portable
    }

    /// Whether the CPU has the features `count_avx2` is compiled for.
    #[cfg(target_arch = "x86_64")]
    fn avx2_available() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
}

/// Counts the solutions of `masks` up to `limit` with the copy `isa` of the
/// search, keeping the first solution.
fn run(isa: Isa, masks: &[u16; 81], limit: usize) -> Search {
    let mut ctx = Search::new(limit);
    match isa {
        Isa::Portable => count_portable(masks, &mut ctx),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Isa::detect` chose `Avx2` only on a CPU with the features
        // `count_avx2` is compiled for (tests pass it only then).
        Isa::Avx2 => unsafe { count_avx2(masks, &mut ctx) },
    }
    ctx
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
