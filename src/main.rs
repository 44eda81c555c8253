//! The `ruledoku` command line: check puzzles with the oracle, solve and
//! rate them with rule sets, inspect rule files, and benchmark.

use clap::{Parser, Subcommand};
use input_cli::{Input, input_path, records};
use output_cli::{
    EXIT_ERROR, EXIT_TRUNCATED, Fail, Inputs, Replacing, Results, Status, exit_code, no_puzzle,
    note, note_text, progress,
};
use ruledoku::draw;
use ruledoku::engine::{Limits, RuleStats, Runner, StopReason};
use ruledoku::grid::state::State;
use ruledoku::input::{InputError, Puzzle};
use ruledoku::oracle::referee::Referee;
use ruledoku::oracle::solver::{self, Solutions};
use ruledoku::path::{self, Rated, Rejected, Unrated, counted};
use ruledoku::ruleset::{self, RuleSet};
use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod batch_cli;
mod filter_cli;
mod generate_cli;
mod input_cli;
mod matches_cli;
mod output_cli;
mod study_cli;
mod type_cli;
mod typed_cli;

#[derive(Parser)]
#[command(
    name = "ruledoku",
    version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("RULEDOKU_COMMIT"), ")"),
    about = "Sudoku solving techniques as declarative rules",
    after_help = "Exit status (the same for every command): 0 when every input record \
                  was read and judged; 1 when some record was not a valid puzzle or could \
                  not be judged (no or several solutions), the input held no puzzle, or \
                  rules check found errors; 2 for a usage error, an input or rule set that \
                  cannot be read, or a write error; 3 when standard output was closed \
                  before the end (the output is truncated); 4 for a negative verdict: \
                  subsume found a counter-example, --verify a wrong step."
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
        file: OsString,
        /// Print the solution of each puzzle.
        #[arg(long)]
        solution: bool,
        /// One JSON object per puzzle.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        ty: type_cli::TypeOpt,
    },
    /// Solve puzzles with a rule set, printing the resolution path and rating.
    Solve {
        /// A puzzle (any supported format), a puzzle file (or anything readable: a
        /// named pipe, /dev/stdin), or `-` for standard input.
        input: OsString,
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
        input: OsString,
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
        #[command(flatten)]
        batch: batch_cli::BatchOpts,
    },
    /// Join the outputs of `rate --output` run on slices of one input
    /// (`--shard`, `--skip`/`--limit`, `--line-offset`) into one, after
    /// checking that they were made alike and tile the input with no gap
    /// and no overlap (docs/batch.md).
    Merge(batch_cli::MergeArgs),
    /// Inspect rule files and rule sets.
    Rules {
        #[command(subcommand)]
        cmd: RulesCmd,
    },
    /// Measure puzzles/second of the oracle or of a rule set on a file (one thread).
    ///
    /// The oracle's line names its tier (instruction set): the best the CPU
    /// has, or the one the environment variable RULEDOKU_ORACLE names (avx2,
    /// sse4, sse2 or scalar). With --type (another type than classic
    /// Sudoku): the generic oracle, or the set on the typed back end.
    Bench {
        /// A puzzle file (or anything readable), a puzzle, or `-` for standard input.
        file: OsString,
        /// Benchmark this rule set instead of the brute-force oracle.
        #[arg(long)]
        rules: Option<OsString>,
        /// Only the first N puzzles (N at least 1).
        #[arg(long, value_name = "N", value_parser = positive, allow_negative_numbers = true)]
        limit: Option<usize>,
        /// Repeat the oracle run this many times (more stable timings; at least 1).
        #[arg(long, value_name = "N", default_value = "1", value_parser = positive, allow_negative_numbers = true)]
        repeat: usize,
        /// Report, per rule, searches made, nodes visited, time and conclusions.
        #[arg(long)]
        stats: bool,
        #[command(flatten)]
        ty: type_cli::TypeOpt,
    },
    /// Does rule set B conclude everything rule set A concludes, at every state
    /// of the resolution paths where no single applies? Exit status 0 when
    /// it did, 4 when a counter-example was found, 1 when none was but some
    /// records could not be studied or limits left states undecided, 2 on
    /// bad input.
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
        /// Rule files, folders, set files, built-in set names, or `-` for
        /// a rule or set file on standard input.
        #[arg(required_unless_present = "rules")]
        paths: Vec<OsString>,
        /// A set to check, as `--rules` names it on the other commands
        /// (the same as giving it as a path; may be repeated).
        #[arg(long, value_name = "SET")]
        rules: Vec<OsString>,
        /// Also check that each runs on this puzzle type (every rule
        /// portable, or left out for a space or house kind the type has
        /// not).
        #[command(flatten)]
        ty: type_cli::TypeOpt,
    },
    /// Every match of each rule of a set at each input state, none applied:
    /// per rule with a match, the number of matches and the union of their
    /// conclusions (to compare a technique's hits with another solver's on
    /// the same states); `--stats` gives each rule's CPU time per search.
    Matches(matches_cli::MatchesArgs),
    /// List the rules of a set with their file, complexity, level and rating.
    List {
        #[arg(long)]
        rules: Option<OsString>,
        /// The rules the set runs on this puzzle type, in their order, and
        /// those left out (a space or house kind the type has not).
        #[command(flatten)]
        ty: type_cli::TypeOpt,
    },
}

