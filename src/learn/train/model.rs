//! The float net: its layers, the forward pass and the gradients of the loss.

use super::{sigmoid, Sample, Shape, EXPORT_FV_SCALE, H1, H2, HALF, SCORE_SCALE};
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
    /// `rows × HALF` transformer weights and `HALF` biases.
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

/// What a forward pass keeps for the backward one.
pub(super) struct Trace {
    pub(super) acc: [[f32; HALF]; 2],
    pub(super) x: [f32; 2 * HALF],
    pub(super) h1: [f32; H1],
    pub(super) h2: [f32; H2],
    pub(super) y: f32,
}

impl Model {
    pub fn new(shape: Shape, seed: u64) -> Model {
        let mut rng = Rng::seeded(seed);
        let rows = shape.rows();
        // Small transformer weights: 38-odd rows add up per output.
        let ft_w = (0..rows * HALF)
            .map(|_| (rng.unit_f32() * 2.0 - 1.0) * 0.05)
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

    pub(super) fn forward(&self, s: &Sample) -> Trace {
        let mut t = Trace {
            acc: [[0.0; HALF]; 2],
            x: [0.0; 2 * HALF],
            h1: [0.0; H1],
            h2: [0.0; H2],
            y: 0.0,
        };
        for p in 0..2 {
            t.acc[p].copy_from_slice(&self.ft_b);
            for f in self.shape.rows_of(&s.features[p]) {
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
    pub(super) fn zero() -> Grads {
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
    pub(super) rows: Vec<f32>,
    pub(super) touched: Vec<u32>,
    pub(super) marked: Vec<bool>,
}

impl RowGrads {
    pub(super) fn new(rows: usize) -> RowGrads {
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
    pub(super) fn absorb(&mut self, other: &mut RowGrads) {
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
                for f in self.shape.rows_of(&s.features[p]) {
                    rows.add(f, &d);
                }
            }
        }
        g
    }
}
