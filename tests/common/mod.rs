//! Driving the real `hayate` binary over pipes, shared by the USI integration tests.

#![allow(dead_code)] // each test file uses its own part of the driver

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_hayate");

/// Brute force on the move generator alone: the side to move has no legal move, or
/// loses within `n` more plies whatever it plays, `wins(position, plies)` judging the
/// opponent's chances after each reply.
pub fn every_reply_loses(
    p: &mut hayate::Position,
    n: u32,
    wins: impl Fn(&mut hayate::Position, u32) -> bool,
) -> bool {
    let replies = p.legal_moves();
    if replies.is_empty() {
        return true;
    }
    if n == 0 {
        return false;
    }
    replies.iter().all(|&r| {
        p.play_unchecked(r);
        let ok = wins(p, n - 1);
        p.undo();
        ok
    })
}
/// The longest any test waits for one reply.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A running `hayate` process: a reader thread turns stdout into lines on a channel,
/// stderr is drained into a buffer, and every wait has a deadline, so a silent or hung
/// engine fails a test instead of hanging it.
pub struct EngineProcess {
    /// A label for failure messages.
    pub name: &'static str,
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub stderr: Arc<Mutex<Vec<u8>>>,
    /// Every line read so far.
    pub seen: Vec<String>,
    /// Every command sent so far (shortened), for failure messages.
    pub sent: Vec<String>,
}

impl EngineProcess {
    pub fn start(name: &'static str) -> EngineProcess {
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
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
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
        EngineProcess {
            name,
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            seen: Vec::new(),
            sent: Vec::new(),
        }
    }

    /// The recent exchange, for failure messages.
    pub fn context(&mut self) -> String {
        let status = match self.child.try_wait() {
            Ok(Some(s)) => format!("exited: {s}"),
            Ok(None) => "running".to_string(),
            Err(e) => format!("unknown ({e})"),
        };
        let sent = &self.sent[self.sent.len().saturating_sub(15)..];
        let seen = &self.seen[self.seen.len().saturating_sub(30)..];
        let err = String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned();
        let err: String = err
            .chars()
            .rev()
            .take(2000)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!(
            "\n  engine {} {status}\n  last commands sent: {sent:#?}\n  last lines read: {seen:#?}\n  stderr tail: {err}",
            self.name
        )
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let shown: String = String::from_utf8_lossy(bytes).chars().take(120).collect();
        self.sent.push(shown);
        let stdin = self.stdin.as_mut().expect("stdin still open");
        let result = stdin.write_all(bytes).and_then(|_| stdin.flush());
        if let Err(e) = result {
            let ctx = self.context();
            panic!("writing to the engine failed: {e}{ctx}");
        }
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next line, or None when `deadline` passes (or the engine closed stdout).
    pub fn recv_until(&mut self, deadline: Instant) -> Option<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => {
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads until a line satisfies `want`; returns it and the lines before it.
    pub fn expect_line(
        &mut self,
        want: impl Fn(&str) -> bool,
        what: &str,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + TIMEOUT;
        let mut before = Vec::new();
        loop {
            match self.recv_until(deadline) {
                Some(line) if want(&line) => return (line, before),
                Some(line) => before.push(line),
                None => {
                    let ctx = self.context();
                    panic!("no {what} within {TIMEOUT:?}; lines in between: {before:#?}{ctx}");
                }
            }
        }
    }

    /// Everything printed during `span`.
    pub fn collect_for(&mut self, span: Duration) -> Vec<String> {
        let deadline = Instant::now() + span;
        let mut lines = Vec::new();
        while let Some(line) = self.recv_until(deadline) {
            lines.push(line);
        }
        lines
    }

    /// `quit`, the exit status (waits at most TIMEOUT, then kills).
    pub fn quit(&mut self) -> ExitStatus {
        let _ = self
            .stdin
            .as_mut()
            .map(|s| s.write_all(b"quit\n").and_then(|_| s.flush()));
        self.sent.push("quit".to_string());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the engine") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let ctx = self.context();
                panic!("the engine did not exit within {TIMEOUT:?} of quit{ctx}");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
