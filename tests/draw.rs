//! Pictures of steps and HTML pages (`solve --svg`, `solve --html`).
//!
//! The SVGs are rasterised with resvg and checked on pixels: an eliminated
//! candidate's place is crossed out (and a live, unmarked one is not), an
//! asserted one is filled, a pattern's candidates are highlighted, a
//! chain's target is joined to its last candidate through drawn links,
//! and a g-candidate is outlined. The command line is checked for the
//! files it writes and for its errors; the HTML page for being
//! self-contained and holding every step. `html_report_in_chromium`
//! (ignored: it needs node and chromium) steps through a page with key
//! presses in headless Chromium and screenshots it; `drawing_speed`
//! (ignored) measures drawing a path of 100 steps or more.

mod common;

use common::{CBG_SAMPLE, FSHT, data, root, ruledoku};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use ruledoku::draw::style::{self, Rgb};
use ruledoku::draw::svg::{Layout, Svg};
use ruledoku::draw::{self, Figure, Mark, Node};
use ruledoku::engine::{Run, Runner, Step};
use ruledoku::grid::state::State;
use ruledoku::input::parse_puzzle;
use ruledoku::ruleset;
use ruledoku::search::Evidence;
use std::collections::VecDeque;
use std::path::Path;
use std::time::Instant;

/// cbg-000's second puzzle: W5 with whips, gW5 with g-whips.
const CBG2: &str =
    "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75";
/// cbg-000's third puzzle: the basic set uses an XY-Wing on it.
const CBG3: &str =
    ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.";

/// Pixels per SVG unit when rasterising.
const SCALE: f32 = 2.0;

fn solve(set: &str, puzzle: &str) -> Run {
    let set = ruleset::load(set).expect("built-in set");
    let p = parse_puzzle(puzzle).expect("a puzzle");
    Runner::new(&set).run(State::from_masks(&p.masks, &p.givens))
}

/// The figure of the first step of rule `rule` and the step.
fn figure_of<'a>(run: &'a Run, rule: &str) -> (Figure, &'a Step) {
    let i = run
        .steps
        .iter()
        .position(|s| s.rule_name() == rule)
        .unwrap_or_else(|| panic!("no {rule} step"));
    let fig = draw::step_figures(1, run)
        .nth(i)
        .expect("a figure per step");
    (fig, &run.steps[i])
}

fn raster(svg: &str) -> Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("well-formed SVG");
    let size = tree.size();
    let mut pm = Pixmap::new(
        (size.width() * SCALE).ceil() as u32,
        (size.height() * SCALE).ceil() as u32,
    )
    .expect("a pixmap");
    resvg::render(&tree, Transform::from_scale(SCALE, SCALE), &mut pm.as_mut());
    pm
}

fn is(pm: &Pixmap, x: u32, y: u32, c: Rgb) -> bool {
    let Some(p) = pm.pixel(x, y) else {
        return false;
    };
    let near = |a: u8, b: u8| (a as i32 - b as i32).abs() <= 40;
    p.alpha() == 255 && near(p.red(), c.0) && near(p.green(), c.1) && near(p.blue(), c.2)
}

/// Pixels of colour `c` within `r` SVG units of `(x, y)`.
fn count_near(pm: &Pixmap, (x, y): (f64, f64), r: f64, c: Rgb) -> usize {
    let s = SCALE as f64;
    let (cx, cy, rr) = (x * s, y * s, r * s);
    let mut n = 0;
    for py in (cy - rr).max(0.0) as u32..=(cy + rr) as u32 {
        for px in (cx - rr).max(0.0) as u32..=(cx + rr) as u32 {
            let (dx, dy) = (px as f64 + 0.5 - cx, py as f64 + 0.5 - cy);
            if dx * dx + dy * dy <= rr * rr && is(pm, px, py, c) {
                n += 1;
            }
        }
    }
    n
}

