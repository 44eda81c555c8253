//! Tests of the variant rules: each rule's count of 4×4 Sudoku grids by
//! the generic oracle equals the count of a plain enumeration of the 288
//! grids filtered by the rule written directly (no model involved).

use super::variant::Variant;
use super::yaml::parse_type;
use super::{DynBits, Model};
use crate::oracle::generic::count_solutions;

/// The 288 grids of 4×4 Sudoku (values 1..=4), by plain backtracking.
fn grids() -> Vec<[usize; 16]> {
    fn fits(g: &[usize; 16], k: usize, v: usize) -> bool {
        let (r, c) = (k / 4, k % 4);
        (0..k).all(|j| {
            let (rj, cj) = (j / 4, j % 4);
            let same_box = rj / 2 == r / 2 && cj / 2 == c / 2;
            g[j] != v || !(rj == r || cj == c || same_box)
        })
    }
    fn go(g: &mut [usize; 16], k: usize, out: &mut Vec<[usize; 16]>) {
        if k == 16 {
            out.push(*g);
            return;
        }
        for v in 1..=4 {
            if fits(g, k, v) {
                g[k] = v;
                go(g, k + 1, out);
            }
        }
        g[k] = 0;
    }
    let mut out = Vec::new();
    go(&mut [0; 16], 0, &mut out);
    out
}

fn count(yaml_rules: &str) -> (Model, usize) {
    let text = format!("size: 4\nblocks: 2x2\n{yaml_rules}");
    let spec = parse_type("t.yaml", &text).unwrap_or_else(|e| panic!("{e}"));
    let m = Model::build(spec);
    let n = count_solutions(&m, &DynBits::full(m.n_cands), 10_000);
    (m, n)
}

/// Cell index of 1-based row and column.
fn at(r: usize, c: usize) -> usize {
    (r - 1) * 4 + c - 1
}

fn ortho_pairs() -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for a in 0..16 {
        if a % 4 < 3 {
            out.push((a, a + 1));
        }
        if a < 12 {
            out.push((a, a + 4));
        }
    }
    out
}

#[test]
fn every_rule_counts_the_grids_its_definition_allows() {
    let all = grids();
    assert_eq!(all.len(), 288);
    let knight = |a: usize, b: usize| {
        let (dr, dc) = ((a / 4).abs_diff(b / 4), (a % 4).abs_diff(b % 4));
        (dr, dc) == (1, 2) || (dr, dc) == (2, 1)
    };
    let king = |a: usize, b: usize| {
        let (dr, dc) = ((a / 4).abs_diff(b / 4), (a % 4).abs_diff(b % 4));
        a != b && dr <= 1 && dc <= 1
    };
    let pairs_ok =
        |g: &[usize; 16], rel: &dyn Fn(usize, usize) -> bool, ok: &dyn Fn(usize, usize) -> bool| {
            (0..16).all(|a| (0..16).all(|b| !rel(a, b) || ok(g[a], g[b])))
        };
    let white = [(at(1, 1), at(1, 2)), (at(3, 3), at(4, 3))];
    let black = [(at(2, 1), at(2, 2))];
    let v_mark = [(at(1, 3), at(1, 4))];
    type Keep = Box<dyn Fn(&[usize; 16]) -> bool>;
    let cases: Vec<(&str, Keep)> = vec![
        (
            "diagonals: both\n",
            Box::new(|g| {
                let d: Vec<usize> = (0..4).map(|i| g[i * 4 + i]).collect();
                let a: Vec<usize> = (0..4).map(|i| g[i * 4 + 3 - i]).collect();
                (1..=4).all(|v| d.contains(&v) && a.contains(&v))
            }),
        ),
        (
            "diagonals: anti\n",
            Box::new(|g| (1..=4).all(|v| (0..4).any(|i| g[i * 4 + 3 - i] == v))),
        ),
        (
            "anti-knight: true\n",
            Box::new(move |g| pairs_ok(g, &knight, &|x, y| x != y)),
        ),
        (
            "anti-king: true\n",
            Box::new(move |g| pairs_ok(g, &king, &|x, y| x != y)),
        ),
        (
            "non-consecutive: true\n",
            Box::new(|g| ortho_pairs().iter().all(|&(a, b)| g[a].abs_diff(g[b]) != 1)),
        ),
        (
            "disjoint-groups: true\n",
            Box::new(|g| {
                // Position p of every 2×2 block: cells (2i + p/2, 2j + p%2).
                (0..4).all(|p| {
                    let vals: Vec<usize> = (0..4)
                        .map(|b| g[(b / 2 * 2 + p / 2) * 4 + b % 2 * 2 + p % 2])
                        .collect();
                    (1..=4).all(|v| vals.contains(&v))
                })
            }),
        ),
        (
            "extra-regions: [r1c1 r2c3 r4c2]\n",
            Box::new(|g| {
                let (x, y, z) = (g[at(1, 1)], g[at(2, 3)], g[at(4, 2)]);
                x != y && y != z && x != z
            }),
        ),
        (
            "kropki:\n  white: [r1c1 r1c2, r3c3 r4c3]\n  black: [r2c1 r2c2]\n",
            Box::new(move |g| {
                white.iter().all(|&(a, b)| g[a].abs_diff(g[b]) == 1)
                    && black
                        .iter()
                        .all(|&(a, b)| g[a] == 2 * g[b] || g[b] == 2 * g[a])
            }),
        ),
        (
            "kropki:\n  white: [r1c1 r1c2, r3c3 r4c3]\n  black: [r2c1 r2c2]\n  negative: true\n",
            Box::new(move |g| {
                ortho_pairs().iter().all(|&(a, b)| {
                    let consecutive = g[a].abs_diff(g[b]) == 1;
                    let double = g[a] == 2 * g[b] || g[b] == 2 * g[a];
                    let w = white.contains(&(a, b));
                    let k = black.contains(&(a, b));
                    (!w || consecutive) && (!k || double) && (w || k || (!consecutive && !double))
                })
            }),
        ),
        (
            "xv:\n  v: [r1c3 r1c4]\n  negative: true\n",
            Box::new(move |g| {
                ortho_pairs().iter().all(|&(a, b)| {
                    let s = g[a] + g[b];
                    if v_mark.contains(&(a, b)) {
                        s == 5
                    } else {
                        s != 5 && s != 10
                    }
                })
            }),
        ),
        (
            "thermometers: [r1c1 r2c2 r2c3]\n",
            Box::new(|g| g[at(1, 1)] < g[at(2, 2)] && g[at(2, 2)] < g[at(2, 3)]),
        ),
    ];
    for (rules, keep) in cases {
        let want = all.iter().filter(|g| keep(g)).count();
        let (_, got) = count(rules);
        assert_eq!(got, want, "{rules}");
        assert!(want < 288, "the rule {rules:?} must restrict something");
    }
}

