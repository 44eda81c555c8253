//! A [`Figure`] as SVG: the candidate grid, the marks, the links and the
//! caption, with the conventions of [`super::style`].
//!
//! The picture is plain SVG 1.1 (rectangles, circles, lines, paths, text),
//! readable by browsers and by resvg. [`Svg::file`] makes a standalone
//! document; [`Svg::inline`] an `<svg>` element for an HTML page (no XML
//! declaration, no namespace URI: the HTML parser supplies it). Element
//! ids (the arrowhead marker) carry a prefix so that many pictures can
//! share one page.

use super::figure::{Figure, LinkKind, Mark, Node};
use super::style::*;
use crate::grid::geometry::*;
use std::fmt::Write;

/// How to write a figure: standalone or inline, and the prefix of its ids.
#[derive(Clone, Debug)]
pub struct Svg {
    standalone: bool,
    id: String,
}

impl Svg {
    /// A standalone SVG file.
    pub fn file() -> Svg {
        Svg {
            standalone: true,
            id: "f".into(),
        }
    }

    /// An `<svg>` element for an HTML page; `id` prefixes its element ids
    /// (unique per picture on the page).
    pub fn inline(id: &str) -> Svg {
        Svg {
            standalone: false,
            id: id.into(),
        }
    }

    /// The figure as SVG text.
    pub fn render(&self, f: &Figure) -> String {
        let lay = Layout::of(f);
        let mut o = String::with_capacity(24 * 1024);
        if self.standalone {
            o.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        }
        let xmlns = if self.standalone {
            " xmlns=\"http://www.w3.org/2000/svg\""
        } else {
            ""
        };
        let _ = writeln!(
            o,
            "<svg{xmlns} width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">",
            w = lay.width,
            h = lay.height
        );
        let _ = writeln!(o, "<title>{}</title>", escape(&f.caption));
        self.defs(&mut o);
        let _ = writeln!(
            o,
            "<rect width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
            lay.width, lay.height
        );
        fills(&mut o, f, &lay);
        grid_lines(&mut o, &lay);
        values(&mut o, f, &lay);
        marks(&mut o, f, &lay);
        cand_digits(&mut o, f, &lay);
        crosses(&mut o, f, &lay);
        self.links(&mut o, f, &lay);
        texts(&mut o, f, &lay);
        o.push_str("</svg>\n");
        o
    }

    fn defs(&self, o: &mut String) {
        let _ = writeln!(
            o,
            "<defs><marker id=\"{}-arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" \
             markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\">\
             <path d=\"M0,0 L10,5 L0,10 z\" fill=\"{LINK}\"/></marker></defs>",
            self.id
        );
    }

    fn links(&self, o: &mut String, f: &Figure, lay: &Layout) {
        if f.links.is_empty() {
            return;
        }
        let _ = writeln!(
            o,
            "<g fill=\"none\" stroke=\"{LINK}\" stroke-width=\"{LINK_WIDTH}\" stroke-linecap=\"round\">"
        );
        for l in &f.links {
            // Each end: the candidate, or the member of a group nearest
            // the other end.
            let (a0, b0) = (lay.node_center(l.from), lay.node_center(l.to));
            let a = lay.node_point(l.from, b0);
            let b = lay.node_point(l.to, a0);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len < 2.0 * MARK_RADIUS + 1.0 {
                continue;
            }
            let (ux, uy) = (dx / len, dy / len);
            let (x1, y1) = (a.0 + ux * MARK_RADIUS, a.1 + uy * MARK_RADIUS);
            let (x2, y2) = (b.0 - ux * MARK_RADIUS, b.1 - uy * MARK_RADIUS);
            // A slight bend, so that links along one line stay apart.
            let bend = (0.12 * len).min(14.0);
            let (cx, cy) = ((x1 + x2) / 2.0 - uy * bend, (y1 + y2) / 2.0 + ux * bend);
            let dash = match l.kind {
                LinkKind::Strong => String::new(),
                LinkKind::Weak => format!(" stroke-dasharray=\"{} {}\"", WEAK_DASH.0, WEAK_DASH.1),
            };
            let _ = writeln!(
                o,
                "<path d=\"M{x1:.1} {y1:.1} Q{cx:.1} {cy:.1} {x2:.1} {y2:.1}\"{dash} marker-end=\"url(#{}-arrow)\"/>",
                self.id
            );
        }
        o.push_str("</g>\n");
    }
}

