//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock: the *optimum*, the time a normal move should take,
//! checked between iterations and stretched or shrunk by how settled the search is; and
//! the *maximum*, a hard deadline checked every few thousand nodes, which keeps a move
//! within the clock whatever happens.
//!
//! The safety options mean, as in the engines GUIs know them from:
//! - `NetworkDelay` (ms): taken off every deadline, for the time between the engine sending
//!   `bestmove` and the GUI stopping its clock;
//! - `NetworkDelay2` (ms): the margin kept when the move must arrive before the byoyomi
//!   runs out (the main time is spent), where being late loses;
//! - `MinimumThinkingTime` (ms): the engine thinks at least this long when the clock
//!   allows it (the minimum is no more than an even share of the main time plus the
//!   byoyomi or increment), rather than replying at once;
//! - `SlowMover` (%): scales the optimum time (100 = normal, 150 = think half as long
//!   again).
//!
//! Margins never take more than half of the time available, so a short byoyomi (100 ms)
//! still leaves time to think instead of rounding down to nothing.

use crate::types::Color;
use std::time::Duration;

/// The clock as `go` gives it, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Main time left (ms).
    pub time_left: u64,
    /// Byoyomi per move (ms), 0 when none.
    pub byoyomi: u64,
    /// Fischer increment (ms), 0 when none. Planned with, but never counted on for the
    /// hard deadline: a GUI may add it before the move or after.
    pub increment: u64,
}

impl Clock {
    /// The clock of `side` from `go btime .. wtime .. byoyomi .. binc .. winc ..`.
    pub fn for_side(
        side: Color,
        btime: Option<u64>,
        wtime: Option<u64>,
        byoyomi: Option<u64>,
        binc: Option<u64>,
        winc: Option<u64>,
    ) -> Option<Clock> {
        let (time, inc) = match side {
            Color::Black => (btime, binc),
            Color::White => (wtime, winc),
        };
        if time.is_none() && byoyomi.is_none() && inc.is_none() {
            return None;
        }
        Some(Clock {
            time_left: time.unwrap_or(0),
            byoyomi: byoyomi.unwrap_or(0),
            increment: inc.unwrap_or(0),
        })
    }
}

/// The safety options (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    pub network_delay: u64,
    pub network_delay2: u64,
    pub minimum_thinking_time: u64,
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> TimeOptions {
        TimeOptions {
            network_delay: 120,
            network_delay2: 1120,
            minimum_thinking_time: 2000,
            slow_mover: 100,
        }
    }
}

/// The time budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Time a normal move takes; the search stops between iterations after about this.
    pub optimum: Duration,
    /// Hard deadline, counted from the start of the move (or from `ponderhit`).
    pub maximum: Duration,
    /// The time is used to the deadline, however settled the search: time left unused
    /// is lost (pure byoyomi, a fixed movetime).
    pub use_all: bool,
}

impl Budget {
    /// A fixed time, used in full (`go movetime`).
    pub fn fixed(time: Duration) -> Budget {
        Budget {
            optimum: time,
            maximum: time,
            use_all: true,
        }
    }

    /// Whether a search that has run for `elapsed` should start no further iteration,
    /// with the optimum scaled by `factor` ([`stretch`], at most 2.5 times).
    pub fn spent(&self, elapsed: Duration, factor: f64) -> bool {
        let limit = if self.use_all {
            self.maximum
        } else {
            self.optimum.mul_f64(factor.clamp(0.0, MAX_STRETCH))
        };
        elapsed >= limit.min(self.maximum)
    }
}

