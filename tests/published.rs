//! Published variant puzzles (issue 24), each with its provenance in
//! tests/data/published: solved with `--verify` (no wrong step), the grid
//! solved being the published solution, and the start's picture checked
//! by pixels (the variant's marks drawn).

mod common;

use common::pixels::{count_near, raster};
use common::*;
use ruledoku::draw::style;
use ruledoku::draw::svg::{Layout, Svg};
use ruledoku::draw::typed::TypedPictures;
use ruledoku::engine::Limits;
use ruledoku::input::typed::parse_typed;
use ruledoku::typed::engine::Options;
use std::sync::Arc;

fn published(name: &str) -> String {
    data(&format!("published/{name}")).display().to_string()
}

/// Solves `NAME.txt` of type `NAME.yaml` with `set` and `--verify`: no
/// wrong step, and the grid is `NAME.solution`.
fn solved_as_published(name: &str, set: &str) -> Run {
    let run = ruledoku([
        "solve",
        "--type",
        &published(&format!("{name}.yaml")),
        "--rules",
        set,
        "--no-time",
        "--verify",
        &published(&format!("{name}.txt")),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "verify: 1 puzzle checked, 0 with a wrong step"
    );
    let grid: String = run
        .lines()
        .iter()
        .filter(|l| l.starts_with("   "))
        .map(|l| l.trim())
        .collect();
    let want = std::fs::read_to_string(published(&format!("{name}.solution"))).unwrap();
    assert_eq!(grid, want.trim());
    run
}

#[test]
fn the_published_x_sudoku_is_solved_and_drawn_with_its_diagonals() {
    let run = solved_as_published("x-sudoku-6", "w");
    assert!(run.has_line("rating: HS (level 0, hardest rule: hidden-single-in-a-column)"));
    // Its start: both diagonals drawn corner to corner, nothing of their
    // ink off them.
    let m = Arc::new(ruledoku::model::load(&published("x-sudoku-6.yaml")).unwrap());
    let text = std::fs::read_to_string(published("x-sudoku-6.txt")).unwrap();
    let p = parse_typed(&m, "x-sudoku-6.txt", &text)
        .into_iter()
        .next()
        .expect("a record")
        .expect("a puzzle");
    let set = ruledoku::ruleset::load("singles").unwrap();
    let tset = ruledoku::typed::compile(&set, &m).unwrap();
    let opts = Options {
        limits: Limits {
            max_steps: Some(0),
            max_time: None,
        },
        patterns: true,
        max_memory: None,
        pictures: true,
        stats: false,
    };
    let run = ruledoku::typed::run(&m, &tset, &p.givens, opts).expect("a frame");
    let fig = TypedPictures::new(&m, &p.givens).grid(run.start.as_ref().expect("pictures kept"));
    assert_eq!(fig.sheet.diagonals, vec![false, true]);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    let cell = lay.cell;
    // Main diagonal: through r2c2's top-left quarter; anti-diagonal:
    // through r2c5's top-right quarter (r2c5 is cell 10).
    let (x, y) = lay.cell_origin(7);
    assert!(
        count_near(
            &pm,
            (x + cell / 4.0, y + cell / 4.0),
            1.5,
            style::DIAGONAL_INK
        ) > 0
    );
    let (x, y) = lay.cell_origin(10);
    assert!(
        count_near(
            &pm,
            (x + 3.0 * cell / 4.0, y + cell / 4.0),
            1.5,
            style::DIAGONAL_INK
        ) > 0
    );
    // Off both: r2c3's top-left quarter.
    let (x, y) = lay.cell_origin(8);
    assert_eq!(
        count_near(
            &pm,
            (x + cell / 4.0, y + cell / 4.0),
            1.5,
            style::DIAGONAL_INK
        ),
        0
    );
}
