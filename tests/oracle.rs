//! The oracle's two compiled copies, end to end: `RULEDOKU_ORACLE=scalar`
//! forces the portable copy (the one a CPU without AVX2 runs), and `check`
//! prints with it what it prints with the copy chosen for this CPU.

mod common;
use common::{CBG_SAMPLE, MULTIPLE, NO_SOLUTION, Run, bench_line, command, data, finish};
use std::path::Path;

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

/// Whether this CPU has the features of the oracle's AVX2 copy.
fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[test]
fn the_portable_oracle_checks_as_the_default_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = puzzles(dir.path());
    let default = ruledoku_with(None, &["check", "--solution", &file]);
    let portable = ruledoku_with(Some("scalar"), &["check", "--solution", &file]);
    assert_eq!(default.stderr, portable.stderr);
    assert_eq!(default.code, portable.code);
    assert_eq!(default.stdout, portable.stdout);
    // Every outcome is there, many times (a changed given often makes the
    // givens contradictory: an invalid line, the same for both).
    let summary = default.lines().last().unwrap().to_string();
    for (kind, least) in [("unique", 300), ("multiple", 300), ("none", 20)] {
        let n = default
            .lines()
            .iter()
            .filter(|l| l.split(' ').nth(1) == Some(kind))
            .count();
        assert!(n >= least, "{n} {kind}: {summary}");
    }
}

#[test]
fn bench_names_the_oracle_copy() {
    let sample = data(CBG_SAMPLE);
    let sample = sample.to_str().unwrap();
    let run = ruledoku_with(Some("scalar"), &["bench", "--limit", "20", sample]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = bench_line(run.lines()[0], 20);
    assert_eq!(line.head, "oracle: 20 puzzles (20 unique)");
    assert_eq!(line.tail, "best of 1, one thread, portable oracle");
    // Any other value leaves the choice to the CPU.
    let run = ruledoku_with(Some("auto"), &["bench", "--limit", "20", sample]);
    let line = bench_line(run.lines()[0], 20);
    let auto = if cpu_has_avx2() { "avx2" } else { "portable" };
    assert_eq!(line.tail, format!("best of 1, one thread, {auto} oracle"));
}
