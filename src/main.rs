//! The `ruledoku` command line: check puzzles with the oracle, solve and
//! rate them with rule sets, inspect rule files, and benchmark.

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ruledoku::draw;
use ruledoku::engine::{Limits, RuleStats, Runner, StopReason};
use ruledoku::grid::state::State;
use ruledoku::input::{self, ErrorKind, InputError, Puzzle};
use ruledoku::oracle::referee::Referee;
use ruledoku::oracle::solver::{self, Solutions};
use ruledoku::path::{self, Rated, Rejected, Unrated, counted};
use ruledoku::ruleset::{self, RuleSet};
use serde_json::json;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod filter_cli;
mod generate_cli;
mod study_cli;

#[derive(Parser)]
#[command(
    name = "ruledoku",
    version,
    about = "Sudoku solving techniques as declarative rules",
    after_help = "Exit status: 0 when every input record was read and judged; 1 when some \
                  record was not a valid puzzle (or, for solve and rate, had no or several \
                  solutions), when the input held no puzzle, when rules check found errors, \
                  or when standard output was closed early; 2 for a usage error, an input \
                  or rule set that cannot be read, or a write error on standard output."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the solutions of each puzzle (unique / multiple / none) with the brute-force oracle.
    Check {
        /// Puzzle file, or `-` for standard input.
        file: String,
        /// Print the solution of each puzzle.
        #[arg(long)]
        solution: bool,
        /// One JSON object per puzzle.
        #[arg(long)]
        json: bool,
    },
    /// Solve puzzles with a rule set, printing the resolution path and rating.
    Solve {
        /// A puzzle (any supported format), a puzzle file (or anything readable: a
        /// named pipe, /dev/stdin), or `-` for standard input.
        input: String,
        #[command(flatten)]
        opts: RunOpts,
        /// One JSON object per puzzle (with the path's steps) instead of text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        pictures: Pictures,
    },
    /// Rate puzzles with a rule set: one line per input record (text, JSON or CSV).
    ///
    /// Text columns: LINE PUZZLE STOP RATING HARDEST-RULE LEVEL SECONDS, `-` where
    /// there is no value; a record that is not rated (STOP `invalid`, `no-solution`
    /// or `multiple-solutions`) ends with the reason.
    Rate {
        /// A puzzle file (or anything readable: a named pipe, /dev/stdin), a puzzle,
        /// or `-` for standard input.
        input: String,
        #[command(flatten)]
        opts: RunOpts,
        /// One JSON object per input record (with the path's steps).
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV: a header line, then one row per input record.
        #[arg(long)]
        csv: bool,
        #[command(flatten)]
        se: SeOpts,
    },
    /// Inspect rule files and rule sets.
    Rules {
        #[command(subcommand)]
        cmd: RulesCmd,
    },
    /// Measure puzzles/second of the oracle or of a rule set on a file (one thread).
    Bench {
        file: String,
        /// Benchmark this rule set instead of the brute-force oracle.
        #[arg(long)]
        rules: Option<String>,
        /// Only the first N puzzles (N at least 1).
        #[arg(long, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
        limit: Option<usize>,
        /// Repeat the oracle run this many times (more stable timings; at least 1).
        #[arg(long, value_name = "N", default_value = "1", value_parser = positive, allow_negative_numbers = true)]
        repeat: usize,
        /// Report, per rule, searches made, nodes visited, time and conclusions.
        #[arg(long)]
        stats: bool,
    },
    /// Does rule set B conclude everything rule set A concludes, at every state
    /// of the resolution paths? Exit status 0 when it did, 1 when a
    /// counter-example was found, 2 on bad input.
    Subsume(study_cli::SubsumeArgs),
    /// Classify a collection: the puzzles each rung of a ladder of rule sets
    /// solves (Berthier's L/M/N tables), and the distribution of a rating;
    /// as text, CSV and a plot.
    Classify(study_cli::ClassifyArgs),
    /// Mike Metcalf's contradiction filter: assume each candidate, apply
    /// singles once (--fast, the default) or the basic rules to their
    /// fixpoint (--slow), eliminate it when a CSP variable is left empty,
    /// and go on with the simple rules. One line per puzzle (solved or not,
    /// the filter's eliminations) and a summary on standard error.
    Filter(filter_cli::FilterArgs),
    /// Random minimal puzzles (a random grid, then givens removed in a random
    /// order while the solution stays unique), by the brute-force oracle
    /// alone: one line per puzzle. The same seed gives the same puzzles.
    Generate(generate_cli::GenerateArgs),
}

#[derive(Subcommand)]
enum RulesCmd {
    /// Parse and validate rule files, a folder of them, or a rule set; report every error.
    Check {
        #[arg(required = true)]
        paths: Vec<String>,
    },
    /// List the rules of a set with their file, complexity, level and rating.
    List {
        #[arg(long)]
        rules: Option<String>,
    },
}

