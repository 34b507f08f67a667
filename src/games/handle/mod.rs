//! The game handle: the one place where a variant's game type is chosen. [`handle`] builds a
//! [`GameHandle`] from a variant; the commands are plain functions over `&dyn GameHandle`
//! and [`SeatedGame`] (a game with its bots seated), so each is compiled once, not once per
//! game. Only what must be fast, playing a batch of games, is monomorphised per game, behind
//! one call per batch (never per game or action).
//!
//! Its parts: `facts` (a game's static facts), `metrics` (a run's results with the game's
//! metrics type-erased), `seated` (a game with its bots seated, and the per-game batch loop).

mod facts;
mod metrics;
mod seated;

pub use facts::GameFacts;
pub use metrics::{AnyMetrics, MetricsOf, Run};
pub use seated::{PlayPlan, PlayedBatch, Seated, SeatedGame, SubBatchValues, seated, standing_values, sub_batch_size};

use crate::engine::bots::BotSpecError;
use crate::engine::exact::ExactReport;
use crate::engine::trace::{Line, ReplayError, Replayed};
use crate::engine::{BotParamInfo, BotSpec, ChartSpec, ClaimCheck, all_bots};
use crate::error::{Error, Location, VariantError};
use crate::sim::harness::{HarnessFailure, HarnessPlan};
use crate::sim::session::{PlayTable, Session};
use crate::variant::Variant;

use super::{GAME_IDS, GameVisitor, Registered, seat_plans, visit};

/// A variant's game, its type chosen once (by [`handle`]): what every command needs of a
/// game, object-safe, so the commands are written once.
pub trait GameHandle: Sync {
    /// The game's facts.
    fn facts(&self) -> &GameFacts;
    /// The bot every seat plays when a variant names none.
    fn default_bot(&self) -> &'static str;
    /// The same game built from another variant (a candidate of `tune`, a value of `sweep`,
    /// the other side of `compare`); errors name the variant's key as [`handle`] does.
    fn with_variant(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error>;
    /// The bots of every seat of `variant`'s table: `cli` (`--bots`) when given, else the
    /// variant's, else the default bot (see [`seat_plans`]).
    fn seat<'a>(&'a self, variant: &Variant, cli: Option<&[BotSpec]>) -> Result<Box<dyn SeatedGame + 'a>, Error>;
    /// An empty accumulator of the game's own metrics.
    fn new_metrics(&self) -> Box<dyn AnyMetrics>;
    /// The exact solution of the variant ([`Registered::exact`]) with one bot label per
    /// acting seat; `None` when the game has no solver.
    fn exact(&self, variant: &Variant, labels: &[String], max_states: u64) -> Option<Result<ExactReport, Error>>;
    /// The charts of the game's seat sweeps ([`Registered::extra_charts`]) that `report` adds.
    fn extra_charts(&self, variant: &Variant, games: u64, seed: u64, threads: usize) -> Result<Vec<ChartSpec>, Error>;
    /// Replays the parsed lines of a JSON trace through the rules
    /// ([`crate::engine::trace::replay_to_stop`]); `Err` says where it differs or which line
    /// cannot be read.
    fn replay(&self, lines: &[(usize, Line)]) -> Result<Replayed, ReplayError>;
    /// Runs the invariant harness on the variant's game ([`super::check_rules`]).
    fn check_rules(&self, variant: &Variant, plan: HarnessPlan) -> Result<Result<u64, HarnessFailure>, Error>;
    /// The game built from a stepped variant (the audit's sensitivity steps): as
    /// [`GameHandle::with_variant`], but a refusal is the game's own words, not explained
    /// against the file (the stepped value is not in it).
    fn with_step(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error>;
    /// The turn cap of the variant (in [`GameFacts::length_unit`]).
    fn turn_cap(&self) -> u32;
    /// The variant's numeric keys as the game reads them ([`Registered::parameter_table`]):
    /// a rules file's declared parameters with their values; otherwise the variant's table.
    fn parameter_table(&self, variant: &Variant) -> toml::Table;
    /// The game's kinds of action in the designer's words
    /// ([`AuditHooks::action_kinds`](crate::engine::AuditHooks::action_kinds)).
    fn action_kinds(&self) -> Vec<&'static str>;
    /// The claims of a bluffing game checked against the deck
    /// ([`AuditHooks::claim_audit`](crate::engine::AuditHooks::claim_audit)).
    fn claim_audit(&self) -> Vec<ClaimCheck>;
    /// Every bot of the game by name, with its parameters.
    fn bots(&self) -> Vec<(&'static str, &'static [BotParamInfo])>;
    /// The bot `spec` names (an alias resolved) with its complete parameter values.
    fn resolve_bot(&self, spec: &BotSpec) -> Result<(&'static str, &'static [BotParamInfo], Vec<f64>), BotSpecError>;
    /// Deals a game of `variant` for `playtest play`: the person in seat `seat`, the bots of
    /// `cli` (`--bots`) or the variant's in the other seats, from `seed`. The session is
    /// typed by the game; the page's server reads it through [`PlayTable`].
    fn open_session(&self, variant: &Variant, seat: usize, cli: Option<&[BotSpec]>, seed: u64) -> Result<Box<dyn PlayTable>, Error>;
    /// The replay page's words for every step of the parsed trace `lines` of this game
    /// ([`crate::sim::words::trace_words`]); `Err` says where it is not a game of this one.
    fn trace_words(&self, lines: &[(usize, Line)]) -> Result<serde_json::Value, String>;
}

/// Game `G`, built from a variant, behind [`GameHandle`].
pub struct Handle<G: Registered> {
    game: G,
    facts: GameFacts,
}

impl<G: Registered> Handle<G> {
    /// The handle of `game`.
    pub fn new(game: G) -> Handle<G> {
        let facts = GameFacts::of(&game);
        Handle { game, facts }
    }