#[derive(clap::Args)]
struct RunOpts {
    /// Rule set: an embedded set name (file stem under rules/sets/), a set file, a .rules file or a folder.
    #[arg(long)]
    rules: Option<OsString>,
    /// Apply one conclusion per step instead of all conclusions of a match.
    #[arg(long)]
    unblocked: bool,
    /// Stop after this many steps (0: show the state the puzzle starts from).
    #[arg(long, value_name = "N", value_parser = count, allow_negative_numbers = true)]
    max_steps: Option<usize>,
    /// Stop each puzzle after this many seconds (a number greater than 0, e.g. 0.5; at most 1e9).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// Stop each puzzle after its worker thread has spent this many seconds
    /// of CPU (`time-limit`, as --max-seconds): a limit that does not depend
    /// on what else the machine runs, for studies on shared machines.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    max_cpu_seconds: Option<Duration>,
    /// The memory the searches of all workers may hold together, in MiB
    /// (each worker has its share): a puzzle whose search would hold more
    /// stops there (`memory-limit`) and the batch goes on. Whips of length
    /// 20 and more on a hard puzzle may hold gigabytes.
    #[arg(long, value_name = "MIB", default_value = "8192", value_parser = study_cli::mebibytes, allow_negative_numbers = true)]
    max_memory: usize,
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
    /// as a pencil-mark line. Exit status 4 when any step was wrong.
    #[arg(long)]
    verify: bool,
    /// Sudoku Explainer ratings: run the `se` set (or the first-producer
    /// set named by --rules) SE's way and give ER/EP/ED; `solve` shows each
    /// step's SE rating, `rate` prints serate's line (see --format).
    #[arg(long)]
    se: bool,
    #[command(flatten)]
    ty: type_cli::TypeOpt,
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
#[derive(clap::Args)]
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
    /// The largest page, in MiB (1 to 1048576): the records beyond it are
    /// left out of the page, which says so (as does standard error).
    #[arg(long, value_name = "MIB", default_value = "128", requires = "html", value_parser = page_mib, allow_negative_numbers = true)]
    html_max: u64,
}

/// `--html-max`: a whole number of MiB, 1 to 1 TiB's worth.
fn page_mib(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (1..=1 << 20).contains(&n) => Ok(n),
        _ => Err("expected a whole number of MiB, from 1 to 1048576".to_string()),
    }
}

