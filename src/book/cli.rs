//! `hayate makebook` and `hayate bookinfo`: the command-line side of the book.

use super::make::{self, MakeOptions};
use super::Book;
use crate::position::PositionCommand;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `hayate makebook`: searches every position along the opening lines (one a line:
/// `startpos [moves ...]` or `sfen ... [moves ...]`, as `hayate match` reads them) to a
/// depth and writes a book in YaneuraOu's DB2016 text format, sorted by SFEN.
#[derive(clap::Args)]
#[command(args_override_self = true)]
#[command(
    after_help = "hayate makebook --synthetic <n> --out <file> [--seed <s>] writes <n> random \
positions with random legal moves instead (to measure loading large books)."
)]
pub struct MakebookArgs {
    /// The opening lines
    #[arg(long, required_unless_present = "synthetic")]
    openings: Option<PathBuf>,
    /// Search depth of each position (1-64)
    #[arg(long, required_unless_present = "synthetic", value_parser = clap::value_parser!(i32).range(1..=64))]
    depth: Option<i32>,
    /// The book to write
    #[arg(long)]
    out: PathBuf,
    /// Also follow hayate's best move this many plies past the end of each line (0-256)
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=256))]
    plies: u32,
    /// Moves kept per position, with their values (1-64)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    multipv: u16,
    /// Grow the book this many plies from each line's start: every book move within 50 cp
    /// of the best is played and the position reached searched (0-64)
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    tree: u32,
    /// Positions searched at once, one thread each (default: all cores)
    #[arg(long, value_parser = crate::cli::threads_arg())]
    threads: Option<u16>,
    /// Table size of each search in MiB
    #[arg(long, default_value_t = 16, value_parser = crate::cli::hash_arg())]
    hash: u32,
    /// Merge with this book: its entries are kept unless searched deeper
    #[arg(long)]
    extend: Option<PathBuf>,
    #[command(flatten)]
    eval: crate::cli::EvalArgs,
    /// Write this many random positions instead
    #[arg(long, conflicts_with_all = ["openings", "depth"])]
    synthetic: Option<usize>,
    /// Picks the random positions of --synthetic
    #[arg(long, default_value_t = 1, requires = "synthetic")]
    seed: u64,
}

/// Runs `hayate makebook`; `command_line` goes into the book's header. Returns the exit
/// code.
pub fn makebook_cli(args: MakebookArgs, command_line: &str) -> i32 {
    crate::attacks::init();
    if let Some(count) = args.synthetic {
        let started = Instant::now();
        return match make::synthetic(count, args.seed, &args.out) {
            Ok(bytes) => {
                println!(
                    "wrote {} ({count} positions, {bytes} bytes) in {} ms",
                    args.out.display(),
                    started.elapsed().as_millis()
                );
                0
            }
            Err(e) => crate::cli::failed("makebook", e),
        };
    }
    crate::eval::init();
    let (Some(openings), Some(depth)) = (args.openings, args.depth) else {
        return crate::cli::bad_input("makebook", "--openings and --depth are required");
    };
    let eval = match args.eval.load("makebook") {
        Ok(eval) => eval,
        Err(code) => return code,
    };
    let opts = MakeOptions {
        openings,
        depth,
        out: args.out,
        plies: args.plies,
        tree: args.tree,
        multipv: args.multipv as usize,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        ),
        hash_mib: args.hash as usize,
        extend: args.extend,
        eval,
        comments: vec![
            format!("made by hayate {} makebook", env!("CARGO_PKG_VERSION")),
            format!("hayate makebook {command_line}"),
        ],
    };
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
        Err(make::MakeError::Input(e)) => crate::cli::bad_input("makebook", e),
        Err(e) => crate::cli::failed("makebook", e),
    }
}

/// `hayate bookinfo`: loads a book as the engine does at isready and prints its size,
/// malformed lines, load time and memory; `--probe` prints its moves for a position.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct BookinfoArgs {
    /// The book (`internal` for the built-in one)
    file: String,
    /// A position: "startpos [moves ...]" or "sfen ... [moves ...]"
    #[arg(long)]
    probe: Option<String>,
}

/// Runs `hayate bookinfo`; returns the exit code.
pub fn bookinfo_cli(args: BookinfoArgs) -> i32 {
    let BookinfoArgs { file, probe } = args;
    crate::attacks::init();
    let rss_before = memory_kib("VmRSS");
    let started = Instant::now();
    let book = if file == super::player::INTERNAL {
        Book::internal()
    } else {
        match Book::open(Path::new(&file)) {
            Ok(b) => b,
            Err(e) => return crate::cli::failed("bookinfo", e),
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
        let pos = match PositionCommand::strict_position(&text) {
            Ok(pos) => pos,
            Err(e) => return crate::cli::bad_input("bookinfo", format!("--probe: {e}")),
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
            Err(e) => return crate::cli::failed("bookinfo", e),
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
