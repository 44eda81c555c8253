//! Exact brute-force Sudoku solver, used as the oracle (referee) for the
//! rule-based solver.
//!
//! It answers "how many solutions, up to a limit" for a grid of givens or for
//! pencil marks (a sukaku: any set of candidates per cell), and returns a
//! solution.  It is a depth-first search over a bitboard state; between
//! guesses, propagation runs whole *sweeps* over the state, each a fixed
//! sequence of vector operations with no branch on the data.
//!
//! # Representation
//!
//! The grid is split into three horizontal *bands* of 27 cells (three rows of
//! nine).  For every band and every digit the state keeps a 27-bit mask of the
//! cells of the band where the digit is still possible; bit `9 * r + c` stands
//! for row `r` of the band and column `c`.  The 27 masks sit in the 32-bit
//! lanes of five vectors of eight lanes ([`V`]): vector `j` holds digit `2j`
//! in lanes 0-2 (bands 0-2) and digit `2j + 1` in lanes 4-6; lanes 3 and 7 and
//! the second half of the last vector (a tenth digit) are padding and stay
//! zero.  So the nine digits of a band are lane `b` of the ten half-vectors,
//! and the three bands of a digit are lanes 0-2 of one half-vector.
//!
//! A cell is *solved* when it has one candidate left; a solved digit stays in
//! its mask as a single bit.  "Every house contains every digit at least once"
//! and "no cell is empty" stay valid consistency tests during the whole
//! search, and a state in which every cell is solved and they hold is a
//! solution (81 cells, nine per row, each row holding all nine digits).
//!
//! # Propagation
//!
//! One sweep, on all 27 masks at once:
//!
//! 1. **Naked singles.**  A bit-sliced count over the ten half-vectors (two
//!    levels, "one or more" and "two or more") gives, for each band, the empty
//!    cells (contradiction) and the solved ones.  Each digit's solved cells
//!    clear the digit from their row and box (spread inside the lane) and from
//!    their column (lanes 0-2 of a half-vector rotated).
//! 2. **Band filter.**  Inside one band a digit occupies exactly one cell per
//!    row and one per box, so the three (row, box) pairs it uses form a
//!    permutation of the 3×3 grid of *mini-rows* (the three cells a row shares
//!    with a box).  From the nine "mini-row not empty" flags, mini-row (r, k)
//!    is kept when the two other rows and the two other boxes still hold a
//!    permutation of theirs: a 2×2 permanent of rotated flags, computed with
//!    shifts.  This performs the box/line interactions (pointing and claiming)
//!    inside the band; a digit with no permutation left (zero flags kept) is a
//!    contradiction.
//! 3. **Hidden singles.**  A row of a band with one cell left for a digit
//!    (counted per mini-row, then across the three mini-rows), and a column
//!    with one cell left (counted in each band, then across the three lanes of
//!    the digit), place the digit: the cell is cleared from every other
//!    digit.  A box with one cell left is turned into such a row by step 2, so
//!    box hidden singles need no step of their own.  A column with no cell
//!    left is a contradiction.
//!
//! Besides an empty cell, a digit left without a permutation in a band and
//! a column left without a digit, a sweep checks what placing conclusions
//! one at a time would have met: two solved cells of one digit in one
//! mini-row, or in one column of two bands (two in one row and two boxes,
//! or in one box and two rows, leave the band filter no permutation), and
//! two hidden singles placed in one cell.  Each is a contradiction.
//!
//! Sweeps repeat until one places no hidden single and leaves no new solved
//! cell: the next one would change nothing (the band filter keeps what it
//! keeps).  The fixpoint is that of the same rules applied one conclusion
//! at a time, so the search tree is the one such a solver explores.
//!
//! Each step of a sweep is written for the five vectors in turn, so that
//! five independent chains of operations stand side by side in the
//! instruction stream; written vector after vector, the chains are too long
//! for the CPU to overlap more than two, and a sweep takes a third longer.
//!
//! # Search
//!
//! At a fixpoint with unsolved cells the solver branches on a bivalue cell if
//! there is one (otherwise on a cell with the fewest candidates).  Among the
//! bivalue cells it picks the one maximising the number of peers that lose a
//! candidate in one of the two branches, minus twice the number of unsolved
//! peers with three or more candidates; on hard puzzles this explores several
//! times fewer nodes than taking the first bivalue cell.  Every candidate but
//! the last is tried on a copy of the state, depth first, and then eliminated
//! from the current state; the last one is placed in the current state.  The
//! search stops as soon as the requested number of solutions has been found.
//!
//! # Instruction sets
//!
//! The sweep and the branching choice are written once, over a small trait
//! of eight-lane operations ([`Lanes`]), and compiled once per
//! implementation.  On x86-64 there are two copies: the portable one with
//! SSE2 (part of the x86-64 baseline, so every x86-64 CPU runs it: each
//! operation is two 128-bit instructions, and a lane product is emulated),
//! and one with AVX2, BMI1, BMI2, LZCNT and POPCNT (one 256-bit instruction
//! per operation; board building and the solved grid use byte shuffles
//! too).  The AVX2 copy runs when the CPU has those features (checked once,
//! at the first call), unless the environment variable `RULEDOKU_ORACLE` is
//! `scalar`, which forces the portable copy.  Other targets compile a
//! portable copy over plain arrays, which the tests also run on x86-64.

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

/// Pencil-mark (sukaku) input: masks[cell] bit d (0..9) set = digit d+1 still possible in that cell.
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

/// All 27 cells of a band.
const BAND_ALL: u32 = (1 << 27) - 1;
/// The nine cells of one row inside a band (or nine columns).
const ROW: u32 = 0x1FF;
/// The first cell of each mini-row: bits `9 * r + 3 * k`.
const MINI: u32 = 0x124_9249;
/// The first cell of each row (mini-rows of box 0): bits `9 * r`.
const BOX0: u32 = 0x4_0201;
/// Mini-rows of box 1 and of box 2 (first cells).
const BOX1: u32 = BOX0 << 3;
const BOX2: u32 = BOX0 << 6;
/// The cells of box 0 of a band; times a flag at bit `3 * k`, box `k`.
const BOX_CELLS: u32 = 0x1C_0E07;
/// The three cells of column 0 in a band; times a column set, those columns.
const COLUMN_CELLS: u32 = 0x4_0201;

