//! A short mate search (df-pn, [`crate::mate`]) at the root of a game search.
//!
//! The alpha-beta search finds mates within its depth; endgames with many pieces in hand
//! often hold longer forced mates made of checks only, which the proof-number search finds
//! in a few thousand nodes. When it proves one, the move is played at once and the mate
//! is reported as the score, without an alpha-beta search.

use super::{score, Progress, ScoreBound, Settings};
use crate::mate::{self, Limits, Outcome, Table};
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Nodes the root mate search may spend at most: some tens of milliseconds.
pub const NODES: u64 = 20_000;
/// Nodes per millisecond of the move's optimum time: a few percent of it.
const NODES_PER_MS: u64 = 20;
/// Its table (MiB): room for the nodes, and quick to make.
const TABLE_MIB: usize = 2;

/// Whether a search with these settings should try the root mate search first: game
/// moves and analysis, not fixed-depth or fixed-node searches (whose node counts must
/// stay the alpha-beta search's own), MultiPV or restricted root moves.
pub fn wanted(settings: &Settings) -> bool {
    let l = &settings.limits;
    l.depth.is_none() && l.nodes.is_none() && l.multipv <= 1 && l.searchmoves.is_empty()
}

/// A mating line for the side to move of `root`, if the short search proves one that
/// ends before `MaxMovesToDraw` would draw the game. Returns it with the progress line
/// that reports it. `optimum` is the move's normal thinking time, when there is a clock:
/// the node budget shrinks with it so fast games lose little time.
pub fn find(
    root: &Position,
    settings: &Settings,
    optimum: Option<Duration>,
    stop: &AtomicBool,
) -> Option<Progress> {
    let nodes = optimum.map_or(NODES, |t| {
        (t.as_millis() as u64 * NODES_PER_MS).clamp(1000, NODES)
    });
    let mut table = Table::try_new(TABLE_MIB).ok()?;
    let limits = Limits {
        time: None,
        nodes: Some(nodes),
        shortest: false,
        shorter_time: None,
    };
    let report = mate::solve(root, &mut table, limits, stop, |_| {});
    let Outcome::Mate(line) = report.outcome else {
        return None;
    };
    let max = settings.max_moves_to_draw;
    if max > 0 && root.ply() as usize + line.len() > max as usize {
        return None;
    }
    let plies = line.len() as i32;
    Some(Progress {
        depth: plies,
        seldepth: plies,
        multipv: 1,
        score: score::mate_in(plies),
        bound: ScoreBound::Exact,
        nodes: report.nodes,
        time_ms: report.elapsed.as_millis() as u64,
        hashfull: 0,
        pv: line,
    })
}

/// The move and ponder move of a reported mate.
pub fn moves(progress: &Progress) -> (Move, Option<Move>) {
    (progress.pv[0], progress.pv.get(1).copied())
}
