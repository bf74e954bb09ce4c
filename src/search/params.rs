//! The search's tuning constants, each with a name, a range and the reason for its value.
//!
//! Each is read through a function of its name (`params::rfp_margin()`). In a normal
//! build the function returns the constant and the compiler folds it into the code, so
//! the search is what it would be with the number written in place. Built with the
//! `spsa` cargo feature, every constant is also a USI spin option of the same name
//! (`setoption name rfp_margin value 120`), so that an SPSA tuner can drive them over
//! USI; see docs/tuning.md, "Tuning the search". The ranges are what a tuner may try: wide
//! enough to find a better value, narrow enough that every value is a working search.
//!
//! Reductions and margins in 1/1024 of a ply are written that way because the
//! late-move reduction is computed in those units.

/// One tunable constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

macro_rules! params {
    ($($(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal..=$max:literal;)+) => {
        /// Every tunable constant, in the order of this file.
        pub const ALL: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
        }),+];

        #[allow(non_camel_case_types)]
        #[cfg(feature = "spsa")]
        #[derive(Clone, Copy)]
        enum Id {
            $($name),+
        }

        #[cfg(feature = "spsa")]
        static VALUES: [std::sync::atomic::AtomicI32; ALL.len()] =
            [$(std::sync::atomic::AtomicI32::new($default)),+];

        $(
            $(#[doc = $doc])+
            #[cfg(not(feature = "spsa"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                $default
            }

            $(#[doc = $doc])+
            #[cfg(feature = "spsa")]
            #[inline(always)]
            pub fn $name() -> i32 {
                VALUES[Id::$name as usize].load(std::sync::atomic::Ordering::Relaxed)
            }
        )+
    };
}

