//! The USI protocol: text in, engine calls, text out.
//!
//! The main thread reads stdin line by line and handles each command at once; `go` starts
//! the thinking on its own thread, so `stop`, `ponderhit`, `isready`, `gameover` and `quit`
//! are answered while it runs. Every line goes out whole and flushed through [`Output`].

mod background;
mod book;
mod evalfile;
mod go;
mod info;
mod mate;
mod options;
mod perft;

pub use go::GoParams;
pub use info::{Bound, Score, SearchInfo};
pub use options::{OptionError, Options};

use crate::position::{Position, PositionCommand};
use crate::search::{self, score, Decision, Event, Limits, Settings};
use crate::threads::ThreadPool;
use crate::time::{Clock, TimeOptions};
use crate::types::Move;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Longest input line taken; a longer one is read to its end and refused whole (a cut
/// `position ... 8h2b+` would otherwise be played as `8h2b`).
const MAX_LINE: usize = 1 << 20;

/// How long `quit` (or the end of input) waits for running work to stop before the
/// process ends anyway.
const QUIT_GRACE: std::time::Duration = std::time::Duration::from_millis(800);

/// A shared, line-atomic writer: each line is written and flushed under one lock, so
/// lines from the command loop and the thinking thread never interleave.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(io::stdout()))
    }

    /// Writes one line. A closed output (the GUI went away) is ignored.
    pub fn line(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Writes `info string <text>`, with anything but printable ASCII shown as `?` and the
    /// text cut at 300 characters: messages quote user input, and a GUI log should not
    /// receive raw bytes or megabyte lines back.
    fn info_string(&self, text: &str) {
        let shown: String = text
            .chars()
            .take(300)
            .map(|c| {
                if c.is_ascii_graphic() || c == ' ' {
                    c
                } else {
                    '?'
                }
            })
            .collect();
        self.line(&format!("info string {shown}"));
    }
}

/// The USI line for a search event.
fn event_text(event: &Event) -> String {
    match event {
        Event::Progress(p) => SearchInfo {
            depth: p.depth.max(1) as u32,
            seldepth: p.seldepth.max(1) as u32,
            multipv: p.multipv as u32,
            score: match score::to_usi(p.score) {
                score::UsiScore::Cp(cp) => Score::Cp(cp),
                score::UsiScore::Mate(n) => Score::Mate(n),
            },
            bound: match p.bound {
                search::ScoreBound::Exact => Bound::Exact,
                search::ScoreBound::Lower => Bound::Lower,
                search::ScoreBound::Upper => Bound::Upper,
            },
            nodes: p.nodes,
            time_ms: p.time_ms,
            hashfull: p.hashfull,
            pv: p.pv.clone(),
        }
        .to_string(),
        Event::BestMove { decision, ponder } => match (decision, ponder) {
            (Decision::Move(_), Some(p)) => format!("bestmove {decision} ponder {p}"),
            _ => format!("bestmove {decision}"),
        },
    }
}

/// Runs the loop on stdin/stdout until `quit` or end of input. Returns the exit code.
pub fn run_stdio() -> i32 {
    let mut session = Session::new(Output::stdout());
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    loop {
        match crate::lines::read_line_capped(&mut input, &mut line, MAX_LINE) {
            Ok((0, _)) | Err(_) => break,
            Ok((_, true)) => {
                session.out.info_string(&format!(
                    "input line longer than {} MiB refused",
                    MAX_LINE >> 20
                ));
                continue;
            }
            Ok((_, false)) => {}
        }
        if !session.handle(&String::from_utf8_lossy(&line)) {
            break;
        }
    }
    // Whatever is running gets a moment to stop and answer; then the process ends.
    std::thread::spawn(|| {
        std::thread::sleep(QUIT_GRACE);
        std::process::exit(0);
    });
    session.finish_search();
    0
}

