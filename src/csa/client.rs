//! The games: log in, read the Game_Summary, agree, play the engine's moves and the
//! opponent's, and end on the server's result line; then the next game on a new login.
//!
//! shogi-server ends a CSA-mode connection after each game, and no server lets a client
//! back into a running game, so each game has its own connection and a lost connection
//! ends only that game.

use super::clock::{Clock, OwnClock};
use super::connection::{Connection, ConnectionError};
use super::protocol::{self, EndReason, GameResult, GameSummary, ProtocolError, ServerLine};
use crate::position::csa as notation;
use crate::position::Position;
use crate::types::{Color, Move};
use crate::usi_client::{Engine, EngineError, EngineSpec, Reply};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long the server has to answer `LOGIN`.
const LOGIN_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the server may pause between two lines of one Game_Summary.
const SUMMARY_LINE_TIMEOUT: Duration = Duration::from_secs(30);
/// How long the engine may take to answer `usi` and `isready` (loading a net included).
const ENGINE_READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the server has to echo a move or send the result after the client's move.
const ECHO_TIMEOUT: Duration = Duration::from_secs(60);
/// Past the opponent's whole allowance, how long the client still waits for its move
/// before calling the server silent (the server should have called time by then).
const OPPONENT_GRACE: Duration = Duration::from_secs(60);
/// Past its own allowance, how long the engine may still take before the client gives up
/// on it (the server will have called time; the result line ends the game).
const ENGINE_GRACE: Duration = Duration::from_secs(5);
/// How long a stopped search (a ponder miss, the game's end) has to send its `bestmove`.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the client waits for `LOGOUT:completed` (shogi-server may have closed first).
const LOGOUT_TIMEOUT: Duration = Duration::from_secs(3);
/// The wait before logging in again after a game, so that the server has let the old
/// login go (a second login under one name is refused while the first is alive).
const RELOGIN_DELAY: Duration = Duration::from_millis(500);
/// How often, and how long apart, the client tries to reach the server for one game.
const CONNECT_TRIES: u32 = 5;
const CONNECT_RETRY_DELAY: Duration = Duration::from_secs(2);
/// Own moves in a row at or below the resign threshold before the client resigns: one
/// bad score can be a search artefact.
pub const RESIGN_MOVES: u32 = 3;
/// A move time for a game without any clock (the engine must be given some limit).
const NO_CLOCK_MOVE_MS: u64 = 10_000;

/// Everything `hayate csa` needs.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    pub host: String,
    pub port: u16,
    pub id: String,
    pub password: String,
    pub games: usize,
    pub engine: EngineSpec,
    /// Taken off the engine's time for network delay.
    pub margin_ms: u64,
    pub ponder: bool,
    /// Send a Fischer increment as `byoyomi` (engines without `binc`/`winc`).
    pub inc_as_byoyomi: bool,
    /// Resign after [`RESIGN_MOVES`] own scores at or below minus this (centipawns).
    pub resign_cp: Option<i32>,
    /// Send the floodgate comment (score and PV) with each move.
    pub comment: bool,
    /// Silence after which the client sends an empty line while waiting.
    pub keepalive: Option<Duration>,
    pub connect_timeout: Duration,
    pub out: Option<PathBuf>,
    /// Echo the protocol on stderr.
    pub trace: bool,
}

