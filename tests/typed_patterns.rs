//! Pattern rules over cells, digits and houses on other types
//! (`typed::pattern`): which rules apply where, and soundness — every
//! step of `sfin`, `basic` and `w-sfin` agrees with the puzzle's unique
//! solution on the CSP-Rules-Examples puzzles and on generated Latin
//! squares, 16×16 Sudoku and Futoshiki.

use ruledoku::engine::StopReason;
use ruledoku::generate::generate_typed;
use ruledoku::input::typed::parse_typed;
use ruledoku::model::{self, Model};
use ruledoku::oracle::generic::{Verdict, live_from_givens, solve};
use ruledoku::ruleset;
use ruledoku::search::ConclusionKind;
use ruledoku::typed::{self, TypedSet, engine::Options};
use std::path::PathBuf;
use std::sync::Arc;

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(p).expect("test data")
}

/// What runs of a set gave: puzzles, solved, steps by pattern rules
/// (neither singles nor whip[1]).
#[derive(Debug, Default, PartialEq)]
struct Tally {
    puzzles: usize,
    solved: usize,
    pattern_steps: usize,
}

/// Runs `tset` on a puzzle of `m` and checks each step against the
/// unique solution (and a solved grid against it).
fn check(m: &Arc<Model>, tset: &TypedSet, givens: &[Option<usize>], what: &str, t: &mut Tally) {
    let Verdict::Unique(sol) = solve(m, &live_from_givens(m, givens)) else {
        panic!("{what}: not unique");
    };
    let opts = Options {
        patterns: true,
        ..Options::default()
    };
    let run = typed::run(m, tset, givens, opts).expect("a frame");
    for s in &run.steps {
        for &z in &s.conclusions {
            let truth = sol[m.cand_cell(z)] == m.cand_symbol(z);
            assert_eq!(
                truth,
                s.kind == ConclusionKind::Assert,
                "{what}: wrong step {}",
                s.text(m)
            );
        }
        let name = &s.rule.head.name;
        if !name.contains("single") && name != "whip[1]" {
            t.pattern_steps += 1;
        }
    }
    match run.stop {
        StopReason::Solved => {
            t.solved += 1;
            for (c, v) in run.grid.iter().enumerate() {
                assert_eq!(*v, Some(sol[c]), "{what}");
            }
        }
        StopReason::Stuck => {}
        other => panic!("{what}: {other:?}"),
    }
    t.puzzles += 1;
}

/// `set` on the CSP-Rules examples of the types `wanted` accepts.
fn on_examples(set: &str, wanted: impl Fn(&str) -> bool) -> Tally {
    let set = ruleset::load(set).unwrap();
    let mut t = Tally::default();
    for row in data("csp-rules/manifest.tsv").lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let (file, line, ty) = (f[0], f[1].parse::<usize>().unwrap(), f[2]);
        if !wanted(ty) {
            continue;
        }
        let m = model::load(ty).unwrap();
        let p = parse_typed(&m, file, &data(&format!("csp-rules/{file}")))
            .into_iter()
            .filter_map(Result::ok)
            .find(|p| p.line == line)
            .unwrap();
        let m = Arc::new(m.with_constraints(&p.signs));
        let tset = typed::compile(&set, &m).unwrap();
        check(&m, &tset, &p.givens, &format!("{file}:{line}"), &mut t);
    }
    t
}

/// `set` on `n` puzzles of type `ty` made by the generator (seed 7).
fn on_generated(set: &str, ty: &str, n: u64) -> Tally {
    let set = ruleset::load(set).unwrap();
    let base = model::load(ty).unwrap();
    let mut t = Tally::default();
    for i in 0..n {
        let g = generate_typed(&base, 7, i);
        let m = Arc::new(base.with_constraints(&g.signs));
        let tset = typed::compile(&set, &m).unwrap();
        check(&m, &tset, &g.puzzle, &format!("{ty} #{i}"), &mut t);
    }
    t
}

