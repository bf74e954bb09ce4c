//! One game between two engines, refereed by the runner.
//!
//! The runner never trusts an engine's view of the game: every move is checked with the
//! library's rules, the end of the game (checkmate, sennichite, declaration, move limit)
//! is decided here, and each fault of an engine (a crash, no answer in time, a bad move)
//! loses the game for that engine with the reason recorded.

use super::clock::Clock;
use super::opening::Opening;
use crate::position::Position;
use crate::position::{EnteringKingRule, IllegalMove, Repetition};
use crate::types::{Color, Move};
use crate::usi_client::{Engine, EngineError, EngineSpec};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long an engine that ran out of time gets to answer `stop` before it is restarted.
const STOP_GRACE: Duration = Duration::from_millis(1000);

/// How a game ended, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This colour won.
    Win(Color),
    Draw,
    /// No result: the match was stopped, or neither engine could start the game.
    NoResult,
}

impl Outcome {
    /// The result in the usual `black-white` notation: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub fn notation(self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "1-0",
            Outcome::Win(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::NoResult => "*",
        }
    }

    /// Points for `color`: 1, 1/2 or 0; `None` for a game without result.
    pub fn points(self, color: Color) -> Option<f64> {
        match self {
            Outcome::Win(c) => Some(if c == color { 1.0 } else { 0.0 }),
            Outcome::Draw => Some(0.5),
            Outcome::NoResult => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// The side to move has no legal move (in shogi that loses, in check or not).
    Checkmate,
    /// `bestmove resign`.
    Resign,
    /// The same position for the fourth time, without perpetual check: a draw.
    Sennichite,
    /// Fourfold repetition in which one side checked with every move: the checker loses.
    PerpetualCheck,
    /// `bestmove win` under the entering-king rule, verified.
    Declaration,
    /// `bestmove win` in a position where the rule does not allow it: the declarer loses.
    WrongDeclaration,
    /// Under the try rule, the king reached the enemy king's starting square.
    TryRule,
    /// A well-formed move that is not legal in the position.
    IllegalMove,
    /// A `bestmove` that is not a move at all.
    UnparsableMove,
    /// No `bestmove` within the time allowed (or an engine that hangs).
    TimeUp,
    /// The engine exited (crashed) before or during the game.
    Crash,
    /// The engine wrote more than the runner keeps while it was not its turn.
    Flooded,
    /// No `usiok` or `readyok` in time before the game.
    NotReady,
    /// The move limit was reached: a draw.
    MaxMoves,
    /// Both engines agreed for several moves that one side is lost.
    AdjudicatedLoss,
    /// Both engines agreed for several moves that the game is level.
    AdjudicatedDraw,
    /// The match stopped (an SPRT decision) while this game was running.
    Aborted,
}

impl EndReason {
    /// Every reason, in the order the summary lists them.
    pub const ALL: [EndReason; 17] = [
        EndReason::Checkmate,
        EndReason::Resign,
        EndReason::Sennichite,
        EndReason::PerpetualCheck,
        EndReason::Declaration,
        EndReason::WrongDeclaration,
        EndReason::TryRule,
        EndReason::IllegalMove,
        EndReason::UnparsableMove,
        EndReason::TimeUp,
        EndReason::Crash,
        EndReason::Flooded,
        EndReason::NotReady,
        EndReason::MaxMoves,
        EndReason::AdjudicatedLoss,
        EndReason::AdjudicatedDraw,
        EndReason::Aborted,
    ];

    /// The name used in output and in the JSON records.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Resign => "resign",
            EndReason::Sennichite => "sennichite",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::Declaration => "declaration",
            EndReason::WrongDeclaration => "wrong_declaration",
            EndReason::TryRule => "try_rule",
            EndReason::IllegalMove => "illegal_move",
            EndReason::UnparsableMove => "unparsable_move",
            EndReason::TimeUp => "time_up",
            EndReason::Crash => "crash",
            EndReason::Flooded => "flooded",
            EndReason::NotReady => "not_ready",
            EndReason::MaxMoves => "max_moves",
            EndReason::AdjudicatedLoss => "adjudicated_loss",
            EndReason::AdjudicatedDraw => "adjudicated_draw",
            EndReason::Aborted => "aborted",
        }
    }

    /// Whether the reason is a fault of an engine rather than a result of play.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            EndReason::IllegalMove
                | EndReason::UnparsableMove
                | EndReason::TimeUp
                | EndReason::Crash
                | EndReason::Flooded
                | EndReason::NotReady
                | EndReason::WrongDeclaration
        )
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Score-based adjudication: both engines' reported scores must agree for `moves` moves
/// each (2 × `moves` plies in a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Resign: every score at least this far from 0 in the same direction. Draw: every
    /// score within this of 0.
    pub score_cp: i32,
    pub moves: u32,
    /// Draw adjudication only: not before this many plies of the game.
    pub after_ply: u32,
}

