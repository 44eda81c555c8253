//! Resolution paths as one self-contained HTML page: per puzzle, its
//! givens, rating, one frame per step (the step's picture, inline SVG, and
//! its SudoRules line), the state reached, the list of steps and the path
//! as text. CSS and JavaScript are inline; nothing is fetched, so the file
//! opens from disk in any browser and can be mailed or archived as is.
//!
//! Keys: ← and → go one frame back and forth (across puzzles), Home and
//! End to the first and last frame of the puzzle, Page Up and Page Down to
//! the start of the previous and next puzzle (of the first and last one
//! at the ends). The frame shown is kept in the address
//! (`#p12-s7`: line 12, step 7), so a reload or a link opens it again.
//! Without JavaScript every frame is shown, one under another. Records
//! that were not solved are listed (under the puzzle shown, with JavaScript)
//! with their message.
//!
//! A page is written in pieces, so that a long input streams to disk:
//! [`header`], then one [`puzzle_section`] or [`rejected_section`] per
//! input record, in input order (a [`left_out_section`] when the page
//! reached its size limit), then [`footer`].

use super::figure::Figure;
use super::style::*;
use super::svg::{Svg, escape};
use crate::engine::{Run, StopReason};
use crate::path::render_run;
use crate::ruleset::RuleSet;
use std::fmt::Write;

/// The start of a page titled `title` (the input's name).
pub fn header(title: &str) -> String {
    header_with(title, "")
}

/// The start of a page of puzzles of type `m`: the legend also says what
/// the type's marks mean (those its pictures can show).
pub fn typed_header(title: &str, m: &crate::model::Model) -> String {
    use crate::model::Variant;
    let mut items = vec![format!("<b>type {}</b>", escape(m.name()))];
    let sheet = super::sheet::Sheet::of(m);
    let has = |f: fn(&Variant) -> bool| m.spec.variants.iter().any(f);
    if m.spec.puzzle_signs || !sheet.signs.is_empty() {
        items.push("‹ › ∧ ∨ inequality, the point at the smaller cell".into());
    }
    if has(|v| matches!(v, Variant::WhiteDot { .. } | Variant::BlackDot { .. })) {
        items.push("○ consecutive (white dot), ● ratio 2 (black dot)".into());
    }
    if has(|v| matches!(v, Variant::Xv { .. })) {
        items.push("X sum 10, V sum 5".into());
    }
    if has(|v| matches!(v, Variant::Thermometer(_))) {
        items.push(format!(
            "<span class=\"sw\" style=\"background:{DECOR_FILL}\"></span>thermometer, increasing from the bulb"
        ));
    }
    if !sheet.diagonals.is_empty() {
        items.push(format!(
            "<span class=\"ln\" style=\"border-top:2px solid {DIAGONAL_INK}\"></span>diagonal house"
        ));
    }
    if !sheet.tints.is_empty() {
        items.push(format!(
            "<span class=\"sw\" style=\"background:{TINT_FILL};border-radius:0\"></span>extra house"
        ));
    }
    items.extend(sheet.notes.iter().map(|n| escape(n)));
    header_with(
        title,
        &format!("<div class=\"legend\">{}</div>\n", items.join(" · ")),
    )
}

/// A page's start with `extra` after the legend.
fn header_with(title: &str, extra: &str) -> String {
    let t = escape(title);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>ruledoku: {t}</title>\n<style>\n{css}</style>\n</head>\n<body>\n\
         <header id=\"bar\"><strong>ruledoku</strong> <span class=\"src\">{t}</span>\n\
         <button type=\"button\" id=\"prev\" title=\"previous step (←)\">◀</button>\
         <button type=\"button\" id=\"next\" title=\"next step (→)\">▶</button>\n\
         <span id=\"where\"></span>\n\
         <span class=\"keys\">← → step · Home End first/last · PgUp PgDn puzzle</span>\n{legend}{extra}</header>\n<main>\n",
        css = css(),
        legend = legend()
    )
}

/// The end of a page: the script that steps through the frames.
pub fn footer() -> String {
    format!("</main>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n")
}