/// Why a game (or the whole run) could not go on.
#[derive(Debug)]
pub enum ClientError {
    Connection(ConnectionError),
    /// `LOGIN:incorrect`: the server refused the name or password.
    LoginIncorrect {
        id: String,
    },
    Protocol(ProtocolError),
    /// The server or the opponent rejected the game.
    Rejected {
        game_id: String,
        by: String,
    },
    /// The engine failed (crashed, hung, or would not start).
    Engine(EngineError),
    /// The engine's move is no legal move here.
    EngineMove {
        bestmove: String,
        position: String,
    },
    /// The server sent a move that is not legal in the client's position (the two views
    /// of the game differ).
    ServerMove {
        text: String,
        reason: String,
    },
    /// A game record could not be written.
    Records {
        dir: PathBuf,
        source: std::io::Error,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Connection(e) => write!(f, "{e}"),
            ClientError::LoginIncorrect { id } => write!(
                f,
                "LOGIN:incorrect: the server refused the login '{id}' (wrong password or game \
                 name, or that name is logged in already)"
            ),
            ClientError::Protocol(e) => write!(f, "{e}"),
            ClientError::Rejected { game_id, by } => {
                write!(f, "game {game_id} was rejected by {by}")
            }
            ClientError::Engine(e) => write!(f, "engine: {e}"),
            ClientError::EngineMove { bestmove, position } => write!(
                f,
                "the engine's move '{bestmove}' is not legal in {position}; resigned instead"
            ),
            ClientError::ServerMove { text, reason } => write!(
                f,
                "the server's move '{text}' does not fit the game: {reason}"
            ),
            ClientError::Records { dir, source } => {
                write!(f, "cannot write the records in {}: {source}", dir.display())
            }
        }
    }
}

impl std::error::Error for ClientError {}

impl From<ConnectionError> for ClientError {
    fn from(e: ConnectionError) -> Self {
        ClientError::Connection(e)
    }
}

impl From<ProtocolError> for ClientError {
    fn from(e: ProtocolError) -> Self {
        ClientError::Protocol(e)
    }
}

impl From<EngineError> for ClientError {
    fn from(e: EngineError) -> Self {
        ClientError::Engine(e)
    }
}

impl ClientError {
    /// Whether the next game cannot go better: a refused login or an unreachable server.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            ClientError::LoginIncorrect { .. }
                | ClientError::Connection(ConnectionError::Connect { .. })
        )
    }
}

/// One move of the game as the client saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    pub mv: Move,
    pub side: Color,
    /// The CSA text (`+7776FU`).
    pub csa: String,
    /// What the server charged, in ms (its `T` times the time unit).
    pub server_ms: u64,
    /// The most the mover had for it by the server's clock, in ms.
    pub allowed_ms: u64,
    /// The client's own measurement, for its own moves: from the opponent's move (or
    /// `START`) arriving to the move leaving.
    pub measured_ms: Option<u64>,
    /// The engine's score for its own moves, from its side.
    pub score: Option<i32>,
    /// The floodgate comment sent with the move.
    pub comment: Option<String>,
}

/// One game, however it ended.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 1-based number within the run.
    pub number: usize,
    pub started_unix: u64,
    pub summary: Option<GameSummary>,
    pub moves: Vec<MoveRecord>,
    /// The special move that ended the game, as the server echoed it (`%TORYO`).
    pub special: Option<String>,
    pub reason: Option<EndReason>,
    pub result: Option<GameResult>,
    /// What went wrong, when the game did not end with a result line.
    pub error: Option<String>,
    /// The largest gap between the client's own clock and the server's, in ms.
    pub largest_gap_ms: u64,
}

impl GameReport {
    fn new(number: usize) -> GameReport {
        GameReport {
            number,
            started_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            summary: None,
            moves: Vec::new(),
            special: None,
            reason: None,
            result: None,
            error: None,
            largest_gap_ms: 0,
        }
    }

    /// One line for the progress output.
    pub fn describe(&self) -> String {
        let mut out = format!("game {}", self.number);
        if let Some(s) = &self.summary {
            let me = s.your_turn;
            out.push_str(&format!(
                " {}: {} as {} vs {}",
                s.game_id,
                s.names[me.index()],
                if me == Color::Black { "black" } else { "white" },
                s.names[(!me).index()]
            ));
        }
        match (self.result, self.reason) {
            (Some(r), Some(why)) => out.push_str(&format!(": {} ({})", r.as_str(), why.as_str())),
            (Some(r), None) => out.push_str(&format!(": {}", r.as_str())),
            (None, Some(why)) => out.push_str(&format!(": no result ({})", why.as_str())),
            (None, None) => out.push_str(": no result"),
        }
        out.push_str(&format!(", {} moves", self.moves.len()));
        if let Some(e) = &self.error {
            out.push_str(&format!("; {e}"));
        }
        out
    }
}