/// The rules every game of a match is played under.
#[derive(Clone, Debug)]
pub struct GameRules {
    pub rule: EnteringKingRule,
    /// Draw after this many plies from the start position, opening moves included.
    pub max_moves: Option<u32>,
    pub margin_ms: u64,
    pub move_timeout_ms: u64,
    /// The wait for `usiok` and for `readyok`.
    pub ready_timeout: Duration,
    pub resign: Option<Adjudication>,
    pub draw: Option<Adjudication>,
}

/// One engine of a worker: its spec and, between games, its process if it is healthy.
pub struct Player {
    pub spec: EngineSpec,
    engine: Option<Engine>,
}

impl Player {
    pub fn new(spec: EngineSpec) -> Player {
        Player { spec, engine: None }
    }

    /// Starts the process if there is none (after a fault the old one was discarded), and
    /// checks it answers `isready`. A process that fails is discarded.
    fn prepare(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if self.engine.is_none() {
            self.engine = Some(Engine::start(&self.spec, timeout)?);
        }
        let engine = self.engine.as_mut().expect("started above");
        if let Err(e) = engine.ready(timeout) {
            self.engine = None;
            return Err(e);
        }
        Ok(())
    }

    /// Kills the process (it is restarted for the next game).
    fn discard(&mut self) {
        self.engine = None;
    }

    fn send(&self, line: &str) {
        if let Some(e) = &self.engine {
            e.send(line);
        }
    }

    /// Ends the process politely at the end of the match.
    pub fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }
}

/// A move of the game with what the runner measured and heard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    /// From `go` to `bestmove`.
    pub time_ms: u64,
    /// The mover's last reported score, centipawns from its side.
    pub score: Option<i32>,
    /// The depth and node count of the mover's last `info` line that gave them.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// What the mover's clock allowed for this move ([`Clock::time_limit`]), `None` under
    /// a fixed node or depth limit.
    pub limit_ms: Option<u64>,
}

/// Everything the records and the summary need about one finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game number in the match.
    pub index: usize,
    pub opening_index: usize,
    pub opening: Opening,
    /// Which engine (0 or 1) played each colour, by colour.
    pub engine_of: [usize; 2],
    /// Engine names by colour.
    pub names: [String; 2],
    /// Seconds since the Unix epoch when the game started.
    pub started_unix: u64,
    /// The moves after the opening.
    pub moves: Vec<PlayedMove>,
    pub outcome: Outcome,
    pub reason: EndReason,
    /// Human-readable detail: who did what (the illegal move, the crash message, …).
    pub detail: String,
}

impl GameRecord {
    /// Points of engine `slot` (0 or 1), `None` without a result.
    pub fn points_of_engine(&self, slot: usize) -> Option<f64> {
        let color = self.color_of(slot);
        self.outcome.points(color)
    }

