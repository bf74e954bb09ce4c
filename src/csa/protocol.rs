//! The CSA server protocol (version 1.2.1, as shogi-server and floodgate speak it): the
//! server's lines as typed values, the Game_Summary, and the lines the client sends.
//!
//! Nothing here touches a socket: the client feeds lines in and gets values or a
//! [`ProtocolError`] out, so every exchange can be tested from recorded text.

use crate::position::csa::{self as notation, CsaPositionReader};
use crate::position::Position;
use crate::types::{Color, Move};
use std::fmt;

/// Why a line from the server could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// A line that is no message of the protocol at this point; holds the line.
    Unexpected { line: String, context: &'static str },
    /// A Game_Summary the client cannot play from; holds the reason.
    Summary(String),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Unexpected { line, context } => {
                write!(
                    f,
                    "unexpected line from the server {context}: '{}'",
                    shown(line)
                )
            }
            ProtocolError::Summary(reason) => write!(f, "bad Game_Summary: {reason}"),
        }
    }
}

impl std::error::Error for ProtocolError {}

/// A line as it may be quoted in a message: control characters replaced, at most 120
/// characters (a server that sends a megabyte of garbage gets a readable error).
pub fn shown(line: &str) -> String {
    const SHOWN_CHARS: usize = 120;
    let mut out: String = line
        .chars()
        .take(SHOWN_CHARS)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if line.chars().count() > SHOWN_CHARS {
        out.push('…');
    }
    out
}

/// How a game ended, as the server's `#` reason line says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Resign,
    TimeUp,
    IllegalMove,
    Sennichite,
    OuteSennichite,
    /// A declaration (`%KACHI`) was judged, or the game reached the jishogi point rule.
    Jishogi,
    MaxMoves,
    /// The server interrupted the game.
    Chudan,
}

impl EndReason {
    pub const ALL: [EndReason; 8] = [
        EndReason::Resign,
        EndReason::TimeUp,
        EndReason::IllegalMove,
        EndReason::Sennichite,
        EndReason::OuteSennichite,
        EndReason::Jishogi,
        EndReason::MaxMoves,
        EndReason::Chudan,
    ];

    /// The server's line for it, without the `#`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Resign => "RESIGN",
            EndReason::TimeUp => "TIME_UP",
            EndReason::IllegalMove => "ILLEGAL_MOVE",
            EndReason::Sennichite => "SENNICHITE",
            EndReason::OuteSennichite => "OUTE_SENNICHITE",
            EndReason::Jishogi => "JISHOGI",
            EndReason::MaxMoves => "MAX_MOVES",
            EndReason::Chudan => "CHUDAN",
        }
    }
}

/// The game's result for this client, as the server's last line says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Lose,
    Draw,
    /// No result: the game was cut short (the move limit on shogi-server).
    Censored,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "WIN",
            GameResult::Lose => "LOSE",
            GameResult::Draw => "DRAW",
            GameResult::Censored => "CENSORED",
        }
    }
}

/// One line from the server, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerLine {
    /// `LOGIN:<name> OK`.
    LoginOk(String),
    /// `LOGIN:incorrect`: the name or password was refused.
    LoginIncorrect,
    /// `LOGOUT:completed`.
    LogoutCompleted,
    /// `BEGIN Game_Summary`: the summary's lines follow.
    SummaryBegins,
    /// `START:<game id>`: both sides agreed; the game runs.
    Start(String),
    /// `REJECT:<game id> by <name>`: the game will not be played.
    Reject { game_id: String, by: String },
    /// A move with the time it took: `+7776FU,T12` (the text and the seconds, or whatever
    /// the summary's time unit is).
    Move { text: String, time: Option<u64> },
    /// A special move echoed: `%TORYO`, `%KACHI`, `%CHUDAN` (with its time, if any).
    Special { text: String, time: Option<u64> },
    /// How the game ended (`#RESIGN`, `#TIME_UP`, …).
    Reason(EndReason),
    /// The result (`#WIN`, `#LOSE`, `#DRAW`, `#CENSORED`): the game is over.
    Result(GameResult),
    /// An empty line: the server's answer to a keep-alive.
    Empty,
    /// A comment or an extension of some server (`'…`, `##[…]`), to be ignored.
    Ignored(String),
}

