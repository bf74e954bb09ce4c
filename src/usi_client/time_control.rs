//! The time control an engine plays under, as the USI `go` command can express it.
//!
//! It lives beside the engine client because every driver of an engine (`hayate match`,
//! the CSA bridge, the labeller) describes the engine's thinking time with it.

use std::fmt;

/// How long an engine may think: a clock (main time, then byoyomi or a Fischer increment),
/// or a fixed search limit (`go nodes` / `go depth`) with no clock at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Main time at the start of the game.
    pub time_ms: u64,
    /// Fischer increment: each move may use it as it starts (`btime 40000 binc 10000`
    /// allows 50 s, as USI GUIs mean it), and what is left over stays on the clock.
    pub inc_ms: u64,
    /// Byoyomi: time per move once the main time is spent.
    pub byoyomi_ms: u64,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl TimeControl {
    /// Whether the engine searches to a fixed limit instead of playing on a clock.
    pub fn is_fixed(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some()
    }

    /// Checks that the settings describe one playable control.
    pub fn validate(&self) -> Result<(), String> {
        let clock = self.time_ms > 0 || self.inc_ms > 0 || self.byoyomi_ms > 0;
        if self.is_fixed() && clock {
            return Err(format!(
                "'{self}': choose either a clock (--time/--inc/--byoyomi) or a fixed \
                 limit (--nodes/--depth)"
            ));
        }
        if !self.is_fixed() && !clock {
            return Err(
                "no time control: give --byoyomi, --time, --inc, --nodes or --depth".into(),
            );
        }
        if self.inc_ms > 0 && self.byoyomi_ms > 0 {
            return Err("USI cannot combine an increment with byoyomi: use one of them".into());
        }
        Ok(())
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_fixed() {
            let mut parts = Vec::new();
            if let Some(n) = self.nodes {
                parts.push(format!("nodes {n}"));
            }
            if let Some(d) = self.depth {
                parts.push(format!("depth {d}"));
            }
            return f.write_str(&parts.join(", "));
        }
        let mut parts = Vec::new();
        if self.time_ms > 0 {
            parts.push(format!("time {} ms", self.time_ms));
        }
        if self.inc_ms > 0 {
            parts.push(format!("inc {} ms", self.inc_ms));
        }
        if self.byoyomi_ms > 0 {
            parts.push(format!("byoyomi {} ms", self.byoyomi_ms));
        }
        f.write_str(&parts.join(" + "))
    }
}
