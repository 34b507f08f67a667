//! The run summary: the JSON object of `simulate --json`, `summary.json` and the report
//! table, built from a [`Tally`].

use serde::Serialize;

use super::{Tally, format, seat_fairness_p, wilson};

/// Game-length figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LengthSummary {
    /// "turns" or "rounds".
    pub unit: String,
    /// Mean length.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// Median.
    pub median: f64,
    /// 5th percentile.
    pub p5: f64,
    /// 95th percentile.
    pub p95: f64,
    /// Shortest game.
    pub min: f64,
    /// Longest game.
    pub max: f64,
}

/// One seat's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeatSummary {
    /// Seat number (0 moves first).
    pub seat: usize,
    /// The bot's spec (`dummy` for a seat that never acts).
    pub bot: String,
    /// Share of games won (a k-way tie counts 1/k).
    pub win_share: f64,
    /// Wilson 95% interval of the win share.
    pub ci95: [f64; 2],
    /// Share of games in which the seat was eliminated.
    pub eliminated: f64,
    /// Mean final score (savings, pennies or points).
    pub mean_score: f64,
}

pub use super::estimate::Estimate;

/// The summary of a run, as emitted by `simulate --json`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// Game id.
    pub game: String,
    /// Variant name.
    pub variant: String,
    /// Games played.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Acting players.
    pub players: usize,
    /// Bot spec per acting seat.
    pub bots: Vec<String>,
    /// Game length.
    pub length: LengthSummary,
    /// Share of games per end reason.
    pub end_reasons: serde_json::Map<String, serde_json::Value>,
    /// Per-seat figures (dummy seats included).
    pub seats: Vec<SeatSummary>,
    /// Seat 0's win share minus 1/seats, with its 95% interval.
    pub first_player_advantage: Estimate,
    /// Chi-square p-value that all seats win equally often.
    pub seat_fairness_p: f64,
    /// Share of players eliminated (eliminated seats / (games x players)).
    pub elimination_rate: f64,
    /// Share of games in which at least one player was eliminated.
    pub games_with_elimination: f64,
    /// Share of games won by several tied seats.
    pub shared_win_rate: f64,
    /// Throughput of this run (wall clock, all threads).
    pub games_per_second: f64,
    /// The random generator.
    pub rng: String,
    /// The game's own figures (claims, challenges, ...).
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// The 95% interval of each of the game's own figures, by name: `[lo, hi]`, or null when
    /// it has none (a constant, a figure over too few games); absent unless gathered.
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub extra_ci95: serde_json::Map<String, serde_json::Value>,
    /// How each of those intervals is computed (`ratio estimator`, `batch means`, `wilson`,
    /// `constant`, `none`; see docs/statistics.md).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub extra_interval: serde_json::Map<String, serde_json::Value>,
    /// The names of the game's own figures that are shares (printed in % in text).
    #[serde(skip)]
    pub extra_shares: Vec<String>,
    /// The names of the game's own figures that are differences of shares (in points).
    #[serde(skip)]
    pub extra_differences: Vec<String>,
    /// A rotated run's win shares per seat (bots averaged out) and per bot (seats averaged
    /// out); absent unless `--rotate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rotation: Option<super::rotation::RotationSummary>,
    /// Lead changes, drama, decisiveness, comebacks and margin (runs that gather them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<super::StandingSummary>,
    /// A team game's team figures (absent when every seat plays for itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub teams: Option<super::teams::TeamsSummary>,
    /// Whether the game can eliminate a seat (the terminal shows the elimination figures only
    /// then; set by [`Summary::with_elimination`], else whether this run eliminated anyone).
    #[serde(skip)]
    pub has_elimination: bool,
}

/// What the summary needs to know about the game and the run besides the tally.
pub struct SummaryContext<'a> {
    /// Game id.
    pub game: &'a str,
    /// Variant name.
    pub variant: &'a str,
    /// Master seed.
    pub seed: u64,
    /// Acting seats.
    pub players: usize,
    /// Scored seats (dummies included).
    pub seats: usize,
    /// Bot label per scored seat.
    pub seat_bots: Vec<String>,
    /// End-reason names.
    pub end_reasons: &'a [&'a str],
    /// Length unit.
    pub length_unit: &'a str,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// The game's own figures.
    pub extra: Vec<(String, f64)>,
}

