//! What the search learns about moves as it goes, per thread: killer moves, counter
//! moves, and history scores of quiet moves and captures that caused cutoffs, the quiet
//! ones also by the moves played one, two and four plies before (continuation history)
//! and by the pawns on the board (pawn-structure history).

use super::params;
use crate::position::Position;
use crate::rng::mix64;
use crate::types::{Color, Move, Piece, PieceKind, Square};

/// Largest magnitude a history score reaches; updates shrink towards it ("gravity").
pub const HISTORY_MAX: i32 = 16_384;

/// Index of a move's origin: the square of a board move, 81 + kind for a drop.
#[inline(always)]
fn origin(mv: Move) -> usize {
    ((mv.raw() >> 7) & 0x7f) as usize
}

/// Pulls `entry` towards `bonus` so that it stays within ±HISTORY_MAX.
#[inline(always)]
fn apply(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let updated = e + bonus - e * bonus.abs() / HISTORY_MAX;
    *entry = updated.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * params::history_bonus_quadratic() + depth * params::history_bonus_linear())
        .min(params::history_bonus_max())
}

/// Plies from the root that the low-ply history keeps.
pub const LOW_PLY: usize = 5;

/// Entries of the pawn-structure history (a power of two).
const PAWN_HISTORY_SIZE: usize = 1024;

/// The pawn-structure history's index of `pos`: both sides' pawns on the board, hashed.
/// A plan that works with one pawn structure tends to work for as long as it stands.
pub fn pawn_index(pos: &Position) -> usize {
    let fold = |b: u128| mix64(b as u64 ^ mix64((b >> 64) as u64));
    let black = pos.pieces_of(Color::Black, PieceKind::Pawn).0;
    let white = pos.pieces_of(Color::White, PieceKind::Pawn).0;
    (mix64(fold(black) ^ fold(white).rotate_left(23)) as usize) & (PAWN_HISTORY_SIZE - 1)
}

/// The per-thread move statistics.
pub struct History {
    /// Quiet moves by side, origin and destination.
    quiet: Vec<[[i16; Square::NUM]; 88]>,
    /// Captures by moved piece, destination and captured kind.
    capture: Vec<[[i16; 16]; Square::NUM]>,
    /// The quiet reply that refuted a move, by the refuted move's piece and destination.
    counter: Vec<[Option<Move>; Square::NUM]>,
    /// Quiet moves by piece and destination, in rows by an earlier move's piece and
    /// destination (see [`ContinuationRows`]).
    continuation: Vec<[[i16; Square::NUM]; 32]>,
    /// Quiet moves by piece and destination, by the pawn structure ([`pawn_index`]).
    pawn: Vec<[[i16; Square::NUM]; 32]>,
    /// Quiet moves by origin and destination, by ply from the root (below [`LOW_PLY`]),
    /// for the current search only.
    low_ply: Vec<[[i16; Square::NUM]; 88]>,
}

/// The continuation-history rows of the moves played one, two and four plies before a
/// node, then (when `continuation_extra` asks) six and three plies before (`None` where
/// there is no such move, or it was a null move).
pub type ContinuationRows = [Option<usize>; 5];

/// The continuation-history row of a move: its piece and destination.
#[inline(always)]
pub fn continuation_row(previous: Option<(Piece, Move)>) -> Option<usize> {
    previous.map(|(piece, mv)| (piece.index() & 31) * Square::NUM + mv.to().index())
}

/// The continuation history keeps its rows in this many sets, by the node the earlier
/// move was made at: whether it was in check, and whether the move was a capture or
/// promotion ([`continuation_context`]; one set while `continuation_context` is off).
pub const CONTINUATION_CONTEXTS: usize = 4;

/// Rows in one set of continuation rows: an earlier move's piece and destination.
const ROWS_PER_CONTEXT: usize = 32 * Square::NUM;

/// The set of continuation rows a move made at a node `in_check` (or not), `tactical`
/// (a capture or promotion) or not, belongs to: Stockfish's and YaneuraOu's split, since
/// the replies that follow an evasion or a capture are other replies. Always the first
/// while `continuation_context` is off.
#[inline(always)]
pub fn continuation_context(in_check: bool, tactical: bool) -> u8 {
    if params::continuation_context() == 0 {
        0
    } else {
        2 * u8::from(in_check) + u8::from(tactical)
    }
}

/// The sets of continuation rows the table holds: all of them when they are used, or
/// when tuning may turn them on between searches; one otherwise (13 MB a thread, not 53).
fn continuation_sets() -> usize {
    if cfg!(feature = "spsa") || params::continuation_context() != 0 {
        CONTINUATION_CONTEXTS
    } else {
        1
    }
}

/// [`continuation_row`] in the set `context` ([`continuation_context`]).
#[inline(always)]
pub fn continuation_row_in(previous: Option<(Piece, Move)>, context: u8) -> Option<usize> {
    continuation_row(previous).map(|row| row + context as usize * ROWS_PER_CONTEXT)
}

