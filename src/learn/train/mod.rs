//! `hayate train`: trains a classic NNUE net (`kp_256x2-32-32`, `halfkp_256x2-32-32`, or
//! a K+P or HalfKP net of other widths, e.g. `halfkp_512x2-16-32`) on the CPU from `PackedSfenValue` records and writes it in YaneuraOu's format.
//!
//! The float net mirrors the integer one: the transformer's sums and every hidden layer
//! are clipped to 0..1 (127 in the integer net), and the output `y` is the evaluation in
//! units of [`SCORE_SCALE`] centipawns. Quantising multiplies the transformer by 127, the
//! hidden layers' weights by 64 (their biases by 127 · 64) and the output layer so that the
//! integer output divided by `FV_SCALE` (16) is `y · SCORE_SCALE`.
//!
//! The loss is the cross-entropy between the predicted win rate `sigmoid(y)` and a blend
//! of the search score's win rate `sigmoid(score / SCORE_SCALE)` (weight `lambda`) and
//! the game result (weight `1 - lambda`), less the target's own entropy, so a perfect fit
//! is 0. HalfKP trains with a factoriser: each (king, piece) feature also switches on a
//! king-independent piece feature, whose weights are added to every king's at export, so
//! the 125,388 rows learn from what they share.

mod cli;
mod export;
mod model;
mod optimizer;
mod shape;

pub use cli::{parse, run, run_cli, TrainArgs};
pub use model::Model;
pub use optimizer::Trainer;
pub use shape::{Shape, ShapeError};

use super::packed::{self, PackedSfenValue};
use crate::eval::nnue::features;
use crate::position::Position;
use crate::rng::Rng;
use rayon::prelude::*;
use std::path::Path;

/// Centipawns per unit of the float net's output: the win rate's scale
/// ([`crate::win_rate::SCORE_SCALE`]).
pub const SCORE_SCALE: f32 = crate::win_rate::SCORE_SCALE as f32;

/// `FV_SCALE` the exported nets are made for.
pub const EXPORT_FV_SCALE: f32 = 16.0;

/// One training position: the active features from the side to move's and the other
/// side's view (the factoriser's rows follow from them), the score and the result.
#[derive(Clone)]
pub struct Sample {
    pub(crate) features: [Vec<u32>; 2],
    /// Target win rate of the side to move for `lambda` = 1 and 0.
    pub(crate) score_rate: f32,
    pub(crate) result_rate: f32,
}

pub(crate) use crate::win_rate::sigmoid_f32 as sigmoid;

/// How records become samples.
#[derive(Clone, Copy, Default)]
pub struct Sampling<'a> {
    /// Each position also gives its mirror image (files 1-9 swapped), which the rules
    /// treat alike, so it has the same score and result: twice the positions for the
    /// price of one search.
    pub mirror: bool,
    /// Score every position with this evaluation's static score instead of the record's
    /// search score (distillation).
    pub teacher: Option<&'a crate::eval::Evaluator>,
    /// With a teacher: this many more positions a record, each reached from it by
    /// [`WALK_PLIES`] random legal moves at most, with the teacher's score as both targets
    /// (the game's result says nothing of a position a random move reached). Positions
    /// for a net to learn its teacher from cost an evaluation, not a search.
    pub walks: usize,
    /// With a teacher: the records keep their search scores (the teacher scores only the
    /// walks' positions).
    pub keep_scores: bool,
    /// Only records whose best move is quiet give a sample of their own (see
    /// [`PackedSfenValue::best_move_is_quiet`]); a teacher's walks still start from every
    /// record.
    pub quiet: bool,
}

/// The longest random walk from a record to an extra teacher-scored position.
pub const WALK_PLIES: usize = 4;
/// The seed of the random walks (stream i for record i: the same whichever thread).
const WALK_SEED: u64 = 0x7761_6c6b;

