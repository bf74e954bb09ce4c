//! The network shapes hayate reads: YaneuraOu's classic NNUE architectures of any width,
//! their names, the hash values and architecture strings their files carry, and their
//! exact sizes.
//!
//! Every classic net is a feature transformer (input features → `half` i16 sums for
//! each side, the side to move's half first), then three affine layers with ClippedReLU
//! between them: `2·half → hidden1 → hidden2 → 1`. YaneuraOu generates a build for each
//! shape and composes its hash layer by layer; a file names its shape in its
//! architecture string (read by `structure.rs`), and the hash computed from that shape
//! must be the header's, so a file written by its trainer or by ours is recognised by
//! its header alone.

use crate::types::Square;

/// The version word every classic NNUE file starts with.
pub const VERSION: u32 = 0x7AF3_2F16;

/// Distinct board and hand piece states from one side's view (YaneuraOu's `fe_end`):
/// 90 hand slots, then 18 board piece kinds × 81 squares.
pub const PIECE_STATES: usize = 1548;

/// King squares HalfKP_vm tells apart: files 1 to 5 of 9 ranks.
pub const MIRRORED_KING_SQUARES: usize = 5 * 9;

/// Attack counts HalfKPE9 tells apart per side: none, one, two or more.
pub const EFFECT_LEVELS: usize = 3;

/// HalfKPE9's planes: one HalfKP board per pair of attack counts (viewer's, opponent's).
pub const EFFECT_PLANES: usize = EFFECT_LEVELS * EFFECT_LEVELS;

/// Piece states with the kings (YaneuraOu's `e_king`): the 1548 of [`PIECE_STATES`], then
/// the viewer's king on each square. HalfKA2 and HalfKA_hm2 number the enemy king on that
/// same plane, so a king square adds 81 states, not 162.
pub const STATES_WITH_KING: usize = PIECE_STATES + 81;

/// Piece states with both kings apart (YaneuraOu's `fe_end2`): the enemy king's 81 squares
/// follow the viewer's king's. HalfKA1 and HalfKA_hm1 number them so.
pub const STATES_WITH_KINGS: usize = STATES_WITH_KING + 81;

/// Input features of a net.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// HalfKP(Friend): the own king's square × every non-king piece (81 × 1548).
    HalfKP,
    /// K+P: every non-king piece (1548), then both kings' squares (162).
    KP,
    /// HalfKP_vm(Friend): HalfKP folded at the centre file. With the own king on files 6
    /// to 9 (as its side sees the board) the board is mirrored left to right, king and
    /// pieces on it alike (hands are not), so the king takes one of 5 × 9 squares.
    HalfKPvm,
    /// HalfKA_hm2(Friend): HalfKP_vm with both kings among the pieces (on one shared
    /// plane of 81 squares): 5 × 9 king squares × 1629 states. The features of
    /// SFNN1536, read in classic nets too.
    HalfKAhm2,
    /// HalfKA1(Friend): the own king's square × every piece, both kings included, each
    /// king on a plane of its own (81 × 1710).
    HalfKA1,
    /// HalfKA2(Friend): HalfKA1 with both kings on one shared plane (81 × 1629).
    HalfKA2,
    /// HalfKA_hm1(Friend): HalfKA1 on HalfKP_vm's folded board (45 × 1710).
    HalfKAhm1,
    /// HalfKPE9(Friend): HalfKP on nine planes, one for each pair of attack counts on the
    /// piece's square (how many of the viewer's pieces attack it, how many of the
    /// opponent's, each capped at two; hand pieces count none). A move changes the
    /// features of every piece whose attack counts it changes, not only its own.
    HalfKPE9,
}

impl FeatureSet {
    /// Number of input features.
    pub const fn dimensions(self) -> usize {
        match self {
            FeatureSet::HalfKP => Square::NUM * PIECE_STATES,
            FeatureSet::KP => PIECE_STATES + 2 * Square::NUM,
            FeatureSet::HalfKPvm => MIRRORED_KING_SQUARES * PIECE_STATES,
            FeatureSet::HalfKAhm2 => MIRRORED_KING_SQUARES * STATES_WITH_KING,
            FeatureSet::HalfKA1 => Square::NUM * STATES_WITH_KINGS,
            FeatureSet::HalfKA2 => Square::NUM * STATES_WITH_KING,
            FeatureSet::HalfKAhm1 => MIRRORED_KING_SQUARES * STATES_WITH_KINGS,
            FeatureSet::HalfKPE9 => EFFECT_PLANES * Square::NUM * PIECE_STATES,
        }
    }

    /// Whether every feature is tied to the viewer's own king square (so a king move
    /// recounts that side's accumulator).
    pub const fn king_relative(self) -> bool {
        !matches!(self, FeatureSet::KP)
    }

