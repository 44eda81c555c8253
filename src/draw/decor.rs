//! A type's decorations in SVG ([`super::sheet::Sheet`]): tinted extra
//! houses (windows, extra regions) under everything, thermometers and
//! main diagonals under the grid lines, the thick borders of irregular
//! regions with the grid lines, signs, Kropki dots and XV letters on the
//! cell borders over them, killer cages (a dashed outline inset from the
//! cells' borders, the sum in the top-left corner of the cage's first
//! cell) over the grid lines, and notes (rules shown as words) under the
//! grid. Classic 9×9 has none of them, and none of these functions writes
//! anything for it.

use super::figure::Figure;
use super::style::*;
use super::svg::{Layout, escape};
use std::fmt::Write;

/// Extra houses drawn as tinted cells.
pub fn under(o: &mut String, f: &Figure, lay: &Layout) {
    if f.sheet.tints.is_empty() {
        return;
    }
    let cell = lay.cell;
    let _ = write!(o, "<g fill=\"{TINT_FILL}\">");
    for house in &f.sheet.tints {
        for &c in house {
            let (x, y) = lay.cell_origin(c);
            let _ = write!(
                o,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\"/>"
            );
        }
    }
    o.push_str("</g>\n");
}

/// Thermometers (a bulb and a tube through the cells' centres) and main
/// diagonals that are houses (a line corner to corner).
pub fn thermometers(o: &mut String, f: &Figure, lay: &Layout) {
    let sheet = &f.sheet;
    if !sheet.thermometers.is_empty() {
        let _ = write!(
            o,
            "<g stroke=\"{DECOR_FILL}\" fill=\"{DECOR_FILL}\" stroke-width=\"{:.1}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">",
            lay.cell * 0.28
        );
        for t in &sheet.thermometers {
            let (bx, by) = lay.cell_center(t[0]);
            let _ = write!(
                o,
                "<circle cx=\"{bx:.1}\" cy=\"{by:.1}\" r=\"{:.1}\" stroke=\"none\"/>",
                lay.cell * 0.36
            );
            let pts: Vec<String> = t
                .iter()
                .map(|&c| {
                    let (x, y) = lay.cell_center(c);
                    format!("{x:.1},{y:.1}")
                })
                .collect();
            let _ = write!(o, "<polyline points=\"{}\" fill=\"none\"/>", pts.join(" "));
        }
        o.push_str("</g>\n");
    }
    if !sheet.diagonals.is_empty() {
        let (x0, y0, s) = (lay.x0, lay.y0, lay.side);
        let _ = write!(
            o,
            "<g stroke=\"{DIAGONAL_INK}\" stroke-width=\"{DIAGONAL_LINE}\">"
        );
        for &anti in &sheet.diagonals {
            let (xa, xb) = if anti { (x0 + s, x0) } else { (x0, x0 + s) };
            let _ = write!(
                o,
                "<line x1=\"{xa}\" y1=\"{y0}\" x2=\"{xb}\" y2=\"{}\"/>",
                y0 + s
            );
        }
        o.push_str("</g>\n");
    }
}

/// The thick borders between cells of different regions (inside the
/// thick-line group of the grid), merged into runs along each line.
pub fn region_borders(o: &mut String, lay: &Layout, region: &[usize]) {
    let n = (region.len() as f64).sqrt() as usize;
    let (x0, y0, cell) = (lay.x0, lay.y0, lay.cell);
    // Horizontal borders: between rows r-1 and r, runs of columns.
    for r in 1..n {
        let mut c = 0;
        while c < n {
            if region[(r - 1) * n + c] == region[r * n + c] {
                c += 1;
                continue;
            }
            let start = c;
            while c < n && region[(r - 1) * n + c] != region[r * n + c] {
                c += 1;
            }
            let y = y0 + r as f64 * cell;
            let _ = write!(
                o,
                "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>",
                x0 + start as f64 * cell,
                x0 + c as f64 * cell
            );
        }
    }
    // Vertical borders: between columns c-1 and c, runs of rows.
    for c in 1..n {
        let mut r = 0;
        while r < n {
            if region[r * n + c - 1] == region[r * n + c] {
                r += 1;
                continue;
            }
            let start = r;
            while r < n && region[r * n + c - 1] != region[r * n + c] {
                r += 1;
            }
            let x = x0 + c as f64 * cell;
            let _ = write!(
                o,
                "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"/>",
                y0 + start as f64 * cell,
                y0 + r as f64 * cell
            );
        }
    }
}

/// The middle of the border between orthogonal neighbours `a` and `b`,
/// and whether they are side by side (on one row).
fn border(lay: &Layout, a: usize, b: usize) -> ((f64, f64), bool) {
    let (pa, pb) = (lay.cell_center(a), lay.cell_center(b));
    (
        ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0),
        (pa.1 - pb.1).abs() < 0.5,
    )
}

