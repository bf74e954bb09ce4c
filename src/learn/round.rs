//! `hayate round`: one reinforcement round of the built-in net, in one folder, resumable
//! after a kill at any step:
//!
//! 1. data: the built-in net's own games (`gensfen`) for a given number of hours, from
//!    the first half of the openings;
//! 2. training: the built-in net trained on that data (and on earlier rounds' data);
//! 3. the gate: the new net against the built-in one, the same engine on both sides,
//!    node-limited (two nets of one shape search at one speed, so a busy machine does
//!    not bias it), from the other half of the openings, until the SPRT decides;
//! 4. when the gate passes and `--install` names a checkout, the new net written as its
//!    `nets/builtin.nnue.zst`, with the `builtin sha256:` line of `nets/README.md`.
//!
//! The folder's `round.json` keeps the settings and how far the round got: run the same
//! command again (or just `hayate round --dir DIR`) and it goes on.

use super::gensfen::{self, GenConfig, GenLimit};
use super::packed::RECORD_BYTES;
use super::train;
use crate::eval::Evaluator;
use crate::matches::{self, opening::Opening, stats::SprtDecision};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Nodes a position in the round's games: the budget of every round so far.
const DATA_NODES: u64 = 5000;
/// Training: one epoch at a small learning rate, from the built-in net, on the quiet
/// records (mirrored), the score weighted 0.8 against the result: the recipe of the
/// rounds that gained (docs/training.md).
const EPOCHS: usize = 1;
const LEARNING_RATE: f32 = 0.0003;
const LAMBDA: f32 = 0.8;
/// The gate: nodes a move, games at most, and the SPRT's hypotheses (Elo).
const GATE_NODES: u64 = 20_000;
const GATE_GAMES: usize = 400;
const GATE_ELO0: f64 = 0.0;
const GATE_ELO1: f64 = 25.0;
/// A game past this score (centipawns) or this many plies is adjudicated.
const GATE_RESIGN_SCORE: i32 = 3000;
const GATE_MAX_MOVES: u32 = 320;
/// How long a gate's engine may take to answer `readyok` (ms): loading a 64 MB net on a
/// machine busy with other work took longer than the match runner's 10 s, and round 7's
/// gate lost ten games to that before a move was played.
const GATE_READY_TIMEOUT_MS: u64 = 120_000;
/// How long a gate's engine may take over one 20,000-node move (ms). The gate runs niced
/// beside other work, where such a move can wait long for a core: round 10's gate lost a
/// game after 60 s (the runner's default) while a match at normal priority started beside
/// it, and a single fault voids a gate of hundreds of games. A hung engine is still
/// caught, after ten minutes.
const GATE_MOVE_TIMEOUT_MS: u64 = 600_000;
/// Generation time is saved in `round.json` this often, so a kill loses little of it.
const SAVE_EVERY: Duration = Duration::from_secs(30);

/// `hayate round`: self-play data with the built-in net, training from it, and a gating
/// match; resumes where it stopped.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct RoundArgs {
    /// The round's folder: its data, net, gate records and progress (round.json)
    #[arg(long)]
    dir: PathBuf,
    /// Hours of data generation in all [default: 1] (a resumed round counts the time
    /// already spent; a larger number extends it)
    #[arg(long, value_parser = parse_hours)]
    hours: Option<f64>,
    /// Games played at once (data and gate), and training threads
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads_arg())]
    concurrency: u16,
    /// Nodes a position in the data's games [default: 5000]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    nodes: Option<u64>,
    /// The data's seed [default: 1]: rounds with other seeds play other games
    #[arg(long)]
    seed: Option<u64>,
    /// Earlier rounds' data to train on as well (repeatable)
    #[arg(long, value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Training epochs [default: 1]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    epochs: Option<u32>,
    /// Training's learning rate [default: 0.0003]
    #[arg(long)]
    lr: Option<f32>,
    /// Training's weight of the score against the result [default: 0.8]
    #[arg(long)]
    lambda: Option<f32>,
    /// Nodes a move in the gate [default: 20000]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    gate_nodes: Option<u64>,
    /// Gate games at most, when the SPRT has not decided [default: 400], and no more than
    /// twice the gate's openings (more would repeat games); a resumed round given more
    /// grows an undecided gate
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    gate_games: Option<u32>,
    /// Openings, one `position` line each: the first half for the data, the other half
    /// for the gate [default: the built-in balanced set]
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// When the gate passes, write the net into this checkout's nets/builtin.nnue.zst and
    /// its sha256 line into nets/README.md
    #[arg(long, value_name = "CHECKOUT")]
    install: Option<PathBuf>,
}

