//! The client's clock: both sides' time as the server counts it, kept from the times the
//! server sends with every move (`+7776FU,T3`), and the `go` command that keeps the
//! engine inside it.
//!
//! The server is the only judge of time, so the clock never uses the client's own
//! measurements; those are kept beside it ([`OwnClock`]) to report how far apart the two
//! views drifted.

use super::protocol::TimeRules;
use crate::types::Color;

/// What the server has charged each side, by its own rules.
#[derive(Clone, Debug)]
pub struct Clock {
    rules: [TimeRules; 2],
    /// Main time left by colour, in milliseconds.
    remaining_ms: [u64; 2],
}

impl Clock {
    pub fn new(rules: [TimeRules; 2]) -> Clock {
        Clock {
            remaining_ms: [rules[0].total_ms(), rules[1].total_ms()],
            rules,
        }
    }

    pub fn rules(&self, side: Color) -> &TimeRules {
        &self.rules[side.index()]
    }

    /// Main time left for `side`, in milliseconds.
    pub fn remaining_ms(&self, side: Color) -> u64 {
        self.remaining_ms[side.index()]
    }

    /// Charges `side` for one move the server timed at `units` (its `T` value): the
    /// increment is added, the time taken off, and the main time never goes below zero
    /// (byoyomi is per move and does not carry over), as shogi-server counts.
    pub fn charge(&mut self, side: Color, units: u64) {
        let rules = self.rules[side.index()];
        let used = units.max(rules.least_per_move) * rules.unit_ms;
        let r = &mut self.remaining_ms[side.index()];
        *r = (*r + rules.increment_ms()).saturating_sub(used);
    }

    /// The most `side` may take for its next move before the server calls time: main time
    /// plus byoyomi plus increment, less one unit when the server rounds up (a move of
    /// 9.2 s is then charged 10 s).
    pub fn allowance_ms(&self, side: Color) -> u64 {
        let rules = &self.rules[side.index()];
        let all = self.remaining_ms(side) + rules.byoyomi_ms() + rules.increment_ms();
        if rules.roundup {
            all.saturating_sub(rules.unit_ms)
        } else {
            all
        }
    }

    /// Whether the rules give any time at all (a summary with no clock means no limit).
    pub fn is_unlimited(&self, side: Color) -> bool {
        let r = &self.rules[side.index()];
        r.total == 0 && r.byoyomi == 0 && r.increment == 0
    }

    /// The USI `go` command for `side`'s move (with `ponder` when it is sent to think on
    /// the opponent's time), `margin_ms` taken off `side`'s time so that the move reaches
    /// the server in time: first from the main time, then from the byoyomi or increment.
    /// Times are what the server allows; the engine's own time management does the rest.
    /// `inc_as_byoyomi` sends an increment as `byoyomi`, for engines that know no
    /// `binc`/`winc`: the move may use the same time, only the planning differs.
    pub fn go_command(
        &self,
        side: Color,
        margin_ms: u64,
        ponder: bool,
        inc_as_byoyomi: bool,
    ) -> String {
        if self.is_unlimited(side) {
            return if ponder {
                "go ponder infinite"
            } else {
                "go infinite"
            }
            .to_string();
        }
        let rules = self.rules[side.index()];
        let margin = margin_ms + if rules.roundup { rules.unit_ms } else { 0 };
        let mut time = self.remaining_ms;
        let own = &mut time[side.index()];
        let from_main = margin.min(*own);
        *own -= from_main;
        let rest = margin - from_main;
        let mut out = String::from("go");
        if ponder {
            out.push_str(" ponder");
        }
        out.push_str(&format!(" btime {} wtime {}", time[0], time[1]));
        if rules.increment > 0 && inc_as_byoyomi {
            let byoyomi = rules.increment_ms().saturating_sub(rest);
            out.push_str(&format!(" byoyomi {byoyomi}"));
        } else if rules.increment > 0 {
            let mut inc = [self.rules[0].increment_ms(), self.rules[1].increment_ms()];
            inc[side.index()] = inc[side.index()].saturating_sub(rest);
            out.push_str(&format!(" binc {} winc {}", inc[0], inc[1]));
        } else {
            let byoyomi = rules.byoyomi_ms().saturating_sub(rest);
            out.push_str(&format!(" byoyomi {byoyomi}"));
        }
        out
    }
}

