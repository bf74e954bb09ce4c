//! The search through the library: `ThreadPool` with a reporter that collects every event.
//!
//! Every search here is checked for the same invariants, whatever the test is about: the
//! last event is the one `BestMove`, the answer is legal (or a correct `win`/`resign`),
//! the ponder move is legal after it, and every reported PV is a legal line. Tactical
//! claims (mate scores) are checked against a small brute-force mate finder built only on
//! the move generator, so a test cannot pass on a wrong claim that merely looks right.

mod common;

use hayate::position::EnteringKingRule;
use hayate::search::score::{self, UsiScore};
use hayate::search::{immediate_decision, Decision, Event, Limits, Progress, Settings};
use hayate::threads::ThreadPool;
use hayate::time::{Clock, TimeOptions};
use hayate::{Move, Position};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TSUME: &str = include_str!("data/tsume.sfen");

// ---------------------------------------------------------------------------------------
// Harness

fn init() {
    hayate::attacks::init();
    hayate::eval::init();
}

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("test sfen {sfen:?}: {e}"))
}

/// `sfen` followed by `moves` (USI), every move checked.
fn after(sfen: &str, moves: &str) -> Position {
    let mut p = pos(sfen);
    for m in moves.split_whitespace() {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("test move {m} in {p}: {e}"));
        p.play_unchecked(mv);
    }
    p
}

fn mv(p: &Position, text: &str) -> Move {
    p.parse_move(text)
        .unwrap_or_else(|e| panic!("test move {text} in {p}: {e}"))
}

/// A pool that is not shut down when a test panics: shutting down waits for the search
/// threads, and a search that ignores `stop` would turn a failing test into a hung one.
struct Pool(Option<ThreadPool>);

impl std::ops::Deref for Pool {
    type Target = ThreadPool;
    fn deref(&self) -> &ThreadPool {
        self.0.as_ref().expect("a pool")
    }
}

impl std::ops::DerefMut for Pool {
    fn deref_mut(&mut self) -> &mut ThreadPool {
        self.0.as_mut().expect("a pool")
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        if std::thread::panicking() {
            std::mem::forget(self.0.take());
        }
    }
}

fn pool(threads: usize) -> Pool {
    init();
    Pool(Some(ThreadPool::new(threads, 16).expect("a 16 MiB table")))
}

fn settings(limits: Limits) -> Settings {
    settings_with(limits, EnteringKingRule::CsaRule27)
}

fn settings_with(limits: Limits, rule: EnteringKingRule) -> Settings {
    Settings {
        limits: Limits {
            multipv: limits.multipv.max(1),
            ..limits
        },
        rule,
        time: TimeOptions::default(),
        max_moves_to_draw: 0,
        eval: Default::default(),
    }
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Events of one search, collected by the reporter.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<Event>>>);