    /// Whether both kings are features of their own (a king move changes a feature of
    /// the other side's accumulator too).
    pub const fn has_kings(self) -> bool {
        matches!(
            self,
            FeatureSet::HalfKA1
                | FeatureSet::HalfKA2
                | FeatureSet::HalfKAhm1
                | FeatureSet::HalfKAhm2
        )
    }

    /// Whether the enemy king shares the viewer's king's plane (the "2" of HalfKA2 and
    /// HalfKA_hm2); the "1" sets keep it on a plane of its own.
    pub const fn shares_king_plane(self) -> bool {
        matches!(self, FeatureSet::HalfKA2 | FeatureSet::HalfKAhm2)
    }

    /// Whether the board is folded at the centre file for a viewer whose king stands on
    /// files 6 to 9 (the "vm" and "hm" sets).
    pub const fn mirrored(self) -> bool {
        matches!(
            self,
            FeatureSet::HalfKPvm | FeatureSet::HalfKAhm1 | FeatureSet::HalfKAhm2
        )
    }

    /// Whether a recount may start from the accumulator kept for the king's square
    /// through [`super::refresh_cache::RefreshCache::refresh`], which tracks where pieces
    /// stand: not for HalfKPE9, whose features also depend on what attacks each square
    /// (its entries keep the attack counts too, through `refresh_e9`).
    pub const fn cacheable(self) -> bool {
        self.king_relative() && !matches!(self, FeatureSet::HalfKPE9)
    }

    /// Piece states per king square: how far apart the features of two king squares
    /// start.
    pub const fn states(self) -> usize {
        match self {
            FeatureSet::HalfKA2 | FeatureSet::HalfKAhm2 => STATES_WITH_KING,
            FeatureSet::HalfKA1 | FeatureSet::HalfKAhm1 => STATES_WITH_KINGS,
            _ => PIECE_STATES,
        }
    }

    /// The feature set's hash as YaneuraOu defines it.
    pub const fn hash(self) -> u32 {
        match self {
            // HalfKP's base value with the "friend king" flag (1) xored in.
            FeatureSet::HalfKP => 0x5D69_D5B9 ^ 1,
            // A set of two features: K's hash, then P's rotated left by one.
            FeatureSet::KP => {
                let k = 0xD3CE_E169u32;
                let p = 0x764C_FB4Bu32;
                k ^ (p << 1) ^ (p >> 31)
            }
            // Its own base value, with the same "friend king" flag.
            FeatureSet::HalfKPvm => 0x0B6B_1D9B ^ 1,
            // The HalfKA family: "A" 0x..13.. for separate king planes, 0x..23.. for
            // one shared plane; 0x5F.. on the whole board, 0x7F.. folded.
            FeatureSet::HalfKA1 => 0x5F13_4CB9 ^ 1,
            FeatureSet::HalfKA2 => 0x5F23_4CB9 ^ 1,
            FeatureSet::HalfKAhm1 => 0x7F13_4CB9 ^ 1,
            FeatureSet::HalfKAhm2 => 0x7F23_4CB9 ^ 1,
            // YaneuraOu gives HalfKPE9 HalfKP's base value: only the architecture string
            // and the file's size tell the two apart.
            FeatureSet::HalfKPE9 => 0x5D69_D5B9 ^ 1,
        }
    }

    /// Every feature set read.
    pub const ALL: [FeatureSet; 8] = [
        FeatureSet::HalfKP,
        FeatureSet::KP,
        FeatureSet::HalfKPvm,
        FeatureSet::HalfKAhm2,
        FeatureSet::HalfKA1,
        FeatureSet::HalfKA2,
        FeatureSet::HalfKAhm1,
        FeatureSet::HalfKPE9,
    ];

    /// The feature set of a classic net whose architecture-string name is `name`.
    pub fn from_name(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The name in the architecture string.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::HalfKP => "HalfKP(Friend)",
            FeatureSet::KP => "K+P",
            FeatureSet::HalfKPvm => "HalfKP_vm(Friend)",
            FeatureSet::HalfKAhm2 => "HalfKA_hm2(Friend)",
            FeatureSet::HalfKA1 => "HalfKA1(Friend)",
            FeatureSet::HalfKA2 => "HalfKA2(Friend)",
            FeatureSet::HalfKAhm1 => "HalfKA_hm1(Friend)",
            FeatureSet::HalfKPE9 => "HalfKPE9(Friend)",
        }
    }

    /// The short name used for the architecture (`halfkp`, `kp`).
    pub const fn short_name(self) -> &'static str {
        match self {
            FeatureSet::HalfKP => "halfkp",
            FeatureSet::KP => "kp",
            // YaneuraOu's name for the shape (`halfkpvm_256x2-32-32`).
            FeatureSet::HalfKPvm => "halfkpvm",
            FeatureSet::HalfKAhm2 => "halfkahm2",
            FeatureSet::HalfKA1 => "halfka1",
            FeatureSet::HalfKA2 => "halfka2",
            FeatureSet::HalfKAhm1 => "halfkahm1",
            FeatureSet::HalfKPE9 => "halfkpe9",
        }
    }
}

