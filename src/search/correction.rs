//! Correction history: what the searches below a node found, against what its static
//! evaluation said, remembered by features of the position that the evaluation misjudges
//! in the same direction again and again, and added to later static evaluations.
//!
//! The features, per side to move (`correction_model` 1, the default, as Stockfish and
//! YaneuraOu key theirs): where the pawns stand, where the small pieces stand, and where
//! each side's other pieces stand, each a Zobrist key the position keeps as the pieces
//! move; most moves change one or two of them, so what a search learned carries to the
//! positions a few moves on. `correction_model` 0 keys the material on the board with
//! both hands and the pieces on and around each king instead (with the pawns on the
//! board as an option). Both can add the last two moves played (a plan the evaluation
//! does not see through).

use super::params;
use crate::attacks;
use crate::position::{Position, PART_KEYS};
use crate::rng::mix64;
use crate::types::{Color, Move, Piece, PieceKind};

/// Entries in each table (a power of two).
const SIZE: usize = 1 << 14;
/// Entries in each placement table of `correction_model` 1 (a power of two): a
/// placement changes with most moves, so these hold many more keys than the material's.
const PART_SIZE: usize = 1 << 16;
/// Largest magnitude an entry reaches; updates shrink towards it ("gravity").
pub const CORRECTION_MAX: i32 = 1024;
/// `correction_model` 1: each placement table learns this share (1/128) of an update,
/// by [`PART_KEYS`] order (pawns, small pieces, Black's, White's): YaneuraOu's.
const PART_UPDATE_SHARE: [i32; PART_KEYS] = [128, 153, 187, 187];

/// The position features that key the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    material: usize,
    kings: [usize; 2],
    pawns: usize,
    /// `correction_model` 1: the placement keys' table indices.
    parts: [usize; PART_KEYS],
    /// The last two moves' key, where the search knows them.
    continuation: Option<usize>,
}

impl CorrectionKeys {
    /// The keys of `pos`.
    pub fn of(pos: &Position) -> CorrectionKeys {
        if params::correction_model() != 0 {
            CorrectionKeys::of_placements(pos)
        } else {
            CorrectionKeys::of_material_and_kings(pos)
        }
    }

    /// `correction_model` 0's keys: the material and both kings' areas.
    fn of_material_and_kings(pos: &Position) -> CorrectionKeys {
        // Material: both hands, and each side's count of every kind on the board (the
        // promoted kinds too: a promotion changes the balance), packed exactly by the
        // position as its pieces move and hashed once, since this runs at every node.
        let counts = [Color::Black, Color::White].map(|color| pos.piece_counts(color));
        let hands =
            u64::from(pos.hand(Color::Black).raw()) | u64::from(pos.hand(Color::White).raw()) << 32;
        let material = mix64(mix64(hands) ^ counts[0]) ^ mix64(counts[1].rotate_left(29));
        // Each king's square and what stands on the squares around it, packed exactly
        // (7 bits for the square, 5 for each neighbour) and hashed once.
        let mut kings = [0; 2];
        for color in [Color::Black, Color::White] {
            let Some(king) = pos.king_square(color) else {
                continue;
            };
            let mut key = king.index() as u64;
            for &sq in attacks::king_ring(king) {
                key = key << 5 | pos.piece_at(sq).map_or(0, |p| p.index() as u64 + 1);
            }
            kings[color.index()] = (mix64(key) as usize) & (SIZE - 1);
        }
        // Both sides' pawns on the board (those in hand are material).
        let pawns = if params::correction_pawn_weight() != 0 {
            let black = pos.pieces_of(Color::Black, PieceKind::Pawn).0;
            let white = pos.pieces_of(Color::White, PieceKind::Pawn).0;
            let fold = |b: u128| mix64(b as u64 ^ mix64((b >> 64) as u64));
            (mix64(fold(black) ^ fold(white).rotate_left(17)) as usize) & (SIZE - 1)
        } else {
            0
        };
        CorrectionKeys {
            material: (material as usize) & (SIZE - 1),
            kings,
            pawns,
            parts: [0; PART_KEYS],
            continuation: None,
        }
    }

    /// `correction_model` 1's keys: the position keeps its placement keys as the pieces
    /// move, so there is nothing to count.
    fn of_placements(pos: &Position) -> CorrectionKeys {
        CorrectionKeys {
            material: 0,
            kings: [0; 2],
            pawns: 0,
            parts: pos
                .part_keys()
                .map(|k| (k >> 32) as usize & (PART_SIZE - 1)),
            continuation: None,
        }
    }

