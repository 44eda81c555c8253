//! The import table of ARCHITECTURE.md ("## Imports") is the code's: each
//! top-level module of the library imports from the other top-level
//! modules exactly what the table lists (`crate::…` paths outside test
//! code and comments), and the table has no cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The files of the binary and of test support, which are not modules of
/// the library's layers.
const NOT_LAYERS: &[&str] = &[
    "main.rs",
    "lib.rs",
    "study_cli.rs",
    "filter_cli.rs",
    "matches_cli.rs",
    "generate_cli.rs",
    "input_cli.rs",
    "output_cli.rs",
    "batch_cli.rs",
    "test_data.rs",
    "type_cli.rs",
    "typed_cli.rs",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The table: the `text` block that follows the `## Imports` heading.
fn declared() -> Graph {
    let doc = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = doc
        .split("\n## Imports\n")
        .nth(1)
        .expect("ARCHITECTURE.md has a `## Imports` section");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the Imports section has a ```text block");
    let mut g = Graph::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (module, deps) = line
            .split_once("->")
            .unwrap_or_else(|| panic!("a table line is `module -> deps`: {line:?}"));
        let deps = deps.split_whitespace().map(str::to_string).collect();
        assert!(
            g.insert(module.trim().to_string(), deps).is_none(),
            "{} is listed twice",
            module.trim()
        );
    }
    g
}

/// `source` without comments, string literals' contents and the bodies
/// of `#[cfg(test)]` modules.
fn code_only(source: &str) -> String {
    let b = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |k| k + 2);
        } else if let Some(raw) = rest.strip_prefix("r#\"") {
            i += 3 + raw.find("\"#").map_or(raw.len(), |k| k + 2);
        } else if rest.starts_with('"') {
            // A string literal: skip to its unescaped closing quote.
            let mut k = 1;
            while k < rest.len() && rest.as_bytes()[k] != b'"' {
                k += if rest.as_bytes()[k] == b'\\' { 2 } else { 1 };
            }
            i += k + 1;
        } else if rest.starts_with("'{'") || rest.starts_with("'}'") || rest.starts_with("'\"'") {
            i += 3;
        } else if let Some(after) = rest.strip_prefix("#[cfg(test)]") {
            let after = after.trim_start();
            let is_mod = after.starts_with("mod ")
                || after.starts_with("pub mod ")
                || after.starts_with("pub(crate) mod ");
            let item_end = after.find(['{', ';']).unwrap_or(after.len());
            if is_mod && after.as_bytes().get(item_end) == Some(&b'{') {
                // Skip the module's body, braces balanced (the body's
                // strings and comments are skipped the same way).
                let start = i + (rest.len() - after.len()) + item_end;
                i = skip_braces(source, start);
            } else {
                i += "#[cfg(test)]".len();
            }
        } else {
            let ch = rest.chars().next().expect("not at the end");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The index just past the brace block that opens at `start`.
fn skip_braces(source: &str, start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < source.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if rest.starts_with('"') {
            let mut k = 1;
            while k < rest.len() && rest.as_bytes()[k] != b'"' {
                k += if rest.as_bytes()[k] == b'\\' { 2 } else { 1 };
            }
            i += k + 1;
            continue;
        }
        if rest.starts_with("'{'") || rest.starts_with("'}'") || rest.starts_with("'\"'") {
            i += 3;
            continue;
        }
        match rest.as_bytes()[0] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    source.len()
}

/// The files declared `#[cfg(test)] mod NAME;` by `file`: test code whole.
fn test_files(file: &Path, source: &str) -> Vec<PathBuf> {
    let dir = if file
        .file_name()
        .is_some_and(|n| n == "mod.rs" || n == "lib.rs")
    {
        file.parent().expect("a folder").to_path_buf()
    } else {
        file.with_extension("")
    };
    let mut out = Vec::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "#[cfg(test)]" {
            continue;
        }
        let Some(next) = lines.next() else { break };
        let next = next.trim();
        if let Some(name) = next
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub ")
            .strip_prefix("mod ")
            .and_then(|n| n.strip_suffix(';'))
        {
            out.push(dir.join(format!("{name}.rs")));
            out.push(dir.join(name).join("mod.rs"));
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What the code imports: each top-level module's `crate::NAME` paths
/// outside test code and comments.
fn actual() -> Graph {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let sources: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|f| (f.clone(), fs::read_to_string(f).expect("a source file")))
        .collect();
    let tests: BTreeSet<PathBuf> = sources.iter().flat_map(|(f, s)| test_files(f, s)).collect();
    let mut g = Graph::new();
    for (file, source) in &sources {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a path");
        let first = first.as_os_str().to_str().expect("UTF-8 names");
        if NOT_LAYERS.contains(&first) || tests.contains(file) {
            continue;
        }
        let module = first.trim_end_matches(".rs").to_string();
        let deps = g.entry(module.clone()).or_default();
        let code = code_only(source);
        for (k, _) in code.match_indices("crate::") {
            let name: String = code[k + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name != module && !name.is_empty() {
                deps.insert(name);
            }
        }
    }
    g
}

#[test]
fn the_import_table_is_the_codes() {
    let declared = declared();
    let actual = actual();
    let mut wrong = Vec::new();
    for (module, deps) in &actual {
        match declared.get(module) {
            None => wrong.push(format!(
                "{module} is not in the table (it imports {deps:?})"
            )),
            Some(listed) if listed != deps => wrong.push(format!(
                "{module}: the table lists {listed:?}, the code imports {deps:?}"
            )),
            Some(_) => {}
        }
    }
    for module in declared.keys() {
        if !actual.contains_key(module) {
            wrong.push(format!("{module} is in the table but not a module of src/"));
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's import table is not the code's:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_import_table_has_no_cycle() {
    let g = declared();
    // Kahn's algorithm: a module is placed once everything it imports is.
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    loop {
        let next: Vec<&str> = g
            .iter()
            .filter(|(m, deps)| {
                !placed.contains(m.as_str()) && deps.iter().all(|d| placed.contains(d.as_str()))
            })
            .map(|(m, _)| m.as_str())
            .collect();
        if next.is_empty() {
            break;
        }
        placed.extend(next);
    }
    let left: Vec<&String> = g.keys().filter(|m| !placed.contains(m.as_str())).collect();
    assert!(
        left.is_empty(),
        "modules on an import cycle (or importing one): {left:?}"
    );
    for deps in g.values() {
        for d in deps {
            assert!(
                g.contains_key(d),
                "{d} is imported but has no line in the table"
            );
        }
    }
}

#[test]
fn test_code_is_not_counted() {
    let source = "use crate::grid::x;\n// crate::draw\nlet s = \"crate::path\";\n\
                  #[cfg(test)]\nmod tests {\n    use crate::engine;\n    fn f() { let c = '}'; }\n}\n\
                  fn g() -> crate::rating::Rating { todo!() }\n";
    let code = code_only(source);
    assert!(code.contains("crate::grid"));
    assert!(code.contains("crate::rating"));
    assert!(!code.contains("crate::draw"));
    assert!(!code.contains("crate::path"));
    assert!(!code.contains("crate::engine"));
}

/// The modules of `folder` in the order its `mod.rs` doc first names them
/// (in backticks, as `name` or [`name`]).
fn doc_order(folder: &Path) -> Vec<String> {
    let doc: String = fs::read_to_string(folder.join("mod.rs"))
        .expect("a mod.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut order: Vec<String> = Vec::new();
    for quoted in doc.split('`').skip(1).step_by(2) {
        let name = quoted.trim_start_matches('[').trim_end_matches(']');
        if folder.join(format!("{name}.rs")).is_file() && !order.iter().any(|m| m == name) {
            order.push(name.to_string());
        }
    }
    order
}

/// Architecture Invariant (ARCHITECTURE.md, "Imports"): inside the
/// pattern compiler and the trial searches, each module imports only the
/// modules its folder's `mod.rs` lists before it.
#[test]
fn modules_import_only_those_listed_before_them() {
    let mut wrong = Vec::new();
    for folder in ["src/search/pattern", "src/search/trial"] {
        let folder = root().join(folder);
        let order = doc_order(&folder);
        assert!(
            order.len() >= 10,
            "{folder:?}'s doc lists its modules: {order:?}"
        );
        for (i, module) in order.iter().enumerate() {
            let source = fs::read_to_string(folder.join(format!("{module}.rs"))).expect("source");
            let code = code_only(&source);
            let parent = folder.file_name().and_then(|n| n.to_str()).expect("a name");
            for prefix in ["super::".to_string(), format!("crate::search::{parent}::")] {
                for (k, _) in code.match_indices(prefix.as_str()) {
                    let name: String = code[k + prefix.len()..]
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if order[i + 1..].contains(&name) {
                        wrong.push(format!("{parent}/{module} imports {name}, listed after it"));
                    }
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
