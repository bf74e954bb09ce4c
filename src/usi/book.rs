//! The opening book in the USI session: loaded at `isready`, asked at `go`.

use super::{Bound, GoParams, Score, SearchInfo, Session};

impl Session {
    /// Loads, reloads or drops the book as the book options now say.
    pub(super) fn prepare_book(&mut self) {
        for note in self.book.prepare(&self.options.book_config()) {
            self.out.info_string(&note);
        }
    }

    /// Answers `go` from the book when it can; returns whether it did. The book answers
    /// game moves (a clock, a node limit or a bare `go`); `go depth`, `go movetime`,
    /// `go infinite` and `searchmoves` ask for a search, so they search. Under
    /// `go ponder` the answer waits for `ponderhit` or `stop`.
    pub(super) fn play_book_move(&mut self, params: &GoParams) -> bool {
        let analysis = params.infinite
            || params.depth.is_some()
            || params.movetime.is_some()
            || !params.searchmoves.is_empty();
        let config = self.options.book_config();
        if analysis || !config.enabled {
            return false;
        }
        if !self.book.is_prepared() {
            // `go` without `isready` first: load now rather than never.
            self.prepare_book();
        }
        let probe = self.book.probe(&self.position, &config);
        for note in &probe.notes {
            self.out.info_string(note);
        }
        let Some(choice) = probe.choice else {
            return false;
        };
        let mate = crate::book::make::MATE_VALUE;
        let score = if choice.value.abs() >= mate - 1000 {
            Score::Mate(choice.value.signum() * (mate - choice.value.abs()))
        } else {
            Score::Cp(choice.value)
        };
        let depth = choice.depth.max(1) as u32;
        let mut pv = vec![choice.mv];
        pv.extend(choice.ponder);
        self.out.info_string(&format!(
            "book move {} (value {}, depth {}, count {}; {} candidates)",
            choice.mv, choice.value, choice.depth, choice.count, probe.candidates
        ));
        self.out.line(
            &SearchInfo {
                depth,
                seldepth: depth,
                multipv: 1,
                score,
                bound: Bound::Exact,
                nodes: 0,
                time_ms: 0,
                hashfull: 0,
                pv,
            }
            .to_string(),
        );
        let line = match choice.ponder {
            Some(p) => format!("bestmove {} ponder {p}", choice.mv),
            None => format!("bestmove {}", choice.mv),
        };
        if params.ponder {
            self.book_answer = Some(line);
        } else {
            self.out.line(&line);
        }
        true
    }
}
