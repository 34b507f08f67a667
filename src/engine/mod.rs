//! The game-agnostic engine: the `Game` and `Bot` traits every game implements, the
//! per-game outcome, and the driver that plays one game from a seed.
//!
//! A game is a state machine: `to_move` says which seat must decide (or that the game is
//! over), `view` builds what that seat may see, `legal_actions` lists its choices from that
//! view alone, and `apply` changes the state, drawing chance from the game's seeded RNG.
//! Simultaneous rounds (Take a Penny) fit the same shape: the state buffers the round's
//! secret choices and no view shows them until all are in.
//!
//! One concern per file: the rules ([`Game`], `game.rs`) and their static facts
//! ([`GameInfo`], `info.rs`), outcomes (`outcome.rs`), events (`events.rs`), report figures
//! ([`Metrics`], `metrics.rs`) and charts ([`ChartSpec`], `chart.rs`), what a search sees of
//! the table ([`Sampler`], `sampler.rs`), the bots as the driver calls them ([`Lineup`],
//! `lineup.rs`), the play drivers ([`play`], [`Table`], `play.rs`) and the games' shared test
//! support (`testing.rs`). This file only declares them and re-exports their items, so every
//! path stays `crate::engine::Name`.

pub mod belief;
pub mod bots;
mod chart;
pub mod cpu;
mod events;
pub mod exact;
mod game;
mod info;
pub mod ismcts;
mod lineup;
mod metrics;
mod outcome;
mod play;
#[cfg(test)]
pub(crate) mod reads;
pub mod rng;
pub mod roster;
mod sampler;
pub mod standing;
#[cfg(test)]
mod testing;
pub mod trace;
pub mod words;

pub use bots::{Bot, BotInfo, BotParamInfo, BotSpec, RANDOM, RandomBot, SearchStats, TableFn};
pub use chart::{BarSeries, Bin, ChartSpec, LineSeries};
pub use events::{EventLog, GameEvent};
pub use game::{ActionOf, AuditHooks, ClaimCheck, EventOf, Game, HiddenInfo, OwnBots, Seen, StateOf, Traces, ViewOf};
pub use info::{GameInfo, SearchDefaults};
pub use lineup::{Lineup, Uniform};
pub use metrics::{Meaning, Metrics, NoMetrics, load_serde, save_serde};
pub use outcome::{MAX_SEATS, Outcome, SeatRngs, ToMove};
pub use play::{PlayOptions, Table, Violation, ask, ask_in, play, play_decisions, play_watched};
pub(crate) use play::{deliver, streams};
pub use rng::{GameRng, SeedFrom, game_seed, seat_rng};
pub use roster::all_bots;
pub use sampler::Sampler;
pub use standing::StandingTrace;
#[cfg(test)]
pub(crate) use testing::{check_never_draws, check_play_out};
