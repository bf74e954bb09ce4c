//! One search thread: iterative deepening, the alpha-beta search and the quiescence
//! search. Each thread owns its position copy and move statistics; they meet only in the
//! shared transposition table and the stop flag (Lazy SMP).

use super::history::{bonus, continuation_row, ContinuationRows, History};
use super::mate1::mate_in_one;
use super::movepick::{is_tactical, previous_move, MovePicker};
use super::score::*;
use super::see::{see_ge, value};
use super::{Event, Progress, ScoreBound};
use crate::eval;
use crate::position::{EnteringKingRule, Position, Repetition};
use crate::threads::{Job, Shared, ThreadResult};
use crate::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use crate::types::{Move, Piece};
use arrayvec::ArrayVec;
use once_cell::sync::Lazy;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

type Line = ArrayVec<Move, { MAX_PLY + 1 }>;

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

/// Whether a stored score with this bound settles the window without searching.
#[inline]
fn cuts_off(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

fn reduction(depth: i32, moves: usize) -> i32 {
    REDUCTIONS[depth.clamp(0, 63) as usize][moves.min(63)]
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    killers: [Option<Move>; 2],
    static_eval: i32,
    /// The move being searched from this ply (with the piece it put down); `None` for a
    /// null move.
    current: Option<(Piece, Move)>,
    null_move: bool,
}

/// A root move and what the last iterations found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    pub seldepth: i32,
    pub pv: Vec<Move>,
}

/// A search thread's own state, kept from one search to the next.
pub struct Worker {
    pub id: usize,
    pos: Position,
    history: History,
    frames: Vec<Frame>,
    pv: Vec<Line>,
    /// The evaluation's placement score (Black's view) at each ply, kept move by move.
    placement: Vec<i32>,
    root_moves: Vec<RootMove>,
    pv_index: usize,
    nodes: u64,
    seldepth: i32,
    root_depth: i32,
    completed_depth: i32,
    nmp_min_ply: i32,
    rule: EnteringKingRule,
    max_moves_to_draw: u32,
    stopped: bool,
    shared: Arc<Shared>,
    tt: Arc<TranspositionTable>,
    job: Option<Arc<Job>>,
    /// Main thread: how often the best move changed lately (decays each iteration).
    best_move_changes: f64,
}

