//! Pictures of typed runs (`solve --type T --svg DIR`, `--html FILE`).
//!
//! Snapshots of small pictures (sudoku:4, futoshiki:5, a jigsaw type
//! file) and of what a 16×16 step shows, reviewed by eye when they were
//! taken (rendered to PNG); pixel checks with resvg (signs between cells,
//! thick region borders, variant marks, crossed-out eliminations); every
//! shipped CSP-Rules example drawn as well-formed SVG; the command line's
//! files and page.

mod common;

use common::pixels::{count_near, raster};
use common::{data, ruledoku};
use resvg::usvg;
use ruledoku::draw::style;
use ruledoku::draw::svg::{Layout, Svg};
use ruledoku::draw::typed::TypedPictures;
use ruledoku::draw::{Figure, Mark, Node};
use ruledoku::engine::Limits;
use ruledoku::input::typed::{TypedPuzzle, parse_typed};
use ruledoku::model::{self, Model};
use ruledoku::ruleset;
use ruledoku::typed::{self, TypedRun, engine::Options};
use std::path::PathBuf;
use std::sync::Arc;

/// A puzzle of a type, run with pictures kept.
struct Drawn {
    model: Arc<Model>,
    puzzle: TypedPuzzle,
    run: TypedRun,
}

impl Drawn {
    fn new(ty: &str, text: &str, set: &str, max_steps: Option<usize>) -> Drawn {
        let m = model::load(ty).expect("a type");
        let p = parse_typed(&m, "test", text)
            .into_iter()
            .next()
            .expect("a record")
            .expect("a puzzle");
        let model = Arc::new(m.with_constraints(&p.signs));
        let set = ruleset::load(set).expect("a set");
        let tset = typed::compile(&set, &model).expect("the set runs on the type");
        let opts = Options {
            limits: Limits {
                max_steps,
                max_time: None,
                max_memory: None,
                max_cpu: None,
            },
            patterns: true,
            max_memory: None,
            pictures: true,
            stats: false,
        };
        let run = typed::run(&model, &tset, &p.givens, opts).expect("a frame");
        Drawn {
            model,
            puzzle: p,
            run,
        }
    }

    fn pictures(&self) -> TypedPictures<'_> {
        TypedPictures::new(&self.model, &self.puzzle.givens)
    }

    fn figures(&self) -> Vec<Figure> {
        self.pictures().step_figures(1, &self.run).collect()
    }

    /// The figure of the first step of rule `rule`.
    fn figure_of(&self, rule: &str) -> Figure {
        let i = self
            .run
            .steps
            .iter()
            .position(|s| s.name() == rule)
            .unwrap_or_else(|| panic!("no {rule} step"));
        self.figures().swap_remove(i)
    }

    fn start(&self) -> Figure {
        self.pictures()
            .grid(self.run.start.as_ref().expect("pictures kept"))
    }
}

fn types(name: &str) -> String {
    data(&format!("types/{name}")).display().to_string()
}

/// cbg-style 16×16: the first puzzle of CSP-Rules' 16×16 examples.
fn sudoku_16() -> String {
    let text = std::fs::read_to_string(data("csp-rules/sudoku-16.txt")).expect("read");
    text.lines().next().expect("a line").to_string()
}

const SUDOKU_4: &str = "1.2....1.4.....2";
/// A futoshiki:5 puzzle of `generate --type futoshiki:5 --seed 3`.
const FUTOSHIKI_5: &str = "....24.......1...2....... ->--<---<----------- -------->------>----";
/// A jigsaw-6 puzzle of `generate --type jigsaw-6.yaml --seed 1`.
const JIGSAW_6: &str = ".....1....2.3.2.........4.3....5....";

