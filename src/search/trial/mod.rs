//! Trial searches: assume a literal, propagate, conclude.
//!
//! A trial rule (the `trial` kind of the language) is one or more
//! *passes*. A pass says, and the rule file chooses:
//!
//! - which candidates are assumed: those of cells holding between
//!   `min_cell` and `max_cell` live candidates, in cell order, each
//!   assumed on, off, or both ([`Pass::assume_on`], [`Pass::assume_off`]);
//! - which implication steps propagate an assumption ([`Steps`]): "on ⇒
//!   off" by the cell's or the houses' constraint (the other candidates
//!   of the cell, the other places of the digit in its houses), "off ⇒
//!   on" by the cell (a cell left with two candidates) or a house (a
//!   digit left with two places);
//! - what those steps read ([`Reads`]): the original state (static
//!   chains: "off ⇒ on" needs two candidates in the original grid) or the
//!   branch's state, where every literal inferred off is gone (dynamic
//!   chains: a step then also depends on the candidates already gone, and
//!   records them as parents);
//! - what concludes ([`Mode`]), each with its rating base, its sort key
//!   and its label: a *cycle* through the assumption, a *forcing* chain (the
//!   assumption implies its own negation), a *contradiction* (a literal
//!   inferred both on and off), a *double* implication (both values of a
//!   candidate imply one literal), or what every candidate of a *cell*, or
//!   every place of a digit in a *region* (house), implies.
//!
//! Propagation records an implication graph ([`super::implication`]); the
//! complexity of a conclusion is the number of distinct literals among its
//! chains' ancestors, summed over the chains, and its difficulty is the
//! conclusion's base plus the rule's length increment ([`Increment`]).
//! The matches of all passes are collected, sorted by difficulty, then
//! complexity, then key (a stable sort: ties keep the order in which they
//! were found), matches with the same eliminations kept once, and reported
//! in that order, which is Sudoku Explainer's.
//!
//! The order in which one pass finds its matches is fixed: for each cell,
//! for each candidate: cycles and forcing chains from the candidate on,
//! forcing chains from it off; its contradictions (on, then off) and its
//! double implications (on, then off); its regions (block, row, column:
//! each house where it is the digit's first place); then, after its last
//! candidate, the cell's conclusions (literals on, then off).
//!
//! The modules, by job, each importing only those listed before it:
//!
//! - `spec`: the passes and their clauses, as the rule file writes them;
//! - `prepared`: the branch runner of `propagate with SET` (the linked
//!   set prepared for branches, and its loop);
//! - `link`: what linking gives a pass (its prepared set, its applied
//!   rules) and the key of its propagations;
//! - `steps`: implication steps (a literal's inferences, static ones
//!   kept);
//! - `reach`: static reachability (strongly connected components);
//! - `memo`: propagations shared between the trials of one state;
//! - `scratch`: the buffers and graphs reused from search to search, and
//!   the run's [`Scratch`] that holds them (in [`SearchCx`]);
//! - `prop`: propagation to a fixpoint, applying rules at stalls;
//! - `modes`: cycle and forcing chain searches;
//! - `collect`: matches before they are reported, in SE's order;
//! - `set_pass`, `pass`: the two kinds of pass;
//! - `report`: a match reported, its chains replayed;
//! - this module: [`TrialSearch`], which runs the passes in order and
//!   reports their matches.
//!
//! Architecture Invariant: no technique is named here. A technique is a
//! combination of these fields, chosen by a rule file.
//!
//! Architecture Invariant: no hidden state. What trial searches reuse or
//! share (buffers, graphs, the memo, the nesting depth) travels in the
//! run's [`SearchCx`] (its [`Scratch`]); what linking gives a pass is the
//! search's own data, set when the linker builds the search
//! ([`TrialSearch::linked`]). No thread-local, global or once-set cell
//! holds either. What a trial search finds and counts does not depend on
//! the searches made before it: reused buffers are cleared, or kept only
//! for what they were computed for, and the memo charges the nodes of what
//! it gives.

