//! The `generate` command: reproducible random minimal puzzles.

mod common;
use common::{ruledoku, ruledoku_stdin};

/// The first puzzles of seed 1, pinned: a change of the generator (or of
/// the random number generator under it) changes every collection users
/// made with a seed, and must be seen.
#[test]
fn seed_one_makes_these_puzzles() {
    let run = ruledoku([
        "generate",
        "--seed",
        "1",
        "-n",
        "3",
        "--solution",
        "-j",
        "2",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.lines(),
        [
            "9...8..1.....1.4....135...6.16......5.....8...7.4.2...7.......368.5....9....935.. \
             967284315358716492421359786216875934534961827879432651795148263683527149142693578",
            ".2..14...8.1..57.....7....6..8..13......9...7.65....4..........27....96......2..1 \
             627814539891365724453729816748651392312498657965237148189546273274183965536972481",
            ".8.1....9....9...3..6.8.....6...8....5147.96.......45.3..6.72..8...............3. \
             783125649542796813196384572467958321251473968938261457319647285874532196625819734",
        ]
    );
    // No seed message when the seed is given.
    assert_eq!(run.stderr, "");
}

/// `--start K -n M` is the slice K..K+M of a longer run, whatever the
/// threads; the oracle finds each puzzle unique.
#[test]
fn slices_are_parts_of_the_whole_run() {
    let whole = ruledoku(["generate", "--seed", "42", "-n", "300", "-j", "1"]);
    let tail = ruledoku([
        "generate", "--seed", "42", "--start", "280", "-n", "20", "-j", "2",
    ]);
    assert_eq!(whole.code, Some(0));
    assert_eq!(whole.lines().len(), 300);
    assert_eq!(tail.lines(), whole.lines()[280..]);
    let checked = ruledoku_stdin(["check", "-"], &whole.stdout);
    assert_eq!(checked.code, Some(0), "{}", checked.stderr);
    let unique = checked
        .lines()
        .iter()
        .filter(|l| l.ends_with(" unique"))
        .count();
    assert_eq!(unique, 300, "{}", checked.stdout);
}

/// JSON and CSV carry index, seed, puzzle, solution and clue count.
#[test]
fn json_and_csv_forms() {
    let csv = ruledoku([
        "generate", "--seed", "1", "--start", "1", "-n", "1", "--csv",
    ]);
    assert_eq!(
        csv.lines(),
        [
            "index,seed,puzzle,solution,clues",
            "1,1,.2..14...8.1..57.....7....6..8..13......9...7.65....4..........27....96......2..1,\
             627814539891365724453729816748651392312498657965237148189546273274183965536972481,23",
        ]
    );
    let json = ruledoku(["generate", "--seed", "1", "-n", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(json.lines()[0]).expect("JSON");
    assert_eq!(v["index"], 0);
    assert_eq!(v["seed"], 1);
    assert_eq!(v["clues"], 25);
    assert_eq!(
        v["puzzle"],
        "9...8..1.....1.4....135...6.16......5.....8...7.4.2...7.......368.5....9....935.."
    );
}

/// Without a seed, the one chosen is printed so the run can be made again.
#[test]
fn the_chosen_seed_is_printed() {
    let run = ruledoku(["generate", "-n", "2"]);
    assert_eq!(run.code, Some(0));
    let seed = run
        .stderr
        .strip_prefix("generate: seed ")
        .and_then(|s| s.trim().parse::<u64>().ok())
        .expect("the seed on standard error");
    let again = ruledoku(["generate", "--seed", &seed.to_string(), "-n", "2"]);
    assert_eq!(again.stdout, run.stdout);
}

/// Bad options: a clear message, status 2, nothing on standard output.
#[test]
fn bad_options_are_refused() {
    for (args, message) in [
        (vec!["-n", "0"], "expected a whole number, 1 or more"),
        (
            vec!["--seed", "-1"],
            "expected a whole number from 0 to 18446744073709551615",
        ),
        (
            vec!["--seed", "1e3"],
            "expected a whole number from 0 to 18446744073709551615",
        ),
        (
            vec!["--start", "18446744073709551616"],
            "expected a whole number from 0",
        ),
        (
            vec!["--seed", "1", "--start", "18446744073709551615", "-n", "2"],
            "goes beyond the last index",
        ),
        (vec!["--json", "--csv"], "cannot be used with"),
    ] {
        let mut all = vec!["generate"];
        all.extend(&args);
        let run = ruledoku(&all);
        assert_eq!(run.code, Some(2), "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
}