/// Where things are in a picture.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Top-left corner of the grid.
    pub x0: f64,
    pub y0: f64,
    pub width: f64,
    pub height: f64,
    /// Top of the caption.
    caption_y: f64,
    title: bool,
}

/// Height of the title band, px.
const TITLE_BAND: f64 = 22.0;
/// Padding right of and below the grid, px.
const PAD: f64 = 10.0;

impl Layout {
    /// The layout of a figure (the caption's length sets the height).
    pub fn of(f: &Figure) -> Layout {
        let title = !f.title.is_empty();
        let top = if title { TITLE_BAND } else { 0.0 };
        let x0 = MARGIN;
        let y0 = top + MARGIN;
        let grid = 9.0 * CELL;
        let lines = wrap(&f.caption, CAPTION_CHARS).len() as f64;
        let caption_y = y0 + grid + PAD;
        Layout {
            x0,
            y0,
            width: x0 + grid + PAD,
            height: caption_y + lines * CAPTION_LINE + PAD,
            caption_y,
            title,
        }
    }

    /// Top-left corner of a cell.
    pub fn cell_origin(&self, c: usize) -> (f64, f64) {
        (
            self.x0 + cell_col(c) as f64 * CELL,
            self.y0 + cell_row(c) as f64 * CELL,
        )
    }

    /// Centre of a cell.
    pub fn cell_center(&self, c: usize) -> (f64, f64) {
        let (x, y) = self.cell_origin(c);
        (x + CELL / 2.0, y + CELL / 2.0)
    }

    /// Centre of a candidate's place in its cell (digits 1-9 read as a
    /// keypad: 1 2 3 on top).
    pub fn cand_center(&self, z: usize) -> (f64, f64) {
        let (x, y) = self.cell_origin(cand_cell(z));
        let d = cand_digit(z);
        let third = CELL / 3.0;
        (
            x + (d % 3) as f64 * third + third / 2.0,
            y + (d / 3) as f64 * third + third / 2.0,
        )
    }

    /// Centre of a node (a group's: the mean of its members').
    pub fn node_center(&self, n: Node) -> (f64, f64) {
        match n {
            Node::Cand(z) => self.cand_center(z),
            Node::Group(g) => {
                let pts: Vec<_> = g.iter().map(|z| self.cand_center(z)).collect();
                let k = pts.len().max(1) as f64;
                (
                    pts.iter().map(|p| p.0).sum::<f64>() / k,
                    pts.iter().map(|p| p.1).sum::<f64>() / k,
                )
            }
        }
    }

    /// Where a link to `toward` leaves a node: the candidate, or the
    /// member of a group nearest `toward`.
    fn node_point(&self, n: Node, toward: (f64, f64)) -> (f64, f64) {
        match n {
            Node::Cand(z) => self.cand_center(z),
            Node::Group(g) => g
                .iter()
                .map(|z| self.cand_center(z))
                .min_by(|a, b| dist2(*a, toward).total_cmp(&dist2(*b, toward)))
                .unwrap_or(toward),
        }
    }
}

fn dist2(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

/// Text escaped for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}

/// Splits text into lines of at most `width` characters. It breaks at
/// spaces outside braces and not next to `=` or `≠`, so that `r1c2{n3 n4}`
/// and `r5c6 ≠ 7` stay whole; a longer piece is cut.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    // The pieces between break opportunities.
    let chars: Vec<char> = text.chars().collect();
    let mut words: Vec<Vec<char>> = Vec::new();
    let mut cur: Vec<char> = Vec::new();
    let mut depth = 0usize;
    for (i, &ch) in chars.iter().enumerate() {
        match ch {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let glued = |c: Option<&char>| matches!(c, Some('=' | '≠'));
        if ch == ' '
            && depth == 0
            && !glued(chars.get(i + 1))
            && !glued(i.checked_sub(1).and_then(|j| chars.get(j)))
        {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
        } else {
            cur.push(ch);
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut lines = Vec::new();
    let mut line: Vec<char> = Vec::new();
    for mut word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line).into_iter().collect());
        }
        while word.len() > width {
            let rest = word.split_off(width);
            lines.push(word.into_iter().collect());
            word = rest;
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.extend(word);
    }
    if !line.is_empty() {
        lines.push(line.into_iter().collect());
    }
    lines
}

