//! Exact brute-force Sudoku solver, used as the oracle (referee) for the
//! rule-based solver.
//!
//! It answers "how many solutions, up to a limit" for a grid of givens or for
//! pencil marks (a sukaku: any set of candidates per cell), and returns a
//! solution.  It is a depth-first search over a bitboard state with strong,
//! cheap propagation between guesses.
//!
//! # Representation
//!
//! The grid is split into three horizontal *bands* of 27 cells (three rows of
//! nine).  For every band and every digit the state keeps a 27-bit mask
//! (`u32`) of the cells of the band where the digit is still possible; bit
//! `r * 9 + c` stands for row `r` of the band and column `c`.  The nine digit
//! masks of a band are stored side by side (with padding up to 16 entries, so
//! that SIMD code can clear one cell from all nine masks at once), and a
//! further mask per band records the cells not yet solved.  A placed digit
//! stays in its own digit mask as a single bit whose row, box and column peers
//! have been cleared, so "every house contains every digit at least once"
//! remains a valid consistency test during the whole search.  The state is a
//! couple of hundred bytes, cheap to copy for every branch of the search.
//!
//! # Propagation
//!
//! Propagation repeats three steps until nothing changes:
//!
//! 1. **Naked singles.**  Per band, a bit-sliced count over the nine digit
//!    masks yields the unsolved cells with no candidate left (contradiction)
//!    and those with exactly one (placed).
//! 2. **Band filter and row hidden singles.**  Inside one band a digit
//!    occupies exactly one cell per row and one per box, and the three (row,
//!    box) pairs it uses form a permutation of the 3×3 grid of *mini-rows*
//!    (the three cells a row shares with a box).  For each digit mask that
//!    changed since it was last looked at, the nine "mini-row is not empty"
//!    flags index a 512-entry table holding the union of all permutations that
//!    fit inside them, expanded back to cells.  Masking with it performs the
//!    box/line interactions (pointing and claiming) inside the band and detects
//!    a row or box left without the digit (the table entry is zero).  A row
//!    with a single remaining cell is a hidden single and is placed; a box with
//!    a single cell is reduced to such a row by the filter, so box hidden
//!    singles come for free.
//! 3. **Column hidden singles.**  For each digit whose masks changed, a
//!    bit-sliced count over its nine rows finds columns without the digit
//!    (contradiction) and columns with a single unsolved cell (placed).
//!
//! Placing a digit clears the cell from the other digit masks, and the digit
//! from the row, box and column peers; the masks that changed are marked for
//! step 2.  Every placement first checks that the digit is still possible in
//! the cell, so two singles that conflict end in a contradiction instead of an
//! inconsistent grid.
//!
//! # Search
//!
//! When propagation stalls, the solver branches on a bivalue cell if there is
//! one (otherwise on a cell with the fewest candidates).  Among the bivalue
//! cells it picks the one maximising the number of peers that lose a candidate
//! in one of the two branches, minus twice the number of unsolved peers with
//! three or more candidates; on hard puzzles this explores several times fewer
//! nodes than taking the first bivalue cell.  Every candidate but the last is
//! tried on a copy of the state, depth first, and then eliminated from the
//! current state; the last one is placed in the current state.  The search
//! stops as soon as the requested number of solutions has been found.
//!
//! On x86-64 the search is compiled twice, and the copy using POPCNT, BMI1 and
//! BMI2 runs when the CPU has them (checked at run time); SSE2 (always present
//! on x86-64) clears a cell from the nine digit masks of a band at once.  Other
//! targets use portable code throughout.

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
    let mut ctx = Search::new(2);
    if let Some(state) = Board::from_masks(masks) {
        state.search(&mut ctx);
    }
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
    let mut ctx = Search::new(limit);
    if let Some(state) = Board::from_masks(masks) {
        state.search(&mut ctx);
    }
    ctx.count
}

/// All 27 cells of a band.
const BAND_ALL: u32 = (1 << 27) - 1;
/// The nine cells of one row inside a band.
const ROW: u32 = 0x1FF;
/// Stride between the digit masks of consecutive bands in [`Board::cand`].
const STRIDE: usize = 16;

