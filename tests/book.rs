//! The opening book: the file format, lookups, the book options through the real binary,
//! `hayate makebook` and `hayate bookinfo`, and the book hayate ships.

mod common;

use common::{EngineProcess, BIN};
use hayate::book::format::{self, parse_text, write_book, BookEntry};
use hayate::book::{Book, INTERNAL_BOOK};
use hayate::Position;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// The start after 7g7f.
const AFTER_7G7F: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";

/// A book for the option tests. At the start: 7g7f and 2g2f close in value, 1g1f close but
/// rare, 5i5h far worse but most played, 7f7e illegal. After 7g7f: four equal replies.
fn test_book() -> String {
    format!(
        "#YANEURAOU-DB2016 1.00
sfen {AFTER_7G7F}
3c3d 2g2f 0 16 5
8c8d 2g2f 0 16 5
4a3b none 0 16 5
1c1d none 0 16 5
sfen {START}
7g7f 3c3d 50 20 10
2g2f 8c8d 40 10 10
5i5h none -100 30 1000
1g1f none 45 20 1
7f7e none 60 30 50
"
    )
}

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hayate-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn pos(sfen: &str) -> Position {
    sfen.parse().unwrap()
}

fn after(moves: &[&str]) -> Position {
    let mut p = Position::startpos();
    for m in moves {
        let mv = p.parse_move(m).unwrap();
        p.play_unchecked(mv);
    }
    p
}

/// An engine process with the given options set, after `usi` and `isready`; returns it
/// and what `isready` printed.
fn engine(options: &[String]) -> (EngineProcess, Vec<String>) {
    let mut e = EngineProcess::start("hayate");
    e.send("usi");
    e.expect_line(|l| l == "usiok", "usiok");
    for o in options {
        e.send(o);
    }
    e.send("isready");
    let (_, before) = e.expect_line(|l| l == "readyok", "readyok");
    (e, before)
}

fn set(name: &str, value: impl std::fmt::Display) -> String {
    format!("setoption name {name} value {value}")
}

/// What one `go` printed.
struct Reply {
    best: String,
    ponder: Option<String>,
    lines: Vec<String>,
    took: Duration,
}

impl Reply {
    /// Whether the search ran (an info line with nodes > 0).
    fn searched(&self) -> bool {
        self.lines.iter().any(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            l.starts_with("info ")
                && !l.starts_with("info string")
                && w.iter()
                    .position(|&t| t == "nodes")
                    .and_then(|i| w.get(i + 1))
                    .is_some_and(|n| *n != "0")
        })
    }

    fn book_move(&self) -> bool {
        self.lines
            .iter()
            .any(|l| l.starts_with("info string book move"))
    }
}

fn go(e: &mut EngineProcess, position: &str, go: &str) -> Reply {
    e.send(&format!("position {position}"));
    let t = Instant::now();
    e.send(&format!("go {go}"));
    let (line, lines) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
    let took = t.elapsed();
    let w: Vec<&str> = line.split_whitespace().collect();
    Reply {
        best: w[1].to_string(),
        ponder: w.get(3).map(|s| s.to_string()),
        lines,
        took,
    }
}

fn quit(mut e: EngineProcess) {
    let status = e.quit();
    assert_eq!(status.code(), Some(0));
    let err = String::from_utf8_lossy(&e.stderr.lock().unwrap()).into_owned();
    assert!(!err.contains("panicked"), "{err}");
}

// ---------------------------------------------------------------------------------------
// The format and lookups

#[test]
fn parse_print_round_trip_through_a_file() {
    let (mut entries, errors) = parse_text(&test_book());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(entries.len(), 2);
    let mut out = Vec::new();
    write_book(&mut out, &mut entries, &["a comment".to_string()]).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n# a comment\nsfen "));
    // Sorted by SFEN, and parsing the print gives the same entries.
    let sfens: Vec<&str> = text.lines().filter(|l| l.starts_with("sfen ")).collect();
    let mut sorted = sfens.clone();
    sorted.sort();
    assert_eq!(sfens, sorted);
    let (again, errors) = parse_text(&text);
    assert!(errors.is_empty());
    assert_eq!(again, entries);
    // Every line printed is the line read.
    for line in test_book().lines().filter(|l| !l.starts_with('#')) {
        assert!(text.lines().any(|l| l == line), "{line:?} lost");
    }
}

