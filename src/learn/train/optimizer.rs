//! Adam, and the trainer that applies a batch's gradients with it.

use super::model::{loss_of, Grads, Model, RowGrads, Trace, HIDDEN_LIMIT, OUTPUT_LIMIT};
use super::{sigmoid, Sample, TrainConfig};
use rayon::prelude::*;

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
        let shape = model.shape;
        let (half, h1, h2) = (shape.half(), shape.hidden1(), shape.hidden2());
        Trainer {
            adam_ft: Adam::new(shape.rows() * half),
            adam_ft_b: Adam::new(half),
            adam_l1: (Adam::new(2 * half * h1), Adam::new(h1)),
            adam_l2: (Adam::new(h1 * h2), Adam::new(h2)),
            adam_out: (Adam::new(h2), Adam::new(1)),
            row_grads: (0..rayon::current_num_threads().max(1))
                .map(|_| RowGrads::new(shape))
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
            let g = parts.iter().fold(Grads::zero(model.shape), Grads::add);
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
        let half = m.shape.half();
        let mut grad = vec![0.0f32; half];
        for &f in &rows.touched {
            let at = f as usize * half;
            for (g, r) in grad.iter_mut().zip(&mut rows.rows[at..at + half]) {
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
            .map_init(
                || Trace::new(model.shape),
                |t, s| {
                    let target = lambda * s.score_rate + (1.0 - lambda) * s.result_rate;
                    model.forward(s, t);
                    loss_of(sigmoid(t.y), target)
                },
            )
            .sum();
        total / data.len().max(1) as f64
    }
}
