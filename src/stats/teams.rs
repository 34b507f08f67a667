//! Team figures for games whose seats play in teams ([`crate::engine::Game::teams`]): each
//! team's win share with its interval, the first mover's team against the fair share (the
//! teams' mean win share: 1/teams when every game has a winner), and the chi-square test that every team wins equally often. A team's win puts
//! each of its k seats among the winners with 1/k of a win, so a team's win share is the
//! sum of its seats' shares: the seats stay in the summary, the teams are judged here.
//!
//! Inside a team the seats win together, so their win shares cannot differ; what can is
//! what each seat did itself. The **teammate gap** of a seat is its own final score
//! ([`Outcome::scores`]: Bluffing Joker's own pegs home) minus the mean of its teammates'
//! scores, averaged over the games, with a normal 95% interval: a positive gap says that seat
//! carries more of its team's game (docs/statistics.md). The sums are integers, so they
//! merge exactly.

use serde::{Deserialize, Serialize};

use super::estimate::Estimate;
use super::{Tally, Z95, seat_fairness_p, wilson};
use crate::engine::{MAX_SEATS, Outcome};

/// Running sums of a team game, beside the [`Tally`]: per seat the sum and sum of squares of
/// k x score - the team's total score (k: the team's size), which is (k - 1) times the
/// teammate gap, and the games whose win several teams share.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamTally {
    /// Games counted.
    pub games: u64,
    /// Games won by seats of more than one team.
    pub shared_between_teams: u64,
    /// Per seat, the sum of k x score - team total.
    gap_total: [i128; MAX_SEATS],
    /// Per seat, the sum of its square.
    gap_sq_total: [i128; MAX_SEATS],
}

impl TeamTally {
    /// Whether no game was counted (a game without teams).
    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// Counts one game of a game played in `teams` (each team's seats).
    pub fn record(&mut self, o: &Outcome, teams: &[Vec<usize>]) {
        self.games += 1;
        let mut winning_teams = 0;
        for team in teams {
            winning_teams += u32::from(team.iter().any(|&s| o.winners & (1 << s) != 0));
            let k = team.len() as i128;
            let total: i128 = team.iter().map(|&s| i128::from(o.scores[s])).sum();
            for &s in team.iter().filter(|&&s| s < MAX_SEATS) {
                let e = k * i128::from(o.scores[s]) - total;
                self.gap_total[s] += e;
                self.gap_sq_total[s] += e * e;
            }
        }
        self.shared_between_teams += u64::from(winning_teams > 1);
    }

    /// Adds a later batch.
    pub fn merge(&mut self, other: &TeamTally) {
        self.games += other.games;
        self.shared_between_teams += other.shared_between_teams;
        for s in 0..MAX_SEATS {
            self.gap_total[s] += other.gap_total[s];
            self.gap_sq_total[s] += other.gap_sq_total[s];
        }
    }

    /// The teammate gap of `seat` in a team of `size` seats: its mean with the normal 95%
    /// interval (none for a team of one, or before two games).
    pub fn gap(&self, seat: usize, size: usize) -> Estimate {
        let n = self.games as f64;
        if size < 2 || seat >= MAX_SEATS || self.games == 0 {
            return Estimate { value: f64::NAN, ci95: [f64::NAN, f64::NAN] };
        }
        let scale = (size - 1) as f64;
        let (sum, sq) = (self.gap_total[seat] as f64, self.gap_sq_total[seat] as f64);
        let mean = sum / n;
        let half = if self.games > 1 { Z95 * (((sq - sum * mean) / (n - 1.0)).max(0.0) / n).sqrt() } else { f64::INFINITY };
        Estimate { value: mean / scale, ci95: [(mean - half) / scale, (mean + half) / scale] }
    }
}

/// One team's figures.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TeamShare {
    /// Team number (its place in the game's list of teams).
    pub team: usize,
    /// Its seats, in seat order.
    pub seats: Vec<usize>,
    /// Share of games the team won (its seats' win shares summed; a tie between teams
    /// counts 1/k to each of k teams).
    pub win_share: f64,
    /// Wilson 95% interval of the win share.
    pub ci95: [f64; 2],
}

/// One seat against its teammates: its teammate gap.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TeammateGap {
    /// The seat.
    pub seat: usize,
    /// Its team.
    pub team: usize,
    /// The seat's final score minus its teammates' mean final score, averaged over the
    /// games, with its normal 95% interval.
    pub gap: Estimate,
}

