//! The oracle's tiers (its copies compiled for AVX2, SSE4.1, SSE2 and plain
//! arrays), end to end: `RULEDOKU_ORACLE` forces each tier this CPU has,
//! and `check` prints with it what it prints with the tier chosen for this
//! CPU; a value that names no tier is reported and the best tier runs (a
//! tier the CPU lacks: see the oracle's unit tests).

mod common;
use common::{CBG_SAMPLE, MULTIPLE, NO_SOLUTION, Run, bench_line, command, data, finish};
use std::path::Path;

/// The tiers, best first.
const TIERS: [&str; 4] = ["avx2", "sse4", "sse2", "scalar"];

/// `ruledoku ARGS` with `RULEDOKU_ORACLE` set to `oracle`, or unset.
fn ruledoku_with(oracle: Option<&str>, args: &[&str]) -> Run {
    let (mut cmd, shown) = command(args);
    match oracle {
        Some(v) => cmd.env("RULEDOKU_ORACLE", v),
        None => cmd.env_remove("RULEDOKU_ORACLE"),
    };
    let out = cmd.output().expect("run the ruledoku binary");
    finish(&shown, out)
}

/// Puzzles with one solution (cbg-000 and hard-972 samples), several (the
/// same with givens removed) and none or contradictory givens (a given
/// changed).
fn puzzles(dir: &Path) -> String {
    let read = |name: &str| std::fs::read_to_string(data(name)).unwrap();
    let cbg = read(CBG_SAMPLE);
    let hard = read("se-hard-first100.txt");
    let mut text = String::new();
    let mut seed = 0x5EED_u64;
    for (k, line) in cbg.lines().take(300).chain(hard.lines()).enumerate() {
        let mut cells: Vec<u8> = line.bytes().take(81).collect();
        text.push_str(&format!("{}\n", String::from_utf8(cells.clone()).unwrap()));
        for _ in 0..1 + k % 4 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            cells[(seed >> 33) as usize % 81] = b'.';
        }
        text.push_str(&format!("{}\n", String::from_utf8(cells.clone()).unwrap()));
        if let Some(c) = cells.iter_mut().find(|c| c.is_ascii_digit()) {
            *c = if *c == b'9' { b'1' } else { *c + 1 };
        }
        text.push_str(&format!("{}\n", String::from_utf8(cells).unwrap()));
    }
    text.push_str(&format!("{MULTIPLE}\n{NO_SOLUTION}\n"));
    let file = dir.join("puzzles.txt");
    std::fs::write(&file, text).unwrap();
    file.to_str().unwrap().to_string()
}

/// Whether this CPU has the instructions of the oracle's tier `tier`.
fn cpu_has(tier: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        match tier {
            "avx2" => {
                has!("avx2") && has!("bmi1") && has!("bmi2") && has!("lzcnt") && has!("popcnt")
            }
            "sse4" => {
                has!("sse3") && has!("ssse3") && has!("sse4.1") && has!("sse4.2") && has!("popcnt")
            }
            _ => true,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        tier == "scalar"
    }
}

/// The tiers this CPU has, best first.
fn tiers() -> Vec<&'static str> {
    let tiers: Vec<_> = TIERS.into_iter().filter(|t| cpu_has(t)).collect();
    if tiers.len() < TIERS.len() {
        eprintln!("note: this CPU runs only the tiers {tiers:?}");
    }
    tiers
}

/// The tier `bench` names with `RULEDOKU_ORACLE` set to `oracle`, and
/// what it says on stderr.
fn bench_tier(oracle: Option<&str>) -> (String, String) {
    let sample = data(CBG_SAMPLE);
    let run = ruledoku_with(
        oracle,
        &["bench", "--limit", "20", sample.to_str().unwrap()],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = bench_line(run.lines()[0], 20);
    assert_eq!(line.head, "oracle: 20 puzzles (20 unique)");
    let tier = line
        .tail
        .strip_prefix("best of 1, one thread, ")
        .and_then(|t| t.strip_suffix(" oracle"))
        .unwrap_or_else(|| panic!("{:?}", line.tail));
    (tier.to_string(), run.stderr)
}

#[test]
fn every_tier_checks_as_the_default_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = puzzles(dir.path());
    let default = ruledoku_with(None, &["check", "--solution", &file]);
    for tier in tiers() {
        let forced = ruledoku_with(Some(tier), &["check", "--solution", &file]);
        assert_eq!(default.stderr, forced.stderr, "{tier}");
        assert_eq!(default.code, forced.code, "{tier}");
        assert_eq!(default.stdout, forced.stdout, "{tier}");
    }
    // Every outcome is there, many times (a changed given often makes the
    // givens contradictory: an invalid line, the same for all). A line of
    // `check` is its line number, the puzzle, then the kind.
    let summary = default.lines().last().unwrap().to_string();
    for (kind, least) in [("unique", 300), ("multiple", 300), ("none", 20)] {
        let n = default
            .lines()
            .iter()
            .filter(|l| l.split(' ').nth(2) == Some(kind))
            .count();
        assert!(n >= least, "{n} {kind}: {summary}");
    }
}

#[test]
fn bench_names_the_tier() {
    let have = tiers();
    assert_eq!(bench_tier(None), (have[0].to_string(), String::new()));
    // Set but empty is as unset.
    assert_eq!(bench_tier(Some("")), (have[0].to_string(), String::new()));
    for tier in have {
        assert_eq!(bench_tier(Some(tier)), (tier.to_string(), String::new()));
    }
}

#[test]
fn an_unknown_tier_is_reported_and_the_best_runs() {
    let best = tiers()[0];
    for value in ["portable", "AVX2", "avx2 "] {
        let (tier, stderr) = bench_tier(Some(value));
        assert_eq!(tier, best, "{value:?}");
        assert_eq!(
            stderr,
            format!(
                "ruledoku: RULEDOKU_ORACLE={value} names no oracle (one of avx2, sse4, sse2, scalar); using {best}\n"
            ),
            "{value:?}"
        );
    }
}
