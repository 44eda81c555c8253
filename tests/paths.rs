//! Snapshot tests of complete resolution paths (reviewed by eye).
//!
//! Each file of tests/data/paths/ names its rule set on a `# set: NAME`
//! line and holds one puzzle; its rendered path (steps, final grid or
//! resolution state, rating) is compared with tests/snapshots/.

use ruledoku::engine::{self, Limits};
use ruledoku::grid::state::State;
use ruledoku::path::render_run;
use ruledoku::{input, ruleset};
use std::path::Path;

#[test]
fn resolution_paths() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/paths");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let set_name = text
            .lines()
            .find_map(|l| l.strip_prefix("# set: "))
            .unwrap_or_else(|| panic!("{}: no `# set:` line", f.display()));
        let set = ruleset::load(set_name.trim()).unwrap();
        let recs = input::parse_str(&f.display().to_string(), &text);
        assert_eq!(recs.len(), 1, "{}", f.display());
        let p = recs.into_iter().next().unwrap().unwrap();
        let run = engine::run(
            &set,
            State::from_masks(&p.masks, &p.givens),
            Limits::default(),
        );
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        insta::assert_snapshot!(name, render_run(&p.text, &set, &run));
    }
}

/// The resolution state printed for a stuck puzzle reads back (as a
/// SudoRules candidate grid) to the same candidates.
#[test]
fn printed_resolution_state_reads_back() {
    let set = ruleset::load("sfin").unwrap();
    let p = input::parse_puzzle(
        "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75",
    )
    .unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    assert_eq!(run.stop, engine::StopReason::Stuck);
    let text = run.state.to_string();
    let back = input::parse_puzzle(&text).unwrap();
    assert_eq!(back.format, input::Format::ResolutionState);
    let again = State::from_masks(&back.masks, &[0; 81]);
    for c in 0..81 {
        assert_eq!(again.cell_text(c), run.state.cell_text(c), "cell {c}");
    }
}
