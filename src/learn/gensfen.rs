//! `hayate gensfen`: training data from self-play. Each game starts from one of the shared
//! balanced openings and a few random moves, then hayate plays itself with a node or depth
//! limit on every move; the positions it searched are written as `PackedSfenValue`
//! records with the search's score, its move and, once the game is over, the result.
//!
//! Every game is a function of the seed and its number alone (one search thread, a table
//! and move statistics cleared at its start), and games are written in their order
//! whatever the concurrency, so a run makes the same file on any machine, a run can be
//! split into shards by seed, and an interrupted run resumes where its progress file says.

use super::packed::{self, PackedSfenValue, RECORD_BYTES};
use crate::eval::Evaluator;
use crate::matches::opening::Opening;
use crate::position::{EnteringKingRule, Position, Repetition};
use crate::rng::Rng;
use crate::search::{score, Decision, Event, Limits, Reporter, Settings};
use crate::threads::ThreadPool;
use crate::time::TimeOptions;
use crate::types::Color;
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How each move of a game is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenLimit {
    Nodes(u64),
    Depth(i32),
}

impl std::fmt::Display for GenLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenLimit::Nodes(n) => write!(f, "nodes:{n}"),
            GenLimit::Depth(d) => write!(f, "depth:{d}"),
        }
    }
}

/// A generation run.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub out: PathBuf,
    pub games: usize,
    pub limit: GenLimit,
    pub seed: u64,
    pub concurrency: usize,
    /// Random moves played after the opening, for variety: each one chosen at random
    /// among the `random_multipv` best moves that score within `random_margin` of the
    /// best (a uniformly random move often just gives a piece away).
    pub random_plies: u32,
    pub random_multipv: usize,
    pub random_margin: i32,
    /// Positions searched beyond this score are not recorded, and the game is then
    /// adjudicated to the side ahead.
    pub eval_limit: i32,
    /// Positions before this move number (the opening) are not recorded.
    pub min_ply: u32,
    /// Record positions in check too.
    pub keep_checks: bool,
    /// A game still going after this many plies is a draw.
    pub max_plies: u32,
    /// Table size of each game's search, MiB.
    pub hash_mib: usize,
    pub eval: Evaluator,
    /// The openings games start from; see [`default_openings`] and [`Opening::load`].
    pub openings: Vec<Opening>,
    /// No game starts after this long (the games under way are finished and written):
    /// a run of fixed length, whatever the games' speed.
    pub time_limit: Option<Duration>,
}

/// The defaults of `hayate gensfen` (and of a round's data): random plies after the
/// opening, among how many best moves, within what margin (centipawns)...
pub const RANDOM_PLIES: u32 = 6;
pub const RANDOM_MULTIPV: usize = 8;
pub const RANDOM_MARGIN: i32 = 100;
/// ...the score past which a game ends, the ply before which nothing is written, the
/// plies after which a game is a draw, and each game's table (MiB).
pub const EVAL_LIMIT: i32 = 3000;
pub const MIN_PLY: u32 = 16;
pub const MAX_PLIES: u32 = 400;
pub const HASH_MIB: usize = 16;

impl GenConfig {
    /// A run with the defaults above: one game at a time, no time limit.
    pub fn new(
        out: PathBuf,
        games: usize,
        limit: GenLimit,
        seed: u64,
        eval: Evaluator,
        openings: Vec<Opening>,
    ) -> GenConfig {
        GenConfig {
            out,
            games,
            limit,
            seed,
            concurrency: 1,
            random_plies: RANDOM_PLIES,
            random_multipv: RANDOM_MULTIPV,
            random_margin: RANDOM_MARGIN,
            eval_limit: EVAL_LIMIT,
            min_ply: MIN_PLY,
            keep_checks: false,
            max_plies: MAX_PLIES,
            hash_mib: HASH_MIB,
            eval,
            openings,
            time_limit: None,
        }
    }

