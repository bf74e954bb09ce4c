//! `hayate mate`: the solver on the command line, for one position or a file of problems
//! (the benchmark: solved count, total time and nodes).

use super::{solve, Limits, Outcome, Report, Table, DEFAULT_HASH_MIB};
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const USAGE: &str = "\
usage: hayate mate [--sfen \"<sfen>\" | --file <file>] [--time <ms>] [--nodes <n>]
                   [--hash <mib>] [--max-plies <n>]
  --sfen      the position (the attacker to move); default: read one SFEN from stdin
  --file      one problem a line: '<sfen>[<TAB><mate plies>[<TAB>...]]', '#' comments;
              prints a line per problem and the totals (the mate benchmark)
  --time      time limit per problem in milliseconds (default: none)
  --nodes     node limit per problem
  --hash      proof table size in MiB (default 256)
  --max-plies with --file, only problems whose listed mate is at most this long";

struct Args {
    sfen: Option<String>,
    file: Option<String>,
    time: Option<u64>,
    nodes: Option<u64>,
    hash: usize,
    max_plies: Option<usize>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        sfen: None,
        file: None,
        time: None,
        nodes: None,
        hash: DEFAULT_HASH_MIB,
        max_plies: None,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{flag}: expected a number, got '{v}'"))
        };
        match flag {
            "--sfen" => a.sfen = Some(value.clone()),
            "--file" => a.file = Some(value.clone()),
            "--time" => a.time = Some(number(value)?),
            "--nodes" => a.nodes = Some(number(value)?),
            "--hash" => a.hash = number(value)?.max(1) as usize,
            "--max-plies" => a.max_plies = Some(number(value)? as usize),
            _ => return Err(format!("unknown option '{flag}'")),
        }
        i += 2;
    }
    Ok(a)
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
pub fn run_cli(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return 0;
    }
    let a = match parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("hayate mate: {e}\n{USAGE}");
            return 2;
        }
    };
    crate::attacks::init();
    let limits = Limits {
        time: a.time.map(Duration::from_millis),
        nodes: a.nodes,
        shortest: true,
    };
    let mut table = match Table::try_new(a.hash) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hayate mate: --hash {}: {e}", a.hash);
            return 2;
        }
    };
    if let Some(file) = &a.file {
        return run_file(file, &a, limits, &mut table);
    }
    let text = match &a.sfen {
        Some(s) => s.clone(),
        None => {
            let mut line = String::new();
            if std::io::stdin().read_line(&mut line).is_err() {
                eprintln!("hayate mate: could not read a position from stdin");
                return 2;
            }
            line
        }
    };
    let pos: Position = match text.trim().trim_start_matches("sfen ").parse() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("hayate mate: bad sfen: {e}");
            return 2;
        }
    };
    let stop = AtomicBool::new(false);
    let report = solve(&pos, &mut table, limits, &stop, |p| {
        eprintln!(
            "info nodes {} time {} hashfull {}",
            p.nodes,
            p.elapsed.as_millis(),
            p.hashfull
        )
    });
    println!("{}", outcome_text(&report.outcome));
    if let Outcome::Mate(line) = &report.outcome {
        println!("mate in {} plies", line.len());
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
fn run_file(path: &str, a: &Args, limits: Limits, table: &mut Table) -> i32 {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hayate mate: cannot read {path}: {e}");
            return 2;
        }
    };
    let stop = AtomicBool::new(false);
    let (mut count, mut solved, mut within_listed, mut nodes) = (0, 0, 0, 0u64);
    let mut elapsed = Duration::ZERO;
    let mut slowest = (Duration::ZERO, 0usize);
    let mut first_total = Duration::ZERO;
    let mut first_slowest = Duration::ZERO;
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
        let result = match &report.outcome {
            Outcome::Mate(l) => {
                solved += 1;
                if listed.is_some_and(|n| l.len() <= n) {
                    within_listed += 1;
                }
                format!("mate {}", l.len())
            }
            Outcome::NoMate => "nomate".to_string(),
            Outcome::Unknown => "unsolved".to_string(),
        };
        let listed_text = listed.map_or("?".to_string(), |n| n.to_string());
        let first = report
            .first_mate
            .map_or("-".to_string(), |t| t.as_millis().to_string());
        println!(
            "line {:>3}: listed {:>3} plies, {:<10}{} {:>9} nodes {:>7} ms (first mate {first} ms)",
            number + 1,
            listed_text,
            result,
            if report.shortest {
                " shortest"
            } else {
                "         "
            },
            report.nodes,
            report.elapsed.as_millis()
        );
    }
    println!(
        "solved {solved}/{count} ({within_listed} no longer than listed), {nodes} nodes, \
         {} ms total, slowest {} ms (line {}), {} nps; first mates: {} ms total, slowest {} ms",
        elapsed.as_millis(),
        slowest.0.as_millis(),
        slowest.1,
        super::nps(nodes, elapsed),
        first_total.as_millis(),
        first_slowest.as_millis()
    );
    0
}
