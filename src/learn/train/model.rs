//! The float net: its layers, the forward pass and the gradients of the loss.

use super::{sigmoid, Sample, Shape, EXPORT_FV_SCALE, SCORE_SCALE};
use crate::position::Position;
use crate::rng::Rng;

/// A float layer: `outputs` rows of `inputs` weights, and biases.
#[derive(Clone)]
pub(super) struct Layer {
    pub(super) w: Vec<f32>,
    pub(super) b: Vec<f32>,
    pub(super) inputs: usize,
}

impl Layer {
    fn new(inputs: usize, outputs: usize, rng: &mut Rng) -> Layer {
        // Uniform in ±1/sqrt(inputs), a common starting scale.
        let bound = 1.0 / (inputs as f32).sqrt();
        Layer {
            w: (0..inputs * outputs)
                .map(|_| (rng.unit_f32() * 2.0 - 1.0) * bound)
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

/// The float net.
#[derive(Clone)]
pub struct Model {
    pub(super) shape: Shape,
    /// `rows × half` transformer weights and `half` biases.
    pub(super) ft_w: Vec<f32>,
    pub(super) ft_b: Vec<f32>,
    pub(super) l1: Layer,
    pub(super) l2: Layer,
    pub(super) out: Layer,
}

/// Largest weight of each integer layer, in float units: i8 weights of the hidden
/// layers are `64 w`, the output's `16 · 600 / 127 · w`.
pub(super) const HIDDEN_LIMIT: f32 = 127.0 / 64.0;
pub(super) const OUTPUT_LIMIT: f32 = 127.0 * 127.0 / (EXPORT_FV_SCALE * SCORE_SCALE);

/// What a forward pass keeps for the backward one. Sized by the shape once and reused
/// from sample to sample: the sizes are the run's, not the compiler's, and a buffer a
/// sample would cost an allocation in the innermost loop.
pub(super) struct Trace {
    /// Both sides' transformer sums (side to move's first), before the clip.
    pub(super) acc: Vec<f32>,
    /// The sums clipped: the first hidden layer's input.
    pub(super) x: Vec<f32>,
    /// Each hidden layer's sums before and after the clip.
    pub(super) h1: Vec<f32>,
    pub(super) h1_clipped: Vec<f32>,
    pub(super) h2: Vec<f32>,
    pub(super) h2_clipped: Vec<f32>,
    pub(super) y: f32,
}

impl Trace {
    pub(super) fn new(shape: Shape) -> Trace {
        let (half, h1, h2) = (shape.half(), shape.hidden1(), shape.hidden2());
        Trace {
            acc: vec![0.0; 2 * half],
            x: vec![0.0; 2 * half],
            h1: vec![0.0; h1],
            h1_clipped: vec![0.0; h1],
            h2: vec![0.0; h2],
            h2_clipped: vec![0.0; h2],
            y: 0.0,
        }
    }
}

/// Clips each of `from` to 0..1 into `to`.
fn clip(from: &[f32], to: &mut [f32]) {
    for (c, v) in to.iter_mut().zip(from) {
        *c = v.clamp(0.0, 1.0);
    }
}

impl Model {
    pub fn new(shape: Shape, seed: u64) -> Model {
        let mut rng = Rng::seeded(seed);
        let (half, h1, h2) = (shape.half(), shape.hidden1(), shape.hidden2());
        // Small transformer weights: 38-odd rows add up per output.
        let ft_w = (0..shape.rows() * half)
            .map(|_| (rng.unit_f32() * 2.0 - 1.0) * 0.05)
            .collect();
        Model {
            shape,
            ft_w,
            ft_b: vec![0.5; half],
            l1: Layer::new(2 * half, h1, &mut rng),
            l2: Layer::new(h1, h2, &mut rng),
            out: Layer::new(h2, 1, &mut rng),
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The forward pass of `s`, into `t` (made by [`Trace::new`] for this shape).
    pub(super) fn forward(&self, s: &Sample, t: &mut Trace) {
        let half = self.shape.half();
        for p in 0..2 {
            let acc = &mut t.acc[p * half..][..half];
            acc.copy_from_slice(&self.ft_b);
            for f in self.shape.rows_of(&s.features[p]) {
                let row = &self.ft_w[f as usize * half..][..half];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        clip(&t.acc, &mut t.x);
        self.l1.forward(&t.x, &mut t.h1);
        clip(&t.h1, &mut t.h1_clipped);
        self.l2.forward(&t.h1_clipped, &mut t.h2);
        clip(&t.h2, &mut t.h2_clipped);
        let mut y = [0.0];
        self.out.forward(&t.h2_clipped, &mut y);
        t.y = y[0];
    }

    /// The float net's evaluation of `pos` in centipawns for the side to move.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let us = pos.side_to_move();
        let s = Sample {
            features: [self.shape.active(pos, us), self.shape.active(pos, !us)],
            score_rate: 0.0,
            result_rate: 0.0,
        };
        let mut t = Trace::new(self.shape);
        self.forward(&s, &mut t);
        t.y * SCORE_SCALE
    }
}

/// Gradients of one batch (the transformer's rows apart, in [`RowGrads`]).
pub(super) struct Grads {
    pub(super) ft_b: Vec<f32>,
    pub(super) l1_w: Vec<f32>,
    pub(super) l1_b: Vec<f32>,
    pub(super) l2_w: Vec<f32>,
    pub(super) l2_b: Vec<f32>,
    pub(super) out_w: Vec<f32>,
    pub(super) out_b: f32,
    pub(super) loss: f64,
}

impl Grads {
    pub(super) fn zero(shape: Shape) -> Grads {
        let (half, h1, h2) = (shape.half(), shape.hidden1(), shape.hidden2());
        Grads {
            ft_b: vec![0.0; half],
            l1_w: vec![0.0; 2 * half * h1],
            l1_b: vec![0.0; h1],
            l2_w: vec![0.0; h1 * h2],
            l2_b: vec![0.0; h2],
            out_w: vec![0.0; h2],
            out_b: 0.0,
            loss: 0.0,
        }
    }

    pub(super) fn add(mut self, o: &Grads) -> Grads {
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
pub(super) struct RowGrads {
    /// Floats a row (the transformer's outputs per side).
    pub(super) half: usize,
    pub(super) rows: Vec<f32>,
    pub(super) touched: Vec<u32>,
    pub(super) marked: Vec<bool>,
}

impl RowGrads {
    pub(super) fn new(shape: Shape) -> RowGrads {
        let rows = shape.rows();
        RowGrads {
            half: shape.half(),
            rows: vec![0.0; rows * shape.half()],
            touched: Vec::new(),
            marked: vec![false; rows],
        }
    }

    #[inline]
    fn add(&mut self, row: u32, d: &[f32]) {
        let r = row as usize;
        if !self.marked[r] {
            self.marked[r] = true;
            self.touched.push(row);
        }
        for (g, x) in self.rows[r * self.half..][..self.half].iter_mut().zip(d) {
            *g += x;
        }
    }

    /// Moves every touched row of `other` into this one, clearing it.
    pub(super) fn absorb(&mut self, other: &mut RowGrads) {
        for &row in &other.touched {
            let r = row as usize;
            let at = r * self.half;
            if !self.marked[r] {
                self.marked[r] = true;
                self.touched.push(row);
            }
            for j in at..at + self.half {
                self.rows[j] += other.rows[j];
                other.rows[j] = 0.0;
            }
            other.marked[r] = false;
        }
        other.touched.clear();
    }
}

/// Cross-entropy of prediction `p` against target `t`, less the target's entropy.
pub(super) fn loss_of(p: f32, t: f32) -> f64 {
    let eps = 1e-7f64;
    let (p, t) = (p as f64, t as f64);
    let ce = -(t * (p + eps).ln() + (1.0 - t) * (1.0 - p + eps).ln());
    let h = -(t * (t + eps).ln() + (1.0 - t) * (1.0 - t + eps).ln());
    ce - h
}

impl Model {
    /// The gradient of the summed loss over `batch`; the transformer rows' go to `rows`.
    pub(super) fn backward(&self, batch: &[Sample], lambda: f32, rows: &mut RowGrads) -> Grads {
        let shape = self.shape;
        let (half, h1, h2) = (shape.half(), shape.hidden1(), shape.hidden2());
        let mut g = Grads::zero(shape);
        let mut t = Trace::new(shape);
        // The gradients of each layer's inputs, reused from sample to sample.
        let mut dh2 = vec![0.0f32; h2];
        let mut dh1 = vec![0.0f32; h1];
        let mut dx = vec![0.0f32; 2 * half];
        let mut d = vec![0.0f32; half];
        for s in batch {
            self.forward(s, &mut t);
            let target = lambda * s.score_rate + (1.0 - lambda) * s.result_rate;
            let p = sigmoid(t.y);
            g.loss += loss_of(p, target);
            let dy = p - target;
            // Output layer.
            let outputs = t.h2.iter().zip(&t.h2_clipped).zip(&self.out.w);
            for ((gw, di), ((&h, &clipped), &w)) in g.out_w.iter_mut().zip(&mut dh2).zip(outputs) {
                *gw += dy * clipped;
                *di = if h > 0.0 && h < 1.0 { dy * w } else { 0.0 };
            }
            g.out_b += dy;
            // Second hidden layer.
            dh1.fill(0.0);
            for (o, &d) in dh2.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                g.l2_b[o] += d;
                let row = &self.l2.w[o * h1..][..h1];
                let grow = &mut g.l2_w[o * h1..][..h1];
                for (((gw, di), &x), &w) in
                    grow.iter_mut().zip(&mut dh1).zip(&t.h1_clipped).zip(row)
                {
                    *gw += d * x;
                    *di += d * w;
                }
            }
            for (d, &h) in dh1.iter_mut().zip(&t.h1) {
                if !(h > 0.0 && h < 1.0) {
                    *d = 0.0;
                }
            }
            // First hidden layer.
            dx.fill(0.0);
            for (o, &d) in dh1.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                g.l1_b[o] += d;
                let row = &self.l1.w[o * 2 * half..][..2 * half];
                let grow = &mut g.l1_w[o * 2 * half..][..2 * half];
                for (((gw, di), &x), &w) in grow.iter_mut().zip(&mut dx).zip(&t.x).zip(row) {
                    *gw += d * x;
                    *di += d * w;
                }
            }
            // Transformer: through the clip, to each active row.
            for p in 0..2 {
                let acc = &t.acc[p * half..][..half];
                for ((dj, &a), &x) in d.iter_mut().zip(acc).zip(&dx[p * half..][..half]) {
                    *dj = if a > 0.0 && a < 1.0 { x } else { 0.0 };
                }
                for (b, x) in g.ft_b.iter_mut().zip(&d) {
                    *b += x;
                }
                for f in self.shape.rows_of(&s.features[p]) {
                    rows.add(f, &d);
                }
            }
        }
        g
    }
}
