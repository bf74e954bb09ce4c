//! Reading a net's architecture string: the text in the header that describes the
//! shape, e.g. (wrapped here)
//!
//! ```text
//! Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](
//! AffineTransform[32<-32](ClippedReLU[32](AffineTransformSparseInput[32<-512](
//! InputSlice[512(0:512)])))))
//! ```
//!
//! Each layer names itself, its sizes in brackets, and the layer below it in
//! parentheses. YaneuraOu's newer builds call the first affine layer
//! `AffineTransformSparseInput` (same parameters, same hash), older ones and our
//! trainer `AffineTransform`. Only the classic chain is read here; anything else
//! (another feature set, another layer stack) is not a shape of [`Architecture`].
//!
//! SFNN nets have a string of their own (YaneuraOu's `GetArchitectureString` with
//! `SFNNwoPSQT`):
//!
//! ```text
//! ModelType=SFNNWithoutPsqt;Features=HalfKA_hm2(Friend)[73305->1536x2],Network=SFNN-1536{LayerStack=9}
//! ```
//!
//! where the network is `SFNN-1536` for YaneuraOu's SFNN1536 edition, and the edition's
//! name (`SFNN_halfkahm2_1024_15_32_k3k3`) for the shapes its generator makes.
//!
//! [`identify`] puts the string and the header's hash together into the file's shape.

use super::arch::{Architecture, Buckets, FeatureSet, KingBuckets, Shards, COMMON};
use super::error::NnueError;

/// Largest number read from the string: far above any size a net has, small enough that
/// no computation on the shape overflows.
const MAX_NUMBER: usize = 1 << 24;

/// A decimal number without sign or leading `+`, at most [`MAX_NUMBER`].
fn number(s: &str) -> Option<usize> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 9 {
        return None;
    }
    s.parse().ok().filter(|&n| n <= MAX_NUMBER)
}

/// `out<-in` as the two numbers.
fn affine_sizes(s: &str) -> Option<(usize, usize)> {
    let (out, inputs) = s.split_once("<-")?;
    Some((number(out)?, number(inputs)?))
}

/// The layers of the network part, outermost first, as (name, what is in its brackets).
/// Every layer but the innermost has one layer inside it in parentheses.
fn layers(mut s: &str) -> Option<Vec<(&str, &str)>> {
    let mut out = Vec::new();
    loop {
        let open = s.find('[')?;
        let close = open + s[open..].find(']')?;
        out.push((&s[..open], &s[open + 1..close]));
        s = &s[close + 1..];
        match s.strip_prefix('(') {
            Some(inner) => s = inner,
            None => break,
        }
    }
    // What is left closes each layer that held another.
    (s.len() == out.len() - 1 && s.bytes().all(|b| b == b')')).then_some(out)
}

/// The shape the architecture string `s` describes, if it is a classic net's of a known
/// feature set (the sizes are not checked against hayate's bounds here).
pub fn parse(s: &str) -> Option<Architecture> {
    let (features, network) = s.strip_prefix("Features=")?.split_once(",Network=")?;
    // `HalfKP(Friend)[125388->256x2]`
    let (name, sizes) = features.strip_suffix(']')?.split_once('[')?;
    let features = FeatureSet::from_name(name)?;
    let (dimensions, half) = sizes.split_once("->")?;
    let half = number(half.strip_suffix("x2")?)?;
    if number(dimensions)? != features.dimensions() {
        return None;
    }
    let layers = layers(network)?;
    let [("AffineTransform", output), ("ClippedReLU", relu2), ("AffineTransform", hidden2), ("ClippedReLU", relu1), (first, hidden1), ("InputSlice", slice)] =
        layers[..]
    else {
        return None;
    };
    if first != "AffineTransform" && first != "AffineTransformSparseInput" {
        return None;
    }
    let (one, h2) = affine_sizes(output)?;
    let (h2_out, h1) = affine_sizes(hidden2)?;
    let (h1_out, inputs) = affine_sizes(hidden1)?;
    let whole = format!("{inputs}(0:{inputs})");
    let consistent = one == 1
        && h2_out == h2
        && number(relu2)? == h2
        && h1_out == h1
        && number(relu1)? == h1
        && inputs == 2 * half
        && slice == whole;
    consistent.then(|| Architecture::new(features, half, h1, h2))
}