    /// The colour engine `slot` played.
    pub fn color_of(&self, slot: usize) -> Color {
        if self.engine_of[0] == slot {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// What one game needs to know beyond the rules.
pub struct GameSetup<'a> {
    pub index: usize,
    pub opening_index: usize,
    pub opening: &'a Opening,
    /// Which player (0 or 1) plays Black.
    pub black_slot: usize,
}

/// The end of a game as the referee finds it.
type End = (Outcome, EndReason, String);

/// Plays one game. Only an engine that cannot be started at all (a configuration error)
/// is an `Err`; everything an engine does wrong is a lost game in the record.
pub fn play_game(
    players: &mut [Player; 2],
    setup: &GameSetup,
    rules: &GameRules,
    abort: &AtomicBool,
) -> Result<GameRecord, EngineError> {
    let [a, b] = players;
    let mut by_color: [&mut Player; 2] = if setup.black_slot == 0 {
        [a, b]
    } else {
        [b, a]
    };
    let names = [0, 1].map(|c| by_color[c].spec.name.clone());
    let mut record = GameRecord {
        index: setup.index,
        opening_index: setup.opening_index,
        opening: setup.opening.clone(),
        engine_of: [setup.black_slot, 1 - setup.black_slot],
        names,
        started_unix: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        moves: Vec::new(),
        outcome: Outcome::NoResult,
        reason: EndReason::Aborted,
        detail: String::new(),
    };

    let end = match start_both(&mut by_color, rules)? {
        Some(end) => end,
        None => {
            for player in by_color.iter() {
                player.send("usinewgame");
            }
            play_moves(&mut by_color, &mut record, rules, abort)
        }
    };
    (record.outcome, record.reason, record.detail) = end;

    for color in Color::ALL {
        let word = match record.outcome {
            Outcome::Win(c) if c == color => "win",
            Outcome::Win(_) => "lose",
            Outcome::Draw | Outcome::NoResult => "draw",
        };
        by_color[color.index()].send(&format!("gameover {word}"));
    }
    Ok(record)
}

/// Readies both engines. `Some` ends the game before it starts: the engine that failed
/// loses (no result if both failed).
fn start_both(
    players: &mut [&mut Player; 2],
    rules: &GameRules,
) -> Result<Option<End>, EngineError> {
    let mut failures: [Option<(EndReason, String)>; 2] = [None, None];
    for color in Color::ALL {
        let player = &mut players[color.index()];
        match player.prepare(rules.ready_timeout) {
            Ok(()) => {}
            Err(e @ EngineError::Spawn { .. }) => return Err(e),
            Err(e) => {
                let reason = match e {
                    EngineError::Exited { .. } => EndReason::Crash,
                    _ => EndReason::NotReady,
                };
                failures[color.index()] = Some((reason, format!("{}: {e}", player.spec.name)));
            }
        }
    }
    Ok(match failures {
        [None, None] => None,
        [Some((reason, detail)), None] => Some((Outcome::Win(Color::White), reason, detail)),
        [None, Some((reason, detail))] => Some((Outcome::Win(Color::Black), reason, detail)),
        [Some((reason, d1)), Some((_, d2))] => {
            Some((Outcome::NoResult, reason, format!("{d1}; {d2}")))
        }
    })
}

/// The game loop: ask the side to move, check its answer, until the game ends.
fn play_moves(
    players: &mut [&mut Player; 2],
    record: &mut GameRecord,
    rules: &GameRules,
    abort: &AtomicBool,
) -> End {
    let opening = &record.opening;
    let mut pos = opening.start_position();
    let mut usi_moves: Vec<String> = Vec::new();
    for &mv in &opening.moves {
        pos.play_unchecked(mv);
        usi_moves.push(mv.to_string());
    }
    let start = opening.usi_start();
    let opening_plies = opening.moves.len();
    let first_mover = pos.side_to_move();
    let tcs = [0, 1].map(|c| players[c].spec.tc.clone());
    let mut clock = Clock::new(tcs, rules.margin_ms, rules.move_timeout_ms);

    loop {
        if let Some(end) = referee(&pos, opening_plies, &record.moves, first_mover, rules) {
            return end;
        }
        if abort.load(Ordering::SeqCst) {
            return (
                Outcome::NoResult,
                EndReason::Aborted,
                "the match was stopped".into(),
            );
        }
        let side = pos.side_to_move();
        let player = &mut players[side.index()];
        let name = player.spec.name.clone();
        let lose =
            |reason, detail: String| (Outcome::Win(!side), reason, format!("{name}: {detail}"));
        let Some(engine) = player.engine.as_mut() else {
            return lose(EndReason::Crash, "no engine process".into());
        };
        let position = if usi_moves.is_empty() {
            format!("position {start}")
        } else {
            format!("position {start} moves {}", usi_moves.join(" "))
        };
        let allowance = clock.allowance(side);
        let limit_ms = clock.time_limit(side);
        let (reply, elapsed) = engine.think(&position, &clock.go_command(side), allowance);
        let reply = match reply {
            Ok(reply) => reply,
            Err(e @ EngineError::Timeout { .. }) => {
                if !engine.stop(STOP_GRACE) {
                    player.discard();
                }
                return lose(EndReason::TimeUp, e.to_string());
            }
            Err(e @ EngineError::Flooded { .. }) => {
                player.discard();
                return lose(EndReason::Flooded, e.to_string());
            }
            Err(e) => {
                player.discard();
                return lose(EndReason::Crash, e.to_string());
            }
        };
        if let Err(late) = clock.charge(side, elapsed) {
            return lose(EndReason::TimeUp, late.to_string());
        }
        let mv = match reply.bestmove.as_str() {
            "resign" => return lose(EndReason::Resign, "resigned".into()),
            "win" if pos.can_declare_win(rules.rule) => {
                return (
                    Outcome::Win(side),
                    EndReason::Declaration,
                    format!("{name} declared a win ({})", rules.rule),
                )
            }
            "win" => {
                return lose(
                    EndReason::WrongDeclaration,
                    format!("declared a win that {} does not allow here", rules.rule),
                )
            }
            text => match pos.parse_move(text) {
                Ok(mv) => mv,
                Err(IllegalMove::Syntax(_)) => {
                    let shown: String = text.chars().take(40).collect();
                    return lose(EndReason::UnparsableMove, format!("bestmove '{shown}'"));
                }
                Err(e) => return lose(EndReason::IllegalMove, e.to_string()),
            },
        };
        let try_win = rules.rule == EnteringKingRule::TryRule && pos.try_rule_move() == Some(mv);
        pos.play_unchecked(mv);
        usi_moves.push(mv.to_string());
        record.moves.push(PlayedMove {
            mv,
            time_ms: elapsed.as_millis() as u64,
            score: reply.score,
            depth: reply.depth,
            nodes: reply.nodes,
            limit_ms,
        });
        if try_win {
            return (
                Outcome::Win(side),
                EndReason::TryRule,
                format!("{name}'s king reached the try square"),
            );
        }
    }
}

/// Ends the game when the position decides it: sennichite, no legal move, the move limit,
/// or score adjudication. Checked before every move, so the checks see the position the
/// side to move would have to answer.
fn referee(
    pos: &Position,
    opening_plies: usize,
    moves: &[PlayedMove],
    first_mover: Color,
    rules: &GameRules,
) -> Option<End> {
    let side = pos.side_to_move();
    match pos.sennichite() {
        Some(Repetition::Win) => {
            return Some((
                Outcome::Win(side),
                EndReason::PerpetualCheck,
                format!("{} gave perpetual check", !side),
            ))
        }
        Some(Repetition::Loss) => {
            return Some((
                Outcome::Win(!side),
                EndReason::PerpetualCheck,
                format!("{side} gave perpetual check"),
            ))
        }
        Some(_) => {
            return Some((
                Outcome::Draw,
                EndReason::Sennichite,
                "fourfold repetition".into(),
            ))
        }
        None => {}
    }
    if pos.legal_moves().is_empty() {
        let detail = if pos.in_check() {
            format!("{side} is checkmated")
        } else {
            format!("{side} has no legal move")
        };
        return Some((Outcome::Win(!side), EndReason::Checkmate, detail));
    }
    let plies = opening_plies + moves.len();
    if let Some(max) = rules.max_moves {
        if plies >= max as usize {
            return Some((Outcome::Draw, EndReason::MaxMoves, format!("{plies} plies")));
        }
    }
    adjudicate(side, plies, moves, first_mover, rules)
}

/// Score adjudication over the last 2 × `moves` plies, all with a reported score.
fn adjudicate(
    side: Color,
    plies: usize,
    moves: &[PlayedMove],
    first_mover: Color,
    rules: &GameRules,
) -> Option<End> {
    // Scores from Black's side, for the last `n` plies.
    let black_scores = |n: usize| -> Option<Vec<i32>> {
        if moves.len() < n || n == 0 {
            return None;
        }
        (moves.len() - n..moves.len())
            .map(|i| {
                let mover = if i % 2 == 0 {
                    first_mover
                } else {
                    !first_mover
                };
                let s = moves[i].score?;
                Some(if mover == Color::Black { s } else { -s })
            })
            .collect()
    };
    if let Some(adj) = rules.resign {
        if let Some(scores) = black_scores(2 * adj.moves as usize) {
            // Applied when the loser is to move, so it reads as the loser resigning.
            let loser_sign = if side == Color::Black { -1 } else { 1 };
            if scores.iter().all(|&s| s * loser_sign >= adj.score_cp) {
                return Some((
                    Outcome::Win(!side),
                    EndReason::AdjudicatedLoss,
                    format!(
                        "both engines scored {side} at -{} cp or worse for {} moves",
                        adj.score_cp, adj.moves
                    ),
                ));
            }
        }
    }
    if let Some(adj) = rules.draw {
        if plies >= adj.after_ply as usize {
            if let Some(scores) = black_scores(2 * adj.moves as usize) {
                if scores.iter().all(|s| s.abs() <= adj.score_cp) {
                    return Some((
                        Outcome::Draw,
                        EndReason::AdjudicatedDraw,
                        format!(
                            "both engines scored within {} cp for {} moves",
                            adj.score_cp, adj.moves
                        ),
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> GameRules {
        GameRules {
            rule: EnteringKingRule::CsaRule27,
            max_moves: Some(10),
            margin_ms: 0,
            move_timeout_ms: 1000,
            ready_timeout: Duration::from_secs(1),
            resign: Some(Adjudication {
                score_cp: 500,
                moves: 2,
                after_ply: 0,
            }),
            draw: Some(Adjudication {
                score_cp: 10,
                moves: 2,
                after_ply: 6,
            }),
        }
    }

    fn played(scores: &[Option<i32>]) -> Vec<PlayedMove> {
        let mv = Move::from_usi("7g7f").unwrap();
        scores
            .iter()
            .map(|&score| PlayedMove {
                mv,
                time_ms: 0,
                score,
                depth: None,
                nodes: None,
                limit_ms: None,
            })
            .collect()
    }

    #[test]
    fn resign_adjudication_needs_both_engines_and_the_loser_to_move() {
        let r = rules();
        // Black moved first; scores are each mover's own view. White is lost.
        let m = played(&[Some(600), Some(-700), Some(900), Some(-800)]);
        let end = adjudicate(Color::White, 4, &m, Color::Black, &r);
        assert_eq!(end.unwrap().1, EndReason::AdjudicatedLoss);
        assert_eq!(adjudicate(Color::Black, 4, &m, Color::Black, &r), None);
        // White does not agree on one move: no adjudication.
        let m = played(&[Some(600), Some(-700), Some(900), Some(-100)]);
        assert_eq!(adjudicate(Color::White, 4, &m, Color::Black, &r), None);
        // A missing score: no adjudication.
        let m = played(&[Some(600), None, Some(900), Some(-800)]);
        assert_eq!(adjudicate(Color::White, 4, &m, Color::Black, &r), None);
    }

    #[test]
    fn draw_adjudication_waits_for_its_ply() {
        let r = rules();
        let m = played(&[Some(5), Some(-3), Some(0), Some(10)]);
        assert_eq!(adjudicate(Color::Black, 4, &m, Color::Black, &r), None);
        let end = adjudicate(Color::Black, 6, &m, Color::Black, &r).unwrap();
        assert_eq!((end.0, end.1), (Outcome::Draw, EndReason::AdjudicatedDraw));
    }

    #[test]
    fn referee_finds_checkmate_and_the_move_limit() {
        let r = rules();
        // White to move and mated: a gold on 5b, defended by the pawn on 5c.
        let mated: Position = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1".parse().unwrap();
        let end = referee(&mated, 0, &[], Color::White, &r).unwrap();
        assert_eq!(end.0, Outcome::Win(Color::Black));
        assert_eq!(end.1, EndReason::Checkmate);
        let start = Position::startpos();
        assert_eq!(referee(&start, 0, &[], Color::Black, &r), None);
        let end = referee(&start, 10, &[], Color::Black, &r).unwrap();
        assert_eq!((end.0, end.1), (Outcome::Draw, EndReason::MaxMoves));
    }
}
