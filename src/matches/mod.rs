//! `hayate match`: engine-vs-engine matches between any two USI engines.
//!
//! The runner referees: it keeps the clocks, checks every move with the library's rules,
//! decides how games end, and turns every engine fault (crash, hang, bad move, no
//! `readyok`) into a lost game instead of a stuck match.
//!
//! - [`cli`]: the command line, into a [`MatchConfig`];
//! - [`crate::usi_client`] (outside): one engine process with bounded waits;
//! - [`clock`]: time controls and the runner's clock;
//! - [`opening`]: the opening lines;
//! - [`game`]: one game, its referee and adjudication;
//! - [`stats`]: Elo, LOS and SPRT;
//! - [`record`]: the CSA and JSON-lines records;
//! - [`summary`]: the progress lines, the final summary and the engines' move times;
//! - this file: the worker threads and the record files.

pub mod cli;
pub mod clock;
pub mod game;
pub mod opening;
pub mod record;
pub mod stats;
pub mod summary;

pub use cli::{CliError, MatchConfig};

use crate::usi_client::{Engine, EngineError, EngineSpec};
use game::{GameRecord, GameSetup, Player};
use stats::{SprtDecision, Tally};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{SystemTime, UNIX_EPOCH};
use summary::Summary;

/// Why a match could not be played to the end.
#[derive(Debug)]
pub enum MatchError {
    /// An engine process could not be started at all (wrong command or directory).
    Engine(EngineError),
    /// A record file or the output folder could not be written.
    Records { path: PathBuf, source: io::Error },
    /// `--resume`: the folder holds no match this one can continue.
    Resume { path: PathBuf, message: String },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Engine(e) => write!(f, "{e}"),
            MatchError::Records { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            MatchError::Resume { path, message } => {
                write!(f, "cannot resume from {}: {message}", path.display())
            }
        }
    }
}

impl std::error::Error for MatchError {}

/// What a finished (or stopped) match produced.
#[derive(Debug)]
pub struct MatchReport {
    /// Engine names as used in the records (made distinct if they were equal).
    pub names: [String; 2],
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
    /// Engine 1's results (games without a result are left out).
    pub tally: Tally,
    /// The SPRT's last log-likelihood ratio and its decision (the first bound crossed;
    /// games still running then do not undo it), when one was asked for.
    pub sprt: Option<(f64, Option<SprtDecision>)>,
    pub csa_path: PathBuf,
    pub json_path: PathBuf,
}

