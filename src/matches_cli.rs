//! `ruledoku rules matches`: every match of each rule of a set at each
//! input state, none applied. A run applies only the first match of the
//! simplest rule that has one; to compare a technique with another
//! solver's (HoDoKu's "find all steps"), or to see everything one rule
//! concludes at one state, this lists them all: per record, per rule with
//! a match, the number of matches and the union of their conclusions.
//! With `--after SET`, each record is first run with SET to where it
//! stops, and that state is the one searched. `--stats` gives each rule's
//! CPU time per search (the thread's clock: run with `-j 1` on a loaded
//! machine). A search for every match cannot stop at its first, so each
//! search has limits (`--max-seconds`, `--max-memory`); one stopped by a
//! limit is reported as such, with the matches it found until then.

use super::study_cli::{each_record, mebibytes};
use super::{Fail, Results, Status, count, no_puzzle, note, note_text, progress, records};
use ruledoku::engine::{Limits, Matcher, Runner, StopReason};
use ruledoku::grid::bits::Bits;
use ruledoku::grid::geometry::cand;
use ruledoku::grid::state::State;
use ruledoku::path::{conclusion_text, counted};
use ruledoku::ruleset;
use ruledoku::search::{ConclusionKind, Stop};
use serde_json::json;
use std::ffi::OsString;
use std::time::Duration;

#[derive(clap::Args)]
pub struct MatchesArgs {
    /// The rules whose matches are listed: a rule set, a set file, a
    /// .rules file or a folder, or several joined by `+` (as `--rules`
    /// names them on the other commands).
    #[arg(long, value_name = "SET")]
    rules: OsString,
    /// Run each record with this set first (to solved, stuck or a
    /// contradiction) and list the matches at the state it stops at. A
    /// solved or contradictory record has no state to search and is
    /// reported as such, as is one whose run is stopped by `--max-seconds`
    /// or `--max-memory` (`time-limit`, `memory-limit`).
    #[arg(long, value_name = "SET")]
    after: Option<OsString>,
    /// A puzzle file (or anything readable), a puzzle, or `-` for standard
    /// input. A pencil-mark record's cells of one candidate are taken as
    /// decided (their value placed) and, with the givens, as the puzzle's
    /// givens, unless `--after` places them.
    input: OsString,
    /// One JSON object per record: its line, the puzzle, its givens, the
    /// state searched (729 pencil marks), and per rule with a match (or
    /// stopped by a limit: `"stopped"`) its matches and conclusions.
    #[arg(long)]
    json: bool,
    /// After the records, a table per rule on standard error: states
    /// searched, searches stopped by a limit, states with a match, matches,
    /// conclusions, search nodes, and CPU milliseconds per search.
    #[arg(long)]
    stats: bool,
    /// Leave the time columns out of the `--stats` table (so that outputs
    /// can be compared with diff).
    #[arg(long)]
    no_time: bool,
    /// Stop each rule's search at a state after this many seconds (and the
    /// `--after` run of a record): the rule is reported `stopped` with the
    /// matches found until then. Default: no limit.
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds, allow_negative_numbers = true)]
    max_seconds: Option<Duration>,
    /// The memory the searches of all workers may hold together, in MiB
    /// (each worker has its share): a search that would hold more stops,
    /// and the rule is reported `stopped` with the matches found until
    /// then. All the whips of a hard state may need gigabytes.
    #[arg(long, value_name = "MIB", default_value = "512", value_parser = mebibytes, allow_negative_numbers = true)]
    max_memory: usize,
    /// Worker threads (default: one per available core). CPU times are
    /// measured per thread; `-j 1` keeps them from sharing a core.
    #[arg(long, short = 'j', value_name = "N", value_parser = count, allow_negative_numbers = true)]
    jobs: Option<usize>,
}

/// What one rule matched at one state.
struct RuleHits {
    rule: usize,
    matches: usize,
    elim: Bits,
    assert: Bits,
    /// The search was stopped by a limit (its matches are those found
    /// until then).
    stop: Option<Stop>,
}

/// What one rule's searches cost at one state.
#[derive(Clone, Copy, Default)]
struct Cost {
    nodes: u64,
    cpu: f64,
}

