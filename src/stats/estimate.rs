//! A value with its 95% interval: the shape of every figure in the summary and its JSON.

use serde::Serialize;

use super::interval::Z95;

/// A value with its 95% interval.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Estimate {
    /// Point estimate.
    pub value: f64,
    /// 95% interval.
    pub ci95: [f64; 2],
}

/// One side's win share `p0` minus `fair`, the mean win share of the `n` sides (`p0` and
/// `others`), when that mean is itself estimated (games with no winner, dummy seats): the
/// per-game difference d = w0 - mean(w) has, when at most one side wins a game, E[d^2] =
/// (1 - 1/n)^2 p0 + (1/n^2) sum of the others' p (ties only lower it); the interval is the
/// normal one from that variance, the shares taken at their Wilson centres (as Agresti and
/// Caffo do for a difference). Seats (`summary::first_player_advantage`) and teams
/// (`teams::TeamsSummary`) are judged by this one rule.
pub fn advantage_over_estimated_fair(p0: f64, others: impl Iterator<Item = f64>, fair: f64, n: usize, games: u64) -> Estimate {
    let n = n as f64;
    let value = p0 - fair;
    let m = games.max(1) as f64;
    let z2 = Z95 * Z95;
    let centre = |p: f64| (p + z2 / (2.0 * m)) / (1.0 + z2 / m);
    let others: f64 = others.map(centre).sum();
    let second = (1.0 - 1.0 / n).powi(2) * centre(p0) + others / (n * n);
    let half = Z95 * ((second - value * value).max(0.0) / m).sqrt();
    Estimate { value, ci95: [value - half, value + half] }
}