impl Worker {
    pub fn new(id: usize, shared: Arc<Shared>, tt: Arc<TranspositionTable>) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            history: History::default(),
            frames: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![Line::new(); MAX_PLY + 2],
            placement: vec![0; MAX_PLY + 2],
            root_moves: Vec::new(),
            pv_index: 0,
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            completed_depth: 0,
            nmp_min_ply: 0,
            rule: EnteringKingRule::default(),
            max_moves_to_draw: 0,
            stopped: false,
            shared,
            tt,
            job: None,
            best_move_changes: 0.0,
        }
    }

    /// Forgets the move statistics (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    pub fn root_moves(&self) -> &[RootMove] {
        &self.root_moves
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn job(&self) -> &Job {
        self.job.as_deref().expect("a search job")
    }

    /// Runs iterative deepening for `job` until it is done or stopped.
    pub fn search_job(&mut self, job: Arc<Job>) {
        self.tt = job.tt.clone();
        self.pos = job.root.clone();
        self.placement[0] = eval::placement(&self.pos);
        self.rule = job.settings.rule;
        self.max_moves_to_draw = job.settings.max_moves_to_draw;
        self.nodes = 0;
        self.stopped = false;
        self.completed_depth = 0;
        self.best_move_changes = 0.0;
        self.nmp_min_ply = 0;
        for f in self.frames.iter_mut() {
            *f = Frame::default();
        }
        let legal = self.pos.legal_moves();
        let wanted = &job.settings.limits.searchmoves;
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| wanted.contains(m))
            .collect();
        if moves.is_empty() {
            moves = legal.to_vec();
        }
        self.root_moves = moves
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        self.job = Some(job);
        if !self.root_moves.is_empty() {
            self.iterate();
        }
        self.publish_nodes();
        self.job = None;
    }

    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Called every 1024 nodes: publishes the node count, and on the main thread checks
    /// the clock and the node limit.
    fn poll(&mut self) {
        self.publish_nodes();
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if !self.is_main() || self.root_depth <= 1 {
            return;
        }
        let job = self.job();
        let over_nodes = job
            .settings
            .limits
            .nodes
            .is_some_and(|n| self.shared.total_nodes() >= n);
        let over_time = !self.shared.pondering.load(Ordering::Relaxed)
            && job.hard_deadline().is_some_and(|d| Instant::now() >= d);
        if over_nodes || over_time {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        }
    }

    // -------------------------------------------------------------------------------------
    // Iterative deepening

    fn iterate(&mut self) {
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
            if !self.is_main() && depth > 2 && (depth + self.id as i32) % 4 == 0 {
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
            self.shared.results[self.id]
                .lock()
                .map(|mut r| {
                    *r = ThreadResult {
                        depth,
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
                if depth > mate_plies + 2 && !limits.infinite && !limits.ponder {
                    break;
                }
            }
            if self.root_moves.len() == 1 && depth >= 4 && job.budget.is_some() {
                break;
            }
            // A fixed movetime is used in full: only the hard deadline ends it.
            if let (Some(budget), None) = (job.budget, limits.movetime) {
                if !self.shared.pondering.load(Ordering::Relaxed) {
                    let drop = if previous_iteration_score == -INFINITE {
                        0
                    } else {
                        previous_iteration_score - score
                    };
                    let factor =
                        crate::time::stretch(self.best_move_changes, drop, stable_iterations);
                    let elapsed = job.start.elapsed();
                    if elapsed.as_secs_f64() >= budget.optimum.as_secs_f64() * factor.min(2.5) {
                        break;
                    }
                }
            }
            self.best_move_changes *= 0.5;
            previous_iteration_score = score;
        }
    }

    /// Searches the current principal variation at `depth` with a window around its last
    /// score, widening it when the score falls outside.
    fn aspiration(&mut self, depth: i32) {
        let previous = self.root_moves[self.pv_index].previous_score;
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (
                (previous - delta).max(-INFINITE),
                (previous + delta).min(INFINITE),
            )
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search::<true>(alpha, beta, depth, 0, false);
            // Stable sort: moves that were not searched to the end keep their order.
            self.root_moves[self.pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                if self.is_main() && self.job().start.elapsed().as_millis() > 3000 {
                    self.report(depth, self.pv_index + 1, ScoreBound::Upper);
                }
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                if self.is_main() && self.job().start.elapsed().as_millis() > 3000 {
                    self.report(depth, self.pv_index + 1, ScoreBound::Lower);
                }
                beta = (score + delta).min(INFINITE);
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

    // -------------------------------------------------------------------------------------
    // Alpha-beta

    /// Repetition, declaration and ply-limit outcomes of a non-root node, if any.
    fn node_outcome(&self, ply: i32) -> Option<i32> {
        match self.pos.repetition(32) {
            Some(Repetition::Draw) => return Some(0),
            Some(Repetition::Win) => return Some(PERPETUAL_CHECK_WIN),
            Some(Repetition::Loss) => return Some(-PERPETUAL_CHECK_WIN),
            Some(Repetition::Superior) => return Some(SUPERIOR_REPETITION),
            Some(Repetition::Inferior) => return Some(-SUPERIOR_REPETITION),
            None => {}
        }
        if self.pos.can_declare_win(self.rule) {
            return Some(mate_in(ply + 1));
        }
        if self.max_moves_to_draw > 0 && self.pos.ply() > self.max_moves_to_draw {
            return Some(0);
        }
        None
    }

    /// Whether the opponent could declare a win if it were its turn: pruning that trusts
    /// the static evaluation (which knows nothing of declarations) must not run then.
    fn opponent_threatens_declaration(&mut self) -> bool {
        if self.rule == EnteringKingRule::NoEnteringKing || self.pos.in_check() {
            return false;
        }
        self.pos.play_null();
        let threat = self.pos.can_declare_win(self.rule);
        self.pos.undo_null();
        threat
    }

    fn evaluate(&self, ply: i32) -> i32 {
        let placement = self.placement[ply as usize];
        debug_assert_eq!(placement, eval::placement(&self.pos));
        eval::evaluate_from(&self.pos, placement).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Plays `mv` from ply `ply`, keeping the placement score of the next ply.
    #[inline]
    fn make(&mut self, mv: Move, ply: i32) {
        let p = ply as usize;
        let delta = eval::placement_delta(&self.pos, mv);
        self.pos.play_unchecked(mv);
        self.placement[p + 1] = match delta {
            Some(d) => self.placement[p] + d,
            None => eval::placement(&self.pos),
        };
    }

    /// Counts a node, polls the clock now and then, and starts the node's PV. Returns
    /// `false` when the search has been stopped.
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: i32) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.stopped {
            return false;
        }
        if PV {
            self.pv[ply as usize].clear();
            self.seldepth = self.seldepth.max(ply + 1);
        }
        true
    }

    /// Stores a node's result in the table, its bound read off the window it was searched
    /// with (`window.0` is alpha as the node began).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store<const PV: bool>(
        &self,
        key: u64,
        best_move: Option<Move>,
        best_score: i32,
        window: (i32, i32),
        eval: i32,
        depth: i32,
        ply: i32,
    ) {
        let (alpha, beta) = window;
        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let score = score_to_tt(best_score, ply);
        self.tt.store(key, best_move, score, eval, depth, bound, PV);
    }

    /// The PV of ply `p` becomes `mv` followed by the child's PV.
    #[inline]
    fn update_pv(&mut self, p: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(p + 1);
        head[p].clear();
        head[p].push(mv);
        head[p].extend(tail[0].iter().copied());
    }

    fn search<const PV: bool>(
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
                self.pos.play_null();
                self.placement[p + 1] = self.placement[p];
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
            let tactical = is_tactical(&self.pos, mv);
            let gives_check = self.pos.gives_check(mv);
            let history_score = if tactical {
                0
            } else {
                let piece = self.pos.moved_piece_after(mv);
                self.history.quiet(side, mv) + self.history.continuation(continuation, piece, mv)
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

            self.tt.prefetch(self.pos.key_after(mv));

            // Check extension, for checks that do not simply lose the checking piece.
            let extension = i32::from(
                gives_check
                    && ply < 2 * self.root_depth
                    && (depth <= 6 || see_ge(&self.pos, mv, 0)),
            );
            let new_depth = depth - 1 + extension;

            let moved = self.pos.moved_piece_after(mv);
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

    fn quiescence<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        if !self.enter_node::<PV>(ply) {
            return 0;
        }
        let p = ply as usize;
        let in_check = self.pos.in_check();
        if p >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        if self.pos.can_declare_win(self.rule) {
            return mate_in(ply + 1);
        }
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        if let (false, Some(e)) = (PV, entry) {
            let s = score_from_tt(e.score, ply);
            if cuts_off(e.bound, s, alpha, beta) {
                return s;
            }
        }
        let mut best_score;
        let stand_pat;
        if in_check {
            best_score = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            stand_pat = match entry {
                Some(e) if e.eval != 0 && e.eval.abs() < EVAL_LIMIT => e.eval,
                _ => self.evaluate(ply),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let mut searched = 0;
        let mut picker = MovePicker::quiescence(&self.pos, entry.and_then(|e| e.mv));
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            searched += 1;
            if !in_check {
                // Delta pruning: even winning the piece would not reach alpha.
                let victim = self.pos.piece_at(mv.to()).map_or(0, |p| value(p.kind()));
                if !mv.is_promotion() && stand_pat + victim + 200 <= alpha {
                    continue;
                }
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
            }
            self.tt.prefetch(self.pos.key_after(mv));
            self.make(mv, ply);
            let score = -self.quiescence::<PV>(-beta, -alpha, ply + 1);
            self.pos.undo();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.update_pv(p, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        let eval = if in_check { 0 } else { stand_pat };
        let window = (original_alpha, beta);
        self.store::<PV>(key, best_move, best_score, window, eval, 0, ply);
        best_score
    }

    /// The completed depth of this thread's last search.
    pub fn completed_depth(&self) -> i32 {
        self.completed_depth
    }

    /// Nodes searched by this thread in the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}
