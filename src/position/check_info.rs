//! What makes a move a check, worked out once for the many moves of one node.
//!
//! [`Position::gives_check`] answers for one move; the move picker asks it of every quiet
//! move it scores (a hundred and more with drops), so the squares from which each kind of
//! piece would check, and the pieces whose departure uncovers a check, are computed once
//! per node instead.

use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Move, Piece, PieceKind, Square};

/// The checks open to the side to move, before it moves.
pub struct CheckInfo {
    /// Indexed by piece kind: the squares from which a piece of the side to move of that
    /// kind would attack the enemy king, with the board as it is now. The square a move
    /// leaves never opens such a line for the piece that moves: a slider moving away from
    /// the king along its own line would already be giving check.
    squares: [Bitboard; 15],
    /// The side to move's pieces alone between one of its sliders and the enemy king.
    discoverers: Bitboard,
    king: Option<Square>,
}

impl Position {
    /// The side to move's checks, for [`CheckInfo::gives_check`].
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side_to_move();
        let them = !us;
        let mut squares = [Bitboard::EMPTY; 15];
        let Some(ksq) = self.king_square(them) else {
            return CheckInfo {
                squares,
                discoverers: Bitboard::EMPTY,
                king: None,
            };
        };
        let occupied = self.occupied();
        // A piece of ours of a kind attacks the king from exactly the squares that the
        // same kind of the king's colour reaches from the king's square.
        let from_king =
            |kind: PieceKind| Self::piece_attacks(Piece::new(them, kind), ksq, occupied);
        let gold = from_king(PieceKind::Gold);
        let bishop = from_king(PieceKind::Bishop);
        let rook = from_king(PieceKind::Rook);
        let king = attacks::king(ksq);
        for kind in PieceKind::ALL {
            squares[kind as usize] = match kind {
                PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver => gold,
                PieceKind::Bishop => bishop,
                PieceKind::Rook => rook,
                PieceKind::Horse => bishop | king,
                PieceKind::Dragon => rook | king,
                PieceKind::King => king,
                other => from_king(other),
            };
        }
        CheckInfo {
            squares,
            discoverers: self.blockers_for_king(them) & self.pieces(us),
            king: Some(ksq),
        }
    }
}

impl CheckInfo {
    /// Whether `mv` (legal in `pos`, whose checks these are) gives check: the same answer
    /// as [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        self.gives_check_as(pos.moved_piece_after(mv).kind(), mv)
    }

    /// [`CheckInfo::gives_check`] for a move whose piece, once it has moved (promoted
    /// where the move promotes), is of `kind`.
    #[inline(always)]
    pub fn gives_check_as(&self, kind: PieceKind, mv: Move) -> bool {
        let Some(ksq) = self.king else {
            return false;
        };
        if self.squares[kind as usize].has(mv.to()) {
            return true;
        }
        mv.from().is_some_and(|from| {
            self.discoverers.has(from) && !attacks::line(ksq, from).has(mv.to())
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::position::Position;
    use crate::rng::Rng;

    /// Along random games from several starts, every legal move gets the same answer
    /// from the node's check info as from `gives_check` alone.
    #[test]
    fn check_info_agrees_with_gives_check_on_every_move() {
        crate::attacks::init();
        let starts = [
            crate::position::STARTPOS_SFEN,
            "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/7P1/2P6/PP1PPPP1P/1SG4R1/LN2KGSNL b Bb 13",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ];
        let mut rng = Rng::from_state(0x0c4e_c41f);
        let mut checks = 0;
        for sfen in starts {
            for _ in 0..20 {
                let mut pos: Position = sfen.parse().expect("a valid SFEN");
                for _ in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let info = pos.check_info();
                    for &mv in moves.iter() {
                        let expected = pos.gives_check(mv);
                        checks += usize::from(expected);
                        assert_eq!(info.gives_check(&pos, mv), expected, "{mv:?} in {pos}");
                    }
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    pos.play(mv);
                }
            }
        }
        assert!(checks > 1000, "the walks met only {checks} checks");
    }
}
