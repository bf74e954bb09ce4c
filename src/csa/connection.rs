//! One TCP connection to a CSA server, with bounded waits.
//!
//! A reader thread turns the socket into lines on a channel, so the client waits with
//! `recv_timeout` and can send keep-alives while it waits; writes have a timeout of their
//! own. Nothing here can block forever: a silent server is a timeout, a closed one an error.

use super::protocol::shown;
use crate::lines;
use std::fmt;
use std::io::{self, BufReader, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line kept from the server; a longer one is cut (and will not parse).
const MAX_LINE: usize = 64 * 1024;
/// How long a write may block on a server that stopped reading.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why talking to the server failed.
#[derive(Debug)]
pub enum ConnectionError {
    /// No connection could be made.
    Connect { addr: String, source: io::Error },
    /// The server closed the connection.
    Closed { waiting_for: &'static str },
    /// Reading or writing failed (a reset, a write that timed out).
    Io {
        doing: &'static str,
        source: io::Error,
    },
    /// Nothing came within the time allowed.
    Timeout {
        waiting_for: &'static str,
        after: Duration,
    },
}

impl fmt::Display for ConnectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectionError::Connect { addr, source } => {
                write!(f, "cannot connect to {addr}: {source}")
            }
            ConnectionError::Closed { waiting_for } => {
                write!(
                    f,
                    "the server closed the connection while waiting for {waiting_for}"
                )
            }
            ConnectionError::Io { doing, source } => {
                write!(f, "connection lost while {doing}: {source}")
            }
            ConnectionError::Timeout { waiting_for, after } => write!(
                f,
                "no {waiting_for} from the server within {:.0} s",
                after.as_secs_f64()
            ),
        }
    }
}

impl std::error::Error for ConnectionError {}

/// What the reader thread passes on.
enum Read {
    Line(String, Instant),
    Closed,
    Failed(io::Error),
}

/// A connection after `connect`: lines in through a channel, lines out with a timeout.
pub struct Connection {
    stream: TcpStream,
    lines: Receiver<Read>,
    /// When the client last sent anything (the keep-alive clock).
    last_sent: Instant,
    /// Send an empty line after this much silence from the client while waiting.
    keepalive: Option<Duration>,
    /// Echo every line sent and received to stderr.
    trace: bool,
}

impl Connection {
    /// Connects to `host:port`, trying each address the name resolves to.
    pub fn open(
        host: &str,
        port: u16,
        timeout: Duration,
        keepalive: Option<Duration>,
        trace: bool,
    ) -> Result<Connection, ConnectionError> {
        let addr = format!("{host}:{port}");
        let connect_error = |source| ConnectionError::Connect {
            addr: addr.clone(),
            source,
        };
        let addrs: Vec<_> = (host, port)
            .to_socket_addrs()
            .map_err(connect_error)?
            .collect();
        let mut last = io::Error::new(io::ErrorKind::NotFound, "the name has no address");
        let mut stream = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, timeout) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let stream = stream.ok_or_else(|| connect_error(last))?;
        let io_error = |source| ConnectionError::Io {
            doing: "setting up the connection",
            source,
        };
        // Moves are single short lines: send each at once.
        stream.set_nodelay(true).map_err(io_error)?;
        stream
            .set_write_timeout(Some(WRITE_TIMEOUT))
            .map_err(io_error)?;
        let reader = stream.try_clone().map_err(io_error)?;
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            let mut buf = Vec::new();
            loop {
                match lines::read_line_capped(&mut reader, &mut buf, MAX_LINE) {
                    Ok((0, _)) => {
                        let _ = tx.send(Read::Closed);
                        break;
                    }
                    Ok(_) => {
                        lines::trim_line_ending(&mut buf);
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Read::Line(line, Instant::now())).is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Read::Failed(e));
                        break;
                    }
                }
            }
        });
        Ok(Connection {
            stream,
            lines,
            last_sent: Instant::now(),
            keepalive,
            trace,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), ConnectionError> {
        if self.trace {
            eprintln!("> {line}");
        }
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.stream
            .write_all(&bytes)
            .and_then(|()| self.stream.flush())
            .map_err(|source| ConnectionError::Io {
                doing: "sending",
                source,
            })?;
        self.last_sent = Instant::now();
        Ok(())
    }

    /// The next line and when it arrived, waiting at most `timeout` (`None`: as long as
    /// it takes, with keep-alives). Keep-alives (an empty line) go out while waiting.
    pub fn next_line(
        &mut self,
        waiting_for: &'static str,
        timeout: Option<Duration>,
    ) -> Result<(String, Instant), ConnectionError> {
        let start = Instant::now();
        loop {
            let mut wait = match timeout {
                Some(t) => t.saturating_sub(start.elapsed()),
                None => Duration::from_secs(3600),
            };
            if let Some(k) = self.keepalive {
                wait = wait.min(k.saturating_sub(self.last_sent.elapsed()));
            }
            match self.lines.recv_timeout(wait) {
                Ok(Read::Line(line, at)) => {
                    if self.trace {
                        eprintln!("< {}", shown(&line));
                    }
                    return Ok((line, at));
                }
                Ok(Read::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(ConnectionError::Closed { waiting_for })
                }
                Ok(Read::Failed(source)) => {
                    return Err(ConnectionError::Io {
                        doing: "reading",
                        source,
                    })
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(t) = timeout {
                        if start.elapsed() >= t {
                            return Err(ConnectionError::Timeout {
                                waiting_for,
                                after: t,
                            });
                        }
                    }
                    if self
                        .keepalive
                        .is_some_and(|k| self.last_sent.elapsed() >= k)
                    {
                        self.send("")?;
                    }
                }
            }
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // Ends the reader thread, which is blocked on the socket.
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}