mod collect;
mod link;
mod memo;
mod modes;
mod pass;
mod prepared;
mod prop;
mod reach;
mod report;
mod scratch;
mod set_pass;
mod spec;
mod steps;

pub use link::{Applied, AppliedRule, Linked};
pub use prepared::{Concluded, Prepared};
pub use scratch::Scratch;
pub use spec::{Conclude, Increment, Mode, Pass, Reads, Steps, TrialSpec};

use super::implication::{Cause, lit_cand, lit_on};
use super::{Evidence, Found, SearchCx, Searcher, SearcherKind};
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::*;
use crate::grid::state::State;
use crate::grid::tables::*;
use collect::{Collector, Recipe};
use link::PassLinks;
use std::ops::ControlFlow;

/// The search a trial rule compiles to.
#[derive(Debug)]
pub struct TrialSearch {
    pub spec: TrialSpec,
    /// Per pass: what linking gave it.
    links: Vec<PassLinks>,
}

impl TrialSearch {
    pub fn new(spec: TrialSpec) -> TrialSearch {
        let links = PassLinks::of(&spec);
        TrialSearch { spec, links }
    }

    /// The rule sets to apply between implication rounds: (pass index, set
    /// name as written).
    pub fn apply_links(&self) -> Vec<(usize, String)> {
        self.spec
            .passes
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.apply.as_ref().map(|n| (i, n.clone())))
            .collect()
    }

    /// The rule sets to link: (pass index, set name as written).
    pub fn links(&self) -> Vec<(usize, String)> {
        self.spec
            .passes
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.propagate.as_ref().map(|(n, _)| (i, n.clone())))
            .collect()
    }

    /// This search with the sets its passes name linked: `sets`, the
    /// searchers of the set each pass's `propagate with` names (pass index,
    /// searchers in the set's order), and `applied`, the rules each pass's
    /// `apply` names. The linker (`ruleset::Library`) builds it when it
    /// loads the rule's file; a pass left out finds nothing (`propagate
    /// with`) or applies nothing (`apply`).
    pub fn linked(
        &self,
        sets: Vec<(usize, Linked)>,
        applied: Vec<(usize, Applied)>,
    ) -> TrialSearch {
        let mut links = PassLinks::of(&self.spec);
        for (pass, searchers) in sets {
            if let Some(l) = links.get_mut(pass) {
                l.link_set(&searchers);
            }
        }
        for (pass, rules) in applied {
            if let Some(l) = links.get_mut(pass) {
                l.link_applied(rules);
            }
        }
        TrialSearch {
            spec: self.spec.clone(),
            links,
        }
    }

    /// Pass `pass`'s linked set and its rounds, if it propagates with one.
    fn set_of(&self, pass: usize) -> Option<(&Prepared, Option<usize>)> {
        let (_, rounds) = self.spec.passes[pass].propagate.as_ref()?;
        Some((self.links[pass].set()?, *rounds))
    }

    /// The pass whose first match in report order can be found alone, by
    /// a pruned sweep (see [`set_pass::run`]): the rule's only pass,
    /// propagating with a set and concluding on contradictions only.
    fn first_match_pass(&self) -> Option<(&Prepared, Option<usize>)> {
        let [pass] = self.spec.passes.as_slice() else {
            return None;
        };
        let [c] = pass.concludes.as_slice() else {
            return None;
        };
        if c.mode != Mode::Contradiction {
            return None;
        }
        self.set_of(0)
    }

    /// The rule's sweep pass (`sweep`, its only pass), with its set and
    /// rounds.
    fn sweep_pass(&self) -> Option<(&Prepared, Option<usize>)> {
        let [pass] = self.spec.passes.as_slice() else {
            return None;
        };
        if !pass.sweep {
            return None;
        }
        self.set_of(0)
    }

    /// [`Searcher::search`]; with `first`, for the first match only (`f`
    /// stops the search at it), which may skip matches that sort after one
    /// already found. One level deeper in `cx`'s trial searches while it
    /// runs; the graphs of its implication passes come from `cx`'s scratch
    /// and go back to it.
    fn find(
        &self,
        cx: &mut SearchCx,
        state: &State,
        first: bool,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        cx.trial.depth += 1;
        let mut graphs = None;
        let r = self.find_in(cx, state, first, &mut graphs, f);
        if let Some(g) = graphs {
            cx.trial.give_graphs(g);
        }
        cx.trial.depth -= 1;
        r
    }

    fn find_in(
        &self,
        cx: &mut SearchCx,
        state: &State,
        first: bool,
        graphs: &mut Option<scratch::Graphs>,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut col = Collector {
            spec: &self.spec,
            state,
            hints: Vec::new(),
            // A trial applied in another's branches reports every match.
            eager: !cx.outcome_only && cx.trial.depth > 1,
            first,
            best: None,
        };
        let on = (&self.spec, self.links.as_slice());
        // Matches are reported in sorted order as soon as no later pass can
        // precede them: a later pass's matches rate at least its lowest
        // conclusion level. So a search that is stopped at its first match
        // skips the passes that could only come after it.
        let min_level = |p: &Pass| {
            p.concludes
                .iter()
                .map(|c| c.level.as_f64())
                .fold(f64::INFINITY, f64::min)
        };
        let passes = &self.spec.passes;
        let mut seen: Vec<Bits> = Vec::new();
        // A sweep's one match.
        if let Some(set) = self.sweep_pass() {
            if let Some((refuted, complexity)) = set_pass::sweep(cx, &passes[0], set, state) {
                let c = &passes[0].concludes[0];
                let recipe = Recipe::Sweep { pass: 0, refuted };
                col.push(c, refuted, None, complexity, recipe);
                for h in std::mem::take(&mut col.hints) {
                    report::report(cx, on, state, h, &mut seen, f)?;
                }
            }
            return if cx.interrupted() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            };
        }
        // The first match alone, by a pruned sweep (an engine stops there);
        // a caller that wants more gets them from the whole sweep below,
        // where this one is a repeat and is dropped.
        if let Some(set) = self.first_match_pass() {
            set_pass::run(cx, 0, &passes[0], set, &mut col, true);
            if cx.interrupted() {
                return ControlFlow::Break(());
            }
            for h in std::mem::take(&mut col.hints) {
                report::report(cx, on, state, h, &mut seen, f)?;
            }
        }
        for (i, pass) in passes.iter().enumerate() {
            if pass.propagate.is_some() {
                if let Some(set) = self.set_of(i) {
                    set_pass::run(cx, i, pass, set, &mut col, false);
                }
            } else {
                // Graphs for implication passes (not needed by set passes):
                // a trial applied in another's branches is searched
                // thousands of times a step.
                let g = graphs.get_or_insert_with(|| cx.trial.graphs());
                pass::run_pass(cx, i, pass, &self.links[i], &mut col, g);
            }
            if cx.interrupted() {
                return ControlFlow::Break(());
            }
            let bound = passes[i + 1..]
                .iter()
                .map(min_level)
                .fold(f64::INFINITY, f64::min);
            // A stable sort: ties keep the order in which they were found
            // (the kept rest, already sorted, was found before new matches).
            let mut hints = std::mem::take(&mut col.hints);
            hints.sort_by(|a, b| {
                a.difficulty
                    .partial_cmp(&b.difficulty)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(a.complexity.cmp(&b.complexity))
                    .then(a.key.cmp(&b.key))
            });
            let rest = hints.split_off(hints.partition_point(|h| h.difficulty < bound));
            col.hints = rest;
            for h in hints {
                report::report(cx, on, state, h, &mut seen, f)?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl Scratch {
    /// The trial scratch of a run of `searchers` (its rule set's): empty,
    /// knowing the keys of the trial passes among them that apply rules, so
    /// that the memo keeps a propagation that one of them can resume (see
    /// the `memo` module). Data of the run's own rules: what other sets linked
    /// elsewhere in the process do not count.
    pub fn for_rules<'a>(searchers: impl IntoIterator<Item = &'a dyn Searcher>) -> Scratch {
        let trials = (searchers.into_iter()).filter_map(|s| match s.kind() {
            SearcherKind::Trial(t) => Some(t),
            _ => None,
        });
        Scratch::extended_by(trials.flat_map(|t| {
            (t.links.iter())
                .filter(|l| l.applied().is_some())
                .map(|l| l.key.clone())
        }))
    }
}

impl Searcher for TrialSearch {
    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.find(cx, state, false, f)
    }

    fn first(&self, cx: &mut SearchCx, board: &Board) -> Option<Found> {
        let mut found = None;
        let _ = self.find(cx, &board.state, true, &mut |m| {
            found = Some(m);
            ControlFlow::Break(())
        });
        found
    }

    /// What a match found on `branch` relies on (when a trial rule is
    /// applied inside another's branch): every literal on among its chains'
    /// ancestors that a cell (a cell conclusion's assumptions too) or a
    /// house (a region conclusion's assumptions too) made on depends on the
    /// candidates of that cell, or of that digit in that house, that were
    /// live in `original` and are gone from `branch`.
    ///
    /// A cycle is read in both directions, as Sudoku Explainer reads it:
    /// in the reverse direction every literal of the cycle is flipped and
    /// keeps the cause of the link that made it in the forward direction,
    /// so an "off" literal that a house (or a cell) made off stands, on,
    /// for a literal that house (or cell) made on.
    fn parents(&self, original: &State, branch: &State, evidence: &Evidence) -> Bits {
        let Evidence::Implications(imp) = evidence else {
            return Bits::EMPTY;
        };
        let gone = original.cands.minus(&branch.cands);
        let both_ways = imp.conclusion == Mode::Cycle.word();
        let mut out = Bits::EMPTY;
        for chain in &imp.chains {
            for node in &chain.nodes {
                if !lit_on(node.lit) && !both_ways {
                    continue;
                }
                let z = lit_cand(node.lit);
                let house = match node.cause {
                    Cause::Cell => None,
                    Cause::House(h) => Some(usize::from(h)),
                    Cause::Assumption if imp.conclusion == Mode::Cell.word() => None,
                    Cause::Assumption if imp.region.is_some() => imp.region,
                    _ => continue,
                };
                let from = match house {
                    None => TABLES.cell[cand_cell(z)],
                    Some(h) => TABLES.var[house_var(h, cand_digit(z))],
                };
                out = out.or(&gone.and(&from));
            }
        }
        out
    }

    fn render(&self, _before: &State, evidence: &Evidence) -> String {
        let Evidence::Implications(imp) = evidence else {
            return String::new();
        };
        // Each chain, then the variables its branch emptied (a sweep has
        // several such branches, separated by `;`).
        let chains: Vec<String> = imp
            .chains
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut t = format!("({})", c.text());
                if let Some(e) = imp.empty.get(i).filter(|e| !e.is_empty()) {
                    let vars: Vec<String> = e.iter().map(|&v| var_name(v)).collect();
                    t.push_str(&format!(": no candidate left for {}", vars.join(", ")));
                }
                t
            })
            .collect();
        let emptied = imp.empty.iter().any(|e| !e.is_empty());
        let sep = if emptied { "; " } else { " " };
        format!("{} {}", imp.conclusion, chains.join(sep))
    }

    fn kind(&self) -> SearcherKind<'_> {
        SearcherKind::Trial(self)
    }
}

