//! NNUE: the engine's evaluator against an independent reference on random nets of every
//! supported shape, incremental accumulators against full refreshes, AVX2 against the
//! portable kernels, malformed files, and the USI options driving a real game.

#[path = "../common/mod.rs"]
mod common;
mod halfka;
mod halfkpe9;
mod netinfo;
mod reference;
mod sfnn;
mod sfnn_buckets;
mod writer;

use common::EngineProcess;
use hayate::eval::nnue::refresh_cache::RefreshCache;
use hayate::eval::nnue::{self, AccumulatorStack, Dirty, Kernels, Network};
use hayate::Position;
use proptest::prelude::*;
use reference::RefNet;
use std::path::PathBuf;
use std::sync::OnceLock;
use writer::{random_net, Rng, Shape};

/// Positions to start playouts from: the start, handicaps (missing pieces), a middle
/// game, pieces in hand.
const STARTS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "8l/1r3gk2/4+Bsnp1/p1p1ppp1p/3p5/P1P1P1P1P/1PSP1PN2/1KG3S2/LN2r3L w BG2Psnl 1",
];

/// Positions from random playouts (up to `plies` plies from each start).
fn playout_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    // Captures now and then, so hands fill up and pieces promote.
    playouts(seed, games, plies, |_, moves, _, rng| {
        moves[(rng.next() % moves.len() as u64) as usize]
    })
}

/// Positions from playouts (up to `plies` plies from each start, in turn), each move
/// chosen by `choose` from the position, its legal moves, the game's number and the
/// seeded generator.
fn playouts(
    seed: u64,
    games: usize,
    plies: usize,
    mut choose: impl FnMut(&Position, &[hayate::Move], usize, &mut Rng) -> hayate::Move,
) -> Vec<Position> {
    let mut rng = Rng(seed | 1);
    let mut out = Vec::new();
    for g in 0..games {
        let mut pos: Position = STARTS[g % STARTS.len()].parse().unwrap();
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = choose(&pos, &moves, g, &mut rng);
            pos.play_unchecked(mv);
        }
    }
    out
}

struct TestNet {
    shape: Shape,
    bytes: Vec<u8>,
    net: Network,
}

impl TestNet {
    fn new(shape: Shape, seed: u64) -> TestNet {
        let bytes = random_net(shape, seed);
        let (net, warnings) = Network::from_bytes(&bytes).expect("a well-formed test net");
        assert!(warnings.is_empty(), "{warnings:?}");
        TestNet { shape, bytes, net }
    }

    fn reference(&self) -> RefNet<'_> {
        RefNet::new(
            &self.bytes,
            self.shape.features,
            self.shape.half,
            self.shape.h1,
            self.shape.h2,
        )
    }
}

fn halfkp256() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::HALFKP_256, 0x5eed_0001))
}

fn kp256() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::KP_256, 0x5eed_0002))
}

fn halfkp768() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::HALFKP_768_16_64, 0x5eed_0003))
}

fn kp352() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::KP_352_24_96, 0x5eed_0004))
}

fn kp32() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::KP_32_128_100, 0x5eed_0006))
}

fn halfkpvm256() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::HALFKPVM_256, 0x5eed_0005))
}

/// Checks the engine's evaluation (from scratch) against the reference on `positions`
/// with both FV_SCALE values; returns how many distinct values were seen (a test on
/// nets that always answer the same would prove little).
fn check_against_reference(t: &TestNet, positions: &[Position]) -> usize {
    let reference = t.reference();
    let mut values = std::collections::HashSet::new();
    for pos in positions {
        let sfen = pos.to_string();
        for fv in [16, 24, 40] {
            let want = reference.evaluate(&sfen, fv);
            let got = t.net.evaluate(pos, fv).expect("both kings");
            assert_eq!(got, want, "{:?} at FV_SCALE {fv}: {sfen}", t.shape);
            values.insert(want);
        }
    }
    values.len()
}

#[test]
fn halfkp_256_equals_the_reference_on_playout_positions() {
    let positions = playout_positions(1, 24, 120);
    assert!(positions.len() > 2000);
    let distinct = check_against_reference(halfkp256(), &positions);
    assert!(distinct > 500, "only {distinct} distinct evaluations");
}

