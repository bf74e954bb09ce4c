//! Black-box tests of the USI front end: the real `hayate` binary driven through pipes.
//!
//! A reader thread turns the engine's stdout into lines on a channel, every wait has a
//! deadline (so a silent or hung engine fails a test instead of hanging it), and every
//! `bestmove` is checked against the library's own move generator.

mod common;

use common::{EngineProcess, TIMEOUT};
use hayate::position::EnteringKingRule;
use hayate::Position;
use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
/// Bare kings: no mate either way, a handful of king moves.
const BARE_KINGS: &str = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
/// Black (to move) on 5b with 10 pieces in camp worth 26 points plus 2 pawns in hand:
/// exactly 28 points, so a declaration under CSA 27 but not under CSA 24 (31 needed).
const BLACK_DECLARES: &str = "RB+P+P1+P+PBR/4K+P3/4+P4/9/9/9/9/9/4k4 b 2P 1";
/// The same for White (to move) on 5h: 26 points on the board plus a pawn = 27.
const WHITE_DECLARES: &str = "4K4/9/9/9/9/9/9/3+pk+p3/rb+p+p1+p+pbr w p 1";
/// Black to move, mated: White's gold on 5h, protected by the pawn on 5g, covers 5i's
/// every exit.
const BLACK_MATED: &str = "4k4/9/9/9/9/9/4p4/4g4/4K4 b P 1";
/// White to move, mated the same way at the top of the board.
const WHITE_MATED: &str = "4k4/4G4/4P4/9/9/9/9/9/4K4 w p 1";

/// One running engine process.
/// The protocol tests' view of the engine: the shared process driver plus where the
/// current search's output starts.
struct Engine {
    process: EngineProcess,
    /// Index in `seen` of the first line the current search may have printed.
    search_from: usize,
}

impl Deref for Engine {
    type Target = EngineProcess;
    fn deref(&self) -> &EngineProcess {
        &self.process
    }
}

impl DerefMut for Engine {
    fn deref_mut(&mut self) -> &mut EngineProcess {
        &mut self.process
    }
}

impl Engine {
    fn start() -> Engine {
        Engine {
            process: EngineProcess::start("hayate"),
            search_from: 0,
        }
    }

    /// `isready`, then everything printed before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.expect_line(|l| l == "readyok", "readyok").1
    }

    /// Sends a command that must not start a search and returns what it printed (up to the
    /// `readyok` of a following `isready`).
    fn quiet(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        let lines = self.sync();
        self.no_bestmove(&lines, command);
        lines
    }

    fn no_bestmove(&mut self, lines: &[String], after: &str) {
        if lines.iter().any(|l| l.starts_with("bestmove")) {
            let ctx = self.context();
            panic!("unexpected bestmove after {after:?}: {lines:#?}{ctx}");
        }
    }

    fn silent(&mut self, command: &str) {
        let lines = self.quiet(command);
        if !lines.is_empty() {
            let ctx = self.context();
            panic!("{command:?} should print nothing, printed {lines:#?}{ctx}");
        }
    }

    /// A command that must print exactly one `info string` line; returns it.
    fn one_info(&mut self, command: &str) -> String {
        let lines = self.quiet(command);
        if lines.len() != 1 || !lines[0].starts_with("info string") {
            let ctx = self.context();
            panic!("{command:?} should print one info string line, printed {lines:#?}{ctx}");
        }
        lines[0].clone()
    }

    /// Input that must print at most one `info string` line.
    fn at_most_one_info_bytes(&mut self, bytes: &[u8], what: &str) {
        self.send_bytes(bytes);
        let lines = self.sync();
        self.no_bestmove(&lines, what);
        if lines.len() > 1 || lines.iter().any(|l| !l.starts_with("info string")) {
            let ctx = self.context();
            panic!("{what} should print at most one info string line, printed {lines:#?}{ctx}");
        }
    }

    fn at_most_one_info(&mut self, command: &str) {
        self.at_most_one_info_bytes(format!("{command}\n").as_bytes(), &format!("{command:?}"));
    }

    /// Waits for the `bestmove` of a search already started and checks it in `pos`.
    fn await_bestmove(&mut self, pos: &Position, rule: EnteringKingRule, what: &str) -> String {
        let (line, _) = self.expect_line(
            |l| l.starts_with("bestmove"),
            &format!("bestmove for {what}"),
        );
        if let Err(e) = check_bestmove(&line, pos, rule) {
            let ctx = self.context();
            panic!("{what}: {e}{ctx}");
        }
        let printed = self.seen[self.search_from..].to_vec();
        for info in &printed {
            if let Err(e) = check_info(info, pos) {
                let ctx = self.context();
                panic!("{what}: {e}{ctx}");
            }
        }
        line
    }

    /// Starts a search: sends `command` and remembers where its output begins.
    fn start_go(&mut self, command: &str) {
        self.search_from = self.seen.len();
        self.send(command);
    }

    /// After a bestmove: an `isready` round trip shows no second one.
    fn no_second_bestmove(&mut self, what: &str) {
        let lines = self.sync();
        self.no_bestmove(&lines, &format!("the bestmove of {what}"));
    }

    /// Runs a finite `go`, checks its one bestmove in `pos`, returns the move text.
    fn go(&mut self, command: &str, pos: &Position, rule: EnteringKingRule) -> String {
        self.start_go(command);
        let line = self.await_bestmove(pos, rule, command);
        self.no_second_bestmove(command);
        line.split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string()
    }

    /// The board part (placement, side, hands) of the engine's `d` output.
    fn board_sfen(&mut self) -> String {
        let lines = self.quiet("d");
        match lines.iter().find_map(|l| l.strip_prefix("sfen: ")) {
            Some(sfen) => match sfen.parse::<Position>() {
                Ok(p) => board_part(&p),
                Err(e) => {
                    let ctx = self.context();
                    panic!("d printed an unreadable sfen {sfen:?}: {e}{ctx}")
                }
            },
            None => {
                let ctx = self.context();
                panic!("d printed no 'sfen: ' line: {lines:#?}{ctx}")
            }
        }
    }

    fn assert_position(&mut self, expected: &Position, after: &str) {
        let got = self.board_sfen();
        let want = board_part(expected);
        if got != want {
            let ctx = self.context();
            panic!("after {after:?} the engine is at {got:?}, expected {want:?}{ctx}");
        }
    }

    /// Quits, expects exit code 0, then checks the whole transcript and stderr.
    fn finish(mut self) {
        let status = self.quit();
        if status.code() != Some(0) {
            let ctx = self.context();
            panic!("quit should exit with 0, got {status}{ctx}");
        }
        // Whatever was still in the pipe.
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.seen.push(line);
        }
        if let Err(e) = check_whole_lines(&self.seen) {
            let ctx = self.context();
            panic!("{e}{ctx}");
        }
        let err = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        assert!(!err.contains("panicked"), "the engine panicked: {err}");
    }
}