/// A settled search stops at the optimum times [`stretch`], but never past this many
/// optimums (nor past the maximum).
const MAX_STRETCH: f64 = 2.5;
/// The main time is planned for this many more moves at the start of a game...
const MOVES_TO_GO_AT_START: u64 = 60;
/// ...one fewer every this many plies...
const PLIES_PER_MOVE_TO_GO: u64 = 4;
/// ...and never fewer than this, so the last of the main time is not spent at once.
const MOVES_TO_GO_LEAST: u64 = 20;
/// With a byoyomi after the main time, one move may take up to a 1/this share of the
/// main time (plus the byoyomi).
const MAX_SHARE_BEFORE_BYOYOMI: u64 = 4;
/// With an increment, the optimum plans to spend this share of it (in percent)...
const INCREMENT_USED_PERCENT: u64 = 75;
/// ...and one move may take up to a 1/this share of the main time (plus the increment).
const MAX_SHARE_WITH_INCREMENT: u64 = 5;
/// In sudden death the main time is spread over this many more moves than usual...
const SUDDEN_DEATH_EXTRA_MOVES: u64 = 10;
/// ...and one move takes at most a 1/this share of it.
const MAX_SHARE_SUDDEN_DEATH: u64 = 8;
/// Each change of the best move (decayed over iterations, at most 4) stretches the
/// optimum by this much.
const STRETCH_PER_BEST_MOVE_CHANGE: f64 = 0.4;
/// A score that fell by this many centipawns since the last iteration doubles the
/// optimum (less, in proportion).
const SCORE_DROP_FULL: i32 = 300;
/// The optimum's factor while the best move has been the same for at most 2 iterations,
/// 3 to 5, and more.
const STRETCH_UNSETTLED: f64 = 1.1;
const STRETCH_SETTLING: f64 = 0.9;
const STRETCH_SETTLED: f64 = 0.7;
/// Below this share of the nodes under the best move the optimum is kept...
const EFFORT_SHARE_LOW: f64 = 0.5;
/// ...and from this share on it is scaled by `EFFORT_FACTOR_HIGH` (linearly between).
const EFFORT_SHARE_HIGH: f64 = 0.8;
const EFFORT_FACTOR_HIGH: f64 = 0.75;

/// The budget for a move at game ply `ply` (1-based, as SFEN counts) with `clock`.
pub fn budget(clock: Clock, ply: u32, options: TimeOptions) -> Budget {
    let Clock {
        time_left,
        byoyomi,
        increment,
    } = clock;
    // Everything that is sure to be on the clock for this move. The increment is not
    // counted: some GUIs add it before the move (then it is in `time_left` already),
    // others after, and a plan that spends it before it is there loses on time.
    let available = time_left + byoyomi;
    // Margin: the network delay always; the larger byoyomi margin whenever the move may
    // have to be paid from the byoyomi (a GUI that counts whole seconds flags a move
    // that ends a few milliseconds into a second it did not have). Never more than half
    // of what is available.
    let in_byoyomi_only = time_left == 0 && byoyomi > 0;
    let margin = if byoyomi > 0 {
        options.network_delay2.max(options.network_delay)
    } else {
        options.network_delay
    }
    .min(available / 2);
    let hard = available.saturating_sub(margin);

    // Moves still to play with the main time: many early, fewer later on.
    let moves_to_go = (MOVES_TO_GO_AT_START.saturating_sub(ply as u64 / PLIES_PER_MOVE_TO_GO))
        .max(MOVES_TO_GO_LEAST);
    let slow = options.slow_mover.max(1);

    let (optimum, maximum) = if in_byoyomi_only {
        // Pure byoyomi: time not used is lost, so use all of it (`use_all` below).
        (hard, hard)
    } else if byoyomi > 0 {
        // Main time first, then the byoyomi that follows.
        let share = time_left / moves_to_go;
        let optimum = (share + byoyomi) * slow / 100;
        let maximum = (time_left / MAX_SHARE_BEFORE_BYOYOMI + byoyomi).min(hard);
        (optimum.min(maximum), maximum)
    } else if increment > 0 {
        let share = time_left / moves_to_go + increment * INCREMENT_USED_PERCENT / 100;
        let optimum = share * slow / 100;
        let maximum = (time_left / MAX_SHARE_WITH_INCREMENT + increment).min(hard);
        (optimum.min(maximum), maximum)
    } else {
        // Sudden death: spread the main time over the expected rest of the game.
        let optimum = time_left / (moves_to_go + SUDDEN_DEATH_EXTRA_MOVES) * slow / 100;
        let maximum = (time_left / MAX_SHARE_SUDDEN_DEATH).min(hard);
        (optimum.min(maximum), maximum)
    };
    // The minimum thinking time is for a clock that can afford it: never more than an
    // even share of the main time plus this move's byoyomi or increment. Without that
    // cap a short clock (10 s sudden death, 3 s + 100 ms) spent an eighth of what was
    // left on every move, and played its endgame at a few milliseconds a move.
    let affordable = time_left / moves_to_go + byoyomi.max(increment);
    let minimum = options.minimum_thinking_time.min(affordable).min(maximum);
    let optimum = optimum.max(minimum).min(maximum);
    Budget {
        optimum: Duration::from_millis(optimum),
        maximum: Duration::from_millis(maximum),
        // Nothing saved in pure byoyomi can be spent later: a settled search that
        // stopped early (at 70% of the optimum) only threw part of its byoyomi away.
        use_all: in_byoyomi_only,
    }
}

