//! `hayate gensfen`: records that unpack to the positions played, results from each side's
//! view, the same file for the same seed at any concurrency, and resuming.

use hayate::eval::Evaluator;
use hayate::learn::gensfen::{self, GenConfig, GenLimit};
use hayate::learn::packed::{self, PackedSfenValue, RECORD_BYTES};
use hayate::Position;
use std::path::PathBuf;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("hayate-gensfen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config(out: PathBuf, games: usize, concurrency: usize) -> GenConfig {
    GenConfig {
        out,
        games,
        limit: GenLimit::Nodes(300),
        seed: 7,
        concurrency,
        random_plies: 4,
        random_multipv: 4,
        random_margin: 100,
        eval_limit: 2000,
        min_ply: 10,
        keep_checks: false,
        max_plies: 200,
        hash_mib: 4,
        eval: Evaluator::Linear,
        openings: gensfen::default_openings(),
        time_limit: None,
    }
}

fn records(path: &std::path::Path) -> Vec<PackedSfenValue> {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| PackedSfenValue::from_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn records_hold_the_positions_played_with_their_moves_and_results() {
    let dir = TempDir::new("records");
    let out = dir.0.join("data.bin");
    let summary = gensfen::run(&config(out.clone(), 6, 2), |_| {}).unwrap();
    let recs = records(&out);
    assert_eq!(summary.positions, recs.len() as u64);
    assert_eq!(summary.games, 6);
    assert!(recs.len() > 50, "{}", recs.len());
    for r in &recs {
        let pos: Position = packed::unpack(&r.sfen).unwrap();
        assert!(!pos.in_check(), "checks are filtered out: {pos}");
        assert!(r.game_ply >= 10, "opening plies are filtered out");
        assert!(
            r.score.abs() <= 2000,
            "scores past the limit are filtered out"
        );
        let mv = packed::move_from_u16(r.mv).unwrap();
        assert!(pos.is_legal(mv), "{mv} in {pos}");
        assert!((-1..=1).contains(&r.game_result));
    }
    // Consecutive records of one game: the result flips with the side to move, and each
    // position follows from the one before by its move.
    let mut followed = 0;
    for pair in recs.windows(2) {
        let mut a = packed::unpack(&pair[0].sfen).unwrap();
        let b = packed::unpack(&pair[1].sfen).unwrap();
        if pair[1].game_ply == pair[0].game_ply + 1 {
            a.play(packed::move_from_u16(pair[0].mv).unwrap());
            if a == b {
                assert_eq!(pair[0].game_result, -pair[1].game_result);
                followed += 1;
            }
        }
    }
    assert!(followed > recs.len() / 2, "{followed} of {}", recs.len());
}

#[test]
fn the_same_seed_makes_the_same_file_at_any_concurrency_and_after_a_resume() {
    let dir = TempDir::new("determinism");
    let one = dir.0.join("one.bin");
    let two = dir.0.join("two.bin");
    let resumed = dir.0.join("resumed.bin");
    gensfen::run(&config(one.clone(), 5, 1), |_| {}).unwrap();
    gensfen::run(&config(two.clone(), 5, 2), |_| {}).unwrap();
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());

    // Three games, then a partial record as an interruption would leave it, then the
    // run resumed to five games.
    gensfen::run(&config(resumed.clone(), 3, 2), |_| {}).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&resumed)
        .unwrap();
    std::io::Write::write_all(&mut f, &[1u8; 17]).unwrap();
    drop(f);
    let s = gensfen::run(&config(resumed.clone(), 5, 2), |_| {}).unwrap();
    assert_eq!(s.resumed_games, 3);
    assert_eq!(s.games, 2);
    assert_eq!(
        std::fs::read(&one).unwrap(),
        std::fs::read(&resumed).unwrap()
    );

    // Another seed is another run: refused on the same file.
    let mut other = config(resumed.clone(), 5, 1);
    other.seed = 8;
    let e = gensfen::run(&other, |_| {}).unwrap_err().to_string();
    assert!(e.contains("other settings"), "{e}");
}

