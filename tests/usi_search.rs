//! The real search through the `hayate` binary over pipes: what a GUI sees.
//!
//! Every `info` line a search prints is parsed and its PV replayed with the library; every
//! `bestmove` is checked to be legal (or a correct `win`/`resign`), with a legal ponder
//! move. The tests take one lock each, so timing assertions never compete with another
//! test's search for the two cores of the CI machine.

mod common;

use common::{EngineProcess, BIN, TIMEOUT};
use hayate::position::EnteringKingRule;
use hayate::{Move, Position};
use std::process::Command;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

const DROP_MATE: &str = "k8/9/1G7/9/9/9/9/9/8K b G 1";
const BOARD_MATE: &str = "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1";
const PROMOTION_MATE: &str = "7G1/8k/9/9/4B4/9/9/9/9 b 2rb3g4s4n4l18p 1";
/// Tsume, mate in 3 (1d2c 1b1a 2c2b); no black king, White holds every other piece.
const TSUME3: &str = "9/8k/9/7RG/9/9/9/9/9 b r2b3g4s4n4l18p 1";
/// White (to move) can only step to 8a, then G*8b mates.
const MATED_IN_2: &str = "k8/9/1G7/9/9/9/9/9/8K w G 1";
/// Black's lone king against White's rook, bishop and gold in hand.
const LOSING: &str = "4k4/9/9/9/9/9/9/9/4K4 b rbg 1";
/// Black, down a rook, bishop, gold and silver, has been checking with its rook.
const CHECKER: &str = "8k/9/9/9/9/9/PP7/GS7/K6R1 b rbgs 1";
const CHECK_CYCLE: &str = "2i1i 1a2a 1i2i 2a1a";
/// Black to move may declare under CSA 27 (exactly 28 points), not under CSA 24.
const BLACK_DECLARES: &str = "RB+P+P1+P+PBR/4K+P3/4+P4/9/9/9/9/9/4k4 b 2P 1";
/// Black to move, no legal move.
const BLACK_MATED: &str = "4k4/9/9/9/9/9/4p4/4g4/4K4 b P 1";
/// A middle game from the bench positions.
const MIDDLE: &str =
    "l2g4l/4g1k2/2n1sp1p1/p1pps1p1p/1p5P1/P1PPSPP1P/1PS1G2R1/1K1G5/LN6L w RBNPbnp 1";

// ---------------------------------------------------------------------------------------
// Parsing and checking what the engine prints

#[derive(Clone, Debug, PartialEq)]
enum Score {
    Cp(i32),
    Mate(i32),
}

/// One `info` line of a search (not `info string`).
#[derive(Clone, Debug)]
struct Info {
    depth: u32,
    seldepth: u32,
    multipv: u32,
    score: Score,
    nodes: u64,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> Option<Info> {
    if !line.starts_with("info ") || line.starts_with("info string") {
        return None;
    }
    let w: Vec<&str> = line.split(' ').collect();
    let field = |name: &str| -> Option<&str> {
        let i = w.iter().position(|&t| t == name)?;
        w.get(i + 1).copied()
    };
    let score = match field("score")? {
        "cp" => Score::Cp(w[w.iter().position(|&t| t == "score")? + 2].parse().ok()?),
        "mate" => Score::Mate(w[w.iter().position(|&t| t == "score")? + 2].parse().ok()?),
        _ => return None,
    };
    let pv = match w.iter().position(|&t| t == "pv") {
        Some(i) => w[i + 1..].iter().map(|s| s.to_string()).collect(),
        None => Vec::new(),
    };
    Some(Info {
        depth: field("depth")?.parse().ok()?,
        seldepth: field("seldepth")?.parse().ok()?,
        multipv: field("multipv").map_or(Some(1), |v| v.parse().ok())?,
        score,
        nodes: field("nodes")?.parse().ok()?,
        pv,
    })
}

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("test sfen {sfen:?}: {e}"))
}

fn after(start: &Position, moves: &str) -> Position {
    let mut p = start.clone();
    for m in moves.split_whitespace() {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("test move {m} in {p}: {e}"));
        p.play_unchecked(mv);
    }
    p
}

fn play(p: &mut Position, text: &str) -> Result<Move, String> {
    let mv = p.parse_move(text).map_err(|e| format!("{text}: {e}"))?;
    p.play_unchecked(mv);
    Ok(mv)
}

fn mating_moves(p: &Position) -> Vec<String> {
    let mut out = Vec::new();
    for &m in p.legal_moves().iter() {
        let mut q = p.clone();
        q.play_unchecked(m);
        if q.legal_moves().is_empty() {
            out.push(m.to_string());
        }
    }
    out
}

