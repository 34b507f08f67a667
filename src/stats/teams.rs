//! Team figures for games whose seats play in teams ([`crate::engine::Game::teams`]): each
//! team's win share with its interval, the first mover's team against the fair share
//! 1/teams, and the chi-square test that every team wins equally often. A team's win puts
//! each of its k seats among the winners with 1/k of a win, so a team's win share is the
//! sum of its seats' shares: the seats stay in the summary, the teams are judged here.

use serde::Serialize;

use super::estimate::Estimate;
use super::{Tally, seat_fairness_p, wilson};

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

/// The team figures of a run.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TeamsSummary {
    /// Every team.
    pub teams: Vec<TeamShare>,
    /// Index into `teams` of the team of seat 0, which moves first.
    pub first_team: usize,
    /// The first mover's team's win share minus the fair share 1/teams, with its interval.
    pub first_team_advantage: Estimate,
    /// Chi-square p-value that every team wins equally often.
    pub team_fairness_p: f64,
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
        let fair = 1.0 / teams.len() as f64;
        let f = &shares[first_team];
        let first_team_advantage = Estimate { value: f.win_share - fair, ci95: [f.ci95[0] - fair, f.ci95[1] - fair] };
        Some(TeamsSummary { team_fairness_p: seat_fairness_p(&wins), teams: shares, first_team, first_team_advantage })
    }

    /// The fair share of one team: 1/teams.
    pub fn fair_share(&self) -> f64 {
        1.0 / self.teams.len().max(1) as f64
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
}
