//! The linker: resolves set names and paths, loads each rule file, folder
//! and set once, and joins what sets include into one ordered rule set.
//!
//! Every location is loaded once per [`Library`] by its identity (its
//! canonical path, or its built-in path), so a file reached through two
//! sets is compiled once and its rules are counted once. Loading follows
//! includes depth first; a location met again while it is still being
//! loaded is an include cycle.

use super::setfile::{self, SetFile};
use super::source::{self, BuiltInTable, BuiltIns, EMBEDDED, Id, Location, Opened, Target};
use super::{RuleSet, SetError, Strategy, UnknownRule, closest};
use crate::lang::{Diagnostic, compile_source_with_warnings};
use crate::rating::Rating;
use crate::rule::Rule;
use std::collections::{BTreeSet, HashMap};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How deeply sets may include sets (a longer chain is surely a mistake,
/// and each level takes stack).
pub const MAX_DEPTH: usize = 64;

/// A loaded location: its rules (simplest first) and where each was
/// written.
struct Linked {
    set: Arc<RuleSet>,
    /// The identity of the file each rule of `set.rules` comes from.
    origins: Vec<Id>,
    /// The same for `set.foreign`.
    foreign_origins: Vec<Id>,
    /// Every rule name defined by the files reached, before any set's
    /// `max-level` or `exclude` (what `exclude:` and `ratings:` may name).
    known: BTreeSet<String>,
}

/// Rules being joined, each with the identity of its file.
type Members = Vec<(Arc<Rule>, Id)>;

/// A set's settings besides its rules.
#[derive(Clone)]
struct Flags {
    blocked: bool,
    strategy: Strategy,
    assumes_unique: bool,
    /// A set file's `rating-type:` (never inherited: a set that includes
    /// it, or a union, names its ratings by their hardest steps).
    rating_type: Option<String>,
}

impl Flags {
    /// What a union of `parts` gets when it says nothing itself: blocked;
    /// first-producer if a part is (so `se+more.rules` appends to SE's
    /// order); assuming a unique solution if a part does.
    fn inherited(parts: &[Arc<Linked>]) -> Flags {
        Flags {
            blocked: true,
            strategy: if parts
                .iter()
                .any(|p| p.set.strategy == Strategy::FirstProducer)
            {
                Strategy::FirstProducer
            } else {
                Strategy::SimplestFirst
            },
            assumes_unique: parts.iter().any(|p| p.set.assumes_unique),
            rating_type: None,
        }
    }

    /// A rule file's or folder's own settings.
    const PLAIN: Flags = Flags {
        blocked: true,
        strategy: Strategy::SimplestFirst,
        assumes_unique: false,
        rating_type: None,
    };
}

impl Linked {
    /// Orders `members` simplest first (ties keep their order), unless the
    /// strategy is first-producer (listed order kept), and wraps them as a
    /// set.
    fn new(
        name: String,
        description: String,
        flags: Flags,
        mut members: Members,
        known: BTreeSet<String>,
        warnings: Vec<Diagnostic>,
    ) -> Linked {
        if flags.strategy == Strategy::SimplestFirst {
            members.sort_by_key(|(r, _)| r.head.complexity);
        }
        let (foreign, members): (Members, Members) = members
            .into_iter()
            .partition(|(r, _)| r.head.space.is_some());
        let (rules, origins) = members.into_iter().unzip();
        let (foreign, foreign_origins) = foreign.into_iter().unzip();
        Linked {
            set: Arc::new(RuleSet {
                name,
                description,
                rules,
                foreign,
                blocked: flags.blocked,
                strategy: flags.strategy,
                assumes_unique: flags.assumes_unique,
                rating_type: flags.rating_type,
                warnings,
            }),
            origins,
            foreign_origins,
            known,
        }
    }

    /// Every rule with its file, classic ones first.
    fn members(&self) -> impl Iterator<Item = (&Arc<Rule>, &Id)> {
        self.set
            .rules
            .iter()
            .zip(&self.origins)
            .chain(self.set.foreign.iter().zip(&self.foreign_origins))
    }
}

/// Loads and links rule sets.
///
/// A spec names a built-in set (`basic`) or a path (`./my.yaml`,
/// `rules/`, `x.rules`); see [`ruleset`](super) for the rule. A set file's
/// `files:` entries are specs resolved from the set file's folder, so sets
/// include sets, folders and rule files. Each location is loaded once and
/// shared ([`Arc<RuleSet>`]); asking again for a loaded set costs a look-up.
///
/// A searcher that runs another set (a trial rule's `propagate with
/// singles`) asks [`link`](Library::link) for it by name, from the file it
/// is written in, when its set is loaded.
///
/// ```
/// use ruledoku::ruleset::Library;
/// let mut lib = Library::new();
/// let sfin = lib.load("sfin").unwrap();
/// let both = lib.load("singles+sfin").unwrap();
/// assert_eq!(both.rules.len(), sfin.rules.len()); // singles are in sfin
/// ```
pub struct Library {
    built_ins: BuiltIns,
    loaded: HashMap<Id, Arc<Linked>>,
    /// The locations being loaded, outermost first (their identity and how
    /// to name them in a cycle).
    stack: Vec<(Id, String)>,
}

impl Default for Library {
    fn default() -> Library {
        Library::new()
    }
}

/// A set file entry being loaded: the set file and the entry as written
/// (for naming it in a message).
type Within<'a> = Option<(&'a str, &'a str)>;

fn in_entry(within: Within, error: SetError) -> SetError {
    match within {
        Some((set, entry)) => SetError::Entry {
            set: set.to_string(),
            entry: entry.to_string(),
            error: Box::new(error),
        },
        None => error,
    }
}

/// Collects the rule-file diagnostics of several loads, so that one run
/// reports every broken file; any other error stops at once.
#[derive(Default)]
struct Diags(Vec<crate::lang::Diagnostic>);

impl Diags {
    fn take<T>(&mut self, r: Result<T, SetError>) -> Result<Option<T>, SetError> {
        match r {
            Ok(t) => Ok(Some(t)),
            Err(SetError::Rules(d)) => {
                self.0.extend(d);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    fn finish(mut self) -> Result<(), SetError> {
        if self.0.is_empty() {
            return Ok(());
        }
        crate::lang::diag::sort(&mut self.0);
        self.0.dedup();
        Err(SetError::Rules(self.0))
    }
}

impl Library {
    /// A library of the built-in sets (the `rules/` embedded in the binary)
    /// and of files on disk.
    pub fn new() -> Library {
        Library::with_built_ins(EMBEDDED)
    }

    /// A library whose built-in files are `table` (path under `rules/`,
    /// contents) instead of the embedded ones: for tests and tools.
    pub fn with_built_ins(table: BuiltInTable) -> Library {
        Library {
            built_ins: BuiltIns(table),
            loaded: HashMap::new(),
            stack: Vec::new(),
        }
    }

    /// The names of the built-in sets, sorted.
    pub fn built_in_names(&self) -> Vec<String> {
        self.built_ins.set_names()
    }

    /// Loads a spec as given to `--rules`: one or more specs joined by `+`
    /// (`basic+./my-rules/`), paths relative to the current directory;
    /// `-` is standard input (a rule file or a set file). A joined spec is
    /// the set whose `files:` are its parts. A part that is not UTF-8 is a
    /// path (no built-in set has such a name).
    pub fn load(&mut self, spec: impl AsRef<OsStr>) -> Result<Arc<RuleSet>, SetError> {
        let spec = spec.as_ref();
        let r = self.load_parts(spec);
        match r {
            Err(_) if spec.as_encoded_bytes().contains(&b'+') && Path::new(spec).exists() => {
                Err(SetError::PlusInPath(shown(spec)))
            }
            r => r,
        }
    }

    fn load_parts(&mut self, spec: &OsStr) -> Result<Arc<RuleSet>, SetError> {
        if spec.is_empty() {
            return Err(SetError::EmptyName);
        }
        let parts = split_plus(spec);
        if parts.iter().any(|p| p.is_empty()) {
            return Err(SetError::EmptyPart(shown(spec)));
        }
        let here = Location::Disk(PathBuf::new());
        let mut diags = Diags::default();
        let mut linked = Vec::new();
        for part in &parts {
            let loc = match part.to_str() {
                Some("-") => Location::Stdin,
                Some(p) => self.resolve(p, &here, None)?,
                None => Location::Disk(PathBuf::from(part)),
            };
            if let Some(l) = diags.take(self.get(&loc, None))? {
                linked.push(l);
            }
        }
        diags.finish()?;
        if let [one] = &linked[..] {
            return Ok(one.set.clone());
        }
        let (members, known) = union(&linked)?;
        let names: Vec<&str> = linked.iter().map(|l| l.set.name.as_str()).collect();
        let joined = Linked::new(
            names.join("+"),
            format!("the union of {}", names.join(", ")),
            Flags::inherited(&linked),
            members,
            known,
            warnings_of(&linked),
        );
        Ok(joined.set)
    }

    /// The set `name` as a rule or set file at `from` names it: a built-in
    /// set, or a path relative to the folder of `from`. This is how a
    /// searcher that runs another set finds it at link time; while the
    /// file `from` is being loaded, naming a set that includes it is an
    /// include cycle.
    pub fn link(&mut self, name: &str, from: &Location) -> Result<Arc<RuleSet>, SetError> {
        let loc = self.resolve(name, &from.parent(), None)?;
        Ok(self.get(&loc, None)?.set.clone())
    }

    /// Where a spec points, read from folder `dir`.
    fn resolve(&self, spec: &str, dir: &Location, within: Within) -> Result<Location, SetError> {
        match source::classify(spec) {
            Target::Path(p) => Ok(dir.join(p)),
            Target::BuiltIn(name) if self.built_ins.has_set(name) => {
                Ok(Location::built_in_set(name))
            }
            Target::BuiltIn(name) => {
                let known = self.built_ins.set_names();
                let mut hint = String::new();
                if let Some(c) = closest(name, known.iter().map(String::as_str)) {
                    hint.push_str(&format!("; did you mean `{c}`?"));
                }
                if let Location::Disk(d) = dir
                    && d.join(name).exists()
                {
                    hint.push_str(&format!(
                        "; to use the path `{name}`, write `./{name}` (a path has a `/` or an extension)"
                    ));
                }
                if name == "-" {
                    hint.push_str("; `-` (standard input) names a set on the command line only");
                }
                if name.contains('+') {
                    hint.push_str(
                        "; `+` joins sets on the command line only: list each under `files:`",
                    );
                }
                Err(in_entry(
                    within,
                    SetError::Unknown {
                        name: name.to_string(),
                        known: known.join(", "),
                        hint,
                    },
                ))
            }
        }
    }

    /// Loads a location once: from the cache, or by opening and building it.
    fn get(&mut self, loc: &Location, within: Within) -> Result<Arc<Linked>, SetError> {
        let id = Id::of(loc);
        if let Some(l) = self.loaded.get(&id) {
            return Ok(l.clone());
        }
        if let Some(at) = self.stack.iter().position(|(i, _)| *i == id) {
            let mut cycle: Vec<String> = self.stack[at..].iter().map(|(_, s)| s.clone()).collect();
            cycle.push(self.stack[at].1.clone());
            return Err(SetError::Cycle(cycle));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(in_entry(
                within,
                SetError::TooDeep {
                    path: loc.display(),
                    depth: MAX_DEPTH,
                },
            ));
        }
        let opened = source::open(loc, self.built_ins).map_err(|e| in_entry(within, e))?;
        self.stack.push((id.clone(), loc.describe()));
        let built = self.build(loc, &id, opened);
        self.stack.pop();
        let linked = Arc::new(built?);
        self.loaded.insert(id, linked.clone());
        Ok(linked)
    }

    fn build(&mut self, loc: &Location, id: &Id, opened: Opened) -> Result<Linked, SetError> {
        match opened {
            Opened::Rules(text) => {
                let mut linked = rule_file(loc, id, &text)?;
                self.link_trials(loc, &mut linked)?;
                Ok(linked)
            }
            Opened::Folder(files) => self.folder(loc, &files),
            Opened::Set { text, base } => self.set_file(loc, &text, &base),
        }
    }

    /// Links the rule sets that the trial rules of a file propagate with
    /// (`propagate with NAME`) or apply (`apply NAME`), named from the
    /// file's folder: each such rule's searcher becomes the search with its
    /// sets ([`TrialSearch::linked`](crate::search::trial::TrialSearch::linked)),
    /// before any set includes the file.
    fn link_trials(&mut self, loc: &Location, linked: &mut Linked) -> Result<(), SetError> {
        use crate::search::SearcherKind;
        use crate::search::trial::AppliedRule;
        let set = Arc::get_mut(&mut linked.set).expect("a rule file is linked before it is shared");
        for rule in &mut set.rules {
            let SearcherKind::Trial(t) = rule.searcher.kind() else {
                continue;
            };
            let mut sets = Vec::new();
            for (pass, name) in t.links() {
                let set = self.link(&name, loc).map_err(|e| SetError::Link {
                    file: loc.display(),
                    rule: rule.head.name.clone(),
                    name: name.clone(),
                    error: Box::new(e),
                })?;
                sets.push((pass, set.rules.iter().map(|r| r.searcher.clone()).collect()));
            }
            let mut applied = Vec::new();
            for (pass, name) in t.apply_links() {
                let set = self.link(&name, loc).map_err(|e| SetError::ApplyLink {
                    file: loc.display(),
                    rule: rule.head.name.clone(),
                    name: name.clone(),
                    error: Box::new(e),
                })?;
                let rules = set.rules.iter();
                applied.push((
                    pass,
                    rules
                        .map(|r| AppliedRule {
                            complexity: r.head.complexity,
                            name: r.head.name.as_str().into(),
                            searcher: r.searcher.clone(),
                        })
                        .collect(),
                ));
            }
            if sets.is_empty() && applied.is_empty() {
                continue;
            }
            let searcher = Arc::new(t.linked(sets, applied));
            *rule = Arc::new(Rule {
                head: rule.head.clone(),
                searcher,
            });
        }
        Ok(())
    }

    fn folder(&mut self, loc: &Location, files: &[Location]) -> Result<Linked, SetError> {
        let mut diags = Diags::default();
        let mut parts = Vec::new();
        for f in files {
            if let Some(l) = diags.take(self.get(f, None))? {
                parts.push(l);
            }
        }
        diags.finish()?;
        let (members, known) = union(&parts)?;
        Ok(Linked::new(
            loc.stem(),
            format!("the rules of {}", loc.display()),
            Flags::inherited(&parts),
            members,
            known,
            warnings_of(&parts),
        ))
    }

    fn set_file(&mut self, loc: &Location, text: &str, dir: &Location) -> Result<Linked, SetError> {
        let shown = loc.display();
        let set = setfile::parse(&shown, text)?;
        let mut diags = Diags::default();
        let mut parts = Vec::new();
        for entry in &set.files {
            let within = Some((shown.as_str(), entry.as_str()));
            let target = self.resolve(entry, dir, within)?;
            if let Some(l) = diags.take(self.get(&target, within))? {
                parts.push(l);
            }
        }
        diags.finish()?;
        let (members, known) = union(&parts)?;
        let members = apply_settings(&shown, &set, members, &known)?;
        Ok(Linked::new(
            set.name.clone().unwrap_or_else(|| loc.stem()),
            set.description.clone().unwrap_or_default(),
            {
                let inherited = Flags::inherited(&parts);
                Flags {
                    blocked: set.blocked.unwrap_or(true),
                    strategy: set.strategy.unwrap_or(inherited.strategy),
                    assumes_unique: set.assumes_unique.unwrap_or(inherited.assumes_unique),
                    rating_type: set.rating_type.as_deref().map(|t| t.trim().to_string()),
                }
            },
            members,
            known,
            warnings_of(&parts),
        ))
    }
}

/// A rule file: its rules, each defined once.
fn rule_file(loc: &Location, id: &Id, text: &str) -> Result<Linked, SetError> {
    let shown = loc.display();
    let compiled = compile_source_with_warnings(&shown, text).map_err(SetError::Rules)?;
    let rules = compiled.rules;
    if rules.is_empty() {
        return Err(SetError::Empty {
            what: shown,
            why: "the file defines no rule".into(),
        });
    }
    let mut members: Members = Vec::with_capacity(rules.len());
    let mut known = BTreeSet::new();
    // The compiler refuses a name defined twice in one file; kept as a
    // guard (a set look-up per rule, not a scan).
    let mut first: HashMap<String, usize> = HashMap::with_capacity(rules.len());
    for r in rules {
        if let Some(&i) = first.get(&r.head.name) {
            return Err(SetError::Duplicate {
                name: r.head.name.clone(),
                first: place(&members[i].0, id),
                second: place(&r, id),
            });
        }
        first.insert(r.head.name.clone(), members.len());
        known.insert(r.head.name.clone());
        members.push((Arc::new(r), id.clone()));
    }
    Ok(Linked::new(
        loc.stem(),
        format!("the rules of {shown}"),
        Flags::PLAIN,
        members,
        known,
        compiled.warnings,
    ))
}

/// The warnings of several parts, each once (a file reached twice warns once).
fn warnings_of(parts: &[Arc<Linked>]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    for w in parts.iter().flat_map(|p| &p.set.warnings) {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// A spec's parts, split at each `+` (a name that is not UTF-8 too).
fn split_plus(spec: &OsStr) -> Vec<OsString> {
    if let Some(s) = spec.to_str() {
        return s.split('+').map(OsString::from).collect();
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        (spec.as_bytes().split(|&b| b == b'+'))
            .map(|b| OsStr::from_bytes(b).to_os_string())
            .collect()
    }
    #[cfg(not(unix))]
    {
        vec![spec.to_os_string()]
    }
}

/// A spec as messages show it (what is not UTF-8 replaced).
fn shown(spec: &OsStr) -> String {
    Path::new(spec).display().to_string()
}

/// `file:line:column` of a rule, marked when the file is built in.
fn place(rule: &Rule, origin: &Id) -> String {
    let built_in = if origin.is_built_in() {
        " (built in)"
    } else {
        ""
    };
    format!(
        "{}:{}:{}{built_in}",
        rule.head.file, rule.head.line, rule.head.column
    )
}

/// The rules of several loaded parts, in order; a rule of the same file
/// met again is kept once, a rule of the same name from another file is an
/// error.
fn union(parts: &[Arc<Linked>]) -> Result<(Members, BTreeSet<String>), SetError> {
    let mut members: Members = Vec::new();
    let mut index: HashMap<&str, (usize, &str)> = HashMap::new();
    let mut known = BTreeSet::new();
    for part in parts {
        known.extend(part.known.iter().cloned());
        for (rule, origin) in part.members() {
            match index.get(rule.head.name.as_str()) {
                None => {
                    index.insert(&rule.head.name, (members.len(), &part.set.name));
                    members.push((rule.clone(), origin.clone()));
                }
                Some(&(i, first_set)) => {
                    let (prev, prev_origin) = &members[i];
                    if prev_origin != origin {
                        return Err(SetError::Duplicate {
                            name: rule.head.name.clone(),
                            first: place(prev, prev_origin),
                            second: place(rule, origin),
                        });
                    }
                    if prev.head != rule.head {
                        return Err(SetError::Conflict {
                            name: rule.head.name.clone(),
                            place: place(rule, origin),
                            first: format!("`{first_set}` rates it {}", rating_of(prev)),
                            second: format!("`{}` rates it {}", part.set.name, rating_of(rule)),
                        });
                    }
                }
            }
        }
    }
    Ok((members, known))
}

fn rating_of(r: &Rule) -> String {
    format!(
        "{} (level {}, complexity {})",
        r.head.label.as_deref().unwrap_or(&r.head.name),
        r.head.level,
        r.head.complexity
    )
}

/// A set file's own settings applied to what its entries gave: names
/// checked, then `max-level` and `exclude` drop rules, then `ratings`
/// change the rest.
fn apply_settings(
    shown: &str,
    set: &SetFile,
    mut members: Members,
    known: &BTreeSet<String>,
) -> Result<Members, SetError> {
    let mut unknown = Vec::new();
    let named = set
        .exclude
        .iter()
        .map(|n| ("exclude", n))
        .chain(set.ratings.keys().map(|n| ("ratings", n)));
    for (key, name) in named {
        if !known.contains(name) {
            unknown.push(UnknownRule {
                key,
                name: name.clone(),
                suggestion: closest(name, known.iter().map(String::as_str)).map(str::to_string),
            });
        }
    }
    if !unknown.is_empty() {
        return Err(SetError::UnknownRules {
            set: shown.to_string(),
            rules: unknown,
        });
    }
    // Rules for other types only do not count: on classic Sudoku the set
    // would be empty.
    let classic = |m: &Members| m.iter().filter(|(r, _)| r.head.space.is_none()).count();
    let before = classic(&members);
    let excluded: std::collections::HashSet<&str> =
        set.exclude.iter().map(String::as_str).collect();
    members.retain(|(r, _)| {
        set.max_level
            .is_none_or(|m| r.head.level <= Rating::level(m))
            && !excluded.contains(r.head.name.as_str())
    });
    if classic(&members) == 0 {
        let mut by = Vec::new();
        if let Some(m) = set.max_level {
            by.push(format!("`max-level: {m}`"));
        }
        if !set.exclude.is_empty() {
            by.push("`exclude:`".to_string());
        }
        return Err(SetError::Empty {
            what: shown.to_string(),
            why: format!(
                "{} {} all {before} rules",
                by.join(" and "),
                if by.len() == 1 { "removes" } else { "remove" }
            ),
        });
    }
    for (r, _) in &mut members {
        if let Some(o) = set.ratings.get(&r.head.name) {
            let mut changed = Rule::clone(r);
            if let Some(t) = &o.rating {
                changed.head.label = Some(t.clone());
            }
            if let Some(l) = o.level {
                changed.head.level = Rating::level(l);
            }
            *r = Arc::new(changed);
        }
    }
    Ok(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A built-in tree of its own: sets that include sets and a folder,
    /// and two sets that include each other.
    static TABLE: BuiltInTable = &[
        ("singles.rules", include_str!("../../rules/singles.rules")),
        ("more/wings.rules", include_str!("../../rules/wings.rules")),
        ("sets/s.yaml", "files: [../singles.rules]\n"),
        (
            "sets/w.yaml",
            "name: w\nfiles: [s, ../more/]\nexclude: [xyz-wing]\n",
        ),
        ("sets/loop1.yaml", "files: [s, loop2]\n"),
        ("sets/loop2.yaml", "files: [./loop1.yaml]\n"),
    ];

    fn names(set: &RuleSet) -> Vec<&str> {
        set.rules.iter().map(|r| r.head.name.as_str()).collect()
    }

    #[test]
    fn built_in_sets_include_built_in_sets_and_folders() {
        let mut lib = Library::with_built_ins(TABLE);
        assert_eq!(lib.built_in_names(), ["loop1", "loop2", "s", "w"]);
        let w = lib.load("w").unwrap();
        assert_eq!(
            names(&w),
            [
                "naked-single",
                "hidden-single-in-a-row",
                "hidden-single-in-a-column",
                "hidden-single-in-a-block",
                "xy-wing"
            ]
        );
        assert_eq!(w.rules[4].head.file, "rules/more/wings.rules");
        assert_eq!(
            lib.load("loop1").unwrap_err().to_string(),
            "include cycle: rules/sets/loop1.yaml (built in) → rules/sets/loop2.yaml (built in) → rules/sets/loop1.yaml (built in)"
        );
    }

    #[test]
    fn each_location_is_loaded_once_and_shared() {
        let mut lib = Library::with_built_ins(TABLE);
        let w = lib.load("w").unwrap();
        assert!(Arc::ptr_eq(&w, &lib.load("w").unwrap()));
        let s = lib.load("s").unwrap();
        assert!(
            Arc::ptr_eq(&s.rules[0], &w.rules[0]),
            "one compiled naked-single"
        );

        let mut lib = Library::new();
        let basic = lib.load("basic").unwrap();
        let sfin = lib.load("sfin").unwrap();
        let whip = |set: &RuleSet| {
            set.rules
                .iter()
                .find(|r| r.head.name == "whip[1]")
                .unwrap()
                .clone()
        };
        assert!(Arc::ptr_eq(&whip(&basic), &whip(&sfin)));
    }

    #[test]
    fn a_searcher_links_a_set_by_name_from_its_file() {
        let mut lib = Library::with_built_ins(TABLE);
        let from = Location::BuiltIn("more/wings.rules".into());
        assert_eq!(lib.link("s", &from).unwrap().rules.len(), 4);
        assert_eq!(
            lib.link("../sets/w.yaml", &from).unwrap().name,
            "w",
            "a path is relative to the file that names it"
        );
        assert_eq!(
            lib.link("nope", &from).unwrap_err().to_string(),
            "unknown rule set `nope` (built-in sets: loop1, loop2, s, w)"
        );
        // A rule of singles.rules, while it is compiled, naming a set that
        // includes singles.rules: an include cycle.
        let mut lib = Library::with_built_ins(TABLE);
        let file = Location::BuiltIn("singles.rules".into());
        lib.stack.push((Id::of(&file), file.describe()));
        assert_eq!(
            lib.link("s", &file).unwrap_err().to_string(),
            "include cycle: rules/singles.rules (built in) → rules/sets/s.yaml (built in) → rules/singles.rules (built in)"
        );
    }
}
