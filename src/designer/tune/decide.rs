//! The decisions of the race, as pure functions of estimates and intervals: how far a figure
//! is from its bound ([`distance`], [`overhang`]), when a bound is settled, how a paired
//! comparison judges two candidates ([`paired`], [`dominated`]), whether a change moved a
//! figure ([`moved_by`]) and which candidate is the pick.

use crate::designer::check::{Verdict, verdict};
use crate::designer::metrics::{self, Estimate};

/// How far an estimate lies outside `[lo, hi]`, in units of its own CI half-width on that
/// side: 0 inside; above 1 exactly when the whole CI is outside (when `check` fails it).
pub fn distance(e: &Estimate, lo: f64, hi: f64) -> f64 {
    const TINY: f64 = 1e-12;
    if !e.value.is_finite() {
        return f64::INFINITY;
    }
    if e.value > hi {
        (e.value - hi) / (e.value - e.lo).max(TINY)
    } else if e.value < lo {
        (lo - e.value) / (e.hi - e.value).max(TINY)
    } else {
        0.0
    }
}

/// Whether a bound clearly holds: the whole CI inside (`check`'s "holds"), or a bound of zero
/// width (`cap_share = [0, 0]`) met exactly, which no interval can fit inside.
pub fn settled(e: &Estimate, lo: f64, hi: f64) -> bool {
    verdict(e, lo, hi) == Verdict::Holds || (lo == hi && e.value == lo)
}

/// How far an estimate's CI sticks out of `[lo, hi]`, in half-widths (0 when it
/// [`settled`]s).
pub fn overhang(e: &Estimate, lo: f64, hi: f64) -> f64 {
    if settled(e, lo, hi) {
        return 0.0;
    }
    let h = e.half_width().max(1e-12);
    ((e.hi - hi).max(0.0) + (lo - e.lo).max(0.0)) / h
}

/// How far `v` is outside `[lo, hi]` in the metric's own unit (0 inside).
fn violation(v: f64, lo: f64, hi: f64) -> f64 {
    (v - hi).max(lo - v).max(0.0)
}

/// The paired comparison of one bound: how candidate c stands against w when c's value is
/// w's plus a difference in `[dlo, dhi]` (a paired 95% interval).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paired {
    /// c is farther outside the bound over the whole interval.
    Worse,
    /// c is closer to (or inside) the bound over the whole interval.
    Better,
    /// Both inside over the whole interval: the bound does not tell them apart.
    Same,
    /// The same value on every game batch: the two candidates played identical games.
    Equal,
    /// The interval does not decide.
    Unclear,
}

/// Judges one bound of a paired comparison (see [`Paired`]).
pub fn paired(vw: f64, dlo: f64, dhi: f64, lo: f64, hi: f64) -> Paired {
    let (a, b) = (vw + dlo, vw + dhi);
    let at_w = violation(vw, lo, hi);
    let max_c = violation(a, lo, hi).max(violation(b, lo, hi));
    let min_c = if b < lo {
        lo - b
    } else if a > hi {
        a - hi
    } else {
        0.0
    };
    if min_c > at_w {
        Paired::Worse
    } else if at_w == 0.0 && max_c == 0.0 {
        Paired::Same
    } else if max_c < at_w {
        Paired::Better
    } else {
        Paired::Unclear
    }
}

/// Whether c is clearly dominated: worse on at least one bound and no better on any, or equal
/// to a preferred candidate on every bound (the same figures on every batch of games).
pub fn dominated(bounds: &[Paired]) -> bool {
    let no_better = bounds.iter().all(|p| matches!(p, Paired::Worse | Paired::Same | Paired::Equal));
    no_better && (bounds.contains(&Paired::Worse) || bounds.iter().all(|p| *p == Paired::Equal))
}

/// A distance in CI half-widths measured on `games` games, restated at the precision of
/// `reference` games: half-widths shrink as 1/sqrt(games), so a candidate dropped after 2,048
/// games is not made to look closer than the winner measured on 65,536.
pub fn at_precision(distance: f64, games: u64, reference: u64) -> f64 {
    if distance == 0.0 || games == 0 || reference == 0 {
        return distance;
    }
    distance * (reference as f64 / games as f64).sqrt()
}

/// The paired difference of one bounded figure between a pick and the variant as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MovedBy {
    /// Mean difference over the games (batch-weighted).
    pub mean: f64,
    /// Half-width of its batch-means 95% interval (none with fewer than 2 batches).
    pub half: Option<f64>,
    /// Whether the interval excludes 0.
    pub significant: bool,
}

