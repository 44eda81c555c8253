//! `--type NAME|FILE.yaml`: the puzzle type a command works on
//! ([`ruledoku::model`]), and `check` on puzzles of any type (the generic
//! oracle). Commands that serve only classic 9×9 Sudoku so far refuse
//! another type with a usage error (exit status 2).

use super::{Fail, Results, Status, no_puzzle, progress};
use ruledoku::input::InputError;
use ruledoku::input::typed::{givens_text, sign_lines};
use ruledoku::model::{self, Model};
use ruledoku::oracle::generic::{self, Verdict};
use ruledoku::path::counted;
use serde_json::json;
use std::ffi::OsStr;
use std::io;
use std::io::Read;

/// The `--type` option.
#[derive(clap::Args, Clone, Default)]
pub struct TypeOpt {
    /// The puzzle type: `sudoku` (classic 9×9, the default), `sudoku:N`
    /// (N = 4, 6, 8, 9, 12, 16, 25, 36, 49), `latin:N`, `pandiagonal:N`,
    /// `futoshiki:N` (N from 2 to 64), or a type file (`.yaml`, see
    /// docs/puzzle-types.md).
    #[arg(long = "type", value_name = "NAME|FILE.yaml")]
    pub puzzle_type: Option<String>,
}

impl TypeOpt {
    /// The type named, or `None` for classic 9×9 Sudoku (the default, or
    /// `sudoku`, `sudoku:9`), which keeps its specialised path.
    pub fn model(&self) -> Result<Option<Model>, Fail> {
        let Some(name) = &self.puzzle_type else {
            return Ok(None);
        };
        if name == FPUZZLES {
            return Err(Fail::Error(
                "--type f-puzzles (each record brings its own type) is read by `check`, `solve`, \
                 `rate` (without the batch options) and `classify` only; this command takes a \
                 type by name or file"
                    .into(),
            ));
        }
        let m = model::load(name).map_err(|e| Fail::Error(format!("--type: {e}")))?;
        Ok((!m.is_classic()).then_some(m))
    }

    /// The type file `--type` names, if it names one.
    pub fn file(&self) -> Option<&std::path::Path> {
        self.puzzle_type
            .as_deref()
            .filter(|t| ruledoku::model::is_type_file(t))
            .map(std::path::Path::new)
    }

    /// Whether a command must take the typed back end: a type other than
    /// classic Sudoku, or one that cannot be loaded (whose error that path
    /// reports).
    pub fn wants_typed(&self) -> bool {
        !matches!(self.model(), Ok(None))
    }
}

/// The `--type` value under which each record is an f-puzzles puzzle
/// with its own type ([`ruledoku::input::fpuzzles`]).
pub const FPUZZLES: &str = "f-puzzles";

impl TypeOpt {
    /// Whether `--type f-puzzles` was given.
    pub fn is_fpuzzles(&self) -> bool {
        self.puzzle_type.as_deref() == Some(FPUZZLES)
    }
}

/// Largest input `check --type f-puzzles` reads (it reads its input
/// whole): 512 MiB.
const MAX_TYPED_INPUT: u64 = 512 << 20;

/// The whole input of `check --type f-puzzles`: a file, or `-` for
/// standard input, read up to [`MAX_TYPED_INPUT`] whatever it is
/// (`/dev/zero`, a pipe that never ends), and refused beyond.
pub fn read_input(file: &OsStr) -> Result<(String, String), Fail> {
    let (name, reader): (String, Box<dyn Read>) = if file == "-" {
        ("<stdin>".to_string(), Box::new(std::io::stdin()))
    } else {
        let name = file.to_string_lossy().into_owned();
        let f = std::fs::File::open(file).map_err(|e| Fail::Error(format!("{name}: {e}")))?;
        (name, Box::new(f))
    };
    let mut bytes = Vec::new();
    reader
        .take(MAX_TYPED_INPUT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Fail::Error(format!("{name}: {e}")))?;
    if bytes.len() as u64 > MAX_TYPED_INPUT {
        return Err(Fail::Error(format!(
            "{name}: more than {MAX_TYPED_INPUT} bytes (512 MiB): `check --type f-puzzles` reads \
             its input whole; split it (e.g. `split -l 1000000`)"
        )));
    }
    Ok((name, String::from_utf8_lossy(&bytes).into_owned()))
}

/// A solution as one line, as the puzzle's text writes givens.
fn solution_text(m: &Model, sol: &[usize]) -> String {
    let cells: Vec<Option<usize>> = sol.iter().map(|&s| Some(s)).collect();
    givens_text(m, &cells)
}

/// The generic oracle's verdict on a puzzle (`unique`, `multiple`,
/// `none`) and a solution when it has one (the first found when several).
fn verdict_of(m: &Model, givens: &[Option<usize>]) -> (&'static str, Option<Vec<usize>>) {
    let live = generic::live_from_givens(m, givens);
    match generic::solve(m, &live) {
        Verdict::None => ("none", None),
        Verdict::Unique(g) => ("unique", Some(g)),
        Verdict::Multiple { first } => ("multiple", Some(first)),
    }
}