/// Turns records into samples (positions that do not unpack or lack a king are skipped).
pub fn samples(shape: Shape, records: &[PackedSfenValue], how: Sampling) -> Vec<Sample> {
    let sample = |pos: &Position, score: i32, result_rate: Option<f32>| -> Option<Sample> {
        if !features::supports(pos) {
            return None;
        }
        let us = pos.side_to_move();
        let score_rate = sigmoid(score as f32 / SCORE_SCALE);
        Some(Sample {
            features: [shape.active(pos, us), shape.active(pos, !us)],
            score_rate,
            result_rate: result_rate.unwrap_or(score_rate),
        })
    };
    records
        .par_iter()
        .enumerate()
        .flat_map_iter(|(index, r)| {
            let pos = packed::unpack(&r.sfen).ok();
            let mirrored = pos
                .as_ref()
                .filter(|_| how.mirror)
                .and_then(|p| mirror_files(p).ok());
            let result_rate = (r.game_result as f32 + 1.0) / 2.0;
            let mut out = Vec::new();
            let own = !how.quiet || pos.as_ref().is_some_and(|p| r.best_move_is_quiet(p));
            for pos in pos.into_iter().chain(mirrored) {
                if own {
                    let score = match how.teacher {
                        Some(t) if !how.keep_scores => t.evaluate(&pos),
                        _ => r.score as i32,
                    };
                    out.extend(sample(&pos, score, Some(result_rate)));
                }
                let Some(teacher) = how.teacher else { continue };
                let mut rng = Rng::stream(WALK_SEED, index as u64);
                for _ in 0..how.walks {
                    let walked = random_walk(&pos, &mut rng);
                    if let Some(p) = walked.filter(|p| !p.in_check()) {
                        out.extend(sample(&p, teacher.evaluate(&p), None));
                    }
                }
            }
            out
        })
        .collect()
}

/// A position 1 to [`WALK_PLIES`] random legal moves from `pos` (None when it ends).
fn random_walk(pos: &Position, rng: &mut Rng) -> Option<Position> {
    let mut p = pos.clone();
    let plies = 1 + rng.below(WALK_PLIES as u64) as usize;
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let i = rng.below(moves.len() as u64) as usize;
        p.play(moves[i]);
    }
    Some(p)
}

/// The position seen in a mirror: file 1 becomes file 9 and so on (every rank of the SFEN
/// read backwards), hands and side to move unchanged.
pub fn mirror_files(pos: &Position) -> Result<Position, crate::position::SfenError> {
    let sfen = pos.to_string();
    let (board, rest) = sfen.split_once(' ').unwrap_or((&sfen, ""));
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| {
            // Squares from file 9 to 1: a piece with its '+', or a run of empty squares.
            let mut squares: Vec<&str> = Vec::new();
            let mut start = 0;
            for (i, c) in rank.char_indices() {
                if c != '+' {
                    squares.push(&rank[start..i + c.len_utf8()]);
                    start = i + c.len_utf8();
                }
            }
            squares.reverse();
            squares.concat()
        })
        .collect();
    format!("{} {rest}", ranks.join("/")).parse()
}

/// Reads every whole record of a file.
pub fn read_records(path: &Path) -> std::io::Result<Vec<PackedSfenValue>> {
    packed::read_file(path, 0, u64::MAX).map(|(records, _)| records)
}

/// Splits records into training and held-out positions by game: a game begins where the
/// ply does not follow the record before; every `every`-th game is held out.
pub fn split_by_game(
    records: Vec<PackedSfenValue>,
    every: usize,
) -> (Vec<PackedSfenValue>, Vec<PackedSfenValue>) {
    let mut train = Vec::new();
    let mut held = Vec::new();
    let mut game = 0usize;
    let mut last_ply = u16::MAX;
    for r in records {
        if r.game_ply <= last_ply {
            game += 1;
        }
        last_ply = r.game_ply;
        if every > 0 && game.is_multiple_of(every) {
            held.push(r);
        } else {
            train.push(r);
        }
    }
    (train, held)
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub lambda: f32,
    pub seed: u64,
}