/// Reads the `,T<n>` after a move, if any; other comma fields are ignored.
fn split_time(line: &str) -> Result<(&str, Option<u64>), ()> {
    let mut parts = line.split(',');
    let head = parts.next().unwrap_or("");
    let mut time = None;
    for part in parts {
        if let Some(t) = part.strip_prefix('T') {
            time = Some(t.trim().parse::<u64>().map_err(|_| ())?);
        }
    }
    Ok((head, time))
}

impl ServerLine {
    /// Reads one line (without its line ending).
    pub fn parse(line: &str) -> Result<ServerLine, ProtocolError> {
        let unexpected = || ProtocolError::Unexpected {
            line: line.to_string(),
            context: "(not a CSA message)",
        };
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            return Ok(ServerLine::Empty);
        }
        if line.starts_with('\'') || line.starts_with("##") {
            return Ok(ServerLine::Ignored(line.to_string()));
        }
        if let Some(rest) = line.strip_prefix("LOGIN:") {
            if rest.trim() == "incorrect" {
                return Ok(ServerLine::LoginIncorrect);
            }
            return match rest.trim().strip_suffix(" OK") {
                Some(name) => Ok(ServerLine::LoginOk(name.trim().to_string())),
                None => Err(unexpected()),
            };
        }
        if line.trim() == "LOGOUT:completed" {
            return Ok(ServerLine::LogoutCompleted);
        }
        if line.trim() == "BEGIN Game_Summary" {
            return Ok(ServerLine::SummaryBegins);
        }
        if let Some(id) = line.strip_prefix("START:") {
            return Ok(ServerLine::Start(id.trim().to_string()));
        }
        if let Some(rest) = line.strip_prefix("REJECT:") {
            let (game_id, by) = match rest.split_once(" by ") {
                Some((g, b)) => (g.trim().to_string(), b.trim().to_string()),
                None => (rest.trim().to_string(), String::new()),
            };
            return Ok(ServerLine::Reject { game_id, by });
        }
        if let Some(rest) = line.strip_prefix('#') {
            let word = rest.trim();
            if let Some(r) = EndReason::ALL.into_iter().find(|r| r.as_str() == word) {
                return Ok(ServerLine::Reason(r));
            }
            let result = match word {
                "WIN" => GameResult::Win,
                "LOSE" => GameResult::Lose,
                "DRAW" => GameResult::Draw,
                "CENSORED" => GameResult::Censored,
                _ => return Err(unexpected()),
            };
            return Ok(ServerLine::Result(result));
        }
        if line.starts_with('%') {
            let (head, time) = split_time(line).map_err(|()| unexpected())?;
            if head.len() < 2
                || !head[1..]
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c == '_')
            {
                return Err(unexpected());
            }
            return Ok(ServerLine::Special {
                text: head.to_string(),
                time,
            });
        }
        if line.starts_with(['+', '-']) {
            let (head, time) = split_time(line).map_err(|()| unexpected())?;
            let b = head.as_bytes();
            let well_formed = b.len() == 7
                && head.is_ascii()
                && b[1..5].iter().all(u8::is_ascii_digit)
                && notation::kind_from_name(&head[5..]).is_some();
            if !well_formed {
                return Err(unexpected());
            }
            return Ok(ServerLine::Move {
                text: head.to_string(),
                time,
            });
        }
        Err(unexpected())
    }
}

