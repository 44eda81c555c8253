//! End-to-end tests of the `ruledoku` command line around its input and
//! output: option values, worker threads, what may be read as puzzle input,
//! `rate`'s one line per record, `--no-time`, the progress bar on a
//! terminal, reading back a resolution state, and odd inputs and outputs.
//!
//! Every command is run as a child process from the crate root; every run
//! is checked not to have panicked (exit status 101 or a "panicked" message).

use serde_json::Value;
use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::*;

/// cbg-000 line 2: `sfin` and `singles` get stuck on it.
const STUCK: &str =
    "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75";
/// The first 1000 puzzles of cbg-000.
const SAMPLE: &str = "tests/data/cbg-000-first1000.txt";

// ---------------------------------------------------------------------------
// helpers

/// A temporary file holding `text`.
fn temp_file(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    let path = path.to_str().expect("UTF-8 temporary path").to_string();
    (dir, path)
}

/// The first line of a clap usage error (the rest is the usage hint).
fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or_default()
}

/// The lines of `path` from its `Resolution state:` line to the last line of
/// the grid under it (the line before `rating:`).
fn resolution_state(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .skip_while(|l| *l != "Resolution state:")
        .take_while(|l| !l.starts_with("rating:"))
        .collect()
}

// ---------------------------------------------------------------------------
// 1. option values