/// The fair share of one acting seat: the acting seats' mean win share, i.e. what the
/// players win between them, split evenly. With every seat acting and a winner in every game
/// it is exactly 1/seats; games that end with no winner (at the cap, say) lower it to
/// (1 - no-winner share)/seats, and a dummy seat's wins (Take a Penny's bank card) are left
/// out, so neither counts as an advantage or a disadvantage of seat 0.
pub fn fair_share(seats: &[SeatSummary], players: usize) -> f64 {
    let players = players.clamp(1, seats.len().max(1));
    let mean = seats[..players].iter().map(|s| s.win_share).sum::<f64>() / players as f64;
    let even = 1.0 / seats.len().max(1) as f64;
    // Every game won by an acting seat: the exact 1/seats, not its rounded sum.
    if players >= seats.len() && (mean - even).abs() < 1e-12 { even } else { mean }
}

/// Whether the fair share is a constant (1/seats: every seat acts and every game has a
/// winner), rather than estimated from the run.
fn fair_share_is_constant(seats: &[SeatSummary], players: usize) -> bool {
    players >= seats.len() && fair_share(seats, players) == 1.0 / seats.len().max(1) as f64
}

/// Share of games that ended with no winner at all (1 - the seats' total win share).
pub fn no_winner_share(seats: &[SeatSummary]) -> f64 {
    let won: f64 = seats.iter().map(|s| s.win_share).sum();
    let q = 1.0 - won;
    if q.abs() < 1e-12 { 0.0 } else { q.clamp(0.0, 1.0) }
}

/// Seat 0's win share minus the fair share ([`fair_share`]). When the fair share is the
/// constant 1/seats, the interval is seat 0's Wilson interval shifted by it. Otherwise (dummy
/// seats, or games with no winner) the fair share is itself estimated: the per-game
/// difference d = w0 - mean(acting w) has, when at most one seat wins a game, E[d^2] =
/// (1 - 1/n)^2 p0 + (1/n^2) sum of the other acting seats' p (ties only lower it); the
/// interval is the normal one from that variance, with the shares taken at their Wilson
/// centres (as Agresti and Caffo do for a difference), so a run in which nobody ever wins
/// still gets an interval of some width.
fn first_player_advantage(seats: &[SeatSummary], players: usize, games: u64) -> Estimate {
    let fair = fair_share(seats, players);
    let p0 = seats[0].win_share;
    // Nobody ever won: every seat's share is 0, so is the advantage, by construction.
    if games > 0 && seats.iter().all(|s| s.win_share == 0.0) {
        return Estimate { value: 0.0, ci95: [0.0, 0.0] };
    }
    if fair_share_is_constant(seats, players) {
        return Estimate { value: p0 - fair, ci95: [seats[0].ci95[0] - fair, seats[0].ci95[1] - fair] };
    }
    let n = players.clamp(1, seats.len().max(1));
    super::estimate::advantage_over_estimated_fair(p0, seats[1..n].iter().map(|s| s.win_share), fair, n, games)
}

/// Share of games ending at the cap or with no winner above which a run is warned about.
pub const DEADLOCK_WARNING: f64 = 0.10;

/// The warning a run deserves when many of its games end at the cap (an end reason named
/// `cap`) or with no winner (at least [`DEADLOCK_WARNING`]): its win shares then describe
/// the few games that ended, and a "fair" seat table may only mean that nobody wins.
pub fn deadlock_warning(end_reasons: &serde_json::Map<String, serde_json::Value>, seats: &[SeatSummary]) -> Option<String> {
    let cap = end_reasons.get("cap").and_then(|v| v.as_f64()).unwrap_or(0.0);
    let none = no_winner_share(seats);
    if cap < DEADLOCK_WARNING && none < DEADLOCK_WARNING {
        return None;
    }
    let seats_n = seats.len().max(1) as f64;
    Some(if none >= DEADLOCK_WARNING {
        format!(
            "warning: {:.1}% of games ended at the cap and {:.1}% with no winner: the win shares describe only the games someone won, the fair share is {:.2}% (not {:.2}%), and a table that looks fair may only mean that nobody wins; raise the cap or try stronger bots",
            cap * 100.0,
            none * 100.0,
            100.0 * (1.0 - none) / seats_n,
            100.0 / seats_n
        )
    } else {
        format!(
            "warning: {:.1}% of games ended at the cap: the cap, not the play, decided them, and a table that looks fair may only mean a deadlock; raise the cap or try stronger bots",
            cap * 100.0
        )
    })
}

