//! [`DynBits`]: a bitset sized at run time, for sets of a puzzle type's
//! candidates, cells or variables (sudoku:49 has 117,649 candidates,
//! latin:64 262,144: far beyond the fixed 768-bit sets of `grid/`).

/// A set of indices `0..len`, one bit each, in 64-bit words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DynBits {
    words: Vec<u64>,
    len: usize,
}

impl DynBits {
    /// The empty set of indices `0..len`.
    pub fn new(len: usize) -> DynBits {
        DynBits {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// The set of every index `0..len`.
    pub fn full(len: usize) -> DynBits {
        let mut b = DynBits::new(len);
        for i in 0..len / 64 {
            b.words[i] = u64::MAX;
        }
        if !len.is_multiple_of(64) {
            b.words[len / 64] = (1u64 << (len % 64)) - 1;
        }
        b
    }

    /// The set of `indices` within `0..len`.
    pub fn from_indices(len: usize, indices: impl IntoIterator<Item = usize>) -> DynBits {
        let mut b = DynBits::new(len);
        for i in indices {
            b.insert(i);
        }
        b
    }

    /// The size of the universe (`0..len`), not the number of members.
    pub fn universe(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Adds `i`; `i` must be below the universe's size.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        assert!(i < self.len, "index {i} outside 0..{}", self.len);
        self.words[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        if i < self.len {
            self.words[i / 64] &= !(1 << (i % 64));
        }
    }

    /// The number of members.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Keeps the members also in `other` (same universe).
    pub fn and_with(&mut self, other: &DynBits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= b;
        }
    }

    /// Adds the members of `other` (same universe).
    pub fn or_with(&mut self, other: &DynBits) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// The members, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let i = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + i)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_of_any_size() {
        let mut b = DynBits::new(117_649);
        assert!(b.is_empty());
        b.insert(0);
        b.insert(64);
        b.insert(117_648);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 64, 117_648]);
        assert_eq!(b.count(), 3);
        b.remove(64);
        assert!(!b.contains(64) && b.contains(117_648));
        let full = DynBits::full(130);
        assert_eq!(full.count(), 130);
        assert_eq!(full.iter().last(), Some(129));
        let mut x = DynBits::from_indices(130, [1, 2, 129]);
        x.and_with(&DynBits::from_indices(130, [2, 129, 7]));
        assert_eq!(x.iter().collect::<Vec<_>>(), vec![2, 129]);
        x.or_with(&DynBits::from_indices(130, [5]));
        assert_eq!(x.iter().collect::<Vec<_>>(), vec![2, 5, 129]);
    }
}
