//! The typed chain search (`typed::chain`) against a brute-force enumeration of the chain
//! definitions (`docs/chains.md`), on random states of types other than
//! classic Sudoku: every target for which some chain of the spec exists
//! (all sequences of distinct variables tried, nothing merged) is one the
//! search finds a chain for, and the other way round.

use ruledoku::grid::bits::BitSet;
use ruledoku::model::{Constraint, Model, builtin::builtin};
use ruledoku::search::chain::{Ending, Linking};
use ruledoku::search::{SearchCx, SearcherKind};
use ruledoku::typed::chain::{TypedChain, group_in_var};
use ruledoku::typed::{Evidence, Frame, State};
use std::sync::Arc;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A solution grid of `m` found by backtracking from a shuffled order of
/// symbols, so that every type's houses are respected.
fn solution(m: &Model, rng: &mut Rng) -> Vec<usize> {
    fn fill(m: &Model, cell: usize, grid: &mut Vec<Option<usize>>, rng: &mut Rng) -> bool {
        if cell == m.n_cells {
            return true;
        }
        let start = rng.below(m.n);
        for i in 0..m.n {
            let s = (start + i) % m.n;
            let z = m.cand(cell, s);
            let ok = m
                .links(z)
                .into_iter()
                .all(|w| grid[m.cand_cell(w)] != Some(m.cand_symbol(w)));
            if ok {
                grid[cell] = Some(s);
                if fill(m, cell + 1, grid, rng) {
                    return true;
                }
                grid[cell] = None;
            }
        }
        false
    }
    let mut grid = vec![None; m.n_cells];
    assert!(fill(m, 0, &mut grid, rng));
    grid.into_iter().map(|s| s.expect("filled")).collect()
}

/// A random state: some givens of a solution, then a few candidates that
/// are not the solution's eliminated (no variable left empty).
fn random_state<const W: usize>(
    model: &Arc<Model>,
    rng: &mut Rng,
    givens: usize,
    elims: usize,
) -> (Frame<W>, State<W>) {
    let sol = solution(model, rng);
    state_of(model, &sol, rng, givens, elims)
}

/// A random state of solution `sol`, as [`random_state`].
fn state_of<const W: usize>(
    model: &Arc<Model>,
    sol: &[usize],
    rng: &mut Rng,
    givens: usize,
    elims: usize,
) -> (Frame<W>, State<W>) {
    let m = &**model;
    let mut g = vec![None; m.n_cells];
    for _ in 0..givens {
        let c = rng.below(m.n_cells);
        g[c] = Some(sol[c]);
    }
    let live = ruledoku::typed::frame::live_after_givens(m, &g).expect("consistent givens");
    let frame = Frame::<W>::build(model.clone(), &g, &live);
    let mut st = State::start(&frame);
    for _ in 0..elims {
        let z = rng.below(frame.len());
        let gz = frame.cand(z);
        if sol[m.cand_cell(gz)] != m.cand_symbol(gz) {
            st.cands.remove(z);
        }
    }
    assert!(st.empty_var(&frame).is_none());
    (frame, st)
}

