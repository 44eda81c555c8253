//! Eight 32-bit lanes: the operations the sweep and the branching choice
//! are written with, and their plain-array form.

use super::board::Board;

/// Eight 32-bit lanes, as the sweep sees them.  Implemented by plain arrays
/// ([`Lanes8`], any target) and by AVX2 registers ([`Avx2`]).
pub(super) trait Lanes: Copy {
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
pub(super) struct Lanes8([u32; 8]);

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
