//! What covers a conclusion: when B's conclusions make one of A's, and
//! what B must be asked for to know.
//!
//! An **elimination** of A is covered when B eliminates the candidate, or
//! the candidate goes because of a value B places (it is nrc-linked to
//! it: the consequences of an assertion count, as the engine applies them).
//! An **assertion** of A is covered when B places the same value, or when B
//! removes every other live candidate of one of the candidate's four CSP
//! variables (its cell, or its row, column or block for the digit): B then
//! leaves it the only place, which is what the assertion says.

use crate::grid::bits::Bits;
use crate::grid::geometry::{cand_vars, var_cands};
use crate::grid::links::links;
use crate::grid::state::State;
use crate::path::conclusion_text;
use crate::search::{ConclusionKind, Found, Targets};

/// Eliminations and assertions, as candidate sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conclusions {
    pub elim: Bits,
    pub assert: Bits,
}

impl Conclusions {
    pub fn add(&mut self, f: &Found) {
        match f.kind {
            ConclusionKind::Eliminate => self.elim = self.elim.or(&f.conclusions),
            ConclusionKind::Assert => self.assert = self.assert.or(&f.conclusions),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.elim.is_empty() && self.assert.is_empty()
    }

    pub fn len(&self) -> usize {
        self.elim.len() + self.assert.len()
    }

    pub fn or(&self, o: &Conclusions) -> Conclusions {
        Conclusions {
            elim: self.elim.or(&o.elim),
            assert: self.assert.or(&o.assert),
        }
    }

    pub fn minus(&self, o: &Conclusions) -> Conclusions {
        Conclusions {
            elim: self.elim.minus(&o.elim),
            assert: self.assert.minus(&o.assert),
        }
    }

    /// The same candidates as targets of a search.
    pub fn targets(&self) -> Targets {
        Targets {
            elim: self.elim,
            assert: self.assert,
        }
    }

    /// The conclusions as SudoRules writes them (`r1c2 ≠ 3`, `r4c5 = 6`),
    /// eliminations first, each in candidate order.
    pub fn texts(&self) -> Vec<String> {
        let e = self
            .elim
            .iter()
            .map(|z| conclusion_text(ConclusionKind::Eliminate, z));
        let a = self
            .assert
            .iter()
            .map(|z| conclusion_text(ConclusionKind::Assert, z));
        e.chain(a).collect()
    }
}

/// The live candidates of `state` that conclusions `c` remove: their
/// eliminations, and the candidates linked to the values they place.
pub fn removed(state: &State, c: &Conclusions) -> Bits {
    let mut r = c.elim;
    for v in c.assert.iter() {
        r = r.or(links(v));
    }
    r.and(&state.cands)
}

/// The other live candidates of `v`'s variables.
fn others(state: &State, v: usize) -> impl Iterator<Item = usize> + '_ {
    cand_vars(v).into_iter().flat_map(move |x| {
        var_cands(x)
            .into_iter()
            .filter(move |&z| z != v && state.cands.contains(z))
    })
}

/// A's conclusions that B's do not cover at `state` (see the module docs).
pub fn missed(state: &State, a: &Conclusions, b: &Conclusions) -> Conclusions {
    let gone = removed(state, b);
    let elim = a.elim.minus(&gone);
    let mut assert = a.assert.minus(&b.assert);
    for v in a.assert.iter() {
        let only_place = cand_vars(v).into_iter().any(|x| {
            var_cands(x)
                .into_iter()
                .all(|z| z == v || !state.cands.contains(z) || gone.contains(z))
        });
        if only_place {
            assert.remove(v);
        }
    }
    Conclusions { elim, assert }
}

/// What B must be asked about to know whether it covers `a` at `state`:
/// for an elimination, the candidate's elimination and the assertion of
/// every live candidate linked to it; for an assertion, itself, and the
/// removal of every other candidate of its variables.
pub fn cover_targets(state: &State, a: &Conclusions) -> Targets {
    let live = &state.cands;
    let mut t = Targets {
        elim: a.elim,
        assert: a.assert,
    };
    for y in a.elim.iter() {
        t.assert = t.assert.or(&links(y).and(live));
    }
    for v in a.assert.iter() {
        for z in others(state, v) {
            t.elim.insert(z);
            t.assert = t.assert.or(&links(z).and(live));
        }
    }
    t
}

/// Those of A's conclusions `a` whose cover depends on something in
/// `unknown` (what B's searches gave up on).
pub fn depending_on(state: &State, a: &Conclusions, unknown: &Targets) -> Conclusions {
    let mut out = Conclusions::default();
    if unknown.is_empty() {
        return out;
    }
    for y in a.elim.iter() {
        let one = Conclusions {
            elim: Bits::single(y),
            assert: Bits::EMPTY,
        };
        if !cover_targets(state, &one).and(unknown).is_empty() {
            out.elim.insert(y);
        }
    }
    for v in a.assert.iter() {
        let one = Conclusions {
            elim: Bits::EMPTY,
            assert: Bits::single(v),
        };
        if !cover_targets(state, &one).and(unknown).is_empty() {
            out.assert.insert(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::geometry::{cand, cell};

    #[test]
    fn an_assertion_covers_what_it_removes_and_its_only_place() {
        let s = State::empty_grid();
        let v = cand(cell(0, 0), 4);
        let b = Conclusions {
            elim: Bits::EMPTY,
            assert: Bits::single(v),
        };
        // B places 5 in r1c1: r1c2 ≠ 5 and r1c1 ≠ 3 follow.
        let a = Conclusions {
            elim: Bits::from_indices([cand(cell(0, 1), 4), cand(cell(0, 0), 2)]),
            assert: Bits::single(v),
        };
        assert!(missed(&s, &a, &b).is_empty());
        // B removes every other 5 of row 1: r1c1 = 5 is covered.
        let others = Bits::from_indices((1..9).map(|c| cand(cell(0, c), 4)));
        let b = Conclusions {
            elim: others,
            assert: Bits::EMPTY,
        };
        let a = Conclusions {
            elim: Bits::EMPTY,
            assert: Bits::single(v),
        };
        assert!(missed(&s, &a, &b).is_empty());
        // One of them left: not covered.
        let mut fewer = others;
        fewer.remove(cand(cell(0, 8), 4));
        let b = Conclusions {
            elim: fewer,
            assert: Bits::EMPTY,
        };
        assert_eq!(missed(&s, &a, &b), a);
    }

    #[test]
    fn what_b_is_asked_decides_the_cover() {
        let s = State::empty_grid();
        let y = cand(cell(0, 1), 4);
        let a = Conclusions {
            elim: Bits::single(y),
            assert: Bits::EMPTY,
        };
        let t = cover_targets(&s, &a);
        // Its own elimination, or any of the 28 values linked to it placed.
        assert_eq!((t.elim.len(), t.assert.len()), (1, 28));
        // B's conclusions outside those change nothing.
        let far = Conclusions {
            elim: Bits::single(cand(cell(8, 8), 0)),
            assert: Bits::single(cand(cell(8, 8), 0)),
        };
        assert_eq!(missed(&s, &a, &far), a);
        let unknown = Targets {
            elim: Bits::EMPTY,
            assert: Bits::single(cand(cell(0, 5), 4)),
        };
        assert_eq!(depending_on(&s, &a, &unknown), a);
        assert!(depending_on(&s, &a, &Targets::default()).is_empty());
    }
}