    /// The settings that decide what the file holds, written in the progress file: a run
    /// resumes only with the same ones.
    fn signature(&self) -> String {
        let lines: Vec<String> = self.openings.iter().map(Opening::to_string).collect();
        let built_in: Vec<String> = default_openings().iter().map(Opening::to_string).collect();
        let openings = if lines == built_in {
            String::new()
        } else {
            format!(" openings={}:{:016x}", lines.len(), fnv1a(&lines))
        };
        format!(
            "seed={} limit={} random_plies={} random_multipv={} random_margin={} eval_limit={} min_ply={} keep_checks={} max_plies={} eval={}{openings}",
            self.seed,
            self.limit,
            self.random_plies,
            self.random_multipv,
            self.random_margin,
            self.eval_limit,
            self.min_ply,
            self.keep_checks,
            self.max_plies,
            match &self.eval {
                Evaluator::Linear => crate::eval::LINEAR.to_string(),
                Evaluator::Nnue { net, fv_scale } => format!("{}/{fv_scale}", net.arch().name()),
            }
        )
    }
}

/// A 64-bit FNV-1a hash of the opening lines: a resumed run must use the same ones.
fn fnv1a(lines: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in lines
        .iter()
        .flat_map(|l| l.bytes().chain(std::iter::once(b'\n')))
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A finished game: its records and how it ended.
pub struct Game {
    pub records: Vec<PackedSfenValue>,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    pub plies: u32,
}

/// The openings used when none are given: the project's balanced set.
pub fn default_openings() -> Vec<Opening> {
    crate::tune::selfplay::OPENINGS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Opening::parse(l).expect("the built-in openings are valid"))
        .collect()
}

/// What a search answered: its decision, and the last score reported for each of its
/// principal variations (by `multipv` index, 1 first) with the line's first move.
struct Answer {
    decision: Option<Decision>,
    lines: BTreeMap<usize, (i32, Option<crate::types::Move>)>,
}

impl Answer {
    /// The score of the best line (side to move).
    fn score(&self) -> i32 {
        self.lines.get(&1).map_or(0, |l| l.0)
    }
}

/// Searches `pos` with the run's limit for the `multipv` best moves.
fn search(pool: &mut ThreadPool, pos: &Position, config: &GenConfig, multipv: usize) -> Answer {
    let answer = Arc::new(Mutex::new(Answer {
        decision: None,
        lines: BTreeMap::new(),
    }));
    let sink = answer.clone();
    let reporter: Reporter = Arc::new(move |event| {
        let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            Event::Progress(p) => {
                s.lines.insert(p.multipv, (p.score, p.pv.first().copied()));
            }
            Event::BestMove { decision, .. } => s.decision = Some(decision),
        }
    });
    let (nodes, depth) = match config.limit {
        GenLimit::Nodes(n) => (Some(n), None),
        GenLimit::Depth(d) => (None, Some(d)),
    };
    let settings = Settings {
        limits: Limits {
            nodes,
            depth,
            multipv: multipv.max(1),
            ..Limits::default()
        },
        rule: EnteringKingRule::CsaRule27,
        time: TimeOptions::default(),
        max_moves_to_draw: 0,
        eval: config.eval.clone(),
    };
    pool.start(pos.clone(), settings, reporter);
    pool.wait();
    let mut s = answer.lock().unwrap_or_else(|e| e.into_inner());
    Answer {
        decision: s.decision.take(),
        lines: std::mem::take(&mut s.lines),
    }
}

