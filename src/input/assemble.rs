//! Turning classified lines into records: the [`Assembler`] that gathers grid
//! blocks and parses one-line records and grids, the builders of [`Puzzle`]s and
//! the checks on givens (repeated digits) and pencil marks.

use std::collections::VecDeque;

use super::classify::{
    LineClass, char_len, classify, column, excerpt, first_token, given_value, groups,
    is_candidate_row, is_cell_byte, is_cell_char, is_grouped_marks, is_sep, looks_like_grid_row,
    tokens,
};
use super::error::{ErrorKind, House, InputError};
use super::{Format, MAX_LINE_BYTES, Puzzle};

/// Mask of all nine digits.
const ALL_DIGITS: u16 = 0x1FF;

const EXPECTED_GIVEN: &str = "1-9, '.' or '0'";
pub(super) const EXPECTED_MARK: &str = "1-9, '.' or '0' in pencil marks";
pub(super) const EXPECTED_CANDIDATE: &str = "candidate digits 1-9";

const fn block_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// Bit of a given value (0 = empty: no bit). Arithmetic rather than a table: a
/// table lookup here compiles to much slower code.
fn given_bit(g: u8) -> u16 {
    ((1u32 << g.min(9)) >> 1) as u16
}

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

/// The first given (in reading order) that repeats an earlier one in a row, column
/// or block: (digit, house, earlier cell, this cell).
pub(super) fn find_duplicate(givens: &[u8; 81]) -> Option<(u8, House, usize, usize)> {
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

pub(super) fn givens_text(givens: &[u8; 81]) -> String {
    const CHARS: &[u8; 10] = b".123456789";
    let bytes: Vec<u8> = givens
        .iter()
        .map(|&g| CHARS[usize::from(g.min(9))])
        .collect();
    String::from_utf8(bytes).unwrap_or_default()
}

pub(super) fn marks_text(masks: &[u16; 81]) -> String {
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

pub(super) fn givens_masks(givens: &[u8; 81]) -> [u16; 81] {
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

/// What a line of a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// A grid row.
    Row,
    /// A run of separator lines.
    Sep,
    /// A `Resolution state:` label: always the first line of its block, it
    /// makes the grid that follows a candidate grid.
    Label,
}

/// A line (or a run of separator lines) of the current block.
#[derive(Debug)]
struct BlockLine {
    first: usize,
    last: usize,
    part: Part,
    text: String,
}

impl BlockLine {
    fn is_sep(&self) -> bool {
        self.part == Part::Sep
    }
}

pub(super) struct Assembler {
    pub(super) source: String,
    pub(super) out: VecDeque<Result<Puzzle, InputError>>,
    /// The current block (rows and runs of separator lines), at most 9 rows.
    block: Vec<BlockLine>,
    rows: usize,
    /// A complete 9-row grid whose block goes on; returned once the block shows it
    /// was cut right.
    held: Vec<BlockLine>,
}

impl Assembler {
    pub(super) fn new(source: impl Into<String>) -> Self {
        Assembler {
            source: source.into(),
            out: VecDeque::new(),
            block: Vec::new(),
            rows: 0,
            held: Vec::new(),
        }
    }

    pub(super) fn error(&self, line: usize, column: Option<usize>, kind: ErrorKind) -> InputError {
        InputError {
            source_name: self.source.clone(),
            line,
            column,
            kind,
            first_line: line,
            last_line: line,
        }
    }

    pub(super) fn feed(&mut self, no: usize, text: &str) {
        // A byte-order mark (as Windows editors write) is no part of the first line.
        let text = if no == 1 {
            text.strip_prefix('\u{feff}').unwrap_or(text)
        } else {
            text
        };
        if text.len() > MAX_LINE_BYTES {
            self.end_block();
            if classify(text) != LineClass::Comment {
                let err = self.error(
                    no,
                    None,
                    ErrorKind::LineTooLong {
                        limit: MAX_LINE_BYTES,
                    },
                );
                self.out.push_back(Err(err));
            }
            return;
        }
        match classify(text) {
            LineClass::Blank | LineClass::Comment => self.end_block(),
            LineClass::Sep => match self.block.last_mut() {
                Some(last) if last.is_sep() => last.last = no,
                _ => self.block.push(BlockLine {
                    first: no,
                    last: no,
                    part: Part::Sep,
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
                    part: Part::Row,
                    text: text.to_owned(),
                });
                self.rows += 1;
            }
            LineClass::Label => {
                // A label starts a block of its own: its grid follows.
                self.end_block();
                self.block.push(BlockLine {
                    first: no,
                    last: no,
                    part: Part::Label,
                    text: text.to_owned(),
                });
            }
            LineClass::Record | LineClass::Text => {
                self.end_block();
                let record = self.parse_line(no, text);
                self.out.push_back(record);
            }
        }
    }

    pub(super) fn finish(&mut self) {
        self.end_block();
    }

    /// The block has 9 rows and a 10th comes: the 9 rows become the held grid.
    fn cut_grid(&mut self) {
        let mut next = Vec::new();
        if self.block.last().is_some_and(BlockLine::is_sep) {
            let has_top = self
                .block
                .iter()
                .find(|l| l.part != Part::Label)
                .is_some_and(BlockLine::is_sep);
            if let Some(sep) = self.block.pop() {
                if sep.last > sep.first {
                    self.block.push(BlockLine {
                        first: sep.first,
                        last: sep.first,
                        part: Part::Sep,
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
            if first.part == Part::Label {
                let text = excerpt(&first.text);
                let err = self.error(first_line, None, ErrorKind::LabelWithoutGrid { text });
                self.out.push_back(Err(InputError { last_line, ..err }));
            } else if self.held.is_empty() {
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
        } else if block
            .iter()
            .any(|l| l.part != Part::Row || looks_like_grid_row(&l.text))
        {
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
        let rows: Vec<&BlockLine> = block.iter().filter(|l| l.part == Part::Row).collect();
        if rows.len() != 9 {
            return Err(widen(self.error(
                first_line,
                None,
                ErrorKind::GridRows { found: rows.len() },
            )));
        }
        let labelled = block.first().is_some_and(|l| l.part == Part::Label);
        if labelled || rows.iter().any(|r| is_candidate_row(&r.text)) {
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
                        let bit = 1 << (c as u8 - b'1');
                        // A candidate is written once (`1128` is no cell).
                        if mask & bit != 0 && count < 9 {
                            return Err(self.error(
                                row.first,
                                Some(column(text, off + i)),
                                ErrorKind::RepeatedCandidate {
                                    cell: r * 9 + count,
                                    digit: c as u8 - b'0',
                                },
                            ));
                        }
                        mask |= bit;
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
