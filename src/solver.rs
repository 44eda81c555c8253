//! Exact brute-force Sudoku solver, used as the oracle (referee) for the
//! rule-based solver.
//!
//! # Representation
//!
//! The grid is split into three horizontal *bands* of 27 cells (three rows of
//! nine).  For every digit and every band the state keeps a 27-bit mask
//! (`u32`) of the cells where that digit is still possible; bit `r * 9 + c`
//! stands for row `r` of the band and column `c`.  A fourth family of masks
//! records which cells of each band are still unsolved.  A placed digit stays
//! in its own digit mask as a single bit whose row, box and column peers have
//! been cleared, so "every house contains the digit at least once" remains a
//! valid consistency test for the whole search.  The complete state is 31
//! words, cheap enough to copy for every branch of the search.
//!
//! # Propagation
//!
//! Propagation repeats three steps until nothing changes:
//!
//! 1. **Band filter.**  Inside one band a digit occupies exactly one cell per
//!    row and one per box, and the three (row, box) pairs it uses form a
//!    permutation of the 3×3 grid of *mini-rows* (the three cells a row shares
//!    with a box).  For each digit mask that changed, the nine "mini-row is not
//!    empty" flags index a 512-entry table holding the union of all
//!    permutations that fit inside them, expanded back to cells.  Masking with
//!    it performs pointing and claiming (box/line interactions) within the band
//!    and detects a row or box left without the digit (the table entry is
//!    zero).  A row with a single remaining cell is a hidden single and is
//!    placed; a box with a single cell is reduced to such a row by the filter,
//!    so box hidden singles come for free.
//! 2. **Naked singles.**  Per band, a bit-sliced count over the nine digit
//!    masks yields the unsolved cells with no candidate (contradiction) and
//!    those with exactly one (placed).
//! 3. **Column hidden singles.**  For each digit whose masks changed, a
//!    bit-sliced count over its nine rows finds columns without the digit
//!    (contradiction) and columns with a single cell (placed).
//!
//! Every placement checks that the digit is still possible in the cell, so two
//! singles that conflict with each other end in a contradiction instead of an
//! inconsistent grid.
//!
//! # Search
//!
//! When propagation stalls the solver branches on an unsolved cell with the
//! fewest candidates (a bivalue cell whenever one exists): every candidate but
//! the last is tried on a copy of the state, depth first, after which it is
//! eliminated from the current state; the last candidate is placed in place.
//! The search stops as soon as the requested number of solutions is found.

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
    if let Some(state) = State::from_masks(masks) {
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
    if let Some(state) = State::from_masks(masks) {
        state.search(&mut ctx);
    }
    ctx.count
}

/// All 27 cells of a band.
const BAND_ALL: u32 = (1 << 27) - 1;
/// The nine cells of one row inside a band.
const ROW: u32 = 0x1FF;

/// For a 9-cell row: bit `k` set when mini-row `k` (cells `3k..3k+3`) is not empty.
static ROW_MINIROWS: [u8; 512] = build_row_minirows();
/// For the 9 "mini-row not empty" flags of a band (bit `3 * row + box`): the
/// cells of every mini-row used by some permutation fitting inside the flags;
/// zero when no permutation fits.
static BAND_FILTER: [u32; 512] = build_band_filter();
/// For 9 flags on a 3×3 grid (bit `3 * i + j`): the union of the permutation
/// matrices fitting inside them (same bit layout); zero when none fits.
static PERM_ALLOWED: [u16; 512] = build_perm_allowed();
/// Row and box peers of each band cell inside its band (the cell excluded).
static BAND_PEERS: [u32; 27] = build_band_peers();
/// The three cells of each column inside a band.
static COLUMN: [u32; 9] = build_columns();
/// The two other bands of each band.
const OTHER_BANDS: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

const fn build_row_minirows() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut m = 0u8;
        let mut k = 0;
        while k < 3 {
            if (v >> (3 * k)) & 7 != 0 {
                m |= 1 << k;
            }
            k += 1;
        }
        t[v] = m;
        v += 1;
    }
    t
}

const fn build_perm_allowed() -> [u16; 512] {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u16; 512];
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
        t[flags] = allowed as u16;
        flags += 1;
    }
    t
}

