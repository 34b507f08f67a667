//! The games, and the one explicit `match` that turns a variant's `game` key into a game.
//! Everything above this module (simulator, statistics, reports, CLI) is generic.

pub mod chroma;
pub mod penny_badger;
pub mod pig_farm;
pub mod take_a_penny;

use crate::engine::{BotSpec, Game};
use crate::error::{Error, VariantError};
use crate::sim::SeatPlan;
use crate::variant::{SeatBots, Variant};

/// Every game id a variant may name.
pub const GAME_IDS: &[&str] = &[penny_badger::ID, pig_farm::ID, take_a_penny::ID];

/// A command that can run on any game: the CLI implements one per subcommand.
pub trait GameCommand {
    /// What the command returns.
    type Output;
    /// Runs on the game built from the variant (`G: FromVariant`, so a command can build a
    /// second game of the same type from another variant, as `compare` and `sweep` do).
    fn run<G: FromVariant>(self, game: G, variant: &Variant) -> Result<Self::Output, Error>;
}

/// A game that can be built from a variant.
pub trait FromVariant: Game {
    /// The bot every seat plays when the variant names none.
    const DEFAULT_BOT: &'static str;
    /// Deserialises and checks the game's own keys.
    fn from_variant(variant: &Variant) -> Result<Self, VariantError>;
}

impl FromVariant for penny_badger::PennyBadger {
    const DEFAULT_BOT: &'static str = "basic";
    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        let params = variant.game_params()?;
        penny_badger::PennyBadger::new(params).map_err(|p| variant.invalid(p))
    }
}

impl FromVariant for pig_farm::PigFarm {
    const DEFAULT_BOT: &'static str = "threshold";
    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        let params = variant.game_params()?;
        pig_farm::PigFarm::new(params).map_err(|p| variant.invalid(p))
    }
}

impl FromVariant for take_a_penny::TakeAPenny {
    const DEFAULT_BOT: &'static str = "random";
    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        let params = variant.game_params()?;
        take_a_penny::TakeAPenny::new(params).map_err(|p| variant.invalid(p))
    }
}

/// The exact report of a variant (`playtest exact`), for the games that have a solver.
pub use take_a_penny::exact::ExactReport;

/// Solves the variant exactly with one bot label per acting seat (`random`, ...), for the
/// games that have an exact solver; `max_states` bounds the state space.
pub fn exact(variant: &Variant, labels: &[String], max_states: u64) -> Result<ExactReport, Error> {
    match variant.game.as_str() {
        take_a_penny::ID => {
            let game = take_a_penny::TakeAPenny::from_variant(variant)?;
            take_a_penny::exact::report(take_a_penny::ID, &variant.name, &game.setup, labels, max_states).map_err(Error::Usage)
        }
        other => Err(Error::Usage(format!("`{other}` has no exact solver; games with one: {}", take_a_penny::ID))),
    }
}

/// The bot every seat plays when a variant of game `id` names none.
pub fn default_bot(id: &str) -> &'static str {
    match id {
        penny_badger::ID => <penny_badger::PennyBadger as FromVariant>::DEFAULT_BOT,
        pig_farm::ID => <pig_farm::PigFarm as FromVariant>::DEFAULT_BOT,
        take_a_penny::ID => <take_a_penny::TakeAPenny as FromVariant>::DEFAULT_BOT,
        _ => "random",
    }
}

/// (name, doc, parameters) of every bot of game `id`, for `playtest list`.
pub fn bot_docs(id: &str) -> Vec<(String, String, Vec<crate::engine::BotParamInfo>)> {
    fn docs<G: Game>(bots: Vec<crate::engine::BotInfo<G>>) -> Vec<(String, String, Vec<crate::engine::BotParamInfo>)> {
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
    match id {
        penny_badger::ID => docs(<penny_badger::PennyBadger as Game>::bots()),
        pig_farm::ID => docs(<pig_farm::PigFarm as Game>::bots()),
        take_a_penny::ID => docs(<take_a_penny::TakeAPenny as Game>::bots()),
        _ => Vec::new(),
    }
}

/// Builds the variant's game and runs `command` on it.
pub fn dispatch<C: GameCommand>(variant: &Variant, command: C) -> Result<C::Output, Error> {
    match variant.game.as_str() {
        penny_badger::ID => command.run(penny_badger::PennyBadger::from_variant(variant)?, variant),
        pig_farm::ID => command.run(pig_farm::PigFarm::from_variant(variant)?, variant),
        take_a_penny::ID => command.run(take_a_penny::TakeAPenny::from_variant(variant)?, variant),
        other => Err(variant
            .provenance
            .invalid("game", format!("unknown game `{other}`; allowed: {}", GAME_IDS.join(", ")))
            .into()),
    }
}

/// The bots of every seat: `--bots` when given, else the variant's, else the game's default.
/// One spec serves every seat; otherwise there must be one per acting seat.
pub fn seat_plans<G: Game>(game: &G, variant: &Variant, cli: Option<&[BotSpec]>, default_bot: &str) -> Result<Vec<SeatPlan<G>>, Error> {
    let n = game.acting_seats();
    let infos = G::bots();
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
        let infos = G::bots();
        let random = infos.iter().find(|b| b.name == RANDOM).expect("every game offers `random`");
        assert_eq!(random.doc, RandomBot::<G>::info().doc, "{}: `random` must be the engine's RandomBot", game.id());
        let seats = game.acting_seats();
        for info in infos.iter().filter(|b| b.uniform.is_some()) {
            let values: Vec<Vec<f64>> = (0..seats)
                .map(|seat| info.params.iter().map(|p| if seat == 0 { p.default } else { p.min + (p.max - p.min) * seat as f64 / 8.0 }).collect())
                .collect();
            let mut boxed: Vec<Box<dyn Bot<G>>> = values.iter().map(|v| (info.build)(game, v)).collect();
            let mut table = (info.uniform.expect("filtered"))(game, &values);
            for index in 0..200 {
                let seed = game_seed(7, index);
                let a = play(game, &mut boxed, seed, PlayOptions { checked: true }, None, None).expect("legal");
                let b = table.play(game, seed, PlayOptions { checked: true }, None, None).expect("legal");
                let c = table.play(game, seed, PlayOptions::default(), None, None).expect("legal");
                assert_eq!(a, b, "{} bot {} game {index}", game.id(), info.name);
                assert_eq!(a, c, "{} bot {} game {index} (quick loop)", game.id(), info.name);
            }
        }
    }

    fn variant(file: &str) -> Variant {
        Variant::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(file), &[]).expect("loads")
    }

    #[test]
    fn uniform_line_ups_play_the_same_games_as_boxed_bots() {
        let v = variant("penny-badger/standard.toml");
        uniform_tables_match_boxed(&penny_badger::PennyBadger::from_variant(&v).expect("valid"));
        let v = variant("pig-farm/standard.toml");
        uniform_tables_match_boxed(&pig_farm::PigFarm::from_variant(&v).expect("valid"));
        for file in ["take-a-penny/standard.toml", "take-a-penny/three-players.toml", "take-a-penny/two-players.toml"] {
            uniform_tables_match_boxed(&take_a_penny::TakeAPenny::from_variant(&variant(file)).expect("valid"));
        }
    }
}
