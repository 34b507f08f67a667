//! Ratios of sums over games (right doubts over doubts, cards played over rounds, a count over
//! games) and their 95% interval by the ratio estimator: each game (or rotation block) is one
//! cluster contributing a numerator `a_i` and a denominator `b_i`, both whole numbers; the
//! figure is R = Σa / Σb and its variance, by the delta method (cluster-robust),
//!
//! ```text
//! var(R) ≈ Σ(a_i − R·b_i)² / ((n − 1) · n · mean(b)²)
//! ```
//!
//! so a share of 95,000 doubts over 500 games is judged by the doubts, with the games'
//! correlation between their doubts kept in. A count per game is the ratio with `b_i = 1`
//! (the interval of a mean). Every sum is an integer (`i128`), so batches and threads merge
//! to identical numbers in any order.

use serde::{Deserialize, Serialize};

use super::interval::t95;

/// Exact sums of one ratio's per-cluster parts: Σa, Σb, Σa², Σb², Σab.
pub type RatioSums = [i128; 5];

/// Per-cluster sums of every ratio a game declares ([`crate::engine::Metrics::ratio_names`]),
/// merged in any order with the same result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RatioTally {
    /// The figures' names, in the order of `sums` (the longest list seen wins a merge).
    pub names: Vec<String>,
    /// Clusters counted (games, or rotation blocks).
    pub clusters: u64,
    /// The sums of each figure.
    pub sums: Vec<RatioSums>,
}

impl RatioTally {
    /// Counts one cluster whose parts are `parts` (numerator, denominator per figure).
    pub fn add(&mut self, parts: &[(i64, i64)]) {
        self.clusters += 1;
        if self.sums.len() < parts.len() {
            self.sums.resize(parts.len(), [0; 5]);
        }
        for (s, &(a, b)) in self.sums.iter_mut().zip(parts) {
            let (a, b) = (i128::from(a), i128::from(b));
            s[0] += a;
            s[1] += b;
            s[2] += a * a;
            s[3] += b * b;
            s[4] += a * b;
        }
    }

    /// Adds a later batch.
    pub fn merge(&mut self, other: &RatioTally) {
        self.clusters += other.clusters;
        if self.names.len() < other.names.len() {
            self.names.clone_from(&other.names);
        }
        if self.sums.len() < other.sums.len() {
            self.sums.resize(other.sums.len(), [0; 5]);
        }
        for (s, o) in self.sums.iter_mut().zip(&other.sums) {
            for (x, y) in s.iter_mut().zip(o) {
                *x += y;
            }
        }
    }

    /// The ratio called `name` with its interval (`None` when the game does not declare it).
    pub fn get(&self, name: &str) -> Option<RatioEstimate> {
        let k = self.names.iter().position(|n| n == name)?;
        Some(ratio_estimate(self.clusters, self.sums.get(k).copied().unwrap_or([0; 5])))
    }
}

/// A ratio of sums with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioEstimate {
    /// Σa / Σb (NaN when Σb = 0).
    pub value: f64,
    /// Half-width of the 95% interval: t for n − 1 degrees of freedom times the delta-method
    /// standard error (infinite with fewer than two clusters; 0 when every cluster has
    /// exactly the ratio, a constant).
    pub half: f64,
    /// Σa (the events of a share seen in no cluster: 0).
    pub numerator: i128,
    /// Σb (the events a share is counted over).
    pub denominator: i128,
}

/// The ratio estimator over `n` clusters with the sums `s` (see the module's formula).
pub fn ratio_estimate(n: u64, s: RatioSums) -> RatioEstimate {
    let [a, b, aa, bb, ab] = s;
    if b == 0 {
        return RatioEstimate { value: f64::NAN, half: f64::INFINITY, numerator: a, denominator: b };
    }
    let r = a as f64 / b as f64;
    if n < 2 {
        return RatioEstimate { value: r, half: f64::INFINITY, numerator: a, denominator: b };
    }
    // Σ(a − R b)² = Σa² − 2RΣab + R²Σb²; exactly 0 when every a_i·Σb = b_i·Σa, which the
    // integer test catches without rounding: Σa²·(Σb)² − 2Σab·Σa·Σb + Σb²·(Σa)² = 0.
    let exact_zero = {
        let (a2, b2) = (a.checked_mul(a), b.checked_mul(b));
        match (a2, b2, aa.checked_mul(b2.unwrap_or(0)), bb.checked_mul(a2.unwrap_or(0)), ab.checked_mul(a).and_then(|x| x.checked_mul(b))) {
            (Some(_), Some(_), Some(x), Some(y), Some(z)) => x.checked_add(y).and_then(|s| s.checked_sub(2 * z)) == Some(0),
            _ => false,
        }
    };
    let nf = n as f64;
    let mean_b = b as f64 / nf;
    let spread = if exact_zero { 0.0 } else { (aa as f64 - 2.0 * r * ab as f64 + r * r * bb as f64).max(0.0) };
    let var = spread / (nf - 1.0) / (nf * mean_b * mean_b);
    RatioEstimate { value: r, half: t95(n - 1) * var.sqrt(), numerator: a, denominator: b }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_per_game_is_the_mean_with_its_t_interval() {
        let mut t = RatioTally { names: vec!["x".into()], ..RatioTally::default() };
        for a in [1, 2, 3, 4] {
            t.add(&[(a, 1)]);
        }
        let e = t.get("x").unwrap();
        assert_eq!(e.value, 2.5);
        let sd = (5.0_f64 / 3.0).sqrt();
        assert!((e.half - t95(3) * sd / 2.0).abs() < 1e-12, "{}", e.half);
    }

    #[test]
    fn a_ratio_every_cluster_shares_has_no_width_and_merges_exactly() {
        let mut t = RatioTally { names: vec!["half".into()], ..RatioTally::default() };
        let mut u = t.clone();
        for b in [2, 4, 6] {
            t.add(&[(b / 2, b)]);
        }
        u.add(&[(5, 10)]);
        t.merge(&u);
        let e = t.get("half").unwrap();
        assert_eq!((e.value, e.half), (0.5, 0.0));
        assert_eq!(t.get("other"), None);
    }
}
