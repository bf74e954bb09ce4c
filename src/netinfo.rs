//! `hayate netinfo FILE`: the command-line side of [`crate::eval::nnue::info`].

use crate::eval::nnue::info::NetInfo;

/// `hayate netinfo`: a net file's format, shape, hashes and memory.
#[derive(clap::Args)]
#[command(args_override_self = true)]
pub struct NetinfoArgs {
    /// The net file (`internal` for the built-in net)
    file: String,
}

/// Runs `hayate netinfo`; returns the exit code (2, after one line on stderr, for a
/// file that is not a net hayate reads).
pub fn run_cli(args: NetinfoArgs) -> i32 {
    crate::cli::end_quietly_on_closed_output();
    match NetInfo::read(&args.file) {
        Ok(info) => {
            println!("{info}");
            0
        }
        Err(e) => {
            eprintln!("error: hayate netinfo: {}: {e}", args.file);
            crate::cli::BAD_INPUT
        }
    }
}
