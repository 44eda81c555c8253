//! [`Model`]: a puzzle type's CSP, built from its [`TypeSpec`].
//!
//! The one definition of the structure is a `petgraph` graph, as for the
//! classic grid (`grid::links`): a node per candidate (indices
//! `0..n_cands`), a node per CSP variable (`n_cands..`), an edge
//! [`Edge::Member`] for each membership "candidate ∈ variable", and an
//! edge [`Edge::Constraint`] between two candidates a binary constraint
//! forbids together. Two distinct candidates are *linked* iff they share
//! a variable or a constraint edge joins them. The tables hot loops read
//! (each candidate's variables, each variable's candidates, each
//! candidate's constraint links) are derived from the graph once, as
//! compressed rows; the full link relation is never stored (sudoku:49
//! has over ten million links), it is read through the variables.
//!
//! Indices: cell `r * N + c`; candidate `cell * N + s` (symbol `s` in
//! `0..N`); variables space by space in [`Model::spaces`] order: `rc` (one
//! per cell, index = cell) then one space per house kind (`rn`, `cn`,
//! `bn`, `dn`, `an`, …) whose variable `rank * N + s` is symbol `s` in the
//! kind's house number `rank`. A variable's candidates are in increasing
//! order. For `sudoku:9` these are exactly the classic grid's indices.

use super::bits::DynBits;
use super::spec::{Constraint, Family, Kind, TypeSpec};
use petgraph::graph::{NodeIndex, UnGraph};

/// A node of the link graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Cand(u32),
    Var(u32),
}

/// An edge of the link graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Candidate ∈ variable.
    Member,
    /// Two candidates a binary constraint forbids together.
    Constraint,
}

/// A space of CSP variables: `rc` (the cells), or one per house kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Space {
    /// `rc`, `rn`, `cn`, `bn`, `dn`, `an`, …
    pub name: String,
    /// The house kind (index in [`Model::kinds`]), `None` for `rc`.
    pub kind: Option<usize>,
    /// The first variable of the space; it has `len` of them.
    pub first: usize,
    pub len: usize,
}

/// A house of the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct House {
    pub kind: usize,
    /// Its number among the houses of its kind (0-based; printed + 1).
    pub rank: usize,
    /// Its cells, in increasing order.
    pub cells: Vec<usize>,
}

/// A killer cage with a sum: a CSP variable (space `kc`, printed `k1`,
/// `k2`, …) whose candidates are the cage's combinations, as CSP-Rules'
/// KakuRules models a Kakuro sector. A combination is linked to every
/// candidate of the cage's cells whose symbol it lacks; the cells are
/// pairwise different (constraints of [`super::variant::apply`]), so with
/// `|combination| = |cage|` they hold a permutation of the true one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// Its cells, in increasing order.
    pub cells: Vec<usize>,
    pub sum: usize,
    /// Its combinations (0-based symbols, increasing), in lexicographic
    /// order: candidate `first + i` is combination `i`.
    pub combos: Vec<Vec<usize>>,
    /// Its first candidate (the cages' candidates follow the cells').
    pub first: usize,
    /// Its variable.
    pub var: usize,
}

/// Compressed rows: row `i` is `items[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Rows {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Rows {
    fn from_lists(lists: impl IntoIterator<Item = Vec<u32>>) -> Rows {
        let mut rows = Rows {
            start: vec![0],
            items: Vec::new(),
        };
        for l in lists {
            rows.items.extend(l);
            rows.start.push(rows.items.len() as u32);
        }
        rows
    }

    #[inline]
    pub(super) fn row(&self, i: usize) -> &[u32] {
        &self.items[self.range(i)]
    }

    /// Where row `i` lies in `items`.
    #[inline]
    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.start[i] as usize..self.start[i + 1] as usize
    }
}

