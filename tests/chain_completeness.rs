//! The chain search is complete: for every target, it finds a chain of
//! length `n` whenever one exists by the definition.
//!
//! The reference here is a brute-force enumerator written from the
//! definitions of `docs/chains.md` alone (§1.2–§1.3 whips, §1.7 braids,
//! §1.8 g-whips and g-braids, with ruledoku's choices stated there): a
//! depth-first search over every sequence of CSP variables with their
//! left- and right-linking candidates, with no merging of partial chains
//! and its own geometry (cells, houses, links, variables and segments
//! computed here from a candidate's row, column and digit, not taken from
//! the library's tables). It is slow and plain on purpose. On every state
//! of the resolution paths of cbg-000 puzzles, the set of targets having a
//! chain of length `n` is the same for both, for each `n` up to a bound.

mod common;

use common::{CBG_SAMPLE, data, shared_data};
use rayon::prelude::*;
use ruledoku::engine::{self, Limits};
use ruledoku::grid::geometry::cand_name;
use ruledoku::grid::state::State;
use ruledoku::rating::Rating;
use ruledoku::rule::Rule;
use ruledoku::ruleset;
use ruledoku::search::{Evidence, SearchCx};
use std::collections::{BTreeMap, BTreeSet};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------
// Geometry, from the definition of the grid (a candidate is `cell * 9 +
// digit`, a cell `row * 9 + column`: the encoding of the states read here).

fn row(c: usize) -> usize {
    c / 81
}
fn col(c: usize) -> usize {
    c / 9 % 9
}
fn digit(c: usize) -> usize {
    c % 9
}
fn block(c: usize) -> usize {
    row(c) / 3 * 3 + col(c) / 3
}

/// Two different candidates are linked when they are in the same cell, or
/// have the same digit in the same row, column or block.
fn linked(a: usize, b: usize) -> bool {
    a != b
        && (a / 9 == b / 9
            || digit(a) == digit(b)
                && (row(a) == row(b) || col(a) == col(b) || block(a) == block(b)))
}

/// A CSP variable: a cell's digits (rc), a digit's places in a row (rn), a
/// column (cn) or a block (bn).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Var {
    Rc(usize),
    Rn(usize, usize),
    Cn(usize, usize),
    Bn(usize, usize),
}

impl Var {
    fn of(c: usize) -> [Var; 4] {
        [
            Var::Rc(c / 9),
            Var::Rn(row(c), digit(c)),
            Var::Cn(col(c), digit(c)),
            Var::Bn(block(c), digit(c)),
        ]
    }
    /// An index for tables, `0..324`.
    fn index(self) -> usize {
        match self {
            Var::Rc(c) => c,
            Var::Rn(r, d) => 81 + r * 9 + d,
            Var::Cn(c, d) => 162 + c * 9 + d,
            Var::Bn(b, d) => 243 + b * 9 + d,
        }
    }
}

/// A segment: one digit in the three cells where a block meets a row or a
/// column. `cands` are its three candidates, live or not.
#[derive(Clone, Debug)]
struct Seg {
    cands: [usize; 3],
    /// The line variable (rn or cn) and the block variable holding it.
    vars: [Var; 2],
}

