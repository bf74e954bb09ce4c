//! Search scores: centipawns, mate distances in plies, and the special values of
//! repetitions and declarations.

/// Score of delivering mate right now; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INFINITE: i32 = MATE + 1;
/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1000;
/// The most a static evaluation may claim, so it never looks like a mate.
pub const EVAL_LIMIT: i32 = 20_000;
/// Score for the side to move when the opponent has checked with every move of a
/// repetition: perpetual check loses for the checker. Not a mate, but a sure win.
pub const PERPETUAL_CHECK_WIN: i32 = 15_000;

/// Score of mating in `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: i32) -> i32 {
    MATE - ply
}

/// Score of being mated `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: i32) -> i32 {
    -MATE + ply
}

/// Whether a score is a forced mate for either side.
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
}

/// A fail-high `score` (at or above `beta`) drawn towards beta, counting `weight`
/// (at least 0) times against beta's once: a bound above beta from a shallow search
/// overstates it. Any other score, a mate, and a score against a mate-valued beta stay
/// as they are.
#[inline]
pub fn toward_beta(score: i32, beta: i32, weight: i32) -> i32 {
    if score < beta || is_mate(score) || is_mate(beta) {
        score
    } else {
        (score * weight + beta) / (weight + 1)
    }
}

/// A score as USI reports it: `cp` or `mate` with a signed ply count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UsiScore {
    Cp(i32),
    /// Mate in this many plies: positive when the engine mates.
    Mate(i32),
}

/// Turns an internal score into what USI prints.
pub fn to_usi(score: i32) -> UsiScore {
    if score >= MATE_BOUND {
        UsiScore::Mate(MATE - score)
    } else if score <= -MATE_BOUND {
        UsiScore::Mate(-(MATE + score))
    } else {
        UsiScore::Cp(score)
    }
}

/// A score as stored: mate scores counted from the stored position, not from the root.
#[inline]
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score brought back to the root's frame.
#[inline]
pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fail_high_is_drawn_towards_beta_but_not_a_mate() {
        // Weighed 3 to 1: three quarters of the way from beta to the score.
        assert_eq!(toward_beta(140, 100, 3), 130);
        // Weight 0 returns beta itself; a large weight keeps nearly the score.
        assert_eq!(toward_beta(140, 100, 0), 100);
        assert_eq!(toward_beta(140, 100, 39), 139);
        // Below beta, a mate, or against a mate-valued beta: unchanged.
        assert_eq!(toward_beta(90, 100, 3), 90);
        assert_eq!(toward_beta(mate_in(5), 100, 3), mate_in(5));
        assert_eq!(toward_beta(-200, mated_in(7), 3), -200);
    }
}
