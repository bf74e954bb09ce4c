//! Static evaluation: how good a position is for the side to move, in centipawns
//! (a pawn on the board is worth about 100).
//!
//! The evaluation is a weighted sum of features, all counted from Black's point of view:
//! - material on the board, and pieces in hand valued by how many of a kind are held;
//! - each piece's placement relative to its own king and to the enemy king (shogi
//!   evaluation is king-relative: a gold next to its king defends, one next to the enemy
//!   king attacks);
//! - the king's square, and king safety: squares next to the king the enemy attacks,
//!   those only the king defends, the enemy's hand pieces that could drop there, open
//!   lines (file and diagonals) into the king, and square by square around the king how
//!   often each side attacks it and what stands there;
//! - pieces the enemy attacks that nothing defends, or that an enemy pawn attacks;
//! - mobility of lances, bishops, rooks, horses and dragons;
//! - a bonus for the side to move.
//!
//! Because the sum is linear in the weights ([`params`]), the same walk over the position
//! serves three callers through [`Sink`]: the search (a running total), the `eval` command
//! (a breakdown by term) and the tuner (the feature counts themselves).
//!
//! [`nnue`] reads and runs YaneuraOu's NNUE nets instead; [`Evaluator`] says which of the
//! two a search uses.

mod control;
pub mod nnue;
pub mod params;
mod placement;

pub use control::dynamic_features;
pub use placement::{placement, placement_delta, placement_features};

use crate::position::Position;
use crate::types::Color;
use once_cell::sync::Lazy;
use params::*;
use std::fmt::Write as _;

/// The tuned weights shipped with the engine (`hayate tune` writes this file).
pub const SHIPPED_WEIGHTS: &str = include_str!("weights.txt");

/// The weights in use: the file named by the environment variable `HAYATE_EVAL_FILE` when
/// it is set (for trying tuned weights without rebuilding), else the shipped tuned vector,
/// or the starting weights when the shipped file does not match the layout (a test checks
/// it does, so that cannot ship).
static WEIGHTS: Lazy<Box<[i16]>> = Lazy::new(|| compact(&load_weights()));

fn load_weights() -> Vec<i32> {
    if let Some(weights) = std::env::var_os(EVAL_FILE_VARIABLE).and_then(|path| {
        let loaded = crate::files::read_text(std::path::Path::new(&path))
            .ok()
            .and_then(|t| params::parse(&t));
        if loaded.is_none() {
            eprintln!(
                "hayate: {} ({}) is not a weights file of this layout; using the shipped weights",
                EVAL_FILE_VARIABLE,
                path.to_string_lossy()
            );
        }
        loaded
    }) {
        return weights;
    }
    params::parse(SHIPPED_WEIGHTS).unwrap_or_else(params::initial)
}

/// The weights as 16-bit numbers: half the cache lines of 32-bit ones for the search's
/// lookups (every weight is far inside ±32767; one outside is clipped).
fn compact(weights: &[i32]) -> Box<[i16]> {
    weights
        .iter()
        .map(|&w| w.clamp(i16::MIN as i32, i16::MAX as i32) as i16)
        .collect()
}

/// What a user names the hand-made evaluation by (`EvalFile`, `--evalfile`).
pub const LINEAR: &str = "linear";

/// The evaluation a search uses.
#[derive(Clone, Debug, Default)]
pub enum Evaluator {
    /// The hand-made linear evaluation of this module.
    #[default]
    Linear,
    /// An NNUE net, shared by every thread, and the `FV_SCALE` its output is divided by.
    Nnue {
        net: std::sync::Arc<nnue::Network>,
        fv_scale: i32,
    },
}

impl Evaluator {
    /// The evaluation a tool's `--evalfile` names: `linear` for the hand-made evaluation,
    /// `internal` for the net built into the binary, otherwise a net file; a net's output
    /// divided by `fv_scale`. With the loader's warnings.
    pub fn named(name: &str, fv_scale: i32) -> Result<(Evaluator, Vec<String>), nnue::NnueError> {
        if name.eq_ignore_ascii_case(LINEAR) {
            return Ok((Evaluator::Linear, Vec::new()));
        }
        let (net, warnings) = nnue::builtin::load_named(name)?;
        let net = std::sync::Arc::new(net);
        Ok((Evaluator::Nnue { net, fv_scale }, warnings))
    }

