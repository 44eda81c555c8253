//! The input argument of the batch commands: `-` (standard input), a path
//! to anything readable, or a puzzle written on the command line; its
//! records read on a thread of their own ([`Input`]) so that a batch takes
//! the records that have arrived without waiting for more.

use ruledoku::input::typed::{TypedPuzzle, parse_typed};
use ruledoku::input::{self, ErrorKind, InputError, Puzzle, TypedReader};
use ruledoku::model::Model;
use std::ffi::OsStr;
use std::io::{self, BufRead};
use std::path::Path;
use std::sync::Arc;

/// A record as a reader gives it: a puzzle (classic, or of a type), or
/// the error that stands for its lines.
pub trait Record: Send + 'static {
    /// The read error this record is (it ends the records), if it is one.
    fn read_error(&self) -> Option<&InputError>;
    /// The text after the puzzle on its line (`--keep-fields`).
    fn fields(&self) -> String;
    /// The record with `k` added to its line numbers (`--line-offset`).
    fn shifted(self, k: usize) -> Self;
}

impl Record for Result<Puzzle, InputError> {
    fn read_error(&self) -> Option<&InputError> {
        self.as_ref()
            .err()
            .filter(|e| matches!(e.kind, ErrorKind::Io { .. }))
    }

    fn fields(&self) -> String {
        self.as_ref().map_or(String::new(), |p| p.metadata.clone())
    }

    fn shifted(self, k: usize) -> Self {
        match self {
            Ok(mut p) => {
                p.line += k;
                p.last_line += k;
                Ok(p)
            }
            Err(e) => Err(shift_error(e, k)),
        }
    }
}

impl Record for Result<TypedPuzzle, InputError> {
    fn read_error(&self) -> Option<&InputError> {
        self.as_ref()
            .err()
            .filter(|e| matches!(e.kind, ErrorKind::Io { .. }))
    }

    fn fields(&self) -> String {
        self.as_ref().map_or(String::new(), |p| p.metadata.clone())
    }

    fn shifted(self, k: usize) -> Self {
        match self {
            Ok(mut p) => {
                p.line += k;
                p.last_line += k;
                Ok(p)
            }
            Err(e) => Err(shift_error(e, k)),
        }
    }
}

fn shift_error(mut e: InputError, k: usize) -> InputError {
    e.line += k;
    e.first_line += k;
    e.last_line += k;
    e
}

/// A reader of records that counts the lines it has read (for a batch's
/// summary).
pub trait Reader<T>: Iterator<Item = T> + Send {
    fn lines_read(&self) -> usize;
}

impl Reader<Result<Puzzle, InputError>> for input::PuzzleReader<Box<dyn BufRead + Send>> {
    fn lines_read(&self) -> usize {
        input::PuzzleReader::lines_read(self)
    }
}

impl Reader<Result<TypedPuzzle, InputError>> for TypedReader<Box<dyn BufRead + Send>> {
    fn lines_read(&self) -> usize {
        TypedReader::lines_read(self)
    }
}

type Records<T> = Box<dyn Iterator<Item = T> + Send>;

/// Records read ahead of the workers, at most.
const READ_AHEAD: usize = 1024;

/// The records of the input, read by a thread of their own so that a batch
/// takes the records that have arrived without waiting for more (a pipe
/// that stays open, or a line that never ends, must not hold back the
/// records before it). A read error (e.g. EIO) is no record: it ends them
/// and is kept apart, for [`Input::end`] to fail the command with.
pub struct Input<T = Result<Puzzle, InputError>> {
    recs: std::sync::mpsc::Receiver<T>,
    read_error: Option<String>,
}

impl<T: Record> Input<T> {
    fn new(recs: Records<T>) -> Self {
        let (tx, rx) = std::sync::mpsc::sync_channel(READ_AHEAD);
        std::thread::spawn(move || {
            for r in recs {
                if tx.send(r).is_err() {
                    break;
                }
            }
        });
        Input {
            recs: rx,
            read_error: None,
        }
    }

