//! Dice Factor for `playtest audit`: its actions in the designer's words.

use super::{Action, DiceFactor};
use crate::engine::AuditHooks;
use crate::games::chroma::{ALL_SHAPES, CARD_KINDS, COLOR_WILD, FIRST_ACTION, is_action, is_wild};

/// "discard <action card>" for the action cards 37..46 in canonical order.
const DISCARDS: [&str; 9] = [
    "discard skip",
    "discard reverse",
    "discard trade-one-card",
    "discard trade-hands",
    "discard add-a-card",
    "discard add-two-cards",
    "discard remove-a-card",
    "discard remove-two-cards",
    "discard the dice card",
];

impl AuditHooks for DiceFactor {
    /// Every kind of action this variant offers (action cards only when the deck holds them).
    fn action_kinds(&self) -> Vec<&'static str> {
        let mut out = vec!["draw from the pile", "take the discard", "roll the d8", "discard a plain card"];
        if (COLOR_WILD..=ALL_SHAPES).any(|c| self.copies[c as usize] > 0) {
            out.push("discard a wild");
        }
        let actions: Vec<usize> = (FIRST_ACTION as usize..CARD_KINDS).filter(|&c| self.copies[c] > 0).collect();
        out.extend(actions.iter().map(|&c| DISCARDS[c - FIRST_ACTION as usize]));
        if !actions.is_empty() {
            out.push("discard a taken action card (no effect)");
        }
        out.extend(["give a card (swap)", "trade hands", "reroll a die", "decline"]);
        out
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        match *action {
            Action::Draw => "draw from the pile",
            Action::TakeDiscard => "take the discard",
            Action::RollD8 => "roll the d8",
            Action::Discard(c) if is_action(c) => DISCARDS.get((c - FIRST_ACTION) as usize).copied().unwrap_or(""),
            Action::Discard(c) if is_wild(c) => "discard a wild",
            Action::Discard(_) => "discard a plain card",
            Action::DiscardTaken => "discard a taken action card (no effect)",
            Action::Give { .. } => "give a card (swap)",
            Action::TradeHands(_) => "trade hands",
            Action::Reroll(_) => "reroll a die",
            Action::Decline => "decline",
        }
    }
}
