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

impl GoParams {
    /// Parses the tokens after `go`. Unparsable values are skipped; each yields a warning
    /// for an `info string`.
    pub fn parse(tokens: &[&str]) -> (GoParams, Vec<String>) {
        let mut p = GoParams::default();
        let mut warnings = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            i += 1;
            match key {
                "btime" => p.btime = number(tokens, &mut i, key, &mut warnings),
                "wtime" => p.wtime = number(tokens, &mut i, key, &mut warnings),
                "byoyomi" => p.byoyomi = number(tokens, &mut i, key, &mut warnings),
                "binc" => p.binc = number(tokens, &mut i, key, &mut warnings),
                "winc" => p.winc = number(tokens, &mut i, key, &mut warnings),
                "movetime" => p.movetime = number(tokens, &mut i, key, &mut warnings),
                "nodes" => p.nodes = number(tokens, &mut i, key, &mut warnings),
                "depth" => {
                    p.depth = number(tokens, &mut i, key, &mut warnings).map(|d| d.min(255) as u32)
                }
                "perft" => {
                    p.perft = number(tokens, &mut i, key, &mut warnings).map(|d| d.min(255) as u32)
                }
                "ponder" => p.ponder = true,
                "infinite" => p.infinite = true,
                "mate" => {
                    if tokens.get(i) == Some(&"infinite") {
                        i += 1;
                        p.mate = Some(None);
                    } else {
                        p.mate = Some(number(tokens, &mut i, key, &mut warnings));
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
        (p, warnings)
    }
}

/// Reads the number after `key` at `tokens[*i]`, advancing past it. A bad value is
/// skipped (unless it is the next keyword) with a warning.
fn number(tokens: &[&str], i: &mut usize, key: &str, warnings: &mut Vec<String>) -> Option<u64> {
    let value = tokens.get(*i).copied();
    match value.and_then(|v| v.parse::<i64>().ok()) {
        Some(n) => {
            *i += 1;
            Some(n.max(0) as u64)
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
}
