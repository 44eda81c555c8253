//! The study commands of the command line: `subsume` and `classify`.
//! The work is in the library's [`ruledoku::study`]; this module reads the
//! options, runs puzzles on the worker threads in input order, and prints.

use super::input_cli::Record;
use super::{Fail, Input, Results, Status, no_puzzle, progress, records, worker_threads};
use ruledoku::engine::{Limits, StopReason};
use ruledoku::grid::state::State;
use ruledoku::input::typed::TypedPuzzle;
use ruledoku::input::{InputError, Puzzle};
use ruledoku::model::Model;
use ruledoku::oracle::solver::{self, Solutions};
use ruledoku::path::counted;
use ruledoku::ruleset::{self, Library, RuleSet};
use ruledoku::study::spec::{self, Resolved};
use ruledoku::study::subsume::typed::{TypedExample, TypedStudy};
use ruledoku::study::subsume::{Counts, Example, Mode, Study};
use ruledoku::typed::{self, TypedSet, engine::Start};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Records handed to the worker threads at a time.
const CHUNK: usize = 64;

#[derive(clap::Args)]
pub struct SubsumeArgs {
    #[command(flatten)]
    pub ty: crate::type_cli::TypeOpt,
    /// A: a rule name, a family (`x-wing`, `whip`, `whip[..4]`), a rule file,
    /// a rule set, or several joined by `+`.
    a: String,
    /// B: the same kinds of spec as A.
    b: String,
    /// A puzzle file (or anything readable), a puzzle, or `-` for standard input.
    input: std::ffi::OsString,
    /// The rule set whose resolution paths give the states examined.
    #[arg(long, value_name = "SET", default_value = "basic+w")]
    path_rules: String,
    /// Take B to its fixpoint on a copy of each state instead of B's direct matches.
    #[arg(long)]
    closure: bool,
    /// Print at most this many counter-examples.
    #[arg(long, value_name = "N", default_value = "3", value_parser = super::count, allow_negative_numbers = true)]
    examples: usize,
    /// Stop the study once this many states where B misses something were
    /// found (the puzzles after the one where it happens are not studied).
    /// Default: the number of --examples (one counter-example answers the
    /// question), unless --every-counterexample.
    #[arg(long, value_name = "N", value_parser = super::positive, allow_negative_numbers = true)]
    max_counterexamples: Option<usize>,
    /// Go on after the counter-examples printed, to study every puzzle and
    /// count every miss.
    #[arg(long, conflicts_with = "max_counterexamples")]
    every_counterexample: bool,
    /// Examine the states where a single applies too (by default only the
    /// states where the path's step is not a single, and its last state,
    /// are examined: those where a resolution theory, singles first, tries
    /// A's rules).
    #[arg(long)]
    every_state: bool,
    /// Look rule names and families up in this rule set (default: every
    /// rule file shipped in rules/).
    #[arg(long, value_name = "SET")]
    from: Option<String>,
    /// Stop each puzzle's study (its resolution path, every search, the
    /// closures) after this many seconds; the states left are not examined.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// The memory the searches of all workers may hold together, in MiB
    /// (each worker has its share); a search that would hold more is given
    /// up and its question left undecided.
    #[arg(long, value_name = "MIB", default_value = "512", value_parser = mebibytes, allow_negative_numbers = true)]
    max_memory: usize,
    /// Worker threads (default: one per available core).
    #[arg(long, short = 'j', value_name = "N", value_parser = super::count, allow_negative_numbers = true)]
    jobs: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The largest `--max-memory`: 1 TiB.
const MAX_MEBIBYTES: usize = 1 << 20;

/// A number of MiB, 1 to [`MAX_MEBIBYTES`], in bytes.
pub(crate) fn mebibytes(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_MEBIBYTES).contains(&n) => Ok(n << 20),
        _ => Err(format!(
            "expected a number of MiB, a whole number from 1 to {MAX_MEBIBYTES}"
        )),
    }
}

/// The worker pool for `-j` (default: every available core).
fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(Some(jobs.unwrap_or(0))))
        .build()
        .map_err(|e| e.to_string())
}

/// A record's puzzle when it can be studied: read, and with one solution.
/// Otherwise the message for standard error.
pub fn usable(source: &str, rec: Result<Puzzle, InputError>) -> Result<Puzzle, String> {
    let p = rec.map_err(|e| e.to_string())?;
    match solver::solve_candidates(&p.masks) {
        Solutions::Unique(_) => Ok(p),
        Solutions::None => Err(format!("{source}:{}: the puzzle has no solution", p.line)),
        Solutions::Multiple { .. } => Err(format!(
            "{source}:{}: the puzzle has several solutions",
            p.line
        )),
    }
}

