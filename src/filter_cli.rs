//! The `filter` command: Mike Metcalf's contradiction filter over a puzzle
//! collection. The filter itself is rule files (`rules/filter.rules`,
//! `rules/filter-slow.rules`, sets `filter-fast` and `filter-slow`): a trial
//! rule assumes each candidate, propagates with singles once (fast) or the
//! basic rules to their fixpoint (slow), and eliminates the candidate when
//! a CSP variable is left empty; the set's simple rules run between
//! assumptions. This module runs a set over the records, on the worker
//! threads, in input order, and prints one line per puzzle and a summary.

use super::study_cli::{each_record, each_record_of};
use super::{
    Fail, Results, Status, count, no_puzzle, note, note_text, progress, records, seconds,
    worker_threads,
};
use ruledoku::engine::{Limits, Runner, StopReason, Tally};
use ruledoku::grid::state::State;
use ruledoku::path::counted;
use ruledoku::ruleset;
use ruledoku::search::SearcherKind;
use serde_json::json;
use std::ffi::OsStr;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct FilterArgs {
    #[command(flatten)]
    pub ty: crate::type_cli::TypeOpt,
    /// A puzzle file (or anything readable), a puzzle, or `-` for standard input.
    input: std::ffi::OsString,
    /// The fast filter (the default): one round of singles after each assumption.
    #[arg(long, conflicts_with_all = ["slow", "rules"])]
    fast: bool,
    /// The slow filter: the basic rules to their fixpoint after each assumption.
    #[arg(long, conflicts_with = "rules")]
    slow: bool,
    /// Another filter: a rule set whose trial rules do the eliminating.
    #[arg(long, value_name = "SET")]
    rules: Option<std::ffi::OsString>,
    /// Stop a puzzle after this many seconds (it counts as not solved and
    /// says so); the batch goes on.
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// Worker threads (default: one per available core).
    #[arg(long, short = 'j', value_name = "N", value_parser = count, allow_negative_numbers = true)]
    jobs: Option<usize>,
    /// One JSON object per puzzle instead of a text line.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV with a header line instead of text lines.
    #[arg(long)]
    csv: bool,
    /// Only the summary: no line per puzzle.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// A file of ratings, line N for the puzzle on input line N (such as a
    /// collection's SER.txt): after the summary, the share of puzzles the
    /// filter solves per band of half a point (Metcalf: the fast filter
    /// solves most puzzles up to SE 8.5, the slow one up to about 9.9).
    #[arg(long, value_name = "FILE")]
    bands: Option<std::path::PathBuf>,
}

/// Puzzles and puzzles solved per rating band (half a point: band `k`
/// holds ratings in `[k/2, k/2 + 0.5)`). The ratings file is read as the
/// puzzles come, up to the line of the last one: memory stays bounded
/// whatever the file (an endless pipe, `/dev/zero`).
struct Bands {
    ratings: Box<dyn std::io::BufRead>,
    /// The number of the next line of the ratings file.
    next: usize,
    rows: std::collections::BTreeMap<i64, (usize, usize)>,
}

/// The bytes of a ratings line kept (the rest is no rating).
const RATING_BYTES: usize = 64;

impl Bands {
    fn read(path: &std::path::Path) -> Result<Bands, Fail> {
        let shown = path.display();
        if path.is_dir() {
            return Err(Fail::Error(format!("--bands {shown}: is a directory")));
        }
        let f = std::fs::File::open(path).map_err(|e| Fail::Error(format!("{shown}: {e}")))?;
        Ok(Bands {
            ratings: Box::new(std::io::BufReader::new(f)),
            next: 1,
            rows: Default::default(),
        })
    }

    /// The rating on line `line` of the file (lines before it skipped;
    /// `None` past its end, on a line with no number, or for a line
    /// already passed).
    fn rating(&mut self, line: usize) -> Option<f64> {
        let mut text = Vec::new();
        while self.next <= line {
            text.clear();
            if !read_line_start(&mut self.ratings, &mut text) {
                // The end (or a read error): no more ratings.
                self.next = usize::MAX;
                return None;
            }
            self.next += 1;
        }
        if self.next != line + 1 {
            return None;
        }
        let text = String::from_utf8_lossy(&text);
        text.split_whitespace().next()?.parse().ok()
    }

    /// Counts the puzzle of input line `line`; `false` when the file has
    /// no rating for it.
    fn add(&mut self, line: usize, solved: bool) -> bool {
        let Some(r) = self.rating(line) else {
            return false;
        };
        let row = self
            .rows
            .entry((r * 2.0 + 1e-9).floor() as i64)
            .or_default();
        row.0 += 1;
        row.1 += usize::from(solved);
        true
    }

    fn table(&self, name: &str) -> String {
        let mut t = format!("{name} by rating band:\nband          puzzles   solved    share\n");
        for (&k, &(n, s)) in &self.rows {
            let lo = k as f64 / 2.0;
            t += &format!(
                "{:<13} {n:>7} {s:>8} {:>7.2}%\n",
                format!("{lo:.1}-{:.1}", lo + 0.4),
                100.0 * s as f64 / n.max(1) as f64
            );
        }
        t
    }
}

