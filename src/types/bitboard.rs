use super::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` is [`Square`] index `i` (file-major, so each file is nine
/// consecutive bits). Only the low 81 bits are ever set; [`Not`] keeps it that way.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << Square::NUM) - 1;

/// Each square's bit, by index; 128 entries so that masking the index stands in for a
/// bounds check (squares index below 81).
const SQUARE_BITS: [u128; 128] = {
    let mut bits = [0u128; 128];
    let mut i = 0;
    while i < Square::NUM {
        bits[i] = 1u128 << i;
        i += 1;
    }
    bits
};

/// Bitboard of one file (9 bits) for each file index.
const fn file_mask(file: usize) -> u128 {
    0x1ffu128 << (file * 9)
}

/// Bitboard of one rank for each rank index.
const fn rank_mask(rank: usize) -> u128 {
    let mut m = 0u128;
    let mut f = 0;
    while f < 9 {
        m |= 1u128 << (f * 9 + rank);
        f += 1;
    }
    m
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding one square.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        // A table: a 128-bit shift by a variable count takes some seven instructions,
        // and the search asks for single squares everywhere.
        Bitboard(SQUARE_BITS[sq.index() & (SQUARE_BITS.len() - 1)])
    }

    /// All squares of a file (0-based index: 0 is file 1).
    #[inline(always)]
    pub const fn file(file: usize) -> Bitboard {
        Bitboard(file_mask(file))
    }

    /// All squares of a rank (0-based index: 0 is rank a).
    #[inline(always)]
    pub const fn rank(rank: usize) -> Bitboard {
        Bitboard(rank_mask(rank))
    }

    /// Ranks `color` sees as its far `n` ranks: n = 3 is the promotion zone, n = 1 the
    /// rank where pawns and lances must promote, n = 2 where knights must.
    #[inline(always)]
    pub const fn far_ranks(color: Color, n: usize) -> Bitboard {
        let mut m = 0u128;
        let mut r = 0;
        while r < n {
            m |= match color {
                Color::Black => rank_mask(r),
                Color::White => rank_mask(8 - r),
            };
            r += 1;
        }
        Bitboard(m)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn is_nonempty(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & SQUARE_BITS[sq.index() & (SQUARE_BITS.len() - 1)] != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// The lowest square of a non-empty set.
    #[inline(always)]
    pub fn lsb_unchecked(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros() as usize)
    }

    /// The squares whose index is lower than `sq`'s.
    #[inline(always)]
    pub const fn below(sq: Square) -> Bitboard {
        Bitboard((1u128 << sq.index()) - 1)
    }

    /// For every file holding at least one square of `self`, the whole file.
    /// Used for the nifu rule: no pawn drop on a file that already has one's own pawn.
    #[inline(always)]
    pub const fn fill_files(self) -> Bitboard {
        const LOW8: u128 = {
            let mut m = 0u128;
            let mut f = 0;
            while f < 9 {
                m |= 0xffu128 << (f * 9);
                f += 1;
            }
            m
        };
        const TOP: u128 = rank_mask(8);
        // Per 9-bit file: (low 8 bits + 255) carries into bit 8 iff any of them is set;
        // no carry leaves the file because 255 + 255 < 512.
        let any = (((self.0 & LOW8) + LOW8) | self.0) & TOP;
        Bitboard(any | (any - (any >> 8)))
    }

    /// Squares one step towards `color`'s far side (Black: towards rank a). Bits that would
    /// leave their file are dropped.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::Black => Bitboard((self.0 >> 1) & !rank_mask(8)),
            Color::White => Bitboard((self.0 << 1) & !rank_mask(0) & ALL_BITS),
        }
    }

    /// Squares one step towards `color`'s own side.
    #[inline(always)]
    pub fn backward(self, color: Color) -> Bitboard {
        self.forward(!color)
    }

    /// Squares one file to either side (the files are nine bits apart, so a shift by nine
    /// never mixes ranks).
    #[inline(always)]
    pub const fn sideways(self) -> Bitboard {
        Bitboard(self.next_file().0 | self.previous_file().0)
    }

    /// Squares one file up (file 1 towards file 9).
    #[inline(always)]
    pub const fn next_file(self) -> Bitboard {
        Bitboard((self.0 << 9) & ALL_BITS)
    }

    /// Squares one file down (file 9 towards file 1).
    #[inline(always)]
    pub const fn previous_file(self) -> Bitboard {
        Bitboard(self.0 >> 9)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        // Half by half: on 64-bit words each step is a test, a count of trailing zeros
        // and a clear of the lowest bit, where the 128-bit operations take two or three
        // instructions each (the search walks some hundred squares a node this way).
        let low = self.0 as u64;
        if low != 0 {
            self.0 = (self.0 & !u128::from(u64::MAX)) | u128::from(low & (low - 1));
            return Some(Square::from_index_unchecked(low.trailing_zeros() as usize));
        }
        let high = (self.0 >> 64) as u64;
        if high != 0 {
            self.0 = u128::from(high & (high - 1)) << 64;
            return Some(Square::from_index_unchecked(
                64 + high.trailing_zeros() as usize,
            ));
        }
        None
    }
    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline(always)]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl fmt::Debug for Bitboard {
    /// A 9x9 diagram as seen from Black: file 9 on the left, rank a on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for rank in 0..9 {
            for file in (0..9).rev() {
                let sq = Square::from_index_unchecked(file * 9 + rank);
                f.write_str(if self.has(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_come_out_in_index_order_across_both_halves() {
        // Squares on both sides of the 64-bit boundary, the first and the last.
        let indices = [0usize, 1, 9, 62, 63, 64, 65, 71, 72, 80];
        let bits = indices.iter().fold(0u128, |b, &i| b | 1u128 << i);
        let walked: Vec<usize> = Bitboard(bits).map(|sq| sq.index()).collect();
        assert_eq!(walked, indices);
        for i in 0..Square::NUM {
            let sq = Square::from_index_unchecked(i);
            assert_eq!(Bitboard::from_square(sq).0, 1u128 << i);
            assert!(Bitboard(bits).has(sq) == indices.contains(&i), "square {i}");
        }
        assert_eq!(Bitboard(0).next(), None);
    }
}
