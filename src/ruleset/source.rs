//! Where rule files, folders and set files live, how a name written on the
//! command line or in a set file is read, and how each is opened.
//!
//! A *spec* is either a built-in set name or a path. It is a path only if
//! it contains a path separator (`./my`, `../x`, `/abs`, `dir/`), is `.`
//! or `..`, starts with `~`, or ends in `.yaml`, `.yml` or `.rules`;
//! anything else is a built-in set name. Nothing on disk changes this, so a
//! file named `basic` in the current directory never hides the built-in
//! `basic` set.
//!
//! What a path holds is decided by the path, then by its content: a
//! directory is a folder of `.rules` files; a `.rules` file is a rule file;
//! a `.yaml`/`.yml` file is a set file; anything else (a pipe such as
//! `<(cat x.rules)`, a named pipe, a file with another or no extension) is
//! read once and is a set file if it has a top-level `files:` key, a rule
//! file otherwise.

use super::SetError;
use std::path::{Path, PathBuf};

/// The copy of `rules/` compiled into the binary.
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_rules.rs"));
}

/// A table of built-in files: path under `rules/` and contents.
pub type BuiltInTable = &'static [(&'static str, &'static str)];

/// The files of `rules/` embedded in the binary.
pub const EMBEDDED: BuiltInTable = embedded::EMBEDDED;

/// Where a rule file, folder or set file is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// A path on disk, as written (relative to the current directory, or
    /// absolute).
    Disk(PathBuf),
    /// A path in the built-in copy of `rules/`, such as `sets/basic.yaml`
    /// or `singles.rules` (`""` is `rules/` itself).
    BuiltIn(String),
    /// Standard input (`-` on the command line): a rule file or a set
    /// file, told apart by content as a pipe is; its entries are relative
    /// to the current directory.
    Stdin,
}

impl Location {
    /// The built-in set `name` (`rules/sets/NAME.yaml`).
    pub fn built_in_set(name: &str) -> Location {
        Location::BuiltIn(format!("sets/{name}.yaml"))
    }

    /// How messages and rule heads name it: the path as written, or
    /// `rules/…` for a built-in file.
    pub fn display(&self) -> String {
        match self {
            Location::Disk(p) => p.display().to_string(),
            Location::BuiltIn(k) if k.is_empty() => "rules/".to_string(),
            Location::BuiltIn(k) => format!("rules/{k}"),
            Location::Stdin => "<stdin>".to_string(),
        }
    }

    /// [`display`](Self::display), marked `(built in)` for a built-in file
    /// (so it is not taken for a file of the same name on disk).
    pub fn describe(&self) -> String {
        match self {
            Location::Disk(_) | Location::Stdin => self.display(),
            Location::BuiltIn(_) => format!("{} (built in)", self.display()),
        }
    }

    /// The folder that holds it (what its entries are relative to).
    pub fn parent(&self) -> Location {
        match self {
            Location::Disk(p) => {
                Location::Disk(p.parent().map(Path::to_path_buf).unwrap_or_default())
            }
            Location::BuiltIn(k) => {
                Location::BuiltIn(k.rsplit_once('/').map_or("", |(d, _)| d).to_string())
            }
            Location::Stdin => Location::Disk(PathBuf::new()),
        }
    }

    /// `rel` resolved from this folder; an absolute `rel` is itself.
    pub fn join(&self, rel: &str) -> Location {
        let p = Path::new(rel);
        if p.is_absolute() {
            return Location::Disk(p.to_path_buf());
        }
        match self {
            Location::Disk(d) if d.as_os_str().is_empty() => Location::Disk(p.to_path_buf()),
            // `./x` from `dir` is `dir/x`, not `dir/./x`.
            Location::Disk(d) => Location::Disk(d.join(p.strip_prefix(".").unwrap_or(p))),
            Location::BuiltIn(d) => Location::BuiltIn(normalize(&Path::new(d).join(p))),
            Location::Stdin => self.parent().join(rel),
        }
    }