/// Plays game number `index` of the run.
pub fn play_game(pool: &mut ThreadPool, config: &GenConfig, index: usize) -> Game {
    let openings = &config.openings;
    let mut rng = Rng::stream(config.seed, index as u64);
    let mut pos = openings[(rng.next_u64() % openings.len() as u64) as usize].position();
    pool.clear();
    let mut records = Vec::new();
    // The side to move of each record, for its result.
    let mut sides = Vec::new();
    let mut plies = 0;
    for _ in 0..config.random_plies {
        let answer = search(pool, &pos, config, config.random_multipv);
        let best = answer.score();
        let near: Vec<crate::types::Move> = answer
            .lines
            .values()
            .filter(|(score, _)| *score >= best - config.random_margin)
            .filter_map(|&(_, mv)| mv)
            .filter(|&mv| pos.is_legal(mv))
            .collect();
        if near.is_empty() {
            break;
        }
        pos.play_unchecked(near[(rng.next_u64() % near.len() as u64) as usize]);
    }
    let winner = loop {
        if let Some(rep) = pos.sennichite() {
            let side = pos.side_to_move();
            break match rep {
                Repetition::Win => Some(side),
                Repetition::Loss => Some(!side),
                _ => None,
            };
        }
        if plies >= config.max_plies {
            break None;
        }
        let side = pos.side_to_move();
        let answer = search(pool, &pos, config, 1);
        let score = answer.score();
        let mv = match answer.decision {
            Some(Decision::Move(mv)) => mv,
            Some(Decision::Win) => break Some(side),
            Some(Decision::Resign) | None => break Some(!side),
        };
        if score::is_mate(score) || score.abs() > config.eval_limit {
            break Some(if score > 0 { side } else { !side });
        }
        if (config.keep_checks || !pos.in_check()) && pos.ply() >= config.min_ply {
            if let Ok(sfen) = packed::pack(&pos) {
                records.push(PackedSfenValue {
                    sfen,
                    score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                    mv: packed::move_to_u16(mv),
                    game_ply: pos.ply().min(u16::MAX as u32) as u16,
                    game_result: 0,
                });
                sides.push(side);
            }
        }
        pos.play_unchecked(mv);
        plies += 1;
    };
    for (r, &side) in records.iter_mut().zip(&sides) {
        r.game_result = match winner {
            None => 0,
            Some(w) if w == side => 1,
            Some(_) => -1,
        };
    }
    Game {
        records,
        winner,
        plies,
    }
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games finished by this run (after any resumed ones).
    pub games: usize,
    /// Records written by this run.
    pub positions: u64,
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
    /// Games found finished in the progress file.
    pub resumed_games: usize,
    pub millis: u64,
}

/// Why a run could not start or write.
#[derive(Debug)]
pub enum GenError {
    Io(PathBuf, std::io::Error),
    /// The progress file belongs to a run with other settings.
    OtherRun {
        progress: PathBuf,
        found: String,
    },
    /// The run was given no opening to start from.
    NoOpenings,
}

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GenError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            GenError::OtherRun { progress, found } => write!(
                f,
                "{} belongs to a run with other settings ({found}); give another --out",
                progress.display()
            ),
            GenError::NoOpenings => f.write_str("no opening to start games from"),
        }
    }
}

impl std::error::Error for GenError {}

/// What the progress file says: where this run's records start in the data file, how
/// many games it finished and how many records they wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Progress {
    signature: String,
    start: u64,
    games: usize,
    records: u64,
}

fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

impl Progress {
    fn parse(text: &str) -> Option<Progress> {
        let mut lines = text.lines();
        let signature = lines.next()?.to_string();
        let mut numbers = lines
            .next()?
            .split_whitespace()
            .map(|t| t.split_once('=').and_then(|(_, v)| v.parse::<u64>().ok()));
        Some(Progress {
            signature,
            start: numbers.next()??,
            games: numbers.next()?? as usize,
            records: numbers.next()??,
        })
    }

    fn text(&self) -> String {
        format!(
            "{}\nstart={} games={} records={}\n",
            self.signature, self.start, self.games, self.records
        )
    }

    /// Replaces the file whole (written beside it, synced, then renamed).
    fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::files::replace(path, self.text().as_bytes())
    }
}

