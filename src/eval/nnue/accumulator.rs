//! The accumulators along the search's current line: one per ply and side, brought up to
//! date lazily. A move only records what it changes ([`Dirty`]); when a node is
//! evaluated, each side's accumulator is derived from the nearest ancestor's that is
//! computed, or recounted when that side's king moved since (HalfKP, HalfKP_vm,
//! HalfKA_hm2) or none is.
//!
//! HalfKPE9 features change with the attack counts of every piece's square, which a move
//! changes far from where it plays: each evaluated ply keeps its counts, and a ply's
//! accumulator is its parent's plus the rows of the pieces the move moved and of those
//! whose square's counts differ from the parent's. A parent not evaluated is computed
//! first, the move taken back to count its attacks; a side whose king moved is recounted
//! from the accumulator kept for the king's square.

use super::aligned::Aligned;
use super::arch::FeatureSet;
use super::effects::Effects;
use super::features::Dirty;
use super::halfkpe9::{self, Changes};
use super::network::Network;
use super::refresh_cache::RefreshCache;
use crate::position::Position;
use crate::types::{Color, Square};
use arrayvec::ArrayVec;

/// Accumulators for plies `0..plies` of one search thread.
#[derive(Default)]
pub struct AccumulatorStack {
    half: usize,
    /// `[ply][side][half]`, Black's side first.
    values: Aligned<i16>,
    computed: Vec<[bool; 2]>,
    dirty: Vec<Dirty>,
    /// The transformer's output, scratch for the forward pass.
    transformed: Aligned<u8>,
    /// Recounts of king-relative nets (HalfKPE9's too) start from the accumulator last seen
    /// with the king on the square.
    cache: RefreshCache,
    /// HalfKPE9: the attack counts of each ply with a computed accumulator.
    effects: Vec<Effects>,
}