/// Inequality signs, Kropki dots and XV letters on the cells' borders.
pub fn over(o: &mut String, f: &Figure, lay: &Layout) {
    let sheet = &f.sheet;
    if !sheet.signs.is_empty() {
        // A chevron whose point is at the smaller cell.
        let s = SIGN_SIZE;
        let _ = write!(
            o,
            "<g fill=\"none\" stroke=\"{INK}\" stroke-width=\"{SIGN_LINE}\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
        );
        for sign in &sheet.signs {
            let ((mx, my), across) = border(lay, sign.small, sign.big);
            let (ps, pb) = (lay.cell_center(sign.small), lay.cell_center(sign.big));
            let d = if across {
                if ps.0 < pb.0 { -1.0 } else { 1.0 }
            } else if ps.1 < pb.1 {
                -1.0
            } else {
                1.0
            };
            let path = if across {
                format!(
                    "M{:.1} {:.1} L{:.1} {my:.1} L{:.1} {:.1}",
                    mx - d * s * 0.6,
                    my - s,
                    mx + d * s * 0.6,
                    mx - d * s * 0.6,
                    my + s
                )
            } else {
                format!(
                    "M{:.1} {:.1} L{mx:.1} {:.1} L{:.1} {:.1}",
                    mx - s,
                    my - d * s * 0.6,
                    my + d * s * 0.6,
                    mx + s,
                    my - d * s * 0.6
                )
            };
            let _ = write!(o, "<path d=\"{path}\"/>");
        }
        o.push_str("</g>\n");
    }
    if !sheet.dots.is_empty() {
        let _ = write!(o, "<g stroke=\"{INK}\" stroke-width=\"1.5\">");
        for dot in &sheet.dots {
            let ((x, y), _) = border(lay, dot.a, dot.b);
            let fill = if dot.black { INK } else { BACKGROUND };
            let _ = write!(
                o,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{DOT_RADIUS}\" fill=\"{fill}\"/>"
            );
            if let Some(label) = &dot.label {
                let ink = if dot.black { BACKGROUND } else { INK };
                let _ = write!(
                    o,
                    "<text x=\"{x:.1}\" y=\"{:.1}\" stroke=\"none\" fill=\"{ink}\" font-family=\"{FONT_SANS}\" font-size=\"8\" text-anchor=\"middle\">{}</text>",
                    y + 3.0,
                    escape(label)
                );
            }
        }
        o.push_str("</g>\n");
    }
    if !sheet.letters.is_empty() {
        let _ = write!(
            o,
            "<g font-family=\"{FONT_SANS}\" font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{INK}\">"
        );
        for m in &sheet.letters {
            let ((x, y), _) = border(lay, m.a, m.b);
            let _ = write!(
                o,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"12\" height=\"14\" rx=\"2\" fill=\"{BACKGROUND}\"/><text x=\"{x:.1}\" y=\"{:.1}\">{}</text>",
                x - 6.0,
                y - 7.0,
                y + 4.5,
                escape(&m.text)
            );
        }
        o.push_str("</g>\n");
    }
}

/// How far a cage's outline runs inside its cells' borders, px.
const CAGE_INSET: f64 = 3.0;

/// Killer cages: each a dashed outline [`CAGE_INSET`] inside the border
/// of its region of cells, and its sum (when stated) in the top-left
/// corner of its first cell, on a white patch that interrupts the line.
pub fn cages(o: &mut String, f: &Figure, lay: &Layout) {
    let sheet = &f.sheet;
    if sheet.cages.is_empty() {
        return;
    }
    let (n, cell, d) = (sheet.n as isize, lay.cell, CAGE_INSET);
    let _ = write!(
        o,
        "<g stroke=\"{INK}\" stroke-width=\"1\" stroke-dasharray=\"3,2\" fill=\"none\">"
    );
    for (cells, _) in &sheet.cages {
        let inside = |r: isize, c: isize| {
            (0..n).contains(&r)
                && (0..n).contains(&c)
                && cells.binary_search(&((r * n + c) as usize)).is_ok()
        };
        let mut path = String::new();
        for &z in cells {
            let (r, c) = ((z / sheet.n) as isize, (z % sheet.n) as isize);
            let (x, y) = lay.cell_origin(z);
            // Each side without a cage neighbour, as (outward row and
            // column step, the side's direction along it).
            for (dr, dc) in [(-1isize, 0isize), (1, 0), (0, -1), (0, 1)] {
                if inside(r + dr, c + dc) {
                    continue;
                }
                // The two ends, toward -t and +t along the side.
                let (tr, tc) = (dc.abs(), dr.abs());
                let end = |s: isize| -> f64 {
                    let a = inside(r + s * tr, c + s * tc);
                    let b = inside(r + s * tr + dr, c + s * tc + dc);
                    match (a, b) {
                        (false, _) => d,
                        (true, false) => 0.0,
                        (true, true) => -d,
                    }
                };
                let (lo, hi) = (end(-1), cell - end(1));
                let fixed = if dr + dc < 0 { d } else { cell - d };
                let (x1, y1, x2, y2) = if dr != 0 {
                    (x + lo, y + fixed, x + hi, y + fixed)
                } else {
                    (x + fixed, y + lo, x + fixed, y + hi)
                };
                let _ = write!(path, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
            }
        }
        let _ = write!(o, "<path d=\"{path}\"/>");
    }
    o.push_str("</g>\n");
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"10\" fill=\"{INK}\">"
    );
    for (cells, sum) in &sheet.cages {
        let Some(sum) = sum else { continue };
        let (x, y) = lay.cell_origin(cells[0]);
        let text = sum.to_string();
        let w = 6.0 * text.len() as f64 + 2.0;
        let _ = write!(
            o,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"11\" fill=\"{BACKGROUND}\"/><text x=\"{:.1}\" y=\"{:.1}\">{text}</text>",
            x + 1.5,
            y + 1.5,
            x + 2.5,
            y + 10.5
        );
    }
    o.push_str("</g>\n");
}

/// The rules a picture shows as words, one line each, under the grid.
pub fn notes(o: &mut String, f: &Figure, lay: &Layout) {
    if f.sheet.notes.is_empty() {
        return;
    }
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"{CAPTION_SIZE}\" fill=\"{LABEL_INK}\" font-style=\"italic\">"
    );
    for (i, note) in f.sheet.notes.iter().enumerate() {
        let _ = write!(
            o,
            "<text x=\"{}\" y=\"{:.1}\">{}</text>",
            lay.x0,
            lay.notes_y + (i as f64 + 0.8) * CAPTION_LINE,
            escape(note)
        );
    }
    o.push_str("</g>\n");
}