    /// The keys with the last two moves (each the piece it put down and its
    /// destination): `last` the opponent's, `before` this side's.
    pub fn with_moves(self, last: Option<(Piece, Move)>, before: Option<(Piece, Move)>) -> Self {
        if params::correction_continuation_weight() == 0 {
            return self;
        }
        let code = |m: Option<(Piece, Move)>| {
            m.map_or(0, |(piece, mv)| {
                (piece.index() as u64 + 1) << 8 | mv.to().index() as u64
            })
        };
        let key = mix64(code(last) << 16 ^ code(before) ^ 0x5bd1_e995);
        CorrectionKeys {
            continuation: Some((key as usize) & (SIZE - 1)),
            ..self
        }
    }
}

/// The per-thread correction tables, by side to move.
pub struct Correction {
    material: Vec<[i16; SIZE]>,
    kings: Vec<[[i16; SIZE]; 2]>,
    pawns: Vec<[i16; SIZE]>,
    continuation: Vec<[i16; SIZE]>,
    /// `correction_model` 1: by side to move and placement key (Black's half first),
    /// one entry for each table.
    parts: Vec<[i16; PART_KEYS]>,
}

impl Default for Correction {
    fn default() -> Correction {
        Correction {
            material: vec![[0; SIZE]; 2],
            kings: vec![[[0; SIZE]; 2]; 2],
            pawns: vec![[0; SIZE]; 2],
            continuation: vec![[0; SIZE]; 2],
            parts: vec![[0; PART_KEYS]; 2 * PART_SIZE],
        }
    }
}

/// Pulls `entry` towards `bonus` so that it stays within ±CORRECTION_MAX.
#[inline(always)]
fn apply(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let updated = e + bonus - e * bonus.abs() / CORRECTION_MAX;
    *entry = updated.clamp(-CORRECTION_MAX, CORRECTION_MAX) as i16;
}