/// SFNN layer stacks chosen by the pieces in hand (YaneuraOu's `handN` suffixes): each
/// side's hand gives a small number, the side to move's first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandBuckets {
    None,
    /// `hand4`: whether the hand holds a bishop (2 per side).
    Hand4,
    /// `hand16`: a pawn, a bishop (4 per side).
    Hand16,
    /// `hand64`: any pawn, lance or knight; any silver, gold or rook; a bishop (8).
    Hand64,
    /// `hand64z`: the hand's points (pawn 1, lance and knight 2, silver and gold 3,
    /// bishop and rook 5) in eight zones, `min((points + 3) / 4, 7)`.
    Hand64z,
    /// `hand256`: any pawn, lance or knight; silver or gold; bishop; rook (16).
    Hand256,
    /// `hand1024`: pawn; lance or knight; silver or gold; bishop; rook (32).
    Hand1024,
}

impl HandBuckets {
    /// The suffixes of YaneuraOu's generator, in the order of the variants.
    const NAMES: [(HandBuckets, &'static str); 7] = [
        (HandBuckets::None, ""),
        (HandBuckets::Hand4, "hand4"),
        (HandBuckets::Hand16, "hand16"),
        (HandBuckets::Hand64, "hand64"),
        (HandBuckets::Hand64z, "hand64z"),
        (HandBuckets::Hand256, "hand256"),
        (HandBuckets::Hand1024, "hand1024"),
    ];

    /// Buckets of one side's hand.
    pub const fn per_side(self) -> usize {
        match self {
            HandBuckets::None => 1,
            HandBuckets::Hand4 => 2,
            HandBuckets::Hand16 => 4,
            HandBuckets::Hand64 | HandBuckets::Hand64z => 8,
            HandBuckets::Hand256 => 16,
            HandBuckets::Hand1024 => 32,
        }
    }

    fn name(self) -> &'static str {
        HandBuckets::NAMES[self as usize].1
    }
}

/// SFNN layer stacks chosen by where the kings stand (YaneuraOu's `kNkN` suffixes): each
/// king's square, seen from its own side, falls in one of a few zones; the side to
/// move's king's zone first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingBuckets {
    None,
    /// `k3k3`: the third of the board (ranks 1-3, 4-6, 7-9 from the king's own side).
    K3K3,
    /// `k9k9`: the rank.
    K9K9,
    /// `k9k9z`: ranks 1-3, 4-6, 7, then each of ranks 8 and 9 in three groups of files.
    K9K9Z,
    /// `k13k13z`: ranks 1 to 7 each, then each of ranks 8 and 9 in three groups of files.
    K13K13Z,
    /// `k21k21`: ranks 1-3, 4-6, 7, then every square of ranks 8 and 9.
    K21K21,
    /// `k29k29`: ranks 1-3, 4-6, then every square of ranks 7 to 9.
    K29K29,
}

impl KingBuckets {
    const NAMES: [(KingBuckets, &'static str); 7] = [
        (KingBuckets::None, ""),
        (KingBuckets::K3K3, "k3k3"),
        (KingBuckets::K9K9, "k9k9"),
        (KingBuckets::K9K9Z, "k9k9z"),
        (KingBuckets::K13K13Z, "k13k13z"),
        (KingBuckets::K21K21, "k21k21"),
        (KingBuckets::K29K29, "k29k29"),
    ];

    /// The long names the generator also takes, and the short ones they stand for.
    pub const LONG_NAMES: [(&'static str, &'static str); 8] = [
        ("king3_by_king3", "k3k3"),
        ("king9_by_king9", "k9k9"),
        ("king9z_by_king9z", "k9k9z"),
        ("king9zone_by_king9zone", "k9k9z"),
        ("king13z_by_king13z", "k13k13z"),
        ("king13zone_by_king13zone", "k13k13z"),
        ("king21_by_king21", "k21k21"),
        ("king29_by_king29", "k29k29"),
    ];

    /// Zones of one king.
    pub const fn per_king(self) -> usize {
        match self {
            KingBuckets::None => 1,
            KingBuckets::K3K3 => 3,
            KingBuckets::K9K9 | KingBuckets::K9K9Z => 9,
            KingBuckets::K13K13Z => 13,
            KingBuckets::K21K21 => 21,
            KingBuckets::K29K29 => 29,
        }
    }

    fn name(self) -> &'static str {
        KingBuckets::NAMES[self as usize].1
    }
}