/// Eight 32-bit lanes, as the sweep sees them.  Implemented by plain arrays
/// ([`Lanes8`], any target) and by AVX2 registers ([`Avx2`]).
trait Lanes: Copy {
    fn load(a: &[u32; 8]) -> Self;
    fn store(self, a: &mut [u32; 8]);
    fn splat(x: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// `self & !o`.
    fn and_not(self, o: Self) -> Self;
    fn shr<const N: i32>(self) -> Self;
    fn shl<const N: i32>(self) -> Self;
    /// Lane-wise product (low 32 bits).
    fn mul(self, o: Self) -> Self;
    /// All ones in the lanes that are zero, zero elsewhere.
    fn is_zero(self) -> Self;
    /// Whether some lane is not zero.
    fn any(self) -> bool;
    /// Lanes 0-2 and 4-6 rotated: lane `b` gets lane `b + 1` (mod 3).
    fn next_band(self) -> Self;
    /// Lanes 0-2 and 4-6 rotated: lane `b` gets lane `b + 2` (mod 3).
    fn prev_band(self) -> Self;
    /// The two halves (lanes 0-3, 4-7) exchanged.
    fn swap_halves(self) -> Self;
    /// Bit `l` set when lane `l` has bit `i` (`i < 32`).
    fn bits_at(self, i: u32) -> u32;

    /// The board of a puzzle's pencil marks; `None` when some cell has no
    /// candidate.
    #[inline(always)]
    fn board(masks: &[u16; 81]) -> Option<Board> {
        Board::from_masks(masks)
    }

    /// The solved grid; requires every cell to be solved.
    #[inline(always)]
    fn grid(board: &Board) -> [u8; 81] {
        board.grid()
    }
}

/// Eight lanes as an array: every operation a loop over the lanes.  The
/// portable copy on targets other than x86-64 (on x86-64, which the tests
/// run it too, the compiler does not make vector code of it).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[derive(Clone, Copy)]
struct Lanes8([u32; 8]);

#[cfg(any(test, not(target_arch = "x86_64")))]
impl Lanes8 {
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        let mut r = [0u32; 8];
        for (r, (&a, &b)) in r.iter_mut().zip(self.0.iter().zip(&o.0)) {
            *r = f(a, b);
        }
        Lanes8(r)
    }

    #[inline(always)]
    fn permute(self, p: [usize; 8]) -> Self {
        Lanes8(p.map(|i| self.0[i]))
    }
}

#[cfg(any(test, not(target_arch = "x86_64")))]
impl Lanes for Lanes8 {
    #[inline(always)]
    fn load(a: &[u32; 8]) -> Self {
        Lanes8(*a)
    }
    #[inline(always)]
    fn store(self, a: &mut [u32; 8]) {
        *a = self.0;
    }
    #[inline(always)]
    fn splat(x: u32) -> Self {
        Lanes8([x; 8])
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self.zip(o, |a, b| a & b)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self.zip(o, |a, b| a | b)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self.zip(o, |a, b| a ^ b)
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        self.zip(o, |a, b| a & !b)
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        Lanes8(self.0.map(|x| x >> N))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Lanes8(self.0.map(|x| x << N))
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.zip(o, u32::wrapping_mul)
    }
    #[inline(always)]
    fn is_zero(self) -> Self {
        Lanes8(self.0.map(|x| ((x == 0) as u32).wrapping_neg()))
    }
    #[inline(always)]
    fn any(self) -> bool {
        self.0.iter().fold(0, |a, &x| a | x) != 0
    }
    #[inline(always)]
    fn next_band(self) -> Self {
        self.permute([1, 2, 0, 3, 5, 6, 4, 7])
    }
    #[inline(always)]
    fn prev_band(self) -> Self {
        self.permute([2, 0, 1, 3, 6, 4, 5, 7])
    }
    #[inline(always)]
    fn swap_halves(self) -> Self {
        self.permute([4, 5, 6, 7, 0, 1, 2, 3])
    }
    #[inline(always)]
    fn bits_at(self, i: u32) -> u32 {
        let mut m = 0;
        for (l, &x) in self.0.iter().enumerate() {
            m |= ((x >> i) & 1) << l;
        }
        m
    }
}

