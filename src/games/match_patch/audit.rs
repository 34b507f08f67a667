//! Match Patch for `playtest audit`: its actions in the designer's words.

use super::{Action, MatchPatch};
use crate::engine::AuditHooks;

impl AuditHooks for MatchPatch {
    /// Every kind of action.
    fn action_kinds(&self) -> Vec<&'static str> {
        vec!["draw from the pile", "take the oldest patch card", "take a newer patch card", "place a card"]
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        match *action {
            Action::Pile => "draw from the pile",
            Action::Take(0) => "take the oldest patch card",
            Action::Take(_) => "take a newer patch card",
            Action::Place(_) => "place a card",
        }
    }
}