impl RunOpts {
    fn load(&self) -> Result<(RuleSet, Limits), String> {
        let default = if self.se { "se" } else { ruleset::DEFAULT_SET };
        let name = self.rules.as_deref().unwrap_or(default.as_ref());
        let mut set = ruleset::load(name).map_err(|e| e.to_string())?;
        if self.se && set.strategy != ruleset::Strategy::FirstProducer {
            return Err(format!(
                "--se needs a rule set whose strategy is first-producer (as the built-in `se`); `{}` is simplest-first",
                Path::new(name).display()
            ));
        }
        if self.unblocked {
            set.blocked = false;
        }
        let limits = Limits {
            max_steps: self.max_steps,
            max_time: self.max_seconds,
            max_memory: Some(self.max_memory / workers_sharing(self.jobs)),
            max_cpu: self.max_cpu_seconds,
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
    whole(s, 0)
}

/// A whole number, 1 or more (`bench --limit`, `--repeat`).
fn positive(s: &str) -> Result<usize, String> {
    whole(s, 1)
}

/// A whole number, `least` or more: a number too large for the machine is
/// told apart from one that is no whole number.
fn whole(s: &str, least: usize) -> Result<usize, String> {
    use std::num::IntErrorKind;
    match s.trim().parse::<usize>() {
        Ok(n) if n >= least => Ok(n),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => Err(format!(
            "expected a whole number from {least} to {}",
            usize::MAX
        )),
        _ => Err(format!("expected a whole number, {least} or more")),
    }
}

/// The worker threads for `-j`: one without it, one per available core for
/// `-j 0`, and never more than the available cores (the work is all
/// computation: more threads only add switching), saying so when capped.
/// The workers `-j` gives (as [`worker_threads`], without its note): the
/// number that share `--max-memory`.
fn workers_sharing(jobs: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    match jobs {
        None => 1,
        Some(0) => cores,
        Some(n) => n.min(cores),
    }
}

fn worker_threads(jobs: Option<usize>) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if let Some(n) = jobs.filter(|&n| n > cores) {
        note(&format!(
            "note: -j {n} capped at {cores}, the number of available cores"
        ));
    }
    workers_sharing(jobs)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help` and `--version` go to standard output (status 0, or 2
        // when it cannot be written); usage errors to standard error.
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    let text = e.render().to_string();
                    let mut o = io::stdout().lock();
                    match o.write_all(text.as_bytes()).and_then(|()| o.flush()) {
                        Ok(()) => 0,
                        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => EXIT_TRUNCATED,
                        Err(e) => {
                            note(&format!("error: standard output: {e}"));
                            EXIT_ERROR
                        }
                    }
                }
                _ => {
                    let _ = e.print();
                    EXIT_ERROR
                }
            };
            return ExitCode::from(code);
        }
    };
    let result = match cli.cmd {
        Cmd::Check {
            file,
            solution,
            json,
            ty,
        } if ty.is_fpuzzles() => type_cli::check_fpuzzles(&file, solution, json),
        Cmd::Check {
            file,
            solution,
            json,
            ty,
        } => match ty.model() {
            Ok(Some(m)) => type_cli::check_typed(m, &file, solution, json),
            Ok(None) => check(&file, solution, json),
            Err(e) => Err(e),
        },
        Cmd::Solve {
            input,
            opts,
            json,
            pictures,
        } if opts.ty.wants_typed() => {
            let form = if json { Out::Json } else { Out::Path };
            solve_typed(&input, &opts, form, &[], Some(&pictures))
        }
        Cmd::Rate {
            input,
            opts,
            json,
            csv,
            batch,
            ..
        } if opts.ty.wants_typed() => {
            let form = if json {
                Out::Json
            } else if csv {
                Out::Csv
            } else {
                Out::Line
            };
            if batch.active() {
                return batch_cli::rate_typed(&input, &opts, form, &batch);
            }
            solve_typed(&input, &opts, form, &[], None)
        }
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
            batch,
        } => {
            let se = opts.se.then(|| SeJob {
                bounds: se.bounds(),
                format: se.format,
            });
            let out = if json {
                Out::Json
            } else if csv {
                Out::Csv
            } else {
                Out::Line
            };
            if batch.active() {
                let Some(input) = input.to_str() else {
                    eprintln!(
                        "error: the batch options need a UTF-8 input name (got {})",
                        input.to_string_lossy()
                    );
                    return ExitCode::from(2);
                };
                return batch_cli::rate(input, &opts, out, se, &batch);
            }
            solve(
                &input,
                &opts,
                out,
                se,
                &Pictures {
                    svg: None,
                    html: None,
                    html_max: 0,
                },
            )
        }
        Cmd::Rules { cmd } => rules(cmd),
        Cmd::Bench {
            file,
            rules,
            limit,
            repeat,
            stats,
            ty,
        } => match ty.model() {
            Ok(Some(m)) => typed_cli::bench_typed(m, &file, rules.as_deref(), limit, repeat, stats),
            Ok(None) => bench(&file, rules.as_deref(), limit, repeat, stats),
            Err(e) => Err(e),
        },
        Cmd::Subsume(args) => study_cli::subsume(&args),
        Cmd::Classify(args) => study_cli::classify(&args),
        Cmd::Filter(args) => filter_cli::filter(&args),
        Cmd::Generate(args) => generate_cli::generate_cmd(&args),
        Cmd::Merge(args) => return batch_cli::merge(&args),
    };
    exit_code(result)
}

/// `solve --type f-puzzles` / `rate --type f-puzzles`: each record brings
/// its own type, for which the set is compiled
/// ([`typed_cli::solve_fpuzzles`]); what needs one type for the whole
/// input (`--stats`, whose table lists one type's rules, and the `--html`
/// page) is a usage error.
fn solve_fpuzzles(
    input: &OsStr,
    opts: &RunOpts,
    out: Out,
    refused: &[(bool, &str)],
    pictures: Option<&Pictures>,
) -> Result<Status, Fail> {
    let html = pictures.is_some_and(|p| p.html.is_some());
    let mut refused: Vec<(bool, &str)> = refused.to_vec();
    refused.push((opts.se, "--se"));
    if let Some((_, what)) = refused.iter().find(|(on, _)| *on) {
        return Err(Fail::Error(format!(
            "{what} is not available with --type f-puzzles (classic 9×9 Sudoku only)"
        )));
    }
    for (on, what) in [(opts.stats, "--stats"), (html, "--html")] {
        if on {
            return Err(Fail::Error(format!(
                "{what} is not available with --type f-puzzles: each record has its own type \
                 (and its own rules); give the type by name or file"
            )));
        }
    }
    input_cli::one_reader_of_stdin(input, opts.rules.as_deref())?;
    let (set, limits) = opts.load()?;
    if set.strategy == ruledoku::ruleset::Strategy::FirstProducer {
        return Err(Fail::Error(format!(
            "rule set `{}` is first-producer (Sudoku Explainer's ratings), for classic 9×9 \
             Sudoku only; f-puzzles records take simplest-first sets (w, b, gw, gb, bc, te, …)",
            set.name
        )));
    }
    let svg = pictures.and_then(|p| p.svg.as_deref());
    if let Some(dir) = svg {
        let rule_files: std::collections::BTreeSet<&Path> =
            set.rules.iter().map(|r| Path::new(&r.head.file)).collect();
        let inputs = Inputs::of(input_path(input).into_iter().chain(rule_files));
        draw::prepare_dir(dir)?;
        inputs.refuse_in_dir(dir, draw::is_svg_name)?;
    }
    let jobs = worker_threads(opts.jobs);
    let time = !opts.no_time;
    let each = Each {
        jobs,
        chunk: if jobs == 1 { 1 } else { CHUNK },
        out,
        header: (out == Out::Csv).then(|| path::csv_header(time)),
        verify: opts.verify,
        time,
    };
    typed_cli::solve_fpuzzles(&set, limits, input, &each, svg)
}

/// `solve --type T` / `rate --type T` for a type other than classic
/// Sudoku: the typed back end; options the typed back end does not serve
/// (`refused`, and --se) are usage errors.
fn solve_typed(
    input: &OsStr,
    opts: &RunOpts,
    out: Out,
    refused: &[(bool, &str)],
    pictures: Option<&Pictures>,
) -> Result<Status, Fail> {
    if opts.ty.is_fpuzzles() {
        return solve_fpuzzles(input, opts, out, refused, pictures);
    }
    let Some(m) = opts.ty.model()? else {
        // `wants_typed` read another type: the type file changed meanwhile.
        return Err(Fail::Error(
            "--type: the type file changed while it was read; run the command again".into(),
        ));
    };
    let mut refused: Vec<(bool, &str)> = refused.to_vec();
    refused.push((opts.se, "--se"));
    if let Some((_, what)) = refused.iter().find(|(on, _)| *on) {
        return Err(Fail::Error(format!(
            "{what} is not available with --type {} (classic 9×9 Sudoku only)",
            m.name()
        )));
    }
    input_cli::one_reader_of_stdin(input, opts.rules.as_deref())?;
    let (set, limits) = opts.load()?;
    // A set that cannot run on the type is refused before anything is
    // written.
    let tset = typed_cli::compile(&set, &m).map_err(Fail::Error)?;
    let svg = pictures.and_then(|p| p.svg.as_deref());
    let html = pictures.and_then(|p| p.html.as_deref());
    // No picture or page may be written over an input: the puzzles, the
    // type file, or a rule file of the set.
    let inputs = if svg.is_some() || html.is_some() {
        let rule_files: std::collections::BTreeSet<&Path> =
            set.rules.iter().map(|r| Path::new(&r.head.file)).collect();
        let type_file = opts.ty.file();
        Inputs::of(
            input_path(input)
                .into_iter()
                .chain(type_file)
                .chain(rule_files),
        )
    } else {
        Inputs::default()
    };
    if let Some(dir) = svg {
        draw::prepare_dir(dir)?;
        inputs.refuse_in_dir(dir, draw::is_svg_name)?;
    }
    let page = match (html, pictures) {
        (Some(path), Some(p)) => {
            inputs.refuse(path, "give the page another name")?;
            Some((path, p.html_max << 20))
        }
        _ => None,
    };
    let jobs = worker_threads(opts.jobs);
    let time = !opts.no_time;
    let each = Each {
        jobs,
        // A page's sections are large: fewer at a time.
        chunk: match (jobs, page.is_some()) {
            (1, _) => 1,
            (_, true) => 4 * jobs,
            _ => CHUNK,
        },
        out,
        header: (out == Out::Csv).then(|| path::csv_header(time)),
        verify: opts.verify,
        time,
    };
    let drawn = typed_cli::Drawn { svg, page };
    typed_cli::solve_typed(m, &tset, limits, input, opts.stats, &each, drawn)
}

fn grid_text(g: &[u8; 81]) -> String {
    g.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// `check`: one line per input record, in input order, with the line it
/// starts on (an invalid record too, as `rate` gives it), then a summary.
fn check(file: &OsStr, show_solution: bool, json: bool) -> Result<Status, Fail> {
    let (source, mut recs) = records(file)?;
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut tally = type_cli::CheckTally::new(show_solution, json);
    for rec in recs.by_ref() {
        pb.inc(1);
        let p = match rec {
            Ok(p) => p,
            Err(e) => {
                tally.invalid(&mut out, &e)?;
                continue;
            }
        };
        let (verdict, sol) = match solver::solve_candidates(&p.masks) {
            Solutions::None => ("none", None),
            Solutions::Unique(g) => ("unique", Some(g)),
            Solutions::Multiple { first } => ("multiple", Some(first)),
        };
        let sol = sol.map(|g| grid_text(&g));
        tally.verdict(&mut out, p.line, &p.text, verdict, sol.as_deref())?;
    }
    if let Err(e) = recs.end() {
        // The results so far, then the error (no summary: the input was cut).
        out.finish()?;
        return Err(e.into());
    }
    tally.finish(out, &source)
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
    /// The input line the record starts on.
    line: usize,
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
    /// The record's `stop` value and its rating (when rated), for a
    /// batch's summary.
    stop: &'static str,
    rating: Option<String>,
}

/// How a command rates the records of one input: classic puzzles
/// ([`Job`]) or puzzles of a type (`typed_cli::TypedJob`). `solve`,
/// `rate` and `rate`'s batches run every rater alike.
trait Rater: Sync {
    type Rec: input_cli::Record;
    /// Rates one record.
    fn rate(&self, rec: Self::Rec) -> Outcome;
    /// The table of per-rule statistics added over the records.
    fn stats_table(&self, stats: &[RuleStats], time: bool) -> String;
}

impl Rater for Job<'_> {
    type Rec = Result<Puzzle, InputError>;

    fn rate(&self, rec: Self::Rec) -> Outcome {
        self.run(rec)
    }

    fn stats_table(&self, stats: &[RuleStats], time: bool) -> String {
        path::stats_table(self.set, stats, time)
    }
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
    /// `--html`: render each record's section of the page, unless the
    /// page is full (the flag).
    html: Option<&'a AtomicBool>,
}

impl Job<'_> {
    /// Does the record get a section of the page (`--html`, the page not
    /// full yet)?
    fn drawn(&self) -> bool {
        self.html.is_some_and(|full| !full.load(Ordering::Relaxed))
    }

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
            line,
            stdout,
            html: self
                .drawn()
                .then(|| draw::html::rejected_section(line, puzzle, error)),
            stderr: Some(message),
            stats: None,
            wrong: None,
            note: None,
            fatal: None,
            stop: why.name(),
            rating: None,
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
            .drawn()
            .then(|| draw::html::puzzle_section(p.line, &p.text, self.set, &run));
        Outcome {
            line: p.line,
            stdout,
            stderr: None,
            wrong,
            note: None,
            html,
            fatal,
            stop: run.stop.name(),
            rating: (run.stop == StopReason::Solved).then(|| run.rating()),
            stats: run.stats,
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
            .drawn()
            .then(|| draw::html::puzzle_section(p.line, &p.text, self.set, &r.run));
        Outcome {
            line: p.line,
            stdout,
            stderr: None,
            wrong,
            note,
            html,
            fatal,
            stop: r.run.stop.name(),
            rating: Some(r.rating.er_text()),
            stats: r.run.stats,
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

fn solve(
    arg: &OsStr,
    opts: &RunOpts,
    out_kind: Out,
    se: Option<SeJob>,
    pictures: &Pictures,
) -> Result<Status, Fail> {
    input_cli::one_reader_of_stdin(arg, opts.rules.as_deref())?;
    let (set, limits) = opts.load()?;
    let jobs = worker_threads(opts.jobs);
    // No picture or page may be written over an input: the puzzles, or a
    // rule file of the set.
    let inputs = if pictures.svg.is_some() || pictures.html.is_some() {
        let rule_files: std::collections::BTreeSet<&Path> =
            set.rules.iter().map(|r| Path::new(&r.head.file)).collect();
        Inputs::of(input_path(arg).into_iter().chain(rule_files))
    } else {
        Inputs::default()
    };
    let (source, recs) = records(arg)?;
    if let Some(dir) = &pictures.svg {
        draw::prepare_dir(dir)?;
        inputs.refuse_in_dir(dir, draw::is_svg_name)?;
    }
    let page_full = AtomicBool::new(false);
    let page = match &pictures.html {
        Some(path) => {
            inputs.refuse(path, "give the page another name")?;
            Some(HtmlPage::create(
                path,
                &source,
                pictures.html_max << 20,
                &page_full,
            )?)
        }
        None => None,
    };
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
        html: page.is_some().then_some(&page_full),
    };
    // A page's sections are large (about 20 KB a step): fewer at a time.
    let chunk_size = match (jobs, page.is_some()) {
        (1, _) => 1,
        (_, true) => 4 * jobs,
        _ => CHUNK,
    };
    let header = (out_kind == Out::Csv).then(|| {
        if job.se.is_some() {
            ruledoku::serate::csv_header(job.time)
        } else {
            path::csv_header(job.time)
        }
    });
    let each = Each {
        jobs,
        chunk: chunk_size,
        out: out_kind,
        header,
        verify: job.verify,
        time: job.time,
    };
    rate_records(&job, &source, recs, &each, page)
}

/// How [`rate_records`] goes through the records.
struct Each {
    /// Worker threads, and the most records handed to them at a time.
    jobs: usize,
    chunk: usize,
    out: Out,
    /// The CSV header to write first.
    header: Option<String>,
    verify: bool,
    time: bool,
}

/// Rates every record of `recs` with `rater` (in chunks on `each.jobs`
/// threads), writes the outputs in input order, and the messages, the
/// `--verify` count and the statistics' totals (`rate`) on standard error.
fn rate_records<R: Rater>(
    rater: &R,
    source: &str,
    mut recs: Input<R::Rec>,
    each: &Each,
    mut page: Option<HtmlPage<'_>>,
) -> Result<Status, Fail> {
    let (jobs, out_kind) = (each.jobs, each.out);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| e.to_string())?;
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let (mut bad, mut seen, mut wrong, mut rated) = (0usize, 0usize, 0usize, 0usize);
    let mut total: Option<Vec<RuleStats>> = None;
    if let Some(header) = &each.header {
        out.write(&format!("{header}\n"))?;
    }
    let mut chunking = Chunking::new(jobs, each.chunk);
    loop {
        let chunk = recs.chunk(chunking.size(), || out.flush())?;
        if chunk.is_empty() {
            break;
        }
        let started = std::time::Instant::now();
        let outcomes: Vec<Outcome> = if jobs == 1 {
            chunk.into_iter().map(|r| rater.rate(r)).collect()
        } else {
            use rayon::prelude::*;
            pool.install(|| chunk.into_par_iter().map(|r| rater.rate(r)).collect())
        };
        chunking.took(started.elapsed());
        for o in outcomes {
            pb.inc(1);
            if let Some(e) = o.fatal {
                // The page is left as it was (its new text is dropped).
                out.finish()?;
                return Err(Fail::Error(e));
            }
            if let Some(page) = page.as_mut() {
                page.add(o.line, o.html.as_deref())?;
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
    if let Some(page) = page
        && let Some(msg) = page.finish()?
    {
        out.message(&msg)?;
    }
    if let Err(e) = recs.end() {
        // The results so far, then the error.
        out.finish()?;
        return Err(e.into());
    }
    if seen + bad == 0 {
        out.message(&no_puzzle(source))?;
    }
    if each.verify {
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
        note_text(&rater.stats_table(&st, each.time));
    }
    let verdict = if wrong > 0 {
        Status::Verdict
    } else {
        Status::Done
    };
    Ok(verdict.and(Status::invalid_if(bad > 0 || seen + bad == 0)))
}

/// The `--html` page being written (whole or not at all: [`Replacing`]),
/// up to `--html-max` (128 MiB by default: browsers grow slow on pages
/// much larger). The records beyond are left out of the page, which says
/// how many, and where to split the input.
struct HtmlPage<'a> {
    file: Replacing,
    written: u64,
    /// The largest page, in bytes.
    most: u64,
    /// Set once a section did not fit: later records render none.
    full: &'a AtomicBool,
    /// The records left out: the first one's line, and how many.
    left_out: Option<(usize, usize)>,
}

impl<'a> HtmlPage<'a> {
    /// Starts the page (its head) at `path`.
    fn create(
        path: &Path,
        title: &str,
        most: u64,
        full: &'a AtomicBool,
    ) -> Result<HtmlPage<'a>, String> {
        HtmlPage::with_head(path, draw::html::header(title), most, full)
    }

    /// Starts the page at `path` with its head `head`.
    fn with_head(
        path: &Path,
        head: String,
        most: u64,
        full: &'a AtomicBool,
    ) -> Result<HtmlPage<'a>, String> {
        let mut page = HtmlPage {
            file: Replacing::create(path)?,
            written: 0,
            most,
            full,
            left_out: None,
        };
        page.written = head.len() as u64;
        page.file.write(&head)?;
        Ok(page)
    }

    /// Adds the record of input line `line`: its section, unless the page
    /// is full (or the record rendered none because it was).
    fn add(&mut self, line: usize, section: Option<&str>) -> Result<(), String> {
        if let Some(s) = section
            && self.left_out.is_none()
            && self.written + s.len() as u64 <= self.most
        {
            self.written += s.len() as u64;
            return self.file.write(s);
        }
        self.full.store(true, Ordering::Relaxed);
        let (_, n) = self.left_out.get_or_insert((line, 0));
        *n += 1;
        Ok(())
    }

    /// Ends the page and puts it in place; a message for standard error
    /// when records were left out.
    fn finish(mut self) -> Result<Option<String>, String> {
        let most = self.most;
        let msg = self.left_out.map(|(line, n)| {
            self.file.write(&draw::html::left_out_section(line, n, most)).map(|()| {
                format!(
                    "{}: the page reached its limit of {} MiB (--html-max) at input line {line}: {} left out of it (split the input to draw them)",
                    self.file.name,
                    most >> 20,
                    counted(n, "record")
                )
            })
        });
        let msg = msg.transpose()?;
        self.file.write(&draw::html::footer())?;
        self.file.finish()?;
        Ok(msg)
    }
}

fn rules(cmd: RulesCmd) -> Result<Status, Fail> {
    let mut o = io::BufWriter::new(io::stdout().lock());
    let ok = match cmd {
        RulesCmd::Check {
            mut paths,
            rules,
            ty,
        } => {
            paths.extend(rules);
            let model = ty.model()?;
            // Warnings are shown: rules beyond the estimate are measured.
            ruledoku::lang::measure_huge_searches(true);
            if paths.iter().filter(|p| input_cli::reads_stdin(p)).count() > 1 {
                return Err(Fail::Error(
                    "standard input (`-`) is given twice: it can be read once".into(),
                ));
            }
            let mut ok = true;
            for p in &paths {
                match ruleset::load(p) {
                    Ok(set) => {
                        if !set.warnings.is_empty() {
                            writeln!(o, "{}", ruledoku::lang::Diagnostics(set.warnings.clone()))?;
                        }
                        let shown = match p.to_str() {
                            Some("-") => "<stdin>".into(),
                            _ => Path::new(p).display().to_string(),
                        };
                        match &model {
                            None => {
                                writeln!(o, "{shown}: ok, {}", counted(set.rules.len(), "rule"))?
                            }
                            Some(m) => match typed_cli::compile(&set, m) {
                                Ok(t) => writeln!(
                                    o,
                                    "{shown}: ok on type {}, {} ({} left out: a space or house kind the type has not)",
                                    m.name(),
                                    counted(t.rules.len(), "rule"),
                                    t.left_out.len()
                                )?,
                                Err(e) => {
                                    ok = false;
                                    writeln!(o, "{shown}: {e}")?;
                                }
                            },
                        }
                    }
                    Err(e) => {
                        ok = false;
                        writeln!(o, "{e}")?;
                    }
                }
            }
            ok
        }
        // Its own output (records in input order, from the worker threads).
        RulesCmd::Matches(args) => return matches_cli::matches(&args),
        RulesCmd::List { rules, ty } => {
            let name = rules.as_deref().unwrap_or(ruleset::DEFAULT_SET.as_ref());
            let set = ruleset::load(name).map_err(|e| e.to_string())?;
            if let Some(m) = ty.model()? {
                let t = typed_cli::compile(&set, &m)?;
                writeln!(
                    o,
                    "rule set {} on type {}: {}",
                    set.name,
                    m.name(),
                    set.description
                )?;
                writeln!(
                    o,
                    "{:<34} {:>10} {:>5} {:<8} file",
                    "rule", "complexity", "level", "rating"
                )?;
                let rows = t.rules.iter().map(|r| (&r.rule, String::new())).chain(
                    t.left_out
                        .iter()
                        .zip(&t.left_out_why)
                        .map(|(r, why)| (r, format!(" (left out: the type has no {why})"))),
                );
                for (r, note) in rows {
                    writeln!(
                        o,
                        "{:<34} {:>10} {:>5} {:<8} {}:{}{note}",
                        r.head.name,
                        r.head.complexity,
                        r.head.level,
                        r.head.label.as_deref().unwrap_or("-"),
                        r.head.file,
                        r.head.line
                    )?;
                }
                o.flush()?;
                return Ok(Status::Done);
            }
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
    Ok(Status::invalid_if(!ok))
}

fn bench(
    file: &OsStr,
    rules: Option<&OsStr>,
    limit: Option<usize>,
    repeat: usize,
    stats: bool,
) -> Result<Status, Fail> {
    input_cli::one_reader_of_stdin(file, rules)?;
    let mut o = io::stdout().lock();
    let mut puzzles = Vec::new();
    let mut bad = 0;
    let (source, mut recs) = records(file)?;
    for rec in recs.by_ref() {
        match rec {
            Ok(p) => puzzles.push(p),
            Err(e) => {
                bad += 1;
                note(&e.to_string());
            }
        }
        if limit.is_some_and(|l| puzzles.len() >= l) {
            break;
        }
    }
    recs.end()?;
    if puzzles.is_empty() {
        note(&if bad == 0 {
            no_puzzle(&source)
        } else {
            format!("{source}: no puzzle could be read")
        });
        return Ok(Status::Invalid);
    }
    let n = puzzles.len();
    match rules {
        None => {
            // Chosen (and any note on RULEDOKU_ORACLE printed) before the
            // timing.
            let tier = solver::instruction_set();
            let (mut cpu, mut wall) = (f64::MAX, f64::MAX);
            let mut unique = 0;
            for _ in 0..repeat {
                unique = 0;
                let t = Clocks::start();
                for p in &puzzles {
                    if matches!(solver::solve_candidates(&p.masks), Solutions::Unique(_)) {
                        unique += 1;
                    }
                }
                let (c, w) = t.elapsed();
                (cpu, wall) = (cpu.min(c), wall.min(w));
            }
            writeln!(
                o,
                "oracle: {} ({unique} unique) in {cpu:.3} s CPU, {wall:.3} s wall: {:.0} puzzles per CPU-second (best of {repeat}, one thread, {} oracle)",
                counted(n, "puzzle"),
                n as f64 / cpu.max(1e-9),
                tier
            )?;
        }
        Some(spec) => {
            let set = ruleset::load(spec).map_err(|e| e.to_string())?;
            let pb = progress(Some(n as u64));
            let t = Clocks::start();
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
            let (cpu, wall) = t.elapsed();
            writeln!(
                o,
                "rule set {}: {} ({solved} solved) in {cpu:.3} s CPU, {wall:.3} s wall: {:.1} puzzles per CPU-second (one thread)",
                set.name,
                counted(n, "puzzle"),
                n as f64 / cpu.max(1e-9)
            )?;
            if stats {
                write!(o, "{}", path::stats_table(&set, &total, true))?;
            }
        }
    }
    o.flush()?;
    Ok(Status::invalid_if(bad > 0))
}

/// The clocks `bench` reads: the CPU time of the calling thread (the
/// thread that solves; on Unix, the wall time elsewhere) and the wall time.
struct Clocks {
    cpu: f64,
    wall: Instant,
}

impl Clocks {
    fn start() -> Clocks {
        Clocks {
            cpu: thread_cpu_seconds(),
            wall: Instant::now(),
        }
    }

    /// CPU and wall seconds since `start`.
    fn elapsed(&self) -> (f64, f64) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = if cfg!(unix) {
            thread_cpu_seconds() - self.cpu
        } else {
            wall
        };
        (cpu, wall)
    }
}

use ruledoku::search::thread_cpu_seconds;

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
