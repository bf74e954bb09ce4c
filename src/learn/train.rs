//! `hayate train`: trains a classic NNUE net (`kp_256x2-32-32` or `halfkp_256x2-32-32`)
//! on the CPU from `PackedSfenValue` records and writes it in YaneuraOu's format.
//!
//! The float net mirrors the integer one: the transformer's sums and every hidden layer
//! are clipped to 0..1 (127 in the integer net), and the output `y` is the evaluation in
//! units of [`SCORE_SCALE`] centipawns. Quantising multiplies the transformer by 127, the
//! hidden layers' weights by 64 (their biases by 127 · 64) and the output layer so that the
//! integer output divided by `FV_SCALE` (16) is `y · SCORE_SCALE`.
//!
//! The loss is the cross-entropy between the predicted win rate `sigmoid(y)` and a blend
//! of the search score's win rate `sigmoid(score / SCORE_SCALE)` (weight `lambda`) and
//! the game result (weight `1 - lambda`), less the target's own entropy, so a perfect fit
//! is 0. HalfKP trains with a factoriser: each (king, piece) feature also switches on a
//! king-independent piece feature, whose weights are added to every king's at export, so
//! the 125,388 rows learn from what they share.

use super::packed::{self, PackedSfenValue, RECORD_BYTES};
use crate::eval::nnue::arch::{padded, Architecture, FeatureSet, PIECE_STATES, VERSION};
use crate::eval::nnue::features;
use crate::position::Position;
use crate::types::Color;
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;

/// Centipawns per unit of the float net's output, and the scale of the win rate:
/// `sigmoid(cp / 600)` (the usual constant of the shogi engines' training scripts).
pub const SCORE_SCALE: f32 = 600.0;

/// `FV_SCALE` the exported nets are made for.
pub const EXPORT_FV_SCALE: f32 = 16.0;

/// Transformer outputs per side, and the hidden layers, of the shapes trained here.
const HALF: usize = 256;
const H1: usize = 32;
const H2: usize = 32;

/// One training position: the active features from the side to move's and the other
/// side's view (factoriser features included), the score and the result.
#[derive(Clone)]
pub struct Sample {
    features: [Vec<u32>; 2],
    /// Target win rate of the side to move for `lambda` = 1 and 0.
    score_rate: f32,
    result_rate: f32,
}

/// Logistic function.
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Which net a run trains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Kp,
    HalfKp,
}

impl Shape {
    pub fn arch(self) -> Architecture {
        match self {
            Shape::Kp => Architecture::new(FeatureSet::KP, HALF, H1, H2),
            Shape::HalfKp => Architecture::new(FeatureSet::HalfKP, HALF, H1, H2),
        }
    }

    /// Rows of the trained transformer: the real features, and for HalfKP the
    /// king-independent ones after them.
    fn rows(self) -> usize {
        match self {
            Shape::Kp => FeatureSet::KP.dimensions(),
            Shape::HalfKp => FeatureSet::HalfKP.dimensions() + PIECE_STATES,
        }
    }

    /// Active rows of `viewer` in `pos`.
    fn active(self, pos: &Position, viewer: Color) -> Vec<u32> {
        let set = self.arch().features;
        let real = features::active(pos, set, viewer);
        let mut out: Vec<u32> = real.to_vec();
        if self == Shape::HalfKp {
            let base = FeatureSet::HalfKP.dimensions() as u32;
            out.extend(real.iter().map(|&f| base + f % PIECE_STATES as u32));
        }
        out
    }
}

/// Turns records into samples (positions that do not unpack or lack a king are skipped).
pub fn samples(shape: Shape, records: &[PackedSfenValue]) -> Vec<Sample> {
    records
        .par_iter()
        .filter_map(|r| {
            let pos = packed::unpack(&r.sfen).ok()?;
            if !features::supports(&pos) {
                return None;
            }
            let us = pos.side_to_move();
            Some(Sample {
                features: [shape.active(&pos, us), shape.active(&pos, !us)],
                score_rate: sigmoid(r.score as f32 / SCORE_SCALE),
                result_rate: (r.game_result as f32 + 1.0) / 2.0,
            })
        })
        .collect()
}

/// Reads every whole record of a file.
pub fn read_records(path: &Path) -> std::io::Result<Vec<PackedSfenValue>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| PackedSfenValue::from_bytes(c.try_into().expect("40 bytes")))
        .collect())
}