/// A search on the opponent's time.
struct Ponder {
    /// The opponent's move the engine expects (USI).
    expected: String,
}

/// The client across games: the engine stays up between them.
pub struct Client {
    config: ClientConfig,
    engine: Option<Engine>,
}

impl Client {
    pub fn new(config: ClientConfig) -> Client {
        Client {
            config,
            engine: None,
        }
    }

    /// The engine, started (or restarted after a failure) on first use.
    fn engine(&mut self) -> Result<&mut Engine, ClientError> {
        if self.engine.is_none() {
            let engine = Engine::start(&self.config.engine, ENGINE_READY_TIMEOUT)?;
            if self.config.ponder {
                engine.send("setoption name USI_Ponder value true");
            }
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("started above"))
    }

    /// Starts the engine before the first login, so that a wrong command fails at once.
    pub fn start_engine(&mut self) -> Result<Option<String>, ClientError> {
        let engine = self.engine()?;
        engine.ready(ENGINE_READY_TIMEOUT)?;
        Ok(engine.id_name.clone())
    }

    /// Plays game `number` from login to logout. The report always comes back; the error
    /// says why the game ended without a result, and whether the run can go on.
    pub fn play(&mut self, number: usize) -> (GameReport, Option<ClientError>) {
        let mut report = GameReport::new(number);
        let mut conn = match self.connect() {
            Ok(c) => c,
            Err(e) => {
                report.error = Some(e.to_string());
                return (report, Some(e));
            }
        };
        let outcome = self.play_on(&mut conn, &mut report);
        if outcome.is_ok() || !matches!(outcome, Err(ClientError::Connection(_))) {
            // A polite goodbye; shogi-server has usually closed a CSA-mode connection
            // after the result already.
            if conn.send("LOGOUT").is_ok() {
                let deadline = Instant::now() + LOGOUT_TIMEOUT;
                while let Some(left) = deadline.checked_duration_since(Instant::now()) {
                    match conn.next_line("LOGOUT:completed", Some(left)) {
                        Ok((line, _)) if line.trim() == "LOGOUT:completed" => break,
                        Ok(_) => continue,
                        Err(_) => break,
                    }
                }
            }
        }
        drop(conn);
        let error = outcome.err();
        if let Some(e) = &error {
            report.error = Some(e.to_string());
            if matches!(e, ClientError::Engine(_)) {
                // A failed engine is restarted for the next game.
                self.engine = None;
            }
        }
        std::thread::sleep(RELOGIN_DELAY);
        (report, error)
    }

    fn connect(&self) -> Result<Connection, ClientError> {
        let c = &self.config;
        let mut tries = 0;
        loop {
            tries += 1;
            match Connection::open(&c.host, c.port, c.connect_timeout, c.keepalive, c.trace) {
                Ok(conn) => return Ok(conn),
                Err(e) if tries >= CONNECT_TRIES => return Err(e.into()),
                Err(_) => std::thread::sleep(CONNECT_RETRY_DELAY),
            }
        }
    }

