//! Rule sets as a user meets them, through the binary: how `--rules` tells
//! a built-in set from a path, empty sets, rule files read from pipes, sets
//! that include sets, folders and built-ins, `+` on the command line, and
//! the errors of broken or odd set files.
//!
//! Every command runs in its own temporary folder (so files there can be
//! named like built-in sets) and is checked not to have panicked.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{FSHT, MY_X_WING, Run, finish, ruledoku_in, shipped};

/// The rules of the built-in `singles` set, in order.
const SINGLES: [&str; 4] = [
    "naked-single",
    "hidden-single-in-a-row",
    "hidden-single-in-a-column",
    "hidden-single-in-a-block",
];

/// Runs a bash command line in `dir`, `$R` being the binary.
fn bash(dir: &Path, line: &str) -> Run {
    let out = Command::new("bash")
        .arg("-c")
        .arg(line)
        .env("R", env!("CARGO_BIN_EXE_ruledoku"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    finish(line, out)
}

/// A temporary folder with `files` (relative path, contents) written in it.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    dir
}

/// The rule names of a `rules list` run, in order.
fn listed(run: &Run) -> Vec<String> {
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    run.stdout
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// `rules check SPEC`'s output and exit status.
fn check(dir: &Path, spec: &str) -> (String, Option<i32>) {
    let run = ruledoku_in(dir, ["rules", "check", spec]);
    (run.stdout, run.code)
}

// ---------------------------------------------------------------------------
// built-in names and paths

#[test]
fn files_named_like_built_in_sets_do_not_shadow_them() {
    let dir = folder(&[("basic", "x\n")]);
    fs::create_dir(dir.path().join("sfin")).unwrap();

    let run = ruledoku_in(dir.path(), ["solve", "--rules", "sfin", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("rule set: sfin (35 rules)\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("rating: FSHT (level 3, hardest rule: finned-swordfish-in-rows)\n"),
        "{}",
        run.stdout
    );

    // The default set is the built-in `basic`, whatever the folder holds.
    let run = ruledoku_in(dir.path(), ["rate", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with(&format!("1 {FSHT} solved FSHT finned-swordfish-in-rows 3 ")),
        "{}",
        run.stdout
    );

    // Spelled as paths they are the files, and refused for what they hold.
    let run = ruledoku_in(dir.path(), ["solve", "--rules", "./sfin", FSHT]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: ./sfin: empty rule set: the folder has no .rules file\n"
    );
    let run = ruledoku_in(dir.path(), ["rate", "--rules", "./basic", FSHT]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: ./basic: not a rule file (no line starts with `rule`) nor a rule set file (no top-level `files:` key)\n"
    );
}

#[test]
fn a_bare_name_is_a_built_in_set_and_a_path_needs_its_spelling() {
    let dir = folder(&[("mine/x.rules", MY_X_WING), ("x.rules", MY_X_WING)]);
    let run = ruledoku_in(dir.path(), ["solve", "--rules", "mine", FSHT]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: unknown rule set `mine` (built-in sets: advanced, advanced-als, advanced-colouring, advanced-single-digit, advanced-uniqueness, b, basic, bc, filter-fast, filter-slow, gb, gbc, gtw, gw, gz, killer-sums, lassos, se, se-chaining, se-corrected, sfin, singles, te, te2, tw, typed, w, w-sfin, w-trid, w-trid-orcw, w-trid-orcw-csp, w-trid-orw, w-trid-orw-csp, w-trid-orw-fw-last, z); \
         to use the path `mine`, write `./mine` (a path has a `/` or an extension)\n"
    );
    let run = ruledoku_in(dir.path(), ["solve", "--rules", "sfn", FSHT]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: unknown rule set `sfn` (built-in sets: advanced, advanced-als, advanced-colouring, advanced-single-digit, advanced-uniqueness, b, basic, bc, filter-fast, filter-slow, gb, gbc, gtw, gw, gz, killer-sums, lassos, se, se-chaining, se-corrected, sfin, singles, te, te2, tw, typed, w, w-sfin, w-trid, w-trid-orcw, w-trid-orcw-csp, w-trid-orw, w-trid-orw-csp, w-trid-orw-fw-last, z); did you mean `sfin`?\n"
    );
    for spec in ["./mine", "mine/", "x.rules", "./x.rules"] {
        let run = ruledoku_in(dir.path(), ["rules", "list", "--rules", spec]);
        assert_eq!(listed(&run), ["my-x-wing-in-rows"], "{spec}");
    }
    let abs = dir.path().join("mine");
    let run = ruledoku_in(
        dir.path(),
        ["rules", "list", "--rules", abs.to_str().unwrap()],
    );
    assert_eq!(listed(&run), ["my-x-wing-in-rows"]);
}

// ---------------------------------------------------------------------------
// empty sets

#[test]
fn empty_files_folders_and_sets_are_refused() {
    let dir = folder(&[
        ("empty.rules", ""),
        ("comments.rules", "# nothing here yet\n# nor here\n"),
        ("none/readme.txt", "no rules\n"),
        ("nothing.yaml", "files: []\n"),
        (
            "all-gone.yaml",
            "files: [singles]\nexclude: [naked-single, hidden-single-in-a-row, hidden-single-in-a-column, hidden-single-in-a-block]\n",
        ),
        (
            "too-low.yaml",
            "files: [sfin]\nmax-level: 0\nexclude: [naked-single, hidden-single-in-a-row, hidden-single-in-a-column, hidden-single-in-a-block]\n",
        ),
    ]);
    let d = dir.path();
    let cases = [
        (
            "empty.rules",
            "empty.rules: empty rule set: the file defines no rule\n",
        ),
        (
            "comments.rules",
            "comments.rules: empty rule set: the file defines no rule\n",
        ),
        (
            "./none",
            "./none: empty rule set: the folder has no .rules file\n",
        ),
        (
            "nothing.yaml",
            "nothing.yaml: empty rule set: `files:` lists nothing\n",
        ),
        (
            "all-gone.yaml",
            "all-gone.yaml: empty rule set: `exclude:` removes all 4 rules\n",
        ),
        (
            "too-low.yaml",
            "too-low.yaml: empty rule set: `max-level: 0` and `exclude:` remove all 35 rules\n",
        ),
    ];
    for (spec, message) in cases {
        assert_eq!(check(d, spec), (message.to_string(), Some(1)), "{spec}");
        for cmd in [
            &["solve", "--rules", spec, FSHT][..],
            &["rate", "--rules", spec, FSHT],
        ] {
            let run = ruledoku_in(d, cmd);
            assert_eq!(run.code, Some(2), "{cmd:?}");
            assert_eq!(run.stderr, format!("error: {message}"), "{cmd:?}");
            assert_eq!(run.stdout, "", "{cmd:?}");
        }
    }
    fs::write(d.join("p.txt"), format!("{FSHT}\n")).unwrap();
    let run = ruledoku_in(d, ["bench", "p.txt", "--rules", "./none"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: ./none: empty rule set: the folder has no .rules file\n"
    );
}

// ---------------------------------------------------------------------------
// special files

#[test]
fn rules_are_read_from_pipes_by_content() {
    let dir = folder(&[("x.rules", MY_X_WING)]);
    let d = dir.path();
    // Process substitution: /dev/fd/N, no extension.
    let run = bash(d, r#"$R rules check <(cat x.rules)"#);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.starts_with("/dev/fd/") && run.stdout.ends_with(": ok, 1 rule\n"),
        "{}",
        run.stdout
    );
    let run = bash(
        d,
        r#"$R solve --rules <(cat x.rules) 'FSHT' | head -1"#
            .replace("FSHT", FSHT)
            .as_str(),
    );
    assert_eq!(run.stdout, format!("{FSHT}\n"), "{}", run.stderr);
    // A set file is told by its top-level `files:` key; paths in a set
    // read from a pipe are relative to the current directory.
    let run = bash(
        d,
        r#"$R rules list --rules <(printf 'files: [singles, x.rules]\n')"#,
    );
    assert_eq!(
        listed(&run)[..],
        [&SINGLES[..], &["my-x-wing-in-rows"]].concat()[..]
    );
    // Neither rules nor a set.
    let run = bash(d, r#"$R rules check <(echo hello)"#);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stdout.ends_with(
            ": not a rule file (no line starts with `rule`) nor a rule set file (no top-level `files:` key)\n"
        ),
        "{}",
        run.stdout
    );
    // /dev/null is a file with nothing in it.
    assert_eq!(
        check(d, "/dev/null"),
        (
            "/dev/null: empty rule set: the file is empty\n".into(),
            Some(1)
        )
    );
}

#[test]
fn rules_are_read_from_a_named_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, MY_X_WING).unwrap())
    };
    let (out, code) = check(dir.path(), "./fifo");
    // Had the binary not read the pipe, the writer would wait forever:
    // read it here to free it (and fail below).
    std::thread::sleep(std::time::Duration::from_millis(200));
    if !writer.is_finished() {
        let _ = fs::read(&fifo);
    }
    writer.join().unwrap();
    assert_eq!((out.as_str(), code), ("./fifo: ok, 1 rule\n", Some(0)));
}

#[test]
fn unreadable_text_is_placed_and_a_byte_order_mark_is_skipped() {
    let dir = folder(&[]);
    let d = dir.path();
    fs::write(d.join("latin1.rules"), b"# caf\xe9\nrule x {\n").unwrap();
    assert_eq!(
        check(d, "latin1.rules"),
        (
            "latin1.rules:1:6: not UTF-8 text (byte 0xe9)\n".into(),
            Some(1)
        )
    );
    fs::write(d.join("bom.rules"), format!("\u{feff}{MY_X_WING}")).unwrap();
    assert_eq!(
        check(d, "bom.rules"),
        ("bom.rules: ok, 1 rule\n".into(), Some(0))
    );
    fs::write(d.join("bom.yaml"), "\u{feff}files: [singles]\n").unwrap();
    assert_eq!(
        check(d, "bom.yaml"),
        ("bom.yaml: ok, 4 rules\n".into(), Some(0))
    );
}

// ---------------------------------------------------------------------------
// composition

#[test]
fn a_user_set_includes_basic_and_excludes_one_rule() {
    let dir = folder(&[(
        "no-xy.yaml",
        "name: no-xy\ndescription: basic without xy-wing\nfiles: [basic]\nexclude: [xy-wing]\n",
    )]);
    let d = dir.path();
    let basic = listed(&ruledoku_in(d, ["rules", "list", "--rules", "basic"]));
    let mine = listed(&ruledoku_in(d, ["rules", "list", "--rules", "no-xy.yaml"]));
    let expected: Vec<String> = basic.iter().filter(|r| *r != "xy-wing").cloned().collect();
    assert_eq!(basic.len(), 57);
    assert_eq!(mine, expected);
    // The rules are the built-in files' ones.
    let run = ruledoku_in(d, ["rules", "list", "--rules", "no-xy.yaml"]);
    assert!(
        run.stdout
            .starts_with("rule set no-xy: basic without xy-wing\n")
    );
    assert!(
        run.stdout
            .lines()
            .nth(2)
            .unwrap()
            .ends_with(" rules/singles.rules:8"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_set_names_sets_folders_and_rule_files() {
    let dir = folder(&[
        ("mine/x.rules", MY_X_WING),
        ("sets/inner.yaml", "files: [singles, ../mine/]\n"),
        (
            "sets/outer.yaml",
            "name: outer\nfiles: [./inner.yaml, ../extra.rules]\n",
        ),
        ("extra.rules", &shipped("wings.rules")),
    ]);
    let run = ruledoku_in(dir.path(), ["rules", "list", "--rules", "sets/outer.yaml"]);
    assert_eq!(
        listed(&run)[..],
        [&SINGLES[..], &["my-x-wing-in-rows", "xy-wing", "xyz-wing"]].concat()[..]
    );
    assert!(
        run.stdout.contains(" sets/../mine/x.rules:3\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(" sets/../extra.rules:8\n"),
        "{}",
        run.stdout
    );
    let run = ruledoku_in(dir.path(), ["solve", "--rules", "sets/outer.yaml", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("rule set: outer (7 rules)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn plus_joins_specs_on_the_command_line() {
    let dir = folder(&[("my-rules/x.rules", MY_X_WING)]);
    let d = dir.path();
    let run = ruledoku_in(d, ["rules", "list", "--rules", "singles+./my-rules/"]);
    assert!(
        run.stdout
            .starts_with("rule set singles+my-rules: the union of singles, my-rules\n"),
        "{}",
        run.stdout
    );
    assert_eq!(
        listed(&run)[..],
        [&SINGLES[..], &["my-x-wing-in-rows"]].concat()[..]
    );
    let run = ruledoku_in(d, ["solve", "--rules", "basic+./my-rules/", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("rule set: basic+my-rules (58 rules)\n"),
        "{}",
        run.stdout
    );
    // A set joined with itself or a part of itself adds nothing.
    assert_eq!(
        check(d, "sfin+singles+sfin"),
        ("sfin+singles+sfin: ok, 35 rules\n".into(), Some(0))
    );
    for (spec, message) in [
        ("basic+", "`basic+`: empty part: `+` joins two rule sets\n"),
        ("+basic", "`+basic`: empty part: `+` joins two rule sets\n"),
        (
            "basic+nope",
            "unknown rule set `nope` (built-in sets: advanced, advanced-als, advanced-colouring, advanced-single-digit, advanced-uniqueness, b, basic, bc, filter-fast, filter-slow, gb, gbc, gtw, gw, gz, killer-sums, lassos, se, se-chaining, se-corrected, sfin, singles, te, te2, tw, typed, w, w-sfin, w-trid, w-trid-orcw, w-trid-orcw-csp, w-trid-orw, w-trid-orw-csp, w-trid-orw-fw-last, z)\n",
        ),
    ] {
        assert_eq!(check(d, spec), (message.to_string(), Some(1)), "{spec}");
    }
    // A path with a `+` in it is reached through a set file.
    fs::write(d.join("c++.rules"), MY_X_WING).unwrap();
    fs::write(d.join("cpp.yaml"), "files: [c++.rules]\n").unwrap();
    assert_eq!(
        check(d, "./c++.rules"),
        (
            "`./c++.rules`: `+` joins rule sets, so this names several; to use a path with a `+` in it, list it under `files:` in a set file\n".into(),
            Some(1)
        )
    );
    assert_eq!(
        check(d, "cpp.yaml"),
        ("cpp.yaml: ok, 1 rule\n".into(), Some(0))
    );
}

#[test]
fn include_cycles_are_named() {
    let dir = folder(&[
        ("a.yaml", "files: [b.yaml]\n"),
        ("b.yaml", "files: [singles, sub/c.yaml]\n"),
        ("sub/c.yaml", "files: [../a.yaml]\n"),
        ("self.yaml", "files: [./self.yaml]\n"),
    ]);
    let d = dir.path();
    assert_eq!(
        check(d, "a.yaml"),
        (
            "include cycle: a.yaml → b.yaml → sub/c.yaml → a.yaml\n".into(),
            Some(1)
        )
    );
    assert_eq!(
        check(d, "self.yaml"),
        ("include cycle: self.yaml → self.yaml\n".into(), Some(1))
    );
    let run = ruledoku_in(d, ["solve", "--rules", "sub/c.yaml", FSHT]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: include cycle: sub/c.yaml → sub/../a.yaml → sub/../b.yaml → sub/c.yaml\n"
    );
}

#[test]
fn the_same_rule_file_reached_twice_is_loaded_once() {
    let dir = folder(&[
        ("x.rules", MY_X_WING),
        ("w.rules", &shipped("wings.rules")),
        ("sub/s.yaml", "files: [../x.rules, ../w.rules]\n"),
        (
            "top.yaml",
            "files: [x.rules, sub/s.yaml, ./sub/../x.rules, singles, sfin]\n",
        ),
    ]);
    let run = ruledoku_in(dir.path(), ["rules", "list", "--rules", "top.yaml"]);
    assert_eq!(
        listed(&run),
        listed(&ruledoku_in(
            dir.path(),
            [
                "rules",
                "list",
                "--rules",
                "./x.rules+./w.rules+singles+sfin"
            ]
        ))
    );
    assert_eq!(
        check(dir.path(), "top.yaml"),
        ("top.yaml: ok, 38 rules\n".into(), Some(0))
    );
}

#[test]
fn a_rule_defined_twice_names_both_places() {
    let dir = folder(&[
        ("a.rules", MY_X_WING),
        ("b/copy.rules", &format!("\n\n{MY_X_WING}")),
        ("twice.rules", &format!("{MY_X_WING}\n{MY_X_WING}")),
        ("both.yaml", "files: [a.rules, b/]\n"),
        ("singles-copy.rules", &shipped("singles.rules")),
    ]);
    let d = dir.path();
    assert_eq!(
        check(d, "twice.rules"),
        (
            "error: rule `my-x-wing-in-rows` is defined twice (first at line 3): give each rule a name of its own\n  --> twice.rules:17:6\n   |\n17 | rule my-x-wing-in-rows {\n   |      ^^^^^^^^^^^^^^^^^\n\n1 error(s)\n"
                .into(),
            Some(1)
        )
    );
    assert_eq!(
        check(d, "both.yaml"),
        (
            "b/copy.rules:5:6: rule `my-x-wing-in-rows` is defined twice (first at a.rules:3:6)\n"
                .into(),
            Some(1)
        )
    );
    assert_eq!(
        check(d, "singles+./singles-copy.rules"),
        (
            "./singles-copy.rules:8:6: rule `naked-single` is defined twice (first at rules/singles.rules:8:6 (built in))\n"
                .into(),
            Some(1)
        )
    );
}

#[test]
fn settings_of_an_included_set_shape_its_part_and_the_includer_shapes_the_union() {
    let dir = folder(&[
        (
            "low.yaml",
            "files: [basic]\nmax-level: 2\nexclude: [x-wing-in-columns]\nratings:\n  whip[1]: { rating: W1, level: 1 }\n",
        ),
        (
            "top-in-sub/top.yaml",
            "files: [../low.yaml, ../x.rules]\nexclude: [naked-single]\n",
        ),
        ("x.rules", MY_X_WING),
        (
            "top-in-sub/t.yaml",
            "files: [../low.yaml, ../x.rules]\nmax-level: 1\n",
        ),
        ("clash.yaml", "files: [low.yaml, singles, whips.yaml]\n"),
        ("whips.yaml", "files: [basic]\nmax-level: 1\n"),
    ]);
    let d = dir.path();
    let low = ruledoku_in(d, ["rules", "list", "--rules", "low.yaml"]);
    let names = listed(&low);
    // basic's rules up to level 2, but not x-wing-in-columns.
    let basic = listed(&ruledoku_in(d, ["rules", "list", "--rules", "basic"]));
    assert!(names.iter().all(|n| basic.contains(n)));
    assert!(names.contains(&"x-wing-in-rows".to_string()));
    assert!(!names.contains(&"x-wing-in-columns".to_string()));
    assert!(!names.contains(&"swordfish-in-rows".to_string()));
    assert!(!names.contains(&"xy-wing".to_string()));
    let whip = low
        .stdout
        .lines()
        .find(|l| l.starts_with("whip[1] "))
        .unwrap();
    assert_eq!(
        whip.split_whitespace().collect::<Vec<_>>()[1..4],
        ["10", "1", "W1"]
    );

    // The includer's exclude applies to the union of its entries.
    let top = listed(&ruledoku_in(
        d,
        ["rules", "list", "--rules", "top-in-sub/top.yaml"],
    ));
    let mut expected: Vec<String> = names
        .iter()
        .filter(|n| *n != "naked-single")
        .cloned()
        .collect();
    expected.push("my-x-wing-in-rows".into());
    let mut sorted_top = top.clone();
    sorted_top.sort();
    expected.sort();
    assert_eq!(sorted_top, expected);

    // Its max-level compares the levels its entries gave (whip[1] re-rated 1).
    let t = ruledoku_in(d, ["rules", "list", "--rules", "top-in-sub/t.yaml"]);
    assert_eq!(listed(&t)[..], [&SINGLES[..], &["whip[1]"]].concat()[..]);

    // Two entries that rate one rule differently cannot both include it.
    assert_eq!(
        check(d, "clash.yaml"),
        (
            "rule `whip[1]` (rules/whips1.rules:10:6 (built in)) is included twice with different ratings: \
             `low` rates it W1 (level 1, complexity 10), `whips` rates it W[1] (level 1, complexity 10); \
             include it through one set only\n"
                .into(),
            Some(1)
        )
    );
}

#[test]
fn misspelled_rule_names_under_exclude_and_ratings_are_errors() {
    let dir = folder(&[
        (
            "typo.yaml",
            "files: [basic]\nexclude: [xy-wing, naked-singel, swordfish]\nratings:\n  whip1: { rating: W1 }\n  xyz-wing: { level: 3 }\n",
        ),
        // A rule an included set excluded may still be named.
        (
            "ok.yaml",
            "files: [no-xy.yaml]\nexclude: [xy-wing]\nratings:\n  xy-wing: { level: 9 }\n",
        ),
        ("no-xy.yaml", "files: [basic]\nexclude: [xy-wing]\n"),
    ]);
    let d = dir.path();
    assert_eq!(
        check(d, "typo.yaml"),
        (
            "typo.yaml: `exclude:` names no rule `naked-singel` (did you mean `naked-single`?)\n\
             typo.yaml: `exclude:` names no rule `swordfish`\n\
             typo.yaml: `ratings:` names no rule `whip1` (did you mean `whip[1]`?)\n"
                .into(),
            Some(1)
        )
    );
    assert_eq!(
        check(d, "ok.yaml"),
        ("ok.yaml: ok, 56 rules\n".into(), Some(0))
    );
}

// ---------------------------------------------------------------------------
// odd set files

#[test]
fn odd_set_files_get_clear_errors() {
    let dir = folder(&[
        ("empty.yaml", ""),
        ("list.yaml", "- singles\n- sfin\n"),
        ("typo.yaml", "files: [singles]\nmax_level: 2\n"),
        ("nofiles.yaml", "name: x\n"),
        ("scalar.yaml", "files: singles\n"),
        ("rules.yaml", MY_X_WING),
        ("no-rules-here/readme.md", "nothing\n"),
        ("emptydir.yaml", "files: [singles, ./no-rules-here]\n"),
        ("baredir.yaml", "files: [singles, no-rules-here]\n"),
        ("tilde.yaml", "files: [~/my.rules]\n"),
        ("missing.yaml", "files: [singles, sub/nope.rules]\n"),
        ("joined.yaml", "files: [singles+sfin]\n"),
        ("nested.yaml", "files: [missing.yaml]\n"),
        ("x.rules", MY_X_WING),
    ]);
    let d = dir.path();
    let cases: &[(&str, &str)] = &[
        (
            "empty.yaml",
            "empty.yaml: invalid rule set: the file is empty: a rule set file is a map with at least a `files:` list",
        ),
        (
            "list.yaml",
            "list.yaml: invalid rule set: a rule set file is a map (`files:`, `name:`, …), not a list: put the list under `files:`",
        ),
        (
            "typo.yaml",
            "typo.yaml: invalid rule set: unknown key `max_level` (did you mean `max-level`?); a set file's keys are name, description, files, max-level, exclude, ratings, rating-type, blocked, strategy, assumes-unique",
        ),
        (
            "nofiles.yaml",
            "nofiles.yaml: invalid rule set: no `files:` list: a set must include something",
        ),
        (
            "scalar.yaml",
            "scalar.yaml: invalid rule set: files: invalid type: string \"singles\", expected a sequence at line 1 column 8",
        ),
        (
            "emptydir.yaml",
            "emptydir.yaml: `files:` entry `./no-rules-here`: ./no-rules-here: empty rule set: the folder has no .rules file",
        ),
        (
            "baredir.yaml",
            "baredir.yaml: `files:` entry `no-rules-here`: unknown rule set `no-rules-here` (built-in sets: advanced, advanced-als, advanced-colouring, advanced-single-digit, advanced-uniqueness, b, basic, bc, filter-fast, filter-slow, gb, gbc, gtw, gw, gz, killer-sums, lassos, se, se-chaining, se-corrected, sfin, singles, te, te2, tw, typed, w, w-sfin, w-trid, w-trid-orcw, w-trid-orcw-csp, w-trid-orw, w-trid-orw-csp, w-trid-orw-fw-last, z); to use the path `no-rules-here`, write `./no-rules-here` (a path has a `/` or an extension)",
        ),
        (
            "tilde.yaml",
            "tilde.yaml: `files:` entry `~/my.rules`: ~/my.rules: no such file or directory (`~` is not expanded here: write the path in full, or relative to the set file)",
        ),
        (
            "missing.yaml",
            "missing.yaml: `files:` entry `sub/nope.rules`: sub/nope.rules: no such file or directory",
        ),
        (
            "joined.yaml",
            "joined.yaml: `files:` entry `singles+sfin`: unknown rule set `singles+sfin` (built-in sets: advanced, advanced-als, advanced-colouring, advanced-single-digit, advanced-uniqueness, b, basic, bc, filter-fast, filter-slow, gb, gbc, gtw, gw, gz, killer-sums, lassos, se, se-chaining, se-corrected, sfin, singles, te, te2, tw, typed, w, w-sfin, w-trid, w-trid-orcw, w-trid-orcw-csp, w-trid-orw, w-trid-orw-csp, w-trid-orw-fw-last, z); `+` joins sets on the command line only: list each under `files:`",
        ),
        (
            "nested.yaml",
            "missing.yaml: `files:` entry `sub/nope.rules`: sub/nope.rules: no such file or directory",
        ),
    ];
    for (spec, message) in cases {
        assert_eq!(check(d, spec), (format!("{message}\n"), Some(1)), "{spec}");
    }
    // A set file with rule text in it is not YAML.
    let (out, code) = check(d, "rules.yaml");
    assert_eq!(code, Some(1));
    assert!(out.starts_with("rules.yaml: invalid rule set: "), "{out}");

    // Absolute paths work, from anywhere.
    let other = folder(&[]);
    let x = d.join("x.rules");
    fs::write(
        other.path().join("abs.yaml"),
        format!("files: [singles, {}]\n", x.display()),
    )
    .unwrap();
    let abs = other.path().join("abs.yaml");
    assert_eq!(
        check(d, abs.to_str().unwrap()),
        (format!("{}: ok, 5 rules\n", abs.display()), Some(0))
    );
}

#[test]
fn includes_nest_at_most_max_depth_deep() {
    let dir = folder(&[("x.rules", MY_X_WING)]);
    let d = dir.path();
    let depth = ruledoku::ruleset::MAX_DEPTH;
    // s0 includes s1 … includes s{n-1}, which includes x.rules.
    let chain = |n: usize| {
        for i in 0..n {
            let next = if i + 1 == n {
                "x.rules".to_string()
            } else {
                format!("s{}.yaml", i + 1)
            };
            fs::write(d.join(format!("s{i}.yaml")), format!("files: [{next}]\n")).unwrap();
        }
    };
    chain(depth - 1);
    assert_eq!(
        check(d, "s0.yaml"),
        ("s0.yaml: ok, 1 rule\n".into(), Some(0))
    );
    chain(depth);
    assert_eq!(
        check(d, "s0.yaml"),
        (
            format!(
                "s{}.yaml: `files:` entry `x.rules`: x.rules: included more than {depth} sets deep\n",
                depth - 1
            ),
            Some(1)
        )
    );
}

#[test]
fn blocked_is_the_including_sets_own() {
    use ruledoku::ruleset;
    let dir = folder(&[
        ("unblocked.yaml", "files: [singles]\nblocked: false\n"),
        ("outer.yaml", "files: [unblocked.yaml]\n"),
        ("outer-unblocked.yaml", "files: [sfin]\nblocked: false\n"),
    ]);
    let at = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    assert!(!ruleset::load(at("unblocked.yaml")).unwrap().blocked);
    assert!(ruleset::load(at("outer.yaml")).unwrap().blocked);
    assert!(!ruleset::load(at("outer-unblocked.yaml")).unwrap().blocked);
    // A `+` join is a set with no settings of its own: blocked.
    let joined = format!("{}+singles", at("unblocked.yaml"));
    assert!(ruleset::load(&joined).unwrap().blocked);
}

/// A set file's `rating-type:` names the ratings of its runs as SudoRules'
/// files do: gW[8] where the hardest step of a `gw` run is a plain whip[8]
/// (cbg-000 line 109), B[5] where a `b` run's is a whip[5] (line 2); a set
/// that includes it, or a union, keeps the hardest step's label. Before,
/// both printed W[…].
#[test]
fn a_rating_type_names_the_ratings_of_a_set() {
    let lines: Vec<&str> = include_str!("data/cbg-000-first1000.txt").lines().collect();
    let rate = |set: &str, line: usize| {
        let puzzle = lines[line - 1].split_whitespace().next().unwrap();
        let r = common::ruledoku(["rate", "--rules", set, puzzle]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout
            .split_whitespace()
            .skip(3)
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(rate("gw", 109), "gW[8] whip[8]");
    assert_eq!(rate("w", 109), "W[9] whip[9]");
    assert_eq!(rate("b", 2), "B[5] whip[5]");
    // A union names nothing: the hardest step's own label.
    assert_eq!(rate("b+basic", 2), "W[5] whip[5]");
    // Singles only keep their label.
    assert_eq!(rate("gw", 1), "HS hidden-single-in-a-row");
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("t.yaml"),
        format!(
            "files: [{}/rules/sets/w.yaml]\nrating-type: T\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    )
    .unwrap();
    let puzzle = lines[1].split_whitespace().next().unwrap();
    let r = ruledoku_in(dir.path(), ["rate", "--rules", "./t.yaml", puzzle]);
    assert_eq!(
        r.stdout.split_whitespace().nth(3),
        Some("T[5]"),
        "{}",
        r.stderr
    );
}
