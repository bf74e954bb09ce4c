//! HalfKPE9's features: HalfKP's, each board piece's on one of nine planes chosen by its
//! square's attack counts ([`Effects::plane`]); pieces in hand and absent pieces on the
//! plane of no attacks.
//!
//! A move changes the features of the pieces it moves (the mover, a captured piece) and
//! of every piece whose square's counts it changes (a slider's line opened or closed, a
//! new attacker or defender), far from where it plays. Those are the pieces on the
//! squares where the counts before and after the move differ, so comparing the two
//! [`Effects`] gives a ply's changes from its parent's without listing either position's
//! features.

use super::arch::{FeatureSet, PIECE_STATES};
use super::effects::Effects;
use super::features::{board_state, hand_state, Dirty, KingFrame, MAX_ACTIVE, NON_KING_PIECES};
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};
use arrayvec::ArrayVec;

/// The features of one plane are this far from the next plane's.
pub const PLANE_SIZE: u32 = (Square::NUM * PIECE_STATES) as u32;

/// First piece state on the board (the 90 hand slots come before); board states come in
/// blocks of 81 squares, one per kind and owner.
const FIRST_BOARD_STATE: u16 = 90;

/// Most features a move changes for one side, removed or added: one for each non-king
/// piece at most (the mover and a captured piece through the move itself, the others
/// through their squares' counts; positions hold a full set at most).
pub const MAX_CHANGED: usize = NON_KING_PIECES;

/// The features `viewer` has switched on in `pos` (both kings on the board), whose
/// attack counts are `effects`.
pub fn active(pos: &Position, viewer: Color, effects: &Effects) -> ArrayVec<u32, MAX_ACTIVE> {
    let own_king = pos.king_square(viewer).expect("both kings");
    let frame = KingFrame::new(FeatureSet::HalfKPE9, viewer, own_king);
    let mut out = ArrayVec::new();
    for sq in pos.occupied() {
        let piece = pos.piece_at(sq).expect("an occupied square holds a piece");
        if piece.kind() != PieceKind::King && out.len() < NON_KING_PIECES {
            let plane = effects.plane(sq, viewer);
            out.push(frame.feature(board_state(piece, sq, viewer)) + plane * PLANE_SIZE);
        }
    }
    for holder in Color::ALL {
        let hand = pos.hand(holder);
        for kind in PieceKind::HAND {
            for i in 0..hand.count(kind) {
                if out.len() < NON_KING_PIECES {
                    out.push(frame.feature(hand_state(holder, kind, i, viewer)));
                }
            }
        }
    }
    // Pieces absent from the position rest in state 0, with no attacks.
    while out.len() < NON_KING_PIECES {
        out.push(frame.feature(0));
    }
    out
}

/// The square of a piece state as Black sees it (where the view is the square itself);
/// `None` for hand slots and state 0.
#[inline(always)]
fn square_of_state(black_state: u16) -> Option<Square> {
    let offset = black_state.checked_sub(FIRST_BOARD_STATE)?;
    Square::from_index(offset as usize % Square::NUM)
}

/// The rows one side's accumulator loses and gains with a move.
#[derive(Default)]
pub struct Changes {
    pub removed: ArrayVec<u32, MAX_CHANGED>,
    pub added: ArrayVec<u32, MAX_CHANGED>,
}

/// The features each side in `viewers` loses and gains (`out`, by colour) with the move
/// `dirty` records, which took the parent position, whose counts are `before`, to `pos`,
/// whose counts are `after`. A viewer's king must not be the piece that moved (its
/// features all change then: a recount). Both sides at once: the squares and pieces are
/// found once.
pub fn changed(
    pos: &Position,
    dirty: &Dirty,
    viewers: [bool; 2],
    before: &Effects,
    after: &Effects,
    out: &mut [Changes; 2],
) {
    let frames = Color::ALL.map(|viewer| {
        let own_king = pos.king_square(viewer).expect("both kings");
        KingFrame::new(FeatureSet::HalfKPE9, viewer, own_king)
    });
    // The pieces the move changes: each on the plane of its square before or after.
    let mut moved = Bitboard::EMPTY;
    for &(old, new) in dirty.piece_changes() {
        let (old_sq, new_sq) = (square_of_state(old[0]), square_of_state(new[0]));
        for viewer in Color::ALL.into_iter().filter(|v| viewers[v.index()]) {
            let v = viewer.index();
            let plane = |sq: Option<Square>, effects: &Effects| {
                sq.map_or(0, |sq| effects.plane(sq, viewer))
            };
            let changes = &mut out[v];
            let removed = frames[v].feature(old[v]) + plane(old_sq, before) * PLANE_SIZE;
            changes.removed.push(removed);
            let added = frames[v].feature(new[v]) + plane(new_sq, after) * PLANE_SIZE;
            changes.added.push(added);
        }
        for sq in [old_sq, new_sq].into_iter().flatten() {
            moved |= Bitboard::from_square(sq);
        }
    }
    // Every other non-king piece stands where it stood, in the same state: it changes
    // plane where its square's counts changed.
    let kings = pos.pieces_of_kind(PieceKind::King);
    for sq in before.changed(after) & pos.occupied() & !moved & !kings {
        let piece = pos.piece_at(sq).expect("an occupied square holds a piece");
        for viewer in Color::ALL.into_iter().filter(|v| viewers[v.index()]) {
            let v = viewer.index();
            let state = frames[v].feature(board_state(piece, sq, viewer));
            let changes = &mut out[v];
            changes
                .removed
                .push(state + before.plane(sq, viewer) * PLANE_SIZE);
            changes
                .added
                .push(state + after.plane(sq, viewer) * PLANE_SIZE);
        }
    }
}
