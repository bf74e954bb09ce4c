//! Mate in one: a checking move after which the opponent has no legal reply.
//!
//! Run at every main-search node that is not in check, so the search never overlooks a
//! mate on the board however its pruning treats the node, and by the mate solver at the
//! attacker's nodes it meets for the first time, which are then proved without being
//! expanded. The side to move must not be in check (drops are played unchecked). Candidates are generated
//! directly rather than from the full move list: drops and board moves onto the squares
//! next to the enemy king (or onto a knight's check square). A contact check the king can
//! simply take (the square is not defended by another of our pieces) is skipped before
//! anything is played. Mates by a distant slider are left to the search one ply later.

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Move, Piece, PieceKind, Square};
use arrayvec::ArrayVec;

/// Our pieces that defend the squares next to the enemy king, worked out once per square:
/// candidate checks (drops of several kinds, several movers) keep asking about the same
/// few squares.
struct Support {
    known: ArrayVec<(Square, Bitboard), 8>,
    /// Our lances, bishops, rooks, horses and dragons: the pieces that may defend a
    /// square through the one that moves onto it.
    sliders: Bitboard,
    /// Every square we attack, once a check gets as far as needing the defender's escape
    /// squares (worked out on the first need: most calls never get there).
    attacked: Option<Bitboard>,
}

impl Support {
    fn new(pos: &Position) -> Support {
        let sliders = (pos.pieces_of_kind(PieceKind::Lance)
            | pos.diagonal_sliders()
            | pos.straight_sliders())
            & pos.pieces(pos.side_to_move());
        Support {
            known: ArrayVec::new(),
            sliders,
            attacked: None,
        }
    }

    /// Every square we attack.
    fn attacked(&mut self, pos: &Position) -> Bitboard {
        *self
            .attacked
            .get_or_insert_with(|| pos.attacks_by(pos.side_to_move()))
    }

    /// Our pieces attacking `to` (a square next to the enemy king) once something of
    /// ours stands on it.
    fn attackers(&mut self, pos: &Position, to: Square) -> Bitboard {
        if let Some(&(_, a)) = self.known.iter().find(|(s, _)| *s == to) {
            return a;
        }
        let occupied = pos.occupied() | Bitboard::from_square(to);
        let a = pos.attackers_to(pos.side_to_move(), to, occupied);
        if !self.known.is_full() {
            self.known.push((to, a));
        }
        a
    }

    /// Whether `to` stays defended by one of our pieces other than the one coming from
    /// `from` (sliders behind the mover included).
    fn supported(&mut self, pos: &Position, to: Square, from: Option<Square>) -> bool {
        // What attacks a square does not depend on what stands on it.
        let Some(f) = from else {
            return self.attackers(pos, to).is_nonempty();
        };
        let from_bit = Bitboard::from_square(f);
        if (self.attackers(pos, to) & !from_bit).is_nonempty() {
            // Moving a piece away only opens lines: the others still defend.
            return true;
        }
        if (attacks::line(to, f) & self.sliders & !from_bit).is_empty() {
            return false;
        }
        // A slider of ours behind the mover, seen once the mover has left.
        let occupied = (pos.occupied() | Bitboard::from_square(to)) ^ from_bit;
        (pos.attackers_to(pos.side_to_move(), to, occupied) & !from_bit & occupied).is_nonempty()
    }
}

/// What the defender has before our move, worked out once per call and only when a
/// check gets as far as needing it: most candidate checks are then refuted without
/// playing them, by an escape square or a capture of the checker.
struct Defence {
    ksq: Square,
    /// Pieces (either colour) alone between the defending king and one of our sliders:
    /// its pinned pieces, and our pieces whose move would uncover a check.
    blockers: Bitboard,
    /// Squares next to the king it could step to now: not its own piece and not attacked
    /// by us.
    free: Bitboard,
}

impl Defence {
    /// The defence of the king on `ksq` against us, whose attacks are `attacked`.
    fn new(pos: &Position, ksq: Square, attacked: Bitboard) -> Defence {
        let them = !pos.side_to_move();
        let free = attacks::king(ksq) & !pos.pieces(them) & !attacked;
        Defence {
            ksq,
            blockers: pos.blockers_for_king(them),
            free,
        }
    }

