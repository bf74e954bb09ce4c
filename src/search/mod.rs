//! Choosing a move.
//!
//! Stage 0, until the alpha-beta search lands: a one-ply choice that takes the most
//! valuable capture (promotions count a little), breaking ties by a hash of the position
//! and move so games vary. It answers at once and only ever returns a legal move. It never
//! writes to stdout: the USI layer prints what it returns.

use crate::position::{EnteringKingRule, Position};
use crate::types::{Move, PieceKind};

/// What to answer to `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Move(Move),
    /// No legal move: `bestmove resign`.
    Resign,
    /// The side to move can declare under the entering-king rule: `bestmove win`.
    Win,
}

fn material(kind: PieceKind) -> i32 {
    match kind.unpromoted() {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 3,
        PieceKind::Knight => 4,
        PieceKind::Silver => 5,
        PieceKind::Gold => 6,
        PieceKind::Bishop => 8,
        PieceKind::Rook => 10,
        _ => 0,
    }
}

/// Material balance in centipawns (pawn = 100) from the side to move's point of view,
/// board and hands together.
pub fn material_balance(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let mut balance = 0;
    for sq in pos.occupied() {
        let piece = pos.piece_at(sq).expect("occupied square");
        let v = material(piece.kind()) * 100;
        balance += if piece.color() == us { v } else { -v };
    }
    for kind in PieceKind::HAND {
        let v = material(kind) * 100;
        balance += v * pos.hand(us).count(kind) as i32;
        balance -= v * pos.hand(!us).count(kind) as i32;
    }
    balance
}

/// The material balance after `mv`, from the mover's point of view: the score the
/// stage-0 choice reports.
pub fn score_after(pos: &Position, mv: Move) -> i32 {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    -material_balance(&after)
}

/// Picks the answer for the side to move. `searchmoves`, when not empty, limits the choice
/// (moves in it that are not legal are ignored; if none is legal, all moves are allowed).
pub fn choose(pos: &Position, rule: EnteringKingRule, searchmoves: &[Move]) -> Decision {
    if pos.can_declare_win(rule) {
        return Decision::Win;
    }
    if rule == EnteringKingRule::TryRule {
        if let Some(mv) = pos.try_rule_move() {
            return Decision::Move(mv);
        }
    }
    let legal = pos.legal_moves();
    let restricted: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| searchmoves.contains(m))
        .collect();
    let candidates: &[Move] = if restricted.is_empty() {
        &legal
    } else {
        &restricted
    };
    let score = |mv: Move| {
        let captured = pos.piece_at(mv.to()).map_or(0, |p| material(p.kind()));
        let tie = (pos.key() ^ (mv.raw() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
            >> 56;
        (captured * 4 + mv.is_promotion() as i32 * 2, tie)
    };
    match candidates.iter().copied().max_by_key(|&m| score(m)) {
        Some(mv) => Decision::Move(mv),
        None => Decision::Resign,
    }
}