/// Can one go from near `a` to near `b` over the pixels of a chain (its
/// links, and the discs of its linking candidates where links meet),
/// jumping gaps of at most `gap` pixels (a dashed line's)?
fn joined(pm: &Pixmap, a: (f64, f64), b: (f64, f64), gap: i64) -> bool {
    let chain = |x: u32, y: u32| {
        [style::LINK, style::ON_FILL, style::OFF_FILL]
            .into_iter()
            .any(|c| is(pm, x, y, c))
    };
    let s = SCALE as f64;
    let reach = (style::MARK_RADIUS + 5.0) * s;
    let close = |p: (u32, u32), q: (f64, f64)| {
        let (dx, dy) = (p.0 as f64 - q.0 * s, p.1 as f64 - q.1 * s);
        dx * dx + dy * dy <= reach * reach
    };
    let (w, h) = (pm.width(), pm.height());
    let mut seen = vec![false; (w * h) as usize];
    let mut queue = VecDeque::new();
    for y in 0..h {
        for x in 0..w {
            if close((x, y), a) && is(pm, x, y, style::LINK) {
                seen[(y * w + x) as usize] = true;
                queue.push_back((x, y));
            }
        }
    }
    while let Some((x, y)) = queue.pop_front() {
        if close((x, y), b) {
            return true;
        }
        for dy in -gap..=gap {
            for dx in -gap..=gap {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    continue;
                }
                let (nx, ny) = (nx as u32, ny as u32);
                let k = (ny * w + nx) as usize;
                if !seen[k] && chain(nx, ny) {
                    seen[k] = true;
                    queue.push_back((nx, ny));
                }
            }
        }
    }
    false
}

/// The widest gap of a dashed link, in pixels, plus one.
fn dash_gap() -> i64 {
    (style::WEAK_DASH.1 * SCALE as f64).ceil() as i64 + 1
}

#[test]
fn a_pattern_steps_eliminations_are_crossed_out_and_its_pattern_highlighted() {
    let run = solve("basic", CBG3);
    let (fig, step) = figure_of(&run, "xy-wing");
    assert!(matches!(step.evidence, Evidence::Bindings(_)));
    // r7c2{n1 n6} - r4c2{n1 n9} - r7c4{n6 n9} ==> r4c4 ≠ 9
    assert_eq!(step.conclusions, vec![(3 * 9 + 3) * 9 + 8]);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    let elim = step.conclusions[0];
    let r = style::MARK_RADIUS;
    assert!(
        count_near(&pm, lay.cand_center(elim), r, style::ELIMINATED) > 40,
        "the eliminated candidate is crossed out"
    );
    // The pattern: the pivot's and the pincers' candidates.
    let pattern = fig.marked(Mark::Pattern);
    assert_eq!(pattern.len(), 6, "{pattern:?}");
    for &z in &pattern {
        assert!(count_near(&pm, lay.cand_center(z), r, style::PATTERN_FILL) > 40);
        assert_eq!(count_near(&pm, lay.cand_center(z), r, style::ELIMINATED), 0);
    }
    // A live candidate the step does not concern is neither.
    let other = step
        .before
        .cands
        .iter()
        .find(|&z| fig.marks[z].is_none())
        .expect("an unmarked candidate");
    assert_eq!(
        count_near(&pm, lay.cand_center(other), r, style::ELIMINATED),
        0
    );
    assert_eq!(
        count_near(&pm, lay.cand_center(other), r, style::PATTERN_FILL),
        0
    );
    // The same figure without its conclusion has no cross there.
    let mut bare = fig.clone();
    bare.marks[elim] = None;
    let pm = raster(&Svg::file().render(&bare));
    assert_eq!(
        count_near(&pm, lay.cand_center(elim), r, style::ELIMINATED),
        0
    );
}

