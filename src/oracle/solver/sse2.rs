//! Eight lanes in two SSE2 registers.

use super::lanes::Lanes;
use std::arch::x86_64::*;

/// Eight lanes in two SSE2 registers: the x86-64 baseline, which every
/// x86-64 CPU runs.
#[derive(Clone, Copy)]
pub(super) struct Sse2([__m128i; 2]);

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
