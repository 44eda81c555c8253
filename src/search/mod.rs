//! Searchers: what a compiled rule runs on a resolution state.
//!
//! A rule is a head (name, complexity, rating, provenance: [`crate::rule`])
//! and a [`Searcher`]. A searcher reads a state and reports each match as a
//! [`Found`]: its conclusions, its own grade when the match decides it (a
//! chain's length decides its level), and its [`Evidence`]. Rendering a
//! match to SudoRules text is a separate, later call
//! ([`Searcher::render`]), made only when a path is printed.
//!
//! Kinds of searcher ([`SearcherKind`]):
//! - [`pattern::Plan`]: a fixed pattern of generators, definitions and
//!   filters over bitsets (the `rule` kind of the language); a plan of
//!   the count shape is answered from the board's counts ([`pattern::count`]);
//! - [`chain::ChainSearch`] (the `chain` kind): a breadth-first search
//!   over the link graph configured by the rule's clauses, with a chain's
//!   variables and links as evidence ([`Evidence::Chain`]);
//! - [`trial::TrialSearch`] (the `trial` kind): assumptions propagated by
//!   implication steps, concluding on cycles, contradictions or what all
//!   branches agree on, with an implication graph
//!   ([`implication`]) as evidence.
//!
//! The engine asks for a rule's first match on its [`Board`]
//! ([`Searcher::first`]); every other search reads a [`State`].
//!
//! Architecture Invariant: a searcher only reads the state or board it is
//! given; only the engine (and a trial's branch runner, on copies) changes
//! them. A searcher knows no technique by name: what it looks for comes
//! from the rule text it was compiled from.

pub mod ask;
pub mod chain;
pub mod forcing;
pub mod implication;
pub mod pattern;
pub mod trial;

use crate::grid::bits::Bits;
use crate::grid::board::Board;
use crate::grid::state::State;
use crate::rating::Rating;
use std::fmt;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// What a match concludes about its candidates (defined with the board
/// that applies it).
pub use crate::grid::board::ConclusionKind;

/// How hard one match is: the rule head's grade, or the match's own (a
/// chain of length 7 and one of length 3 of one family grade apart).
#[derive(Clone, Debug, PartialEq)]
pub struct Grade {
    /// Ordering key: smaller runs first; the largest applied rates a run.
    pub complexity: i64,
    /// The level (W[n]'s n, a subset's size, SE's 7.5).
    pub level: Rating,
    /// The rating label (`FSHT`, `W[5]`, the rule's name when it has none).
    pub label: String,
}

/// What a match carries to explain itself, for renderers and checkers.
/// Pictures are drawn from it too: a new variant gets one arm in
/// `draw::Figure::from_step` (its `match` is exhaustive, so the compiler
/// points there).
#[derive(Clone, Debug, PartialEq)]
pub enum Evidence {
    /// A pattern rule's bound values, in slot order.
    Bindings(Vec<pattern::Val>),
    /// A chain's target and its variables with their linking candidates.
    Chain(chain::ChainEvidence),
    /// A trial's chains of implications, read off its implication graph.
    Implications(implication::Implications),
}

/// One match of a searcher.
#[derive(Clone, Debug)]
pub struct Found {
    pub kind: ConclusionKind,
    /// Live candidates concluded upon (never empty).
    pub conclusions: Bits,
    /// The match's own grade; `None` means the rule head's.
    pub grade: Option<Grade>,
    pub evidence: Evidence,
}

/// Why a search stopped before its end ([`SearchCx::stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stop {
    /// The deadline passed (`--max-seconds`).
    Deadline,
    /// The budget of work was spent ([`SearchCx::with_work_limit`]).
    Work,
    /// The memory the running searches hold went over the cap
    /// ([`SearchCx::set_memory_limit`]).
    Memory,
}

impl Stop {
    /// The kebab-case name used in JSON and messages.
    pub fn name(self) -> &'static str {
        match self {
            Stop::Deadline => "time-limit",
            Stop::Work => "work-limit",
            Stop::Memory => "memory-limit",
        }
    }
}

