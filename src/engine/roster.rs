//! The roster of a game's bots: the engine's generic bots (`random`, `ismcts`) followed by
//! the game's own. Kept apart from [`super::bots`] and [`super::ismcts`] so that neither
//! needs the other's module to list every bot.

use super::Game;
use super::bots::{BotInfo, RandomBot};
use super::ismcts::Ismcts;

/// Every bot of game `G`: the generic bots the engine offers for every game (`random`), then
/// the game's own ([`Game::bots`]). Games never list the generic bots themselves.
pub fn all_bots<G: Game>() -> Vec<BotInfo<G>> {
    let mut bots = vec![RandomBot::info(), Ismcts::info()];
    bots.extend(G::bots());
    bots
}
