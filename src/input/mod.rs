//! Reading Sudoku puzzles from text, in every common format, auto-detected per record.
//!
//! This page describes classic 9×9 Sudoku's formats; puzzles of the other
//! types ([`crate::model`]: 16×16 Sudoku, Latin squares, Futoshiki, users'
//! types) are read by [`typed`], with the same error type.
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
//!   and separator lines, optionally under the label line `Resolution state:` (or
//!   `Resolution state after …:`), as `ruledoku solve` and SudoRules print it.
//!
//! Lines end with `\n`, `\r\n` or a lone `\r` (old Mac files). A UTF-8 byte-order
//! mark at the start of the input is skipped (columns count from after it). Bytes that
//! are not UTF-8 are read as U+FFFD (and then reported as bad characters where they
//! matter).
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
//! 5. **label** — the line is `Resolution state:` or `Resolution state after …:`
//!    (trailing whitespace ignored): it starts a block, and the grid that follows it
//!    directly is read as a candidate grid (`ResolutionState`) whose record begins at
//!    the label's line;
//! 6. **text** — the first character is neither a cell character (`1-9 0 . * _`) nor
//!    a separator (a stray word, any other label): an error of its own;
//! 7. **row** — anything else (a short line starting with a cell character or a
//!    separator): a possible grid row.
//!
//! Consecutive row and separator lines (not interrupted by a blank line, a comment,
//! a record, a label or a text line) form a *block*, cut into grids of 9 rows. Separator lines
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
//! * A label whose block has no row (a blank line, a comment, a one-line record, a
//!   text line, another label or the end of the input comes first) is an error of its
//!   own ("… is not directly followed by a 9-row grid"); a label over 1 to 8 rows is
//!   "grid has N rows". A labelled grid is always read as candidates, so a grid of
//!   givens such as `53..7....` under a label is a bad character.
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

mod assemble;
mod classify;
mod error;
pub mod fpuzzles;
#[cfg(test)]
mod fpuzzles_tests;
mod futoshiki;
mod reader;
#[cfg(test)]
mod tests;
pub mod typed;
mod typed_stream;
#[cfg(test)]
mod typed_tests;

use std::fmt;

use assemble::Assembler;
use reader::StrLines;

pub use crate::grid::geometry::cell_name;
pub use error::{ErrorKind, House, InputError};
pub use reader::{PuzzleReader, open};
pub use typed_stream::{TypedReader, TypedRecord, open_typed};

/// Lines longer than this (in bytes) are no puzzle: a comment, or an error
/// ("line longer than … bytes") read from their start only.
pub const MAX_LINE_BYTES: usize = 1 << 20;

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
