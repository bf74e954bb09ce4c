//! The principal-variation alpha-beta search: table cutoffs, the mate-in-one test,
//! pruning (razoring, reverse futility, null move, ProbCut, futility, late moves, bad
//! history, SEE), extensions and late-move reductions, and the history updates after a
//! cutoff.

use super::{cuts_off, refined_eval, Worker};
use crate::search::correction::CorrectionKeys;
use crate::search::history::{
    bonus, continuation_context, continuation_row, continuation_row_in, pawn_index,
    ContinuationRows, LOW_PLY,
};
use crate::search::movepick::{is_tactical, previous_move, MovePicker};
use crate::search::params;
use crate::search::score::{
    mate_in, mated_in, score_from_tt, score_to_tt, toward_beta, EVAL_LIMIT, INFINITE, MATE_BOUND,
    MAX_PLY,
};
use crate::search::see::{material_gain, see_ge};
use crate::tt::Bound;
use crate::types::{Bitboard, Move, Piece};
use arrayvec::ArrayVec;
#[cfg(not(feature = "spsa"))]
use once_cell::sync::Lazy;

/// The late-move reduction at `depth` for the `moves`-th move, in 1/1024 ply (depths and
/// move numbers from 1 to 63).
fn reduction_formula(depth: usize, moves: usize) -> i32 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    let base = params::lmr_base() as f64 / 1000.0;
    let divisor = params::lmr_divisor() as f64 / 100.0;
    (1024.0 * (base + (depth as f64).ln() * (moves as f64).ln() / divisor)) as i32
}

/// Late-move reductions by depth and move number, computed once.
#[cfg(not(feature = "spsa"))]
static REDUCTIONS: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut table = [[0; 64]; 64];
    for (d, row) in table.iter_mut().enumerate() {
        for (m, r) in row.iter_mut().enumerate() {
            *r = reduction_formula(d, m);
        }
    }
    table
});

#[cfg(not(feature = "spsa"))]
fn reduction(depth: i32, moves: usize) -> i32 {
    REDUCTIONS[depth.clamp(0, 63) as usize][moves.min(63)]
}

/// Tuning changes the constants between searches: no table.
#[cfg(feature = "spsa")]
fn reduction(depth: i32, moves: usize) -> i32 {
    reduction_formula(depth.clamp(0, 63) as usize, moves.min(63))
}

/// The late-move count: past this many moves a node's quiet moves are pruned.
fn late_move_count(depth: i32, improving: bool) -> i32 {
    (params::lmp_base() + params::lmp_factor() * depth * depth) / if improving { 1 } else { 2 }
}

/// The depth the `searched`-th move would be searched to after its late-move reduction,
/// by which the shallow-depth pruning (step 8) judges it.
fn lmr_depth(depth: i32, searched: usize) -> i32 {
    (depth - 1 - reduction(depth, searched) / 1024).max(0)
}

/// `rfp_model` 1: the reverse futility margin a ply is this much smaller
/// without a table entry (YaneuraOu's 21 of 76).
const RFP_Y_NO_ENTRY: i32 = 21;
/// `rfp_model` 1: an improving node's reverse futility margin shrinks by this
/// many 1/1024 of its margin a ply (YaneuraOu's: 2.6 plies' worth)...
const RFP_Y_IMPROVING: i32 = 2686;
/// ...and one whose opponent's position got worse by this many.
const RFP_Y_WORSENING: i32 = 362;
/// `nmp_model` 1: the null move's margin is this much smaller when improving.
const NMP_Y_IMPROVING: i32 = 53;

/// The capture history counts this fraction in the futility pruning of captures
/// (Stockfish's 1/7; hayate's capture history spans ±16,384).
const CAPTURE_FUTILITY_HISTORY_DIVISOR: i32 = 8;

/// The low-ply history learns this share (1/1024) of a cutoff's bonus (YaneuraOu's).
const LOW_PLY_BONUS_SHARE: i32 = 761;

/// `singular_model` 1 (YaneuraOu 9.70's amounts, in its units, which are the net's
/// here): the singular margin is (60 + 66 at a node once on a PV but not on one now)
/// · depth / 55...
const SINGULAR_Y_MARGIN: i32 = 60;
const SINGULAR_Y_TT_PV: i32 = 66;
const SINGULAR_Y_DIVISOR: i32 = 55;
/// ...a second ply when the other moves fall −4 + 212·PV − 182·(quiet table move) below
/// it, less 44 beyond the root depth...
const SINGULAR_Y_DOUBLE_BASE: i32 = -4;
const SINGULAR_Y_DOUBLE_PV: i32 = 212;
const SINGULAR_Y_DOUBLE_QUIET: i32 = 182;
const SINGULAR_Y_DOUBLE_BEYOND: i32 = 44;
/// ...and a third at 73 + 320·PV − 218·quiet + 92·(once on a PV), less 45 beyond it.
const SINGULAR_Y_TRIPLE_BASE: i32 = 73;
const SINGULAR_Y_TRIPLE_PV: i32 = 320;
const SINGULAR_Y_TRIPLE_QUIET: i32 = 218;
const SINGULAR_Y_TRIPLE_TT_PV: i32 = 92;
const SINGULAR_Y_TRIPLE_BEYOND: i32 = 45;

/// The plies a table move that does not stand out is searched shallower: when its
/// table score beats beta anyway, and at a cut node; hayate's, and YaneuraOu's
/// (`singular_model` 1).
const SINGULAR_REDUCTIONS: (i32, i32) = (2, 1);
const SINGULAR_Y_REDUCTIONS: (i32, i32) = (3, 2);

/// `lmr_cutoffs` reduces the late moves of a node once its children failed high more
/// often than this (Stockfish's 3).
const CUTOFFS_FOR_REDUCTION: i32 = 3;

/// Up to this depth, `tt_cut_model` 1 lets the table cut a node only where the entry's
/// bound agrees with the node's expected type.
const TT_CUT_TYPE_DEPTH: i32 = 5;

