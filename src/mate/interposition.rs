//! Useless interpositions (muda-ai): the tsume convention that decides which defences
//! count when the length of a mate is read. Used by the solver, which searches such a
//! drop shorter, and by the line reader, which reports the mate by the convention.

use crate::attacks;
use crate::position::Position;
use crate::types::Move;

/// A useless interposition (muda-ai): a drop between a distant checking piece and the
/// king, on a square not next to the king, that the checker can simply take (it is not
/// pinned to its own king). By tsume convention such a drop adds no length to the mate:
/// the line shows it only when it delays the mate by more than the two plies it adds (it
/// is searched and mated like every other reply). Interpositions next to the king count
/// as real defences.
pub fn is_useless_interposition(pos: &Position, mv: Move) -> bool {
    if mv.drop_kind().is_none() {
        return false;
    }
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return false;
    }
    let us = pos.side_to_move();
    let (Some(checker), Some(ksq)) = (checkers.lsb(), pos.king_square(us)) else {
        return false;
    };
    let to = mv.to();
    attacks::between(ksq, checker).has(to)
        && !attacks::king(ksq).has(to)
        && !pos.blockers_for_king(!us).has(checker)
}
