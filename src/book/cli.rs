//! `hayate makebook` and `hayate bookinfo`: the command-line side of the book.

use super::make::{self, MakeOptions};
use super::Book;
use crate::position::PositionCommand;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const MAKEBOOK_USAGE: &str = "\
usage: hayate makebook --openings <file> --depth <d> --out <file> [options]
       hayate makebook --synthetic <n> --out <file> [--seed <s>]

Searches every position along the opening lines (one per line: 'startpos [moves ...]' or
'sfen ... [moves ...]', as hayate match reads them) to depth <d> and writes a book in the
YaneuraOu DB2016 text format, sorted by SFEN.

options:
  --plies <p>       also follow hayate's best move <p> plies past the end of each line (0)
  --multipv <k>     moves kept per position, with their values (1)
  --tree <t>        grow the book <t> plies from each line's start: every book move within
                    50 cp of the best is played and the position reached searched (0)
  --threads <n>     positions searched at once, one thread each (all cores)
  --hash <mib>      table size of each search (16)
  --extend <file>   merge with this book: its entries are kept unless searched deeper
  --synthetic <n>   write <n> random positions with random legal moves instead (to
                    measure loading large books); --seed <s> picks them (1)";

pub const BOOKINFO_USAGE: &str = "\
usage: hayate bookinfo <file> [--probe \"startpos [moves ...]\" | --probe \"sfen ... [moves ...]\"]

Loads a book as the engine does at isready and prints its size, malformed lines, load
time and memory; --probe prints the book's moves for a position.";

/// `hayate makebook ...`. Returns the exit code.
pub fn makebook_cli(args: &[String]) -> i32 {
    match parse_makebook(args) {
        Ok(Command::Help) => {
            println!("{MAKEBOOK_USAGE}");
            0
        }
        Ok(Command::Synthetic { count, seed, out }) => {
            crate::attacks::init();
            let started = Instant::now();
            match make::synthetic(count, seed, &out) {
                Ok(bytes) => {
                    println!(
                        "wrote {} ({count} positions, {bytes} bytes) in {} ms",
                        out.display(),
                        started.elapsed().as_millis()
                    );
                    0
                }
                Err(e) => {
                    eprintln!("hayate makebook: {e}");
                    1
                }
            }
        }
        Ok(Command::Make(mut opts)) => {
            crate::attacks::init();
            crate::eval::init();
            opts.comments = vec![
                format!("made by hayate {} makebook", env!("CARGO_PKG_VERSION")),
                format!("hayate makebook {}", args.join(" ")),
            ];
            let log = |l: &str| eprintln!("makebook: {l}");
            match make::make(&opts, &log) {
                Ok(s) => {
                    println!(
                        "wrote {}: {} positions ({} searched, {} kept from the old book) \
                         from {} positions reached; {} nodes in {} ms",
                        opts.out.display(),
                        s.written,
                        s.searched,
                        s.kept,
                        s.positions,
                        s.nodes,
                        s.millis
                    );
                    0
                }
                Err(e) => {
                    eprintln!("hayate makebook: {e}");
                    1
                }
            }
        }
        Err(e) => {
            eprintln!("hayate makebook: {e}\n\n{MAKEBOOK_USAGE}");
            2
        }
    }
}

enum Command {
    Help,
    Make(MakeOptions),
    Synthetic {
        count: usize,
        seed: u64,
        out: PathBuf,
    },
}

