//! Chains on any type: the chain families of the language (whips, braids,
//! g-whips, g-braids, z-chains, t-whips, bivalue chains, typed chains,
//! lassos), searched on a run's [`Frame`] with the same definitions as
//! the classic search (`search::chain`, `docs/chains.md`).

use super::frame::Frame;
use super::state::State;
use super::{Found, Unfit, space_named};
use crate::grid::geometry::Space;
use crate::model::Model;
use crate::search::SearchCx;
use crate::search::chain::{ChainEvidence, ChainSpec};

/// A chain rule of one length, for the typed back end.
#[derive(Clone, Debug)]
pub struct TypedChain {
    pub spec: ChainSpec,
    /// Per model space: may the chain's variables come from it?
    pub spaces: Vec<bool>,
}

impl TypedChain {
    /// The chain rule of `spec` on `model`: every space when the spec
    /// allows the four classic ones, else the type's spaces of those
    /// names (none: the rule does not apply to the type).
    pub fn of(spec: &ChainSpec, model: &Model) -> Result<TypedChain, Unfit> {
        let spaces = if spec.spaces.iter().all(|&b| b) {
            vec![true; model.spaces.len()]
        } else {
            let mut on = vec![false; model.spaces.len()];
            for sp in Space::ALL {
                if spec.spaces[sp as usize] {
                    if let Some(i) = space_named(model, sp.name()) {
                        on[i] = true;
                    }
                }
            }
            if !on.contains(&true) {
                let names: Vec<&str> = Space::ALL
                    .iter()
                    .filter(|sp| spec.spaces[**sp as usize])
                    .map(|sp| sp.name())
                    .collect();
                return Err(Unfit::Space(names.join(", ")));
            }
            on
        };
        Ok(TypedChain {
            spec: spec.clone(),
            spaces,
        })
    }

    /// The first chain of the spec's length on `st` (targets in increasing
    /// order), as a match.
    pub fn first<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Found<W>> {
        let _ = (cx, frame, st);
        todo!("the typed chain search")
    }

    /// The chain in SudoRules notation.
    pub fn render<const W: usize>(&self, frame: &Frame<W>, ev: &ChainEvidence) -> String {
        let _ = (frame, ev);
        todo!("the typed chain rendering")
    }
}
