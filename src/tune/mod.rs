//! Tuning the evaluation: `hayate selfplay` makes training data, `hayate tune` fits the
//! weights to it (see [`tuner`] for the method). To remake the shipped weights:
//!
//! ```text
//! hayate selfplay --games 2000 --nodes 4000 --seed 1 --concurrency 2 --out selfplay.tsv
//! hayate tune --data selfplay.tsv --out src/eval/weights.txt
//! ```

pub mod label;
pub mod selfplay;
pub mod tuner;

use crate::eval::params;
use crate::matches::engine::EngineSpec;
use std::collections::HashSet;
use std::fs;
use std::time::Duration;

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

/// `hayate tune --data FILE... [--validate FILE...] [--out FILE] [--epochs N] [--rate R] [--reg L]
/// [--lambda X]`, or
/// `hayate tune --initial --out FILE` for the untuned starting weights.
pub fn tune_cli(args: &[String]) -> i32 {
    // Both repeat: the labelled data comes in batches, one file each.
    let mut data: Vec<String> = Vec::new();
    let mut validation: Vec<String> = Vec::new();
    let mut out = String::from("weights.txt");
    let mut tuning = tuner::Tuning {
        epochs: 100,
        learning_rate: 20.0,
        regularisation: 0.0,
        lambda: 0.5,
        min_positions: 0,
    };
    let mut initial = false;
    let mut i = 0;
    while i < args.len() {
        let r = match args[i].as_str() {
            "--data" => value(args, &mut i, "--data").map(|v: String| data.push(v)),
            "--out" => value(args, &mut i, "--out").map(|v| out = v),
            "--validate" => value(args, &mut i, "--validate").map(|v: String| validation.push(v)),
            "--epochs" => value(args, &mut i, "--epochs").map(|v| tuning.epochs = v),
            "--rate" => value(args, &mut i, "--rate").map(|v| tuning.learning_rate = v),
            "--reg" => value(args, &mut i, "--reg").map(|v| tuning.regularisation = v),
            "--lambda" => value(args, &mut i, "--lambda").map(|v| tuning.lambda = v),
            "--min-positions" => {
                value(args, &mut i, "--min-positions").map(|v| tuning.min_positions = v)
            }
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
    if data.is_empty() {
        eprintln!("hayate tune: --data FILE is required");
        return 2;
    }
    crate::attacks::init();
    let mut samples = Vec::new();
    let mut held_out = Vec::new();
    for (files, into) in [(&data, &mut samples), (&validation, &mut held_out)] {
        for file in files {
            let Some(s) = load_samples(file) else {
                return 1;
            };
            into.extend(s);
        }
    }
    let start = crate::eval::weights().to_vec();
    let (weights, _) = tuner::fit(&mut samples, &mut held_out, &start, &tuning, |l| {
        println!("{l}")
    });
    if let Err(e) = fs::write(&out, params::format(&weights)) {
        eprintln!("hayate tune: cannot write {out}: {e}");
        return 1;
    }
    println!("weights written to {out}");
    0
}

/// Reads a data file of `hayate selfplay` into samples, saying what went wrong if it
/// cannot.
fn load_samples(file: &str) -> Option<Vec<tuner::Sample>> {
    let text = read_text(file, "tune")?;
    let (samples, bad) = tuner::load(&text);
    if bad > 0 {
        eprintln!("hayate tune: skipped {bad} malformed lines in {file}");
    }
    Some(samples)
}

/// `hayate label --engine CMD [--option NAME=VALUE]... --data FILE --out FILE [--go CMD]
/// [--concurrency K] [--limit N] [--seed S]`: the teacher's score for each position.
pub fn label_cli(args: &[String]) -> i32 {
    let mut config = label::Labelling {
        engine: EngineSpec {
            name: "teacher".into(),
            ..EngineSpec::default()
        },
        go: "go btime 0 wtime 0 byoyomi 20000".into(),
        allowance: Duration::from_secs(60),
        concurrency: 1,
        limit: usize::MAX,
        seed: 1,
    };
    let (mut data, mut out) = (None, None);
    let mut i = 0;
    while i < args.len() {
        let r = match args[i].as_str() {
            "--engine" => value(args, &mut i, "--engine").map(|v: String| {
                config.engine.command = v.split_whitespace().map(String::from).collect()
            }),
            "--option" => value(args, &mut i, "--option").and_then(|v: String| {
                let (name, val) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--option needs NAME=VALUE, not '{v}'"))?;
                config.engine.options.push((name.into(), Some(val.into())));
                Ok(())
            }),
            "--data" => value(args, &mut i, "--data").map(|v: String| data = Some(v)),
            "--out" => value(args, &mut i, "--out").map(|v: String| out = Some(v)),
            "--go" => value(args, &mut i, "--go").map(|v| config.go = v),
            "--concurrency" => value(args, &mut i, "--concurrency").map(|v| config.concurrency = v),
            "--limit" => value(args, &mut i, "--limit").map(|v| config.limit = v),
            "--seed" => value(args, &mut i, "--seed").map(|v| config.seed = v),
            other => Err(format!("unexpected argument '{other}'")),
        };
        if let Err(e) = r {
            eprintln!("hayate label: {e}");
            return 2;
        }
        i += 1;
    }
    let (Some(data), Some(out), false) = (data, out, config.engine.command.is_empty()) else {
        eprintln!("hayate label: --engine, --data and --out are required");
        return 2;
    };
    let Some(text) = read_text(&data, "label") else {
        return 1;
    };
    // An interrupted run goes on where it stopped.
    let done: HashSet<String> = fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split('\t').next().map(String::from))
        .collect();
    let mut file = match fs::OpenOptions::new().create(true).append(true).open(&out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("hayate label: cannot open {out}: {e}");
            return 1;
        }
    };
    let progress = |n: usize, total: usize| {
        if n.is_multiple_of(1000) || n == total {
            println!("{n} of {total} positions labelled");
        }
    };
    match label::run(&config, &text, &done, &mut file, progress) {
        Ok(n) => {
            println!("{n} positions labelled into {out}");
            0
        }
        Err(e) => {
            eprintln!("hayate label: {e}");
            1
        }
    }
}

/// A data file's text, or `None` after telling why `hayate <command>` cannot read it.
fn read_text(file: &str, command: &str) -> Option<String> {
    fs::read_to_string(file)
        .map_err(|e| eprintln!("hayate {command}: cannot read {file}: {e}"))
        .ok()
}