/// What one `go` printed.
#[derive(Debug)]
struct Reply {
    infos: Vec<Info>,
    /// The move (or `win`/`resign`).
    best: String,
    ponder: Option<String>,
    /// From sending `go` (or from `since` where the test chose) to the bestmove line.
    took: Duration,
}

impl Reply {
    fn last(&self) -> &Info {
        self.infos
            .iter()
            .rev()
            .find(|i| i.multipv == 1)
            .unwrap_or_else(|| panic!("no info line: {self:?}"))
    }
}

struct Engine {
    p: EngineProcess,
    /// Lines of the current search read before its bestmove was awaited.
    pending: Vec<String>,
}

/// Chooses the hand-made linear evaluation (the default is the built-in net), for tests
/// whose figures are that evaluation's.
const LINEAR: &str = "setoption name EvalFile value linear";

impl Engine {
    /// A started engine after `usi` and `isready`, with `options` set first.
    fn start(options: &[&str]) -> Engine {
        let mut p = EngineProcess::start("hayate");
        p.send("usi");
        p.expect_line(|l| l == "usiok", "usiok");
        for o in options {
            p.send(o);
        }
        let mut e = Engine {
            p,
            pending: Vec::new(),
        };
        e.sync();
        e
    }

    /// `isready` round trip; returns what came before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.p.send("isready");
        let (_, before) = self.p.expect_line(|l| l == "readyok", "readyok");
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "stray bestmove: {before:#?}"
        );
        before
    }

    fn fail(&mut self, msg: String) -> ! {
        let ctx = self.p.context();
        panic!("{msg}{ctx}")
    }

    /// Reads up to and including the bestmove; checks everything against `root`.
    fn await_reply(&mut self, root: &Position, rule: EnteringKingRule, since: Instant) -> Reply {
        let (line, before) = self
            .p
            .expect_line(|l| l.starts_with("bestmove"), "bestmove");
        let took = since.elapsed();
        let mut lines = std::mem::take(&mut self.pending);
        lines.extend(before);
        let mut infos = Vec::new();
        for l in &lines {
            if l.starts_with("info string") {
                continue;
            }
            let Some(info) = parse_info(l) else {
                self.fail(format!("unparsable line {l:?}"));
            };
            let mut q = root.clone();
            for m in &info.pv {
                if let Err(e) = play(&mut q, m) {
                    self.fail(format!("{l:?}: pv move illegal in {q}: {e}"));
                }
            }
            if info.pv.is_empty() {
                self.fail(format!("{l:?}: no pv"));
            }
            infos.push(info);
        }
        let w: Vec<&str> = line.split(' ').collect();
        if !(w.len() == 2 || (w.len() == 4 && w[2] == "ponder")) {
            self.fail(format!("malformed {line:?}"));
        }
        let best = w[1].to_string();
        let ponder = w.get(3).map(|s| s.to_string());
        match best.as_str() {
            "resign" => {
                if !root.legal_moves().is_empty() {
                    self.fail(format!("resigned with legal moves in {root}"));
                }
            }
            "win" => {
                if !root.can_declare_win(rule) {
                    self.fail(format!(
                        "declared in {root} without the right under {rule:?}"
                    ));
                }
            }
            m => {
                let mut q = root.clone();
                if let Err(e) = play(&mut q, m) {
                    self.fail(format!("{line:?} illegal in {root}: {e}"));
                }
                if let Some(p) = &ponder {
                    if let Err(e) = play(&mut q, p) {
                        self.fail(format!("{line:?}: ponder illegal: {e}"));
                    }
                }
            }
        }
        Reply {
            infos,
            best,
            ponder,
            took,
        }
    }

    /// `position <setup>` then `go <args>`; the whole reply, checked, then an `isready`
    /// round trip that shows there is no second bestmove. (`isready` clears the table.)
    fn go_rule(&mut self, setup: &str, go: &str, rule: EnteringKingRule) -> Reply {
        let r = self.go_keep(setup, go, rule);
        self.sync();
        r
    }

    /// `position <setup>` then `go <args>`, with no `isready` after.
    fn go_keep(&mut self, setup: &str, go: &str, rule: EnteringKingRule) -> Reply {
        let root = position_of(setup);
        self.p.send(&format!("position {setup}"));
        let t = Instant::now();
        self.p.send(&format!("go {go}"));
        self.pending.clear();
        self.await_reply(&root, rule, t)
    }

    fn go(&mut self, setup: &str, go: &str) -> Reply {
        self.go_rule(setup, go, EnteringKingRule::CsaRule27)
    }

    /// `position`, `go <args>` for a search that must not answer by itself; returns the
    /// root. Waits `wait` and checks that nothing answered.
    fn go_open(&mut self, setup: &str, go: &str, wait: Duration) -> Position {
        let root = position_of(setup);
        self.p.send(&format!("position {setup}"));
        self.p.send(&format!("go {go}"));
        let lines = self.p.collect_for(wait);
        if let Some(l) = lines.iter().find(|l| l.starts_with("bestmove")) {
            self.fail(format!("go {go} answered {l:?} before being told to"));
        }
        self.pending = lines;
        root
    }

    fn finish(mut self) {
        let status = self.p.quit();
        if status.code() != Some(0) {
            self.fail(format!("exit status {status}"));
        }
        let err = String::from_utf8_lossy(&self.p.stderr.lock().unwrap()).into_owned();
        assert!(!err.contains("panicked"), "the engine panicked: {err}");
    }
}

