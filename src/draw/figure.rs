//! What a picture of a step shows, independent of how it is drawn: a
//! [`Figure`] is the grid before the step plus roles given to houses,
//! cells and candidates, links between candidates or g-candidates, and a
//! caption. It is built from the step's [`Evidence`] and conclusions only
//! ([`Figure::from_step`]), so a new rule file gets pictures with no
//! drawing code of its own; [`super::svg`] turns a figure into SVG.
//!
//! How each kind of evidence is read:
//! - [`Evidence::Bindings`] (pattern rules): the bound values are typed by
//!   the plan's
//!   [`Plan::slot_shapes`](crate::search::pattern::Plan::slot_shapes).
//!   Bound houses are shaded; bound cells are the pattern's cells; bound
//!   candidates and the live candidates of bound CSP variables are the
//!   pattern's candidates (a
//!   row, column or block variable also shades its house, a cell variable
//!   marks its cell). Bound digits select, among the live candidates of the
//!   pattern's cells and houses, those of the pattern: in the cells, every
//!   candidate of a bound digit (every candidate when no digit is bound);
//!   in the houses, those of a bound digit lying in two bound houses (a
//!   fish's body: a base row crossing a cover column), or in the one bound
//!   house when only one is bound.
//! - [`Evidence::Chain`] (chain rules): the target is ringed, each
//!   variable's left-linking candidate is "off" and right-linking one "on"
//!   (a g-candidate is a group), the other live candidates of a variable
//!   are the ones the chain sets aside (z- and t-candidates); links are
//!   weak from the target (or from the right-linking candidate a
//!   left-linking one is linked to: the previous one, else the target,
//!   else the earliest, as in braids) to each left-linking candidate,
//!   strong from a left- to its right-linking candidate inside a variable,
//!   and weak from the last right-linking candidate back to the target
//!   when the chain ends so.
//! - Whatever the evidence, the conclusions are marked last: eliminated
//!   candidates crossed out, asserted ones filled.
//!
//! Adding a kind of evidence (the trial kind's implication graph, on/off
//! literals with their parents) is one more arm in [`Figure::from_step`]'s
//! `match`: [`Figure::literal`] for each literal (its candidate marked
//! [`Mark::On`] or [`Mark::Off`]) and [`Figure::implication`] for each
//! parent edge (a weak link from an "on" literal to the "off" one it
//! implies, a strong link from an "off" literal to an "on" one). Nothing
//! else changes.
//!
//! A figure is drawn on a [`Sheet`] (the grid of its puzzle type: side,
//! symbols, houses, decorations); its candidates, cells and houses are the
//! type's indices (candidate `cell * N + symbol`, the model's house order),
//! which are the classic grid's on 9×9. Steps of typed runs
//! ([`crate::typed`]) are drawn by [`super::typed`] with the same roles.
//!
//! Architecture Invariant: pictures come from evidence only. No code here
//! names a rule or a technique.

use super::sheet::Sheet;
use crate::engine::Step;
use crate::grid::bits::{Bits, CellSet};
use crate::grid::geometry::*;
use crate::grid::links::linked;
use crate::grid::segments::SEGMENTS;
use crate::grid::state::State;
use crate::model::DynBits;
use crate::search::chain::{ALS_BASE, ChainEvidence, G_BASE, LOOP_TARGET};
use crate::search::pattern::{Elem, Shape, Val};
use crate::search::{ConclusionKind, Evidence};
use std::sync::Arc;

/// The role of a candidate in a picture. When a candidate gets several,
/// the strongest one is kept (the order of the variants, last strongest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// A candidate of the pattern.
    Pattern,
    /// A candidate a chain sets aside (z- or t-candidate).
    Extra,
    /// False when the target (or the chain's assumption) is true: a
    /// left-linking candidate.
    Off,
    /// True when the target (or the chain's assumption) is true: a
    /// right-linking candidate.
    On,
    /// The candidate a chain is about.
    Target,
    /// Eliminated by the step.
    Eliminated,
    /// Asserted by the step.
    Asserted,
}