/// Runs the generation, calling `report` with a progress line now and then.
pub fn run(config: &GenConfig, mut report: impl FnMut(&str)) -> Result<Summary, GenError> {
    if config.openings.is_empty() {
        return Err(GenError::NoOpenings);
    }
    let started = Instant::now();
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |e| GenError::Io(path, e)
    };
    let progress_file = progress_path(&config.out);
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&config.out)
        .map_err(io(&config.out))?;
    let len = file.metadata().map_err(io(&config.out))?.len();
    let signature = config.signature();
    let mut progress = match std::fs::read_to_string(&progress_file) {
        Ok(text) => match Progress::parse(&text) {
            Some(p) if p.signature == signature => p,
            _ => {
                return Err(GenError::OtherRun {
                    progress: progress_file,
                    found: text.lines().next().unwrap_or("").to_string(),
                })
            }
        },
        // A new run appends after whatever the file holds (whole records only).
        Err(_) => Progress {
            signature,
            start: len / RECORD_BYTES as u64 * RECORD_BYTES as u64,
            games: 0,
            records: 0,
        },
    };
    // Records past what the progress file counts were cut off mid-game: drop them.
    let keep = progress.start + progress.records * RECORD_BYTES as u64;
    if len < keep {
        return Err(GenError::Io(
            config.out.clone(),
            std::io::Error::other(format!(
                "holds {len} bytes, fewer than the {keep} its progress file counts"
            )),
        ));
    }
    file.set_len(keep).map_err(io(&config.out))?;
    file.seek(SeekFrom::End(0)).map_err(io(&config.out))?;
    progress.save(&progress_file).map_err(io(&progress_file))?;

    let mut summary = Summary {
        resumed_games: progress.games,
        ..Summary::default()
    };
    let first = progress.games;
    let next = AtomicUsize::new(first);
    let (tx, rx) = mpsc::channel::<(usize, Game)>();
    let mut result = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let Ok(mut pool) = ThreadPool::new(1, config.hash_mib) else {
                    return;
                };
                loop {
                    if config
                        .time_limit
                        .is_some_and(|limit| started.elapsed() >= limit)
                    {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let game = play_game(&mut pool, config, index);
                    if tx.send((index, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Games are written in their order: one that finishes early waits here.
        let mut waiting: BTreeMap<usize, Game> = BTreeMap::new();
        let mut last_report = Instant::now();
        let mut written_until = first;
        for (index, game) in rx {
            waiting.insert(index, game);
            let mut bytes = Vec::new();
            while let Some(game) = waiting.remove(&written_until) {
                for r in &game.records {
                    bytes.extend_from_slice(&r.to_bytes());
                }
                summary.positions += game.records.len() as u64;
                progress.records += game.records.len() as u64;
                match game.winner {
                    Some(Color::Black) => summary.black_wins += 1,
                    Some(Color::White) => summary.white_wins += 1,
                    None => summary.draws += 1,
                }
                summary.games += 1;
                written_until += 1;
            }
            if bytes.is_empty() && written_until == progress.games {
                continue;
            }
            let write = file
                .write_all(&bytes)
                .and_then(|_| file.sync_data())
                .map_err(io(&config.out));
            progress.games = written_until;
            let save = progress.save(&progress_file).map_err(io(&progress_file));
            if let Err(e) = write.and(save) {
                result = Err(e);
                // The workers stop at their next game.
                next.store(config.games, Ordering::Relaxed);
                break;
            }
            if last_report.elapsed() >= Duration::from_secs(5) {
                last_report = Instant::now();
                let secs = started.elapsed().as_secs_f64().max(1e-3);
                let of = match config.time_limit {
                    Some(limit) => format!(" ({:.0} of {:.0} s)", secs, limit.as_secs_f64()),
                    None => format!("/{}", config.games),
                };
                report(&format!(
                    "games {}{of}  positions {}  {:.0} positions/s  {:.2} games/s",
                    written_until,
                    summary.positions,
                    summary.positions as f64 / secs,
                    summary.games as f64 / secs,
                ));
            }
        }
    });
    result?;
    summary.millis = started.elapsed().as_millis() as u64;
    Ok(summary)
}

/// `hayate gensfen`: self-play training data as YaneuraOu PackedSfenValue records, or
/// (`--read`) the records of a file as text.
#[derive(clap::Args)]
#[command(args_override_self = true)]
#[command(group(clap::ArgGroup::new("limit").args(["nodes", "depth"])))]
pub struct GensfenArgs {
    /// The file the records are appended to (an interrupted run resumes)
    #[arg(long, required_unless_present = "read")]
    out: Option<PathBuf>,
    /// Games to play in all (a resumed run counts the games already written)
    #[arg(long, required_unless_present = "read", value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    games: Option<u64>,
    /// Nodes searched for each position
    #[arg(long, required_unless_present_any = ["read", "depth"], value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    nodes: Option<u64>,
    /// Depth searched for each position, instead of nodes
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: Option<i32>,
    /// The seed: the same seed plays the same games, so shards are split by seed
    #[arg(long, required_unless_present = "read")]
    seed: Option<u64>,
    /// Games played at once, one thread each
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads_arg())]
    concurrency: u16,
    /// Random plies after each opening, for variety
    #[arg(long, default_value_t = RANDOM_PLIES, value_parser = clap::value_parser!(u32).range(0..=1000))]
    random_plies: u32,
    /// A random ply picks among this many best moves...
    #[arg(long, default_value_t = RANDOM_MULTIPV as u16, value_parser = clap::value_parser!(u16).range(1..=600))]
    random_multipv: u16,
    /// ...within this many centipawns of the best
    #[arg(long, default_value_t = RANDOM_MARGIN, value_parser = clap::value_parser!(i32).range(0..=30_000))]
    random_margin: i32,
    /// Positions scored beyond this (centipawns) are not written, and end the game
    #[arg(long, default_value_t = EVAL_LIMIT, value_parser = clap::value_parser!(i32).range(1..=30_000))]
    eval_limit: i32,
    /// Positions before this ply are not written
    #[arg(long, default_value_t = MIN_PLY, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    min_ply: u32,
    /// Also write positions in check
    #[arg(long)]
    keep_checks: bool,
    /// A game ends as a draw after this many plies
    #[arg(long, default_value_t = MAX_PLIES, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_plies: u32,
    /// Openings to start games from, one `position` line each (`startpos moves ...` or
    /// `sfen ...`; default: the built-in balanced set)
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Start no game after this many seconds (the games under way are finished)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    seconds: Option<u64>,
    /// Transposition table of each game, MiB
    #[arg(long, default_value_t = HASH_MIB as u32, value_parser = clap::value_parser!(u32).range(1..=1 << 16))]
    hash: u32,
    #[command(flatten)]
    eval: crate::cli::EvalArgs,
    /// Show the records of this file as text instead (SFEN, score, move, result)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "games", "seed", "limit"])]
    read: Option<PathBuf>,
    /// With --read: show at most this many records...
    #[arg(long, requires = "read")]
    count: Option<u64>,
    /// ...after skipping this many
    #[arg(long, requires = "read", default_value_t = 0)]
    skip: u64,
    /// With --read: instead of the records, how well this evaluation (`linear` or a net
    /// file) predicts their search scores: correlation and win-rate error
    #[arg(long, requires = "read", value_name = "EVAL")]
    evaluate: Option<String>,
    /// With --evaluate: compare with this evaluation's static score instead of the search
    /// score (how closely a net follows the evaluation it was distilled from)
    #[arg(long, requires = "evaluate", value_name = "EVAL")]
    against: Option<String>,
    /// With --evaluate: only the records whose best move is quiet (no capture, no
    /// promotion), the positions a static evaluation can be asked to judge
    #[arg(long, requires = "evaluate")]
    quiet: bool,
}

