//! The one seeded random generator of the house, and the 64-bit mixer beside it.
//!
//! Everything random in hayate must replay from a seed (magic numbers, self-play games,
//! data generation, the trainer's shuffles, the book player), so there is no system
//! randomness here: a xorshift64* generator, seeded through SplitMix64 so that nearby
//! seeds (1, 2, 3…) start far apart, and independent streams for parallel workers (game
//! `i` of a run with seed `s` always plays the same, whichever thread plays it).

/// SplitMix64's increment (2^64 / φ): consecutive states are spread over all bits.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;
/// xorshift64*'s output multiplier.
const OUTPUT_MULTIPLIER: u64 = 0x2545_f491_4f6c_dd1d;
/// The state used for a seed that would leave xorshift stuck at zero.
const NONZERO: u64 = GOLDEN;

/// SplitMix64's finaliser: nearby inputs give unrelated outputs (hash keys, seeds).
#[inline(always)]
pub const fn mix64(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// One step of SplitMix64 (usable in `const` tables such as the Zobrist keys).
#[inline(always)]
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN);
    mix64(*state)
}

/// A small deterministic generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose state is `state` itself (0 is replaced: xorshift would stay 0).
    /// For fixed, hand-picked states; a user's seed goes through [`Rng::seeded`].
    pub const fn from_state(state: u64) -> Rng {
        Rng(if state == 0 { NONZERO } else { state })
    }

    /// A generator for a user's seed: nearby seeds give unrelated sequences.
    pub const fn seeded(seed: u64) -> Rng {
        Rng::from_state(mix64(seed.wrapping_add(GOLDEN)))
    }

    /// Stream `index` of `seed`: independent of the other streams, and the same whichever
    /// thread asks for it.
    pub const fn stream(seed: u64, index: u64) -> Rng {
        Rng::seeded(seed ^ mix64(index.wrapping_add(1).wrapping_mul(GOLDEN)))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(OUTPUT_MULTIPLIER)
    }

    /// A number below `n` (`n` > 0), by multiply-and-shift: every value is equally likely
    /// to within 2^-64, for any `n`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A float in [0, 1) with 24 random bits.
    #[inline]
    pub fn unit_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_its_published_first_outputs() {
        // SplitMix64 from state 0 (Vigna's reference, splitmix64.c): the first outputs.
        let mut s = 0u64;
        assert_eq!(splitmix64(&mut s), 0xe220_a839_7b1d_cdaf);
        assert_eq!(splitmix64(&mut s), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(splitmix64(&mut s), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn seeds_and_streams_replay_and_differ() {
        let take = |mut r: Rng| (0..4).map(|_| r.next_u64()).collect::<Vec<_>>();
        assert_eq!(take(Rng::seeded(7)), take(Rng::seeded(7)));
        assert_ne!(take(Rng::seeded(7)), take(Rng::seeded(8)));
        assert_eq!(take(Rng::stream(7, 3)), take(Rng::stream(7, 3)));
        assert_ne!(take(Rng::stream(7, 3)), take(Rng::stream(7, 4)));
        assert_ne!(take(Rng::stream(7, 3)), take(Rng::stream(8, 3)));
        // A zero state would repeat zero forever.
        assert_ne!(Rng::from_state(0).next_u64(), 0);
    }

    #[test]
    fn below_and_unit_stay_in_range_and_cover_it() {
        let mut r = Rng::seeded(1);
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = r.below(5) as usize;
            seen[x] = true;
            let f = r.unit_f32();
            assert!((0.0..1.0).contains(&f));
        }
        assert!(seen.iter().all(|&s| s));
    }
}