/// An end of a link: a candidate, or a g-candidate (several candidates of
/// one digit taken together).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Cand(usize),
    /// The live candidates of a group (never empty), increasing.
    Group(Vec<usize>),
}

/// Strong links are drawn solid, weak ones dashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Inside a CSP variable: if the first is false, the second is true
    /// (modulo the candidates the chain sets aside).
    Strong,
    /// An nrc-link: if the first is true, the second is false.
    Weak,
}

/// A link drawn from one node to another, in chain order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub from: Node,
    pub to: Node,
    pub kind: LinkKind,
}

/// A picture of a grid and of what one step shows on it.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// The grid: its side, houses and decorations.
    pub sheet: Arc<Sheet>,
    /// The candidates holding a value (given or placed), increasing.
    pub values: Vec<usize>,
    /// The live candidates.
    pub cands: DynBits,
    /// Cells whose value the puzzle gives (drawn apart from placed values).
    pub givens: DynBits,
    /// Houses the pattern lies in (shaded; indices of the sheet's houses).
    pub houses: Vec<usize>,
    /// Cells of the pattern.
    pub cells: DynBits,
    /// The role of each candidate (indexed by candidate, `N³` entries).
    pub marks: Vec<Option<Mark>>,
    /// Groups of candidates taken together (g-candidates), outlined, with
    /// the role of the group.
    pub groups: Vec<(Vec<usize>, Mark)>,
    pub links: Vec<Link>,
    /// A short heading (which puzzle, which step).
    pub title: String,
    /// The step's text (a SudoRules line), drawn under the grid.
    pub caption: String,
}

/// A chain of a step, in the figure's candidates: its target and, per
/// variable, its live candidates, left-linking candidate and right-linking
/// node (a g-candidate's live candidates as a group).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainPicture {
    pub target: usize,
    pub links: Vec<ChainLink>,
}

/// One variable of a [`ChainPicture`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainLink {
    /// The variable's live candidates.
    pub live: Vec<usize>,
    pub left: usize,
    /// `None` for the last variable of a whip or braid.
    pub right: Option<Node>,
}

impl Figure {
    /// A bare grid on `sheet`: values, live candidates and givens (cells),
    /// nothing highlighted.
    pub fn blank(sheet: Arc<Sheet>, values: Vec<usize>, cands: DynBits, givens: DynBits) -> Figure {
        let n = sheet.n;
        Figure {
            sheet,
            values,
            cands,
            givens,
            houses: Vec::new(),
            cells: DynBits::new(n * n),
            marks: vec![None; n * n * n],
            groups: Vec::new(),
            links: Vec::new(),
            title: String::new(),
            caption: String::new(),
        }
    }

    /// A bare classic grid: values and candidates, nothing highlighted.
    pub fn grid(state: State, givens: CellSet) -> Figure {
        Figure::blank(
            Sheet::classic(),
            state.values.iter().collect(),
            DynBits::from_indices(N_CANDS, state.cands.iter()),
            DynBits::from_indices(N_CELLS, givens.iter()),
        )
    }

    /// The side of the grid.
    pub fn n(&self) -> usize {
        self.sheet.n
    }

    /// The picture of a step: the state before it, what its evidence shows,
    /// and its conclusions; the step's SudoRules line as the caption.
    /// `givens` are the cells the puzzle gives.
    pub fn from_step(step: &Step, givens: CellSet) -> Figure {
        let mut f = Figure::grid(step.before, givens);
        match &step.evidence {
            Evidence::Bindings(vals) => {
                if let Some(plan) = step.rule.plan() {
                    f.bindings(&step.before, vals, &plan.slot_shapes);
                }
            }
            Evidence::Chain(chain)
                if chain.target == LOOP_TARGET || chain.links.iter().any(|l| l.left >= G_BASE) =>
            {
                f.alternating(&step.before, chain);
            }
            Evidence::Chain(chain) => {
                let pic = classic_chain(&step.before, chain);
                f.chain(&pic, &|a, b| linked(a, b));
            }
            Evidence::Implications(imp) => {
                use crate::search::implication::{lit_cand, lit_on};
                for chain in &imp.chains {
                    for node in &chain.nodes {
                        f.literal(lit_cand(node.lit), lit_on(node.lit));
                        for &p in &node.parents {
                            let from = chain.nodes[p].lit;
                            f.implication((lit_cand(from), lit_on(from)), lit_cand(node.lit));
                        }
                    }
                }
            }
        }
        f.conclude(step.kind, &step.conclusions);
        f.caption = step.text();
        f
    }

