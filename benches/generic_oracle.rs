//! Throughput of the generic oracle (`ruledoku::oracle::generic`) on puzzle
//! types other than classic 9×9 Sudoku: each puzzle is solved to two
//! solutions (`check --type`'s work, model built once per type; a
//! Futoshiki puzzle's own signs make its model, built per puzzle as
//! `check` does).
//!
//! Samples: the puzzles of CSP-Rules-Examples in `tests/data/csp-rules`
//! (one benchmark per type, as `manifest.tsv` lists them), and puzzles
//! made by `generate_typed` (seed 1, first five) for `latin:12`,
//! `sudoku:16`, `pandiagonal:11` and `futoshiki:7`, made once before
//! timing. Throughput is in puzzles per second.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ruledoku::generate::generate_typed;
use ruledoku::input::typed::parse_typed;
use ruledoku::model::{self, Constraint, Model};
use ruledoku::oracle::generic::{live_from_givens, solve};

/// A puzzle: its givens and its own signs.
type Puzzle = (Vec<Option<usize>>, Vec<Constraint>);

/// The CSP-Rules-Examples puzzles by type, in manifest order.
fn examples() -> BTreeMap<String, Vec<Puzzle>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/csp-rules");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest.tsv");
    let mut out: BTreeMap<String, Vec<Puzzle>> = BTreeMap::new();
    for row in manifest.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let (file, line, ty) = (f[0], f[1].parse::<usize>().expect("a line"), f[2]);
        let m = model::load(ty).expect("a built-in type");
        let text = std::fs::read_to_string(dir.join(file)).expect("a puzzle file");
        let p = parse_typed(&m, file, &text)
            .into_iter()
            .filter_map(Result::ok)
            .find(|p| p.line == line)
            .expect("the manifest's puzzle");
        out.entry(ty.to_string())
            .or_default()
            .push((p.givens, p.signs));
    }
    out
}

/// Solves every puzzle of type `m` to two solutions; how many are unique.
fn check_all(m: &Model, puzzles: &[Puzzle]) -> usize {
    let mut unique = 0;
    for (givens, signs) in puzzles {
        let own;
        let inst = if signs.is_empty() {
            m
        } else {
            own = m.with_constraints(signs);
            &own
        };
        let live = live_from_givens(inst, black_box(givens));
        unique += usize::from(matches!(
            solve(inst, &live),
            ruledoku::oracle::generic::Verdict::Unique(_)
        ));
    }
    unique
}

fn generic_oracle(c: &mut Criterion) {
    let mut samples: Vec<(String, String, Vec<Puzzle>)> = examples()
        .into_iter()
        .map(|(ty, p)| (format!("csp-rules/{ty}"), ty, p))
        .collect();
    for ty in ["latin:12", "sudoku:16", "pandiagonal:11", "futoshiki:7"] {
        let m = model::load(ty).expect("a built-in type");
        let p = (0..5)
            .map(|i| {
                let g = generate_typed(&m, 1, i);
                (g.puzzle, g.signs)
            })
            .collect();
        samples.push((format!("generated/{ty}"), ty.to_string(), p));
    }
    let mut group = c.benchmark_group("generic-oracle");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, ty, puzzles) in &samples {
        let m = model::load(ty).expect("a built-in type");
        assert_eq!(check_all(&m, puzzles), puzzles.len(), "{name}: all unique");
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(name, |b| b.iter(|| check_all(&m, puzzles)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // No plots (see benches/oracle.rs).
    config = Criterion::default().without_plots();
    targets = generic_oracle
}
criterion_main!(benches);
