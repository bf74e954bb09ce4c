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
pub mod table;

use crate::position::Position;
use crate::types::Move;
use dfpn::{Dfpn, NO_LIMIT};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
pub use table::Table;

/// Default size of the proof table in MiB (the `MateHash` option).
pub const DEFAULT_HASH_MIB: usize = 256;

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
}

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
    /// With a mate: the length the proof guarantees (by the tsume count, useless
    /// interpositions two plies less), exact when `shortest`. The line shown may be
    /// shorter when a reply in it is not the defender's longest resistance.
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
        }
    }
}

/// Progress while solving: nodes searched, time spent and table occupancy (permille).
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
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
    let mut report_progress = |nodes: u64, table: &Table| {
        let now = Instant::now();
        if now - last_report >= Duration::from_secs(1) {
            last_report = now;
            progress(Progress {
                nodes,
                elapsed: now - start,
                hashfull: table.hashfull(),
            });
        }
    };
    let mut root = pos.clone();
    root.clear_history();
    let mut search = Dfpn::new(root, table, stop, &mut report_progress);
    search.set_limits(limits.nodes, proof_deadline);
    let mut known = search.solve(NO_LIMIT);
    if known.is_disproved() && known.tainted && !search.aborted {
        // The failure rests on a repetition seen from another path: search again without
        // reusing such failures, which makes the answer exact.
        search.reuse_tainted = false;
        search.set_limits(limits.nodes, proof_deadline);
        known = search.solve(NO_LIMIT);
    }
    let mut repetition_doubt = false;
    let mut shortest = false;
    let mut first_mate = None;
    let mut final_mate = None;
    let mut plies = None;
    let outcome = if known.is_proved() {
        first_mate = Some(start.elapsed());
        final_mate = first_mate;
        plies = Some(known.len);
        match pv::principal_variation(&mut search, NO_LIMIT, deadline) {
            Some(line) if !is_mating_line(pos, &line) => Outcome::Unknown,
            Some(line) if !limits.shortest => Outcome::Mate(line),
            Some(line) => {
                let first_proof = start.elapsed();
                // Look for shorter mates for a few times what the first proof took (and
                // a tenth of a second), within the limits: showing that no shorter mate
                // exists can cost far more than finding the first.
                let budget = first_proof * 4 + Duration::from_millis(100);
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
    } else if known.is_disproved()
        && (!known.tainted || !search.reuse_tainted)
        && !search.hit_max_ply
    {
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

/// The shortest mate known: its line, the length proved (`bound`), whether no shorter
/// one exists (`proved`) and when it was found, if after the first.
struct Shortest {
    line: Vec<Move>,
    bound: u16,
    proved: bool,
    found_at: Option<Instant>,
}

/// Looks for mates shorter than the proved `bound`, two plies at a time, until none is
/// found (then `bound` is the shortest mate's length, as far as the proof table's
/// repetition handling allows: `proved` says whether that was shown) or the time runs
/// out. The bound comes from the proofs, not from the line read back: a line whose
/// defence is not the longest would otherwise pass for a shorter mate.
fn shorten(
    search: &mut Dfpn,
    pos: &Position,
    mut best: Shortest,
    nodes: Option<u64>,
    search_deadline: Instant,
    deadline: Option<Instant>,
) -> Shortest {
    while best.bound > 1 {
        let target = best.bound - 2;
        search.set_limits(nodes, Some(search_deadline));
        let known = search.solve(target);
        if known.is_disproved() {
            best.proved = !known.tainted;
            return best;
        }
        if !known.is_proved() {
            return best;
        }
        best.bound = known.len.min(target);
        best.found_at = Some(Instant::now());
        match pv::principal_variation(search, target, deadline) {
            Some(shorter) if is_mating_line(pos, &shorter) => best.line = shorter,
            _ => return best,
        }
    }
    best.proved = true;
    best
}

/// Whether `line` is a mating line from `pos`: every move legal, every attacker move a
/// check, and the defender without a legal move at the end. (That every defence was met
/// is what the proof guarantees; this checks the line shown.)
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    if line.len().is_multiple_of(2) {
        return false;
    }
    let mut p = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        if !p.is_legal(mv) {
            return false;
        }
        p.play_unchecked(mv);
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    !p.has_legal_move()
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
    }
    text
}
