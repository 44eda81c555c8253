//! Rule sets: YAML files naming rule files, limits and rating overrides,
//! loaded from disk or from the copy of `rules/` embedded in the binary.
//!
//! ```yaml
//! name: sfin
//! description: Singles, whips[1], subsets and finned fish up to size 4
//! files: [../singles.rules, ../whips1.rules, ../subsets.rules]
//! max-level: 4          # drop rules of a higher level (e.g. subsets of 5..7)
//! exclude: [xy-wing]    # drop rules by name
//! ratings:              # override a rule's rating label / level
//!   whip[1]: { rating: W1, level: 1 }
//! blocked: true         # all conclusions of a match in one step (default)
//! ```
//! Rule files are resolved relative to the YAML file. Rules are ordered by
//! complexity, ties keeping file order (SudoRules: simplest first).

use crate::lang::{Diagnostic, compile_source};
use crate::rating::Rating;
use crate::rule::Rule;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_rules.rs"));
}

/// The rule set used when `--rules` is absent.
pub const DEFAULT_SET: &str = "basic";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct SetFile {
    name: Option<String>,
    description: Option<String>,
    files: Vec<String>,
    max_level: Option<i64>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    ratings: BTreeMap<String, RatingOverride>,
    blocked: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RatingOverride {
    rating: Option<String>,
    level: Option<i64>,
}

/// A loaded, compiled rule set.
#[derive(Clone, Debug)]
pub struct RuleSet {
    pub name: String,
    pub description: String,
    /// The rules, simplest first (by complexity; ties keep file order).
    pub rules: Vec<Arc<Rule>>,
    pub blocked: bool,
}

/// Why a rule set could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}: invalid rule set: {1}")]
    Yaml(String, String),
    #[error("unknown rule set `{0}` (known: {1})")]
    Unknown(String, String),
    #[error("{}", render_diags(.0))]
    Rules(Vec<Diagnostic>),
    #[error("{0}: rule `{1}` is defined twice (also in {2})")]
    Duplicate(String, String, String),
}

fn render_diags(d: &[Diagnostic]) -> String {
    crate::lang::Diagnostics(d.to_vec()).to_string()
}

/// Where rule and set files are read from.
#[derive(Clone, Copy, Debug)]
enum Source {
    Disk,
    Embedded,
}

fn read(src: Source, path: &Path) -> Result<String, SetError> {
    match src {
        Source::Disk => {
            std::fs::read_to_string(path).map_err(|e| SetError::Io(path.display().to_string(), e))
        }
        Source::Embedded => {
            let key = normalize(path);
            embedded::EMBEDDED
                .iter()
                .find(|(p, _)| *p == key)
                .map(|(_, t)| t.to_string())
                .ok_or_else(|| {
                    SetError::Io(
                        format!("<embedded>/{key}"),
                        std::io::Error::new(std::io::ErrorKind::NotFound, "no such embedded file"),
                    )
                })
        }
    }
}

/// Resolves `.` and `..` in a relative path (for embedded look-ups).
fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
            _ => {}
        }
    }
    parts.join("/")
}

/// Names of the embedded rule sets (file stems under `rules/sets/`).
pub fn embedded_set_names() -> Vec<String> {
    embedded::EMBEDDED
        .iter()
        .filter_map(|(p, _)| {
            p.strip_prefix("sets/")?
                .strip_suffix(".yaml")
                .map(str::to_string)
        })
        .collect()
}

