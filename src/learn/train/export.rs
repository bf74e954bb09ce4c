//! The float net to and from YaneuraOu's format: quantised on the way out, scaled back on
//! the way in (so a run can start from a net, e.g. one distilled from a teacher).

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

/// Reads little-endian integers from the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        head.try_into().expect("split_at gave N bytes")
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i8(&mut self) -> i8 {
        i8::from_le_bytes(self.take())
    }
}

impl Model {
    /// The float net of a YaneuraOu-format file of `shape` (each integer divided by the
    /// scale [`Model::export`] multiplies by; for HalfKP the king-independent rows start
    /// at zero). Any other shape, or a file of the wrong size, is an error.
    pub fn import(shape: Shape, bytes: &[u8]) -> Result<Model, String> {
        let arch = shape.arch();
        if bytes.len() < 12 {
            return Err("too short for a net header".into());
        }
        let mut r = Reader(bytes);
        if r.u32() != VERSION {
            return Err("not a YaneuraOu NNUE file (version)".into());
        }
        if r.u32() != arch.hash() {
            return Err(format!("not a {} net", arch.name()));
        }
        let structure_len = r.u32() as usize;
        if bytes.len() as u64 != arch.file_size(structure_len) {
            return Err(format!(
                "{} bytes, a {} net with this header has {}",
                bytes.len(),
                arch.name(),
                arch.file_size(structure_len)
            ));
        }
        r.0 = &r.0[structure_len..];
        r.u32(); // the transformer's hash, part of the header hash checked above
        let mut model = Model::new(shape, 1);
        for b in model.ft_b.iter_mut() {
            *b = r.i16() as f32 / 127.0;
        }
        let real = arch.features.dimensions();
        for w in model.ft_w[..real * HALF].iter_mut() {
            *w = r.i16() as f32 / 127.0;
        }
        model.ft_w[real * HALF..].fill(0.0);
        r.u32(); // the network's hash
        let mut hidden = |l: &mut super::model::Layer, outputs: usize| {
            for b in l.b.iter_mut() {
                *b = r.u32() as i32 as f32 / (127.0 * 64.0);
            }
            for o in 0..outputs {
                for i in 0..padded(l.inputs) {
                    let w = r.i8() as f32 / 64.0;
                    if i < l.inputs {
                        l.w[o * l.inputs + i] = w;
                    }
                }
            }
        };
        hidden(&mut model.l1, H1);
        hidden(&mut model.l2, H2);
        let k = EXPORT_FV_SCALE * SCORE_SCALE;
        model.out.b[0] = r.u32() as i32 as f32 / k;
        for i in 0..padded(H2) {
            let w = r.i8() as f32 * 127.0 / k;
            if i < H2 {
                model.out.w[i] = w;
            }
        }
        Ok(model)
    }
}
