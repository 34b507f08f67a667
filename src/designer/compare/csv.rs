//! `compare.csv`: one row per figure, both sides and the difference with its intervals.

use super::result::Comparison;

/// `compare.csv`: every metric, both sides and the difference with its intervals.
pub(super) fn compare_csv(c: &Comparison) -> String {
    let mut csv = String::from("metric,unit,a,a_lo,a_hi,b,b_lo,b_hi,diff,paired_lo,paired_hi,independent_lo,independent_hi,significant\n");
    let f = |x: f64| {
        if x.is_finite() { x.to_string() } else { String::new() }
    };
    let pair = |x: Option<[f64; 2]>| x.map_or(",".to_string(), |[lo, hi]| format!("{},{}", f(lo), f(hi)));
    for m in &c.metrics {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{}\n",
            m.name,
            m.unit,
            f(m.a),
            f(m.a_ci[0]),
            f(m.a_ci[1]),
            f(m.b),
            f(m.b_ci[0]),
            f(m.b_ci[1]),
            f(m.diff),
            pair(m.paired_ci),
            pair(m.independent_ci),
            m.significant.map_or(String::new(), |s| s.to_string())
        ));
    }
    csv
}
