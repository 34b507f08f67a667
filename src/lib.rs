//! playtest: balance tabletop games by simulation. A designer's variant file (TOML) is
//! turned into a game, played many times by bots in parallel, and summarised with honest
//! statistics and charts.
//!
//! Layers, each knowing no game by name: [`variant`] (files, `extends`, `--set`),
//! [`engine`] (the `Game` and `Bot` traits, one game's driver), [`sim`] (parallel,
//! deterministic runs), [`stats`] (aggregation, intervals, tests), [`report`] (charts and
//! files). [`games`] holds one folder per game and the one `match` over game ids.

pub mod cli;
pub mod designer;
pub mod engine;
pub mod error;
pub mod games;
pub mod interrupt;
pub mod output;
pub mod play;
pub mod progress;
pub mod report;
pub mod sim;
pub mod stats;
pub mod variant;

pub use error::{Error, VariantError};
