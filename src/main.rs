//! The `ruledoku` command line: check puzzles with the oracle, solve and
//! rate them with rule sets, inspect rule files, and benchmark.

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ruledoku::engine::{Limits, RuleStats, Runner, StopReason};
use ruledoku::grid::state::State;
use ruledoku::input::{self, InputError, Puzzle};
use ruledoku::oracle::solver::{self, Solutions};
use ruledoku::path::{self, Rated};
use ruledoku::ruleset::{self, RuleSet};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "ruledoku",
    version,
    about = "Sudoku solving techniques as declarative rules"
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
        /// A puzzle (any supported format), a puzzle file, or `-` for standard input.
        input: String,
        #[command(flatten)]
        opts: RunOpts,
        /// One JSON object per puzzle (with the path's steps) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Rate puzzles with a rule set: one line per puzzle (text, JSON or CSV).
    Rate {
        /// A puzzle file, a puzzle, or `-` for standard input.
        input: String,
        #[command(flatten)]
        opts: RunOpts,
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        #[arg(long)]
        csv: bool,
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
        /// Only the first N puzzles.
        #[arg(long)]
        limit: Option<usize>,
        /// Repeat the oracle run this many times (more stable timings).
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// Report, per rule, searches made, nodes visited, time and conclusions.
        #[arg(long)]
        stats: bool,
    },
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
    /// Stop after this many steps.
    #[arg(long)]
    max_steps: Option<usize>,
    /// Stop after this many seconds per puzzle.
    #[arg(long)]
    max_seconds: Option<f64>,
    /// Worker threads (output stays in input order).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Report, per rule, searches made, nodes visited, time and conclusions
    /// (after each path with `solve`, in each object with `--json`, and as
    /// a total on standard error with `rate`).
    #[arg(long)]
    stats: bool,
}

