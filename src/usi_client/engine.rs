//! One USI engine process, driven so that nothing it does can hang the runner.
//!
//! Three helper threads per process keep every wait bounded: a reader turns stdout into
//! lines on a channel (so the runner waits with `recv_timeout`), a writer sends commands
//! (so a process that stops reading its input cannot block the runner on a full pipe), and
//! a drain empties stderr (an engine that floods stderr would otherwise stall on it). The
//! process is killed when the [`Engine`] is dropped.

use super::TimeControl;
use crate::lines;
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::SplitWhitespace;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest stdout line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// How much of the end of stderr is kept for error messages.
const STDERR_TAIL: usize = 4096;
/// How long a process gets to exit by itself after `quit` or a crash before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// Most bytes of output kept unread: an engine that writes more while the runner is not
/// reading it (the other engine's turn) is faulty, and its further lines are dropped.
const MAX_BACKLOG: usize = 16 << 20;

/// Mate scores are stored as centipawns: mate in `n` plies is `±(MATE_CP - n)`.
pub const MATE_CP: i32 = 100_000;

/// What the runner needs to start one engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name in records and output.
    pub name: String,
    /// Whether `name` came from `--name` (otherwise the engine's `id name` may replace it).
    pub name_given: bool,
    /// Program and arguments.
    pub command: Vec<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs, sent in order; `None` for a button.
    pub options: Vec<(String, Option<String>)>,
    pub tc: TimeControl,
}

impl EngineSpec {
    /// The command line as one string, for messages.
    pub fn command_line(&self) -> String {
        self.command.join(" ")
    }
}

/// Why talking to an engine failed.
#[derive(Debug)]
pub enum EngineError {
    /// The process could not be started: a configuration error, not a game result.
    Spawn { command: String, source: io::Error },
    /// The engine closed its output (it exited or crashed) while the runner waited.
    Exited {
        waiting_for: &'static str,
        status: Option<String>,
        stderr: Option<String>,
    },
    /// The engine did not send what the runner waited for in time.
    Timeout {
        waiting_for: &'static str,
        after_ms: u64,
    },
    /// The engine wrote more than [`MAX_BACKLOG`] bytes that the runner had not asked for.
    Flooded { bytes: usize },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn { command, source } => {
                write!(f, "cannot start '{command}': {source}")
            }
            EngineError::Exited {
                waiting_for,
                status,
                stderr,
            } => {
                write!(f, "engine exited while the runner waited for {waiting_for}")?;
                if let Some(s) = status {
                    write!(f, " ({s})")?;
                }
                if let Some(e) = stderr {
                    write!(f, "; last stderr line: {e}")?;
                }
                Ok(())
            }
            EngineError::Timeout {
                waiting_for,
                after_ms,
            } => write!(f, "no {waiting_for} within {after_ms} ms"),
            EngineError::Flooded { bytes } => write!(
                f,
                "flooded its output: more than {} MiB unread while it was not its turn",
                bytes >> 20
            ),
        }
    }
}

impl std::error::Error for EngineError {}

/// The answer to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The token after `bestmove` (`7g7f`, `resign`, `win`, or anything the engine sent);
    /// empty when the line had nothing after `bestmove`.
    pub bestmove: String,
    /// The last score the engine reported for this move, in centipawns from its own side
    /// (mates as `±(MATE_CP - plies)`).
    pub score: Option<i32>,
    /// The depth and the node count of the last `info` line that gave them.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The move after `ponder` on the `bestmove` line, if the engine gave one.
    pub ponder: Option<String>,
    /// The last principal variation the engine reported (its moves as sent).
    pub pv: Vec<String>,
}

/// The last bytes an engine wrote to stderr.
#[derive(Default)]
struct StderrTail {
    bytes: VecDeque<u8>,
}

impl StderrTail {
    fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend(chunk);
        let excess = self.bytes.len().saturating_sub(STDERR_TAIL);
        self.bytes.drain(..excess);
    }

    /// The last non-empty line, shortened to 200 characters.
    fn last_line(&self) -> Option<String> {
        let (a, b) = self.bytes.as_slices();
        let text = String::from_utf8_lossy(&[a, b].concat()).into_owned();
        let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
        Some(line.trim().chars().take(200).collect())
    }
}

/// The bytes of output read from the engine but not yet taken by the runner, shared with
/// the reader thread; once past [`MAX_BACKLOG`] further lines are dropped and the engine
/// is marked as flooding.
#[derive(Default)]
struct Backlog {
    bytes: AtomicUsize,
    flooded: AtomicBool,
}