/// Runs `work` over the records on the pool, a chunk at a time (see
/// [`super::Chunking`]), and hands each result to `take` in input order (a
/// bad record as its message), with the results to write it to. The
/// results written so far are flushed before the batch waits for input.
///
/// Chunks are pipelined: while the workers run one, the next ones (up to
/// [`IN_FLIGHT`] in all) are already queued, so a worker that finishes its
/// share of a chunk starts on the next instead of waiting for the chunk's
/// slowest record, and the results are taken (written) while the workers
/// go on. More input is only waited for when no chunk is running, so a
/// record's line never waits for records that have not arrived.
pub fn each_record<T: Send>(
    pool: &rayon::ThreadPool,
    recs: &mut Input,
    source: &str,
    out: &mut Results,
    work: impl Fn(&Puzzle) -> T + Sync,
    take: impl FnMut(&mut Results, Result<(Puzzle, T), String>) -> Result<(), Fail>,
) -> Result<(), Fail> {
    each_record_of(pool, recs, source, out, usable, work, take)
}

/// [`each_record`] on records of any kind `R`, each made a puzzle `P` (or
/// the message of a record that cannot be used) by `usable`.
pub fn each_record_of<R: Record, P: Send, T: Send>(
    pool: &rayon::ThreadPool,
    recs: &mut Input<R>,
    source: &str,
    out: &mut Results,
    usable: impl Fn(&str, R) -> Result<P, String> + Sync,
    work: impl Fn(&P) -> T + Sync,
    mut take: impl FnMut(&mut Results, Result<(P, T), String>) -> Result<(), Fail>,
) -> Result<(), Fail> {
    use rayon::prelude::*;
    type Done<P, T> = Vec<Result<(P, T), String>>;
    let mut chunking = super::Chunking::new(pool.current_num_threads(), CHUNK);
    type Sent<P, T> = (usize, std::thread::Result<Done<P, T>>, std::time::Duration);
    let (tx, rx) = std::sync::mpsc::channel::<Sent<P, T>>();
    let (work, usable) = (&work, &usable);
    pool.in_place_scope(|scope| {
        let (mut sent, mut taken, mut ended) = (0usize, 0usize, false);
        let mut arrived: std::collections::BTreeMap<usize, Done<P, T>> = Default::default();
        loop {
            // Queue chunks while fewer than IN_FLIGHT are running: waiting
            // for input (after a flush) only when none is.
            while !ended && sent - taken < IN_FLIGHT {
                let chunk = if sent == taken {
                    recs.chunk(chunking.size(), || out.flush())?
                } else {
                    match recs.ready_chunk(chunking.size()) {
                        Some(c) => c,
                        None => break,
                    }
                };
                if chunk.is_empty() {
                    ended = true;
                    break;
                }
                let (tx, id) = (tx.clone(), sent);
                sent += 1;
                scope.spawn(move |_| {
                    let started = std::time::Instant::now();
                    // A panic is sent on too, to be resumed by the taker
                    // (which would otherwise wait for this chunk forever).
                    let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        chunk
                            .into_par_iter()
                            .map(|r| {
                                let p = usable(source, r)?;
                                let t = work(&p);
                                Ok((p, t))
                            })
                            .collect::<Done<P, T>>()
                    }));
                    // The receiver only goes when the batch failed.
                    let _ = tx.send((id, done, started.elapsed()));
                });
            }
            if sent == taken {
                return Ok(());
            }
            let (id, done, took) = rx.recv().expect("a queued chunk sends its results");
            let done = done.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            chunking.took(took);
            arrived.insert(id, done);
            while let Some(done) = arrived.remove(&taken) {
                taken += 1;
                for d in done {
                    take(out, d)?;
                }
            }
        }
    })
}

/// Chunks queued on the pool at once (see [`each_record`]).
const IN_FLIGHT: usize = 3;

/// A rule list for a summary: every name, or the first ones and a count.
fn names(r: &Resolved) -> String {
    let n = r.rules.len();
    let shown: Vec<&str> = r.names().into_iter().take(6).collect();
    let more = if n > shown.len() {
        format!(", … {} more", n - shown.len())
    } else {
        String::new()
    };
    format!(
        "{n} rule{}: {}{more}",
        if n == 1 { "" } else { "s" },
        shown.join(", ")
    )
}