impl Sink {
    fn reporter(&self) -> hayate::search::Reporter {
        let events = self.0.clone();
        Arc::new(move |e| events.lock().unwrap().push(e))
    }
    fn events(&self) -> Vec<Event> {
        self.0.lock().unwrap().clone()
    }
    fn has_bestmove(&self) -> bool {
        self.events()
            .iter()
            .any(|e| matches!(e, Event::BestMove { .. }))
    }
    /// Waits (polling) until the BestMove event arrives or `limit` passes.
    fn wait_bestmove(&self, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.has_bestmove() {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        None
    }
}

/// What one search reported.
#[derive(Debug)]
struct Outcome {
    progress: Vec<Progress>,
    decision: Decision,
    ponder: Option<Move>,
}

impl Outcome {
    /// The last reported line for the first PV.
    fn last(&self) -> &Progress {
        self.progress
            .iter()
            .rev()
            .find(|p| p.multipv == 1)
            .unwrap_or_else(|| panic!("no progress reported: {self:?}"))
    }
    fn score(&self) -> UsiScore {
        score::to_usi(self.last().score)
    }
    fn best(&self) -> Move {
        match self.decision {
            Decision::Move(m) => m,
            d => panic!("expected a move, got {d:?}"),
        }
    }
    /// Every score reported for the first PV, as USI shows it.
    fn scores(&self) -> Vec<UsiScore> {
        self.progress
            .iter()
            .filter(|p| p.multipv == 1)
            .map(|p| score::to_usi(p.score))
            .collect()
    }
}

/// Checks the invariants of a finished search's events in `root` and splits them up.
fn outcome(root: &Position, rule: EnteringKingRule, events: Vec<Event>) -> Outcome {
    let n_best = events
        .iter()
        .filter(|e| matches!(e, Event::BestMove { .. }))
        .count();
    assert_eq!(n_best, 1, "exactly one BestMove in {root}: {events:#?}");
    let Some(Event::BestMove { decision, ponder }) = events.last().cloned() else {
        panic!("the last event should be the BestMove in {root}: {events:#?}");
    };
    let progress: Vec<Progress> = events
        .iter()
        .filter_map(|e| match e {
            Event::Progress(p) => Some(p.clone()),
            _ => None,
        })
        .collect();
    for p in &progress {
        assert!(!p.pv.is_empty(), "empty pv reported in {root}: {p:?}");
        let mut q = root.clone();
        for (i, &m) in p.pv.iter().enumerate() {
            assert!(
                q.is_legal(m),
                "pv move {i} ({m}) is illegal in {q}; pv {:?} from {root}",
                texts(&p.pv)
            );
            q.play_unchecked(m);
        }
        assert!(p.depth >= 1 && p.multipv >= 1, "{p:?}");
    }
    // Node counts never go backwards.
    for w in progress.windows(2) {
        assert!(
            w[1].nodes >= w[0].nodes,
            "node count went down in {root}: {} then {}",
            w[0].nodes,
            w[1].nodes
        );
    }
    match decision {
        Decision::Move(m) => {
            assert!(root.is_legal(m), "bestmove {m} illegal in {root}");
            if let Some(p) = ponder {
                let mut q = root.clone();
                q.play_unchecked(m);
                assert!(q.is_legal(p), "ponder {p} illegal after {m} in {root}");
            }
        }
        Decision::Resign => assert!(
            root.legal_moves().is_empty(),
            "resigned with legal moves in {root}"
        ),
        Decision::Win => assert!(
            root.can_declare_win(rule),
            "declared without the right to in {root} under {rule:?}"
        ),
    }
    Outcome {
        progress,
        decision,
        ponder,
    }
}

/// Runs a finite search to its end (with a generous watchdog) and checks it.
fn run_with(pool: &mut ThreadPool, root: &Position, s: Settings) -> Outcome {
    let sink = Sink::default();
    let rule = s.rule;
    pool.start(root.clone(), s, sink.reporter());
    if sink.wait_bestmove(Duration::from_secs(30)).is_none() {
        pool.stop();
        let after_stop = sink.wait_bestmove(Duration::from_secs(2)).is_some();
        panic!("no BestMove within 30 s in {root} (answered once stopped: {after_stop})");
    }
    pool.wait();
    outcome(root, rule, sink.events())
}

fn run(pool: &mut ThreadPool, root: &Position, limits: Limits) -> Outcome {
    run_with(pool, root, settings(limits))
}

fn texts(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

// ---------------------------------------------------------------------------------------
// A brute-force mate finder on the move generator alone (no search code).

/// The side to move has no legal move: in shogi it has lost.
fn is_mated(p: &Position) -> bool {
    p.legal_moves().is_empty()
}

/// Every legal move of the side to move that leaves the opponent without a legal move.
fn mating_moves(p: &Position) -> Vec<Move> {
    let mut q = p.clone();
    let mut out = Vec::new();
    for &m in p.legal_moves().iter() {
        q.play_unchecked(m);
        if is_mated(&q) {
            out.push(m);
        }
        q.undo();
    }
    out
}

/// After `m`, every reply of the opponent allows a mate in one (or there is no reply).
fn forces_mate_in_3_with(p: &Position, m: Move) -> bool {
    let mut q = p.clone();
    q.play_unchecked(m);
    let replies = q.legal_moves();
    replies.iter().all(|&r| {
        q.play_unchecked(r);
        let ok = !mating_moves(&q).is_empty();
        q.undo();
        ok
    })
}

/// The side to move forces mate within 3 plies (full width: quiet moves too).
fn mate_within_3(p: &Position) -> bool {
    p.legal_moves().iter().any(|&m| forces_mate_in_3_with(p, m))
}

/// The side to move is mated within 2 plies whatever it does.
fn mated_within_2(p: &Position) -> bool {
    let mut q = p.clone();
    let moves = p.legal_moves();
    moves.iter().all(|&m| {
        q.play_unchecked(m);
        let ok = !mating_moves(&q).is_empty();
        q.undo();
        ok
    })
}

/// The side to move forces mate within `n` plies (odd). The last move must be a check;
/// earlier attacking moves may be quiet (checks are tried first).
fn forces_mate(p: &mut Position, n: u32) -> bool {
    let moves = p.legal_moves();
    let (checks, quiets): (Vec<Move>, Vec<Move>) =
        moves.iter().copied().partition(|&m| p.gives_check(m));
    let candidates = if n == 1 {
        checks
    } else {
        checks.into_iter().chain(quiets).collect()
    };
    candidates.into_iter().any(|m| {
        p.play_unchecked(m);
        let ok = every_reply_loses(p, n - 1);
        p.undo();
        ok
    })
}

/// The defender (to move) is mated now, or within `n` more plies whatever it plays.
fn every_reply_loses(p: &mut Position, n: u32) -> bool {
    common::every_reply_loses(p, n, forces_mate)
}

// ---------------------------------------------------------------------------------------
// Mates

/// Black drops a gold on 8b (or 9b) next to the king on 9a, protected by the gold on 8c:
/// the only mates are drops.
const DROP_MATE: &str = "k8/9/1G7/9/9/9/9/9/8K b G 1";
/// Tsume: the rook slides 8c1c along the rank: a board move, no promotion.
const BOARD_MATE: &str = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";
/// Tsume: only 5e2b+ mates; the unpromoted bishop on 2b leaves 2c open.
const PROMOTION_MATE: &str = "7G1/8k/9/9/4B4/9/9/9/9 b 2rb3g4s4n4l18p 1";

#[test]
fn mate_in_one_drop_board_move_and_promotion() {
    let mut pool = pool(1);
    // (position, what every mating move must be)
    type Case = (&'static str, fn(Move) -> bool, &'static str);
    let cases: [Case; 3] = [
        (DROP_MATE, |m| m.is_drop(), "a drop"),
        (
            BOARD_MATE,
            |m| !m.is_drop() && !m.is_promotion(),
            "a plain board move",
        ),
        (PROMOTION_MATE, |m| m.is_promotion(), "a promotion"),
    ];
    for (sfen, kind, what) in cases {
        let root = pos(sfen);
        // The position is what the test says it is.
        let mates = mating_moves(&root);
        assert!(!mates.is_empty(), "{sfen}: no mate in one at all");
        assert!(
            mates.iter().all(|&m| kind(m)),
            "{sfen}: every mate should be {what}: {:?}",
            texts(&mates)
        );
        let o = run(&mut pool, &root, depth(5));
        assert_eq!(o.score(), UsiScore::Mate(1), "{sfen}: {:?}", o.last());
        assert!(
            mates.contains(&o.best()),
            "{sfen}: played {} instead of a mate {:?}",
            o.best(),
            texts(&mates)
        );
        assert_eq!(o.last().pv, vec![o.best()], "{sfen}: pv of a mate in one");
    }
    // The promotion case: the unpromoted bishop move exists and does not mate.
    let root = pos(PROMOTION_MATE);
    let plain = mv(&root, "5e2b");
    assert!(!mating_moves(&root).contains(&plain));
}

#[test]
fn every_mate_in_one_of_the_tsume_file_is_found() {
    let mut pool = pool(1);
    let mut n = 0;
    for line in TSUME.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.get(1) != Some(&"1") {
            continue;
        }
        n += 1;
        let root = pos(fields[0]);
        let o = run(&mut pool, &root, depth(4));
        assert_eq!(
            o.score(),
            UsiScore::Mate(1),
            "{}: {:?}",
            fields[0],
            o.last()
        );
        let mut q = root.clone();
        q.play_unchecked(o.best());
        assert!(
            is_mated(&q),
            "{}: {} does not mate (file says {})",
            fields[0],
            o.best(),
            fields[2]
        );
    }
    assert!(n >= 10, "only {n} mate-in-one problems in the file");
}

/// Checks a claimed mate in 3 for the attacker from `root`: the PV, its checks, the final
/// mate, and (by brute force) that the first move forces it and nothing shorter exists.
fn check_mate_in_3(root: &Position, o: &Outcome, label: &str) {
    assert_eq!(o.score(), UsiScore::Mate(3), "{label}: {:?}", o.last());
    let pv = &o.last().pv;
    assert_eq!(pv.len(), 3, "{label}: pv {:?}", texts(pv));
    assert_eq!(
        o.best(),
        pv[0],
        "{label}: bestmove is not the pv's first move"
    );
    let mut q = root.clone();
    for (i, &m) in pv.iter().enumerate() {
        q.play_unchecked(m);
        if i % 2 == 0 {
            assert!(
                q.in_check(),
                "{label}: attacking move {m} of pv {:?} is not a check",
                texts(pv)
            );
        }
    }
    assert!(
        is_mated(&q),
        "{label}: pv {:?} does not end in mate",
        texts(pv)
    );
    assert!(
        mating_moves(root).is_empty(),
        "{label}: a mate in one exists, so mate 3 is not the shortest"
    );
    assert!(
        forces_mate_in_3_with(root, pv[0]),
        "{label}: after {} some defence escapes mate in one",
        pv[0]
    );
}

#[test]
fn mate_in_three_tsume_without_an_attacking_king() {
    let mut pool = pool(1);
    let (mut n, mut kingless) = (0, 0);
    for line in TSUME.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.get(1) != Some(&"3") {
            continue;
        }
        n += 1;
        let root = pos(fields[0]);
        if root.king_square(hayate::Color::Black).is_none() {
            kingless += 1;
        }
        let o = run(&mut pool, &root, depth(7));
        check_mate_in_3(&root, &o, fields[0]);
    }
    assert!(n >= 20, "only {n} mate-in-three problems in the file");
    assert!(
        kingless >= 20,
        "only {kingless} problems without a black king"
    );
}

