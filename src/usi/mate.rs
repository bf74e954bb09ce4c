//! `go mate`: the mate solver on a thread of its own, so that `stop`, `isready` and
//! `quit` are still read while it works.
//!
//! The proof table (`MateHash` MiB) is separate from the search's `USI_Hash` table. It is
//! made at the first `go mate` and kept, and cleared before each problem so that answers
//! do not depend on what was solved before.

use super::background::Background;
use super::Output;
use crate::mate::{self, cli::outcome_text, Limits, Outcome, Progress, Table};
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The `go mate` state of a session.
#[derive(Default)]
pub struct MateRunner {
    table: Option<Table>,
    job: Option<Background<Table>>,
}

impl MateRunner {
    /// Whether a `go mate` is still working.
    pub fn is_running(&self) -> bool {
        self.job.as_ref().is_some_and(Background::is_running)
    }

    /// Starts solving `pos` for at most `millis` (no limit: `None`), with a table of `mib`
    /// MiB. The answer (`checkmate ...`) is written to `out` when done or stopped.
    pub fn start(&mut self, pos: Position, millis: Option<u64>, mib: usize, out: Output) {
        self.finish();
        let table = match self.table.take() {
            Some(t) if t.mib() == mib => t,
            other => {
                drop(other);
                match Table::try_new(mib) {
                    Ok(t) => t,
                    Err(e) => {
                        out.info_string(&format!("{e}; using 16 MiB"));
                        Table::new(16)
                    }
                }
            }
        };
        self.job = Background::start("mate", mate::STACK_BYTES, move |stop| {
            solve(pos, millis, table, stop, &out)
        });
    }

    /// Stops a running `go mate` (it answers with what it has) and waits for it.
    pub fn finish(&mut self) {
        if let Some(table) = self.job.take().and_then(Background::finish) {
            self.table = Some(table);
        }
    }
}

fn solve(
    pos: Position,
    millis: Option<u64>,
    mut table: Table,
    stop: &AtomicBool,
    out: &Output,
) -> Table {
    table.clear();
    let limits = Limits {
        time: millis.map(Duration::from_millis),
        nodes: None,
        shortest: true,
        shorter_time: None,
    };
    let report = mate::solve(&pos, &mut table, limits, stop, |p| {
        out.line(&progress_line(&p))
    });
    out.line(&progress_line(&report.progress()));
    match &report.outcome {
        Outcome::Mate(line) => out.info_string(&mate::length_text(&report, line)),
        Outcome::Unknown if report.repetition_doubt => out.info_string(
            "no mate found, but repetitions were involved: not a proof that none exists",
        ),
        _ => {}
    }
    out.line(&outcome_text(&report.outcome));
    table
}

/// The `info` line of the solver's progress.
fn progress_line(p: &Progress) -> String {
    format!(
        "info time {} nodes {} nps {} hashfull {}",
        p.elapsed.as_millis(),
        p.nodes,
        p.nps(),
        p.hashfull
    )
}
