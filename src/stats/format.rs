//! The one notation of every text output (terminal, `report.md`, `index.html`): a figure,
//! then its interval as "95% CI lo to hi"; a difference of shares in percentage points with
//! a sign ("+1.20 pts, 95% CI +0.40 to +2.00"); a share in percent ("46.37%, 95% CI 42.04%
//! to 50.75%"). Fractions are for TOML and JSON only. Every command prints through these
//! functions, so a figure reads the same wherever it is shown.

/// Decimal places of percentage points and percents in tables and the terminal (a
/// headline sentence may round to fewer with the `_places` forms).
pub const PLACES: usize = 2;

/// A difference of shares (a fraction, `0.0046`) in signed percentage points: `+0.46 pts`.
pub fn points(v: f64) -> String {
    points_places(v, PLACES)
}

/// [`points`] with `places` decimals.
pub fn points_places(v: f64, places: usize) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    format!("{} pts", signed(v * 100.0, places))
}

/// A difference of shares with its 95% interval (fractions):
/// `+0.46 pts, 95% CI -0.73 to +1.69`.
pub fn points_ci(v: f64, lo: f64, hi: f64) -> String {
    points_ci_places(v, lo, hi, PLACES)
}

/// [`points_ci`] with `places` decimals (`+1.6 pts, 95% CI +1.0 to +2.2` with 1).
pub fn points_ci_places(v: f64, lo: f64, hi: f64, places: usize) -> String {
    if !(lo.is_finite() && hi.is_finite()) {
        return points_places(v, places);
    }
    format!("{}, 95% CI {} to {}", points_places(v, places), signed(lo * 100.0, places), signed(hi * 100.0, places))
}

/// A difference of shares as the summary keeps it ([`super::estimate::Estimate`]):
/// [`points_ci`], or "constant by construction" when its interval is the value itself.
pub fn estimate_points(e: &super::estimate::Estimate) -> String {
    if e.ci95[0] == e.value && e.ci95[1] == e.value {
        return format!("{} (constant by construction)", points(e.value));
    }
    points_ci(e.value, e.ci95[0], e.ci95[1])
}

/// Only the interval of a difference of shares (fractions): `95% CI -0.73 to +1.69`.
pub fn points_interval(lo: f64, hi: f64) -> String {
    format!("95% CI {} to {}", signed(lo * 100.0, PLACES), signed(hi * 100.0, PLACES))
}

/// A share (a fraction) in percent: `46.37%`.
pub fn share(v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    format!("{:.PLACES$}%", v * 100.0)
}

/// Only the interval of a share (fractions): `95% CI 42.04% to 50.75%`.
pub fn share_ci(lo: f64, hi: f64) -> String {
    format!("95% CI {} to {}", share(lo), share(hi))
}

/// A share with its 95% interval (fractions): `46.37%, 95% CI 42.04% to 50.75%`.
pub fn share_with_ci(v: f64, lo: f64, hi: f64) -> String {
    if !(lo.is_finite() && hi.is_finite()) {
        return share(v);
    }
    format!("{}, {}", share(v), share_ci(lo, hi))
}

/// Any other figure with its 95% interval, `decimals` places: `3.21, 95% CI 3.10 to 3.32`
/// (`signed`: a difference, written with its sign).
pub fn number_ci(v: f64, lo: f64, hi: f64, decimals: usize, signed_too: bool) -> String {
    let f = |x: f64| if signed_too { signed(x, decimals) } else { format!("{x:.decimals$}") };
    if !v.is_finite() {
        return "-".into();
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return f(v);
    }
    format!("{}, 95% CI {} to {}", f(v), f(lo), f(hi))
}

/// `x` with `decimals` places and a sign always shown (`+0.40`, `-0.73`, `+0.00`).
pub fn signed(x: f64, decimals: usize) -> String {
    // -0.00 reads as +0.00: a rounding of nothing is no direction.
    let s = format!("{x:+.decimals$}");
    if s.trim_start_matches(['+', '-']).chars().all(|c| c == '0' || c == '.') { format!("+{}", &s[1..]) } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_notation_for_points_shares_and_numbers() {
        assert_eq!(points_ci(0.0046, -0.0073, 0.0169), "+0.46 pts, 95% CI -0.73 to +1.69");
        assert_eq!(points(-0.00001), "+0.00 pts");
        assert_eq!(share_with_ci(0.4637, 0.4204, 0.5075), "46.37%, 95% CI 42.04% to 50.75%");
        assert_eq!(number_ci(3.214, 3.1, 3.32, 2, false), "3.21, 95% CI 3.10 to 3.32");
        assert_eq!(number_ci(0.5, f64::NAN, f64::NAN, 1, true), "+0.5");
        assert_eq!(points(f64::NAN), "-");
    }
}
