//! Coverage of every interval method: synthetic data with a known truth, drawn many times
//! from fixed seeds, and the share of 95% intervals that contain the truth must be near 95%
//! (within 2.5 points, about five standard errors of 2,000 repetitions). One test per method
//! of docs/statistics.md: Wilson's share, Wilson at the design-effect sample size, the mean,
//! the ratio estimator (with the interval that counts events as independent shown to fail on
//! the same data), batch means, the paired difference and the one-sided Clopper-Pearson bound.

use playtest::stats::Z95;
use playtest::stats::interval::{batch_half_width, upper_one_sided, wilson, wilson_clustered};
use playtest::stats::moments::Moments;
use playtest::stats::ratio::RatioTally;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus as Rng;

/// Repetitions per test.
const REPS: usize = 2_000;

/// Coverage must lie within this of 95%.
const TOLERANCE: f64 = 0.025;

/// Share of `REPS` repetitions whose interval covers the truth; `draw(rng)` returns
/// whether one repetition's interval covered it.
fn coverage(seed: u64, mut draw: impl FnMut(&mut Rng) -> bool) -> f64 {
    let mut rng = Rng::seed_from_u64(seed);
    (0..REPS).filter(|_| draw(&mut rng)).count() as f64 / REPS as f64
}

fn near_95(name: &str, c: f64) {
    eprintln!("{name}: {:.2}%", c * 100.0);
    assert!((c - 0.95).abs() <= TOLERANCE, "{name}: coverage {:.1}% over {REPS} runs, want 95% +- {:.1}", c * 100.0, TOLERANCE * 100.0);
}

/// Successes among `n` trials of probability `p`.
fn binomial(rng: &mut Rng, n: u64, p: f64) -> u64 {
    (0..n).filter(|_| rng.random::<f64>() < p).count() as u64
}

#[test]
fn wilson_covers_a_share_of_games_in_the_middle_and_near_an_edge() {
    for (seed, p, n) in [(1, 0.3, 200), (2, 0.03, 400)] {
        let c = coverage(seed, |rng| {
            let (lo, hi) = wilson(binomial(rng, n, p) as f64, n);
            lo <= p && p <= hi
        });
        near_95(&format!("wilson p={p} n={n}"), c);
    }
}

#[test]
fn wilson_at_the_design_effect_size_covers_a_share_of_correlated_blocks() {
    // Blocks of 4 games that share a deal: the block's win chance varies around 0.25.
    let (blocks, per_block, truth) = (150u64, 4u64, 0.25);
    let c = coverage(3, |rng| {
        let mut m = Moments::new(1);
        for _ in 0..blocks {
            let p = truth + (rng.random::<f64>() - 0.5) * 0.3;
            m.add(&[binomial(rng, per_block, p) as f64 / per_block as f64]);
        }
        let mean = m.sum[0] / m.n as f64;
        let (lo, hi) = wilson_clustered(mean, m.variance(0) / m.n as f64, blocks, blocks * per_block);
        lo <= truth && truth <= hi
    });
    near_95("wilson at the design-effect size", c);
}

#[test]
fn the_mean_interval_covers_a_mean_of_skewed_per_game_values() {
    // Game lengths: exponential with mean 30 (skewed), 300 games.
    let truth = 30.0;
    let c = coverage(4, |rng| {
        let mut m = Moments::new(1);
        for _ in 0..300 {
            m.add(&[-truth * (1.0 - rng.random::<f64>()).ln()]);
        }
        let mean = m.sum[0] / m.n as f64;
        (mean - truth).abs() <= m.half_width(0)
    });
    near_95("mean", c);
}

/// One run of a share of events counted over games: every game has 100 to 300 events (doubts)
/// and its own chance (0.46 +- 0.15) that an event succeeds (a right doubt), so the events of
/// one game are correlated. The truth is 0.46. Returns the ratio estimator's interval and the
/// interval that counts every event as independent.
fn events_over_games(rng: &mut Rng, games: u64) -> ((f64, f64), (f64, f64)) {
    let mut t = RatioTally { names: vec!["share".into()], ..RatioTally::default() };
    for _ in 0..games {
        let events = 100 + (rng.random::<f64>() * 201.0) as u64;
        let p = 0.46 + (rng.random::<f64>() - 0.5) * 0.3;
        t.add(&[(binomial(rng, events, p) as i64, events as i64)]);
    }
    let e = t.get("share").unwrap();
    ((e.value - e.half, e.value + e.half), wilson(e.numerator as f64, e.denominator as u64))
}