/// `hayate match ...`: parses the arguments (`words`, those after `match`, are recorded
/// with the match), plays the match with progress on stdout, and returns the process exit
/// code (2 for a bad command line, 1 when the match failed).
pub fn run_cli(args: cli::MatchArgs, matches: &clap::ArgMatches, words: &[String]) -> i32 {
    let config = match cli::from_matches(args, matches, words) {
        Ok(config) => config,
        Err(e) => return crate::cli::bad_input("match", e),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match run_match(&config, &mut out) {
        Ok(_) => 0,
        Err(e) => crate::cli::failed("match", e),
    }
}

/// Plays a whole match, writing progress and the summary to `out` and the records to the
/// output folder.
pub fn run_match(config: &MatchConfig, out: &mut dyn Write) -> Result<MatchReport, MatchError> {
    let names = engine_names(config, out)?;
    let mut engines = config.engines.clone();
    for (spec, name) in engines.iter_mut().zip(&names) {
        spec.name = name.clone();
    }
    let (mut records, finished) = match (&config.out, config.resume) {
        (Some(dir), true) => Records::resume(dir, &names, config)?,
        (dir, _) => (Records::create(dir.as_deref())?, Vec::new()),
    };
    // After the records opened: a folder that already holds a match keeps its command.
    if let Some(command) = &config.command {
        replace_file(&records.dir.join(cli::COMMAND_FILE), &command.to_json())?;
        if config.resume && command.cwd != cli::current_dir() {
            let _ = writeln!(
                out,
                "note: the match was started in {}; relative paths in its command are read from here",
                command.cwd
            );
        }
    }
    // Game numbers fix the opening and the colours, so a resumed match plays exactly the
    // games the interrupted one had left.
    let pending: Vec<usize> = (0..config.games)
        .filter(|i| finished.iter().all(|g| g.index != *i))
        .collect();

    let _ = writeln!(
        out,
        "match: {} ({}) vs {} ({}), {} games, {} at a time, {} opening(s)",
        names[0],
        engines[0].tc,
        names[1],
        engines[1].tc,
        config.games,
        config.concurrency.min(config.games),
        config.openings.len()
    );
    // At a node or depth limit an engine on one thread plays the same game again from
    // the same opening with the same colours: games past that many repeat, and a
    // result counting them twice claims more than it knows.
    let distinct = 2 * config.openings.len();
    let clockless = engines
        .iter()
        .all(|e| e.tc.time_ms == 0 && e.tc.inc_ms == 0 && e.tc.byoyomi_ms == 0);
    if clockless && config.games > distinct {
        let _ = writeln!(
            out,
            "warning: {} games from {} opening(s) at a node or depth limit: single-threaded \
             engines repeat games past the {distinct}th; give more openings \
             (tools/extend_openings.py makes them)",
            config.games,
            config.openings.len()
        );
    }
    let _ = writeln!(
        out,
        "records: {} and {}",
        records.csa_path.display(),
        records.json_path.display()
    );

    let next_game = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let mut summary = Summary::new(names.clone(), config.sprt);
    for game in &finished {
        summary.add(game);
    }
    if config.resume {
        let _ = writeln!(
            out,
            "resumed: {} finished game(s) kept, {} to play",
            finished.len(),
            pending.len()
        );
    }
    let mut games = finished;
    let mut fatal: Option<MatchError> = None;
    if summary.sprt_verdict.is_some() {
        abort.store(true, Ordering::SeqCst);
    }

    thread::scope(|scope| {
        // A rendezvous: a worker hands over a finished game and waits until it is taken,
        // so no worker runs more than one game ahead of the records (and of a stop).
        let (tx, rx) = mpsc::sync_channel::<Result<GameRecord, EngineError>>(0);
        for _ in 0..config.concurrency.min(pending.len()) {
            let tx = tx.clone();
            let (engines, pending, next_game, abort) = (&engines, &pending, &next_game, &abort);
            scope.spawn(move || worker(config, engines, pending, next_game, abort, tx));
        }
        drop(tx);
        for message in rx {
            let record = match message {
                Ok(record) => record,
                Err(e) => {
                    abort.store(true, Ordering::SeqCst);
                    fatal.get_or_insert(MatchError::Engine(e));
                    continue;
                }
            };
            if let Err(e) = records.write(&record, &names) {
                abort.store(true, Ordering::SeqCst);
                fatal.get_or_insert(e);
            }
            summary.add(&record);
            if !config.quiet {
                let _ = writeln!(out, "{}", summary.progress_line(&record, config.games));
                let _ = out.flush();
            }
            if summary.sprt_verdict.is_some() {
                abort.store(true, Ordering::SeqCst);
            }
            games.push(record);
        }
    });

    let _ = write!(
        out,
        "{}",
        summary.final_text(&records.csa_path, &records.json_path)
    );
    let _ = out.flush();
    if let Some(e) = fatal {
        return Err(e);
    }
    Ok(MatchReport {
        names,
        games,
        tally: summary.tally,
        sprt: summary
            .sprt
            .map(|s| (s.llr(&summary.tally), summary.sprt_verdict.map(|v| v.0))),
        csa_path: records.csa_path,
        json_path: records.json_path,
    })
}

/// One worker: its own pair of engine processes, kept between games while healthy; takes
/// the pending game numbers in turn (through the shared counter) until the match is done
/// or stopped.
fn worker(
    config: &MatchConfig,
    engines: &[EngineSpec; 2],
    pending: &[usize],
    next_game: &AtomicUsize,
    abort: &AtomicBool,
    results: mpsc::SyncSender<Result<GameRecord, EngineError>>,
) {
    let mut players = engines.clone().map(Player::new);
    while !abort.load(Ordering::SeqCst) {
        let Some(&index) = pending.get(next_game.fetch_add(1, Ordering::SeqCst)) else {
            break;
        };
        let opening_index = config.opening_of(index);
        let setup = GameSetup {
            index,
            opening_index,
            opening: &config.openings[opening_index],
            black_slot: index % 2,
        };
        let result = game::play_game(&mut players, &setup, &config.rules, abort);
        let fatal = result.is_err();
        if results.send(result).is_err() || fatal {
            break;
        }
    }
    for player in players.iter_mut() {
        player.shutdown();
    }
}

/// The engines' names: `--name`, else the `id name` the engine reports (it is started once
/// for that, which also shows a wrong command before any game), else the program's name.
/// Equal names get ` #1` and ` #2` so output and records tell them apart.
fn engine_names(config: &MatchConfig, out: &mut dyn Write) -> Result<[String; 2], MatchError> {
    /// What starting an engine once told about its name.
    enum Probe {
        Skipped,
        Named(Option<String>),
        /// Started but failed the handshake: not fatal, its games will record the fault.
        Failed(EngineError),
    }
    let probes: Vec<Result<Probe, EngineError>> = thread::scope(|scope| {
        let handles: Vec<_> = config
            .engines
            .iter()
            .map(|spec| {
                scope.spawn(move || {
                    if spec.name_given {
                        return Ok(Probe::Skipped);
                    }
                    match Engine::start(spec, config.rules.ready_timeout) {
                        Ok(engine) => {
                            let name = engine.id_name.clone();
                            engine.quit();
                            Ok(Probe::Named(name))
                        }
                        Err(e @ EngineError::Spawn { .. }) => Err(e),
                        Err(e) => Ok(Probe::Failed(e)),
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("name probe thread"))
            .collect()
    });
    let mut names = [String::new(), String::new()];
    for (i, probe) in probes.into_iter().enumerate() {
        let spec = &config.engines[i];
        names[i] = match probe.map_err(MatchError::Engine)? {
            Probe::Named(Some(id)) if !id.is_empty() => id,
            Probe::Failed(e) => {
                let _ = writeln!(
                    out,
                    "warning: engine {} ({}) did not start cleanly: {e}",
                    i + 1,
                    spec.command_line()
                );
                spec.name.clone()
            }
            _ => spec.name.clone(),
        };
    }
    if names[0] == names[1] {
        names = [format!("{} #1", names[0]), format!("{} #2", names[1])];
    }
    Ok(names)
}

/// The two record files, written game by game so an interrupted match keeps what it played.
struct Records {
    dir: PathBuf,
    csa: File,
    json: File,
    csa_path: PathBuf,
    json_path: PathBuf,
    written: usize,
}

impl Records {
    /// Opens `games.csa` and `games.jsonl` in `dir`, or in a new `match-<date>-<time>`
    /// folder. Existing records are never overwritten.
    fn create(dir: Option<&Path>) -> Result<Records, MatchError> {
        let dir = match dir {
            Some(dir) => {
                fs::create_dir_all(dir).map_err(records_error(dir))?;
                dir.to_path_buf()
            }
            None => new_folder()?,
        };
        let open = |name: &str| -> Result<(File, PathBuf), MatchError> {
            let path = dir.join(name);
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(records_error(&path))?;
            Ok((file, path))
        };
        let (csa, csa_path) = open("games.csa")?;
        let (json, json_path) = open("games.jsonl")?;
        Ok(Records {
            dir,
            csa,
            json,
            csa_path,
            json_path,
            written: 0,
        })
    }

    /// Opens the records of an interrupted match in `dir` to continue it, and returns the
    /// games it finished. The JSON lines are the truth: a last line cut short by the
    /// interruption and games without a result are dropped (those games are played
    /// again), and both files are rewritten from the games kept, so a CSA record written
    /// just before the interruption cannot disagree with the JSON. Refuses records of
    /// other engines or openings.
    fn resume(
        dir: &Path,
        names: &[String; 2],
        config: &MatchConfig,
    ) -> Result<(Records, Vec<GameRecord>), MatchError> {
        let json_path = dir.join("games.jsonl");
        let csa_path = dir.join("games.csa");
        let refuse = |message: String| MatchError::Resume {
            path: json_path.clone(),
            message,
        };
        let text = crate::files::read_regular(&json_path).map_err(|e| refuse(e.to_string()))?;
        let text = String::from_utf8(text).map_err(|_| refuse("not UTF-8 text".into()))?;
        let mut games: Vec<GameRecord> = Vec::new();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        for (i, line) in lines.iter().enumerate() {
            let complete = line.ends_with('\n');
            let (game, engines) = match record::parse_json_game(line.trim_end()) {
                Ok(parsed) => parsed,
                // The write the interruption cut short.
                Err(_) if !complete && i + 1 == lines.len() => break,
                Err(e) => return Err(refuse(format!("line {}: {e}", i + 1))),
            };
            if engines != *names {
                return Err(refuse(format!(
                    "it is a match between '{}' and '{}', not '{}' and '{}'",
                    engines[0], engines[1], names[0], names[1]
                )));
            }
            let n = game.index + 1;
            if game.index >= config.games {
                return Err(refuse(format!(
                    "it has game {n}, beyond --games {}",
                    config.games
                )));
            }
            let expected = &config.openings[config.opening_of(game.index)];
            if game.opening.to_string() != expected.to_string() {
                return Err(refuse(format!(
                    "game {n} started from '{}', not from '{expected}': give the same --openings",
                    game.opening
                )));
            }
            if games.iter().any(|g| g.index == game.index) {
                return Err(refuse(format!("game {n} is recorded twice")));
            }
            if game.outcome != game::Outcome::NoResult {
                games.push(game);
            }
        }
        let json: String = games
            .iter()
            .map(|g| record::json_game(g, names) + "\n")
            .collect();
        let csa: Vec<String> = games.iter().map(record::csa_game).collect();
        // JSON first: were the machine to stop between the two renames, the next resume
        // writes the CSA file from it again.
        replace_file(&json_path, &json)?;
        replace_file(&csa_path, &csa.join("/\n"))?;
        let append = |path: &Path| {
            OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(records_error(path))
        };
        let records = Records {
            dir: dir.to_path_buf(),
            csa: append(&csa_path)?,
            json: append(&json_path)?,
            csa_path,
            json_path,
            written: games.len(),
        };
        Ok((records, games))
    }

    fn write(&mut self, game: &GameRecord, names: &[String; 2]) -> Result<(), MatchError> {
        let mut csa = String::new();
        if self.written > 0 {
            csa.push_str("/\n");
        }
        csa.push_str(&record::csa_game(game));
        self.written += 1;
        let json = record::json_game(game, names) + "\n";
        // Each game reaches the disk before the next is written (a machine that goes down
        // keeps every finished game), the CSA first: a JSON line is only there for a game
        // whose CSA record is complete.
        self.csa
            .write_all(csa.as_bytes())
            .and_then(|()| self.csa.flush())
            .and_then(|()| self.csa.sync_data())
            .map_err(records_error(&self.csa_path))?;
        self.json
            .write_all(json.as_bytes())
            .and_then(|()| self.json.flush())
            .and_then(|()| self.json.sync_data())
            .map_err(records_error(&self.json_path))
    }
}

/// The error of a record file or folder that could not be written.
fn records_error(path: &Path) -> impl FnOnce(io::Error) -> MatchError {
    let path = path.to_path_buf();
    move |source| MatchError::Records { path, source }
}

/// Writes `path` anew, whole or not at all (see [`crate::files::replace`]).
fn replace_file(path: &Path, text: &str) -> Result<(), MatchError> {
    crate::files::replace(path, text.as_bytes()).map_err(records_error(path))
}

/// A new `match-YYYYMMDD-HHMMSS` folder (UTC) in the current directory, with `-2`, `-3`, …
/// appended when one of that name exists.
fn new_folder() -> Result<PathBuf, MatchError> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, mo, d, h, mi, s) = record::utc_datetime(now);
    let base = format!("match-{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}");
    for n in 1.. {
        let name = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        let path = PathBuf::from(name);
        match fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(MatchError::Records { path, source }),
        }
    }
    unreachable!("some folder name is free")
}