params! {
    /// Late-move reductions: the constant part, in thousandths of a ply (about 0.3 ply).
    lmr_base = 274, 0..=1500;
    /// Late-move reductions grow as ln(depth)·ln(move number) divided by this, in
    /// hundredths (about 2.1): about one ply at depth 4 and the 5th move.
    lmr_divisor = 210, 100..=500;
    /// A non-PV node is reduced this much more (1/1024 ply): its result matters less.
    lmr_non_pv = 1054, 0..=3072;
    /// An expected cut node is reduced this much more (1/1024 ply): a move that refutes
    /// it is usually among the first.
    lmr_cut_node = 977, 0..=3072;
    /// An improving position is reduced this much less (1/1024 ply).
    lmr_improving = 533, 0..=2048;
    /// A check, given or escaped, is reduced this much less (1/1024 ply): forcing lines
    /// are where shogi's tactics hide.
    lmr_check = 696, 0..=3072;
    /// The quiet history changes the reduction by history / this (in plies): a move that
    /// often cut off is reduced less.
    lmr_history_divisor = 8413, 1024..=32768;
    /// A non-PV node that was once on a principal variation (the table says so) is
    /// reduced this much less (1/1024 ply): it is likelier to matter.
    lmr_tt_pv = 0, 0..=3072;
    /// A quiet move is reduced this much more (1/1024 ply) when the table move is a
    /// capture: the capture is probably the best move, and quiet ones rarely beat it.
    lmr_tt_capture = 0, 0..=3072;
    /// A reduced move that beat alpha is re-searched a ply deeper when it also beat the
    /// best score so far by this margin plus 2·depth (centipawns; 0: off)...
    lmr_deeper_margin = 0, 0..=200;
    /// ...and a ply shallower when it beat the best score by less than this (only while
    /// `lmr_deeper_margin` is on).
    lmr_shallower_margin = 10, 0..=100;

    /// Which late-move reduction to use: 0 the one above; 1 YaneuraOu's shape (the
    /// `lmr_y_*` terms below): much more at nodes never on a principal variation and at
    /// expected cut nodes, much less at nodes that were, a reduced move of a PV node
    /// searched a ply deeper, and a reduced depth that may exceed the full one by two.
    lmr_model = 0, 0..=1;
    /// Model 1: a reduced move may be searched this many plies deeper than the full
    /// depth when its reduction is negative...
    lmr_y_deeper = 2, 0..=2;
    /// ...and at a PV node this many plies deeper still.
    lmr_y_pv_ply = 1, 0..=1;
    /// Model 1: the constant part (1/1024 ply)...
    lmr_y_base = 1824, 0..=4096;
    /// ...plus this share (1/1024) of the ln·ln part when not improving...
    lmr_y_not_improving = 412, 0..=1024;
    /// ...less this for each move searched before...
    lmr_y_move_count = 65, 0..=256;
    /// ...less this at a PV node (YaneuraOu's window term with the root's window)...
    lmr_y_pv = 585, 0..=2048;
    /// ...less this at a node that was on a principal variation...
    lmr_y_tt_pv = 1806, 0..=4096;
    /// ...and this more when it is one now...
    lmr_y_tt_pv_pv = 973, 0..=2048;
    /// ...and this more when the table's score is above alpha...
    lmr_y_tt_pv_above_alpha = 905, 0..=2048;
    /// ...and this more when the table's entry is as deep as this node...
    lmr_y_tt_pv_deep = 935, 0..=2048;
    /// ...and this more for that at an expected cut node.
    lmr_y_tt_pv_deep_cut = 959, 0..=2048;
    /// Model 1: an expected cut node is reduced this much more...
    lmr_y_cut = 3611, 0..=6144;
    /// ...and this much more again without a table move.
    lmr_y_cut_no_tt_move = 985, 0..=2048;
    /// Model 1: every move is reduced this much more when the table move is a capture.
    lmr_y_tt_capture = 1054, 0..=2048;
    /// Model 1: at a node expected to fail low, the reduction grows by this share
    /// (1/256) of itself, divided by depth + 1.
    lmr_y_all_node = 273, 0..=1024;

    /// Reverse futility pruning is tried up to this depth.
    rfp_depth = 7, 1..=16;
    /// Reverse futility margin per ply of depth (centipawns).
    rfp_margin = 110, 20..=400;
    /// The margin is this much smaller when the static evaluation is improving.
    rfp_improving = 47, 0..=200;

    /// Which reverse futility pruning (step 5) to use. 0: to `rfp_depth` at every non-PV
    /// node, returning the static evaluation. 1: YaneuraOu's shape: to `rfp_y_depth` only
    /// at nodes never on a principal variation whose table move is none or a capture, its
    /// margin `rfp_y_margin` a ply (less without a table entry) less 2.6 times that when
    /// improving and a third when the opponent's position got worse, returning two thirds
    /// of the way back to beta. 1 against 0 at 100,000 nodes (2026-11-29): −154
    /// (−347 .. −25) in 24 games.
    rfp_model = 0, 0..=1;
    /// Which null-move pruning (step 5) to use. 0: at every non-PV node from `nmp_depth`
    /// whose static evaluation is at or above beta, the reduction growing with the
    /// evaluation. 1: YaneuraOu's shape: only at expected cut nodes whose static
    /// evaluation beats beta by `nmp_y_margin` less `nmp_y_slope` a ply, reduced
    /// `nmp_y_base` + depth / 3, at any depth (below the reduction it is answered by the
    /// quiescence search), verified from depth 16. 1 against 0 at 100,000 nodes
    /// (2026-11-29): +7.7 (−27.8 .. +43.4) in 360 games (it stood at +62 after 68); with
    /// reverse futility in YaneuraOu's shape too, −110 in 88.
    nmp_model = 0, 0..=1;
    /// Model 1: reverse futility below this depth.
    rfp_y_depth = 15, 1..=20;
    /// Model 1: the reverse futility margin a ply (centipawns) with a table entry.
    rfp_y_margin = 76, 20..=200;
    /// Model 1: the null move's margin over beta (centipawns)...
    nmp_y_margin = 378, 0..=800;
    /// ...less this a ply of depth.
    nmp_y_slope = 16, 0..=40;
    /// Model 1: the null move's reduction, this plus depth / 3.
    nmp_y_base = 7, 1..=10;

    /// Razoring up to this depth (0: off): a node whose static evaluation is far below
    /// alpha is answered by the quiescence search when that confirms it.
    razor_depth = 3, 0..=8;
    /// Razoring's margin: this...
    razor_base = 424, 0..=2000;
    /// ...plus this times depth² (centipawns).
    razor_margin = 385, 0..=1000;

    /// `nmp_model` 0: null-move pruning from this depth on.
    nmp_depth = 3, 1..=8;
    /// `nmp_model` 0: the null move's reduction, this many plies...
    nmp_base = 5, 1..=8;
    /// ...plus one per this many plies of depth...
    nmp_depth_divisor = 3, 1..=12;
    /// ...plus one per this many centipawns that the evaluation exceeds beta...
    nmp_eval_divisor = 165, 50..=800;
    /// ...but at most this many for the evaluation.
    nmp_eval_max = 3, 0..=6;
    /// From this depth a null-move cutoff is verified by a reduced search with null
    /// moves off, against zugzwang-like positions (rare in shogi, but costly when met).
    nmp_verify_depth = 12, 6..=30;

    /// ProbCut from this depth on (0: off): a capture that beats beta by this margin in a
    /// search four plies shallower cuts the node.
    probcut_depth = 5, 0..=16;
    /// See `probcut_depth` (centipawns; less this margin's quarter when improving).
    probcut_margin = 195, 50..=600;

    /// Singular extensions from this depth on (one more at a node that was on a PV): the
    /// table move is extended when every other move, searched to half the depth, falls
    /// short of its table score by a margin.
    singular_depth = 6, 4..=12;
    /// The singular margin: this many centipawns per ply of depth, in 1/64.
    singular_margin = 80, 16..=256;
    /// A singular move is extended two plies when the others fall this much further
    /// (centipawns) short.
    singular_double_margin = 18, 0..=200;
    /// 1: the singular extension in YaneuraOu's amounts (`singular_y`): its margin, up
    /// to three plies of extension, −3 and −2 for a table move that does not stand
    /// out, and a singular node a ply deeper for its later moves. 0: hayate's.
    singular_model = 0, 0..=1;

    /// Internal iterative reduction from this depth on: a PV or cut node without a table
    /// move is searched a ply shallower.
    iir_depth = 4, 2..=10;

    /// Late-move pruning: after (this + lmp_factor·depth²) / 2 moves (twice that when
    /// improving) the remaining quiets are skipped: 2, 3, 6, 9 at depths 1 to 4, chess's
    /// and YaneuraOu's count. Shogi has two to three times chess's moves, and at 20,000
    /// nodes a looser count won (9 + 2·d², −27.5 for this one in 355 games, the SPSA
    /// runs kept it); but at 100,000 nodes this count beat it by +58.2 (+14.0 .. +104.4)
    /// in 229 games (2026-11-29): the loose count paid only in shallow trees.
    lmp_base = 3, 2..=64;
    /// See `lmp_base`.
    lmp_factor = 1, 1..=12;

    /// Futility pruning of quiet moves up to this (reduced) depth.
    futility_depth = 6, 1..=12;
    /// Futility margin: this plus `futility_margin` per ply (centipawns).
    futility_base = 118, 0..=400;
    /// See `futility_base`.
    futility_margin = 115, 30..=400;
    /// The quiet history adds history / this to the futility margin.
    futility_history_divisor = 64, 8..=512;

    /// Quiet moves are sorted (by history, continuation history and threats) when they
    /// score above −this·depth; the rest keep generation order. With every failed quiet
    /// marked down, most scores are negative: a floor of 0 left most moves unsorted.
    quiet_sort_limit = 3361, 0..=20000;

    /// The quiet moves' order counts the main history this many times beside the
    /// continuation rows (YaneuraOu: twice).
    order_main_weight = 1, 1..=4;
    /// The low-ply history (0: not used): quiet moves by origin and destination at the
    /// first `LOW_PLY` plies of the search, cleared at every `go`, count this many times
    /// over (1 + ply) in the quiet order (YaneuraOu: 8 over twice its main weight; the
    /// root's moves are ordered by what cut off at this search's earlier iterations).
    low_ply_weight = 4, 0..=16;
    /// A capture counts as good (searched before the quiets) when it loses by exchange
    /// no more than its ordering score (16 × the victim and promotion gain, plus its
    /// capture history) over this (0: only when it loses nothing; YaneuraOu's 7 × the
    /// victim over 18 is about 41 here).
    good_capture_divisor = 40, 0..=200;
    /// Quiet evasions are ordered by the main history and the continuation history by
    /// the move just played (1), or by the main history alone (0).
    evasion_continuation = 1, 0..=1;
    /// The pawn-structure history (0: not kept): its weight in the quiet moves' order;
    /// it also counts once in the history that prunes and reduces (YaneuraOu: 2).
    pawn_history = 0, 0..=4;

    /// Quiet moves whose history (main and continuation, summed) is below
    /// −`history_prune_margin`·depth are pruned below this reduced depth (0: off).
    history_prune_depth = 4, 0..=12;
    /// See `history_prune_depth`.
    history_prune_margin = 4408, 500..=16000;

    /// Quiet moves that lose more than `see_quiet_margin`·depth² by exchange are pruned
    /// up to this (reduced) depth.
    see_quiet_depth = 8, 1..=16;
    /// See `see_quiet_depth` (centipawns).
    see_quiet_margin = 16, 5..=150;
    /// Captures and promotions that lose more than `see_tactical_margin`·depth are pruned
    /// up to this depth.
    see_tactical_depth = 8, 1..=16;
    /// See `see_tactical_depth` (centipawns).
    see_tactical_margin = 149, 20..=400;

    /// Futility pruning of captures (not checks) below this reduced depth (0: off): a
    /// capture is skipped when the static evaluation plus what the capture wins (the
    /// victim off the board and into the hand), its capture history / 8 and a margin
    /// stays at or below alpha (Stockfish's and YaneuraOu's rule). 7 against 0 at
    /// 20,000 nodes: +36.0 Elo (+8.4 .. +64.1), SPRT(0, 25) H1 after 591 games.
    capture_futility_depth = 7, 0..=12;
    /// See `capture_futility_depth`: the margin's constant part (centipawns)...
    capture_futility_base = 80, 0..=600;
    /// ...and its part per ply of reduced depth.
    capture_futility_margin = 114, 0..=600;

    /// Every check is extended up to this depth; deeper, only checks that do not lose
    /// the checking piece by exchange.
    check_extension_depth = 6, 0..=16;
    /// Checks are extended at all (1), or never (0: YaneuraOu's and Stockfish's rule,
    /// the singular extension left to find the forcing lines).
    check_extension = 1, 0..=1;
    /// 1: checks past the late-move count are extended too; 0: a check is extended only
    /// while the node's moves are within that count (Stockfish 8's and the YaneuraOu of
    /// its time's rule: a late check is rarely what the line turns on).
    check_extension_late = 1, 0..=1;
    /// Checks are extended only at this depth or deeper (0: at every depth; Stockfish
    /// 14's rule extended them from depth 7 only).
    check_extension_min_depth = 0, 0..=12;

    /// Quiescence delta pruning: a capture that would leave the side this far (centipawns)
    /// below alpha even after winning the piece is skipped.
    delta_margin = 211, 0..=1000;
    /// Quiescence outside check: after this many moves, only recaptures on the last
    /// move's square and promotions are searched (0: no limit). YaneuraOu's and
    /// Stockfish's count; +24 Elo (−8 .. +56) in 451 games at 20,000 nodes against none.
    qs_move_limit = 2, 0..=16;
    /// Quiescence outside check, at a node the table does not know: look for a mate in
    /// one first (1: on, YaneuraOu's rule; 0: off). The static evaluation knows nothing
    /// of a mate the side to move has on the board. +24 Elo (−5 .. +54) in 532 games at
    /// 20,000 nodes; it costs about 6% of the nodes a second and reaches a depth sooner.
    qs_mate_one = 1, 0..=1;
    /// Quiescence in check, once one evasion has shown the side is not mated: 1 skips
    /// the evasions that capture nothing (interpositions, drops, king steps) and the
    /// captures that lose material by exchange (YaneuraOu's and Stockfish's rule);
    /// 0 searches every evasion. Shogi's drops make many interpositions. +21.6 Elo
    /// (+0.2 .. +43.1) in 1,000 self-play games at 20,000 nodes; nodes to depth 14 on
    /// the sharpest of five positions 5.4 M → 1.2 M.
    qs_evasion_prune = 1, 0..=1;
    /// Quiescence outside check: 1 searches every promotion, past `qs_move_limit` too;
    /// 0 searches of the promotions that capture nothing only a pawn's, and only within
    /// the move limit, as the other moves (YaneuraOu's rule: a silver or knight that
    /// promotes in quiet gains too little to be worth the leaves). 0: +33.4 Elo
    /// (+7.4 .. +59.7), SPRT(0, 25) H1 after 679 self-play games at 20,000 nodes.
    qs_all_promotions = 0, 0..=1;
    /// Quiescence's stand pat, 1: the table's score where its bound says the position is
    /// worth more (a lower bound above the evaluation) or less (an upper bound below it),
    /// and a stand pat at or above beta returns halfway to beta (YaneuraOu's and
    /// Stockfish's rules); 0: the corrected static evaluation, returned as it is.
    qs_stand_pat_model = 0, 0..=1;
    /// The main search's pruning before the moves (razoring, reverse futility, the null
    /// move), 1: judged by the table's score instead of the static evaluation where the
    /// entry's bound says the position is worth more (a lower bound above it) or less (an
    /// upper bound below it), as Stockfish and YaneuraOu judge it; 0: by the corrected
    /// static evaluation alone. Off: +16.5 (−14.9 .. +48.0) in 465 self-play games at
    /// 100,000 nodes, not proven (docs/search.md, twenty-fifth session).
    tt_eval = 0, 0..=1;
    /// Quiescence outside check, 1: a capture must win by exchange at least what the
    /// stand pat lacks to alpha, less `delta_margin` (YaneuraOu's futility by exchange);
    /// 0: it must only not lose material.
    qs_see_futility = 0, 0..=1;
    /// Main search: which promotions that capture nothing count as quiet moves, ordered
    /// by history among the quiets, pruned, reduced and rewarded as quiet moves are
    /// (YaneuraOu counts every one but a pawn's as quiet). 0: none, every promotion is
    /// tactical, ordered with the captures by its gain; 1: a silver's, knight's or
    /// lance's, worth little more than the same move unpromoted; 2: every one but a
    /// pawn's.
    quiet_promotions = 0, 0..=2;
    /// 1: the searches (main, quiescence, root) skip a pawn's, bishop's or rook's move
    /// that could promote and does not, and a lance's to its second-farthest rank
    /// unpromoted: never better than the promotion (the promoted piece goes everywhere
    /// the plain one does, and a tokin does not block pawn drops on its file), so
    /// YaneuraOu generates none of them unless told to; 0: every legal move.
    skip_non_promotions = 0, 0..=1;

    /// The score of a repetition in which the side to move keeps strictly more in hand
    /// (negated: strictly less), centipawns. The opponent lost material in the cycle and
    /// can be made to lose it again, so it counts as won (YaneuraOu's rule), though below
    /// a perpetual check's win. It was 600, which let the search give up a rook and a
    /// gold for −600; +16 Elo (−13 .. +45) in 557 games at 20,000 nodes.
    superior_repetition = 14_000, 0..=15_000;

    /// Aspiration windows from this depth on.
    aspiration_depth = 4, 1..=12;
    /// The first aspiration window's half-width (centipawns); it grows by half on each
    /// failure.
    aspiration_delta = 35, 5..=200;
    /// After each failure high of the aspiration window the root is searched again this
    /// many plies shallower per failure (Stockfish's rule: a fail high usually holds, and
    /// the shallower search confirms it sooner), back to the full depth after a failure
    /// low (0: always the full depth).
    aspiration_fail_high_plies = 0, 0..=2;

    /// Correction history: the weight (in 1/1024) of the material table's entry in the
    /// correction added to the static evaluation...
    correction_material_weight = 63, 0..=256;
    /// ...and of each king area's entry...
    correction_king_weight = 39, 0..=256;
    /// ...and of the pawn structure's entry (0: not kept)...
    correction_pawn_weight = 0, 0..=256;
    /// ...and of the last two moves' entry (0: not kept; the main search only).
    correction_continuation_weight = 0, 0..=256;
    /// Late moves are reduced less by |correction| · this / 16 (1/1024 ply per
    /// centipawn the correction history moved the static evaluation; YaneuraOu's
    /// amount is 82).
    lmr_correction = 0, 0..=256;
    /// Which features key the correction: 0 the material and the king areas (with the
    /// weights above); 1 where the pieces stand, as Stockfish and YaneuraOu key theirs:
    /// the pawns, the small pieces (lance, knight, silver, gold and their promotions),
    /// and each side's other pieces, each placement hashed as the pieces move (with the
    /// weights below; the last two moves' entry as above).
    correction_model = 1, 0..=1;
    /// `correction_model` 1: the weight (1/1024) of the pawns' entry (YaneuraOu's 95)...
    correction_y_pawn = 95, 0..=256;
    /// ...of the small pieces' entry (YaneuraOu's 67)...
    correction_y_small = 67, 0..=256;
    /// ...and of each side's other pieces' entry (YaneuraOu's 97).
    correction_y_own = 97, 0..=256;

    /// History bonus for a cutoff at depth d: this·d² + `history_bonus_linear`·d...
    history_bonus_quadratic = 32, 0..=128;
    /// ...see `history_bonus_quadratic`...
    history_bonus_linear = 66, 0..=512;
    /// ...capped at this, so that deep cutoffs do not swamp the table.
    history_bonus_max = 2611, 200..=8000;
    /// The moves searched before a cutoff lose this share (percent) of the cutoff's
    /// bonus: a move that failed is likelier to fail again than the cutoff's move is to
    /// cut again (YaneuraOu's malus is several times its bonus). 200 against 100 at
    /// 20,000 nodes: +13.8 Elo (−16 .. +44) in 502 games, then +21.7 (−2 .. +46) in 800.
    history_malus = 178, 0..=400;
    /// ...but at most this much.
    history_malus_max = 16384, 256..=16384;
    /// When a node fails low, the opponent's quiet move that led to it gets this share
    /// (percent) of a cutoff's bonus: it refuted whatever this side tried (0: off).
    prior_quiet_bonus = 0, 0..=300;
    /// A node that raised alpha without a cutoff (a PV node's exact score) also teaches
    /// the histories its best move, as a cutoff does (0: only cutoffs teach).
    history_exact_reward = 0, 0..=1;
    /// Hindsight depth (0: off): a node its parent reduced by 3 plies or more is searched
    /// a ply deeper unless the opponent's position got worse by the move; one reduced by
    /// 2 or more, a ply shallower when both sides' static evaluations add up to more
    /// than `hindsight_margin` (a quiet position where little happens).
    hindsight = 0, 0..=1;
    /// See `hindsight` (centipawns).
    hindsight_margin = 173, 0..=600;
    /// A table cutoff by a quiet table move at or above beta gives that move this share
    /// (percent) of a cutoff's bonus in the histories (0: off), so that the move ordering
    /// learns from the table's cutoffs too.
    tt_cut_reward = 0, 0..=200;
    /// Whether a node improves is judged against four plies back when the node two
    /// plies back was in check (1), instead of counting it as improving (0).
    improving_skip_check = 0, 0..=1;
    /// Continuation history rows beyond the moves one, two and four plies back: 0 none,
    /// 1 also six plies back, 2 also three and six plies back.
    continuation_extra = 0, 0..=2;
    /// 1: the continuation history keeps the rows of an earlier move made in check, or
    /// of a capture or promotion, apart from the others (Stockfish's and YaneuraOu's
    /// four sets); 0: one set.
    continuation_context = 0, 0..=1;
    /// The opponent's last quiet move learns from what it did to the static evaluation:
    /// its main-history entry moves by this tenth of the change (clamped, see
    /// `eval_change_bonus`) at every main-search node not in check (0: off). A move
    /// after which the mover's position looks worse is tried later next time
    /// (Stockfish's and YaneuraOu's rule; their weight is 10 on a table that saturates
    /// at less than half of hayate's).
    eval_change_weight = 0, 0..=40;
    /// 1: the table's score cuts a non-PV node only from an entry a ply deeper than
    /// asked when it is a lower bound, and below depth 6 only where it agrees with the
    /// node's expected type (a lower bound at a cut node, an upper bound at an all
    /// node); Stockfish's and YaneuraOu's rule. 0: any entry as deep as asked.
    tt_cut_model = 0, 0..=1;
    /// At a cut node without a table move, the first move searched (no late-move
    /// reduction applies to it) goes this many plies shallower, but not below one ply
    /// (0: off). Such a node expects a cutoff and has no evidence which
    /// move gives it; YaneuraOu's reduction sum pushes this move two plies short there.
    cut_first_shorten = 0, 0..=2;
    /// The null move is tried only when the static evaluation beats beta by this much,
    /// less `nmp_margin_slope` a ply of depth (0 and 0: whenever it is at or above
    /// beta). YaneuraOu's 378 and 16 leave the shallow nodes to reverse futility.
    nmp_margin_base = 0, 0..=600;
    /// See `nmp_margin_base`.
    nmp_margin_slope = 0, 0..=40;
    /// 1: once reverse futility and the null move have passed a node by, it also counts
    /// as improving when its static evaluation is at or above beta (YaneuraOu's and
    /// Stockfish's rule), so that late-move pruning keeps twice the moves there and the
    /// reductions shrink. 0: improving only by the evaluation two plies back.
    improving_above_beta = 0, 0..=1;
    /// A late move is reduced this much more (1/1024 ply; 0: off) once the children of
    /// this node's earlier moves failed high more than three times (a cutoff without a
    /// table move counts twice): the node is failing low move after move, so the rest
    /// of its moves are likely refuted too. Stockfish's `cutoffCnt`.
    lmr_cutoffs = 0, 0..=3072;
    /// A quiet move whose reduced search beat alpha and was searched again at full
    /// depth teaches its continuation histories this share (percent) of a bonus at the
    /// full depth when the re-search beats beta too, a malus when it fell back to alpha
    /// (0: off): the re-search is the evidence that the reduction misjudged it.
    /// Stockfish's post-LMR update.
    post_lmr_bonus = 0, 0..=200;
    /// A fail-high score that is no mate is drawn towards beta before it is returned and
    /// stored, the more the shallower the node: `(score·depth + beta)/(depth + 1)`;
    /// 2 also draws a quiescence fail-high halfway (`(3·score + beta)/4`); 0: off. A
    /// cutoff's score above beta is a bound that the shallow search overstates.
    fail_high_blend = 0, 0..=2;
    /// 1: along the previous iteration's principal variation (every move so far the one
    /// it played), no internal iterative reduction, and at its PV nodes no futility,
    /// history or exchange pruning of quiet moves, so that shallow pruning does not
    /// break the line the last iteration found (Stockfish's and YaneuraOu 9.70's
    /// `followPV`).
    follow_pv = 0, 0..=1;
}

