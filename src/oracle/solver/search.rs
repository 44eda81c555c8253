//! The depth-first search, compiled once per instruction set.

use super::board::Board;
use super::lanes::Lanes;
#[cfg(any(test, not(target_arch = "x86_64")))]
use super::lanes::Lanes8;
use super::{Search, Status};
#[cfg(target_arch = "x86_64")]
use super::{avx2::Avx2, sse2::Sse2};

/// Defines a depth-first search function `$name`, recording solutions in
/// `ctx` until its limit; the body is shared by every instruction-set variant.
macro_rules! search_fn {
    ($(#[$attr:meta])* $entry:ident, $name:ident, $lanes:ty) => {
        $(#[$attr])*
        pub(super) fn $entry(masks: &[u16; 81], ctx: &mut Search) {
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
