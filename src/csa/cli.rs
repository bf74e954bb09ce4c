//! The `hayate csa` command line.

use super::client::ClientConfig;
use crate::usi_client::{split_command, EngineSpec};
use std::path::PathBuf;
use std::time::Duration;

/// The network margin taken off the engine's time by default: the move must travel to the
/// server before its clock runs out, and floodgate is far from most players.
pub const DEFAULT_MARGIN_MS: u64 = 1000;
/// Seconds of silence from the client before it sends a keep-alive (an empty line), the
/// interval the CSA protocol allows at most.
pub const DEFAULT_KEEPALIVE_S: u64 = 30;
/// How long a connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// `hayate csa`: play on a CSA-protocol server (floodgate, shogi-server) with hayate or
/// any USI engine.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Without --engine hayate plays itself (it runs its own binary as the USI engine); \
--option goes to whichever engine plays. Each game logs in anew; a lost connection ends \
that game, and the next one starts with a new login.

example: hayate csa --host wdoor.c.u-tokyo.ac.jp --port 4081 --id hayate_test \
--password floodgate-300-10F,secret --games 10 --option Threads=4 --out games/")]
pub struct CsaArgs {
    /// The server's host name or address
    #[arg(long)]
    host: String,
    /// The server's port
    #[arg(long, default_value_t = 4081)]
    port: u16,
    /// The login name
    #[arg(long)]
    id: String,
    /// What the server expects after the name (shogi-server: GAMENAME,TRIP, e.g.
    /// floodgate-300-10F,secret)
    #[arg(long)]
    password: String,
    /// Games to play one after another
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// A USI engine's command line as one argument (default: hayate itself)
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// A setoption sent to the engine after usiok, Name=Value (no '=' for a button)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Taken off the engine's time for the network, in ms
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_MARGIN_MS)]
    margin_ms: u64,
    /// Think on the opponent's time (sends USI_Ponder and go ponder)
    #[arg(long)]
    ponder: bool,
    /// Send a Fischer increment as byoyomi, for engines that know no binc/winc (gpsusi)
    #[arg(long)]
    inc_as_byoyomi: bool,
    /// Resign after 3 own moves in a row scored at or below -CP
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(1..))]
    resign: Option<i32>,
    /// Do not send the floodgate comment (score and PV) with each move
    #[arg(long)]
    no_comment: bool,
    /// Seconds of silence before a keep-alive empty line (0: none)
    #[arg(long, value_name = "S", default_value_t = DEFAULT_KEEPALIVE_S)]
    keepalive: u64,
    /// Write each game's CSA record and a JSON line (games.jsonl) here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Echo every protocol line on stderr
    #[arg(long)]
    trace: bool,
}

/// The arguments as a client configuration, or what is wrong with them.
pub fn config(args: CsaArgs) -> Result<ClientConfig, String> {
    let command = match &args.engine {
        Some(text) => split_command(text).map_err(|e| format!("--engine: {e}"))?,
        None => {
            let me = std::env::current_exe()
                .map_err(|e| format!("cannot find hayate's own binary to play: {e}"))?;
            vec![me.display().to_string()]
        }
    };
    let mut options = Vec::new();
    for text in &args.options {
        let (name, value) = match text.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
            None => (text.trim(), None),
        };
        if name.is_empty() {
            return Err(format!("--option '{text}': no option name"));
        }
        options.push((name.to_string(), value));
    }
    if args.id.is_empty() || args.id.chars().any(char::is_whitespace) {
        return Err(format!("--id '{}': a login name is one word", args.id));
    }
    if args.password.is_empty() || args.password.chars().any(char::is_whitespace) {
        return Err("--password: one word without spaces".into());
    }
    Ok(ClientConfig {
        host: args.host,
        port: args.port,
        id: args.id,
        password: args.password,
        games: args.games as usize,
        engine: EngineSpec {
            name: command[0].clone(),
            command,
            options,
            ..EngineSpec::default()
        },
        margin_ms: args.margin_ms,
        ponder: args.ponder,
        inc_as_byoyomi: args.inc_as_byoyomi,
        resign_cp: args.resign,
        comment: !args.no_comment,
        keepalive: (args.keepalive > 0).then(|| Duration::from_secs(args.keepalive)),
        connect_timeout: CONNECT_TIMEOUT,
        out: args.out,
        trace: args.trace,
    })
}
