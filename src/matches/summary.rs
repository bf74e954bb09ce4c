//! Running totals of a match: the line printed as each game ends, the final summary, and
//! how long each engine took over its moves against what its clock allowed.

use super::game::{EndReason, GameRecord, Outcome};
use super::stats::{format_elo, Sprt, SprtDecision, Tally};
use crate::types::Color;
use std::collections::BTreeMap;
use std::path::Path;

/// Running totals for the progress lines and the final summary.
pub(crate) struct Summary {
    names: [String; 2],
    pub(crate) tally: Tally,
    /// Engine 1's results by the colour it played.
    by_color: [Tally; 2],
    /// Wins by colour and draws, over all games with a result.
    color_wins: [u32; 2],
    draws: u32,
    no_result: u32,
    reasons: BTreeMap<EndReason, u32>,
    /// Faults by the engine that committed them (the loser of a fault game).
    faults: [BTreeMap<EndReason, u32>; 2],
    pub(crate) sprt: Option<Sprt>,
    /// Each engine's move times.
    times: [MoveTimes; 2],
    /// The SPRT decision and the number of games it was reached after, once a bound is
    /// crossed. Kept from then on: the match stops there.
    pub(crate) sprt_verdict: Option<(SprtDecision, u32)>,
}

impl Summary {
    pub(crate) fn new(names: [String; 2], sprt: Option<Sprt>) -> Summary {
        Summary {
            names,
            tally: Tally::default(),
            by_color: [Tally::default(); 2],
            color_wins: [0; 2],
            draws: 0,
            no_result: 0,
            reasons: BTreeMap::new(),
            faults: [BTreeMap::new(), BTreeMap::new()],
            sprt,
            times: [MoveTimes::default(), MoveTimes::default()],
            sprt_verdict: None,
        }
    }

    pub(crate) fn add(&mut self, game: &GameRecord) {
        for slot in 0..2 {
            self.times[slot].add(game, slot);
        }
        *self.reasons.entry(game.reason).or_default() += 1;
        match game.outcome {
            Outcome::Win(c) => {
                self.color_wins[c.index()] += 1;
                if game.reason.is_fault() {
                    let loser = game.engine_of[(!c).index()];
                    *self.faults[loser].entry(game.reason).or_default() += 1;
                }
            }
            Outcome::Draw => self.draws += 1,
            Outcome::NoResult => self.no_result += 1,
        }
        if let Some(points) = game.points_of_engine(0) {
            self.tally.add(points);
            self.by_color[game.color_of(0).index()].add(points);
        }
        if let (Some(sprt), None) = (&self.sprt, self.sprt_verdict) {
            if let Some(decision) = sprt.decision(&self.tally) {
                self.sprt_verdict = Some((decision, self.tally.games()));
            }
        }
    }

    /// `W-L-D` of engine 1 and its score.
    fn running_score(&self) -> String {
        let t = &self.tally;
        let score = t
            .score()
            .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
        format!("{}-{}-{} {score}", t.wins, t.losses, t.draws)
    }

    fn sprt_text(&self, sprt: &Sprt) -> String {
        let (lower, upper) = sprt.bounds();
        format!("LLR {:.2} [{lower:.2}, {upper:.2}]", sprt.llr(&self.tally))
    }

    /// One line per finished game, in the order games finish (with `--concurrency` that
    /// need not be game order; the game number says which).
    pub(crate) fn progress_line(&self, game: &GameRecord, total: usize) -> String {
        let mut line = format!(
            "game {}/{}: {} (black) vs {} (white), opening {}: {} {}, {} {}",
            game.index + 1,
            total,
            game.names[0],
            game.names[1],
            game.opening_index + 1,
            game.outcome.notation(),
            game.reason,
            game.moves.len(),
            if game.moves.len() == 1 {
                "ply"
            } else {
                "plies"
            }
        );
        if game.reason.is_fault() || game.outcome == Outcome::NoResult {
            line.push_str(&format!(" ({})", game.detail));
        }
        line.push_str(&format!(" | {}: {}", self.names[0], self.running_score()));
        if let Some(sprt) = &self.sprt {
            line.push_str(&format!(" | {}", self.sprt_text(sprt)));
        }
        line
    }

