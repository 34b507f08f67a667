//! `sweep.csv`: one row per point, every metric with its 95% interval (as fractions).

use crate::designer::metrics;

use super::result::SweepResult;

/// `sweep.csv`: the swept values, the games and every metric with its interval.
pub(super) fn csv(sr: &SweepResult) -> String {
    let (axes, names, results) = (&sr.axes, &sr.names, &sr.points);
    let mut header: Vec<String> = axes.iter().map(|a| a.key.clone()).collect();
    header.push("games".into());
    for (n, _) in names {
        header.push(n.clone());
        header.push(format!("{n}_lo"));
        header.push(format!("{n}_hi"));
    }
    let mut out = header.join(",") + "\n";
    let f = |x: f64| {
        if x.is_finite() { x.to_string() } else { String::new() }
    };
    for r in results {
        let mut cells: Vec<String> = axes.iter().zip(&r.at).map(|(a, &i)| a.values[i].0.clone()).collect();
        cells.push(r.games.to_string());
        for (n, _) in names {
            match r.get(n) {
                Some(e) if e.interval != metrics::Interval::None => cells.extend([f(e.value), f(e.lo), f(e.hi)]),
                Some(e) => cells.extend([f(e.value), String::new(), String::new()]),
                None => cells.extend([String::new(), String::new(), String::new()]),
            }
        }
        out.push_str(&(cells.join(",") + "\n"));
    }
    out
}
