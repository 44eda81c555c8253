//! A last round of assertions judged on the board's planes: when only
//! the outcome of a round that asserts the one candidate of every
//! variable with one (of some spaces) is wanted, and no two of its
//! candidates are linked, the round's result does not depend on the order
//! of its assertions and is read off the planes with no count kept up to
//! date.

use super::*;

impl Board {
    /// A last round of assertions, when only its outcome is wanted: the
    /// undecided variables of `spaces` with one live candidate (the
    /// round's matches, space by space, each in index order) each assert
    /// their candidate if it is still live. Returns whether some
    /// undecided variable is left without a candidate, and how many
    /// candidates were asserted: what the same round gives through
    /// [`Board::assert`]. The lanes are left as they are (or, when the
    /// order matters, inconsistent): drop them.
    ///
    /// When no two of the round's candidates are linked, each is still
    /// live when its turn comes and the round's outcome does not depend
    /// on their order: it is read off the planes, with no count kept up
    /// to date. Otherwise they are asserted in turn
    /// (`Board::last_round_in_order`).
    pub fn last_round_of_ones(&mut self, spaces: &[Space]) -> (bool, usize) {
        // The round's candidates, by digit (`on`), their cells, and the
        // peers of each digit's candidates (what they eliminate).
        let (mut on, mut kill, mut cells) = ([0u128; 9], [0u128; 9], 0u128);
        let mut applied = 0;
        for &space in spaces {
            for (w, mask) in space_words(space) {
                let mut bits = self.ones.0[w] & mask;
                while bits != 0 {
                    let v = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let (c, d) = if v < N_CELLS {
                        let m = cell_mask(&self.state.cands, v);
                        (v, m.trailing_zeros() as usize)
                    } else {
                        let (h, d) = ((v - N_CELLS) / 9, v % 9);
                        let m = self.planes[d] & HOUSE81[h];
                        (m.trailing_zeros() as usize, d)
                    };
                    let bit = CELL81[c];
                    if on[d] & bit != 0 {
                        // Asserted already: no longer live.
                        continue;
                    }
                    if (cells | kill[d]) & bit != 0 {
                        // Linked to a candidate asserted before it: the
                        // order matters (which one is asserted).
                        return self.last_round_in_order(spaces);
                    }
                    on[d] |= bit;
                    cells |= bit;
                    kill[d] |= PEERS81[c];
                    applied += 1;
                }
            }
        }
        // No two are linked: each is live when its turn comes, and the
        // round ends with all of them asserted whatever the order. A
        // variable is then empty when it is undecided and every candidate
        // it had is gone: a cell whose digits all went, a digit whose
        // places in an open house all went (and not to one asserted
        // there).
        let (mut undecided, mut left) = (0u128, 0u128);
        for d in 0..9 {
            let plane = self.planes[d];
            undecided |= plane;
            let kept = plane & !cells & !kill[d];
            left |= kept;
            if kept | on[d] != plane && self.open[d] & !occupied(kept | on[d]) != 0 {
                return (true, applied);
            }
        }
        (undecided & !cells & !left != 0, applied)
    }

    /// [`Board::last_round_of_ones`] when the order of the round's
    /// assertions matters: each is made in turn. Nothing is kept for a
    /// later round, so only the planes and the counts are kept up to date
    /// (no candidates, values or `ones`), and once a variable is empty
    /// only the planes (which candidates are still live).
    #[inline(never)]
    fn last_round_in_order(&mut self, spaces: &[Space]) -> (bool, usize) {
        let ones = self.ones;
        // Cells decided in this round (their candidates are no longer live).
        let mut taken = 0u128;
        let mut empty = false;
        let mut applied = 0;
        for &space in spaces {
            for (w, mask) in space_words(space) {
                let mut bits = ones.0[w] & mask;
                while bits != 0 {
                    let v = 64 * w + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    // The variable's one candidate when the round began, if
                    // it is still live (a cell's from the candidates, which
                    // this round leaves as they were; a house's from the
                    // planes, which it keeps up to date).
                    let (c, d) = if v < N_CELLS {
                        let m = cell_mask(&self.state.cands, v);
                        let d = m.trailing_zeros() as usize;
                        if self.planes[d] & !taken & CELL81[v] == 0 {
                            continue;
                        }
                        (v, d)
                    } else {
                        let (h, d) = ((v - N_CELLS) / 9, v % 9);
                        let m = self.planes[d] & !taken & HOUSE81[h];
                        if m == 0 {
                            continue;
                        }
                        (m.trailing_zeros() as usize, d)
                    };
                    applied += 1;
                    taken |= CELL81[c];
                    if empty {
                        self.planes[d] &= !PEERS81[c];
                        continue;
                    }
                    empty = self.assert_counting(c, d);
                }
            }
        }
        (empty, applied)
    }

    /// Decides live candidate `9c + d` keeping only the planes and the
    /// counts (see [`Board::last_round_of_ones`]); whether an undecided
    /// variable lost its last candidate.
    #[inline(always)]
    fn assert_counting(&mut self, c: usize, d: usize) -> bool {
        let mut empty = false;
        // The cell's other live digits: their rn, cn and bn variables
        // lose a candidate (the cell's own variable is decided).
        self.planes[d] ^= CELL81[c];
        let mut digits = cell_mask(&self.state.cands, c) & !(1 << d);
        while digits != 0 {
            let e = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            if self.planes[e] & CELL81[c] != 0 {
                empty |= self.drop_light::<0b1110>(c, e);
            }
        }
        let plane = self.planes[d];
        let [row_in, row_out, col_in, col_out, block_only] = PEER_PARTS[c];
        empty |= self.drop_peers_light::<0b0101>(plane & row_in, d);
        empty |= self.drop_peers_light::<0b1101>(plane & row_out, d);
        empty |= self.drop_peers_light::<0b0011>(plane & col_in, d);
        empty |= self.drop_peers_light::<0b1011>(plane & col_out, d);
        empty |= self.drop_peers_light::<0b0111>(plane & block_only, d);
        empty
    }

    /// Drops digit `d` from the cells of `cells` as [`Board::drop_light`].
    #[inline(always)]
    fn drop_peers_light<const VARS: u8>(&mut self, mut cells: u128, d: usize) -> bool {
        let mut empty = false;
        while cells != 0 {
            let p = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            empty |= self.drop_light::<VARS>(p, d);
        }
        empty
    }

    /// Removes live candidate `9c + d` from its plane and counts it out of
    /// the variables `VARS` selects (as [`Board::drop_counting`]); whether
    /// one of them is left without a candidate.
    #[inline(always)]
    fn drop_light<const VARS: u8>(&mut self, c: usize, d: usize) -> bool {
        self.planes[d] ^= CELL81[c];
        let vars = CAND_VARS[9 * c + d];
        let mut empty = false;
        for (i, &v) in vars.iter().enumerate() {
            if VARS & (1 << i) != 0 {
                let n = &mut self.count[usize::from(v)];
                *n -= 1;
                empty |= *n == 0;
            }
        }
        empty
    }
}
