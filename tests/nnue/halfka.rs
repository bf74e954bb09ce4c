//! Classic nets with the HalfKA family of features (YaneuraOu's `halfka1`, `halfka2`,
//! `halfkahm1` and `halfkahm2` editions, `<feature>_256x2-32-32`): for each feature set
//! the net YaneuraOu's `nnue_dummy_gen.py` writes and a net of wide random weights, both
//! made here from their seeds, against the evaluations YaneuraOu built for that feature
//! set gave for them (tests/data/nnue-yaneuraou-halfka.tsv); the independent reference
//! evaluator on playouts; incremental accumulators and the refresh cache against full
//! counts; and a net over USI.

use super::sfnn::walking_king_positions;
use super::writer::{self, dummy_classic_net, Features, Shape, HALFKA_256};
use super::{
    assert_loads_and_evaluates, check_against_reference, engine_with_net, recorded_values,
    refresh_cache_equals_a_full_count, walk_incrementally, TempDir, TestNet, STARTS,
};
use hayate::eval::nnue::{Kernels, Network};
use hayate::{Color, Position};
use std::path::PathBuf;

/// The seeds of the wide nets, one per feature set (in `HALFKA_256`'s order).
const WIDE_SEEDS: [u64; 4] = [0x5eed_a001, 0x5eed_a002, 0x5eed_a0a1, 0x5eed_a0a2];

/// FV_SCALE values recorded: the dummy net's values are small, so its first scale is 1
/// (the output as it is); the wide net's are those of real nets.
const DUMMY_SCALES: [i32; 2] = [1, 16];
const WIDE_SCALES: [i32; 2] = [16, 40];

/// Recorded values per position: for each feature set, the dummy net's at
/// [`DUMMY_SCALES`], then the wide net's at [`WIDE_SCALES`].
const COLUMNS: usize = 4 * HALFKA_256.len();

fn name(shape: Shape) -> String {
    let short = match shape.features {
        Features::HalfKA1 => "halfka1",
        Features::HalfKA2 => "halfka2",
        Features::HalfKAhm1 => "halfkahm1",
        Features::HalfKAhm2 => "halfkahm2",
        other => panic!("not a HalfKA set: {other:?}"),
    };
    format!("{short}_{}x2-{}-{}", shape.half, shape.h1, shape.h2)
}

fn load(bytes: &[u8], shape: Shape) -> Network {
    let (net, warnings) = Network::from_bytes(bytes).expect("a well-formed HalfKA net");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(net.arch().name(), name(shape));
    net
}

/// The recorded rows: position, then the [`COLUMNS`] values.
fn recorded() -> Vec<(Position, Vec<i32>)> {
    recorded_values(include_str!("../data/nnue-yaneuraou-halfka.tsv"), COLUMNS)
}

/// Checks `net` against the recorded column `first` and the next, at `scales`; returns
/// how many distinct values they hold.
fn check_recorded(
    net: &Network,
    rows: &[(Position, Vec<i32>)],
    first: usize,
    scales: [i32; 2],
) -> usize {
    let mut distinct = std::collections::HashSet::new();
    for (pos, values) in rows {
        for (s, &fv) in scales.iter().enumerate() {
            let want = values[first + s];
            assert_eq!(
                net.evaluate(pos, fv),
                Some(want),
                "{} at FV_SCALE {fv}: {pos}",
                net.arch().name()
            );
            distinct.insert(want);
        }
    }
    distinct.len()
}

/// Everything for one feature set: YaneuraOu's values on both nets, the reference on
/// playouts with walking kings, incremental updates and the refresh cache, and the fast
/// kernels against the portable ones.
fn check_feature_set(index: usize) {
    let shape = HALFKA_256[index];
    let rows = recorded();
    assert!(rows.len() >= 250, "{} rows", rows.len());
    {
        // The generator's weights (0 and ±1, biases 0) leave nothing after the second
        // hidden layer's shift: YaneuraOu gives 0 for every position, and so must hayate.
        // The net proves the file is read as YaneuraOu reads it; the wide net below, the
        // arithmetic.
        let net = load(&dummy_classic_net(shape), shape);
        check_recorded(&net, &rows, 4 * index, DUMMY_SCALES);
    }
    let t = TestNet::new(shape, WIDE_SEEDS[index]);
    assert_eq!(t.net.arch().name(), name(shape));
    let distinct = check_recorded(&t.net, &rows, 4 * index + 2, WIDE_SCALES);
    assert!(
        distinct > rows.len(),
        "{}: {distinct} distinct values",
        name(shape)
    );
    let positions: Vec<Position> = walking_king_positions(0xa0 + index as u64, 8, 100)
        .into_iter()
        .step_by(2)
        .collect();
    let distinct = check_against_reference(&t, &positions);
    assert!(
        distinct > 200,
        "{}: {distinct} distinct values",
        name(shape)
    );
    for (i, start) in STARTS.iter().enumerate() {
        walk_incrementally(&t.net, start, 0xa0 + i as u64, 400);
    }
    refresh_cache_equals_a_full_count(&t.net);
    let mut portable = t.net.clone();
    assert!(portable.set_kernels(Kernels::Portable));
    for pos in positions.iter().step_by(4) {
        assert_eq!(portable.evaluate(pos, 16), t.net.evaluate(pos, 16), "{pos}");
    }
}