/// The position a `position` command's arguments describe.
fn position_of(setup: &str) -> Position {
    let (base, moves) = match setup.find(" moves ") {
        Some(i) => (&setup[..i], &setup[i + 7..]),
        None => (setup, ""),
    };
    let start = if base == "startpos" {
        Position::startpos()
    } else {
        pos(base.strip_prefix("sfen ").expect("startpos or sfen"))
    };
    after(&start, moves)
}

// ---------------------------------------------------------------------------------------
// Tactics and rules, as a GUI sees them

#[test]
fn mate_in_one_is_reported_and_played() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    for sfen in [DROP_MATE, BOARD_MATE, PROMOTION_MATE] {
        let root = pos(sfen);
        let r = e.go(&format!("sfen {sfen}"), "depth 5");
        assert_eq!(r.last().score, Score::Mate(1), "{sfen}: {:?}", r.last());
        assert!(
            mating_moves(&root).contains(&r.best),
            "{sfen}: bestmove {} does not mate",
            r.best
        );
    }
    e.finish();
}

#[test]
fn mate_in_three_without_an_attacking_king() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let root = pos(TSUME3);
    let r = e.go(&format!("sfen {TSUME3}"), "depth 8");
    let last = r.last().clone();
    assert_eq!(last.score, Score::Mate(3), "{last:?}");
    assert_eq!(last.pv.len(), 3, "{last:?}");
    assert_eq!(r.best, last.pv[0]);
    let mut q = root.clone();
    for (i, m) in last.pv.iter().enumerate() {
        play(&mut q, m).unwrap();
        if i % 2 == 0 {
            assert!(q.in_check(), "pv move {m} is not a check: {last:?}");
        }
    }
    assert!(
        q.legal_moves().is_empty(),
        "pv does not end in mate: {last:?}"
    );
    // The engine answers as soon as the mate is confirmed: well before depth 8's worth.
    assert!(r.took < Duration::from_secs(2), "{:?}", r.took);
    e.finish();
}

#[test]
fn the_mated_side_reports_a_negative_mate() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let r = e.go(&format!("sfen {MATED_IN_2}"), "depth 6");
    assert_eq!(r.last().score, Score::Mate(-2), "{:?}", r.last());
    assert_eq!(r.best, "9a8a");
    assert_eq!(r.ponder.as_deref(), Some("G*8b"));
    e.finish();
}

#[test]
fn hanging_pieces_are_captured() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let r = e.go("sfen 4k4/9/9/9/6r2/9/4B4/9/4K4 b - 1", "depth 3");
    assert_eq!(r.best, "5g3e");
    let r = e.go(
        "sfen lnsgkgsnl/7b1/ppppppppp/9/4r4/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
        "depth 3",
    );
    assert_eq!(r.best, "8h5e");
    e.finish();
}

#[test]
fn uchifuzume_is_not_played() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    // Only P*1b would mate, and a pawn-drop mate is illegal.
    let setup = "sfen 7n1/8k/9/6GP1/9/9/9/9/K8 b P 1 moves 3d2c 1b1a";
    assert!(mating_moves(&position_of(setup)).is_empty());
    for d in [1, 4] {
        let r = e.go(setup, &format!("depth {d}"));
        assert_ne!(r.best, "P*1b");
        assert!(
            !r.infos
                .iter()
                .any(|i| matches!(i.score, Score::Mate(n) if n > 0)),
            "a mate claimed: {:?}",
            r.infos
        );
    }
    // Its simplest form: White on 1a, knight on 2a, Black's gold on 2c guarding 1b.
    let r = e.go("sfen 7nk/9/7G1/9/9/9/9/9/K8 b P 1", "depth 5");
    assert_ne!(r.best, "P*1b");
    assert!(!r.infos.iter().any(|i| i.score == Score::Mate(1)));
    e.finish();
}