/// The time rules of one side, in the summary's own unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRules {
    /// Milliseconds per unit (`Time_Unit:1sec` is 1000).
    pub unit_ms: u64,
    /// Main time (`Total_Time`), in units.
    pub total: u64,
    /// Time per move once the main time is spent (`Byoyomi`), in units.
    pub byoyomi: u64,
    /// Fischer increment added for every move (`Increment`), in units.
    pub increment: u64,
    /// The least time a move is charged (`Least_Time_Per_Move`), in units.
    pub least_per_move: u64,
    /// Whether the server rounds a move's time up rather than down (`Time_Roundup:YES`).
    pub roundup: bool,
}

impl Default for TimeRules {
    fn default() -> Self {
        TimeRules {
            unit_ms: 1000,
            total: 0,
            byoyomi: 0,
            increment: 0,
            least_per_move: 0,
            roundup: false,
        }
    }
}

impl TimeRules {
    pub fn total_ms(&self) -> u64 {
        self.total * self.unit_ms
    }
    pub fn byoyomi_ms(&self) -> u64 {
        self.byoyomi * self.unit_ms
    }
    pub fn increment_ms(&self) -> u64 {
        self.increment * self.unit_ms
    }

    /// Reads one `Key:Value` line of a Time section; `false` for a key it does not know.
    fn set(&mut self, key: &str, value: &str) -> Result<bool, ProtocolError> {
        let number = || {
            value
                .parse::<u64>()
                .map_err(|_| ProtocolError::Summary(format!("{key}:{value} is not a whole number")))
        };
        match key {
            "Time_Unit" => self.unit_ms = parse_time_unit(value)?,
            "Total_Time" => self.total = number()?,
            "Byoyomi" => self.byoyomi = number()?,
            "Increment" => self.increment = number()?,
            "Least_Time_Per_Move" => self.least_per_move = number()?,
            "Time_Roundup" => {
                self.roundup = match value {
                    "YES" => true,
                    "NO" => false,
                    _ => {
                        return Err(ProtocolError::Summary(format!(
                            "Time_Roundup:{value} is neither YES nor NO"
                        )))
                    }
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl fmt::Display for TimeRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |units: u64| {
            let ms = units * self.unit_ms;
            if ms.is_multiple_of(1000) {
                format!("{}s", ms / 1000)
            } else {
                format!("{ms}ms")
            }
        };
        write!(f, "{}", s(self.total))?;
        if self.increment > 0 {
            write!(f, " + {} per move (Fischer)", s(self.increment))?;
        }
        if self.byoyomi > 0 {
            write!(f, " + {} byoyomi", s(self.byoyomi))?;
        }
        Ok(())
    }
}

/// `1sec`, `1min`, `1msec`, `0.1sec`… as milliseconds.
fn parse_time_unit(value: &str) -> Result<u64, ProtocolError> {
    let bad = || ProtocolError::Summary(format!("Time_Unit:{value} is not a time unit"));
    let split = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let (number, unit) = value.split_at(split);
    let number: f64 = if number.is_empty() {
        1.0
    } else {
        number.parse().map_err(|_| bad())?
    };
    let scale = match unit {
        "msec" => 1.0,
        "sec" => 1000.0,
        "min" => 60_000.0,
        _ => return Err(bad()),
    };
    let ms = (number * scale).round();
    if !(1.0..=3_600_000.0).contains(&ms) {
        return Err(bad());
    }
    Ok(ms as u64)
}

/// A move already played before the game starts (a `BEGIN Position` block's moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// The time it took, in units of its side's Time_Unit.
    pub time: Option<u64>,
}

/// What the server proposes: the game, the players, the clock and the position.
#[derive(Clone, PartialEq)]
pub struct GameSummary {
    pub protocol_version: Option<String>,
    pub protocol_mode: Option<String>,
    pub format: Option<String>,
    pub declaration: Option<String>,
    pub game_id: String,
    /// Names by colour: Black (`Name+`), White (`Name-`).
    pub names: [String; 2],
    /// The colour this client plays.
    pub your_turn: Color,
    /// The side to move once the position's moves are played.
    pub to_move: Color,
    pub rematch_on_draw: Option<bool>,
    /// The move limit (`Max_Moves`), if the server gave one.
    pub max_moves: Option<u32>,
    /// The time rules by colour (a shared `BEGIN Time` section fills both).
    pub time: [TimeRules; 2],
    /// The position before `moves`.
    pub start: Position,
    /// Moves already played, with their times.
    pub moves: Vec<PlayedMove>,
    /// Lines the client did not know, kept for the record (`Key:Value` as sent).
    pub unknown: Vec<String>,
}

impl fmt::Debug for GameSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameSummary")
            .field("game_id", &self.game_id)
            .field("names", &self.names)
            .field("your_turn", &self.your_turn)
            .field("to_move", &self.to_move)
            .field("max_moves", &self.max_moves)
            .field("time", &self.time)
            .field("start", &self.start.to_string())
            .field("moves", &self.moves)
            .field("unknown", &self.unknown)
            .finish_non_exhaustive()
    }
}

