//! The proof table of the mate search: proof and disproof numbers by position, in a
//! fixed amount of memory.
//!
//! Entries are keyed by the board (with the side to move) and the attacker's hand, kept
//! apart so one entry answers for many hands: a position proved with hand `h` is proved
//! for every hand holding at least `h` (the attacker has every move it had, the defender
//! only fewer drops), and a disproof with hand `h` holds for every hand within `h`.
//!
//! The table never grows. Entries of one board share a cluster; when a cluster is full
//! the entry that cost the least search is replaced, and when the whole table is nearly
//! full a sweep drops the cheaper half of the entries (garbage collection), so a long
//! search keeps its expensive results and goes on in bounded memory.

use crate::memory::{AllocError, ZeroedSlice};
use crate::types::Hand;

/// What [`Table::look`] found: what is known, and the least numbers the position can
/// have by the unsettled entries of its board with other hands. The attacker holding
/// less than in an entry makes the mate no easier to prove (`pn_floor`, the largest
/// such proof number); holding more makes it no easier to disprove (`dn_floor`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Lookup {
    pub known: Option<Known>,
    pub pn_floor: u32,
    pub dn_floor: u32,
}

/// Proof or disproof number meaning "infinite": the other number is 0.
pub const INF: u32 = u32::MAX / 2;

/// Entries per cluster: the entries that may hold a given board.
const CLUSTER: usize = 8;

/// Bytes in a cache line.
const CACHE_LINE: usize = 64;

// 32-byte aligned (its size), so that two share a cache line and none straddles two.
#[derive(Clone, Copy, Debug, Default)]
#[repr(align(32))]
struct Entry {
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    /// When proved, plies to mate (the mate found, not always the shortest); when
    /// disproved, the plies the failure was shown for (`u16::MAX`: any number).
    len: u16,
    /// A disproof that rests on a repetition on the path that made it: not a proof that
    /// no mate exists from every path.
    tainted: bool,
    /// Nodes searched below this entry; 0 marks an empty slot.
    amount: u32,
    /// The table's generation when stored: an entry of an earlier one is an empty slot
    /// (see [`Table::clear`]).
    generation: u8,
}

// Two entries a cache line; `Table::prefetch` counts on it.
const _: () = assert!(std::mem::size_of::<Entry>() == CACHE_LINE / 2);

/// What an [`AllocError`] of this table calls it.
const WHAT: &str = "mate table";

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    pub pn: u32,
    pub dn: u32,
    pub len: u16,
    pub tainted: bool,
    /// A proof's hand: the least the attacker must hold for it (the proof holds for
    /// every hand with at least as much of each kind). A disproof's: the most the
    /// attacker may hold for it. Otherwise the hand the numbers were found with.
    pub hand: Hand,
}

impl Known {
    pub fn is_proved(&self) -> bool {
        self.pn == 0
    }
    pub fn is_disproved(&self) -> bool {
        self.dn == 0
    }
}

/// The proof table. See the module documentation.
pub struct Table {
    /// Zeroed by the system as the search first touches each page (for a large table,
    /// rather than seconds of writing before a short problem), on huge pages where the
    /// system allows; the first cluster starts on a cache line, so one cluster is four
    /// lines, not five.
    entries: ZeroedSlice<Entry>,
    /// Clusters in the table.
    clusters: usize,
    used: usize,
    /// The current generation (see [`Table::clear`]); never 0, the generation of the
    /// zeroed memory.
    generation: u8,
    /// Garbage collections run so far (reported by the solver).
    pub collections: u32,
}

impl Table {
    /// A table of about `mib` MiB (at least one cluster).
    ///
    /// # Panics
    /// When the memory cannot be had; [`Table::try_new`] reports that instead.
    pub fn new(mib: usize) -> Table {
        Table::try_new(mib).expect("memory for the proof table")
    }

