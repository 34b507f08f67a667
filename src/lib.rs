//! playtest: balance tabletop games by simulation. A designer's variant file (TOML) is
//! turned into a game, played many times by bots in parallel, and summarised with honest
//! statistics and charts.
//!
//! The library is stacked in layers, each importing only from the layers below it (no
//! circles; `tests/layers.rs` checks both, ARCHITECTURE.md is the map): base ([`error`],
//! [`interrupt`], [`progress`]) < [`engine`] (the `Game` trait and `GameInfo`, the `Bot`
//! trait and the generic bots, one game's driver, traces) < [`stats`] (accumulators,
//! intervals, tests) < [`variant`] (files, `extends`, `--set`) < [`sim`] (parallel,
//! deterministic runs, shards, the invariant harness, the audit's and `play`'s typed loops)
//! < [`games`] (the registry, the one place naming every game and choosing a variant's game
//! type, behind [`games::GameHandle`]; one folder per game) < [`output`] (files, written
//! atomically) < [`report`] (charts and pages) < [`designer`] (compare, sweep, check, tune,
//! audit) < [`play`] < [`cli`]. Only [`games`] knows a game by name.

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
