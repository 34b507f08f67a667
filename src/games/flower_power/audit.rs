//! Flower Power for `playtest audit`: a play by the number of cards it plays.

use super::{Action, FlowerPower};
use crate::engine::AuditHooks;

/// "play k card(s)" for k = 0..=16.
const PLAYS: [&str; 17] = [
    "play no card",
    "play 1 card",
    "play 2 cards",
    "play 3 cards",
    "play 4 cards",
    "play 5 cards",
    "play 6 cards",
    "play 7 cards",
    "play 8 cards",
    "play 9 cards",
    "play 10 cards",
    "play 11 cards",
    "play 12 cards",
    "play 13 cards",
    "play 14 cards",
    "play 15 cards",
    "play 16 cards",
];

impl AuditHooks for FlowerPower {
    /// Plays of 1 to `max_play` cards.
    fn action_kinds(&self) -> Vec<&'static str> {
        PLAYS.iter().take(self.max_play.min(PLAYS.len() - 1) + 1).skip(1).copied().collect()
    }

    /// The kind of one play.
    fn action_kind(&self, action: &Action) -> &'static str {
        PLAYS.get(action.0.count_ones() as usize).copied().unwrap_or("")
    }
}
