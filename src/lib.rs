//! hayate: a USI shogi engine.
//!
//! The engine is this library; `src/main.rs` only hands the command line to [`run`].

pub mod attacks;
pub mod bench;
pub mod book;
pub mod eval;
pub mod files;
pub mod learn;
pub mod lines;
pub mod matches;
pub mod mate;
pub mod memory;
pub mod perft;
pub mod position;
pub mod search;
pub mod threads;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;
pub mod usi;

pub use position::Position;
pub use types::{Bitboard, Color, Hand, Move, MoveList, Piece, PieceKind, Square};

/// Entry point of the `hayate` binary: with no arguments, the USI loop on stdin/stdout;
/// otherwise a command-line tool (`perft`, `help`). Returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        None => usi::run_stdio(),
        Some("perft") => perft::run_cli(&args[1..]),
        Some("match") => matches::run_cli(&args[1..]),
        Some("mate") => mate::cli::run_cli(&args[1..]),
        Some("bench") => bench::run_cli(&args[1..]),
        Some("makebook") => book::cli::makebook_cli(&args[1..]),
        Some("bookinfo") => book::cli::bookinfo_cli(&args[1..]),
        Some("selfplay") => tune::selfplay_cli(&args[1..]),
        Some("tune") => tune::tune_cli(&args[1..]),
        Some("label") => tune::label_cli(&args[1..]),
        Some("gensfen") => learn::gensfen::run_cli(&args[1..]),
        Some("train") => learn::train::run_cli(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{}", HELP);
            0
        }
        Some("--version" | "-V") => {
            println!("hayate {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(other) => {
            eprintln!("hayate: unknown command '{other}'\n\n{HELP}");
            2
        }
    }
}

const HELP: &str = "\
hayate: a USI shogi engine

usage:
  hayate                      run the USI protocol on stdin/stdout (what GUIs start)
  hayate perft <depth> [--sfen \"<sfen>\"] [--divide] [--threads <n>] [--full]
                              count the leaf nodes of the legal move tree
  hayate bench [depth | --movetime <ms>] [--threads <n>] [--hash <mib>] [--evalfile <nn.bin>] [--fv-scale <n>]
                              search fixed positions; prints '<nodes> nodes <nps> nps'
  hayate gensfen --out <file> --games <n> (--nodes <n> | --depth <d>) --seed <s> [--concurrency <k>]
                              self-play training data as YaneuraOu PackedSfenValue records
                              (more flags: hayate gensfen --help); --read <file> shows them
  hayate train --data <file> --out <nn.bin> [--arch kp|halfkp] [--epochs n] [--lambda x]
                              train an NNUE net on gensfen data (hayate train --help)
  hayate selfplay [--games n] [--nodes n] [--seed s] [--concurrency k] [--out file]
                              self-play games for tuning (positions with results)
  hayate tune --data <file> [--validate file] [--out file] [--epochs n]
                              fit the evaluation weights to self-play results
  hayate label --engine <cmd> [--option name=value] --data <file> --out <file>
               [--go <go command>] [--concurrency k] [--limit n] [--seed s]
                              score self-play positions with a teacher engine for tune
  hayate mate [--sfen \"<sfen>\" | --file <file>] [--time <ms>] [--hash <mib>]
                              solve a mate problem (or a file of them: the mate benchmark)
  hayate match --engine <cmd> [engine options] --engine <cmd> [engine options] [options]
                              play a match between two USI engines (hayate match --help)
  hayate makebook --openings <file> --depth <d> --out <file> [options]
                              make an opening book with hayate's search (hayate makebook --help)
  hayate bookinfo <file> [--probe \"<position>\"]
                              load a book: size, load time, memory; the moves for a position
  hayate help                 this text";