fn parse_hours(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|h| h.is_finite() && *h >= 0.0 && *h <= 10_000.0)
        .ok_or_else(|| "expected hours from 0 to 10000".into())
}

/// What decides the round's files: fixed when the round starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Settings {
    nodes: u64,
    seed: u64,
    data: Vec<PathBuf>,
    epochs: u32,
    lr: f32,
    lambda: f32,
    gate_nodes: u64,
    gate_games: u32,
    /// The opening lines, in the order given.
    openings: Vec<String>,
}

/// The gate's outcome, for the new net.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gate {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// Elo and its 95% interval, when both ends are finite.
    pub elo: Option<(f64, f64, f64)>,
    /// "H1", "H0" or none.
    pub sprt: Option<String>,
    pub passed: bool,
}

impl Gate {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.losses, self.draws)?;
        if let Some((elo, lower, upper)) = self.elo {
            write!(f, ", {elo:+.1} Elo (95% {lower:+.1} .. {upper:+.1})")?;
        }
        match &self.sprt {
            Some(d) => write!(f, ", SPRT({GATE_ELO0},{GATE_ELO1}) {d}")?,
            None => write!(f, ", no SPRT decision")?,
        }
        f.write_str(if self.passed {
            ": passed"
        } else {
            ": not passed"
        })
    }
}

/// `round.json`: the settings and how far the round got.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Progress {
    settings: Settings,
    /// Hours of generation asked for.
    hours: f64,
    /// Seconds of generation done.
    generated_secs: f64,
    trained: bool,
    gate: Option<Gate>,
    installed: bool,
}

/// Why a round cannot go on.
#[derive(Debug)]
pub enum RoundError {
    /// A flag given again that differs from what the round started with.
    Changed {
        name: &'static str,
        started: String,
        given: String,
    },
    Io(PathBuf, std::io::Error),
    /// round.json is not a round's progress.
    Corrupt(PathBuf, String),
    /// A step failed (its own message).
    Step(&'static str, String),
    /// An earlier round's data file (`--data`) that is missing or not whole records.
    Data(PathBuf, String),
}

impl fmt::Display for RoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundError::Changed {
                name,
                started,
                given,
            } => write!(
                f,
                "this round started with --{name} {started}, not {given}; give the same value, \
                 leave it out, or start another --dir"
            ),
            RoundError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            RoundError::Corrupt(path, e) => {
                write!(f, "{} is not a round's progress: {e}", path.display())
            }
            RoundError::Step(step, e) => write!(f, "{step}: {e}"),
            RoundError::Data(path, e) => write!(f, "--data {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for RoundError {}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> RoundError + '_ {
    move |e| RoundError::Io(path.to_path_buf(), e)
}

/// The round's files.
struct Files {
    progress: PathBuf,
    data: PathBuf,
    net: PathBuf,
    gate: PathBuf,
    data_openings: PathBuf,
    gate_openings: PathBuf,
}

impl Files {
    fn in_dir(dir: &Path) -> Files {
        Files {
            progress: dir.join("round.json"),
            data: dir.join("data.bin"),
            net: dir.join("net.bin"),
            gate: dir.join("gate"),
            data_openings: dir.join("openings-data.sfen"),
            gate_openings: dir.join("openings-gate.sfen"),
        }
    }
}

/// Writes `bytes` to `path` whole or not at all (see [`crate::files::replace`]).
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), RoundError> {
    crate::files::replace(path, bytes).map_err(io(path))
}

impl Progress {
    fn save(&self, path: &Path) -> Result<(), RoundError> {
        let text = serde_json::to_string_pretty(self).expect("progress serializes");
        write_whole(path, text.as_bytes())
    }