/// A running engine after the `usi` handshake.
pub struct Engine {
    child: Child,
    /// Commands for the writer thread; dropping it closes the engine's stdin.
    commands: Option<Sender<String>>,
    lines: Receiver<String>,
    backlog: Arc<Backlog>,
    stderr: Arc<Mutex<StderrTail>>,
    /// The name from `id name`, if the engine sent one.
    pub id_name: Option<String>,
}

impl Engine {
    /// Starts the process, sends `usi`, waits up to `timeout` for `usiok`, then sends the
    /// spec's options.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, EngineError> {
        let mut engine = Engine::spawn(spec)?;
        engine.send("usi");
        let mut id_name = None;
        engine.wait_for("usiok", timeout, |line| {
            if let Some(name) = line.strip_prefix("id name ") {
                id_name = Some(name.trim().to_string());
            }
            line.trim() == "usiok"
        })?;
        engine.id_name = id_name;
        for (name, value) in &spec.options {
            match value {
                Some(v) => engine.send(&format!("setoption name {name} value {v}")),
                None => engine.send(&format!("setoption name {name}")),
            }
        }
        Ok(engine)
    }

    fn spawn(spec: &EngineSpec) -> Result<Engine, EngineError> {
        let spawn_error = |source| EngineError::Spawn {
            command: spec.command_line(),
            source,
        };
        let program = spec
            .command
            .first()
            .ok_or_else(|| spawn_error(io::Error::other("empty command")))?;
        let mut command = Command::new(resolve_program(program));
        command
            .args(&spec.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        own_process_group(&mut command);
        let mut child = command.spawn().map_err(spawn_error)?;

        let stdout = child.stdout.take().expect("piped stdout");
        let (line_tx, lines) = mpsc::channel();
        let backlog = Arc::new(Backlog::default());
        let queued = Arc::clone(&backlog);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            while let Ok((1.., _)) = lines::read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                lines::trim_line_ending(&mut buf);
                let size = buf.len() + 1;
                if queued.bytes.load(Ordering::SeqCst) + size > MAX_BACKLOG {
                    queued.flooded.store(true, Ordering::SeqCst);
                    continue;
                }
                queued.bytes.fetch_add(size, Ordering::SeqCst);
                let line = String::from_utf8_lossy(&buf).into_owned();
                if line_tx.send(line).is_err() {
                    break;
                }
            }
        });

        let stdin = child.stdin.take().expect("piped stdin");
        let (commands, command_rx) = mpsc::channel::<String>();
        thread::spawn(move || write_commands(stdin, command_rx));

        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let mut err = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = err.read(&mut chunk) {
                sink.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(&chunk[..n]);
            }
        });

        Ok(Engine {
            child,
            commands: Some(commands),
            lines,
            backlog,
            stderr,
            id_name: None,
        })
    }

    /// Queues one command line. A dead engine is noticed by the next wait.
    pub fn send(&self, line: &str) {
        if let Some(tx) = &self.commands {
            let _ = tx.send(line.to_string());
        }
    }

    /// Reads lines until `done` accepts one, for at most `timeout`.
    fn wait_for(
        &mut self,
        waiting_for: &'static str,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.took(&line);
                    if done(&line) {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout {
                        waiting_for,
                        after_ms: timeout.as_millis() as u64,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited(waiting_for)),
            }
        }
    }

    /// Counts a line as read off the backlog.
    fn took(&self, line: &str) {
        self.backlog
            .bytes
            .fetch_sub(line.len() + 1, Ordering::SeqCst);
    }

    /// Drops the lines the engine wrote while nobody asked (a late second `bestmove`
    /// would otherwise answer the next `go`); an engine that wrote too much is faulty.
    fn discard_stale(&mut self) -> Result<(), EngineError> {
        while let Ok(line) = self.lines.try_recv() {
            self.took(&line);
        }
        self.not_flooded()
    }

    /// Whether the reader had to drop lines: the engine wrote more than the runner keeps.
    fn not_flooded(&self) -> Result<(), EngineError> {
        match self.backlog.flooded.load(Ordering::SeqCst) {
            true => Err(EngineError::Flooded { bytes: MAX_BACKLOG }),
            false => Ok(()),
        }
    }

    /// The error for an engine whose stdout closed, with its exit status if it has one.
    fn exited(&mut self, waiting_for: &'static str) -> EngineError {
        let deadline = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status.to_string()),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break None,
            }
        };
        // Give the drain a moment to collect the last words on stderr.
        thread::sleep(Duration::from_millis(20));
        let stderr = self
            .stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .last_line();
        EngineError::Exited {
            waiting_for,
            status,
            stderr,
        }
    }

    /// `isready`, then waits up to `timeout` for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready");
        self.wait_for("readyok", timeout, |line| line.trim() == "readyok")
    }

    /// Sends `position` and `go`, and waits up to `allowance` for `bestmove`. Returns the
    /// reply and the time from sending `go` to reading `bestmove`.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        allowance: Duration,
    ) -> (Result<Reply, EngineError>, Duration) {
        if let Err(e) = self.start_thinking(position, go) {
            return (Err(e), Duration::ZERO);
        }
        let start = Instant::now();
        let reply = self.wait_bestmove(allowance);
        (reply, start.elapsed())
    }

    /// Drops stale output, then sends `position` and `go` without waiting: for a caller
    /// that waits for the answer itself ([`Engine::wait_bestmove`]), as a ponder search
    /// needs.
    pub fn start_thinking(&mut self, position: &str, go: &str) -> Result<(), EngineError> {
        self.discard_stale()?;
        self.send(position);
        self.send(go);
        Ok(())
    }

    /// Waits up to `allowance` for `bestmove`, keeping the last score and PV of the `info`
    /// lines before it.
    pub fn wait_bestmove(&mut self, allowance: Duration) -> Result<Reply, EngineError> {
        let mut score = None;
        let mut depth = None;
        let mut nodes = None;
        let mut pv = Vec::new();
        let mut bestmove = None;
        let mut ponder = None;
        let result = self.wait_for("bestmove", allowance, |line| {
            let mut tokens = line.split_whitespace();
            match tokens.next() {
                Some("info") => {
                    if let Some(s) = parse_score(line) {
                        score = Some(s);
                    }
                    if let Some(moves) = parse_pv(line) {
                        pv = moves;
                    }
                    if let Some(d) = parse_info_number(line, "depth") {
                        depth = u32::try_from(d).ok();
                    }
                    if let Some(n) = parse_info_number(line, "nodes") {
                        nodes = Some(n);
                    }
                    false
                }
                Some("bestmove") => {
                    bestmove = Some(tokens.next().unwrap_or("").to_string());
                    if tokens.next() == Some("ponder") {
                        ponder = tokens.next().map(str::to_string);
                    }
                    true
                }
                _ => false,
            }
        });
        result.and_then(|()| self.not_flooded())?;
        Ok(Reply {
            bestmove: bestmove.unwrap_or_default(),
            score,
            depth,
            nodes,
            ponder,
            pv,
        })
    }

    /// Sends `stop` after a move ran out of time and waits up to `timeout` for the late
    /// `bestmove`. Returns whether the engine is back in step with the runner.
    pub fn stop(&mut self, timeout: Duration) -> bool {
        self.send("stop");
        self.wait_for("bestmove", timeout, |line| line.starts_with("bestmove"))
            .is_ok()
    }

    /// Sends `quit`, closes stdin, and kills the process if it has not exited shortly after.
    pub fn quit(mut self) {
        self.send("quit");
        self.commands = None;
        let deadline = Instant::now() + EXIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.commands = None;
        // The whole group, even when the direct child has exited: a wrapper script may
        // have left the real engine running.
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// Starts the engine in a process group of its own (so that everything it starts can be
/// ended together), and on Linux has the kernel kill it if the runner dies first. The
/// kernel ties that to the thread that spawned the process: an [`Engine`] is used and
/// dropped on the thread that started it, as every user here does.
fn own_process_group(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the forked child before exec and calls only prctl,
        // which is async-signal-safe; it touches no memory of the parent.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
                Ok(())
            });
        }
    }
}