/// Placement, side to move and hands of a position (the SFEN without the move number).
fn board_part(p: &Position) -> String {
    p.to_string()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("test sfen {sfen:?}: {e}"))
}

fn after(start: &Position, moves: &[&str]) -> Position {
    let mut p = start.clone();
    for m in moves {
        let mv = p
            .parse_move(m)
            .unwrap_or_else(|e| panic!("test move {m} in {p}: {e}"));
        p.play_unchecked(mv);
    }
    p
}

fn legal_texts(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

/// `bestmove <m> [ponder <p>]`: m legal in `pos` (or `resign` with no legal move, or
/// `win` with a declaration possible under `rule`), p legal after m.
fn check_bestmove(line: &str, pos: &Position, rule: EnteringKingRule) -> Result<(), String> {
    let words: Vec<&str> = line.split(' ').collect();
    let shape_ok =
        words[0] == "bestmove" && (words.len() == 2 || (words.len() == 4 && words[2] == "ponder"));
    if !shape_ok {
        return Err(format!("malformed bestmove line {line:?}"));
    }
    let legal = legal_texts(pos);
    match words[1] {
        "resign" => {
            if !legal.is_empty() {
                return Err(format!(
                    "resigned in {pos} with {} legal moves",
                    legal.len()
                ));
            }
            Ok(())
        }
        "win" => {
            if !pos.can_declare_win(rule) {
                return Err(format!(
                    "declared a win in {pos}, not allowed under {rule:?}"
                ));
            }
            Ok(())
        }
        m => {
            if !legal.iter().any(|l| l == m) {
                return Err(format!("{line:?}: {m} is not legal in {pos}"));
            }
            if words.len() == 4 {
                let next = after(pos, &[m]);
                if !legal_texts(&next).iter().any(|l| l == words[3]) {
                    return Err(format!("{line:?}: ponder move not legal in {next}"));
                }
            }
            Ok(())
        }
    }
}

/// An `info` line of a search in `pos` (not `info string`): its `pv` must be a legal
/// sequence from `pos` and its `currmove` a legal move there.
fn check_info(line: &str, pos: &Position) -> Result<(), String> {
    if !line.starts_with("info ") || line.starts_with("info string") {
        return Ok(());
    }
    let words: Vec<&str> = line.split(' ').collect();
    if let Some(i) = words.iter().position(|&w| w == "currmove") {
        let m = words.get(i + 1).copied().unwrap_or_default();
        if !legal_texts(pos).iter().any(|l| l == m) {
            return Err(format!("{line:?}: currmove {m} is not legal in {pos}"));
        }
    }
    if let Some(i) = words.iter().position(|&w| w == "pv") {
        let mut p = pos.clone();
        for m in &words[i + 1..] {
            match p.parse_move(m) {
                Ok(mv) => p.play_unchecked(mv),
                Err(e) => return Err(format!("{line:?}: pv move {m} in {p}: {e}")),
            }
        }
    }
    Ok(())
}

/// No output line is two lines run together: the protocol's keywords only start lines
/// (an `info string` may quote anything).
fn check_whole_lines(lines: &[String]) -> Result<(), String> {
    for line in lines {
        if line.starts_with("info") {
            continue;
        }
        for kw in ["bestmove", "readyok", "usiok", "id name", "option name"] {
            if let Some(at) = line.find(kw) {
                if at != 0 {
                    return Err(format!("line with {kw:?} inside it: {line:?}"));
                }
            }
        }
        if (line.starts_with("readyok") && line != "readyok")
            || (line.starts_with("usiok") && line != "usiok")
        {
            return Err(format!("run-together line {line:?}"));
        }
        if line.starts_with("bestmove") {
            let n = line.split(' ').count();
            if n != 2 && n != 4 {
                return Err(format!("run-together bestmove line {line:?}"));
            }
        }
    }
    Ok(())
}

/// One `option name <N> type <T> ...` line, split up.
#[derive(Debug, Clone)]
struct UsiOption {
    name: String,
    kind: String,
    default: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
    vars: Vec<String>,
}

fn parse_option(line: &str) -> Result<UsiOption, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 5 || words[0] != "option" || words[1] != "name" || words[3] != "type" {
        return Err(format!("malformed option line {line:?}"));
    }
    let mut opt = UsiOption {
        name: words[2].to_string(),
        kind: words[4].to_string(),
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    let mut i = 5;
    while i < words.len() {
        let key = words[i];
        let value = words.get(i + 1).copied();
        let Some(value) = value else {
            return Err(format!("{key} without a value in {line:?}"));
        };
        match key {
            "default" => opt.default = Some(value.to_string()),
            "min" => opt.min = value.parse().ok(),
            "max" => opt.max = value.parse().ok(),
            "var" => opt.vars.push(value.to_string()),
            _ => return Err(format!("unknown field {key:?} in {line:?}")),
        }
        i += 2;
    }
    Ok(opt)
}

/// Checks the `usi` reply (the lines before `usiok`) and returns the options.
fn check_usi_reply(lines: &[String]) -> Vec<UsiOption> {
    assert!(
        lines
            .first()
            .is_some_and(|l| l.starts_with("id name hayate")),
        "first line should be 'id name hayate ...': {lines:#?}"
    );
    assert!(
        lines.get(1).is_some_and(|l| l.starts_with("id author ")),
        "second line should be 'id author ...': {lines:#?}"
    );
    let options: Vec<UsiOption> = lines[2..]
        .iter()
        .map(|l| parse_option(l).unwrap_or_else(|e| panic!("{e}; usi reply {lines:#?}")))
        .collect();
    let expected: [(&str, &[&str]); 12] = [
        ("USI_Hash", &["spin"]),
        ("Threads", &["spin"]),
        ("USI_Ponder", &["check"]),
        ("MultiPV", &["spin"]),
        ("USI_OwnBook", &["check"]),
        ("BookFile", &["filename", "string"]),
        ("EnteringKingRule", &["combo"]),
        ("MaxMovesToDraw", &["spin"]),
        ("NetworkDelay", &["spin"]),
        ("NetworkDelay2", &["spin"]),
        ("MinimumThinkingTime", &["spin"]),
        ("SlowMover", &["spin"]),
    ];
    for (name, kinds) in expected {
        let opt = options
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("option {name} missing from {lines:#?}"));
        assert!(
            kinds.contains(&opt.kind.as_str()),
            "{name}: type {}",
            opt.kind
        );
        match opt.kind.as_str() {
            "spin" => {
                let (Some(min), Some(max)) = (opt.min, opt.max) else {
                    panic!("{name}: spin without min/max: {opt:?}");
                };
                let default: i64 = opt
                    .default
                    .as_deref()
                    .and_then(|d| d.parse().ok())
                    .unwrap_or_else(|| panic!("{name}: spin without a numeric default: {opt:?}"));
                assert!(min <= default && default <= max, "{name}: {opt:?}");
            }
            "check" => assert!(
                matches!(opt.default.as_deref(), Some("true" | "false")),
                "{name}: check default {opt:?}"
            ),
            _ => {}
        }
    }
    let ekr = options
        .iter()
        .find(|o| o.name == "EnteringKingRule")
        .unwrap();
    let vars = [
        "NoEnteringKing",
        "CSARule24",
        "CSARule24H",
        "CSARule27",
        "CSARule27H",
        "TryRule",
    ];
    for v in vars {
        assert!(
            ekr.vars.iter().any(|x| x == v),
            "EnteringKingRule lacks var {v}: {ekr:?}"
        );
    }
    assert_eq!(ekr.default.as_deref(), Some("CSARule27"), "{ekr:?}");
    options
}

