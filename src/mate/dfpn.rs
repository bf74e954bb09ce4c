//! Depth-first proof-number search (df-pn).
//!
//! The attacker (the side to move at the root) plays OR nodes: one checking move that
//! mates is enough. The defender plays AND nodes: every legal reply, interposing drops
//! included, must be mated. Each node carries a proof number (how many more leaves must
//! be proved, at least, to prove it) and a disproof number; the search always walks to
//! the most promising leaf, like best-first proof-number search, but depth-first under
//! thresholds so that only the path lives on the stack and everything else lives in the
//! bounded [`Table`].
//!
//! Refinements:
//! - A new defender node starts with its number of legal replies as proof number
//!   (counted without generating them, the drops onto one square once), so a check with
//!   no reply is mate at once; the numbers are in [`UNIT`]s, and the square the move
//!   went to adjusts them ([`super::estimate`], df-pn+): a check into a crowd of guards
//!   looks harder, a reply that captures or that the defender holds looks better for
//!   the defender. A new attacker node is tried for a mate in one first.
//! - Delayed expansion ([`super::delay`]): the pieces the defender can interpose on one
//!   square, the interpositions nothing of the defender's guards, and a move with and
//!   without promotion form chains; only a chain's first open member is searched and
//!   counted, the next once it is settled. They usually fall the same way, and summed,
//!   a check that allows a chain of interpositions looked hopeless.
//! - Child thresholds use the "1 + epsilon" rule (a quarter above the second-best child),
//!   which saves most of the re-expansions plain df-pn makes when two children alternate.
//! - Proofs and disproofs hold across hands (see [`Table`]). A proof is stored with the
//!   least hand it needs (its proof pieces): nothing at a mate, except the pieces the
//!   defender could interpose if the attacker held fewer
//!   ([`super::interposition::withheld_interposers`]); at an attacker node the hand of
//!   the mating child plus a dropped piece, less a captured one; at a defender node the
//!   largest of its replies' hands. So a mate found after one interposed piece is taken
//!   also answers the other pieces that could have stood there.
//! - A search may be limited to mates of at most N plies (used to look for shorter mates
//!   once one is found). A proof then counts only if its mate is short enough, and a
//!   failure caused by the limit is recorded with the number of plies it was shown for,
//!   so it is reused only where no more plies remain. Lengths follow the tsume
//!   convention: a futile interposition (see [`super::interposition`]) adds no length.
//!   A useless one is given two extra plies; a drop the checker takes with mate is
//!   known futile once its mate in one is proved, and with one ply or none left, a
//!   defender's node stands only if every reply is futile.
//! - A failure is stored with the largest hand it holds for, its disproof pieces
//!   ([`super::disproof`]), and the unsettled entries of the same board with other hands
//!   put floors under a new child's numbers.
//! - A position repeated on the current path, or met again there with no more in the
//!   attacker's hand ([`super::path`]), is a failure for the attacker (in shogi a
//!   perpetual check loses). Such a failure only holds for that path, so the disproofs
//!   built on it are marked `tainted`. They are reused at first; a root disproved through
//!   one is searched again without reusing them, which makes that disproof exact.

use super::checks::generate_checks;
use super::delay::{delay, waiting_drop_squares, Delay};
use super::disproof;
use super::estimate::{self, UNIT};
use super::first_look::{FirstLook, FirstLooks};
use super::interposition::{is_futile_reply, withheld_interposers, InterpositionSquares};
use super::one::mate_in_one;
use super::path::{Path, Step};
use super::table::{Known, Lookup, Table, INF};
use crate::position::{GenType, Position};
use crate::types::{Color, Hand, Move, MoveList, PieceKind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The deepest path the search follows; longer lines count as failures (tainted).
pub const MAX_PLY: usize = 3000;

/// One move of a node being searched, with what is known of the position it leads to.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    known: Known,
    /// Plies left for the mate after this move.
    remaining: u16,
    /// A drop between the checker and the king.
    interposes: bool,
    /// A useless interposition, or an interposing drop that the checker takes with mate:
    /// its mate counts two plies shorter (see [`Dfpn::mark_futile`]).
    futile: bool,
    /// The kind of hand piece the move takes, if it captures.
    captured: Option<PieceKind>,
    /// The move's chain: it is searched only once the moves before it in its chain are
    /// settled (see [`super::delay`]).
    delay: Delay,
}

/// A move of the node being searched, before its child is looked at.
#[derive(Clone, Copy)]
struct Next {
    mv: Move,
    delay: Delay,
    /// The board key after the move.
    key: u64,
}