/// A puzzle type's CSP: sizes, houses, variables, the link graph and the
/// tables derived from it, and the g-candidates' groups.
#[derive(Clone, Debug)]
pub struct Model {
    pub spec: TypeSpec,
    pub n: usize,
    pub n_cells: usize,
    /// Every candidate: the cells' (`N³`), then the cages'.
    pub n_cands: usize,
    /// The cells' candidates, `N³`: candidates from here on are cages'.
    pub n_cell_cands: usize,
    /// The killer cages with a sum, in the type's order.
    pub cages: Vec<Cage>,
    pub n_vars: usize,
    pub houses: Vec<House>,
    pub spaces: Vec<Space>,
    /// The link graph (the structure's definition).
    pub graph: UnGraph<Node, Edge>,
    pub(super) cand_vars: Rows,
    /// Aligned with `cand_vars`' items: the candidate's position among
    /// that variable's candidates.
    cand_var_pos: Vec<u8>,
    pub(super) var_cands: Rows,
    pub(super) var_house: Vec<Option<u32>>,
    pub(super) cell_houses: Rows,
    pub(super) constraint_links: Rows,
    /// The pairs of cells a binary constraint joins (`a < b`), once each.
    pub constraint_cells: Vec<(usize, usize)>,
    /// The g-candidates' groups ([`super::groups`]).
    pub groups: Vec<super::groups::Group>,
    /// The order relations between cells and their chains
    /// ([`super::order`]).
    pub orders: super::order::Orders,
    /// The variables sharing two or more candidates, per variable
    /// ([`Model::var_overlaps`]).
    pub(super) overlap_start: Vec<u32>,
    pub(super) overlaps: Vec<super::groups::Overlap>,
}

impl Model {
    /// The CSP of `spec`; the spec must be well formed (the built-ins and
    /// the YAML reader check it): houses of `N` distinct cells in kind
    /// order, constraints between distinct cells.
    pub fn build(spec: TypeSpec) -> Model {
        let n = spec.n;
        let n_cells = n * n;
        let n_cell_cands = n_cells * n;
        let mut cages: Vec<Cage> = Vec::new();
        let mut n_cands = n_cell_cands;
        for v in &spec.variants {
            if let super::variant::Variant::KillerCage {
                cells,
                sum: Some(sum),
            } = v
            {
                let mut cells = cells.clone();
                cells.sort_unstable();
                let combos = super::variant::cage_combinations(n, cells.len(), *sum);
                let len = combos.len();
                cages.push(Cage {
                    cells,
                    sum: *sum,
                    combos,
                    first: n_cands,
                    var: 0,
                });
                n_cands += len;
            }
        }
        // Houses, ranked within their kind.
        let mut per_kind = vec![0usize; spec.kinds.len()];
        let houses: Vec<House> = spec
            .houses
            .iter()
            .map(|h| {
                let rank = per_kind[h.kind];
                per_kind[h.kind] += 1;
                let mut cells = h.cells.clone();
                cells.sort_unstable();
                House {
                    kind: h.kind,
                    rank,
                    cells,
                }
            })
            .collect();
        let mut spaces = vec![Space {
            name: "rc".to_string(),
            kind: None,
            first: 0,
            len: n_cells,
        }];
        let mut first = n_cells;
        for (k, kind) in spec.kinds.iter().enumerate() {
            let len = per_kind[k] * n;
            spaces.push(Space {
                name: format!("{}n", kind.prefix),
                kind: Some(k),
                first,
                len,
            });
            first += len;
        }
        if !cages.is_empty() {
            spaces.push(Space {
                name: "kc".to_string(),
                kind: None,
                first,
                len: cages.len(),
            });
            for (k, cage) in cages.iter_mut().enumerate() {
                cage.var = first + k;
            }
            first += cages.len();
        }
        let n_vars = first;
        // The house variable of symbol s in house h.
        let house_var = |h: &House| spaces[h.kind + 1].first + h.rank * n;

        // The graph: candidates, variables, memberships, constraint edges.
        let mut graph = UnGraph::with_capacity(n_cands + n_vars, n_cands * (1 + spec.kinds.len()));
        for z in 0..n_cands {
            graph.add_node(Node::Cand(z as u32));
        }
        for v in 0..n_vars {
            graph.add_node(Node::Var(v as u32));
        }
        let var_node = |v: usize| NodeIndex::new(n_cands + v);
        let mut cell_houses: Vec<Vec<u32>> = vec![Vec::new(); n_cells];
        for (hi, h) in houses.iter().enumerate() {
            for &c in &h.cells {
                cell_houses[c].push(hi as u32);
            }
        }
        for (cell, its_houses) in cell_houses.iter().enumerate() {
            for s in 0..n {
                let z = NodeIndex::new(cell * n + s);
                graph.add_edge(z, var_node(cell), Edge::Member);
                for &hi in its_houses {
                    let v = house_var(&houses[hi as usize]) + s;
                    graph.add_edge(z, var_node(v), Edge::Member);
                }
            }
        }
        for cage in &cages {
            for (i, combo) in cage.combos.iter().enumerate() {
                let z = NodeIndex::new(cage.first + i);
                graph.add_edge(z, var_node(cage.var), Edge::Member);
                for &cell in &cage.cells {
                    for s in (0..n).filter(|s| !combo.contains(s)) {
                        graph.add_edge(z, NodeIndex::new(cell * n + s), Edge::Constraint);
                    }
                }
            }
        }
        for c in &spec.constraints {
            for &(x, y) in &c.forbidden {
                graph.add_edge(
                    NodeIndex::new(c.a * n + x),
                    NodeIndex::new(c.b * n + y),
                    Edge::Constraint,
                );
            }
        }

        // Tables derived from the graph.
        let sorted = |mut l: Vec<u32>| {
            l.sort_unstable();
            l.dedup();
            l
        };
        let neighbours = |node: usize, want: Edge| -> Vec<u32> {
            graph
                .edges(NodeIndex::new(node))
                .filter(|e| *e.weight() == want)
                .map(|e| {
                    use petgraph::visit::EdgeRef;
                    let other = if e.source().index() == node {
                        e.target().index()
                    } else {
                        e.source().index()
                    };
                    other as u32
                })
                .collect()
        };
        let cand_vars = Rows::from_lists((0..n_cands).map(|z| {
            sorted(
                neighbours(z, Edge::Member)
                    .into_iter()
                    .map(|v| v - n_cands as u32)
                    .collect(),
            )
        }));
        let var_cands =
            Rows::from_lists((0..n_vars).map(|v| sorted(neighbours(n_cands + v, Edge::Member))));
        let constraint_links = Rows::from_lists((0..n_cands).map(|z| {
            let mut l = neighbours(z, Edge::Constraint);
            l.retain(|&w| w as usize != z);
            sorted(l)
        }));
        let mut cand_var_pos = vec![0u8; cand_vars.items.len()];
        for v in 0..n_vars {
            for (i, &z) in var_cands.row(v).iter().enumerate() {
                let slots = cand_vars.range(z as usize);
                let j = cand_vars.items[slots.clone()]
                    .iter()
                    .position(|&w| w as usize == v)
                    .expect("membership is symmetric");
                // A variable has N ≤ 64 candidates (houses have N cells).
                cand_var_pos[slots.start + j] =
                    u8::try_from(i).expect("a variable of at most 256 candidates");
            }
        }
        let mut var_house = vec![None; n_vars];
        for (hi, h) in houses.iter().enumerate() {
            for s in 0..n {
                var_house[house_var(h) + s] = Some(hi as u32);
            }
        }
        let mut constraint_cells: Vec<(usize, usize)> = spec
            .constraints
            .iter()
            .map(|c| (c.a.min(c.b), c.a.max(c.b)))
            .collect();
        constraint_cells.sort_unstable();
        constraint_cells.dedup();
        let orders = super::order::Orders::of(&spec.constraints, n);
        let mut model = Model {
            constraint_cells,
            orders,
            n,
            n_cells,
            n_cands,
            n_cell_cands,
            cages,
            n_vars,
            houses,
            spaces,
            graph,
            cand_vars,
            cand_var_pos,
            var_cands,
            var_house,
            cell_houses: Rows::from_lists(cell_houses),
            constraint_links,
            groups: Vec::new(),
            overlap_start: vec![0; n_vars + 1],
            overlaps: Vec::new(),
            spec,
        };
        model.groups = super::groups::groups(&model);
        (model.overlap_start, model.overlaps) = super::groups::overlaps(&model);
        model
    }

