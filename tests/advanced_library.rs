//! The `advanced` rule library (rules/advanced/, issue 28): for each
//! technique, a cbg-000 puzzle whose `advanced` path uses it, and the
//! exact first step it makes there (pattern and eliminations). The
//! library's soundness is refereed with `--verify` over cbg-000 and
//! hard-972 (docs/advanced.md gives the hit counts).

mod common;

use common::matches::matches_shown;
use common::{ruledoku, shared_data, shipped};
use ruledoku::engine::{self, Limits};
use ruledoku::grid::geometry::{cand, cell};
use ruledoku::grid::state::State;
use ruledoku::lang::compile_source;
use ruledoku::path::render_run;
use ruledoku::{input, ruleset};

/// The lines of the `advanced` path of a puzzle that are steps of a rule
/// whose name starts with `rule`.
fn steps_of(puzzle: &str, rule: &str) -> Vec<String> {
    steps_in("advanced", puzzle, rule)
}

/// The lines of the path of a puzzle with the set `set` that are steps of
/// a rule whose name starts with `rule`.
fn steps_in(set: &str, puzzle: &str, rule: &str) -> Vec<String> {
    let set = ruleset::load(set).unwrap();
    let p = input::parse_puzzle(puzzle).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    render_run(&p.text, &set, &run)
        .lines()
        .filter(|l| l.starts_with(rule))
        .map(str::to_string)
        .collect()
}

/// Puzzle 975 of cbg-000: two Empty Rectangles, each with a conjugate
/// pair in column 1 (box 9's 5s lie in row 9 and column 9; r9c1 = r5c1
/// on 5, so r5c9 is not 5).
#[test]
fn empty_rectangle() {
    let p = ".23.567.94.6......7....1.6.23.9....1....43...9.......7...8.54..6..3..91.....6....";
    assert_eq!(
        steps_of(p, "empty-rectangle"),
        [
            "empty-rectangle-column-pair: n5b9 r9c9 n5r9c1=n5r5c1 ==> r5c9 ≠ 5",
            "empty-rectangle-column-pair: n8b6 r5c7 n8r5c1=n8r9c1 ==> r9c7 ≠ 8",
        ]
    );
}

/// Puzzle 3 of cbg-000: box 6's 9s lie in row 6 and column 8, and r7c8 =
/// r7c4 is a conjugate pair in row 7: r6c4 is not 9.
#[test]
fn empty_rectangle_with_a_row_pair() {
    let p = ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";
    assert_eq!(
        steps_of(p, "empty-rectangle"),
        ["empty-rectangle-row-pair: n9b6 r6c8 n9r7c8=n9r7c4 ==> r6c4 ≠ 9"]
    );
}

/// Unique Rectangle type 2: floor r3c1 r3c3 {7 9}, roof r5c1 r5c3 with the
/// extra 6: no cell seeing both roof cells (row 5, block 4) holds 6.
#[test]
fn unique_rectangle_type_2() {
    let p = ".2.4..7.94....91...8.1...6.........7....3251...8.6..4...429....5......34.....59..";
    assert_eq!(
        steps_of(p, "unique-rectangle-type-2"),
        [
            "unique-rectangle-type-2: {n7 n9} {r3c1 r3c3} {r5c1 r5c3}+{n6} ==> r5c9 ≠ 6, r4c3 ≠ 6, r4c2 ≠ 6, r4c1 ≠ 6"
        ]
    );
}

/// Unique Rectangle type 3: the roof's extra digits {4 5} with r7c8 and r8c8
/// make a naked triple {4 5 9} in column 8.
#[test]
fn unique_rectangle_type_3() {
    let p = "....5....45......37.9.2346...49..817.7....9..9........3....1..8....37.....15.2...";
    assert_eq!(
        steps_of(p, "unique-rectangle-type-3"),
        [
            "unique-rectangle-type-3-with-2-cells: {n2 n3} {r5c4 r6c4} {r5c8 r6c8}+{n4 n5} c8: {r7c8 r8c8}{n4 n5 n9} ==> r2c8 ≠ 9"
        ]
    );
}

/// Unique Rectangle type 4: 1 lies only in the roof cells in column 2, so
/// neither roof cell is 7.
#[test]
fn unique_rectangle_type_4() {
    let p = "1...56.8.4.....1....9..346............8..561..9.2..8.756.....7.....9......261....";
    assert_eq!(
        steps_of(p, "unique-rectangle-type-4"),
        ["unique-rectangle-type-4: {n1 n7} {r4c3 r8c3} {r4c2 r8c2} n1c2 ==> r8c2 ≠ 7, r4c2 ≠ 7"]
    );
}

/// Unique Rectangle type 6: floor r2c4 r5c5 {7 9} on a diagonal; 7 lies
/// only in the rectangle in rows 2 and 5, so neither roof cell is 7.
#[test]
fn unique_rectangle_type_6() {
    let p = ".23...7.94.....1........46..378.5.4..6......8.9.63.........7...67.3.1..2....6..1.";
    assert_eq!(
        steps_of(p, "unique-rectangle-type-6"),
        [
            "unique-rectangle-type-6-in-rows: {n7 n9} {r2c4 r5c5} {r2c5 r5c4} n7{r2 r5} ==> r5c4 ≠ 7, r2c5 ≠ 7"
        ]
    );
}

/// Hidden Rectangle: r3c8 {6 7}; 6 lies only in the rectangle in r1c6's
/// row and column, so r1c6 is not 7.
#[test]
fn hidden_rectangle() {
    let p = "...4....94.6.8.12.....2.4..2.49..6...98.6....6........5.......7....95..293...1.4.";
    assert_eq!(
        steps_of(p, "hidden-rectangle"),
        ["hidden-rectangle: {n6 n7} r3c8 r3c6 r1c8 r1c6 n6 ==> r1c6 ≠ 7"]
    );
}

