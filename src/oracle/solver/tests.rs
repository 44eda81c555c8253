//! Tests of the oracle: against a simple reference, and every tier against
//! the others.

use super::*;

/// The well-known example puzzle of the Wikipedia "Sudoku" article.
const WIKI: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const WIKI_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
/// A random minimal puzzle (first line of the cbg-000 collection).
const MINIMAL: &str =
    "...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361";
/// Very hard puzzles (SE 10.4 to 11.9) from the se-hard collection.
const HARD: [&str; 4] = [
    "........1.....2.34.35.......62......7.3.25..885...67...7853....32..68...5.62.7.8.",
    "........1.....2.......3..45.16.23...27.81.6..3.87.61...32.67..81.7.8....68.......",
    "........1.12.34....561.7........8.6..2....98..6..9.1.5.912..5.828.....166.5...29.",
    ".......12.....13.4.....256.....14.5...578.....64.95....5613....32....1..4.1.2..35",
];

fn givens(s: &str) -> [u8; 81] {
    let mut g = [0u8; 81];
    for (cell, ch) in g.iter_mut().zip(s.bytes()) {
        if ch.is_ascii_digit() {
            *cell = ch - b'0';
        }
    }
    g
}

fn masks(g: &[u8; 81]) -> [u16; 81] {
    g.map(|v| if v == 0 { 0x1FF } else { 1 << (v - 1) })
}

/// Every row, column and box holds each digit 1..=9 exactly once.
fn is_valid_solution(g: &[u8; 81]) -> bool {
    (0..27).all(|h| {
        let mut seen = 0u16;
        for k in 0..9 {
            let cell = match h {
                0..9 => h * 9 + k,
                9..18 => k * 9 + (h - 9),
                _ => {
                    let b = h - 18;
                    (b / 3 * 3 + k / 3) * 9 + b % 3 * 3 + k % 3
                }
            };
            if !(1..=9).contains(&g[cell]) {
                return false;
            }
            seen |= 1 << g[cell];
        }
        seen == 0x3FE
    })
}

/// The solution is valid and every cell holds one of its candidates.
fn assert_solution_of(sol: &[u8; 81], m: &[u16; 81]) {
    assert!(is_valid_solution(sol), "invalid solution {sol:?}");
    for (cell, (&v, &mask)) in sol.iter().zip(m).enumerate() {
        assert!(mask & (1 << (v - 1)) != 0, "cell {cell} = {v} not allowed");
    }
}

fn expect_unique(g: &[u8; 81]) -> [u8; 81] {
    match solve_givens(g) {
        Solutions::Unique(sol) => {
            assert_solution_of(&sol, &masks(g));
            sol
        }
        other => panic!("expected a unique solution, got {other:?}"),
    }
}

