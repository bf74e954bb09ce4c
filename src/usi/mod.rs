//! The USI protocol loop.
//!
//! This is the first slice of the front end: identification, `isready`, `position` with
//! error reporting, `go perft`, `d` and `quit`. Commands the engine does not handle yet
//! are answered with an `info string` so a GUI or a person sees why nothing happened.

use crate::perft::{self, LeafMode};
use crate::position::Position;
use std::io::{self, BufRead, Write};

/// Runs the loop on stdin/stdout until `quit` or end of input. Returns the exit code.
pub fn run_stdio() -> i32 {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut session = Session::default();
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return 0,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        let reply = session.handle(&text);
        for l in &reply.lines {
            if writeln!(out, "{l}").is_err() {
                return 0;
            }
        }
        let _ = out.flush();
        if reply.quit {
            return 0;
        }
    }
}

/// What a command produced: lines to print, and whether to stop.
#[derive(Default)]
pub struct Reply {
    pub lines: Vec<String>,
    pub quit: bool,
}

/// The protocol state between commands.
#[derive(Default)]
pub struct Session {
    position: Position,
}

impl Session {
    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let mut reply = Reply::default();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return reply;
        };
        let args = &tokens[1..];
        match command {
            "usi" => {
                reply
                    .lines
                    .push(format!("id name hayate {}", env!("CARGO_PKG_VERSION")));
                reply
                    .lines
                    .push("id author the hayate developers".to_string());
                reply.lines.push("usiok".to_string());
            }
            "isready" => {
                crate::attacks::init();
                reply.lines.push("readyok".to_string());
            }
            "usinewgame" | "stop" | "gameover" => {}
            "quit" => reply.quit = true,
            "position" => {
                if let Err(msg) = self.set_position(args) {
                    reply.lines.push(format!("info string {msg}"));
                }
            }
            "go" if args.first() == Some(&"perft") => match args.get(1).map(|d| d.parse::<u32>()) {
                Some(Ok(depth)) if depth <= 20 => {
                    let report = perft::run(&self.position, depth, LeafMode::Bulk, 1, true);
                    reply
                        .lines
                        .extend(report.to_text().lines().map(String::from));
                }
                _ => reply
                    .lines
                    .push("info string go perft needs a depth 0..20".to_string()),
            },
            "d" => {
                reply
                    .lines
                    .extend(self.position.diagram().lines().map(String::from));
                reply
                    .lines
                    .push(format!("key: {:016x}", self.position.key()));
                let checkers: Vec<String> =
                    self.position.checkers().map(|s| s.to_string()).collect();
                reply
                    .lines
                    .push(format!("checkers: {}", checkers.join(" ")));
                reply
                    .lines
                    .push(format!("legal moves: {}", self.position.count_legal()));
            }
            _ => {
                // Echo a short, printable form: the GUI log should not receive raw bytes.
                let shown: String = command
                    .chars()
                    .take(40)
                    .map(|c| if c.is_ascii_graphic() { c } else { '?' })
                    .collect();
                reply.lines.push(format!(
                    "info string unknown or unsupported command '{shown}'"
                ));
            }
        }
        reply
    }

    /// `position startpos|sfen <sfen> [moves ...]`. On a bad SFEN the previous position is
    /// kept; on a bad move the moves before it are applied.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::startpos(),
            Some(&"sfen") => setup[1..]
                .join(" ")
                .parse::<Position>()
                .map_err(|e| format!("bad sfen, position unchanged: {e}"))?,
            _ => {
                return Err(
                    "position needs 'startpos' or 'sfen <sfen>', position unchanged".to_string(),
                )
            }
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(mv) => pos.play_unchecked(mv),
                Err(e) => {
                    self.position = pos;
                    return Err(format!(
                        "illegal move {} ({e}); the first {i} moves were applied",
                        i + 1
                    ));
                }
            }
        }
        self.position = pos;
        Ok(())
    }
}
