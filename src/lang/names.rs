//! The one table of the language's words: keywords, type names, built-in
//! functions, quantifiers and named values. The parser's messages, the
//! checker's look-ups and its "expected one of …" lists all read from
//! here; the grammar's `keyword` and `quant_kw` rules repeat
//! [`KEYWORDS`] and [`QUANTIFIERS`] (tests keep them equal).

use crate::grid::geometry::Space;
use crate::search::pattern::{Elem, Quant};

/// Words that cannot name a variable.
pub const KEYWORDS: &[&str] = &[
    "let",
    "where",
    "eliminate",
    "assert",
    "show",
    "complexity",
    "level",
    "rating",
    "rule",
    "chain",
    "trial",
    "in",
    "then",
    "and",
    "or",
    "not",
    "for",
];

/// Type names and the element types they stand for.
pub const TYPES: &[(&str, Elem)] = &[
    ("digit", Elem::Digit),
    ("row", Elem::Row),
    ("column", Elem::Column),
    ("block", Elem::Block),
    ("house", Elem::House),
    ("cell", Elem::Cell),
    ("cand", Elem::Cand),
    ("var", Elem::Var(None)),
    ("rc", Elem::Var(Some(Space::Rc))),
    ("rn", Elem::Var(Some(Space::Rn))),
    ("cn", Elem::Var(Some(Space::Cn))),
    ("bn", Elem::Var(Some(Space::Bn))),
];

/// A built-in function: its name and its number of arguments.
pub struct Builtin {
    pub name: &'static str,
    pub arity: usize,
}

/// The built-in functions, in the order error messages list them.
pub const FUNCTIONS: &[Builtin] = &[
    Builtin {
        name: "cands",
        arity: 1,
    },
    Builtin {
        name: "digits",
        arity: 1,
    },
    Builtin {
        name: "cells",
        arity: 1,
    },
    Builtin {
        name: "rows",
        arity: 1,
    },
    Builtin {
        name: "columns",
        arity: 1,
    },
    Builtin {
        name: "blocks",
        arity: 1,
    },
    Builtin {
        name: "houses",
        arity: 2,
    },
    Builtin {
        name: "vars",
        arity: 2,
    },
    Builtin {
        name: "linked",
        arity: 1,
    },
    Builtin {
        name: "peers",
        arity: 1,
    },
    Builtin {
        name: "first",
        arity: 1,
    },
    Builtin {
        name: "last",
        arity: 1,
    },
    Builtin {
        name: "count",
        arity: 1,
    },
    Builtin {
        name: "within",
        arity: 2,
    },
];

/// The quantifiers: `all(X in S: C)`, `any(…)`, `none(…)`, `count(…)`,
/// `select(…)` (the members of S for which C holds).
pub const QUANTIFIERS: &[(&str, Quant)] = &[
    ("all", Quant::All),
    ("any", Quant::Any),
    ("none", Quant::None),
    ("count", Quant::Count),
    ("select", Quant::Select),
];

/// The name of the whole grid: every live candidate (a set of `cand`).
/// `cells(grid)` are the undecided cells, `vars(rn, grid)` the row
/// variables with a candidate left.
pub const GRID: &str = "grid";

/// The element type named by a word.
pub fn elem_of(word: &str) -> Option<Elem> {
    TYPES.iter().find(|(n, _)| *n == word).map(|&(_, e)| e)
}

/// The built-in function named `name`.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The quantifier named by a word.
pub fn quantifier(word: &str) -> Option<Quant> {
    QUANTIFIERS
        .iter()
        .find(|(n, _)| *n == word)
        .map(|&(_, q)| q)
}

/// Is `name` a keyword, a type name, a function, a quantifier or `grid`?
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name)
        || elem_of(name).is_some()
        || builtin(name).is_some()
        || quantifier(name).is_some()
        || name == GRID
}

/// `digit, row, …` for messages.
pub fn type_list() -> String {
    TYPES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// `cands, digits, …` for messages.
pub fn function_list() -> String {
    FUNCTIONS
        .iter()
        .map(|f| f.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grammar's `keyword` rule lists exactly [`KEYWORDS`].
    #[test]
    fn grammar_keywords_are_the_table() {
        let grammar = include_str!("../../grammar/rules.pest");
        let line = grammar
            .lines()
            .find(|l| l.trim_start().starts_with("keyword"))
            .expect("grammar has a keyword rule");
        let mut in_grammar: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        let mut table = KEYWORDS.to_vec();
        in_grammar.sort();
        table.sort();
        assert_eq!(in_grammar, table);
    }

    /// The grammar's `quant_kw` rule lists exactly [`QUANTIFIERS`].
    #[test]
    fn grammar_quantifiers_are_the_table() {
        let grammar = include_str!("../../grammar/rules.pest");
        let line = grammar
            .lines()
            .find(|l| l.trim_start().starts_with("quant_kw"))
            .expect("grammar has a quant_kw rule");
        let mut in_grammar: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        let mut table: Vec<&str> = QUANTIFIERS.iter().map(|(n, _)| *n).collect();
        in_grammar.sort();
        table.sort();
        assert_eq!(in_grammar, table);
    }

    #[test]
    fn every_word_is_found() {
        for (n, e) in TYPES {
            assert_eq!(elem_of(n), Some(*e));
            assert!(is_reserved(n));
        }
        for f in FUNCTIONS {
            assert_eq!(builtin(f.name).map(|b| b.arity), Some(f.arity));
        }
        for (n, q) in QUANTIFIERS {
            assert_eq!(quantifier(n), Some(*q));
            assert!(is_reserved(n));
        }
        assert!(is_reserved(GRID));
        assert!(is_reserved("where"));
        assert!(!is_reserved("H"));
    }
}
