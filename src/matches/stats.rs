//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority
//! and the sequential probability ratio test that stops a match once it has an answer.
//!
//! Everything is seen from the first engine's side: a "win" is a win of engine 1.

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of engine 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// An Elo difference with the bounds of its 95% confidence interval. Infinite values stand
/// for a score of 0% or 100%.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

impl Tally {
    /// Adds one game: `points` is 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Mean points per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// Variance of one game's points around the mean (win 1, draw 1/2, loss 0).
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s.powi(2))
                / n,
        )
    }

    /// The Elo difference and its 95% interval from the standard error of the mean score
    /// (the trinomial model: each game is an independent win, draw or loss).
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let stderr = (self.variance()? / self.games() as f64).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(s),
            lower: elo_from_score((s - Z95 * stderr).max(0.0)),
            upper: elo_from_score((s + Z95 * stderr).min(1.0)),
        })
    }

    /// Likelihood of superiority: the probability that engine 1 is the stronger, from wins
    /// and losses alone (draws carry no information about which is stronger). 0.5 with no
    /// decisive game.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let diff = self.wins as f64 - self.losses as f64;
        0.5 * (1.0 + erf(diff / (2.0 * decisive).sqrt()))
    }
}

/// Elo difference that gives an expected score `s` (logistic model). Infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score of a player `elo` points stronger (inverse of [`elo_from_score`]).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7, far
/// finer than any match statistic needs). Written here to avoid a dependency.
pub fn erf(x: f64) -> f64 {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + P * x);
    let poly = A.iter().rev().fold(0.0, |acc, &a| acc * t + a) * t;
    sign * (1.0 - poly * (-x * x).exp())
}

/// Formats an Elo value with its sign, `+inf`/`-inf` for a whitewash.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0.
        format!("{:+.1}", elo + 0.0)
    }
}

/// The verdict of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The Elo difference is at least `elo1`: the change is accepted.
    AcceptH1,
    /// The Elo difference is at most `elo0`: the change is rejected.
    AcceptH0,
}

/// Games of each result (win, draw, loss) added to a tally before the SPRT's ratio is
/// computed (see [`Sprt::llr`]).
const PSEUDO_GAMES: f64 = 0.5;

