//! `rate` for large batches and clusters: a slice of the input's records
//! (`--skip`, `--limit`, `--shard`, `--line-offset`), several input files,
//! input fields kept, an output file written as `FILE.part` and renamed
//! when complete with a JSON summary beside it (`--output`), `--resume`,
//! a clean stop on SIGINT/SIGTERM, and `merge`, which joins the pieces
//! once it has checked that they tile their input. The arithmetic and the
//! summary's format are the library's `batch`; docs/batch.md is the user's
//! guide.

use super::input_cli::{Reader, Record};
use super::{CHUNK, Chunking, Job, Out, Outcome, Rater, RunOpts, SeJob};
use indicatif::ProgressBar;
use ruledoku::batch::{self, Shard, Slice, Span, Summary};
use ruledoku::engine::Limits;
use ruledoku::input;
use ruledoku::model::Model;
use ruledoku::ruleset::RuleSet;
use ruledoku::typed::TypedSet;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::time::{Duration, Instant};

/// Exit status: every record read and judged, all of them puzzles with
/// one solution.
pub const EXIT_OK: u8 = 0;
/// Exit status: complete, but some records were not rated (invalid, or
/// without a unique solution).
pub const EXIT_INVALID: u8 = 1;
/// Exit status: a usage, input or output error (nothing written, or the
/// output stays `.part`).
pub const EXIT_ERROR: u8 = 2;
/// Exit status: standard output was closed early (the output is truncated).
pub const EXIT_TRUNCATED: u8 = 3;
/// Exit status: a step was wrong (`--verify`).
pub const EXIT_VERDICT: u8 = 4;
/// Exit status: stopped by SIGINT or SIGTERM; the completed records are
/// written, the summary says `done: false`, `--resume` goes on.
pub const EXIT_INTERRUPTED: u8 = 5;

/// The commit the binary was built from (`unknown` outside a checkout).
pub const COMMIT: &str = env!("RULEDOKU_COMMIT");

/// The batch options of `rate`.
#[derive(clap::Args, Default)]
pub struct BatchOpts {
    /// More input files, rated one after the other as one input; the
    /// output then starts each record with its file (a `file` column or
    /// field).
    #[arg(value_name = "MORE")]
    pub more: Vec<String>,
    /// Leave out the first N records of the input (line numbers stay
    /// those of the input).
    #[arg(long, value_name = "N", value_parser = super::count, allow_negative_numbers = true)]
    pub skip: Option<usize>,
    /// Rate at most M records (after --skip).
    #[arg(long, value_name = "M", value_parser = super::count, allow_negative_numbers = true)]
    pub limit: Option<usize>,
    /// Rate the I-th of N contiguous slices of the records (1 ≤ I ≤ N; the
    /// input files are read once first to count them).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse, conflicts_with_all = ["skip", "limit"])]
    pub shard: Option<Shard>,
    /// The input is a slice piped in whose first line is line K+1 of the
    /// original: every line number (output and messages) is given K more.
    #[arg(long, value_name = "K", value_parser = super::count, allow_negative_numbers = true)]
    pub line_offset: Option<usize>,
    /// Write the results to FILE.part, renamed FILE when complete, with
    /// FILE.summary.json beside it (see docs/batch.md). An existing FILE,
    /// FILE.part or summary is never overwritten (see --resume). Exit
    /// status with batch options: 0 complete, 1 some records not rated,
    /// 2 error, 3 output truncated, 4 a wrong step (--verify), 5
    /// interrupted by SIGINT/SIGTERM (resume with --resume).
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Go on with the output of an interrupted run (the same command):
    /// the completed records are kept and the others rated, so that the
    /// output is that of one uninterrupted run. With nothing to resume, a
    /// fresh start; with a complete output, nothing to do.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Keep the rest of each input line after the puzzle (an ID, a name):
    /// after a tab in text lines, a `fields` column in CSV, a `fields`
    /// field in JSON.
    #[arg(long)]
    pub keep_fields: bool,
}

impl BatchOpts {
    /// Whether `rate` runs as a batch (any batch option given).
    pub fn active(&self) -> bool {
        !self.more.is_empty()
            || self.skip.is_some()
            || self.limit.is_some()
            || self.shard.is_some()
            || self.line_offset.is_some()
            || self.output.is_some()
            || self.keep_fields
    }
}

/// `merge`'s arguments.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// The pieces: outputs of `rate --output` (or their `.summary.json`),
    /// in any order.
    #[arg(required = true, value_name = "PIECE")]
    pub pieces: Vec<PathBuf>,
    /// Write the merged output to FILE (with FILE.summary.json) instead of
    /// standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Why a batch stopped before its end.
enum Fail {
    Error(String),
    Closed,
}

impl From<String> for Fail {
    fn from(e: String) -> Fail {
        Fail::Error(e)
    }
}