/// Runs `hayate gensfen`; returns the exit code.
pub fn run_cli(args: GensfenArgs) -> i32 {
    if let Some(path) = &args.read {
        let (count, skip) = (args.count.unwrap_or(u64::MAX), args.skip);
        return match &args.evaluate {
            Some(eval) => evaluate_cli(
                path,
                (count, skip),
                eval,
                args.against.as_deref(),
                args.eval.fv_scale,
                args.quiet,
            ),
            None => read_cli(path, count, skip),
        };
    }
    let config = match config_of(args) {
        Ok(c) => c,
        Err(e) => return crate::cli::bad_input("gensfen", e),
    };
    crate::attacks::init();
    crate::eval::init();
    eprintln!(
        "gensfen: {} games, {} a move, seed {}, {} threads, into {}",
        config.games,
        config.limit,
        config.seed,
        config.concurrency,
        config.out.display()
    );
    match run(&config, |l| eprintln!("{l}")) {
        Ok(s) => {
            let secs = (s.millis as f64 / 1000.0).max(1e-3);
            println!(
                "gensfen: {} positions from {} games in {:.1} s ({:.0} positions/s, {:.0} per thread); \
                 black {} white {} draws {}{}",
                s.positions,
                s.games,
                secs,
                s.positions as f64 / secs,
                s.positions as f64 / secs / config.concurrency.max(1) as f64,
                s.black_wins,
                s.white_wins,
                s.draws,
                if s.resumed_games > 0 {
                    format!("; {} games were already done", s.resumed_games)
                } else {
                    String::new()
                }
            );
            0
        }
        Err(e) => crate::cli::bad_input("gensfen", e),
    }
}

