//! The `hayate match` command line.
//!
//! Options before the first `--engine` are global; `--name`, `--dir`, `--option` and the
//! time options after an `--engine <cmd>` belong to that engine. An engine's own time
//! options replace the global time control as a whole, so one engine can search by nodes
//! while the other plays on a clock.

use super::clock::TimeControl;
use super::game::{Adjudication, GameRules};
use super::opening::Opening;
use super::stats::Sprt;
use crate::position::EnteringKingRule;
pub use crate::usi_client::split_command;
use crate::usi_client::EngineSpec;
use clap::parser::ValueSource;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `hayate match`: games between two USI engines, refereed; the first engine's results
/// are reported (engine 1 against engine 2).
///
/// `--name`, `--dir`, `--option` and the time options after an `--engine` belong to that
/// engine; `--option` and time options before the first `--engine` apply to both. An
/// engine's own time options replace the global ones entirely.
#[derive(clap::Args)]
#[command(args_override_self = true)]
#[command(after_help = "\
--name, --dir, --option and the time options after an --engine belong to that engine; \
--option and time options before the first --engine apply to both. An engine's own time \
options replace the global ones entirely. The first engine's results are reported.

example: hayate match --byoyomi 100 --engine target/release/hayate \
--engine \"python3 my_engine.py --fast\" --openings openings.sfen --games 200")]
pub struct MatchArgs {
    /// An engine's command line as one argument; quotes inside it group words (give two)
    #[arg(
        long = "engine",
        value_name = "CMD",
        required_unless_present = "resume"
    )]
    engines: Vec<String>,
    /// The engine's name in output and records (default: its id name)
    #[arg(long = "name")]
    names: Vec<String>,
    /// The engine process's working directory
    #[arg(long = "dir")]
    dirs: Vec<PathBuf>,
    /// A setoption sent after usiok, Name=Value (no '=' for a button)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Byoyomi per move in ms (after --time if given)
    #[arg(long, value_name = "MS")]
    byoyomi: Vec<u64>,
    /// Main time per game in ms
    #[arg(long, value_name = "MS")]
    time: Vec<u64>,
    /// Fischer increment in ms, usable by the move it comes with
    #[arg(long, value_name = "MS")]
    inc: Vec<u64>,
    /// A fixed node limit per move (go nodes), no clock
    #[arg(long)]
    nodes: Vec<u64>,
    /// A fixed depth per move (go depth), no clock
    #[arg(long)]
    depth: Vec<u32>,
    /// Games to play (default: two per opening)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// Lines 'startpos [moves ...]' or 'sfen ... [moves ...]'; each opening is played
    /// twice with colours swapped
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games at once, each with its own engine processes
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    concurrency: u64,
    /// Time over the clock allowed before a loss on time, ms
    #[arg(long, default_value_t = 500)]
    margin: u64,
    /// Wait for a --nodes/--depth move, ms
    #[arg(long, default_value_t = 60_000)]
    move_timeout: u64,
    /// Wait for usiok and readyok, ms
    #[arg(long, default_value_t = 10_000)]
    ready_timeout: u64,
    /// Draw after this many plies, opening included (0: no limit)
    #[arg(long, default_value_t = 512)]
    max_moves: u32,
    /// Entering-king rule for 'bestmove win': NoEnteringKing, CSARule24, CSARule24H,
    /// CSARule27, CSARule27H, TryRule
    #[arg(long, default_value = "CSARule27", value_parser = parse_rule)]
    rule: EnteringKingRule,
    /// Adjudicate a loss when both engines' scores agree the side is at least this many
    /// centipawns down for --resign-moves moves each
    #[arg(long, value_name = "CP", allow_negative_numbers = true)]
    resign_score: Option<i32>,
    #[arg(long, default_value_t = 3)]
    resign_moves: u32,
    /// Adjudicate a draw when both scores stay within this many centipawns for
    /// --draw-moves moves each, from ply --draw-after
    #[arg(long, value_name = "CP", allow_negative_numbers = true)]
    draw_score: Option<i32>,
    #[arg(long, default_value_t = 8)]
    draw_moves: u32,
    #[arg(long, default_value_t = 80)]
    draw_after: u32,
    /// Stop when the SPRT between these Elo hypotheses decides
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,
    /// The SPRT's false-positive rate
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's false-negative rate
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Where games.csa and games.jsonl go (default: a new match-<date>-<time> folder)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the match recorded in this folder: its finished games are kept, the
    /// others played. Alone it runs the folder's recorded command; --games may grow the
    /// match, --concurrency and --quiet apply to this run, other options are refused
    /// unless the whole command is given again as recorded
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// Only the final summary
    #[arg(long)]
    quiet: bool,
}

