//! The transposition table: what earlier searches learned about positions, shared by all
//! search threads.
//!
//! Lock-free and free of data races: every entry is two `AtomicU64`s, the packed data and
//! the key XOR the data. A reader accepts an entry only when the two words agree with its
//! key, so a slot half-written by another thread reads as a miss instead of as garbage
//! (the classic "lockless hashing" scheme). Entries sit four to a 64-byte bucket, one cache
//! line. Moves read from the table may still belong to another position that collided in
//! the key; the search checks them for legality before playing them.

use crate::memory::AllocError;
use crate::types::Move;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score means relative to the window it was searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// An entry copied out of the table.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    pub mv: Option<Move>,
    /// Search score; the search stores mate scores counted from this position, not the root.
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Whether the entry came from a principal-variation node.
    pub pv: bool,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const SLOTS: usize = 4;

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; SLOTS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Packs an entry: move 16 bits, score 16, eval 16, depth 8, bound 2, pv 1, age 5.
fn pack(
    mv: Option<Move>,
    score: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    pv: bool,
    age: u8,
) -> u64 {
    let mv = mv.map_or(0, |m| m.raw()) as u64;
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    let depth = (depth.clamp(-1, 254) + 1) as u64;
    mv | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | (pv as u64) << 58
        | ((age & 31) as u64) << 59
}

fn bound_of(data: u64) -> Option<Bound> {
    match (data >> 56) & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & 0xff) as i32 - 1
}

fn age_of(data: u64) -> u8 {
    ((data >> 59) & 31) as u8
}

fn unpack(data: u64) -> Option<TtEntry> {
    Some(TtEntry {
        mv: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: depth_of(data),
        bound: bound_of(data)?,
        pv: (data >> 58) & 1 != 0,
    })
}

/// What an [`AllocError`] of this table calls it.
const WHAT: &str = "hash table";

/// The shared table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mib` MiB (at least one bucket).
    pub fn new(mib: usize) -> Result<TranspositionTable, AllocError> {
        let mut tt = TranspositionTable {
            buckets: Vec::new(),
            age: AtomicU8::new(0),
        };
        tt.resize(mib)?;
        Ok(tt)
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Reallocates to `mib` MiB, empty. On failure the table keeps its old size, cleared.
    pub fn resize(&mut self, mib: usize) -> Result<(), AllocError> {
        if let Err(e) = AllocError::check(WHAT, mib) {
            self.clear();
            return Err(e);
        }
        let count = (mib.max(1) << 20) / std::mem::size_of::<Bucket>();
        if count == self.buckets.len() {
            self.clear();
            return Ok(());
        }
        let mut fresh: Vec<Bucket> = Vec::new();
        if fresh.try_reserve_exact(count).is_err() {
            self.clear();
            return Err(AllocError::refused(WHAT, mib));
        }
        self.buckets = Vec::new();
        crate::memory::advise_huge_pages(&mut fresh);
        fresh.resize_with(count, Bucket::default);
        self.buckets = fresh;
        Ok(())
    }

    /// Empties the table, in parallel when it is large.
    pub fn clear(&self) {
        let wipe = |b: &Bucket| {
            for s in &b.0 {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        };
        if self.buckets.len() >= 1 << 16 {
            self.buckets.par_iter().for_each(wipe);
        } else {
            self.buckets.iter().for_each(wipe);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so that entries from older ones are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Hints the CPU to fetch the bucket of `key`.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in &self.bucket(key).0 {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return unpack(data);
            }
        }
        None
    }

    /// Stores what a search found for `key`. Replaces the slot holding the same key, else
    /// an empty slot, else the shallowest and oldest.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 31;
        let bucket = self.bucket(key);
        let mut target = &bucket.0[0];
        let mut worst = i32::MAX;
        for slot in &bucket.0 {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let old_move = Move::from_raw(data as u16);
                // A bound from a much shallower search (a quiescence search's above all)
                // does not replace an entry of the current search: the depth would be
                // lost. A new move still replaces the old one.
                if bound != Bound::Exact && age_of(data) == age && depth_of(data) > depth + 3 {
                    if let Some(m) = mv.filter(|&m| Some(m) != old_move) {
                        Self::write(slot, key, (data & !0xffff) | m.raw() as u64);
                    }
                    return;
                }
                // The old move stays when this search found none for the same position.
                let data = pack(mv.or(old_move), score, eval, depth, bound, pv, age);
                return Self::write(slot, key, data);
            }
            if data == 0 {
                target = slot;
                break;
            }
            let staleness = (age.wrapping_sub(age_of(data)) & 31) as i32;
            let value = depth_of(data) - 8 * staleness;
            if value < worst {
                worst = value;
                target = slot;
            }
        }
        Self::write(target, key, pack(mv, score, eval, depth, bound, pv, age));
    }

    #[inline]
    fn write(slot: &Slot, key: u64, data: u64) {
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Permille of sampled slots holding an entry of the current search (USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 31;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.0 {
                let data = s.data.load(Ordering::Relaxed);
                if data != 0 && age_of(data) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * SLOTS).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1).unwrap();
        let mv = Move::new(
            Square::from_usi("7g").unwrap(),
            Square::from_usi("7f").unwrap(),
            false,
        );
        tt.store(
            0x1234_5678_9abc_def1,
            Some(mv),
            -345,
            12,
            7,
            Bound::Lower,
            true,
        );
        let e = tt.probe(0x1234_5678_9abc_def1).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound, e.pv),
            (Some(mv), -345, 12, 7, Bound::Lower, true)
        );
        assert!(tt.probe(0x1234_5678_9abc_def3).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0xdead_beef_0000_0001;
        tt.store(key, None, 10, 0, 3, Bound::Exact, false);
        // Simulate another thread overwriting the data word only.
        let slot = tt
            .bucket(key)
            .0
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        slot.data.store(
            pack(None, 99, 0, 9, Bound::Exact, false, 0),
            Ordering::Relaxed,
        );
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn a_shallow_bound_keeps_a_deep_entry_but_takes_its_move() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0x0bad_cafe_0000_0001;
        let sq = |s| Square::from_usi(s).unwrap();
        let old = Move::new(sq("7g"), sq("7f"), false);
        let new = Move::new(sq("2g"), sq("2f"), false);
        tt.store(key, Some(old), 50, 7, 10, Bound::Lower, false);
        // A quiescence search's bound without a move: nothing changes.
        tt.store(key, None, -20, 7, 0, Bound::Upper, false);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(old), 50, 10, Bound::Lower)
        );
        // A shallow bound with a move: the move only.
        tt.store(key, Some(new), -20, 7, 2, Bound::Lower, false);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(new), 50, 10, Bound::Lower)
        );
        // An exact score, or a bound nearly as deep, replaces it, keeping the move.
        tt.store(key, None, 30, 7, 7, Bound::Upper, false);
        let e = tt.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(new), 30, 7, Bound::Upper)
        );
        tt.store(key, None, 40, 7, 1, Bound::Exact, false);
        assert_eq!(tt.probe(key).unwrap().depth, 1);
        // A new search's entries replace the old search's whatever their depth.
        tt.store(key, Some(old), 50, 7, 12, Bound::Lower, false);
        tt.new_search();
        tt.store(key, None, -5, 7, 0, Bound::Upper, false);
        let e = tt.probe(key).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (Some(old), -5, 0));
    }

    #[test]
    fn hashfull_counts_current_entries() {
        let tt = TranspositionTable::new(1).unwrap();
        assert_eq!(tt.hashfull(), 0);
        for k in 0..100_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                None,
                0,
                0,
                1,
                Bound::Exact,
                false,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
