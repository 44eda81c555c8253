//! `solve --type T` and `rate --type T` for types other than classic 9×9
//! Sudoku: the rule set compiled for the type ([`ruledoku::typed`]), each
//! puzzle checked by the generic oracle (one solution), run, and printed
//! in the classic forms (path, line, CSV, JSON; [`ruledoku::path::TypedRated`]);
//! `--verify` checks every step against the solution, `--stats` counts
//! each rule's searches, `solve --svg DIR` and `--html FILE` draw the steps
//! ([`ruledoku::draw::typed`]). [`TypedJob`] is a [`Rater`]: the classic
//! loop (streamed input, `-j`, progress) and `rate`'s batches run it.

use super::{Each, Fail, HtmlPage, Out, Outcome, Rater, Status};
use ruledoku::draw::{self, typed::TypedPictures};
use ruledoku::engine::{Limits, RuleStats, StopReason};
use ruledoku::input::InputError;
use ruledoku::input::typed::TypedPuzzle;
use ruledoku::model::Model;
use ruledoku::oracle::generic::{self, Verdict};
use ruledoku::path::{Rejected, TypedRated, Unrated};
use ruledoku::ruleset::{RuleSet, Strategy};
use ruledoku::search::ConclusionKind;
use ruledoku::typed::{self, TypedRun, TypedSet, engine::Options};
use std::ffi::OsStr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How each puzzle of a type is run and shown (the same for every record
/// of an input).
pub struct TypedJob<'a> {
    pub model: &'a Arc<Model>,
    pub set: &'a TypedSet,
    pub limits: Limits,
    pub out: Out,
    /// The input's name, in messages.
    pub source: &'a str,
    pub stats: bool,
    pub time: bool,
    pub verify: bool,
    /// `--svg DIR`: draw each step there.
    pub svg: Option<&'a Path>,
    /// `--html`: render each record's section of the page, unless the
    /// page is full (the flag).
    pub html: Option<&'a AtomicBool>,
    /// The set as loaded, compiled again for each record that brings its
    /// own type (`--type f-puzzles`); `set` is then compiled for classic
    /// Sudoku's typed model and serves no record.
    pub rules: Option<&'a RuleSet>,
}

/// What `solve --type` draws: `--svg DIR`, and the `--html` page to write
/// with its largest size in bytes.
pub struct Drawn<'a> {
    pub svg: Option<&'a Path>,
    pub page: Option<(&'a Path, u64)>,
}

/// The set compiled for the type, or a usage error naming the rules that
/// cannot run on it.
pub fn compile(set: &RuleSet, m: &Model) -> Result<TypedSet, String> {
    if set.strategy == Strategy::FirstProducer {
        return Err(format!(
            "rule set `{}` is first-producer (Sudoku Explainer's ratings), for classic 9×9 \
             Sudoku only; type `{}` takes simplest-first sets (w, b, gw, gb, bc, te, …)",
            set.name,
            m.name()
        ));
    }
    let t = typed::compile(set, m)?;
    if t.rules.is_empty() {
        return Err(format!(
            "rule set `{}` has no rule for type `{}`",
            set.name,
            m.name()
        ));
    }
    Ok(t)
}

/// `solve`/`rate` on puzzles of type `model` read from `file` with the set
/// compiled for it ([`compile`]; streamed, rated on `each.jobs` threads,
/// printed in input order), drawn as `drawn` says.
pub fn solve_typed(
    model: Model,
    tset: &TypedSet,
    limits: Limits,
    file: &OsStr,
    stats: bool,
    each: &Each,
    drawn: Drawn,
) -> Result<Status, Fail> {
    let model = Arc::new(model);
    let (source, recs) = super::input_cli::typed_records(file, &model)?;
    let page_full = AtomicBool::new(false);
    let page = match drawn.page {
        Some((path, most)) => {
            let head = draw::html::typed_header(&source, &model);
            Some(HtmlPage::with_head(path, head, most, &page_full)?)
        }
        None => None,
    };
    let job = TypedJob {
        model: &model,
        set: tset,
        limits,
        out: each.out,
        source: &source,
        stats,
        time: each.time,
        verify: each.verify,
        svg: drawn.svg,
        html: page.is_some().then_some(&page_full),
        rules: None,
    };
    super::rate_records(&job, &source, recs, each, page)
}

