//! The `hayate` binary: the perft command line and the USI loop.

use hayate::perft::{perft, LeafMode};
use hayate::Position;
use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hayate");
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

fn hayate(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run the hayate binary")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8 stderr")
}

/// Parses `nodes <N> time <ms> nps <N>` and returns N.
fn nodes_line(line: &str) -> u64 {
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 6, "summary line {line:?}");
    assert_eq!(words[0], "nodes", "{line:?}");
    assert_eq!(words[2], "time", "{line:?}");
    assert_eq!(words[4], "nps", "{line:?}");
    words[3].parse::<u64>().expect("time is a number");
    words[5].parse::<u64>().expect("nps is a number");
    words[1].parse().expect("node count is a number")
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "exit {:?}, stderr {}",
        out.status,
        stderr(out)
    );
}

fn assert_clean_failure(out: &Output) {
    assert!(!out.status.success(), "should fail: {}", stdout(out));
    // An error exit, not a panic (Rust's panic exit code is 101).
    assert_ne!(out.status.code(), Some(101), "panicked: {}", stderr(out));
    let err = stderr(out);
    assert!(!err.trim().is_empty(), "no message on stderr");
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert!(stdout(out).trim().is_empty(), "nothing on stdout expected");
}

#[test]
fn perft_3_from_startpos() {
    let out = hayate(&["perft", "3"]);
    assert_ok(&out);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert_eq!(nodes_line(lines[0]), 25470);
}

#[test]
fn perft_2_divide() {
    let out = hayate(&["perft", "2", "--divide"]);
    assert_ok(&out);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 31, "30 moves and the summary: {text}");
    let mut moves = Vec::new();
    let mut sum = 0;
    for line in &lines[..30] {
        let (mv, n) = line.split_once(' ').expect("<move> <count>");
        let n: u64 = n.parse().expect("count");
        // After any of Black's 30 first moves White has 30 replies: no first move opens
        // a line to White's pieces or takes away a White move.
        assert_eq!(n, 30, "{line}");
        assert!(hayate::Move::from_usi(mv).is_some(), "{mv}");
        moves.push(mv.to_string());
        sum += n;
    }
    assert_eq!(sum, 900);
    let mut sorted = moves.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(moves, sorted, "sorted and distinct");
    // The 30 lines are the 30 legal moves of the start position.
    let mut legal: Vec<String> = Position::startpos()
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    legal.sort();
    assert_eq!(moves, legal);
    assert_eq!(nodes_line(lines[30]), 900);
}

#[test]
fn perft_3_matsuri_two_threads() {
    let out = hayate(&["perft", "3", "--sfen", MATSURI, "--threads", "2"]);
    assert_ok(&out);
    let text = stdout(&out);
    assert_eq!(nodes_line(text.lines().last().unwrap()), 4809015);
}

#[test]
fn perft_2_full() {
    let out = hayate(&["perft", "2", "--full"]);
    assert_ok(&out);
    assert_eq!(nodes_line(stdout(&out).lines().last().unwrap()), 900);
    // Options may come before the depth.
    let out = hayate(&["perft", "--full", "--threads", "2", "1"]);
    assert_ok(&out);
    assert_eq!(nodes_line(stdout(&out).lines().last().unwrap()), 30);
}

#[test]
fn perft_0_is_one_node() {
    let out = hayate(&["perft", "0"]);
    assert_ok(&out);
    assert_eq!(nodes_line(stdout(&out).trim()), 1);
}

#[test]
fn perft_bad_arguments_fail_cleanly() {
    let cases: [&[&str]; 10] = [
        &["perft", "x"],
        &["perft", "3", "--sfen", "garbage"],
        &["perft"],
        &["perft", "-1"],
        &["perft", "21"],
        &["perft", "3", "--sfen"],
        &["perft", "3", "--threads", "0"],
        &["perft", "3", "--threads", "many"],
        &["perft", "3", "4"],
        &["perft", "3", "--bogus"],
    ];
    for args in cases {
        let out = hayate(args);
        assert_clean_failure(&out);
    }
    // The message names what was wrong.
    let err = stderr(&hayate(&["perft", "x"]));
    assert!(err.contains("'x'"), "{err}");
    let err = stderr(&hayate(&["perft", "3", "--sfen", "garbage"]));
    assert!(err.contains("sfen"), "{err}");
}

#[test]
fn other_commands() {
    let out = hayate(&["--version"]);
    assert_ok(&out);
    assert!(stdout(&out).starts_with("hayate "));
    let out = hayate(&["help"]);
    assert_ok(&out);
    assert!(stdout(&out).contains("perft"));
    let out = hayate(&["frobnicate"]);
    assert_clean_failure(&out);
    assert!(stderr(&out).contains("frobnicate"));
}