    /// The file's stem (`sfin` for `rules/sets/sfin.yaml`), through
    /// symbolic links, for naming a set after its file.
    pub fn stem(&self) -> String {
        let path = match self {
            Location::Disk(p) => std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()),
            Location::BuiltIn(k) if k.is_empty() => PathBuf::from("rules"),
            Location::BuiltIn(k) => PathBuf::from(k),
            Location::Stdin => PathBuf::from("stdin"),
        };
        path.file_stem()
            .map_or_else(|| self.display(), |s| s.to_string_lossy().into_owned())
    }
}

/// What a location is, once and for all: two locations with the same
/// identity are the same file (through `..`, symbolic links, or two
/// different set files naming it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Id {
    Disk(PathBuf),
    BuiltIn(String),
    Stdin,
}

impl Id {
    pub(crate) fn of(loc: &Location) -> Id {
        match loc {
            Location::Disk(p) => Id::Disk(
                std::fs::canonicalize(p)
                    .or_else(|_| std::path::absolute(p))
                    .unwrap_or_else(|_| p.clone()),
            ),
            Location::BuiltIn(k) => Id::BuiltIn(normalize(Path::new(k))),
            Location::Stdin => Id::Stdin,
        }
    }

    pub(crate) fn is_built_in(&self) -> bool {
        matches!(self, Id::BuiltIn(_))
    }
}

/// Resolves `.` and `..` in a relative built-in path.
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

/// What a spec (one part of `--rules`, or one `files:` entry) names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    /// A built-in set, by name.
    BuiltIn(&'a str),
    /// A path, relative to the current directory or to the set file.
    Path(&'a str),
}

/// Reads a spec by its spelling alone (see the module docs).
pub(crate) fn classify(spec: &str) -> Target<'_> {
    let has_ext = Path::new(spec)
        .extension()
        .is_some_and(|e| e == "yaml" || e == "yml" || e == "rules");
    if spec.contains('/')
        || spec.chars().any(std::path::is_separator)
        || spec == "."
        || spec == ".."
        || spec.starts_with('~')
        || has_ext
    {
        Target::Path(spec)
    } else {
        Target::BuiltIn(spec)
    }
}

/// What was found at a location.
pub(crate) enum Opened {
    /// A rule file's text.
    Rules(String),
    /// A set file's text, and the folder its entries are relative to:
    /// the file's own, or the current directory for a pipe or a device
    /// (`<(printf 'files: [x.rules]')` means `./x.rules`, not `/dev/fd/x.rules`).
    Set { text: String, base: Location },
    /// A folder's `.rules` files, sorted by name.
    Folder(Vec<Location>),
}

/// The built-in files a library reads built-in locations from.
#[derive(Clone, Copy)]
pub(crate) struct BuiltIns(pub BuiltInTable);

impl BuiltIns {
    fn file(&self, key: &str) -> Option<&'static str> {
        self.0.iter().find(|(p, _)| *p == key).map(|(_, t)| *t)
    }

    fn is_folder(&self, key: &str) -> bool {
        key.is_empty()
            || self
                .0
                .iter()
                .any(|(p, _)| p.strip_prefix(key).is_some_and(|r| r.starts_with('/')))
    }

    /// The `.rules` files directly in folder `key`.
    fn folder(&self, key: &str) -> Vec<Location> {
        let mut files: Vec<Location> = self
            .0
            .iter()
            .filter_map(|(p, _)| {
                let rest = if key.is_empty() {
                    *p
                } else {
                    p.strip_prefix(key)?.strip_prefix('/')?
                };
                (!rest.contains('/') && rest.ends_with(".rules"))
                    .then(|| Location::BuiltIn(p.to_string()))
            })
            .collect();
        files.sort_by_key(Location::display);
        files
    }

    /// Names of the built-in sets (file stems under `sets/`), sorted.
    pub(crate) fn set_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .0
            .iter()
            .filter_map(|(p, _)| {
                p.strip_prefix("sets/")?
                    .strip_suffix(".yaml")
                    .filter(|n| !n.contains('/'))
                    .map(str::to_string)
            })
            .collect();
        names.sort();
        names
    }

    pub(crate) fn has_set(&self, name: &str) -> bool {
        self.file(&format!("sets/{name}.yaml")).is_some()
    }
}

