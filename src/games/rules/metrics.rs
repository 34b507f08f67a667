//! The figures a rules file asks for (`[figures]`): an expression's mean at the end of a
//! game, the share of games at whose end a condition holds, an action's plays per game. Kept
//! as exact integer sums, so they merge the same for any thread count or shard split.

use serde::{Deserialize, Serialize};

use super::RulesGame;
use super::machine::{ARG, Choice, State};
use super::program::FigureKind;
use crate::engine::{ChartSpec, Meaning, Metrics, Outcome};

/// Sums of every figure over the games played.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RulesMetrics {
    /// Figure names, units and meanings (empty until the first game, or from `for_game`).
    names: Vec<(String, String, String)>,
    /// Per figure: sum of the per-game values.
    sums: Vec<i128>,
    /// Per figure: sum of their squares.
    squares: Vec<i128>,
    /// Games counted.
    games: u64,
    /// The running game's action counts per figure.
    #[serde(skip)]
    running: Vec<i64>,
}

impl RulesMetrics {
    fn ready(&mut self, game: &RulesGame) {
        if self.names.is_empty() && !game.program().figures.is_empty() {
            *self = Self::for_game(game);
        }
        if self.running.len() != self.names.len() {
            self.running = vec![0; self.names.len()];
        }
    }

    /// Empty sums for `game`'s figures.
    pub fn for_game(game: &RulesGame) -> RulesMetrics {
        let names: Vec<(String, String, String)> = game.program().figures.iter().map(|f| (f.name.clone(), f.unit.clone(), f.meaning.clone())).collect();
        let n = names.len();
        RulesMetrics { names, sums: vec![0; n], squares: vec![0; n], games: 0, running: vec![0; n] }
    }
}

impl Metrics<RulesGame> for RulesMetrics {
    fn after_action(&mut self, game: &RulesGame, state: &State, _seat: usize, action: &Choice) {
        self.ready(game);
        for (i, f) in game.program().figures.iter().enumerate() {
            if let FigureKind::Count(a, when) = &f.kind
                && *a == action.action
            {
                let hit = match when {
                    None => true,
                    Some(w) => {
                        let mut b = state.binds;
                        b[ARG] = action.arg;
                        game.bound.eval(w, state, &mut b) != 0
                    }
                };
                if hit {
                    self.running[i] += 1;
                }
            }
        }
    }

    fn finish(&mut self, game: &RulesGame, state: &State, _outcome: &Outcome) {
        self.ready(game);
        for (i, f) in game.program().figures.iter().enumerate() {
            let v = match &f.kind {
                FigureKind::Value(e) => {
                    let mut b = state.binds;
                    game.bound.eval(e, state, &mut b)
                }
                FigureKind::Share(e) => {
                    let mut b = state.binds;
                    i64::from(game.bound.eval(e, state, &mut b) != 0)
                }
                FigureKind::Count(..) => std::mem::take(&mut self.running[i]),
            };
            self.sums[i] += v as i128;
            self.squares[i] += (v as i128) * (v as i128);
        }
        self.games += 1;
    }

    fn merge(&mut self, other: Self) {
        if self.names.is_empty() {
            self.names = other.names.clone();
            self.sums = vec![0; self.names.len()];
            self.squares = vec![0; self.names.len()];
        }
        for i in 0..self.sums.len().min(other.sums.len()) {
            self.sums[i] += other.sums[i];
            self.squares[i] += other.squares[i];
        }
        self.games += other.games;
    }

    fn charts(&self, _games: u64) -> Vec<ChartSpec> {
        Vec::new()
    }

    fn summary(&self, _games: u64) -> Vec<(String, f64)> {
        self.names
            .iter()
            .enumerate()
            .map(|(i, (name, _, _))| (name.clone(), if self.games == 0 { 0.0 } else { self.sums[i] as f64 / self.games as f64 }))
            .collect()
    }

    fn meaning(&self, name: &str) -> Option<Meaning> {
        self.names
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, unit, about)| if unit == "%" { Meaning::share(about.clone()) } else { Meaning::new(about.clone(), unit.clone()) })
    }

    fn save_state(&self) -> Option<serde_json::Value> {
        crate::engine::save_serde(self)
    }

    fn load_state(state: &serde_json::Value) -> Result<Self, String> {
        crate::engine::load_serde(state)
    }
}
