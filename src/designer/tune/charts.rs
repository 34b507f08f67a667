//! The charts of the race: distance to the bounds and candidates left, against games spent
//! (`search.png`, `survivors.png`).

use crate::engine::{ChartSpec, LineSeries};

use super::result::{Round, TuneResult};

pub(super) fn charts(r: &TuneResult) -> Vec<ChartSpec> {
    let cap = |x: f64| if x.is_finite() { x } else { f64::NAN };
    let line = |name: &str, f: &dyn Fn(&Round) -> f64| LineSeries {
        name: name.into(),
        points: r.rounds.iter().map(|x| (x.spent as f64 / 1000.0, cap(f(x)))).filter(|p| p.1.is_finite()).collect(),
        band: None,
    };
    vec![
        ChartSpec::Lines {
            file: "search".into(),
            title: format!("tune: distance to the [expect] bounds vs games spent ({} candidates)", r.grid),
            x_label: "games spent by the race (thousands)".into(),
            y_label: "sum of distances to the bounds (CI half-widths)".into(),
            series: vec![
                line("current pick: point estimates outside", &|x| x.pick_objective),
                line("current pick: CIs sticking out of the bounds", &|x| x.pick_overhang),
                line("best candidate racing", &|x| x.best_objective),
                line("median candidate racing", &|x| x.median_objective),
            ],
        },
        ChartSpec::Lines {
            file: "survivors".into(),
            title: format!("tune: candidates still racing vs games spent (games each double per round; {} in all)", r.grid),
            x_label: "games spent by the race (thousands)".into(),
            y_label: "candidates racing".into(),
            series: vec![LineSeries {
                name: "candidates after the round's drops".into(),
                points: std::iter::once((0.0, r.grid as f64)).chain(r.rounds.iter().map(|x| (x.spent as f64 / 1000.0, x.left as f64))).collect(),
                band: None,
            }],
        },
    ]
}
