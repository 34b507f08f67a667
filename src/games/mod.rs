//! The games: the registry (one line per game) and the trait a game implements to be in it.
//! Everything above this module (reports, designer commands, `play`, CLI) is written once: it
//! reaches a game through [`handle`](fn@handle) (the object-safe [`GameHandle`], the one place
//! where a variant's game type is chosen) or [`entries`], both derived from the one list in
//! `registry!` below. [`visit`] hands the game type itself to per-type lookups of the registry
//! (bot docs, key tables) and to tests.
//!
//! Adding a game: its folder `src/games/<game>/` (rules, parameters, bots, metrics, tests,
//! and `impl Registered for TheGame`) plus one line in the `registry!` list.

#[cfg(test)]
mod belief_tests;
pub mod chance;
pub mod chroma;
pub mod deal;
pub mod handle;
pub mod key_table;
pub mod keys;
pub mod kind_counts;
pub mod rules;
pub mod seat_sweep;
pub mod simd;

use crate::engine::{BotInfo, BotParamInfo, BotSpec, Game, all_bots};
use crate::error::{Error, VariantError};
use crate::sim::SeatPlan;
use crate::sim::harness::{self, HarnessFailure, HarnessPlan};
use crate::variant::{SeatBots, Variant};
pub use handle::{GameHandle, SeatedGame, handle};
pub use seat_sweep::SeatSweep;

/// The one list of games. Each line names a game's module, its [`Registered`] type and its
/// folder of variants (which holds its rulebook's `standard.toml`); the
/// module is declared here, and every per-game lookup (the handle, ids, default bots, bot
/// docs, exact solvers, benchmark line-ups) is generated from this list.
macro_rules! registry {
    ($($module:ident :: $game:ident = $folder:literal),+ $(,)?) => {
        $(pub mod $module;)+

        /// Every game id a variant may name, in registry order.
        pub const GAME_IDS: &[&str] = &[$(<$module::$game as Game>::INFO.id),+];

        /// Runs `visitor` on the game type registered under `id`; `None` for an unknown id.
        pub fn visit<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
            $(if id == <$module::$game as Game>::INFO.id {
                return Some(visitor.visit::<$module::$game>());
            })+
            None
        }

        /// The text of game `id`'s rulebook variant (`variants/<id>/standard.toml`, embedded
        /// in the binary); `None` for an unknown id.
        fn standard_text(id: &str) -> Option<&'static str> {
            $(if id == <$module::$game as Game>::INFO.id {
                return Some(include_str!(concat!("../../variants/", $folder, "/standard.toml")));
            })+
            None
        }
    };
}

registry! {
    beaver_mania::BeaverMania = "beaver-mania",
    bluffing_joker::BluffingJoker = "bluffing-joker",
    dice_factor::DiceFactor = "dice-factor",
    flower_power::FlowerPower = "flower-power",
    match_patch::MatchPatch = "match-patch",
    penny_badger::PennyBadger = "penny-badger",
    pig_farm::PigFarm = "pig-farm",
    rainbow_rush::RainbowRush = "rainbow-rush",
    take_a_penny::TakeAPenny = "take-a-penny",
}