    /// This type with a puzzle's own constraints added (Futoshiki's
    /// signs); the type itself when there are none.
    pub fn with_constraints(&self, extra: &[Constraint]) -> Model {
        if extra.is_empty() {
            return self.clone();
        }
        let mut spec = self.spec.clone();
        spec.constraints.extend_from_slice(extra);
        Model::build(spec)
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub fn family(&self) -> Family {
        self.spec.family
    }

    /// Whether this is the classic 9×9 Sudoku (`sudoku`, `sudoku:9`), which
    /// the specialised `grid/` path and the bitboard oracle serve.
    pub fn is_classic(&self) -> bool {
        self.spec.family == Family::Sudoku && self.n == 9
    }

    pub fn kinds(&self) -> &[Kind] {
        &self.spec.kinds
    }

    #[inline]
    pub fn cand(&self, cell: usize, symbol: usize) -> usize {
        cell * self.n + symbol
    }
    /// Whether `z` is a cell's candidate (not a cage's combination).
    #[inline]
    pub fn is_cell_cand(&self, z: usize) -> bool {
        z < self.n_cell_cands
    }

    /// Whether variable `v` is a cell's.
    #[inline]
    pub fn is_cell_var(&self, v: usize) -> bool {
        v < self.n_cells
    }

    /// The cage of a cage's candidate, and the combination's index in it.
    pub fn cage_cand(&self, z: usize) -> Option<(usize, usize)> {
        if !(self.n_cell_cands..self.n_cands).contains(&z) {
            return None;
        }
        let k = self.cages.partition_point(|c| c.first <= z) - 1;
        Some((k, z - self.cages[k].first))
    }

    /// The cage of a cage's variable.
    pub fn cage_var(&self, v: usize) -> Option<usize> {
        let first = self.cages.first()?.var;
        (first..first + self.cages.len())
            .contains(&v)
            .then(|| v - first)
    }

    /// Whether candidate `z` holds in the solution `solution` (each cell's
    /// symbol): a cell's symbol, or a cage's combination of its cells'.
    pub fn cand_true(&self, z: usize, solution: &[usize]) -> bool {
        match self.cage_cand(z) {
            None => solution[self.cand_cell(z)] == self.cand_symbol(z),
            Some((k, i)) => {
                let cage = &self.cages[k];
                let mut held: Vec<usize> = cage.cells.iter().map(|&c| solution[c]).collect();
                held.sort_unstable();
                held == cage.combos[i]
            }
        }
    }

    #[inline]
    pub fn cand_cell(&self, z: usize) -> usize {
        z / self.n
    }
    #[inline]
    pub fn cand_symbol(&self, z: usize) -> usize {
        z % self.n
    }
    #[inline]
    pub fn cell_row(&self, cell: usize) -> usize {
        cell / self.n
    }
    #[inline]
    pub fn cell_col(&self, cell: usize) -> usize {
        cell % self.n
    }

    /// The variables of candidate `z`, in increasing order (so in space
    /// order: its cell's first).
    #[inline]
    pub fn cand_vars(&self, z: usize) -> impl Iterator<Item = usize> + '_ {
        self.cand_vars.row(z).iter().map(|&v| v as usize)
    }