/// A time limit ends a run of a million games after the games under way, with every
/// game written whole; the run resumes like any other.
#[test]
fn a_time_limit_stops_starting_games() {
    let dir = TempDir::new("time-limit");
    let out = dir.0.join("timed.bin");
    let mut timed = config(out.clone(), 1_000_000, 2);
    timed.time_limit = Some(std::time::Duration::from_millis(300));
    let s = gensfen::run(&timed, |_| {}).unwrap();
    assert!(s.games >= 1 && s.games < 1_000_000, "{} games", s.games);
    let written = records(&out).len() as u64;
    assert_eq!(written, s.positions);
    let again = gensfen::run(&timed, |_| {}).unwrap();
    assert_eq!(again.resumed_games, s.games);
    assert!(records(&out).len() as u64 > written);
}

#[test]
fn gensfen_on_the_command_line_writes_and_reads_records() {
    let dir = TempDir::new("cli");
    let out = dir.0.join("cli.bin");
    let file = out.to_str().unwrap();
    let hayate = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_hayate"))
            .arg("gensfen")
            .args(args)
            .output()
            .unwrap()
    };
    let o = hayate(&[
        "--out",
        file,
        "--games",
        "2",
        "--nodes",
        "200",
        "--seed",
        "3",
        "--min-ply",
        "1",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("positions from 2 games"), "{text}");
    let o = hayate(&["--read", file, "--count", "3"]);
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for l in lines {
        assert!(l.starts_with("sfen ") && l.contains(" score ") && l.contains(" move "));
        assert!(l.contains(" result "), "{l}");
    }
    // The linear evaluation against the scores of its own 200-node searches.
    let o = hayate(&["--read", file, "--evaluate", "linear"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    let correlation: f64 = text
        .split("correlation with the search score ")
        .nth(1)
        .and_then(|t| t.split(',').next())
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(correlation > 0.3, "{text}");
    // An evaluation against itself: correlation 1, no difference.
    let o = hayate(&[
        "--read",
        file,
        "--evaluate",
        "linear",
        "--against",
        "linear",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("correlation with linear's evaluation 1.000")
            && text.contains("rms difference 0 cp"),
        "{text}"
    );
    assert_eq!(
        hayate(&[
            "--read",
            file,
            "--evaluate",
            "linear",
            "--against",
            "/no/net"
        ])
        .status
        .code(),
        Some(2)
    );
    assert_eq!(
        hayate(&["--read", file, "--evaluate", "/no/net"])
            .status
            .code(),
        Some(2)
    );
    let o = hayate(&["--games", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("required") && err.contains("--out"), "{err}");
}

#[test]
fn games_start_from_the_openings_given() {
    let dir = TempDir::new("openings");
    let out = dir.0.join("data.bin");
    // One opening, a position no balanced opening holds: Black has a rook in hand and no
    // rook on the board. With no random plies and min_ply 0, the first record of each game
    // is that position itself.
    let opening = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7B1/LNSGKGSNL b R 1";
    let mut cfg = config(out.clone(), 2, 1);
    cfg.openings = vec![hayate::matches::opening::Opening::parse(opening).unwrap()];
    cfg.random_plies = 0;
    cfg.min_ply = 0;
    gensfen::run(&cfg, |_| {}).unwrap();
    let expected = hayate::position::PositionCommand::strict_position(opening).unwrap();
    let recs = records(&out);
    assert!(!recs.is_empty());
    let first: Position = packed::unpack(&recs[0].sfen).unwrap();
    assert_eq!(first.key(), expected.key(), "{first}");

    cfg.openings.clear();
    let err = gensfen::run(&cfg, |_| {}).unwrap_err();
    assert!(err.to_string().contains("no opening"), "{err}");
}
