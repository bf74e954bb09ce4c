//! The weight tuner: a logistic fit of the evaluation to game results and teacher scores.
//!
//! Each training position carries the result of the game it came from (1 Black won,
//! 0.5 draw, 0 White won) and, usually, a score: the self-play search's own, or a
//! stronger engine's from `hayate label`. The evaluation is linear in its weights,
//! `e = Σ wᵢ·xᵢ` over the feature counts `xᵢ` of the position, so the expected score
//! `σ(e / k)` is a logistic model. The tuner first picks the scale `k` that best fits the
//! current weights to the results, sets each target to `λ·result + (1 − λ)·σ(score / k)`,
//! then minimises the mean squared error between targets and `σ(e / k)` by full-batch
//! gradient descent with Adam (steps in centipawns, shrinking over the epochs). Given
//! held-out positions, it keeps the epoch that predicts them best.

use crate::eval::params::NUM_WEIGHTS;
use crate::eval::{features, Sink};
use crate::position::Position;
use crate::win_rate::sigmoid;

/// A position reduced to its sparse feature counts.
pub struct Sample {
    pub features: Vec<(u32, i16)>,
    /// What the model is fitted to: the game result, or a blend of it with the search
    /// score (see [`blend`]).
    pub result: f64,
    /// The game result (1 Black won, 0.5 draw, 0 White won).
    pub game_result: f64,
    /// The search score when the position was played (Black's view), if recorded.
    pub score: Option<f64>,
}

struct Collect(Vec<(u32, i16)>);

impl Sink for Collect {
    fn add(&mut self, index: usize, count: i32) {
        match self.0.iter_mut().find(|(i, _)| *i as usize == index) {
            Some(entry) => entry.1 += count as i16,
            None => self.0.push((index as u32, count as i16)),
        }
    }
}

/// Reads `sfen<TAB>result[<TAB>score]` lines. Bad lines are skipped and counted.
pub fn load(text: &str) -> (Vec<Sample>, usize) {
    let mut samples = Vec::new();
    let mut bad = 0;
    for line in text.lines() {
        let mut fields = line.split('\t');
        let (Some(sfen), Some(result)) = (fields.next(), fields.next()) else {
            bad += 1;
            continue;
        };
        let (Ok(pos), Ok(result)) = (sfen.parse::<Position>(), result.parse::<f64>()) else {
            bad += 1;
            continue;
        };
        let score = fields.next().and_then(|s| s.parse::<f64>().ok());
        let mut c = Collect(Vec::with_capacity(64));
        features(&pos, &mut c);
        c.0.retain(|&(_, n)| n != 0);
        samples.push(Sample {
            features: c.0,
            result,
            game_result: result,
            score,
        });
    }
    (samples, bad)
}

/// Sets each sample's target to `lambda × result + (1 − lambda) × σ(score / k)`: the
/// search score of a deeper look at the position is a less noisy target than the result
/// of a whole game played by a weak engine.
pub fn blend(samples: &mut [Sample], lambda: f64, k: f64) {
    for s in samples {
        s.result = match s.score {
            Some(score) => lambda * s.game_result + (1.0 - lambda) * sigmoid(score / k),
            None => s.game_result,
        };
    }
}

fn eval(sample: &Sample, w: &[f64]) -> f64 {
    sample
        .features
        .iter()
        .map(|&(i, n)| w[i as usize] * n as f64)
        .sum()
}

/// Mean squared error of the model over the samples.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(eval(s, w) / k)).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The scale that fits the weights best (golden-section search over 50..2000).
pub fn best_scale(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (50.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Tuning settings.
#[derive(Clone, Debug)]
pub struct Tuning {
    pub epochs: usize,
    /// Adam's first step, in centipawns per epoch.
    pub learning_rate: f64,
    /// Strength of the pull towards the starting weights (0: none; the gradients are
    /// about 1e-7, so even 1e-6 pins the weights where they start).
    pub regularisation: f64,
    /// Weight of the game result against the search score in the target (1 = result only).
    pub lambda: f64,
    /// Fewest training positions that must show a feature for its weight to be fitted.
    pub min_positions: usize,
}

/// Fits the weights; `progress` receives a line every few epochs, with the error on the
/// `held_out` samples (which the fit never sees) when there are any, so that a new feature
/// set can be judged by how well it predicts games it was not fitted to. Returns the new
/// weights and the scale used.
pub fn fit(
    samples: &mut [Sample],
    held_out: &mut [Sample],
    start: &[i32],
    tuning: &Tuning,
    mut progress: impl FnMut(&str),
) -> (Vec<i32>, f64) {
    let initial: Vec<f64> = start.iter().map(|&v| v as f64).collect();
    let mut w = initial.clone();
    let k = best_scale(samples, &w);
    blend(samples, tuning.lambda, k);
    blend(held_out, tuning.lambda, k);
    let held_out_error = |w: &[f64]| {
        if held_out.is_empty() {
            String::new()
        } else {
            format!(", held-out error {:.6}", error(held_out, w, k))
        }
    };
    progress(&format!(
        "{} positions, scale {k:.1}, starting error {:.6}{}",
        samples.len(),
        error(samples, &w, k),
        held_out_error(&w)
    ));
    let n = samples.len().max(1) as f64;
    // A weight that few positions show is fitted to their noise alone (a ninth pawn in
    // hand worth far more than the eighth); `min_positions` keeps such weights where they
    // start. Held-out errors were lower with every weight fitted, hence the default 0.
    let mut seen = vec![0usize; NUM_WEIGHTS];
    for s in samples.iter() {
        for &(i, _) in &s.features {
            seen[i as usize] += 1;
        }
    }
    let frozen: Vec<bool> = seen.iter().map(|&c| c < tuning.min_positions).collect();
    let mut m = vec![0.0; NUM_WEIGHTS];
    let mut v = vec![0.0; NUM_WEIGHTS];
    // The gradients are small (the scale k is near 1000), so epsilon must be smaller still.
    let (b1, b2, eps) = (0.9, 0.999, 1e-12);
    // With held-out samples, the weights of the epoch that predicted them best are kept
    // (early stopping: later epochs only fit the training positions' noise).
    let mut best = (f64::INFINITY, w.clone());
    for epoch in 1..=tuning.epochs {
        let mut grad = vec![0.0; NUM_WEIGHTS];
        for s in samples.iter() {
            let p = sigmoid(eval(s, &w) / k);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / k;
            for &(i, c) in &s.features {
                grad[i as usize] += g * c as f64;
            }
        }
        // The step shrinks linearly to a tenth by the last epoch, so the weights settle.
        let rate = tuning.learning_rate * (1.0 - 0.9 * (epoch - 1) as f64 / tuning.epochs as f64);
        for i in (0..NUM_WEIGHTS).filter(|&i| !frozen[i]) {
            let gi = grad[i] / n + tuning.regularisation * (w[i] - initial[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
        if !held_out.is_empty() && (epoch % 5 == 0 || epoch == tuning.epochs) {
            let e = error(held_out, &w, k);
            if e < best.0 {
                best = (e, w.clone());
            }
        }
        if epoch % 10 == 0 || epoch == tuning.epochs {
            progress(&format!(
                "epoch {epoch}: error {:.6}{}",
                error(samples, &w, k),
                held_out_error(&w)
            ));
        }
    }
    if best.0.is_finite() {
        progress(&format!(
            "kept the weights with held-out error {:.6}",
            best.0
        ));
        w = best.1;
    }
    (w.iter().map(|&x| x.round() as i32).collect(), k)
}