#[test]
fn every_tool_has_help_and_refuses_bad_values_the_same_way() {
    let tools = [
        "perft", "bench", "mate", "match", "makebook", "bookinfo", "gensfen", "train", "selfplay",
        "tune", "label",
    ];
    let help = stdout(&hayate(&["--help"]));
    for tool in tools {
        assert!(help.contains(tool), "hayate --help lists {tool}: {help}");
        let out = hayate(&[tool, "--help"]);
        assert_ok(&out);
        assert!(
            stdout(&out).contains(&format!("Usage: hayate {tool}")),
            "{tool}: {}",
            stdout(&out)
        );
    }
    let bad: [&[&str]; 12] = [
        &["bench", "1", "--hash", "1048576"],
        &["bench", "65"],
        &["bench", "--threads", "0"],
        &[
            "mate",
            "--hash",
            "100000000",
            "--sfen",
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        ],
        &["mate", "--time", "soon"],
        &["match", "--engine", "a"],
        &["match", "--engine", "a", "--engine", "b", "--games", "0"],
        &[
            "makebook",
            "--out",
            "x.db",
            "--depth",
            "0",
            "--openings",
            "o",
        ],
        &[
            "gensfen", "--out", "x.bin", "--games", "1", "--seed", "1", "--nodes", "0",
        ],
        &["train", "--data", "x", "--out", "y", "--arch", "cnn"],
        &["selfplay", "--concurrency", "0"],
        &[
            "label", "--engine", "e", "--data", "d", "--out", "o", "--option", "noequals",
        ],
    ];
    for args in bad {
        let out = hayate(args);
        assert_clean_failure(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).starts_with("error: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

// ---------------------------------------------------------------------------------------
// USI

/// Runs the USI loop on `input`; returns stdout and the exit status.
fn usi(input: &str) -> Output {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn hayate");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .expect("write USI commands");
    child.wait_with_output().expect("hayate exits")
}

#[test]
fn usi_session() {
    let input = "usi\nisready\nposition startpos moves 7g7f 3c3d\ngo perft 2\n\
                 position sfen garbage\nposition startpos moves 7g7f 7g7f\nfoo\n\nquit\n";
    let out = usi(input);
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();

    let usiok = lines.iter().position(|l| *l == "usiok").expect("usiok");
    assert!(
        lines[..usiok]
            .iter()
            .any(|l| l.starts_with("id name hayate")),
        "{text}"
    );
    assert!(lines[..usiok].iter().any(|l| l.starts_with("id author")));
    let readyok = lines.iter().position(|l| *l == "readyok").expect("readyok");
    assert!(readyok > usiok);

    // go perft 2 after 7g7f 3c3d: divide lines, then the summary.
    let mut expected_pos = Position::startpos();
    for m in ["7g7f", "3c3d"] {
        expected_pos
            .try_play(expected_pos.parse_move(m).unwrap())
            .unwrap();
    }
    let expected = perft(&mut expected_pos.clone(), 2, LeafMode::Full);
    let summary = lines
        .iter()
        .position(|l| l.starts_with("nodes "))
        .expect("perft summary");
    assert_eq!(nodes_line(lines[summary]), expected);
    let divide = &lines[readyok + 1..summary];
    assert_eq!(divide.len(), expected_pos.count_legal(), "{text}");
    let sum: u64 = divide
        .iter()
        .map(|l| l.split_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, expected);

    // After it: three info strings, in order (bad SFEN, illegal move, unknown command),
    // and nothing for the empty line.
    let rest = &lines[summary + 1..];
    assert_eq!(rest.len(), 3, "{text}");
    assert!(rest.iter().all(|l| l.starts_with("info string ")), "{text}");
    assert!(rest[0].contains("sfen"), "{}", rest[0]);
    assert!(rest[1].contains("illegal move 2"), "{}", rest[1]);
    assert!(rest[1].contains("7g7f"), "{}", rest[1]);
    assert!(rest[2].contains("'foo'"), "{}", rest[2]);
}

#[test]
fn usi_keeps_state_between_commands() {
    // A bad SFEN keeps the previous position; an illegal move keeps the moves before it.
    // `go perft 1` then counts the legal moves of the position in force.
    let input = "position startpos moves 7g7f\nposition sfen garbage\ngo perft 1\n\
                 position startpos moves 2g2f 8c8d 2f2f\ngo perft 1\nquit\n";
    let out = usi(input);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let summaries: Vec<u64> = text
        .lines()
        .filter(|l| l.starts_with("nodes "))
        .map(nodes_line)
        .collect();
    let count_after = |moves: &[&str]| {
        let mut p = Position::startpos();
        for m in moves {
            p.try_play(p.parse_move(m).unwrap()).unwrap();
        }
        p.count_legal() as u64
    };
    assert_eq!(
        summaries,
        vec![count_after(&["7g7f"]), count_after(&["2g2f", "8c8d"])]
    );
    assert!(text.contains("illegal move 3"), "{text}");
}

#[test]
fn usi_ends_at_end_of_input() {
    // No quit: the loop stops when stdin closes, with exit code 0.
    let out = usi("isready\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).trim(), "readyok");
    let out = usi("");
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).is_empty());
}

/// Raw bytes on stdin (invalid UTF-8, control characters, NULs, a 100 kB line) are
/// reported with printable `info string` lines only, and the loop keeps answering.
#[test]
fn usi_survives_binary_garbage() {
    // A fixed pseudo-random byte stream (xorshift) so the test is reproducible.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut input: Vec<u8> = (0..100_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    // Messages that quote user input must not echo raw bytes either.
    input.extend_from_slice(b"\nsetoption name \x01\x02bad value 3\n");
    input.extend_from_slice(b"position startpos moves 7g7f \x07x\n");
    input.extend_from_slice(b"go \x1b[2J 5\n");
    input.extend_from_slice(b"isready\nposition startpos moves 7g7f\ngo perft 1\nquit\n");
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hayate");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    assert!(
        text.chars().all(|c| c == '\n' || (' '..='~').contains(&c)),
        "non-printable output"
    );
    assert!(text.lines().any(|l| l == "readyok"));
    // After 7g7f, White has 30 moves (the mirror of the start position).
    assert!(text.lines().any(|l| l.starts_with("nodes 30 ")));
    assert!(text.lines().all(|l| l == "readyok"
        || l.starts_with("info ")
        || l.starts_with("bestmove ")
        || l.starts_with("nodes ")
        || l.split(' ').count() == 2));
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
}

/// A reader that stops early (`hayate bench | head -1`) ends the run quietly: no panic
/// message, the process ended by SIGPIPE or finished. The bench lines name the best move
/// as USI writes it.
#[test]
fn a_closed_output_ends_a_tool_without_a_panic() {
    let mut child = Command::new(BIN)
        .arg("bench")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the hayate binary");
    let mut first = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    std::io::BufRead::read_line(&mut out, &mut first).unwrap();
    drop(out);
    let result = child.wait_with_output().unwrap();
    let err = stderr(&result);
    assert!(!err.contains("panicked"), "{err}");
    use std::os::unix::process::ExitStatusExt;
    let status = result.status;
    assert!(
        status.success() || status.signal() == Some(13),
        "{status:?}: {err}"
    );
    assert!(first.starts_with("position  1:"), "{first}");
    let best = first.split_whitespace().last().unwrap();
    let pos = Position::startpos();
    assert!(
        pos.legal_moves().iter().any(|m| m.to_string() == best),
        "{first}"
    );
}

/// `--sfen` takes a position with moves after it, as USI's `position` does: the count is
/// the one of the position those moves reach, given as a plain SFEN; an illegal move is
/// bad input.
#[test]
fn perft_and_mate_take_moves_after_the_position() {
    let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
    let plain = hayate(&["perft", "3", "--sfen", after]);
    let with_moves = hayate(&["perft", "3", "--sfen", "startpos moves 7g7f 3c3d"]);
    assert!(plain.status.success() && with_moves.status.success());
    let last = |o: &Output| nodes_line(stdout(o).lines().last().unwrap());
    assert_eq!(last(&plain), last(&with_moves));
    let bad = hayate(&["perft", "1", "--sfen", "startpos moves 7g7f 7g7f"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("not legal"), "{}", stderr(&bad));
    // The king steps out of the silver's check into a published mate in one (the first
    // problem of tests/data/tsume.sfen, solved by 8c1c).
    let out = hayate(&[
        "mate",
        "--sfen",
        "sfen 8k/7S1/1+R7/9/9/9/9/9/9 w r2b4g3s4n4l18p 1 moves 1a1b",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    assert!(text.contains("mate in 1 plies"), "{text}");
    assert!(text.contains("8c1c"), "{text}");
}

/// Runs hayate with a deadline: a tool reading `/dev/zero` to its end would never return.
fn hayate_within(args: &[&str], limit: std::time::Duration) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the hayate binary");
    let started = std::time::Instant::now();
    while child.try_wait().expect("wait for hayate").is_none() {
        if started.elapsed() > limit {
            child.kill().ok();
            panic!("hayate {args:?} still running after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("hayate's output")
}

#[cfg(unix)]
#[test]
fn files_named_on_the_command_line_must_be_regular_files() {
    let dir = std::env::temp_dir().join(format!("hayate-cli-special-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dir_text = dir.display().to_string();
    let book = dir.join("book.db").display().to_string();
    let makebook = [
        "makebook",
        "--openings",
        "/dev/zero",
        "--depth",
        "1",
        "--out",
        &book,
    ];
    for args in [
        &["mate", "--file", "/dev/zero"][..],
        &["mate", "--file", &dir_text],
        &makebook,
    ] {
        let out = hayate_within(args, std::time::Duration::from_secs(10));
        assert_clean_failure(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("not a regular file"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