/// Kills the engine's process group (its own process and whatever it started).
fn kill_group(child: &mut Child) {
    #[cfg(target_os = "linux")]
    {
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            // SAFETY: kill takes plain integers; a negative pid names the process group
            // the child leads (made at spawn), which holds only the engine's processes.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
}

/// Writes queued commands to the engine's stdin until the queue closes or the pipe breaks.
fn write_commands(mut stdin: ChildStdin, commands: Receiver<String>) {
    for line in commands {
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        if ok.is_err() {
            break;
        }
    }
}

/// A program given as a relative path with a directory part (`target/release/hayate`) is
/// taken relative to the runner's directory, also when the engine runs elsewhere (`--dir`);
/// a bare name is looked up in `PATH` as usual.
fn resolve_program(program: &str) -> PathBuf {
    let path = Path::new(program);
    let has_dir = path.components().count() > 1;
    if has_dir && path.is_relative() {
        if let Ok(cwd) = std::env::current_dir() {
            return cwd.join(path);
        }
    }
    path.to_path_buf()
}

/// Splits an engine command line on whitespace; single or double quotes group words, a
/// backslash outside single quotes takes the next character literally.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                word.push(chars.next().ok_or("a backslash ends the command")?);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in '{text}'"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// The words after the first `key` on an `info` line, or `None` when there is no `key`
/// or it sits in the free text of `info string` (which runs to the end of the line).
fn info_words_after<'a>(line: &'a str, key: &str) -> Option<SplitWhitespace<'a>> {
    let mut words = line.split_whitespace();
    for word in words.by_ref() {
        match word {
            "string" => return None,
            w if w == key => return Some(words),
            _ => {}
        }
    }
    None
}

