//! Writes YaneuraOu classic NNUE files for tests: random nets of each supported shape,
//! and malformed ones. Written from the format description, apart from the engine.

/// The input features of a net.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Features {
    HalfKP,
    KP,
    /// HalfKP on a board folded at the centre file.
    HalfKPvm,
    /// HalfKP on nine planes, by the attack counts of each piece's square.
    HalfKPE9,
}

/// A classic net shape: features and layer widths.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub features: Features,
    pub half: usize,
    pub h1: usize,
    pub h2: usize,
}

pub const HALFKP_256: Shape = Shape {
    features: Features::HalfKP,
    half: 256,
    h1: 32,
    h2: 32,
};
pub const KP_256: Shape = Shape {
    features: Features::KP,
    half: 256,
    h1: 32,
    h2: 32,
};
pub const HALFKP_512: Shape = Shape {
    features: Features::HalfKP,
    half: 512,
    h1: 16,
    h2: 32,
};
pub const HALFKP_1024_8_32: Shape = Shape {
    features: Features::HalfKP,
    half: 1024,
    h1: 8,
    h2: 32,
};
pub const HALFKP_1024_8_64: Shape = Shape {
    features: Features::HalfKP,
    half: 1024,
    h1: 8,
    h2: 64,
};
/// AobaNNUE's shape.
pub const HALFKP_768_16_64: Shape = Shape {
    features: Features::HalfKP,
    half: 768,
    h1: 16,
    h2: 64,
};
/// A shape nobody trains, for the uneven cases: a transformer width that is not a whole
/// number of the AVX2 kernel's tiles, a first hidden layer of three registers whose
/// outputs are padded for the next, a second one wider than the register kernel takes.
pub const KP_352_24_96: Shape = Shape {
    features: Features::KP,
    half: 352,
    h1: 24,
    h2: 96,
};

/// The bounds: the narrowest transformer and the widest first hidden layer hayate reads,
/// and a second hidden layer that is not a whole number of registers (its outputs padded
/// to 128 for the output layer).
pub const KP_32_128_100: Shape = Shape {
    features: Features::KP,
    half: 32,
    h1: 128,
    h2: 100,
};

/// YaneuraOu's HalfKP_vm edition.
pub const HALFKPVM_256: Shape = Shape {
    features: Features::HalfKPvm,
    half: 256,
    h1: 32,
    h2: 32,
};

/// YaneuraOu's HalfKPE9 edition (`halfkpe9_256x2-32-32`).
pub const HALFKPE9_256: Shape = Shape {
    features: Features::HalfKPE9,
    half: 256,
    h1: 32,
    h2: 32,
};

pub const VERSION: u32 = 0x7AF32F16;

impl Shape {
    pub fn inputs(&self) -> usize {
        match self.features {
            Features::KP => 1548 + 162,
            Features::HalfKP => 81 * 1548,
            // The king on files 1 to 5 only.
            Features::HalfKPvm => 45 * 1548,
            // Nine planes: 3 attack counts of the viewer's × 3 of the opponent's.
            Features::HalfKPE9 => 9 * 81 * 1548,
        }
    }

    pub fn feature_hash(&self) -> u32 {
        match self.features {
            // FeatureSet<K, P>: K's hash with P's rotated left by one bit.
            Features::KP => 0xD3CEE169u32 ^ 0x764CFB4Bu32.rotate_left(1),
            // HalfKPE9 has HalfKP's value in YaneuraOu (`half_kpe9.h`).
            Features::HalfKP | Features::HalfKPE9 => 0x5D69D5B8,
            Features::HalfKPvm => 0x0B6B1D9A,
        }
    }

    pub fn network_hash(&self) -> u32 {
        let affine = |prev: u32, out: u32| 0xCC03DAE4u32.wrapping_add(out) ^ prev.rotate_right(1);
        let relu = |prev: u32| 0x538D24C7u32.wrapping_add(prev);
        let slice = 0xEC42E90Du32 ^ (2 * self.half as u32);
        let h = relu(affine(slice, self.h1 as u32));
        let h = relu(affine(h, self.h2 as u32));
        affine(h, 1)
    }

    pub fn transformer_hash(&self) -> u32 {
        self.feature_hash() ^ (2 * self.half as u32)
    }

    pub fn hash(&self) -> u32 {
        self.transformer_hash() ^ self.network_hash()
    }

    pub fn structure(&self) -> String {
        let name = match self.features {
            Features::KP => "K+P",
            Features::HalfKP => "HalfKP(Friend)",
            Features::HalfKPvm => "HalfKP_vm(Friend)",
            Features::HalfKPE9 => "HalfKPE9(Friend)",
        };
        let n = 2 * self.half;
        format!(
            "Features={name}[{}->{}x2],Network=AffineTransform[1<-{b}](ClippedReLU[{b}](AffineTransform[{b}<-{a}](ClippedReLU[{a}](AffineTransform[{a}<-{n}](InputSlice[{n}(0:{n})])))))",
            self.inputs(),
            self.half,
            a = self.h1,
            b = self.h2
        )
    }
}

pub fn pad32(n: usize) -> usize {
    n.div_ceil(32) * 32
}

/// xorshift64*: small and deterministic.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// Writes a random net of `shape`. The weights are sized so that every layer's outputs
/// spread over the ClippedReLU's range; a few huge transformer weights make the 16-bit
/// accumulator wrap, and a few full-range layer weights reach the extremes of i8.
pub fn random_net(shape: Shape, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(shape.inputs() * shape.half * 2 + 100_000);
    let structure = shape.structure();
    out.extend(VERSION.to_le_bytes());
    out.extend(shape.hash().to_le_bytes());
    out.extend((structure.len() as u32).to_le_bytes());
    out.extend(structure.as_bytes());

    out.extend(shape.transformer_hash().to_le_bytes());
    for _ in 0..shape.half {
        out.extend((rng.range(-10, 70) as i16).to_le_bytes());
    }
    for _ in 0..shape.inputs() * shape.half {
        let r = rng.next();
        let w = if r.is_multiple_of(4096) {
            (r >> 16) as i16
        } else {
            ((r >> 20) % 49) as i16 - 24
        };
        out.extend(w.to_le_bytes());
    }

    out.extend(shape.network_hash().to_le_bytes());
    let biases = (-4000, 6000);
    write_layer(&mut out, &mut rng, 2 * shape.half, shape.h1, 8, biases);
    write_layer(&mut out, &mut rng, shape.h1, shape.h2, 32, biases);
    write_layer(&mut out, &mut rng, shape.h2, 1, 127, biases);
    out
}

/// Writes one affine layer: `outputs` i32 biases drawn from `biases`, then each output's
/// row of i8 weights padded to 32 inputs, mostly within ±`w` and one in fifty anywhere
/// in i8's range.
pub fn write_layer(
    out: &mut Vec<u8>,
    rng: &mut Rng,
    inputs: usize,
    outputs: usize,
    w: i64,
    biases: (i64, i64),
) {
    for _ in 0..outputs {
        out.extend((rng.range(biases.0, biases.1) as i32).to_le_bytes());
    }
    for _ in 0..outputs {
        for i in 0..pad32(inputs) {
            let v = if i >= inputs {
                0
            } else if rng.next().is_multiple_of(50) {
                rng.range(-128, 127)
            } else {
                rng.range(-w, w)
            };
            out.push(v as i8 as u8);
        }
    }
}