    /// The static evaluation of `pos` for the side to move, from scratch (the search
    /// keeps its own incremental state instead). Positions the net cannot evaluate (a
    /// king missing) get the linear evaluation.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluator::Linear => evaluate(pos),
            Evaluator::Nnue { net, fv_scale } => net
                .evaluate(pos, *fv_scale)
                .unwrap_or_else(|| evaluate(pos)),
        }
    }

    /// Whether two evaluators give the same values (the same net and scale).
    pub fn same_as(&self, other: &Evaluator) -> bool {
        match (self, other) {
            (Evaluator::Linear, Evaluator::Linear) => true,
            (
                Evaluator::Nnue { net, fv_scale },
                Evaluator::Nnue {
                    net: n,
                    fv_scale: f,
                },
            ) => std::sync::Arc::ptr_eq(net, n) && fv_scale == f,
            _ => false,
        }
    }

    /// The `eval` command's text: the linear evaluation term by term, or the net's
    /// description; the last line gives the evaluation for the side to move.
    pub fn explain(&self, pos: &Position) -> String {
        match self {
            Evaluator::Linear => explain(pos),
            Evaluator::Nnue { net, fv_scale } => {
                let mut text = format!(
                    "NNUE {} ({} kernels), FV_SCALE {fv_scale}\n",
                    net.arch().name(),
                    net.kernels().name()
                );
                if !nnue::features::supports(pos) {
                    text.push_str("a king is missing: the linear evaluation stands in\n");
                }
                let _ = write!(
                    text,
                    "total for the side to move ({}): {}",
                    pos.side_to_move().sfen_char(),
                    self.evaluate(pos)
                );
                text
            }
        }
    }
}

/// The environment variable that names a weights file to use instead of the shipped one.
pub const EVAL_FILE_VARIABLE: &str = "HAYATE_EVAL_FILE";

/// The weights the evaluation uses.
pub fn weights() -> Vec<i32> {
    WEIGHTS.iter().map(|&w| w as i32).collect()
}

/// Forces the weights to be built (for `isready`, so the first search does not pay).
pub fn init() {
    Lazy::force(&WEIGHTS);
}

/// Receives the features of a position: `count` times the feature `index` (negative
/// counts are White's).
pub trait Sink {
    fn add(&mut self, index: usize, count: i32);
}

/// Sums weight × count.
struct Total<'a> {
    weights: &'a [i16],
    sum: i32,
}

impl Sink for Total<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.sum += self.weights[index] as i32 * count;
    }
}

/// The evaluation of `pos` for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let mut total = Total {
        weights: &WEIGHTS,
        sum: 0,
    };
    features(pos, &mut total);
    match pos.side_to_move() {
        Color::Black => total.sum,
        Color::White => -total.sum,
    }
}

/// Walks the position and reports every feature to `sink` (Black positive).
pub fn features<S: Sink>(pos: &Position, sink: &mut S) {
    placement_features(pos, sink);
    dynamic_features(pos, sink);
}

/// The evaluation for the side to move, given the placement score kept by the search.
#[inline]
pub fn evaluate_from(pos: &Position, placement: i32) -> i32 {
    let mut total = Total {
        weights: &WEIGHTS,
        sum: placement,
    };
    dynamic_features(pos, &mut total);
    match pos.side_to_move() {
        Color::Black => total.sum,
        Color::White => -total.sum,
    }
}
#[inline(always)]
fn sign_of(color: Color) -> i32 {
    match color {
        Color::Black => 1,
        Color::White => -1,
    }
}

/// Sums the features by section, Black's and White's apart.
struct Breakdown<'a> {
    weights: &'a [i16],
    black: [i32; SECTIONS.len()],
    white: [i32; SECTIONS.len()],
}

impl Sink for Breakdown<'_> {
    fn add(&mut self, index: usize, count: i32) {
        let section = SECTIONS
            .iter()
            .position(|s| index >= s.start && index < s.start + s.len)
            .expect("feature index inside a section");
        let value = self.weights[index] as i32 * count;
        if count > 0 {
            self.black[section] += value;
        } else {
            self.white[section] -= value;
        }
    }
}

