//! The parameters of a `go` command.

/// What `go` asked for. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub byoyomi: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub ponder: bool,
    pub infinite: bool,
    /// `go mate <ms>`: `Some(None)` for `go mate infinite`.
    pub mate: Option<Option<u64>>,
    pub perft: Option<u32>,
    /// Restrict the answer to these moves (USI text, checked against the position later).
    pub searchmoves: Vec<String>,
}

/// Largest time taken from `go` (ms), about 31 years: larger values mean "no hurry" and
/// are clamped, so deadlines computed from them never overflow.
pub const MAX_MILLIS: u64 = 1_000_000_000_000;

/// Deepest `go depth` / `go perft` taken.
pub const MAX_DEPTH: u64 = 255;

/// The search a `go` gets when a malformed value was dropped and no limit is left: a
/// bad limit must not become a search without end.
pub const FALLBACK_MILLIS: u64 = 1000;

/// Problems reported one by one in the `info string`; the rest are counted.
const WARNINGS_SHOWN: usize = 3;

impl GoParams {
    /// Parses the tokens after `go`. Numbers past their range are clamped; malformed
    /// values are skipped with a warning for an `info string` (at most a few, then a
    /// count). If that leaves a `go` without any limit, it gets a fixed
    /// [`FALLBACK_MILLIS`] instead of running until `stop`.
    pub fn parse(tokens: &[&str]) -> (GoParams, Vec<String>) {
        let mut p = GoParams::default();
        let mut warnings = Warnings::default();
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            i += 1;
            let ms = |i: &mut usize, w: &mut Warnings| {
                number(tokens, i, key, w).map(|n| n.min(MAX_MILLIS))
            };
            match key {
                "btime" => p.btime = ms(&mut i, &mut warnings),
                "wtime" => p.wtime = ms(&mut i, &mut warnings),
                "byoyomi" => p.byoyomi = ms(&mut i, &mut warnings),
                "binc" => p.binc = ms(&mut i, &mut warnings),
                "winc" => p.winc = ms(&mut i, &mut warnings),
                "movetime" => p.movetime = ms(&mut i, &mut warnings),
                "nodes" => p.nodes = number(tokens, &mut i, key, &mut warnings),
                "depth" => {
                    p.depth =
                        number(tokens, &mut i, key, &mut warnings).map(|d| d.min(MAX_DEPTH) as u32)
                }
                "perft" => {
                    p.perft =
                        number(tokens, &mut i, key, &mut warnings).map(|d| d.min(MAX_DEPTH) as u32)
                }
                "ponder" => p.ponder = true,
                "infinite" => p.infinite = true,
                "mate" => {
                    if tokens.get(i) == Some(&"infinite") {
                        i += 1;
                        p.mate = Some(None);
                    } else {
                        let millis = ms(&mut i, &mut warnings).unwrap_or_else(|| {
                            warnings.push(format!("go mate: solving for {FALLBACK_MILLIS} ms"));
                            FALLBACK_MILLIS
                        });
                        p.mate = Some(Some(millis));
                    }
                }
                "searchmoves" => {
                    while i < tokens.len() && !is_keyword(tokens[i]) {
                        p.searchmoves.push(tokens[i].to_string());
                        i += 1;
                    }
                }
                other => {
                    let shown: String = other.chars().take(30).collect();
                    warnings.push(format!("go: unknown parameter '{shown}' ignored"));
                }
            }
        }
        let unlimited = p.btime.is_none()
            && p.wtime.is_none()
            && p.byoyomi.is_none()
            && p.binc.is_none()
            && p.winc.is_none()
            && p.movetime.is_none()
            && p.depth.is_none()
            && p.nodes.is_none()
            && p.mate.is_none()
            && p.perft.is_none()
            && !p.infinite
            && !p.ponder;
        let fallback = warnings.count > 0 && unlimited;
        let mut notes = warnings.finish();
        if fallback {
            p.movetime = Some(FALLBACK_MILLIS);
            notes.push(format!(
                "go: no valid limit left, searching {FALLBACK_MILLIS} ms"
            ));
        }
        (p, notes)
    }
}

/// The warnings of one `go` line: the first few in full, the rest counted.
#[derive(Default)]
struct Warnings {
    shown: Vec<String>,
    count: usize,
}

impl Warnings {
    fn push(&mut self, text: String) {
        if self.shown.len() < WARNINGS_SHOWN {
            self.shown.push(text);
        }
        self.count += 1;
    }