/// Eight lanes in an AVX2 register.  Its operations are only ever inlined
/// into `search_avx2`, which runs on CPUs with AVX2 only.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Avx2(std::arch::x86_64::__m256i);

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Avx2, BAND_ALL, Board, Lanes};
    use std::arch::x86_64::*;

    // SAFETY (every `unsafe` block below): these methods are inlined only
    // into `search_avx2`, compiled for and run on CPUs with AVX2; the loads
    // and stores read and write a whole `[u32; 8]`.
    impl Lanes for Avx2 {
        #[inline(always)]
        fn load(a: &[u32; 8]) -> Self {
            Avx2(unsafe { _mm256_loadu_si256(a.as_ptr().cast()) })
        }
        #[inline(always)]
        fn store(self, a: &mut [u32; 8]) {
            unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), self.0) }
        }
        #[inline(always)]
        fn splat(x: u32) -> Self {
            Avx2(unsafe { _mm256_set1_epi32(x as i32) })
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_and_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_or_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_xor_si256(self.0, o.0) })
        }
        #[inline(always)]
        fn and_not(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_andnot_si256(o.0, self.0) })
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> Self {
            Avx2(unsafe { _mm256_srli_epi32::<N>(self.0) })
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> Self {
            Avx2(unsafe { _mm256_slli_epi32::<N>(self.0) })
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            Avx2(unsafe { _mm256_mullo_epi32(self.0, o.0) })
        }
        #[inline(always)]
        fn is_zero(self) -> Self {
            Avx2(unsafe { _mm256_cmpeq_epi32(self.0, _mm256_setzero_si256()) })
        }
        #[inline(always)]
        fn any(self) -> bool {
            unsafe { _mm256_testz_si256(self.0, self.0) == 0 }
        }
        #[inline(always)]
        fn next_band(self) -> Self {
            Avx2(unsafe { _mm256_shuffle_epi32::<0b11_00_10_01>(self.0) })
        }
        #[inline(always)]
        fn prev_band(self) -> Self {
            Avx2(unsafe { _mm256_shuffle_epi32::<0b11_01_00_10>(self.0) })
        }
        #[inline(always)]
        fn swap_halves(self) -> Self {
            Avx2(unsafe { _mm256_permute2x128_si256::<0x01>(self.0, self.0) })
        }
        #[inline(always)]
        fn bits_at(self, i: u32) -> u32 {
            unsafe {
                let top = _mm256_sll_epi32(self.0, _mm_cvtsi32_si128(31 - i as i32));
                _mm256_movemask_ps(_mm256_castsi256_ps(top)) as u32
            }
        }

        /// Each digit's cells are the sign bits of the 16-bit masks shifted
        /// left, packed to bytes and gathered by a byte movemask, 32 cells
        /// at a time.
        #[inline(always)]
        fn board(masks: &[u16; 81]) -> Option<Board> {
            let mut cells = [0x1FF_u16; 96];
            cells[..81].copy_from_slice(masks);
            unsafe {
                let p = cells.as_ptr().cast::<__m256i>();
                let nine = _mm256_set1_epi16(0x1FF);
                let zero = _mm256_setzero_si256();
                let mut empty = zero;
                let mut v = [zero; 6];
                for (k, v) in v.iter_mut().enumerate() {
                    let x = _mm256_and_si256(_mm256_loadu_si256(p.add(k)), nine);
                    empty = _mm256_or_si256(empty, _mm256_cmpeq_epi16(x, zero));
                    *v = _mm256_slli_epi16::<7>(x);
                }
                if _mm256_testz_si256(empty, empty) == 0 {
                    return None;
                }
                let mut board = Board { v: [[0; 8]; 5] };
                for d in (0..9).rev() {
                    let mut w = [0u32; 3];
                    for (q, w) in w.iter_mut().enumerate() {
                        let bytes = _mm256_packs_epi16(v[2 * q], v[2 * q + 1]);
                        let bytes = _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes);
                        *w = _mm256_movemask_epi8(bytes) as u32;
                    }
                    *board.mask_mut(d, 0) = w[0] & BAND_ALL;
                    *board.mask_mut(d, 1) = ((w[0] >> 27) | (w[1] << 5)) & BAND_ALL;
                    *board.mask_mut(d, 2) = ((w[1] >> 22) | (w[2] << 10)) & BAND_ALL;
                    for v in &mut v {
                        *v = _mm256_slli_epi16::<1>(*v);
                    }
                }
                Some(board)
            }
        }

        /// Each digit's cells, 32 at a time, expanded to bytes (a byte
        /// shuffle of the broadcast word, then a test of one bit per byte).
        #[inline(always)]
        fn grid(board: &Board) -> [u8; 81] {
            let mut out = [0u8; 96];
            unsafe {
                let spread = _mm256_setr_epi8(
                    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
                    3, 3, 3, 3, 3, 3,
                );
                let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
                let mut acc = [_mm256_setzero_si256(); 3];
                for d in 0..9 {
                    let (b0, b1, b2) = (board.mask(d, 0), board.mask(d, 1), board.mask(d, 2));
                    let w = [b0 | b1 << 27, b1 >> 5 | b2 << 22, b2 >> 10];
                    let digit = _mm256_set1_epi8(d as i8 + 1);
                    for (acc, &w) in acc.iter_mut().zip(&w) {
                        let x = _mm256_shuffle_epi8(_mm256_set1_epi32(w as i32), spread);
                        let x = _mm256_cmpeq_epi8(_mm256_and_si256(x, bits), bits);
                        *acc = _mm256_or_si256(*acc, _mm256_and_si256(x, digit));
                    }
                }
                for (q, acc) in acc.iter().enumerate() {
                    _mm256_storeu_si256(out.as_mut_ptr().add(32 * q).cast(), *acc);
                }
            }
            let mut g = [0u8; 81];
            g.copy_from_slice(&out[..81]);
            g
        }
    }
}

/// Eight lanes in two SSE2 registers: the x86-64 baseline, which every
/// x86-64 CPU runs.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Sse2([std::arch::x86_64::__m128i; 2]);

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use super::{Lanes, Sse2};
    use std::arch::x86_64::*;

    impl Sse2 {
        #[inline(always)]
        fn each(self, f: impl Fn(__m128i) -> __m128i) -> Self {
            Sse2([f(self.0[0]), f(self.0[1])])
        }

        #[inline(always)]
        fn each2(self, o: Self, f: impl Fn(__m128i, __m128i) -> __m128i) -> Self {
            Sse2([f(self.0[0], o.0[0]), f(self.0[1], o.0[1])])
        }
    }

    // SAFETY (every `unsafe` block below): SSE2 is part of the x86-64
    // baseline; the loads and stores read and write a whole `[u32; 8]`.
    impl Lanes for Sse2 {
        #[inline(always)]
        fn load(a: &[u32; 8]) -> Self {
            let p = a.as_ptr().cast::<__m128i>();
            unsafe { Sse2([_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))]) }
        }
        #[inline(always)]
        fn store(self, a: &mut [u32; 8]) {
            let p = a.as_mut_ptr().cast::<__m128i>();
            unsafe {
                _mm_storeu_si128(p, self.0[0]);
                _mm_storeu_si128(p.add(1), self.0[1]);
            }
        }
        #[inline(always)]
        fn splat(x: u32) -> Self {
            let v = unsafe { _mm_set1_epi32(x as i32) };
            Sse2([v, v])
        }
        #[inline(always)]
        fn and(self, o: Self) -> Self {
            self.each2(o, |a, b| unsafe { _mm_and_si128(a, b) })
        }
        #[inline(always)]
        fn or(self, o: Self) -> Self {
            self.each2(o, |a, b| unsafe { _mm_or_si128(a, b) })
        }
        #[inline(always)]
        fn xor(self, o: Self) -> Self {
            self.each2(o, |a, b| unsafe { _mm_xor_si128(a, b) })
        }
        #[inline(always)]
        fn and_not(self, o: Self) -> Self {
            self.each2(o, |a, b| unsafe { _mm_andnot_si128(b, a) })
        }
        #[inline(always)]
        fn shr<const N: i32>(self) -> Self {
            self.each(|a| unsafe { _mm_srli_epi32::<N>(a) })
        }
        #[inline(always)]
        fn shl<const N: i32>(self) -> Self {
            self.each(|a| unsafe { _mm_slli_epi32::<N>(a) })
        }
        /// SSE2 has no 32-bit product: the even and the odd lanes are
        /// multiplied to 64 bits, and their low halves put back together.
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            self.each2(o, |a, b| unsafe {
                let even = _mm_mul_epu32(a, b);
                let odd = _mm_mul_epu32(_mm_srli_epi64::<32>(a), _mm_srli_epi64::<32>(b));
                _mm_unpacklo_epi32(
                    _mm_shuffle_epi32::<0b00_00_10_00>(even),
                    _mm_shuffle_epi32::<0b00_00_10_00>(odd),
                )
            })
        }
        #[inline(always)]
        fn is_zero(self) -> Self {
            self.each(|a| unsafe { _mm_cmpeq_epi32(a, _mm_setzero_si128()) })
        }
        #[inline(always)]
        fn any(self) -> bool {
            unsafe {
                let x = _mm_or_si128(self.0[0], self.0[1]);
                _mm_movemask_epi8(_mm_cmpeq_epi32(x, _mm_setzero_si128())) != 0xFFFF
            }
        }
        #[inline(always)]
        fn next_band(self) -> Self {
            self.each(|a| unsafe { _mm_shuffle_epi32::<0b11_00_10_01>(a) })
        }
        #[inline(always)]
        fn prev_band(self) -> Self {
            self.each(|a| unsafe { _mm_shuffle_epi32::<0b11_01_00_10>(a) })
        }
        #[inline(always)]
        fn swap_halves(self) -> Self {
            Sse2([self.0[1], self.0[0]])
        }
        #[inline(always)]
        fn bits_at(self, i: u32) -> u32 {
            unsafe {
                let n = _mm_cvtsi32_si128(31 - i as i32);
                let sign = |a| _mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(a, n))) as u32;
                sign(self.0[0]) | sign(self.0[1]) << 4
            }
        }
    }
}

