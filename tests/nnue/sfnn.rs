//! SFNN nets (YaneuraOu's `SFNN_halfkahm2_1536_15_32_k3k3`): two nets made here byte for
//! byte, the evaluations YaneuraOu's SFNN1536 build gave for them (tests/data), the
//! incremental accumulators against full refreshes, and the files over USI.
//!
//! The nets are 110 to 120 MB, too large to keep in the repository: each is written
//! again from its seed. One is the file YaneuraOu's own `nnue_dummy_gen.py` writes (its
//! weights are 0 and ±1, drawn by Python's Mersenne Twister, which [`PyRandom`] repeats);
//! the other has wide random weights, so that every clamp, every bucket and the
//! multi-byte LEB128 numbers are exercised.

use super::writer::{pad32, small_bytes, write_layer, PyRandom, Rng, DUMMY_SEED};
use super::*;
use hayate::eval::nnue::arch::SFNN_HASH;

const VERSION: u32 = 0x7AF3_2F16;
const TRANSFORMER_HASH: u32 = 0x5F13_4AB8;
const NETWORK_HASH: u32 = 0x6333_718A;
const STRUCTURE: &str = "ModelType=SFNNWithoutPsqt;Features=HalfKA_hm2(Friend)[73305->1536x2],\
                         Network=SFNN-1536{LayerStack=9}";
const LEB128_MAGIC: &[u8] = b"COMPRESSED_LEB128";
/// HalfKA_hm2's features: 5 × 9 king squares × 1629 piece states.
const FEATURES: usize = 45 * 1629;
const HALF: usize = 1536;
const H1: usize = 15;
const H2: usize = 32;
const STACKS: usize = 9;
const WIDE_SEED: u64 = 0x5f_2026;

fn header(structure: &str, out: &mut Vec<u8>) {
    out.extend(VERSION.to_le_bytes());
    out.extend(SFNN_HASH.to_le_bytes());
    out.extend((structure.len() as u32).to_le_bytes());
    out.extend(structure.as_bytes());
    out.extend(TRANSFORMER_HASH.to_le_bytes());
}

/// An SFNN shape for the generator: transformer width per side, hidden layers, stacks.
#[derive(Clone, Copy)]
struct SfnnShape {
    half: usize,
    h1: usize,
    h2: usize,
    stacks: usize,
}

const SFNN1536: SfnnShape = SfnnShape {
    half: HALF,
    h1: H1,
    h2: H2,
    stacks: STACKS,
};

/// A small shape for malformed files (5 MB): one stack, no shortcut.
const SMALL: SfnnShape = SfnnShape {
    half: 64,
    h1: 8,
    h2: 8,
    stacks: 1,
};

impl SfnnShape {
    fn structure(&self) -> String {
        if self.half == HALF {
            return STRUCTURE.to_string();
        }
        format!(
            "ModelType=SFNNWithoutPsqt;Features=HalfKA_hm2(Friend)[{FEATURES}->{}x2],\
             Network=SFNN_halfkahm2_{}_{}_{}{{LayerStack={}}}",
            self.half, self.half, self.h1, self.h2, self.stacks
        )
    }

    /// First-layer outputs: one more when hidden1 is 8n - 1 (the shortcut).
    fn first_outputs(&self) -> usize {
        self.h1 + (self.h1 % 8 == 7) as usize
    }
}

/// The file `nnue_dummy_gen.py SFNN_halfkahm2_1536_15_32_k3k3 nn.bin` writes (its
/// default `random-small` mode and seed): zero biases, weights 0, 1 or -1.
pub fn dummy_net() -> Vec<u8> {
    let mut rng = PyRandom::new(DUMMY_SEED);
    let mut out = Vec::with_capacity(HALF * FEATURES + (1 << 20));
    header(STRUCTURE, &mut out);
    dummy_transformer(&mut rng, HALF, FEATURES, &mut out);
    for _ in 0..STACKS {
        out.extend(NETWORK_HASH.to_le_bytes());
        for (inputs, outputs) in [(HALF, H1 + 1), (2 * H1, H2), (H2, 1)] {
            out.resize(out.len() + 4 * outputs, 0);
            small_bytes(&mut rng, outputs * pad32(inputs), 0xff, &mut out);
        }
    }
    out
}