    fn finish(mut self) -> Vec<String> {
        if self.count > self.shown.len() {
            let more = self.count - self.shown.len();
            let noun = if more == 1 { "problem" } else { "problems" };
            self.shown.push(format!("{more} more {noun}"));
        }
        self.shown
    }
}

/// Reads the number after `key` at `tokens[*i]`, advancing past it: a non-negative
/// integer of any size, clamped to `u64` (a negative one counts as 0). A malformed value
/// is skipped (unless it is the next keyword) with a warning.
fn number(tokens: &[&str], i: &mut usize, key: &str, warnings: &mut Warnings) -> Option<u64> {
    let value = tokens.get(*i).copied();
    match value.and_then(parse_clamped) {
        Some(n) => {
            *i += 1;
            Some(n)
        }
        None => {
            let shown: String = value.unwrap_or("").chars().take(30).collect();
            warnings.push(format!("go {key}: expected a number, got '{shown}'"));
            if value.is_some_and(|v| !is_keyword(v)) {
                *i += 1;
            }
            None
        }
    }
}

/// An integer of any length, clamped to `0..=u64::MAX`.
fn parse_clamped(text: &str) -> Option<u64> {
    super::options::parse_integer(text).map(|n| n.clamp(0, u64::MAX as i128) as u64)
}

fn is_keyword(token: &str) -> bool {
    matches!(
        token,
        "btime"
            | "wtime"
            | "byoyomi"
            | "binc"
            | "winc"
            | "movetime"
            | "nodes"
            | "depth"
            | "perft"
            | "ponder"
            | "infinite"
            | "mate"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_parameters() {
        let t: Vec<&str> =
            "btime 1000 wtime 2000 byoyomi 3000 ponder searchmoves 7g7f 2g2f depth 5 mate infinite"
                .split(' ')
                .collect();
        let (p, w) = GoParams::parse(&t);
        assert!(w.is_empty());
        assert_eq!(p.btime, Some(1000));
        assert_eq!(p.wtime, Some(2000));
        assert_eq!(p.byoyomi, Some(3000));
        assert!(p.ponder);
        assert_eq!(p.searchmoves, vec!["7g7f", "2g2f"]);
        assert_eq!(p.depth, Some(5));
        assert_eq!(p.mate, Some(None));
    }

    #[test]
    fn bad_numbers_warn() {
        let (p, w) = GoParams::parse(&["btime", "x", "wtime", "5", "depth"]);
        assert_eq!(p.btime, None);
        assert_eq!(p.wtime, Some(5));
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn numbers_past_the_range_are_clamped_not_dropped() {
        let (p, w) = GoParams::parse(&[
            "btime",
            "18446744073709551615",
            "wtime",
            "99999999999999999999999",
            "depth",
            "9999999999999999999999",
            "nodes",
            "123456789012345678901234567890",
            "byoyomi",
            "-5",
        ]);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(p.btime, Some(MAX_MILLIS));
        assert_eq!(p.wtime, Some(MAX_MILLIS));
        assert_eq!(p.depth, Some(MAX_DEPTH as u32));
        assert_eq!(p.nodes, Some(u64::MAX));
        assert_eq!(p.byoyomi, Some(0));
    }

    #[test]
    fn a_bad_limit_never_becomes_an_endless_search() {
        let (p, w) = GoParams::parse(&["mate", "abc"]);
        assert_eq!(p.mate, Some(Some(FALLBACK_MILLIS)));
        assert!(!w.is_empty());
        let (p, _) = GoParams::parse(&["btime", "x", "wtime", "y", "byoyomi", "z"]);
        assert_eq!(p.movetime, Some(FALLBACK_MILLIS));
        // A plain `go` is a search until `stop`, as asked.
        let (p, w) = GoParams::parse(&[]);
        assert_eq!(p, GoParams::default());
        assert!(w.is_empty());
    }

    #[test]
    fn a_flood_of_junk_gives_a_few_warnings() {
        let junk = vec!["x"; 100_000];
        let (_, w) = GoParams::parse(&junk);
        assert_eq!(w.len(), WARNINGS_SHOWN + 2, "{w:?}");
        assert!(w[WARNINGS_SHOWN].contains("99997 more problems"), "{w:?}");
        assert!(w[WARNINGS_SHOWN + 1].contains("searching"), "{w:?}");
    }
}