/// Loads a rule set by name (an embedded set) or by path (a `.yaml` set
/// file, or a single `.rules` file, or a folder of `.rules` files).
pub fn load(spec: &str) -> Result<RuleSet, SetError> {
    let path = Path::new(spec);
    if path.exists() {
        // A folder of .rules files or a single .rules file is a set of its own.
        let files: Vec<PathBuf> = if path.is_dir() {
            let mut files: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| SetError::Io(spec.to_string(), e))?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "rules"))
                .collect();
            files.sort();
            files
        } else if path.extension().is_some_and(|e| e == "rules") {
            vec![path.to_path_buf()]
        } else {
            return load_yaml(Source::Disk, path);
        };
        let name = std::fs::canonicalize(path)
            .ok()
            .and_then(|p| p.file_stem().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| spec.to_string());
        let description = format!("the rules of {spec}");
        return build(
            Source::Disk,
            &name,
            &description,
            &files,
            None,
            &[],
            &BTreeMap::new(),
            true,
        );
    }
    let looks_like_path = spec.contains('/')
        || spec.contains('\\')
        || spec.ends_with(".yaml")
        || spec.ends_with(".rules");
    if looks_like_path {
        return Err(SetError::Io(
            spec.to_string(),
            std::io::Error::new(std::io::ErrorKind::NotFound, "no such file or directory"),
        ));
    }
    if embedded_set_names().iter().any(|n| n == spec) {
        return load_yaml(
            Source::Embedded,
            &PathBuf::from(format!("sets/{spec}.yaml")),
        );
    }
    Err(SetError::Unknown(
        spec.to_string(),
        embedded_set_names().join(", "),
    ))
}

fn load_yaml(src: Source, path: &Path) -> Result<RuleSet, SetError> {
    let text = read(src, path)?;
    let shown = match src {
        Source::Disk => path.display().to_string(),
        Source::Embedded => format!("<embedded>/{}", normalize(path)),
    };
    let set: SetFile =
        serde_yaml::from_str(&text).map_err(|e| SetError::Yaml(shown.clone(), e.to_string()))?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let files: Vec<PathBuf> = set.files.iter().map(|f| dir.join(f)).collect();
    let name = set.name.clone().unwrap_or_else(|| {
        path.file_stem()
            .map_or("rules".into(), |s| s.to_string_lossy().into_owned())
    });
    let mut rs = build(
        src,
        &name,
        set.description.as_deref().unwrap_or(""),
        &files,
        set.max_level,
        &set.exclude,
        &set.ratings,
        set.blocked.unwrap_or(true),
    )?;
    rs.name = name;
    Ok(rs)
}

#[allow(clippy::too_many_arguments)]
fn build(
    src: Source,
    name: &str,
    description: &str,
    files: &[PathBuf],
    max_level: Option<i64>,
    exclude: &[String],
    ratings: &BTreeMap<String, RatingOverride>,
    blocked: bool,
) -> Result<RuleSet, SetError> {
    let mut rules: Vec<Rule> = Vec::new();
    let mut diags = Vec::new();
    for f in files {
        let text = read(src, f)?;
        let shown = match src {
            Source::Disk => f.display().to_string(),
            Source::Embedded => format!("rules/{}", normalize(f)),
        };
        match compile_source(&shown, &text) {
            Ok(rs) => {
                for r in rs {
                    if let Some(prev) = rules.iter().find(|p| p.head.name == r.head.name) {
                        return Err(SetError::Duplicate(
                            shown,
                            r.head.name,
                            prev.head.file.clone(),
                        ));
                    }
                    rules.push(r);
                }
            }
            Err(d) => diags.extend(d),
        }
    }
    if !diags.is_empty() {
        crate::lang::diag::sort(&mut diags);
        return Err(SetError::Rules(diags));
    }
    rules.retain(|r| {
        max_level.is_none_or(|m| r.head.level <= Rating::level(m))
            && !exclude.contains(&r.head.name)
    });
    for r in &mut rules {
        if let Some(o) = ratings.get(&r.head.name) {
            if let Some(t) = &o.rating {
                r.head.label = Some(t.clone());
            }
            if let Some(l) = o.level {
                r.head.level = Rating::level(l);
            }
        }
    }
    rules.sort_by_key(|r| r.head.complexity);
    Ok(RuleSet {
        name: name.to_string(),
        description: description.to_string(),
        rules: rules.into_iter().map(Arc::new).collect(),
        blocked,
    })
}
