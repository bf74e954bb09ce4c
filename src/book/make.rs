//! Making books: every position along a file of opening lines (and, with `plies`, the
//! positions reached by following hayate's best move further) is searched to a fixed
//! depth and written as a sorted DB2016 book.
//!
//! Each position is searched on its own, from its bare SFEN (no game history), by a
//! one-thread search on a freshly cleared table: the result depends only on the position
//! and the depth, so a book comes out the same whatever the thread count. Positions are
//! shared out over `threads` such searches at once, which scales better than one search
//! on many threads.
//!
//! A book entry holds the `multipv` best moves with their values; a move's count is 1
//! plus the number of opening lines that play it there, so choices lean to the moves the
//! lines favour.

use super::format::{self, position_sfen, BookEntry, BookMove};
use crate::matches::opening::Opening;
use crate::position::Position;
use crate::rng::Rng;
use crate::search::score::{self, UsiScore};
use crate::search::{Event, Progress, Reporter, ScoreBound, Settings};
use crate::threads::ThreadPool;
use crate::types::Move;
use std::collections::{HashMap, HashSet};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How far below the best value a move may be and still be followed by `tree`.
pub const TREE_EVAL_DIFF: i32 = 50;

/// The book value written for a mate: this minus the plies to mate.
pub const MATE_VALUE: i32 = 32_000;

/// What `hayate makebook` was asked to do.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    pub openings: PathBuf,
    pub depth: i32,
    pub out: PathBuf,
    /// Follow the best move this many plies past the end of each line.
    pub plies: u32,
    /// Moves kept per position (the search's MultiPV).
    pub multipv: usize,
    /// Grow the book tree from each line's start this many plies: every book move within
    /// [`TREE_EVAL_DIFF`] of the best is played and the position reached searched.
    pub tree: u32,
    pub threads: usize,
    /// Table size of each search, in MiB.
    pub hash_mib: usize,
    /// A book to merge with: its entries are kept unless searched again deeper.
    pub extend: Option<PathBuf>,
    /// The evaluation the searches use.
    pub eval: crate::eval::Evaluator,
    /// Comment lines for the file (the command that made it).
    pub comments: Vec<String>,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MakeSummary {
    /// Distinct positions reached by the lines and their extensions.
    pub positions: usize,
    pub searched: usize,
    /// Entries kept from the book being extended.
    pub kept: usize,
    pub written: usize,
    pub nodes: u64,
    pub millis: u64,
}

/// A position of the lines: where it was first reached and the moves lines play there.
struct Node {
    pos: Position,
    ply: u32,
    line_moves: HashMap<Move, u64>,
}

/// Why a book could not be made: bad input (the options, the openings or the book to
/// extend; exit code 2) or a run that failed (a search or the output file; exit code 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MakeError {
    Input(String),
    Run(String),
}

impl std::fmt::Display for MakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MakeError::Input(m) | MakeError::Run(m) => f.write_str(m),
        }
    }
}

impl From<String> for MakeError {
    fn from(message: String) -> MakeError {
        MakeError::Run(message)
    }
}