/// The protocol state between commands.
pub struct Session {
    position: Position,
    options: Options,
    out: Output,
    /// The search threads and table, made at the first `isready` or `go` (start-up and
    /// `usi` must be instant), and remade there when `Threads` or `USI_Hash` changed.
    pool: Option<ThreadPool>,
    /// Set just before a search prints its `bestmove`: from then on the search counts as
    /// finished, so an `isready` sent on seeing the bestmove does its full setup.
    answered: Arc<AtomicBool>,
    /// The opening book, loaded at `isready`.
    book: crate::book::BookPlayer,
    /// A book move chosen under `go ponder`: its `bestmove` line waits for `ponderhit` or
    /// `stop`, as a pondering search's would.
    book_answer: Option<String>,
    /// `go mate` runs here, apart from the search threads.
    mate: mate::MateRunner,
    /// `go perft` runs here.
    perft: perft::PerftRunner,
    /// The evaluation: the linear one or a net from `EvalFile`/`EvalDir`.
    eval: evalfile::EvalState,
}

impl Session {
    pub fn new(out: Output) -> Session {
        Session {
            position: Position::startpos(),
            options: Options::default(),
            out,
            pool: None,
            answered: Arc::new(AtomicBool::new(true)),
            book: crate::book::BookPlayer::new(),
            book_answer: None,
            mate: mate::MateRunner::default(),
            perft: perft::PerftRunner::default(),
            eval: evalfile::EvalState::default(),
        }
    }

    /// Handles one input line. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        match command {
            "usi" => {
                self.out
                    .line(&format!("id name hayate {}", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the hayate developers");
                for l in Options::usi_lines() {
                    self.out.line(&l);
                }
                self.out.line("usiok");
            }
            "isready" => {
                // Asked during a search, answer at once; otherwise prepare everything.
                let busy = self.mate.is_running()
                    || self.perft.is_running()
                    || self.book_answer.is_some()
                    || (self.is_searching() && !self.answered.load(Ordering::SeqCst));
                if !busy {
                    self.finish_search();
                    crate::attacks::init();
                    crate::eval::init();
                    // A new game is coming: start it with an empty table.
                    self.prepare_pool().clear();
                    self.prepare_book();
                    self.prepare_eval(true);
                }
                self.out.line("readyok");
            }
            "setoption" => self.set_option(args),
            "usinewgame" => {
                self.finish_search();
                if let Some(pool) = &mut self.pool {
                    pool.clear();
                }
            }
            "position" => {
                self.finish_search();
                if let Some(msg) = self.set_position(args) {
                    self.out.info_string(&msg);
                }
            }
            "go" => self.go(args),
            "stop" => self.finish_search(),
            "ponderhit" => {
                if let Some(line) = self.book_answer.take() {
                    self.out.line(&line);
                }
                if let Some(pool) = &self.pool {
                    pool.ponderhit();
                }
            }
            "gameover" => self.finish_search(),
            #[cfg(feature = "spsa")]
            "usi_tunables" => {
                // shogiarena's request for the tunable constants (its own extension of
                // USI): one JSON line, then `usi_tunablesok`.
                self.out.line(&format!(
                    "info string shogiarena_tunables_json {}",
                    tunables_manifest()
                ));
                self.out.line("usi_tunablesok");
            }
            "quit" => return false,
            "d" => self.show_board(),
            "eval" => {
                self.prepare_eval(false);
                for l in self.evaluator().explain(&self.position).lines() {
                    self.out.line(l);
                }
            }
            "bench" => {
                self.finish_search();
                let out = self.out.clone();
                self.prepare_eval(false);
                let result = crate::bench::run(
                    crate::bench::BenchLimit::Depth(crate::bench::DEFAULT_DEPTH),
                    1,
                    64,
                    &self.evaluator(),
                    |l| out.info_string(l),
                );
                self.out
                    .info_string(&format!("{} nodes {} nps", result.nodes, result.nps()));
            }
            "help" => self.out.info_string(
                "commands: usi isready setoption usinewgame position go stop ponderhit \
                 gameover quit d eval bench help; go perft <depth> counts moves",
            ),
            _ => {
                let shown: String = command.chars().take(40).collect();
                self.out
                    .info_string(&format!("unknown or unsupported command '{shown}'"));
            }
        }
        true
    }