/// A game in the registry: how it is built from a variant and what optional capabilities it
/// offers (each has a default, so a game provides only what it has).
pub trait Registered: Game {
    /// Deserialises and checks the game's own keys.
    fn from_variant(variant: &Variant) -> Result<Self, VariantError>;
    /// Every key of the game's variant files with its default, range and meaning (`playtest
    /// rules`, `docs/games/<game>.md`); tied to `from_variant`'s loader by the game's tests.
    const KEYS: &'static [key_table::VariantKey] = &[];
    /// The benchmark line-up of `playtest bench` for this game: bot spec and `--set`
    /// overrides used when the command line gives none. Default: the default bot, no overrides.
    fn bench_lineup() -> BenchLineup {
        BenchLineup { bots: Self::INFO.default_bot, sets: &[] }
    }
    /// Bots the invariant harness does not play with every variant (each named bot is still
    /// played by the harness on variants whose line-up seats it): for bots whose set-up alone
    /// takes seconds, such as an exact best response.
    const HARNESS_SKIPS: &'static [&'static str] = &[];
    /// Variant keys the rules read only to score (patterns as [`BotInfo::reads`]): changing
    /// one changes no legal action and no turn order, so with bots that do not read it the
    /// same games are played and only who wins can move (tested in [`keys`]). Default: none.
    const SCORE_KEYS: &'static [&'static str] = &[];
    /// Variant keys that set the table's shape rather than tune the rules (players, rounds of
    /// a match): the audit steps them apart from the tuning keys. Default: `players`.
    const STRUCTURAL_KEYS: &'static [&'static str] = &["players"];
    /// The game's parameters with this variant's values, as a variant table, for games whose
    /// keys are declared at run time (a rules file: its `[parameters]`, not the file's own
    /// structure): what `audit` steps and `tune` may move. `None`: the variant's own table.
    fn parameter_table(&self) -> Option<toml::Table> {
        None
    }
    /// Whether [`Registered::exact`] is implemented (listed by `playtest list`).
    const HAS_EXACT_SOLVER: bool = false;
    /// The exact solution of this game (`playtest exact`, the exact chart of `report`), for
    /// games with a solver: `None` when the game has none. `labels` are the acting seats' bot
    /// specs; `max_states` bounds the state space.
    fn exact(&self, _variant: &Variant, _labels: &[String], _max_states: u64) -> Option<Result<ExactReport, Error>> {
        None
    }
    /// Charts of one seat's bot parameter swept against fixed opponents, which need
    /// simulations of their own beyond the report's run (see [`seat_sweep`]). Default: none.
    const SEAT_SWEEPS: &'static [SeatSweep] = &[];
    /// The charts of [`Registered::SEAT_SWEEPS`], appended to the game's charts by `report`:
    /// `games` games per point, from `seed`, on `threads` threads.
    fn extra_charts(&self, _variant: &Variant, games: u64, seed: u64, threads: usize) -> Result<Vec<crate::engine::ChartSpec>, Error> {
        Self::SEAT_SWEEPS.iter().map(|sweep| seat_sweep::chart(self, sweep, games, seed, threads)).collect()
    }
}

/// The benchmark line-up a game names for `playtest bench`.
#[derive(Clone, Copy, Debug)]
pub struct BenchLineup {
    /// Bot spec for every seat (`basic:bluff=0.3:challenge=0.3`).
    pub bots: &'static str,
    /// `--set` overrides (`deck.action_sets=0`).
    pub sets: &'static [&'static str],
}

/// Something done with a game type chosen at run time by id (see [`visit`]).
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs with the game type `G`.
    fn visit<G: Registered>(self) -> Self::Output;
}

/// What `playtest list` and the docs show of one registered game.
#[derive(Clone, Debug)]
pub struct GameEntry {
    /// Game id.
    pub id: &'static str,
    /// The bot of seats a variant leaves unset.
    pub default_bot: &'static str,
    /// Every bot (generic ones first): (name with aliases, doc, parameters).
    pub bots: Vec<(String, String, Vec<BotParamInfo>)>,
    /// Whether `playtest exact` can solve this game.
    pub has_exact: bool,
    /// The benchmark line-up.
    pub bench: BenchLineup,
}

/// Every registered game, in registry order.
pub fn entries() -> Vec<GameEntry> {
    GAME_IDS.iter().filter_map(|id| entry(id)).collect()
}

/// Game `G` as its rulebook's variant sets it up (`variants/<id>/standard.toml`, embedded):
/// the game value that the registry's lookups by id read (its bots for `playtest list`, the
/// keys its bots read). Every registered game's builds (tested).
pub fn standard<G: Registered>() -> Result<G, Error> {
    let id = G::INFO.id;
    let text = standard_text(id).ok_or_else(|| Error::Usage(format!("unknown game `{id}`")))?;
    let path = std::path::PathBuf::from(format!("variants/{id}/standard.toml"));
    Ok(G::from_variant(&Variant::from_toml_str(&path, text)?)?)
}