#[test]
fn repetition_from_the_position_history_is_a_draw() {
    let _g = serial();
    // The linear evaluation, whose material scores the thresholds below are set for.
    let mut e = Engine::start(&[LINEAR]);
    // Black is lost on material...
    let r = e.go(&format!("sfen {LOSING}"), "depth 6");
    match r.last().score {
        Score::Cp(cp) => assert!(cp < -1000, "{cp}"),
        Score::Mate(n) => assert!(n < 0),
    }
    // ...and after a king shuffle, 5i4h repeats a position of the game: a draw it takes.
    let r = e.go(
        &format!("sfen {LOSING} moves 5i4h 5a4b 4h5i 4b5a"),
        "depth 6",
    );
    assert_eq!(r.best, "5i4h", "{:?}", r.last());
    assert_eq!(r.last().score, Score::Cp(0), "{:?}", r.last());

    // From the start position, after the same shuffle twice, a PV that repeats scores 0
    // when searched only into the repetition.
    let r = e.go(
        "startpos moves 5i4h 5a4b 4h5i 4b5a 5i4h 5a4b 4h5i 4b5a",
        "depth 6 searchmoves 5i4h",
    );
    assert_eq!(r.best, "5i4h");
    assert_eq!(r.last().score, Score::Cp(0), "{:?}", r.last());
    e.finish();
}

#[test]
fn perpetual_check_is_not_repeated_by_the_checker() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let setup = format!("sfen {CHECKER} moves {CHECK_CYCLE} {CHECK_CYCLE} {CHECK_CYCLE}");
    // The library agrees: 2i1i now would be the fourth occurrence, all checks.
    let mut q = position_of(&setup);
    play(&mut q, "2i1i").unwrap();
    assert_eq!(q.sennichite(), Some(hayate::position::Repetition::Win));
    let r = e.go(&setup, "depth 8");
    assert_ne!(r.best, "2i1i", "{:?}", r.last());
    match r.last().score {
        Score::Cp(cp) => assert!((-10_000..-100).contains(&cp), "{cp}"),
        Score::Mate(n) => panic!("unexpected mate {n}"),
    }
    e.finish();
}

#[test]
fn entering_king_declaration_and_the_rule_option() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let setup = format!("sfen {BLACK_DECLARES}");
    let r = e.go(&setup, "btime 0 wtime 0 byoyomi 1000");
    assert_eq!(r.best, "win");
    assert!(
        r.took < Duration::from_millis(300),
        "a declaration took {:?}",
        r.took
    );
    e.p.send("setoption name EnteringKingRule value NoEnteringKing");
    let r = e.go_rule(&setup, "depth 4", EnteringKingRule::NoEnteringKing);
    assert_ne!(r.best, "win");
    assert_ne!(r.best, "resign");
    e.p.send("setoption name EnteringKingRule value CSARule24");
    let r = e.go_rule(&setup, "depth 4", EnteringKingRule::CsaRule24);
    assert_ne!(
        r.best, "win",
        "28 points are not enough under the 24-point rule"
    );
    e.finish();
}

#[test]
fn max_moves_to_draw_is_seen_by_the_search() {
    let _g = serial();
    // Black is lost on material, but the game is drawn after two more moves (ply 255 now,
    // drawn when the ply number exceeds 256), and White cannot mate in that time.
    let mut e = Engine::start(&[LINEAR, "setoption name MaxMovesToDraw value 256"]);
    let setup = "sfen 4k4/9/9/9/9/9/9/9/4K4 b rbg 255";
    let r = e.go(setup, "depth 6");
    match r.last().score {
        Score::Cp(cp) => assert!(cp.abs() <= 100, "a draw two plies away scores {cp}"),
        Score::Mate(n) => panic!("mate {n}"),
    }
    // Without the option the same position is lost.
    let mut e2 = Engine::start(&[LINEAR]);
    let r = e2.go(setup, "depth 6");
    assert!(matches!(r.last().score, Score::Cp(cp) if cp < -1000));
    e.finish();
    e2.finish();
}

#[test]
fn no_legal_move_resigns() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    for go in ["depth 5", "btime 0 wtime 0 byoyomi 1000", "nodes 1000"] {
        let r = e.go(&format!("sfen {BLACK_MATED}"), go);
        assert_eq!(r.best, "resign", "go {go}");
    }
    e.finish();
}

// ---------------------------------------------------------------------------------------
// Protocol behaviour with the real search