impl GameSummary {
    /// The position the game starts from: `start` with `moves` played.
    pub fn current_position(&self) -> Position {
        let mut pos = self.start.clone();
        for m in &self.moves {
            pos.play_unchecked(m.mv);
        }
        pos
    }

    /// The USI `position` command for the game's start position and the moves already
    /// played (`startpos` when the board is the even-game start).
    pub fn usi_position(&self) -> String {
        let start = if self.start == Position::startpos() {
            "startpos".to_string()
        } else {
            format!("sfen {}", self.start)
        };
        let mut out = format!("position {start}");
        if !self.moves.is_empty() {
            out.push_str(" moves");
            for m in &self.moves {
                out.push(' ');
                out.push_str(&m.mv.to_string());
            }
        }
        out
    }
}

/// Which part of the summary the parser is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    Top,
    /// `BEGIN Time` (both sides) or `BEGIN Time+` / `BEGIN Time-`.
    Time(Option<Color>),
    Position,
    Done,
}

/// Reads a Game_Summary one line at a time, after its `BEGIN Game_Summary`.
#[derive(Clone)]
pub struct SummaryReader {
    section: Section,
    protocol_version: Option<String>,
    protocol_mode: Option<String>,
    format: Option<String>,
    declaration: Option<String>,
    game_id: Option<String>,
    names: [Option<String>; 2],
    your_turn: Option<Color>,
    to_move: Option<Color>,
    rematch_on_draw: Option<bool>,
    max_moves: Option<u32>,
    time: [TimeRules; 2],
    /// Whether the side's time was set by its own section (which a shared one then does
    /// not overwrite).
    own_time: [bool; 2],
    board: CsaPositionReader,
    /// The position once its side-to-move line was read, and the moves after it.
    start: Option<Position>,
    current: Option<Position>,
    moves: Vec<PlayedMove>,
    unknown: Vec<String>,
}

impl Default for SummaryReader {
    fn default() -> Self {
        SummaryReader {
            section: Section::Top,
            protocol_version: None,
            protocol_mode: None,
            format: None,
            declaration: None,
            game_id: None,
            names: [None, None],
            your_turn: None,
            to_move: None,
            rematch_on_draw: None,
            max_moves: None,
            time: [TimeRules::default(); 2],
            own_time: [false; 2],
            board: CsaPositionReader::default(),
            start: None,
            current: None,
            moves: Vec::new(),
            unknown: Vec::new(),
        }
    }
}

fn sign_value(key: &str, value: &str) -> Result<Color, ProtocolError> {
    let mut chars = value.chars();
    match (
        chars.next().and_then(notation::color_from_sign),
        chars.next(),
    ) {
        (Some(c), None) => Ok(c),
        _ => Err(ProtocolError::Summary(format!(
            "{key}:{value} is neither + nor -"
        ))),
    }
}