/// The registry entry of game `id`; `None` for an unknown id.
pub fn entry(id: &str) -> Option<GameEntry> {
    struct Describe;
    impl GameVisitor for Describe {
        type Output = GameEntry;
        fn visit<G: Registered>(self) -> GameEntry {
            let bots = standard::<G>().map(|game| bot_docs(all_bots(&game))).unwrap_or_default();
            GameEntry { id: G::INFO.id, default_bot: G::INFO.default_bot, bots, has_exact: G::HAS_EXACT_SOLVER, bench: G::bench_lineup() }
        }
    }
    visit(id, Describe)
}

fn bot_docs<G: Game>(bots: Vec<BotInfo<G>>) -> Vec<(String, String, Vec<BotParamInfo>)> {
    bots.into_iter()
        .map(|b| {
            let mut name = b.name.to_string();
            for (alias, _) in b.aliases {
                name.push_str(&format!(" (alias: {alias})"));
            }
            (name, b.doc.to_string(), b.params.to_vec())
        })
        .collect()
}

/// The exact report of a variant (`playtest exact`), for the games that have a solver.
pub use crate::engine::exact::ExactReport;

/// Solves the variant exactly with one bot label per acting seat (`random`, ...), for the
/// games that have an exact solver; `max_states` bounds the state space.
pub fn exact(variant: &Variant, labels: &[String], max_states: u64) -> Result<ExactReport, Error> {
    match handle(variant)?.exact(variant, labels, max_states) {
        Some(report) => report,
        None => {
            let with: Vec<&str> = entries().into_iter().filter(|e| e.has_exact).map(|e| e.id).collect();
            Err(Error::Usage(format!("`{}` has no exact solver; games with one: {}", variant.game, with.join(", "))))
        }
    }
}

/// The variant keys of game `id` (see [`Registered::KEYS`]); `None` for an unknown id.
pub fn variant_keys(id: &str) -> Option<&'static [key_table::VariantKey]> {
    struct Keys;
    impl GameVisitor for Keys {
        type Output = &'static [key_table::VariantKey];
        fn visit<G: Registered>(self) -> Self::Output {
            G::KEYS
        }
    }
    visit(id, Keys)
}

/// The bot every seat plays when a variant of game `id` names none (`None`: unknown game).
pub fn default_bot(id: &str) -> Option<&'static str> {
    entry(id).map(|e| e.default_bot)
}

/// Most decisions of the game whose JSON trace [`check_rules`] round-trips (a longer game is
/// checked up to there: its trace replays until it stops).
pub const TRACE_CHECK_DECISIONS: u64 = 200;

/// Deals into a used state the harness compares with new deals, per variant.
pub const DEAL_IN_PLACE_CHECKS: u64 = 40;

/// Runs the invariant harness ([`crate::sim::harness`]) on the variant's game with every
/// bot it offers, its deal in place matches a new deal, and a JSON trace of the variant's own
/// line-up round-trips through `replay`:
/// `Ok(Err(..))` is a broken rule with the seed that shows it, `Err` a variant
/// that does not build. Used by the tests (every game, every bundled variant) and `check`.
pub fn check_rules(variant: &Variant, plan: HarnessPlan) -> Result<Result<u64, HarnessFailure>, Error> {
    handle(variant)?.check_rules(variant, plan)
}