/// A sequential probability ratio test of H0 "Elo difference is `elo0`" against H1 "it is
/// `elo1`", with error rates `alpha` (false H1) and `beta` (false H0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// The stopping bounds of the log-likelihood ratio: (accept H0 at or below, accept H1 at
    /// or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after the games in `tally`.
    ///
    /// Generalised SPRT with a normal approximation: the mean score x of N games is normal
    /// with the observed per-game variance v, so for the hypothesised means s0 and s1
    /// (the scores of `elo0` and `elo1`)
    /// `LLR = N ((x - s0)^2 - (x - s1)^2) / (2v) = N (s1 - s0)(2x - s0 - s1) / (2v)`.
    ///
    /// Half a win, half a draw and half a loss are added to the games played: over a
    /// few games the observed variance says little (7 wins and a draw would make it
    /// tiny, and the ratio cross a bound after 8 games of two equal engines), and when
    /// every game had the same result it is 0 and the formula breaks down. Past a few
    /// dozen games the half-games change nothing that matters; a one-sided match (an
    /// engine that crashes every game) still ends after a handful. 0 before the first
    /// game.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.games() == 0 {
            return 0.0;
        }
        let w = tally.wins as f64 + PSEUDO_GAMES;
        let d = tally.draws as f64 + PSEUDO_GAMES;
        let l = tally.losses as f64 + PSEUDO_GAMES;
        let n = w + d + l;
        let x = (w + d / 2.0) / n;
        let v = (w * (1.0 - x).powi(2) + d * (0.5 - x).powi(2) + l * x.powi(2)) / n;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * x - s0 - s1) / (2.0 * v)
    }

    /// The decision, once the ratio has crossed a bound.
    pub fn decision(&self, tally: &Tally) -> Option<SprtDecision> {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn erf_matches_tabulated_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(2.0), 0.995_322_265_0, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_792_9, 2e-7));
        assert!(close(erf(6.0), 1.0, 1e-7));
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(format_elo(elo_from_score(0.5)), "+0.0");
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
        // 75% is 190.85 Elo; 10 to 1 odds (90.9%) is 400 Elo.
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_9, 1e-6));
        assert!(close(score_from_elo(100.0), 0.640_064_9, 1e-6));
        assert!(elo_from_score(1.0).is_infinite() && elo_from_score(0.0) < 0.0);
        for elo in [-300.0, -5.0, 0.0, 42.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
    }

    #[test]
    fn elo_interval_of_a_known_tally() {
        // 60 wins, 30 losses, 10 draws: score 0.65, per-game variance 0.2025,
        // standard error 0.045, 95% interval 0.65 -/+ 0.0882.
        let t = Tally {
            wins: 60,
            losses: 30,
            draws: 10,
        };
        let e = t.elo().unwrap();
        assert!(close(e.elo, 107.54, 0.01), "{e:?}");
        assert!(close(e.lower, elo_from_score(0.65 - Z95 * 0.045), 1e-9));
        assert!(close(e.upper, elo_from_score(0.65 + Z95 * 0.045), 1e-9));
        assert!(
            close(e.lower, 43.16, 0.01) && close(e.upper, 180.08, 0.01),
            "{e:?}"
        );
        assert!(Tally::default().elo().is_none());
        let sweep = Tally {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        assert_eq!(sweep.elo().unwrap().elo, f64::INFINITY);
    }

    #[test]
    fn los_of_known_tallies() {
        let t = |wins, losses, draws| Tally {
            wins,
            losses,
            draws,
        };
        assert_eq!(t(0, 0, 7).los(), 0.5);
        assert!(close(t(5, 5, 3).los(), 0.5, 1e-7));
        // 60-40: (W-L)/sqrt(2(W+L)) = sqrt(2), erf(sqrt 2) = 0.9545.
        assert!(close(t(60, 40, 0).los(), 0.977_25, 1e-5));
        assert!(close(t(40, 60, 0).los(), 0.022_75, 1e-5));
        assert!(close(t(10, 0, 0).los(), 0.999_217, 1e-5));
    }

    #[test]
    fn sprt_bounds_and_ratio() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_98, 1e-8) && close(upper, 2.944_438_98, 1e-8));
        // By hand, with half a game of each result added: 60.5 wins, 10.5 draws and
        // 30.5 losses, N = 101.5, x = 65.75 / 101.5, s0 = 0.5, s1 = 0.571463.
        let t = Tally {
            wins: 60,
            losses: 30,
            draws: 10,
        };
        let s1 = score_from_elo(50.0);
        let x = 65.75 / 101.5;
        let v =
            (60.5 * (1.0 - x) * (1.0 - x) + 10.5 * (0.5 - x) * (0.5 - x) + 30.5 * x * x) / 101.5;
        let expected = 101.5 * (s1 - 0.5) * (2.0 * x - 0.5 - s1) / (2.0 * v);
        assert!(close(sprt.llr(&t), expected, 1e-9));
        assert!(close(expected, 4.0177, 1e-3));
        assert_eq!(sprt.decision(&t), Some(SprtDecision::AcceptH1));
        let bad = Tally {
            wins: 30,
            losses: 60,
            draws: 10,
        };
        assert!(sprt.llr(&bad) < lower);
        assert_eq!(sprt.decision(&bad), Some(SprtDecision::AcceptH0));
        let even = Tally {
            wins: 5,
            losses: 5,
            draws: 2,
        };
        assert_eq!(sprt.decision(&even), None);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
        // Every game won: no observed variance, yet the test ends after a handful.
        let sweep = |wins| Tally {
            wins,
            losses: 0,
            draws: 0,
        };
        assert_eq!(sprt.decision(&sweep(3)), None);
        assert_eq!(sprt.decision(&sweep(8)), Some(SprtDecision::AcceptH1));
        let crashes = Tally {
            wins: 0,
            losses: 8,
            draws: 0,
        };
        assert_eq!(sprt.decision(&crashes), Some(SprtDecision::AcceptH0));
        // Seven wins and a draw in the first eight games of a (0, 25) test: luck between
        // equal engines as often as not, and no decision (without the half-games the
        // observed variance made the ratio 4.4, past the bound).
        let narrow = Sprt {
            elo0: 0.0,
            elo1: 25.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let lucky = Tally {
            wins: 7,
            losses: 0,
            draws: 1,
        };
        assert!(close(narrow.llr(&lucky), 1.599, 1e-3));
        assert_eq!(narrow.decision(&lucky), None);
    }
}