/// The team figures of a run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TeamsSummary {
    /// Every team.
    pub teams: Vec<TeamShare>,
    /// Index into `teams` of the team of seat 0, which moves first.
    pub first_team: usize,
    /// The first mover's team's win share minus the fair share ([`TeamsSummary::fair_share`]),
    /// with its interval.
    pub first_team_advantage: Estimate,
    /// Chi-square p-value that every team wins equally often.
    pub team_fairness_p: f64,
    /// Every seat of a team of two or more against its teammates (empty in a rotated run,
    /// whose seats hold different bots in turn, and when the run counted no team sums).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teammate_gaps: Vec<TeammateGap>,
}

/// The teams' mean win share and whether it is the constant 1/teams (every game won by a
/// team; then exactly 1/teams, not its rounded sum).
fn team_fair_share(teams: &[TeamShare]) -> (f64, bool) {
    let even = 1.0 / teams.len().max(1) as f64;
    let mean = teams.iter().map(|t| t.win_share).sum::<f64>() / teams.len().max(1) as f64;
    if (mean - even).abs() < 1e-12 { (even, true) } else { (mean, false) }
}

impl TeamsSummary {
    /// The team figures of `tally` for `teams` (seat lists); `None` without teams.
    pub fn new(teams: &[Vec<usize>], tally: &Tally) -> Option<TeamsSummary> {
        if teams.len() < 2 {
            return None;
        }
        let n = tally.games;
        let games = n.max(1) as f64;
        let wins: Vec<f64> = teams.iter().map(|seats| seats.iter().map(|&s| tally.wins.get(s).copied().unwrap_or(0.0)).sum()).collect();
        let shares: Vec<TeamShare> = teams
            .iter()
            .zip(&wins)
            .enumerate()
            .map(|(team, (seats, &w))| {
                let (lo, hi) = wilson(w, n);
                TeamShare { team, seats: seats.clone(), win_share: w / games, ci95: [lo, hi] }
            })
            .collect();
        let first_team = teams.iter().position(|t| t.contains(&0)).unwrap_or(0);
        let f = &shares[first_team];
        let first_team_advantage = match team_fair_share(&shares) {
            // Every game won by a team: the exact 1/teams, seat 0's team's Wilson interval shifted.
            (fair, true) => Estimate { value: f.win_share - fair, ci95: [f.ci95[0] - fair, f.ci95[1] - fair] },
            // Nobody ever won: every share is 0, so is the advantage, by construction.
            _ if n > 0 && shares.iter().all(|t| t.win_share == 0.0) => Estimate { value: 0.0, ci95: [0.0, 0.0] },
            // Games with no winner: against the teams' mean win share, as seats are judged.
            (fair, false) => {
                let others = shares.iter().filter(|t| t.team != first_team).map(|t| t.win_share);
                super::estimate::advantage_over_estimated_fair(f.win_share, others, fair, shares.len(), n)
            }
        };
        let gaps = if tally.teams.games == tally.games && tally.games > 0 {
            teams
                .iter()
                .enumerate()
                .filter(|(_, seats)| seats.len() >= 2)
                .flat_map(|(team, seats)| seats.iter().map(move |&seat| TeammateGap { seat, team, gap: tally.teams.gap(seat, seats.len()) }))
                .collect()
        } else {
            Vec::new()
        };
        Some(TeamsSummary { team_fairness_p: seat_fairness_p(&wins), teams: shares, first_team, first_team_advantage, teammate_gaps: gaps })
    }

    /// Share of games whose win several teams share.
    pub fn shared_between_teams(tally: &Tally) -> f64 {
        tally.teams.shared_between_teams as f64 / tally.games.max(1) as f64
    }

    /// The fair share of one team: the teams' mean win share, which is 1/teams when every
    /// game has a winner; games with no winner (at the cap) lower it, as they lower a seat's
    /// ([`crate::stats::summary::fair_share`]), so that they count as nobody's disadvantage.
    pub fn fair_share(&self) -> f64 {
        team_fair_share(&self.teams).0
    }

    /// "team 0 (seats 0 and 2)": a team named with its seats.
    pub fn name(&self, team: usize) -> String {
        let seats: Vec<String> = self.teams[team].seats.iter().map(|s| s.to_string()).collect();
        let list = match seats.as_slice() {
            [one] => format!("seat {one}"),
            [init @ .., last] => format!("seats {} and {last}", init.join(", ")),
            [] => "no seats".into(),
        };
        format!("team {team} ({list})")
    }