/// Reads the inputs, searches, writes `opts.out`. `log` receives progress lines.
pub fn make(opts: &MakeOptions, log: &(dyn Fn(&str) + Sync)) -> Result<MakeSummary, MakeError> {
    let started = Instant::now();
    if !(1..=64).contains(&opts.depth) {
        return Err(MakeError::Input(format!(
            "depth {} is outside 1..64",
            opts.depth
        )));
    }
    let openings = Opening::load(&opts.openings)
        .map_err(|e| MakeError::Input(format!("openings {}: {e}", opts.openings.display())))?;
    let mut existing: HashMap<String, BookEntry> = HashMap::new();
    if let Some(path) = &opts.extend {
        let text = crate::files::read_text(path)
            .map_err(|e| MakeError::Input(format!("cannot read {}: {e}", path.display())))?;
        let (entries, errors) = format::parse_text(&text);
        for e in &errors {
            log(&format!("{}: {e} (skipped)", path.display()));
        }
        existing = entries.into_iter().map(|e| (e.sfen.clone(), e)).collect();
        log(&format!(
            "extending {} ({} positions)",
            path.display(),
            existing.len()
        ));
    }
    let deep_enough = |sfen: &str| {
        existing
            .get(sfen)
            .is_some_and(|e| e.moves.iter().map(|m| m.depth).max().unwrap_or(0) >= opts.depth)
    };

    // The positions along every line, in the order first met.
    let mut nodes: HashMap<String, Node> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut frontier: Vec<String> = Vec::new();
    let mut starts: Vec<String> = Vec::new();
    for opening in &openings {
        let mut pos = opening.start_position();
        starts.push(position_sfen(&pos));
        for i in 0..=opening.moves.len() {
            let sfen = add_node(&mut nodes, &mut order, &pos);
            let node = nodes.get_mut(&sfen).expect("just added");
            match opening.moves.get(i) {
                Some(&mv) => {
                    *node.line_moves.entry(mv).or_insert(0) += 1;
                    pos.play_unchecked(mv);
                }
                None => frontier.push(sfen),
            }
        }
    }
    frontier.sort();
    frontier.dedup();
    starts.sort();
    starts.dedup();

    let mut results: HashMap<String, Vec<BookMove>> = HashMap::new();
    let mut summary = MakeSummary::default();
    let mut batch: Vec<String> = order.iter().filter(|s| !deep_enough(s)).cloned().collect();
    let mut level = starts;
    for round in 0..=opts.plies + opts.tree {
        if round > 0 {
            // Past the lines: one ply along each line by its best move (`plies`), then
            // the book tree one ply deeper by every good move (`tree`).
            let tree = round > opts.plies;
            let from = if tree { &level } else { &frontier };
            let books = Books {
                results: &results,
                existing: &existing,
            };
            let (next, new) = expand(from, tree, &mut nodes, &mut order, &books);
            batch = new.into_iter().filter(|s| !deep_enough(s)).collect();
            if tree {
                level = next;
            } else {
                frontier = next;
            }
        }
        let positions: Vec<Position> = batch.iter().map(|s| nodes[s].pos.clone()).collect();
        let (found, nodes_searched) = search_all(&positions, opts, log, round)?;
        summary.nodes += nodes_searched;
        summary.searched += positions.len();
        for (sfen, moves) in batch.iter().zip(found) {
            results.insert(sfen.clone(), moves);
        }
    }

    // The entries: searched positions, then what the old book had.
    let mut entries: Vec<BookEntry> = Vec::new();
    for sfen in &order {
        let node = &nodes[sfen];
        let Some(moves) = results.get(sfen) else {
            continue;
        };
        if moves.is_empty() {
            continue; // no legal move
        }
        let moves = moves
            .iter()
            .map(|m| BookMove {
                count: 1 + node.line_moves.get(&m.mv).copied().unwrap_or(0),
                ..*m
            })
            .collect();
        let ply = existing.get(sfen).map_or(node.ply, |e| e.ply.min(node.ply));
        entries.push(BookEntry {
            sfen: sfen.clone(),
            ply,
            moves,
        });
    }
    for (sfen, entry) in existing {
        if !results.contains_key(&sfen) {
            summary.kept += 1;
            entries.push(entry);
        }
    }
    summary.positions = order.len();
    summary.written = entries.len();
    write_file(&opts.out, &mut entries, &opts.comments)?;
    summary.millis = started.elapsed().as_millis() as u64;
    Ok(summary)
}

/// The moves known so far: this run's searches, then the book being extended.
struct Books<'a> {
    results: &'a HashMap<String, Vec<BookMove>>,
    existing: &'a HashMap<String, BookEntry>,
}

impl Books<'_> {
    fn moves(&self, sfen: &str) -> Option<&Vec<BookMove>> {
        self.results
            .get(sfen)
            .or_else(|| self.existing.get(sfen).map(|e| &e.moves))
    }
}