fn segments() -> Vec<Seg> {
    let mut out = Vec::new();
    for d in 0..9 {
        for b in 0..9 {
            let (r0, c0) = (b / 3 * 3, b % 3 * 3);
            for i in 0..3 {
                let r = r0 + i;
                out.push(Seg {
                    cands: [0, 1, 2].map(|j| (r * 9 + c0 + j) * 9 + d),
                    vars: [Var::Rn(r, d), Var::Bn(b, d)],
                });
                let c = c0 + i;
                out.push(Seg {
                    cands: [0, 1, 2].map(|j| ((r0 + j) * 9 + c) * 9 + d),
                    vars: [Var::Cn(c, d), Var::Bn(b, d)],
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The families, as the definitions state them.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// No candidate left in the last variable but its left-linking one and
    /// the allowed others (those linked to the target, when the family's
    /// extras do not already set them aside).
    Contradiction,
    /// Exactly one more candidate, linked to the target, new to the chain.
    LinkedToTarget,
    /// At most one candidate left besides the left-linking one, once the
    /// allowed others are set aside, and it (or, none left, one of those)
    /// is an earlier left-linking candidate or linked to an earlier
    /// right-linking one (the loop closes).
    Lasso,
}

#[derive(Clone, Copy, Debug)]
struct Family {
    /// The rule text's clauses (for the search compared with).
    clauses: &'static str,
    /// Others linked to the target allowed (z-candidates)...
    z: bool,
    /// ...in the first variable only.
    z_first: bool,
    /// Others linked to an earlier right-linking candidate allowed.
    t: bool,
    /// Left-linking candidates linked to the previous right-linking one
    /// (else to the target or any earlier right-linking one: braids).
    previous: bool,
    /// Right-linking candidates may be segments.
    groups: bool,
    end: End,
}

const WHIP: Family = Family {
    clauses: "others z, t links previous ends contradiction",
    z: true,
    z_first: false,
    t: true,
    previous: true,
    groups: false,
    end: End::Contradiction,
};
const G_WHIP: Family = Family {
    clauses: "nodes g-candidates others z, t links previous ends contradiction",
    groups: true,
    ..WHIP
};
const BRAID: Family = Family {
    clauses: "others z, t links target-or-any ends contradiction",
    previous: false,
    ..WHIP
};
const G_BRAID: Family = Family {
    clauses: "nodes g-candidates others z, t links target-or-any ends contradiction",
    groups: true,
    ..BRAID
};
const Z_CHAIN: Family = Family {
    clauses: "others z links previous ends contradiction",
    t: false,
    ..WHIP
};
const T_WHIP: Family = Family {
    clauses: "others z-first, t links previous ends linked-to-target",
    z_first: true,
    end: End::LinkedToTarget,
    ..WHIP
};
const BIV_CHAIN: Family = Family {
    clauses: "others none links previous ends linked-to-target",
    z: false,
    t: false,
    end: End::LinkedToTarget,
    ..WHIP
};
const LASSO: Family = Family {
    clauses: "others z, t links previous ends lasso",
    end: End::Lasso,
    ..WHIP
};
const T_LASSO: Family = Family {
    clauses: "others z-first, t links previous ends lasso",
    z_first: true,
    end: End::Lasso,
    ..WHIP
};
const G_T_WHIP: Family = Family {
    clauses: "nodes g-candidates others z-first, t links previous ends linked-to-target",
    groups: true,
    ..T_WHIP
};

/// A right-linking candidate: a candidate or a segment (by index).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Right {
    Cand(usize),
    Seg(usize),
}

/// One state, seen by the enumerator: its live candidates, and tables of
/// them: each variable's, each candidate's links, each segment's g-links,
/// each variable's segments.
struct Grid<'a> {
    live: Vec<usize>,
    segs: &'a [Seg],
    var_live: Vec<Vec<usize>>,
    links: Vec<Vec<usize>>,
    glinks: Vec<Vec<usize>>,
    var_segs: Vec<Vec<usize>>,
}

impl Grid<'_> {
    fn new<'a>(state: &State, segs: &'a [Seg]) -> Grid<'a> {
        let live: Vec<usize> = state.cands.iter().collect();
        let mut var_live = vec![Vec::new(); 324];
        let mut links = vec![Vec::new(); 729];
        for &c in &live {
            for v in Var::of(c) {
                var_live[v.index()].push(c);
            }
            links[c] = live.iter().copied().filter(|&w| linked(w, c)).collect();
        }
        let mut glinks = Vec::new();
        let mut var_segs = vec![Vec::new(); 324];
        for (i, seg) in segs.iter().enumerate() {
            glinks.push(
                live.iter()
                    .copied()
                    .filter(|&w| seg.cands.iter().all(|&c| linked(w, c)))
                    .collect(),
            );
            for v in seg.vars {
                var_segs[v.index()].push(i);
            }
        }
        Grid {
            live,
            segs,
            var_live,
            links,
            glinks,
            var_segs,
        }
    }

    /// The live candidates linked to a right-linking candidate: to a
    /// candidate, or to every candidate of a segment (g-linked).
    fn links_of(&self, r: Right) -> &[usize] {
        match r {
            Right::Cand(c) => &self.links[c],
            Right::Seg(s) => &self.glinks[s],
        }
    }
}