fn file_error(loc: &Location, message: impl Into<String>) -> SetError {
    SetError::File {
        path: loc.display(),
        message: message.into(),
    }
}

/// What an I/O error means to a user, without the `(os error N)` noise.
fn io_message(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        NotFound => "no such file or directory".into(),
        PermissionDenied => "permission denied".into(),
        IsADirectory => "is a directory".into(),
        _ => {
            let s = e.to_string();
            match s.find(" (os error") {
                Some(i) => s[..i].to_string(),
                None => s,
            }
        }
    }
}

/// Opens a location: lists a folder, or reads a file once and says whether
/// it is a rule file or a set file.
pub(crate) fn open(loc: &Location, built_ins: BuiltIns) -> Result<Opened, SetError> {
    let mut base = loc.parent();
    let (text, ext) = match loc {
        Location::BuiltIn(k) => {
            if let Some(t) = built_ins.file(k) {
                (t.to_string(), extension(Path::new(k)))
            } else if built_ins.is_folder(k) {
                return folder_of(loc, built_ins.folder(k));
            } else {
                return Err(file_error(loc, "no such built-in file"));
            }
        }
        Location::Disk(p) => {
            let meta = std::fs::metadata(p).map_err(|e| {
                let mut message = io_message(&e);
                if p.starts_with("~") && e.kind() == std::io::ErrorKind::NotFound {
                    message.push_str(
                        " (`~` is not expanded here: write the path in full, \
                         or relative to the set file)",
                    );
                }
                file_error(loc, message)
            })?;
            if meta.is_dir() {
                return folder(loc, p);
            }
            if !meta.is_file() {
                base = Location::Disk(PathBuf::new());
            }
            let bytes = read_capped(p).map_err(|e| file_error(loc, io_message(&e)))?;
            (decode(loc, bytes)?, extension(p))
        }
        Location::Stdin => {
            let bytes = read_capped_from(std::io::stdin().lock())
                .map_err(|e| file_error(loc, io_message(&e)))?;
            (decode(loc, bytes)?, None)
        }
    };
    match ext.as_deref() {
        Some("rules") => Ok(Opened::Rules(text)),
        Some("yaml" | "yml") => Ok(Opened::Set { text, base }),
        _ => by_content(loc, text, base),
    }
}

/// Largest rule file, set file or ladder file read, in bytes: 2 MiB (the
/// rule compiler's own limit, [`crate::lang::parse::MAX_SOURCE`]). A
/// regular file is refused by its size before it is read; anything else
/// (a pipe, a device such as `/dev/zero`, standard input) is read up to
/// the limit and refused beyond it, so memory stays bounded.
pub const MAX_FILE_BYTES: usize = crate::lang::parse::MAX_SOURCE;

/// The contents of the file at `p`, at most [`MAX_FILE_BYTES`]; an error
/// (kind `FileTooLarge`) beyond.
pub fn read_capped(p: &Path) -> std::io::Result<Vec<u8>> {
    let f = std::fs::File::open(p)?;
    if let Ok(m) = f.metadata()
        && m.is_file()
        && m.len() > MAX_FILE_BYTES as u64
    {
        return Err(too_large(Some(m.len())));
    }
    read_capped_from(f)
}

/// What `r` gives, at most [`MAX_FILE_BYTES`] (read while it comes: an
/// endless source stops one byte beyond).
pub fn read_capped_from(r: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    r.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(None));
    }
    Ok(bytes)
}

fn too_large(size: Option<u64>) -> std::io::Error {
    let size = size.map_or(format!("more than {MAX_FILE_BYTES}"), |n| n.to_string());
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!("too large: {size} bytes, at most {MAX_FILE_BYTES} (2 MiB) are read"),
    )
}

fn extension(p: &Path) -> Option<String> {
    p.extension().map(|e| e.to_string_lossy().into_owned())
}

