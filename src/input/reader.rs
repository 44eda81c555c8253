//! Reading lines: [`open`] and the streaming [`PuzzleReader`] over files, standard
//! input or any [`BufRead`], and the line splitter for strings ([`StrLines`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::iter::FusedIterator;
use std::path::Path;

use super::MAX_LINE_BYTES;
use super::Puzzle;
use super::assemble::Assembler;
use super::error::{ErrorKind, InputError};

/// Opens a file (`-` = standard input) as a streaming [`PuzzleReader`].
/// Any file name will do (not only UTF-8 ones); messages show it with
/// what is not UTF-8 replaced.
pub fn open(path: impl AsRef<Path>) -> io::Result<PuzzleReader<Box<dyn BufRead + Send>>> {
    let path = path.as_ref();
    if path == Path::new("-") {
        // Not a lock: the records may be read on a thread of their own.
        let stdin = BufReader::with_capacity(1 << 16, io::stdin());
        return Ok(PuzzleReader::new("<stdin>", Box::new(stdin)));
    }
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
    Ok(PuzzleReader::new(
        name,
        Box::new(BufReader::with_capacity(1 << 16, file)),
    ))
}

/// Streaming reader over a [`BufRead`]: yields every puzzle or error in source order,
/// holding at most one block of grid lines in memory, and of a line longer than
/// [`MAX_LINE_BYTES`] only its start (the rest is skipped: the line is an error, or a
/// comment), so that memory stays bounded even on endless input such as `/dev/zero`.
/// A read error is yielded once (kind [`ErrorKind::Io`]) and ends the iteration.
pub struct PuzzleReader<R: BufRead> {
    pub(super) lines: LineReader<R>,
    asm: Assembler,
    done: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// Reads from `reader`; errors name `source_name`.
    pub fn new(source_name: impl Into<String>, reader: R) -> Self {
        PuzzleReader {
            lines: LineReader::new(reader),
            asm: Assembler::new(source_name),
            done: false,
        }
    }

    /// The name errors are reported under.
    pub fn source_name(&self) -> &str {
        &self.asm.source
    }

    /// Number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.lines.line_no
    }
}

/// The lines of a [`BufRead`], split at `\n`, `\r\n` or `\r` (as [`StrLines`]
/// splits a string), each kept up to `MAX_LINE_BYTES + 1` bytes.
pub(super) struct LineReader<R: BufRead> {
    reader: R,
    /// The line last read, without its terminator.
    pub(super) buf: Vec<u8>,
    /// Lines read so far (the number of the line in `buf`).
    pub(super) line_no: usize,
    skip_lf: bool,
    /// The line last returned was cut at `MAX_LINE_BYTES + 1` bytes: its rest is
    /// skipped before the next line is read.
    skip_rest: bool,
}

impl<R: BufRead> LineReader<R> {
    pub(super) fn new(reader: R) -> Self {
        LineReader {
            reader,
            buf: Vec::new(),
            line_no: 0,
            skip_lf: false,
            skip_rest: false,
        }
    }

    /// Reads the next line (without terminator) into `self.buf`, keeping at most
    /// `MAX_LINE_BYTES + 1` bytes of it, and counts it; `false` at the end. A longer
    /// line is returned as soon as that many bytes are read (so that its error is
    /// reported at once, even on endless input), and its rest is skipped by the next
    /// call.
    pub(super) fn read_line(&mut self) -> io::Result<bool> {
        let got = self.read_raw()?;
        if got {
            self.line_no += 1;
        }
        Ok(got)
    }

    fn read_raw(&mut self) -> io::Result<bool> {
        self.buf.clear();
        if self.skip_rest {
            self.skip_rest = false;
            if !self.skip_to_line_end()? {
                return Ok(false);
            }
        }
        let mut got_any = false;
        loop {
            let avail = fill(&mut self.reader)?;
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
                    keep(&mut self.buf, &rest[..i]);
                    self.skip_lf = rest[i] == b'\r';
                    self.reader.consume(start + i + 1);
                    return Ok(true);
                }
                None => {
                    got_any |= !rest.is_empty();
                    keep(&mut self.buf, rest);
                    let n = avail.len();
                    self.reader.consume(n);
                    if self.buf.len() > MAX_LINE_BYTES {
                        self.skip_rest = true;
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Consumes the rest of the current line and its terminator; `false` when the
    /// input ended first.
    fn skip_to_line_end(&mut self) -> io::Result<bool> {
        loop {
            let avail = fill(&mut self.reader)?;
            if avail.is_empty() {
                return Ok(false);
            }
            match avail.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.skip_lf = avail[i] == b'\r';
                    self.reader.consume(i + 1);
                    return Ok(true);
                }
                None => {
                    let n = avail.len();
                    self.reader.consume(n);
                }
            }
        }
    }
}

/// The reader's next buffered bytes (empty at the end), retrying a read
/// that was interrupted.
fn fill<R: BufRead>(reader: &mut R) -> io::Result<&[u8]> {
    loop {
        match reader.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    reader.fill_buf()
}

/// Appends a piece of the current line to `buf`, up to one byte more than
/// [`MAX_LINE_BYTES`] (enough for the assembler to see that the line is too long).
fn keep(buf: &mut Vec<u8>, piece: &[u8]) {
    let room = (MAX_LINE_BYTES + 1).saturating_sub(buf.len());
    buf.extend_from_slice(&piece[..piece.len().min(room)]);
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
            match self.lines.read_line() {
                Ok(true) => {
                    let text = String::from_utf8_lossy(&self.lines.buf);
                    self.asm.feed(self.lines.line_no, &text);
                }
                Ok(false) => {
                    self.asm.finish();
                    self.done = true;
                }
                Err(e) => {
                    self.asm.finish();
                    let line = self.lines.line_no + 1;
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
pub(super) struct StrLines<'a> {
    rest: &'a str,
    no: usize,
}

impl<'a> StrLines<'a> {
    pub(super) fn new(text: &'a str) -> Self {
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