/// Limits and counters shared by the searches of one run: a deadline that
/// every searcher checks as it goes, so that a slow rule cannot outlive
/// `--max-seconds`, and a cap on the memory the searches hold (a chain
/// search's partial chains, a trial's graphs), so that a search that grows
/// without end stops instead.
#[derive(Debug, Default)]
pub struct SearchCx {
    /// When searches must stop (read by searches, and by the evaluation of
    /// a pattern's expressions, through [`Clock::charge`]), and why they
    /// stopped.
    pub(crate) clock: Clock,
    /// Bytes the running searches hold (as they count them: see
    /// [`SearchCx::hold`]), and the cap on them.
    memory: usize,
    memory_limit: Option<usize>,
    /// Wanted conclusions a targeted search ([`Searcher::search_for`])
    /// gave up on, at the memory cap: whether the searcher concludes them
    /// is not known. The caller reads and clears it.
    pub undecided: Targets,
    /// Search nodes visited (bindings tried), for statistics.
    pub nodes: u64,
    /// The caller reads only what matches conclude and how they are
    /// graded (a filter that counts): a searcher whose evidence costs a
    /// search of its own (a trial rule replaying its branches) may leave it
    /// empty.
    pub outcome_only: bool,
    /// The run's scratch for trial searches: buffers and graphs reused
    /// from one search to the next, the propagations the run's trials
    /// share in one state, and how deeply trial searches are nested.
    pub(crate) trial: trial::Scratch,
    /// What pattern searches keep from one search to the next (frames,
    /// the last state's digit cells, shared prefixes' records): explicit
    /// per-run scratch, so that a search depends on the searches made
    /// before it in this context only.
    pub(crate) pattern: pattern::Scratch,
    /// The puzzle's given values, as candidates (the rule language's
    /// `givens` are their cells): fixed for the run, the values of the
    /// state it started from ([`SearchCx::set_givens`]; the engine sets
    /// them at the start of each run). `None` (a search outside a run):
    /// every decided cell counts as a given, the safe reading for
    /// uniqueness rules. Held by the run, not by [`State`], so that a
    /// state stays as small and as cheap to copy.
    pub(crate) givens: Option<Bits>,
}

/// How many units of work pass between two looks at the clock.
const TICKS_PER_CLOCK: u64 = 4096;

/// When searches must stop: at the run's deadline, or, for a search being
/// measured, after a budget of work. Work is search nodes and, when there
/// is a deadline or a budget, the members that the quantifiers of a
/// pattern's expressions look at (`count(X in grid: …)` looks at up to
/// 729), so that one long evaluation within a single binding (nested
/// quantifiers over the grid) stops too; the clock is read every
/// [`TICKS_PER_CLOCK`] units. Only search nodes go to the statistics
/// ([`SearchCx::nodes`]); a run without a limit does not count members.
#[derive(Debug, Default)]
pub struct Clock {
    deadline: Option<Instant>,
    /// The thread's CPU time ([`thread_cpu_seconds`]) at which searches
    /// stop as at the deadline.
    cpu_deadline: Option<f64>,
    /// Work after which searches stop as at the deadline (looked at with
    /// the clock, so a search may pass it by a few thousand units).
    work_limit: Option<u64>,
    /// Work done up to the last look at the clock.
    work: u64,
    /// Work since then.
    ticks: u64,
    /// Searches must stop (`stop` says why).
    interrupted: bool,
    stop: Option<Stop>,
    /// A deadline or a budget is set.
    limited: bool,
}

impl Clock {
    /// Counts `n` units of work; `true` when the search must stop now.
    #[inline]
    pub fn charge(&mut self, n: u64) -> bool {
        self.ticks += n;
        if self.ticks >= TICKS_PER_CLOCK {
            self.look();
        }
        self.interrupted
    }

    #[inline]
    fn look(&mut self) {
        self.work += std::mem::take(&mut self.ticks);
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.halt(Stop::Deadline);
        } else if self.work_limit.is_some_and(|m| self.work >= m) {
            self.halt(Stop::Work);
        } else if self.cpu_deadline.is_some_and(|d| thread_cpu_seconds() >= d) {
            self.halt(Stop::Deadline);
        }
    }

    /// Searches must stop, for `why` (the first reason stays).
    #[cold]
    fn halt(&mut self, why: Stop) {
        self.interrupted = true;
        self.stop.get_or_insert(why);
    }

    /// Has the deadline (or the budget) passed?
    #[inline]
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// Are the members quantifiers look at counted (is there a deadline
    /// or a budget)?
    #[inline(always)]
    pub fn counts_evaluation(&self) -> bool {
        self.limited
    }
}

impl SearchCx {
    /// A context that stops searches at `deadline`.
    pub fn new(deadline: Option<Instant>) -> SearchCx {
        SearchCx {
            clock: Clock {
                deadline,
                limited: deadline.is_some(),
                ..Clock::default()
            },
            ..SearchCx::default()
        }
    }