/// A disk folder's `.rules` files (not sub-folders), sorted by name.
fn folder(loc: &Location, p: &Path) -> Result<Opened, SetError> {
    let entries = std::fs::read_dir(p).map_err(|e| file_error(loc, io_message(&e)))?;
    let mut files = Vec::new();
    for e in entries {
        let e = e.map_err(|e| file_error(loc, io_message(&e)))?;
        let path = e.path();
        if path.extension().is_some_and(|x| x == "rules") && !path.is_dir() {
            files.push(path);
        }
    }
    files.sort();
    folder_of(loc, files.into_iter().map(Location::Disk).collect())
}

/// A folder's rule files; a folder without any is an empty set.
fn folder_of(loc: &Location, files: Vec<Location>) -> Result<Opened, SetError> {
    if files.is_empty() {
        return Err(SetError::Empty {
            what: loc.display(),
            why: "the folder has no .rules file".into(),
        });
    }
    Ok(Opened::Folder(files))
}

/// UTF-8 text without a byte-order mark; a bad byte is reported with its
/// line and column.
fn decode(loc: &Location, bytes: Vec<u8>) -> Result<String, SetError> {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let good = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
        let line = good.matches('\n').count() + 1;
        let column = good[good.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count()
            + 1;
        SetError::File {
            path: format!("{}:{line}:{column}", loc.display()),
            message: format!("not UTF-8 text (byte 0x{:02x})", bytes[at]),
        }
    })
}

/// Does the text have a top-level `files:` key (a set file)?
fn has_files_key(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("files:"))
        || matches!(
            serde_yaml::from_str::<serde_yaml::Value>(text),
            Ok(serde_yaml::Value::Mapping(m)) if m.contains_key("files")
        )
}

/// A file with no telling extension: a set file if it has a top-level
/// `files:` key, a rule file if a line starts with `rule`.
fn by_content(loc: &Location, text: String, base: Location) -> Result<Opened, SetError> {
    if has_files_key(&text) {
        return Ok(Opened::Set { text, base });
    }
    if text.trim().is_empty() {
        return Err(SetError::Empty {
            what: loc.display(),
            why: "the file is empty".into(),
        });
    }
    let has_rule = text.lines().any(|l| {
        let l = l.trim_start();
        l.strip_prefix("rule")
            .is_some_and(|r| r.starts_with(char::is_whitespace))
    });
    if has_rule {
        Ok(Opened::Rules(text))
    } else {
        Err(file_error(
            loc,
            "not a rule file (no line starts with `rule`) nor a rule set file \
             (no top-level `files:` key)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_paths_by_spelling_only() {
        for p in [
            "./basic",
            "../x",
            "/abs/basic",
            "dir/",
            "my.rules",
            "my.yaml",
            "my.yml",
            ".",
            "..",
            "~",
            "~/x",
        ] {
            assert_eq!(classify(p), Target::Path(p), "{p}");
        }
        for n in ["basic", "sfin", "my-rules", "x.txt", "rules"] {
            assert_eq!(classify(n), Target::BuiltIn(n), "{n}");
        }
    }

    #[test]
    fn built_in_locations_join_and_name_like_paths() {
        let set = Location::built_in_set("sfin");
        assert_eq!(set.display(), "rules/sets/sfin.yaml");
        assert_eq!(set.stem(), "sfin");
        let dir = set.parent();
        assert_eq!(dir, Location::BuiltIn("sets".into()));
        assert_eq!(
            dir.join("../singles.rules"),
            Location::BuiltIn("singles.rules".into())
        );
        assert_eq!(dir.join(".."), Location::BuiltIn(String::new()));
        assert_eq!(
            dir.join("/abs/x.rules"),
            Location::Disk(PathBuf::from("/abs/x.rules"))
        );
        assert_eq!(
            Location::Disk(PathBuf::from("a/b.yaml"))
                .parent()
                .join("c.rules"),
            Location::Disk(PathBuf::from("a/c.rules"))
        );
    }

    #[test]
    fn a_bad_byte_is_placed_by_line_and_column() {
        let loc = Location::Disk("x.rules".into());
        let err = decode(&loc, b"ab\ncd\xe9f".to_vec()).unwrap_err();
        assert_eq!(err.to_string(), "x.rules:2:3: not UTF-8 text (byte 0xe9)");
        assert_eq!(decode(&loc, b"\xEF\xBB\xBFrule".to_vec()).unwrap(), "rule");
    }
}