/// A partial chain: its variables, left- and right-linking candidates, and
/// for each candidate how many of the right-linking ones it is linked to.
struct Chain {
    vars: Vec<Var>,
    lefts: Vec<usize>,
    rights: Vec<Right>,
    seen: Vec<u8>,
}

impl Chain {
    fn new() -> Chain {
        Chain {
            vars: Vec::new(),
            lefts: Vec::new(),
            rights: Vec::new(),
            seen: vec![0; 729],
        }
    }
}

/// A chain ended by variable `v` with left-linking `l`, written out.
fn show(ch: &Chain, v: Var, l: usize) -> String {
    let mut parts: Vec<String> = (0..ch.vars.len())
        .map(|i| {
            let r = match ch.rights[i] {
                Right::Cand(c) => cand_name(c),
                Right::Seg(s) => format!("segment {s}"),
            };
            format!("{:?}{{{} {}}}", ch.vars[i], cand_name(ch.lefts[i]), r)
        })
        .collect();
    parts.push(format!("{v:?}{{{} .}}", cand_name(l)));
    parts.join(" - ")
}

/// Every chain of the family for target `z` of length at most `max`, by
/// plain depth-first enumeration; sets `found[n]` to the first one of
/// length `n` found.
fn enumerate(
    g: &Grid,
    fam: Family,
    z: usize,
    max: usize,
    ch: &mut Chain,
    found: &mut [Option<String>],
) {
    let k = ch.vars.len(); // the step built now, 0-based
    if k == max {
        return;
    }
    // May `w`, another candidate of the variable of step `k`, be set aside?
    // (`ch.seen[w]`: how many right-linking candidates `w` is linked to.)
    let seen = ch.seen.clone();
    let allowed =
        |w: usize| (fam.z && (!fam.z_first || k == 0) && linked(w, z)) || (fam.t && seen[w] > 0);
    let cand_rights: Vec<usize> = ch
        .rights
        .iter()
        .filter_map(|r| match r {
            Right::Cand(c) => Some(*c),
            Right::Seg(_) => None,
        })
        .collect();
    // The candidates linked as the family says: to the target first, then
    // to the previous right-linking candidate or to any.
    let candidates: &[usize] = if k == 0 {
        &g.links[z]
    } else if fam.previous {
        g.links_of(ch.rights[k - 1])
    } else {
        &g.live
    };
    for &l in candidates {
        let linked_ok = k == 0 || fam.previous || linked(l, z) || ch.seen[l] > 0;
        if !linked_ok || l == z || cand_rights.contains(&l) {
            continue;
        }
        // Whips and chains are loopless: no left-linking candidate twice.
        if fam.previous && ch.lefts.contains(&l) {
            continue;
        }
        for v in Var::of(l) {
            if ch.vars.contains(&v) {
                continue;
            }
            let cands = &g.var_live[v.index()];
            if cands.len() < 2 {
                continue; // a single, not a chain's variable
            }
            // The candidates the family does not set aside (at most 9).
            let mut buf = [0; 9];
            let mut len = 0;
            for &w in cands {
                if w != l && !allowed(w) {
                    buf[len] = w;
                    len += 1;
                }
            }
            let kept = &buf[..len];
            // Does the chain end here, with length k + 1?
            let ends = match fam.end {
                End::Contradiction => kept.iter().all(|&w| linked(w, z)),
                End::LinkedToTarget => {
                    kept.len() == 1
                        && linked(kept[0], z)
                        && !cand_rights.contains(&kept[0])
                        && !ch.lefts.contains(&kept[0])
                }
                End::Lasso => {
                    let closes = |w: &usize| ch.lefts.contains(w) || seen[*w] > 0;
                    match kept {
                        [] => cands.iter().filter(|&&w| w != l).any(closes),
                        [r] => closes(r),
                        _ => false,
                    }
                }
            };
            if ends && found[k + 1].is_none() {
                found[k + 1] = Some(show(ch, v, l));
            }
            if k + 1 == max {
                continue;
            }
            // Or go on: one candidate left is the right-linking one...
            let right = match kept[..] {
                [r] if r != z && !cand_rights.contains(&r) && !ch.lefts.contains(&r) => {
                    Some(Right::Cand(r))
                }
                [_] | [] => None,
                // ...or, two or more left, the segment of `v` holding them
                // all, when it holds neither `l`, `z` nor an earlier
                // right-linking candidate and is not an earlier one.
                _ if fam.groups => g.var_segs[v.index()]
                    .iter()
                    .copied()
                    .find(|&s| {
                        let s = &g.segs[s];
                        kept.iter().all(|w| s.cands.contains(w))
                            && !s.cands.contains(&l)
                            && !s.cands.contains(&z)
                            && !cand_rights.iter().any(|r| s.cands.contains(r))
                    })
                    .filter(|&s| !ch.rights.contains(&Right::Seg(s)))
                    .map(Right::Seg),
                _ => None,
            };
            if let Some(r) = right {
                ch.vars.push(v);
                ch.lefts.push(l);
                ch.rights.push(r);
                for &w in g.links_of(r) {
                    ch.seen[w] += 1;
                }
                enumerate(g, fam, z, max, ch, found);
                for &w in g.links_of(r) {
                    ch.seen[w] -= 1;
                }
                ch.vars.pop();
                ch.lefts.pop();
                ch.rights.pop();
            }
        }
    }
}

