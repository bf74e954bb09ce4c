//! Game records: all games of a match in one CSA file (for other shogi software) and one
//! JSON object per game in a JSON-lines file (for scripts).
//!
//! The CSA text is written by hand (no crate knows the format); the JSON goes through
//! serde, and is read back when a match is resumed.

use super::game::{EndReason, GameRecord, Outcome, PlayedMove};
use super::opening::Opening;
pub use crate::datetime::utc_datetime;
use crate::types::Color;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// A move in CSA notation (`+7776FU`); the one writer is the position module's.
pub use crate::position::csa::move_to_csa as csa_move;
use crate::position::csa::{position_to_csa as csa_position, sign as csa_sign};

/// The CSA line that ends a game. `to_move` is the side to move when the game ended.
fn csa_end(outcome: Outcome, reason: EndReason, to_move: Color) -> String {
    let loser_action = || match outcome {
        Outcome::Win(winner) => format!("%{}ILLEGAL_ACTION", csa_sign(!winner)),
        _ => "%CHUDAN".to_string(),
    };
    match reason {
        EndReason::Checkmate => "%TSUMI".into(),
        EndReason::Sennichite => "%SENNICHITE".into(),
        EndReason::Declaration => "%KACHI".into(),
        EndReason::TimeUp => "%TIME_UP".into(),
        EndReason::MaxMoves => "%JISHOGI".into(),
        EndReason::AdjudicatedDraw => "%HIKIWAKE".into(),
        EndReason::Aborted => "%CHUDAN".into(),
        EndReason::IllegalMove | EndReason::UnparsableMove | EndReason::WrongDeclaration => {
            "%ILLEGAL_MOVE".into()
        }
        // These read as "the side to move resigned" when the loser is to move.
        EndReason::Resign | EndReason::AdjudicatedLoss | EndReason::TryRule
            if outcome == Outcome::Win(!to_move) =>
        {
            "%TORYO".into()
        }
        _ => loser_action(),
    }
}

/// Removes line breaks, so free text stays on one record line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// One game in CSA format (V2.2), without the `/` that separates games in a file.
pub fn csa_game(record: &GameRecord) -> String {
    let mut out = String::from("V2.2\n");
    let _ = writeln!(out, "N+{}", one_line(&record.names[0]));
    let _ = writeln!(out, "N-{}", one_line(&record.names[1]));
    let (y, mo, d, h, mi, s) = utc_datetime(record.started_unix);
    let _ = writeln!(out, "$EVENT:hayate match game {}", record.index + 1);
    let _ = writeln!(
        out,
        "$START_TIME:{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"
    );
    let _ = writeln!(
        out,
        "'opening {}: {}",
        record.opening_index + 1,
        record.opening
    );
    let mut pos = record.opening.start_position();
    out.push_str(&csa_position(&pos, record.opening.sfen.is_none()));
    for &mv in &record.opening.moves {
        let _ = writeln!(out, "{}", csa_move(&pos, mv));
        pos.play_unchecked(mv);
    }
    if !record.opening.moves.is_empty() {
        out.push_str("'end of opening\n");
    }
    for played in &record.moves {
        let _ = writeln!(out, "{}", csa_move(&pos, played.mv));
        let _ = writeln!(out, "T{}", played.time_ms / 1000);
        pos.play_unchecked(played.mv);
    }
    let _ = writeln!(
        out,
        "'{} {}: {}",
        record.outcome.notation(),
        record.reason,
        one_line(&record.detail)
    );
    let _ = writeln!(
        out,
        "{}",
        csa_end(record.outcome, record.reason, pos.side_to_move())
    );
    out
}

/// One game as the JSON-lines file holds it. Game, opening and engine numbers are 1-based;
/// `times_ms` are the moves' thinking times and `limits_ms` what each mover's clock allowed
/// (`null` under a fixed node or depth limit); `scores` are each mover's own view in
/// centipawns (mates as ±(100000 − plies)), `null` where the engine reported none;
/// `depths` and `nodes` what each mover's last `info` line gave (empty lists in records
/// written before they were kept).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonGame {
    pub game: usize,
    pub engines: [String; 2],
    pub black: String,
    pub white: String,
    pub black_engine: usize,
    pub white_engine: usize,
    pub opening: usize,
    pub start: String,
    pub opening_moves: Vec<String>,
    pub moves: Vec<String>,
    pub times_ms: Vec<u64>,
    pub limits_ms: Vec<Option<u64>>,
    pub scores: Vec<Option<i32>>,
    #[serde(default)]
    pub depths: Vec<Option<u32>>,
    #[serde(default)]
    pub nodes: Vec<Option<u64>>,
    pub plies: usize,
    pub result: String,
    pub winner: Option<String>,
    pub winner_engine: Option<usize>,
    pub reason: String,
    pub detail: String,
    pub started_unix: u64,
}

