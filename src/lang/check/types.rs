//! The static types of the rule language, as messages name them.

use crate::search::pattern::{Elem, Shape};

/// Messages that mention the error type are follow-ons of an error
/// already reported; [`Ty::Error`]'s name marks them.
pub(super) const POISON: &str = "\u{0}error\u{0}";

/// Static types of expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// The type of an expression that already has an error: it fits
    /// everywhere, so one mistake is reported once.
    Error,
    Int,
    Bool,
    Text,
    /// A type name used as a value (`houses(column, S)`).
    Kind(Elem),
    One(Elem),
    Set(Elem),
}

impl Ty {
    pub fn name(self) -> String {
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

    /// The name with its article: "an integer", "a set of cell".
    pub fn a(self) -> String {
        let n = self.name();
        if n.starts_with(['a', 'e', 'i', 'o', 'u']) {
            format!("an {n}")
        } else {
            format!("a {n}")
        }
    }

    /// How a value of this type prints in a show template.
    pub(super) fn shape(self) -> Shape {
        match self {
            Ty::One(e) => Shape::One(e),
            Ty::Set(e) => Shape::Set(e),
            _ => Shape::Int,
        }
    }
}