/// `solve --type f-puzzles` / `rate --type f-puzzles`: each record of
/// `file` brings its own type ([`super::input_cli::fpuzzles_records`]),
/// for which `set` is compiled; a record the set cannot run on (no rule
/// for its type) is an invalid record with the reason.
pub fn solve_fpuzzles(
    set: &RuleSet,
    limits: Limits,
    file: &OsStr,
    each: &Each,
    svg: Option<&Path>,
) -> Result<Status, Fail> {
    // The job's own model and set serve no record: each brings its type.
    let model =
        Arc::new(ruledoku::model::load("sudoku").map_err(|e| Fail::Error(format!("--type: {e}")))?);
    let tset = typed::compile(set, &model).map_err(Fail::Error)?;
    let (source, recs) = super::input_cli::fpuzzles_records(file)?;
    let job = TypedJob {
        model: &model,
        set: &tset,
        limits,
        out: each.out,
        source: &source,
        stats: false,
        time: each.time,
        verify: each.verify,
        svg,
        html: None,
        rules: Some(set),
    };
    super::rate_records(&job, &source, recs, each, None)
}

impl Rater for TypedJob<'_> {
    type Rec = Result<TypedPuzzle, InputError>;

    fn rate(&self, rec: Self::Rec) -> Outcome {
        match rec {
            Ok(p) => self.run(&p),
            Err(e) => {
                let why = e.kind.to_string();
                self.rejected(e.first_line, None, Unrated::Invalid, &why, e.to_string())
            }
        }
    }

    fn stats_table(&self, stats: &[RuleStats], time: bool) -> String {
        let names = self.set.rules.iter().map(|r| r.rule.head.name.as_str());
        ruledoku::path::stats_table_of(names, stats, time)
    }
}

