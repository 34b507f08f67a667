//! The roster of a game's bots: the engine's generic bots (`random`, `ismcts`) followed by
//! the game's own. Kept apart from [`super::bots`] and [`super::ismcts`] so that neither
//! needs the other's module to list every bot.

use super::Game;
use super::bots::{BotInfo, RandomBot};
use super::ismcts::Ismcts;

/// Every bot of `game`: the generic bots the engine offers for every game (`random`,
/// `ismcts`), then the game's own ([`OwnBots::bots`](super::OwnBots::bots), read from the
/// game value: a rules file lists its own file's bots). Games never list the generic bots
/// themselves.
pub fn all_bots<G: Game>(game: &G) -> Vec<BotInfo<G>> {
    let mut bots = vec![RandomBot::info(), Ismcts::info()];
    bots.extend(game.bots());
    bots
}
