//! Helpers shared by the test crates (each test file mounts them with
//! `mod common;`): where the test data and the shipped rules are, sample
//! puzzles, running the `ruledoku` binary with arguments (and standard
//! input) and failing the test at once if it was killed or panicked, and
//! the errors of a rule text. `matches` lists a searcher's matches;
//! `pixels` reads pictures back as pixels;
//! `se_steps` reads Sudoku Explainer's transcribed steps.

#![allow(dead_code)] // each test crate uses its own part of these helpers

pub mod matches;
pub mod pixels;
pub mod se_steps;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// SudoRules rates it FSHT (subsets-S3-FSHTrow-SE8.sdk.txt).
pub const FSHT: &str =
    ".2.1.3.9..8.4.9.6...........6..1..3...8.3.1..2.......5..56.84...42...65.81.7.5.29";
/// FSHT with its last two givens removed: several solutions.
pub const MULTIPLE: &str =
    ".2.1.3.9..8.4.9.6...........6..1..3...8.3.1..2.......5..56.84...42...65.81.7.5...";
/// Consistent givens (no digit twice in a house) but no solution: r1c9 can
/// hold no digit (1-8 in its row, 9 in its block).
pub const NO_SOLUTION: &str =
    "12345678.........9...............................................................";
/// Contradictory givens: digit 1 twice in row 1.
pub const DUPLICATE_GIVEN: &str =
    "11...............................................................................";

/// A concrete x-wing in rows, written by a user (cf. `{FISH}-in-{LS}` in
/// rules/subsets.rules); its name is on line 3.
pub const MY_X_WING: &str = r#"/// X-wing in rows: two rows in which digit X lies within two columns;
/// X can be nowhere else in those columns.
rule my-x-wing-in-rows {
    complexity 202
    level 2
    rating "SHP"
    let X: digit
    let B: 2 row in houses(row, cands(X))
    let C = houses(column, cands(X) & cands(B))
    where |C| == 2
    eliminate cands(X) & cands(C) - cands(B)
    show "${X}${B}${C}"
}
"#;

/// The crate root (where `tests/data/` and `rules/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The file `name` of `tests/data/`.
pub fn data(name: &str) -> PathBuf {
    root().join("tests/data").join(name)
}

/// The file or folder `name` of the data shared with the other projects
/// (`../shared/data/`, or the folder the `RULEDOKU_DATA` environment
/// variable names: the whole cbg-000 collection and its ratings), which
/// only the `--ignored` tests and a few optional checks read.
pub fn shared_data(name: &str) -> PathBuf {
    std::env::var_os("RULEDOKU_DATA")
        .map_or_else(|| root().join("../shared/data"), PathBuf::from)
        .join(name)
}

/// The text of the shipped rule file `file` (a path under `rules/`).
pub fn shipped(file: &str) -> String {
    let path = root().join("rules").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first 1,000 puzzles of cbg-000, one line each (`tests/data/`).
pub const CBG_SAMPLE: &str = "cbg-000-first1000.txt";

/// The first `n` lines of [`CBG_SAMPLE`], each ended by a newline: the
/// standard input of a command run on the first `n` puzzles.
pub fn cbg_input(n: usize) -> String {
    let path = data(CBG_SAMPLE);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().take(n).collect();
    assert_eq!(lines.len(), n, "{} has fewer lines", path.display());
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// What one run of the binary gave.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    pub fn has_line(&self, line: &str) -> bool {
        self.stdout.lines().any(|l| l == line)
    }
}

/// The binary with `args`, run from the crate root, and how to show it.
pub fn command<I, S>(args: I) -> (Command, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ruledoku"));
    cmd.current_dir(root());
    let mut shown = String::from("ruledoku");
    for a in args {
        shown.push(' ');
        shown.push_str(&a.as_ref().to_string_lossy());
        cmd.arg(a);
    }
    (cmd, shown)
}

/// The run's output; a run killed by a signal or that panicked fails the
/// test here.
pub fn finish(shown: &str, out: std::process::Output) -> Run {
    let run = Run {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    assert!(
        run.code.is_some(),
        "`{shown}` was killed by a signal\nstderr:\n{}",
        run.stderr
    );
    assert!(
        run.code != Some(101) && !run.stderr.contains("panicked"),
        "`{shown}` panicked\nstdout:\n{}\nstderr:\n{}",
        run.stdout,
        run.stderr
    );
    run
}

/// Runs the binary from the crate root with no standard input.
pub fn ruledoku<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    ruledoku_in(&root(), args)
}

/// Runs the binary from the folder `dir` with no standard input.
pub fn ruledoku_in<I, S>(dir: &Path, args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let (mut cmd, shown) = command(args);
    let out = cmd
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run the ruledoku binary");
    finish(&shown, out)
}

/// Runs the binary with `input` on its standard input.
pub fn ruledoku_stdin<I, S>(args: I, input: &str) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let (mut cmd, shown) = command(args);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the ruledoku binary");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    // Written from a thread: the child may fill its stdout pipe first.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for ruledoku");
    writer.join().unwrap();
    finish(&shown, out)
}

/// The messages of a rule text that does not compile, with line and column.
pub fn errors(src: &str) -> Vec<(usize, usize, String)> {
    match ruledoku::lang::compile_source("t.rules", src) {
        Ok(r) => panic!("compiled {} rule(s), expected errors", r.len()),
        Err(es) => es
            .into_iter()
            .map(|d| (d.line, d.column, d.message))
            .collect(),
    }
}

/// The parts of a `bench` line, `HEAD in C s CPU, W s wall: R puzzles per
/// CPU-second (TAIL)`, its shape checked (seconds with three decimals, a
/// rate that is the puzzles over the CPU seconds).
pub struct BenchLine {
    pub head: String,
    pub cpu: f64,
    pub wall: f64,
    pub rate: f64,
    pub tail: String,
}

/// Reads a `bench` line; panics when it is not of that shape. `puzzles` is
/// the number of puzzles the line counts.
pub fn bench_line(line: &str, puzzles: usize) -> BenchLine {
    fn bad<T>(line: &str) -> T {
        panic!("not a bench line: {line:?}")
    }
    let (head, rest) = line.split_once(" in ").unwrap_or_else(|| bad(line));
    let (cpu, rest) = rest.split_once(" s CPU, ").unwrap_or_else(|| bad(line));
    let (wall, rest) = rest.split_once(" s wall: ").unwrap_or_else(|| bad(line));
    let (rate, rest) = rest
        .split_once(" puzzles per CPU-second (")
        .unwrap_or_else(|| bad(line));
    let tail = rest.strip_suffix(')').unwrap_or_else(|| bad(line));
    let seconds = |s: &str| -> f64 {
        let (_, decimals) = s.split_once('.').unwrap_or_else(|| bad(line));
        assert_eq!(decimals.len(), 3, "{line:?}");
        s.parse().unwrap_or_else(|_| bad(line))
    };
    let (cpu, wall) = (seconds(cpu), seconds(wall));
    let rate: f64 = rate.parse().unwrap_or_else(|_| bad(line));
    assert!(rate > 0.0 && rate.is_finite(), "{line:?}");
    // The rate is computed from the unrounded CPU time: check it when the
    // rounding is small.
    if cpu >= 0.05 {
        let expected = puzzles as f64 / cpu;
        assert!((rate / expected - 1.0).abs() < 0.05, "{line:?}");
    }
    BenchLine {
        head: head.to_string(),
        cpu,
        wall,
        rate,
        tail: tail.to_string(),
    }
}
