//! Published variant puzzles (issue 24), each with its provenance in
//! tests/data/published: solved with `--verify` (no wrong step), the grid
//! solved being the published solution, its rating asserted, and the
//! start's picture checked by pixels (the variant's marks drawn). One
//! puzzle per kind: X-Sudoku (x-sudoku-6), jigsaw (piggly-wiggly), XV
//! (finger-counting), non-consecutive (our-lady-of-the-adjacent, and
//! the Miracle), Kropki (alien-abacus), thermometers (swirl-of-steam),
//! anti-knight and anti-king (the Miracle), killer cages (killer-ukpa;
//! the Wikipedia killer is in tests/killer.rs), greater-than signs
//! (Otto Janko's comparison Sudokus Nr. 190 and 123). The kaji puzzles
//! are f-puzzles records, read by `--type f-puzzles`.

mod common;

use common::pixels::{count_in, count_near, raster};
use common::*;
use ruledoku::draw::Figure;
use ruledoku::draw::style;
use ruledoku::draw::svg::{Layout, Svg};
use ruledoku::draw::typed::TypedPictures;
use ruledoku::engine::Limits;
use ruledoku::input::fpuzzles;
use ruledoku::input::typed::parse_typed;
use ruledoku::model::Model;
use ruledoku::typed::engine::Options;
use std::sync::Arc;

fn published(name: &str) -> String {
    data(&format!("published/{name}")).display().to_string()
}