    /// Stops a running `go` (its main thread prints the bestmove) and waits for it.
    pub fn finish_search(&mut self) {
        if let Some(line) = self.book_answer.take() {
            self.out.line(&line);
        }
        self.mate.finish();
        self.perft.finish();
        if let Some(pool) = &self.pool {
            pool.stop();
            pool.wait();
        }
    }

    fn is_searching(&self) -> bool {
        self.mate.is_running()
            || self.perft.is_running()
            || self.pool.as_ref().is_some_and(|p| p.is_searching())
    }

    /// Makes the thread pool, or brings it to the `Threads` and `USI_Hash` options.
    fn prepare_pool(&mut self) -> &mut ThreadPool {
        let (threads, mib) = (self.options.threads(), self.options.hash_mib());
        if self.pool.is_none() {
            match ThreadPool::new(threads, mib) {
                Ok(pool) => self.pool = Some(pool),
                Err(e) => {
                    self.out
                        .info_string(&format!("{e}; using a 16 MiB table instead"));
                    self.pool = Some(ThreadPool::new(threads, 16).expect("a 16 MiB table"));
                }
            }
        }
        let pool = self.pool.as_mut().expect("pool just made");
        pool.set_threads(threads);
        if let Err(e) = pool.set_hash(mib) {
            self.out
                .info_string(&format!("{e}; the table keeps its previous size"));
        }
        pool
    }