/// Is there a chain of `c`'s spec for target `z`? Every sequence of
/// distinct variables is tried, as the definitions state them.
fn brute<const W: usize>(c: &TypedChain, frame: &Frame<W>, st: &State<W>, z: usize) -> bool {
    struct Walk<'a, const W: usize> {
        c: &'a TypedChain,
        frame: &'a Frame<W>,
        st: &'a State<W>,
        z: usize,
        nz: BitSet<W>,
        vars: Vec<usize>,
        lefts: BitSet<W>,
        rights: BitSet<W>,
        groups: Vec<usize>,
        /// The right-linking candidates in order (`frame.len() + g` for a
        /// group).
        rs: Vec<usize>,
    }
    impl<const W: usize> Walk<'_, W> {
        fn linked_to_r(&self, x: usize, r: usize) -> bool {
            let base = self.frame.len();
            if r >= base {
                self.frame.groups[r - base].glinks.contains(x)
            } else {
                self.frame.links[r].contains(x)
            }
        }
        fn go(&mut self, k: usize) -> bool {
            let spec = &self.c.spec;
            let (frame, st, z) = (self.frame, self.st, self.z);
            let live = st.cands;
            let m = &frame.model;
            let sym = |x: usize| m.cand_symbol(frame.cand(x));
            let t_cover = BitSet::from_indices(
                live.iter()
                    .filter(|&x| self.rs.iter().any(|&r| self.linked_to_r(x, r))),
            );
            let e = spec.extras;
            let mut cover = BitSet::EMPTY;
            if e.z && (!e.z_in_first_only || k == 0) {
                cover = cover.or(&self.nz);
            }
            if e.t {
                cover = cover.or(&t_cover);
            }
            for l in live.iter() {
                let linked = match (k, spec.linking) {
                    (0, _) => self.nz.contains(l),
                    (_, Linking::Previous) => self.linked_to_r(l, *self.rs.last().unwrap()),
                    (_, Linking::TargetOrAny) => {
                        self.nz.contains(l) || self.rs.iter().any(|&r| self.linked_to_r(l, r))
                    }
                };
                if !linked || l == z || self.rights.contains(l) {
                    continue;
                }
                if spec.linking == Linking::Previous && self.lefts.contains(l) {
                    continue;
                }
                if spec.one_digit && sym(l) != sym(z) {
                    continue;
                }
                for &v in &frame.cand_vars[l] {
                    let v = v as usize;
                    if !self.c.spaces[frame.vars[v].space as usize] || self.vars.contains(&v) {
                        continue;
                    }
                    let live_v = st.var_live(frame, v);
                    let mut rest = live_v.minus(&cover);
                    rest.remove(l);
                    if k + 1 == spec.length {
                        let ends = live_v.len() >= 2
                            && rest.is_subset(&self.nz)
                            && match spec.ending {
                                Ending::Contradiction => true,
                                Ending::LinkedToTarget => {
                                    rest.len() == 1
                                        && rest.iter().all(|r| {
                                            !self.rights.contains(r) && !self.lefts.contains(r)
                                        })
                                }
                                Ending::Lasso | Ending::Loop | Ending::BackToStart => {
                                    unreachable!(
                                        "lassos, loops and chains back to their start are not enumerated"
                                    )
                                }
                            };
                        if ends {
                            return true;
                        }
                        continue;
                    }
                    let mut options = Vec::new();
                    if rest.len() == 1 {
                        let r = rest.min().unwrap();
                        if r != z && !self.rights.contains(r) && !self.lefts.contains(r) {
                            options.push(r);
                        }
                    } else if rest.len() >= 2 && spec.groups {
                        for &g in &frame.var_groups[v] {
                            let gc = &frame.groups[g as usize].cands;
                            if rest.is_subset(gc)
                                && !gc.contains(l)
                                && !gc.contains(z)
                                && !gc.intersects(&self.rights)
                                && !self.groups.contains(&(g as usize))
                            {
                                options.push(frame.len() + g as usize);
                            }
                        }
                    }
                    for r in options {
                        let was_left = self.lefts.contains(l);
                        self.vars.push(v);
                        self.lefts.insert(l);
                        if r >= frame.len() {
                            self.groups.push(r - frame.len());
                        } else {
                            self.rights.insert(r);
                        }
                        self.rs.push(r);
                        let found = self.go(k + 1);
                        self.rs.pop();
                        if r >= frame.len() {
                            self.groups.pop();
                        } else {
                            self.rights.remove(r);
                        }
                        if !was_left {
                            self.lefts.remove(l);
                        }
                        self.vars.pop();
                        if found {
                            return true;
                        }
                    }
                }
            }
            false
        }
    }
    let nz = frame.links[z].and(&st.cands);
    if nz.is_empty() {
        return false;
    }
    Walk {
        c,
        frame,
        st,
        z,
        nz,
        vars: Vec::new(),
        lefts: BitSet::EMPTY,
        rights: BitSet::EMPTY,
        groups: Vec::new(),
        rs: Vec::new(),
    }
    .go(0)
}