/// One game as a single-line JSON object (see [`JsonGame`] for the fields).
pub fn json_game(record: &GameRecord, engine_names: &[String; 2]) -> String {
    let game = JsonGame {
        game: record.index + 1,
        engines: engine_names.clone(),
        black: record.names[0].clone(),
        white: record.names[1].clone(),
        black_engine: record.engine_of[0] + 1,
        white_engine: record.engine_of[1] + 1,
        opening: record.opening_index + 1,
        start: record.opening.usi_start(),
        opening_moves: record.opening.moves.iter().map(|m| m.to_string()).collect(),
        moves: record.moves.iter().map(|m| m.mv.to_string()).collect(),
        times_ms: record.moves.iter().map(|m| m.time_ms).collect(),
        limits_ms: record.moves.iter().map(|m| m.limit_ms).collect(),
        scores: record.moves.iter().map(|m| m.score).collect(),
        depths: record.moves.iter().map(|m| m.depth).collect(),
        nodes: record.moves.iter().map(|m| m.nodes).collect(),
        plies: record.moves.len(),
        result: record.outcome.notation().to_string(),
        winner: match record.outcome {
            Outcome::Win(c) => Some(c.to_string()),
            _ => None,
        },
        winner_engine: match record.outcome {
            Outcome::Win(c) => Some(record.engine_of[c.index()] + 1),
            _ => None,
        },
        reason: record.reason.as_str().to_string(),
        detail: record.detail.clone(),
        started_unix: record.started_unix,
    };
    serde_json::to_string(&game).expect("a game record always serialises")
}