    /// The progress of the round in `path`, or a new one from the arguments; a resumed
    /// round refuses arguments that would change its files.
    fn open(path: &Path, args: &RoundArgs) -> Result<Progress, RoundError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Progress {
                    settings: settings_of(args)?,
                    hours: args.hours.unwrap_or(1.0),
                    generated_secs: 0.0,
                    trained: false,
                    gate: None,
                    installed: false,
                })
            }
            Err(e) => return Err(RoundError::Io(path.to_path_buf(), e)),
        };
        let mut progress: Progress = serde_json::from_str(&text)
            .map_err(|e| RoundError::Corrupt(path.to_path_buf(), e.to_string()))?;
        let s = &progress.settings;
        fn same<T: PartialEq + fmt::Debug>(
            name: &'static str,
            started: &T,
            given: Option<T>,
        ) -> Result<(), RoundError> {
            match given {
                Some(g) if g != *started => Err(RoundError::Changed {
                    name,
                    started: format!("{started:?}"),
                    given: format!("{g:?}"),
                }),
                _ => Ok(()),
            }
        }
        same("nodes", &s.nodes, args.nodes)?;
        same("seed", &s.seed, args.seed)?;
        same("epochs", &s.epochs, args.epochs)?;
        same("lr", &s.lr, args.lr)?;
        same("lambda", &s.lambda, args.lambda)?;
        same("gate-nodes", &s.gate_nodes, args.gate_nodes)?;
        same(
            "data",
            &s.data,
            (!args.data.is_empty()).then(|| args.data.clone()),
        )?;
        if let Some(path) = &args.openings {
            same("openings", &s.openings, Some(opening_lines(path)?))?;
        }
        // More hours extend the data; once trained, the data is what it is.
        if let Some(hours) = args.hours {
            if progress.trained && hours > progress.hours {
                return Err(RoundError::Changed {
                    name: "hours",
                    started: format!("{} (the net is trained)", progress.hours),
                    given: hours.to_string(),
                });
            }
            progress.hours = hours;
        }
        // More gate games grow a gate the SPRT has not decided: its games are kept and
        // the match goes on (`play_gate` resumes it), so a close gate need not be
        // judged on its first few hundred games.
        if let Some(games) = args.gate_games {
            let started = progress.settings.gate_games;
            let decided = progress.gate.as_ref().is_some_and(|g| g.sprt.is_some());
            if games != started {
                let refuse = |why: &str| RoundError::Changed {
                    name: "gate-games",
                    started: format!("{started}{why}"),
                    given: games.to_string(),
                };
                if games < started {
                    return Err(refuse(""));
                }
                if decided {
                    return Err(refuse(" (the SPRT has decided)"));
                }
                if progress.installed {
                    return Err(refuse(" (the net is installed)"));
                }
                progress.settings.gate_games = games;
                progress.gate = None;
            }
        }
        Ok(progress)
    }
}

/// An earlier round's data file: present, readable, whole records.
fn check_data_file(path: &Path) -> Result<(), RoundError> {
    let bad = |e: String| RoundError::Data(path.to_path_buf(), e);
    let len = std::fs::metadata(path)
        .map_err(|e| {
            bad(format!(
                "{e} (data given with --data must be there until the round has trained; a \
                 round whose file is gone needs another --dir)"
            ))
        })?
        .len();
    if len == 0 || len % RECORD_BYTES as u64 != 0 {
        return Err(bad(format!(
            "{len} bytes is not a whole number of {RECORD_BYTES}-byte records"
        )));
    }
    Ok(())
}

fn opening_lines(path: &Path) -> Result<Vec<String>, RoundError> {
    let openings = Opening::load(path)
        .map_err(|e| RoundError::Step("openings", format!("{}: {e}", path.display())))?;
    Ok(openings.iter().map(Opening::to_string).collect())
}

fn settings_of(args: &RoundArgs) -> Result<Settings, RoundError> {
    let openings = match &args.openings {
        Some(path) => opening_lines(path)?,
        None => gensfen::default_openings()
            .iter()
            .map(Opening::to_string)
            .collect(),
    };
    if openings.len() < 2 {
        return Err(RoundError::Step(
            "openings",
            "a round needs at least two: one half for the data, the other for the gate".into(),
        ));
    }
    for (name, value) in [("lr", args.lr), ("lambda", args.lambda)] {
        if value.is_some_and(|v| !(v > 0.0 && v <= 1.0)) {
            return Err(RoundError::Changed {
                name,
                started: "a number above 0 and at most 1".into(),
                given: format!("{value:?}"),
            });
        }
    }
    Ok(Settings {
        nodes: args.nodes.unwrap_or(DATA_NODES),
        seed: args.seed.unwrap_or(1),
        data: args.data.clone(),
        epochs: args.epochs.unwrap_or(EPOCHS as u32),
        lr: args.lr.unwrap_or(LEARNING_RATE),
        lambda: args.lambda.unwrap_or(LAMBDA),
        gate_nodes: args.gate_nodes.unwrap_or(GATE_NODES),
        gate_games: args.gate_games.unwrap_or(GATE_GAMES as u32),
        openings,
    })
}