/// The chain rules named in set `set`, for `model`.
fn rules(model: &Model, set: &str, names: &[&str]) -> Vec<(String, TypedChain)> {
    let set = ruledoku::ruleset::load(set).expect("set");
    names
        .iter()
        .filter_map(|name| {
            let r = set.rules.iter().find(|r| r.head.name == *name).expect(name);
            let SearcherKind::Chain(c) = r.searcher.kind() else {
                panic!("{name} is not a chain rule");
            };
            // A typed chain over a space the type lacks does not apply.
            TypedChain::of(&c.spec, model)
                .ok()
                .map(|t| (name.to_string(), t))
        })
        .collect()
}

/// The chain rules compared, as they run on `model`.
fn chain_rules(model: &Model) -> Vec<(String, TypedChain)> {
    let mut chains = rules(model, "w", &["whip[2]", "whip[3]", "whip[4]"]);
    chains.extend(rules(model, "b", &["braid[3]", "braid[4]"]));
    chains.extend(rules(model, "gw", &["g-whip[3]", "g-whip[4]"]));
    chains.extend(rules(model, "gb", &["g-braid[3]"]));
    chains.extend(rules(model, "bc", &["biv-chain[3]", "biv-chain[6]"]));
    chains.extend(rules(model, "z", &["z-chain[3]", "z-chain[4]"]));
    chains.extend(rules(model, "tw", &["t-whip[3]", "t-whip[4]"]));
    chains.extend(rules(
        model,
        "typed",
        &[
            "x-chain[4]",
            "whip-rn[3]",
            "biv-chain-rc[4]",
            "t-whip-cn[3]",
        ],
    ));
    chains
}

/// Compares the search with the enumeration on `states` random states of
/// `type_name`; returns the number of (state, rule, target) with a chain.
fn compare<const W: usize>(type_name: &str, states: usize, givens: usize, seed: u64) -> usize {
    let model = Arc::new(Model::build(builtin(type_name).expect("type")));
    let chains = chain_rules(&model);
    let mut rng = Rng(seed);
    let mut hits = 0;
    for _ in 0..states {
        let elims = rng.below(model.n_cells);
        let (frame, st) = random_state::<W>(&model, &mut rng, givens, elims);
        hits += compare_on(type_name, &chains, &frame, &st);
    }
    hits
}

/// The same on Futoshiki of side `n`: each state's puzzle brings signs
/// between a third of the neighbouring cells, true of its solution, and
/// with them the g-candidates `n ≤ k` and `n ≥ k` of the signed cells.
fn compare_futoshiki<const W: usize>(n: usize, states: usize, givens: usize, seed: u64) -> usize {
    let name = format!("futoshiki:{n}");
    let base = Model::build(builtin(&name).expect("type"));
    let mut rng = Rng(seed);
    let mut hits = 0;
    for _ in 0..states {
        let sol = solution(&base, &mut rng);
        let mut signs = Vec::new();
        for a in 0..base.n_cells {
            for b in [a + 1, a + n] {
                let neighbours = b < base.n_cells && (b == a + n || b % n != 0);
                if neighbours && rng.below(3) == 0 {
                    let (lo, hi) = if sol[a] < sol[b] { (a, b) } else { (b, a) };
                    signs.push(Constraint::less(lo, hi, n));
                }
            }
        }
        let model = Arc::new(base.with_constraints(&signs));
        let chains = chain_rules(&model);
        let elims = rng.below(model.n_cells);
        let (frame, st) = state_of::<W>(&model, &sol, &mut rng, givens, elims);
        hits += compare_on(&name, &chains, &frame, &st);
    }
    hits
}

/// The targets each chain rule finds on one state, against the
/// enumeration; the number of (rule, target) with a chain.
fn compare_on<const W: usize>(
    type_name: &str,
    chains: &[(String, TypedChain)],
    frame: &Frame<W>,
    st: &State<W>,
) -> usize {
    let mut hits = 0;
    for (name, c) in chains {
        let mut cx = SearchCx::new(None);
        let found: Vec<usize> = c
            .all(&mut cx, frame, st)
            .expect("not interrupted")
            .iter()
            .map(|f| match &f.evidence {
                Evidence::Chain(ev) => ev.target,
                _ => unreachable!(),
            })
            .collect();
        let want: Vec<usize> = st
            .cands
            .iter()
            .filter(|&z| brute(c, frame, st, z))
            .collect();
        assert_eq!(found, want, "{name} on {type_name}");
        hits += want.len();
    }
    hits
}

