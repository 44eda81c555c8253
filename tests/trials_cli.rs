//! Trial rules from the command line: `rules check` reports a bad trial
//! rule at its line and column (exit status 1); `rate` with singles and
//! the SE chaining set prints SE's label and rating of a trial step.

mod common;
use common::*;

#[test]
fn rules_check_reports_a_bad_trial_rule_with_its_place() {
    let dir = std::env::temp_dir().join(format!("ruledoku-trials-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.rules");
    std::fs::write(
        &f,
        "trial t {\n    complexity 1\n    assume maybe\n    on-off house\n    conclude contradiction\n}\n",
    )
    .unwrap();
    let run = ruledoku(["rules", "check", f.to_str().unwrap()]);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains(&format!("{}:3:12", f.display())), "{all}");
    assert!(
        all.contains("unknown assumption `maybe`, expected on or off"),
        "{all}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn rate_with_se_chaining_names_ses_technique_and_rating() {
    // cbg-000 line 20 (SER 6.6): with singles and SE's chaining rules, the
    // most complex rule applied is forcing-chains-and-cycles; the rate line
    // shows its first step, a forcing X-chain (SE: Turbot Fish) of 6.6.
    let puzzle =
        "1...56..9.5...9.2....1..4....5.9..7..3.2...5.96..3....3...4.....9......864...5...";
    let run = ruledoku([
        "rate",
        "--rules",
        "singles+se-chaining",
        "--no-time",
        puzzle,
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout.trim_end(),
        format!("1 {puzzle} solved Forcing X-Chain forcing-chains-and-cycles 6.6")
    );
}