/// Reads one line of `r`, keeping its first [`RATING_BYTES`] bytes in
/// `text`; `false` at the end of the input, on a read error, or on a line
/// longer than [`ruledoku::input::MAX_LINE_BYTES`] (no ratings file has
/// one: `/dev/zero` would be an endless line).
fn read_line_start(r: &mut dyn std::io::BufRead, text: &mut Vec<u8>) -> bool {
    let (mut any, mut length) = (false, 0usize);
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        };
        if buf.is_empty() {
            return any;
        }
        any = true;
        let (piece, used, ended) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = RATING_BYTES.saturating_sub(text.len());
        text.extend_from_slice(&piece[..piece.len().min(room)]);
        length += piece.len();
        r.consume(used);
        if ended {
            return true;
        }
        if length > ruledoku::input::MAX_LINE_BYTES {
            return false;
        }
    }
}

/// The records of the input: classic puzzles, or puzzles of a type.
enum Recs {
    Classic(super::Input),
    Typed(super::Input<ruledoku::input::TypedRecord>),
}

/// What the filter did to one puzzle.
struct Filtered {
    stop: StopReason,
    /// Candidates the filter's trial rules eliminated.
    eliminations: usize,
    /// Steps of the filter's trial rules.
    trial_steps: usize,
    /// Live candidates left (0 when solved).
    left: usize,
    seconds: f64,
}

impl Filtered {
    /// The filter's figures from a tally; `trial`: which of the set's
    /// rules are trial rules.
    fn of(run: &Tally, trial: &[bool]) -> Filtered {
        let of_trials = |v: &[usize]| -> usize {
            v.iter()
                .zip(trial)
                .filter(|(_, t)| **t)
                .map(|(n, _)| n)
                .sum()
        };
        Filtered {
            stop: run.stop,
            eliminations: of_trials(&run.conclusions),
            trial_steps: of_trials(&run.steps),
            left: if run.stop == StopReason::Solved {
                0
            } else {
                run.state.cand_count()
            },
            seconds: run.elapsed.as_secs_f64(),
        }
    }

    /// The filter's figures from a typed run with its statistics.
    fn of_typed(run: &ruledoku::typed::TypedRun, trial: &[bool]) -> Filtered {
        let stats = run.stats.as_deref().unwrap_or_default();
        let of_trials = |f: fn(&ruledoku::engine::RuleStats) -> u64| -> usize {
            stats
                .iter()
                .zip(trial)
                .filter(|(_, t)| **t)
                .map(|(s, _)| f(s) as usize)
                .sum()
        };
        Filtered {
            stop: run.stop,
            eliminations: of_trials(|s| s.conclusions),
            trial_steps: of_trials(|s| s.steps),
            left: if run.stop == StopReason::Solved {
                0
            } else {
                run.cands_end
            },
            seconds: run.elapsed.as_secs_f64(),
        }
    }

    fn solved(&self) -> bool {
        self.stop == StopReason::Solved
    }
}

