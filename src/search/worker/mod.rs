//! One search thread: iterative deepening, the alpha-beta search and the quiescence
//! search. Each thread owns its position copy and move statistics; they meet only in the
//! shared transposition table and the stop flag (Lazy SMP).
//!
//! The thread's state and bookkeeping are here; `deepening` runs the iterations,
//! `alphabeta` the main search and `quiescence` the capture search at its leaves.

mod alphabeta;
mod deepening;
mod quiescence;

use super::correction::Correction;
use super::history::History;
use super::movepick::drop_needless_non_promotions;
use super::params;
use super::score::{
    mate_in, score_to_tt, EVAL_LIMIT, INFINITE, MATE_BOUND, MAX_PLY, PERPETUAL_CHECK_WIN,
};
use super::shared::{Job, Shared};
use crate::eval::{self, nnue, Evaluator};
use crate::mate::one::mate_in_one;
use crate::position::{EnteringKingRule, Position, Repetition};
use crate::tt::{Bound, TranspositionTable};
use crate::types::{Move, Piece};
use arrayvec::ArrayVec;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

type Line = ArrayVec<Move, { MAX_PLY + 1 }>;

/// Whether a stored score with this bound settles the window without searching.
#[inline]
fn cuts_off(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// The table's `score` in place of the evaluation `eval` where the entry's `bound` says
/// the truth lies beyond the evaluation on the score's side (a lower bound above it, an
/// upper bound below it): a search of the node knew more. A mate's score is no
/// evaluation.
fn refined_eval(bound: Bound, score: i32, eval: i32) -> i32 {
    let toward = if score > eval {
        Bound::Lower
    } else {
        Bound::Upper
    };
    if score.abs() < MATE_BOUND && (bound == Bound::Exact || bound == toward) {
        score
    } else {
        eval
    }
}

/// Per-ply search state.
#[derive(Clone, Copy, Default)]
struct Frame {
    killers: [Option<Move>; 2],
    static_eval: i32,
    /// The move being searched from this ply (with the piece it put down); `None` for a
    /// null move.
    current: Option<(Piece, Move)>,
    /// The set of continuation rows `current` belongs to
    /// ([`continuation_context`](crate::search::history::continuation_context)).
    context: u8,
    null_move: bool,
    /// The move left out of this node's search: the table move while the singular
    /// extension asks whether any other move comes close to it.
    excluded: Option<Move>,
    /// The plies by which the move being searched from this ply was reduced (late-move
    /// reduction), 0 outside a reduced search.
    reduction: i32,
    /// Fail highs at this ply since the node two plies up began (one without a table
    /// move counts twice): `lmr_cutoffs` reads its children's.
    cutoffs: i32,
    /// Every move from the root to this ply is the previous iteration's principal
    /// variation's (`follow_pv`).
    follow_pv: bool,
}

/// A root move and what the last iterations found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub previous_score: i32,
    pub seldepth: i32,
    pub pv: Vec<Move>,
    /// Nodes this thread searched under the move in this search, all iterations
    /// together: the time manager's measure of how clearly it stands out.
    pub effort: u64,
}

/// A search thread's own state, kept from one search to the next.
pub struct Worker {
    pub id: usize,
    pos: Position,
    history: History,
    /// What searches found against the static evaluation (see [`Correction`]).
    correction: Correction,
    frames: Vec<Frame>,
    pv: Vec<Line>,
    /// The evaluation's placement score (Black's view) at each ply, kept move by move.
    placement: Vec<i32>,
    root_moves: Vec<RootMove>,
    /// The best line of the last finished iteration (`follow_pv`).
    last_iteration_pv: Line,
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
    /// Recent static evaluations by position key (see [`EvalCache`]).
    eval_cache: EvalCache,
    /// The evaluation of the current job.
    evaluator: Evaluator,
    /// The net, when the evaluation is one, with its `FV_SCALE`.
    net: Option<(Arc<nnue::Network>, i32)>,
    /// The net's accumulators along the current line.
    accumulators: nnue::AccumulatorStack,
}

/// A small direct-mapped table of static evaluations, one per thread. Leaves that fail
/// high on their stand-pat score store nothing in the transposition table, so the next
/// iteration would evaluate them again; the evaluation recounts every attack, which
/// costs far more than a lookup here.
struct EvalCache {
    /// The key's upper 48 bits with the evaluation as 16 bits below (0: empty).
    entries: Box<[u64]>,
}