/// Rows of a band rotated: row `r` gets row `r + 1` (bits above 26 are
/// garbage, removed by the caller's mask).
#[inline(always)]
fn next_row<L: Lanes>(x: L) -> L {
    x.shr::<9>().or(x.shl::<18>())
}

/// `[e(0), e(1), e(2), e(3), e(4)]`: an expression of `j` for each of the
/// board's five vectors, written out (no closure: everything stays inlined
/// into the function compiled for the instruction set).
macro_rules! each {
    ($j:ident => $e:expr) => {
        [
            {
                let $j = 0;
                $e
            },
            {
                let $j = 1;
                $e
            },
            {
                let $j = 2;
                $e
            },
            {
                let $j = 3;
                $e
            },
            {
                let $j = 4;
                $e
            },
        ]
    };
}

/// `L::splat`, short.
#[inline(always)]
fn c<L: Lanes>(x: u32) -> L {
    L::splat(x)
}

/// Per band lane (0-2, 4-6): the cells with one candidate; `None` when some
/// cell has none.  `full` holds all cells in those lanes.
#[inline(always)]
fn solved_cells<L: Lanes>(v: &[L; 5], full: L) -> Option<L> {
    let mut ones = L::splat(0);
    let mut twos = L::splat(0);
    for &x in v {
        twos = twos.or(ones.and(x));
        ones = ones.or(x);
    }
    let (o, t) = (ones.swap_halves(), twos.swap_halves());
    let twos = twos.or(t).or(ones.and(o));
    let ones = ones.or(o);
    if full.and_not(ones).any() {
        None
    } else {
        Some(ones.and_not(twos))
    }
}

/// Lanes that hold a digit of a band (all ones), per vector.
const REAL: [[u32; 8]; 5] = {
    let mut t = [[0; 8]; 5];
    let mut j = 0;
    while j < 5 {
        let mut l = 0;
        while l < 8 {
            if l % 4 < 3 && 2 * j + l / 4 < 9 {
                t[j][l] = !0;
            }
            l += 1;
        }
        j += 1;
    }
    t
};
/// Band lanes (0-2, 4-6) holding all their cells.
const FULL_BANDS: [u32; 8] = [
    BAND_ALL, BAND_ALL, BAND_ALL, 0, BAND_ALL, BAND_ALL, BAND_ALL, 0,
];

/// Search bookkeeping: how many solutions were found and the first one.
struct Search {
    limit: usize,
    count: usize,
    first: Option<[u8; 81]>,
}

impl Search {
    fn new(limit: usize) -> Self {
        Search {
            limit,
            count: 0,
            first: None,
        }
    }
}

/// Outcome of propagation.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Contradiction,
    Solved,
    Open,
}

/// The oracle's board: candidates of the whole grid as per-band digit
/// bitboards (not the engine's [`crate::grid::state::State`]).
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Board {
    /// Digit `d` of band `b` is lane `4 * (d % 2) + b` of vector `d / 2`.
    v: [[u32; 8]; 5],
}

impl Board {
    /// Builds the initial state; `None` when some cell has no candidate.
    fn from_masks(masks: &[u16; 81]) -> Option<Board> {
        let mut board = Board { v: REAL };
        for x in board.v.iter_mut().flatten() {
            *x &= BAND_ALL;
        }
        for (b, band) in masks.chunks_exact(27).enumerate() {
            for (i, &m) in band.iter().enumerate() {
                let m = m & 0x1FF;
                if m == 0x1FF {
                    continue;
                }
                if m == 0 {
                    return None;
                }
                let mut absent = !m & 0x1FF;
                while absent != 0 {
                    let d = absent.trailing_zeros() as usize;
                    absent &= absent - 1;
                    *board.mask_mut(d, b) &= !(1 << i);
                }
            }
        }
        Some(board)
    }

    /// The cells of band `b` where digit `d` is possible.
    #[inline(always)]
    fn mask(&self, d: usize, b: usize) -> u32 {
        self.v[d / 2][4 * (d % 2) + b]
    }

    #[inline(always)]
    fn mask_mut(&mut self, d: usize, b: usize) -> &mut u32 {
        &mut self.v[d / 2][4 * (d % 2) + b]
    }

    /// Digits possible in cell `i` of band `b`, digit `d` as bit `4 * d`.
    #[inline(always)]
    fn cell_digits<L: Lanes>(v: &[L; 5], b: usize, i: u32) -> u64 {
        let mut m = 0u64;
        for (j, x) in v.iter().enumerate() {
            m |= (x.bits_at(i) as u64) << (8 * j);
        }
        (m >> b) & 0x1_1111_1111
    }

    /// Places digit `d` in cell `i` of band `b`: every other digit leaves the
    /// cell (the next sweep does the rest).
    #[inline(always)]
    fn assign(&mut self, d: usize, b: usize, i: u32) {
        for e in 0..9 {
            if e != d {
                *self.mask_mut(e, b) &= !(1 << i);
            }
        }
    }