#[test]
fn windoku_windows_and_the_houses_variants_add() {
    let spec = parse_type(
        "w.yaml",
        "size: 9\nblocks: 3x3\nwindoku: true\ndiagonals: main\n",
    )
    .unwrap();
    let names: Vec<&str> = spec.kinds.iter().map(|k| k.prefix.as_str()).collect();
    assert_eq!(names, ["r", "c", "b", "d", "w"]);
    let windows: Vec<&Vec<usize>> = spec
        .houses
        .iter()
        .filter(|h| h.kind == 4)
        .map(|h| &h.cells)
        .collect();
    assert_eq!(windows.len(), 4);
    // r2c2..r4c4, r2c6..r4c8, r6c2.., r6c6..
    assert_eq!(windows[0], &vec![10, 11, 12, 19, 20, 21, 28, 29, 30]);
    assert_eq!(windows[3], &vec![50, 51, 52, 59, 60, 61, 68, 69, 70]);
    assert_eq!(spec.variants, [Variant::MainDiagonal, Variant::Windoku]);
}

#[test]
fn bad_variants_are_errors_with_the_file_and_line() {
    for (text, want) in [
        (
            "size: 6\nblocks: 2x3\nwindoku: true\n",
            "w.yaml:3: windoku is defined on 9×9 grids",
        ),
        (
            "size: 6\nregions: |\n  AAABBB\n  AAABBB\n  CCCDDD\n  CCCDDD\n  EEEFFF\n  EEEFFF\ndisjoint-groups: true\n",
            "w.yaml:9: disjoint groups need regular blocks",
        ),
        (
            "size: 4\nkropki:\n  white: [r1c1 r2c2]\n",
            "w.yaml:2: a white dot is between two orthogonal neighbours, not r1c1 and r2c2",
        ),
        (
            "size: 4\nkropki:\n  white: [r1c1 r1c2 r1c3]\n",
            "w.yaml:2: a white dot is between two cells, not 3",
        ),
        (
            "size: 4\nkropki:\n  negative: maybe\n",
            "w.yaml:2: kropki negative `maybe`",
        ),
        (
            "size: 4\ndiagonals: all\n",
            "w.yaml:2: diagonals `all`: expected both, main or anti",
        ),
        (
            "size: 4\nthermometers: [r1c1 r3c3]\n",
            "a thermometer goes from cell to touching cell, not from r1c1 to r3c3",
        ),
        (
            "size: 4\nthermometers: [r1c1]\n",
            "a thermometer has two cells or more",
        ),
        (
            "size: 4\nextra-regions: [r1c1 r1c2 r1c3 r1c4 r2c1]\n",
            "it has 5 cells, more than 4",
        ),
        (
            "size: 4\nxv:\n  x: [r1c1 r1c2, r1c2 r1c1]\n",
            "two XV marks between r1c2 and r1c1",
        ),
        ("size: 4\nanti-knight: yes\n", "w.yaml:2"),
    ] {
        let e = parse_type("w.yaml", text)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{text:?}:\n got  {e}\n want {want}");
    }
}