fn exit(result: Result<u8, Fail>) -> ExitCode {
    match result {
        Ok(code) => ExitCode::from(code),
        Err(Fail::Closed) => ExitCode::from(EXIT_TRUNCATED),
        Err(Fail::Error(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

/// Processor time (user + system) of this process so far, in seconds, and
/// its largest resident set, in KiB.
fn usage() -> (f64, u64) {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage fills the rusage it is given and reports failure
    // by its result, which is checked before the value is read.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, u.as_mut_ptr()) } == 0;
    if !ok {
        return (0.0, 0);
    }
    // SAFETY: initialised by the successful call above (and zeroed before).
    let u = unsafe { u.assume_init() };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    (
        secs(u.ru_utime) + secs(u.ru_stime),
        u64::try_from(u.ru_maxrss).unwrap_or(0),
    )
}

/// The digest of a rule set: its rules' heads in order (name, complexity,
/// level, rating, file and line), how it runs, and the text of every rule
/// file named (built in or on disk).
pub fn rules_digest(set: &RuleSet) -> String {
    let mut h = Sha256::new();
    h.update(format!("{}|{:?}|{}\n", set.name, set.strategy, set.blocked));
    let mut files: Vec<&str> = Vec::new();
    for r in &set.rules {
        let head = &r.head;
        h.update(format!(
            "{}|{}|{}|{:?}|{}|{}\n",
            head.name, head.complexity, head.level, head.label, head.file, head.line
        ));
        if !files.contains(&head.file.as_str()) {
            files.push(&head.file);
        }
    }
    for f in files {
        let text = match f.strip_prefix("rules/") {
            Some(k) => ruledoku::ruleset::source::EMBEDDED
                .iter()
                .find(|(p, _)| *p == k)
                .map(|(_, t)| t.to_string()),
            None => None,
        }
        .or_else(|| fs::read_to_string(f).ok())
        .unwrap_or_default();
        h.update(format!("{f}\n{}\n", text.len()));
        h.update(text.as_bytes());
    }
    let d = h.finalize();
    let hex: String = d.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

// ---------------------------------------------------------------------------
// Signals

/// SIGINT and SIGTERM: the first sets the flag (the batch stops taking
/// records and ends cleanly), a second one ends the process at once.
struct Signals {
    flag: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

impl Signals {
    fn install() -> Result<Signals, String> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let flag = Arc::new(AtomicBool::new(false));
        let which = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            let err = |e: io::Error| format!("cannot handle signal {sig}: {e}");
            signal_hook::flag::register_conditional_shutdown(
                sig,
                i32::from(EXIT_INTERRUPTED),
                Arc::clone(&flag),
            )
            .map_err(err)?;
            signal_hook::flag::register(sig, Arc::clone(&flag)).map_err(err)?;
            signal_hook::flag::register_usize(sig, Arc::clone(&which), sig as usize)
                .map_err(err)?;
        }
        Ok(Signals { flag, which })
    }

    fn raised(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    fn name(&self) -> String {
        match self.which.load(Ordering::Relaxed) as i32 {
            signal_hook::consts::SIGINT => "SIGINT".into(),
            signal_hook::consts::SIGTERM => "SIGTERM".into(),
            n => format!("signal {n}"),
        }
    }
}

// ---------------------------------------------------------------------------
// Reading: the records of every input, in order, on a thread of their own

/// What the reading thread sends (a record is most of the messages).
#[allow(clippy::large_enum_variant)]
enum Msg<T> {
    /// A record of the slice: its file and the record.
    Rec(usize, T),
    /// The end of the slice: whether the input ran out, the lines read (of
    /// the last input, once it ran out), or the read error that ended it.
    End {
        reached_end: bool,
        lines: Option<u64>,
        error: Option<String>,
    },
}

/// Records read ahead of the workers, at most.
const READ_AHEAD: usize = 1024;

/// An input of a batch: a file (or anything readable), or `-`.
fn check_input(name: &str) -> Result<(), String> {
    if name != "-" {
        match fs::metadata(name) {
            Ok(m) if m.is_dir() => return Err(format!("{name}: is a directory")),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(format!(
                    "{name}: no such file (with batch options, inputs are files or `-`)"
                ));
            }
            Err(e) => return Err(format!("{name}: {e}")),
        }
    }
    Ok(())
}

/// What a batch rates: how its inputs are read, and a [`Rater`] for
/// each input (classic puzzles, or puzzles of a type).
trait Rating {
    type Rec: Record;
    type Rater<'a>: Rater<Rec = Self::Rec>
    where
        Self: 'a;
    /// The rule set as loaded.
    fn set(&self) -> &RuleSet;
    /// Opens an input (checked by [`check_input`]).
    fn open(&self, name: &str) -> Result<Box<dyn Reader<Self::Rec>>, String>;
    /// The rater of the input named `source`.
    fn rater<'a>(&'a self, source: &'a str) -> Self::Rater<'a>;
    /// The CSV header.
    fn csv_header(&self, time: bool) -> String;
    /// `--se`'s options, when given.
    fn se(&self) -> Option<&SeJob>;
    /// The puzzle type, when not classic Sudoku.
    fn type_name(&self) -> Option<String>;
}

/// Classic 9×9 puzzles.
struct Classic {
    set: RuleSet,
    limits: Limits,
    out: Out,
    se: Option<SeJob>,
    stats: bool,
    time: bool,
    verify: bool,
}

impl Rating for Classic {
    type Rec = Result<input::Puzzle, input::InputError>;
    type Rater<'a> = Job<'a>;

    fn set(&self) -> &RuleSet {
        &self.set
    }

    fn open(&self, name: &str) -> Result<Box<dyn Reader<Self::Rec>>, String> {
        check_input(name)?;
        let r = input::open(name).map_err(|e| format!("{name}: {e}"))?;
        Ok(Box::new(r))
    }

    fn rater<'a>(&'a self, source: &'a str) -> Job<'a> {
        Job {
            set: &self.set,
            limits: self.limits,
            out: self.out,
            source,
            stats: self.stats,
            time: self.time,
            verify: self.verify,
            se: self.se.as_ref(),
            svg: None,
            html: None,
        }
    }

    fn csv_header(&self, time: bool) -> String {
        if self.se.is_some() {
            ruledoku::serate::csv_header(time)
        } else {
            ruledoku::path::csv_header(time)
        }
    }

    fn se(&self) -> Option<&SeJob> {
        self.se.as_ref()
    }

    fn type_name(&self) -> Option<String> {
        None
    }
}

/// Puzzles of a type other than classic Sudoku.
struct Typed {
    set: RuleSet,
    tset: TypedSet,
    model: Arc<Model>,
    limits: Limits,
    out: Out,
    stats: bool,
    time: bool,
    verify: bool,
}

impl Rating for Typed {
    type Rec = Result<input::typed::TypedPuzzle, input::InputError>;
    type Rater<'a> = super::typed_cli::TypedJob<'a>;

    fn set(&self) -> &RuleSet {
        &self.set
    }

    fn open(&self, name: &str) -> Result<Box<dyn Reader<Self::Rec>>, String> {
        check_input(name)?;
        let r = input::open_typed(self.model.clone(), name).map_err(|e| format!("{name}: {e}"))?;
        Ok(Box::new(r))
    }

    fn rater<'a>(&'a self, source: &'a str) -> super::typed_cli::TypedJob<'a> {
        super::typed_cli::TypedJob {
            model: &self.model,
            set: &self.tset,
            limits: self.limits,
            out: self.out,
            source,
            stats: self.stats,
            time: self.time,
            verify: self.verify,
            svg: None,
            html: None,
            rules: None,
        }
    }

    fn csv_header(&self, time: bool) -> String {
        ruledoku::path::csv_header(time)
    }

    fn se(&self) -> Option<&SeJob> {
        None
    }

    fn type_name(&self) -> Option<String> {
        Some(self.model.name().to_string())
    }
}

/// Counts the records of the inputs (for `--shard`): files only, read once.
fn count_records<K: Rating>(kind: &K, names: &[String]) -> Result<u64, String> {
    let mut n = 0u64;
    for name in names {
        if name == "-" {
            return Err(
                "--shard needs files (their records are counted first), not standard input: \
                 use --skip/--limit, or --line-offset for a slice piped in"
                    .into(),
            );
        }
        for r in kind.open(name)? {
            if let Some(e) = r.read_error() {
                return Err(e.to_string());
            }
            n += 1;
        }
    }
    Ok(n)
}

/// Starts the thread that reads records `first..first+limit` of the
/// inputs (opened already) and sends them.
fn read_slice<T: Record>(
    mut readers: Vec<Box<dyn Reader<T>>>,
    first: u64,
    limit: Option<u64>,
    offset: usize,
    tx: SyncSender<Msg<T>>,
) {
    std::thread::spawn(move || {
        let mut index = 0u64;
        let n = readers.len();
        for (fi, reader) in readers.iter_mut().enumerate() {
            for r in reader.by_ref() {
                if let Some(e) = r.read_error() {
                    let _ = tx.send(Msg::End {
                        reached_end: false,
                        lines: None,
                        error: Some(e.to_string()),
                    });
                    return;
                }
                if limit.is_some_and(|l| index >= first + l) {
                    let _ = tx.send(Msg::End {
                        reached_end: false,
                        lines: None,
                        error: None,
                    });
                    return;
                }
                if index >= first && tx.send(Msg::Rec(fi, r.shifted(offset))).is_err() {
                    return;
                }
                index += 1;
            }
            if fi + 1 == n {
                let _ = tx.send(Msg::End {
                    reached_end: true,
                    lines: Some(reader.lines_read() as u64),
                    error: None,
                });
            }
        }
    });
}

// ---------------------------------------------------------------------------
// Writing: standard output, or FILE.part with its summary

/// Where the results go.
enum Sink {
    Stdout {
        out: BufWriter<io::StdoutLock<'static>>,
        tty: bool,
        flushed: Instant,
    },
    File {
        w: BufWriter<File>,
        part: PathBuf,
        bytes: u64,
    },
}

impl Sink {
    const STREAM_EVERY: Duration = Duration::from_millis(250);

    fn write(&mut self, s: &str, pb: &ProgressBar) -> Result<(), Fail> {
        match self {
            Sink::Stdout { out, tty, flushed } => {
                let r = if *tty {
                    pb.suspend(|| {
                        out.write_all(s.as_bytes())?;
                        out.flush()
                    })
                } else {
                    out.write_all(s.as_bytes()).and_then(|()| {
                        if flushed.elapsed() >= Self::STREAM_EVERY {
                            *flushed = Instant::now();
                            out.flush()
                        } else {
                            Ok(())
                        }
                    })
                };
                r.map_err(stdout_error)
            }
            Sink::File { w, part, bytes } => {
                *bytes += s.len() as u64;
                w.write_all(s.as_bytes())
                    .map_err(|e| Fail::Error(format!("{}: cannot write: {e}", part.display())))
            }
        }
    }

    /// Writes out what is buffered; a file is also synced to its disk, so
    /// that a summary written after it never counts bytes that a crash
    /// could lose.
    fn flush(&mut self) -> Result<(), Fail> {
        match self {
            Sink::Stdout { out, flushed, .. } => {
                *flushed = Instant::now();
                out.flush().map_err(stdout_error)
            }
            Sink::File { w, part, .. } => w
                .flush()
                .and_then(|()| w.get_ref().sync_data())
                .map_err(|e| Fail::Error(format!("{}: cannot write: {e}", part.display()))),
        }
    }
}

fn stdout_error(e: io::Error) -> Fail {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Fail::Closed
    } else {
        Fail::Error(format!("standard output: {e}"))
    }
}

/// Writes a summary whole: a temporary file, synced, renamed.
fn write_summary(path: &Path, s: &Summary) -> Result<(), String> {
    let tmp = {
        let mut t = path.as_os_str().to_owned();
        t.push(".tmp");
        PathBuf::from(t)
    };
    let text = serde_json::to_string_pretty(s).map_err(|e| e.to_string())? + "\n";
    let err = |e: io::Error| format!("{}: cannot write: {e}", path.display());
    let mut f = File::create(&tmp).map_err(err)?;
    f.write_all(text.as_bytes()).map_err(err)?;
    f.sync_all().map_err(err)?;
    fs::rename(&tmp, path).map_err(err)
}

fn read_summary(path: &Path) -> Result<Summary, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let s: Summary = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a ruledoku summary: {e}", path.display()))?;
    if s.summary != batch::SUMMARY_KIND {
        return Err(format!(
            "{}: a summary of another kind ({}), expected `{}`",
            path.display(),
            s.summary,
            batch::SUMMARY_KIND
        ));
    }
    Ok(s)
}

fn part_path(output: &Path) -> PathBuf {
    let mut p = output.as_os_str().to_owned();
    p.push(".part");
    p.into()
}

// ---------------------------------------------------------------------------
// rate

/// The output's decorations: a file column (several inputs) and the kept
/// fields.
struct Columns<'a> {
    out: Out,
    files: Option<&'a [String]>,
    keep_fields: bool,
}

impl Columns<'_> {
    fn header(&self, header: &str) -> String {
        let mut h = String::new();
        if self.files.is_some() {
            h.push_str("file,");
        }
        h.push_str(header);
        if self.keep_fields {
            h.push_str(",fields");
        }
        h.push('\n');
        h
    }

    /// One record's output (one line ending with `\n`), decorated.
    fn decorate(&self, line: String, file: usize, fields: &str) -> String {
        if self.files.is_none() && !self.keep_fields {
            return line;
        }
        let body = line.strip_suffix('\n').unwrap_or(&line);
        let file = self.files.map(|f| f[file].as_str());
        match self.out {
            Out::Json => {
                let inner = body.strip_prefix('{').unwrap_or(body);
                let inner = inner.strip_suffix('}').unwrap_or(inner);
                let mut o = String::from("{");
                if let Some(f) = file {
                    o.push_str(&format!("\"file\":{},", serde_json::json!(f)));
                }
                o.push_str(inner);
                if self.keep_fields {
                    o.push_str(&format!(",\"fields\":{}", serde_json::json!(fields)));
                }
                o.push_str("}\n");
                o
            }
            Out::Csv => {
                let mut o = String::new();
                if let Some(f) = file {
                    o.push_str(&ruledoku::path::csv_quoted(f));
                    o.push(',');
                }
                o.push_str(body);
                if self.keep_fields {
                    o.push(',');
                    o.push_str(&ruledoku::path::csv_quoted(fields));
                }
                o.push('\n');
                o
            }
            Out::Line | Out::Path => {
                let mut o = String::new();
                if let Some(f) = file {
                    o.push_str(f);
                    o.push(' ');
                }
                o.push_str(body);
                if self.keep_fields {
                    o.push('\t');
                    o.push_str(fields);
                }
                o.push('\n');
                o
            }
        }
    }
}