/// The client's own view of its clock: the same rules applied to the times it measured
/// itself, each rounded as the server rounds. The gap to the server's [`Clock`] is network
/// and scheduling delay, reported after each game.
#[derive(Clone, Debug)]
pub struct OwnClock {
    clock: Clock,
    side: Color,
    /// The largest gap seen between the two clocks' main times, in ms.
    pub largest_gap_ms: u64,
}

impl OwnClock {
    pub fn new(rules: [TimeRules; 2], side: Color) -> OwnClock {
        OwnClock {
            clock: Clock::new(rules),
            side,
            largest_gap_ms: 0,
        }
    }

    /// Charges the client's own move, measured at `measured_ms`, and compares the result
    /// with the server's clock after the same move.
    pub fn charge(&mut self, measured_ms: u64, server: &Clock) {
        let rules = *self.clock.rules(self.side);
        let units = if rules.roundup {
            measured_ms.div_ceil(rules.unit_ms)
        } else {
            measured_ms / rules.unit_ms
        };
        self.clock.charge(self.side, units);
        let gap = self
            .clock
            .remaining_ms(self.side)
            .abs_diff(server.remaining_ms(self.side));
        self.largest_gap_ms = self.largest_gap_ms.max(gap);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(total: u64, byoyomi: u64, increment: u64) -> TimeRules {
        TimeRules {
            total,
            byoyomi,
            increment,
            ..TimeRules::default()
        }
    }

    #[test]
    fn byoyomi_clock() {
        let r = rules(10, 5, 0);
        let mut clock = Clock::new([r, r]);
        assert_eq!(
            clock.go_command(Color::Black, 500, false, false),
            "go btime 9500 wtime 10000 byoyomi 5000"
        );
        clock.charge(Color::Black, 8);
        assert_eq!(clock.remaining_ms(Color::Black), 2000);
        clock.charge(Color::Black, 4);
        assert_eq!(clock.remaining_ms(Color::Black), 0);
        assert_eq!(clock.allowance_ms(Color::Black), 5000);
        // The margin comes out of the byoyomi once the main time is gone.
        assert_eq!(
            clock.go_command(Color::Black, 500, true, false),
            "go ponder btime 0 wtime 10000 byoyomi 4500"
        );
    }

    #[test]
    fn fischer_clock() {
        let r = rules(60, 0, 2);
        let mut clock = Clock::new([r, r]);
        clock.charge(Color::White, 5);
        assert_eq!(clock.remaining_ms(Color::White), 57_000);
        assert_eq!(
            clock.go_command(Color::White, 1000, false, false),
            "go btime 60000 wtime 56000 binc 2000 winc 2000"
        );
        let mut low = Clock::new([rules(0, 0, 2), rules(0, 0, 2)]);
        low.charge(Color::Black, 1);
        assert_eq!(low.remaining_ms(Color::Black), 1000);
        assert_eq!(
            low.go_command(Color::Black, 1500, false, false),
            "go btime 0 wtime 0 binc 1500 winc 2000"
        );
        assert_eq!(
            low.go_command(Color::Black, 1500, false, true),
            "go btime 0 wtime 0 byoyomi 1500"
        );
        assert_eq!(low.allowance_ms(Color::Black), 3000);
    }

    #[test]
    fn least_time_and_roundup() {
        let r = TimeRules {
            least_per_move: 1,
            roundup: true,
            ..rules(10, 0, 0)
        };
        let mut clock = Clock::new([r, r]);
        clock.charge(Color::Black, 0);
        assert_eq!(clock.remaining_ms(Color::Black), 9000);
        assert_eq!(clock.allowance_ms(Color::Black), 8000);
        assert_eq!(
            clock.go_command(Color::Black, 200, false, false),
            "go btime 7800 wtime 10000 byoyomi 0"
        );
        let none = Clock::new([TimeRules::default(); 2]);
        assert_eq!(
            none.go_command(Color::White, 100, false, false),
            "go infinite"
        );
    }

    #[test]
    fn own_clock_gap() {
        let r = rules(10, 0, 0);
        let mut server = Clock::new([r, r]);
        let mut own = OwnClock::new([r, r], Color::Black);
        server.charge(Color::Black, 3);
        own.charge(3_400, &server);
        assert_eq!(own.largest_gap_ms, 0);
        server.charge(Color::Black, 2);
        own.charge(1_900, &server);
        assert_eq!(own.largest_gap_ms, 1000);
    }
}