impl AccumulatorStack {
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::default()
    }

    /// Starts a new line from a root position, for `net`'s width and up to `plies` plies.
    pub fn reset(&mut self, net: &Network, plies: usize) {
        self.half = net.half();
        if self.values.len() != plies * 2 * self.half {
            self.values = Aligned::zeroed(plies * 2 * self.half);
        }
        self.computed.clear();
        self.computed.resize(plies, [false; 2]);
        self.dirty.clear();
        self.dirty.resize(plies, Dirty::NONE);
        if self.transformed.len() != 2 * self.half {
            self.transformed = Aligned::zeroed(2 * self.half);
        }
        if net.arch().features.cacheable() || net.arch().features == FeatureSet::HalfKPE9 {
            self.cache.reset(net);
        }
        if net.arch().features == FeatureSet::HalfKPE9 {
            self.effects.clear();
            self.effects.resize(plies, Effects::default());
        }
    }

    /// Records the move (or null move) that leads to ply `ply`.
    #[inline]
    pub fn push(&mut self, ply: usize, dirty: Dirty) {
        self.dirty[ply] = dirty;
        self.computed[ply] = [false; 2];
    }

    #[inline]
    fn offset(&self, ply: usize, side: Color) -> usize {
        (ply * 2 + side.index()) * self.half
    }

    /// The evaluation of `pos`, the position at ply `ply` of the line, for the side to
    /// move (both kings on the board). A HalfKPE9 net may take moves of `pos` back to the
    /// nearest ply with accumulators and replay them (`pos` is then as it was).
    pub fn evaluate(
        &mut self,
        net: &Network,
        pos: &mut Position,
        ply: usize,
        fv_scale: i32,
    ) -> i32 {
        if net.arch().features == FeatureSet::HalfKPE9 {
            self.ensure_e9(net, pos, ply);
        } else {
            for side in Color::ALL {
                self.ensure(net, pos, ply, side);
            }
        }
        let us = pos.side_to_move();
        let (u, t) = (self.offset(ply, us), self.offset(ply, !us));
        let half = self.half;
        net.propagate(
            &self.values[u..u + half],
            &self.values[t..t + half],
            fv_scale,
            &mut self.transformed,
            net.stack_of(pos),
        )
    }

    /// Brings `side`'s accumulator at `ply` up to date.
    fn ensure(&mut self, net: &Network, pos: &Position, ply: usize, side: Color) {
        let s = side.index();
        if self.computed[ply][s] {
            return;
        }
        let set = net.arch().features;
        // Walk back to a computed ancestor that updates can reach, or to the ply where
        // the line starts or this side's king last moved (`from`): nothing before it can
        // be updated into this ply.
        let mut from = ply;
        let reachable = loop {
            if from == 0 || self.dirty[from].needs_refresh(set, side) {
                break false;
            }
            if self.computed[from - 1][s] {
                break true;
            }
            from -= 1;
        };
        // Its king has not moved after `from`, so today's square is the one for every step.
        let king = pos.king_square(side).expect("both kings");
        if reachable {
            for p in from..=ply {
                self.step(net, side, king, p, p - 1, p);
            }
            return;
        }
        // Recount here, then take the moves back one by one down to `from`: every ply of
        // the stretch is then computed, and the rest of the subtree under `from` (the
        // siblings of this line) starts from them instead of recounting again. A step
        // costs a few rows; a recount costs one row per piece on the board.
        let at = self.offset(ply, side);
        let half = self.half;
        let acc = &mut self.values[at..at + half];
        if set.cacheable() {
            self.cache.refresh(net, pos, side, acc);
        } else {
            net.refresh(pos, side, acc);
        }
        self.computed[ply][s] = true;
        for p in (from + 1..=ply).rev() {
            self.step(net, side, king, p, p, p - 1);
        }
    }

    /// Brings both HalfKPE9 accumulators at `ply` up to date. A side updates from its
    /// parent's accumulator (the rows of the pieces the move moved, and of those whose
    /// square's attack counts differ from the parent's) unless its own king moved (then
    /// it is recounted from the accumulator kept for the king's square). A
    /// parent without accumulators is computed first, the move taken back for it: its
    /// other children then update from it too, where each would recount otherwise.
    fn ensure_e9(&mut self, net: &Network, pos: &mut Position, ply: usize) {
        if self.computed[ply] == [true; 2] {
            return;
        }
        self.effects[ply] = Effects::of(pos);
        let dirty = self.dirty[ply];
        let needs_parent = ply > 0
            && Color::ALL.into_iter().any(|side| {
                let s = side.index();
                !self.computed[ply][s] && !self.computed[ply - 1][s] && !dirty.moves_king_of(side)
            });
        if needs_parent {
            if dirty == Dirty::NONE {
                // A null move: taken back too, so that the moves before it are taken back
                // by the side that played them.
                pos.undo_null();
                self.ensure_e9(net, pos, ply - 1);
                pos.play_null();
            } else {
                let mv = pos.undo().expect("the move into the ply");
                self.ensure_e9(net, pos, ply - 1);
                pos.play_unchecked(mv);
            }
        }
        // The sides that update from the parent, the others recount.
        let updated = Color::ALL.map(|side| {
            let s = side.index();
            ply > 0
                && !self.computed[ply][s]
                && self.computed[ply - 1][s]
                && !dirty.moves_king_of(side)
        });
        let mut changes = [Changes::default(), Changes::default()];
        if updated.contains(&true) {
            halfkpe9::changed(
                pos,
                &dirty,
                updated,
                &self.effects[ply - 1],
                &self.effects[ply],
                &mut changes,
            );
        }
        let half = self.half;
        for side in Color::ALL {
            let s = side.index();
            if self.computed[ply][s] {
                continue;
            }
            let at = self.offset(ply, side);
            if updated[s] {
                let src = self.offset(ply - 1, side);
                // The parent's accumulator lies below this one: split the storage there.
                let (lower, upper) = self.values.split_at_mut(at);
                let Changes { removed, added } = &changes[s];
                net.update(&mut upper[..half], &lower[src..src + half], removed, added);
            } else {
                let acc = &mut self.values[at..at + half];
                self.cache
                    .refresh_e9(net, pos, side, &self.effects[ply], acc);
            }
            self.computed[ply][s] = true;
        }
    }

    /// Derives `side`'s accumulator at ply `dst` from the one at ply `src`, one ply away,
    /// through the move that leads to ply `p` (played forwards when `dst == p`, taken back
    /// when `dst == p - 1`); `king` is `side`'s king square at both plies.
    fn step(&mut self, net: &Network, side: Color, king: Square, p: usize, src: usize, dst: usize) {
        let mut removed = ArrayVec::<u32, 3>::new();
        let mut added = ArrayVec::<u32, 3>::new();
        self.dirty[p].changed(net.arch().features, side, king, &mut removed, &mut added);
        if dst < src {
            std::mem::swap(&mut removed, &mut added);
        }
        let half = self.half;
        let (d, s) = (self.offset(dst, side), self.offset(src, side));
        // The two accumulators are disjoint: split the storage between them.
        if d > s {
            let (lower, upper) = self.values.split_at_mut(d);
            net.update(&mut upper[..half], &lower[s..s + half], &removed, &added);
        } else {
            let (lower, upper) = self.values.split_at_mut(s);
            net.update(&mut lower[d..d + half], &upper[..half], &removed, &added);
        }
        self.computed[dst][side.index()] = true;
    }
}