/// Every bad option value is a usage error naming the option (exit status
/// 2), never a panic: `--max-seconds inf` used to panic in
/// `Duration::from_secs_f64`.
#[test]
fn bad_option_values_are_usage_errors() {
    let seconds = "expected a number of seconds greater than 0 and at most 1000000000";
    let cases: &[(&[&str], &str)] = &[
        (
            &["--max-seconds", "inf"],
            "'inf' for '--max-seconds <SECONDS>'",
        ),
        (
            &["--max-seconds", "NaN"],
            "'NaN' for '--max-seconds <SECONDS>'",
        ),
        (
            &["--max-seconds", "1e20"],
            "'1e20' for '--max-seconds <SECONDS>'",
        ),
        (
            &["--max-seconds", "-1"],
            "'-1' for '--max-seconds <SECONDS>'",
        ),
        (&["--max-seconds=-1"], "'-1' for '--max-seconds <SECONDS>'"),
        (&["--max-seconds", "0"], "'0' for '--max-seconds <SECONDS>'"),
        (
            &["--max-seconds", "-0.5"],
            "'-0.5' for '--max-seconds <SECONDS>'",
        ),
    ];
    for cmd in ["solve", "rate"] {
        for (opts, what) in cases {
            let mut args = vec![cmd];
            args.extend_from_slice(opts);
            args.push(FSHT);
            let run = ruledoku(&args);
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert_eq!(run.stdout, "", "{args:?}");
            assert_eq!(
                first_line(&run.stderr),
                format!("error: invalid value {what}: {seconds}"),
                "{args:?}"
            );
        }
    }
    let cases: &[(&[&str], &str)] = &[
        (
            &["solve", "--max-seconds", "soon", FSHT],
            "'soon' for '--max-seconds <SECONDS>': expected a number of seconds, e.g. 10 or 0.5",
        ),
        (
            &["solve", "--max-steps", "-1", FSHT],
            "'-1' for '--max-steps <N>': expected a whole number, 0 or more",
        ),
        (
            &["rate", "--max-steps", "1.5", FSHT],
            "'1.5' for '--max-steps <N>': expected a whole number, 0 or more",
        ),
        (
            &["rate", "-j", "-2", FSHT],
            "'-2' for '--jobs <N>': expected a whole number, 0 or more",
        ),
        (
            &["rate", "-j", "99999999999999999999999", FSHT],
            "'99999999999999999999999' for '--jobs <N>': expected a whole number from 0 to 18446744073709551615",
        ),
        (
            &["bench", "--limit", "0", SAMPLE],
            "'0' for '--limit <N>': expected a whole number, 1 or more",
        ),
        (
            &["bench", "--limit=-5", SAMPLE],
            "'-5' for '--limit <N>': expected a whole number, 1 or more",
        ),
        (
            &["bench", "--repeat", "0", SAMPLE],
            "'0' for '--repeat <N>': expected a whole number, 1 or more",
        ),
    ];
    for (args, what) in cases {
        let run = ruledoku(*args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert_eq!(
            first_line(&run.stderr),
            format!("error: invalid value {what}"),
            "{args:?}"
        );
    }
}

/// Good values still work: a time limit in range, `--max-steps 0` (the
/// state the puzzle starts from), `bench --limit 1 --repeat 2`.
#[test]
fn good_option_values_run() {
    let run = ruledoku([
        "rate",
        "--no-time",
        "--max-seconds",
        "600",
        "--rules",
        "sfin",
        FSHT,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!("1 {FSHT} solved FSHT finned-swordfish-in-rows 3\n")
    );
    let run = ruledoku(["rate", "--no-time", "--max-steps", "0", FSHT]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout, format!("1 {FSHT} step-limit - - -\n"));
    let run = ruledoku(["bench", "--limit", "1", "--repeat", "2", SAMPLE]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let line = bench_line(run.lines()[0], 1);
    assert_eq!(line.head, "oracle: 1 puzzle (1 unique)");
    assert_eq!(
        line.tail,
        format!(
            "best of 2, one thread, {} oracle",
            ruledoku::oracle::solver::instruction_set()
        )
    );
}

// ---------------------------------------------------------------------------
// 2. worker threads

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// The threads of a running process, from /proc (`None` elsewhere).
fn threads(child: &Child) -> Option<usize> {
    Some(
        fs::read_dir(format!("/proc/{}/task", child.id()))
            .ok()?
            .count(),
    )
}

/// The threads `rate` runs with `args`, counted while it waits for its
/// standard input: the worker pool is built before the input is read.
fn rate_threads(args: &[&str]) -> Option<(usize, String)> {
    let mut all = vec!["rate"];
    all.extend_from_slice(args);
    all.push("-");
    let (mut cmd, shown) = command(&all);
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ruledoku");
    if threads(&child).is_none() {
        drop(child.stdin.take());
        child.wait().expect("wait for ruledoku");
        return None;
    }
    // Wait for the count to settle (the pool starts its threads at once).
    let start = Instant::now();
    let mut last = 0;
    let mut stable = 0;
    while start.elapsed() < Duration::from_secs(20) && stable < 5 {
        std::thread::sleep(Duration::from_millis(50));
        let n = threads(&child).unwrap_or(0);
        stable = if n == last { stable + 1 } else { 0 };
        last = n;
    }
    // End of input: the run ends at once, unless it is still starting threads.
    drop(child.stdin.take());
    let start = Instant::now();
    while child.try_wait().expect("wait for ruledoku").is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("`{shown}` did not end: {last} threads");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("wait for ruledoku");
    let run = finish(&shown, out);
    assert_eq!(run.code, Some(1), "no puzzle on stdin: {}", run.stderr);
    Some((last, run.stderr))
}

/// `-j 100000` used to start 100,000 threads (`-j 10000` took 73 s for 20
/// puzzles): it is capped at the available cores, with a note; `-j 0` is one
/// thread per core.
#[test]
fn jobs_are_capped_at_the_available_cores() {
    let cores = cores();
    let Some((n, stderr)) = rate_threads(&["-j", "100000"]) else {
        eprintln!("skipped: no /proc/PID/task to count threads");
        return;
    };
    // The worker threads, the main thread and the input's reader.
    assert_eq!(n, cores + 2, "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "note: -j 100000 capped at {cores}, the number of available cores\n\
             <stdin>: no puzzle found\n"
        )
    );
    let (n, stderr) = rate_threads(&["-j", "0"]).unwrap();
    assert_eq!(n, cores + 2, "{stderr}");
    assert_eq!(stderr, "<stdin>: no puzzle found\n");
    let (n, _) = rate_threads(&[]).unwrap();
    assert_eq!(
        n, 3,
        "one worker by default (and the main thread and the reader)"
    );

    // The capped run gives the same lines as one thread, quickly.
    let t = Instant::now();
    let many = ruledoku(["rate", "--no-time", "-j", "100000", SAMPLE]);
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    let one = ruledoku(["rate", "--no-time", SAMPLE]);
    assert_eq!((many.code, one.code), (Some(0), Some(0)), "{}", many.stderr);
    assert_eq!(many.stdout, one.stdout);
}

/// `--help` says what `-j 0` means and that `-j` is capped, and what the
/// exit statuses are.
#[test]
fn help_documents_jobs() {
    let run = ruledoku(["--help"]);
    assert!(
        run.stdout.contains(
            "\nExit status (the same for every command): 0 when every input record was read and judged; 1 "
        ),
        "{}",
        run.stdout
    );
    for cmd in ["solve", "rate"] {
        let run = ruledoku([cmd, "--help"]);
        assert_eq!(run.code, Some(0));
        let help = run.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            help.contains(
                "Worker threads (output stays in input order); 0 = one per available core. \
                 More threads than available cores cannot help: -j is capped at their number, \
                 with a note on standard error"
            ),
            "{}",
            run.stdout
        );
        assert!(help.contains("--no-time"), "{}", run.stdout);
    }
}

// ---------------------------------------------------------------------------
// 3. what may be read as puzzle input

/// A named pipe, `/dev/stdin` and `/dev/fd/0` used to be "no such file,
/// and not a puzzle": anything readable is read.
#[test]
fn special_files_are_read_as_puzzle_input() {
    let want = format!("1 {FSHT} solved FSHT finned-swordfish-in-rows 3\n");
    for path in ["/dev/stdin", "/dev/fd/0"] {
        if !Path::new(path).exists() {
            eprintln!("skipped: no {path} here");
            continue;
        }
        let run = ruledoku_stdin(
            ["rate", "--no-time", "--rules", "sfin", path],
            &format!("{FSHT}\n"),
        );
        assert_eq!(run.code, Some(0), "{path}: {}", run.stderr);
        assert_eq!(run.stdout, want, "{path}");
    }

    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("puzzles.fifo");
    match Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {
            let writer = {
                let fifo = fifo.clone();
                std::thread::spawn(move || {
                    // Opening blocks until ruledoku opens the other end.
                    fs::write(fifo, format!("{FSHT}\n")).unwrap();
                })
            };
            let run = ruledoku([
                OsStr::new("rate"),
                OsStr::new("--no-time"),
                OsStr::new("--rules"),
                OsStr::new("sfin"),
                fifo.as_os_str(),
            ]);
            writer.join().unwrap();
            assert_eq!(run.code, Some(0), "{}", run.stderr);
            assert_eq!(run.stdout, want);
        }
        _ => eprintln!("skipped: no mkfifo here"),
    }

    // Bash's process substitution, as a user types it.
    let (_dir, file) = temp_file("p.txt", &format!("{FSHT}\n{MULTIPLE}\n"));
    let script = format!(
        "'{}' rate --no-time --rules sfin <(head -1 '{file}')",
        env!("CARGO_BIN_EXE_ruledoku")
    );
    match Command::new("bash").arg("-c").arg(&script).output() {
        Ok(out) => {
            let run = finish(&script, out);
            assert_eq!(run.code, Some(0), "{}", run.stderr);
            assert_eq!(run.stdout, want);
        }
        Err(_) => eprintln!("skipped: no bash here"),
    }
}