/// How far to stretch the optimum after an iteration: more when the best move keeps
/// changing or the score falls, less when one move has stayed best throughout.
pub fn stretch(best_move_changes: f64, score_drop: i32, stable_iterations: u32) -> f64 {
    let instability = 1.0 + best_move_changes.min(4.0) * STRETCH_PER_BEST_MOVE_CHANGE;
    let falling = 1.0 + (score_drop.clamp(0, SCORE_DROP_FULL) as f64) / SCORE_DROP_FULL as f64;
    let stability = match stable_iterations {
        0..=2 => STRETCH_UNSETTLED,
        3..=5 => STRETCH_SETTLING,
        _ => STRETCH_SETTLED,
    };
    instability * falling * stability
}

/// The optimum's factor by the share of this search's nodes spent under the best move:
/// a move whose alternatives were all refuted quickly (most of the nodes went to it)
/// needs less time than one among close rivals.
pub fn effort_factor(share: f64) -> f64 {
    let t = ((share - EFFORT_SHARE_LOW) / (EFFORT_SHARE_HIGH - EFFORT_SHARE_LOW)).clamp(0.0, 1.0);
    1.0 + t * (EFFORT_FACTOR_HIGH - 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u64 {
        d.as_millis() as u64
    }

    #[test]
    fn pure_byoyomi_uses_nearly_all_of_it_and_keeps_a_margin() {
        let options = TimeOptions {
            minimum_thinking_time: 1000,
            ..TimeOptions::default()
        };
        let b = budget(
            Clock {
                time_left: 0,
                byoyomi: 10_000,
                increment: 0,
            },
            40,
            options,
        );
        assert_eq!(ms(b.maximum), 10_000 - 1120);
        assert_eq!(b.optimum, b.maximum);
        assert!(b.use_all);
    }

    #[test]
    fn a_settled_search_stops_early_only_where_the_time_can_be_saved() {
        let settled = stretch(0.0, 0, 10);
        assert!(settled < 1.0);
        let byoyomi_only = Clock {
            time_left: 0,
            byoyomi: 1_000,
            increment: 0,
        };
        let with_main_time = Clock {
            time_left: 600_000,
            ..byoyomi_only
        };
        let options = TimeOptions {
            network_delay: 0,
            network_delay2: 100,
            ..TimeOptions::default()
        };
        // Pure byoyomi: a settled search goes on to the deadline (it used to stop at 70%).
        let b = budget(byoyomi_only, 80, options);
        assert!(!b.spent(Duration::from_millis(700), settled));
        assert!(!b.spent(Duration::from_millis(899), settled));
        assert!(b.spent(Duration::from_millis(900), settled));
        // With main time left, the same search stops before its optimum, and an
        // unsettled one goes on past it.
        let b = budget(with_main_time, 80, options);
        assert!(!b.use_all);
        assert!(b.spent(b.optimum.mul_f64(0.95), settled), "{b:?}");
        assert!(!b.spent(b.optimum, stretch(3.0, 100, 0)), "{b:?}");
        assert!(b.spent(b.maximum, stretch(3.0, 100, 0)), "{b:?}");
        // A fixed movetime is used in full.
        let fixed = Budget::fixed(Duration::from_millis(500));
        assert!(!fixed.spent(Duration::from_millis(499), settled));
        assert!(fixed.spent(Duration::from_millis(500), 2.5));
    }

    #[test]
    fn short_byoyomi_keeps_half() {
        let b = budget(
            Clock {
                time_left: 0,
                byoyomi: 100,
                increment: 0,
            },
            40,
            TimeOptions::default(),
        );
        assert_eq!(ms(b.maximum), 50);
        assert!(ms(b.optimum) <= 50);
    }

    #[test]
    fn main_time_is_spread_over_the_game() {
        let b = budget(
            Clock {
                time_left: 600_000,
                byoyomi: 0,
                increment: 0,
            },
            1,
            TimeOptions {
                minimum_thinking_time: 1000,
                ..TimeOptions::default()
            },
        );
        assert!(ms(b.optimum) > 5_000 && ms(b.optimum) < 15_000, "{b:?}");
        assert_eq!(ms(b.maximum), 75_000);
    }

    #[test]
    fn the_increment_is_planned_with_but_the_deadline_fits_the_clock_without_it() {
        let b = budget(
            Clock {
                time_left: 40_000,
                byoyomi: 0,
                increment: 10_000,
            },
            30,
            TimeOptions::default(),
        );
        assert!(ms(b.maximum) >= 10_000, "{b:?}");
        assert!(
            ms(b.optimum) > 40_000 / 60,
            "the increment adds to the plan: {b:?}"
        );
        // Little main time left and a large increment: the deadline stays within the
        // main time, whether or not the GUI has added this move's increment yet.
        let b = budget(
            Clock {
                time_left: 500,
                byoyomi: 0,
                increment: 10_000,
            },
            30,
            TimeOptions::default(),
        );
        assert_eq!(ms(b.maximum), 500 - 120, "{b:?}");
    }

    #[test]
    fn a_move_that_may_reach_into_the_byoyomi_keeps_the_byoyomi_margin() {
        // The main time runs out during this move: it is paid from the byoyomi, so the
        // byoyomi margin applies as it does with no main time at all.
        for time_left in [0, 1, 100, 999] {
            let b = budget(
                Clock {
                    time_left,
                    byoyomi: 1_000,
                    increment: 0,
                },
                60,
                TimeOptions::default(),
            );
            let available = time_left + 1_000;
            assert_eq!(
                ms(b.maximum),
                available - (available / 2).min(1_120),
                "{b:?}"
            );
        }
        // With plenty of main time the move is planned from it as before.
        let b = budget(
            Clock {
                time_left: 600_000,
                byoyomi: 10_000,
                increment: 0,
            },
            60,
            TimeOptions::default(),
        );
        assert_eq!(ms(b.maximum), 600_000 / 4 + 10_000);
    }

    #[test]
    fn nearly_flagged_sudden_death_still_moves_in_time() {
        let b = budget(
            Clock {
                time_left: 300,
                byoyomi: 0,
                increment: 0,
            },
            120,
            TimeOptions::default(),
        );
        assert!(ms(b.maximum) <= 300 / 8 + 1);
        assert!(b.optimum <= b.maximum);
    }

    /// Plays out a game on `clock` where every move takes its optimum, and returns the
    /// optimum of each of our moves (plies 1, 3, 5, ...).
    fn optimums_over_a_game(mut clock: Clock, moves: u32) -> Vec<u64> {
        let mut out = Vec::new();
        for n in 0..moves {
            let b = budget(clock, 2 * n + 1, TimeOptions::default());
            let spent = ms(b.optimum);
            assert!(spent <= clock.time_left + clock.byoyomi);
            clock.time_left = (clock.time_left + clock.increment).saturating_sub(spent);
            out.push(spent);
        }
        out
    }

    #[test]
    fn a_short_sudden_death_is_spread_over_the_game() {
        let clock = Clock {
            time_left: 10_000,
            byoyomi: 0,
            increment: 0,
        };
        let t = optimums_over_a_game(clock, 80);
        // Not an eighth of the clock per move (the default 2 s minimum capped by the
        // maximum did that), and the 60th move still has a real search.
        assert!(t[0] <= 250, "{t:?}");
        assert!(t[59] >= 20, "{t:?}");
        assert!(t.iter().sum::<u64>() <= 10_000);
    }

    #[test]
    fn a_short_increment_is_spent_move_by_move() {
        let clock = Clock {
            time_left: 3_000,
            byoyomi: 0,
            increment: 100,
        };
        let t = optimums_over_a_game(clock, 80);
        assert!(t[0] <= 250, "{t:?}");
        // The increment keeps every move near its size to the end.
        assert!(t[79] >= 75, "{t:?}");
    }

    #[test]
    fn a_long_clock_keeps_the_minimum_thinking_time() {
        let b = budget(
            Clock {
                time_left: 60_000,
                byoyomi: 0,
                increment: 0,
            },
            100,
            TimeOptions::default(),
        );
        // 35 moves still to play: the plan (60 s / 45 = 1.33 s) is raised towards the
        // 2 s minimum as far as an even share of the clock (60 s / 35) affords.
        assert_eq!(ms(b.optimum), 1_714);
        let b = budget(
            Clock {
                time_left: 300_000,
                byoyomi: 0,
                increment: 0,
            },
            100,
            TimeOptions::default(),
        );
        assert!(ms(b.optimum) > 2_000);
    }

    #[test]
    fn a_best_move_that_took_most_of_the_nodes_stops_sooner() {
        // Close rivals (a third of the nodes each): the optimum is kept.
        assert_eq!(effort_factor(0.3), 1.0);
        assert_eq!(effort_factor(EFFORT_SHARE_LOW), 1.0);
        // Alternatives refuted at once: the full cut, and no more past it.
        assert_eq!(effort_factor(EFFORT_SHARE_HIGH), EFFORT_FACTOR_HIGH);
        assert_eq!(effort_factor(1.0), EFFORT_FACTOR_HIGH);
        // In between, falling steadily.
        let mid = effort_factor((EFFORT_SHARE_LOW + EFFORT_SHARE_HIGH) / 2.0);
        assert!(EFFORT_FACTOR_HIGH < mid && mid < 1.0, "{mid}");
        assert!(effort_factor(0.6) > effort_factor(0.7));
        // A settled search with a dominant move stops at the optimum times both.
        let budget = Budget {
            optimum: Duration::from_millis(1000),
            maximum: Duration::from_millis(5000),
            use_all: false,
        };
        let factor = stretch(0.0, 0, 10) * effort_factor(0.95);
        assert!(!budget.spent(Duration::from_millis(520), factor));
        assert!(budget.spent(Duration::from_millis(530), factor));
    }

    #[test]
    fn slow_mover_scales_the_optimum() {
        let clock = Clock {
            time_left: 600_000,
            byoyomi: 10_000,
            increment: 0,
        };
        let normal = budget(clock, 20, TimeOptions::default());
        let slow = budget(
            clock,
            20,
            TimeOptions {
                slow_mover: 150,
                ..TimeOptions::default()
            },
        );
        assert!(slow.optimum > normal.optimum);
    }
}