/// Solves `input` of type `ty` with `set` and `--verify`: no wrong step,
/// and the grid is `NAME.solution`.
fn solved_to_solution(ty: &str, set: &str, input: &str, name: &str) -> Run {
    let run = ruledoku([
        "solve",
        "--type",
        ty,
        "--rules",
        set,
        "--no-time",
        "--verify",
        input,
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

/// Solves `NAME.txt` of type `NAME.yaml` with `set` and `--verify`: no
/// wrong step, and the grid is `NAME.solution`.
fn solved_as_published(name: &str, set: &str) -> Run {
    solved_to_solution(
        &published(&format!("{name}.yaml")),
        set,
        &published(&format!("{name}.txt")),
        name,
    )
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
            max_memory: None,
            max_cpu: None,
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

/// The start's picture of `givens` on `m` (no step run).
fn start_figure(m: &Arc<Model>, givens: &[Option<usize>]) -> Figure {
    let set = ruledoku::ruleset::load("singles").unwrap();
    let tset = ruledoku::typed::compile(&set, m).unwrap();
    let opts = Options {
        limits: Limits {
            max_steps: Some(0),
            max_time: None,
            max_memory: None,
            max_cpu: None,
        },
        patterns: true,
        max_memory: None,
        pictures: true,
        stats: false,
    };
    let run = ruledoku::typed::run(m, &tset, givens, opts).expect("a frame");
    TypedPictures::new(m, givens).grid(run.start.as_ref().expect("pictures kept"))
}

/// The f-puzzles record of `NAME.fpuzzles` (its one line that is not a
/// comment): its JSON, its model and givens.
fn fpuzzle(name: &str) -> (serde_json::Value, Arc<Model>, Vec<Option<usize>>) {
    let text = std::fs::read_to_string(published(&format!("{name}.fpuzzles"))).unwrap();
    let line = text
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .expect("a record");
    let json = fpuzzles::decode(line).unwrap();
    let p = fpuzzles::from_json(&json).unwrap();
    let m = Arc::new(Model::build(p.spec));
    (serde_json::from_str(&json).unwrap(), m, p.givens)
}

/// Solves `NAME.fpuzzles` with `w` and `--verify`: no wrong step, the grid
/// is `NAME.solution`, the rating line is `rating`.
fn fpuzzle_solved_as_published(name: &str, rating: &str) -> Run {
    let run = solved_to_solution(
        "f-puzzles",
        "w",
        &published(&format!("{name}.fpuzzles")),
        name,
    );
    assert!(run.has_line(rating), "{}", run.stdout);
    run
}

/// The cell `"R3C2"` (f-puzzles' name) as an index on an `n`-grid.
fn cell_of(name: &str, n: usize) -> usize {
    let (r, c) = name[1..].split_once('C').expect("RxCy");
    (r.parse::<usize>().unwrap() - 1) * n + c.parse::<usize>().unwrap() - 1
}

/// The middle of the border between two orthogonal neighbours.
fn border(lay: &Layout, a: usize, b: usize) -> (f64, f64) {
    let (p, q) = (lay.cell_center(a), lay.cell_center(b));
    ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0)
}

/// Every border between two orthogonal neighbours of an `n`-grid.
fn borders(n: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n {
                v.push((r * n + c, r * n + c + 1));
            }
            if r + 1 < n {
                v.push((r * n + c, (r + 1) * n + c));
            }
        }
    }
    v
}

#[test]
fn the_published_jigsaw_is_solved_and_drawn_with_its_regions() {
    fpuzzle_solved_as_published(
        "piggly-wiggly",
        "rating: W[1] (level 1, hardest rule: whip[1])",
    );
    let (json, m, givens) = fpuzzle("piggly-wiggly");
    let fig = start_figure(&m, &givens);
    let region: Vec<u64> = json["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter())
        .enumerate()
        // A cell without `region` is in f-puzzles' usual 2×3 block.
        .map(|(i, c)| {
            c["region"]
                .as_u64()
                .unwrap_or((i / 12 * 2 + i % 6 / 3) as u64)
        })
        .collect();
    assert_eq!(region.len(), 36);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    // Each of the 60 borders is thick (black) exactly when it parts two
    // regions.
    let mut thick = 0;
    for (a, b) in borders(6) {
        let ink = count_near(&pm, border(&lay, a, b), 2.0, style::INK);
        if region[a] != region[b] {
            thick += 1;
            assert!(
                ink > 10,
                "r{}c{} | r{}c{}: {ink}",
                a / 6 + 1,
                a % 6 + 1,
                b / 6 + 1,
                b % 6 + 1
            );
        } else {
            assert_eq!(
                ink,
                0,
                "r{}c{} | r{}c{}",
                a / 6 + 1,
                a % 6 + 1,
                b / 6 + 1,
                b % 6 + 1
            );
        }
    }
    assert!(thick > 10, "{thick}");
}

#[test]
fn the_published_xv_sudoku_is_solved_and_drawn_with_its_marks() {
    fpuzzle_solved_as_published(
        "finger-counting",
        "rating: W[1] (level 1, hardest rule: whip[1])",
    );
    let (json, m, givens) = fpuzzle("finger-counting");
    let fig = start_figure(&m, &givens);
    let marks: Vec<(usize, usize, String)> = json["xv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            let cells = x["cells"].as_array().unwrap();
            let (a, b) = (
                cell_of(cells[0].as_str().unwrap(), 6),
                cell_of(cells[1].as_str().unwrap(), 6),
            );
            (a.min(b), a.max(b), x["value"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(marks.len(), 9);
    let mut drawn: Vec<(usize, usize, String)> = fig
        .sheet
        .letters
        .iter()
        .map(|l| (l.a.min(l.b), l.a.max(l.b), l.text.clone()))
        .collect();
    drawn.sort();
    let mut want = marks.clone();
    want.sort();
    assert_eq!(drawn, want);
    let svg = Svg::file().render(&fig);
    assert_eq!(svg.matches(">X</text>").count(), 4);
    assert_eq!(svg.matches(">V</text>").count(), 5);
    // The rasteriser here has no fonts: each letter's white patch is seen
    // by the grid line it interrupts (grey on every other inner border
    // that is not a block's).
    let lay = Layout::of(&fig);
    let pm = raster(&svg);
    for (a, b) in borders(6) {
        let grey = count_near(&pm, border(&lay, a, b), 1.5, style::THIN_INK);
        let block_line = (a % 6 == 2 && b == a + 1) || (a / 6 % 2 == 1 && b == a + 6);
        if marks.iter().any(|&(x, y, _)| (x, y) == (a, b)) {
            assert_eq!(
                grey,
                0,
                "the mark on r{}c{} | r{}c{}",
                a / 6 + 1,
                a % 6 + 1,
                b / 6 + 1,
                b % 6 + 1
            );
        } else if !block_line {
            assert!(
                grey > 0,
                "r{}c{} | r{}c{}",
                a / 6 + 1,
                a % 6 + 1,
                b / 6 + 1,
                b % 6 + 1
            );
        }
    }
}

#[test]
fn the_published_non_consecutive_sudoku_is_solved_and_its_rule_named() {
    fpuzzle_solved_as_published(
        "our-lady-of-the-adjacent",
        "rating: HS (level 0, hardest rule: hidden-single-in-a-block)",
    );
    let (_, m, givens) = fpuzzle("our-lady-of-the-adjacent");
    let fig = start_figure(&m, &givens);
    // A rule without a mark is named under the grid, which grows by a
    // line for it: its picture is as tall as the plain 6×6 one plus that
    // line.
    assert_eq!(fig.sheet.notes, vec!["non-consecutive"]);
    let svg = Svg::file().render(&fig);
    assert!(svg.contains(">non-consecutive</text>"));
    let plain = Arc::new(ruledoku::model::load("sudoku:6").unwrap());
    let bare = start_figure(&plain, &givens);
    let (tall, short) = (raster(&svg), raster(&Svg::file().render(&bare)));
    assert_eq!(tall.width(), short.width());
    assert_eq!(
        tall.height() - short.height(),
        (2.0 * style::CAPTION_LINE) as u32
    );
}

#[test]
fn the_published_kropki_sudoku_is_solved_and_drawn_with_its_dots() {
    fpuzzle_solved_as_published(
        "alien-abacus",
        "rating: W[2] (level 2, hardest rule: whip[2])",
    );
    let (json, m, givens) = fpuzzle("alien-abacus");
    assert!(givens.iter().all(Option::is_none), "no givens");
    let fig = start_figure(&m, &givens);
    let dots = |key: &str| -> Vec<(usize, usize)> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let cells = d["cells"].as_array().unwrap();
                let (a, b) = (
                    cell_of(cells[0].as_str().unwrap(), 6),
                    cell_of(cells[1].as_str().unwrap(), 6),
                );
                (a.min(b), a.max(b))
            })
            .collect()
    };
    let (white, black) = (dots("difference"), dots("ratio"));
    assert_eq!((white.len(), black.len()), (5, 9));
    assert_eq!(fig.sheet.dots.len(), 14);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    // A black dot is filled; a white one is a ring (no ink at its centre).
    for &(a, b) in &black {
        assert!(count_near(&pm, border(&lay, a, b), 3.0, style::INK) > 40);
    }
    for &(a, b) in &white {
        assert_eq!(count_near(&pm, border(&lay, a, b), 2.5, style::INK), 0);
        assert!(count_near(&pm, border(&lay, a, b), 5.5, style::INK) > 10);
    }
    // No other inner border that is not a block's has ink near it.
    for (a, b) in borders(6) {
        let block_line = (a % 6 == 2 && b == a + 1) || (a / 6 % 2 == 1 && b == a + 6);
        if !block_line && !white.contains(&(a, b)) && !black.contains(&(a, b)) {
            assert_eq!(count_near(&pm, border(&lay, a, b), 5.5, style::INK), 0);
        }
    }
}

#[test]
fn the_published_thermometer_sudoku_is_solved_and_drawn_with_its_bulbs() {
    fpuzzle_solved_as_published(
        "swirl-of-steam",
        "rating: HS (level 0, hardest rule: hidden-single-in-a-row)",
    );
    let (json, m, givens) = fpuzzle("swirl-of-steam");
    let fig = start_figure(&m, &givens);
    let thermos: Vec<Vec<usize>> = json["thermometer"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t["lines"][0]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| cell_of(c.as_str().unwrap(), 6))
                .collect()
        })
        .collect();
    assert_eq!(thermos.len(), 6);
    assert_eq!(fig.sheet.thermometers, thermos);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    // Each bulb is a grey disc in its cell; a cell on no thermometer has
    // none of that grey.
    for t in &thermos {
        assert!(count_near(&pm, lay.cell_center(t[0]), 14.0, style::DECOR_FILL) > 200);
    }
    let on: Vec<usize> = thermos.iter().flatten().copied().collect();
    let off = (0..36).filter(|c| !on.contains(c)).collect::<Vec<_>>();
    assert!(!off.is_empty());
    for c in off {
        assert_eq!(
            count_near(&pm, lay.cell_center(c), 14.0, style::DECOR_FILL),
            0,
            "cell {c}"
        );
    }
}

