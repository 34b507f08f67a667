//! What moved: a figure moved when its paired 95% interval of B - A excludes 0
//! ([`partition`]); the one-line verdict names the headline figures and the others that moved
//! most ([`verdict`]).

use crate::designer::metrics::Unit;

use super::result::{Comparison, MetricComparison, unit_of};

/// A figure's name in words for a verdict.
fn label(name: &str) -> String {
    match name {
        "first_player_advantage" => "first-player advantage".into(),
        "mean_length" => "game length".into(),
        _ => name.replace('_', " "),
    }
}

/// A difference as a verdict says it, with its paired interval: shares in points, lengths in
/// their unit ([`crate::stats::format`]).
fn said(m: &MetricComparison, length_unit: &str) -> String {
    use crate::stats::format;
    let [lo, hi] = m.paired_ci.unwrap_or([f64::NAN; 2]);
    match unit_of(m) {
        Unit::Share => format::points_ci(m.diff, lo, hi),
        Unit::Length if lo.is_finite() && hi.is_finite() => {
            format!("{} {length_unit}, 95% CI {} to {}", format::signed(m.diff, 1), format::signed(lo, 1), format::signed(hi, 1))
        }
        Unit::Length => format!("{} {length_unit}", format::signed(m.diff, 1)),
        Unit::Plain => format::number_ci(m.diff, lo, hi, 3, true),
    }
}

/// The figures whose paired 95% interval excludes 0 (moved), includes it (did not move), and
/// those with no paired interval (not judged), in the comparison's order.
pub fn partition(c: &Comparison) -> (Vec<&MetricComparison>, Vec<&MetricComparison>, Vec<&MetricComparison>) {
    let mut moved = Vec::new();
    let mut still = Vec::new();
    let mut unjudged = Vec::new();
    for m in &c.metrics {
        match m.significant {
            Some(true) => moved.push(m),
            Some(false) => still.push(m),
            None => unjudged.push(m),
        }
    }
    (moved, still, unjudged)
}