fn parse_rule(text: &str) -> Result<EnteringKingRule, String> {
    text.parse()
}

/// A command line that cannot be run, or a request for help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    /// `--help`: not an error (clap prints the help).
    Help,
    Invalid(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Help => f.write_str("help requested (hayate match --help)"),
            CliError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CliError {}

fn invalid(message: impl Into<String>) -> CliError {
    CliError::Invalid(message.into())
}

/// Everything a match needs, from the command line.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub openings: Vec<Opening>,
    pub games: usize,
    pub concurrency: usize,
    pub rules: GameRules,
    pub sprt: Option<Sprt>,
    pub out: Option<PathBuf>,
    /// `out` holds an interrupted match to continue (`--resume`).
    pub resume: bool,
    pub quiet: bool,
    /// The command to record in the output folder ([`COMMAND_FILE`]) before the first
    /// game, so that `--resume DIR` alone can continue the match; `None` records nothing.
    pub command: Option<RecordedCommand>,
}

/// The file in a match's folder that records the match's command.
pub const COMMAND_FILE: &str = "command.json";

/// Flags that `--resume` takes besides the recorded command: `--games` (recorded, a match
/// may grow), `--concurrency` and `--quiet` (this run only: they change no game), and
/// `--out` (only the same folder).
const RESUME_MAY_GIVE: [&str; 4] = ["games", "concurrency", "quiet", "out"];

/// A match's command line as recorded in its folder ([`COMMAND_FILE`]).
///
/// The words are kept as given, relative paths included, and the working directory
/// beside them: an engine command is free text (a bare `hayate` is found on the PATH,
/// `python3 x.py` names a script among its words), so no rewriting into absolute paths
/// could be both complete and right. A resume from the same directory reads the same
/// files; from another, the runner says where the match started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedCommand {
    /// The arguments after `match`, without `--resume`.
    pub args: Vec<String>,
    /// The working directory the match was started in.
    pub cwd: String,
}

impl RecordedCommand {
    /// `args` as run from the current directory, `--resume` and its folder left out.
    fn here(args: &[String]) -> RecordedCommand {
        let mut kept = Vec::new();
        let mut words = args.iter();
        while let Some(word) = words.next() {
            if word == "--resume" {
                words.next();
            } else if !word.starts_with("--resume=") {
                kept.push(word.clone());
            }
        }
        RecordedCommand {
            args: kept,
            cwd: current_dir(),
        }
    }

    /// The command recorded in `dir`, `None` when the folder has none (a match from
    /// before commands were recorded, or no match at all).
    fn read(dir: &Path) -> Result<Option<RecordedCommand>, CliError> {
        let path = dir.join(COMMAND_FILE);
        let bytes = match crate::files::read_regular(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(invalid(format!("--resume: {}: {e}", path.display()))),
        };
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| invalid(format!("--resume: {}: {e}", path.display())))
    }

    /// The record as the file holds it.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a command always serialises") + "\n"
    }
}

