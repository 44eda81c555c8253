//! The `generate` command: random minimal puzzles
//! ([`ruledoku::generate`]), one line per puzzle, in index order, with
//! JSON and CSV forms.

use super::{Fail, Results, Status, count, note, positive, progress, worker_threads};
use rayon::prelude::*;
use ruledoku::generate::{Generated, generate, generate_killer, generate_typed, line};
use ruledoku::model::Model;
use serde_json::json;

/// Puzzles made per batch of the workers (written, in order, before the
/// next batch starts).
const BATCH: u64 = 256;

#[derive(clap::Args)]
pub struct GenerateArgs {
    /// How many puzzles (1 or more).
    #[arg(short = 'n', long, value_name = "N", default_value = "1", value_parser = positive, allow_negative_numbers = true)]
    count: usize,
    /// The seed: the same seed gives the same puzzles (default: one from
    /// the clock, printed on standard error so that the run can be made
    /// again).
    #[arg(long, value_name = "S", value_parser = seed, allow_negative_numbers = true)]
    seed: Option<u64>,
    /// The index of the first puzzle (default 0): puzzle i of a seed is the
    /// same in every run, so `--start 1000 -n 1000` makes the second
    /// thousand of `-n 2000`.
    #[arg(long, value_name = "K", default_value = "0", value_parser = seed, allow_negative_numbers = true)]
    start: u64,
    /// Print the solution after each puzzle (text: `PUZZLE SOLUTION`).
    #[arg(long)]
    solution: bool,
    /// One JSON object per puzzle: index, seed, puzzle, solution, clues.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// CSV: a header line, then index, seed, puzzle, solution, clues.
    #[arg(long)]
    csv: bool,
    /// Each puzzle as an f-puzzles address (`https://f-puzzles.com/?load=…`:
    /// its size, givens, regions and variant rules), which
    /// `check --type f-puzzles` reads back.
    #[arg(long = "f-puzzles", conflicts_with_all = ["json", "csv", "solution"])]
    f_puzzles: bool,
    /// Killer puzzles: random cages over a random solution grid of the
    /// type (classic Sudoku by default), no givens, drawn again until the
    /// cages give one solution. Each puzzle brings its cages: written with
    /// `--f-puzzles` (an address) or `--json` (with a `cages` list).
    #[arg(long, conflicts_with_all = ["csv", "solution"])]
    killer: bool,
    /// Worker threads (default: one per available core).
    #[arg(long, short = 'j', value_name = "N", value_parser = count, allow_negative_numbers = true)]
    jobs: Option<usize>,
    #[command(flatten)]
    ty: crate::type_cli::TypeOpt,
}

/// A seed or an index: a whole number that fits 64 bits.
fn seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse()
        .map_err(|_| "expected a whole number from 0 to 18446744073709551615".to_string())
}

/// One output line (with its line end) of puzzle `index`; `export` is the
/// classic type's model when the puzzle is written for f-puzzles.
fn render(
    args: &GenerateArgs,
    seed: u64,
    index: u64,
    g: &Generated,
    export: Option<&Model>,
) -> String {
    if let Some(m) = export {
        let givens: Vec<Option<usize>> = g
            .puzzle
            .iter()
            .map(|&d| (d != 0).then(|| d as usize - 1))
            .collect();
        return fpuzzles_line(m, &givens);
    }
    let (puzzle, solution) = (line(&g.puzzle), line(&g.solution));
    render_text(args, seed, index, &puzzle, &solution, g.clues())
}

/// One output line of puzzle `index` of a type other than classic Sudoku.
fn render_typed(args: &GenerateArgs, m: &Model, seed: u64, index: u64) -> String {
    let g = generate_typed(m, seed, index);
    if args.f_puzzles {
        return fpuzzles_line(m, &g.puzzle);
    }
    let (puzzle, solution) = crate::type_cli::generated_text(m, &g);
    render_text(args, seed, index, &puzzle, &solution, g.clues())
}

