//! Disproof pieces: the largest attacker hand for which a failure still holds.
//!
//! A failure is found for the hand the attacker holds, but it often holds for more: a
//! piece the attacker never had a use for changes nothing, and a piece of a kind it holds
//! already adds no new move. Long checking sequences against a defender who interposes
//! reach the same board again and again with the attacker holding a different mix of the
//! captured pieces; a failure stored for the largest hand it holds for answers all of
//! them. (Proofs have the mirror image, proof pieces: see `Dfpn::proof_hand`.)
//!
//! The rules, for an untainted failure (one resting on a repetition stays at its hand):
//! - the attacker has no check: any number of the kinds it holds, and of the kinds it
//!   does not hold, any number of those no drop of which could give check, but none of
//!   the others;
//! - every check fails: the least, kind by kind, of what each check's failure allows
//!   (a dropped piece one more, a captured one less), within the bound above;
//! - one reply refutes the check: what that reply's failure allows, except that a reply
//!   dropping a piece needs the defender to keep one of its kind.

use super::checks::drop_check_squares;
use crate::position::Position;
use crate::types::{Hand, Move, PieceKind};

/// The largest count any hand can hold of a hand kind.
fn set_size(kind: PieceKind) -> u32 {
    u32::from(kind.full_set_count())
}

/// The largest hand a failure of the attacker's node `pos` can hold for with the
/// checks it has: the kinds held at any count, a kind not held only where no drop of
/// it could give check.
pub fn attacker_bound(pos: &Position) -> Hand {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    let king = pos.king_square(!us);
    let mut bound = Hand::EMPTY;
    for kind in PieceKind::HAND {
        let could_check = hand.count(kind) == 0
            && king.is_none_or(|ksq| {
                let squares = drop_check_squares(pos, kind, ksq);
                pos.drop_squares(kind, squares).is_nonempty()
            });
        bound.set(kind, if could_check { 0 } else { set_size(kind) });
    }
    bound
}

/// The hand a failure holds for before the attacker's check `mv` (taking `captured`),
/// when the position after it fails for hands up to `after`.
pub fn before_check(after: Hand, mv: Move, captured: Option<PieceKind>) -> Hand {
    let mut hand = after;
    if let Some(kind) = mv.drop_kind() {
        hand.set(kind, (after.count(kind) + 1).min(set_size(kind)));
    } else if let Some(kind) = captured {
        hand.set(kind, after.count(kind).saturating_sub(1));
    }
    hand
}

/// The hand a failure holds for at the defender's node `pos`, refuted by the reply `mv`
/// whose position fails for hands up to `after`.
pub fn before_reply(pos: &Position, after: Hand, mv: Move, attacker_hand: Hand) -> Hand {
    let mut hand = after;
    if let Some(kind) = mv.drop_kind() {
        // The attacker may hold more of the kind only while the defender keeps one.
        let defender = pos.hand(pos.side_to_move()).count(kind);
        let most = attacker_hand.count(kind) + defender - 1;
        hand.set(kind, after.count(kind).min(most));
    }
    hand
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        crate::attacks::init();
        sfen.parse().unwrap()
    }

    #[test]
    fn kinds_that_could_check_by_a_drop_stay_at_none() {
        // White king on 1a, its silver on 2a and lance on 1b; Black holds a gold. The
        // squares next to the king are taken: of the kinds Black does not hold, only a
        // knight (on 2c) could check.
        let pos = position("6gsk/7pl/9/9/9/9/9/9/4K4 b G 1");
        let bound = attacker_bound(&pos);
        assert_eq!(bound.count(PieceKind::Gold), 4, "held: any number");
        assert_eq!(bound.count(PieceKind::Knight), 0, "N*2c checks");
        assert_eq!(
            bound.count(PieceKind::Silver),
            4,
            "no square for a silver check"
        );
        assert_eq!(bound.count(PieceKind::Pawn), 18, "1b is taken");
    }

    #[test]
    fn a_drop_adds_and_a_capture_removes_within_the_set() {
        let mut after = Hand::EMPTY;
        after.set(PieceKind::Gold, 4);
        after.set(PieceKind::Pawn, 3);
        let drop = Move::drop(
            PieceKind::Gold,
            crate::types::Square::from_index(0).unwrap(),
        );
        assert_eq!(before_check(after, drop, None).count(PieceKind::Gold), 4);
        let mut one = after;
        one.set(PieceKind::Gold, 1);
        assert_eq!(before_check(one, drop, None).count(PieceKind::Gold), 2);
        let board = Move::from_usi("5e5d").unwrap();
        let taken = before_check(after, board, Some(PieceKind::Pawn));
        assert_eq!(taken.count(PieceKind::Pawn), 2);
        assert_eq!(taken.count(PieceKind::Gold), 4);
    }

    #[test]
    fn a_refuting_drop_leaves_the_defender_one_piece_of_its_kind() {
        // White to move holds two pawns; Black holds one.
        let pos = position("4k4/9/9/9/9/9/9/9/4K4 w P2p 1");
        let attacker = pos.hand(crate::types::Color::Black);
        let mut after = Hand::EMPTY;
        after.set(PieceKind::Pawn, 18);
        let drop = Move::drop(
            PieceKind::Pawn,
            crate::types::Square::from_index(40).unwrap(),
        );
        assert_eq!(
            before_reply(&pos, after, drop, attacker).count(PieceKind::Pawn),
            2
        );
        let step = Move::from_usi("5a4a").unwrap();
        assert_eq!(
            before_reply(&pos, after, step, attacker).count(PieceKind::Pawn),
            18
        );
    }
}
