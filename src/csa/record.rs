//! Each game's records in `--out DIR`: a CSA file (`<game id>.csa`, for shogi GUIs and
//! floodgate tools) and one JSON line in `games.jsonl` (for scripts), as `hayate match`
//! writes them.

use super::client::GameReport;
use super::protocol::{EndReason, GameResult};
use crate::datetime::csa_datetime;
use crate::position::csa as notation;
use crate::position::Position;
use crate::types::Color;
use serde::Serialize;
use std::fmt::Write as _;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The JSON-lines file in the output folder.
pub const JSONL_FILE: &str = "games.jsonl";

/// Removes line breaks and control characters, so free text stays on one record line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The CSA line that ends the record, from the server's reason and the echoed special move.
fn end_line(report: &GameReport, to_move: Color) -> Option<String> {
    if let Some(special) = &report.special {
        return Some(special.clone());
    }
    let sign = notation::sign(to_move);
    Some(match report.reason? {
        EndReason::Resign => "%TORYO".into(),
        EndReason::TimeUp => "%TIME_UP".into(),
        EndReason::IllegalMove => format!("%{sign}ILLEGAL_ACTION"),
        EndReason::Sennichite => "%SENNICHITE".into(),
        EndReason::OuteSennichite => "%SENNICHITE".into(),
        EndReason::Jishogi => "%KACHI".into(),
        EndReason::MaxMoves => "%MAX_MOVES".into(),
        EndReason::Chudan => "%CHUDAN".into(),
    })
}

/// The game as a CSA record (V2.2). Empty when the game never got a summary.
pub fn csa_record(report: &GameReport) -> String {
    let Some(summary) = &report.summary else {
        return String::new();
    };
    let mut out = String::from("V2.2\n");
    let _ = writeln!(out, "N+{}", one_line(&summary.names[0]));
    let _ = writeln!(out, "N-{}", one_line(&summary.names[1]));
    let _ = writeln!(out, "$EVENT:{}", one_line(&summary.game_id));
    let _ = writeln!(out, "$START_TIME:{}", csa_datetime(report.started_unix));
    let [b, w] = &summary.time;
    if b == w {
        let _ = writeln!(out, "'time: {b}");
    } else {
        let _ = writeln!(out, "'time: black {b}, white {w}");
    }
    let standard = summary.start == Position::startpos();
    out.push_str(&notation::position_to_csa(&summary.start, standard));
    let mut pos = summary.start.clone();
    for played in &summary.moves {
        let _ = writeln!(out, "{}", notation::move_to_csa(&pos, played.mv));
        if let Some(t) = played.time {
            let _ = writeln!(out, "T{t}");
        }
        pos.play_unchecked(played.mv);
    }
    for m in &report.moves {
        let _ = writeln!(out, "{}", m.csa);
        let unit = summary.time[m.side.index()].unit_ms.max(1);
        let _ = writeln!(out, "T{}", m.server_ms / unit);
        if let Some(c) = &m.comment {
            let _ = writeln!(out, "'{}", one_line(c));
        }
        pos.play_unchecked(m.mv);
    }
    let me = summary.your_turn;
    let _ = writeln!(
        out,
        "'{}: {}{}",
        one_line(&summary.names[me.index()]),
        report.result.map_or("no result", GameResult::as_str),
        report
            .reason
            .map_or(String::new(), |r| format!(" ({})", r.as_str()))
    );
    if let Some(e) = &report.error {
        let _ = writeln!(out, "'error: {}", one_line(e));
    }
    if let Some(line) = end_line(report, pos.side_to_move()) {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// One game as a JSON line. Times are in ms: `times_ms` what the server charged each
/// move, `limits_ms` what the mover had for it by the server's clock, `measured_ms` the
/// client's own measurement of its own moves (`null` for the opponent's); `scores` are
/// the engine's, from its side, on its own moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JsonGame {
    pub game: usize,
    pub game_id: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// `black` or `white`: the colour this client played.
    pub color: Option<String>,
    pub start: Option<String>,
    pub opening_moves: Vec<String>,
    pub moves: Vec<String>,
    pub csa_moves: Vec<String>,
    pub times_ms: Vec<u64>,
    pub limits_ms: Vec<u64>,
    pub measured_ms: Vec<Option<u64>>,
    pub scores: Vec<Option<i32>>,
    pub plies: usize,
    pub time_control: Option<String>,
    /// `win`, `lose`, `draw`, `censored`, or `null` without a result line.
    pub result: Option<String>,
    /// The server's reason (`resign`, `time_up`, …).
    pub reason: Option<String>,
    pub error: Option<String>,
    /// The largest gap between the client's own clock and the server's.
    pub clock_gap_ms: u64,
    pub started_unix: u64,
}

pub fn json_game(report: &GameReport) -> String {
    let summary = report.summary.as_ref();
    let game = JsonGame {
        game: report.number,
        game_id: summary.map(|s| s.game_id.clone()),
        black: summary.map(|s| s.names[0].clone()),
        white: summary.map(|s| s.names[1].clone()),
        color: summary.map(|s| s.your_turn.to_string()),
        start: summary.map(|s| s.start.to_string()),
        opening_moves: summary.map_or(Vec::new(), |s| {
            s.moves.iter().map(|m| m.mv.to_string()).collect()
        }),
        moves: report.moves.iter().map(|m| m.mv.to_string()).collect(),
        csa_moves: report.moves.iter().map(|m| m.csa.clone()).collect(),
        times_ms: report.moves.iter().map(|m| m.server_ms).collect(),
        limits_ms: report.moves.iter().map(|m| m.allowed_ms).collect(),
        measured_ms: report.moves.iter().map(|m| m.measured_ms).collect(),
        scores: report.moves.iter().map(|m| m.score).collect(),
        plies: report.moves.len(),
        time_control: summary.map(|s| s.time[0].to_string()),
        result: report.result.map(|r| r.as_str().to_lowercase()),
        reason: report.reason.map(|r| r.as_str().to_lowercase()),
        error: report.error.clone(),
        clock_gap_ms: report.largest_gap_ms,
        started_unix: report.started_unix,
    };
    serde_json::to_string(&game).expect("a game record always serialises")
}

/// A file name from a game id: letters, digits, `-`, `_`, `.` and `+` kept, the rest `_`.
fn file_stem(report: &GameReport) -> String {
    let id = report
        .summary
        .as_ref()
        .map_or_else(|| format!("game-{}", report.number), |s| s.game_id.clone());
    let stem: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    match stem.trim_start_matches('.') {
        "" => format!("game-{}", report.number),
        s => s.to_string(),
    }
}

/// Writes the game's CSA file (when it had a summary) and appends its JSON line. Returns
/// the CSA file's path.
pub fn write(dir: &Path, report: &GameReport) -> io::Result<Option<PathBuf>> {
    fs::create_dir_all(dir)?;
    let mut path = None;
    if report.summary.is_some() {
        let p = dir.join(format!("{}.csa", file_stem(report)));
        crate::files::replace(&p, csa_record(report).as_bytes())?;
        path = Some(p);
    }
    let mut jsonl = OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(JSONL_FILE))?;
    writeln!(jsonl, "{}", json_game(report))?;
    jsonl.sync_all()?;
    Ok(path)
}