/// Sue de Coq: r8c3 r9c3 {2 4 7 8} in column 3 and block 7, with r4c3 r5c3
/// {4 5 8} in the column and r7c2 {2 7} in the block.
#[test]
fn sue_de_coq() {
    let p = "1..4.6..945.....23..........1....8..3...........8.2.545....864..3...4.1.9...7...8";
    assert_eq!(
        steps_of(p, "sue-de-coq"),
        [
            "sue-de-coq-column-2-2-1: c3b7 {r8c3 r9c3}{n2 n4 n7 n8} {r4c3 r5c3}{n4 n5 n8} {r7c2}{n2 n7} ==> r8c1 ≠ 7, r3c3 ≠ 8"
        ]
    );
}

/// The lines of the path of a puzzle with the `advanced` set less its
/// colouring rules (which run before XY-Chains and ALS-XZ and take the
/// steps of the two puzzles below) that are steps of a rule whose name
/// starts with `rule`.
fn steps_before_colouring(puzzle: &str, rule: &str) -> Vec<String> {
    steps_in_advanced_without(&colouring_and_chains(), puzzle, rule)
}

/// The colouring rules and those of grouped-chains.rules and
/// nice-loops.rules.
fn colouring_and_chains() -> Vec<String> {
    let colouring = [
        "simple-colouring-wrap",
        "simple-colouring-trap",
        "multi-colouring-2",
        "multi-colouring-1",
        "3d-medusa-wrap",
        "3d-medusa-trap",
        "3d-medusa-empty-cell",
    ]
    .map(String::from);
    [&colouring[..], &alternating_chains()].concat()
}

/// The rules of grouped-chains.rules and nice-loops.rules (every length).
fn alternating_chains() -> Vec<String> {
    [
        "grouped-x-chain",
        "grouped-aic",
        "continuous-nice-loop",
        "discontinuous-nice-loop",
    ]
    .iter()
    .flat_map(|f| (2..=12).map(move |n| format!("{f}[{n}]")))
    .collect()
}

