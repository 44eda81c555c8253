//! The typed instance: rule sets run on puzzles of any type ([`crate::model`]).
//!
//! Classic 9×9 Sudoku keeps its specialised back end (`grid/`, `search/`,
//! `engine`); this module runs the same rule files on every other type. A
//! compiled rule set is read for its *portable* rules ([`compile`]): what
//! a rule's text means does not depend on the grid, only how the classic
//! back end evaluates it does. Four forms are portable:
//!
//! - variable rules ([`vars`]): a pattern rule whose only generator binds
//!   one CSP variable (of a space, or any) and whose conditions and
//!   conclusion are about that variable's live candidates and their links
//!   (singles, whip[1]): the fast path of the next form;
//! - pattern rules ([`pattern`]): any other plan of the language,
//!   interpreted over the type's cells, digits (symbols), houses,
//!   variables and candidates ([`elems`]; subsets, fish, finned fish,
//!   wings, uniqueness rules);
//! - chain rules ([`chain`]): every chain family of the language (whips,
//!   braids, g-whips, g-braids, z-chains, t-whips, bivalue chains, typed
//!   chains), searched on the run's [`Frame`];
//! - trial rules ([`trial`]): T&E(n) over the set's other typed rules.
//!
//! A rule over a space or a house kind the type does not have (hidden
//! singles or subsets in blocks on a Latin square) does not apply to the
//! type and is left out; one that uses what has no meaning there
//! (`band(x)` on irregular regions) is refused with an error naming the
//! rule and what it uses.
//!
//! A run is played on a [`Frame`] (the puzzle's live candidates renumbered,
//! with their links as sets) in sets of `W` words chosen by the number of
//! live candidates, or of the type's cells, houses and live variables
//! when the set holds pattern rules ([`elems::needed`]; [`run`] dispatches
//! on it), by [`engine`]'s loop, which
//! follows the classic one: simplest rule first, restart after each step,
//! SudoRules' ratings.
//!
//! Architecture Invariant: nothing here names a technique; what a rule
//! looks for comes from its text (its plan, chain spec or trial spec).

pub mod chain;
pub mod elems;
pub mod engine;
pub mod frame;
pub mod pattern;
pub mod state;
pub mod trial;
pub mod vars;

pub use engine::{TypedRun, TypedStep, run};
pub use frame::{Frame, NoFrame};
pub use state::State;

use crate::grid::bits::BitSet;
use crate::model::Model;
use crate::rule::Rule;
use crate::ruleset::RuleSet;
use crate::search::{ConclusionKind, Grade, SearchCx, SearcherKind};
use std::ops::ControlFlow;
use std::sync::Arc;

/// One match of a typed rule on a state.
#[derive(Clone, Debug)]
pub struct Found<const W: usize> {
    pub kind: ConclusionKind,
    /// Local candidates concluded upon (never empty).
    pub conclusions: BitSet<W>,
    /// The match's own grade (a chain's length); `None`: the rule's.
    pub grade: Option<Grade>,
    pub evidence: Evidence,
}

/// What a typed match keeps to be shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Evidence {
    /// A variable rule's variable (a frame variable).
    Var(usize),
    /// A pattern rule's bound values.
    Pattern(pattern::Bindings),
    /// A chain: its target and variables, in local candidates and frame
    /// variables; a right-linking candidate `r ≥ frame.len()` is the
    /// g-candidate `frame.groups[r - frame.len()]`.
    Chain(crate::search::chain::ChainEvidence),
    /// A trial's evidence, rendered when found (typed trials are rare
    /// and short).
    Text(String),
    /// A trial's match: how it was found, its branches replayed when it
    /// is shown.
    Trial(trial::Recipe),
}

/// What a portable rule is, for the typed back end.
#[derive(Clone, Debug)]
pub enum Form {
    Var(vars::VarRule),
    Pattern(pattern::PatternRule),
    Chain(chain::TypedChain),
    Trial(Box<trial::TypedTrial>),
}

/// A rule of a set, ready for the typed back end.
#[derive(Clone, Debug)]
pub struct TypedRule {
    pub rule: Arc<Rule>,
    pub form: Form,
}

