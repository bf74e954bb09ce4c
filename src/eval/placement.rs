//! The placement part of the evaluation: material, pieces in hand, and each piece's
//! square relative to both kings. It changes only with the pieces a move touches (and
//! with every piece when a king moves), so the search keeps it up to date move by move
//! with [`placement_delta`] instead of recounting it at every node.

use super::params::*;
use super::{sign_of, Sink, Total, WEIGHTS};
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};

/// [`rel_index`] for every owner, square and king square, so the evaluation looks the
/// offset up instead of dividing square indices into files and ranks. Built at compile
/// time: a lazily built table would test its "initialised" flag on every lookup.
static RELATIVE: [[[u8; Square::NUM]; Square::NUM]; 2] = relative_table();

const fn relative_table() -> [[[u8; Square::NUM]; Square::NUM]; 2] {
    let mut table = [[[0u8; Square::NUM]; Square::NUM]; 2];
    let mut owner = 0;
    while owner < 2 {
        let mut sq: usize = 0;
        while sq < Square::NUM {
            let mut king: usize = 0;
            while king < Square::NUM {
                // Square index = file * 9 + rank; White sees the ranks reversed.
                let (sq_rank, king_rank) = if owner == 0 {
                    ((sq % 9) as i32, (king % 9) as i32)
                } else {
                    (8 - (sq % 9) as i32, 8 - (king % 9) as i32)
                };
                let dx = (sq / 9).abs_diff(king / 9);
                table[owner][sq][king] = rel_index(dx, sq_rank - king_rank) as u8;
                king += 1;
            }
            sq += 1;
        }
        owner += 1;
    }
    table
}

/// Offset of a piece of `owner` on `sq` relative to the king on `king`, seen from `owner`.
#[inline(always)]
fn relative(owner: Color, sq: Square, king: Square) -> usize {
    RELATIVE[owner.index()][sq.index()][king.index()] as usize
}

/// The placement part: material, hands and each piece relative to both kings. It
/// changes only with the pieces a move touches (unless a king moves), so the search keeps
/// it up to date move by move with [`placement_delta`].
pub fn placement_features<S: Sink>(pos: &Position, sink: &mut S) {
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    for color in Color::ALL {
        let sign = sign_of(color);
        for sq in pos.pieces(color) {
            let kind = pos
                .piece_at(sq)
                .expect("a piece on an occupied square")
                .kind();
            if kind != PieceKind::King {
                piece_features(sink, color, kind, sq, kings, sign);
            }
        }
        let hand = pos.hand(color);
        for kind in PieceKind::HAND {
            let n = hand.count(kind) as usize;
            if n > 0 {
                sink.add(HAND.start + kind.index() * HAND_COUNTS + n, sign);
            }
        }
    }
}

/// The placement features of one piece, times `sign` (Black +1, White -1; negated to
/// take the piece away).
#[inline(always)]
fn piece_features<S: Sink>(
    sink: &mut S,
    color: Color,
    kind: PieceKind,
    sq: Square,
    kings: [Option<Square>; 2],
    sign: i32,
) {
    let k = kind.index();
    let c = color.index();
    sink.add(MATERIAL.start + k, sign);
    if let Some(own) = kings[c] {
        sink.add(OWN_KING.start + k * REL + relative(color, sq, own), sign);
    }
    if let Some(enemy) = kings[1 - c] {
        sink.add(
            ENEMY_KING.start + k * REL + relative(color, sq, enemy),
            sign,
        );
    }
}

/// The placement score of `pos` (Black's view) under the shipped weights.
pub fn placement(pos: &Position) -> i32 {
    let mut total = Total {
        weights: &WEIGHTS,
        sum: 0,
    };
    placement_features(pos, &mut total);
    total.sum
}

/// How the placement score (Black's view) changes when the legal move `mv` is played in
/// `pos`; `None` only when a king is taken (a position no legal game reaches).
#[inline]
pub fn placement_delta(pos: &Position, mv: Move) -> Option<i32> {
    let w = |i: usize| WEIGHTS[i] as i32;
    let mut total = Total {
        weights: &WEIGHTS,
        sum: 0,
    };
    let us = pos.side_to_move();
    let sign = sign_of(us);
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let hand_term = |kind: PieceKind, n: u32| -> i32 {
        w(HAND.start + kind.index() * HAND_COUNTS + n as usize)
    };
    match mv.drop_kind() {
        Some(kind) => {
            let n = pos.hand(us).count(kind);
            total.sum += sign * (hand_term(kind, n - 1) - hand_term(kind, n));
            piece_features(&mut total, us, kind, mv.to(), kings, sign);
        }
        None => {
            let from = mv.from().expect("a board move");
            let piece = pos.piece_at(from).expect("a piece to move");
            if piece.kind() == PieceKind::King {
                return king_move_delta(pos, from, mv.to());
            }
            piece_features(&mut total, us, piece.kind(), from, kings, -sign);
            let placed = if mv.is_promotion() {
                piece.kind().promoted()
            } else {
                piece.kind()
            };
            piece_features(&mut total, us, placed, mv.to(), kings, sign);
            total.sum += capture_delta(pos, mv.to(), kings)?;
        }
    }
    Some(total.sum)
}

/// How the placement score (Black's view) changes when the side to move takes whatever
/// stands on `to` into its hand (0 for an empty square; `None` for a king), with the kings
/// where they stand before the move.
fn capture_delta(pos: &Position, to: Square, kings: [Option<Square>; 2]) -> Option<i32> {
    let Some(captured) = pos.piece_at(to) else {
        return Some(0);
    };
    if captured.kind() == PieceKind::King {
        return None;
    }
    let w = |i: usize| WEIGHTS[i] as i32;
    let us = pos.side_to_move();
    let sign = sign_of(us);
    let mut total = Total {
        weights: &WEIGHTS,
        sum: 0,
    };
    piece_features(&mut total, !us, captured.kind(), to, kings, sign);
    let kind = captured.kind().unpromoted();
    let hand = HAND.start + kind.index() * HAND_COUNTS + pos.hand(us).count(kind) as usize;
    Some(total.sum + sign * (w(hand + 1) - w(hand)))
}

/// [`placement_delta`] for a king stepping from `from` to `to`: every piece's term
/// relative to that king changes (ours as "near own king", the opponent's as "near enemy
/// king"); the terms relative to the other king stay.
fn king_move_delta(pos: &Position, from: Square, to: Square) -> Option<i32> {
    let w = |i: usize| WEIGHTS[i] as i32;
    let us = pos.side_to_move();
    let them = !us;
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let taken = capture_delta(pos, to, kings)?;
    let own = pos.pieces(us) & !Bitboard::from_square(from);
    let mut ours = 0;
    for sq in own {
        let k = pos.piece_at(sq).expect("a piece").kind().index();
        let base = OWN_KING.start + k * REL;
        ours += w(base + relative(us, sq, to)) - w(base + relative(us, sq, from));
    }
    let mut theirs = 0;
    for sq in pos.pieces(them) & !Bitboard::from_square(to) {
        let k = pos.piece_at(sq).expect("a piece").kind().index();
        let base = ENEMY_KING.start + k * REL;
        theirs += w(base + relative(them, sq, to)) - w(base + relative(them, sq, from));
    }
    Some(taken + sign_of(us) * ours + sign_of(them) * theirs)
}
