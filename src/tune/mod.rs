//! Tuning the evaluation: `hayate selfplay` makes training data, `hayate tune` fits the
//! weights to it (see [`tuner`] for the method). To remake the shipped weights:
//!
//! ```text
//! hayate selfplay --games 2000 --nodes 4000 --seed 1 --concurrency 2 --out selfplay.tsv
//! hayate tune --data selfplay.tsv --out src/eval/weights.txt
//! ```

pub mod selfplay;
pub mod tuner;

use crate::eval::params;
use std::fs;

fn value<T: std::str::FromStr>(args: &[String], i: &mut usize, name: &str) -> Result<T, String> {
    *i += 1;
    args.get(*i)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| format!("{name} needs a valid value"))
}

/// `hayate selfplay --games N --nodes N --seed S --concurrency K --out FILE`.
pub fn selfplay_cli(args: &[String]) -> i32 {
    let mut config = selfplay::SelfPlay {
        games: 100,
        nodes: 4000,
        seed: 1,
        concurrency: 1,
        max_plies: 320,
    };
    let mut out = String::from("selfplay.tsv");
    let mut i = 0;
    while i < args.len() {
        let r = match args[i].as_str() {
            "--games" => value(args, &mut i, "--games").map(|v| config.games = v),
            "--nodes" => value(args, &mut i, "--nodes").map(|v| config.nodes = v),
            "--seed" => value(args, &mut i, "--seed").map(|v| config.seed = v),
            "--concurrency" => value(args, &mut i, "--concurrency").map(|v| config.concurrency = v),
            "--max-plies" => value(args, &mut i, "--max-plies").map(|v| config.max_plies = v),
            "--out" => value(args, &mut i, "--out").map(|v| out = v),
            other => Err(format!("unexpected argument '{other}'")),
        };
        if let Err(e) = r {
            eprintln!("hayate selfplay: {e}");
            return 2;
        }
        i += 1;
    }
    crate::attacks::init();
    crate::eval::init();
    let mut file = match fs::File::create(&out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("hayate selfplay: cannot create {out}: {e}");
            return 1;
        }
    };
    match selfplay::run(&config, &mut file) {
        Ok(n) => {
            println!("{n} positions from {} games written to {out}", config.games);
            0
        }
        Err(e) => {
            eprintln!("hayate selfplay: {e}");
            1
        }
    }
}

/// `hayate tune --data FILE [--out FILE] [--epochs N] [--rate R] [--reg L] [--lambda X]`, or
/// `hayate tune --initial --out FILE` for the untuned starting weights.
pub fn tune_cli(args: &[String]) -> i32 {
    let mut data = None;
    let mut out = String::from("weights.txt");
    let mut tuning = tuner::Tuning {
        epochs: 300,
        learning_rate: 2.0,
        regularisation: 1e-6,
        lambda: 0.5,
    };
    let mut initial = false;
    let mut i = 0;
    while i < args.len() {
        let r = match args[i].as_str() {
            "--data" => value(args, &mut i, "--data").map(|v: String| data = Some(v)),
            "--out" => value(args, &mut i, "--out").map(|v| out = v),
            "--epochs" => value(args, &mut i, "--epochs").map(|v| tuning.epochs = v),
            "--rate" => value(args, &mut i, "--rate").map(|v| tuning.learning_rate = v),
            "--reg" => value(args, &mut i, "--reg").map(|v| tuning.regularisation = v),
            "--lambda" => value(args, &mut i, "--lambda").map(|v| tuning.lambda = v),
            "--initial" => {
                initial = true;
                Ok(())
            }
            other => Err(format!("unexpected argument '{other}'")),
        };
        if let Err(e) = r {
            eprintln!("hayate tune: {e}");
            return 2;
        }
        i += 1;
    }
    if initial {
        // The formula weights of `params::initial`, the tuner's usual starting point.
        return match fs::write(&out, params::format(&params::initial())) {
            Ok(()) => {
                println!("starting weights written to {out}");
                0
            }
            Err(e) => {
                eprintln!("hayate tune: cannot write {out}: {e}");
                1
            }
        };
    }
    let Some(data) = data else {
        eprintln!("hayate tune: --data FILE is required");
        return 2;
    };
    let text = match fs::read_to_string(&data) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hayate tune: cannot read {data}: {e}");
            return 1;
        }
    };
    crate::attacks::init();
    let (mut samples, bad) = tuner::load(&text);
    if bad > 0 {
        eprintln!("hayate tune: skipped {bad} malformed lines");
    }
    let start = crate::eval::weights().to_vec();
    let (weights, _) = tuner::fit(&mut samples, &start, &tuning, |l| println!("{l}"));
    if let Err(e) = fs::write(&out, params::format(&weights)) {
        eprintln!("hayate tune: cannot write {out}: {e}");
        return 1;
    }
    println!("weights written to {out}");
    0
}