/// What the tests of the trial modules share.
#[cfg(test)]
mod testing {
    use super::Steps;
    use crate::grid::state::State;

    /// A hard puzzle (hard-972, line 900): its start state has forcing
    /// chains and cycles of every kind of static step.
    const PUZZLE: &str =
        "...........1..2.34..2.3156....2.43.5.2..5641..4.31..26..4....5...7.63...8.9..5...";

    /// The hard puzzle's start state.
    pub(super) fn hard_state() -> State {
        let givens: [u8; 81] =
            std::array::from_fn(|i| PUZZLE.as_bytes()[i].saturating_sub(b'0').min(9));
        State::from_givens(&givens)
    }

    /// The static steps of X, Y and XY chains.
    pub(super) fn chain_steps() -> [Steps; 3] {
        let x = Steps {
            on_off_house: true,
            off_on_house: true,
            ..Steps::default()
        };
        let y = Steps {
            on_off_cell: true,
            on_off_house: true,
            off_on_cell: true,
            ..Steps::default()
        };
        let xy = Steps {
            off_on_house: true,
            ..y
        };
        [x, y, xy]
    }
}

#[cfg(test)]
mod tests {
    use super::testing::hard_state;
    use super::*;
    use crate::search::ConclusionKind;
    use std::sync::Arc;