    /// The team figures as lines for the terminal: the first mover's team against the fair
    /// share, the team fairness test, every team's win share, the wins several teams share
    /// (`shared`) and each seat against its teammates.
    pub fn lines(&self, shared: f64) -> String {
        use std::fmt::Write;
        let f = &self.first_team_advantage;
        let pts = |x: f64| format!("{:+.1}", x * 100.0);
        let mut out = format!(
            "\nfirst-player advantage (a team game: {} against a fair {:.1}%): {} pts, 95% CI {} to {}; team fairness chi-square p = {:.3} (no per-seat test: teammates win together)\n",
            self.name(self.first_team),
            self.fair_share() * 100.0,
            pts(f.value),
            pts(f.ci95[0]),
            pts(f.ci95[1]),
            self.team_fairness_p
        );
        let teams: Vec<String> = self
            .teams
            .iter()
            .map(|t| format!("{} {:.1}% (95% CI {:.1}% to {:.1}%)", self.name(t.team), t.win_share * 100.0, t.ci95[0] * 100.0, t.ci95[1] * 100.0))
            .collect();
        let _ = writeln!(out, "teams: {}; won by several teams: {:.1}% of games", teams.join(", "), shared * 100.0);
        if !self.teammate_gaps.is_empty() {
            let gaps: Vec<String> = self
                .teammate_gaps
                .iter()
                .map(|g| format!("seat {} {:+.2}, 95% CI {:+.2} to {:+.2}", g.seat, g.gap.value, g.gap.ci95[0], g.gap.ci95[1]))
                .collect();
            let _ = writeln!(out, "seat against its teammates (final score minus teammates' mean, per game): {}", gaps.join("; "));
        }
        out
    }