#[test]
fn kp_256_equals_the_reference_on_playout_positions() {
    let positions = playout_positions(2, 24, 120);
    let distinct = check_against_reference(kp256(), &positions);
    assert!(distinct > 500, "only {distinct} distinct evaluations");
}

#[test]
fn wider_halfkp_nets_equal_the_reference() {
    for (i, shape) in [
        writer::HALFKP_512,
        writer::HALFKP_1024_8_32,
        writer::HALFKP_1024_8_64,
    ]
    .into_iter()
    .enumerate()
    {
        let t = TestNet::new(shape, 0x77 + i as u64);
        assert_eq!(t.net.arch().half, shape.half);
        let positions = playout_positions(10 + i as u64, 6, 60);
        let distinct = check_against_reference(&t, &positions);
        assert!(
            distinct > 50,
            "{shape:?}: only {distinct} distinct evaluations"
        );
    }
}

#[test]
fn shapes_of_any_width_equal_the_reference() {
    for t in [halfkp768(), kp352(), halfkpvm256(), kp32()] {
        let name = t.net.arch().name();
        let positions = playout_positions(t.shape.half as u64, 12, 100);
        let distinct = check_against_reference(t, &positions);
        assert!(
            distinct > 300,
            "{name}: only {distinct} distinct evaluations"
        );
    }
    assert_eq!(halfkp768().net.arch().name(), "halfkp_768x2-16-64");
    assert_eq!(kp352().net.arch().name(), "kp_352x2-24-96");
    assert_eq!(kp32().net.arch().name(), "kp_32x2-128-100");
    assert_eq!(halfkpvm256().net.arch().name(), "halfkpvm_256x2-32-32");
}

/// HalfKP_vm mirrors the board for a side whose king stands on files 6 to 9 (as that side
/// sees it): the playouts the reference checks have kings on both halves, for both sides.
#[test]
fn halfkp_vm_positions_have_kings_on_both_halves() {
    let mut halves = std::collections::HashSet::new();
    for pos in playout_positions(halfkpvm256().shape.half as u64, 12, 100) {
        for side in [hayate::Color::Black, hayate::Color::White] {
            let file = pos.king_square(side).unwrap().index() / 9;
            // Files 6 to 9 from Black's side are files 1 to 4 from White's.
            let far = match side {
                hayate::Color::Black => file >= 5,
                hayate::Color::White => file <= 3,
            };
            halves.insert((side, far));
        }
    }
    assert_eq!(halves.len(), 4, "{halves:?}");
}

#[test]
fn fast_and_portable_kernels_give_the_same_evaluations() {
    for t in [halfkp256(), halfkp768(), kp352(), halfkpvm256(), kp32()] {
        let mut portable = t.net.clone();
        assert!(portable.set_kernels(Kernels::Portable));
        for kernels in [Kernels::Avx2, Kernels::Vnni] {
            let mut fast = t.net.clone();
            if !fast.set_kernels(kernels) {
                eprintln!("no {} here: not compared", kernels.name());
                continue;
            }
            for pos in playout_positions(3, 12, 100) {
                for fv in [16, 24] {
                    assert_eq!(
                        portable.evaluate(&pos, fv),
                        fast.evaluate(&pos, fv),
                        "{kernels:?}: {pos}"
                    );
                }
            }
        }
    }
}

/// Walks a random line the way the search does (moves, null moves, take-backs),
/// evaluating at some nodes only, and checks each evaluation against a full refresh.
fn walk_incrementally(net: &Network, start: &str, seed: u64, steps: usize) -> WalkTally {
    walk_incrementally_with(net, start, seed, steps, |_| {})
}

/// What a walk went through: every kind of change the accumulators must follow.
#[derive(Debug, Default)]
struct WalkTally {
    captures: usize,
    drops: usize,
    promotions: usize,
    king_moves: usize,
    null_moves: usize,
    take_backs: usize,
    evaluations: usize,
}

impl WalkTally {
    fn add(&mut self, other: &WalkTally) {
        self.captures += other.captures;
        self.drops += other.drops;
        self.promotions += other.promotions;
        self.king_moves += other.king_moves;
        self.null_moves += other.null_moves;
        self.take_backs += other.take_backs;
        self.evaluations += other.evaluations;
    }
}

