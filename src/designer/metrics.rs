//! The metric catalogue: every figure of a run's summary under one name (`mean_length`,
//! `first_player_advantage`, `<reason>_share`, `seat0_win_share`, the game's own figures, ...),
//! with how its 95% interval is computed. `compare`, `sweep`, `check` and `--precision` all
//! read metrics from here, so a name means the same number everywhere and equals the summary
//! of `simulate` for the same games.
//!
//! Intervals (the methods live in [`crate::stats::interval`]): shares use Wilson's interval
//! (as the summary does; the share of players eliminated, a per-game mean, uses Wilson at the
//! design-effect sample size); means use value ± z·sd/√n over the per-game values; length
//! quantiles use the distribution-free order-statistic interval; the game's own figures
//! (ratios gathered over a whole run) use batch means over batches of
//! [`crate::stats::interval::SUB_BATCH`] games with Student's t, so any run of 128 games or
//! more has one; `seat_fairness_p` is a p-value and has no interval (and cannot be bounded).
//! Under seat rotation the block is the unit of every per-game figure's interval (Wilson at
//! the design-effect sample size for shares). The standing figures (`lead_changes`, `drama`,
//! `decisiveness`, `comeback_rate`, `margin`, ...) carry the intervals of
//! [`crate::stats::standing`] (normal over per-game values; Wilson for `comeback_rate`); a
//! comparison pairs them by batch means, like the game's own figures.

use crate::engine::{Game, Outcome};
pub use crate::stats::interval::batch_half_width;
use crate::stats::interval::wilson_clustered;
pub use crate::stats::moments::Moments;
use crate::stats::ratio::{RatioEstimate, RatioTally};
use crate::stats::{StandingSummary, Summary, Tally, WIN_UNIT, Z95, wilson};

/// How a metric's interval is computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interval {
    /// Wilson score interval of a share.
    Wilson,
    /// Wilson score interval of a share counted over `games` independent games (so a bound
    /// at the share's edge can be judged by the exact one-sided bound).
    Share {
        /// Games counted.
        games: u64,
    },
    /// value ± z·sd/√n over per-game values.
    Normal,
    /// Order statistics of the length histogram.
    Rank,
    /// Batch means over batches of 64 games, Student's t.
    BatchMeans,
    /// The ratio estimator of a ratio of sums over games (each game, or rotation block, one
    /// cluster; [`crate::stats::ratio`]): a share of events judged by its events.
    Ratio,
    /// A figure that came out the same in every game (a ratio every game had exactly, a
    /// share that is 1/seats by construction): exact, its interval is the value itself.
    Constant,
    /// No interval (a p-value, or fewer than two batches).
    None,
}

impl Interval {
    /// The method's name in JSON (`interval` keys of `summary.json` and `compare.json`).
    pub fn label(&self) -> &'static str {
        match self {
            Interval::Wilson | Interval::Share { .. } => "wilson",
            Interval::Normal => "mean",
            Interval::Rank => "order statistics",
            Interval::BatchMeans => "batch means",
            Interval::Ratio => "ratio estimator",
            Interval::Constant => "constant",
            Interval::None => "none",
        }
    }

    /// Whether the estimate has an interval of its own (a constant's is the value itself).
    pub fn has_width(&self) -> bool {
        !matches!(self, Interval::None | Interval::Constant)
    }
}

/// The 95% interval of an estimate for JSON: `[lo, hi]`, or null when it has none (a
/// p-value, a figure over too few games, a constant).
pub fn json_interval(e: &Estimate) -> serde_json::Value {
    if e.interval.has_width() && e.lo.is_finite() && e.hi.is_finite() { serde_json::json!([e.lo, e.hi]) } else { serde_json::Value::Null }
}

/// What a metric's numbers are, for printing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unit {
    /// A length in the game's unit (turns, rounds).
    Length,
    /// A share (stored as a fraction, printed in %).
    Share,
    /// Any other number (scores, p-values, the game's own figures).
    Plain,
}

/// Which figure a metric reads.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    MeanLength,
    LengthQuantile(f64),
    Reason(usize),
    FirstPlayerAdvantage,
    SeatFairness,
    Elimination,
    GamesWithElimination,
    SharedWin,
    NoWinner,
    SeatWin(usize),
    SeatScore(usize),
    SeatEliminated(usize),
    /// A rotated run: the win share of line-up position `k` (the bot listed for seat k),
    /// wherever it sits.
    BotWin(usize),
    /// A team game: the win share of team `t` (its seats' shares summed).
    TeamWin(usize),
    /// A team game: the first mover's team's win share minus 1/teams.
    FirstTeamAdvantage,
    /// A team game: chi-square p-value that every team wins equally often.
    TeamFairness,
    /// A team game: the seat's final score minus its teammates' mean final score.
    TeammateGap(usize),
    Extra(usize),
    /// Standing figure `k` of [`STANDING_METRICS`], at `batch` in the per-batch values.
    Standing {
        k: usize,
        batch: usize,
    },
}

/// The standing metrics (every game): name, unit, what it is (`{unit}`: the game's standing
/// unit, `{length}`: its length unit).
pub const STANDING_METRICS: [(&str, Unit, &str); 7] = [
    ("lead_changes", Unit::Plain, "changes of the leading seat(s) per game"),
    ("lead_changes_per_10_turns", Unit::Plain, "lead changes per 10 {length}, per game"),
    ("drama", Unit::Plain, "most the eventual winner trailed the leader by ({unit})"),
    ("drama_share", Unit::Share, "that deficit as a share of the leader's standing then"),
    ("decisiveness", Unit::Share, "share of the game played when the winner took the lead for good (0: led throughout)"),
    ("comeback_rate", Unit::Share, "share of games won by a seat that trailed at the halfway turn"),
    ("margin", Unit::Plain, "winner's final standing minus the best other seat's ({unit})"),
];