/// The lines of the path of a puzzle with `advanced` less the rules
/// `excluded` that are steps of a rule whose name starts with `rule`.
fn steps_in_advanced_without(excluded: &[String], puzzle: &str, rule: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("advanced-less.yaml");
    std::fs::write(
        &set,
        format!(
            "name: advanced-less\ndescription: advanced less some rules\nassumes-unique: true\n\
             exclude: [{}]\nfiles:\n  - advanced\n",
            excluded
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .unwrap();
    steps_in(set.to_str().unwrap(), puzzle, rule)
}

/// XY-Chains of 4 and 5 cells (in `advanced`, colouring takes this
/// puzzle first: `advanced-cbg13` snapshot; the grouped chains and loops,
/// after the XY-Chains, are left out too).
#[test]
fn xy_chain() {
    let p = "1..4.6..945.....23..........1....8..3...........8.2.545....864..3...4.1.9...7...8";
    assert_eq!(
        steps_before_colouring(p, "xy-chain"),
        [
            "xy-chain[4]: r1c2{n2 n7} - r3c1{n7 n8} - r8c1{n8 n6} - r8c5{n6 n2} ==> r1c5 ≠ 2",
            "xy-chain[5]: r3c1{n7 n8} - r8c1{n8 n6} - r9c2{n6 n4} - r9c3{n4 n2} - r7c2{n2 n7} ==> r1c2 ≠ 7",
        ]
    );
}

/// ALS-XZ: a bivalue cell (an ALS of one cell) and an ALS of five cells
/// in row 8, restricted common 7 (r7c9's 7 sees r8c8's and r8c9's),
/// eliminating 8 (in `advanced`, colouring, the grouped chains and loops
/// and the Hidden Rectangle take this puzzle first).
#[test]
fn als_xz() {
    let p = "1...5...9..67...2..8.1......1.....7.5..6..29.9.7..1......9..64.6.2......8..5.7...";
    // The Hidden Rectangle {5 7} r7c2 r7c9 r8c2 r8c9 (a corner beside the
    // bivalue r7c2 lacks 5) would take this puzzle first.
    let mut excluded = colouring_and_chains();
    excluded.push("hidden-rectangle".to_string());
    assert_eq!(
        steps_in_advanced_without(&excluded, p, "als-xz"),
        [
            "als-xz: {r7c9}{n7 n8} {r8c4 r8c5 r8c6 r8c8 r8c9}{n1 n3 n4 n5 n7 n8} x=n7 z=n8 ==> r8c7 ≠ 8"
        ]
    );
}

/// ALS chains (`nodes als`, rules/advanced/als-chains.rules) in the
/// `advanced` set, where everything before them is stuck. Puzzle 146 of
/// cbg-000: five sets from {r6c4 r6c6} (2 3 6: entered by 2, left by 3)
/// to {r4c1 r4c7 r4c8} (left by 2); 2 is in one of the two ends, so r6c1
/// (row 6 and block 4) and r4c4 (row 4 and block 5) are not 2. Puzzle
/// 663: chains of four sets, then five. Puzzle 36: three sets, one of
/// seven cells (ALS-XY-Wing's sets have four at most).
#[test]
fn als_chain() {
    let p146 = ".2......94....9......1235...3..78...6..5.1.3...5...4.73.2....4...8...3..94...72.6";
    assert_eq!(
        steps_of(p146, "als-chain"),
        [
            "als-chain[5]: {r6c4 r6c6}(236){n2 n3} - {r1c5 r2c5 r5c5 r6c5 r8c5}(345689){n3 n8} - {r2c3 r2c4}(678){n8 n6} - {r1c7 r2c7 r5c7 r7c7}(16789){n6 n9} - {r4c1 r4c7 r4c8}(1269){n9 n2} ==> r6c1 ≠ 2, r4c4 ≠ 2",
            "als-chain[5]: {r2c4 r9c4}(378){n7 n3} - {r6c4 r6c6}(236){n3 n6} - {r4c3 r4c4}(469){n6 n9} - {r4c7}(69){n9 n6} - {r1c7 r1c8 r2c7}(1678){n6 n7} ==> r1c4 ≠ 7",
        ]
    );
    let p663 = ".234..7....6....2...913...4.......58.7....6..8....4.1.....9.....4.3.1.7....5..83.";
    assert_eq!(
        steps_of(p663, "als-chain"),
        [
            "als-chain[4]: {r4c3 r6c3}(125){n1 n5} - {r4c4 r4c5 r6c4 r6c5}(25679){n5 n9} - {r2c4}(79){n9 n7} - {r7c1 r7c2 r7c4 r7c7 r7c9}(123567){n7 n1} ==> r7c3 ≠ 1",
            "als-chain[4]: {r6c3}(25){n2 n5} - {r4c4 r4c5 r6c4 r6c5}(25679){n5 n9} - {r2c4}(79){n9 n7} - {r7c1 r7c2 r7c4 r7c7 r7c9}(123567){n7 n2} ==> r7c3 ≠ 2",
            "als-chain[5]: {r5c9}(23){n2 n3} - {r6c3 r6c5 r6c7}(2356){n3 n6} - {r2c4 r4c4 r6c4}(2679){n6 n2} - {r7c4 r7c6 r9c6}(2678){n2 n8} - {r7c1 r7c2 r7c3 r8c1 r9c1 r9c2 r9c3}(12356789){n8 n2} ==> r9c9 ≠ 2",
        ]
    );
    let p36 = "123...7.9.5.7..1...8.....6..............7.9.28.7.6..5...56..........2..1.1.84..3.";
    assert_eq!(
        steps_of(p36, "als-chain"),
        [
            "als-chain[3]: {r9c1 r9c3}(269){n2 n6} - {r2c9 r3c9 r6c9 r7c9 r9c9}(345678){n6 n7} - {r4c1 r4c2 r4c4 r4c5 r4c6 r4c7 r4c9}(23456789){n7 n2} ==> r7c1 ≠ 2",
        ]
    );
}

/// Puzzle 2 of cbg-000 (`basic` leaves it stuck).
const CBG2: &str =
    "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75";

/// Doubly linked ALS-XZ: restricted commons 1 and 6; A's 5 and 8 (non
/// restricted) lose r1c1's and r1c2's 8, B's 8 and 3, 7 r6c4's 8, and
/// 6 of both r3c6's.
#[test]
fn als_xz_doubly_linked() {
    let steps = steps_in(
        "basic+rules/advanced/als-xz.rules",
        CBG2,
        "als-xz-doubly-linked",
    );
    assert_eq!(
        steps[..2],
        [
            "als-xz-doubly-linked: {r1c5 r1c6 r1c8}{n1 n5 n6 n8} {r2c4 r3c4 r5c4 r8c4}{n1 n3 n6 n7 n8} x=n1 y=n6 ==> r6c4 ≠ 8, r3c6 ≠ 6, r1c2 ≠ 8, r1c1 ≠ 8",
            "als-xz-doubly-linked: {r4c3 r5c3 r9c3}{n4 n5 n8 n9} {r4c7 r5c7}{n2 n5 n9} x=n5 y=n9 ==> r8c3 ≠ 8, r8c3 ≠ 4, r6c7 ≠ 2, r6c3 ≠ 8, r3c3 ≠ 8, r2c3 ≠ 8, r2c3 ≠ 4",
        ]
    );
}

/// Puzzle 3 of cbg-000, after the basic rules.
const CBG3: &str =
    ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";

/// ALS-XY-Wing: C the bivalue r4c3 {1 4}; A (3 cells, x = 4) and B (2
/// cells, y = 1) share 9.
#[test]
fn als_xy_wing() {
    assert_eq!(
        steps_in(
            "basic+rules/advanced/als-xy-wing.rules",
            CBG3,
            "als-xy-wing"
        ),
        [
            "als-xy-wing: {r4c4 r4c5 r6c4}{n3 n4 n6 n9} {r8c3 r8c5}{n1 n6 n9} C={r4c3}{n1 n4} x=n4 y=n1 z=n9 ==> r5c5 ≠ 9",
            "als-xy-wing: {r6c7}{n3 n5} {r7c2 r7c4 r7c8 r7c9}{n1 n4 n5 n6 n9} C={r6c4}{n3 n9} x=n3 y=n9 z=n5 ==> r8c7 ≠ 5, r6c9 ≠ 5",
        ]
    );
}

/// Death Blossom with stems of two cells (the same patterns as the
/// ALS-XY-Wings above, C a bivalue cell), then of three.
#[test]
fn death_blossom() {
    assert_eq!(
        steps_in(
            "basic+rules/advanced/death-blossom.rules",
            CBG3,
            "death-blossom"
        ),
        [
            "death-blossom-2: stem r4c3{n1 n4} petals {r8c3 r8c5}{n1 n6 n9} {r4c4 r4c5 r6c4}{n3 n4 n6 n9} z=n9 ==> r5c5 ≠ 9",
            "death-blossom-2: stem r6c4{n3 n9} petals {r6c7}{n3 n5} {r7c2 r7c4 r7c8 r7c9}{n1 n4 n5 n6 n9} z=n5 ==> r8c7 ≠ 5, r6c9 ≠ 5",
        ]
    );
    let three: Vec<String> = steps_in(
        "basic+rules/advanced/death-blossom.rules",
        CBG2,
        "death-blossom-3",
    );
    assert_eq!(
        three[..1],
        [
            "death-blossom-3: stem r6c1{n2 n5 n8} petals {r1c1 r1c5 r1c6 r1c8}{n1 n2 n5 n6 n8} {r2c3 r5c3 r9c3}{n4 n5 n6 n8} {r6c4 r6c5}{n1 n6 n8} z=n6 ==> r2c4 ≠ 6"
        ]
    );
}

/// The ALS generator on a built state: r1c1 {1 2} and r1c2 {1 3} (every
/// other cell with all nine digits) are two ALSs of one cell and one of
/// two, found in row 1 and not again in block 1; decided cells never
/// belong.
#[test]
fn als_generator_binds_each_set_once() {
    let rules = compile_source(
        "t.rules",
        "rule t {\n  complexity 1\n  let A: als size 1 to 2\n  eliminate cands(A)\n  show \"${A}${digits(A)}\"\n}\n",
    )
    .unwrap();
    let mut s = State::empty_grid();
    restrict(&mut s, &[(1, 1)], |d| d <= 2);
    restrict(&mut s, &[(1, 2)], |d| d == 1 || d == 3);
    let shown = matches_shown(&*rules[0].searcher, &s);
    assert_eq!(
        shown
            .iter()
            .map(|l| l.split(" ==>").next().unwrap())
            .collect::<Vec<_>>(),
        ["{r1c1}{n1 n2}", "{r1c2}{n1 n3}", "{r1c1 r1c2}{n1 n2 n3}"]
    );
    // r1c1 decided as 1: r1c2 keeps 3 alone, no ALS is left of 1 or 2
    // cells.
    s.assert(cand(cell(0, 0), 0));
    assert!(matches_shown(&*rules[0].searcher, &s).is_empty());
}

/// A Franken swordfish on 4: base rows 4, 8 and block 3, cover columns 6,
/// 7 and 9 (in `advanced`, the grouped chains and loops, and the ALS
/// rules, take this puzzle first).
#[test]
fn franken_fish() {
    let p = "1......894......2....2.156.2.597..3..7........6.3...1...7.6...8...59......28..65.";
    let mut excluded = alternating_chains();
    excluded.extend(
        [
            "als-xz-doubly-linked",
            "als-xz",
            "als-xy-wing",
            "death-blossom-2",
            "death-blossom-3",
        ]
        .map(String::from),
    );
    excluded.extend((3..=7).map(|n| format!("als-chain[{n}]")));
    assert_eq!(
        steps_in_advanced_without(&excluded, p, "franken"),
        [
            "franken-fish-3: n4 {r4 r8 b3} {c6 c7 c9} ==> r9c9 ≠ 4, r7c7 ≠ 4, r7c6 ≠ 4, r6c9 ≠ 4, r6c7 ≠ 4, r6c6 ≠ 4, r5c9 ≠ 4, r5c7 ≠ 4, r5c6 ≠ 4"
        ]
    );
}

/// Puzzle 21 of cbg-000 with `advanced-colouring`: a Simple Colouring
/// trap on 5 (r2c8 sees r2c2 of one colour and r4c8 of the other).
#[test]
fn simple_colouring_trap() {
    let p = "...4..789........3..9.234...1.8..6.76.7..2..8..............159...29..3...4.23...6";
    assert_eq!(
        steps_in("advanced-colouring", p, "simple-colouring"),
        ["simple-colouring-trap: n5: {n5r2c2 n5r4c3} / {n5r4c8 n5r5c2} ==> r2c8 ≠ 5"]
    );
}

/// Puzzle 205 of cbg-000 with `advanced-colouring`: a Multi-Colouring
/// type 1 on 5 (r1c1 sees r2c2; r8c3 sees r8c1 and r7c3, one of which is
/// 5).
#[test]
fn multi_colouring_1() {
    let p = "...4...89....8...37.91.....2.4.7.6...6.9....5.3.......34..........2.3.6.6..59..1.";
    assert_eq!(
        steps_in("advanced-colouring", p, "multi-colouring"),
        [
            "multi-colouring-1: n5: {n5r1c1} / {n5r8c1}, {n5r2c2 n5r3c7 n5r7c8} / {n5r2c8 n5r3c6 n5r7c3 n5r8c7} ==> r8c3 ≠ 5"
        ]
    );
}

/// Puzzle 3 of cbg-000 with `advanced-colouring`: a 3D Medusa trap
/// (5r8c1 sees 5r8c7 of one colour and 8r8c1 of the other).
#[test]
fn medusa_trap() {
    let p = ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";
    assert_eq!(
        steps_in("advanced-colouring", p, "3d-medusa"),
        [
            "3d-medusa-trap: {n3r6c7 n5r6c9 n5r8c7 n8r8c9 n8r9c1 n9r9c7 n3r9c9} / {n5r6c7 n8r8c1 n9r8c7 n9r9c1 n3r9c7 n8r9c9} ==> r8c1 ≠ 5"
        ]
    );
}

/// Simple Colouring wrap (no cbg-000 or hard-972 state has one that an
/// earlier rule does not take): digit 1 lies in row 1 only at r1c1 r1c7,
/// in column 7 only at r1c7 r5c7, in row 5 only at r5c7 r5c2, in column
/// 2 only at r5c2 r2c2, everywhere else in the grid. The cluster's colour
/// {r1c1 r5c7 r2c2} has two cells in block 1: it is false. The
/// candidates seeing both colours (the trap) are the wrapped colour's own
/// r1c1 and r2c2 and the cells of block 1 and row 2 seeing r1c7 or r5c2
/// and a cell of that colour; the 3D Medusa rules find the same cluster
/// (the other candidates of these cells make no strong link).
#[test]
fn simple_colouring_wrap() {
    let mut s = State::empty_grid();
    let mut gone = Vec::new();
    gone.extend((1..=9).filter(|&c| c != 1 && c != 7).map(|c| (1, c)));
    gone.extend((1..=9).filter(|&r| r != 1 && r != 5).map(|r| (r, 7)));
    gone.extend((1..=9).filter(|&c| c != 7 && c != 2).map(|c| (5, c)));
    gone.extend((1..=9).filter(|&r| r != 5 && r != 2).map(|r| (r, 2)));
    restrict(&mut s, &gone, |d| d != 1);
    assert_eq!(
        matches_of("advanced/colouring.rules", "simple-colouring-wrap", &s),
        ["n1: {n1r1c1 n1r2c2 n1r5c7} / {n1r1c7 n1r5c2} ==> n1r1c1 n1r2c2 n1r5c7"]
    );
    assert_eq!(
        matches_of("advanced/colouring.rules", "3d-medusa-wrap", &s),
        ["{n1r1c1 n1r2c2 n1r5c7} / {n1r1c7 n1r5c2} ==> n1r1c1 n1r2c2 n1r5c7"]
    );
}

/// Every match of the rule `name` of the shipped file `file` on `state`,
/// as steps read.
fn matches_of(file: &str, name: &str, state: &State) -> Vec<String> {
    let rules = compile_source(file, &shipped(file)).unwrap();
    let rule = rules.iter().find(|r| r.head.name == name).unwrap();
    matches_shown(&*rule.searcher, state)
}

/// The empty grid with candidates of digit `d` (1 to 9) left only where
/// `keep` says, in the cells that `cells` lists (row, column from 1).
fn restrict(state: &mut State, cells: &[(usize, usize)], keep: impl Fn(usize) -> bool) {
    for &(r, c) in cells {
        for d in 1..=9 {
            if !keep(d) {
                state.eliminate(cand(cell(r - 1, c - 1), d - 1));
            }
        }
    }
}

/// Unique Rectangle type 5 (no cbg-000 or hard-972 state has one before
/// the other rules): floor r1c1 and r2c4 {1 2}, roof r1c4 and r2c1
/// {1 2 3}, every other cell with all nine candidates. One roof cell is
/// 3: the cells that see both (row 1 in block 1, row 2 in block 2) lose
/// 3.
#[test]
fn unique_rectangle_type_5() {
    let mut s = State::empty_grid();
    restrict(&mut s, &[(1, 1), (2, 4)], |d| d <= 2);
    restrict(&mut s, &[(1, 4), (2, 1)], |d| d <= 3);
    assert_eq!(
        matches_of(
            "advanced/unique-rectangles.rules",
            "unique-rectangle-type-5",
            &s
        ),
        ["{n1 n2} {r1c1 r2c4} {r1c4 r2c1}+{n3} ==> n3r1c2 n3r1c3 n3r2c5 n3r2c6"]
    );
}

/// Mutant X-Wing (none in the corpora either): digit 1 lies in row 1
/// only at r1c2 r1c3 and in column 1 only at r2c1 r5c1, everywhere else
/// in the grid. Base {r1 c1}; covers {b1 r5} and {b1 b4}: 1 is false in
/// the cover outside the base.
#[test]
fn mutant_fish() {
    let mut s = State::empty_grid();
    let row1: Vec<_> = (1..=9)
        .filter(|&c| c != 2 && c != 3)
        .map(|c| (1, c))
        .collect();
    let col1: Vec<_> = (1..=9)
        .filter(|&r| r != 2 && r != 5)
        .map(|r| (r, 1))
        .collect();
    restrict(&mut s, &row1, |d| d != 1);
    restrict(&mut s, &col1, |d| d != 1);
    let shown = matches_of("advanced/franken-mutant-fish.rules", "mutant-fish-2", &s);
    assert_eq!(
        shown,
        [
            "n1 {r1 c1} {r5 b1} ==> n1r2c2 n1r2c3 n1r3c2 n1r3c3 n1r5c2 n1r5c3 n1r5c4 n1r5c5 n1r5c6 n1r5c7 n1r5c8 n1r5c9",
            "n1 {r1 c1} {b1 b4} ==> n1r2c2 n1r2c3 n1r3c2 n1r3c3 n1r4c2 n1r4c3 n1r5c2 n1r5c3 n1r6c2 n1r6c3",
        ]
    );
}

/// The referee run of the library: the `advanced` set over the first
/// 2,000 puzzles of cbg-000 (`../shared/data`, or `RULEDOKU_DATA`) makes
/// no wrong step, and each library rule makes the steps that
/// docs/advanced.md gives (about a minute).
#[test]
#[ignore]
fn advanced_set_is_sound_on_2000_cbg_puzzles() {
    let puzzles = shared_data("cbg-000").join("puzzles.txt");
    let run = ruledoku([
        "rate",
        "--rules",
        "advanced",
        "--verify",
        "--stats",
        "--no-time",
        "--limit",
        "2000",
        puzzles.to_str().unwrap(),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("verify: 2000 puzzles checked, 0 with a wrong step")
    );
    // Steps per rule (the fifth column of `--stats`, time left out).
    let steps = |rule: &str| -> usize {
        run.stderr
            .lines()
            .find_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f.first() == Some(&rule)).then(|| f[3].parse().unwrap())
            })
            .unwrap_or_else(|| panic!("no --stats line for {rule}"))
    };
    let counts: Vec<(&str, usize)> = EXPECTED_STEPS.iter().map(|&(r, _)| (r, steps(r))).collect();
    assert_eq!(counts, EXPECTED_STEPS);
}