/// Test 1: one long session through every command and every kind of bad input.
#[test]
fn scripted_session() {
    let rule = EnteringKingRule::CsaRule27;
    let start = Position::startpos();
    let mut e = Engine::start();

    // Identification.
    e.send("usi");
    let (_, reply) = e.expect_line(|l| l == "usiok", "usiok");
    let options = check_usi_reply(&reply);
    e.silent("usinewgame");

    // `go` before any `position`: the start position.
    e.go("go btime 0 wtime 0 byoyomi 1000", &start, rule);

    // Options: every one set to its default, name in lower case (names are
    // case-insensitive, so none of these is "unknown").
    for opt in &options {
        let value = match opt.kind.as_str() {
            "string" | "filename" => "<empty>".to_string(),
            "button" => String::new(),
            _ => opt.default.clone().unwrap_or_default(),
        };
        let command = if opt.kind == "button" {
            format!("setoption name {}", opt.name.to_lowercase())
        } else {
            format!("setoption name {} value {value}", opt.name.to_lowercase())
        };
        // USI_OwnBook on would load a book; leave it as it is.
        if opt.name == "USI_OwnBook" && value == "true" {
            continue;
        }
        e.silent(&command);
    }
    e.silent("setoption name MULTIPV value 1");
    e.silent("setoption name BookFile value <empty>");
    let unknown = e.one_info("setoption name NoSuchOption value 3");
    assert!(
        unknown.to_lowercase().contains("nosuchoption"),
        "the info string should name the option: {unknown:?}"
    );
    let multipv = options.iter().find(|o| o.name == "MultiPV").unwrap();
    e.one_info(&format!(
        "setoption name MultiPV value {}",
        multipv.max.unwrap() + 1
    ));
    e.one_info(&format!(
        "setoption name MultiPV value {}",
        multipv.min.unwrap() - 1
    ));
    e.one_info("setoption name USI_Hash value lots");
    e.one_info("setoption name MaxMovesToDraw value 12x");
    e.silent("setoption name MultiPV value 1");

    // Positions.
    let p = after(&start, &["7g7f", "3c3d"]);
    e.silent("position startpos moves 7g7f 3c3d");
    e.assert_position(&p, "position startpos moves 7g7f 3c3d");
    e.go("go btime 1000 wtime 1000 byoyomi 0", &p, rule);

    for bad in [
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1",
        "position sfen garbage",
        "position sfen",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/10/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 99Q 1 moves 7g7f",
    ] {
        let sfen = bad.trim_start_matches("position sfen").trim();
        assert!(sfen.parse::<Position>().is_err(), "the library accepts {sfen:?}");
        e.one_info(bad);
        e.assert_position(&p, bad);
    }
    e.at_most_one_info("position");
    e.at_most_one_info("position fromthemoon");
    e.silent("position startpos moves 7g7f 3c3d");
    e.go("go depth 1", &p, rule);

    // An illegal move: the moves before it stay applied.
    let cases: [(&str, &[&str]); 4] = [
        (
            "position startpos moves 2g2f 8c8d 2f2e 5a5b 9i9a 2e2d",
            &["2g2f", "8c8d", "2f2e", "5a5b"],
        ),
        ("position startpos moves 7g7e", &[]),
        ("position startpos moves 7g7f zz 2g2f", &["7g7f"]),
        (
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e B*5e",
            &["7g7f", "3c3d", "8h2b+", "3a2b", "B*5e"],
        ),
    ];
    for (command, applied) in cases {
        e.one_info(command);
        let expected = after(&start, applied);
        e.assert_position(&expected, command);
        e.go("go btime 0 wtime 0 byoyomi 100", &expected, rule);
    }

    // SFEN with moves.
    let matsuri = pos(MATSURI);
    let m = after(&matsuri, &["G*5a", "R*5b"]);
    let command = format!("position sfen {MATSURI} moves G*5a R*5b");
    e.silent(&command);
    e.assert_position(&m, &command);
    e.go("go nodes 1000", &m, rule);
    e.go("go movetime 100", &m, rule);
    e.go("go btime 500 wtime 500 binc 100 winc 100", &m, rule);
    e.go("go depth 1 nodes 100 movetime 50", &m, rule);

    // `moves` with nothing after it.
    e.silent("position startpos moves");
    e.assert_position(&start, "position startpos moves");

    // A long game given as moves: the kings walk to and fro 250 times (the position
    // repeats far more than four times; `position` still takes every move).
    let shuffle = ["5i4h", "5a4b", "4h5i", "4b5a"];
    let long: Vec<&str> = shuffle.iter().copied().cycle().take(1000).collect();
    let p = after(&start, &long[..999]);
    let command = format!("position startpos moves {}", long[..999].join(" "));
    e.silent(&command);
    e.assert_position(&p, "a 999-move position command");
    e.go("go btime 0 wtime 0 byoyomi 100", &p, rule);

    // searchmoves.
    let p = after(&start, &["2g2f"]);
    e.silent("position startpos moves 2g2f");
    let chosen = e.go("go searchmoves 8c8d 3c3d depth 1", &p, rule);
    assert!(
        ["8c8d", "3c3d"].contains(&chosen.as_str()),
        "searchmoves gave {chosen}"
    );

    // perft: divide lines, then the summary; no bestmove.
    e.send("go perft 2");
    let (summary, divide) = e.expect_line(|l| l.starts_with("nodes "), "the perft summary");
    let mut total = 0u64;
    let mut moves = Vec::new();
    for line in &divide {
        let (mv, n) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("divide line {line:?}"));
        let n: u64 = n.parse().unwrap_or_else(|_| panic!("divide line {line:?}"));
        let child = after(&p, &[mv]);
        assert_eq!(n, child.legal_moves().len() as u64, "divide line {line:?}");
        total += n;
        moves.push(mv.to_string());
    }
    moves.sort();
    let mut legal = legal_texts(&p);
    legal.sort();
    assert_eq!(
        moves, legal,
        "perft divide should list every legal move once"
    );
    let words: Vec<&str> = summary.split(' ').collect();
    assert!(
        words.len() == 6 && words[2] == "time" && words[4] == "nps",
        "summary {summary:?}"
    );
    assert_eq!(
        words[1].parse::<u64>().ok(),
        Some(total),
        "summary {summary:?}"
    );
    e.no_second_bestmove("go perft 2");

    // go infinite / stop, isready during the search.
    e.start_go("go infinite");
    let early = e.collect_for(Duration::from_millis(300));
    e.no_bestmove(&early, "go infinite (no stop yet)");
    let during = e.sync();
    e.no_bestmove(&during, "go infinite (isready)");
    e.send("stop");
    e.await_bestmove(&p, rule, "go infinite + stop");
    e.no_second_bestmove("go infinite + stop");

    // go ponder / ponderhit.
    let p = after(&start, &["2g2f", "8c8d"]);
    e.silent("position startpos moves 2g2f 8c8d");
    e.start_go("go ponder btime 10000 wtime 10000 byoyomi 1000");
    let early = e.collect_for(Duration::from_millis(300));
    e.no_bestmove(&early, "go ponder (no ponderhit yet)");
    e.send("ponderhit");
    e.await_bestmove(&p, rule, "go ponder + ponderhit");
    e.no_second_bestmove("go ponder + ponderhit");

    // Idle stop and gameover.
    let lines = e.quiet("stop");
    assert!(
        lines.len() <= 1 && lines.iter().all(|l| l.starts_with("info string")),
        "idle stop: {lines:#?}"
    );
    e.silent("gameover draw");
    e.silent("usinewgame");

    // Garbage of every kind; the position stays where it was.
    e.at_most_one_info("foo bar");
    e.at_most_one_info("");
    e.at_most_one_info("   \t  ");
    e.at_most_one_info("go-go-go");
    let mut big = Vec::with_capacity(1 << 20);
    while big.len() < (1 << 20) {
        big.extend_from_slice(b"abcdefghij ");
    }
    big.push(b'\n');
    e.at_most_one_info_bytes(&big, "a 1 MB line of words");
    let mut big = vec![b'x'; 1 << 20];
    big.push(b'\n');
    e.at_most_one_info_bytes(&big, "a 1 MB word");
    let binary: Vec<u8> = (0u8..=255).filter(|&b| b != b'\n').chain([b'\n']).collect();
    e.at_most_one_info_bytes(&binary, "every byte value");
    e.at_most_one_info_bytes(
        b"\xff\xfe\x00\x01\x1b[2J\x80\x81 \xc3\x28\n",
        "invalid UTF-8",
    );
    e.at_most_one_info_bytes(b"\x00\n", "a NUL byte");
    e.assert_position(&p, "garbage");
    e.go("go byoyomi 100", &p, rule);

    e.finish();
}

