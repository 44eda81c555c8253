//! The static types of the rule language ([`Ty`], defined with the
//! checked IR it types: [`crate::search::pattern::ir`]) as messages name
//! them.

use crate::search::pattern::Ty;

/// Messages that mention the error type are follow-ons of an error
/// already reported; [`Ty::Error`]'s name marks them.
pub(super) const POISON: &str = "\u{0}error\u{0}";

/// A type's name in messages.
pub trait Named {
    /// "integer", "set of cell", "type name `row`".
    fn name(self) -> String;
    /// The name with its article: "an integer", "a set of cell".
    fn a(self) -> String;
}

impl Named for Ty {
    fn name(self) -> String {
        match self {
            Ty::Error => POISON.into(),
            Ty::Int => "integer".into(),
            Ty::Bool => "condition".into(),
            Ty::Text => "text".into(),
            Ty::Kind(e) => format!("type name `{}`", e.name()),
            Ty::One(e) => e.name(),
            Ty::Set(e) => format!("set of {}", e.name()),
        }
    }

    fn a(self) -> String {
        let n = self.name();
        if n.starts_with(['a', 'e', 'i', 'o', 'u']) {
            format!("an {n}")
        } else {
            format!("a {n}")
        }
    }
}
