//! Which book move to play: the filters the book options set, then a random choice
//! weighted by count.
//!
//! The filters run in this order: illegal moves out (a book can be wrong or made for other
//! rules), `BookDepthLimit`, `BookEvalDiff` against the best value left, `NarrowBook`.

use super::BookMove;
use crate::position::Position;
use crate::rng::Rng;

/// The share of the total count below which `NarrowBook` drops a move, in percent.
pub const NARROW_PERCENT: u64 = 10;

/// The options that shape the choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Only moves whose value is within this many centipawns of the best book move.
    pub eval_diff: i32,
    /// Only moves searched at least this deep (0: any depth).
    pub depth_limit: i32,
    /// Drop rare moves: those with less than [`NARROW_PERCENT`] of the total count.
    pub narrow: bool,
    /// Percent chance of leaving the book at a position it knows (variety, testing).
    pub ignore_rate: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            eval_diff: 30,
            depth_limit: 0,
            narrow: false,
            ignore_rate: 0,
        }
    }
}

/// The moves of an entry that survive the filters, and notes on the ones that were
/// illegal here (for an `info string`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eligible {
    pub moves: Vec<BookMove>,
    pub illegal: Vec<String>,
}

/// Applies the filters to the book's `moves` for `pos`. A ponder move that is not legal
/// after its move is dropped (the move itself stays).
pub fn eligible(pos: &Position, moves: &[BookMove], policy: &Policy) -> Eligible {
    let mut out = Eligible::default();
    let mut legal: Vec<BookMove> = Vec::with_capacity(moves.len());
    for m in moves {
        if let Err(e) = pos.check_move(m.mv) {
            out.illegal.push(e.to_string());
            continue;
        }
        let mut m = *m;
        if let Some(p) = m.ponder {
            let mut next = pos.clone();
            next.play_unchecked(m.mv);
            if !next.is_legal(p) {
                m.ponder = None;
            }
        }
        legal.push(m);
    }
    if policy.depth_limit > 0 {
        legal.retain(|m| m.depth >= policy.depth_limit);
    }
    if let Some(best) = legal.iter().map(|m| m.value).max() {
        let floor = best.saturating_sub(policy.eval_diff.max(0));
        legal.retain(|m| m.value >= floor);
    }
    if policy.narrow {
        let total: u64 = legal.iter().map(|m| m.count).sum();
        if total > 0 {
            legal.retain(|m| m.count.saturating_mul(100) >= total * NARROW_PERCENT);
        }
    }
    out.moves = legal;
    out
}

/// Picks one move at random, weighted by count; when every count is 0, uniformly.
pub(crate) fn pick(moves: &[BookMove], rng: &mut Rng) -> Option<BookMove> {
    if moves.is_empty() {
        return None;
    }
    let total: u64 = moves.iter().map(|m| m.count).sum();
    let r = rng.next_u64();
    if total == 0 {
        return Some(moves[(r % moves.len() as u64) as usize]);
    }
    let mut target = r % total;
    for m in moves {
        if target < m.count {
            return Some(*m);
        }
        target -= m.count;
    }
    moves.last().copied()
}

/// Whether to leave the book at this move: true with `rate` percent chance.
pub(crate) fn ignore(rate: u32, rng: &mut Rng) -> bool {
    rate > 0 && (rate >= 100 || rng.next_u64() % 100 < u64::from(rate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Move;

    fn m(text: &str, value: i32, depth: i32, count: u64) -> BookMove {
        BookMove {
            mv: Move::from_usi(text).unwrap(),
            ponder: None,
            value,
            depth,
            count,
        }
    }

    fn names(e: &Eligible) -> Vec<String> {
        e.moves.iter().map(|m| m.mv.to_string()).collect()
    }

    #[test]
    fn filters_in_order() {
        let pos = Position::startpos();
        let moves = [
            m("7g7f", 40, 20, 50),
            m("2g2f", 35, 12, 45),
            m("5i5h", -100, 20, 100),
            m("7f7e", 90, 30, 9), // illegal at the start
            m("1g1f", 20, 20, 3),
        ];
        let all = Policy {
            eval_diff: 1000,
            ..Policy::default()
        };
        let e = eligible(&pos, &moves, &all);
        assert_eq!(names(&e), ["7g7f", "2g2f", "5i5h", "1g1f"]);
        assert_eq!(e.illegal.len(), 1);
        assert!(e.illegal[0].contains("7f7e"));
        let diff = Policy::default(); // 30 cp
        assert_eq!(
            names(&eligible(&pos, &moves, &diff)),
            ["7g7f", "2g2f", "1g1f"]
        );
        let deep = Policy {
            depth_limit: 16,
            eval_diff: 1000,
            ..Policy::default()
        };
        assert_eq!(
            names(&eligible(&pos, &moves, &deep)),
            ["7g7f", "5i5h", "1g1f"]
        );
        // The eval filter counts from the best move left after the depth filter.
        let deep_diff = Policy {
            depth_limit: 16,
            eval_diff: 0,
            ..Policy::default()
        };
        assert_eq!(names(&eligible(&pos, &moves, &deep_diff)), ["7g7f"]);
        // 1g1f has 3 of 98 counts among the three left: under 10 %.
        let narrow = Policy {
            narrow: true,
            ..Policy::default()
        };
        assert_eq!(names(&eligible(&pos, &moves, &narrow)), ["7g7f", "2g2f"]);
    }

    #[test]
    fn illegal_ponder_is_dropped() {
        let pos = Position::startpos();
        let mut mv = m("7g7f", 0, 0, 1);
        mv.ponder = Move::from_usi("7g7f"); // Black's move again: not White's
        let e = eligible(&pos, &[mv], &Policy::default());
        assert_eq!(e.moves[0].ponder, None);
        mv.ponder = Move::from_usi("3c3d");
        let e = eligible(&pos, &[mv], &Policy::default());
        assert_eq!(e.moves[0].ponder, Move::from_usi("3c3d"));
    }

    #[test]
    fn choice_follows_counts() {
        let moves = [m("7g7f", 0, 0, 3), m("2g2f", 0, 0, 1), m("1g1f", 0, 0, 0)];
        let mut rng = Rng::from_state(12345);
        let mut seen = [0u32; 3];
        for _ in 0..4000 {
            let p = pick(&moves, &mut rng).unwrap();
            seen[moves.iter().position(|x| x.mv == p.mv).unwrap()] += 1;
        }
        assert_eq!(seen[2], 0, "count 0 is never chosen beside others");
        assert!((2800..3200).contains(&seen[0]), "{seen:?}");
        let zeros = [m("7g7f", 0, 0, 0), m("2g2f", 0, 0, 0)];
        let mut seen = [0u32; 2];
        for _ in 0..1000 {
            let p = pick(&zeros, &mut rng).unwrap();
            seen[zeros.iter().position(|x| x.mv == p.mv).unwrap()] += 1;
        }
        assert!(seen[0] > 350 && seen[1] > 350, "{seen:?}");
        assert_eq!(pick(&[], &mut rng), None);
    }

    #[test]
    fn ignore_rate_bounds() {
        let mut rng = Rng::from_state(99);
        assert!(!(0..100).any(|_| ignore(0, &mut rng)));
        assert!((0..100).all(|_| ignore(100, &mut rng)));
        let n = (0..10_000).filter(|_| ignore(25, &mut rng)).count();
        assert!((2200..2800).contains(&n), "{n}");
    }
}