/// No limit on the length of the mate; also the mark of a failure shown without one.
pub const NO_LIMIT: u16 = u16::MAX;

const UNKNOWN: Known = Known {
    pn: UNIT,
    dn: UNIT,
    len: 0,
    tainted: false,
    hand: Hand::EMPTY,
};

const FAILED_ON_PATH: Known = Known {
    pn: INF,
    dn: 0,
    len: NO_LIMIT,
    tainted: true,
    hand: Hand::EMPTY,
};

/// A mate on the board, which holds for every attacker hand of at least `hand`.
fn proved_here(hand: Hand) -> Known {
    Known {
        pn: 0,
        dn: INF,
        len: 0,
        tainted: false,
        hand,
    }
}

/// A failure shown with `remaining` plies left (for every number of plies: `NO_LIMIT`)
/// for an attacker holding `hand` (or less).
fn failed(remaining: u16, hand: Hand) -> Known {
    Known {
        pn: INF,
        dn: 0,
        len: remaining,
        tainted: false,
        hand,
    }
}

/// The plies left after one move: one less, and two more after a useless interposition
/// (its mate counts two plies shorter).
pub fn after_move(remaining: u16, useless: bool) -> u16 {
    match remaining {
        NO_LIMIT => NO_LIMIT,
        r => r
            .saturating_sub(1)
            .saturating_add(if useless { 2 } else { 0 })
            .min(NO_LIMIT - 1),
    }
}

/// A move as the length of a mate counts it.
#[derive(Clone, Copy, Debug)]
pub struct Counted {
    /// The plies left after it.
    pub remaining: u16,
    /// A defender's useless interposition (futile whatever follows).
    pub useless: bool,
    /// A defender's drop between the checker and the king (futile when the checker
    /// takes it with mate).
    pub interposes: bool,
}

/// How the move `mv` of a node with `remaining` plies left (`or`: the attacker's) counts,
/// `squares` being the node's interposition squares. The plies left are
/// [`after_move`]'s; with one ply or none left a defender's reply must be futile (see
/// [`Dfpn::mid`]), and a drop the checker takes with mate then gets the ply of that
/// mate, which adds nothing to the length.
pub fn count_move(or: bool, remaining: u16, squares: &InterpositionSquares, mv: Move) -> Counted {
    let useless = !or && squares.is_useless(mv);
    let interposes = !or && squares.is_interposing_drop(mv);
    let left = after_move(remaining, useless);
    Counted {
        remaining: if interposes && remaining <= 1 {
            left.max(1)
        } else {
            left
        },
        useless,
        interposes,
    }
}

/// The search state over one root position.
pub struct Dfpn<'a> {
    pub pos: Position,
    pub table: &'a mut Table,
    pub attacker: Color,
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    /// Set when a limit or `stop` ended the search; the numbers returned are then partial.
    pub aborted: bool,
    /// The positions on the path, for repetitions.
    path: Path,
    /// A move left out at the root of the search, with the root's depth on the path (see
    /// [`Dfpn::solve_without`]).
    without: Option<(Move, usize)>,
    /// Whether failures that rested on a repetition (tainted) are taken from the table.
    /// Off, every such failure is found again on the path at hand, which makes a
    /// disproof exact at the price of more search.
    reuse_tainted: bool,
    /// A line was cut at [`MAX_PLY`]: a failure then proves nothing.
    pub hit_max_ply: bool,
    /// The first looks at children ([`super::first_look`]); `None` when its memory could
    /// not be had, and every look is then made afresh.
    first_looks: Option<FirstLooks>,
    progress: &'a mut dyn FnMut(u64, &Table),
}

/// The first-look cache gets this fraction of the proof table's memory.
const FIRST_LOOKS_SHARE: usize = 16;