    /// Sweeps until nothing changes.
    #[inline(always)]
    fn propagate<L: Lanes>(&mut self) -> Status {
        let mut v = [L::splat(0); 5];
        for (v, a) in v.iter_mut().zip(&self.v) {
            *v = L::load(a);
        }
        let full = L::load(&FULL_BANDS);
        let Some(mut solved) = solved_cells(&v, full) else {
            return Status::Contradiction;
        };
        let status = loop {
            // Each step is written for the five vectors in turn (`each!`),
            // so that five independent chains of operations sit side by
            // side for the CPU.
            // 1. Solved cells clear their digit from their peers.
            let p = each!(j => v[j].and(solved));
            let (p1, p2) = (each!(j => p[j].shr::<1>()), each!(j => p[j].shr::<2>()));
            let pm = each!(j => p[j].or(p1[j]).or(p2[j]).and(c(MINI)));
            let rows = each!(j => pm[j].or(pm[j].shr::<3>()).or(pm[j].shr::<6>()).and(c(BOX0)));
            let boxes = each!(j => pm[j].or(pm[j].shr::<9>()).or(pm[j].shr::<18>()).and(c(0x49)));
            let cols = each!(j => p[j].or(p[j].shr::<9>()).or(p[j].shr::<18>()).and(c(ROW)));
            // Two solved cells of a digit in one mini-row, or in one column
            // of two bands, contradict each other.  (Two in one row and two
            // boxes, or in one box and two rows, leave the band filter below
            // no permutation.)
            let clash = each!(j => {
                let twin = p[j].and(p1[j].or(p2[j])).or(p1[j].and(p2[j])).and(c(MINI));
                twin.or(cols[j].and(cols[j].next_band())).and(L::load(&REAL[j]))
            });
            let cols = each!(j => cols[j].or(cols[j].next_band()).or(cols[j].prev_band()));
            let x = each!(j => {
                let peers = rows[j]
                    .mul(c(ROW))
                    .or(boxes[j].mul(c(BOX_CELLS)))
                    .or(cols[j].mul(c(COLUMN_CELLS)));
                v[j].and_not(peers).or(p[j])
            });
            // 2. Band filter.
            let x1 = each!(j => x[j].shr::<1>());
            let x2 = each!(j => x[j].shr::<2>());
            let f = each!(j => x[j].or(x1[j]).or(x2[j]).and(c(MINI)));
            let t = each!(j => x[j].and(x1[j].or(x2[j])).or(x1[j].and(x2[j])).and(c(MINI)));
            let c1 =
                each!(j => f[j].shr::<3>().and(c(BOX0 | BOX1)).or(f[j].shl::<6>().and(c(BOX2))));
            let c2 =
                each!(j => f[j].shr::<6>().and(c(BOX0)).or(f[j].shl::<3>().and(c(BOX1 | BOX2))));
            let a = each!(j => {
                let minor = c1[j].and(next_row(c2[j])).or(c2[j].and(next_row(c1[j])));
                f[j].and(next_row(minor))
            });
            let bad = each!(j => a[j].is_zero().and(L::load(&REAL[j])).or(clash[j]));
            let x = each!(j => x[j].and(a[j].mul(c(7))));
            // 3. Hidden singles in rows ...
            let single_rows = each!(j => {
                let t = t[j].and(a[j]);
                let (a3, a6) = (a[j].shr::<3>(), a[j].shr::<6>());
                let more = t
                    .or(t.shr::<3>())
                    .or(t.shr::<6>())
                    .or(a[j].and(a3.or(a6)))
                    .or(a3.and(a6));
                a[j].or(a3).or(a6).and_not(more).and(c(BOX0))
            });
            // ... and in columns.
            let co = each!(j => x[j].or(x[j].shr::<9>()).or(x[j].shr::<18>()).and(c(ROW)));
            let ct = each!(j => {
                let (y1, y2) = (x[j].shr::<9>(), x[j].shr::<18>());
                x[j].and(y1.or(y2)).or(y1.and(y2)).and(c(ROW))
            });
            let any = each!(j => co[j].or(co[j].next_band()).or(co[j].prev_band()));
            let single_cols = each!(j => {
                let (o1, o2) = (co[j].next_band(), co[j].prev_band());
                let more = ct[j]
                    .or(ct[j].next_band())
                    .or(ct[j].prev_band())
                    .or(co[j].and(o1.or(o2)))
                    .or(o1.and(o2));
                any[j].and_not(more)
            });
            let bad = each!(j => bad[j].or(any[j].xor(c(ROW)).and(L::load(&REAL[j]))));
            let hidden = each!(j => x[j].and(
                single_rows[j].mul(c(ROW)).or(single_cols[j].mul(c(COLUMN_CELLS))),
            ));
            let next = x;
            let bad = bad[0].or(bad[1]).or(bad[2]).or(bad[3]).or(bad[4]);
            // Cells placed by a hidden single, and cells placed by two (a
            // contradiction), per band lane.
            let mut placed = L::splat(0);
            let mut twice = L::splat(0);
            for h in hidden {
                twice = twice.or(placed.and(h));
                placed = placed.or(h);
            }
            let (o, t) = (placed.swap_halves(), twice.swap_halves());
            let bad = bad.or(twice).or(t).or(placed.and(o));
            let placed = placed.or(o);
            // What placing the hidden singles removed.
            let mut removed = L::splat(0);
            for j in 0..5 {
                removed = removed.or(next[j].and(placed.and_not(hidden[j])));
                v[j] = next[j].and_not(placed.and_not(hidden[j]));
            }
            if bad.any() {
                break Status::Contradiction;
            }
            let Some(now) = solved_cells(&v, full) else {
                break Status::Contradiction;
            };
            // Nothing placed and no new solved cell: the next sweep would
            // change nothing (the band filter keeps what it keeps).
            if !removed.or(now.xor(solved)).any() {
                break if full.and_not(now).any() {
                    Status::Open
                } else {
                    Status::Solved
                };
            }
            solved = now;
        };
        for (v, a) in v.iter().zip(&mut self.v) {
            v.store(a);
        }
        status
    }