#[test]
fn mate_in_five_claims_are_proved_by_brute_force() {
    let mut pool = pool(1);
    let (mut n, mut found) = (0, 0);
    for line in TSUME.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.get(1) != Some(&"5") {
            continue;
        }
        let Ok(root) = fields[0].parse::<Position>() else {
            continue;
        };
        n += 1;
        let o = run(
            &mut pool,
            &root,
            Limits {
                nodes: Some(300_000),
                ..Limits::default()
            },
        );
        let UsiScore::Mate(k) = o.score() else {
            continue;
        };
        assert!(k > 0 && k % 2 == 1, "{}: mate {k}", fields[0]);
        // A cook shorter than the published length is possible; a false claim is not.
        assert!(k <= 5, "{}: mate {k} claimed for a mate in 5", fields[0]);
        found += 1;
        let mut q = root.clone();
        q.play_unchecked(o.best());
        assert!(
            every_reply_loses(&mut q, k as u32 - 1),
            "{}: mate {k} claimed with {}, not forced (pv {:?})",
            fields[0],
            o.best(),
            texts(&o.last().pv)
        );
        // The PV itself ends in mate.
        let mut q = root.clone();
        for &m in &o.last().pv {
            q.play_unchecked(m);
        }
        assert_eq!(o.last().pv.len(), k as usize, "{}", fields[0]);
        assert!(is_mated(&q), "{}: pv {:?}", fields[0], texts(&o.last().pv));
    }
    assert!(n >= 50, "{n} problems");
    assert!(
        found * 10 >= n * 9,
        "only {found} of {n} mates in 5 found in 300k nodes"
    );
}

#[test]
fn mate_distances_survive_the_table_along_the_line() {
    // One pool, never cleared: each position after the next PV move is searched with the
    // entries the previous searches left, whose mate scores must be re-based on the ply.
    let mut pool = pool(1);
    let tsume = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
    let mut root = pos(tsume);
    let o = run(&mut pool, &root, depth(8));
    assert_eq!(o.score(), UsiScore::Mate(3));
    let pv = o.last().pv.clone();
    let expected = [UsiScore::Mate(-2), UsiScore::Mate(1)];
    for (i, want) in expected.iter().enumerate() {
        root.play_unchecked(pv[i]);
        let o = run(&mut pool, &root, depth(8));
        assert_eq!(
            &o.score(),
            want,
            "after {:?}: {:?}",
            texts(&pv[..=i]),
            o.last()
        );
    }
    // And back at the start, after all that: still mate 3, not a stale distance.
    let o = run(&mut pool, &pos(tsume), depth(8));
    assert_eq!(o.score(), UsiScore::Mate(3));
}