/// One ply on from each of `from`: by the best book move, or with `every` by each book
/// move within [`TREE_EVAL_DIFF`] of the best. Returns the positions reached and those
/// among them that are new (added to `nodes`).
fn expand(
    from: &[String],
    every: bool,
    nodes: &mut HashMap<String, Node>,
    order: &mut Vec<String>,
    books: &Books,
) -> (Vec<String>, Vec<String>) {
    let mut next = Vec::new();
    let mut new = Vec::new();
    for sfen in from {
        let Some(moves) = books.moves(sfen) else {
            continue;
        };
        let Some(best) = moves.iter().map(|m| m.value).max() else {
            continue;
        };
        let followed: Vec<Move> = if every {
            moves
                .iter()
                .filter(|m| m.value >= best.saturating_sub(TREE_EVAL_DIFF))
                .map(|m| m.mv)
                .collect()
        } else {
            moves
                .iter()
                .filter(|m| m.value == best)
                .map(|m| m.mv)
                .take(1)
                .collect()
        };
        let (pos, ply) = (nodes[sfen].pos.clone(), nodes[sfen].ply);
        for mv in followed {
            if !pos.is_legal(mv) {
                continue;
            }
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let key = position_sfen(&child);
            if !nodes.contains_key(&key) {
                add_node(nodes, order, &child);
                nodes.get_mut(&key).expect("just added").ply = ply + 1;
                new.push(key.clone());
            }
            next.push(key);
        }
    }
    next.sort();
    next.dedup();
    (next, new)
}

/// Adds `pos` (as a bare SFEN position) if new; returns its SFEN key.
fn add_node(nodes: &mut HashMap<String, Node>, order: &mut Vec<String>, pos: &Position) -> String {
    let sfen = position_sfen(pos);
    if !nodes.contains_key(&sfen) {
        let bare: Position = pos
            .to_string()
            .parse()
            .expect("a position prints valid SFEN");
        nodes.insert(
            sfen.clone(),
            Node {
                pos: bare,
                ply: pos.ply(),
                line_moves: HashMap::new(),
            },
        );
        order.push(sfen.clone());
    }
    sfen
}

/// Writes the book next to `path`, then renames it over `path` (a failed run leaves the
/// old file whole).
fn write_file(path: &Path, entries: &mut [BookEntry], comments: &[String]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    let file = std::fs::File::create(&tmp).map_err(fail)?;
    let mut w = BufWriter::new(file);
    format::write_book(&mut w, entries, comments).map_err(fail)?;
    drop(w);
    std::fs::rename(&tmp, path).map_err(fail)
}

