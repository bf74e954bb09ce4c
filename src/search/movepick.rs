//! The staged move picker: hands the search its moves best-first, generating each group
//! only when the ones before it failed to cut off.
//!
//! Order: the transposition-table move; captures and promotions that do not lose
//! material (by static exchange), most valuable victim first; the two killer moves; the
//! counter move; the other quiet moves by history; last the losing captures. In check,
//! the evasions come after the table move, captures first. Every move handed out is legal:
//! the generators are legal, and the table, killer and counter moves are checked first.

use super::history::History;
use super::see::{see_ge, value};
use crate::position::{GenType, Position};
use crate::types::{Move, MoveList, Piece, MAX_MOVES};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
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

/// Whether a move is a capture or a promotion (the `Captures` generator's moves).
#[inline(always)]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.is_promotion() || pos.piece_at(mv.to()).is_some()
}

pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
    /// Losing captures, kept for the end.
    bad: MoveList,
    bad_next: usize,
    /// Set by the search once late quiet moves are pruned.
    pub skip_quiets: bool,
}

impl MovePicker {
    /// Picker for a main-search node.
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> MovePicker {
        let in_check = pos.in_check();
        let stage = if in_check {
            Stage::EvasionTtMove
        } else {
            Stage::TtMove
        };
        Self::with_stage(pos, stage, tt_move, killers, counter)
    }

    /// Picker for the quiescence search: captures and promotions only, or every evasion
    /// when in check.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        if pos.in_check() {
            return Self::with_stage(pos, Stage::EvasionTtMove, tt_move, [None; 2], None);
        }
        let tt_move = tt_move.filter(|&m| is_tactical(pos, m));
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
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            skip_quiets: false,
        }
    }

    fn score_captures(&mut self, pos: &Position, history: &History) {
        for (i, &mv) in self.moves.iter().enumerate() {
            let victim = pos.piece_at(mv.to()).map_or(0, |p| value(p.kind()));
            let promotion = if mv.is_promotion() {
                let k = pos.moved_piece_after(mv).kind();
                value(k) - value(k.unpromoted())
            } else {
                0
            };
            self.scores[i] = (victim + promotion) * 16 + history.capture(pos, mv);
        }
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

    fn is_special(&self, mv: Move) -> bool {
        Some(mv) == self.tt_move
            || Some(mv) == self.killers[0]
            || Some(mv) == self.killers[1]
            || Some(mv) == self.counter
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
                        if see_ge(pos, mv, 0) {
                            return Some(mv);
                        }
                        self.bad.push(mv);
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let candidate = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self
                            .counter
                            .filter(|&c| Some(c) != self.killers[0] && Some(c) != self.killers[1]),
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenerateQuiets,
                    };
                    if let Some(mv) = candidate {
                        if !self.skip_quiets
                            && Some(mv) != self.tt_move
                            && !is_tactical(pos, mv)
                            && pos.is_legal(mv)
                        {
                            return Some(mv);
                        }
                    }
                }
                Stage::GenerateQuiets => {
                    self.moves.clear();
                    if !self.skip_quiets {
                        pos.generate(GenType::Quiets, &mut self.moves);
                    }
                    let side = pos.side_to_move();
                    for (i, &mv) in self.moves.iter().enumerate() {
                        self.scores[i] = history.quiet(side, mv);
                    }
                    // Insertion sort, best first.
                    for i in 1..self.moves.len() {
                        let (m, s) = (self.moves[i], self.scores[i]);
                        let mut j = i;
                        while j > 0 && self.scores[j - 1] < s {
                            self.moves[j] = self.moves[j - 1];
                            self.scores[j] = self.scores[j - 1];
                            j -= 1;
                        }
                        self.moves[j] = m;
                        self.scores[j] = s;
                    }
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
                    if !self.is_special(mv) {
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
                    self.moves.clear();
                    pos.generate(GenType::Evasions, &mut self.moves);
                    let side = pos.side_to_move();
                    for (i, &mv) in self.moves.iter().enumerate() {
                        self.scores[i] = match pos.piece_at(mv.to()) {
                            Some(p) => 1 << 20 | value(p.kind()) * 16,
                            None => history.quiet(side, mv),
                        };
                    }
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

/// The piece and move the opponent just played, for counter moves.
pub fn previous_move(pos: &Position) -> Option<(Piece, Move)> {
    let mv = pos.last_move()?;
    Some((pos.piece_at(mv.to())?, mv))
}
