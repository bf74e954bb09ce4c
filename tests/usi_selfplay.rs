//! A whole game between two `hayate` processes over pipes, every move checked by the
//! library: the game must end by resignation (no legal move), a declaration (entering
//! king, CSA 27 points), sennichite, or the 256-ply limit.

use hayate::position::EnteringKingRule;
use hayate::Position;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_hayate");
const TIMEOUT: Duration = Duration::from_secs(10);
const MAX_PLIES: usize = 256;

struct Engine {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    seen: Vec<String>,
    sent: Vec<String>,
}

impl Engine {
    fn start(name: &'static str) -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the hayate binary");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut err = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Engine {
            name,
            stdin: child.stdin.take().expect("piped stdin"),
            child,
            lines: rx,
            stderr,
            seen: Vec::new(),
            sent: Vec::new(),
        }
    }

    fn context(&mut self) -> String {
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!("exited: {s}"),
            Ok(None) => "running".to_string(),
            Err(e) => format!("unknown ({e})"),
        };
        let sent: Vec<String> = self.sent[self.sent.len().saturating_sub(4)..]
            .iter()
            .map(|s| s.chars().take(300).collect())
            .collect();
        let seen = &self.seen[self.seen.len().saturating_sub(20)..];
        let err = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        format!(
            "\n  engine {} {status}\n  last commands: {sent:#?}\n  last lines: {seen:#?}\n  stderr: {err}",
            self.name
        )
    }

    fn send(&mut self, line: &str) {
        self.sent.push(line.to_string());
        let result = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush());
        if let Err(e) = result {
            let ctx = self.context();
            panic!("writing {line:?} failed: {e}{ctx}");
        }
    }

    fn expect_line(&mut self, want: impl Fn(&str) -> bool, what: &str) -> (String, Vec<String>) {
        let deadline = Instant::now() + TIMEOUT;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if want(&line) {
                        return (line, before);
                    }
                    before.push(line);
                }
                Err(_) => {
                    let ctx = self.context();
                    panic!("no {what} within {TIMEOUT:?}{ctx}");
                }
            }
        }
    }

    fn quit(&mut self) -> ExitStatus {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the engine") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let ctx = self.context();
                panic!("no exit within {TIMEOUT:?} of quit{ctx}");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug, PartialEq)]
enum End {
    /// The side to move resigned with no legal move.
    Resign,
    /// The side to move declared an entering-king win.
    Declared,
    /// The position occurred for the fourth time.
    Sennichite(hayate::position::Repetition),
    /// The ply limit.
    MaxPlies,
}

#[test]
fn two_engines_play_a_legal_game() {
    let mut engines = [Engine::start("black"), Engine::start("white")];
    for e in engines.iter_mut() {
        e.send("usi");
        e.expect_line(|l| l == "usiok", "usiok");
        e.send("setoption name MaxMovesToDraw value 256");
        e.send("isready");
        let (_, before) = e.expect_line(|l| l == "readyok", "readyok");
        assert!(
            before.iter().all(|l| !l.starts_with("bestmove")),
            "{before:#?}"
        );
        e.send("usinewgame");
    }

    let rule = EnteringKingRule::CsaRule27;
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let started = Instant::now();
    let end = loop {
        if let Some(rep) = pos.sennichite() {
            break End::Sennichite(rep);
        }
        if moves.len() >= MAX_PLIES {
            break End::MaxPlies;
        }
        let e = &mut engines[moves.len() % 2];
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        e.send("go byoyomi 100");
        let (line, _) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
        let words: Vec<&str> = line.split(' ').collect();
        let shape_ok = words.len() == 2 || (words.len() == 4 && words[2] == "ponder");
        if !shape_ok {
            let ctx = e.context();
            panic!("malformed {line:?} at ply {}{ctx}", moves.len());
        }
        match words[1] {
            "resign" => {
                if !pos.legal_moves().is_empty() {
                    let ctx = e.context();
                    panic!("resigned in {pos} with legal moves{ctx}");
                }
                break End::Resign;
            }
            "win" => {
                if !pos.can_declare_win(rule) {
                    let ctx = e.context();
                    panic!("declared a win in {pos} without the right to{ctx}");
                }
                break End::Declared;
            }
            m => match pos.parse_move(m) {
                Ok(mv) => {
                    pos.play_unchecked(mv);
                    moves.push(m.to_string());
                }
                Err(err) => {
                    let ctx = e.context();
                    panic!("{line:?} at ply {} in {pos}: {err}{ctx}", moves.len());
                }
            },
        }
    };
    // A game that stopped for a reason the library agrees with.
    match &end {
        End::Resign => assert!(pos.legal_moves().is_empty()),
        End::Declared => assert!(pos.can_declare_win(rule)),
        End::Sennichite(_) => assert!(pos.sennichite().is_some()),
        End::MaxPlies => assert_eq!(moves.len(), MAX_PLIES),
    }
    eprintln!(
        "game over after {} plies ({:?}) in {:?}: {end:?}",
        moves.len(),
        pos.to_string(),
        started.elapsed()
    );

    // The loser is the side to move on resign; the mover wins on a declaration.
    let mover = moves.len() % 2;
    let results: [&str; 2] = match end {
        End::Resign => {
            if mover == 0 {
                ["lose", "win"]
            } else {
                ["win", "lose"]
            }
        }
        End::Declared => {
            if mover == 0 {
                ["win", "lose"]
            } else {
                ["lose", "win"]
            }
        }
        _ => ["draw", "draw"],
    };
    for (e, result) in engines.iter_mut().zip(results) {
        e.send(&format!("gameover {result}"));
        let status = e.quit();
        assert_eq!(status.code(), Some(0), "{} exit status", e.name);
        let err = String::from_utf8_lossy(&e.stderr.lock().unwrap()).into_owned();
        assert!(!err.contains("panicked"), "{} panicked: {err}", e.name);
    }
}
