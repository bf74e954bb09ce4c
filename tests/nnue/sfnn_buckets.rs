//! SFNN nets with the other layer-stack buckets of YaneuraOu's generator (hands, king
//! zones, progress, and their products) and HalfKA2 features: seven shapes that between
//! them use every kind of bucket, each with the net YaneuraOu's `nnue_dummy_gen.py`
//! writes and a net of wide random weights, both made here from their seeds, against the
//! evaluations YaneuraOu built for each shape gave
//! (tests/data/nnue-yaneuraou-sfnn-buckets.tsv); incremental accumulators against full
//! counts; and a net over USI.

use super::sfnn::{dummy_transformer, walking_king_positions, wide_transformer};
use super::writer::{pad32, small_bytes, write_layer, PyRandom, Rng, DUMMY_SEED};
use super::{
    assert_loads_and_evaluates, engine_with_net, recorded_values, walk_incrementally, TempDir,
    STARTS,
};
use hayate::eval::nnue::arch::{Layout, PROGRESS_HASH, SFNN_HASH};
use hayate::eval::nnue::{Kernels, Network};
use hayate::Position;
use std::collections::HashSet;
use std::path::PathBuf;

const VERSION: u32 = 0x7AF3_2F16;
const TRANSFORMER_HASH: u32 = 0x5F13_4AB8;
const NETWORK_HASH: u32 = 0x6333_718A;
/// HalfKA2's features: 81 king squares × 1629 piece states.
const FEATURES: usize = 81 * 1629;
/// The progress parameters' weights: one per HalfKP feature.
const PROGRESS_WEIGHTS: usize = 81 * 1548;

/// A shape of the generator: its edition name, sizes and stacks.
#[derive(Clone, Copy, Debug)]
struct Shape {
    name: &'static str,
    /// The transformer's width per side.
    half: usize,
    h1: usize,
    stacks: usize,
    progress: bool,
}

/// The transformer's width and the second hidden layer of most shapes: small, so that
/// thousands of stacks stay a few tens of megabytes (128 is the narrowest width
/// YaneuraOu's usual SFNN code path takes).
const HALF: usize = 128;
const H2: usize = 16;

/// Seven shapes, every hand, king and progress bucket kind among them (k3k3 and one
/// stack are SFNN1536's test's), one with hidden1 = 8n (no shortcut).
const SHAPES: [Shape; 7] = [
    Shape {
        name: "SFNN_halfka2_128_7_16_hand4_k9k9_progress2",
        half: HALF,
        h1: 7,
        stacks: 4 * 81 * 2,
        progress: true,
    },
    Shape {
        name: "SFNN_halfka2_128_8_16_hand16_k21k21",
        half: HALF,
        h1: 8,
        stacks: 16 * 21 * 21,
        progress: false,
    },
    Shape {
        name: "SFNN_halfka2_128_7_16_hand64z_k9k9z_progress3",
        half: HALF,
        h1: 7,
        stacks: 64 * 81 * 3,
        progress: true,
    },
    Shape {
        name: "SFNN_halfka2_128_7_16_hand64_k13k13z",
        half: HALF,
        h1: 7,
        stacks: 64 * 13 * 13,
        progress: false,
    },
    Shape {
        name: "SFNN_halfka2_128_7_16_hand256_progress16",
        half: HALF,
        h1: 7,
        stacks: 256 * 16,
        progress: true,
    },
    Shape {
        name: "SFNN_halfka2_128_7_16_hand1024_progress8",
        half: HALF,
        h1: 7,
        stacks: 1024 * 8,
        progress: true,
    },
    Shape {
        name: "SFNN_halfka2_128_7_16_k29k29_progress32",
        half: HALF,
        h1: 7,
        stacks: 29 * 29 * 32,
        progress: true,
    },
];

