//! The error types of the input module: [`House`], [`ErrorKind`] and
//! [`InputError`], with their messages.

use std::fmt;

use crate::grid::geometry::cell_name;

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
    /// In a candidate grid, digit `digit` written twice among the
    /// candidates of cell `cell` (0..81).
    RepeatedCandidate { cell: usize, digit: u8 },
    /// A grid block without 9 rows.
    GridRows { found: usize },
    /// Grid row `row` (1-based within its grid) without 9 cells.
    RowCells { row: usize, found: usize },
    /// A line of text that is no puzzle at all.
    NotAPuzzle { text: String },
    /// Separator lines that belong to no grid.
    StraySeparator,
    /// A `Resolution state:` label (its text) not directly followed by a grid.
    LabelWithoutGrid { text: String },
    /// [`parse_puzzle`](super::parse_puzzle) got no puzzle.
    NoPuzzle,
    /// [`parse_puzzle`](super::parse_puzzle) got several records.
    ExtraInput { found: usize },
    /// A line longer than `limit` bytes (and not a comment).
    LineTooLong { limit: usize },
    /// The input could not be read.
    Io { message: String },
    /// A puzzle of a type other than classic Sudoku with `found` cells
    /// where the type has `expected`.
    SymbolCount { found: usize, expected: usize },
    /// A token that is no symbol of the puzzle's type: the token, quoted,
    /// and what was expected (one string, to keep errors small).
    BadSymbol { message: String },
    /// A grid of a type other than classic Sudoku without its `expected`
    /// rows.
    TypedGridRows { found: usize, expected: usize },
    /// Row `row` (1-based) of such a grid without its `expected` cells.
    TypedRowCells {
        row: usize,
        found: usize,
        expected: usize,
    },
    /// Two givens that cannot both hold, and why: `givens r1c1 = 5 and
    /// r1c5 = 5 contradict each other (both in row 1)`.
    ContradictoryGivens { message: String },
    /// A Futoshiki record whose inequality signs are wrong.
    Signs { message: String },
    /// A Futoshiki record in Simon Tatham's form that is wrong.
    Tatham { message: String },
    /// An f-puzzles record (URL, compressed string or JSON) that cannot be
    /// read, or holds a constraint ruledoku does not model.
    FPuzzles { message: String },
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
            ErrorKind::RepeatedCandidate { .. } => "repeated-candidate",
            ErrorKind::GridRows { .. } => "grid-rows",
            ErrorKind::RowCells { .. } => "row-cells",
            ErrorKind::NotAPuzzle { .. } => "not-a-puzzle",
            ErrorKind::StraySeparator => "stray-separator",
            ErrorKind::LabelWithoutGrid { .. } => "label-without-grid",
            ErrorKind::NoPuzzle => "no-puzzle",
            ErrorKind::ExtraInput { .. } => "extra-input",
            ErrorKind::LineTooLong { .. } => "line-too-long",
            ErrorKind::Io { .. } => "io",
            ErrorKind::SymbolCount { .. } => "wrong-length",
            ErrorKind::BadSymbol { .. } => "bad-char",
            ErrorKind::TypedGridRows { .. } => "grid-rows",
            ErrorKind::TypedRowCells { .. } => "row-cells",
            ErrorKind::ContradictoryGivens { .. } => "duplicate-given",
            ErrorKind::Signs { .. } => "bad-signs",
            ErrorKind::Tatham { .. } => "bad-tatham",
            ErrorKind::FPuzzles { .. } => "bad-f-puzzles",
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
            ErrorKind::RepeatedCandidate { cell, digit } => write!(
                f,
                "digit {digit} written twice among the candidates of {}",
                cell_name(*cell)
            ),
            ErrorKind::GridRows { found } => {
                let s = if *found == 1 { "" } else { "s" };
                write!(f, "grid has {found} row{s}, expected 9")
            }
            ErrorKind::RowCells { row, found } => {
                write!(f, "grid row {row} has {found} cells, expected 9")
            }
            ErrorKind::NotAPuzzle { text } => write!(f, "not a puzzle: {text:?}"),
            ErrorKind::StraySeparator => f.write_str("separator line outside a grid"),
            ErrorKind::LabelWithoutGrid { text } => {
                write!(f, "{text:?} is not directly followed by a 9-row grid")
            }
            ErrorKind::NoPuzzle => f.write_str("no puzzle found"),
            ErrorKind::ExtraInput { found } => {
                write!(f, "expected one puzzle, found {found} records")
            }
            ErrorKind::LineTooLong { limit } => {
                write!(f, "line longer than {limit} bytes: not a puzzle")
            }
            ErrorKind::Io { message } => write!(f, "read error: {message}"),
            ErrorKind::SymbolCount { found, expected } => {
                write!(f, "line has {found} cells, expected {expected}")
            }
            ErrorKind::BadSymbol { message } => write!(f, "bad symbol {message}"),
            ErrorKind::TypedGridRows { found, expected } => {
                let s = if *found == 1 { "" } else { "s" };
                write!(f, "grid has {found} row{s}, expected {expected}")
            }
            ErrorKind::TypedRowCells {
                row,
                found,
                expected,
            } => write!(f, "grid row {row} has {found} cells, expected {expected}"),
            ErrorKind::ContradictoryGivens { message } => f.write_str(message),
            ErrorKind::Signs { message } => f.write_str(message),
            ErrorKind::Tatham { message } => write!(f, "Tatham description: {message}"),
            ErrorKind::FPuzzles { message } => write!(f, "f-puzzles: {message}"),
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