/// House and cell fills.
fn fills(o: &mut String, f: &Figure, lay: &Layout) {
    let mut shaded = [false; N_CELLS];
    for &h in &f.houses {
        for c in house_cells(h) {
            shaded[c] = true;
        }
    }
    for (c, &s) in shaded.iter().enumerate() {
        let fill = if f.cells.contains(c) {
            CELL_FILL
        } else if s {
            HOUSE_FILL
        } else {
            continue;
        };
        let (x, y) = lay.cell_origin(c);
        let _ = writeln!(
            o,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
        );
    }
    for c in f.cells.iter().filter(|&c| !shaded[c]) {
        let (x, y) = lay.cell_origin(c);
        let _ = writeln!(
            o,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{CELL_FILL}\"/>"
        );
    }
}

fn grid_lines(o: &mut String, lay: &Layout) {
    let side = 9.0 * CELL;
    let (x0, y0) = (lay.x0, lay.y0);
    let _ = write!(o, "<g stroke=\"{THIN_INK}\" stroke-width=\"{THIN_LINE}\">");
    for i in (1..9).filter(|i| i % 3 != 0) {
        let p = i as f64 * CELL;
        let _ = write!(
            o,
            "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/><line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{y2}\"/>",
            y = y0 + p,
            x2 = x0 + side,
            x = x0 + p,
            y2 = y0 + side
        );
    }
    o.push_str("</g>\n");
    let _ = write!(
        o,
        "<g stroke=\"{INK}\" stroke-width=\"{THICK_LINE}\" fill=\"none\">"
    );
    for i in [3, 6] {
        let p = i as f64 * CELL;
        let _ = write!(
            o,
            "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/><line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{y2}\"/>",
            y = y0 + p,
            x2 = x0 + side,
            x = x0 + p,
            y2 = y0 + side
        );
    }
    let _ = writeln!(
        o,
        "<rect x=\"{x0}\" y=\"{y0}\" width=\"{side}\" height=\"{side}\"/></g>"
    );
    // Row and column labels.
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"{LABEL_SIZE}\" fill=\"{LABEL_INK}\" text-anchor=\"middle\">"
    );
    for i in 0..9 {
        let mid = (i as f64 + 0.5) * CELL;
        let _ = write!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\">c{}</text><text x=\"{:.1}\" y=\"{:.1}\">r{}</text>",
            x0 + mid,
            y0 - 8.0,
            i + 1,
            x0 / 2.0,
            y0 + mid + LABEL_SIZE * 0.35,
            i + 1
        );
    }
    o.push_str("</g>\n");
}

/// Givens and placed values.
fn values(o: &mut String, f: &Figure, lay: &Layout) {
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"{VALUE_SIZE}\" text-anchor=\"middle\">"
    );
    for z in f.state.values.iter() {
        let c = cand_cell(z);
        let (x, y) = lay.cell_center(c);
        let (fill, weight) = if f.givens.contains(c) {
            (GIVEN, "bold")
        } else {
            (PLACED, "normal")
        };
        let _ = write!(
            o,
            "<text x=\"{x:.1}\" y=\"{:.1}\" fill=\"{fill}\" font-weight=\"{weight}\">{}</text>",
            y + VALUE_SIZE * 0.35,
            cand_digit(z) + 1
        );
    }
    o.push_str("</g>\n");
}