/// Three more shapes: YaneuraOu's split first layer (a common part and two shards; no
/// common part and one stack per king zone pair) and the one progress bucket count the
/// seven above lack.
const MORE_SHAPES: [Shape; 3] = [
    Shape {
        name: "SFNN_halfka2_256_7_16_c128_s64x2",
        half: 256,
        h1: 7,
        stacks: 1,
        progress: false,
    },
    Shape {
        name: "SFNN_halfka2_128_8_16_c0_s64x2_k3k3",
        half: HALF,
        h1: 8,
        stacks: 9,
        progress: false,
    },
    Shape {
        name: "SFNN_halfka2_128_7_16_progress4",
        half: HALF,
        h1: 7,
        stacks: 4,
        progress: true,
    },
];

/// The file YaneuraOu's generator writes for the split shape without common inputs (for
/// `hayate netinfo`'s test).
pub fn split_dummy_net() -> Vec<u8> {
    MORE_SHAPES[1].dummy_net()
}

/// The seeds of the wide nets.
const WIDE_SEED: u64 = 0x5f_b0c7;

impl Shape {
    /// The architecture string, as the generator writes it (the network named after the
    /// edition, in capitals).
    fn structure(&self) -> String {
        format!(
            "ModelType=SFNNWithoutPsqt;Features=HalfKA2(Friend)[{FEATURES}->{}x2],\
             Network={}{{LayerStack={}}}",
            self.half,
            self.name.to_ascii_uppercase(),
            self.stacks
        )
    }

    fn first_outputs(&self) -> usize {
        self.h1 + (self.h1 % 8 == 7) as usize
    }

    /// Each stack's layers: (inputs, outputs).
    fn layers(&self) -> [(usize, usize); 3] {
        [
            (self.half, self.first_outputs()),
            (2 * self.h1, H2),
            (H2, 1),
        ]
    }

    fn header(&self, out: &mut Vec<u8>) {
        let structure = self.structure();
        let hash = if self.progress {
            SFNN_HASH ^ PROGRESS_HASH
        } else {
            SFNN_HASH
        };
        out.extend(VERSION.to_le_bytes());
        out.extend(hash.to_le_bytes());
        out.extend((structure.len() as u32).to_le_bytes());
        out.extend(structure.as_bytes());
        out.extend(TRANSFORMER_HASH.to_le_bytes());
    }

    /// The file `nnue_dummy_gen.py <name> nn.bin` writes (its default mode and seed):
    /// zero biases; weights 0, 1 or -1; progress weights 0, 1 or -1 (of 2^-16).
    fn dummy_net(&self) -> Vec<u8> {
        let mut rng = PyRandom::new(DUMMY_SEED);
        let mut out = Vec::with_capacity(self.half * FEATURES + self.stacks * 2048 + (1 << 20));
        self.header(&mut out);
        dummy_transformer(&mut rng, self.half, FEATURES, &mut out);
        if self.progress {
            out.extend(PROGRESS_HASH.to_le_bytes());
            out.extend(0i32.to_le_bytes());
            let mut selectors = Vec::with_capacity(PROGRESS_WEIGHTS);
            rng.randbytes(PROGRESS_WEIGHTS, &mut selectors);
            for s in selectors {
                out.extend([0i32, 1, -1][s as usize % 3].to_le_bytes());
            }
        }
        for _ in 0..self.stacks {
            out.extend(NETWORK_HASH.to_le_bytes());
            for (inputs, outputs) in self.layers() {
                out.resize(out.len() + 4 * outputs, 0);
                small_bytes(&mut rng, outputs * pad32(inputs), 0xff, &mut out);
            }
        }
        out
    }

