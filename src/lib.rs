//! hayate: a USI shogi engine.
//!
//! The engine is this library; `src/main.rs` only hands the command line to [`run`].

pub mod attacks;
pub mod bench;
pub mod book;
pub mod cli;
pub mod csa;
pub mod datetime;
pub mod eval;
pub mod files;
pub mod learn;
pub mod lines;
pub mod matches;
pub mod mate;
pub mod memory;
pub mod netinfo;
pub mod perft;
pub mod position;
pub mod rng;
pub mod search;
pub mod threads;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;
pub mod usi;
pub mod usi_client;
pub mod win_rate;

pub use position::Position;
pub use types::{Bitboard, Color, Hand, Move, MoveList, Piece, PieceKind, Square};

/// The command line: no tool for the USI loop, else one tool with its own arguments.
#[derive(clap::Parser)]
#[command(
    name = "hayate",
    version,
    about = "hayate: a USI shogi engine. Without a command it speaks USI on stdin/stdout \
(what shogi GUIs start); the commands are its tools.",
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
}

#[derive(clap::Subcommand)]
enum Tool {
    /// Count the leaf nodes of the legal move tree
    Perft(perft::PerftArgs),
    /// Search fixed positions; prints '<nodes> nodes <nps> nps' last
    Bench(bench::BenchArgs),
    /// Solve a mate problem, or a file of them (the mate benchmark)
    Mate(mate::cli::MateArgs),
    /// Play a match between two USI engines
    Match(matches::cli::MatchArgs),
    /// Make an opening book with hayate's search
    Makebook(book::cli::MakebookArgs),
    /// Load a book: size, load time, memory; the moves for a position
    Bookinfo(book::cli::BookinfoArgs),
    /// Self-play training data (YaneuraOu PackedSfenValue records), or --read them
    Gensfen(learn::gensfen::GensfenArgs),
    /// Train an NNUE net on gensfen data
    Train(learn::train::TrainArgs),
    /// One round of the built-in net: its games, training, a gating match (resumable)
    Round(learn::round::RoundArgs),
    /// Self-play games for tuning the linear evaluation (positions with results)
    Selfplay(tune::SelfplayArgs),
    /// Fit the linear evaluation's weights to labelled positions
    Tune(tune::TuneArgs),
    /// Score self-play positions with a teacher engine, for tune
    Label(tune::LabelArgs),
    /// What a net file is: format, shape, hashes, FV_SCALE, memory
    Netinfo(netinfo::NetinfoArgs),
    /// Play on a CSA server (floodgate, shogi-server) with hayate or any USI engine
    Csa(csa::cli::CsaArgs),
}

/// Entry point of the `hayate` binary: with no arguments, the USI loop on stdin/stdout;
/// otherwise a command-line tool. Returns the process exit code (2 for a command line
/// that cannot run, as clap and every tool report it).
pub fn run(args: &[String]) -> i32 {
    use clap::{CommandFactory, FromArgMatches};
    if args.is_empty() {
        cli::end_quietly_on_closed_output();
        return usi::run_stdio();
    }
    let argv = std::iter::once("hayate".to_string()).chain(args.iter().cloned());
    let matches = match Cli::command().try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    if !matches!(
        cli.tool,
        Some(Tool::Match(_)) | Some(Tool::Label(_)) | Some(Tool::Round(_)) | Some(Tool::Csa(_))
    ) {
        cli::end_quietly_on_closed_output();
    }
    match cli.tool {
        None => usi::run_stdio(),
        Some(Tool::Perft(a)) => perft::run_cli(a),
        Some(Tool::Bench(a)) => bench::run_cli(a),
        Some(Tool::Mate(a)) => mate::cli::run_cli(a),
        Some(Tool::Match(a)) => {
            // The per-engine options need the positions clap keeps in the raw matches.
            let sub = matches
                .subcommand_matches("match")
                .expect("the match subcommand");
            matches::run_cli(a, sub, &args[1..])
        }
        Some(Tool::Makebook(a)) => book::cli::makebook_cli(a, &args[1..].join(" ")),
        Some(Tool::Bookinfo(a)) => book::cli::bookinfo_cli(a),
        Some(Tool::Gensfen(a)) => learn::gensfen::run_cli(a),
        Some(Tool::Train(a)) => learn::train::run_cli(a),
        Some(Tool::Round(a)) => learn::round::run_cli(a),
        Some(Tool::Selfplay(a)) => tune::selfplay_cli(a),
        Some(Tool::Tune(a)) => tune::tune_cli(a),
        Some(Tool::Label(a)) => tune::label_cli(a),
        Some(Tool::Csa(a)) => csa::run_cli(a),
        Some(Tool::Netinfo(a)) => netinfo::run_cli(a),
    }
}
