//! After the first mate: the search for shorter ones.
//!
//! df-pn stops at the first proof it completes, and a long problem's first mate is
//! usually longer than its shortest: the attacker takes a detour here and there, each
//! costing a couple of plies. Each round, until no shorter mate exists or the time runs
//! out:
//! - *The whole problem again* with a length limit of the bound less two plies (a
//!   depth-limited df-pn from the root). It reuses every proof short enough, and often
//!   proves a bound well below the one asked for (Kotobuki: 611 plies asked for 633); a
//!   failure proves that no shorter mate exists (one that rests on repetitions seen from
//!   other paths is searched again without them first, as the first search does).
//! - When that search runs out of nodes, *tightening the line*: from the end of the line
//!   shown back to its start, each attacker's position on it is asked for a mate two
//!   plies shorter than the one the table holds for it, again and again until the
//!   answer is no, each question with a small node budget. What was saved further down
//!   answers the first questions at once; the last one asks whether the position has a
//!   shortcut of its own. A detour (the king sent round two squares before the check
//!   that brings it back) is cut out where the proofs it needs are at hand, and the
//!   savings climb the line to the root, whose new length is the round's result.
//!
//! The whole problem gets a hundred times a question's nodes. A round that proves
//! nothing shorter doubles both, so neither step can starve the other: on Microcosmos
//! the whole problem limited to 1,583 plies ran for 25 minutes without an answer, while
//! the rounds with the tightening took the 1,585-ply first mate to 1,529 plies (the
//! published solution has 1,525) in 17.5 minutes.

use super::dfpn::{Dfpn, NO_LIMIT};
use super::pv::{self, is_mating_line};
use crate::position::Position;
use crate::types::Move;
use std::cell::Cell;
use std::time::Instant;

/// Nodes each question of the tightening may take at first: enough for a detour near the
/// end of the line, little beside a whole problem.
const TIGHTEN_NODES: u64 = 4_000;

/// The whole problem's search in a round gets this many times a tightening question's
/// nodes.
const WHOLE_PER_QUESTION: u64 = 100;

/// The shortest mate known: its line, the length proved (`bound`), whether no shorter
/// one exists (`proved`) and when it was found, if after the first.
pub struct Shortest {
    pub line: Vec<Move>,
    pub bound: u16,
    pub proved: bool,
    pub found_at: Option<Instant>,
}

/// Looks for mates shorter than the proved `bound` until none is found (then `bound` is
/// the shortest mate's length, as far as the proof table's repetition handling allows:
/// `proved` says whether that was shown) or the time runs out. The bound comes from the
/// proofs, not from the line read back: a line whose defence is not the longest would
/// otherwise pass for a shorter mate. `best_plies` follows the bound, for progress
/// reports.
pub fn shorten(
    search: &mut Dfpn,
    pos: &Position,
    mut best: Shortest,
    nodes: Option<u64>,
    search_deadline: Instant,
    deadline: Option<Instant>,
    best_plies: &Cell<Option<u16>>,
) -> Shortest {
    let mut effort = TIGHTEN_NODES;
    while best.bound > 1 {
        let whole = effort.saturating_mul(WHOLE_PER_QUESTION);
        let (mut known, exact) = search.solve_exact(
            best.bound - 2,
            Some(nodes.map_or(whole, |n| n.min(whole))),
            Some(search_deadline),
        );
        if known.is_disproved() {
            best.proved = exact && !search.hit_max_ply;
            return best;
        }
        if !known.is_proved() {
            if search.stopped()
                || Instant::now() >= search_deadline
                || nodes.is_some_and(|n| n <= whole)
            {
                return best;
            }
            tighten(search, &best.line, effort, search_deadline);
            // The tightening ends at the root: what it proved there is the new bound.
            known = search.known_here(NO_LIMIT);
            if !known.is_proved() || known.len >= best.bound {
                effort = effort.saturating_mul(2);
                continue;
            }
        }
        best.bound = known.len.min(best.bound - 2);
        best.found_at = Some(Instant::now());
        best_plies.set(Some(best.bound));
        match pv::principal_variation(search, best.bound, deadline) {
            Some(shorter) if is_mating_line(pos, &shorter) => best.line = shorter,
            _ => return best,
        }
    }
    best.proved = true;
    best
}

/// The tightening of `line` (see the module documentation), from the search's current
/// position, which it leaves as it found it, each question limited to `nodes_each`.
/// What it proves goes to the table only.
fn tighten(search: &mut Dfpn, line: &[Move], nodes_each: u64, deadline: Instant) {
    let mut steps = Vec::with_capacity(line.len() + 1);
    steps.push(search.step());
    for &mv in line {
        search.pos.play_unchecked(mv);
        steps.push(search.step());
    }
    for i in (0..=line.len()).rev() {
        if i < line.len() {
            search.pos.undo();
        }
        // The attacker moves at the even plies.
        if i % 2 != 0 {
            continue;
        }
        // The first answer is often only what was saved further down the line; asking
        // again finds out whether this position has a shortcut of its own.
        loop {
            if search.stopped() || Instant::now() >= deadline {
                break;
            }
            let known = search.known_here(NO_LIMIT);
            if !known.is_proved() || known.len < 3 {
                break;
            }
            search.set_limits(Some(nodes_each), Some(deadline));
            if !search.solve_after(&steps[..i], known.len - 2).is_proved() {
                break;
            }
        }
    }
}