impl EvalCache {
    /// 2^18 entries (2 MiB): a lookup that misses every cache still costs far less than
    /// an evaluation.
    const BITS: u32 = 18;

    fn new() -> EvalCache {
        EvalCache {
            entries: vec![0; 1 << Self::BITS].into_boxed_slice(),
        }
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key & ((1 << Self::BITS) - 1)) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Option<i32> {
        let entry = self.entries[Self::slot(key)];
        (entry != 0 && (entry ^ key) >> 16 == 0).then_some(entry as u16 as i16 as i32)
    }

    /// Starts fetching the entry of `key` (a child's, before the move is made).
    #[inline]
    fn prefetch(&self, key: u64) {
        crate::memory::prefetch(&self.entries[Self::slot(key)]);
    }

    #[inline]
    fn put(&mut self, key: u64, eval: i32) {
        debug_assert!(eval.abs() <= i16::MAX as i32);
        self.entries[Self::slot(key)] = (key & !0xffff) | eval as i16 as u16 as u64;
    }
}

impl Worker {
    pub fn new(id: usize, shared: Arc<Shared>, tt: Arc<TranspositionTable>) -> Worker {
        Worker {
            id,
            pos: Position::startpos(),
            history: History::default(),
            correction: Correction::default(),
            frames: vec![Frame::default(); MAX_PLY + 8],
            pv: vec![Line::new(); MAX_PLY + 2],
            placement: vec![0; MAX_PLY + 2],
            root_moves: Vec::new(),
            last_iteration_pv: Line::new(),
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
            eval_cache: EvalCache::new(),
            evaluator: Evaluator::Linear,
            net: None,
            accumulators: nnue::AccumulatorStack::new(),
        }
    }

