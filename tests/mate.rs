//! The mate solver (`hayate::mate`, `go mate`, `hayate mate`) on the public tsume problems
//! of tests/data/tsume.sfen.
//!
//! Every line the solver returns is checked here with the move generator alone: each move
//! legal (uchifuzume included), each attacker move a check, the defender without a move
//! at the end. That the defence shown is not the only one is checked two ways: short
//! problems against a brute-force search written here, longer ones by solving every other
//! defence along the line again on a fresh table.

mod common;

use common::{EngineProcess, BIN};
use hayate::mate::{self, tsume_length, Limits, Outcome, Table};
use hayate::{Move, Position};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

struct Problem {
    line: usize,
    sfen: String,
    listed: usize,
}

/// The problems of the file that parse (one line of it is an invalid position).
fn problems() -> Vec<Problem> {
    let text = include_str!("data/tsume.sfen");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|(i, l)| {
            let mut f = l.split('\t');
            let sfen = f.next()?.to_string();
            let listed = f.next()?.trim().parse().ok()?;
            sfen.parse::<Position>().ok()?;
            Some(Problem {
                line: i + 1,
                sfen,
                listed,
            })
        })
        .collect()
}

fn pos(sfen: &str) -> Position {
    hayate::attacks::init();
    sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn solve(p: &Position, table: &mut Table, limits: Limits) -> mate::Report {
    table.clear();
    mate::solve(p, table, limits, &AtomicBool::new(false), |_| {})
}

fn seconds(s: u64) -> Limits {
    Limits {
        time: Some(Duration::from_secs(s)),
        nodes: None,
        shortest: true,
        shorter_time: None,
    }
}

/// Checks a mating line with the move generator only; returns the final position.
fn check_line(root: &Position, line: &[String]) -> Result<Position, String> {
    if line.len().is_multiple_of(2) {
        return Err(format!("{} plies: a mate has an odd length", line.len()));
    }
    let mut p = root.clone();
    for (i, text) in line.iter().enumerate() {
        let mv = p
            .parse_move(text)
            .map_err(|e| format!("ply {}: {text} illegal: {e}", i + 1))?;
        p.play_unchecked(mv);
        if i % 2 == 0 && !p.in_check() {
            return Err(format!("ply {}: {text} does not check", i + 1));
        }
    }
    if !p.legal_moves().is_empty() {
        return Err("the defender still has a move at the end".to_string());
    }
    Ok(p)
}

fn texts(line: &[Move]) -> Vec<String> {
    line.iter().map(|m| m.to_string()).collect()
}

/// Brute force, tsume rules: the attacker (to move) mates within `n` plies checking at
/// every move, whatever the defender plays.
fn forced_mate(p: &mut Position, n: usize) -> bool {
    if n == 0 {
        return false;
    }
    let moves = p.legal_moves();
    moves.iter().any(|&m| {
        p.play_unchecked(m);
        let ok = p.in_check() && every_reply_mated(p, n - 1);
        p.undo();
        ok
    })
}

/// The defender (to move) has no move, or is mated within `n` plies after each one.
fn every_reply_mated(p: &mut Position, n: usize) -> bool {
    common::every_reply_loses(p, n as u32, |q, m| forced_mate(q, m as usize))
}

// ---------------------------------------------------------------------------------------

#[test]
fn every_problem_of_up_to_eleven_plies_is_solved_with_a_valid_line() {
    let mut table = Table::new(32);
    let mut solved = 0;
    for pr in problems().iter().filter(|p| p.listed <= 11) {
        let root = pos(&pr.sfen);
        let r = solve(&root, &mut table, seconds(20));
        let Outcome::Mate(line) = &r.outcome else {
            panic!(
                "line {}: {:?} for a listed mate in {}",
                pr.line, r.outcome, pr.listed
            );
        };
        let counted = tsume_length(&root, line);
        let line = texts(line);
        if let Err(e) = check_line(&root, &line) {
            panic!("line {}: {e}: {}", pr.line, line.join(" "));
        }
        // The length stated is the one proved: never shorter than the line shown, by the
        // tsume count (futile interpositions played out count two plies less each).
        assert!(
            r.plies.is_some_and(|p| p as usize >= counted),
            "line {}: {:?} plies stated for a line of {counted}",
            pr.line,
            r.plies,
        );
        // The search for shorter mates reaches the listed length (several listed lengths
        // are longer than the problems' true shortest mates).
        assert!(
            counted <= pr.listed,
            "line {}: {counted} plies for a listed {}: {}",
            pr.line,
            pr.listed,
            line.join(" ")
        );
        solved += 1;
    }
    assert!(solved >= 200, "only {solved} problems");
}

#[test]
fn short_mates_agree_with_brute_force() {
    let mut table = Table::new(16);
    for pr in problems().iter().filter(|p| p.listed <= 3) {
        let root = pos(&pr.sfen);
        let r = solve(&root, &mut table, seconds(20));
        let Outcome::Mate(line) = &r.outcome else {
            panic!("line {}: {:?}", pr.line, r.outcome);
        };
        let n = line.len();
        let mut p = root.clone();
        // The first move forces mate within the length shown, whatever the defence.
        p.play_unchecked(line[0]);
        assert!(
            every_reply_mated(&mut p, n - 1),
            "line {}: {} does not force mate in {n}",
            pr.line,
            line[0]
        );
        p.undo();
        // A line shown as shortest really is: no mate two plies shorter.
        if r.shortest && n >= 3 {
            assert!(
                !forced_mate(&mut p, n - 2),
                "line {}: a shorter mate exists",
                pr.line
            );
        }
        assert!(forced_mate(&mut p, n));
    }
}

/// Every other defence along the line shown is mated too (solved again on a fresh table).
fn check_other_defences(root: &Position, line: &[Move], table: &mut Table, label: &str) {
    let mut p = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        if i % 2 == 1 {
            for &other in p.legal_moves().iter().filter(|&&m| m != mv) {
                let mut q = p.clone();
                q.play_unchecked(other);
                let r = solve(&q, table, seconds(20));
                let Outcome::Mate(rest) = &r.outcome else {
                    panic!(
                        "{label}: ply {}: the defence {other} escapes: {:?}",
                        i + 1,
                        r.outcome
                    );
                };
                if let Err(e) = check_line(&q, &texts(rest)) {
                    panic!("{label}: after the defence {other}: {e}");
                }
            }
        }
        p.play_unchecked(mv);
    }
}

