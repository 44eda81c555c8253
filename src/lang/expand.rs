//! Family expansion: a rule written `for N in 2..=4, K in [row, column]`
//! stands for one rule per parameter tuple. Expansion checks the family
//! (bounds, tuple arity, parameters bound twice, name holes) and yields the
//! tuples; the checker then sees one concrete rule per tuple.

use super::ast::*;
use std::collections::HashMap;

/// Largest number of instances a family may expand to.
pub const MAX_FAMILY: usize = 256;

/// The values of a rule's family parameters, by name.
pub type Params = HashMap<String, Atom>;
/// Errors found, with their spans.
pub type Errors = Vec<(Span, String)>;

/// Expands a rule's family into its parameter tuples.
pub fn expand(ast: &RuleAst) -> Result<Vec<Params>, Errors> {
    let mut errs = Vec::new();
    let mut instances: Vec<Params> = vec![HashMap::new()];
    let mut names_seen: Vec<String> = Vec::new();
    for b in &ast.family {
        let (names, tuples): (Vec<&Ident>, Vec<Vec<Atom>>) = match b {
            FamBind::Range { name, lo, hi, span } => {
                if lo > hi {
                    errs.push((*span, format!("empty family: {lo} > {hi}")));
                    continue;
                }
                if hi - lo >= MAX_FAMILY as i64 {
                    errs.push((
                        *span,
                        format!(
                            "unbounded family: {} values (at most {MAX_FAMILY})",
                            hi - lo + 1
                        ),
                    ));
                    continue;
                }
                (
                    vec![name],
                    (*lo..=*hi).map(|i| vec![Atom::Int(i)]).collect(),
                )
            }
            FamBind::List { names, tuples, .. } => {
                let mut ok = Vec::new();
                for (t, sp) in tuples {
                    if t.len() != names.len() {
                        errs.push((
                            *sp,
                            format!(
                                "expected a tuple of {} values, found {}",
                                names.len(),
                                t.len()
                            ),
                        ));
                    } else {
                        ok.push(t.clone());
                    }
                }
                (names.iter().collect(), ok)
            }
        };
        for n in &names {
            if names_seen.contains(&n.name) {
                errs.push((
                    n.span,
                    format!("family parameter `{}` is bound twice", n.name),
                ));
            }
            names_seen.push(n.name.clone());
        }
        let mut next = Vec::new();
        for inst in &instances {
            for t in &tuples {
                let mut p = inst.clone();
                for (n, a) in names.iter().zip(t) {
                    p.insert(n.name.clone(), a.clone());
                }
                next.push(p);
            }
        }
        instances = next;
        if instances.len() > MAX_FAMILY {
            errs.push((
                ast.span,
                format!("unbounded family: more than {MAX_FAMILY} rules"),
            ));
            return Err(errs);
        }
    }
    // Holes in the name must be parameters.
    for (hole, sp) in holes(&ast.name, ast.name_span.start) {
        if !names_seen.contains(&hole) {
            errs.push((
                sp,
                format!("`{{{hole}}}` in the rule name is not a family parameter"),
            ));
        }
    }
    if errs.is_empty() {
        Ok(instances)
    } else {
        Err(errs)
    }
}

/// `{NAME}` holes of a template, with their spans.
fn holes(text: &str, base: usize) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut off = 0;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        let name = &rest[i + 1..i + j];
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            out.push((
                name.to_string(),
                Span {
                    start: base + off + i,
                    end: base + off + i + j + 1,
                },
            ));
        }
        off += i + j + 1;
        rest = &rest[i + j + 1..];
    }
    out
}

pub fn substitute(text: &str, params: &Params) -> String {
    let mut s = text.to_string();
    for (k, v) in params {
        s = s.replace(&format!("{{{k}}}"), &v.to_string());
    }
    s
}