/// Test 2a: go infinite waits for stop; isready answers meanwhile.
#[test]
fn go_infinite_waits_for_stop() {
    let rule = EnteringKingRule::CsaRule27;
    let mut e = Engine::start();
    e.sync();
    let p = after(&Position::startpos(), &["7g7f"]);
    e.silent("position startpos moves 7g7f");
    e.start_go("go infinite");
    let early = e.collect_for(Duration::from_millis(300));
    e.no_bestmove(&early, "go infinite after 300 ms");
    let during = e.sync();
    e.no_bestmove(&during, "isready during go infinite");
    let more = e.collect_for(Duration::from_millis(100));
    e.no_bestmove(&more, "go infinite after isready");
    // Many isready at once while the search prints: one whole readyok each.
    let mut burst = Vec::new();
    for _ in 0..200 {
        burst.extend_from_slice(b"isready\n");
    }
    e.send_bytes(&burst);
    for k in 0..200 {
        let (_, before) = e.expect_line(|l| l == "readyok", &format!("readyok #{}", k + 1));
        e.no_bestmove(&before, "isready burst during go infinite");
    }
    if let Err(err) = check_whole_lines(&e.seen) {
        let ctx = e.context();
        panic!("{err}{ctx}");
    }
    e.send("stop");
    e.await_bestmove(&p, rule, "go infinite + stop");
    e.no_second_bestmove("go infinite + stop");
    // A second stop is idle: no further bestmove.
    let lines = e.quiet("stop");
    assert!(lines.len() <= 1, "idle stop: {lines:#?}");
    e.finish();
}

