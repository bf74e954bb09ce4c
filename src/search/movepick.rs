//! The staged move picker: hands the search its moves best-first, generating each group
//! only when the ones before it failed to cut off.
//!
//! Order: the transposition-table move; captures and promotions that do not lose
//! material (by static exchange), most valuable victim first; the two killers and the
//! counter move; the other quiet moves by history, raised for a threatened piece's
//! escape and for a safe check, lowered for a move into a cheaper piece's attack; last
//! the losing captures. In check, the evasions come after the table move, captures
//! first. Every move handed out is legal: the generators are legal, and the table,
//! killer and counter moves are checked first. (The killers come before the quiets are
//! generated: a node they cut off never generates or scores its hundred-odd quiet moves.)

use super::history::{ContinuationRows, History, LOW_PLY};
use super::params;
use super::see::{promotion_gain, see_ge, value};
use crate::eval::params::PIECE_VALUES;
use crate::position::{CheckInfo, GenType, Position};
use crate::types::{Bitboard, Color, Move, MoveList, Piece, PieceKind, MAX_MOVES};
use arrayvec::ArrayVec;

/// Material gained counts this many times the capture history (at most 16,384), so the
/// victim decides and the history only breaks ties between similar captures.
const VICTIM_WEIGHT: i32 = 16;
/// Ranks of the refutations among the quiets, above any history score (at most a few
/// times 16,384): the first killer, the second, then the counter move.
const FIRST_KILLER_RANK: i32 = 3 << 20;
const SECOND_KILLER_RANK: i32 = 2 << 20;
const COUNTER_MOVE_RANK: i32 = 1 << 20;
/// In check, captures come before the other evasions, most valuable victim first.
const CAPTURE_EVASION_RANK: i32 = 1 << 20;
/// A quiet move that takes a threatened piece off an attacked square gains this much; one
/// that puts a piece (or drops one) where a cheaper one takes it loses as much. A piece
/// counts as threatened by the opponent's pawns when it is worth more than a pawn, and
/// by any of its stepping pieces when it is a bishop, rook, horse or dragon.
const ESCAPE_BONUS: i32 = 12_000;
/// A quiet check that does not lose the checking piece gains this much.
const CHECK_BONUS: i32 = 12_000;
/// Board value from which the opponent's stepping pieces (pawn to gold) count as cheaper
/// attackers: the bishop's.
const BIG_PIECE_VALUE: i32 = 855;
/// Room for the promotions that count as quiet moves (a position rarely has a dozen).
const QUIET_PROMOTIONS_MAX: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    EvasionTtMove,
    GenerateEvasions,
    Evasions,
    QuiescenceTtMove,
    GenerateQuiescence,
    QuiescenceCaptures,
    Done,
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// The killers and the counter move already handed out, skipped among the quiets.
    refutations: ArrayVec<Move, 3>,
    /// The next of `killers[0]`, `killers[1]`, `counter` to try.
    refutation_next: usize,
    continuation: ContinuationRows,
    /// The node's pawn-structure history index, when that history is kept.
    pawn_index: Option<usize>,
    /// The node's ply from the root (the low-ply history).
    ply: usize,
    moves: MoveList,
    /// Scores of `moves`, index for index (filled as the moves are generated, so a new
    /// picker costs no zeroing).
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    /// Losing captures, kept for the end.
    bad: MoveList,
    bad_next: usize,
    /// The promotions that capture nothing which `quiet_promotions` counts as quiet:
    /// generated with the captures, handed out with the quiets.
    quiet_promotions: ArrayVec<Move, QUIET_PROMOTIONS_MAX>,
    /// Quiet moves scoring above this are sorted; the rest keep generation order.
    sort_floor: i32,
    /// Set by the search once late quiet moves are pruned.
    pub skip_quiets: bool,
    /// The node's checks, once the quiet moves needed them: the search asks the same
    /// question of every move it is handed.
    checks: Option<CheckInfo>,
}