/// `ROW_INFO[r][v]` for the 9-cell value `v` of row `r` of a band: bit
/// `3 * r + k` set when mini-row `k` of the row is not empty, bit `9 + r` set
/// when the row holds exactly one cell.
static ROW_INFO: [[u16; 512]; 3] = build_row_info();
/// For the 9 "mini-row not empty" flags of a band (bit `3 * row + box`): the
/// cells of every mini-row used by some permutation (one mini-row per row and
/// per box) fitting inside the flags; zero when none fits.
static BAND_FILTER: [u32; 512] = build_band_filter();
/// For a set of rows (bit `r`) of a band: their cells.
static ROWS: [u32; 8] = [
    0,
    ROW,
    ROW << 9,
    ROW | ROW << 9,
    ROW << 18,
    ROW | ROW << 18,
    ROW << 9 | ROW << 18,
    BAND_ALL,
];
/// Row and box peers of each band cell inside its band (the cell excluded).
static BAND_PEERS: [u32; 27] = build_band_peers();
/// The three cells of each column inside a band.
static COLUMN: [u32; 9] = build_columns();
/// The two other bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

const fn build_row_info() -> [[u16; 512]; 3] {
    let mut t = [[0u16; 512]; 3];
    let mut v = 0;
    while v < 512 {
        let mut m = 0u16;
        let mut k = 0;
        while k < 3 {
            if (v >> (3 * k)) & 7 != 0 {
                m |= 1 << k;
            }
            k += 1;
        }
        let single = ((v as u32).count_ones() == 1) as u16;
        let mut r = 0;
        while r < 3 {
            t[r][v] = m << (3 * r) | single << (9 + r);
            r += 1;
        }
        v += 1;
    }
    t
}

const fn build_band_filter() -> [u32; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut flags = 0usize;
    while flags < 512 {
        let mut allowed = 0usize;
        let mut p = 0;
        while p < 6 {
            let pm = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if flags & pm == pm {
                allowed |= pm;
            }
            p += 1;
        }
        let mut cells = 0u32;
        let mut k = 0;
        while k < 9 {
            if allowed & (1 << k) != 0 {
                cells |= 7 << ((k / 3) * 9 + (k % 3) * 3);
            }
            k += 1;
        }
        t[flags] = cells;
        flags += 1;
    }
    t
}

const fn build_band_peers() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let r = i / 9;
        let c = i % 9;
        let mut m = ROW << (9 * r);
        let mut rr = 0;
        while rr < 3 {
            m |= 7 << (rr * 9 + (c / 3) * 3);
            rr += 1;
        }
        t[i] = m & !(1 << i);
        i += 1;
    }
    t
}

const fn build_columns() -> [u32; 9] {
    let mut t = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
        c += 1;
    }
    t
}

/// Digit masks of one band: digits 0..9, then zero padding.
type Band = [u32; STRIDE];

/// The digits (bit `d`) of `band` whose mask contains `bit`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn digits_at(band: &Band, bit: u32) -> u32 {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128};
    let p = band.as_ptr().cast::<__m128i>();
    // SAFETY: SSE2 is part of the x86_64 baseline, and `band` holds sixteen
    // `u32`, so the unaligned 16-byte loads at elements 0, 4 and 8 stay
    // inside it.
    unsafe {
        let v = [
            _mm_loadu_si128(p),
            _mm_loadu_si128(p.add(1)),
            _mm_loadu_si128(p.add(2)),
        ];
        lanes_with_bit(&v, bit)
    }
}

/// Removes `bit` from every digit mask of `band`; returns the digits (bit
/// `d`) whose mask contained it.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn clear_cell(band: &mut Band, bit: u32) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_loadu_si128, _mm_set1_epi32, _mm_storeu_si128,
    };
    let p = band.as_mut_ptr().cast::<__m128i>();
    // SAFETY: as in `digits_at`; the stores cover the same elements.
    unsafe {
        let v = [
            _mm_loadu_si128(p),
            _mm_loadu_si128(p.add(1)),
            _mm_loadu_si128(p.add(2)),
        ];
        let bits = _mm_set1_epi32(bit as i32);
        for (j, &x) in v.iter().enumerate() {
            _mm_storeu_si128(p.add(j), _mm_andnot_si128(bits, x));
        }
        lanes_with_bit(&v, bit)
    }
}

/// The lanes (bit `4 * j + lane`) of the vectors `v` that contain `bit`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lanes_with_bit(v: &[std::arch::x86_64::__m128i; 3], bit: u32) -> u32 {
    use std::arch::x86_64::{
        _mm_and_si128, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_movemask_ps, _mm_set1_epi32,
    };
    // SAFETY: only SSE2 register operations, part of the x86_64 baseline.
    unsafe {
        let bits = _mm_set1_epi32(bit as i32);
        let mut m = 0;
        for (j, &x) in v.iter().enumerate() {
            let has = _mm_cmpeq_epi32(_mm_and_si128(x, bits), bits);
            m |= (_mm_movemask_ps(_mm_castsi128_ps(has)) as u32) << (4 * j);
        }
        m
    }
}