impl TypedRule {
    /// The rule's first match on `st`.
    pub fn first<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
    ) -> Option<Found<W>> {
        match &self.form {
            Form::Var(v) => v.first(cx, frame, st),
            Form::Pattern(p) => p.first(cx, frame, st),
            Form::Chain(c) => c.first(cx, frame, st),
            Form::Trial(t) => t.first(cx, frame, st),
        }
    }

    /// Every match of the rule on `st`, until `f` breaks: each variable or
    /// pattern match, each chain target (with its first chain), each trial
    /// hint in report order. A search the context stopped ends early
    /// (`cx.interrupted()` tells).
    pub fn each<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        f: &mut dyn FnMut(Found<W>) -> ControlFlow<()>,
    ) {
        let found = match &self.form {
            Form::Var(v) => return v.each(cx, frame, st, f),
            Form::Pattern(p) => return p.each(cx, frame, st, f),
            Form::Chain(c) => c.all(cx, frame, st).unwrap_or_default(),
            Form::Trial(t) => t.matches(cx, frame, st),
        };
        for x in found {
            if f(x).is_break() {
                return;
            }
        }
    }

    /// [`TypedRule::each`], a chain rule searching the targets of
    /// `chain_targets` only (a chain concludes its target's elimination;
    /// the other forms give all their matches).
    pub fn each_for<const W: usize>(
        &self,
        cx: &mut SearchCx,
        frame: &Frame<W>,
        st: &State<W>,
        chain_targets: &BitSet<W>,
        f: &mut dyn FnMut(Found<W>) -> ControlFlow<()>,
    ) {
        match &self.form {
            Form::Chain(c) => c.each_target(cx, frame, st, chain_targets, f),
            _ => self.each(cx, frame, st, f),
        }
    }

    /// Whether the rule is a chain rule.
    pub fn is_chain(&self) -> bool {
        matches!(self.form, Form::Chain(_))
    }

    /// The name match `ev` prints under: the rule's, with the holes its
    /// match binds filled in (`asc[{K}]`: `asc[3]`).
    pub fn step_name(&self, ev: &Evidence) -> String {
        self.name_of(ev)
            .unwrap_or_else(|| self.rule.head.name.clone())
    }

    /// [`TypedRule::step_name`] when it is not the rule's name.
    pub fn name_of(&self, ev: &Evidence) -> Option<String> {
        match &self.form {
            Form::Pattern(p) => p.step_name(&self.rule.head.name, ev),
            _ => None,
        }
    }

    /// The match's pattern in SudoRules notation (empty for singles).
    pub fn render<const W: usize>(
        &self,
        frame: &Frame<W>,
        before: &State<W>,
        ev: &Evidence,
    ) -> String {
        match (&self.form, ev) {
            (Form::Var(v), Evidence::Var(var)) => v.render(frame, before, *var),
            (Form::Pattern(p), Evidence::Pattern(b)) => p.render(frame, before, b),
            (Form::Chain(c), Evidence::Chain(ch)) => c.render(frame, ch),
            (Form::Trial(t), Evidence::Trial(recipe)) => t.render(frame, before, recipe),
            (_, Evidence::Text(t)) => t.clone(),
            _ => String::new(),
        }
    }
}

/// A rule set compiled for a type: the rules that apply, in the set's
/// order, and those left out (a space the type lacks).
#[derive(Clone, Debug)]
pub struct TypedSet {
    pub name: String,
    pub rules: Vec<TypedRule>,
    /// Rules over spaces or house kinds the type does not have.
    pub left_out: Vec<Arc<Rule>>,
    /// For each rule left out, what the type lacks (`bn`, `blocks`).
    pub left_out_why: Vec<String>,
    pub blocked: bool,
    pub rating_type: Option<String>,
    /// Whether a rule (or a trial's propagation) is a pattern rule over
    /// elements ([`pattern`]): a run's width must then hold every
    /// element index ([`elems::needed`]).
    pub elements: bool,
}

/// Why a rule cannot run on a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// The type lacks a space (its name: `bn`) or a house kind (`blocks`)
    /// the rule reads: the rule does not apply.
    Space(String),
    /// The rule uses what the typed back end cannot evaluate (yet).
    Unsupported(String),
}

