//! Family expansion: a rule written `for N in 2..=4, K in [row, column]`
//! stands for one rule per parameter tuple. Expansion checks the family
//! (bounds, tuple arity, parameters bound twice or named like a reserved
//! word, `{P}` holes of the name and rating) and yields the tuples; the
//! checker then sees one concrete rule per tuple.

use super::ast::*;
use super::names;
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
        let bound: Vec<&Ident> = match b {
            FamBind::Range { name, .. } => vec![name],
            FamBind::List { names, .. } => names.iter().collect(),
        };
        // Names first: they are known even when their values are wrong, so
        // `{N}` holes are not reported as well.
        for n in bound {
            if names::is_reserved(&n.name) {
                errs.push((
                    n.span,
                    format!(
                        "`{}` is a reserved name and cannot be a family parameter",
                        n.name
                    ),
                ));
            }
            if names_seen.contains(&n.name) {
                errs.push((
                    n.span,
                    format!("family parameter `{}` is bound twice", n.name),
                ));
            }
            names_seen.push(n.name.clone());
        }
        let (names, tuples): (Vec<&Ident>, Vec<Vec<Atom>>) = match b {
            FamBind::Range { name, lo, hi, span } => {
                if lo > hi {
                    errs.push((*span, format!("empty family: {lo} > {hi}")));
                    continue;
                }
                // i128: `0..=i64::MAX` has 2^63 values, more than an i64 holds.
                let count = i128::from(*hi) - i128::from(*lo) + 1;
                if count > MAX_FAMILY as i128 {
                    errs.push((
                        *span,
                        format!("unbounded family: {count} values (at most {MAX_FAMILY})"),
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
    // Holes in the name and the rating label must be parameters.
    let mut templates = vec![("rule name", ast.name.as_str(), ast.name_span.start)];
    for h in &ast.head {
        if let HeadKind::Rating(text, sp) = &h.kind {
            templates.push(("rating", text.as_str(), sp.start));
        }
    }
    for (what, text, start) in templates {
        for (hole, sp) in holes(text, start) {
            if names_seen.contains(&hole) {
                continue;
            }
            // A pattern rule's name may take a value its match binds
            // (`asc[{K}]` with `let K = …`): the checker resolves it.
            if what == "rule name" && matches!(ast.body, RuleBody::Pattern(_)) {
                continue;
            }
            let pattern = matches!(ast.body, RuleBody::Pattern(_));
            let kind = match (pattern, what) {
                (true, _) => " (only the rule's name may take a value bound by its match)",
                (false, "rule name") => {
                    " (only a pattern rule's name may take a value bound by its match)"
                }
                _ => "",
            };
            errs.push((
                sp,
                format!("`{{{hole}}}` in the {what} is not a family parameter{kind}"),
            ));
        }
    }
    // Every instance needs a name of its own.
    if errs.is_empty() {
        let mut seen: HashMap<String, &Params> = HashMap::new();
        for p in &instances {
            let name = substitute(&ast.name, p);
            if let Some(first) = seen.get(&name) {
                let differ: Vec<String> = ast
                    .family
                    .iter()
                    .flat_map(|b| match b {
                        FamBind::Range { name, .. } => vec![&name.name],
                        FamBind::List { names, .. } => names.iter().map(|n| &n.name).collect(),
                    })
                    .filter(|n| first.get(*n) != p.get(*n))
                    .map(|n| format!("`{{{n}}}`"))
                    .collect();
                errs.push((
                    ast.name_span,
                    format!(
                        "several rules of the family are named `{name}`: put {} in the name",
                        differ.join(" or ")
                    ),
                ));
                break;
            }
            seen.insert(name, p);
        }
    }
    if errs.is_empty() {
        Ok(instances)
    } else {
        Err(errs)
    }
}

/// `{NAME}` holes of a template, with their spans.
pub(super) fn holes(text: &str, base: usize) -> Vec<(String, Span)> {
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