fn num(x: f64) -> serde_json::Value {
    serde_json::Number::from_f64(x).map(serde_json::Value::Number).unwrap_or(serde_json::Value::Null)
}

impl Summary {
    /// Builds the summary of `tally`.
    pub fn new(tally: &Tally, ctx: SummaryContext<'_>) -> Summary {
        let n = tally.games;
        let games = n.max(1) as f64;
        let (mean, sd) = tally.length_mean_sd();
        let min = tally.lengths.iter().position(|&c| c > 0).unwrap_or(0) as f64;
        let max = tally.lengths.iter().rposition(|&c| c > 0).unwrap_or(0) as f64;
        let length = LengthSummary {
            unit: ctx.length_unit.to_string(),
            mean,
            sd,
            median: tally.length_quantile(0.5),
            p5: tally.length_quantile(0.05),
            p95: tally.length_quantile(0.95),
            min,
            max,
        };
        let mut end_reasons = serde_json::Map::new();
        for (i, name) in ctx.end_reasons.iter().enumerate() {
            end_reasons.insert(name.to_string(), num(tally.end_reasons.get(i).copied().unwrap_or(0) as f64 / games));
        }
        let seats: Vec<SeatSummary> = (0..ctx.seats)
            .map(|s| {
                let (lo, hi) = wilson(tally.wins[s], n);
                SeatSummary {
                    seat: s,
                    bot: ctx.seat_bots.get(s).cloned().unwrap_or_else(|| "dummy".into()),
                    win_share: tally.wins[s] / games,
                    ci95: [lo, hi],
                    eliminated: tally.eliminated[s] as f64 / games,
                    mean_score: tally.score_sum[s] / games,
                }
            })
            .collect();
        let first_player_advantage = first_player_advantage(&seats, ctx.players, n);
        let eliminated: u64 = tally.eliminated[..ctx.seats].iter().sum();
        Summary {
            game: ctx.game.to_string(),
            variant: ctx.variant.to_string(),
            games: n,
            seed: ctx.seed,
            players: ctx.players,
            bots: ctx.seat_bots[..ctx.players.min(ctx.seat_bots.len())].to_vec(),
            length,
            end_reasons,
            // Over the acting seats: a dummy seat (Take a Penny's bank card) is not a player.
            seat_fairness_p: seat_fairness_p(&tally.wins[..ctx.players.min(ctx.seats)]),
            seats,
            first_player_advantage,
            elimination_rate: eliminated as f64 / (games * ctx.players as f64),
            games_with_elimination: tally.games_with_elimination as f64 / games,
            shared_win_rate: tally.shared_wins as f64 / games,
            games_per_second: if ctx.seconds > 0.0 { n as f64 / ctx.seconds } else { 0.0 },
            rng: crate::engine::rng::RNG_NAME.to_string(),
            // A figure that does not apply (NaN: a card not in the deck) is left out.
            extra: ctx.extra.into_iter().filter(|(_, v)| v.is_finite()).map(|(k, v)| (k, num(v))).collect(),
            extra_ci95: serde_json::Map::new(),
            extra_interval: serde_json::Map::new(),
            extra_shares: Vec::new(),
            extra_differences: Vec::new(),
            rotation: None,
            standing: None,
            teams: None,
            has_elimination: tally.games_with_elimination > 0,
        }
    }

    /// The summary of a game that can (or cannot) eliminate a seat
    /// ([`crate::engine::GameInfo::has_elimination`]).
    pub fn with_elimination(mut self, has_elimination: bool) -> Summary {
        self.has_elimination = has_elimination;
        self
    }