    /// Chooses the branching cell.  Requires an unsolved cell.
    ///
    /// Among the bivalue cells it takes the one maximising "peers that lose
    /// a candidate in either branch" minus twice "unsolved peers with three or
    /// more candidates": placing either digit then eliminates most, in the
    /// most constrained part of the grid.  Without bivalue cells it takes an
    /// unsolved cell with the fewest candidates.
    #[inline(always)]
    fn pick<L: Lanes>(&self) -> (usize, u32, u64) {
        let mut v = [L::splat(0); 5];
        for (v, a) in v.iter_mut().zip(&self.v) {
            *v = L::load(a);
        }
        let mut ones = L::splat(0);
        let mut twos = L::splat(0);
        let mut threes = L::splat(0);
        for &x in &v {
            threes = threes.or(twos.and(x));
            twos = twos.or(ones.and(x));
            ones = ones.or(x);
        }
        let (o, t, h) = (ones.swap_halves(), twos.swap_halves(), threes.swap_halves());
        let threes = threes.or(h).or(twos.and(o)).or(ones.and(t));
        let twos = twos.or(t).or(ones.and(o));
        let (mut unsolved, mut biv) = ([0u32; 8], [0u32; 8]);
        twos.store(&mut unsolved);
        twos.and_not(threes).store(&mut biv);
        if biv[..3] == [0; 3] {
            return Self::fewest(&v, &unsolved);
        }
        // Unsolved cells holding each digit: digit `d` of band `b` at
        // `4 * d + b`, as in `cell_digits` (64 entries: any index masked
        // with 63 is in bounds).
        let mut du = [0u32; 64];
        for (j, x) in v.iter().enumerate() {
            let mut lanes = [0u32; 8];
            x.and(twos).store(&mut lanes);
            du[8 * j..8 * j + 8].copy_from_slice(&lanes);
        }
        let mut rest = [0u32; 4];
        for b in 0..3 {
            rest[b] = unsolved[b] & !biv[b];
        }
        // Per bivalue cell (index `32 * b + i`): its unsolved peers holding
        // each of its two digits, summed digit by digit.
        let mut hits = [0i32; 96];
        for (b, [o1, o2]) in [[1, 2], [0, 2], [0, 1]].into_iter().enumerate() {
            for d in 0..9 {
                let (sb, s1, s2) = (du[4 * d + b], du[4 * d + o1], du[4 * d + o2]);
                let mut m = sb & biv[b];
                while m != 0 {
                    let i = m.trailing_zeros() as usize & 31;
                    m &= m - 1;
                    let (peers, col) = BAND_PEERS[i];
                    let n = ((sb & peers) as u64 | (((s1 & col) | (s2 & col) << 1) as u64) << 32)
                        .count_ones();
                    hits[32 * b + i] += n as i32;
                }
            }
        }
        let mut best = (0, 0);
        let mut best_score = i32::MIN;
        for (b, [o1, o2]) in [[1, 2], [0, 2], [0, 1]].into_iter().enumerate() {
            let mut m = biv[b];
            while m != 0 {
                let i = m.trailing_zeros() as usize & 31;
                m &= m - 1;
                let (peers, col) = BAND_PEERS[i];
                let (sb, s1, s2) = (rest[b & 3], rest[o1 & 3], rest[o2 & 3]);
                let crowded = ((sb & peers) as u64 | (((s1 & col) | (s2 & col) << 1) as u64) << 32)
                    .count_ones() as i32;
                let score = hits[32 * b + i] - 2 * crowded;
                if score > best_score {
                    best_score = score;
                    best = (b, i as u32);
                }
            }
        }
        (best.0, best.1, Self::cell_digits(&v, best.0, best.1))
    }

    /// An unsolved cell with the fewest candidates (the first in cell
    /// order), and its digits.
    #[inline(always)]
    fn fewest<L: Lanes>(v: &[L; 5], unsolved: &[u32; 8]) -> (usize, u32, u64) {
        let mut best = (0, 0, 0);
        let mut best_count = u32::MAX;
        for (b, &u) in unsolved[..3].iter().enumerate() {
            let mut u = u;
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let digits = Self::cell_digits(v, b, i);
                let n = digits.count_ones();
                if n < best_count {
                    best_count = n;
                    best = (b, i, digits);
                }
            }
        }
        best
    }

    /// The solved grid; requires every cell to be solved.
    fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for b in 0..3 {
            for d in 0..9 {
                let mut x = self.mask(d, b);
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    g[27 * b + i] = d as u8 + 1;
                }
            }
        }
        g
    }
}

/// For each band cell (32 entries: any index masked with 31 is in bounds):
/// its row and box peers inside its band (the cell excluded), and the cells
/// of its column in a band.
static BAND_PEERS: [(u32, u32); 32] = {
    let mut t = [(0, 0); 32];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let peers = ((ROW << (9 * r)) | (BOX_CELLS << (c / 3 * 3))) & !(1 << i);
        t[i] = (peers, COLUMN_CELLS << c);
        i += 1;
    }
    t
};

