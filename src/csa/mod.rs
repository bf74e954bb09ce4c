//! `hayate csa`: a client of the CSA server protocol, so that hayate, or any USI engine
//! it bridges, plays on floodgate and shogi-server.
//!
//! - [`protocol`]: the server's lines and the Game_Summary as typed values;
//! - [`clock`]: both clocks from the server's move times, and the engine's `go`;
//! - [`connection`]: one TCP connection with bounded waits and keep-alives;
//! - [`client`]: the games, from login to the result line;
//! - [`record`]: each game's CSA record and JSON line;
//! - [`cli`]: the command line.
//!
//! Moves and positions in CSA notation are the position module's (`position::csa`).

pub mod cli;
pub mod client;
pub mod clock;
pub mod connection;
pub mod protocol;
pub mod record;

pub use client::{Client, ClientConfig, ClientError, GameReport};

use protocol::GameResult;
use std::io::Write;

/// Runs `hayate csa`: the games one after another, a line for each, a tally at the end.
/// Exit code 0 once every game was played (a game cut short by a lost connection
/// counts), 1 when the run had to stop early (refused login, unreachable server, an
/// engine that will not start, records that cannot be written).
pub fn run_cli(args: cli::CsaArgs) -> i32 {
    let config = match cli::config(args) {
        Ok(c) => c,
        Err(e) => return crate::cli::bad_input("csa", e),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(config, &mut out) {
        Ok(_) => 0,
        Err(e) => crate::cli::failed("csa", e),
    }
}

/// Plays the configured games, writing progress to `out`. Returns every game's report,
/// or the error that stopped the run.
pub fn run(config: ClientConfig, out: &mut dyn Write) -> Result<Vec<GameReport>, ClientError> {
    let games = config.games;
    let records = config.out.clone();
    let server = format!("{}:{}", config.host, config.port);
    let mut client = Client::new(config);
    let name = client.start_engine()?;
    let _ = writeln!(
        out,
        "engine {} ready; {games} game(s) on {server}",
        name.as_deref().unwrap_or("(no id name)")
    );
    let mut reports = Vec::new();
    for number in 1..=games {
        let (report, error) = client.play(number);
        let _ = writeln!(out, "{}", report.describe());
        let _ = out.flush();
        if let Some(dir) = &records {
            if let Err(source) = record::write(dir, &report) {
                return Err(ClientError::Records {
                    dir: dir.clone(),
                    source,
                });
            }
        }
        reports.push(report);
        if let Some(e) = error {
            if e.is_fatal() {
                return Err(e);
            }
        }
    }
    let count = |r: GameResult| reports.iter().filter(|g| g.result == Some(r)).count();
    let _ = writeln!(
        out,
        "{} games: {} won, {} lost, {} drawn, {} without a result",
        reports.len(),
        count(GameResult::Win),
        count(GameResult::Lose),
        count(GameResult::Draw),
        reports.len() - count(GameResult::Win) - count(GameResult::Lose) - count(GameResult::Draw)
    );
    Ok(reports)
}
