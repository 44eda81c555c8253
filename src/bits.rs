//! Fixed-size bitsets used for the changing state.
//!
//! [`Bits`] is a 768-bit set (twelve `u64` words): large enough for the 729
//! candidates and for every smaller index space (324 CSP variables, 81 cells,
//! 27 houses, 9 digits). It is `Copy`, so set algebra in compiled rules costs a
//! handful of word operations and no allocation.

use std::fmt;

/// Number of 64-bit words in a [`Bits`].
pub const WORDS: usize = 12;

/// A fixed 768-bit set of small indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bits(pub [u64; WORDS]);

impl Bits {
    /// The empty set.
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The set `{0, 1, …, n-1}`.
    pub fn first(n: usize) -> Bits {
        let mut b = Bits::EMPTY;
        for i in 0..n {
            b.insert(i);
        }
        b
    }

    /// A set holding the given indices.
    pub fn from_indices<I: IntoIterator<Item = usize>>(it: I) -> Bits {
        let mut b = Bits::EMPTY;
        for i in it {
            b.insert(i);
        }
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
        i < WORDS * 64 && self.0[i >> 6] & (1u64 << (i & 63)) != 0
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
    pub fn and(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= b;
        }
        r
    }

    #[inline]
    pub fn or(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a |= b;
        }
        r
    }

    #[inline]
    pub fn minus(&self, o: &Bits) -> Bits {
        let mut r = *self;
        for (a, b) in r.0.iter_mut().zip(o.0.iter()) {
            *a &= !b;
        }
        r
    }

    #[inline]
    pub fn intersects(&self, o: &Bits) -> bool {
        self.0.iter().zip(o.0.iter()).any(|(a, b)| a & b != 0)
    }

    #[inline]
    pub fn is_subset(&self, o: &Bits) -> bool {
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
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

impl fmt::Debug for Bits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Iterator over the members of a [`Bits`].
pub struct BitsIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
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

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(it: I) -> Self {
        Bits::from_indices(it)
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
        assert!(!a.contains(10_000));
    }
}