    /// A context that stops searches after about `limit` units of work
    /// (search nodes and members of quantifiers' domains; see
    /// [`SearchCx::interrupted`]): a measure of a search that must end.
    pub fn with_work_limit(limit: u64) -> SearchCx {
        SearchCx {
            clock: Clock {
                work_limit: Some(limit),
                limited: true,
                ..Clock::default()
            },
            ..SearchCx::default()
        }
    }

    /// Sets the puzzle's given values (candidates, one per given cell):
    /// `givens` reads their cells in the searches made in this context,
    /// and the decided cells that are not given are the values placed
    /// since.
    pub fn set_givens(&mut self, values: Bits) {
        self.givens = Some(values);
    }

    /// The clock and the run's givens, borrowed together (what the
    /// evaluation of a pattern's expressions reads of the context).
    #[inline(always)]
    pub(crate) fn clock_and_givens(&mut self) -> (&mut Clock, &Option<Bits>) {
        (&mut self.clock, &self.givens)
    }

    /// Counts one search node; `true` when the search must stop now (the
    /// deadline has passed). Searchers call it in their inner loops.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.tick_n(1)
    }

    /// Runs `f` with [`SearchCx::outcome_only`] off: a searcher that reads
    /// the evidence of the matches it searches for (a trial branch
    /// applying rules reads their parents) gets it whatever its caller
    /// wants.
    pub fn with_evidence<R>(&mut self, f: impl FnOnce(&mut SearchCx) -> R) -> R {
        let outer = std::mem::replace(&mut self.outcome_only, false);
        let r = f(self);
        self.outcome_only = outer;
        r
    }

    /// Counts `n` search nodes at once (a searcher that examines several
    /// in one go), as [`SearchCx::tick`].
    #[inline]
    pub fn tick_n(&mut self, n: u32) -> bool {
        self.nodes += u64::from(n);
        self.clock.charge(u64::from(n))
    }

    /// Sets the cap on the memory the searches in this context may hold
    /// (bytes; `None`: no cap).
    pub fn set_memory_limit(&mut self, limit: Option<usize>) {
        self.memory_limit = limit;
    }

    /// Starts the clock afresh for a new search when none is running: a new
    /// deadline, no stop, no work and no memory counted (the work limit,
    /// the memory cap and the givens stay). For a caller that runs searches
    /// one by one, each with its own time (`rules matches`).
    pub fn restart(&mut self, deadline: Option<Instant>) {
        let work_limit = self.clock.work_limit;
        self.clock = Clock {
            deadline,
            work_limit,
            limited: deadline.is_some() || work_limit.is_some(),
            ..Clock::default()
        };
        self.memory = 0;
    }

    /// Searches in this context also stop when the thread has spent `limit`
    /// more CPU time (from now): a limit that does not depend on what else
    /// the machine runs. A run is made on one thread.
    pub fn set_cpu_limit(&mut self, limit: Option<Duration>) {
        self.clock.cpu_deadline = limit.map(|t| thread_cpu_seconds() + t.as_secs_f64());
        self.clock.limited |= limit.is_some();
    }

    /// Has the CPU time given by [`SearchCx::set_cpu_limit`] been spent?
    /// (Looked at between steps; searches look at it with the clock.)
    pub fn past_cpu_limit(&self) -> bool {
        self.clock
            .cpu_deadline
            .is_some_and(|d| thread_cpu_seconds() >= d)
    }

    /// The deadline searches in this context stop at.
    pub fn deadline(&self) -> Option<Instant> {
        self.clock.deadline
    }

    /// A search now holds `bytes` more (its buffers grew); `true` when the
    /// searches hold more than the cap and must stop now, as at the
    /// deadline. A search gives back what it counted with
    /// [`SearchCx::release`] when it ends.
    #[inline]
    pub fn hold(&mut self, bytes: usize) -> bool {
        self.memory += bytes;
        if self.memory_limit.is_some_and(|m| self.memory > m) {
            self.clock.halt(Stop::Memory);
        }
        self.clock.interrupted
    }

    /// Would a search that holds `bytes` besides what is counted go over
    /// the cap? Then searches stop, as at the deadline. For a search whose
    /// memory is bounded but may be large (a trial's graphs and kept
    /// propagations), looked at as it grows when there is a cap
    /// ([`SearchCx::memory_limit`]).
    pub fn over(&mut self, bytes: usize) -> bool {
        if self
            .memory_limit
            .is_some_and(|m| self.memory.saturating_add(bytes) > m)
        {
            self.clock.halt(Stop::Memory);
        }
        self.clock.interrupted
    }

    /// The cap on the memory searches hold, if any.
    pub fn memory_limit(&self) -> Option<usize> {
        self.memory_limit
    }

    /// A search gives back `bytes` it counted with [`SearchCx::hold`].
    #[inline]
    pub fn release(&mut self, bytes: usize) {
        self.memory = self.memory.saturating_sub(bytes);
    }

    /// Why searches stopped (`None`: they did not).
    pub fn stop(&self) -> Option<Stop> {
        self.clock.stop
    }

    /// Goes on after a search stopped at the memory cap: the caller gave
    /// that search up (a targeted search, one target) and starts another.
    /// A stop at the deadline or the node limit stays. Returns whether the
    /// context may search again.
    pub fn resume(&mut self) -> bool {
        if self.clock.stop == Some(Stop::Memory) {
            self.clock.stop = None;
            self.clock.interrupted = false;
        }
        !self.clock.interrupted
    }

    /// Counts `n` nodes of a search made earlier whose result is taken
    /// again (a cached propagation or match), as [`SearchCx::tick_n`] would
    /// have counted them one batch at a time; `true` when the search must
    /// stop now.
    pub fn charge(&mut self, n: u64) -> bool {
        self.nodes += n;
        self.clock.charge(n)
    }

    /// Looks at the clock now, whatever the work counted since the last
    /// look (a search whose units of work vary in cost: a chain search's
    /// partial chains); `true` when the search must stop now.
    pub fn look(&mut self) -> bool {
        self.clock.look();
        self.clock.interrupted
    }

    /// Did a search stop (at the deadline, the node limit or the memory
    /// cap)?
    pub fn interrupted(&self) -> bool {
        self.clock.interrupted
    }
}

