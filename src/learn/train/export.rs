//! The float net to and from YaneuraOu's format: quantised on the way out, scaled back on
//! the way in (so a run can start from a net, e.g. one distilled from a teacher).

use super::model::{Layer, Model};
use super::{Shape, EXPORT_FV_SCALE, SCORE_SCALE};
use crate::eval::nnue::arch::{padded, PIECE_STATES, VERSION};
use crate::eval::nnue::Network;

/// Integer units of one float unit in the file: the transformer (its sums are clipped to
/// 0..127 where the float net clips to 0..1), the hidden layers' weights (the integer net
/// shifts their sums right by 6) and biases (in the units of those sums).
const TRANSFORMER_SCALE: f32 = 127.0;
const HIDDEN_WEIGHT_SCALE: f32 = 64.0;
const HIDDEN_BIAS_SCALE: f32 = TRANSFORMER_SCALE * HIDDEN_WEIGHT_SCALE;
/// The output layer's bias scale: the integer output over `FV_SCALE` is `y · SCORE_SCALE`
/// cp. Its weights meet inputs in 0..127, so they take this divided by 127.
const OUTPUT_SCALE: f32 = EXPORT_FV_SCALE * SCORE_SCALE;
const OUTPUT_WEIGHT_SCALE: f32 = OUTPUT_SCALE / TRANSFORMER_SCALE;

/// Rounds and clamps to an integer range.
fn quantise(x: f32, lo: f32, hi: f32) -> f32 {
    x.round().clamp(lo, hi)
}

impl Model {
    /// The net in YaneuraOu's file format (factoriser folded in).
    pub fn export(&self) -> Vec<u8> {
        let arch = self.shape.arch();
        let structure = arch.structure();
        let mut out = Vec::with_capacity(arch.file_size(structure.len()) as usize);
        out.extend(VERSION.to_le_bytes());
        out.extend(arch.hash().to_le_bytes());
        out.extend((structure.len() as u32).to_le_bytes());
        out.extend(structure.as_bytes());
        out.extend(arch.transformer_hash().to_le_bytes());
        let i16s =
            |v: f32| quantise(v * TRANSFORMER_SCALE, i16::MIN as f32, i16::MAX as f32) as i16;
        for &b in &self.ft_b {
            out.extend(i16s(b).to_le_bytes());
        }
        let half = arch.half;
        let real = arch.features.dimensions();
        for f in 0..real {
            for j in 0..half {
                let mut w = self.ft_w[f * half + j];
                if self.shape.factorised() {
                    w += self.ft_w[(real + f % PIECE_STATES) * half + j];
                }
                out.extend(i16s(w).to_le_bytes());
            }
        }
        out.extend(arch.network_hash().to_le_bytes());
        let hidden = |out: &mut Vec<u8>, l: &Layer, outputs: usize| {
            for &b in &l.b {
                out.extend((quantise(b * HIDDEN_BIAS_SCALE, -2e9, 2e9) as i32).to_le_bytes());
            }
            for o in 0..outputs {
                for i in 0..padded(l.inputs) {
                    let w = if i < l.inputs {
                        l.w[o * l.inputs + i]
                    } else {
                        0.0
                    };
                    out.push(quantise(w * HIDDEN_WEIGHT_SCALE, -128.0, 127.0) as i8 as u8);
                }
            }
        };
        hidden(&mut out, &self.l1, arch.hidden1);
        hidden(&mut out, &self.l2, arch.hidden2);
        out.extend((quantise(self.out.b[0] * OUTPUT_SCALE, -2e9, 2e9) as i32).to_le_bytes());
        for i in 0..padded(arch.hidden2) {
            let w = self.out.w.get(i).copied().unwrap_or(0.0);
            out.push(quantise(w * OUTPUT_WEIGHT_SCALE, -128.0, 127.0) as i8 as u8);
        }
        out
    }
}

impl Model {
    /// The float net of a loaded net of `shape` (each integer divided by the scale
    /// [`Model::export`] multiplies by; for HalfKP the king-independent rows start at
    /// zero). A net of another shape is an error.
    pub fn import(shape: Shape, net: &Network) -> Result<Model, String> {
        let arch = shape.arch();
        if net.arch() != arch {
            return Err(format!(
                "a {} net, not the {} being trained (--init takes a net of the --arch shape)",
                net.arch().name(),
                arch.name()
            ));
        }
        let p = net.parameters();
        let mut model = Model::new(shape, 1);
        for (b, &q) in model.ft_b.iter_mut().zip(p.transformer_biases) {
            *b = q as f32 / TRANSFORMER_SCALE;
        }
        let real = arch.features.dimensions() * arch.half;
        for (w, &q) in model.ft_w[..real].iter_mut().zip(p.transformer_weights) {
            *w = q as f32 / TRANSFORMER_SCALE;
        }
        model.ft_w[real..].fill(0.0);
        let read = |l: &mut Layer, (biases, weights): (&[i32], &[i8]), scales: (f32, f32)| {
            for (b, &q) in l.b.iter_mut().zip(biases) {
                *b = q as f32 / scales.0;
            }
            let row = padded(l.inputs);
            for (o, stored) in weights.chunks_exact(row).enumerate() {
                for (w, &q) in l.w[o * l.inputs..][..l.inputs].iter_mut().zip(stored) {
                    *w = q as f32 / scales.1;
                }
            }
        };
        let [l1, l2, out] = p.layers;
        let hidden = (HIDDEN_BIAS_SCALE, HIDDEN_WEIGHT_SCALE);
        read(&mut model.l1, l1, hidden);
        read(&mut model.l2, l2, hidden);
        read(&mut model.out, out, (OUTPUT_SCALE, OUTPUT_WEIGHT_SCALE));
        Ok(model)
    }
}
