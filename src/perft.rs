//! Perft: counting the leaves of the legal move tree, the standard proof of a move
//! generator (compared against published counts) and a measure of its speed.

use crate::position::Position;
use crate::types::Move;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// How to count the last ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafMode {
    /// Count the legal moves at depth 1 without playing them.
    Bulk,
    /// Play and take back every move down to the leaves.
    Full,
}

/// Leaf count of the legal move tree below `pos` to `depth` plies.
///
/// On x86-64 CPUs with hardware popcount (nearly all made since 2009) this runs a copy of
/// the counting code compiled for those instructions, chosen at run time; the build itself
/// stays runnable on any x86-64.
pub fn perft(pos: &mut Position, depth: u32, mode: LeafMode) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("lzcnt")
        {
            // SAFETY: `perft_x86_v3` is compiled for popcnt, bmi1 and lzcnt, and the CPU was
            // just checked to support all three.
            return unsafe { perft_x86_v3(pos, depth, mode) };
        }
    }
    perft_portable(pos, depth, mode)
}

/// The body shared by every compiled copy of perft; `$recurse` is the copy itself.
macro_rules! perft_body {
    ($pos:ident, $depth:ident, $mode:ident, $recurse:expr) => {{
        if $depth == 0 {
            return 1;
        }
        if $depth == 1 && $mode == LeafMode::Bulk {
            return $pos.count_legal_inline() as u64;
        }
        let moves = $pos.legal_moves();
        let mut nodes = 0;
        for &mv in &moves {
            $pos.play_unchecked(mv);
            nodes += $recurse($pos, $depth - 1, $mode);
            $pos.undo();
        }
        nodes
    }};
}

fn perft_portable(pos: &mut Position, depth: u32, mode: LeafMode) -> u64 {
    perft_body!(pos, depth, mode, perft_portable)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,lzcnt")]
unsafe fn perft_x86_v3(pos: &mut Position, depth: u32, mode: LeafMode) -> u64 {
    // SAFETY: the recursion stays on the CPU that the caller checked.
    perft_body!(pos, depth, mode, |p, d, m| unsafe { perft_x86_v3(p, d, m) })
}

/// Per-root-move counts, sorted by USI move text, computed on `threads` threads.
pub fn divide(pos: &Position, depth: u32, mode: LeafMode, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let count = |&mv: &Move| {
        let mut p = pos.clone();
        p.clear_history();
        p.play_unchecked(mv);
        (mv, perft(&mut p, depth.saturating_sub(1), mode))
    };
    let mut results: Vec<(Move, u64)> = if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    } else {
        moves.iter().map(count).collect()
    };
    results.sort_by_key(|(mv, _)| mv.to_string());
    results
}

/// A finished perft run: total, per-move counts if asked, and timing.
pub struct PerftReport {
    pub nodes: u64,
    pub divide: Option<Vec<(Move, u64)>>,
    pub millis: u128,
}

impl PerftReport {
    /// Nodes per second (nodes when the run took under a millisecond).
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000 / self.millis.max(1)) as u64
    }

    /// The text both the command line and `go perft` print: one `<move> <count>` line per
    /// root move when dividing, then `nodes <N> time <ms> nps <N>`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if let Some(lines) = &self.divide {
            for (mv, n) in lines {
                let _ = writeln!(out, "{mv} {n}");
            }
        }
        let _ = write!(
            out,
            "nodes {} time {} nps {}",
            self.nodes,
            self.millis,
            self.nps()
        );
        out
    }
}

/// Depth at and below which [`perft_until`] counts a subtree without looking at its stop
/// flag: such a subtree takes well under a second, and the fast counter stays as it is.
const UNCHECKED_DEPTH: u32 = 3;

/// Like [`perft`], but gives up (`None`) soon after `stop` is set, so that a deep perft
/// asked over USI (`go perft 255`) can be stopped.
pub fn perft_until(
    pos: &mut Position,
    depth: u32,
    mode: LeafMode,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= UNCHECKED_DEPTH {
        return Some(perft(pos, depth, mode));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for &mv in &moves {
        pos.play_unchecked(mv);
        let below = perft_until(pos, depth - 1, mode, stop);
        pos.undo();
        nodes += below?;
    }
    Some(nodes)
}

/// A perft with per-move counts on one thread that `stop` can end (`None` then).
pub fn run_until(
    pos: &Position,
    depth: u32,
    mode: LeafMode,
    stop: &AtomicBool,
) -> Option<PerftReport> {
    crate::attacks::init();
    let start = Instant::now();
    let mut lines = Vec::new();
    if depth > 0 {
        for mv in pos.legal_moves() {
            let mut p = pos.clone();
            p.clear_history();
            p.play_unchecked(mv);
            lines.push((mv, perft_until(&mut p, depth - 1, mode, stop)?));
        }
    }
    lines.sort_by_key(|(mv, _)| mv.to_string());
    let nodes = if depth == 0 {
        1
    } else {
        lines.iter().map(|(_, n)| n).sum()
    };
    Some(PerftReport {
        nodes,
        divide: Some(lines),
        millis: start.elapsed().as_millis(),
    })
}

/// Runs perft, timing it. Root moves are split across threads when `threads > 1` or when
/// a divide is requested.
pub fn run(
    pos: &Position,
    depth: u32,
    mode: LeafMode,
    threads: usize,
    divide_out: bool,
) -> PerftReport {
    crate::attacks::init();
    let start = Instant::now();
    let (nodes, lines) = if depth == 0 {
        (1, Vec::new())
    } else if threads > 1 || divide_out {
        let lines = divide(pos, depth, mode, threads);
        (lines.iter().map(|(_, n)| n).sum(), lines)
    } else {
        let mut p = pos.clone();
        (perft(&mut p, depth, mode), Vec::new())
    };
    PerftReport {
        nodes,
        divide: divide_out.then_some(lines),
        millis: start.elapsed().as_millis(),
    }
}

/// `hayate perft`: count the leaf nodes of the legal move tree.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct PerftArgs {
    /// Depth in plies (0-20)
    #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Start position: an SFEN, or 'startpos' / 'sfen <SFEN>', either followed by 'moves
    /// ...' (default: the standard start)
    #[arg(long, value_parser = parse_sfen)]
    sfen: Option<Position>,
    /// Print each root move with its count
    #[arg(long)]
    divide: bool,
    /// Threads, splitting the root moves (1-1024)
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads_arg())]
    threads: u16,
    /// Play every leaf move instead of counting the last ply's moves
    #[arg(long)]
    full: bool,
}

fn parse_sfen(text: &str) -> Result<Position, String> {
    crate::position::PositionCommand::from_argument(text).map_err(|e| e.to_string())
}

/// Runs `hayate perft`; returns the exit code.
pub fn run_cli(args: PerftArgs) -> i32 {
    let pos = args.sfen.unwrap_or_else(Position::startpos);
    let mode = if args.full {
        LeafMode::Full
    } else {
        LeafMode::Bulk
    };
    let report = run(&pos, args.depth, mode, args.threads as usize, args.divide);
    println!("{}", report.to_text());
    0
}