/// What a round did, for its last line.
pub struct RoundSummary {
    pub positions: u64,
    pub generated_secs: f64,
    pub gate: Gate,
    pub installed: bool,
    /// The most gate games the round's openings give (twice their number).
    pub gate_limit: u32,
}

/// Runs (or resumes) the round; progress goes to stderr, each step's own report too.
pub fn run(args: &RoundArgs, engine: &Path) -> Result<RoundSummary, RoundError> {
    let dir = &args.dir;
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let files = Files::in_dir(dir);
    let mut progress = Progress::open(&files.progress, args)?;
    progress.save(&files.progress)?;
    let concurrency = args.concurrency as usize;

    // The openings, split: games of the data never start where the gate's do.
    let lines = &progress.settings.openings;
    let half = lines.len() / 2;
    for (path, part) in [
        (&files.data_openings, &lines[..half]),
        (&files.gate_openings, &lines[half..]),
    ] {
        write_whole(path, (part.join("\n") + "\n").as_bytes())?;
    }

    // Earlier rounds' data must still be there when the net is trained: found missing
    // only after hours of generation, the round would have wasted them.
    if !progress.trained {
        for path in &progress.settings.data {
            check_data_file(path)?;
        }
    }

    // Step 1: data.
    let remaining = progress.hours * 3600.0 - progress.generated_secs;
    if !progress.trained && remaining >= 1.0 {
        generate(&mut progress, &files, concurrency, remaining)?;
    }
    let positions = std::fs::metadata(&files.data)
        .map(|m| m.len() / RECORD_BYTES as u64)
        .unwrap_or(0);

    // Step 2: training.
    if !progress.trained {
        if positions == 0 && progress.settings.data.is_empty() {
            return Err(RoundError::Step("train", "no data: give --hours".into()));
        }
        eprintln!(
            "round: training on {positions} new records and {} earlier file(s)",
            progress.settings.data.len()
        );
        let s = &progress.settings;
        // A round of `--hours 0` trains on earlier data alone: it has no file of its own.
        let mut words: Vec<String> = Vec::new();
        if positions > 0 {
            words.extend(["--data".into(), path_word(&files.data)]);
        }
        for d in &s.data {
            words.extend(["--data".into(), path_word(d)]);
        }
        words.extend(
            [
                "--out",
                &path_word(&files.net),
                "--arch",
                "halfkp",
                "--init",
                "internal",
                "--quiet",
                "--mirror",
                "--lambda",
                &s.lambda.to_string(),
                "--lr",
                &s.lr.to_string(),
                "--epochs",
                &s.epochs.to_string(),
                "--threads",
                &concurrency.to_string(),
            ]
            .map(String::from),
        );
        let train_args = train::parse(&words).map_err(|e| RoundError::Step("train", e))?;
        train::run(train_args).map_err(|e| RoundError::Step("train", e))?;
        progress.trained = true;
        progress.save(&files.progress)?;
    }

    // Step 3: the gate.
    let gate = match progress.gate.clone() {
        Some(gate) => gate,
        None => {
            let gate = play_gate(&progress.settings, &files, engine, concurrency)?;
            progress.gate = Some(gate.clone());
            progress.save(&files.progress)?;
            gate
        }
    };

    // Step 4: the net into a checkout.
    if let (true, Some(checkout)) = (gate.passed, &args.install) {
        install(&files.net, checkout)?;
        progress.installed = true;
        progress.save(&files.progress)?;
    }
    Ok(RoundSummary {
        positions,
        generated_secs: progress.generated_secs,
        gate,
        installed: progress.installed,
        gate_limit: 2 * gate_openings(&files)?,
    })
}