/// Sets a constant by name (ignoring case), clamped to its range. Returns the value set,
/// `None` for an unknown name.
#[cfg(feature = "spsa")]
pub fn set(name: &str, value: i64) -> Option<i32> {
    let index = ALL.iter().position(|p| p.name.eq_ignore_ascii_case(name))?;
    let param = ALL[index];
    let value = value.clamp(param.min as i64, param.max as i64) as i32;
    VALUES[index].store(value, std::sync::atomic::Ordering::Relaxed);
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_params_defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, p) in ALL.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{p:?}");
            assert!(ALL[..i].iter().all(|q| q.name != p.name), "{p:?}");
        }
        assert_eq!(ALL[0].name, "lmr_base");
        assert_eq!(
            rfp_margin(),
            ALL.iter().find(|p| p.name == "rfp_margin").unwrap().default
        );
    }

    /// The SPSA space in `tools/spsa/space.yaml` starts each constant at its default and
    /// keeps it in its range: a tuning run from stale values would tune something else.
    #[test]
    fn spsa_space_matches_the_params() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/spsa/space.yaml");
        let text = std::fs::read_to_string(path).expect("tools/spsa/space.yaml");
        let number = |line: &str, key: &str| -> i32 {
            let rest =
                &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
            let digits: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            digits.parse().unwrap_or_else(|_| panic!("{key} in {line}"))
        };
        let mut seen = 0;
        let mut current: Option<&Param> = None;
        for line in text.lines().map(str::trim) {
            if let Some(id) = line.strip_prefix("- id:") {
                let name = id.trim().trim_matches('"');
                let param = ALL.iter().find(|p| p.name == name);
                current = Some(param.unwrap_or_else(|| panic!("{name} is no search constant")));
                seen += 1;
            } else if line.starts_with("initial:") {
                let p = current.expect("initial after an id");
                assert_eq!(number(line, "initial:"), p.default, "{}'s initial", p.name);
            } else if line.starts_with("bounds:") {
                let p = current.expect("bounds after an id");
                assert_eq!(number(line, "min:"), p.min, "{}'s min", p.name);
                assert_eq!(number(line, "max:"), p.max, "{}'s max", p.name);
            }
        }
        assert!(seen >= 4, "only {seen} constants in the space");
    }

    // With the `spsa` feature (CI: cargo test --release --features spsa --lib
    // search_params -- --test-threads=1; the constants are global).
    #[cfg(feature = "spsa")]
    #[test]
    fn search_params_set_and_clamp() {
        assert_eq!(set("ASPIRATION_DELTA", 10_000), Some(200));
        assert_eq!(aspiration_delta(), 200);
        assert_eq!(set("aspiration_delta", 30), Some(30));
        assert_eq!(set("no_such_thing", 1), None);
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn search_params_change_the_search() {
        use crate::bench::{run, BenchLimit};
        crate::attacks::init();
        crate::eval::init();
        let nodes = || run(BenchLimit::Depth(7), 1, 16, &Default::default(), |_| {}).nodes;
        let before = nodes();
        let switches = [
            ("rfp_model", 1),
            ("nmp_model", 1),
            ("lmr_cutoffs", 1024),
            ("post_lmr_bonus", 100),
            ("fail_high_blend", 2),
            ("singular_model", 1),
            ("follow_pv", 1),
            ("correction_model", 0),
            ("lmr_correction", 82),
        ];
        let constants = [("lmr_base", 1000), ("rfp_margin", 40), ("lmp_base", 2)];
        for (name, value) in constants.into_iter().chain(switches) {
            set(name, value as i64);
            let tuned = nodes();
            let default = ALL.iter().find(|p| p.name == name).unwrap().default;
            set(name, default as i64);
            assert_ne!(tuned, before, "{name} = {value} changed nothing");
        }
        assert_eq!(nodes(), before, "back at the defaults");
    }
}