/// Discs and rings behind the candidates' digits, and group outlines.
fn marks(o: &mut String, f: &Figure, lay: &Layout) {
    for (z, m) in f.marks.iter().enumerate() {
        let Some(m) = m else { continue };
        let (x, y) = lay.cand_center(z);
        let shape = match m {
            Mark::Pattern => format!("fill=\"{PATTERN_FILL}\""),
            Mark::On => format!("fill=\"{ON_FILL}\""),
            Mark::Off => format!("fill=\"{OFF_FILL}\""),
            Mark::Extra => {
                format!(
                    "fill=\"none\" stroke=\"{EXTRA_RING}\" stroke-width=\"1.2\" stroke-dasharray=\"2 2\""
                )
            }
            Mark::Target => format!("fill=\"none\" stroke=\"{TARGET_RING}\" stroke-width=\"2\""),
            Mark::Eliminated => {
                format!("fill=\"none\" stroke=\"{ELIMINATED}\" stroke-width=\"1.5\"")
            }
            Mark::Asserted => format!("fill=\"{ASSERTED}\""),
        };
        let _ = writeln!(
            o,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{MARK_RADIUS}\" {shape}/>"
        );
    }
    for (g, _) in &f.groups {
        let pts: Vec<_> = g.iter().map(|z| lay.cand_center(z)).collect();
        if pts.is_empty() {
            continue;
        }
        let r = MARK_RADIUS + 2.0;
        let x1 = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min) - r;
        let y1 = pts.iter().map(|p| p.1).fold(f64::MAX, f64::min) - r;
        let x2 = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max) + r;
        let y2 = pts.iter().map(|p| p.1).fold(f64::MIN, f64::max) + r;
        let _ = writeln!(
            o,
            "<rect x=\"{x1:.1}\" y=\"{y1:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"{r}\" fill=\"none\" stroke=\"{GROUP_RING}\" stroke-width=\"1.5\"/>",
            x2 - x1,
            y2 - y1
        );
    }
}

/// The digits of the live candidates.
fn cand_digits(o: &mut String, f: &Figure, lay: &Layout) {
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"{CAND_SIZE}\" fill=\"{CAND_INK}\" text-anchor=\"middle\">"
    );
    for z in f.state.cands.iter() {
        let (x, y) = lay.cand_center(z);
        let strong = if f.marks[z] == Some(Mark::Asserted) {
            " fill=\"#ffffff\" font-weight=\"bold\""
        } else {
            ""
        };
        let _ = write!(
            o,
            "<text x=\"{x:.1}\" y=\"{:.1}\"{strong}>{}</text>",
            y + CAND_SIZE * 0.36,
            cand_digit(z) + 1
        );
    }
    o.push_str("</g>\n");
}

/// A cross over each eliminated candidate.
fn crosses(o: &mut String, f: &Figure, lay: &Layout) {
    let d = MARK_RADIUS * 0.75;
    let _ = write!(
        o,
        "<g stroke=\"{ELIMINATED}\" stroke-width=\"{CROSS_WIDTH}\" stroke-linecap=\"round\">"
    );
    for z in f.marked(Mark::Eliminated) {
        let (x, y) = lay.cand_center(z);
        let _ = write!(
            o,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
            x - d,
            y - d,
            x + d,
            y + d,
            x - d,
            y + d,
            x + d,
            y - d
        );
    }
    o.push_str("</g>\n");
}

/// The title above the grid and the caption under it.
fn texts(o: &mut String, f: &Figure, lay: &Layout) {
    if lay.title {
        let _ = writeln!(
            o,
            "<text x=\"{}\" y=\"{}\" font-family=\"{FONT_SANS}\" font-size=\"{CAPTION_SIZE}\" fill=\"{LABEL_INK}\">{}</text>",
            lay.x0,
            TITLE_BAND - 6.0,
            escape(&f.title)
        );
    }
    let lines = wrap(&f.caption, CAPTION_CHARS);
    if lines.is_empty() {
        return;
    }
    let _ = write!(
        o,
        "<g font-family=\"{FONT_MONO}\" font-size=\"{CAPTION_SIZE}\" fill=\"{INK}\">"
    );
    for (i, line) in lines.iter().enumerate() {
        let _ = write!(
            o,
            "<text x=\"{}\" y=\"{:.1}\" xml:space=\"preserve\">{}</text>",
            lay.x0,
            lay.caption_y + (i as f64 + 0.8) * CAPTION_LINE,
            escape(line)
        );
    }
    o.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_words_and_cuts_long_ones() {
        assert_eq!(wrap("ab cd ef", 5), vec!["ab cd", "ef"]);
        assert_eq!(wrap("abcdefg h", 3), vec!["abc", "def", "g h"]);
        assert!(wrap("", 10).is_empty());
        assert_eq!(
            wrap("w: r1c2{n3 n4} - r5n6{c7 .} ==> r5c6 ≠ 7, r5c8 ≠ 7", 16),
            vec![
                "w: r1c2{n3 n4} -",
                "r5n6{c7 .} ==>",
                "r5c6 ≠ 7,",
                "r5c8 ≠ 7"
            ]
        );
    }

    #[test]
    fn escaping() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
    }
}
