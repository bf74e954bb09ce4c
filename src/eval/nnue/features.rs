//! Input features: which rows of the feature transformer a position switches on, from
//! each side's point of view, numbered as YaneuraOu numbers them.
//!
//! Every non-king piece has a "piece state" (YaneuraOu's BonaPiece, 0..1548) from each
//! side's view: seen from White the board is turned round (square `80 - sq`) and the
//! colours swapped, so "friend" always means the viewer's. Hand pieces take one slot per
//! piece held: the k-th pawn in Black's hand is `1 + k` from Black's view. Promoted
//! pawns, lances, knights and silvers count as golds. A position always has 38 non-king
//! pieces in YaneuraOu's list; pieces missing from it (handicaps, tsume) sit in state 0,
//! so each one switches on the state-0 feature.

use super::arch::{FeatureSet, PIECE_STATES};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};
use arrayvec::ArrayVec;

/// Non-king pieces in a full set (YaneuraOu's `PIECE_NUMBER_KING`).
pub const NON_KING_PIECES: usize = 38;

/// Most features one side has switched on (KP: 38 pieces and two kings).
pub const MAX_ACTIVE: usize = NON_KING_PIECES + 2;

/// A piece state from Black's and White's views.
pub type StatePair = [u16; 2];

/// First slot of each hand kind from the holder's view; the opponent's slots follow at
/// `HAND_OTHER[kind]`. Indexed by `PieceKind as usize` (pawn 1 .. gold 7).
const HAND_FRIEND: [u16; 8] = [0, 1, 39, 49, 59, 79, 85, 69];
const HAND_ENEMY: [u16; 8] = [0, 20, 44, 54, 64, 82, 88, 74];

/// First state of each board kind for the viewer's own pieces; the enemy's follow 81
/// later. Indexed by `PieceKind as usize`; promoted minor pieces are golds, the king has
/// none.
const BOARD_FRIEND: [u16; 15] = [
    0,    // (none)
    90,   // pawn
    252,  // lance
    414,  // knight
    576,  // silver
    900,  // bishop
    1224, // rook
    738,  // gold
    0,    // king: not a piece state
    738,  // promoted pawn
    738,  // promoted lance
    738,  // promoted knight
    738,  // promoted silver
    1062, // horse
    1386, // dragon
];

/// The square as `viewer` sees it.
#[inline(always)]
fn view(sq: Square, viewer: Color) -> usize {
    match viewer {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    }
}

/// State of `piece` (not a king) on `sq` from `viewer`'s side.
#[inline(always)]
fn board_state(piece: Piece, sq: Square, viewer: Color) -> u16 {
    let base = BOARD_FRIEND[piece.kind() as usize]
        + if piece.color() == viewer {
            0
        } else {
            Square::NUM as u16
        };
    base + view(sq, viewer) as u16
}

/// State of the `index`-th (0-based) piece of `kind` in `holder`'s hand, from `viewer`'s
/// side.
#[inline(always)]
fn hand_state(holder: Color, kind: PieceKind, index: u32, viewer: Color) -> u16 {
    let base = if holder == viewer {
        HAND_FRIEND[kind as usize]
    } else {
        HAND_ENEMY[kind as usize]
    };
    base + index as u16
}

#[inline(always)]
fn board_pair(piece: Piece, sq: Square) -> StatePair {
    [
        board_state(piece, sq, Color::Black),
        board_state(piece, sq, Color::White),
    ]
}

#[inline(always)]
fn hand_pair(holder: Color, kind: PieceKind, index: u32) -> StatePair {
    [
        hand_state(holder, kind, index, Color::Black),
        hand_state(holder, kind, index, Color::White),
    ]
}

/// Whether the position has what the nets need: both kings.
#[inline]
pub fn supports(pos: &Position) -> bool {
    pos.king_square(Color::Black).is_some() && pos.king_square(Color::White).is_some()
}

/// The HalfKP feature of the non-king `piece` on `sq` for `viewer`, whose king is on
/// `own_king`.
#[inline(always)]
pub(super) fn halfkp_board(piece: Piece, sq: Square, viewer: Color, own_king: Square) -> u32 {
    halfkp_offset(own_king, viewer) + board_state(piece, sq, viewer) as u32
}

/// The HalfKP feature of the `index`-th (0-based) piece of `kind` in `holder`'s hand.
#[inline(always)]
pub(super) fn halfkp_hand(
    holder: Color,
    kind: PieceKind,
    index: u32,
    viewer: Color,
    own_king: Square,
) -> u32 {
    halfkp_offset(own_king, viewer) + hand_state(holder, kind, index, viewer) as u32
}

/// The HalfKP feature of a piece absent from the position (state 0).
#[inline(always)]
pub(super) fn halfkp_absent(viewer: Color, own_king: Square) -> u32 {
    halfkp_offset(own_king, viewer)
}

/// First HalfKP feature of `viewer`'s king square.
#[inline(always)]
fn halfkp_offset(own_king: Square, viewer: Color) -> u32 {
    (PIECE_STATES * view(own_king, viewer)) as u32
}

