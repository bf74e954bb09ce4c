//! The logistic curve that turns an evaluation into a win rate, and its one scale.
//!
//! The trainer's loss, the data generator's agreement figures and the linear
//! evaluation's fitter all compare evaluations through the same curve; keeping it in
//! one place keeps their figures comparable.

/// Centipawns per unit of the logistic's argument: `win_rate(cp) = sigmoid(cp / 600)`,
/// the usual constant of the shogi engines' training scripts.
pub const SCORE_SCALE: f64 = 600.0;

/// The logistic function 1 / (1 + e^-x).
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// [`sigmoid`] in single precision, for the trainer's inner loops.
#[inline]
pub fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The win rate of an evaluation of `cp` centipawns.
#[inline]
pub fn win_rate(cp: f64) -> f64 {
    sigmoid(cp / SCORE_SCALE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_rate_is_even_at_zero_and_symmetric() {
        assert_eq!(win_rate(0.0), 0.5);
        assert!((win_rate(600.0) - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12);
        assert!((win_rate(-250.0) + win_rate(250.0) - 1.0).abs() < 1e-12);
        assert!((sigmoid_f32(0.7) as f64 - sigmoid(0.7)).abs() < 1e-6);
    }
}