#[test]
fn small_typed_pictures() {
    let s4 = Drawn::new("sudoku:4", SUDOKU_4, "w", None);
    let fig = s4.figure_of("naked-single");
    insta::assert_snapshot!("sudoku_4_naked_single", Svg::file().render(&fig));

    let f5 = Drawn::new("futoshiki:5", FUTOSHIKI_5, "w", None);
    assert_eq!(f5.run.steps.len(), 27);
    // FutoRules' ascending chain (rules/futoshiki.rules): no mark of its
    // own, the rule named under the grid.
    let fig = f5.figure_of("asc[2]");
    insta::assert_snapshot!("futoshiki_5_asc_2", Svg::file().render(&fig));

    let j6 = Drawn::new(&types("jigsaw-6.yaml"), JIGSAW_6, "w", None);
    let fig = j6.figure_of("hidden-single-in-a-row");
    insta::assert_snapshot!("jigsaw_6_hidden_single", Svg::file().render(&fig));
}

/// A figure in words: its roles, for a reviewable snapshot of a large
/// picture.
fn describe(m: &Model, fig: &Figure) -> String {
    let node = |n: &Node| match n {
        Node::Cand(z) => m.cand_name(*z),
        Node::Group(g) => format!(
            "[{}]",
            g.iter()
                .map(|&z| m.cand_name(z))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    };
    let mut out = format!("{}\n", fig.caption);
    if !fig.houses.is_empty() {
        let hs: Vec<String> = fig.houses.iter().map(|&h| m.house_name(h)).collect();
        out.push_str(&format!("  houses: {}\n", hs.join(" ")));
    }
    if !fig.cells.is_empty() {
        let cs: Vec<String> = fig.cells.iter().map(|c| m.cell_name(c)).collect();
        out.push_str(&format!("  cells: {}\n", cs.join(" ")));
    }
    for mk in [
        Mark::Pattern,
        Mark::Extra,
        Mark::Off,
        Mark::On,
        Mark::Target,
        Mark::Eliminated,
        Mark::Asserted,
    ] {
        let zs = fig.marked(mk);
        if !zs.is_empty() {
            let names: Vec<String> = zs.into_iter().map(|z| m.cand_name(z)).collect();
            out.push_str(&format!("  {mk:?}: {}\n", names.join(" ")));
        }
    }
    for l in &fig.links {
        let arrow = match l.kind {
            ruledoku::draw::LinkKind::Strong => "==>",
            ruledoku::draw::LinkKind::Weak => "-->",
        };
        out.push_str(&format!("  {} {arrow} {}\n", node(&l.from), node(&l.to)));
    }
    out
}

#[test]
fn what_typed_steps_show() {
    let s16 = Drawn::new("sudoku:16", &sudoku_16(), "w", None);
    let mut out = String::new();
    for rule in ["whip[1]", "whip[2]"] {
        out.push_str(&format!(
            "[sudoku:16] {}",
            describe(&s16.model, &s16.figure_of(rule))
        ));
    }
    let f7 = std::fs::read_to_string(data("csp-rules/futoshiki-7.txt")).expect("read");
    let f7 = Drawn::new("futoshiki:7", f7.lines().next().expect("a line"), "w", None);
    for rule in ["whip[4]", "hidden-single-in-a-column"] {
        out.push_str(&format!(
            "[futoshiki:7] {}",
            describe(&f7.model, &f7.figure_of(rule))
        ));
    }
    insta::assert_snapshot!("what_typed_steps_show", out);
}

#[test]
fn a_16_grid_has_16_columns_of_keypads_of_4_and_thick_lines_every_4_cells() {
    let s16 = Drawn::new("sudoku:16", &sudoku_16(), "w", Some(40));
    let fig = s16.figure_of("whip[1]");
    let lay = Layout::of(&fig);
    assert_eq!((lay.cell, lay.slot), (72.0, 18.0));
    assert_eq!(lay.side, 16.0 * 72.0);
    // Symbol 16 (`G`) is at the bottom right of its cell's keypad.
    let (x, y) = lay.cell_origin(0);
    assert_eq!(lay.cand_center(15), (x + 63.0, y + 63.0));
    let svg = Svg::file().render(&fig);
    let pm = raster(&svg);
    // Thick lines (block borders) at 4, 8 and 12 cells, thin ones between.
    let thick = |i: usize| {
        let p = (lay.x0 + i as f64 * lay.cell, lay.y0 + 10.0);
        count_near(&pm, p, 2.0, style::INK)
    };
    assert!(thick(4) > 8 && thick(8) > 8 && thick(12) > 8);
    assert_eq!(thick(3), 0);
    for &z in &fig.marked(Mark::Eliminated) {
        assert!(count_near(&pm, lay.cand_center(z), lay.radius, style::ELIMINATED) > 20);
    }
    // Candidates are written as the type writes them (A for 10 …).
    assert!(svg.contains(">G</text>") && !svg.contains(">16</text>"));
}

#[test]
fn futoshiki_signs_point_at_the_smaller_cell() {
    let f5 = Drawn::new("futoshiki:5", FUTOSHIKI_5, "w", Some(0));
    let fig = f5.start();
    assert_eq!(fig.sheet.signs.len(), 5, "{:?}", fig.sheet.signs);
    // Row 1: c2 > c3.
    let sign = fig.sheet.signs[0];
    assert_eq!((sign.small, sign.big), (2, 1));
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    for s in &fig.sheet.signs {
        let (a, b) = (lay.cell_center(s.small), lay.cell_center(s.big));
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        // The chevron's point is on the smaller cell's side of the border,
        // its open end on the bigger cell's.
        let toward = |p: (f64, f64), d: f64| {
            (
                mid.0 + (p.0 - mid.0) / 27.0 * d,
                mid.1 + (p.1 - mid.1) / 27.0 * d,
            )
        };
        assert!(
            count_near(&pm, toward(a, 2.5), 1.5, style::INK) > 0,
            "{s:?}"
        );
        assert_eq!(count_near(&pm, toward(a, 4.5), 1.0, style::INK), 0, "{s:?}");
    }
    // Candidates keep clear of the signs: a margin inside each cell.
    assert_eq!(lay.pad, 6.0);
}

#[test]
fn irregular_regions_have_thick_borders_and_variants_their_marks() {
    let j6 = Drawn::new(&types("jigsaw-6.yaml"), JIGSAW_6, "w", Some(0));
    let fig = j6.start();
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    // Between r1c3 (region A) and r1c4 (B): thick; r1c1 | r1c2 (A, A): thin.
    let edge = |a: usize, b: usize| {
        let (p, q) = (lay.cell_center(a), lay.cell_center(b));
        count_near(&pm, ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0), 2.0, style::INK)
    };
    assert!(edge(2, 3) > 10, "{}", edge(2, 3));
    assert_eq!(edge(0, 1), 0);
    // r2c2 (A) over r3c2 (C): a horizontal border.
    assert!(edge(7, 13) > 10);

    let v9 = Drawn::new(
        &types("variants-9.yaml"),
        &".".repeat(81),
        "singles",
        Some(0),
    );
    let fig = v9.start();
    let sheet = &fig.sheet;
    assert_eq!((sheet.dots.len(), sheet.letters.len()), (3, 2));
    assert_eq!(
        (sheet.tints.len(), sheet.diagonals.clone()),
        (4, vec![false])
    );
    assert_eq!(sheet.thermometers, vec![vec![60, 70, 79, 80]]);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    let mid = |a: usize, b: usize| {
        let (p, q) = (lay.cell_center(a), lay.cell_center(b));
        ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0)
    };
    // The black dot (r2c1-r3c1) is filled; the white one (r1c1-r1c2) a ring.
    assert!(count_near(&pm, mid(9, 18), 3.0, style::INK) > 40);
    assert_eq!(count_near(&pm, mid(0, 1), 2.5, style::INK), 0);
    assert!(count_near(&pm, mid(0, 1), 5.5, style::INK) > 10);
    // The thermometer's bulb, a window's tint, the diagonal.
    assert!(count_near(&pm, lay.cell_center(60), 14.0, style::DECOR_FILL) > 200);
    let (x, y) = lay.cell_origin(10);
    assert!(count_near(&pm, (x + 3.0, y + lay.cell - 3.0), 2.0, style::TINT_FILL) > 5);
    let (x, y) = lay.cell_origin(40);
    assert!(count_near(&pm, (x + 10.0, y + 10.0), 1.5, style::DIAGONAL_INK) > 0);

    // Rules without marks are named under the grid.
    let k6 = Drawn::new(
        &types("anti-knight-6.yaml"),
        "..........4.5......6.....2...3..3..5",
        "singles",
        Some(0),
    );
    assert_eq!(k6.start().sheet.notes, vec!["anti-knight"]);
    let svg = Svg::file().render(&k6.start());
    assert!(svg.contains(">anti-knight</text>"));
}