impl TypedJob<'_> {
    /// Does the run keep what its steps show?
    fn pictures(&self) -> bool {
        self.svg.is_some() || self.drawn()
    }

    /// Does the record get a section of the page?
    fn drawn(&self) -> bool {
        self.html.is_some_and(|full| !full.load(Ordering::Relaxed))
    }

    /// One puzzle: checked by the generic oracle, run, rendered.
    fn run(&self, p: &TypedPuzzle) -> Outcome {
        let source = self.source;
        let base = p.own_type.as_ref().map_or(self.model, |t| &t.0);
        let instance = if p.signs.is_empty() {
            base.clone()
        } else {
            Arc::new(base.with_constraints(&p.signs))
        };
        // A record with its own type: the set compiled for it.
        let own_set = match (&p.own_type, self.rules) {
            (Some(_), Some(rules)) => match compile(rules, &instance) {
                Ok(t) => Some(t),
                Err(e) => {
                    let msg = format!("{source}:{}: {e}", p.line);
                    return self.rejected(p.line, Some(&p.text), Unrated::Invalid, &e, msg);
                }
            },
            _ => None,
        };
        let set = own_set.as_ref().unwrap_or(self.set);
        let live = generic::live_from_givens(&instance, &p.givens);
        let solution = match generic::solve(&instance, &live) {
            Verdict::Unique(s) => s,
            Verdict::None => {
                let e = "the puzzle has no solution";
                let msg = format!("{source}:{}: {e}", p.line);
                return self.rejected(p.line, Some(&p.text), Unrated::NoSolution, e, msg);
            }
            Verdict::Multiple { .. } => {
                let e = "the puzzle has several solutions";
                let msg = format!("{source}:{}: {e}", p.line);
                let why = Unrated::MultipleSolutions;
                return self.rejected(p.line, Some(&p.text), why, e, msg);
            }
        };
        let opts = Options {
            limits: self.limits,
            patterns: matches!(self.out, Out::Path | Out::Json) || self.pictures(),
            max_memory: None,
            stats: self.stats,
            pictures: self.pictures(),
        };
        let run = match typed::run(&instance, set, &p.givens, opts) {
            Ok(run) => run,
            Err(e) => {
                let msg = format!("{source}:{}: {}", p.line, e.0);
                return self.rejected(p.line, Some(&p.text), Unrated::Invalid, &e.0, msg);
            }
        };
        let wrong = self
            .verify
            .then(|| first_wrong(&instance, &run, &solution))
            .flatten()
            .map(|w| format!("{source}:{}: {w}", p.line));
        let r = TypedRated {
            line: p.line,
            puzzle: &p.text,
            model: &instance,
            set,
            run: &run,
            time: self.time,
        };
        let stdout = match self.out {
            Out::Path => r.path(),
            Out::Line => r.line(),
            Out::Csv => r.csv(),
            Out::Json => r.json(),
        };
        let pictures = self
            .pictures()
            .then(|| TypedPictures::new(&instance, &p.givens));
        let fatal = match (&pictures, self.svg) {
            (Some(pics), Some(dir)) => {
                draw::write_figures(dir, p.line, pics.step_figures(p.line, &run)).err()
            }
            _ => None,
        };
        let html = match &pictures {
            Some(pics) if self.drawn() => {
                let path = if self.out == Out::Path {
                    stdout.clone()
                } else {
                    r.path()
                };
                Some(pics.section(p.line, &p.text, &set.name, &run, &path))
            }
            _ => None,
        };
        Outcome {
            line: p.line,
            stdout,
            stderr: None,
            stats: run.stats.clone(),
            wrong,
            note: None,
            html,
            fatal,
            stop: run.stop.name(),
            rating: (run.stop == StopReason::Solved).then(|| run.rating()),
        }
    }

    /// A record that is not rated, in the chosen form (nothing on standard
    /// output for a text path), with its message.
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
        let stdout = match self.out {
            Out::Path => String::new(),
            Out::Line => r.line(),
            Out::Csv => r.csv(),
            Out::Json => r.json(),
        };
        Outcome {
            line,
            stdout,
            stderr: Some(message),
            stats: None,
            wrong: None,
            note: None,
            html: self
                .drawn()
                .then(|| draw::html::rejected_section(line, puzzle, error)),
            fatal: None,
            stop: why.name(),
            rating: None,
        }
    }
}

/// The first step of `run` that concludes against the puzzle's solution
/// (`solution[cell]` = symbol), as a message.
fn first_wrong(m: &Model, run: &TypedRun, solution: &[usize]) -> Option<String> {
    for (i, s) in run.steps.iter().enumerate() {
        for &z in &s.conclusions {
            let true_cand = m.cand_true(z, solution);
            let ok = match s.kind {
                ConclusionKind::Assert => true_cand,
                ConclusionKind::Eliminate => !true_cand,
            };
            if !ok {
                return Some(format!(
                    "wrong step {} ({}): {}",
                    i + 1,
                    s.name(),
                    s.text(m)
                ));
            }
        }
    }
    None
}