/// The standing figures of a summary in [`STANDING_METRICS`] order, with their intervals.
pub fn standing_estimates(s: &StandingSummary) -> [(f64, [f64; 2]); 7] {
    s.estimates().map(|e| (e.value, e.ci95))
}

/// The standing figures' values in [`STANDING_METRICS`] order (per-batch values).
pub use crate::games::handle::standing_values;

/// One named metric.
#[derive(Clone, Debug)]
pub struct MetricDef {
    /// The name used by `--metric`, `[expect]` and the CSV columns.
    pub name: String,
    /// What it is, in a few words with its unit.
    pub about: String,
    /// How to print it.
    pub unit: Unit,
    /// Index into the per-game vector, for metrics that are a mean of per-game values.
    pub per_game: Option<usize>,
    /// Whether the figure can be anything but 0 in this game (the elimination figures of a
    /// game where nothing is eliminated cannot): tables show only figures that apply;
    /// `check`, `compare` and `sweep` still read every name.
    pub applies: bool,
    /// The unit of one of the game's own figures, in its words (from its
    /// [`crate::engine::Meaning`]; empty for the common figures, whose unit follows `unit`).
    pub own_unit: String,
    field: Field,
}

impl MetricDef {
    /// Whether this is a p-value (no interval, never bounded by `check`).
    pub fn is_p_value(&self) -> bool {
        matches!(self.field, Field::SeatFairness | Field::TeamFairness)
    }

    /// Whether this is a difference of shares (the first-player advantage), in [-1, 1].
    pub fn is_share_difference(&self) -> bool {
        matches!(self.field, Field::FirstPlayerAdvantage | Field::FirstTeamAdvantage)
    }

    /// The values the figure can take: `[0, 1]` for shares and p-values, `[-1, 1]` for a
    /// difference of shares, `[0, inf)` for lengths, anything otherwise.
    pub fn range(&self) -> (f64, f64) {
        match (self.unit, self.field) {
            (_, Field::FirstPlayerAdvantage | Field::FirstTeamAdvantage) => (-1.0, 1.0),
            (Unit::Share, _) | (_, Field::SeatFairness | Field::TeamFairness) => (0.0, 1.0),
            (Unit::Length, _) => (0.0, f64::INFINITY),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// The unit a designer reads the value in: `%` for shares, the game's length unit, the
    /// standing unit, `changes`, `p-value`, ... ("" when unknown, as for the game's own figures).
    pub fn unit_label(&self, length_unit: &str, standing_unit: &str) -> String {
        match (self.unit, self.field) {
            (_, Field::FirstPlayerAdvantage | Field::FirstTeamAdvantage) => "pts".into(),
            (Unit::Share, _) => "%".into(),
            (Unit::Length, _) => length_unit.into(),
            (_, Field::SeatFairness | Field::TeamFairness) => "p-value".into(),
            (_, Field::Extra(_)) => self.own_unit.clone(),
            (_, Field::SeatScore(_) | Field::TeammateGap(_)) => "score".into(),
            (_, Field::Standing { k: 0, .. }) => "changes per game".into(),
            (_, Field::Standing { k: 1, .. }) => format!("changes per 10 {length_unit}"),
            (_, Field::Standing { .. }) => standing_unit.into(),
            _ => String::new(),
        }
    }
}

/// Per-batch values of a figure gathered over whole batches: (games in the batch, value).
pub type BatchValues = Vec<(f64, f64)>;

/// Fewest 512-game batches `tune` races on before judging a difference by batch means.
pub const MIN_BATCHES: usize = 10;

/// A value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Point value (as in the run's summary).
    pub value: f64,
    /// Lower end of the 95% interval (the value when there is none).
    pub lo: f64,
    /// Upper end of the 95% interval (the value when there is none).
    pub hi: f64,
    /// How the interval was computed.
    pub interval: Interval,
}

impl Estimate {
    /// A value with no interval.
    pub fn point(value: f64) -> Estimate {
        Estimate { value, lo: value, hi: value, interval: Interval::None }
    }

    /// value ± `half`.
    pub fn around(value: f64, half: f64, interval: Interval) -> Estimate {
        Estimate { value, lo: value - half, hi: value + half, interval }
    }

    /// Half the interval's width (0 without an interval).
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// What one arm of a run measured: its summary, tally, per-game sums and per-batch figures.
pub struct ArmData<'a> {
    /// The summary (as `simulate` prints it).
    pub summary: &'a Summary,
    /// The tally the summary was built from.
    pub tally: &'a Tally,
    /// Sums of the per-game vector.
    pub moments: &'a Moments,
    /// Per-batch values of each of the game's own figures.
    pub extras: &'a [BatchValues],
    /// Per-game sums of the game's own figures that are ratios (their interval is the ratio
    /// estimator's).
    pub ratios: &'a RatioTally,
}

/// Every metric of one game (seats, end reasons and the game's own figures).
#[derive(Clone, Debug)]
pub struct Catalogue {
    /// The metrics, in display order.
    pub defs: Vec<MetricDef>,
    /// Length of the per-game vector.
    pub per_game_len: usize,
    seats: usize,
    players: usize,
    /// Each team's seats (empty when every seat plays for itself).
    teams: Vec<Vec<usize>>,
    has_elimination: bool,
    length_unit: String,
    /// Seat rotation: games per block (0 without rotation).
    rotation: usize,
}

/// The metric definitions of a catalogue being built, in display order.
struct Defs {
    defs: Vec<MetricDef>,
    /// Places taken in the per-game vector.
    per_game: usize,
    /// Whether the game can eliminate a seat (else the elimination figures do not apply).
    eliminates: bool,
    /// Whether the seats play in teams (the per-seat fairness test then does not apply).
    in_teams: bool,
}

impl Defs {
    /// Adds a metric; `paired`: a mean of per-game values (given a place in the vector).
    fn add(&mut self, name: String, about: String, unit: Unit, field: Field, paired: bool) {
        let index = paired.then(|| {
            self.per_game += 1;
            self.per_game - 1
        });
        let applies = (self.eliminates || !matches!(field, Field::Elimination | Field::GamesWithElimination | Field::SeatEliminated(_)))
            && !(self.in_teams && field == Field::SeatFairness);
        self.defs.push(MetricDef { name, about, unit, per_game: index, applies, own_unit: String::new(), field });
    }