/// [`check_rules`] on game `G` built from `variant`.
fn check_game<G: Registered>(game: &G, variant: &Variant, plan: HarnessPlan) -> Result<Result<u64, HarnessFailure>, Error> {
    let every = match harness::check_every_bot(game, plan, G::HARNESS_SKIPS) {
        Ok(n) => n,
        Err(failure) => return Ok(Err(failure)),
    };
    // The simulator's deal in place is the deal.
    if let Err(failure) = harness::check_deal_in_place(game, plan.seed, DEAL_IN_PLACE_CHECKS) {
        return Ok(Err(failure));
    }
    // And the variant's own line-up, as `simulate` would seat it.
    let plans = seat_plans(game, variant, None, G::INFO.default_bot)?;
    let label = plans.iter().map(|p| p.label.as_str()).collect::<Vec<_>>().join(",");
    let mut bots: Vec<Box<dyn crate::engine::Bot<G>>> = plans.iter().map(|p| (p.build)(game, &p.values)).collect();
    let checked = match harness::check_bots(game, &label, &mut bots, plan) {
        Ok(n) => n + every,
        Err(failure) => return Ok(Err(failure)),
    };
    // Traces of the variant's line-up replay through the engine (trace -> replay).
    Ok(harness::check_trace_round_trip(game, &label, &mut bots, plan.seed, TRACE_CHECK_DECISIONS).map(|_| checked))
}