/// A continuation row of zeros, standing for an earlier move that is not there: adding
/// it costs a load that stays in the cache, where skipping it costs a branch a move.
static ZERO_ROW: [[i16; Square::NUM]; 32] = [[0; Square::NUM]; 32];

/// One node's view of the quiet-move histories ([`History::quiet_tables`]): each score
/// the same as [`History`]'s own lookups give.
pub struct QuietTables<'a> {
    quiet: &'a [[i16; Square::NUM]; 88],
    rows: [&'a [[i16; Square::NUM]; 32]; 5],
    pawn: Option<&'a [[i16; Square::NUM]; 32]>,
    low_ply: Option<&'a [[i16; Square::NUM]; 88]>,
}

impl QuietTables<'_> {
    /// [`History::quiet`] for the node's side.
    #[inline(always)]
    pub fn quiet(&self, mv: Move) -> i32 {
        self.quiet[origin(mv)][mv.to().index()] as i32
    }

    /// [`History::continuation`] over the node's rows.
    #[inline(always)]
    pub fn continuation(&self, piece: Piece, mv: Move) -> i32 {
        let (p, to) = (piece.index() & 31, mv.to().index());
        self.rows.iter().map(|row| row[p][to] as i32).sum()
    }

    /// [`History::pawn`] under the node's pawns, 0 where that history is not kept.
    #[inline(always)]
    pub fn pawn(&self, piece: Piece, mv: Move) -> i32 {
        self.pawn
            .map_or(0, |t| t[piece.index() & 31][mv.to().index()] as i32)
    }

    /// The quiet move `mv` at the node's ply from the root (0 from `LOW_PLY` on).
    #[inline(always)]
    pub fn low_ply(&self, mv: Move) -> i32 {
        self.low_ply
            .map_or(0, |t| t[origin(mv)][mv.to().index()] as i32)
    }
}

impl Default for History {
    fn default() -> History {
        History::with_continuation_sets(continuation_sets())
    }
}

