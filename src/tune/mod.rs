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

use crate::cli::failed;
use crate::eval::params;
use crate::usi_client::EngineSpec;
use std::collections::HashSet;
use std::fs;
use std::time::Duration;

/// `hayate selfplay`: self-play games for tuning, written as positions with results.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct SelfplayArgs {
    /// Games to play
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes searched per move
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Seed of the games (the same seed plays the same games)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads_arg())]
    concurrency: u16,
    /// A game ends as a draw after this many plies
    #[arg(long, default_value_t = 320)]
    max_plies: u32,
    /// The file to write
    #[arg(long, default_value = "selfplay.tsv")]
    out: String,
}

/// Runs `hayate selfplay`; returns the exit code.
pub fn selfplay_cli(args: SelfplayArgs) -> i32 {
    let config = selfplay::SelfPlay {
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        concurrency: args.concurrency as usize,
        max_plies: args.max_plies,
    };
    let out = args.out;
    crate::attacks::init();
    crate::eval::init();
    let mut file = match fs::File::create(&out) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => return failed("selfplay", format!("cannot create {out}: {e}")),
    };
    match selfplay::run(&config, &mut file) {
        Ok(n) => {
            println!("{n} positions from {} games written to {out}", config.games);
            0
        }
        Err(e) => failed("selfplay", e),
    }
}

/// `hayate tune`: fit the evaluation weights to labelled positions.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct TuneArgs {
    /// Training positions (repeatable: one file a batch)
    #[arg(long, required_unless_present = "initial")]
    data: Vec<String>,
    /// Held-out positions; the epoch that predicts them best is kept (repeatable)
    #[arg(long = "validate")]
    validation: Vec<String>,
    /// The weights file to write
    #[arg(long, default_value = "weights.txt")]
    out: String,
    #[arg(long, default_value_t = 100)]
    epochs: usize,
    /// Learning rate (centipawns a step)
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
    /// L2 regularisation
    #[arg(long, default_value_t = 0.0)]
    reg: f64,
    /// Weight of the game result against the score in the target (0-1)
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// Weights of features seen in fewer positions stay as they are
    #[arg(long, default_value_t = 0)]
    min_positions: usize,
    /// Write the untuned starting weights instead
    #[arg(long)]
    initial: bool,
}

/// Runs `hayate tune`; returns the exit code.
pub fn tune_cli(args: TuneArgs) -> i32 {
    let TuneArgs {
        data,
        validation,
        out,
        initial,
        ..
    } = args;
    let tuning = tuner::Tuning {
        epochs: args.epochs,
        learning_rate: args.rate,
        regularisation: args.reg,
        lambda: args.lambda,
        min_positions: args.min_positions,
    };
    if initial {
        // The formula weights of `params::initial`, the tuner's usual starting point.
        return match fs::write(&out, params::format(&params::initial())) {
            Ok(()) => {
                println!("starting weights written to {out}");
                0
            }
            Err(e) => failed("tune", format!("cannot write {out}: {e}")),
        };
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
        return failed("tune", format!("cannot write {out}: {e}"));
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

/// `hayate label`: score self-play positions with a teacher engine, for `hayate tune`.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct LabelArgs {
    /// The teacher's command line
    #[arg(long)]
    engine: String,
    /// A USI option for the teacher, NAME=VALUE (repeatable)
    #[arg(long = "option", value_parser = parse_option)]
    options: Vec<(String, String)>,
    /// The positions (a `hayate selfplay` file)
    #[arg(long)]
    data: String,
    /// The labels, appended (an interrupted run goes on where it stopped)
    #[arg(long)]
    out: String,
    /// The go command sent for each position
    #[arg(long, default_value = "go btime 0 wtime 0 byoyomi 20000")]
    go: String,
    /// Positions labelled at once, one teacher each
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads_arg())]
    concurrency: u16,
    /// Label at most this many positions
    #[arg(long)]
    limit: Option<usize>,
    /// Seed of the order in which positions are labelled
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .ok_or_else(|| format!("expected NAME=VALUE, not '{text}'"))
}

/// Runs `hayate label`; returns the exit code.
pub fn label_cli(args: LabelArgs) -> i32 {
    let config = label::Labelling {
        engine: EngineSpec {
            name: "teacher".into(),
            command: args.engine.split_whitespace().map(String::from).collect(),
            options: args
                .options
                .into_iter()
                .map(|(n, v)| (n, Some(v)))
                .collect(),
            ..EngineSpec::default()
        },
        go: args.go,
        allowance: Duration::from_secs(60),
        concurrency: args.concurrency as usize,
        limit: args.limit.unwrap_or(usize::MAX),
        seed: args.seed,
    };
    if config.engine.command.is_empty() {
        return crate::cli::bad_input("label", "--engine: no command");
    }
    let (data, out) = (args.data, args.out);
    let Some(text) = read_text(&data, "label") else {
        return 1;
    };
    // An interrupted run goes on where it stopped.
    let done: HashSet<String> = crate::files::read_text(std::path::Path::new(&out))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split('\t').next().map(String::from))
        .collect();
    let mut file = match fs::OpenOptions::new().create(true).append(true).open(&out) {
        Ok(f) => f,
        Err(e) => return failed("label", format!("cannot open {out}: {e}")),
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
        Err(e) => failed("label", e),
    }
}

/// A data file's text, or `None` after telling why `hayate <command>` cannot read it.
fn read_text(file: &str, command: &str) -> Option<String> {
    crate::files::read_text(std::path::Path::new(file))
        .map_err(|e| failed(command, format!("cannot read {file}: {e}")))
        .ok()
}
