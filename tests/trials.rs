//! Trial rules: the language's `trial` kind (parse and check errors with
//! line and column), SE's length increment, the text of trial steps
//! (insta snapshots), and a trial rule written by a user.

mod common;

use common::{CBG_SAMPLE, data, errors};
use ruledoku::engine::{self, Limits};
use ruledoku::grid::state::State;
use ruledoku::lang::compile_source;
use ruledoku::search::implication::{self, Cause, Graph};
use ruledoku::search::trial::Increment;
use ruledoku::search::{Evidence, SearchCx};
use ruledoku::{input, ruleset};

/// A trial rule with a complexity and the given body.
fn trial(body: &str) -> String {
    format!("trial t {{\n    complexity 1\n{body}\n}}\n")
}

const OK_BODY: &str =
    "    assume on\n    on-off house\n    off-on house\n    conclude contradiction";

#[test]
fn a_minimal_trial_rule_compiles() {
    let rules = compile_source("t.rules", &trial(OK_BODY)).unwrap();
    assert_eq!(rules.len(), 1);
    assert_eq!(rules[0].head.name, "t");
}

#[test]
fn bad_words_are_errors_at_their_place() {
    let src = trial(
        "    assume up\n    on-off cells\n    off-on house\n    reads sideways\n    conclude everything",
    );
    assert_eq!(
        errors(&src),
        vec![
            (3, 12, "unknown assumption `up`, expected on or off".to_string()),
            (4, 12, "unknown implication step `cells`, expected cell, house or none".to_string()),
            (6, 11, "unknown state `sideways`, expected original or branch".to_string()),
            (
                7,
                14,
                "unknown conclusion `everything`, expected cycle, forcing, contradiction, double, cell or region"
                    .to_string()
            ),
        ]
    );
}

#[test]
fn a_pass_needs_a_conclusion_and_implication_steps() {
    assert_eq!(
        errors(&trial("    assume on")),
        vec![(1, 7, "missing `conclude` clause".to_string())]
    );
    assert_eq!(
        errors(&trial("    assume on\n    conclude forcing")),
        vec![(
            1,
            7,
            "nothing propagates: give `on-off` or `off-on` implication steps (cell, house), or `propagate with` a rule set"
                .to_string()
        )]
    );
    assert_eq!(
        errors("trial t {\n    complexity 1\n}\n"),
        vec![(1, 7, "missing `conclude` clause".to_string())]
    );
}

#[test]
fn conclusions_must_fit_their_pass() {
    let src = trial(
        "    assume off\n    on-off cell\n    reads branch\n    conclude cycle\n    conclude double\n    conclude cell",
    );
    assert_eq!(
        errors(&src),
        vec![
            (
                6,
                5,
                "`conclude cycle` follows the original state: it needs `reads original`".to_string()
            ),
            (
                7,
                5,
                "`conclude double` compares both assumptions of a candidate: it needs `assume on, off`"
                    .to_string()
            ),
            (
                8,
                5,
                "`conclude cell` starts from candidates assumed on: add `assume on`".to_string()
            ),
        ]
    );
}

#[test]
fn repeated_clauses_ranges_and_misplaced_clauses() {
    let src = trial(&format!(
        "{OK_BODY}\n    assume off\n    cells 3..=12\n    conclude contradiction level 7.55\n    increment fast"
    ));
    assert_eq!(
        errors(&src),
        vec![
            (7, 5, "`assume` given twice".to_string()),
            (
                8,
                5,
                "a range of cell sizes must be within 1..=9 and not empty, found 3..=12"
                    .to_string()
            ),
            (
                9,
                5,
                "`conclude contradiction` given twice in one pass".to_string()
            ),
            (
                10,
                15,
                "unknown increment `fast`, expected se-length or none".to_string()
            ),
        ]
    );
    let src = trial(&format!(
        "    pass {{\n{OK_BODY}\n    }}\n    reads original"
    ));
    assert_eq!(
        errors(&src),
        vec![(
            9,
            5,
            "this clause is outside the rule's `pass` blocks: move it into one".to_string()
        )]
    );
}