/// [`walk_incrementally`], calling `at_node` on every position the walk reaches.
fn walk_incrementally_with(
    net: &Network,
    start: &str,
    seed: u64,
    steps: usize,
    mut at_node: impl FnMut(&Position),
) -> WalkTally {
    let mut rng = Rng(seed | 1);
    let mut pos: Position = start.parse().unwrap();
    let mut stack = AccumulatorStack::new();
    let mut tally = WalkTally::default();
    const PLIES: usize = 48;
    stack.reset(net, PLIES + 1);
    // Whether the move into each ply was a null move.
    let mut nulls: Vec<bool> = vec![false];
    for _ in 0..steps {
        let ply = nulls.len() - 1;
        let r = rng.next() % 16;
        if r < 3 && ply > 0 {
            if nulls.pop() == Some(true) {
                pos.undo_null();
            } else {
                pos.undo();
            }
            tally.take_backs += 1;
            at_node(&pos);
            continue;
        }
        if r == 3 && ply < PLIES && !pos.in_check() {
            stack.push(ply + 1, Dirty::NONE);
            pos.play_null();
            nulls.push(true);
            tally.null_moves += 1;
        } else if ply < PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue;
            }
            let mv = moves[(rng.next() % moves.len() as u64) as usize];
            tally.drops += usize::from(mv.drop_kind().is_some());
            tally.promotions += usize::from(mv.is_promotion());
            if let Some(from) = mv.from() {
                tally.captures += usize::from(pos.piece_at(mv.to()).is_some());
                tally.king_moves += usize::from(pos.king_square(pos.side_to_move()) == Some(from));
            }
            stack.push(ply + 1, Dirty::of_move(&pos, mv));
            pos.play_unchecked(mv);
            nulls.push(false);
        }
        at_node(&pos);
        if rng.next().is_multiple_of(3) {
            let ply = nulls.len() - 1;
            let fv = if rng.next().is_multiple_of(2) { 16 } else { 24 };
            // The stack may take moves back and replay them: the position stays as it was.
            let (key, sfen) = (pos.key(), pos.to_string());
            let got = stack.evaluate(net, &mut pos, ply, fv);
            assert_eq!((pos.key(), pos.to_string()), (key, sfen));
            assert_eq!(Some(got), net.evaluate(&pos, fv), "ply {ply}: {pos}");
            tally.evaluations += 1;
        }
    }
    tally
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn incremental_accumulators_equal_a_full_refresh(seed in any::<u64>(), start in 0..STARTS.len()) {
        for t in [halfkp256(), kp256(), halfkp768(), kp352(), halfkpvm256(), kp32()] {
            let mut net = t.net.clone();
            walk_incrementally(&net, STARTS[start], seed, 400);
            if net.set_kernels(Kernels::Portable) {
                walk_incrementally(&net, STARTS[start], seed, 400);
            }
        }
    }
}

/// One refresh cache serves positions of unrelated games in turn, so its entries are
/// brought across large differences (handicaps, full hands, promoted pieces, other
/// kings' squares): every accumulator it gives must equal a count from nothing.
#[test]
fn the_refresh_cache_gives_the_accumulator_of_a_full_count() {
    for t in [halfkp256(), halfkp768(), halfkpvm256()] {
        refresh_cache_equals_a_full_count(&t.net);
    }
}