/// The current directory as text, empty when it cannot be read.
pub fn current_dir() -> String {
    std::env::current_dir()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl MatchConfig {
    /// The opening of game `index` (0-based): each opening is played by a pair of games,
    /// the colours swapped, and the openings are used in turn.
    pub fn opening_of(&self, index: usize) -> usize {
        (index / 2) % self.openings.len()
    }
}

/// Time options as given, before deciding which apply to an engine.
#[derive(Clone, Debug, Default)]
struct TimeArgs {
    time: Option<u64>,
    inc: Option<u64>,
    byoyomi: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
}

impl TimeArgs {
    fn is_empty(&self) -> bool {
        self.time.is_none()
            && self.inc.is_none()
            && self.byoyomi.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }

    fn control(&self) -> TimeControl {
        TimeControl {
            time_ms: self.time.unwrap_or(0),
            inc_ms: self.inc.unwrap_or(0),
            byoyomi_ms: self.byoyomi.unwrap_or(0),
            nodes: self.nodes,
            depth: self.depth,
        }
    }
}

/// One `--engine` and the options after it.
#[derive(Default)]
struct EngineArgs {
    spec: EngineSpec,
    time: TimeArgs,
}

/// A default name for an engine: the program's file stem, or the script's when the
/// program is an interpreter (`python3 fake.py` is "fake"). The engine's `id name`
/// replaces it when the engine reports one.
fn default_name(command: &[String]) -> String {
    const INTERPRETERS: [&str; 8] = [
        "python", "python3", "pypy3", "node", "ruby", "perl", "sh", "bash",
    ];
    let stem = |word: &str| {
        std::path::Path::new(word)
            .file_stem()
            .map_or(word.to_string(), |s| s.to_string_lossy().into_owned())
    };
    let program = stem(command.first().map(String::as_str).unwrap_or("engine"));
    match command.get(1) {
        Some(script) if INTERPRETERS.contains(&program.as_str()) && !script.starts_with('-') => {
            stem(script)
        }
        _ => program,
    }
}

/// Parses the arguments after `match` (as `hayate match` gets them; for tests and tools
/// that build a match from words).
pub fn parse(words: &[String]) -> Result<MatchConfig, CliError> {
    let (args, matches) = clap_parse(words)?;
    from_matches(args, &matches, words)
}

/// The clap command of `hayate match` on its own.
fn command() -> clap::Command {
    use clap::Args as _;
    MatchArgs::augment_args(clap::Command::new("match"))
}

/// The arguments after `match`, parsed by clap.
fn clap_parse(words: &[String]) -> Result<(MatchArgs, clap::ArgMatches), CliError> {
    use clap::FromArgMatches as _;
    let matches = command()
        .try_get_matches_from(std::iter::once("match".to_string()).chain(words.iter().cloned()))
        .map_err(|e| match e.kind() {
            clap::error::ErrorKind::DisplayHelp => CliError::Help,
            _ => invalid(e.render().to_string()),
        })?;
    let args = MatchArgs::from_arg_matches(&matches).map_err(|e| invalid(e.to_string()))?;
    Ok((args, matches))
}

/// Whether the option `id` (a field of [`MatchArgs`]) was on the command line.
fn given(matches: &clap::ArgMatches, id: &str) -> bool {
    matches.value_source(id) == Some(ValueSource::CommandLine)
}

/// The match from the parsed arguments (`matches`, what clap parsed them from, keeps each
/// value's position; `words`, the arguments after `match`, are what gets recorded).
///
/// With `--resume DIR`, the command recorded in DIR is the match: given alone, or with
/// only the flags of [`RESUME_MAY_GIVE`], it is run as recorded (a new `--games` is
/// recorded too); given with the whole command, that command must make the same match.
/// A folder with no recorded command needs the whole command, which is then recorded.
pub fn from_matches(
    args: MatchArgs,
    matches: &clap::ArgMatches,
    words: &[String],
) -> Result<MatchConfig, CliError> {
    let Some(dir) = args.resume.clone() else {
        let mut config = build(args, matches)?;
        config.command = Some(RecordedCommand::here(words));
        return Ok(config);
    };
    if args.out.as_ref().is_some_and(|out| *out != dir) {
        return Err(invalid(
            "--resume <dir> continues the records in <dir>; leave out --out or give the same folder",
        ));
    }
    let whole = given(matches, "engines");
    let games = given(matches, "games").then_some(args.games).flatten();
    let concurrency = given(matches, "concurrency").then_some(args.concurrency);
    let quiet = args.quiet;
    let record_path = dir.join(COMMAND_FILE);
    let mut config = match RecordedCommand::read(&dir)? {
        None if !whole => {
            return Err(invalid(format!(
                "--resume {}: the folder has no recorded command ({} is missing: a match \
                 started before hayate recorded its command, or no match at all); give the \
                 whole command again with --resume",
                dir.display(),
                record_path.display()
            )))
        }
        None => {
            let mut config = build(args, matches)?;
            config.command = Some(RecordedCommand::here(words));
            config
        }
        Some(recorded) => resumed(args, matches, &dir, recorded, whole, games)?,
    };
    if let Some(games) = games {
        config.games = games as usize;
    }
    if let Some(concurrency) = concurrency {
        config.concurrency = concurrency as usize;
    }
    config.quiet |= quiet;
    config.out = Some(dir);
    config.resume = true;
    Ok(config)
}

/// The match recorded in `dir` (`recorded`), resumed: the arguments given with `--resume`
/// are either the whole command as recorded (`whole`) or only those that may change
/// ([`RESUME_MAY_GIVE`]); a new `--games` is written into the record.
fn resumed(
    args: MatchArgs,
    matches: &clap::ArgMatches,
    dir: &std::path::Path,
    mut recorded: RecordedCommand,
    whole: bool,
    games: Option<u64>,
) -> Result<MatchConfig, CliError> {
    let record_path = dir.join(COMMAND_FILE);
    let from_record = |e: CliError| {
        invalid(format!(
            "--resume: the command recorded in {}: {e}",
            record_path.display()
        ))
    };
    let (mut rec_args, rec_matches) = clap_parse(&recorded.args).map_err(from_record)?;
    // The folder is where it is now, whatever it was called when the match began.
    rec_args.out = None;
    rec_args.resume = None;
    let config = build(rec_args, &rec_matches).map_err(from_record)?;
    let may_give = "with --resume only --games, --concurrency and --quiet may be \
                    given, or else the whole command as recorded";
    if whole {
        let changed = differences(&config, &build(args, matches)?);
        if !changed.is_empty() {
            return Err(invalid(format!(
                "--resume {}: {} differ(s) from the command recorded in {} ({may_give})",
                dir.display(),
                changed.join(", "),
                record_path.display()
            )));
        }
    } else {
        let refused: Vec<String> = command()
            .get_arguments()
            .filter(|a| {
                let id = a.get_id().as_str();
                id != "resume" && !RESUME_MAY_GIVE.contains(&id) && given(matches, id)
            })
            .map(|a| format!("--{}", a.get_long().unwrap_or(a.get_id().as_str())))
            .collect();
        if !refused.is_empty() {
            return Err(invalid(format!(
                "--resume {}: {} cannot be given: the match is the one recorded in {} \
                 ({may_give})",
                dir.display(),
                refused.join(", "),
                record_path.display()
            )));
        }
    }
    if let Some(games) = games.filter(|&g| g as usize != config.games) {
        // The last --games counts, so the record now says the new size.
        recorded
            .args
            .extend(["--games".to_string(), games.to_string()]);
    }
    Ok(MatchConfig {
        command: Some(recorded),
        ..config
    })
}

/// The options whose values differ between two matches, as flags: all but `--games`,
/// `--concurrency`, `--quiet` and the folder, which may change when a match is resumed.
fn differences(a: &MatchConfig, b: &MatchConfig) -> Vec<String> {
    let mut changed: Vec<&str> = Vec::new();
    let mut differ = |flag, x: bool| {
        if x && !changed.contains(&flag) {
            changed.push(flag);
        }
    };
    // Each struct taken apart whole, so a new field cannot be left out of the comparison.
    let MatchConfig {
        engines,
        openings,
        games: _,
        concurrency: _,
        rules,
        sprt,
        out: _,
        resume: _,
        quiet: _,
        command: _,
    } = a;
    for (x, y) in engines.iter().zip(&b.engines) {
        let EngineSpec {
            name,
            name_given,
            command,
            dir,
            options,
            tc,
        } = x;
        differ("--engine", *command != y.command);
        differ(
            "--name",
            *name_given != y.name_given || (*name_given && *name != y.name),
        );
        differ("--dir", *dir != y.dir);
        differ("--option", *options != y.options);
        let TimeControl {
            time_ms,
            inc_ms,
            byoyomi_ms,
            nodes,
            depth,
        } = tc;
        differ("--time", *time_ms != y.tc.time_ms);
        differ("--inc", *inc_ms != y.tc.inc_ms);
        differ("--byoyomi", *byoyomi_ms != y.tc.byoyomi_ms);
        differ("--nodes", *nodes != y.tc.nodes);
        differ("--depth", *depth != y.tc.depth);
    }
    let lines = |o: &[Opening]| o.iter().map(|o| o.to_string()).collect::<Vec<_>>();
    differ("--openings", lines(openings) != lines(&b.openings));
    let GameRules {
        rule,
        max_moves,
        margin_ms,
        move_timeout_ms,
        ready_timeout,
        resign,
        draw,
    } = rules;
    differ("--rule", *rule != b.rules.rule);
    differ("--max-moves", *max_moves != b.rules.max_moves);
    differ("--margin", *margin_ms != b.rules.margin_ms);
    differ(
        "--move-timeout",
        *move_timeout_ms != b.rules.move_timeout_ms,
    );
    differ("--ready-timeout", *ready_timeout != b.rules.ready_timeout);
    // An adjudication or SPRT on one side only differs in its main flag; the others count
    // where both have one.
    differ(
        "--resign-score",
        resign.is_some() != b.rules.resign.is_some(),
    );
    if let (Some(x), Some(y)) = (resign, b.rules.resign) {
        differ("--resign-score", x.score_cp != y.score_cp);
        differ("--resign-moves", x.moves != y.moves);
    }
    differ("--draw-score", draw.is_some() != b.rules.draw.is_some());
    if let (Some(x), Some(y)) = (draw, b.rules.draw) {
        differ("--draw-score", x.score_cp != y.score_cp);
        differ("--draw-moves", x.moves != y.moves);
        differ("--draw-after", x.after_ply != y.after_ply);
    }
    differ("--sprt", sprt.is_some() != b.sprt.is_some());
    if let (Some(x), Some(y)) = (sprt, b.sprt) {
        differ("--sprt", (x.elo0, x.elo1) != (y.elo0, y.elo1));
        differ("--alpha", x.alpha != y.alpha);
        differ("--beta", x.beta != y.beta);
    }
    changed.into_iter().map(String::from).collect()
}

/// The values of a repeated option with their positions on the command line.
fn placed<T: Clone + Send + Sync + 'static>(
    matches: &clap::ArgMatches,
    id: &str,
) -> Vec<(usize, T)> {
    match (matches.get_many::<T>(id), matches.indices_of(id)) {
        (Some(values), Some(indices)) => indices.zip(values.cloned()).collect(),
        _ => Vec::new(),
    }
}