/// The rules of `set` for type `model`, or an error naming each rule that
/// cannot run on it.
pub fn compile(set: &RuleSet, model: &Model) -> Result<TypedSet, String> {
    let mut rules = Vec::new();
    let mut left_out = Vec::new();
    let mut left_out_why = Vec::new();
    let mut errors = Vec::new();
    // The set's rules for other types merged in, simplest first (ties:
    // classic rules first, as the files list them), then the type's own.
    let own = type_rules(set, model)?;
    let mut all: Vec<&Arc<Rule>> = set.rules.iter().chain(&set.foreign).chain(&own).collect();
    all.sort_by_key(|r| r.head.complexity);
    for r in all {
        let form = match r.searcher.kind() {
            SearcherKind::Pattern(plan) => {
                let foreign = r.head.space.as_deref();
                match vars::VarRule::of(plan, model, foreign) {
                    Err(Unfit::Unsupported(_)) => {
                        pattern::PatternRule::of(plan, model, foreign).map(Form::Pattern)
                    }
                    v => v.map(Form::Var),
                }
            }
            SearcherKind::Chain(c) => chain::TypedChain::of(&c.spec, model).map(Form::Chain),
            SearcherKind::Trial(t) => trial::TypedTrial::of(&t.spec, model, &r.head.file)
                .map(|t| Form::Trial(Box::new(t))),
        };
        match form {
            Ok(form) => rules.push(TypedRule {
                rule: r.clone(),
                form,
            }),
            Err(Unfit::Space(what)) => {
                left_out.push(r.clone());
                left_out_why.push(what);
            }
            Err(Unfit::Unsupported(why)) => errors.push(format!(
                "rule `{}` ({}:{}:{}) cannot run on type `{}`: {why}",
                r.head.name,
                r.head.file,
                r.head.line,
                r.head.column,
                model.name()
            )),
        }
    }
    if !errors.is_empty() {
        if errors.len() > 5 {
            let more = errors.len() - 5;
            errors.truncate(5);
            errors.push(format!("… and {more} more rules"));
        }
        return Err(format!(
            "rule set `{}` does not run on type `{}`:\n  {}",
            set.name,
            model.name(),
            errors.join("\n  ")
        ));
    }
    let elements = rules.iter().any(|r| match &r.form {
        Form::Pattern(_) => true,
        Form::Trial(t) => t.elements(),
        Form::Var(_) | Form::Chain(_) => false,
    });
    Ok(TypedSet {
        elements,
        name: set.name.clone(),
        rules,
        left_out,
        left_out_why,
        blocked: set.blocked,
        rating_type: set.rating_type.clone(),
    })
}

/// The rules a type adds to `set`: on a type with killer cages, the
/// rules of `rules/killer.rules` (the cages' singles), and on a type with
/// order relations (Futoshiki's, whose puzzles bring their signs, and
/// types with thermometers or greater-than marks), those of
/// `rules/futoshiki.rules` (FutoRules' ascending chains, hills and
/// valleys) join every set that has the naked single; none otherwise.
/// Each file is compiled once, on the first type that needs it, and
/// never for classic Sudoku.
fn type_rules(set: &RuleSet, model: &Model) -> Result<Vec<Arc<Rule>>, String> {
    type Compiled = std::sync::OnceLock<Result<Vec<Arc<Rule>>, String>>;
    static KILLER: Compiled = Compiled::new();
    static ORDER: Compiled = Compiled::new();
    if !set.rules.iter().any(|r| r.head.name == "naked-single") {
        return Ok(Vec::new());
    }
    let load = |cell: &'static Compiled, file: &str| {
        cell.get_or_init(|| {
            let from = crate::ruleset::Location::built_in_set("singles");
            crate::ruleset::Library::new()
                .link(&format!("../{file}"), &from)
                .map(|s| s.rules.iter().chain(&s.foreign).cloned().collect())
                .map_err(|e| format!("rules/{file}: {e}"))
        })
        .clone()
    };
    let mut rules = Vec::new();
    // Futoshiki's signs come with each puzzle: its type has none itself.
    if model.spec.puzzle_signs || !model.orders.is_empty() {
        rules.extend(load(&ORDER, "futoshiki.rules")?);
    }
    if !model.cages.is_empty() {
        rules.extend(load(&KILLER, "killer.rules")?);
    }
    Ok(rules)
}

/// The model space a classic space name stands for, if the type has it.
pub(crate) fn space_named(model: &Model, name: &str) -> Option<usize> {
    model.spaces.iter().position(|s| s.name == name)
}