fn refresh_cache_equals_a_full_count(net: &Network) {
    let half = net.half();
    let mut cache = RefreshCache::default();
    cache.reset(net);
    let mut positions = playout_positions(0xcafe, 12, 120);
    // Interleave the games: consecutive positions then differ by more than one move.
    let mut rng = Rng(7);
    for i in (1..positions.len()).rev() {
        positions.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
    let (mut got, mut want) = (vec![0i16; half], vec![0i16; half]);
    let mut distinct = std::collections::HashSet::new();
    for pos in &positions {
        for side in [hayate::Color::Black, hayate::Color::White] {
            cache.refresh(net, pos, side, &mut got);
            net.refresh(pos, side, &mut want);
            assert_eq!(got, want, "{side:?} in {pos}");
            distinct.insert(want[0]);
        }
    }
    assert!(distinct.len() > 100, "{} distinct sums", distinct.len());
}

#[test]
fn positions_without_both_kings_are_not_evaluated_by_the_net() {
    let pos: Position = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"
        .parse()
        .unwrap();
    assert_eq!(kp256().net.evaluate(&pos, 16), None);
}

// ---------------------------------------------------------------------------------------
// Malformed files

/// A folder of its own for one test, removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("hayate-nnue-test-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A net's header with another architecture: what a HalfKA_hm2 file starts with.
fn foreign_header() -> Vec<u8> {
    let s = "Features=HalfKA_hm2(Friend)[73305->1024x2],Network=AffineTransform[1<-32](...)";
    let mut b = Vec::new();
    b.extend(writer::VERSION.to_le_bytes());
    b.extend(0x3c10_3b32u32.to_le_bytes());
    b.extend((s.len() as u32).to_le_bytes());
    b.extend(s.as_bytes());
    b.extend([0u8; 4096]);
    b
}

/// A header of `shape`'s architecture string with `hash`, then `body` bytes of zeros.
fn header_of(shape: Shape, hash: u32, body: usize) -> Vec<u8> {
    let s = shape.structure();
    let mut b = Vec::new();
    b.extend(writer::VERSION.to_le_bytes());
    b.extend(hash.to_le_bytes());
    b.extend((s.len() as u32).to_le_bytes());
    b.extend(s.as_bytes());
    b.resize(b.len() + body, 0);
    b
}

/// (file name, contents, words the refusal must contain)
fn malformed_cases() -> Vec<(&'static str, Vec<u8>, &'static str)> {
    let good = &kp256().bytes;
    let mut wrong_version = good.clone();
    wrong_version[0] ^= 0x40;
    let mut extra = good.clone();
    extra.push(0);
    // The string of one shape with another hash: a damaged header.
    let mut wrong_hash = good.clone();
    wrong_hash[5] ^= 0x10;
    let odd = &kp352().bytes;
    let too_wide = Shape {
        half: 8192,
        ..writer::HALFKP_256
    };
    vec![
        (
            "hash.bin",
            wrong_hash,
            "the architecture string says kp_256x2-32-32, but the header's hash is",
        ),
        (
            "odd-truncated.bin",
            odd[..odd.len() - 1].to_vec(),
            "is truncated: 1225276 bytes, a kp_352x2-24-96 net has 1225277",
        ),
        (
            "too-wide.bin",
            header_of(too_wide, too_wide.hash(), 4096),
            "halfkp_8192x2-32-32, which has a feature transformer of 8192 per side",
        ),
        (
            "truncated.bin",
            good[..good.len() - 100].to_vec(),
            "truncated",
        ),
        ("header-only.bin", good[..40].to_vec(), "truncated"),
        ("oversized.bin", extra, "too long"),
        ("version.bin", wrong_version, "not a classic NNUE net"),
        ("foreign.bin", foreign_header(), "HalfKA_hm"),
        ("tiny.bin", vec![1, 2, 3], "too few"),
        ("empty.bin", vec![], "too few"),
        (
            "text.bin",
            b"this is not a net at all, just some text\n".repeat(10),
            "not a classic",
        ),
    ]
}

#[test]
fn malformed_files_are_refused_with_a_reason() {
    let tmp = TempDir::new("malformed");
    for (name, bytes, words) in malformed_cases() {
        let path = tmp.write(name, &bytes);
        let e = nnue::load(&path).expect_err(name).to_string();
        assert!(e.contains(words), "{name}: {e}");
    }
    let dir = tmp.path();
    let e = nnue::load(dir).unwrap_err().to_string();
    assert!(e.contains("directory"), "{e}");
    let e = nnue::load(std::path::Path::new("/dev/zero"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("special file"), "{e}");
    let e = nnue::load(&dir.join("no-such-file.bin"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot read"), "{e}");
    let good = tmp.write("good.bin", &kp256().bytes);
    let (net, _) = nnue::load(&good).expect("the good file loads");
    assert_eq!(net.arch().name(), "kp_256x2-32-32");
}

/// Trainers other than YaneuraOu's may word the architecture string their own way: a
/// common shape is still found by its hash, and any shape by a string that describes it.
#[test]
fn nets_are_found_by_their_string_or_a_common_shapes_hash() {
    let t = kp256();
    let len = u32::from_le_bytes(t.bytes[8..12].try_into().unwrap()) as usize;
    let body = &t.bytes[12 + len..];
    let with_string = |s: &str| {
        let mut b = t.bytes[..8].to_vec();
        b.extend((s.len() as u32).to_le_bytes());
        b.extend(s.as_bytes());
        b.extend(body);
        b
    };
    for s in [
        "",
        "kp256 from some trainer",
        "Features=K+P[1710->256x2],Network=?",
    ] {
        let (net, _) = Network::from_bytes(&with_string(s)).expect(s);
        assert_eq!(net.arch().name(), "kp_256x2-32-32");
    }
    // Not a common shape: its string is what names it.
    let odd = &kp352().bytes;
    let len = u32::from_le_bytes(odd[8..12].try_into().unwrap()) as usize;
    let mut renamed = odd[..8].to_vec();
    renamed.extend(4u32.to_le_bytes());
    renamed.extend(b"kp??");
    renamed.extend(&odd[12 + len..]);
    let e = Network::from_bytes(&renamed).unwrap_err().to_string();
    assert!(e.contains("hash 0x") && e.contains("kp??"), "{e}");
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let tmp = TempDir::new("fifo");
    let fifo = tmp.path().join("fifo.bin");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo unavailable; skipped");
        return;
    }
    let e = nnue::load(&fifo).unwrap_err().to_string();
    assert!(e.contains("special file"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Over USI

/// An engine past `usi`, with `EvalFile` set to `net` (not loaded before `isready`).
fn engine_with_net(net: &std::path::Path) -> EngineProcess {
    let mut e = EngineProcess::start("hayate");
    e.send("usi");
    e.expect_line(|l| l == "usiok", "usiok");
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    e
}

fn ready(e: &mut EngineProcess) -> Vec<String> {
    e.send("isready");
    e.expect_line(|l| l == "readyok", "readyok").1
}

/// The value on the `eval` command's last line.
fn eval_value(e: &mut EngineProcess, position: &str) -> i32 {
    e.send(&format!("position {position}"));
    e.send("eval");
    let (line, _) = e.expect_line(
        |l| l.starts_with("total for the side to move"),
        "eval total",
    );
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

/// Asserts that the engine evaluates the fourth start position as `net` does, or with
/// no net as the linear evaluation does.
fn assert_usi_eval(e: &mut EngineProcess, net: Option<&Network>) {
    let sfen = STARTS[3];
    let pos: Position = sfen.parse().unwrap();
    let expected = match net {
        Some(net) => net.evaluate(&pos, 16).unwrap(),
        None => hayate::eval::evaluate(&pos),
    };
    assert_eq!(eval_value(e, &format!("sfen {sfen}")), expected, "{sfen}");
}

/// The rows of a record of YaneuraOu's values (`tests/data/*.tsv`): a position, then
/// `columns` values; `#` lines are comments.
fn recorded_values(tsv: &str, columns: usize) -> Vec<(Position, Vec<i32>)> {
    tsv.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 1 + columns, "{line}");
            let pos: Position = fields[0].parse().expect("a recorded SFEN");
            let values = fields[1..]
                .iter()
                .map(|v| v.parse().expect("a recorded value"))
                .collect();
            (pos, values)
        })
        .collect()
}

/// After `isready`: one `info string EvalFile: ` line contains `loaded`, and every tenth
/// of the `recorded` positions evaluates to its value in `column`.
fn assert_loads_and_evaluates(
    e: &mut EngineProcess,
    loaded: &str,
    recorded: &[(Position, Vec<i32>)],
    column: usize,
) {
    let lines = ready(e);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string EvalFile: ") && l.contains(loaded)),
        "{lines:?}"
    );
    for (pos, values) in recorded.iter().step_by(10) {
        assert_eq!(
            eval_value(e, &format!("sfen {pos}")),
            values[column],
            "{pos}"
        );
    }
}

fn expect_bestmove(e: &mut EngineProcess) -> String {
    let (line, _) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
    line.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn usi_eval_with_a_net_equals_the_reference() {
    let t = kp256();
    let tmp = TempDir::new("usi-eval");
    let path = tmp.write("usi-kp.bin", &t.bytes);
    let mut e = EngineProcess::start("hayate");
    e.send("usi");
    let (_, options) = e.expect_line(|l| l == "usiok", "usiok");
    for name in ["EvalFile", "EvalDir", "FV_SCALE"] {
        assert!(
            options
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} "))),
            "{name} missing: {options:?}"
        );
    }
    e.send(&format!("setoption name EvalFile value {}", path.display()));
    let lines = ready(&mut e);
    assert!(
        lines.iter().any(|l| l.contains("loaded kp_256x2-32-32")),
        "{lines:?}"
    );
    let reference = t.reference();
    for pos in playout_positions(5, 4, 30).iter().step_by(7) {
        let sfen = pos.to_string();
        assert_eq!(
            eval_value(&mut e, &format!("sfen {sfen}")),
            reference.evaluate(&sfen, 16)
        );
    }
    e.send("setoption name FV_SCALE value 24");
    ready(&mut e);
    let sfen = STARTS[3];
    assert_eq!(
        eval_value(&mut e, &format!("sfen {sfen}")),
        reference.evaluate(sfen, 24)
    );

    // Back to the linear evaluation, then the same net through EvalDir/nn.bin.
    e.send("setoption name EvalFile value linear");
    ready(&mut e);
    let linear = eval_value(&mut e, &format!("sfen {sfen}"));
    assert_eq!(linear, hayate::eval::evaluate(&sfen.parse().unwrap()));
    // EvalDir's nn.bin applies while EvalFile is at its default, the built-in net (GUIs
    // that know YaneuraOu's convention set only the folder)...
    let dir = tmp.path().join("evaldir");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("nn.bin"), &t.bytes).unwrap();
    e.send(&format!("setoption name EvalDir value {}", dir.display()));
    ready(&mut e);
    assert_eq!(
        eval_value(&mut e, &format!("sfen {sfen}")),
        linear,
        "EvalFile=linear wins over the folder"
    );
    e.send("setoption name EvalFile value internal");
    ready(&mut e);
    assert_eq!(
        eval_value(&mut e, &format!("sfen {sfen}")),
        reference.evaluate(sfen, 24)
    );
    // ... and without a folder the default is the net built into the binary, loaded
    // without a word (as the built-in book is).
    e.send("setoption name EvalDir value <internal>");
    let lines = ready(&mut e);
    assert!(lines.is_empty(), "{lines:?}");
    let (builtin, _) = nnue::builtin::load().unwrap();
    let pos: Position = sfen.parse().unwrap();
    assert_eq!(
        eval_value(&mut e, &format!("sfen {sfen}")),
        builtin.evaluate(&pos, 24).unwrap()
    );
    e.quit();
}

/// The built-in net is the file `nets/README.md` names by its SHA-256 (taken there from
/// the `zstd` and `sha256sum` tools), and the engine starts with it until told otherwise.
#[test]
fn the_built_in_net_is_the_published_file() {
    use sha2::{Digest, Sha256};
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/nets/README.md"))
        .expect("nets/README.md");
    let published = readme
        .lines()
        .find_map(|l| l.strip_prefix("builtin sha256: "))
        .expect("a `builtin sha256:` line")
        .trim()
        .to_string();
    let bytes = nnue::builtin::bytes();
    let digest: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(digest, published);
    let (net, warnings) = Network::from_bytes(bytes).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(net.arch().name(), "halfkp_256x2-32-32");

    // Over USI: the default is the built-in net, `linear` the hand-made evaluation, and
    // `--evalfile internal` names the net for the tools too.
    let mut e = EngineProcess::start("hayate");
    e.send("usi");
    let (_, options) = e.expect_line(|l| l == "usiok", "usiok");
    assert!(
        options
            .iter()
            .any(|l| l == "option name EvalFile type filename default internal"),
        "{options:?}"
    );
    ready(&mut e);
    assert_usi_eval(&mut e, Some(&net));
    e.send("setoption name EvalFile value linear");
    ready(&mut e);
    assert_usi_eval(&mut e, None);
    e.quit();
    let pos: Position = STARTS[3].parse().unwrap();
    let (evaluator, _) = hayate::eval::Evaluator::named("internal", 16).unwrap();
    assert_eq!(evaluator.evaluate(&pos), net.evaluate(&pos, 16).unwrap());
}

#[test]
fn a_file_refused_at_the_first_isready_leaves_the_built_in_net() {
    // A GUI sends its EvalFile before the first `isready`: when that file cannot be read,
    // the engine keeps its default, the built-in net, not the linear evaluation that a
    // session has before anything is loaded.
    let tmp = TempDir::new("usi-first-refusal");
    let bad = tmp.write("not-a-net.bin", b"root:x:0:0:root:/root:/bin/bash\n");
    let (net, _) = Network::from_bytes(nnue::builtin::bytes()).unwrap();
    for path in [bad, tmp.path().join("missing.bin")] {
        let mut e = engine_with_net(&path);
        let lines = ready(&mut e);
        let refusals: Vec<&String> = lines.iter().filter(|l| l.contains("refused")).collect();
        assert_eq!(refusals.len(), 1, "{path:?}: {lines:?}");
        assert!(
            refusals[0].contains("the built-in net (internal) stays"),
            "{}",
            refusals[0]
        );
        assert_usi_eval(&mut e, Some(&net));
        // Asked for by name, the linear evaluation is what stays after a refusal.
        e.send("setoption name EvalFile value linear");
        ready(&mut e);
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = ready(&mut e);
        assert!(
            lines
                .iter()
                .any(|l| l.contains("the linear evaluation stays")),
            "{lines:?}"
        );
        assert_usi_eval(&mut e, None);
        e.quit();
    }
}

#[test]
fn malformed_files_over_usi_keep_the_engine_working() {
    let t = kp256();
    let tmp = TempDir::new("usi-malformed");
    let good = tmp.write("usi-good.bin", &t.bytes);
    let mut e = engine_with_net(&good);
    ready(&mut e);
    let sfen = STARTS[3];
    let before = eval_value(&mut e, &format!("sfen {sfen}"));
    let mut bad: Vec<(PathBuf, &str)> = malformed_cases()
        .into_iter()
        .map(|(name, bytes, words)| (tmp.write(name, &bytes), words))
        .collect();
    bad.push((tmp.path().to_path_buf(), "directory"));
    bad.push((PathBuf::from("/dev/zero"), "special file"));
    bad.push((tmp.path().join("missing.bin"), "cannot read"));
    let fifo = tmp.path().join("fifo");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        bad.push((fifo, "special file"));
    }
    for (path, words) in bad {
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let lines = ready(&mut e);
        let refusals: Vec<&String> = lines.iter().filter(|l| l.contains("refused")).collect();
        assert_eq!(refusals.len(), 1, "{path:?}: {lines:?}");
        assert!(refusals[0].starts_with("info string") && refusals[0].contains(words));
        assert!(
            refusals[0].contains("kp_256x2-32-32 stays"),
            "{}",
            refusals[0]
        );
        // The net loaded before still evaluates, and the engine still searches.
        assert_eq!(eval_value(&mut e, &format!("sfen {sfen}")), before);
        e.send("go depth 3");
        let mv = expect_bestmove(&mut e);
        let pos: Position = sfen.parse().unwrap();
        assert!(pos.parse_move(&mv).is_ok(), "illegal bestmove {mv}");
    }
    e.quit();
}

#[test]
fn a_game_over_usi_with_a_net() {
    let t = halfkp256();
    let tmp = TempDir::new("usi-game");
    let path = tmp.write("usi-halfkp.bin", &t.bytes);
    let mut e = engine_with_net(&path);
    e.send("setoption name USI_OwnBook value false");
    e.send("setoption name USI_Hash value 16");
    // Two threads share the one copy of the net.
    e.send("setoption name Threads value 2");
    let lines = ready(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("loaded halfkp_256x2-32-32")),
        "{lines:?}"
    );
    e.send("usinewgame");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..40 {
        if pos.legal_moves().is_empty() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go btime 0 wtime 0 byoyomi 100");
        let mv = expect_bestmove(&mut e);
        if mv == "resign" || mv == "win" {
            break;
        }
        let m = pos
            .parse_move(&mv)
            .unwrap_or_else(|err| panic!("illegal {mv}: {err} in {pos}"));
        pos.play(m);
        moves.push(mv);
    }
    assert!(moves.len() >= 20, "{moves:?}");
    e.send("gameover draw");
    e.quit();
}