#[test]
fn the_side_being_mated_reports_a_negative_mate() {
    // White (to move) on 9a can only step to 8a, then G*8b mates.
    let root = pos("k8/9/1G7/9/9/9/9/9/8K w G 1");
    assert!(mated_within_2(&root));
    let mut pool = pool(1);
    let o = run(&mut pool, &root, depth(6));
    assert_eq!(o.score(), UsiScore::Mate(-2), "{:?}", o.last());
    let pv = &o.last().pv;
    assert_eq!(pv.len(), 2, "pv {:?}", texts(pv));
    let mut q = root.clone();
    q.play_unchecked(pv[0]);
    q.play_unchecked(pv[1]);
    assert!(is_mated(&q), "pv {:?} should end in mate", texts(pv));
    // The ponder move is the mating reply the engine expects.
    assert_eq!(o.ponder, Some(pv[1]));

    // The same from the loser's side after the attacker's mate-in-3 key move: mated in 2.
    let tsume = pos("9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1");
    let key = mv(&tsume, "1d2c");
    let mut defender = tsume.clone();
    defender.play_unchecked(key);
    assert!(mated_within_2(&defender));
    let o = run(&mut pool, &defender, depth(6));
    assert_eq!(o.score(), UsiScore::Mate(-2), "{:?}", o.last());
}

#[test]
fn hanging_rook_and_bishop_are_taken_at_low_depth() {
    let mut pool = pool(1);
    for (sfen, capture) in [
        // The white rook on 3e is en prise to the bishop on 5g.
        ("4k4/9/9/9/6r2/9/4B4/9/4K4 b - 1", "5g3e"),
        // The white bishop on 7f is en prise to the rook on 7h.
        ("4k4/9/9/9/9/2b6/9/2R6/4K4 b - 1", "7h7f"),
        // A full board: the white rook stranded on 5e, the bishop diagonal open.
        (
            "lnsgkgsnl/7b1/ppppppppp/9/4r4/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8h5e",
        ),
        // The same for White: Black's rook on 5e, White's bishop on 2b sees it.
        (
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/4R4/9/PPPPPPPPP/1B7/LNSGKGSNL w - 1",
            "2b5e",
        ),
    ] {
        let root = pos(sfen);
        for d in [3, 4] {
            let o = run(&mut pool, &root, depth(d));
            assert_eq!(
                o.best().to_string(),
                capture,
                "{sfen} at depth {d}: {:?}",
                o.last()
            );
            match o.score() {
                UsiScore::Cp(cp) => assert!(cp > 300, "{sfen}: a free piece scores {cp}"),
                UsiScore::Mate(_) => {}
            }
        }
    }
}

/// After 3d2c the king must go to 1a; there P*1b would mate, but a pawn-drop mate is
/// illegal (uchifuzume). No mate in 3 exists.
const UCHIFU_LURE: &str = "7n1/8k/9/6GP1/9/9/9/9/K8 b P 1";

#[test]
fn uchifuzume_is_never_played_nor_counted_as_a_mate() {
    let mut pool = pool(1);
    // The final position: the only "mate" is the illegal pawn drop.
    let root = after(UCHIFU_LURE, "3d2c 1b1a");
    assert!(root.parse_move("P*1b").is_err(), "P*1b must be illegal");
    assert!(mating_moves(&root).is_empty());
    for d in [1, 3, 6] {
        let o = run(&mut pool, &root, depth(d));
        assert_ne!(o.best().to_string(), "P*1b");
        assert!(
            !o.scores()
                .iter()
                .any(|s| matches!(s, UsiScore::Mate(n) if *n > 0)),
            "depth {d}: a mate claimed where only uchifuzume mates: {:?}",
            o.scores()
        );
    }

    // One ply earlier, White to move: K1a is forced, and does not lose to a mate in 1.
    let root = after(UCHIFU_LURE, "3d2c");
    assert_eq!(root.legal_moves().len(), 1);
    assert!(!mated_within_2(&root));
    let o = run(&mut pool, &root, depth(6));
    assert!(
        !o.scores().iter().any(|s| matches!(s, UsiScore::Mate(_))),
        "White is not mated: {:?}",
        o.scores()
    );

    // From the start: no mate in 3 exists (brute force), so none may be claimed.
    let root = pos(UCHIFU_LURE);
    assert!(!mate_within_3(&root));
    let o = run(&mut pool, &root, depth(8));
    assert!(
        !o.scores()
            .iter()
            .any(|s| matches!(s, UsiScore::Mate(n) if *n > 0 && *n <= 3)),
        "a mate in 3 claimed through uchifuzume: {:?}",
        o.progress.last()
    );
}

// ---------------------------------------------------------------------------------------
// Rules inside the search

/// Black's lone king against White's rook, bishop and gold in hand: lost on material.
const LOSING: &str = "4k4/9/9/9/9/9/9/9/4K4 b rbg 1";
/// The mirror: Black holds the rook, bishop and gold.
const WINNING: &str = "4k4/9/9/9/9/9/9/9/4K4 b RBG 1";
const SHUFFLE: &str = "5i4h 5a4b 4h5i 4b5a";

