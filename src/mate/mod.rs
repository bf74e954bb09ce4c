//! The mate solver: answers "is there a forced mate, and how?" for `go mate` and
//! `hayate mate`.
//!
//! The attacker (the side to move) must give check at every move; the defender may play
//! any legal move, interposing drops included; a pawn drop that mates is illegal. The
//! search is df-pn ([`dfpn`]) over a bounded proof table ([`table`]), with the path's
//! positions for the repetition rule in `path`; the line reported is
//! read from the proof ([`pv`]) and checked move by move before it is returned.
//!
//! Positions without an attacking king (the usual tsume setup, with the remaining pieces
//! in the defender's hand) need nothing special.

pub mod checks;
pub mod cli;
pub mod delay;
pub mod dfpn;
pub mod disproof;
pub mod estimate;
mod first_look;
pub mod interposition;
pub mod one;
mod path;
pub mod pv;
mod shorter;
pub mod table;

use crate::position::Position;
use crate::types::Move;
use dfpn::{Dfpn, NO_LIMIT};
pub use pv::{is_mating_line, tsume_length};
use shorter::{shorten, Shortest};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
pub use table::Table;

/// Default size of the proof table in MiB (the `MateHash` option).
pub const DEFAULT_HASH_MIB: usize = 256;

/// The stack a thread that runs the solver needs: the search recurses once a ply, and
/// lines go to [`dfpn::MAX_PLY`] plies (Microcosmos's first mate is 1,585 plies deep,
/// more than a 2 MiB thread holds).
pub const STACK_BYTES: usize = 256 << 20;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A forced mate; the moves alternate attacker, defender, ..., attacker.
    Mate(Vec<Move>),
    /// Proved: no forced mate exists.
    NoMate,
    /// Neither, within the limits (or no proof either way could be completed).
    Unknown,
}

/// Limits of one solve. With neither, the solver runs until it decides or is stopped.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// After the first mate, spend a while looking for shorter ones (`go mate` does; the
    /// game search, which only needs a mate, does not).
    pub shortest: bool,
    /// How long that may take, within `time`; by default [`SHORTER_TIME_FACTOR`] times
    /// what the first proof took, plus [`SHORTER_TIME_EXTRA`].
    pub shorter_time: Option<Duration>,
}

/// The search for shorter mates gets this many times the first proof's time by default:
/// showing that no shorter mate exists can cost far more than finding the first.
pub const SHORTER_TIME_FACTOR: u32 = 4;

/// ... and this much more, so that a quick first proof still leaves time to shorten it.
pub const SHORTER_TIME_EXTRA: Duration = Duration::from_millis(100);

/// The answer with its cost.
#[derive(Clone, Debug)]
pub struct Report {
    pub outcome: Outcome,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    /// A repetition made the search fail somewhere on the way to `Unknown`.
    pub repetition_doubt: bool,
    /// The mate is shown to be a shortest one (no mate two plies shorter exists).
    pub shortest: bool,
    /// With a mate: the length the proof guarantees (by the tsume count, futile
    /// interpositions two plies less), exact when `shortest`. The line shown may be
    /// shorter when a reply in it is not the defender's longest resistance, and longer
    /// when it plays futile interpositions out to a position without a legal move.
    pub plies: Option<u16>,
    /// When the first mate was proved (the rest of the time went to shorter ones).
    pub first_mate: Option<Duration>,
    /// When the mate reported (`plies` long) was proved: the first mate's time unless a
    /// shorter one was found after it.
    pub final_mate: Option<Duration>,
}

impl Report {
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }

    /// The totals in the form progress is reported in.
    pub fn progress(&self) -> Progress {
        Progress {
            nodes: self.nodes,
            elapsed: self.elapsed,
            hashfull: self.hashfull,
            plies: self.plies,
        }
    }
}

/// Progress while solving: nodes searched, time spent, table occupancy (permille) and
/// the length of the shortest mate proved so far.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub plies: Option<u16>,
}

impl Progress {
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

/// Nodes per second (a time under a millisecond counts as one).
pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64
}