    /// Whether the check `piece` to `to` (from `from`, or dropped) surely fails to mate:
    /// the king steps to a square nothing of ours reaches, or a piece other than the king
    /// takes the checker. Answers `false` whenever it is unsure, for instance when moving
    /// from `from` may uncover a second check or open a line.
    fn refutes(&self, pos: &Position, piece: Piece, from: Option<Square>, to: Square) -> bool {
        let them = !pos.side_to_move();
        let mut occupied = pos.occupied() | Bitboard::from_square(to);
        let mut unsure = Bitboard::from_square(to);
        if let Some(f) = from {
            if self.blockers.has(f) {
                return false;
            }
            occupied ^= Bitboard::from_square(f);
            // Squares a line through the vacated origin might now reach.
            unsure |= attacks::rook_pseudo(f) | attacks::bishop_pseudo(f);
        }
        // The checker also covers the squares behind the king once it steps back.
        let reach = Position::piece_attacks(piece, to, occupied ^ Bitboard::from_square(self.ksq));
        if (self.free & !reach & !unsure).is_nonempty() {
            return true;
        }
        let mut takers = pos.attackers_to(them, to, occupied) & !Bitboard::from_square(self.ksq);
        takers &= !self.blockers;
        if let Some(f) = from {
            takers &= !attacks::line(self.ksq, f);
        }
        takers.is_nonempty()
    }
}

/// The kinds tried as mating drops, in this order (which mate is found first decides the
/// move the search stores): the hand's kinds, strongest first as SFEN lists them, but
/// not the pawn, its last, since a pawn drop that mates is illegal.
const MATING_DROPS: &[PieceKind] = PieceKind::HAND.split_at(PieceKind::HAND.len() - 1).0;
const _: () = assert!(matches!(
    PieceKind::HAND[PieceKind::HAND.len() - 1],
    PieceKind::Pawn
));

/// Plays `mv` and tells whether the opponent is then without a legal move.
#[inline]
fn mates(pos: &mut Position, mv: Move) -> bool {
    pos.play_unchecked(mv);
    let mated = !pos.has_legal_move();
    pos.undo();
    mated
}

