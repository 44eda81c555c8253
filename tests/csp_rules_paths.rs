//! CSP-Rules' own resolution path replayed on the typed back end (issue 23):
//! on each state of the path of latin-9.txt #4 (config W+S), ruledoku's
//! chain search must find every elimination CSP-Rules made with a chain
//! or a subset, at the same length or shorter. This is what explains the
//! example's rating: its W9 is a W+S rating, and the one step no whip of
//! its size makes is a hidden quad (a Subset[n] is not always a whip[n]);
//! without subsets, `w` needs a whip[10], as CSP-Rules' own W config does.

use ruledoku::input::typed::parse_typed;
use ruledoku::search::SearchCx;
use ruledoku::typed::frame::{Frame, live_after_givens};
use ruledoku::typed::{Form, State, TypedSet};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

fn data(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/csp-rules");
    std::fs::read_to_string(p.join(name)).unwrap()
}

/// The size a step's rule name states: `whip[6]` 6, `hidden-quads-…` 4.
fn size(rule: &str) -> Option<usize> {
    if let Some(i) = rule.find('[') {
        return rule[i + 1..rule.len() - 1].parse().ok();
    }
    [
        ("pairs", 2),
        ("x-wing", 2),
        ("triplets", 3),
        ("swordfish", 3),
    ]
    .iter()
    .chain(&[("quads", 4), ("jellyfish", 4)])
    .find(|(w, _)| rule.contains(w))
    .map(|&(_, n)| n)
}

/// The shortest chain of `set` (rules whose name starts with `family`)
/// that eliminates `z` on `st`, up to length `n`.
fn shortest<const W: usize>(
    set: &TypedSet,
    family: &str,
    frame: &Frame<W>,
    st: &State<W>,
    z: usize,
    n: usize,
) -> Option<usize> {
    let mut cx = SearchCx::new(None);
    set.rules.iter().find_map(|r| match &r.form {
        Form::Chain(c) if r.rule.head.name.starts_with(family) && c.spec.length <= n => c
            .all(&mut cx, frame, st)
            .unwrap()
            .iter()
            .any(|f| f.conclusions.contains(z))
            .then_some(c.spec.length),
        _ => None,
    })
}

#[test]
fn every_chain_and_subset_of_csp_rules_latin_9_4_path_is_found_at_its_length() {
    let model = Arc::new(ruledoku::model::load("latin:9").unwrap());
    let puzzles = data("latin-9.txt");
    let p = parse_typed(&model, "latin-9.txt", &puzzles)
        .into_iter()
        .nth(3)
        .unwrap()
        .unwrap();
    let live = live_after_givens(&model, &p.givens).unwrap();
    let frame = Frame::<4>::build(model.clone(), &p.givens, &live);
    let mut st = State::start(&frame);
    let compile = |name: &str| {
        ruledoku::typed::compile(&ruledoku::ruleset::load(name).unwrap(), &model).unwrap()
    };
    let w = compile("w");
    let by_name: HashMap<String, usize> =
        (0..frame.len()).map(|z| (frame.cand_name(z), z)).collect();
    let mut whips = 0;
    let mut not_whips = Vec::new();
    for line in data("latin-9-4-path.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let (rule, rhs) = line.split_once(" ==> ").unwrap();
        let concl: Vec<(usize, bool)> = rhs
            .split(", ")
            .map(|c| {
                let (cell, n, assert) = match c.split_once(" ≠ ") {
                    Some((cell, n)) => (cell, n, false),
                    None => {
                        let (cell, n) = c.split_once(" = ").unwrap();
                        (cell, n, true)
                    }
                };
                (by_name[&format!("n{n}{cell}")], assert)
            })
            .collect();
        if let Some(n) = size(rule) {
            // Each of the step's eliminations, by a whip of its size.
            for &(z, _) in &concl {
                match shortest(&w, "whip[", &frame, &st, z, n) {
                    Some(_) => whips += 1,
                    None => not_whips.push(format!("{rule}: {}", frame.cand_name(z))),
                }
            }
        }
        for (z, assert) in concl {
            if assert {
                st.assert(&frame, z);
            } else {
                st.cands.remove(z);
            }
        }
    }
    assert!(st.solved(&frame));
    // 41 eliminations of chains and subsets are whips of their size; the
    // hidden quad's 9 are not. At its state, row 7's digits 1, 9, 4, 8
    // lie in c5 c6 c9, c5 c6 c9, c3 c5 c9 and c3 c6 c9: whichever cell
    // the target is in, each digit keeps two places outside it, and a
    // whip's first variable may keep one.
    assert_eq!(whips, 41);
    let quad = "hidden-quads-in-a-row: ";
    assert_eq!(
        not_whips,
        [
            "n7r7c9", "n6r7c9", "n5r7c9", "n3r7c9", "n2r7c9", "n5r7c6", "n3r7c6", "n6r7c5",
            "n5r7c5"
        ]
        .map(|z| format!("{quad}{z}"))
    );
}