/// Searches `pos` for a mate by its side to move, using `table` (not cleared here: a
/// table from an earlier solve stays valid, its entries are facts about positions).
/// `stop` ends the search early; `progress` is called about once a second.
pub fn solve(
    pos: &Position,
    table: &mut Table,
    limits: Limits,
    stop: &AtomicBool,
    mut progress: impl FnMut(Progress),
) -> Report {
    let start = Instant::now();
    // The proof gets most of the time; reading the line may need to re-prove a little.
    let proof_deadline = limits.time.map(|t| start + t.mul_f64(0.9));
    let deadline = limits.time.map(|t| start + t);
    let mut last_report = start;
    // The shortest mate proved so far, set by the search for shorter ones.
    let best_plies = Cell::new(None);
    let mut report_progress = |nodes: u64, table: &Table| {
        let now = Instant::now();
        if now - last_report >= Duration::from_secs(1) {
            last_report = now;
            progress(Progress {
                nodes,
                elapsed: now - start,
                hashfull: table.hashfull(),
                plies: best_plies.get(),
            });
        }
    };
    let mut root = pos.clone();
    root.clear_history();
    let mut search = Dfpn::new(root, table, stop, &mut report_progress);
    // A failure that rests on a repetition seen from another path is searched again
    // without reusing such failures, which makes the answer exact.
    let (known, exact) = search.solve_exact(NO_LIMIT, limits.nodes, proof_deadline);
    let mut repetition_doubt = false;
    let mut shortest = false;
    let mut first_mate = None;
    let mut final_mate = None;
    let mut plies = None;
    let outcome = if known.is_proved() {
        first_mate = Some(start.elapsed());
        final_mate = first_mate;
        plies = Some(known.len);
        best_plies.set(plies);
        match pv::principal_variation(&mut search, NO_LIMIT, deadline) {
            Some(line) if !is_mating_line(pos, &line) => Outcome::Unknown,
            Some(line) if !limits.shortest => Outcome::Mate(line),
            Some(line) => {
                let first_proof = start.elapsed();
                let budget = limits
                    .shorter_time
                    .unwrap_or(first_proof * SHORTER_TIME_FACTOR + SHORTER_TIME_EXTRA);
                let shorten_deadline = match proof_deadline {
                    Some(d) => d.min(Instant::now() + budget),
                    None => Instant::now() + budget,
                };
                let shorter = shorten(
                    &mut search,
                    pos,
                    Shortest {
                        line,
                        bound: known.len,
                        proved: false,
                        found_at: None,
                    },
                    limits.nodes,
                    shorten_deadline,
                    deadline,
                    &best_plies,
                );
                shortest = shorter.proved;
                plies = Some(shorter.bound);
                if let Some(at) = shorter.found_at {
                    final_mate = Some(at - start);
                }
                let line = shorter.line;
                Outcome::Mate(line)
            }
            None => Outcome::Unknown,
        }
    } else if known.is_disproved() && exact && !search.hit_max_ply {
        Outcome::NoMate
    } else {
        repetition_doubt = known.is_disproved();
        Outcome::Unknown
    };
    let nodes = search.nodes;
    Report {
        outcome,
        nodes,
        elapsed: start.elapsed(),
        hashfull: table.hashfull(),
        repetition_doubt,
        shortest,
        plies,
        first_mate,
        final_mate,
    }
}

/// The mate's length as `go mate` and `hayate mate` state it: the length proved, whether
/// it is shown shortest, and the line's own length when the line is shorter (a defence in
/// it is not the longest).
pub fn length_text(report: &Report, line: &[Move]) -> String {
    let plies = report.plies.map_or(line.len(), |p| p as usize);
    let mut text = format!(
        "mate in {plies} plies{}",
        if report.shortest {
            " (shortest)"
        } else {
            " (a shorter one may exist)"
        }
    );
    if line.len() < plies {
        text.push_str(&format!(
            "; the line shown ends in {} plies (not every defence in it is the longest)",
            line.len()
        ));
    } else if line.len() > plies {
        text.push_str(&format!(
            "; the line shown plays futile interpositions out to the mate in {} plies",
            line.len()
        ));
    }
    text
}
