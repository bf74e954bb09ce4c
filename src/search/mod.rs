//! The search: iterative deepening over a principal-variation alpha-beta search with a
//! quiescence search, run by one or more threads (see [`crate::threads`]).
//!
//! The search never writes to stdout. It reports through a callback with [`Event`]s, and
//! the USI layer turns those into text.

pub mod correction;
mod history;
mod movepick;
pub mod params;
pub mod root_mate;
pub mod score;
pub mod see;
pub mod shared;
mod worker;

pub use worker::Worker;

use crate::position::{EnteringKingRule, Position};
use crate::time::{Clock, TimeOptions};
use crate::types::Move;
use std::sync::Arc;

/// What to answer to `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Move(Move),
    /// No legal move: `bestmove resign`.
    Resign,
    /// The side to move can declare under the entering-king rule: `bestmove win`.
    Win,
}

/// The word `bestmove` carries: the move, `resign` or `win`.
impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Decision::Move(mv) => write!(f, "{mv}"),
            Decision::Resign => f.write_str("resign"),
            Decision::Win => f.write_str("win"),
        }
    }
}

/// What limits a search, from `go`.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Fixed time for this move (ms).
    pub movetime: Option<u64>,
    pub clock: Option<Clock>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: no time limit until `ponderhit`, and no answer before `stop`/`ponderhit`.
    pub ponder: bool,
    /// Number of principal variations to report (1 = normal).
    pub multipv: usize,
    /// When not empty, only these root moves are searched.
    pub searchmoves: Vec<Move>,
    /// When the `go` was read: the clock runs from then, so work done before the search
    /// starts (a table resized, a net loaded, a book probed) is paid from this move's
    /// time. `None`: from the start of the search.
    pub received: Option<std::time::Instant>,
}

/// Everything a search needs besides the position.
#[derive(Clone, Debug)]
pub struct Settings {
    pub limits: Limits,
    pub rule: EnteringKingRule,
    pub time: TimeOptions,
    /// `MaxMovesToDraw`: the game is drawn once the move number passes this (0 = never).
    pub max_moves_to_draw: u32,
    /// The static evaluation: the linear one or an NNUE net.
    pub eval: crate::eval::Evaluator,
}

impl Settings {
    /// A search to a fixed depth under the default rules (bench, tests, tools).
    pub fn fixed_depth(depth: i32) -> Settings {
        Settings {
            limits: Limits {
                depth: Some(depth),
                multipv: 1,
                ..Limits::default()
            },
            rule: EnteringKingRule::default(),
            time: TimeOptions::default(),
            max_moves_to_draw: 0,
            eval: crate::eval::Evaluator::default(),
        }
    }
}

/// Bound of a reported score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// One line of progress: a principal variation after an iteration (or a bound on it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub depth: i32,
    pub seldepth: i32,
    pub multipv: usize,
    /// Internal score (see [`score`]); mates are converted by [`score::to_usi`].
    pub score: i32,
    pub bound: ScoreBound,
    pub nodes: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// What the search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Progress(Progress),
    /// The search is over: the answer and the expected reply to ponder on.
    BestMove {
        decision: Decision,
        ponder: Option<Move>,
    },
}

/// The callback the search reports through.
pub type Reporter = Arc<dyn Fn(Event) + Send + Sync>;

/// The answer that needs no search: a declaration, the try-rule winning move, or
/// resignation when there is no legal move.
pub fn immediate_decision(pos: &Position, rule: EnteringKingRule) -> Option<Decision> {
    if pos.can_declare_win(rule) {
        return Some(Decision::Win);
    }
    if rule == EnteringKingRule::TryRule {
        if let Some(mv) = pos.try_rule_move() {
            return Some(Decision::Move(mv));
        }
    }
    if !pos.has_legal_move() {
        return Some(Decision::Resign);
    }
    None
}