pub fn filter(args: &FilterArgs) -> Result<Status, Fail> {
    let spec: &OsStr = match (&args.rules, args.slow) {
        (Some(s), _) => s,
        (None, true) => "filter-slow".as_ref(),
        (None, false) => "filter-fast".as_ref(),
    };
    // How messages name the filter (a path that is not UTF-8 shown with
    // what is not replaced).
    let name = &std::path::Path::new(spec).display().to_string();
    super::input_cli::one_reader_of_stdin(&args.input, args.rules.as_deref())?;
    let set = ruleset::load(spec).map_err(|e| e.to_string())?;
    if let Some(b) = args.bands.as_deref() {
        // The ratings are read as the results are written.
        super::Inputs::of([b]).refuse_stdout()?;
    }
    let mut bands = args.bands.as_deref().map(Bands::read).transpose()?;
    let mut unrated = 0usize;
    if !set
        .rules
        .iter()
        .any(|r| matches!(r.searcher.kind(), SearcherKind::Trial(_)))
    {
        return Err(Fail::Error(format!(
            "`{name}` has no trial rule: a filter set assumes candidates (see rules/filter.rules)"
        )));
    }
    let trial: Vec<bool> = set
        .rules
        .iter()
        .map(|r| matches!(r.searcher.kind(), SearcherKind::Trial(_)))
        .collect();
    let limits = Limits {
        max_steps: None,
        max_time: args.max_seconds,
        max_memory: None,
        max_cpu: None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(Some(args.jobs.unwrap_or(0))))
        .build()
        .map_err(|e| e.to_string())?;
    // Another type: the set compiled for it, the records read as its.
    let typed = match args.ty.model()? {
        None => None,
        Some(m) => {
            let tset = super::typed_cli::compile(&set, &m)?;
            Some((std::sync::Arc::new(m), tset))
        }
    };
    let (source, mut recs) = match &typed {
        None => {
            let (source, r) = records(&args.input)?;
            (source, Recs::Classic(r))
        }
        Some((m, _)) => {
            let (source, r) = super::input_cli::typed_records(&args.input, m)?;
            (source, Recs::Typed(r))
        }
    };
    let pb = progress(None);
    let mut out = Results::new(&pb);
    if args.csv && !args.quiet {
        out.write("line,puzzle,solved,stop,eliminations,filter_steps,candidates_left,seconds\n")?;
    }
    let start = Instant::now();
    let (mut puzzles, mut solved, mut bad, mut elims, mut timed_out) = (0usize, 0, 0, 0, 0);
    let mut take = |out: &mut Results, r: Result<(usize, String, Filtered), String>| {
        pb.inc(1);
        let (line_no, text, f) = match r {
            Err(msg) => {
                bad += 1;
                out.message(&msg)?;
                return Ok(());
            }
            Ok(x) => x,
        };
        puzzles += 1;
        solved += usize::from(f.solved());
        if let Some(b) = bands.as_mut()
            && !b.add(line_no, f.solved())
        {
            unrated += 1;
        }
        elims += f.eliminations;
        if f.stop == StopReason::TimeLimit {
            timed_out += 1;
            out.message(&format!(
                "{source}:{line_no}: time limit reached; not solved by the filter so far",
            ))?;
        }
        if args.quiet {
            return Ok(());
        }
        let line = if args.json {
            json!({
                "line": line_no,
                "puzzle": text,
                "solved": f.solved(),
                "stop": f.stop.name(),
                "eliminations": f.eliminations,
                "filter_steps": f.trial_steps,
                "candidates_left": f.left,
                "seconds": f.seconds,
            })
            .to_string()
        } else if args.csv {
            format!(
                "{},{},{},{},{},{},{},{:.6}",
                line_no,
                text,
                f.solved(),
                f.stop.name(),
                f.eliminations,
                f.trial_steps,
                f.left,
                f.seconds
            )
        } else {
            format!(
                "{} {} {} {}",
                line_no,
                text,
                if f.solved() { "solved" } else { f.stop.name() },
                f.eliminations
            )
        };
        out.write(&format!("{line}\n"))?;
        Ok(())
    };
    match (&typed, &mut recs) {
        (Some((model, tset)), Recs::Typed(trecs)) => {
            let trial: Vec<bool> = tset
                .rules
                .iter()
                .map(|r| matches!(r.rule.searcher.kind(), SearcherKind::Trial(_)))
                .collect();
            let opts = ruledoku::typed::engine::Options {
                limits,
                stats: true,
                ..Default::default()
            };
            each_record_of(
                &pool,
                trecs,
                &source,
                &mut out,
                |source, r| super::typed_cli::usable(model, source, r),
                |(m, p)| match ruledoku::typed::run(m, tset, &p.givens, opts) {
                    Ok(run) => Ok(Filtered::of_typed(&run, &trial)),
                    Err(e) => Err(format!("{source}:{}: {}", p.line, e.0)),
                },
                |out, r| match r {
                    Ok(((_, p), Ok(f))) => take(out, Ok((p.line, p.text, f))),
                    Ok((_, Err(e))) | Err(e) => take(out, Err(e)),
                },
            )?;
        }
        (_, Recs::Classic(recs)) => each_record(
            &pool,
            recs,
            &source,
            &mut out,
            |p| {
                let run = Runner::new(&set)
                    .limits(limits)
                    .tally(State::from_masks(&p.masks, &p.givens));
                Filtered::of(&run, &trial)
            },
            |out, r| take(out, r.map(|(p, f)| (p.line, p.text, f))),
        )?,
        (None, Recs::Typed(_)) => unreachable!("typed records come with a typed set"),
    }
    let end = match recs {
        Recs::Classic(r) => r.end(),
        Recs::Typed(r) => r.end(),
    };
    if let Err(e) = end {
        out.finish()?;
        return Err(e.into());
    }
    out.finish()?;
    if puzzles == 0 {
        note(&if bad == 0 {
            no_puzzle(&source)
        } else {
            format!("{source}: no puzzle could be filtered")
        });
        return Ok(Status::Invalid);
    }
    let secs = start.elapsed().as_secs_f64();
    note(&format!(
        "{name}: {}, {solved} solved by the filter ({:.1}%), {} by its trial rules{}{}; {secs:.2} s, {:.1} puzzles/s",
        counted(puzzles, "puzzle"),
        100.0 * solved as f64 / puzzles as f64,
        counted(elims, "elimination"),
        if timed_out > 0 {
            format!(", {timed_out} stopped by the time limit")
        } else {
            String::new()
        },
        if bad > 0 {
            format!(", {} not filtered", counted(bad, "record"))
        } else {
            String::new()
        },
        puzzles as f64 / secs.max(1e-9),
    ));
    if let Some(b) = &bands {
        note_text(&b.table(name));
        if unrated > 0 {
            note(&format!(
                "{} without a rating in {}",
                counted(unrated, "puzzle"),
                args.bands
                    .as_deref()
                    .unwrap_or(std::path::Path::new(""))
                    .display()
            ));
        }
    }
    Ok(Status::invalid_if(bad > 0))
}