    /// The summary with the team figures of a team game (`teams`: each team's seats; none
    /// leaves it as it is).
    ///
    /// A team game is judged in team terms: its teammates win together, so the first-player
    /// advantage becomes the first mover's team's (its win share against 1/teams), the
    /// per-seat fairness test does not apply (`seat_fairness_p` is null; `team_fairness_p`
    /// judges the teams), and a shared win is one that several teams share. A rotated run
    /// keeps the interval over blocks that [`Summary::with_rotation`] gave the advantage, and
    /// has no teammate gaps (its seats change bots from game to game).
    pub fn with_teams(mut self, teams: &[Vec<usize>], tally: &Tally) -> Summary {
        self.teams = super::teams::TeamsSummary::new(teams, tally);
        if let Some(t) = &mut self.teams {
            if let Some(r) = &self.rotation {
                t.teammate_gaps.clear();
                let rotated = &r.first_player_advantage;
                if rotated.ci95.iter().all(|x| x.is_finite()) {
                    let (value, half) = (t.first_team_advantage.value, (rotated.ci95[1] - rotated.ci95[0]) / 2.0);
                    t.first_team_advantage.ci95 = [value - half, value + half];
                }
            }
            self.first_player_advantage = t.first_team_advantage.clone();
            self.seat_fairness_p = f64::NAN;
            self.shared_win_rate = super::teams::TeamsSummary::shared_between_teams(tally);
        }
        self
    }

    /// The summary with a rotated run's per-seat and per-bot figures. Under rotation the block
    /// is the unit of every interval, so the seat table, the first-player advantage and the
    /// fairness test take the block-level figures: one interval per number, wherever shown.
    pub fn with_rotation(mut self, rotation: Option<super::rotation::RotationSummary>) -> Summary {
        if let Some(r) = &rotation {
            for (seat, rotated) in self.seats.iter_mut().zip(&r.seats) {
                if rotated.ci95.iter().all(|x| x.is_finite()) {
                    seat.ci95 = rotated.ci95;
                }
            }
            let fair = fair_share(&self.seats, self.players);
            let f = &mut self.first_player_advantage;
            if fair_share_is_constant(&self.seats, self.players) {
                f.ci95 = [self.seats[0].ci95[0] - fair, self.seats[0].ci95[1] - fair];
            } else if r.first_player_advantage.ci95.iter().all(|x| x.is_finite()) {
                let half = (r.first_player_advantage.ci95[1] - r.first_player_advantage.ci95[0]) / 2.0;
                f.ci95 = [f.value - half, f.value + half];
            }
            let players = self.players.min(self.seats.len());
            let wins: Vec<f64> = self.seats[..players].iter().map(|s| s.win_share * self.games as f64).collect();
            self.seat_fairness_p = super::seat_fairness_p_blocked(&wins, r.design_effect);
        }
        self.rotation = rotation;
        self
    }

    /// The warning this run deserves when many games end at the cap or with no winner
    /// ([`deadlock_warning`]).
    pub fn deadlock_warning(&self) -> Option<String> {
        deadlock_warning(&self.end_reasons, &self.seats)
    }

    /// The game's own figure `name` as text ([`format`](mod@format)): a share in %, others
    /// with `places` decimals, with its 95% interval when it has one ("constant" when every
    /// game gave it).
    pub fn extra_said(&self, name: &str, places: usize) -> String {
        let v = self.extra.get(name).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
        let ci = self.extra_ci95.get(name).and_then(|c| Some([c.get(0)?.as_f64()?, c.get(1)?.as_f64()?]));
        let constant = self.extra_interval.get(name).and_then(|m| m.as_str()) == Some("constant");
        let share = self.extra_shares.iter().any(|s| s == name);
        let difference = self.extra_differences.iter().any(|s| s == name);
        let bare = if difference {
            format::points(v)
        } else if share {
            format::share(v)
        } else {
            format!("{v:.places$}")
        };
        match ci {
            _ if constant => format!("{bare} (constant: the same in every game)"),
            Some([lo, hi]) if difference => format::points_ci(v, lo, hi),
            Some([lo, hi]) if share => format::share_with_ci(v, lo, hi),
            Some([lo, hi]) => format::number_ci(v, lo, hi, places, false),
            None => bare,
        }
    }

