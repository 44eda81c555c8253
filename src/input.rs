//! Reading Sudoku puzzles from text, in every common format, auto-detected per record.
//!
//! # Formats
//!
//! * [`Format::Line81`] — one puzzle per line: 81 cell characters, digits `1`-`9` for
//!   givens and `.`, `0`, `*` or `_` for empty cells, optionally followed by whitespace
//!   and free text (ratings, counters, names), which is kept as [`Puzzle::metadata`].
//! * [`Format::Grid9`] — a 9-line grid, one row per line, with or without separators
//!   (`|`, `!`, `+`, `-`, `=`, Unicode box-drawing characters) and whitespace between
//!   cells, optionally with separator lines (`------+-------+------`,
//!   `+-------+-------+-------+`) between bands and around the grid.
//! * [`Format::PencilMarks729`] — one candidate state per line: 81 groups of 9
//!   characters where position `d` (0-based) of a group holds digit `d+1` when that
//!   candidate is present and `.` or `0` when it is absent. The groups are either run
//!   together (729 characters) or separated by whitespace (81 tokens of 9 characters).
//!   Optional trailing metadata as for `Line81`.
//! * [`Format::ResolutionState`] — a SudoRules-style candidate grid: 9 lines, each of
//!   9 whitespace-separated groups of candidate digits, with or without `!`/`|` borders
//!   and separator lines.
//!
//! Lines end with `\n`, `\r\n` or a lone `\r` (old Mac files). Bytes that are not
//! UTF-8 are read as U+FFFD (and then reported as bad characters where they matter).
//!
//! # Detection rules
//!
//! Every line is first classified on its own (leading whitespace ignored; the *first
//! token* is the text up to the first whitespace):
//!
//! 1. **blank** — only whitespace: ends the current block, otherwise ignored;
//! 2. **comment** — first non-whitespace character is `#`: ends the current block,
//!    otherwise ignored;
//! 3. **separator** — only separator characters (`-+|!=`, box drawing) and whitespace:
//!    part of a grid block;
//! 4. **record** — the first token is longer than 20 characters, or it is 9
//!    characters long and the line has at least 41 tokens (pencil marks written as
//!    groups): a one-line puzzle (`Line81` or `PencilMarks729`, chosen by the number
//!    of cell characters: 81 or 729, anything else is a wrong-length error);
//! 5. **text** — the first character is neither a cell character (`1-9 0 . * _`) nor
//!    a separator (a stray word, a label such as `Resolution state:`): an error of
//!    its own;
//! 6. **row** — anything else (a short line starting with a cell character or a
//!    separator): a possible grid row.
//!
//! Consecutive row and separator lines (not interrupted by a blank line, a comment,
//! a record or a text line) form a *block*, cut into grids of 9 rows. Separator lines
//! go with the rows around them; when a single separator line sits between two grids
//! written back to back it goes with the first grid if that grid began with a
//! separator line (a border), else with the second.
//!
//! * A block of exactly 9 rows (or a multiple of 9, for grids written back to back)
//!   gives one grid per 9 rows. A grid is a `ResolutionState` when some row has at
//!   least 4 groups (separated by whitespace or separators) and one group of two or
//!   more digits `1-9`; otherwise it is a `Grid9`, and each row must then hold
//!   exactly 9 cell characters once separators and whitespace are removed. (So a
//!   fully solved candidate grid, all groups of one digit, reads as a `Grid9`.)
//! * A block of more than 9 rows whose row count is not a multiple of 9 gives its
//!   first grids as usual and one error, "grid has N rows" (N = 10..17), for the
//!   last 9 rows plus the leftover ones, so that no wrongly cut grid is returned.
//! * A block of 1 to 8 rows is one error, "grid has N rows", *unless* it has no
//!   separator line and none of its rows looks like a grid row (9 cell characters,
//!   or 9 groups): then each of its lines is read as a one-line record, which
//!   reports it as too short (or as a bad character, or as not a puzzle). So `12345` alone or amid one-line
//!   puzzles is "line has 5 cell characters, expected 81 (or 729 for pencil marks)",
//!   while 8 lines like `53..7....` are "grid has 8 rows, expected 9".
//! * A block of separator lines only is an error ("separator line outside a grid").
//!
//! A one-line record (or a short line read as one) is checked left to right: if its
//! first character is not a cell character and fewer than half of its first token
//! are, it is "not a puzzle"; otherwise the first bad character is reported (with its
//! column), else a length other than 81 or 729 ("line has N cell characters").
//!
//! Every line that is not blank or a comment ends up in exactly one returned record,
//! a [`Puzzle`] or an [`InputError`], whose `line..=last_line` (resp.
//! `first_line..=last_line`) range covers it. Reading never stops at a bad record.
//!
//! Errors carry the line (and column, when there is one) of the problem itself, e.g.
//! the row of a grid holding a bad character or the second of two equal givens; a
//! wrong row count is reported at the first line of the block.
//!
//! # Checks
//!
//! Cell characters, lengths, row and cell counts; for givens (`Line81`, `Grid9`) that
//! no digit is given twice in a row, column or block; for candidate states
//! (`PencilMarks729`, `ResolutionState`) that every cell has at least one candidate and
//! (729 format) that each digit sits in its own position. Deeper contradictions (a
//! single candidate clashing with another) are left to the solver.

use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::iter::FusedIterator;

/// Mask of all nine digits.
const ALL_DIGITS: u16 = 0x1FF;
/// A first token longer than this makes the line a one-line record.
const ROW_TOKEN_MAX: usize = 20;
/// A line whose first token is 9 characters long and which has at least this many
/// tokens is a pencil-mark line written as whitespace-separated groups.
const GROUPED_MIN_TOKENS: usize = 41;
/// Longest excerpt of a line quoted in a "not a puzzle" error.
const EXCERPT_MAX: usize = 40;

const EXPECTED_GIVEN: &str = "1-9, '.' or '0'";
const EXPECTED_MARK: &str = "1-9, '.' or '0' in pencil marks";
const EXPECTED_CANDIDATE: &str = "candidate digits 1-9";

/// The text format a puzzle was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// 81 characters on one line.
    Line81,
    /// A 9-line grid of givens.
    Grid9,
    /// 729 pencil-mark characters on one line.
    PencilMarks729,
    /// A SudoRules-style candidate grid ("resolution state").
    ResolutionState,
}

impl Format {
    /// Whether the format describes candidates rather than givens.
    pub fn is_candidates(self) -> bool {
        matches!(self, Format::PencilMarks729 | Format::ResolutionState)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Line81 => "81-character line",
            Format::Grid9 => "9-line grid",
            Format::PencilMarks729 => "729-character pencil-mark line",
            Format::ResolutionState => "resolution state",
        })
    }
}

/// One puzzle (or candidate state) read from the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// 1-based line number in the source where this puzzle starts.
    pub line: usize,
    /// 1-based line number of the last line of this puzzle (= `line` for one-line
    /// formats; the last row or border line of a grid).
    pub last_line: usize,
    /// Per-cell digit masks: bit d (0..9) set = digit d+1 possible. For a givens
    /// puzzle, a given cell has exactly its digit's bit and an empty cell 0x1FF.
    pub masks: [u16; 81],
    /// The givens (0 = empty, 1..=9) when the source gave values; for pencil-mark
    /// input a cell with a single candidate is NOT a given (all 0).
    pub givens: [u8; 81],
    /// The format the puzzle was read from.
    pub format: Format,
    /// Trailing text after the puzzle on its line (ratings, counters, names),
    /// trimmed; empty if none (always empty for grids).
    pub metadata: String,
    /// The canonical 81-char text of the givens ('.' for empty) for Line81/Grid9, or
    /// a 729-char pencil-mark line for candidate formats ('.' for an absent candidate,
    /// position cell*9+d holds digit d+1 when present).
    pub text: String,
}

impl Puzzle {
    /// Number of givens.
    pub fn given_count(&self) -> usize {
        self.givens.iter().filter(|&&g| g != 0).count()
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A row, column or block, numbered from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum House {
    Row(u8),
    Column(u8),
    Block(u8),
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(n) => write!(f, "row {n}"),
            House::Column(n) => write!(f, "column {n}"),
            House::Block(n) => write!(f, "block {n}"),
        }
    }
}

pub use crate::geometry::cell_name;

/// What is wrong with a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A one-line record whose puzzle token is neither 81 nor 729 cell characters.
    WrongLength { found: usize },
    /// A character that has no place there.
    BadChar { ch: char, expected: &'static str },
    /// In a 729 pencil-mark line, digit `digit` in 1-based position `position` of the
    /// group of cell `cell` (0..81) instead of digit `position`.
    MisplacedCandidate {
        cell: usize,
        digit: u8,
        position: u8,
    },
    /// In a pencil-mark line written as groups, group `group` (1-based) is not 9
    /// characters long.
    GroupLength { group: usize, found: usize },
    /// Digit given twice in a house; `first` and `second` are cell indices (0..81).
    DuplicateGiven {
        digit: u8,
        house: House,
        first: usize,
        second: usize,
    },
    /// A candidate state leaves cell `cell` (0..81) without any candidate.
    NoCandidate { cell: usize },
    /// A grid block without 9 rows.
    GridRows { found: usize },
    /// Grid row `row` (1-based within its grid) without 9 cells.
    RowCells { row: usize, found: usize },
    /// A line of text that is no puzzle at all.
    NotAPuzzle { text: String },
    /// Separator lines that belong to no grid.
    StraySeparator,
    /// [`parse_puzzle`] got no puzzle.
    NoPuzzle,
    /// [`parse_puzzle`] got several records.
    ExtraInput { found: usize },
    /// The input could not be read.
    Io { message: String },
}

