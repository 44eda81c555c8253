//! CSP-Rules' own resolution paths replayed on the typed back end (issue
//! 23): on each state of a path CSP-Rules printed, ruledoku's chain search
//! must find every elimination CSP-Rules made with a chain or a subset, at
//! the same length or shorter. Where the ratings of the two differ, this
//! says why:
//!
//! - latin-9 #4 (config W+S): the example's W9 is a W+S rating, and the
//!   one step no whip of its size makes is a hidden quad (a Subset[n] is
//!   not always a whip[n]); without subsets, `w` needs a whip[10], as
//!   CSP-Rules' own W config does.
//! - Futoshiki: every chain of the paths (whips, g-whips over FutoRules'
//!   g-labels `n5-` and `n3+`, braids, g-braids) is found at its length;
//!   FutoRules also applies its own rules (`asc[n]`, `str-asc[n]`, hills
//!   and valleys, and their strong forms) at every state, outside the
//!   rating: each such step's eliminations are made on the same state by
//!   ruledoku's rule of the same name (`rules/futoshiki.rules`: one rule
//!   per kind, `asc[{K}]`, whose matches are named by their length).

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

/// The size a step's rule name states (`whip[6]` 6, `hidden-quads-…` 4)
/// and the set whose chains must find it: whips for whips, bivalue chains
/// and subsets, g-whips for g-whips, braids and g-braids for those.
/// `None` for the rules that are no chain (singles, FutoRules' own).
fn size_and_set(rule: &str) -> Option<(usize, &'static str)> {
    let set = if rule.starts_with("whip[") || rule.starts_with("biv-chain[") {
        "w"
    } else if rule.starts_with("g-whip[") {
        "gw"
    } else if rule.starts_with("braid[") || rule.starts_with("g-braid[") {
        "gb"
    } else {
        let n = [
            ("pairs", 2),
            ("x-wing", 2),
            ("triplets", 3),
            ("swordfish", 3),
        ]
        .iter()
        .chain(&[("quads", 4), ("jellyfish", 4)])
        .find(|(w, _)| rule.contains(w))?
        .1;
        return Some((n, "w"));
    };
    let i = rule.find('[')?;
    Some((rule[i + 1..rule.len() - 1].parse().ok()?, set))
}

/// Whether a chain of `set` no longer than `n` eliminates `z` on `st`
/// (a whip[1], which sets hold as a rule over one variable: a variable
/// whose live candidates are all linked to `z`).
fn found<const W: usize>(
    set: &TypedSet,
    frame: &Frame<W>,
    st: &State<W>,
    z: usize,
    n: usize,
) -> bool {
    if n == 1 {
        return (0..frame.vars.len()).any(|v| {
            let live = st.var_live(frame, v);
            !live.contains(z) && live.iter().all(|y| frame.links[z].contains(y))
        });
    }
    let mut cx = SearchCx::new(None);
    set.rules.iter().any(|r| match &r.form {
        Form::Chain(c) if c.spec.length <= n => c
            .all(&mut cx, frame, st)
            .unwrap()
            .iter()
            .any(|f| f.conclusions.contains(z)),
        _ => false,
    })
}