/// Splits records into training and held-out positions by game: a game begins where the
/// ply does not follow the record before; every `every`-th game is held out.
pub fn split_by_game(
    records: Vec<PackedSfenValue>,
    every: usize,
) -> (Vec<PackedSfenValue>, Vec<PackedSfenValue>) {
    let mut train = Vec::new();
    let mut held = Vec::new();
    let mut game = 0usize;
    let mut last_ply = u16::MAX;
    for r in records {
        if r.game_ply <= last_ply {
            game += 1;
        }
        last_ply = r.game_ply;
        if every > 0 && game.is_multiple_of(every) {
            held.push(r);
        } else {
            train.push(r);
        }
    }
    (train, held)
}

/// A float layer: `outputs` rows of `inputs` weights, and biases.
#[derive(Clone)]
struct Layer {
    w: Vec<f32>,
    b: Vec<f32>,
    inputs: usize,
}

impl Layer {
    fn new(inputs: usize, outputs: usize, rng: &mut u64) -> Layer {
        // Uniform in ±1/sqrt(inputs), a common starting scale.
        let bound = 1.0 / (inputs as f32).sqrt();
        Layer {
            w: (0..inputs * outputs)
                .map(|_| (uniform(rng) * 2.0 - 1.0) * bound)
                .collect(),
            b: vec![0.0; outputs],
            inputs,
        }
    }

    fn forward(&self, x: &[f32], out: &mut [f32]) {
        for (o, y) in out.iter_mut().enumerate() {
            let row = &self.w[o * self.inputs..][..self.inputs];
            *y = self.b[o] + row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>();
        }
    }
}

fn uniform(state: &mut u64) -> f32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 40) as f32 / (1u64 << 24) as f32
}

/// The float net.
#[derive(Clone)]
pub struct Model {
    shape: Shape,
    /// `rows × HALF` transformer weights and `HALF` biases.
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    l1: Layer,
    l2: Layer,
    out: Layer,
}

/// Largest weight of each integer layer, in float units: i8 weights of the hidden
/// layers are `64 w`, the output's `16 · 600 / 127 · w`.
const HIDDEN_LIMIT: f32 = 127.0 / 64.0;
const OUTPUT_LIMIT: f32 = 127.0 * 127.0 / (EXPORT_FV_SCALE * SCORE_SCALE);

/// What a forward pass keeps for the backward one.
struct Trace {
    acc: [[f32; HALF]; 2],
    x: [f32; 2 * HALF],
    h1: [f32; H1],
    h2: [f32; H2],
    y: f32,
}

impl Model {
    pub fn new(shape: Shape, seed: u64) -> Model {
        let mut rng = seed | 1;
        let rows = shape.rows();
        // Small transformer weights: 38-odd rows add up per output.
        let ft_w = (0..rows * HALF)
            .map(|_| (uniform(&mut rng) * 2.0 - 1.0) * 0.05)
            .collect();
        Model {
            shape,
            ft_w,
            ft_b: vec![0.5; HALF],
            l1: Layer::new(2 * HALF, H1, &mut rng),
            l2: Layer::new(H1, H2, &mut rng),
            out: Layer::new(H2, 1, &mut rng),
        }
    }

    fn forward(&self, s: &Sample) -> Trace {
        let mut t = Trace {
            acc: [[0.0; HALF]; 2],
            x: [0.0; 2 * HALF],
            h1: [0.0; H1],
            h2: [0.0; H2],
            y: 0.0,
        };
        for p in 0..2 {
            t.acc[p].copy_from_slice(&self.ft_b);
            for &f in &s.features[p] {
                let row = &self.ft_w[f as usize * HALF..][..HALF];
                for (a, w) in t.acc[p].iter_mut().zip(row) {
                    *a += w;
                }
            }
            for (x, a) in t.x[p * HALF..][..HALF].iter_mut().zip(&t.acc[p]) {
                *x = a.clamp(0.0, 1.0);
            }
        }
        self.l1.forward(&t.x, &mut t.h1);
        let h1: Vec<f32> = t.h1.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        self.l2.forward(&h1, &mut t.h2);
        let h2: Vec<f32> = t.h2.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        let mut y = [0.0];
        self.out.forward(&h2, &mut y);
        t.y = y[0];
        t
    }

    /// The float net's evaluation of `pos` in centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let us = pos.side_to_move();
        let s = Sample {
            features: [self.shape.active(pos, us), self.shape.active(pos, !us)],
            score_rate: 0.0,
            result_rate: 0.0,
        };
        self.forward(&s).y * SCORE_SCALE
    }
}

