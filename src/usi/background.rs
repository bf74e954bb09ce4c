//! A job on a thread of its own (`go perft`, `go mate`), so that `stop`, `isready` and
//! `quit` are still read while it works: started with a stop flag, asked to stop, joined.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// A running job that gives back a `T` when it ends.
pub struct Background<T> {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<T>,
}

impl<T: Send + 'static> Background<T> {
    /// Runs `work` on a new thread named `name` with a stack of `stack_bytes`; `work`
    /// watches the flag it is given and ends soon after it is set. `None` (with a line
    /// on stderr) when no thread could be started.
    pub fn start(
        name: &str,
        stack_bytes: usize,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Option<Background<T>> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(stack_bytes)
            .spawn(move || work(&flag));
        match spawned {
            Ok(handle) => Some(Background { stop, handle }),
            Err(e) => {
                eprintln!("hayate: cannot start the {name} thread: {e}");
                None
            }
        }
    }

    /// Whether the job is still working.
    pub fn is_running(&self) -> bool {
        !self.handle.is_finished()
    }

    /// Asks the job to stop, waits for it and returns what it gave back (`None` if the
    /// thread panicked).
    pub fn finish(self) -> Option<T> {
        self.stop.store(true, Ordering::SeqCst);
        self.handle.join().ok()
    }
}
