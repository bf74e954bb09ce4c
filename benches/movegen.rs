//! Move generation, make/unmake and perft speed.
//!
//! `cargo bench --bench movegen`. The big perft figures (startpos 6, matsuri 4) are
//! measured with the `perft` command, which prints nodes and nodes/second.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hayate::perft::{perft, LeafMode};
use hayate::Position;

const POSITIONS: [(&str, &str); 3] = [
    (
        "startpos",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "matsuri",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    ),
    (
        "maxmoves",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    ),
];

fn movegen(c: &mut Criterion) {
    hayate::attacks::init();
    for (name, sfen) in POSITIONS {
        let pos: Position = sfen.parse().unwrap();
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
        c.bench_function(&format!("count_legal/{name}"), |b| {
            b.iter(|| black_box(&pos).count_legal())
        });
    }
}

fn make_unmake(c: &mut Criterion) {
    hayate::attacks::init();
    for (name, sfen) in POSITIONS {
        let mut pos: Position = sfen.parse().unwrap();
        let moves = pos.legal_moves();
        c.bench_function(&format!("make_unmake_all/{name}"), |b| {
            b.iter(|| {
                for &mv in &moves {
                    pos.play_unchecked(mv);
                    pos.undo();
                }
            })
        });
    }
}

fn perft_bench(c: &mut Criterion) {
    hayate::attacks::init();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let mut start = Position::startpos();
    group.bench_function("startpos_4_bulk", |b| {
        b.iter(|| perft(&mut start, 4, LeafMode::Bulk))
    });
    group.bench_function("startpos_3_full", |b| {
        b.iter(|| perft(&mut start, 3, LeafMode::Full))
    });
    let mut matsuri: Position = POSITIONS[1].1.parse().unwrap();
    group.bench_function("matsuri_2_bulk", |b| {
        b.iter(|| perft(&mut matsuri, 2, LeafMode::Bulk))
    });
    group.finish();
}

criterion_group!(benches, movegen, make_unmake, perft_bench);
criterion_main!(benches);
