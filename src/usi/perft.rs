//! `go perft <depth>`: move counting on a thread of its own, so that `stop`, `isready`
//! and `quit` are still read while a deep count runs.

use super::background::Background;
use super::Output;
use crate::perft::{self, LeafMode};
use crate::position::Position;

/// Stack of the counting thread: it recurses once per ply of the depth asked (up to 255).
const STACK_BYTES: usize = 16 << 20;

/// The `go perft` state of a session.
#[derive(Default)]
pub struct PerftRunner {
    job: Option<Background<()>>,
}

impl PerftRunner {
    /// Whether a `go perft` is still counting.
    pub fn is_running(&self) -> bool {
        self.job.as_ref().is_some_and(Background::is_running)
    }

    /// Starts counting; the per-move counts and the total are written to `out` when done.
    pub fn start(&mut self, pos: Position, depth: u32, out: Output) {
        self.finish();
        self.job = Background::start("perft", STACK_BYTES, move |stop| {
            match perft::run_until(&pos, depth, LeafMode::Bulk, stop) {
                Some(report) => {
                    for l in report.to_text().lines() {
                        out.line(l);
                    }
                }
                None => out.info_string(&format!("perft {depth} stopped")),
            }
        });
    }

    /// Stops a running count and waits for it.
    pub fn finish(&mut self) {
        if let Some(job) = self.job.take() {
            job.finish();
        }
    }
}
