//! The interval methods, in one place, so one figure gets one 95% interval wherever it is
//! printed (`simulate`, `report`, `compare`, `check`, `sweep`, `tune`, JSON, CSV, charts):
//!
//! - **Shares** (win shares, end-reason shares, elimination shares, ...): Wilson's score
//!   interval ([`wilson`]). It has width at 0% and 100% (0 of n gives `[0, 3.84/(n+3.84)]`).
//!   A share averaged per game or per rotation block (e.g. the share of players eliminated,
//!   or any share of a rotated run) uses Wilson with the design-effect sample size
//!   ([`wilson_clustered`]): the number of games the observed spread is worth, between the
//!   number of units (blocks) and the number of games.
//! - **Means** of per-game values (length, scores, differences): mean ± z·sd/√n.
//! - **Figures gathered over whole runs** (a game's own ratios such as claims per challenge):
//!   batch means over batches of [`SUB_BATCH`] games with Student's t critical value for k−1
//!   degrees of freedom ([`batch_half_width`]), so a run of 128 games or more has one.
//! - **A bound at the edge of a share** (`[0, 0]`, `[0, x]`): the one-sided 95% upper bound
//!   of Clopper and Pearson ([`upper_one_sided`]); 0 events in n games gives
//!   1 − 0.05^(1/n) ≈ 3/n.
//! - **Seat rotation** (`--rotate`): the block (one game per seat on one deal) is the unit of
//!   every interval, and the seat-fairness chi-square is divided by the mean design effect of
//!   the seats (Rao and Scott's first-order correction, [`rao_scott_p`]).
//! - **p-values** have no interval, and `check` refuses to bound them.
//!
//! Shares are fractions in JSON and CSV, percent in text; their differences are fractions in
//! JSON and percentage points ("pts") in text.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Games per batch of the batch-means interval of figures gathered over whole runs.
pub const SUB_BATCH: u64 = 64;

/// Wilson score 95% interval of a proportion `successes / n` (successes may be fractional:
/// a k-way tie counts 1/k). `[0, 1]` with no games.
pub fn wilson(successes: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    wilson_n(successes / n as f64, n as f64)
}

/// [`wilson`] in percent, as a chart's error bars show it.
pub fn wilson_percent(successes: f64, n: u64) -> (f64, f64) {
    let (lo, hi) = wilson(successes, n);
    (lo * 100.0, hi * 100.0)
}

/// Wilson's interval of a share `p` measured over an effective sample size `n` (> 0).
fn wilson_n(p: f64, n: f64) -> (f64, f64) {
    let p = p.clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0).min(p), (centre + half).min(1.0).max(p))
}

/// Wilson's interval of a share `p` that is a mean over `units` correlated units (rotation
/// blocks, or games whose players share a fate) covering `games` games, given the variance
/// of that mean estimated from the units (`var_of_mean`). The sample size is the design-effect
/// one, p(1 − p) / var_of_mean, kept between `units` and `games`; with no spread seen (every
/// unit alike, as at 0% or 100%) it is `games`.
pub fn wilson_clustered(p: f64, var_of_mean: f64, units: u64, games: u64) -> (f64, f64) {
    if units == 0 || games == 0 {
        return (0.0, 1.0);
    }
    let (lo, hi) = (units as f64, games.max(units) as f64);
    let pq = p.clamp(0.0, 1.0) * (1.0 - p.clamp(0.0, 1.0));
    let n = if var_of_mean > 0.0 && pq > 0.0 { (pq / var_of_mean).clamp(lo, hi) } else { hi };
    wilson_n(p, n)
}

/// One-sided 95% upper bound of a share after `successes` of `n` (Clopper-Pearson): the
/// largest share under which so few successes have at least a 5% chance. 0 of n gives
/// 1 − 0.05^(1/n).
pub fn upper_one_sided(successes: f64, n: u64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let nf = n as f64;
    let x = successes.clamp(0.0, nf);
    if x <= 0.0 {
        return 1.0 - 0.05_f64.powf(1.0 / nf);
    }
    if x >= nf {
        return 1.0;
    }
    // The upper bound is the 95% quantile of Beta(x + 1, n - x).
    puruspe::invbetai(0.95, x + 1.0, nf - x)
}

/// One-sided 95% lower bound of a share (Clopper-Pearson), the mirror of [`upper_one_sided`].
pub fn lower_one_sided(successes: f64, n: u64) -> f64 {
    1.0 - upper_one_sided(n as f64 - successes, n)
}

/// Student's t critical value for a two-sided 95% interval with `df` degrees of freedom
/// (z for large df).
pub fn t95(df: u64) -> f64 {
    if df == 0 {
        return f64::INFINITY;
    }
    if df > 100_000 {
        return Z95;
    }
    let d = df as f64;
    // P(|T| > t) = I_{d/(d+t^2)}(d/2, 1/2).
    let x = puruspe::invbetai(0.05, d / 2.0, 0.5);
    (d * (1.0 - x) / x).sqrt()
}

