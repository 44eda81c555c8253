//! The generic exact oracle: counts a puzzle's solutions up to a limit
//! for any puzzle type ([`Model`]), with no rules.
//!
//! Propagation runs over the type's variables and links: a candidate
//! asserted eliminates every candidate linked to it; a variable left with
//! one live candidate asserts it, with none it is a contradiction. Where
//! binary constraints join two cells (Futoshiki's signs), a candidate of
//! one cell linked to every live candidate of the other is eliminated too
//! (arc consistency): without it, signs act only once a cell is decided,
//! and the search grows beyond reach. When
//! propagation stops, the search branches on a variable with the fewest
//! live candidates (the first such in variable order), trying its
//! candidates in increasing order (or a shuffled order, for random grids)
//! and eliminating each tried candidate before the next. Every change is
//! recorded on a trail and undone on backtracking, so the search holds
//! one state whatever the type's size.
//!
//! The classic 9×9 Sudoku keeps its specialised bitboard solver
//! ([`super::solver`]); both give the same counts
//! (`tests::the_generic_oracle_agrees_with_the_bitboard_solver`).

use crate::model::{DynBits, Model};
use rand::Rng;
use rand::seq::SliceRandom;

/// What the generic oracle found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one solution: each cell's symbol (0-based).
    Unique(Vec<usize>),
    /// At least two; `first` is the first found.
    Multiple { first: Vec<usize> },
}

/// The live candidates of a puzzle given by its givens (`None`: an empty
/// cell; `Some(s)`: symbol `s` given).
pub fn live_from_givens(m: &Model, givens: &[Option<usize>]) -> DynBits {
    let mut live = DynBits::new(m.n_cands);
    for (cell, g) in givens.iter().enumerate() {
        match g {
            Some(s) => live.insert(m.cand(cell, *s)),
            None => (0..m.n).for_each(|s| live.insert(m.cand(cell, s))),
        }
    }
    live
}

/// Counts the solutions of the puzzle whose live candidates are `live`,
/// up to `limit`.
pub fn count_solutions(m: &Model, live: &DynBits, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    let mut s = Search::new(m, live, limit);
    s.run();
    s.found
}

/// Solves to two solutions: none, one, or several.
pub fn solve(m: &Model, live: &DynBits) -> Verdict {
    let mut s = Search::new(m, live, 2);
    s.run();
    match (s.found, s.first) {
        (0, _) | (_, None) => Verdict::None,
        (1, Some(g)) => Verdict::Unique(g),
        (_, Some(g)) => Verdict::Multiple { first: g },
    }
}

/// A solution of the puzzle, chosen at random by `rng` (branching tries a
/// variable's candidates in a random order), or `None`.
pub fn random_solution<R: Rng>(m: &Model, live: &DynBits, rng: &mut R) -> Option<Vec<usize>> {
    let mut s = Search::with_rng(m, live, 1);
    s.shuffle = Some(rng);
    s.run();
    s.first
}

/// The search's state: live candidates, each variable's live count, the
/// trail of eliminated candidates, the asserted ones.
struct Search<'a, R> {
    m: &'a Model,
    alive: Vec<bool>,
    asserted: Vec<bool>,
    count: Vec<u32>,
    /// Eliminated candidates, in order (undone by [`Search::undo`]).
    trail: Vec<u32>,
    /// Asserted candidates, in order.
    assert_trail: Vec<u32>,
    /// Variables left with one candidate, to assert.
    queue: Vec<u32>,
    /// A variable left with none since the last undo.
    dead: bool,
    limit: usize,
    found: usize,
    first: Option<Vec<usize>>,
    shuffle: Option<&'a mut R>,
}

impl<'a> Search<'a, rand::rngs::Xoshiro256PlusPlus> {
    fn new(m: &'a Model, live: &DynBits, limit: usize) -> Self {
        Search::with_rng(m, live, limit)
    }
}

impl<'a, R: Rng> Search<'a, R> {
    fn with_rng(m: &'a Model, live: &DynBits, limit: usize) -> Self {
        let alive: Vec<bool> = (0..m.n_cands).map(|z| live.contains(z)).collect();
        let mut count = vec![0u32; m.n_vars];
        for (v, c) in count.iter_mut().enumerate() {
            *c = m.var_cands(v).filter(|&z| alive[z]).count() as u32;
        }
        let queue = (0..m.n_vars as u32)
            .filter(|&v| count[v as usize] == 1)
            .collect();
        let dead = count.contains(&0);
        Search {
            m,
            alive,
            asserted: vec![false; m.n_cands],
            count,
            trail: Vec::new(),
            assert_trail: Vec::new(),
            queue,
            dead,
            limit,
            found: 0,
            first: None,
            shuffle: None,
        }
    }

    fn run(&mut self) {
        if !self.dead {
            self.search();
        }
    }