    /// Login, summary, agreement and the game itself.
    fn play_on(
        &mut self,
        conn: &mut Connection,
        report: &mut GameReport,
    ) -> Result<(), ClientError> {
        let c = &self.config;
        conn.send(&protocol::login_line(&c.id, &c.password))?;
        loop {
            let (line, _) = conn.next_line("the answer to LOGIN", Some(LOGIN_TIMEOUT))?;
            match ServerLine::parse(&line)? {
                ServerLine::LoginOk(_) => break,
                ServerLine::LoginIncorrect => {
                    return Err(ClientError::LoginIncorrect { id: c.id.clone() })
                }
                ServerLine::Empty | ServerLine::Ignored(_) => {}
                _ => return Err(unexpected(&line, "after LOGIN")),
            }
        }
        // Waiting for an opponent has no limit (floodgate pairs every half hour); the
        // keep-alives notice a dead connection.
        loop {
            let (line, _) = conn.next_line("a Game_Summary", None)?;
            match ServerLine::parse(&line)? {
                ServerLine::SummaryBegins => break,
                ServerLine::Empty | ServerLine::Ignored(_) => {}
                _ => return Err(unexpected(&line, "while waiting for a game")),
            }
        }
        let mut reader = protocol::SummaryReader::default();
        let summary = loop {
            let (line, _) =
                conn.next_line("the rest of the Game_Summary", Some(SUMMARY_LINE_TIMEOUT))?;
            match reader.line(&line) {
                Ok(Some(summary)) => break summary,
                Ok(None) => {}
                Err(e) => {
                    // Say no, so the server does not wait for an answer that never comes.
                    let _ = conn.send("REJECT");
                    return Err(e.into());
                }
            }
        };
        report.summary = Some(summary.clone());
        let engine = self.engine()?;
        engine.ready(ENGINE_READY_TIMEOUT)?;
        engine.send("usinewgame");
        conn.send("AGREE")?;
        let started = loop {
            let (line, at) = conn.next_line("START", None)?;
            match ServerLine::parse(&line)? {
                ServerLine::Start(_) => break at,
                ServerLine::Reject { game_id, by } => {
                    return Err(ClientError::Rejected { game_id, by })
                }
                ServerLine::Empty | ServerLine::Ignored(_) => {}
                _ => return Err(unexpected(&line, "while waiting for START")),
            }
        };
        let result = self.game(conn, &summary, started, report);
        if let Some(engine) = self.engine.as_mut() {
            let word = match report.result {
                Some(GameResult::Win) => "win",
                Some(GameResult::Lose) => "lose",
                _ => "draw",
            };
            engine.send(&format!("gameover {word}"));
        }
        result
    }