/// For each length 1..=max, the targets having a chain of that length, by
/// enumeration.
fn enumerated(
    state: &State,
    segs: &[Seg],
    fam: Family,
    max: usize,
) -> Vec<BTreeMap<usize, String>> {
    let g = Grid::new(state, segs);
    let mut out = vec![BTreeMap::new(); max + 1];
    for &z in &g.live {
        let mut found = vec![None; max + 1];
        enumerate(&g, fam, z, max, &mut Chain::new(), &mut found);
        for (n, f) in found.into_iter().enumerate() {
            if let Some(f) = f {
                out[n].insert(z, f);
            }
        }
    }
    out
}

/// The family's chain rules of lengths 1..=max, as a rule file would write
/// them.
fn rules(fam: Family, max: usize) -> Vec<Rule> {
    let text: String = (1..=max)
        .map(|n| {
            format!(
                "chain c[{n}] {{ complexity {n} length {n} {} }}\n",
                fam.clauses
            )
        })
        .collect();
    ruledoku::lang::compile_source("c.rules", &text).unwrap()
}

/// For each length, the targets the search finds a chain for.
fn searched(state: &State, rules: &[Rule]) -> Vec<BTreeSet<usize>> {
    let mut out = vec![BTreeSet::new()];
    for rule in rules {
        let mut targets = BTreeSet::new();
        let mut cx = SearchCx::default();
        let _ = rule.searcher.search(&mut cx, state, &mut |f| {
            if let Evidence::Chain(c) = &f.evidence {
                targets.insert(c.target);
            }
            ControlFlow::Continue(())
        });
        out.push(targets);
    }
    out
}

/// What one comparison found: the states compared, the (target, length)
/// pairs found, the time spent enumerating and searching, and every state
/// where the two differ.
#[derive(Default)]
struct Tally {
    states: usize,
    pairs: usize,
    enumerating: Duration,
    searching: Duration,
    differences: Vec<Difference>,
}