pub fn subsume(args: &SubsumeArgs) -> Result<Status, Fail> {
    let mut lib = Library::new();
    let universe = match &args.from {
        Some(s) => lib.load(s).map_err(|e| e.to_string())?.rules.clone(),
        None => spec::built_in_rules(&mut lib).map_err(|e| e.to_string())?,
    };
    let a = spec::resolve(&args.a, &mut lib, &universe).map_err(|e| format!("A: {e}"))?;
    let b = spec::resolve(&args.b, &mut lib, &universe).map_err(|e| format!("B: {e}"))?;
    let path = ruleset::load(&args.path_rules).map_err(|e| format!("--path-rules: {e}"))?;
    let pool = pool(args.jobs)?;
    let mode = if args.closure {
        Mode::Closure
    } else {
        Mode::Direct
    };
    let workers = pool.current_num_threads().max(1);
    // One counter-example answers the question: by default the study ends
    // once it has those it prints.
    let max_cx = args
        .max_counterexamples
        .or_else(|| (!args.every_counterexample && args.examples > 0).then_some(args.examples));
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut total = Counts::default();
    let mut bad = 0usize;
    let mut examples: Vec<(usize, String, Shown)> = Vec::new();
    // The line of the puzzle where --max-counterexamples was reached: the
    // puzzles after it are neither studied nor counted.
    let stop_line = AtomicUsize::new(usize::MAX);
    let mut stopped_at: Option<usize> = None;
    // Each record's study (`None`: after the stop line), in input order.
    let mut take = |out: &mut Results, r: Result<(usize, String, Studied), String>| {
        pb.inc(1);
        match r.and_then(|(line, text, s)| match s {
            Some(Err(e)) => Err(e),
            Some(Ok(s)) => Ok((line, text, Some(s))),
            None => Ok((line, text, None)),
        }) {
            Err(msg) => {
                bad += 1;
                out.message(&msg)?;
            }
            Ok((line, _, _)) if stopped_at.is_some_and(|l| line > l) => {}
            Ok((_, _, None)) => {}
            Ok((line, text, Some((counts, ex)))) => {
                total.add(&counts);
                for e in ex {
                    if examples.len() < args.examples {
                        examples.push((line, text.clone(), e));
                    }
                }
                if max_cx.is_some_and(|n| total.states_missed >= n as u64) {
                    stopped_at = Some(line);
                    stop_line.store(line, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    };
    let limits = Limits {
        max_steps: None,
        max_time: args.max_seconds,
        max_memory: None,
        max_cpu: None,
    };
    let max_memory = Some(args.max_memory / workers);
    let (source, recs) = match args.ty.model()? {
        None => {
            let study = Study {
                a: &a.rules,
                b: &b.rules,
                mode,
                path: &path,
                examples: args.examples,
                limits,
                max_memory,
                max_counterexamples: max_cx,
                every_state: args.every_state,
            };
            let (source, mut recs) = records(&args.input)?;
            each_record(
                &pool,
                &mut recs,
                &source,
                &mut out,
                |p| {
                    (p.line <= stop_line.load(Ordering::Relaxed)).then(|| {
                        let s = study.puzzle(State::from_masks(&p.masks, &p.givens));
                        Ok((s.counts, s.examples.into_iter().map(Shown::of).collect()))
                    })
                },
                |out, r| take(out, r.map(|(p, s)| (p.line, p.text, s))),
            )?;
            (source, Ended::Classic(recs))
        }
        Some(m) => {
            let compile = |what: &str, r: &Resolved| {
                let set = RuleSet {
                    name: r.spec.clone(),
                    description: String::new(),
                    rules: r.rules.clone(),
                    foreign: Vec::new(),
                    blocked: true,
                    warnings: Vec::new(),
                    strategy: Default::default(),
                    assumes_unique: false,
                    rating_type: None,
                };
                super::typed_cli::compile(&set, &m).map_err(|e| format!("{what}: {e}"))
            };
            let (ta, tb) = (compile("A", &a)?, compile("B", &b)?);
            let tpath =
                super::typed_cli::compile(&path, &m).map_err(|e| format!("--path-rules: {e}"))?;
            let study = TypedStudy {
                a: &ta,
                b: &tb,
                mode,
                path: &tpath,
                examples: args.examples,
                limits,
                max_memory,
                max_counterexamples: max_cx,
                every_state: args.every_state,
            };
            let model = Arc::new(m);
            let (source, mut recs) = super::input_cli::typed_records(&args.input, &model)?;
            each_record_of(
                &pool,
                &mut recs,
                &source,
                &mut out,
                |src, rec| super::typed_cli::usable(&model, src, rec),
                |(m, p)| {
                    (p.line <= stop_line.load(Ordering::Relaxed)).then(|| {
                        let why = |e: typed::NoFrame| format!("{source}:{}: {}", p.line, e.0);
                        let start = Start::of(m, &p.givens).map_err(why)?;
                        let s = study.puzzle(m, &start).map_err(why)?;
                        Ok((
                            s.counts,
                            s.examples.into_iter().map(Shown::of_typed).collect(),
                        ))
                    })
                },
                |out, r| take(out, r.map(|((_, p), s)| (p.line, p.text, s))),
            )?;
            (source, Ended::Typed(recs))
        }
    };
    let ended = match recs {
        Ended::Classic(r) => r.end(),
        Ended::Typed(r) => r.end(),
    };
    if let Err(e) = ended {
        out.finish()?;
        return Err(e.into());
    }
    if total.puzzles == 0 {
        out.finish()?;
        super::note(&if bad == 0 {
            no_puzzle(&source)
        } else {
            format!("{source}: no puzzle could be studied")
        });
        return Ok(Status::Invalid);
    }
    let verdict = if total.missed() > 0 {
        Verdict::No
    } else if total.complete() {
        Verdict::Yes
    } else {
        Verdict::NotShown
    };
    let text = if args.json {
        let ex: Vec<_> = examples
            .iter()
            .map(|(line, puzzle, e)| {
                json!({"line": line, "puzzle": puzzle, "state": e.state,
                       "step": e.step, "missed": e.missed, "partial": e.partial})
            })
            .collect();
        let side = |r: &Resolved| json!({"spec": r.spec, "rules": r.names()});
        format!(
            "{}\n",
            json!({"a": side(&a), "b": side(&b), "mode": mode, "path_rules": path.name,
                   "not_studied": bad, "counts": total, "stopped_at_line": stopped_at,
                   "subsumed": verdict.json(), "examples": ex})
        )
    } else {
        text_report(
            args, &a, &b, &path.name, &source, bad, &total, stopped_at, &examples, verdict,
        )
    };
    out.write(&text)?;
    out.finish()?;
    Ok(match verdict {
        Verdict::Yes => Status::invalid_if(bad > 0),
        Verdict::No => Status::Verdict,
        Verdict::NotShown => Status::Invalid,
    })
}

/// A puzzle's study as the report needs it: its counts and its
/// counter-examples, or why the puzzle could not be studied; `None` for a
/// puzzle after the one where the study stopped.
type Studied = Option<Result<(Counts, Vec<Shown>), String>>;

/// The input a study read, to be checked for a read error at its end.
enum Ended {
    Classic(Input),
    Typed(Input<Result<TypedPuzzle, InputError>>),
}

/// A counter-example as the report prints it, classic or typed.
struct Shown {
    /// The state, one field per cell (pencil marks).
    state: String,
    /// A's step there, as a path prints it (empty: not searched again).
    step: String,
    /// What B missed there.
    missed: Vec<String>,
    partial: bool,
}

impl Shown {
    fn of(e: Example) -> Shown {
        Shown {
            state: e.state.pencil_marks(),
            step: e.step,
            missed: e.missed.texts(),
            partial: e.partial,
        }
    }

    fn of_typed(e: TypedExample) -> Shown {
        Shown {
            state: e.state,
            step: e.step,
            missed: e.missed,
            partial: e.partial,
        }
    }
}

/// What a study shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// A ⊆ B on every state examined, everything decided.
    Yes,
    /// A counter-example.
    No,
    /// No counter-example, but a limit left something undecided.
    NotShown,
}

impl Verdict {
    fn json(self) -> serde_json::Value {
        match self {
            Verdict::Yes => json!(true),
            Verdict::No => json!(false),
            Verdict::NotShown => serde_json::Value::Null,
        }
    }
}

/// The text report of `subsume`.
#[allow(clippy::too_many_arguments)]
fn text_report(
    args: &SubsumeArgs,
    a: &Resolved,
    b: &Resolved,
    path: &str,
    source: &str,
    bad: usize,
    total: &Counts,
    stopped_at: Option<usize>,
    examples: &[(usize, String, Shown)],
    verdict: Verdict,
) -> String {
    let mut t = String::new();
    t += &format!("A: {} ({})\n", a.spec, names(a));
    t += &format!("B: {} ({})", b.spec, names(b));
    t += if args.closure {
        ", to its fixpoint\n"
    } else {
        ", direct\n"
    };
    t += &format!("path rules: {path}\n");
    t += &format!("puzzles: {} studied, {bad} not studied\n", total.puzzles);
    t += &format!("states examined: {}", total.states);
    t += &if args.every_state {
        " (every state of the paths)\n".to_string()
    } else {
        format!(
            " (where no single applies; {} before a single not examined: --every-state)\n",
            total.states_before_singles
        )
    };
    t += &format!(
        "A concludes at {}: {}, {}\n",
        counted(total.states_with_a, "state"),
        counted(total.a_eliminations, "elimination"),
        counted(total.a_assertions, "assertion")
    );
    t += &format!(
        "B misses: {}, {} (at {}, in {})\n",
        counted(total.missed_eliminations, "elimination"),
        counted(total.missed_assertions, "assertion"),
        counted(total.states_missed, "state"),
        counted(total.puzzles_missed, "puzzle")
    );
    if total.states_undecided > 0 {
        t += &format!(
            "not decided: {} ({} A may conclude, {} of A's not known to be covered: a search went over the memory cap, or the time ran out)\n",
            counted(total.states_undecided, "state"),
            counted(total.undecided_a, "candidate"),
            counted(total.undecided_cover, "conclusion"),
        );
    }
    if total.puzzles_time_limit > 0 {
        t += &format!(
            "time limit: {} stopped, {} not examined\n",
            counted(total.puzzles_time_limit, "puzzle"),
            counted(total.states_not_examined, "state"),
        );
    }
    if total.puzzles_memory_limit > 0 {
        t += &format!(
            "memory limit: {} whose resolution path went over it\n",
            counted(total.puzzles_memory_limit, "puzzle"),
        );
    }
    if let Some(line) = stopped_at {
        t += &match args.max_counterexamples {
            Some(n) => format!(
                "stopped: --max-counterexamples {n} reached at {source}:{line}; the puzzles after it were not studied\n"
            ),
            None => format!(
                "stopped: the {} printed found at {source}:{line}; the puzzles after it were not studied (--every-counterexample to study them)\n",
                counted(args.examples as u64, "counter-example")
            ),
        };
    }
    for (i, (line, puzzle, e)) in examples.iter().enumerate() {
        t += &format!("counter-example {}: {source}:{line}\n", i + 1);
        t += &format!("  puzzle: {puzzle}\n");
        t += &format!("  state: {}\n", e.state);
        if e.step.is_empty() {
            t += "  A: (its step was not searched for again: the time limit)\n";
        } else {
            t += &format!("  A: {}\n", e.step);
        }
        t += &format!(
            "  B misses: {}{}\n",
            e.missed.join(", "),
            if e.partial {
                " (the study stopped at this state: A's other rules were not searched)"
            } else {
                ""
            }
        );
    }
    t += match verdict {
        Verdict::Yes => "result: A ⊆ B on every state examined\n",
        Verdict::No => "result: A ⊄ B\n",
        Verdict::NotShown => {
            "result: A ⊆ B not shown: no counter-example, but limits left states undecided or not examined\n"
        }
    };
    t
}

#[derive(clap::Args)]
pub struct ClassifyArgs {
    #[command(flatten)]
    pub ty: crate::type_cli::TypeOpt,
    /// A puzzle file (or anything readable), a puzzle, or `-` for standard input.
    input: std::ffi::OsString,
    /// A ladder: a built-in name (w, l, m) or a ladder file; may be repeated.
    #[arg(long, value_name = "SPEC")]
    ladder: Vec<String>,
    /// Run every rung from the puzzle itself instead of stopping at the first
    /// rung that solves it (for ladders whose rungs do not grow).
    #[arg(long)]
    all: bool,
    /// The distribution of a rating: the built-in set of that name (W, B, gW,
    /// BC, Z, tW, …; case does not matter).
    #[arg(long, value_name = "NAME", conflicts_with = "rules")]
    rating: Option<String>,
    /// The distribution of the levels a rule set rates puzzles at.
    #[arg(long, value_name = "SET")]
    rules: Option<std::ffi::OsString>,
    /// Print one line per puzzle (in input order) before the tables: each
    /// ladder's word (the first rung that solves it, `-` for none,
    /// `limit@RUNG` when a limit stopped it) and the rating (`-` when the
    /// set does not solve it, `limit` when a limit stopped it; the
    /// distribution counts these apart, as `unsolved` and `stopped`).
    #[arg(long)]
    each: bool,
    /// CSV instead of text tables.
    #[arg(long)]
    csv: bool,
    /// Also draw the tables: a .png or .svg file.
    #[arg(long, value_name = "FILE")]
    plot: Option<std::path::PathBuf>,
    /// Stop each run after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// Stop each run after its worker thread has spent this many seconds of
    /// CPU (as --max-seconds, whatever else the machine runs).
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds, allow_negative_numbers = true)]
    max_cpu_seconds: Option<Duration>,
    /// The memory the searches of all workers may hold together, in MiB
    /// (each worker has its share): a run whose search would hold more
    /// stops there, as at `--max-seconds`.
    #[arg(long, value_name = "MIB", default_value = "8192", value_parser = mebibytes, allow_negative_numbers = true)]
    max_memory: usize,
    /// Worker threads (default: one per available core).
    #[arg(long, short = 'j', value_name = "N", value_parser = super::count, allow_negative_numbers = true)]
    jobs: Option<usize>,
}

/// The set a `--rating NAME` means: the built-in set of that name.
fn rating_set(name: &str) -> Result<String, String> {
    let known = ruleset::embedded_set_names();
    let lower = name.to_ascii_lowercase();
    if known.contains(&lower) {
        Ok(lower)
    } else {
        Err(format!(
            "--rating {name}: no rating of that name (ratings are the built-in sets: {})",
            known.join(", ")
        ))
    }
}

pub fn classify(args: &ClassifyArgs) -> Result<Status, Fail> {
    use ruledoku::study::classify::{
        Climb, Distribution, LADDER_CSV_HEADER, LadderTable, climb, levels_table, rate, rated_word,
    };
    use ruledoku::study::{ladder, plot};
    if args.ladder.is_empty() && args.rating.is_none() && args.rules.is_none() {
        return Err(Fail::Error(
            "give --ladder SPEC, --rating NAME or --rules SET (see classify --help)".into(),
        ));
    }
    if let Some(p) = &args.plot
        && !matches!(
            p.extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase)
                .as_deref(),
            Some("png" | "svg")
        )
    {
        return Err(Fail::Error(format!(
            "--plot {}: a plot is a .png or a .svg file",
            p.display()
        )));
    }
    if let Some(p) = &args.plot {
        plot::check_target(p)?;
        super::Inputs::of(super::input_path(&args.input))
            .refuse(p, "give the plot another name")?;
    }
    super::input_cli::one_reader_of_stdin(&args.input, args.rules.as_deref())?;
    let mut lib = Library::new();
    let ladders = args
        .ladder
        .iter()
        .map(|s| ladder::load(s, &mut lib))
        .collect::<Result<Vec<_>, _>>()?;
    let rated = match (&args.rating, &args.rules) {
        (Some(r), _) => {
            let set = lib.load(&rating_set(r)?).map_err(|e| e.to_string())?;
            Some((r.clone(), set))
        }
        (None, Some(s)) => {
            let set = lib.load(s).map_err(|e| e.to_string())?;
            Some((set.name.clone(), set))
        }
        _ => None,
    };
    let limits = Limits {
        max_steps: None,
        max_time: args.max_seconds,
        max_memory: None,
        max_cpu: None,
    };
    let pool = pool(args.jobs)?;
    let limits = Limits {
        max_memory: Some(args.max_memory / pool.current_num_threads().max(1)),
        max_cpu: args.max_cpu_seconds,
        ..limits
    };
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut tables: Vec<LadderTable> = ladders.iter().map(LadderTable::new).collect();
    let mut dist = rated.as_ref().map(|(label, _)| Distribution::new(label));
    let mut bad = 0usize;
    // Each record's climbs and rating (or why it could not be run), added
    // to the tables in input order.
    let mut take = |out: &mut Results, r: Result<(usize, String, Classified), String>| {
        pb.inc(1);
        match r.and_then(|(line, text, c)| c.map(|c| (line, text, c))) {
            Err(msg) => {
                bad += 1;
                out.message(&msg)?;
            }
            Ok((line, text, (climbs, r))) => {
                let mut shown = format!("{line} {text}");
                for ((t, c), l) in tables.iter_mut().zip(&climbs).zip(&ladders) {
                    t.add(c);
                    shown += &format!(" {}", c.word(l));
                }
                if let (Some(d), Some(r)) = (dist.as_mut(), r) {
                    shown += &format!(" {}", rated_word(&r));
                    d.add(r);
                }
                if args.each {
                    out.write(&format!("{shown}\n"))?;
                }
            }
        }
        Ok(())
    };
    let source = if args.ty.is_fpuzzles() {
        // Each record brings its own type (killer cages, regions, variant
        // rules): the ladders and the rated set are compiled for it.
        let (source, mut recs) = super::input_cli::fpuzzles_records(&args.input)?;
        let rated_set = rated.as_ref().map(|r| &*r.1);
        each_record_of(
            &pool,
            &mut recs,
            &source,
            &mut out,
            |src, rec| {
                let p = rec.map_err(|e| e.to_string())?;
                let own = match &p.own_type {
                    Some(t) => t.0.clone(),
                    None => return Err(format!("{src}:{}: no type of its own", p.line)),
                };
                let (m, p) = super::typed_cli::usable(&own, src, Ok(p))?;
                let typed = TypedClassify::new((*m).clone(), &ladders, rated_set, limits)
                    .map_err(|e| format!("{src}:{}: {e}", p.line))?;
                Ok((typed, m, p))
            },
            |(typed, m, p)| typed.puzzle(&source, m, p, args.all),
            |out, r| take(out, r.map(|((_, _, p), c)| (p.line, p.text, c))),
        )?;
        if let Err(e) = recs.end() {
            out.finish()?;
            return Err(e.into());
        }
        source
    } else {
        match args.ty.model()? {
            None => {
                let (source, mut recs) = records(&args.input)?;
                each_record(
                    &pool,
                    &mut recs,
                    &source,
                    &mut out,
                    |p| {
                        let start = State::from_masks(&p.masks, &p.givens);
                        let climbs: Vec<Climb> = ladders
                            .iter()
                            .map(|l| climb(l, start, args.all, limits))
                            .collect();
                        let r = rated.as_ref().map(|(_, set)| rate(set, start, limits));
                        Ok((climbs, r))
                    },
                    |out, r| take(out, r.map(|(p, c)| (p.line, p.text, c))),
                )?;
                if let Err(e) = recs.end() {
                    out.finish()?;
                    return Err(e.into());
                }
                source
            }
            Some(m) => {
                let typed = TypedClassify::new(m, &ladders, rated.as_ref().map(|r| &*r.1), limits)?;
                let (source, mut recs) =
                    super::input_cli::typed_records(&args.input, &typed.model)?;
                each_record_of(
                    &pool,
                    &mut recs,
                    &source,
                    &mut out,
                    |src, rec| super::typed_cli::usable(&typed.model, src, rec),
                    |(m, p)| typed.puzzle(&source, m, p, args.all),
                    |out, r| take(out, r.map(|((_, p), c)| (p.line, p.text, c))),
                )?;
                if let Err(e) = recs.end() {
                    out.finish()?;
                    return Err(e.into());
                }
                source
            }
        }
    };
    let studied = tables
        .first()
        .map(|t| t.puzzles)
        .or(dist.as_ref().map(|d| d.puzzles))
        .unwrap_or(0);
    if studied == 0 {
        out.finish()?;
        super::note(&if bad == 0 {
            no_puzzle(&source)
        } else {
            format!("{source}: no puzzle could be classified")
        });
        return Ok(Status::Invalid);
    }
    let mut text = String::new();
    if args.csv {
        if !tables.is_empty() {
            text += LADDER_CSV_HEADER;
            text.push('\n');
            for t in &tables {
                text += &t.csv();
            }
        }
        if let Some(d) = &dist {
            if !tables.is_empty() {
                text.push('\n');
            }
            text += &d.csv();
        }
    } else {
        for t in &tables {
            text += &t.text();
            text.push('\n');
        }
        if let Some(lv) = levels_table(&tables) {
            text += "puzzles solved at each level:\n";
            text += &lv;
            text.push('\n');
        }
        if let Some(d) = &dist {
            text += &d.text();
        }
    }
    out.write(&text)?;
    out.finish()?;
    if let Some(path) = &args.plot {
        let chart = if let Some(first) = tables.first() {
            let shown = tables.iter().map(LadderTable::shown).max().unwrap_or(1);
            let by_level = tables.iter().all(|t| t.rungs.iter().all(|r| r.1.is_some()));
            let pct = |t: &LadderTable| -> Vec<f64> {
                t.solved
                    .iter()
                    .take(shown)
                    .map(|&s| 100.0 * s as f64 / t.puzzles.max(1) as f64)
                    .collect()
            };
            plot::Chart {
                title: format!("{source}: {}", counted(first.puzzles, "puzzle")),
                // By level when every ladder is (L4 and M4 share a column).
                labels: first
                    .rungs
                    .iter()
                    .take(shown)
                    .map(|r| match (r.1, by_level) {
                        (Some(l), true) => l.to_string(),
                        _ => r.0.clone(),
                    })
                    .collect(),
                x_desc: if by_level { "level" } else { "rung" }.into(),
                bars: first.new.iter().take(shown).copied().collect(),
                bars_desc: format!("puzzles first solved at each rung of {}", first.name),
                curves: tables
                    .iter()
                    .map(|t| plot::Curve {
                        name: t.name.clone(),
                        values: pct(t),
                    })
                    .collect(),
            }
        } else {
            let d = dist.as_ref().expect("a rating or a ladder was asked for");
            let mut cum = 0;
            let whole = d.puzzles.max(1) as f64;
            plot::Chart {
                // The puzzles without a rating are in no bar: the title
                // says how many, and why.
                title: format!(
                    "{source}: {}{}",
                    counted(d.puzzles, "puzzle"),
                    ruledoku::study::classify::unrated_note(d)
                ),
                labels: d.counts.keys().map(|r| r.to_string()).collect(),
                x_desc: d.label.clone(),
                bars: d.counts.values().copied().collect(),
                bars_desc: format!("puzzles at each {} level", d.label),
                curves: vec![plot::Curve {
                    name: d.label.clone(),
                    values: d
                        .counts
                        .values()
                        .map(|&n| {
                            cum += n;
                            100.0 * cum as f64 / whole
                        })
                        .collect(),
                }],
            }
        };
        plot::draw(path, &chart)?;
    }
    Ok(Status::invalid_if(bad > 0))
}

