//! [`TypedReader`]: puzzles of any type read from a stream, record by
//! record, as [`super::typed::parse_typed`] reads a whole text (the same
//! records and errors, in the same order), holding in memory only the
//! lines of the record being read.
//!
//! The typed formats take several lines (grids, Futoshiki's three lines)
//! and look ahead one non-blank line to decide where a record ends. So the
//! reader parses the lines it holds after each non-blank line: every record
//! but the last one found is complete (the parser saw the line after it),
//! and is handed out; so is the last one when nothing can follow it (a
//! puzzle on one line, Futoshiki's three lines); else its lines are kept,
//! to be read again with the lines that follow.

use super::MAX_LINE_BYTES;
use super::error::{ErrorKind, InputError};
use super::reader::LineReader;
use super::typed::{TypedFormat, TypedPuzzle, parse_lines};
use crate::model::Model;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::iter::FusedIterator;
use std::path::Path;
use std::sync::Arc;

/// A typed record: a puzzle, or the error that stands for its lines.
pub type TypedRecord = Result<TypedPuzzle, InputError>;

/// Opens a file (`-` = standard input) as a [`TypedReader`] of type `m`.
pub fn open_typed(
    m: Arc<Model>,
    path: impl AsRef<Path>,
) -> io::Result<TypedReader<Box<dyn BufRead + Send>>> {
    let path = path.as_ref();
    if path == Path::new("-") {
        let stdin = BufReader::with_capacity(1 << 16, io::stdin());
        return Ok(TypedReader::new(m, "<stdin>", Box::new(stdin)));
    }
    let name = path.display().to_string();
    let file = File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
    Ok(TypedReader::new(
        m,
        name,
        Box::new(BufReader::with_capacity(1 << 16, file)),
    ))
}

/// Streaming reader of puzzles of one type: yields every puzzle or error
/// in source order. A line longer than [`MAX_LINE_BYTES`] is an error (a
/// comment when it starts with `#`) and ends the record before it; a read
/// error is yielded once (kind [`ErrorKind::Io`]) and ends the iteration.
pub struct TypedReader<R: BufRead> {
    model: Arc<Model>,
    source: String,
    lines: LineReader<R>,
    /// The lines not yet handed out as records: from the start of the
    /// last record found.
    pending: Vec<(usize, String)>,
    out: VecDeque<TypedRecord>,
    done: bool,
}

impl<R: BufRead> TypedReader<R> {
    /// Reads puzzles of type `model` from `reader`; errors name `source`.
    pub fn new(model: Arc<Model>, source: impl Into<String>, reader: R) -> Self {
        TypedReader {
            model,
            source: source.into(),
            lines: LineReader::new(reader),
            pending: Vec::new(),
            out: VecDeque::new(),
            done: false,
        }
    }

    /// The name errors are reported under.
    pub fn source_name(&self) -> &str {
        &self.source
    }

    /// Number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.lines.line_no
    }

    /// Parses the pending lines: every record found when `last`, else all
    /// but the last one (whose lines stay pending).
    fn parse(&mut self, last: bool) {
        let lines: Vec<(usize, &str)> = self
            .pending
            .iter()
            .map(|(no, l)| (*no, l.as_str()))
            .collect();
        let mut recs = parse_lines(&self.model, &self.source, &lines);
        // A record read whole but a grid (whose border may follow) is
        // complete as it stands: handed out at once, so that a pipe that
        // stays open does not hold it back.
        let complete = |r: &TypedRecord| matches!(r, Ok(p) if p.format != TypedFormat::Grid);
        let keep_from = if last || recs.last().is_some_and(complete) {
            None
        } else {
            recs.pop().map(|r| match r {
                Ok(p) => p.line,
                Err(e) => e.first_line,
            })
        };
        self.out.extend(recs);
        match keep_from {
            Some(first) => self.pending.retain(|(no, _)| *no >= first),
            None => self.pending.clear(),
        }
    }

    fn error(&self, line: usize, kind: ErrorKind) -> InputError {
        InputError {
            source_name: self.source.clone(),
            line,
            column: None,
            kind,
            first_line: line,
            last_line: line,
        }
    }
}

/// A line that separates records: blank, or a comment.
fn is_blank(l: &str) -> bool {
    let t = l.trim();
    t.is_empty() || t.starts_with('#')
}

impl<R: BufRead> Iterator for TypedReader<R> {
    type Item = TypedRecord;