/// `check --type T` for a type other than classic Sudoku: the same lines,
/// summary and exit statuses as classic `check`.
pub fn check_typed(
    m: Model,
    file: &OsStr,
    show_solution: bool,
    json: bool,
) -> Result<Status, Fail> {
    let model = std::sync::Arc::new(m);
    let m: &Model = &model;
    let (source, mut recs) = super::input_cli::typed_records(file, &model)?;
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut tally = CheckTally::new(show_solution, json);
    for rec in recs.by_ref() {
        pb.inc(1);
        let p = match rec {
            Ok(p) => p,
            Err(e) => {
                tally.invalid(&mut out, &e)?;
                continue;
            }
        };
        let instance;
        let model = if p.signs.is_empty() {
            m
        } else {
            instance = m.with_constraints(&p.signs);
            &instance
        };
        let (verdict, sol) = verdict_of(model, &p.givens);
        let sol = sol.map(|g| solution_text(m, &g));
        tally.verdict(&mut out, p.line, &p.text, verdict, sol.as_deref())?;
    }
    if let Err(e) = recs.end() {
        // The results so far, then the error (no summary: the input was cut).
        out.finish()?;
        return Err(e.into());
    }
    tally.finish(out, &source)
}

/// `check --type f-puzzles`: one f-puzzles record per line (address,
/// compressed string or JSON), each checked under its own type; blank
/// lines and `#` comments are skipped; a record that cannot be read, or
/// holds a constraint ruledoku does not model, is an invalid line.
pub fn check_fpuzzles(file: &OsStr, show_solution: bool, json: bool) -> Result<Status, Fail> {
    use ruledoku::input::ErrorKind;
    use ruledoku::input::fpuzzles;
    let (source, text) = read_input(file)?;
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut tally = CheckTally::new(show_solution, json);
    for (i, l) in text.lines().enumerate() {
        let no = i + 1;
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        pb.inc(1);
        let read = fpuzzles::read(t);
        let (m, givens) = match read {
            Ok(x) => x,
            Err(message) => {
                let e = InputError {
                    source_name: source.clone(),
                    line: no,
                    column: None,
                    kind: ErrorKind::FPuzzles { message },
                    first_line: no,
                    last_line: no,
                };
                tally.invalid(&mut out, &e)?;
                continue;
            }
        };
        let (verdict, sol) = verdict_of(&m, &givens);
        let sol = sol.map(|g| solution_text(&m, &g));
        tally.verdict(
            &mut out,
            no,
            &givens_text(&m, &givens),
            verdict,
            sol.as_deref(),
        )?;
    }
    tally.finish(out, &source)
}

/// `check`'s counts, and the lines and summary every type's `check` writes
/// alike (classic 9×9 by its bitboard solver, other types by the generic
/// oracle).
pub struct CheckTally {
    json: bool,
    show_solution: bool,
    unique: usize,
    multiple: usize,
    none: usize,
    bad: usize,
}

impl CheckTally {
    pub fn new(show_solution: bool, json: bool) -> CheckTally {
        CheckTally {
            json,
            show_solution,
            unique: 0,
            multiple: 0,
            none: 0,
            bad: 0,
        }
    }

    /// An invalid record: its message on standard error, its line among
    /// the results.
    pub fn invalid(&mut self, out: &mut Results, e: &InputError) -> io::Result<()> {
        self.bad += 1;
        out.message(&e.to_string())?;
        let line = if self.json {
            json!({"line": e.first_line, "puzzle": null, "solutions": "invalid",
                   "error": e.kind.to_string()})
            .to_string()
        } else {
            format!("{} - invalid {}", e.first_line, e.kind)
        };
        out.write(&format!("{line}\n"))
    }

    /// A puzzle's verdict (`unique`, `multiple`, `none`), with a solution
    /// when it has one (the first found when several).
    pub fn verdict(
        &mut self,
        out: &mut Results,
        line: usize,
        text: &str,
        verdict: &str,
        sol: Option<&str>,
    ) -> io::Result<()> {
        match verdict {
            "unique" => self.unique += 1,
            "multiple" => self.multiple += 1,
            _ => self.none += 1,
        }
        let sol = sol.filter(|_| self.show_solution);
        let out_line = if self.json {
            let mut o = json!({"line": line, "puzzle": text, "solutions": verdict});
            if let Some(g) = sol {
                o["solution"] = json!(g);
            }
            o.to_string()
        } else if let Some(g) = sol {
            format!("{line} {text} {verdict} {g}")
        } else {
            format!("{line} {text} {verdict}")
        };
        out.write(&format!("{out_line}\n"))
    }

    /// The summary line, and the exit status: invalid when a record was,
    /// or when the input held no puzzle.
    pub fn finish(self, mut out: Results, source: &str) -> Result<Status, Fail> {
        let (unique, multiple, none, bad) = (self.unique, self.multiple, self.none, self.bad);
        let total = unique + multiple + none;
        if total + bad == 0 {
            out.message(&no_puzzle(source))?;
        }
        let summary = if self.json {
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
        Ok(Status::invalid_if(bad > 0 || total == 0))
    }
}

/// A generated puzzle of type `m` as text: the givens, then (types with
/// signs) the row and column sign lines; and its solution.
pub fn generated_text(m: &Model, g: &ruledoku::generate::TypedGenerated) -> (String, String) {
    let mut puzzle = givens_text(m, &g.puzzle);
    if m.spec.puzzle_signs {
        let (rows, cols) = sign_lines(m.n, g.signs.iter());
        puzzle = format!("{puzzle} {rows} {cols}");
    }
    let cells: Vec<Option<usize>> = g.solution.iter().map(|&s| Some(s)).collect();
    (puzzle, givens_text(m, &cells))
}