/// Searches every position, `opts.threads` at a time. Returns each position's moves (best
/// first) and the nodes searched.
fn search_all(
    positions: &[Position],
    opts: &MakeOptions,
    log: &(dyn Fn(&str) + Sync),
    round: u32,
) -> Result<(Vec<Vec<BookMove>>, u64), String> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let results: Mutex<Vec<Vec<BookMove>>> = Mutex::new(vec![Vec::new(); positions.len()]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    let threads = opts.threads.clamp(1, positions.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut pool = match ThreadPool::new(1, opts.hash_mib) {
                    Ok(p) => p,
                    Err(e) => {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                        return;
                    }
                };
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= positions.len() {
                        break;
                    }
                    let (moves, n) = search_one(&mut pool, &positions[i], opts);
                    nodes.fetch_add(n, Ordering::Relaxed);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = moves;
                    let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                    if d.is_multiple_of(100) || d == positions.len() {
                        log(&format!(
                            "round {round}: {d}/{} positions searched, {} s",
                            positions.len(),
                            started.elapsed().as_secs()
                        ));
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok((
        results.into_inner().unwrap_or_else(|e| e.into_inner()),
        nodes.into_inner(),
    ))
}

/// One fixed-depth MultiPV search on a cleared table: the lines it ends with.
fn search_one(pool: &mut ThreadPool, pos: &Position, opts: &MakeOptions) -> (Vec<BookMove>, u64) {
    let events: Arc<Mutex<Vec<Progress>>> = Arc::new(Mutex::new(Vec::new()));
    let sink = events.clone();
    let reporter: Reporter = Arc::new(move |event| {
        if let Event::Progress(p) = event {
            sink.lock().unwrap_or_else(|e| e.into_inner()).push(p);
        }
    });
    let mut settings = Settings::fixed_depth(opts.depth);
    settings.limits.multipv = opts.multipv.max(1);
    settings.eval = opts.eval.clone();
    pool.clear();
    pool.start(pos.clone(), settings, reporter);
    pool.wait();
    let events = events.lock().unwrap_or_else(|e| e.into_inner());
    let nodes = events.last().map_or(0, |p| p.nodes);
    let mut lines: Vec<&Progress> = Vec::new();
    for k in 1..=opts.multipv.max(1) {
        if let Some(p) = events
            .iter()
            .rev()
            .find(|p| p.multipv == k && p.bound == ScoreBound::Exact && !p.pv.is_empty())
        {
            lines.push(p);
        }
    }
    let mut moves: Vec<BookMove> = Vec::new();
    for p in lines {
        if moves.iter().any(|m| m.mv == p.pv[0]) {
            continue;
        }
        moves.push(BookMove {
            mv: p.pv[0],
            ponder: p.pv.get(1).copied(),
            value: book_value(p.score),
            depth: p.depth,
            count: 1,
        });
    }
    moves.sort_by_key(|m| std::cmp::Reverse(m.value));
    (moves, nodes)
}

/// An internal score as a book value: centipawns, or ±(32000 − plies) for a mate.
pub fn book_value(internal: i32) -> i32 {
    match score::to_usi(internal) {
        UsiScore::Cp(cp) => cp.clamp(-(MATE_VALUE - 1000), MATE_VALUE - 1000),
        UsiScore::Mate(n) if n > 0 => MATE_VALUE - n,
        UsiScore::Mate(n) => -MATE_VALUE - n,
    }
}

/// Writes a synthetic book of `count` distinct positions reached by random games from the
/// start (up to 80 plies each), with one to three random legal moves each: a stand-in for
/// the large books users load, to measure loading. Returns the file's size in bytes.
pub fn synthetic(count: usize, seed: u64, out: &Path) -> Result<u64, String> {
    let mut rng = Rng::seeded(seed);
    let mut seen: HashSet<u64> = HashSet::with_capacity(count);
    let mut entries: Vec<BookEntry> = Vec::with_capacity(count);
    while entries.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..80 {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            if entries.len() < count && seen.insert(pos.key()) {
                let mut moves: Vec<BookMove> = Vec::new();
                for _ in 0..1 + rng.below(3) {
                    let mv = legal[rng.below(legal.len() as u64) as usize];
                    if moves.iter().any(|m| m.mv == mv) {
                        continue;
                    }
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    let replies = next.legal_moves();
                    let ponder = (!replies.is_empty())
                        .then(|| replies[rng.below(replies.len() as u64) as usize]);
                    moves.push(BookMove {
                        mv,
                        ponder,
                        value: rng.below(401) as i32 - 200,
                        depth: 10 + rng.below(21) as i32,
                        count: 1 + rng.below(100),
                    });
                }
                entries.push(BookEntry {
                    sfen: position_sfen(&pos),
                    ply: pos.ply(),
                    moves,
                });
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            pos.play_unchecked(mv);
        }
    }
    let comments = vec![format!(
        "synthetic book: {count} random positions (hayate makebook --synthetic {count} --seed {seed})"
    )];
    write_file(out, &mut entries, &comments)?;
    std::fs::metadata(out)
        .map(|m| m.len())
        .map_err(|e| format!("cannot read {}: {e}", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values() {
        use crate::search::score::MATE;
        assert_eq!(book_value(35), 35);
        assert_eq!(book_value(MATE - 3), MATE_VALUE - 3);
        assert_eq!(book_value(-(MATE - 4)), -MATE_VALUE + 4);
    }

    #[test]
    fn synthetic_books_are_valid_and_distinct() {
        crate::attacks::init();
        let dir = std::env::temp_dir().join(format!("hayate-synth-{}", std::process::id()));
        let path = dir.join("s.db");
        synthetic(500, 3, &path).unwrap();
        let book = super::super::Book::open(&path).unwrap();
        assert_eq!(book.len(), 500);
        assert_eq!(book.error_count(), 0);
        assert!(!book.probe(&Position::startpos()).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}
