//! Mate solver speed on tsume problems of growing length.
//!
//! `cargo bench --bench mate`. The whole problem file (solved count, total time and nodes)
//! is `hayate mate --file tests/data/tsume.sfen`; these time the first proof of single
//! problems on a cleared table, without the search for shorter mates.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hayate::mate::{self, Limits, Table};
use hayate::Position;
use std::sync::atomic::AtomicBool;

/// (name, listed mate length, table MiB): problems picked from the test file by length,
/// with tables small enough that clearing them does not dominate the time.
const PICKS: [(&str, usize, usize); 4] = [
    ("mate3", 3, 1),
    ("mate7", 7, 1),
    ("mate11", 11, 4),
    ("mate31", 31, 64),
];

fn solve(c: &mut Criterion) {
    hayate::attacks::init();
    let file = include_str!("../tests/data/tsume.sfen");
    let stop = AtomicBool::new(false);
    let mut group = c.benchmark_group("mate");
    group.sample_size(10);
    for (name, plies, mib) in PICKS {
        let mut table = Table::new(mib);
        let sfen = file
            .lines()
            .filter(|l| !l.starts_with('#'))
            .find(|l| l.split('\t').nth(1) == Some(&plies.to_string()))
            .and_then(|l| l.split('\t').next())
            .expect("a problem of that length");
        let pos: Position = sfen.parse().expect("a valid problem");
        group.bench_function(name, |b| {
            b.iter(|| {
                table.clear();
                let limits = Limits::default();
                black_box(mate::solve(&pos, &mut table, limits, &stop, |_| {}))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