/// The options that change `rate`'s output bytes, for the summary.
fn options_of(
    opts: &RunOpts,
    out: Out,
    se: Option<&SeJob>,
    type_name: Option<String>,
    b: &BatchOpts,
) -> BTreeMap<String, serde_json::Value> {
    use serde_json::json;
    let mut o = BTreeMap::new();
    let form = match out {
        Out::Json => "json",
        Out::Csv => "csv",
        _ => "text",
    };
    o.insert("form".into(), json!(form));
    o.insert("se".into(), json!(se.is_some()));
    if let Some(se) = se {
        o.insert(
            "se_options".into(),
            json!(format!("{:?} {:?}", se.format, se.bounds)),
        );
    }
    o.insert("unblocked".into(), json!(opts.unblocked));
    o.insert("max_steps".into(), json!(opts.max_steps));
    o.insert(
        "max_seconds".into(),
        json!(opts.max_seconds.map(|d| d.as_secs_f64())),
    );
    o.insert("max_memory_mib".into(), json!(opts.max_memory >> 20));
    o.insert(
        "max_cpu_seconds".into(),
        json!(opts.max_cpu_seconds.map(|d| d.as_secs_f64())),
    );
    o.insert("no_time".into(), json!(opts.no_time));
    o.insert("stats".into(), json!(opts.stats));
    o.insert("verify".into(), json!(opts.verify));
    o.insert("keep_fields".into(), json!(b.keep_fields));
    if let Some(t) = type_name {
        o.insert("type".into(), json!(t));
    }
    o
}