/// Steps per library rule of the `advanced` set over the first 2,000
/// puzzles of cbg-000 (`--stats`), in the set's order.
const EXPECTED_STEPS: &[(&str, usize)] = &[
    ("skyscraper-in-rows", 264),
    ("skyscraper-in-columns", 179),
    ("2-string-kite", 836),
    ("turbot-fish-rn", 102),
    ("turbot-fish-cn", 97),
    ("empty-rectangle-column-pair", 131),
    ("empty-rectangle-row-pair", 128),
    ("w-wing-rn", 511),
    ("w-wing-cn", 244),
    ("w-wing-bn", 54),
    ("unique-rectangle-type-1", 56),
    ("unique-rectangle-type-2", 17),
    ("unique-rectangle-type-3-with-1-cells", 0),
    ("unique-rectangle-type-3-with-2-cells", 13),
    ("unique-rectangle-type-3-with-3-cells", 6),
    ("unique-rectangle-type-4", 59),
    ("unique-rectangle-type-5", 0),
    ("unique-rectangle-type-6-in-rows", 19),
    ("unique-rectangle-type-6-in-columns", 0),
    ("hidden-rectangle", 266),
    ("avoidable-rectangle-type-1", 3),
    ("avoidable-rectangle-type-2", 1),
    ("bug-plus-1", 17),
    ("sue-de-coq-row-2-1-1", 20),
    ("sue-de-coq-column-2-1-1", 29),
    ("sue-de-coq-row-2-1-2", 9),
    ("sue-de-coq-row-2-2-1", 9),
    ("sue-de-coq-column-2-1-2", 21),
    ("sue-de-coq-column-2-2-1", 12),
    ("sue-de-coq-row-2-2-2", 3),
    ("sue-de-coq-column-2-2-2", 3),
    ("sue-de-coq-row-3-1-1", 2),
    ("sue-de-coq-column-3-1-1", 14),
    ("sue-de-coq-row-3-1-2", 4),
    ("sue-de-coq-row-3-2-1", 1),
    ("sue-de-coq-column-3-1-2", 3),
    ("sue-de-coq-column-3-2-1", 1),
    ("sue-de-coq-row-3-2-2", 2),
    ("sue-de-coq-column-3-2-2", 2),
    ("simple-colouring-wrap", 0),
    ("simple-colouring-trap", 15),
    ("multi-colouring-2", 0),
    ("multi-colouring-1", 18),
    ("3d-medusa-wrap", 119),
    ("3d-medusa-trap", 401),
    ("3d-medusa-empty-cell", 23),
    ("grouped-x-chain[2]", 7),
    ("grouped-x-chain[3]", 45),
    ("grouped-x-chain[4]", 3),
    ("grouped-x-chain[5]", 0),
    ("grouped-x-chain[6]", 0),
    ("grouped-x-chain[7]", 0),
    ("grouped-x-chain[8]", 0),
    ("grouped-x-chain[9]", 0),
    ("grouped-x-chain[10]", 0),
    ("grouped-x-chain[11]", 0),
    ("grouped-x-chain[12]", 0),
    ("xy-chain[3]", 0),
    ("xy-chain[4]", 107),
    ("xy-chain[5]", 100),
    ("xy-chain[6]", 52),
    ("xy-chain[7]", 25),
    ("xy-chain[8]", 11),
    ("xy-chain[9]", 5),
    ("xy-chain[10]", 0),
    ("xy-chain[11]", 0),
    ("xy-chain[12]", 0),
    ("continuous-nice-loop[2]", 0),
    ("discontinuous-nice-loop[2]", 0),
    ("continuous-nice-loop[3]", 8),
    ("discontinuous-nice-loop[3]", 0),
    ("continuous-nice-loop[4]", 53),
    ("discontinuous-nice-loop[4]", 49),
    ("continuous-nice-loop[5]", 42),
    ("discontinuous-nice-loop[5]", 148),
    ("continuous-nice-loop[6]", 11),
    ("discontinuous-nice-loop[6]", 109),
    ("continuous-nice-loop[7]", 4),
    ("discontinuous-nice-loop[7]", 45),
    ("continuous-nice-loop[8]", 0),
    ("discontinuous-nice-loop[8]", 7),
    ("continuous-nice-loop[9]", 0),
    ("discontinuous-nice-loop[9]", 5),
    ("continuous-nice-loop[10]", 0),
    ("discontinuous-nice-loop[10]", 5),
    ("continuous-nice-loop[11]", 0),
    ("discontinuous-nice-loop[11]", 1),
    ("continuous-nice-loop[12]", 0),
    ("discontinuous-nice-loop[12]", 0),
    ("grouped-aic[2]", 0),
    ("grouped-aic[3]", 210),
    ("grouped-aic[4]", 211),
    ("grouped-aic[5]", 86),
    ("grouped-aic[6]", 24),
    ("grouped-aic[7]", 7),
    ("grouped-aic[8]", 2),
    ("grouped-aic[9]", 1),
    ("grouped-aic[10]", 0),
    ("grouped-aic[11]", 0),
    ("grouped-aic[12]", 0),
    ("als-xz-doubly-linked", 4),
    ("als-xz", 35),
    ("als-xy-wing", 43),
    ("als-chain[3]", 23),
    ("als-chain[4]", 28),
    ("als-chain[5]", 8),
    ("als-chain[6]", 1),
    ("als-chain[7]", 0),
    ("death-blossom-2", 0),
    ("death-blossom-3", 1),
    ("franken-fish-2", 0),
    ("franken-fish-3", 0),
    ("mutant-fish-2", 0),
    ("mutant-fish-3", 0),
    ("junior-exocet-in-columns", 0),
    ("junior-exocet-in-rows", 0),
    ("msls-2x2", 0),
    ("msls-2x3", 0),
    ("msls-2x4", 0),
    ("msls-3x2", 0),
    ("msls-3x3", 0),
    ("msls-3x4", 0),
    ("msls-4x2", 0),
    ("msls-4x3", 0),
    ("msls-4x4", 0),
];