/// The paired difference of one figure from its per-batch differences `(games, pick minus
/// variant as written)`: significant when its batch-means 95% interval excludes 0.
pub fn moved_by(diffs: &[(f64, f64)]) -> MovedBy {
    let total: f64 = diffs.iter().map(|d| d.0).sum();
    let mean = if total > 0.0 { diffs.iter().map(|(g, d)| g * d).sum::<f64>() / total } else { 0.0 };
    let half = metrics::batch_half_width(diffs);
    let significant = mean.is_finite() && half.is_some_and(|h| mean.abs() > h);
    MovedBy { mean, half, significant }
}

/// The pick among `pool`: the most preferred candidate that holds with every point estimate
/// inside its bounds (objective 0); else the most preferred that holds (CIs overlapping a
/// bound); else the closest to holding.
pub(super) fn pick(pool: &[usize], rank: &[usize], holds: &dyn Fn(usize) -> bool, objective: &dyn Fn(usize) -> f64) -> usize {
    let by_rank = |v: &mut Vec<usize>| v.sort_by_key(|&c| rank[c]);
    let mut inside: Vec<usize> = pool.iter().copied().filter(|&c| holds(c) && objective(c) == 0.0).collect();
    by_rank(&mut inside);
    if let Some(&c) = inside.first() {
        return c;
    }
    let mut holding: Vec<usize> = pool.iter().copied().filter(|&c| holds(c)).collect();
    by_rank(&mut holding);
    if let Some(&c) = holding.first() {
        return c;
    }
    pool.iter().copied().min_by(|&a, &b| objective(a).total_cmp(&objective(b)).then(rank[a].cmp(&rank[b]))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::designer::metrics;

    #[test]
    fn distance_exceeds_one_exactly_when_check_fails() {
        let e = Estimate { value: 0.06, lo: 0.05, hi: 0.07, interval: metrics::Interval::Wilson };
        assert!(distance(&e, 0.0, 0.04) > 1.0);
        assert_eq!(verdict(&e, 0.0, 0.04), Verdict::Fails);
        let e = Estimate { value: 0.05, lo: 0.035, hi: 0.065, interval: metrics::Interval::Wilson };
        assert!((distance(&e, 0.0, 0.04) - 2.0 / 3.0).abs() < 1e-9);
        assert_eq!(verdict(&e, 0.0, 0.04), Verdict::Undecided);
        assert_eq!(distance(&Estimate::point(0.02), 0.0, 0.04), 0.0);
        assert!(distance(&Estimate::point(f64::NAN), 0.0, 0.04).is_infinite());
    }

    #[test]
    fn paired_judgements() {
        // w at 0.05 above [0, 0.04]; c higher by 0.01 to 0.02: clearly farther outside.
        assert_eq!(paired(0.05, 0.01, 0.02, 0.0, 0.04), Paired::Worse);
        assert_eq!(paired(0.05, -0.02, -0.005, 0.0, 0.04), Paired::Better);
        assert_eq!(paired(0.02, -0.01, 0.01, 0.0, 0.04), Paired::Same);
        assert_eq!(paired(0.035, -0.01, 0.01, 0.0, 0.04), Paired::Unclear);
        assert!(dominated(&[Paired::Worse, Paired::Same]));
        assert!(!dominated(&[Paired::Worse, Paired::Unclear]));
        assert!(!dominated(&[Paired::Same, Paired::Same]));
        assert!(dominated(&[Paired::Equal, Paired::Equal]));
        assert!(!dominated(&[Paired::Equal, Paired::Same]));
        assert!(dominated(&[Paired::Equal, Paired::Worse]));
    }

    #[test]
    fn distances_are_restated_at_the_last_rounds_precision() {
        // Dropped after 2,048 games at 1.5 half-widths outside: at the winner's 32,768 games
        // the same gap is 6 half-widths, farther than a winner at 2.
        assert!((at_precision(1.5, 2_048, 32_768) - 6.0).abs() < 1e-12);
        assert_eq!(at_precision(0.0, 2_048, 32_768), 0.0);
        assert_eq!(at_precision(2.0, 32_768, 32_768), 2.0);
    }

    #[test]
    fn a_change_moves_a_figure_only_when_its_paired_interval_excludes_zero() {
        let noise: Vec<(f64, f64)> = (0..8).map(|i| (512.0, if i % 2 == 0 { 0.004 } else { -0.005 })).collect();
        let m = moved_by(&noise);
        assert!(!m.significant && m.half.is_some(), "{m:?}");
        let shifted: Vec<(f64, f64)> = noise.iter().map(|&(g, d)| (g, d + 0.03)).collect();
        assert!(moved_by(&shifted).significant);
        assert!(!moved_by(&[(512.0, 0.5)]).significant, "one batch has no interval");
    }
}
