//! The puzzles of CSP-Rules-Examples (tests/data/csp-rules, see its
//! README): each reads with its type, has exactly one solution by the
//! generic oracle, and that solution satisfies every CSP variable (one
//! true candidate) and every link (never two true candidates linked) of
//! the type, signs included.

use ruledoku::input::typed::parse_typed;
use ruledoku::model;
use ruledoku::oracle::generic::{Verdict, live_from_givens, solve};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/csp-rules")
}

/// The types whose examples take the generic oracle half a second to a
/// second each (36×36 and 49×49 Sudoku, solved by probing at the root):
/// the ignored test covers them. The quick test holds the hard 13×13
/// pandiagonals (`DB#1-15`: 2.5 million nodes without the tie-break of
/// the branching rule) and 25×25 Sudoku (`ton-25x25-W3`: minutes without
/// probing).
const SLOW: &[&str] = &["sudoku:36", "sudoku:49"];

#[test]
fn every_quick_example_reads_and_has_one_solution() {
    assert_eq!(check_examples(false), 43 - 1 - 1);
}

#[test]
#[ignore = "seconds: the 36×36 and 49×49 Sudoku"]
fn every_example_reads_and_has_one_solution() {
    assert_eq!(check_examples(true), 43);
}

/// Checks the examples (the slow types' too when `all`); how many.
fn check_examples(all: bool) -> usize {
    let manifest = std::fs::read_to_string(dir().join("manifest.tsv")).unwrap();
    let mut checked = 0;
    for row in manifest.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let (file, line, ty, source) = (f[0], f[1].parse::<usize>().unwrap(), f[2], f[5]);
        if !all && SLOW.contains(&ty) {
            continue;
        }
        let m = model::load(ty).unwrap();
        let text = std::fs::read_to_string(dir().join(file)).unwrap();
        let records = parse_typed(&m, file, &text);
        let p = records
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .find(|p| p.line == line)
            .unwrap_or_else(|| panic!("{file}:{line} ({source}) does not read"));
        let inst = m.with_constraints(&p.signs);
        let Verdict::Unique(sol) = solve(&inst, &live_from_givens(&inst, &p.givens)) else {
            panic!("{file}:{line} ({source}) has not exactly one solution");
        };
        // The solution keeps the givens, and holds one candidate of each
        // variable and no linked pair.
        let truth: Vec<usize> = sol
            .iter()
            .enumerate()
            .map(|(c, &s)| inst.cand(c, s))
            .collect();
        for (c, g) in p.givens.iter().enumerate() {
            if let Some(g) = g {
                assert_eq!(*g, sol[c]);
            }
        }
        let is_true = |z: usize| sol[inst.cand_cell(z)] == inst.cand_symbol(z);
        for v in 0..inst.n_vars {
            assert_eq!(
                inst.var_cands(v).filter(|&z| is_true(z)).count(),
                1,
                "{}",
                inst.var_name(v)
            );
        }
        for &z in &truth {
            for w in inst.links(z) {
                assert!(
                    !is_true(w),
                    "{file}:{line}: {} and {} linked",
                    inst.cand_name(z),
                    inst.cand_name(w)
                );
            }
        }
        assert!(
            records.iter().all(Result::is_ok),
            "{file}: a record does not read"
        );
        checked += 1;
    }
    checked
}
