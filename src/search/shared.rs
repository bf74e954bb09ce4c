//! What the search threads share: the job they all work on, the stop and ponder flags,
//! node counters and each thread's last result, and the choice of the answer among the
//! threads (Lazy SMP; the threads themselves are [`crate::threads`]).

use super::score::{INFINITE, MATE_BOUND};
use super::{Decision, Event, Progress, Reporter, ScoreBound, Settings, Worker};
use crate::position::Position;
use crate::time::{self, Budget};
use crate::tt::TranspositionTable;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A node counter on its own cache line, so threads do not slow each other down.
#[repr(align(64))]
#[derive(Default)]
pub struct PaddedCounter(AtomicU64);

impl std::ops::Deref for PaddedCounter {
    type Target = AtomicU64;
    fn deref(&self) -> &AtomicU64 {
        &self.0
    }
}

/// What a thread found in its last completed iteration.
#[derive(Clone, Debug, Default)]
pub struct ThreadResult {
    pub depth: i32,
    /// The deepest ply a principal-variation node of that iteration reached.
    pub seldepth: i32,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// State all threads see during a search.
pub struct Shared {
    pub stop: AtomicBool,
    /// True while a `go ponder` has not been answered by `ponderhit`.
    pub pondering: AtomicBool,
    pub nodes: Vec<PaddedCounter>,
    pub results: Vec<Mutex<ThreadResult>>,
}

impl Shared {
    pub fn new(threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            nodes: (0..threads).map(|_| PaddedCounter::default()).collect(),
            results: (0..threads)
                .map(|_| Mutex::new(ThreadResult::default()))
                .collect(),
        }
    }

    /// Ready for a new search: not stopped, no nodes, no results.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        for n in &self.nodes {
            n.store(0, Ordering::Relaxed);
        }
        for r in &self.results {
            if let Ok(mut r) = r.lock() {
                *r = ThreadResult::default();
            }
        }
    }

    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// One search request, shared by every thread.
pub struct Job {
    pub root: Position,
    pub settings: Settings,
    pub tt: Arc<TranspositionTable>,
    pub reporter: Reporter,
    pub start: Instant,
    /// The clock's budget for this move, when there is a clock or a movetime.
    pub budget: Option<Budget>,
    /// When `ponderhit` arrived: the hard deadline counts from then.
    pub ponderhit_at: Mutex<Option<Instant>>,
}

impl Job {
    /// The job for one `go`: its clock starts when the `go` was read, and its budget comes
    /// from `movetime` or the clock (none for an infinite search or fixed limits).
    pub fn new(
        root: Position,
        settings: Settings,
        tt: Arc<TranspositionTable>,
        reporter: Reporter,
    ) -> Job {
        let limits = &settings.limits;
        let start = limits.received.unwrap_or_else(Instant::now);
        let budget = match (limits.movetime, limits.clock) {
            (Some(ms), _) => Some(Budget::fixed(Duration::from_millis(ms))),
            (None, Some(clock)) if !limits.infinite => {
                Some(time::budget(clock, root.ply(), settings.time))
            }
            _ => None,
        };
        Job {
            root,
            settings,
            tt,
            reporter,
            start,
            budget,
            ponderhit_at: Mutex::new(None),
        }
    }

    /// The instant the move must be answered by, if any.
    pub fn hard_deadline(&self) -> Option<Instant> {
        let budget = self.budget?;
        let from = self
            .ponderhit_at
            .lock()
            .ok()
            .and_then(|t| *t)
            .unwrap_or(self.start);
        Some(from + budget.maximum)
    }
}

/// The answer from the thread that searched furthest: deepest completed iteration, then
/// best score; a found mate is preferred when shorter.
pub fn choose_best(worker: &Worker, job: &Job, shared: &Shared) -> (Decision, Option<Move>) {
    // The main thread's best root move, as its last iteration left it.
    let main = worker.root_moves().first();
    let main_pv: &[Move] = main.map_or(&[], |r| &r.pv);
    let mut best = ThreadResult {
        depth: worker.completed_depth(),
        seldepth: main.map_or(0, |r| r.seldepth),
        score: main.map_or(0, |r| r.score),
        pv: main_pv.to_vec(),
    };
    for r in shared.results.iter().skip(1) {
        let Ok(r) = r.lock() else { continue };
        if r.pv.is_empty() {
            continue;
        }
        let better = if r.score >= MATE_BOUND || best.score >= MATE_BOUND {
            r.score > best.score
        } else {
            r.depth > best.depth || (r.depth == best.depth && r.score > best.score)
        };
        if better {
            best = r.clone();
        }
    }
    let Some(&mv) = best.pv.first() else {
        // No iteration finished at all (stopped at once): any legal move beats none.
        let legal = job.root.legal_moves();
        return match legal.first() {
            Some(&m) => (Decision::Move(m), None),
            None => (Decision::Resign, None),
        };
    };
    // The final line, when it came from a helper, so the GUI shows what is played; or
    // when the search was stopped inside an iteration, so the GUI shows the final node
    // count and time (and a best move that changed since the last completed depth).
    let from_helper = best.pv != main_pv;
    if (from_helper || worker.stopped_mid_iteration()) && best.score > -INFINITE {
        (job.reporter)(Event::Progress(Progress {
            depth: best.depth.max(1),
            seldepth: best.seldepth.max(best.depth).max(1),
            multipv: 1,
            score: best.score,
            bound: ScoreBound::Exact,
            nodes: shared.total_nodes(),
            time_ms: job.start.elapsed().as_millis() as u64,
            hashfull: job.tt.hashfull(),
            pv: best.pv.clone(),
        }));
    }
    let ponder = best.pv.get(1).copied().or_else(|| {
        let mut pos = job.root.clone();
        pos.play_unchecked(mv);
        job.tt
            .probe(pos.key())
            .and_then(|e| e.mv)
            .filter(|&m| pos.is_legal(m))
    });
    (Decision::Move(mv), ponder)
}
