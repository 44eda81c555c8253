//! Pictures of typed runs (`solve --type T --svg DIR`, `--html FILE`): a
//! run asked for pictures ([`crate::typed::engine::Options::pictures`])
//! keeps, per step, the state before it and its evidence in the model's
//! terms ([`StepPicture`]); they are drawn here on the puzzle's [`Sheet`]
//! with the roles classic steps get ([`super::figure`]):
//!
//! - a variable rule's variable: its live candidates are the pattern's,
//!   its cell marked (a cell's variable) or its house shaded;
//! - a chain: target, left- and right-linking candidates, g-candidates,
//!   set-aside candidates and links, as a classic chain
//!   ([`Figure::chain`]), over the type's links;
//! - a trial: the literals of its branches, true ones "on", false ones
//!   "off" (no links: typed trials do not keep their implication graphs);
//! - then the conclusions, eliminated or asserted.

use super::figure::{ChainLink, ChainPicture, Figure, Node};
use super::html::{Section, section};
use super::sheet::Sheet;
use crate::engine::StopReason;
use crate::model::{DynBits, Model};
use crate::typed::engine::{Right, Shown, Snapshot, StepPicture, TypedRun, TypedStep};
use std::sync::Arc;

/// How to draw the steps of one puzzle of a type.
pub struct TypedPictures<'a> {
    pub model: &'a Model,
    pub sheet: Arc<Sheet>,
    /// The given candidates.
    givens: Vec<usize>,
    /// The cells with a given.
    given_cells: DynBits,
}

impl<'a> TypedPictures<'a> {
    /// The pictures of a puzzle of `model` (for Futoshiki, the model with
    /// the puzzle's signs) with `givens` (each cell's symbol, 0-based).
    pub fn new(model: &'a Model, givens: &[Option<usize>]) -> TypedPictures<'a> {
        let given_cands: Vec<usize> = givens
            .iter()
            .enumerate()
            .filter_map(|(c, g)| g.map(|s| model.cand(c, s)))
            .collect();
        TypedPictures {
            model,
            sheet: Arc::new(Sheet::of(model)),
            given_cells: DynBits::from_indices(
                model.n_cells,
                given_cands.iter().map(|&z| model.cand_cell(z)),
            ),
            givens: given_cands,
        }
    }

    /// A bare grid in state `snap` (with the givens).
    pub fn grid(&self, snap: &Snapshot) -> Figure {
        let m = self.model;
        // A killer cage's combinations have no place in a cell: the
        // cage's outline and sum show them.
        let mut values: Vec<usize> = (self.givens.iter().chain(&snap.values))
            .copied()
            .filter(|&z| m.is_cell_cand(z))
            .collect();
        values.sort_unstable();
        let cands = if m.cages.is_empty() {
            snap.cands.clone()
        } else {
            DynBits::from_indices(m.n_cands, snap.cands.iter().filter(|&z| m.is_cell_cand(z)))
        };
        Figure::blank(self.sheet.clone(), values, cands, self.given_cells.clone())
    }

    /// The picture of a step (`None` when the run kept no pictures).
    pub fn step(&self, step: &TypedStep) -> Option<Figure> {
        let pic: &StepPicture = step.picture.as_deref()?;
        let m = self.model;
        let live = &pic.before.cands;
        let mut f = self.grid(&pic.before);
        let var_live =
            |v: usize| -> Vec<usize> { m.var_cands(v).filter(|&z| live.contains(z)).collect() };
        match &pic.shown {
            Shown::Nothing => {}
            Shown::Var(v) => {
                for z in var_live(*v) {
                    f.mark(z, super::Mark::Pattern);
                }
                match (m.var_house(*v), m.cage_var(*v)) {
                    (_, Some(k)) => m.cages[k].cells.iter().for_each(|&c| f.cells.insert(c)),
                    (None, None) => f.cells.insert(*v),
                    (Some(h), None) => f.shade_house(h),
                }
            }
            Shown::Chain { target, links } => {
                let pic = ChainPicture {
                    target: *target,
                    // A cage's variable in a chain is drawn by its
                    // cage's outline only.
                    links: links
                        .iter()
                        .filter(|l| m.cage_var(l.var).is_none())
                        .map(|l| ChainLink {
                            live: var_live(l.var),
                            left: l.left,
                            right: l.right.as_ref().map(|r| match r {
                                Right::Cand(z) => Node::Cand(*z),
                                Right::Group(g) => Node::Group(g.clone()),
                            }),
                        })
                        .collect(),
                };
                f.chain(&pic, &|a, b| m.linked(a, b));
            }
            Shown::Literals(lits) => {
                for &(z, on) in lits {
                    f.literal(z, on);
                }
            }
        }
        f.conclude(step.kind, &step.conclusions);
        f.caption = step.text(m);
        Some(f)
    }

    /// The figures of a run's steps, in order, each titled with the
    /// puzzle's input line and the step's number.
    pub fn step_figures<'b>(
        &'b self,
        line: usize,
        run: &'b TypedRun,
    ) -> impl Iterator<Item = Figure> + 'b {
        let n = run.steps.len();
        run.steps.iter().enumerate().filter_map(move |(i, s)| {
            let mut f = self.step(s)?;
            f.title = format!("line {line} · step {} of {n} · {}", i + 1, s.name());
            Some(f)
        })
    }

    /// The HTML section of a run: `set` names the rule set, `path` is the
    /// run's path as text.
    pub fn section(
        &self,
        line: usize,
        puzzle: &str,
        set: &str,
        run: &TypedRun,
        path: &str,
    ) -> String {
        let verdict = if run.stop == StopReason::Solved {
            format!(
                "solved by {set}; rating {} (level {}, hardest rule {})",
                run.rating(),
                run.level(),
                run.hardest_rule().unwrap_or("none")
            )
        } else {
            format!(
                "not solved by {set} ({}); {} values missing; hardest rule applied: {}",
                run.stop.name(),
                run.grid.iter().filter(|v| v.is_none()).count(),
                run.hardest_rule().unwrap_or("none")
            )
        };
        let snap = |s: &Option<Snapshot>| {
            s.as_ref()
                .map_or_else(|| self.grid(&empty(self.model)), |s| self.grid(s))
        };
        section(Section {
            line,
            puzzle,
            verdict: &verdict,
            start: snap(&run.start),
            steps: Box::new(self.step_figures(line, run)),
            n: run.steps.len(),
            end: self.grid(&run.end),
            texts: Box::new(run.steps.iter().map(|s| s.text(self.model))),
            path,
        })
    }
}

/// A state with no candidate and no value (a run that kept no pictures).
fn empty(m: &Model) -> Snapshot {
    Snapshot {
        cands: DynBits::new(m.n_cands),
        values: Vec::new(),
    }
}