    /// After the last record: the read error that ended them, if any.
    pub fn end(self) -> Result<(), String> {
        self.read_error.map_or(Ok(()), Err)
    }

    /// The next record, then those that have already arrived, `most` at
    /// most; empty after the last record. Before waiting for a record that
    /// has not arrived, `waiting` runs (the results written so far are
    /// flushed: a pipe that stays open must not hold back their lines).
    pub fn chunk(
        &mut self,
        most: usize,
        waiting: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<Vec<T>> {
        let mut out = Vec::new();
        if self.read_error.is_some() {
            return Ok(out);
        }
        let first = match self.recs.try_recv() {
            Ok(r) => Some(r),
            Err(std::sync::mpsc::TryRecvError::Empty) => {
                waiting()?;
                self.recs.recv().ok()
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        };
        let Some(first) = first.and_then(|r| self.keep(r)) else {
            return Ok(out);
        };
        out.push(first);
        while out.len() < most && self.read_error.is_none() {
            match self.recs.try_recv() {
                Ok(r) => match self.keep(r) {
                    Some(r) => out.push(r),
                    None => break,
                },
                Err(_) => break,
            }
        }
        Ok(out)
    }

    /// The records that have already arrived, `most` at most, without
    /// waiting: `None` when none has arrived yet, an empty chunk after
    /// the last record.
    pub fn ready_chunk(&mut self, most: usize) -> Option<Vec<T>> {
        let mut out = Vec::new();
        while out.len() < most && self.read_error.is_none() {
            match self.recs.try_recv() {
                Ok(r) => match self.keep(r) {
                    Some(r) => out.push(r),
                    None => break,
                },
                Err(std::sync::mpsc::TryRecvError::Empty) if out.is_empty() => return None,
                Err(_) => break,
            }
        }
        Some(out)
    }

    /// A record, or `None` for a read error (kept for [`Input::end`]).
    fn keep(&mut self, r: T) -> Option<T> {
        if let Some(e) = r.read_error() {
            self.read_error = Some(e.to_string());
            return None;
        }
        Some(r)
    }
}

impl<T: Record> Iterator for Input<T> {
    type Item = T;

    fn next(&mut self) -> Option<Self::Item> {
        if self.read_error.is_some() {
            return None;
        }
        let r = self.recs.recv().ok()?;
        self.keep(r)
    }
}

/// The path the input argument names, when it is one (not `-`, not a
/// puzzle): what no output may overwrite.
pub fn input_path(arg: &OsStr) -> Option<&Path> {
    (arg != "-" && std::fs::metadata(arg).is_ok()).then(|| Path::new(arg))
}

/// The records of the input argument, and the name messages give it: `-`
/// (standard input), a path to anything readable (a file, a named pipe,
/// `/dev/stdin`, a process substitution's `/dev/fd/N`; any file name, not
/// only UTF-8 ones), or else a puzzle written on the command line
/// (`<arg>`). Standard output may not be the input file (the results
/// would be read back).
pub fn records(arg: &OsStr) -> Result<(String, Input), String> {
    let shown = Path::new(arg).display().to_string();
    let open = |name: &str| -> Result<(String, Input), String> {
        crate::output_cli::Inputs::of(input_path(arg)).refuse_stdout()?;
        let r = input::open(arg).map_err(|e| e.to_string())?;
        Ok((name.to_string(), Input::new(Box::new(r))))
    };
    if arg == "-" {
        return open("<stdin>");
    }
    if arg.is_empty() {
        return Err("the input is empty: give a puzzle, a file, or `-` for standard input".into());
    }
    // A path first (as the shell gave it), then a puzzle.
    let looks_like_puzzle = arg.len() >= 81 || arg.as_encoded_bytes().contains(&b'\n');
    match std::fs::metadata(arg) {
        Ok(m) if m.is_dir() => Err(format!("{shown}: is a directory")),
        Ok(_) => open(&shown),
        Err(_) if looks_like_puzzle && arg.to_str().is_some() => Ok((
            "<arg>".to_string(),
            Input::new(Box::new(std::iter::once(input::parse_puzzle(
                arg.to_str().unwrap_or_default(),
            )))),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound || looks_like_puzzle => {
            Err(format!("{shown}: no such file, and not a puzzle"))
        }
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

/// The records of the input argument read as puzzles of type `m`, and
/// the name messages give it: as [`records`] takes its argument (`-`, a
/// path, or a puzzle written on the command line, here any argument that
/// names no file and holds no `/`).
pub fn typed_records(
    arg: &OsStr,
    m: &Arc<Model>,
) -> Result<(String, Input<Result<TypedPuzzle, InputError>>), String> {
    let shown = Path::new(arg).display().to_string();
    let open = |name: &str| -> Result<_, String> {
        crate::output_cli::Inputs::of(input_path(arg)).refuse_stdout()?;
        let r = input::open_typed(m.clone(), arg).map_err(|e| e.to_string())?;
        Ok((name.to_string(), Input::new(Box::new(r))))
    };
    if arg == "-" {
        return open("<stdin>");
    }
    if arg.is_empty() {
        return Err("the input is empty: give a puzzle, a file, or `-` for standard input".into());
    }
    match std::fs::metadata(arg) {
        Ok(md) if md.is_dir() => Err(format!("{shown}: is a directory")),
        Ok(_) => open(&shown),
        Err(_) if arg.to_str().is_some_and(|t| !t.contains('/')) => {
            let text = arg.to_str().unwrap_or_default();
            let recs = parse_typed(m, "<arg>", text);
            Ok(("<arg>".to_string(), Input::new(Box::new(recs.into_iter()))))
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(format!("{shown}: no such file, and not a puzzle"))
        }
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

/// An error when the puzzle input and a rule set (`--rules`) both are
/// standard input (`-`): the first to read it would take it all.
pub fn one_reader_of_stdin(input: &OsStr, rules: Option<&OsStr>) -> Result<(), String> {
    if input == "-" && rules.is_some_and(reads_stdin) {
        return Err(
            "the puzzles and the rule set are both standard input (`-`): give one of them as a file"
                .into(),
        );
    }
    Ok(())
}

/// Does the rule-set spec read standard input (`-`, or a `+` part `-`)?
pub fn reads_stdin(spec: &OsStr) -> bool {
    spec.as_encoded_bytes()
        .split(|&b| b == b'+')
        .any(|p| p == b"-")
}

/// The records of `--type f-puzzles` for `solve` and `rate`: one
/// f-puzzles puzzle per line (address, compressed string or JSON), each
/// with its own type ([`TypedPuzzle::own_type`]); blank lines and `#`
/// comments are skipped; a line that cannot be read, holds a constraint
/// ruledoku does not model, or whose givens contradict, is an invalid
/// record with its message. The input is read whole, as `check --type
/// f-puzzles` reads it.
pub fn fpuzzles_records(
    arg: &OsStr,
) -> Result<(String, Input<Result<TypedPuzzle, InputError>>), super::Fail> {
    use ruledoku::input::fpuzzles;
    use ruledoku::input::typed::{OwnType, TypedFormat, givens_text};
    let (source, text) = crate::type_cli::read_input(arg)?;
    let mut recs = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let no = i + 1;
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let read = fpuzzles::read(t);
        recs.push(match read {
            Ok((m, givens)) => Ok(TypedPuzzle {
                line: no,
                last_line: no,
                text: givens_text(&m, &givens),
                givens,
                signs: Vec::new(),
                format: TypedFormat::Line,
                metadata: String::new(),
                own_type: Some(OwnType(Arc::new(m))),
            }),
            Err(message) => Err(InputError {
                source_name: source.clone(),
                line: no,
                column: None,
                kind: ErrorKind::FPuzzles { message },
                first_line: no,
                last_line: no,
            }),
        });
    }
    Ok((source, Input::new(Box::new(recs.into_iter()))))
}
