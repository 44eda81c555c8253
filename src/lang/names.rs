//! The one table of the language's words: keywords, type names and
//! built-in functions. The parser's messages, the checker's look-ups and
//! its "expected one of …" lists all read from here; the grammar's
//! `keyword` rule repeats [`KEYWORDS`] (a test keeps them equal).

use crate::grid::geometry::Space;
use crate::search::pattern::Elem;

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

/// The element type named by a word.
pub fn elem_of(word: &str) -> Option<Elem> {
    TYPES.iter().find(|(n, _)| *n == word).map(|&(_, e)| e)
}

/// The built-in function named `name`.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// Is `name` a keyword, a type name or a function name?
pub fn is_reserved(name: &str) -> bool {
    KEYWORDS.contains(&name) || elem_of(name).is_some() || builtin(name).is_some()
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

    #[test]
    fn every_word_is_found() {
        for (n, e) in TYPES {
            assert_eq!(elem_of(n), Some(*e));
            assert!(is_reserved(n));
        }
        for f in FUNCTIONS {
            assert_eq!(builtin(f.name).map(|b| b.arity), Some(f.arity));
        }
        assert!(is_reserved("where"));
        assert!(!is_reserved("H"));
    }
}