    /// A match as text: its kind, conclusions, grade and rendering.
    fn show(r: &dyn Searcher, f: &Found, state: &State) -> String {
        format!(
            "{:?} {:?} {:?} {}",
            f.kind,
            f.conclusions.iter().collect::<Vec<_>>(),
            f.grade,
            r.render(state, &f.evidence)
        )
    }

    /// A trial whose applied rules extend another's takes the other's
    /// propagations in the same state and finds the same matches, in the
    /// same order, with the same evidence, as when it makes them alone.
    /// Each run has a context of its own, so a memo of its own.
    #[test]
    fn a_trial_extending_anothers_rules_finds_the_same_matches() {
        let set = crate::ruleset::load("se").unwrap();
        let rule = |name: &str| {
            set.rules
                .iter()
                .find(|r| r.head.name == name)
                .unwrap()
                .searcher
                .clone()
        };
        let (plus, fc) = (
            rule("dynamic-forcing-chains-plus"),
            rule("dynamic-forcing-chains-plus-fc"),
        );
        let state = hard_state();
        let run = |rules: &[Arc<dyn Searcher>]| {
            let mut cx = SearchCx::new(None);
            cx.trial = Scratch::for_rules(rules.iter().map(|r| &**r));
            let out: Vec<Vec<String>> = rules
                .iter()
                .map(|r| {
                    let mut found = Vec::new();
                    let _ = r.search(&mut cx, &state, &mut |f| {
                        found.push(show(&**r, &f, &state));
                        ControlFlow::Continue(())
                    });
                    found
                })
                .collect();
            (out, cx.trial.memo.resumed)
        };
        let (alone, resumed_alone) = run(std::slice::from_ref(&fc));
        let (after, resumed_after) = run(&[plus, fc]);
        assert_eq!(resumed_alone, 0);
        assert!(resumed_after > 100, "{resumed_after}");
        assert!(!alone[0].is_empty());
        assert_eq!(after[1], alone[0]);
    }