    /// The game itself.
    pub fn game(&self) -> &G {
        &self.game
    }
}

impl<G: Registered> GameHandle for Handle<G> {
    fn facts(&self) -> &GameFacts {
        &self.facts
    }
    fn default_bot(&self) -> &'static str {
        G::INFO.default_bot
    }
    fn with_variant(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error> {
        handle(variant)
    }
    fn seat<'a>(&'a self, variant: &Variant, cli: Option<&[BotSpec]>) -> Result<Box<dyn SeatedGame + 'a>, Error> {
        let plans = seat_plans(&self.game, variant, cli, G::INFO.default_bot)?;
        Ok(Box::new(Seated { game: &self.game, plans, facts: self.facts.clone() }))
    }
    fn new_metrics(&self) -> Box<dyn AnyMetrics> {
        Box::new(MetricsOf::<G>(<G::Metrics as crate::engine::Metrics<G>>::for_game(&self.game)))
    }
    fn exact(&self, variant: &Variant, labels: &[String], max_states: u64) -> Option<Result<ExactReport, Error>> {
        self.game.exact(variant, labels, max_states)
    }
    fn extra_charts(&self, variant: &Variant, games: u64, seed: u64, threads: usize) -> Result<Vec<ChartSpec>, Error> {
        self.game.extra_charts(variant, games, seed, threads)
    }
    fn replay(&self, lines: &[(usize, Line)]) -> Result<Replayed, ReplayError> {
        crate::engine::trace::replay_to_stop(&self.game, lines, crate::sim::MAX_TRACE_STEPS)
    }
    fn check_rules(&self, variant: &Variant, plan: HarnessPlan) -> Result<Result<u64, HarnessFailure>, Error> {
        super::check_game(&self.game, variant, plan)
    }
    fn with_step(&self, variant: &Variant) -> Result<Box<dyn GameHandle>, Error> {
        if super::rules::is_rules_file(variant) {
            return handle(variant);
        }
        Ok(Box::new(Handle::new(G::from_variant(variant)?)))
    }
    fn turn_cap(&self) -> u32 {
        self.game.turn_cap()
    }
    fn parameter_table(&self, variant: &Variant) -> toml::Table {
        self.game.parameter_table().unwrap_or_else(|| variant.table.clone())
    }
    fn action_kinds(&self) -> Vec<&'static str> {
        self.game.action_kinds()
    }
    fn claim_audit(&self) -> Vec<ClaimCheck> {
        self.game.claim_audit()
    }
    fn bots(&self) -> Vec<(&'static str, &'static [BotParamInfo])> {
        all_bots(&self.game).iter().map(|b| (b.name, b.params)).collect()
    }
    fn resolve_bot(&self, spec: &BotSpec) -> Result<(&'static str, &'static [BotParamInfo], Vec<f64>), BotSpecError> {
        let infos = all_bots(&self.game);
        let (info, values) = spec.resolve(&infos)?;
        Ok((info.name, info.params, values))
    }
    fn open_session(&self, variant: &Variant, seat: usize, cli: Option<&[BotSpec]>, seed: u64) -> Result<Box<dyn PlayTable>, Error> {
        // The session owns its game: built again from the variant, as the handle's was.
        let game = build::<G>(variant)?;
        let plans = seat_plans(&game, variant, cli, G::INFO.default_bot)?;
        let header = crate::sim::trace_header(variant, &plans);
        let bots: Vec<Box<dyn crate::engine::Bot<G>>> = plans.iter().map(|p| (p.build)(&game, &p.values)).collect();
        let session = Session::new(game, seat, bots, seed, &header).map_err(Error::Usage)?;
        Ok(Box::new(crate::sim::session::Named { session, variant: variant.name.clone() }))
    }
    fn trace_words(&self, lines: &[(usize, Line)]) -> Result<serde_json::Value, String> {
        crate::sim::words::trace_words(&self.game, lines)
    }
}