/// A killer cage: cells and sum.
type Cage = (Vec<usize>, Option<usize>);

/// Whether grid `g` fills the killer cage `cells` with distinct values
/// summing to `sum` (any sum when `None`).
fn cage_holds(g: &[usize; 16], cells: &[usize], sum: Option<usize>) -> bool {
    let vals: Vec<usize> = cells.iter().map(|&c| g[c]).collect();
    let distinct = (0..vals.len()).all(|i| !vals[..i].contains(&vals[i]));
    distinct && sum.is_none_or(|s| vals.iter().sum::<usize>() == s)
}

#[test]
fn killer_cages_count_the_grids_their_definition_allows() {
    let all = grids();
    // Cages across blocks and lines, a cage of a whole row's size, a cage
    // without a sum (no repeats only), a one-cell cage.
    let cases: Vec<(&str, Vec<Cage>)> = vec![
        (
            "cages:\n  - { cells: r1c2 r2c2 r2c3, sum: 6 }\n",
            vec![(vec![at(1, 2), at(2, 2), at(2, 3)], Some(6))],
        ),
        (
            "cages:\n  - { cells: r1c1 r2c2, sum: 7 }\n  - { cells: r3c2 r3c3 r4c3, sum: 7 }\n",
            vec![
                (vec![at(1, 1), at(2, 2)], Some(7)),
                (vec![at(3, 2), at(3, 3), at(4, 3)], Some(7)),
            ],
        ),
        (
            "cages:\n  - { cells: r1c1 r2c2 }\n  - { cells: [r4c4], sum: 2 }\n",
            vec![(vec![at(1, 1), at(2, 2)], None), (vec![at(4, 4)], Some(2))],
        ),
    ];
    for (yaml, cages) in cases {
        let want = all
            .iter()
            .filter(|g| cages.iter().all(|(c, s)| cage_holds(g, c, *s)))
            .count();
        let (m, got) = count(yaml);
        assert_eq!(got, want, "{yaml}");
        assert!((1..288).contains(&want), "{yaml}: {want}");
        let sums = cages.iter().filter(|(_, s)| s.is_some()).count();
        assert_eq!(m.cages.len(), sums, "{yaml}");
    }
}

#[test]
fn a_cages_combinations_are_its_sets_of_distinct_numbers() {
    use super::variant::cage_combinations;
    assert_eq!(cage_combinations(9, 2, 3), [[0, 1]]);
    assert_eq!(
        cage_combinations(9, 3, 9),
        [[0, 1, 5], [0, 2, 4], [1, 2, 3]]
    );
    // The most a 9×9 cage has: 4 cells summing to 20, 5 to 25.
    assert_eq!(cage_combinations(9, 4, 20).len(), 12);
    assert_eq!(cage_combinations(9, 5, 25).len(), 12);
    assert_eq!(cage_combinations(9, 9, 45), [[0, 1, 2, 3, 4, 5, 6, 7, 8]]);
    assert!(cage_combinations(9, 2, 18).is_empty());
    assert!(cage_combinations(9, 10, 55).is_empty());
}

#[test]
fn the_wikipedia_killer_is_unique_and_two_sums_less_it_is_not() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/killer/wikipedia.yaml"
    );
    let text = std::fs::read_to_string(file).unwrap();
    let m = Model::build(parse_type(file, &text).unwrap());
    // 106 combinations: the cages' sets of distinct digits with their sums,
    // counted apart from the code.
    assert_eq!((m.cages.len(), m.n_cands - m.n_cell_cands), (29, 106));
    let full = DynBits::full(m.n_cands);
    assert_eq!(count_solutions(&m, &full, 2), 1);
    // The sums of k5 (r1c8 r2c8 = 16) and k6 (r1c9 … r4c9 = 15) dropped.
    let loose = text
        .replace("{ cells: r1c8 r2c8, sum: 16 }", "{ cells: r1c8 r2c8 }")
        .replace(
            "{ cells: r1c9 r2c9 r3c9 r4c9, sum: 15 }",
            "{ cells: r1c9 r2c9 r3c9 r4c9 }",
        );
    assert_ne!(loose, text);
    let m = Model::build(parse_type(file, &loose).unwrap());
    assert_eq!(m.cages.len(), 27);
    assert_eq!(count_solutions(&m, &DynBits::full(m.n_cands), 2), 2);
}