impl RunOpts {
    fn load(&self) -> Result<(RuleSet, Limits), String> {
        let name = self.rules.as_deref().unwrap_or(ruleset::DEFAULT_SET);
        let mut set = ruleset::load(name).map_err(|e| e.to_string())?;
        if self.unblocked {
            set.blocked = false;
        }
        let limits = Limits {
            max_steps: self.max_steps,
            max_time: self.max_seconds.map(Duration::from_secs_f64),
        };
        Ok((set, limits))
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
        Cmd::Solve { input, opts, json } => {
            solve(&input, &opts, if json { Out::Json } else { Out::Path })
        }
        Cmd::Rate {
            input,
            opts,
            json,
            csv,
        } => solve(
            &input,
            &opts,
            if json {
                Out::Json
            } else if csv {
                Out::Csv
            } else {
                Out::Line
            },
        ),
        Cmd::Rules { cmd } => rules(cmd),
        Cmd::Bench {
            file,
            rules,
            limit,
            repeat,
            stats,
        } => bench(&file, rules.as_deref(), limit, repeat, stats),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) if e.starts_with("error") => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Puzzles from a file, `-`, or a puzzle given on the command line.
fn records(arg: &str) -> Result<Box<dyn Iterator<Item = Result<Puzzle, InputError>>>, String> {
    if arg == "-" || std::path::Path::new(arg).is_file() {
        let r = input::open(arg).map_err(|e| e.to_string())?;
        return Ok(Box::new(r));
    }
    if arg.len() >= 81 || arg.contains('\n') {
        return Ok(Box::new(std::iter::once(input::parse_puzzle(arg))));
    }
    Err(format!("{arg}: no such file, and not a puzzle"))
}

/// A progress bar on a terminal (stderr), hidden when piped.
fn progress(len: Option<u64>) -> ProgressBar {
    let pb = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    if std::io::stderr().is_terminal() {
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

/// A bad input line: one message on stderr (and a JSON record when the
/// output is JSON); the run goes on.
fn report_bad_line(pb: &ProgressBar, out: &mut impl Write, json: bool, e: &InputError) {
    // Keep stdout and stderr in input order on a terminal.
    let _ = out.flush();
    pb.suspend(|| eprintln!("{e}"));
    if json {
        let _ = writeln!(
            out,
            "{}",
            json!({"line": e.line, "error": e.kind.to_string()})
        );
    }
}

/// How messages name the input.
fn source_name(arg: &str) -> &str {
    if arg == "-" {
        "<stdin>"
    } else if std::path::Path::new(arg).is_file() {
        arg
    } else {
        "<arg>"
    }
}

fn grid_text(g: &[u8; 81]) -> String {
    g.iter().map(|&d| char::from(b'0' + d)).collect()
}

fn check(file: &str, show_solution: bool, json: bool) -> Result<bool, String> {
    let pb = progress(None);
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let (mut unique, mut multiple, mut none, mut bad) = (0usize, 0usize, 0usize, 0usize);
    for rec in records(file)? {
        pb.inc(1);
        let p = match rec {
            Ok(p) => p,
            Err(e) => {
                bad += 1;
                report_bad_line(&pb, &mut out, json, &e);
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
        let r = if json {
            let mut o = json!({"line": p.line, "puzzle": p.text, "solutions": verdict});
            if show_solution && let Some(g) = sol {
                o["solution"] = json!(grid_text(&g));
            }
            writeln!(out, "{o}")
        } else if show_solution && let Some(g) = sol {
            writeln!(out, "{} {verdict} {}", p.text, grid_text(&g))
        } else {
            writeln!(out, "{} {verdict}", p.text)
        };
        if r.is_err() {
            return Ok(false); // stdout closed (e.g. `| head`)
        }
    }
    pb.finish_and_clear();
    let total = unique + multiple + none;
    let summary = format!(
        "{total} puzzles: {unique} unique, {multiple} multiple, {none} no solution; {bad} invalid line(s)"
    );
    if json {
        let _ = writeln!(
            out,
            "{}",
            json!({"summary": {"puzzles": total, "unique": unique, "multiple": multiple, "none": none, "invalid": bad}})
        );
    } else {
        let _ = writeln!(out, "{summary}");
    }
    Ok(bad == 0)
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
}

/// Solves one record and renders it in the chosen output form.
fn solve_one(
    rec: Result<Puzzle, InputError>,
    set: &RuleSet,
    limits: Limits,
    out_kind: Out,
    source: &str,
    stats: bool,
) -> Outcome {
    let json_out = out_kind == Out::Json;
    let p = match rec {
        Ok(p) => p,
        Err(e) => {
            let stdout = if json_out {
                format!("{}\n", json!({"line": e.line, "error": e.kind.to_string()}))
            } else {
                String::new()
            };
            return Outcome {
                stdout,
                stderr: Some(e.to_string()),
                stats: None,
            };
        }
    };
    // A rating only means something for a puzzle with one solution.
    let verdict = match solver::solve_candidates(&p.masks) {
        Solutions::Unique(_) => None,
        Solutions::None => Some("the puzzle has no solution"),
        Solutions::Multiple { .. } => Some("the puzzle has several solutions"),
    };
    if let Some(why) = verdict {
        let stdout = if json_out {
            format!(
                "{}\n",
                json!({"line": p.line, "puzzle": p.text, "error": why})
            )
        } else {
            String::new()
        };
        return Outcome {
            stdout,
            stderr: Some(format!("{source}:{}: {why}", p.line)),
            stats: None,
        };
    }
    let run = Runner::new(set)
        .limits(limits)
        .with_stats(stats)
        .run(State::from_masks(&p.masks, &p.givens));
    let rated = Rated {
        line: p.line,
        puzzle: &p.text,
        set,
        run: &run,
    };
    let stdout = match out_kind {
        Out::Json => rated.json(),
        Out::Line => rated.line(),
        Out::Csv => rated.csv(),
        Out::Path => match &run.stats {
            Some(st) => format!("{}{}", rated.path(), path::stats_table(set, st)),
            None => rated.path(),
        },
    };
    Outcome {
        stdout,
        stderr: None,
        stats: run.stats,
    }
}

/// Records handed to the worker threads at a time; output keeps input order.
const CHUNK: usize = 256;

fn solve(arg: &str, opts: &RunOpts, out_kind: Out) -> Result<bool, String> {
    let (set, limits) = opts.load()?;
    let jobs = opts.jobs.unwrap_or(1).max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| e.to_string())?;
    let source = source_name(arg).to_string();
    let pb = progress(None);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut bad = 0usize;
    let mut first = true;
    let mut total: Option<Vec<RuleStats>> = None;
    if out_kind == Out::Csv {
        let _ = writeln!(out, "{}", path::CSV_HEADER);
    }
    let mut recs = records(arg)?;
    loop {
        let chunk: Vec<_> = recs
            .by_ref()
            .take(if jobs == 1 { 1 } else { CHUNK })
            .collect();
        if chunk.is_empty() {
            break;
        }
        let outcomes: Vec<Outcome> = if jobs == 1 {
            chunk
                .into_iter()
                .map(|r| solve_one(r, &set, limits, out_kind, &source, opts.stats))
                .collect()
        } else {
            use rayon::prelude::*;
            pool.install(|| {
                chunk
                    .into_par_iter()
                    .map(|r| solve_one(r, &set, limits, out_kind, &source, opts.stats))
                    .collect()
            })
        };
        for o in outcomes {
            pb.inc(1);
            if let Some(st) = &o.stats {
                let acc = total.get_or_insert_with(|| vec![RuleStats::default(); st.len()]);
                acc.iter_mut().zip(st).for_each(|(a, b)| a.add(b));
            }
            if let Some(msg) = &o.stderr {
                bad += 1;
                let _ = out.flush();
                pb.suspend(|| eprintln!("{msg}"));
            }
            if o.stdout.is_empty() {
                continue;
            }
            if out_kind == Out::Path && !std::mem::take(&mut first) {
                let _ = writeln!(out);
            }
            if out.write_all(o.stdout.as_bytes()).is_err() {
                return Ok(false); // stdout closed (e.g. `| head`)
            }
        }
        let _ = out.flush();
    }
    pb.finish_and_clear();
    // `rate` keeps one line per puzzle on stdout: the totals go to stderr.
    if let Some(st) = total
        && matches!(out_kind, Out::Line | Out::Csv)
    {
        eprint!("{}", path::stats_table(&set, &st));
    }
    Ok(bad == 0)
}

fn rules(cmd: RulesCmd) -> Result<bool, String> {
    let mut o = std::io::stdout().lock();
    match cmd {
        RulesCmd::Check { paths } => {
            let mut ok = true;
            for p in &paths {
                match ruleset::load(p) {
                    Ok(set) => {
                        let _ = writeln!(o, "{p}: ok, {} rules", set.rules.len());
                    }
                    Err(e) => {
                        ok = false;
                        let _ = writeln!(o, "{e}");
                    }
                }
            }
            Ok(ok)
        }
        RulesCmd::List { rules } => {
            let name = rules.as_deref().unwrap_or(ruleset::DEFAULT_SET);
            let set = ruleset::load(name).map_err(|e| e.to_string())?;
            let _ = writeln!(o, "rule set {}: {}", set.name, set.description);
            let _ = writeln!(
                o,
                "{:<34} {:>10} {:>5} {:<8} file",
                "rule", "complexity", "level", "rating"
            );
            for r in &set.rules {
                let _ = writeln!(
                    o,
                    "{:<34} {:>10} {:>5} {:<8} {}:{}",
                    r.head.name,
                    r.head.complexity,
                    r.head.level,
                    r.head.label.as_deref().unwrap_or("-"),
                    r.head.file,
                    r.head.line
                );
            }
            Ok(true)
        }
    }
}

fn bench(
    file: &str,
    rules: Option<&str>,
    limit: Option<usize>,
    repeat: usize,
    stats: bool,
) -> Result<bool, String> {
    let mut o = std::io::stdout().lock();
    let mut puzzles = Vec::new();
    let mut bad = 0;
    for rec in records(file)? {
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
    if puzzles.is_empty() {
        return Err(format!("{file}: no puzzle"));
    }
    let n = puzzles.len();
    match rules {
        None => {
            let mut best = f64::MAX;
            let mut unique = 0;
            for _ in 0..repeat.max(1) {
                unique = 0;
                let t = Instant::now();
                for p in &puzzles {
                    if matches!(solver::solve_candidates(&p.masks), Solutions::Unique(_)) {
                        unique += 1;
                    }
                }
                best = best.min(t.elapsed().as_secs_f64());
            }
            let _ = writeln!(
                o,
                "oracle: {n} puzzles ({unique} unique) in {best:.3} s: {:.0} puzzles/s (best of {repeat}, one thread)",
                n as f64 / best
            );
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
            let _ = writeln!(
                o,
                "rule set {}: {n} puzzles ({solved} solved) in {secs:.3} s: {:.1} puzzles/s (one thread)",
                set.name,
                n as f64 / secs
            );
            if stats {
                let _ = write!(o, "{}", path::stats_table(&set, &total));
            }
        }
    }
    Ok(bad == 0)
}