/// The lines of the path of a puzzle with the basic set and the library
/// file `file` (rules/advanced/) that are steps of a rule whose name
/// starts with `rule`.
fn steps_with_file(file: &str, puzzle: &str, rule: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("basic-plus.yaml");
    let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules/advanced")
        .join(file);
    std::fs::write(
        &set,
        format!(
            "name: basic-plus\ndescription: basic and {file}\nfiles:\n  - basic\n  - {}\n",
            rules.display()
        ),
    )
    .unwrap();
    steps_in(set.to_str().unwrap(), puzzle, rule)
}

/// Grouped X-Chains (cbg-000 puzzles 12 and 14, basic set first): a
/// group at the end (`c1n7{r123 r5}`: r1c1–r3c1 weakly linked to r2c2 by
/// block 1), a group on the left of a strong link and on the right of a
/// weak one (`b2n5{r123c4 r1c5}`), and at the start (`b4n5{r4c3
/// r6c123}`: r6c9 sees every 5 of r6c1–r6c3).
#[test]
fn grouped_x_chain() {
    let p12 = "...4....94.6.8.12.....2.4..2.49..6...98.6....6........5.......7....95..293...1.4.";
    assert_eq!(
        steps_with_file("grouped-chains.rules", p12, "grouped-x-chain"),
        [
            "grouped-x-chain[2]: r2n7{c4 c2} - c1n7{r123 r5} ==> r5c4 ≠ 7",
            "grouped-x-chain[3]: r5n5{c8 c4} - b2n5{r123c4 r1c5} - c3n5{r1 r6} ==> r6c8 ≠ 5",
        ]
    );
    let p14 = "1.34..78.4...8........23.6....3..9....8...6.1....17...53........4.....369.72..5..";
    assert_eq!(
        steps_with_file("grouped-chains.rules", p14, "grouped-x-chain"),
        [
            "grouped-x-chain[2]: r3n5{c9 c3} - b4n5{r4c3 r6c123} ==> r6c9 ≠ 5",
            "grouped-x-chain[3]: b2n5{r2c6 r1c5} - r4n5{c5 c3} - r3n5{c3 c9} ==> r2c9 ≠ 5",
        ]
    );
}