    pub(crate) fn final_text(&self, csa_path: &Path, json_path: &Path) -> String {
        let t = &self.tally;
        let [a, b] = &self.names;
        let mut s = String::new();
        let wld = |t: &Tally| format!("{} won, {} lost, {} drawn", t.wins, t.losses, t.draws);
        s.push_str(&format!("\nresult of {a} vs {b}\n"));
        s.push_str(&format!(
            "games: {} ({} without result)\n",
            t.games() + self.no_result,
            self.no_result
        ));
        s.push_str(&format!("{a}: {}", wld(t)));
        if let Some(score) = t.score() {
            s.push_str(&format!("; score {:.1}%", 100.0 * score));
        }
        s.push('\n');
        if let Some(e) = t.elo() {
            let one_kind = [t.wins, t.losses, t.draws].contains(&t.games());
            let interval = if one_kind {
                "no interval: every game had the same result".to_string()
            } else {
                format!(
                    "95% interval {} .. {}",
                    format_elo(e.lower),
                    format_elo(e.upper)
                )
            };
            s.push_str(&format!(
                "Elo difference: {} ({interval})\n",
                format_elo(e.elo)
            ));
            s.push_str(&format!("LOS: {:.1}%\n", 100.0 * t.los()));
        }
        s.push_str(&format!(
            "{a} as black: {}; as white: {}\n",
            wld(&self.by_color[Color::Black.index()]),
            wld(&self.by_color[Color::White.index()])
        ));
        s.push_str(&format!(
            "black won {}, white won {}, draws {}\n",
            self.color_wins[0], self.color_wins[1], self.draws
        ));
        if let Some(sprt) = &self.sprt {
            let verdict = match self.sprt_verdict {
                Some((SprtDecision::AcceptH1, n)) => format!("H1 accepted after {n} games"),
                Some((SprtDecision::AcceptH0, n)) => format!("H0 accepted after {n} games"),
                None => "no decision".to_string(),
            };
            s.push_str(&format!(
                "SPRT elo0 {} elo1 {} alpha {} beta {}: {}, {verdict}\n",
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                self.sprt_text(sprt)
            ));
        }
        let list = |m: &BTreeMap<EndReason, u32>| {
            m.iter()
                .map(|(r, n)| format!("{r} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        s.push_str(&format!("endings: {}\n", list(&self.reasons)));
        for (i, faults) in self.faults.iter().enumerate() {
            if !faults.is_empty() {
                s.push_str(&format!(
                    "games lost by {} to faults: {}\n",
                    self.names[i],
                    list(faults)
                ));
            }
        }
        for (name, times) in self.names.iter().zip(&self.times) {
            if let Some(text) = times.summary() {
                s.push_str(&format!("move times of {name}: {text}\n"));
            }
        }
        s.push_str(&format!(
            "records: {}, {}\n",
            csa_path.display(),
            json_path.display()
        ));
        s
    }
}

/// Where a move was played: the game (1-based) and the move's number after the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MoveAt {
    game: usize,
    ply: usize,
}

/// One engine's thinking times over a match: enough to show that it kept to its clock
/// (the least time it left itself) and how much of it it used.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct MoveTimes {
    moves: u64,
    total_ms: u64,
    longest: Option<(u64, MoveAt)>,
    /// The move that came closest to the engine's own clock limit: time left over (negative
    /// when the move ran past the limit but within the runner's margin), the limit, where.
    least_spare: Option<(i64, u64, MoveAt)>,
    /// Moves whose last `info` line gave a depth, and those depths summed.
    depth_moves: u64,
    depth_total: u64,
    /// Nodes and thinking time of the moves that reported a node count: nodes a second in
    /// the games themselves, where a fixed position's speed may mislead.
    searched_nodes: u64,
    searched_ms: u64,
}

impl MoveTimes {
    /// Adds the moves engine `slot` played in `game`.
    fn add(&mut self, game: &GameRecord, slot: usize) {
        let color = game.color_of(slot);
        let first_mover = game.opening.position().side_to_move();
        let first = if first_mover == color { 0 } else { 1 };
        for (i, m) in game.moves.iter().enumerate().skip(first).step_by(2) {
            let at = MoveAt {
                game: game.index + 1,
                ply: i + 1,
            };
            self.moves += 1;
            self.total_ms += m.time_ms;
            if let Some(d) = m.depth {
                self.depth_moves += 1;
                self.depth_total += u64::from(d);
            }
            if let Some(n) = m.nodes {
                self.searched_nodes += n;
                self.searched_ms += m.time_ms;
            }
            if self.longest.is_none_or(|(ms, _)| m.time_ms > ms) {
                self.longest = Some((m.time_ms, at));
            }
            if let Some(limit) = m.limit_ms {
                let spare = limit as i64 - m.time_ms as i64;
                if self.least_spare.is_none_or(|(s, _, _)| spare < s) {
                    self.least_spare = Some((spare, limit, at));
                }
            }
        }
    }

