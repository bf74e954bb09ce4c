//! What the first look at a new node found, kept for the next time it is looked at.
//!
//! Every time the search enters a node it looks at all its children, and a child not
//! yet in the proof table gets a first look: an attacker's position is tried for a mate
//! in one, a defender's has its replies counted. The search enters most nodes many times
//! (df-pn's re-expansions), and a child that stays unsearched is looked at each time:
//! on the 39-ply chain-interposition problem, about five first looks a node searched.
//! The table does not keep them: stored there, the first looks of a board's many hands
//! crowd its cluster out of the entries that cost search, and their numbers would floor
//! the other hands' (see [`super::table::Lookup`]). So they live here, in a small cache
//! of their own: the answer depends on the position alone (the board and the attacker's
//! hand, which determine the defender's), so what it returns is exactly what the look
//! would find, and the search goes the same way, faster.

use crate::memory::ZeroedSlice;
use crate::types::Hand;

/// What a first look found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstLook {
    /// The attacker to move has no mate in one.
    NoMateInOne,
    /// The defender to move has this many replies, as the proof number counts them.
    Replies(u32),
}

impl FirstLook {
    fn encode(self) -> u32 {
        match self {
            FirstLook::NoMateInOne => u32::MAX,
            FirstLook::Replies(n) => n.min(u32::MAX - 2) + 1,
        }
    }

    fn decode(value: u32) -> Option<FirstLook> {
        match value {
            0 => None,
            u32::MAX => Some(FirstLook::NoMateInOne),
            n => Some(FirstLook::Replies(n - 1)),
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    hand: Hand,
    /// [`FirstLook::encode`]d; 0 marks an empty slot.
    value: u32,
}

/// Positions of one board share a bucket, a cache line, newest first.
const SLOTS: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Slot; SLOTS]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The cache. See the module documentation.
pub struct FirstLooks {
    buckets: ZeroedSlice<Bucket>,
}

impl FirstLooks {
    /// A cache of about `bytes` bytes (at least one bucket), or `None` when the memory
    /// cannot be had.
    pub fn try_new(bytes: usize) -> Option<FirstLooks> {
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // SAFETY: the all-zero bit pattern is a valid `Bucket` (integers and a `Hand` of
        // integers), and it is the empty bucket.
        let buckets = unsafe { ZeroedSlice::new(count, std::mem::size_of::<Bucket>()) }?;
        Some(FirstLooks { buckets })
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Asks for the bucket of `key`'s board to be brought into the cache.
    pub fn prefetch(&self, key: u64) {
        crate::memory::prefetch(&self.buckets[self.bucket(key)]);
    }

    /// What the first look at this position found, if it is remembered.
    pub fn get(&self, key: u64, hand: Hand) -> Option<FirstLook> {
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|s| s.value != 0 && s.key == key && s.hand == hand)
            .and_then(|s| FirstLook::decode(s.value))
    }

    /// Remembers what the first look at this position found, in place of the oldest
    /// position of its bucket.
    pub fn put(&mut self, key: u64, hand: Hand, look: FirstLook) {
        let index = self.bucket(key);
        let slots = &mut self.buckets[index].0;
        slots.copy_within(0..SLOTS - 1, 1);
        slots[0] = Slot {
            key,
            hand,
            value: look.encode(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    fn hand(pawns: u32) -> Hand {
        let mut h = Hand::EMPTY;
        h.set(PieceKind::Pawn, pawns);
        h
    }

    #[test]
    fn a_look_is_found_for_its_own_position_only() {
        let mut cache = FirstLooks::try_new(1 << 12).unwrap();
        assert_eq!(cache.get(7, hand(1)), None);
        cache.put(7, hand(1), FirstLook::Replies(5));
        cache.put(7, hand(3), FirstLook::Replies(0));
        cache.put(9, hand(1), FirstLook::NoMateInOne);
        assert_eq!(cache.get(7, hand(1)), Some(FirstLook::Replies(5)));
        assert_eq!(cache.get(9, hand(1)), Some(FirstLook::NoMateInOne));
        assert_eq!(cache.get(7, hand(3)), Some(FirstLook::Replies(0)));
        assert_eq!(
            cache.get(7, hand(2)),
            None,
            "another hand is another position"
        );
        assert_eq!(cache.get(8, hand(1)), None);
    }

    #[test]
    fn a_full_bucket_forgets_its_oldest_position() {
        // One bucket: every position shares it.
        let mut cache = FirstLooks::try_new(1).unwrap();
        for pawns in 0..=SLOTS as u32 {
            cache.put(3, hand(pawns), FirstLook::Replies(pawns + 1));
        }
        assert_eq!(cache.get(3, hand(0)), None);
        for pawns in 1..=SLOTS as u32 {
            assert_eq!(
                cache.get(3, hand(pawns)),
                Some(FirstLook::Replies(pawns + 1))
            );
        }
    }
}