#[test]
fn every_defence_along_nine_and_eleven_ply_lines_is_mated() {
    let mut table = Table::new(32);
    let mut other = Table::new(32);
    for pr in problems().iter().filter(|p| (9..=11).contains(&p.listed)) {
        let root = pos(&pr.sfen);
        let r = solve(&root, &mut table, seconds(20));
        let Outcome::Mate(line) = &r.outcome else {
            panic!("line {}: {:?}", pr.line, r.outcome);
        };
        check_other_defences(&root, line, &mut other, &format!("line {}", pr.line));
    }
}

#[test]
fn the_31_and_33_ply_problems_are_solved_within_ten_seconds() {
    let mut table = Table::new(256);
    let long: Vec<Problem> = problems().into_iter().filter(|p| p.listed > 11).collect();
    assert_eq!(long.len(), 2);
    for pr in &long {
        let root = pos(&pr.sfen);
        let r = solve(&root, &mut table, seconds(10));
        let Outcome::Mate(line) = &r.outcome else {
            panic!("line {}: {:?} after {:?}", pr.line, r.outcome, r.elapsed);
        };
        let line = texts(line);
        if let Err(e) = check_line(&root, &line) {
            panic!("line {}: {e}: {}", pr.line, line.join(" "));
        }
        assert!(
            r.elapsed <= Duration::from_millis(10_500),
            "{:?}",
            r.elapsed
        );
    }
}

/// The published long problems of tests/data/tsume-long.sfen: (line, sfen, listed plies,
/// listed solution).
fn long_problems() -> Vec<(usize, String, usize, Vec<String>)> {
    include_str!("data/tsume-long.sfen")
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            let solution = f
                .get(2)
                .map_or(vec![], |s| s.split_whitespace().map(String::from).collect());
            (
                i + 1,
                f[0].to_string(),
                f[1].trim().parse().unwrap(),
                solution,
            )
        })
        .collect()
}

