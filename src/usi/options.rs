//! Engine options as USI exposes them: declared once in a table, printed by `usi`, set by
//! `setoption`, read by the engine through typed getters.

use crate::position::EnteringKingRule;
use std::fmt;

/// The type and bounds of one option.
#[derive(Clone, Debug)]
enum Kind {
    Spin {
        min: i64,
        max: i64,
        default: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        vars: &'static [&'static str],
        default: &'static str,
    },
    Filename {
        default: &'static str,
    },
    Text {
        default: &'static str,
    },
}

#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
}

const TABLE: &[(&str, Kind)] = &[
    (
        "USI_Hash",
        Kind::Spin {
            min: 1,
            max: 1 << 20,
            default: 256,
        },
    ),
    (
        "Threads",
        Kind::Spin {
            min: 1,
            max: 1024,
            default: 1,
        },
    ),
    ("USI_Ponder", Kind::Check { default: false }),
    (
        "MultiPV",
        Kind::Spin {
            min: 1,
            max: 800,
            default: 1,
        },
    ),
    ("USI_OwnBook", Kind::Check { default: true }),
    (
        "BookFile",
        Kind::Filename {
            default: crate::book::player::INTERNAL,
        },
    ),
    (
        "BookMoves",
        Kind::Spin {
            min: 0,
            max: 10_000,
            default: 24,
        },
    ),
    (
        "BookEvalDiff",
        Kind::Spin {
            min: 0,
            max: 100_000,
            default: 30,
        },
    ),
    (
        "BookDepthLimit",
        Kind::Spin {
            min: 0,
            max: 1000,
            default: 0,
        },
    ),
    ("NarrowBook", Kind::Check { default: false }),
    (
        "BookIgnoreRate",
        Kind::Spin {
            min: 0,
            max: 100,
            default: 0,
        },
    ),
    (
        "BookSeed",
        Kind::Spin {
            min: 0,
            max: i32::MAX as i64,
            default: 0,
        },
    ),
    (
        "EnteringKingRule",
        Kind::Combo {
            vars: &EnteringKingRule::NAMES,
            default: "CSARule27",
        },
    ),
    (
        "MateHash",
        Kind::Spin {
            min: 1,
            max: 1 << 20,
            default: 256,
        },
    ),
    (
        "MaxMovesToDraw",
        Kind::Spin {
            min: 0,
            max: 100_000,
            default: 0,
        },
    ),
    (
        "NetworkDelay",
        Kind::Spin {
            min: 0,
            max: 10_000,
            default: 120,
        },
    ),
    (
        "NetworkDelay2",
        Kind::Spin {
            min: 0,
            max: 10_000,
            default: 1120,
        },
    ),
    (
        "MinimumThinkingTime",
        Kind::Spin {
            min: 1000,
            max: 100_000,
            default: 2000,
        },
    ),
    (
        "SlowMover",
        Kind::Spin {
            min: 1,
            max: 1000,
            default: 100,
        },
    ),
    (
        "EvalFile",
        Kind::Filename {
            default: EVAL_DEFAULT,
        },
    ),
    (
        "EvalDir",
        Kind::Text {
            default: EVAL_DIR_NONE,
        },
    ),
    (
        "FV_SCALE",
        Kind::Spin {
            min: 1,
            max: 128,
            default: crate::eval::nnue::DEFAULT_FV_SCALE as i64,
        },
    ),
];

/// `EvalFile` for the net built into the binary.
pub const EVAL_INTERNAL: &str = crate::eval::nnue::builtin::NAME;
/// `EvalFile` for the hand-made linear evaluation.
pub const EVAL_LINEAR: &str = crate::eval::LINEAR;
/// `EvalFile` by default: the built-in net, since it beat the hand-made evaluation by the
/// margin issue 21 sets (docs/training.md, "A fifth round").
pub const EVAL_DEFAULT: &str = EVAL_INTERNAL;
/// `EvalDir` when no folder is given (the value YaneuraOu shows for "no folder"; it does
/// not choose the built-in net, `EvalFile=internal` does).
pub const EVAL_DIR_NONE: &str = "<internal>";
/// The file YaneuraOu reads from `EvalDir`.
pub const EVAL_DIR_FILE: &str = "nn.bin";

/// Where the evaluation comes from, as the options say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSource {
    /// The net built into the binary.
    Internal,
    /// The hand-made linear evaluation.
    Linear,
    /// A net file.
    File(String),
}

