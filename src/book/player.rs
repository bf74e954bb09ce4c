//! The book as the engine uses it: loaded (or dropped) at `isready` to match the options,
//! probed at `go`. Messages come back as text for the USI layer to print as `info string`.

use super::select::{self, Policy};
use super::{Book, BookMove};
use crate::position::Position;
use crate::rng::Rng;
use std::path::PathBuf;
use std::time::{Instant, SystemTime};

/// The `BookFile` value that names the book built into the binary (the default).
pub const INTERNAL: &str = "internal";

/// Malformed lines reported one by one at load; the rest are only counted.
const ERRORS_SHOWN: usize = 10;

/// What `BookFile` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookFile {
    /// Empty or `no_book`.
    None,
    /// `internal`: the embedded book.
    Internal,
    Path(PathBuf),
}

impl BookFile {
    /// Reads the option value: `no_book` or empty disables, `internal` is the built-in
    /// book, anything else a path (write `./internal` for a file of that name).
    pub fn from_option(value: &str) -> BookFile {
        match value.trim() {
            "" | "no_book" => BookFile::None,
            INTERNAL => BookFile::Internal,
            path => BookFile::Path(PathBuf::from(path)),
        }
    }
}

/// Everything the book options say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookConfig {
    /// `USI_OwnBook`.
    pub enabled: bool,
    pub file: BookFile,
    /// `BookMoves`: the book answers while the position's move number is at most this.
    pub max_ply: u32,
    pub policy: Policy,
    /// `BookSeed`: 0 draws a seed per process; any other value makes choices repeatable.
    pub seed: u64,
}

impl Default for BookConfig {
    fn default() -> BookConfig {
        BookConfig {
            enabled: true,
            file: BookFile::Internal,
            max_ply: 24,
            policy: Policy::default(),
            seed: 0,
        }
    }
}

/// The result of probing at `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// The move to play, if the book answers.
    pub choice: Option<BookMove>,
    /// How many book moves passed the filters.
    pub candidates: usize,
    /// Lines for `info string` (illegal book moves, why the book did not answer).
    pub notes: Vec<String>,
}

/// What identifies a loaded book file: its path, size and modification time, so a book
/// rewritten on disk is read again at the next `isready`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Loaded {
    None,
    Internal,
    File(PathBuf, u64, Option<SystemTime>),
}

fn identify(file: &BookFile) -> Loaded {
    match file {
        BookFile::None => Loaded::None,
        BookFile::Internal => Loaded::Internal,
        BookFile::Path(p) => {
            let meta = std::fs::metadata(p).ok();
            Loaded::File(
                p.clone(),
                meta.as_ref().map_or(0, |m| m.len()),
                meta.and_then(|m| m.modified().ok()),
            )
        }
    }
}

/// The engine's book and its random source.
pub struct BookPlayer {
    book: Option<Book>,
    loaded: Option<Loaded>,
    seed: Option<u64>,
    rng: Rng,
}

impl Default for BookPlayer {
    fn default() -> BookPlayer {
        BookPlayer::new()
    }
}

impl BookPlayer {
    pub fn new() -> BookPlayer {
        BookPlayer {
            book: None,
            loaded: None,
            seed: None,
            rng: Rng::from_state(1),
        }
    }

    /// Whether [`BookPlayer::prepare`] has run.
    pub fn is_prepared(&self) -> bool {
        self.loaded.is_some()
    }