    /// Marks a step's conclusions (last: they outrank every other role).
    pub fn conclude(&mut self, kind: ConclusionKind, conclusions: &[usize]) {
        for &z in conclusions {
            self.mark(
                z,
                match kind {
                    ConclusionKind::Eliminate => Mark::Eliminated,
                    ConclusionKind::Assert => Mark::Asserted,
                },
            );
        }
    }

    /// Gives candidate `z` the role `m`, unless it has a stronger one. A
    /// candidate with no place in a cell (a killer cage's combination) is
    /// shown by its cage's outline, not marked.
    pub fn mark(&mut self, z: usize, m: Mark) {
        let Some(slot) = self.marks.get_mut(z) else {
            return;
        };
        if slot.is_none_or(|old| old < m) {
            *slot = Some(m);
        }
    }

    /// A literal of an implication graph: candidate `z` true (`on`) or
    /// false under the assumption.
    pub fn literal(&mut self, z: usize, on: bool) {
        self.mark(z, if on { Mark::On } else { Mark::Off });
    }

    /// An implication from literal `from` (candidate, true?) to the literal
    /// on candidate `to`: a true candidate makes a linked one false (a weak
    /// link); a false candidate makes the last one of a variable true (a
    /// strong link).
    pub fn implication(&mut self, from: (usize, bool), to: usize) {
        self.links.push(Link {
            from: Node::Cand(from.0),
            to: Node::Cand(to),
            kind: if from.1 {
                LinkKind::Weak
            } else {
                LinkKind::Strong
            },
        });
    }

    /// The candidates with role `m`.
    pub fn marked(&self, m: Mark) -> Vec<usize> {
        (0..self.marks.len())
            .filter(|&z| self.marks[z] == Some(m))
            .collect()
    }

    /// Shades house `h` (once).
    pub fn shade_house(&mut self, h: usize) {
        if !self.houses.contains(&h) {
            self.houses.push(h);
        }
    }

    /// A pattern rule's bound values, typed by the plan's slot shapes.
    fn bindings(&mut self, st: &State, vals: &[Val], shapes: &[Option<Shape>]) {
        let live = st.cands;
        let mut digits: Vec<usize> = Vec::new();
        let mut cells = CellSet::EMPTY;
        let mut house_list: Vec<usize> = Vec::new();
        let mut cands = Bits::EMPTY;
        for (v, shape) in vals.iter().zip(shapes) {
            let elem = match shape {
                Some(Shape::One(e) | Shape::Set(e)) => *e,
                _ => continue,
            };
            let members: Vec<usize> = match v {
                Val::Idx(i) => vec![*i],
                Val::Set(s) => s.iter().collect(),
                _ => continue,
            };
            for i in members {
                match elem {
                    Elem::Digit if i < 9 => digits.push(i),
                    Elem::Row | Elem::Column | Elem::Block | Elem::House
                        if i < N_HOUSES && !house_list.contains(&i) =>
                    {
                        house_list.push(i)
                    }
                    Elem::Cell if i < N_CELLS => cells.insert(i),
                    Elem::Cand if i < N_CANDS => cands.insert(i),
                    Elem::Var(_) if i < N_VARS => {
                        let vc = st.var_cands(i);
                        cands = cands.or(&vc);
                        match var_space(i) {
                            Space::Rc => cells.insert(i % 81),
                            Space::Rn => self.shade_house((i % 81) / 9),
                            Space::Cn => self.shade_house(9 + (i % 81) / 9),
                            Space::Bn => self.shade_house(18 + (i % 81) / 9),
                        }
                    }
                    _ => {}
                }
            }
        }
        let digit_ok = |z: usize| digits.is_empty() || digits.contains(&cand_digit(z));
        // Candidates in the pattern's cells.
        for c in cells.iter() {
            for d in 0..9 {
                let z = cand(c, d);
                if live.contains(z) && digit_ok(z) {
                    cands.insert(z);
                }
            }
        }
        // Candidates where the pattern's houses cross (or in its one house),
        // of its digits; only when the pattern names digits.
        if !digits.is_empty() && !house_list.is_empty() {
            let need = house_list.len().min(2);
            for z in live.iter() {
                let in_houses = cell_houses(cand_cell(z))
                    .iter()
                    .filter(|h| house_list.contains(h))
                    .count();
                if in_houses >= need && digit_ok(z) {
                    cands.insert(z);
                }
            }
        }
        for h in house_list {
            self.shade_house(h);
        }
        for c in cells.iter() {
            self.cells.insert(c);
        }
        for z in cands.and(&live).iter() {
            self.mark(z, Mark::Pattern);
        }
    }

