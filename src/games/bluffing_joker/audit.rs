//! Bluffing Joker for `playtest audit`: its actions in the designer's words (a play by its
//! move and whether the declaration is true).

use super::{Action, BluffingJoker};
use crate::engine::AuditHooks;
use crate::games::bluffing_joker::board::Move;

/// Move kinds of a play: truthful, then bluffed.
const PLAYS: [[&str; 5]; 2] = [
    ["come out", "move forward", "move back (8)", "split a 7", "jump (joker)"],
    ["come out (bluff)", "move forward (bluff)", "move back (8) (bluff)", "split a 7 (bluff)", "jump (joker) (bluff)"],
];

impl AuditHooks for BluffingJoker {
    /// Every kind of action this variant offers (bluffs only when bluffing is allowed).
    fn action_kinds(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = PLAYS[0].to_vec();
        if self.params.doubt.bluffing {
            out.extend(PLAYS[1]);
        }
        out.extend(["discard and draw", "doubt", "let it pass", "choose the peg sent back"]);
        out
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        match *action {
            Action::Play { card, declared, mv } => {
                let m = match mv {
                    Move::ComeOut => 0,
                    Move::Forward { .. } => 1,
                    Move::Back { .. } => 2,
                    Move::Split { .. } => 3,
                    Move::Jump { .. } => 4,
                };
                PLAYS[usize::from(card != declared)][m]
            }
            Action::Discard { .. } => "discard and draw",
            Action::Doubt => "doubt",
            Action::Pass => "let it pass",
            Action::SendBack { .. } => "choose the peg sent back",
        }
    }
}