    /// Length, end reasons, the first player's advantage, seat fairness and the teams'.
    fn outcome_metrics(&mut self, game: &crate::games::handle::GameFacts) {
        let (seats, unit, teams) = (game.seats, game.length_unit, &game.teams);
        self.add("mean_length".into(), format!("mean game length ({unit})"), Unit::Length, Field::MeanLength, true);
        for (name, q) in [("median_length", 0.5), ("p5_length", 0.05), ("p95_length", 0.95)] {
            self.add(name.into(), format!("{:.0}th percentile of game length ({unit})", q * 100.0), Unit::Length, Field::LengthQuantile(q), false);
        }
        for (i, reason) in game.end_reasons.iter().enumerate() {
            self.add(format!("{reason}_share"), format!("share of games ending by {reason}"), Unit::Share, Field::Reason(i), true);
        }
        let first = teams.iter().position(|t| t.contains(&0)).unwrap_or(0);
        self.add(
            "first_player_advantage".into(),
            if teams.len() >= 2 {
                format!(
                    "a team game: the win share of team {first} (seat 0 moves first) minus the teams' mean win share, 1/{} when every game has a winner (as first_team_advantage)",
                    teams.len()
                )
            } else if game.acting_seats < seats {
                format!("seat 0's win share minus the acting seats' mean win share ({} dummy seat(s) left out)", seats - game.acting_seats)
            } else {
                format!("seat 0's win share minus the fair share (1 - no-winner share)/{seats}, i.e. the seats' mean win share")
            },
            Unit::Share,
            Field::FirstPlayerAdvantage,
            true,
        );
        self.add(
            "seat_fairness_p".into(),
            if teams.len() >= 2 {
                "none in a team game: teammates win together (see team_fairness_p)".into()
            } else {
                "chi-square p-value that every seat wins equally often".into()
            },
            Unit::Plain,
            Field::SeatFairness,
            false,
        );
        if teams.len() >= 2 {
            for (t, members) in teams.iter().enumerate() {
                let list: Vec<String> = members.iter().map(|m| m.to_string()).collect();
                self.add(
                    format!("team{t}_win_share"),
                    format!("team {t}'s win share (seats {}; its seats' shares summed)", list.join(", ")),
                    Unit::Share,
                    Field::TeamWin(t),
                    true,
                );
            }
            self.add(
                "first_team_advantage".into(),
                format!("win share of team {first} (seat 0 moves first) minus the teams' mean win share (1/{} when every game has a winner)", teams.len()),
                Unit::Share,
                Field::FirstTeamAdvantage,
                true,
            );
            self.add("team_fairness_p".into(), "chi-square p-value that every team wins equally often".into(), Unit::Plain, Field::TeamFairness, false);
        }
    }

    /// Eliminations, shared wins, no winner, and every seat's win share, score, elimination.
    fn share_metrics(&mut self, game: &crate::games::handle::GameFacts) {
        let (seats, teams) = (game.seats, &game.teams);
        self.add("elimination_rate".into(), "share of players eliminated".into(), Unit::Share, Field::Elimination, true);
        self.add("games_with_elimination".into(), "share of games with an elimination".into(), Unit::Share, Field::GamesWithElimination, true);
        self.add(
            "shared_win_rate".into(),
            if teams.len() >= 2 {
                "share of games whose win several teams share (a team's own seats always win together)".into()
            } else {
                "share of games won by several tied seats".into()
            },
            Unit::Share,
            Field::SharedWin,
            true,
        );
        self.add("no_winner_share".into(), "share of games that ended with no winner (at the cap, say)".into(), Unit::Share, Field::NoWinner, true);
        for s in 0..seats {
            self.add(format!("seat{s}_win_share"), format!("seat {s}'s win share (ties shared)"), Unit::Share, Field::SeatWin(s), true);
        }
        for s in 0..seats {
            self.add(format!("seat{s}_mean_score"), format!("seat {s}'s mean final score"), Unit::Plain, Field::SeatScore(s), true);
        }
        for team in teams.iter().filter(|t| t.len() >= 2) {
            for &s in team {
                self.add(
                    format!("seat{s}_teammate_gap"),
                    format!("seat {s}'s final score minus its teammates' mean final score, per game (+: it carries more of its team's game)"),
                    Unit::Plain,
                    Field::TeammateGap(s),
                    true,
                );
            }
        }
        for s in 0..seats {
            self.add(format!("seat{s}_eliminated"), format!("share of games seat {s} is eliminated in"), Unit::Share, Field::SeatEliminated(s), true);
        }
    }

