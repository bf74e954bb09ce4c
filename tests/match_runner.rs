//! `hayate match` against engines that misbehave in every way the runner must survive, and
//! a short real match hayate vs hayate through the binary.
//!
//! The misbehaving engines are `tests/fake_engine/fake_usi.py` (Python 3): it answers the
//! protocol itself and asks a real hayate for its moves, so it plays legally until its mode
//! makes it crash, hang, play an illegal or unparsable move, resign, declare wrongly, flood
//! stderr or sleep past its time. Each test checks the result, the reason, that the runner
//! finished within a bound, and that one record per game was written.

use hayate::matches::game::{EndReason, GameRecord, Outcome};
use hayate::matches::{self, cli, MatchReport};
use hayate::position::EnteringKingRule;
use hayate::{Color, Position};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engine/fake_usi.py");

/// The fake engine's command line in `mode` (with its own arguments).
fn fake(mode: &str) -> String {
    format!("python3 '{FAKE}' {mode} --hayate '{HAYATE}'")
}

/// A scratch folder removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("hayate-match-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Plays a match in-process with `args` (plus `--out` in a scratch folder). Returns the
/// report, the progress output and how long it took; panics past `bound`.
fn play(name: &str, args: &[&str], bound: Duration) -> (MatchReport, String, TempDir) {
    let dir = TempDir::new(name);
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.push("--out".into());
    args.push(dir.0.join("records").display().to_string());
    let config = cli::parse(&args).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = Vec::new();
    let start = Instant::now();
    let report = matches::run_match(&config, &mut out).unwrap_or_else(|e| panic!("{name}: {e}"));
    let elapsed = start.elapsed();
    let output = String::from_utf8(out).unwrap();
    assert!(
        elapsed < bound,
        "{name}: took {elapsed:?}, bound {bound:?}\n{output}"
    );
    // One record per game in both files.
    let json = std::fs::read_to_string(&report.json_path).unwrap();
    assert_eq!(json.lines().count(), report.games.len(), "{name}");
    let csa = std::fs::read_to_string(&report.csa_path).unwrap();
    assert_eq!(
        csa.lines().filter(|l| *l == "V2.2").count(),
        report.games.len()
    );
    (report, output, dir)
}

/// hayate (engine 1) against the fake in `mode` (engine 2), two games so the fake plays
/// both colours and has to be restarted after a fatal fault. Every game must be lost by
/// the fake for `reason`, with `detail` in the recorded detail.
fn fake_loses(mode: &str, extra: &[&str], reason: EndReason, detail: &str) -> MatchReport {
    let command = fake(mode);
    let mut args = vec![
        "--byoyomi",
        "300",
        // Generous, so that neither hayate nor the fake (a Python script, slow to answer
        // on a machine busy with other builds) runs out of time by accident.
        "--margin",
        "3000",
        "--ready-timeout",
        "3000",
        "--engine",
        HAYATE,
        "--name",
        "hayate",
        "--engine",
        &command,
        "--name",
        "fake",
        "--games",
        "2",
        "--max-moves",
        "40",
    ];
    args.extend_from_slice(extra);
    let name = mode.split_whitespace().next().unwrap();
    let (report, output, _dir) = play(name, &args, Duration::from_secs(30));
    assert_eq!(report.games.len(), 2, "{output}");
    for g in &report.games {
        assert_eq!(g.reason, reason, "{mode}: {g:?}\n{output}");
        assert_eq!(g.outcome, Outcome::Win(g.color_of(0)), "{mode}: {g:?}");
        assert!(g.detail.contains(detail), "{mode}: {:?}", g.detail);
    }
    assert_eq!((report.tally.wins, report.tally.losses), (2, 0));
    assert!(output.contains("games lost by fake to faults") || !reason.is_fault());
    report
}

#[test]
fn an_engine_that_crashes_mid_game_loses_and_is_restarted() {
    // The fake plays two moves, then exits on its third `go`. The second game gets that
    // far again only if the crashed process was replaced.
    let report = fake_loses(
        "crash --after 2",
        &[],
        EndReason::Crash,
        "crashing on purpose",
    );
    for g in &report.games {
        assert!(g.moves.len() >= 4, "{g:?}");
        // Byoyomi only: every move's clock limit is the 300 ms byoyomi.
        assert!(g.moves.iter().all(|m| m.limit_ms == Some(300)), "{g:?}");
    }
}

#[test]
fn an_engine_that_exits_at_usi_loses_before_the_first_move() {
    let report = fake_loses("crashstart", &[], EndReason::Crash, "exited");
    assert!(report.games.iter().all(|g| g.moves.is_empty()));
}