    /// A chain's target, variables, linking candidates and links;
    /// `linked` is the type's link relation.
    /// An alternating chain with groups on either side or ALS nodes (a
    /// digit's candidates in a set, drawn as a group), or a loop
    /// (`search::chain::aic`): each variable's left node off, its right
    /// node on, a strong link between them and a weak link to the next
    /// variable's left node (a loop's last to its first; a chain's target
    /// to its first and from its last).
    fn alternating(&mut self, st: &State, ch: &ChainEvidence) {
        let live = st.cands;
        let node = |id: usize| {
            if id >= ALS_BASE {
                // The digit's live candidates in the set's cells.
                let (k, d) = ((id - ALS_BASE) / 9, (id - ALS_BASE) % 9);
                let cells = ch.als[k].0;
                Node::Group(
                    (0..N_CELLS)
                        .filter(|&c| cells >> c & 1 != 0)
                        .map(|c| c * 9 + d)
                        .filter(|&z| live.contains(z))
                        .collect(),
                )
            } else if id >= G_BASE {
                Node::Group(SEGMENTS[id - G_BASE].cands.and(&live).iter().collect())
            } else {
                Node::Cand(id)
            }
        };
        let put = |f: &mut Figure, n: &Node, m: Mark| match n {
            Node::Cand(c) => f.mark(*c, m),
            Node::Group(g) => {
                for &x in g {
                    f.mark(x, m);
                }
                f.groups.push((g.clone(), m));
            }
        };
        let nodes: Vec<(Node, Node)> = ch
            .links
            .iter()
            .map(|l| (node(l.left), node(l.right.unwrap_or(l.left))))
            .collect();
        for (k, (a, b)) in nodes.iter().enumerate() {
            put(self, a, Mark::Off);
            put(self, b, Mark::On);
            self.links.push(Link {
                from: a.clone(),
                to: b.clone(),
                kind: LinkKind::Strong,
            });
            let next = if k + 1 < nodes.len() {
                Some(nodes[k + 1].0.clone())
            } else if ch.target == LOOP_TARGET {
                Some(nodes[0].0.clone())
            } else {
                None
            };
            if let Some(to) = next {
                self.links.push(Link {
                    from: b.clone(),
                    to,
                    kind: LinkKind::Weak,
                });
            }
        }
        if ch.target != LOOP_TARGET
            && let (Some(first), Some(last)) = (nodes.first(), nodes.last())
        {
            self.mark(ch.target, Mark::Target);
            for (from, to) in [
                (Node::Cand(ch.target), first.0.clone()),
                (last.1.clone(), Node::Cand(ch.target)),
            ] {
                self.links.push(Link {
                    from,
                    to,
                    kind: LinkKind::Weak,
                });
            }
        }
    }