/// Defines a depth-first search function `$name`, recording solutions in
/// `ctx` until its limit; the body is shared by every instruction-set variant.
macro_rules! search_fn {
    ($(#[$attr:meta])* $entry:ident, $name:ident, $lanes:ty) => {
        $(#[$attr])*
        fn $entry(masks: &[u16; 81], ctx: &mut Search) {
            if let Some(board) = <$lanes>::board(masks) {
                $name(board, ctx);
            }
        }

        $(#[$attr])*
        fn $name(mut state: Board, ctx: &mut Search) {
            loop {
                match state.propagate::<$lanes>() {
                    Status::Contradiction => return,
                    Status::Solved => {
                        if ctx.count == 0 {
                            ctx.first = Some(<$lanes>::grid(&state));
                        }
                        ctx.count += 1;
                        return;
                    }
                    Status::Open => {}
                }
                let (b, i, mut digits) = state.pick::<$lanes>();
                while digits & digits.wrapping_sub(1) != 0 {
                    let d = digits.trailing_zeros() as usize / 4;
                    digits &= digits - 1;
                    let mut child = state;
                    child.assign(d, b, i);
                    $name(child, ctx);
                    if ctx.count >= ctx.limit {
                        return;
                    }
                    *state.mask_mut(d, b) &= !(1 << i);
                }
                state.assign(digits.trailing_zeros() as usize / 4, b, i);
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
search_fn!(count_portable, search_portable, Sse2);
#[cfg(not(target_arch = "x86_64"))]
search_fn!(count_portable, search_portable, Lanes8);
#[cfg(all(test, target_arch = "x86_64"))]
search_fn!(count_arrays, search_arrays, Lanes8);
search_fn!(
    /// The search compiled for CPUs with AVX2, BMI1, BMI2, LZCNT and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    count_avx2,
    search_avx2,
    Avx2
);

#[cfg(test)]
mod tests {
    use super::*;

    /// The well-known example puzzle of the Wikipedia "Sudoku" article.
    const WIKI: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const WIKI_SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    /// A random minimal puzzle (first line of the cbg-000 collection).
    const MINIMAL: &str =
        "...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361";
    /// Very hard puzzles (SE 10.4 to 11.9) from the se-hard collection.
    const HARD: [&str; 4] = [
        "........1.....2.34.35.......62......7.3.25..885...67...7853....32..68...5.62.7.8.",
        "........1.....2.......3..45.16.23...27.81.6..3.87.61...32.67..81.7.8....68.......",
        "........1.12.34....561.7........8.6..2....98..6..9.1.5.912..5.828.....166.5...29.",
        ".......12.....13.4.....256.....14.5...578.....64.95....5613....32....1..4.1.2..35",
    ];

    fn givens(s: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (cell, ch) in g.iter_mut().zip(s.bytes()) {
            if ch.is_ascii_digit() {
                *cell = ch - b'0';
            }
        }
        g
    }

    fn masks(g: &[u8; 81]) -> [u16; 81] {
        g.map(|v| if v == 0 { 0x1FF } else { 1 << (v - 1) })
    }

    /// Every row, column and box holds each digit 1..=9 exactly once.
    fn is_valid_solution(g: &[u8; 81]) -> bool {
        (0..27).all(|h| {
            let mut seen = 0u16;
            for k in 0..9 {
                let cell = match h {
                    0..9 => h * 9 + k,
                    9..18 => k * 9 + (h - 9),
                    _ => {
                        let b = h - 18;
                        (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3
                    }
                };
                if !(1..=9).contains(&g[cell]) {
                    return false;
                }
                seen |= 1 << g[cell];
            }
            seen == 0x3FE
        })
    }

    /// The solution is valid and every cell holds one of its candidates.
    fn assert_solution_of(sol: &[u8; 81], m: &[u16; 81]) {
        assert!(is_valid_solution(sol), "invalid solution {sol:?}");
        for (cell, (&v, &mask)) in sol.iter().zip(m).enumerate() {
            assert!(mask & (1 << (v - 1)) != 0, "cell {cell} = {v} not allowed");
        }
    }

    fn expect_unique(g: &[u8; 81]) -> [u8; 81] {
        match solve_givens(g) {
            Solutions::Unique(sol) => {
                assert_solution_of(&sol, &masks(g));
                sol
            }
            other => panic!("expected a unique solution, got {other:?}"),
        }
    }

    /// Simple reference: naked singles plus backtracking, counting up to `limit`.
    fn reference_count(m: &[u16; 81], limit: usize) -> usize {
        fn peers(i: usize, j: usize) -> bool {
            i != j
                && (i / 9 == j / 9
                    || i % 9 == j % 9
                    || (i / 27 == j / 27 && (i % 9) / 3 == (j % 9) / 3))
        }
        fn rec(mut m: [u16; 81], limit: usize, count: &mut usize) {
            loop {
                let mut changed = false;
                for i in 0..81 {
                    if m[i] == 0 {
                        return;
                    }
                    if m[i].count_ones() == 1 {
                        for j in 0..81 {
                            if peers(i, j) && m[j] & m[i] != 0 {
                                m[j] &= !m[i];
                                changed = true;
                            }
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            if m.contains(&0) {
                return;
            }
            let Some(cell) = (0..81)
                .filter(|&i| m[i].count_ones() > 1)
                .min_by_key(|&i| m[i].count_ones())
            else {
                *count += 1;
                return;
            };
            let mut digits = m[cell];
            while digits != 0 && *count < limit {
                let d = digits & digits.wrapping_neg();
                digits &= digits - 1;
                let mut child = m;
                child[cell] = d;
                rec(child, limit, count);
            }
        }
        let mut count = 0;
        rec(m.map(|x| x & 0x1FF), limit, &mut count);
        count.min(limit)
    }

    #[test]
    fn known_puzzle_has_known_solution() {
        let sol = expect_unique(&givens(WIKI));
        assert_eq!(sol, givens(WIKI_SOLUTION));
        assert_eq!(count_solutions(&masks(&givens(WIKI)), 10), 1);
    }

    #[test]
    fn hard_puzzles_are_unique_and_agree_with_givens() {
        for p in HARD.iter().chain([&MINIMAL]) {
            let g = givens(p);
            let sol = expect_unique(&g);
            for (&given, &v) in g.iter().zip(&sol) {
                assert!(given == 0 || given == v);
            }
        }
    }

    #[test]
    fn empty_grid_has_multiple_solutions() {
        let g = [0u8; 81];
        match solve_givens(&g) {
            Solutions::Multiple { first } => assert_solution_of(&first, &masks(&g)),
            other => panic!("expected multiple solutions, got {other:?}"),
        }
        assert_eq!(count_solutions(&[0x1FF; 81], 1000), 1000);
    }

    #[test]
    fn minimal_puzzle_minus_any_given_has_multiple_solutions() {
        let g = givens(MINIMAL);
        expect_unique(&g);
        for cell in (0..81).filter(|&c| g[c] != 0) {
            let mut h = g;
            h[cell] = 0;
            match solve_givens(&h) {
                Solutions::Multiple { first } => {
                    assert_solution_of(&first, &masks(&h));
                }
                other => panic!("removing cell {cell}: expected multiple, got {other:?}"),
            }
            assert_eq!(count_solutions(&masks(&h), 2), 2);
        }
    }

    #[test]
    fn contradictory_givens_have_no_solution() {
        let mut row = [0u8; 81];
        row[3] = 5;
        row[7] = 5;
        let mut col = [0u8; 81];
        col[4] = 2;
        col[76] = 2;
        let mut bx = [0u8; 81];
        bx[30] = 9;
        bx[50] = 9;
        let mut wiki = givens(WIKI);
        wiki[2] = 7; // 7 is already in that row
        for g in [row, col, bx, wiki] {
            assert_eq!(solve_givens(&g), Solutions::None);
            assert_eq!(count_solutions(&masks(&g), 5), 0);
        }
        // Consistent givens whose completion is impossible: row 0 misses
        // digit 9, and the only free cell of the row sees a 9 in its column.
        let mut g = givens("12345678.");
        g[17] = 9;
        assert_eq!(solve_givens(&g), Solutions::None);
    }

    /// Conflicts the band filter does not see by itself are caught in the
    /// sweep that meets them (were they not, the search would go on in an
    /// almost empty grid).
    #[test]
    fn conflicts_are_found_at_once() {
        let mut minirow = [0u8; 81];
        (minirow[0], minirow[1]) = (4, 4);
        let mut column = [0u8; 81];
        (column[0], column[27]) = (1, 1);
        // Digits 1 and 2 both have only r1c1 left in row 1.
        let mut hidden = [0x1FF_u16; 81];
        for m in &mut hidden[1..9] {
            *m &= !0b11;
        }
        for m in [masks(&minirow), masks(&column), hidden] {
            for (name, ctx) in runs(&m, 2) {
                assert_eq!(ctx.count, 0, "{name}");
            }
        }
    }

    #[test]
    fn pencil_marks_with_an_empty_cell_have_no_solution() {
        let mut m = masks(&givens(WIKI));
        m[2] = 0;
        assert_eq!(solve_candidates(&m), Solutions::None);
        let mut m = [0x1FF; 81];
        m[40] = 0;
        assert_eq!(solve_candidates(&m), Solutions::None);
        assert_eq!(count_solutions(&m, 3), 0);
        assert_eq!(solve_candidates(&[0; 81]), Solutions::None);
    }

    #[test]
    fn pencil_marks_restrict_the_solution() {
        let g = givens(MINIMAL);
        let sol = expect_unique(&g);
        // Forbid the solution's digit in one empty cell: no solution left.
        let cell = (0..81).find(|&c| g[c] == 0).expect("an empty cell");
        let mut m = masks(&g);
        m[cell] &= !(1 << (sol[cell] - 1));
        assert_eq!(solve_candidates(&m), Solutions::None);
        // Pencil marks equal to the solution digits plus one other candidate
        // per cell keep the solution.
        let mut m = sol.map(|v| 1u16 << (v - 1));
        for (c, x) in m.iter_mut().enumerate() {
            *x |= 1 << ((sol[c] as usize + c) % 9);
        }
        match solve_candidates(&m) {
            Solutions::Unique(s) | Solutions::Multiple { first: s } => assert_solution_of(&s, &m),
            Solutions::None => panic!("the solution itself fits the marks"),
        }
    }

    #[test]
    fn high_bits_and_out_of_range_givens_are_ignored() {
        let g = givens(WIKI);
        let m = masks(&g).map(|x| x | 0xFE00);
        assert_eq!(
            solve_candidates(&m),
            Solutions::Unique(givens(WIKI_SOLUTION))
        );
        let mut h = g;
        for (k, v) in h.iter_mut().filter(|v| **v == 0).take(5).enumerate() {
            *v = 10 + 50 * k as u8;
        }
        assert_eq!(solve_givens(&h), Solutions::Unique(givens(WIKI_SOLUTION)));
    }

    #[test]
    fn count_respects_the_limit() {
        let m = masks(&givens(MINIMAL));
        assert_eq!(count_solutions(&m, 0), 0);
        assert_eq!(count_solutions(&m, 1), 1);
        assert_eq!(count_solutions(&m, 7), 1);
        let open = [0x1FF; 81];
        for limit in 0..6 {
            assert_eq!(count_solutions(&open, limit), limit);
        }
    }

    #[test]
    fn agrees_with_reference_on_perturbed_puzzles() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let base = masks(&givens(MINIMAL));
        for round in 0..60 {
            let mut m = base;
            match round % 3 {
                // Drop a few givens: usually several solutions.
                0 => {
                    for _ in 0..1 + round % 4 {
                        let cell = (next() % 81) as usize;
                        m[cell] = 0x1FF;
                    }
                }
                // Remove random candidates: often none.
                1 => {
                    for _ in 0..25 {
                        let cell = (next() % 81) as usize;
                        m[cell] &= !(1 << (next() % 9));
                    }
                }
                // Add a random given.
                _ => {
                    let cell = (next() % 81) as usize;
                    m[cell] = 1 << (next() % 9);
                }
            }
            let expected = reference_count(&m, 3);
            assert_eq!(count_solutions(&m, 3), expected, "round {round}");
            match (solve_candidates(&m), expected) {
                (Solutions::None, 0) => {}
                (Solutions::Unique(s), 1) | (Solutions::Multiple { first: s }, 2..) => {
                    assert_solution_of(&s, &m);
                }
                (got, _) => panic!("round {round}: {got:?} but {expected} solutions"),
            }
        }
    }

    /// The copies of the search this CPU can run: the portable one, and the
    /// AVX2 one where the CPU has its features (whatever `RULEDOKU_ORACLE`
    /// says: both are tested).
    fn isas() -> Vec<Isa> {
        #[cfg(target_arch = "x86_64")]
        if Isa::avx2_available() {
            return vec![Isa::Portable, Isa::Avx2];
        }
        eprintln!("note: only the portable oracle runs on this CPU");
        vec![Isa::Portable]
    }

    /// Counts up to `limit` with every copy of the search this CPU can run
    /// (on x86-64 also the plain-array one other targets use), named.
    fn runs(m: &[u16; 81], limit: usize) -> Vec<(String, Search)> {
        let mut all: Vec<(String, Search)> = isas()
            .into_iter()
            .map(|isa| (format!("{isa:?}"), run(isa, m, limit)))
            .collect();
        #[cfg(target_arch = "x86_64")]
        {
            let mut ctx = Search::new(limit);
            count_arrays(m, &mut ctx);
            all.push(("arrays".to_string(), ctx));
        }
        all
    }

    /// Pencil marks of the first 81 characters of a line.
    fn line_masks(line: &str) -> [u16; 81] {
        let mut g = [0u8; 81];
        for (cell, ch) in g.iter_mut().zip(line.bytes()) {
            if (b'1'..=b'9').contains(&ch) {
                *cell = ch - b'0';
            }
        }
        masks(&g)
    }

    #[test]
    fn every_instruction_set_agrees_with_the_reference() {
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let bases: Vec<[u16; 81]> = HARD
            .iter()
            .chain([&MINIMAL, &WIKI])
            .map(|p| line_masks(p))
            .collect();
        for (k, base) in bases.iter().enumerate() {
            for round in 0..12 {
                let mut m = *base;
                for _ in 0..round % 4 {
                    m[(next() % 81) as usize] = 0x1FF;
                }
                for _ in 0..(round / 4) * 6 {
                    m[(next() % 81) as usize] &= !(1 << (next() % 9));
                }
                let expected = reference_count(&m, 3);
                for (name, ctx) in runs(&m, 3) {
                    assert_eq!(ctx.count, expected, "{name}, puzzle {k}, round {round}");
                    match ctx.first {
                        Some(s) => assert_solution_of(&s, &m),
                        None => assert_eq!(expected, 0),
                    }
                }
            }
        }
    }

    /// The portable copy, the AVX2 copy and the plain-array copy find the
    /// same counts and the same first solutions: on 1000 puzzles of cbg-000, on the same with givens
    /// removed (several solutions) and with candidates removed (often none),
    /// and on the hard puzzles.
    #[test]
    fn instruction_sets_agree_on_samples() {
        let mut seed = 0x0BAD_5EED_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut kinds = [0usize; 3];
        let lines = crate::test_data::CBG_FIRST1000
            .lines()
            .chain(HARD)
            .filter(|l| l.len() >= 81);
        for line in lines {
            let base = line_masks(line);
            let mut fewer = base;
            for _ in 0..1 + next() % 4 {
                fewer[(next() % 81) as usize] = 0x1FF;
            }
            let mut marks = base;
            for _ in 0..20 {
                marks[(next() % 81) as usize] &= !(1 << (next() % 9));
            }
            for m in [base, fewer, marks] {
                let runs = runs(&m, 2);
                let (first, r0) = &runs[0];
                for (name, r) in &runs {
                    assert_eq!(
                        (r.count, r.first),
                        (r0.count, r0.first),
                        "{name} differs from {first} on {line}"
                    );
                }
                if let Some(s) = r0.first {
                    assert_solution_of(&s, &m);
                }
                kinds[r0.count] += 1;
            }
        }
        // The sample has every outcome, many times.
        assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");
    }
}