    /// `N moves, average A ms, longest L ms (game g, move m), least to spare S ms of T
    /// (game g, move m)`, or `None` before the engine has moved.
    fn summary(&self) -> Option<String> {
        let (longest, at) = self.longest?;
        let mut text = format!(
            "{} {}, average {} ms, longest {longest} ms (game {}, move {})",
            self.moves,
            if self.moves == 1 { "move" } else { "moves" },
            self.total_ms / self.moves.max(1),
            at.game,
            at.ply
        );
        if let Some((spare, limit, at)) = self.least_spare {
            let what = if spare >= 0 {
                format!("least time to spare {spare} ms of {limit}")
            } else {
                format!(
                    "past its clock by {} ms of {limit} (within the margin)",
                    -spare
                )
            };
            text.push_str(&format!("; {what} (game {}, move {})", at.game, at.ply));
        }
        if self.depth_moves > 0 {
            let depth = self.depth_total as f64 / self.depth_moves as f64;
            text.push_str(&format!("; depth {depth:.1} on average"));
        }
        if let Some(nps) = (self.searched_nodes * 1000).checked_div(self.searched_ms) {
            let sep = if self.depth_moves > 0 { "," } else { ";" };
            text.push_str(&format!("{sep} {nps} nodes a second"));
        }
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::game::PlayedMove;
    use crate::matches::opening::Opening;

    /// A game from `opening` whose moves took `times` (ms) against `limits`, engine 1
    /// (slot 0) playing White.
    fn game(opening: &str, times: &[u64], limits: &[Option<u64>]) -> GameRecord {
        let opening = Opening::parse(opening).unwrap();
        let mut pos = opening.position();
        let moves = times
            .iter()
            .zip(limits)
            .map(|(&time_ms, &limit_ms)| {
                let mv = pos.legal_moves()[0];
                pos.play_unchecked(mv);
                PlayedMove {
                    mv,
                    time_ms,
                    score: None,
                    depth: None,
                    nodes: None,
                    limit_ms,
                }
            })
            .collect();
        GameRecord {
            index: 4,
            opening_index: 0,
            opening,
            engine_of: [1, 0],
            names: ["b".into(), "a".into()],
            started_unix: 0,
            moves,
            outcome: Outcome::Draw,
            reason: EndReason::MaxMoves,
            detail: String::new(),
        }
    }

    #[test]
    fn move_times_follow_the_side_each_engine_played() {
        // After one opening move White is to move: engine 1 (White) plays moves 1 and 3.
        let g = game(
            "startpos moves 7g7f",
            &[100, 900, 300, 50],
            &[Some(1000), Some(1000), Some(400), Some(1000)],
        );
        let (mut white, mut black) = (MoveTimes::default(), MoveTimes::default());
        white.add(&g, 0);
        black.add(&g, 1);
        assert_eq!((white.moves, white.total_ms), (2, 400));
        assert_eq!(white.longest, Some((300, MoveAt { game: 5, ply: 3 })));
        assert_eq!(
            white.least_spare,
            Some((100, 400, MoveAt { game: 5, ply: 3 }))
        );
        assert_eq!((black.moves, black.total_ms), (2, 950));
        assert_eq!(black.least_spare.map(|s| s.0), Some(100));
        assert_eq!(
            white.summary().unwrap(),
            "2 moves, average 200 ms, longest 300 ms (game 5, move 3); \
             least time to spare 100 ms of 400 (game 5, move 3)"
        );
    }

    #[test]
    fn a_move_past_the_clock_and_fixed_limits_are_reported_as_such() {
        let late = game("startpos", &[1100], &[Some(1000)]);
        let mut black = MoveTimes::default();
        black.add(&late, 1);
        assert!(black
            .summary()
            .unwrap()
            .ends_with("past its clock by 100 ms of 1000 (within the margin) (game 5, move 1)"));
        let fixed = game("startpos", &[20, 30], &[None, None]);
        let mut black = MoveTimes::default();
        black.add(&fixed, 1);
        assert_eq!(
            black.summary().unwrap(),
            "1 move, average 20 ms, longest 20 ms (game 5, move 1)"
        );
        assert_eq!(MoveTimes::default().summary(), None);
    }

    #[test]
    fn depths_and_nodes_a_second_come_from_the_moves_that_reported_them() {
        let mut g = game("startpos", &[200, 100, 300, 100, 500], &[None; 5]);
        // Black's moves: 1, 3 and 5; move 5 reported nothing.
        for (i, (depth, nodes)) in [(Some(10), Some(100_000)), (Some(13), Some(240_000))]
            .into_iter()
            .enumerate()
        {
            g.moves[2 * i].depth = depth;
            g.moves[2 * i].nodes = nodes;
        }
        g.moves[1].depth = Some(40);
        let mut black = MoveTimes::default();
        black.add(&g, 1);
        assert!(
            black
                .summary()
                .unwrap()
                .ends_with("; depth 11.5 on average, 680000 nodes a second"),
            "{:?}",
            black.summary()
        );
    }
}
