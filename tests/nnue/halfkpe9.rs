//! HalfKPE9 nets (YaneuraOu's `YANEURAOU_ENGINE_NNUE_HALFKPE9` edition,
//! `halfkpe9_256x2-32-32`): a random net with wide weights, made from a seed here, against
//! the evaluations YaneuraOu's HalfKPE9 build gave for it (tests/data); the same through
//! `EvalFile` and `eval`, and along search-like lines.

use super::writer::{self, Rng};
use super::{
    engine_with_net, eval_value, ready, walk_incrementally_with, TempDir, TestNet, WalkTally,
    STARTS,
};
use hayate::eval::nnue::effects::Effects;
use hayate::eval::nnue::{AccumulatorStack, Dirty};
use hayate::position::PositionCommand;
use hayate::types::{Color, Square};
use hayate::Position;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The seed of the test net (578 MB; made at test time, never committed).
const SEED: u64 = 0x5eed_00e9;

fn halfkpe9() -> &'static TestNet {
    static NET: OnceLock<TestNet> = OnceLock::new();
    NET.get_or_init(|| TestNet::new(writer::HALFKPE9_256, SEED))
}

/// The recorded rows: position, then YaneuraOu's evaluation at FV_SCALE 16 and 40.
const SCALES: [i32; 2] = [16, 40];

fn recorded() -> Vec<(Position, [i32; 2])> {
    include_str!("../data/nnue-yaneuraou-halfkpe9.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 1 + SCALES.len(), "{line}");
            let pos: Position = fields[0].parse().expect("a recorded SFEN");
            let value = |i: usize| fields[1 + i].parse::<i32>().expect("a recorded value");
            (pos, [value(0), value(1)])
        })
        .collect()
}

#[test]
fn halfkpe9_evaluations_equal_yaneuraous_recorded_values() {
    let t = halfkpe9();
    assert_eq!(t.net.arch().name(), "halfkpe9_256x2-32-32");
    let rows = recorded();
    assert!(rows.len() >= 500, "{} rows", rows.len());
    let mut distinct = std::collections::HashSet::new();
    let mut with_hands = 0;
    for (pos, want) in &rows {
        for (s, &fv) in SCALES.iter().enumerate() {
            assert_eq!(
                t.net.evaluate(pos, fv),
                Some(want[s]),
                "FV_SCALE {fv}: {pos}"
            );
        }
        distinct.insert(want[0]);
        with_hands += usize::from(pos.to_string().split(' ').nth(2) != Some("-"));
    }
    // The values spread (the net is not one that answers the same everywhere), and many
    // positions have pieces in hand.
    assert!(
        distinct.len() > rows.len() / 2,
        "{} distinct",
        distinct.len()
    );
    assert!(with_hands > rows.len() / 4, "{with_hands} with hands");
}

/// The search's accumulators along random search-like lines (moves, null moves,
/// take-backs; an evaluation at a third of the nodes, so that many parents have no
/// accumulator) equal a count from nothing; the attack counts at every node equal an
/// attacker search per square and side.
/// The lines go through captures, drops, promotions and king moves.
#[test]
fn halfkpe9_accumulators_along_lines_equal_a_full_count() {
    let net = &halfkpe9().net;
    let mut total = WalkTally::default();
    for (i, start) in STARTS.iter().enumerate() {
        let tally = walk_incrementally_with(net, start, 0xe9 + i as u64, 600, |pos| {
            let effects = Effects::of(pos);
            let occupied = pos.occupied();
            for sq in Square::all() {
                for side in Color::ALL {
                    let n = pos.attackers_to(side, sq, occupied).count().min(2);
                    assert_eq!(effects.count(side, sq), n, "{side:?} on {sq:?}: {pos}");
                }
            }
        });
        total.add(&tally);
    }
    for (what, n) in [
        ("captures", total.captures),
        ("drops", total.drops),
        ("promotions", total.promotions),
        ("king moves", total.king_moves),
        ("null moves", total.null_moves),
        ("take-backs", total.take_backs),
        ("evaluations", total.evaluations),
    ] {
        assert!(n >= 10, "{n} {what}: {total:?}");
    }
}

