//! Checking a single move against the rules, with the reason when it breaks one.

use super::movegen::must_promote;
use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Move, PieceKind};
use std::fmt;

/// Why a move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The text is not USI move syntax (`7g7f`, `8h2b+`, `P*5e`).
    Syntax(String),
    /// No piece stands on the origin square.
    NoPiece(Move),
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece(Move),
    /// The destination holds one of the mover's own pieces.
    OwnPieceOnTarget(Move),
    /// The piece cannot move from the origin to the destination (or a slider is blocked).
    NoSuchMove(Move),
    /// The move would leave (or put) the mover's king in check.
    LeavesKingInCheck(Move),
    /// `+` on a piece that cannot promote, or a move that neither starts nor ends in the
    /// promotion zone.
    PromotionNotAllowed(Move),
    /// A pawn, lance or knight would stand where it can never move again (move without
    /// promotion, or drop).
    DeadEnd(Move),
    /// The dropped kind is not in hand.
    NotInHand(Move),
    /// A drop on an occupied square.
    DropOnOccupied(Move),
    /// A pawn dropped on a file that holds one of the mover's unpromoted pawns.
    Nifu(Move),
    /// A pawn drop that gives checkmate.
    Uchifuzume(Move),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Syntax(m) => write!(f, "'{m}' is not a USI move"),
            IllegalMove::NoPiece(m) => write!(f, "{m}: no piece on the origin square"),
            IllegalMove::NotYourPiece(m) => write!(f, "{m}: the piece belongs to the opponent"),
            IllegalMove::OwnPieceOnTarget(m) => {
                write!(f, "{m}: the destination holds one of your own pieces")
            }
            IllegalMove::NoSuchMove(m) => write!(f, "{m}: the piece cannot move there"),
            IllegalMove::LeavesKingInCheck(m) => write!(f, "{m}: leaves the king in check"),
            IllegalMove::PromotionNotAllowed(m) => write!(f, "{m}: promotion not allowed"),
            IllegalMove::DeadEnd(m) => {
                write!(f, "{m}: the piece could never move again (dead end)")
            }
            IllegalMove::NotInHand(m) => write!(f, "{m}: that piece is not in hand"),
            IllegalMove::DropOnOccupied(m) => write!(f, "{m}: drop on an occupied square"),
            IllegalMove::Nifu(m) => write!(f, "{m}: two pawns on a file (nifu)"),
            IllegalMove::Uchifuzume(m) => write!(f, "{m}: pawn drop mate (uchifuzume)"),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl Position {
    /// Parses a USI move and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        let mv = Move::from_usi(text).ok_or_else(|| IllegalMove::Syntax(text.to_string()))?;
        self.check_move(mv)?;
        Ok(mv)
    }

    /// Whether `mv` is legal in this position.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Checks `mv` against every rule and names the first one it breaks.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        let us = self.side;
        // The move itself names it in the error: formatting it here, on every legality
        // test of the search, cost 6% of the search's instructions.
        let name = mv;
        let to = mv.to();
        match mv.drop_kind() {
            Some(kind) => {
                if self.hands[us.index()].count(kind) == 0 {
                    return Err(IllegalMove::NotInHand(name));
                }
                if self.board[to.index()].is_some() {
                    return Err(IllegalMove::DropOnOccupied(name));
                }
                if must_promote(kind, us).has(to) {
                    return Err(IllegalMove::DeadEnd(name));
                }
                if kind == PieceKind::Pawn {
                    let pawns = self.pieces_of(us, PieceKind::Pawn);
                    if (pawns & Bitboard::file(to.file().index())).is_nonempty() {
                        return Err(IllegalMove::Nifu(name));
                    }
                }
                // Under check a drop must block; under double check nothing but the king moves.
                if !self.check_mask().is_some_and(|mask| mask.has(to)) {
                    return Err(IllegalMove::LeavesKingInCheck(name));
                }
                if kind == PieceKind::Pawn {
                    if let Some(eksq) = self.king[(!us).index()] {
                        if attacks::pawn(us, to).has(eksq) && self.is_pawn_drop_mate(to) {
                            return Err(IllegalMove::Uchifuzume(name));
                        }
                    }
                }
            }
            None => {
                let from = mv.origin_unchecked();
                let piece = self.board[from.index()].ok_or(IllegalMove::NoPiece(name))?;
                if piece.color() != us {
                    return Err(IllegalMove::NotYourPiece(name));
                }
                if self.board[to.index()].is_some_and(|p| p.color() == us) {
                    return Err(IllegalMove::OwnPieceOnTarget(name));
                }
                if !Self::piece_attacks(piece, from, self.occupied()).has(to) {
                    return Err(IllegalMove::NoSuchMove(name));
                }
                let kind = piece.kind();
                if mv.is_promotion() {
                    if !kind.can_promote() || !(from.in_zone(us) || to.in_zone(us)) {
                        return Err(IllegalMove::PromotionNotAllowed(name));
                    }
                } else if must_promote(kind, us).has(to) {
                    return Err(IllegalMove::DeadEnd(name));
                }
                if self.leaves_king_in_check(mv) {
                    return Err(IllegalMove::LeavesKingInCheck(name));
                }
            }
        }
        Ok(())
    }

    /// Whether the board move `mv` (already known to be a move the piece makes) would
    /// leave the mover's king attacked.
    fn leaves_king_in_check(&self, mv: Move) -> bool {
        let us = self.side;
        let from = mv.origin_unchecked();
        let to = mv.to();
        let from_bit = Bitboard::from_square(from);
        let to_bit = Bitboard::from_square(to);
        let king_sq = if self.king[us.index()] == Some(from) {
            to
        } else {
            match self.king[us.index()] {
                Some(k) => k,
                None => return false,
            }
        };
        let occupied = (self.occupied() ^ from_bit) | to_bit;
        // A captured piece no longer attacks.
        let attackers = self.attackers_to(!us, king_sq, occupied) & !to_bit;
        attackers.is_nonempty()
    }
}
