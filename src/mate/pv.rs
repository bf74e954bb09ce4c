//! The mating line shown to the user, read from a finished proof.
//!
//! At the attacker's turn the proved check with the shortest known mate is taken; at the
//! defender's turn the reply with the longest known mate, a futile interposition (see
//! [`super::interposition`]) counted two plies shorter. A position whose
//! proof was evicted from the table is proved again on the spot. The line is what the
//! table knows: a mate, not always the shortest one, and its length is the length of the
//! line itself.

use super::dfpn::{count_move, Dfpn, MAX_PLY};
use super::interposition::{is_futile_reply, InterpositionSquares};
use crate::position::Position;
use crate::types::Move;
use std::time::Instant;

/// How many times the line may send the solver back to re-prove a position (with a small
/// table, proofs near the leaves are often collected before the line is read).
const MAX_REPROOFS: u32 = 100_000;

/// Reads the mating line from the current position of `search`, proved for a mate of at
/// most `max_len` plies. Returns `None` when the proof cannot be followed within
/// `deadline` (entries lost and not re-proved).
pub fn principal_variation(
    search: &mut Dfpn,
    max_len: u16,
    deadline: Option<Instant>,
) -> Option<Vec<Move>> {
    let root_len = search.pos.history().len();
    let mut remaining = max_len;
    let mut line = Vec::new();
    let mut seen = vec![search.step()];
    let mut reproofs = 0;
    let result = loop {
        if line.len() > MAX_PLY {
            break None;
        }
        let or = search.pos.side_to_move() == search.attacker;
        let moves = search.moves();
        if moves.is_empty() {
            // The defender has no reply: mate (an attacker without checks cannot be here).
            break if or { None } else { Some(line.clone()) };
        }
        // (useful, length) of each proved child; a missing proof is searched again.
        let mut best: Option<(bool, u16, Move, u16)> = None;
        let mut missing = false;
        let squares = InterpositionSquares::new(&search.pos);
        for &mv in moves.iter() {
            let child_remaining = count_move(or, remaining, &squares, mv).remaining;
            search.pos.play_unchecked(mv);
            let repeated = seen.contains(&search.step());
            let mut known = search.known_here(child_remaining);
            if !or && !known.is_proved() && reproofs < MAX_REPROOFS {
                reproofs += 1;
                search.set_limits(None, deadline);
                known = search.solve_after(&seen, child_remaining);
            }
            search.pos.undo();
            if !known.is_proved() || (or && repeated) {
                missing |= !or;
                continue;
            }
            let useful = or || !is_futile_reply(&mut search.pos, &squares, mv, known.len == 1);
            let tsume_len = if useful {
                known.len
            } else {
                known.len.saturating_sub(2)
            };
            let better = match best {
                None => true,
                Some((_, len, _, _)) if or => known.len < len,
                // The longest defence by tsume length (a futile interposition counts two
                // plies less), a real defence before an interposition of the same length.
                Some((u, len, _, _)) => (tsume_len, useful) > (len, u),
            };
            if better {
                best = Some((useful, tsume_len, mv, child_remaining));
            }
        }
        if missing {
            break None;
        }
        match best {
            Some((_, _, mv, child_remaining)) => {
                remaining = child_remaining;
                search.pos.play_unchecked(mv);
                seen.push(search.step());
                line.push(mv);
            }
            None if or && reproofs < MAX_REPROOFS => {
                // The proof of this position was evicted: prove it again.
                reproofs += 1;
                search.set_limits(None, deadline);
                // The line must not come back to where it has been.
                if !search.solve_after(&seen, remaining).is_proved() {
                    break None;
                }
            }
            None => break None,
        }
    };
    while search.pos.history().len() > root_len {
        search.pos.undo();
    }
    result
}

/// The length of `line`, a mating line from `pos`, by the tsume count: each futile reply
/// in it (a useless interposition, or a drop the checker takes with mate) counts two
/// plies less. A line may play such replies out to reach a position that is mate.
pub fn tsume_length(pos: &Position, line: &[Move]) -> usize {
    let mut p = pos.clone();
    let mut futile = 0;
    for (i, &mv) in line.iter().enumerate() {
        if i % 2 == 1 {
            let squares = InterpositionSquares::new(&p);
            // The line's last reply is mated in one.
            if is_futile_reply(&mut p, &squares, mv, i + 2 == line.len()) {
                futile += 1;
            }
        }
        p.play_unchecked(mv);
    }
    line.len() - 2 * futile
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