/// A directory used to be "no such file" too.
#[test]
fn a_directory_is_not_puzzle_input() {
    for args in [
        &["check", "tests"][..],
        &["solve", "tests/data"],
        &["rate", "--csv", "tests/"],
        &["bench", "tests"],
    ] {
        let run = ruledoku(args);
        assert_eq!(run.code, Some(2), "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        let dir = args.last().unwrap();
        assert_eq!(run.stderr, format!("error: {dir}: is a directory\n"));
    }
    // An empty argument used to be "error: : no such file, and not a puzzle".
    let run = ruledoku(["solve", ""]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: the input is empty: give a puzzle, a file, or `-` for standard input\n"
    );
    let run = ruledoku(["rate", "no-such-puzzles.txt"]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: no-such-puzzles.txt: no such file, and not a puzzle\n"
    );
}

// ---------------------------------------------------------------------------
// 4. rate: one line per input record, in every format

/// One record of each outcome: solved, several solutions, no solution, a
/// duplicate given, a line of text, stuck (lines 2, 3, 5, 6, 7, 8).
fn mixed_file() -> (tempfile::TempDir, String) {
    temp_file(
        "mixed.txt",
        &format!(
            "# one record of each outcome\n{FSHT}\n{MULTIPLE}\n\n{NO_SOLUTION}\n\
             {DUPLICATE_GIVEN}\nhello, world\n{STUCK}\n"
        ),
    )
}

/// The messages on stderr for `mixed_file`, as before.
fn mixed_messages(file: &str) -> String {
    format!(
        "{file}:3: the puzzle has several solutions\n\
         {file}:5: the puzzle has no solution\n\
         {file}:6:2: digit 1 given twice in row 1 (r1c1, r1c2)\n\
         {file}:7:1: not a puzzle: \"hello, world\"\n"
    )
}

/// `rate`'s text and CSV used to drop invalid records and puzzles without
/// a unique solution: every record has its line now, with its line number
/// first, and says why it was not rated.
#[test]
fn rate_text_has_one_line_per_record() {
    let (_dir, file) = mixed_file();
    let run = ruledoku(["rate", "--no-time", "--rules", "sfin", &file]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, mixed_messages(&file));
    assert_eq!(
        run.lines(),
        [
            format!("2 {FSHT} solved FSHT finned-swordfish-in-rows 3"),
            format!("3 {MULTIPLE} multiple-solutions - - - the puzzle has several solutions"),
            format!("5 {NO_SOLUTION} no-solution - - - the puzzle has no solution"),
            "6 - invalid - - - digit 1 given twice in row 1 (r1c1, r1c2)".to_string(),
            "7 - invalid - - - not a puzzle: \"hello, world\"".to_string(),
            format!("8 {STUCK} stuck - whip[1] -"),
        ]
    );

    // With the time column: a number for rated puzzles, `-` for the others.
    let run = ruledoku(["rate", "--rules", "sfin", &file]);
    let cols: Vec<Vec<&str>> = run.lines().iter().map(|l| l.split(' ').collect()).collect();
    assert_eq!(cols.len(), 6, "{}", run.stdout);
    for c in [&cols[0], &cols[5]] {
        assert_eq!(c.len(), 7, "{c:?}");
        assert!(c[6].parse::<f64>().is_ok(), "{c:?}");
    }
    assert_eq!(
        cols[1][..7],
        ["3", MULTIPLE, "multiple-solutions", "-", "-", "-", "-"]
    );
    assert_eq!(cols[3][..7], ["6", "-", "invalid", "-", "-", "-", "-"]);
}

#[test]
fn rate_csv_has_one_row_per_record() {
    let (_dir, file) = mixed_file();
    let run = ruledoku(["rate", "--csv", "--no-time", "--rules", "sfin", &file]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, mixed_messages(&file));
    assert_eq!(
        run.lines(),
        [
            "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,error"
                .to_string(),
            format!("2,{FSHT},true,solved,FSHT,3,finned-swordfish-in-rows,58,0,"),
            format!("3,{MULTIPLE},false,multiple-solutions,,,,,,the puzzle has several solutions"),
            format!("5,{NO_SOLUTION},false,no-solution,,,,,,the puzzle has no solution"),
            "6,,false,invalid,,,,,,\"digit 1 given twice in row 1 (r1c1, r1c2)\"".to_string(),
            "7,,false,invalid,,,,,,\"not a puzzle: \"\"hello, world\"\"\"".to_string(),
            format!("8,{STUCK},false,stuck,,,whip[1],12,50,"),
        ]
    );

    // With the seconds column: empty for records not rated.
    let run = ruledoku(["rate", "--csv", "--rules", "sfin", &file]);
    let lines = run.lines();
    assert_eq!(
        lines[0],
        "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,seconds,error"
    );
    let solved: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(solved.len(), 11, "{solved:?}");
    assert!(solved[9].parse::<f64>().is_ok(), "{solved:?}");
    assert_eq!(solved[10], "");
    assert_eq!(
        lines[3],
        format!("5,{NO_SOLUTION},false,no-solution,,,,,,,the puzzle has no solution")
    );
}

#[test]
fn rate_json_has_one_object_per_record() {
    let (_dir, file) = mixed_file();
    let run = ruledoku(["rate", "--json", "--no-time", "--rules", "sfin", &file]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, mixed_messages(&file));
    let objects: Vec<Value> = run
        .lines()
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary: Vec<(u64, &str, bool)> = objects
        .iter()
        .map(|o| {
            (
                o["line"].as_u64().unwrap(),
                o["stop"].as_str().unwrap(),
                o["solved"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (2, "solved", true),
            (3, "multiple-solutions", false),
            (5, "no-solution", false),
            (6, "invalid", false),
            (7, "invalid", false),
            (8, "stuck", false),
        ]
    );
    assert_eq!(
        objects[3],
        serde_json::json!({"line": 6, "puzzle": null, "solved": false, "stop": "invalid",
            "error": "digit 1 given twice in row 1 (r1c1, r1c2)"})
    );
    assert_eq!(
        objects[1],
        serde_json::json!({"line": 3, "puzzle": MULTIPLE, "solved": false,
            "stop": "multiple-solutions", "error": "the puzzle has several solutions"})
    );
}

/// A record's line is the line it starts on: the first line of a grid even
/// when the error is further down.
#[test]
fn rate_numbers_a_grid_by_its_first_line() {
    let mut grid: Vec<String> = (0..9).map(|r| FSHT[r * 9..r * 9 + 9].to_string()).collect();
    grid[4].replace_range(4..5, "x");
    let text = format!("# a grid\n\n{}\n{FSHT}\n", grid.join("\n"));
    let run = ruledoku_stdin(["rate", "--no-time", "--rules", "sfin", "-"], &text);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        "<stdin>:7:5: bad character 'x' (expected 1-9, '.' or '0')\n"
    );
    assert_eq!(
        run.lines(),
        [
            "3 - invalid - - - bad character 'x' (expected 1-9, '.' or '0')".to_string(),
            format!("12 {FSHT} solved FSHT finned-swordfish-in-rows 3"),
        ]
    );
}

// ---------------------------------------------------------------------------
// 5. --no-time

/// Two runs give the same bytes with `--no-time`, in every format, with
/// and without `--stats`.
#[test]
fn no_time_outputs_can_be_diffed() {
    let (_dir, file) = mixed_file();
    for args in [
        &["solve"][..],
        &["solve", "--json"],
        &["solve", "--stats"],
        &["solve", "--json", "--stats"],
        &["rate"],
        &["rate", "--csv"],
        &["rate", "--json", "--stats"],
        &["rate", "--stats", "-j", "2"],
    ] {
        let mut all = args.to_vec();
        all.extend(["--no-time", "--rules", "sfin", &file]);
        let a = ruledoku(&all);
        let b = ruledoku(&all);
        assert_eq!(a.code, Some(1), "{all:?}: {}", a.stderr);
        assert_eq!(a.stdout, b.stdout, "{all:?}");
        assert_eq!(a.stderr, b.stderr, "{all:?}");
        assert!(!a.stdout.contains("seconds"), "{all:?}: {}", a.stdout);
        assert!(!a.stderr.contains("seconds"), "{all:?}: {}", a.stderr);
        assert!(!a.stdout.contains("\"time\""), "{all:?}: {}", a.stdout);
    }
}

/// What `--no-time` leaves out, exactly.
#[test]
fn no_time_leaves_out_the_timings() {
    let timed = ruledoku(["solve", "--stats", "--rules", "singles", STUCK]);
    let plain = ruledoku(["solve", "--stats", "--no-time", "--rules", "singles", STUCK]);
    assert_eq!((timed.code, plain.code), (Some(0), Some(0)));
    // The `seconds:` line goes, and the stats table's seconds column.
    let at = timed
        .lines()
        .iter()
        .position(|l| l.starts_with("seconds: "))
        .expect("a seconds line");
    assert_eq!(timed.lines()[..at], plain.lines()[..at]);
    assert_eq!(
        plain.lines()[at..],
        [
            "rule                                    calls        nodes   steps conclusions",
            // Nodes are the variables the generator visits (the singles
            // run as count heads: every live variable of the space).
            "naked-single                                8          395       1           1",
            "hidden-single-in-a-row                      7          356       2           2",
            "hidden-single-in-a-column                   5          239       4           4",
            "hidden-single-in-a-block                    1           50       0           0",
            "total                                      21         1040       7           7",
        ]
    );
    assert_eq!(
        timed.lines()[at + 1],
        "rule                                    calls        nodes    seconds   steps conclusions"
    );

    let json = ruledoku([
        "solve",
        "--json",
        "--stats",
        "--no-time",
        "--rules",
        "singles",
        STUCK,
    ]);
    let o: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert!(o.get("seconds").is_none(), "{o}");
    assert_eq!(
        o["stats"]["naked-single"],
        serde_json::json!({"calls": 8, "nodes": 395, "steps": 1, "conclusions": 1})
    );
    let json = ruledoku(["solve", "--json", "--stats", "--rules", "singles", STUCK]);
    let o: Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert!(o["seconds"].as_f64().is_some(), "{o}");
    assert!(o["stats"]["naked-single"]["time"].as_f64().is_some(), "{o}");
}

// ---------------------------------------------------------------------------
// 6. the progress bar on a terminal

/// The text a terminal shows after `raw` (what a program wrote to it):
/// enough of a VT100 for indicatif's bar (carriage return, line feed,
/// erase in line, cursor up/down); other escape sequences are skipped.
fn screen(raw: &str) -> Vec<String> {
    let mut rows: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                if rows.len() <= row {
                    rows.push(Vec::new());
                }
            }
            '\x1b' => {
                if chars.peek() != Some(&'[') {
                    chars.next();
                    continue;
                }
                chars.next();
                let mut param = String::new();
                let mut fin = ' ';
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() || c == '~' {
                        fin = c;
                        break;
                    }
                    param.push(c);
                }
                let n: usize = param.parse().unwrap_or(0);
                let line = &mut rows[row];
                match fin {
                    'K' if n == 2 => line.clear(),
                    'K' if n == 1 => line.iter_mut().take(col + 1).for_each(|x| *x = ' '),
                    'K' => line.truncate(col),
                    'A' => row = row.saturating_sub(n.max(1)),
                    'B' => {
                        row += n.max(1);
                        while rows.len() <= row {
                            rows.push(Vec::new());
                        }
                    }
                    'G' => col = n.saturating_sub(1),
                    _ => {}
                }
            }
            c => {
                let line = &mut rows[row];
                while line.len() < col {
                    line.push(' ');
                }
                if col < line.len() {
                    line[col] = c;
                } else {
                    line.push(c);
                }
                col += 1;
            }
        }
    }
    let mut out: Vec<String> = rows
        .iter()
        .map(|r| r.iter().collect::<String>().trim_end().to_string())
        .collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// With stdout and stderr on the same terminal, the spinner used to stay