    fn next(&mut self) -> Option<TypedRecord> {
        loop {
            if let Some(r) = self.out.pop_front() {
                return Some(r);
            }
            if self.done {
                return None;
            }
            match self.lines.read_line() {
                Ok(true) => {
                    let no = self.lines.line_no;
                    let mut text = String::from_utf8_lossy(&self.lines.buf).into_owned();
                    if no == 1 && text.starts_with('\u{feff}') {
                        text.drain(..'\u{feff}'.len_utf8());
                    }
                    if self.lines.buf.len() > MAX_LINE_BYTES {
                        if text.trim_start().starts_with('#') {
                            self.pending.push((no, "#".into()));
                        } else {
                            self.parse(true);
                            let e = self.error(
                                no,
                                ErrorKind::LineTooLong {
                                    limit: MAX_LINE_BYTES,
                                },
                            );
                            self.out.push_back(Err(e));
                        }
                        continue;
                    }
                    let blank = is_blank(&text);
                    self.pending.push((no, text));
                    if !blank {
                        self.parse(false);
                    }
                }
                Ok(false) => {
                    self.parse(true);
                    self.done = true;
                }
                Err(e) => {
                    self.parse(true);
                    let line = self.lines.line_no + 1;
                    let e = self.error(
                        line,
                        ErrorKind::Io {
                            message: e.to_string(),
                        },
                    );
                    self.out.push_back(Err(e));
                    self.done = true;
                }
            }
        }
    }
}

impl<R: BufRead> FusedIterator for TypedReader<R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::typed::parse_typed;
    use crate::model;

    fn streamed(m: &Arc<Model>, text: &str, cap: usize) -> Vec<TypedRecord> {
        TypedReader::new(
            m.clone(),
            "t",
            BufReader::with_capacity(cap, text.as_bytes()),
        )
        .collect()
    }

    /// Every test file of CSP-Rules-Examples, and the same texts with
    /// their records run together, blank lines doubled, comments and bad
    /// lines put in: the stream gives the whole text's records.
    #[test]
    fn the_stream_reads_what_the_whole_text_reads() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/csp-rules");
        let manifest = std::fs::read_to_string(format!("{dir}/manifest.tsv")).unwrap();
        let mut files: Vec<(String, String)> = manifest
            .lines()
            .skip(1)
            .filter_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                Some((f.first()?.to_string(), f.get(2)?.to_string()))
            })
            .collect();
        files.sort();
        files.dedup();
        let mut checked = 0;
        for (file, ty) in files {
            let Ok(text) = std::fs::read_to_string(format!("{dir}/{file}")) else {
                continue;
            };
            let Ok(m) = model::load(&ty) else { continue };
            let m = Arc::new(m);
            let variants = [
                text.clone(),
                text.replace("\n\n", "\n\n\n# c\n\n"),
                text.replace("\n\n", "\n"),
                format!(
                    "\u{feff}{}\nxyz\n---\n{text}\n12\n",
                    text.replace('\n', "\r\n")
                ),
            ];
            for t in &variants {
                let whole = parse_typed(&m, "t", t);
                assert!(!whole.is_empty());
                for cap in [1, 7, 4096] {
                    assert_eq!(streamed(&m, t, cap), whole, "{file} ({ty}), capacity {cap}");
                }
            }
            checked += 1;
        }
        assert!(checked >= 5, "{checked} files");
    }

    #[test]
    fn a_futoshiki_record_spans_three_lines() {
        let m = Arc::new(model::load("futoshiki:3").unwrap());
        let text = "1........\n<-----\n------\n\n.........\n<<\n";
        let whole = parse_typed(&m, "t", text);
        assert_eq!(streamed(&m, text, 1), whole);
        let lines: Vec<(usize, usize, bool)> = whole
            .iter()
            .map(|r| match r {
                Ok(p) => (p.line, p.last_line, true),
                Err(e) => (e.first_line, e.last_line, false),
            })
            .collect();
        assert_eq!(lines, vec![(1, 3, true), (5, 6, false)]);
    }

    #[test]
    fn a_too_long_line_is_an_error_and_the_stream_goes_on() {
        let m = Arc::new(model::load("latin:2").unwrap());
        let long = "1".repeat(MAX_LINE_BYTES + 1);
        let text = format!("12..\n{long}\n# {long}\n.1..\n");
        let recs = streamed(&m, &text, 4096);
        let kinds: Vec<String> = recs
            .iter()
            .map(|r| match r {
                Ok(p) => format!("{} {}", p.line, p.text),
                Err(e) => format!("{} {}", e.first_line, e.kind.code()),
            })
            .collect();
        assert_eq!(kinds, ["1 12..", "2 line-too-long", "4 .1.."]);
    }
}