/// `rate` with batch options: see the module's doc.
pub fn rate(input: &str, opts: &RunOpts, out: Out, se: Option<SeJob>, b: &BatchOpts) -> ExitCode {
    exit(rate_batch(input, opts, out, b, || {
        let (set, limits) = opts.load()?;
        Ok(Classic {
            set,
            limits,
            out,
            se,
            stats: opts.stats,
            time: !opts.no_time,
            verify: opts.verify,
        })
    }))
}

/// `rate --type T` with batch options, for a type other than classic
/// Sudoku.
pub fn rate_typed(input: &std::ffi::OsStr, opts: &RunOpts, out: Out, b: &BatchOpts) -> ExitCode {
    let Some(input) = input.to_str() else {
        eprintln!(
            "error: the batch options need a UTF-8 input name (got {})",
            input.to_string_lossy()
        );
        return ExitCode::from(EXIT_ERROR);
    };
    let model = match opts.ty.model() {
        Ok(Some(m)) => m,
        Ok(None) => {
            let e = "--type: the type file changed while it was read; run the command again";
            return exit(Err(Fail::Error(e.into())));
        }
        Err(e) => return super::exit_code(Err(e)),
    };
    if opts.se {
        let e = format!(
            "--se is not available with --type {} (classic 9×9 Sudoku only)",
            model.name()
        );
        return exit(Err(Fail::Error(e)));
    }
    exit(rate_batch(input, opts, out, b, || {
        let (set, limits) = opts.load()?;
        let tset = super::typed_cli::compile(&set, &model)?;
        Ok(Typed {
            set,
            tset,
            model: Arc::new(model),
            limits,
            out,
            stats: opts.stats,
            time: !opts.no_time,
            verify: opts.verify,
        })
    }))
}