/// Half-width of the batch-means 95% interval of a weighted mean of per-batch values
/// `(games in the batch, value)`: t for k − 1 degrees of freedom times the standard error of
/// the weighted mean (`None` with fewer than two batches).
pub fn batch_half_width(values: &[(f64, f64)]) -> Option<f64> {
    let k = values.len();
    if k < 2 {
        return None;
    }
    let w: f64 = values.iter().map(|(w, _)| w).sum();
    if w <= 0.0 || values.iter().any(|(_, x)| !x.is_finite()) {
        return None;
    }
    let mean = values.iter().map(|(w, x)| w * x).sum::<f64>() / w;
    let spread: f64 = values.iter().map(|(wi, x)| (wi * (x - mean)).powi(2)).sum();
    let var = spread / (w * w) * k as f64 / (k as f64 - 1.0);
    Some(t95(k as u64 - 1) * var.sqrt())
}

/// Why a figure has no interval, in a designer's words (for `check`, `compare` and tables).
pub fn no_interval_reason(is_p_value: bool, games: u64) -> String {
    if is_p_value {
        "no interval: a p-value is not an estimate with a margin".into()
    } else if games < 2 * SUB_BATCH {
        format!("no interval: a figure over the whole run needs at least {} games (two batches of {SUB_BATCH})", 2 * SUB_BATCH)
    } else {
        "no interval: the figure is not defined in every batch".into()
    }
}

/// p-value of the seat-fairness chi-square `chi2` with `df` degrees of freedom after Rao and
/// Scott's first-order correction: `chi2 / deff`, where `deff` (>= 1 is not enforced) is the
/// mean design effect of the cells (a rotated run's blocks are the unit, not its games).
pub fn rao_scott_p(chi2: f64, df: f64, deff: f64) -> f64 {
    let adjusted = if deff > 0.0 && deff.is_finite() { chi2 / deff } else { chi2 };
    puruspe::gammq(df / 2.0, adjusted / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_textbook_value_and_has_width_at_the_ends() {
        // 50 of 100: Wilson 95% interval is about (0.4038, 0.5962).
        let (lo, hi) = wilson(50.0, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0.0, 200);
        assert_eq!(lo, 0.0);
        assert!((hi - Z95 * Z95 / (200.0 + Z95 * Z95)).abs() < 1e-12, "{hi}");
        let (lo, hi) = wilson(200.0, 200);
        assert!(lo < 1.0 && hi == 1.0, "{lo}");
    }

    #[test]
    fn the_one_sided_bound_of_nothing_seen_is_about_three_over_n() {
        let u = upper_one_sided(0.0, 20_000);
        assert!((u - (1.0 - 0.05_f64.powf(1.0 / 20_000.0))).abs() < 1e-15);
        assert!((u - 3.0 / 20_000.0).abs() < 1e-6, "{u}");
        // 1 of 10: the exact Clopper-Pearson one-sided upper bound is 0.3942.
        assert!((upper_one_sided(1.0, 10) - 0.3942).abs() < 1e-3, "{}", upper_one_sided(1.0, 10));
        assert!((lower_one_sided(9.0, 10) - (1.0 - 0.3942)).abs() < 1e-3);
    }

    #[test]
    fn t_critical_values_match_the_table() {
        for (df, t) in [(1, 12.706), (5, 2.571), (9, 2.262), (30, 2.042), (120, 1.980)] {
            assert!((t95(df) - t).abs() < 1e-3, "df {df}: {}", t95(df));
        }
    }

    #[test]
    fn batch_means_need_two_batches_and_see_spread() {
        assert_eq!(batch_half_width(&[(64.0, 0.5)]), None);
        assert_eq!(batch_half_width(&[(64.0, 0.5); 3]), Some(0.0));
        let values: Vec<(f64, f64)> = (0..20).map(|i| (512.0, if i % 2 == 0 { 0.4 } else { 0.6 })).collect();
        let h = batch_half_width(&values).unwrap();
        assert!((h - t95(19) * (0.01 * 20.0 / 19.0 / 20.0_f64).sqrt()).abs() < 1e-12, "{h}");
    }

    #[test]
    fn a_clustered_share_lies_between_wilson_over_units_and_over_games() {
        let games = wilson_clustered(0.3, 0.0, 100, 400);
        assert_eq!(games, wilson(120.0, 400));
        let units = wilson_clustered(0.3, 1.0, 100, 400);
        assert_eq!(units, wilson(30.0, 100));
        let (lo, hi) = wilson_clustered(0.0, 0.0, 100, 400);
        assert!(lo == 0.0 && hi > 0.0);
    }

    #[test]
    fn rao_scott_divides_the_chi_square_by_the_design_effect() {
        assert_eq!(rao_scott_p(7.815, 3.0, 1.0), puruspe::gammq(1.5, 7.815 / 2.0));
        assert!(rao_scott_p(7.815, 3.0, 2.0) > 0.2);
    }
}
