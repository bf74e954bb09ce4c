//! The attacker's moves in the mate search: every legal move that gives check.
//!
//! Board moves come from the legal generator's checks mode, which only tries the
//! destinations from which each piece could attack the king (and any for a piece that
//! uncovers a slider) before the exact test. Drops are made only onto the squares from
//! which a piece of that kind attacks the king, found by looking from the king with the
//! piece reversed, instead of filtering hundreds of drops one by one.

use crate::position::{GenType, Position};
use crate::types::{Bitboard, Move, MoveList, Piece, PieceKind, Square};

/// Appends every legal checking move of the side to move to `list`.
pub fn generate_checks(pos: &Position, list: &mut MoveList) {
    let us = pos.side_to_move();
    let them = !us;
    let Some(ksq) = pos.king_square(them) else {
        return;
    };
    pos.generate(GenType::BoardChecks, list);
    let hand = pos.hand(us);
    if hand.is_empty() {
        return;
    }
    for kind in PieceKind::HAND {
        if hand.count(kind) == 0 {
            continue;
        }
        for to in drop_check_squares(pos, kind, ksq) {
            let mv = Move::drop(kind, to);
            // Dead-end squares, nifu, uchifuzume and (when we are in check) blocking.
            if pos.is_legal(mv) {
                list.push(mv);
            }
        }
    }
}

/// The empty squares from which a piece of `kind` dropped by the side to move would
/// attack the enemy king on `ksq` (before the drop rules: dead ends, nifu, uchifuzume).
pub fn drop_check_squares(pos: &Position, kind: PieceKind, ksq: Square) -> Bitboard {
    let occupied = pos.occupied();
    // A piece of ours on `to` attacks the king exactly when the same piece of theirs on
    // the king's square would attack `to`.
    Position::piece_attacks(Piece::new(!pos.side_to_move(), kind), ksq, occupied) & !occupied
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checks are exactly the legal moves that give check.
    fn assert_matches_filter(sfen: &str) {
        let pos: Position = sfen.parse().unwrap();
        assert_position_matches_filter(&pos);
    }

    fn assert_position_matches_filter(pos: &Position) {
        let sfen = pos.to_string();
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
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
        // Discovered checks: a knight, a pawn and the attacker's own king in front of
        // its sliders; a rook behind a silver on the king's file, a lance that may stop
        // short, pinned pieces of both sides.
        assert_matches_filter("4k4/9/9/4N4/9/2P6/1B7/K8/R8 b - 1");
        assert_matches_filter("4k4/9/9/9/4K4/9/9/4R4/9 b G 1");
        assert_matches_filter("4k4/9/4S4/4R4/9/9/9/4L4/8K b - 1");
        assert_matches_filter("3rk4/9/3S5/9/1B1G5/9/3L5/9/3K5 b P 1");
        assert_matches_filter("k8/1P7/9/3+B5/9/9/9/9/8K b - 1");
    }

    #[test]
    fn checks_match_the_filter_along_random_games() {
        crate::attacks::init();
        // Random games from the problems of the tsume file and from the start: every
        // kind of piece, pins and discovered checks turn up along them.
        let starts = include_str!("../../tests/data/tsume.sfen")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .step_by(7)
            .filter_map(|l| l.split('\t').next()?.parse::<Position>().ok())
            .chain(std::iter::once(Position::startpos()));
        let mut rng = crate::rng::Rng::from_state(0x2545_f491_4f6c_dd1d);
        for start in starts {
            let mut pos = start;
            for _ in 0..60 {
                assert_position_matches_filter(&pos);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
    }
}
