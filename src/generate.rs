//! Random puzzles: a random complete grid, then a minimal puzzle whose
//! unique solution it is, by the brute-force oracle alone (no rules).
//!
//! The generator is *top-down*: starting from the grid's 81 givens, it
//! tries the cells in a random order and removes each given whose removal
//! keeps the solution unique. The result is minimal (removing any one
//! given leaves several solutions): a given kept because its removal broke
//! uniqueness at its turn still breaks it later, with fewer givens.
//!
//! Top-down generation is biased: it favours puzzles with more givens than
//! minimal puzzles taken uniformly at random have (Berthier's
//! controlled-bias generator, used for the cbg collections, corrects for
//! it). The puzzles are good test and benchmark material, not a sample for
//! statistics of the whole population of minimal puzzles.
//!
//! Puzzle `i` of seed `s` depends on `(s, i)` alone: a run of `n` puzzles
//! is the first `n` of any longer run with the same seed, whatever the
//! number of threads.
//!
//! Architecture Invariant: generation uses the oracle only, never rules, so
//! the puzzles it makes are unbiased by what the rules can solve.

use crate::oracle::solver::count_solutions;
use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

/// Every digit possible: a cell's mask before anything is placed.
const ALL: u16 = 0x1ff;

/// The random number generator of puzzle `index` of a run with `seed`.
fn rng_for(seed: u64, index: u64) -> Xoshiro256PlusPlus {
    // Distinct indices of one seed give distinct seeds (the multiplier is
    // odd, so `index ↦ index · k` is a bijection of u64).
    Xoshiro256PlusPlus::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A random complete grid (digits `1..=9`, row by row): cells in a random
/// order each take a random digit among those that leave a solution.
fn random_grid(rng: &mut Xoshiro256PlusPlus) -> [u8; 81] {
    let mut masks = [ALL; 81];
    let mut cells: Vec<usize> = (0..81).collect();
    cells.shuffle(rng);
    for &c in &cells {
        let mut digits: Vec<u16> = (0..9).filter(|d| masks[c] >> d & 1 == 1).collect();
        digits.shuffle(rng);
        let placed = digits.into_iter().any(|d| {
            masks[c] = 1 << d;
            count_solutions(&masks, 1) == 1
        });
        // The mask held a digit that leaves a solution (the grid had one
        // before this cell was placed), so one is always placed.
        assert!(
            placed,
            "a cell of a solvable grid has a digit that keeps it solvable"
        );
    }
    let mut grid = [0u8; 81];
    for (g, m) in grid.iter_mut().zip(masks) {
        *g = m.trailing_zeros() as u8 + 1;
    }
    grid
}

/// The cells' masks of a puzzle's givens (`0` = empty).
fn masks_of(givens: &[u8; 81]) -> [u16; 81] {
    let mut masks = [ALL; 81];
    for (m, &g) in masks.iter_mut().zip(givens) {
        if g != 0 {
            *m = 1 << (g - 1);
        }
    }
    masks
}

/// A minimal puzzle whose unique solution is `grid`: its givens tried for
/// removal in a random order.
fn minimal_puzzle(grid: &[u8; 81], rng: &mut Xoshiro256PlusPlus) -> [u8; 81] {
    let mut givens = *grid;
    let mut cells: Vec<usize> = (0..81).collect();
    cells.shuffle(rng);
    for c in cells {
        let kept = givens[c];
        givens[c] = 0;
        if count_solutions(&masks_of(&givens), 2) != 1 {
            givens[c] = kept;
        }
    }
    givens
}

/// One generated puzzle: the minimal puzzle (`0` = empty cell) and its
/// solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    pub puzzle: [u8; 81],
    pub solution: [u8; 81],
}

impl Generated {
    /// The givens: how many cells the puzzle fills.
    pub fn clues(&self) -> usize {
        self.puzzle.iter().filter(|&&g| g != 0).count()
    }
}

/// Puzzle `index` of the run with `seed`.
pub fn generate(seed: u64, index: u64) -> Generated {
    let mut rng = rng_for(seed, index);
    let solution = random_grid(&mut rng);
    let puzzle = minimal_puzzle(&solution, &mut rng);
    Generated { puzzle, solution }
}