/// Writes the test nets and their positions for checking against another engine:
/// `HAYATE_TEST_NET_DIR=dir cargo test --release --test nnue -- --ignored write_test_nets`
/// writes kp.bin, halfkp.bin, halfkp768.bin, kp352.bin, halfkpvm256.bin, kp32.bin and
/// positions.sfen (one `sfen ...` line each) there.
#[test]
#[ignore]
fn write_test_nets() {
    let dir = PathBuf::from(std::env::var("HAYATE_TEST_NET_DIR").expect("HAYATE_TEST_NET_DIR"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kp.bin"), &kp256().bytes).unwrap();
    std::fs::write(dir.join("halfkp.bin"), &halfkp256().bytes).unwrap();
    std::fs::write(dir.join("halfkp768.bin"), &halfkp768().bytes).unwrap();
    std::fs::write(dir.join("kp352.bin"), &kp352().bytes).unwrap();
    std::fs::write(dir.join("halfkpvm256.bin"), &halfkpvm256().bytes).unwrap();
    std::fs::write(dir.join("kp32.bin"), &kp32().bytes).unwrap();
    let text: String = yaneuraou_positions()
        .iter()
        .map(|p| format!("sfen {p}\n"))
        .collect();
    std::fs::write(dir.join("positions.sfen"), text).unwrap();
}

/// The positions whose YaneuraOu evaluations are recorded in tests/data.
fn yaneuraou_positions() -> Vec<Position> {
    playout_positions(0x9a0e, 30, 100)
        .into_iter()
        .step_by(10)
        .collect()
}

/// The evaluations YaneuraOu itself gave for the test nets (tests/data): the engine must
/// match them exactly.
#[test]
fn evaluations_equal_yaneuraous_recorded_values() {
    let text = include_str!("../data/nnue-yaneuraou.tsv");
    let positions = yaneuraou_positions();
    let mut rows = 0;
    for (line, pos) in text.lines().filter(|l| !l.starts_with('#')).zip(&positions) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            fields[0],
            pos.to_string(),
            "the recorded positions are these"
        );
        let want: Vec<i32> = fields[1..].iter().map(|v| v.parse().unwrap()).collect();
        let got = [
            kp256().net.evaluate(pos, 16),
            kp256().net.evaluate(pos, 24),
            halfkp256().net.evaluate(pos, 16),
            halfkp256().net.evaluate(pos, 24),
        ];
        assert_eq!(got.map(Option::unwrap).to_vec(), want, "{line}");
        rows += 1;
    }
    assert_eq!(rows, positions.len());
    assert!(rows > 250);
}

