//! The generic exact oracle: counts a puzzle's solutions up to a limit
//! for any puzzle type ([`Model`]), with no rules.
//!
//! Every CSP variable (a cell, a house and symbol) is "exactly one of its
//! candidates" and holds at most 64 (`N ≤ 64`), so the search keeps each
//! variable's live candidates as one machine word, with their number.
//! Propagation, to a fixpoint: a variable left with one live candidate
//! asserts it (naked and hidden singles alike: exact-cover propagation),
//! which eliminates every candidate linked to it; a variable left with
//! none is a contradiction; when every live candidate of a variable is
//! also one of another variable's (two house variables of one symbol
//! meeting in a group, [`Model::var_overlaps`]), that other variable's
//! remaining candidates are eliminated; where binary constraints join two
//! cells (Futoshiki's signs), a candidate of one cell linked to every
//! live candidate of the other is eliminated too (arc consistency, on the
//! symbol words). When propagation stops, the search branches on a
//! variable with the fewest live candidates (Algorithm X's rule), the one
//! whose candidates' other variables have the fewest live candidates
//! among those, trying its candidates in increasing order (or shuffled,
//! for random grids) and eliminating each tried candidate before the
//! next. Every change is recorded on a trail and undone on backtracking,
//! so the search holds one state whatever the type's size.
//!
//! A search that passes a budget of nodes (a quarter of the live
//! candidates) starts again with probing at the root: each live candidate
//! asserted in turn, and eliminated when propagation then fails. That
//! solves at the root the sparse 25×25 to 49×49 puzzles a plain search
//! would take minutes on. Every rule is sound, so counts do not depend
//! on them; which solution comes first when there are several does.
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
    // Killer cages' combinations: live until the givens' links say not.
    (m.n_cell_cands..m.n_cands).for_each(|z| live.insert(z));
    live
}

/// Counts the solutions of the puzzle whose live candidates are `live`,
/// up to `limit`.
pub fn count_solutions(m: &Model, live: &DynBits, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    exhaust(m, live, limit).found
}

/// Solves to two solutions: none, one, or several.
pub fn solve(m: &Model, live: &DynBits) -> Verdict {
    let s = exhaust(m, live, 2);
    match (s.found, s.first) {
        (0, _) | (_, None) => Verdict::None,
        (1, Some(g)) => Verdict::Unique(g),
        (_, Some(g)) => Verdict::Multiple { first: g },
    }
}

/// The search run to `limit` solutions: first without probing, within a
/// budget of nodes (a quarter of the live candidates: about what one
/// probing pass costs); past it, again from the start with probing at
/// the root.
fn exhaust<'a>(
    m: &'a Model,
    live: &DynBits,
    limit: usize,
) -> Search<'a, rand::rngs::Xoshiro256PlusPlus> {
    let mut s = Search::new(m, live, limit);
    s.budget = (live.count() as u64 / 4).max(64);
    s.run();
    if s.aborted {
        s = Search::new(m, live, limit);
        s.probe_root = true;
        s.run();
    }
    s
}

/// A solution of the puzzle, chosen at random by `rng` (branching tries a
/// variable's candidates in a random order), or `None`. A random descent
/// can wander into a large subtree without solutions: each try has a
/// budget of nodes (1,000, doubled at each new try), and the next try
/// starts again with the generator where the last left it.
pub fn random_solution<R: Rng>(m: &Model, live: &DynBits, rng: &mut R) -> Option<Vec<usize>> {
    let mut budget = 1000;
    loop {
        let mut s = Search::with_rng(m, live, 1);
        s.shuffle = Some(&mut *rng);
        s.budget = budget;
        s.run();
        if !s.aborted {
            return s.first;
        }
        budget = budget.saturating_mul(2);
    }
}

/// Bit `i` of a variable's word stands for its `i`-th candidate.
#[inline]
fn bit(i: u32) -> u64 {
    1u64 << i
}