impl<'a> Dfpn<'a> {
    /// A search of `pos` for a mate by its side to move. `progress` is called every few
    /// thousand nodes with the node count and the table.
    pub fn new(
        pos: Position,
        table: &'a mut Table,
        stop: &'a AtomicBool,
        progress: &'a mut dyn FnMut(u64, &Table),
    ) -> Dfpn<'a> {
        let attacker = pos.side_to_move();
        let first_looks = FirstLooks::try_new((table.mib() << 20) / FIRST_LOOKS_SHARE);
        Dfpn {
            pos,
            table,
            attacker,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop,
            aborted: false,
            path: Path::default(),
            without: None,
            reuse_tainted: true,
            hit_max_ply: false,
            first_looks,
            progress,
        }
    }

    /// Sets the limits of the next searches: a node count and a moment to stop.
    pub fn set_limits(&mut self, nodes: Option<u64>, deadline: Option<Instant>) {
        self.node_limit = nodes.map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.deadline = deadline;
        self.aborted = false;
    }

    /// Searches the current position for a mate of at most `remaining` plies (or any,
    /// with `NO_LIMIT`) until it is proved, disproved or a limit is hit.
    pub fn solve(&mut self, remaining: u16) -> Known {
        self.mid(INF, INF, remaining)
    }

    /// [`Dfpn::solve`] within these limits, and when the answer is a failure that rests
    /// on repetitions seen from other paths (tainted), the same search again without
    /// reusing such failures, within the same limits again. Also returns whether a
    /// failure is exact: a proof that no mate of at most `remaining` plies exists from
    /// here (short of the [`MAX_PLY`] cut, see `hit_max_ply`).
    pub fn solve_exact(
        &mut self,
        remaining: u16,
        nodes: Option<u64>,
        deadline: Option<Instant>,
    ) -> (Known, bool) {
        self.set_limits(nodes, deadline);
        let known = self.solve(remaining);
        if !(known.is_disproved() && known.tainted && !self.aborted) {
            return (known, !known.tainted);
        }
        let reuse = std::mem::replace(&mut self.reuse_tainted, false);
        self.set_limits(nodes, deadline);
        let known = self.solve(remaining);
        self.reuse_tainted = reuse;
        (known, !self.aborted)
    }

    /// Sets whether failures resting on repetitions (tainted) are taken from the table;
    /// returns the setting before.
    pub fn set_reuse_tainted(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.reuse_tainted, on)
    }

    /// The current position as the path records it.
    pub fn step(&self) -> Step {
        (self.pos.board_key(), self.pos.hand(self.attacker))
    }

    /// [`Dfpn::solve`] as if these positions (see [`Dfpn::step`]) had been played before:
    /// returning to one of them, or to its board with no more in the attacker's hand,
    /// fails, so the proof found does not lead back to them.
    pub fn solve_after(&mut self, history: &[Step], remaining: u16) -> Known {
        let saved = std::mem::replace(&mut self.path, Path::from_steps(history));
        let known = self.solve(remaining);
        self.path = saved;
        known
    }

    /// [`Dfpn::solve_after`] with the root's move `mv` left out: whether one of the
    /// other moves mates within `remaining` plies. A proof found is stored as usual (a
    /// mate without `mv` is a mate); anything else the root's search found is not, as it
    /// holds only without `mv`, and the numbers returned then say nothing of the root.
    pub fn solve_without(&mut self, history: &[Step], remaining: u16, mv: Move) -> Known {
        let saved = self.without.replace((mv, history.len()));
        let known = self.solve_after(history, remaining);
        self.without = saved;
        known
    }

    /// What the table knows of the current position with `remaining` plies left.
    pub fn known_here(&self, remaining: u16) -> Known {
        self.lookup(
            self.pos.board_key(),
            self.pos.hand(self.attacker),
            remaining,
        )
        .unwrap_or(UNKNOWN)
    }

    /// The table's numbers for a position, as far as they hold for `remaining` plies
    /// and for this search.
    fn lookup(&self, key: u64, hand: Hand, remaining: u16) -> Option<Known> {
        self.table.probe(key, hand, remaining, self.reuse_tainted)
    }

    /// Whether `stop` was raised: the search is to end.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn is_or_node(&self) -> bool {
        self.pos.side_to_move() == self.attacker
    }

    fn poll(&mut self) {
        if self.nodes >= self.node_limit || self.stopped() {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(4096) {
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
            (self.progress)(self.nodes, self.table);
        }
    }

    /// The moves of the node: checks for the attacker, every legal move for the defender.
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_or_node() {
            generate_checks(&self.pos, &mut list);
        } else {
            self.pos.generate(GenType::Legal, &mut list);
        }
        list
    }

    /// Looks at the position after a move without searching it; `remaining` is the
    /// current node's. `look`: whether a child the table does not know gets its first
    /// look (otherwise it gets the numbers of an unknown position).
    fn child(
        &mut self,
        next: Next,
        or: bool,
        remaining: u16,
        squares: &InterpositionSquares,
        look: bool,
    ) -> Child {
        let Next { mv, delay, key } = next;
        let Counted {
            remaining,
            useless,
            interposes,
        } = count_move(or, remaining, squares, mv);
        let captured = self.pos.piece_at(mv.to()).map(|p| p.kind().unpromoted());
        let mut hand = self.pos.hand(self.attacker);
        if or {
            if let Some(kind) = mv.drop_kind() {
                hand.remove(kind);
            } else if let Some(kind) = captured {
                hand.add(kind);
            }
        }
        let found = if self.path.dominates(key, hand) {
            Lookup {
                known: Some(FAILED_ON_PATH),
                ..Lookup::default()
            }
        } else {
            self.table.look(key, hand, remaining, self.reuse_tainted)
        };
        let known = match found.known {
            Some(known) => known,
            None if look => self.first_numbers(mv, or, key, hand, remaining),
            None => Known { hand, ..UNKNOWN },
        };
        let known = if known.pn == 0 || known.dn == 0 {
            known
        } else {
            Known {
                pn: known.pn.max(found.pn_floor),
                dn: known.dn.max(found.dn_floor),
                ..known
            }
        };
        Child {
            mv,
            known,
            remaining,
            interposes,
            // A drop the checker takes with mate is found futile once the node is
            // proved ([`Dfpn::mark_futile`]).
            futile: useless,
            captured,
            delay,
        }
    }

    /// Marks as futile the interposing drops among a proved defender's node's `children`
    /// (its interposition squares are `squares`) that the checker takes with mate
    /// ([`is_futile_reply`]); returns whether it marked any. Asked only once the node is
    /// proved, when its length is read: the test plays two moves and looks for a reply,
    /// and only a reply mated in one can pass it. (A node with one ply or none left has
    /// asked it of every reply already, in [`Dfpn::mid`].)
    fn mark_futile(&mut self, children: &mut [Child], squares: &InterpositionSquares) -> bool {
        let mut marked = false;
        for c in children.iter_mut() {
            if c.interposes
                && !c.futile
                && c.known.is_proved()
                && is_futile_reply(&mut self.pos, squares, c.mv, c.known.len == 1)
            {
                c.futile = true;
                marked = true;
            }
        }
        marked
    }

    /// The numbers of the position after `mv` (`key`, the attacker holding `hand`), which
    /// the table does not know: its first look ([`super::first_look`]) and the
    /// estimates of the square the move goes to. A mate found by the look is stored
    /// and returned as a proof.
    fn first_numbers(&mut self, mv: Move, or: bool, key: u64, hand: Hand, remaining: u16) -> Known {
        let (estimate_pn, estimate_dn) = if or {
            estimate::after_check(&self.pos, mv)
        } else {
            estimate::after_reply(&self.pos, mv)
        };
        let open = |pn: u32| Known {
            pn,
            dn: estimate_dn,
            hand,
            ..UNKNOWN
        };
        if !or && remaining == 0 {
            // No plies left for the attacker: nothing to look for.
            return open(estimate_pn);
        }
        let look = match self.first_look(key, hand) {
            Some(look) => look,
            None => {
                self.pos.play_unchecked(mv);
                debug_assert_eq!(self.pos.board_key(), key);
                debug_assert_eq!(self.pos.hand(self.attacker), hand);
                let look = self.look(or);
                self.pos.undo();
                match look {
                    Ok(look) => {
                        self.remember(key, hand, look);
                        look
                    }
                    Err(proof) => {
                        self.table.store(key, proof, 1);
                        return proof;
                    }
                }
            }
        };
        match look {
            // The defender to move: each reply is one leaf still to prove.
            FirstLook::Replies(n) => Known {
                dn: UNIT + estimate_dn,
                ..open(n * UNIT + estimate_pn)
            },
            FirstLook::NoMateInOne => open(estimate_pn),
        }
    }

    /// The first look at the current position, a child just made: its replies counted
    /// (the defender to move) or a mate in one tried (the attacker, not in check; in
    /// check none is tried). `Err` holds the proof when the look finds a mate.
    fn look(&mut self, or: bool) -> Result<FirstLook, Known> {
        if or {
            match self.pos.count_legal_grouping_drops() {
                // No reply: mate, recorded so that the line can be read back.
                0 => Err(proved_here(withheld_interposers(&self.pos))),
                n => Ok(FirstLook::Replies(
                    (n - waiting_drop_squares(&self.pos)) as u32,
                )),
            }
        } else if self.pos.in_check() {
            Ok(FirstLook::NoMateInOne)
        } else {
            self.mate_in_one().map_or(Ok(FirstLook::NoMateInOne), Err)
        }
    }

    /// What an earlier first look at this position found, if it is remembered.
    fn first_look(&self, key: u64, hand: Hand) -> Option<FirstLook> {
        self.first_looks.as_ref()?.get(key, hand)
    }

    fn remember(&mut self, key: u64, hand: Hand, look: FirstLook) {
        if let Some(cache) = &mut self.first_looks {
            cache.put(key, hand, look);
        }
    }

    /// The proof of the current attacker's node (not in check) by a mate in one, if
    /// [`mate_in_one`] finds one; the mated position is recorded for the line.
    fn mate_in_one(&mut self) -> Option<Known> {
        let mv = mate_in_one(&mut self.pos)?;
        let captured = self.pos.piece_at(mv.to()).map(|p| p.kind().unpromoted());
        self.pos.play_unchecked(mv);
        let mated = proved_here(withheld_interposers(&self.pos));
        self.table.store(self.pos.board_key(), mated, 1);
        self.pos.undo();
        Some(Known {
            len: 1,
            hand: hand_before(mated.hand, mv, captured),
            ..mated
        })
    }

    /// The multiple-iterative-deepening step of df-pn: searches the current position
    /// until its proof number reaches `thpn` or its disproof number `thdn`, stores the
    /// result and returns it.
    fn mid(&mut self, thpn: u32, thdn: u32, remaining: u16) -> Known {
        self.nodes += 1;
        self.poll();
        let or = self.is_or_node();
        let key = self.pos.board_key();
        let hand = self.pos.hand(self.attacker);
        let start = self.nodes;

        if or && remaining == 0 {
            return failed(0, hand);
        }
        let moves = self.moves();
        if moves.is_empty() {
            // No check to give fails; no reply to a check is mate.
            let known = if or {
                failed(NO_LIMIT, disproof::attacker_bound(&self.pos))
            } else {
                proved_here(withheld_interposers(&self.pos))
            };
            self.table.store(key, known, 1);
            return known;
        }
        let squares = if or {
            InterpositionSquares::default()
        } else {
            InterpositionSquares::new(&self.pos)
        };
        // A defender's node with one ply or none left: every reply but a futile one needs
        // two more. Useless interpositions are searched as ever; a drop the checker takes
        // with mate gets one ply for that mate ([`count_move`]); any other reply fails
        // the node.
        if !or && remaining <= 1 {
            // Any reply but a drop between fails the node at once; the drops are tried
            // only then (the test plays two moves).
            let fails = moves
                .iter()
                .any(|&mv| !squares.is_useless(mv) && !squares.is_interposing_drop(mv))
                || !moves
                    .iter()
                    .all(|&mv| is_futile_reply(&mut self.pos, &squares, mv, true));
            if fails {
                return failed(remaining, hand);
            }
        }
        if self.path.len() >= MAX_PLY {
            self.hit_max_ply = true;
            return FAILED_ON_PATH;
        }

        // The root of `solve_without`: its move left out.
        let without = match self.without {
            Some((mv, depth)) if self.path.len() == depth => Some(mv),
            _ => None,
        };
        let mut order: Vec<Next> = Vec::with_capacity(moves.len());
        for &mv in moves.iter() {
            if Some(mv) == without {
                continue;
            }
            // The position after the move, named without making it: a child the table
            // knows, or whose first look is remembered, is never played.
            let key = self.pos.board_key_after(mv);
            self.table.prefetch(key);
            if let Some(cache) = &self.first_looks {
                cache.prefetch(key);
            }
            let delay = delay(&self.pos, mv, or, &squares);
            order.push(Next { mv, delay, key });
        }
        // The members of a chain side by side, in their order.
        order.sort_by_key(|n| n.delay);
        let mut children: Vec<Child> = Vec::with_capacity(order.len());
        // The chain whose open member has been met: the rest of it waits.
        let mut open_chain = 0;
        for &next in order.iter() {
            // A defender's reply waiting in its chain is only looked up: it is not
            // counted until the members before it are settled, and then looked at again
            // (`refresh_chain`), so a first look at it now would mostly be wasted.
            let chain = next.delay.chain;
            let waits = !or && chain != 0 && chain == open_chain;
            let c = self.child(next, or, remaining, &squares, !waits);
            let settled = c.known.is_proved() || c.known.is_disproved();
            if !waits && !settled && chain != 0 {
                open_chain = chain;
            }
            let decided = if or {
                c.known.is_proved()
            } else {
                c.known.is_disproved() && !c.known.tainted
            };
            children.push(c);
            if decided {
                break;
            }
        }

        self.path.push((key, hand));
        let mut known;
        loop {
            let summary = summarize(or, &children, remaining);
            known = summary.known;
            if known.pn >= thpn || known.dn >= thdn || self.aborted {
                break;
            }
            let best = summary.best;
            let c = children[best];
            let (cthpn, cthdn) = if or {
                (
                    thpn.min(epsilon_above(summary.second)),
                    (thdn - known.dn).saturating_add(c.known.dn).min(INF),
                )
            } else {
                (
                    (thpn - known.pn).saturating_add(c.known.pn).min(INF),
                    thdn.min(epsilon_above(summary.second)),
                )
            };
            self.pos.play_unchecked(c.mv);
            let result = self.mid(cthpn, cthdn, c.remaining);
            self.pos.undo();
            children[best].known = result;
            // Only the searched child is brought up to date: looking up every sibling
            // after every descent cost more than the transpositions it caught (the
            // siblings are looked up afresh whenever the node is entered again). The
            // exception is the move its chain takes up next: the proof just found may
            // answer it (its proof pieces), and it has waited since the node was entered.
            if (result.is_proved() || result.is_disproved()) && c.delay.chain != 0 {
                self.refresh_chain(&mut children, best, or, remaining, &squares);
            }
        }
        self.path.pop();
        if !or && known.pn == 0 && self.mark_futile(&mut children, &squares) {
            known.len = summarize(or, &children, remaining).known.len;
        }
        // A disproof holds for the hand it was found with (and smaller ones); numbers
        // not settled are the numbers of that hand.
        known.hand = if known.pn == 0 {
            self.proof_hand(or, &children)
        } else if known.dn == 0 && !known.tainted {
            self.disproof_hand(or, &children, hand)
        } else {
            hand
        };
        let holds = known.pn == 0 || (without.is_none() && (known.dn == 0 || !self.aborted));
        if holds {
            self.table.store(key, known, self.nodes - start + 1);
        }
        known
    }

    /// Looks up again the members of `children[settled]`'s chain after it, up to the
    /// first that is still open: the next to be searched.
    fn refresh_chain(
        &mut self,
        children: &mut [Child],
        settled: usize,
        or: bool,
        remaining: u16,
        squares: &InterpositionSquares,
    ) {
        let chain = children[settled].delay.chain;
        for next in children[settled + 1..].iter_mut() {
            if next.delay.chain != chain {
                break;
            }
            if next.known.is_proved() || next.known.is_disproved() {
                continue;
            }
            let again = Next {
                mv: next.mv,
                delay: next.delay,
                key: self.pos.board_key_after(next.mv),
            };
            *next = self.child(again, or, remaining, squares, true);
            if !(next.known.is_proved() || next.known.is_disproved()) {
                break;
            }
        }
    }

    /// The largest attacker hand for which the (untainted) failure of the current node,
    /// with these children, holds ([`super::disproof`]); never less than `hand`.
    fn disproof_hand(&self, or: bool, children: &[Child], hand: Hand) -> Hand {
        let most = if or {
            children
                .iter()
                .fold(disproof::attacker_bound(&self.pos), |most, c| {
                    most.min(disproof::before_check(c.known.hand, c.mv, c.captured))
                })
        } else {
            // The refutation the node's length rests on: shown for any length if one is.
            let refutes = |c: &&Child| c.known.dn == 0 && !c.known.tainted;
            let refutation = children
                .iter()
                .filter(refutes)
                .find(|c| c.known.len == NO_LIMIT)
                .or_else(|| children.iter().find(refutes))
                .expect("an untainted failure at a defender's node has an untainted refutation");
            disproof::before_reply(&self.pos, refutation.known.hand, refutation.mv, hand)
        };
        if most.is_superset_of(hand) {
            most
        } else {
            hand
        }
    }

    /// The least attacker hand for which the proof of the current node, with these
    /// children, holds (see the module documentation).
    fn proof_hand(&self, or: bool, children: &[Child]) -> Hand {
        if or {
            // The shortest mating child, as `summarize` reports the length.
            let c = children
                .iter()
                .filter(|c| c.known.pn == 0)
                .min_by_key(|c| c.known.len)
                .expect("a proved attacker node has a proved child");
            hand_before(c.known.hand, c.mv, c.captured)
        } else {
            children
                .iter()
                .fold(withheld_interposers(&self.pos), |need, c| {
                    need.max(c.known.hand)
                })
        }
    }
}