fn parse_makebook(args: &[String]) -> Result<Command, String> {
    let mut openings = None;
    let mut depth = None;
    let mut out = None;
    let mut plies = 0u32;
    let mut tree = 0u32;
    let mut multipv = 1usize;
    let mut threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut hash = 16usize;
    let mut extend = None;
    let mut synthetic = None;
    let mut seed = 1u64;
    let mut i = 0;
    while i < args.len() {
        let key = args[i].as_str();
        if matches!(key, "--help" | "-h") {
            return Ok(Command::Help);
        }
        let value = args
            .get(i + 1)
            .map(String::as_str)
            .ok_or_else(|| format!("{key} needs a value"))?;
        fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("{key}: '{v}' is not a valid number"))
        }
        match key {
            "--openings" => openings = Some(PathBuf::from(value)),
            "--depth" => depth = Some(number::<i32>(key, value)?),
            "--out" => out = Some(PathBuf::from(value)),
            "--plies" => plies = number::<u32>(key, value)?.min(256),
            "--tree" => tree = number::<u32>(key, value)?.min(64),
            "--multipv" => multipv = number::<usize>(key, value)?.clamp(1, 64),
            "--threads" => threads = number::<usize>(key, value)?.clamp(1, 1024),
            "--hash" => hash = number::<usize>(key, value)?.clamp(1, 1 << 20),
            "--extend" => extend = Some(PathBuf::from(value)),
            "--synthetic" => synthetic = Some(number::<usize>(key, value)?),
            "--seed" => seed = number::<u64>(key, value)?,
            other => return Err(format!("unexpected argument '{other}'")),
        }
        i += 2;
    }
    let out = out.ok_or("--out <file> is required")?;
    if let Some(count) = synthetic {
        return Ok(Command::Synthetic { count, seed, out });
    }
    let depth = depth.ok_or("--depth <d> is required")?;
    if !(1..=64).contains(&depth) {
        return Err(format!("--depth {depth} is outside 1..64"));
    }
    Ok(Command::Make(MakeOptions {
        openings: openings.ok_or("--openings <file> is required")?,
        depth,
        out,
        plies,
        tree,
        multipv,
        threads,
        hash_mib: hash,
        extend,
        comments: Vec::new(),
    }))
}

/// `hayate bookinfo <file> [--probe <position>]`. Returns the exit code.
pub fn bookinfo_cli(args: &[String]) -> i32 {
    let mut file = None;
    let mut probe = None;
    let mut i = 0;
    while i < args.len() {
        match (args[i].as_str(), args.get(i + 1)) {
            ("--help" | "-h", _) => {
                println!("{BOOKINFO_USAGE}");
                return 0;
            }
            ("--probe", Some(p)) => {
                probe = Some(p.clone());
                i += 1;
            }
            (f, _) if file.is_none() && !f.starts_with("--") => file = Some(f.to_string()),
            (other, _) => {
                eprintln!("hayate bookinfo: unexpected argument '{other}'\n\n{BOOKINFO_USAGE}");
                return 2;
            }
        }
        i += 1;
    }
    let Some(file) = file else {
        eprintln!("hayate bookinfo: which book?\n\n{BOOKINFO_USAGE}");
        return 2;
    };
    crate::attacks::init();
    let rss_before = memory_kib("VmRSS");
    let started = Instant::now();
    let book = if file == super::player::INTERNAL {
        Book::internal()
    } else {
        match Book::open(Path::new(&file)) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("hayate bookinfo: {e}");
                return 1;
            }
        }
    };
    let millis = started.elapsed().as_millis();
    println!(
        "{}: {} positions, {} malformed lines",
        book.name(),
        book.len(),
        book.error_count()
    );
    for e in book.errors().iter().take(20) {
        println!("  {e}");
    }
    println!(
        "loaded in {millis} ms; index {} KiB",
        book.index_bytes().div_ceil(1024)
    );
    if let (Some(before), Some(after), Some(peak)) =
        (rss_before, memory_kib("VmRSS"), memory_kib("VmHWM"))
    {
        println!(
            "resident memory {:.1} MiB ({:.1} MiB for the book), peak {:.1} MiB",
            after as f64 / 1024.0,
            after.saturating_sub(before) as f64 / 1024.0,
            peak as f64 / 1024.0
        );
    }
    if let Some(text) = probe {
        let pos = match PositionCommand::parse_strict(&text) {
            Ok(c) => c.position(),
            Err(e) => {
                eprintln!("hayate bookinfo: --probe: {e}");
                return 2;
            }
        };
        let started = Instant::now();
        match book.probe(&pos) {
            Ok(moves) => {
                println!(
                    "{} book moves for {pos} ({} us):",
                    moves.len(),
                    started.elapsed().as_micros()
                );
                for m in moves {
                    println!("  {m}");
                }
            }
            Err(e) => {
                eprintln!("hayate bookinfo: {e}");
                return 1;
            }
        }
    }
    0
}

/// A `/proc/self/status` field in KiB (Linux; `None` elsewhere).
fn memory_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
