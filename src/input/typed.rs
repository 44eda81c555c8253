//! Puzzles of any type ([`Model`]): [`parse_typed`] reads a text into
//! [`TypedPuzzle`]s or [`InputError`]s, one per record, in source order.
//!
//! # Formats (the type's side is `N`)
//!
//! * **Line** — one puzzle per line: `N²` symbols run together (when
//!   every symbol is one character: sides up to 35), `1`–`9` then `A`,
//!   `B`, … for 10 and up, `.` or `0` for an empty cell, optionally
//!   followed by whitespace and free text (kept as metadata); or `N²`
//!   whitespace-separated tokens (a symbol, or its number `1`…`N`, or `.`
//!   / `0`), as CSP-Rules' 25×25 files write them.
//! * **Grid** — `N` lines of `N` cells, the cells run together or
//!   separated by spaces (CSP-Rules' `.sdk` layout: `. 5 . E …`), with
//!   optional `|` or `!` between cells and separator lines (`-+=|`);
//!   a blank line may separate bands of blocks (as CSP-Rules' 25×25
//!   grids do), nowhere else.
//! * **Futoshiki** (types whose puzzles carry signs) — CSP-Rules' layout:
//!   the givens line, then the row-inequality line (`N` rows of `N − 1`
//!   signs, left to right: `<` means the cell left of the sign is smaller
//!   than the cell right of it, `>` greater, `-` no sign), then the
//!   column-inequality line (`N` columns of `N − 1` signs, top to bottom:
//!   `<` means the upper cell is smaller); each line may be in double
//!   quotes as in CSP-Rules' `(solve N "…" "…" "…")`. The three may also
//!   stand on one line, separated by spaces (the form `check` prints).
//!   Or Simon Tatham's game description (a line holding commas,
//!   optionally after `N:`): per cell in reading order its value (`0`
//!   empty) then the marks `U`, `R`, `D`, `L`, each meaning this cell is
//!   greater than its neighbour above, right, below or left; cells are
//!   separated by commas, and a lower-case letter skips 1 (`a`) to 26
//!   (`z`) empty cells (puzzles' `unequal.c`).
//!
//! Blank lines and lines starting with `#` separate records. Every line
//! that is not blank or a comment belongs to one record or one error;
//! errors carry the line and column of the problem. Checks: symbols,
//! counts, signs, and givens that contradict each other (two in one house,
//! or a pair a constraint or sign forbids).

use super::error::{ErrorKind, InputError};
use super::reader::StrLines;
use crate::model::{Constraint, Model};

/// The text format a typed puzzle was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypedFormat {
    Line,
    Grid,
    /// Futoshiki, CSP-Rules' three lines (or the three on one line).
    Signs,
    /// Futoshiki, Simon Tatham's game description.
    Tatham,
}

/// One puzzle of a type, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypedPuzzle {
    /// First and last line of the record (1-based).
    pub line: usize,
    pub last_line: usize,
    /// Each cell's given symbol (0-based), `None` when empty.
    pub givens: Vec<Option<usize>>,
    /// The puzzle's own constraints (Futoshiki's signs), `a < b`.
    pub signs: Vec<Constraint>,
    pub format: TypedFormat,
    /// Text after the puzzle on its line (ratings, names), trimmed.
    pub metadata: String,
    /// The puzzle as one line: the givens (`.` empty; symbols run
    /// together, or separated by spaces beyond side 35), then for
    /// Futoshiki the row and column sign lines.
    pub text: String,
    /// The record's own type, when it brings one (an f-puzzles record:
    /// its size, regions, cages and constraints); `None`: the input's type.
    pub own_type: Option<OwnType>,
}

/// A record's own puzzle type ([`TypedPuzzle::own_type`]); two are equal
/// when they are the same model.
#[derive(Clone, Debug)]
pub struct OwnType(pub std::sync::Arc<Model>);