/// Appends `v` as signed LEB128.
fn leb128(mut v: i32, out: &mut Vec<u8>) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        if done {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

pub fn leb128_block(values: impl Iterator<Item = i16>, out: &mut Vec<u8>) {
    let mut bytes = Vec::new();
    for v in values {
        leb128(v as i32, &mut bytes);
    }
    out.extend(LEB128_MAGIC);
    out.extend((bytes.len() as u32).to_le_bytes());
    out.extend(bytes);
}

/// The transformer `nnue_dummy_gen.py` writes: `half` zero biases and `half × features`
/// weights of 0 and ±1, each one LEB128 byte.
pub fn dummy_transformer(rng: &mut PyRandom, half: usize, features: usize, out: &mut Vec<u8>) {
    out.extend(LEB128_MAGIC);
    out.extend((half as u32).to_le_bytes());
    out.resize(out.len() + half, 0);
    out.extend(LEB128_MAGIC);
    out.extend(((half * features) as u32).to_le_bytes());
    small_bytes(rng, half * features, 0x7f, out);
}

/// A transformer's `half` biases and `half × features` weights, LEB128-compressed, wide:
/// mostly small weights, some of ±200, and one in 4,096 anywhere in 16 bits (so that the
/// doubled sums wrap and the numbers take three LEB128 bytes).
pub fn wide_transformer(rng: &mut Rng, half: usize, features: usize, out: &mut Vec<u8>) {
    let biases: Vec<i16> = (0..half).map(|_| rng.range(-20, 120) as i16).collect();
    leb128_block(biases.into_iter(), out);
    let weights = (0..half * features).map(|_| {
        let r = rng.next();
        if r.is_multiple_of(4096) {
            (r >> 16) as i16
        } else if r.is_multiple_of(61) {
            ((r >> 20) % 401) as i16 - 200
        } else {
            ((r >> 20) % 13) as i16 - 6
        }
    });
    leb128_block(weights, out);
}

/// An SFNN1536 net with wide random weights: transformer sums spread across both ends
/// of the products' clamp (a few huge weights make the doubled 16-bit sums wrap, and
/// take three LEB128 bytes), first-layer outputs across the whole of SqrClippedReLU and
/// ClippedReLU, layers of full-range weights now and then, and each stack its own.
pub fn wide_net(seed: u64) -> Vec<u8> {
    wide_net_of(SFNN1536, seed)
}

fn wide_net_of(shape: SfnnShape, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::with_capacity(shape.half * FEATURES * 11 / 10);
    header(&shape.structure(), &mut out);
    wide_transformer(&mut rng, shape.half, FEATURES, &mut out);
    for _ in 0..shape.stacks {
        out.extend(NETWORK_HASH.to_le_bytes());
        for (inputs, outputs, w, lo, hi) in [
            (shape.half, shape.first_outputs(), 4, -6000, 9000),
            (2 * shape.h1, shape.h2, 32, -4000, 6000),
            (shape.h2, 1, 127, -4000, 6000),
        ] {
            write_layer(&mut out, &mut rng, inputs, outputs, w, (lo, hi));
        }
    }
    out
}

fn load(bytes: &[u8]) -> Network {
    let (net, warnings) = Network::from_bytes(bytes).expect("a well-formed SFNN net");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(net.arch().name(), "SFNN_halfkahm2_1536_15_32_k3k3");
    net
}

fn dummy() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| load(&dummy_net()))
}

fn wide() -> &'static Network {
    static NET: OnceLock<Network> = OnceLock::new();
    NET.get_or_init(|| load(&wide_net(WIDE_SEED)))
}

/// The k3k3 bucket of `pos`, as YaneuraOu's `king3_by_king3_bucket` computes it (ranks
/// counted from the top of the board, rank a).
fn bucket(pos: &Position) -> usize {
    use hayate::Color;
    let rank = |c: Color| pos.king_square(c).unwrap().index() % 9;
    let us = pos.side_to_move();
    let (mut f, mut e) = (rank(us), rank(!us));
    if us == Color::Black {
        e = 8 - e;
    } else {
        f = 8 - f;
    }
    (f / 3) * 3 + e / 3
}

