//! The evaluation in the USI session: `EvalFile`, `EvalDir` and `FV_SCALE` are read at
//! `isready` (and at a `go` that comes without one), a net is loaded only when the
//! source changed, and a file that cannot be used leaves the evaluation as it was (the
//! built-in net when it is refused before anything was loaded).

use super::options::EvalSource;
use super::Session;
use crate::eval::{nnue, Evaluator};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// What the session evaluates with, and where it came from.
#[derive(Default)]
pub(super) struct EvalState {
    /// The source of `net` (`None`: nothing asked for yet; no net, so the linear
    /// evaluation until the options are first read).
    loaded: Option<EvalSource>,
    /// The source that failed last: a `go` does not try it again (an `isready` does).
    failed: Option<EvalSource>,
    net: Option<Arc<nnue::Network>>,
}

/// A relative path as given, if it exists; else beside the engine's binary, where
/// YaneuraOu looks (GUIs do not all start engines in their own folder).
fn resolve(path: &str) -> PathBuf {
    let given = PathBuf::from(path);
    if given.is_absolute() || given.exists() {
        return given;
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(&given)))
        .filter(|p| p.exists())
        .unwrap_or(given)
}

impl Session {
    /// Brings the evaluation in line with the options. `retry`: try a source that failed
    /// before again (at `isready`, not at `go`).
    pub(super) fn prepare_eval(&mut self, retry: bool) {
        let source = self.options.eval_source();
        let state = &mut self.eval;
        if state.loaded.as_ref() == Some(&source)
            || (!retry && state.failed.as_ref() == Some(&source))
        {
            return;
        }
        let started = Instant::now();
        let (loaded, path) = match &source {
            EvalSource::Linear => {
                state.net = None;
                state.loaded = Some(source);
                state.failed = None;
                return;
            }
            EvalSource::Internal => (
                nnue::builtin::load(),
                format!("the built-in net ({})", nnue::builtin::NAME),
            ),
            EvalSource::File(path) => {
                let resolved = resolve(path);
                (
                    nnue::load(Path::new(&resolved)),
                    resolved.display().to_string(),
                )
            }
        };
        match loaded {
            Ok((net, warnings)) => {
                for w in warnings {
                    self.out.info_string(&format!("EvalFile {path}: {w}"));
                }
                // The built-in net, the default, loads without a word (as the built-in
                // book does): a GUI shows every info string, and this one would say
                // nothing the user chose. A file is named, with its shape, format and size.
                if source != EvalSource::Internal {
                    self.out.info_string(&format!(
                        "EvalFile: loaded {} ({}, {} bytes: {path}) in {} ms",
                        net.arch().name(),
                        net.arch().format(),
                        net.file_len(),
                        started.elapsed().as_millis()
                    ));
                }
                state.net = Some(Arc::new(net));
                state.loaded = Some(source);
                state.failed = None;
            }
            Err(e) => {
                // Refused before anything was loaded (an `EvalFile` set before the first
                // `isready`): what stays is the engine's default, the built-in net, not
                // the linear evaluation a session starts without.
                if state.loaded.is_none() {
                    if let Ok((net, _)) = nnue::builtin::load() {
                        state.net = Some(Arc::new(net));
                        state.loaded = Some(EvalSource::Internal);
                    }
                }
                let kept = match (&state.net, &state.loaded) {
                    (Some(_), Some(EvalSource::Internal)) => {
                        format!("the built-in net ({}) stays", nnue::builtin::NAME)
                    }
                    (Some(net), _) => format!("the net {} stays", net.arch().name()),
                    (None, _) => "the linear evaluation stays".to_string(),
                };
                self.out
                    .info_string(&format!("EvalFile refused, {kept}: {path}: {e}"));
                state.failed = Some(source);
            }
        }
    }

    /// The evaluation a search uses now.
    pub(super) fn evaluator(&self) -> Evaluator {
        match &self.eval.net {
            Some(net) => Evaluator::Nnue {
                net: net.clone(),
                fv_scale: self.options.fv_scale(),
            },
            None => Evaluator::Linear,
        }
    }
}