/// A state where the search and the enumeration differ at one length.
struct Difference {
    line: usize,
    length: usize,
    /// Targets (with a chain) only the enumeration finds.
    missed: Vec<String>,
    /// Targets only the search finds.
    extra: Vec<String>,
    state: String,
}

/// Compares the search with the enumeration on every state at which the
/// engine searched chains (before a step of level 1 or more) along the
/// paths `set` takes on `puzzles` (numbered from `first_line`).
fn compare(puzzles: &[String], first_line: usize, set: &str, fam: Family, max: usize) -> Tally {
    let set = ruleset::load(set).unwrap();
    let segs = segments();
    let rules = rules(fam, max);
    let one = |(i, p): (usize, &String)| {
        let mut t = Tally::default();
        let p = ruledoku::input::parse_puzzle(p).unwrap();
        let run = engine::run(
            &set,
            State::from_masks(&p.masks, &p.givens),
            Limits::default(),
        );
        let chain_states = run
            .steps
            .iter()
            .filter(|s| s.grade.level >= Rating::level(1));
        for state in chain_states.map(|s| s.before) {
            let t0 = Instant::now();
            let want = enumerated(&state, &segs, fam, max);
            let t1 = Instant::now();
            let got = searched(&state, &rules);
            t.enumerating += t1 - t0;
            t.searching += t1.elapsed();
            t.states += 1;
            for n in 1..=max {
                t.pairs += want[n].len();
                let want_n: BTreeSet<usize> = want[n].keys().copied().collect();
                if want_n != got[n] {
                    t.differences.push(Difference {
                        line: first_line + i,
                        length: n,
                        missed: want_n
                            .difference(&got[n])
                            .map(|z| format!("{}: {}", cand_name(*z), want[n][z]))
                            .collect(),
                        extra: got[n].difference(&want_n).map(|&z| cand_name(z)).collect(),
                        state: state.pencil_marks(),
                    });
                }
            }
        }
        t
    };
    puzzles
        .par_iter()
        .enumerate()
        .map(one)
        .reduce(Tally::default, |mut a, b| {
            a.states += b.states;
            a.pairs += b.pairs;
            a.enumerating += b.enumerating;
            a.searching += b.searching;
            a.differences.extend(b.differences);
            a
        })
}

fn puzzles(path: &Path, skip: usize, n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(skip)
        .take(n)
        .map(|l| l[..81].to_string())
        .collect()
}

/// Compares on the paths of `n` puzzles of cbg-000 from line `first`
/// (the first 1,000 are in `tests/data/`), or of the file the
/// `RULEDOKU_CHAIN_FILE` environment variable names (a puzzle at the start
/// of each line); fails on the first difference, or when fewer than
/// `min_states` states were compared.
fn assert_complete(first: usize, n: usize, set: &str, fam: Family, max: usize, min_states: usize) {
    let p = if let Some(file) = std::env::var_os("RULEDOKU_CHAIN_FILE") {
        puzzles(Path::new(&file), first - 1, n)
    } else if first + n <= 1001 {
        puzzles(&data(CBG_SAMPLE), first - 1, n)
    } else {
        puzzles(&shared_data("cbg-000").join("puzzles.txt"), first - 1, n)
    };
    let mut t = compare(&p, first, set, fam, max);
    eprintln!(
        "{set}, {}, lengths 1..={max}: {} states, {} (target, length) pairs, {} differences; \
         enumeration {:.1?}, search {:.1?}",
        fam.clauses,
        t.states,
        t.pairs,
        t.differences.len(),
        t.enumerating,
        t.searching
    );
    t.differences.sort_by_key(|d| (d.line, d.length));
    if let Some(d) = t.differences.first() {
        panic!(
            "cbg-000 line {}, length {}: {} differences; here only the enumeration finds {:#?}, \
             only the search {:?}, in\n{}",
            d.line,
            d.length,
            t.differences.len(),
            d.missed,
            d.extra,
            d.state
        );
    }
    assert!(t.states >= min_states, "{} states", t.states);
}