/// Grouped AICs (cbg-000 puzzle 12, basic set and grouped X-Chains
/// first): ends of two digits in one cell and a row (r1c1 ≠ 7), a group
/// on both sides of a weak link (`r4n3{c8 c456} - r5n3{c456 c1}`: r4c4–6
/// and r5c4–6 in block 5) and at the end (`r5n7{c1 c789}`).
#[test]
fn grouped_aic() {
    let p12 = "...4....94.6.8.12.....2.4..2.49..6...98.6....6........5.......7....95..293...1.4.";
    assert_eq!(
        steps_with_file("grouped-chains.rules", p12, "grouped-aic"),
        [
            "grouped-aic[3]: r1n1{c1 c5} - r1n5{c5 c3} - r2c2{n5 n7} ==> r1c1 ≠ 7",
            "grouped-aic[4]: c1n7{r5 r3} - r3n1{c1 c4} - r5n1{c4 c9} - r5n4{c9 c6} ==> r5c6 ≠ 7",
            "grouped-aic[4]: c1n3{r5 r123} - r1c3{n3 n5} - c5n5{r1 r456} - r5n5{c4 c8} ==> r5c8 ≠ 3",
            "grouped-aic[3]: r4n3{c8 c456} - r5n3{c456 c1} - r5n7{c1 c789} ==> r4c8 ≠ 7",
            "grouped-aic[3]: r3c4{n1 n7} - c1n7{r3 r5} - r5n3{c1 c4} ==> r5c4 ≠ 1",
        ]
    );
}