/// Playouts in which the kings walk about (a king move is taken half the times one is
/// legal, and in every other game mostly one up the board), so that every pair of
/// thirds, hence every stack, is visited; captures fill the hands.
pub fn walking_king_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    playouts(seed, games, plies, |pos, moves, g, rng| {
        let king = pos.king_square(pos.side_to_move());
        let king_moves: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| m.from().is_some() && m.from() == king)
            .collect();
        // Forward is towards rank a for Black, rank i for White.
        let us = pos.side_to_move();
        let rank = |m: &hayate::Move| m.to().index() % 9;
        let from = king.map_or(0, |k| k.index() % 9);
        let forward: Vec<_> = king_moves
            .iter()
            .copied()
            .filter(|m| match us {
                hayate::Color::Black => rank(m) < from,
                hayate::Color::White => rank(m) > from,
            })
            .collect();
        let pick =
            |list: &[hayate::Move], rng: &mut Rng| list[(rng.next() % list.len() as u64) as usize];
        if !king_moves.is_empty() && rng.next().is_multiple_of(2) {
            // Marches up the board in every other game, wanders in the rest.
            if g % 2 == 1 && !forward.is_empty() && !rng.next().is_multiple_of(3) {
                pick(&forward, rng)
            } else {
                pick(&king_moves, rng)
            }
        } else {
            pick(moves, rng)
        }
    })
}

/// Writes the two nets and the positions to record, for YaneuraOu:
/// `HAYATE_TEST_NET_DIR=dir HAYATE_OPENINGS=openings.sfen cargo test --release --test nnue
/// -- --ignored write_sfnn_nets` writes sfnn-dummy.bin, sfnn-wide.bin and sfnn.sfen
/// (`sfen ...` lines: the end of every fourth opening of the file, one `startpos moves
/// ...` a line, then playouts with walking kings).
#[test]
#[ignore]
fn write_sfnn_nets() {
    let dir = PathBuf::from(std::env::var("HAYATE_TEST_NET_DIR").expect("HAYATE_TEST_NET_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("sfnn-dummy.bin"), dummy_net()).unwrap();
    std::fs::write(dir.join("sfnn-wide.bin"), wide_net(WIDE_SEED)).unwrap();
    let mut positions = Vec::new();
    if let Ok(openings) = std::env::var("HAYATE_OPENINGS") {
        let text = std::fs::read_to_string(openings).unwrap();
        for line in text.lines().step_by(4) {
            let moves = line.strip_prefix("startpos moves ").unwrap();
            let mut pos = Position::startpos();
            for m in moves.split_whitespace() {
                let mv = pos.parse_move(m).unwrap();
                pos.play_unchecked(mv);
            }
            positions.push(pos);
        }
    }
    positions.extend(
        walking_king_positions(0x5f22, 25, 120)
            .into_iter()
            .step_by(12),
    );
    let text: String = positions.iter().map(|p| format!("sfen {p}\n")).collect();
    std::fs::write(dir.join("sfnn.sfen"), text).unwrap();
}

/// The file YaneuraOu's generator writes (`python3 nnue_dummy_gen.py
/// SFNN_halfkahm2_1536_15_32_k3k3 nn.bin`, Python 3.11) is the one made here, byte for
/// byte: its size and SHA-256.
#[test]
fn the_dummy_net_is_the_one_yaneuraous_generator_writes() {
    use sha2::{Digest, Sha256};
    let bytes = dummy_net();
    assert_eq!(bytes.len(), 112_830_662);
    let digest: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(digest, DUMMY_SHA256);
    // Python: list(random.Random(20260722).randbytes(8))
    let mut rng = PyRandom::new(DUMMY_SEED);
    let mut first = Vec::new();
    rng.randbytes(8, &mut first);
    assert_eq!(first, [210, 80, 53, 140, 238, 5, 72, 199]);
}

/// `sha256sum` of the generator's file.
const DUMMY_SHA256: &str = "788190472d1a85d2b190e606f5e33e83ac3abf2441eb132c8470364da5260599";

/// YaneuraOu's evaluations of both nets (tests/data/nnue-yaneuraou-sfnn.tsv): the engine
/// must match every one.
#[test]
fn sfnn_evaluations_equal_yaneuraous_recorded_values() {
    let text = include_str!("../data/nnue-yaneuraou-sfnn.tsv");
    let nets = [(dummy(), [1, 16]), (wide(), [16, 40])];
    let mut rows = 0;
    let mut buckets = [0usize; STACKS];
    let mut values = std::collections::HashSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 5, "{line}");
        let pos: Position = fields[0].parse().unwrap();
        let recorded: Vec<i32> = fields[1..].iter().map(|v| v.parse().unwrap()).collect();
        let mut got = Vec::new();
        for (net, scales) in nets {
            for fv in scales {
                got.push(net.evaluate(&pos, fv).expect("both kings"));
            }
        }
        assert_eq!(got, recorded, "{line}");
        buckets[bucket(&pos)] += 1;
        values.insert(recorded[2]);
        rows += 1;
    }
    assert!(rows >= 250, "{rows} positions");
    // Every stack is used, and the wide net's values are spread.
    assert!(
        buckets.iter().all(|&n| n > 0),
        "positions per bucket {buckets:?}"
    );
    assert!(values.len() > rows / 2, "{} distinct values", values.len());
}

