//! Delayed expansion: moves that wait until a sibling like them is settled.
//!
//! Some replies come in families whose members almost always fall the same way: the
//! pieces the defender can interpose on one square, interpositions that nothing of the
//! defender's guards (the checker takes them and goes on), and a pawn, bishop or rook
//! move played with and without promotion. Counted side by side, a family of seven
//! interposed pieces on four squares makes a check look twenty-eight times harder to
//! prove than it is, and df-pn turns away from the check that mates.
//!
//! So the members of a family form a *chain*: only its first unsettled member is searched
//! and counted in its node's numbers; the next one is taken up once that one is settled.
//! Nothing is skipped for good (a defender's node is proved only when every reply is), so
//! the answers stay exact; what changes is the order, and with it, the proof pieces of
//! the first member's proof often answer the next members from the table at once.

use super::interposition::InterpositionSquares;
use crate::position::Position;
use crate::types::{Bitboard, Move, PieceKind, Square};

/// Where a move stands in its node's chains: `chain` 0 is a move on its own; moves of
/// one chain are taken in increasing `order`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Delay {
    pub chain: u16,
    pub order: u8,
}

/// The chain of the defender's interpositions that nothing of the defender's guards
/// and that give no check, on whatever square.
const UNGUARDED_DROPS: u16 = 1;
/// Drops onto one square: this plus the square's index.
const DROPS_ON_SQUARE: u16 = 2;
/// A board move with and without promotion: this plus `from · 81 + to`.
const PROMOTION_PAIR: u16 = DROPS_ON_SQUARE + Square::NUM as u16;

/// The chain of `mv` in `pos`; `or` is whether the attacker is to move, `squares` the
/// node's interposition squares (looked at once for all its moves).
pub fn delay(pos: &Position, mv: Move, or: bool, squares: &InterpositionSquares) -> Delay {
    let us = pos.side_to_move();
    let to = mv.to();
    if let Some(kind) = mv.drop_kind() {
        if or {
            return Delay::default();
        }
        let order = weakest_first(kind);
        if !squares.guards(to) && !pos.gives_check(mv) {
            // Nearest the king first, then the weakest piece.
            let distance = pos.king_square(us).map_or(0, |k| distance(k, to));
            return Delay {
                chain: UNGUARDED_DROPS,
                order: distance * 8 + order,
            };
        }
        return Delay {
            chain: DROPS_ON_SQUARE + to.index() as u16,
            order,
        };
    }
    let Some(from) = mv.from() else {
        return Delay::default();
    };
    let Some(piece) = pos.piece_at(from) else {
        return Delay::default();
    };
    let paired = match piece.kind() {
        PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook => from.in_zone(us) || to.in_zone(us),
        // A lance may go to the second rank unpromoted (to give check along its file).
        PieceKind::Lance => to.rank().relative(us) == 1,
        _ => false,
    };
    if !paired {
        return Delay::default();
    }
    Delay {
        chain: PROMOTION_PAIR + (from.index() * Square::NUM + to.index()) as u16,
        // The promotion first: it keeps every power the piece had.
        order: u8::from(!mv.is_promotion()),
    }
}

/// At a defender's node: how many of its replies' chains wait at the start beyond those
/// the drops-per-square count already merges, that is, the squares between a distant
/// checker and the king that the defender can drop onto and guards with nothing, less
/// the one of them whose chain is open. (Checking drops, which stand alone, are
/// counted as waiting too: a close estimate for a node's first proof number.)
pub fn waiting_drop_squares(pos: &Position) -> usize {
    let hand = pos.hand(pos.side_to_move());
    if hand.is_empty() {
        return 0;
    }
    let unguarded = InterpositionSquares::new(pos).unguarded();
    PieceKind::HAND
        .into_iter()
        .filter(|&kind| hand.count(kind) > 0)
        .fold(Bitboard::EMPTY, |squares, kind| {
            squares | pos.drop_squares(kind, unguarded)
        })
        .count()
        .saturating_sub(1) as usize
}

/// Hand kinds from the weakest: the proof after a weak piece is taken needs the least,
/// so its proof pieces are the likeliest to answer the stronger pieces too.
fn weakest_first(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        _ => 6,
    }
}

/// King steps between two squares.
fn distance(a: Square, b: Square) -> u8 {
    let files = a.file().index().abs_diff(b.file().index());
    let ranks = a.rank().index().abs_diff(b.rank().index());
    files.max(ranks) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        crate::attacks::init();
        sfen.parse().unwrap()
    }

    fn delay_of(pos: &Position, usi: &str) -> Delay {
        let mv = Move::from_usi(usi).unwrap();
        assert!(pos.is_legal(mv), "{usi}");
        let or = pos.side_to_move() == crate::types::Color::Black;
        delay(pos, mv, or, &InterpositionSquares::new(pos))
    }

    #[test]
    fn unguarded_interpositions_share_one_chain_nearest_and_weakest_first() {
        // White king on 5a, checked by a rook on 5i; white holds a pawn and a gold.
        let pos = position("4k4/9/9/9/9/9/9/9/4R3K w gp 1");
        let near_pawn = delay_of(&pos, "P*5c");
        let near_gold = delay_of(&pos, "G*5c");
        let far_pawn = delay_of(&pos, "P*5g");
        assert_eq!(near_pawn.chain, UNGUARDED_DROPS);
        assert_eq!(far_pawn.chain, UNGUARDED_DROPS);
        assert!(near_pawn < near_gold && near_gold < far_pawn);
        // Next to the king the king guards the square: a chain of that square alone.
        let guarded = delay_of(&pos, "P*5b");
        assert_eq!(
            guarded.chain,
            DROPS_ON_SQUARE + Square::from_usi("5b").unwrap().index() as u16
        );
        // The king's own moves wait for nothing.
        assert_eq!(delay_of(&pos, "5a4a"), Delay::default());
    }

    #[test]
    fn promotion_comes_before_the_same_move_unpromoted() {
        let pos = position("4k4/9/9/9/9/2B6/9/9/4K4 b - 1");
        let promoted = delay_of(&pos, "7f4c+");
        let plain = delay_of(&pos, "7f4c");
        assert_eq!(promoted.chain, plain.chain);
        assert!(promoted.chain != 0 && promoted < plain);
        // Outside the zone a bishop move is alone.
        assert_eq!(delay_of(&pos, "7f6e"), Delay::default());
    }
}
