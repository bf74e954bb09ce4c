//! The attacker's moves in the mate search: every legal move that gives check.
//!
//! Board moves come from the legal generator and are kept when they check (directly or
//! by uncovering a slider). Drops are made only onto the squares from which a piece of
//! that kind attacks the king, found by looking from the king with the piece reversed,
//! instead of filtering hundreds of drops one by one.

use crate::position::{GenType, Position};
use crate::types::{Move, MoveList, Piece, PieceKind};

/// Appends every legal checking move of the side to move to `list`.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else {
        return;
    };
    let mut board = MoveList::new();
    pos.generate(GenType::BoardMoves, &mut board);
    for mv in board {
        if pos.gives_check(mv) {
            list.push(mv);
        }
    }
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    let occupied = pos.occupied();
    for kind in PieceKind::HAND {
        if hand.count(kind) == 0 {
            continue;
        }
        // A piece of ours on `to` attacks the king exactly when the same piece of theirs
        // on the king's square would attack `to`.
        let squares = Position::piece_attacks(Piece::new(them, kind), ksq, occupied) & !occupied;
        for to in squares {
            let mv = Move::drop(kind, to);
            // Dead-end squares, nifu, uchifuzume and (when we are in check) blocking.
            if pos.is_legal(mv) {
                list.push(mv);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks are exactly the legal moves that give check.
    fn assert_matches_filter(sfen: &str) {
        let pos: Position = sfen.parse().unwrap();
        let mut checks = MoveList::new();
        generate_checks(&pos, &mut checks);
        let mut got: Vec<String> = checks.iter().map(|m| m.to_string()).collect();
        let mut want: Vec<String> = pos
            .legal_moves()
            .iter()
            .filter(|&&m| pos.gives_check(m))
            .map(|m| m.to_string())
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{sfen}");
    }

    #[test]
    fn checks_are_the_checking_legal_moves() {
        assert_matches_filter("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        assert_matches_filter("3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rb2s4n4l18p 1");
        assert_matches_filter("8k/9/9/9/9/9/9/9/9 b R2GSr2b2g3s4n4l18p 1");
        assert_matches_filter("7nk/7p1/8P/9/9/9/9/9/9 b P2r2b4g4s3n4l15p 1");
        assert_matches_filter(
            "l2g5/2s3g2/3k1p2p/P2pp2P1/1pP4s1/p1+B6/NP1P+nPS1P/K1G4+p1/L6NL b RBGNLPrs3p 1",
        );
        // The attacker in check: only checking evasions count.
        assert_matches_filter("4k4/9/4r4/9/9/9/9/9/4K4 b Gr2b3g4s4n4l18p 1");
    }
}