    /// The standing figures and the game's own figures, with their meanings and units.
    fn own_metrics(&mut self, game: &crate::games::handle::GameFacts) {
        let unit = game.length_unit;
        let own = |name: &str| game.own_figures.iter().find(|(n, _)| n == name).and_then(|(_, m)| m.clone());
        let extras: Vec<String> = game.own_figures.iter().map(|(k, _)| k.clone()).collect();
        let game_extras = extras.len();
        for (k, (name, unit_of, about)) in STANDING_METRICS.iter().enumerate() {
            let about = about.replace("{unit}", game.standing_unit).replace("{length}", unit);
            self.add(name.to_string(), about, *unit_of, Field::Standing { k, batch: game_extras + k }, false);
        }
        for (j, name) in extras.into_iter().enumerate() {
            let meaning = own(&name);
            let (about, unit_of) = match &meaning {
                Some(m) => (m.about.clone(), if m.is_share() { Unit::Share } else { Unit::Plain }),
                // A game's own `*_share` figure is a share (in %, bounded by [0, 1]).
                None => (format!("{}'s own figure", game.id), if name.ends_with("_share") { Unit::Share } else { Unit::Plain }),
            };
            self.add(name, about, unit_of, Field::Extra(j), false);
        }
        for d in self.defs.iter_mut().filter(|d| matches!(d.field, Field::Extra(_))) {
            if let Some(m) = own(&d.name).filter(|m| !m.is_share()) {
                d.own_unit = m.unit;
            }
        }
    }
}

impl Catalogue {
    /// The catalogue of `game`.
    pub fn new<G: Game>(game: &G) -> Catalogue {
        Catalogue::of(&crate::games::handle::GameFacts::of(game))
    }

    /// The catalogue of a game with these facts.
    pub fn of(game: &crate::games::handle::GameFacts) -> Catalogue {
        let mut defs = Defs { defs: Vec::new(), per_game: 0, eliminates: game.has_elimination, in_teams: game.teams.len() >= 2 };
        defs.outcome_metrics(game);
        defs.share_metrics(game);
        defs.own_metrics(game);
        let Defs { mut defs, per_game, .. } = defs;
        // A game's figure named like a common metric would be ambiguous: the common one wins.
        let mut seen = std::collections::HashSet::new();
        defs.retain(|d| seen.insert(d.name.clone()));
        Catalogue {
            defs,
            per_game_len: per_game,
            seats: game.seats,
            players: game.acting_seats,
            teams: game.teams.clone(),
            has_elimination: game.has_elimination,
            length_unit: game.length_unit.into(),
            rotation: 0,
        }
    }

    /// The catalogue of a rotated run of `acting` bots (`--rotate`): adds `bot<k>_win_share`,
    /// the win share of the bot listed for seat k wherever it sits (bot strength, seats
    /// averaged out), and gives every per-game metric the normal interval over rotation
    /// blocks (the games of a block share a deal, so the block is the unit). Unchanged when
    /// `rotate` is false.
    pub fn rotated(mut self, rotate: bool, acting: usize) -> Catalogue {
        if !rotate {
            return self;
        }
        self.rotation = acting.max(1);
        let at = self.defs.iter().position(|d| matches!(d.field, Field::SeatScore(_))).unwrap_or(self.defs.len());
        for k in (0..acting).rev() {
            let def = MetricDef {
                name: format!("bot{k}_win_share"),
                about: format!("win share of the bot listed for seat {k}, wherever rotation seats it (ties shared)"),
                unit: Unit::Share,
                per_game: Some(self.per_game_len),
                applies: true,
                own_unit: String::new(),
                field: Field::BotWin(k),
            };
            self.per_game_len += 1;
            self.defs.insert(at, def);
        }
        self
    }

    /// Whether the run is rotated (see [`Catalogue::rotated`]).
    pub fn is_rotated(&self) -> bool {
        self.rotation > 0
    }

    /// The metric called `name`.
    pub fn get(&self, name: &str) -> Option<&MetricDef> {
        self.defs.iter().find(|d| d.name == name)
    }

    /// Position of the metric called `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.defs.iter().position(|d| d.name == name)
    }

