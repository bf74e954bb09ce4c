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
    /// HalfKP with both kings among the pieces, each king on a plane of its own.
    HalfKA1,
    /// HalfKA1 with both kings on one plane.
    HalfKA2,
    /// HalfKA1 on a board folded at the centre file.
    HalfKAhm1,
    /// HalfKA2 on a board folded at the centre file.
    HalfKAhm2,
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

/// The HalfKA family in the shape players use, one per feature set.
pub const HALFKA_256: [Shape; 4] = [
    Shape {
        features: Features::HalfKA1,
        half: 256,
        h1: 32,
        h2: 32,
    },
    Shape {
        features: Features::HalfKA2,
        half: 256,
        h1: 32,
        h2: 32,
    },
    Shape {
        features: Features::HalfKAhm1,
        half: 256,
        h1: 32,
        h2: 32,
    },
    Shape {
        features: Features::HalfKAhm2,
        half: 256,
        h1: 32,
        h2: 32,
    },
];

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
            // Piece states with both kings: 1548 + 81 + 81, or + 81 with one king plane.
            Features::HalfKA1 => 81 * 1710,
            Features::HalfKA2 => 81 * 1629,
            Features::HalfKAhm1 => 45 * 1710,
            Features::HalfKAhm2 => 45 * 1629,
        }
    }

    pub fn feature_hash(&self) -> u32 {
        match self.features {
            // FeatureSet<K, P>: K's hash with P's rotated left by one bit.
            Features::KP => 0xD3CEE169u32 ^ 0x764CFB4Bu32.rotate_left(1),
            // HalfKPE9 has HalfKP's value in YaneuraOu (`half_kpe9.h`).
            Features::HalfKP | Features::HalfKPE9 => 0x5D69D5B8,
            Features::HalfKPvm => 0x0B6B1D9A,
            // `kHashValue` of half_ka1.h, half_ka2.h, half_ka_hm1.h and half_ka_hm2.h,
            // with their "friend" bit.
            Features::HalfKA1 => 0x5F134CB8,
            Features::HalfKA2 => 0x5F234CB8,
            Features::HalfKAhm1 => 0x7F134CB8,
            Features::HalfKAhm2 => 0x7F234CB8,
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
            Features::HalfKA1 => "HalfKA1(Friend)",
            Features::HalfKA2 => "HalfKA2(Friend)",
            Features::HalfKAhm1 => "HalfKA_hm1(Friend)",
            Features::HalfKAhm2 => "HalfKA_hm2(Friend)",
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

/// Python's `random.Random` (MT19937) far enough for `randbytes`: what YaneuraOu's
/// `nnue_dummy_gen.py` draws its weights from.
pub struct PyRandom {
    mt: [u32; 624],
    index: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for a seed below 2³² (`init_by_array` with one word).
    pub fn new(seed: u32) -> PyRandom {
        let mut mt = [0u32; 624];
        mt[0] = 19_650_218;
        for i in 1..624 {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        let mut i = 1;
        for _ in 0..624 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(seed);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        for _ in 0..623 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= 624 {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        PyRandom { mt, index: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.mt[i] & 0x8000_0000) | (self.mt[(i + 1) % 624] & 0x7fff_ffff);
                let mut v = self.mt[(i + 397) % 624] ^ (y >> 1);
                if y & 1 != 0 {
                    v ^= 0x9908_b0df;
                }
                self.mt[i] = v;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `randbytes(n)` for `n` a multiple of 4 (every call the generator makes): whole
    /// words, each little-endian.
    pub fn randbytes(&mut self, n: usize, out: &mut Vec<u8>) {
        assert!(n.is_multiple_of(4));
        for _ in 0..n / 4 {
            out.extend(self.next_u32().to_le_bytes());
        }
    }
}

/// `write_random_small_bytes`: random bytes mapped to 0, 1 or `negative` (-1 as an i8,
/// or as a one-byte LEB128 number), a megabyte per draw.
pub fn small_bytes(rng: &mut PyRandom, count: usize, negative: u8, out: &mut Vec<u8>) {
    const CHUNK: usize = 1 << 20;
    let mut left = count;
    while left > 0 {
        let n = left.min(CHUNK);
        let start = out.len();
        rng.randbytes(n, out);
        for b in &mut out[start..] {
            *b = [0, 1, negative][*b as usize % 3];
        }
        left -= n;
    }
}

/// The seed `nnue_dummy_gen.py` uses unless told otherwise.
pub const DUMMY_SEED: u32 = 20_260_722;

/// The classic net `nnue_dummy_gen.py <shape> nn.bin` writes (its default `random-small`
/// mode and seed): the architecture string with YaneuraOu's sparse first layer, zero
/// biases, i16 transformer weights and i8 layer weights of 0, 1 or -1 (one random byte
/// each, modulo 3).
pub fn dummy_classic_net(shape: Shape) -> Vec<u8> {
    let mut rng = PyRandom::new(DUMMY_SEED);
    let first = format!("[{}<-{}]", shape.h1, 2 * shape.half);
    let structure = shape.structure().replace(
        &format!("AffineTransform{first}"),
        &format!("AffineTransformSparseInput{first}"),
    );
    let weights = shape.inputs() * shape.half;
    let mut out = Vec::with_capacity(2 * weights + (1 << 20));
    out.extend(VERSION.to_le_bytes());
    out.extend(shape.hash().to_le_bytes());
    out.extend((structure.len() as u32).to_le_bytes());
    out.extend(structure.as_bytes());
    out.extend(shape.transformer_hash().to_le_bytes());
    out.resize(out.len() + 2 * shape.half, 0);
    // One selector byte per weight, drawn as the generator draws them (its chunks of
    // 2^19 values are whole words: the stream is the same).
    let mut selectors = Vec::with_capacity(weights);
    rng.randbytes(weights, &mut selectors);
    for s in selectors {
        out.extend(match s % 3 {
            0 => [0, 0],
            1 => [1, 0],
            _ => [0xff, 0xff],
        });
    }
    out.extend(shape.network_hash().to_le_bytes());
    for (inputs, outputs) in [
        (2 * shape.half, shape.h1),
        (shape.h1, shape.h2),
        (shape.h2, 1),
    ] {
        out.resize(out.len() + 4 * outputs, 0);
        small_bytes(&mut rng, outputs * pad32(inputs), 0xff, &mut out);
    }
    out
}