/// The static evaluation's change over the opponent's last move that
/// `eval_change_weight` teaches is clamped to this range (centipawns, the mover's view)
/// and then shifted by [`EVAL_CHANGE_OFFSET`], Stockfish's and YaneuraOu's bounds: a
/// move that loses more than this is no worse a move to try than one that loses this.
const EVAL_CHANGE_RANGE: (i32, i32) = (-214, 171);
/// Added to the clamped change: most quiet moves cost their mover a little by the static
/// evaluation (the side to move has the tempo), so a small loss still counts in favour.
const EVAL_CHANGE_OFFSET: i32 = 60;

/// The history bonus of a quiet move after which the static evaluation went from
/// `before` (the mover's view) to `after` (the opponent's view), in tenths of
/// `eval_change_weight`'s units.
fn eval_change_bonus(before: i32, after: i32) -> i32 {
    let (low, high) = EVAL_CHANGE_RANGE;
    (-(before + after)).clamp(low, high) + EVAL_CHANGE_OFFSET
}

/// The change in depth (in plies) of the full-depth search of a reduced move that beat
/// alpha, by how far its reduced `score` beat the `best` score so far.
fn research_adjustment(score: i32, best: i32, new_depth: i32) -> i32 {
    if params::lmr_deeper_margin() == 0 {
        0
    } else if score > best + params::lmr_deeper_margin() + 2 * new_depth {
        1
    } else if score < best + params::lmr_shallower_margin() {
        -1
    } else {
        0
    }
}

/// What the steps of one node share: fixed once the static evaluation is known.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: i32,
    /// The node's beta (singular extension's multi-cut).
    beta: i32,
    in_check: bool,
    cut_node: bool,
    static_eval: i32,
    /// How far the correction history moved the static evaluation (centipawns; 0 in
    /// check).
    correction: i32,
    /// What the pruning before the moves judges the node by: the static evaluation, or
    /// the table's score where its bound shows the evaluation too low or too high
    /// (`tt_eval`).
    eval: i32,
    /// The static evaluation is better than two plies ago (and not in check).
    improving: bool,
    /// On a principal variation now or when the table's entry was stored.
    tt_pv: bool,
    /// The table move is a capture or promotion.
    tt_capture: bool,
    /// There is a table move.
    has_tt_move: bool,
    /// The table's score (None without an entry) and the depth it was searched to.
    tt_score: Option<i32>,
    tt_depth: i32,
    /// The table has an entry for this node.
    tt_hit: bool,
    /// The static evaluation is better for this side than the parent's was for the
    /// opponent: the opponent's last move made its position worse.
    opponent_worsening: bool,
    /// A PV node on the last iteration's best line (`follow_pv`): its quiet moves are
    /// not pruned but by the late-move count.
    keep_line: bool,
}

impl Worker {
    /// The principal-variation search of one node. `PV` nodes are searched with an open
    /// window and keep their line; the others with a null window, and `cut_node` marks
    /// those expected to fail high.
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
        // On the previous iteration's best line: every move from the root is its move
        // (worked out only with `follow_pv` on: off, every node's flag stays false).
        let follow_pv = params::follow_pv() != 0
            && (root
                || (self.frames[p - 1].follow_pv
                    && self.frames[p - 1].current.map(|(_, m)| m)
                        == self.last_iteration_pv.get(p - 1).copied()));
        self.frames[p].follow_pv = follow_pv;
        // Set while the singular extension searches this node without its table move:
        // nothing then cuts off or prunes on the table's word, and nothing is stored.
        let excluded = self.frames[p].excluded;