#[test]
fn the_long_problems_file_holds_valid_positions_and_lines() {
    let problems = long_problems();
    assert_eq!(problems.len(), 5);
    for (line, sfen, listed, solution) in &problems {
        let root = pos(sfen);
        if !solution.is_empty() {
            assert_eq!(solution.len(), *listed, "line {line}");
            if let Err(e) = check_line(&root, solution) {
                panic!("line {line}: {e}");
            }
        }
    }
}

#[test]
fn the_29_ply_problem_with_white_attacking_is_solved_in_its_length() {
    let (_, sfen, listed, _) = long_problems().swap_remove(0);
    assert_eq!(listed, 29);
    let root = pos(&sfen);
    let mut table = Table::new(256);
    let r = solve(&root, &mut table, seconds(20));
    let Outcome::Mate(line) = &r.outcome else {
        panic!("{:?} after {:?}", r.outcome, r.elapsed);
    };
    let line = texts(line);
    if let Err(e) = check_line(&root, &line) {
        panic!("{e}: {}", line.join(" "));
    }
    assert_eq!(line.len(), 29, "{}", line.join(" "));
    assert_eq!(r.plies, Some(29));
}

/// The search for shorter mates runs for the time it is given: none, and no mate is shown
/// shortest; enough, and the 29-ply problem is shown to have no shorter mate.
#[test]
fn the_search_for_shorter_mates_takes_the_time_it_is_given() {
    let (_, sfen, listed, _) = long_problems().swap_remove(0);
    let root = pos(&sfen);
    let mut table = Table::new(256);
    let with = |shorter: u64| Limits {
        shorter_time: Some(Duration::from_millis(shorter)),
        ..seconds(60)
    };
    let none = solve(&root, &mut table, with(0));
    assert!(
        matches!(none.outcome, Outcome::Mate(_)),
        "{:?}",
        none.outcome
    );
    // (The deadline is read every few thousand nodes, so a shorter mate close at hand
    // may still be found; showing that none is shorter takes far more.)
    assert!(!none.shortest);
    let enough = solve(&root, &mut table, with(30_000));
    assert!(
        enough.shortest,
        "{:?} after {:?}",
        enough.plies, enough.elapsed
    );
    assert_eq!(enough.plies, Some(listed as u16));
}

/// The long problems as a benchmark (`cargo test --release --test mate -- --ignored
/// --nocapture long`; `HAYATE_LONG_SECONDS`, default 120, per problem). Each answer must
/// be a valid mating line; the problems solved so far must stay solved, the 29- and
/// 39-ply problems, Kemuri-zume and Kotobuki proved at their published lengths, and
/// Microcosmos too with 600 seconds.
#[test]
#[ignore]
fn long_problems_benchmark() {
    // Microcosmos's line is 1,500 plies and more: deeper than a test thread's stack holds
    // (the search recurses once a ply), so the problems run on a thread with the stack
    // `go mate` gives its solver.
    std::thread::Builder::new()
        .stack_size(mate::STACK_BYTES)
        .spawn(long_problems_on_this_thread)
        .expect("a thread for the long problems")
        .join()
        .unwrap();
}

