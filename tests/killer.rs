//! Killer cages (issue 24): a cage with a sum is a CSP variable whose
//! candidates are its combinations (`docs/puzzle-types.md`, "Killer
//! cages"). A published killer puzzle solved with `--verify`, its exact
//! path, the type file's errors.

mod common;

use common::*;

fn killer(name: &str) -> String {
    data(&format!("killer/{name}")).display().to_string()
}

#[test]
fn the_wikipedia_killer_is_solved_by_whips_with_its_exact_path() {
    let run = ruledoku([
        "solve",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "w",
        "--no-time",
        "--verify",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        "verify: 1 puzzle checked, 0 with a wrong step"
    );
    let want = std::fs::read_to_string(killer("wikipedia-w.path")).unwrap();
    assert_eq!(run.stdout, want);
    // The grid solved is the article's solution.
    let solution = std::fs::read_to_string(killer("wikipedia.solution")).unwrap();
    let grid: String = run
        .lines()
        .iter()
        .filter(|l| l.starts_with("   "))
        .map(|l| l.trim())
        .collect();
    assert_eq!(grid, solution.trim());
    assert!(run.has_line("rating: W[1] (level 1, hardest rule: whip[1])"));
    assert!(run.has_line("single-combination-in-a-cage ==> k1 = 12"));
}

#[test]
fn singles_alone_stall_on_the_wikipedia_killer_and_t_and_e_solves_it() {
    let run = ruledoku([
        "rate",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "singles",
        "--no-time",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Singles (with the cages' single) stop short: the rate line says
    // stuck, after the cages' singles.
    assert!(
        run.stdout
            .contains(" stuck - single-combination-in-a-cage -"),
        "{}",
        run.stdout
    );
    let run = ruledoku([
        "rate",
        "--type",
        &killer("wikipedia.yaml"),
        "--rules",
        "te",
        "--no-time",
        "--verify",
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stderr.contains("0 with a wrong step"), "{}", run.stderr);
}

#[test]
fn a_cage_the_grid_cannot_fill_is_an_error_naming_its_line() {
    let dir = std::env::temp_dir().join(format!("ruledoku-killer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.yaml");
    std::fs::write(
        &file,
        "size: 9\nblocks: 3x3\ncages:\n  - { cells: r1c1 r1c2, sum: 3 }\n  - { cells: r2c1 r2c2, sum: 18 }\n",
    )
    .unwrap();
    let run = ruledoku([
        "check",
        "--type",
        &file.display().to_string(),
        &killer("wikipedia.txt"),
    ]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert_eq!(
        run.stderr.trim(),
        format!(
            "error: --type: {}:5: the killer cage at r2c1: 2 distinct numbers from 1 to 9 never sum to 18",
            file.display()
        )
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The example's figures: the start, and every step of its W path.
fn wikipedia_figures() -> (
    std::sync::Arc<ruledoku::model::Model>,
    Vec<ruledoku::draw::Figure>,
    ruledoku::draw::Figure,
) {
    use ruledoku::draw::typed::TypedPictures;
    use ruledoku::engine::Limits;
    use ruledoku::typed::engine::Options;
    let m = std::sync::Arc::new(ruledoku::model::load(&killer("wikipedia.yaml")).unwrap());
    let givens = vec![None; 81];
    let set = ruledoku::ruleset::load("w").unwrap();
    let tset = ruledoku::typed::compile(&set, &m).unwrap();
    let opts = Options {
        limits: Limits {
            max_steps: None,
            max_time: None,
        },
        patterns: true,
        max_memory: None,
        pictures: true,
        stats: false,
    };
    let run = ruledoku::typed::run(&m, &tset, &givens, opts).expect("a frame");
    let pics = TypedPictures::new(&m, &givens);
    let start = pics.grid(run.start.as_ref().expect("pictures kept"));
    let steps = pics.step_figures(1, &run).collect();
    (m, steps, start)
}

fn raster(svg: &str) -> resvg::tiny_skia::Pixmap {
    use resvg::usvg;
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("well-formed SVG");
    let size = tree.size();
    let mut pm = resvg::tiny_skia::Pixmap::new(
        (size.width() * 2.0).ceil() as u32,
        (size.height() * 2.0).ceil() as u32,
    )
    .expect("a pixmap");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(2.0, 2.0),
        &mut pm.as_mut(),
    );
    pm
}

/// Black pixels in the rectangle `(x0, y0)`–`(x1, y1)` (SVG units).
fn ink_in(pm: &resvg::tiny_skia::Pixmap, (x0, y0): (f64, f64), (x1, y1): (f64, f64)) -> usize {
    let mut n = 0;
    for py in (y0 * 2.0) as u32..(y1 * 2.0) as u32 {
        for px in (x0 * 2.0) as u32..(x1 * 2.0) as u32 {
            if let Some(p) = pm.pixel(px, py)
                && p.alpha() == 255
                && p.red() < 60
                && p.green() < 60
                && p.blue() < 60
            {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn cages_are_drawn_as_dashed_outlines_with_their_sums() {
    use ruledoku::draw::svg::{Layout, Svg};
    let (m, steps, start) = wikipedia_figures();
    assert_eq!(start.sheet.cages.len(), 29);
    assert_eq!(start.sheet.cages[0], (vec![0, 1], Some(3)));
    let svg = Svg::file().render(&start);
    assert_eq!(svg.matches("stroke-dasharray=\"3,2\"").count(), 1);
    assert!(svg.contains(">22</text>"), "the sum of k3");
    let lay = Layout::of(&start);
    let pm = raster(&svg);
    let cell = lay.cell;
    let (x, y) = lay.cell_origin(0);
    // k1 (r1c1 r1c2 = 3): its sum in r1c1's top-left corner (text: the
    // rasteriser here has no fonts), its outline 3 px inside the cells'
    // outer borders (r1c2 | r1c3 is k1 | k2), none along r1c1 | r1c2,
    // inside the cage.
    assert!(svg.contains(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\">3</text>",
        x + 2.5,
        y + 10.5
    )));
    let band = |x0: f64| ink_in(&pm, (x0 - 1.0, y + 20.0), (x0 + 1.0, y + cell - 20.0));
    assert!(
        band(x + 2.0 * cell - 3.0) > 5,
        "{}",
        band(x + 2.0 * cell - 3.0)
    );
    assert_eq!(band(x + cell - 3.0), 0);
    assert_eq!(band(x + cell + 3.0), 0);
    assert!(band(x + 3.0) > 5);
    // Every step draws, the cages' steps too.
    assert_eq!(steps.len(), 142);
    for f in &steps {
        raster(&Svg::file().render(f));
    }
    let k1 = &steps[0];
    assert_eq!(k1.caption, "single-combination-in-a-cage ==> k1 = 12");
    assert_eq!(k1.cells.iter().collect::<Vec<_>>(), [0, 1]);
    assert_eq!(m.cages[0].combos, [[0, 1]]);
}

#[test]
fn generated_killers_are_unique_and_the_same_for_a_seed() {
    let args = [
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "5",
        "-n",
        "12",
    ];
    let a = ruledoku(args);
    assert_eq!(a.code, Some(0), "{}", a.stderr);
    assert_eq!(a.lines().len(), 12);
    assert_eq!(ruledoku(args).stdout, a.stdout);
    let other = ruledoku([
        "generate",
        "--killer",
        "--f-puzzles",
        "--seed",
        "6",
        "-n",
        "12",
    ]);
    assert_ne!(other.stdout, a.stdout);
    // Read back as f-puzzles records: each its own type, one solution.
    let check = ruledoku_stdin(["check", "--type", "f-puzzles", "-"], &a.stdout);
    assert_eq!(check.code, Some(0), "{}", check.stderr);
    assert!(
        check.has_line("12 puzzles: 12 unique, 0 multiple, 0 no solution; 0 invalid lines"),
        "{}",
        check.stdout
    );
    // The JSON form: the same puzzles, with their cages covering the grid.
    let json = ruledoku(["generate", "--killer", "--json", "--seed", "5", "-n", "12"]);
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    for line in json.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let cages = v["cages"].as_array().unwrap();
        let cells: usize = cages
            .iter()
            .map(|c| c["cells"].as_str().unwrap().split(' ').count())
            .sum();
        assert_eq!(cells, 81, "{line}");
        let sums: u64 = cages.iter().map(|c| c["sum"].as_u64().unwrap()).sum();
        assert_eq!(sums, 405, "{line}");
        assert_eq!(v["puzzle"].as_str().unwrap(), ".".repeat(81));
    }
    // Without a form that carries the cages: a usage error.
    let bare = ruledoku(["generate", "--killer", "--seed", "5"]);
    assert_eq!(bare.code, Some(2));
    assert!(
        bare.stderr.contains("add --f-puzzles or --json"),
        "{}",
        bare.stderr
    );
}