#[test]
fn the_miracle_is_solved_and_its_three_rules_named() {
    let run = solved_as_published("miracle", "w");
    assert!(run.has_line("rating: W[1] (level 1, hardest rule: whip[1])"));
    // The two givens leave one place for 2 in row 5 (anti-king and
    // anti-knight from r6c7 = 2, non-consecutive beside r5c3 = 1).
    assert_eq!(run.lines()[2], "hidden-single-in-a-row ==> r5c1 = 2");
    let m = Arc::new(ruledoku::model::load(&published("miracle.yaml")).unwrap());
    let text = std::fs::read_to_string(published("miracle.txt")).unwrap();
    let p = parse_typed(&m, "miracle.txt", &text)
        .into_iter()
        .next()
        .expect("a record")
        .expect("a puzzle");
    let fig = start_figure(&m, &p.givens);
    assert_eq!(
        fig.sheet.notes,
        vec!["anti-knight", "anti-king", "non-consecutive"]
    );
    let svg = Svg::file().render(&fig);
    for note in &fig.sheet.notes {
        assert!(svg.contains(&format!(">{note}</text>")), "{note}");
    }
    // Three lines of notes under the grid: the picture is that much
    // taller than classic Sudoku's with the same givens.
    let plain = Arc::new(ruledoku::model::load("sudoku").unwrap());
    let bare = start_figure(&plain, &p.givens);
    let (tall, short) = (raster(&svg), raster(&Svg::file().render(&bare)));
    assert_eq!(
        tall.height() - short.height(),
        (3.0 * 2.0 * style::CAPTION_LINE) as u32
    );
}