/// The state where the `basic` set stops on a puzzle (the states of the
/// HoDoKu comparison, docs/advanced.md, "Compared with HoDoKu").
fn basic_stuck(puzzle: &str) -> State {
    let set = ruleset::load("basic").unwrap();
    let p = input::parse_puzzle(puzzle).unwrap();
    engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    )
    .state
}

/// A target whose shortest walk is not a chain still gets its shortest
/// chain: on cbg-000 #40 where `basic` stops (the comparison's state 40),
/// HoDoKu eliminates r5c5 ≠ 4 by the AIC `r4c5 =4= r4c8 -9- … r7c9 =4=
/// r5c9`; r5c5's shortest walks repeat a node, and the depth-first search
/// finds a chain of 5 strong links with pairwise disjoint nodes (the last
/// line: HoDoKu's, 4 of r4c8 weakly linked to its 9), both of its ends
/// (4 in r4c5 and in r5c9) seeing r5c5. Before, this rule had the first
/// four matches only.
#[test]
fn grouped_aic_shortest_chain_past_a_shortest_walk() {
    let s = basic_stuck(
        "...4...8.4.67...2...9.2..65..1.........6...5....2.83.76......7..47.1....9.25....1",
    );
    assert_eq!(
        matches_of("advanced/grouped-chains.rules", "grouped-aic[5]", &s),
        [
            "c1n7{r3 r5} - r5c5{n7 n4} - c9n4{r5 r7} - r7n8{c9 c4} - r8n8{c4 c1} ==> n8r3c1",
            "c1n7{r3 r5} - r5c5{n7 n4} - c9n4{r5 r7} - b9n8{r7c9 r9c7} - c2n8{r9 r3} ==> n8r3c1 n7r3c2",
            "r4c8{n9 n4} - c9n4{r5 r7} - r7c6{n4 n2} - r7c7{n2 n9} - r5n9{c7 c2} ==> n9r4c2",
            "r3c1{n7 n8} - c2n8{r3 r9} - b9n8{r9c7 r7c9} - c9n4{r7 r5} - r5c5{n4 n7} ==> n7r5c1",
            "r5c1{n3 n7} - r5c5{n7 n4} - c9n4{r5 r7} - b9n8{r7c9 r9c7} - r9c2{n8 n3} ==> n3r5c2 n3r8c1",
            "r4n4{c5 c8} - c8n9{r4 r8} - r7c7{n9 n2} - r7c6{n2 n4} - c9n4{r7 r5} ==> n4r5c5",
        ]
    );
}

/// Discontinuous Nice Loop, both links at the start strong (cbg-000 #3
/// where `basic` stops, the comparison's state 3): HoDoKu's `r1c7 =7= r1c2
/// -7- r3c1 =7= r7c1 =3= r4c1 -3- r4c7 =3= r2c7 =7= r1c7 => r1c7<>2,
/// r1c7<>9`. r1c7 not 7 would make it 7, so it is 7 and loses 2 and 9
/// (the first line, HoDoKu's chain); the second is the same loop from
/// r2c4 (7 in block 2: r2c4 or r3c5).
#[test]
fn discontinuous_nice_loop() {
    let s = basic_stuck(
        "..345..8.4.6.........1...65.1.5.8.7....3...919...........8.....6....7.3...1.3..57",
    );
    assert_eq!(
        matches_of(
            "advanced/nice-loops.rules",
            "discontinuous-nice-loop[5]",
            &s
        ),
        [
            "r1n7{c7 c2} - c1n7{r3 r7} - c1n3{r7 r4} - c7n3{r4 r2} - c7n7{r2 r1} ==> n2r1c7 n9r1c7",
            "r2n7{c4 c7} - c7n3{r2 r4} - c1n3{r4 r7} - c1n7{r7 r3} - b2n7{r3c5 r2c4} ==> n2r2c4 n9r2c4",
        ]
    );
}