/// Every ply evaluated through the stack as the search goes down a random line and back
/// (so each accumulator is its parent's plus the features that differ, or a recount
/// after the side's own king moved), against a count from nothing.
#[test]
fn halfkpe9_updates_from_the_parent_equal_a_full_count() {
    let net = &halfkpe9().net;
    const PLIES: usize = 40;
    for (i, start) in STARTS.iter().enumerate() {
        let mut rng = Rng(0xe9e9 + i as u64);
        let mut pos: Position = start.parse().unwrap();
        let mut stack = AccumulatorStack::new();
        stack.reset(net, PLIES + 1);
        let mut ply = 0;
        assert_eq!(
            Some(stack.evaluate(net, &mut pos, 0, 16)),
            net.evaluate(&pos, 16)
        );
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if ply > 0 && (ply == PLIES || moves.is_empty() || rng.next().is_multiple_of(4)) {
                pos.undo();
                ply -= 1;
            } else if !moves.is_empty() {
                let mv = moves[(rng.next() % moves.len() as u64) as usize];
                stack.push(ply + 1, Dirty::of_move(&pos, mv));
                pos.play_unchecked(mv);
                ply += 1;
            }
            let got = stack.evaluate(net, &mut pos, ply, 16);
            assert_eq!(Some(got), net.evaluate(&pos, 16), "ply {ply}: {pos}");
        }
    }
}

/// `EvalFile` loads the net, names its shape at `isready`, and `eval` gives YaneuraOu's
/// values.
#[test]
fn halfkpe9_nets_over_usi() {
    let tmp = TempDir::new("halfkpe9-usi");
    let path = tmp.write("e9.bin", &halfkpe9().bytes);
    let mut e = engine_with_net(&path);
    let lines = ready(&mut e);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("halfkpe9_256x2-32-32")),
        "{lines:?}"
    );
    for (pos, want) in recorded().iter().step_by(25) {
        assert_eq!(eval_value(&mut e, &format!("sfen {pos}")), want[0], "{pos}");
    }
    e.quit();
    // `hayate netinfo` names the shape, and the hashes YaneuraOu's header generator gives
    // it: HalfKP's (HalfKPE9 shares its feature hash), by the test writer.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hayate"))
        .arg("netinfo")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report = String::from_utf8(out.stdout).unwrap();
    let shape = writer::HALFKPE9_256;
    for want in [
        "shape: halfkpe9_256x2-32-32: features HalfKPE9(Friend) (1128492 inputs)".to_string(),
        format!("file hash: {:#010x} (matches the shape)", shape.hash()),
        format!(
            "feature transformer hash: {:#010x} (matches the shape)",
            shape.transformer_hash()
        ),
        format!(
            "network hash: {:#010x} (matches the shape)",
            shape.network_hash()
        ),
    ] {
        assert!(report.contains(&want), "{want} in {report}");
    }
}

/// Writes the HalfKPE9 test net and the positions to record YaneuraOu's values on:
/// `HAYATE_TEST_NET_DIR=dir HAYATE_OPENINGS=openings.sfen cargo test --release --test nnue
/// -- --ignored write_halfkpe9_net` writes halfkpe9.bin and e9-positions.sfen: the end of
/// each opening line (`startpos moves ...`), random playouts from some of them (captures
/// fill the hands), and the playout positions of the other nets' records.
#[test]
#[ignore]
fn write_halfkpe9_net() {
    let dir = PathBuf::from(std::env::var("HAYATE_TEST_NET_DIR").expect("HAYATE_TEST_NET_DIR"));
    let openings = std::env::var("HAYATE_OPENINGS").expect("HAYATE_OPENINGS");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("halfkpe9.bin"), &halfkpe9().bytes).unwrap();
    let mut positions = Vec::new();
    let mut rng = Rng(SEED);
    for (i, line) in std::fs::read_to_string(openings)
        .unwrap()
        .lines()
        .enumerate()
    {
        let Ok(mut pos) = PositionCommand::from_argument(line) else {
            continue;
        };
        positions.push(pos.clone());
        if i % 2 == 0 {
            for ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
                if ply % 30 == 29 {
                    positions.push(pos.clone());
                }
            }
        }
    }
    positions.extend(super::yaneuraou_positions());
    let text: String = positions.iter().map(|p| format!("sfen {p}\n")).collect();
    std::fs::write(dir.join("e9-positions.sfen"), text).unwrap();
}