#[test]
fn whips_up_to_length_4_are_found_whenever_they_exist() {
    assert_complete(1, 10, "w", WHIP, 4, 100);
}

#[test]
fn g_whips_up_to_length_4_are_found_whenever_they_exist() {
    assert_complete(1, 4, "gw", G_WHIP, 4, 30);
}

#[test]
fn other_chains_up_to_length_4_are_found_whenever_they_exist() {
    for fam in [Z_CHAIN, T_WHIP, BIV_CHAIN, LASSO, T_LASSO, G_T_WHIP] {
        assert_complete(1, 4, "w", fam, 4, 30);
    }
    for fam in [BRAID, G_BRAID] {
        assert_complete(2, 1, "gb", fam, 3, 5);
    }
}

/// A parameter of the large runs below: the environment variable `name`
/// (a whole number), or `default` when it is not set.
fn param(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a whole number")),
        Err(_) => default,
    }
}

/// The large runs on cbg-000 paths: `RULEDOKU_CHAIN_FIRST` (the first
/// line, default 1), `RULEDOKU_CHAIN_PUZZLES` (how many puzzles, default
/// 2,000) and `RULEDOKU_CHAIN_MAX` (the longest length compared) choose
/// them; past line 1,000 they read `cbg-000/puzzles.txt` of the shared
/// data (`RULEDOKU_DATA` names its folder), and `RULEDOKU_CHAIN_FILE`
/// names another collection. E.g. lines 1001 to 1500 with
/// whips up to 7 on one core:
/// `RAYON_NUM_THREADS=1 RULEDOKU_CHAIN_FIRST=1001 RULEDOKU_CHAIN_PUZZLES=500
/// RULEDOKU_CHAIN_MAX=7 cargo test --release --test chain_completeness
/// whips_up_to_length_6 -- --ignored --nocapture`. A run compares at least one state
/// per puzzle on average (the default 2,000 lines: 10,000 states).
fn assert_complete_on_paths(set: &str, fam: Family, max: usize) {
    let first = param("RULEDOKU_CHAIN_FIRST", 1).max(1);
    let n = param("RULEDOKU_CHAIN_PUZZLES", 2000);
    let max = param("RULEDOKU_CHAIN_MAX", max);
    let min_states = if (first, n) == (1, 2000) { 10_000 } else { n };
    assert_complete(first, n, set, fam, max, min_states);
}

#[test]
#[ignore = "2,000 cbg-000 puzzles: run with --ignored in release"]
fn whips_up_to_length_6_on_2000_cbg_000_paths() {
    assert_complete_on_paths("w", WHIP, 6);
}

#[test]
#[ignore = "2,000 cbg-000 puzzles: run with --ignored in release"]
fn g_whips_up_to_length_5_on_2000_cbg_000_paths() {
    assert_complete_on_paths("gw", G_WHIP, 5);
}

#[test]
#[ignore = "cbg-000 puzzles: run with --ignored in release"]
fn other_chains_on_cbg_000_paths() {
    for fam in [Z_CHAIN, T_WHIP, BIV_CHAIN, LASSO, T_LASSO, G_T_WHIP] {
        assert_complete(1, 200, "w", fam, 5, 1000);
    }
    for fam in [BRAID, G_BRAID] {
        assert_complete(1, 30, "gb", fam, 4, 300);
    }
}

/// The two puzzles SudoRules rates one higher (`docs/chains.md` §5.6).
#[test]
#[ignore = "cbg-000 lines 8422 and 109"]
fn whips_and_g_whips_of_cbg_000_lines_8422_and_109() {
    assert_complete(8422, 1, "w", WHIP, 6, 30);
    assert_complete(109, 1, "gw", G_WHIP, 6, 30);
}