#[test]
fn subsets_and_fish_highlight_their_cells_and_bodies() {
    let run = solve("sfin", FSHT);
    // naked-pairs-in-a-row: r1{c3 c9}{n4 n7} ==> r1c7 ≠ 7, r1c5 ≠ 7, r1c1 ≠ 4
    let (fig, step) = figure_of(&run, "naked-pairs-in-a-row");
    assert_eq!(fig.houses, vec![0], "row 1 is shaded");
    assert_eq!(fig.cells.iter().collect::<Vec<_>>(), vec![2, 8]);
    assert_eq!(fig.marked(Mark::Eliminated).len(), step.conclusions.len());
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    let (x, y) = lay.cell_center(2);
    assert!(count_near(&pm, (x, y), 20.0, style::CELL_FILL) > 100);
    let (x, y) = lay.cell_center(4);
    assert!(count_near(&pm, (x, y), 20.0, style::HOUSE_FILL) > 100);
    for &z in &step.conclusions {
        assert!(count_near(&pm, lay.cand_center(z), 8.0, style::ELIMINATED) > 40);
    }
    // finned-swordfish-in-rows: n7{r1 r5 r7}{c2 c8 c9} ==> r3c2 ≠ 7: the
    // body is digit 7 where the base rows cross the cover columns.
    let (fig, _) = figure_of(&run, "finned-swordfish-in-rows");
    for z in fig.marked(Mark::Pattern) {
        assert_eq!(z % 9, 6, "only 7s");
    }
    assert!(fig.marked(Mark::Pattern).len() >= 6);
}

#[test]
fn an_asserted_candidate_is_filled() {
    let run = solve("basic", CBG3);
    let fig = draw::step_figures(1, &run).next().expect("a first step");
    let z = run.steps[0].conclusions[0];
    assert_eq!(fig.marked(Mark::Asserted), vec![z]);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    assert!(count_near(&pm, lay.cand_center(z), 6.0, style::ASSERTED) > 80);
}

#[test]
fn a_chains_target_is_joined_to_its_end_by_its_links() {
    let run = solve("w", CBG2);
    // whip[3]: c4n1{r3 r6} - r6c5{n1 n8} - r5c4{n8 .} ==> r3c4 ≠ 3
    let (fig, step) = figure_of(&run, "whip[3]");
    let Evidence::Chain(ch) = &step.evidence else {
        panic!("a chain's evidence");
    };
    assert_eq!(fig.links.len(), 5, "3 weak and 2 strong links");
    assert_eq!(fig.marked(Mark::Off).len(), 3);
    assert_eq!(fig.marked(Mark::On).len(), 2);
    assert_eq!(fig.marked(Mark::Eliminated), vec![ch.target]);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    let target = lay.cand_center(ch.target);
    let end = lay.cand_center(ch.links.last().expect("links").left);
    assert!(count_near(&pm, target, 8.0, style::ELIMINATED) > 40);
    assert!(joined(&pm, target, end, dash_gap()));
    // Without its last link, the end is not reached.
    let mut cut = fig.clone();
    cut.links.pop();
    let pm = raster(&Svg::file().render(&cut));
    assert!(!joined(&pm, target, end, dash_gap()));
    // Weak links are dashed, strong ones solid.
    let svg = Svg::file().render(&fig);
    assert_eq!(svg.matches("stroke-dasharray=\"5 3\"").count(), 3);
}

#[test]
fn a_trial_steps_implications_are_drawn_as_links() {
    // SE's forcing chains on the basic set's stuck state: a trial rule.
    let run = solve("basic+se-chaining", CBG2);
    let (fig, step) = figure_of(&run, "forcing-chains-and-cycles");
    let Evidence::Implications(imp) = &step.evidence else {
        panic!("a trial's evidence");
    };
    // One link per parent edge of every chain's nodes.
    let edges: usize = imp
        .chains
        .iter()
        .flat_map(|c| &c.nodes)
        .map(|n| n.parents.len())
        .sum();
    assert!(edges >= 3, "{edges}");
    assert_eq!(fig.links.len(), edges);
    assert!(!fig.marked(Mark::On).is_empty() && !fig.marked(Mark::Off).is_empty());
    let concluded = step.conclusions[0];
    assert_eq!(fig.marked(Mark::Eliminated), vec![concluded]);
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    assert!(count_near(&pm, lay.cand_center(concluded), 8.0, style::ELIMINATED) > 40);
    // Every implication joins its two candidates on the picture.
    for link in &fig.links {
        let (Node::Cand(a), Node::Cand(b)) = (&link.from, &link.to) else {
            panic!("implications link candidates");
        };
        assert!(
            joined(&pm, lay.cand_center(*a), lay.cand_center(*b), dash_gap()),
            "{a} -> {b}"
        );
    }
}