/// What the marks of a picture mean, one swatch each.
fn legend() -> String {
    let disc =
        |c: Rgb, what: &str| format!("<span class=\"sw\" style=\"background:{c}\"></span>{what}");
    let ring = |c: Rgb, style: &str, what: &str| {
        format!("<span class=\"sw\" style=\"border:2px {style} {c}\"></span>{what}")
    };
    let items = [
        disc(PATTERN_FILL, "pattern"),
        disc(CELL_FILL, "pattern cell"),
        disc(HOUSE_FILL, "house"),
        disc(OFF_FILL, "left-linking (false if the target is true)"),
        disc(ON_FILL, "right-linking (true)"),
        ring(GROUP_RING, "solid", "g-candidate"),
        ring(EXTRA_RING, "dotted", "z/t-candidate"),
        ring(TARGET_RING, "solid", "target"),
        format!("<span class=\"ln\" style=\"border-top:2px solid {LINK}\"></span>strong link"),
        format!("<span class=\"ln\" style=\"border-top:2px dashed {LINK}\"></span>weak link"),
        format!("<span style=\"color:{ELIMINATED}\">✕</span> eliminated"),
        disc(ASSERTED, "asserted"),
        format!("<b>5</b> given, <span style=\"color:{PLACED}\">5</span> placed"),
    ];
    format!("<div class=\"legend\">{}</div>", items.join(" "))
}

fn css() -> String {
    format!(
        "body {{ font-family: {FONT_SANS}; margin: 0; color: {INK}; background: {BACKGROUND}; }}\n\
         #bar {{ position: sticky; top: 0; background: #f4f4f4; border-bottom: 1px solid #ccc; padding: 6px 12px; z-index: 1; }}\n\
         #bar button {{ font-size: 14px; margin-left: 6px; }}\n\
         #where {{ margin-left: 10px; }}\n\
         .keys, .src {{ color: {LABEL_INK}; font-size: 12px; margin-left: 10px; }}\n\
         main {{ padding: 8px 12px; }}\n\
         .legend {{ font-size: 11px; color: {LABEL_INK}; margin-top: 4px; }}\n\
         .sw {{ display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin: 0 3px 0 8px; vertical-align: -1px; box-sizing: border-box; }}\n\
         .ln {{ display: inline-block; width: 18px; height: 0; margin: 0 3px 0 8px; vertical-align: 3px; }}\n\
         section {{ margin-bottom: 24px; }}\n\
         h2 {{ font-size: 16px; margin: 8px 0; }}\n\
         code, pre, .line {{ font-family: {FONT_MONO}; font-size: 13px; }}\n\
         .givens code {{ word-break: break-all; }}\n\
         .view {{ display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }}\n\
         .frame {{ border-top: 1px solid #ddd; padding-top: 4px; }}\n\
         .frame .line {{ max-width: 540px; margin: 4px 0; }}\n\
         ol.steps {{ position: relative; font-family: {FONT_MONO}; font-size: 12px; max-height: 640px; overflow-y: auto; margin: 0; padding-left: 3.5em; flex: 1; min-width: 300px; }}\n\
         ol.steps li.current {{ background: {CELL_FILL}; }}\n\
         ol.steps a {{ color: inherit; text-decoration: none; }}\n\
         .rejected {{ color: {ELIMINATED}; }}\n\
         body.js main {{ display: flex; flex-direction: column; }}\n\
         body.js section.rejected {{ order: 1; margin: 0; font-size: 12px; }}\n\
         body.js section.rejected h2 {{ display: inline; font-size: 12px; margin-right: 8px; }}\n\
         body.js section.rejected p {{ display: inline; }}\n\
         body.js section.puzzle {{ display: none; }}\n\
         body.js section.puzzle.current {{ display: block; }}\n\
         body.js .frame {{ display: none; border: 0; }}\n\
         body.js .frame.current {{ display: block; }}\n"
    )
}

