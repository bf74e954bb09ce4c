//! The part of the evaluation read from the squares each side attacks: slider mobility,
//! the king's square, king safety and the side to move. It is recounted at every
//! evaluation, since any move can change what attacks what.

use super::params::*;
use super::{sign_of, Sink};
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind};

/// The features that depend on attacks and the side to move: slider mobility, king
/// squares, king safety and tempo.
pub fn dynamic_features<S: Sink>(pos: &Position, sink: &mut S) {
    let occupied = pos.occupied();
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    // Everything each side attacks: the sliders' squares, gathered with their mobility
    // (one loop per kind, so no per-piece dispatch on the kind), then the stepping
    // pieces' squares found set-wise.
    let mut reach = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let sign = sign_of(color);
        let own = pos.pieces(color);
        let mut sliding = Bitboard::EMPTY;
        let mut mobility = |kind: PieceKind, attacks: Bitboard| {
            sliding |= attacks;
            let n = (attacks & !own).count() as usize;
            sink.add(
                MOBILITY_TERM.start + kind.index() * MOBILITY + n.min(MOBILITY - 1),
                sign,
            );
        };
        for sq in pos.pieces_of(color, PieceKind::Lance) {
            mobility(PieceKind::Lance, attacks::lance(color, sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Bishop) {
            mobility(PieceKind::Bishop, attacks::bishop(sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Rook) {
            mobility(PieceKind::Rook, attacks::rook(sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Horse) {
            mobility(PieceKind::Horse, attacks::horse(sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Dragon) {
            mobility(PieceKind::Dragon, attacks::dragon(sq, occupied));
        }
        reach[color.index()] = sliding | pos.step_attacks(color);
    }

    for color in Color::ALL {
        let Some(ksq) = kings[color.index()] else {
            continue;
        };
        let sign = sign_of(color);
        let them = !color;
        let rank = ksq.rank().relative(color);
        let file = ksq.file().index().min(8 - ksq.file().index());
        sink.add(KING_SQUARE.start + rank * 5 + file, sign);

        let zone = attacks::king(ksq) | Bitboard::from_square(ksq);
        let enemy_king = kings[them.index()].map_or(Bitboard::EMPTY, attacks::king);
        let hit = (reach[them.index()] | enemy_king) & zone;
        // Our defenders, the king itself left out.
        let defended = reach[color.index()] & zone;
        let n = hit.count() as usize;
        let weak = (hit & !defended).count() as usize;
        sink.add(ZONE_ATTACKED.start + n, sign);
        sink.add(ZONE_WEAK.start + weak, sign);
        let enemy_hand = pos.hand(them);
        for kind in PieceKind::HAND {
            if enemy_hand.count(kind) > 0 {
                sink.add(HAND_THREAT.start + kind.index() * ZONE + n, sign);
            }
        }
        let has = |kinds: [PieceKind; 2]| {
            enemy_hand.count(kinds[0]) > 0
                || (pos.pieces_of(them, kinds[0]) | pos.pieces_of(them, kinds[1])).is_nonempty()
        };
        if has([PieceKind::Rook, PieceKind::Dragon]) {
            let open = attacks::lance(color, ksq, occupied).count() as usize;
            sink.add(OPEN_FILE.start + open.min(8), sign);
        }
        if has([PieceKind::Bishop, PieceKind::Horse]) {
            let open = attacks::bishop(ksq, occupied).count() as usize;
            sink.add(OPEN_DIAGONAL.start + open.min(16), sign);
        }
    }
    sink.add(TEMPO.start, sign_of(pos.side_to_move()));
}
