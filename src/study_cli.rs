//! The study commands of the command line: `subsume` and `classify`.
//! The work is in the library's [`ruledoku::study`]; this module reads the
//! options, runs puzzles on the worker threads in input order, and prints.

use super::{Fail, Input, Results, no_puzzle, progress, records, worker_threads};
use ruledoku::engine::Limits;
use ruledoku::grid::state::State;
use ruledoku::input::{InputError, Puzzle};
use ruledoku::oracle::solver::{self, Solutions};
use ruledoku::ruleset::{self, Library};
use ruledoku::study::spec::{self, Resolved};
use ruledoku::study::subsume::{Counts, Example, Mode, PuzzleStudy, Study};
use serde_json::json;
use std::time::Duration;

/// Records handed to the worker threads at a time.
const CHUNK: usize = 64;

#[derive(clap::Args)]
pub struct SubsumeArgs {
    /// A: a rule name, a family (`x-wing`, `whip`, `whip[..4]`), a rule file,
    /// a rule set, or several joined by `+`.
    a: String,
    /// B: the same kinds of spec as A.
    b: String,
    /// A puzzle file (or anything readable), a puzzle, or `-` for standard input.
    input: String,
    /// The rule set whose resolution paths give the states examined.
    #[arg(long, value_name = "SET", default_value = "basic+w")]
    path_rules: String,
    /// Take B to its fixpoint on a copy of each state instead of B's direct matches.
    #[arg(long)]
    closure: bool,
    /// Print at most this many counter-examples.
    #[arg(long, value_name = "N", default_value = "3", value_parser = super::count, allow_negative_numbers = true)]
    examples: usize,
    /// Look rule names and families up in this rule set (default: every
    /// rule file shipped in rules/).
    #[arg(long, value_name = "SET")]
    from: Option<String>,
    /// Stop each resolution path (and each closure) after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// Worker threads (default: one per available core).
    #[arg(long, short = 'j', value_name = "N", value_parser = super::count, allow_negative_numbers = true)]
    jobs: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
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

/// Runs `work` over the records on the pool, `CHUNK` at a time, and hands
/// each result to `take` in input order (a bad record as its message).
pub fn each_record<T: Send>(
    pool: &rayon::ThreadPool,
    recs: &mut Input,
    source: &str,
    work: impl Fn(&Puzzle) -> T + Sync,
    mut take: impl FnMut(Result<(Puzzle, T), String>) -> Result<(), Fail>,
) -> Result<(), Fail> {
    use rayon::prelude::*;
    loop {
        let chunk: Vec<_> = recs.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            return Ok(());
        }
        let done: Vec<Result<(Puzzle, T), String>> = pool.install(|| {
            chunk
                .into_par_iter()
                .map(|r| {
                    let p = usable(source, r)?;
                    let t = work(&p);
                    Ok((p, t))
                })
                .collect()
        });
        for d in done {
            take(d)?;
        }
    }
}

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

pub fn subsume(args: &SubsumeArgs) -> Result<bool, Fail> {
    let mut lib = Library::new();
    let universe = match &args.from {
        Some(s) => lib.load(s).map_err(|e| e.to_string())?.rules.clone(),
        None => spec::built_in_rules(&mut lib).map_err(|e| e.to_string())?,
    };
    let a = spec::resolve(&args.a, &mut lib, &universe).map_err(|e| format!("A: {e}"))?;
    let b = spec::resolve(&args.b, &mut lib, &universe).map_err(|e| format!("B: {e}"))?;
    let path = ruleset::load(&args.path_rules).map_err(|e| format!("--path-rules: {e}"))?;
    let pool = pool(args.jobs)?;
    let (source, mut recs) = records(&args.input)?;
    let mode = if args.closure {
        Mode::Closure
    } else {
        Mode::Direct
    };
    let study = Study {
        a: &a.rules,
        b: &b.rules,
        mode,
        path: &path,
        examples: args.examples,
        limits: Limits {
            max_steps: None,
            max_time: args.max_seconds,
        },
    };
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut total = Counts::default();
    let mut bad = 0usize;
    let mut examples: Vec<(usize, String, Example)> = Vec::new();
    each_record(
        &pool,
        &mut recs,
        &source,
        |p| study.puzzle(State::from_masks(&p.masks, &p.givens)),
        |r| {
            pb.inc(1);
            match r {
                Err(msg) => {
                    bad += 1;
                    out.message(&msg)?;
                }
                Ok((
                    p,
                    PuzzleStudy {
                        counts,
                        examples: ex,
                        ..
                    },
                )) => {
                    total.add(&counts);
                    for e in ex {
                        if examples.len() < args.examples {
                            examples.push((p.line, p.text.clone(), e));
                        }
                    }
                }
            }
            Ok(())
        },
    )?;
    if let Err(e) = recs.end() {
        out.finish()?;
        return Err(e.into());
    }
    if total.puzzles == 0 {
        out.finish()?;
        let why = if bad == 0 {
            no_puzzle(&source)
        } else {
            format!("{source}: no puzzle could be studied")
        };
        return Err(Fail::Error(why));
    }
    let held = total.missed() == 0;
    let text = if args.json {
        let ex: Vec<_> = examples
            .iter()
            .map(|(line, puzzle, e)| {
                json!({"line": line, "puzzle": puzzle, "state": e.state.pencil_marks(),
                       "step": e.step, "missed": e.missed.texts()})
            })
            .collect();
        let side = |r: &Resolved| json!({"spec": r.spec, "rules": r.names()});
        format!(
            "{}\n",
            json!({"a": side(&a), "b": side(&b), "mode": mode, "path_rules": path.name,
                   "not_studied": bad, "counts": total, "subsumed": held, "examples": ex})
        )
    } else {
        let mut t = String::new();
        t += &format!("A: {} ({})\n", a.spec, names(&a));
        t += &format!("B: {} ({})", b.spec, names(&b));
        t += if args.closure {
            ", to its fixpoint\n"
        } else {
            ", direct\n"
        };
        t += &format!("path rules: {}\n", path.name);
        t += &format!("puzzles: {} studied, {bad} not studied\n", total.puzzles);
        t += &format!("states examined: {}\n", total.states);
        t += &format!(
            "A concludes at {} states: {} eliminations, {} assertions\n",
            total.states_with_a, total.a_eliminations, total.a_assertions
        );
        t += &format!(
            "B misses: {} eliminations, {} assertions (at {} states, in {} puzzles)\n",
            total.missed_eliminations,
            total.missed_assertions,
            total.states_missed,
            total.puzzles_missed
        );
        for (i, (line, puzzle, e)) in examples.iter().enumerate() {
            t += &format!("counter-example {}: {source}:{line}\n", i + 1);
            t += &format!("  puzzle: {puzzle}\n");
            t += &format!("  state: {}\n", e.state.pencil_marks());
            t += &format!("  A: {}\n", e.step);
            t += &format!("  B misses: {}\n", e.missed.texts().join(", "));
        }
        t += if held {
            "result: A ⊆ B on every state examined\n"
        } else {
            "result: A ⊄ B\n"
        };
        t
    };
    out.write(&text)?;
    out.finish()?;
    Ok(held)
}