#[test]
fn infinite_then_stop_answers_at_once() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    for setup in [
        "startpos".to_string(),
        format!("sfen {MIDDLE}"),
        format!("sfen {DROP_MATE}"),
    ] {
        let root = e.go_open(&setup, "infinite", Duration::from_millis(400));
        let t = Instant::now();
        e.p.send("stop");
        let r = e.await_reply(&root, EnteringKingRule::CsaRule27, t);
        assert!(
            r.took < Duration::from_millis(500),
            "{setup}: bestmove {:?} after stop",
            r.took
        );
        println!("{setup}: bestmove {:?} after stop", r.took);
        assert!(!r.infos.is_empty());
        e.sync();
    }
    // A declaration under go infinite still waits for stop.
    let root = e.go_open(
        &format!("sfen {BLACK_DECLARES}"),
        "infinite",
        Duration::from_millis(300),
    );
    e.p.send("stop");
    let r = e.await_reply(&root, EnteringKingRule::CsaRule27, Instant::now());
    assert_eq!(r.best, "win");
    e.finish();
}

#[test]
fn ponder_then_ponderhit_answers_within_the_clock() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let setup = "startpos moves 7g7f 3c3d";
    // Pondering has no clock: 1.2 s is longer than the whole byoyomi.
    let root = e.go_open(
        setup,
        "ponder btime 0 wtime 0 byoyomi 1000",
        Duration::from_millis(1200),
    );
    let t = Instant::now();
    e.p.send("ponderhit");
    let r = e.await_reply(&root, EnteringKingRule::CsaRule27, t);
    println!("bestmove {:?} after ponderhit", r.took);
    // The byoyomi (less its margin) counts from ponderhit.
    assert!(
        r.took < Duration::from_millis(1000),
        "{:?} after ponderhit",
        r.took
    );
    e.sync();

    // Ponder, then stop: the answer comes at once.
    let root = e.go_open(
        setup,
        "ponder btime 0 wtime 0 byoyomi 1000",
        Duration::from_millis(300),
    );
    let t = Instant::now();
    e.p.send("stop");
    let r = e.await_reply(&root, EnteringKingRule::CsaRule27, t);
    assert!(
        r.took < Duration::from_millis(500),
        "{:?} after stop",
        r.took
    );
    e.sync();
    e.finish();
}

#[test]
fn multipv_three_gives_three_distinct_ordered_lines() {
    let _g = serial();
    let mut e = Engine::start(&["setoption name MultiPV value 3"]);
    let r = e.go("startpos", "depth 5");
    let final_depth = r.infos.iter().map(|i| i.depth).max().unwrap();
    assert_eq!(final_depth, 5);
    let lines: Vec<Info> = (1..=3)
        .map(|k| {
            r.infos
                .iter()
                .rev()
                .find(|i| i.multipv == k)
                .cloned()
                .unwrap_or_else(|| panic!("no multipv {k}: {:#?}", r.infos))
        })
        .collect();
    for l in &lines {
        assert_eq!(l.depth, 5, "{l:?}");
    }
    let firsts: Vec<&str> = lines.iter().map(|l| l.pv[0].as_str()).collect();
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    let cp = |s: &Score| match s {
        Score::Cp(c) => *c,
        Score::Mate(n) => panic!("mate {n} at the start position"),
    };
    let scores: Vec<i32> = lines.iter().map(|l| cp(&l.score)).collect();
    assert!(
        scores[0] >= scores[1] && scores[1] >= scores[2],
        "{scores:?}"
    );
    assert_eq!(r.best, firsts[0]);
    assert!(r.infos.iter().all(|i| (1..=3).contains(&i.multipv)));
    e.finish();
}

#[test]
fn searchmoves_restricts_the_bestmove() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let r = e.go("startpos", "depth 5 searchmoves 9g9f 1g1f");
    assert!(r.best == "9g9f" || r.best == "1g1f", "{}", r.best);
    assert!(r
        .infos
        .iter()
        .all(|i| i.pv[0] == "9g9f" || i.pv[0] == "1g1f"));
    // The free rook capture is not among the allowed moves.
    let r = e.go(
        "sfen 4k4/9/9/9/6r2/9/4B4/9/4K4 b - 1",
        "depth 4 searchmoves 5i4h 5i6h",
    );
    assert!(r.best == "5i4h" || r.best == "5i6h", "{}", r.best);
    e.finish();
}

#[test]
fn depth_one_and_nodes_limits() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let r = e.go("startpos", "depth 1");
    assert!(!r.infos.is_empty());
    assert!(r.infos.iter().all(|i| i.depth == 1), "{:?}", r.infos);
    assert_eq!(r.best, r.last().pv[0]);

    for limit in [5_000u64, 50_000] {
        let r = e.go(&format!("sfen {MIDDLE}"), &format!("nodes {limit}"));
        let nodes = r.last().nodes;
        assert!(nodes <= 2 * limit, "nodes {limit}: reported {nodes}");
        // Stopped inside an iteration, the search still reports its final count and the
        // line of the move it plays.
        assert!(nodes >= limit, "nodes {limit}: last reported {nodes}");
        assert_eq!(r.best, r.last().pv[0]);
        // Its selective depth is the line's own (the quiescence search below the last
        // full ply reaches past the nominal depth), not the nominal depth repeated.
        let last = r.last();
        assert!(
            last.seldepth > last.depth,
            "nodes {limit}: seldepth {} at depth {}",
            last.seldepth,
            last.depth
        );
        assert!(
            r.took < Duration::from_secs(3),
            "nodes {limit} took {:?}",
            r.took
        );
    }
    e.finish();
}

