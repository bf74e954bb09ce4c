//! Mate in one: a checking move after which the opponent has no legal reply.
//!
//! Run at every main-search node that is not in check, so the search never overlooks a
//! mate on the board however its pruning treats the node. Only moves that land next to
//! the enemy king, or on a knight's check square, are tried: a mate by a distant slider
//! is found by the search itself one ply later.

use crate::attacks;
use crate::position::{GenType, Position};
use crate::types::{Move, MoveList, PieceKind};

/// A move that mates at once, if there is one among the contact checks.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king_square(!us)?;
    let near = attacks::king(ksq) | attacks::knight(!us, ksq);
    // Quick exit: nothing of ours reaches the king's surroundings and no hand piece
    // (other than pawns, whose dropped mate is illegal) could be dropped there.
    let hand = pos.hand(us);
    let droppable = PieceKind::HAND
        .iter()
        .any(|&k| k != PieceKind::Pawn && hand.count(k) > 0);
    if !droppable {
        let occupied = pos.occupied();
        let reaches = pos.pieces(us).into_iter().any(|sq| {
            let p = pos.piece_at(sq).expect("piece");
            (Position::piece_attacks(p, sq, occupied) & near).is_nonempty()
        });
        if !reaches {
            return None;
        }
    }
    let mut moves = MoveList::new();
    pos.generate(GenType::Legal, &mut moves);
    for mv in moves {
        if !near.has(mv.to()) {
            continue;
        }
        if mv.drop_kind() == Some(PieceKind::Pawn) {
            continue;
        }
        // The moved piece must attack the king from its destination, or the move must
        // uncover a check; `gives_check` tells both.
        if !pos.gives_check(mv) {
            continue;
        }
        pos.play_unchecked(mv);
        let mated = pos.count_legal() == 0;
        pos.undo();
        if mated {
            return Some(mv);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mate(sfen: &str) -> Option<String> {
        let mut pos: Position = sfen.parse().unwrap();
        mate_in_one(&mut pos).map(|m| m.to_string())
    }

    #[test]
    fn head_gold_drop_mates() {
        // White king on 5a between its lances; a black pawn on 5c supports G*5b.
        assert_eq!(
            mate("3lkl3/9/4P4/9/9/9/9/9/4K4 b G 1").as_deref(),
            Some("G*5b")
        );
    }

    #[test]
    fn pawn_drop_mate_is_not_offered() {
        // P*5b would mate but is uchifuzume.
        assert_eq!(mate("3lkl3/9/4+P4/9/9/9/9/9/4K4 b P 1"), None);
    }

    #[test]
    fn board_move_mate() {
        // The gold on 5c steps to 5b supported by the tokin on 4c, or the other way round.
        let found = mate("3lkl3/9/4G+P3/9/9/9/9/9/4K4 b - 1");
        assert!(
            matches!(found.as_deref(), Some("5c5b" | "4c5b")),
            "{found:?}"
        );
    }

    #[test]
    fn no_mate_when_the_king_escapes() {
        assert_eq!(mate("4k4/9/9/9/9/9/9/9/4K4 b G 1"), None);
    }
}
