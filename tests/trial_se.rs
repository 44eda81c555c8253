//! SE's chaining techniques as trial rules (`rules/se/chaining.rules`),
//! checked against Sudoku Explainer 1.2.1 step by step.
//!
//! `tests/data/se-chaining-steps.tsv` (and `-hard-steps.tsv`, from
//! hard-972 lines 1, 200, 400, 600, 900) hold steps that SE 1.2.1 took on
//! cbg-000 puzzles whose SER is 6.5–9.0 (transcribed from its output):
//! the difficulty, SE's hint name, the placement (if any), the removed
//! candidates and the state before the step as a 729-character pencil-mark
//! line. For each, the first match of the `se-chaining` set on that state
//! must be SE's hint: the same difficulty, placement and eliminations.

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

/// One of SE's steps.
pub struct SeStep {
    pub line: usize,
    pub difficulty: String,
    pub name: String,
    pub placed: String,
    pub removed: String,
    pub pm: String,
}

pub fn steps(file: &str) -> Vec<SeStep> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            SeStep {
                line: i + 1,
                difficulty: f[0].to_string(),
                name: f[1].to_string(),
                placed: f[2].to_string(),
                removed: f[3].to_string(),
                pm: f[4].to_string(),
            }
        })
        .collect()
}

fn cname(z: usize) -> String {
    format!(
        "r{}c{}",
        cell_row(cand_cell(z)) + 1,
        cell_col(cand_cell(z)) + 1
    )
}

/// Our first step on SE's state, in SE's terms: (difficulty, placed, removed).
pub fn ours(set: &ruleset::RuleSet, state: &State) -> Option<(String, String, String, String)> {
    let mut cx = SearchCx::new(None);
    let (_, step) = engine::first_step(set, state, &mut cx, None)?;
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

#[test]
fn se_chaining_first_hints_are_ses() {
    compare("se-chaining-steps.tsv");
}

#[test]
fn se_chaining_first_hints_are_ses_on_hard_puzzles() {
    compare("se-chaining-hard-steps.tsv");
}

fn compare(file: &str) {
    let set = ruleset::load("se-chaining").unwrap();
    let mut bad = Vec::new();
    let all = steps(file);
    for st in &all {
        let state = state_of(&st.pm);
        let got = ours(&set, &state);
        let want = (st.difficulty.clone(), st.placed.clone(), st.removed.clone());
        match got {
            Some((d, p, r, _)) if (d.clone(), p.clone(), r.clone()) == want => {}
            other => bad.push(format!(
                "line {}: SE {} {:?} {:?} {:?}; ours {:?}",
                st.line, st.name, want.0, want.1, want.2, other
            )),
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        all.len(),
        bad.join("\n")
    );
}
