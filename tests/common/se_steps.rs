//! Sudoku Explainer's steps as the SE tests transcribe them
//! (`tests/data/se-*-steps.tsv`, `se-*-hints.tsv`): the state of a
//! pencil-mark line, and our first step on it in SE's terms.

use ruledoku::engine;
use ruledoku::grid::geometry::*;
use ruledoku::grid::state::State;
use ruledoku::ruleset;
use ruledoku::search::{ConclusionKind, SearchCx};

/// A state from a pencil-mark line in which SE's solved cells are the
/// cells with one candidate.
pub fn state_of(pm: &str) -> State {
    let b = pm.as_bytes();
    assert_eq!(b.len(), 729, "{pm}");
    let mut s = State::empty_grid();
    s.cands = Default::default();
    for (z, &ch) in b.iter().enumerate() {
        if ch != b'.' {
            s.cands.insert(z);
        }
    }
    for c in 0..N_CELLS {
        let live: Vec<usize> = (0..9)
            .map(|d| cand(c, d))
            .filter(|&z| s.cands.contains(z))
            .collect();
        if live.len() == 1 {
            s.assert(live[0]);
        }
    }
    s
}

/// One of SE's steps (or first hints), as transcribed in `tests/data`.
pub struct SeStep {
    pub line: usize,
    pub difficulty: String,
    pub name: String,
    pub placed: String,
    pub removed: String,
    pub pm: String,
}

/// The steps of a file of `tests/data`: tab-separated difficulty, hint
/// name, placement, removed candidates and pencil marks, `extra` columns
/// (e.g. SE's complexity) between the difficulty and the name.
pub fn steps(file: &str, extra: usize) -> Vec<SeStep> {
    std::fs::read_to_string(super::data(file))
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            SeStep {
                line: i + 1,
                difficulty: f[0].to_string(),
                name: f[1 + extra].to_string(),
                placed: f[2 + extra].to_string(),
                removed: f[3 + extra].to_string(),
                pm: f[4 + extra].to_string(),
            }
        })
        .collect()
}

pub fn cname(z: usize) -> String {
    format!(
        "r{}c{}",
        cell_row(cand_cell(z)) + 1,
        cell_col(cand_cell(z)) + 1
    )
}

/// Our first step on SE's state, in SE's terms: (difficulty, placed,
/// removed), and the step's text.
pub fn ours(set: &ruleset::RuleSet, state: &State) -> Option<(String, String, String, String)> {
    let mut cx = SearchCx::new(None);
    let (_, step) = engine::first_step(set, state, &mut cx)?;
    let (placed, mut removed): (String, Vec<String>) = match step.kind {
        ConclusionKind::Assert => {
            let z = step.conclusions[0];
            let others = (0..9)
                .map(|d| cand(cand_cell(z), d))
                .filter(|&y| y != z && state.cands.contains(y))
                .map(|y| format!("{}-{}", cname(y), cand_digit(y) + 1))
                .collect();
            (format!("{}={}", cname(z), cand_digit(z) + 1), others)
        }
        ConclusionKind::Eliminate => (
            String::new(),
            step.conclusions
                .iter()
                .map(|&y| format!("{}-{}", cname(y), cand_digit(y) + 1))
                .collect(),
        ),
    };
    removed.sort();
    Some((
        step.grade.level.to_string(),
        placed,
        removed.join(" "),
        step.text(),
    ))
}

/// The SE rating of a puzzle by `set` (no limits, no early exit), every
/// step of its run checked against the solution; `what` names the puzzle
/// in a failure.
pub fn rate_checked(set: &ruleset::RuleSet, puzzle: &str, what: &str) -> ruledoku::serate::SeRun {
    use ruledoku::oracle::referee::Referee;
    let p = ruledoku::input::parse_puzzle(puzzle).unwrap();
    let referee = Referee::new(&p.masks).unwrap();
    let se = ruledoku::serate::run(
        set,
        State::from_masks(&p.masks, &p.givens),
        engine::Limits::default(),
        ruledoku::serate::Bounds::default(),
        false,
    );
    if let Err(e) = referee.check_run(&se.run) {
        panic!("{what} {puzzle}: {e}");
    }
    se
}
