//! Static exchange evaluation: whether a move wins at least a given amount once every
//! capture on its destination square has been played out, cheapest attacker first.

use crate::attacks;
use crate::eval::params::PIECE_VALUES;
use crate::position::Position;
use crate::types::{Bitboard, Move, PieceKind};

/// Value of a kind for exchanges (the board values of the evaluation).
#[inline(always)]
pub fn value(kind: PieceKind) -> i32 {
    PIECE_VALUES[kind.index()]
}

/// Attackers in the order they join an exchange: cheapest first, the king last.
const ORDER: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::Silver,
    PieceKind::ProSilver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Dragon,
    PieceKind::King,
];

/// What `mv` (legal) wins at once, before any reply: a captured piece leaves the board
/// and enters the mover's hand (unpromoted), so it counts twice, once at its board value
/// and once at its unpromoted one; a promotion adds what the promoted piece is worth
/// more. The futility pruning of captures adds this to the static evaluation.
pub fn material_gain(pos: &Position, mv: Move) -> i32 {
    let captured = pos.piece_at(mv.to()).map_or(0, |p| {
        let kind = p.kind();
        value(kind) + value(kind.unpromoted())
    });
    captured + promotion_gain(pos, mv)
}

/// What promoting adds to the piece `mv` (legal) moves: 0 for a move that does not
/// promote.
#[inline(always)]
pub fn promotion_gain(pos: &Position, mv: Move) -> i32 {
    if mv.is_promotion() {
        let kind = pos.moved_piece_after(mv).kind();
        value(kind) - value(kind.unpromoted())
    } else {
        0
    }
}

/// Whether `mv` (legal) gains at least `threshold` in the exchange it starts on its
/// destination. Recapturers do not promote and pins are ignored: an estimate, as in
/// every engine, good enough to order and prune moves.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let to = mv.to();
    let us = pos.side_to_move();
    let captured = pos.piece_at(to).map_or(0, |p| value(p.kind()));
    let moved = pos.moved_piece_after(mv);
    let mut swap = captured + promotion_gain(pos, mv) - threshold;
    if swap < 0 {
        return false;
    }
    swap = value(moved.kind()) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied() | Bitboard::from_square(to);
    if let Some(from) = mv.from() {
        occupied ^= Bitboard::from_square(from);
    }
    let mut attackers = pos.all_attackers_to(to, occupied) & occupied;
    let sliders =
        pos.diagonal_sliders() | pos.straight_sliders() | pos.pieces_of_kind(PieceKind::Lance);
    let mut side = us;
    let mut result = true;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & pos.pieces(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        // A lone attacker (the usual case) is the cheapest one; several are searched
        // kind by kind.
        let (kind, sq) = if ours.has_more_than_one() {
            ORDER
                .iter()
                .find_map(|&k| {
                    let set = ours & pos.pieces_of_kind(k);
                    set.lsb().map(|sq| (k, sq))
                })
                .expect("an attacker of some kind")
        } else {
            let sq = ours.lsb().expect("an attacker");
            (pos.piece_at(sq).expect("a piece on it").kind(), sq)
        };
        if kind == PieceKind::King {
            // The king may only take last: if the other side still attacks, it cannot.
            if (attackers & pos.pieces(!side)).is_nonempty() {
                result = !result;
            }
            break;
        }
        swap = value(kind) - swap;
        if swap < result as i32 {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        // Sliders behind the piece just used join in (none behind a knight, which jumps,
        // and none when no slider stands on the line at all).
        if kind != PieceKind::Knight && (attacks::ray_towards(to, sq) & sliders).is_nonempty() {
            attackers |= pos.slider_attackers_to(to, occupied) & occupied;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(sfen: &str, mv: &str, threshold: i32, expected: bool) {
        let pos: Position = sfen.parse().unwrap();
        let mv = pos.parse_move(mv).unwrap();
        assert_eq!(
            see_ge(&pos, mv, threshold),
            expected,
            "{sfen} {mv} {threshold}"
        );
    }

    #[test]
    fn undefended_capture_wins_the_piece() {
        // Black rook takes an undefended white silver.
        check("4k4/9/9/9/4s4/9/9/4R4/4K4 b - 1", "5h5e", 495, true);
        check("4k4/9/9/9/4s4/9/9/4R4/4K4 b - 1", "5h5e", 496, false);
    }

    #[test]
    fn defended_piece_taken_by_a_rook_loses() {
        // The silver is defended by a pawn: rook for silver loses material.
        check("4k4/9/9/4p4/4s4/9/9/4R4/4K4 b - 1", "5h5e", 0, false);
        // A pawn taking the same silver wins it.
        check("4k4/9/9/4p4/4s4/4P4/9/4R4/4K4 b - 1", "5f5e", 400, true);
    }

    #[test]
    fn x_ray_backup_counts() {
        // Pawn takes pawn, white gold retakes, black rook behind the pawn retakes.
        check("4k4/9/4g4/4p4/4P4/9/4R4/9/4K4 b - 1", "5e5d", 0, true);
        check("4k4/9/4g4/4p4/4P4/9/4R4/9/4K4 b - 1", "5e5d", 91, false);
    }

    #[test]
    fn a_capture_gains_the_piece_on_the_board_and_in_hand() {
        let gain = |sfen: &str, mv: &str| {
            let pos: Position = sfen.parse().unwrap();
            let mv = pos.parse_move(mv).unwrap();
            material_gain(&pos, mv)
        };
        let v = |k: PieceKind| value(k);
        // A silver: off White's board, into Black's hand.
        let silver = "4k4/9/9/9/4s4/9/9/4R4/4K4 b - 1";
        assert_eq!(gain(silver, "5h5e"), 2 * v(PieceKind::Silver));
        // A dragon taken comes into the hand as a rook.
        let dragon = "4k4/9/9/9/4+r4/9/9/4R4/4K4 b - 1";
        assert_eq!(
            gain(dragon, "5h5e"),
            v(PieceKind::Dragon) + v(PieceKind::Rook)
        );
        // Taking a pawn and promoting: both gains.
        let promote = "4k4/9/4p4/4P4/9/9/9/9/4K4 b - 1";
        assert_eq!(
            gain(promote, "5d5c+"),
            2 * v(PieceKind::Pawn) + v(PieceKind::ProPawn) - v(PieceKind::Pawn)
        );
        // A quiet move or a drop wins nothing at once.
        assert_eq!(gain(silver, "5h5g"), 0);
        assert_eq!(gain("4k4/9/9/9/9/9/9/9/4K4 b G 1", "G*5e"), 0);
    }

    #[test]
    fn quiet_move_to_an_attacked_square_loses_the_piece() {
        check("4k4/9/4p4/9/9/9/9/9/4K4 b G 1", "G*5d", 0, false);
        check("4k4/9/4p4/9/9/9/9/9/4K4 b G 1", "G*4d", 0, true);
    }
}
