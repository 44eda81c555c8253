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
pub mod order;
pub mod spec;
#[cfg(test)]
mod tests;
pub mod variant;
#[cfg(test)]
mod variant_tests;
pub mod yaml;

pub use bits::DynBits;
pub use csp::{Edge, House, Model, Node, Space};
pub use groups::{Group, GroupKind, Overlap};
pub use order::Orders;
pub use spec::{Constraint, Family, Kind, TypeSpec};
pub use variant::Variant;
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
        let text = read_type_file(name)?;
        yaml::parse_type(name, &text).map_err(|e| e.to_string())?
    } else {
        builtin::builtin(name)?
    };
    Ok(Model::build(spec))
}

/// Largest type file read, in bytes: 2 MiB, as for rule files (a 64×64
/// type with every region written out is under 20 KB).
pub const MAX_TYPE_FILE_BYTES: u64 = 2 << 20;

/// A type file's text, read up to [`MAX_TYPE_FILE_BYTES`] whatever the
/// file is (a pipe or `/dev/zero` is read while it comes and refused once
/// past the cap, never held whole).
fn read_type_file(name: &str) -> Result<String, String> {
    use std::io::Read;
    let file =
        std::fs::File::open(name).map_err(|e| format!("cannot read type file {name}: {e}"))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("cannot read type file {name}: it is a folder"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_TYPE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read type file {name}: {e}"))?;
    if bytes.len() as u64 > MAX_TYPE_FILE_BYTES {
        return Err(format!(
            "type file {name} too large: more than {MAX_TYPE_FILE_BYTES} bytes (2 MiB) are not read"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "type file {name} is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        )
    })
}