impl SummaryReader {
    /// Reads one line. Returns the summary once `END Game_Summary` is read.
    pub fn line(&mut self, raw: &str) -> Result<Option<GameSummary>, ProtocolError> {
        let line = raw.trim_end_matches('\r');
        let bad = |reason: String| ProtocolError::Summary(reason);
        match self.section {
            Section::Done => return Err(bad("a line after END Game_Summary".into())),
            Section::Position => return self.position_line(line).map(|()| None),
            _ => {}
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('\'') {
            return Ok(None);
        }
        match (self.section, trimmed) {
            (Section::Top, "BEGIN Time") => self.section = Section::Time(None),
            (Section::Top, "BEGIN Time+") => self.section = Section::Time(Some(Color::Black)),
            (Section::Top, "BEGIN Time-") => self.section = Section::Time(Some(Color::White)),
            (Section::Top, "BEGIN Position") => self.section = Section::Position,
            (Section::Top, "END Game_Summary") => {
                self.section = Section::Done;
                return self.finish().map(Some);
            }
            (Section::Time(None), "END Time")
            | (Section::Time(Some(Color::Black)), "END Time+")
            | (Section::Time(Some(Color::White)), "END Time-") => self.section = Section::Top,
            (Section::Time(side), _) => {
                let (key, value) = trimmed
                    .split_once(':')
                    .ok_or_else(|| bad(format!("'{}' in a Time section", shown(trimmed))))?;
                let sides: Vec<Color> = match side {
                    Some(c) => vec![c],
                    None => Color::ALL
                        .into_iter()
                        .filter(|c| !self.own_time[c.index()])
                        .collect(),
                };
                let mut known = true;
                for c in &sides {
                    known &= self.time[c.index()].set(key, value.trim())?;
                }
                if let Some(c) = side {
                    self.own_time[c.index()] = true;
                }
                if !known {
                    self.unknown.push(trimmed.to_string());
                }
            }
            (Section::Top, _) => {
                let (key, value) = trimmed
                    .split_once(':')
                    .ok_or_else(|| bad(format!("'{}' is not Key:Value", shown(trimmed))))?;
                let value = value.trim();
                let text = || Some(value.to_string());
                match key {
                    "Protocol_Version" => self.protocol_version = text(),
                    "Protocol_Mode" => self.protocol_mode = text(),
                    "Format" => self.format = text(),
                    "Declaration" => self.declaration = text(),
                    "Game_ID" => self.game_id = text(),
                    "Name+" => self.names[0] = text(),
                    "Name-" => self.names[1] = text(),
                    "Your_Turn" => self.your_turn = Some(sign_value(key, value)?),
                    "To_Move" => self.to_move = Some(sign_value(key, value)?),
                    "Rematch_On_Draw" => self.rematch_on_draw = Some(value == "YES"),
                    "Max_Moves" => {
                        self.max_moves =
                            Some(value.parse().map_err(|_| {
                                bad(format!("Max_Moves:{value} is not a whole number"))
                            })?)
                    }
                    _ => self.unknown.push(trimmed.to_string()),
                }
            }
            (Section::Position, _) | (Section::Done, _) => unreachable!("handled above"),
        }
        Ok(None)
    }

    /// A line of the `BEGIN Position` block: board lines until the side to move, then the
    /// moves already played.
    fn position_line(&mut self, line: &str) -> Result<(), ProtocolError> {
        let trimmed = line.trim();
        if trimmed == "END Position" {
            if self.start.is_none() {
                return Err(ProtocolError::Summary(
                    "the position ends before its side to move ('+' or '-')".into(),
                ));
            }
            self.section = Section::Top;
            return Ok(());
        }
        let Some(current) = &mut self.current else {
            let done = self
                .board
                .line(line)
                .map_err(|e| ProtocolError::Summary(e.to_string()))?;
            if done {
                let pos = std::mem::take(&mut self.board)
                    .finish()
                    .map_err(|e| ProtocolError::Summary(e.to_string()))?;
                self.start = Some(pos.clone());
                self.current = Some(pos);
            }
            return Ok(());
        };
        if trimmed.is_empty() || trimmed.starts_with('\'') {
            return Ok(());
        }
        let (text, time) = split_time(trimmed).map_err(|()| {
            ProtocolError::Summary(format!("bad move time in '{}'", shown(trimmed)))
        })?;
        let mv = notation::move_from_csa(current, text).map_err(|e| {
            ProtocolError::Summary(format!(
                "move {} of the position: {e}",
                self.moves.len() + 1
            ))
        })?;
        current.play_unchecked(mv);
        self.moves.push(PlayedMove { mv, time });
        Ok(())
    }

    fn finish(&mut self) -> Result<GameSummary, ProtocolError> {
        let missing = |what: &str| ProtocolError::Summary(format!("no {what}"));
        let start = self.start.take().ok_or_else(|| missing("BEGIN Position"))?;
        let current = self.current.take().expect("set with start");
        let to_move = self.to_move.ok_or_else(|| missing("To_Move"))?;
        // shogi-server writes the side to move after the moves already played; a server
        // that names the side of the position before them means the same game.
        let start_side = start.side_to_move();
        if to_move != current.side_to_move() && (to_move != start_side || self.moves.is_empty()) {
            return Err(ProtocolError::Summary(format!(
                "To_Move:{} but the position has {} to move",
                notation::sign(to_move),
                notation::sign(current.side_to_move())
            )));
        }
        for (c, rules) in self.time.iter().enumerate() {
            if rules.increment > 0 && rules.byoyomi > 0 {
                return Err(ProtocolError::Summary(format!(
                    "{} has both Byoyomi and Increment",
                    if c == 0 { "Black" } else { "White" }
                )));
            }
        }
        Ok(GameSummary {
            protocol_version: self.protocol_version.take(),
            protocol_mode: self.protocol_mode.take(),
            format: self.format.take(),
            declaration: self.declaration.take(),
            game_id: self.game_id.take().ok_or_else(|| missing("Game_ID"))?,
            names: [
                self.names[0].take().ok_or_else(|| missing("Name+"))?,
                self.names[1].take().ok_or_else(|| missing("Name-"))?,
            ],
            your_turn: self.your_turn.ok_or_else(|| missing("Your_Turn"))?,
            to_move: current.side_to_move(),
            rematch_on_draw: self.rematch_on_draw,
            max_moves: self.max_moves,
            time: self.time,
            start,
            moves: std::mem::take(&mut self.moves),
            unknown: std::mem::take(&mut self.unknown),
        })
    }
}

/// Reads a whole summary from its lines (with or without the BEGIN/END lines around it).
pub fn parse_summary(text: &str) -> Result<GameSummary, ProtocolError> {
    let mut reader = SummaryReader::default();
    for line in text.lines() {
        if line.trim() == "BEGIN Game_Summary" {
            continue;
        }
        if let Some(summary) = reader.line(line)? {
            return Ok(summary);
        }
    }
    Err(ProtocolError::Summary(
        "the summary ends without END Game_Summary".into(),
    ))
}

/// `LOGIN <id> <password>`.
pub fn login_line(id: &str, password: &str) -> String {
    format!("LOGIN {id} {password}")
}

/// A move as the client sends it, with the floodgate comment (`'* <score> <pv>`) if any.
/// Commas end a field in the protocol, so a comment cannot hold one.
pub fn move_line(csa_move: &str, comment: Option<&str>) -> String {
    match comment {
        Some(c) if !c.is_empty() => {
            let c: String = c
                .chars()
                .map(|ch| {
                    if ch == ',' || ch.is_control() {
                        ' '
                    } else {
                        ch
                    }
                })
                .collect();
            format!("{csa_move},'{c}")
        }
        _ => csa_move.to_string(),
    }
}