/// The moves after `pv` on an `info` line (to the end of the line: USI puts `pv` last).
pub fn parse_pv(line: &str) -> Option<Vec<String>> {
    info_words_after(line, "pv").map(|words| words.map(String::from).collect())
}

/// The number after `key` on an `info` line (`depth 12`, `nodes 81234`), unless it sits
/// in the free text of `info string`.
pub fn parse_info_number(line: &str, key: &str) -> Option<u64> {
    info_words_after(line, key)?.next()?.parse().ok()
}

/// The score of an `info` line (`score cp 34`, `score mate -5`, `score mate +`), in
/// centipawns from the engine's side.
pub fn parse_score(line: &str) -> Option<i32> {
    let mut words = info_words_after(line, "score")?;
    let (kind, value) = (words.next()?, words.next()?);
    match kind {
        "cp" => value
            .parse::<i32>()
            .ok()
            .map(|v| v.clamp(-MATE_CP, MATE_CP)),
        "mate" => {
            let negative = value.starts_with('-');
            let plies = value
                .trim_start_matches(['+', '-'])
                .parse::<i32>()
                .unwrap_or(0)
                .clamp(0, MATE_CP);
            let magnitude = MATE_CP - plies;
            Some(if negative { -magnitude } else { magnitude })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_from_info_lines() {
        assert_eq!(parse_score("info depth 3 score cp 34 pv 7g7f"), Some(34));
        assert_eq!(parse_score("info score cp -120 lowerbound"), Some(-120));
        assert_eq!(parse_score("info depth 9 score mate 5"), Some(MATE_CP - 5));
        assert_eq!(parse_score("info score mate -4"), Some(-(MATE_CP - 4)));
        assert_eq!(parse_score("info score mate +"), Some(MATE_CP));
        assert_eq!(parse_score("info score mate -"), Some(-MATE_CP));
        assert_eq!(parse_score("info depth 1 nodes 30"), None);
        assert_eq!(parse_score("info score"), None);
        assert_eq!(parse_score("info string my score cp 5"), None);
    }

    #[test]
    fn depths_and_nodes_from_info_lines() {
        let line = "info depth 12 seldepth 20 score cp 5 nodes 81234 nps 800000 pv 7g7f";
        assert_eq!(parse_info_number(line, "depth"), Some(12));
        assert_eq!(parse_info_number(line, "nodes"), Some(81234));
        assert_eq!(parse_info_number("info nodes x", "nodes"), None);
        assert_eq!(parse_info_number("info depth", "depth"), None);
        assert_eq!(parse_info_number("info string nodes 5", "nodes"), None);
    }

    #[test]
    fn pvs_from_info_lines() {
        let pv = parse_pv("info depth 3 score cp 34 pv 7g7f 3c3d 2g2f").unwrap();
        assert_eq!(pv, ["7g7f", "3c3d", "2g2f"]);
        assert_eq!(parse_pv("info depth 1 nodes 30"), None);
        assert_eq!(parse_pv("info string pv 7g7f"), None);
    }

    #[test]
    fn stderr_tail_keeps_the_last_line() {
        let mut tail = StderrTail::default();
        tail.push(&vec![b'a'; 10_000]);
        tail.push(b"\nTraceback: boom\n\n");
        assert_eq!(tail.bytes.len(), STDERR_TAIL);
        assert_eq!(tail.last_line().as_deref(), Some("Traceback: boom"));
    }
}
