//! Scheduling: a checked pattern rule's clauses → the plan's
//! instructions, in the order they run.
//!
//! Generators run in the order written (each generator's domain may only
//! use earlier names), and every definition and `where` filter runs right
//! after the last generator it depends on, so a condition prunes the
//! search as early as it can.

use super::ir::{Checked, Instr, Op, Shape, ShowPart, Ty};
use crate::search::ConclusionKind;

/// A pattern rule with its instructions in the order they run.
#[derive(Clone, Debug)]
pub struct Scheduled {
    pub slots: usize,
    /// The checker's type of each slot ([`Checked::slot_types`]).
    pub slot_types: Vec<Ty>,
    pub slot_shapes: Vec<Option<Shape>>,
    pub instrs: Vec<Instr>,
    pub conclusion: ConclusionKind,
    pub target: Op,
    pub parents: Option<Op>,
    pub show: Vec<ShowPart>,
    pub name_holes: Vec<(String, usize)>,
}

/// The instructions of `c`: each generator in written order, each
/// definition and filter right after the last generator it depends on
/// (in written order among those after the same generator).
pub fn schedule(c: Checked) -> Scheduled {
    let mut instrs = Vec::with_capacity(c.gens.len() + c.placed.len());
    let n_gens = c.gens.len();
    let mut gens = c.gens.into_iter();
    for depth in 0..=n_gens {
        if depth > 0
            && let Some(g) = gens.next()
        {
            instrs.push(g);
        }
        instrs.extend(
            c.placed
                .iter()
                .filter(|(d, _)| *d == depth)
                .map(|(_, i)| i.clone()),
        );
    }
    Scheduled {
        slots: c.slots,
        slot_types: c.slot_types,
        slot_shapes: c.slot_shapes,
        instrs,
        conclusion: c.conclusion,
        target: c.target,
        parents: c.parents,
        show: c.show,
        name_holes: c.name_holes,
    }
}