const fn build_band_filter() -> [u32; 512] {
    let allowed = build_perm_allowed();
    let mut t = [0u32; 512];
    let mut flags = 0usize;
    while flags < 512 {
        let mut cells = 0u32;
        let mut k = 0;
        while k < 9 {
            if allowed[flags] & (1 << k) != 0 {
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

/// Cells of `x` (a band mask of one digit) that are alone in their row.
#[inline(always)]
fn row_singles(x: u32) -> u32 {
    let mut s = 0;
    let mut r = 0;
    while r < 3 {
        let v = x & (ROW << (9 * r));
        if v & v.wrapping_sub(1) == 0 {
            s |= v;
        }
        r += 1;
    }
    s
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

/// Candidate state of the whole grid.
#[derive(Clone, Copy)]
struct State {
    /// Cells where digit `d` is possible in band `b`, at index `3 * d + b`.
    cand: [u32; 27],
    /// Unsolved cells of each band.
    unsolved: [u32; 3],
    /// Digit masks (bit `3 * d + b`) changed since their band filter ran.
    dirty: u32,
    /// Digits (bit `d`) changed since their columns were checked.
    col_dirty: u32,
}

impl State {
    /// Builds the initial state; `None` when some cell has no candidate.
    fn from_masks(masks: &[u16; 81]) -> Option<State> {
        let mut cand = [0u32; 27];
        for (cell, &m) in masks.iter().enumerate() {
            let m = m & 0x1FF;
            if m == 0 {
                return None;
            }
            let b = cell / 27;
            let bit = 1u32 << (cell % 27);
            for d in 0..9 {
                if m & (1 << d) != 0 {
                    cand[3 * d + b] |= bit;
                }
            }
        }
        Some(State {
            cand,
            unsolved: [BAND_ALL; 3],
            dirty: (1 << 27) - 1,
            col_dirty: 0x1FF,
        })
    }

    /// Places digit `d` in cell `i` of band `b`.  The digit must be a
    /// candidate of that unsolved cell.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: u32) {
        let bit = 1u32 << i;
        for e in 0..9 {
            let k = 3 * e + b;
            let had = self.cand[k] & bit;
            self.cand[k] ^= had;
            self.dirty |= (had >> i) << k;
        }
        let k = 3 * d + b;
        self.cand[k] = (self.cand[k] & !BAND_PEERS[i as usize]) | bit;
        self.dirty |= 1 << k;
        let col = COLUMN[(i % 9) as usize];
        for ob in OTHER_BANDS[b] {
            let k = 3 * d + ob;
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
        if self.cand[3 * d + b] & bit == 0 {
            return false;
        }
        if self.unsolved[b] & bit != 0 {
            self.place(d, b, i);
        }
        true
    }

    /// Applies singles and band interactions until a fixpoint; `false` on
    /// contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            // 1. Band filter and row hidden singles on changed digit masks.
            while self.dirty != 0 {
                let k = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                let x = self.cand[k];
                let flags = ROW_MINIROWS[(x & ROW) as usize] as usize
                    | (ROW_MINIROWS[((x >> 9) & ROW) as usize] as usize) << 3
                    | (ROW_MINIROWS[(x >> 18) as usize] as usize) << 6;
                let nx = x & BAND_FILTER[flags];
                if nx == 0 {
                    return false;
                }
                self.cand[k] = nx;
                let d = k / 3;
                let b = k % 3;
                self.col_dirty |= 1 << d;
                let mut s = row_singles(nx) & self.unsolved[b];
                while s != 0 {
                    let i = s.trailing_zeros();
                    s &= s - 1;
                    if !self.place_checked(d, b, i) {
                        return false;
                    }
                }
            }

            // 2. Naked singles.
            let mut progress = false;
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let mut ones = 0u32;
                let mut twos = 0u32;
                for d in 0..9 {
                    let c = self.cand[3 * d + b];
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
                    let bit = 1u32 << i;
                    let mut d = 0;
                    while d < 9 && self.cand[3 * d + b] & bit == 0 {
                        d += 1;
                    }
                    if d == 9 {
                        return false;
                    }
                    self.place(d, b, i);
                    progress = true;
                }
            }
            if progress {
                continue;
            }

            // 3. Stack filter and column hidden singles for digits that changed.
            let mut cd = self.col_dirty;
            self.col_dirty = 0;
            while cd != 0 {
                let d = cd.trailing_zeros() as usize;
                cd &= cd - 1;
                let x0 = self.cand[3 * d];
                let x1 = self.cand[3 * d + 1];
                let x2 = self.cand[3 * d + 2];
                let f0 = (x0 | x0 >> 9 | x0 >> 18) & ROW;
                let f1 = (x1 | x1 >> 9 | x1 >> 18) & ROW;
                let f2 = (x2 | x2 >> 9 | x2 >> 18) & ROW;
                let mut a0 = 0u32;
                let mut a1 = 0u32;
                let mut a2 = 0u32;
                for st in 0..3 {
                    let sh = 3 * st;
                    let flags = ((f0 >> sh) & 7) | ((f1 >> sh) & 7) << 3 | ((f2 >> sh) & 7) << 6;
                    let allowed = PERM_ALLOWED[flags as usize] as u32;
                    if allowed == 0 {
                        return false;
                    }
                    a0 |= (allowed & 7) << sh;
                    a1 |= ((allowed >> 3) & 7) << sh;
                    a2 |= (allowed >> 6) << sh;
                }
                let n0 = x0 & (a0 | a0 << 9 | a0 << 18);
                let n1 = x1 & (a1 | a1 << 9 | a1 << 18);
                let n2 = x2 & (a2 | a2 << 9 | a2 << 18);
                if n0 != x0 {
                    self.cand[3 * d] = n0;
                    self.dirty |= 1 << (3 * d);
                }
                if n1 != x1 {
                    self.cand[3 * d + 1] = n1;
                    self.dirty |= 1 << (3 * d + 1);
                }
                if n2 != x2 {
                    self.cand[3 * d + 2] = n2;
                    self.dirty |= 1 << (3 * d + 2);
                }
                let mut ones = 0u32;
                let mut twos = 0u32;
                for x in [n0, n1, n2] {
                    for r in 0..3 {
                        let v = (x >> (9 * r)) & ROW;
                        twos |= ones & v;
                        ones |= v;
                    }
                }
                let mut s = ROW & !twos;
                while s != 0 {
                    let c = s.trailing_zeros() as usize;
                    s &= s - 1;
                    for b in 0..3 {
                        let v = self.cand[3 * d + b] & COLUMN[c];
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

    /// Digits (bit `d`) possible in cell `i` of band `b`.
    #[inline(always)]
    fn cell_digits(&self, b: usize, i: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= ((self.cand[3 * d + b] >> i) & 1) << d;
        }
        m
    }

    /// Chooses the branching cell: the first bivalue cell, otherwise an
    /// unsolved cell with the fewest candidates.  Requires an unsolved cell.
    fn pick(&self) -> (usize, u32) {
        let mode = MODE.load(std::sync::atomic::Ordering::Relaxed);
        let mut biv = [0u32; 3];
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let mut ones = 0u32;
            let mut twos = 0u32;
            let mut threes = 0u32;
            for d in 0..9 {
                let c = self.cand[3 * d + b];
                threes |= twos & c;
                twos |= ones & c;
                ones |= c;
            }
            biv[b] = u & twos & !threes;
            if mode == 0 && biv[b] != 0 {
                return (b, biv[b].trailing_zeros());
            }
        }
        if biv != [0; 3] {
            if mode == 1 {
                for b in (0..3).rev() {
                    if biv[b] != 0 {
                        return (b, 31 - biv[b].leading_zeros());
                    }
                }
            }
            let mut best = (0, 0);
            let mut best_score = -1i32;
            for b in 0..3 {
                let mut u = biv[b];
                while u != 0 {
                    let i = u.trailing_zeros();
                    u &= u - 1;
                    let score = if mode == 2 {
                        // fewer total positions of its digits
                        let m = self.cell_digits(b, i);
                        let mut t = 0;
                        for d in 0..9 {
                            if m >> d & 1 != 0 {
                                for bb in 0..3 {
                                    t += (self.cand[3 * d + bb] & self.unsolved[bb]).count_ones()
                                        as i32;
                                }
                            }
                        }
                        1000 - t
                    } else if mode == 3 {
                        // bivalue peers
                        let mut t = (biv[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            t += (biv[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        t
                    } else if mode == 5 {
                        let mut t = (self.unsolved[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            t += (self.unsolved[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        100 - t
                    } else if mode == 6 {
                        let mut t = (self.unsolved[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            t += (self.unsolved[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        let mut v = (biv[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            v += (biv[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        v * 100 + 100 - t
                    } else if mode == 7 {
                        let mut t = (self.unsolved[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            t += (self.unsolved[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        let mut v = (biv[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            v += (biv[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        v * 2 - t
                    } else {
                        // unsolved peers
                        let mut t = (self.unsolved[b] & BAND_PEERS[i as usize]).count_ones() as i32;
                        for ob in OTHER_BANDS[b] {
                            t += (self.unsolved[ob] & COLUMN[(i % 9) as usize]).count_ones() as i32;
                        }
                        t
                    };
                    if score > best_score {
                        best_score = score;
                        best = (b, i);
                    }
                }
            }
            return best;
        }
        FALLBACK.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[3 * d + b];
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    g[27 * b + i] = d as u8 + 1;
                }
            }
        }
        g
    }

    /// Depth-first search, recording solutions in `ctx` until its limit.
    fn search(mut self, ctx: &mut Search) {
        loop {
            NODES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if !self.propagate() {
                return;
            }
            if self.unsolved == [0; 3] {
                if ctx.count == 0 {
                    ctx.first = Some(self.grid());
                }
                ctx.count += 1;
                return;
            }
            let (b, i) = self.pick();
            let mut digits = self.cell_digits(b, i);
            while digits & (digits - 1) != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                let mut child = self;
                child.place(d, b, i);
                child.search(ctx);
                if ctx.count >= ctx.limit {
                    return;
                }
                let k = 3 * d + b;
                self.cand[k] &= !(1 << i);
                self.dirty |= 1 << k;
            }
            self.place(digits.trailing_zeros() as usize, b, i);
        }
    }
}

pub static MODE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
pub static FALLBACK: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
pub static NODES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