    /// A net of wide random weights: transformer sums across both ends of the products'
    /// clamp (some 16-bit wraps, three-byte LEB128 numbers), progress weights that spread
    /// positions over all progress buckets, and each stack its own layers.
    fn wide_net(&self, seed: u64) -> Vec<u8> {
        let mut rng = Rng(seed | 1);
        let mut out = Vec::with_capacity(self.half * FEATURES * 11 / 10 + self.stacks * 2048);
        self.header(&mut out);
        wide_transformer(&mut rng, self.half, FEATURES, &mut out);
        if self.progress {
            out.extend(PROGRESS_HASH.to_le_bytes());
            out.extend((rng.range(-60_000, 60_000) as i32).to_le_bytes());
            for _ in 0..PROGRESS_WEIGHTS {
                out.extend((rng.range(-40_000, 40_000) as i32).to_le_bytes());
            }
        }
        for _ in 0..self.stacks {
            out.extend(NETWORK_HASH.to_le_bytes());
            for ((inputs, outputs), (w, lo, hi)) in self.layers().into_iter().zip([
                (4, -6000, 9000),
                (32, -4000, 6000),
                (127, -4000, 6000),
            ]) {
                write_layer(&mut out, &mut rng, inputs, outputs, w, (lo, hi));
            }
        }
        out
    }
}

fn load(bytes: &[u8], shape: Shape) -> Network {
    let (net, warnings) = Network::from_bytes(bytes).expect("a well-formed SFNN net");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(net.arch().name(), shape.name);
    assert_eq!(net.arch().stacks(), shape.stacks);
    net
}

/// FV_SCALE values recorded: the dummy net's values are small (its first scale is 1:
/// the output as it is); the wide net's are those of real nets.
const DUMMY_SCALES: [i32; 2] = [1, 16];
const WIDE_SCALES: [i32; 2] = [16, 40];

/// The recorded rows: position, then for each shape the dummy net's values at
/// [`DUMMY_SCALES`] and the wide net's at [`WIDE_SCALES`].
fn recorded() -> Vec<(Position, Vec<i32>)> {
    recorded_values(
        include_str!("../data/nnue-yaneuraou-sfnn-buckets.tsv"),
        4 * SHAPES.len(),
    )
}

/// Checks `net` against the recorded columns `first` and `first + 1`, at `scales`;
/// returns the stacks the positions used.
fn check_recorded(
    net: &Network,
    rows: &[(Position, Vec<i32>)],
    first: usize,
    scales: [i32; 2],
) -> HashSet<usize> {
    let mut stacks = HashSet::new();
    for (pos, values) in rows {
        for (s, &fv) in scales.iter().enumerate() {
            assert_eq!(
                net.evaluate(pos, fv),
                Some(values[first + s]),
                "{} at FV_SCALE {fv}: {pos}",
                net.arch().name()
            );
        }
        stacks.insert(net.stack_of(pos));
    }
    stacks
}

fn check_shape(index: usize) {
    check_shape_against(
        SHAPES[index],
        WIDE_SEED + index as u64,
        &recorded(),
        4 * index,
    );
}

/// The recorded rows of [`MORE_SHAPES`], as [`recorded`]'s.
fn recorded_more() -> Vec<(Position, Vec<i32>)> {
    recorded_values(
        include_str!("../data/nnue-yaneuraou-sfnn-more.tsv"),
        4 * MORE_SHAPES.len(),
    )
}

fn check_more_shape(index: usize) {
    let seed = WIDE_SEED + (SHAPES.len() + index) as u64;
    check_shape_against(MORE_SHAPES[index], seed, &recorded_more(), 4 * index);
}