impl EvalSource {
    /// The source an `EvalFile` value names.
    fn named(value: &str) -> EvalSource {
        if value.eq_ignore_ascii_case(EVAL_LINEAR) {
            EvalSource::Linear
        } else if value.eq_ignore_ascii_case(EVAL_INTERNAL) {
            EvalSource::Internal
        } else {
            EvalSource::File(value.to_string())
        }
    }
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value does not parse for the option's type (the option is unchanged).
    BadValue {
        name: String,
        value: String,
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "unknown option '{n}'"),
            OptionError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "option {name}: '{value}' is not {expected}; value unchanged"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

/// `setoption` for one of the search's constants (built with the `spsa` feature): they
/// are global, so every search thread sees the new value from its next node on.
#[cfg(feature = "spsa")]
fn set_search_param(
    param: &crate::search::params::Param,
    value: &str,
) -> Result<Option<String>, OptionError> {
    let n = parse_integer(value).ok_or_else(|| OptionError::BadValue {
        name: param.name.to_string(),
        value: value.to_string(),
        expected: "an integer".to_string(),
    })?;
    let clamped = n.clamp(param.min as i128, param.max as i128) as i64;
    crate::search::params::set(param.name, clamped);
    Ok((clamped as i128 != n).then(|| {
        format!(
            "option {}: {value} is outside {}..{}; set to {clamped}",
            param.name, param.min, param.max
        )
    }))
}

/// Current values of every option.
#[derive(Clone, Debug)]
pub struct Options {
    values: Vec<Value>,
}

impl Default for Options {
    fn default() -> Options {
        let values = TABLE
            .iter()
            .map(|(_, kind)| match kind {
                Kind::Spin { default, .. } => Value::Int(*default),
                Kind::Check { default } => Value::Bool(*default),
                Kind::Combo { default, .. }
                | Kind::Filename { default }
                | Kind::Text { default } => Value::Text(default.to_string()),
            })
            .collect();
        Options { values }
    }
}

impl Options {
    /// The `option name …` lines that `usi` prints.
    pub fn usi_lines() -> Vec<String> {
        let lines = TABLE.iter().map(|(name, kind)| match kind {
            Kind::Spin { min, max, default } => {
                let max = (*max).min(machine_limit(name));
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            Kind::Combo { vars, default } => {
                let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {name} type combo default {default} {}",
                    vars.join(" ")
                )
            }
            Kind::Filename { default } => {
                format!("option name {name} type filename default {default}")
            }
            Kind::Text { default } => {
                format!("option name {name} type string default {default}")
            }
        });
        #[cfg(feature = "spsa")]
        let lines = lines.chain(crate::search::params::ALL.iter().map(|p| {
            format!(
                "option name {} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            )
        }));
        lines.collect()
    }

    /// Sets an option (name case-insensitive). `Ok(Some(note))` when the value was
    /// accepted after clamping, with a note saying so.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Option<String>, OptionError> {
        #[cfg(feature = "spsa")]
        if let Some(param) = crate::search::params::ALL
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
        {
            return set_search_param(param, value);
        }
        let index = TABLE
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let (canonical, kind) = &TABLE[index];
        let bad = |expected: &str| OptionError::BadValue {
            name: canonical.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        let value = if value == "<empty>" { "" } else { value };
        let mut note = None;
        self.values[index] = match kind {
            Kind::Spin { min, max, .. } => {
                let n = parse_integer(value).ok_or_else(|| bad("an integer"))?;
                let max = (*max).min(machine_limit(canonical));
                let clamped = n.clamp(*min as i128, max as i128) as i64;
                if clamped as i128 != n {
                    note = Some(format!(
                        "option {canonical}: {value} is outside {min}..{max}; set to {clamped}"
                    ));
                }
                if let ("USI_Hash" | "MateHash", Err(physical)) =
                    (*canonical, crate::memory::check_fits(clamped as usize))
                {
                    return Err(bad(&format!(
                        "at most this machine's memory, {physical} MiB"
                    )));
                }
                Value::Int(clamped)
            }
            Kind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return Err(bad("true or false")),
            },
            Kind::Combo { vars, .. } => match vars.iter().find(|v| v.eq_ignore_ascii_case(value)) {
                Some(v) => Value::Text(v.to_string()),
                None => return Err(bad(&format!("one of {}", vars.join(" ")))),
            },
            Kind::Filename { .. } | Kind::Text { .. } => Value::Text(value.to_string()),
        };
        Ok(note)
    }

    fn get(&self, name: &str) -> &Value {
        let index = TABLE
            .iter()
            .position(|(n, _)| *n == name)
            .expect("option declared in TABLE");
        &self.values[index]
    }

    fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Value::Int(n) => *n,
            _ => unreachable!("{name} is a spin option"),
        }
    }

    fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Value::Bool(true))
    }

    fn text(&self, name: &str) -> &str {
        match self.get(name) {
            Value::Text(t) => t,
            _ => unreachable!("{name} is a text option"),
        }
    }

    /// Where the evaluation comes from: the file `nn.bin` in `EvalDir` when that is set
    /// and `EvalFile` is left at its default (GUIs that know YaneuraOu's convention set
    /// only the folder), else what `EvalFile` names.
    pub fn eval_source(&self) -> EvalSource {
        let file = self.text("EvalFile").trim();
        let dir = self.text("EvalDir").trim();
        let at_default = file.is_empty() || file.eq_ignore_ascii_case(EVAL_DEFAULT);
        if at_default && !dir.is_empty() && !dir.eq_ignore_ascii_case(EVAL_DIR_NONE) {
            let path = std::path::Path::new(dir).join(EVAL_DIR_FILE);
            EvalSource::File(path.to_string_lossy().into_owned())
        } else if file.is_empty() {
            EvalSource::named(EVAL_DEFAULT)
        } else {
            EvalSource::named(file)
        }
    }
    /// `FV_SCALE`: the net's output units per unit of evaluation.
    pub fn fv_scale(&self) -> i32 {
        self.int("FV_SCALE") as i32
    }
    /// Transposition table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.int("USI_Hash") as usize
    }
    /// Size of the `go mate` proof table, apart from the search's `USI_Hash`.
    pub fn mate_hash_mib(&self) -> usize {
        self.int("MateHash") as usize
    }
    pub fn threads(&self) -> usize {
        self.int("Threads") as usize
    }
    pub fn ponder(&self) -> bool {
        self.flag("USI_Ponder")
    }
    pub fn multi_pv(&self) -> usize {
        self.int("MultiPV") as usize
    }
    pub fn own_book(&self) -> bool {
        self.flag("USI_OwnBook")
    }
    /// Book path; `None` when disabled (empty or `no_book`).
    pub fn book_file(&self) -> Option<&str> {
        match self.text("BookFile") {
            "" | "no_book" => None,
            path => Some(path),
        }
    }
    /// The book options together: which book, up to which ply, how moves are chosen.
    pub fn book_config(&self) -> crate::book::BookConfig {
        crate::book::BookConfig {
            enabled: self.own_book(),
            file: crate::book::BookFile::from_option(self.text("BookFile")),
            max_ply: self.int("BookMoves") as u32,
            policy: crate::book::Policy {
                eval_diff: self.int("BookEvalDiff") as i32,
                depth_limit: self.int("BookDepthLimit") as i32,
                narrow: self.flag("NarrowBook"),
                ignore_rate: self.int("BookIgnoreRate") as u32,
            },
            seed: self.int("BookSeed") as u64,
        }
    }
    pub fn entering_king_rule(&self) -> EnteringKingRule {
        self.text("EnteringKingRule").parse().unwrap_or_default()
    }
    /// 0 when off; otherwise the game is drawn once the ply number exceeds it.
    pub fn max_moves_to_draw(&self) -> u32 {
        self.int("MaxMovesToDraw") as u32
    }
    pub fn network_delay(&self) -> u64 {
        self.int("NetworkDelay") as u64
    }
    pub fn network_delay2(&self) -> u64 {
        self.int("NetworkDelay2") as u64
    }
    pub fn minimum_thinking_time(&self) -> u64 {
        self.int("MinimumThinkingTime") as u64
    }
    pub fn slow_mover(&self) -> u64 {
        self.int("SlowMover") as u64
    }
}

/// Search threads per core allowed: more only add switching (1024 threads on two cores
/// took 24 s to start).
const THREADS_PER_CORE: i64 = 4;

/// The largest value this machine allows for an option, beyond its declared range.
fn machine_limit(name: &str) -> i64 {
    match name {
        "Threads" => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as i64;
            (cores * THREADS_PER_CORE).max(1)
        }
        _ => i64::MAX,
    }
}