    /// The variables of candidate `z` (as [`Model::cand_vars`]) and, for
    /// each, `z`'s position among that variable's candidates
    /// ([`Model::var_cand_slice`]).
    #[inline]
    pub fn cand_var_slots(&self, z: usize) -> (&[u32], &[u8]) {
        let r = self.cand_vars.range(z);
        (&self.cand_vars.items[r.clone()], &self.cand_var_pos[r])
    }

    /// The candidates of variable `v`, in increasing order, as a slice.
    #[inline]
    pub fn var_cand_slice(&self, v: usize) -> &[u32] {
        self.var_cands.row(v)
    }

    /// The candidates of variable `v`, in increasing order.
    #[inline]
    pub fn var_cands(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.var_cands.row(v).iter().map(|&z| z as usize)
    }

    /// The number of candidates of variable `v`.
    pub fn var_len(&self, v: usize) -> usize {
        self.var_cands.row(v).len()
    }

    /// The space of variable `v` (index in [`Model::spaces`]).
    pub fn var_space(&self, v: usize) -> usize {
        self.spaces
            .iter()
            .position(|s| (s.first..s.first + s.len).contains(&v))
            .expect("a variable of the model")
    }

    /// The house of a house variable (`None` for a cell's variable).
    pub fn var_house(&self, v: usize) -> Option<usize> {
        self.var_house[v].map(|h| h as usize)
    }

    /// The houses of a cell (indices in [`Model::houses`]), in order.
    pub fn cell_houses(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.cell_houses.row(cell).iter().map(|&h| h as usize)
    }

    /// The candidates a binary constraint links to `z`, in increasing
    /// order.
    #[inline]
    pub fn constraint_links(&self, z: usize) -> &[u32] {
        self.constraint_links.row(z)
    }

    /// Are distinct candidates `a` and `b` linked (a common variable, or a
    /// constraint)?
    pub fn linked(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (va, vb) = (self.cand_vars.row(a), self.cand_vars.row(b));
        va.iter().any(|v| vb.contains(v))
            || self.constraint_links(a).binary_search(&(b as u32)).is_ok()
    }

    /// The candidates linked to `z`, in increasing order.
    pub fn links(&self, z: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self
            .cand_vars(z)
            .flat_map(|v| self.var_cands(v))
            .chain(self.constraint_links(z).iter().map(|&w| w as usize))
            .filter(|&w| w != z)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The candidates linked to `z`, as a set.
    pub fn link_set(&self, z: usize) -> DynBits {
        DynBits::from_indices(self.n_cands, self.links(z))
    }

    /// The number of links (unordered pairs of linked candidates).
    pub fn link_count(&self) -> usize {
        (0..self.n_cands)
            .map(|z| self.links(z).len())
            .sum::<usize>()
            / 2
    }
}