fn long_problems_on_this_thread() {
    let seconds_each = std::env::var("HAYATE_LONG_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120);
    let mut table = Table::new(4096);
    for (line, sfen, listed, _) in long_problems() {
        let root = pos(&sfen);
        let r = solve(&root, &mut table, seconds(seconds_each));
        let plies = match &r.outcome {
            Outcome::Mate(moves) => {
                let moves = texts(moves);
                if let Err(e) = check_line(&root, &moves) {
                    panic!("line {line}: {e}: {}", moves.join(" "));
                }
                Some(moves.len())
            }
            Outcome::NoMate => panic!("line {line}: nomate for a published mate"),
            Outcome::Unknown => None,
        };
        println!(
            "line {line}: listed {listed}, proved {:?}, line shown {plies:?}, first mate {:?}, \
             this length {:?}, total {:?}, {} nodes/s",
            r.plies,
            r.first_mate,
            r.final_mate,
            r.elapsed,
            r.nps()
        );
        // The length proved; the line shown may be shorter where a defence in it is not
        // the longest (the table holds bounds on the lengths, see mate/pv.rs).
        if [29, 39, 117, 611].contains(&listed) {
            assert_eq!(r.plies.map(usize::from), Some(listed), "line {line}");
        }
        // Microcosmos reaches its published length in two to four minutes on one core
        // (docs/mate-solver.md, the seventh round): held to it when given ten.
        if listed == 1525 && seconds_each >= 600 {
            assert_eq!(r.plies.map(usize::from), Some(listed), "line {line}");
        }
    }
}

#[test]
fn a_small_table_is_collected_and_the_search_still_succeeds() {
    // The 11-ply problem with a 1 MiB table (32,768 entries).
    let pr = problems().into_iter().find(|p| p.listed == 11).unwrap();
    let root = pos(&pr.sfen);
    let mut table = Table::new(1);
    let r = solve(&root, &mut table, seconds(30));
    let Outcome::Mate(line) = &r.outcome else {
        panic!("{:?}", r.outcome);
    };
    check_line(&root, &texts(line)).unwrap();
    assert!(table.hashfull() <= 1000);
}

#[test]
fn no_mate_is_reported_only_when_proved() {
    let mut table = Table::new(16);
    for sfen in [
        // A lone gold cannot mate a king in the open.
        "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1",
        // No check at all.
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        // The only mate would be a pawn drop (uchifuzume).
        "7n1/8k/9/6GP1/9/9/9/9/K8 b P 1",
        // Only perpetual checks: the repetition is a failure for the attacker.
        "8k/9/9/9/9/9/PP7/GS7/K6R1 b rbgs 1",
        // No king to mate.
        "9/9/9/9/9/9/9/9/4K4 b R 1",
    ] {
        let r = solve(&pos(sfen), &mut table, seconds(20));
        assert_eq!(r.outcome, Outcome::NoMate, "{sfen}");
    }
    // Brute force agrees on the first three plies of the uchifuzume lure.
    let mut p = pos("7n1/8k/9/6GP1/9/9/9/9/K8 b P 1");
    assert!(!forced_mate(&mut p, 3));
}

#[test]
fn limits_give_an_unknown_answer_not_a_wrong_one() {
    let long = problems().into_iter().find(|p| p.listed == 33).unwrap();
    let root = pos(&long.sfen);
    let mut table = Table::new(16);
    let r = solve(
        &root,
        &mut table,
        Limits {
            time: None,
            nodes: Some(2000),
            shortest: true,
            shorter_time: None,
        },
    );
    assert_eq!(r.outcome, Outcome::Unknown);
    let r = solve(
        &root,
        &mut table,
        Limits {
            time: Some(Duration::from_millis(30)),
            nodes: None,
            shortest: true,
            shorter_time: None,
        },
    );
    assert_eq!(r.outcome, Outcome::Unknown);
    assert!(r.elapsed < Duration::from_millis(500), "{:?}", r.elapsed);
}

#[test]
fn useless_interpositions_are_recognised() {
    use hayate::mate::interposition::is_useless_interposition;
    // White's king on 1a in check from Black's rook on 1i; White holds a gold.
    let p = pos("8k/9/9/9/9/9/9/9/4K3R w g 1");
    assert!(p.in_check());
    let drop = |sq: &str| p.parse_move(&format!("G*{sq}")).unwrap();
    assert!(is_useless_interposition(&p, drop("1e")));
    assert!(is_useless_interposition(&p, drop("1h")));
    // Next to the king the rook taking it may be answered: not useless.
    assert!(!is_useless_interposition(&p, drop("1b")));
    // A square a defender's piece guards: the capture is answered, a real defence.
    // White's knight on 2d guards 1f (and 3f).
    let guarded = pos("8k/9/9/7n1/9/9/9/9/4K3R w g 1");
    let drop = |sq: &str| guarded.parse_move(&format!("G*{sq}")).unwrap();
    assert!(!is_useless_interposition(&guarded, drop("1f")));
    assert!(is_useless_interposition(&guarded, drop("1e")));
    // A king move is a real defence.
    assert!(!is_useless_interposition(&p, p.parse_move("1a2a").unwrap()));
}

#[test]
fn a_drop_the_checker_takes_with_mate_is_futile() {
    use hayate::mate::interposition::checker_takes_and_mates;
    // The published 39-ply problem (tests/data/tsume-long.sfen) ends 2c3c 4b4a 4d4c: the
    // dragon's check on 4a is mate by the tsume count, though White can drop a pawn on 4b
    // (guarded by its king), because 4c4b takes it with mate.
    let line = "7b6b 5b4c 8b9c 4c3d 1b2c 3d2c N*1e 2c3b N*2d 3b2b 2d1b+ 2b3b 1b2b 3b2b 4f1c \
                2b1c 9c3c 1c1d 3c2c 1d1e P*1f 1e1f P*1g 1f1g 5g6f 1g1h 2c2g 1h1i 8g8i S*6i \
                8i6i 6h6i+ S*2h 1i2i 2h3g 2i3i 2g2h 3i4i 2h4h";
    let sfen = "9/1+R+N1kP2S/6pn1/9/9/5+B3/1R2S4/3p5/9 b NPb4g2sn4l14p 1";
    // The oracle's line after 2c3d (the 39-ply problem's other defence, 31 plies from
    // there by the published count), to its last three plies.
    let other = "7b6b 5b4c 8b9c 4c3d 1b2c 3d2c N*1e 2c3d 8g8d P*4d 8d4d 3d4d N*3f 4d3d 9c8d \
                 3d4c 8d4d 4c3b 3f2d 3b2a P*2b 2a2b P*2c 2b1a 2d1b+ 1a1b 4d1d 1b2a 2c2b+ \
                 2a2b 1e2c+ 2b3a 4f1c 3a4b 1d4d P*4c";
    let after = |moves: &str| {
        hayate::attacks::init();
        hayate::position::PositionCommand::from_argument(&format!("sfen {sfen} moves {moves}"))
            .unwrap()
    };
    let mut p = after(&format!("{other} 2c3c 4b4a 4d4c"));
    let pawn = p.parse_move("P*4b").unwrap();
    assert!(checker_takes_and_mates(&mut p, pawn));
    let end = after(other);
    let r = solve(&end, &mut Table::new(16), seconds(20));
    assert_eq!(r.plies, Some(3), "{:?}", r.outcome);
    assert!(r.shortest);
    // A drop the checker cannot take with mate counts (a listed mate in 3,
    // tests/data/tsume.sfen line 50: 4a3a+ P*2a N*2c; 3a2a would be taken by the king).
    let mut q = pos("5Rn1k/9/8P/9/9/9/9/9/9 b r2b4g4s3n4l17p 1");
    q.play_unchecked(q.parse_move("4a3a+").unwrap());
    let pawn = q.parse_move("P*2a").unwrap();
    assert!(!checker_takes_and_mates(&mut q, pawn));
    // The published line itself, 39 plies, is 39 by the count.
    let root = pos(sfen);
    let moves: Vec<Move> = line
        .split_whitespace()
        .map(|m| Move::from_usi(m).unwrap())
        .collect();
    assert_eq!(tsume_length(&root, &moves), 39);
}

// ---------------------------------------------------------------------------------------
// Through the binary

#[test]
fn go_mate_answers_over_usi() {
    let pr = problems().into_iter().find(|p| p.listed == 5).unwrap();
    let root = pos(&pr.sfen);
    let mut e = EngineProcess::start("go mate");
    e.send("usi");
    e.expect_line(|l| l == "usiok", "usiok");
    e.send("setoption name MateHash value 32");
    e.send("isready");
    e.expect_line(|l| l == "readyok", "readyok");

    // A mate.
    e.send(&format!("position sfen {}", pr.sfen));
    e.send("go mate 5000");
    let (answer, _) = e.expect_line(|l| l.starts_with("checkmate"), "checkmate");
    let moves: Vec<String> = answer
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect();
    check_line(&root, &moves).unwrap_or_else(|err| panic!("{answer}: {err}"));

    // No mate, proved.
    e.send("position sfen 4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1");
    e.send("go mate infinite");
    e.expect_line(|l| l == "checkmate nomate", "checkmate nomate");

    // A hard problem: isready is answered during the search, which stop then ends.
    let long = problems().into_iter().find(|p| p.listed == 33).unwrap();
    e.send(&format!("position sfen {}", long.sfen));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let (_, before) = e.expect_line(|l| l == "readyok", "readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("checkmate")),
        "{before:?}"
    );
    let sent = Instant::now();
    e.send("stop");
    let (answer, _) = e.expect_line(|l| l.starts_with("checkmate"), "checkmate after stop");
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    if answer != "checkmate timeout" {
        let moves: Vec<String> = answer
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect();
        check_line(&pos(&long.sfen), &moves).unwrap();
    }

    // A time limit runs out.
    e.send("go mate 200");
    let (answer, before) = e.expect_line(|l| l.starts_with("checkmate"), "checkmate");
    assert_eq!(answer, "checkmate timeout");
    assert!(before
        .iter()
        .any(|l| l.starts_with("info") && l.contains("nodes")));

    // The engine still plays after it all.
    e.send("position startpos");
    e.send("go depth 2");
    e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
    assert!(e.quit().success());
}

#[test]
fn hayate_mate_on_the_command_line() {
    let out = Command::new(BIN)
        .args([
            "mate",
            "--sfen",
            "9/7Sk/1+R7/9/9/9/9/9/9 b r2b4g3s4n4l18p 1",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().any(|l| l == "checkmate 8c1c"), "{text}");

    // A file of problems: the benchmark's totals.
    let dir = std::env::temp_dir().join(format!("hayate-mate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("problems.sfen");
    let some: Vec<String> = include_str!("data/tsume.sfen")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(5)
        .map(String::from)
        .chain(std::iter::once("not a position\t3".to_string()))
        .collect();
    std::fs::write(&file, some.join("\n")).unwrap();
    let out = Command::new(BIN)
        .args(["mate", "--file", file.to_str().unwrap(), "--time", "5000"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    let totals = text.lines().last().unwrap();
    assert!(totals.starts_with("solved 5/5"), "{text}");
    assert!(totals.contains("1 skipped (bad sfen)"), "{text}");
    std::fs::remove_dir_all(&dir).ok();

    let out = Command::new(BIN)
        .args(["mate", "--sfen", "not a position"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad sfen"));
}

#[test]
fn the_game_search_plays_a_long_mate_found_by_the_solver() {
    // A 9-ply tsume problem with a Black king added on 9i: a game position where the
    // alpha-beta search alone still sees no mate after 300 ms (it scores about +600).
    let sfen = "9/5R1P1/7N1/6SRN/8k/9/8S/9/K8 b N2b4g2sn4l17p 1";
    let root = pos(sfen);

    let mut e = EngineProcess::start("root mate");
    e.send("usi");
    e.expect_line(|l| l == "usiok", "usiok");
    e.send("isready");
    e.expect_line(|l| l == "readyok", "readyok");
    e.send(&format!("position sfen {sfen}"));
    e.send("go btime 0 wtime 0 byoyomi 300");
    let (best, before) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
    let info = before
        .iter()
        .rev()
        .find(|l| l.contains(" score mate "))
        .unwrap_or_else(|| panic!("no mate score: {before:#?}"));
    let pv: Vec<String> = info
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect();
    check_line(&root, &pv).unwrap_or_else(|err| panic!("{info}: {err}"));
    assert!(
        info.contains(&format!(" score mate {} ", pv.len())),
        "{info}"
    );
    assert!(pv.len() >= 9, "{info}");
    // Reported by the mate solver: within its node budget.
    let nodes: u64 = info
        .split(" nodes ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(nodes <= hayate::search::root_mate::NODES, "{info}");
    assert_eq!(
        best.split_whitespace().nth(1),
        Some(pv[0].as_str()),
        "{best}"
    );
    assert!(e.quit().success());
}
