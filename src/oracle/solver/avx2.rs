//! Eight lanes in an AVX2 register.

use super::board::{BAND_ALL, Board, ENTRIES};
use super::lanes::Lanes;
use std::arch::x86_64::*;

/// Eight lanes in an AVX2 register.  Its operations are only ever inlined
/// into `search_avx2`, which runs on CPUs with AVX2 only.
#[derive(Clone, Copy)]
pub(super) struct Avx2(__m256i);

// SAFETY (every `unsafe` block below): these methods are inlined only
// into `search_avx2`, compiled for and run on CPUs with AVX2; the loads
// and stores read and write eight entries of a slice that has them.
impl Lanes for Avx2 {
    const WIDTH: usize = 8;
    const GROUP: usize = 2;

    #[inline(always)]
    fn load(a: &[u32]) -> Self {
        let a = &a[..8];
        Avx2(unsafe { _mm256_loadu_si256(a.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, a: &mut [u32]) {
        let a = &mut a[..8];
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
    fn times<const M: u32>(self) -> Self {
        Avx2(unsafe { _mm256_mullo_epi32(self.0, _mm256_set1_epi32(M as i32)) })
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
    fn other_half(self) -> Self {
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
            let mut board = Board { v: [0; ENTRIES] };
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
                0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3,
                3, 3, 3, 3,
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