/// Test 2b: go ponder waits for ponderhit.
#[test]
fn go_ponder_then_ponderhit() {
    let rule = EnteringKingRule::CsaRule27;
    let mut e = Engine::start();
    e.sync();
    e.silent("setoption name USI_Ponder value true");
    let p = after(&Position::startpos(), &["7g7f", "3c3d"]);
    e.silent("position startpos moves 7g7f 3c3d");
    e.start_go("go ponder btime 5000 wtime 5000 byoyomi 500");
    let early = e.collect_for(Duration::from_millis(300));
    e.no_bestmove(&early, "go ponder after 300 ms");
    let during = e.sync();
    e.no_bestmove(&during, "isready during go ponder");
    e.send("ponderhit");
    e.await_bestmove(&p, rule, "go ponder + ponderhit");
    e.no_second_bestmove("go ponder + ponderhit");
    e.finish();
}

/// Test 2c: gameover ends a ponder search without stop; its bestmove is still printed.
#[test]
fn go_ponder_then_gameover() {
    let rule = EnteringKingRule::CsaRule27;
    let mut e = Engine::start();
    e.sync();
    let p = after(&Position::startpos(), &["2g2f", "8c8d"]);
    e.silent("position startpos moves 2g2f 8c8d");
    e.start_go("go ponder btime 5000 wtime 5000 byoyomi 500");
    let early = e.collect_for(Duration::from_millis(300));
    e.no_bestmove(&early, "go ponder after 300 ms");
    e.send("gameover lose");
    e.await_bestmove(&p, rule, "go ponder + gameover lose");
    e.no_second_bestmove("go ponder + gameover lose");
    let lines = e.quiet("stop");
    assert!(lines.len() <= 1, "idle stop after gameover: {lines:#?}");
    // gameover also ends go infinite.
    e.silent("usinewgame");
    e.silent("position startpos");
    let start = Position::startpos();
    e.start_go("go infinite");
    let early = e.collect_for(Duration::from_millis(300));
    e.no_bestmove(&early, "go infinite after 300 ms");
    e.send("gameover win");
    e.await_bestmove(&start, rule, "go infinite + gameover win");
    e.no_second_bestmove("go infinite + gameover win");
    e.finish();
}

