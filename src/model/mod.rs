//! Puzzle types as data: the finite binary CSP of a puzzle, whatever its
//! size and rules.
//!
//! A type ([`TypeSpec`], [`spec`]) gives the grid side `N` and the
//! symbols, the houses and their kinds, and the binary constraints between
//! cells; [`Model::build`] ([`csp`]) turns it into the CSP: candidates
//! (cell × symbol), CSP variables in named spaces (`rc`, `rn`, `cn`, `bn`,
//! `dn`, `an`, …), the link graph (petgraph) and the tables derived from
//! it, the groups g-candidates stand for ([`groups`]) and the names paths
//! print ([`names`]). Types come from a built-in name ([`builtin`]:
//! `sudoku`, `sudoku:16`, `latin:9`, `pandiagonal:13`, `futoshiki:7`) or
//! a user's YAML file ([`yaml`], documented in `docs/puzzle-types.md`).
//!
//! Sets over a type's indices are [`DynBits`] ([`bits`]), sized at run
//! time.
//!
//! Architecture Invariant: the built-in `sudoku:9` model is the classic
//! grid: same candidates, variables (by space and order), links and
//! groups as `grid::geometry`, `grid::links::GRAPH` and
//! `grid::segments` (`tests::sudoku_9_is_the_classic_grid`). The
//! specialised 9×9 path and the generic model describe one CSP.

pub mod bits;
pub mod builtin;
pub mod csp;
pub mod groups;
pub mod names;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod yaml;

pub use bits::DynBits;
pub use csp::{Edge, House, Model, Node, Space};
pub use groups::Group;
pub use spec::{Constraint, Family, Kind, TypeSpec};
pub use yaml::TypeError;

/// The default type: classic 9×9 Sudoku.
pub const DEFAULT_TYPE: &str = "sudoku";

/// Whether `--type`'s value names a file rather than a built-in type.
pub fn is_type_file(name: &str) -> bool {
    name.ends_with(".yaml") || name.ends_with(".yml") || name.contains('/')
}

/// The type `name`: a built-in name, or a YAML file (a name ending in
/// `.yaml` or `.yml`, or holding a `/`).
pub fn load(name: &str) -> Result<Model, String> {
    let spec = if is_type_file(name) {
        let text = std::fs::read_to_string(name)
            .map_err(|e| format!("cannot read type file {name}: {e}"))?;
        yaml::parse_type(name, &text).map_err(|e| e.to_string())?
    } else {
        builtin::builtin(name)?
    };
    Ok(Model::build(spec))
}
