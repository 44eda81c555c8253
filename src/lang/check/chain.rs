//! Checking a chain rule: its clauses, each word read from
//! [`crate::lang::names`], into a [`ChainSpec`].

use super::Checker;
use crate::lang::ast::*;
use crate::lang::expand::{Errors, Params, substitute};
use crate::lang::names::{self, Nodes, Other};
use crate::rating::Rating;
use crate::search::chain::{ChainSpec, Ending, Extras, Linking};

/// A checked chain rule instance: its head and its search configuration.
#[derive(Clone, Debug)]
pub struct CheckedChain {
    pub name: String,
    pub complexity: i64,
    pub level: Rating,
    pub label: Option<String>,
    pub spec: ChainSpec,
}

/// Longest chain a rule may ask for (SudoRules' own limit is 36).
pub const MAX_CHAIN_LENGTH: i64 = 64;

/// Checks one instance of a chain rule.
pub fn check_chain(
    ast: &RuleAst,
    clauses: &[ChainClause],
    params: &Params,
) -> Result<CheckedChain, Errors> {
    let mut c = Checker::new(params);
    let name = substitute(&ast.name, params);
    let (complexity, level, label) = c.head(ast);
    let mut length = None;
    let mut spaces = None;
    let mut extras = None;
    let mut linking = None;
    let mut ending = None;
    let mut groups = None;
    let mut all_targets = None;
    let mut one_digit = None;
    // A `length` clause with an error is not also a missing one.
    let mut length_seen = false;
    let mut ends_seen = false;
    // Where the clauses that `nodes groups` and `ends loop` constrain are.
    let mut nodes_span = None;
    let mut ends_span = None;
    let mut others_span = None;
    let mut links_span = None;
    let mut targets_span = None;
    let mut spaces_span = None;
    let mut digits_span = None;
    // A word clause given twice is an error at its second place.
    fn once<T>(c: &mut Checker, slot: &mut Option<T>, v: T, sp: Span, what: &str) {
        if slot.is_some() {
            c.err(sp, format!("`{what}` given twice"));
        }
        *slot = Some(v);
    }
    for cl in clauses {
        match &cl.kind {
            ChainKind::Length(e) => {
                length_seen = true;
                if let Some(n) = c.constant(e, "length") {
                    if !(1..=MAX_CHAIN_LENGTH).contains(&n) {
                        c.err(
                            e.span,
                            format!(
                                "a chain length must be between 1 and {MAX_CHAIN_LENGTH}, found {n}"
                            ),
                        );
                    } else {
                        once(&mut c, &mut length, n as usize, cl.span, "length");
                    }
                }
            }
            ChainKind::Spaces(words) => {
                let mut set = [false; 4];
                for w in words {
                    let word = c.param_word(w);
                    match crate::grid::geometry::Space::from_name(&word) {
                        Some(sp) => set[sp as usize] = true,
                        None => c.err(
                            w.span,
                            format!("unknown space `{word}`, expected rc, rn, cn or bn"),
                        ),
                    }
                }
                spaces_span = Some(cl.span);
                once(&mut c, &mut spaces, set, cl.span, "spaces");
            }
            ChainKind::Others(words) => {
                let mut e = Extras::default();
                let mut none = false;
                for w in words {
                    let word = c.param_word(w);
                    match names::CHAIN_OTHERS.get(&word) {
                        Some(Other::None) => none = true,
                        Some(Other::Z) => e.z = true,
                        Some(Other::ZFirst) => {
                            e.z = true;
                            e.z_in_first_only = true;
                        }
                        Some(Other::T) => e.t = true,
                        None => c.err(
                            w.span,
                            format!(
                                "unknown kind of candidate `{word}`, expected {}",
                                names::CHAIN_OTHERS.list()
                            ),
                        ),
                    }
                }
                if none && (e.z || e.t) {
                    c.err(cl.span, "`others none` cannot be joined with z or t");
                }
                others_span = Some(cl.span);
                once(&mut c, &mut extras, e, cl.span, "others");
            }
            ChainKind::Links(w) => {
                let l = c.word_of(w, &names::CHAIN_LINKS, "linking");
                links_span = Some(cl.span);
                if let Some(l) = l {
                    once(&mut c, &mut linking, l, cl.span, "links");
                }
            }
            ChainKind::Targets(w) => {
                let a = c.word_of(w, &names::CHAIN_TARGETS, "targets");
                targets_span = Some(cl.span);
                if let Some(a) = a {
                    once(&mut c, &mut all_targets, a, cl.span, "targets");
                }
            }
            ChainKind::Digits(w) => {
                let a = c.word_of(w, &names::CHAIN_DIGITS, "digits");
                digits_span = Some(cl.span);
                if let Some(a) = a {
                    once(&mut c, &mut one_digit, a, cl.span, "digits");
                }
            }
            ChainKind::Nodes(w) => {
                let g = c.word_of(w, &names::CHAIN_NODES, "nodes");
                nodes_span = Some(cl.span);
                if let Some(g) = g {
                    once(&mut c, &mut groups, g, cl.span, "nodes");
                }
            }
            ChainKind::Ends(w) => {
                ends_seen = true;
                let e = c.word_of(w, &names::CHAIN_ENDS, "ending");
                ends_span = Some(cl.span);
                if let Some(e) = e {
                    once(&mut c, &mut ending, e, cl.span, "ends");
                }
            }
        }
    }
    // Both missing clauses in one message: errors at one place are kept once.
    let missing: Vec<&str> = [(length_seen, "`length`"), (ends_seen, "`ends`")]
        .into_iter()
        .filter(|(seen, _)| !seen)
        .map(|(_, w)| w)
        .collect();
    match missing[..] {
        [] => {}
        [one] => c.err(ast.name_span, format!("missing {one} clause")),
        _ => c.err(ast.name_span, "missing `length` and `ends` clauses"),
    }
    // Groups on both sides, ALS nodes and loops are alternating chains:
    // strong links in variables or sets (no other candidates), weak links
    // to the previous node.
    let nodes = groups.unwrap_or(Nodes::Candidates);
    let alternating = [
        (nodes == Nodes::Groups, nodes_span, "`nodes groups`"),
        (nodes == Nodes::Als, nodes_span, "`nodes als`"),
        (ending == Some(Ending::Loop), ends_span, "`ends loop`"),
        (
            ending == Some(Ending::BackToStart),
            ends_span,
            "`ends back-to-start`",
        ),
    ];
    for (on, span, what) in alternating {
        let Some(span) = span.filter(|_| on) else {
            continue;
        };
        if let (Some(e), Some(sp)) = (extras, others_span)
            && e != Extras::default()
        {
            c.err(sp, format!("{what} needs `others none`: an alternating chain's variables hold its two nodes only"));
        }
        if let (Some(Linking::TargetOrAny), Some(sp)) = (linking, links_span) {
            c.err(
                sp,
                format!("{what} needs `links previous`: each node is linked to the one before it"),
            );
        }
        // `nodes als` has its own message (below): it has no loops.
        if matches!(ending, Some(Ending::Contradiction | Ending::Lasso)) && nodes != Nodes::Als {
            c.err(span, format!("{what} ends linked to its target (`ends linked-to-target`), on itself (`ends loop`) or on its first candidate (`ends back-to-start`)"));
        }
    }
    if let Some(span) = nodes_span.filter(|_| nodes == Nodes::Als) {
        if ending.is_some_and(|e| e != Ending::LinkedToTarget) {
            c.err(span, "`nodes als` ends linked to its target (`ends linked-to-target`): an ALS chain concludes what sees both of its ends (loops of almost locked sets are not searched)");
        }
        if let Some(sp) = spaces_span {
            c.err(sp, "`nodes als` takes no `spaces`: an almost locked set's strong links lie in its cells, not in one CSP variable");
        }
        if let (Some(true), Some(sp)) = (one_digit, digits_span) {
            c.err(sp, "`nodes als` cannot have `digits same`: an almost locked set's strong links join two of its digits");
        }
    }
    if ending == Some(Ending::Loop) {
        if let Some(sp) = targets_span {
            c.err(sp, "`ends loop` has no target: a loop concludes every elimination of its weak links, without a `targets` clause");
        }
        if length == Some(1) {
            c.err(
                ast.name_span,
                "`ends loop` needs a length of 2 or more: a loop has two variables at least",
            );
        }
    }
    if ending == Some(Ending::BackToStart) {
        if let Some(sp) = targets_span {
            c.err(sp, "`ends back-to-start` has no `targets` clause: the chain proves its first candidate, so the cell's other candidates are what it concludes");
        }
        if length == Some(1) {
            c.err(
                ast.name_span,
                "`ends back-to-start` needs a length of 2 or more: a chain from a candidate back to itself has two variables at least",
            );
        }
    }
    if !c.errs.is_empty() {
        return Err(c.errs);
    }
    let extras = extras.unwrap_or_default();
    let ending = ending.unwrap_or(Ending::Contradiction);
    Ok(CheckedChain {
        name,
        complexity: complexity.unwrap_or(0),
        level,
        label,
        spec: ChainSpec {
            length: length.unwrap_or(1),
            spaces: spaces.unwrap_or([true; 4]),
            extras,
            linking: linking.unwrap_or(Linking::Previous),
            ending,
            // Bivalue chains print their last cell whole; the others `{Ln .}`.
            show_last_right: matches!(
                ending,
                Ending::LinkedToTarget | Ending::Loop | Ending::BackToStart
            ) && !extras.z
                && !extras.t,
            groups: matches!(nodes, Nodes::RightGroups | Nodes::Groups),
            left_groups: nodes == Nodes::Groups,
            als_nodes: nodes == Nodes::Als,
            all_targets: all_targets.unwrap_or(false),
            one_digit: one_digit.unwrap_or(false),
        },
    })
}