/// Gradients of one batch (the transformer's rows apart, in [`RowGrads`]).
struct Grads {
    ft_b: Vec<f32>,
    l1_w: Vec<f32>,
    l1_b: Vec<f32>,
    l2_w: Vec<f32>,
    l2_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
    loss: f64,
}

impl Grads {
    fn zero() -> Grads {
        Grads {
            ft_b: vec![0.0; HALF],
            l1_w: vec![0.0; 2 * HALF * H1],
            l1_b: vec![0.0; H1],
            l2_w: vec![0.0; H1 * H2],
            l2_b: vec![0.0; H2],
            out_w: vec![0.0; H2],
            out_b: 0.0,
            loss: 0.0,
        }
    }

    fn add(mut self, o: &Grads) -> Grads {
        let pairs = [
            (&mut self.ft_b, &o.ft_b),
            (&mut self.l1_w, &o.l1_w),
            (&mut self.l1_b, &o.l1_b),
            (&mut self.l2_w, &o.l2_w),
            (&mut self.l2_b, &o.l2_b),
            (&mut self.out_w, &o.out_w),
        ];
        for (a, b) in pairs {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.out_b += o.out_b;
        self.loss += o.loss;
        self
    }
}

/// One thread's summed transformer gradients: a dense buffer of every row, and the rows
/// the batch touched (only those are read and cleared).
struct RowGrads {
    rows: Vec<f32>,
    touched: Vec<u32>,
    marked: Vec<bool>,
}

impl RowGrads {
    fn new(rows: usize) -> RowGrads {
        RowGrads {
            rows: vec![0.0; rows * HALF],
            touched: Vec::new(),
            marked: vec![false; rows],
        }
    }

    #[inline]
    fn add(&mut self, row: u32, d: &[f32; HALF]) {
        let r = row as usize;
        if !self.marked[r] {
            self.marked[r] = true;
            self.touched.push(row);
        }
        for (g, x) in self.rows[r * HALF..][..HALF].iter_mut().zip(d) {
            *g += x;
        }
    }

    /// Moves every touched row of `other` into this one, clearing it.
    fn absorb(&mut self, other: &mut RowGrads) {
        for &row in &other.touched {
            let r = row as usize;
            let at = r * HALF;
            if !self.marked[r] {
                self.marked[r] = true;
                self.touched.push(row);
            }
            for j in at..at + HALF {
                self.rows[j] += other.rows[j];
                other.rows[j] = 0.0;
            }
            other.marked[r] = false;
        }
        other.touched.clear();
    }
}

/// Cross-entropy of prediction `p` against target `t`, less the target's entropy.
fn loss_of(p: f32, t: f32) -> f64 {
    let eps = 1e-7f64;
    let (p, t) = (p as f64, t as f64);
    let ce = -(t * (p + eps).ln() + (1.0 - t) * (1.0 - p + eps).ln());
    let h = -(t * (t + eps).ln() + (1.0 - t) * (1.0 - t + eps).ln());
    ce - h
}

impl Model {
    /// The gradient of the summed loss over `batch`; the transformer rows' go to `rows`.
    fn backward(&self, batch: &[Sample], lambda: f32, rows: &mut RowGrads) -> Grads {
        let mut g = Grads::zero();
        for s in batch {
            let t = self.forward(s);
            let target = lambda * s.score_rate + (1.0 - lambda) * s.result_rate;
            let p = sigmoid(t.y);
            g.loss += loss_of(p, target);
            let dy = p - target;
            let h1: Vec<f32> = t.h1.iter().map(|v| v.clamp(0.0, 1.0)).collect();
            let h2: Vec<f32> = t.h2.iter().map(|v| v.clamp(0.0, 1.0)).collect();
            // Output layer.
            let mut dh2 = [0.0f32; H2];
            for i in 0..H2 {
                g.out_w[i] += dy * h2[i];
                if t.h2[i] > 0.0 && t.h2[i] < 1.0 {
                    dh2[i] = dy * self.out.w[i];
                }
            }
            g.out_b += dy;
            // Second hidden layer.
            let mut dh1 = [0.0f32; H1];
            for (o, &d) in dh2.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                g.l2_b[o] += d;
                let row = &self.l2.w[o * H1..][..H1];
                let grow = &mut g.l2_w[o * H1..][..H1];
                for i in 0..H1 {
                    grow[i] += d * h1[i];
                    dh1[i] += d * row[i];
                }
            }
            for (d, &h) in dh1.iter_mut().zip(&t.h1) {
                if !(h > 0.0 && h < 1.0) {
                    *d = 0.0;
                }
            }
            // First hidden layer.
            let mut dx = [0.0f32; 2 * HALF];
            for (o, &d) in dh1.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                g.l1_b[o] += d;
                let row = &self.l1.w[o * 2 * HALF..][..2 * HALF];
                let grow = &mut g.l1_w[o * 2 * HALF..][..2 * HALF];
                for i in 0..2 * HALF {
                    grow[i] += d * t.x[i];
                    dx[i] += d * row[i];
                }
            }
            // Transformer: through the clip, to each active row.
            for p in 0..2 {
                let mut d = [0.0f32; HALF];
                for j in 0..HALF {
                    let a = t.acc[p][j];
                    if a > 0.0 && a < 1.0 {
                        d[j] = dx[p * HALF + j];
                    }
                }
                for (b, x) in g.ft_b.iter_mut().zip(&d) {
                    *b += x;
                }
                for &f in &s.features[p] {
                    rows.add(f, &d);
                }
            }
        }
        g
    }
}