    /// Every name, comma separated (for error messages).
    pub fn names(&self) -> String {
        self.defs.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// The game's length unit ("turns", "rounds").
    pub fn length_unit(&self) -> &str {
        &self.length_unit
    }

    /// Whether `def` needs detailed play: one of the game's own figures or a standing figure.
    pub fn is_extra(def: &MetricDef) -> bool {
        matches!(def.field, Field::Extra(_) | Field::Standing { .. })
    }

    /// The metrics charted and printed when none are named: length, end reasons, first-player
    /// advantage and (for games with eliminations) the elimination rate.
    pub fn default_selection(&self) -> Vec<usize> {
        (0..self.defs.len())
            .filter(|&i| match self.defs[i].field {
                Field::MeanLength | Field::Reason(_) | Field::FirstPlayerAdvantage => true,
                Field::Elimination => self.has_elimination,
                _ => false,
            })
            .collect()
    }

    /// Parses `--metric a,b,c` into positions; an unknown name is a usage error listing all.
    pub fn select(&self, list: &str) -> Result<Vec<usize>, String> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|name| self.position(name).ok_or_else(|| format!("unknown metric `{name}`; allowed: {}", self.names())))
            .collect()
    }

    /// The per-game vector of one outcome (the values whose means are the paired metrics);
    /// `turn` is the game's rotation within its block (0 without rotation).
    pub fn per_game(&self, o: &Outcome, turn: usize, out: &mut Vec<f64>) {
        // Written by index: a rotated catalogue's bot metrics have the last indices.
        out.clear();
        out.resize(self.per_game_len, 0.0);
        let players = self.players.max(1) as f64;
        let eliminated = (0..self.seats).filter(|&s| o.eliminated_at[s] > 0).count();
        for d in &self.defs {
            if d.per_game.is_none() {
                continue;
            }
            let v = match d.field {
                Field::MeanLength => o.length as f64,
                Field::Reason(i) => f64::from(u8::from(o.end_reason as usize == i)),
                // Over the acting seats: seat 0 against the acting seats' mean (a dummy seat's
                // wins and games with no winner are nobody's advantage).
                // A team game: the first mover's team against 1/teams (teammates win together).
                Field::FirstPlayerAdvantage if self.teams.len() >= 2 => self.first_team_advantage(o),
                Field::FirstPlayerAdvantage => o.win_share(0) - (0..self.players).map(|s| o.win_share(s)).sum::<f64>() / players,
                Field::NoWinner => f64::from(u8::from(o.winner_count() == 0)),
                Field::Elimination => eliminated as f64 / players,
                Field::GamesWithElimination => f64::from(u8::from(eliminated > 0)),
                Field::SharedWin if self.teams.len() >= 2 => f64::from(u8::from(self.winning_teams(o) > 1)),
                Field::SharedWin => f64::from(u8::from(o.winner_count() > 1)),
                Field::SeatWin(s) => o.win_share(s),
                Field::SeatScore(s) => o.scores[s] as f64,
                Field::SeatEliminated(s) => f64::from(u8::from(o.eliminated_at[s] > 0)),
                // A team game: the bot's team's win (1/k of a win k teams share).
                Field::BotWin(k) if self.teams.len() >= 2 => {
                    let seat = (k + turn) % self.rotation.max(1);
                    match self.teams.iter().find(|t| t.contains(&seat)) {
                        Some(t) if t.iter().any(|&s| o.winners & (1 << s) != 0) => 1.0 / self.winning_teams(o).max(1) as f64,
                        _ => 0.0,
                    }
                }
                Field::BotWin(k) => o.win_share((k + turn) % self.rotation.max(1)),
                Field::TeammateGap(s) => match self.teams.iter().find(|t| t.contains(&s)) {
                    Some(t) if t.len() >= 2 => {
                        let others: i64 = t.iter().filter(|&&x| x != s).map(|&x| o.scores[x]).sum();
                        o.scores[s] as f64 - others as f64 / (t.len() - 1) as f64
                    }
                    _ => 0.0,
                },
                Field::TeamWin(t) => self.teams[t].iter().map(|&s| o.win_share(s)).sum(),
                Field::FirstTeamAdvantage => self.first_team_advantage(o),
                Field::LengthQuantile(_) | Field::SeatFairness | Field::TeamFairness | Field::Extra(_) | Field::Standing { .. } => 0.0,
            };
            if let Some(i) = d.per_game {
                out[i] = v;
            }
        }
    }

    /// The first mover's team's win credit in `o` minus the teams' mean credit: 1/teams in a
    /// game someone won, 0 in one nobody won (so that, over the games, it is the team's win
    /// share minus the teams' mean win share, as [`crate::stats::teams::TeamsSummary`] judges it).
    fn first_team_advantage(&self, o: &Outcome) -> f64 {
        let first = self.teams.iter().position(|t| t.contains(&0)).unwrap_or(0);
        let credit = self.teams[first].iter().map(|&s| o.win_share(s)).sum::<f64>();
        if o.winner_count() == 0 { credit } else { credit - 1.0 / self.teams.len().max(1) as f64 }
    }

    /// How many teams have a seat among the winners of `o`.
    fn winning_teams(&self, o: &Outcome) -> usize {
        self.teams.iter().filter(|t| t.iter().any(|&s| o.winners & (1 << s) != 0)).count()
    }

    /// Every metric's estimate for one arm, in catalogue order.
    pub fn estimates(&self, arm: &ArmData<'_>) -> Vec<Estimate> {
        self.defs.iter().map(|d| self.estimate(d, arm)).collect()
    }

    /// One metric's estimate for one arm. The interval always contains the value (Wilson's
    /// lower end for 0 successes can come out a rounding error above 0).
    pub fn estimate(&self, d: &MetricDef, arm: &ArmData<'_>) -> Estimate {
        let e = self.raw_estimate(d, arm);
        Estimate { lo: e.lo.min(e.value), hi: e.hi.max(e.value), ..e }
    }

    fn raw_estimate(&self, d: &MetricDef, arm: &ArmData<'_>) -> Estimate {
        let e = self.run_estimate(d, arm);
        match d.per_game {
            // Rotated: the block is the unit of every per-game metric's interval.
            Some(i) if self.is_rotated() => self.block_estimate(d, i, e.value, arm),
            _ => e,
        }
    }

    /// A rotated run's interval of a per-game metric, the block as the unit: Wilson at the
    /// design-effect sample size for shares, the normal one for other means; the first-player
    /// advantage against the constant 1/seats is seat 0's share interval shifted (as the
    /// summary's `with_rotation` does).
    fn block_estimate(&self, d: &MetricDef, i: usize, value: f64, arm: &ArmData<'_>) -> Estimate {
        let m = arm.moments;
        let games = arm.tally.games;
        let clustered = |value: f64, i: usize, per_game: u64| {
            let var_of_mean = if m.n == 0 { 0.0 } else { m.variance(i) / m.n as f64 };
            let (lo, hi) = wilson_clustered(value, var_of_mean, m.n, games * per_game);
            Estimate { value, lo, hi, interval: Interval::Wilson }
        };
        match d.field {
            Field::FirstPlayerAdvantage => {
                let seat0 = self.defs.iter().find(|x| x.field == Field::SeatWin(0)).and_then(|x| x.per_game);
                let s = &arm.summary.seats;
                let fair = crate::stats::summary::fair_share(s, self.players);
                match seat0 {
                    Some(j) if self.teams.len() < 2 && self.players >= self.seats && fair == 1.0 / self.seats.max(1) as f64 => {
                        let e = clustered(s[0].win_share, j, 1);
                        Estimate { value, lo: e.lo - fair, hi: e.hi - fair, interval: Interval::Wilson }
                    }
                    _ => Estimate::around(value, m.half_width(i), Interval::Normal),
                }
            }
            Field::Elimination => clustered(value, i, self.players as u64),
            _ if d.unit == Unit::Share => clustered(value, i, 1),
            _ => Estimate::around(value, m.half_width(i), Interval::Normal),
        }
    }

    fn run_estimate(&self, d: &MetricDef, arm: &ArmData<'_>) -> Estimate {
        let s = arm.summary;
        let t = arm.tally;
        let n = t.games;
        let normal = |value: f64| Estimate::around(value, d.per_game.map_or(f64::INFINITY, |i| arm.moments.half_width(i)), Interval::Normal);
        let share = |value: f64, count: f64| {
            let (lo, hi) = wilson(count, n);
            Estimate { value, lo, hi, interval: Interval::Share { games: n } }
        };
        match d.field {
            Field::MeanLength => {
                let half = if n == 0 { f64::INFINITY } else { Z95 * s.length.sd / (n as f64).sqrt() };
                Estimate::around(s.length.mean, half, Interval::Normal)
            }
            Field::LengthQuantile(q) => length_quantile_estimate(t, q),
            Field::Reason(i) => {
                let name = d.name.trim_end_matches("_share");
                let value = s.end_reasons.get(name).and_then(|v| v.as_f64()).unwrap_or(0.0);
                share(value, t.end_reasons.get(i).copied().unwrap_or(0) as f64)
            }
            Field::FirstPlayerAdvantage => {
                let f = &s.first_player_advantage;
                Estimate { value: f.value, lo: f.ci95[0], hi: f.ci95[1], interval: Interval::Wilson }
            }
            Field::SeatFairness => Estimate::point(s.seat_fairness_p),
            // A per-game mean of a share (players eliminated / players): Wilson at the
            // design-effect sample size, between the games and the player-games.
            Field::Elimination => {
                let i = d.per_game.unwrap_or(0);
                let m = arm.moments;
                let var_of_mean = if m.n == 0 { 0.0 } else { m.variance(i) / m.n as f64 };
                let (lo, hi) = wilson_clustered(s.elimination_rate, var_of_mean, n, n * self.players as u64);
                Estimate { value: s.elimination_rate, lo, hi, interval: Interval::Wilson }
            }
            Field::NoWinner => {
                let won: u64 = (0..self.seats).map(|seat| t.win_units(seat)).sum();
                let none = n.saturating_sub(won / WIN_UNIT);
                share(crate::stats::summary::no_winner_share(&s.seats), none as f64)
            }
            Field::GamesWithElimination => share(s.games_with_elimination, t.games_with_elimination as f64),
            Field::SharedWin if self.teams.len() >= 2 => share(s.shared_win_rate, t.teams.shared_between_teams as f64),
            Field::SharedWin => share(s.shared_win_rate, t.shared_wins as f64),
            Field::SeatWin(seat) => {
                let x = &s.seats[seat];
                let interval = if s.rotation.is_some() { Interval::Wilson } else { Interval::Share { games: n } };
                Estimate { value: x.win_share, lo: x.ci95[0], hi: x.ci95[1], interval }
            }
            Field::SeatScore(seat) => normal(s.seats[seat].mean_score),
            Field::TeammateGap(_) => {
                let m = arm.moments;
                let i = d.per_game.unwrap_or(0);
                normal(if m.n == 0 { f64::NAN } else { m.sum.get(i).copied().unwrap_or(f64::NAN) / m.n as f64 })
            }
            Field::TeamWin(team) => match s.teams.as_ref().and_then(|t| t.teams.get(team)) {
                Some(x) => Estimate { value: x.win_share, lo: x.ci95[0], hi: x.ci95[1], interval: Interval::Wilson },
                None => Estimate::point(f64::NAN),
            },
            Field::FirstTeamAdvantage => match &s.teams {
                Some(t) => {
                    let f = &t.first_team_advantage;
                    Estimate { value: f.value, lo: f.ci95[0], hi: f.ci95[1], interval: Interval::Wilson }
                }
                None => Estimate::point(f64::NAN),
            },
            Field::TeamFairness => Estimate::point(s.teams.as_ref().map_or(f64::NAN, |t| t.team_fairness_p)),
            Field::SeatEliminated(seat) => share(s.seats[seat].eliminated, t.eliminated[seat] as f64),
            Field::BotWin(_) => {
                let i = d.per_game.unwrap_or(0);
                let m = arm.moments;
                Estimate::point(if m.n == 0 { f64::NAN } else { m.sum.get(i).copied().unwrap_or(f64::NAN) / m.n as f64 })
            }
            Field::Standing { k, .. } => match &s.standing {
                Some(st) => standing_estimate(d, st, k),
                None => Estimate::point(f64::NAN),
            },
            Field::Extra(j) => extra_estimate(d, j, arm),
        }
    }

    /// The intervals of the game's own figures (every name of the summary's `extra`; one named
    /// like a common figure, such as a team's win share, takes the common figure's), with
    /// their methods, by name, for `summary.json` (`extra_ci95`, `extra_interval`).
    pub fn own_intervals(&self, arm: &ArmData<'_>) -> (serde_json::Map<String, serde_json::Value>, serde_json::Map<String, serde_json::Value>) {
        let own = arm.summary.extra.keys().filter_map(|name| self.get(name));
        let est: Vec<(&MetricDef, Estimate)> = own.map(|d| (d, self.estimate(d, arm))).collect();
        let ci = est.iter().map(|(d, e)| (d.name.clone(), json_interval(e))).collect();
        let how = est.iter().map(|(d, e)| (d.name.clone(), e.interval.label().into())).collect();
        (ci, how)
    }

    /// Index of a game's own figure or a standing figure among the per-batch values (the
    /// game's `Metrics::summary` values, then the standing figures).
    pub fn extra_index(d: &MetricDef) -> Option<usize> {
        match d.field {
            Field::Extra(j) => Some(j),
            Field::Standing { batch, .. } => Some(batch),
            _ => None,
        }
    }
}