/// Feature index of the king-independent part of the K+P features for a king.
#[inline(always)]
fn kp_king_index(king: Square, owner: Color, viewer: Color) -> u32 {
    let own = if owner == viewer { 0 } else { Square::NUM };
    (PIECE_STATES + own + view(king, viewer)) as u32
}

/// The features `viewer` has switched on in `pos` (both kings on the board).
pub fn active(pos: &Position, set: FeatureSet, viewer: Color) -> ArrayVec<u32, MAX_ACTIVE> {
    let mut states = ArrayVec::<u16, NON_KING_PIECES>::new();
    for sq in pos.occupied() {
        let piece = pos.piece_at(sq).expect("an occupied square holds a piece");
        if piece.kind() != PieceKind::King && !states.is_full() {
            states.push(board_state(piece, sq, viewer));
        }
    }
    for holder in Color::ALL {
        let hand = pos.hand(holder);
        for kind in PieceKind::HAND {
            for i in 0..hand.count(kind) {
                if !states.is_full() {
                    states.push(hand_state(holder, kind, i, viewer));
                }
            }
        }
    }
    // Pieces absent from the position rest in state 0.
    while !states.is_full() {
        states.push(0);
    }
    let own_king = pos.king_square(viewer).expect("both kings");
    let mut out = ArrayVec::new();
    match set {
        FeatureSet::HalfKP => {
            let offset = halfkp_offset(own_king, viewer);
            out.extend(states.iter().map(|&s| offset + s as u32));
        }
        FeatureSet::KP => {
            out.extend(states.iter().map(|&s| s as u32));
            let enemy_king = pos.king_square(!viewer).expect("both kings");
            out.push(kp_king_index(own_king, viewer, viewer));
            out.push(kp_king_index(enemy_king, !viewer, viewer));
        }
    }
    out
}

/// What a move changes in the features: up to two non-king pieces change state (the
/// mover, and a captured piece going to the hand), and perhaps a king moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dirty {
    /// (before, after) for each changed non-king piece.
    changes: [(StatePair, StatePair); 2],
    len: u8,
    /// The king that moved: its colour and its origin and destination.
    king: Option<(Color, Square, Square)>,
}

impl Dirty {
    /// A null move: nothing changes.
    pub const NONE: Dirty = Dirty {
        changes: [([0; 2], [0; 2]); 2],
        len: 0,
        king: None,
    };

    /// The changes `mv`, legal in `pos`, will make.
    #[inline]
    pub fn of_move(pos: &Position, mv: Move) -> Dirty {
        let us = pos.side_to_move();
        let to = mv.to();
        let mut d = Dirty::NONE;
        match mv.drop_kind() {
            Some(kind) => {
                let held = pos.hand(us).count(kind);
                d.push(
                    hand_pair(us, kind, held - 1),
                    board_pair(Piece::new(us, kind), to),
                );
            }
            None => {
                let from = mv.origin_unchecked();
                let piece = pos.piece_at(from).expect("a piece on the origin square");
                if let Some(captured) = pos.piece_at(to) {
                    let kind = captured.kind().unpromoted();
                    let held = pos.hand(us).count(kind);
                    d.push(board_pair(captured, to), hand_pair(us, kind, held));
                }
                if piece.kind() == PieceKind::King {
                    d.king = Some((us, from, to));
                } else {
                    let moved = if mv.is_promotion() {
                        Piece::new(us, piece.kind().promoted())
                    } else {
                        piece
                    };
                    d.push(board_pair(piece, from), board_pair(moved, to));
                }
            }
        }
        d
    }

    #[inline(always)]
    fn push(&mut self, before: StatePair, after: StatePair) {
        self.changes[self.len as usize] = (before, after);
        self.len += 1;
    }

    /// Whether `viewer`'s features must be recounted rather than updated: its own king
    /// moved, and HalfKP ties every feature to that king.
    #[inline(always)]
    pub fn needs_refresh(&self, set: FeatureSet, viewer: Color) -> bool {
        set == FeatureSet::HalfKP && matches!(self.king, Some((c, _, _)) if c == viewer)
    }

    /// The features `viewer` loses and gains, when no refresh is needed. `own_king` is
    /// the viewer's king square in the position after the move.
    #[inline]
    pub fn changed(
        &self,
        set: FeatureSet,
        viewer: Color,
        own_king: Square,
        removed: &mut ArrayVec<u32, 3>,
        added: &mut ArrayVec<u32, 3>,
    ) {
        let v = viewer.index();
        let offset = match set {
            FeatureSet::HalfKP => halfkp_offset(own_king, viewer),
            FeatureSet::KP => 0,
        };
        for &(before, after) in &self.changes[..self.len as usize] {
            removed.push(offset + before[v] as u32);
            added.push(offset + after[v] as u32);
        }
        if set == FeatureSet::KP {
            if let Some((owner, from, to)) = self.king {
                removed.push(kp_king_index(from, owner, viewer));
                added.push(kp_king_index(to, owner, viewer));
            }
        }
    }
}
