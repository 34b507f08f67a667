//! Bluffing Joker's own report metrics: the win share by team and the first team's
//! advantage as figures (the team chart is the report's own, for every team game), length
//! in rounds, pegs sent to start
//! per game by cause, doubts and bluffs per game (how many doubts were right, how many
//! bluffs were caught), and the progress of each team's pegs over the turns.
//!
//! Every accumulator is an integer sum (counts, sums of squares, progress in holes), so
//! batches and shards merge to identical numbers in any order; the state is saved by
//! sharded runs.

use serde::{Deserialize, Serialize};

use super::rules::State;
use super::{Action, BluffingJoker};
use crate::engine::{BarSeries, Bin, ChartSpec, LineSeries, Meaning, Metrics, Outcome, load_serde, save_serde};
use crate::stats::counts::{add_counts, bump, ratio};
use crate::stats::{Z95, wilson};

/// Turns between two samples of the teams' progress.
pub const PROGRESS_STEP: u32 = 10;

/// Per-game counts summed over games (index: see [`COUNTS`]).
const COUNTS: [&str; 8] = [
    "pegs sent to start by landing",
    "pegs sent to start by doubt",
    "teammates sent to their in-spot",
    "doubts",
    "right doubts",
    "bluffs",
    "discards",
    "extra turns",
];

/// The figures of the per-game counts of [`COUNTS`], in that order.
const PER_GAME: [&str; 8] = [
    "sent_by_landing_per_game",
    "sent_by_doubt_per_game",
    "sent_to_in_spot_per_game",
    "doubts_per_game",
    "right_doubts_per_game",
    "bluffs_per_game",
    "discards_per_game",
    "extra_turns_per_game",
];

/// Accumulated over many games; merged in any order with the same result.
#[derive(Default, Serialize, Deserialize)]
pub struct JokerMetrics {
    players: usize,
    /// Most progress a team can make (every peg at the back of its home), in holes.
    team_max: u64,
    games: u64,
    /// Games by rounds begun.
    rounds: Vec<u64>,
    /// Sum and sum of squares of each per-game count.
    sums: [u64; COUNTS.len()],
    squares: [u64; COUNTS.len()],
    /// Progress samples every [`PROGRESS_STEP`] turns: games still running at the sample
    /// and the sum of each team's progress then.
    alive: Vec<u64>,
    progress: [Vec<u64>; 2],
    #[serde(skip)]
    next_sample: u32,
}

impl JokerMetrics {
    fn team_progress(game: &BluffingJoker, s: &State, team: usize) -> u64 {
        (team..game.players).step_by(2).map(|c| s.board.pegs[c][..game.geo.pegs].iter().map(|&p| game.geo.progress(c, p) as u64).sum::<u64>()).sum()
    }

    fn sample(&mut self, game: &BluffingJoker, s: &State) {
        while s.turns >= self.next_sample {
            let i = (self.next_sample / PROGRESS_STEP) as usize;
            bump(&mut self.alive, i, 1);
            for team in 0..2 {
                let p = Self::team_progress(game, s, team);
                bump(&mut self.progress[team], i, p);
            }
            self.next_sample += PROGRESS_STEP;
        }
    }

    /// Mean and 95% interval half-width of per-game count `k`.
    fn mean_ci(&self, k: usize) -> (f64, f64) {
        let n = self.games as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let mean = self.sums[k] as f64 / n;
        let var = (self.squares[k] as f64 / n - mean * mean).max(0.0);
        (mean, Z95 * (var / n.max(1.0)).sqrt())
    }

    fn counts_chart(&self, file: &str, title: String, ks: &[usize]) -> ChartSpec {
        ChartSpec::Bars {
            file: file.into(),
            title,
            x_label: "event".into(),
            y_label: "mean count per game (whiskers: 95 percent CI)".into(),
            categories: ks.iter().map(|&k| COUNTS[k].to_string()).collect(),
            series: vec![BarSeries {
                name: "mean per game".into(),
                values: ks.iter().map(|&k| self.mean_ci(k).0).collect(),
                ci: Some(
                    ks.iter()
                        .map(|&k| {
                            let (m, h) = self.mean_ci(k);
                            ((m - h).max(0.0), m + h)
                        })
                        .collect(),
                ),
            }],
            reference: None,
        }
    }
}

