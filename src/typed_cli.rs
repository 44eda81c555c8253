//! `solve --type T` and `rate --type T` for types other than classic 9×9
//! Sudoku: the rule set compiled for the type ([`ruledoku::typed`]), each
//! puzzle checked by the generic oracle (one solution), run, and printed
//! in the classic forms (path, line, CSV, JSON; [`ruledoku::path::TypedRated`]);
//! `--verify` checks every step against the solution; `solve --svg DIR`
//! and `--html FILE` draw the steps ([`ruledoku::draw::typed`]).

use super::type_cli::read_input;
use super::{Fail, HtmlPage, Results, Status, no_puzzle, progress};
use ruledoku::draw::{self, typed::TypedPictures};
use ruledoku::engine::Limits;
use ruledoku::input::typed::{TypedPuzzle, parse_typed};
use ruledoku::model::Model;
use ruledoku::oracle::generic::{self, Verdict};
use ruledoku::path::{self, Rejected, TypedRated, Unrated, counted};
use ruledoku::ruleset::{RuleSet, Strategy};
use ruledoku::search::ConclusionKind;
use ruledoku::typed::{self, TypedRun, TypedSet, engine::Options};
use std::ffi::OsStr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The output form.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Path,
    Line,
    Csv,
    Json,
}

/// What one typed `solve`/`rate` command runs.
pub struct TypedJob<'a> {
    pub set: &'a RuleSet,
    pub limits: Limits,
    pub form: Form,
    pub time: bool,
    pub verify: bool,
    pub jobs: usize,
    /// `--svg DIR`: draw each step there.
    pub svg: Option<&'a Path>,
    /// `--html`: render each record's section of the page, unless the
    /// page is full (the flag; set by [`solve_typed`]).
    pub html: Option<&'a AtomicBool>,
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
}