/// Progress bucket counts YaneuraOu's generator accepts (`progressN`; 1: none).
pub const PROGRESS_BUCKETS: [u8; 7] = [1, 2, 3, 4, 8, 16, 32];

/// How an SFNN net chooses one of its layer stacks for a position (YaneuraOu's
/// `stack_index_for_nnue`): by the hands, the kings' squares and the game's progress,
/// each optional, combined in that order (`(hand · kings + king) · progress + p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Buckets {
    pub hand: HandBuckets,
    pub king: KingBuckets,
    /// Progress buckets: one of [`PROGRESS_BUCKETS`]. With more than one, the file holds
    /// the progress parameters after the transformer.
    pub progress: u8,
}

impl Buckets {
    /// One stack for every position.
    pub const ONE: Buckets = Buckets {
        hand: HandBuckets::None,
        king: KingBuckets::None,
        progress: 1,
    };

    /// `k3k3`: nine stacks, by the thirds of the board (counted from each side's own
    /// back rank) that the side to move's king and the other king stand in.
    pub const K3K3: Buckets = Buckets {
        hand: HandBuckets::None,
        king: KingBuckets::K3K3,
        progress: 1,
    };

    /// Hand buckets: both sides' hands.
    pub const fn hand_count(self) -> usize {
        let n = self.hand.per_side();
        n * n
    }

    /// King buckets: both kings' zones.
    pub const fn king_count(self) -> usize {
        let n = self.king.per_king();
        n * n
    }

    /// Layer stacks in a file.
    pub const fn count(self) -> usize {
        self.hand_count() * self.king_count() * self.progress as usize
    }

    /// Whether the file holds progress parameters.
    pub const fn has_progress(self) -> bool {
        self.progress > 1
    }

    /// The suffix of the shape's name (`_hand16_k3k3_progress8`), empty for one stack.
    pub fn suffix(self) -> String {
        let mut s = String::new();
        for part in [self.hand.name(), self.king.name()] {
            if !part.is_empty() {
                s.push('_');
                s.push_str(part);
            }
        }
        if self.has_progress() {
            s.push_str(&format!("_progress{}", self.progress));
        }
        s
    }

    /// The buckets the tokens of a shape's name after its sizes describe (lower case,
    /// long king names already shortened), each kind at most once, in any order.
    pub fn from_tokens<'a>(tokens: impl Iterator<Item = &'a str>) -> Option<Buckets> {
        let mut b = Buckets::ONE;
        let (mut hand, mut king, mut progress) = (false, false, false);
        for token in tokens {
            if let Some(&(h, _)) = HandBuckets::NAMES[1..].iter().find(|(_, n)| *n == token) {
                if std::mem::replace(&mut hand, true) {
                    return None;
                }
                b.hand = h;
            } else if let Some(&(k, _)) = KingBuckets::NAMES[1..].iter().find(|(_, n)| *n == token)
            {
                if std::mem::replace(&mut king, true) {
                    return None;
                }
                b.king = k;
            } else {
                let n: u8 = token.strip_prefix("progress")?.parse().ok()?;
                // `progress1` is not a name the generator takes.
                if n == 1
                    || !PROGRESS_BUCKETS.contains(&n)
                    || std::mem::replace(&mut progress, true)
                {
                    return None;
                }
                b.progress = n;
            }
        }
        Some(b)
    }
}

/// YaneuraOu's split of an SFNN net's first layer (`_c<common>_s<shard>x<groups>` in the
/// edition's name): the layer's outputs fall into `groups` equal groups, and each group
/// reads only the first `common` inputs and its own `shard` of the rest. The file holds
/// the whole matrix all the same; YaneuraOu keeps only those weights, so hayate zeroes
/// the others when it reads them and multiplies each group over its own inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shards {
    pub common: usize,
    pub shard: usize,
    /// 1: no split.
    pub groups: usize,
}

impl Shards {
    /// The first layer reads all its inputs.
    pub const NONE: Shards = Shards {
        common: 0,
        shard: 0,
        groups: 1,
    };

    pub const fn is_split(self) -> bool {
        self.groups > 1
    }

    /// Whether output `out` of the first layer, with `outputs` in all, reads input `input`.
    pub const fn reads(self, out: usize, outputs: usize, input: usize) -> bool {
        if !self.is_split() || input < self.common {
            return true;
        }
        let group = out / (outputs / self.groups);
        let start = self.common + group * self.shard;
        start <= input && input < start + self.shard
    }

    /// The name's tokens, `_c1024_s256x8`; empty without a split.
    pub fn suffix(self) -> String {
        if self.is_split() {
            format!("_c{}_s{}x{}", self.common, self.shard, self.groups)
        } else {
            String::new()
        }
    }
}