/// Adam's state for one parameter array.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const ADAM_EPS: f32 = 1e-8;

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step on `w[range]` with gradient `g` (same length), clipping to ±`limit`.
    fn step(&mut self, w: &mut [f32], at: usize, g: &[f32], lr: f32, t: i32, limit: f32) {
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        for (i, &gi) in g.iter().enumerate() {
            let k = at + i;
            self.m[k] = BETA1 * self.m[k] + (1.0 - BETA1) * gi;
            self.v[k] = BETA2 * self.v[k] + (1.0 - BETA2) * gi * gi;
            let update = lr * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + ADAM_EPS);
            w[k] = (w[k] - update).clamp(-limit, limit);
        }
    }
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub lambda: f32,
    pub seed: u64,
}

/// A trainer: the model and its optimiser state.
pub struct Trainer {
    pub model: Model,
    adam_ft: Adam,
    adam_ft_b: Adam,
    adam_l1: (Adam, Adam),
    adam_l2: (Adam, Adam),
    adam_out: (Adam, Adam),
    /// Each thread's transformer gradients.
    row_grads: Vec<RowGrads>,
    step: i32,
}

impl Trainer {
    pub fn new(model: Model) -> Trainer {
        let rows = model.shape.rows();
        Trainer {
            adam_ft: Adam::new(rows * HALF),
            adam_ft_b: Adam::new(HALF),
            adam_l1: (Adam::new(2 * HALF * H1), Adam::new(H1)),
            adam_l2: (Adam::new(H1 * H2), Adam::new(H2)),
            adam_out: (Adam::new(H2), Adam::new(1)),
            row_grads: (0..rayon::current_num_threads().max(1))
                .map(|_| RowGrads::new(rows))
                .collect(),
            step: 0,
            model,
        }
    }

    /// One pass over `data` in the order given, in batches; returns the mean loss.
    pub fn epoch(&mut self, data: &[Sample], config: &TrainConfig) -> f64 {
        let mut total = 0.0;
        for batch in data.chunks(config.batch.max(1)) {
            let model = &self.model;
            let per_thread = batch.len().div_ceil(self.row_grads.len()).max(1);
            let parts: Vec<Grads> = batch
                .par_chunks(per_thread)
                .zip(self.row_grads.par_iter_mut())
                .map(|(part, rows)| model.backward(part, config.lambda, rows))
                .collect();
            let g = parts.iter().fold(Grads::zero(), Grads::add);
            total += g.loss;
            let (first, rest) = self.row_grads.split_at_mut(1);
            for other in rest {
                first[0].absorb(other);
            }
            self.apply(g, batch.len(), config.lr);
        }
        total / data.len().max(1) as f64
    }