/// The evaluation term by term, as the `eval` command prints it: each section's
/// contribution for Black and for White, and the totals.
pub fn explain(pos: &Position) -> String {
    let mut b = Breakdown {
        weights: &WEIGHTS,
        black: [0; SECTIONS.len()],
        white: [0; SECTIONS.len()],
    };
    features(pos, &mut b);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<24}{:>8}{:>8}{:>8}",
        "term", "black", "white", "net"
    );
    for (i, s) in SECTIONS.iter().enumerate() {
        let _ = writeln!(
            text,
            "{:<24}{:>8}{:>8}{:>8}",
            s.name,
            b.black[i],
            b.white[i],
            b.black[i] - b.white[i]
        );
    }
    let net: i32 = b.black.iter().sum::<i32>() - b.white.iter().sum::<i32>();
    let _ = writeln!(text, "total for black: {net}");
    let _ = write!(
        text,
        "total for the side to move ({}): {}",
        pos.side_to_move().sfen_char(),
        evaluate(pos)
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PieceKind, Square};

    fn pos(sfen: &str) -> Position {
        sfen.parse().unwrap()
    }

    #[test]
    fn shipped_weights_match_the_layout() {
        assert!(params::parse(SHIPPED_WEIGHTS).is_some());
    }

    /// The board is symmetric, so only whose turn it is matters: the tempo and the
    /// king-zone and threat terms that depend on the side to move. Either side to move
    /// sees the same score.
    #[test]
    fn start_position_scores_the_same_for_either_side_to_move() {
        let black = Position::startpos();
        let white = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        assert_eq!(evaluate(&black), evaluate(&white));
        assert!(evaluate(&black) > 0, "the side to move is better off");
    }

    /// The same position with the colours swapped (board turned round, hands exchanged).
    fn flipped(p: &Position) -> Position {
        let mut board = String::new();
        for rank in 0..9 {
            let mut empty = 0;
            for file in (0..9).rev() {
                let sq = Square::from_index(file * 9 + rank).unwrap().flip();
                match p.piece_at(sq) {
                    Some(piece) => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let swapped = crate::types::Piece::new(!piece.color(), piece.kind());
                        board.push_str(&swapped.to_string());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank < 8 {
                board.push('/');
            }
        }
        let mut hands = String::new();
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::HAND {
                let n = p.hand(color).count(kind);
                if n > 0 {
                    let letter = kind.sfen_letter();
                    let letter = if color == Color::White {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    if n > 1 {
                        hands.push_str(&n.to_string());
                    }
                    hands.push(letter);
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = (!p.side_to_move()).sfen_char();
        format!("{board} {side} {hands} 1").parse().unwrap()
    }

    #[test]
    fn colour_flipped_positions_evaluate_the_same_for_the_mover() {
        for sfen in [
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ] {
            let a = pos(sfen);
            let b = flipped(&a);
            assert_ne!(a.to_string(), b.to_string());
            assert_eq!(evaluate(&a), evaluate(&b), "{sfen} vs {b}");
        }
    }

    /// Feature counts summed by index, zeros dropped.
    struct Counts(std::collections::BTreeMap<usize, i32>);

    impl Sink for Counts {
        fn add(&mut self, index: usize, count: i32) {
            *self.0.entry(index).or_default() += count;
        }
    }

    fn counts(p: &Position, sign: i32) -> Vec<(usize, i32)> {
        let mut c = Counts(Default::default());
        features(p, &mut c);
        c.0.into_iter()
            .filter(|&(_, n)| n != 0)
            .map(|(i, n)| (i, sign * n))
            .collect()
    }

    #[test]
    fn colour_flipped_positions_have_the_same_features_for_the_other_side() {
        crate::attacks::init();
        for sfen in [
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            "4k4/3s1g3/2+R1+B4/3G1S3/2N1L1N2/3+P1+S3/4n4/3g1p3/4K4 b 2Pg 1",
            "8l/1r3gk2/4+Bsnp1/p1p1ppp1p/3p5/P1P1P1P1P/1PSP1PN2/1KG3S2/LN2r3L w BG2Psnl 1",
        ] {
            let a = pos(sfen);
            let b = flipped(&a);
            assert_eq!(counts(&a, 1), counts(&b, -1), "{sfen} vs {b}");
        }
    }

    #[test]
    fn extra_material_is_good() {
        let even = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let rook_up = pos("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
        assert!(evaluate(&rook_up) > evaluate(&even) + 800);
    }

    #[test]
    fn placement_delta_matches_a_full_recount() {
        // Pseudo-random playouts through captures, promotions, drops and king moves.
        let mut rng = crate::rng::Rng::from_state(0x1234_5678_9abc_def1);
        for start in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ] {
            let mut p = pos(start);
            let mut placement = super::placement(&p);
            for _ in 0..300 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
                let delta = placement_delta(&p, mv);
                p.play_unchecked(mv);
                placement = match delta {
                    Some(d) => placement + d,
                    None => super::placement(&p),
                };
                assert_eq!(placement, super::placement(&p), "after {mv} in {p}");
                assert_eq!(evaluate_from(&p, placement), evaluate(&p));
            }
        }
    }

    #[test]
    fn explain_adds_up() {
        let p = pos("ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL w Bp 1");
        let text = explain(&p);
        let last = text.lines().last().unwrap();
        assert!(last.ends_with(&format!(": {}", evaluate(&p))), "{text}");
        assert!(text.contains("near enemy king"));
    }
}
