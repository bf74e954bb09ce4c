//! The `hayate match` command line.
//!
//! Options before the first `--engine` are global; `--name`, `--dir`, `--option` and the
//! time options after an `--engine <cmd>` belong to that engine. An engine's own time
//! options replace the global time control as a whole, so one engine can search by nodes
//! while the other plays on a clock.

use super::clock::TimeControl;
use super::engine::EngineSpec;
use super::game::{Adjudication, GameRules};
use super::opening::Opening;
use super::stats::Sprt;
use crate::position::EnteringKingRule;
use std::fmt;
use std::path::PathBuf;
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
    #[arg(long = "engine", value_name = "CMD", required = true)]
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
    /// others played; give the same engines and openings (--games may grow)
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

/// Splits an engine command line on whitespace; single or double quotes group words, a
/// backslash outside single quotes takes the next character literally.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                word.push(chars.next().ok_or("a backslash ends the command")?);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in '{text}'"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
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
pub fn parse(args: &[String]) -> Result<MatchConfig, CliError> {
    use clap::{Args as _, FromArgMatches as _};
    let command = MatchArgs::augment_args(clap::Command::new("match"));
    let matches = command
        .try_get_matches_from(std::iter::once("match".to_string()).chain(args.iter().cloned()))
        .map_err(|e| match e.kind() {
            clap::error::ErrorKind::DisplayHelp => CliError::Help,
            _ => invalid(e.render().to_string()),
        })?;
    let args = MatchArgs::from_arg_matches(&matches).map_err(|e| invalid(e.to_string()))?;
    from_matches(args, &matches)
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

/// The match from the parsed arguments (`matches`, what clap parsed them from, keeps each
/// value's position): each engine option goes to the `--engine` before it, the others
/// are global.
pub fn from_matches(args: MatchArgs, matches: &clap::ArgMatches) -> Result<MatchConfig, CliError> {
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
    let out = match (args.out, &args.resume) {
        (Some(out), Some(resume)) if out != *resume => {
            return Err(invalid(
                "--resume <dir> continues the records in <dir>; leave out --out or give the same folder",
            ))
        }
        (out, resume) => resume.clone().or(out),
    };
    Ok(MatchConfig {
        engines,
        openings,
        games,
        concurrency: args.concurrency as usize,
        rules,
        sprt,
        out,
        resume: args.resume.is_some(),
        quiet: args.quiet,
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
