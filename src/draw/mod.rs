//! Pictures of resolution paths: one SVG per step, and a whole path as one
//! self-contained HTML page.
//!
//! The pipeline is `Step` → [`Figure`] (what to show: roles of houses,
//! cells and candidates, links, caption; built from the step's evidence
//! only) → SVG text ([`svg::Svg`]) → files ([`write_svgs`]) or a page
//! ([`html`]: header, one section per record, footer). Fonts, colours
//! and sizes are the constants of [`style`], shared with the study tools'
//! plots.
//!
//! Every puzzle type is drawn: a figure lies on a [`Sheet`] (the type's
//! side, symbols, houses, blocks or regions and decorations, [`sheet`],
//! drawn by [`decor`]); steps of typed runs become figures in [`typed`].
//!
//! Architecture Invariant: pictures come from evidence only. A step is
//! drawn from its `Evidence`, its conclusions and the state before it; no
//! rule or technique is named here, so a new rule file is drawn with no
//! code of its own, and a new kind of evidence is one arm in
//! [`Figure::from_step`].

pub mod decor;
pub mod figure;
pub mod html;
pub mod sheet;
pub mod style;
pub mod svg;
pub mod typed;

pub use figure::{ChainLink, ChainPicture, Figure, Link, LinkKind, Mark, Node};
pub use sheet::Sheet;

use crate::engine::Run;
use crate::grid::bits::CellSet;
use std::path::{Path, PathBuf};

/// The file name of step `step` (1-based) of the puzzle on input line
/// `line`: `000012-007.svg`. Zero-padded (6 and 3 digits, more when the
/// number needs them) so that names sort in path order.
pub fn svg_name(line: usize, step: usize) -> String {
    format!("{line:06}-{step:03}.svg")
}

/// Is `name` a name [`svg_name`] gives (a picture `--svg` may replace)?
pub fn is_svg_name(name: &str) -> bool {
    let Some((line, step)) = name.strip_suffix(".svg").and_then(|s| s.split_once('-')) else {
        return false;
    };
    let digits = |s: &str, least: usize| s.len() >= least && s.bytes().all(|b| b.is_ascii_digit());
    digits(line, 6) && digits(step, 3)
}

/// The figures of a run's steps, in order, each titled with the puzzle's
/// input line and the step's number.
pub fn step_figures(line: usize, run: &Run) -> impl Iterator<Item = Figure> + '_ {
    let givens = givens(run);
    let n = run.steps.len();
    run.steps.iter().enumerate().map(move |(i, s)| {
        let mut f = Figure::from_step(s, givens);
        f.title = format!("line {line} · step {} of {n} · {}", i + 1, s.rule_name());
        f
    })
}

/// The cells a run's puzzle gives (the values of its initial state).
pub fn givens(run: &Run) -> CellSet {
    figure::value_cells(&run.initial)
}

/// Writes the SVG of each of `figures` into `dir`, named for input line
/// `line` and the step's number ([`svg_name`]); returns the paths
/// written. An error names the file.
pub fn write_figures(
    dir: &Path,
    line: usize,
    figures: impl Iterator<Item = Figure>,
) -> Result<Vec<PathBuf>, String> {
    let style = svg::Svg::file();
    let mut out = Vec::new();
    for (i, f) in figures.enumerate() {
        let path = dir.join(svg_name(line, i + 1));
        std::fs::write(&path, style.render(&f))
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        out.push(path);
    }
    Ok(out)
}

/// Prepares `dir` for pictures: creates it (and its parents) when missing;
/// an error names it when it is empty, not a directory or cannot be
/// created.
pub fn prepare_dir(dir: &Path) -> Result<(), String> {
    if dir.as_os_str().is_empty() {
        Err("the directory name is empty (use . for the current directory)".into())
    } else if dir.is_dir() {
        Ok(())
    } else if dir.exists() {
        Err(format!("{}: not a directory", dir.display()))
    } else {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{}: cannot create the directory: {e}", dir.display()))
    }
}

/// Writes one SVG per step of `run` into `dir` (see [`svg_name`]);
/// returns the paths written. An error names the file.
pub fn write_svgs(dir: &Path, line: usize, run: &Run) -> Result<Vec<PathBuf>, String> {
    write_figures(dir, line, step_figures(line, run))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sort_in_path_order() {
        assert_eq!(svg_name(3, 12), "000003-012.svg");
        assert_eq!(svg_name(1234567, 1000), "1234567-1000.svg");
        assert!(svg_name(9, 99) < svg_name(9, 100));
        assert!(svg_name(9, 100) < svg_name(10, 1));
        assert!(is_svg_name(&svg_name(3, 12)) && is_svg_name(&svg_name(1234567, 1000)));
        for other in ["in.txt", "000003-012.svg.bak", "3-12.svg", "00000a-012.svg"] {
            assert!(!is_svg_name(other), "{other}");
        }
    }
}