/// A record's climbs of the ladders and its rating (`--rating`/`--rules`),
/// or why the puzzle could not be run.
type Classified = Result<
    (
        Vec<ruledoku::study::classify::Climb>,
        Option<ruledoku::study::classify::Rated>,
    ),
    String,
>;

/// `classify --type T`: the ladders' rungs and the rating set compiled for
/// the type, run by the typed back end; each rung goes on from where the
/// one below stopped ([`typed::engine::Start`]), as on classic Sudoku.
struct TypedClassify {
    model: Arc<Model>,
    /// Per ladder, per rung.
    rungs: Vec<Vec<TypedSet>>,
    rated: Option<TypedSet>,
    limits: Limits,
}

impl TypedClassify {
    fn new(
        m: Model,
        ladders: &[ruledoku::study::ladder::Ladder],
        rated: Option<&RuleSet>,
        limits: Limits,
    ) -> Result<TypedClassify, String> {
        let compile = |set: &RuleSet| super::typed_cli::compile(set, &m);
        let rungs = ladders
            .iter()
            .map(|l| {
                l.rungs
                    .iter()
                    .map(|r| {
                        compile(&r.set)
                            .map_err(|e| format!("ladder {}, rung {}: {e}", l.name, r.name))
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let rated = rated.map(compile).transpose()?;
        Ok(TypedClassify {
            model: Arc::new(m),
            rungs,
            rated,
            limits,
        })
    }

    /// One puzzle (`m`: the type with the puzzle's own constraints).
    fn puzzle(&self, source: &str, m: &Arc<Model>, p: &TypedPuzzle, all: bool) -> Classified {
        use ruledoku::study::classify::climb_with;
        let why = |e: typed::NoFrame| format!("{source}:{}: {}", p.line, e.0);
        let start = Start::of(m, &p.givens).map_err(why)?;
        let opts = typed::engine::Options {
            limits: self.limits,
            ..Default::default()
        };
        // A run that cannot be made (too many candidates for a frame) is
        // the record's error, whichever rung meets it.
        let failed: std::sync::Mutex<Option<String>> = Default::default();
        let climbs = self
            .rungs
            .iter()
            .map(|sets| {
                climb_with(
                    sets.len(),
                    start.clone(),
                    all,
                    |i, s| match typed::engine::run_at(m, &sets[i], s, opts) {
                        Ok(run) => (run.stop, run.end_start(m, s)),
                        Err(e) => {
                            *failed.lock().unwrap() = Some(e.0);
                            (StopReason::Contradiction, s.clone())
                        }
                    },
                )
            })
            .collect();
        let rating = match &self.rated {
            None => None,
            Some(set) => {
                let run = typed::engine::run_at(m, set, &start, opts).map_err(why)?;
                Some(ruledoku::study::classify::rated(run.stop, || run.level()))
            }
        };
        if let Some(e) = failed.into_inner().unwrap() {
            return Err(format!("{source}:{}: {e}", p.line));
        }
        Ok((climbs, rating))
    }
}
