//! The positions on the line from the root to the node being searched: a position met
//! again on the path, or one no better for the attacker, fails for the attacker.
//!
//! A repeated position fails because a perpetual check loses. A position with the board of
//! one on the path and an attacker hand no larger (an *inferior* position) fails for the
//! same reason in effect: whatever mates from it mates from the earlier position too,
//! with the same moves (the attacker holds at least as much there, the defender no more),
//! so a proof never needs to pass through it. Cutting these lines off early is what keeps
//! the search out of the loops in which the attacker chases the king round and round
//! while the defender gives up pieces.
//!
//! Long problems go a thousand plies and more deep, and every child of every node asks
//! about the path, so the boards are also counted in a hash map: the question costs the
//! same at any depth (a board on the path twice, which is rare, has its hands compared).

use crate::types::Hand;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Zobrist keys are already uniformly random: hashing them again buys nothing.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// One position of the path: the board's key (pieces and side to move) and the
/// attacker's hand, which with the board determines the defender's.
pub type Step = (u64, Hand);

/// The positions on the path, oldest first, and how often each board occurs on it.
#[derive(Default)]
pub struct Path {
    steps: Vec<Step>,
    boards: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

impl Path {
    /// A path made of these positions, oldest first.
    pub fn from_steps(steps: &[Step]) -> Path {
        let mut path = Path::default();
        for &step in steps {
            path.push(step);
        }
        path
    }

    pub fn push(&mut self, step: Step) {
        self.steps.push(step);
        *self.boards.entry(step.0).or_insert(0) += 1;
    }

    pub fn pop(&mut self) {
        if let Some((board, _)) = self.steps.pop() {
            if let Some(count) = self.boards.get_mut(&board) {
                *count -= 1;
                if *count == 0 {
                    self.boards.remove(&board);
                }
            }
        }
    }

    /// Whether a position on the path has this board and an attacker hand holding at
    /// least `hand`: the position is then a repetition or an inferior position.
    pub fn dominates(&self, board: u64, hand: Hand) -> bool {
        if !self.boards.contains_key(&board) {
            return false;
        }
        self.steps
            .iter()
            .any(|&(b, h)| b == board && h.is_superset_of(hand))
    }

    pub fn len(&self) -> usize {
        self.steps.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::types::PieceKind;

    fn hand(kinds: &[PieceKind]) -> Hand {
        let mut h = Hand::EMPTY;
        for &k in kinds {
            h.add(k);
        }
        h
    }

    #[test]
    fn boards_leave_the_path_when_their_last_copy_does() {
        let e = Hand::EMPTY;
        let mut path = Path::from_steps(&[(1, e), (2, e)]);
        path.push((1, e));
        assert!(path.dominates(1, e) && path.dominates(2, e) && !path.dominates(3, e));
        path.pop();
        assert!(path.dominates(1, e), "the first copy of 1 is still there");
        path.pop();
        path.pop();
        assert!(!path.dominates(1, e) && !path.dominates(2, e));
        path.pop();
        assert_eq!(path.len(), 0);
    }

    #[test]
    fn a_board_met_again_with_no_more_in_hand_is_dominated() {
        use PieceKind::{Gold, Pawn};
        let path = Path::from_steps(&[(7, hand(&[Pawn, Gold])), (8, Hand::EMPTY)]);
        assert!(path.dominates(7, hand(&[Pawn, Gold])), "a repetition");
        assert!(path.dominates(7, hand(&[Gold])), "a pawn fewer");
        assert!(path.dominates(7, Hand::EMPTY));
        assert!(!path.dominates(7, hand(&[Pawn, Pawn])), "a second pawn");
        assert!(!path.dominates(7, hand(&[Pawn, Gold, Gold])));
        assert!(!path.dominates(9, Hand::EMPTY), "another board");
    }
}