/// quit ends the process with 0 even while a search runs.
#[test]
fn quit_during_go_infinite() {
    let mut e = Engine::start();
    e.sync();
    e.silent("position startpos");
    e.start_go("go infinite");
    let early = e.collect_for(Duration::from_millis(200));
    e.no_bestmove(&early, "go infinite after 200 ms");
    let status = e.quit();
    assert_eq!(status.code(), Some(0), "quit during go infinite: {status}");
}

/// Test 3: searchmoves restricts the answer.
#[test]
fn searchmoves_restricts_the_answer() {
    let rule = EnteringKingRule::CsaRule27;
    let mut e = Engine::start();
    e.sync();
    e.silent("position startpos");
    let start = Position::startpos();
    for _ in 0..3 {
        let mv = e.go("go searchmoves 2g2f 7g7f depth 1", &start, rule);
        assert!(
            mv == "2g2f" || mv == "7g7f",
            "bestmove {mv} outside searchmoves"
        );
        let mv = e.go(
            "go btime 0 wtime 0 byoyomi 200 searchmoves 1g1f",
            &start,
            rule,
        );
        assert_eq!(mv, "1g1f", "the only searchmove");
    }
    e.finish();
}

/// Test 4a: positions with moves but no mate get a legal move.
#[test]
fn bare_kings_get_a_legal_move() {
    let rule = EnteringKingRule::CsaRule27;
    let mut e = Engine::start();
    e.sync();
    for sfen in [
        BARE_KINGS,
        "4k4/9/9/9/9/9/9/9/4K4 w - 1",
        "8k/9/9/9/9/9/9/9/K8 b - 1",
    ] {
        let p = pos(sfen);
        assert!(!p.legal_moves().is_empty());
        e.silent(&format!("position sfen {sfen}"));
        let mv = e.go("go btime 0 wtime 0 byoyomi 100", &p, rule);
        assert!(mv != "resign" && mv != "win", "{sfen}: {mv}");
    }
    e.finish();
}

