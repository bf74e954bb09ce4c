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
//!   answer is no, each question with a small node budget. A question asks first about
//!   the line's own move, and only when its mate is longer than the next position's
//!   needs (that position was just shortened, or another reply of the defender is the
//!   longer defence): what was saved further down answers it at once. Then it asks
//!   about the other moves, leaving the line's move out, so that it does not follow the
//!   line down through positions already asked. A detour (the king sent round two
//!   squares before the check that brings it back) is cut out where its shortcut is one
//!   of those other moves, and the savings climb the line to the root.
//! - The questions take no failure resting on a repetition (tainted) from the table: the
//!   first search leaves such failures on the very moves that shorten its line, and
//!   taken as they are, they answer each of those questions with a failure that does not
//!   hold there.
//! - A tightening that does not shorten the root may still have moved its longest
//!   defence onto another line (a reply the line did not take): that line is read from
//!   the table and tightened next.
//!
//! The whole problem gets a hundred times a question's nodes. A round that proves
//! nothing shorter (and has no new line to tighten) doubles both, so neither step can
//! starve the other. On Microcosmos the 1,585-ply first mate came down to the published
//! 1,525 plies 18 s after it was found; before these refinements the tightening's
//! questions followed the line down or met the first search's repetition failures, and
//! the same search reached only 1,565 to 1,529 plies in 27 minutes.

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
    // The lines tightened with this effort and this bound.
    let mut tightened: Vec<Vec<Move>> = Vec::new();
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
            tightened.push(best.line.clone());
            // The tightening ends at the root: what it proved there is the new bound.
            known = search.known_here(NO_LIMIT);
            if !known.is_proved() || known.len >= best.bound {
                // The longest defence may now run along another line (a reply the line
                // did not take became the longest once the line's own mate shortened):
                // that line is tightened next, with the same effort.
                match pv::principal_variation(search, best.bound, deadline) {
                    Some(line) if !tightened.contains(&line) && is_mating_line(pos, &line) => {
                        best.line = line;
                    }
                    _ => {
                        effort = effort.saturating_mul(2);
                        tightened.clear();
                    }
                }
                continue;
            }
        }
        tightened.clear();
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
    // A failure that rests on a repetition seen from another path is not taken from the
    // table here: the first search leaves such failures on the very moves that shorten
    // its line (on Microcosmos, the knight drop that its detours put off), and reused,
    // they answer every question there with a failure that does not hold.
    let reuse = search.set_reuse_tainted(false);
    let mut steps = Vec::with_capacity(line.len() + 1);
    steps.push(search.step());
    for &mv in line {
        search.pos.play_unchecked(mv);
        steps.push(search.step());
    }
    // The mate the table holds for the attacker's position two plies further on the line.
    let mut below: Option<u16> = None;
    // From the attacker's last move back (the position after it, the mated defender's,
    // has nothing to ask).
    for i in (0..line.len()).rev() {
        search.pos.undo();
        // The attacker moves at the even plies.
        if i % 2 != 0 {
            continue;
        }
        loop {
            if search.stopped() || Instant::now() >= deadline {
                break;
            }
            let known = search.known_here(NO_LIMIT);
            if !known.is_proved() || known.len < 3 {
                break;
            }
            let bound = known.len - 2;
            // The line's move, when its mate is longer than the line's reply needs: what
            // was saved further down answers at once, or another reply of the defender
            // there is the longer defence and needs a shorter mate of its own.
            if below.is_none_or(|b| known.len > b.saturating_add(2)) {
                search.set_limits(Some(nodes_each), Some(deadline));
                if search.solve_after(&steps[..i], bound).is_proved() {
                    continue;
                }
            }
            // A shortcut of this position's own: another move. The line's move is left
            // out, or the question would follow it down the line, hundreds of plies of
            // positions already asked.
            search.set_limits(Some(nodes_each), Some(deadline));
            if !search
                .solve_without(&steps[..i], bound, line[i])
                .is_proved()
            {
                break;
            }
        }
        let known = search.known_here(NO_LIMIT);
        below = known.is_proved().then_some(known.len);
    }
    search.set_reuse_tainted(reuse);
}