/// Conclusions a caller wants to know about: candidates whose elimination,
/// and candidates whose assertion, it asks a searcher for
/// ([`Searcher::search_for`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    pub elim: Bits,
    pub assert: Bits,
}

impl Targets {
    /// Every live candidate of `state`, both ways.
    pub fn all(state: &State) -> Targets {
        Targets {
            elim: state.cands,
            assert: state.cands,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.elim.is_empty() && self.assert.is_empty()
    }

    /// The candidates of a match's kind among these.
    pub fn of_kind(&self, kind: ConclusionKind) -> &Bits {
        match kind {
            ConclusionKind::Eliminate => &self.elim,
            ConclusionKind::Assert => &self.assert,
        }
    }

    /// Whether a match concludes some of these.
    pub fn meets(&self, f: &Found) -> bool {
        self.of_kind(f.kind).intersects(&f.conclusions)
    }

    /// These without what a match concludes.
    pub fn remove(&mut self, f: &Found) {
        match f.kind {
            ConclusionKind::Eliminate => self.elim = self.elim.minus(&f.conclusions),
            ConclusionKind::Assert => self.assert = self.assert.minus(&f.conclusions),
        }
    }

    pub fn or(&self, o: &Targets) -> Targets {
        Targets {
            elim: self.elim.or(&o.elim),
            assert: self.assert.or(&o.assert),
        }
    }

    pub fn minus(&self, o: &Targets) -> Targets {
        Targets {
            elim: self.elim.minus(&o.elim),
            assert: self.assert.minus(&o.assert),
        }
    }

    pub fn and(&self, o: &Targets) -> Targets {
        Targets {
            elim: self.elim.and(&o.elim),
            assert: self.assert.and(&o.assert),
        }
    }
}

/// The three kinds of searcher, for code that must know which one it holds
/// (drawing a pattern's bound values, linking trial rules to their sets,
/// the filter's counts of trial steps).
#[derive(Clone, Copy, Debug)]
pub enum SearcherKind<'a> {
    /// A pattern rule (`rule`).
    Pattern(&'a pattern::Plan),
    /// A chain rule (`chain`).
    Chain(&'a chain::ChainSearch),
    /// A trial rule (`trial`).
    Trial(&'a trial::TrialSearch),
}

/// The interface every kind of rule body implements.
pub trait Searcher: Send + Sync + fmt::Debug {
    /// Calls `f` with every match that has a non-empty conclusion, in the
    /// searcher's fixed order, until `f` returns `Break` or the context's
    /// deadline passes (then it returns `Break` too; see
    /// [`SearchCx::interrupted`]).
    fn search(
        &self,
        cx: &mut SearchCx,
        state: &State,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()>;

    /// The first match [`Searcher::search`] gives on the board's state, the
    /// one the engine applies (`None`: no match, or the deadline passed).
    /// A searcher that can skip what cannot come first, or read its match
    /// off the board's counts (a count plan), overrides it, with the same
    /// match and the same node count. With [`SearchCx::outcome_only`], the
    /// match's evidence may be left out, and nodes a count plan skips are
    /// not counted (an outcome-only caller reads no statistics).
    fn first(&self, cx: &mut SearchCx, board: &Board) -> Option<Found> {
        let mut found = None;
        let _ = self.search(cx, &board.state, &mut |m| {
            found = Some(m);
            ControlFlow::Break(())
        });
        found
    }

    /// The matches of [`Searcher::search`] that conclude some of `wanted`,
    /// found by a search for those conclusions: a chain rule searches the
    /// wanted targets only. Every wanted conclusion that some match of
    /// `search` makes is made by some match reported (each one a match of
    /// `search`); matches that conclude nothing wanted, or only what a
    /// match reported before concludes, may be left out, and the order is
    /// the searcher's. At the memory cap, a searcher that can give up one
    /// target and go on adds what it gave up to [`SearchCx::undecided`]
    /// and resumes ([`SearchCx::resume`]); at any other stop it returns
    /// `Break`. The default searches everything and filters.
    fn search_for(
        &self,
        cx: &mut SearchCx,
        state: &State,
        wanted: &Targets,
        f: &mut dyn FnMut(Found) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        search_filtered(self, cx, state, wanted, f)
    }

    /// The first match of [`Searcher::search`], in its order, that
    /// concludes some of `wanted` (`None`: none, or the search stopped).
    /// A chain rule that concludes its target only looks at the wanted
    /// targets. The default searches until it comes.
    fn first_for(&self, cx: &mut SearchCx, state: &State, wanted: &Targets) -> Option<Found> {
        let mut hit = None;
        let _ = self.search(cx, state, &mut |m| {
            if wanted.meets(&m) {
                hit = Some(m);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        hit
    }

    /// What a match found on `branch` (a trial's branch of `original`)
    /// relies on: the candidates of `original` gone from `branch` without
    /// which it would not hold. Empty when the rule does not say (a pattern
    /// rule without a `parents` clause): a trial that applies rules between
    /// its implication rounds ignores such matches.
    fn parents(&self, _original: &State, _branch: &State, _evidence: &Evidence) -> Bits {
        Bits::EMPTY
    }

    /// The match's pattern in SudoRules notation (empty when the rule has
    /// nothing to show, as singles), from the state the match was found in.
    fn render(&self, before: &State, evidence: &Evidence) -> String;

    /// The name a match is printed under when it is not the rule's
    /// (`rule`): the rule's with the holes its match binds filled in (a
    /// pattern rule named `asc[{K}]` with `let K = …`: `asc[3]`). `None`:
    /// the rule's name.
    fn step_name(&self, _rule: &str, _evidence: &Evidence) -> Option<String> {
        None
    }

    /// Which kind of searcher this is.
    fn kind(&self) -> SearcherKind<'_>;
}

/// [`Searcher::search_for`] by a whole search, filtered: what a searcher
/// that cannot search for targets does. A search stopped at the memory cap
/// leaves the wanted conclusions it had not made undecided.
pub fn search_filtered<S: Searcher + ?Sized>(
    s: &S,
    cx: &mut SearchCx,
    state: &State,
    wanted: &Targets,
    f: &mut dyn FnMut(Found) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut left = *wanted;
    let mut broke = false;
    let _ = s.search(cx, state, &mut |m| {
        if left.meets(&m) {
            left.remove(&m);
            if f(m).is_break() {
                broke = true;
                return ControlFlow::Break(());
            }
        }
        if left.is_empty() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if broke {
        return ControlFlow::Break(());
    }
    if cx.stop() == Some(Stop::Memory) {
        cx.undecided = cx.undecided.or(&left);
        cx.resume();
    }
    if cx.interrupted() {
        return ControlFlow::Break(());
    }
    ControlFlow::Continue(())
}

/// The CPU time the calling thread has used, in seconds (0 where the
/// system does not tell).
#[cfg(unix)]
pub fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid `timespec` to write; the clock id is a constant.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
    } else {
        0.0
    }
}

/// The CPU time the calling thread has used (not told here: 0).
#[cfg(not(unix))]
pub fn thread_cpu_seconds() -> f64 {
    0.0
}
