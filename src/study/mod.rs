//! Tools for studying rules rather than puzzles: which rules subsume
//! which (`subsume`), and how hard a collection is for a ladder of rule
//! sets or by a rating (`classify`).
//!
//! - [`spec`]: rule specs for the study commands: a rule name, a family
//!   (`x-wing`, `whip[..2]`), a rule file or a rule set, joined by `+`;
//! - [`subsume`]: what a rule set A concludes at a state against what B
//!   concludes (directly, or B to its fixpoint), along resolution paths;
//! - [`ladder`]: ladder files (`rules/ladders/*.yaml`): rungs of rule sets;
//! - [`classify`]: per-puzzle results and their tables (ladders, rating
//!   distributions), as text and CSV;
//! - [`plot`]: the bar charts and cumulative curves of `classify --plot`
//!   (PNG or SVG, with `plotters`).
//!
//! Nothing here names a technique: the commands take rule names and sets
//! as data, and the ladders are YAML files beside the rule sets.

pub mod classify;
pub mod ladder;
pub mod plot;
pub mod spec;
pub mod subsume;
