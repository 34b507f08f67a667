//! Small helpers for the count tables a game's metrics keep: a ratio that is 0 over nothing,
//! a histogram's mean, and count vectors that grow as they are filled and merged.

/// `a / b`, 0 when `b` is 0 (a share or a mean of nothing).
#[inline]
pub fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// Adds `by` to entry `i` of `v`, growing `v` with zeros as needed.
#[inline]
pub fn bump(v: &mut Vec<u64>, i: usize, by: u64) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += by;
}

/// Adds `b` entry by entry into `a` (merging two threads' counts), growing `a` as needed.
#[inline]
pub fn add_counts(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// The mean of a histogram whose entry `i` counts how often the value `i` occurred; 0 when
/// it counts nothing.
pub fn mean_index(v: &[u64]) -> f64 {
    let n: u64 = v.iter().sum();
    ratio(v.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum(), n as f64)
}

/// The numerator and denominator of [`mean_index`]: `Σ i·v[i]` and `Σ v[i]` (for a game's
/// [`crate::engine::Metrics::ratio_parts`]).
pub fn index_parts(v: &[u64]) -> (i64, i64) {
    v.iter().enumerate().fold((0, 0), |(t, n), (i, &c)| (t + i as i64 * c as i64, n + c as i64))
}

/// The numerator and denominator of a mean kept as counts by value: Σ value·count and
/// Σ count.
pub fn value_parts<K: Copy + Into<i64>>(counts: &std::collections::BTreeMap<K, u64>) -> (i64, i64) {
    counts.iter().fold((0, 0), |(t, n), (&v, &c)| (t + v.into() * c as i64, n + c as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_grow_as_they_are_filled_and_merged() {
        let mut a = Vec::new();
        bump(&mut a, 2, 3);
        assert_eq!(a, [0, 0, 3]);
        add_counts(&mut a, &[1, 0, 0, 4]);
        assert_eq!(a, [1, 0, 3, 4]);
        assert_eq!(mean_index(&a), (2.0 * 3.0 + 3.0 * 4.0) / 8.0);
        assert_eq!((ratio(1.0, 0.0), mean_index(&[])), (0.0, 0.0));
    }
}
