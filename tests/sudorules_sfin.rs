//! ruledoku's `sfin` rule set against the paths SudoRules 20.1 printed with
//! its `SFin` configuration (tests/data/sudorules/, copied from
//! ../shared/data/csp-rules-paths/subsets-*.txt with CR line ends turned
//! into LF).
//!
//! For every puzzle: the same outcome (solved), the same most complex rule
//! (SudoRules' "MOST COMPLEX RULE TRIED" abbreviation = our rating label),
//! and every subset/fish step's conclusions re-derived here, independently
//! of the rule files, from the pattern the step prints.

use ruledoku::engine::{self, Limits, StopReason};
use ruledoku::grid::bits::Bits;
use ruledoku::grid::geometry::*;
use ruledoku::grid::state::State;
use ruledoku::ruleset;
use std::path::Path;

struct Case {
    file: String,
    puzzle: String,
    hardest: String,
    solved: bool,
}

fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sudorules");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let puzzle = text
            .lines()
            .map(str::trim)
            .find(|l| l.len() == 81 && l.bytes().all(|b| b == b'.' || b.is_ascii_digit()))
            .unwrap()
            .to_string();
        let last = text
            .lines()
            .find(|l| l.contains("MOST COMPLEX RULE TRIED"))
            .unwrap();
        out.push(Case {
            file: f.file_name().unwrap().to_string_lossy().into_owned(),
            puzzle,
            hardest: last.rsplit("= ").next().unwrap().trim().to_string(),
            solved: last.contains("IS SOLVED"),
        });
    }
    out
}

fn givens(p: &str) -> [u8; 81] {
    std::array::from_fn(|i| {
        let b = p.as_bytes()[i];
        if b.is_ascii_digit() { b - b'0' } else { 0 }
    })
}

#[test]
fn same_outcome_and_most_complex_rule_as_sudorules() {
    let set = ruleset::load("sfin").unwrap();
    let cases = cases();
    assert_eq!(cases.len(), 42);
    let mut wrong = Vec::new();
    for c in &cases {
        let run = engine::run(
            &set,
            State::from_givens(&givens(&c.puzzle)),
            Limits::default(),
        );
        let label = run
            .hardest_step()
            .map(|s| s.grade.label.clone())
            .unwrap_or_default();
        if (run.stop == StopReason::Solved) != c.solved || label != c.hardest {
            wrong.push(format!(
                "{}: expected {} ({}), got {} ({:?})",
                c.file, c.hardest, c.solved, label, run.stop
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Parses `{x y z}` groups of a pattern text into their items.
fn groups(s: &str) -> (String, Vec<Vec<String>>) {
    let head = s[..s.find('{').unwrap()].to_string();
    let mut gs = Vec::new();
    let mut rest = &s[head.len()..];
    while let Some(i) = rest.find('{') {
        let j = rest.find('}').unwrap();
        gs.push(
            rest[i + 1..j]
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        );
        rest = &rest[j + 1..];
    }
    (head, gs)
}

fn num(s: &str) -> usize {
    s[1..].parse::<usize>().unwrap() - 1
}

/// A house from `r3`, `c5`, `b7`.
fn house(s: &str) -> usize {
    let i = num(s);
    match &s[..1] {
        "r" => i,
        "c" => 9 + i,
        _ => 18 + i,
    }
}

/// A cell of house `h` written as `c4` (row), `r4` (column) or `r4c5` (block).
fn cell_in(h: usize, s: &str) -> usize {
    if let Some(k) = s.find('c').filter(|&k| k > 0) {
        return cell(num(&s[..k]), num(&s[k..]));
    }
    match house_kind(h) {
        HouseKind::Row => cell(h, num(s)),
        HouseKind::Column => cell(num(s), h - 9),
        HouseKind::Block => unreachable!(),
    }
}

/// Live candidates of digit set `ds` in cell set `cs`.
fn cands_in(state: &State, cs: &[usize], ds: &[usize]) -> Bits {
    let mut b = Bits::EMPTY;
    for &c in cs {
        for &d in ds {
            if state.cands.contains(cand(c, d)) {
                b.insert(cand(c, d));
            }
        }
    }
    b
}

/// The eliminations a subset or fish pattern allows, from its printed form.
fn expected(rule: &str, pattern: &str, state: &State) -> Option<Bits> {
    if !pattern.contains('{') || rule.starts_with("whip") {
        return None;
    }
    let (head, gs) = groups(pattern);
    if rule.starts_with("naked-") || rule.starts_with("hidden-") {
        let h = house(&head);
        let naked = rule.starts_with("naked-");
        let (cells_txt, digits_txt) = if naked {
            (&gs[0], &gs[1])
        } else {
            (&gs[1], &gs[0])
        };
        let cs: Vec<usize> = cells_txt.iter().map(|s| cell_in(h, s)).collect();
        let ds: Vec<usize> = digits_txt.iter().map(|s| num(s)).collect();
        // The pattern itself must hold: the N cells' candidates of the house
        // and the N digits' places coincide.
        let all_d: Vec<usize> = (0..9).collect();
        let hc = house_cells(h).to_vec();
        if naked {
            assert_eq!(
                cands_in(state, &cs, &all_d),
                cands_in(state, &cs, &ds),
                "{rule}: {pattern}"
            );
            let others: Vec<usize> = hc.into_iter().filter(|c| !cs.contains(c)).collect();
            Some(cands_in(state, &others, &ds))
        } else {
            assert_eq!(
                cands_in(state, &hc, &ds),
                cands_in(state, &cs, &ds),
                "{rule}: {pattern}"
            );
            let other_d: Vec<usize> = all_d.into_iter().filter(|d| !ds.contains(d)).collect();
            Some(cands_in(state, &cs, &other_d))
        }
    } else if rule.contains("x-wing") || rule.contains("swordfish") || rule.contains("jellyfish") {
        let d = num(&head);
        let base: Vec<usize> = gs[0].iter().map(|s| house(s)).collect();
        let cover: Vec<usize> = gs[1].iter().map(|s| house(s)).collect();
        let cells_of =
            |hs: &[usize]| -> Vec<usize> { hs.iter().flat_map(|&h| house_cells(h)).collect() };
        let base_cells = cells_of(&base);
        let cover_cells = cells_of(&cover);
        let in_base = cands_in(state, &base_cells, &[d]);
        let fins = in_base.minus(&cands_in(state, &cover_cells, &[d]));
        let mut targets = cands_in(state, &cover_cells, &[d]).minus(&in_base);
        if rule.starts_with("finned-") {
            assert!(!fins.is_empty(), "{rule}: {pattern} has no fin");
            for f in fins.iter() {
                targets = targets.and(ruledoku::grid::links::links(f));
            }
        } else {
            assert!(fins.is_empty(), "{rule}: {pattern} is not a fish");
        }
        Some(targets)
    } else {
        None
    }
}

#[test]
fn every_subset_and_fish_step_concludes_exactly_what_its_pattern_allows() {
    let set = ruleset::load("sfin").unwrap();
    let mut checked = 0;
    for c in cases() {
        let run = engine::run(
            &set,
            State::from_givens(&givens(&c.puzzle)),
            Limits::default(),
        );
        let mut state = run.initial;
        for s in &run.steps {
            if let Some(exp) = expected(s.rule_name(), &s.pattern(), &state) {
                let got: Bits = s.conclusions.iter().copied().collect();
                assert_eq!(got, exp, "{}: {}", c.file, s.text());
                checked += 1;
            }
            engine::apply(&mut state, s);
        }
    }
    assert!(checked >= 100, "only {checked} subset/fish steps checked");
}
