//! Rule specs of the study commands: which rules `subsume A B` compares.
//!
//! A spec is one or more parts joined by `+`; each part is, in this order:
//!
//! 1. a **path** (spelled as one: a `/`, an extension `.rules`/`.yaml`/`.yml`,
//!    `.` or `..`): a rule file, folder or set file, loaded as `--rules` loads it;
//! 2. a **built-in set name** (`w`, `bc`, `basic`, …): that set. A set name
//!    wins over a rule or family of the same name (no shipped rule is named
//!    like a set, a test keeps it so; but `z` is the set, not the family
//!    of `z-chain[N]`: write `z-chain` for that, or a family with a range,
//!    `NAME[0..]`, to get the rules of a family named like a set);
//! 3. a **rule name**, exactly (`whip[2]`, `x-wing-in-rows`);
//! 4. a **family with a level range**, `P[..N]`, `P[M..N]` or `P[M..]`: the
//!    members of family `P` (below) whose level is in the range (`whip[..2]`
//!    is whip[1] and whip[2], and the typed whips of length 2);
//! 5. a **family** `P`: every rule whose name is `P`, or begins with `P`
//!    followed by `[` or `-` (`x-wing` is `x-wing-in-rows` and
//!    `x-wing-in-columns`; `whip` is `whip[1]` … `whip[36]` and the typed
//!    whips `whip-rc[N]` …, which are whips too; `whip` never takes a rule
//!    named `whips…` or `whipped`, and `x-wing` never takes
//!    `finned-x-wing-in-rows`).
//!
//! Names and families are looked up among the rules of a *universe*: by
//! default every rule file shipped in `rules/` (built in), or the set that
//! `--from` names. Anything else is an error with the closest name.

use crate::rating::Rating;
use crate::rule::Rule;
use crate::ruleset::source::{self, Location, Target};
use crate::ruleset::{Library, SetError, closest};
use std::sync::Arc;

/// A resolved spec: its rules, simplest first, each once.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The spec as written.
    pub spec: String,
    pub rules: Vec<Arc<Rule>>,
}

impl Resolved {
    /// The rule names, in order.
    pub fn names(&self) -> Vec<&str> {
        self.rules.iter().map(|r| r.head.name.as_str()).collect()
    }
}

/// Why a spec names no rules.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("{0}")]
    Set(#[from] SetError),
    #[error("`{spec}`: no rule, family or rule set of that name{hint}")]
    Unknown { spec: String, hint: String },
    #[error("`{spec}`: {why}")]
    BadRange { spec: String, why: String },
    #[error("`{0}`: empty part: `+` joins two specs")]
    EmptyPart(String),
    #[error("`{spec}`: two different rules are named `{name}` ({first}, {second})")]
    Clash {
        spec: String,
        name: String,
        first: String,
        second: String,
    },
}

/// Every rule of every rule file shipped in `rules/` (the built-in copy):
/// the default universe of names.
pub fn built_in_rules(lib: &mut Library) -> Result<Vec<Arc<Rule>>, SetError> {
    // `..` from a built-in set file is the built-in `rules/` folder: the
    // union of its `.rules` files.
    let all = lib.link("..", &Location::built_in_set("basic"))?;
    Ok(all.rules.clone())
}

/// Whether `name` belongs to family `prefix`: it is `prefix`, or continues
/// it with `[` or `-`.
pub fn in_family(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('[') || rest.starts_with('-'))
}

/// `P[..N]`, `P[M..N]`, `P[M..]`: the family and the level range, when the
/// part is written so.
/// A family and its level bounds (`whip[2..4]`: `whip`, 2, 4).
type Range<'a> = (&'a str, Option<i64>, Option<i64>);

fn range_of(part: &str) -> Option<Result<Range<'_>, String>> {
    let open = part.rfind('[')?;
    let inner = part[open + 1..].strip_suffix(']')?;
    let (lo, hi) = inner.split_once("..")?;
    let num = |s: &str| -> Result<Option<i64>, String> {
        if s.is_empty() {
            return Ok(None);
        }
        s.trim()
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .map(Some)
            .ok_or_else(|| format!("`{s}` is not a level (a whole number, 0 or more)"))
    };
    let prefix = &part[..open];
    Some((|| {
        let (lo, hi) = (num(lo)?, num(hi.strip_prefix('=').unwrap_or(hi))?);
        if prefix.is_empty() {
            return Err("a level range needs a family before it: `whip[..4]`".into());
        }
        if lo.is_none() && hi.is_none() {
            return Err("a level range needs a bound: `[..N]`, `[M..N]` or `[M..]`".into());
        }
        if let (Some(l), Some(h)) = (lo, hi)
            && l > h
        {
            return Err(format!("empty level range {l}..{h}"));
        }
        Ok((prefix, lo, hi))
    })())
}

/// Resolves a spec against the library (paths and sets) and the universe
/// (rule names and families).
pub fn resolve(
    spec: &str,
    lib: &mut Library,
    universe: &[Arc<Rule>],
) -> Result<Resolved, SpecError> {
    let mut rules: Vec<Arc<Rule>> = Vec::new();
    for part in spec.split('+') {
        if part.is_empty() {
            return Err(SpecError::EmptyPart(spec.to_string()));
        }
        let found = part_rules(part, lib, universe)?;
        for r in found {
            match rules.iter().find(|q| q.head.name == r.head.name) {
                Some(q) if Arc::ptr_eq(q, &r) || same_place(q, &r) => {}
                Some(q) => {
                    return Err(SpecError::Clash {
                        spec: spec.to_string(),
                        name: r.head.name.clone(),
                        first: format!("{}:{}", q.head.file, q.head.line),
                        second: format!("{}:{}", r.head.file, r.head.line),
                    });
                }
                None => rules.push(r),
            }
        }
    }
    rules.sort_by_key(|r| r.head.complexity);
    Ok(Resolved {
        spec: spec.to_string(),
        rules,
    })
}

