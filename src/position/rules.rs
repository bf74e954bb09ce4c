//! Game-ending rules beyond checkmate: sennichite (repetition, with perpetual check) and
//! the entering-king declaration in its usual variants.

use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};
use std::fmt;
use std::str::FromStr;

/// What a repetition means for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The same position (board, hands, side) repeats with neither side checking throughout.
    Draw,
    /// The opponent gave check with every move of the cycle: the side to move wins.
    Win,
    /// The side to move gave check with every move of the cycle: it loses.
    Loss,
    /// Same board and side, and the side to move holds strictly more in hand than before.
    Superior,
    /// Same board and side, and the side to move holds strictly less in hand than before.
    Inferior,
}

/// The entering-king rule in force (`EnteringKingRule` USI option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EnteringKingRule {
    /// No declaration is possible.
    NoEnteringKing,
    /// CSA 24-point rule: 31 points to declare, for either side.
    CsaRule24,
    /// 24-point rule with White's threshold lowered by the handicap pieces it gave.
    CsaRule24H,
    /// CSA 27-point rule: 28 points for Black, 27 for White.
    #[default]
    CsaRule27,
    /// 27-point rule with White's threshold lowered by the handicap pieces it gave.
    CsaRule27H,
    /// Try rule: a king that reaches the enemy king's starting square wins (played as a
    /// move, not declared).
    TryRule,
}

impl EnteringKingRule {
    /// The USI combo values, in the order `usi` lists them.
    pub const NAMES: [&'static str; 6] = [
        "NoEnteringKing",
        "CSARule24",
        "CSARule24H",
        "CSARule27",
        "CSARule27H",
        "TryRule",
    ];

    const ALL: [EnteringKingRule; 6] = [
        EnteringKingRule::NoEnteringKing,
        EnteringKingRule::CsaRule24,
        EnteringKingRule::CsaRule24H,
        EnteringKingRule::CsaRule27,
        EnteringKingRule::CsaRule27H,
        EnteringKingRule::TryRule,
    ];
}

impl FromStr for EnteringKingRule {
    type Err = String;
    /// Parses a USI combo value (case-insensitive).
    fn from_str(s: &str) -> Result<Self, String> {
        Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(s))
            .map(|i| Self::ALL[i])
            .ok_or_else(|| format!("unknown entering-king rule '{s}'"))
    }
}

impl fmt::Display for EnteringKingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = Self::ALL.iter().position(|r| r == self).unwrap_or(0);
        f.write_str(Self::NAMES[i])
    }
}