#[test]
fn an_engine_that_never_answers_go_loses_on_time() {
    let report = fake_loses("hang", &[], EndReason::TimeUp, "no bestmove within 3300 ms");
    assert!(report.games.iter().all(|g| g.moves.len() <= 1));
}

#[test]
fn an_engine_that_sleeps_past_its_time_loses_on_time_without_waiting_for_it() {
    // It would answer after 30 s; the runner must not wait that long (the bound is 30 s
    // for both games together).
    fake_loses(
        "slow --after 1 --sleep 30",
        &[],
        EndReason::TimeUp,
        "no bestmove",
    );
}

#[test]
fn an_engine_that_never_answers_isready_loses() {
    fake_loses(
        "noready",
        &["--ready-timeout", "700"],
        EndReason::NotReady,
        "no readyok within 700 ms",
    );
}

#[test]
fn illegal_and_unparsable_moves_lose() {
    fake_loses("illegal --after 1", &[], EndReason::IllegalMove, "1a3b");
    fake_loses("garbage", &[], EndReason::UnparsableMove, "'xyz'");
}

#[test]
fn resignation_and_a_wrong_declaration_lose() {
    fake_loses("resign --after 2", &[], EndReason::Resign, "resigned");
    fake_loses(
        "win",
        &["--rule", "CSARule24"],
        EndReason::WrongDeclaration,
        "CSARule24",
    );
}

/// hayate against the fake in `mode`, two games of at most `max_moves` plies under the
/// time options `time` (for both).
fn two_games(mode: &str, time: &[&str], max_moves: u32) -> (MatchReport, String, TempDir) {
    let command = fake(mode);
    let max_moves = max_moves.to_string();
    let mut args = time.to_vec();
    args.extend_from_slice(&[
        "--engine",
        HAYATE,
        "--engine",
        &command,
        "--games",
        "2",
        "--max-moves",
        &max_moves,
    ]);
    play(mode, &args, Duration::from_secs(60))
}

#[test]
fn an_engine_flooding_stderr_plays_on() {
    let (report, output, _dir) = two_games("stderr", &["--nodes", "1000"], 30);
    // Names from `id name`.
    assert!(report.names[0].starts_with("hayate "), "{:?}", report.names);
    assert_eq!(report.names[1], "fake-stderr");
    for g in &report.games {
        assert!(!g.reason.is_fault(), "{g:?}\n{output}");
        assert!(!g.moves.is_empty());
    }
}

#[test]
fn an_engine_flooding_stdout_while_the_other_thinks_loses_as_faulty() {
    // 20 MB of info lines after its first move, while hayate thinks: more than the runner
    // keeps unread, so the fake loses at its next turn instead of growing the runner.
    fake_loses(
        "flood --flood 20000000",
        &[],
        EndReason::Flooded,
        "flooded its output",
    );
}