fn rate_batch<K: Rating>(
    input: &str,
    opts: &RunOpts,
    out_kind: Out,
    b: &BatchOpts,
    load: impl FnOnce() -> Result<K, String>,
) -> Result<u8, Fail> {
    let started = Instant::now();
    // First: a signal from now on stops the batch cleanly.
    let signals = Signals::install()?;
    let (cpu0, _) = usage();
    let names: Vec<String> = std::iter::once(input.to_string())
        .chain(b.more.iter().cloned())
        .collect();
    if names.iter().filter(|n| *n == "-").count() > 1 {
        return Err("standard input (`-`) can be read once only"
            .to_string()
            .into());
    }
    if b.line_offset.is_some() && names.len() > 1 {
        return Err(
            "--line-offset is for one input (a slice piped in), not several files"
                .to_string()
                .into(),
        );
    }
    let kind = load()?;
    let set = kind.set();
    let digest = rules_digest(set);
    let offset = b.line_offset.unwrap_or(0);

    // The slice.
    let (first, limit, total) = match b.shard {
        Some(s) => {
            let total = count_records(&kind, &names)?;
            let (a, e) = s.range(total);
            (a, Some(e - a), Some(total))
        }
        None => (b.skip.unwrap_or(0) as u64, b.limit.map(|l| l as u64), None),
    };
    let mut summary = Summary {
        summary: batch::SUMMARY_KIND.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        commit: COMMIT.into(),
        command: "rate".into(),
        rules: opts
            .rules
            .as_ref()
            .map(|r| r.to_string_lossy().into_owned())
            .unwrap_or_else(|| set.name.clone()),
        rules_digest: digest,
        options: options_of(opts, out_kind, kind.se(), kind.type_name(), b),
        inputs: names.clone(),
        slice: Slice {
            shard: b.shard.map(|s| s.to_string()),
            first_record: first,
            limit,
            total_records: total,
            line_offset: offset as u64,
        },
        output: b
            .output
            .as_ref()
            .map_or("-".into(), |p| p.display().to_string()),
        ..Summary::default()
    };

    // The output: a fresh one, or the one to resume.
    let mut sink = match &b.output {
        None => Sink::Stdout {
            out: BufWriter::new(io::stdout().lock()),
            tty: io::stdout().is_terminal(),
            flushed: Instant::now(),
        },
        Some(path) => match open_output(path, b.resume, &mut summary)? {
            Opened::Sink(s) => {
                // A summary from the start: the output is resumable from
                // its first byte, whatever stops the process.
                if summary.records == 0 {
                    write_summary(&Summary::path_for(path), &summary)?;
                }
                s
            }
            Opened::Complete(status) => return Ok(status),
        },
    };
    let (cpu_before, wall_before) = (summary.cpu_seconds, summary.wall_seconds);
    let done_before = summary.records;

    let readers = names
        .iter()
        .map(|n| kind.open(n))
        .collect::<Result<Vec<_>, String>>()?;
    let skip_now = first + done_before;
    let limit_now = limit.map(|l| l.saturating_sub(done_before));
    let (tx, rx) = std::sync::mpsc::sync_channel(READ_AHEAD);
    read_slice(readers, skip_now, limit_now, offset, tx);

    let jobs_n = super::worker_threads(opts.jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs_n)
        .build()
        .map_err(|e| e.to_string())?;
    let sources: Vec<String> = names
        .iter()
        .map(|n| {
            if n == "-" {
                "<stdin>".into()
            } else {
                n.clone()
            }
        })
        .collect();
    let jobs: Vec<K::Rater<'_>> = sources.iter().map(|s| kind.rater(s)).collect();
    let columns = Columns {
        out: out_kind,
        files: (names.len() > 1).then_some(&names[..]),
        keep_fields: b.keep_fields,
    };
    let pb = super::progress(None);
    if summary.output_bytes == 0 && out_kind == Out::Csv {
        let header = kind.csv_header(!opts.no_time);
        sink.write(&columns.header(&header), &pb)?;
    }

    let mut chunking = Chunking::new(jobs_n, CHUNK);
    let mut wrong = 0usize;
    let mut total_stats: Option<Vec<ruledoku::engine::RuleStats>> = None;
    let mut last_summary = Instant::now();
    let mut end: Option<Msg<K::Rec>> = None;
    let mut interrupted = false;
    let checkpoint = |sink: &mut Sink, summary: &mut Summary| -> Result<(), Fail> {
        sink.flush()?;
        if let (Sink::File { bytes, .. }, Some(path)) = (&*sink, &b.output) {
            summary.output_bytes = *bytes;
            let (cpu, rss) = usage();
            summary.cpu_seconds = cpu_before + (cpu - cpu0);
            summary.wall_seconds = wall_before + started.elapsed().as_secs_f64();
            summary.max_rss_kib = summary.max_rss_kib.max(rss);
            write_summary(&Summary::path_for(path), summary)?;
        }
        Ok(())
    };
    loop {
        if signals.raised() {
            interrupted = true;
            break;
        }
        let chunk = match next_chunk(&rx, chunking.size(), &signals, &mut end, || {
            checkpoint(&mut sink, &mut summary)
        })? {
            Some(c) if !c.is_empty() => c,
            Some(_) => continue,
            None => break,
        };
        let t = Instant::now();
        let run = |(fi, r): (usize, K::Rec)| -> Option<(usize, String, Outcome)> {
            if signals.raised() {
                return None;
            }
            let fields = r.fields();
            Some((fi, fields, jobs[fi].rate(r)))
        };
        let outcomes: Vec<Option<(usize, String, Outcome)>> = if jobs_n == 1 {
            chunk.into_iter().map(run).collect()
        } else {
            use rayon::prelude::*;
            pool.install(|| chunk.into_par_iter().map(run).collect())
        };
        chunking.took(t.elapsed());
        for o in outcomes {
            let Some((fi, fields, o)) = o else {
                interrupted = true;
                break;
            };
            pb.inc(1);
            if let Some(st) = &o.stats {
                let acc = total_stats
                    .get_or_insert_with(|| vec![ruledoku::engine::RuleStats::default(); st.len()]);
                acc.iter_mut().zip(st).for_each(|(a, b)| a.add(b));
            }
            for msg in [&o.stderr, &o.note, &o.wrong].into_iter().flatten() {
                sink_message(&mut sink, &pb, msg)?;
            }
            if o.wrong.is_some() {
                wrong += 1;
            }
            sink.write(&columns.decorate(o.stdout, fi, &fields), &pb)?;
            summary.count(o.line as u64, o.stop, o.rating.as_deref());
        }
        if interrupted {
            break;
        }
        if last_summary.elapsed() >= Duration::from_secs(1) {
            checkpoint(&mut sink, &mut summary)?;
            last_summary = Instant::now();
        }
    }
    pb.finish_and_clear();
    let (reached_end, lines, error) = match end {
        Some(Msg::End {
            reached_end,
            lines,
            error,
        }) => (reached_end, lines, error),
        _ => (false, None, None),
    };
    summary.reached_end = reached_end;
    summary.lines_read = lines;
    if let Some(e) = error {
        checkpoint(&mut sink, &mut summary)?;
        return Err(Fail::Error(e));
    }
    if interrupted {
        summary.interrupted = Some(signals.name());
        checkpoint(&mut sink, &mut summary)?;
        eprintln!(
            "interrupted by {} after {} of this slice: {}",
            signals.name(),
            ruledoku::path::counted(summary.records as usize, "record"),
            match &b.output {
                Some(p) => format!(
                    "{} kept; run the same command with --resume to go on",
                    part_path(p).display()
                ),
                None => "the lines written are complete".into(),
            }
        );
        return Ok(EXIT_INTERRUPTED);
    }
    summary.done = true;
    summary.interrupted = None;
    checkpoint(&mut sink, &mut summary)?;
    if let Some(path) = &b.output {
        fs::rename(part_path(path), path).map_err(|e| {
            format!(
                "{}: cannot rename to {}: {e}",
                part_path(path).display(),
                path.display()
            )
        })?;
    }
    if summary.records == 0 {
        eprintln!("{}: no puzzle found in the slice", sources.join(" "));
    }
    if opts.verify {
        eprintln!(
            "verify: {} checked, {wrong} with a wrong step",
            ruledoku::path::counted((summary.records - summary.unrated()) as usize, "puzzle")
        );
    }
    if let Some(st) = total_stats {
        eprint!("{}", jobs[0].stats_table(&st, !opts.no_time));
    }
    Ok(status_of(&summary, wrong))
}