    /// Eliminates `z` (if live); false when a variable is left empty.
    fn eliminate(&mut self, z: usize) -> bool {
        if !self.alive[z] {
            return true;
        }
        self.alive[z] = false;
        self.trail.push(z as u32);
        for v in self.m.cand_vars(z) {
            self.count[v] -= 1;
            match self.count[v] {
                0 => self.dead = true,
                1 => self.queue.push(v as u32),
                _ => {}
            }
        }
        !self.dead
    }

    /// Asserts live candidate `z`: eliminates its links.
    fn assert(&mut self, z: usize) -> bool {
        self.asserted[z] = true;
        self.assert_trail.push(z as u32);
        let m = self.m;
        for v in m.cand_vars(z) {
            for w in m.var_cands(v) {
                if w != z && !self.eliminate(w) {
                    return false;
                }
            }
        }
        for &w in m.constraint_links(z) {
            if !self.eliminate(w as usize) {
                return false;
            }
        }
        true
    }

    /// Asserts the single candidates of the queued variables, and
    /// eliminates the candidates a constrained neighbour cell cannot
    /// support, to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            if !self.singles() {
                return false;
            }
            match self.revise() {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// One pass over the constrained pairs of cells: eliminates each
    /// candidate of one cell linked to every live candidate of the other.
    /// `None` on a contradiction, else whether anything was eliminated.
    fn revise(&mut self) -> Option<bool> {
        let m = self.m;
        let mut changed = false;
        for &(a, b) in &m.constraint_cells {
            for (from, to) in [(a, b), (b, a)] {
                for s in 0..m.n {
                    let w = m.cand(to, s);
                    if !self.alive[w] {
                        continue;
                    }
                    let supported = (0..m.n).any(|x| {
                        let v = m.cand(from, x);
                        self.alive[v] && !m.linked(v, w)
                    });
                    if !supported {
                        changed = true;
                        if !self.eliminate(w) {
                            return None;
                        }
                    }
                }
            }
        }
        Some(changed)
    }

    /// Asserts the single candidates of the queued variables, to a
    /// fixpoint; false on a contradiction.
    fn singles(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            if self.dead {
                return false;
            }
            let v = v as usize;
            if self.count[v] != 1 {
                continue;
            }
            let z = self
                .m
                .var_cands(v)
                .find(|&z| self.alive[z])
                .expect("a variable with one live candidate");
            if !self.asserted[z] && !self.assert(z) {
                return false;
            }
        }
        !self.dead
    }

    fn mark(&self) -> (usize, usize) {
        (self.trail.len(), self.assert_trail.len())
    }

    /// Undoes every change made since `mark`.
    fn undo(&mut self, (trail, asserted): (usize, usize)) {
        while self.trail.len() > trail {
            let z = self.trail.pop().expect("above the mark") as usize;
            self.alive[z] = true;
            for v in self.m.cand_vars(z) {
                self.count[v] += 1;
            }
        }
        while self.assert_trail.len() > asserted {
            let z = self.assert_trail.pop().expect("above the mark");
            self.asserted[z as usize] = false;
        }
        self.queue.clear();
        self.dead = false;
    }

    /// The variable to branch on: the fewest live candidates (two or
    /// more), the first such; `None` when every variable has one.
    fn pick(&self) -> Option<usize> {
        let mut best: Option<(u32, usize)> = None;
        for (v, &c) in self.count.iter().enumerate() {
            if c >= 2 && best.is_none_or(|(b, _)| c < b) {
                best = Some((c, v));
                if c == 2 {
                    break;
                }
            }
        }
        best.map(|(_, v)| v)
    }

    fn search(&mut self) {
        if !self.propagate() {
            return;
        }
        let Some(v) = self.pick() else {
            self.found += 1;
            if self.first.is_none() {
                let m = self.m;
                let grid = (0..m.n_cells)
                    .map(|cell| {
                        (0..m.n)
                            .find(|&s| self.alive[m.cand(cell, s)])
                            .expect("a solved cell has one live candidate")
                    })
                    .collect();
                self.first = Some(grid);
            }
            return;
        };
        let mut cands: Vec<usize> = self.m.var_cands(v).filter(|&z| self.alive[z]).collect();
        if let Some(rng) = self.shuffle.as_deref_mut() {
            cands.shuffle(rng);
        }
        let start = self.mark();
        for (i, &z) in cands.iter().enumerate() {
            if !self.alive[z] {
                continue;
            }
            let mark = self.mark();
            if self.assert(z) {
                self.search();
            }
            self.undo(mark);
            if self.found >= self.limit {
                break;
            }
            // z is false in the branches that follow.
            if i + 1 < cands.len() && !(self.eliminate(z) && self.propagate()) {
                break;
            }
        }
        self.undo(start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::builtin::builtin;
    use crate::oracle::solver;
    use crate::test_data::CBG_FIRST1000;

    fn model(name: &str) -> Model {
        Model::build(builtin(name).unwrap())
    }

    fn givens(m: &Model, line: &str) -> Vec<Option<usize>> {
        line.chars()
            .take(m.n_cells)
            .map(|c| m.spec.symbols.iter().position(|s| s.starts_with(c)))
            .collect()
    }

    /// The generic oracle and the 9×9 bitboard solver agree on the first
    /// 300 cbg-000 puzzles, on copies with givens removed (several
    /// solutions) and on copies with a wrong given (none).
    #[test]
    fn the_generic_oracle_agrees_with_the_bitboard_solver() {
        let m = model("sudoku");
        for (k, line) in CBG_FIRST1000.lines().take(300).enumerate() {
            let mut puzzle: Vec<char> = line.chars().take(81).collect();
            if k % 3 == 1 {
                // Fewer givens: often several solutions.
                let mut gone = 0;
                for c in puzzle.iter_mut() {
                    if *c != '.' && gone < 4 {
                        *c = '.';
                        gone += 1;
                    }
                }
            } else if k % 3 == 2 {
                // A given changed: often no solution.
                let i = puzzle.iter().position(|&c| c == '.').unwrap();
                puzzle[i] = char::from(b'1' + (k % 9) as u8);
            }
            let text: String = puzzle.iter().collect();
            let g = givens(&m, &text);
            let live = live_from_givens(&m, &g);
            let mut masks = [0x1ffu16; 81];
            for (c, s) in g.iter().enumerate() {
                if let Some(s) = s {
                    masks[c] = 1 << s;
                }
            }
            let want = solver::solve_candidates(&masks);
            let got = solve(&m, &live);
            let grid = |v: &[usize]| -> [u8; 81] { std::array::from_fn(|i| v[i] as u8 + 1) };
            match (&want, &got) {
                (solver::Solutions::None, Verdict::None) => {}
                (solver::Solutions::Unique(a), Verdict::Unique(b)) => assert_eq!(*a, grid(b)),
                (solver::Solutions::Multiple { .. }, Verdict::Multiple { .. }) => {}
                _ => panic!("puzzle {k} {text}: {want:?} vs {got:?}"),
            }
            for limit in [1, 3] {
                assert_eq!(
                    count_solutions(&m, &live, limit),
                    solver::count_solutions(&masks, limit),
                    "puzzle {k}, limit {limit}"
                );
            }
        }
    }

    /// Small types counted exhaustively: 4×4 Sudoku has 288 grids, 4×4
    /// Latin squares 576, 5×5 pandiagonal Latin squares 240 (with the
    /// first row 12345: 2), 3×3 Futoshiki with r1c1 < r1c2 < r1c3: 2.
    #[test]
    fn counts_of_small_types() {
        let all = |m: &Model| DynBits::full(m.n_cands);
        let m = model("sudoku:4");
        assert_eq!(count_solutions(&m, &all(&m), 1000), 288);
        let m = model("latin:4");
        assert_eq!(count_solutions(&m, &all(&m), 1000), 576);
        let m = model("pandiagonal:5");
        let first_row = live_from_givens(
            &m,
            &(0..25).map(|c| (c < 5).then_some(c)).collect::<Vec<_>>(),
        );
        assert_eq!(count_solutions(&m, &first_row, 1000), 2);
        let m = model("futoshiki:3");
        use crate::model::Constraint;
        let p = m.with_constraints(&[Constraint::less(0, 1, 3), Constraint::less(1, 2, 3)]);
        assert_eq!(count_solutions(&p, &all(&p), 1000), 2);
        match solve(&p, &all(&p)) {
            Verdict::Multiple { first } => assert_eq!(&first[..3], &[0, 1, 2]),
            v => panic!("{v:?}"),
        }
        // A contradiction among the givens: none.
        let m = model("latin:3");
        let live = live_from_givens(
            &m,
            &[Some(0), Some(0), None, None, None, None, None, None, None],
        );
        assert_eq!(solve(&m, &live), Verdict::None);
    }

    /// A random solution is a solution, and the same generator state gives
    /// the same one.
    #[test]
    fn random_solutions_are_solutions() {
        use rand::SeedableRng;
        let m = model("sudoku:16");
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(5);
        let a = random_solution(&m, &DynBits::full(m.n_cands), &mut rng).unwrap();
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(5);
        let b = random_solution(&m, &DynBits::full(m.n_cands), &mut rng).unwrap();
        assert_eq!(a, b);
        let live = live_from_givens(&m, &a.iter().map(|&s| Some(s)).collect::<Vec<_>>());
        assert_eq!(count_solutions(&m, &live, 2), 1);
    }
}