impl ErrorKind {
    /// A short stable identifier of the kind (for tests, statistics, JSON).
    pub fn code(&self) -> &'static str {
        match self {
            ErrorKind::WrongLength { .. } => "wrong-length",
            ErrorKind::BadChar { .. } => "bad-char",
            ErrorKind::MisplacedCandidate { .. } => "misplaced-candidate",
            ErrorKind::GroupLength { .. } => "group-length",
            ErrorKind::DuplicateGiven { .. } => "duplicate-given",
            ErrorKind::NoCandidate { .. } => "no-candidate",
            ErrorKind::GridRows { .. } => "grid-rows",
            ErrorKind::RowCells { .. } => "row-cells",
            ErrorKind::NotAPuzzle { .. } => "not-a-puzzle",
            ErrorKind::StraySeparator => "stray-separator",
            ErrorKind::NoPuzzle => "no-puzzle",
            ErrorKind::ExtraInput { .. } => "extra-input",
            ErrorKind::Io { .. } => "io",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::WrongLength { found } => write!(
                f,
                "line has {found} cell characters, expected 81 (or 729 for pencil marks)"
            ),
            ErrorKind::BadChar { ch, expected } => {
                write!(f, "bad character {ch:?} (expected {expected})")
            }
            ErrorKind::MisplacedCandidate {
                cell,
                digit,
                position,
            } => write!(
                f,
                "digit {digit} in position {position} of the pencil marks of {} \
                 (expected '{position}', '.' or '0')",
                cell_name(*cell)
            ),
            ErrorKind::GroupLength { group, found } => {
                write!(
                    f,
                    "pencil-mark group {group} has {found} characters, expected 9"
                )
            }
            ErrorKind::DuplicateGiven {
                digit,
                house,
                first,
                second,
            } => write!(
                f,
                "digit {digit} given twice in {house} ({}, {})",
                cell_name(*first),
                cell_name(*second)
            ),
            ErrorKind::NoCandidate { cell } => write!(f, "{} has no candidate", cell_name(*cell)),
            ErrorKind::GridRows { found } => {
                let s = if *found == 1 { "" } else { "s" };
                write!(f, "grid has {found} row{s}, expected 9")
            }
            ErrorKind::RowCells { row, found } => {
                write!(f, "grid row {row} has {found} cells, expected 9")
            }
            ErrorKind::NotAPuzzle { text } => write!(f, "not a puzzle: {text:?}"),
            ErrorKind::StraySeparator => f.write_str("separator line outside a grid"),
            ErrorKind::NoPuzzle => f.write_str("no puzzle found"),
            ErrorKind::ExtraInput { found } => {
                write!(f, "expected one puzzle, found {found} records")
            }
            ErrorKind::Io { message } => write!(f, "read error: {message}"),
        }
    }
}

/// An error in one record of the input. Displays as `FILE:LINE[:COL]: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// File name (or `<stdin>`, `<arg>`).
    pub source_name: String,
    /// 1-based line of the problem.
    pub line: usize,
    /// 1-based column (in characters) of the problem, when it has one.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ErrorKind,
    /// First line of the record this error stands for (for grids, may precede `line`).
    pub first_line: usize,
    /// Last line of the record this error stands for.
    pub last_line: usize,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.source_name, self.line)?;
        if let Some(col) = self.column {
            write!(f, ":{col}")?;
        }
        write!(f, ": {}", self.kind)
    }
}

impl std::error::Error for InputError {}

// ---------------------------------------------------------------------------
// Public entry points

/// Parses a whole text: every puzzle or error, in source order.
pub fn parse_str(source_name: &str, text: &str) -> Vec<Result<Puzzle, InputError>> {
    let mut asm = Assembler::new(source_name);
    for (no, line) in StrLines::new(text) {
        asm.feed(no, line);
    }
    asm.finish();
    asm.out.into()
}

/// Parses one puzzle given as a single string (any format, may be multi-line);
/// errors name the source `<arg>`.
pub fn parse_puzzle(s: &str) -> Result<Puzzle, InputError> {
    let mut records = parse_str("<arg>", s);
    if records.len() > 1 {
        if let Some(i) = records.iter().position(Result::is_err) {
            return records.swap_remove(i);
        }
        let (line, last_line) = records
            .get(1)
            .and_then(|r| r.as_ref().ok())
            .map_or((1, 1), |p| (p.line, p.last_line));
        let first_line = records
            .first()
            .and_then(|r| r.as_ref().ok())
            .map_or(1, |p| p.line);
        return Err(InputError {
            source_name: "<arg>".to_owned(),
            line,
            column: None,
            kind: ErrorKind::ExtraInput {
                found: records.len(),
            },
            first_line,
            last_line: records
                .last()
                .and_then(|r| r.as_ref().ok())
                .map_or(last_line, |p| p.last_line),
        });
    }
    match records.pop() {
        Some(r) => r,
        None => Err(InputError {
            source_name: "<arg>".to_owned(),
            line: 1,
            column: None,
            kind: ErrorKind::NoPuzzle,
            first_line: 1,
            last_line: 1,
        }),
    }
}

/// Opens a file (`-` = standard input) as a streaming [`PuzzleReader`].
pub fn open(path: &str) -> io::Result<PuzzleReader<Box<dyn BufRead>>> {
    if path == "-" {
        return Ok(PuzzleReader::new("<stdin>", Box::new(io::stdin().lock())));
    }
    let file = File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}")))?;
    Ok(PuzzleReader::new(
        path,
        Box::new(BufReader::with_capacity(1 << 16, file)),
    ))
}

/// Streaming reader over a [`BufRead`]: yields every puzzle or error in source order,
/// holding at most one block of grid lines in memory. A read error is yielded once
/// (kind [`ErrorKind::Io`]) and ends the iteration.
pub struct PuzzleReader<R: BufRead> {
    reader: R,
    asm: Assembler,
    buf: Vec<u8>,
    line_no: usize,
    skip_lf: bool,
    done: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// Reads from `reader`; errors name `source_name`.
    pub fn new(source_name: impl Into<String>, reader: R) -> Self {
        PuzzleReader {
            reader,
            asm: Assembler::new(source_name),
            buf: Vec::new(),
            line_no: 0,
            skip_lf: false,
            done: false,
        }
    }

    /// The name errors are reported under.
    pub fn source_name(&self) -> &str {
        &self.asm.source
    }

    /// Number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line_no
    }

    /// Reads the next line (without terminator) into `self.buf`; `false` at the end.
    fn read_line(&mut self) -> io::Result<bool> {
        self.buf.clear();
        let mut got_any = false;
        loop {
            let avail = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                return Ok(got_any);
            }
            let mut start = 0;
            if self.skip_lf {
                self.skip_lf = false;
                if avail[0] == b'\n' {
                    start = 1;
                }
            }
            let rest = &avail[start..];
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.buf.extend_from_slice(&rest[..i]);
                    self.skip_lf = rest[i] == b'\r';
                    self.reader.consume(start + i + 1);
                    return Ok(true);
                }
                None => {
                    got_any |= !rest.is_empty();
                    self.buf.extend_from_slice(rest);
                    let n = avail.len();
                    self.reader.consume(n);
                }
            }
        }
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(record) = self.asm.out.pop_front() {
                return Some(record);
            }
            if self.done {
                return None;
            }
            match self.read_line() {
                Ok(true) => {
                    self.line_no += 1;
                    let text = String::from_utf8_lossy(&self.buf);
                    self.asm.feed(self.line_no, &text);
                }
                Ok(false) => {
                    self.asm.finish();
                    self.done = true;
                }
                Err(e) => {
                    self.asm.finish();
                    let line = self.line_no + 1;
                    let err = self.asm.error(
                        line,
                        None,
                        ErrorKind::Io {
                            message: e.to_string(),
                        },
                    );
                    self.asm.out.push_back(Err(InputError {
                        first_line: line,
                        last_line: line,
                        ..err
                    }));
                    self.done = true;
                }
            }
        }
    }
}

impl<R: BufRead> FusedIterator for PuzzleReader<R> {}

// ---------------------------------------------------------------------------
// Lines of a string

/// Lines of a string, split at `\n`, `\r\n` or `\r`, numbered from 1.
struct StrLines<'a> {
    rest: &'a str,
    no: usize,
}

impl<'a> StrLines<'a> {
    fn new(text: &'a str) -> Self {
        StrLines { rest: text, no: 0 }
    }
}