/// The two families of nets YaneuraOu reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Classic NNUE: both sides' transformer outputs clamped and concatenated, then
    /// `2·half → hidden1 → hidden2 → 1` with ClippedReLU between.
    Classic,
    /// SFNN (YaneuraOu's "SFNN without PSQT"): each side's two transformer halves
    /// multiplied element by element (`half` inputs in all), then for the chosen stack
    /// `half → hidden1 (+1) → SqrClippedReLU ‖ ClippedReLU (2·hidden1) → hidden2 → 1`;
    /// with hidden1 = 8n − 1 the first layer's extra output is added to the result.
    /// The transformer's parameters are stored LEB128-compressed.
    Sfnn(Buckets),
}

/// One network shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    pub features: FeatureSet,
    /// Outputs of the feature transformer per side (the net has twice as many inputs
    /// to its first affine layer).
    pub half: usize,
    pub hidden1: usize,
    pub hidden2: usize,
    pub layout: Layout,
    /// An SFNN net's split first layer ([`Shards::NONE`] for every other net).
    pub shards: Shards,
}

/// Hash in the header of every SFNN net without progress buckets (YaneuraOu's
/// `kSfnnBaseHashValue`; its SFNN hashes are fixed, not composed layer by layer).
pub const SFNN_HASH: u32 = 0x3C20_3B32;
/// Hash of the progress parameters' section (`"oPRO"`), before the section and xored
/// into the header's hash of a net with progress buckets.
pub const PROGRESS_HASH: u32 = 0x6F50_524F;
/// Most layer stacks read: every bucket kind alone and the combinations YaneuraOu's
/// documentation names (`hand64_k29k29`: 53,824; `hand256_k3k3_progress16`: 36,864)
/// fit, while a file cannot ask for millions of small allocations.
pub const MAX_STACKS: usize = 65_536;
/// Hash before an SFNN net's feature transformer.
pub const SFNN_TRANSFORMER_HASH: u32 = 0x5F13_4AB8;
/// Hash before each of an SFNN net's layer stacks.
pub const SFNN_NETWORK_HASH: u32 = 0x6333_718A;

/// SFNN hidden1 sizes are 8n (no shortcut) or 8n − 1 (a shortcut output beside them);
/// YaneuraOu's generator asserts it.
const SFNN_HIDDEN1_STEP: usize = 8;

/// An SFNN transformer's width per side is a whole number of these: each half of it is
/// a whole number of YaneuraOu's 32-byte registers.
pub const SFNN_HALF_STEP: usize = 64;

/// Widest feature transformer read, per side. YaneuraOu's own nets go up to 1024; the
/// bound keeps a malformed header from asking for gigabytes (a HalfKP net this wide is a
/// 1 GB file).
pub const MAX_HALF: usize = 4096;

/// The feature transformer's width per side is a whole number of these: YaneuraOu's
/// generator asserts it (its widest SIMD register of bytes), so no classic net has another.
pub const HALF_STEP: usize = 32;

/// Widest hidden layer read (the nets in use have 8 to 64; the forward pass keeps the
/// hidden layers on the stack).
pub const MAX_HIDDEN: usize = 128;

/// The shapes players use, by name: what a file whose architecture string cannot be read
/// is matched against by its hash alone, and the examples messages give. Any other shape
/// inside the bounds is read as well, from its architecture string.
pub const COMMON: [Architecture; 6] = [
    Architecture::new(FeatureSet::HalfKP, 256, 32, 32),
    Architecture::new(FeatureSet::KP, 256, 32, 32),
    Architecture::new(FeatureSet::HalfKP, 512, 16, 32),
    Architecture::new(FeatureSet::HalfKP, 768, 16, 64),
    Architecture::new(FeatureSet::HalfKP, 1024, 8, 32),
    Architecture::new(FeatureSet::HalfKP, 1024, 8, 64),
];

/// Affine layers read their inputs in blocks of 32 (YaneuraOu's widest SIMD width): each
/// weight row is padded to a multiple of it.
pub const fn padded(n: usize) -> usize {
    n.div_ceil(32) * 32
}

/// Bytes of an affine layer's parameters: i32 biases and a padded row of i8 weights per
/// output.
const fn layer(inputs: usize, outputs: usize) -> usize {
    outputs * 4 + outputs * padded(inputs)
}

/// Hash of an affine layer with `outputs` outputs after a layer hashing to `previous`.
const fn affine_hash(previous: u32, outputs: usize) -> u32 {
    0xCC03_DAE4u32.wrapping_add(outputs as u32) ^ (previous >> 1) ^ (previous << 31)
}

/// Hash of a ClippedReLU after a layer hashing to `previous`.
const fn clipped_relu_hash(previous: u32) -> u32 {
    0x538D_24C7u32.wrapping_add(previous)
}