#[test]
fn a_clause_of_another_kind_is_a_syntax_error() {
    let es = errors(&trial("    let X: cell"));
    assert_eq!(es.len(), 1);
    assert_eq!((es[0].0, es[0].1), (3, 5));
}

#[test]
fn se_length_increment_follows_ses_ceilings() {
    // length = complexity - 2; ceilings 4, 6, 8, 12, 16, 24, 32, ...
    let t = |c| Increment::SeLength.of(c).0;
    assert_eq!(
        [6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27, 34, 35].map(t),
        [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]
    );
    assert_eq!(Increment::None.of(100).0, 0);
    // The increment as SE adds it: a sum of 0.1s in double precision.
    assert_eq!(Increment::SeLength.of(9).1, 0.1 + 0.1);
}

#[test]
fn implication_graph_complexity_counts_distinct_ancestors() {
    let mut g = Graph::new();
    let a = g.add(implication::lit(0, true), Cause::Assumption, &[]);
    let b = g.add(implication::lit(9, false), Cause::House(9), &[a]);
    let c = g.add(implication::lit(10, true), Cause::Cell, &[b]);
    assert_eq!(g.ancestor_count(c), 3);
    assert_eq!(g.extract(c).text(), "r1c1=1 ⇒ r1c2≠1 ⇒ r1c2=2");
}

/// The path of the 20th cbg-000 puzzle's SE state (after SE's simpler
/// techniques) with `set`, step by step, with each step's rating.
fn path(set: &str, pm: &str, steps: usize) -> String {
    let set = ruleset::load(set).unwrap();
    let p = input::parse_puzzle(pm).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits {
            max_steps: Some(steps),
            ..Limits::default()
        },
    );
    run.steps
        .iter()
        .map(|s| format!("{} [{}]", s.text(), s.grade.level))
        .collect::<Vec<_>>()
        .join("\n")
}

/// SE's state before its first chaining step on cbg-000 line 20 (a
/// Turbot Fish, 6.6) and on line 2 (SER 8.3).
const PM20: &str = include_str!("data/trial-pm20.txt");

#[test]
fn snapshot_forcing_chains_path() {
    insta::assert_snapshot!(path("se-chaining", PM20.trim(), 4));
}

