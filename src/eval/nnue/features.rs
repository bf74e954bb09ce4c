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
//!
//! HalfKP numbers a piece state for each square of the viewer's own king; HalfKPE9 does
//! the same on one of nine planes chosen by how many pieces of each side attack the
//! piece's square (the halfkpe9 module); HalfKP_vm does
//! the same on a board folded at the centre file ([`KingFrame`]); K+P takes the states
//! as they are and adds both kings' squares. The HalfKA sets are HalfKP (HalfKA1,
//! HalfKA2) and HalfKP_vm (HalfKA_hm1, HalfKA_hm2) with the kings as two more pieces:
//! the viewer's king's state is 1548 + its square as the viewer sees it, the enemy
//! king's 81 later (1629 + square) in the "1" sets; the "2" sets fold the enemy king
//! onto the viewer's king's plane, so a king's state is 1548 + square whoever owns it.

use super::arch::{FeatureSet, PIECE_STATES, STATES_WITH_KING, STATES_WITH_KINGS};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind, Square};
use arrayvec::ArrayVec;

/// Non-king pieces in a full set (YaneuraOu's `PIECE_NUMBER_KING`).
pub const NON_KING_PIECES: usize = 38;

/// Most features one side has switched on (KP, the HalfKA sets: 38 pieces and two kings).
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
    1548, // king: a state of the HalfKA sets only (YaneuraOu's `f_king`)
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

