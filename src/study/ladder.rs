//! Ladders: rule sets of growing power, the rungs `classify --ladder` climbs.
//!
//! A ladder is a YAML file. The built-in ladders are `rules/ladders/*.yaml`
//! (embedded in the binary with the rule sets: `w`, `l`, `m`); a spec
//! spelled as a path (`./my-ladder.yaml`) is read from disk. A ladder lists
//! its rungs explicitly:
//!
//! ```yaml
//! name: my-ladder
//! description: singles, then basic, then basic and whips
//! rungs:
//!   - { name: S, rules: singles }
//!   - { name: B, rules: basic }
//!   - { name: BW4, rules: basic+w, max-level: 4 }
//! ```
//!
//! or as levels, each rung `NAME` + `n` being every rule of `base` and the
//! rules of `capped` whose level is at most `n`:
//!
//! ```yaml
//! name: L
//! levels: { from: 1, to: 12 }
//! base: [sets/basic-rules.yaml]
//! capped: [../typed-chains.rules]
//! ```
//!
//! `rules`, `base` and `capped` entries are rule-set specs (a built-in set
//! name, or a path relative to the ladder file's folder; `+` joins specs),
//! resolved as a set file's `files:` entries are. A rung's rules are run
//! simplest first, as in any set.

use crate::rating::Rating;
use crate::rule::Rule;
use crate::ruleset::source::{self, EMBEDDED, Location, Target};
use crate::ruleset::{Library, RuleSet, closest};
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Arc;

