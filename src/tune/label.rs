//! Labels for tuning from a stronger engine: every position of a self-play file is given
//! to another USI engine (gpsusi at a fixed depth, say), and its score is written next to
//! the game result. The tuner then fits the evaluation to that engine's judgement as well
//! as to the results (`hayate tune --lambda`): a teacher's score says more about one
//! position than the result of a whole game between two weak players.

use crate::rng::Rng;
use crate::usi_client::{Engine, EngineSpec, MATE_CP};
use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Scores are clipped to this, mates included: beyond it the tuner's sigmoid is flat.
pub const SCORE_CLIP: i32 = 5000;

/// How the positions are labelled.
#[derive(Clone, Debug)]
pub struct Labelling {
    /// The teacher engine and its options.
    pub engine: EngineSpec,
    /// The `go` command for each position.
    pub go: String,
    /// How long one position may take before the engine is given up on.
    pub allowance: Duration,
    /// Teachers run at once.
    pub concurrency: usize,
    /// Most positions labelled (after shuffling with `seed`).
    pub limit: usize,
    pub seed: u64,
}

/// One input line: `sfen<TAB>result[<TAB>anything]`.
struct Input<'a> {
    sfen: &'a str,
    result: &'a str,
}

/// The positions to label: the input lines in a shuffled order fixed by `seed` (so that
/// a partial run covers all games evenly), each position once (games from one opening
/// share their first moves), at most `limit`, less those already in `done`.
fn pick<'a>(text: &'a str, done: &HashSet<String>, limit: usize, seed: u64) -> Vec<Input<'a>> {
    let mut lines: Vec<Input> = text
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some(Input {
                sfen: f.next()?,
                result: f.next()?,
            })
        })
        .collect();
    let mut rng = Rng::seeded(seed);
    for i in (1..lines.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        lines.swap(i, j);
    }
    let mut seen = HashSet::new();
    lines.retain(|l| seen.insert(l.sfen));
    lines.truncate(limit);
    lines.retain(|l| !done.contains(l.sfen));
    lines
}

/// The teacher's score for Black, from its reply for the side to move (`b` or `w`).
fn black_view(score: i32, side: &str) -> i32 {
    let clipped = if score.abs() >= MATE_CP - 1000 {
        score.signum() * SCORE_CLIP
    } else {
        score.clamp(-SCORE_CLIP, SCORE_CLIP)
    };
    if side == "w" {
        -clipped
    } else {
        clipped
    }
}

/// Labels the positions of `text` (a `hayate selfplay` file) and appends
/// `sfen<TAB>result<TAB>teacher score` lines to `out`; positions whose sfen is in `done`
/// (an earlier, interrupted run) are skipped. Returns how many lines were written.
pub fn run(
    config: &Labelling,
    text: &str,
    done: &HashSet<String>,
    out: &mut (dyn Write + Send),
    mut progress: impl FnMut(usize, usize) + Send,
) -> Result<usize, String> {
    let todo = pick(text, done, config.limit, config.seed);
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let out = Mutex::new((out, &mut progress));
    let total = todo.len();
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            scope.spawn(|| {
                let timeout = Duration::from_secs(10);
                let mut engine: Option<Engine> = None;
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total || failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                        break;
                    }
                    let input = &todo[i];
                    if engine.is_none() {
                        match Engine::start(&config.engine, timeout).and_then(|mut e| {
                            e.ready(timeout)?;
                            Ok(e)
                        }) {
                            Ok(e) => engine = Some(e),
                            Err(e) => {
                                *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                                    Some(format!("cannot start the teacher: {e}"));
                                break;
                            }
                        }
                    }
                    let teacher = engine.as_mut().expect("started above");
                    let position = format!("position sfen {}", input.sfen);
                    let (reply, _) = teacher.think(&position, &config.go, config.allowance);
                    let score = match reply {
                        Ok(reply) => match reply.bestmove.as_str() {
                            "resign" => Some(-MATE_CP),
                            "win" => Some(MATE_CP),
                            _ => reply.score,
                        },
                        Err(_) => {
                            // A crash or a hang costs this position, not the run.
                            if let Some(e) = engine.take() {
                                e.quit();
                            }
                            None
                        }
                    };
                    let Some(score) = score else { continue };
                    let side = input.sfen.split_whitespace().nth(1).unwrap_or("b");
                    let line = format!(
                        "{}\t{}\t{}\n",
                        input.sfen,
                        input.result,
                        black_view(score, side)
                    );
                    let mut guard = out.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(e) = guard.0.write_all(line.as_bytes()) {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) =
                            Some(format!("cannot write: {e}"));
                        break;
                    }
                    let n = written.fetch_add(1, Ordering::Relaxed) + 1;
                    (guard.1)(n, total);
                }
                if let Some(e) = engine {
                    e.quit();
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(written.into_inner()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_turned_to_black_and_clipped() {
        assert_eq!(black_view(120, "b"), 120);
        assert_eq!(black_view(120, "w"), -120);
        assert_eq!(black_view(9000, "b"), SCORE_CLIP);
        assert_eq!(black_view(MATE_CP - 3, "w"), -SCORE_CLIP);
        assert_eq!(black_view(-(MATE_CP - 3), "w"), SCORE_CLIP);
    }

    #[test]
    fn picking_is_a_fixed_shuffle_that_skips_done_positions() {
        let text: String = (0..50).map(|i| format!("sfen{i}\t1\t0\n")).collect();
        let none = HashSet::new();
        let a: Vec<&str> = pick(&text, &none, 20, 7).iter().map(|l| l.sfen).collect();
        let b: Vec<&str> = pick(&text, &none, 20, 7).iter().map(|l| l.sfen).collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 20);
        assert_ne!(a[..5], ["sfen0", "sfen1", "sfen2", "sfen3", "sfen4"]);
        let done: HashSet<String> = a[..5].iter().map(|s| s.to_string()).collect();
        let c: Vec<&str> = pick(&text, &done, 20, 7).iter().map(|l| l.sfen).collect();
        assert_eq!(c, a[5..]);
    }

    #[test]
    fn a_position_met_in_several_games_is_picked_once() {
        let text: String = (0..60)
            .map(|i| format!("sfen{}\t{}\t0\n", i % 20, i % 2))
            .collect();
        let picked = pick(&text, &HashSet::new(), 100, 3);
        let distinct: HashSet<&str> = picked.iter().map(|l| l.sfen).collect();
        assert_eq!(picked.len(), 20);
        assert_eq!(distinct.len(), 20);
    }
}