/// The examples of tests/data/csp-rules: the start and the first steps
/// of each (whips), drawn as SVG that parses.
#[test]
fn every_csp_rules_example_draws_well_formed_svg() {
    let dir = data("csp-rules");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
    let mut drawn = 0;
    for row in manifest.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let (file, line, ty) = (f[0], f[1].parse::<usize>().expect("a line"), f[2]);
        let text = std::fs::read_to_string(dir.join(file)).expect("read");
        let m = model::load(ty).expect("a type");
        let p = parse_typed(&m, file, &text)
            .into_iter()
            .filter_map(Result::ok)
            .find(|p| p.line == line)
            .expect("the record");
        let d = Drawn::new(ty, &p.text, "w", Some(3));
        let mut figs = vec![d.start()];
        figs.extend(d.figures());
        assert!(figs.len() >= 2, "{file}:{line}");
        for fig in &figs {
            let svg = Svg::file().render(fig);
            usvg::Tree::from_str(&svg, &usvg::Options::default())
                .unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        }
        drawn += 1;
    }
    assert_eq!(drawn, 43);
}

fn names(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("a directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    v.sort();
    v
}

#[test]
fn solve_type_svg_and_html_write_every_step() {
    let tmp = tempfile::tempdir().expect("tmp");
    let input = tmp.path().join("f5.txt");
    std::fs::write(&input, format!("{FUTOSHIKI_5}\nnot a puzzle\n")).expect("write");
    let pics = tmp.path().join("pics");
    let page = tmp.path().join("page.html");
    let r = ruledoku([
        "solve",
        "--type",
        "futoshiki:5",
        "--rules",
        "w",
        "--svg",
        pics.to_str().expect("utf-8"),
        "--html",
        page.to_str().expect("utf-8"),
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let files = names(&pics);
    assert_eq!(files.len(), 27);
    assert_eq!(files[0], "000001-001.svg");
    assert_eq!(files[26], "000001-027.svg");
    let svg = std::fs::read_to_string(pics.join("000001-001.svg")).expect("svg");
    usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("well-formed");
    let html = std::fs::read_to_string(&page).expect("page");
    // A frame for the start, each step and the end; the bad line listed.
    assert_eq!(html.matches("<div class=\"frame\"").count(), 29);
    assert!(html.contains("solved by w; rating NS"));
    // The legend says what the type's marks mean.
    assert!(
        html.contains(
            "<b>type futoshiki:5</b> · ‹ › ∧ ∨ inequality, the point at the smaller cell"
        )
    );
    assert!(html.contains("id=\"p2\""));
    assert!(html.contains("str-asc[1]: r5c4 &lt; ... &lt; r4c4 ==&gt; r5c4 ≠ 4, r4c4 ≠ 3"));
    // The type file is an input: no page over it.
    let ty = tmp.path().join("j6.yaml");
    std::fs::copy(PathBuf::from(types("jigsaw-6.yaml")), &ty).expect("copy");
    let r = ruledoku([
        "solve",
        "--type",
        ty.to_str().expect("utf-8"),
        "--html",
        ty.to_str().expect("utf-8"),
        JIGSAW_6,
    ]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("is the input"), "{}", r.stderr);
    // --svg over a file: a clear error.
    let r = ruledoku([
        "solve",
        "--type",
        "futoshiki:5",
        "--svg",
        input.to_str().expect("utf-8"),
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("not a directory"), "{}", r.stderr);
}