/// YaneuraOu's evaluations of the nets of other shapes (tests/data, made by builds of
/// YaneuraOu for each shape): the engine must match them exactly.
#[test]
fn other_shapes_equal_yaneuraous_recorded_values() {
    let text = include_str!("../data/nnue-yaneuraou-shapes.tsv");
    let positions = yaneuraou_positions();
    const SCALES: [i32; 2] = [16, 40];
    let nets = [halfkp768(), kp352(), halfkpvm256(), kp32()];
    // want[net][scale][row]
    let mut want = vec![vec![Vec::new(); SCALES.len()]; nets.len()];
    for (line, pos) in text.lines().filter(|l| !l.starts_with('#')).zip(&positions) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            fields[0],
            pos.to_string(),
            "the recorded positions are these"
        );
        assert_eq!(fields.len(), 1 + nets.len() * SCALES.len(), "{line}");
        for (n, t) in nets.iter().enumerate() {
            for (s, &fv) in SCALES.iter().enumerate() {
                let recorded: i32 = fields[1 + n * SCALES.len() + s].parse().unwrap();
                assert_eq!(t.net.evaluate(pos, fv), Some(recorded), "{line}");
                want[n][s].push(recorded);
            }
        }
    }
    assert_eq!(want[0][0].len(), positions.len());
    assert!(positions.len() > 250);

    // The same through the engine: `EvalFile` takes the nets, names their shapes, and
    // `eval` gives YaneuraOu's values.
    let tmp = TempDir::new("usi-shapes");
    let mut e = EngineProcess::start("hayate");
    e.send("usi");
    e.expect_line(|l| l == "usiok", "usiok");
    for (n, t) in nets.iter().enumerate() {
        let path = tmp.write(&format!("net{n}.bin"), &t.bytes);
        e.send(&format!("setoption name EvalFile value {}", path.display()));
        let name = t.net.arch().name();
        for (s, &fv) in SCALES.iter().enumerate() {
            e.send(&format!("setoption name FV_SCALE value {fv}"));
            let lines = ready(&mut e);
            assert!(
                s > 0 || lines.iter().any(|l| l.contains(&format!("loaded {name}"))),
                "{lines:?}"
            );
            for (pos, &w) in positions.iter().zip(&want[n][s]) {
                assert_eq!(eval_value(&mut e, &format!("sfen {pos}")), w, "{name} {fv}");
            }
        }
    }
    e.quit();
}