#[test]
fn the_ratio_estimator_covers_a_share_of_events_and_counting_events_alone_does_not() {
    let truth = 0.46;
    let mut naive = 0;
    let c = coverage(5, |rng| {
        let ((lo, hi), (nlo, nhi)) = events_over_games(rng, 100);
        naive += usize::from(nlo <= truth && truth <= nhi);
        lo <= truth && truth <= hi
    });
    near_95("ratio estimator", c);
    // The same data judged as if every event were independent: far too narrow.
    let naive = naive as f64 / REPS as f64;
    eprintln!("events counted as independent: {:.2}%", naive * 100.0);
    assert!(naive < 0.85, "counting events as independent covers {:.1}%: the test data has no correlation within games", naive * 100.0);
}

#[test]
fn the_ratio_estimator_with_one_unit_per_game_is_the_mean_interval() {
    // A count per game (denominator 1): Poisson-like counts with mean 4.
    let truth = 4.0;
    let c = coverage(6, |rng| {
        let mut t = RatioTally { names: vec!["per game".into()], ..RatioTally::default() };
        for _ in 0..200 {
            t.add(&[(binomial(rng, 40, truth / 40.0) as i64, 1)]);
        }
        let e = t.get("per game").unwrap();
        (e.value - truth).abs() <= e.half
    });
    near_95("ratio estimator, one unit per game", c);
}

#[test]
fn batch_means_cover_a_figure_over_whole_batches() {
    // 20 batches of 64 games, each batch's value a share of its events.
    let truth = 0.46;
    let c = coverage(7, |rng| {
        let values: Vec<(f64, f64)> = (0..20)
            .map(|_| {
                let (mut right, mut events) = (0, 0);
                for _ in 0..64 {
                    let n = 100 + (rng.random::<f64>() * 201.0) as u64;
                    let p = truth + (rng.random::<f64>() - 0.5) * 0.3;
                    right += binomial(rng, n, p);
                    events += n;
                }
                (64.0, right as f64 / events as f64)
            })
            .collect();
        let mean = values.iter().map(|(w, x)| w * x).sum::<f64>() / values.iter().map(|(w, _)| w).sum::<f64>();
        (mean - truth).abs() <= batch_half_width(&values).unwrap()
    });
    near_95("batch means", c);
}

#[test]
fn the_paired_difference_covers_the_difference_of_two_variants_on_common_seeds() {
    // Game i of A and of B share a seed: seat 0 wins A's game with chance q_i and B's with
    // q_i + 0.05 (q_i varies by deal); 70% of B's games play out as A's did, so the two
    // results are strongly correlated.
    let truth = 0.05;
    let c = coverage(8, |rng| {
        let mut d = Moments::new(1);
        for _ in 0..400 {
            let q = 0.2 + rng.random::<f64>() * 0.4;
            let u = rng.random::<f64>();
            let v = if rng.random::<f64>() < 0.7 { u } else { rng.random::<f64>() };
            let (a, b) = (f64::from(u8::from(u < q)), f64::from(u8::from(v < q + truth)));
            d.add(&[b - a]);
        }
        let mean = d.sum[0] / d.n as f64;
        (mean - truth).abs() <= Z95 * (d.variance(0) / d.n as f64).sqrt()
    });
    near_95("paired difference", c);
}

#[test]
fn the_one_sided_upper_bound_covers_a_rare_share_at_least_95_percent_of_the_time() {
    for (seed, p, n) in [(9, 0.01, 300), (10, 0.001, 2000)] {
        let c = coverage(seed, |rng| p <= upper_one_sided(binomial(rng, n, p) as f64, n));
        // Clopper-Pearson is exact and conservative: at least 95% (less one standard error of
        // the 2,000 runs); with so few events it may cover every time.
        eprintln!("one-sided bound p={p} n={n}: {:.2}%", c * 100.0);
        assert!(c >= 0.945, "one-sided bound p={p} n={n}: coverage {:.1}%", c * 100.0);
    }
}