/// What one record gives: its output, a message for standard error, and
/// whether it was rated and right.
struct Outcome {
    line: usize,
    stdout: String,
    stderr: Option<String>,
    rejected: bool,
    wrong: Option<String>,
    /// With `--html`: the record's section of the page.
    html: Option<String>,
    /// An error that ends the command (a picture that cannot be written).
    fatal: Option<String>,
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

/// `solve`/`rate` on puzzles of type `m` read from `file`; `page`: the
/// `--html` page to write and its largest size in bytes.
pub fn solve_typed(
    m: Model,
    file: &OsStr,
    job: TypedJob,
    page: Option<(&Path, u64)>,
) -> Result<Status, Fail> {
    let tset = compile(job.set, &m).map_err(Fail::Error)?;
    let (source, text) = input_text(file)?;
    let page_full = AtomicBool::new(false);
    let mut page = match page {
        Some((path, most)) => {
            let head = draw::html::typed_header(&source, &m);
            Some(HtmlPage::with_head(path, head, most, &page_full)?)
        }
        None => None,
    };
    let job = &TypedJob {
        html: page.is_some().then_some(&page_full),
        ..job
    };
    let model = Arc::new(m);
    let records = parse_typed(&model, &source, &text);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let pb = progress(Some(records.len() as u64));
    let mut out = Results::new(&pb);
    if job.form == Form::Csv {
        out.write(&format!("{}\n", path::csv_header(job.time)))?;
    }
    let (mut seen, mut bad, mut wrong, mut rated) = (0usize, 0usize, 0usize, 0usize);
    let chunk = if job.jobs <= 1 { 1 } else { 8 * job.jobs };
    for part in records.chunks(chunk) {
        let outcomes: Vec<Outcome> = if job.jobs <= 1 {
            part.iter()
                .map(|r| one(&model, &tset, &source, r, job))
                .collect()
        } else {
            use rayon::prelude::*;
            pool.install(|| {
                part.par_iter()
                    .map(|r| one(&model, &tset, &source, r, job))
                    .collect()
            })
        };
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
            if let Some(msg) = &o.stderr {
                out.message(msg)?;
            }
            if o.rejected {
                bad += 1;
            } else {
                rated += 1;
            }
            if let Some(msg) = &o.wrong {
                wrong += 1;
                out.message(msg)?;
            }
            if o.stdout.is_empty() {
                continue;
            }
            if job.form == Form::Path && seen > 0 {
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
    if records.is_empty() {
        out.message(&no_puzzle(&source))?;
    }
    if job.verify {
        out.message(&format!(
            "verify: {} checked, {wrong} with a wrong step",
            counted(rated, "puzzle")
        ))?;
    }
    out.finish()?;
    let verdict = if wrong > 0 {
        Status::Verdict
    } else {
        Status::Done
    };
    Ok(verdict.and(Status::invalid_if(bad > 0 || records.is_empty())))
}

/// The input: a file, `-` for standard input, or a puzzle written on the
/// command line (an argument that names no file and holds no `/`).
fn input_text(arg: &OsStr) -> Result<(String, String), Fail> {
    if arg.is_empty() {
        return Err(Fail::Error(
            "the input is empty: give a puzzle, a file, or `-` for standard input".into(),
        ));
    }
    if arg != "-"
        && let Some(text) = arg.to_str()
        && !text.contains('/')
        && std::fs::symlink_metadata(arg).is_err()
    {
        return Ok(("<arg>".to_string(), text.to_string()));
    }
    if std::fs::metadata(arg).is_ok_and(|m| m.is_dir()) {
        return Err(Fail::Error(format!(
            "{}: is a directory",
            std::path::Path::new(arg).display()
        )));
    }
    read_input(arg)
}

/// One record: checked, run, rendered.
fn one(
    model: &Arc<Model>,
    tset: &TypedSet,
    source: &str,
    rec: &Result<TypedPuzzle, ruledoku::input::InputError>,
    job: &TypedJob,
) -> Outcome {
    let p = match rec {
        Ok(p) => p,
        Err(e) => {
            let why = e.kind.to_string();
            return rejected(
                job,
                e.first_line,
                None,
                Unrated::Invalid,
                &why,
                e.to_string(),
            );
        }
    };
    let instance = if p.signs.is_empty() {
        model.clone()
    } else {
        Arc::new(model.with_constraints(&p.signs))
    };
    let live = generic::live_from_givens(&instance, &p.givens);
    let solution = match generic::solve(&instance, &live) {
        Verdict::Unique(s) => s,
        Verdict::None => {
            let e = "the puzzle has no solution";
            let msg = format!("{source}:{}: {e}", p.line);
            return rejected(job, p.line, Some(&p.text), Unrated::NoSolution, e, msg);
        }
        Verdict::Multiple { .. } => {
            let e = "the puzzle has several solutions";
            let msg = format!("{source}:{}: {e}", p.line);
            return rejected(
                job,
                p.line,
                Some(&p.text),
                Unrated::MultipleSolutions,
                e,
                msg,
            );
        }
    };
    let opts = Options {
        limits: job.limits,
        patterns: matches!(job.form, Form::Path | Form::Json) || job.pictures(),
        max_memory: None,
        pictures: job.pictures(),
    };
    let run = match typed::run(&instance, tset, &p.givens, opts) {
        Ok(run) => run,
        Err(e) => {
            let msg = format!("{source}:{}: {}", p.line, e.0);
            return rejected(job, p.line, Some(&p.text), Unrated::Invalid, &e.0, msg);
        }
    };
    let wrong = job
        .verify
        .then(|| first_wrong(&instance, &run, &solution))
        .flatten()
        .map(|w| format!("{source}:{}: {w}", p.line));
    let r = TypedRated {
        line: p.line,
        puzzle: &p.text,
        model: &instance,
        set_name: &tset.name,
        rules: tset.rules.len(),
        run: &run,
        time: job.time,
    };
    let stdout = match job.form {
        Form::Path => r.path(),
        Form::Line => r.line(),
        Form::Csv => r.csv(),
        Form::Json => r.json(),
    };
    let pictures = job
        .pictures()
        .then(|| TypedPictures::new(&instance, &p.givens));
    let fatal = match (&pictures, job.svg) {
        (Some(pics), Some(dir)) => {
            draw::write_figures(dir, p.line, pics.step_figures(p.line, &run)).err()
        }
        _ => None,
    };
    let html = match &pictures {
        Some(pics) if job.drawn() => {
            let path = if job.form == Form::Path {
                stdout.clone()
            } else {
                r.path()
            };
            Some(pics.section(p.line, &p.text, &tset.name, &run, &path))
        }
        _ => None,
    };
    Outcome {
        line: p.line,
        stdout,
        stderr: None,
        rejected: false,
        wrong,
        html,
        fatal,
    }
}

/// The first step of `run` that concludes against the puzzle's solution
/// (`solution[cell]` = symbol), as a message.
fn first_wrong(m: &Model, run: &TypedRun, solution: &[usize]) -> Option<String> {
    for (i, s) in run.steps.iter().enumerate() {
        for &z in &s.conclusions {
            let true_cand = solution[m.cand_cell(z)] == m.cand_symbol(z);
            let ok = match s.kind {
                ConclusionKind::Assert => true_cand,
                ConclusionKind::Eliminate => !true_cand,
            };
            if !ok {
                return Some(format!(
                    "wrong step {} ({}): {}",
                    i + 1,
                    s.rule.head.name,
                    s.text(m)
                ));
            }
        }
    }
    None
}

/// A record that is not rated, in the chosen form (nothing on standard
/// output for a text path), with its message.
fn rejected(
    job: &TypedJob,
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
        time: job.time,
    };
    let stdout = match job.form {
        Form::Path => String::new(),
        Form::Line => r.line(),
        Form::Csv => r.csv(),
        Form::Json => r.json(),
    };
    Outcome {
        line,
        stdout,
        stderr: Some(message),
        rejected: true,
        wrong: None,
        html: job
            .drawn()
            .then(|| draw::html::rejected_section(line, puzzle, error)),
        fatal: None,
    }
}