/// in front of each result line ("⠁ 1 puzzles 2,542/s 00:00:00  1 ….. solved").
/// Run under `script`, which gives the program a terminal: what the
/// terminal shows in the end is exactly the result lines.
#[test]
fn the_progress_bar_never_overlaps_results_on_a_terminal() {
    let (_dir, file) = temp_file(
        "thirty.txt",
        &fs::read_to_string(root().join(SAMPLE))
            .unwrap()
            .lines()
            .take(30)
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    );
    let want = ruledoku(["rate", "--no-time", "--rules", "sfin", &file]);
    assert_eq!(want.code, Some(0), "{}", want.stderr);
    let cmd = format!(
        "'{}' rate --no-time --rules sfin '{file}'",
        env!("CARGO_BIN_EXE_ruledoku")
    );
    let out = match Command::new("script")
        .args(["-q", "-e", "-c", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
    {
        Ok(out) if out.status.success() => out,
        other => {
            eprintln!("skipped: `script` cannot give a terminal here: {other:?}");
            return;
        }
    };
    let raw = String::from_utf8_lossy(&out.stdout);
    assert!(
        raw.contains(" 1 puzzles "),
        "the bar was drawn (else this test proves nothing): {raw:?}"
    );
    assert_eq!(screen(&raw), want.lines(), "{raw:?}");
}

#[test]
fn screen_emulation_is_faithful_enough() {
    assert_eq!(screen("ab\r\x1b[2Kcd\r\nef"), ["cd", "ef"]);
    assert_eq!(
        screen("spinner 1 puzzles  result\r\n"),
        ["spinner 1 puzzles  result"]
    );
    assert_eq!(screen("abc\r\x1b[Kx\r\n\x1b[1Ay"), ["y"]);
}

// ---------------------------------------------------------------------------
// 7. reading back a resolution state

/// `solve` prints `Resolution state:` and the grid it got stuck on; a user
/// pastes both to resume. The label line used to be "not a puzzle".
#[test]
fn solve_reads_back_its_own_resolution_state() {
    let first = ruledoku(["solve", "--no-time", "--rules", "singles", STUCK]);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    let state = resolution_state(&first.stdout);
    assert_eq!(state.len(), 14, "{}", first.stdout);
    let pasted = state.join("\n") + "\n";

    let again = ruledoku_stdin(["solve", "--no-time", "--rules", "singles", "-"], &pasted);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert_eq!(again.stderr, "");
    // The same state: singles alone get no further.
    assert_eq!(resolution_state(&again.stdout), state);
    let puzzle = again.lines()[0];
    assert_eq!(puzzle.len(), 729, "a pencil-mark line: {puzzle}");

    // The whole output piped back: every other line is reported, the state
    // is read.
    let whole = ruledoku_stdin(
        ["solve", "--no-time", "--rules", "singles", "-"],
        &first.stdout,
    );
    assert_eq!(whole.code, Some(1));
    assert_eq!(resolution_state(&whole.stdout), state);
    assert!(
        !whole.stderr.contains("Resolution state"),
        "{}",
        whole.stderr
    );
    assert_eq!(
        whole.stderr.lines().next(),
        Some("<stdin>:2:1: not a puzzle: \"rule set: singles (4 rules)\"")
    );
    assert!(
        whole.stderr.ends_with(
            "<stdin>:25:1: not a puzzle: \"rating: none (not solved by singles; har...\"\n"
        ),
        "{}",
        whole.stderr
    );

    // `rate` reads it as well, numbered by its label's line.
    let rate = ruledoku_stdin(["rate", "--no-time", "--rules", "singles", "-"], &pasted);
    assert_eq!(rate.code, Some(0), "{}", rate.stderr);
    assert!(
        rate.stdout.starts_with(&format!("1 {puzzle} stuck ")),
        "{}",
        rate.stdout
    );
}

// ---------------------------------------------------------------------------
// 9. odd inputs and outputs

/// An input without any puzzle used to give no output and status 0 with
/// `solve` and `rate`: it is said on stderr, status 1.
#[test]
fn input_without_puzzles_is_reported() {
    let (_dir, empty) = temp_file("empty.txt", "");
    let (_dir2, comments) = temp_file("comments.txt", "# only\n\n   # comments\n");
    for file in [empty.as_str(), comments.as_str(), "/dev/null"] {
        for (args, stdout) in [
            (&["solve"][..], String::new()),
            (&["rate"], String::new()),
            (&["rate", "--json"], String::new()),
            (
                &["rate", "--csv"],
                "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,seconds,error\n"
                    .to_string(),
            ),
            (
                &["check"],
                "0 puzzles: 0 unique, 0 multiple, 0 no solution; 0 invalid lines\n".to_string(),
            ),
        ] {
            let mut all = args.to_vec();
            all.push(file);
            let run = ruledoku(&all);
            assert_eq!(run.code, Some(1), "{all:?}");
            assert_eq!(run.stdout, stdout, "{all:?}");
            assert_eq!(run.stderr, format!("{file}: no puzzle found\n"), "{all:?}");
        }
        let run = ruledoku(["bench", file]);
        assert_eq!(run.code, Some(1));
        assert_eq!(run.stderr, format!("{file}: no puzzle found\n"));
    }
    let run = ruledoku_stdin(["rate", "-"], "");
    assert_eq!(run.code, Some(1));
    assert_eq!(run.stderr, "<stdin>: no puzzle found\n");
}

/// Binary garbage and a huge line: one message per record, no panic, and
/// a line longer than 1 MiB is not kept whole.
#[test]
fn garbage_and_huge_lines_are_reported() {
    // 4 KiB of bytes of every value but line breaks, then a puzzle.
    let mut garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .map(|b| if b == b'\n' || b == b'\r' { 0 } else { b })
        .collect();
    garbage.extend_from_slice(format!("\n{FSHT}\n").as_bytes());
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("garbage.bin");
    fs::write(&bin, &garbage).unwrap();
    let run = ruledoku([
        OsStr::new("rate"),
        OsStr::new("--no-time"),
        OsStr::new("--rules"),
        OsStr::new("sfin"),
        bin.as_os_str(),
    ]);
    assert_eq!(run.code, Some(1));
    let lines = run.lines();
    assert_eq!(lines.len(), 2, "{}", run.stdout);
    assert!(lines[0].starts_with("1 - invalid - - - "), "{}", lines[0]);
    assert_eq!(
        lines[1],
        format!("2 {FSHT} solved FSHT finned-swordfish-in-rows 3")
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(&format!("{}:1:", bin.display())),
        "{}",
        run.stderr
    );

    let huge = format!("{}\n{FSHT}\n", "1".repeat(3 << 20));
    let (_d, file) = temp_file("huge.txt", &huge);
    let run = ruledoku(["rate", "--no-time", "--rules", "sfin", &file]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        format!("{file}:1: line longer than 1048576 bytes: not a puzzle\n")
    );
    assert_eq!(
        run.lines(),
        [
            "1 - invalid - - - line longer than 1048576 bytes: not a puzzle".to_string(),
            format!("2 {FSHT} solved FSHT finned-swordfish-in-rows 3"),
        ]
    );
}

/// A read error is no record: it used to give a line `1 - invalid - - - -
/// read error: …` and status 1; it ends the run, status 2.
#[test]
fn a_read_error_ends_the_run() {
    // Reading a process's memory at offset 0 fails with EIO.
    let mem = "/proc/self/mem";
    if !Path::new(mem).exists() {
        eprintln!("skipped: no {mem} here");
        return;
    }
    for args in [
        &["check", mem][..],
        &["solve", mem],
        &["rate", "--csv", mem],
        &["bench", mem],
    ] {
        let run = ruledoku(args);
        assert_eq!(run.code, Some(2), "{args:?}");
        let header = if args[1] == "--csv" {
            "line,puzzle,solved,stop,rating,level,hardest_rule,steps,values_missing,seconds,error\n"
        } else {
            ""
        };
        assert_eq!(run.stdout, header, "{args:?}");
        assert_eq!(
            run.stderr,
            format!("error: {mem}:1: read error: Input/output error (os error 5)\n"),
            "{args:?}"
        );
    }
}

/// A full disk used to be ignored (status 0 and the output lost): it is an
/// error now, status 2.
#[test]
fn a_write_error_on_stdout_is_reported() {
    let Ok(full) = fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full here");
        return;
    };
    for args in [
        &["solve", FSHT][..],
        &["rate", SAMPLE],
        &["rate", "--csv", "-j", "2", SAMPLE],
        &["check", SAMPLE],
        &["rules", "list"],
        &["rules", "check", "rules"],
        &["bench", "--limit", "5", SAMPLE],
    ] {
        let (mut cmd, shown) = command(args);
        let out = cmd
            .stdin(Stdio::null())
            .stdout(full.try_clone().unwrap())
            .output()
            .expect("run ruledoku");
        let run = finish(&shown, out);
        assert_eq!(run.code, Some(2), "{args:?}");
        assert_eq!(
            run.stderr, "error: standard output: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}

/// Standard output closed by its reader (`| head -1`): a quiet stop,
/// status 3 (the output is truncated).
#[test]
fn a_closed_stdout_stops_quietly() {
    for args in [
        &["rate", SAMPLE][..],
        &["solve", SAMPLE],
        &["check", SAMPLE],
        &["filter", SAMPLE],
        &["rules", "list"],
    ] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let (mut cmd, shown) = command(args);
        let out = cmd
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("run ruledoku");
        let run = finish(&shown, out);
        assert_eq!(run.code, Some(3), "{args:?}");
        assert_eq!(run.stderr, "", "{args:?}");
    }
}

/// `--json` and `--csv` together are a usage error.
#[test]
fn json_and_csv_conflict() {
    let run = ruledoku(["rate", "--json", "--csv", FSHT]);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        first_line(&run.stderr),
        "error: the argument '--json' cannot be used with '--csv'"
    );
}

/// The first line `r` gives within `secs` seconds (read on a thread of its
/// own, so that a command that hangs fails the test instead).
fn first_line_within(
    r: impl std::io::Read + Send + 'static,
    secs: u64,
) -> Result<String, std::sync::mpsc::RecvTimeoutError> {
    use std::io::{BufRead, BufReader};
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(r).read_line(&mut line);
        let _ = tx.send(line);
    });
    rx.recv_timeout(Duration::from_secs(secs))
}

