//! Throughput of the brute-force oracle (`ruledoku::oracle::solver`): every puzzle of
//! a collection is checked for uniqueness (solutions counted up to 2).
//!
//! Two fixed samples kept in the repository always run: `tests/data/cbg-000-first1000.txt`
//! (the first 1000 lines of cbg-000, random minimal puzzles) and
//! `tests/data/se-hard-first100.txt` (the first 100 lines of `se-hard/hard-972.txt`,
//! SE 10.4 to 11.9). The whole shared collections live outside the repository, in
//! `../shared/data/` (override with the `RULEDOKU_DATA` environment variable); a missing
//! file is reported and its benchmark skipped.
//!
//! Each benchmark's name ends with the oracle's tier (`-avx2`, `-sse4`, `-sse2` or
//! `-scalar`): the best the CPU has, or the one `RULEDOKU_ORACLE` names
//! (`RULEDOKU_ORACLE=sse2 cargo bench --bench oracle` measures the x86-64 baseline).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ruledoku::oracle::solver::{count_solutions, instruction_set};

/// The fixed samples: benchmark name and path below the repository.
const SAMPLES: [(&str, &str); 2] = [
    ("cbg-000-first1000", "tests/data/cbg-000-first1000.txt"),
    ("se-hard-first100", "tests/data/se-hard-first100.txt"),
];

/// The shared collections: benchmark name and path below the data directory.
const FILES: [(&str, &str); 2] = [
    ("cbg-000", "cbg-000/puzzles.txt"),
    ("se-hard-972", "se-hard/hard-972.txt"),
];

fn data_dir() -> PathBuf {
    std::env::var_os("RULEDOKU_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
        PathBuf::from,
    )
}

/// Pencil marks of each line's first 81 characters (`1`-`9` given, anything
/// else empty).
fn load(path: &PathBuf) -> Option<Vec<[u16; 81]>> {
    let text = std::fs::read_to_string(path).ok()?;
    let puzzles = text
        .lines()
        .filter(|line| line.len() >= 81)
        .map(|line| {
            let mut masks = [0x1FF_u16; 81];
            for (m, ch) in masks.iter_mut().zip(line.bytes()) {
                if (b'1'..=b'9').contains(&ch) {
                    *m = 1 << (ch - b'1');
                }
            }
            masks
        })
        .collect();
    Some(puzzles)
}

fn oracle(c: &mut Criterion) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = data_dir();
    let files = SAMPLES
        .iter()
        .map(|&(name, file)| (name, root.join(file)))
        .chain(FILES.iter().map(|&(name, file)| (name, dir.join(file))));
    let mut group = c.benchmark_group("oracle");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, path) in files {
        let Some(puzzles) = load(&path).filter(|p| !p.is_empty()) else {
            eprintln!(
                "oracle bench: {} not found or empty, skipping {name}",
                path.display()
            );
            continue;
        };
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(format!("{name}-{}", instruction_set()), |b| {
            b.iter(|| {
                let mut unique = 0usize;
                for masks in &puzzles {
                    unique += usize::from(count_solutions(black_box(masks), 2) == 1);
                }
                unique
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // No plots: criterion draws them with system fonts, which a headless
    // machine may lack (its SVG backend then panics after the first
    // measurement).
    config = Criterion::default().without_plots();
    targets = oracle
}
criterion_main!(benches);
