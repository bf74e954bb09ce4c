//! Search and evaluation speed on fixed positions.
//!
//! `cargo bench --bench search`. The node count and nodes/second over the whole bench set
//! come from `hayate bench`; these measure a fixed-depth search of single positions and
//! the static evaluation.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use hayate::bench::POSITIONS;
use hayate::position::PositionCommand;
use hayate::search::{Event, Reporter, Settings};
use hayate::threads::ThreadPool;
use std::sync::Arc;

fn search(c: &mut Criterion) {
    hayate::attacks::init();
    hayate::eval::init();
    let mut pool = ThreadPool::new(1, 16).unwrap();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, line, depth) in [
        ("startpos", POSITIONS[0], 9),
        ("middlegame", POSITIONS[4], 8),
    ] {
        let pos = PositionCommand::strict_position(line).unwrap();
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter(|| {
                pool.clear();
                let reporter: Reporter = Arc::new(|e: Event| {
                    black_box(e);
                });
                let settings = Settings::fixed_depth(depth);
                pool.start(pos.clone(), settings, reporter);
                pool.wait();
            })
        });
    }
    group.finish();
}

fn evaluation(c: &mut Criterion) {
    hayate::attacks::init();
    hayate::eval::init();
    for (name, line) in [("startpos", POSITIONS[0]), ("matsuri", POSITIONS[5])] {
        let pos = PositionCommand::strict_position(line).unwrap();
        c.bench_function(&format!("evaluate/{name}"), |b| {
            b.iter(|| hayate::eval::evaluate(black_box(&pos)))
        });
    }
}

criterion_group!(benches, search, evaluation);
criterion_main!(benches);