/// Runs `ruledoku ARGS` with `lines` written on a standard input that stays
/// open, and returns the first line of its output within `secs` seconds
/// (then ends the command).
fn first_line_from_open_pipe(
    args: &[&str],
    lines: &[&str],
    secs: u64,
) -> Result<String, std::sync::mpsc::RecvTimeoutError> {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ruledoku"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    stdin.flush().unwrap();
    let got = first_line_within(child.stdout.take().unwrap(), secs);
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    got
}

/// Piped batch output streams: a line that took a while is written at once,
/// not held in a buffer (or a chunk of 256 records for the worker threads)
/// until the batch ends. Here standard input stays open after two puzzles
/// (as in `tail -f puzzles | ruledoku rate --se -`); each (hard-972 line 1)
/// is stopped by `--max-seconds 0.5`, and the first line must reach the
/// pipe while the command still waits for more input, on one thread and
/// on two.
#[test]
fn a_slow_puzzles_line_reaches_the_pipe_at_once() {
    let hard = "........1.....2.34.35.......62......7.3.25..885...67...7853....32..68...5.62.7.8.";
    for jobs in ["1", "2"] {
        let args = ["rate", "--se", "--max-seconds", "0.5", "-j", jobs, "-"];
        let line = first_line_from_open_pipe(&args, &[hard, hard], 60)
            .unwrap_or_else(|_| panic!("-j {jobs}: no line within 60 s"));
        assert!(
            line.starts_with("........1.....2.34.35") && line.contains('+'),
            "-j {jobs}: {line}"
        );
    }
}

