//! Set files: their YAML fields, read and checked before anything they
//! name is loaded.
//!
//! ```yaml
//! name: my-set                 # shown in paths and `rules list` (default: the file's stem)
//! description: what it holds
//! files:                       # what the set includes, in order
//!   - basic                    #   a built-in set, by name
//!   - ./other.yaml             #   another set file
//!   - my-rules/                #   a folder of .rules files
//!   - ../x-wing.rules          #   a rule file
//! max-level: 4                 # drop rules of a higher level
//! exclude: [xy-wing]           # drop rules by name
//! ratings:                     # a rule's rating label and/or level
//!   whip[1]: { rating: W1, level: 1 }
//! rating-type: gW              # a run rated n >= 1 reads gW[n], whatever its hardest rule
//! blocked: true                # all conclusions of a match in one step
//! strategy: first-producer     # rules in listed order, SE's ratings (default: simplest-first)
//! assumes-unique: true         # some rules hold only if the puzzle has one solution
//! ```

use super::{SetError, closest};
use serde::Deserialize;
use serde_yaml::Value;
use std::collections::BTreeMap;

/// The keys a set file may have.
const KEYS: [&str; 10] = [
    "name",
    "description",
    "files",
    "max-level",
    "exclude",
    "ratings",
    "rating-type",
    "blocked",
    "strategy",
    "assumes-unique",
];

/// A set file's fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct SetFile {
    pub name: Option<String>,
    pub description: Option<String>,
    pub files: Vec<String>,
    pub max_level: Option<i64>,
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub ratings: BTreeMap<String, RatingOverride>,
    /// The name of the set's ratings (SudoRules' rating type: `W`, `B`,
    /// `gW`, `gB`): a run of level `n` ≥ 1 is rated `TYPE[n]`.
    pub rating_type: Option<String>,
    pub blocked: Option<bool>,
    pub strategy: Option<Strategy>,
    pub assumes_unique: Option<bool>,
}

/// How the engine picks a step and how a run is rated
/// ([`crate::ruleset::RuleSet::strategy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// SudoRules: rules ordered by complexity; the run is rated by its most
    /// complex step.
    #[default]
    SimplestFirst,
    /// Sudoku Explainer: rules in the order the set lists them (each
    /// included file or set keeping its own order); at every step the first
    /// match of the first rule that has one is applied; the run is rated
    /// ER/EP/ED from the steps' levels.
    FirstProducer,
}

/// A set's change to one rule's rating.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RatingOverride {
    pub rating: Option<String>,
    pub level: Option<i64>,
}

fn invalid(file: &str, message: impl Into<String>) -> SetError {
    SetError::Yaml(file.to_string(), message.into())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "nothing",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a map",
        Value::Tagged(_) => "a tagged value",
    }
}