/// The attacker hand a proof needs before its move `mv` (taking `captured`), when the
/// position after it needs `after`: the dropped piece more, the captured one less.
fn hand_before(after: Hand, mv: Move, captured: Option<PieceKind>) -> Hand {
    let mut need = after;
    if let Some(kind) = mv.drop_kind() {
        need.add(kind);
    } else if let Some(kind) = captured {
        if need.count(kind) > 0 {
            need.remove(kind);
        }
    }
    need
}

/// A node's numbers from its children, and which child to search next.
struct Summary {
    known: Known,
    best: usize,
    /// The best child's rival: the second smallest proof number at an OR node, the second
    /// smallest disproof number at an AND node.
    second: u32,
}

fn summarize(or: bool, children: &[Child], remaining: u16) -> Summary {
    let mut best = 0;
    let mut best_value = u32::MAX;
    let mut second = INF;
    let mut sum: u64 = 0;
    let mut len_min = u16::MAX;
    let mut len_max = 0u16;
    let mut all_tainted = true;
    let mut any_tainted = false;
    let mut all_unlimited = true;
    let mut any_unlimited = false;
    // The children come sorted by chain: after a chain's first open member, the rest of
    // its open members wait (settled ones always count).
    let mut chain = 0;
    let mut chain_open = false;
    for (i, c) in children.iter().enumerate() {
        let k = c.known;
        let settled = k.pn == 0 || k.dn == 0;
        if c.delay.chain != chain {
            chain = c.delay.chain;
            chain_open = false;
        }
        if !settled && chain != 0 {
            if chain_open {
                continue;
            }
            chain_open = true;
        }
        // At an OR node we minimise pn and add dn; at an AND node the reverse.
        let (value, other) = if or { (k.pn, k.dn) } else { (k.dn, k.pn) };
        sum += other as u64;
        if value < best_value {
            second = best_value.min(second);
            best_value = value;
            best = i;
        } else if value < second {
            second = value;
        }
        if k.pn == 0 {
            // The mate's length through this child: a futile reply counts two plies less.
            let len = k.len.saturating_add(1);
            let len = if !or && c.futile {
                len.saturating_sub(2)
            } else {
                len
            };
            len_min = len_min.min(len);
            len_max = len_max.max(len);
        }
        if k.dn == 0 {
            all_tainted &= k.tainted;
            any_tainted |= k.tainted;
            all_unlimited &= k.len == NO_LIMIT;
            any_unlimited |= k.len == NO_LIMIT && !k.tainted;
        }
    }
    let sum = if sum >= INF as u64 { INF } else { sum as u32 };
    let (pn, dn) = if or {
        (best_value, sum)
    } else {
        (sum, best_value)
    };
    let (pn, dn) = match (pn, dn) {
        (0, _) => (0, INF),
        (_, 0) => (INF, 0),
        // Not settled: keep both below infinity.
        (p, d) => (p.min(INF - 1), d.min(INF - 1)),
    };
    let len = if pn == 0 {
        if or {
            len_min
        } else {
            len_max
        }
    } else if dn == 0 {
        // A failure holds for any length when it did not rest on the limit: at an OR node
        // every child failed without it, at an AND node one did.
        let unlimited = if or { all_unlimited } else { any_unlimited };
        if unlimited {
            NO_LIMIT
        } else {
            remaining
        }
    } else {
        0
    };
    // A disproved OR node needed every child disproved (tainted if one was); a disproved
    // AND node needs one untainted refutation to be untainted.
    let tainted = dn == 0 && if or { any_tainted } else { all_tainted };
    Summary {
        known: Known {
            pn,
            dn,
            len,
            tainted,
            // Filled in by the caller.
            hand: Hand::EMPTY,
        },
        best,
        second,
    }
}

