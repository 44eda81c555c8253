//! The depth-first search, compiled once per instruction set.

use super::board::{ALL_DIGITS, Board};
use super::lanes::{Arrays, Lanes};
use super::{Search, Status};
#[cfg(target_arch = "x86_64")]
use super::{
    avx2::Avx2,
    sse::{Sse2, Sse41},
};

/// Defines a depth-first search function `$name`, recording solutions in
/// `ctx` until its limit; the body is shared by every instruction-set variant.
/// Besides the board, the search passes on the digits (bit `d`) changed since
/// a sweep last looked at them (see [`super::sweep`]).
macro_rules! search_fn {
    ($(#[$attr:meta])* $entry:ident, $name:ident, $lanes:ty) => {
        $(#[$attr])*
        pub(super) fn $entry(masks: &[u16; 81], ctx: &mut Search) {
            if let Some(board) = <$lanes>::board(masks) {
                $name(board, ALL_DIGITS, ctx);
            }
        }

        $(#[$attr])*
        fn $name(mut state: Board, mut changed: u32, ctx: &mut Search) {
            loop {
                match state.propagate::<$lanes>(changed) {
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
                    let child_changed = child.assign(d, b, i);
                    $name(child, child_changed, ctx);
                    if ctx.count >= ctx.limit {
                        return;
                    }
                    changed |= state.eliminate(d, b, i);
                }
                changed |= state.assign(digits.trailing_zeros() as usize / 4, b, i);
            }
        }
    };
}

search_fn!(
    /// The search over plain arrays (the `scalar` tier): any target.
    count_scalar,
    search_scalar,
    Arrays
);
search_fn!(
    /// The search for the x86-64 baseline, SSE2.
    #[cfg(target_arch = "x86_64")]
    count_sse2,
    search_sse2,
    Sse2
);
search_fn!(
    /// The search compiled for CPUs with SSE4.1 and POPCNT (x86-64-v2).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse3,ssse3,sse4.1,sse4.2,popcnt")]
    count_sse41,
    search_sse41,
    Sse41
);
search_fn!(
    /// The search compiled for CPUs with AVX2, BMI1, BMI2, LZCNT and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    count_avx2,
    search_avx2,
    Avx2
);