/// A move that mates at once, if there is one among the contact checks.
pub fn mate_in_one(pos: &mut Position) -> Option<Move> {
    let us = pos.side_to_move();
    let them = !us;
    let ksq = pos.king_square(them)?;
    let occupied = pos.occupied();
    let near = attacks::king(ksq);
    let knight_checks = attacks::knight(them, ksq);
    let mut defence: Option<Defence> = None;
    let mut support = Support::new(pos);

    // Drops (a pawn drop that mates is illegal, so pawns are left out).
    let hand = pos.hand(us);
    let drops: &[PieceKind] = if hand.has_non_pawn() {
        MATING_DROPS
    } else {
        &[]
    };
    for &kind in drops {
        if hand.count(kind) == 0 {
            continue;
        }
        // Squares from which a piece of this kind of ours would attack the king.
        let from_squares = match kind {
            PieceKind::Knight => knight_checks,
            PieceKind::Lance => attacks::pawn(them, ksq),
            PieceKind::Rook => attacks::rook(ksq, occupied) & near,
            PieceKind::Bishop => attacks::bishop(ksq, occupied) & near,
            _ => Position::piece_attacks(Piece::new(them, kind), ksq, occupied),
        };
        for to in from_squares & !occupied {
            if kind != PieceKind::Knight && !support.supported(pos, to, None) {
                continue;
            }
            let d = defence.get_or_insert_with(|| Defence::new(pos, ksq, support.attacked(pos)));
            if d.refutes(pos, Piece::new(us, kind), None, to) {
                continue;
            }
            let mv = Move::drop(kind, to);
            if mates(pos, mv) {
                return Some(mv);
            }
        }
    }

    // Board moves onto the king's neighbourhood or a knight check square: the steppers
    // that reach one from where they stand (a table), and every slider, whose lines are
    // tested below.
    let targets = (near | knight_checks) & !pos.pieces(us);
    let origins = attacks::contact_origins(us, ksq);
    let ours = pos.pieces(us);
    let candidates = (pos.pieces_of_kind(PieceKind::Pawn) & origins.pawn
        | pos.pieces_of_kind(PieceKind::Knight) & origins.knight
        | pos.pieces_of_kind(PieceKind::Silver) & origins.silver
        | pos.gold_movers() & origins.gold)
        & ours
        | support.sliders;
    for from in candidates {
        let piece = pos.piece_at(from).expect("a piece");
        let kind = piece.kind();
        // A slider's lines on an empty board first: most miss the targets altogether,
        // which spares the occupancy lookup.
        let lines = match kind {
            PieceKind::King => continue,
            PieceKind::Lance => attacks::lance_pseudo(us, from),
            PieceKind::Bishop => attacks::bishop_pseudo(from),
            PieceKind::Rook => attacks::rook_pseudo(from),
            PieceKind::Horse => attacks::bishop_pseudo(from) | attacks::king(from),
            PieceKind::Dragon => attacks::rook_pseudo(from) | attacks::king(from),
            _ => Bitboard::ALL,
        };
        if (lines & targets).is_empty() {
            continue;
        }
        for to in Position::piece_attacks(piece, from, occupied) & targets {
            let contact = near.has(to);
            if contact && !support.supported(pos, to, Some(from)) {
                continue;
            }
            let may_promote = kind.can_promote() && (from.in_zone(us) || to.in_zone(us));
            for promote in [true, false] {
                if promote && !may_promote {
                    continue;
                }
                // The cheap tests first: most candidates are no check or easily answered.
                let mv = Move::new(from, to, promote);
                if !pos.gives_check(mv) {
                    continue;
                }
                let d =
                    defence.get_or_insert_with(|| Defence::new(pos, ksq, support.attacked(pos)));
                if d.refutes(pos, pos.moved_piece_after(mv), Some(from), to) {
                    continue;
                }
                if pos.is_legal(mv) && mates(pos, mv) {
                    return Some(mv);
                }
            }
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

    /// Every mate in one by brute force that this function promises to find: a legal
    /// move that checks and leaves no reply, landing next to the king, or a knight's
    /// check from a knight's square.
    fn contact_mates(pos: &mut Position) -> Vec<Move> {
        let Some(ksq) = pos.king_square(!pos.side_to_move()) else {
            return Vec::new();
        };
        let near = attacks::king(ksq);
        let knight_squares = attacks::knight(!pos.side_to_move(), ksq);
        pos.legal_moves()
            .into_iter()
            .filter(|&mv| {
                let kind = pos.moved_piece_after(mv).kind();
                let contact =
                    near.has(mv.to()) || (kind == PieceKind::Knight && knight_squares.has(mv.to()));
                contact && pos.gives_check(mv) && mates(pos, mv)
            })
            .collect()
    }

    #[test]
    fn agrees_with_brute_force_on_random_games() {
        crate::attacks::init();
        let mut rng = crate::rng::Rng::from_state(20261201);
        let (mut positions, mut mates_found) = (0, 0);
        for _ in 0..300 {
            let mut pos: Position = crate::position::STARTPOS_SFEN.parse().unwrap();
            for _ in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !pos.in_check() {
                    positions += 1;
                    let expected = contact_mates(&mut pos);
                    let found = mate_in_one(&mut pos);
                    match found {
                        Some(mv) => {
                            assert!(pos.is_legal(mv), "{mv} in {pos}");
                            assert!(pos.gives_check(mv) && mates(&mut pos, mv), "{mv} in {pos}");
                            mates_found += 1;
                        }
                        None => assert!(expected.is_empty(), "missed {expected:?} in {pos}"),
                    }
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                pos.play(mv);
            }
        }
        // The games must reach enough mates for the comparison to mean something.
        assert!(
            positions > 10_000 && mates_found > 50,
            "{positions} {mates_found}"
        );
    }

    #[test]
    fn no_mate_when_the_king_escapes() {
        assert_eq!(mate("4k4/9/9/9/9/9/9/9/4K4 b G 1"), None);
    }
}
