//! Which net a run trains: a classic K+P or HalfKP net of any width the engine reads,
//! named as shogi users name it (`halfkp_512x2-16-32`).

use crate::eval::nnue::arch::{Architecture, FeatureSet, PIECE_STATES};
use crate::eval::nnue::features;
use crate::position::Position;
use crate::types::Color;

/// The widths of the nets trained before a shape could be named: what `kp` and `halfkp`
/// alone stand for, and the shape of the built-in net.
const DEFAULT_HALF: usize = 256;
const DEFAULT_H1: usize = 32;
const DEFAULT_H2: usize = 32;

/// The feature sets trained here (the others need feature code the trainer lacks: the
/// mirror of HalfKP_vm, the attack counts of HalfKPE9, SFNN's layer stacks).
const TRAINED: [FeatureSet; 2] = [FeatureSet::KP, FeatureSet::HalfKP];

/// A classic net of K+P or HalfKP features, inside the bounds hayate's loader reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    arch: Architecture,
}

/// Why an `--arch` text names no shape the trainer makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeError {
    /// Not `kp`, `halfkp` nor `<features>_<N>x2-<H1>-<H2>` of those features.
    Unknown(String),
    /// A shape of the right form that hayate's loader would refuse, and why.
    Bounds { name: String, why: String },
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeError::Unknown(text) => write!(
                f,
                "`{text}`: expected kp, halfkp (the {DEFAULT_HALF}x2-{DEFAULT_H1}-{DEFAULT_H2} \
                 nets) or kp_/halfkp_<N>x2-<H1>-<H2>, e.g. halfkp_512x2-16-32 or \
                 halfkp_768x2-16-64"
            ),
            ShapeError::Bounds { name, why } => write!(f, "{name}: {why}"),
        }
    }
}

impl std::error::Error for ShapeError {}

impl Shape {
    /// `kp_256x2-32-32`.
    pub const KP: Shape = Shape::classic(FeatureSet::KP);
    /// `halfkp_256x2-32-32`, the built-in net's shape.
    pub const HALFKP: Shape = Shape::classic(FeatureSet::HalfKP);

    const fn classic(features: FeatureSet) -> Shape {
        Shape {
            arch: Architecture::new(features, DEFAULT_HALF, DEFAULT_H1, DEFAULT_H2),
        }
    }

    /// The shape an `--arch` value names: `kp`, `halfkp`, or a full name such as
    /// `halfkp_768x2-16-64` whose net hayate's loader reads.
    pub fn parse(text: &str) -> Result<Shape, ShapeError> {
        let unknown = || ShapeError::Unknown(text.to_string());
        if let Some(&features) = TRAINED.iter().find(|f| f.short_name() == text) {
            return Ok(Shape::classic(features));
        }
        let (name, sizes) = text.split_once('_').ok_or_else(unknown)?;
        let features = *TRAINED
            .iter()
            .find(|f| f.short_name() == name)
            .ok_or_else(unknown)?;
        let (half, hidden) = sizes.split_once("x2-").ok_or_else(unknown)?;
        let (h1, h2) = hidden.split_once('-').ok_or_else(unknown)?;
        let number = |s: &str| -> Result<usize, ShapeError> {
            // Digits only: `+8` or ` 8` would name the same shape under another name.
            if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(unknown());
            }
            s.parse().map_err(|_| unknown())
        };
        let arch = Architecture::new(features, number(half)?, number(h1)?, number(h2)?);
        arch.check_bounds().map_err(|why| ShapeError::Bounds {
            name: arch.name(),
            why,
        })?;
        Ok(Shape { arch })
    }

    pub fn arch(self) -> Architecture {
        self.arch
    }

    /// The name, e.g. `halfkp_256x2-32-32`.
    pub fn name(self) -> String {
        self.arch.name()
    }

    /// Transformer outputs per side.
    pub(crate) fn half(self) -> usize {
        self.arch.half
    }

    pub(crate) fn hidden1(self) -> usize {
        self.arch.hidden1
    }

    pub(crate) fn hidden2(self) -> usize {
        self.arch.hidden2
    }

    /// Whether the transformer has king-independent rows after the real ones (HalfKP's
    /// factoriser).
    pub(crate) fn factorised(self) -> bool {
        self.arch.features == FeatureSet::HalfKP
    }

    /// Rows of the trained transformer: the real features, and for HalfKP the
    /// king-independent ones after them.
    pub(crate) fn rows(self) -> usize {
        let real = self.arch.features.dimensions();
        if self.factorised() {
            real + PIECE_STATES
        } else {
            real
        }
    }

    /// Active features of `viewer` in `pos` (the real ones: a sample stores only these).
    pub(crate) fn active(self, pos: &Position, viewer: Color) -> Vec<u32> {
        features::active(pos, self.arch.features, viewer).to_vec()
    }

    /// The transformer rows that `features` switch on: the features themselves, and for
    /// HalfKP each one's king-independent row after them. Derived here rather than
    /// stored, which halves a HalfKP sample.
    #[inline]
    pub(crate) fn rows_of(self, features: &[u32]) -> impl Iterator<Item = u32> + '_ {
        let factor = self
            .factorised()
            .then_some(self.arch.features.dimensions() as u32);
        let factored = factor.into_iter().flat_map(move |base| {
            features
                .iter()
                .map(move |&f| base + f % PIECE_STATES as u32)
        });
        features.iter().copied().chain(factored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_names_are_the_256_nets() {
        assert_eq!(Shape::parse("kp"), Ok(Shape::KP));
        assert_eq!(Shape::parse("halfkp"), Ok(Shape::HALFKP));
        assert_eq!(Shape::parse("kp_256x2-32-32"), Ok(Shape::KP));
        assert_eq!(Shape::parse("halfkp_256x2-32-32"), Ok(Shape::HALFKP));
    }

    #[test]
    fn wider_nets_parse_to_their_names() {
        for name in ["halfkp_512x2-16-32", "halfkp_768x2-16-64", "kp_64x2-8-96"] {
            assert_eq!(Shape::parse(name).map(Shape::name), Ok(name.to_string()));
        }
        assert_eq!(Shape::parse("halfkp_512x2-16-32").unwrap().half(), 512);
    }

    #[test]
    fn other_names_are_refused() {
        for text in [
            "",
            "halfkpvm_256x2-32-32",
            "halfkpe9",
            "halfkp_256x2-32",
            "halfkp_256x3-32-32",
            "halfkp_+256x2-32-32",
            "halfkp_256x2-32-32-32",
            "HalfKP",
        ] {
            assert!(
                matches!(Shape::parse(text), Err(ShapeError::Unknown(_))),
                "{text}"
            );
        }
        for text in ["halfkp_500x2-16-32", "halfkp_512x2-0-32", "kp_256x2-32-999"] {
            assert!(
                matches!(Shape::parse(text), Err(ShapeError::Bounds { .. })),
                "{text}"
            );
        }
    }
}
