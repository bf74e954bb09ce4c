//! The quiescence search at the leaves: stand pat, then captures and promotions that
//! do not lose material (every evasion when in check), until the position is quiet.

use super::{cuts_off, refined_eval, Worker};
use crate::search::correction::CorrectionKeys;
use crate::search::movepick::{quiet_promotion_kind, MovePicker};
use crate::search::params;
use crate::search::score::{
    mate_in, mated_in, score_from_tt, toward_beta, EVAL_LIMIT, INFINITE, MATE_BOUND, MAX_PLY,
};
use crate::search::see::{see_ge, value};
use crate::types::PieceKind;

/// With `qs_evasion_prune`, a capturing evasion that loses more than this by exchange
/// (centipawns; YaneuraOu's 73, most of a pawn) is skipped once the side is not mated.
const QS_EVASION_SEE_MARGIN: i32 = 73;
/// With `fail_high_blend` 2, a quiescence fail high counts this many times against
/// beta's once (Stockfish's (3·score + beta)/4).
const QS_FAIL_HIGH_WEIGHT: i32 = 3;

impl Worker {
    pub(super) fn quiescence<const PV: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
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
        // A mate on the board, which the static evaluation cannot see; a node the table
        // knows was tested when it was stored.
        if !in_check && entry.is_none() && params::qs_mate_one() != 0 {
            if let Some(score) = self.mate_on_board::<PV>(key, ply, 0) {
                return score;
            }
        }
        let mut best_score;
        let stand_pat;
        let mut raw_eval = 0;
        if in_check {
            best_score = -INFINITE;
            stand_pat = -INFINITE;
        } else {
            raw_eval = match entry {
                Some(e) if e.eval != 0 && e.eval.abs() < EVAL_LIMIT => e.eval,
                _ => self.evaluate(ply),
            };
            // Corrected as the main search corrects it (correction history).
            let side = self.pos.side_to_move();
            let correction = self.correction.value(side, CorrectionKeys::of(&self.pos));
            let corrected = (raw_eval + correction).clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1);
            let model = params::qs_stand_pat_model() != 0;
            stand_pat = match entry {
                // A search of this node knew more than the evaluation: its bound says
                // on which side of the evaluation the truth lies.
                Some(e) if model => refined_eval(e.bound, score_from_tt(e.score, ply), corrected),
                _ => corrected,
            };
            if stand_pat >= beta {
                // Fail soft, but not far: the stand pat is no search.
                return if model && stand_pat.abs() < MATE_BOUND {
                    (stand_pat + beta) / 2
                } else {
                    stand_pat
                };
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let mut searched = 0;
        let mut picker = MovePicker::quiescence(&self.pos, entry.and_then(|e| e.mv));
        let last_to = self.pos.history().last().map(|s| s.mv.to());
        let limit = params::qs_move_limit() as usize;
        while let Some(mv) = picker.next(&self.pos, &self.history) {
            searched += 1;
            if in_check && params::qs_evasion_prune() != 0 && best_score > -MATE_BOUND {
                // The side is not mated: only captures that do not lose much can still
                // change the score by more than the first evasion found.
                if !self.pos.is_tactical(mv) || !see_ge(&self.pos, mv, -QS_EVASION_SEE_MARGIN) {
                    continue;
                }
            }
            if !in_check {
                let all_promotions = params::qs_all_promotions() != 0;
                let piece_promotion =
                    quiet_promotion_kind(&self.pos, mv).is_some_and(|k| k != PieceKind::Pawn);
                if !all_promotions && piece_promotion {
                    continue;
                }
                // Past the first few moves only recaptures (and, by the switch above,
                // promotions) can still change the exchange's result much.
                let exempt = Some(mv.to()) == last_to || (all_promotions && mv.is_promotion());
                if limit != 0 && searched > limit && !exempt {
                    continue;
                }
                // Delta pruning: even winning the piece would not reach alpha.
                let victim = self.pos.piece_at(mv.to()).map_or(0, |p| value(p.kind()));
                if !mv.is_promotion() && stand_pat + victim + params::delta_margin() <= alpha {
                    continue;
                }
                let needed = if params::qs_see_futility() != 0 {
                    (alpha - stand_pat - params::delta_margin()).max(0)
                } else {
                    0
                };
                if !see_ge(&self.pos, mv, needed) {
                    continue;
                }
            }
            let child_key = self.pos.key_after(mv);
            self.tt.prefetch(child_key);
            self.eval_cache.prefetch(child_key);
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
        if params::fail_high_blend() >= 2 {
            best_score = toward_beta(best_score, beta, QS_FAIL_HIGH_WEIGHT);
        }
        let eval = if in_check { 0 } else { raw_eval };
        let window = (original_alpha, beta);
        self.store::<PV>(key, best_move, best_score, window, eval, 0, ply, PV);
        best_score
    }
}