/// `bench --type T`: puzzles per CPU-second of the generic oracle, or of
/// rule set `rules` run by the typed back end, on one thread, as classic
/// `bench` reports them.
pub fn bench_typed(
    model: Model,
    file: &OsStr,
    rules: Option<&OsStr>,
    limit: Option<usize>,
    repeat: usize,
    stats: bool,
) -> Result<Status, Fail> {
    use super::{Clocks, no_puzzle, note, progress};
    use ruledoku::path::counted;
    use std::io::Write;
    super::input_cli::one_reader_of_stdin(file, rules)?;
    // The set first: a bad set is an error before the input is read.
    let set = match rules {
        Some(spec) => {
            let set = ruledoku::ruleset::load(spec).map_err(|e| e.to_string())?;
            let tset = compile(&set, &model)?;
            Some(tset)
        }
        None => None,
    };
    let model = Arc::new(model);
    let (source, mut recs) = super::input_cli::typed_records(file, &model)?;
    let mut puzzles: Vec<(Arc<Model>, TypedPuzzle)> = Vec::new();
    let mut bad = 0;
    for rec in recs.by_ref() {
        match rec {
            Ok(p) => {
                let instance = if p.signs.is_empty() {
                    model.clone()
                } else {
                    Arc::new(model.with_constraints(&p.signs))
                };
                puzzles.push((instance, p));
            }
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
    let mut o = std::io::stdout().lock();
    match set {
        None => {
            let (mut cpu, mut wall) = (f64::MAX, f64::MAX);
            let mut unique = 0;
            for _ in 0..repeat {
                unique = 0;
                let t = Clocks::start();
                for (m, p) in &puzzles {
                    let live = generic::live_from_givens(m, &p.givens);
                    if matches!(generic::solve(m, &live), Verdict::Unique(_)) {
                        unique += 1;
                    }
                }
                let (c, w) = t.elapsed();
                (cpu, wall) = (cpu.min(c), wall.min(w));
            }
            writeln!(
                o,
                "oracle: {} ({unique} unique) in {cpu:.3} s CPU, {wall:.3} s wall: {:.0} puzzles per CPU-second (best of {repeat}, one thread, generic oracle, type {})",
                counted(n, "puzzle"),
                n as f64 / cpu.max(1e-9),
                model.name()
            )?;
        }
        Some(tset) => {
            let pb = progress(Some(n as u64));
            let opts = Options {
                stats,
                ..Options::default()
            };
            let mut total = vec![RuleStats::default(); tset.rules.len()];
            let mut failed = Vec::new();
            let mut solved = 0;
            let t = Clocks::start();
            for (m, p) in &puzzles {
                match typed::run(m, &tset, &p.givens, opts) {
                    Ok(run) => {
                        if run.stop == StopReason::Solved {
                            solved += 1;
                        }
                        if let Some(st) = &run.stats {
                            total.iter_mut().zip(st).for_each(|(a, b)| a.add(b));
                        }
                    }
                    Err(e) => failed.push(format!("{source}:{}: {}", p.line, e.0)),
                }
                pb.inc(1);
            }
            let (cpu, wall) = t.elapsed();
            pb.finish_and_clear();
            for f in &failed {
                note(f);
            }
            writeln!(
                o,
                "rule set {} on type {}: {} ({solved} solved) in {cpu:.3} s CPU, {wall:.3} s wall: {:.1} puzzles per CPU-second (one thread)",
                tset.name,
                model.name(),
                counted(n, "puzzle"),
                n as f64 / cpu.max(1e-9)
            )?;
            if stats {
                let names = tset.rules.iter().map(|r| r.rule.head.name.as_str());
                write!(o, "{}", ruledoku::path::stats_table_of(names, &total, true))?;
            }
            bad += failed.len();
        }
    }
    o.flush()?;
    Ok(Status::invalid_if(bad > 0))
}

/// A record's puzzle of a type when it can be studied or filtered: read,
/// and with one solution (by the generic oracle); with the model of its
/// own constraints (Futoshiki's signs). Otherwise the message for standard
/// error.
pub fn usable(
    model: &Arc<Model>,
    source: &str,
    rec: Result<TypedPuzzle, InputError>,
) -> Result<(Arc<Model>, TypedPuzzle), String> {
    let p = rec.map_err(|e| e.to_string())?;
    let m = model.clone();
    let instance = if p.signs.is_empty() {
        m
    } else {
        Arc::new(m.with_constraints(&p.signs))
    };
    let live = generic::live_from_givens(&instance, &p.givens);
    match generic::solve(&instance, &live) {
        Verdict::Unique(_) => Ok((instance, p)),
        Verdict::None => Err(format!("{source}:{}: the puzzle has no solution", p.line)),
        Verdict::Multiple { .. } => Err(format!(
            "{source}:{}: the puzzle has several solutions",
            p.line
        )),
    }
}