#[test]
fn snapshot_dynamic_steps() {
    // Only the dynamic rule: its first matches on the same state.
    let set = ruleset::load("se-chaining").unwrap();
    let rule = set
        .rules
        .iter()
        .find(|r| r.head.name == "dynamic-forcing-chains")
        .unwrap();
    let p = input::parse_puzzle(PM20.trim()).unwrap();
    let st = State::from_masks(&p.masks, &p.givens);
    let mut out = Vec::new();
    let _ = rule
        .searcher
        .search(&mut SearchCx::new(None), &st, &mut |f| {
            let Evidence::Implications(imp) = &f.evidence else {
                panic!()
            };
            let g = f.grade.clone().unwrap();
            out.push(format!(
                "{} [{} {} complexity {}] ==> {:?} {:?}",
                rule.searcher.render(&st, &f.evidence),
                g.label,
                g.level,
                imp.complexity,
                f.kind,
                f.conclusions
                    .iter()
                    .map(ruledoku::grid::geometry::cand_name)
                    .collect::<Vec<_>>()
            ));
            if out.len() == 3 {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        });
    insta::assert_snapshot!(out.join("\n"));
}

/// A user's trial rule: a candidate whose assumption empties nothing but
/// leads, by digit links in the branch's state, to a contradiction.
#[test]
fn a_users_trial_rule_runs() {
    let src = "/// Nishio-like, digit links only\ntrial my-nishio {\n    complexity 1\n    level 7.5\n    increment se-length\n    assume on\n    on-off house\n    off-on house\n    reads branch\n    conclude contradiction\n}\n";
    let rules = compile_source("my.rules", src).unwrap();
    let p = input::parse_puzzle(PM20.trim()).unwrap();
    let st = State::from_masks(&p.masks, &p.givens);
    let mut n = 0;
    let _ = rules[0]
        .searcher
        .search(&mut SearchCx::new(None), &st, &mut |f| {
            n += 1;
            assert_eq!(f.kind, ruledoku::search::ConclusionKind::Eliminate);
            std::ops::ControlFlow::Continue(())
        });
    // Six candidates of this state are eliminated by such a contradiction.
    assert_eq!(n, 6);
}

/// Runs `set` on the first `n` puzzles of cbg-000, every step judged by
/// the referee; returns how many were solved.
fn solved_by(set: &str, n: usize) -> usize {
    use ruledoku::oracle::referee::Referee;
    let set = ruleset::load(set).unwrap();
    let text = std::fs::read_to_string(data(CBG_SAMPLE)).unwrap();
    let mut solved = 0;
    for rec in input::parse_str("cbg", &text).into_iter().take(n) {
        let p = rec.unwrap();
        let referee = Referee::new(&p.masks).unwrap();
        let run = engine::run(
            &set,
            State::from_masks(&p.masks, &p.givens),
            Limits::default(),
        );
        referee.check_run(&run).unwrap();
        if run.stop == engine::StopReason::Solved {
            solved += 1;
        }
    }
    solved
}

#[test]
fn te_and_the_fast_filter_as_rule_files() {
    // T&E(singles) solves every one of these; one round of singles per
    // assumption leaves 3 of the first 10 unsolved.
    assert_eq!(solved_by("te", 10), 10);
    assert_eq!(solved_by("filter-fast", 10), 7);
}

#[test]
#[ignore]
fn te2_and_the_slow_filter_on_30_puzzles() {
    assert_eq!(solved_by("te2", 30), 30);
    assert_eq!(solved_by("filter-fast", 30), 19);
    assert_eq!(solved_by("filter-slow", 30), 30);
}

#[test]
fn a_trial_rule_links_its_set_by_name_with_clear_errors() {
    let dir = std::env::temp_dir().join(format!("ruledoku-trials-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rule = |set: &str| {
        format!(
            "trial x {{\n complexity 1\n assume on\n propagate with {set}\n conclude contradiction\n}}\n"
        )
    };
    let bad = dir.join("bad.rules");
    std::fs::write(&bad, rule("nosuchset")).unwrap();
    let e = ruleset::load(bad.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "{}: rule `x`: `propagate with nosuchset`: unknown rule set `nosuchset`",
            bad.display()
        )),
        "{e}"
    );
    let me = dir.join("self.rules");
    std::fs::write(&me, rule("\"./self.rules\"")).unwrap();
    let e = ruleset::load(me.to_str().unwrap()).unwrap_err().to_string();
    assert!(
        e.contains("`propagate with ./self.rules`: include cycle"),
        "{e}"
    );
    let ok = dir.join("ok.rules");
    std::fs::write(&ok, rule("singles")).unwrap();
    assert_eq!(ruleset::load(ok.to_str().unwrap()).unwrap().rules.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn propagate_with_a_set_excludes_implication_steps() {
    let src = trial(
        "    assume on\n    on-off house\n    propagate with singles rounds 0\n    conclude cell",
    );
    assert_eq!(
        errors(&src),
        vec![
            (
                5,
                5,
                "a pass propagates either with implication steps (`on-off`, `off-on`) or with a rule set, not both"
                    .to_string()
            ),
            (5, 35, "rounds must be between 1 and 1000, found 0".to_string()),
            (
                6,
                5,
                "`conclude cell` reads implication steps: with `propagate with`, conclude contradiction"
                    .to_string()
            ),
        ]
    );
}

#[test]
fn a_conclusion_level_may_be_an_integer() {
    let src = trial("    assume on\n    on-off house\n    conclude forcing level 7");
    let rules = compile_source("t.rules", &src).unwrap();
    let ruledoku::search::SearcherKind::Trial(t) = rules[0].searcher.kind() else {
        panic!("not a trial rule");
    };
    assert_eq!(t.spec.passes[0].concludes[0].level.to_string(), "7");
}

/// The trial steps of a puzzle's path with `set` (other steps left out),
/// each with its rating.
fn trial_steps(set: &str, puzzle: &str, max: usize) -> String {
    let set = ruleset::load(set).unwrap();
    let p = input::parse_puzzle(puzzle).unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    run.steps
        .iter()
        .filter(|s| {
            matches!(
                s.rule.searcher.kind(),
                ruledoku::search::SearcherKind::Trial(_)
            )
        })
        .take(max)
        .map(|s| format!("{} [{} {}]", s.text(), s.grade.label, s.grade.level))
        .collect::<Vec<_>>()
        .join("\n")
}

/// cbg-000 line 2 (SER 8.3).
const CBG2: &str =
    "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75";

#[test]
fn snapshot_multiple_forcing_chains_path() {
    insta::assert_snapshot!(trial_steps("basic+se-chaining", CBG2, 12));
}

#[test]
fn snapshot_te_steps() {
    insta::assert_snapshot!(trial_steps("te", CBG2, 3));
}

/// `sweep` needs a rule set to propagate with, `assume on` alone, and to
/// be the rule's only pass; errors at the clause.
#[test]
fn sweep_is_checked() {
    let trial = |body: &str| format!("trial t {{\n    complexity 1\n{body}\n}}\n");
    let sweep_err = |body: &str| errors(&trial(body));
    assert_eq!(
        sweep_err("    on-off cell\n    sweep\n    conclude contradiction"),
        vec![(
            4,
            5,
            "`sweep` runs a rule set in each branch: it needs `propagate with`".to_string()
        )]
    );
    assert_eq!(
        sweep_err(
            "    assume on, off\n    propagate with singles\n    sweep\n    conclude contradiction"
        ),
        vec![(
            5,
            5,
            "`sweep` eliminates the candidates it refutes: it needs `assume on` alone".to_string()
        )]
    );
    assert_eq!(
        sweep_err("    propagate with singles\n    sweep\n    sweep\n    conclude contradiction"),
        vec![(5, 5, "`sweep` given twice".to_string())]
    );
    let two = "    pass {\n        propagate with singles\n        sweep\n        conclude contradiction\n    }\n    pass {\n        propagate with singles\n        conclude contradiction\n    }";
    assert_eq!(
        sweep_err(two),
        vec![(
            5,
            9,
            "a `sweep` is the rule's one match: the rule can have only one pass".to_string()
        )]
    );
    // A word that begins with `sweep` is not the clause.
    assert!(
        !sweep_err("    propagate with singles\n    sweeps\n    conclude contradiction").is_empty()
    );
    assert!(
        compile_source(
            "t.rules",
            &trial("    propagate with singles rounds 1\n    sweep\n    conclude contradiction")
        )
        .is_ok()
    );
}

/// One step of a sweep rule: every refuted candidate, each with its chain
/// and the variables its branch emptied, in the order they were found.
#[test]
fn a_sweep_step_lists_each_refutation() {
    let set = ruleset::load("filter-fast").unwrap();
    let p = input::parse_puzzle(
        "..34......5...912.7...2.....1.5.7..86...9...7.......34..2.............9.9...61.75",
    )
    .unwrap();
    let run = engine::run(
        &set,
        State::from_masks(&p.masks, &p.givens),
        Limits::default(),
    );
    let step = run
        .steps
        .iter()
        .find(|s| s.rule.head.name == "contradiction-filter-fast")
        .unwrap();
    assert_eq!(step.conclusions.len(), 8);
    let Evidence::Implications(imp) = &step.evidence else {
        panic!("{:?}", step.evidence);
    };
    assert_eq!((imp.chains.len(), imp.empty.len()), (8, 8));
    assert!(imp.empty.iter().all(|e| !e.is_empty()));
    let text = step.rule.searcher.render(&step.before, &step.evidence);
    assert!(
        text.starts_with(
            "contradiction (r3c2=4): no candidate left for r2n4, b3n4; (r3c3=4): no candidate left for r2n4, b3n4; (r3c4=3 ⇒ r5c4=8 ⇒ r2c9=3 ⇒ r3c3=1 ⇒ r6c4=1 ⇒ r1c5=1): no candidate left for r6c5; "
        ),
        "{text}"
    );
    assert_eq!(text.matches("; (").count(), 7);
}
