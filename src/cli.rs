//! What the command-line tools share besides clap: one style for the errors found after
//! the arguments parsed (clap reports the ones it finds itself the same way), the exit
//! codes, and how a closed output ends a run.

use std::fmt::Display;

/// Exit code for bad input: a malformed argument, file or position.
pub const BAD_INPUT: i32 = 2;
/// Exit code for a run that started but could not finish (an engine that would not
/// start, a record that could not be written).
pub const FAILED: i32 = 1;

/// Reports bad input the way clap reports a bad argument; returns [`BAD_INPUT`].
pub fn bad_input(tool: &str, message: impl Display) -> i32 {
    eprintln!("error: {message}\n\nFor more information, try 'hayate {tool} --help'.");
    BAD_INPUT
}

/// Most search threads (or games at once) a tool takes.
pub const MAX_THREADS: u16 = 1024;
/// Largest transposition table a tool takes, MiB (the machine's memory is checked too).
pub const MAX_HASH_MIB: u32 = 1 << 20;

/// The parser of a tool's `--threads` (1 to [`MAX_THREADS`]).
pub fn threads_arg() -> clap::builder::RangedI64ValueParser<u16> {
    clap::value_parser!(u16).range(1..=i64::from(MAX_THREADS))
}

/// The parser of a tool's `--hash` (1 to [`MAX_HASH_MIB`]).
pub fn hash_arg() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=i64::from(MAX_HASH_MIB))
}

/// The evaluation arguments every searching tool takes (`#[command(flatten)]`).
#[derive(clap::Args, Clone, Debug)]
pub struct EvalArgs {
    /// An NNUE net file, `internal` for the built-in net, or `linear` for the hand-made
    /// evaluation (the default)
    #[arg(long, value_name = "PATH")]
    pub evalfile: Option<String>,
    /// The net's output scale (1-128)
    #[arg(long, default_value_t = crate::eval::nnue::DEFAULT_FV_SCALE, value_parser = clap::value_parser!(i32).range(1..=128))]
    pub fv_scale: i32,
}

impl EvalArgs {
    /// The evaluation named, as [`evaluator`] loads it.
    pub fn load(&self, tool: &str) -> Result<crate::eval::Evaluator, i32> {
        evaluator(tool, self.evalfile.as_deref(), self.fv_scale)
    }
}

/// The evaluation a tool's `--evalfile` names (`linear` when none is given): a net's
/// warnings go to stderr; a name that loads nothing is bad input (`Err` holds the exit
/// code, the error already reported).
pub fn evaluator(
    tool: &str,
    evalfile: Option<&str>,
    fv_scale: i32,
) -> Result<crate::eval::Evaluator, i32> {
    let name = evalfile.unwrap_or(crate::eval::LINEAR);
    match crate::eval::Evaluator::named(name, fv_scale) {
        Ok((eval, warnings)) => {
            for w in warnings {
                eprintln!("hayate {tool}: {name}: {w}");
            }
            Ok(eval)
        }
        Err(e) => Err(bad_input(tool, format!("--evalfile {name}: {e}"))),
    }
}

/// Reports a run that failed; returns [`FAILED`].
pub fn failed(tool: &str, message: impl Display) -> i32 {
    eprintln!("error: hayate {tool}: {message}");
    FAILED
}

/// Lets a write to a closed pipe end the process quietly, as it ends any Unix tool
/// (`hayate bench | head -1`, a GUI that closed the engine's stdout), instead of the panic
/// that Rust's `println!` raises on the error it sees while SIGPIPE is ignored (Rust's
/// default). Not for the tools that drive other engines (`match`, `label`): an engine
/// that exits must not take the referee down when it is sent its next command.
pub fn end_quietly_on_closed_output() {
    #[cfg(target_os = "linux")]
    // SAFETY: `signal` with SIG_DFL only resets the disposition of SIGPIPE; no handler
    // runs, and no memory is shared with the call.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
