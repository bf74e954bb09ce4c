//! `info` lines, in the field order GUIs parse: depth, seldepth, multipv, score, nodes,
//! nps, hashfull, time, then `pv` last because it takes the rest of the line.

use crate::types::Move;
use std::fmt;

/// A search score as USI prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many plies: positive when hayate mates, negative when it is mated.
    Mate(i32),
}

/// Whether the score is exact or only a bound (a fail-high or fail-low result).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// One search report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    /// Transposition table use in permille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl fmt::Display for SearchInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info depth {} seldepth {} multipv {} score ",
            self.depth, self.seldepth, self.multipv
        )?;
        match self.score {
            Score::Cp(cp) => write!(f, "cp {cp}")?,
            Score::Mate(plies) => write!(f, "mate {plies}")?,
        }
        match self.bound {
            Bound::Exact => {}
            Bound::Lower => f.write_str(" lowerbound")?,
            Bound::Upper => f.write_str(" upperbound")?,
        }
        let nps = self.nodes * 1000 / self.time_ms.max(1);
        write!(
            f,
            " nodes {} nps {} hashfull {} time {}",
            self.nodes, nps, self.hashfull, self.time_ms
        )?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_in_gui_order() {
        let info = SearchInfo {
            depth: 12,
            seldepth: 18,
            multipv: 1,
            score: Score::Cp(-35),
            bound: Bound::Lower,
            nodes: 2_000_000,
            time_ms: 1000,
            hashfull: 123,
            pv: vec![
                Move::from_usi("7g7f").unwrap(),
                Move::from_usi("8c8d").unwrap(),
            ],
        };
        assert_eq!(
            info.to_string(),
            "info depth 12 seldepth 18 multipv 1 score cp -35 lowerbound nodes 2000000 \
             nps 2000000 hashfull 123 time 1000 pv 7g7f 8c8d"
        );
        let mate = SearchInfo {
            score: Score::Mate(-4),
            bound: Bound::Exact,
            pv: vec![],
            ..info
        };
        assert!(mate.to_string().contains(" score mate -4 nodes "));
        assert!(!mate.to_string().contains(" pv"));
    }
}