fn same_place(a: &Rule, b: &Rule) -> bool {
    a.head.file == b.head.file && a.head.line == b.head.line && a.head.name == b.head.name
}

fn part_rules(
    part: &str,
    lib: &mut Library,
    universe: &[Arc<Rule>],
) -> Result<Vec<Arc<Rule>>, SpecError> {
    if let Target::Path(_) = source::classify(part) {
        return Ok(lib.load(part)?.rules.clone());
    }
    if lib.built_in_names().iter().any(|n| n == part) {
        return Ok(lib.load(part)?.rules.clone());
    }
    if let Some(r) = universe.iter().find(|r| r.head.name == part) {
        // A range is read only when no rule has the name (`whip[2]` is a rule).
        return Ok(vec![r.clone()]);
    }
    let (prefix, lo, hi) = match range_of(part) {
        Some(Ok(r)) => r,
        Some(Err(why)) => {
            return Err(SpecError::BadRange {
                spec: part.to_string(),
                why,
            });
        }
        None => (part, None, None),
    };
    let members: Vec<Arc<Rule>> = universe
        .iter()
        .filter(|r| in_family(&r.head.name, prefix))
        .filter(|r| lo.is_none_or(|l| r.head.level >= Rating::level(l)))
        .filter(|r| hi.is_none_or(|h| r.head.level <= Rating::level(h)))
        .cloned()
        .collect();
    if !members.is_empty() {
        return Ok(members);
    }
    if universe.iter().any(|r| in_family(&r.head.name, prefix)) {
        return Err(SpecError::BadRange {
            spec: part.to_string(),
            why: format!("no rule of family `{prefix}` has a level in that range"),
        });
    }
    // The closest rule, family (a name's part before `[`) or set name.
    let mut words: Vec<String> = lib.built_in_names();
    for r in universe {
        let n = &r.head.name;
        words.push(n.clone());
        // Its families: every start that ends before a `-` or a `[`.
        for (i, ch) in n.char_indices() {
            if ch == '-' || ch == '[' {
                words.push(n[..i].to_string());
            }
        }
    }
    words.sort();
    words.dedup();
    let hint = closest(prefix, words.iter().map(String::as_str))
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_else(|| {
            "; give a rule name (`rules list --rules SET` lists them), a family such as \
             `whip` or `x-wing`, a built-in set, or a path"
                .to_string()
        });
    Err(SpecError::Unknown {
        spec: part.to_string(),
        hint,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_continue_with_a_bracket_or_a_dash() {
        assert!(in_family("whip[2]", "whip"));
        assert!(in_family("whip", "whip"));
        assert!(in_family("whip-rc[3]", "whip"));
        assert!(in_family("x-wing-in-rows", "x-wing"));
        assert!(!in_family("whips[2]", "whip"));
        assert!(!in_family("finned-x-wing-in-rows", "x-wing"));
        assert!(!in_family("whipped", "whip"));
    }

    #[test]
    fn ranges_are_read_after_the_family() {
        assert_eq!(
            range_of("whip[..4]").unwrap().unwrap(),
            ("whip", None, Some(4))
        );
        assert_eq!(
            range_of("whip[2..=4]").unwrap().unwrap(),
            ("whip", Some(2), Some(4))
        );
        assert_eq!(
            range_of("whip[3..]").unwrap().unwrap(),
            ("whip", Some(3), None)
        );
        assert!(range_of("whip[2]").is_none());
        assert!(range_of("whip[4..2]").unwrap().is_err());
        assert!(range_of("whip[..]").unwrap().is_err());
        assert!(range_of("[..2]").unwrap().is_err());
        assert!(range_of("whip[..x]").unwrap().is_err());
    }

    #[test]
    fn specs_resolve_to_rules() {
        let mut lib = Library::new();
        let uni = built_in_rules(&mut lib).unwrap();
        let xw = resolve("x-wing", &mut lib, &uni).unwrap();
        assert_eq!(xw.names(), ["x-wing-in-rows", "x-wing-in-columns"]);
        let w2 = resolve("whip[..2]", &mut lib, &uni).unwrap();
        assert_eq!(
            w2.names(),
            [
                "whip[1]",
                "whip-rc[2]",
                "whip-rn[2]",
                "whip-cn[2]",
                "whip-bn[2]",
                "whip[2]"
            ]
        );
        let one = resolve("whip[2]+whip[2]", &mut lib, &uni).unwrap();
        assert_eq!(one.names(), ["whip[2]"]);
        let set = resolve("singles", &mut lib, &uni).unwrap();
        assert_eq!(set.rules.len(), 4);
        let e = resolve("x-wnig", &mut lib, &uni).unwrap_err().to_string();
        assert_eq!(
            e,
            "`x-wnig`: no rule, family or rule set of that name; did you mean `x-wing`?"
        );
        let e = resolve("whip[40..]", &mut lib, &uni)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "`whip[40..]`: no rule of family `whip` has a level in that range"
        );
    }

    #[test]
    fn no_shipped_rule_is_named_like_a_built_in_set() {
        let mut lib = Library::new();
        let uni = built_in_rules(&mut lib).unwrap();
        for set in lib.built_in_names() {
            assert!(
                !uni.iter().any(|r| r.head.name == set),
                "set `{set}` hides the rule of that name"
            );
        }
    }
}