#[test]
fn a_g_candidate_is_outlined_and_linked() {
    let run = solve("gw", CBG2);
    // g-whip[4]: c2n4{r5 r789} - c1n4{r7 r2} - c1n8{r2 r789} - r9c3{n8 .} ==> r5c2 ≠ 8
    let (fig, step) = figure_of(&run, "g-whip[4]");
    let Evidence::Chain(ch) = &step.evidence else {
        panic!("a chain's evidence");
    };
    assert_eq!(fig.groups.len(), 2, "r789 twice");
    let lay = Layout::of(&fig);
    let pm = raster(&Svg::file().render(&fig));
    for (g, _) in &fig.groups {
        assert!(g.len() >= 2);
        let c = lay.node_center(&Node::Group(g.clone()));
        // The outline passes around the group's members.
        assert!(count_near(&pm, (c.0 - 11.0, c.1), 4.0, style::GROUP_RING) > 0);
    }
    let target = lay.cand_center(ch.target);
    let end = lay.cand_center(ch.links.last().expect("links").left);
    assert!(joined(&pm, target, end, dash_gap()));
}

#[test]
fn a_new_rule_file_is_drawn_with_its_caption_escaped() {
    let dir = tempfile::tempdir().expect("tmp");
    let rules = dir.path().join("mine.rules");
    std::fs::write(
        &rules,
        "/// Claiming, with XML's special characters in its text.\n\
         rule my-claim {\n    complexity 5\n    level 1\n    let V: rn\n    \
         where |V| >= 2 and |blocks(V)| == 1\n    \
         eliminate cands(first(blocks(V))) & cands(digits(V)) - cands(V)\n    \
         show \"<${V}> & 'so'\"\n}\n",
    )
    .expect("write");
    let out = dir.path().join("pics");
    let set = format!("singles+{}", rules.display());
    let r = ruledoku([
        "solve",
        "--rules",
        &set,
        "--max-steps",
        "40",
        "--svg",
        out.to_str().expect("utf-8"),
        CBG3,
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let step = r
        .lines()
        .iter()
        .position(|l| l.starts_with("my-claim"))
        .expect("the new rule applies")
        - 1;
    let svg = std::fs::read_to_string(out.join(draw::svg_name(1, step))).expect("the picture");
    assert!(
        svg.contains("<title>my-claim: &lt;r6n4&gt; &amp; &apos;so&apos; ==&gt; r5c9 ≠ 4, r5c8 ≠ 4, r4c8 ≠ 4</title>"),
        "{svg}"
    );
    // Well-formed, and its eliminations are crossed out.
    usvg::Tree::from_str(&svg, &usvg::Options::default()).expect("well-formed");
    assert!(svg.contains(&format!("stroke=\"{}\"", style::ELIMINATED)));
}

/// The SVG file names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn solve_svg_writes_one_file_per_step_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = dir.path().join("in.txt");
    std::fs::write(
        &input,
        format!("{CBG3}\nnot a puzzle\n{FSHT}\n# a comment\n{CBG3}\n"),
    )
    .expect("write");
    let out = dir.path().join("a/b");
    let r = ruledoku([
        "solve",
        "--rules",
        "sfin",
        "--no-time",
        "--svg",
        out.to_str().expect("utf-8"),
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(r.code, Some(1), "a bad line: status 1");
    assert!(
        r.stderr.contains(":2:"),
        "the bad line is reported: {}",
        r.stderr
    );
    // Paths: steps are the lines between "rule set:" and the verdict.
    let paths: Vec<&str> = r.stdout.split("\n\n").collect();
    assert_eq!(paths.len(), 3);
    let steps = |p: &str| {
        p.lines()
            .skip(2)
            .take_while(|l| !l.starts_with("PUZZLE"))
            .count()
    };
    let names = names(&out);
    for (line, p) in [(1, paths[0]), (3, paths[1]), (5, paths[2])] {
        let n = steps(p);
        assert!(n > 0);
        let mine: Vec<&String> = names
            .iter()
            .filter(|f| f.starts_with(&format!("{line:06}-")))
            .collect();
        assert_eq!(mine.len(), n, "line {line}");
        assert_eq!(*mine[0], draw::svg_name(line, 1));
        assert_eq!(*mine[n - 1], draw::svg_name(line, n));
        // Each caption is its step's line.
        let last = std::fs::read_to_string(out.join(mine[n - 1])).expect("read");
        let text = p.lines().nth(n + 1).expect("last step");
        assert!(last.contains(&format!("<title>{}</title>", text.replace('>', "&gt;"))));
    }
    assert!(!names.iter().any(|f| f.starts_with("000002-")));
}

#[test]
fn solve_svg_and_html_errors_are_clear() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("f");
    std::fs::write(&file, "x").expect("write");
    let f = file.to_str().expect("utf-8");
    let r = ruledoku(["solve", "--svg", f, CBG3]);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stderr, format!("error: {f}: not a directory\n"));
    assert_eq!(r.stdout, "");
    let r = ruledoku(["solve", "--svg", "/proc/version/x", CBG3]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .starts_with("error: /proc/version/x: cannot create the directory: "),
        "{}",
        r.stderr
    );
    // A directory where no file can be made (sysfs): the first picture fails.
    let r = ruledoku(["solve", "--svg", "/sys", CBG3]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .starts_with("error: /sys/000001-001.svg: cannot write: "),
        "{}",
        r.stderr
    );
    let d = dir.path().to_str().expect("utf-8");
    let r = ruledoku(["solve", "--html", d, CBG3]);
    assert_eq!(r.code, Some(2));
    assert_eq!(r.stderr, format!("error: {d}: is a directory\n"));
    let r = ruledoku(["solve", "--html", "/dev/full", CBG3]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.starts_with("error: /dev/full: cannot write: "),
        "{}",
        r.stderr
    );
    // Pictures are `solve`'s: `rate` refuses them, as any unknown option.
    for args in [
        vec!["rate", "--svg", d, CBG3],
        vec!["rate", "--html", f, CBG3],
        vec!["solve", "--svgs", d, CBG3],
    ] {
        let r = ruledoku(&args);
        assert_eq!(r.code, Some(2), "{args:?}");
        assert!(r.stderr.contains("unexpected argument"), "{}", r.stderr);
    }
    let r = ruledoku(["solve", "--svg"]);
    assert_eq!(r.code, Some(2));
    let r = ruledoku(["solve", "--svg", "", CBG3]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .starts_with("error: a value is required for '--svg <DIR>'"),
        "{}",
        r.stderr
    );
    // The page never overwrites the input.
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{CBG3}\n")).expect("write");
    let i = input.to_str().expect("utf-8");
    let r = ruledoku(["solve", "--html", i, i]);
    assert_eq!(r.code, Some(2));
    assert_eq!(
        r.stderr,
        format!(
            "error: {i}: is the input, which writing it would destroy; give the page another name\n"
        )
    );
    assert_eq!(
        std::fs::read_to_string(&input).expect("read"),
        format!("{CBG3}\n")
    );
    // A missing input creates no directory.
    let missing = dir.path().join("never");
    let r = ruledoku([
        "solve",
        "--svg",
        missing.to_str().expect("utf-8"),
        "no-such-file",
    ]);
    assert_eq!(r.code, Some(2));
    assert!(!missing.exists());
}

#[test]
fn the_html_page_is_self_contained_and_holds_every_step() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = dir.path().join("in.txt");
    std::fs::write(
        &input,
        format!("{CBG3}\n{}\n{FSHT}\n", common::DUPLICATE_GIVEN),
    )
    .expect("write");
    let page = dir.path().join("page.html");
    let r = ruledoku([
        "solve",
        "--rules",
        "sfin",
        "--no-time",
        "--html",
        page.to_str().expect("utf-8"),
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let html = std::fs::read_to_string(&page).expect("the page");
    // Self-contained: nothing to fetch.
    for bad in [
        "http:", "https:", "src=", "<link", "@import", "url(http", "//cdn",
    ] {
        assert!(!html.contains(bad), "the page holds {bad:?}");
    }
    assert!(html.starts_with("<!DOCTYPE html>\n"));
    assert!(html.ends_with("</script>\n</body>\n</html>\n"));
    for tag in [
        "section", "div", "svg", "ol", "li", "p", "details", "pre", "g",
    ] {
        assert_eq!(
            html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count(),
            html.matches(&format!("</{tag}>")).count(),
            "<{tag}> balanced"
        );
    }
    // Every step of both paths, as a frame, in the list and in the text.
    let paths: Vec<&str> = r.stdout.split("\n\n").collect();
    assert_eq!(paths.len(), 2);
    let mut frames = 0;
    for (line, p) in [(1, paths[0]), (3, paths[1])] {
        let steps: Vec<&str> = p
            .lines()
            .skip(2)
            .take_while(|l| !l.starts_with("PUZZLE"))
            .collect();
        for (i, s) in steps.iter().enumerate() {
            let id = format!("p{line}-s{}", i + 1);
            assert!(html.contains(&format!("<div class=\"frame\" id=\"{id}\"")));
            let esc = s.replace('>', "&gt;");
            assert!(
                html.contains(&format!("<a href=\"#{id}\">{esc}</a>")),
                "{s}"
            );
        }
        frames += steps.len() + 2;
    }
    assert_eq!(html.matches("<div class=\"frame\"").count(), frames);
    // The rating, and the bad record with its message.
    assert!(html.contains("solved by sfin; rating FSHT (level 3"));
    assert!(html.contains("<section class=\"rejected\" id=\"p2\"><h2>Line 2</h2>"));
}

/// Steps through a page with key presses in headless Chromium (through
/// `scripts/html-report-check.mjs`, which speaks the DevTools protocol over
/// a pipe) and screenshots it. Needs `node` and `chromium` (Debian's).
#[test]
#[ignore]
fn html_report_in_chromium() {
    let dir = std::env::temp_dir().join("ruledoku-html-check");
    std::fs::create_dir_all(&dir).expect("dir");
    let page = dir.join("report.html");
    let input = dir.join("in.txt");
    std::fs::write(&input, format!("{CBG2}\n{FSHT}\n")).expect("write");
    let r = ruledoku([
        "solve",
        "--rules",
        "gw",
        "--html",
        page.to_str().expect("utf-8"),
        input.to_str().expect("utf-8"),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let shot = dir.join("report.png");
    let _ = std::fs::remove_file(&shot);
    let out = std::process::Command::new("node")
        .arg(root().join("scripts/html-report-check.mjs"))
        .arg(&page)
        .arg(&shot)
        .output()
        .expect("run node");
    let transcript = String::from_utf8_lossy(&out.stdout);
    eprintln!("{transcript}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the key presses did what they should");
    assert!(transcript.contains("ok: "));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(&png[1..4], b"PNG");
    eprintln!("screenshot: {}", shot.display());
}

/// Drawing a path of 100 steps or more (figures, SVG text and the HTML
/// section): figures for the README and the issue.
#[test]
#[ignore]
fn drawing_speed() {
    let run = solve("w", CBG2);
    let set = ruleset::load("w").expect("set");
    let n = run.steps.len();
    // Two runs of the same path make 100 steps or more.
    let reps = 100usize.div_ceil(n);
    let t = Instant::now();
    let mut bytes = 0;
    for _ in 0..reps {
        for f in draw::step_figures(1, &run) {
            bytes += Svg::file().render(&f).len();
        }
    }
    let svg = t.elapsed();
    let t = Instant::now();
    for _ in 0..reps {
        bytes += draw::html::puzzle_section(1, CBG2, &set, &run).len();
    }
    let html = t.elapsed();
    let steps = reps * n;
    eprintln!(
        "{steps} steps: SVG {:.1} ms ({:.0} µs a step), HTML sections {:.1} ms; {bytes} bytes",
        svg.as_secs_f64() * 1e3,
        svg.as_secs_f64() * 1e6 / steps as f64,
        html.as_secs_f64() * 1e3
    );
    assert!(steps >= 100);
}

#[test]
fn pictures_do_not_depend_on_the_number_of_threads() {
    let dir = tempfile::tempdir().expect("tmp");
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{CBG3}\n{FSHT}\n{CBG2}\n")).expect("write");
    let run = |j: &str| {
        let svg = dir.path().join(format!("svg{j}"));
        let html = dir.path().join(format!("page{j}.html"));
        let r = ruledoku([
            "solve",
            "-j",
            j,
            "--no-time",
            "--svg",
            svg.to_str().expect("utf-8"),
            "--html",
            html.to_str().expect("utf-8"),
            input.to_str().expect("utf-8"),
        ]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let files: Vec<(String, String)> = names(&svg)
            .into_iter()
            .map(|n| {
                let text = std::fs::read_to_string(svg.join(&n)).expect("read");
                (n, text)
            })
            .collect();
        (
            r.stdout,
            files,
            std::fs::read_to_string(html).expect("page"),
        )
    };
    let one = run("1");
    assert!(one.1.len() > 50);
    assert!(one == run("2"), "-j 2 draws what -j 1 does");
}

/// A figure in words: each role's candidates, the shaded houses, the
/// pattern's cells and the links, for a reviewable snapshot.
fn describe(fig: &Figure) -> String {
    use ruledoku::draw::LinkKind;
    use ruledoku::grid::geometry::{cand_name, cell_name, house_name};
    let node = |n: &Node| match n {
        Node::Cand(z) => cand_name(*z),
        Node::Group(g) => format!(
            "[{}]",
            g.iter()
                .map(|&z| cand_name(z))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    };
    let mut out = format!("{}\n", fig.caption);
    if !fig.houses.is_empty() {
        let hs: Vec<String> = fig.houses.iter().map(|&h| house_name(h)).collect();
        out.push_str(&format!("  houses: {}\n", hs.join(" ")));
    }
    if !fig.cells.is_empty() {
        let cs: Vec<String> = fig.cells.iter().map(cell_name).collect();
        out.push_str(&format!("  cells: {}\n", cs.join(" ")));
    }
    for m in [
        Mark::Pattern,
        Mark::Extra,
        Mark::Off,
        Mark::On,
        Mark::Target,
        Mark::Eliminated,
        Mark::Asserted,
    ] {
        let zs = fig.marked(m);
        if !zs.is_empty() {
            let names: Vec<String> = zs.into_iter().map(cand_name).collect();
            out.push_str(&format!("  {m:?}: {}\n", names.join(" ")));
        }
    }
    for l in &fig.links {
        let arrow = match l.kind {
            LinkKind::Strong => "==>",
            LinkKind::Weak => "-->",
        };
        out.push_str(&format!("  {} {arrow} {}\n", node(&l.from), node(&l.to)));
    }
    out
}

#[test]
fn what_each_kind_of_step_shows() {
    let mut out = String::new();
    for (set, puzzle, rules) in [
        (
            "basic",
            CBG3,
            &["naked-single", "hidden-single-in-a-row", "xy-wing"][..],
        ),
        (
            "sfin",
            FSHT,
            &[
                "whip[1]",
                "naked-pairs-in-a-row",
                "finned-swordfish-in-rows",
            ][..],
        ),
        ("w", CBG2, &["whip[3]"][..]),
        ("bc", CBG2, &["biv-chain[3]"][..]),
        ("gw", CBG2, &["g-whip[4]"][..]),
        (
            "b",
            // cbg-000 line 9: B4 (W5)
            &std::fs::read_to_string(data(CBG_SAMPLE))
                .expect("read")
                .lines()
                .nth(8)
                .expect("line 9")[..81],
            &["braid[4]"][..],
        ),
    ] {
        let run = solve(set, puzzle);
        for rule in rules {
            let (fig, _) = figure_of(&run, rule);
            out.push_str(&format!("[{set}] {}", describe(&fig)));
        }
    }
    insta::assert_snapshot!("what_each_kind_of_step_shows", out);
}