    /// The moves, from `START` to the result line.
    fn game(
        &mut self,
        conn: &mut Connection,
        summary: &GameSummary,
        started: Instant,
        report: &mut GameReport,
    ) -> Result<(), ClientError> {
        let me = summary.your_turn;
        let mut clock = Clock::new(summary.time);
        let mut own = OwnClock::new(summary.time, me);
        let mut pos = summary.start.clone();
        let mut usi_moves: Vec<String> = Vec::new();
        for played in &summary.moves {
            clock.charge(pos.side_to_move(), played.time.unwrap_or(0));
            usi_moves.push(played.mv.to_string());
            pos.play_unchecked(played.mv);
        }
        let start_command = {
            let full = summary.usi_position();
            // `position ... moves a b` without the moves: they are added as the game goes.
            match full.find(" moves") {
                Some(i) => full[..i].to_string(),
                None => full,
            }
        };
        let position_command = |moves: &[String]| {
            if moves.is_empty() {
                start_command.clone()
            } else {
                format!("{start_command} moves {}", moves.join(" "))
            }
        };

        let mut turn_started = started;
        // Our move sent and not yet echoed: its text, measured time, score and comment.
        let mut sent: Option<(String, u64, Option<i32>, Option<String>)> = None;
        // A special move (%TORYO, %KACHI) sent: only the result is left to read.
        let mut ended_by_us = false;
        let mut ponder: Option<Ponder> = None;
        let mut ponder_hit = false;
        let mut last_reply: Option<Reply> = None;
        let mut bad_scores = 0u32;
        let mut engine_failure: Option<EngineError> = None;

        let outcome = loop {
            if pos.side_to_move() == me && sent.is_none() && !ended_by_us && report.reason.is_none()
            {
                let allowed = clock.allowance_ms(me);
                let allowance = Duration::from_millis(if clock.is_unlimited(me) {
                    NO_CLOCK_MOVE_MS
                } else {
                    allowed
                }) + ENGINE_GRACE;
                let go = go_command(&clock, me, &self.config, false);
                let engine = self.engine()?;
                let reply = if ponder_hit {
                    ponder_hit = false;
                    engine.send("ponderhit");
                    engine.wait_bestmove(allowance)
                } else {
                    engine
                        .think(&position_command(&usi_moves), &go, allowance)
                        .0
                };
                let reply = match reply {
                    Ok(r) => r,
                    Err(e) => {
                        // Too late or crashed: resign rather than leave the server waiting,
                        // and read on to its verdict.
                        engine_failure = Some(e);
                        conn.send("%TORYO")?;
                        ended_by_us = true;
                        continue;
                    }
                };
                if let Some(limit) = self.config.resign_cp {
                    match reply.score {
                        Some(s) if s <= -limit => bad_scores += 1,
                        _ => bad_scores = 0,
                    }
                }
                let measured = turn_started.elapsed();
                let resigning = reply.bestmove == "resign"
                    || self.config.resign_cp.is_some() && bad_scores >= RESIGN_MOVES;
                if resigning {
                    conn.send("%TORYO")?;
                    ended_by_us = true;
                    continue;
                }
                if reply.bestmove == "win" {
                    conn.send("%KACHI")?;
                    ended_by_us = true;
                    continue;
                }
                let mv = match Move::from_usi(&reply.bestmove).filter(|&m| pos.is_legal(m)) {
                    Some(m) => m,
                    None => {
                        conn.send("%TORYO")?;
                        ended_by_us = true;
                        report.error = Some(
                            ClientError::EngineMove {
                                bestmove: reply.bestmove.clone(),
                                position: position_command(&usi_moves),
                            }
                            .to_string(),
                        );
                        continue;
                    }
                };
                let csa = notation::move_to_csa(&pos, mv);
                let comment = if self.config.comment {
                    floodgate_comment(&pos, mv, &reply, me)
                } else {
                    None
                };
                let measured = measured.as_millis() as u64;
                conn.send(&protocol::move_line(&csa, comment.as_deref()))?;
                let measured = measured.max(turn_started.elapsed().as_millis() as u64);
                sent = Some((csa, measured, reply.score, comment));
                last_reply = Some(reply);
                continue;
            }

            let timeout = if sent.is_some() || ended_by_us || report.reason.is_some() {
                ECHO_TIMEOUT
            } else if clock.is_unlimited(!me) {
                Duration::from_secs(3600)
            } else {
                Duration::from_millis(clock.allowance_ms(!me)) + OPPONENT_GRACE
            };
            let (line, at) = match conn.next_line("the next move", Some(timeout)) {
                Ok(l) => l,
                Err(e) => break Err(e.into()),
            };
            let parsed = match ServerLine::parse(&line) {
                Ok(p) => p,
                Err(e) => break Err(e.into()),
            };
            match parsed {
                ServerLine::Empty | ServerLine::Ignored(_) => {}
                ServerLine::Move { text, time } => {
                    let side = notation::color_from_sign(text.as_bytes()[0] as char)
                        .expect("a parsed move has a sign");
                    let mv = match notation::move_from_csa(&pos, &text) {
                        Ok(m) => m,
                        Err(e) => {
                            break Err(ClientError::ServerMove {
                                text,
                                reason: e.to_string(),
                            })
                        }
                    };
                    let allowed_ms = clock.allowance_ms(side);
                    let rules = *clock.rules(side);
                    let units = time.unwrap_or(0);
                    clock.charge(side, units);
                    let server_ms = units.max(rules.least_per_move) * rules.unit_ms;
                    let mut record = MoveRecord {
                        mv,
                        side,
                        csa: text.clone(),
                        server_ms,
                        allowed_ms,
                        measured_ms: None,
                        score: None,
                        comment: None,
                    };
                    if side == me {
                        match sent.take() {
                            Some((ours, measured, score, comment)) if ours == text => {
                                own.charge(measured, &clock);
                                record.measured_ms = Some(measured);
                                record.score = score;
                                record.comment = comment;
                            }
                            other => {
                                break Err(ClientError::ServerMove {
                                    text,
                                    reason: match other {
                                        Some((ours, ..)) => format!("the client sent {ours}"),
                                        None => "the client sent no move".into(),
                                    },
                                })
                            }
                        }
                    } else {
                        turn_started = at;
                        if let Some(p) = ponder.take() {
                            let engine = self.engine()?;
                            if p.expected == mv.to_string() {
                                ponder_hit = true;
                            } else {
                                engine.send("stop");
                                let _ = engine.wait_bestmove(STOP_TIMEOUT);
                            }
                        }
                    }
                    report.moves.push(record);
                    usi_moves.push(mv.to_string());
                    pos.play_unchecked(mv);
                    // Our move is on the board: think on the opponent's time.
                    if side == me && self.config.ponder {
                        if let Some(expected) = last_reply
                            .as_ref()
                            .and_then(|r| r.ponder.clone())
                            .filter(|p| Move::from_usi(p).is_some_and(|m| pos.is_legal(m)))
                        {
                            let mut moves = usi_moves.clone();
                            moves.push(expected.clone());
                            let go = go_command(&clock, me, &self.config, true);
                            let engine = self.engine()?;
                            engine.start_thinking(&position_command(&moves), &go)?;
                            ponder = Some(Ponder { expected });
                        }
                    }
                }
                ServerLine::Special { text, .. } => report.special = Some(text),
                ServerLine::Reason(r) => {
                    report.reason = Some(r);
                    if r == EndReason::Chudan {
                        break Ok(());
                    }
                }
                ServerLine::Result(r) => {
                    report.result = Some(r);
                    break Ok(());
                }
                _ => break Err(unexpected(&line, "during the game")),
            }
        };
        report.largest_gap_ms = own.largest_gap_ms;
        if let Some(e) = engine_failure {
            self.engine = None;
            return Err(outcome.err().unwrap_or(ClientError::Engine(e)));
        }
        if ponder.is_some() || ponder_hit {
            if let Some(engine) = self.engine.as_mut() {
                engine.send("stop");
                if engine.wait_bestmove(STOP_TIMEOUT).is_err() {
                    self.engine = None;
                }
            }
        }
        outcome
    }
}

