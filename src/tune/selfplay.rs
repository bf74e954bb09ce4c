//! Self-play games for tuning: hayate plays itself from the balanced openings with a small
//! node budget, and every quiet position of each game is written out with the game's
//! result. The same seed and settings give the same file, so the data behind the shipped
//! weights can be made again from the repository.

use crate::position::{EnteringKingRule, PositionCommand, Repetition};
use crate::rng::Rng;
use crate::search::{score, Decision, Event, Limits, Reporter, Settings};
use crate::threads::ThreadPool;
use crate::time::TimeOptions;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The openings the games start from (the balanced set the project shares).
pub const OPENINGS: &str = include_str!("openings.sfen");

/// How self-play is run.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub games: usize,
    pub nodes: u64,
    pub seed: u64,
    pub concurrency: usize,
    /// Plies after which a game is a draw.
    pub max_plies: u32,
}

/// One recorded position.
struct Sample {
    sfen: String,
    /// Score of the search, from Black's side.
    score: i32,
}

/// A game's samples and its result for Black.
type GameOutcome = (Vec<Sample>, f32);

/// The outcome of a game from Black's side: 1, 0.5 or 0.
fn result_for_black(loser: Option<crate::types::Color>) -> f32 {
    match loser {
        Some(crate::types::Color::White) => 1.0,
        Some(crate::types::Color::Black) => 0.0,
        None => 0.5,
    }
}

/// Plays one game from `opening` and returns its samples and the result for Black.
///
/// Each move gets between half and one and a half times `nodes` (drawn from `rng`): with
/// one budget per game, games from the same opening kept retracing each other, and 6,000
/// games held only 39,000 distinct positions among 354,000.
fn play_game(
    pool: &mut ThreadPool,
    opening: &str,
    nodes: u64,
    max_plies: u32,
    rng: &mut Rng,
) -> GameOutcome {
    use crate::types::Color;
    let mut pos = PositionCommand::strict_position(opening).expect("openings are valid");
    pool.clear();
    let mut samples = Vec::new();
    let mut decisive_streak: i32 = 0;
    let mut plies = 0;
    loop {
        if let Some(rep) = pos.sennichite() {
            let side = pos.side_to_move();
            let loser = match rep {
                Repetition::Win => Some(!side),
                Repetition::Loss => Some(side),
                _ => None,
            };
            return (samples, result_for_black(loser));
        }
        if plies >= max_plies {
            return (samples, 0.5);
        }
        let last: Arc<Mutex<(Option<Decision>, i32)>> = Arc::new(Mutex::new((None, 0)));
        let sink = last.clone();
        let reporter: Reporter = Arc::new(move |event| {
            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
            match event {
                Event::Progress(p) if p.multipv == 1 => s.1 = p.score,
                Event::BestMove { decision, .. } => s.0 = Some(decision),
                _ => {}
            }
        });
        let settings = Settings {
            limits: Limits {
                nodes: Some(nodes * (50 + rng.next_u64() % 101) / 100),
                multipv: 1,
                ..Limits::default()
            },
            rule: EnteringKingRule::CsaRule27,
            time: TimeOptions::default(),
            max_moves_to_draw: 0,
            eval: crate::eval::Evaluator::Linear,
        };
        pool.start(pos.clone(), settings, reporter);
        pool.wait();
        let (decision, score) = *last.lock().unwrap_or_else(|e| e.into_inner());
        let side = pos.side_to_move();
        let mv = match decision {
            Some(Decision::Move(mv)) => mv,
            Some(Decision::Win) => return (samples, result_for_black(Some(!side))),
            _ => return (samples, result_for_black(Some(side))),
        };
        let black_score = if side == Color::Black { score } else { -score };
        // Quiet positions only: not in check, and the chosen move is not a capture.
        if !pos.in_check() && pos.piece_at(mv.to()).is_none() && !score::is_mate(score) {
            samples.push(Sample {
                sfen: pos.to_string(),
                score: black_score,
            });
        }
        // Adjudicate once both sides agree the game is decided.
        if score.abs() >= 2500 {
            decisive_streak += 1;
            if decisive_streak >= 4 {
                let loser = if black_score > 0 {
                    Color::White
                } else {
                    Color::Black
                };
                return (samples, result_for_black(Some(loser)));
            }
        } else {
            decisive_streak = 0;
        }
        pos.play_unchecked(mv);
        plies += 1;
    }
}

/// Plays the games and writes `sfen<TAB>result<TAB>score` lines to `out`. Returns the
/// number of positions written.
pub fn run(config: &SelfPlay, out: &mut dyn Write) -> std::io::Result<usize> {
    let openings: Vec<&str> = OPENINGS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameOutcome>>> =
        Mutex::new((0..config.games).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                let mut pool = ThreadPool::new(1, 16).expect("a small table");
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= config.games {
                        break;
                    }
                    let mut rng = Rng::stream(config.seed, game as u64);
                    let opening = openings[(game / 2) % openings.len()];
                    let outcome =
                        play_game(&mut pool, opening, config.nodes, config.max_plies, &mut rng);
                    results.lock().unwrap_or_else(|e| e.into_inner())[game] = Some(outcome);
                }
            });
        }
    });
    let mut written = 0;
    for (samples, result) in results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
    {
        for s in samples {
            writeln!(out, "{}\t{}\t{}", s.sfen, result, s.score)?;
            written += 1;
        }
    }
    Ok(written)
}