    /// A table of about `mib` MiB, or an error when the memory cannot be had.
    pub fn try_new(mib: usize) -> Result<Table, AllocError> {
        AllocError::check(WHAT, mib)?;
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let clusters = (bytes / (CLUSTER * std::mem::size_of::<Entry>())).max(1);
        // SAFETY: the all-zero bit pattern is a valid `Entry` (integers, a `Hand` of
        // integers and `false`), and equals `Entry::default()`, an empty slot.
        let entries = unsafe { ZeroedSlice::new(clusters * CLUSTER, CACHE_LINE) }
            .ok_or(AllocError::refused(WHAT, mib))?;
        Ok(Table {
            entries,
            clusters,
            used: 0,
            generation: 1,
            collections: 0,
        })
    }

    /// The size in MiB the table was made for.
    pub fn mib(&self) -> usize {
        (self.capacity() * std::mem::size_of::<Entry>()) >> 20
    }

    /// The entries the clusters hold.
    fn capacity(&self) -> usize {
        self.clusters * CLUSTER
    }

    /// Forgets every entry. Clearing is a new generation, not a pass over the memory:
    /// writing a 4 GiB table took 0.4 s before each `go mate` on this machine (6 s the
    /// first time, touching every page), for a mate in one. Only when the generations
    /// (a byte) run out is the memory written, once in 254 clears.
    pub fn clear(&mut self) {
        if self.generation == u8::MAX {
            self.entries.fill(Entry::default());
            self.generation = 1;
        } else {
            self.generation += 1;
        }
        self.used = 0;
        self.collections = 0;
    }

    /// Whether `e` holds an entry: stored, and since the last clear.
    fn live(&self, e: &Entry) -> bool {
        e.amount != 0 && e.generation == self.generation
    }

