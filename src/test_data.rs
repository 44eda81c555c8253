//! Puzzle samples shared by the library's unit tests.

/// The first 1000 lines of the cbg-000 collection
/// (`tests/data/cbg-000-first1000.txt`), one puzzle a line.
pub(crate) const CBG_FIRST1000: &str = include_str!("../tests/data/cbg-000-first1000.txt");
