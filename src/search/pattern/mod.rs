//! Pattern rules (the `rule` kind): the compiler that turns a checked
//! rule into a [`Plan`], stage by stage, and the depth-first matcher that
//! runs a plan on a state.
//!
//! Every value is an index or a [`Bits`](crate::grid::bits::Bits) set, so
//! each operation of an expression is a whole-set operation of a few
//! machine words; the search never looks at a rule's text or AST.
//!
//! The modules, each importing only the ones listed before it (and
//! `crate::grid`, and the searcher interface of [`crate::search`]):
//!
//! - the compiler's stages: [`ir`] (the checked IR: [`Op`], [`Instr`],
//!   [`ShowPart`], [`Ty`], [`Checked`], what the checker
//!   [`crate::lang::check`] makes), then its passes in the order they run:
//!   [`hoist`] (parts of a quantifier's condition the same for every
//!   member, moved out), [`schedule`] (the instructions in the order they
//!   run), [`prefix`] (the prefixes the plans of one file share, and the
//!   records of their bindings), [`fold`] (conditions on one generator's
//!   element tested on its domain once per search), [`typed`] (the
//!   expressions recompiled by the checker's static types into [`TOp`]),
//!   [`strategy`] (how a plan's first match is found: a compiled shape
//!   such as a [`CountPlan`], or its instructions) and [`plan`] (the
//!   compiled [`Plan`]);
//! - the matcher: [`sets`] (sets read off a state), [`als`] (the almost
//!   locked sets of a state, listed once per state for the ALS
//!   generator), [`eval`] (evaluation of typed expressions), [`run`] (the
//!   depth-first search, the ALS generator's step, and the [`Scratch`] a
//!   search context carries for it), [`cluster`] (the colour clusters of
//!   the cluster generator), [`walk`] (the walk
//!   generator's depth-first search of loops), [`count`] (count
//!   plans run off a board's counts, and count heads read from the
//!   cells' digit masks), [`show`] (a match's text)
//!   and [`searcher`] (a plan as a [`Searcher`](crate::search::Searcher)).
//!
//! [`compile`] applies the passes in order, the one place they are called
//! from.
//!
//! Architecture Invariant: a plan only reads the state it is given; it
//! never mutates it. Conclusions are returned to the engine, which applies
//! them.

pub mod als;
pub mod cluster;
pub mod count;
pub mod eval;
pub mod fold;
pub mod hoist;
pub mod ir;
pub mod plan;
pub mod prefix;
pub mod run;
pub mod schedule;
pub mod searcher;
pub mod sets;
pub mod show;
pub mod strategy;
pub mod typed;
pub mod walk;

#[cfg(test)]
mod typed_tests;

pub use eval::{Env, geo};
pub use ir::MAX_ALS;
pub use ir::{
    Als, Checked, Cluster, CmpOp, Elem, Geo, Instr, IntOp, Op, OrChain, Order, Quant, QuantOp,
    SetOp, Shape, ShowPart, SumFn, Ty, Val, Walk,
};
pub use plan::Plan;
pub use prefix::{MAX_RECORDED, Prefix};
pub use run::Scratch;
pub use sets::{live_domain, project};
pub use show::show_elem;
pub use strategy::{CountPlan, Strategy, count_head};
pub use typed::TOp;

use schedule::Scheduled;

/// Compiles the checked pattern rules of one file, applying the passes in
/// order:
///
/// 1. [`hoist`]: the parts of each quantifier's condition the same for
///    every member moved into slots of their own;
/// 2. [`schedule`]: each rule's instructions in the order they run;
/// 3. [`prefix::share`]: the prefixes each plan shares with the others
///    (the file's plans at once);
/// 4. [`fold`]: conditions on one generator's element moved into its
///    domain (not across the end of a shared prefix);
/// 5. [`typed`]: the expressions the matcher runs, typed by the checker's
///    types;
/// 6. [`strategy`]: how the plan's first match is found (a count plan's
///    counts, or its instructions).
pub fn compile(file: Vec<Checked>) -> Vec<Plan> {
    let scheduled: Vec<Scheduled> = (file.into_iter())
        .map(hoist::hoist_all)
        .map(schedule::schedule)
        .collect();
    let instrs: Vec<&[Instr]> = scheduled.iter().map(|s| &s.instrs[..]).collect();
    let prefixes = prefix::share(&instrs);
    scheduled.into_iter().zip(prefixes).map(finish).collect()
}

/// The passes after sharing ([`fold`], [`typed`]) of one plan with its
/// shared prefixes.
fn finish((s, prefixes): (Scheduled, Vec<Prefix>)) -> Plan {
    let lens: Vec<usize> = prefixes.iter().map(|p| p.len).collect();
    let folded = fold::fold(&s.instrs, &lens);
    let typed = typed::Typed::new(&s, &folded);
    // Matches ordered by the name's holes are all needed for the first.
    let strategy = if s.name_holes.is_empty() {
        Strategy::of(&s.instrs, &s.target, s.conclusion, &s.show, s.slots)
    } else {
        Strategy::Full
    };
    Plan {
        slots: s.slots,
        instrs: s.instrs,
        conclusion: s.conclusion,
        target: s.target,
        parents: s.parents,
        show: s.show,
        name_holes: s.name_holes,
        slot_shapes: s.slot_shapes,
        slot_types: s.slot_types,
        prefixes,
        folded,
        typed,
        strategy,
    }
}

impl Plan {
    /// The plan compiled alone, sharing no prefix (folded with no
    /// prefix's end to stop at): what a rule's search is measured by.
    pub fn alone(&self) -> Plan {
        finish((
            Scheduled {
                slots: self.slots,
                slot_types: self.slot_types.clone(),
                slot_shapes: self.slot_shapes.clone(),
                instrs: self.instrs.clone(),
                conclusion: self.conclusion,
                target: self.target.clone(),
                parents: self.parents.clone(),
                show: self.show.clone(),
                name_holes: self.name_holes.clone(),
            },
            Vec::new(),
        ))
    }
}
