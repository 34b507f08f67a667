//! Rainbow Rush for `playtest audit`: its actions in the designer's words.

use super::{Action, RainbowRush};
use crate::engine::AuditHooks;
use crate::games::chroma::{ALL_SHAPES, COLOR_WILD, is_wild};

impl AuditHooks for RainbowRush {
    /// Every kind of action this variant offers (wild plays only when the deck holds wilds).
    fn action_kinds(&self) -> Vec<&'static str> {
        let wilds = (COLOR_WILD..=ALL_SHAPES).any(|c| self.copies.get(c as usize).is_some_and(|&n| n > 0));
        let mut out = vec!["draw from the pile", "take the discard", "add a plain card to the row"];
        if wilds {
            out.push("add a wild to the row");
        }
        out.extend(["replace a row card", "discard a card"]);
        if wilds && self.params.sabotage {
            out.push("sabotage with a wild");
        }
        out
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        match *action {
            Action::DrawPile => "draw from the pile",
            Action::TakeDiscard => "take the discard",
            Action::Add(c) if is_wild(c) => "add a wild to the row",
            Action::Add(_) => "add a plain card to the row",
            Action::Replace { .. } => "replace a row card",
            Action::Discard(_) => "discard a card",
            Action::Sabotage { .. } => "sabotage with a wild",
        }
    }
}
