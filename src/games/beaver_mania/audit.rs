//! Beaver Mania for `playtest audit`: its actions in the designer's words (a play by its form
//! and the action card it carries).

use super::cards::{ACTIONS, BAD_GUY, FAIRY, HIPPIE, JOKER, PARTYBEAVER, SUPERBEAVER, THIEF};
use super::plays::{NO_CARD, Play};
use super::{Action, BeaverMania, Source};
use crate::engine::AuditHooks;

/// "play <action card> with a group" and "play <action card> alone", in canonical order.
const WITH: [&str; 8] = [
    "play superbeaver with a group",
    "play thief with a group",
    "play fairy with a group",
    "play partybeaver with a group",
    "play hippie with a group",
    "play bad guy with a group",
    "play bodyguard with a group",
    "play king with a group",
];
const ALONE: [&str; 8] = [
    "play superbeaver alone",
    "play thief alone",
    "play fairy alone",
    "play partybeaver alone",
    "play hippie alone",
    "play bad guy alone",
    "play bodyguard alone",
    "play king alone",
];

impl AuditHooks for BeaverMania {
    /// Every kind of action this variant offers (action cards only when the deck holds them).
    fn action_kinds(&self) -> Vec<&'static str> {
        let has = |c: u8| self.copies[c as usize] > 0;
        let mut out = vec!["play a group of numbers"];
        if has(JOKER) {
            out.extend(["play a group with jokers", "play jokers alone"]);
        }
        for (i, &c) in ACTIONS.iter().enumerate() {
            // The Partybeaver never joins a group (it is played alone or with three numbers).
            if has(c) && c != PARTYBEAVER {
                out.push(WITH[i]);
            }
            if has(c) {
                out.push(ALONE[i]);
            }
        }
        if has(HIPPIE) {
            out.push("play a hippie run");
        }
        out.push("play a plain run");
        if has(PARTYBEAVER) {
            out.push("play the partybeaver with three numbers");
        }
        out.extend(["stab the display", "take the stabbed play", "put the stabbed play away"]);
        if has(SUPERBEAVER) || has(THIEF) {
            out.extend(["steal from the display", "steal from the stock", "steal from a pile"]);
        }
        if has(FAIRY) {
            out.push("wish a card (fairy)");
        }
        if has(BAD_GUY) {
            out.push("choose the bad guy's victim");
        }
        out.extend(["draw from the draw pile", "take a stock card"]);
        out
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        let action_index = |c: u8| ACTIONS.iter().position(|&a| a == c);
        match *action {
            Action::Play(Play::Group { action, .. }) if action != NO_CARD => action_index(action).map_or("", |i| WITH[i]),
            Action::Play(Play::Group { jokers, .. }) if jokers > 0 => "play a group with jokers",
            Action::Play(Play::Group { .. }) => "play a group of numbers",
            Action::Play(Play::Jokers { .. }) => "play jokers alone",
            Action::Play(Play::HippieRun { .. }) => "play a hippie run",
            Action::Play(Play::PlainRun { .. }) => "play a plain run",
            Action::Play(Play::Party { .. }) => "play the partybeaver with three numbers",
            Action::Play(Play::Lone { card }) => action_index(card).map_or("", |i| ALONE[i]),
            Action::StabDisplay(_) => "stab the display",
            Action::Take(true) => "take the stabbed play",
            Action::Take(false) => "put the stabbed play away",
            Action::Steal { from: Source::Display, .. } => "steal from the display",
            Action::Steal { from: Source::Stock, .. } => "steal from the stock",
            Action::Steal { .. } => "steal from a pile",
            Action::Fairy { .. } => "wish a card (fairy)",
            Action::BadGuy { .. } => "choose the bad guy's victim",
            Action::Supply { from: Source::Stock, .. } => "take a stock card",
            Action::Supply { .. } => "draw from the draw pile",
        }
    }
}
