//! Time controls and the game clock the runner keeps for both sides.
//!
//! The runner, not the engine, decides when time is up: it measures from sending `go` to
//! reading `bestmove`, so an engine that ignores its clock still loses on time.

use crate::types::Color;
pub use crate::usi_client::TimeControl;
use std::fmt;
use std::time::Duration;

/// A move that took longer than the clock allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeUp {
    pub used_ms: u64,
    pub allowed_ms: u64,
}

impl fmt::Display for TimeUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "used {} ms, {} ms allowed (margin included)",
            self.used_ms, self.allowed_ms
        )
    }
}

/// Both sides' clocks during one game.
#[derive(Clone, Debug)]
pub struct Clock {
    /// Time control by colour (each side keeps the engine's own).
    tc: [TimeControl; 2],
    /// Main time left, by colour.
    remaining: [u64; 2],
    /// Tolerance added to every move's allowance, for process and pipe latency.
    margin_ms: u64,
    /// The wait for a fixed-limit search (there is no clock to derive it from).
    move_timeout_ms: u64,
}

impl Clock {
    pub fn new(tc: [TimeControl; 2], margin_ms: u64, move_timeout_ms: u64) -> Clock {
        let remaining = [tc[0].time_ms, tc[1].time_ms];
        Clock {
            tc,
            remaining,
            margin_ms,
            move_timeout_ms,
        }
    }

    /// The `go` command for `side`'s next move.
    pub fn go_command(&self, side: Color) -> String {
        let tc = &self.tc[side.index()];
        if tc.is_fixed() {
            let mut cmd = String::from("go");
            if let Some(n) = tc.nodes {
                cmd.push_str(&format!(" nodes {n}"));
            }
            if let Some(d) = tc.depth {
                cmd.push_str(&format!(" depth {d}"));
            }
            return cmd;
        }
        let [b, w] = self.remaining;
        if tc.inc_ms > 0 {
            format!(
                "go btime {b} wtime {w} binc {} winc {}",
                self.tc[0].inc_ms, self.tc[1].inc_ms
            )
        } else {
            format!("go btime {b} wtime {w} byoyomi {}", tc.byoyomi_ms)
        }
    }

    /// The longest `side` may take over its next move before it loses on time.
    pub fn allowance(&self, side: Color) -> Duration {
        let ms = match self.time_limit(side) {
            Some(limit) => limit + self.margin_ms,
            None => self.move_timeout_ms,
        };
        Duration::from_millis(ms)
    }

    /// The time `side`'s own clock gives it for its next move (main time left plus the
    /// byoyomi or the increment), without the runner's margin; `None` for a fixed-limit
    /// search. A move that takes longer is late by the engine's clock even when the margin
    /// lets it stand.
    pub fn time_limit(&self, side: Color) -> Option<u64> {
        let tc = &self.tc[side.index()];
        (!tc.is_fixed()).then(|| self.remaining[side.index()] + tc.byoyomi_ms + tc.inc_ms)
    }

    /// Charges `elapsed` to `side`: main time first, then byoyomi; the increment is added
    /// as the move starts, so a move may spend it at once. A fixed-limit search is only
    /// bound by [`Clock::allowance`].
    pub fn charge(&mut self, side: Color, elapsed: Duration) -> Result<(), TimeUp> {
        let used_ms = elapsed.as_millis().min(u64::MAX as u128) as u64;
        let allowed_ms = self.allowance(side).as_millis() as u64;
        if used_ms > allowed_ms {
            return Err(TimeUp {
                used_ms,
                allowed_ms,
            });
        }
        let tc = &self.tc[side.index()];
        if !tc.is_fixed() {
            let left = &mut self.remaining[side.index()];
            *left = (*left + tc.inc_ms).saturating_sub(used_ms);
        }
        Ok(())
    }

    /// Main time left for `side`.
    pub fn remaining_ms(&self, side: Color) -> u64 {
        self.remaining[side.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(time_ms: u64, inc_ms: u64, byoyomi_ms: u64) -> TimeControl {
        TimeControl {
            time_ms,
            inc_ms,
            byoyomi_ms,
            ..TimeControl::default()
        }
    }

    #[test]
    fn byoyomi_is_spent_after_the_main_time() {
        let mut clock = Clock::new([tc(1000, 0, 500), tc(1000, 0, 500)], 100, 60_000);
        assert_eq!(
            clock.go_command(Color::Black),
            "go btime 1000 wtime 1000 byoyomi 500"
        );
        assert_eq!(clock.allowance(Color::Black), Duration::from_millis(1600));
        clock
            .charge(Color::Black, Duration::from_millis(1200))
            .unwrap();
        assert_eq!(clock.remaining_ms(Color::Black), 0);
        // Byoyomi is not used up: the next move again has byoyomi + margin.
        clock
            .charge(Color::Black, Duration::from_millis(600))
            .unwrap();
        let late = clock.charge(Color::Black, Duration::from_millis(601));
        assert_eq!(
            late,
            Err(TimeUp {
                used_ms: 601,
                allowed_ms: 600
            })
        );
    }

    #[test]
    fn fischer_increments_may_be_spent_by_the_move_they_belong_to() {
        let mut clock = Clock::new([tc(1000, 100, 0), tc(2000, 50, 0)], 0, 60_000);
        assert_eq!(clock.time_limit(Color::Black), Some(1100));
        clock
            .charge(Color::Black, Duration::from_millis(300))
            .unwrap();
        assert_eq!(clock.remaining_ms(Color::Black), 800);
        assert_eq!(
            clock.go_command(Color::White),
            "go btime 800 wtime 2000 binc 100 winc 50"
        );
        // `btime 800 binc 100`: 900 ms may be spent now, and then nothing is left.
        assert_eq!(clock.allowance(Color::Black), Duration::from_millis(900));
        clock
            .charge(Color::Black, Duration::from_millis(900))
            .unwrap();
        assert_eq!(clock.remaining_ms(Color::Black), 0);
        // The next move has its own increment only.
        let late = clock.charge(Color::Black, Duration::from_millis(101));
        assert_eq!(
            late,
            Err(TimeUp {
                used_ms: 101,
                allowed_ms: 100
            })
        );
    }

    #[test]
    fn fixed_limits_send_nodes_or_depth_and_wait_the_move_timeout() {
        let fixed = TimeControl {
            nodes: Some(5000),
            depth: Some(3),
            ..TimeControl::default()
        };
        let clock = Clock::new([fixed.clone(), tc(0, 0, 100)], 50, 7000);
        assert_eq!(clock.go_command(Color::Black), "go nodes 5000 depth 3");
        assert_eq!(clock.allowance(Color::Black), Duration::from_millis(7000));
        assert_eq!(clock.allowance(Color::White), Duration::from_millis(150));
        assert!(fixed.validate().is_ok());
        assert!(tc(0, 0, 0).validate().is_err());
        assert!(tc(100, 10, 10).validate().is_err());
        let mixed = TimeControl {
            byoyomi_ms: 10,
            ..fixed
        };
        assert!(mixed.validate().is_err());
    }
}
