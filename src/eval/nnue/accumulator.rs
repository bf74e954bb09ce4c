//! The accumulators along the search's current line: one per ply and side, brought up to
//! date lazily. A move only records what it changes ([`Dirty`]); when a node is
//! evaluated, each side's accumulator is derived from the nearest ancestor's that is
//! computed, or recounted when that side's king moved since (HalfKP) or none is.

use super::features::Dirty;
use super::network::Network;
use crate::position::Position;
use crate::types::Color;
use arrayvec::ArrayVec;

/// Accumulators for plies `0..plies` of one search thread.
#[derive(Default)]
pub struct AccumulatorStack {
    half: usize,
    /// `[ply][side][half]`, Black's side first.
    values: Vec<i16>,
    computed: Vec<[bool; 2]>,
    dirty: Vec<Dirty>,
    /// The transformer's output, scratch for the forward pass.
    transformed: Vec<u8>,
}

impl AccumulatorStack {
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::default()
    }

    /// Starts a new line from a root position, for `net`'s width and up to `plies` plies.
    pub fn reset(&mut self, net: &Network, plies: usize) {
        self.half = net.half();
        self.values.resize(plies * 2 * self.half, 0);
        self.computed.clear();
        self.computed.resize(plies, [false; 2]);
        self.dirty.clear();
        self.dirty.resize(plies, Dirty::NONE);
        self.transformed.resize(2 * self.half, 0);
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
        )
    }

    /// Brings `side`'s accumulator at `ply` up to date.
    fn ensure(&mut self, net: &Network, pos: &Position, ply: usize, side: Color) {
        let s = side.index();
        if self.computed[ply][s] {
            return;
        }
        let set = net.arch().features;
        let half = self.half;
        // Walk back to a computed ancestor that updates can reach.
        let mut from = ply;
        loop {
            if from == 0 || self.dirty[from].needs_refresh(set, side) {
                let at = self.offset(ply, side);
                net.refresh(pos, side, &mut self.values[at..at + half]);
                self.computed[ply][s] = true;
                return;
            }
            from -= 1;
            if self.computed[from][s] {
                break;
            }
        }
        // Its king has not moved since, so today's square is the one for every step.
        let king = pos.king_square(side).expect("both kings");
        for p in from + 1..=ply {
            let mut removed = ArrayVec::<u32, 3>::new();
            let mut added = ArrayVec::<u32, 3>::new();
            self.dirty[p].changed(set, side, king, &mut removed, &mut added);
            let dst = self.offset(p, side);
            let src = self.offset(p - 1, side);
            let (lower, upper) = self.values.split_at_mut(dst);
            net.update(
                &mut upper[..half],
                &lower[src..src + half],
                &removed,
                &added,
            );
            self.computed[p][s] = true;
        }
    }
}
