//! Vectors of 32-bit lanes: the operations the sweep and the branching
//! choice are written with, and their plain-array form ([`Arrays`]).
//!
//! A vector holds one digit (four lanes: bands 0-2 and a padding lane) or
//! two (eight lanes: the even digit in lanes 0-3, the odd one in 4-7); see
//! [`super::board`].

use super::board::Board;

/// A vector of 32-bit lanes, as the sweep sees it.  Implemented by plain
/// arrays ([`Arrays`], any target), and on x86-64 by SSE2 and SSE4.1
/// registers (`sse::Sse`, one digit) and by AVX2 registers (`avx2::Avx2`,
/// two digits).
pub(super) trait Lanes: Copy {
    /// Lanes of a vector: 4 (one digit) or 8 (two digits).
    const WIDTH: usize;
    /// Vectors holding the nine digits: 9 or 5.
    const COUNT: usize = 36_usize.div_ceil(Self::WIDTH);
    /// Vectors a sweep works on side by side, at most 5: as many
    /// independent chains of operations as the registers hold.
    const GROUP: usize;

    /// The first [`Self::WIDTH`] entries of `a`.
    fn load(a: &[u32]) -> Self;
    /// Writes the lanes to the first [`Self::WIDTH`] entries of `a`.
    fn store(self, a: &mut [u32]);
    fn splat(x: u32) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn xor(self, o: Self) -> Self;
    /// `self & !o`.
    fn and_not(self, o: Self) -> Self;
    fn shr<const N: i32>(self) -> Self;
    fn shl<const N: i32>(self) -> Self;
    /// Lane-wise product by `M` (low 32 bits).
    fn times<const M: u32>(self) -> Self;
    /// All ones in the lanes that are zero, zero elsewhere.
    fn is_zero(self) -> Self;
    /// Whether some lane is not zero.
    fn any(self) -> bool;
    /// Lanes 0-2 (and 4-6) rotated: lane `b` gets lane `b + 1` (mod 3).
    fn next_band(self) -> Self;
    /// Lanes 0-2 (and 4-6) rotated: lane `b` gets lane `b + 2` (mod 3).
    fn prev_band(self) -> Self;
    /// The lanes of the vector's other digit in these lanes (the two halves
    /// exchanged); zero in a vector of one digit.
    fn other_half(self) -> Self;
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

/// Four lanes (one digit) as an array, every operation a loop over the
/// lanes: the `scalar` tier, the only one on targets other than x86-64.
/// It uses no vector instruction by itself; the compiler makes what it can
/// of the loops (on x86-64, SSE2 code).
#[derive(Clone, Copy)]
pub(super) struct Arrays([u32; 4]);

impl Arrays {
    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        let mut r = [0u32; 4];
        for (r, (&a, &b)) in r.iter_mut().zip(self.0.iter().zip(&o.0)) {
            *r = f(a, b);
        }
        Arrays(r)
    }

    #[inline(always)]
    fn permute(self, p: [usize; 4]) -> Self {
        Arrays(p.map(|i| self.0[i]))
    }
}

impl Lanes for Arrays {
    const WIDTH: usize = 4;
    const GROUP: usize = 2;

    #[inline(always)]
    fn load(a: &[u32]) -> Self {
        let mut r = [0; 4];
        r.copy_from_slice(&a[..4]);
        Arrays(r)
    }
    #[inline(always)]
    fn store(self, a: &mut [u32]) {
        a[..4].copy_from_slice(&self.0);
    }
    #[inline(always)]
    fn splat(x: u32) -> Self {
        Arrays([x; 4])
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
        Arrays(self.0.map(|x| x >> N))
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Arrays(self.0.map(|x| x << N))
    }
    #[inline(always)]
    fn times<const M: u32>(self) -> Self {
        Arrays(self.0.map(|x| x.wrapping_mul(M)))
    }
    #[inline(always)]
    fn is_zero(self) -> Self {
        Arrays(self.0.map(|x| ((x == 0) as u32).wrapping_neg()))
    }
    #[inline(always)]
    fn any(self) -> bool {
        self.0.iter().fold(0, |a, &x| a | x) != 0
    }
    #[inline(always)]
    fn next_band(self) -> Self {
        self.permute([1, 2, 0, 3])
    }
    #[inline(always)]
    fn prev_band(self) -> Self {
        self.permute([2, 0, 1, 3])
    }
    #[inline(always)]
    fn other_half(self) -> Self {
        Arrays([0; 4])
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