/// The match the parsed arguments describe, `--resume` aside: each engine option goes to
/// the `--engine` before it, the others are global.
fn build(args: MatchArgs, matches: &clap::ArgMatches) -> Result<MatchConfig, CliError> {
    let engine_at: Vec<usize> = matches
        .indices_of("engines")
        .map(|i| i.collect())
        .unwrap_or_default();
    // The engine an option at `index` belongs to: the last --engine before it.
    let owner = |index: usize| engine_at.iter().rposition(|&at| at < index);

    let mut engines: Vec<EngineArgs> = Vec::new();
    for text in &args.engines {
        let command = split_command(text).map_err(invalid)?;
        engines.push(EngineArgs {
            spec: EngineSpec {
                name: default_name(&command),
                command,
                ..EngineSpec::default()
            },
            time: TimeArgs::default(),
        });
    }
    for (index, name) in placed::<String>(matches, "names") {
        let engine = owner(index).ok_or_else(|| invalid("--name belongs after an --engine"))?;
        engines[engine].spec.name = name;
        engines[engine].spec.name_given = true;
    }
    for (index, dir) in placed::<PathBuf>(matches, "dirs") {
        let engine = owner(index).ok_or_else(|| invalid("--dir belongs after an --engine"))?;
        engines[engine].spec.dir = Some(dir);
    }
    let mut global_options: Vec<(String, Option<String>)> = Vec::new();
    let mut own_options: Vec<Vec<(String, Option<String>)>> = vec![Vec::new(); engines.len()];
    for (index, text) in placed::<String>(matches, "options") {
        let pair = match text.split_once('=') {
            Some((n, v)) => (n.trim().to_string(), Some(v.to_string())),
            None => (text.trim().to_string(), None),
        };
        if pair.0.is_empty() {
            return Err(invalid(format!("--option '{text}': no option name")));
        }
        match owner(index) {
            Some(engine) => own_options[engine].push(pair),
            None => global_options.push(pair),
        }
    }
    for (engine, own) in engines.iter_mut().zip(own_options) {
        engine.spec.options = global_options.iter().cloned().chain(own).collect();
    }
    // Each time option into the time control of its engine, or the global one.
    let mut global_time = TimeArgs::default();
    let mut place_time = |values: Vec<(usize, u64)>, set: fn(&mut TimeArgs, u64)| {
        for (index, value) in values {
            let time = match owner(index) {
                Some(engine) => &mut engines[engine].time,
                None => &mut global_time,
            };
            set(time, value);
        }
    };
    place_time(placed(matches, "byoyomi"), |t, v| t.byoyomi = Some(v));
    place_time(placed(matches, "time"), |t, v| t.time = Some(v));
    place_time(placed(matches, "inc"), |t, v| t.inc = Some(v));
    place_time(placed(matches, "nodes"), |t, v| t.nodes = Some(v));
    let depths = placed::<u32>(matches, "depth");
    // A depth came in as a u32, so it goes back losslessly.
    place_time(
        depths.into_iter().map(|(i, d)| (i, u64::from(d))).collect(),
        |t, v| t.depth = Some(v as u32),
    );

    if engines.len() != 2 {
        return Err(invalid(format!(
            "a match needs exactly two --engine options, got {}",
            engines.len()
        )));
    }
    let mut specs = Vec::new();
    for (i, mut engine) in engines.into_iter().enumerate() {
        let time = if engine.time.is_empty() {
            &global_time
        } else {
            &engine.time
        };
        engine.spec.tc = time.control();
        engine.spec.tc.validate().map_err(|e| {
            invalid(format!(
                "engine {} ({}): {e}; time options before the first --engine apply to both",
                i + 1,
                engine.spec.name
            ))
        })?;
        specs.push(engine.spec);
    }
    let engines: [EngineSpec; 2] = specs.try_into().expect("two engines");

    let openings = match &args.openings {
        Some(path) => {
            Opening::load(path).map_err(|e| invalid(format!("openings {}: {e}", path.display())))?
        }
        None => vec![Opening::startpos()],
    };
    let games = args.games.map_or(2 * openings.len(), |g| g as usize);
    let rules = GameRules {
        rule: args.rule,
        max_moves: (args.max_moves > 0).then_some(args.max_moves),
        margin_ms: args.margin,
        move_timeout_ms: args.move_timeout,
        ready_timeout: Duration::from_millis(args.ready_timeout),
        resign: args.resign_score.map(|cp| Adjudication {
            score_cp: cp.abs(),
            moves: args.resign_moves.max(1),
            after_ply: 0,
        }),
        draw: args.draw_score.map(|cp| Adjudication {
            score_cp: cp.abs(),
            moves: args.draw_moves.max(1),
            after_ply: args.draw_after,
        }),
    };
    let sprt = match args.sprt.as_deref() {
        None => None,
        Some(&[elo0, elo1]) => {
            if elo0 >= elo1 {
                return Err(invalid("--sprt needs elo0 < elo1"));
            }
            let in_range = |p: f64| p > 0.0 && p < 0.5;
            if !in_range(args.alpha) || !in_range(args.beta) {
                return Err(invalid("--alpha and --beta must lie between 0 and 0.5"));
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha: args.alpha,
                beta: args.beta,
            })
        }
        Some(_) => return Err(invalid("--sprt takes two values, elo0 and elo1")),
    };
    Ok(MatchConfig {
        engines,
        openings,
        games,
        concurrency: args.concurrency as usize,
        rules,
        sprt,
        out: args.out,
        resume: false,
        quiet: args.quiet,
        command: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        split_command(text).unwrap()
    }

    #[test]
    fn command_lines_split_with_quotes() {
        assert_eq!(
            args("python3 fake.py crash"),
            ["python3", "fake.py", "crash"]
        );
        assert_eq!(
            args(r#"  "my engine" --flag='a b' c\ d "#),
            ["my engine", "--flag=a b", "c d"]
        );
        assert_eq!(args(r#"a "" b"#), ["a", "", "b"]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn per_engine_options_follow_their_engine() {
        let c = parse(&args(
            "--byoyomi 100 --option USI_Hash=16 \
             --engine 'target/release/hayate' --name A --option Threads=2 \
             --engine 'python3 x.py normal' --nodes 500 --dir /tmp --option Clear \
             --games 4 --concurrency 2 --rule csarule24 --sprt 0 10 --alpha 0.1 --margin=50",
        ))
        .unwrap();
        let [a, b] = &c.engines;
        assert_eq!(a.name, "A");
        assert!(a.name_given && !b.name_given);
        assert_eq!(b.name, "x", "the script's name, not the interpreter's");
        assert_eq!(a.command, ["target/release/hayate"]);
        assert_eq!(
            a.options,
            [
                ("USI_Hash".to_string(), Some("16".to_string())),
                ("Threads".to_string(), Some("2".to_string()))
            ]
        );
        assert_eq!(b.options[1], ("Clear".to_string(), None));
        assert_eq!(a.tc.byoyomi_ms, 100);
        assert_eq!((b.tc.nodes, b.tc.byoyomi_ms), (Some(500), 0));
        assert_eq!(b.dir, Some(PathBuf::from("/tmp")));
        assert_eq!((c.games, c.concurrency, c.rules.margin_ms), (4, 2, 50));
        assert_eq!(c.rules.rule, EnteringKingRule::CsaRule24);
        let sprt = c.sprt.unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (0.0, 10.0, 0.1, 0.05)
        );
        assert_eq!(c.openings.len(), 1);
        let c = parse(&args(
            "--depth 7 --engine a --engine b --byoyomi 5 --time 60000",
        ))
        .unwrap();
        assert_eq!(
            (c.engines[0].tc.depth, c.engines[0].tc.byoyomi_ms),
            (Some(7), 0)
        );
        assert_eq!(
            (
                c.engines[1].tc.depth,
                c.engines[1].tc.byoyomi_ms,
                c.engines[1].tc.time_ms
            ),
            (None, 5, 60_000)
        );
        assert_eq!(c.games, 2);
    }

    #[test]
    fn a_resumed_match_may_change_only_its_size_and_pace() {
        let base = "--byoyomi 100 --engine a --option Hash=16 --engine 'b c' \
                    --resign-score 900 --draw-score 5";
        let a = parse(&args(base)).unwrap();
        let changed =
            |extra: &str| differences(&a, &parse(&args(&format!("{base} {extra}"))).unwrap());
        for (extra, flag) in [
            ("--name b", "--name"),
            ("--dir /tmp", "--dir"),
            ("--option Hash=32", "--option"),
            ("--byoyomi 5", "--byoyomi"),
            ("--rule TryRule", "--rule"),
            ("--max-moves 9", "--max-moves"),
            ("--margin 9", "--margin"),
            ("--move-timeout 9", "--move-timeout"),
            ("--ready-timeout 9", "--ready-timeout"),
            ("--resign-score 800", "--resign-score"),
            ("--resign-moves 9", "--resign-moves"),
            ("--draw-score 6", "--draw-score"),
            ("--draw-moves 9", "--draw-moves"),
            ("--draw-after 9", "--draw-after"),
            ("--sprt 0 5", "--sprt"),
        ] {
            assert_eq!(changed(extra), [flag], "{extra}");
        }
        assert!(changed("--games 9 --concurrency 3 --quiet --out x").is_empty());
        let diff =
            |x: &str, y: &str| differences(&parse(&args(x)).unwrap(), &parse(&args(y)).unwrap());
        for (x, y, flag) in [
            ("--byoyomi 5", "--time 9 --byoyomi 5", "--time"),
            ("--inc 5", "--inc 6", "--inc"),
            ("--nodes 5", "--nodes 6", "--nodes"),
            ("--depth 5", "--depth 6", "--depth"),
            (
                "--nodes 5 --sprt 0 5",
                "--nodes 5 --sprt 0 5 --alpha 0.1",
                "--alpha",
            ),
            (
                "--nodes 5 --sprt 0 5",
                "--nodes 5 --sprt 0 5 --beta 0.1",
                "--beta",
            ),
        ] {
            let whole = |tc: &str| format!("{tc} --engine a --engine b");
            assert_eq!(diff(&whole(x), &whole(y)), [flag], "{y}");
        }
        let other = parse(&args("--byoyomi 100 --engine x --engine 'b c'")).unwrap();
        assert_eq!(
            differences(&a, &other),
            ["--engine", "--option", "--resign-score", "--draw-score"]
        );
        // What gets recorded: the words as given, without --resume.
        let words = args("--engine a --resume d --engine b --resume=e --games 4");
        assert_eq!(
            RecordedCommand::here(&words).args,
            args("--engine a --engine b --games 4")
        );
    }

    #[test]
    fn bad_command_lines_are_explained() {
        let err = |text: &str| match parse(&args(text)) {
            Err(CliError::Invalid(m)) => m,
            other => panic!("{text}: {other:?}"),
        };
        assert!(err("--engine a --byoyomi 10").contains("exactly two"));
        // The global time control must come first: engine 1 has none here.
        assert!(err("--engine a --engine b --byoyomi 10").contains("engine 1 (a)"));
        assert!(err("--name x --engine a --engine b").contains("after an --engine"));
        assert!(err("--byoyomi x --engine a --engine b").contains("'x'"));
        assert!(err("--byoyomi 1 --engine a --engine b --nodes 5 --time 9").contains("either"));
        assert!(err("--byoyomi 1 --engine a --engine b --frobnicate").contains("--frobnicate"));
        assert!(err("--byoyomi 1 --engine a --engine b --sprt 5 0").contains("elo0 < elo1"));
        assert!(err("--byoyomi 1 --engine a --engine b --rule x").contains("entering-king"));
        assert!(
            err("--byoyomi 1 --engine a --engine b --openings /no/such").contains("cannot read")
        );
        assert_eq!(parse(&args("--help")).unwrap_err(), CliError::Help);
    }
}
