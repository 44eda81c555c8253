//! Count plans run: a plan whose strategy is a [`CountPlan`] finds its
//! first match off the board's counts ([`CountPlan::first`]; the branch
//! runner of trial rules takes all of them, [`CountPlan::each`]); and a
//! full search of a plan that starts "one generator over a space's
//! variables, `|V| == K`" ([`count_head`](super::strategy::count_head)) reads the variables that pass
//! from each house's digit counts (the cells' digit masks) instead of
//! evaluating the filter per variable (`Plan::run_counted`), with the
//! same matches, order and node counts.
//!
//! The first match read off the board is the full search's: the same
//! variable (the first with K live candidates), the same conclusions (its
//! live candidates), the same bound values, and the same node count
//! charged to the [`SearchCx`]: the live variables of the space up to the
//! match, or all of them when there is none, which is what the full
//! search's generator visits. So `--stats` runs this code and reports
//! what full searches count; a test compares both along the paths of many
//! puzzles. (A caller that reads only outcomes, a tally, reads no
//! statistics either: then no node is charged, and no bound value kept.)

use super::ir::Val;
use super::plan::Plan;
use super::run::Frame;
use super::strategy::{CountPlan, Strategy};
use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::geometry::*;
use crate::grid::state::cell_masks;
use crate::search::{Evidence, Found, SearchCx, Searcher, SearcherKind};
use std::ops::ControlFlow;

/// For the `i`-th house of a space's variables (row, column or block `i`
/// for rn, cn, bn): the digits with at least one live place in it, and
/// those with exactly `k`, from the cells' digit masks.
fn house_digits(space: Space, i: usize, masks: &[u16; N_CELLS], k: usize) -> (u16, u16) {
    let h = match space {
        Space::Rn => i,
        Space::Cn => 9 + i,
        _ => 18 + i,
    };
    let cells = &HOUSE_CELLS[h];
    if k == 1 {
        // Bit-sliced: `one` has the digits seen once or more, `two` twice
        // or more.
        let (mut one, mut two) = (0u16, 0u16);
        for &c in cells {
            let m = masks[c];
            two |= one & m;
            one |= m;
        }
        return (one, one & !two);
    }
    let mut n = [0usize; 9];
    let mut live = 0u16;
    for &c in cells {
        live |= masks[c];
        let mut m = masks[c];
        while m != 0 {
            n[m.trailing_zeros() as usize] += 1;
            m &= m - 1;
        }
    }
    let exact = (0..9).filter(|&d| n[d] == k).fold(0u16, |a, d| a | 1 << d);
    (live, exact)
}