#[test]
fn a_lost_side_takes_a_repetition_as_a_draw() {
    let mut pool = pool(1);
    // Without history Black is simply lost on material.
    let fresh = pos(LOSING);
    let o = run(&mut pool, &fresh, depth(6));
    match o.score() {
        UsiScore::Cp(cp) => assert!(cp < -1000, "lost side scores {cp}"),
        UsiScore::Mate(n) => assert!(n < 0, "{n}"),
    }
    // After the king shuffle, 5i4h repeats the position after the first move: a draw.
    let root = after(LOSING, SHUFFLE);
    let repeat = mv(&root, "5i4h");
    for d in [2, 6] {
        pool.clear();
        let o = run(&mut pool, &root, depth(d));
        assert_eq!(o.best(), repeat, "depth {d}: {:?}", o.last());
        assert_eq!(o.score(), UsiScore::Cp(0), "depth {d}: {:?}", o.last());
    }
}

#[test]
fn a_winning_side_avoids_the_repetition() {
    let mut pool = pool(1);
    let root = after(WINNING, SHUFFLE);
    let repeat = mv(&root, "5i4h");
    let o = run(&mut pool, &root, depth(6));
    assert_ne!(o.best(), repeat, "{:?}", o.last());
    match o.score() {
        UsiScore::Cp(cp) => assert!(cp > 1000, "winning side scores {cp}"),
        UsiScore::Mate(n) => assert!(n > 0, "{n}"),
    }
}

/// A sharp attack, White to move, in which White's cheapest way out at depth 10 is a cycle
/// of drops and captures (S*2h 9h2h 3i2h+ 2i2h R*2i 2h2i G*2h 2i2h) back to the same board,
/// White now short of a rook and a gold in hand: an inferior repetition. YaneuraOu, which
/// scores such a repetition as nearly lost, finds about −1900 here at depth 14 (on its
/// NNUE evaluation); while hayate scored it a fixed −600, its search stopped there. The
/// test searches to depth 11: at depth 10 the score still swings by some 400 cp with the
/// tree's shape (−1267 and −863 under the two correction models, −1341 and −1414 at 11).
const INFERIOR_BAIL_OUT: &str =
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

#[test]
fn an_inferior_repetition_is_no_cheap_way_out() {
    let mut pool = pool(1);
    let mut s = settings(depth(11));
    s.eval = hayate::eval::Evaluator::named("internal", 16).unwrap().0;
    let o = run_with(&mut pool, &pos(INFERIOR_BAIL_OUT), s);
    match o.score() {
        UsiScore::Cp(cp) => assert!(cp < -900, "scores {cp}: {:?}", o.last()),
        UsiScore::Mate(n) => assert!(n < 0, "{n}"),
    }
}

/// Black can take a rook (5e5a+), but White then mates at once by G*1h (the pawn on 1g
/// guards the gold). A one-ply search sees White's reply only in the quiescence search,
/// where the static evaluation knows nothing of the mate unless the search looks for it.
const MATE_BEHIND_A_CAPTURE: &str = "ks2r4/9/9/9/4R4/9/8p/9/8K b g 1";

#[test]
fn the_quiescence_search_sees_a_mate_in_one() {
    let mut pool = pool(1);
    let root = pos(MATE_BEHIND_A_CAPTURE);
    let o = run(&mut pool, &root, depth(1));
    let mut after = root.clone();
    after.play_unchecked(o.best());
    assert!(
        after.in_check() || hayate::mate::one::mate_in_one(&mut after).is_none(),
        "{} lets White mate in one: {:?}",
        texts(&[o.best()])[0],
        o.last()
    );
}

/// Black (rook on 2i, king boxed in on 9i) is down a rook, bishop, gold and silver in
/// White's hand; it has been checking the king between 1a and 2a with its rook.
const CHECKER: &str = "8k/9/9/9/9/9/PP7/GS7/K6R1 b rbgs 1";
const CHECK_CYCLE: &str = "2i1i 1a2a 1i2i 2a1a";

#[test]
fn perpetual_check_is_avoided_by_the_checker() {
    let cycles = [CHECK_CYCLE; 3].join(" ");
    let root = after(CHECKER, &cycles);
    let check = mv(&root, "2i1i");
    // The rule itself: playing the check now is the fourth occurrence, lost for Black.
    let mut q = root.clone();
    q.play_unchecked(check);
    assert_eq!(
        q.sennichite(),
        Some(hayate::position::Repetition::Win),
        "the library's verdict for White after the fourth perpetual check"
    );
    let mut pool = pool(1);
    for d in [4, 8] {
        pool.clear();
        let o = run(&mut pool, &root, depth(d));
        assert_ne!(
            o.best(),
            check,
            "depth {d}: repeated the perpetual check {:?}",
            o.last()
        );
        // Had the repetition counted as a draw, a lost side would take it at 0.
        match o.score() {
            UsiScore::Cp(cp) => assert!(
                (-10_000..-100).contains(&cp),
                "depth {d}: a lost side should score clearly below 0 (and not a perpetual loss): {cp}"
            ),
            UsiScore::Mate(n) => panic!("depth {d}: unexpected mate {n}"),
        }
    }
}

/// Black (to move) on 5b with 10 pieces in camp worth 26 points plus 2 pawns in hand:
/// exactly 28 points, enough under CSA 27, not under CSA 24.
const BLACK_DECLARES: &str = "RB+P+P1+P+PBR/4K+P3/4+P4/9/9/9/9/9/4k4 b 2P 1";

