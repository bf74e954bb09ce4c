//! `hayate bench`: searches a fixed set of varied positions to a fixed depth on a fresh
//! table and prints the total nodes and speed. With one thread the node count is the same
//! on every run and machine, so it identifies the search: commits that change the search
//! or the evaluation quote it.
//!
//! `--movetime ms` searches each position for a fixed time instead. The node count then
//! varies, but every thread count gets the same time on the same positions, which is the
//! fair way to measure how the node rate scales with threads: a fixed depth ends each
//! short search with threads idling while the last one finishes its iteration.

use crate::position::PositionCommand;
use crate::search::{Event, Reporter, Settings};
use crate::threads::ThreadPool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Default search depth of the bench.
pub const DEFAULT_DEPTH: i32 = 12;

/// The bench positions: openings, middle games, an attack on the king, a handicap game,
/// an entering-king race and endgames with many pieces in hand.
pub const POSITIONS: [&str; 12] = [
    "startpos",
    "startpos moves 2g2f 3c3d 5i6h 5a5b 2f2e 2b3c 2h2f 8c8d 6h7h 3a3b 2f5f 7a6b 3i3h 9c9d 6i6h 7c7d",
    "startpos moves 7g7f 7a7b 5i5h 3c3d 3i4h 5a5b 8h7g 2b7g+ 8i7g 3a2b",
    "startpos moves 7g7f 8c8d 2g2f 8d8e 8h7g 3c3d 7i8h 4a3b 2f2e 2b7g+ 8h7g 3a2b 3i4h 7a7b",
    "sfen ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "sfen ln1g1g1nl/1ks2r3/1pppp1bpp/p3spp2/9/P1P1SP1PP/1P1PP1P2/1BK1GR3/LNSG3NL b - 1",
    "sfen 8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn2p 1",
    "sfen lR6l/4gk3/3psg1p1/p1p1ppp1p/3n3P1/P1PPP1P1P/1PSGSP3/1KG6/LN5NL b BSNbrp 1",
    "sfen 3g1ks2/6g2/4S4/7B1/9/9/9/9/9 b G2rb2s4n4l18p 1",
    "sfen l2g4l/4g1k2/2n1sp1p1/p1pps1p1p/1p5P1/P1PPSPP1P/1PS1G2R1/1K1G5/LN6L w RBNPbnp 1",
];

/// How long each bench position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchLimit {
    /// To this depth: the same nodes on every run with one thread.
    Depth(i32),
    /// For this many milliseconds.
    Movetime(u64),
}

impl BenchLimit {
    fn settings(self) -> Settings {
        match self {
            BenchLimit::Depth(depth) => Settings::fixed_depth(depth),
            BenchLimit::Movetime(ms) => {
                let mut settings = Settings::fixed_depth(MAX_DEPTH);
                settings.limits.movetime = Some(ms);
                settings
            }
        }
    }
}

impl std::fmt::Display for BenchLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchLimit::Depth(d) => write!(f, "depth {d}"),
            BenchLimit::Movetime(ms) => write!(f, "movetime {ms} ms"),
        }
    }
}

/// The depth cap of a timed bench search (the time runs out long before it).
const MAX_DEPTH: i32 = 64;

/// Totals of one bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub millis: u64,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.millis.max(1)
    }
}

/// Searches every bench position within `limit` with `threads` threads and a `hash_mib`
/// table cleared before each position. `line` receives a line of text per position.
pub fn run(
    limit: BenchLimit,
    threads: usize,
    hash_mib: usize,
    eval: &crate::eval::Evaluator,
    mut line: impl FnMut(&str),
) -> BenchResult {
    let mut pool = ThreadPool::new(threads, hash_mib).expect("a table for the bench");
    let mut total = BenchResult {
        nodes: 0,
        millis: 0,
    };
    for (i, text) in POSITIONS.iter().enumerate() {
        let pos = PositionCommand::strict_position(text).expect("bench positions are valid");
        pool.clear();
        let last: Arc<Mutex<(u64, String)>> = Arc::new(Mutex::new((0, String::new())));
        let sink = last.clone();
        let reporter: Reporter = Arc::new(move |event| {
            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
            match event {
                Event::Progress(p) => s.0 = p.nodes,
                Event::BestMove { decision, .. } => s.1 = decision.to_string(),
            }
        });
        let mut settings = limit.settings();
        settings.eval = eval.clone();
        let started = Instant::now();
        pool.start(pos, settings, reporter);
        pool.wait();
        let millis = started.elapsed().as_millis() as u64;
        let (reported, best) = last.lock().unwrap_or_else(|e| e.into_inner()).clone();
        // A timed search is cut off inside an iteration whose nodes its last report
        // does not count; a fixed depth counts what its last iteration reported (the
        // bench signature).
        let nodes = match limit {
            BenchLimit::Depth(_) => reported,
            BenchLimit::Movetime(_) => pool.nodes().max(reported),
        };
        total.nodes += nodes;
        total.millis += millis;
        line(&format!(
            "position {:>2}: {:>10} nodes {:>6} ms  {}",
            i + 1,
            nodes,
            millis,
            best
        ));
    }
    total
}

/// `hayate bench`: search the bench positions; the last line is `<nodes> nodes <nps> nps`.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct BenchArgs {
    /// Depth of each search (1-64; default 12)
    #[arg(value_parser = clap::value_parser!(i32).range(1..=MAX_DEPTH as i64))]
    depth: Option<i32>,
    /// Search each position this many milliseconds instead of to a depth
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Search threads (1-1024)
    #[arg(long, default_value_t = 1, value_parser = crate::cli::threads_arg())]
    threads: u16,
    /// Transposition table in MiB (at most the machine's memory)
    #[arg(long, default_value_t = 64, value_parser = crate::cli::hash_arg())]
    hash: u32,
    #[command(flatten)]
    eval: crate::cli::EvalArgs,
}

/// Runs `hayate bench`; returns the exit code.
pub fn run_cli(args: BenchArgs) -> i32 {
    let limit = match (args.depth, args.movetime) {
        (_, Some(ms)) => BenchLimit::Movetime(ms),
        (depth, None) => BenchLimit::Depth(depth.unwrap_or(DEFAULT_DEPTH)),
    };
    let (threads, hash, fv_scale) = (
        args.threads as usize,
        args.hash as usize,
        args.eval.fv_scale,
    );
    let eval_file = args.eval.evalfile.as_deref();
    if let Err(e) = crate::memory::AllocError::check("hash table", hash) {
        return crate::cli::bad_input("bench", format!("--hash {hash}: {e}"));
    }
    crate::attacks::init();
    crate::eval::init();
    let eval = match crate::cli::evaluator("bench", eval_file, fv_scale) {
        Ok(eval) => eval,
        Err(code) => return code,
    };
    if let crate::eval::Evaluator::Nnue { net, .. } = &eval {
        let arch = net.arch().name();
        let name = eval_file.unwrap_or(crate::eval::LINEAR);
        println!("evaluation: {arch} from {name}, FV_SCALE {fv_scale}");
    }
    let result = run(limit, threads, hash, &eval, |l| println!("{l}"));
    println!("{limit} threads {threads} time {} ms", result.millis);
    println!("{} nodes {} nps", result.nodes, result.nps());
    0
}
