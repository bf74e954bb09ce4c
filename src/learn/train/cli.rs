//! `hayate train`: the command line.

use super::{read_records, samples, split_by_game, train, Model, Sampling, Shape, TrainConfig};
use std::io::Write;
use std::path::Path;

/// `hayate train`: train an NNUE net (YaneuraOu's format) on gensfen data.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct TrainArgs {
    /// gensfen records (repeatable)
    #[arg(long, required = true)]
    data: Vec<String>,
    /// The net to write (rewritten after every epoch that improves the held-out loss)
    #[arg(long)]
    out: String,
    /// kp (kp_256x2-32-32), halfkp (halfkp_256x2-32-32), or a K+P or HalfKP net of other
    /// widths that the engine reads, e.g. halfkp_512x2-16-32 or halfkp_768x2-16-64
    #[arg(long, default_value = "kp", value_parser = parse_shape)]
    arch: Shape,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions a step
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Adam's learning rate
    #[arg(long, default_value_t = 1e-3, value_parser = parse_positive)]
    lr: f32,
    /// Weight of the search score against the game result in the target (1: the score only;
    /// `hayate tune` weighs the other way round)
    #[arg(long, default_value_t = 0.5, value_parser = parse_fraction)]
    lambda: f32,
    /// One game in this many is held out (0: none)
    #[arg(long, default_value_t = 20)]
    hold_out_every: usize,
    /// Threads (default: all cores)
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Seed of the initial weights and the order of the positions
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also train on each training position's mirror image (files swapped): twice the
    /// positions from the same data
    #[arg(long)]
    mirror: bool,
    /// Score every position with this evaluation's static score (`linear`, `internal` for
    /// the built-in net, or a net file) instead of the record's search score
    #[arg(long)]
    teacher: Option<String>,
    /// With --teacher: this many more positions a record, reached by a few random moves
    /// and scored by the teacher alone
    #[arg(long, default_value_t = 0, requires = "teacher")]
    walks: usize,
    /// With --teacher: the records keep their search scores; the teacher scores only the
    /// walks' positions
    #[arg(long, requires = "teacher")]
    keep_scores: bool,
    /// Train only on the records whose best move is quiet (no capture, no promotion): in
    /// the others the score holds material the position's static evaluation cannot see
    #[arg(long)]
    quiet: bool,
    /// Start from this net (of the --arch shape; `internal`: the built-in net, for
    /// --arch halfkp) instead of random weights
    #[arg(long)]
    init: Option<String>,
}

fn parse_shape(text: &str) -> Result<Shape, String> {
    Shape::parse(text).map_err(|e| e.to_string())
}

fn parse_positive(text: &str) -> Result<f32, String> {
    text.parse()
        .ok()
        .filter(|&x: &f32| x > 0.0)
        .ok_or_else(|| "expected a number above 0".into())
}

fn parse_fraction(text: &str) -> Result<f32, String> {
    text.parse()
        .ok()
        .filter(|x: &f32| (0.0..=1.0).contains(x))
        .ok_or_else(|| "expected a number from 0 to 1".into())
}

/// Runs `hayate train`; returns the exit code.
pub fn run_cli(args: TrainArgs) -> i32 {
    match run(args) {
        Ok(()) => 0,
        Err(e) => crate::cli::bad_input("train", e),
    }
}

/// Parses the arguments after `train` (as `hayate train` gets them; for tools that build
/// a training run from words).
pub fn parse(args: &[String]) -> Result<TrainArgs, String> {
    use clap::{Args as _, FromArgMatches as _};
    let command = TrainArgs::augment_args(clap::Command::new("train"));
    let matches = command
        .try_get_matches_from(std::iter::once("train".to_string()).chain(args.iter().cloned()))
        .map_err(|e| e.render().to_string())?;
    TrainArgs::from_arg_matches(&matches).map_err(|e| e.to_string())
}

/// Trains as the arguments say, writing the net and a line an epoch on stdout.
pub fn run(args: TrainArgs) -> Result<(), String> {
    let TrainArgs {
        data,
        out,
        arch: shape,
        hold_out_every: every,
        threads,
        mirror,
        teacher,
        init,
        walks,
        keep_scores,
        quiet,
        ..
    } = args;
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch as usize,
        lr: args.lr,
        lambda: args.lambda,
        seed: args.seed,
    };
    if threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    crate::attacks::init();
    // The nets named first: a wrong one is reported before minutes of reading data.
    let teacher = match &teacher {
        Some(name) => Some(
            crate::eval::Evaluator::named(name, crate::eval::nnue::DEFAULT_FV_SCALE)
                .map_err(|e| format!("--teacher {name}: {e}"))?
                .0,
        ),
        None => None,
    };
    let model = match &init {
        // Through the engine's loader: the same checks as any net file a user names
        // (`internal`: the built-in net).
        Some(name) => crate::eval::nnue::builtin::load_named(name)
            .map_err(|e| e.to_string())
            .and_then(|(net, _)| Model::import(shape, &net))
            .map_err(|e| format!("--init {name}: {e}"))?,
        None => Model::new(shape, config.seed),
    };
    let mut records = Vec::new();
    for d in &data {
        records.extend(read_records(Path::new(d)).map_err(|e| format!("{d}: {e}"))?);
    }
    let (train_records, held_records) = split_by_game(records, every);
    let started = std::time::Instant::now();
    let how = Sampling {
        mirror,
        teacher: teacher.as_ref(),
        walks,
        keep_scores,
        quiet,
    };
    let train_set = samples(shape, &train_records, how);
    // Held-out positions are the records as they are, scored as the training ones are.
    let held_set = samples(
        shape,
        &held_records,
        Sampling {
            mirror: false,
            walks: 0,
            ..how
        },
    );
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
    let training = train_set.len();
    let mut best = f64::INFINITY;
    let mut failed = None;
    train(
        model,
        train_set,
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
                training as f64 / secs.max(1e-9)
            );
        },
    );
    if let Some(e) = failed {
        return Err(e);
    }
    println!("{out}: the net of the best held-out loss ({best:.5})");
    Ok(())
}