    /// The team of `seat`, if it is in one.
    pub fn team_of(&self, seat: usize) -> Option<usize> {
        self.teams.iter().position(|t| t.seats.contains(&seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Outcome;

    #[test]
    fn a_team_wins_what_its_seats_share_and_is_judged_against_one_in_teams() {
        let mut tally = Tally::default();
        let mut o = Outcome::new();
        // 60 wins of team 0 (seats 0 and 2), 40 of team 1 (seats 1 and 3).
        for g in 0..100 {
            o.winners = if g < 60 { 0b0101 } else { 0b1010 };
            tally.add(&o, 4, 4);
        }
        let t = TeamsSummary::new(&[vec![0, 2], vec![1, 3]], &tally).expect("two teams");
        assert!((t.teams[0].win_share - 0.6).abs() < 1e-12 && (t.teams[1].win_share - 0.4).abs() < 1e-12);
        assert!((t.first_team_advantage.value - 0.1).abs() < 1e-12);
        let (lo, hi) = wilson(60.0, 100);
        assert!((t.first_team_advantage.ci95[0] - (lo - 0.5)).abs() < 1e-12 && (t.first_team_advantage.ci95[1] - (hi - 0.5)).abs() < 1e-12);
        // Chi-square with 1 degree of freedom: (10^2/50) * 2 = 4, p = 0.0455.
        assert!((t.team_fairness_p - 0.0455).abs() < 1e-3, "{}", t.team_fairness_p);
        assert_eq!(t.name(0), "team 0 (seats 0 and 2)");
        assert_eq!(t.team_of(3), Some(1));
        assert!(TeamsSummary::new(&[], &tally).is_none());
    }

    #[test]
    fn games_with_no_winner_are_no_teams_disadvantage() {
        // 45 wins of each team and 10 games at the cap with no winner: the teams are even, so
        // the first team's advantage is 0 against their mean share 45%, not -5 points against 50%.
        let mut tally = Tally::default();
        let mut o = Outcome::new();
        for g in 0..100 {
            o.winners = match g {
                0..10 => 0,
                _ if g % 2 == 1 => 0b0101,
                _ => 0b1010,
            };
            tally.add(&o, 4, 4);
        }
        let t = TeamsSummary::new(&[vec![0, 2], vec![1, 3]], &tally).expect("two teams");
        assert!((t.teams[0].win_share - 0.45).abs() < 1e-12 && (t.teams[1].win_share - 0.45).abs() < 1e-12);
        assert!((t.fair_share() - 0.45).abs() < 1e-12, "{}", t.fair_share());
        let a = &t.first_team_advantage;
        assert!(a.value.abs() < 1e-12, "{a:?}");
        // The interval of the per-game difference w0 - (w0 + w1)/2, which is ±1/2 in a won
        // game: sd about 0.47, half-width about 1.96 x 0.47 / 10.
        assert!(a.ci95[0] < -0.07 && a.ci95[0] > -0.11 && (a.ci95[1] + a.ci95[0]).abs() < 1e-12, "{a:?}");
        // Nobody ever won: no advantage, by construction.
        let mut none = Tally::default();
        o.winners = 0;
        for _ in 0..10 {
            none.add(&o, 4, 4);
        }
        let t = TeamsSummary::new(&[vec![0, 2], vec![1, 3]], &none).expect("two teams");
        assert_eq!((t.first_team_advantage.value, t.first_team_advantage.ci95), (0.0, [0.0, 0.0]));
    }

    #[test]
    fn the_teammate_gap_is_a_seats_score_against_its_teammates_with_a_normal_interval() {
        let teams = [vec![0, 2], vec![1, 3]];
        let mut tally = Tally::default();
        let mut o = Outcome::new();
        // Seat 0 ends 2 pegs ahead of seat 2 in half the games, level in the others; team 1's
        // seats are always level. Team 0 wins every game.
        let n = 200;
        for g in 0..n {
            o.winners = 0b0101;
            o.scores[..4].copy_from_slice(if g % 2 == 0 { &[4, 1, 2, 1] } else { &[4, 3, 4, 3] });
            tally.add(&o, 4, 1);
            tally.record_teams(&o, &teams);
        }
        let t = TeamsSummary::new(&teams, &tally).expect("two teams");
        let gap = |seat: usize| t.teammate_gaps.iter().find(|g| g.seat == seat).expect("a gap per seat").gap.clone();
        assert!((gap(0).value - 1.0).abs() < 1e-12 && (gap(2).value + 1.0).abs() < 1e-12, "{:?}", t.teammate_gaps);
        // Per-game gaps 2 and 0: sd = sqrt(200/199), half-width 1.96 sd / sqrt(200).
        let half = Z95 * (200.0f64 / 199.0).sqrt() / (n as f64).sqrt();
        assert!((gap(0).ci95[1] - 1.0 - half).abs() < 1e-9 && (gap(0).ci95[0] - 1.0 + half).abs() < 1e-9, "{:?}", gap(0));
        assert_eq!((gap(1).value, gap(1).ci95), (0.0, [0.0, 0.0]));
        // Teammates always win together: no game is won by several teams.
        assert_eq!(TeamsSummary::shared_between_teams(&tally), 0.0);
        assert!(t.lines(0.0).contains("seat 0 +1.00, 95% CI +0.86 to +1.14"), "{}", t.lines(0.0));
        // A game both teams win is shared between teams.
        o.winners = 0b1111;
        tally.add(&o, 4, 1);
        tally.record_teams(&o, &teams);
        assert!((TeamsSummary::shared_between_teams(&tally) - 1.0 / 201.0).abs() < 1e-12);
        // Merged halves give the same sums; a tally that counted no team sums has no gaps.
        let mut a = Tally::default();
        a.merge(&tally);
        assert_eq!(a.teams, tally.teams);
        let mut plain = Tally::default();
        plain.add(&o, 4, 1);
        assert!(TeamsSummary::new(&teams, &plain).expect("two teams").teammate_gaps.is_empty());
    }

    #[test]
    fn a_saved_tally_keeps_its_team_sums_and_an_old_one_loads_without_them() {
        let teams = [vec![0, 2], vec![1, 3]];
        let mut tally = Tally::default();
        let mut o = Outcome::new();
        o.winners = 0b0101;
        o.scores[..4].copy_from_slice(&[4, 1, 2, 1]);
        tally.add(&o, 4, 1);
        tally.record_teams(&o, &teams);
        let text = serde_json::to_string(&tally).expect("saves");
        let back: Tally = serde_json::from_str(&text).expect("loads");
        assert_eq!(back, tally);
        let mut plain = Tally::default();
        plain.add(&o, 4, 1);
        let text = serde_json::to_string(&plain).expect("saves");
        assert!(!text.contains("teams"), "{text}");
        assert_eq!(serde_json::from_str::<Tally>(&text).expect("loads"), plain);
    }
}