/// The exit status of a complete slice.
fn status_of(s: &Summary, wrong: usize) -> u8 {
    if wrong > 0 {
        EXIT_VERDICT
    } else if s.unrated() > 0 || s.records == 0 {
        EXIT_INVALID
    } else {
        EXIT_OK
    }
}

fn sink_message(sink: &mut Sink, pb: &ProgressBar, msg: &str) -> Result<(), Fail> {
    if let Sink::Stdout { .. } = sink {
        sink.flush()?;
    }
    pb.suspend(|| eprintln!("{msg}"));
    Ok(())
}

/// The next records: waits for the first (running `waiting` before it
/// waits), then takes those already arrived, `most` at most. `None` after
/// the last record (the end message is kept in `end`) or when a signal
/// came while waiting.
#[allow(clippy::type_complexity)]
fn next_chunk<T>(
    rx: &Receiver<Msg<T>>,
    most: usize,
    signals: &Signals,
    end: &mut Option<Msg<T>>,
    waiting: impl FnOnce() -> Result<(), Fail>,
) -> Result<Option<Vec<(usize, T)>>, Fail> {
    if end.is_some() {
        return Ok(None);
    }
    let mut out = Vec::new();
    let first = match rx.try_recv() {
        Ok(m) => m,
        Err(TryRecvError::Disconnected) => return Ok(None),
        Err(TryRecvError::Empty) => {
            waiting()?;
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(m) => break m,
                    Err(RecvTimeoutError::Timeout) if signals.raised() => return Ok(Some(out)),
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => return Ok(None),
                }
            }
        }
    };
    let mut m = first;
    loop {
        match m {
            Msg::Rec(fi, r) => out.push((fi, r)),
            end_msg @ Msg::End { .. } => {
                *end = Some(end_msg);
                break;
            }
        }
        if out.len() >= most {
            break;
        }
        match rx.try_recv() {
            Ok(next) => m = next,
            Err(_) => break,
        }
    }
    if out.is_empty() && end.is_some() {
        return Ok(None);
    }
    Ok(Some(out))
}