/// Checks `shape`'s dummy net and its wide net from `seed` against the recorded columns
/// from `first` on, the stacks the positions reach, and the incremental and portable
/// evaluations against the full ones.
fn check_shape_against(shape: Shape, seed: u64, rows: &[(Position, Vec<i32>)], first: usize) {
    let index = first / 4;
    assert!(rows.len() >= 250, "{} rows", rows.len());
    {
        let net = load(&shape.dummy_net(), shape);
        check_recorded(&net, rows, first, DUMMY_SCALES);
    }
    let net = load(&shape.wide_net(seed), shape);
    let stacks = check_recorded(&net, rows, first + 2, WIDE_SCALES);
    // The positions reach many stacks, and many values of each part of the index.
    let Layout::Sfnn(b) = net.arch().layout else {
        panic!("an SFNN net")
    };
    let (kings, progress) = (b.king_count(), b.progress as usize);
    let part =
        |f: &dyn Fn(usize) -> usize| stacks.iter().map(|&s| f(s)).collect::<HashSet<_>>().len();
    let hands = part(&|s| s / (kings * progress));
    let king_pairs = part(&|s| s / progress % kings);
    let progresses = part(&|s| s % progress);
    eprintln!(
        "{}: {} stacks used; hand buckets {hands} of {}, king pairs {king_pairs} of {kings}, \
         progress buckets {progresses} of {progress}",
        shape.name,
        stacks.len(),
        b.hand_count()
    );
    assert!(
        stacks.len() >= shape.stacks.min(41),
        "{}: {} stacks used",
        shape.name,
        stacks.len()
    );
    assert!(
        hands >= b.hand_count().min(9),
        "{}: {hands} hand buckets",
        shape.name
    );
    assert!(
        king_pairs >= kings.min(12),
        "{}: {king_pairs} king pairs",
        shape.name
    );
    assert!(
        progresses >= progress.min(12),
        "{}: {progresses} progress buckets",
        shape.name
    );
    let distinct: HashSet<i32> = rows.iter().map(|(_, v)| v[first + 2]).collect();
    assert!(
        distinct.len() > rows.len() / 2,
        "{}: {} distinct values",
        shape.name,
        distinct.len()
    );
    for (i, start) in STARTS.iter().enumerate().step_by(2) {
        walk_incrementally(&net, start, 0xb0 + i as u64, 300);
    }
    let mut portable = net.clone();
    assert!(portable.set_kernels(Kernels::Portable));
    for pos in walking_king_positions(index as u64, 4, 60)
        .iter()
        .step_by(3)
    {
        assert_eq!(portable.evaluate(pos, 16), net.evaluate(pos, 16), "{pos}");
    }
}

#[test]
fn sfnn_hand4_k9k9_progress2_evaluates_as_yaneuraou() {
    check_shape(0);
}

#[test]
fn sfnn_hand16_k21k21_evaluates_as_yaneuraou() {
    check_shape(1);
}

#[test]
fn sfnn_hand64z_k9k9z_progress3_evaluates_as_yaneuraou() {
    check_shape(2);
}

#[test]
fn sfnn_hand64_k13k13z_evaluates_as_yaneuraou() {
    check_shape(3);
}

#[test]
fn sfnn_hand256_progress16_evaluates_as_yaneuraou() {
    check_shape(4);
}

#[test]
fn sfnn_hand1024_progress8_evaluates_as_yaneuraou() {
    check_shape(5);
}

#[test]
fn sfnn_k29k29_progress32_evaluates_as_yaneuraou() {
    check_shape(6);
}

#[test]
fn sfnn_split_first_layer_evaluates_as_yaneuraou() {
    check_more_shape(0);
}

#[test]
fn sfnn_split_first_layer_without_common_inputs_k3k3_evaluates_as_yaneuraou() {
    check_more_shape(1);
}

#[test]
fn sfnn_progress4_evaluates_as_yaneuraou() {
    check_more_shape(2);
}

/// The dummy nets are the files YaneuraOu's generator writes (`python3 nnue_dummy_gen.py
/// <name> nn.bin`, Python 3.11), byte for byte: their sizes and SHA-256.
#[test]
fn the_bucket_dummy_nets_are_the_ones_yaneuraous_generator_writes() {
    use sha2::{Digest, Sha256};
    let all = SHAPES.into_iter().chain(MORE_SHAPES);
    for (shape, (len, sha256)) in all.zip(DUMMY_FILES.into_iter().chain(MORE_DUMMY_FILES)) {
        let bytes = shape.dummy_net();
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            (bytes.len(), digest.as_str()),
            (len, sha256),
            "{}",
            shape.name
        );
    }
}