    fn apply(&mut self, g: Grads, n: usize, lr: f32) {
        self.step += 1;
        let t = self.step;
        let scale = 1.0 / n as f32;
        // Lazy Adam on the transformer: only the rows this batch touched move.
        let m = &mut self.model;
        let rows = &mut self.row_grads[0];
        let mut grad = [0.0f32; HALF];
        for &f in &rows.touched {
            let at = f as usize * HALF;
            for (g, r) in grad.iter_mut().zip(&mut rows.rows[at..at + HALF]) {
                *g = *r * scale;
                *r = 0.0;
            }
            rows.marked[f as usize] = false;
            self.adam_ft.step(&mut m.ft_w, at, &grad, lr, t, 1.0e4);
        }
        rows.touched.clear();
        let sc = |v: &[f32]| v.iter().map(|x| x * scale).collect::<Vec<f32>>();
        self.adam_ft_b
            .step(&mut m.ft_b, 0, &sc(&g.ft_b), lr, t, 1.0e4);
        self.adam_l1
            .0
            .step(&mut m.l1.w, 0, &sc(&g.l1_w), lr, t, HIDDEN_LIMIT);
        self.adam_l1
            .1
            .step(&mut m.l1.b, 0, &sc(&g.l1_b), lr, t, 1.0e4);
        self.adam_l2
            .0
            .step(&mut m.l2.w, 0, &sc(&g.l2_w), lr, t, HIDDEN_LIMIT);
        self.adam_l2
            .1
            .step(&mut m.l2.b, 0, &sc(&g.l2_b), lr, t, 1.0e4);
        self.adam_out
            .0
            .step(&mut m.out.w, 0, &sc(&g.out_w), lr, t, OUTPUT_LIMIT);
        self.adam_out
            .1
            .step(&mut m.out.b, 0, &[g.out_b * scale], lr, t, 1.0e4);
    }

    /// Mean loss over `data` without training.
    pub fn loss(&self, data: &[Sample], lambda: f32) -> f64 {
        let model = &self.model;
        let total: f64 = data
            .par_iter()
            .map(|s| {
                let target = lambda * s.score_rate + (1.0 - lambda) * s.result_rate;
                loss_of(sigmoid(model.forward(s).y), target)
            })
            .sum();
        total / data.len().max(1) as f64
    }
}

/// Rounds and clamps to an integer range.
fn quantise(x: f32, lo: f32, hi: f32) -> f32 {
    x.round().clamp(lo, hi)
}

impl Model {
    /// The net in YaneuraOu's file format (factoriser folded in).
    pub fn export(&self) -> Vec<u8> {
        let arch = self.shape.arch();
        let structure = arch.structure();
        let mut out = Vec::with_capacity(arch.file_size(structure.len()) as usize);
        out.extend(VERSION.to_le_bytes());
        out.extend(arch.hash().to_le_bytes());
        out.extend((structure.len() as u32).to_le_bytes());
        out.extend(structure.as_bytes());
        out.extend(arch.transformer_hash().to_le_bytes());
        let i16s = |v: f32| quantise(v * 127.0, i16::MIN as f32, i16::MAX as f32) as i16;
        for &b in &self.ft_b {
            out.extend(i16s(b).to_le_bytes());
        }
        let real = arch.features.dimensions();
        for f in 0..real {
            for j in 0..HALF {
                let mut w = self.ft_w[f * HALF + j];
                if self.shape == Shape::HalfKp {
                    w += self.ft_w[(real + f % PIECE_STATES) * HALF + j];
                }
                out.extend(i16s(w).to_le_bytes());
            }
        }
        out.extend(arch.network_hash().to_le_bytes());
        let hidden = |out: &mut Vec<u8>, l: &Layer, outputs: usize| {
            for &b in &l.b {
                out.extend((quantise(b * 127.0 * 64.0, -2e9, 2e9) as i32).to_le_bytes());
            }
            for o in 0..outputs {
                for i in 0..padded(l.inputs) {
                    let w = if i < l.inputs {
                        l.w[o * l.inputs + i]
                    } else {
                        0.0
                    };
                    out.push(quantise(w * 64.0, -128.0, 127.0) as i8 as u8);
                }
            }
        };
        hidden(&mut out, &self.l1, H1);
        hidden(&mut out, &self.l2, H2);
        let k = EXPORT_FV_SCALE * SCORE_SCALE;
        out.extend((quantise(self.out.b[0] * k, -2e9, 2e9) as i32).to_le_bytes());
        for i in 0..padded(H2) {
            let w = if i < H2 { self.out.w[i] } else { 0.0 };
            out.push(quantise(w * k / 127.0, -128.0, 127.0) as i8 as u8);
        }
        out
    }
}