    /// A search for the first match only finds the first match of the
    /// whole search, with the same evidence and node count, on states of
    /// the hard puzzle where forcing chains and cycles apply.
    #[test]
    fn the_first_match_alone_is_the_searchs_first() {
        let set = crate::ruleset::load("se").unwrap();
        let rule = set
            .rules
            .iter()
            .find(|r| r.head.name == "forcing-chains-and-cycles")
            .unwrap();
        let r = &*rule.searcher;
        let mut state = hard_state();
        let mut steps = 0;
        // Each state after the one before without the first match's
        // eliminations (placements are not applied).
        while steps < 6 {
            let (mut c1, mut c2) = (SearchCx::new(None), SearchCx::new(None));
            let mut whole = None;
            let _ = r.search(&mut c1, &state, &mut |f| {
                whole = Some(f);
                ControlFlow::Break(())
            });
            let first = r.first(&mut c2, &Board::new(&state));
            assert_eq!(
                whole.as_ref().map(|f| show(r, f, &state)),
                first.as_ref().map(|f| show(r, f, &state))
            );
            assert_eq!(c1.nodes, c2.nodes);
            let Some(f) = whole else { break };
            steps += 1;
            match f.kind {
                ConclusionKind::Eliminate => state.cands = state.cands.minus(&f.conclusions),
                ConclusionKind::Assert => break,
            }
        }
        assert!(steps >= 2, "{steps}");
    }
}