impl<'a> Iterator for StrLines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        if self.rest.is_empty() {
            return None;
        }
        let bytes = self.rest.as_bytes();
        let line;
        match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                let skip = if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                // '\r' and '\n' are ASCII, so these are char boundaries.
                line = &self.rest[..i];
                self.rest = &self.rest[i + skip..];
            }
            None => {
                line = self.rest;
                self.rest = "";
            }
        }
        self.no += 1;
        Some((self.no, line))
    }
}

// ---------------------------------------------------------------------------
// Character classes and line classification

fn is_cell_char(c: char) -> bool {
    matches!(c, '1'..='9' | '0' | '.' | '*' | '_')
}

/// `is_cell_char` for a byte, branch-free so that checks over a line vectorize.
fn is_cell_byte(b: u8) -> bool {
    b.wrapping_sub(b'0') <= 9 || b == b'.' || b == b'*' || b == b'_'
}

fn is_sep(c: char) -> bool {
    matches!(c, '|' | '!' | '+' | '-' | '=' | '\u{2500}'..='\u{257F}')
}

/// Value of a cell character: 1-9 for a digit, 0 for anything else.
fn given_value(c: char) -> u8 {
    let v = u32::from(c).wrapping_sub(u32::from('0'));
    if (1..=9).contains(&v) { v as u8 } else { 0 }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineClass {
    Blank,
    Comment,
    Sep,
    Record,
    Text,
    Row,
}

/// The first whitespace-separated token of `t` (which has no leading whitespace).
fn first_token(t: &str) -> &str {
    // Fast scan for the first byte that may end the token (space, control, non-ASCII).
    let Some(i) = t.bytes().position(|b| b <= b' ' || b >= 0x80) else {
        return t;
    };
    if is_ws_byte(t.as_bytes()[i]) {
        return &t[..i];
    }
    let end = t[i..].find(char::is_whitespace).map_or(t.len(), |j| i + j);
    &t[..end]
}

/// ASCII bytes that are whitespace for `char::is_whitespace`.
fn is_ws_byte(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Whether a line whose first token is `tok` is a pencil-mark line written as groups.
fn is_grouped_marks(t: &str, tok: &str) -> bool {
    char_len(tok) == 9 && t.split_whitespace().nth(GROUPED_MIN_TOKENS - 1).is_some()
}

fn classify(line: &str) -> LineClass {
    let t = line.trim_start();
    let Some(first) = t.chars().next() else {
        return LineClass::Blank;
    };
    if first == '#' {
        return LineClass::Comment;
    }
    if t.chars().all(|c| is_sep(c) || c.is_whitespace()) {
        return LineClass::Sep;
    }
    let tok = first_token(t);
    if char_len(tok) > ROW_TOKEN_MAX || is_grouped_marks(t, tok) {
        return LineClass::Record;
    }
    if !(is_cell_char(first) || is_sep(first)) {
        return LineClass::Text;
    }
    LineClass::Row
}

/// Groups of a grid row: maximal runs of characters that are neither whitespace nor
/// separators, with their byte offsets.
fn groups(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest_start = 0;
    std::iter::from_fn(move || {
        let rest = &s[rest_start..];
        let start = rest_start + rest.find(|c: char| !(c.is_whitespace() || is_sep(c)))?;
        let tail = &s[start..];
        let len = tail
            .find(|c: char| c.is_whitespace() || is_sep(c))
            .unwrap_or(tail.len());
        rest_start = start + len;
        Some((start, &s[start..start + len]))
    })
}

/// Whitespace-separated tokens with their byte offsets.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest_start = 0;
    std::iter::from_fn(move || {
        let rest = &s[rest_start..];
        let start = rest_start + rest.find(|c: char| !c.is_whitespace())?;
        let tail = &s[start..];
        let len = tail.find(char::is_whitespace).unwrap_or(tail.len());
        rest_start = start + len;
        Some((start, &s[start..start + len]))
    })
}

/// 1-based character column of byte offset `byte` in `line`.
fn column(line: &str, byte: usize) -> usize {
    line.get(..byte).map_or(byte, char_len) + 1
}

fn excerpt(t: &str) -> String {
    let t = t.trim();
    match t.char_indices().nth(EXCERPT_MAX) {
        Some((i, _)) => format!("{}...", &t[..i]),
        None => t.to_owned(),
    }
}

/// Whether a grid row has the shape of one: 9 cell characters or 9 groups.
fn looks_like_grid_row(s: &str) -> bool {
    let cells = s
        .chars()
        .filter(|&c| !(c.is_whitespace() || is_sep(c)))
        .count();
    cells == 9 || groups(s).count() == 9
}

/// Whether a grid row is a row of candidate groups: at least 4 groups, one of which
/// has two or more digits 1-9.
fn is_candidate_row(s: &str) -> bool {
    let mut n = 0;
    let mut multi = false;
    for (_, g) in groups(s) {
        n += 1;
        multi |= g.len() >= 2 && g.bytes().all(|b| (b'1'..=b'9').contains(&b));
    }
    n >= 4 && multi
}

// ---------------------------------------------------------------------------
// Checks and builders

const fn block_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// Bit of a given value (0 = empty: no bit). Arithmetic rather than a table: a
/// table lookup here compiles to much slower code.
fn given_bit(g: u8) -> u16 {
    ((1u32 << g.min(9)) >> 1) as u16
}

/// The first given (in reading order) that repeats an earlier one in a row, column
/// or block: (digit, house, earlier cell, this cell).
/// A puzzle of givens (formats [`Format::Line81`] and [`Format::Grid9`]).
fn givens_puzzle(
    givens: [u8; 81],
    format: Format,
    line: usize,
    last_line: usize,
    metadata: String,
) -> Puzzle {
    Puzzle {
        line,
        last_line,
        masks: givens_masks(&givens),
        givens,
        format,
        metadata,
        text: givens_text(&givens),
    }
}

/// The repeated given, if any, as the cell to point at and its error.
fn duplicate_error(givens: &[u8; 81]) -> Option<(usize, ErrorKind)> {
    find_duplicate(givens).map(|(digit, house, first, second)| {
        (
            second,
            ErrorKind::DuplicateGiven {
                digit,
                house,
                first,
                second,
            },
        )
    })
}

fn find_duplicate(givens: &[u8; 81]) -> Option<(u8, House, usize, usize)> {
    // Branch-free count of givens against distinct digits per house (givens are
    // unpredictable); the search for the culprit runs only when a repeat exists.
    let mut ok = true;
    let mut col_mask = [0u16; 9];
    let mut col_count = [0u32; 9];
    for band in givens.chunks_exact(27) {
        let mut block_mask = [0u16; 3];
        let mut block_count = [0u32; 3];
        for row in band.chunks_exact(9) {
            let mut row_mask = 0u16;
            let mut row_count = 0u32;
            for (c, &g) in row.iter().enumerate() {
                let bit = given_bit(g);
                let present = u32::from(bit != 0);
                row_mask |= bit;
                row_count += present;
                col_mask[c] |= bit;
                col_count[c] += present;
                block_mask[c / 3] |= bit;
                block_count[c / 3] += present;
            }
            ok &= row_mask.count_ones() == row_count;
        }
        for (m, n) in block_mask.iter().zip(&block_count) {
            ok &= m.count_ones() == *n;
        }
    }
    for (m, n) in col_mask.iter().zip(&col_count) {
        ok &= m.count_ones() == *n;
    }
    if ok {
        return None;
    }
    (0..81).find_map(|cell| duplicate_of(givens, cell))
}

/// The earlier cell that holds the same given as `cell`, looking in its row, then
/// its column, then its block.
fn duplicate_of(givens: &[u8; 81], cell: usize) -> Option<(u8, House, usize, usize)> {
    let g = givens[cell];
    if g == 0 {
        return None;
    }
    let (r, c, b) = (cell / 9, cell % 9, block_of(cell));
    let earlier = |same: &dyn Fn(usize) -> bool| (0..cell).find(|&i| same(i) && givens[i] == g);
    if let Some(i) = earlier(&|i| i / 9 == r) {
        return Some((g, House::Row(r as u8 + 1), i, cell));
    }
    if let Some(i) = earlier(&|i| i % 9 == c) {
        return Some((g, House::Column(c as u8 + 1), i, cell));
    }
    earlier(&|i| block_of(i) == b).map(|i| (g, House::Block(b as u8 + 1), i, cell))
}

fn givens_text(givens: &[u8; 81]) -> String {
    const CHARS: &[u8; 10] = b".123456789";
    let bytes: Vec<u8> = givens
        .iter()
        .map(|&g| CHARS[usize::from(g.min(9))])
        .collect();
    String::from_utf8(bytes).unwrap_or_default()
}

fn marks_text(masks: &[u16; 81]) -> String {
    let mut s = String::with_capacity(729);
    for &m in masks {
        for d in 0..9u8 {
            s.push(if m & (1 << d) != 0 {
                char::from(b'1' + d)
            } else {
                '.'
            });
        }
    }
    s
}

fn givens_masks(givens: &[u8; 81]) -> [u16; 81] {
    let mut masks = [ALL_DIGITS; 81];
    for (m, &g) in masks.iter_mut().zip(givens) {
        let bit = given_bit(g);
        *m = bit | (u16::from(bit == 0) * ALL_DIGITS);
    }
    masks
}

/// Parses the 9 characters of one pencil-mark group (cell `cell`) starting at byte
/// `base` of the line. Errors carry the byte offset of the problem.
fn parse_mark_group(group: &str, base: usize, cell: usize) -> Result<u16, (ErrorKind, usize)> {
    let mut mask = 0u16;
    for (pos, (i, c)) in group.char_indices().enumerate() {
        match c {
            '.' | '0' => {}
            '1'..='9' => {
                let d = c as u8 - b'1';
                if usize::from(d) != pos {
                    return Err((
                        ErrorKind::MisplacedCandidate {
                            cell,
                            digit: d + 1,
                            position: pos as u8 + 1,
                        },
                        base + i,
                    ));
                }
                mask |= 1 << d;
            }
            _ => {
                return Err((
                    ErrorKind::BadChar {
                        ch: c,
                        expected: EXPECTED_MARK,
                    },
                    base + i,
                ));
            }
        }
    }
    if mask == 0 {
        return Err((ErrorKind::NoCandidate { cell }, base));
    }
    Ok(mask)
}

// ---------------------------------------------------------------------------
// The assembler: lines in, records out

/// A line (or a run of separator lines) of the current block.
#[derive(Debug)]
struct BlockLine {
    first: usize,
    last: usize,
    sep: bool,
    text: String,
}

struct Assembler {
    source: String,
    out: VecDeque<Result<Puzzle, InputError>>,
    /// The current block (rows and runs of separator lines), at most 9 rows.
    block: Vec<BlockLine>,
    rows: usize,
    /// A complete 9-row grid whose block goes on; returned once the block shows it
    /// was cut right.
    held: Vec<BlockLine>,
}

impl Assembler {
    fn new(source: impl Into<String>) -> Self {
        Assembler {
            source: source.into(),
            out: VecDeque::new(),
            block: Vec::new(),
            rows: 0,
            held: Vec::new(),
        }
    }

    fn error(&self, line: usize, column: Option<usize>, kind: ErrorKind) -> InputError {
        InputError {
            source_name: self.source.clone(),
            line,
            column,
            kind,
            first_line: line,
            last_line: line,
        }
    }

    fn feed(&mut self, no: usize, text: &str) {
        match classify(text) {
            LineClass::Blank | LineClass::Comment => self.end_block(),
            LineClass::Sep => match self.block.last_mut() {
                Some(last) if last.sep => last.last = no,
                _ => self.block.push(BlockLine {
                    first: no,
                    last: no,
                    sep: true,
                    text: String::new(),
                }),
            },
            LineClass::Row => {
                if self.rows == 9 {
                    self.cut_grid();
                }
                self.block.push(BlockLine {
                    first: no,
                    last: no,
                    sep: false,
                    text: text.to_owned(),
                });
                self.rows += 1;
            }
            LineClass::Record | LineClass::Text => {
                self.end_block();
                let record = self.parse_line(no, text);
                self.out.push_back(record);
            }
        }
    }

    fn finish(&mut self) {
        self.end_block();
    }

    /// The block has 9 rows and a 10th comes: the 9 rows become the held grid.
    fn cut_grid(&mut self) {
        let mut next = Vec::new();
        if self.block.last().is_some_and(|l| l.sep) {
            let has_top = self.block.first().is_some_and(|l| l.sep);
            if let Some(sep) = self.block.pop() {
                if sep.last > sep.first {
                    self.block.push(BlockLine {
                        first: sep.first,
                        last: sep.first,
                        sep: true,
                        text: String::new(),
                    });
                    next.push(BlockLine {
                        first: sep.first + 1,
                        ..sep
                    });
                } else if has_top {
                    self.block.push(sep);
                } else {
                    next.push(sep);
                }
            }
        }
        let grid = std::mem::replace(&mut self.block, next);
        self.rows = 0;
        self.flush_held();
        self.held = grid;
    }

    fn flush_held(&mut self) {
        if !self.held.is_empty() {
            let held = std::mem::take(&mut self.held);
            let record = self.parse_grid(&held);
            self.out.push_back(record);
        }
    }

    fn end_block(&mut self) {
        let block = std::mem::take(&mut self.block);
        let rows = std::mem::replace(&mut self.rows, 0);
        let (Some(first), Some(last)) = (block.first(), block.last()) else {
            self.flush_held();
            return;
        };
        let (first_line, last_line) = (first.first, last.last);
        if rows == 9 {
            self.flush_held();
            let record = self.parse_grid(&block);
            self.out.push_back(record);
        } else if rows == 0 {
            if self.held.is_empty() {
                let err = self.error(first_line, None, ErrorKind::StraySeparator);
                self.out.push_back(Err(InputError { last_line, ..err }));
            } else {
                self.held.extend(block);
                self.flush_held();
            }
        } else if let Some(held_first) = self.held.first().map(|l| l.first) {
            // A 9-row grid followed by a few more rows: the block cannot be cut.
            self.held.clear();
            let err = self.error(held_first, None, ErrorKind::GridRows { found: 9 + rows });
            self.out.push_back(Err(InputError { last_line, ..err }));
        } else if block.iter().any(|l| l.sep || looks_like_grid_row(&l.text)) {
            let err = self.error(first_line, None, ErrorKind::GridRows { found: rows });
            self.out.push_back(Err(InputError { last_line, ..err }));
        } else {
            // Short lines that are no grid rows: read each as a one-line record.
            for l in &block {
                let record = self.parse_line(l.first, &l.text);
                self.out.push_back(record);
            }
        }
    }

    /// Parses a one-line record (Line81 or PencilMarks729, or an error).
    fn parse_line(&self, no: usize, line: &str) -> Result<Puzzle, InputError> {
        let lead = line.len() - line.trim_start().len();
        let t = &line[lead..];
        let tok = first_token(t);
        let at = |byte: usize, kind: ErrorKind| self.error(no, Some(column(line, byte)), kind);

        if is_grouped_marks(t, tok) {
            return self.parse_grouped_marks(no, line, lead);
        }

        let n = char_len(tok);
        let all_cells = tok.bytes().fold(true, |ok, b| ok & is_cell_byte(b));
        let bad = if all_cells {
            None
        } else {
            tok.char_indices().find(|&(_, c)| !is_cell_char(c))
        };
        if let Some((i, ch)) = bad {
            let cellish = tok.chars().filter(|&c| is_cell_char(c)).count();
            if i == 0 && cellish * 2 < n {
                return Err(self.error(
                    no,
                    Some(column(line, lead)),
                    ErrorKind::NotAPuzzle { text: excerpt(t) },
                ));
            }
            return Err(at(
                lead + i,
                ErrorKind::BadChar {
                    ch,
                    expected: if n == 729 {
                        EXPECTED_MARK
                    } else {
                        EXPECTED_GIVEN
                    },
                },
            ));
        }
        let metadata = t[tok.len()..].trim().to_owned();
        // From here on `tok` is ASCII: byte offsets are character offsets.
        match n {
            81 => {
                let mut givens = [0u8; 81];
                for (g, &b) in givens.iter_mut().zip(tok.as_bytes()) {
                    *g = given_value(char::from(b));
                }
                if let Some((second, kind)) = duplicate_error(&givens) {
                    return Err(at(lead + second, kind));
                }
                Ok(givens_puzzle(givens, Format::Line81, no, no, metadata))
            }
            729 => {
                let mut masks = [0u16; 81];
                for (cell, m) in masks.iter_mut().enumerate() {
                    let base = cell * 9;
                    *m = parse_mark_group(&tok[base..base + 9], lead + base, cell)
                        .map_err(|(kind, byte)| at(byte, kind))?;
                }
                Ok(Puzzle {
                    line: no,
                    last_line: no,
                    masks,
                    givens: [0; 81],
                    format: Format::PencilMarks729,
                    metadata,
                    text: marks_text(&masks),
                })
            }
            _ => Err(at(lead + tok.len(), ErrorKind::WrongLength { found: n })),
        }
    }

    /// Parses a pencil-mark line written as 81 whitespace-separated groups of 9.
    fn parse_grouped_marks(
        &self,
        no: usize,
        line: &str,
        lead: usize,
    ) -> Result<Puzzle, InputError> {
        let at = |byte: usize, kind: ErrorKind| self.error(no, Some(column(line, byte)), kind);
        let mut masks = [0u16; 81];
        let mut cell = 0;
        let mut end = line.len();
        let mut total = 0;
        for (off, group) in tokens(&line[lead..]) {
            let off = lead + off;
            let n = char_len(group);
            total += n;
            if cell < 81 {
                if n != 9 {
                    return Err(at(
                        off,
                        ErrorKind::GroupLength {
                            group: cell + 1,
                            found: n,
                        },
                    ));
                }
                masks[cell] =
                    parse_mark_group(group, off, cell).map_err(|(kind, byte)| at(byte, kind))?;
                cell += 1;
                if cell == 81 {
                    end = off + group.len();
                    break;
                }
            }
        }
        if cell < 81 {
            return Err(at(line.len(), ErrorKind::WrongLength { found: total }));
        }
        Ok(Puzzle {
            line: no,
            last_line: no,
            masks,
            givens: [0; 81],
            format: Format::PencilMarks729,
            metadata: line[end..].trim().to_owned(),
            text: marks_text(&masks),
        })
    }

    /// Parses a block of exactly 9 rows (plus separator lines).
    fn parse_grid(&self, block: &[BlockLine]) -> Result<Puzzle, InputError> {
        let first_line = block.first().map_or(0, |l| l.first);
        let last_line = block.last().map_or(0, |l| l.last);
        let widen = |e: InputError| InputError {
            first_line,
            last_line,
            ..e
        };
        let rows: Vec<&BlockLine> = block.iter().filter(|l| !l.sep).collect();
        if rows.len() != 9 {
            return Err(widen(self.error(
                first_line,
                None,
                ErrorKind::GridRows { found: rows.len() },
            )));
        }
        if rows.iter().any(|r| is_candidate_row(&r.text)) {
            self.parse_candidate_grid(&rows, first_line, last_line)
                .map_err(widen)
        } else {
            self.parse_givens_grid(&rows, first_line, last_line)
                .map_err(widen)
        }
    }

    fn parse_givens_grid(
        &self,
        rows: &[&BlockLine],
        first_line: usize,
        last_line: usize,
    ) -> Result<Puzzle, InputError> {
        let mut givens = [0u8; 81];
        let mut offsets = [0usize; 81];
        for (r, row) in rows.iter().enumerate() {
            let text = row.text.as_str();
            let mut count = 0;
            for (i, c) in text.char_indices() {
                if c.is_whitespace() || is_sep(c) {
                    continue;
                }
                if !is_cell_char(c) {
                    return Err(self.error(
                        row.first,
                        Some(column(text, i)),
                        ErrorKind::BadChar {
                            ch: c,
                            expected: EXPECTED_GIVEN,
                        },
                    ));
                }
                if count < 9 {
                    givens[r * 9 + count] = given_value(c);
                    offsets[r * 9 + count] = i;
                }
                count += 1;
            }
            if count != 9 {
                return Err(self.error(
                    row.first,
                    None,
                    ErrorKind::RowCells {
                        row: r + 1,
                        found: count,
                    },
                ));
            }
        }
        if let Some((second, kind)) = duplicate_error(&givens) {
            let row = rows[second / 9];
            return Err(self.error(row.first, Some(column(&row.text, offsets[second])), kind));
        }
        Ok(givens_puzzle(
            givens,
            Format::Grid9,
            first_line,
            last_line,
            String::new(),
        ))
    }

    fn parse_candidate_grid(
        &self,
        rows: &[&BlockLine],
        first_line: usize,
        last_line: usize,
    ) -> Result<Puzzle, InputError> {
        let mut masks = [0u16; 81];
        for (r, row) in rows.iter().enumerate() {
            let text = row.text.as_str();
            let mut offsets = [0usize; 9];
            let mut count = 0;
            for (off, group) in groups(text) {
                let mut mask = 0u16;
                if group != "." && group != "0" {
                    for (i, c) in group.char_indices() {
                        if !matches!(c, '1'..='9') {
                            return Err(self.error(
                                row.first,
                                Some(column(text, off + i)),
                                ErrorKind::BadChar {
                                    ch: c,
                                    expected: EXPECTED_CANDIDATE,
                                },
                            ));
                        }
                        mask |= 1 << (c as u8 - b'1');
                    }
                }
                if count < 9 {
                    masks[r * 9 + count] = mask;
                    offsets[count] = off;
                }
                count += 1;
            }
            if count != 9 {
                return Err(self.error(
                    row.first,
                    None,
                    ErrorKind::RowCells {
                        row: r + 1,
                        found: count,
                    },
                ));
            }
            if let Some(c) = (0..9).find(|&c| masks[r * 9 + c] == 0) {
                return Err(self.error(
                    row.first,
                    Some(column(text, offsets[c])),
                    ErrorKind::NoCandidate { cell: r * 9 + c },
                ));
            }
        }
        Ok(Puzzle {
            line: first_line,
            last_line,
            masks,
            givens: [0; 81],
            format: Format::ResolutionState,
            metadata: String::new(),
            text: marks_text(&masks),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A classic puzzle (Wikipedia's example).
    const P: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    /// Candidates left in `P` by its givens (basic eliminations only).
    const PM: &str = "....5......3......12.4......2...6.........7...2.4.6.8.1..4...8912.4....9.2.4...8......6....2.4..7...2.4..7..1................9....5......34..78..234......2.4..78.12...............9.......8..23........34......2.4.....1.345.7.......6....2.4..7.........8.12..5....12..5...9....5.7.9.....6...1..4..7.....45.7.9.2.45...9..3.........4......2..5.....2..56..9.......8.....5......3..........5.7.9.2..5...91..............7..1...5....1.3.5...9....5...9.2.......1..4........45..89...45...9.....6...1.3.....9.....6...1.345.7.9..3.5.7....3.5..........7...2..............8....4......23.......2....78..23...7.....4.....1................9..3..6.....3..........5....123......12.45....12345.....23.56..........8..2...6...1.34.6.........7..........9";
    /// The same candidates as SudoRules-style groups, one row per line.
    const RS_ROWS: [&str; 9] = [
        "5 3 124 26 7 2468 1489 1249 248",
        "6 247 247 1 9 5 3478 234 2478",
        "12 9 8 23 34 24 13457 6 247",
        "8 125 1259 579 6 147 4579 2459 3",
        "4 25 2569 8 5 3 579 259 1",
        "7 15 1359 59 2 14 4589 459 6",
        "139 6 134579 357 35 7 2 8 4",
        "23 278 237 4 1 9 36 3 5",
        "123 1245 12345 2356 8 26 1346 7 9",
    ];

    fn rows_of(p: &str) -> Vec<String> {
        (0..9).map(|r| p[r * 9..r * 9 + 9].to_owned()).collect()
    }

    fn spaced_grid(p: &str) -> String {
        let mut s = String::new();
        for (r, row) in rows_of(p).iter().enumerate() {
            if r == 3 || r == 6 {
                s.push_str("------+-------+------\n");
            }
            let cells: Vec<String> = row.chars().map(String::from).collect();
            s.push_str(&format!(
                "{} | {} | {}\n",
                cells[0..3].join(" "),
                cells[3..6].join(" "),
                cells[6..9].join(" ")
            ));
        }
        s
    }

    fn bordered_rs(sep: char) -> String {
        let bar = "   +-------------------+-------------------+-------------------+\n";
        let mut s = String::from(bar);
        for (r, row) in RS_ROWS.iter().enumerate() {
            let g: Vec<&str> = row.split(' ').collect();
            let band = |b: usize| {
                g[b * 3..b * 3 + 3]
                    .iter()
                    .map(|x| format!("{x:<6}"))
                    .collect::<String>()
            };
            s.push_str(&format!(
                "   {sep} {}{sep} {}{sep} {}{sep}\n",
                band(0),
                band(1),
                band(2)
            ));
            if r % 3 == 2 {
                s.push_str(bar);
            }
        }
        s
    }

    fn one(text: &str) -> Puzzle {
        let recs = parse_str("t.txt", text);
        assert_eq!(recs.len(), 1, "{recs:#?}");
        match recs.into_iter().next() {
            Some(Ok(p)) => p,
            other => panic!("expected a puzzle, got {other:?}"),
        }
    }

    fn one_err(text: &str) -> InputError {
        let recs = parse_str("t.txt", text);
        assert_eq!(recs.len(), 1, "{recs:#?}");
        match recs.into_iter().next() {
            Some(Err(e)) => e,
            other => panic!("expected an error, got {other:?}"),
        }
    }

    /// (line, code) of each record: code "ok" for a puzzle.
    fn summary(recs: &[Result<Puzzle, InputError>]) -> Vec<(usize, &'static str)> {
        recs.iter()
            .map(|r| match r {
                Ok(p) => (p.line, "ok"),
                Err(e) => (e.line, e.kind.code()),
            })
            .collect()
    }

    #[test]
    fn line81_with_metadata() {
        let p = one(&format!("  {P} 126732  \n"));
        assert_eq!(p.format, Format::Line81);
        assert_eq!(p.line, 1);
        assert_eq!(p.last_line, 1);
        assert_eq!(p.metadata, "126732");
        assert_eq!(p.text, P);
        assert_eq!(p.givens[0], 5);
        assert_eq!(p.givens[2], 0);
        assert_eq!(p.masks[0], 1 << 4);
        assert_eq!(p.masks[2], 0x1FF);
        assert_eq!(p.given_count(), 30);
        assert_eq!(one(&format!("{P} 11.9/11.9/3.4")).metadata, "11.9/11.9/3.4");
        assert_eq!(one(&format!("{P}\t# a name ")).metadata, "# a name");
        assert_eq!(one(P).metadata, "");
    }

    #[test]
    fn line81_empty_cell_characters() {
        for empty in ['0', '*', '_'] {
            let p = one(&P.replace('.', &empty.to_string()));
            assert_eq!(p.text, P);
            assert_eq!(p.format, Format::Line81);
        }
    }

    #[test]
    fn grid9_plain() {
        let text = rows_of(P).join("\n");
        let p = one(&text);
        assert_eq!(p.format, Format::Grid9);
        assert_eq!((p.line, p.last_line), (1, 9));
        assert_eq!(p.text, P);
        assert_eq!(p.metadata, "");
    }

    #[test]
    fn grid9_with_separators() {
        let p = one(&format!("\n\n{}", spaced_grid(P)));
        assert_eq!(p.format, Format::Grid9);
        assert_eq!((p.line, p.last_line), (3, 13));
        assert_eq!(p.text, P);

        let bar = "+-------+-------+-------+";
        let mut s = String::new();
        for (r, row) in rows_of(P).iter().enumerate() {
            if r % 3 == 0 {
                s.push_str(bar);
                s.push('\n');
            }
            let c: Vec<char> = row.chars().collect();
            s.push_str(&format!(
                "| {} {} {} ! {} {} {} | {} {} {} |\n",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
            ));
        }
        s.push_str(bar);
        let p = one(&s);
        assert_eq!((p.line, p.last_line), (1, 13));
        assert_eq!(p.text, P);

        // Rows grouped by bands, box-drawing borders.
        let mut s = String::from("┌───┬───┬───┐\n");
        for row in rows_of(P) {
            s.push_str(&format!("│{}│{}│{}│\n", &row[0..3], &row[3..6], &row[6..9]));
        }
        s.push_str("└───┴───┴───┘\n");
        assert_eq!(one(&s).text, P);
    }

    #[test]
    fn pencil_marks_729() {
        let p = one(&format!("{PM} rated 7.1"));
        assert_eq!(p.format, Format::PencilMarks729);
        assert_eq!(p.text, PM);
        assert_eq!(p.metadata, "rated 7.1");
        assert_eq!(p.givens, [0; 81]);
        assert_eq!(p.masks[0], 1 << 4);
        assert_eq!(p.masks[2], 0b1011); // 1, 2, 4
        // '0' for absent candidates.
        assert_eq!(one(&PM.replace('.', "0")).text, PM);
    }

    #[test]
    fn pencil_marks_as_groups() {
        let groups: Vec<&str> = (0..81).map(|c| &PM[c * 9..c * 9 + 9]).collect();
        let p = one(&format!("{} 42", groups.join(" ")));
        assert_eq!(p.format, Format::PencilMarks729);
        assert_eq!(p.text, PM);
        assert_eq!(p.metadata, "42");
    }

    #[test]
    fn resolution_state() {
        for sep in ['!', '|'] {
            let text = format!("Resolution state after Singles:\n{}", bordered_rs(sep));
            let recs = parse_str("t.txt", &text);
            assert_eq!(summary(&recs), vec![(1, "not-a-puzzle"), (2, "ok")]);
            let Some(Ok(p)) = recs.into_iter().nth(1) else {
                unreachable!()
            };
            assert_eq!(p.format, Format::ResolutionState);
            assert_eq!((p.line, p.last_line), (2, 14));
            assert_eq!(p.text, PM);
            assert_eq!(p.givens, [0; 81]);
        }
        // Without borders.
        let p = one(&RS_ROWS.join("\n"));
        assert_eq!(p.format, Format::ResolutionState);
        assert_eq!(p.text, PM);
    }

    #[test]
    fn solved_candidate_grid_reads_as_givens() {
        let sol =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let text: Vec<String> = rows_of(sol)
            .iter()
            .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join("  "))
            .collect();
        let p = one(&text.join("\n"));
        assert_eq!(p.format, Format::Grid9);
        assert_eq!(p.text, sol);
        assert_eq!(p.given_count(), 81);
    }

    #[test]
    fn error_wrong_length() {
        let e = one_err(&P[..80]);
        assert_eq!(e.kind, ErrorKind::WrongLength { found: 80 });
        assert_eq!(
            e.to_string(),
            "t.txt:1:81: line has 80 cell characters, expected 81 (or 729 for pencil marks)"
        );
        let e = one_err(&format!("{P}. 5"));
        assert_eq!(e.kind, ErrorKind::WrongLength { found: 82 });
        let e = one_err(&PM[..728]);
        assert_eq!(e.kind, ErrorKind::WrongLength { found: 728 });
    }

    #[test]
    fn error_bad_char() {
        let mut s: Vec<char> = P.chars().collect();
        s[39] = 'x';
        let text: String = s.into_iter().collect();
        let recs = parse_str(
            "puzzles.txt",
            &format!("{P}\n{P}\n# c\n\n\n\n\n\n\n\n\n{text} 1"),
        );
        let Some(Err(e)) = recs.get(2) else {
            panic!("{recs:?}")
        };
        assert_eq!(
            e.to_string(),
            "puzzles.txt:12:40: bad character 'x' (expected 1-9, '.' or '0')"
        );
        assert_eq!(e.column, Some(40));
        // In a pencil-mark line.
        let e = one_err(&format!("*{}", &PM[1..]));
        assert_eq!(
            e.kind,
            ErrorKind::BadChar {
                ch: '*',
                expected: EXPECTED_MARK
            }
        );
        // In a grid row, with the column in that row.
        let mut rows = rows_of(P);
        rows[4] = "4..8.3z.1".to_owned();
        let e = one_err(&rows.join("\n"));
        assert_eq!((e.line, e.column), (5, Some(7)));
        assert_eq!((e.first_line, e.last_line), (1, 9));
        assert_eq!(e.kind.code(), "bad-char");
        // In a candidate grid.
        let mut rows = RS_ROWS.map(String::from);
        rows[1] = rows[1].replace("247 1", "247 a");
        let e = one_err(&rows.join("\n"));
        assert_eq!((e.line, e.column), (2, Some(11)));
        assert_eq!(
            e.kind,
            ErrorKind::BadChar {
                ch: 'a',
                expected: EXPECTED_CANDIDATE
            }
        );
    }

    #[test]
    fn error_duplicate_givens() {
        // Row: r3c7 gets a second 9 (r3c2 has one); no 9 in column 7 or block 3.
        let mut g: Vec<char> = P.chars().collect();
        g[2 * 9 + 6] = '9';
        let text: String = g.iter().collect();
        let e = one_err(&text);
        assert_eq!(
            e.kind,
            ErrorKind::DuplicateGiven {
                digit: 9,
                house: House::Row(3),
                first: 19,
                second: 24
            }
        );
        assert_eq!(
            e.to_string(),
            "t.txt:1:25: digit 9 given twice in row 3 (r3c2, r3c7)"
        );
        // Column: r9c1 gets a second 5 (r1c1).
        let mut g: Vec<char> = P.chars().collect();
        g[72] = '5';
        let e = one_err(&g.iter().collect::<String>());
        assert_eq!(
            e.to_string(),
            "t.txt:1:73: digit 5 given twice in column 1 (r1c1, r9c1)"
        );
        // Block: r2c3 gets a second 8 (r3c3 has one; reading order finds r3c3 second).
        let mut g: Vec<char> = P.chars().collect();
        g[11] = '8';
        g[20] = '.';
        g[19] = '8'; // r3c2 = 8, r2c3 = 8: same block, different rows and columns
        let e = one_err(&g.iter().collect::<String>());
        assert_eq!(
            e.to_string(),
            "t.txt:1:20: digit 8 given twice in block 1 (r2c3, r3c2)"
        );
        // In a grid: line and column of the second cell.
        let mut rows = rows_of(P);
        rows[8] = "5...8..79".to_owned(); // 5 in column 1 again
        let e = one_err(&format!("# grid\n{}", spaced_grid(&rows.concat())));
        assert_eq!(
            e.to_string(),
            "t.txt:12:1: digit 5 given twice in column 1 (r1c1, r9c1)"
        );
        assert_eq!((e.first_line, e.last_line), (2, 12));
    }

    #[test]
    fn error_no_candidate() {
        let text = format!("{}.........{}", &PM[..9 * 40], &PM[9 * 41..]);
        let e = one_err(&text);
        assert_eq!(e.to_string(), "t.txt:1:361: r5c5 has no candidate");
        let mut rows = RS_ROWS.map(String::from);
        rows[3] = "8 125 1259 579 . 147 4579 2459 3".to_owned();
        let e = one_err(&rows.join("\n"));
        assert_eq!(e.to_string(), "t.txt:4:16: r4c5 has no candidate");
        // A candidate with a single candidate clashing with a neighbour is fine.
        let text = format!("{}....5....{}", &PM[..9], &PM[18..]);
        assert_eq!(one(&text).masks[1], 1 << 4);
    }

    #[test]
    fn error_misplaced_candidate_and_group_length() {
        let text = format!("5........{}", &PM[9..]);
        let e = one_err(&text);
        assert_eq!(
            e.kind,
            ErrorKind::MisplacedCandidate {
                cell: 0,
                digit: 5,
                position: 1
            }
        );
        assert_eq!(e.column, Some(1));
        let mut groups: Vec<&str> = (0..81).map(|c| &PM[c * 9..c * 9 + 9]).collect();
        groups[10] = "12";
        let e = one_err(&groups.join(" "));
        assert_eq!(
            e.kind,
            ErrorKind::GroupLength {
                group: 11,
                found: 2
            }
        );
        assert_eq!(e.column, Some(101));
    }

    #[test]
    fn error_grid_rows_and_row_cells() {
        let rows = rows_of(P);
        let e = one_err(&rows[..8].join("\n"));
        assert_eq!(e.to_string(), "t.txt:1: grid has 8 rows, expected 9");
        assert_eq!((e.first_line, e.last_line), (1, 8));
        let spaced = spaced_grid(P);
        let lines: Vec<&str> = spaced.lines().collect();
        let e = one_err(&lines[..6].join("\n"));
        assert_eq!(e.kind, ErrorKind::GridRows { found: 5 });

        let mut rows = rows_of(P);
        rows[3] = "8...6...3.".to_owned();
        let e = one_err(&rows.join("\n"));
        assert_eq!(
            e.to_string(),
            "t.txt:4: grid row 4 has 10 cells, expected 9"
        );
        let mut rows = RS_ROWS.map(String::from);
        rows[6] = "139 6 134579 357 35 7 2 8".to_owned();
        let e = one_err(&rows.join("\n"));
        assert_eq!(e.to_string(), "t.txt:7: grid row 7 has 8 cells, expected 9");
    }

    #[test]
    fn error_not_a_puzzle_and_stray_separator() {
        let e = one_err("  hello world");
        assert_eq!(e.to_string(), "t.txt:1:3: not a puzzle: \"hello world\"");
        let e = one_err("(solve \"53..7....\")");
        assert_eq!(e.kind.code(), "not-a-puzzle");
        let e = one_err("-----\n+---+");
        assert_eq!(e.to_string(), "t.txt:1: separator line outside a grid");
        assert_eq!((e.first_line, e.last_line), (1, 2));
    }

    #[test]
    fn short_lines_versus_grids() {
        // A short line on its own or amid one-line puzzles is a wrong-length line.
        let recs = parse_str("t", &format!("{P}\n12345\n{P}"));
        assert_eq!(
            summary(&recs),
            vec![(1, "ok"), (2, "wrong-length"), (3, "ok")]
        );
        let recs = parse_str("t", "12345\n6789.\n..x");
        assert_eq!(
            summary(&recs),
            vec![(1, "wrong-length"), (2, "wrong-length"), (3, "bad-char")]
        );
        // Lines shaped like grid rows make a grid block.
        assert_eq!(one_err("53..7....").kind, ErrorKind::GridRows { found: 1 });
        // Grids written back to back.
        let plain = rows_of(P).join("\n");
        let recs = parse_str("t", &format!("{plain}\n{plain}\n{plain}"));
        assert_eq!(summary(&recs), vec![(1, "ok"), (10, "ok"), (19, "ok")]);
        let bordered = format!("+---+\n{}+---+", spaced_grid(P));
        let recs = parse_str("t", &format!("{bordered}\n{bordered}"));
        assert_eq!(summary(&recs), vec![(1, "ok"), (14, "ok")]);
        assert_eq!(
            recs.iter()
                .map(|r| r.as_ref().map(|p| p.last_line).unwrap_or(0))
                .collect::<Vec<_>>(),
            vec![13, 26]
        );
        let shared = format!("{}------\n{}", spaced_grid(P), spaced_grid(P));
        let recs = parse_str("t", &shared);
        assert_eq!(summary(&recs), vec![(1, "ok"), (12, "ok")]);
        // A block that cannot be cut into grids: no grid is made up.
        let mut ten = rows_of(P);
        ten.insert(4, "8...6...3".to_owned());
        let recs = parse_str("t", &format!("{plain}\n{}\n\n{P}", ten.join("\n")));
        assert_eq!(
            summary(&recs),
            vec![(1, "ok"), (10, "grid-rows"), (21, "ok")]
        );
        let Err(e) = &recs[1] else { unreachable!() };
        assert_eq!(e.kind, ErrorKind::GridRows { found: 10 });
        assert_eq!((e.first_line, e.last_line), (10, 19));
    }

    #[test]
    fn line_endings() {
        let text = format!("# c\r\n{P} 1\r\n\r\n{}\r{P}\r", rows_of(P).join("\r\n"));
        let recs = parse_str("t", &text);
        assert_eq!(summary(&recs), vec![(2, "ok"), (4, "ok"), (13, "ok")]);
        assert_eq!(recs[0].as_ref().map(|p| p.metadata.clone()), Ok("1".into()));
    }

    #[test]
    fn reader_matches_parse_str() {
        let text = format!(
            "# mixed\r\n{P} 1\n\n{}\r\n\r{}\n12345\nhello\n{PM}",
            spaced_grid(P).replace('\n', "\r\n"),
            bordered_rs('!')
        );
        let expected = parse_str("r", &text);
        for cap in [1, 2, 3, 7, 64, 1 << 16] {
            let reader = PuzzleReader::new("r", BufReader::with_capacity(cap, text.as_bytes()));
            assert_eq!(reader.collect::<Vec<_>>(), expected, "capacity {cap}");
        }
    }

    #[test]
    fn reader_reports_io_error_once() {
        struct Failing(usize);
        impl io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0 == 0 {
                    return Err(io::Error::other("disk on fire"));
                }
                self.0 -= 1;
                let line = format!("{P}\n");
                buf[..82].copy_from_slice(line.as_bytes());
                Ok(82)
            }
        }
        let reader = PuzzleReader::new("f", BufReader::with_capacity(100, Failing(2)));
        let recs: Vec<_> = reader.collect();
        assert_eq!(summary(&recs), vec![(1, "ok"), (2, "ok"), (3, "io")]);
        assert_eq!(
            recs[2].as_ref().err().map(|e| e.to_string()),
            Some("f:3: read error: disk on fire".to_owned())
        );
    }

    #[test]
    fn open_file_and_missing_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("p.txt");
        std::fs::write(&path, format!("{P}\n{PM}\n")).expect("write");
        let recs: Vec<_> = open(path.to_str().expect("utf-8 path"))
            .expect("open")
            .collect();
        assert_eq!(summary(&recs), vec![(1, "ok"), (2, "ok")]);
        assert!(open("/nonexistent/dir/p.txt").is_err());
    }

    #[test]
    fn parse_puzzle_single_string() {
        assert_eq!(parse_puzzle(P).map(|p| p.text), Ok(P.to_owned()));
        assert_eq!(
            parse_puzzle(&spaced_grid(P)).map(|p| p.format),
            Ok(Format::Grid9)
        );
        assert_eq!(
            parse_puzzle(&bordered_rs('|')).map(|p| p.format),
            Ok(Format::ResolutionState)
        );
        let e = parse_puzzle(&P[1..]).unwrap_err();
        assert_eq!(e.source_name, "<arg>");
        assert_eq!(e.kind, ErrorKind::WrongLength { found: 80 });
        assert_eq!(
            parse_puzzle(" \n# x\n").unwrap_err().kind,
            ErrorKind::NoPuzzle
        );
        assert_eq!(
            parse_puzzle(&format!("{P}\n{P}")).unwrap_err().kind,
            ErrorKind::ExtraInput { found: 2 }
        );
        assert_eq!(
            parse_puzzle(&format!("{P}\nhello"))
                .unwrap_err()
                .kind
                .code(),
            "not-a-puzzle"
        );
    }

    #[test]
    fn mixed_file_with_errors() {
        let mut rows = rows_of(P);
        rows[2] = ".98....6".to_owned(); // row with 8 cells
        let text = [
            "# mixed formats",                         // 1
            &format!("{P} 126732"),                    // 2  ok
            "",                                        // 3
            &P[..79],                                  // 4  wrong length
            &format!("{P} # name"),                    // 5  ok
            "   # indented comment",                   // 6
            &rows_of(P).join("\n"),                    // 7-15 ok grid
            "",                                        // 16
            &rows.join("\n"),                          // 17-25 row cells (line 19)
            "stray",                                   // 26 not a puzzle
            bordered_rs('!').trim_end(),               // 27-39 ok resolution state
            &format!("{PM} pm"),                       // 40 ok
            &format!("{}x{}", &PM[..100], &PM[101..]), // 41 bad char
            "\t",                                      // 42
            &P.replace('.', "0"),                      // 43 ok
        ]
        .join("\n");
        let recs = parse_str("m.txt", &text);
        assert_eq!(
            summary(&recs),
            vec![
                (2, "ok"),
                (4, "wrong-length"),
                (5, "ok"),
                (7, "ok"),
                (19, "row-cells"),
                (26, "not-a-puzzle"),
                (27, "ok"),
                (40, "ok"),
                (41, "bad-char"),
                (43, "ok"),
            ]
        );
        let formats: Vec<Format> = recs
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|p| p.format)
            .collect();
        assert_eq!(
            formats,
            vec![
                Format::Line81,
                Format::Line81,
                Format::Grid9,
                Format::ResolutionState,
                Format::PencilMarks729,
                Format::Line81
            ]
        );
        let Err(e) = &recs[8] else { unreachable!() };
        assert_eq!(e.column, Some(101));
        check_accounting(&text, &recs);
    }

    #[test]
    fn broken_file() {
        let text = include_str!("../tests/data/broken.txt");
        let recs = parse_str("broken.txt", text);
        let errors: Vec<(usize, &str)> = recs
            .iter()
            .filter_map(|r| r.as_ref().err())
            .map(|e| (e.line, e.kind.code()))
            .collect();
        assert_eq!(
            errors,
            vec![
                (8, "wrong-length"),
                (11, "bad-char"),
                (13, "duplicate-given"),
                (15, "duplicate-given"),
                (17, "duplicate-given"),
                (22, "no-candidate"),
                (38, "grid-rows"),
                (48, "not-a-puzzle"),
            ]
        );
        let houses: Vec<String> = recs
            .iter()
            .filter_map(|r| match r {
                Err(InputError {
                    kind: ErrorKind::DuplicateGiven { house, .. },
                    ..
                }) => Some(house.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(houses, vec!["row 1", "column 1", "block 1"]);
        let good: Vec<(usize, Format)> = recs
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|p| (p.line, p.format))
            .collect();
        assert_eq!(
            good,
            vec![
                (5, Format::Line81),
                (6, Format::Line81),
                (9, Format::Line81),
                (20, Format::PencilMarks729),
                (25, Format::Grid9),
                (51, Format::ResolutionState),
                (66, Format::Grid9),
                (76, Format::Line81),
                (77, Format::Line81),
            ]
        );
        check_accounting(text, &recs);
        for e in recs.iter().filter_map(|r| r.as_ref().err()) {
            assert!(e.to_string().starts_with(&format!("broken.txt:{}", e.line)));
        }
    }

    /// The reference collection, when it is beside the crate.
    #[test]
    fn reference_collection() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/data/cbg-000/puzzles.txt"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let start = std::time::Instant::now();
        let recs = parse_str("puzzles.txt", &text);
        let elapsed = start.elapsed();
        eprintln!("parsed {} records in {elapsed:?}", recs.len());
        assert_eq!(recs.len(), 21_375);
        for (i, r) in recs.iter().enumerate() {
            let p = r.as_ref().expect("all puzzles valid");
            assert_eq!(p.line, i + 1);
            assert_eq!(p.format, Format::Line81);
            assert!(!p.metadata.is_empty());
        }
        let start = std::time::Instant::now();
        let n = open(path).expect("open").filter(Result::is_ok).count();
        eprintln!("streamed {n} records in {:?}", start.elapsed());
        assert_eq!(n, 21_375);
    }

    // -----------------------------------------------------------------------
    // Accounting and property tests

    /// Every non-blank, non-comment line lies in exactly one record's range, records
    /// come in order and cover nothing else; puzzles are self-consistent.
    fn check_accounting(text: &str, recs: &[Result<Puzzle, InputError>]) {
        let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
        let mut lines: Vec<&str> = normalized.split('\n').collect();
        if normalized.ends_with('\n') || normalized.is_empty() {
            lines.pop();
        }
        let content: Vec<bool> = lines
            .iter()
            .map(|l| {
                let t = l.trim();
                !(t.is_empty() || t.starts_with('#'))
            })
            .collect();
        let mut covered = vec![0usize; lines.len()];
        let mut prev_end = 0;
        for r in recs {
            let (a, b) = match r {
                Ok(p) => {
                    if p.format.is_candidates() {
                        assert_eq!(p.givens, [0; 81]);
                        assert_eq!(p.text, marks_text(&p.masks));
                    } else {
                        assert_eq!(p.masks, givens_masks(&p.givens));
                        assert_eq!(p.text, givens_text(&p.givens));
                        assert_eq!(find_duplicate(&p.givens), None);
                    }
                    assert!(p.masks.iter().all(|&m| m != 0 && m <= 0x1FF));
                    (p.line, p.last_line)
                }
                Err(e) => {
                    assert!(e.first_line <= e.line && e.line <= e.last_line, "{e:?}");
                    (e.first_line, e.last_line)
                }
            };
            assert!(
                a >= 1 && a <= b && b <= lines.len(),
                "range {a}..={b} of {r:?}"
            );
            assert!(a > prev_end, "records out of order at {a}");
            prev_end = b;
            for i in a..=b {
                assert!(content[i - 1], "line {i} is blank/comment but in {r:?}");
                covered[i - 1] += 1;
            }
        }
        for (i, (&c, &n)) in content.iter().zip(&covered).enumerate() {
            if c {
                assert_eq!(n, 1, "line {} ({:?}) accounted {n} times", i + 1, lines[i]);
            }
        }
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        const GOOD: [&str; 4] = [
            P,
            "...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361",
            "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75",
            ".23..6.8......91...8.1..4..2.......7...8.....678.1......7.3.2...3...4.7....5.1.6.",
        ];

        fn mutate(s: &str, pos: usize, op: u8, ch: char) -> String {
            let mut v: Vec<char> = s.chars().collect();
            let pos = pos % (v.len() + 1);
            match op % 4 {
                0 => v.truncate(pos),
                1 => v.insert(pos, ch),
                2 if pos < v.len() => v[pos] = ch,
                _ if pos < v.len() => {
                    v.remove(pos);
                }
                _ => {}
            }
            v.into_iter().collect()
        }

        fn near_char() -> impl Strategy<Value = char> {
            prop_oneof![
                prop::sample::select(vec![
                    '1', '5', '9', '0', '.', '*', '_', ' ', '\t', '|', '!', '-', '+', '#', 'x',
                    '\r', '\n', 'é', '│'
                ]),
                any::<char>(),
            ]
        }

        fn grid_block() -> impl Strategy<Value = String> {
            (0..GOOD.len(), 0..4u8, any::<usize>(), 0..5u8, near_char()).prop_map(
                |(i, style, pos, op, ch)| {
                    let mut lines: Vec<String> = match style {
                        0 => rows_of(GOOD[i]),
                        1 => spaced_grid(GOOD[i]).lines().map(String::from).collect(),
                        2 => bordered_rs('!').lines().map(String::from).collect(),
                        _ => RS_ROWS.iter().map(|s| s.to_string()).collect(),
                    };
                    let at = pos % lines.len();
                    match op {
                        0 => {}
                        1 => {
                            lines.remove(at);
                        }
                        2 => {
                            let l = lines[at].clone();
                            lines.insert(at, l);
                        }
                        3 => lines[at] = mutate(&lines[at], pos / 7, (pos / 3) as u8, ch),
                        _ => lines[at].clear(),
                    }
                    lines.join("\n")
                },
            )
        }

        fn line() -> impl Strategy<Value = String> {
            prop_oneof![
                3 => prop::sample::select(GOOD.to_vec()).prop_map(|s| format!("{s} 12345")),
                3 => (prop::sample::select(GOOD.to_vec()), any::<usize>(), any::<u8>(), near_char())
                    .prop_map(|(s, pos, op, ch)| mutate(s, pos, op, ch)),
                1 => (any::<usize>(), any::<u8>(), near_char())
                    .prop_map(|(pos, op, ch)| mutate(PM, pos, op, ch)),
                2 => "[1-9.]{7,10}",
                2 => "[1-9. |!+-]{0,24}",
                1 => "[-+|!= ]{0,30}",
                1 => "( [1-9]{1,4}){8,10}",
                1 => "[ \t]*#.{0,20}",
                2 => "[ \t]{0,3}",
                1 => "[a-z]{1,8}( [a-z0-9]{1,5})?",
                1 => any::<String>(),
                2 => grid_block(),
            ]
        }

        fn terminator() -> impl Strategy<Value = &'static str> {
            prop::sample::select(vec!["\n", "\n", "\n", "\r\n", "\r"])
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]

            #[test]
            fn random_lines_are_all_accounted_for(
                parts in prop::collection::vec((line(), terminator()), 0..40),
                last in prop::bool::ANY,
            ) {
                let mut text = String::new();
                for (l, t) in &parts {
                    text.push_str(l);
                    text.push_str(t);
                }
                if last {
                    text.push_str(P);
                }
                let recs = parse_str("p", &text);
                check_accounting(&text, &recs);
                let streamed: Vec<_> =
                    PuzzleReader::new("p", BufReader::with_capacity(5, text.as_bytes())).collect();
                prop_assert_eq!(streamed, recs);
            }

            #[test]
            fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..3000)) {
                let text = String::from_utf8_lossy(&bytes);
                let recs = parse_str("b", &text);
                check_accounting(&text, &recs);
                let streamed: Vec<_> =
                    PuzzleReader::new("b", BufReader::with_capacity(16, &bytes[..])).collect();
                prop_assert_eq!(streamed, recs);
                let _ = parse_puzzle(&text);
            }

            #[test]
            fn random_ascii_never_panics(text in "[0-9. |!+\\-#a-z\\n\\r\\t*_]{0,2000}") {
                let recs = parse_str("a", &text);
                check_accounting(&text, &recs);
            }
        }
    }
}