/// State of `piece` on `sq` from `viewer`'s side (a king's is a state of the HalfKA sets
/// alone: 1548 + square for the viewer's, 1629 + square for the enemy's, which
/// [`KingFrame::feature`] folds onto the viewer's king's plane for HalfKA2 and HalfKA_hm2).
#[inline(always)]
pub(super) fn board_state(piece: Piece, sq: Square, viewer: Color) -> u16 {
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
pub(super) fn hand_state(holder: Color, kind: PieceKind, index: u32, viewer: Color) -> u16 {
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

/// First piece state on the board (the 90 hand slots come before).
const FIRST_BOARD_STATE: u16 = 90;

/// HalfKP_vm (and HalfKA_hm1, HalfKA_hm2) mirror the board when the viewer's king is on
/// this square (its view of square 6a, the first of file 6) or after: files 6 to 9.
const FIRST_MIRRORED_KING: usize = 5 * 9;

/// The square across the centre file from `sq` (an index as `view` gives it).
const fn mirror_square(sq: usize) -> usize {
    (8 - sq / 9) * 9 + sq % 9
}

/// Each piece state (the kings' too) with its square mirrored across the centre file;
/// hand slots and state 0 unchanged.
static MIRRORED_STATE: [u16; STATES_WITH_KINGS] = {
    let mut table = [0u16; STATES_WITH_KINGS];
    let mut s = 0;
    while s < STATES_WITH_KINGS {
        table[s] = if s < FIRST_BOARD_STATE as usize {
            s as u16
        } else {
            // Board states come in blocks of 81 squares, one per kind and owner.
            let block = (s - FIRST_BOARD_STATE as usize) / Square::NUM;
            let sq = (s - FIRST_BOARD_STATE as usize) % Square::NUM;
            (FIRST_BOARD_STATE as usize + block * Square::NUM + mirror_square(sq)) as u16
        };
        s += 1;
    }
    table
};

/// How a king-relative feature set (HalfKP, HalfKP_vm, the HalfKA sets) numbers one
/// side's piece states for the square of that side's own king: the first feature of that
/// square, whether the board is seen mirrored (HalfKP_vm, HalfKA_hm1 and HalfKA_hm2 with
/// the king on files 6 to 9), and from which state on a state is the enemy king's to be
/// folded onto the viewer's king's plane (HalfKA2 and HalfKA_hm2; no state reaches it in
/// the other sets). For K+P, whose piece features ignore the king, the states are the
/// features.
#[derive(Clone, Copy, Debug)]
pub(super) struct KingFrame {
    offset: u32,
    mirrored: bool,
    fold_from: u16,
}

/// The enemy king's first state (YaneuraOu's `e_king`), which HalfKA2 and HalfKA_hm2
/// fold onto the friend king's plane.
const ENEMY_KING_STATE: u16 = STATES_WITH_KING as u16;

/// A `fold_from` no state reaches: nothing is folded.
const NO_FOLD: u16 = u16::MAX;

impl KingFrame {
    #[inline(always)]
    pub(super) fn new(set: FeatureSet, viewer: Color, own_king: Square) -> KingFrame {
        if set == FeatureSet::KP {
            return KingFrame {
                offset: 0,
                mirrored: false,
                fold_from: NO_FOLD,
            };
        }
        let k = view(own_king, viewer);
        let mirrored = set.mirrored() && k >= FIRST_MIRRORED_KING;
        let square = if mirrored { mirror_square(k) } else { k };
        KingFrame {
            offset: (set.states() * square) as u32,
            mirrored,
            fold_from: if set.shares_king_plane() {
                ENEMY_KING_STATE
            } else {
                NO_FOLD
            },
        }
    }

    /// The feature of piece state `state` (as [`board_state`] and [`hand_state`] give
    /// it, from the same viewer).
    #[inline(always)]
    pub(super) fn feature(self, state: u16) -> u32 {
        let state = if self.mirrored {
            MIRRORED_STATE[state as usize]
        } else {
            state
        };
        let state = if state >= self.fold_from {
            state - Square::NUM as u16
        } else {
            state
        };
        self.offset + state as u32
    }
}

/// Feature index of the king-independent part of the K+P features for a king.
#[inline(always)]
fn kp_king_index(king: Square, owner: Color, viewer: Color) -> u32 {
    let own = if owner == viewer { 0 } else { Square::NUM };
    (PIECE_STATES + own + view(king, viewer)) as u32
}

/// The features `viewer` has switched on in `pos` (both kings on the board), for every
/// set but HalfKPE9, whose features also depend on the attacks (the halfkpe9 module
/// counts them).
pub fn active(pos: &Position, set: FeatureSet, viewer: Color) -> ArrayVec<u32, MAX_ACTIVE> {
    debug_assert!(
        set != FeatureSet::HalfKPE9,
        "HalfKPE9 features come from halfkpe9"
    );
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
        FeatureSet::HalfKP | FeatureSet::HalfKPvm | FeatureSet::HalfKPE9 => {
            let frame = KingFrame::new(set, viewer, own_king);
            out.extend(states.iter().map(|&s| frame.feature(s)));
        }
        FeatureSet::HalfKA1
        | FeatureSet::HalfKA2
        | FeatureSet::HalfKAhm1
        | FeatureSet::HalfKAhm2 => {
            let frame = KingFrame::new(set, viewer, own_king);
            out.extend(states.iter().map(|&s| frame.feature(s)));
            for owner in Color::ALL {
                let king = pos.king_square(owner).expect("both kings");
                let state = board_state(Piece::new(owner, PieceKind::King), king, viewer);
                out.push(frame.feature(state));
            }
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

    /// (before, after) states of each non-king piece the move changes.
    #[inline(always)]
    pub(super) fn piece_changes(&self) -> &[(StatePair, StatePair)] {
        &self.changes[..self.len as usize]
    }

    /// Whether the move is one of `viewer`'s own king.
    #[inline(always)]
    pub fn moves_king_of(&self, viewer: Color) -> bool {
        matches!(self.king, Some((c, _, _)) if c == viewer)
    }

    /// Whether `viewer`'s features must be recounted rather than updated: its own king
    /// moved, and HalfKP (HalfKP_vm, the HalfKA sets) ties every feature to that king.
    #[inline(always)]
    pub fn needs_refresh(&self, set: FeatureSet, viewer: Color) -> bool {
        // A HalfKPE9 move also changes the features of the pieces whose attack counts it
        // changes, which the move alone does not say: its updates come from the attack
        // counts before and after it (the halfkpe9 module), never through `changed`.
        set == FeatureSet::HalfKPE9 || set.king_relative() && self.moves_king_of(viewer)
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
        let frame = KingFrame::new(set, viewer, own_king);
        for &(before, after) in &self.changes[..self.len as usize] {
            removed.push(frame.feature(before[v]));
            added.push(frame.feature(after[v]));
        }
        if let Some((owner, from, to)) = self.king {
            if set == FeatureSet::KP {
                removed.push(kp_king_index(from, owner, viewer));
                added.push(kp_king_index(to, owner, viewer));
            } else if set.has_kings() {
                // The other side's king (a move of the viewer's own needs a refresh).
                let king = Piece::new(owner, PieceKind::King);
                removed.push(frame.feature(board_state(king, from, viewer)));
                added.push(frame.feature(board_state(king, to, viewer)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position seen in a mirror: every rank of the SFEN read from the other end.
    fn mirrored(sfen: &str) -> String {
        let (board, rest) = sfen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                // Tokens: a digit, or a piece letter with its `+`.
                let mut tokens = Vec::new();
                let mut promoted = false;
                for c in rank.chars() {
                    if c == '+' {
                        promoted = true;
                    } else {
                        tokens.push(if promoted {
                            format!("+{c}")
                        } else {
                            c.to_string()
                        });
                        promoted = false;
                    }
                }
                tokens.reverse();
                tokens.concat()
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    fn sorted(mut features: ArrayVec<u32, MAX_ACTIVE>) -> ArrayVec<u32, MAX_ACTIVE> {
        features.sort_unstable();
        features
    }

    /// HalfKP_vm (and HalfKA_hm1, HalfKA_hm2) see a side whose king is off the centre file
    /// the same as the mirror image of its position; HalfKP (HalfKA1, HalfKA2) tells the
    /// two apart.
    #[test]
    fn halfkp_vm_features_are_those_of_the_mirror_image() {
        for sfen in [
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "8l/1r3gk2/4+Bsnp1/p1p1ppp1p/3p5/P1P1P1P1P/1PSP1PN2/1KG3S2/LN2r3L w BG2Psnl 1",
        ] {
            let pos: Position = sfen.parse().unwrap();
            let mirror: Position = mirrored(sfen).parse().unwrap();
            for viewer in Color::ALL {
                assert_ne!(pos.king_square(viewer).unwrap().index() / 9, 4, "{sfen}");
                assert_eq!(
                    sorted(active(&pos, FeatureSet::HalfKPvm, viewer)),
                    sorted(active(&mirror, FeatureSet::HalfKPvm, viewer)),
                    "{viewer:?} in {sfen}"
                );
                assert_ne!(
                    sorted(active(&pos, FeatureSet::HalfKP, viewer)),
                    sorted(active(&mirror, FeatureSet::HalfKP, viewer)),
                );
                // Every feature is in range.
                let max = active(&pos, FeatureSet::HalfKPvm, viewer)
                    .into_iter()
                    .max()
                    .unwrap();
                assert!((max as usize) < FeatureSet::HalfKPvm.dimensions());
                // HalfKA_hm1 and HalfKA_hm2 fold the same way, with the two kings as
                // features too; HalfKA1 and HalfKA2 do not fold.
                for set in [FeatureSet::HalfKAhm1, FeatureSet::HalfKAhm2] {
                    let hm = active(&pos, set, viewer);
                    assert_eq!(hm.len(), MAX_ACTIVE);
                    assert_eq!(sorted(hm.clone()), sorted(active(&mirror, set, viewer)));
                    assert!(hm.iter().all(|&f| (f as usize) < set.dimensions()));
                }
                for set in [FeatureSet::HalfKA1, FeatureSet::HalfKA2] {
                    let ka = active(&pos, set, viewer);
                    assert_ne!(sorted(ka.clone()), sorted(active(&mirror, set, viewer)));
                    assert!(ka.iter().all(|&f| (f as usize) < set.dimensions()));
                }
            }
        }
    }
}

#[cfg(test)]
mod halfka_tests {
    use super::*;

    /// The kings' features in each HalfKA set, by YaneuraOu's numbering: the viewer's
    /// king at 1548 + square, the enemy's at 1629 + square ("1" sets) or on the viewer's
    /// king's plane ("2" sets), from the viewer's own king's square (folded for "hm").
    #[test]
    fn kings_are_numbered_as_yaneuraou_numbers_them() {
        // Black's king on 5i (index 4 * 9 + 8 = 44), White's on 6a (index 45): seen from
        // White, its own king is on 80 - 45 = 35 and Black's on 80 - 44 = 36.
        let pos: Position = "lnskggsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
            .parse()
            .unwrap();
        let kings = |set: FeatureSet, viewer: Color| {
            let a = active(&pos, set, viewer);
            [a[NON_KING_PIECES], a[NON_KING_PIECES + 1]]
        };
        for (set, states, enemy_plane) in [
            (FeatureSet::HalfKA1, 1710, 1629),
            (FeatureSet::HalfKA2, 1629, 1548),
        ] {
            // Black's view: own king 44, White's king 45.
            assert_eq!(
                kings(set, Color::Black),
                [44 * states + 1548 + 44, 44 * states + enemy_plane + 45]
            );
            // White's view: own king 35, Black's king 36; White's own first.
            assert_eq!(
                kings(set, Color::White),
                [35 * states + enemy_plane + 36, 35 * states + 1548 + 35]
            );
        }
    }
}
