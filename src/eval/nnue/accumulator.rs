//! The accumulators along the search's current line: one per ply and side, brought up to
//! date lazily. A move only records what it changes ([`Dirty`]); when a node is
//! evaluated, each side's accumulator is derived from the nearest ancestor's that is
//! computed, or recounted when that side's king moved since (HalfKP, HalfKP_vm,
//! HalfKA_hm2) or none is.
//!
//! HalfKPE9 features change with the attack counts of every piece's square, which a move
//! changes far from where it plays: its accumulators are kept with their active features,
//! and a ply's is its parent's plus the rows of the features that differ between the two
//! lists (a recount when there is no computed parent, or the side's king moved).

use super::aligned::Aligned;
use super::arch::FeatureSet;
use super::features::{self, Dirty, MAX_ACTIVE};
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
    /// Recounts of king-relative nets start from the accumulator last seen with the king
    /// on the square.
    cache: RefreshCache,
    /// HalfKPE9: the sorted active features of each computed accumulator, `[ply][side]`.
    active: Vec<[ArrayVec<u32, MAX_ACTIVE>; 2]>,
}

/// The features in `old` and not in `new` (`removed`) and the reverse (`added`), both
/// sorted lists with repeats (absent pieces share one feature), counted as multisets.
fn difference(old: &[u32], new: &[u32], removed: &mut Vec<u32>, added: &mut Vec<u32>) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                removed.push(old[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                added.push(new[j]);
                j += 1;
            }
        }
    }
    removed.extend_from_slice(&old[i..]);
    added.extend_from_slice(&new[j..]);
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
        if net.arch().features.cacheable() {
            self.cache.reset(net);
        }
        if net.arch().features == FeatureSet::HalfKPE9 {
            self.active.clear();
            self.active.resize(plies, Default::default());
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
    /// move (both kings on the board).
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize, fv_scale: i32) -> i32 {
        for side in Color::ALL {
            self.ensure(net, pos, ply, side);
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
        if set == FeatureSet::HalfKPE9 {
            self.ensure_by_difference(net, pos, ply, side);
            return;
        }
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

    /// Brings `side`'s HalfKPE9 accumulator at `ply` up to date: from the parent's and
    /// the features that differ, when the parent's is computed and the king did not move
    /// (its features all changed then); else by a recount.
    fn ensure_by_difference(&mut self, net: &Network, pos: &Position, ply: usize, side: Color) {
        let s = side.index();
        let mut active = features::active(pos, FeatureSet::HalfKPE9, side);
        active.sort_unstable();
        let half = self.half;
        let at = self.offset(ply, side);
        if ply > 0 && self.computed[ply - 1][s] && !self.dirty[ply].moves_king_of(side) {
            // At most every feature of the two lists differs.
            let mut removed = Vec::with_capacity(MAX_ACTIVE);
            let mut added = Vec::with_capacity(MAX_ACTIVE);
            difference(&self.active[ply - 1][s], &active, &mut removed, &mut added);
            let src = self.offset(ply - 1, side);
            // The parent's accumulator lies below this one: split the storage there.
            let (lower, upper) = self.values.split_at_mut(at);
            net.update(
                &mut upper[..half],
                &lower[src..src + half],
                &removed,
                &added,
            );
        } else {
            net.refresh_from(&active, &mut self.values[at..at + half]);
        }
        self.active[ply][s] = active;
        self.computed[ply][s] = true;
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
