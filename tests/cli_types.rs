//! `--type` from the command line (issue 23, first stage): `check` and
//! `generate` on types other than classic 9×9, the commands that do not
//! take them yet refusing them, and type files that are no type.

mod common;

use common::*;

fn csp_rules(name: &str) -> String {
    data(&format!("csp-rules/{name}")).display().to_string()
}

#[test]
fn check_takes_every_shipped_latin_square_as_unique() {
    let run = ruledoku(["check", "--type", "latin:9", &csp_rules("latin-9.txt")]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let lines = run.lines();
    assert_eq!(lines.len(), 7, "six verdicts and the summary");
    assert_eq!(
        lines[6],
        "6 puzzles: 6 unique, 0 multiple, 0 no solution; 0 invalid lines"
    );
    assert_eq!(
        lines[0],
        "1 ....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8 unique"
    );
    assert!(
        lines[..6].iter().all(|l| l.ends_with(" unique")),
        "{lines:?}"
    );
}

#[test]
fn check_reads_futoshiki_signs() {
    let run = ruledoku([
        "check",
        "--type",
        "futoshiki:7",
        &csp_rules("futoshiki-7.txt"),
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.lines().len(), 5);
    assert!(
        run.stdout
            .contains("4 puzzles: 4 unique, 0 multiple, 0 no solution; 0 invalid lines"),
        "{}",
        run.stdout
    );
}

#[test]
fn generated_puzzles_of_a_type_check_as_unique() {
    let made = ruledoku(["generate", "--type", "latin:6", "--seed", "3", "-n", "3"]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    assert_eq!(made.lines().len(), 3);
    assert!(
        made.lines().iter().all(|l| l.len() == 36),
        "{:?}",
        made.lines()
    );
    let again = ruledoku(["generate", "--type", "latin:6", "--seed", "3", "-n", "3"]);
    assert_eq!(made.stdout, again.stdout, "a seed gives the same puzzles");
    let check = ruledoku_stdin(["check", "--type", "latin:6", "-"], &made.stdout);
    assert_eq!(check.code, Some(0), "{}", check.stderr);
    assert!(
        check.lines()[..3].iter().all(|l| l.ends_with(" unique")),
        "{}",
        check.stdout
    );
}

#[test]
fn a_bad_record_of_a_type_is_reported_and_the_batch_goes_on() {
    let input = "12345\n....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8\n";
    let run = ruledoku_stdin(["check", "--type", "latin:9", "-"], input);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("<stdin>:1:"), "{}", run.stderr);
    assert!(run.has_line(
        "2 ....5....45.1..2.66.9..21.524.8..3.139..148.28..2.3...53.9..61...8.....396.3.15.8 unique"
    ));
}

#[test]
fn commands_without_types_refuse_them() {
    let input = csp_rules("latin-9.txt");
    for cmd in ["solve", "rate"] {
        let run = ruledoku([cmd, "--type", "latin:9", &input]);
        assert_eq!(run.code, Some(2), "{cmd}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("does not support puzzle type `latin:9` yet"),
            "{cmd}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn type_files_that_are_no_type_are_errors() {
    let input = csp_rules("latin-9.txt");
    let zero = ruledoku(["check", "--type", "/dev/zero", &input]);
    assert_eq!(zero.code, Some(2));
    assert!(zero.stderr.contains("too large"), "{}", zero.stderr);
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("regions.yaml");
    std::fs::create_dir(&folder).unwrap();
    let run = ruledoku(["check", "--type", folder.to_str().unwrap(), &input]);
    assert_eq!(run.code, Some(2));
    assert!(run.stderr.contains("it is a folder"), "{}", run.stderr);
    let big = ruledoku(["check", "--type", "latin:99", &input]);
    assert_eq!(big.code, Some(2));
    assert!(big.stderr.contains("from 2 to 64"), "{}", big.stderr);
}