/// The digits (bit `d`) of `band` whose mask contains `bit`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn digits_at(band: &Band, bit: u32) -> u32 {
    let mut m = 0u32;
    for (d, &c) in band.iter().take(9).enumerate() {
        m |= ((c & bit != 0) as u32) << d;
    }
    m
}

/// Removes `bit` from every digit mask of `band`; returns the digits (bit
/// `d`) whose mask contained it.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn clear_cell(band: &mut Band, bit: u32) -> u32 {
    let m = digits_at(band, bit);
    for c in band.iter_mut().take(9) {
        *c &= !bit;
    }
    m
}

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

/// The oracle's board: candidates of the whole grid as per-band digit
/// bitboards (not the engine's [`crate::grid::state::State`]).
#[derive(Clone, Copy)]
struct Board {
    /// `cand[16 * b + d]`: cells of band `b` where digit `d` is possible
    /// (entries `16 * b + 9 .. 16 * b + 16` stay zero).
    cand: [u32; 3 * STRIDE],
    /// Unsolved cells of each band.
    unsolved: [u32; 3],
    /// Digit masks changed since their band filter ran: bit `16 * b + d`.
    dirty: u64,
    /// Digits (bit `d`) changed since their columns were checked.
    col_dirty: u32,
}

/// Dirty bits of all digit masks.
const ALL_DIRTY: u64 = 0x1FF | 0x1FF << STRIDE | 0x1FF << (2 * STRIDE);

impl Board {
    /// Builds the initial state; `None` when some cell has no candidate.
    fn from_masks(masks: &[u16; 81]) -> Option<Board> {
        let mut cand = [0u32; 3 * STRIDE];
        for b in 0..3 {
            cand[STRIDE * b..STRIDE * b + 9].fill(BAND_ALL);
        }
        for (cell, &m) in masks.iter().enumerate() {
            let m = (m & 0x1FF) as u32;
            if m == 0x1FF {
                continue;
            }
            if m == 0 {
                return None;
            }
            let base = STRIDE * (cell / 27);
            let bit = 1u32 << (cell % 27);
            let mut absent = !m & 0x1FF;
            while absent != 0 {
                let d = absent.trailing_zeros() as usize;
                absent &= absent - 1;
                cand[base + d] &= !bit;
            }
        }
        Some(Board {
            cand,
            unsolved: [BAND_ALL; 3],
            dirty: ALL_DIRTY,
            col_dirty: 0x1FF,
        })
    }

    /// The digit masks of band `b`.
    #[inline(always)]
    fn band(&self, b: usize) -> &Band {
        let chunk = &self.cand[STRIDE * b..STRIDE * (b + 1)];
        chunk.try_into().expect("a band spans STRIDE entries")
    }

    /// The digit masks of band `b`, mutable.
    #[inline(always)]
    fn band_mut(&mut self, b: usize) -> &mut Band {
        let chunk = &mut self.cand[STRIDE * b..STRIDE * (b + 1)];
        chunk.try_into().expect("a band spans STRIDE entries")
    }

    /// Digits (bit `d`) possible in cell `i` of band `b`.
    #[inline(always)]
    fn cell_digits(&self, b: usize, i: u32) -> u32 {
        digits_at(self.band(b), 1 << i)
    }

