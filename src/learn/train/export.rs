//! Writing the float net in YaneuraOu's format, quantised.

use super::model::Model;
use super::{Shape, EXPORT_FV_SCALE, H1, H2, HALF, SCORE_SCALE};
use crate::eval::nnue::arch::{padded, PIECE_STATES, VERSION};

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
        let i16s = |v: f32| quantise(v * 127.0, i16::MIN as f32, i16::MAX as f32) as i16;
        for &b in &self.ft_b {
            out.extend(i16s(b).to_le_bytes());
        }
        let real = arch.features.dimensions();
        for f in 0..real {
            for j in 0..HALF {
                let mut w = self.ft_w[f * HALF + j];
                if self.shape == Shape::HalfKp {
                    w += self.ft_w[(real + f % PIECE_STATES) * HALF + j];
                }
                out.extend(i16s(w).to_le_bytes());
            }
        }
        out.extend(arch.network_hash().to_le_bytes());
        let hidden = |out: &mut Vec<u8>, l: &super::model::Layer, outputs: usize| {
            for &b in &l.b {
                out.extend((quantise(b * 127.0 * 64.0, -2e9, 2e9) as i32).to_le_bytes());
            }
            for o in 0..outputs {
                for i in 0..padded(l.inputs) {
                    let w = if i < l.inputs {
                        l.w[o * l.inputs + i]
                    } else {
                        0.0
                    };
                    out.push(quantise(w * 64.0, -128.0, 127.0) as i8 as u8);
                }
            }
        };
        hidden(&mut out, &self.l1, H1);
        hidden(&mut out, &self.l2, H2);
        let k = EXPORT_FV_SCALE * SCORE_SCALE;
        out.extend((quantise(self.out.b[0] * k, -2e9, 2e9) as i32).to_le_bytes());
        for i in 0..padded(H2) {
            let w = if i < H2 { self.out.w[i] } else { 0.0 };
            out.push(quantise(w * k / 127.0, -128.0, 127.0) as i8 as u8);
        }
        out
    }
}