/// Replays the path `path` on puzzle `index` (1-based) of `puzzles`:
/// the number of chain and subset eliminations ruledoku found at their
/// length, those it did not (`rule: candidate`), and per kind of
/// FutoRules' own rules the eliminations ruledoku's rule of the same
/// name made on the same state (those it did not make are misses too).
fn replay(
    puzzles: &str,
    index: usize,
    ty: &str,
    path: &str,
) -> (
    usize,
    Vec<String>,
    std::collections::BTreeMap<&'static str, usize>,
) {
    let model = ruledoku::model::load(ty).unwrap();
    let p = parse_typed(&model, puzzles, &data(puzzles))
        .into_iter()
        .nth(index - 1)
        .unwrap()
        .unwrap();
    let model = Arc::new(model.with_constraints(&p.signs));
    let live = live_after_givens(&model, &p.givens).unwrap();
    let frame = Frame::<12>::build(model.clone(), &p.givens, &live);
    let mut st = State::start(&frame);
    let mut sets: HashMap<&str, TypedSet> = HashMap::new();
    let by_name: HashMap<String, usize> =
        (0..frame.len()).map(|z| (frame.cand_name(z), z)).collect();
    let (mut hits, mut misses) = (0, Vec::new());
    let mut futo: std::collections::BTreeMap<&'static str, usize> = Default::default();
    for line in data(path).lines().filter(|l| !l.starts_with('#')) {
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
        if let Some(kind) = futo_rule(rule) {
            // FutoRules' own rules: ruledoku's rule of the same name
            // (rules/futoshiki.rules, in every set on Futoshiki) finds each
            // elimination on the same state.
            let set = sets.entry("w").or_insert_with(|| {
                let set = ruledoku::ruleset::load("w").unwrap();
                ruledoku::typed::compile(&set, &model).unwrap()
            });
            let mut made = std::collections::HashSet::new();
            let mut cx = SearchCx::new(None);
            // One rule per kind (`asc[{K}]`), whose matches are named by
            // their length: those named as the step is (`asc[3]`).
            for r in (set.rules.iter()).filter(|r| futo_rule(&r.rule.head.name) == Some(kind)) {
                r.each(&mut cx, &frame, &st, &mut |f| {
                    if r.step_name(&f.evidence) == rule {
                        made.extend(f.conclusions.iter());
                    }
                    std::ops::ControlFlow::Continue(())
                });
            }
            for &(z, _) in &concl {
                if made.contains(&z) {
                    *futo.entry(kind).or_insert(0) += 1;
                } else {
                    misses.push(format!("{rule}: {}", frame.cand_name(z)));
                }
            }
        }
        if let Some((n, name)) = size_and_set(rule) {
            let set = sets.entry(name).or_insert_with(|| {
                let set = ruledoku::ruleset::load(name).unwrap();
                ruledoku::typed::compile(&set, &model).unwrap()
            });
            for &(z, _) in &concl {
                if found(set, &frame, &st, z, n) {
                    hits += 1;
                } else {
                    misses.push(format!("{rule}: {}", frame.cand_name(z)));
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
    assert!(
        st.solved(&frame),
        "{path}: the path does not solve the puzzle"
    );
    (hits, misses, futo)
}

/// The kind of a FutoRules rule name (`str-asc[2]`: `str-asc`), if it is
/// one.
fn futo_rule(rule: &str) -> Option<&'static str> {
    let kind = rule.split('[').next()?;
    ["asc", "str-asc", "hill", "valley", "str-hill", "str-valley"]
        .into_iter()
        .find(|k| *k == kind)
}

#[test]
fn every_chain_but_a_hidden_quad_of_latin_9_4_w_s_path_is_a_whip_of_its_size() {
    let (hits, misses, _) = replay("latin-9.txt", 4, "latin:9", "latin-9-4-w-path.txt");
    // At the hidden quad's state, row 7's digits 1, 9, 4, 8 lie in c5 c6
    // c9, c5 c6 c9, c3 c5 c9 and c3 c6 c9: whichever cell the target is in,
    // each digit keeps two places outside it, and a whip's first variable
    // may keep one.
    assert_eq!(hits, 41);
    let quad = "hidden-quads-in-a-row: ";
    assert_eq!(
        misses,
        [
            "n7r7c9", "n6r7c9", "n5r7c9", "n3r7c9", "n2r7c9", "n5r7c6", "n3r7c6", "n6r7c5",
            "n5r7c5"
        ]
        .map(|z| format!("{quad}{z}"))
    );
}

#[test]
fn every_chain_of_futoshiki_paths_is_found_at_its_length_and_every_futorules_step_by_its_rule() {
    for (puzzles, index, ty, path, chains, rules) in [
        (
            "futoshiki-9.txt",
            10,
            "futoshiki:9",
            "futoshiki-9-10-w-path.txt",
            16,
            "asc 136, str-asc 76, str-hill 1, str-valley 1, valley 1",
        ),
        (
            "futoshiki-7.txt",
            3,
            "futoshiki:7",
            "futoshiki-7-3-gw-path.txt",
            54,
            "asc 71, hill 1, str-asc 19, str-valley 1, valley 1",
        ),
        (
            "futoshiki-7.txt",
            3,
            "futoshiki:7",
            "futoshiki-7-3-gb-path.txt",
            73,
            "asc 71, hill 1, str-asc 18, str-valley 1, valley 1",
        ),
    ] {
        let (hits, misses, futo) = replay(puzzles, index, ty, path);
        assert_eq!((hits, misses), (chains, vec![]), "{path}");
        let futo: Vec<String> = futo.iter().map(|(k, n)| format!("{k} {n}")).collect();
        assert_eq!(futo.join(", "), rules, "{path}");
    }
}