/// A batch takes the records that have arrived without waiting for more:
/// one puzzle on a standard input that stays open gets its line at once
/// with two worker threads too (the records are read on a thread of their
/// own), for `rate` and for `filter`.
#[test]
fn one_record_on_an_open_pipe_is_answered_at_once() {
    let easy = "...456..9..6.......891..45.2.........7..9.....35......397...5.......4.72.....5361";
    for args in [["rate", "-j", "2", "-"], ["filter", "-j", "2", "-"]] {
        let line = first_line_from_open_pipe(&args, &[easy], 30)
            .unwrap_or_else(|_| panic!("{args:?}: no line within 30 s"));
        assert!(line.starts_with("1 ...456..9"), "{args:?}: {line}");
    }
}

/// An endless line (`/dev/zero`) is reported as soon as it is too long,
/// by the batch commands that run records on worker threads too.
#[test]
fn an_endless_line_is_reported_at_once_by_every_batch() {
    for cmd in [
        &["rate", "-j", "2"][..],
        &["filter", "-j", "2"],
        &["classify", "--rules", "singles", "-j", "2"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ruledoku"))
            .args(cmd)
            .arg("/dev/zero")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let got = first_line_within(child.stderr.take().unwrap(), 30);
        let _ = child.kill();
        let _ = child.wait();
        let line = got.unwrap_or_else(|_| panic!("{cmd:?}: no message within 30 s"));
        assert_eq!(
            line, "/dev/zero:1: line longer than 1048576 bytes: not a puzzle\n",
            "{cmd:?}"
        );
    }
}
