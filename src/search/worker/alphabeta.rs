//! The principal-variation alpha-beta search: table cutoffs, the mate-in-one test,
//! pruning (reverse futility, null move, futility, late moves, SEE), extensions and
//! late-move reductions, and the history updates after a cutoff.

use super::{cuts_off, Worker};
use crate::search::history::{bonus, continuation_row, ContinuationRows};
use crate::search::mate1::mate_in_one;
use crate::search::movepick::{is_tactical, previous_move, MovePicker};
use crate::search::score::{
    mate_in, mated_in, score_from_tt, score_to_tt, EVAL_LIMIT, INFINITE, MATE_BOUND, MAX_PLY,
};
use crate::search::see::see_ge;
use crate::tt::Bound;
use crate::types::Move;
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;

/// Late-move reductions by depth and move number, in plies (×1024 for precision).
static REDUCTIONS: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut table = [[0; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (1024.0 * (0.3 + (d as f64).ln() * (m as f64).ln() / 2.25)) as i32;
        }
    }
    table
});

fn reduction(depth: i32, moves: usize) -> i32 {
    REDUCTIONS[depth.clamp(0, 63) as usize][moves.min(63)]
}

impl Worker {
    pub(super) fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: i32,
        cut_node: bool,
    ) -> i32 {
        let root = ply == 0;
        if depth <= 0 {
            return self.quiescence::<PV>(alpha, beta, ply);
        }
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let p = ply as usize;
        if !root {
            if let Some(score) = self.node_outcome(ply) {
                return score;
            }
            if p >= MAX_PLY {
                return self.evaluate(ply);
            }
            // Mate distance pruning: no line from here beats a mate already found nearer.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let tt_move = if root {
            Some(self.root_moves[self.pv_index].mv)
        } else {
            entry.and_then(|e| e.mv)
        };
        let tt_score = entry.map(|e| score_from_tt(e.score, ply));
        if let (false, Some(e), Some(s)) = (PV, entry, tt_score) {
            if e.depth >= depth && cuts_off(e.bound, s, alpha, beta) {
                return s;
            }
        }

        // A mate on the board is found before anything is pruned.
        // Skipped when the table holds this node from a search at depth >= 1: the test ran
        // then, and a mate it found is the table move now. (Worth +61 Elo at byoyomi 200,
        // 95% +14 .. +112, over 200 games: the same depths in about 30% fewer nodes.)
        let tested_before = entry.is_some_and(|e| e.depth >= 1);
        if !root && !in_check && !tested_before {
            if let Some(mv) = mate_in_one(&mut self.pos) {
                let score = mate_in(ply + 1);
                self.tt.store(
                    key,
                    Some(mv),
                    score_to_tt(score, ply),
                    0,
                    depth.min(MAX_PLY as i32),
                    Bound::Exact,
                    PV,
                );
                if PV {
                    self.pv[p].clear();
                    self.pv[p].push(mv);
                }
                return score;
            }
        }

        let static_eval = if in_check {
            -INFINITE
        } else {
            match entry {
                Some(e) if e.eval.abs() < EVAL_LIMIT && e.eval != 0 => e.eval,
                _ => self.evaluate(ply),
            }
        };
        self.frames[p].static_eval = static_eval;
        let improving = !in_check && p >= 2 && static_eval > self.frames[p - 2].static_eval;
        self.frames[p + 1].killers = [None; 2];

        if !PV && !in_check && !self.opponent_threatens_declaration() {
            // Reverse futility: far enough above beta that a quiet move will not fall back.
            let margin = 110 * depth - if improving { 60 } else { 0 };
            if depth <= 7 && static_eval - margin >= beta && static_eval < MATE_BOUND {
                return static_eval;
            }
            // Null move: pass, and if a reduced search still fails high, so would a move.
            let after_null = p >= 1 && self.frames[p - 1].null_move;
            if depth >= 3
                && static_eval >= beta
                && !after_null
                && ply >= self.nmp_min_ply
                && beta > -MATE_BOUND
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.frames[p].current = None;
                self.frames[p].null_move = true;
                self.make_null(ply);
                let score = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.undo_null();
                self.frames[p].null_move = false;
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if depth < 12 || self.nmp_min_ply > 0 {
                        return score;
                    }
                    // Verification at high depth, with null moves off for a while.
                    self.nmp_min_ply = ply + 3 * (depth - r) / 4;
                    let verified = self.search::<false>(beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }

        // Internal iterative reduction: without a table move this node is probably less
        // important than it looks; search it a ply shallower.
        if depth >= 4 && tt_move.is_none() && (PV || cut_node) {
            depth -= 1;
        }

        let previous = if p >= 1 && !self.frames[p - 1].null_move {
            self.frames[p - 1]
                .current
                .or_else(|| previous_move(&self.pos))
        } else {
            None
        };
        let counter = self.history.counter(previous);
        let continuation: ContinuationRows = [
            continuation_row(previous),
            if p >= 2 {
                continuation_row(self.frames[p - 2].current)
            } else {
                None
            },
        ];
        let mut picker = MovePicker::new(
            &self.pos,
            tt_move,
            self.frames[p].killers,
            counter,
            continuation,
        );
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures: ArrayVec<Move, 32> = ArrayVec::new();
        let original_alpha = alpha;
        let side = self.pos.side_to_move();

        while let Some(mv) = picker.next(&self.pos, &self.history) {
            if root && !self.root_moves[self.pv_index..].iter().any(|r| r.mv == mv) {
                continue;
            }
            searched += 1;
            // The child's entries are fetched before the pruning tests, which gives the
            // memory time to answer; a pruned move wastes one fetch.
            let child_key = self.pos.key_after(mv);
            self.tt.prefetch(child_key);
            self.eval_cache.prefetch(child_key);
            let tactical = is_tactical(&self.pos, mv);
            let gives_check = self.pos.gives_check(mv);
            let moved = self.pos.moved_piece_after(mv);
            let history_score = if tactical {
                0
            } else {
                self.history.quiet(side, mv) + self.history.continuation(continuation, moved, mv)
            };

            // Shallow-depth pruning, once a move that does not lose has been found.
            if !root && best_score > -MATE_BOUND {
                let lmr_depth = (depth - 1 - reduction(depth, searched) / 1024).max(0);
                if !tactical && !gives_check {
                    // Late-move pruning. Shogi has two to three times the moves of chess,
                    // drops included, so the count is about three times the usual one:
                    // at 20,000 nodes a move, (3 + d²)/2 lost 96 Elo to no pruning at all,
                    // (8 + 3d²)/2 beat it by 81, and this by 115 (200 games each).
                    let limit = (16 + 4 * depth * depth) / if improving { 1 } else { 2 };
                    if searched as i32 > limit {
                        picker.skip_quiets = true;
                        continue;
                    }
                    if !in_check
                        && lmr_depth <= 6
                        && static_eval + 120 + 130 * lmr_depth + history_score / 64 <= alpha
                    {
                        continue;
                    }
                    if lmr_depth <= 8 && !see_ge(&self.pos, mv, -30 * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if depth <= 8 && !see_ge(&self.pos, mv, -110 * depth) {
                    continue;
                }
            }

            // Check extension, for checks that do not simply lose the checking piece.
            let extension = i32::from(
                gives_check
                    && ply < 2 * self.root_depth
                    && (depth <= 6 || see_ge(&self.pos, mv, 0)),
            );
            let new_depth = depth - 1 + extension;

            self.frames[p].current = Some((moved, mv));
            self.make(mv, ply);

            let mut score;
            if depth >= 2 && searched > 1 + usize::from(root) && (!tactical || cut_node) {
                let mut r = reduction(depth, searched);
                if !PV {
                    r += 1024;
                }
                if cut_node {
                    r += 1024;
                }
                if improving {
                    r -= 512;
                }
                if gives_check || in_check {
                    r -= 1024;
                }
                r -= history_score * 1024 / 8192;
                let reduced = (new_depth - r / 1024).clamp(1, new_depth.max(1));
                score = -self.search::<false>(-alpha - 1, -alpha, reduced, ply + 1, true);
                if score > alpha && reduced < new_depth {
                    score =
                        -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
            } else if !PV || searched > 1 {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            } else {
                score = alpha + 1; // forces the full-window search below
            }
            if PV && (searched == 1 || score > alpha) {
                score = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.pos.undo();
            if self.stopped {
                return 0;
            }

            if root {
                let child_pv = self.pv[p + 1].clone();
                let seldepth = self.seldepth;
                let rm = self
                    .root_moves
                    .iter_mut()
                    .find(|r| r.mv == mv)
                    .expect("a root move");
                if searched == 1 || score > alpha {
                    rm.score = score;
                    rm.seldepth = seldepth;
                    rm.pv.clear();
                    rm.pv.push(mv);
                    rm.pv.extend(child_pv.iter().copied());
                    if searched > 1 && self.is_main() {
                        self.best_move_changes += 1.0;
                    }
                } else {
                    rm.score = -INFINITE;
                }
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV && !root {
                        self.update_pv(p, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if Some(mv) != best_move {
                if tactical {
                    let _ = captures.try_push(mv);
                } else {
                    let _ = quiets.try_push(mv);
                }
            }
        }

        if searched == 0 {
            // No legal move: in shogi that loses, in check or not.
            return mated_in(ply);
        }

        if let Some(best) = best_move.filter(|_| best_score >= beta) {
            let b = bonus(depth);
            if !is_tactical(&self.pos, best) {
                let f = &mut self.frames[p];
                if f.killers[0] != Some(best) {
                    f.killers[1] = f.killers[0];
                    f.killers[0] = Some(best);
                }
                self.history.set_counter(previous, best);
                self.history.update_quiet(side, best, b);
                let piece = self.pos.moved_piece_after(best);
                self.history
                    .update_continuation(continuation, piece, best, b);
                for &q in &quiets {
                    self.history.update_quiet(side, q, -b);
                    let piece = self.pos.moved_piece_after(q);
                    self.history.update_continuation(continuation, piece, q, -b);
                }
            } else {
                self.history.update_capture(&self.pos, best, b);
            }
            for &c in &captures {
                self.history.update_capture(&self.pos, c, -b);
            }
        }

        let eval = if in_check { 0 } else { static_eval };
        let window = (original_alpha, beta);
        self.store::<PV>(key, best_move, best_score, window, eval, depth, ply);
        best_score
    }
}