impl Metrics<BluffingJoker> for JokerMetrics {
    const KEY_CHART: &'static str = "doubts_and_bluffs";

    fn after_action(&mut self, game: &BluffingJoker, s: &State, _seat: usize, _action: &Action) {
        if self.next_sample == 0 {
            self.players = game.players;
            self.team_max = (game.players / 2 * game.geo.pegs) as u64 * (game.geo.track + game.geo.home as usize) as u64;
            self.next_sample = PROGRESS_STEP;
        }
        self.sample(game, s);
    }

    fn finish(&mut self, game: &BluffingJoker, s: &State, outcome: &Outcome) {
        self.players = game.players;
        self.team_max = (game.players / 2 * game.geo.pegs) as u64 * (game.geo.track + game.geo.home as usize) as u64;
        self.games += 1;
        let _ = outcome;
        bump(&mut self.rounds, s.rounds as usize, 1);
        let c = &s.counters;
        let values = [c.sent_by_landing, c.sent_by_doubt, c.sent_to_spot, c.doubts, c.right_doubts, c.bluffs, c.discards, c.extra_turns];
        for (k, &v) in values.iter().enumerate() {
            self.sums[k] += v as u64;
            self.squares[k] += v as u64 * v as u64;
        }
        self.next_sample = 0;
    }

    fn merge(&mut self, other: Self) {
        self.players = self.players.max(other.players);
        self.team_max = self.team_max.max(other.team_max);
        self.games += other.games;
        for t in 0..2 {
            add_counts(&mut self.progress[t], &other.progress[t]);
        }
        add_counts(&mut self.rounds, &other.rounds);
        add_counts(&mut self.alive, &other.alive);
        for k in 0..COUNTS.len() {
            self.sums[k] += other.sums[k];
            self.squares[k] += other.squares[k];
        }
    }