impl PartialEq for OwnType {
    fn eq(&self, other: &OwnType) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for OwnType {}

impl TypedPuzzle {
    pub fn given_count(&self) -> usize {
        self.givens.iter().flatten().count()
    }
}

/// A cell read, with where it was written.
type Cell = (Option<usize>, usize, usize);

/// A grid being read: its first line, its rows, its first bad row's
/// error (line, column, kind), its last line.
type GridInProgress = (
    usize,
    Vec<Vec<Cell>>,
    Option<(usize, usize, ErrorKind)>,
    usize,
);

struct Reader<'m> {
    m: &'m Model,
    source: String,
    out: Vec<Result<TypedPuzzle, InputError>>,
}

fn is_sep_char(c: char) -> bool {
    matches!(c, '|' | '!' | '-' | '+' | '=' | '─'..='╿')
}

fn is_separator_line(l: &str) -> bool {
    !l.trim().is_empty() && l.chars().all(|c| c.is_whitespace() || is_sep_char(c))
}

/// `l` without one pair of surrounding double quotes.
fn unquote(l: &str) -> &str {
    let t = l.trim();
    t.strip_prefix('"')
        .and_then(|x| x.strip_suffix('"'))
        .unwrap_or(t)
}

/// The whitespace-separated tokens of `l` with their 1-based columns,
/// leaving out `|` and `!` tokens.
fn tokens(l: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (i, c)) in l.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (true, Some((s, sc))) => {
                out.push((&l[s..i], sc));
                start = None;
            }
            (false, None) => start = Some((i, col + 1)),
            _ => {}
        }
    }
    if let Some((s, sc)) = start {
        out.push((&l[s..], sc));
    }
    out.retain(|(t, _)| !t.chars().all(|c| c == '|' || c == '!'));
    out
}

/// Parses a whole text of puzzles of type `m`.
pub fn parse_typed(m: &Model, source: &str, text: &str) -> Vec<Result<TypedPuzzle, InputError>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<(usize, &str)> = StrLines::new(text).collect();
    parse_lines(m, source, &lines)
}

/// Parses numbered lines (the whole input, or a stretch of it that starts
/// where a record starts: [`super::TypedReader`]).
pub(super) fn parse_lines(
    m: &Model,
    source: &str,
    lines: &[(usize, &str)],
) -> Vec<Result<TypedPuzzle, InputError>> {
    let mut r = Reader {
        m,
        source: source.to_string(),
        out: Vec::new(),
    };
    if m.spec.puzzle_signs {
        r.signed(lines);
    } else {
        r.plain(lines);
    }
    r.out
}