#[test]
fn halfka1_nets_evaluate_as_yaneuraou() {
    check_feature_set(0);
}

#[test]
fn halfka2_nets_evaluate_as_yaneuraou() {
    check_feature_set(1);
}

#[test]
fn halfkahm1_nets_evaluate_as_yaneuraou() {
    check_feature_set(2);
}

#[test]
fn halfkahm2_nets_evaluate_as_yaneuraou() {
    check_feature_set(3);
}

/// The recorded positions have each side's king on both halves of the board as that side
/// sees it (the "hm" sets fold one half onto the other), and both kings in each third.
#[test]
fn recorded_positions_put_the_kings_everywhere() {
    let mut seen = std::collections::HashSet::new();
    for (pos, _) in recorded() {
        for side in [Color::Black, Color::White] {
            let sq = pos.king_square(side).unwrap().index();
            let (file, rank) = (sq / 9, sq % 9);
            // Files and ranks as `side` sees them.
            let (file, rank) = match side {
                Color::Black => (file, rank),
                Color::White => (8 - file, 8 - rank),
            };
            seen.insert((side, file >= 5, rank / 3));
        }
    }
    assert_eq!(seen.len(), 12, "{seen:?}");
}

/// The dummy nets are the files YaneuraOu's generator writes
/// (`python3 nnue_dummy_gen.py <feature>_256x2-32-32 nn.bin`, Python 3.11), byte for
/// byte: their sizes and SHA-256.
#[test]
fn the_dummy_nets_are_the_ones_yaneuraous_generator_writes() {
    use sha2::{Digest, Sha256};
    for (shape, (len, sha256)) in HALFKA_256.into_iter().zip(DUMMY_FILES) {
        let bytes = dummy_classic_net(shape);
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            (bytes.len(), digest.as_str()),
            (len, sha256),
            "{}",
            name(shape)
        );
    }
}

/// `ls -l` and `sha256sum` of the generator's files, in `HALFKA_256`'s order.
const DUMMY_FILES: [(usize, &str); 4] = [
    (
        70_935_542,
        "ec8a816c638d8d08a73275cf6884f15d735847d90da2b2396a1feaf1a182056e",
    ),
    (
        67_576_310,
        "b79784fc331cbd973839f00124868bfea62ba59bc760b579702a296460067531",
    ),
    (
        39_416_824,
        "87c4ce3f97847561af2bf74501a5f5e4800660a06e9632d44cc84ea767d7e8c5",
    ),
    (
        37_550_584,
        "feacfdd8c056ca9d1d4536ac3b148e5a75b2881364c4446d7f85b2a1d4af97a5",
    ),
];

/// Over USI: `EvalFile` takes a HalfKA net, `isready` names it, `eval` gives YaneuraOu's
/// values.
#[test]
fn halfka_nets_over_usi() {
    let index = 3;
    let shape = HALFKA_256[index];
    let tmp = TempDir::new("usi-halfka");
    let bytes = writer::random_net(shape, WIDE_SEEDS[index]);
    let path = tmp.write("halfkahm2.bin", &bytes);
    let mut e = engine_with_net(&path);
    e.send("setoption name FV_SCALE value 40");
    let want = format!(
        "loaded {} (classic NNUE, {} bytes: ",
        name(shape),
        bytes.len()
    );
    assert_loads_and_evaluates(&mut e, &want, &recorded(), 4 * index + 3);
    e.quit();
}

/// Writes the nets and the positions to record, for YaneuraOu:
/// `HAYATE_TEST_NET_DIR=dir cargo test --release --test nnue -- --ignored
/// write_halfka_nets` writes `<feature>-dummy.bin` and `<feature>-wide.bin` for each set,
/// and halfka.sfen (`sfen ...` lines: the positions of nnue-yaneuraou-sfnn.tsv, whose
/// kings walk the whole board).
#[test]
#[ignore]
fn write_halfka_nets() {
    let dir = PathBuf::from(std::env::var("HAYATE_TEST_NET_DIR").expect("HAYATE_TEST_NET_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    for (shape, seed) in HALFKA_256.into_iter().zip(WIDE_SEEDS) {
        let short = name(shape);
        let short = short.split('_').next().unwrap();
        std::fs::write(
            dir.join(format!("{short}-dummy.bin")),
            dummy_classic_net(shape),
        )
        .unwrap();
        std::fs::write(
            dir.join(format!("{short}-wide.bin")),
            writer::random_net(shape, seed),
        )
        .unwrap();
    }
    let text: String = include_str!("../data/nnue-yaneuraou-sfnn.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("sfen {}\n", l.split('\t').next().unwrap()))
        .collect();
    std::fs::write(dir.join("halfka.sfen"), text).unwrap();
}