/// The `go` command, with a fixed move time when the game has no clock.
fn go_command(clock: &Clock, side: Color, config: &ClientConfig, ponder: bool) -> String {
    if clock.is_unlimited(side) {
        let p = if ponder { " ponder" } else { "" };
        return format!("go{p} btime 0 wtime 0 byoyomi {NO_CLOCK_MOVE_MS}");
    }
    clock.go_command(side, config.margin_ms, ponder, config.inc_as_byoyomi)
}

fn unexpected(line: &str, context: &'static str) -> ClientError {
    ClientError::Protocol(ProtocolError::Unexpected {
        line: line.to_string(),
        context,
    })
}

/// The floodgate comment for a move: `* <score> <pv>` with the score from Black's side (as
/// floodgate's viewer and shogi-server's own bridge show it) and the PV after the move in
/// CSA, cut at the first move that does not read. `None` without a score.
pub fn floodgate_comment(pos: &Position, mv: Move, reply: &Reply, me: Color) -> Option<String> {
    let score = reply.score?;
    let black_score = if me == Color::Black { score } else { -score };
    let mut out = format!("* {black_score}");
    let mut line = pos.clone();
    line.play_unchecked(mv);
    let pv = match reply.pv.first() {
        Some(first) if *first == mv.to_string() => &reply.pv[1..],
        _ => &reply.pv[..],
    };
    for text in pv {
        let Some(m) = Move::from_usi(text).filter(|&m| line.is_legal(m)) else {
            break;
        };
        out.push(' ');
        out.push_str(&notation::move_to_csa(&line, m));
        line.play_unchecked(m);
    }
    Some(out)
}