/// `ls -l` and `sha256sum` of the generator's files, in `SHAPES`' order.
const DUMMY_FILES: [(usize, &str); 7] = [
    (
        18_474_806,
        "b23093a85a75d8581c10cc287abec4ae0bf4d39740fdb0a4d6a6a6164c7d5bd6",
    ),
    (
        28_687_416,
        "04b105d3ffdd897397c5072a35189604d90da8e11fc10eb332309e3d011bd671",
    ),
    (
        43_394_299,
        "eee4891b09eb093537013895f5903522361d96535e130b5498676bf0c34d8a15",
    ),
    (
        34_974_138,
        "9f9412cabea9afacafce1a74141d17920f51cda1554564887f2d421039e6416b",
    ),
    (
        24_239_861,
        "c604142732d4572ad0aea59691cd040f427f8033f19345f8029e19be4a554a7e",
    ),
    (
        31_088_373,
        "6cbb406f2b8756fb539aa5b43a135d57edcf2ef9e02312526501776e03193378",
    ),
    (
        62_388_213,
        "96d6c9e53c61ca6c2497ec7853b2da6dd3ac8a26f6c3cd297a3c2df3e7799551",
    ),
];

/// The same for `MORE_SHAPES` (YaneuraOu's generator writes a split first layer whole).
const MORE_DUMMY_FILES: [(usize, &str); 3] = [
    (
        33_782_074,
        "ad3ab132947e7a281a83fb127b79b7ab37e981a32f6611ebd9d5dbd418b596e2",
    ),
    (
        16_904_829,
        "b923bd978928d928f6f450567597f019d777163dfc1b49581d5173c691448925",
    ),
    (
        17_398_025,
        "c94137c7f32b0c5d60c5f130ab1c4ff58abde150225a12d243687a34f6ffc339",
    ),
];

/// Over USI: `EvalFile` takes a net with progress buckets, `isready` names it, `eval`
/// gives YaneuraOu's values.
#[test]
fn sfnn_bucket_nets_over_usi() {
    let index = 2;
    let shape = SHAPES[index];
    let tmp = TempDir::new("usi-sfnn-buckets");
    let bytes = shape.wide_net(WIDE_SEED + index as u64);
    let path = tmp.write("buckets.bin", &bytes);
    let mut e = engine_with_net(&path);
    let want = format!("loaded {} (SFNN, {} bytes: ", shape.name, bytes.len());
    assert_loads_and_evaluates(&mut e, &want, &recorded(), 4 * index + 2);
    e.quit();
}

/// Writes the nets and the positions to record, for YaneuraOu:
/// `HAYATE_TEST_NET_DIR=dir cargo test --release --test nnue -- --ignored
/// write_sfnn_bucket_nets` writes `s<i>-dummy.bin` and `s<i>-wide.bin` for the i-th
/// shape (from 1; `MORE_SHAPES` after `SHAPES`), and buckets.sfen (the positions of nnue-yaneuraou-sfnn.tsv).
#[test]
#[ignore]
fn write_sfnn_bucket_nets() {
    let dir = PathBuf::from(std::env::var("HAYATE_TEST_NET_DIR").expect("HAYATE_TEST_NET_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    // The shapes of MORE_SHAPES follow as s8 to s10.
    for (i, shape) in SHAPES.into_iter().chain(MORE_SHAPES).enumerate() {
        let n = i + 1;
        std::fs::write(dir.join(format!("s{n}-dummy.bin")), shape.dummy_net()).unwrap();
        std::fs::write(
            dir.join(format!("s{n}-wide.bin")),
            shape.wide_net(WIDE_SEED + i as u64),
        )
        .unwrap();
    }
    let text: String = include_str!("../data/nnue-yaneuraou-sfnn.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("sfen {}\n", l.split('\t').next().unwrap()))
        .collect();
    std::fs::write(dir.join("buckets.sfen"), text).unwrap();
}