/// One output line of killer puzzle `index` over type `m`
/// ([`generate_killer`]): an f-puzzles address, or a JSON object with
/// the cages (cells named `rYcX`, sums) and how many sets of cages were
/// drawn.
fn render_killer(args: &GenerateArgs, m: &Model, seed: u64, index: u64) -> String {
    let g = generate_killer(m, seed, index);
    let empty = vec![None; m.n_cells];
    if args.f_puzzles {
        return fpuzzles_line(&g.model, &empty);
    }
    let typed = ruledoku::generate::TypedGenerated {
        puzzle: empty,
        solution: g.solution.clone(),
        signs: Vec::new(),
    };
    let (puzzle, solution) = crate::type_cli::generated_text(&g.model, &typed);
    let cages: Vec<serde_json::Value> = g
        .cages
        .iter()
        .map(|(cells, sum)| {
            let names: Vec<String> = cells.iter().map(|&c| m.cell_name(c)).collect();
            json!({"cells": names.join(" "), "sum": sum})
        })
        .collect();
    let v = json!({
        "index": index,
        "seed": seed,
        "puzzle": puzzle,
        "solution": solution,
        "clues": 0,
        "cages": cages,
        "tries": g.tries,
    });
    format!("{v}\n")
}

/// A puzzle's f-puzzles address, as a line (the type was checked to be
/// writable before the run).
fn fpuzzles_line(m: &Model, givens: &[Option<usize>]) -> String {
    let url = ruledoku::input::fpuzzles::to_url(m, givens)
        .expect("a type checked writable writes every puzzle");
    format!("{url}\n")
}

/// One output line, from the puzzle's and the solution's text.
fn render_text(
    args: &GenerateArgs,
    seed: u64,
    index: u64,
    puzzle: &str,
    solution: &str,
    clues: usize,
) -> String {
    if args.json {
        let v = json!({
            "index": index,
            "seed": seed,
            "puzzle": puzzle,
            "solution": solution,
            "clues": clues,
        });
        format!("{v}\n")
    } else if args.csv {
        format!("{index},{seed},{puzzle},{solution},{clues}\n")
    } else if args.solution {
        format!("{puzzle} {solution}\n")
    } else {
        format!("{puzzle}\n")
    }
}

/// Runs `generate`; [`Status::Done`] when every puzzle was written.
pub fn generate_cmd(args: &GenerateArgs) -> Result<Status, Fail> {
    let mut model = args.ty.model()?;
    if args.killer {
        if !args.f_puzzles && !args.json {
            return Err(Fail::Error(
                "generate --killer writes each puzzle with its cages: add --f-puzzles or --json"
                    .into(),
            ));
        }
        if model.is_none() {
            model = Some(Model::build(
                ruledoku::model::builtin::builtin("sudoku").expect("the classic type is built in"),
            ));
        }
    }
    if let Some(m) = &model {
        let full = ruledoku::model::DynBits::full(m.n_cands);
        if ruledoku::oracle::generic::count_solutions(m, &full, 1) == 0 {
            return Err(Fail::Error(format!(
                "type {} has no solution grid (its houses and constraints contradict each \
                 other): no puzzle can be generated",
                m.name()
            )));
        }
    }
    let classic_export = if args.f_puzzles && !args.killer {
        let m = match &model {
            Some(m) => m.clone(),
            None => Model::build(
                ruledoku::model::builtin::builtin("sudoku").expect("the classic type is built in"),
            ),
        };
        let empty = vec![None; m.n * m.n];
        ruledoku::input::fpuzzles::to_url(&m, &empty)
            .map_err(|e| Fail::Error(format!("--f-puzzles: {e}")))?;
        model.is_none().then_some(m)
    } else {
        None
    };
    let seed = match args.seed {
        Some(s) => s,
        None => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            note(&format!("generate: seed {now}"));
            now
        }
    };
    let n = args.count as u64;
    let Some(end) = args.start.checked_add(n) else {
        return Err(Fail::Error(format!(
            "--start {} with -n {n} goes beyond the last index, {}",
            args.start,
            u64::MAX
        )));
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(worker_threads(Some(args.jobs.unwrap_or(0))))
        .build()
        .map_err(|e| e.to_string())?;
    let pb = progress(Some(n));
    let mut out = Results::new(&pb);
    if args.csv {
        out.write("index,seed,puzzle,solution,clues\n")?;
    }
    let mut from = args.start;
    while from < end {
        let to = end.min(from.saturating_add(BATCH));
        let lines: Vec<String> = pool.install(|| {
            (from..to)
                .into_par_iter()
                .map(|i| match &model {
                    None => render(args, seed, i, &generate(seed, i), classic_export.as_ref()),
                    Some(m) if args.killer => render_killer(args, m, seed, i),
                    Some(m) => render_typed(args, m, seed, i),
                })
                .collect()
        });
        for l in &lines {
            out.write(l)?;
        }
        pb.inc(to - from);
        from = to;
    }
    out.finish()?;
    pb.finish_and_clear();
    Ok(Status::Done)
}
