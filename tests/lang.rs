//! The rule language front end: expansion counts, placement of filters,
//! all-errors-at-once diagnostics, and no panic on any input.

mod common;

use common::{root, shipped};
use proptest::prelude::*;
use ruledoku::lang::compile_source;
use ruledoku::rating::Rating;
use ruledoku::search::pattern::Instr;

#[test]
fn families_expand_to_one_rule_per_tuple() {
    let rules = compile_source("subsets.rules", &shipped("subsets.rules")).unwrap();
    // naked and hidden: 6 sizes x 3 house kinds; fish: 3 sizes x 2 orientations.
    assert_eq!(rules.len(), 18 + 18 + 6);
    let names: Vec<&str> = rules.iter().map(|r| r.head.name.as_str()).collect();
    assert!(names.contains(&"naked-pairs-in-a-row"));
    assert!(names.contains(&"hidden-septuplets-in-a-block"));
    assert!(names.contains(&"jellyfish-in-columns"));
    let swordfish = rules
        .iter()
        .find(|r| r.head.name == "swordfish-in-rows")
        .unwrap();
    assert_eq!(
        (swordfish.head.complexity, swordfish.head.level),
        (302, Rating::level(3))
    );
    assert_eq!(swordfish.head.label.as_deref(), Some("SHT"));
    assert_eq!(swordfish.head.docs.len(), 3);
}

#[test]
fn filters_run_right_after_the_generators_they_need() {
    let src = "rule t {
        complexity 1
        let H: row
        let C: 2 cell in cells(H)
        where |H| > 3
        let D = digits(C)
        where |D| == 2
        eliminate cands(H) & cands(D) - cands(C)
    }";
    let rules = compile_source("t.rules", src).unwrap();
    let kinds: Vec<&str> = rules[0]
        .plan()
        .unwrap()
        .instrs
        .iter()
        .map(|s| match s {
            Instr::Gen { .. } => "gen",
            Instr::Def { .. } => "def",
            Instr::Filter(_) => "filter",
            Instr::Walk(_) => "walk",
            Instr::Cluster(_) => "cluster",
            Instr::Als(_) => "als",
        })
        .collect();
    // `|H| > 3` is written after C's generator but only needs H: it runs before C.
    assert_eq!(kinds, ["gen", "filter", "gen", "def", "filter"]);
}

/// A working name (a leading underscore) is left out of what a match
/// shows: its slot has no shape, so pictures do not draw it; the other
/// names keep theirs.
#[test]
fn working_names_are_no_part_of_the_picture() {
    use ruledoku::search::pattern::{Elem, Shape};
    let src = "rule t {
        complexity 1
        let H: row
        let _P = select(x in digits(H): |cands(H) & cands(x)| == 2)
        let X: digit in _P
        let C = cells(cands(H) & cands(X))
        eliminate cands(C) - cands(X)
    }";
    let drawn = |src: &str| -> Vec<Shape> {
        let rules = compile_source("t.rules", src).unwrap();
        rules[0]
            .plan()
            .unwrap()
            .slot_shapes
            .iter()
            .flatten()
            .copied()
            .collect()
    };
    let (row, digit, cells) = (
        Shape::One(Elem::Row),
        Shape::One(Elem::Digit),
        Shape::Set(Elem::Cell),
    );
    assert_eq!(drawn(src), [row, digit, cells]);
    // Named without the underscore, the digits are drawn.
    assert_eq!(
        drawn(&src.replace("_P", "P")),
        [row, Shape::Set(Elem::Digit), digit, cells]
    );
}

#[test]
fn every_error_of_a_file_is_reported_with_its_position() {
    let src = "rule a {
    complexity 1
    let V: rc
    where |V| == frob(V)
    eliminate W
}

rule b{N} for N in 2..=3 {
    complexity N
    let C: M cell
    let U: digit
    assert C
}
";
    let errs = compile_source("bad.rules", src).unwrap_err();
    let got: Vec<(usize, usize, &str)> = errs
        .iter()
        .map(|d| (d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                4,
                18,
                "unknown function `frob`, expected one of cands, digits, cells, rows, columns, blocks, houses, vars, linked, forcing_whips, contrad_whips, strict_contrad_whips, or_whips, peers, first, last, count, within, row, column, block, band, stack, digit, value, given, below, above, rise, run, cell, number, area, cages"
            ),
            (5, 15, "unknown name `W`"),
            (
                10,
                12,
                "unbounded family: size `M` is not a family parameter"
            ),
            (11, 9, "unused variable `U`"),
        ]
    );
    assert!(errs[1].excerpt.contains("eliminate W"));
    assert!(errs[1].excerpt.contains("^"));
}

#[test]
fn syntax_errors_say_what_was_expected() {
    let errs =
        compile_source("s.rules", "rule x {\n  complexity 1\n  lett V: rc\n}\n").unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!((errs[0].line, errs[0].column), (3, 3));
    assert!(
        errs[0].message.starts_with("syntax error: expected"),
        "{}",
        errs[0].message
    );
    assert!(errs[0].message.contains("`let`"), "{}", errs[0].message);
}

#[test]
fn type_errors_name_both_types() {
    let src = "rule x {\n complexity 1\n let V: rc\n where |V| == cands(V)\n assert V\n}\n";
    let errs = compile_source("t.rules", src).unwrap_err();
    assert_eq!(
        errs[0].message,
        "type mismatch: `==` between integer and set of cand"
    );
}

#[test]
fn every_shipped_rule_file_compiles() {
    for f in std::fs::read_dir(root().join("rules")).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "rules") {
            let src = std::fs::read_to_string(&p).unwrap();
            if let Err(e) = compile_source(&p.display().to_string(), &src) {
                panic!("{}", ruledoku::lang::Diagnostics(e));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_text_never_panics(s in "\\PC{0,200}") {
        let _ = compile_source("r.rules", &s);
    }

    #[test]
    fn damaged_rule_files_never_panic(start in 0usize..4000, len in 0usize..40, junk in "[ -~]{0,5}") {
        let src = shipped("finned-fish.rules") + &shipped("wings.rules");
        let start = start.min(src.len());
        let end = (start + len).min(src.len());
        if src.is_char_boundary(start) && src.is_char_boundary(end) {
            let damaged = format!("{}{}{}", &src[..start], junk, &src[end..]);
            let _ = compile_source("r.rules", &damaged);
        }
    }
}

/// Diagnostics come in a fixed order (by line and column), whatever the
/// order the checker found them in: several unused variables, an unknown
/// name before them and a type error after.
#[test]
fn diagnostics_come_in_a_fixed_order() {
    let src = "rule x {
    complexity 1
    let Z = frob
    let V: rc
    let A = cands(V)
    let B = cands(V)
    let C = cands(V)
    let D = cands(V)
    where |V| == cands(V)
    assert V
}
";
    let first: Vec<(usize, usize, String)> = compile_source("o.rules", src)
        .unwrap_err()
        .into_iter()
        .map(|d| (d.line, d.column, d.message))
        .collect();
    assert_eq!(
        first.iter().map(|(l, c, _)| (*l, *c)).collect::<Vec<_>>(),
        [
            (3, 9),
            (3, 13),
            (5, 9),
            (6, 9),
            (7, 9),
            (8, 9),
            (9, 11),
            (10, 12)
        ]
    );
    for _ in 0..20 {
        let again: Vec<(usize, usize, String)> = compile_source("o.rules", src)
            .unwrap_err()
            .into_iter()
            .map(|d| (d.line, d.column, d.message))
            .collect();
        assert_eq!(again, first);
    }
}