/// The most rungs a ladder may have.
pub const MAX_RUNGS: usize = 256;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LadderFile {
    name: Option<String>,
    description: Option<String>,
    rungs: Option<Vec<RungFile>>,
    levels: Option<Levels>,
    base: Option<Vec<String>>,
    capped: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RungFile {
    name: String,
    rules: String,
    #[serde(rename = "max-level")]
    max_level: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Levels {
    from: i64,
    to: i64,
}

/// One rung: a name, its level when the ladder is written by levels, and
/// its rules.
#[derive(Clone, Debug)]
pub struct Rung {
    pub name: String,
    pub level: Option<i64>,
    pub set: RuleSet,
}

/// A loaded ladder.
#[derive(Clone, Debug)]
pub struct Ladder {
    pub name: String,
    pub description: String,
    pub rungs: Vec<Rung>,
}

/// The names of the built-in ladders (`rules/ladders/NAME.yaml`), sorted.
pub fn built_in_names() -> Vec<String> {
    let mut v: Vec<String> = EMBEDDED
        .iter()
        .filter_map(|(p, _)| {
            p.strip_prefix("ladders/")?
                .strip_suffix(".yaml")
                .filter(|n| !n.contains('/'))
                .map(str::to_string)
        })
        .collect();
    v.sort();
    v
}

fn err(what: &str, msg: impl std::fmt::Display) -> String {
    format!("ladder {what}: {msg}")
}

/// Loads a ladder: a built-in name or a path (as rule-set specs are told
/// apart, by spelling).
pub fn load(spec: &str, lib: &mut Library) -> Result<Ladder, String> {
    if spec.is_empty() {
        return Err(
            "the ladder is empty: give a built-in ladder (w, l, m, …) or a ladder file".into(),
        );
    }
    let (loc, text) = match source::classify(spec) {
        Target::Path(p) => {
            // At most 2 MiB, read while it comes (a pipe, `/dev/zero`).
            let bytes = source::read_capped(std::path::Path::new(p)).map_err(|e| err(spec, e))?;
            let text = String::from_utf8(bytes).map_err(|_| err(spec, "not UTF-8 text"))?;
            (Location::Disk(PathBuf::from(p)), text)
        }
        Target::BuiltIn(name) => {
            let key = format!("ladders/{name}.yaml");
            match EMBEDDED.iter().find(|(p, _)| *p == key) {
                Some((_, t)) => (Location::BuiltIn(key), t.to_string()),
                None => {
                    let known = built_in_names();
                    let hint = closest(name, known.iter().map(String::as_str))
                        .map(|c| format!("; did you mean `{c}`?"))
                        .unwrap_or_default();
                    return Err(format!(
                        "unknown ladder `{name}` (built-in ladders: {}){hint}",
                        known.join(", ")
                    ));
                }
            }
        }
    };
    parse(&text, &loc, lib)
}

/// A ladder from its YAML text, its entries resolved from `loc`'s folder.
pub fn parse(text: &str, loc: &Location, lib: &mut Library) -> Result<Ladder, String> {
    let what = loc.display();
    let f: LadderFile = serde_yaml::from_str(text).map_err(|e| err(&what, e))?;
    let name = f.name.clone().unwrap_or_else(|| loc.stem());
    let description = f.description.clone().unwrap_or_default();
    let mut rungs = Vec::new();
    match (&f.rungs, &f.levels) {
        (Some(_), Some(_)) => return Err(err(&what, "give `rungs:` or `levels:`, not both")),
        (None, None) => return Err(err(&what, "no rungs: give `rungs:` or `levels:`")),
        (Some(list), None) => {
            if f.base.is_some() || f.capped.is_some() {
                return Err(err(&what, "`base:` and `capped:` go with `levels:`"));
            }
            for r in list {
                let mut rules = union(&what, lib, loc, &[r.rules.as_str()])?;
                if let Some(m) = r.max_level {
                    if m < 0 {
                        return Err(err(&what, format!("rung {}: negative max-level", r.name)));
                    }
                    rules.retain(|x| x.head.level <= Rating::level(m));
                }
                rungs.push(rung(&what, &r.name, None, rules)?);
            }
        }
        (None, Some(lv)) => {
            if lv.from < 0 || lv.to < lv.from {
                return Err(err(&what, format!("bad levels {}..{}", lv.from, lv.to)));
            }
            if (lv.to - lv.from) as usize >= MAX_RUNGS {
                return Err(err(&what, format!("more than {MAX_RUNGS} rungs")));
            }
            let specs = |v: &Option<Vec<String>>| -> Vec<String> { v.clone().unwrap_or_default() };
            let base_specs = specs(&f.base);
            let capped_specs = specs(&f.capped);
            if capped_specs.is_empty() {
                return Err(err(&what, "`levels:` needs `capped:` rule sets"));
            }
            let base = union(&what, lib, loc, &strs(&base_specs))?;
            let capped = union(&what, lib, loc, &strs(&capped_specs))?;
            for n in lv.from..=lv.to {
                let mut rules = base.clone();
                rules.extend(
                    capped
                        .iter()
                        .filter(|r| r.head.level <= Rating::level(n))
                        .cloned(),
                );
                let rules = dedup(&what, rules)?;
                rungs.push(rung(&what, &format!("{name}{n}"), Some(n), rules)?);
            }
        }
    }
    if rungs.is_empty() {
        return Err(err(&what, "no rungs"));
    }
    if rungs.len() > MAX_RUNGS {
        return Err(err(&what, format!("more than {MAX_RUNGS} rungs")));
    }
    Ok(Ladder {
        name,
        description,
        rungs,
    })
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn rung(
    what: &str,
    name: &str,
    level: Option<i64>,
    mut rules: Vec<Arc<Rule>>,
) -> Result<Rung, String> {
    if rules.is_empty() {
        return Err(err(what, format!("rung {name} has no rule")));
    }
    rules.sort_by_key(|r| r.head.complexity);
    // Rules over other types' spaces (`dn`, `an`, …) are kept apart: classic
    // runs never read them, `typed::compile` merges them in.
    let (foreign, rules): (Vec<_>, Vec<_>) =
        rules.into_iter().partition(|r| r.head.space.is_some());
    Ok(Rung {
        name: name.to_string(),
        level,
        set: RuleSet {
            name: name.to_string(),
            description: String::new(),
            rules,
            foreign,
            blocked: true,
            warnings: Vec::new(),
            strategy: Default::default(),
            assumes_unique: false,
            rating_type: None,
        },
    })
}

/// The rules of several specs (each maybe `A+B`), resolved from `loc`.
fn union(
    what: &str,
    lib: &mut Library,
    loc: &Location,
    specs: &[&str],
) -> Result<Vec<Arc<Rule>>, String> {
    let mut rules = Vec::new();
    for spec in specs {
        for part in spec.split('+') {
            if part.is_empty() {
                return Err(err(what, format!("`{spec}`: empty part")));
            }
            let set = lib.link(part, loc).map_err(|e| err(what, e))?;
            // The rules over other types' spaces too: a rung keeps them
            // apart, as a set does (`RuleSet::foreign`).
            rules.extend(set.rules.iter().chain(&set.foreign).cloned());
        }
    }
    dedup(what, rules)
}

/// Each rule once (the same rule reached twice), and no two rules of one name.
fn dedup(what: &str, rules: Vec<Arc<Rule>>) -> Result<Vec<Arc<Rule>>, String> {
    let mut out: Vec<Arc<Rule>> = Vec::with_capacity(rules.len());
    for r in rules {
        match out.iter().find(|q| q.head.name == r.head.name) {
            None => out.push(r),
            Some(q)
                if Arc::ptr_eq(q, &r)
                    || (q.head.file == r.head.file && q.head.line == r.head.line) => {}
            Some(q) => {
                return Err(err(
                    what,
                    format!(
                        "two rules named `{}` ({}:{}, {}:{})",
                        r.head.name, q.head.file, q.head.line, r.head.file, r.head.line
                    ),
                ));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_ladders_load() {
        assert_eq!(built_in_names(), ["l", "m", "n", "te", "w"]);
        let mut lib = Library::new();
        let w = load("w", &mut lib).unwrap();
        assert_eq!(w.rungs.len(), 37);
        assert_eq!(w.rungs[0].name, "W0");
        assert_eq!(w.rungs[0].set.rules.len(), 4);
        assert_eq!(w.rungs[2].set.rules.len(), 6);
        assert_eq!(w.rungs[36].set.rules.len(), 4 + 36);
        let l = load("l", &mut lib).unwrap();
        let m = load("m", &mut lib).unwrap();
        // Basic rules: 4 singles, whip[1], 3 × 3 naked and hidden subsets
        // (2..=4), 3 × 2 fish (2..=4), 2 wings.
        assert_eq!(l.rungs[0].set.rules.len(), 4 + 1 + 18 + 6 + 2);
        // L2 adds the four typed families of length 2 in four spaces and
        // the x-chain of length 2.
        assert_eq!(l.rungs[1].set.rules.len(), 31 + 16 + 1);
        // M2 adds bivalue chains, z-chains, t-whips and whips of length 2.
        assert_eq!(m.rungs[1].set.rules.len(), 31 + 17 + 4);
        // N2 adds the t-lasso and the nrczt-lasso of length 2.
        let n = load("n", &mut lib).unwrap();
        assert_eq!(n.rungs[1].set.rules.len(), 31 + 17 + 4 + 2);
    }

    #[test]
    fn bad_ladders_are_refused_with_a_reason() {
        let mut lib = Library::new();
        let e = load("ww", &mut lib).unwrap_err();
        assert_eq!(
            e,
            "unknown ladder `ww` (built-in ladders: l, m, n, te, w); did you mean `w`?"
        );
        let here = Location::Disk(PathBuf::from("x.yaml"));
        let bad = |t: &str, lib: &mut Library| parse(t, &here, lib).unwrap_err();
        assert_eq!(
            bad("name: x\n", &mut lib),
            "ladder x.yaml: no rungs: give `rungs:` or `levels:`"
        );
        assert_eq!(
            bad("levels: {from: 3, to: 1}\ncapped: [w]\n", &mut lib),
            "ladder x.yaml: bad levels 3..1"
        );
        assert!(
            bad("rungs: [{name: a, rules: nosuchset}]\n", &mut lib)
                .starts_with("ladder x.yaml: unknown rule set `nosuchset`")
        );
        assert!(bad("rungs: []\nbase: [w]\n", &mut lib).contains("go with `levels:`"));
        assert!(bad("rugns: []\n", &mut lib).contains("unknown field `rugns`"));
        let ok = parse(
            "rungs: [{name: S, rules: singles}, {name: W2, rules: w, max-level: 2}]\n",
            &here,
            &mut lib,
        )
        .unwrap();
        assert_eq!(ok.name, "x");
        assert_eq!(ok.rungs[1].set.rules.len(), 6);
    }
}