    /// Places digit `d` in cell `i` of band `b`.  The digit must be a
    /// candidate of that unsolved cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: u32) {
        let bit = 1u32 << i;
        let touched = clear_cell(self.band_mut(b), bit);
        let k = STRIDE * b + d;
        self.cand[k] = (self.cand[k] & !BAND_PEERS[i as usize]) | bit;
        self.dirty |= ((touched | 1 << d) as u64) << (STRIDE * b);
        let col = COLUMN[(i % 9) as usize];
        for ob in OTHER_BANDS[b] {
            let k = STRIDE * ob + d;
            let v = self.cand[k];
            if v & col != 0 {
                self.cand[k] = v & !col;
                self.dirty |= 1 << k;
            }
        }
        self.unsolved[b] &= !bit;
    }

    /// Places `d` in cell `i` of band `b` if that is still consistent;
    /// `false` on contradiction.  Does nothing if the cell already holds `d`.
    #[inline(always)]
    fn place_checked(&mut self, d: usize, b: usize, i: u32) -> bool {
        let bit = 1u32 << i;
        if self.cand[STRIDE * b + d] & bit == 0 {
            return false;
        }
        if self.unsolved[b] & bit != 0 {
            self.place(d, b, i);
        }
        true
    }

    /// Applies singles and band interactions until a fixpoint; `false` on
    /// contradiction.
    #[inline(always)]
    fn propagate(&mut self) -> bool {
        loop {
            let mut progress = false;
            // 2. Naked singles.
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let mut ones = 0u32;
                let mut twos = 0u32;
                for &c in &self.cand[STRIDE * b..STRIDE * b + 9] {
                    twos |= ones & c;
                    ones |= c;
                }
                if u & !ones != 0 {
                    return false;
                }
                let mut s = u & !twos;
                while s != 0 {
                    let i = s.trailing_zeros();
                    s &= s - 1;
                    let digits = self.cell_digits(b, i);
                    if digits == 0 {
                        return false;
                    }
                    self.place(digits.trailing_zeros() as usize, b, i);
                    progress = true;
                }
            }
            // 1. Band filter and row hidden singles on changed digit masks.
            let mut seen = 0u64;
            while self.dirty != 0 {
                let k = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                seen |= 1 << k;
                let x = self.cand[k];
                let info = ROW_INFO[0][(x & ROW) as usize]
                    | ROW_INFO[1][((x >> 9) & ROW) as usize]
                    | ROW_INFO[2][((x >> 18) & ROW) as usize];
                let nx = x & BAND_FILTER[(info & 0x1FF) as usize];
                if nx == 0 {
                    return false;
                }
                let single_rows = if nx == x {
                    info >> 9
                } else {
                    self.cand[k] = nx;
                    (ROW_INFO[0][(nx & ROW) as usize]
                        | ROW_INFO[1][((nx >> 9) & ROW) as usize]
                        | ROW_INFO[2][((nx >> 18) & ROW) as usize])
                        >> 9
                };
                let b = k / STRIDE;
                let mut s = nx & ROWS[(single_rows & 7) as usize] & self.unsolved[b];
                while s != 0 {
                    let i = s.trailing_zeros();
                    s &= s - 1;
                    if !self.place_checked(k % STRIDE, b, i) {
                        return false;
                    }
                }
            }
            self.col_dirty |= ((seen | seen >> STRIDE | seen >> (2 * STRIDE)) & 0x1FF) as u32;

            if progress {
                continue;
            }

            // 3. Column hidden singles for digits that changed.
            let mut cd = self.col_dirty;
            self.col_dirty = 0;
            while cd != 0 {
                let d = cd.trailing_zeros() as usize;
                cd &= cd - 1;
                let mut ones = 0u32;
                let mut twos = 0u32;
                let mut placed = 0u32;
                for b in 0..3 {
                    let x = self.cand[STRIDE * b + d];
                    for r in 0..3 {
                        let v = (x >> (9 * r)) & ROW;
                        twos |= ones & v;
                        ones |= v;
                    }
                    placed |= x & !self.unsolved[b];
                }
                if ones != ROW {
                    return false;
                }
                placed = (placed | placed >> 9 | placed >> 18) & ROW;
                let mut s = ROW & !twos & !placed;
                while s != 0 {
                    let c = s.trailing_zeros() as usize;
                    s &= s - 1;
                    for b in 0..3 {
                        let v = self.cand[STRIDE * b + d] & COLUMN[c];
                        if v != 0 {
                            if self.unsolved[b] & v != 0 {
                                if !self.place_checked(d, b, v.trailing_zeros()) {
                                    return false;
                                }
                                progress = true;
                            }
                            break;
                        }
                    }
                }
            }
            if !progress && self.dirty == 0 {
                return true;
            }
        }
    }

    /// Chooses the branching cell.  Requires an unsolved cell.
    ///
    /// Among the bivalue cells it takes the one maximising "peers that lose
    /// a candidate in either branch" minus twice "unsolved peers with three or
    /// more candidates": placing either digit then eliminates most, in the
    /// most constrained part of the grid.  Without bivalue cells it takes an
    /// unsolved cell with the fewest candidates.
    #[inline(always)]
    fn pick(&self) -> (usize, u32) {
        let mut biv = [0u32; 3];
        for (b, bv) in biv.iter_mut().enumerate() {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let mut ones = 0u32;
            let mut twos = 0u32;
            let mut threes = 0u32;
            for &c in &self.cand[STRIDE * b..STRIDE * b + 9] {
                threes |= twos & c;
                twos |= ones & c;
                ones |= c;
            }
            *bv = u & twos & !threes;
        }
        if biv != [0; 3] {
            let rest = [
                self.unsolved[0] & !biv[0],
                self.unsolved[1] & !biv[1],
                self.unsolved[2] & !biv[2],
            ];
            let mut best = (0, 0);
            let mut best_score = i32::MIN;
            for b in 0..3 {
                let [o1, o2] = OTHER_BANDS[b];
                let mut m = biv[b];
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let peers = BAND_PEERS[i as usize];
                    let col = COLUMN[(i % 9) as usize];
                    let peer_count = |sb: u32, s1: u32, s2: u32| {
                        ((sb & peers) as u64 | (((s1 & col) | (s2 & col) << 1) as u64) << 32)
                            .count_ones() as i32
                    };
                    let digits = self.cell_digits(b, i);
                    let hits = |d: usize| {
                        peer_count(
                            self.cand[STRIDE * b + d] & self.unsolved[b],
                            self.cand[STRIDE * o1 + d] & self.unsolved[o1],
                            self.cand[STRIDE * o2 + d] & self.unsolved[o2],
                        )
                    };
                    let score = hits(digits.trailing_zeros() as usize)
                        + hits((31 - digits.leading_zeros()) as usize)
                        - 2 * peer_count(rest[b], rest[o1], rest[o2]);
                    if score > best_score {
                        best_score = score;
                        best = (b, i);
                    }
                }
            }
            return best;
        }
        let mut best = (0, 0);
        let mut best_count = u32::MAX;
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let i = u.trailing_zeros();
                u &= u - 1;
                let n = self.cell_digits(b, i).count_ones();
                if n < best_count {
                    best_count = n;
                    best = (b, i);
                }
            }
        }
        best
    }

    /// The solved grid; requires every cell to be placed.
    fn grid(&self) -> [u8; 81] {
        let mut g = [0u8; 81];
        for b in 0..3 {
            for d in 0..9 {
                let mut x = self.cand[STRIDE * b + d];
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    g[27 * b + i] = d as u8 + 1;
                }
            }
        }
        g
    }

    /// Solves from this state, recording solutions in `ctx`.
    fn search(self, ctx: &mut Search) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
        {
            // SAFETY: the CPU supports the features `search_bmi` is compiled for.
            unsafe { search_bmi(self, ctx) };
            return;
        }
        search_portable(self, ctx);
    }
}