/// Test 4b: no legal move → resign.
#[test]
fn mated_side_resigns() {
    let rule = EnteringKingRule::CsaRule27;
    let mut e = Engine::start();
    e.sync();
    for sfen in [BLACK_MATED, WHITE_MATED] {
        let p = pos(sfen);
        assert!(p.in_check(), "{sfen} should be check");
        assert!(p.legal_moves().is_empty(), "{sfen} should be mate");
        e.silent(&format!("position sfen {sfen}"));
        let mv = e.go("go btime 0 wtime 0 byoyomi 100", &p, rule);
        assert_eq!(mv, "resign", "{sfen}");
        let mv = e.go("go depth 3", &p, rule);
        assert_eq!(mv, "resign", "{sfen}");
    }
    e.finish();
}

/// Test 4c: entering-king declarations follow the EnteringKingRule option.
#[test]
fn declaration_follows_the_entering_king_rule() {
    let mut e = Engine::start();
    e.sync();
    for sfen in [BLACK_DECLARES, WHITE_DECLARES] {
        let p = pos(sfen);
        assert!(p.can_declare_win(EnteringKingRule::CsaRule27), "{sfen}");
        assert!(!p.can_declare_win(EnteringKingRule::CsaRule24), "{sfen}");
        assert!(!p.legal_moves().is_empty(), "{sfen}");
    }
    let cases = [
        (None, EnteringKingRule::CsaRule27, true),
        (
            Some("NoEnteringKing"),
            EnteringKingRule::NoEnteringKing,
            false,
        ),
        (Some("CSARule24"), EnteringKingRule::CsaRule24, false),
        (Some("csarule27"), EnteringKingRule::CsaRule27, true),
        (Some("TryRule"), EnteringKingRule::TryRule, false),
        (Some("CSARule27"), EnteringKingRule::CsaRule27, true),
    ];
    for (setting, rule, declares) in cases {
        if let Some(value) = setting {
            e.silent(&format!("setoption name EnteringKingRule value {value}"));
        }
        for sfen in [BLACK_DECLARES, WHITE_DECLARES] {
            let p = pos(sfen);
            e.silent(&format!("position sfen {sfen}"));
            let mv = e.go("go btime 0 wtime 0 byoyomi 100", &p, rule);
            if declares {
                assert_eq!(mv, "win", "{sfen} under {setting:?}");
            } else {
                assert!(
                    mv != "win" && mv != "resign",
                    "{sfen} under {setting:?}: {mv}"
                );
            }
        }
    }
    e.finish();
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Valid commands to mutate. None of them names USI_Hash or Threads (a clamped huge value
/// could still allocate or spawn a lot), `isready` (readyok marks the test's own
/// checkpoints), `quit`, or unbounded searches.
fn fuzz_corpus() -> Vec<String> {
    let mut lines: Vec<String> = [
        "usi",
        "usinewgame",
        "d",
        "stop",
        "ponderhit",
        "gameover win",
        "gameover lose",
        "gameover draw",
        "setoption name MultiPV value 2",
        "setoption name USI_Ponder value false",
        "setoption name EnteringKingRule value TryRule",
        "setoption name EnteringKingRule value CSARule27",
        "setoption name BookFile value <empty>",
        "setoption name MaxMovesToDraw value 256",
        "setoption name NetworkDelay value 120",
        "setoption name NetworkDelay2 value 1120",
        "setoption name MinimumThinkingTime value 2000",
        "setoption name SlowMover value 100",
        "position startpos",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e",
        "position startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c",
        "go btime 0 wtime 0 byoyomi 100",
        "go depth 1",
        "go nodes 100",
        "go movetime 10",
        "go searchmoves 7g7f 2g2f depth 1",
        "go btime 100 wtime 100 binc 10 winc 10",
        "go perft 1",
        "go perft 2",
        "go btime 1 wtime 1 byoyomi 100",
        "go nodes 99999999999999999999999 depth 1",
        "go btime x wtime y byoyomi 100",
        "position sfen 4k4/9/4P4/9/9/9/4P4/9/4K4 b G 1",
        "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 4294967295",
        "setoption name MateHash value 99999999999999999999",
        "setoption name BookFile value /dev/zero",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for sfen in [MATSURI, BARE_KINGS, BLACK_DECLARES, WHITE_MATED] {
        lines.push(format!("position sfen {sfen}"));
    }
    lines.push(format!("position sfen {MATSURI} moves G*5a R*5b"));
    lines
}

fn random_bytes(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let n = rng.below(max_len + 1);
    (0..n)
        .map(|_| rng.next() as u8)
        .filter(|&b| b != b'\n')
        .collect()
}

/// One fuzz line (without the newline).
fn fuzz_line(rng: &mut Rng, corpus: &[String], pool: &[String]) -> Vec<u8> {
    let base = rng.pick(corpus).clone();
    let mut tokens: Vec<String> = base.split(' ').map(String::from).collect();
    match rng.below(10) {
        0 => return random_bytes(rng, 80),
        1 => return base.into_bytes(),
        _ => {}
    }
    for _ in 0..1 + rng.below(3) {
        let i = rng.below(tokens.len().max(1));
        match rng.below(7) {
            0 if !tokens.is_empty() => {
                tokens.remove(i);
            }
            1 if !tokens.is_empty() => {
                let t = tokens[i].clone();
                tokens.insert(i, t);
            }
            2 if !tokens.is_empty() => tokens[i] = rng.pick(pool).clone(),
            3 => tokens.insert(i.min(tokens.len()), rng.pick(pool).clone()),
            4 if !tokens.is_empty() => {
                let bytes = random_bytes(rng, 8);
                tokens[i] = String::from_utf8_lossy(&bytes).into_owned();
            }
            5 if !tokens.is_empty() => {
                // Cut a token short.
                let t = &tokens[i];
                let cut = rng.below(t.len() + 1);
                tokens[i] = t.chars().take(cut).collect();
            }
            _ => tokens.truncate(i),
        }
    }
    let sep = [" ", "  ", "\t", " \r"];
    let mut out = String::new();
    for (k, t) in tokens.iter().enumerate() {
        if k > 0 {
            out.push_str(sep[rng.below(sep.len())]);
        }
        out.push_str(t);
    }
    out.into_bytes()
}

/// Keeps a fuzz line only when it cannot end the process or start an unbounded search;
/// a `go` gets `depth 1` so that every search it starts is short.
fn tame(line: Vec<u8>) -> Option<Vec<u8>> {
    let text = String::from_utf8_lossy(&line).into_owned();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    match tokens.first().copied() {
        Some("quit" | "isready") => None,
        Some("go") => {
            let unbounded = ["infinite", "ponder", "perft", "mate"];
            if tokens.iter().any(|t| unbounded.contains(t)) {
                return None;
            }
            let mut line = line;
            line.extend_from_slice(b" depth 1");
            Some(line)
        }
        Some("setoption")
            if tokens.iter().any(|t| {
                let t = t.to_lowercase();
                t == "usi_hash" || t == "threads" || t == "usi_ownbook"
            }) =>
        {
            None
        }
        _ => Some(line),
    }
}

/// Test 5: ten thousand random and mutated lines in one process, then a normal exchange.
#[test]
fn fuzzed_lines_keep_the_engine_alive() {
    let corpus = fuzz_corpus();
    let mut pool: Vec<String> = corpus
        .iter()
        .flat_map(|l| l.split(' ').map(String::from).collect::<Vec<_>>())
        .collect();
    for extra in [
        "-1",
        "0",
        "18446744073709551616",
        "-9223372036854775809",
        "99999999999",
        "",
        "あ",
        "P*5e",
        "1a1a",
        "9i9i+",
        "+",
        "*",
        "/",
        "value",
        "name",
        "moves",
        "sfen",
        "startpos",
        "<empty>",
        "nan",
        "1e9",
    ] {
        pool.push(extra.to_string());
    }
    pool.retain(|t| {
        !matches!(
            t.as_str(),
            "quit" | "isready" | "infinite" | "ponder" | "perft"
        )
    });

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut e = Engine::start();
    e.sync();
    let batches = 20;
    let mut gos = 0;
    let per_batch = 500;
    for batch in 0..batches {
        let mut sent = 0;
        while sent < per_batch {
            let Some(mut line) = tame(fuzz_line(&mut rng, &corpus, &pool)) else {
                continue;
            };
            if line.starts_with(b"go") {
                gos += 1;
            }
            line.push(b'\n');
            e.send_bytes(&line);
            sent += 1;
        }
        e.send("stop");
        e.send("isready");
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match e.recv_until(deadline) {
                Some(l) if l == "readyok" => break,
                Some(_) => {}
                None => {
                    let ctx = e.context();
                    panic!("no readyok after fuzz batch {batch}{ctx}");
                }
            }
        }
    }
    // Let stray bestmoves of the last short searches arrive.
    e.collect_for(Duration::from_millis(300));
    let count = |prefix: &str| e.seen.iter().filter(|l| l.starts_with(prefix)).count();
    eprintln!(
        "fuzz: {} lines sent ({gos} starting with go), {} lines back ({} info string, {} bestmove, {} usiok)",
        e.sent.len(),
        e.seen.len(),
        count("info string"),
        count("bestmove"),
        count("usiok"),
    );
    let lines = e.sync();
    e.no_bestmove(&lines, "the fuzz");
    e.silent("setoption name EnteringKingRule value CSARule27");
    e.silent("setoption name MultiPV value 1");
    e.silent("position startpos");
    let start = Position::startpos();
    e.go(
        "go btime 0 wtime 0 byoyomi 1000",
        &start,
        EnteringKingRule::CsaRule27,
    );
    e.finish();
}