/// The generator's settings from the arguments (the net loaded, when one is named).
fn config_of(args: GensfenArgs) -> Result<GenConfig, String> {
    let limit = match (args.nodes, args.depth) {
        (_, Some(d)) => GenLimit::Depth(d),
        (Some(n), None) => GenLimit::Nodes(n),
        (None, None) => return Err("--nodes or --depth is required".into()),
    };
    let mut config = GenConfig {
        out: args.out.ok_or("--out is required")?,
        games: args.games.ok_or("--games is required")? as usize,
        limit,
        seed: args.seed.ok_or("--seed is required")?,
        concurrency: args.concurrency as usize,
        random_plies: args.random_plies,
        random_multipv: args.random_multipv as usize,
        random_margin: args.random_margin,
        eval_limit: args.eval_limit,
        min_ply: args.min_ply,
        keep_checks: args.keep_checks,
        max_plies: args.max_plies,
        hash_mib: args.hash as usize,
        eval: Evaluator::Linear,
        openings: match &args.openings {
            Some(path) => {
                Opening::load(path).map_err(|e| format!("--openings {}: {e}", path.display()))?
            }
            None => default_openings(),
        },
        time_limit: args.seconds.map(Duration::from_secs),
    };
    if let Some(path) = &args.eval.evalfile {
        config.eval = Evaluator::named(path, args.eval.fv_scale)
            .map_err(|e| format!("--evalfile {path}: {e}"))?
            .0;
    }
    Ok(config)
}

/// How well static evaluations predict search scores (both in centipawns for the side to
/// move).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    pub positions: usize,
    /// Pearson's correlation of evaluation and score.
    pub correlation: f64,
    /// Mean squared difference of the win rates (`win_rate::win_rate`) of both: the trainer's
    /// scale, so the figure is comparable with what a net learns.
    pub win_rate_error: f64,
    /// Root mean square of their difference, in centipawns.
    pub rms_difference: f64,
    pub mean_abs_eval: f64,
    pub mean_abs_score: f64,
}

/// The agreement of (evaluation, score) pairs.
pub fn agreement(pairs: &[(i32, i32)]) -> Agreement {
    let n = pairs.len().max(1) as f64;
    let mean = |f: &dyn Fn(&(i32, i32)) -> f64| pairs.iter().map(f).sum::<f64>() / n;
    let (me, ms) = (mean(&|p| p.0 as f64), mean(&|p| p.1 as f64));
    let cov = mean(&|p| (p.0 as f64 - me) * (p.1 as f64 - ms));
    let ve = mean(&|p| (p.0 as f64 - me).powi(2));
    let vs = mean(&|p| (p.1 as f64 - ms).powi(2));
    let rate = |cp: i32| crate::win_rate::win_rate(cp as f64);
    Agreement {
        positions: pairs.len(),
        correlation: if ve > 0.0 && vs > 0.0 {
            cov / (ve * vs).sqrt()
        } else {
            0.0
        },
        win_rate_error: mean(&|p| (rate(p.0) - rate(p.1)).powi(2)),
        rms_difference: mean(&|p| (p.0 as f64 - p.1 as f64).powi(2)).sqrt(),
        mean_abs_eval: mean(&|p| p.0.abs() as f64),
        mean_abs_score: mean(&|p| p.1.abs() as f64),
    }
}