/// Defines a depth-first search function `$name`, recording solutions in
/// `ctx` until its limit; the body is shared by every instruction-set variant.
macro_rules! search_fn {
    ($(#[$attr:meta])* $name:ident) => {
        $(#[$attr])*
        fn $name(mut state: Board, ctx: &mut Search) {
            loop {
                if !state.propagate() {
                    return;
                }
                if state.unsolved == [0; 3] {
                    if ctx.count == 0 {
                        ctx.first = Some(state.grid());
                    }
                    ctx.count += 1;
                    return;
                }
                let (b, i) = state.pick();
                let mut digits = state.cell_digits(b, i);
                while digits & digits.wrapping_sub(1) != 0 {
                    let d = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    let mut child = state;
                    child.place(d, b, i);
                    $name(child, ctx);
                    if ctx.count >= ctx.limit {
                        return;
                    }
                    state.cand[STRIDE * b + d] &= !(1 << i);
                    state.dirty |= 1 << (STRIDE * b + d);
                }
                if digits == 0 {
                    return;
                }
                state.place(digits.trailing_zeros() as usize, b, i);
            }
        }
    };
}

search_fn!(search_portable);
search_fn!(
    /// The search compiled for CPUs with POPCNT, BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    search_bmi
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

    #[test]
    fn portable_search_matches_dispatched_search() {
        let mut puzzles: Vec<[u8; 81]> = HARD.iter().map(|p| givens(p)).collect();
        puzzles.push(givens(MINIMAL));
        let mut open = givens(MINIMAL);
        open[3] = 0;
        puzzles.push(open);
        for g in &puzzles {
            let state = Board::from_masks(&masks(g)).expect("no empty cell");
            let mut portable = Search::new(2);
            search_portable(state, &mut portable);
            let mut dispatched = Search::new(2);
            state.search(&mut dispatched);
            assert_eq!(portable.count, dispatched.count);
            let first = portable.first.expect("a solution");
            assert_solution_of(&first, &masks(g));
        }
    }
}