/// The bots of every seat: `--bots` when given, else the variant's, else the game's default.
/// One spec serves every seat; otherwise there must be one per acting seat.
pub fn seat_plans<G: Game>(game: &G, variant: &Variant, cli: Option<&[BotSpec]>, default_bot: &str) -> Result<Vec<SeatPlan<G>>, Error> {
    let n = game.acting_seats();
    let infos = all_bots(game);
    let (specs, key): (Vec<BotSpec>, Option<&str>) = match (cli, &variant.seats) {
        (Some(specs), _) => (specs.to_vec(), None),
        (None, SeatBots::All(spec)) => (vec![spec.clone()], Some("bots")),
        (None, SeatBots::PerSeat(specs)) => (specs.clone(), Some("seats")),
        (None, SeatBots::Default) => (vec![BotSpec::named(default_bot)], None),
    };
    let specs: Vec<BotSpec> = match specs.len() {
        1 => vec![specs[0].clone(); n],
        k if k == n => specs,
        k => {
            let message = format!("{k} bots given for {n} seats; give one bot for every seat or exactly one per seat");
            return Err(match key {
                Some(key) => variant.provenance.invalid(key, message).into(),
                None => Error::Usage(format!("--bots: {message}")),
            });
        }
    };
    let plans = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            let (info, values) = spec.resolve(&infos).map_err(|e| -> Error {
                match (key, &variant.seats) {
                    (Some("seats"), _) => variant.provenance.invalid(&format!("seats.{seat}.bot"), e.to_string()).into(),
                    (Some(k), _) => variant.provenance.invalid(k, e.to_string()).into(),
                    (None, _) if cli.is_some() => Error::Usage(format!("--bots: {e}")),
                    (None, _) => Error::Usage(e.to_string()),
                }
            })?;
            Ok(SeatPlan { label: spec.label(), values, build: info.build })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let labels: Vec<String> = plans.iter().map(|p| p.label.clone()).collect();
    game.check_bots(&labels).map_err(Error::Usage)?;
    Ok(plans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Bot, PlayOptions, RANDOM, RandomBot, game_seed, play};

    /// Every table of one bot kind (the simulator's path for such line-ups, `random`
    /// included) plays exactly the games of the same bots boxed, and every game's `random`
    /// is the engine's bot. Seats get different parameter values to catch a mix-up.
    fn uniform_tables_match_boxed<G: Game>(game: &G) {
        let infos = all_bots(game);
        let random = infos.iter().find(|b| b.name == RANDOM).expect("every game offers `random`");
        assert_eq!(random.doc, RandomBot::<G>::info().doc, "{}: `random` must be the engine's RandomBot", game.id());
        let seats = game.acting_seats();
        for info in infos.iter().filter(|b| b.uniform.is_some()) {
            let values: Vec<Vec<f64>> = (0..seats)
                .map(|seat| info.params.iter().map(|p| if seat == 0 { p.default } else { p.min + (p.max - p.min) * seat as f64 / 8.0 }).collect())
                .collect();
            let mut boxed: Vec<Box<dyn Bot<G>>> = values.iter().map(|v| (info.build)(game, v)).collect();
            let mut table = (info.uniform.expect("filtered"))(game, &values);
            // The simulator's state, dealt into game after game (`Game::deal_into`).
            let mut scratch = None;
            for index in 0..80 {
                let seed = game_seed(7, index);
                let a = play(game, &mut boxed, seed, PlayOptions { checked: true }, None, None).expect("legal");
                let b = table.play(game, seed, PlayOptions { checked: true }, None, None).expect("legal");
                let c = table.play(game, seed, PlayOptions::default(), None, None).expect("legal");
                let d = table.play_reusing(game, seed, PlayOptions::default(), &mut scratch).expect("legal");
                assert_eq!(a, b, "{} bot {} game {index}", game.id(), info.name);
                assert_eq!(a, c, "{} bot {} game {index} (quick loop)", game.id(), info.name);
                assert_eq!(a, d, "{} bot {} game {index} (quick loop dealing into a used state)", game.id(), info.name);
            }
        }
    }

    /// Every game's static facts hold for its rulebook's game: a unique id with a folder of
    /// variants, a name, end reasons, and the default cap that `standard.toml` plays.
    #[test]
    fn every_game_info_matches_its_standard_variant() {
        struct Info<'a>(&'a Variant);
        impl GameVisitor for Info<'_> {
            type Output = ();
            fn visit<G: Registered>(self) {
                let game = G::from_variant(self.0).expect("builds");
                let info = G::INFO;
                assert!(!info.name.is_empty() && !info.end_reasons.is_empty(), "{}: name and end reasons", info.id);
                assert_eq!(game.turn_cap(), info.default_cap, "{}: standard.toml plays the default cap", info.id);
                assert!(all_bots(&game).iter().any(|b| b.name == info.default_bot), "{}: default bot", info.id);
                assert!(all_bots(&game).iter().any(|b| b.name == info.search_policy()), "{}: search policy", info.id);
                // The embedded rulebook's variant (the registry's lookups by id) is this file.
                let embedded = standard::<G>().unwrap_or_else(|e| panic!("{}: the embedded standard.toml: {e}", info.id));
                assert_eq!(
                    embedded.observation(
                        &embedded.deal(&mut <crate::engine::GameRng as crate::engine::SeedFrom>::seed_from(7), &mut crate::engine::EventLog::new(false)),
                        0
                    ),
                    game.observation(
                        &game.deal(&mut <crate::engine::GameRng as crate::engine::SeedFrom>::seed_from(7), &mut crate::engine::EventLog::new(false)),
                        0
                    ),
                    "{}: the embedded standard.toml",
                    info.id
                );
                let names = |bots: Vec<BotInfo<G>>| bots.iter().map(|b| b.name).collect::<Vec<_>>();
                assert_eq!(names(all_bots(&embedded)), names(all_bots(&game)), "{}: bots", info.id);
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for id in GAME_IDS {
            assert!(seen.insert(*id), "{id}: registered twice");
            let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(id).join("standard.toml");
            visit(id, Info(&Variant::load(&file, &[]).expect("loads"))).expect("registered");
        }
    }

    /// Every registered game on every one of its bundled variants.
    #[test]
    fn uniform_line_ups_play_the_same_games_as_boxed_bots() {
        struct Uniform<'a>(&'a Variant);
        impl GameVisitor for Uniform<'_> {
            type Output = ();
            fn visit<G: Registered>(self) {
                uniform_tables_match_boxed(&G::from_variant(self.0).expect("builds"));
            }
        }
        for id in GAME_IDS {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(id);
            let mut files: Vec<_> = std::fs::read_dir(&dir).expect("variants folder").flatten().map(|e| e.path()).collect();
            files.sort();
            for file in files.iter().filter(|f| f.extension().is_some_and(|x| x == "toml")) {
                let v = Variant::load(file, &[]).expect("loads");
                visit(id, Uniform(&v)).expect("registered");
            }
        }
    }
}