#[test]
fn time_controls_are_kept() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    // A movetime is used in full (see `movetime_searches_the_whole_time`).
    let r = e.go("startpos", "movetime 300");
    println!("movetime 300: {:?}", r.took);
    assert!(
        r.took >= Duration::from_millis(290) && r.took <= Duration::from_millis(1500),
        "movetime 300 took {:?}",
        r.took
    );
    let r = e.go("startpos moves 2g2f 8c8d", "btime 0 wtime 0 byoyomi 1000");
    println!("byoyomi 1000: {:?}", r.took);
    assert!(
        r.took < Duration::from_millis(1000),
        "byoyomi 1000 took {:?}",
        r.took
    );
    // Sudden death with one second left: a move within an eighth of it or so.
    let r = e.go(&format!("sfen {MIDDLE}"), "btime 1000 wtime 1000 byoyomi 0");
    println!("1 s sudden death: {:?}", r.took);
    assert!(
        r.took < Duration::from_millis(300),
        "1 s left took {:?}: {:?}",
        r.took,
        r.infos.last()
    );
    // The same with binc/winc absent and only btime/wtime.
    let r = e.go(&format!("sfen {MIDDLE}"), "btime 1000 wtime 1000");
    assert!(
        r.took < Duration::from_millis(300),
        "1 s left took {:?}",
        r.took
    );
    e.finish();
}

/// Positions where no mate is near, so that nothing justifies answering early.
const NO_MATE_NEAR: [&str; 9] = [
    "startpos",
    "startpos moves 2g2f 3c3d 5i6h 5a5b 2f2e 2b3c 2h2f 8c8d 6h7h 3a3b 2f5f 7a6b 3i3h 9c9d 6i6h 7c7d",
    "startpos moves 7g7f 7a7b 5i5h 3c3d 3i4h 5a5b 8h7g 2b7g+ 8i7g 3a2b",
    "sfen ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "sfen ln1g1g1nl/1ks2r3/1pppp1bpp/p3spp2/9/P1P1SP1PP/1P1PP1P2/1BK1GR3/LNSG3NL b - 1",
    "sfen lR6l/4gk3/3psg1p1/p1p1ppp1p/3n3P1/P1PPP1P1P/1PSGSP3/1KG6/LN5NL b BSNbrp 1",
    "sfen lnsgkgsnl/7b1/ppppppppp/9/4r4/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1",
];

#[test]
fn movetime_searches_the_whole_time() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let mut early = Vec::new();
    for setup in NO_MATE_NEAR {
        // `go` ends with isready, which clears the table: every search starts fresh.
        let r = e.go(setup, "movetime 300");
        let mate = matches!(r.last().score, Score::Mate(_));
        if r.took < Duration::from_millis(285) && !mate {
            early.push(format!("{setup}: {:?} ({:?})", r.took, r.last()));
        }
    }
    assert!(
        early.is_empty(),
        "movetime 300 answered early:\n{}",
        early.join("\n")
    );
    e.finish();
}

#[test]
fn threads_and_hash_options_work() {
    let _g = serial();
    let mut e = Engine::start(&["setoption name Threads value 4"]);
    let r = e.go(&format!("sfen {MIDDLE}"), "depth 7");
    assert_eq!(r.last().depth, 7);
    let root = e.go_open("startpos", "infinite", Duration::from_millis(300));
    let t = Instant::now();
    e.p.send("stop");
    let r = e.await_reply(&root, EnteringKingRule::CsaRule27, t);
    assert!(
        r.took < Duration::from_millis(500),
        "4 threads: {:?} after stop",
        r.took
    );
    let r = e.go("startpos", "movetime 200");
    assert!(r.took < Duration::from_millis(1500), "{:?}", r.took);
    // A tiny table, and back to one thread.
    e.p.send("setoption name USI_Hash value 1");
    e.p.send("setoption name Threads value 1");
    e.sync();
    let r = e.go(&format!("sfen {MIDDLE}"), "depth 8");
    assert_eq!(r.last().depth, 8);
    let r = e.go(&format!("sfen {TSUME3}"), "depth 7");
    assert_eq!(r.last().score, Score::Mate(3));
    e.finish();
}