/// Reads one JSON line back into the game and the match's engine names, checking that
/// it is a game the runner could have written: moves legal, numbers in range, a known
/// result and reason, and lists of one length.
pub fn parse_json_game(line: &str) -> Result<(GameRecord, [String; 2]), String> {
    let json: JsonGame = serde_json::from_str(line).map_err(|e| e.to_string())?;
    let opening_text = if json.opening_moves.is_empty() {
        json.start.clone()
    } else {
        format!("{} moves {}", json.start, json.opening_moves.join(" "))
    };
    let opening = Opening::parse(&opening_text).map_err(|e| format!("opening: {e}"))?;
    let engine = |n: usize| match n {
        1 | 2 => Ok(n - 1),
        _ => Err(format!("engine number {n} is not 1 or 2")),
    };
    let engine_of = [engine(json.black_engine)?, engine(json.white_engine)?];
    if engine_of[0] == engine_of[1] {
        return Err("one engine plays both colours".into());
    }
    let n = json.moves.len();
    if [
        json.times_ms.len(),
        json.limits_ms.len(),
        json.scores.len(),
        json.plies,
    ] != [n; 4]
    {
        return Err("moves, times, limits and scores differ in length".into());
    }
    // Records written before depths and nodes were kept have neither.
    if ![0, n].contains(&json.depths.len()) || ![0, n].contains(&json.nodes.len()) {
        return Err("moves, depths and nodes differ in length".into());
    }
    if json.game == 0 || json.opening == 0 {
        return Err("game and opening numbers start at 1".into());
    }
    let mut pos = opening.position();
    let mut moves = Vec::with_capacity(n);
    for (i, text) in json.moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.play_unchecked(mv);
        moves.push(PlayedMove {
            mv,
            time_ms: json.times_ms[i],
            score: json.scores[i],
            depth: json.depths.get(i).copied().flatten(),
            nodes: json.nodes.get(i).copied().flatten(),
            limit_ms: json.limits_ms[i],
        });
    }
    let outcome = match json.result.as_str() {
        "1-0" => Outcome::Win(Color::Black),
        "0-1" => Outcome::Win(Color::White),
        "1/2-1/2" => Outcome::Draw,
        "*" => Outcome::NoResult,
        other => return Err(format!("unknown result '{other}'")),
    };
    let reason = EndReason::ALL
        .into_iter()
        .find(|r| r.as_str() == json.reason)
        .ok_or_else(|| format!("unknown reason '{}'", json.reason))?;
    let record = GameRecord {
        index: json.game - 1,
        opening_index: json.opening - 1,
        opening,
        engine_of,
        names: [json.black, json.white],
        started_unix: json.started_unix,
        moves,
        outcome,
        reason,
        detail: json.detail,
    };
    Ok((record, json.engines))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn record(opening: &str, moves: &[&str], outcome: Outcome, reason: EndReason) -> GameRecord {
        let opening = Opening::parse(opening).unwrap();
        let mut pos = opening.start_position();
        for &m in &opening.moves {
            pos.play_unchecked(m);
        }
        let moves = moves
            .iter()
            .map(|t| {
                let mv = pos.parse_move(t).unwrap();
                pos.play_unchecked(mv);
                PlayedMove {
                    mv,
                    time_ms: 1500,
                    score: Some(-20),
                    depth: Some(9),
                    nodes: Some(12345),
                    limit_ms: Some(2000),
                }
            })
            .collect();
        GameRecord {
            index: 2,
            opening_index: 0,
            opening,
            engine_of: [1, 0],
            names: ["two".into(), "one \"quoted\"".into()],
            started_unix: 86_400 * 365,
            moves,
            outcome,
            reason,
            detail: "line\nbreak".into(),
        }
    }

    #[test]
    fn csa_moves_name_the_piece_after_the_move() {
        let pos: Position = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
            .parse()
            .unwrap();
        assert_eq!(csa_move(&pos, pos.parse_move("2g2f").unwrap()), "+2726FU");
        assert_eq!(csa_move(&pos, pos.parse_move("8h2b+").unwrap()), "+8822UM");
        let mut after = pos.clone();
        after.play_unchecked(pos.parse_move("8h2b+").unwrap());
        assert_eq!(
            csa_move(&after, after.parse_move("3a2b").unwrap()),
            "-3122GI"
        );
        after.play_unchecked(after.parse_move("3a2b").unwrap());
        assert_eq!(
            csa_move(&after, after.parse_move("B*5e").unwrap()),
            "+0055KA"
        );
    }

    #[test]
    fn csa_game_has_header_moves_times_and_end() {
        let r = record(
            "startpos moves 7g7f",
            &["3c3d", "8h2b+"],
            Outcome::Win(Color::Black),
            EndReason::Resign,
        );
        let text = csa_game(&r);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(&lines[..3], ["V2.2", "N+two", "N-one \"quoted\""]);
        assert!(lines.contains(&"PI"));
        let body: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with(['+', '-', 'T', '%']))
            .collect();
        assert_eq!(
            body,
            ["+", "+7776FU", "-3334FU", "T1", "+8822UM", "T1", "%TORYO"]
        );
        assert!(lines.contains(&"$START_TIME:1971/01/01 00:00:00"));
        assert!(lines.contains(&"'1-0 resign: line break"));
    }

    #[test]
    fn csa_writes_a_non_standard_start_in_full() {
        let r = record(
            "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
            &[],
            Outcome::Draw,
            EndReason::MaxMoves,
        );
        let text = csa_game(&r);
        assert!(text.contains("P1 *  *  *  * -OU *  *  *  * \n"), "{text}");
        assert!(text.contains("P9 *  *  *  * +OU *  *  *  * \n"), "{text}");
        assert!(text.contains("P+00FU00FU\n+\n"), "{text}");
        assert!(text.ends_with("%JISHOGI\n"));
    }

    #[test]
    fn csa_end_lines_name_the_loser() {
        use EndReason::*;
        let b = Outcome::Win(Color::Black);
        assert_eq!(csa_end(b, Resign, Color::White), "%TORYO");
        assert_eq!(csa_end(b, Crash, Color::White), "%-ILLEGAL_ACTION");
        assert_eq!(csa_end(b, NotReady, Color::Black), "%-ILLEGAL_ACTION");
        assert_eq!(csa_end(b, PerpetualCheck, Color::Black), "%-ILLEGAL_ACTION");
        assert_eq!(csa_end(b, Checkmate, Color::White), "%TSUMI");
        assert_eq!(
            csa_end(Outcome::NoResult, NotReady, Color::Black),
            "%CHUDAN"
        );
    }

    #[test]
    fn json_game_is_one_escaped_line() {
        let r = record(
            "startpos",
            &["7g7f"],
            Outcome::Win(Color::White),
            EndReason::IllegalMove,
        );
        let names = ["one \"quoted\"".to_string(), "two".to_string()];
        let line = json_game(&r, &names);
        assert!(!line.contains('\n'));
        assert!(line.starts_with("{\"game\":3,\"engines\":[\"one \\\"quoted\\\"\",\"two\"]"));
        assert!(line.contains(
            "\"moves\":[\"7g7f\"],\"times_ms\":[1500],\"limits_ms\":[2000],\"scores\":[-20]"
        ));
        assert!(line.contains("\"depths\":[9],\"nodes\":[12345]"), "{line}");
        assert!(line.contains("\"winner\":\"white\",\"winner_engine\":1"));
        assert!(line.contains("\"detail\":\"line\\nbreak\""));
        let control = GameRecord {
            detail: "a\u{1}b".into(),
            ..r.clone()
        };
        assert!(json_game(&control, &names).contains("\"detail\":\"a\\u0001b\""));
    }

    #[test]
    fn json_lines_read_back_into_the_same_game() {
        let names = ["hayate".to_string(), "other".to_string()];
        for r in [
            record(
                "startpos moves 7g7f",
                &["3c3d", "8h2b+", "3a2b"],
                Outcome::Win(Color::Black),
                EndReason::Resign,
            ),
            record(
                "sfen 4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
                &["P*5b"],
                Outcome::Draw,
                EndReason::MaxMoves,
            ),
        ] {
            let line = json_game(&r, &names);
            let (back, engines) = parse_json_game(&line).unwrap();
            assert_eq!(engines, names);
            assert_eq!(json_game(&back, &names), line);
            assert_eq!(csa_game(&back), csa_game(&r));
        }
    }

    #[test]
    fn json_lines_without_depths_and_nodes_still_read() {
        // Records written before depths and nodes were kept have neither field.
        let names = ["a".to_string(), "b".to_string()];
        let r = record("startpos", &["7g7f"], Outcome::Draw, EndReason::MaxMoves);
        let line = json_game(&r, &names).replace(",\"depths\":[9],\"nodes\":[12345]", "");
        assert!(!line.contains("depths"), "{line}");
        let (back, _) = parse_json_game(&line).unwrap();
        assert_eq!(back.moves[0].depth, None);
        assert_eq!(back.moves[0].nodes, None);
        assert_eq!(back.moves[0].score, Some(-20));
    }

    #[test]
    fn json_lines_that_no_runner_wrote_are_refused() {
        let names = ["a".to_string(), "b".to_string()];
        let r = record("startpos", &["7g7f"], Outcome::Draw, EndReason::MaxMoves);
        let line = json_game(&r, &names);
        for (from, to, why) in [
            ("\"7g7f\"]", "\"7g7g\"]", "move 1"),
            (
                "\"result\":\"1/2-1/2\"",
                "\"result\":\"2-0\"",
                "unknown result",
            ),
            (
                "\"reason\":\"max_moves\"",
                "\"reason\":\"boredom\"",
                "unknown reason",
            ),
            ("\"plies\":1", "\"plies\":2", "length"),
            ("\"depths\":[9]", "\"depths\":[9,9]", "depths and nodes"),
            ("\"nodes\":[12345]", "\"nodes\":[1,2]", "depths and nodes"),
            ("\"black_engine\":2", "\"black_engine\":1", "both colours"),
            ("\"start\":\"startpos\"", "\"start\":\"kifu\"", "opening"),
        ] {
            let bad = line.replace(from, to);
            assert_ne!(bad, line, "{from}");
            let err = parse_json_game(&bad).unwrap_err();
            assert!(err.contains(why), "{err}");
        }
        assert!(parse_json_game(&line[..line.len() - 1]).is_err());
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_datetime(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(utc_datetime(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(utc_datetime(1_700_000_000), (2023, 11, 14, 22, 13, 20));
    }
}