    /// The loaded book, if any.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Brings the book and the random source in line with `config`: loads the book when
    /// the file changed, drops it when the book is off. Returns messages to show.
    pub fn prepare(&mut self, config: &BookConfig) -> Vec<String> {
        if self.seed != Some(config.seed) {
            self.seed = Some(config.seed);
            let seed = if config.seed != 0 {
                config.seed
            } else {
                let nanos = SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                nanos ^ (u64::from(std::process::id()) << 32)
            };
            self.rng = Rng::seeded(seed);
        }
        let wanted = if config.enabled {
            config.file.clone()
        } else {
            BookFile::None
        };
        let id = identify(&wanted);
        if self.loaded.as_ref() == Some(&id) {
            return Vec::new();
        }
        let first = self.loaded.is_none();
        let previous = self.book.take();
        self.loaded = Some(id);
        let started = Instant::now();
        let book = match &wanted {
            BookFile::None => return Vec::new(),
            BookFile::Internal => Book::internal(),
            BookFile::Path(p) => match Book::open(p) {
                Ok(b) => b,
                Err(e) => {
                    // A file that cannot be read leaves the book as it was: the built-in
                    // one when it was the first asked for (a GUI's BookFile arrives
                    // before the first `isready`, and the built-in book is the default).
                    self.book = if first {
                        Some(Book::internal())
                    } else {
                        previous
                    };
                    let kept = match &self.book {
                        Some(_) if first => "the built-in book stays".to_string(),
                        Some(b) => format!("the book {} stays", b.name()),
                        None => "playing without a book".to_string(),
                    };
                    return vec![format!("book: {e}; {kept}")];
                }
            },
        };
        let mut notes: Vec<String> = book
            .errors()
            .iter()
            .take(ERRORS_SHOWN)
            .map(|e| format!("book: {e} (skipped)"))
            .collect();
        if book.error_count() > ERRORS_SHOWN {
            notes.push(format!(
                "book: {} more malformed lines skipped",
                book.error_count() - ERRORS_SHOWN
            ));
        }
        if book.is_empty() {
            notes.push(format!(
                "book: {} holds no position; playing without a book",
                book.name()
            ));
            return notes;
        }
        // The built-in book loads quietly (it is the default, and `isready` should not
        // chatter); a book file confirms what was read.
        if wanted != BookFile::Internal {
            notes.push(format!(
                "book: {} positions from {} in {} ms",
                book.len(),
                book.name(),
                started.elapsed().as_millis()
            ));
        }
        self.book = Some(book);
        notes
    }

    /// The book's answer for `pos`, under `config`'s limits and filters.
    pub fn probe(&mut self, pos: &Position, config: &BookConfig) -> Probe {
        let mut probe = Probe::default();
        let Some(book) = &self.book else {
            return probe;
        };
        if !config.enabled || pos.ply() > config.max_ply {
            return probe;
        }
        let moves = match book.probe(pos) {
            Ok(m) => m,
            Err(e) => {
                probe.notes.push(format!("book: {e}"));
                return probe;
            }
        };
        if moves.is_empty() {
            return probe;
        }
        let eligible = select::eligible(pos, &moves, &config.policy);
        for e in &eligible.illegal {
            probe
                .notes
                .push(format!("book: skipping a book move not legal here: {e}"));
        }
        probe.candidates = eligible.moves.len();
        if eligible.moves.is_empty() {
            probe.notes.push(format!(
                "book: none of the {} book moves passes the book options; searching",
                moves.len()
            ));
            return probe;
        }
        if select::ignore(config.policy.ignore_rate, &mut self.rng) {
            probe
                .notes
                .push("book: left the book at random (BookIgnoreRate); searching".into());
            return probe;
        }
        probe.choice = select::pick(&eligible.moves, &mut self.rng);
        probe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(file: BookFile) -> BookConfig {
        BookConfig {
            file,
            seed: 7,
            ..BookConfig::default()
        }
    }

    #[test]
    fn option_values() {
        assert_eq!(BookFile::from_option(""), BookFile::None);
        assert_eq!(BookFile::from_option("no_book"), BookFile::None);
        assert_eq!(BookFile::from_option("internal"), BookFile::Internal);
        assert_eq!(
            BookFile::from_option("./internal"),
            BookFile::Path("./internal".into())
        );
    }

    #[test]
    fn loads_once_and_follows_the_options() {
        let mut player = BookPlayer::new();
        let mut c = config(BookFile::Internal);
        assert!(
            player.prepare(&c).is_empty(),
            "the built-in book loads quietly"
        );
        assert_eq!(player.book().map(|b| b.name()), Some("internal"));
        let start = Position::startpos();
        assert!(player.probe(&start, &c).choice.is_some());
        // Past BookMoves the book is not used.
        c.max_ply = 0;
        assert_eq!(player.probe(&start, &c), Probe::default());
        c.enabled = false;
        player.prepare(&c);
        assert!(player.book().is_none());
        c.enabled = true;
        c.file = BookFile::Path("/no/such/book.db".into());
        let notes = player.prepare(&c);
        assert!(
            notes[0].contains("cannot read /no/such/book.db"),
            "{notes:?}"
        );
        assert!(player.book().is_none());
    }

    #[test]
    fn a_seed_repeats_the_choices() {
        let start = Position::startpos();
        let run = |seed| {
            let mut player = BookPlayer::new();
            let c = BookConfig {
                seed,
                policy: Policy {
                    eval_diff: 10_000,
                    ..Policy::default()
                },
                ..BookConfig::default()
            };
            player.prepare(&c);
            (0..40)
                .map(|_| player.probe(&start, &c).choice.unwrap().mv.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(run(5), run(5));
    }
}