#[test]
fn a_stale_second_bestmove_is_not_taken_as_the_next_answer() {
    // Every answer is followed by "bestmove 1a3b": read as the answer to the next go it
    // would lose by an illegal move. Discarded, the games run to the move limit. The
    // moves take 50-100 ms (no book moves), so the stale line has arrived before the
    // fake's next turn: one that comes after the next `go` was sent cannot be told from
    // an answer (at 1000 nodes hayate replied within a millisecond, and sometimes the
    // stale line had not arrived yet). The margin is wide because the fake starts its
    // own hayate at its first `go`: with the other tests of this file starting engines
    // on two cores, that start once took past a 1000 ms margin (a time loss, not the
    // fault this test is about).
    let (report, output, _dir) = two_games(
        "stale",
        &[
            "--byoyomi",
            "100",
            "--margin",
            "5000",
            "--option",
            "USI_OwnBook=false",
        ],
        20,
    );
    for g in &report.games {
        assert!(!g.reason.is_fault(), "{g:?}\n{output}");
        assert!(g.moves.len() >= 10, "{g:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn an_engine_behind_a_wrapper_script_is_ended_with_its_group() {
    // `sh -c '...; true'` keeps the shell as the direct child; the fake behind it ignores
    // quit and the end of its input. Killing only the shell would leave it running.
    let dir = TempDir::new("wrapper");
    let pidfile = dir.file("pid");
    let inner = format!(
        "python3 {FAKE} deaf --pidfile {} --hayate {HAYATE}; true",
        pidfile.display()
    );
    let command = format!("sh -c \"{inner}\"");
    let (report, output, _out) = play(
        "wrapper",
        &[
            "--nodes",
            "500",
            "--engine",
            HAYATE,
            "--engine",
            &command,
            "--games",
            "1",
            "--max-moves",
            "6",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(report.games.len(), 1, "{output}");
    let pid = std::fs::read_to_string(&pidfile).expect("the fake wrote its pid");
    let proc_dir = PathBuf::from(format!("/proc/{}", pid.trim()));
    let deadline = Instant::now() + Duration::from_secs(3);
    // A killed process lingers as a zombie until its parent (the shell, killed too) is
    // reaped; "gone" is no process or a zombie.
    let alive = || {
        std::fs::read_to_string(proc_dir.join("stat"))
            .map(|stat| !stat.split(") ").nth(1).is_some_and(|r| r.starts_with('Z')))
            .unwrap_or(false)
    };
    while alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        !alive(),
        "the engine behind the wrapper still runs (pid {pid})"
    );
}

/// One game between two scripted fakes from `opening` (a file line).
fn scripted(
    name: &str,
    opening: &str,
    black: &str,
    white: &str,
    extra: &[&str],
) -> (GameRecord, String) {
    let dir = TempDir::new(&format!("{name}-openings"));
    let openings = dir.file("openings.txt");
    std::fs::write(&openings, format!("# a comment\n\n{opening}\n")).unwrap();
    let (b, w) = (
        fake(&format!("script {black}")),
        fake(&format!("script {white}")),
    );
    let openings = openings.display().to_string();
    let mut args = vec![
        "--byoyomi",
        "1000",
        "--engine",
        &b,
        "--name",
        "B",
        "--engine",
        &w,
        "--name",
        "W",
        "--games",
        "1",
        "--openings",
        &openings,
    ];
    args.extend_from_slice(extra);
    let (report, output, _out) = play(name, &args, Duration::from_secs(30));
    (report.games[0].clone(), output)
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let black = format!("--moves '{}'", "5i5h 5h5i ".repeat(4));
    let white = format!("--moves '{}'", "5a5b 5b5a ".repeat(4));
    let (g, output) = scripted("sennichite", "startpos", &black, &white, &[]);
    assert_eq!(
        (g.outcome, g.reason, g.moves.len()),
        (Outcome::Draw, EndReason::Sennichite, 12),
        "{output}"
    );
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // The rook checks from 1c and 2c while the king steps between 1a and 2a.
    let black = format!("--moves '3c1c {}'", "1c2c 2c1c ".repeat(4));
    let white = format!("--moves '{}'", "1a2a 2a1a ".repeat(4));
    let opening = "sfen 8k/9/6R2/9/9/9/9/9/K8 b - 1";
    let (g, output) = scripted("perpetual", opening, &black, &white, &[]);
    assert_eq!(
        (g.outcome, g.reason, g.moves.len()),
        (Outcome::Win(Color::White), EndReason::PerpetualCheck, 13),
        "{output}"
    );
}

#[test]
fn a_correct_declaration_wins() {
    // Black's king in the enemy camp with ten pieces there worth 26 points, two pawns in
    // hand: 28 points, enough for Black under the 27-point rule.
    let opening = "sfen +R+BGKG+B+R2/SSSS5/9/9/9/9/9/9/8k b 2P 1";
    let pos: Position = opening[5..].parse().unwrap();
    assert!(pos.can_declare_win(EnteringKingRule::CsaRule27));
    let command = fake("win");
    let dir = TempDir::new("declaration-openings");
    let openings = dir.file("openings.txt");
    std::fs::write(&openings, opening).unwrap();
    let openings = openings.display().to_string();
    let (report, output, _out) = play(
        "declaration",
        &[
            "--byoyomi",
            "1000",
            "--engine",
            &command,
            "--name",
            "declarer",
            "--engine",
            HAYATE,
            "--games",
            "1",
            "--openings",
            &openings,
        ],
        Duration::from_secs(30),
    );
    let g = &report.games[0];
    assert_eq!(
        (g.outcome, g.reason),
        (Outcome::Win(Color::Black), EndReason::Declaration),
        "{output}"
    );
    let csa = std::fs::read_to_string(&report.csa_path).unwrap();
    assert!(csa.contains("P1+RY+UM+KI+OU+KI+UM+RY *  * \n"), "{csa}");
    assert!(csa.trim_end().ends_with("%KACHI"), "{csa}");
}

#[test]
fn score_adjudication_needs_both_engines_to_agree() {
    let shuffle_b = "--moves '5i5h 5h5i 5i5h 5h5i 5i5h 5h5i'";
    let shuffle_w = "--moves '5a5b 5b5a 5a5b 5b5a 5a5b 5b5a'";
    // Both say White is lost by 800: after two moves each, White resigns on its turn.
    let (g, output) = scripted(
        "adjudicate-loss",
        "startpos",
        &format!("{shuffle_b} --score 800"),
        &format!("{shuffle_w} --score -800"),
        &["--resign-score", "500", "--resign-moves", "2"],
    );
    assert_eq!(
        (g.outcome, g.reason, g.moves.len()),
        (Outcome::Win(Color::Black), EndReason::AdjudicatedLoss, 5),
        "{output}"
    );
    // Both say the game is level: a draw once ply 4 is reached.
    let (g, output) = scripted(
        "adjudicate-draw",
        "startpos",
        &format!("{shuffle_b} --score 3"),
        &format!("{shuffle_w} --score -5"),
        &[
            "--draw-score",
            "10",
            "--draw-moves",
            "2",
            "--draw-after",
            "4",
        ],
    );
    assert_eq!(
        (g.outcome, g.reason, g.moves.len()),
        (Outcome::Draw, EndReason::AdjudicatedDraw, 4),
        "{output}"
    );
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let command = fake("resign");
    let (report, output, _dir) = play(
        "sprt",
        &[
            "--byoyomi",
            "300",
            "--margin",
            "1000",
            "--engine",
            HAYATE,
            "--name",
            "hayate",
            "--engine",
            &command,
            "--name",
            "resigner",
            "--games",
            "100",
            "--sprt",
            "0",
            "50",
        ],
        Duration::from_secs(60),
    );
    let (llr, decision) = report.sprt.unwrap();
    assert_eq!(
        decision,
        Some(hayate::matches::stats::SprtDecision::AcceptH1),
        "{output}"
    );
    assert!(llr > 2.94 && report.games.len() < 20, "{output}");
    assert!(
        output.contains("LLR") && output.contains("H1 accepted"),
        "{output}"
    );
}

// ---------------------------------------------------------------------------------------
// The binary: a real match hayate vs hayate, records read back.

#[test]
fn hayate_plays_hayate_and_writes_readable_records() {
    let dir = TempDir::new("selfplay");
    let openings = dir.file("openings.txt");
    std::fs::write(
        &openings,
        "startpos moves 7g7f 3c3d\n\
         sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n",
    )
    .unwrap();
    let start = Instant::now();
    let output = Command::new(HAYATE)
        .current_dir(&dir.0)
        .args([
            "match", "--nodes", "1000", "--engine", HAYATE, "--engine", HAYATE,
        ])
        .args(["--games", "4", "--concurrency", "2"])
        .args(["--max-moves", "60", "--openings"])
        .arg(&openings)
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{stdout}"
    );
    for needle in [
        " #1",
        " #2",
        "Elo difference",
        "LOS",
        "as black",
        "black won",
        "endings:",
        "move times of hayate",
    ] {
        assert!(stdout.contains(needle), "missing '{needle}':\n{stdout}");
    }

    // The default output folder: a new match-<date>-<time> in the current directory.
    let folders: Vec<PathBuf> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(folders.len(), 1);
    assert!(folders[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("match-"));
    let games = check_json(&folders[0].join("games.jsonl"), 4);
    check_csa(&folders[0].join("games.csa"), &games);
}

/// Runs `hayate match` hayate against hayate at 1000 nodes with `args`; returns the exit
/// code and stdout + stderr.
fn selfplay_cli(dir: &Path, args: &[&str]) -> (i32, String) {
    selfplay_cli_with(dir, &[], args)
}

/// `selfplay_cli` with `engine_options` (`--option NAME=VALUE` words) given to both
/// engines.
fn selfplay_cli_with(dir: &Path, engine_options: &[&str], args: &[&str]) -> (i32, String) {
    let output = Command::new(HAYATE)
        .current_dir(dir)
        .args(["match", "--nodes", "1000", "--engine", HAYATE])
        .args(engine_options)
        .args(["--engine", HAYATE])
        .args(engine_options)
        .args(["--max-moves", "60", "--openings", "openings.txt"])
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

#[test]
fn an_interrupted_match_resumes_from_its_records() {
    let dir = TempDir::new("resume");
    std::fs::write(
        dir.file("openings.txt"),
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\nstartpos moves 5g5f\n",
    )
    .unwrap();
    let (code, text) = selfplay_cli(&dir.0, &["--games", "3", "--out", "rec"]);
    assert_eq!(code, 0, "{text}");
    let json_path = dir.file("rec/games.jsonl");
    let csa_path = dir.file("rec/games.csa");
    let first = std::fs::read_to_string(&json_path).unwrap();
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 3);

    // As if killed while writing game 3's JSON line: its CSA record is complete, its
    // JSON line is cut short.
    let torn = format!(
        "{}\n{}\n{}",
        lines[0],
        lines[1],
        &lines[2][..lines[2].len() / 2]
    );
    std::fs::write(&json_path, &torn).unwrap();
    let (code, text) = selfplay_cli(&dir.0, &["--games", "6", "--resume", "rec"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 2 finished game(s) kept, 4 to play"),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{text}"
    );
    let resumed = std::fs::read_to_string(&json_path).unwrap();
    assert!(resumed.starts_with(&format!("{}\n{}\n", lines[0], lines[1])));
    let games = check_json(&json_path, 6);
    check_csa(&csa_path, &games);
    // The summary counts the kept games too.
    assert!(text.contains("games: 6 (0 without result)"), "{text}");

    // Finished: nothing left to play, nothing rewritten.
    let (code, text) = selfplay_cli(&dir.0, &["--games", "6", "--resume", "rec"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("6 finished game(s) kept, 0 to play"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&json_path).unwrap(), resumed);

    // Other openings, other engines, fewer games, a folder with no match: refused. The
    // file of openings is recorded by name, so its new lines are caught by the games
    // kept; the new --name differs from the recorded command.
    std::fs::write(dir.file("openings.txt"), "startpos moves 1g1f\n").unwrap();
    let (code, text) = selfplay_cli(&dir.0, &["--games", "6", "--resume", "rec"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("give the same --openings"), "{text}");
    std::fs::write(
        dir.file("openings.txt"),
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\nstartpos moves 5g5f\n",
    )
    .unwrap();
    // The second engine renamed (a --name after the last --engine is its own).
    let (code, text) = selfplay_cli(
        &dir.0,
        &["--games", "6", "--resume", "rec", "--name", "other"],
    );
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("--name differ(s) from the command recorded"),
        "{text}"
    );
    let (code, text) = selfplay_cli(&dir.0, &["--games", "2", "--resume", "rec"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("beyond --games 2"), "{text}");
    let (code, text) = selfplay_cli(&dir.0, &["--games", "6", "--resume", "nothing"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("cannot resume from nothing/games.jsonl"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&json_path).unwrap(), resumed);
}

/// Runs `hayate match` with exactly `args` in `dir`; returns the exit code and stdout +
/// stderr.
fn match_cli(dir: &Path, args: &[&str]) -> (i32, String) {
    let output = Command::new(HAYATE)
        .current_dir(dir)
        .arg("match")
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

/// Keeps the first `n` JSON lines of a match's records, as if it had been killed then.
fn keep_games(json_path: &Path, n: usize) {
    let text = std::fs::read_to_string(json_path).unwrap();
    let kept: String = text.lines().take(n).map(|l| format!("{l}\n")).collect();
    std::fs::write(json_path, kept).unwrap();
}

#[test]
fn resume_alone_runs_the_recorded_command() {
    let dir = TempDir::new("resume-alone");
    std::fs::write(
        dir.file("openings.txt"),
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n",
    )
    .unwrap();
    // Relative paths (openings, folder), per-engine and global settings: all recorded.
    let (code, text) = match_cli(
        &dir.0,
        &[
            "--nodes",
            "1000",
            "--engine",
            HAYATE,
            "--engine",
            HAYATE,
            "--option",
            "USI_OwnBook=false",
            "--max-moves",
            "60",
            "--openings",
            "openings.txt",
            "--games",
            "3",
            "--out",
            "rec",
        ],
    );
    assert_eq!(code, 0, "{text}");
    let json_path = dir.file("rec/games.jsonl");
    let record = std::fs::read_to_string(dir.file("rec/command.json")).unwrap();
    assert!(record.contains("USI_OwnBook=false"), "{record}");
    assert!(!record.contains("--resume"), "{record}");

    // Killed after game 1: the folder alone continues it, under the recorded settings.
    keep_games(&json_path, 1);
    let (code, text) = match_cli(&dir.0, &["--resume", "rec"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 1 finished game(s) kept, 2 to play"),
        "{text}"
    );
    assert!(text.contains("3 games"), "{text}");
    let games = check_json(&json_path, 3);
    check_csa(&dir.file("rec/games.csa"), &games);

    // --games extends the match, and the record keeps the new size.
    let (code, text) = match_cli(&dir.0, &["--resume", "rec", "--games", "5"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 3 finished game(s) kept, 2 to play"),
        "{text}"
    );
    check_json(&json_path, 5);
    let finished = std::fs::read_to_string(&json_path).unwrap();
    let (code, text) = match_cli(&dir.0, &["--resume", "rec", "--concurrency", "2"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 5 finished game(s) kept, 0 to play"),
        "{text}"
    );

    // A setting the record fixes: refused before anything is touched, naming the flag.
    let (code, text) = match_cli(&dir.0, &["--resume", "rec", "--nodes", "999"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("--nodes cannot be given"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("error:")).count(), 1);
    let (code, text) = match_cli(&dir.0, &["--resume", "rec", "--out", "elsewhere"]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("--out"), "{text}");
    // The whole command again: the same one resumes, a changed one names what changed.
    let whole = |nodes: &'static str| {
        [
            "--nodes",
            nodes,
            "--engine",
            HAYATE,
            "--engine",
            HAYATE,
            "--option",
            "USI_OwnBook=false",
            "--max-moves",
            "60",
            "--openings",
            "openings.txt",
            "--resume",
            "rec",
        ]
    };
    let (code, text) = match_cli(&dir.0, &whole("999"));
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("--nodes differ(s) from the command recorded"),
        "{text}"
    );
    let (code, text) = match_cli(&dir.0, &whole("1000"));
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 5 finished game(s) kept, 0 to play"),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&json_path).unwrap(), finished);
}

#[test]
fn a_folder_without_a_recorded_command_resumes_only_with_the_whole_command() {
    let dir = TempDir::new("resume-old");
    std::fs::write(
        dir.file("openings.txt"),
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n",
    )
    .unwrap();
    let (code, text) = selfplay_cli(&dir.0, &["--games", "3", "--out", "old"]);
    assert_eq!(code, 0, "{text}");
    let json_path = dir.file("old/games.jsonl");
    // A match from before commands were recorded, killed after game 1.
    std::fs::remove_file(dir.file("old/command.json")).unwrap();
    keep_games(&json_path, 1);
    let kept = std::fs::read_to_string(&json_path).unwrap();

    let (code, text) = match_cli(&dir.0, &["--resume", "old"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("has no recorded command") && text.contains("give the whole command"),
        "{text}"
    );
    // Without a record the games themselves are checked: other engines are refused.
    let (code, text) = selfplay_cli(&dir.0, &["--games", "3", "--resume", "old", "--name", "x"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("it is a match between"), "{text}");
    assert!(!dir.file("old/command.json").exists());
    assert_eq!(std::fs::read_to_string(&json_path).unwrap(), kept);

    // The whole command resumes it, and records itself for the next time.
    let (code, text) = selfplay_cli(&dir.0, &["--games", "3", "--resume", "old"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 1 finished game(s) kept, 2 to play"),
        "{text}"
    );
    check_json(&json_path, 3);
    keep_games(&json_path, 2);
    let (code, text) = match_cli(&dir.0, &["--resume", "old"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("resumed: 2 finished game(s) kept, 1 to play"),
        "{text}"
    );
    check_json(&json_path, 3);
}

/// Reads the JSON lines back, checks every field and replays every game legally. Returns
/// (opening plies, game plies, start) per game, in file order.
fn check_json(path: &Path, count: usize) -> Vec<(usize, usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = Vec::new();
    let mut numbers = Vec::new();
    for line in text.lines() {
        let v = json::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let str_field = |k: &str| {
            v.get(k)
                .and_then(|x| x.as_str())
                .unwrap_or_else(|| panic!("{k}: {line}"))
        };
        let list = |k: &str| {
            v.get(k)
                .and_then(|x| x.as_array())
                .unwrap_or_else(|| panic!("{k}: {line}"))
        };
        numbers.push(v.get("game").unwrap().as_f64().unwrap() as usize);
        let names: Vec<&str> = list("engines")
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        assert!(
            names[0].starts_with("hayate") && names[0].ends_with(" #1"),
            "{line}"
        );
        assert_eq!(names[1], names[0].replace(" #1", " #2"));
        let black = v.get("black_engine").unwrap().as_f64().unwrap() as usize;
        assert_eq!(str_field("black"), names[black - 1]);
        let start = str_field("start").to_string();
        let mut pos: Position = match start.strip_prefix("sfen ") {
            Some(sfen) => sfen.parse().unwrap(),
            None => Position::startpos(),
        };
        let opening = list("opening_moves");
        let moves = list("moves");
        for m in opening.iter().chain(moves) {
            let mv = pos.parse_move(m.as_str().unwrap()).unwrap();
            pos.play_unchecked(mv);
        }
        assert_eq!(list("times_ms").len(), moves.len());
        // A fixed node limit: no clock, so no clock limit.
        let limits = list("limits_ms");
        assert_eq!(limits.len(), moves.len());
        assert!(
            limits.iter().all(|l| matches!(l, json::Value::Null)),
            "{line}"
        );
        assert_eq!(list("scores").len(), moves.len());
        assert_eq!(v.get("plies").unwrap().as_f64(), Some(moves.len() as f64));
        let result = str_field("result");
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{line}");
        let reason = str_field("reason");
        assert!(
            EndReason::ALL.iter().any(|r| r.as_str() == reason)
                && ![
                    "crash",
                    "time_up",
                    "illegal_move",
                    "unparsable_move",
                    "not_ready"
                ]
                .contains(&reason),
            "{line}"
        );
        // Max moves counts the opening too.
        assert!(opening.len() + moves.len() <= 60);
        games.push((opening.len(), moves.len(), start));
    }
    numbers.sort();
    assert_eq!(numbers, (1..=count).collect::<Vec<_>>());
    games
}

/// Checks the CSA file: one game per `/`-separated block, in the JSON file's order, with
/// the header, the start position, well-formed move and time lines, and an end line.
fn check_csa(path: &Path, games: &[(usize, usize, String)]) {
    let text = std::fs::read_to_string(path).unwrap();
    let blocks: Vec<Vec<&str>> = text.split("\n/\n").map(|b| b.lines().collect()).collect();
    assert_eq!(blocks.len(), games.len(), "{text}");
    for (block, (opening, plies, start)) in blocks.iter().zip(games) {
        assert_eq!(block[0], "V2.2");
        assert!(block[1].starts_with("N+hayate") && block[2].starts_with("N-hayate"));
        let standard = block.contains(&"PI");
        assert_eq!(standard, start == "startpos", "{block:?}");
        if !standard {
            assert_eq!(
                block
                    .iter()
                    .filter(|l| l.starts_with("P") && l.len() == 29)
                    .count(),
                9
            );
        }
        let moves: Vec<&&str> = block.iter().filter(|l| is_csa_move(l)).collect();
        assert_eq!(moves.len(), opening + plies, "{block:?}");
        let times = block.iter().filter(|l| l.starts_with('T')).count();
        assert_eq!(times, *plies);
        assert!(block.last().unwrap().starts_with('%'), "{block:?}");
    }
}

/// `+7776FU`: sign, from (00 for drops), to, a CSA piece name.
fn is_csa_move(line: &str) -> bool {
    const PIECES: [&str; 14] = [
        "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
    ];
    let b = line.as_bytes();
    line.len() == 7
        && (b[0] == b'+' || b[0] == b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[3] != b'0'
        && PIECES.contains(&&line[5..])
}

#[test]
fn bad_command_lines_and_missing_engines_fail_fast() {
    let run = |args: &[&str]| {
        let start = Instant::now();
        let out = Command::new(HAYATE)
            .arg("match")
            .args(args)
            .output()
            .unwrap();
        assert!(start.elapsed() < Duration::from_secs(10));
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, _, err) = run(&["--engine", HAYATE]);
    assert_eq!(code, Some(2));
    assert!(err.contains("exactly two"), "{err}");
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("--concurrency"));

    let dir = TempDir::new("missing");
    let out_dir = dir.file("records").display().to_string();
    let (code, _, err) = run(&[
        "--byoyomi",
        "100",
        "--engine",
        "/no/such/engine",
        "--engine",
        HAYATE,
        "--out",
        &out_dir,
    ]);
    assert_eq!(code, Some(1));
    assert!(err.contains("cannot start '/no/such/engine'"), "{err}");
}

/// Just enough JSON to read the records back (objects, arrays, strings with escapes,
/// numbers, true/false/null).
mod json {
    #[derive(Debug, PartialEq)]
    pub enum Value {
        Null,
        Bool(bool),
        Number(f64),
        Str(String),
        Array(Vec<Value>),
        Object(Vec<(String, Value)>),
    }

    impl Value {
        pub fn get(&self, key: &str) -> Option<&Value> {
            match self {
                Value::Object(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }
        pub fn as_str(&self) -> Option<&str> {
            match self {
                Value::Str(s) => Some(s),
                _ => None,
            }
        }
        pub fn as_f64(&self) -> Option<f64> {
            match self {
                Value::Number(n) => Some(*n),
                _ => None,
            }
        }
        pub fn as_array(&self) -> Option<&Vec<Value>> {
            match self {
                Value::Array(a) => Some(a),
                _ => None,
            }
        }
    }

    pub fn parse(text: &str) -> Result<Value, String> {
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let v = value(&chars, &mut i)?;
        skip_ws(&chars, &mut i);
        if i != chars.len() {
            return Err(format!("trailing text at {i}"));
        }
        Ok(v)
    }

    fn skip_ws(c: &[char], i: &mut usize) {
        while *i < c.len() && c[*i].is_whitespace() {
            *i += 1;
        }
    }

    fn expect(c: &[char], i: &mut usize, ch: char) -> Result<(), String> {
        skip_ws(c, i);
        if c.get(*i) == Some(&ch) {
            *i += 1;
            Ok(())
        } else {
            Err(format!("expected '{ch}' at {i}"))
        }
    }

    fn value(c: &[char], i: &mut usize) -> Result<Value, String> {
        skip_ws(c, i);
        match c.get(*i) {
            Some('{') => {
                *i += 1;
                let mut fields = Vec::new();
                skip_ws(c, i);
                if c.get(*i) == Some(&'}') {
                    *i += 1;
                    return Ok(Value::Object(fields));
                }
                loop {
                    skip_ws(c, i);
                    let Value::Str(key) = value(c, i)? else {
                        return Err(format!("object key at {i}"));
                    };
                    expect(c, i, ':')?;
                    fields.push((key, value(c, i)?));
                    skip_ws(c, i);
                    match c.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            return Ok(Value::Object(fields));
                        }
                        _ => return Err(format!("expected ',' or '}}' at {i}")),
                    }
                }
            }
            Some('[') => {
                *i += 1;
                let mut items = Vec::new();
                skip_ws(c, i);
                if c.get(*i) == Some(&']') {
                    *i += 1;
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(value(c, i)?);
                    skip_ws(c, i);
                    match c.get(*i) {
                        Some(',') => *i += 1,
                        Some(']') => {
                            *i += 1;
                            return Ok(Value::Array(items));
                        }
                        _ => return Err(format!("expected ',' or ']' at {i}")),
                    }
                }
            }
            Some('"') => {
                *i += 1;
                let mut s = String::new();
                loop {
                    let ch = *c.get(*i).ok_or("unterminated string")?;
                    *i += 1;
                    match ch {
                        '"' => return Ok(Value::Str(s)),
                        '\\' => {
                            let e = *c.get(*i).ok_or("bad escape")?;
                            *i += 1;
                            s.push(match e {
                                'n' => '\n',
                                'r' => '\r',
                                't' => '\t',
                                'u' => {
                                    let hex: String =
                                        c.get(*i..*i + 4).ok_or("bad \\u")?.iter().collect();
                                    *i += 4;
                                    char::from_u32(
                                        u32::from_str_radix(&hex, 16).map_err(|e| e.to_string())?,
                                    )
                                    .ok_or("bad \\u")?
                                }
                                other => other,
                            });
                        }
                        c if (c as u32) < 0x20 => return Err("raw control character".into()),
                        c => s.push(c),
                    }
                }
            }
            Some(ch) if *ch == '-' || ch.is_ascii_digit() => {
                let start = *i;
                while *i < c.len()
                    && (c[*i] == '-'
                        || c[*i] == '.'
                        || c[*i] == 'e'
                        || c[*i] == '+'
                        || c[*i].is_ascii_digit())
                {
                    *i += 1;
                }
                let text: String = c[start..*i].iter().collect();
                text.parse()
                    .map(Value::Number)
                    .map_err(|e| format!("{e}: {text}"))
            }
            _ => {
                for (word, v) in [
                    ("true", Value::Bool(true)),
                    ("false", Value::Bool(false)),
                    ("null", Value::Null),
                ] {
                    let w: Vec<char> = word.chars().collect();
                    if c.get(*i..*i + w.len()) == Some(&w[..]) {
                        *i += w.len();
                        return Ok(v);
                    }
                }
                Err(format!("unexpected input at {i}"))
            }
        }
    }
}

#[test]
fn games_past_twice_the_openings_repeat_at_a_node_limit_and_are_warned_of() {
    let dir = TempDir::new("repeats");
    std::fs::write(
        dir.file("openings.txt"),
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n",
    )
    .unwrap();
    // Without the book, whose choices are random.
    let run = |games: &str, out: &str| {
        let no_book = ["--option", "USI_OwnBook=false"];
        selfplay_cli_with(&dir.0, &no_book, &["--games", games, "--out", out])
    };
    let (code, text) = run("4", "a");
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("warning"), "{text}");
    let (code, text) = run("5", "b");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("warning: 5 games from 2 opening(s)"),
        "{text}"
    );
    // What the warning says: the fifth game is the first again, move for move.
    let games: Vec<serde_json::Value> =
        std::fs::read_to_string(dir.0.join("b").join("games.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    let by_index = |i: u64| {
        games
            .iter()
            .find(|g| g["game"] == i)
            .unwrap_or_else(|| panic!("game {i}"))
    };
    assert_eq!(by_index(1)["moves"], by_index(5)["moves"]);
    assert_eq!(by_index(1)["opening"], by_index(5)["opening"]);
}