/// The comparison in one line: the first-player advantage (in a team game the first
/// mover's team's) and the game length (moved, with the difference, or unchanged), then how
/// many other figures moved and the ones that moved most, largest first by how many
/// half-widths of its paired interval the difference is ("first-player advantage -1.8 pts
/// (significant); game length unchanged; no other figure moved"). Figures that only restate
/// another are left out of the list: the first team's advantage and every team's and seat
/// 0's win share (they move with the first-player advantage), and a share that mirrors one
/// already listed (its difference the exact negative: two end reasons that share all games).
pub fn verdict(c: &Comparison) -> String {
    const HEADLINE: [&str; 2] = ["first_player_advantage", "mean_length"];
    let teams = c.metrics.iter().any(|m| m.name == "first_team_advantage");
    let mut parts = Vec::new();
    for name in HEADLINE {
        let Some(m) = c.metrics.iter().find(|m| m.name == name) else { continue };
        let label = if teams && name == "first_player_advantage" { "first-player advantage (seat 0's team)".to_string() } else { label(name) };
        parts.push(match m.significant {
            Some(true) => format!("{label} {} (significant)", said(m, &c.length_unit)),
            Some(false) => format!("{label} unchanged"),
            None => format!("{label} not judged (no paired interval)"),
        });
    }
    let (moved, _, _) = partition(c);
    let restates = |name: &str| {
        HEADLINE.contains(&name) || name == "first_team_advantage" || name == "seat0_win_share" || (name.starts_with("team") && name.ends_with("_win_share"))
    };
    // How far a difference is from 0 in half-widths of its paired interval.
    let strength = |m: &MetricComparison| m.paired_ci.map_or(0.0, |[lo, hi]| if hi > lo { m.diff.abs() / ((hi - lo) / 2.0) } else { f64::INFINITY });
    let mut others: Vec<&MetricComparison> = moved.iter().copied().filter(|m| !restates(&m.name)).collect();
    others.sort_by(|x, y| strength(y).total_cmp(&strength(x)));
    let mut listed: Vec<&MetricComparison> = Vec::new();
    for m in others {
        let mirror = listed.iter().any(|l| unit_of(l) == Unit::Share && unit_of(m) == Unit::Share && (l.diff + m.diff).abs() < 1e-12);
        if !mirror {
            listed.push(m);
        }
    }
    const LISTED: usize = 4;
    parts.push(match listed.len() {
        0 => "no other figure moved".into(),
        n => {
            let named: Vec<String> = listed.iter().take(LISTED).map(|m| format!("{} {}", label(&m.name), said(m, &c.length_unit))).collect();
            let more = if n > LISTED { format!(" and {} more", n - LISTED) } else { String::new() };
            format!("{n} other figure{} moved (largest first): {}{more}", if n == 1 { "" } else { "s" }, named.join("; "))
        }
    });
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::designer::compare::Side;

    fn moved(name: &str, unit: &'static str, diff: f64, half: f64) -> MetricComparison {
        let ci = [diff - half, diff + half];
        MetricComparison {
            name: name.into(),
            about: String::new(),
            unit,
            own_unit: String::new(),
            own: false,
            applies: true,
            difference: false,
            interval: ["mean", "mean"],
            a: 0.5,
            a_ci: [0.4, 0.6],
            b: 0.5 + diff,
            b_ci: [0.4, 0.6],
            diff,
            paired_ci: Some(ci),
            independent_ci: None,
            significant: Some(ci[0] > 0.0 || ci[1] < 0.0),
        }
    }

    fn comparison(metrics: Vec<MetricComparison>) -> Comparison {
        let side = Side { path: "v.toml".into(), variant: "v".into(), bots: vec!["b".into()], sets: Vec::new(), seed: 1 };
        Comparison {
            game: "g".into(),
            a: side.clone(),
            b: side,
            games: 1000,
            common_random_numbers: true,
            length_unit: "turns".into(),
            precision: None,
            rotation_block: None,
            metrics,
        }
    }

    #[test]
    fn the_verdict_names_what_moved_most_and_leaves_out_restatements() {
        let c = comparison(vec![
            moved("first_player_advantage", "share", 0.03, 0.01),
            moved("mean_length", "length", 0.5, 1.0),
            moved("first_team_advantage", "share", 0.03, 0.01),
            moved("team0_win_share", "share", 0.03, 0.01),
            moved("team1_win_share", "share", -0.03, 0.01),
            moved("seat0_win_share", "share", 0.015, 0.005),
            moved("home_share", "share", 0.02, 0.01),
            moved("cap_share", "share", -0.02, 0.015),
            moved("doubts_per_game", "plain", 3.0, 0.5),
        ]);
        let v = verdict(&c);
        assert_eq!(
            v,
            "first-player advantage (seat 0's team) +3.00 pts, 95% CI +2.00 to +4.00 (significant); game length unchanged; 2 other figures moved (largest first): doubts per game +3.000, 95% CI +2.500 to +3.500; home share +2.00 pts, 95% CI +1.00 to +3.00"
        );
        let plain = comparison(vec![moved("first_player_advantage", "share", 0.0, 0.01)]);
        assert_eq!(verdict(&plain), "first-player advantage unchanged; no other figure moved");
    }
    fn unjudged(name: &str, unit: &'static str, diff: f64) -> MetricComparison {
        MetricComparison { paired_ci: None, significant: None, ..moved(name, unit, diff, 0.0) }
    }

    #[test]
    fn figures_split_into_moved_unchanged_and_not_judged_in_order() {
        let c = comparison(vec![
            moved("a_share", "share", 0.03, 0.01),
            moved("b_share", "share", 0.0, 0.01),
            unjudged("seat_fairness", "plain", 0.2),
            moved("c_share", "share", -0.03, 0.01),
        ]);
        let (m, s, u) = partition(&c);
        let names = |v: Vec<&MetricComparison>| v.iter().map(|m| m.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(m), ["a_share", "c_share"]);
        assert_eq!(names(s), ["b_share"]);
        assert_eq!(names(u), ["seat_fairness"]);
    }

    #[test]
    fn the_verdict_says_not_judged_counts_the_rest_and_drops_mirrors() {
        let c = comparison(vec![
            unjudged("first_player_advantage", "share", 0.01),
            moved("mean_length", "length", -2.0, 0.5),
            moved("cap_share", "share", 0.02, 0.01),
            // The exact mirror of cap_share (two end reasons sharing all games): left out.
            moved("bank_empty_share", "share", -0.02, 0.01),
            moved("b_share", "share", 0.0, 0.01),
        ]);
        assert_eq!(
            verdict(&c),
            "first-player advantage not judged (no paired interval); game length -2.0 turns, 95% CI -2.5 to -1.5 (significant); 1 other figure moved (largest first): cap share +2.00 pts, 95% CI +1.00 to +3.00"
        );
        // Past four, the rest are counted; a missing headline figure is skipped.
        let many = comparison((1..=6).map(|i| moved(&format!("x{i}_per_game"), "plain", i as f64, 0.5)).collect());
        let v = verdict(&many);
        assert!(v.starts_with("6 other figures moved (largest first): x6 per game +6.000"), "{v}");
        assert!(v.ends_with("x3 per game +3.000, 95% CI +2.500 to +3.500 and 2 more"), "{v}");
    }
}