/// Trains `model` and reports each epoch through `report` (epoch, training loss,
/// held-out loss, seconds, and the trainer, for checkpoints); returns the trainer. The
/// training samples are taken, not copied: they are shuffled in place (tens of millions
/// of HalfKP samples fill most of a machine's memory once).
pub fn train(
    model: Model,
    mut order: Vec<Sample>,
    held: &[Sample],
    config: &TrainConfig,
    mut report: impl FnMut(usize, f64, f64, f64, &Trainer),
) -> Trainer {
    let mut trainer = Trainer::new(model);
    let mut rng = Rng::seeded(config.seed);
    for epoch in 1..=config.epochs {
        // Shuffle (Fisher-Yates).
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        let started = std::time::Instant::now();
        let loss = trainer.epoch(&order, config);
        let secs = started.elapsed().as_secs_f64();
        let held_loss = trainer.loss(held, config.lambda);
        report(epoch, loss, held_loss, secs, &trainer);
    }
    trainer
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record of `pos` with this score and result.
    fn record(pos: &Position, score: i16, game_result: i8) -> PackedSfenValue {
        crate::attacks::init();
        crate::eval::init();
        PackedSfenValue {
            sfen: packed::pack(pos).unwrap(),
            score,
            mv: 0,
            game_ply: 40,
            game_result,
        }
    }

    /// With a teacher, a sample's score is the teacher's static evaluation of the
    /// position (and of its mirror image), not the record's search score.
    #[test]
    fn a_teacher_replaces_the_search_score() {
        let pos: Position = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
            .parse()
            .unwrap();
        let record = record(&pos, 1234, 0);
        let linear = crate::eval::Evaluator::Linear;
        let taught = samples(
            Shape::KP,
            std::slice::from_ref(&record),
            Sampling {
                mirror: true,
                teacher: Some(&linear),
                walks: 0,
                keep_scores: false,
                quiet: false,
            },
        );
        let plain = samples(
            Shape::KP,
            std::slice::from_ref(&record),
            Sampling::default(),
        );
        let expected = sigmoid(crate::eval::evaluate(&pos) as f32 / SCORE_SCALE);
        assert_ne!(crate::eval::evaluate(&pos), 1234);
        assert_eq!(taught.len(), 2);
        for s in &taught {
            assert_eq!(s.score_rate, expected);
        }
        assert_eq!(plain[0].score_rate, sigmoid(1234.0 / SCORE_SCALE));
        assert_eq!(plain[0].result_rate, 0.5);
    }

    /// Random walks add teacher-scored positions near each record, different from it and
    /// from each other, with the teacher's score as the result target too.
    #[test]
    fn walks_add_teacher_scored_positions() {
        let record = record(&Position::startpos(), 0, 1);
        let linear = crate::eval::Evaluator::Linear;
        let how = Sampling {
            mirror: false,
            teacher: Some(&linear),
            walks: 6,
            keep_scores: true,
            quiet: false,
        };
        let out = samples(Shape::HALFKP, std::slice::from_ref(&record), how);
        assert_eq!(out.len(), 7);
        assert_eq!(out[0].result_rate, 1.0);
        assert_eq!(out[0].score_rate, 0.5, "the record's own score is kept");
        let distinct: std::collections::HashSet<_> =
            out.iter().map(|s| s.features.clone()).collect();
        assert!(distinct.len() >= 5, "{} distinct", distinct.len());
        for s in &out[1..] {
            assert_eq!(s.result_rate, s.score_rate);
        }
        // The same records give the same samples (the walks are seeded by the record).
        let again = samples(Shape::HALFKP, std::slice::from_ref(&record), how);
        let same = out
            .iter()
            .zip(&again)
            .all(|(a, b)| a.features == b.features);
        assert!(same);
    }
}