/// What an SFNN string starts with.
const SFNN_PREFIX: &str = "ModelType=SFNNWithoutPsqt;Features=";

/// The network name of YaneuraOu's predefined SFNN1536 header.
const SFNN1536_NETWORK: &str = "SFNN-1536";

/// The shape an SFNN net's architecture string describes, if hayate reads it: any
/// feature set but HalfKPE9, one stack or any of the hand, king and progress buckets of
/// YaneuraOu's generator, its first layer whole or split into common and shard inputs.
pub fn parse_sfnn(s: &str) -> Option<Architecture> {
    let (features, network) = s.strip_prefix(SFNN_PREFIX)?.split_once(",Network=")?;
    let (name, sizes) = features.strip_suffix(']')?.split_once('[')?;
    let set = FeatureSet::from_name(name).filter(|&f| f != FeatureSet::HalfKPE9)?;
    let (dimensions, half) = sizes.split_once("->")?;
    let half = number(half.strip_suffix("x2")?)?;
    if number(dimensions)? != set.dimensions() {
        return None;
    }
    let (network, stacks) = network.strip_suffix('}')?.split_once("{LayerStack=")?;
    let arch = if network == SFNN1536_NETWORK && set == FeatureSet::HalfKAhm2 {
        Architecture::SFNN1536
    } else {
        // `SFNN_<features>_<FT>_<H1>_<H2>[_<buckets>...]`, in any case; the king
        // buckets' long names shortened as the generator does.
        let mut lower = network.to_ascii_lowercase();
        for (long, short) in KingBuckets::LONG_NAMES {
            lower = lower.replace(long, short);
        }
        let mut parts = lower.split('_');
        if parts.next()? != "sfnn" || parts.next()? != set.short_name() {
            return None;
        }
        let ft = number(parts.next()?)?;
        let h1 = number(parts.next()?)?;
        let h2 = number(parts.next()?)?;
        // The split of the first layer comes right after the sizes, as two tokens.
        let shards = if parts.clone().next().is_some_and(|t| t.starts_with('c')) {
            split_tokens(parts.next()?, parts.next()?)?
        } else {
            Shards::NONE
        };
        let buckets = Buckets::from_tokens(parts)?;
        if ft != half {
            return None;
        }
        Architecture::sfnn(set, ft, h1, h2, buckets).with_shards(shards)
    };
    (arch.half == half && number(stacks)? == arch.stacks()).then_some(arch)
}

/// YaneuraOu's split of an SFNN first layer from its two tokens, `c<common>` and
/// `s<shard>x<groups>` (lower case), as its generator reads them: more than one group of
/// a shard of at least one input.
fn split_tokens(common: &str, shard: &str) -> Option<Shards> {
    let common = number(common.strip_prefix('c')?)?;
    let (shard, groups) = shard.strip_prefix('s')?.split_once('x')?;
    let s = Shards {
        common,
        shard: number(shard)?,
        groups: number(groups)?,
    };
    (s.shard > 0 && s.groups > 1).then_some(s)
}

