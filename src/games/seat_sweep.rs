//! Charts a game asks `report` to add that need simulations of their own: one seat's bot
//! parameter swept over a few values against opponents that all keep one value (Match Patch's
//! win share against `memory:recall`). A game declares the sweep as data
//! ([`super::Registered::SEAT_SWEEPS`]); the simulation is run here, so that no game's
//! module calls the simulator.

use crate::engine::{BotSpec, ChartSpec, Game, LineSeries, all_bots};
use crate::error::Error;
use crate::sim::{RunConfig, SeatPlan};

/// One seat's bot parameter swept against fixed opponents, drawn as a win-share line.
#[derive(Clone, Copy, Debug)]
pub struct SeatSweep {
    /// The bot every seat plays (`memory`).
    pub bot: &'static str,
    /// Its parameter the tested seat varies (`recall`).
    pub param: &'static str,
    /// The tested seat's values, in chart order.
    pub values: &'static [f64],
    /// The value every other seat plays.
    pub opponents: f64,
    /// Chart file name, without extension.
    pub file: &'static str,
    /// Chart title; the games per point are appended.
    pub title: &'static str,
    /// Label of the x axis (the parameter, in the designer's words).
    pub x_label: &'static str,
    /// Name of the tested seat's line.
    pub series: &'static str,
}

/// One point of a [`SeatSweep`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepPoint {
    /// The tested seat's parameter value.
    pub value: f64,
    /// Games played (over every position of the tested seat).
    pub games: u64,
    /// Its win credit (ties shared).
    pub wins: f64,
}

/// The tested seat's win credit at each value of `sweep`. The tested seat sits at every
/// position in turn (`games / seats` games each, rounded up), so the first-player advantage
/// cancels out; every value plays the same seeds (common random numbers).
pub fn run<G: Game>(game: &G, sweep: &SeatSweep, games: u64, seed: u64, threads: usize) -> Result<Vec<SweepPoint>, Error> {
    let infos = all_bots(game);
    let plan = |value: f64| -> Result<SeatPlan<G>, Error> {
        let label = format!("{}:{}={value}", sweep.bot, sweep.param);
        let spec = BotSpec::parse(&label).map_err(|e| Error::Usage(e.to_string()))?;
        let (info, values) = spec.resolve(&infos).map_err(|e| Error::Usage(e.to_string()))?;
        Ok(SeatPlan { label, values, build: info.build })
    };
    let n = game.acting_seats();
    let per_seat = games.div_ceil(n as u64).max(1);
    let mut points = Vec::with_capacity(sweep.values.len());
    for &value in sweep.values {
        let mut point = SweepPoint { value, games: 0, wins: 0.0 };
        for tested in 0..n {
            let seats: Vec<SeatPlan<G>> = (0..n).map(|s| plan(if s == tested { value } else { sweep.opponents })).collect::<Result<_, _>>()?;
            let cfg = RunConfig { threads, ..RunConfig::new(per_seat, seed.wrapping_add(tested as u64)) };
            let r = crate::sim::run(game, &seats, cfg)?;
            point.games += r.tally.games;
            point.wins += r.tally.wins[tested];
        }
        points.push(point);
    }
    Ok(points)
}

/// The win-share chart of [`run`]: the tested seat's share with its 95% interval at every
/// value, and the fair share.
pub fn chart<G: Game>(game: &G, sweep: &SeatSweep, games: u64, seed: u64, threads: usize) -> Result<ChartSpec, Error> {
    let points = run(game, sweep, games, seed, threads)?;
    let fair = 100.0 / game.acting_seats() as f64;
    let total = points.first().map_or(0, |p| p.games);
    let first = sweep.values.first().copied().unwrap_or(0.0);
    let last = sweep.values.last().copied().unwrap_or(1.0);
    Ok(ChartSpec::Lines {
        file: sweep.file.into(),
        title: format!("{} ({total} games per point)", sweep.title),
        x_label: sweep.x_label.into(),
        y_label: "win share of the tested seat, ties shared (%, 95% CI)".into(),
        series: vec![
            LineSeries {
                name: sweep.series.into(),
                points: points.iter().map(|p| (p.value, p.wins / p.games.max(1) as f64 * 100.0)).collect(),
                band: Some(points.iter().map(|p| crate::stats::wilson_percent(p.wins, p.games)).collect()),
            },
            LineSeries { name: format!("fair share {fair:.1}%"), points: vec![(first, fair), (last, fair)], band: None },
        ],
    })
}
