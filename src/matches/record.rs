//! Game records: all games of a match in one CSA file (for other shogi software) and one
//! JSON object per game in a JSON-lines file (for scripts).
//!
//! Both are written by hand: the formats are small, and the crate keeps its dependencies
//! to the few it has.

use super::game::{EndReason, GameRecord, Outcome};
use crate::types::{Color, File, PieceKind, Rank, Square};
use crate::Position;
use std::fmt::Write as _;

/// CSA name of a piece kind (`FU`, `TO`, `RY`, …).
fn csa_kind(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "FU",
        PieceKind::Lance => "KY",
        PieceKind::Knight => "KE",
        PieceKind::Silver => "GI",
        PieceKind::Gold => "KI",
        PieceKind::Bishop => "KA",
        PieceKind::Rook => "HI",
        PieceKind::King => "OU",
        PieceKind::ProPawn => "TO",
        PieceKind::ProLance => "NY",
        PieceKind::ProKnight => "NK",
        PieceKind::ProSilver => "NG",
        PieceKind::Horse => "UM",
        PieceKind::Dragon => "RY",
    }
}

fn csa_sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// A square as CSA writes it: file digit then rank digit (`7g` is `77`).
fn csa_square(sq: Square) -> String {
    format!("{}{}", sq.file().index() + 1, sq.rank().index() + 1)
}

/// A move in CSA notation (`+7776FU`, `-0055KA`, `+2822RY`), read against the position it
/// is played in, because CSA names the piece after the move.
pub fn csa_move(pos: &Position, mv: crate::types::Move) -> String {
    let sign = csa_sign(pos.side_to_move());
    let to = csa_square(mv.to());
    match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => {
            let kind = pos.piece_at(from).map_or(PieceKind::King, |p| p.kind());
            let kind = if mv.is_promotion() {
                kind.promoted()
            } else {
                kind
            };
            format!("{sign}{}{to}{}", csa_square(from), csa_kind(kind))
        }
        (None, kind) => format!("{sign}00{to}{}", csa_kind(kind.unwrap_or(PieceKind::Pawn))),
    }
}

/// The start position in CSA: `PI` for the even-game start, otherwise the nine board rows,
/// the hands and the side to move.
fn csa_position(pos: &Position, standard: bool) -> String {
    let mut out = String::new();
    if standard {
        out.push_str("PI\n");
    } else {
        for rank in 0..9u8 {
            let _ = write!(out, "P{}", rank + 1);
            for file in (0..9u8).rev() {
                let sq = Square::new(
                    File::new(file).expect("file"),
                    Rank::new(rank).expect("rank"),
                );
                match pos.piece_at(sq) {
                    None => out.push_str(" * "),
                    Some(p) => {
                        out.push(csa_sign(p.color()));
                        out.push_str(csa_kind(p.kind()));
                    }
                }
            }
            out.push('\n');
        }
        for color in Color::ALL {
            let hand = pos.hand(color);
            if hand.is_empty() {
                continue;
            }
            let _ = write!(out, "P{}", csa_sign(color));
            for kind in PieceKind::HAND {
                for _ in 0..hand.count(kind) {
                    let _ = write!(out, "00{}", csa_kind(kind));
                }
            }
            out.push('\n');
        }
    }
    out.push(csa_sign(pos.side_to_move()));
    out.push('\n');
    out
}

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

/// `YYYY/MM/DD HH:MM:SS` (UTC) for seconds since the Unix epoch.
pub fn utc_datetime(unix: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (unix / 86_400) as i64;
    let secs = unix % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        year,
        month,
        day,
        (secs / 3600) as u32,
        (secs / 60 % 60) as u32,
        (secs % 60) as u32,
    )
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

/// A JSON string literal.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_array<T>(items: &[T], item: impl Fn(&T) -> String) -> String {
    let inner: Vec<String> = items.iter().map(item).collect();
    format!("[{}]", inner.join(","))
}

/// One game as a single-line JSON object. Game, opening and engine numbers are 1-based;
/// `times_ms` are the moves' thinking times and `limits_ms` what each mover's clock allowed
/// (`null` under a fixed node or depth limit); `scores` are each mover's own view in
/// centipawns (mates as ±(100000 − plies)), `null` where the engine reported none.
pub fn json_game(record: &GameRecord, engine_names: &[String; 2]) -> String {
    let winner = match record.outcome {
        Outcome::Win(c) => json_string(&c.to_string()),
        _ => "null".into(),
    };
    let winner_engine = match record.outcome {
        Outcome::Win(c) => (record.engine_of[c.index()] + 1).to_string(),
        _ => "null".into(),
    };
    let fields = [
        ("game", (record.index + 1).to_string()),
        ("engines", json_array(engine_names, |n| json_string(n))),
        ("black", json_string(&record.names[0])),
        ("white", json_string(&record.names[1])),
        ("black_engine", (record.engine_of[0] + 1).to_string()),
        ("white_engine", (record.engine_of[1] + 1).to_string()),
        ("opening", (record.opening_index + 1).to_string()),
        ("start", json_string(&record.opening.usi_start())),
        (
            "opening_moves",
            json_array(&record.opening.moves, |m| json_string(&m.to_string())),
        ),
        (
            "moves",
            json_array(&record.moves, |m| json_string(&m.mv.to_string())),
        ),
        (
            "times_ms",
            json_array(&record.moves, |m| m.time_ms.to_string()),
        ),
        (
            "limits_ms",
            json_array(&record.moves, |m| {
                m.limit_ms.map_or("null".into(), |l| l.to_string())
            }),
        ),
        (
            "scores",
            json_array(&record.moves, |m| {
                m.score.map_or("null".into(), |s| s.to_string())
            }),
        ),
        ("plies", record.moves.len().to_string()),
        ("result", json_string(record.outcome.notation())),
        ("winner", winner),
        ("winner_engine", winner_engine),
        ("reason", json_string(record.reason.as_str())),
        ("detail", json_string(&record.detail)),
        ("started_unix", record.started_unix.to_string()),
    ];
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::game::PlayedMove;
    use crate::matches::opening::Opening;

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
        assert!(line.contains("\"winner\":\"white\",\"winner_engine\":1"));
        assert!(line.contains("\"detail\":\"line\\nbreak\""));
        assert_eq!(json_string("a\u{1}b"), "\"a\\u0001b\"");
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_datetime(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(utc_datetime(951_782_400), (2000, 2, 29, 0, 0, 0));
        assert_eq!(utc_datetime(1_700_000_000), (2023, 11, 14, 22, 13, 20));
    }
}