/// A quantile of game length with its distribution-free interval: the order statistics at
/// the ranks about n·q ± 1.96·√(n·q·(1-q)).
fn length_quantile_estimate(t: &Tally, q: f64) -> Estimate {
    let n = t.games;
    let value = t.length_quantile(q);
    if n == 0 {
        return Estimate::point(value);
    }
    let nf = n as f64;
    let spread = Z95 * (nf * q * (1.0 - q)).sqrt();
    let lo_rank = (nf * q - spread).floor().max(1.0);
    let hi_rank = ((nf * q + spread).ceil() + 1.0).min(nf);
    Estimate { value, lo: t.length_quantile(lo_rank / nf), hi: t.length_quantile(hi_rank / nf), interval: Interval::Rank }
}

/// Standing figure `k` (lead changes, drama, comeback rate, ...) with the interval the
/// standing summary gives it; a figure without one is a bare value.
fn standing_estimate(d: &MetricDef, st: &StandingSummary, k: usize) -> Estimate {
    let (value, [lo, hi]) = standing_estimates(st)[k];
    let interval = if d.name == "comeback_rate" { Interval::Wilson } else { Interval::Normal };
    if lo.is_finite() && hi.is_finite() { Estimate { value, lo, hi, interval } } else { Estimate::point(value) }
}

