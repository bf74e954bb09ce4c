//! Lazy SMP: the search threads, created once and reused for every search.
//!
//! Every thread runs the same iterative deepening on its own copy of the position, with
//! its own move statistics; they share only the transposition table, so each thread's
//! results speed up the others. The main thread (index 0) keeps time, decides when to
//! stop, then picks the answer from the thread that got furthest (deepest completed
//! iteration, then best score) and reports it.

//!
//! What a search job is, what the threads share and how the answer is chosen belong to
//! the search ([`crate::search::shared`]); this file keeps only the threads.

use crate::memory::AllocError;
use crate::position::Position;
use crate::search::shared::{choose_best, Job, Shared};
use crate::search::{immediate_decision, root_mate, Decision, Event, Reporter, Settings, Worker};
use crate::tt::TranspositionTable;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

enum Command {
    Search(Arc<Job>),
    Clear,
}

struct Thread {
    sender: Sender<Command>,
    handle: JoinHandle<()>,
}

/// Whether a search is running, with a condition variable to wait for its end.
#[derive(Default)]
struct Busy {
    running: Mutex<usize>,
    idle: Condvar,
}

impl Busy {
    fn start(&self, n: usize) {
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = n;
    }
    fn finish_one(&self) {
        let mut r = self.running.lock().unwrap_or_else(|e| e.into_inner());
        *r = r.saturating_sub(1);
        if *r == 0 {
            self.idle.notify_all();
        }
    }
    /// Waits until fewer than `n` threads run.
    fn wait_below(&self, n: usize) {
        let mut r = self.running.lock().unwrap_or_else(|e| e.into_inner());
        while *r >= n {
            r = self.idle.wait(r).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The search threads and the table they share.
pub struct ThreadPool {
    threads: Vec<Thread>,
    shared: Arc<Shared>,
    tt: Arc<TranspositionTable>,
    /// Helpers still running in the current search (the main thread waits for them).
    helpers: Arc<Busy>,
    /// The whole search (main thread) still running.
    search: Arc<Busy>,
    current: Option<Arc<Job>>,
    /// No search has run since the table and the threads were last cleared (or made).
    clean: bool,
}

impl ThreadPool {
    /// `threads` search threads and a `hash_mib` MiB table.
    pub fn new(threads: usize, hash_mib: usize) -> Result<ThreadPool, AllocError> {
        let tt = Arc::new(TranspositionTable::new(hash_mib)?);
        let mut pool = ThreadPool {
            threads: Vec::new(),
            shared: Arc::new(Shared::new(1)),
            tt,
            helpers: Arc::new(Busy::default()),
            search: Arc::new(Busy::default()),
            current: None,
            clean: true,
        };
        pool.set_threads(threads);
        Ok(pool)
    }

    /// Size of the table in MiB.
    pub fn hash_mib(&self) -> usize {
        self.tt.size_mib()
    }

    pub fn thread_count(&self) -> usize {
        self.threads.len()
    }

    /// Replaces the threads by `n` new ones (idle only).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.max(1);
        if n == self.threads.len() {
            return;
        }
        self.shutdown();
        self.shared = Arc::new(Shared::new(n));
        let mut helpers = Vec::new();
        for id in 1..n {
            helpers.push(self.spawn(id, Vec::new()));
        }
        let senders = helpers.iter().map(|t| t.sender.clone()).collect();
        self.threads.push(self.spawn(0, senders));
        self.threads.extend(helpers);
    }

    /// Starts thread `id`; the main thread gets the helpers' channels to wake them.
    fn spawn(&self, id: usize, helper_senders: Vec<Sender<Command>>) -> Thread {
        let (sender, receiver) = channel::<Command>();
        let shared = self.shared.clone();
        let tt = self.tt.clone();
        let helpers = self.helpers.clone();
        let search = self.search.clone();
        let handle = std::thread::Builder::new()
            .name(format!("search-{id}"))
            .stack_size(16 << 20)
            .spawn(move || {
                let mut worker = Worker::new(id, shared.clone(), tt);
                while let Ok(command) = receiver.recv() {
                    match command {
                        Command::Clear => worker.clear(),
                        Command::Search(job) if id == 0 => {
                            main_thread(&mut worker, job, &shared, &helpers, &helper_senders);
                            search.finish_one();
                        }
                        Command::Search(job) => {
                            worker.search_job(job);
                            helpers.finish_one();
                        }
                    }
                }
            })
            .expect("spawning a search thread");
        Thread { sender, handle }
    }

    /// Ends every thread and waits for them (idle only).
    fn shutdown(&mut self) {
        self.stop();
        self.wait();
        self.current = None;
        for t in self.threads.drain(..) {
            drop(t.sender);
            let _ = t.handle.join();
        }
    }

    /// Reallocates the table (idle only).
    pub fn set_hash(&mut self, mib: usize) -> Result<(), AllocError> {
        if self.tt.size_mib() == mib {
            return Ok(());
        }
        // The threads hold the table: end them, resize, start them again.
        let n = self.threads.len();
        self.shutdown();
        let result = match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.resize(mib),
            None => TranspositionTable::new(mib).map(|t| self.tt = Arc::new(t)),
        };
        self.set_threads(n);
        // A new table starts empty, and so do the new threads.
        self.clean |= result.is_ok();
        result
    }

    /// Clears the table and every thread's statistics (a new game). Nothing to do when
    /// no search has run since the last clear: GUIs send `usinewgame` right after the
    /// `isready` that cleared, then `go` at once, and wiping a 256 MiB table again kept
    /// the first move waiting 10-17 ms on a clock that was already running.
    pub fn clear(&mut self) {
        self.wait();
        if self.clean {
            return;
        }
        self.tt.clear();
        for t in &self.threads {
            let _ = t.sender.send(Command::Clear);
        }
        self.clean = true;
    }

    /// Starts searching `root`; returns at once. Events arrive through `reporter`, the
    /// last one a [`Event::BestMove`].
    pub fn start(&mut self, root: Position, settings: Settings, reporter: Reporter) {
        self.wait();
        self.clean = false;
        self.shared.reset(settings.limits.ponder);
        self.tt.new_search();
        let job = Arc::new(Job::new(root, settings, self.tt.clone(), reporter));
        self.current = Some(job.clone());
        self.search.start(1);
        let _ = self.threads[0].sender.send(Command::Search(job));
    }

    /// Asks the search to stop; the main thread then reports its answer.
    pub fn stop(&self) {
        self.shared.pondering.store(false, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// The pondered move was played: the search goes on as a normal timed one. Outside
    /// pondering it means nothing (a late or stray `ponderhit` must not move the
    /// deadline of a normal search back).
    pub fn ponderhit(&self) {
        if !self.shared.pondering.load(Ordering::SeqCst) {
            return;
        }
        // The deadline's new origin first, then the end of pondering: a thread that
        // sees pondering over must find the new origin.
        if let Some(job) = &self.current {
            if let Ok(mut t) = job.ponderhit_at.lock() {
                *t = Some(Instant::now());
            }
        }
        self.shared.pondering.store(false, Ordering::SeqCst);
    }

    /// Nodes searched by all threads in the current or last search, iterations cut off
    /// by the clock included.
    pub fn nodes(&self) -> u64 {
        self.shared.total_nodes()
    }

    /// Waits until the current search (if any) has reported its answer.
    pub fn wait(&self) {
        self.search.wait_below(1);
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        *self
            .search
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            > 0
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The main thread's part of a search: starts the helpers, searches, waits for the answer
/// to be due, stops the helpers and reports the best thread's move.
fn main_thread(
    worker: &mut Worker,
    job: Arc<Job>,
    shared: &Arc<Shared>,
    helpers: &Arc<Busy>,
    helper_senders: &[Sender<Command>],
) {
    let limits = job.settings.limits.clone();
    let mut decision = immediate_decision(&job.root, job.settings.rule);
    let mut ponder = None;
    if decision.is_none() && root_mate::wanted(&job.settings) {
        if let Some(progress) = root_mate::find(
            &job.root,
            &job.settings,
            job.budget.map(|b| b.optimum),
            &shared.stop,
        ) {
            let (mv, reply) = root_mate::moves(&progress);
            (decision, ponder) = (Some(Decision::Move(mv)), reply);
            (job.reporter)(Event::Progress(progress));
        }
    }
    if decision.is_none() {
        helpers.start(helper_senders.len());
        for sender in helper_senders {
            if sender.send(Command::Search(job.clone())).is_err() {
                helpers.finish_one();
            }
        }
        worker.search_job(job.clone());
    }
    // `go infinite` and `go ponder` answer only once told to.
    while (limits.infinite || shared.pondering.load(Ordering::SeqCst))
        && !shared.stop.load(Ordering::SeqCst)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    shared.stop.store(true, Ordering::SeqCst);
    if decision.is_none() {
        helpers.wait_below(1);
    }
    let (decision, ponder) = match decision {
        Some(d) => (d, ponder),
        None => choose_best(worker, &job, shared),
    };
    (job.reporter)(Event::BestMove { decision, ponder });
}
