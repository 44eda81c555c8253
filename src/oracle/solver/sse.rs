//! Four lanes in an SSE register: one digit (bands 0-2 and a padding lane).
//! The same type serves the `sse2` tier (the x86-64 baseline) and the `sse4`
//! tier, which multiplies lanes and tests for zero with one instruction
//! each (`pmulld`, `ptest`).

use super::board::{BAND_ALL, Board, ENTRIES};
use super::lanes::Lanes;
use std::arch::x86_64::*;

/// Four lanes in an SSE register.  With `SSE41` its operations may use
/// SSE4.1 instructions, and are only ever inlined into `search_sse41`,
/// which runs on CPUs with SSE4.1 only.
#[derive(Clone, Copy)]
pub(super) struct Sse<const SSE41: bool>(__m128i);

/// The `sse2` tier's vectors: the x86-64 baseline.
pub(super) type Sse2 = Sse<false>;
/// The `sse4` tier's vectors: CPUs with SSE4.1 (x86-64-v2).
pub(super) type Sse41 = Sse<true>;

/// `x`, which the compiler cannot see is `x`.
#[inline(always)]
fn hidden(mut x: __m128i) -> __m128i {
    // SAFETY: an empty instruction sequence, changing nothing.
    unsafe {
        std::arch::asm!("/* {0} */", inout(xmm_reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

// SAFETY (every `unsafe` block below): SSE2 is part of the x86-64
// baseline, and the SSE4.1 instructions (`_mm_mullo_epi32`,
// `_mm_testz_si128`) are used only with `SSE41`, whose methods run in
// `search_sse41` on CPUs with SSE4.1;
// the loads and stores read and write four entries of a slice that has
// them.
impl<const SSE41: bool> Lanes for Sse<SSE41> {
    const WIDTH: usize = 4;
    const GROUP: usize = 2;

    #[inline(always)]
    fn load(a: &[u32]) -> Self {
        let a = &a[..4];
        Sse(unsafe { _mm_loadu_si128(a.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, a: &mut [u32]) {
        let a = &mut a[..4];
        unsafe { _mm_storeu_si128(a.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn splat(x: u32) -> Self {
        Sse(unsafe { _mm_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Sse(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Sse(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Sse(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        Sse(unsafe { _mm_andnot_si128(o.0, self.0) })
    }
    #[inline(always)]
    fn shr<const N: i32>(self) -> Self {
        Sse(unsafe { _mm_srli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    fn shl<const N: i32>(self) -> Self {
        Sse(unsafe { _mm_slli_epi32::<N>(self.0) })
    }
    /// With SSE4.1 one instruction (`pmulld`).  With SSE2, which has no
    /// 32-bit product, `M` is taken as a run of ones `(1 << n) - 1` times
    /// a sum of powers of two (as the sweep's constants are): the run is a
    /// shifted difference, each power a shifted copy, added.  The
    /// compiler would turn that sum back into an emulated product (two
    /// 64-bit products and three shuffles) were the shifts not hidden from
    /// it.
    #[inline(always)]
    fn times<const M: u32>(self) -> Self {
        if SSE41 {
            return Sse(unsafe { _mm_mullo_epi32(self.0, _mm_set1_epi32(M as i32)) });
        }
        // The length of the lowest run of ones, and the powers of two.
        let n = (M >> M.trailing_zeros()).trailing_ones();
        let powers = M / ((1u64 << n) - 1) as u32;
        const {
            let n = (M >> M.trailing_zeros()).trailing_ones();
            let run = (1u64 << n) - 1;
            assert!(
                M != 0 && M as u64 / run * run == M as u64,
                "not a run times powers"
            );
        }
        unsafe {
            let x = self.0;
            let run = if n == 1 {
                x
            } else {
                _mm_sub_epi32(hidden(_mm_sll_epi32(x, _mm_cvtsi32_si128(n as i32))), x)
            };
            let mut sum = None;
            let mut p = powers;
            while p != 0 {
                let b = p.trailing_zeros();
                p &= p - 1;
                let term = if b == 0 {
                    run
                } else {
                    _mm_sll_epi32(run, _mm_cvtsi32_si128(b as i32))
                };
                sum = Some(match sum {
                    None => term,
                    Some(s) => _mm_add_epi32(hidden(s), term),
                });
            }
            Sse(sum.unwrap_or(_mm_setzero_si128()))
        }
    }
    #[inline(always)]
    fn is_zero(self) -> Self {
        Sse(unsafe { _mm_cmpeq_epi32(self.0, _mm_setzero_si128()) })
    }
    #[inline(always)]
    fn any(self) -> bool {
        unsafe {
            if SSE41 {
                _mm_testz_si128(self.0, self.0) == 0
            } else {
                _mm_movemask_epi8(_mm_cmpeq_epi32(self.0, _mm_setzero_si128())) != 0xFFFF
            }
        }
    }
    #[inline(always)]
    fn next_band(self) -> Self {
        Sse(unsafe { _mm_shuffle_epi32::<0b11_00_10_01>(self.0) })
    }
    #[inline(always)]
    fn prev_band(self) -> Self {
        Sse(unsafe { _mm_shuffle_epi32::<0b11_01_00_10>(self.0) })
    }
    #[inline(always)]
    fn other_half(self) -> Self {
        Sse(unsafe { _mm_setzero_si128() })
    }
    #[inline(always)]
    fn bits_at(self, i: u32) -> u32 {
        unsafe {
            let top = _mm_sll_epi32(self.0, _mm_cvtsi32_si128(31 - i as i32));
            _mm_movemask_ps(_mm_castsi128_ps(top)) as u32
        }
    }

    /// Each digit's cells are the sign bits of the 16-bit masks shifted
    /// left, packed to bytes and gathered by a byte movemask, 16 cells at a
    /// time.
    #[inline(always)]
    fn board(masks: &[u16; 81]) -> Option<Board> {
        let mut cells = [0x1FF_u16; 96];
        cells[..81].copy_from_slice(masks);
        unsafe {
            let p = cells.as_ptr().cast::<__m128i>();
            let nine = _mm_set1_epi16(0x1FF);
            let zero = _mm_setzero_si128();
            let mut empty = zero;
            let mut v = [zero; 12];
            for (k, v) in v.iter_mut().enumerate() {
                let x = _mm_and_si128(_mm_loadu_si128(p.add(k)), nine);
                empty = _mm_or_si128(empty, _mm_cmpeq_epi16(x, zero));
                *v = _mm_slli_epi16::<7>(x);
            }
            if _mm_movemask_epi8(empty) != 0 {
                return None;
            }
            let mut board = Board { v: [0; ENTRIES] };
            for d in (0..9).rev() {
                let mut w = [0u32; 3];
                for (q, w) in w.iter_mut().enumerate() {
                    let low = _mm_movemask_epi8(_mm_packs_epi16(v[4 * q], v[4 * q + 1]));
                    let high = _mm_movemask_epi8(_mm_packs_epi16(v[4 * q + 2], v[4 * q + 3]));
                    *w = low as u32 | (high as u32) << 16;
                }
                *board.mask_mut(d, 0) = w[0] & BAND_ALL;
                *board.mask_mut(d, 1) = ((w[0] >> 27) | (w[1] << 5)) & BAND_ALL;
                *board.mask_mut(d, 2) = ((w[1] >> 22) | (w[2] << 10)) & BAND_ALL;
                for v in &mut v {
                    *v = _mm_slli_epi16::<1>(*v);
                }
            }
            Some(board)
        }
    }

    /// Each digit's cells, 16 at a time, expanded to bytes (the two bytes
    /// of the word each repeated eight times, then a test of one bit per
    /// byte).
    #[inline(always)]
    fn grid(board: &Board) -> [u8; 81] {
        let mut out = [0u8; 96];
        unsafe {
            let bits = _mm_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
            let mut acc = [_mm_setzero_si128(); 6];
            for d in 0..9 {
                let (b0, b1, b2) = (board.mask(d, 0), board.mask(d, 1), board.mask(d, 2));
                let w = [b0 | b1 << 27, b1 >> 5 | b2 << 22, b2 >> 10];
                let digit = _mm_set1_epi8(d as i8 + 1);
                for (q, acc) in acc.iter_mut().enumerate() {
                    let x = _mm_cvtsi32_si128((w[q / 2] >> (16 * (q % 2))) as i32);
                    let x = _mm_unpacklo_epi8(x, x);
                    let x = _mm_unpacklo_epi16(x, x);
                    let x = _mm_unpacklo_epi32(x, x);
                    let x = _mm_cmpeq_epi8(_mm_and_si128(x, bits), bits);
                    *acc = _mm_or_si128(*acc, _mm_and_si128(x, digit));
                }
            }
            for (q, acc) in acc.iter().enumerate() {
                _mm_storeu_si128(out.as_mut_ptr().add(16 * q).cast(), *acc);
            }
        }
        let mut g = [0u8; 81];
        g.copy_from_slice(&out[..81]);
        g
    }
}