/// Trains and reports each epoch through `report`; returns the trainer.
pub fn train(
    shape: Shape,
    train: &[Sample],
    held: &[Sample],
    config: &TrainConfig,
    mut report: impl FnMut(usize, f64, f64, f64),
) -> Trainer {
    let mut trainer = Trainer::new(Model::new(shape, config.seed));
    let mut order: Vec<Sample> = train.to_vec();
    let mut rng = config.seed | 1;
    for epoch in 1..=config.epochs {
        // Shuffle (Fisher-Yates).
        for i in (1..order.len()).rev() {
            let j = (uniform(&mut rng) * (i + 1) as f32) as usize % (i + 1);
            order.swap(i, j);
        }
        let started = std::time::Instant::now();
        let loss = trainer.epoch(&order, config);
        let secs = started.elapsed().as_secs_f64();
        report(epoch, loss, trainer.loss(held, config.lambda), secs);
    }
    trainer
}

/// `hayate train ...`.
pub fn run_cli(args: &[String]) -> i32 {
    match cli(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("hayate train: {e}\n{USAGE}");
            2
        }
    }
}

pub const USAGE: &str = "usage: hayate train --data FILE [--data FILE ...] --out nn.bin \
[--arch kp|halfkp] [--epochs N] [--batch N] [--lr X] [--lambda X] [--hold-out-every N] \
[--threads N] [--seed S]";

fn cli(args: &[String]) -> Result<(), String> {
    let mut data = Vec::new();
    let mut out = None;
    let mut shape = Shape::Kp;
    let mut config = TrainConfig {
        epochs: 10,
        batch: 16384,
        lr: 1e-3,
        lambda: 0.5,
        seed: 1,
    };
    let mut every = 20;
    let mut threads = 0;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args.get(i + 1).ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("bad value '{value}' for {flag}");
        match flag {
            "--data" => data.push(value.clone()),
            "--out" => out = Some(value.clone()),
            "--arch" => {
                shape = match value.as_str() {
                    "kp" | "kp_256x2-32-32" => Shape::Kp,
                    "halfkp" | "halfkp_256x2-32-32" => Shape::HalfKp,
                    _ => return Err(bad()),
                }
            }
            "--epochs" => config.epochs = value.parse().map_err(|_| bad())?,
            "--batch" => config.batch = value.parse().ok().filter(|&b| b > 0).ok_or_else(bad)?,
            "--lr" => {
                config.lr = value
                    .parse()
                    .ok()
                    .filter(|&x: &f32| x > 0.0)
                    .ok_or_else(bad)?
            }
            "--lambda" => {
                config.lambda = value
                    .parse()
                    .ok()
                    .filter(|x: &f32| (0.0..=1.0).contains(x))
                    .ok_or_else(bad)?
            }
            "--hold-out-every" => every = value.parse().map_err(|_| bad())?,
            "--threads" => threads = value.parse().map_err(|_| bad())?,
            "--seed" => config.seed = value.parse().map_err(|_| bad())?,
            _ => return Err(format!("unknown argument '{flag}'")),
        }
        i += 2;
    }
    let out = out.ok_or("--out is required")?;
    if data.is_empty() {
        return Err("--data is required".into());
    }
    if threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    crate::attacks::init();
    let mut records = Vec::new();
    for d in &data {
        records.extend(read_records(Path::new(d)).map_err(|e| format!("{d}: {e}"))?);
    }
    let (train_records, held_records) = split_by_game(records, every);
    let started = std::time::Instant::now();
    let train_set = samples(shape, &train_records);
    let held_set = samples(shape, &held_records);
    eprintln!(
        "train: {} training and {} held-out positions ({} a game held out), read in {:.1} s",
        train_set.len(),
        held_set.len(),
        if every > 0 {
            format!("1 in {every}")
        } else {
            "none".into()
        },
        started.elapsed().as_secs_f64()
    );
    let trainer = train(
        shape,
        &train_set,
        &held_set,
        &config,
        |epoch, loss, held, secs| {
            println!(
            "epoch {epoch}: training loss {loss:.5}, held-out loss {held:.5}, {secs:.1} s ({:.0} positions/s)",
            train_set.len() as f64 / secs.max(1e-9)
        );
        },
    );
    let bytes = trainer.model.export();
    std::fs::File::create(&out)
        .and_then(|mut f| f.write_all(&bytes))
        .map_err(|e| format!("{out}: {e}"))?;
    println!("wrote {} ({} bytes)", out, bytes.len());
    Ok(())
}