    /// Occupancy in permille, as USI `hashfull` reports it.
    pub fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / self.capacity() as u64) as u32
    }

    /// The index of the first entry of `key`'s cluster.
    fn cluster(&self, key: u64) -> usize {
        (((key as u128 * self.clusters as u128) >> 64) as usize) * CLUSTER
    }

    /// Asks for `key`'s cluster to be brought into the cache: a node looks up all its
    /// children, and fetching their clusters together overlaps the waits for memory.
    pub fn prefetch(&self, key: u64) {
        let start = self.cluster(key);
        for line in (start..start + CLUSTER).step_by(CACHE_LINE / std::mem::size_of::<Entry>()) {
            crate::memory::prefetch(&self.entries[line]);
        }
    }

    /// What is known for this board with this attacker hand that serves a search for a
    /// mate of at most `remaining` plies (`u16::MAX`: any): a proof for a smaller hand
    /// with a mate short enough, a disproof for a larger hand shown for at least as many
    /// plies (one resting on a repetition only when `tainted_ok`), or the entry for
    /// this very hand. A proof too long or a failure shown for fewer plies does not
    /// hide the numbers of the entry for this hand.
    pub fn probe(&self, key: u64, hand: Hand, remaining: u16, tainted_ok: bool) -> Option<Known> {
        self.look(key, hand, remaining, tainted_ok).known
    }

    /// [`Table::probe`], with the floors that the unsettled entries of the same board
    /// with other hands put under the numbers (see [`Lookup`]; not applied here).
    pub fn look(&self, key: u64, hand: Hand, remaining: u16, tainted_ok: bool) -> Lookup {
        let start = self.cluster(key);
        let mut exact: Option<Known> = None;
        let mut proof: Option<Known> = None;
        let mut disproof: Option<Known> = None;
        let (mut pn_floor, mut dn_floor) = (0, 0);
        for e in &self.entries[start..start + CLUSTER] {
            if !self.live(e) || e.key != key {
                continue;
            }
            let known = Known {
                pn: e.pn,
                dn: e.dn,
                len: e.len,
                tainted: e.tainted,
                hand: e.hand,
            };
            if e.pn == 0 {
                if hand.is_superset_of(e.hand)
                    && e.len <= remaining
                    && proof.is_none_or(|p| p.len > e.len)
                {
                    proof = Some(known);
                }
            } else if e.dn == 0 {
                // The strongest failure: untainted, then shown for the most plies.
                let rank = |k: &Known| (!k.tainted, k.len);
                if e.hand.is_superset_of(hand)
                    && e.len >= remaining
                    && (tainted_ok || !e.tainted)
                    && disproof.is_none_or(|d| rank(&known) > rank(&d))
                {
                    disproof = Some(known);
                }
            } else if e.hand == hand {
                exact.get_or_insert(known);
            } else if e.hand.is_superset_of(hand) {
                pn_floor = pn_floor.max(e.pn);
            } else if hand.is_superset_of(e.hand) {
                dn_floor = dn_floor.max(e.dn);
            }
        }
        Lookup {
            known: proof.or(disproof).or(exact),
            pn_floor,
            dn_floor,
        }
    }

    /// Records a position's numbers under `known.hand` (a proof's or disproof's hand,
    /// else the hand the numbers are for). `amount` is the search spent on it, which
    /// decides what is replaced when room runs out.
    pub fn store(&mut self, key: u64, known: Known, amount: u64) {
        let hand = known.hand;
        let amount = amount.clamp(1, u32::MAX as u64) as u32;
        let start = self.cluster(key);
        let mut slot = None;
        let mut cheapest = start;
        for i in start..start + CLUSTER {
            let e = self.entries[i];
            if !self.live(&e) {
                slot = slot.or(Some(i));
                continue;
            }
            if e.key == key {
                if e.hand == hand {
                    match same_hand(&e, &known) {
                        SameHand::Replace => {
                            slot = Some(i);
                            break;
                        }
                        SameHand::Keep => return,
                        // Not this slot, and not to be evicted for the new entry.
                        SameHand::Both => continue,
                    }
                }
                // A proof makes the entries of larger hands of this board redundant, a
                // disproof those of smaller hands. Only when nothing is lost: not a
                // shorter mate, not a failure shown for more plies, and neither a
                // failure within fewer plies than a proof's mate nor a proof longer than
                // a failure's plies (both hold: the search for shorter mates needs the
                // proofs of its line after failing to shorten them).
                let unsettled = e.pn != 0 && e.dn != 0;
                let dominated = (known.pn == 0
                    && e.hand.is_superset_of(hand)
                    && (unsettled || e.len >= known.len))
                    || (known.dn == 0
                        && !known.tainted
                        && hand.is_superset_of(e.hand)
                        && (unsettled || e.len <= known.len));
                if dominated {
                    self.entries[i].amount = 0;
                    self.used -= 1;
                    slot = slot.or(Some(i));
                    continue;
                }
            }
            if e.amount < self.entries[cheapest].amount || !self.live(&self.entries[cheapest]) {
                cheapest = i;
            }
        }
        let i = slot.unwrap_or(cheapest);
        if !self.live(&self.entries[i]) {
            self.used += 1;
        }
        // Proofs and disproofs are worth more than their own search: they end lines.
        let bonus = if known.pn == 0 || known.dn == 0 { 2 } else { 1 };
        self.entries[i] = Entry {
            key,
            hand,
            pn: known.pn,
            dn: known.dn,
            len: known.len,
            tainted: known.tainted,
            amount: amount.saturating_mul(bonus),
            generation: self.generation,
        };
        if self.used * 10 > self.capacity() * 9 {
            self.collect();
        }
    }

    /// Garbage collection: frees the entries that cost less than the median amount of
    /// search (estimated from a sample), which is about half the table.
    fn collect(&mut self) {
        let step = (self.capacity() / 4096).max(1);
        let generation = self.generation;
        let mut sample: Vec<u32> = self
            .entries
            .iter()
            .step_by(step)
            .filter(|e| self.live(e))
            .map(|e| e.amount)
            .collect();
        if sample.is_empty() {
            return;
        }
        let mid = sample.len() / 2;
        let (_, &mut median, _) = sample.select_nth_unstable(mid);
        let mut used = 0;
        for e in self.entries.iter_mut() {
            // An entry of an earlier generation is an empty slot already; marked so, the
            // pass below leaves it alone.
            if e.generation != generation || (e.amount > 0 && e.amount <= median) {
                e.amount = 0;
            } else if e.amount > 0 {
                used += 1;
            }
        }
        // With every amount equal nothing would go: then drop everything but proofs.
        if used * 10 > self.capacity() * 9 {
            used = 0;
            for e in self.entries.iter_mut() {
                if e.amount > 0 && e.pn != 0 {
                    e.amount = 0;
                } else if e.amount > 0 {
                    used += 1;
                }
            }
        }
        self.used = used;
        self.collections += 1;
    }
}