impl Architecture {
    /// A classic net's shape.
    pub const fn new(features: FeatureSet, half: usize, hidden1: usize, hidden2: usize) -> Self {
        Architecture {
            features,
            half,
            hidden1,
            hidden2,
            layout: Layout::Classic,
            shards: Shards::NONE,
        }
    }

    /// An SFNN net's shape.
    pub const fn sfnn(
        features: FeatureSet,
        half: usize,
        hidden1: usize,
        hidden2: usize,
        buckets: Buckets,
    ) -> Self {
        Architecture {
            features,
            half,
            hidden1,
            hidden2,
            layout: Layout::Sfnn(buckets),
            shards: Shards::NONE,
        }
    }

    /// The same SFNN shape with its first layer split as `shards` says.
    pub const fn with_shards(self, shards: Shards) -> Self {
        Architecture { shards, ..self }
    }

    /// YaneuraOu's `SFNN1536` edition: `SFNN_halfkahm2_1536_15_32_k3k3`.
    pub const SFNN1536: Architecture =
        Architecture::sfnn(FeatureSet::HalfKAhm2, 1536, 15, 32, Buckets::K3K3);

    pub const fn is_sfnn(&self) -> bool {
        matches!(self.layout, Layout::Sfnn(_))
    }

    /// Layer stacks in the file (one for a classic net).
    pub const fn stacks(&self) -> usize {
        match self.layout {
            Layout::Classic => 1,
            Layout::Sfnn(b) => b.count(),
        }
    }

    /// Whether an SFNN net's first layer has one output more than `hidden1`, added to the
    /// result as it is (hidden1 = 8n − 1).
    pub const fn shortcut(&self) -> bool {
        self.is_sfnn() && self.hidden1 % SFNN_HIDDEN1_STEP == SFNN_HIDDEN1_STEP - 1
    }

    /// Outputs of the first affine layer.
    pub const fn first_outputs(&self) -> usize {
        self.hidden1 + self.shortcut() as usize
    }

    /// Inputs of the first affine layer: both sides' transformer outputs (an SFNN net
    /// multiplies each side's two halves, so it has `half` in all).
    pub const fn first_inputs(&self) -> usize {
        match self.layout {
            Layout::Classic => 2 * self.half,
            Layout::Sfnn(_) => self.half,
        }
    }

    /// Inputs of the second affine layer (an SFNN net's SqrClippedReLU and ClippedReLU of
    /// the first layer, side by side).
    pub const fn second_inputs(&self) -> usize {
        match self.layout {
            Layout::Classic => self.hidden1,
            Layout::Sfnn(_) => 2 * self.hidden1,
        }
    }