/// Continuous Nice Loops (cbg-000 puzzles 3 and 14, basic set first):
/// every weak link concludes. In the first, 9 in block 7 (r8c1) and 3 in
/// row 6 (r6c8, r6c9); r9c7's weak link is inside a bivalue cell. In the
/// second, a group (`c5n5{r1 r456}`, weakly linked to r5c4 in block 5:
/// r4c6 and r5c6 lose 5), 9 in row 5 and block 5 (r5c6), and a weak link
/// inside r1c5 (5 and 9: its 6 is false); then a loop with two weak links
/// inside cells (r2c4 and r9c2 lose 1) and one in block 1 (r3c2 ≠ 7);
/// then, after the file's Discontinuous Nice Loops have placed more, two
/// loops of 4 (one with two groups of block 5).
#[test]
fn continuous_nice_loop() {
    let p3 = ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";
    assert_eq!(
        steps_with_file("nice-loops.rules", p3, "continuous-nice-loop"),
        [
            "continuous-nice-loop[4]: r6c4{n3 n9} - r7n9{c4 c1} - r9n9{c1 c7} - c7n3{r9 r6} ==> r8c1 ≠ 9, r6c9 ≠ 3, r6c8 ≠ 3",
        ]
    );
    let p14 = "1.34..78.4...8........23.6....3..9....8...6.1....17...53........4.....369.72..5..";
    assert_eq!(
        steps_with_file("nice-loops.rules", p14, "continuous-nice-loop"),
        [
            "continuous-nice-loop[3]: c5n5{r1 r456} - r5c4{n5 n9} - c5n9{r5 r1} ==> r5c6 ≠ 9, r5c6 ≠ 5, r4c6 ≠ 5, r1c5 ≠ 6",
            "continuous-nice-loop[5]: r2n7{c2 c4} - r2n6{c4 c3} - c2n6{r1 r9} - c2n8{r9 r3} - r3c1{n8 n7} ==> r9c2 ≠ 1, r3c2 ≠ 7, r2c4 ≠ 1",
            "continuous-nice-loop[4]: r4c3{n4 n5} - b5n5{r4c5 r5c456} - r5c8{n5 n4} - b5n4{r5c5 r4c456} ==> r4c9 ≠ 5, r4c9 ≠ 4, r4c8 ≠ 5",
            "continuous-nice-loop[4]: c3n4{r4 r6} - c9n4{r6 r9} - r9n8{c9 c6} - r4c6{n8 n4} ==> r6c8 ≠ 4, r4c5 ≠ 4",
        ]
    );
}

/// Loops of two conjugate pairs (built state: digit 1 only in columns 1
/// and 2 of rows 1 and 2, every other candidate left). The rows' pairs
/// close two loops: crossed, through block 1 only (r1c2–r2c1 and
/// r2c2–r1c1: 1 leaves the rest of block 1), and straight, an X-Wing (its
/// weak links in the columns and block 1: 1 leaves the rest of columns 1
/// and 2 and of block 1, r3c3 a locked candidate). Each is reported once,
/// not once per start and direction.
#[test]
fn loops_of_two_conjugate_pairs() {
    let mut s = State::empty_grid();
    let rows: Vec<_> = (1..=2).flat_map(|r| (3..=9).map(move |c| (r, c))).collect();
    restrict(&mut s, &rows, |d| d != 1);
    let shown = matches_of("advanced/nice-loops.rules", "continuous-nice-loop[2]", &s);
    assert_eq!(
        shown,
        [
            "r1n1{c1 c2} - r2n1{c1 c2} ==> n1r3c1 n1r3c2 n1r3c3",
            "r1n1{c1 c2} - r2n1{c2 c1} ==> n1r3c1 n1r3c2 n1r3c3 n1r4c1 n1r4c2 n1r5c1 n1r5c2 n1r6c1 n1r6c2 n1r7c1 n1r7c2 n1r8c1 n1r8c2 n1r9c1 n1r9c2",
        ]
    );
}

/// Junior Exocet on the Golden Nugget (no cbg-000 or hard-972 state of
/// the basic set, or of `advanced`, has one; the Golden Nugget's is the
/// pattern's classic example): base r1c7 r2c7 {1 2 4 7} in block 3,
/// S cells in rows 3, 4 and 7 outside stack 3, targets r4c8 and r7c9
/// (companions r6c8 and r9c9 hold no base digit), so r7c9 is not 3.
#[test]
fn junior_exocet() {
    let gn = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....";
    assert_eq!(
        steps_with_file("junior-exocet.rules", gn, "junior-exocet"),
        ["junior-exocet-in-rows: base {r1c7 r2c7}{n1 n2 n4 n7} targets {r4c8 r7c9} ==> r7c9 ≠ 3"]
    );
}

/// MSLS on cbg-000 puzzle 13 (basic set first): r3c1 {7 8}, r3c2 {8 9},
/// r6c1 {6 7}, r6c2 {6 9}; 6 lies in row 6, 7 in column 1, 8 in row 3
/// (and block 1), 9 in column 2: four houses for four cells, so 7 is
/// false in r8c1 and 8 in r3c3 (row 3 and block 1).
#[test]
fn msls_on_cbg_13() {
    let p13 = "1..4.6..945.....23..........1....8..3...........8.2.545....864..3...4.1.9...7...8";
    assert_eq!(
        steps_with_file("msls.rules", p13, "msls"),
        ["msls-2x2: {r3c1 r3c2 r6c1 r6c2} {n6 n7 n8 n9} ==> r8c1 ≠ 7, r3c3 ≠ 8"]
    );
}

/// MSLS on a built state: r1c1, r1c4, r4c1 and r4c4 hold {1 2}, every other cell
/// all nine digits. Rows 1 and 4 by columns 1 and 4: four cells, and
/// each of the two digits is covered by two rows or two columns (a tie:
/// both eliminate), so 1 and 2 are false in rows 1 and 4 and columns 1
/// and 4 outside the four cells.
#[test]
fn msls() {
    let mut s = State::empty_grid();
    restrict(&mut s, &[(1, 1), (1, 4), (4, 1), (4, 4)], |d| d <= 2);
    let shown = matches_of("advanced/msls.rules", "msls-2x2", &s);
    assert_eq!(shown.len(), 1, "{shown:?}");
    let (pattern, elims) = shown[0].split_once(" ==> ").unwrap();
    assert_eq!(pattern, "{r1c1 r1c4 r4c1 r4c4} {n1 n2}");
    let elims: Vec<&str> = elims.split(' ').collect();
    // Two digits, each in rows 1 and 4 (seven cells each outside the
    // crossing) and columns 1 and 4 (seven each).
    assert_eq!(elims.len(), 56);
    assert!(
        elims.contains(&"n1r1c2") && elims.contains(&"n2r9c4"),
        "{elims:?}"
    );
    assert!(
        !elims
            .iter()
            .any(|e| e.ends_with("r1c1") || e.starts_with("n3")),
        "{elims:?}"
    );
    // Every other size finds nothing here.
    for name in ["msls-2x3", "msls-3x3", "msls-4x4"] {
        assert!(
            matches_of("advanced/msls.rules", name, &s).is_empty(),
            "{name}"
        );
    }
}