/// What [`Table::store`] does with an entry of the same board and hand.
enum SameHand {
    /// The new numbers take its place.
    Replace,
    /// It says more than the new numbers: nothing is stored.
    Keep,
    /// Both hold and say different things (a proof and a failure within fewer plies, or
    /// a settled entry and the numbers of a search limited to fewer plies than its
    /// mate): the new numbers go to another slot.
    Both,
}

fn same_hand(old: &Entry, new: &Known) -> SameHand {
    let old_settled = old.pn == 0 || old.dn == 0;
    let new_settled = new.pn == 0 || new.dn == 0;
    if !old_settled {
        return SameHand::Replace;
    }
    // Only a search limited to fewer plies than a proof's mate (or one that does not
    // reuse a tainted failure) searches a settled position again; its numbers must not
    // overwrite the proof the search for shorter mates reads its line from.
    if !new_settled {
        return SameHand::Both;
    }
    let replace_if = |better: bool| {
        if better {
            SameHand::Replace
        } else {
            SameHand::Keep
        }
    };
    match (old.pn == 0, new.pn == 0) {
        (true, true) => replace_if(new.len <= old.len),
        (false, false) => replace_if(new.len >= old.len),
        // A failure within fewer plies than the proof's mate: both hold.
        (true, false) if new.len < old.len => SameHand::Both,
        (false, true) if new.len > old.len => SameHand::Both,
        // A contradiction: the new result was found from this very position.
        _ => SameHand::Replace,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceKind;

    fn hand(golds: u32, silvers: u32) -> Hand {
        let mut h = Hand::EMPTY;
        h.set(PieceKind::Gold, golds);
        h.set(PieceKind::Silver, silvers);
        h
    }

    fn known(hand: Hand, pn: u32, dn: u32) -> Known {
        Known {
            pn,
            dn,
            len: 3,
            tainted: false,
            hand,
        }
    }

    #[test]
    fn a_new_table_is_empty_and_a_cleared_one_forgets() {
        let mut t = Table::new(1);
        assert_eq!(t.hashfull(), 0);
        assert!(t
            .entries
            .iter()
            .all(|e| e.amount == 0 && e.key == 0 && e.pn == 0));
        t.store(42, known(hand(1, 0), 0, INF), 10);
        assert!(t.probe(42, hand(1, 0), u16::MAX, true).is_some());
        t.clear();
        assert!(t.probe(42, hand(1, 0), u16::MAX, true).is_none());
        assert_eq!(t.hashfull(), 0);
        // Cleared many times over (past the generations a byte holds), each problem
        // sees only its own entries, and the slots of earlier ones are free again.
        for round in 0..600u64 {
            let key = 1000 + round % 3;
            assert!(
                t.probe(key, hand(1, 0), u16::MAX, true).is_none(),
                "{round}"
            );
            for slot in 0..CLUSTER as u32 {
                t.store(key, known(hand(slot, 0), 2, 2), 1);
            }
            for slot in 0..CLUSTER as u32 {
                let k = t.probe(key, hand(slot, 0), u16::MAX, true);
                assert_eq!(k.map(|k| k.pn), Some(2), "{round} {slot}");
            }
            assert_eq!(t.used, CLUSTER);
            t.clear();
        }
    }

    #[test]
    fn proofs_cover_larger_hands_and_disproofs_smaller_ones() {
        let mut t = Table::new(1);
        t.store(42, known(hand(1, 0), 0, INF), 10);
        assert!(t.probe(42, hand(2, 1), u16::MAX, true).unwrap().is_proved());
        assert!(t.probe(42, hand(0, 1), u16::MAX, true).is_none());
        assert!(t.probe(43, hand(2, 1), u16::MAX, true).is_none());

        t.store(7, known(hand(1, 1), INF, 0), 10);
        assert!(t.probe(7, hand(1, 0), 3, true).unwrap().is_disproved());
        assert!(t.probe(7, hand(2, 0), 3, true).is_none());
    }

    #[test]
    fn exact_entries_are_updated_in_place() {
        let mut t = Table::new(1);
        t.store(5, known(hand(1, 0), 3, 4), 1);
        t.store(5, known(hand(1, 0), 6, 2), 1);
        assert_eq!(
            t.probe(5, hand(1, 0), u16::MAX, true).map(|k| (k.pn, k.dn)),
            Some((6, 2))
        );
        assert_eq!(t.used, 1);
    }

    #[test]
    fn a_proof_is_kept_beside_what_a_shorter_limit_finds() {
        // A mate in 9 plies for this hand; a search for mates of at most 7 plies then
        // finds the position unsettled, and finally fails: all three must leave the proof
        // readable, and the failure must answer for 7 plies.
        let mut t = Table::new(1);
        let h = hand(1, 0);
        t.store(
            42,
            Known {
                len: 9,
                ..known(h, 0, INF)
            },
            10,
        );
        t.store(42, known(h, 4, 6), 3);
        assert_eq!(
            t.probe(42, h, u16::MAX, true).map(|k| (k.pn, k.len)),
            Some((0, 9))
        );
        assert_eq!(t.probe(42, h, 7, true).map(|k| (k.pn, k.dn)), Some((4, 6)));
        t.store(
            42,
            Known {
                len: 7,
                ..known(h, INF, 0)
            },
            5,
        );
        assert_eq!(
            t.probe(42, h, u16::MAX, true).map(|k| (k.pn, k.len)),
            Some((0, 9))
        );
        assert!(t.probe(42, h, 7, true).unwrap().is_disproved());
        // A shorter proof replaces the longer one; a longer one is not stored.
        t.store(
            42,
            Known {
                len: 5,
                ..known(h, 0, INF)
            },
            10,
        );
        t.store(
            42,
            Known {
                len: 11,
                ..known(h, 0, INF)
            },
            10,
        );
        assert_eq!(t.probe(42, h, u16::MAX, true).map(|k| k.len), Some(5));
        // A larger hand's limited failure leaves the smaller hand's proof alone too.
        t.store(
            42,
            Known {
                len: 3,
                ..known(hand(2, 1), INF, 0)
            },
            5,
        );
        assert_eq!(t.probe(42, h, u16::MAX, true).map(|k| k.len), Some(5));
    }

    #[test]
    fn a_full_table_collects_and_keeps_expensive_entries() {
        let mut t = Table::new(1);
        let n = t.entries.len() as u64 * 2;
        for i in 0..n {
            let key = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            // Every 97th entry is expensive.
            let amount = if i % 97 == 0 { 1_000_000 } else { 1 + i % 5 };
            t.store(key, known(hand(0, 0), 2, 2), amount);
        }
        assert!(t.collections > 0);
        assert!(t.hashfull() <= 900);
        let kept = (0..n)
            .filter(|i| i % 97 == 0)
            .filter(|i| {
                t.probe(
                    i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                    hand(0, 0),
                    u16::MAX,
                    true,
                )
                .is_some()
            })
            .count();
        let expensive = (0..n).filter(|i| i % 97 == 0).count();
        assert!(kept * 10 >= expensive * 9, "{kept} of {expensive} kept");
    }
}