/// What `--output` found.
enum Opened {
    /// Write on (fresh or resumed).
    Sink(Sink),
    /// The output is already complete: nothing to do, this exit status.
    Complete(u8),
}

/// Opens `--output FILE`: a new `FILE.part`, or (`--resume`) the one an
/// interrupted run left, cut to what its summary accounts for. `summary`
/// is the new run's; on resume it takes the old one's counts. Nothing is
/// overwritten: a FILE, FILE.part or summary already there is an error
/// without `--resume`, and a resume of an output made otherwise (other
/// options, rule set, inputs, slice or program) is an error.
fn open_output(path: &Path, resume: bool, summary: &mut Summary) -> Result<Opened, Fail> {
    let part = part_path(path);
    let spath = Summary::path_for(path);
    let exists: Vec<&Path> = [path, &part, &spath]
        .into_iter()
        .filter(|p| p.exists())
        .collect();
    if path.is_dir() {
        return Err(format!("{}: is a directory", path.display()).into());
    }
    let create = || -> Result<Opened, Fail> {
        let f = File::create_new(&part)
            .map_err(|e| format!("{}: cannot create: {e}", part.display()))?;
        Ok(Opened::Sink(Sink::File {
            w: BufWriter::new(f),
            part: part.clone(),
            bytes: 0,
        }))
    };
    if !resume {
        if let Some(p) = exists.first() {
            return Err(format!(
                "{} exists: nothing overwritten (--resume goes on with an interrupted run; \
                 remove {}, {} and {} to start again)",
                p.display(),
                path.display(),
                part.display(),
                spath.display()
            )
            .into());
        }
        return create();
    }
    if !spath.exists() {
        // A part file left empty by a process stopped before its first
        // summary holds nothing to keep: start again in it.
        let empty_part = !path.exists() && fs::metadata(&part).is_ok_and(|m| m.len() == 0);
        if empty_part {
            fs::remove_file(&part).map_err(|e| format!("{}: {e}", part.display()))?;
            return create();
        }
        if let Some(p) = exists.first() {
            return Err(format!(
                "--resume: {} exists but {} does not: nothing to resume from, nothing overwritten",
                p.display(),
                spath.display()
            )
            .into());
        }
        return create();
    }
    let old = read_summary(&spath)?;
    let mut diff = summary.differences(&old);
    if old.slice != summary.slice {
        diff.push(format!(
            "slice: {} vs {}",
            serde_json::json!(summary.slice),
            serde_json::json!(old.slice)
        ));
    }
    if !diff.is_empty() {
        return Err(format!(
            "--resume: {} was made otherwise, nothing overwritten (this run vs the output's):\n  {}",
            path.display(),
            diff.join("\n  ")
        )
        .into());
    }
    // Take over the old counts.
    let mine = summary.clone();
    *summary = Summary {
        done: false,
        interrupted: None,
        ..old.clone()
    };
    summary.options = mine.options;
    if old.done {
        if path.exists() && fs::metadata(path).map(|m| m.len()).ok() == Some(old.output_bytes) {
            eprintln!("{}: complete already, nothing to do", path.display());
            return Ok(Opened::Complete(status_of(&old, 0)));
        }
        if part.exists() && fs::metadata(&part).map(|m| m.len()).ok() == Some(old.output_bytes) {
            fs::rename(&part, path)
                .map_err(|e| format!("{}: cannot rename: {e}", part.display()))?;
            return Ok(Opened::Complete(status_of(&old, 0)));
        }
        return Err(format!(
            "--resume: {} says the output is complete with {} bytes, but neither {} nor {} has them",
            spath.display(),
            old.output_bytes,
            path.display(),
            part.display()
        )
        .into());
    }
    let len = fs::metadata(&part)
        .map_err(|e| format!("--resume: {}: {e}", part.display()))?
        .len();
    if len < old.output_bytes {
        return Err(format!(
            "--resume: {} has {len} bytes, fewer than the {} its summary accounts for: \
             it cannot be resumed (remove it and {} to start again)",
            part.display(),
            old.output_bytes,
            spath.display()
        )
        .into());
    }
    let f = fs::OpenOptions::new()
        .write(true)
        .open(&part)
        .map_err(|e| format!("{}: cannot open: {e}", part.display()))?;
    f.set_len(old.output_bytes)
        .map_err(|e| format!("{}: cannot cut: {e}", part.display()))?;
    let mut w = BufWriter::new(f);
    use std::io::Seek;
    w.seek(io::SeekFrom::End(0))
        .map_err(|e| format!("{}: {e}", part.display()))?;
    eprintln!(
        "resuming {}: {} done, going on from record {} of the input",
        part.display(),
        ruledoku::path::counted(old.records as usize, "record"),
        old.slice.first_record + old.records + 1
    );
    Ok(Opened::Sink(Sink::File {
        w,
        part,
        bytes: old.output_bytes,
    }))
}

// ---------------------------------------------------------------------------
// merge