    /// `setoption name <name> [value <value...>]`.
    fn set_option(&mut self, args: &[&str]) {
        if args.first() != Some(&"name") || args.len() < 2 {
            self.out
                .info_string("setoption needs 'name <name> [value <value>]'");
            return;
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        match self.options.set(&name, &value) {
            Ok(Some(note)) => self.out.info_string(&note),
            Ok(None) => {}
            Err(e) => self.out.info_string(&e.to_string()),
        }
    }

    /// `position startpos|sfen <sfen> [moves ...]`. On a bad SFEN the previous position is
    /// kept; on a bad move the moves before it are applied. A position that cannot arise
    /// in a game but is well defined (two own pawns on a file, as in some tsume
    /// collections) is taken with a warning, so that `go mate` solves the problem given.
    /// Returns the one message the command has for the user, if any.
    fn set_position(&mut self, args: &[&str]) -> Option<String> {
        let command = match PositionCommand::parse(&args.join(" ")) {
            Ok(command) => command,
            Err(e) => return Some(format!("{e}; position unchanged")),
        };
        let mut notes = Vec::new();
        if !command.tolerated.is_empty() {
            let what: Vec<String> = command.tolerated.iter().map(|e| e.to_string()).collect();
            notes.push(format!(
                "sfen taken, though no game reaches it: {}",
                what.join(", ")
            ));
        }
        if let Some((i, _, why)) = &command.bad_move {
            notes.push(format!(
                "illegal move {} ({why}); the first {i} moves were applied",
                i + 1
            ));
        }
        self.position = command.position();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    fn go(&mut self, args: &[&str]) {
        // The clock runs from here: whatever comes before the search is paid from it.
        let received = std::time::Instant::now();
        self.finish_search();
        let (params, mut notes) = GoParams::parse(args);
        if let Some(depth) = params.perft {
            self.say_once(&notes);
            self.perft
                .start(self.position.clone(), depth, self.out.clone());
            return;
        }
        if let Some(millis) = params.mate {
            self.say_once(&notes);
            let mib = self.options.mate_hash_mib();
            self.mate
                .start(self.position.clone(), millis, mib, self.out.clone());
            return;
        }
        if self.play_book_move(&params) {
            self.say_once(&notes);
            return;
        }
        // `go` without `isready` after a change of net: load it now rather than search
        // with the old one.
        self.prepare_eval(false);
        let searchmoves: Vec<Move> = params
            .searchmoves
            .iter()
            .filter_map(|t| self.position.parse_move(t).ok())
            .collect();
        if searchmoves.len() != params.searchmoves.len() {
            notes.push("searchmoves: moves that are not legal here are ignored".to_string());
        }
        self.say_once(&notes);
        let side = self.position.side_to_move();
        let limits = Limits {
            depth: params.depth.map(|d| d as i32),
            nodes: params.nodes,
            movetime: params.movetime,
            clock: Clock::for_side(
                side,
                params.btime,
                params.wtime,
                params.byoyomi,
                params.binc,
                params.winc,
            ),
            infinite: params.infinite,
            ponder: params.ponder,
            multipv: self.options.multi_pv(),
            searchmoves,
            received: Some(received),
        };
        let settings = Settings {
            limits,
            rule: self.options.entering_king_rule(),
            max_moves_to_draw: self.options.max_moves_to_draw(),
            eval: self.evaluator(),
            time: TimeOptions {
                network_delay: self.options.network_delay(),
                network_delay2: self.options.network_delay2(),
                minimum_thinking_time: self.options.minimum_thinking_time(),
                slow_mover: self.options.slow_mover(),
            },
        };
        let out = self.out.clone();
        let answered = self.answered.clone();
        answered.store(false, Ordering::SeqCst);
        let reporter: search::Reporter = Arc::new(move |event| {
            if matches!(event, Event::BestMove { .. }) {
                answered.store(true, Ordering::SeqCst);
            }
            out.line(&event_text(&event));
        });
        let pos = self.position.clone();
        self.pool_for_go().start(pos, settings, reporter);
    }

    /// The problems found in one command, as a single `info string` (none if none).
    fn say_once(&self, notes: &[String]) {
        if !notes.is_empty() {
            self.out.info_string(&notes.join("; "));
        }
    }

    /// The pool for a search: made if there is none yet (a `go` without any `isready`),
    /// with the `Threads` asked for, but with the table it has: a new `USI_Hash` takes
    /// effect at `isready`, since filling a large table here would be paid from this
    /// move's clock.
    fn pool_for_go(&mut self) -> &mut ThreadPool {
        if self.pool.is_none() {
            return self.prepare_pool();
        }
        let (threads, mib) = (self.options.threads(), self.options.hash_mib());
        let pool = self.pool.as_mut().expect("pool checked above");
        if pool.hash_mib() != mib {
            self.out.info_string(&format!(
                "USI_Hash {mib} takes effect at the next isready; this search keeps the {} MiB table",
                pool.hash_mib()
            ));
        }
        pool.set_threads(threads);
        pool
    }

    fn show_board(&self) {
        let pos = &self.position;
        for l in pos.diagram().lines() {
            self.out.line(l);
        }
        self.out.line(&format!("key: {:016x}", pos.key()));
        let checkers: Vec<String> = pos.checkers().map(|s| s.to_string()).collect();
        self.out.line(&format!("checkers: {}", checkers.join(" ")));
        self.out
            .line(&format!("legal moves: {}", pos.count_legal()));
    }
}
/// The search's constants as shogiarena's SPSA reads them (`shogiarena.usi_tunables.v1`):
/// option, type, default and range of each, and a final perturbation of a twentieth of
/// the range.
#[cfg(feature = "spsa")]
pub fn tunables_manifest() -> String {
    let tunables: Vec<serde_json::Value> = crate::search::params::ALL
        .iter()
        .map(|p| {
            serde_json::json!({
                "id": p.name,
                "option": p.name,
                "value_type": "int",
                "encoding": "integer",
                "default": p.default,
                "min": p.min,
                "max": p.max,
                "schedule": {
                    "c_end": (f64::from(p.max - p.min) / 20.0).max(1.0),
                    "r_end": 0.002
                }
            })
        })
        .collect();
    serde_json::json!({
        "schema_version": "shogiarena.usi_tunables.v1",
        "tunables": tunables
    })
    .to_string()
}