/// The shape of a net file from its header: the shape its architecture string
/// describes, when that shape's hash is the header's; else a common shape with the
/// header's hash (files from other tools may word the string otherwise). The file's
/// size is checked afterwards, against the shape found.
pub fn identify(hash: u32, structure: &str) -> Result<Architecture, NnueError> {
    if let Some(arch) = parse_sfnn(structure) {
        arch.check_bounds().map_err(|why| NnueError::Bounds {
            arch: arch.name(),
            why,
        })?;
        return if arch.hash() == hash {
            Ok(arch)
        } else {
            Err(NnueError::Hash {
                arch: arch.name(),
                found: hash,
                expected: arch.hash(),
            })
        };
    }
    let described = parse(structure);
    if let Some(arch) = described {
        arch.check_bounds().map_err(|why| NnueError::Bounds {
            arch: arch.name(),
            why,
        })?;
        if arch.hash() == hash {
            return Ok(arch);
        }
    }
    if let Some(arch) = COMMON.into_iter().find(|a| a.hash() == hash) {
        return Ok(arch);
    }
    Err(match described {
        Some(arch) => NnueError::Hash {
            arch: arch.name(),
            found: hash,
            expected: arch.hash(),
        },
        None => NnueError::Unsupported {
            hash,
            structure: structure.to_string(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string of a halfkp_256x2-32-32 net published with YaneuraOu's NNUE engines
    /// (as `strings nn.bin` shows it), and the same with the sparse first layer of
    /// YaneuraOu's current generator.
    #[test]
    fn yaneuraous_strings_are_read() {
        let old = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](\
                   ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[\
                   32<-512](InputSlice[512(0:512)])))))";
        let want = Architecture::new(FeatureSet::HalfKP, 256, 32, 32);
        assert_eq!(parse(old), Some(want));
        let new = old.replace(
            "AffineTransform[32<-512]",
            "AffineTransformSparseInput[32<-512]",
        );
        assert_eq!(parse(&new), Some(want));
        let kp = "Features=K+P[1710->768x2],Network=AffineTransform[1<-64](ClippedReLU[64](\
                  AffineTransform[64<-16](ClippedReLU[16](AffineTransformSparseInput[16<-1536](\
                  InputSlice[1536(0:1536)])))))";
        assert_eq!(
            parse(kp),
            Some(Architecture::new(FeatureSet::KP, 768, 16, 64))
        );
    }

    /// The string of YaneuraOu's SFNN1536 edition (as its `nnue_dummy_gen.py` writes it),
    /// and a shape of its generator by the edition's name.
    #[test]
    fn sfnn_strings_are_read() {
        let s = "ModelType=SFNNWithoutPsqt;Features=HalfKA_hm2(Friend)[73305->1536x2],\
                 Network=SFNN-1536{LayerStack=9}";
        assert_eq!(parse_sfnn(s), Some(Architecture::SFNN1536));
        assert_eq!(Architecture::SFNN1536.structure(), s);
        assert_eq!(identify(0x3C20_3B32, s).ok(), Some(Architecture::SFNN1536));
        let e = identify(0x3C20_3B32 ^ 1, s).unwrap_err();
        assert!(matches!(e, NnueError::Hash { .. }), "{e}");
        let other = "ModelType=SFNNWithoutPsqt;Features=HalfKA_hm2(Friend)[73305->1024x2],\
                     Network=SFNN_HALFKAHM2_1024_8_64{LayerStack=1}";
        let a = Architecture::sfnn(FeatureSet::HalfKAhm2, 1024, 8, 64, Buckets::ONE);
        assert_eq!(parse_sfnn(other), Some(a));
        assert_eq!(parse_sfnn(&a.structure()), Some(a));
        // Stack counts that are not the buckets', unknown or repeated bucket tokens, the
        // split tokens in the wrong place or malformed, a width that is not the
        // features', HalfKPE9.
        for damaged in [
            s.replace("SFNN-1536", "SFNN_halfkahm2_1536_15_32_hand4_k3k3"),
            s.replace("=9}", "=8}"),
            s.replace("->1536x2", "->1024x2"),
            s.replace("HalfKA_hm2(Friend)[73305", "HalfKP(Friend)[125388"),
            other.replace("_64{", "_64_progress8{"),
            other.replace("_64{LayerStack=1", "_64_progress5{LayerStack=5"),
            other.replace("_64{LayerStack=1", "_64_progress1{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_hand4_hand4{LayerStack=16"),
            other.replace("_64{LayerStack=1", "_64_k9k9_k3k3{LayerStack=729"),
            other.replace("_64{LayerStack=1", "_64_s512x2_c0{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_c0{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_c0_s512x1{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_c0_s0x2{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_c_s512x2{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_c0_s99999999999x2{LayerStack=1"),
            other.replace("_64{LayerStack=1", "_64_k3k3_c0_s512x2{LayerStack=9"),
            other.replace("_64{LayerStack=1", "_64_ls9{LayerStack=9"),
            other.replace("HalfKA_hm2(Friend)[73305", "HalfKPE9(Friend)[1128492"),
        ] {
            assert_eq!(parse_sfnn(&damaged), None, "{damaged}");
        }
        // Every bucket kind of the generator, alone or combined, in any order, by its
        // short or long name; other feature sets.
        for (network, stacks, buckets) in [
            ("K9K9_HAND16", 81 * 16, "_hand16_k9k9"),
            ("KING9_BY_KING9", 81, "_k9k9"),
            // 86,528 stacks with progress8: two progress buckets stay within the bound.
            (
                "HAND64Z_K13K13Z_PROGRESS2",
                64 * 169 * 2,
                "_hand64z_k13k13z_progress2",
            ),
            ("HAND1024_KING29_BY_KING29", 1024 * 841, ""),
            (
                "PROGRESS32_KING21_BY_KING21",
                441 * 32,
                "_k21k21_progress32",
            ),
            ("HAND256_K9K9Z", 256 * 81, "_hand256_k9k9z"),
        ] {
            let text = other.replace(
                "_64{LayerStack=1",
                &format!("_64_{network}{{LayerStack={stacks}"),
            );
            let a = parse_sfnn(&text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(a.stacks(), stacks);
            if buckets.is_empty() {
                // 861,184 stacks: beyond what hayate reads.
                let e = identify(0x3C20_3B32, &text).unwrap_err();
                assert!(e.to_string().contains("layer stacks"), "{e}");
            } else {
                assert_eq!(a.name(), format!("SFNN_halfkahm2_1024_8_64{buckets}"));
                let hash = 0x3C20_3B32
                    ^ if buckets.contains("progress") {
                        0x6F50_524F
                    } else {
                        0
                    };
                assert_eq!(identify(hash, &text).ok(), Some(a), "{text}");
            }
        }
        let ka2 = "ModelType=SFNNWithoutPsqt;Features=HalfKA2(Friend)[131949->1024x2],\
                   Network=SFNN_HALFKA2_1024_7_64_K3K3{LayerStack=9}";
        let a = Architecture::sfnn(FeatureSet::HalfKA2, 1024, 7, 64, Buckets::K3K3);
        assert_eq!(parse_sfnn(ka2), Some(a));
        // Shapes out of bounds: hidden1 neither 8n nor 8n - 1.
        let odd = other.replace("_8_64", "_9_64");
        let e = identify(0x3C20_3B32, &odd).unwrap_err();
        assert!(e.to_string().contains("first hidden layer of 9"), "{e}");
    }

    /// YaneuraOu's split first layer (`_c<common>_s<shard>x<groups>` right after the
    /// sizes, before any buckets): read with the buckets after it, written back the same,
    /// and refused when the parts do not add up as its generator requires.
    #[test]
    fn sfnn_split_first_layers_are_read() {
        let text = "ModelType=SFNNWithoutPsqt;Features=HalfKA2(Friend)[131949->3072x2],\
                    Network=SFNN_HALFKA2_3072_7_64_C1024_S256X8_K3K3{LayerStack=9}";
        let split = Shards {
            common: 1024,
            shard: 256,
            groups: 8,
        };
        let a =
            Architecture::sfnn(FeatureSet::HalfKA2, 3072, 7, 64, Buckets::K3K3).with_shards(split);
        assert_eq!(parse_sfnn(text), Some(a));
        assert_eq!(a.name(), "SFNN_halfka2_3072_7_64_c1024_s256x8_k3k3");
        assert_eq!(parse_sfnn(&a.structure()), Some(a));
        assert_eq!(identify(0x3C20_3B32, text).ok(), Some(a));
        // Output 0 (group 0) reads the common inputs and the first shard only; the last
        // output (group 7) the common inputs and the last shard.
        assert!(split.reads(0, 8, 0) && split.reads(0, 8, 1023));
        assert!(split.reads(0, 8, 1024) && split.reads(0, 8, 1279));
        assert!(!split.reads(0, 8, 1280) && !split.reads(0, 8, 3071));
        assert!(split.reads(7, 8, 1023) && split.reads(7, 8, 2816) && split.reads(7, 8, 3071));
        assert!(!split.reads(7, 8, 1024) && !split.reads(7, 8, 2815));
        assert!(Shards::NONE.reads(3, 8, 3000));
        // No common part at all is allowed.
        let c0 = text.replace("C1024_S256X8", "C0_S384X8");
        assert!(identify(0x3C20_3B32, &c0).is_ok(), "{c0}");
        for (bad, why) in [
            ("_7_64_C1024_S256X4", "add up"),
            ("_7_64_C1000_S259X8", "multiples of 64"),
            ("_16_64_C0_S1024X3", "equal groups"),
        ] {
            let t = text.replace("_7_64_C1024_S256X8", bad);
            let e = identify(0x3C20_3B32, &t).unwrap_err();
            assert!(e.to_string().contains(why), "{t}: {e}");
        }
    }

    #[test]
    fn our_own_strings_are_read_back() {
        for (features, half, h1, h2) in [
            (FeatureSet::HalfKP, 32, 1, 1),
            (FeatureSet::HalfKP, 1024, 8, 64),
            (FeatureSet::KP, 4096, 128, 100),
        ] {
            let a = Architecture::new(features, half, h1, h2);
            assert_eq!(parse(&a.structure()), Some(a));
        }
    }

    #[test]
    fn other_or_damaged_strings_are_not_shapes() {
        let good = Architecture::new(FeatureSet::HalfKP, 512, 16, 32).structure();
        let damaged = [
            String::new(),
            "Features=HalfKA_hm2(Friend)[73305->1024x2],Network=AffineTransform[1<-32](...)"
                .to_string(),
            // Inconsistent sizes: the layers do not chain, or the slice is not whole.
            good.replace("[32<-16]", "[32<-17]"),
            good.replace("(0:1024)", "(0:512)"),
            good.replace("125388", "125387"),
            good.replace("512x2", "-512x2"),
            // An extra or a missing parenthesis, a layer too many.
            format!("{good})"),
            good[..good.len() - 1].to_string(),
            good.replace("ClippedReLU[16]", "ClippedReLU[16](ClippedReLU[16])"),
            good.replace("512x2", "99999999999999999999x2"),
        ];
        for s in damaged {
            assert_eq!(parse(&s), None, "{s}");
        }
    }

    #[test]
    fn every_common_shape_has_its_own_hash_and_is_found_by_it() {
        for (i, a) in COMMON.iter().enumerate() {
            for b in &COMMON[i + 1..] {
                assert_ne!(a.hash(), b.hash(), "{} {}", a.name(), b.name());
            }
            assert_eq!(identify(a.hash(), "").ok(), Some(*a));
            assert_eq!(identify(a.hash(), &a.structure()).ok(), Some(*a));
        }
    }

    #[test]
    fn any_shape_in_bounds_is_identified_by_its_string_and_hash() {
        for a in [
            Architecture::new(FeatureSet::KP, 32, 1, 1),
            Architecture::new(FeatureSet::HalfKP, 384, 8, 96),
            Architecture::new(FeatureSet::KP, 2048, 128, 128),
            Architecture::LARGEST,
        ] {
            assert_eq!(a.check_bounds(), Ok(()));
            assert_eq!(identify(a.hash(), &a.structure()).ok(), Some(a));
            // The string alone is not enough: the hash must be the shape's.
            let e = identify(a.hash() ^ 1, &a.structure()).unwrap_err();
            assert!(matches!(e, NnueError::Hash { .. }), "{e}");
        }
    }

    #[test]
    fn shapes_out_of_bounds_are_refused_with_the_reason() {
        for (a, words) in [
            (
                Architecture::new(FeatureSet::HalfKP, 8192, 32, 32),
                "8192 per side",
            ),
            (
                Architecture::new(FeatureSet::HalfKP, 100, 32, 32),
                "multiples of 32",
            ),
            (
                Architecture::new(FeatureSet::KP, 256, 256, 32),
                "first hidden layer of 256",
            ),
            (
                Architecture::new(FeatureSet::KP, 256, 32, 0),
                "second hidden layer of 0",
            ),
        ] {
            let e = identify(a.hash(), &a.structure()).unwrap_err();
            assert!(matches!(e, NnueError::Bounds { .. }), "{e}");
            assert!(e.to_string().contains(words), "{e}");
        }
    }
}