/// `merge`: checks that the pieces were made alike and tile their input,
/// then writes their outputs in input order (a CSV header once) and the
/// merged summary.
pub fn merge(args: &MergeArgs) -> ExitCode {
    exit(merge_pieces(args))
}

fn merge_pieces(args: &MergeArgs) -> Result<u8, Fail> {
    let mut pieces: Vec<(PathBuf, Summary)> = Vec::new();
    for p in &args.pieces {
        let text = p.display().to_string();
        let (output, spath) = match text.strip_suffix(".summary.json") {
            Some(o) => (PathBuf::from(o), p.clone()),
            None => (p.clone(), Summary::path_for(p)),
        };
        let s = read_summary(&spath)?;
        if !s.done {
            return Err(format!(
                "{}: not complete ({} so far{}): resume it first",
                output.display(),
                ruledoku::path::counted(s.records as usize, "record"),
                s.interrupted
                    .as_ref()
                    .map_or(String::new(), |sig| format!(", stopped by {sig}"))
            )
            .into());
        }
        pieces.push((output, s));
    }
    let first = &pieces[0].1;
    for (p, s) in &pieces[1..] {
        let d = first.differences(s);
        if !d.is_empty() {
            return Err(format!(
                "{} and {} were not made alike:\n  {}",
                pieces[0].0.display(),
                p.display(),
                d.join("\n  ")
            )
            .into());
        }
    }
    // Pieces of files tile by records; slices piped in (line offsets) by lines.
    let by_lines = pieces.iter().any(|(_, s)| s.slice.line_offset > 0);
    let spans: Vec<(String, Span)> = pieces
        .iter()
        .map(|(p, s)| {
            let span = if by_lines {
                Span {
                    start: s.slice.line_offset,
                    len: s.lines_read.unwrap_or(0),
                    to_end: s.reached_end,
                }
            } else {
                Span {
                    start: s.slice.first_record,
                    len: s.records,
                    to_end: s.reached_end,
                }
            };
            (p.display().to_string(), span)
        })
        .collect();
    if by_lines && let Some((p, _)) = pieces.iter().find(|(_, s)| s.lines_read.is_none()) {
        return Err(format!(
            "{}: its input was not read to its end, so its lines are unknown",
            p.display()
        )
        .into());
    }
    let total = pieces.iter().find_map(|(_, s)| s.slice.total_records);
    let unit = if by_lines { "line" } else { "record" };
    let order = batch::tile(&spans, if by_lines { None } else { total }, unit, !by_lines)?;

    // The merged summary.
    let mut merged = Summary {
        command: "merge".into(),
        slice: Slice {
            shard: None,
            first_record: 0,
            limit: None,
            total_records: total,
            line_offset: 0,
        },
        output: args
            .output
            .as_ref()
            .map_or("-".into(), |p| p.display().to_string()),
        reached_end: true,
        pieces: order
            .iter()
            .map(|&i| pieces[i].0.display().to_string())
            .collect(),
        ..first.made_alike()
    };
    let csv = first.options.get("form").and_then(|v| v.as_str()) == Some("csv");
    let mut sink: Box<dyn Write> = match &args.output {
        Some(path) => {
            let part = part_path(path);
            for p in [path.clone(), part.clone(), Summary::path_for(path)] {
                if p.exists() {
                    return Err(format!("{}: exists, nothing overwritten", p.display()).into());
                }
            }
            Box::new(BufWriter::new(File::create_new(&part).map_err(|e| {
                format!("{}: cannot create: {e}", part.display())
            })?))
        }
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let mut header: Option<Vec<u8>> = None;
    let mut bytes = 0u64;
    for &i in &order {
        let (p, s) = &pieces[i];
        let data = fs::read(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
        if data.len() as u64 != s.output_bytes {
            return Err(format!(
                "{}: has {} bytes but its summary says {}",
                p.display(),
                data.len(),
                s.output_bytes
            )
            .into());
        }
        let mut body = &data[..];
        if csv {
            let cut = data
                .iter()
                .position(|&c| c == b'\n')
                .map_or(data.len(), |k| k + 1);
            let (h, rest) = data.split_at(cut);
            match &header {
                None => {
                    sink.write_all(h).map_err(write_error)?;
                    bytes += h.len() as u64;
                    header = Some(h.to_vec());
                }
                Some(first_h) if first_h[..] != *h => {
                    return Err(format!("{}: another CSV header", p.display()).into());
                }
                Some(_) => {}
            }
            body = rest;
        }
        sink.write_all(body).map_err(write_error)?;
        bytes += body.len() as u64;
        merged.add(s);
    }
    sink.flush().map_err(write_error)?;
    drop(sink);
    merged.output_bytes = bytes;
    merged.done = true;
    if let Some(path) = &args.output {
        write_summary(&Summary::path_for(path), &merged)?;
        fs::rename(part_path(path), path)
            .map_err(|e| format!("{}: cannot rename: {e}", path.display()))?;
    }
    let span_text = if by_lines {
        format!(
            "lines 1–{}",
            spans
                .iter()
                .map(|(_, s)| s.start + s.len)
                .max()
                .unwrap_or(0)
        )
    } else {
        format!(
            "records 1–{}{}",
            merged.records,
            total.map_or(String::new(), |t| format!(" of {t}"))
        )
    };
    eprintln!(
        "merged {}: {span_text}, no gap, no overlap; {} unrated",
        ruledoku::path::counted(pieces.len(), "piece"),
        merged.unrated()
    );
    Ok(status_of(&merged, 0))
}

fn write_error(e: io::Error) -> Fail {
    stdout_error(e)
}
