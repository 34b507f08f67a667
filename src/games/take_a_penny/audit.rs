//! Take a Penny for `playtest audit`: its spots in the designer's words.

use super::{Choice, TakeAPenny};
use crate::engine::AuditHooks;

/// The spots by [`super::Action::code`]: 0-3, then 4 + color for take_from, 8 + color for give.
const SPOTS: [&str; 6] = ["take 1 and block", "take 2", "return 1", "block yourself", "take from a bank card", "give to a bank card"];

impl AuditHooks for TakeAPenny {
    /// Every kind of action.
    fn action_kinds(&self) -> Vec<&'static str> {
        SPOTS.to_vec()
    }

    /// The kind of one choice.
    fn action_kind(&self, choice: &Choice) -> &'static str {
        match choice.code() {
            c @ 0..4 => SPOTS[c as usize],
            4..8 => SPOTS[4],
            _ => SPOTS[5],
        }
    }
}