/// The script: show one frame at a time and move with the keys.
const SCRIPT: &str = r##"(function () {
  "use strict";
  var frames = Array.prototype.slice.call(document.querySelectorAll(".frame"));
  var where = document.getElementById("where");
  if (frames.length === 0) { where.textContent = "no steps to show"; return; }
  document.body.classList.add("js");
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.puzzle"));
  var cur = -1;
  function sectionOf(f) { return f.closest("section.puzzle"); }
  function framesOf(s) { return frames.filter(function (f) { return sectionOf(f) === s; }); }
  function show(i) {
    if (i < 0 || i >= frames.length || i === cur) return;
    if (cur >= 0) {
      frames[cur].classList.remove("current");
      sectionOf(frames[cur]).classList.remove("current");
      var old = document.querySelector("li.current");
      if (old) old.classList.remove("current");
    }
    var was = cur >= 0 ? sectionOf(frames[cur]) : null;
    cur = i;
    var f = frames[i], s = sectionOf(f);
    if (s !== was) window.scrollTo(0, 0);
    f.classList.add("current");
    s.classList.add("current");
    var li = s.querySelector("li[data-frame='" + f.id + "']");
    if (li) {
      li.classList.add("current");
      // Scroll the list only, never the page.
      var ol = li.parentNode;
      if (li.offsetTop < ol.scrollTop || li.offsetTop + li.offsetHeight > ol.scrollTop + ol.clientHeight) {
        ol.scrollTop = li.offsetTop - ol.clientHeight / 2;
      }
    }
    where.textContent = "puzzle " + (sections.indexOf(s) + 1) + " of " + sections.length +
      " (line " + s.dataset.line + ") · " + f.dataset.label;
    try { history.replaceState(null, "", "#" + f.id); } catch (e) { /* file: URLs may refuse */ }
  }
  function puzzleStep(d) {
    var k = sections.indexOf(sectionOf(frames[cur])) + d;
    k = Math.max(0, Math.min(sections.length - 1, k));
    show(frames.indexOf(framesOf(sections[k])[0]));
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var fs = framesOf(sectionOf(frames[cur]));
    switch (e.key) {
      case "ArrowRight": show(cur + 1); break;
      case "ArrowLeft": show(cur - 1); break;
      case "Home": show(frames.indexOf(fs[0])); break;
      case "End": show(frames.indexOf(fs[fs.length - 1])); break;
      case "PageDown": puzzleStep(1); break;
      case "PageUp": puzzleStep(-1); break;
      default: return;
    }
    e.preventDefault();
  });
  document.getElementById("prev").addEventListener("click", function () { show(cur - 1); });
  document.getElementById("next").addEventListener("click", function () { show(cur + 1); });
  document.querySelectorAll("ol.steps a").forEach(function (a) {
    a.addEventListener("click", function (e) {
      e.preventDefault();
      show(frames.indexOf(document.getElementById(a.getAttribute("href").slice(1))));
    });
  });
  var start = frames.indexOf(document.getElementById(location.hash.slice(1)));
  show(start >= 0 ? start : 0);
})();
"##;

/// One frame: a picture and its line of text.
fn frame(o: &mut String, id: &str, label: &str, fig: &Figure, text: &str) {
    let _ = writeln!(
        o,
        "<div class=\"frame\" id=\"{id}\" data-label=\"{}\">",
        escape(label)
    );
    o.push_str(&Svg::inline(id).render(fig));
    let _ = writeln!(
        o,
        "<p class=\"line\"><b>{}</b> {}</p>\n</div>",
        escape(label),
        escape(text)
    );
}

/// The section of one solved (or attempted) puzzle: its givens, rating,
/// a frame for the start, one per step and one for the state reached,
/// the list of steps, and the path as text.
pub fn puzzle_section(line: usize, puzzle: &str, set: &RuleSet, run: &Run) -> String {
    let verdict = if run.stop == StopReason::Solved {
        format!(
            "solved by {}; rating {} (level {}, hardest rule {})",
            set.name,
            run.rating(),
            run.level(),
            run.hardest_rule().unwrap_or("none")
        )
    } else {
        format!(
            "not solved by {} ({}); {} values missing; hardest rule applied: {}",
            set.name,
            run.stop.name(),
            81 - run.state.value_count(),
            run.hardest_rule().unwrap_or("none")
        )
    };
    let givens = super::givens(run);
    section(Section {
        line,
        puzzle,
        verdict: &verdict,
        start: Figure::grid(run.initial, givens),
        steps: Box::new(super::step_figures(line, run)),
        n: run.steps.len(),
        end: Figure::grid(run.state, givens),
        texts: Box::new(run.steps.iter().map(|s| s.text())),
        path: &render_run(puzzle, set, run),
    })
}