/// The game's own figure `j` with its batch-means interval; a share is never narrower than
/// Wilson's interval over the games.
fn extra_estimate(d: &MetricDef, j: usize, arm: &ArmData<'_>) -> Estimate {
    let n = arm.tally.games;
    let value = arm.summary.extra.get(&d.name).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
    if let Some(r) = arm.ratios.get(&d.name)
        && arm.ratios.clusters > 0
    {
        return ratio_figure(d, value, r, n);
    }
    let batch = arm.extras.get(j).and_then(|b| batch_half_width(b)).map(|half| Estimate::around(value, half, Interval::BatchMeans));
    match batch {
        // A share: never narrower than Wilson's interval over the games (so a
        // share seen in no batch still has width), judged as one when Wilson's is
        // the wider.
        Some(e) if d.unit == Unit::Share && value.is_finite() => {
            let (lo, hi) = wilson(value.clamp(0.0, 1.0) * n as f64, n);
            if lo <= e.lo && hi >= e.hi {
                Estimate { value, lo, hi, interval: Interval::Share { games: n } }
            } else {
                Estimate { value, lo: e.lo.min(lo).max(0.0), hi: e.hi.max(hi).min(1.0), interval: Interval::BatchMeans }
            }
        }
        Some(e) => e,
        None => Estimate::point(value),
    }
}

/// One of the game's own figures that is a ratio of sums over games, with the ratio
/// estimator's interval. No spread at all is a constant, except a share never (or always)
/// seen, which is judged as a share of the `games` (Wilson's interval, and `check`'s exact
/// one-sided bound at its edge): its events may be many, but the games are what is sure.
fn ratio_figure(d: &MetricDef, value: f64, r: RatioEstimate, games: u64) -> Estimate {
    if !value.is_finite() || !r.half.is_finite() {
        return Estimate::point(value);
    }
    let share = d.unit == Unit::Share;
    if r.half == 0.0 {
        let edge = r.numerator == 0 || r.numerator == r.denominator;
        if share && edge && r.denominator > 0 {
            let (lo, hi) = wilson(value.clamp(0.0, 1.0) * games as f64, games);
            return Estimate { value, lo, hi, interval: Interval::Share { games } };
        }
        return Estimate { value, lo: value, hi: value, interval: Interval::Constant };
    }
    let e = Estimate::around(value, r.half, Interval::Ratio);
    if share { Estimate { lo: e.lo.max(0.0), hi: e.hi.min(1.0), ..e } } else { e }
}

/// A figure as every text output says it ([`crate::stats::format`]): a share in %, a
/// difference of shares (the first-player advantage) in signed points, others as numbers,
/// each with ", 95% CI lo to hi" when it has an interval, "(constant)" when it is one.
pub fn say(d: &MetricDef, e: &Estimate) -> String {
    say_in(d.unit, d.is_share_difference(), e)
}

/// [`say`] from the figure's unit and whether it is a difference of shares (for callers that
/// hold a name and a unit, not the definition: see [`is_difference_name`]).
pub fn say_in(unit: Unit, difference: bool, e: &Estimate) -> String {
    use crate::stats::format;
    let v = e.value;
    let bare = value_in(unit, difference, v);
    if !v.is_finite() || e.interval == Interval::None {
        return bare;
    }
    if e.interval == Interval::Constant {
        return format!("{bare} (constant: the same in every game)");
    }
    match unit {
        _ if difference => format::points_ci(v, e.lo, e.hi),
        Unit::Share => format::share_with_ci(v, e.lo, e.hi),
        Unit::Length => format::number_ci(v, e.lo, e.hi, 2, false),
        Unit::Plain => format::number_ci(v, e.lo, e.hi, 4, false),
    }
}