impl MovePicker {
    /// Picker for a main-search node.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        (continuation, pawn_index): (ContinuationRows, Option<usize>),
        depth: i32,
        ply: usize,
    ) -> MovePicker {
        let in_check = pos.in_check();
        let stage = if in_check {
            Stage::EvasionTtMove
        } else {
            Stage::TtMove
        };
        let mut picker = Self::with_stage(pos, stage, tt_move, killers, counter);
        picker.continuation = continuation;
        picker.pawn_index = pawn_index;
        picker.ply = ply;
        picker.sort_floor = -params::quiet_sort_limit() * depth.max(1);
        picker
    }

    /// Picker for the quiescence search: captures and promotions only, or every evasion
    /// when in check.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        if pos.in_check() {
            return Self::with_stage(pos, Stage::EvasionTtMove, tt_move, [None; 2], None);
        }
        let tt_move = tt_move.filter(|&m| pos.is_tactical(m));
        Self::with_stage(pos, Stage::QuiescenceTtMove, tt_move, [None; 2], None)
    }

    fn with_stage(
        pos: &Position,
        stage: Stage,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> MovePicker {
        let tt_move = tt_move.filter(|&m| pos.is_legal(m));
        let stage = if tt_move.is_none() {
            match stage {
                Stage::TtMove => Stage::GenerateCaptures,
                Stage::EvasionTtMove => Stage::GenerateEvasions,
                Stage::QuiescenceTtMove => Stage::GenerateQuiescence,
                s => s,
            }
        } else {
            stage
        };
        MovePicker {
            stage,
            tt_move,
            killers,
            counter,
            refutations: ArrayVec::new(),
            refutation_next: 0,
            continuation: [None; 5],
            pawn_index: None,
            ply: usize::MAX,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            quiet_promotions: ArrayVec::new(),
            sort_floor: 0,
            skip_quiets: false,
            checks: None,
        }
    }

    fn score_captures(&mut self, pos: &Position, history: &History) {
        self.scores.clear();
        for &mv in self.moves.iter() {
            let victim = pos.piece_at(mv.to()).map_or(0, |p| value(p.kind()));
            let promotion = promotion_gain(pos, mv);
            self.scores
                .push((victim + promotion) * VICTIM_WEIGHT + history.capture(pos, mv));
        }
    }

    /// Moves the promotions that count as quiet out of the captures, to be handed out
    /// with the quiet moves (the rest, beyond the room kept for them, stay).
    fn set_aside_quiet_promotions(&mut self, pos: &Position) {
        let aside = &mut self.quiet_promotions;
        self.moves
            .retain(|mv| is_tactical(pos, *mv) || aside.try_push(*mv).is_err());
    }

    /// Takes the best-scored remaining move (selection: the lists are short).
    fn pick_best(&mut self) -> Option<Move> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let mv = self.moves[self.next];
        self.next += 1;
        Some(mv)
    }

    /// The quiet moves, scored by history, continuation history and threats, the best
    /// of them sorted to the front.
    fn generate_quiets(&mut self, pos: &Position, history: &History) {
        self.moves.clear();
        if !self.skip_quiets {
            pos.generate(GenType::Quiets, &mut self.moves);
            drop_needless_non_promotions(pos, &mut self.moves);
            self.moves.extend(self.quiet_promotions.drain(..));
        }
        let side = pos.side_to_move();
        let threats = Threats::of(pos);
        let checks = self.checks.insert(pos.check_info());
        let low_ply_weight = if self.ply < LOW_PLY {
            params::low_ply_weight()
        } else {
            0
        };
        let tables = history.quiet_tables(side, self.continuation, self.pawn_index, self.ply);
        self.scores.clear();
        for &mv in self.moves.iter() {
            // The killers and the counter move (handed out already, and
            // skipped below) still rank first, so the sort leaves the others in
            // the order they had when they were handed out with the quiets.
            let special = if Some(mv) == self.killers[0] {
                FIRST_KILLER_RANK
            } else if Some(mv) == self.killers[1] {
                SECOND_KILLER_RANK
            } else if Some(mv) == self.counter {
                COUNTER_MOVE_RANK
            } else {
                0
            };
            let piece = pos.moved_piece_after(mv);
            self.scores.push(
                special
                    + params::order_main_weight() * tables.quiet(mv)
                    + tables.continuation(piece, mv)
                    + params::pawn_history() * tables.pawn(piece, mv)
                    + threats.score(pos, checks, mv, piece.kind())
                    + if low_ply_weight != 0 {
                        low_ply_weight * tables.low_ply(mv) / (1 + self.ply as i32)
                    } else {
                        0
                    },
            );
        }
        // Lower at deeper nodes, where ordering pays more.
        order_above_floor(&mut self.moves, &mut self.scores, self.sort_floor);
    }

    /// Every evasion: captures by the victim's value, the others by history.
    fn generate_evasions(&mut self, pos: &Position, history: &History) {
        self.moves.clear();
        pos.generate(GenType::Evasions, &mut self.moves);
        drop_needless_non_promotions(pos, &mut self.moves);
        let side = pos.side_to_move();
        self.scores.clear();
        for &mv in self.moves.iter() {
            self.scores.push(match pos.piece_at(mv.to()) {
                Some(p) => CAPTURE_EVASION_RANK | (value(p.kind()) * VICTIM_WEIGHT),
                None => {
                    history.quiet(side, mv)
                        + if params::evasion_continuation() != 0 {
                            let last = [self.continuation[0], None, None, None, None];
                            history.continuation(last, pos.moved_piece_after(mv), mv)
                        } else {
                            0
                        }
                }
            });
        }
    }

    /// Whether `mv` (legal in `pos`, this picker's node) gives check: from the node's
    /// checks once the quiet moves have been scored with them, until then (a node that
    /// cuts off early) from the position alone, which is cheaper for a move or two.
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        match &self.checks {
            Some(checks) => checks.gives_check(pos, mv),
            None => pos.gives_check(mv),
        }
    }

    /// The next move to search, or `None` when all have been handed out.
    pub fn next(&mut self, pos: &Position, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove | Stage::EvasionTtMove | Stage::QuiescenceTtMove => {
                    self.stage = match self.stage {
                        Stage::TtMove => Stage::GenerateCaptures,
                        Stage::EvasionTtMove => Stage::GenerateEvasions,
                        _ => Stage::GenerateQuiescence,
                    };
                    return self.tt_move;
                }
                Stage::GenerateCaptures | Stage::GenerateQuiescence => {
                    self.moves.clear();
                    pos.generate(GenType::Captures, &mut self.moves);
                    drop_needless_non_promotions(pos, &mut self.moves);
                    if self.stage == Stage::GenerateCaptures && params::quiet_promotions() != 0 {
                        self.set_aside_quiet_promotions(pos);
                    }
                    self.score_captures(pos, history);
                    self.next = 0;
                    self.stage = if self.stage == Stage::GenerateCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QuiescenceCaptures
                    };
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(mv) if Some(mv) == self.tt_move => {}
                    Some(mv) => {
                        // A capture may lose a little of what its score promises and
                        // still come before the quiets.
                        let divisor = params::good_capture_divisor();
                        let threshold = if divisor == 0 {
                            0
                        } else {
                            -self.scores[self.next - 1] / divisor
                        };
                        if see_ge(pos, mv, threshold) {
                            return Some(mv);
                        }
                        self.bad.push(mv);
                    }
                    None => self.stage = Stage::Refutations,
                },
                Stage::Refutations => {
                    if self.skip_quiets || self.refutation_next >= 3 {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let candidate = match self.refutation_next {
                        0 => self.killers[0],
                        1 => self.killers[1],
                        _ => self.counter,
                    };
                    self.refutation_next += 1;
                    // Only a legal quiet move (as the quiet generator would make it) that
                    // is neither the table move nor one already tried.
                    if let Some(mv) = candidate {
                        if Some(mv) != self.tt_move
                            && !self.refutations.contains(&mv)
                            && !is_tactical(pos, mv)
                            && pos.is_legal(mv)
                        {
                            self.refutations.push(mv);
                            return Some(mv);
                        }
                    }
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(pos, history);
                    self.next = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets || self.next >= self.moves.len() {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let mv = self.moves[self.next];
                    self.next += 1;
                    if Some(mv) != self.tt_move && !self.refutations.contains(&mv) {
                        return Some(mv);
                    }
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    self.generate_evasions(pos, history);
                    self.next = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions | Stage::QuiescenceCaptures => match self.pick_best() {
                    Some(mv) if Some(mv) == self.tt_move => {}
                    Some(mv) => return Some(mv),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

/// Puts the moves scoring above `floor` first, best first and equal scores in their
/// order in the list; the rest follow unsorted, in the order an in-place partition leaves
/// them (each move above the floor trades places with the first one below it). Sorting
/// every quiet move cost a quarter of the search's time, and sorting the ones above the
/// floor by insertion still a tenth of its instructions.
fn order_above_floor(moves: &mut [Move], scores: &mut [i32], floor: i32) {
    let mut sorted = 0;
    for i in 0..moves.len() {
        if scores[i] > floor {
            moves.swap(i, sorted);
            scores.swap(i, sorted);
            sorted += 1;
        }
    }
    // One key a move: the score descending, then the place in the list, so that an
    // unstable sort (which needs no allocation) gives the stable order; the move itself
    // rides in the low bits, so the sorted keys are written back without a copy of the
    // list.
    let mut keys: ArrayVec<u64, MAX_MOVES> = ArrayVec::new();
    for (j, (&score, &mv)) in scores[..sorted].iter().zip(&moves[..sorted]).enumerate() {
        let rank = (i64::from(i32::MAX) - i64::from(score)) as u64;
        keys.push(rank << 32 | (j as u64) << 16 | u64::from(mv.raw()));
    }
    keys.sort_unstable();
    for (t, &key) in keys.iter().enumerate() {
        moves[t] = Move::from_raw_trusted(key as u16);
        scores[t] = (i64::from(i32::MAX) - (key >> 32) as i64) as i32;
    }
}

/// The squares where the opponent's cheaper pieces attack: what makes a quiet move an
/// escape, or a blunder, before any search (computed once for a node's quiet moves).
struct Threats {
    /// By [`THREAT_CLASS`]: nothing (for a pawn), the squares a pawn attacks (for the
    /// other pieces worth less than a bishop), the squares any stepping piece attacks
    /// (pawn to gold mover, a horse's or dragon's step: for a bishop, rook, horse or
    /// dragon).
    by_class: [Bitboard; 3],
}

/// Which of [`Threats::by_class`] threatens a piece of each kind (by discriminant).
const THREAT_CLASS: [u8; 15] = {
    let mut class = [0; 15];
    let mut k = 1;
    while k < 15 {
        class[k] = if PIECE_VALUES[k] >= BIG_PIECE_VALUE {
            2
        } else if k != PieceKind::Pawn as usize {
            1
        } else {
            0
        };
        k += 1;
    }
    class
};

impl Threats {
    fn of(pos: &Position) -> Threats {
        let them = !pos.side_to_move();
        let pawns = pos.pieces_of(them, PieceKind::Pawn);
        Threats {
            by_class: [Bitboard::EMPTY, pawns.forward(them), pos.step_attacks(them)],
        }
    }

    /// The ordering bonus of the quiet move `mv` of a piece of `kind` (quiet moves do
    /// not promote, but for the promotions `quiet_promotions` counts as quiet, whose
    /// `kind` is the promoted one): escapes and checks up, moves into cheaper attackers
    /// down.
    #[inline(always)]
    fn score(&self, pos: &Position, checks: &CheckInfo, mv: Move, kind: PieceKind) -> i32 {
        let threats = self.by_class[usize::from(THREAT_CLASS[kind as usize])];
        let mut score = 0;
        if mv.from().is_some_and(|from| threats.has(from)) {
            score += ESCAPE_BONUS;
        }
        if threats.has(mv.to()) {
            score -= ESCAPE_BONUS;
        }
        if checks.gives_check_as(kind, mv) && see_ge(pos, mv, 0) {
            score += CHECK_BONUS;
        }
        score
    }
}

/// The kind of the piece that `mv` promotes without capturing anything (None for any
/// other move): the promotions YaneuraOu counts as quiet moves unless a pawn makes it.
pub fn quiet_promotion_kind(pos: &Position, mv: Move) -> Option<PieceKind> {
    if !mv.is_promotion() || pos.piece_at(mv.to()).is_some() {
        return None;
    }
    Some(pos.piece_at(mv.from()?)?.kind())
}

/// Whether the main search treats `mv` as tactical (ordered by its gain with the
/// captures, pruned by exchange, rewarded in the capture history) rather than as a
/// quiet move: every capture, and the promotions that `quiet_promotions` does not count
/// as quiet.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    if !pos.is_tactical(mv) {
        return false;
    }
    match params::quiet_promotions() {
        0 => true,
        level => match quiet_promotion_kind(pos, mv) {
            None | Some(PieceKind::Pawn) => true,
            Some(PieceKind::Silver | PieceKind::Knight | PieceKind::Lance) => false,
            Some(_) => level < 2,
        },
    }
}

/// The promotion zone of each side (its three farthest ranks), and each side's
/// second-farthest rank, where a lance that does not promote can still move one step.
const ZONE: [Bitboard; 2] = [
    Bitboard::far_ranks(Color::Black, 3),
    Bitboard::far_ranks(Color::White, 3),
];
const SECOND_RANK: [Bitboard; 2] = [Bitboard::rank(1), Bitboard::rank(7)];

/// A legal move that `skip_non_promotions` leaves out: a pawn's, bishop's or rook's that
/// could promote and does not, or a lance's to its second-farthest rank unpromoted. Its
/// promotion is always legal beside it and never worse.
#[inline]
pub fn is_needless_non_promotion(pos: &Position, mv: Move) -> bool {
    if mv.is_promotion() {
        return false;
    }
    let Some(from) = mv.from() else {
        return false;
    };
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let side = piece.color().index();
    match piece.kind() {
        PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook => {
            ZONE[side].has(mv.to()) || ZONE[side].has(from)
        }
        PieceKind::Lance => SECOND_RANK[side].has(mv.to()),
        _ => false,
    }
}

/// Drops from `moves` the ones [`is_needless_non_promotion`] names, when
/// `skip_non_promotions` says so.
pub fn drop_needless_non_promotions(pos: &Position, moves: &mut MoveList) {
    if params::skip_non_promotions() != 0 {
        moves.retain(|mv| !is_needless_non_promotion(pos, *mv));
    }
}

/// The piece and move the opponent just played, for counter moves.
pub fn previous_move(pos: &Position) -> Option<(Piece, Move)> {
    let mv = pos.last_move()?;
    Some((pos.piece_at(mv.to())?, mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::continuation_row;

    /// Every move the picker of a main-search node at `ply` hands out, in order.
    fn picked(pos: &Position, history: &History, rows: ContinuationRows, ply: usize) -> Vec<Move> {
        let mut picker = MovePicker::new(pos, None, [None; 2], None, (rows, None), 8, ply);
        std::iter::from_fn(|| picker.next(pos, history)).collect()
    }

    fn position(sfen: &str) -> Position {
        crate::attacks::init();
        sfen.parse().expect("a valid SFEN")
    }

    #[test]
    fn moves_above_the_floor_are_sorted_stably_and_the_rest_partitioned() {
        let pos = position(crate::position::STARTPOS_SFEN);
        let all = pos.legal_moves();
        let mut rng = crate::rng::Rng::from_state(0x5eed_00f1);
        for _ in 0..200 {
            let n = 1 + rng.below(all.len() as u64) as usize;
            let mut moves: Vec<Move> = all[..n].to_vec();
            // Few distinct scores, so that ties are common; the extremes included.
            let mut scores: Vec<i32> = (0..n)
                .map(|_| match rng.below(8) {
                    0 => i32::MAX,
                    1 => i32::MIN,
                    k => (k as i32 - 4) * 1000,
                })
                .collect();
            let floor = (rng.below(5) as i32 - 2) * 1000;
            // The reference: a stable sort of the moves above the floor, and the
            // partition's order for the others, worked out one swap at a time.
            let mut above: Vec<(i32, Move)> = Vec::new();
            let mut below: std::collections::VecDeque<(i32, Move)> = Default::default();
            for (&m, &s) in moves.iter().zip(&scores) {
                if s > floor {
                    above.push((s, m));
                    if let Some(first) = below.pop_front() {
                        below.push_back(first);
                    }
                } else {
                    below.push_back((s, m));
                }
            }
            above.sort_by_key(|a| std::cmp::Reverse(a.0));
            let expected: Vec<(i32, Move)> = above.into_iter().chain(below).collect();
            order_above_floor(&mut moves, &mut scores, floor);
            let got: Vec<(i32, Move)> = scores.into_iter().zip(moves).collect();
            assert_eq!(got, expected, "floor {floor}");
        }
    }

    #[test]
    fn the_pickers_check_answers_agree_with_the_positions_before_and_after_the_quiets() {
        // Black has checks by drops, by board moves and by uncovering the rook.
        let pos = position("4k4/9/4S4/9/4R4/9/9/9/4K4 b GN 1");
        let history = History::default();
        let mut picker = MovePicker::new(&pos, None, [None; 2], None, ([None; 5], None), 8, 3);
        let mut checks = 0;
        while let Some(mv) = picker.next(&pos, &history) {
            assert_eq!(picker.gives_check(&pos, mv), pos.gives_check(mv), "{mv}");
            checks += usize::from(pos.gives_check(mv));
        }
        assert!(picker.checks.is_some(), "the quiets were scored");
        for &mv in pos.legal_moves().iter() {
            assert_eq!(picker.gives_check(&pos, mv), pos.gives_check(mv), "{mv}");
        }
        assert!(checks >= 5, "{checks} checks");
    }

    #[test]
    fn a_capture_that_loses_a_little_comes_before_the_quiets_and_a_bad_one_after() {
        // The gold takes a silver that a pawn defends: it wins 495 and loses 540, which
        // is within the silver's ordering score over `good_capture_divisor`.
        let pos = position("8k/9/4p4/4s4/4G4/9/9/9/4K4 b - 1");
        let capture = pos.parse_move("5e5d").unwrap();
        let moves = picked(&pos, &History::default(), [None; 5], 3);
        assert_eq!(
            moves.len(),
            pos.legal_moves().len(),
            "every legal move once"
        );
        assert_eq!(moves[0], capture, "{moves:?}");
        // A rook taking it loses 495 more: last, behind every quiet move.
        let pos = position("8k/9/4p4/4s4/4R4/9/9/9/4K4 b - 1");
        let capture = pos.parse_move("5e5d").unwrap();
        let moves = picked(&pos, &History::default(), [None; 5], 3);
        assert_eq!(moves.last(), Some(&capture), "{moves:?}");
    }

    #[test]
    fn promotions_that_capture_nothing_wait_with_the_quiets_as_quiet_promotions_says() {
        // A silver and a rook can each promote without capturing; the king's quiet
        // move 5i4h has the best history of all.
        let pos = position("4k4/9/9/6S2/R8/9/9/9/4K4 b - 1");
        let mut history = History::default();
        let side = pos.side_to_move();
        let favourite = pos.parse_move("5i4h").unwrap();
        history.update_quiet(side, favourite, 8000);
        let moves = picked(&pos, &history, [None; 5], 3);
        assert_eq!(
            moves.len(),
            pos.legal_moves().len(),
            "every legal move once"
        );
        let at = |text: &str| {
            let mv = pos.parse_move(text).unwrap();
            moves.iter().position(|&m| m == mv).unwrap()
        };
        let favourite_at = at("5i4h");
        let level = params::quiet_promotions();
        for (text, minor) in [
            ("3d3c+", true),
            ("3d2c+", true),
            ("9e9c+", false),
            ("9e9a+", false),
        ] {
            let quiet = if minor { level >= 1 } else { level >= 2 };
            let mv = pos.parse_move(text).unwrap();
            assert_eq!(is_tactical(&pos, mv), !quiet, "{text} at level {level}");
            // A tactical promotion comes before every quiet move, a quiet one after the
            // quiet move with the better history.
            assert_eq!(
                at(text) > favourite_at,
                quiet,
                "{text} at level {level}: {moves:?}"
            );
        }
        // A capture is tactical at every level; a quiet move never is.
        let capture = position("4k4/9/6p2/6S2/9/9/9/9/4K4 b - 1");
        assert!(is_tactical(&capture, capture.parse_move("3d3c+").unwrap()));
        assert!(is_tactical(&capture, capture.parse_move("3d3c").unwrap()));
        assert!(!is_tactical(&pos, favourite));
    }

    #[test]
    fn needless_non_promotions_are_the_pawns_bishops_rooks_and_second_rank_lances() {
        // Black: a pawn, lance, knight, silver, bishop and rook that can enter the zone;
        // White the same, mirrored, to move in the second position.
        let black = position("4k4/9/9/L1SP1B2R/1N7/9/9/9/4K4 b - 1");
        let white = position("4k4/9/9/9/7n1/r2b1ps1l/9/9/4K4 w - 1");
        for (pos, needless, needed) in [
            (
                &black,
                &["6d6c", "4d2b", "4d3c", "1d1c", "1d1a", "9d9b"][..],
                &["9d9c", "8e7c", "7d7c", "6d6c+", "4d3c+", "1d1c+"][..],
            ),
            (
                &white,
                &["4f4g", "6f8h", "6f7g", "9f9g", "9f9i", "1f1h"][..],
                &["1f1g", "2e3g", "3f3g", "4f4g+", "6f7g+", "9f9g+"][..],
            ),
        ] {
            for text in needless {
                let mv = pos.parse_move(text).unwrap();
                assert!(is_needless_non_promotion(pos, mv), "{text}");
            }
            for text in needed {
                let mv = pos.parse_move(text).unwrap();
                assert!(!is_needless_non_promotion(pos, mv), "{text}");
            }
            // Each one left out has its promotion, legal, beside it.
            for &mv in pos.legal_moves().iter() {
                if is_needless_non_promotion(pos, mv) {
                    let promoted = Move::new(mv.from().unwrap(), mv.to(), true);
                    assert!(pos.legal_moves().contains(&promoted), "{mv}");
                }
            }
        }
    }

    #[test]
    fn the_low_ply_history_orders_quiets_near_the_root_only() {
        let pos = position("8k/9/9/9/9/9/9/9/4K4 b G 1");
        let history_of = |mv: Move, ply: usize| {
            let mut h = History::default();
            h.update_low_ply(ply, mv, 8000);
            h
        };
        let unmarked = picked(&pos, &History::default(), [None; 5], 1);
        let late = *unmarked.last().unwrap();
        assert_ne!(unmarked[0], late);
        // Marked at the node's own ply, the last move comes first...
        assert_eq!(picked(&pos, &history_of(late, 1), [None; 5], 1)[0], late);
        // ...marked at another ply, or beyond the low plies, it does not move.
        assert_eq!(picked(&pos, &history_of(late, 2), [None; 5], 1), unmarked);
        let deep = LOW_PLY + 3;
        let unmarked_deep = picked(&pos, &History::default(), [None; 5], deep);
        assert_eq!(
            picked(&pos, &history_of(late, deep), [None; 5], deep),
            unmarked_deep
        );
        // A new search forgets it.
        let mut h = history_of(late, 1);
        h.clear_low_ply();
        assert_eq!(picked(&pos, &h, [None; 5], 1), unmarked);
    }

    #[test]
    fn quiet_evasions_follow_the_continuation_history_of_the_checking_move() {
        // A rook checks the king down the file; the king steps aside or the gold in
        // hand interposes.
        let mut pos = position("8k/9/9/9/5r3/9/9/9/4K4 w G 1");
        let check = pos.parse_move("4e5e").unwrap();
        pos.play(check);
        assert!(pos.in_check());
        let rows = [
            continuation_row(super::previous_move(&pos)),
            None,
            None,
            None,
            None,
        ];
        let unmarked = picked(&pos, &History::default(), rows, 1);
        let late = *unmarked.last().unwrap();
        assert!(pos.piece_at(late.to()).is_none(), "a quiet evasion is last");
        let mut h = History::default();
        h.update_continuation(rows, pos.moved_piece_after(late), late, 8000);
        let marked = picked(&pos, &h, rows, 1);
        // Behind the captures of the checker only.
        let captures = marked
            .iter()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .count();
        assert_eq!(marked[captures], late, "{marked:?}");
    }
}