    fn charts(&self, games: u64) -> Vec<ChartSpec> {
        // The win share by team is a common chart of every team game (the report layer's).
        let mut charts = Vec::new();
        let total = self.games.max(1) as f64;
        let width = ((self.rounds.len() as f64 / 60.0).ceil()).max(1.0);
        let mut bins: Vec<Bin> = Vec::new();
        for (r, &c) in self.rounds.iter().enumerate().filter(|(_, c)| **c > 0) {
            let lo = (r as f64 / width).floor() * width;
            match bins.last_mut() {
                Some(b) if b.lo == lo => b.value += c as f64 / total * 100.0,
                _ => bins.push(Bin { lo, hi: lo + width, value: c as f64 / total * 100.0 }),
            }
        }
        let mean_rounds = ratio(self.rounds.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum(), total);
        charts.push(ChartSpec::Histogram {
            file: "rounds".into(),
            title: format!("Game length in rounds ({games} games; a round = one turn of each seat, extra turns aside)"),
            x_label: format!("rounds begun; bins of {width}"),
            y_label: "share of games (%)".into(),
            series: vec![("games".into(), bins)],
            markers: vec![(mean_rounds, format!("mean {mean_rounds:.1}"))],
        });
        charts.push(self.counts_chart("pegs_sent_to_start", format!("Pegs sent to start per game, by cause ({games} games)"), &[0, 1, 2]));
        charts.push(self.counts_chart(
            "doubts_and_bluffs",
            format!("Doubts and bluffs per game ({games} games; a right doubt catches a bluff)"),
            &[3, 4, 5, 6, 7],
        ));
        let (doubts, right, bluffs) = (self.sums[3], self.sums[4], self.sums[5]);
        let (d_lo, d_hi) = wilson(right as f64, doubts);
        let (b_lo, b_hi) = wilson(right as f64, bluffs);
        charts.push(ChartSpec::Bars {
            file: "doubt_accuracy".into(),
            title: format!("Share of doubts that were right and of bluffs caught ({doubts} doubts, {bluffs} bluffs)"),
            x_label: "share".into(),
            y_label: "share (%, 95% CI)".into(),
            categories: vec!["doubts that were right".into(), "bluffs caught".into()],
            series: vec![BarSeries {
                name: "share".into(),
                values: vec![ratio(right as f64, doubts as f64) * 100.0, ratio(right as f64, bluffs as f64) * 100.0],
                ci: Some(vec![(d_lo * 100.0, d_hi * 100.0), (b_lo * 100.0, b_hi * 100.0)]),
            }],
            reference: None,
        });
        let max = self.team_max.max(1) as f64;
        let keep: Vec<usize> = (1..self.alive.len()).filter(|&i| self.alive[i] * 100 >= self.games.max(1)).collect();
        charts.push(ChartSpec::Lines {
            file: "team_progress".into(),
            title: format!("Team progress over the game (running games, every {PROGRESS_STEP} turns, {games} games)"),
            x_label: "turns played (shown while at least 1% of games run)".into(),
            y_label: "team progress (% of the way home for all its pegs)".into(),
            series: (0..2)
                .map(|t| LineSeries {
                    name: format!("team {t}"),
                    points: keep
                        .iter()
                        .map(|&i| {
                            ((i as u32 * PROGRESS_STEP) as f64, ratio(self.progress[t].get(i).copied().unwrap_or(0) as f64, self.alive[i] as f64) / max * 100.0)
                        })
                        .collect(),
                    band: None,
                })
                .collect(),
        });
        charts
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        let n = self.games as f64;
        // The teams' win shares and the first team's advantage are common figures of every
        // team game (`team<t>_win_share`, `first_team_advantage`), judged in the stats layer.
        let mut out = vec![("mean_rounds".into(), ratio(self.rounds.iter().enumerate().map(|(i, &c)| i as f64 * c as f64).sum(), n))];
        for (k, name) in PER_GAME.iter().enumerate() {
            out.push((name.to_string(), self.mean_ci(k).0));
        }
        out.push(("right_doubt_share".into(), ratio(self.sums[4] as f64, self.sums[3] as f64)));
        out.push(("bluffs_caught_share".into(), ratio(self.sums[4] as f64, self.sums[5] as f64)));
        out
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        let per_game = |what: &str, unit: &str| Meaning::new(format!("{what} per game (mean over games)"), format!("{unit} per game"));
        Some(match name {
            "mean_rounds" => Meaning::new("rounds begun per game (a round: one turn of each seat, extra turns aside)", "rounds per game"),
            "sent_by_landing_per_game" => per_game("pegs sent to start by landing", "pegs"),
            "sent_by_doubt_per_game" => per_game("pegs sent to start by a doubt's penalty", "pegs"),
            "sent_to_in_spot_per_game" => per_game("teammates' pegs sent to their in-spot", "pegs"),
            "doubts_per_game" => per_game("doubts", "doubts"),
            "right_doubts_per_game" => per_game("right doubts (the card was not the declared value)", "doubts"),
            "bluffs_per_game" => per_game("bluffs (cards played as another value)", "bluffs"),
            "discards_per_game" => per_game("discards (no legal move)", "discards"),
            "extra_turns_per_game" => per_game("extra turns granted", "turns"),
            "right_doubt_share" => Meaning::share("share of doubts that were right"),
            "bluffs_caught_share" => Meaning::share("share of bluffs caught by a right doubt"),
            _ => return None,
        })
    }

    fn ratio_names(&self) -> Vec<String> {
        let mut names = vec!["mean_rounds"];
        names.extend(PER_GAME);
        names.extend(["right_doubt_share", "bluffs_caught_share"]);
        names.into_iter().map(String::from).collect()
    }

    fn ratio_parts(&self, out: &mut Vec<(i64, i64)>) {
        let games = self.games as i64;
        let rounds: u64 = self.rounds.iter().enumerate().map(|(i, &c)| i as u64 * c).sum();
        out.clear();
        out.push((rounds as i64, games));
        out.extend(self.sums.iter().map(|&s| (s as i64, games)));
        out.extend([(self.sums[4] as i64, self.sums[3] as i64), (self.sums[4] as i64, self.sums[5] as i64)]);
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        load_serde(state)
    }
}