#[test]
fn the_search_finds_every_chain_on_futoshiki() {
    // Segments of a signed cell's symbols are g-candidates: nested ones,
    // several of which may hold a variable's other candidates.
    let hits = compare_futoshiki::<2>(5, 30, 4, 0x7f4a_7c15_9e37_79b9);
    eprintln!("{hits} targets with a chain");
    assert!(hits > 200, "{hits}");
    // On 6×6, `n ≤ 4` and `n ≥ 3` may both hold a cell's other
    // candidates (3 and 4): two g-candidates to go on with.
    let hits = compare_futoshiki::<4>(6, 30, 6, 0x3c6e_f372_fe94_f82b);
    eprintln!("{hits} targets with a chain");
    assert!(hits > 200, "{hits}");
}

#[test]
fn the_search_finds_every_chain_on_latin_5() {
    let hits = compare::<2>("latin:5", 12, 6, 0x9e37_79b9_7f4a_7c15);
    eprintln!("{hits} targets with a chain");
    assert!(hits > 200, "{hits}");
}

#[test]
fn the_search_finds_every_chain_on_sudoku_6() {
    // sudoku:6 has groups (block ∩ row, block ∩ column): g-chains.
    let hits = compare::<4>("sudoku:6", 6, 10, 0x2545_f491_4f6c_dd1d);
    eprintln!("{hits} targets with a chain");
    assert!(hits > 200, "{hits}");
}

#[test]
fn groups_are_written_as_csp_rules_writes_them() {
    let model = Arc::new(Model::build(builtin("sudoku:9").expect("type")));
    let g = vec![None; 81];
    let live = ruledoku::typed::frame::live_after_givens(&model, &g).unwrap();
    let frame = Frame::<12>::build(model.clone(), &g, &live);
    // The frame's groups are the classic segments, in their order.
    assert_eq!(frame.groups.len(), ruledoku::grid::geometry::N_SEGMENTS);
    let names: Vec<String> = [0usize, 3]
        .iter()
        .flat_map(|&g| {
            frame.groups[g]
                .vars
                .iter()
                .map(move |&v| (v as usize, g))
                .collect::<Vec<_>>()
        })
        .map(|(v, g)| format!("{}:{}", frame.var_name(v), group_in_var(&frame, v, g)))
        .collect();
    assert_eq!(
        names,
        ["r1n1:c123", "b1n1:r1c123", "c1n1:r123", "b1n1:r123c1"]
    );
}

/// A search stopped by the context (memory cap, work limit) returns no
/// match and says why; with room, the same search finds its chain.
#[test]
fn a_stopped_search_returns_nothing() {
    use ruledoku::search::Stop;
    let model = Arc::new(Model::build(builtin("latin:5").expect("type")));
    let (_, braid) = rules(&model, "b", &["braid[4]"]).remove(0);
    // The first random state with a braid[4].
    let mut rng = Rng(7);
    let (frame, st) = (0..100)
        .map(|_| random_state::<2>(&model, &mut rng, 4, 20))
        .find(|(frame, st)| braid.first(&mut SearchCx::new(None), frame, st).is_some())
        .expect("a state with a braid[4]");
    let mut cx = SearchCx::new(None);
    cx.set_memory_limit(Some(2_000));
    assert!(braid.first(&mut cx, &frame, &st).is_none());
    assert_eq!(cx.stop(), Some(Stop::Memory));
    let mut cx = SearchCx::with_work_limit(5);
    assert!(braid.first(&mut cx, &frame, &st).is_none());
    assert_eq!(cx.stop(), Some(Stop::Work));
}

#[test]
#[ignore]
fn the_search_finds_every_chain_on_more_states() {
    let a = compare::<4>("latin:6", 40, 8, 0x1234_5678_9abc_def1);
    let b = compare::<4>("sudoku:6", 40, 10, 0x0fed_cba9_8765_4321);
    let c = compare::<2>("sudoku:4", 60, 3, 0x5555_aaaa_3333_cccc);
    eprintln!("{a} + {b} + {c} targets with a chain");
}