    /// The summary as a readable table for the terminal: [`Summary::figures`] and the rate.
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let mut out = self.figures();
        let _ = writeln!(out, "{:.0} games/s", self.games_per_second);
        out
    }

    /// The figures of the run, without the machine-dependent games per second (`report.md`
    /// shows this, so a report regenerated on another machine is identical).
    pub fn figures(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(out, "{} / {}: {} games, seed {} ({}), {} players", self.game, self.variant, self.games, self.seed, self.rng, self.players);
        let l = &self.length;
        let _ = writeln!(
            out,
            "length ({}): mean {:.1} (sd {:.1}), median {}, 5%-95% {}-{}, min {}, max {}",
            l.unit, l.mean, l.sd, l.median, l.p5, l.p95, l.min, l.max
        );
        let reasons: Vec<String> = self.end_reasons.iter().map(|(k, v)| format!("{k} {:.1}%", v.as_f64().unwrap_or(0.0) * 100.0)).collect();
        let _ = writeln!(out, "end reasons: {}", reasons.join(", "));
        self.seat_table(&mut out);
        let f = &self.first_player_advantage;
        match &self.teams {
            Some(t) => out.push_str(&t.lines(self.shared_win_rate)),
            None => {
                let _ = writeln!(out, "\nfirst-player advantage: {}; seat fairness chi-square p = {:.3}", format::estimate_points(f), self.seat_fairness_p);
            }
        }
        // Elimination figures only for a game that eliminates; shared wins of a team game
        // are in the team lines above.
        let mut rates = Vec::new();
        if self.has_elimination {
            rates.push(format!(
                "elimination rate: {:.1}% of players; games with an elimination: {:.1}%",
                self.elimination_rate * 100.0,
                self.games_with_elimination * 100.0
            ));
        }
        if self.teams.is_none() {
            rates.push(format!("shared wins: {:.1}% of games", self.shared_win_rate * 100.0));
        }
        if !rates.is_empty() {
            let _ = writeln!(out, "{}", rates.join("; "));
        }
        if let Some(w) = self.deadlock_warning() {
            let _ = writeln!(out, "{w}");
        }
        if !self.extra.is_empty() {
            let _ = writeln!(out, "\nthe game's own figures:");
            for k in self.extra.keys() {
                let _ = writeln!(out, "  {k}: {}", self.extra_said(k, 3));
            }
        }
        out
    }

    /// One row per seat (bot, win share with its interval, eliminations, mean score), then
    /// what the fair share leaves out and whether seat order is mixed with the bots' strength.
    fn seat_table(&self, out: &mut String) {
        use std::fmt::Write;
        // The eliminated column only for a game that eliminates.
        let (head, rule) = if self.has_elimination { (" eliminated |", "---:|") } else { ("", "") };
        let _ = writeln!(out, "\n| seat | bot | win share | 95% CI |{head} mean score |");
        let _ = writeln!(out, "|---:|---|---:|---|{rule}---:|");
        for s in &self.seats {
            let eliminated = if self.has_elimination { format!(" {:.1}% |", s.eliminated * 100.0) } else { String::new() };
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} to {} |{eliminated} {:.2} |",
                s.seat,
                if self.rotation.is_some() { "every bot, rotated" } else { &s.bot },
                format::share(s.win_share),
                format::share(s.ci95[0]),
                format::share(s.ci95[1]),
                s.mean_score
            );
        }
        if self.seats.len() > self.players {
            let _ = writeln!(
                out,
                "\n{} dummy seat(s) (not players) are left out of the fair share ({:.2}%), the first-player advantage and the fairness test.",
                self.seats.len() - self.players,
                fair_share(&self.seats, self.players) * 100.0
            );
        } else if !fair_share_is_constant(&self.seats, self.players) {
            let _ = match &self.teams {
                Some(t) => writeln!(
                    out,
                    "\n{:.2}% of games had no winner: the fair share is the teams' mean win share, {:.2}%, and the first-player advantage is {} against it.",
                    no_winner_share(&self.seats) * 100.0,
                    t.fair_share() * 100.0,
                    t.name(t.first_team)
                ),
                None => writeln!(
                    out,
                    "\n{:.2}% of games had no winner: the fair share is the seats' mean win share, {:.2}%, and the first-player advantage is seat 0 against it.",
                    no_winner_share(&self.seats) * 100.0,
                    fair_share(&self.seats, self.players) * 100.0
                ),
            };
        }
        if let Some(r) = &self.rotation {
            let _ = write!(out, "\n{}", r.table());
        } else if self.bots.iter().any(|b| *b != self.bots[0]) {
            let _ = writeln!(
                out,
                "\nThe seats play different bots: a difference between seats mixes the seat order with the bots' strength (`--rotate` separates them)."
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;

    fn summary_of_outcomes(outcomes: &[Outcome]) -> Summary {
        let mut tally = Tally::default();
        for o in outcomes {
            tally.add(o, 2, 2);
        }
        let ctx = SummaryContext {
            game: "g",
            variant: "v",
            seed: 1,
            players: 2,
            seats: 2,
            seat_bots: vec!["b".into(); 2],
            end_reasons: &["won", "cap"],
            length_unit: "turns",
            seconds: 0.0,
            extra: Vec::new(),
        };
        Summary::new(&tally, ctx)
    }

    #[test]
    fn a_run_nobody_won_has_no_first_player_advantage_by_construction() {
        let capped = Outcome { length: 10, end_reason: 1, ..Outcome::new() };
        let s = summary_of_outcomes(&[capped; 50]);
        assert_eq!((s.first_player_advantage.value, s.first_player_advantage.ci95), (0.0, [0.0, 0.0]));
        assert!(s.figures().contains("first-player advantage: +0.00 pts (constant by construction)"), "{}", s.figures());
        // One win is enough to measure it, with an interval of some width.
        let mut games = vec![capped; 49];
        games.push(Outcome { length: 10, winners: 1, ..Outcome::new() });
        let f = summary_of_outcomes(&games).first_player_advantage;
        assert!(f.ci95[0] < f.value && f.value < f.ci95[1], "{f:?}");
    }

    fn summary_of(tally: &Tally, seats: usize) -> Summary {
        Summary::new(
            tally,
            SummaryContext {
                game: "g",
                variant: "v",
                seed: 1,
                players: seats,
                seats,
                seat_bots: vec!["b".into(); seats],
                end_reasons: &["end"],
                length_unit: "turns",
                seconds: 0.0,
                extra: Vec::new(),
            },
        )
    }

    #[test]
    fn a_team_game_is_judged_by_team_on_the_terminal_and_in_the_json() {
        let teams = [vec![0, 2], vec![1, 3]];
        let mut tally = Tally::default();
        let mut o = Outcome::new();
        for g in 0..100 {
            o.winners = if g < 60 { 0b0101 } else { 0b1010 };
            tally.add(&o, 4, 1);
            tally.record_teams(&o, &teams);
        }
        let s = summary_of(&tally, 4).with_teams(&teams, &tally).with_elimination(false);
        // The first mover's team: 60% against 50%, not seat 0's 30% against 25%.
        assert!((s.first_player_advantage.value - 0.1).abs() < 1e-12, "{:?}", s.first_player_advantage);
        assert_eq!(s.first_player_advantage, s.teams.as_ref().expect("teams").first_team_advantage);
        assert!(s.seat_fairness_p.is_nan() && s.shared_win_rate == 0.0);
        let json = serde_json::to_value(&s).expect("json");
        assert!(json["seat_fairness_p"].is_null(), "{}", json["seat_fairness_p"]);
        let text = s.figures();
        assert!(text.contains("first-player advantage (a team game: team 0 (seats 0 and 2) against a fair 50.0%): +10.0 pts, 95% CI"), "{text}");
        assert!(!text.contains("seat fairness") && !text.contains("shared wins") && !text.contains("elimination"), "{text}");
        assert!(text.contains("won by several teams: 0.0% of games") && text.contains("seat against its teammates"), "{text}");
        // A game of single seats keeps its seat lines; elimination only where it can happen.
        let single = summary_of(&tally, 4);
        assert!(single.figures().contains("seat fairness chi-square p") && single.figures().contains("shared wins: 100.0% of games"));
        assert!(!single.figures().contains("elimination rate") && single.clone().with_elimination(true).figures().contains("elimination rate"));
    }
}
