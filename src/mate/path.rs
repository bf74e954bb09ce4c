//! The positions on the line from the root to the node being searched, for the
//! repetition rule: a position met again on the path fails for the attacker.
//!
//! Long problems go a thousand plies and more deep, and every child of every node asks
//! whether it repeats the path, so the keys are also counted in a hash map: the question
//! costs the same at any depth.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Zobrist keys are already uniformly random: hashing them again buys nothing.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// The full keys (board and hands) of the positions on the path, oldest first.
#[derive(Default)]
pub struct Path {
    keys: Vec<u64>,
    counts: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
}

impl Path {
    /// A path made of these positions, oldest first.
    pub fn from_keys(keys: &[u64]) -> Path {
        let mut path = Path::default();
        for &key in keys {
            path.push(key);
        }
        path
    }

    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        *self.counts.entry(key).or_insert(0) += 1;
    }

    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            if let Some(count) = self.counts.get_mut(&key) {
                *count -= 1;
                if *count == 0 {
                    self.counts.remove(&key);
                }
            }
        }
    }

    pub fn contains(&self, key: u64) -> bool {
        self.counts.contains_key(&key)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_leave_the_path_when_their_last_copy_does() {
        let mut path = Path::from_keys(&[1, 2]);
        path.push(1);
        assert!(path.contains(1) && path.contains(2) && !path.contains(3));
        path.pop();
        assert!(path.contains(1), "the first copy of 1 is still there");
        path.pop();
        path.pop();
        assert!(!path.contains(1) && !path.contains(2));
        path.pop();
        assert_eq!(path.len(), 0);
    }
}
