//! Throughput of the brute-force oracle (`ruledoku::oracle::solver`): every puzzle of
//! a shared collection is checked for uniqueness (solutions counted up to 2).
//!
//! The collections live outside the repository, in `../shared/data/`
//! (override with the `RULEDOKU_DATA` environment variable); a missing file is
//! reported and its benchmark skipped.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ruledoku::oracle::solver::count_solutions;

/// The collections: benchmark name and path below the data directory.
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
    let dir = data_dir();
    let mut group = c.benchmark_group("oracle");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for (name, file) in FILES {
        let path = dir.join(file);
        let Some(puzzles) = load(&path).filter(|p| !p.is_empty()) else {
            eprintln!(
                "oracle bench: {} not found or empty, skipping {name}",
                path.display()
            );
            continue;
        };
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| {
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

criterion_group!(benches, oracle);
criterion_main!(benches);