    /// The format, for messages: "classic NNUE" or "SFNN".
    pub const fn format(&self) -> &'static str {
        match self.layout {
            Layout::Classic => "classic NNUE",
            Layout::Sfnn(_) => "SFNN",
        }
    }

    /// The name shogi users know it by, e.g. `halfkp_256x2-32-32` or
    /// `SFNN_halfkahm2_1536_15_32_k3k3` (YaneuraOu's edition names).
    pub fn name(&self) -> String {
        if let Layout::Sfnn(buckets) = self.layout {
            return format!(
                "SFNN_{}_{}_{}_{}{}{}",
                self.features.short_name(),
                self.half,
                self.hidden1,
                self.hidden2,
                self.shards.suffix(),
                buckets.suffix()
            );
        }
        format!(
            "{}_{}x2-{}-{}",
            self.features.short_name(),
            self.half,
            self.hidden1,
            self.hidden2
        )
    }

    /// Hash stored before the feature transformer's parameters.
    pub const fn transformer_hash(&self) -> u32 {
        if self.is_sfnn() {
            return SFNN_TRANSFORMER_HASH;
        }
        self.features.hash() ^ (2 * self.half) as u32
    }

    /// Hash stored before the affine layers' parameters (before each stack of them).
    pub const fn network_hash(&self) -> u32 {
        if self.is_sfnn() {
            return SFNN_NETWORK_HASH;
        }
        // The input slice takes all 2·half outputs from offset 0.
        let input = 0xEC42_E90Du32 ^ (2 * self.half) as u32;
        let h = clipped_relu_hash(affine_hash(input, self.hidden1));
        let h = clipped_relu_hash(affine_hash(h, self.hidden2));
        affine_hash(h, 1)
    }

    /// Hash in the file header.
    pub const fn hash(&self) -> u32 {
        match self.layout {
            Layout::Sfnn(b) if b.has_progress() => SFNN_HASH ^ PROGRESS_HASH,
            Layout::Sfnn(_) => SFNN_HASH,
            Layout::Classic => self.transformer_hash() ^ self.network_hash(),
        }
    }

    /// Bytes of an SFNN net's progress section (its hash, an i32 bias and an i32 weight
    /// for each HalfKP feature); 0 without progress buckets.
    pub const fn progress_size(&self) -> u64 {
        match self.layout {
            Layout::Sfnn(b) if b.has_progress() => {
                (4 + 4 + 4 * FeatureSet::HalfKP.dimensions()) as u64
            }
            _ => 0,
        }
    }

    /// The architecture string YaneuraOu writes in the header. Files from other tools
    /// may word a classic net's differently (it is not checked); the hash and size
    /// identify a net.
    pub fn structure(&self) -> String {
        if self.is_sfnn() {
            // YaneuraOu's generator names the network part after the edition, but
            // its predefined SFNN1536 header says `SFNN-1536`.
            let network = if *self == Architecture::SFNN1536 {
                "SFNN-1536".to_string()
            } else {
                self.name()
            };
            return format!(
                "ModelType=SFNNWithoutPsqt;Features={}[{}->{}x2],Network={network}\
                 {{LayerStack={}}}",
                self.features.name(),
                self.features.dimensions(),
                self.half,
                self.stacks()
            );
        }
        let inputs = 2 * self.half;
        format!(
            "Features={}[{}->{}x2],Network=AffineTransform[1<-{h2}](ClippedReLU[{h2}](\
             AffineTransform[{h2}<-{h1}](ClippedReLU[{h1}](AffineTransform[{h1}<-{inputs}](\
             InputSlice[{inputs}(0:{inputs})])))))",
            self.features.name(),
            self.features.dimensions(),
            self.half,
            h1 = self.hidden1,
            h2 = self.hidden2,
        )
    }

    /// Bytes after the header: the transformer's hash, i16 biases and weights, then the
    /// network's hash and each affine layer's i32 biases and i8 weight rows. For a
    /// classic net (an SFNN net's compressed transformer has no fixed size).
    pub const fn body_size(&self) -> u64 {
        let transformer = 4 + 2 * self.half * (1 + self.features.dimensions());
        let network = 4
            + layer(2 * self.half, self.hidden1)
            + layer(self.hidden1, self.hidden2)
            + layer(self.hidden2, 1);
        (transformer + network) as u64
    }

    /// Bytes of one stack of affine layers (after its hash).
    pub const fn stack_size(&self) -> u64 {
        (layer(self.first_inputs(), self.first_outputs())
            + layer(self.second_inputs(), self.hidden2)
            + layer(self.hidden2, 1)) as u64
    }

    /// The exact size of a file of this shape whose architecture string has
    /// `structure_len` bytes.
    pub const fn file_size(&self, structure_len: usize) -> u64 {
        12 + structure_len as u64 + self.body_size()
    }

    /// Whether hayate reads nets of this shape; the reason when it does not.
    pub fn check_bounds(&self) -> Result<(), String> {
        if self.is_sfnn() {
            return self.check_sfnn_bounds();
        }
        if self.half == 0 || !self.half.is_multiple_of(HALF_STEP) || self.half > MAX_HALF {
            return Err(format!(
                "a feature transformer of {} per side (hayate reads multiples of {HALF_STEP} \
                 up to {MAX_HALF}, as YaneuraOu builds them)",
                self.half
            ));
        }
        // A HalfKPE9 transformer has nine times HalfKP's rows, a HalfKA1 one 10 % more:
        // their widths are bounded so that no file is longer than the largest HalfKP
        // net's.
        let rows = self.half * self.features.dimensions();
        let most = Architecture::LARGEST.half * Architecture::LARGEST.features.dimensions();
        if rows > most {
            let widest = most / self.features.dimensions() / HALF_STEP * HALF_STEP;
            return Err(format!(
                "a feature transformer of {} per side (hayate reads {} nets up to {widest})",
                self.half,
                self.features.short_name()
            ));
        }
        for (layer, width) in [("first", self.hidden1), ("second", self.hidden2)] {
            if width == 0 || width > MAX_HIDDEN {
                return Err(format!(
                    "a {layer} hidden layer of {width} (hayate reads 1 to {MAX_HIDDEN})"
                ));
            }
        }
        Ok(())
    }

    fn check_sfnn_bounds(&self) -> Result<(), String> {
        if self.half == 0 || !self.half.is_multiple_of(SFNN_HALF_STEP) || self.half > MAX_HALF {
            return Err(format!(
                "a feature transformer of {} per side (hayate reads SFNN nets of multiples \
                 of {SFNN_HALF_STEP} up to {MAX_HALF}, as YaneuraOu builds them)",
                self.half
            ));
        }
        let step = SFNN_HIDDEN1_STEP;
        let h1 = self.hidden1;
        if h1 == 0 || 2 * h1 > MAX_HIDDEN || !matches!(h1 % step, 0 | 7) {
            return Err(format!(
                "a first hidden layer of {h1} (hayate reads SFNN nets of {}n or {}n - 1, up to \
                 {})",
                step,
                step,
                MAX_HIDDEN / 2
            ));
        }
        if self.hidden2 == 0 || self.hidden2 > MAX_HIDDEN {
            return Err(format!(
                "a second hidden layer of {} (hayate reads 1 to {MAX_HIDDEN})",
                self.hidden2
            ));
        }
        let rows = self.half * self.features.dimensions();
        let most = Architecture::LARGEST.half * Architecture::LARGEST.features.dimensions();
        if rows > most {
            return Err(format!(
                "a feature transformer of {} per side (hayate reads {} nets up to {} rows \
                 of weights)",
                self.half,
                self.features.short_name(),
                most
            ));
        }
        if self.shards.is_split() {
            let Shards {
                common,
                shard,
                groups,
            } = self.shards;
            let step = SFNN_HALF_STEP;
            let fits = common + shard * groups == self.half;
            if !fits || common % step != 0 || shard % step != 0 {
                return Err(format!(
                    "a first layer split into {common} common inputs and {groups} shards of \
                     {shard} (YaneuraOu's generator wants multiples of {step} that add up to \
                     the transformer's {})",
                    self.half
                ));
            }
            if !self.first_outputs().is_multiple_of(groups) {
                return Err(format!(
                    "{} first-layer outputs in {groups} groups (YaneuraOu's generator wants \
                     equal groups)",
                    self.first_outputs()
                ));
            }
        }
        if self.stacks() > MAX_STACKS {
            return Err(format!(
                "{} layer stacks (hayate reads up to {MAX_STACKS})",
                self.stacks()
            ));
        }
        Ok(())
    }

    /// The largest shape read: no net file is longer than this one's (the widths of sets
    /// with more features than HalfKP are bounded by its rows, in `check_bounds`).
    pub const LARGEST: Architecture =
        Architecture::new(FeatureSet::HalfKP, MAX_HALF, MAX_HIDDEN, MAX_HIDDEN);
}

