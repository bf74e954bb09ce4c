//! `hayate mate`: the solver on the command line, for one position or a file of problems
//! (the benchmark: solved count, total time and nodes).

use super::{solve, Limits, Outcome, Report, Table, DEFAULT_HASH_MIB};
use crate::cli::bad_input;
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// `hayate mate`: solve a mate problem, or a file of them (the mate benchmark).
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct MateArgs {
    /// The position, the attacker to move: an SFEN, or 'startpos' / 'sfen <SFEN>', either
    /// followed by 'moves ...' (default: such a line read from stdin)
    #[arg(long, conflicts_with = "file")]
    sfen: Option<String>,
    /// One problem a line: '<sfen>[<TAB><mate plies>[<TAB>...]]', '#' comments; prints a
    /// line per problem and the totals
    #[arg(long)]
    file: Option<String>,
    /// Time limit per problem in milliseconds (default: none)
    #[arg(long)]
    time: Option<u64>,
    /// Node limit per problem
    #[arg(long)]
    nodes: Option<u64>,
    /// Proof table size in MiB (at most the machine's memory)
    #[arg(long, default_value_t = DEFAULT_HASH_MIB as u64, value_parser = clap::value_parser!(u64).range(1..))]
    hash: u64,
    /// With --file, only problems whose listed mate is at most this long
    #[arg(long)]
    max_plies: Option<usize>,
    /// Stop at the first mate proved, without the search for shorter ones (the time to a
    /// first mate, as a benchmark measures it)
    #[arg(long)]
    first: bool,
    /// Milliseconds the search for shorter mates may take after the first mate, within
    /// --time (default: four times the first proof's time, plus 100)
    #[arg(long, conflicts_with = "first")]
    shorter_time: Option<u64>,
}

/// The text of an outcome as `go mate` answers it.
pub fn outcome_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Mate(line) => {
            let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            format!("checkmate {}", moves.join(" "))
        }
        Outcome::NoMate => "checkmate nomate".to_string(),
        Outcome::Unknown => "checkmate timeout".to_string(),
    }
}

/// Runs `hayate mate`; returns the exit code.
pub fn run_cli(a: MateArgs) -> i32 {
    crate::attacks::init();
    let limits = Limits {
        time: a.time.map(Duration::from_millis),
        nodes: a.nodes,
        shortest: !a.first,
        shorter_time: a.shorter_time.map(Duration::from_millis),
    };
    let mut table = match Table::try_new(a.hash.min(usize::MAX as u64) as usize) {
        Ok(t) => t,
        Err(e) => return bad_input("mate", format!("--hash {}: {e}", a.hash)),
    };
    if let Some(file) = &a.file {
        return run_file(file, &a, limits, &mut table);
    }
    let text = match &a.sfen {
        Some(s) => s.clone(),
        None => {
            let mut line = String::new();
            if std::io::stdin().read_line(&mut line).is_err() {
                return bad_input("mate", "could not read a position from stdin");
            }
            line
        }
    };
    let pos = match crate::position::PositionCommand::from_argument(&text) {
        Ok(p) => p,
        Err(e) => return bad_input("mate", e),
    };
    let stop = AtomicBool::new(false);
    let report = solve(&pos, &mut table, limits, &stop, |p| {
        let plies = p.plies.map_or(String::new(), |n| format!(" mate {n}"));
        eprintln!(
            "info nodes {} time {} hashfull {}{plies}",
            p.nodes,
            p.elapsed.as_millis(),
            p.hashfull
        )
    });
    println!("{}", outcome_text(&report.outcome));
    if let Outcome::Mate(line) = &report.outcome {
        println!("{}", super::length_text(&report, line));
    }
    println!("{}", totals(&report));
    0
}

fn totals(r: &Report) -> String {
    format!(
        "nodes {} time {} ms nps {} hashfull {}",
        r.nodes,
        r.elapsed.as_millis(),
        r.nps(),
        r.hashfull
    )
}

/// Solves every problem of a file and prints the totals.
fn run_file(path: &str, a: &MateArgs, limits: Limits, table: &mut Table) -> i32 {
    let text = match crate::files::read_text(std::path::Path::new(path)) {
        Ok(t) => t,
        Err(e) => return bad_input("mate", format!("cannot read {path}: {e}")),
    };
    let stop = AtomicBool::new(false);
    let (mut count, mut solved, mut within_listed, mut nodes) = (0, 0, 0, 0u64);
    let mut elapsed = Duration::ZERO;
    let mut slowest = (Duration::ZERO, 0usize);
    let mut first_total = Duration::ZERO;
    let mut first_slowest = Duration::ZERO;
    let mut final_total = Duration::ZERO;
    let mut skipped = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let sfen = fields.next().unwrap_or("");
        let listed: Option<usize> = fields.next().and_then(|f| f.trim().parse().ok());
        if let (Some(max), Some(len)) = (a.max_plies, listed) {
            if len > max {
                continue;
            }
        }
        let pos: Position = match sfen.parse() {
            Ok(p) => p,
            Err(e) => {
                println!("line {}: bad sfen ({e}), skipped", number + 1);
                skipped += 1;
                continue;
            }
        };
        count += 1;
        table.clear();
        let report = solve(&pos, table, limits, &stop, |_| {});
        nodes += report.nodes;
        elapsed += report.elapsed;
        if report.elapsed > slowest.0 {
            slowest = (report.elapsed, number + 1);
        }
        if let Some(t) = report.first_mate {
            first_total += t;
            first_slowest = first_slowest.max(t);
        }
        if let Some(t) = report.final_mate {
            final_total += t;
        }
        let result = match &report.outcome {
            Outcome::Mate(l) => {
                solved += 1;
                let plies = report.plies.map_or(l.len(), |p| p as usize);
                if listed.is_some_and(|n| plies <= n) {
                    within_listed += 1;
                }
                format!("mate {plies}")
            }
            Outcome::NoMate => "nomate".to_string(),
            Outcome::Unknown => "unsolved".to_string(),
        };
        let listed_text = listed.map_or("?".to_string(), |n| n.to_string());
        let millis = |t: Option<Duration>| t.map_or("-".to_string(), |t| t.as_millis().to_string());
        let first = millis(report.first_mate);
        let last = millis(report.final_mate);
        println!(
            "line {:>3}: listed {:>4} plies, {:<10}{} {:>10} nodes {:>7} ms (first mate {first} ms, this length {last} ms) {:>7} nps",
            number + 1,
            listed_text,
            result,
            if report.shortest {
                " shortest"
            } else {
                "         "
            },
            report.nodes,
            report.elapsed.as_millis(),
            report.nps()
        );
    }
    let skipped_text = if skipped > 0 {
        format!(", {skipped} skipped (bad sfen)")
    } else {
        String::new()
    };
    println!(
        "solved {solved}/{count} ({within_listed} no longer than listed{skipped_text}), {nodes} nodes, \
         {} ms total, slowest {} ms (line {}), {} nps; first mates: {} ms total, slowest {} ms; \
         the lengths reported: {} ms total",
        elapsed.as_millis(),
        slowest.0.as_millis(),
        slowest.1,
        super::nps(nodes, elapsed),
        first_total.as_millis(),
        first_slowest.as_millis(),
        final_total.as_millis()
    );
    0
}