#[test]
fn lookups_match_the_position_at_any_ply() {
    let dir = temp_dir("lookup");
    let path = write(&dir, "b.db", &test_book());
    let book = Book::open(&path).unwrap();
    assert_eq!(book.len(), 2);
    let at_start = book.probe(&Position::startpos()).unwrap();
    assert_eq!(at_start.len(), 5);
    assert_eq!(at_start[0].to_string(), "7g7f 3c3d 50 20 10");
    // The same positions written with other move numbers, or reached by moves.
    let board = START.trim_end_matches(" 1");
    assert_eq!(book.probe(&pos(&format!("{board} 77"))).unwrap(), at_start);
    assert_eq!(book.probe(&pos(board)).unwrap(), at_start);
    let reached = after(&["7g7f"]);
    assert_eq!(reached.ply(), 2);
    assert_eq!(book.probe(&reached).unwrap().len(), 4);
    let board = AFTER_7G7F.trim_end_matches(" 2");
    assert_eq!(book.probe(&pos(&format!("{board} 31"))).unwrap().len(), 4);
    // A knight-dance transposition back to the start board at ply 5 still matches.
    let again = after(&["7i6h", "3a4b", "6h7i", "4b3a"]);
    assert_eq!(again.ply(), 5);
    assert_eq!(book.probe(&again).unwrap(), at_start);
    // Not in the book: the other side to move, other hands, another board.
    let white_to_move = START.replace(" b ", " w ");
    assert!(book.probe(&pos(&white_to_move)).unwrap().is_empty());
    assert!(book.probe(&after(&["2g2f"])).unwrap().is_empty());
    let hands = START
        .replace(" - ", " P ")
        .replace("PPPPPPPPP/", "PPPPPPPP1/");
    assert!(book.probe(&pos(&hands)).unwrap().is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn malformed_lines_are_reported_and_skipped() {
    let text = format!(
        "#YANEURAOU-DB2016 1.00\n\
         7g7f none 0 0 1\n\
         sfen {START}\n\
         2g2f 8c8d 10 10 1\n\
         2g2f 8c8d ten 10 1\n\
         sfen this is not a position\n\
         3c3d none 0 0 1\n\
         sfen {AFTER_7G7F}\n\
         3c3d 2g2f 0 16 5 extra\n\
         8c8d\n"
    );
    let (entries, errors) = parse_text(&text);
    let messages: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(messages.len(), 5, "{messages:#?}");
    for (m, line) in messages.iter().zip([2, 5, 6, 7, 9]) {
        assert!(m.starts_with(&format!("line {line}: ")), "{m}");
    }
    assert!(messages[1].contains("value 'ten'"));
    assert!(messages[2].contains("bad sfen"));
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].moves.len(), 1, "8c8d kept, the bad line dropped");

    // The engine reports the same lines and plays from what is left.
    let dir = temp_dir("malformed");
    let path = write(&dir, "bad.db", &text);
    let (mut e, notes) = engine(&[set("BookFile", path.display()), set("BookSeed", 3)]);
    for line in [2, 5, 6, 7, 9] {
        let prefix = format!("info string book: line {line}: ");
        assert!(
            notes.iter().any(|l| l.starts_with(&prefix)),
            "no {prefix:?} in {notes:#?}"
        );
    }
    assert!(
        notes.iter().any(|l| l.contains("book: 2 positions from")),
        "{notes:#?}"
    );
    let r = go(&mut e, "startpos", "btime 0 wtime 0 byoyomi 1000");
    assert_eq!(r.best, "2g2f");
    assert_eq!(r.ponder.as_deref(), Some("8c8d"));
    // The book's reply to 7g7f, played without a search.
    let replies_from_the_book = |e: &mut EngineProcess| {
        let r = go(e, "startpos moves 7g7f", "btime 0 wtime 0 byoyomi 1000");
        assert_eq!(r.best, "8c8d");
        assert!(!r.searched());
    };
    replies_from_the_book(&mut e);
    // A file that does not exist leaves the book that was loaded.
    e.send(&set("BookFile", dir.join("gone.db").display()));
    e.send("isready");
    let (_, notes) = e.expect_line(|l| l == "readyok", "readyok");
    assert!(
        notes.len() == 1 && notes[0].contains("gone.db") && notes[0].contains("stays"),
        "{notes:#?}"
    );
    replies_from_the_book(&mut e);
    // A file that is not a book at all, then one that does not exist: reported, and the
    // engine searches.
    let junk = write(&dir, "junk.db", &"\u{1}\u{2} not a book\n".repeat(50));
    e.send(&set("BookFile", junk.display()));
    e.send("isready");
    let (_, notes) = e.expect_line(|l| l == "readyok", "readyok");
    assert!(notes.iter().any(|l| l.contains("40 more malformed lines")));
    assert!(notes.iter().any(|l| l.contains("holds no position")));
    e.send(&set("BookFile", dir.join("missing.db").display()));
    e.send("isready");
    let (_, notes) = e.expect_line(|l| l == "readyok", "readyok");
    assert!(
        notes
            .iter()
            .any(|l| l.starts_with("info string book: cannot read") && l.contains("missing.db")),
        "{notes:#?}"
    );
    let r = go(&mut e, "startpos", "nodes 2000");
    assert!(r.searched() && !r.book_move());
    quit(e);
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// The engine with a book

/// The built-in book's moves at the start position.
fn internal_start_moves() -> Vec<String> {
    Book::internal()
        .probe(&Position::startpos())
        .unwrap()
        .iter()
        .map(|m| m.mv.to_string())
        .collect()
}

#[test]
fn a_book_file_refused_at_the_first_isready_leaves_the_built_in_book() {
    // GUIs send BookFile before the first isready: when it names no file, the engine
    // keeps its default, the built-in book.
    let internal = internal_start_moves();
    let (mut e, notes) = engine(&[set("BookFile", "no-such-folder/standard_book.db")]);
    assert!(
        notes.len() == 1
            && notes[0].starts_with("info string book: cannot read")
            && notes[0].contains("the built-in book stays"),
        "{notes:#?}"
    );
    let r = go(&mut e, "startpos", "btime 0 wtime 0 byoyomi 10000");
    assert!(internal.contains(&r.best), "{} not in {internal:?}", r.best);
    assert!(r.book_move() && !r.searched(), "{:#?}", r.lines);
    quit(e);
}

#[test]
fn a_book_move_is_played_at_once_at_the_start() {
    let internal = internal_start_moves();
    assert!(!internal.is_empty());
    // No option set: the built-in book is on, loaded without a word at isready.
    let (mut e, notes) = engine(&[]);
    assert!(notes.is_empty(), "{notes:#?}");
    for _ in 0..5 {
        let r = go(&mut e, "startpos", "btime 0 wtime 0 byoyomi 10000");
        assert!(internal.contains(&r.best), "{} not in {internal:?}", r.best);
        assert!(r.book_move() && !r.searched(), "{:#?}", r.lines);
        // Generous: a book move takes well under a millisecond; a search would take the
        // byoyomi's seconds.
        assert!(r.took < Duration::from_millis(500), "{:?}", r.took);
        // The info line carries the book's value and the move.
        let info = r
            .lines
            .iter()
            .find(|l| l.starts_with("info depth"))
            .expect("a pv line");
        assert!(info.contains(" nodes 0 ") && info.contains(&format!(" pv {}", r.best)));
    }
    // Analysis commands search even at a book position.
    let r = go(&mut e, "startpos", "depth 3");
    assert!(r.searched() && !r.book_move());
    let r = go(&mut e, "startpos", "movetime 50");
    assert!(r.searched() && !r.book_move());
    quit(e);
}

#[test]
fn book_options_decide_whether_the_book_answers() {
    let dir = temp_dir("options");
    let path = write(&dir, "b.db", &test_book());
    let file = set("BookFile", path.display());
    let clock = "btime 0 wtime 0 byoyomi 1000";

    // USI_OwnBook false, BookFile no_book or empty: no book.
    for off in [
        set("USI_OwnBook", false),
        set("BookFile", "no_book"),
        "setoption name BookFile value".to_string(),
    ] {
        let (mut e, notes) = engine(&[file.clone(), off.clone()]);
        assert!(!notes.iter().any(|l| l.contains("positions from")), "{off}");
        let r = go(&mut e, "startpos", "nodes 3000");
        assert!(r.searched() && !r.book_move(), "{off}: {:#?}", r.lines);
        quit(e);
    }

    // BookMoves: the start is ply 1, so 0 turns the book off there; a start position
    // written at ply 30 is out of a 24-ply book and in a 30-ply one.
    let (mut e, _) = engine(&[file.clone(), set("BookMoves", 0)]);
    assert!(!go(&mut e, "startpos", "nodes 3000").book_move());
    e.send(&set("BookMoves", 1));
    assert!(go(&mut e, "startpos", clock).book_move());
    let board = START.trim_end_matches(" 1");
    e.send(&set("BookMoves", 24));
    assert!(!go(&mut e, &format!("sfen {board} 30"), "nodes 3000").book_move());
    e.send(&set("BookMoves", 30));
    assert!(go(&mut e, &format!("sfen {board} 30"), clock).book_move());
    quit(e);

    // Changing BookFile takes effect at the next isready.
    let (mut e, _) = engine(&[set("BookFile", "no_book")]);
    e.send(&file);
    assert!(!go(&mut e, "startpos", "nodes 3000").book_move());
    e.send("isready");
    e.expect_line(|l| l == "readyok", "readyok");
    assert!(go(&mut e, "startpos", clock).book_move());
    quit(e);
    std::fs::remove_dir_all(&dir).ok();
}

/// The moves the engine chooses at the start in `n` tries with these options.
fn choices(options: &[String], n: usize) -> Vec<String> {
    let (mut e, _) = engine(options);
    let mut out = Vec::new();
    for _ in 0..n {
        let r = go(&mut e, "startpos", "btime 0 wtime 0 byoyomi 1000");
        out.push(r.best);
    }
    quit(e);
    out
}

#[test]
fn filters_and_illegal_moves() {
    let dir = temp_dir("filters");
    let path = write(&dir, "b.db", &test_book());
    let base = vec![set("BookFile", path.display()), set("BookSeed", 11)];
    let with = |extra: &[String]| {
        let mut o = base.clone();
        o.extend_from_slice(extra);
        o
    };
    let only = |moves: &[String], allowed: &[&str]| {
        assert!(
            moves.iter().all(|m| allowed.contains(&m.as_str())),
            "{moves:?} outside {allowed:?}"
        );
    };

    // The illegal 7f7e (the best value) is reported and never played; BookEvalDiff 30
    // keeps 7g7f (50), 1g1f (45), 2g2f (40) and leaves out 5i5h (-100).
    let (mut e, _) = engine(&base);
    let r = go(&mut e, "startpos", "btime 0 wtime 0 byoyomi 1000");
    assert!(
        r.lines
            .iter()
            .any(|l| l.starts_with("info string book: skipping") && l.contains("7f7e")),
        "{:#?}",
        r.lines
    );
    quit(e);
    let moves = choices(&base, 30);
    only(&moves, &["7g7f", "2g2f", "1g1f"]);
    assert!(moves.contains(&"7g7f".to_string()) && moves.contains(&"2g2f".to_string()));

    only(&choices(&with(&[set("BookEvalDiff", 0)]), 10), &["7g7f"]);
    // A wide margin lets the most played move in: 1000 of its 1021 counts.
    let wide = choices(&with(&[set("BookEvalDiff", 1000)]), 20);
    assert!(
        wide.iter().filter(|m| *m == "5i5h").count() >= 15,
        "{wide:?}"
    );
    // Depth 20 or more: 2g2f (depth 10) goes.
    only(
        &choices(&with(&[set("BookDepthLimit", 20)]), 20),
        &["7g7f", "1g1f"],
    );
    // NarrowBook: 1g1f has 1 of 21 counts, under 10 %.
    only(
        &choices(&with(&[set("NarrowBook", true)]), 30),
        &["7g7f", "2g2f"],
    );

    // BookIgnoreRate 100: always searched; 0 (default): never.
    let (mut e, _) = engine(&with(&[set("BookIgnoreRate", 100)]));
    for _ in 0..3 {
        let r = go(&mut e, "startpos", "nodes 2000");
        assert!(r.searched() && !r.book_move());
        assert!(r.lines.iter().any(|l| l.contains("BookIgnoreRate")));
    }
    quit(e);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_seed_makes_choices_repeatable() {
    let dir = temp_dir("seed");
    let path = write(&dir, "b.db", &test_book());
    // After 7g7f the book has four equal replies.
    let run = |seed: u32| {
        let (mut e, _) = engine(&[set("BookFile", path.display()), set("BookSeed", seed)]);
        let moves: Vec<String> = (0..24)
            .map(|_| {
                go(
                    &mut e,
                    "startpos moves 7g7f",
                    "btime 0 wtime 0 byoyomi 1000",
                )
                .best
            })
            .collect();
        quit(e);
        moves
    };
    let a = run(7);
    assert_eq!(a, run(7));
    assert_ne!(a, run(8));
    for m in ["3c3d", "8c8d", "4a3b", "1c1d"] {
        assert!(a.contains(&m.to_string()), "{m} never chosen in {a:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn go_ponder_on_a_book_move_waits_for_ponderhit_or_stop() {
    let (mut e, _) = engine(&[]);
    for end in ["ponderhit", "stop"] {
        e.send("position startpos");
        e.send("go ponder btime 0 wtime 0 byoyomi 1000");
        let early = e.collect_for(Duration::from_millis(300));
        assert!(
            !early.iter().any(|l| l.starts_with("bestmove")),
            "{early:#?}"
        );
        assert!(early.iter().any(|l| l.starts_with("info string book move")));
        // isready while pondering answers without ending the ponder.
        e.send("isready");
        let (_, during) = e.expect_line(|l| l == "readyok", "readyok");
        assert!(!during.iter().any(|l| l.starts_with("bestmove")));
        e.send(end);
        let (best, _) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
        let mv = best.split_whitespace().nth(1).unwrap();
        assert!(Position::startpos().parse_move(mv).is_ok(), "{best}");
        let late = e.collect_for(Duration::from_millis(200));
        assert!(!late.iter().any(|l| l.starts_with("bestmove")), "{late:#?}");
    }
    quit(e);
}

// ---------------------------------------------------------------------------------------
// Making books

fn hayate(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run hayate");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every move and ponder move of every entry is legal in its position.
fn check_legal(entries: &[BookEntry]) {
    for e in entries {
        let p = pos(&e.sfen);
        assert!(!e.moves.is_empty(), "{}", e.sfen);
        for m in &e.moves {
            assert!(p.is_legal(m.mv), "{m} in {}", e.sfen);
            if let Some(reply) = m.ponder {
                let mut q = p.clone();
                q.play_unchecked(m.mv);
                assert!(q.is_legal(reply), "ponder of {m} in {}", e.sfen);
            }
        }
    }
}

#[test]
fn makebook_on_a_tiny_opening_file_and_extend() {
    let dir = temp_dir("makebook");
    let openings = write(
        &dir,
        "o.sfen",
        "# two lines\nstartpos moves 7g7f 3c3d\nstartpos moves 7g7f 8c8d 2g2f\n",
    );
    let out = dir.join("book/out.db");
    let (ok, stdout, stderr) = hayate(&[
        "makebook",
        "--openings",
        openings.to_str().unwrap(),
        "--depth",
        "4",
        "--multipv",
        "2",
        "--plies",
        "1",
        "--threads",
        "2",
        "--hash",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    // Along the lines: start, 7g7f, 7g7f 3c3d, 7g7f 8c8d, 7g7f 8c8d 2g2f; one ply more
    // from each of the two ends.
    assert!(stdout.contains("7 positions (7 searched"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("#YANEURAOU-DB2016 1.00\n"));
    assert!(text.contains("# hayate makebook --openings"));
    let (entries, errors) = parse_text(&text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(entries.len(), 7);
    check_legal(&entries);
    let sfens: Vec<&String> = entries.iter().map(|e| &e.sfen).collect();
    let mut sorted = sfens.clone();
    sorted.sort();
    assert_eq!(sfens, sorted, "sorted by SFEN");
    for e in &entries {
        assert!(e.moves.len() <= 2);
        assert!(e.moves.iter().all(|m| m.depth == 4 && m.count >= 1));
        assert!(e.moves.windows(2).all(|w| w[0].value >= w[1].value));
    }
    // After 7g7f both replies are on the lines; a line's move counts once more if the
    // search keeps it.
    let start = entries
        .iter()
        .find(|e| format!("{} 1", e.sfen) == START)
        .unwrap();
    assert_eq!(start.ply, 1);
    if let Some(m) = start.moves.iter().find(|m| m.mv.to_string() == "7g7f") {
        assert_eq!(m.count, 3, "two lines play 7g7f");
    }
    let book = Book::open(&out).unwrap();
    assert_eq!(book.len(), 7);

    // Extending with a new line: the old entries stay (not searched again at the same
    // depth), the new positions are added.
    let more = write(&dir, "more.sfen", "startpos moves 2g2f 8c8d\n");
    let out2 = dir.join("out2.db");
    let (ok, stdout, stderr) = hayate(&[
        "makebook",
        "--openings",
        more.to_str().unwrap(),
        "--depth",
        "4",
        "--threads",
        "1",
        "--extend",
        out.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("9 positions (2 searched, 7 kept"),
        "{stdout}"
    );
    let (extended, errors) = parse_text(&std::fs::read_to_string(&out2).unwrap());
    assert!(errors.is_empty());
    check_legal(&extended);
    for old in &entries {
        assert!(extended.contains(old), "{} lost", old.sfen);
    }
    // Searching the old positions deeper replaces them.
    let (ok, stdout, _) = hayate(&[
        "makebook",
        "--openings",
        openings.to_str().unwrap(),
        "--depth",
        "5",
        "--extend",
        out2.to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert!(ok);
    assert!(
        stdout.contains("9 positions (5 searched, 4 kept"),
        "{stdout}"
    );

    // A book tree: from the start, every move within 50 cp of the best is followed for
    // two plies, and every position reached is in the book.
    let start_only = write(&dir, "start.sfen", "startpos\n");
    let tree = dir.join("tree.db");
    let (ok, stdout, stderr) = hayate(&[
        "makebook",
        "--openings",
        start_only.to_str().unwrap(),
        "--depth",
        "3",
        "--multipv",
        "3",
        "--tree",
        "2",
        "--out",
        tree.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    let (entries, errors) = parse_text(&std::fs::read_to_string(&tree).unwrap());
    assert!(errors.is_empty());
    check_legal(&entries);
    // At least the start and one line two plies deep (one move within 50 cp at each
    // ply), at most the start, its three best moves and three replies to each.
    assert!((3..=13).contains(&entries.len()), "{}", entries.len());
    let find = |p: &Position| entries.iter().find(|e| e.sfen == format::position_sfen(p));
    let root = find(&Position::startpos()).expect("the start");
    let best = root.moves.iter().map(|m| m.value).max().unwrap();
    for m in root.moves.iter().filter(|m| m.value >= best - 50) {
        let mut child = Position::startpos();
        child.play_unchecked(m.mv);
        let e = find(&child).unwrap_or_else(|| panic!("after {m} not in the tree"));
        assert_eq!(e.ply, 2);
    }
    assert!(entries.iter().all(|e| e.ply <= 3));

    // Bad arguments and inputs: a message, no panic.
    let (ok, _, stderr) = hayate(&["makebook", "--depth", "4", "--out", "x.db"]);
    assert!(!ok && stderr.contains("--openings"), "{stderr}");
    let bad = write(&dir, "bad.sfen", "startpos moves 7g7f 7g7f\n");
    let (ok, _, stderr) = hayate(&[
        "makebook",
        "--openings",
        bad.to_str().unwrap(),
        "--depth",
        "2",
        "--out",
        dir.join("x.db").to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("line 1"), "{stderr}");
    assert!(!stderr.contains("panicked"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn makebook_searches_with_the_evaluation_it_is_given() {
    // Each book position is searched as `go depth` searches over USI with the same
    // evaluation: the same move and value, whichever evaluation.
    let dir = temp_dir("makebook-eval");
    let start_only = write(&dir, "start.sfen", "startpos\n");
    for eval in ["internal", "linear"] {
        let out = dir.join(format!("{eval}.db"));
        let (ok, stdout, stderr) = hayate(&[
            "makebook",
            "--openings",
            start_only.to_str().unwrap(),
            "--depth",
            "3",
            "--threads",
            "1",
            "--evalfile",
            eval,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(ok, "{stdout}{stderr}");
        let (entries, errors) = parse_text(&std::fs::read_to_string(&out).unwrap());
        assert!(errors.is_empty() && entries.len() == 1, "{errors:?}");
        let booked = &entries[0].moves[0];

        let (mut e, _) = engine(&[set("EvalFile", eval), set("USI_OwnBook", "false")]);
        e.send("position startpos");
        e.send("go depth 3");
        let (best, before) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
        e.quit();
        let last = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 3 "))
            .expect("a depth-3 line");
        let words: Vec<&str> = last.split_whitespace().collect();
        let cp = words.iter().position(|&w| w == "cp").expect("score cp");
        assert_eq!(words[cp + 1], booked.value.to_string(), "{eval}: {last}");
        assert_eq!(
            best.split_whitespace().nth(1),
            Some(booked.mv.to_string().as_str()),
            "{eval}"
        );
    }
    let (ok, _, stderr) = hayate(&[
        "makebook",
        "--openings",
        start_only.to_str().unwrap(),
        "--depth",
        "3",
        "--evalfile",
        dir.join("missing.bin").to_str().unwrap(),
        "--out",
        dir.join("x.db").to_str().unwrap(),
    ]);
    assert!(!ok && stderr.contains("--evalfile"), "{stderr}");
    assert!(!stderr.contains("panicked"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn synthetic_books_and_bookinfo() {
    let dir = temp_dir("synthetic");
    let path = dir.join("s.db");
    let (ok, stdout, stderr) = hayate(&[
        "makebook",
        "--synthetic",
        "3000",
        "--seed",
        "5",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    let (ok, stdout, stderr) = hayate(&["bookinfo", path.to_str().unwrap(), "--probe", "startpos"]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("3000 positions, 0 malformed lines"),
        "{stdout}"
    );
    assert!(stdout.contains("loaded in"));
    assert!(stdout.lines().any(|l| l.contains("book moves for")));
    let (ok, _, stderr) = hayate(&["bookinfo", dir.join("none.db").to_str().unwrap()]);
    assert!(!ok && stderr.contains("cannot read"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The 1M-position load figures of docs/book.md: `cargo test --release --test book -- --ignored`.
#[test]
#[ignore = "writes a ~150 MB book; run by hand for the load-time figures"]
fn a_million_positions_load_in_seconds() {
    let dir = temp_dir("million");
    let path = dir.join("m.db");
    let (ok, stdout, stderr) = hayate(&[
        "makebook",
        "--synthetic",
        "1000000",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    println!("{stdout}");
    let started = Instant::now();
    let book = Book::open(&path).unwrap();
    let load = started.elapsed();
    println!("loaded {} positions in {load:?}", book.len());
    assert_eq!(book.len(), 1_000_000);
    assert!(book.index_bytes() <= 17_000_000);
    assert!(load < Duration::from_secs(20), "{load:?}");
    let started = Instant::now();
    assert!(!book.probe(&Position::startpos()).unwrap().is_empty());
    assert!(started.elapsed() < Duration::from_millis(100));
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// The book hayate ships

#[test]
fn the_shipped_book_is_sorted_legal_and_small() {
    assert!(
        INTERNAL_BOOK.len() < 2 << 20,
        "{} bytes",
        INTERNAL_BOOK.len()
    );
    assert!(INTERNAL_BOOK.starts_with(format::HEADER));
    assert!(
        INTERNAL_BOOK.contains("# hayate makebook"),
        "the file says how it was made"
    );
    let (entries, errors) = parse_text(INTERNAL_BOOK);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(entries.len() > 1000, "{} positions", entries.len());
    check_legal(&entries);
    let sfens: Vec<&String> = entries.iter().map(|e| &e.sfen).collect();
    assert!(sfens.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
    // The start has a choice.
    let start = Book::internal().probe(&Position::startpos()).unwrap();
    assert!(start.len() >= 2, "{start:?}");
}
