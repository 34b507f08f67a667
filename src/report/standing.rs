//! The standing charts every game gets: mean standing by turn per seat, P(the current leader
//! wins) by share of the game played, and the winning margin's histogram.

use crate::engine::{Bin, ChartSpec, LineSeries};
use crate::stats::{StandingTally, Summary};

/// The three standing charts (none when the run gathered no standings).
pub fn standing_charts(tally: &StandingTally, summary: &Summary) -> Vec<ChartSpec> {
    let Some(st) = &summary.standing else { return Vec::new() };
    if tally.games == 0 {
        return Vec::new();
    }
    let unit = &st.unit;
    let turn = summary.length.unit.trim_end_matches('s').to_string();
    let horizon = summary.length.p95.max(1.0) as usize;
    let seats: Vec<LineSeries> = summary
        .seats
        .iter()
        .map(|s| {
            let points = tally.mean_by_turn(s.seat, horizon);
            let team = summary.teams.as_ref().and_then(|t| t.team_of(s.seat)).map(|t| format!(", team {t}")).unwrap_or_default();
            LineSeries {
                name: format!("seat {} ({}{team})", s.seat, s.bot),
                band: Some(points.iter().map(|p| p.2).collect()),
                points: points.iter().map(|p| (p.0, p.1)).collect(),
            }
        })
        .collect();
    let mut charts = vec![ChartSpec::Lines {
        file: "standing_by_turn".into(),
        title: format!("Mean standing by {turn}, 95% CI ({} games)", tally.games),
        x_label: format!("{turn} (games still running; up to the 95th percentile of length)"),
        y_label: format!("mean standing ({unit})"),
        series: seats,
    }];
    let decided = tally.decided();
    if decided > 0 {
        let curve = tally.leader_curve();
        // In a team game the leaders are a team's seats (they share its standing) and a team
        // wins: chance is 1 in teams.
        let (sides, leader) = match &summary.teams {
            Some(t) => (t.teams.len(), "leading team"),
            None => (summary.players, "leader"),
        };
        let chance = 100.0 / sides.max(1) as f64;
        charts.push(ChartSpec::Lines {
            file: "leader_wins".into(),
            title: format!("P(the current {leader} wins), 95% CI ({decided} games with a winner)"),
            x_label: "share of the game played (%)".into(),
            y_label: "leader goes on to win (%)".into(),
            series: vec![
                LineSeries {
                    name: "current leader wins".into(),
                    points: curve.iter().map(|(x, p, _)| (x * 100.0, p * 100.0)).collect(),
                    band: Some(curve.iter().map(|(_, _, (lo, hi))| (lo * 100.0, hi * 100.0)).collect()),
                },
                LineSeries {
                    name: format!("chance (1 in {sides}{})", if summary.teams.is_some() { " teams" } else { "" }),
                    points: vec![(5.0, chance), (100.0, chance)],
                    band: None,
                },
            ],
        });
        charts.push(margin_histogram(tally, summary, decided));
    }
    charts
}

fn margin_histogram(tally: &StandingTally, summary: &Summary, decided: u64) -> ChartSpec {
    let st = summary.standing.as_ref().expect("checked by the caller");
    let (min, max) = (tally.margins.keys().next().copied().unwrap_or(0), tally.margins.keys().next_back().copied().unwrap_or(0));
    let width = (((max - min + 1) as f64) / 60.0).ceil().max(1.0);
    let mut bins: Vec<Bin> = Vec::new();
    for (&m, &count) in &tally.margins {
        // Whole margins: a bin holds lo..lo+width-1, drawn centred on them.
        let lo = ((m - min) as f64 / width).floor() * width + min as f64 - 0.5;
        let share = count as f64 / decided as f64 * 100.0;
        match bins.last_mut() {
            Some(b) if b.lo == lo => b.value += share,
            _ => bins.push(Bin { lo, hi: lo + width, value: share }),
        }
    }
    let unit = &st.unit;
    ChartSpec::Histogram {
        file: "margin".into(),
        title: format!("Winning margin ({decided} games with a winner)"),
        x_label: if width > 1.0 {
            format!("winner's standing minus the best other seat's ({unit}); bins of {width}")
        } else {
            format!("winner's standing minus the best other seat's ({unit})")
        },
        y_label: "share of games (%)".into(),
        series: vec![(format!("margin ({unit})"), bins)],
        markers: vec![(st.margin.value, format!("mean {:.1}", st.margin.value)), (st.median_margin, format!("median {}", st.median_margin))],
    }
}
