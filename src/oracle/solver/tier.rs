//! The compiled copies of the search (*tiers*, one per instruction set) and
//! the choice of the one that runs.
//!
//! On x86-64: `avx2` (AVX2, BMI1, BMI2, LZCNT, POPCNT: vectors of two
//! digits), `sse4` (SSE4.1 and POPCNT, the x86-64-v2 level: one digit per
//! vector), `sse2` (the x86-64 baseline, every x86-64 CPU: one digit per
//! vector) and `scalar` (plain arrays, no vector code of its own: the only
//! tier on other targets).  All find the same counts and the same first
//! solutions.  The best tier the CPU has runs, unless the environment
//! variable `RULEDOKU_ORACLE` names another one; a value that names no
//! tier, or a tier the CPU lacks, is reported on stderr and the best tier
//! runs instead (never an instruction the CPU lacks).  The choice is made
//! once, at the first search.

use super::Search;
use super::search;
use std::sync::OnceLock;

/// A compiled copy of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tier {
    /// AVX2, BMI1, BMI2, LZCNT and POPCNT.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// SSE4.1 and POPCNT (x86-64-v2).
    #[cfg(target_arch = "x86_64")]
    Sse4,
    /// SSE2, the x86-64 baseline.
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// Plain arrays, any target.
    Scalar,
}

impl Tier {
    /// Every tier of the target, best first.
    pub(super) const ALL: &[Tier] = &[
        #[cfg(target_arch = "x86_64")]
        Tier::Avx2,
        #[cfg(target_arch = "x86_64")]
        Tier::Sse4,
        #[cfg(target_arch = "x86_64")]
        Tier::Sse2,
        Tier::Scalar,
    ];

    /// The names `RULEDOKU_ORACLE` takes, on any target.
    const NAMES: &str = "avx2, sse4, sse2, scalar";

    /// The tier's name, as `RULEDOKU_ORACLE` takes it.
    pub(super) fn name(self) -> &'static str {
        match self {
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Tier::Sse4 => "sse4",
            #[cfg(target_arch = "x86_64")]
            Tier::Sse2 => "sse2",
            Tier::Scalar => "scalar",
        }
    }

    /// Whether this CPU has the instructions the tier is compiled for.
    pub(super) fn available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Tier::Sse4 => {
                std::arch::is_x86_feature_detected!("sse3")
                    && std::arch::is_x86_feature_detected!("ssse3")
                    && std::arch::is_x86_feature_detected!("sse4.1")
                    && std::arch::is_x86_feature_detected!("sse4.2")
                    && std::arch::is_x86_feature_detected!("popcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Tier::Sse2 => true,
            Tier::Scalar => true,
        }
    }

    /// The tier that runs: the one `RULEDOKU_ORACLE` names if the CPU has
    /// it, else the best; decided at the first call.
    pub(super) fn chosen() -> Tier {
        static CHOSEN: OnceLock<Tier> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let forced = std::env::var_os("RULEDOKU_ORACLE");
            let forced = forced.as_deref().map(|v| v.to_string_lossy());
            let (tier, note) = Tier::choose(forced.as_deref(), Tier::available);
            if let Some(note) = note {
                eprintln!("ruledoku: {note}");
            }
            tier
        })
    }

    /// The tier for the value of `RULEDOKU_ORACLE` (`None`: unset; empty
    /// is as unset) on a CPU that has the tiers `available` says, and why
    /// another one runs if so.
    pub(super) fn choose(
        forced: Option<&str>,
        available: impl Fn(Tier) -> bool,
    ) -> (Tier, Option<String>) {
        let best = Tier::ALL
            .iter()
            .copied()
            .find(|&t| available(t))
            .unwrap_or(Tier::Scalar);
        let Some(name) = forced.filter(|name| !name.is_empty()) else {
            return (best, None);
        };
        match Tier::ALL.iter().find(|t| t.name() == name) {
            Some(&t) if available(t) => (t, None),
            Some(&t) => {
                let note = format!(
                    "RULEDOKU_ORACLE={name}: this CPU lacks the instructions of the {} oracle; using {}",
                    t.name(),
                    best.name()
                );
                (best, Some(note))
            }
            None if ["avx2", "sse4", "sse2"].contains(&name) => {
                let note = format!(
                    "RULEDOKU_ORACLE={name}: no such oracle on this target; using {}",
                    best.name()
                );
                (best, Some(note))
            }
            None => {
                let note = format!(
                    "RULEDOKU_ORACLE={name} names no oracle (one of {}); using {}",
                    Tier::NAMES,
                    best.name()
                );
                (best, Some(note))
            }
        }
    }

    /// Counts the solutions of `masks` up to `limit` with this copy of the
    /// search, keeping the first solution.
    ///
    /// # Panics
    ///
    /// If the CPU lacks the tier's instructions (see [`Tier::available`]).
    pub(super) fn run(self, masks: &[u16; 81], limit: usize) -> Search {
        assert!(
            self.available(),
            "the {} oracle needs other instructions",
            self.name()
        );
        let mut ctx = Search::new(limit);
        match self {
            // SAFETY (the three): the CPU has the features the copy is
            // compiled for (asserted above).
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => unsafe { search::count_avx2(masks, &mut ctx) },
            #[cfg(target_arch = "x86_64")]
            Tier::Sse4 => unsafe { search::count_sse41(masks, &mut ctx) },
            #[cfg(target_arch = "x86_64")]
            Tier::Sse2 => search::count_sse2(masks, &mut ctx),
            Tier::Scalar => search::count_scalar(masks, &mut ctx),
        }
        ctx
    }
}