#[test]
fn entering_king_declaration_depends_on_the_rule() {
    let root = pos(BLACK_DECLARES);
    let mut pool = pool(1);
    for (rule, declares) in [
        (EnteringKingRule::CsaRule27, true),
        (EnteringKingRule::CsaRule27H, true),
        (EnteringKingRule::CsaRule24, false),
        (EnteringKingRule::NoEnteringKing, false),
    ] {
        let o = run_with(&mut pool, &root, settings_with(depth(4), rule));
        if declares {
            assert_eq!(o.decision, Decision::Win, "{rule:?}");
            assert_eq!(immediate_decision(&root, rule), Some(Decision::Win));
        } else {
            assert!(
                matches!(o.decision, Decision::Move(_)),
                "{rule:?}: {:?}",
                o.decision
            );
        }
    }
}

/// Black's king on 5b with nine pieces in camp (25 points) and three pawns in hand: any
/// pawn drop into the camp makes ten pieces and 28 points, and White (boxed in on 5i,
/// nothing in hand) cannot stop the declaration that follows. No mate exists nearby.
const DECLARE_NEXT: &str = "RB+P+P1+P+PBR/4K4/4+P4/9/9/9/3ppp3/3sss3/3gkg3 b 3P 1";

/// Whether, after `m`, Black may declare whatever White replies.
fn forces_declaration_with(p: &Position, m: Move) -> bool {
    let mut q = p.clone();
    q.play_unchecked(m);
    let replies = q.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&r| {
            let mut z = q.clone();
            z.play_unchecked(r);
            z.can_declare_win(EnteringKingRule::CsaRule27)
        })
}

#[test]
fn a_declaration_restricted_by_searchmoves_is_scored_as_a_win() {
    let root = pos(DECLARE_NEXT);
    assert!(!root.can_declare_win(EnteringKingRule::CsaRule27));
    let drop = mv(&root, "P*4b");
    assert!(forces_declaration_with(&root, drop));
    let mut pool = pool(1);
    let o = run(
        &mut pool,
        &root,
        Limits {
            depth: Some(3),
            searchmoves: vec![drop],
            ..Limits::default()
        },
    );
    // Declaring at ply 2 counts as mating at ply 3.
    assert_eq!(o.score(), UsiScore::Mate(3), "{:?}", o.last());
    assert_eq!(o.best(), drop);
}

#[test]
fn a_declaration_reachable_in_the_tree_is_found_at_moderate_depth() {
    let root = pos(DECLARE_NEXT);
    let mut pool = pool(1);
    let o = run(&mut pool, &root, depth(6));
    assert_eq!(
        o.score(),
        UsiScore::Mate(3),
        "a declaration two plies away should score as a win by depth 6: {:?}",
        o.last()
    );
    assert!(
        forces_declaration_with(&root, o.best()),
        "{} does not force the declaration",
        o.best()
    );
}

#[test]
fn try_rule_plays_the_winning_king_move() {
    let root = pos("k8/4K4/9/9/9/9/9/9/9 b - 1");
    let mut pool = pool(1);
    let o = run_with(
        &mut pool,
        &root,
        settings_with(depth(4), EnteringKingRule::TryRule),
    );
    assert_eq!(o.best().to_string(), "5b5a");
}

#[test]
fn no_legal_move_resigns() {
    let mut pool = pool(1);
    for sfen in [
        "4k4/9/9/9/9/9/4p4/4g4/4K4 b P 1",
        "4k4/4G4/4P4/9/9/9/9/9/4K4 w p 1",
    ] {
        let root = pos(sfen);
        let o = run(&mut pool, &root, depth(5));
        assert_eq!(o.decision, Decision::Resign, "{sfen}");
        assert!(o.progress.is_empty(), "{sfen}: {:?}", o.progress);
        let o = run(
            &mut pool,
            &root,
            Limits {
                movetime: Some(50),
                ..Limits::default()
            },
        );
        assert_eq!(o.decision, Decision::Resign, "{sfen}");
    }
}

// ---------------------------------------------------------------------------------------
// Limits, MultiPV, searchmoves, ponder, infinite

#[test]
fn depth_limit_is_reached_and_not_exceeded() {
    let mut pool = pool(1);
    let root = Position::startpos();
    for d in [1, 2, 5] {
        let o = run(&mut pool, &root, depth(d));
        let max = o.progress.iter().map(|p| p.depth).max().unwrap();
        assert_eq!(max, d, "go depth {d}");
        assert_eq!(o.last().depth, d);
        assert_eq!(
            o.last().pv[0],
            o.best(),
            "the last pv starts with the answer"
        );
    }
}

#[test]
fn a_node_is_a_move_made_as_other_engines_count() {
    // Stockfish and YaneuraOu count a node for each move made: not the root, not a null
    // move, and not a position searched again. At depth 1 from the start every one of
    // its 30 moves (perft 1) is searched once, the first with the full window and the
    // others with a null window and, when they beat it, again; and no reply captures
    // or promotes, so the quiescence search makes no move. Counting node entries would
    // give at least 31.
    let mut pool = pool(1);
    let root = Position::startpos();
    assert_eq!(root.legal_moves().len(), 30);
    let o = run(&mut pool, &root, depth(1));
    assert_eq!(o.last().depth, 1);
    assert_eq!(o.last().nodes, 30, "go depth 1 from the start");
}

#[test]
fn nodes_limit_stops_close_to_the_limit() {
    let mut pool = pool(1);
    let root =
        pos("l2g4l/4g1k2/2n1sp1p1/p1pps1p1p/1p5P1/P1PPSPP1P/1PS1G2R1/1K1G5/LN6L w RBNPbnp 1");
    for limit in [5_000u64, 20_000] {
        let o = run(
            &mut pool,
            &root,
            Limits {
                nodes: Some(limit),
                ..Limits::default()
            },
        );
        let nodes = o.progress.last().unwrap().nodes;
        assert!(nodes <= 2 * limit, "nodes {limit}: reported {nodes} nodes");
    }
}