#[test]
fn sfnn_fast_and_portable_kernels_agree() {
    let mut portable = wide().clone();
    assert!(portable.set_kernels(Kernels::Portable));
    for kernels in [Kernels::Avx2, Kernels::Vnni] {
        let mut fast = wide().clone();
        if !fast.set_kernels(kernels) {
            eprintln!("no {} here: not compared", kernels.name());
            continue;
        }
        for pos in walking_king_positions(3, 6, 80).into_iter().step_by(3) {
            assert_eq!(
                portable.evaluate(&pos, 16),
                fast.evaluate(&pos, 16),
                "{kernels:?}: {pos}"
            );
        }
    }
}

#[test]
fn sfnn_incremental_accumulators_equal_a_full_refresh() {
    let net = wide();
    for (i, start) in STARTS.iter().enumerate() {
        walk_incrementally(net, start, 0x5f + i as u64, 600);
    }
    refresh_cache_equals_a_full_count(net);
}

pub fn small_net() -> &'static [u8] {
    static NET: OnceLock<Vec<u8>> = OnceLock::new();
    NET.get_or_init(|| wide_net_of(SMALL, 0x5a11))
}

/// Where in `bytes` the transformer's first LEB128 block (the biases) starts.
fn first_block(bytes: &[u8]) -> usize {
    let len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    12 + len + 4
}

/// (file name, contents, words the refusal must contain): SFNN files damaged in each
/// way the reader checks.
pub fn malformed_sfnn_cases() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let good = small_net();
    let block = first_block(good);
    let with = |at: usize, bytes: &[u8]| {
        let mut b = good.to_vec();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    let restring = |s: &str| {
        let len = u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
        let mut b = good[..8].to_vec();
        b.extend((s.len() as u32).to_le_bytes());
        b.extend(s.as_bytes());
        b.extend(&good[12 + len..]);
        b
    };
    let structure = SMALL.structure();
    // The biases' block: magic, length, then one byte per bias (each fits in 7 bits).
    let biases = block + LEB128_MAGIC.len() + 4;
    let mut longer_block = good.to_vec();
    let stated = u32::from_le_bytes(good[biases - 4..biases].try_into().unwrap());
    longer_block[biases - 4..biases].copy_from_slice(&(stated + 1).to_le_bytes());
    let mut extra = good.to_vec();
    extra.push(0);
    vec![
        (
            "sfnn-magic.bin",
            with(block, b"COMPRESSED_LEB129"),
            "COMPRESSED_LEB128",
        ),
        (
            "sfnn-block-length.bin",
            longer_block,
            "compressed parameters are damaged",
        ),
        // A first byte that goes on, a second that goes on, a third that goes on: a
        // number longer than 16 bits.
        (
            "sfnn-long-number.bin",
            with(biases, &[0x80, 0x80, 0x80]),
            "runs past 16 bits",
        ),
        (
            "sfnn-truncated.bin",
            good[..good.len() / 2].to_vec(),
            "but 2",
        ),
        ("sfnn-too-long.bin", extra, "too long"),
        (
            "sfnn-hash.bin",
            with(4, &(SFNN_HASH ^ 0x100).to_le_bytes()),
            "the header's hash is",
        ),
        (
            // A split first layer is read, but its shards must be whole registers.
            "sfnn-bad-split.bin",
            restring(&structure.replace("_8_8{", "_8_8_c0_s32x2{")),
            "2 shards of 32",
        ),
        (
            "sfnn-stacks.bin",
            restring(&structure.replace("=1}", "=9}")),
            "an SFNN net",
        ),
        (
            "sfnn-odd-hidden.bin",
            restring(&structure.replace("_64_8_8", "_64_9_8")),
            "first hidden layer of 9",
        ),
    ]
}

