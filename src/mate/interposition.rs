//! Interpositions in the mate search.
//!
//! Futile interpositions (muda-ai): the tsume convention that decides which defences
//! count when the length of a mate is read. A useless one (the checker simply takes it,
//! nothing guarding the square) is known from the position; a drop the checker takes
//! with mate, from that mate. Used by the solver, which counts such a drop two plies
//! shorter, and by the line reader, which reports the mate by the convention.
//!
//! Withheld interposers: the pieces a proof must leave in the attacker's hand because
//! the defender, given them, could interpose (the proof pieces of a mate).

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Hand, Move, PieceKind, Square};

/// A useless interposition (muda-ai): a drop between a distant checking piece and the
/// king that the checker can simply take: it is not pinned to its own king, and nothing
/// of the defender's guards the square (the king does next to it), so the capture is not
/// answered. By tsume convention such a drop adds no length to the mate: the line shows
/// it only when it delays the mate by more than the two plies it adds (it is searched and
/// mated like every other reply). A guarded interposition counts as a real defence,
/// unless the checker takes it with mate (see [`checker_takes_and_mates`]).
pub fn is_useless_interposition(pos: &Position, mv: Move) -> bool {
    mv.drop_kind().is_some() && InterpositionSquares::new(pos).is_useless(mv)
}

/// Whether the interposing drop `drop`, a reply of the defender to move in `pos`, is
/// futile by tsume convention although the defender guards its square: the checker takes
/// the dropped piece and that is mate. The mate then needs nothing from the drop, which
/// only delays it by two plies, and the drop adds no length: the published 39-ply
/// chain-interposition problem ends with such a check (4d4c, where P*4b is answered by
/// 4c4b). An interposition the attacker must answer otherwise counts (4a3a+ P*2a N*2c
/// is a mate in three). `pos` is left as it was.
pub fn checker_takes_and_mates(pos: &mut Position, drop: Move) -> bool {
    let checkers = pos.checkers();
    let Some(checker) = checkers.lsb() else {
        return false;
    };
    if checkers.has_more_than_one() || drop.drop_kind().is_none() {
        return false;
    }
    pos.play_unchecked(drop);
    let mut mates = false;
    for promote in [false, true] {
        let take = Move::new(checker, drop.to(), promote);
        if pos.is_legal(take) {
            pos.play_unchecked(take);
            mates = !pos.has_legal_move();
            pos.undo();
            if mates {
                break;
            }
        }
    }
    pos.undo();
    mates
}

/// Whether the defender's reply `mv` in `pos` (whose interposition squares are `squares`)
/// is futile by tsume convention: a useless interposition, or, when the attacker mates in
/// one after it (`mated_in_one`), a drop the checker takes with mate
/// ([`checker_takes_and_mates`]). Such a reply counts two plies less. `pos` is left as
/// it was.
pub fn is_futile_reply(
    pos: &mut Position,
    squares: &InterpositionSquares,
    mv: Move,
    mated_in_one: bool,
) -> bool {
    squares.is_useless(mv)
        || (mated_in_one && squares.is_interposing_drop(mv) && checker_takes_and_mates(pos, mv))
}

/// The squares of a defender's node on which it can interpose, looked at once for all
/// its replies (each of up to seven kinds may be dropped on each square, and each drop
/// asks the same questions of its square).
#[derive(Clone, Copy, Debug, Default)]
pub struct InterpositionSquares {
    /// The squares between a single distant checker and the king; none unless exactly
    /// one piece gives check.
    between: Bitboard,
    /// Those of them that nothing of the defender's guards (the king included).
    unguarded: Bitboard,
    /// Whether the checker is free to take an interposed piece (not pinned to its own
    /// king).
    checker_free: bool,
}

impl InterpositionSquares {
    pub fn new(pos: &Position) -> InterpositionSquares {
        let checkers = pos.checkers();
        if checkers.has_more_than_one() {
            return InterpositionSquares::default();
        }
        let us = pos.side_to_move();
        let (Some(checker), Some(ksq)) = (checkers.lsb(), pos.king_square(us)) else {
            return InterpositionSquares::default();
        };
        let occupied = pos.occupied();
        let between = attacks::between(ksq, checker);
        let unguarded = between
            .into_iter()
            .filter(|&sq| pos.attackers_to(us, sq, occupied).is_empty())
            .fold(Bitboard::EMPTY, |set, sq| set | Bitboard::from_square(sq));
        InterpositionSquares {
            between,
            unguarded,
            checker_free: !pos.blockers_for_king(!us).has(checker),
        }
    }

    /// Whether the drop `mv` is a useless interposition (see [`is_useless_interposition`]).
    pub fn is_useless(&self, mv: Move) -> bool {
        mv.drop_kind().is_some() && self.checker_free && self.unguarded.has(mv.to())
    }

    /// Whether `mv` drops a piece between the checker and the king.
    pub fn is_interposing_drop(&self, mv: Move) -> bool {
        mv.drop_kind().is_some() && self.between.has(mv.to())
    }

    /// Whether the defender guards `sq`, a square of a legal drop (so one between the
    /// checker and the king).
    pub fn guards(&self, sq: Square) -> bool {
        !self.unguarded.has(sq)
    }

    /// The squares between the checker and the king that nothing of the defender's
    /// guards.
    pub fn unguarded(&self) -> Bitboard {
        self.unguarded
    }
}

/// At a defender's node in check: the attacker's pieces that a proof of this node must
/// keep in the attacker's hand. Every piece neither on the board nor in the attacker's
/// hand is the defender's, so with fewer pieces of a kind the attacker would hand the
/// defender one, and a defender who holds none of that kind now could then interpose it
/// between a distant checker and the king: a reply the proof never met. Kinds the
/// defender holds already are among the replies searched; kinds that could not be
/// dropped on any square between (dead ranks, two pawns on a file) change nothing.
pub fn withheld_interposers(pos: &Position) -> Hand {
    let defender = pos.side_to_move();
    let attacker_hand = pos.hand(!defender);
    let mut withheld = Hand::EMPTY;
    let checkers = pos.checkers();
    if attacker_hand.is_empty() || checkers.has_more_than_one() {
        return withheld;
    }
    let (Some(checker), Some(ksq)) = (checkers.lsb(), pos.king_square(defender)) else {
        return withheld;
    };
    let between = attacks::between(ksq, checker);
    if between.is_empty() {
        return withheld;
    }
    let defender_hand = pos.hand(defender);
    for kind in PieceKind::HAND {
        let held = attacker_hand.count(kind);
        if held == 0 || defender_hand.count(kind) > 0 {
            continue;
        }
        if pos.drop_squares(kind, between).is_nonempty() {
            withheld.set(kind, held);
        }
    }
    withheld
}