/// The threshold a child gets from its rival's number: a quarter above it, so the search
/// does not switch back and forth between two children of nearly equal promise.
fn epsilon_above(second: u32) -> u32 {
    let s = second as u64;
    (s + s / 4 + 1).min(INF as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(sfen: &str) -> Position {
        crate::attacks::init();
        sfen.parse().unwrap()
    }

    /// Solves `pos` on `table` and returns what the table then knows of `other`, a
    /// position with the same board.
    fn known_after_solving(pos: &Position, other: &Position, table: &mut Table) -> Known {
        let stop = AtomicBool::new(false);
        let mut progress = |_: u64, _: &Table| {};
        let mut search = Dfpn::new(pos.clone(), table, &stop, &mut progress);
        assert!(search.solve(NO_LIMIT).is_proved());
        search.pos = other.clone();
        search.known_here(NO_LIMIT)
    }

    #[test]
    fn a_proof_needs_no_piece_it_never_used() {
        // 8c1c mates next to the king: the gold in hand plays no part, so the proof
        // also holds for the attacker without it (the defender holding it instead).
        let with_gold = position("9/7Sk/1+R7/9/9/9/9/9/9 b Gr2b3g3s4n4l18p 1");
        let without = position("9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1");
        let mut table = Table::new(1);
        let known = known_after_solving(&with_gold, &without, &mut table);
        assert!(known.is_proved(), "{known:?}");
        assert!(known.hand.is_empty(), "{known:?}");
    }

    #[test]
    fn a_search_without_a_move_stores_only_its_proofs() {
        // The dragon to 1c mates at once (the silver guards 1a, 2a and 1c); with the gold
        // in hand, G*1c mates as well.
        let with_gold = position("9/7Sk/1+R7/9/9/9/9/9/9 b Gr2b3g3s4n4l18p 1");
        let without_gold = position("9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1");
        let dragon = Move::from_usi("8c1c").unwrap();
        let stop = AtomicBool::new(false);
        let mut progress = |_: u64, _: &Table| {};
        let mut table = Table::new(1);
        let mut search = Dfpn::new(without_gold, &mut table, &stop, &mut progress);
        // No other mate in one: not proved, and the failure, which holds only without
        // the dragon's move, is not stored for the position.
        let known = search.solve_without(&[], 1, dragon);
        assert!(!known.is_proved(), "{known:?}");
        assert!(!search.known_here(1).is_disproved());
        assert!(search.solve(1).is_proved());
        // With the gold the other mate is found, and stored.
        search.pos = with_gold;
        let known = search.solve_without(&[], 1, dragon);
        assert!(known.is_proved(), "{known:?}");
        assert!(search.known_here(1).is_proved());
    }

    #[test]
    fn a_failure_holds_for_pieces_that_add_no_check() {
        // White king on 9a behind its pawn on 9b: Black's pawn in hand has no check, nor
        // would a second pawn or a lance, but a knight (on 8c) would.
        let one_pawn = position("k8/p8/9/9/9/9/9/9/8K b P 1");
        let mut table = Table::new(1);
        let stop = AtomicBool::new(false);
        let mut progress = |_: u64, _: &Table| {};
        let mut search = Dfpn::new(one_pawn.clone(), &mut table, &stop, &mut progress);
        assert!(search.solve(NO_LIMIT).is_disproved());
        for (hand, holds) in [("2P", true), ("PL", true), ("PN", false)] {
            search.pos = position(&format!("k8/p8/9/9/9/9/9/9/8K b {hand} 1"));
            let known = search.known_here(NO_LIMIT);
            assert_eq!(known.is_disproved(), holds, "{hand}: {known:?}");
        }
    }

    #[test]
    fn a_proof_keeps_the_pieces_the_defender_could_interpose() {
        // Every mate in one is a rook or lance dropped on the king's file with a square
        // between: it mates only because the defender holds nothing to interpose. With a
        // pawn less for the attacker the defender would hold one, so the proof must not
        // answer for that hand.
        let all = position("9/6G1k/9/9/9/9/9/9/9 b 2R2B3G4S4N4L18P 1");
        let pawn_less = position("9/6G1k/9/9/9/9/9/9/9 b 2R2B3G4S4N4L17Pp 1");
        let mut table = Table::new(1);
        let known = known_after_solving(&all, &pawn_less, &mut table);
        assert!(!known.is_proved(), "{known:?}");
        assert_eq!(
            table
                .probe(all.board_key(), all.hand(Color::Black), NO_LIMIT, true)
                .map(|k| k.pn),
            Some(0)
        );
    }

    #[test]
    fn a_chain_counts_its_first_open_member_and_every_settled_one() {
        let child = |chain: u16, order: u8, pn: u32, dn: u32| Child {
            mv: Move::drop(
                PieceKind::Pawn,
                crate::types::Square::from_index(0).unwrap(),
            ),
            known: Known { pn, dn, ..UNKNOWN },
            remaining: NO_LIMIT,
            interposes: false,
            futile: false,
            captured: None,
            delay: Delay { chain, order },
        };
        // A king move (3), a chain of three drops (proved, open 4, open 6), a drop alone
        // in its chain (2).
        let children = [
            child(0, 0, 3, 1),
            child(5, 0, 0, INF),
            child(5, 1, 4, 2),
            child(5, 2, 6, 1),
            child(9, 0, 2, 3),
        ];
        let s = summarize(false, &children, NO_LIMIT);
        assert_eq!(s.known.pn, 3 + 4 + 2, "the third drop of the chain waits");
        assert_eq!(s.known.dn, 1);
        assert_eq!(s.best, 0, "the best (first, dn 1) is the king move");
        assert_eq!(s.second, 2, "the waiting drop's dn 1 is not a rival");
        // A disproved member counts wherever it stands in its chain.
        let mut refuted = children;
        refuted[3].known = Known {
            pn: INF,
            dn: 0,
            len: NO_LIMIT,
            ..UNKNOWN
        };
        assert!(summarize(false, &refuted, NO_LIMIT).known.is_disproved());
        // Every member proved: the node is proved.
        let mut all = children;
        for c in &mut all {
            c.known = proved_here(Hand::EMPTY);
        }
        assert!(summarize(false, &all, NO_LIMIT).known.is_proved());
    }
}