/// An integer of any size (a value past `i64` is kept as a large number to clamp, not
/// refused as malformed); `None` when the text is not an integer.
pub(super) fn parse_integer(text: &str) -> Option<i128> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude: i128 = digits.parse().unwrap_or(i128::MAX);
    Some(if text.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_source_follows_evalfile_then_evaldir_at_the_default() {
        let source = |file: Option<&str>, dir: Option<&str>| {
            let mut o = Options::default();
            if let Some(f) = file {
                o.set("EvalFile", f).unwrap();
            }
            if let Some(d) = dir {
                o.set("EvalDir", d).unwrap();
            }
            o.eval_source()
        };
        let nn = |dir: &str| {
            EvalSource::File(
                std::path::Path::new(dir)
                    .join(EVAL_DIR_FILE)
                    .to_string_lossy()
                    .into_owned(),
            )
        };
        // The defaults: the built-in net.
        assert_eq!(source(None, None), EvalSource::Internal);
        assert_eq!(source(None, Some("<INTERNAL>")), EvalSource::Internal);
        // Names, in any case.
        assert_eq!(source(Some("Internal"), None), EvalSource::Internal);
        assert_eq!(source(Some("LINEAR"), None), EvalSource::Linear);
        assert_eq!(
            source(Some("nets/a.bin"), None),
            EvalSource::File("nets/a.bin".into())
        );
        // A folder applies while EvalFile is at its default; any other EvalFile wins.
        assert_eq!(source(None, Some("eval")), nn("eval"));
        assert_eq!(source(Some("internal"), Some("eval")), nn("eval"));
        assert_eq!(source(Some("linear"), Some("eval")), EvalSource::Linear);
        assert_eq!(
            source(Some("b.bin"), Some("eval")),
            EvalSource::File("b.bin".into())
        );
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn search_params_are_spin_options() {
        let lines = Options::usi_lines();
        let default = rfp_margin_default();
        let line = format!("option name rfp_margin type spin default {default} min 20 max 400");
        assert!(lines.contains(&line), "{line}");
        let mut o = Options::default();
        assert_eq!(o.set("RFP_MARGIN", "150"), Ok(None));
        assert_eq!(crate::search::params::rfp_margin(), 150);
        assert!(o.set("rfp_margin", "1000").unwrap().is_some());
        assert_eq!(crate::search::params::rfp_margin(), 400);
        assert!(o.set("rfp_margin", "x").is_err());
        assert_eq!(o.set("rfp_margin", &default.to_string()), Ok(None));
    }

    /// `rfp_margin`'s default in the table of the search's constants (tuning moves it).
    #[cfg(feature = "spsa")]
    fn rfp_margin_default() -> i32 {
        let all = crate::search::params::ALL;
        all.iter().find(|p| p.name == "rfp_margin").unwrap().default
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn search_params_manifest_for_shogiarena() {
        let manifest: serde_json::Value =
            serde_json::from_str(&crate::usi::tunables_manifest()).unwrap();
        assert_eq!(manifest["schema_version"], "shogiarena.usi_tunables.v1");
        let tunables = manifest["tunables"].as_array().unwrap();
        assert_eq!(tunables.len(), crate::search::params::ALL.len());
        let rfp = tunables.iter().find(|t| t["id"] == "rfp_margin").unwrap();
        assert_eq!(
            (&rfp["option"], &rfp["default"], &rfp["min"], &rfp["max"]),
            (
                &"rfp_margin".into(),
                &rfp_margin_default().into(),
                &20.into(),
                &400.into()
            )
        );
        assert_eq!(rfp["schedule"]["c_end"], 19.0);
    }

    #[cfg(not(feature = "spsa"))]
    #[test]
    fn search_params_are_no_options_in_a_normal_build() {
        assert!(!Options::usi_lines()
            .iter()
            .any(|l| l.contains("rfp_margin")));
        assert!(Options::default().set("rfp_margin", "150").is_err());
    }

    #[test]
    fn set_and_clamp() {
        let mut o = Options::default();
        assert_eq!(o.threads(), 1);
        assert_eq!(o.set("threads", "4"), Ok(None));
        assert_eq!(o.threads(), 4);
        assert!(o.set("Threads", "5000").unwrap().is_some());
        let most = machine_limit("Threads") as usize;
        assert!((4..=1024).contains(&most));
        assert_eq!(o.threads(), most);
        assert!(o.set("Threads", "x").is_err());
        assert_eq!(o.threads(), most);
        // Past the integer range: clamped, not refused.
        assert!(o
            .set("Threads", "99999999999999999999999")
            .unwrap()
            .is_some());
        assert_eq!(o.threads(), most);
        assert!(o
            .set("MultiPV", "-99999999999999999999999")
            .unwrap()
            .is_some());
        assert_eq!(o.multi_pv(), 1);
        assert!(matches!(o.set("Nope", "1"), Err(OptionError::Unknown(_))));
        o.set("EnteringKingRule", "tryrule").unwrap();
        assert_eq!(o.entering_king_rule(), EnteringKingRule::TryRule);
        o.set("BookFile", "<empty>").unwrap();
        assert_eq!(o.book_file(), None);
        o.set("usi_ponder", "TRUE").unwrap();
        assert!(o.ponder());
    }

    #[test]
    fn usi_lines_list_every_option() {
        let lines = Options::usi_lines();
        assert_eq!(lines.len(), TABLE.len());
        assert!(lines
            .iter()
            .any(|l| l.contains("EnteringKingRule type combo")));
    }
}