impl History {
    /// Empty statistics with room for this many sets of continuation rows.
    fn with_continuation_sets(sets: usize) -> History {
        History {
            quiet: vec![[[0; Square::NUM]; 88]; 2],
            capture: vec![[[0; 16]; Square::NUM]; 32],
            counter: vec![[None; Square::NUM]; 32],
            continuation: vec![[[0; Square::NUM]; 32]; sets * ROWS_PER_CONTEXT],
            pawn: vec![[[0; Square::NUM]; 32]; PAWN_HISTORY_SIZE],
            low_ply: vec![[[0; Square::NUM]; 88]; LOW_PLY],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Forgets the low-ply history (a new search: the root's moves are other ones).
    pub fn clear_low_ply(&mut self) {
        for table in self.low_ply.iter_mut() {
            *table = [[0; Square::NUM]; 88];
        }
    }

    #[inline]
    pub fn update_low_ply(&mut self, ply: usize, mv: Move, bonus: i32) {
        if let Some(table) = self.low_ply.get_mut(ply) {
            apply(&mut table[origin(mv)][mv.to().index()], bonus);
        }
    }

    #[inline]
    pub fn quiet(&self, side: Color, mv: Move) -> i32 {
        self.quiet[side.index()][origin(mv)][mv.to().index()] as i32
    }

    #[inline]
    pub fn update_quiet(&mut self, side: Color, mv: Move, bonus: i32) {
        apply(
            &mut self.quiet[side.index()][origin(mv)][mv.to().index()],
            bonus,
        );
    }

    #[inline]
    pub fn capture(&self, pos: &Position, mv: Move) -> i32 {
        let piece = pos.moved_piece_after(mv);
        let captured = pos.piece_at(mv.to()).map_or(0, |p| p.kind().index());
        self.capture[piece.index() & 31][mv.to().index()][captured] as i32
    }

    #[inline]
    pub fn update_capture(&mut self, pos: &Position, mv: Move, bonus: i32) {
        let piece = pos.moved_piece_after(mv);
        let captured = pos.piece_at(mv.to()).map_or(0, |p| p.kind().index());
        apply(
            &mut self.capture[piece.index() & 31][mv.to().index()][captured],
            bonus,
        );
    }

    /// The quiet move `mv` of `piece` scored by the earlier moves' rows, summed.
    #[inline]
    pub fn continuation(&self, rows: ContinuationRows, piece: Piece, mv: Move) -> i32 {
        let (p, to) = (piece.index() & 31, mv.to().index());
        rows.iter()
            .flatten()
            .map(|&row| self.continuation[row][p][to] as i32)
            .sum()
    }

    /// The tables that score one node's quiet moves, looked up once for all of them
    /// (`side` to move, the node's continuation rows, its pawn-structure index when
    /// that history is kept, its ply from the root).
    #[inline]
    pub fn quiet_tables(
        &self,
        side: Color,
        rows: ContinuationRows,
        pawn_index: Option<usize>,
        ply: usize,
    ) -> QuietTables<'_> {
        QuietTables {
            quiet: &self.quiet[side.index()],
            rows: rows.map(|row| row.map_or(&ZERO_ROW, |r| &self.continuation[r])),
            pawn: pawn_index.map(|i| &self.pawn[i]),
            low_ply: self.low_ply.get(ply),
        }
    }

    /// Moves the continuation scores of `mv` (played by `piece`) towards `bonus`.
    #[inline]
    pub fn update_continuation(
        &mut self,
        rows: ContinuationRows,
        piece: Piece,
        mv: Move,
        bonus: i32,
    ) {
        let (p, to) = (piece.index() & 31, mv.to().index());
        for &row in rows.iter().flatten() {
            apply(&mut self.continuation[row][p][to], bonus);
        }
    }

    /// The quiet move `mv` of `piece` under the pawn structure `index`.
    #[inline]
    pub fn pawn(&self, index: usize, piece: Piece, mv: Move) -> i32 {
        self.pawn[index][piece.index() & 31][mv.to().index()] as i32
    }

    #[inline]
    pub fn update_pawn(&mut self, index: usize, piece: Piece, mv: Move, bonus: i32) {
        apply(
            &mut self.pawn[index][piece.index() & 31][mv.to().index()],
            bonus,
        );
    }

    /// The counter move stored for the opponent's last move (`piece` arrived on its
    /// destination).
    #[inline]
    pub fn counter(&self, previous: Option<(Piece, Move)>) -> Option<Move> {
        let (piece, mv) = previous?;
        self.counter[piece.index() & 31][mv.to().index()]
    }

    #[inline]
    pub fn set_counter(&mut self, previous: Option<(Piece, Move)>, reply: Move) {
        if let Some((piece, mv)) = previous {
            self.counter[piece.index() & 31][mv.to().index()] = Some(reply);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PieceKind, Square};

    fn sq(i: usize) -> Square {
        Square::from_index(i).unwrap()
    }

    #[test]
    fn continuation_scores_follow_their_earlier_move() {
        let mut h = History::default();
        let gold = Piece::new(Color::Black, PieceKind::Gold);
        let pawn = Piece::new(Color::White, PieceKind::Pawn);
        let earlier = continuation_row(Some((pawn, Move::new(sq(30), sq(31), false))));
        let other = continuation_row(Some((pawn, Move::new(sq(40), sq(41), false))));
        let reply = Move::new(sq(50), sq(49), false);
        h.update_continuation([earlier, None, None, None, None], gold, reply, bonus(8));
        let after = h.continuation([earlier, None, None, None, None], gold, reply);
        assert!(after > 0);
        // Another earlier move, another piece or no earlier move at all: untouched.
        assert_eq!(
            h.continuation([other, None, None, None, None], gold, reply),
            0
        );
        let silver = Piece::new(Color::Black, PieceKind::Silver);
        assert_eq!(
            h.continuation([earlier, None, None, None, None], silver, reply),
            0
        );
        assert_eq!(
            h.continuation([None, None, None, None, None], gold, reply),
            0
        );
        // Both plies' rows add up, and a refutation pulls the score back down.
        assert_eq!(
            h.continuation([earlier, earlier, None, None, None], gold, reply),
            2 * after
        );
        h.update_continuation([earlier, None, None, None, None], gold, reply, -bonus(8));
        assert!(h.continuation([earlier, None, None, None, None], gold, reply) < after);
    }

    #[test]
    fn each_set_of_continuation_rows_learns_apart_from_the_others() {
        let mut h = History::with_continuation_sets(CONTINUATION_CONTEXTS);
        let gold = Piece::new(Color::Black, PieceKind::Gold);
        let dragon = Piece::new(Color::White, PieceKind::Dragon);
        // The last square of the last piece: every set's rows are in the table.
        let earlier = Some((dragon, Move::new(sq(79), sq(80), false)));
        let reply = Move::new(sq(50), sq(49), false);
        let rows: Vec<_> = (0..CONTINUATION_CONTEXTS as u8)
            .map(|c| continuation_row_in(earlier, c))
            .collect();
        assert_eq!(
            rows[0],
            continuation_row(earlier),
            "the first set is the plain rows"
        );
        for (c, &row) in rows.iter().enumerate() {
            h.update_continuation(
                [row, None, None, None, None],
                gold,
                reply,
                bonus(8) * (c as i32 + 1),
            );
        }
        let learned: Vec<_> = rows
            .iter()
            .map(|&row| h.continuation([row, None, None, None, None], gold, reply))
            .collect();
        assert!(
            learned.windows(2).all(|w| 0 < w[0] && w[0] < w[1]),
            "{learned:?}"
        );
    }
}
