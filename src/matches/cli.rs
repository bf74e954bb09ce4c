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
use std::str::FromStr;
use std::time::Duration;

pub const USAGE: &str = "\
usage: hayate match --engine <cmd> [engine options] --engine <cmd> [engine options] [options]

Plays games between two USI engines; the first engine's results are reported
(engine 1 against engine 2). <cmd> is a command line (quote it as one argument:
--engine \"python3 my_engine.py --fast\"); quotes inside it group words.

engine options (after its --engine; --option and time options also before the
first --engine, for both engines):
  --name <name>              name in output and records (default: the engine's id name)
  --dir <dir>                working directory of the engine process
  --option <Name>=<Value>    setoption sent after usiok (repeatable; no '=' for a button)
time control (an engine's own time options replace the global ones entirely):
  --byoyomi <ms>             byoyomi per move (after --time if given)
  --time <ms>                main time per game
  --inc <ms>                 Fischer increment, usable by the move it comes with
  --nodes <n>  --depth <n>   fixed search limits (go nodes / go depth), no clock
match options:
  --games <n>                games to play (default: two per opening)
  --openings <file>          lines 'startpos [moves ...]' or 'sfen ... [moves ...]';
                             each opening is played twice with colours swapped
  --concurrency <k>          games at once, each with its own engine processes (default 1)
  --margin <ms>              time over the clock allowed before a loss on time (default 500)
  --move-timeout <ms>        wait for a --nodes/--depth move (default 60000)
  --ready-timeout <ms>       wait for usiok and readyok (default 10000)
  --max-moves <plies>        draw after this many plies, opening included (default 512)
  --rule <name>              entering-king rule for 'bestmove win': NoEnteringKing,
                             CSARule24, CSARule24H, CSARule27 (default), CSARule27H, TryRule
  --resign-score <cp> [--resign-moves <n>]
                             adjudicate a loss when both engines' scores agree the side
                             is at least <cp> down for <n> moves each (default 3)
  --draw-score <cp> [--draw-moves <n>] [--draw-after <ply>]
                             adjudicate a draw when both scores stay within <cp> for <n>
                             moves each (default 8), from ply <ply> (default 80)
  --sprt <elo0> <elo1> [--alpha <a>] [--beta <b>]
                             stop when the SPRT decides (alpha, beta default 0.05)
  --out <dir>                where games.csa and games.jsonl go (default: a new
                             match-<date>-<time> folder in the current directory)
  --resume <dir>             continue the match recorded in <dir>: its finished games
                             are kept and not played again, the others are played;
                             give the same engines and openings (--games may grow)
  --quiet                    only the final summary";

/// A command line that cannot be run, or a request for help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CliError {
    /// `--help`: not an error, the caller prints [`USAGE`].
    Help,
    Invalid(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Help => f.write_str(USAGE),
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

/// The value after an option, parsed.
fn value<T: FromStr>(key: &str, text: Option<String>) -> Result<T, CliError> {
    let text = text.ok_or_else(|| invalid(format!("{key} needs a value")))?;
    text.parse()
        .map_err(|_| invalid(format!("{key}: cannot use '{text}'")))
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

/// Parses the arguments after `match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, CliError> {
    let mut engines: Vec<EngineArgs> = Vec::new();
    let mut global_time = TimeArgs::default();
    let mut global_options: Vec<(String, Option<String>)> = Vec::new();
    let mut games: Option<usize> = None;
    let mut openings_path: Option<PathBuf> = None;
    let mut concurrency = 1usize;
    let mut rules = GameRules {
        rule: EnteringKingRule::CsaRule27,
        max_moves: Some(512),
        margin_ms: 500,
        move_timeout_ms: 60_000,
        ready_timeout: Duration::from_secs(10),
        resign: None,
        draw: None,
    };
    let mut resign_score: Option<i32> = None;
    let mut resign_moves = 3u32;
    let mut draw_score: Option<i32> = None;
    let mut draw_moves = 8u32;
    let mut draw_after = 80u32;
    let mut sprt: Option<(f64, f64)> = None;
    let mut alpha = 0.05f64;
    let mut beta = 0.05f64;
    let mut out = None;
    let mut resume = None;
    let mut quiet = false;

    let mut args = args.iter().cloned();
    while let Some(arg) = args.next() {
        // `--key=value` is the same as `--key value`.
        let (key, mut inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut next = || inline.take().or_else(|| args.next());
        let current = engines.last_mut();
        match key.as_str() {
            "--help" | "-h" => return Err(CliError::Help),
            "--engine" => {
                let text: String = value("--engine", next())?;
                let command = split_command(&text).map_err(invalid)?;
                let spec = EngineSpec {
                    name: default_name(&command),
                    command,
                    options: global_options.clone(),
                    ..EngineSpec::default()
                };
                engines.push(EngineArgs {
                    spec,
                    time: TimeArgs::default(),
                });
            }
            "--name" | "--dir" => {
                let text: String = value(&key, next())?;
                let engine =
                    current.ok_or_else(|| invalid(format!("{key} belongs after an --engine")))?;
                if key == "--name" {
                    engine.spec.name = text;
                    engine.spec.name_given = true;
                } else {
                    engine.spec.dir = Some(PathBuf::from(text));
                }
            }
            "--option" => {
                let text: String = value("--option", next())?;
                let pair = match text.split_once('=') {
                    Some((n, v)) => (n.trim().to_string(), Some(v.to_string())),
                    None => (text.trim().to_string(), None),
                };
                if pair.0.is_empty() {
                    return Err(invalid(format!("--option '{text}': no option name")));
                }
                match current {
                    Some(engine) => engine.spec.options.push(pair),
                    None => global_options.push(pair),
                }
            }
            "--byoyomi" | "--time" | "--inc" | "--nodes" | "--depth" => {
                let time = match current {
                    Some(engine) => &mut engine.time,
                    None => &mut global_time,
                };
                match key.as_str() {
                    "--byoyomi" => time.byoyomi = Some(value(&key, next())?),
                    "--time" => time.time = Some(value(&key, next())?),
                    "--inc" => time.inc = Some(value(&key, next())?),
                    "--nodes" => time.nodes = Some(value(&key, next())?),
                    _ => time.depth = Some(value(&key, next())?),
                }
            }
            "--games" => games = Some(value(&key, next())?),
            "--openings" => openings_path = Some(value::<PathBuf>(&key, next())?),
            "--concurrency" => concurrency = value(&key, next())?,
            "--margin" => rules.margin_ms = value(&key, next())?,
            "--move-timeout" => rules.move_timeout_ms = value(&key, next())?,
            "--ready-timeout" => rules.ready_timeout = Duration::from_millis(value(&key, next())?),
            "--max-moves" => {
                let n: u32 = value(&key, next())?;
                rules.max_moves = (n > 0).then_some(n);
            }
            "--rule" => {
                let text: String = value(&key, next())?;
                rules.rule = text.parse().map_err(invalid)?;
            }
            "--resign-score" => resign_score = Some(value(&key, next())?),
            "--resign-moves" => resign_moves = value(&key, next())?,
            "--draw-score" => draw_score = Some(value(&key, next())?),
            "--draw-moves" => draw_moves = value(&key, next())?,
            "--draw-after" => draw_after = value(&key, next())?,
            "--sprt" => {
                let elo0: f64 = value("--sprt elo0", next())?;
                let elo1: f64 = value("--sprt elo1", args.next())?;
                sprt = Some((elo0, elo1));
            }
            "--alpha" => alpha = value(&key, next())?,
            "--beta" => beta = value(&key, next())?,
            "--out" => out = Some(value::<PathBuf>(&key, next())?),
            "--resume" => resume = Some(value::<PathBuf>(&key, next())?),
            "--quiet" => quiet = true,
            other => return Err(invalid(format!("unknown option '{other}' (see --help)"))),
        }
    }

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

    let openings = match &openings_path {
        Some(path) => {
            Opening::load(path).map_err(|e| invalid(format!("openings {}: {e}", path.display())))?
        }
        None => vec![Opening::startpos()],
    };
    let games = games.unwrap_or(2 * openings.len());
    if games == 0 {
        return Err(invalid("--games must be at least 1"));
    }
    if concurrency == 0 {
        return Err(invalid("--concurrency must be at least 1"));
    }
    if let Some(cp) = resign_score {
        rules.resign = Some(Adjudication {
            score_cp: cp.abs(),
            moves: resign_moves.max(1),
            after_ply: 0,
        });
    }
    if let Some(cp) = draw_score {
        rules.draw = Some(Adjudication {
            score_cp: cp.abs(),
            moves: draw_moves.max(1),
            after_ply: draw_after,
        });
    }
    let sprt = match sprt {
        None => None,
        Some((elo0, elo1)) => {
            if elo0 >= elo1 {
                return Err(invalid("--sprt needs elo0 < elo1"));
            }
            let in_range = |p: f64| p > 0.0 && p < 0.5;
            if !in_range(alpha) || !in_range(beta) {
                return Err(invalid("--alpha and --beta must lie between 0 and 0.5"));
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
        }
    };
    let resuming = resume.is_some();
    let out = match (out, resume) {
        (Some(out), Some(resume)) if out != resume => {
            return Err(invalid(
                "--resume <dir> continues the records in <dir>; leave out --out or give the same folder",
            ))
        }
        (out, resume) => resume.or(out),
    };
    Ok(MatchConfig {
        engines,
        openings,
        games,
        concurrency,
        rules,
        sprt,
        out,
        resume: resuming,
        quiet,
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
        assert!(err("--byoyomi x --engine a --engine b").contains("cannot use 'x'"));
        assert!(err("--byoyomi 1 --engine a --engine b --nodes 5 --time 9").contains("either"));
        assert!(err("--byoyomi 1 --engine a --engine b --frobnicate").contains("unknown"));
        assert!(err("--byoyomi 1 --engine a --engine b --sprt 5 0").contains("elo0 < elo1"));
        assert!(err("--byoyomi 1 --engine a --engine b --rule x").contains("entering-king"));
        assert!(
            err("--byoyomi 1 --engine a --engine b --openings /no/such").contains("cannot read")
        );
        assert_eq!(parse(&args("--help")).unwrap_err(), CliError::Help);
    }
}