/// What a puzzle's section shows (classic and typed runs alike).
pub struct Section<'a> {
    pub line: usize,
    pub puzzle: &'a str,
    /// The outcome, under the givens and under the last frame.
    pub verdict: &'a str,
    /// The grid at the start, each step's figure (titled), the grid at
    /// the end.
    pub start: Figure,
    pub steps: Box<dyn Iterator<Item = Figure> + 'a>,
    pub n: usize,
    pub end: Figure,
    /// Each step as a line of the path.
    pub texts: Box<dyn Iterator<Item = String> + 'a>,
    /// The whole path as text.
    pub path: &'a str,
}

/// A puzzle's section of the page (see [`Section`]).
pub fn section(parts: Section) -> String {
    let Section {
        line,
        puzzle,
        verdict,
        mut start,
        steps,
        n,
        mut end,
        texts,
        path,
    } = parts;
    let mut o = String::with_capacity(16 * 1024 * (n + 2));
    let p = format!("p{line}");
    let _ = writeln!(
        o,
        "<section class=\"puzzle\" id=\"{p}\" data-line=\"{line}\">\n<h2>Line {line}</h2>\n\
         <p class=\"givens\"><code>{}</code></p>\n<p class=\"rating\">{} · {n} steps</p>\n\
         <div class=\"view\"><div class=\"frames\">",
        escape(puzzle),
        escape(verdict)
    );
    start.title = format!("line {line} · start");
    frame(
        &mut o,
        &format!("{p}-s0"),
        "start",
        &start,
        &format!("{n} steps follow"),
    );
    for (i, fig) in steps.enumerate() {
        let label = format!("step {} of {n}", i + 1);
        let text = fig.caption.clone();
        frame(&mut o, &format!("{p}-s{}", i + 1), &label, &fig, &text);
    }
    end.title = format!("line {line} · end");
    frame(&mut o, &format!("{p}-end"), "end", &end, verdict);
    o.push_str("</div>\n<ol class=\"steps\">\n");
    for (i, text) in texts.enumerate() {
        let id = format!("{p}-s{}", i + 1);
        let _ = writeln!(
            o,
            "<li data-frame=\"{id}\"><a href=\"#{id}\">{}</a></li>",
            escape(&text)
        );
    }
    let _ = writeln!(
        o,
        "</ol></div>\n<details><summary>Path as text</summary>\n<pre>{}</pre></details>\n</section>",
        escape(path)
    );
    o
}

/// The page's last section when it reached its size limit (`limit`
/// bytes) at input line `line`: `n` records from there on are left out.
pub fn left_out_section(line: usize, n: usize, limit: u64) -> String {
    format!(
        "<section class=\"rejected\" id=\"left-out\"><h2>Not drawn</h2><p>The page reached its limit of {} MiB at input line {line}: {n} record{} from there on {} left out. Split the input to draw them.</p></section>\n",
        limit >> 20,
        if n == 1 { "" } else { "s" },
        if n == 1 { "is" } else { "are" }
    )
}

/// The section of a record that was not solved (not a puzzle, or not one
/// with a unique solution): its line and the message.
pub fn rejected_section(line: usize, puzzle: Option<&str>, message: &str) -> String {
    let puzzle = puzzle.map_or(String::new(), |p| {
        format!(" <code class=\"givens\">{}</code>", escape(p))
    });
    format!(
        "<section class=\"rejected\" id=\"p{line}\"><h2>Line {line}</h2><p>{}{puzzle}</p></section>\n",
        escape(message)
    )
}