/// One record's outcome.
enum Searched {
    /// The `--after` run ended the record (solved, or a contradiction), or
    /// was stopped by a limit (`stopped`).
    Ended { why: &'static str, stopped: bool },
    Hits {
        givens: Bits,
        state: Box<State>,
        hits: Vec<RuleHits>,
        costs: Vec<Cost>,
    },
}

/// Per-rule totals for `--stats`.
#[derive(Clone, Copy, Default)]
struct Total {
    searches: u64,
    states_hit: u64,
    matches: u64,
    conclusions: u64,
    nodes: u64,
    cpu: f64,
    /// Searches stopped by a limit.
    stopped: u64,
}

fn texts(kind: ConclusionKind, b: &Bits) -> Vec<String> {
    b.iter().map(|z| conclusion_text(kind, z)).collect()
}

/// The givens' 81 characters (`.` for a cell that is not given).
fn givens_line(givens: &Bits) -> String {
    let mut g = vec![b'.'; 81];
    for z in givens.iter() {
        g[z / 9] = b'1' + (z % 9) as u8;
    }
    String::from_utf8(g).expect("digits and dots")
}

pub fn matches(args: &MatchesArgs) -> Result<Status, Fail> {
    super::input_cli::one_reader_of_stdin(&args.input, Some(&args.rules))?;
    let set = ruleset::load(&args.rules).map_err(|e| e.to_string())?;
    let after = args
        .after
        .as_deref()
        .map(|a| ruleset::load(a).map_err(|e| e.to_string()))
        .transpose()?;
    if set.rules.is_empty() {
        return Err(Fail::Error(format!(
            "`{}` has no rule for classic Sudoku",
            std::path::Path::new(&args.rules).display()
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(super::worker_threads(Some(args.jobs.unwrap_or(0))))
        .build()
        .map_err(|e| e.to_string())?;
    let workers = pool.current_num_threads().max(1);
    let max_memory = Some(args.max_memory / workers);
    let (source, mut recs) = records(&args.input)?;
    let pb = progress(None);
    let mut out = Results::new(&pb);
    let mut totals = vec![Total::default(); set.rules.len()];
    let (mut searched, mut ended, mut after_stopped, mut bad) = (0usize, 0usize, 0usize, 0usize);
    let work = |p: &ruledoku::input::Puzzle| -> Searched {
        let mut state = State::from_masks(&p.masks, &p.givens);
        if let Some(a) = &after {
            let run = Runner::new(a)
                .limits(Limits {
                    max_steps: None,
                    max_time: args.max_seconds,
                    max_memory: None,
                    max_cpu: None,
                })
                .max_memory(max_memory)
                .tally(state);
            match run.stop {
                StopReason::Solved | StopReason::Contradiction => {
                    return Searched::Ended {
                        why: run.stop.name(),
                        stopped: false,
                    };
                }
                StopReason::TimeLimit | StopReason::MemoryLimit | StopReason::StepLimit => {
                    return Searched::Ended {
                        why: run.stop.name(),
                        stopped: true,
                    };
                }
                StopReason::Stuck => {}
            }
            // The run's givens are the values it started from.
            let givens = State::from_masks(&p.masks, &p.givens).values;
            state = run.state;
            return search(&set.rules, givens, state, args.max_seconds, max_memory);
        }
        if p.format.is_candidates() {
            for c in 0..81 {
                let m = p.masks[c];
                if m.count_ones() == 1
                    && !state.values.contains(cand(c, m.trailing_zeros() as usize))
                {
                    state.assert(cand(c, m.trailing_zeros() as usize));
                }
            }
        }
        search(
            &set.rules,
            state.values,
            state,
            args.max_seconds,
            max_memory,
        )
    };
    each_record(&pool, &mut recs, &source, &mut out, work, |out, r| {
        pb.inc(1);
        let (p, s) = match r {
            Err(msg) => {
                bad += 1;
                return Ok(out.message(&msg)?);
            }
            Ok(x) => x,
        };
        let (givens, state, hits, costs) = match s {
            Searched::Ended { why, stopped } => {
                if stopped {
                    after_stopped += 1;
                } else {
                    ended += 1;
                }
                let line = if args.json {
                    json!({"line": p.line, "puzzle": p.text, "ended": why}).to_string()
                } else {
                    format!("{} ended: {why}", p.line)
                };
                return Ok(out.write(&format!("{line}\n"))?);
            }
            Searched::Hits {
                givens,
                state,
                hits,
                costs,
            } => (givens, state, hits, costs),
        };
        searched += 1;
        for (t, c) in totals.iter_mut().zip(&costs) {
            t.searches += 1;
            t.nodes += c.nodes;
            t.cpu += c.cpu;
        }
        for h in &hits {
            let t = &mut totals[h.rule];
            t.stopped += u64::from(h.stop.is_some());
            if h.matches == 0 {
                continue;
            }
            t.states_hit += 1;
            t.matches += h.matches as u64;
            t.conclusions += (h.elim.len() + h.assert.len()) as u64;
        }
        if args.json {
            let rules: Vec<_> = hits
                .iter()
                .map(|h| {
                    let mut o = json!({
                        "rule": set.rules[h.rule].head.name,
                        "matches": h.matches,
                        "eliminations": texts(ConclusionKind::Eliminate, &h.elim),
                        "assertions": texts(ConclusionKind::Assert, &h.assert),
                    });
                    if let Some(stop) = h.stop {
                        o["stopped"] = stop.name().into();
                    }
                    o
                })
                .collect();
            let line = json!({
                "line": p.line,
                "puzzle": p.text,
                "givens": givens_line(&givens),
                "state": state.pencil_marks(),
                "rules": rules,
            });
            Ok(out.write(&format!("{line}\n"))?)
        } else {
            let mut text = String::new();
            for h in &hits {
                let mut c = texts(ConclusionKind::Eliminate, &h.elim);
                c.extend(texts(ConclusionKind::Assert, &h.assert));
                let count = match h.matches {
                    0 => "no match".to_string(),
                    1 => "1 match".to_string(),
                    n => format!("{n} matches"),
                };
                let stopped = h
                    .stop
                    .map_or(String::new(), |s| format!(" (stopped: {})", s.name()));
                text += &format!(
                    "{} {} {count}{stopped}{}{}\n",
                    p.line,
                    set.rules[h.rule].head.name,
                    if c.is_empty() { "" } else { ": " },
                    c.join(", ")
                );
            }
            Ok(out.write(&text)?)
        }
    })?;
    if let Err(e) = recs.end() {
        out.finish()?;
        return Err(e.into());
    }
    out.finish()?;
    if searched + ended + after_stopped == 0 {
        note(&if bad == 0 {
            no_puzzle(&source)
        } else {
            format!("{source}: no record could be searched")
        });
        return Ok(Status::Invalid);
    }
    note(&format!(
        "{}: {} searched{}{}{}{}",
        set.name,
        counted(searched, "state"),
        if ended > 0 {
            format!(", {ended} ended by --after (solved or contradictory)")
        } else {
            String::new()
        },
        if after_stopped > 0 {
            format!(", {after_stopped} whose --after run was stopped by a limit")
        } else {
            String::new()
        },
        match totals.iter().map(|t| t.stopped).sum::<u64>() {
            0 => String::new(),
            1 => ", 1 search stopped by a limit".to_string(),
            n => format!(", {n} searches stopped by a limit"),
        },
        if bad > 0 {
            format!(", {} not usable", counted(bad, "record"))
        } else {
            String::new()
        },
    ));
    if args.stats {
        let mut t = format!(
            "{:<34} {:>8} {:>8} {:>8} {:>8} {:>11} {:>12}{}\n",
            "rule",
            "searches",
            "stopped",
            "states",
            "matches",
            "conclusions",
            "nodes",
            if args.no_time {
                String::new()
            } else {
                format!(" {:>10} {:>9}", "cpu s", "ms/search")
            }
        );
        for (r, x) in set.rules.iter().zip(&totals) {
            t += &format!(
                "{:<34} {:>8} {:>8} {:>8} {:>8} {:>11} {:>12}{}\n",
                r.head.name,
                x.searches,
                x.stopped,
                x.states_hit,
                x.matches,
                x.conclusions,
                x.nodes,
                if args.no_time {
                    String::new()
                } else {
                    format!(
                        " {:>10.3} {:>9.3}",
                        x.cpu,
                        1e3 * x.cpu / x.searches.max(1) as f64
                    )
                }
            );
        }
        note_text(&t);
    }
    Ok(Status::invalid_if(bad > 0))
}

/// Every rule's matches at `state`, with what each search cost.
fn search(
    rules: &[std::sync::Arc<ruledoku::rule::Rule>],
    givens: Bits,
    state: State,
    per_search: Option<Duration>,
    max_memory: Option<usize>,
) -> Searched {
    let mut m = Matcher::new(rules, givens).limits(per_search, max_memory);
    let mut hits = Vec::new();
    let mut costs = Vec::with_capacity(rules.len());
    for (i, r) in rules.iter().enumerate() {
        let t0 = super::thread_cpu_seconds();
        let (found, nodes) = m.matches(r, &state);
        costs.push(Cost {
            nodes,
            cpu: super::thread_cpu_seconds() - t0,
        });
        if found.count == 0 && found.stop.is_none() {
            continue;
        }
        hits.push(RuleHits {
            rule: i,
            matches: found.count,
            elim: found.eliminated,
            assert: found.asserted,
            stop: found.stop,
        });
    }
    Searched::Hits {
        givens,
        state: Box::new(state),
        hits,
        costs,
    }
}
