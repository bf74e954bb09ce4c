use super::PieceKind;
use std::fmt;

/// The pieces one player holds in hand, packed into a `u32`.
///
/// Each hand kind has its own bit field with a spare bit above it, so adding or removing a
/// piece is one integer add or subtract, and "hand A holds at least as much of every kind as
/// hand B" is one subtraction checked against the spare bits (used for superior repetition).
///
/// | kind   | shift | width | max |
/// |--------|-------|-------|-----|
/// | pawn   | 0     | 5     | 18  |
/// | lance  | 8     | 3     | 4   |
/// | knight | 12    | 3     | 4   |
/// | silver | 16    | 3     | 4   |
/// | gold   | 20    | 3     | 4   |
/// | bishop | 24    | 2     | 2   |
/// | rook   | 28    | 2     | 2   |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Hand(u32);

const SHIFT: [u32; 8] = [0, 0, 8, 12, 16, 24, 28, 20];
const MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7];
/// The spare bit above each field; a borrow into one of them means "not superior".
const BORROW: u32 =
    (1 << 5) | (1 << 11) | (1 << 15) | (1 << 19) | (1 << 23) | (1 << 26) | (1 << 30);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// How many pieces of `kind` (a hand kind, Pawn..=Gold) are held.
    #[inline(always)]
    pub const fn count(self, kind: PieceKind) -> u32 {
        let k = kind as usize;
        (self.0 >> SHIFT[k]) & MASK[k]
    }

    /// Adds one piece of a hand kind. The caller keeps counts within a full set.
    #[inline(always)]
    pub fn add(&mut self, kind: PieceKind) {
        self.0 += 1 << SHIFT[kind as usize];
    }

    /// Removes one piece of a hand kind; the hand must hold one.
    #[inline(always)]
    pub fn remove(&mut self, kind: PieceKind) {
        debug_assert!(self.count(kind) > 0);
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Sets the count of a hand kind (used by SFEN parsing; `count` fits the field).
    pub fn set(&mut self, kind: PieceKind, count: u32) {
        let k = kind as usize;
        debug_assert!(count <= MASK[k]);
        self.0 = (self.0 & !(MASK[k] << SHIFT[k])) | (count << SHIFT[k]);
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether this hand holds any piece other than pawns.
    #[inline(always)]
    pub const fn has_non_pawn(self) -> bool {
        self.0 & !(MASK[PieceKind::Pawn as usize] << SHIFT[PieceKind::Pawn as usize]) != 0
    }

    /// Whether this hand holds at least as many of every kind as `other`.
    #[inline(always)]
    pub const fn is_superset_of(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// Kind by kind, the larger count of the two hands.
    pub fn max(self, other: Hand) -> Hand {
        let mut h = self;
        for kind in PieceKind::HAND {
            h.set(kind, self.count(kind).max(other.count(kind)));
        }
        h
    }

    /// Kind by kind, the smaller count of the two hands.
    pub fn min(self, other: Hand) -> Hand {
        let mut h = self;
        for kind in PieceKind::HAND {
            h.set(kind, self.count(kind).min(other.count(kind)));
        }
        h
    }

    /// Bit set of the kinds held: bit `k` is set when kind `k` (1..=7) is held.
    #[inline(always)]
    pub fn kinds_held(self) -> u32 {
        let mut bits = 0;
        for kind in PieceKind::HAND {
            if self.count(kind) > 0 {
                bits |= 1 << kind as u32;
            }
        }
        bits
    }

    /// The raw packed value (stable within a build; used for hashing tables).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Hand {
    /// Black-case SFEN letters with counts, e.g. `R2P`; `-` when empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for kind in PieceKind::HAND {
            match self.count(kind) {
                0 => {}
                1 => write!(f, "{}", kind.sfen_letter())?,
                n => write!(f, "{}{}", n, kind.sfen_letter())?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_pawns_are_told_apart_from_pawns() {
        let mut hand = Hand::EMPTY;
        assert!(!hand.has_non_pawn());
        hand.set(PieceKind::Pawn, 18);
        assert!(!hand.has_non_pawn());
        for kind in PieceKind::HAND {
            if kind == PieceKind::Pawn {
                continue;
            }
            let mut one = hand;
            one.add(kind);
            assert!(one.has_non_pawn(), "{kind:?}");
        }
    }
}