impl Reader<'_> {
    fn n(&self) -> usize {
        self.m.n
    }

    /// Whether every symbol is written with one character.
    fn compact(&self) -> bool {
        self.m.spec.symbols.iter().all(|s| s.chars().count() == 1)
    }

    fn expected(&self) -> String {
        let syms = &self.m.spec.symbols;
        let list = if syms.len() > 12 {
            format!("{}…{}", syms[..9].concat(), syms[syms.len() - 1])
        } else {
            syms.concat()
        };
        format!(
            "a symbol of {} ({list}), its number, '.' or '0'",
            self.m.name()
        )
    }

    fn error(
        &mut self,
        first: usize,
        last: usize,
        line: usize,
        col: Option<usize>,
        kind: ErrorKind,
    ) {
        self.out.push(Err(InputError {
            source_name: self.source.clone(),
            line,
            column: col,
            kind,
            first_line: first,
            last_line: last,
        }));
    }

    /// The symbol a token stands for: `Ok(None)` for an empty cell.
    fn symbol(&self, tok: &str) -> Result<Option<usize>, ()> {
        if tok == "." || tok == "0" {
            return Ok(None);
        }
        let syms = &self.m.spec.symbols;
        if let Some(s) = syms.iter().position(|s| s == tok) {
            return Ok(Some(s));
        }
        if let Some(s) = syms.iter().position(|s| s.eq_ignore_ascii_case(tok)) {
            return Ok(Some(s));
        }
        match tok.parse::<usize>() {
            Ok(k) if (1..=self.n()).contains(&k) => Ok(Some(k - 1)),
            _ => Err(()),
        }
    }

    /// The cells of a token list (each token a cell), or the error.
    fn cells_of_tokens(
        &self,
        toks: &[(&str, usize)],
        line: usize,
    ) -> Result<Vec<Cell>, (usize, ErrorKind)> {
        toks.iter()
            .map(|&(t, col)| match self.symbol(t) {
                Ok(s) => Ok((s, line, col)),
                Err(()) => Err((
                    col,
                    ErrorKind::BadSymbol {
                        message: format!("{t:?} (expected {})", self.expected()),
                    },
                )),
            })
            .collect()
    }

    /// The cells of a compact token (each character a cell; `|` and `!`
    /// left out).
    fn cells_of_chars(
        &self,
        tok: &str,
        col0: usize,
        line: usize,
    ) -> Result<Vec<Cell>, (usize, ErrorKind)> {
        let mut out = Vec::new();
        for (k, ch) in tok.chars().enumerate() {
            if ch == '|' || ch == '!' {
                continue;
            }
            let mut b = [0u8; 4];
            match self.symbol(ch.encode_utf8(&mut b)) {
                Ok(s) => out.push((s, line, col0 + k)),
                Err(()) => {
                    return Err((
                        col0 + k,
                        ErrorKind::BadSymbol {
                            message: format!("{:?} (expected {})", ch.to_string(), self.expected()),
                        },
                    ));
                }
            }
        }
        Ok(out)
    }

    /// A one-line puzzle's cells and metadata, if `l` is one: `None` when
    /// the line is a grid row.
    #[allow(clippy::type_complexity)]
    fn line_record(
        &self,
        l: &str,
        no: usize,
    ) -> Option<Result<(Vec<Cell>, String), (usize, ErrorKind)>> {
        let n = self.n();
        let toks = tokens(l);
        let first = *toks.first()?;
        if toks.len() >= n * n && toks.len() > 1 {
            let cells = self.cells_of_tokens(&toks[..n * n], no);
            let meta = toks.get(n * n).map_or(String::new(), |&(_, col)| {
                l.chars()
                    .skip(col - 1)
                    .collect::<String>()
                    .trim()
                    .to_string()
            });
            return Some(cells.map(|c| (c, meta)));
        }
        let len = first.0.chars().filter(|&c| c != '|' && c != '!').count();
        if self.compact() && len > n && (toks.len() == 1 || len >= n * n || toks.len() < n) {
            let cells = match self.cells_of_chars(first.0, first.1, no) {
                Ok(c) if c.len() == n * n => Ok(c),
                Ok(c) => Err((
                    first.1,
                    ErrorKind::SymbolCount {
                        found: c.len(),
                        expected: n * n,
                    },
                )),
                Err(e) => Err(e),
            };
            let meta = l.trim_start()[first.0.len()..].trim().to_string();
            return Some(cells.map(|c| (c, meta)));
        }
        None
    }

    /// A grid row's cells.
    fn row(&self, l: &str, no: usize) -> Result<Vec<Cell>, (usize, ErrorKind)> {
        let toks = tokens(l);
        if self.compact() && toks.len() == 1 {
            self.cells_of_chars(toks[0].0, toks[0].1, no)
        } else {
            self.cells_of_tokens(&toks, no)
        }
    }

    /// Types without signs: lines and grids.
    fn plain(&mut self, lines: &[(usize, &str)]) {
        let n = self.n();
        let band = self.m.spec.boxes.map(|(r, _)| r);
        // The grid being read: its first line, rows, a bad row's error.
        let mut grid: Option<GridInProgress> = None;
        let mut i = 0;
        while i < lines.len() {
            let (no, l) = lines[i];
            let t = l.trim();
            let blank = t.is_empty() || t.starts_with('#');
            if let Some((first, rows, bad, last)) = grid.take() {
                let done = rows.len() == n;
                let band_end = band.is_some_and(|b| !rows.is_empty() && rows.len() % b == 0);
                let next_is_row = || {
                    lines[i + 1..]
                        .iter()
                        .find(|(_, x)| !x.trim().is_empty())
                        .is_some_and(|(k, x)| {
                            !x.trim().starts_with('#') && self.line_record(x, *k).is_none()
                        })
                };
                if !done && blank && t.is_empty() && band_end && next_is_row() {
                    grid = Some((first, rows, bad, last));
                    i += 1;
                    continue;
                }
                if !done && !blank && (is_separator_line(t) || self.line_record(t, no).is_none()) {
                    grid = Some((first, rows, bad, last));
                } else if done && is_separator_line(t) {
                    // A border under the grid.
                    self.finish_grid(first, rows, bad, no);
                    i += 1;
                    continue;
                } else {
                    self.finish_grid(first, rows, bad, last);
                }
            }
            if blank {
                i += 1;
                continue;
            }
            if let Some((first, rows, bad, _)) = grid.as_mut() {
                let _ = first;
                if !is_separator_line(t) {
                    match self.row(t, no) {
                        Ok(cells) if cells.len() == n => rows.push(cells),
                        Ok(cells) => {
                            if bad.is_none() {
                                *bad = Some((
                                    no,
                                    0,
                                    ErrorKind::TypedRowCells {
                                        row: rows.len() + 1,
                                        found: cells.len(),
                                        expected: n,
                                    },
                                ));
                            }
                            rows.push(cells);
                        }
                        Err((col, kind)) => {
                            if bad.is_none() {
                                *bad = Some((no, col, kind));
                            }
                            rows.push(Vec::new());
                        }
                    }
                }
                grid.as_mut().expect("a grid").3 = no;
                i += 1;
                continue;
            }
            if let Some(rec) = self.line_record(t, no) {
                match rec {
                    Ok((cells, meta)) => {
                        self.finish(cells, Vec::new(), TypedFormat::Line, no, no, meta)
                    }
                    Err((col, kind)) => self.error(no, no, no, Some(col), kind),
                }
                i += 1;
                continue;
            }
            if is_separator_line(t) {
                let next_is_row = lines.get(i + 1).is_some_and(|(k, x)| {
                    !x.trim().is_empty()
                        && !x.trim().starts_with('#')
                        && self.line_record(x, *k).is_none()
                });
                if !next_is_row {
                    self.error(no, no, no, None, ErrorKind::StraySeparator);
                    i += 1;
                    continue;
                }
                grid = Some((no, Vec::new(), None, no));
                i += 1;
                continue;
            }
            // A grid's first row.
            grid = Some((no, Vec::new(), None, no));
        }
        if let Some((first, rows, bad, last)) = grid {
            self.finish_grid(first, rows, bad, last);
        }
    }

    fn finish_grid(
        &mut self,
        first: usize,
        rows: Vec<Vec<Cell>>,
        bad: Option<(usize, usize, ErrorKind)>,
        last: usize,
    ) {
        let n = self.n();
        // A lone line that is neither a puzzle line nor a grid row: its
        // length is the error (a grid row count would mislead). A lone line
        // of N cells is taken as a grid's first row.
        if first == last && rows.len() == 1 && rows[0].len() != n {
            let found = rows[0].len();
            if let Some((line, col, kind)) =
                bad.filter(|b| !matches!(b.2, ErrorKind::TypedRowCells { .. }))
            {
                let col = (col > 0).then_some(col);
                return self.error(first, last, line, col, kind);
            }
            let col = rows[0].first().map(|c| c.2);
            let kind = ErrorKind::SymbolCount {
                found,
                expected: n * n,
            };
            return self.error(first, last, first, col, kind);
        }
        if let Some((line, col, kind)) = bad {
            let col = (col > 0).then_some(col);
            return self.error(first, last, line, col, kind);
        }
        if rows.len() != n {
            return self.error(
                first,
                last,
                first,
                None,
                ErrorKind::TypedGridRows {
                    found: rows.len(),
                    expected: n,
                },
            );
        }
        let cells = rows.into_iter().flatten().collect();
        self.finish(
            cells,
            Vec::new(),
            TypedFormat::Grid,
            first,
            last,
            String::new(),
        );
    }

    /// A record read: checks its givens and keeps it.
    fn finish(
        &mut self,
        cells: Vec<Cell>,
        signs: Vec<(Constraint, String)>,
        format: TypedFormat,
        first: usize,
        last: usize,
        metadata: String,
    ) {
        if let Some((line, col, kind)) = self.contradiction(&cells, &signs) {
            return self.error(first, last, line, Some(col), kind);
        }
        let givens: Vec<Option<usize>> = cells.iter().map(|c| c.0).collect();
        let mut text = givens_text(self.m, &givens);
        if self.m.spec.puzzle_signs {
            let (rows, cols) = sign_lines(self.n(), signs.iter().map(|s| &s.0));
            text = format!("{text} {rows} {cols}");
        }
        self.out.push(Ok(TypedPuzzle {
            line: first,
            last_line: last,
            givens,
            signs: signs.into_iter().map(|s| s.0).collect(),
            format,
            metadata,
            text,
            own_type: None,
        }));
    }

    /// The first given (in reading order) that contradicts an earlier one.
    fn contradiction(
        &self,
        cells: &[Cell],
        signs: &[(Constraint, String)],
    ) -> Option<(usize, usize, ErrorKind)> {
        let m = self.m;
        let name = |cell: usize| m.asserted_name(m.cand(cell, cells[cell].0.expect("a given")));
        for (cell, &(g, line, col)) in cells.iter().enumerate() {
            let Some(s) = g else { continue };
            let z = m.cand(cell, s);
            for w in m.links(z) {
                let other = m.cand_cell(w);
                if other >= cell || cells[other].0 != Some(m.cand_symbol(w)) {
                    continue;
                }
                let why = m
                    .cand_vars(z)
                    .find(|v| m.cand_vars(w).any(|x| x == *v))
                    .and_then(|v| m.var_house(v))
                    .map_or(
                        "a constraint of the type forbids them together".to_string(),
                        |h| format!("both in {} {}", m.house_kind_name(h), m.houses[h].rank + 1),
                    );
                return Some((
                    line,
                    col,
                    ErrorKind::ContradictoryGivens {
                        message: format!(
                            "givens {} and {} contradict each other ({why})",
                            name(other),
                            name(cell)
                        ),
                    },
                ));
            }
            for (c, text) in signs {
                let (a, b) = (c.a, c.b);
                let later = a.max(b);
                if later != cell {
                    continue;
                }
                if let (Some(x), Some(y)) = (cells[a].0, cells[b].0)
                    && c.forbidden.contains(&(x, y))
                {
                    return Some((
                        line,
                        col,
                        ErrorKind::ContradictoryGivens {
                            message: format!(
                                "givens {} and {} contradict each other (the sign {text})",
                                name(a.min(b)),
                                name(later)
                            ),
                        },
                    ));
                }
            }
        }
        None
    }

    /// Types whose puzzles carry signs: CSP-Rules' three lines (or one),
    /// or Tatham's descriptions.
    fn signed(&mut self, lines: &[(usize, &str)]) {
        let n = self.n();
        let mut i = 0;
        while i < lines.len() {
            let (no, raw) = lines[i];
            let t = raw.trim();
            i += 1;
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let l = unquote(t);
            if l.contains(',') {
                match super::futoshiki::tatham(self.m, l, no) {
                    Ok((cells, signs)) => {
                        self.finish(cells, signs, TypedFormat::Tatham, no, no, String::new())
                    }
                    Err((col, kind)) => self.error(no, no, no, col, kind),
                }
                continue;
            }
            let toks = tokens(l);
            let is_signs = |s: &str| s.len() > 1 && s.chars().all(|c| matches!(c, '<' | '>' | '-'));
            // The three on one line.
            if toks.len() >= 3
                && is_signs(toks[toks.len() - 1].0)
                && is_signs(toks[toks.len() - 2].0)
            {
                let k = toks.len() - 2;
                let givens = if k == 1 && self.compact() {
                    self.cells_of_chars(toks[0].0, toks[0].1, no)
                } else {
                    self.cells_of_tokens(&toks[..k], no)
                };
                let res = givens.and_then(|c| self.count(c, toks[0].1)).and_then(|c| {
                    let rows = super::futoshiki::signs(n, toks[k].0, true, toks[k].1)?;
                    let cols = super::futoshiki::signs(n, toks[k + 1].0, false, toks[k + 1].1)?;
                    Ok((c, rows.into_iter().chain(cols).collect()))
                });
                match res {
                    Ok((cells, signs)) => {
                        self.finish(cells, signs, TypedFormat::Signs, no, no, String::new())
                    }
                    Err((col, kind)) => self.error(no, no, no, Some(col), kind),
                }
                continue;
            }
            // The givens line, then the two sign lines.
            let givens = match self.line_record(l, no) {
                Some(Ok((c, _))) => Ok(c),
                Some(Err(e)) => Err(e),
                None => self
                    .cells_of_tokens(&toks, no)
                    .and_then(|c| self.count(c, toks[0].1)),
            };
            let mut res = givens.map_err(|(col, kind)| (no, col, kind));
            let mut last = no;
            let mut signs = Vec::new();
            for (which, rows) in [("row", true), ("column", false)] {
                let Ok(_) = res else { break };
                match lines.get(i) {
                    Some(&(k, x)) if !x.trim().is_empty() && !x.trim().starts_with('#') => {
                        i += 1;
                        last = k;
                        let x = unquote(x);
                        let whole = lines[i - 1].1;
                        let offset = x.as_ptr() as usize - whole.as_ptr() as usize;
                        let col0 = whole[..offset].chars().count() + 1;
                        match super::futoshiki::signs(n, x, rows, col0) {
                            Ok(s) => signs.extend(s),
                            Err((col, kind)) => res = Err((k, col, kind)),
                        }
                    }
                    _ => {
                        res = Err((
                            no,
                            0,
                            ErrorKind::Signs {
                                message: format!(
                                    "the givens are not followed by their {which}-inequality line \
                                     ({} signs of <, > or -)",
                                    n * (n - 1)
                                ),
                            },
                        ))
                    }
                }
            }
            match res {
                Ok(cells) => self.finish(cells, signs, TypedFormat::Signs, no, last, String::new()),
                Err((line, col, kind)) => {
                    self.error(no, last, line, (col > 0).then_some(col), kind)
                }
            }
        }
    }

    /// `cells` when there are `N²` of them, else the count's error.
    fn count(&self, cells: Vec<Cell>, col: usize) -> Result<Vec<Cell>, (usize, ErrorKind)> {
        let want = self.n() * self.n();
        if cells.len() == want {
            Ok(cells)
        } else {
            Err((
                col,
                ErrorKind::SymbolCount {
                    found: cells.len(),
                    expected: want,
                },
            ))
        }
    }
}