#[test]
fn the_published_ukpa_killer_is_solved_and_drawn_with_its_cages() {
    let run = solved_as_published("killer-ukpa", "w");
    assert!(run.has_line("rating: W[4] (level 4, hardest rule: whip[4])"));
    assert!(run.has_line(
        "whip[4]: k13{679 589} - b6n6{r5c7 r6c9} - k18{29 56} - r7c9{n2 .} ==> r5c9 ≠ 5"
    ));
    // With the 45 rule, whip[1] is enough.
    let sums = ruledoku([
        "rate",
        "--type",
        &published("killer-ukpa.yaml"),
        "--rules",
        "killer-sums+w",
        "--no-time",
        "--verify",
        &published("killer-ukpa.txt"),
    ]);
    assert_eq!(sums.code, Some(0), "{}", sums.stderr);
    assert!(
        sums.stderr.contains("0 with a wrong step"),
        "{}",
        sums.stderr
    );
    assert!(sums.stdout.contains(" W[1] "), "{}", sums.stdout);
    let m = Arc::new(ruledoku::model::load(&published("killer-ukpa.yaml")).unwrap());
    let fig = start_figure(&m, &[None; 81]);
    assert_eq!(fig.sheet.cages.len(), 25);
    assert_eq!(fig.sheet.cages[0], (vec![0, 1, 9, 10], Some(20)));
    let svg = Svg::file().render(&fig);
    assert!(svg.contains(">30</text>"), "the sum of k16");
    let lay = Layout::of(&fig);
    let pm = raster(&svg);
    let cell = lay.cell;
    // k1 is the 2×2 square r1c1-r2c2: its dashed outline runs 3 px inside
    // r1c2's right border (k1 | k2), none along r1c1 | r1c2 inside it.
    let (x, y) = lay.cell_origin(0);
    let band = |x0: f64| {
        count_in(
            &pm,
            (x0 - 1.0, y + 20.0),
            (x0 + 1.0, y + cell - 20.0),
            style::INK,
        )
    };
    assert!(
        band(x + 2.0 * cell - 3.0) > 5,
        "{}",
        band(x + 2.0 * cell - 3.0)
    );
    assert_eq!(band(x + cell - 3.0), 0);
    assert_eq!(band(x + cell + 3.0), 0);
    assert!(band(x + 3.0) > 5);
}