    /// Forgets the move statistics (a new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.correction.clear();
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
        if !self.evaluator.same_as(&job.settings.eval) {
            // Cached evaluations are another evaluation's.
            self.eval_cache = EvalCache::new();
            self.evaluator = job.settings.eval.clone();
        }
        self.net = match &self.evaluator {
            Evaluator::Nnue { net, fv_scale } => Some((net.clone(), *fv_scale)),
            Evaluator::Linear => None,
        };
        match &self.net {
            Some((net, _)) => self.accumulators.reset(net, self.placement.len()),
            None => self.placement[0] = eval::placement(&self.pos),
        }
        self.rule = job.settings.rule;
        self.max_moves_to_draw = job.settings.max_moves_to_draw;
        self.nodes = 0;
        self.stopped = false;
        self.completed_depth = 0;
        self.best_move_changes = 0.0;
        self.nmp_min_ply = 0;
        self.last_iteration_pv.clear();
        for f in self.frames.iter_mut() {
            *f = Frame::default();
        }
        let mut legal = self.pos.legal_moves();
        let wanted = &job.settings.limits.searchmoves;
        let mut moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| wanted.contains(m))
            .collect();
        if moves.is_empty() {
            drop_needless_non_promotions(&self.pos, &mut legal);
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
                effort: 0,
            })
            .collect();
        self.job = Some(job);
        self.history.clear_low_ply();
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
    // Alpha-beta

    /// Repetition, declaration and ply-limit outcomes of a non-root node, if any.
    fn node_outcome(&self, ply: i32) -> Option<i32> {
        match self.pos.repetition(32) {
            Some(Repetition::Draw) => return Some(0),
            Some(Repetition::Win) => return Some(PERPETUAL_CHECK_WIN),
            Some(Repetition::Loss) => return Some(-PERPETUAL_CHECK_WIN),
            Some(Repetition::Superior) => return Some(params::superior_repetition()),
            Some(Repetition::Inferior) => return Some(-params::superior_repetition()),
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

    fn evaluate(&mut self, ply: i32) -> i32 {
        let key = self.pos.key();
        if let Some(eval) = self.eval_cache.get(key) {
            return eval;
        }
        let eval = match &self.net {
            Some((net, fv_scale)) => {
                if nnue::features::supports(&self.pos) {
                    self.accumulators
                        .evaluate(net, &mut self.pos, ply as usize, *fv_scale)
                } else {
                    // The nets need both kings (tsume positions may lack one).
                    eval::evaluate(&self.pos)
                }
            }
            None => {
                let placement = self.placement[ply as usize];
                debug_assert_eq!(placement, eval::placement(&self.pos));
                eval::evaluate_from(&self.pos, placement)
            }
        }
        .clamp(-EVAL_LIMIT, EVAL_LIMIT);
        self.eval_cache.put(key, eval);
        eval
    }

    /// Plays `mv` from ply `ply`, keeping the evaluation's state of the next ply: the
    /// net's changed features, or the linear evaluation's placement score. Counts the
    /// node and polls the clock now and then.
    ///
    /// A node is a move made, as Stockfish and YaneuraOu count them: a null move is
    /// none, and neither is entering the same position again (a reduced search's
    /// re-search, a PV re-search, the singular test, razoring's quiescence search).
    /// Counting every entry, as hayate did, made about 11% more nodes of the same
    /// work, so that `go nodes`, node-limited matches and nodes a second did not
    /// compare with YaneuraOu's.
    #[inline]
    fn make(&mut self, mv: Move, ply: i32) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        let p = ply as usize;
        if self.net.is_some() {
            self.accumulators
                .push(p + 1, nnue::Dirty::of_move(&self.pos, mv));
            self.pos.play_unchecked(mv);
            return;
        }
        let delta = eval::placement_delta(&self.pos, mv);
        self.pos.play_unchecked(mv);
        self.placement[p + 1] = match delta {
            Some(d) => self.placement[p] + d,
            None => eval::placement(&self.pos),
        };
    }

    /// Passes the turn at ply `ply` (null-move pruning); `pos.undo_null` takes it back.
    #[inline]
    fn make_null(&mut self, ply: i32) {
        let p = ply as usize;
        self.pos.play_null();
        if self.net.is_some() {
            self.accumulators.push(p + 1, nnue::Dirty::NONE);
        } else {
            self.placement[p + 1] = self.placement[p];
        }
    }

    /// Starts a node's PV. Returns `false` when the search has been stopped (the poll
    /// in [`Worker::make`] says so).
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: i32) -> bool {
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
        tt_pv: bool,
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
        self.tt
            .store(key, best_move, score, eval, depth, bound, tt_pv);
    }

    /// A mate in one on the board (the side to move not in check): its score, stored in
    /// the table at `depth` with the mating move, and the node's line when on a PV.
    fn mate_on_board<const PV: bool>(&mut self, key: u64, ply: i32, depth: i32) -> Option<i32> {
        let mv = mate_in_one(&mut self.pos)?;
        let score = mate_in(ply + 1);
        let depth = depth.min(MAX_PLY as i32);
        self.tt.store(
            key,
            Some(mv),
            score_to_tt(score, ply),
            0,
            depth,
            Bound::Exact,
            PV,
        );
        if PV {
            let p = ply as usize;
            self.pv[p].clear();
            self.pv[p].push(mv);
        }
        Some(score)
    }

    /// The PV of ply `p` becomes `mv` followed by the child's PV.
    #[inline]
    fn update_pv(&mut self, p: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(p + 1);
        head[p].clear();
        head[p].push(mv);
        head[p].extend(tail[0].iter().copied());
    }

    /// The completed depth of this thread's last search.
    pub fn completed_depth(&self) -> i32 {
        self.completed_depth
    }

    /// Whether this thread's last search was cut short inside an iteration (by the
    /// clock, a node limit or `stop`), so that its last report is older than its result.
    pub fn stopped_mid_iteration(&self) -> bool {
        self.stopped
    }

    /// Nodes searched by this thread in the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::EvalCache;

    #[test]
    fn eval_cache_returns_what_it_stored_for_the_same_key_only() {
        let mut cache = EvalCache::new();
        let key = 0x9e37_79b9_7f4a_7c15;
        assert_eq!(cache.get(key), None);
        for eval in [-20_000, -1, 0, 1, 317, 20_000] {
            cache.put(key, eval);
            assert_eq!(cache.get(key), Some(eval));
        }
        // Same slot, other upper bits: a miss, not the other key's score.
        let other = key ^ (1 << 40);
        assert_eq!(cache.get(other), None);
        cache.put(other, -5);
        assert_eq!(cache.get(other), Some(-5));
        assert_eq!(cache.get(key), None);
    }
}
