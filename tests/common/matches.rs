//! Every match of a searcher on one state, in the order the searcher
//! reports them (a search run to its end), and the forms in which the
//! tests compare them.

use ruledoku::grid::geometry::cand_name;
use ruledoku::grid::state::State;
use ruledoku::search::{Found, SearchCx, Searcher};
use std::ops::ControlFlow;

/// Every match of `s` on `state`, in report order.
pub fn found(s: &dyn Searcher, state: &State) -> Vec<Found> {
    let mut out = Vec::new();
    let mut cx = SearchCx::new(None);
    let _ = s.search(&mut cx, state, &mut |f| {
        out.push(f);
        ControlFlow::Continue(())
    });
    out
}

/// Each match as everything it holds: its conclusions and its evidence
/// (the bound values themselves, not their text), debug-printed.
pub fn matches_in_full(s: &dyn Searcher, state: &State) -> Vec<String> {
    found(s, state)
        .iter()
        .map(|f| format!("{:?} {:?}", f.conclusions, f.evidence))
        .collect()
}

/// Each match as a step reads: its rendered text, then `==>` and the
/// names of the candidates it concludes on (`r1c1 n4-n7 ==> n4r1c1
/// n5r1c1`).
pub fn matches_shown(s: &dyn Searcher, state: &State) -> Vec<String> {
    found(s, state)
        .iter()
        .map(|f| {
            let names: Vec<String> = f.conclusions.iter().map(cand_name).collect();
            format!("{} ==> {}", s.render(state, &f.evidence), names.join(" "))
        })
        .collect()
}

/// Each match's rendered text alone (the rule's `show`).
pub fn matches_text(s: &dyn Searcher, state: &State) -> Vec<String> {
    found(s, state)
        .iter()
        .map(|f| s.render(state, &f.evidence))
        .collect()
}