#[test]
fn isready_during_a_search_answers_at_once() {
    let _g = serial();
    let mut e = Engine::start(&[]);
    let root = e.go_open(
        &format!("sfen {MIDDLE}"),
        "infinite",
        Duration::from_millis(200),
    );
    let t = Instant::now();
    e.p.send("isready");
    let (_, before) = e.p.expect_line(|l| l == "readyok", "readyok");
    let took = t.elapsed();
    assert!(took < Duration::from_millis(300), "readyok after {took:?}");
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "isready ended the search: {before:#?}"
    );
    // Still searching: nothing answers until stop.
    let lines = e.p.collect_for(Duration::from_millis(200));
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    let t = Instant::now();
    e.p.send("stop");
    e.await_reply(&root, EnteringKingRule::CsaRule27, t);
    e.finish();
}

#[test]
fn usinewgame_and_isready_clear_the_table_and_history() {
    let _g = serial();
    let setup = format!("sfen {MIDDLE}");
    let rule = EnteringKingRule::CsaRule27;
    let fresh = {
        let mut e = Engine::start(&[]);
        let r = e.go(&setup, "depth 8");
        e.finish();
        (r.last().nodes, r.best)
    };
    let mut e = Engine::start(&[]);
    e.go_keep("startpos moves 7g7f", "depth 7", rule);
    e.go_keep(&setup, "depth 8", rule);
    // Searched again without clearing, the table and move statistics of the searches
    // before change the tree: the node count shows whether state was kept.
    let warm = e.go_keep(&setup, "depth 8", rule);
    assert_ne!(
        warm.last().nodes,
        fresh.0,
        "a search on a used table should differ from a fresh one"
    );
    e.p.send("usinewgame");
    let r = e.go_keep(&setup, "depth 8", rule);
    assert_eq!(
        (r.last().nodes, r.best.clone()),
        fresh,
        "after usinewgame the search should repeat a fresh engine's exactly"
    );
    // The same for isready (a new game is coming); `isready` sent the moment bestmove
    // arrives is covered by `isready_right_after_bestmove_clears_the_table`.
    e.go_keep("startpos moves 2g2f", "depth 7", rule);
    std::thread::sleep(Duration::from_millis(100));
    e.sync();
    let r = e.go_keep(&setup, "depth 8", rule);
    assert_eq!((r.last().nodes, r.best.clone()), fresh, "after isready");
    e.finish();
}

#[test]
fn isready_right_after_bestmove_clears_the_table() {
    let _g = serial();
    let setup = format!("sfen {MIDDLE}");
    let rule = EnteringKingRule::CsaRule27;
    let fresh = {
        let mut e = Engine::start(&[]);
        let r = e.go(&setup, "depth 8");
        e.finish();
        r.last().nodes
    };
    let mut e = Engine::start(&[]);
    let mut warm = 0;
    for _ in 0..20 {
        e.go_keep(&setup, "depth 8", rule);
        // isready the moment bestmove arrives, as a GUI may send it.
        e.sync();
        let r = e.go_keep(&setup, "depth 8", rule);
        if r.last().nodes != fresh {
            warm += 1;
        }
    }
    assert_eq!(
        warm, 0,
        "{warm} of 20 searches after isready used the previous search's table \
         ({fresh} nodes when fresh)"
    );
    e.finish();
}

#[test]
fn eval_prints_the_term_table() {
    let _g = serial();
    // The term table is the linear evaluation's (a net has no terms).
    let mut e = Engine::start(&[LINEAR]);
    e.p.send("position startpos moves 7g7f");
    e.p.send("eval");
    let lines = e.sync();
    assert!(lines.len() >= 5, "{lines:#?}");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(header, ["term", "black", "white", "net"], "{lines:#?}");
    let material: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("material"))
        .unwrap_or_else(|| panic!("no material line: {lines:#?}"))
        .split_whitespace()
        .collect();
    assert_eq!(material[1], material[2], "equal material: {material:?}");
    assert_eq!(material[3], "0");
    // Every term line is `name black white net` with net = black - white.
    for l in &lines[1..] {
        if l.starts_with("total") {
            continue;
        }
        let w: Vec<&str> = l.split_whitespace().collect();
        let n: Vec<i64> = w[w.len() - 3..]
            .iter()
            .map(|x| x.parse().unwrap())
            .collect();
        assert_eq!(n[0] - n[1], n[2], "{l:?}");
    }
    let black_total: i64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("total for black: "))
        .expect("a black total")
        .parse()
        .unwrap();
    let side_total: i64 = lines
        .last()
        .unwrap()
        .strip_prefix("total for the side to move (w): ")
        .unwrap_or_else(|| panic!("last line: {lines:#?}"))
        .parse()
        .unwrap();
    assert_eq!(side_total, -black_total, "{lines:#?}");
    // eval does not start a search.
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    e.finish();
}

