//! Fixed-size bitsets, sized to what they hold.
//!
//! [`BitSet<W>`] is a `Copy` set of small indices in `W` 64-bit words, so
//! set algebra costs a handful of word operations and no allocation. The
//! aliases name the sizes the engine uses:
//!
//! | alias | words | holds |
//! |---|---|---|
//! | [`CellSet`] | 2 | the 81 cells |
//! | [`VarSet`] | 6 | the 324 CSP variables |
//! | [`Bits`] | 12 | the 729 candidates, and every smaller index space (what pattern rules bind) |
//! | [`GCandSet`] | 20 | candidates and g-candidates (729 + 486 = 1,215), for g-chains |
//! | [`LitSet`] | 23 | on/off literals of candidates (2 × 729 = 1,458), for implication graphs |
//!
//! The pattern matcher works on [`Bits`] only; the larger sets are for the
//! chain and trial searches, so they cost the matcher nothing.

use std::fmt;

/// A fixed set of indices `0 .. 64 * W`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitSet<const W: usize>(pub [u64; W]);

/// Number of 64-bit words in a [`Bits`].
pub const WORDS: usize = 12;

/// A set of candidates (or of cells, houses, digits, variables: any index
/// below 768). The value type of pattern rules.
pub type Bits = BitSet<WORDS>;
/// A set of cells.
pub type CellSet = BitSet<2>;
/// A set of CSP variables.
pub type VarSet = BitSet<6>;
/// A set of candidates and g-candidates (indices 729.. are g-candidates).
pub type GCandSet = BitSet<20>;
/// A set of on/off literals (`2z` = candidate `z` on, `2z + 1` = off).
pub type LitSet = BitSet<23>;

// Each alias holds what it names (checked when compiling). g-candidates:
// one digit in a block ∩ row or block ∩ column, 9 × 9 × 6 = 486.
const _: () = {
    use crate::grid::geometry::{N_CANDS, N_CELLS, N_SEGMENTS, N_VARS};
    assert!(CellSet::CAPACITY >= N_CELLS);
    assert!(VarSet::CAPACITY >= N_VARS);
    assert!(Bits::CAPACITY >= N_CANDS);
    assert!(GCandSet::CAPACITY >= N_CANDS + N_SEGMENTS);
    assert!(LitSet::CAPACITY >= 2 * N_CANDS);
};

impl<const W: usize> Default for BitSet<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> BitSet<W> {
    /// The empty set.
    pub const EMPTY: Self = BitSet([0; W]);
    /// How many indices the set can hold.
    pub const CAPACITY: usize = 64 * W;

    /// The set `{0, 1, …, n-1}`.
    pub fn first(n: usize) -> Self {
        let mut b = Self::EMPTY;
        for (i, w) in b.0.iter_mut().enumerate() {
            let lo = i * 64;
            if n >= lo + 64 {
                *w = u64::MAX;
            } else if n > lo {
                *w = (1u64 << (n - lo)) - 1;
            }
        }
        b
    }

    /// A set holding the given indices.
    pub fn from_indices<I: IntoIterator<Item = usize>>(it: I) -> Self {
        let mut b = Self::EMPTY;
        for i in it {
            b.insert(i);
        }
        b
    }

    /// The set `{i}`.
    #[inline]
    pub fn single(i: usize) -> Self {
        let mut b = Self::EMPTY;
        b.insert(i);
        b
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        i < W * 64 && self.0[i >> 6] & (1u64 << (i & 63)) != 0
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn and(&self, o: &Self) -> Self {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= b;
        }
        r
    }

    #[inline]
    pub fn or(&self, o: &Self) -> Self {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a |= b;
        }
        r
    }

    #[inline]
    pub fn minus(&self, o: &Self) -> Self {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= !b;
        }
        r
    }

    #[inline]
    pub fn intersects(&self, o: &Self) -> bool {
        self.0.iter().zip(o.0.iter()).any(|(a, b)| a & b != 0)
    }

    #[inline]
    pub fn is_subset(&self, o: &Self) -> bool {
        self.0.iter().zip(o.0.iter()).all(|(a, b)| a & !b == 0)
    }

    /// The smallest index in the set.
    pub fn min(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The largest index in the set.
    pub fn max(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)
    }

    /// Iterates over the indices in increasing order.
    #[inline]
    pub fn iter(&self) -> BitIter<W> {
        BitIter {
            words: self.0,
            word: 0,
        }
    }
}

impl<const W: usize> fmt::Debug for BitSet<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the members of a [`BitSet`].
pub struct BitIter<const W: usize> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for BitIter<W> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < W {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}

impl<const W: usize> FromIterator<usize> for BitSet<W> {
    fn from_iter<I: IntoIterator<Item = usize>>(it: I) -> Self {
        Self::from_indices(it)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_algebra() {
        let a = Bits::from_indices([0, 5, 64, 700]);
        let b = Bits::from_indices([5, 700, 728]);
        assert_eq!(a.and(&b), Bits::from_indices([5, 700]));
        assert_eq!(a.or(&b).len(), 5);
        assert_eq!(a.minus(&b), Bits::from_indices([0, 64]));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![0, 5, 64, 700]);
        assert_eq!(a.min(), Some(0));
        assert_eq!(b.max(), Some(728));
        assert!(Bits::from_indices([5]).is_subset(&a));
        assert!(!b.is_subset(&a));
        assert!(Bits::EMPTY.is_empty());
        assert_eq!(Bits::first(729).len(), 729);
        assert_eq!(Bits::first(64).len(), 64);
        assert_eq!(Bits::first(0), Bits::EMPTY);
        assert!(!a.contains(10_000));
        assert_eq!(Bits::single(3), Bits::from_indices([3]));
    }

    #[test]
    fn sizes_hold_what_they_name() {
        let g = GCandSet::first(1215);
        assert_eq!(g.len(), 1215);
        assert_eq!(g.max(), Some(1214));
        let l = LitSet::from_indices([0, 1457]);
        assert_eq!(l.iter().collect::<Vec<_>>(), vec![0, 1457]);
    }
}
