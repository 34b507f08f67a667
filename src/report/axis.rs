//! Axis ranges and labels: ranges that hug the data, whole numbers printed without decimals
//! ("50", not "50.0"), and the value written above a bar.

/// The value range of an axis showing data from `lo` to `hi`: from 0 when `from_zero` (and
/// the data has no negative values), padded by `pad` of the span on the open side(s).
pub(crate) fn span(lo: f64, hi: f64, from_zero: bool, pad: f64) -> (f64, f64) {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi { (lo, hi) } else { (0.0, 1.0) };
    let (lo, hi) = if from_zero { (lo.min(0.0), hi.max(0.0)) } else { (lo, hi) };
    let width = if hi > lo { hi - lo } else { hi.abs().max(1.0) * 0.1 };
    let bottom = if from_zero && lo >= 0.0 { 0.0 } else { lo - width * pad };
    let bottom = if lo >= 0.0 { bottom.max(0.0) } else { bottom };
    (bottom, hi + width * pad)
}

/// A tick label: whole numbers without decimals, others with at most three, trailing zeros cut.
pub(crate) fn tick(v: f64) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let r = v.round();
    if (v - r).abs() < 1e-9 * v.abs().max(1.0) {
        return format!("{}", r as i64);
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A tick label on an axis of whole numbers: empty between them.
pub(crate) fn int_tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 * v.abs().max(1.0) { tick(v) } else { String::new() }
}

/// The value written above a bar: a share in % keeps enough decimals to tell 99.99 from 100
/// and 0.01 from 0; other values two decimals at most.
pub(crate) fn value_label(v: f64, percent: bool) -> String {
    if !percent {
        return tick((v * 100.0).round() / 100.0);
    }
    if v == 0.0 {
        "0%".into()
    } else if v < 1.0 || (v > 99.0 && v < 100.0) {
        format!("{v:.2}%")
    } else {
        format!("{v:.1}%")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_print_without_decimals() {
        assert_eq!(tick(50.0), "50");
        assert_eq!(tick(-0.0), "0");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(0.125), "0.125");
        assert_eq!(int_tick(2.5), "");
        assert_eq!(int_tick(3.0), "3");
    }

    #[test]
    fn ranges_hug_the_data() {
        // Survival at 86-100%: the axis does not start at 0.
        let (lo, hi) = span(86.0, 100.0, false, 0.05);
        assert!(lo > 80.0 && hi < 101.0, "{lo}..{hi}");
        // Bars start at 0.
        assert_eq!(span(5.0, 10.0, true, 0.1).0, 0.0);
        assert_eq!(span(-2.0, 10.0, true, 0.0), (-2.0, 10.0));
    }

    #[test]
    fn tiny_and_near_total_shares_stay_visible() {
        assert_eq!(value_label(99.99, true), "99.99%");
        assert_eq!(value_label(0.01, true), "0.01%");
        assert_eq!(value_label(0.0, true), "0%");
        assert_eq!(value_label(26.63, true), "26.6%");
        assert_eq!(value_label(1.5, false), "1.5");
    }
}