#[derive(clap::Args)]
struct RunOpts {
    /// Rule set: an embedded set name (file stem under rules/sets/), a set file, a .rules file or a folder.
    #[arg(long)]
    rules: Option<String>,
    /// Apply one conclusion per step instead of all conclusions of a match.
    #[arg(long)]
    unblocked: bool,
    /// Stop after this many steps (0: show the state the puzzle starts from).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    max_steps: Option<usize>,
    /// Stop each puzzle after this many seconds (a number greater than 0, e.g. 0.5; at most 1e9).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// Worker threads (output stays in input order); 0 = one per available
    /// core. More threads than available cores cannot help: -j is capped at
    /// their number, with a note on standard error.
    #[arg(long, short = 'j', value_name = "N", value_parser = count, allow_negative_numbers = true)]
    jobs: Option<usize>,
    /// Report, per rule, searches made, nodes visited, time and conclusions
    /// (after each path with `solve`, in each object with `--json`, and as
    /// a total on standard error with `rate`).
    #[arg(long)]
    stats: bool,
    /// Leave out every timing (the `seconds` line, field or column, and the
    /// time column of `--stats`) so that outputs can be compared with diff.
    #[arg(long)]
    no_time: bool,
    /// Check every step against the puzzle's unique solution (found by the
    /// brute-force oracle) and report each puzzle's first wrong step on
    /// standard error: rule, step, wrong conclusion and the state before it
    /// as a pencil-mark line. Exit status 1 when any step was wrong.
    #[arg(long)]
    verify: bool,
    /// Sudoku Explainer ratings: run the `se` set (or the first-producer
    /// set named by --rules) SE's way and give ER/EP/ED; `solve` shows each
    /// step's SE rating, `rate` prints serate's line (see --format).
    #[arg(long)]
    se: bool,
}

/// `rate --se` options: serate's output format and early exits.
#[derive(clap::Args)]
struct SeOpts {
    /// The line printed per puzzle, as serate's: %g puzzle, %r ER, %p EP,
    /// %d ED, %n line number, %e seconds, %% a percent sign, \t a tab. ER
    /// ends with `+` when the run stopped early (a lower bound); a puzzle
    /// SE's techniques cannot solve is rated 20.0, a record that is not
    /// rated 0.0/0.0/0.0 (the reason goes to standard error).
    #[arg(long, requires = "se", value_name = "FORMAT", default_value = ruledoku::serate::DEFAULT_FORMAT, value_parser = se_format)]
    format: ruledoku::serate::Format,
    /// Stop rating a puzzle once it is known not to be a diamond (ER = EP = ED), as serate's --diamond.
    #[arg(long, requires = "se", conflicts_with = "pearl")]
    diamond: bool,
    /// Stop rating a puzzle once it is known not to be a pearl (ER = EP), as serate's --pearl.
    #[arg(long, requires = "se")]
    pearl: bool,
    /// Stop rating a puzzle once its ER is known to be above R (e.g. 7.0).
    #[arg(long, requires = "se", value_name = "R", value_parser = se_rating, allow_negative_numbers = true)]
    above: Option<ruledoku::rating::Rating>,
    /// Stop rating a puzzle once its ER is known not to be below R (ER ≥ R).
    #[arg(long, requires = "se", value_name = "R", value_parser = se_rating, allow_negative_numbers = true)]
    below: Option<ruledoku::rating::Rating>,
}

impl SeOpts {
    fn bounds(&self) -> ruledoku::serate::Bounds {
        use ruledoku::serate::Filter;
        ruledoku::serate::Bounds {
            filter: if self.diamond {
                Some(Filter::Diamond)
            } else if self.pearl {
                Some(Filter::Pearl)
            } else {
                None
            },
            above: self.above,
            below: self.below,
        }
    }
}

/// `--format`: a serate format.
fn se_format(s: &str) -> Result<ruledoku::serate::Format, String> {
    ruledoku::serate::Format::parse(s)
}

/// `--above`/`--below`: an SE rating, 0.0 to 20.0, at most one decimal.
fn se_rating(s: &str) -> Result<ruledoku::rating::Rating, String> {
    match ruledoku::rating::Rating::parse(s) {
        Some(r) if r.as_f64() >= 0.0 && r.as_f64() <= 20.0 => Ok(r.plus_tenths(0)),
        _ => Err(format!(
            "`{s}` is no SE rating: a number from 0 to 20 with at most one decimal (e.g. 7.2)"
        )),
    }
}