/// The givens as one line: symbols run together (`.` empty) when each is
/// one character, else separated by spaces.
pub fn givens_text(m: &Model, givens: &[Option<usize>]) -> String {
    let sym = |g: &Option<usize>| g.map_or(".", |s| m.symbol_text(s));
    if m.spec.symbols.iter().all(|s| s.chars().count() == 1) {
        givens.iter().map(sym).collect()
    } else {
        givens.iter().map(sym).collect::<Vec<_>>().join(" ")
    }
}

/// The row and column sign lines of signs (`a < b` constraints between
/// neighbours, as [`Constraint::less`] makes them; CSP-Rules' layout).
pub fn sign_lines<'c>(n: usize, signs: impl Iterator<Item = &'c Constraint>) -> (String, String) {
    let mut rows = vec![b'-'; n * (n - 1)];
    let mut cols = vec![b'-'; n * (n - 1)];
    for c in signs {
        let (lo, hi) = (c.a.min(c.b), c.a.max(c.b));
        let (r, k) = (lo / n, lo % n);
        // Signs are `a < b`: `<` when the earlier cell is the smaller.
        let sign = if lo == c.a { b'<' } else { b'>' };
        if hi == lo + 1 {
            rows[r * (n - 1) + k] = sign;
        } else {
            cols[k * (n - 1) + r] = sign;
        }
    }
    (
        String::from_utf8(rows).expect("ASCII"),
        String::from_utf8(cols).expect("ASCII"),
    )
}