#[test]
fn malformed_sfnn_files_are_refused_with_a_reason() {
    let (net, warnings) = Network::from_bytes(small_net()).expect("the small net loads");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(net.arch().name(), "SFNN_halfkahm2_64_8_8");
    for (name, bytes, words) in malformed_sfnn_cases() {
        let e = Network::from_bytes(&bytes).expect_err(name).to_string();
        assert!(e.contains(words), "{name}: {e}");
    }
    // Inner hashes only warn, as in YaneuraOu.
    let mut inner = small_net().to_vec();
    let at = first_block(&inner) - 4;
    inner[at] ^= 1;
    let (_, warnings) = Network::from_bytes(&inner).expect("loaded anyway");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

/// Bytes damaged at random never make the reader (or an evaluation of what it accepts)
/// panic.
#[test]
fn damaged_sfnn_files_never_panic() {
    let good = small_net();
    let mut rng = Rng(0xdead);
    let positions = walking_king_positions(9, 2, 40);
    for _ in 0..300 {
        let mut bytes = good.to_vec();
        for _ in 0..1 + rng.next() % 4 {
            // Mostly in the header and the first block, where the structure is.
            let at = if rng.next().is_multiple_of(2) {
                (rng.next() % 400) as usize
            } else {
                (rng.next() % bytes.len() as u64) as usize
            };
            bytes[at] = rng.next() as u8;
        }
        if rng.next().is_multiple_of(4) {
            bytes.truncate((rng.next() % bytes.len() as u64) as usize);
        }
        if let Ok((net, _)) = Network::from_bytes(&bytes) {
            for pos in &positions {
                net.evaluate(pos, 16);
            }
        }
    }
}

/// Over USI: `EvalFile` loads the SFNN1536 net, `isready` names its shape, format and size,
/// `eval` gives YaneuraOu's values, `go` searches with it; malformed SFNN files are each
/// refused in one `info string`, and the SFNN net stays.
#[test]
fn sfnn_nets_over_usi() {
    let tmp = TempDir::new("usi-sfnn");
    let bytes = wide_net(WIDE_SEED);
    let path = tmp.write("sfnn-wide.bin", &bytes);
    let mut e = engine_with_net(&path);
    let lines = ready(&mut e);
    let want = format!(
        "loaded SFNN_halfkahm2_1536_15_32_k3k3 (SFNN, {} bytes: ",
        bytes.len()
    );
    drop(bytes);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string EvalFile: ") && l.contains(&want)),
        "{lines:?}"
    );
    let text = include_str!("../data/nnue-yaneuraou-sfnn.tsv");
    let recorded: Vec<(&str, i32)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .step_by(15)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], f[3].parse().unwrap())
        })
        .collect();
    let check = |e: &mut EngineProcess| {
        for &(sfen, value) in &recorded {
            assert_eq!(eval_value(e, &format!("sfen {sfen}")), value, "{sfen}");
        }
    };
    check(&mut e);
    // The search runs on it.
    let (sfen, _) = recorded[recorded.len() / 2];
    e.send(&format!("position sfen {sfen}"));
    e.send("go depth 5");
    let mv = expect_bestmove(&mut e);
    let pos: Position = sfen.parse().unwrap();
    assert!(pos.parse_move(&mv).is_ok(), "illegal bestmove {mv}");
    let mut cases = malformed_sfnn_cases();
    let dummy = dummy_net();
    cases.push((
        "sfnn1536-truncated.bin",
        dummy[..dummy.len() - 1000].to_vec(),
        "but 112829662 bytes",
    ));
    drop(dummy);
    for (name, bytes, words) in cases {
        let bad = tmp.write(name, &bytes);
        e.send(&format!("setoption name EvalFile value {}", bad.display()));
        let lines = ready(&mut e);
        let refusals: Vec<&String> = lines.iter().filter(|l| l.contains("refused")).collect();
        assert_eq!(refusals.len(), 1, "{name}: {lines:?}");
        assert!(refusals[0].starts_with("info string") && refusals[0].contains(words));
        assert!(
            refusals[0].contains("the net SFNN_halfkahm2_1536_15_32_k3k3 stays"),
            "{}",
            refusals[0]
        );
        std::fs::remove_file(bad).unwrap();
    }
    check(&mut e);
    e.quit();
}