    pub fn chain(&mut self, ch: &ChainPicture, linked: &dyn Fn(usize, usize) -> bool) {
        let node_linked = |n: &Node, z: usize| match n {
            Node::Cand(a) => linked(*a, z),
            Node::Group(g) => !g.is_empty() && g.iter().all(|&a| linked(a, z)),
        };
        let z = ch.target;
        self.mark(z, Mark::Target);
        let mut rights: Vec<Node> = Vec::new();
        for (k, l) in ch.links.iter().enumerate() {
            // What the left-linking candidate is linked to.
            let from = if k == 0 {
                Node::Cand(z)
            } else {
                let prev = &rights[k - 1];
                if node_linked(prev, l.left) {
                    prev.clone()
                } else if linked(z, l.left) {
                    Node::Cand(z)
                } else {
                    rights
                        .iter()
                        .find(|r| node_linked(r, l.left))
                        .unwrap_or(prev)
                        .clone()
                }
            };
            self.links.push(Link {
                from,
                to: Node::Cand(l.left),
                kind: LinkKind::Weak,
            });
            self.mark(l.left, Mark::Off);
            let mut used = vec![l.left];
            if let Some(node) = &l.right {
                match node {
                    Node::Group(g) => {
                        used.extend(g);
                        for &x in g {
                            self.mark(x, Mark::On);
                        }
                        self.groups.push((g.clone(), Mark::On));
                    }
                    Node::Cand(r) => {
                        used.push(*r);
                        self.mark(*r, Mark::On);
                    }
                }
                self.links.push(Link {
                    from: Node::Cand(l.left),
                    to: node.clone(),
                    kind: LinkKind::Strong,
                });
                rights.push(node.clone());
            } else {
                rights.push(Node::Cand(l.left));
            }
            for &x in l.live.iter().filter(|x| !used.contains(x)) {
                self.mark(x, Mark::Extra);
            }
        }
        // A chain that ends linked to its target.
        if let Some(last) = ch.links.last()
            && let Some(r) = &last.right
            && node_linked(&rights[rights.len() - 1], z)
            && *r != Node::Cand(z)
        {
            self.links.push(Link {
                from: rights[rights.len() - 1].clone(),
                to: Node::Cand(z),
                kind: LinkKind::Weak,
            });
        }
    }
}

/// A classic chain's evidence as a picture: groups and variables read on
/// the state before the step.
fn classic_chain(st: &State, ch: &ChainEvidence) -> ChainPicture {
    let live = st.cands;
    ChainPicture {
        target: ch.target,
        links: ch
            .links
            .iter()
            .map(|l| ChainLink {
                live: st.var_cands(l.var).iter().collect(),
                left: l.left,
                right: l.right.map(|r| {
                    if r >= G_BASE {
                        Node::Group(SEGMENTS[r - G_BASE].cands.and(&live).iter().collect())
                    } else {
                        Node::Cand(r)
                    }
                }),
            })
            .collect(),
    }
}

/// The cells whose value the state holds, as a set (the givens of a run's
/// initial state).
pub fn value_cells(state: &State) -> CellSet {
    CellSet::from_indices(state.values.iter().map(cand_cell))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_implications() {
        let mut f = Figure::grid(State::empty_grid(), CellSet::EMPTY);
        // r1c1 = 1 ⇒ r1c2 ≠ 1 ⇒ r1c2 = 2 (were 1 and 2 its only candidates).
        let (a, b, c) = (cand(0, 0), cand(1, 0), cand(1, 1));
        f.literal(a, true);
        f.literal(b, false);
        f.literal(c, true);
        f.implication((a, true), b);
        f.implication((b, false), c);
        assert_eq!(f.marked(Mark::On), vec![a, c]);
        assert_eq!(f.marked(Mark::Off), vec![b]);
        assert_eq!(
            f.links,
            vec![
                Link {
                    from: Node::Cand(a),
                    to: Node::Cand(b),
                    kind: LinkKind::Weak
                },
                Link {
                    from: Node::Cand(b),
                    to: Node::Cand(c),
                    kind: LinkKind::Strong
                }
            ]
        );
        // A conclusion outranks a literal's role.
        f.mark(c, Mark::Eliminated);
        f.literal(c, true);
        assert_eq!(f.marks[c], Some(Mark::Eliminated));
    }
}
