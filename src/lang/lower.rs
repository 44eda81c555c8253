//! Lowering: a checked rule → its searcher.
//!
//! For pattern rules, lowering schedules the plan: generators run in the
//! order written (each generator's domain may only use earlier names), and
//! every definition and `where` filter is hoisted to run right after the
//! last generator it depends on, so a condition prunes the search as early
//! as it can. Chain and trial rules will lower here to their searches.

use super::check::CheckedPattern;
use crate::search::chain::{ChainSearch, ChainSpec};
use crate::search::pattern::Plan;

/// The plan of a checked pattern rule.
pub fn lower_pattern(c: CheckedPattern) -> Plan {
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
    Plan {
        slots: c.slots,
        instrs,
        conclusion: c.conclusion,
        target: c.target,
        show: c.show,
    }
}

/// The search of a checked chain rule: the spec is the configuration.
pub fn lower_chain(spec: ChainSpec) -> ChainSearch {
    ChainSearch::new(spec)
}