/// Builds game `G` from `variant`, a bad key named with its file, line and column.
pub(super) fn build<G: Registered>(variant: &Variant) -> Result<G, Error> {
    Ok(G::from_variant(variant).map_err(|e| variant.explain(e, |v| G::from_variant(v).map(drop)))?)
}

/// The handle of the variant's game: the one place where the game type is chosen. A missing
/// or unknown `game` is an error that lists the registered ones.
pub fn handle(variant: &Variant) -> Result<Box<dyn GameHandle>, Error> {
    struct Build<'a>(&'a Variant);
    impl GameVisitor for Build<'_> {
        type Output = Result<Box<dyn GameHandle>, Error>;
        fn visit<G: Registered>(self) -> Self::Output {
            Ok(Box::new(Handle::new(build::<G>(self.0)?)))
        }
    }
    if super::rules::is_rules_file(variant) {
        let game = super::rules::RulesGame::from_variant(variant)?;
        return Ok(Box::new(Handle::new(game)));
    }
    if variant.game.is_empty() {
        let message = format!("missing key `game`; allowed: {}", GAME_IDS.join(", "));
        return Err(VariantError::Invalid { at: Location::file(&variant.path), key: "game".into(), message }.into());
    }
    visit(&variant.game, Build(variant))
        .unwrap_or_else(|| Err(variant.provenance.invalid("game", format!("unknown game `{}`; allowed: {}", variant.game, GAME_IDS.join(", "))).into()))
}

/// The warnings a variant deserves for keys that can never take effect
/// ([`crate::engine::Game::unused_keys`]), each naming the file: "warning: FILE: KEY ...".
pub fn unused_key_warnings(game: &dyn GameHandle, variant: &Variant) -> Vec<String> {
    game.facts().unused_keys.iter().map(|w| format!("warning: {}: {w}", variant.path.display())).collect()
}