/// Whether the metric called `name` is a difference of shares (the first-player or
/// first-team advantage), written in points.
pub fn is_difference_name(name: &str) -> bool {
    matches!(name, "first_player_advantage" | "first_team_advantage")
}

/// A bare value of the figure `d` in the unit [`say`] writes it in (a bound of `check`).
pub fn say_value(d: &MetricDef, v: f64) -> String {
    value_in(d.unit, d.is_share_difference(), v)
}

/// [`say_value`] from the unit and whether it is a difference of shares.
pub fn value_in(unit: Unit, difference: bool, v: f64) -> String {
    if difference { crate::stats::format::points(v) } else { format_value(unit, v) }
}

/// A value in the metric's unit: shares in %, lengths and other figures as numbers.
pub fn format_value(unit: Unit, v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    match unit {
        Unit::Share => crate::stats::format::share(v),
        Unit::Length => format!("{v:.2}"),
        Unit::Plain => format!("{v:.4}"),
    }
}

/// A difference in the metric's unit: shares in percentage points, with a sign.
pub fn format_diff(unit: Unit, v: f64) -> String {
    if !v.is_finite() {
        return "-".into();
    }
    match unit {
        Unit::Share => crate::stats::format::points(v),
        Unit::Length => format!("{v:+.2}"),
        Unit::Plain => format!("{v:+.4}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_never_seen_has_an_interval_from_exactly_zero() {
        use crate::engine::Outcome;
        use crate::stats::summary::SummaryContext;
        let variant = crate::variant::Variant::load(std::path::Path::new("variants/pig-farm/standard.toml"), &[]).unwrap();
        let game = <crate::games::pig_farm::PigFarm as crate::games::Registered>::from_variant(&variant).unwrap();
        let cat = Catalogue::new(&game);
        let cap = cat.get("cap_share").unwrap().clone();
        let mut tally = Tally::default();
        let mut moments = Moments::new(cat.per_game_len);
        let mut values = Vec::new();
        let mut o = Outcome::new();
        o.length = 30;
        o.winners = 1;
        for n in 1..=1500u64 {
            tally.add(&o, 4, 2);
            cat.per_game(&o, 0, &mut values);
            moments.add(&values);
            let ctx = SummaryContext {
                game: "pig-farm",
                variant: "v",
                seed: 1,
                players: 4,
                seats: 4,
                seat_bots: vec!["b".into(); 4],
                end_reasons: &["sold", "cap"],
                length_unit: "turns",
                seconds: 0.0,
                extra: Vec::new(),
            };
            let summary = Summary::new(&tally, ctx);
            let e = cat.estimate(&cap, &ArmData { summary: &summary, tally: &tally, moments: &moments, extras: &[], ratios: &Default::default() });
            assert_eq!((e.value, e.lo), (0.0, 0.0), "after {n} games");
            assert!(e.hi > 0.0);
        }
    }

    #[test]
    fn a_team_game_measures_the_first_movers_team_and_each_seat_against_its_teammates() {
        use crate::engine::Outcome;
        let variant = crate::variant::Variant::load(std::path::Path::new("variants/bluffing-joker/standard.toml"), &[]).unwrap();
        let game = <crate::games::bluffing_joker::BluffingJoker as crate::games::Registered>::from_variant(&variant).unwrap();
        let cat = Catalogue::new(&game);
        assert!(!cat.get("seat_fairness_p").unwrap().applies);
        assert!(cat.get("first_player_advantage").unwrap().about.contains("team 0"));
        let mut values = Vec::new();
        let mut o = Outcome::new();
        o.winners = 0b0101;
        o.scores[..4].copy_from_slice(&[4, 1, 2, 3]);
        cat.per_game(&o, 0, &mut values);
        let v = |name: &str| values[cat.get(name).unwrap().per_game.unwrap()];
        // Team 0 won: +0.5 against 1/2 (seat 0's own share would be 0.5 - 0.25).
        assert_eq!(v("first_player_advantage"), 0.5);
        assert_eq!(v("first_team_advantage"), 0.5);
        assert_eq!(v("shared_win_rate"), 0.0);
        // A game nobody won (at the cap) is nobody's disadvantage: 0, not -1/2.
        let mut capped = o;
        capped.winners = 0;
        let mut at_cap = Vec::new();
        cat.per_game(&capped, 0, &mut at_cap);
        let w = |name: &str| at_cap[cat.get(name).unwrap().per_game.unwrap()];
        assert_eq!((w("first_player_advantage"), w("first_team_advantage")), (0.0, 0.0));
        assert_eq!((v("seat0_teammate_gap"), v("seat2_teammate_gap"), v("seat1_teammate_gap"), v("seat3_teammate_gap")), (2.0, -2.0, -2.0, 2.0));
        // Rotated: a bot's share is its team's win.
        let rotated = Catalogue::new(&game).rotated(true, 4);
        rotated.per_game(&o, 1, &mut values);
        let bot = |k: usize| values[rotated.get(&format!("bot{k}_win_share")).unwrap().per_game.unwrap()];
        // Rotation 1: bot 0 sits at seat 1 (team 1, lost), bot 1 at seat 2 (team 0, won).
        assert_eq!((bot(0), bot(1), bot(2), bot(3)), (0.0, 1.0, 0.0, 1.0));
    }
}