impl Correction {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Correction::default();
    }

    /// The correction (centipawns) to add to the static evaluation of a position with
    /// these keys and side to move.
    #[inline]
    pub fn value(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let s = side.index();
        if params::correction_model() != 0 {
            return self.placement_value(side, keys);
        }
        let material = self.material[s][keys.material] as i32;
        let kings = self.kings[s][0][keys.kings[0]] as i32 + self.kings[s][1][keys.kings[1]] as i32;
        let pawns = self.pawns[s][keys.pawns] as i32;
        let continuation = keys
            .continuation
            .map_or(0, |k| self.continuation[s][k] as i32);
        (material * params::correction_material_weight()
            + kings * params::correction_king_weight()
            + pawns * params::correction_pawn_weight()
            + continuation * params::correction_continuation_weight())
            / 1024
    }

    /// Learns that a search at `depth` found `diff` centipawns more than the static
    /// evaluation (negative: less).
    #[inline]
    pub fn update(&mut self, side: Color, keys: CorrectionKeys, diff: i32, depth: i32) {
        let bonus = (diff * depth / 8).clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        let s = side.index();
        if params::correction_model() != 0 {
            return self.learn_placements(side, keys, bonus);
        }
        apply(&mut self.material[s][keys.material], bonus);
        apply(&mut self.kings[s][0][keys.kings[0]], bonus);
        apply(&mut self.kings[s][1][keys.kings[1]], bonus);
        if params::correction_pawn_weight() != 0 {
            apply(&mut self.pawns[s][keys.pawns], bonus);
        }
        if let Some(k) = keys.continuation {
            apply(&mut self.continuation[s][k], bonus);
        }
    }

    /// `correction_model` 1's correction: the placement tables' entries, weighted.
    fn placement_value(&self, side: Color, keys: CorrectionKeys) -> i32 {
        let s = side.index();
        let [pawns, small, black, white] = keys.parts;
        let parts = &self.parts[s * PART_SIZE..(s + 1) * PART_SIZE];
        let continuation = keys
            .continuation
            .map_or(0, |k| self.continuation[s][k] as i32);
        (parts[pawns][0] as i32 * params::correction_y_pawn()
            + parts[small][1] as i32 * params::correction_y_small()
            + (parts[black][2] as i32 + parts[white][3] as i32) * params::correction_y_own()
            + continuation * params::correction_continuation_weight())
            / 1024
    }

    /// `correction_model` 1's update by `bonus` (already scaled and clamped).
    fn learn_placements(&mut self, side: Color, keys: CorrectionKeys, bonus: i32) {
        let s = side.index();
        for (table, (&key, share)) in keys.parts.iter().zip(PART_UPDATE_SHARE).enumerate() {
            apply(
                &mut self.parts[s * PART_SIZE + key][table],
                bonus * share / 128,
            );
        }
        if let Some(k) = keys.continuation {
            apply(&mut self.continuation[s][k], bonus);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::PositionCommand;

    fn position(text: &str) -> Position {
        crate::attacks::init();
        PositionCommand::strict_position(text).unwrap()
    }

    #[test]
    fn keys_follow_material_and_the_pieces_by_the_kings() {
        let start = position("startpos");
        // A pawn push far from both kings: the same material, the same king areas.
        let push = position("startpos moves 9g9f");
        assert_eq!(
            CorrectionKeys::of_material_and_kings(&start),
            CorrectionKeys::of_material_and_kings(&push)
        );
        // A bishop exchange: the hands change, so the material key does.
        let trade = position("startpos moves 7g7f 3c3d 8h2b+ 3a2b");
        assert_ne!(
            CorrectionKeys::of_material_and_kings(&start).material,
            CorrectionKeys::of_material_and_kings(&trade).material
        );
        // A king move: that king's area key changes, the other king's does not.
        let king = position("startpos moves 5i6h");
        let (a, b) = (
            CorrectionKeys::of_material_and_kings(&start),
            CorrectionKeys::of_material_and_kings(&king),
        );
        assert_eq!(a.material, b.material);
        assert_ne!(a.kings[0], b.kings[0]);
        assert_eq!(a.kings[1], b.kings[1]);
    }

    #[test]
    fn material_keys_tell_counts_apart() {
        // A promotion, a pawn more, a piece moved from board to hand: other keys.
        let keys = |sfen: &str| {
            CorrectionKeys::of_material_and_kings(&position(&format!("sfen {sfen}"))).material
        };
        let pawn = keys("4k4/9/9/9/4P4/9/9/9/4K4 b - 1");
        assert_ne!(pawn, keys("4k4/9/9/9/4+P4/9/9/9/4K4 b - 1"));
        assert_ne!(pawn, keys("4k4/9/9/9/4P4/3P5/9/9/4K4 b - 1"));
        assert_ne!(pawn, keys("4k4/9/9/9/9/9/9/9/4K4 b P 1"));
        assert_ne!(pawn, keys("4k4/9/9/9/4p4/9/9/9/4K4 b - 1"));
        assert_eq!(pawn, keys("4k4/9/9/9/9/4P4/9/9/4K4 b - 1"));
    }

    #[test]
    fn placement_corrections_are_shared_by_positions_with_the_same_pieces_in_place() {
        let start = position("startpos");
        let keys = CorrectionKeys::of_placements(&start);
        let mut c = Correction::default();
        for _ in 0..1000 {
            c.learn_placements(Color::Black, keys, 200);
        }
        let full = c.placement_value(Color::Black, keys);
        let most = CORRECTION_MAX
            * (params::correction_y_pawn()
                + params::correction_y_small()
                + 2 * params::correction_y_own())
            / 1024;
        assert!(full > 0 && full <= most, "{full} of at most {most}");
        // A pawn push keeps the other pieces' placements: most of the correction carries.
        let push = CorrectionKeys::of_placements(&position("startpos moves 7g7f 3c3d"));
        let shared = c.placement_value(Color::Black, push);
        assert!(shared > 0 && shared < full, "{shared} of {full}");
        // Every placement changed: nothing carries (barring a collision of all four).
        let moved = position("startpos moves 7g7f 3c3d 8h2b+ 3a2b 2h5h 4a3b 5i4h 5a4b 3i3h");
        assert_eq!(
            c.placement_value(Color::Black, CorrectionKeys::of_placements(&moved)),
            0
        );
        // The other side to move has its own tables.
        assert_eq!(c.placement_value(Color::White, keys), 0);
    }

    #[test]
    fn corrections_learn_the_direction_searches_found_and_stay_bounded() {
        let keys = CorrectionKeys::of(&position("startpos"));
        let mut c = Correction::default();
        assert_eq!(c.value(Color::Black, keys), 0);
        for _ in 0..1000 {
            c.update(Color::Black, keys, 500, 12);
        }
        let up = c.value(Color::Black, keys);
        assert!(up > 0, "{up}");
        // Bounded by the entries' limit, whatever the searches said.
        let weights = if params::correction_model() != 0 {
            params::correction_y_pawn()
                + params::correction_y_small()
                + 2 * params::correction_y_own()
        } else {
            params::correction_material_weight() + 2 * params::correction_king_weight()
        };
        let most = CORRECTION_MAX * weights / 1024;
        assert!(up <= most, "{up} > {most}");
        // The other side to move has its own tables.
        assert_eq!(c.value(Color::White, keys), 0);
        for _ in 0..1000 {
            c.update(Color::Black, keys, -500, 12);
        }
        assert!(c.value(Color::Black, keys) < 0);
    }
}