#[test]
fn movetime_is_respected() {
    let mut pool = pool(1);
    let root = Position::startpos();
    let start = Instant::now();
    let o = run(
        &mut pool,
        &root,
        Limits {
            movetime: Some(300),
            ..Limits::default()
        },
    );
    let took = start.elapsed();
    // At least the soft stop (0.7 x movetime), at most the hard one plus slack.
    assert!(
        took >= Duration::from_millis(200) && took <= Duration::from_millis(1500),
        "movetime 300 took {took:?}"
    );
    assert!(
        o.last().depth >= 3,
        "only depth {} in 300 ms",
        o.last().depth
    );
}

#[test]
fn pure_byoyomi_clock_answers_before_the_byoyomi_ends() {
    let mut pool = pool(1);
    let root = Position::startpos();
    let start = Instant::now();
    let o = run(
        &mut pool,
        &root,
        Limits {
            clock: Some(Clock {
                time_left: 0,
                byoyomi: 1000,
                increment: 0,
            }),
            ..Limits::default()
        },
    );
    let took = start.elapsed();
    assert!(
        took < Duration::from_millis(1000),
        "byoyomi 1000 took {took:?}"
    );
    // Time left unused in pure byoyomi is lost: the search runs to its deadline (the
    // byoyomi less the default margin, here half of it) however settled it is.
    assert!(
        took >= Duration::from_millis(500),
        "byoyomi 1000 used only {took:?}"
    );
    assert!(o.last().depth >= 2);
}

#[test]
fn multipv_lines_are_distinct_and_ordered() {
    let mut pool = pool(1);
    let root = Position::startpos();
    let o = run(
        &mut pool,
        &root,
        Limits {
            depth: Some(5),
            multipv: 3,
            ..Limits::default()
        },
    );
    let final_depth = o.progress.iter().map(|p| p.depth).max().unwrap();
    assert_eq!(final_depth, 5);
    // The last report of each line.
    let mut lines: Vec<&Progress> = Vec::new();
    for k in 1..=3 {
        let l = o
            .progress
            .iter()
            .rev()
            .find(|p| p.multipv == k)
            .unwrap_or_else(|| panic!("no multipv {k} line: {:#?}", o.progress));
        assert_eq!(l.depth, 5, "multipv {k} last line at depth {}", l.depth);
        lines.push(l);
    }
    let firsts: Vec<Move> = lines.iter().map(|l| l.pv[0]).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "first moves {:?}",
        texts(&firsts)
    );
    assert!(
        lines[0].score >= lines[1].score && lines[1].score >= lines[2].score,
        "scores {} {} {}",
        lines[0].score,
        lines[1].score,
        lines[2].score
    );
    assert_eq!(o.best(), firsts[0]);
    assert!(o.progress.iter().all(|p| p.multipv <= 3));
}

#[test]
fn multipv_larger_than_the_number_of_moves() {
    // White's king on 9a has two moves (8a and 9b; the gold covers 8b): MultiPV 5 gives
    // two lines.
    let root = pos("k8/9/2G6/9/9/9/9/9/8K w - 1");
    let n = root.legal_moves().len();
    assert_eq!(n, 2, "legal moves");
    let mut pool = pool(1);
    let o = run(
        &mut pool,
        &root,
        Limits {
            depth: Some(4),
            multipv: 5,
            ..Limits::default()
        },
    );
    let max_line = o.progress.iter().map(|p| p.multipv).max().unwrap();
    assert_eq!(max_line, n, "lines reported");
}

#[test]
fn searchmoves_restricts_the_answer() {
    let mut pool = pool(1);
    let root = Position::startpos();
    let allowed = vec![mv(&root, "9g9f"), mv(&root, "1g1f")];
    let o = run(
        &mut pool,
        &root,
        Limits {
            depth: Some(5),
            searchmoves: allowed.clone(),
            ..Limits::default()
        },
    );
    assert!(allowed.contains(&o.best()), "played {}", o.best());
    for p in &o.progress {
        assert!(
            allowed.contains(&p.pv[0]),
            "pv outside searchmoves: {:?}",
            texts(&p.pv)
        );
    }
    // A capture of a free rook, excluded by searchmoves, is not played.
    let root = pos("4k4/9/9/9/6r2/9/4B4/9/4K4 b - 1");
    let only = vec![mv(&root, "5i4h")];
    let o = run(
        &mut pool,
        &root,
        Limits {
            depth: Some(4),
            searchmoves: only.clone(),
            ..Limits::default()
        },
    );
    assert_eq!(o.best(), only[0]);
}