/// Declaration points of a piece kind: 5 for rook and bishop (promoted or not), else 1.
fn points(kind: PieceKind) -> u32 {
    match kind.unpromoted() {
        PieceKind::Rook | PieceKind::Bishop => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

/// Points of a full set of pieces without kings: 4 big pieces at 5, 34 others at 1.
const FULL_SET_POINTS: u32 = 54;

impl Position {
    /// Whether the move that led to history entry `i`'s successor gave check, i.e. whether
    /// the position after move `i` had its side to move in check.
    fn move_gave_check(&self, i: usize) -> bool {
        match self.history.get(i + 1) {
            Some(next) => next.checkers.is_nonempty(),
            None => self.checkers.is_nonempty(),
        }
    }

    /// The side that played history move `i`: the last move was the opponent's.
    fn mover_of(&self, i: usize) -> Color {
        if (self.history.len() - 1 - i).is_multiple_of(2) {
            !self.side
        } else {
            self.side
        }
    }

    /// Key of the position before history move `i`.
    fn key_before(&self, i: usize) -> u64 {
        self.history[i].board_key ^ self.history[i].hand_key
    }

    /// Who was checking throughout the moves from history index `start` to now: returns
    /// the repetition seen from the side to move.
    fn cycle_outcome(&self, start: usize) -> Repetition {
        let mut opponent_always = true;
        let mut us_always = true;
        for i in start..self.history.len() {
            let check = self.move_gave_check(i);
            if self.mover_of(i) != self.side {
                opponent_always &= check;
            } else {
                us_always &= check;
            }
        }
        if opponent_always {
            Repetition::Win
        } else if us_always {
            Repetition::Loss
        } else {
            Repetition::Draw
        }
    }

    /// The most recent earlier occurrence of this board with the same side to move, looked
    /// for among the last `max_plies` moves, and what it means. For the search, which treats
    /// a first repetition as final.
    pub fn repetition(&self, max_plies: usize) -> Option<Repetition> {
        let len = self.history.len();
        let key = self.key();
        let mut ply = 4;
        while ply <= len.min(max_plies) {
            let i = len - ply;
            let state = &self.history[i];
            if state.board_key == self.board_key {
                if self.key_before(i) == key {
                    return Some(self.cycle_outcome(i));
                }
                let before = self.hand_at(i, self.side);
                let now = self.hands[self.side.index()];
                if now.is_superset_of(before) {
                    return Some(Repetition::Superior);
                }
                if before.is_superset_of(now) {
                    return Some(Repetition::Inferior);
                }
            }
            ply += 2;
        }
        None
    }

    /// `color`'s hand before history move `i`, rebuilt by walking back from now.
    fn hand_at(&self, i: usize, color: Color) -> crate::types::Hand {
        let mut hand = self.hands[color.index()];
        for j in (i..self.history.len()).rev() {
            if self.mover_of(j) != color {
                continue;
            }
            let state = &self.history[j];
            match state.mv.drop_kind() {
                Some(kind) => hand.add(kind),
                None => {
                    if let Some(captured) = state.captured {
                        hand.remove(captured.kind().unpromoted());
                    }
                }
            }
        }
        hand
    }

    /// Sennichite as a game result: `Some` when the current position (board, hands, side)
    /// has now occurred four times in the game, with who wins if one side checked with every
    /// move since the first of the four.
    pub fn sennichite(&self) -> Option<Repetition> {
        let len = self.history.len();
        let key = self.key();
        let mut seen = 1;
        let mut first = None;
        let mut ply = 2;
        while ply <= len {
            let i = len - ply;
            if self.key_before(i) == key {
                seen += 1;
                first = Some(i);
                if seen == 4 {
                    break;
                }
            }
            ply += 2;
        }
        (seen >= 4).then(|| self.cycle_outcome(first.expect("an earlier occurrence")))
    }

    /// Whether the side to move may declare a win (`bestmove win`) under `rule`. The try
    /// rule is won by a move instead: see [`Position::try_rule_move`].
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        let us = self.side;
        let (base, handicap_adjusted) = match rule {
            EnteringKingRule::NoEnteringKing | EnteringKingRule::TryRule => return false,
            EnteringKingRule::CsaRule24 => ([31, 31], false),
            EnteringKingRule::CsaRule24H => ([31, 31], true),
            EnteringKingRule::CsaRule27 => ([28, 27], false),
            EnteringKingRule::CsaRule27H => ([28, 27], true),
        };
        let Some(ksq) = self.king[us.index()] else {
            return false;
        };
        // Asked at every node: the king's rank alone settles nearly all of them.
        if !ksq.in_zone(us) || self.in_check() {
            return false;
        }
        let camp = Bitboard::far_ranks(us, 3);
        let ours_in_camp = self.pieces(us) & camp & !Bitboard::from_square(ksq);
        if ours_in_camp.count() < 10 {
            return false;
        }
        let mut score: u32 = ours_in_camp
            .map(|sq| points(self.board[sq.index()].expect("piece").kind()))
            .sum();
        let hand = self.hands[us.index()];
        score += PieceKind::HAND
            .iter()
            .map(|&k| hand.count(k) * points(k))
            .sum::<u32>();
        let mut needed: u32 = base[us.index()];
        if handicap_adjusted && us == Color::White {
            needed = needed.saturating_sub(FULL_SET_POINTS.saturating_sub(self.total_points()));
        }
        score >= needed
    }

    /// Points of every piece on the board and in both hands (kings excluded).
    fn total_points(&self) -> u32 {
        let board: u32 = self
            .occupied()
            .map(|sq| points(self.board[sq.index()].expect("piece").kind()))
            .sum();
        let hands: u32 = Color::ALL
            .iter()
            .flat_map(|&c| {
                PieceKind::HAND
                    .iter()
                    .map(move |&k| self.hands[c.index()].count(k) * points(k))
            })
            .sum();
        board + hands
    }

    /// Under the try rule: the legal king move to the enemy king's starting square (5a for
    /// Black, 5i for White), if there is one. Playing it wins.
    pub fn try_rule_move(&self) -> Option<Move> {
        let us = self.side;
        let ksq = self.king[us.index()]?;
        let target = match us {
            Color::Black => Square::from_usi("5a")?,
            Color::White => Square::from_usi("5i")?,
        };
        if !attacks::king(ksq).has(target) {
            return None;
        }
        let mv = Move::new(ksq, target, false);
        self.is_legal(mv).then_some(mv)
    }
}
