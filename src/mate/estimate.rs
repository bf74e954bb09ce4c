//! First estimates of the proof and disproof numbers of a position met for the first
//! time (the "df-pn+" idea): plain df-pn starts every new node at (1, 1), which treats a
//! check into a crowd of defenders like a check the attacker supports, and a reply that
//! captures the checker like one that walks into a net.
//!
//! The estimates look only at the square the move goes to, before it is played: how many
//! pieces of each side attack it and what stands on it. The weights follow the ones
//! published for GPS Shogi's liberty estimator and the KomoringHeights solver: a check the
//! attacker supports more than the defender guards is promising (its disproof number
//! grows), any other check costs one more unit of proof; a capture by the defender is its
//! strongest reply, an interposition the defender guards well is next. Every number is in
//! [`UNIT`]s so that these half-steps fit between the counts.
//!
//! Only the search order changes: a node is proved or disproved by its children, never by
//! an estimate.

use crate::position::Position;
use crate::types::{Move, PieceKind};

/// One step of proof or disproof: the estimates add whole and half units.
pub const UNIT: u32 = 2;

/// Guards from which a check's square counts as crowded: the defender can take the
/// checker and still hold the square.
const CROWDED: u32 = 2;

/// A reply that holds (a capture, an interposition the defender guards): twice the work
/// to prove, the usual work to disprove.
const HOLDING_REPLY: (u32, u32) = (2 * UNIT, UNIT);
/// A king move: even.
const KING_REPLY: (u32, u32) = (UNIT, UNIT);
/// Any other reply: the usual work to prove, twice the work to disprove.
const WEAK_REPLY: (u32, u32) = (UNIT, 2 * UNIT);

/// What a check (an attacker's move) adds to the numbers of the defender's node it leads
/// to: `(pn, dn)` on top of [`UNIT`] per reply for `pn` and [`UNIT`] for `dn`.
pub fn after_check(pos: &Position, mv: Move) -> (u32, u32) {
    let us = pos.side_to_move();
    let to = mv.to();
    let occupied = pos.occupied();
    let support = pos.attackers_to(us, to, occupied).count() + u32::from(mv.is_drop());
    let guards = pos.attackers_to(!us, to, occupied).count();
    let mut pn = 0;
    let mut dn = 0;
    if guards >= CROWDED {
        pn += UNIT;
    }
    if support > guards {
        dn += UNIT;
    } else {
        match pos.piece_at(to).map(|p| p.kind().unpromoted()) {
            // Taking a gold or silver gives a piece that mates in many shapes.
            Some(PieceKind::Gold | PieceKind::Silver) => dn += UNIT,
            _ => pn += UNIT,
        }
    }
    (pn, dn)
}

/// The numbers of the attacker's node a defender's reply `mv` leads to.
pub fn after_reply(pos: &Position, mv: Move) -> (u32, u32) {
    let us = pos.side_to_move();
    let to = mv.to();
    if pos.piece_at(to).is_some() {
        // A capture takes away attacking material: the hardest reply to answer.
        return HOLDING_REPLY;
    }
    if mv.from().is_some() && mv.from() == pos.king_square(us) {
        return KING_REPLY;
    }
    let occupied = pos.occupied();
    let attackers = pos.attackers_to(!us, to, occupied).count();
    let guards = pos.attackers_to(us, to, occupied).count() + u32::from(mv.is_drop());
    if attackers < guards {
        // An interposition (or a move) the defender holds: taking it costs the attacker.
        HOLDING_REPLY
    } else {
        WEAK_REPLY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        crate::attacks::init();
        sfen.parse().unwrap()
    }

    fn parse(pos: &Position, usi: &str) -> Move {
        let mv = Move::from_usi(usi).unwrap();
        assert!(pos.is_legal(mv), "{usi}");
        mv
    }

    #[test]
    fn a_supported_check_is_promising_and_a_guarded_one_is_not() {
        // White: king 5a, gold 4a. Black: silver 6c, pawn 5c, golds in hand.
        let pos = position("4kg3/9/3SP4/9/9/9/9/9/4K4 b 2G2r2b1g3s4n4l17p 1");
        // 5b: supported by the pawn, the silver and the drop (3), guarded by the king
        // and the gold (2).
        assert_eq!(after_check(&pos, parse(&pos, "G*5b")), (UNIT, UNIT));
        // 6b: supported by the silver and the drop, guarded by the king alone.
        assert_eq!(after_check(&pos, parse(&pos, "G*6b")), (0, UNIT));
        // 4b: the drop alone against the king and the gold.
        assert_eq!(after_check(&pos, parse(&pos, "G*4b")), (2 * UNIT, 0));
    }

    #[test]
    fn the_defenders_captures_and_guarded_interpositions_come_first() {
        // Black's rook on 5e checks the white king on 5a; White has a gold on 4a, a
        // bishop on 1a that can take the rook, and a gold in hand.
        let pos = position("4kg2b/9/9/9/4R4/9/9/9/K8 w g 1");
        assert_eq!(after_reply(&pos, parse(&pos, "1a5e")), (2 * UNIT, UNIT));
        assert_eq!(after_reply(&pos, parse(&pos, "5a6b")), (UNIT, UNIT));
        // On 5b the king and the gold guard the dropped gold: a reply that holds.
        assert_eq!(after_reply(&pos, parse(&pos, "G*5b")), (2 * UNIT, UNIT));
        // On 5d nothing guards it and the rook attacks it.
        assert_eq!(after_reply(&pos, parse(&pos, "G*5d")), (UNIT, 2 * UNIT));
    }
}
