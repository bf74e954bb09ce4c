//! HalfKPE9's attack counts: how many pieces of each side attack each square, counted up
//! to two (YaneuraOu's board of effect counts, `LONG_EFFECT_LIBRARY`, read through
//! `min(count, 2)`).
//!
//! The counts are kept as two bitboards per side, the squares it attacks at least once
//! and at least twice, and made set-wise: the step moves one direction at a time for all
//! the pieces that take it, a lookup per slider, instead of an attacker search per square
//! and side. Two counts compare by four bitboards, which is how an accumulator finds the
//! pieces a move took to another plane.

use super::arch::EFFECT_LEVELS;
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// Each side's attacks on every square, counted up to two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// `[side][level]`: the squares `side` attacks at least once (level 0) and at least
    /// twice (level 1).
    at_least: [[Bitboard; 2]; 2],
}

impl Effects {
    /// The counts of `pos`: every piece whose moves reach a square attacks it, sliders
    /// stopped by the first piece in their way, kings included.
    #[inline]
    pub fn of(pos: &Position) -> Effects {
        let occupied = pos.occupied();
        let mut at_least = [[Bitboard::EMPTY; 2]; 2];
        for side in Color::ALL {
            let [once, twice] = &mut at_least[side.index()];
            // A saturating two-bit counter per square, one bitboard per level.
            let mut add = |attacks: Bitboard| {
                *twice |= *once & attacks;
                *once |= attacks;
            };
            // The steps, one direction at a time for all the pieces that take it: a shift
            // moves every piece to a different square, so each adds one attack where it
            // lands, as a lookup per piece would.
            let own = pos.pieces(side);
            let of = |kind: PieceKind| pos.pieces_of_kind(kind) & own;
            let (horses, dragons) = (of(PieceKind::Horse), of(PieceKind::Dragon));
            // Horses step along files and ranks (their diagonals are their slides), dragons
            // diagonally (the reverse).
            let straight = (pos.gold_movers() & own) | of(PieceKind::King) | horses;
            let diagonal_back = of(PieceKind::Silver) | of(PieceKind::King) | dragons;
            let diagonal_ahead = diagonal_back | (pos.gold_movers() & own);
            add((straight | of(PieceKind::Silver) | of(PieceKind::Pawn)).forward(side));
            add(straight.backward(side));
            add(straight.next_file());
            add(straight.previous_file());
            for row in [diagonal_ahead.forward(side), diagonal_back.backward(side)] {
                add(row.next_file());
                add(row.previous_file());
            }
            let knights = of(PieceKind::Knight).forward(side).forward(side);
            add(knights.next_file());
            add(knights.previous_file());
            // The slides, a lookup per piece.
            for sq in of(PieceKind::Lance) {
                add(attacks::lance(side, sq, occupied));
            }
            for sq in of(PieceKind::Bishop) | horses {
                add(attacks::bishop(sq, occupied));
            }
            for sq in of(PieceKind::Rook) | dragons {
                add(attacks::rook(sq, occupied));
            }
        }
        Effects { at_least }
    }

    /// `side`'s attackers of `sq`, up to two.
    #[inline(always)]
    pub fn count(&self, side: Color, sq: Square) -> u32 {
        let [once, twice] = self.at_least[side.index()];
        u32::from(once.has(sq)) + u32::from(twice.has(sq))
    }

    /// HalfKPE9's plane for a piece on `sq` as `viewer` sees it: `3 · viewer's attackers
    /// + opponent's`, each up to two.
    #[inline(always)]
    pub fn plane(&self, sq: Square, viewer: Color) -> u32 {
        self.count(viewer, sq) * EFFECT_LEVELS as u32 + self.count(!viewer, sq)
    }

    /// The squares whose count differs between `self` and `other`, for either side: the
    /// squares whose plane differs, from both sides' views.
    #[inline(always)]
    pub fn changed(&self, other: &Effects) -> Bitboard {
        let mut changed = Bitboard::EMPTY;
        for (a, b) in self
            .at_least
            .iter()
            .flatten()
            .zip(other.at_least.iter().flatten())
        {
            changed |= *a ^ *b;
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counts equal one attacker search per square and side.
    #[test]
    fn counts_equal_an_attacker_search_per_square() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1r3gk2/4+Bsnp1/p1p1ppp1p/3p5/P1P1P1P1P/1PSP1PN2/1KG3S2/LN2r3L w BG2Psnl 1",
            "4k4/9/4+R4/9/4L4/9/2+B6/9/4K4 w - 1",
        ] {
            let mut pos: Position = sfen.parse().unwrap();
            check(&pos);
            // And along a random line from it: captures, drops and promotions.
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
                check(&pos);
            }
        }
    }

    fn check(pos: &Position) {
        let effects = Effects::of(pos);
        let occupied = pos.occupied();
        for sq in Square::all() {
            for side in Color::ALL {
                let n = pos.attackers_to(side, sq, occupied).count().min(2);
                assert_eq!(effects.count(side, sq), n, "{side:?} on {sq:?} in {pos}");
            }
        }
    }
}