/// What hayate reads, in a few words, for messages (an `info string` shows 300
/// characters: the list of common shapes would not fit beside a path).
pub fn supported_summary() -> String {
    format!(
        "classic HalfKP(_vm), HalfKPE9, HalfKA, K+P nets up to \
         {MAX_HALF}x2-{MAX_HIDDEN}-{MAX_HIDDEN} ({}, {}, ...), SFNN nets of any buckets",
        COMMON[0].name(),
        COMMON[3].name(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash values of YaneuraOu's dummy-net generator (`nnue_dummy_gen.py`, an
    /// independent implementation of the same rules) for the feature sets.
    #[test]
    fn feature_hashes_match_yaneuraou() {
        assert_eq!(FeatureSet::HalfKP.hash(), 0x5D69_D5B8);
        // 0xD3CEE169 ^ ((0x764CFB4B << 1) & 0xFFFFFFFF) ^ (0x764CFB4B >> 31) in the script.
        assert_eq!(FeatureSet::KP.hash(), 0x3f5717ff);
        // The script's table of feature sets (`nnue_arch_gen.py`, "halfkpvm").
        assert_eq!(FeatureSet::HalfKPvm.hash(), 0x0B6B_1D9A);
        assert_eq!(FeatureSet::HalfKPvm.dimensions(), 5 * 9 * 1548);
        // The same table's HalfKA family, with the dimensions it gives them.
        for (set, hash, dimensions) in [
            (FeatureSet::HalfKA1, 0x5F13_4CB8, 81 * 1710),
            (FeatureSet::HalfKAhm1, 0x7F13_4CB8, 5 * 9 * 1710),
            (FeatureSet::HalfKA2, 0x5F23_4CB8, 81 * 1629),
            (FeatureSet::HalfKAhm2, 0x7F23_4CB8, 5 * 9 * 1629),
        ] {
            assert_eq!(
                (set.hash(), set.dimensions()),
                (hash, dimensions),
                "{set:?}"
            );
        }
    }

    #[test]
    fn the_summary_names_the_shapes_players_use_most() {
        let summary = supported_summary();
        assert!(summary.contains("(halfkp_256x2-32-32, halfkp_768x2-16-64, ...)"));
        assert!(summary.contains("SFNN nets of any buckets"));
        assert!(summary.len() < 150, "{summary}");
    }

    /// Published `halfkp_256x2-32-32` nets (suisho5, tanuki- and the like) are
    /// 64,217,066 bytes (apps that bundle YaneuraOu check their nn.bin for that size),
    /// which is this layout with YaneuraOu's 178-byte architecture string.
    #[test]
    fn halfkp_256_has_the_size_of_published_nets() {
        let a = COMMON[0];
        assert_eq!(a.name(), "halfkp_256x2-32-32");
        assert_eq!(a.structure().len(), 178);
        assert_eq!(a.file_size(a.structure().len()), 64_217_066);
    }
}
