//! Soundness: every placement and elimination made by the shipped rule sets
//! agrees with the unique solution found by the brute-force oracle.
//!
//! The default suite runs the first 1,000 puzzles of cbg-000 (copied to
//! tests/data/); the whole collection (21,375 puzzles) runs with
//! `cargo test --release -- --ignored`.

mod common;

use common::{CBG_SAMPLE, data, shared_data};
use ruledoku::engine::{self, Limits, StopReason};
use ruledoku::grid::state::State;
use ruledoku::input;
use ruledoku::oracle::referee::Referee;
use ruledoku::ruleset;
use std::path::Path;

/// Runs `set` over every puzzle of `file`, checking each step; returns
/// (puzzles, solved, steps).
fn check_file(set_name: &str, file: &Path) -> (usize, usize, usize) {
    let set = ruleset::load(set_name).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    let (mut n, mut solved, mut steps) = (0, 0, 0);
    for rec in input::parse_str(&file.display().to_string(), &text) {
        let p = rec.unwrap();
        let referee = Referee::new(&p.masks).unwrap();
        let run = engine::run(
            &set,
            State::from_masks(&p.masks, &p.givens),
            Limits::default(),
        );
        if let Err(e) = referee.check_run(&run) {
            panic!("{set_name}, puzzle {} (line {}): {e}", p.text, p.line);
        }
        assert_ne!(run.stop, StopReason::Contradiction, "{}", p.text);
        if run.stop == StopReason::Solved {
            assert_eq!(run.state.grid(), referee.solution);
            solved += 1;
        }
        n += 1;
        steps += run.steps.len();
    }
    (n, solved, steps)
}

#[test]
fn sfin_is_sound_on_a_cbg_sample() {
    let (n, solved, _) = check_file("sfin", &data(CBG_SAMPLE));
    assert_eq!(n, 1000);
    // Exact count, pinned: a change here means the rules changed behaviour.
    assert_eq!(solved, 576);
}

#[test]
fn basic_set_is_sound_on_a_cbg_sample() {
    let (n, solved, _) = check_file("basic", &data(CBG_SAMPLE));
    assert_eq!(n, 1000);
    assert!(solved >= 576, "{solved}");
}

#[test]
fn singles_set_is_sound_on_a_cbg_sample() {
    let (n, _, _) = check_file("singles", &data(CBG_SAMPLE));
    assert_eq!(n, 1000);
}

#[test]
#[ignore = "whole cbg-000 collection: run with --ignored in release"]
fn sfin_is_sound_on_all_of_cbg_000() {
    let file = shared_data("cbg-000/puzzles.txt");
    let (n, _, _) = check_file("sfin", &file);
    assert_eq!(n, 21_375);
}

#[test]
#[ignore = "whole cbg-000 collection: run with --ignored in release"]
fn basic_set_is_sound_on_all_of_cbg_000() {
    let file = shared_data("cbg-000/puzzles.txt");
    let (n, _, _) = check_file("basic", &file);
    assert_eq!(n, 21_375);
}
