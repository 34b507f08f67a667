//! Match Patch for `playtest audit`: its actions in the designer's words.

use super::Action;

/// Every kind of action.
pub fn kinds() -> Vec<&'static str> {
    vec!["draw from the pile", "take the oldest patch card", "take a newer patch card", "place a card"]
}

/// The kind of one action.
pub fn kind(action: &Action) -> &'static str {
    match *action {
        Action::Pile => "draw from the pile",
        Action::Take(0) => "take the oldest patch card",
        Action::Take(_) => "take a newer patch card",
        Action::Place(_) => "place a card",
    }
}
