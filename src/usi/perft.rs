//! `go perft <depth>`: move counting on a thread of its own, so that `stop`, `isready`
//! and `quit` are still read while a deep count runs.

use super::Output;
use crate::perft::{self, LeafMode};
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Stack of the counting thread: it recurses once per ply of the depth asked (up to 255).
const STACK_BYTES: usize = 16 << 20;

struct Job {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The `go perft` state of a session.
#[derive(Default)]
pub struct PerftRunner {
    job: Option<Job>,
}

impl PerftRunner {
    /// Whether a `go perft` is still counting.
    pub fn is_running(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// Starts counting; the per-move counts and the total are written to `out` when done.
    pub fn start(&mut self, pos: Position, depth: u32, out: Output) {
        self.finish();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let spawned = std::thread::Builder::new()
            .name("perft".to_string())
            .stack_size(STACK_BYTES)
            .spawn(
                move || match perft::run_until(&pos, depth, LeafMode::Bulk, &flag) {
                    Some(report) => {
                        for l in report.to_text().lines() {
                            out.line(l);
                        }
                    }
                    None => out.info_string(&format!("perft {depth} stopped")),
                },
            );
        match spawned {
            Ok(handle) => self.job = Some(Job { stop, handle }),
            Err(e) => eprintln!("hayate: cannot start the perft thread: {e}"),
        }
    }

    /// Stops a running count and waits for it.
    pub fn finish(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop.store(true, Ordering::SeqCst);
            let _ = job.handle.join();
        }
    }
}
