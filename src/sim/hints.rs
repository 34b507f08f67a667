//! Advice on request: the search bot's (`ismcts`, [`crate::engine::ismcts`]) estimate of the
//! person's win chance after each of its legal actions.
//!
//! The search runs exactly as the `ismcts` bot decides in a simulation, with the game's own
//! search settings and the asked number of iterations: every iteration plays on a fresh
//! determinization ([`HiddenInfo::determinize`](crate::engine::HiddenInfo::determinize) through the engine's [`Sampler`]), a full table
//! consistent with what the seat has seen, its hidden part re-sampled, so the advice is
//! built from the seat's information only. Each action's estimate is the mean win share
//! the seat got in the iterations that began with it (a tie shares the win; an iteration cut
//! off at the game's search depth counts the seats ahead in the standing as winners), with a
//! Wilson 95% interval over its iterations. The search spends its iterations on the actions
//! that look best, so a poor action gets few iterations and a wide interval; the intervals
//! are the search's own uncertainty, not a guarantee about perfect play.

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;

use crate::engine::ismcts::{Bar, Ismcts, Model, SearchParams};
use crate::engine::{Bot, Game, GameRng, Sampler, SeedFrom};

use super::label::label;

/// One legal action with the search's estimate.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Hint {
    /// The action in the game's trace notation.
    pub action: Value,
    /// The action in words.
    pub label: String,
    /// Search iterations that began with this action (0: not tried).
    pub iterations: u32,
    /// Estimated win chance of the seat after it (`None`: not tried).
    pub win: Option<f64>,
    /// Wilson 95% interval of that estimate over its iterations.
    pub interval: Option<(f64, f64)>,
}

/// The advice for one decision.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Hints {
    /// The seat advised.
    pub seat: usize,
    /// Search iterations run in all.
    pub iterations: u32,
    /// The action the search bot would play (its most visited, or the game's own policy's
    /// choice where the search cannot tell them apart: the bot's `trust`).
    pub choice: Value,
    /// Every legal action, in the game's order.
    pub actions: Vec<Hint>,
    /// Wall-clock time of the search in milliseconds (not part of the advice: it varies).
    #[serde(skip)]
    pub millis: f64,
}

/// The search bot's advice to `seat` deciding in `state` (see the module doc), with
/// `iterations` iterations drawn from `seed`: the same seed and the same view give the same
/// advice whatever the seat cannot see, where the game's determinization depends on the view
/// only.
pub fn hints<G: Game>(game: &G, state: &G::State, seat: usize, iterations: u32, seed: u64) -> Hints {
    let started = Instant::now();
    let view = game.view(state, seat);
    let mut legal = Vec::new();
    game.legal_actions(&view, &mut legal);
    // The game's defaults with `model=default`: advice from the plain search, not one that
    // models the table from its play.
    let params = SearchParams { iterations: iterations.max(1), model: Model::Default, bar: Bar::Luck, ..SearchParams::defaults::<G>() };
    let mut bot = Ismcts::new(game, params);
    bot.new_game(game, seat);
    let mut rng = GameRng::seed_from(seed);
    let choice = bot.decide_with(game, &view, &Sampler::new(state, seat), &mut rng);
    let stats = if legal.len() > 1 { bot.root_statistics() } else { Vec::new() };
    let actions = legal
        .iter()
        .map(|a| {
            let action = serde_json::to_value(a).expect("actions serialise");
            let found = stats.iter().find(|(b, _, _)| b == a);
            let (visits, win, interval) = match found {
                Some(&(_, n, reward)) if n > 0 => {
                    let win = reward / n as f64;
                    // The interval holds the estimate even where rounding puts a bound a hair past it.
                    let (lo, hi) = crate::stats::wilson(reward, n as u64);
                    (n, Some(win), Some((lo.min(win), hi.max(win))))
                }
                _ => (0, None, None),
            };
            Hint { label: label(&action), action, iterations: visits, win, interval }
        })
        .collect();
    Hints {
        seat,
        iterations: if legal.len() > 1 { iterations.max(1) } else { 0 },
        choice: serde_json::to_value(choice).expect("actions serialise"),
        actions,
        millis: started.elapsed().as_secs_f64() * 1000.0,
    }
}