#[test]
fn infinite_waits_for_stop_even_after_its_depth() {
    let mut pool = pool(1);
    let root = pos(DROP_MATE);
    let sink = Sink::default();
    // A mate in one, found at once: still no answer before stop.
    pool.start(
        root.clone(),
        settings(Limits {
            infinite: true,
            depth: Some(3),
            ..Limits::default()
        }),
        sink.reporter(),
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(!sink.has_bestmove(), "infinite answered before stop");
    assert!(pool.is_searching());
    let t = Instant::now();
    pool.stop();
    sink.wait_bestmove(Duration::from_secs(5))
        .expect("an answer after stop");
    pool.wait();
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert!(!pool.is_searching());
    let o = outcome(&root, EnteringKingRule::CsaRule27, sink.events());
    assert!(mating_moves(&root).contains(&o.best()));
}

#[test]
fn ponder_answers_only_after_ponderhit_or_stop() {
    let mut pool = pool(1);
    let root = Position::startpos();
    for end_with_stop in [false, true] {
        let sink = Sink::default();
        pool.start(
            root.clone(),
            settings(Limits {
                ponder: true,
                clock: Some(Clock {
                    time_left: 0,
                    byoyomi: 600,
                    increment: 0,
                }),
                ..Limits::default()
            }),
            sink.reporter(),
        );
        // Longer than the whole byoyomi: pondering has no clock.
        std::thread::sleep(Duration::from_millis(700));
        assert!(!sink.has_bestmove(), "answered while pondering");
        let t = Instant::now();
        if end_with_stop {
            pool.stop();
        } else {
            pool.ponderhit();
        }
        let waited = sink
            .wait_bestmove(Duration::from_secs(5))
            .unwrap_or_else(|| panic!("no answer after ponderhit/stop"));
        // After ponderhit the move is due within the byoyomi less its margin (300 ms).
        assert!(
            waited < Duration::from_millis(if end_with_stop { 500 } else { 800 }),
            "stop={end_with_stop}: answered {:?} after",
            t.elapsed()
        );
        pool.wait();
        outcome(&root, EnteringKingRule::CsaRule27, sink.events());
    }
}

#[test]
fn a_finished_ponder_search_still_waits_for_ponderhit() {
    // Depth 3 of a mate in one is done in microseconds; the answer must still wait.
    let mut pool = pool(1);
    let root = pos(DROP_MATE);
    let sink = Sink::default();
    pool.start(
        root.clone(),
        settings(Limits {
            ponder: true,
            depth: Some(3),
            ..Limits::default()
        }),
        sink.reporter(),
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        !sink.has_bestmove(),
        "a ponder search answered before ponderhit"
    );
    assert!(pool.is_searching());
    pool.ponderhit();
    let waited = sink
        .wait_bestmove(Duration::from_secs(5))
        .expect("an answer after ponderhit");
    assert!(
        waited < Duration::from_millis(300),
        "{waited:?} after ponderhit"
    );
    pool.wait();
    let o = outcome(&root, EnteringKingRule::CsaRule27, sink.events());
    assert!(mating_moves(&root).contains(&o.best()));
}

// ---------------------------------------------------------------------------------------
// Lazy SMP, determinism, clear

#[test]
fn three_threads_search_to_depth_eight() {
    let mut pool = pool(3);
    assert_eq!(pool.thread_count(), 3);
    let root = pos("ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1");
    let o = run(&mut pool, &root, depth(8));
    assert!(o.last().depth >= 8, "{:?}", o.last());
    // A mate in 3 is found the same with helpers.
    let tsume = pos("9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1");
    let o = run(&mut pool, &tsume, depth(7));
    check_mate_in_3(&tsume, &o, "3 threads");
}

#[test]
fn stop_ends_an_infinite_search_with_three_threads() {
    let mut pool = pool(3);
    let root = Position::startpos();
    let sink = Sink::default();
    pool.start(
        root.clone(),
        settings(Limits {
            infinite: true,
            ..Limits::default()
        }),
        sink.reporter(),
    );
    std::thread::sleep(Duration::from_millis(300));
    assert!(!sink.has_bestmove());
    let t = Instant::now();
    pool.stop();
    let waited = sink
        .wait_bestmove(Duration::from_secs(5))
        .expect("an answer after stop");
    pool.wait();
    assert!(
        waited < Duration::from_millis(500),
        "stop took {:?}",
        t.elapsed()
    );
    let o = outcome(&root, EnteringKingRule::CsaRule27, sink.events());
    assert!(o.last().depth >= 2);
}

#[test]
fn set_threads_changes_the_count_and_the_pool_still_searches() {
    let mut pool = pool(1);
    let root = Position::startpos();
    for n in [4, 2, 1, 3, 0] {
        pool.set_threads(n);
        assert_eq!(pool.thread_count(), n.max(1));
        let o = run(&mut pool, &root, depth(4));
        assert_eq!(o.last().depth, 4);
    }
    pool.set_hash(1).expect("a 1 MiB table");
    let o = run(&mut pool, &root, depth(6));
    assert_eq!(o.last().depth, 6);
}

/// Nodes and move of a one-thread search of `root` to depth `d`.
fn signature(pool: &mut ThreadPool, root: &Position, d: i32) -> (u64, Move) {
    let o = run(pool, root, depth(d));
    (o.progress.last().unwrap().nodes, o.best())
}

#[test]
fn one_thread_is_deterministic_and_clear_forgets_everything() {
    let root = pos("lR6l/4gk3/3psg1p1/p1p1ppp1p/3n3P1/P1PPP1P1P/1PSGSP3/1KG6/LN5NL b BSNbrp 1");
    let other = Position::startpos();
    let fresh = signature(&mut pool(1), &root, 8);
    // Another fresh pool: the same.
    assert_eq!(signature(&mut pool(1), &root, 8), fresh);
    // A used pool, cleared: the same again.
    let mut p = pool(1);
    signature(&mut p, &other, 7);
    signature(&mut p, &root, 8);
    p.clear();
    // A second clear with no search since the first (isready, then usinewgame) does
    // nothing, and the pool is still as new.
    p.clear();
    assert_eq!(
        signature(&mut p, &root, 8),
        fresh,
        "clear should forget the table and history"
    );
    // Without clear, the table and statistics of the search just done change the tree.
    let (warm_nodes, _) = signature(&mut p, &root, 8);
    assert_ne!(warm_nodes, fresh.0, "a used pool should search differently");
}
