//! The report's tables from the metric catalogue: every figure with its 95% interval and
//! unit, the seats, and the `[expect]` bounds judged as `check` judges them (held, undecided,
//! failed), in the figure's own units. The report layer only prints them.

use crate::report::{ExpectRow, FigureRow, SeatRow};

use super::check::{Expectation, Verdict, verdict};
use super::metrics::{Catalogue, Estimate, Interval, MetricDef, Unit};

/// A value in a table: shares in %, lengths with 1 decimal, other figures with 3 significant
/// decimals ("-" for a missing one).
pub fn show(unit: Unit, v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    match unit {
        Unit::Share => crate::stats::format::share(v),
        Unit::Length => format!("{v:.1}"),
        Unit::Plain if v.abs() >= 100.0 => format!("{v:.1}"),
        Unit::Plain => format!("{v:.3}"),
    }
}

fn interval(def: &MetricDef, e: &Estimate) -> String {
    match e.interval {
        Interval::Constant => "- (constant: every game gave exactly this)".into(),
        Interval::None if def.is_p_value() => "- (a p-value has no interval)".into(),
        Interval::None if !e.value.is_finite() => "- (not measured)".into(),
        Interval::None => "- (over the whole run: no batches to spread over; `check` and `compare` give one)".into(),
        _ if def.is_share_difference() => {
            use crate::stats::format::signed;
            format!("{} to {} pts", signed(e.lo * 100.0, 2), signed(e.hi * 100.0, 2))
        }
        _ => format!("{} to {}", show(def.unit, e.lo), show(def.unit, e.hi)),
    }
}

/// A value of `def` in a table: a difference of shares in signed points, else [`show`].
fn shown(def: &MetricDef, v: f64) -> String {
    if def.is_share_difference() { crate::stats::format::points(v) } else { show(def.unit, v) }
}

/// Whether a metric goes into the seat table rather than the figures table.
fn per_seat(name: &str) -> bool {
    name.starts_with("seat") && name.as_bytes().get(4).is_some_and(u8::is_ascii_digit)
}

/// The figures table: every metric of the catalogue that applies to the game, but the
/// per-seat ones.
pub fn figure_rows(cat: &Catalogue, est: &[Estimate], standing_unit: &str) -> Vec<FigureRow> {
    cat.defs
        .iter()
        .zip(est)
        // A game's own or standing figure that does not apply to this run (a card not in the
        // deck, a share of a standing that crosses zero) is absent.
        .filter(|(d, e)| d.applies && !per_seat(&d.name) && (e.value.is_finite() || !Catalogue::is_extra(d)))
        .map(|(d, e)| FigureRow {
            name: d.name.clone(),
            about: d.about.clone(),
            value: shown(d, e.value),
            ci: interval(d, e),
            unit: Some(d.unit_label(cat.length_unit(), standing_unit)).filter(|u| !u.is_empty()).unwrap_or_else(|| "-".into()),
            ci95: super::metrics::json_interval(e).as_array().map(|_| [e.lo, e.hi]),
            interval: e.interval.label().into(),
        })
        .collect()
}

/// The seat table: win share, eliminations (where seats can be eliminated) and mean score of
/// every seat with their intervals.
pub fn seat_rows(cat: &Catalogue, est: &[Estimate], bots: &[String]) -> Vec<SeatRow> {
    let get = |name: String| cat.position(&name).map(|i| (&cat.defs[i], est[i]));
    let cell = |name: String| get(name).map(|(d, e)| (show(d.unit, e.value), interval(d, &e))).unwrap_or(("-".into(), "-".into()));
    bots.iter()
        .enumerate()
        .map(|(s, bot)| SeatRow {
            seat: s,
            bot: bot.clone(),
            win_share: cell(format!("seat{s}_win_share")),
            eliminated: get(format!("seat{s}_eliminated")).filter(|(d, _)| d.applies).map(|(d, e)| (show(d.unit, e.value), interval(d, &e))),
            mean_score: cell(format!("seat{s}_mean_score")),
        })
        .collect()
}

/// A bound in the metric's unit (shares as %).
fn bound(unit: Unit, x: f64) -> String {
    match unit {
        Unit::Share => format!("{}%", trim(x * 100.0)),
        _ => trim(x),
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// The `[expect]` bounds of a variant judged against the run.
pub fn expect_rows(cat: &Catalogue, est: &[Estimate], expect: &[Expectation], standing_unit: &str) -> Vec<ExpectRow> {
    expect
        .iter()
        .filter_map(|x| {
            let i = cat.position(&x.metric)?;
            let (d, e) = (&cat.defs[i], &est[i]);
            let unit = d.unit_label(cat.length_unit(), standing_unit);
            let unit = if unit == "%" || unit == "pts" || unit.is_empty() { String::new() } else { format!(" {unit}") };
            Some(ExpectRow {
                metric: x.metric.clone(),
                measured: format!("{}{unit}", shown(d, e.value)),
                ci: interval(d, e),
                bounds: if d.is_share_difference() {
                    format!("{} to {} pts", crate::stats::format::signed(x.lo * 100.0, 2), crate::stats::format::signed(x.hi * 100.0, 2))
                } else {
                    format!("{} to {}{unit}", bound(d.unit, x.lo), bound(d.unit, x.hi))
                },
                verdict: match verdict(e, x.lo, x.hi) {
                    Verdict::Holds => "held",
                    Verdict::Undecided => "undecided",
                    Verdict::Fails => "failed",
                }
                .into(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_bounds_read_in_the_figures_units() {
        assert_eq!(show(Unit::Share, 0.266), "26.60%");
        assert_eq!(show(Unit::Length, 113.04), "113.0");
        assert_eq!(show(Unit::Plain, 0.12345), "0.123");
        assert_eq!(bound(Unit::Share, -0.03), "-3%");
        assert_eq!(bound(Unit::Length, 90.0), "90");
        assert!(per_seat("seat0_win_share") && !per_seat("seat_fairness_p"));
    }
}