/// `solve`'s pictures: SVG files and an HTML page, besides the usual output.
#[derive(clap::Args, Default)]
struct Pictures {
    /// Also draw every step as an SVG picture in DIR (created if missing):
    /// DIR/LLLLLL-SSS.svg for the puzzle on input line L, step S
    /// (zero-padded, so names sort in path order). Existing files of those
    /// names are replaced.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Also write the paths as one self-contained HTML page to FILE: every
    /// step's picture and text, the ratings, keyboard navigation
    /// (← → Home End, PgUp PgDn between puzzles). Opens in any browser,
    /// offline.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

impl RunOpts {
    fn load(&self) -> Result<(RuleSet, Limits), String> {
        let default = if self.se { "se" } else { ruleset::DEFAULT_SET };
        let name = self.rules.as_deref().unwrap_or(default);
        let mut set = ruleset::load(name).map_err(|e| e.to_string())?;
        if self.se && set.strategy != ruleset::Strategy::FirstProducer {
            return Err(format!(
                "--se needs a rule set whose strategy is first-producer (as the built-in `se`); `{name}` is simplest-first"
            ));
        }
        if self.unblocked {
            set.blocked = false;
        }
        let limits = Limits {
            max_steps: self.max_steps,
            max_time: self.max_seconds,
        };
        Ok((set, limits))
    }
}

// ---------------------------------------------------------------------------
// Option values: every bad value is a usage error (exit status 2) naming
// the option, never a panic later on.

/// The largest `--max-seconds` (about 31 years).
const MAX_SECONDS: f64 = 1e9;

/// `--max-seconds`: a finite number of seconds, greater than 0 and at most
/// [`MAX_SECONDS`].
fn seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds, e.g. 10 or 0.5".to_string())?;
    if !(v > 0.0 && v <= MAX_SECONDS) {
        return Err(format!(
            "expected a number of seconds greater than 0 and at most {MAX_SECONDS:.0}"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// A whole number, 0 or more (`--max-steps`, `-j`).
fn count(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| "expected a whole number, 0 or more".to_string())
}

/// A whole number, 1 or more (`bench --limit`, `--repeat`).
fn positive(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a whole number, 1 or more".to_string()),
    }
}

/// The worker threads for `-j`: one without it, one per available core for
/// `-j 0`, and never more than the available cores (the work is all
/// computation: more threads only add switching), saying so when capped.
fn worker_threads(jobs: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    match jobs {
        None => 1,
        Some(0) => cores,
        Some(n) if n > cores => {
            eprintln!("note: -j {n} capped at {cores}, the number of available cores");
            cores
        }
        Some(n) => n,
    }
}

/// Why a command stopped before its end.
enum Fail {
    /// A usage, input or output error: printed, exit status 2.
    Error(String),
    /// Standard output was closed by its reader (as in `… | head -1`): stop
    /// quietly, exit status 1 (the output is not complete).
    Closed,
}

impl From<String> for Fail {
    fn from(e: String) -> Fail {
        Fail::Error(e)
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Fail {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Fail::Closed
        } else {
            Fail::Error(format!("standard output: {e}"))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Check {
            file,
            solution,
            json,
        } => check(&file, solution, json),
        Cmd::Solve {
            input,
            opts,
            json,
            pictures,
        } => {
            let se = opts.se.then(|| SeJob {
                bounds: ruledoku::serate::Bounds::default(),
                format: ruledoku::serate::Format::parse(ruledoku::serate::DEFAULT_FORMAT)
                    .expect("the default format parses"),
            });
            solve(
                &input,
                &opts,
                if json { Out::Json } else { Out::Path },
                se,
                &pictures,
            )
        }
        Cmd::Rate {
            input,
            opts,
            json,
            csv,
            se,
        } => {
            let se = opts.se.then(|| SeJob {
                bounds: se.bounds(),
                format: se.format,
            });
            solve(
                &input,
                &opts,
                if json {
                    Out::Json
                } else if csv {
                    Out::Csv
                } else {
                    Out::Line
                },
                se,
                &Pictures::default(),
            )
        }
        Cmd::Rules { cmd } => rules(cmd),
        Cmd::Bench {
            file,
            rules,
            limit,
            repeat,
            stats,
        } => bench(&file, rules.as_deref(), limit, repeat, stats),
        Cmd::Subsume(args) => study_cli::subsume(&args),
        Cmd::Classify(args) => study_cli::classify(&args),
        Cmd::Filter(args) => filter_cli::filter(&args),
        Cmd::Generate(args) => generate_cli::generate_cmd(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) | Err(Fail::Closed) => ExitCode::from(1),
        Err(Fail::Error(e)) if e.starts_with("error") => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
        Err(Fail::Error(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

type Records = Box<dyn Iterator<Item = Result<Puzzle, InputError>> + Send>;

/// Records read ahead of the workers, at most.
const READ_AHEAD: usize = 1024;

/// The records of the input, read by a thread of their own so that a batch
/// takes the records that have arrived without waiting for more (a pipe
/// that stays open, or a line that never ends, must not hold back the
/// records before it). A read error (e.g. EIO) is no record: it ends them
/// and is kept apart, for [`Input::end`] to fail the command with.
struct Input {
    recs: std::sync::mpsc::Receiver<Result<Puzzle, InputError>>,
    read_error: Option<InputError>,
}

impl Input {
    fn new(recs: Records) -> Self {
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
    fn end(self) -> Result<(), String> {
        self.read_error.map_or(Ok(()), |e| Err(e.to_string()))
    }

    /// The next record, then those that have already arrived, `most` at
    /// most; empty after the last record. Before waiting for a record that
    /// has not arrived, `waiting` runs (the results written so far are
    /// flushed: a pipe that stays open must not hold back their lines).
    fn chunk(
        &mut self,
        most: usize,
        waiting: impl FnOnce() -> io::Result<()>,
    ) -> io::Result<Vec<Result<Puzzle, InputError>>> {
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
    fn ready_chunk(&mut self, most: usize) -> Option<Vec<Result<Puzzle, InputError>>> {
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
    fn keep(&mut self, r: Result<Puzzle, InputError>) -> Option<Result<Puzzle, InputError>> {
        match r {
            Err(e) if matches!(e.kind, ErrorKind::Io { .. }) => {
                self.read_error = Some(e);
                None
            }
            r => Some(r),
        }
    }
}

impl Iterator for Input {
    type Item = Result<Puzzle, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.read_error.is_some() {
            return None;
        }
        let r = self.recs.recv().ok()?;
        self.keep(r)
    }
}

/// The records of the input argument, and the name messages give it: `-`
/// (standard input), a path to anything readable (a file, a named pipe,
/// `/dev/stdin`, a process substitution's `/dev/fd/N`), or else a puzzle
/// written on the command line (`<arg>`).
fn records(arg: &str) -> Result<(String, Input), String> {
    let open = |name: &str| -> Result<(String, Input), String> {
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
    let looks_like_puzzle = arg.len() >= 81 || arg.contains('\n');
    match std::fs::metadata(arg) {
        Ok(m) if m.is_dir() => Err(format!("{arg}: is a directory")),
        Ok(_) => open(arg),
        Err(_) if looks_like_puzzle => Ok((
            "<arg>".to_string(),
            Input::new(Box::new(std::iter::once(input::parse_puzzle(arg)))),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Err(format!("{arg}: no such file, and not a puzzle"))
        }
        Err(e) => Err(format!("{arg}: {e}")),
    }
}

/// A progress bar on a terminal (stderr), hidden when stderr is not one.
fn progress(len: Option<u64>) -> ProgressBar {
    let pb = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    if io::stderr().is_terminal() {
        pb.set_draw_target(ProgressDrawTarget::stderr());
        pb.set_style(
            ProgressStyle::with_template(
                "{spinner} {pos} puzzles {per_sec} {elapsed_precise} {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
    } else {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb
}

/// Standard output for results, in step with the progress bar: buffered
/// when it is a file or a pipe; on a terminal every write clears the bar
/// (drawn on stderr, maybe the same terminal) first and draws it again
/// after, so that the bar never overlaps a result line. Messages go to
/// stderr after the results written before them.
struct Results<'a> {
    out: io::BufWriter<io::StdoutLock<'static>>,
    pb: &'a ProgressBar,
    tty: bool,
    /// When the results were last flushed: when piped, lines are flushed at
    /// most every [`Results::STREAM_EVERY`], so that a slow batch streams
    /// its lines while a fast one still writes in large blocks.
    flushed: std::time::Instant,
}

impl<'a> Results<'a> {
    const STREAM_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

    fn new(pb: &'a ProgressBar) -> Self {
        Results {
            out: io::BufWriter::new(io::stdout().lock()),
            pb,
            tty: io::stdout().is_terminal(),
            flushed: std::time::Instant::now(),
        }
    }

    fn write(&mut self, s: &str) -> io::Result<()> {
        if self.tty {
            let out = &mut self.out;
            self.pb.suspend(|| {
                out.write_all(s.as_bytes())?;
                out.flush()
            })
        } else {
            self.out.write_all(s.as_bytes())?;
            if self.flushed.elapsed() >= Self::STREAM_EVERY {
                self.out.flush()?;
                self.flushed = std::time::Instant::now();
            }
            Ok(())
        }
    }

    fn message(&mut self, msg: &str) -> io::Result<()> {
        self.out.flush()?;
        self.pb.suspend(|| eprintln!("{msg}"));
        Ok(())
    }

    /// Writes out what is buffered (the batch is about to wait for input).
    fn flush(&mut self) -> io::Result<()> {
        self.flushed = std::time::Instant::now();
        self.out.flush()
    }

    /// Clears the bar and flushes the results.
    fn finish(mut self) -> io::Result<()> {
        self.pb.finish_and_clear();
        self.out.flush()
    }
}

/// The message for an input that held no puzzle at all (status 1).
fn no_puzzle(source: &str) -> String {
    format!("{source}: no puzzle found")
}

fn grid_text(g: &[u8; 81]) -> String {
    g.iter().map(|&d| char::from(b'0' + d)).collect()
}

fn check(file: &str, show_solution: bool, json: bool) -> Result<bool, Fail> {
    let (source, mut recs) = records(file)?;
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let (mut unique, mut multiple, mut none, mut bad) = (0usize, 0usize, 0usize, 0usize);
    for rec in recs.by_ref() {
        pb.inc(1);
        let p = match rec {
            Ok(p) => p,
            Err(e) => {
                bad += 1;
                out.message(&e.to_string())?;
                if json {
                    out.write(&format!(
                        "{}\n",
                        json!({"line": e.line, "error": e.kind.to_string()})
                    ))?;
                }
                continue;
            }
        };
        let (verdict, sol) = match solver::solve_candidates(&p.masks) {
            Solutions::None => {
                none += 1;
                ("none", None)
            }
            Solutions::Unique(g) => {
                unique += 1;
                ("unique", Some(g))
            }
            Solutions::Multiple { first } => {
                multiple += 1;
                ("multiple", Some(first))
            }
        };
        let line = if json {
            let mut o = json!({"line": p.line, "puzzle": p.text, "solutions": verdict});
            if show_solution && let Some(g) = sol {
                o["solution"] = json!(grid_text(&g));
            }
            format!("{o}\n")
        } else if show_solution && let Some(g) = sol {
            format!("{} {verdict} {}\n", p.text, grid_text(&g))
        } else {
            format!("{} {verdict}\n", p.text)
        };
        out.write(&line)?;
    }
    if let Err(e) = recs.end() {
        // The results so far, then the error (no summary: the input was cut).
        out.finish()?;
        return Err(e.into());
    }
    let total = unique + multiple + none;
    if total + bad == 0 {
        out.message(&no_puzzle(&source))?;
    }
    let summary = if json {
        json!({"summary": {"puzzles": total, "unique": unique, "multiple": multiple, "none": none, "invalid": bad}}).to_string()
    } else {
        format!(
            "{}: {unique} unique, {multiple} multiple, {none} no solution; {}",
            counted(total, "puzzle"),
            counted(bad, "invalid line")
        )
    };
    out.write(&format!("{summary}\n"))?;
    out.finish()?;
    Ok(bad == 0 && total > 0)
}

#[derive(Clone, Copy, PartialEq)]
enum Out {
    Path,
    Json,
    Line,
    Csv,
}

/// What one input record gives: text for stdout, a message for stderr,
/// and the run's per-rule statistics when asked for.
struct Outcome {
    stdout: String,
    stderr: Option<String>,
    stats: Option<Vec<RuleStats>>,
    /// With `--verify`: the first wrong step of the run, as a message.
    wrong: Option<String>,
    /// A note for stderr that is no error (an SE run stopped by its time
    /// limit).
    note: Option<String>,
    /// With `--html`: the record's section of the page.
    html: Option<String>,
    /// An error that ends the command (a picture that cannot be written).
    fatal: Option<String>,
}

/// `--se`: how SE runs stop early and print.
struct SeJob {
    bounds: ruledoku::serate::Bounds,
    format: ruledoku::serate::Format,
}

/// How to run and show each record (the same for every record of a run).
struct Job<'a> {
    set: &'a RuleSet,
    limits: Limits,
    out: Out,
    source: &'a str,
    stats: bool,
    time: bool,
    verify: bool,
    se: Option<&'a SeJob>,
    /// `--svg DIR`: draw each step there.
    svg: Option<&'a Path>,
    /// `--html`: render each record's section of the page.
    html: bool,
}

impl Job<'_> {
    /// The output of a record that is not rated: nothing on stdout with
    /// `solve`'s text paths, a line in every other form.
    fn rejected(
        &self,
        line: usize,
        puzzle: Option<&str>,
        why: Unrated,
        error: &str,
        message: String,
    ) -> Outcome {
        let r = Rejected {
            line,
            puzzle,
            why,
            error,
            time: self.time,
        };
        let stdout = match (self.out, self.se) {
            (Out::Path, _) => String::new(),
            (Out::Json, _) => r.json(),
            (Out::Line, None) => r.line(),
            (Out::Csv, None) => r.csv(),
            // serate's "processing error" rating, 0.0/0.0/0.0.
            (Out::Line, Some(se)) => {
                let zero = ruledoku::serate::SeRating {
                    er: None,
                    ep: None,
                    ed: None,
                    complete: true,
                };
                let text = se.format.render(puzzle.unwrap_or("-"), line, &zero, 0.0);
                format!("{text}\n")
            }
            (Out::Csv, Some(_)) => format!(
                "{line},{},,,,false,{},,,{},{}\n",
                puzzle.unwrap_or(""),
                why.name(),
                if self.time { "," } else { "" },
                path::csv_quoted(error)
            ),
        };
        Outcome {
            stdout,
            html: self
                .html
                .then(|| draw::html::rejected_section(line, puzzle, error)),
            stderr: Some(message),
            stats: None,
            wrong: None,
            note: None,
            fatal: None,
        }
    }

    /// Solves one record and renders it in the chosen output form.
    fn run(&self, rec: Result<Puzzle, InputError>) -> Outcome {
        let p = match rec {
            Ok(p) => p,
            Err(e) => {
                let why = e.kind.to_string();
                return self.rejected(e.first_line, None, Unrated::Invalid, &why, e.to_string());
            }
        };
        // A rating only means something for a puzzle with one solution.
        let solutions = solver::solve_candidates(&p.masks);
        let verdict = match solutions {
            Solutions::Unique(_) => None,
            Solutions::None => Some((Unrated::NoSolution, "the puzzle has no solution")),
            Solutions::Multiple { .. } => Some((
                Unrated::MultipleSolutions,
                "the puzzle has several solutions",
            )),
        };
        if let Some((why, error)) = verdict {
            let message = format!("{}:{}: {error}", self.source, p.line);
            return self.rejected(p.line, Some(&p.text), why, error, message);
        }
        if let Some(se) = self.se {
            return self.run_se(se, &p, solutions);
        }
        let run = Runner::new(self.set)
            .limits(self.limits)
            .with_stats(self.stats)
            .run(State::from_masks(&p.masks, &p.givens));
        let rated = Rated {
            line: p.line,
            puzzle: &p.text,
            set: self.set,
            run: &run,
            time: self.time,
        };
        let stdout = match self.out {
            Out::Json => rated.json(),
            Out::Line => rated.line(),
            Out::Csv => rated.csv(),
            Out::Path => rated.path(),
        };
        let wrong = match solutions {
            Solutions::Unique(solution) if self.verify => Referee { solution }
                .first_wrong(&run)
                .map(|w| format!("{}:{}: {}\n{w}", self.source, p.line, p.text)),
            _ => None,
        };
        let fatal = self
            .svg
            .and_then(|dir| draw::write_svgs(dir, p.line, &run).err());
        let html = self
            .html
            .then(|| draw::html::puzzle_section(p.line, &p.text, self.set, &run));
        Outcome {
            stdout,
            stderr: None,
            stats: run.stats,
            wrong,
            note: None,
            html,
            fatal,
        }
    }

    /// `--se`: one puzzle rated SE's way.
    fn run_se(&self, se: &SeJob, p: &Puzzle, solutions: Solutions) -> Outcome {
        use ruledoku::serate;
        let state = State::from_masks(&p.masks, &p.givens);
        let r = serate::run(self.set, state, self.limits, se.bounds, self.stats);
        let secs = r.run.elapsed.as_secs_f64();
        let stdout = match self.out {
            Out::Line => format!("{}\n", se.format.render(&p.text, p.line, &r.rating, secs)),
            Out::Json => format!("{}\n", serate::json_object(p.line, &p.text, &r, self.time)),
            Out::Csv => serate::csv_row(p.line, &p.text, &r, self.time),
            Out::Path => serate::render_path(&p.text, self.set, &r),
        };
        let wrong = match solutions {
            Solutions::Unique(solution) if self.verify => Referee { solution }
                .first_wrong(&r.run)
                .map(|w| format!("{}:{}: {}\n{w}", self.source, p.line, p.text)),
            _ => None,
        };
        let note = match r.run.stop {
            StopReason::TimeLimit => Some(format!(
                "{}:{}: time limit reached after {} step(s); ER {} is a lower bound",
                self.source,
                p.line,
                r.run.steps.len(),
                r.rating.er_text()
            )),
            _ => None,
        };
        // Pictures of an SE path, as of any other.
        let fatal = self
            .svg
            .and_then(|dir| draw::write_svgs(dir, p.line, &r.run).err());
        let html = self
            .html
            .then(|| draw::html::puzzle_section(p.line, &p.text, self.set, &r.run));
        Outcome {
            stdout,
            stderr: None,
            stats: r.run.stats,
            wrong,
            note,
            html,
            fatal,
        }
    }
}

/// Records handed to the worker threads at a time, at most; output keeps
/// input order.
const CHUNK: usize = 256;

/// How many records go to the worker threads at a time. A chunk is a
/// barrier (its lines are written when its slowest record is done), so the
/// size adapts: it starts at one record per worker, doubles while chunks
/// finish quickly (up to a maximum: fast batches write in large blocks) and
/// falls back to one per worker when a chunk is slow, so that a batch of
/// hard puzzles streams its lines instead of waiting for 256 of them.
pub struct Chunking {
    size: usize,
    least: usize,
    most: usize,
}

impl Chunking {
    const QUICK: std::time::Duration = std::time::Duration::from_millis(200);
    const SLOW: std::time::Duration = std::time::Duration::from_secs(1);

    pub fn new(jobs: usize, most: usize) -> Chunking {
        let least = jobs.clamp(1, most.max(1));
        Chunking {
            size: least,
            least,
            most: most.max(1),
        }
    }

    /// The size of the next chunk.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Records how long the last chunk took.
    pub fn took(&mut self, t: std::time::Duration) {
        if t < Self::QUICK {
            self.size = (self.size * 2).min(self.most);
        } else if t > Self::SLOW {
            self.size = self.least;
        }
    }
}

/// The `--html` page being written: the file and its name for messages.
struct HtmlPage {
    w: io::BufWriter<std::fs::File>,
    name: String,
}

impl HtmlPage {
    /// Creates the file and writes the page's start.
    fn create(path: &Path, title: &str, input: &str) -> Result<HtmlPage, String> {
        let name = path.display().to_string();
        if path.is_dir() {
            return Err(format!("{name}: is a directory"));
        }
        // Writing the page over the input would destroy it before it is read.
        if let (Ok(a), Ok(b)) = (std::fs::canonicalize(path), std::fs::canonicalize(input))
            && a == b
        {
            return Err(format!("{name}: is the input; give the page another name"));
        }
        let f = std::fs::File::create(path).map_err(|e| format!("{name}: cannot create: {e}"))?;
        let mut page = HtmlPage {
            w: io::BufWriter::new(f),
            name,
        };
        page.write(&draw::html::header(title))?;
        Ok(page)
    }

    fn write(&mut self, s: &str) -> Result<(), String> {
        self.w
            .write_all(s.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", self.name))
    }

    /// Writes the page's end and flushes it.
    fn finish(mut self) -> Result<(), String> {
        self.write(&draw::html::footer())?;
        self.w
            .flush()
            .map_err(|e| format!("{}: cannot write: {e}", self.name))
    }
}

fn solve(
    arg: &str,
    opts: &RunOpts,
    out_kind: Out,
    se: Option<SeJob>,
    pictures: &Pictures,
) -> Result<bool, Fail> {
    let (set, limits) = opts.load()?;
    let jobs = worker_threads(opts.jobs);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| e.to_string())?;
    let (source, mut recs) = records(arg)?;
    if let Some(dir) = &pictures.svg {
        draw::prepare_dir(dir)?;
    }
    let job = Job {
        set: &set,
        limits,
        out: out_kind,
        source: &source,
        stats: opts.stats,
        time: !opts.no_time,
        verify: opts.verify,
        se: se.as_ref(),
        svg: pictures.svg.as_deref(),
        html: pictures.html.is_some(),
    };
    let mut page = match &pictures.html {
        Some(path) => Some(HtmlPage::create(path, &source, arg)?),
        None => None,
    };
    // A page's sections are large (about 20 KB a step): fewer at a time.
    let chunk_size = match (jobs, job.html) {
        (1, _) => 1,
        (_, true) => 4 * jobs,
        _ => CHUNK,
    };
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let (mut bad, mut seen, mut wrong, mut rated) = (0usize, 0usize, 0usize, 0usize);
    let mut total: Option<Vec<RuleStats>> = None;
    if out_kind == Out::Csv {
        let header = if job.se.is_some() {
            ruledoku::serate::csv_header(job.time)
        } else {
            path::csv_header(job.time)
        };
        out.write(&format!("{header}\n"))?;
    }
    let mut chunking = Chunking::new(jobs, chunk_size);
    loop {
        let chunk = recs.chunk(chunking.size(), || out.flush())?;
        if chunk.is_empty() {
            break;
        }
        let started = std::time::Instant::now();
        let outcomes: Vec<Outcome> = if jobs == 1 {
            chunk.into_iter().map(|r| job.run(r)).collect()
        } else {
            use rayon::prelude::*;
            pool.install(|| chunk.into_par_iter().map(|r| job.run(r)).collect())
        };
        chunking.took(started.elapsed());
        for o in outcomes {
            pb.inc(1);
            if let Some(e) = o.fatal {
                out.finish()?;
                if let Some(page) = page {
                    page.finish()?;
                }
                return Err(Fail::Error(e));
            }
            if let (Some(page), Some(section)) = (page.as_mut(), &o.html) {
                page.write(section)?;
            }
            if let Some(st) = &o.stats {
                let acc = total.get_or_insert_with(|| vec![RuleStats::default(); st.len()]);
                acc.iter_mut().zip(st).for_each(|(a, b)| a.add(b));
            }
            if let Some(msg) = &o.stderr {
                bad += 1;
                out.message(msg)?;
            } else {
                rated += 1;
            }
            if let Some(msg) = &o.note {
                out.message(msg)?;
            }
            if let Some(msg) = &o.wrong {
                wrong += 1;
                out.message(msg)?;
            }
            if o.stdout.is_empty() {
                continue;
            }
            // Paths are separated by a blank line.
            if out_kind == Out::Path && seen > 0 {
                out.write("\n")?;
            }
            seen += 1;
            out.write(&o.stdout)?;
        }
    }
    if let Some(page) = page {
        page.finish()?;
    }
    if let Err(e) = recs.end() {
        // The results so far, then the error.
        out.finish()?;
        return Err(e.into());
    }
    if seen + bad == 0 {
        out.message(&no_puzzle(&source))?;
    }
    if job.verify {
        out.message(&format!(
            "verify: {} checked, {wrong} with a wrong step",
            counted(rated, "puzzle")
        ))?;
    }
    out.finish()?;
    // `rate` keeps one line per puzzle on stdout: the totals go to stderr.
    if let Some(st) = total
        && matches!(out_kind, Out::Line | Out::Csv)
    {
        eprint!("{}", path::stats_table(&set, &st, job.time));
    }
    Ok(bad == 0 && wrong == 0 && seen + bad > 0)
}

fn rules(cmd: RulesCmd) -> Result<bool, Fail> {
    let mut o = io::BufWriter::new(io::stdout().lock());
    let ok = match cmd {
        RulesCmd::Check { paths } => {
            // Warnings are shown: rules beyond the estimate are measured.
            ruledoku::lang::measure_huge_searches(true);
            let mut ok = true;
            for p in &paths {
                match ruleset::load(p) {
                    Ok(set) => {
                        if !set.warnings.is_empty() {
                            writeln!(o, "{}", ruledoku::lang::Diagnostics(set.warnings.clone()))?;
                        }
                        writeln!(o, "{p}: ok, {}", counted(set.rules.len(), "rule"))?
                    }
                    Err(e) => {
                        ok = false;
                        writeln!(o, "{e}")?;
                    }
                }
            }
            ok
        }
        RulesCmd::List { rules } => {
            let name = rules.as_deref().unwrap_or(ruleset::DEFAULT_SET);
            let set = ruleset::load(name).map_err(|e| e.to_string())?;
            writeln!(o, "rule set {}: {}", set.name, set.description)?;
            // Only what differs from the SudoRules defaults, so that the
            // lists of the other sets read as before.
            if set.strategy == ruleset::Strategy::FirstProducer {
                writeln!(
                    o,
                    "strategy: first-producer (rules in the order listed; the first match of the first rule that has one is applied)"
                )?;
            }
            if set.assumes_unique {
                writeln!(
                    o,
                    "assumes a unique solution: some rules hold only for a puzzle with one solution"
                )?;
            }
            writeln!(
                o,
                "{:<34} {:>10} {:>5} {:<8} file",
                "rule", "complexity", "level", "rating"
            )?;
            for r in &set.rules {
                writeln!(
                    o,
                    "{:<34} {:>10} {:>5} {:<8} {}:{}",
                    r.head.name,
                    r.head.complexity,
                    r.head.level,
                    r.head.label.as_deref().unwrap_or("-"),
                    r.head.file,
                    r.head.line
                )?;
            }
            true
        }
    };
    o.flush()?;
    Ok(ok)
}

fn bench(
    file: &str,
    rules: Option<&str>,
    limit: Option<usize>,
    repeat: usize,
    stats: bool,
) -> Result<bool, Fail> {
    let mut o = io::stdout().lock();
    let mut puzzles = Vec::new();
    let mut bad = 0;
    let (source, mut recs) = records(file)?;
    for rec in recs.by_ref() {
        match rec {
            Ok(p) => puzzles.push(p),
            Err(e) => {
                bad += 1;
                eprintln!("{e}");
            }
        }
        if limit.is_some_and(|l| puzzles.len() >= l) {
            break;
        }
    }
    recs.end()?;
    if puzzles.is_empty() {
        return Err(Fail::Error(no_puzzle(&source)));
    }
    let n = puzzles.len();
    match rules {
        None => {
            let mut best = f64::MAX;
            let mut unique = 0;
            for _ in 0..repeat {
                unique = 0;
                let t = Instant::now();
                for p in &puzzles {
                    if matches!(solver::solve_candidates(&p.masks), Solutions::Unique(_)) {
                        unique += 1;
                    }
                }
                best = best.min(t.elapsed().as_secs_f64());
            }
            writeln!(
                o,
                "oracle: {} ({unique} unique) in {best:.3} s: {:.0} puzzles/s (best of {repeat}, one thread)",
                counted(n, "puzzle"),
                n as f64 / best
            )?;
        }
        Some(spec) => {
            let set = ruleset::load(spec).map_err(|e| e.to_string())?;
            let pb = progress(Some(n as u64));
            let t = Instant::now();
            let mut solved = 0;
            let runner = Runner::new(&set).with_stats(stats);
            let mut total = vec![RuleStats::default(); set.rules.len()];
            for p in &puzzles {
                let run = runner.run(State::from_masks(&p.masks, &p.givens));
                if run.stop == StopReason::Solved {
                    solved += 1;
                }
                if let Some(st) = &run.stats {
                    total.iter_mut().zip(st).for_each(|(a, b)| a.add(b));
                }
                pb.inc(1);
            }
            pb.finish_and_clear();
            let secs = t.elapsed().as_secs_f64();
            writeln!(
                o,
                "rule set {}: {} ({solved} solved) in {secs:.3} s: {:.1} puzzles/s (one thread)",
                set.name,
                counted(n, "puzzle"),
                n as f64 / secs
            )?;
            if stats {
                write!(o, "{}", path::stats_table(&set, &total, true))?;
            }
        }
    }
    o.flush()?;
    Ok(bad == 0)
}

#[cfg(test)]
mod chunking_tests {
    use super::Chunking;
    use std::time::Duration;

    #[test]
    fn chunks_grow_while_quick_and_shrink_when_slow() {
        let mut c = Chunking::new(2, 256);
        assert_eq!(c.size(), 2);
        c.took(Duration::from_millis(10));
        assert_eq!(c.size(), 4);
        for _ in 0..20 {
            c.took(Duration::from_millis(10));
        }
        assert_eq!(c.size(), 256);
        c.took(Duration::from_millis(500));
        assert_eq!(c.size(), 256, "neither quick nor slow: kept");
        c.took(Duration::from_secs(3));
        assert_eq!(c.size(), 2);
        // One thread, and a maximum below the number of workers.
        assert_eq!(Chunking::new(1, 256).size(), 1);
        assert_eq!(Chunking::new(8, 4).size(), 4);
    }
}