#[test]
fn pattern_rules_apply_where_the_type_has_what_they_read() {
    let sfin = ruleset::load("sfin").unwrap();
    let names = |ty: &str| -> (Vec<String>, Vec<String>) {
        let t = typed::compile(&sfin, &model::load(ty).unwrap()).unwrap();
        (
            t.rules.iter().map(|r| r.rule.head.name.clone()).collect(),
            t.left_out.iter().map(|r| r.head.name.clone()).collect(),
        )
    };
    // Latin squares: subsets in rows and columns, fish; nothing over
    // blocks (subsets in a block, finned fish) and no hidden single in a
    // block.
    let (rules, left_out) = names("latin:9");
    assert!(rules.contains(&"naked-pairs-in-a-row".to_string()));
    assert!(rules.contains(&"swordfish-in-columns".to_string()));
    assert!(left_out.contains(&"naked-pairs-in-a-block".to_string()));
    assert!(left_out.contains(&"finned-x-wing-in-rows".to_string()));
    assert!(
        !rules
            .iter()
            .any(|r| r.contains("block") || r.starts_with("finned"))
    );
    // Sudoku 16×16: every rule of sfin but the other types' singles.
    let (rules, left_out) = names("sudoku:16");
    assert!(rules.contains(&"finned-jellyfish-in-columns".to_string()));
    assert!(rules.contains(&"hidden-quads-in-a-block".to_string()));
    assert!(left_out.iter().all(|r| r.starts_with("hidden-single-in-")));
    assert_eq!(
        rules.len() + left_out.len(),
        sfin.rules.len() + sfin.foreign.len()
    );
}

#[test]
fn pattern_rules_are_sound_on_csp_rules_examples() {
    // Latin squares, pandiagonal squares, Futoshiki and 16×16 Sudoku (the
    // larger Sudoku examples are in the ignored test below).
    let small = |ty: &str| !matches!(ty, "sudoku:25" | "sudoku:36" | "sudoku:49");
    let t = on_examples("sfin", small);
    assert_eq!(
        t,
        Tally {
            puzzles: 39,
            solved: 11,
            // Most are FutoRules' order rules (rules/futoshiki.rules).
            pattern_steps: 1321
        }
    );
    let t = on_examples("basic", small);
    assert_eq!(
        t,
        Tally {
            puzzles: 39,
            solved: 12,
            pattern_steps: 1323
        }
    );
}

#[test]
fn pattern_rules_are_sound_on_generated_puzzles() {
    let runs = [
        ("sfin", "latin:6", 40),
        ("sfin", "latin:9", 40),
        ("basic", "latin:9", 40),
        ("sfin", "sudoku:16", 5),
        ("sfin", "futoshiki:6", 40),
        ("basic", "futoshiki:7", 20),
        ("sfin", "sudoku:6", 40),
        ("basic", "pandiagonal:7", 20),
    ];
    let got: Vec<(usize, usize, usize)> = runs
        .iter()
        .map(|(set, ty, n)| {
            let t = on_generated(set, ty, *n);
            (t.puzzles, t.solved, t.pattern_steps)
        })
        .collect();
    assert_eq!(
        got,
        [
            (40, 39, 0),
            (40, 22, 39),
            (40, 22, 39),
            (5, 0, 31),
            (40, 22, 299),
            (20, 8, 230),
            (40, 39, 10),
            (20, 20, 2)
        ]
    );
}

/// The larger CSP-Rules Sudoku examples (25×25 to 49×49), and more
/// generated puzzles (a few minutes).
#[test]
#[ignore]
fn pattern_rules_are_sound_on_large_grids() {
    let large = |ty: &str| matches!(ty, "sudoku:25" | "sudoku:36" | "sudoku:49");
    let t = on_examples("sfin", large);
    assert_eq!(t.puzzles, 4);
    let t = on_generated("w-sfin", "latin:9", 200);
    assert_eq!(t.puzzles, 200);
    let t = on_generated("sfin", "sudoku:16", 50);
    assert_eq!(t.puzzles, 50);
    let t = on_generated("basic", "futoshiki:9", 100);
    assert_eq!(t.puzzles, 100);
}