/// A grid as an 81-character line, `.` for an empty cell.
pub fn line(cells: &[u8; 81]) -> String {
    cells
        .iter()
        .map(|&g| if g == 0 { '.' } else { char::from(b'0' + g) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Removing any one given of a generated puzzle leaves several
    /// solutions; the puzzle has exactly one, its solution, which is a
    /// valid grid holding the givens.
    #[test]
    fn puzzles_are_minimal_and_unique() {
        for i in 0..20 {
            let g = generate(7, i);
            assert_eq!(count_solutions(&masks_of(&g.puzzle), 2), 1);
            assert_eq!(count_solutions(&masks_of(&g.solution), 2), 1);
            for c in 0..81 {
                if g.puzzle[c] != 0 {
                    assert_eq!(g.puzzle[c], g.solution[c]);
                    let mut fewer = g.puzzle;
                    fewer[c] = 0;
                    assert_eq!(
                        count_solutions(&masks_of(&fewer), 2),
                        2,
                        "puzzle {i} cell {c}"
                    );
                }
            }
            assert!((17..=40).contains(&g.clues()), "{} clues", g.clues());
        }
    }

    /// Each row, column and block of a generated grid holds each digit once.
    #[test]
    fn grids_are_valid() {
        for i in 0..20 {
            let s = generate(3, i).solution;
            for k in 0..9 {
                let row: u16 = (0..9).map(|j| 1 << s[k * 9 + j]).sum();
                let col: u16 = (0..9).map(|j| 1 << s[j * 9 + k]).sum();
                let (r0, c0) = (k / 3 * 3, k % 3 * 3);
                let block: u16 = (0..9).map(|j| 1 << s[(r0 + j / 3) * 9 + c0 + j % 3]).sum();
                assert_eq!((row, col, block), (0x3fe, 0x3fe, 0x3fe));
            }
        }
    }

    /// A puzzle depends on its seed and index only; other indices and seeds
    /// give other puzzles.
    #[test]
    fn puzzles_are_reproducible() {
        assert_eq!(generate(11, 5), generate(11, 5));
        assert_ne!(generate(11, 5).puzzle, generate(11, 6).puzzle);
        assert_ne!(generate(11, 5).puzzle, generate(12, 5).puzzle);
    }
}

/// One generated puzzle of any type: the givens (`None` empty), the
/// solution (each cell's symbol), and for types whose puzzles carry signs
/// (Futoshiki) the signs kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedGenerated {
    pub puzzle: Vec<Option<usize>>,
    pub solution: Vec<usize>,
    pub signs: Vec<crate::model::Constraint>,
}

impl TypedGenerated {
    /// The givens: how many cells the puzzle fills.
    pub fn clues(&self) -> usize {
        self.puzzle.iter().flatten().count()
    }
}

/// Puzzle `index` of the run with `seed`, of type `m`, by the generic
/// oracle: a random solution, then (with every sign between neighbours
/// when the type's puzzles carry signs) givens and signs tried for
/// removal in a random order, each removed when the solution stays
/// unique. The result is minimal: removing any one given or sign leaves
/// several solutions. Depends on `(seed, index)` alone.
pub fn generate_typed(m: &crate::model::Model, seed: u64, index: u64) -> TypedGenerated {
    use crate::model::{Constraint, DynBits};
    use crate::oracle::generic::{count_solutions, live_from_givens, random_solution};
    let mut rng = rng_for(seed, index);
    let solution = random_solution(m, &DynBits::full(m.n_cands), &mut rng)
        .expect("an empty grid of a built-in or checked type has a solution");
    let n = m.n;
    let mut signs: Vec<Constraint> = Vec::new();
    if m.spec.puzzle_signs {
        for r in 0..n {
            for c in 0..n {
                let a = r * n + c;
                for b in [(c + 1 < n).then_some(a + 1), (r + 1 < n).then_some(a + n)]
                    .into_iter()
                    .flatten()
                {
                    let (lo, hi) = if solution[a] < solution[b] {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    signs.push(Constraint::less(lo, hi, n));
                }
            }
        }
    }
    let mut puzzle: Vec<Option<usize>> = solution.iter().map(|&s| Some(s)).collect();
    let mut kept = vec![true; signs.len()];
    // Items: cells `0..n_cells`, then signs.
    let mut items: Vec<usize> = (0..m.n_cells + signs.len()).collect();
    items.shuffle(&mut rng);
    let unique = |puzzle: &[Option<usize>], kept: &[bool]| {
        let live = live_from_givens(m, puzzle);
        if signs.is_empty() {
            count_solutions(m, &live, 2) == 1
        } else {
            let own: Vec<Constraint> = signs
                .iter()
                .zip(kept)
                .filter(|(_, k)| **k)
                .map(|(s, _)| s.clone())
                .collect();
            count_solutions(&m.with_constraints(&own), &live, 2) == 1
        }
    };
    for item in items {
        if item < m.n_cells {
            let given = puzzle[item].take();
            if !unique(&puzzle, &kept) {
                puzzle[item] = given;
            }
        } else {
            let k = item - m.n_cells;
            kept[k] = false;
            if !unique(&puzzle, &kept) {
                kept[k] = true;
            }
        }
    }
    let signs = signs
        .into_iter()
        .zip(kept)
        .filter(|(_, k)| *k)
        .map(|(s, _)| s)
        .collect();
    TypedGenerated {
        puzzle,
        solution,
        signs,
    }
}

/// A killer puzzle of the generator: cages over a solution grid, no
/// givens.
#[derive(Clone, Debug)]
pub struct KillerGenerated {
    /// The type with the cages added (its `variants` end with them).
    pub model: crate::model::Model,
    /// Each cell's symbol (0-based).
    pub solution: Vec<usize>,
    /// The cages: cells (in the order they were grown) and sum.
    pub cages: Vec<(Vec<usize>, usize)>,
    /// How many sets of cages were drawn before one gave a unique
    /// solution (1: the first did).
    pub tries: usize,
}

/// The largest cage the generator grows.
pub const KILLER_MAX_CAGE: usize = 5;

/// Killer puzzle `index` of the run with `seed`, over type `m` (its
/// houses and variants kept): a random solution grid, then random cages
/// covering the grid (each grown from a random free cell through free
/// orthogonal neighbours to a random size from 1 to [`KILLER_MAX_CAGE`],
/// never repeating a symbol of the solution; smaller when no free
/// neighbour fits), summed; drawn again until
/// the cages alone have one solution. Depends on `(seed, index)` alone.
pub fn generate_killer(m: &crate::model::Model, seed: u64, index: u64) -> KillerGenerated {
    use crate::model::{DynBits, Model, Variant};
    use crate::oracle::generic::{count_solutions, random_solution};
    let mut rng = rng_for(seed, index);
    let solution = random_solution(m, &DynBits::full(m.n_cands), &mut rng)
        .expect("an empty grid of a built-in or checked type has a solution");
    let n = m.n;
    let mut tries = 0;
    loop {
        tries += 1;
        let cages = random_cages(n, &solution, &mut rng);
        let mut spec = m.spec.clone();
        let base = std::mem::take(&mut spec.variants);
        spec.variants = cages
            .iter()
            .map(|(cells, sum)| Variant::KillerCage {
                cells: cells.clone(),
                sum: Some(*sum),
            })
            .collect();
        crate::model::variant::apply(&mut spec).expect("cages grown over a solution are valid");
        let mut all = base;
        all.append(&mut spec.variants);
        spec.variants = all;
        let model = Model::build(spec);
        if count_solutions(&model, &DynBits::full(model.n_cands), 2) == 1 {
            return KillerGenerated {
                model,
                solution,
                cages,
                tries,
            };
        }
    }
}

/// Random cages covering an `n × n` grid (see [`generate_killer`]).
fn random_cages<R: rand::Rng>(
    n: usize,
    solution: &[usize],
    rng: &mut R,
) -> Vec<(Vec<usize>, usize)> {
    use rand::RngExt;
    use rand::seq::IndexedRandom;
    let mut free = vec![true; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cages = Vec::new();
    for start in order {
        if !free[start] {
            continue;
        }
        let size = rng.random_range(1..=KILLER_MAX_CAGE.min(n));
        let mut cells = vec![start];
        free[start] = false;
        while cells.len() < size {
            let mut next: Vec<usize> = Vec::new();
            for &c in &cells {
                let (r, col) = (c / n, c % n);
                let mut around = Vec::with_capacity(4);
                if r > 0 {
                    around.push(c - n);
                }
                if r + 1 < n {
                    around.push(c + n);
                }
                if col > 0 {
                    around.push(c - 1);
                }
                if col + 1 < n {
                    around.push(c + 1);
                }
                for d in around {
                    let repeats = cells.iter().any(|&x| solution[x] == solution[d]);
                    if free[d] && !repeats && !next.contains(&d) {
                        next.push(d);
                    }
                }
            }
            let Some(&d) = next.choose(rng) else { break };
            free[d] = false;
            cells.push(d);
        }
        let sum = cells.iter().map(|&c| solution[c] + 1).sum();
        cages.push((cells, sum));
    }
    cages
}

#[cfg(test)]
mod typed_tests {
    use super::*;
    use crate::model::{Model, builtin::builtin};
    use crate::oracle::generic::{count_solutions, live_from_givens};

    /// Generated puzzles of other types are unique and minimal, and
    /// depend on seed and index only.
    #[test]
    fn typed_puzzles_are_minimal_and_unique() {
        for name in ["latin:6", "sudoku:6", "pandiagonal:7", "futoshiki:5"] {
            let m = Model::build(builtin(name).unwrap());
            for i in 0..3 {
                let g = generate_typed(&m, 9, i);
                assert_eq!(g, generate_typed(&m, 9, i));
                let p = m.with_constraints(&g.signs);
                let count = |puzzle: &[Option<usize>], model: &Model| {
                    count_solutions(model, &live_from_givens(model, puzzle), 2)
                };
                assert_eq!(count(&g.puzzle, &p), 1, "{name} {i}");
                let solved: Vec<Option<usize>> = g.solution.iter().map(|&s| Some(s)).collect();
                assert_eq!(count(&solved, &p), 1);
                for c in 0..m.n_cells {
                    if let Some(s) = g.puzzle[c] {
                        assert_eq!(s, g.solution[c]);
                        let mut fewer = g.puzzle.clone();
                        fewer[c] = None;
                        assert_eq!(count(&fewer, &p), 2, "{name} {i} cell {c}");
                    }
                }
                for k in 0..g.signs.len() {
                    let mut fewer = g.signs.clone();
                    fewer.remove(k);
                    assert_eq!(count(&g.puzzle, &m.with_constraints(&fewer)), 2);
                }
            }
            assert_ne!(
                generate_typed(&m, 9, 0).puzzle,
                generate_typed(&m, 9, 1).puzzle
            );
        }
    }
}