fn path_word(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Step 1: the built-in net's games until the round's hours are spent, the time saved
/// as it goes.
fn generate(
    progress: &mut Progress,
    files: &Files,
    concurrency: usize,
    remaining: f64,
) -> Result<(), RoundError> {
    let s = &progress.settings;
    let eval = Evaluator::named("internal", crate::eval::nnue::DEFAULT_FV_SCALE)
        .map_err(|e| RoundError::Step("data", e.to_string()))?
        .0;
    let openings =
        Opening::load(&files.data_openings).map_err(|e| RoundError::Step("data", e.to_string()))?;
    let mut config = GenConfig::new(
        files.data.clone(),
        usize::MAX / 2,
        GenLimit::Nodes(s.nodes),
        s.seed,
        eval,
        openings,
    );
    config.concurrency = concurrency;
    config.time_limit = Some(Duration::from_secs_f64(remaining));
    eprintln!(
        "round: data for {:.0} more seconds, {} nodes a position, {concurrency} at a time, into {}",
        remaining,
        s.nodes,
        files.data.display()
    );
    let before = progress.generated_secs;
    let started = Instant::now();
    let mut last_save = Instant::now();
    let mut failed = None;
    let result = gensfen::run(&config, |line| {
        eprintln!("{line}");
        if last_save.elapsed() >= SAVE_EVERY {
            last_save = Instant::now();
            progress.generated_secs = before + started.elapsed().as_secs_f64();
            if let Err(e) = progress.save(&files.progress) {
                failed = Some(e);
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    let summary = result.map_err(|e| RoundError::Step("data", e.to_string()))?;
    // The whole budget counts as spent once the run ends by its time limit.
    progress.generated_secs = before + started.elapsed().as_secs_f64().max(remaining);
    progress.save(&files.progress)?;
    eprintln!(
        "round: {} positions from {} games in {:.0} s",
        summary.positions,
        summary.games,
        summary.millis as f64 / 1000.0
    );
    Ok(())
}

/// The gate's games: `--gate-games`, but no more than two (one per colour) for each
/// gate opening, since single-threaded engines at a node limit play the same game again
/// from the same opening.
fn distinct_gate_games(s: &Settings, files: &Files) -> Result<u32, RoundError> {
    Ok(s.gate_games.min(2 * gate_openings(files)?))
}

/// How many openings the gate has (at least one).
fn gate_openings(files: &Files) -> Result<u32, RoundError> {
    Ok((opening_lines(&files.gate_openings)?.len() as u32).max(1))
}

/// Step 3: the new net against the built-in one; resumes a gate already begun.
fn play_gate(
    s: &Settings,
    files: &Files,
    engine: &Path,
    concurrency: usize,
) -> Result<Gate, RoundError> {
    let exe = path_word(engine);
    let games = distinct_gate_games(s, files)?;
    if games < s.gate_games {
        eprintln!(
            "gate: {games} games, twice its {} openings: at a node limit more would repeat \
             earlier games (a larger --openings file gives more; tools/extend_openings.py)",
            games / 2
        );
    }
    let gate = path_word(&files.gate);
    let (count, concurrency) = (games.to_string(), concurrency.to_string());
    let words: Vec<String> = if files.gate.join("games.jsonl").exists() {
        // A gate begun goes on with the engines it began with, as its record names them
        // (a round resumed by a rebuilt binary must not mix two builds in one gate): only
        // the number of games and the concurrency are given again.
        [
            "--resume",
            &gate,
            "--games",
            &count,
            "--concurrency",
            &concurrency,
        ]
        .map(String::from)
        .to_vec()
    } else {
        [
            "--nodes",
            &s.gate_nodes.to_string(),
            "--option",
            "USI_OwnBook=false",
            "--engine",
            &exe,
            "--name",
            "new",
            "--option",
            &format!("EvalFile={}", path_word(&files.net)),
            "--engine",
            &exe,
            "--name",
            "builtin",
            "--option",
            "EvalFile=internal",
            "--openings",
            &path_word(&files.gate_openings),
            "--games",
            &count,
            "--concurrency",
            &concurrency,
            "--resign-score",
            &GATE_RESIGN_SCORE.to_string(),
            "--max-moves",
            &GATE_MAX_MOVES.to_string(),
            "--ready-timeout",
            &GATE_READY_TIMEOUT_MS.to_string(),
            "--move-timeout",
            &GATE_MOVE_TIMEOUT_MS.to_string(),
            "--sprt",
            &GATE_ELO0.to_string(),
            &GATE_ELO1.to_string(),
            "--out",
            &gate,
        ]
        .map(String::from)
        .to_vec()
    };
    let config =
        matches::cli::parse(&words).map_err(|e| RoundError::Step("gate", e.to_string()))?;
    let mut err = std::io::stderr();
    let report = matches::run_match(&config, &mut err)
        .map_err(|e| RoundError::Step("gate", e.to_string()))?;
    // A game lost to an engine's fault (not ready, a crash, an illegal move) says
    // nothing about the net's play: such a gate is no verdict, and the round stops.
    let faults: Vec<String> = report
        .games
        .iter()
        .filter(|g| g.reason.is_fault())
        .map(|g| format!("game {}: {}", g.index + 1, g.reason))
        .collect();
    if !faults.is_empty() {
        return Err(RoundError::Step(
            "gate",
            format!(
                "{} game(s) ended by an engine's fault ({}{}); the gate is no verdict on the \
                 net. Fix the cause, then delete {} to play the gate again",
                faults.len(),
                faults[..faults.len().min(3)].join(", "),
                if faults.len() > 3 { ", ..." } else { "" },
                files.gate.display()
            ),
        ));
    }
    let tally = report.tally;
    let decision = report.sprt.and_then(|(_, d)| d);
    // JSON has no infinity: an interval open at one end (a score near 0 or 100%) is
    // left out.
    let elo = tally
        .elo()
        .map(|e| (e.elo, e.lower, e.upper))
        .filter(|(e, l, u)| e.is_finite() && l.is_finite() && u.is_finite());
    let finished = tally.games() >= games;
    let passed = match decision {
        Some(SprtDecision::AcceptH1) => true,
        Some(SprtDecision::AcceptH0) => false,
        None => finished && elo.is_some_and(|(_, lower, _)| lower > 0.0),
    };
    Ok(Gate {
        wins: tally.wins,
        losses: tally.losses,
        draws: tally.draws,
        elo,
        sprt: decision.map(|d| match d {
            SprtDecision::AcceptH1 => "H1".to_string(),
            SprtDecision::AcceptH0 => "H0".to_string(),
        }),
        passed,
    })
}

/// Step 4: `net` compressed into `checkout`'s nets/builtin.nnue.zst, and the sha256 line
/// of nets/README.md set to the net's: one commit then makes it the built-in net.
pub fn install(net: &Path, checkout: &Path) -> Result<(), RoundError> {
    use sha2::Digest;
    let bytes = std::fs::read(net).map_err(io(net))?;
    let readme = checkout.join("nets").join("README.md");
    let text = std::fs::read_to_string(&readme).map_err(io(&readme))?;
    const SHA_LINE: &str = "builtin sha256: ";
    if !text.lines().any(|l| l.starts_with(SHA_LINE)) {
        return Err(RoundError::Step(
            "install",
            format!("{} has no `{SHA_LINE}` line", readme.display()),
        ));
    }
    let digest: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let packed = compress(&bytes);
    write_whole(&checkout.join("nets").join("builtin.nnue.zst"), &packed)?;
    let updated: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with(SHA_LINE) {
                format!("{SHA_LINE}{digest}")
            } else {
                l.to_string()
            }
        })
        .collect();
    write_whole(&readme, (updated.join("\n") + "\n").as_bytes())?;
    eprintln!(
        "round: the new net ({} bytes, sha256 {digest}) is {}/nets/builtin.nnue.zst ({} bytes)",
        bytes.len(),
        checkout.display(),
        packed.len()
    );
    Ok(())
}

/// zstd at level 19 when the `zstd` program is there (the file lives in git: a third
/// smaller than the fastest level), else ruzstd's fastest level.
fn compress(bytes: &[u8]) -> Vec<u8> {
    use std::process::{Command, Stdio};
    let external = Command::new("zstd")
        .args(["-19", "-q", "-c"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()
        .and_then(|mut child| {
            let mut stdin = child.stdin.take()?;
            let writer = std::thread::scope(|scope| {
                let w = scope.spawn(move || stdin.write_all(bytes));
                let out = child.wait_with_output();
                (w.join(), out)
            });
            match writer {
                (Ok(Ok(())), Ok(out)) if out.status.success() => Some(out.stdout),
                _ => None,
            }
        });
    external.unwrap_or_else(|| {
        ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
    })
}

/// Runs `hayate round`; returns the exit code.
pub fn run_cli(args: RoundArgs) -> i32 {
    crate::attacks::init();
    crate::eval::init();
    let engine = match std::env::current_exe() {
        Ok(path) => path,
        Err(e) => return crate::cli::failed("round", format!("cannot find this program: {e}")),
    };
    match run(&args, &engine) {
        Ok(s) => {
            println!(
                "round: {} positions ({:.0} s of games); gate {}{}",
                s.positions,
                s.generated_secs,
                s.gate,
                if s.installed {
                    "; installed: commit nets/ with the gate's result".to_string()
                } else if s.gate.sprt.is_none() && !s.gate.passed && s.gate.games() < s.gate_limit {
                    format!(
                        "; undecided: the same command with --gate-games up to {} grows the gate",
                        s.gate_limit
                    )
                } else {
                    String::new()
                }
            );
            0
        }
        Err(e @ (RoundError::Changed { .. } | RoundError::Data(..))) => {
            crate::cli::bad_input("round", e)
        }
        Err(e) => crate::cli::failed("round", e),
    }
}