/// `hayate gensfen --read FILE --evaluate EVAL [--against EVAL2]`: how well an evaluation
/// predicts the records' scores, or another evaluation's (positions that do not unpack
/// are skipped).
fn evaluate_cli(
    path: &Path,
    (count, skip): (u64, u64),
    eval: &str,
    against: Option<&str>,
    fv_scale: i32,
    quiet: bool,
) -> i32 {
    crate::attacks::init();
    crate::eval::init();
    let named = |name: &str| {
        Evaluator::named(name, fv_scale)
            .map(|(evaluator, _)| evaluator)
            .map_err(|e| crate::cli::bad_input("gensfen", format!("{name}: {e}")))
    };
    let evaluator = match named(eval) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let reference = match against.map(named).transpose() {
        Ok(e) => e,
        Err(code) => return code,
    };
    let records = match packed::read_file(path, skip, count) {
        Ok((records, _)) => records,
        Err(e) => return crate::cli::bad_input("gensfen", format!("{}: {e}", path.display())),
    };
    let pairs: Vec<(i32, i32)> = records
        .iter()
        .filter_map(|record| {
            let pos = packed::unpack(&record.sfen).ok()?;
            if quiet && !record.best_move_is_quiet(&pos) {
                return None;
            }
            let target = match &reference {
                Some(r) => r.evaluate(&pos),
                None => record.score as i32,
            };
            Some((evaluator.evaluate(&pos), target))
        })
        .collect();
    let a = agreement(&pairs);
    let (target, abs_name) = match against {
        Some(name) => (format!("{name}'s evaluation"), format!("|{name}|")),
        None => ("the search score".to_string(), "|score|".to_string()),
    };
    println!(
        "{eval}: {} positions, correlation with {target} {:.3}, \
         mean squared win-rate error {:.4}, rms difference {:.0} cp, mean |eval| {:.0}, \
         mean {abs_name} {:.0}",
        a.positions,
        a.correlation,
        a.win_rate_error,
        a.rms_difference,
        a.mean_abs_eval,
        a.mean_abs_score
    );
    0
}

/// `hayate gensfen --read FILE`: the records as text, one a line.
fn read_cli(path: &Path, count: u64, skip: u64) -> i32 {
    let (records, stray) = match packed::read_file(path, skip, count) {
        Ok(read) => read,
        Err(e) => return crate::cli::bad_input("gensfen", format!("{}: {e}", path.display())),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for record in &records {
        let line = match packed::unpack(&record.sfen) {
            Ok(pos) => {
                let mv = packed::move_from_u16(record.mv)
                    .filter(|m| pos.is_legal(*m))
                    .map_or_else(|| format!("?{:#06x}", record.mv), |m| m.to_string());
                let sfen = pos.to_string();
                let board_side_hand = sfen.rsplit_once(' ').map_or(sfen.as_str(), |(s, _)| s);
                format!(
                    "sfen {board_side_hand} {} score {} move {mv} result {}",
                    record.game_ply, record.score, record.game_result
                )
            }
            Err(e) => format!("bad record: {e}"),
        };
        if writeln!(out, "{line}").is_err() {
            return 0;
        }
    }
    if stray > 0 {
        eprintln!(
            "hayate gensfen: {} ends with {stray} stray bytes",
            path.display()
        );
    }
    0
}

#[cfg(test)]
mod tests {
    use super::agreement;

    #[test]
    fn agreement_of_evaluations_with_scores() {
        // Proportional: correlation 1; equal: no win-rate error.
        let a = agreement(&[(100, 200), (-50, -100), (300, 600)]);
        assert!((a.correlation - 1.0).abs() < 1e-12, "{a:?}");
        assert!(a.win_rate_error > 0.0);
        let a = agreement(&[(100, 100), (-40, -40), (0, 0)]);
        assert_eq!(a.win_rate_error, 0.0);
        assert_eq!(a.rms_difference, 0.0);
        assert_eq!(
            (a.mean_abs_eval, a.mean_abs_score),
            (140.0 / 3.0, 140.0 / 3.0)
        );
        // Differences 30 and 40: rms sqrt((900 + 1600) / 2).
        let a = agreement(&[(130, 100), (0, 40)]);
        assert!((a.rms_difference - 1250f64.sqrt()).abs() < 1e-9, "{a:?}");
        // Opposed: -1. sigmoid(600/600) - sigmoid(-1) = 0.4621..., squared = 0.2135...
        let a = agreement(&[(600, -600), (-600, 600)]);
        assert!((a.correlation + 1.0).abs() < 1e-12, "{a:?}");
        assert!((a.win_rate_error - 0.213_552).abs() < 1e-5, "{a:?}");
        // Constant evaluations have no correlation to speak of.
        assert_eq!(agreement(&[(5, 1), (5, 2)]).correlation, 0.0);
    }
}