/// The members of a word, lowest first.
#[inline]
fn members(mut w: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (w != 0).then(|| {
            let i = w.trailing_zeros();
            w &= w - 1;
            i
        })
    })
}

/// A constrained pair of cells, one way: `from`'s live symbols support
/// the symbols of `to` their rows of `compat` name.
struct Arc {
    from: u32,
    to: u32,
}

/// The search's state: each variable's live candidates as one machine
/// word (bit `i`: the variable's `i`-th candidate; a variable has `N ≤ 64`
/// candidates) and their number, the candidates asserted, the trail of
/// eliminated candidates.
struct Search<'a, R> {
    m: &'a Model,
    /// Per variable: its live candidates.
    live: Vec<u64>,
    /// Per variable: how many are live (`live`'s popcount, kept for the
    /// branching scan).
    count: Vec<u8>,
    /// Per candidate, one bit each: asserted (its links eliminated).
    asserted: Vec<u64>,
    /// Eliminated candidates, in order (undone by [`Search::undo`]).
    trail: Vec<u32>,
    /// Asserted candidates, in order.
    assert_trail: Vec<u32>,
    /// Variables left with one candidate, to assert.
    queue: Vec<u32>,
    /// A variable left with none since the last undo.
    dead: bool,
    /// The constrained pairs of cells, both ways, and for each, row `x`
    /// of `compat` (`arc * N + x`): the symbols of `to` that `from`'s
    /// symbol `x` allows (not linked to it).
    arcs: Vec<Arc>,
    compat: Vec<u64>,
    /// Variables that lost a candidate and share two or more with another
    /// ([`Model::var_overlaps`]), to look at.
    dirty: Vec<u32>,
    /// Probe every live candidate at the root ([`Search::probe`]).
    probe_root: bool,
    /// Nodes searched, and the most allowed: past it the search stops,
    /// `aborted`.
    nodes: u64,
    budget: u64,
    aborted: bool,
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
    fn with_rng(m: &'a Model, alive: &DynBits, limit: usize) -> Self {
        let mut live = vec![0u64; m.n_vars];
        let mut count = vec![0u8; m.n_vars];
        for (v, (w, c)) in live.iter_mut().zip(&mut count).enumerate() {
            let cands = m.var_cand_slice(v);
            assert!(cands.len() <= 64, "a variable of at most 64 candidates");
            for (i, &z) in cands.iter().enumerate() {
                if alive.contains(z as usize) {
                    *w |= bit(i as u32);
                }
            }
            *c = w.count_ones() as u8;
        }
        let queue = (0..m.n_vars as u32)
            .filter(|&v| count[v as usize] == 1)
            .collect();
        let dead = count.contains(&0);
        let n = m.n;
        let mut arcs = Vec::new();
        let mut compat = Vec::new();
        for &(a, b) in &m.constraint_cells {
            for (from, to) in [(a, b), (b, a)] {
                arcs.push(Arc {
                    from: from as u32,
                    to: to as u32,
                });
                for x in 0..n {
                    let v = m.cand(from, x);
                    compat.push(
                        (0..n)
                            .filter(|&y| !m.linked(v, m.cand(to, y)))
                            .fold(0, |w, y| w | bit(y as u32)),
                    );
                }
            }
        }
        Search {
            m,
            live,
            count,
            asserted: vec![0; m.n_cands.div_ceil(64)],
            trail: Vec::new(),
            assert_trail: Vec::new(),
            queue,
            dead,
            arcs,
            compat,
            dirty: Vec::new(),
            probe_root: false,
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
            limit,
            found: 0,
            first: None,
            shuffle: None,
        }
    }

    fn run(&mut self) {
        let m = self.m;
        self.dirty = (0..m.n_vars as u32)
            .filter(|&v| !m.var_overlaps(v as usize).is_empty())
            .collect();
        if !self.dead {
            self.search();
        }
    }

    /// Is candidate `z` live? (The cell's variable has index `cell` and
    /// holds the cell's candidates in symbol order; a cage's combination
    /// is read in its cage's variable.)
    #[inline]
    fn alive(&self, z: usize) -> bool {
        let m = self.m;
        if m.is_cell_cand(z) {
            self.live[m.cand_cell(z)] >> m.cand_symbol(z) & 1 == 1
        } else {
            let (vars, pos) = m.cand_var_slots(z);
            self.live[vars[0] as usize] >> pos[0] & 1 == 1
        }
    }

    /// Eliminates `z` (if live); false when a variable is left empty.
    #[inline]
    fn eliminate(&mut self, z: usize) -> bool {
        if !self.alive(z) {
            return true;
        }
        self.trail.push(z as u32);
        let (vars, pos) = self.m.cand_var_slots(z);
        for (&v, &p) in vars.iter().zip(pos) {
            let v = v as usize;
            self.live[v] &= !bit(p.into());
            self.count[v] -= 1;
            if !self.m.var_overlaps(v).is_empty() {
                self.dirty.push(v as u32);
            }
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
        self.asserted[z / 64] |= bit(z as u32 % 64);
        self.assert_trail.push(z as u32);
        let m = self.m;
        let (vars, pos) = m.cand_var_slots(z);
        for (&v, &p) in vars.iter().zip(pos) {
            let cands = m.var_cand_slice(v as usize);
            for i in members(self.live[v as usize] & !bit(p.into())) {
                if !self.eliminate(cands[i as usize] as usize) {
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

    /// Asserts the single candidates of the queued variables, applies
    /// the overlaps of the variables that lost candidates, and eliminates
    /// the candidates a constrained neighbour cell cannot support, to a
    /// fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            if !self.singles() {
                return false;
            }
            match self.overlaps() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.revise() {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// For each dirty variable `a` and each variable `b` it overlaps: when
    /// every live candidate of `a` is also one of `b`'s, `a`'s true
    /// candidate is `b`'s, so `b`'s other candidates are false (in
    /// Sudoku: pointing and claiming, for a block and a line). `None` on
    /// a contradiction, else whether anything was eliminated.
    fn overlaps(&mut self) -> Option<bool> {
        let m = self.m;
        let mut changed = false;
        while let Some(a) = self.dirty.pop() {
            let live = self.live[a as usize];
            for o in m.var_overlaps(a as usize) {
                if live & !o.mine != 0 {
                    continue;
                }
                let cands = m.var_cand_slice(o.other as usize);
                for i in members(self.live[o.other as usize] & !o.theirs) {
                    changed = true;
                    if !self.eliminate(cands[i as usize] as usize) {
                        return None;
                    }
                }
            }
        }
        Some(changed)
    }

    /// Probing: asserts each live candidate in turn (cell by cell, the
    /// cells' variables being the first ones) and propagates; one that
    /// leads to a contradiction is eliminated. A candidate asserted by a
    /// probe that held is not probed in the same pass (it implies no
    /// more than that probe did). Passes until one eliminates nothing;
    /// false on a contradiction.
    fn probe(&mut self) -> bool {
        let m = self.m;
        let mut implied = vec![0u64; m.n_cands.div_ceil(64)];
        loop {
            let mut changed = false;
            implied.fill(0);
            for cell in 0..m.n_cells {
                if self.count[cell] < 2 {
                    continue;
                }
                for s in members(self.live[cell]) {
                    let z = m.cand(cell, s as usize);
                    if !self.alive(z) || implied[z / 64] >> (z % 64) & 1 == 1 {
                        continue;
                    }
                    let mark = self.mark();
                    let fails = !(self.assert(z) && self.propagate());
                    if !fails {
                        for &w in &self.assert_trail[mark.1..] {
                            implied[w as usize / 64] |= bit(w % 64);
                        }
                    }
                    self.undo(mark);
                    if fails {
                        changed = true;
                        if !(self.eliminate(z) && self.propagate()) {
                            return false;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// One pass over the constrained pairs of cells: eliminates each
    /// candidate of one cell linked to every live candidate of the other.
    /// `None` on a contradiction, else whether anything was eliminated.
    fn revise(&mut self) -> Option<bool> {
        let n = self.m.n;
        let mut changed = false;
        for k in 0..self.arcs.len() {
            let (from, to) = (self.arcs[k].from as usize, self.arcs[k].to as usize);
            let rows = &self.compat[k * n..(k + 1) * n];
            let allowed = members(self.live[from]).fold(0, |w, x| w | rows[x as usize]);
            for s in members(self.live[to] & !allowed) {
                changed = true;
                if !self.eliminate(self.m.cand(to, s as usize)) {
                    return None;
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
            let z = self.m.var_cand_slice(v)[self.live[v].trailing_zeros() as usize] as usize;
            if self.asserted[z / 64] >> (z % 64) & 1 == 0 && !self.assert(z) {
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
        let m = self.m;
        for &z in &self.trail[trail..] {
            let (vars, pos) = m.cand_var_slots(z as usize);
            for (&v, &p) in vars.iter().zip(pos) {
                self.live[v as usize] |= bit(p.into());
                self.count[v as usize] += 1;
            }
        }
        self.trail.truncate(trail);
        for &z in &self.assert_trail[asserted..] {
            self.asserted[z as usize / 64] &= !bit(z % 64);
        }
        self.assert_trail.truncate(asserted);
        self.queue.clear();
        self.dirty.clear();
        self.dead = false;
    }

    /// The variable to branch on: the fewest live candidates (two or
    /// more), and among those the one whose candidates' other variables
    /// have the fewest live candidates in all (the most constrained), the
    /// first such in variable order; `None` when every variable has one.
    fn pick(&self) -> Option<usize> {
        // The fewest, scanned 64 counts at a time without branches:
        // count - 2, wrapping, so 0 and 1 become 254 and 255.
        let least = self
            .count
            .chunks(64)
            .map(|b| b.iter().fold(u8::MAX, |lo, &c| lo.min(c.wrapping_sub(2))))
            .min()?;
        if least >= u8::MAX - 1 {
            return None;
        }
        let want = least + 2;
        let m = self.m;
        let mut best: Option<(u64, usize)> = None;
        for (v, _) in self.count.iter().enumerate().filter(|&(_, &c)| c == want) {
            let row = m.var_cand_slice(v);
            let mut weight = 0u64;
            for i in members(self.live[v]) {
                let (vars, _) = m.cand_var_slots(row[i as usize] as usize);
                weight += vars
                    .iter()
                    .filter(|&&u| u as usize != v)
                    .map(|&u| u64::from(self.count[u as usize]))
                    .sum::<u64>();
            }
            if best.is_none_or(|(w, _)| weight < w) {
                best = Some((weight, v));
            }
        }
        best.map(|(_, v)| v)
    }

    fn search(&mut self) {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return;
        }
        if !self.propagate() {
            return;
        }
        if self.probe_root && self.nodes == 1 && !self.probe() {
            return;
        }
        let Some(v) = self.pick() else {
            self.found += 1;
            if self.first.is_none() {
                let m = self.m;
                let grid = (0..m.n_cells)
                    .map(|cell| self.live[cell].trailing_zeros() as usize)
                    .collect();
                self.first = Some(grid);
            }
            return;
        };
        // The variable's live candidates, in increasing order (or
        // shuffled), on the stack.
        let mut cands = [0u32; 64];
        let mut len = 0;
        let row = self.m.var_cand_slice(v);
        for i in members(self.live[v]) {
            cands[len] = row[i as usize];
            len += 1;
        }
        let cands = &mut cands[..len];
        if let Some(rng) = self.shuffle.as_deref_mut() {
            cands.shuffle(rng);
        }
        let start = self.mark();
        for (i, &z) in cands.iter().enumerate() {
            let z = z as usize;
            if !self.alive(z) {
                continue;
            }
            let mark = self.mark();
            if self.assert(z) {
                self.search();
            }
            self.undo(mark);
            if self.found >= self.limit || self.aborted {
                break;
            }
            // z is false in the branches that follow.
            if i + 1 < len && !(self.eliminate(z) && self.propagate()) {
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

    /// Small types counted exhaustively. Known counts: 4×4 Sudoku grids
    /// 288; Latin squares of order 4 576 and of order 5 161,280 (OEIS
    /// A002860); 5×5 pandiagonal Latin squares with the first row 12345:
    /// 2 (the cyclic squares of steps 2 and 3), so 2 × 5! = 240 in all
    /// (relabelling the symbols fixes the first row); by hand: 3×3
    /// Futoshiki with r1c1 < r1c2 < r1c3: 2.
    #[test]
    fn counts_of_small_types() {
        let all = |m: &Model| DynBits::full(m.n_cands);
        let m = model("sudoku:4");
        assert_eq!(count_solutions(&m, &all(&m), 1000), 288);
        let m = model("latin:4");
        assert_eq!(count_solutions(&m, &all(&m), 1000), 576);
        let m = model("latin:5");
        assert_eq!(count_solutions(&m, &all(&m), 200_000), 161_280);
        assert_eq!(count_solutions(&m, &all(&m), 1000), 1000);
        let m = model("pandiagonal:5");
        assert_eq!(count_solutions(&m, &all(&m), 1000), 240);
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
        assert_eq!(count_solutions(&m, &live, 0), 0);
    }

    /// Probing at the root changes no count: random grids of several
    /// types with most givens removed (up to thousands of solutions),
    /// counted with probing and without, agree.
    #[test]
    fn probing_keeps_counts() {
        use rand::SeedableRng;
        for name in ["sudoku:6", "latin:6", "pandiagonal:7", "sudoku:8"] {
            let m = model(name);
            let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(3);
            for i in 0..4 {
                let grid = random_solution(&m, &DynBits::full(m.n_cands), &mut rng).unwrap();
                // One given in 2 to 5: several solutions, often many.
                let g: Vec<Option<usize>> = grid
                    .iter()
                    .enumerate()
                    .map(|(c, &s)| (c % (2 + i) == 0).then_some(s))
                    .collect();
                let live = live_from_givens(&m, &g);
                let plain = {
                    let mut s = Search::new(&m, &live, 5000);
                    s.run();
                    s.found
                };
                let probed = {
                    let mut s = Search::new(&m, &live, 5000);
                    s.probe_root = true;
                    s.run();
                    s.found
                };
                assert_eq!(plain, probed, "{name} {i}");
                assert_eq!(count_solutions(&m, &live, 5000), plain, "{name} {i}");
            }
        }
    }

    /// A search past its budget stops, and `exhaust` starts again with
    /// probing: the 25×25 example `ton-25x25-W3` of CSP-Rules-Examples
    /// (tests/data/csp-rules/sudoku-25.txt line 2) needs more than 20,000
    /// nodes without probing and one with it.
    #[test]
    fn a_budget_stops_the_search() {
        let m = model("sudoku:25");
        let text = include_str!("../../tests/data/csp-rules/sudoku-25.txt");
        let line = text.lines().nth(1).unwrap();
        let live = live_from_givens(&m, &givens(&m, line));
        let mut s = Search::new(&m, &live, 2);
        s.budget = 20_000;
        s.run();
        assert!(s.aborted);
        let s = exhaust(&m, &live, 2);
        assert!(!s.aborted && s.probe_root);
        assert_eq!(s.found, 1);
        assert!(s.nodes <= 2, "{} nodes", s.nodes);
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