/// Parses and checks a set file's text (`file` names it in messages).
pub(crate) fn parse(file: &str, text: &str) -> Result<SetFile, SetError> {
    let value: Value = serde_yaml::from_str(text).map_err(|e| invalid(file, e.to_string()))?;
    let map = match &value {
        Value::Mapping(m) => m,
        Value::Null => {
            return Err(invalid(
                file,
                "the file is empty: a rule set file is a map with at least a `files:` list",
            ));
        }
        Value::Sequence(_) => {
            return Err(invalid(
                file,
                "a rule set file is a map (`files:`, `name:`, …), not a list: \
                 put the list under `files:`",
            ));
        }
        other => {
            return Err(invalid(
                file,
                format!(
                    "a rule set file is a map (`files:`, `name:`, …), not {}",
                    kind(other)
                ),
            ));
        }
    };
    for key in map.keys() {
        let Some(key) = key.as_str() else {
            return Err(invalid(file, format!("a key is {}, not a name", kind(key))));
        };
        if !KEYS.contains(&key) {
            let hint = closest(key, KEYS.iter().copied())
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(invalid(
                file,
                format!(
                    "unknown key `{key}`{hint}; a set file's keys are {}",
                    KEYS.join(", ")
                ),
            ));
        }
    }
    match map.get("files") {
        None => {
            return Err(invalid(
                file,
                "no `files:` list: a set must include something",
            ));
        }
        Some(Value::Null) => {
            return Err(SetError::Empty {
                what: file.to_string(),
                why: "`files:` lists nothing".into(),
            });
        }
        Some(Value::Sequence(entries)) => {
            for (i, e) in entries.iter().enumerate() {
                let bad = match e {
                    Value::Null => Some("is empty"),
                    Value::String(s) if s.trim().is_empty() => Some("is empty"),
                    Value::Sequence(_) | Value::Mapping(_) | Value::Tagged(_) => {
                        Some("is not a name or a path")
                    }
                    _ => None,
                };
                if let Some(bad) = bad {
                    return Err(invalid(file, format!("`files:` entry {} {bad}", i + 1)));
                }
            }
        }
        Some(_) => {}
    }
    let set: SetFile = serde_yaml::from_str(text).map_err(|e| invalid(file, e.to_string()))?;
    if set.files.is_empty() {
        return Err(SetError::Empty {
            what: file.to_string(),
            why: "`files:` lists nothing".into(),
        });
    }
    if let Some(m) = set.max_level
        && m < 0
    {
        return Err(invalid(file, format!("`max-level: {m}` is negative")));
    }
    if set.name.as_deref().is_some_and(|n| n.trim().is_empty()) {
        return Err(invalid(file, "`name:` is empty"));
    }
    if set
        .rating_type
        .as_deref()
        .is_some_and(|t| t.trim().is_empty())
    {
        return Err(invalid(file, "`rating-type:` is empty"));
    }
    for (rule, o) in &set.ratings {
        if let Some(l) = o.level
            && l < 0
        {
            return Err(invalid(
                file,
                format!("`ratings:` gives `{rule}` a negative level ({l})"),
            ));
        }
        if o.rating.as_deref().is_some_and(|r| r.trim().is_empty()) {
            return Err(invalid(
                file,
                format!("`ratings:` gives `{rule}` an empty rating"),
            ));
        }
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse("s.yaml", text).unwrap_err().to_string()
    }

    #[test]
    fn strategy_and_uniqueness_fields() {
        let s = parse(
            "s.yaml",
            "files: [a]\nstrategy: first-producer\nassumes-unique: true\n",
        )
        .unwrap();
        assert_eq!(s.strategy, Some(Strategy::FirstProducer));
        assert_eq!(s.assumes_unique, Some(true));
        let e = parse("s.yaml", "files: [a]\nstrategy: fastest\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("s.yaml: invalid rule set: strategy: unknown variant `fastest`, expected `simplest-first` or `first-producer`"),
            "{e}"
        );
    }

    #[test]
    fn odd_set_files_get_clear_errors() {
        assert_eq!(
            err(""),
            "s.yaml: invalid rule set: the file is empty: a rule set file is a map with at least a `files:` list"
        );
        assert_eq!(err("# only a comment\n"), err(""));
        assert_eq!(
            err("- singles.rules\n- whips1.rules\n"),
            "s.yaml: invalid rule set: a rule set file is a map (`files:`, `name:`, …), not a list: put the list under `files:`"
        );
        assert_eq!(
            err("just words\n"),
            "s.yaml: invalid rule set: a rule set file is a map (`files:`, `name:`, …), not a string"
        );
        assert_eq!(
            err("files: [a.rules]\nexclued: [x]\n"),
            "s.yaml: invalid rule set: unknown key `exclued` (did you mean `exclude`?); a set file's keys are name, description, files, max-level, exclude, ratings, rating-type, blocked, strategy, assumes-unique"
        );
        assert_eq!(
            err("name: x\n"),
            "s.yaml: invalid rule set: no `files:` list: a set must include something"
        );
        assert_eq!(
            err("files:\n"),
            "s.yaml: empty rule set: `files:` lists nothing"
        );
        assert_eq!(err("files: []\n"), err("files:\n"));
        assert_eq!(
            err("files:\n  - a.rules\n  - ~\n"),
            "s.yaml: invalid rule set: `files:` entry 2 is empty"
        );
        assert_eq!(
            err("files:\n  - {a: b}\n"),
            "s.yaml: invalid rule set: `files:` entry 1 is not a name or a path"
        );
        assert_eq!(
            err("files: basic\n"),
            "s.yaml: invalid rule set: files: invalid type: string \"basic\", expected a sequence at line 1 column 8"
        );
        assert_eq!(
            err("files: [a.rules]\nmax-level: -1\n"),
            "s.yaml: invalid rule set: `max-level: -1` is negative"
        );
        assert_eq!(
            err("files: [a.rules]\nratings:\n  x: { level: -2 }\n"),
            "s.yaml: invalid rule set: `ratings:` gives `x` a negative level (-2)"
        );
        assert_eq!(
            err("files: [a.rules]\nratings:\n  x: { rating: '' }\n"),
            "s.yaml: invalid rule set: `ratings:` gives `x` an empty rating"
        );
        assert_eq!(
            err("name: ''\nfiles: [a.rules]\n"),
            "s.yaml: invalid rule set: `name:` is empty"
        );
        assert_eq!(
            err("files: [a.rules]\nrating-type: ' '\n"),
            "s.yaml: invalid rule set: `rating-type:` is empty"
        );
        assert_eq!(
            err("files: [a.rules]\nrating-type: [gW]\n"),
            "s.yaml: invalid rule set: rating-type: invalid type: sequence, expected a string at line 2 column 14"
        );
        assert_eq!(
            err("files: [a.rules]\nratings:\n  x: { lvl: 2 }\n"),
            "s.yaml: invalid rule set: ratings.x: unknown field `lvl`, expected `rating` or `level` at line 3 column 8"
        );
    }

    #[test]
    fn a_full_set_file_parses() {
        let s = parse(
            "s.yaml",
            "name: n\ndescription: d\nfiles: [basic, ./x.rules]\nmax-level: 3\n\
             exclude: [a]\nratings:\n  b: { rating: B, level: 2 }\nrating-type: gW\nblocked: false\n",
        )
        .unwrap();
        assert_eq!(s.rating_type.as_deref(), Some("gW"));
        assert_eq!(s.files, ["basic", "./x.rules"]);
        assert_eq!(s.max_level, Some(3));
        assert_eq!(s.exclude, ["a"]);
        assert_eq!(s.ratings["b"].level, Some(2));
        assert_eq!(s.blocked, Some(false));
    }
}