/// The comparison Sudoku `NAME.txt` of `comparison.yaml`: its model (with
/// the puzzle's signs) and givens.
fn comparison(name: &str) -> (Arc<Model>, Vec<Option<usize>>, usize) {
    let m = ruledoku::model::load(&published("comparison.yaml")).unwrap();
    let text = std::fs::read_to_string(published(&format!("{name}.txt"))).unwrap();
    let p = parse_typed(&m, &format!("{name}.txt"), &text)
        .into_iter()
        .next()
        .expect("a record")
        .expect("a puzzle");
    let signs = p.signs.len();
    (Arc::new(m.with_constraints(&p.signs)), p.givens, signs)
}

#[test]
fn the_published_comparison_sudokus_are_solved_and_drawn_with_their_signs() {
    // Janko's Nr. 190, its signs as transcribed: solved by singles after
    // the order rules, to the oracle's unique solution (janko-190.solution).
    let run = solved_to_solution(
        &published("comparison.yaml"),
        "w",
        &published("janko-190.txt"),
        "janko-190",
    );
    assert!(
        run.has_line("rating: HS (level 0, hardest rule: hidden-single-in-a-row)"),
        "{}",
        run.stdout
    );
    // Janko's Nr. 123, signs read off its published solution: that grid is
    // the unique solution, and a whip of length 3 is needed.
    let run = solved_to_solution(
        &published("comparison.yaml"),
        "w",
        &published("janko-123.txt"),
        "janko-123",
    );
    assert!(
        run.has_line("rating: W[3] (level 3, hardest rule: whip[3])"),
        "{}",
        run.stdout
    );
    let check = ruledoku([
        "check",
        "--type",
        &published("comparison.yaml"),
        &published("janko-123.txt"),
    ]);
    assert!(check.has_line("1 puzzle: 1 unique, 0 multiple, 0 no solution; 0 invalid lines"));
    // The picture: every one of the 108 signs (12 per block, none across
    // a block border) is drawn, its point on the smaller cell's side.
    let (m, givens, n_signs) = comparison("janko-190");
    assert_eq!(n_signs, 108);
    let fig = start_figure(&m, &givens);
    assert_eq!(fig.sheet.signs.len(), 108);
    let solution: Vec<u32> = std::fs::read_to_string(published("janko-190.solution"))
        .unwrap()
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    for s in &fig.sheet.signs {
        assert!(solution[s.small] < solution[s.big], "{s:?}");
        let (rs, cs) = (s.small / 9, s.small % 9);
        let (rb, cb) = (s.big / 9, s.big % 9);
        assert_eq!((rs / 3, cs / 3), (rb / 3, cb / 3), "{s:?} crosses a block");
        let (a, b) = (lay.cell_center(s.small), lay.cell_center(s.big));
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let toward = |d: f64| {
            (
                mid.0 + (a.0 - mid.0) / (lay.cell / 2.0) * d,
                mid.1 + (a.1 - mid.1) / (lay.cell / 2.0) * d,
            )
        };
        assert!(count_near(&pm, toward(2.5), 1.5, style::INK) > 0, "{s:?}");
        assert_eq!(count_near(&pm, toward(4.5), 1.0, style::INK), 0, "{s:?}");
    }
    // Block borders carry no sign: the border r1c3 | r1c4 is thick ink only.
    assert!(!fig.sheet.signs.iter().any(|s| {
        let (x, y) = (s.small.min(s.big), s.small.max(s.big));
        (x, y) == (2, 3)
    }));
}