/// Simple reference: naked singles plus backtracking, counting up to `limit`.
fn reference_count(m: &[u16; 81], limit: usize) -> usize {
    fn peers(i: usize, j: usize) -> bool {
        i != j
            && (i / 9 == j / 9
                || i % 9 == j % 9
                || (i / 27 == j / 27 && (i % 9) / 3 == (j % 9) / 3))
    }
    fn rec(mut m: [u16; 81], limit: usize, count: &mut usize) {
        loop {
            let mut changed = false;
            for i in 0..81 {
                if m[i] == 0 {
                    return;
                }
                if m[i].count_ones() == 1 {
                    for j in 0..81 {
                        if peers(i, j) && m[j] & m[i] != 0 {
                            m[j] &= !m[i];
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        if m.contains(&0) {
            return;
        }
        let Some(cell) = (0..81)
            .filter(|&i| m[i].count_ones() > 1)
            .min_by_key(|&i| m[i].count_ones())
        else {
            *count += 1;
            return;
        };
        let mut digits = m[cell];
        while digits != 0 && *count < limit {
            let d = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let mut child = m;
            child[cell] = d;
            rec(child, limit, count);
        }
    }
    let mut count = 0;
    rec(m.map(|x| x & 0x1FF), limit, &mut count);
    count.min(limit)
}

#[test]
fn known_puzzle_has_known_solution() {
    let sol = expect_unique(&givens(WIKI));
    assert_eq!(sol, givens(WIKI_SOLUTION));
    assert_eq!(count_solutions(&masks(&givens(WIKI)), 10), 1);
}

#[test]
fn hard_puzzles_are_unique_and_agree_with_givens() {
    for p in HARD.iter().chain([&MINIMAL]) {
        let g = givens(p);
        let sol = expect_unique(&g);
        for (&given, &v) in g.iter().zip(&sol) {
            assert!(given == 0 || given == v);
        }
    }
}

#[test]
fn empty_grid_has_multiple_solutions() {
    let g = [0u8; 81];
    match solve_givens(&g) {
        Solutions::Multiple { first } => assert_solution_of(&first, &masks(&g)),
        other => panic!("expected multiple solutions, got {other:?}"),
    }
    assert_eq!(count_solutions(&[0x1FF; 81], 1000), 1000);
}

#[test]
fn minimal_puzzle_minus_any_given_has_multiple_solutions() {
    let g = givens(MINIMAL);
    expect_unique(&g);
    for cell in (0..81).filter(|&c| g[c] != 0) {
        let mut h = g;
        h[cell] = 0;
        match solve_givens(&h) {
            Solutions::Multiple { first } => {
                assert_solution_of(&first, &masks(&h));
            }
            other => panic!("removing cell {cell}: expected multiple, got {other:?}"),
        }
        assert_eq!(count_solutions(&masks(&h), 2), 2);
    }
}

#[test]
fn contradictory_givens_have_no_solution() {
    let mut row = [0u8; 81];
    row[3] = 5;
    row[7] = 5;
    let mut col = [0u8; 81];
    col[4] = 2;
    col[76] = 2;
    let mut bx = [0u8; 81];
    bx[30] = 9;
    bx[50] = 9;
    let mut wiki = givens(WIKI);
    wiki[2] = 7; // 7 is already in that row
    for g in [row, col, bx, wiki] {
        assert_eq!(solve_givens(&g), Solutions::None);
        assert_eq!(count_solutions(&masks(&g), 5), 0);
    }
    // Consistent givens whose completion is impossible: row 0 misses
    // digit 9, and the only free cell of the row sees a 9 in its column.
    let mut g = givens("12345678.");
    g[17] = 9;
    assert_eq!(solve_givens(&g), Solutions::None);
}

/// Conflicts the band filter does not see by itself are caught in the
/// sweep that meets them (were they not, the search would go on in an
/// almost empty grid).
#[test]
fn conflicts_are_found_at_once() {
    let mut minirow = [0u8; 81];
    (minirow[0], minirow[1]) = (4, 4);
    let mut column = [0u8; 81];
    (column[0], column[27]) = (1, 1);
    // Digits 1 and 2 both have only r1c1 left in row 1.
    let mut hidden = [0x1FF_u16; 81];
    for m in &mut hidden[1..9] {
        *m &= !0b11;
    }
    for m in [masks(&minirow), masks(&column), hidden] {
        for (name, ctx) in runs(&m, 2) {
            assert_eq!(ctx.count, 0, "{name}");
        }
    }
}

#[test]
fn pencil_marks_with_an_empty_cell_have_no_solution() {
    let mut m = masks(&givens(WIKI));
    m[2] = 0;
    assert_eq!(solve_candidates(&m), Solutions::None);
    let mut m = [0x1FF; 81];
    m[40] = 0;
    assert_eq!(solve_candidates(&m), Solutions::None);
    assert_eq!(count_solutions(&m, 3), 0);
    assert_eq!(solve_candidates(&[0; 81]), Solutions::None);
}

#[test]
fn pencil_marks_restrict_the_solution() {
    let g = givens(MINIMAL);
    let sol = expect_unique(&g);
    // Forbid the solution's digit in one empty cell: no solution left.
    let cell = (0..81).find(|&c| g[c] == 0).expect("an empty cell");
    let mut m = masks(&g);
    m[cell] &= !(1 << (sol[cell] - 1));
    assert_eq!(solve_candidates(&m), Solutions::None);
    // Pencil marks equal to the solution digits plus one other candidate
    // per cell keep the solution.
    let mut m = sol.map(|v| 1u16 << (v - 1));
    for (c, x) in m.iter_mut().enumerate() {
        *x |= 1 << ((sol[c] as usize + c) % 9);
    }
    match solve_candidates(&m) {
        Solutions::Unique(s) | Solutions::Multiple { first: s } => assert_solution_of(&s, &m),
        Solutions::None => panic!("the solution itself fits the marks"),
    }
}

#[test]
fn high_bits_and_out_of_range_givens_are_ignored() {
    let g = givens(WIKI);
    let m = masks(&g).map(|x| x | 0xFE00);
    assert_eq!(
        solve_candidates(&m),
        Solutions::Unique(givens(WIKI_SOLUTION))
    );
    let mut h = g;
    for (k, v) in h.iter_mut().filter(|v| **v == 0).take(5).enumerate() {
        *v = 10 + 50 * k as u8;
    }
    assert_eq!(solve_givens(&h), Solutions::Unique(givens(WIKI_SOLUTION)));
}

#[test]
fn count_respects_the_limit() {
    let m = masks(&givens(MINIMAL));
    assert_eq!(count_solutions(&m, 0), 0);
    assert_eq!(count_solutions(&m, 1), 1);
    assert_eq!(count_solutions(&m, 7), 1);
    let open = [0x1FF; 81];
    for limit in 0..6 {
        assert_eq!(count_solutions(&open, limit), limit);
    }
}

#[test]
fn agrees_with_reference_on_perturbed_puzzles() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let base = masks(&givens(MINIMAL));
    for round in 0..60 {
        let mut m = base;
        match round % 3 {
            // Drop a few givens: usually several solutions.
            0 => {
                for _ in 0..1 + round % 4 {
                    let cell = (next() % 81) as usize;
                    m[cell] = 0x1FF;
                }
            }
            // Remove random candidates: often none.
            1 => {
                for _ in 0..25 {
                    let cell = (next() % 81) as usize;
                    m[cell] &= !(1 << (next() % 9));
                }
            }
            // Add a random given.
            _ => {
                let cell = (next() % 81) as usize;
                m[cell] = 1 << (next() % 9);
            }
        }
        let expected = reference_count(&m, 3);
        assert_eq!(count_solutions(&m, 3), expected, "round {round}");
        match (solve_candidates(&m), expected) {
            (Solutions::None, 0) => {}
            (Solutions::Unique(s), 1) | (Solutions::Multiple { first: s }, 2..) => {
                assert_solution_of(&s, &m);
            }
            (got, _) => panic!("round {round}: {got:?} but {expected} solutions"),
        }
    }
}

/// Counts up to `limit` with every tier this CPU can run (whatever
/// `RULEDOKU_ORACLE` says), named.
fn runs(m: &[u16; 81], limit: usize) -> Vec<(&'static str, Search)> {
    let tiers: Vec<Tier> = Tier::ALL
        .iter()
        .copied()
        .filter(|t| t.available())
        .collect();
    if tiers.len() < Tier::ALL.len() {
        eprintln!("note: this CPU runs only {tiers:?}");
    }
    tiers
        .into_iter()
        .map(|t| (t.name(), t.run(m, limit)))
        .collect()
}

/// Pencil marks of the first 81 characters of a line.
fn line_masks(line: &str) -> [u16; 81] {
    let mut g = [0u8; 81];
    for (cell, ch) in g.iter_mut().zip(line.bytes()) {
        if (b'1'..=b'9').contains(&ch) {
            *cell = ch - b'0';
        }
    }
    masks(&g)
}

#[test]
fn every_tier_agrees_with_the_reference() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let bases: Vec<[u16; 81]> = HARD
        .iter()
        .chain([&MINIMAL, &WIKI])
        .map(|p| line_masks(p))
        .collect();
    for (k, base) in bases.iter().enumerate() {
        for round in 0..12 {
            let mut m = *base;
            for _ in 0..round % 4 {
                m[(next() % 81) as usize] = 0x1FF;
            }
            for _ in 0..(round / 4) * 6 {
                m[(next() % 81) as usize] &= !(1 << (next() % 9));
            }
            let expected = reference_count(&m, 3);
            for (name, ctx) in runs(&m, 3) {
                assert_eq!(ctx.count, expected, "{name}, puzzle {k}, round {round}");
                match ctx.first {
                    Some(s) => assert_solution_of(&s, &m),
                    None => assert_eq!(expected, 0),
                }
            }
        }
    }
}

/// Every tier finds the same counts and the same first solutions: on 1000
/// puzzles of cbg-000, on the same with givens removed (several solutions)
/// and with candidates removed (often none), and on the hard puzzles.
#[test]
fn tiers_agree_on_samples() {
    let mut seed = 0x0BAD_5EED_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut kinds = [0usize; 3];
    let lines = crate::test_data::CBG_FIRST1000
        .lines()
        .chain(HARD)
        .filter(|l| l.len() >= 81);
    for line in lines {
        let base = line_masks(line);
        let mut fewer = base;
        for _ in 0..1 + next() % 4 {
            fewer[(next() % 81) as usize] = 0x1FF;
        }
        let mut marks = base;
        for _ in 0..20 {
            marks[(next() % 81) as usize] &= !(1 << (next() % 9));
        }
        for m in [base, fewer, marks] {
            let runs = runs(&m, 2);
            let (first, r0) = &runs[0];
            for (name, r) in &runs {
                assert_eq!(
                    (r.count, r.first),
                    (r0.count, r0.first),
                    "{name} differs from {first} on {line}"
                );
            }
            if let Some(s) = r0.first {
                assert_solution_of(&s, &m);
            }
            kinds[r0.count] += 1;
        }
    }
    // The sample has every outcome, many times.
    assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");
}

#[test]
fn the_best_tier_runs_unless_one_is_named() {
    let all = |_: Tier| true;
    let (best, _) = Tier::choose(None, all);
    assert_eq!(best, Tier::ALL[0]);
    for &t in Tier::ALL {
        assert_eq!(Tier::choose(Some(t.name()), all), (t, None));
    }
    assert_eq!(
        Tier::choose(Some("portable"), all),
        (
            best,
            Some(format!(
                "RULEDOKU_ORACLE=portable names no oracle (one of avx2, sse4, sse2, scalar); using {}",
                best.name()
            ))
        )
    );
    assert_eq!(Tier::choose(Some(""), all), (best, None));
    assert_eq!(Tier::choose(Some("AVX2"), all).0, best);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn a_tier_the_cpu_lacks_gives_way_to_the_best_it_has() {
    let no_avx2 = |t: Tier| t != Tier::Avx2;
    assert_eq!(Tier::choose(None, no_avx2), (Tier::Sse4, None));
    assert_eq!(
        Tier::choose(Some("avx2"), no_avx2),
        (
            Tier::Sse4,
            Some(
                "RULEDOKU_ORACLE=avx2: this CPU lacks the instructions of the avx2 oracle; using sse4"
                    .to_string()
            )
        )
    );
    assert_eq!(Tier::choose(Some("sse2"), no_avx2), (Tier::Sse2, None));
    let baseline = |t: Tier| matches!(t, Tier::Sse2 | Tier::Scalar);
    assert_eq!(Tier::choose(None, baseline), (Tier::Sse2, None));
    assert_eq!(Tier::choose(Some("sse4"), baseline).0, Tier::Sse2);
    assert_eq!(Tier::choose(Some("scalar"), baseline), (Tier::Scalar, None));
}