        // Step 1. Nodes decided without a search: a repetition, a declaration, the ply
        // limit; and mate distance pruning, since no line from here beats a mate already
        // found nearer the root.
        if !root {
            if let Some(score) = self.node_outcome(ply) {
                return score;
            }
            if p >= MAX_PLY {
                return self.evaluate(ply);
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 2. The transposition table: its move searched first, its score a cutoff
        // outside PV nodes when it was searched deep enough.
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let tt_move = if root {
            Some(self.root_moves[self.pv_index].mv)
        } else {
            entry.and_then(|e| e.mv)
        };
        let tt_score = entry.map(|e| score_from_tt(e.score, ply));
        // On a principal variation now or when the table's entry was stored.
        let tt_pv = PV || entry.is_some_and(|e| e.pv);
        if let (false, None, Some(e), Some(s)) = (PV, excluded, entry, tt_score) {
            let deep_enough = if params::tt_cut_model() == 0 {
                e.depth >= depth
            } else {
                e.depth > depth - i32::from(s <= beta)
                    && (cut_node == (s >= beta) || depth > TT_CUT_TYPE_DEPTH)
            };
            if deep_enough && cuts_off(e.bound, s, alpha, beta) {
                if s >= beta && params::tt_cut_reward() != 0 {
                    self.reward_tt_cutoff(p, e.mv, depth);
                }
                return s;
            }
        }

        // Step 3. A mate on the board is found before anything is pruned. Skipped when
        // the table holds this node from a search at depth >= 1: the test ran then, and a
        // mate it found is the table move now.
        let tested_before = entry.is_some_and(|e| e.depth >= 1);
        if !root && !in_check && !tested_before && excluded.is_none() {
            if let Some(score) = self.mate_on_board::<PV>(key, ply, depth) {
                return score;
            }
        }

        // Step 4. The static evaluation (the table's, when it has one) with what earlier
        // searches found it misjudges (correction history), and whether it improves on
        // two plies ago. The table keeps the evaluation uncorrected.
        let side = self.pos.side_to_move();
        let correction_keys = (!in_check).then(|| {
            let back = |n: usize| (p >= n).then(|| self.frames[p - n].current).flatten();
            CorrectionKeys::of(&self.pos).with_moves(back(1), back(2))
        });
        let raw_eval = if in_check {
            -INFINITE
        } else {
            match entry {
                Some(e) if e.eval.abs() < EVAL_LIMIT && e.eval != 0 => e.eval,
                _ => self.evaluate(ply),
            }
        };
        let static_eval = match correction_keys {
            Some(keys) => (raw_eval + self.correction.value(side, keys))
                .clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1),
            None => raw_eval,
        };
        self.frames[p].static_eval = static_eval;
        if params::eval_change_weight() != 0 && !in_check && excluded.is_none() {
            self.learn_from_eval_change(p, static_eval);
        }
        let improving = !in_check && p >= 2 && {
            // A node in check has no static evaluation to compare with.
            let two_back = self.frames[p - 2].static_eval;
            let earlier = if two_back == -INFINITE && p >= 4 && params::improving_skip_check() != 0
            {
                self.frames[p - 4].static_eval
            } else {
                two_back
            };
            static_eval > earlier
        };
        self.frames[p + 1].killers = [None; 2];
        self.frames[p + 2].cutoffs = 0;
        if params::hindsight() != 0 && p >= 1 && !in_check && excluded.is_none() {
            let prior = self.frames[p - 1].reduction;
            let parent_eval = self.frames[p - 1].static_eval;
            if parent_eval != -INFINITE {
                let opponent_worsening = static_eval > -parent_eval;
                if prior >= 3 && !opponent_worsening {
                    depth += 1;
                }
                if prior >= 2
                    && depth >= 2
                    && static_eval + parent_eval > params::hindsight_margin()
                {
                    depth -= 1;
                }
            }
        }
        // A searched score beats the static evaluation on the side its bound allows (not
        // a mate's: reverse futility would return it as a score of its own).
        let eval = match (entry, tt_score) {
            (Some(e), Some(s)) if params::tt_eval() != 0 && !in_check => {
                refined_eval(e.bound, s, static_eval)
            }
            _ => static_eval,
        };
        let node = Node {
            depth,
            ply,
            beta,
            in_check,
            cut_node,
            static_eval,
            correction: if in_check { 0 } else { static_eval - raw_eval },
            eval,
            improving,
            tt_pv,
            tt_capture: tt_move.is_some_and(|m| is_tactical(&self.pos, m)),
            has_tt_move: tt_move.is_some(),
            tt_score,
            tt_depth: entry.map_or(-1, |e| e.depth),
            tt_hit: entry.is_some(),
            opponent_worsening: !in_check
                && p >= 1
                && self.frames[p - 1].static_eval != -INFINITE
                && static_eval > -self.frames[p - 1].static_eval,
            keep_line: PV && follow_pv,
        };

        // Step 5. Pruning before any move: reverse futility and the null move. Not in PV
        // nodes, not in check, and not when the opponent could declare a win next move
        // (a pass would let them).
        if !PV && !in_check && excluded.is_none() && !self.opponent_threatens_declaration() {
            if let Some(score) = self.prune_node(node, beta) {
                return score;
            }
            if let Some(score) = self.probcut(node, entry, tt_score, tt_move) {
                return score;
            }
        }

        // Step 6. Internal iterative reduction: without a table move this node is
        // probably less important than it looks; search it a ply shallower.
        if depth >= params::iir_depth() && tt_move.is_none() && (PV || cut_node) && !follow_pv {
            depth -= 1;
        }
        // A node whose evaluation stands at or above beta and still did not fail high
        // holds something the pruning missed: its moves deserve a wider look.
        let improving = node.improving
            || (params::improving_above_beta() != 0 && !in_check && static_eval >= beta);
        let mut node = Node {
            depth,
            improving,
            ..node
        };

        // Step 7. The move loop.
        let previous = self.previous_at(p);
        let counter = self.history.counter(previous);
        let continuation = self.continuation_rows(p, previous);
        let pawn_index = (params::pawn_history() != 0).then(|| pawn_index(&self.pos));
        let mut picker = MovePicker::new(
            &self.pos,
            tt_move,
            self.frames[p].killers,
            counter,
            (continuation, pawn_index),
            depth,
            p,
        );
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures: ArrayVec<Move, 32> = ArrayVec::new();
        let original_alpha = alpha;

        // The squares the opponent attacks, once a quiet move's exchange is asked about.
        let mut enemy_attacks = None;
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            if Some(mv) == excluded {
                continue;
            }
            if root && !self.root_moves[self.pv_index..].iter().any(|r| r.mv == mv) {
                continue;
            }
            searched += 1;
            let tactical = is_tactical(&self.pos, mv);
            let gives_check = picker.gives_check(&self.pos, mv);
            let moved = self.pos.moved_piece_after(mv);
            let history_score = if tactical {
                0
            } else {
                self.history.quiet(side, mv)
                    + self.history.continuation(continuation, moved, mv)
                    + pawn_index.map_or(0, |i| self.history.pawn(i, moved, mv))
            };

            // Step 8. Shallow-depth pruning, once a move that does not lose was found.
            if !root && best_score > -MATE_BOUND {
                let quiet = !tactical && !gives_check;
                let skip = if quiet {
                    let attacks = &mut enemy_attacks;
                    self.prune_quiet(node, mv, searched, history_score, alpha, attacks)
                } else {
                    self.prune_tactical(node, mv, searched, gives_check, alpha)
                };
                match skip {
                    Prune::Keep => {}
                    Prune::Skip => continue,
                    Prune::SkipQuiets => {
                        picker.skip_quiets = true;
                        continue;
                    }
                }
            }

            // Step 9. Check extension, for checks that do not simply lose the checking
            // piece.
            // The plies the node itself goes deeper by for its later moves.
            let mut deepen = 0;
            let mut extension = i32::from(
                gives_check
                    && params::check_extension() != 0
                    && ply < 2 * self.root_depth
                    && depth >= params::check_extension_min_depth()
                    && (params::check_extension_late() != 0
                        || searched as i32 <= late_move_count(depth, node.improving))
                    && (depth <= params::check_extension_depth() || see_ge(&self.pos, mv, 0)),
            );
            // Singular extension: the table move is extended when no other move comes
            // close to it; when another does, and even beats beta, the node is cut
            // (multi-cut), and when the table move does not stand out it is searched
            // shallower.
            if !root
                && Some(mv) == tt_move
                && excluded.is_none()
                && depth >= params::singular_depth() + i32::from(tt_pv)
                && ply < 2 * self.root_depth
            {
                if let Some((singular, cut)) = self.singular_search::<PV>(node, mv, entry, tt_score)
                {
                    if self.stopped {
                        return 0;
                    }
                    if let Some(score) = cut {
                        return score;
                    }
                    // A singular move's extension replaces the check's; a reduction
                    // applies to it.
                    extension = if singular > 0 {
                        extension.max(singular)
                    } else {
                        extension + singular
                    };
                    // YaneuraOu's and Stockfish's rule: a node whose table move stands
                    // out is worth a ply more for the moves after it too (they must
                    // refute more).
                    deepen = i32::from(singular > 0 && params::singular_model() != 0);
                }
            }
            let new_depth = depth - 1 + extension;
            depth += deepen;
            node.depth = depth;

            // The child's entries are fetched once the move is sure to be searched: a
            // third of the moves handed out are pruned, and computing their keys and
            // fetching their entries cost more than the earlier start saved.
            let child_key = self.pos.key_after(mv);
            self.tt.prefetch(child_key);
            self.eval_cache.prefetch(child_key);
            self.frames[p].current = Some((moved, mv));
            self.frames[p].context = continuation_context(in_check, tactical);
            let nodes_before = self.nodes;
            self.make(mv, ply);

            // Step 10. Late moves first with a reduced null window, then (if they beat
            // alpha) at full depth, and in PV nodes with the full window.
            let mut score;
            // Captures and promotions are reduced as well, at every node, their history
            // the statistic (reducing them only at expected cut nodes lost games).
            if depth >= 2 && searched > 1 + usize::from(root) {
                let reduced = if params::lmr_model() == 0 {
                    let r = self.late_move_reduction::<PV>(
                        node,
                        searched,
                        tactical,
                        gives_check,
                        history_score,
                    );
                    (new_depth - r / 1024).clamp(1, new_depth.max(1))
                } else {
                    let r = late_move_reduction_y::<PV>(node, searched, alpha, history_score);
                    let pv_ply = if PV { params::lmr_y_pv_ply() } else { 0 };
                    (new_depth - r / 1024)
                        .min(new_depth + params::lmr_y_deeper())
                        .max(1)
                        + pv_ply
                };
                // The earlier moves' replies kept cutting off: this node fails low, and
                // its later moves are likely refuted as easily.
                let reduced = if params::lmr_cutoffs() != 0
                    && self.frames[p + 1].cutoffs > CUTOFFS_FOR_REDUCTION
                {
                    (reduced - params::lmr_cutoffs() / 1024).max(1)
                } else {
                    reduced
                };
                self.frames[p].reduction = new_depth - reduced;
                score = -self.search::<false>(-alpha - 1, -alpha, reduced, ply + 1, true);
                self.frames[p].reduction = 0;
                if score > alpha && reduced < new_depth {
                    // How far the reduced search beat the best so far says whether the
                    // full one should look a ply further or may stop a ply short.
                    let full = new_depth + research_adjustment(score, best_score, new_depth);
                    if full > reduced {
                        score = -self.search::<false>(-alpha - 1, -alpha, full, ply + 1, !cut_node);
                    }
                    let share = params::post_lmr_bonus();
                    if share != 0 && !tactical && !self.stopped {
                        let b = if score >= beta {
                            bonus(new_depth)
                        } else if score <= alpha {
                            -bonus(new_depth)
                        } else {
                            0
                        };
                        self.history
                            .update_continuation(continuation, moved, mv, b * share / 100);
                    }
                }
            } else if !PV || searched > 1 {
                let shorten = if cut_node && tt_move.is_none() && !root {
                    params::cut_first_shorten().min(new_depth - 1).max(0)
                } else {
                    0
                };
                let d = new_depth - shorten;
                score = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, !cut_node);
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
                let effort = self.nodes - nodes_before;
                self.update_root_move(mv, score, alpha, searched, p, effort);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV && !root {
                        self.update_pv(p, mv);
                    }
                    if score >= beta {
                        self.frames[p].cutoffs += 1 + i32::from(tt_move.is_none());
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

        // Step 11. The result: no legal move loses (in shogi, in check or not); a cutoff
        // teaches the move statistics; the table keeps what was found.
        if searched == 0 {
            // Without its table move a node may have nothing left to search.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if params::fail_high_blend() != 0 {
            best_score = toward_beta(best_score, beta, depth);
        }
        let teaches = best_score >= beta || params::history_exact_reward() != 0;
        if let Some(best) = best_move.filter(|_| teaches) {
            let rows = (continuation, pawn_index);
            self.reward_cutoff(best, depth, p, previous, rows, &quiets, &captures);
        } else if best_move.is_none() && !root && excluded.is_none() {
            self.reward_prior_quiet(p, depth);
        }
        if excluded.is_none() {
            // The correction learns from a result that is not a bound on the wrong
            // side of the evaluation, after a quiet best move (a capture's gain is no
            // misjudgement of the position).
            if let Some(keys) = correction_keys {
                let quiet_best = best_move.is_none_or(|m| !is_tactical(&self.pos, m));
                let below = best_score < static_eval && best_score < beta;
                let above = best_score > static_eval && best_move.is_some();
                if quiet_best && (below || above) && best_score.abs() < MATE_BOUND {
                    self.correction
                        .update(side, keys, best_score - static_eval, depth);
                }
            }
            let eval = if in_check { 0 } else { raw_eval };
            let window = (original_alpha, beta);
            self.store::<PV>(key, best_move, best_score, window, eval, depth, ply, tt_pv);
        }
        best_score
    }

    /// The singular extension's test of the table move `mv` (step 9): the node searched
    /// to half its depth without it, against a bound a margin below the table's score.
    /// Returns the extension (negative: a reduction) and, for a multi-cut, the score to
    /// return; `None` when the table's entry does not qualify.
    fn singular_search<const PV: bool>(
        &mut self,
        node: Node,
        mv: Move,
        entry: Option<crate::tt::TtEntry>,
        tt_score: Option<i32>,
    ) -> Option<(i32, Option<i32>)> {
        let (e, tt_value) = (entry?, tt_score?);
        let Node {
            depth,
            ply,
            cut_node,
            beta,
            ..
        } = node;
        if e.bound == Bound::Upper || e.depth < depth - 3 || tt_value.abs() >= MATE_BOUND {
            return None;
        }
        let p = ply as usize;
        let yaneuraou = params::singular_model() != 0;
        let singular_beta = if yaneuraou {
            let per_ply = SINGULAR_Y_MARGIN + SINGULAR_Y_TT_PV * i32::from(node.tt_pv && !PV);
            tt_value - per_ply * depth / SINGULAR_Y_DIVISOR
        } else {
            tt_value - params::singular_margin() * depth / 64
        };
        self.frames[p].excluded = Some(mv);
        let value = self.search::<false>(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.frames[p].excluded = None;
        // What a table move that does not stand out loses: when its score beats beta
        // anyway, and at a cut node.
        let (above_beta, at_cut_node) = if yaneuraou {
            SINGULAR_Y_REDUCTIONS
        } else {
            SINGULAR_REDUCTIONS
        };
        Some(if value < singular_beta {
            let extension = if yaneuraou {
                singular_y_extension::<PV>(node, value, singular_beta, self.root_depth)
            } else {
                let double = !PV && value < singular_beta - params::singular_double_margin();
                1 + i32::from(double)
            };
            (extension, None)
        } else if value >= beta && value.abs() < MATE_BOUND {
            (0, Some(value))
        } else if tt_value >= beta {
            (-above_beta, None)
        } else if cut_node {
            (-at_cut_node, None)
        } else {
            (0, None)
        })
    }

    /// Reverse futility and null-move pruning (step 5): the score to return when the node
    /// fails high without searching its moves.
    fn prune_node(&mut self, node: Node, beta: i32) -> Option<i32> {
        let Node {
            depth,
            ply,
            eval,
            improving,
            ..
        } = node;
        // Razoring: so far below alpha (beta - 1 here) that only a capture could lift it;
        // the quiescence search says whether one does.
        let alpha = beta - 1;
        if depth <= params::razor_depth()
            && eval + params::razor_base() + params::razor_margin() * depth * depth < alpha
        {
            let score = self.quiescence::<false>(alpha, beta, ply);
            if self.stopped {
                return Some(0);
            }
            if score < beta {
                return Some(score);
            }
        }
        if params::rfp_model() != 0 {
            if let Some(score) = reverse_futility_y(node, beta) {
                return Some(score);
            }
        } else {
            // Reverse futility: far enough above beta that a quiet move will not fall back.
            let margin = params::rfp_margin() * depth
                - if improving {
                    params::rfp_improving()
                } else {
                    0
                };
            if depth <= params::rfp_depth() && eval - margin >= beta && eval < MATE_BOUND {
                return Some(eval);
            }
        }
        self.null_move(node, beta)
    }

    /// Null-move pruning (step 5): pass, and if a reduced search still fails high, so
    /// would a move. `nmp_model` chooses where it is tried and how far it reduces; the
    /// pass, the search and the verification are the same for both.
    fn null_move(&mut self, node: Node, beta: i32) -> Option<i32> {
        let Node {
            depth,
            ply,
            cut_node,
            eval,
            improving,
            ..
        } = node;
        let p = ply as usize;
        let after_null = p >= 1 && self.frames[p - 1].null_move;
        if after_null || ply < self.nmp_min_ply || beta <= -MATE_BOUND {
            return None;
        }
        let yaneuraou = params::nmp_model() != 0;
        // The reduction, and whether the child is searched as an expected cut node.
        let (r, child_cut_node) = if yaneuraou {
            // Only where a cutoff is expected and the evaluation is well above beta; the
            // shallow nodes are left to reverse futility.
            let margin = params::nmp_y_margin()
                - params::nmp_y_slope() * depth
                - NMP_Y_IMPROVING * i32::from(improving);
            if !cut_node || eval < beta + margin {
                return None;
            }
            (params::nmp_y_base() + depth / 3, false)
        } else {
            let margin = params::nmp_margin_base() - params::nmp_margin_slope() * depth;
            if depth < params::nmp_depth() || eval < beta + margin.max(0) {
                return None;
            }
            let r = params::nmp_base()
                + depth / params::nmp_depth_divisor()
                + ((eval - beta) / params::nmp_eval_divisor()).min(params::nmp_eval_max());
            (r, !cut_node)
        };
        self.frames[p].current = None;
        self.frames[p].null_move = true;
        self.make_null(ply);
        let score = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, child_cut_node);
        self.pos.undo_null();
        self.frames[p].null_move = false;
        if self.stopped {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        // A mate found after a pass proves no mate: model 0 cuts with beta, model 1
        // (YaneuraOu's) does not cut.
        let score = match (score >= MATE_BOUND, yaneuraou) {
            (false, _) => score,
            (true, false) => beta,
            (true, true) => return None,
        };
        if depth < params::nmp_verify_depth() || self.nmp_min_ply > 0 {
            return Some(score);
        }
        // Verification at high depth, with null moves off for a while.
        self.nmp_min_ply = ply + 3 * (depth - r) / 4;
        let verified = self.search::<false>(beta - 1, beta, depth - r, ply, false);
        self.nmp_min_ply = 0;
        (verified >= beta).then_some(score)
    }

    /// ProbCut (step 5): a good capture whose reduced search beats beta by a margin
    /// would very likely beat beta at full depth too. Returns the score to cut with.
    fn probcut(
        &mut self,
        node: Node,
        entry: Option<crate::tt::TtEntry>,
        tt_score: Option<i32>,
        tt_move: Option<Move>,
    ) -> Option<i32> {
        let Node {
            depth,
            ply,
            beta,
            cut_node,
            static_eval,
            improving,
            ..
        } = node;
        if params::probcut_depth() == 0
            || depth < params::probcut_depth()
            || beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let probcut_beta = beta + params::probcut_margin()
            - if improving {
                params::probcut_margin() / 4
            } else {
                0
            };
        // The table already says a search this deep stays below it.
        if let (Some(e), Some(s)) = (entry, tt_score) {
            if e.depth >= depth - 3 && s < probcut_beta {
                return None;
            }
        }
        let p = ply as usize;
        let reduced = depth - 4;
        let mut picker = MovePicker::quiescence(&self.pos, tt_move);
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            if !see_ge(&self.pos, mv, probcut_beta - static_eval) {
                continue;
            }
            let moved = self.pos.moved_piece_after(mv);
            self.frames[p].current = Some((moved, mv));
            self.frames[p].context = continuation_context(false, true);
            self.make(mv, ply);
            let mut score = -self.quiescence::<false>(-probcut_beta, -probcut_beta + 1, ply + 1);
            if score >= probcut_beta && reduced > 0 {
                score = -self.search::<false>(
                    -probcut_beta,
                    -probcut_beta + 1,
                    reduced,
                    ply + 1,
                    !cut_node,
                );
            }
            self.pos.undo();
            if self.stopped {
                return Some(0);
            }
            if score >= probcut_beta {
                let key = self.pos.key();
                let eval = entry.map_or(0, |e| e.eval);
                self.tt.store(
                    key,
                    Some(mv),
                    score_to_tt(score, ply),
                    eval,
                    reduced + 1,
                    Bound::Lower,
                    false,
                );
                return Some(score - (probcut_beta - beta));
            }
        }
        None
    }

    /// Shallow-depth pruning of a quiet move that does not check (step 8): late-move
    /// pruning, futility, and losing exchanges.
    fn prune_quiet(
        &self,
        node: Node,
        mv: Move,
        searched: usize,
        history_score: i32,
        alpha: i32,
        enemy_attacks: &mut Option<Bitboard>,
    ) -> Prune {
        let Node {
            depth,
            in_check,
            static_eval,
            improving,
            ..
        } = node;
        let lmr_depth = lmr_depth(depth, searched);
        // Late-move pruning: past this many quiet moves, the rest are skipped.
        if searched as i32 > late_move_count(depth, improving) {
            return Prune::SkipQuiets;
        }
        // A PV node on the last iteration's best line keeps its other quiet moves.
        if node.keep_line {
            return Prune::Keep;
        }
        // Futility: even a good quiet move will not lift the score to alpha.
        if !in_check
            && lmr_depth <= params::futility_depth()
            && static_eval
                + params::futility_base()
                + params::futility_margin() * lmr_depth
                + history_score / params::futility_history_divisor()
                <= alpha
        {
            return Prune::Skip;
        }
        // A move that has failed wherever it was tried.
        if lmr_depth < params::history_prune_depth()
            && history_score < -params::history_prune_margin() * depth
        {
            return Prune::Skip;
        }
        // A quiet move that loses material by exchange.
        if lmr_depth <= params::see_quiet_depth() {
            // A move to a square the opponent does not attack, from one it does not
            // attack either (so no line of its opens behind the piece), loses nothing:
            // its exchange is 0, never below the margin. Most quiet moves are such, and
            // the attack map costs one pass for the node where each exchange costs one.
            let attacked =
                *enemy_attacks.get_or_insert_with(|| self.pos.attacks_by(!self.pos.side_to_move()));
            let unattacked =
                !attacked.has(mv.to()) && mv.from().is_none_or(|from| !attacked.has(from));
            let see_margin = -params::see_quiet_margin() * lmr_depth * lmr_depth;
            if !unattacked && !see_ge(&self.pos, mv, see_margin) {
                return Prune::Skip;
            }
        }
        Prune::Keep
    }

    /// Shallow-depth pruning of a capture, promotion or check (step 8): a capture that
    /// cannot lift the score to alpha even with what it wins (futility), and any such
    /// move that loses too much by exchange.
    fn prune_tactical(
        &self,
        node: Node,
        mv: Move,
        searched: usize,
        gives_check: bool,
        alpha: i32,
    ) -> Prune {
        let depth = node.depth;
        let lmr_depth = lmr_depth(depth, searched);
        if !gives_check && !node.in_check && lmr_depth < params::capture_futility_depth() {
            // Even winning the victim (and a history-weighted margin) falls short.
            let futility = node.static_eval
                + params::capture_futility_base()
                + params::capture_futility_margin() * lmr_depth
                + material_gain(&self.pos, mv)
                + self.history.capture(&self.pos, mv) / CAPTURE_FUTILITY_HISTORY_DIVISOR;
            if futility <= alpha {
                return Prune::Skip;
            }
        }
        if depth <= params::see_tactical_depth()
            && !see_ge(&self.pos, mv, -params::see_tactical_margin() * depth)
        {
            Prune::Skip
        } else {
            Prune::Keep
        }
    }

    /// The late-move reduction of the `searched`-th move (step 10), in 1/1024 ply.
    fn late_move_reduction<const PV: bool>(
        &self,
        node: Node,
        searched: usize,
        tactical: bool,
        gives_check: bool,
        history_score: i32,
    ) -> i32 {
        let mut r = reduction(node.depth, searched);
        if !PV {
            r += params::lmr_non_pv();
            if node.tt_pv {
                r -= params::lmr_tt_pv();
            }
        }
        if node.tt_capture && !tactical {
            r += params::lmr_tt_capture();
        }
        if node.cut_node {
            r += params::lmr_cut_node();
        }
        if node.improving {
            r -= params::lmr_improving();
        }
        if gives_check || node.in_check {
            r -= params::lmr_check();
        }
        // An evaluation the correction history moved far is one that searches keep
        // finding wrong here: its moves are worth a deeper look.
        r -= node.correction.abs() * params::lmr_correction() / 16;
        r - history_score * 1024 / params::lmr_history_divisor()
    }

    /// Keeps a root move's score and line (-infinity when it failed low: not exact), and
    /// adds the nodes searched under it to its effort.
    fn update_root_move(
        &mut self,
        mv: Move,
        score: i32,
        alpha: i32,
        searched: usize,
        p: usize,
        effort: u64,
    ) {
        let child_pv = self.pv[p + 1].clone();
        let seldepth = self.seldepth;
        let rm = self
            .root_moves
            .iter_mut()
            .find(|r| r.mv == mv)
            .expect("a root move");
        rm.effort += effort;
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

    /// The continuation-history rows of the node at ply `p`, whose opponent's last move
    /// was `previous`.
    fn continuation_rows(&self, p: usize, previous: Option<(Piece, Move)>) -> ContinuationRows {
        let row_at = |i: usize| continuation_row_in(self.frames[i].current, self.frames[i].context);
        let back = |n: usize| if p >= n { row_at(p - n) } else { None };
        // The move before is this search's own (in its set of rows) unless it was
        // played before the search began.
        let first = if p >= 1 && previous.is_some() && self.frames[p - 1].current == previous {
            row_at(p - 1)
        } else {
            continuation_row(previous)
        };
        let extra = params::continuation_extra();
        [
            first,
            back(2),
            back(4),
            if extra >= 1 { back(6) } else { None },
            if extra >= 2 { back(3) } else { None },
        ]
    }

    /// A table cutoff at ply `p` by its move `mv` (step 2): a quiet move gets a share of
    /// a cutoff's bonus in the main and continuation histories.
    fn reward_tt_cutoff(&mut self, p: usize, mv: Option<Move>, depth: i32) {
        let Some(mv) = mv.filter(|&m| !is_tactical(&self.pos, m) && self.pos.is_legal(m)) else {
            return;
        };
        let rows = self.continuation_rows(p, self.previous_at(p));
        let b = bonus(depth) * params::tt_cut_reward() / 100;
        let piece = self.pos.moved_piece_after(mv);
        self.history.update_quiet(self.pos.side_to_move(), mv, b);
        self.history.update_continuation(rows, piece, mv, b);
    }

    /// The opponent's last move before the node at ply `p` (with the piece it put down):
    /// `None` after a null move or at the root.
    fn previous_at(&self, p: usize) -> Option<(Piece, Move)> {
        if p >= 1 && !self.frames[p - 1].null_move {
            self.frames[p - 1]
                .current
                .or_else(|| previous_move(&self.pos))
        } else {
            None
        }
    }

    /// After a node at ply `p` failed low (step 11): the opponent's quiet move that led
    /// to it refuted every move tried here, and its histories learn that.
    fn reward_prior_quiet(&mut self, p: usize, depth: i32) {
        let share = params::prior_quiet_bonus();
        if share == 0 {
            return;
        }
        let Some((piece, mv)) = self.prior_quiet_move(p) else {
            return;
        };
        let b = bonus(depth) * share / 100;
        let parent_previous = if p >= 2 {
            self.frames[p - 2].current
        } else {
            None
        };
        let rows = self.continuation_rows(p - 1, parent_previous);
        self.history.update_quiet(piece.color(), mv, b);
        self.history.update_continuation(rows, piece, mv, b);
    }

    /// The opponent's quiet move that led to this node (at ply index `p`) learns how the
    /// static evaluation changed over it (`eval_change_weight`). Not after a capture or
    /// a promotion, whose gain the evaluation sees without any insight of the mover's,
    /// nor when the parent was in check (it had no evaluation).
    fn learn_from_eval_change(&mut self, p: usize, static_eval: i32) {
        let Some((piece, mv)) = self.prior_quiet_move(p) else {
            return;
        };
        let before = self.frames[p - 1].static_eval;
        if before != -INFINITE {
            let bonus = eval_change_bonus(before, static_eval) * params::eval_change_weight();
            self.history.update_quiet(piece.color(), mv, bonus);
        }
    }

    /// The opponent's move that led to the node at ply index `p`, with the piece it put
    /// down, when it was quiet: no capture, no promotion, and not a null move.
    fn prior_quiet_move(&self, p: usize) -> Option<(Piece, Move)> {
        let (piece, mv) = self.frames[p.checked_sub(1)?].current?;
        let quiet = !mv.is_promotion()
            && self
                .pos
                .history()
                .last()
                .is_some_and(|s| s.mv == mv && s.captured.is_none());
        quiet.then_some((piece, mv))
    }

    /// After a cutoff by `best` (step 11): the killers, the counter move and the
    /// histories learn it, and the moves searched before it are marked down. `rows` are
    /// the node's continuation rows and its pawn-structure index (when that history is
    /// kept).
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        best: Move,
        depth: i32,
        p: usize,
        previous: Option<(Piece, Move)>,
        (continuation, pawn_index): (ContinuationRows, Option<usize>),
        quiets: &[Move],
        captures: &[Move],
    ) {
        let side = self.pos.side_to_move();
        let b = bonus(depth);
        let malus = (b * params::history_malus() / 100).min(params::history_malus_max());
        if !is_tactical(&self.pos, best) {
            let f = &mut self.frames[p];
            if f.killers[0] != Some(best) {
                f.killers[1] = f.killers[0];
                f.killers[0] = Some(best);
            }
            self.history.set_counter(previous, best);
            self.history.update_quiet(side, best, b);
            let low_ply = params::low_ply_weight() != 0 && p < LOW_PLY;
            if low_ply {
                self.history
                    .update_low_ply(p, best, b * LOW_PLY_BONUS_SHARE / 1024);
            }
            let piece = self.pos.moved_piece_after(best);
            self.history
                .update_continuation(continuation, piece, best, b);
            if let Some(index) = pawn_index {
                self.history.update_pawn(index, piece, best, b);
            }
            for &q in quiets {
                self.history.update_quiet(side, q, -malus);
                if low_ply {
                    self.history
                        .update_low_ply(p, q, -malus * LOW_PLY_BONUS_SHARE / 1024);
                }
                let piece = self.pos.moved_piece_after(q);
                self.history
                    .update_continuation(continuation, piece, q, -malus);
                if let Some(index) = pawn_index {
                    self.history.update_pawn(index, piece, q, -malus);
                }
            }
        } else {
            self.history.update_capture(&self.pos, best, b);
        }
        for &c in captures {
            self.history.update_capture(&self.pos, c, -malus);
        }
    }
}

/// The late-move reduction of the `searched`-th move in YaneuraOu's shape (`lmr_model`
/// 1), in 1/1024 ply; `alpha` is the node's alpha now.
fn late_move_reduction_y<const PV: bool>(
    node: Node,
    searched: usize,
    alpha: i32,
    history_score: i32,
) -> i32 {
    let scale = reduction(node.depth, searched);
    let mut r = scale + params::lmr_y_base() - params::lmr_y_move_count() * searched as i32;
    if !node.improving {
        r += scale * params::lmr_y_not_improving() / 1024;
    }
    if PV {
        r -= params::lmr_y_pv();
    }
    if node.tt_pv {
        r -= params::lmr_y_tt_pv();
        if PV {
            r -= params::lmr_y_tt_pv_pv();
        }
        if node.tt_score.is_some_and(|s| s > alpha) {
            r -= params::lmr_y_tt_pv_above_alpha();
        }
        if node.tt_depth >= node.depth {
            r -= params::lmr_y_tt_pv_deep();
            if node.cut_node {
                r -= params::lmr_y_tt_pv_deep_cut();
            }
        }
    }
    if node.cut_node {
        r += params::lmr_y_cut();
        if !node.has_tt_move {
            r += params::lmr_y_cut_no_tt_move();
        }
    }
    if node.tt_capture {
        r += params::lmr_y_tt_capture();
    }
    r -= history_score * 1024 / params::lmr_history_divisor();
    if !PV && !node.cut_node {
        r += r * params::lmr_y_all_node() / (256 * node.depth + 260);
    }
    r
}

/// Reverse futility in YaneuraOu's shape (`rfp_model` 1): the score to return when the
/// node's static evaluation stands so far above beta that no quiet move will fall back.
/// Not where a principal variation went (its score matters) nor where the table's best
/// move is quiet (the table says a quiet move was needed).
fn reverse_futility_y(node: Node, beta: i32) -> Option<i32> {
    let Node {
        depth,
        eval,
        improving,
        ..
    } = node;
    let mult = params::rfp_y_margin() - if node.tt_hit { 0 } else { RFP_Y_NO_ENTRY };
    let margin = mult * depth
        - (RFP_Y_IMPROVING * i32::from(improving)
            + RFP_Y_WORSENING * i32::from(node.opponent_worsening))
            * mult
            / 1024;
    let qualifies = !node.tt_pv
        && depth < params::rfp_y_depth()
        && (!node.has_tt_move || node.tt_capture)
        && eval >= beta
        && eval < MATE_BOUND
        && beta > -MATE_BOUND;
    (qualifies && eval - margin >= beta).then_some((2 * beta + eval) / 3)
}

/// The singular extension of a table move that stands out, in YaneuraOu's amounts
/// (`singular_model` 1), from the search without it (`value`) against `singular_beta`:
/// up to three plies, the more the further the others fall short, and more readily for
/// a quiet move off the principal variation.
fn singular_y_extension<const PV: bool>(
    node: Node,
    value: i32,
    singular_beta: i32,
    root_depth: i32,
) -> i32 {
    let quiet = i32::from(!node.tt_capture);
    let beyond_root = i32::from(node.ply > root_depth);
    let pv = i32::from(PV);
    let double = SINGULAR_Y_DOUBLE_BASE + SINGULAR_Y_DOUBLE_PV * pv
        - SINGULAR_Y_DOUBLE_QUIET * quiet
        - SINGULAR_Y_DOUBLE_BEYOND * beyond_root;
    let triple = SINGULAR_Y_TRIPLE_BASE + SINGULAR_Y_TRIPLE_PV * pv
        - SINGULAR_Y_TRIPLE_QUIET * quiet
        + SINGULAR_Y_TRIPLE_TT_PV * i32::from(node.tt_pv)
        - SINGULAR_Y_TRIPLE_BEYOND * beyond_root;
    1 + i32::from(value < singular_beta - double) + i32::from(value < singular_beta - triple)
}

/// What shallow-depth pruning does with a move.
enum Prune {
    Keep,
    Skip,
    /// Skip it and every quiet move after it.
    SkipQuiets,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_that_worsens_its_movers_evaluation_is_marked_down() {
        // The mover stood at +100; after its move the opponent stands at +300, so the
        // mover now stands at -300: a loss of 400, clamped to the range's low end.
        let (low, high) = EVAL_CHANGE_RANGE;
        assert_eq!(eval_change_bonus(100, 300), low + EVAL_CHANGE_OFFSET);
        assert!(eval_change_bonus(100, 300) < 0);
        // A move that gains 500 for its mover is clamped at the high end.
        assert_eq!(eval_change_bonus(-200, -300), high + EVAL_CHANGE_OFFSET);
        // No change at all still counts a little in the move's favour (the tempo).
        assert_eq!(eval_change_bonus(50, -50), EVAL_CHANGE_OFFSET);
        // Within the range the bonus follows the change one for one.
        assert_eq!(
            eval_change_bonus(0, -40) - eval_change_bonus(0, 40),
            80,
            "a move 80 better for its mover gets 80 more"
        );
    }
}
