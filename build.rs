//! Embeds every file under `rules/` into the binary, so the default rule
//! sets work from any directory with no files installed.

use std::fs;
use std::path::Path;

fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, root, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("rules" | "yaml")
        ) {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((
                rel,
                p.canonicalize().unwrap().to_string_lossy().into_owned(),
            ));
        }
    }
}

/// The commit being built (`RULEDOKU_COMMIT`, `unknown` outside a git
/// checkout), for `--version` and batch summaries; rebuilt when HEAD moves.
fn commit() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=RULEDOKU_COMMIT={commit}");
    // Only files that exist: cargo reruns the script for a missing one.
    let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watch.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for p in watch {
        if let Some(path) = git(&["rev-parse", "--git-path", &p])
            && Path::new(&path).exists()
        {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}

fn main() {
    commit();
    println!("cargo:rerun-if-changed=rules");
    let root = Path::new("rules");
    let mut files = Vec::new();
    walk(root, root, &mut files);
    let mut code = String::from(
        "/// Files of `rules/`, relative path and contents.\npub static EMBEDDED: &[(&str, &str)] = &[\n",
    );
    for (rel, abs) in files {
        code.push_str(&format!("    ({rel:?}, include_str!({abs:?})),\n"));
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("embedded_rules.rs");
    fs::write(out, code).unwrap();
}
