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
use super::sheet::Sheet;
use super::style::*;
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
        super::decor::under(&mut o, f, &lay);
        fills(&mut o, f, &lay);
        super::decor::thermometers(&mut o, f, &lay);
        grid_lines(&mut o, f, &lay);
        super::decor::over(&mut o, f, &lay);
        super::decor::cages(&mut o, f, &lay);
        values(&mut o, f, &lay);
        marks(&mut o, f, &lay);
        cand_digits(&mut o, f, &lay);
        crosses(&mut o, f, &lay);
        self.links(&mut o, f, &lay);
        super::decor::notes(&mut o, f, &lay);
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
        let rad = lay.radius;
        for l in &f.links {
            // Each end: the candidate, or the member of a group nearest
            // the other end.
            let (a0, b0) = (lay.node_center(&l.from), lay.node_center(&l.to));
            let a = lay.node_point(&l.from, b0);
            let b = lay.node_point(&l.to, a0);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len < 2.0 * rad + 1.0 {
                continue;
            }
            let (ux, uy) = (dx / len, dy / len);
            let (x1, y1) = (a.0 + ux * rad, a.1 + uy * rad);
            let (x2, y2) = (b.0 - ux * rad, b.1 - uy * rad);
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
#[derive(Clone, Debug)]
pub struct Layout {
    /// Top-left corner of the grid.
    pub x0: f64,
    pub y0: f64,
    pub width: f64,
    pub height: f64,
    /// Side of a cell, of a candidate's place, and the margin inside a
    /// cell, px.
    pub cell: f64,
    pub slot: f64,
    pub pad: f64,
    /// Side of the grid, px.
    pub side: f64,
    /// Radius of a candidate's disc or ring, px.
    pub radius: f64,
    /// Font sizes of values and candidates, px.
    pub value_size: f64,
    pub cand_size: f64,
    /// Characters of a caption line.
    pub caption_chars: usize,
    /// Top of the notes under the grid.
    pub notes_y: f64,
    /// Top of the caption.
    caption_y: f64,
    title: bool,
    n: usize,
    sub: usize,
}

/// Height of the title band, px.
const TITLE_BAND: f64 = 22.0;
/// Padding right of and below the grid, px.
const PAD: f64 = 10.0;

impl Layout {
    /// The layout of a figure (the caption's length sets the height).
    pub fn of(f: &Figure) -> Layout {
        let sheet: &Sheet = &f.sheet;
        let title = !f.title.is_empty();
        let top = if title { TITLE_BAND } else { 0.0 };
        let x0 = MARGIN;
        let y0 = top + MARGIN;
        let cell = sheet.cell();
        let grid = sheet.n as f64 * cell;
        // Classic 9×9: 66 characters (486 px); as many as fit otherwise.
        let caption_chars = if sheet.is_classic() {
            CAPTION_CHARS
        } else {
            (((grid - PAD) / 7.2) as usize).max(24)
        };
        let scale = sheet.slot / (CELL / 3.0);
        let lines = wrap(&f.caption, caption_chars).len() as f64;
        let notes_y = y0 + grid + PAD;
        let caption_y = notes_y + sheet.notes.len() as f64 * CAPTION_LINE;
        let width = x0 + grid + PAD;
        Layout {
            x0,
            y0,
            width: if sheet.is_classic() {
                width
            } else {
                width.max(x0 + caption_chars as f64 * 7.3 + PAD)
            },
            height: caption_y + lines * CAPTION_LINE + PAD,
            cell,
            slot: sheet.slot,
            pad: sheet.pad,
            side: grid,
            radius: MARK_RADIUS * scale,
            value_size: VALUE_SIZE * (cell - 2.0 * sheet.pad) / CELL,
            cand_size: CAND_SIZE * scale,
            caption_chars,
            notes_y,
            caption_y,
            title,
            n: sheet.n,
            sub: sheet.sub,
        }
    }

    /// Top-left corner of a cell.
    pub fn cell_origin(&self, c: usize) -> (f64, f64) {
        (
            self.x0 + (c % self.n) as f64 * self.cell,
            self.y0 + (c / self.n) as f64 * self.cell,
        )
    }

    /// Centre of a cell.
    pub fn cell_center(&self, c: usize) -> (f64, f64) {
        let (x, y) = self.cell_origin(c);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }

    /// Centre of a candidate's place in its cell (symbols read as a
    /// keypad: 1 2 3 on top on 9×9).
    pub fn cand_center(&self, z: usize) -> (f64, f64) {
        let (x, y) = self.cell_origin(z / self.n);
        let d = z % self.n;
        let slot = self.slot;
        (
            x + self.pad + (d % self.sub) as f64 * slot + slot / 2.0,
            y + self.pad + (d / self.sub) as f64 * slot + slot / 2.0,
        )
    }

    /// Centre of a node (a group's: the mean of its members').
    pub fn node_center(&self, n: &Node) -> (f64, f64) {
        match n {
            Node::Cand(z) => self.cand_center(*z),
            Node::Group(g) => {
                let pts: Vec<_> = g.iter().map(|&z| self.cand_center(z)).collect();
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
    fn node_point(&self, n: &Node, toward: (f64, f64)) -> (f64, f64) {
        match n {
            Node::Cand(z) => self.cand_center(*z),
            Node::Group(g) => g
                .iter()
                .map(|&z| self.cand_center(z))
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
    let cell = lay.cell;
    let mut shaded = vec![false; f.n() * f.n()];
    for &h in &f.houses {
        for &c in &f.sheet.houses[h] {
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
            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{fill}\"/>"
        );
    }
    for c in f.cells.iter().filter(|&c| !shaded[c]) {
        let (x, y) = lay.cell_origin(c);
        let _ = writeln!(
            o,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"{CELL_FILL}\"/>"
        );
    }
}

/// Lines across the whole grid at the positions `at` (cell counts),
/// horizontal ones (`rows`) and vertical ones (`cols`); a position in both
/// is written as a pair, as classic pictures always wrote them.
fn cross_lines(o: &mut String, lay: &Layout, rows: &[usize], cols: &[usize]) {
    let side = lay.side;
    let (x0, y0) = (lay.x0, lay.y0);
    let (x2, y2) = (x0 + side, y0 + side);
    for i in 1..lay.n {
        let p = i as f64 * lay.cell;
        let (h, v) = (rows.contains(&i), cols.contains(&i));
        if h {
            let y = y0 + p;
            let _ = write!(o, "<line x1=\"{x0}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/>");
        }
        if v {
            let x = x0 + p;
            let _ = write!(o, "<line x1=\"{x}\" y1=\"{y0}\" x2=\"{x}\" y2=\"{y2}\"/>");
        }
    }
}

fn grid_lines(o: &mut String, f: &Figure, lay: &Layout) {
    let n = lay.n;
    let side = lay.side;
    let (x0, y0) = (lay.x0, lay.y0);
    // Block boundaries: every `rows`th line across, `cols`th down.
    let (thick_rows, thick_cols): (Vec<usize>, Vec<usize>) = match f.sheet.boxes {
        Some((r, c)) => (
            (1..n).filter(|i| i % r == 0).collect(),
            (1..n).filter(|i| i % c == 0).collect(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    let thin_rows: Vec<usize> = (1..n).filter(|i| !thick_rows.contains(i)).collect();
    let thin_cols: Vec<usize> = (1..n).filter(|i| !thick_cols.contains(i)).collect();
    let _ = write!(o, "<g stroke=\"{THIN_INK}\" stroke-width=\"{THIN_LINE}\">");
    cross_lines(o, lay, &thin_rows, &thin_cols);
    o.push_str("</g>\n");
    let _ = write!(
        o,
        "<g stroke=\"{INK}\" stroke-width=\"{THICK_LINE}\" fill=\"none\">"
    );
    cross_lines(o, lay, &thick_rows, &thick_cols);
    if let Some(region) = &f.sheet.regions {
        super::decor::region_borders(o, lay, region);
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
    for i in 0..n {
        let mid = (i as f64 + 0.5) * lay.cell;
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
    let n = f.n();
    let size = lay.value_size;
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"{size}\" text-anchor=\"middle\">"
    );
    for &z in &f.values {
        let c = z / n;
        let (x, y) = lay.cell_center(c);
        let (fill, weight) = if f.givens.contains(c) {
            (GIVEN, "bold")
        } else {
            (PLACED, "normal")
        };
        let _ = write!(
            o,
            "<text x=\"{x:.1}\" y=\"{:.1}\" fill=\"{fill}\" font-weight=\"{weight}\">{}</text>",
            y + size * 0.35,
            escape(&f.sheet.symbols[z % n])
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
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{}\" {shape}/>",
            lay.radius
        );
    }
    for (g, _) in &f.groups {
        let pts: Vec<_> = g.iter().map(|&z| lay.cand_center(z)).collect();
        if pts.is_empty() {
            continue;
        }
        let r = lay.radius + 2.0;
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
    let n = f.n();
    // Symbols of two characters or more (side 36 and up) a little smaller.
    let long = f.sheet.symbols.iter().any(|s| s.chars().count() > 1);
    let size = if long {
        lay.cand_size * 0.8
    } else {
        lay.cand_size
    };
    let _ = write!(
        o,
        "<g font-family=\"{FONT_SANS}\" font-size=\"{size}\" fill=\"{CAND_INK}\" text-anchor=\"middle\">"
    );
    for z in f.cands.iter() {
        let (x, y) = lay.cand_center(z);
        let strong = if f.marks[z] == Some(Mark::Asserted) {
            " fill=\"#ffffff\" font-weight=\"bold\""
        } else {
            ""
        };
        let _ = write!(
            o,
            "<text x=\"{x:.1}\" y=\"{:.1}\"{strong}>{}</text>",
            y + size * 0.36,
            escape(&f.sheet.symbols[z % n])
        );
    }
    o.push_str("</g>\n");
}

/// A cross over each eliminated candidate.
fn crosses(o: &mut String, f: &Figure, lay: &Layout) {
    let d = lay.radius * 0.75;
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
    let lines = wrap(&f.caption, lay.caption_chars);
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
