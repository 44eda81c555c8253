//! SE's dynamic forcing chains (+) and nested forcing chains
//! (`rules/se/nested.rules`, branches applying `rules/se/branch.rules`),
//! checked against Sudoku Explainer 1.2.1 producer by producer.
//!
//! `tests/data/se-dynamic-plus-hints.tsv` holds, for states taken from
//! SE's own paths (the states of `se-chaining-steps.tsv` and
//! `se-chaining-hard-steps.tsv`), the first hint SE 1.2.1's dynamic
//! forcing chains (+) producer gives there (transcribed from its output):
//! difficulty, complexity, hint name, placement, removed candidates and the
//! state as a 729-character pencil-mark line. Our rule alone, on the same
//! state, must give the same difficulty, placement and eliminations.

use ruledoku::engine;
use ruledoku::grid::geometry::*;
use ruledoku::grid::state::State;
use ruledoku::ruleset;
use ruledoku::search::{ConclusionKind, SearchCx};

/// A state from a pencil-mark line in which SE's solved cells are the
/// cells with one candidate.
fn state_of(pm: &str) -> State {
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

/// One of SE's hints: (line, difficulty, name, placed, removed, state).
struct Hint {
    line: usize,
    difficulty: String,
    name: String,
    placed: String,
    removed: String,
    pm: String,
}

fn hints(file: &str) -> Vec<Hint> {
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
            Hint {
                line: i + 1,
                difficulty: f[0].to_string(),
                name: f[2].to_string(),
                placed: f[3].to_string(),
                removed: f[4].to_string(),
                pm: f[5].to_string(),
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

/// Our first step on a state, in SE's terms: (difficulty, placed, removed),
/// and the step's text.
fn ours(set: &ruleset::RuleSet, state: &State) -> Option<(String, String, String, String)> {
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

/// The set of one rule of a rule file (`rules/se/nested.rules`).
fn only(file: &str, rule: &str) -> ruleset::RuleSet {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut set = ruleset::load(path.to_str().unwrap()).unwrap();
    set.rules.retain(|r| r.head.name == rule);
    assert_eq!(set.rules.len(), 1, "{rule}");
    set
}

fn compare(file: &str, rules: &str, rule: &str) -> (usize, Vec<String>) {
    let set = only(rules, rule);
    let mut bad = Vec::new();
    let all = hints(file);
    for h in &all {
        let state = state_of(&h.pm);
        let got = ours(&set, &state);
        let want = (h.difficulty.clone(), h.placed.clone(), h.removed.clone());
        match got {
            Some((d, p, r, _)) if (d.clone(), p.clone(), r.clone()) == want => {}
            other => bad.push(format!(
                "line {}: SE {} {:?} {:?} {:?}; ours {:?}",
                h.line, h.name, want.0, want.1, want.2, other
            )),
        }
    }
    (all.len(), bad)
}

#[test]
fn dynamic_plus_first_hints_are_ses() {
    let (n, bad) = compare(
        "se-dynamic-plus-hints.tsv",
        "rules/se/nested.rules",
        "dynamic-forcing-chains-plus",
    );
    assert!(n > 0);
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        n,
        bad.join("\n")
    );
}

/// The same rule without `apply` (plain dynamic forcing chains rated 9.0)
/// differs from SE on some of those states: the rules applied in the
/// branches are what finds SE's hints there.
#[test]
fn dynamic_plus_needs_its_branch_rules() {
    let (n, bad) = compare(
        "se-dynamic-plus-hints.tsv",
        "tests/data/rules/dynamic-plus-no-apply.rules",
        "dynamic-forcing-chains-plus",
    );
    assert_eq!((n, bad.len()), (40, 28), "{}", bad.join("\n"));
}
