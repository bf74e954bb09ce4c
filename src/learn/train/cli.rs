//! `hayate train`: the command line.

use super::{read_records, samples, split_by_game, train, Shape, TrainConfig};
use std::io::Write;
use std::path::Path;

/// `hayate train ...`.
pub fn run_cli(args: &[String]) -> i32 {
    match cli(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("hayate train: {e}\n{USAGE}");
            2
        }
    }
}

pub const USAGE: &str = "usage: hayate train --data FILE [--data FILE ...] --out nn.bin \
[--arch kp|halfkp] [--epochs N] [--batch N] [--lr X] [--lambda X] [--hold-out-every N] \
[--threads N] [--seed S]";

fn cli(args: &[String]) -> Result<(), String> {
    let mut data = Vec::new();
    let mut out = None;
    let mut shape = Shape::Kp;
    let mut config = TrainConfig {
        epochs: 10,
        batch: 16384,
        lr: 1e-3,
        lambda: 0.5,
        seed: 1,
    };
    let mut every = 20;
    let mut threads = 0;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args.get(i + 1).ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("bad value '{value}' for {flag}");
        match flag {
            "--data" => data.push(value.clone()),
            "--out" => out = Some(value.clone()),
            "--arch" => {
                shape = match value.as_str() {
                    "kp" | "kp_256x2-32-32" => Shape::Kp,
                    "halfkp" | "halfkp_256x2-32-32" => Shape::HalfKp,
                    _ => return Err(bad()),
                }
            }
            "--epochs" => config.epochs = value.parse().map_err(|_| bad())?,
            "--batch" => config.batch = value.parse().ok().filter(|&b| b > 0).ok_or_else(bad)?,
            "--lr" => {
                config.lr = value
                    .parse()
                    .ok()
                    .filter(|&x: &f32| x > 0.0)
                    .ok_or_else(bad)?
            }
            "--lambda" => {
                config.lambda = value
                    .parse()
                    .ok()
                    .filter(|x: &f32| (0.0..=1.0).contains(x))
                    .ok_or_else(bad)?
            }
            "--hold-out-every" => every = value.parse().map_err(|_| bad())?,
            "--threads" => threads = value.parse().map_err(|_| bad())?,
            "--seed" => config.seed = value.parse().map_err(|_| bad())?,
            _ => return Err(format!("unknown argument '{flag}'")),
        }
        i += 2;
    }
    let out = out.ok_or("--out is required")?;
    if data.is_empty() {
        return Err("--data is required".into());
    }
    if threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    crate::attacks::init();
    let mut records = Vec::new();
    for d in &data {
        records.extend(read_records(Path::new(d)).map_err(|e| format!("{d}: {e}"))?);
    }
    let (train_records, held_records) = split_by_game(records, every);
    let started = std::time::Instant::now();
    let train_set = samples(shape, &train_records);
    let held_set = samples(shape, &held_records);
    eprintln!(
        "train: {} training and {} held-out positions ({} a game held out), read in {:.1} s",
        train_set.len(),
        held_set.len(),
        if every > 0 {
            format!("1 in {every}")
        } else {
            "none".into()
        },
        started.elapsed().as_secs_f64()
    );
    // The file always holds the best net so far by held-out loss (every epoch's net when
    // nothing is held out): a checkpoint that an interrupted run keeps, and the answer
    // to overfitting, which sets in after a few epochs on small data.
    let mut best = f64::INFINITY;
    let mut failed = None;
    train(
        shape,
        &train_set,
        &held_set,
        &config,
        |epoch, loss, held, secs, trainer| {
            let improved = held_set.is_empty() || held < best;
            let mut note = String::new();
            if improved {
                best = held;
                let bytes = trainer.model.export();
                match std::fs::File::create(&out).and_then(|mut f| f.write_all(&bytes)) {
                    Ok(()) => note = format!(", written to {out}"),
                    Err(e) => failed = Some(format!("{out}: {e}")),
                }
            }
            println!(
                "epoch {epoch}: training loss {loss:.5}, held-out loss {held:.5}, {secs:.1} s ({:.0} positions/s){note}",
                train_set.len() as f64 / secs.max(1e-9)
            );
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    println!("{out}: the net of the best held-out loss ({best:.5})");
    Ok(())
}