/// `hayate bench 6` from the command line: its last line and its node count.
fn bench_nodes() -> u64 {
    bench_run(&["bench", "6"]).0
}

/// Runs `hayate <args>` (a bench), checks its last line is `<n> nodes <n> nps` after 12
/// position lines, and returns the nodes and the whole output.
fn bench_run(args: &[&str]) -> (u64, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("run hayate bench");
    assert!(out.status.success(), "bench failed: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let last = text.lines().last().unwrap_or_default().to_string();
    let w: Vec<&str> = last.split(' ').collect();
    let ok = w.len() == 4
        && w[1] == "nodes"
        && w[3] == "nps"
        && w[0].chars().all(|c| c.is_ascii_digit())
        && w[2].chars().all(|c| c.is_ascii_digit())
        && !w[0].is_empty()
        && !w[2].is_empty();
    assert!(
        ok,
        "last line should be '<n> nodes <n> nps', got {last:?} in:\n{text}"
    );
    let positions = text.lines().filter(|l| l.starts_with("position ")).count();
    assert_eq!(positions, 12, "{text}");
    (w[0].parse().unwrap(), text)
}

#[test]
fn bench_from_the_command_line_is_deterministic() {
    let _g = serial();
    let a = bench_nodes();
    let b = bench_nodes();
    assert!(a > 1000, "{a} nodes");
    assert_eq!(a, b, "two runs of bench 6 with one thread");
}

#[test]
fn bench_with_a_movetime_searches_each_position_for_that_time() {
    let _g = serial();
    let (nodes, text) = bench_run(&["bench", "--movetime", "100", "--threads", "2"]);
    assert!(nodes > 1000, "{text}");
    assert!(text.contains("movetime 100 ms threads 2 time "), "{text}");
    // Each position takes its 100 ms and not much more (a fixed depth would end most of
    // them sooner); position 11 is a mate in one, played as soon as it is proved.
    let times: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("position "))
        .map(|line| {
            line.split_whitespace()
                .skip_while(|w| *w != "nodes")
                .nth(1)
                .and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("no time in {line:?}"))
        })
        .collect();
    assert!(times.iter().all(|&ms| ms < 2000), "{text}");
    assert!(times.iter().filter(|&&ms| ms >= 95).count() >= 11, "{text}");
}

// ---------------------------------------------------------------------------------------
// A game at 100 ms byoyomi

#[test]
fn sixty_plies_between_two_engines_at_byoyomi_100() {
    let _g = serial();
    let mut engines = [Engine::start(&[]), Engine::start(&[])];
    for e in engines.iter_mut() {
        e.p.send("usinewgame");
    }
    let rule = EnteringKingRule::CsaRule27;
    let mut root = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let mut max = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut ended = None;
    while moves.len() < 60 {
        if root.sennichite().is_some() {
            ended = Some("sennichite");
            break;
        }
        let e = &mut engines[moves.len() % 2];
        let setup = if moves.is_empty() {
            "startpos".to_string()
        } else {
            format!("startpos moves {}", moves.join(" "))
        };
        e.p.send(&format!("position {setup}"));
        let t = Instant::now();
        e.p.send("go btime 0 wtime 0 byoyomi 100");
        let r = e.await_reply(&root, rule, t);
        max = max.max(r.took);
        total += r.took;
        assert!(
            r.took < Duration::from_millis(400),
            "ply {}: {:?} for a 100 ms byoyomi",
            moves.len() + 1,
            r.took
        );
        match r.best.as_str() {
            "resign" => {
                ended = Some("resign");
                break;
            }
            "win" => {
                ended = Some("win");
                break;
            }
            m => {
                play(&mut root, m).unwrap();
                moves.push(m.to_string());
            }
        }
    }
    println!(
        "{} plies ({}), max reply {max:?}, mean {:?}",
        moves.len(),
        ended.unwrap_or("ply limit"),
        total / moves.len().max(1) as u32
    );
    assert!(
        moves.len() >= 20,
        "the game ended after {} plies: {ended:?}",
        moves.len()
    );
    for e in engines {
        e.finish();
    }
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let _g = serial();
    let mut e = Engine::start(&["setoption name Threads value 2"]);
    e.go_open("startpos", "infinite", Duration::from_millis(200));
    let t = Instant::now();
    let status = e.p.quit();
    assert_eq!(status.code(), Some(0));
    assert!(t.elapsed() < TIMEOUT / 10, "quit took {:?}", t.elapsed());
}
