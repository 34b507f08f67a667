//! A game's static facts ([`GameInfo`]) and the search's defaults for it ([`SearchDefaults`]).

use super::bots;

/// A game's static facts, one `const` value per game ([`Game::INFO`](super::Game::INFO)): what it is called,
/// how its games end and are counted, how its bots and the search start, and what the
/// engine may assume of its rules. Read by the registry, reports, the search and the
/// simulator, never changed by a variant (facts a variant can change are methods).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo {
    /// Game id used in variant files (`game = "..."`) and in `variants/<id>/`; written here
    /// only.
    pub id: &'static str,
    /// The game's name as its rulebook writes it ("Pig Farm").
    pub name: &'static str,
    /// End-reason names, indexed by [`Outcome::end_reason`](super::Outcome::end_reason).
    pub end_reasons: &'static [&'static str],
    /// Unit of [`Outcome::length`](super::Outcome::length) ("turns", "rounds").
    pub length_unit: &'static str,
    /// Unit of [`Game::standing`](super::Game::standing) ("pennies", "points").
    pub standing_unit: &'static str,
    /// The turn cap of the rulebook's game (a variant may set another: [`Game::turn_cap`](super::Game::turn_cap)).
    pub default_cap: u32,
    /// The bot every seat plays when the variant names none (also the `ismcts` rollout
    /// policy with `rollout=1`).
    pub default_bot: &'static str,
    /// The `ismcts` bot's defaults for this game.
    pub search: SearchDefaults,
    /// Whether a determinization can differ from the real state at all (false for a game
    /// whose only secret is future chance); the harness then expects samples to vary.
    pub hidden_state: bool,
    /// Whether seats can be eliminated (adds survival statistics).
    pub has_elimination: bool,
    /// Whether [`Game::deal_into`](super::Game::deal_into) resets a used state in place (set by games whose state
    /// owns buffers or is large: the simulator then keeps one state per batch of games and
    /// deals into it, with no allocation or copy of a fresh state per game).
    pub deals_in_place: bool,
    /// Whether the rules ever draw from the chance stream they are handed (`deal`,
    /// `apply`). A game without chance says `false`, and the simulator's quick games then do
    /// not seed that stream (the same games, since nothing is drawn from it; the tests
    /// compare quick games with checked ones, which seed every stream).
    pub draws_chance: bool,
}

impl GameInfo {
    /// The facts a game usually leaves as they are, for `..GameInfo::DEFAULTS` after the
    /// ones it must write (id, name, end reasons, units, cap, default bot): the engine's
    /// search defaults, hidden state, no elimination, a fresh state per deal, chance drawn.
    pub const DEFAULTS: GameInfo = GameInfo {
        id: "",
        name: "",
        end_reasons: &[],
        length_unit: "turns",
        standing_unit: "points",
        default_cap: 0,
        default_bot: bots::RANDOM,
        search: SearchDefaults::ENGINE,
        hidden_state: true,
        has_elimination: false,
        deals_in_place: false,
        draws_chance: true,
    };

    /// The bot of the `ismcts` seat's own part of a search ([`SearchDefaults::policy`],
    /// else the default bot).
    pub const fn search_policy(&self) -> &'static str {
        match self.search.policy {
            Some(bot) => bot,
            None => self.default_bot,
        }
    }
}

/// The `ismcts` bot's defaults for one game (each is also a bot parameter a seat can set).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// Default `depth`: actions per search iteration before it is cut off and scored by
    /// [`Game::standing`](super::Game::standing) (0: play every iteration to the end). 20 measured best across the
    /// games (docs/skill.md); a game whose standing misleads in mid-game sets its own.
    pub depth: u32,
    /// Default `rollout` policy (0: uniformly random, 1: the game's default bot), set by a
    /// game whose default bot plays rollouts measurably better.
    pub rollout: u32,
    /// Default `opponents` (0: searched in the tree, each maximising its own share; 1:
    /// played by the game's default bot, an opponent model), set by a game where modelling
    /// the table measured stronger (docs/skill.md).
    pub opponents: u32,
    /// The bot that plays the `ismcts` seat's own part of a search with `policy=1` (its
    /// default): the root's first try, the choice the search trusts (`trust`) and the seat's
    /// own moves in default-bot rollouts; `None`: the default bot. The opponents stay the
    /// default bot (the model of the table). A game names a stronger hand-written bot here
    /// when its default is a simple, exactly defined one (docs/skill.md).
    pub policy: Option<&'static str>,
}

impl SearchDefaults {
    /// The engine's defaults: depth 20, random rollouts, opponents searched, the default
    /// bot as the policy.
    pub const ENGINE: SearchDefaults = SearchDefaults { depth: 20, rollout: 0, opponents: 0, policy: None };
    /// What most games measured best: depth 20, rollouts and opponents played by the
    /// default bot.
    pub const MODELLED: SearchDefaults = SearchDefaults { depth: 20, rollout: 1, opponents: 1, policy: None };
}