impl Plan {
    /// Runs a plan with a count head ([`count_head`]): the live variables
    /// of the space count as the generator's nodes (nine at a time); those
    /// with K live candidates, in index order, go on to the third
    /// instruction.
    pub(super) fn run_counted(
        &self,
        head: (usize, Space, usize),
        fr: &mut Frame,
    ) -> ControlFlow<()> {
        let (slot, space, k) = head;
        let masks = cell_masks(&fr.state.cands);
        let base = var(space, 0);
        for i in 0..9 {
            // The space's variables 9i..9i+9: a cell's digits (rc), or a
            // house's digits.
            let (live, exact) = match space {
                Space::Rc => {
                    let mut live = 0u16;
                    let mut exact = 0u16;
                    for j in 0..9 {
                        let m = masks[9 * i + j];
                        if m != 0 {
                            live |= 1 << j;
                        }
                        if m.count_ones() as usize == k {
                            exact |= 1 << j;
                        }
                    }
                    (live, exact)
                }
                _ => house_digits(space, i, &masks, k),
            };
            // The generator's nodes are the live variables, counted up to
            // each match before it goes on (as one at a time would).
            let mut ticked = 0u16;
            let mut m = exact & live;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let upto = live & ((2u16 << j) - 1) & !ticked;
                ticked |= upto;
                if fr.cx.tick_n(upto.count_ones()) {
                    return ControlFlow::Break(());
                }
                fr.env[slot] = Val::Idx(base + 9 * i + j);
                self.run(2, fr)?;
            }
            if fr.cx.tick_n((live & !ticked).count_ones()) {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

impl CountPlan {
    /// The count form of a searcher: a pattern plan whose strategy is
    /// [`Strategy::Count`].
    pub fn of(s: &dyn Searcher) -> Option<CountPlan> {
        match s.kind() {
            SearcherKind::Pattern(plan) => match plan.strategy {
                Strategy::Count(c) => Some(c),
                Strategy::Full => None,
            },
            _ => None,
        }
    }

    /// The plan's first match on `board`, as the full search finds it on
    /// the board's state, with the same nodes charged to `cx`. With
    /// [`SearchCx::outcome_only`] (a caller that reads neither evidence
    /// nor statistics), its bound values are left out (its evidence holds
    /// none) and no node is charged.
    #[inline]
    pub fn first(&self, cx: &mut SearchCx, board: &Board) -> Option<Found> {
        let v = self.first_var(board);
        let stop = match cx.outcome_only {
            true => cx.interrupted(),
            false => cx.tick_n(board.live_vars_upto(v.unwrap_or(var(self.space, 80))) as u32),
        };
        if stop {
            return None;
        }
        let v = v?;
        let env = if cx.outcome_only {
            Vec::new()
        } else {
            let mut env = vec![Val::Int(0); self.slots];
            env[self.slot] = Val::Idx(v);
            env
        };
        let conclusions = match board.first_live(v) {
            Some(z) if self.count == 1 => Bits::single(z),
            _ => board.var_cands(v),
        };
        Some(Found {
            kind: self.kind,
            conclusions,
            grade: None,
            evidence: Evidence::Bindings(env),
        })
    }

    /// The first match's variable on `board`, in the plan's order.
    #[inline]
    pub fn first_var(&self, board: &Board) -> Option<usize> {
        let mut first = None;
        let _ = self.each(board, |v| {
            first = Some(v);
            ControlFlow::Break(())
        });
        first
    }

    /// Calls `f` with each match's variable (its live candidates are the
    /// match's conclusions) on `board`, in the plan's order (variables in
    /// index order), until it breaks.
    #[inline]
    pub fn each(
        &self,
        board: &Board,
        mut f: impl FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.count == 1 {
            let ones = board.ones();
            for (w, mask) in space_words(self.space) {
                let mut bits = ones.0[w] & mask;
                while bits != 0 {
                    f(64 * w + bits.trailing_zeros() as usize)?;
                    bits &= bits - 1;
                }
            }
            return ControlFlow::Continue(());
        }
        let base = var(self.space, 0);
        for v in base..base + 81 {
            if board.count(v) == self.count {
                f(v)?;
            }
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Limits, Runner};
    use crate::grid::state::State;
    use crate::ruleset;
    use crate::search::ConclusionKind;

    #[test]
    fn the_singles_are_count_plans_and_subsets_are_not() {
        let set = ruleset::load("singles").unwrap();
        let forms: Vec<_> = set
            .rules
            .iter()
            .map(|r| CountPlan::of(&*r.searcher))
            .collect();
        let spaces = [Space::Rc, Space::Rn, Space::Cn, Space::Bn];
        assert_eq!(forms.len(), 4);
        for (f, sp) in forms.iter().zip(spaces) {
            assert_eq!(
                *f,
                Some(CountPlan {
                    space: sp,
                    count: 1,
                    kind: ConclusionKind::Assert,
                    slot: 0,
                    slots: 1,
                })
            );
        }
        let basic = ruleset::load("basic").unwrap();
        let n = basic
            .rules
            .iter()
            .filter(|r| CountPlan::of(&*r.searcher).is_some())
            .count();
        assert_eq!(n, 4);
    }

    /// On every state along the paths of cbg-000 puzzles (and those of
    /// states emptied of some candidates, where counts other than one
    /// match), each count plan of the shipped sets gives, on the board,
    /// the first match its full search gives on the state (conclusions
    /// and bound values), with the same nodes, and none when the full
    /// search has none. No count plan shares a prefix with another plan
    /// (its full search would then replay recorded bindings, whose nodes
    /// the board does not know).
    #[test]
    fn count_plans_find_what_full_searches_find() {
        let text = crate::test_data::CBG_FIRST1000;
        let mut plans = Vec::new();
        for name in ["sfin", "basic", "w", "se", "filter-fast", "filter-slow"] {
            let set = ruleset::load(name).unwrap();
            for r in &set.rules {
                if let (Some(c), Some(plan)) = (CountPlan::of(&*r.searcher), r.plan()) {
                    assert!(plan.prefixes.is_empty(), "{}", r.head.name);
                    plans.push((r.clone(), c));
                }
            }
        }
        // Count plans of other counts and of elimination, as a rule file
        // may write them.
        let src = "rule pairs-of-cells {\n complexity 5\n let V: rc\n where |V| == 2\n eliminate V\n show \"${V}\"\n}\nrule triples-in-columns {\n complexity 6\n let V: cn\n where 3 == |V|\n eliminate V\n}\n";
        for r in crate::lang::compile_source("counts.rules", src).unwrap() {
            assert!(CountPlan::of(&*r.searcher).is_some(), "{}", r.head.name);
            let c = CountPlan::of(&*r.searcher).unwrap();
            plans.push((std::sync::Arc::new(r), c));
        }
        let sfin = ruleset::load("sfin").unwrap();
        let (mut states, mut found) = (0, 0);
        for line in text.lines().skip(1).take(30) {
            let p = crate::input::parse_puzzle(&line[..81]).unwrap();
            let run = Runner::new(&sfin)
                .limits(Limits::default())
                .run(State::from_masks(&p.masks, &p.givens));
            let mut all: Vec<State> = run.steps.iter().map(|s| s.before).collect();
            // Thinned copies: every third candidate of some cells gone.
            for (i, s) in run.steps.iter().enumerate().step_by(7) {
                let mut t = s.before;
                for z in s.before.cands.iter().skip(i % 3).step_by(5) {
                    t.eliminate(z);
                }
                all.push(t);
            }
            for state in all {
                states += 1;
                let board = Board::new(&state);
                for (rule, c) in &plans {
                    let (mut full_cx, mut cx) = (SearchCx::new(None), SearchCx::new(None));
                    let mut full = None;
                    let _ = rule.searcher.search(&mut full_cx, &state, &mut |f| {
                        full = Some(f);
                        ControlFlow::Break(())
                    });
                    let got = c.first(&mut cx, &board);
                    let key = |f: &Found| (f.kind, f.conclusions, f.evidence.clone());
                    assert_eq!(got.as_ref().map(key), full.as_ref().map(key));
                    assert_eq!(cx.nodes, full_cx.nodes, "{}", rule.head.name);
                    // Through the searcher, without evidence (and without
                    // the nodes, which no outcome-only caller reads).
                    let mut cx = SearchCx::new(None);
                    cx.outcome_only = true;
                    let quick = rule.searcher.first(&mut cx, &board);
                    assert_eq!(
                        quick.map(|f| (f.kind, f.conclusions)),
                        full.as_ref().map(|f| (f.kind, f.conclusions))
                    );
                    assert_eq!(cx.nodes, 0);
                    found += usize::from(full.is_some());
                }
            }
        }
        assert!(states > 1000 && found > 3000, "{states} {found}");
    }
}
