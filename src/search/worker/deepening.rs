//! Iterative deepening: one search per depth with an aspiration window around the last
//! score, the time checks between iterations, and the `info` reports.

use super::Worker;
use crate::search::params;
use crate::search::score::{INFINITE, MATE, MATE_BOUND, MAX_PLY};
use crate::search::shared::ThreadResult;
use crate::search::{Event, Progress, ScoreBound};
use std::sync::atomic::Ordering;

/// After this long the main thread also reports the bounds of failed aspiration searches,
/// so a GUI sees the score move during a long think; earlier they would only be noise.
const REPORT_BOUNDS_AFTER_MS: u128 = 3000;
/// Helper threads skip one depth in this many (from depth 3, shifted by their number), so
/// that the threads spread over neighbouring depths instead of all searching the same.
const HELPER_SKIP_CYCLE: i32 = 4;
/// With a single legal move the answer is known; this deep a search still gives a score
/// and a ponder move.
const SINGLE_MOVE_DEPTH: i32 = 4;
/// A mate is trusted once an iteration searched this many plies beyond its length.
const MATE_CONFIRM_PLIES: i32 = 2;
/// How much of the best-move instability carries over to the next iteration.
const BEST_MOVE_CHANGES_DECAY: f64 = 0.5;

impl Worker {
    /// Searches depth after depth until the limits, the clock or `stop` end it.
    pub(super) fn iterate(&mut self) {
        let limits = self.job().settings.limits.clone();
        let multipv = limits.multipv.clamp(1, self.root_moves.len());
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 4)
            .clamp(1, MAX_PLY as i32 - 4);
        let mut last_best = None;
        let mut stable_iterations = 0u32;
        let mut previous_iteration_score = -INFINITE;
        for depth in 1..=max_depth {
            // Helpers skip some depths so that threads spread over several depths.
            if !self.is_main() && depth > 2 && (depth + self.id as i32) % HELPER_SKIP_CYCLE == 0 {
                continue;
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.previous_score = rm.score;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(depth);
                if self.stopped {
                    break;
                }
                // Keep the lines found so far in order.
                self.root_moves[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.is_main() {
                    self.report(depth, multipv, ScoreBound::Exact);
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            let best = &self.root_moves[0];
            self.last_iteration_pv.clear();
            let room = self.last_iteration_pv.capacity();
            self.last_iteration_pv
                .extend(best.pv.iter().copied().take(room));
            self.shared.results[self.id]
                .lock()
                .map(|mut r| {
                    *r = ThreadResult {
                        depth,
                        seldepth: best.seldepth,
                        score: best.score,
                        pv: best.pv.clone(),
                    }
                })
                .ok();
            if !self.is_main() {
                continue;
            }
            // Main thread: decide whether another iteration is worth its time.
            let best_mv = best.mv;
            let score = best.score;
            if Some(best_mv) == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
                self.best_move_changes += 1.0;
            }
            last_best = Some(best_mv);
            let job = self.job();
            if let Some(mate_plies) = (score >= MATE_BOUND).then(|| MATE - score) {
                // A mate found and confirmed by searching deeper than its length.
                if depth > mate_plies + MATE_CONFIRM_PLIES && !limits.infinite && !limits.ponder {
                    break;
                }
            }
            if self.root_moves.len() == 1 && depth >= SINGLE_MOVE_DEPTH && job.budget.is_some() {
                break;
            }
            // A fixed movetime and a pure byoyomi are used to the deadline
            // (`Budget::use_all`): time left over there is lost.
            if let Some(budget) = job.budget {
                if !self.shared.pondering.load(Ordering::Relaxed) {
                    let drop = if previous_iteration_score == -INFINITE {
                        0
                    } else {
                        previous_iteration_score - score
                    };
                    let share = best.effort as f64 / self.nodes.max(1) as f64;
                    let factor =
                        crate::time::stretch(self.best_move_changes, drop, stable_iterations)
                            * crate::time::effort_factor(share);
                    if budget.spent(job.start.elapsed(), factor) {
                        break;
                    }
                }
            }
            self.best_move_changes *= BEST_MOVE_CHANGES_DECAY;
            previous_iteration_score = score;
        }
    }

    /// Searches the current principal variation at `depth` with a window around its last
    /// score, widening it when the score falls outside.
    fn aspiration(&mut self, depth: i32) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = params::aspiration_delta();
        let (mut alpha, mut beta) =
            if depth >= params::aspiration_depth() && previous.abs() < MATE_BOUND {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        let mut failed_high = 0;
        loop {
            let searched_depth =
                (depth - failed_high * params::aspiration_fail_high_plies()).max(1);
            let score = self.search::<true>(alpha, beta, searched_depth, 0, false);
            // Stable sort: moves that were not searched to the end keep their order.
            self.root_moves[self.pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                if self.is_main() && self.job().start.elapsed().as_millis() > REPORT_BOUNDS_AFTER_MS
                {
                    self.report(depth, self.pv_index + 1, ScoreBound::Upper);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                failed_high = 0;
            } else if score >= beta {
                if self.is_main() && self.job().start.elapsed().as_millis() > REPORT_BOUNDS_AFTER_MS
                {
                    self.report(depth, self.pv_index + 1, ScoreBound::Lower);
                }
                beta = (score + delta).min(INFINITE);
                failed_high += 1;
            } else {
                return;
            }
            delta += delta / 2;
        }
    }

    /// Reports the first `lines` principal variations (only the last one for bounds).
    fn report(&self, depth: i32, lines: usize, bound: ScoreBound) {
        let job = self.job();
        let nodes = self.shared.total_nodes().max(self.nodes);
        let time_ms = job.start.elapsed().as_millis() as u64;
        let hashfull = self.tt.hashfull();
        let first = if bound == ScoreBound::Exact {
            0
        } else {
            lines - 1
        };
        for (i, rm) in self.root_moves.iter().enumerate().take(lines).skip(first) {
            let searched = rm.score != -INFINITE;
            let (score, d) = if searched || i > self.pv_index {
                (rm.score, depth)
            } else {
                (rm.previous_score, depth - 1)
            };
            if score == -INFINITE {
                continue;
            }
            (job.reporter)(Event::Progress(Progress {
                depth: d.max(1),
                seldepth: rm.seldepth.max(d),
                multipv: i + 1,
                score,
                bound,
                nodes,
                time_ms,
                hashfull,
                pv: rm.pv.clone(),
            }));
        }
    }
}
