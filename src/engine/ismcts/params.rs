//! The `ismcts` bot's parameters as a seat writes them (`ismcts:iterations=200,model=default`):
//! one table of names, defaults, ranges and help ([`table`], what `playtest bots` prints and
//! specs are checked against), read once by name into a [`SearchParams`] when a bot is built.

use super::super::Game;
use super::super::bots::BotParamInfo;

/// The table's rows for game `G` (its `rollout`, `depth` and `opponents` defaults are the
/// game's own, [`crate::engine::GameInfo::search`]).
struct Table<G>(std::marker::PhantomData<G>);

impl<G: Game> Table<G> {
    const ROWS: &'static [BotParamInfo] = &[
        BotParamInfo { name: "iterations", default: 1000.0, min: 1.0, max: 10_000_000.0, doc: "search iterations per decision" },
        BotParamInfo { name: "c", default: 0.7, min: 0.0, max: 100.0, doc: "UCB1 exploration constant" },
        BotParamInfo {
            name: "rollout",
            default: G::INFO.search.rollout as f64,
            min: 0.0,
            max: 1.0,
            doc: "rollout policy: 0 uniformly random, 1 the game's default bot (default: the game's own)",
        },
        BotParamInfo {
            name: "depth",
            default: G::INFO.search.depth as f64,
            min: 0.0,
            max: 1_000_000.0,
            doc: "actions per iteration before it is cut off and scored by the standing (leaders win; 0: play to the end; default: the game's own)",
        },
        BotParamInfo {
            name: "opponents",
            default: G::INFO.search.opponents as f64,
            min: 0.0,
            max: 1.0,
            doc: "opponents in the tree: 0 searched like its own choices (each maximises its own share), 1 played by the game's default bot (an opponent model); default: the game's own",
        },
        BotParamInfo {
            name: "trust",
            default: 1.0,
            min: 0.0,
            max: 10.0,
            doc: "with a default bot in play (rollout or opponents 1): its choice stands unless the search's beats it by more than this many standard errors (with `model=auto`, see `bar`; 0: the most visited action)",
        },
        BotParamInfo {
            name: "policy",
            default: 1.0,
            min: 0.0,
            max: 1.0,
            doc: "the seat's own prior and rollout moves: 0 the game's default bot, 1 the game's search policy (a stronger hand-written bot where the game names one)",
        },
        BotParamInfo {
            name: "model",
            default: 1.0,
            min: 0.0,
            max: 1.0,
            doc: "opponents: `auto` (1, the default) played by models inferred from their play so far, hidden cards weighted by what was done with them; `default` (0) as `opponents` says (the search before `auto`, for comparison)",
        },
        BotParamInfo {
            name: "bar",
            default: 2.0,
            min: 0.0,
            max: 2.0,
            doc: "with `model=auto`, how the search's pick must beat the prior: 2 (the default) by twice `trust` standard errors of paired playouts from both after the search (a fifth of the iterations, kept back for it); 0 by twice `trust` standard errors on root means shrunk toward the pack by their spread beyond noise; 1 by `trust` standard errors times twice the luck of the best of k legal actions",
        },
    ];
}

/// The `ismcts` bot's parameters for game `G`, in the order of [`SearchParams::from_values`]'s
/// values: names, defaults, ranges and one line of help each.
pub fn table<G: Game>() -> &'static [BotParamInfo] {
    Table::<G>::ROWS
}

/// How rollouts choose their actions (`rollout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// `rollout=0`: uniformly random legal actions.
    Random,
    /// `rollout=1`: the game's default bot in every seat.
    DefaultBot,
}

/// How the search models the other seats (`model`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// `model=default` (0): as `opponents` says; the search before `auto`, kept for comparison.
    Default,
    /// `model=auto` (1): each opponent played by a model inferred from its play so far, on
    /// samples weighted by what the table did ([`crate::engine::belief`]).
    Auto,
}

/// How `model=auto`'s pick must beat the prior (`bar`; the module doc of
/// [`crate::engine::ismcts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bar {
    /// `bar=0`: means shrunk toward the pack by their spread beyond noise.
    Shrunk,
    /// `bar=1`: a fixed bar for the luck of the best of k noisy means.
    Luck,
    /// `bar=2`: paired playouts after the search (the duel).
    Duel,
}

/// The `ismcts` bot's parameters by name: what [`table`] documents, read once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// `iterations`: search iterations per decision (at least 1).
    pub iterations: u32,
    /// `c`: the UCB1 exploration constant.
    pub exploration: f64,
    /// `rollout`: how rollouts choose their actions.
    pub rollout: Rollout,
    /// `depth`: actions per iteration before it is cut off and scored by the standing (0:
    /// play every iteration to the end).
    pub depth: u32,
    /// `opponents=1`: with `model=default`, opponents are played by the game's default bot
    /// (an opponent model) rather than searched.
    pub opponents: bool,
    /// `trust`: standard errors by which the search must beat the prior (0: off).
    pub trust: f64,
    /// `policy=1`: the seat's own prior and rollout moves are the game's search policy
    /// ([`crate::engine::SearchDefaults::policy`]), not its default bot.
    pub policy: bool,
    /// `model`: how the other seats are modelled.
    pub model: Model,
    /// `bar`: with `model=auto`, how the search's pick must beat the prior.
    pub bar: Bar,
}

impl SearchParams {
    /// Every parameter at game `G`'s default ([`table`]).
    pub fn defaults<G: Game>() -> SearchParams {
        let values: Vec<f64> = table::<G>().iter().map(|p| p.default).collect();
        SearchParams::from_values::<G>(&values)
    }

    /// The parameters from complete values in [`table`]'s order (checked against its ranges
    /// by the spec parser before any bot is built), each read by its name.
    pub fn from_values<G: Game>(values: &[f64]) -> SearchParams {
        let rows = table::<G>();
        let get = |name: &str| values[rows.iter().position(|p| p.name == name).expect("a parameter of the table")];
        SearchParams {
            iterations: get("iterations") as u32,
            exploration: get("c"),
            rollout: if get("rollout") as u32 == 0 { Rollout::Random } else { Rollout::DefaultBot },
            depth: get("depth") as u32,
            opponents: get("opponents") as u32 != 0,
            trust: get("trust"),
            policy: get("policy") as u32 != 0,
            model: if get("model") != 0.0 { Model::Auto } else { Model::Default },
            bar: match get("bar") as u32 {
                0 => Bar::Shrunk,
                1 => Bar::Luck,
                _ => Bar::Duel,
            },
        }
    }
}
