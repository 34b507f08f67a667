//! Pig Farm for `playtest audit`: its actions in the designer's words.

use super::{Action, Die, PigFarm};
use crate::engine::AuditHooks;

impl AuditHooks for PigFarm {
    /// Every kind of action.
    fn action_kinds(&self) -> Vec<&'static str> {
        vec!["sell the farm", "draw from the pile", "take the discard", "discard a pig", "roll the colors die", "roll the shapes die"]
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        match *action {
            Action::Sell => "sell the farm",
            Action::DrawPile => "draw from the pile",
            Action::TakeDiscard => "take the discard",
            Action::Discard(_) => "discard a pig",
            Action::Roll(Die::Colors) => "roll the colors die",
            Action::Roll(Die::Shapes) => "roll the shapes die",
        }
    }
}
