//! Running sums of per-game values (count, sum, sum of squares), the exact accumulator behind
//! the normal intervals of per-game figures; merged across batches and shards.

use super::Z95;

/// Running sums of per-game values: count, sum and sum of squares of each component.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    /// Games counted.
    pub n: u64,
    /// Sum of each component.
    pub sum: Vec<f64>,
    /// Sum of squares of each component.
    pub sumsq: Vec<f64>,
}

impl Moments {
    /// Empty sums of `k` components.
    pub fn new(k: usize) -> Moments {
        Moments { n: 0, sum: vec![0.0; k], sumsq: vec![0.0; k] }
    }

    /// Counts one game's values.
    pub fn add(&mut self, x: &[f64]) {
        self.n += 1;
        for ((s, q), v) in self.sum.iter_mut().zip(self.sumsq.iter_mut()).zip(x) {
            *s += v;
            *q += v * v;
        }
    }

    /// Adds a later batch.
    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        if self.sum.len() < other.sum.len() {
            self.sum.resize(other.sum.len(), 0.0);
            self.sumsq.resize(other.sumsq.len(), 0.0);
        }
        for i in 0..other.sum.len() {
            self.sum[i] += other.sum[i];
            self.sumsq[i] += other.sumsq[i];
        }
    }

    /// Sample variance of component `i` (0 with fewer than two games).
    pub fn variance(&self, i: usize) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.sum[i] / n;
        ((self.sumsq[i] - n * mean * mean) / (n - 1.0)).max(0.0)
    }

    /// Half-width of the normal 95% interval of the mean of component `i`.
    pub fn half_width(&self, i: usize) -> f64 {
        if self.n == 0 { f64::INFINITY } else { Z95 * (self.variance(i) / self.n as f64).sqrt() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_give_the_sample_variance() {
        let mut m = Moments::new(1);
        for x in [1.0, 2.0, 3.0, 4.0] {
            m.add(&[x]);
        }
        assert!((m.variance(0) - 5.0 / 3.0).abs() < 1e-12);
        let mut a = Moments::new(1);
        a.add(&[1.0]);
        a.add(&[2.0]);
        let mut b = Moments::new(1);
        b.add(&[3.0]);
        b.add(&[4.0]);
        a.merge(&b);
        assert_eq!(a, m);
    }
}
