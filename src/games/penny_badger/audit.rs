//! Penny Badger for `playtest audit`: its actions in the designer's words and the claims the
//! variant's deck can or cannot make true.

use super::{Action, Claim, PennyBadger};
use crate::engine::AuditHooks;
use crate::engine::ClaimCheck;
use crate::games::chroma::{self, ALL_SHAPES, BADGER_ACTIONS, COLOR_WILD, Card, FIRST_ACTION, is_wild, matches};

/// "claim a set of k" for k = 0..=10 (0 and 1 unused).
const SET_CLAIMS: [&str; 11] = [
    "",
    "",
    "claim a set of 2",
    "claim a set of 3",
    "claim a set of 4",
    "claim a set of 5",
    "claim a set of 6",
    "claim a set of 7",
    "claim a set of 8",
    "claim a set of 9",
    "claim a set of 10",
];

/// "play <card>" for each of the 8 action cards, in canonical order.
const PLAYS: [&str; 8] = [
    "play skip",
    "play reverse",
    "play trade-one-card",
    "play trade-hands",
    "play add-a-card",
    "play add-two-cards",
    "play remove-a-card",
    "play remove-two-cards",
];

impl AuditHooks for PennyBadger {
    /// Every kind of action this variant offers: claims up to the payout table's largest row,
    /// the action cards the deck holds, and the two answers to a claim.
    fn action_kinds(&self) -> Vec<&'static str> {
        let mut out = vec!["claim nothing", "claim a wild"];
        out.extend(SET_CLAIMS.iter().take(self.payout.max_claim() + 1).skip(2));
        for (i, card) in BADGER_ACTIONS.iter().enumerate() {
            if self.copies[*card as usize] > 0 {
                out.push(PLAYS[i]);
            }
        }
        out.extend(["challenge", "let the claim stand"]);
        out
    }

    /// The kind of one action.
    fn action_kind(&self, action: &Action) -> &'static str {
        match *action {
            Action::Play { card, .. } => PLAYS.get(card.wrapping_sub(FIRST_ACTION) as usize).copied().unwrap_or(""),
            Action::Discard { claim: Claim::Nothing, .. } => "claim nothing",
            Action::Discard { claim: Claim::Wild, .. } => "claim a wild",
            Action::Discard { cards, claim: Claim::Set(_) } => SET_CLAIMS.get(cards.count_ones() as usize).copied().unwrap_or(""),
            Action::Challenge(true) => "challenge",
            Action::Challenge(false) => "let the claim stand",
        }
    }

    /// The wild claim and every set claim of the payout table against the deck: possible when
    /// enough cards of the deck can match one (color, shape), certain when every card could.
    fn claim_audit(&self) -> Vec<ClaimCheck> {
        let deck_keys = || vec!["deck.base_sets".to_string(), "deck.colors_sets".into(), "deck.shapes_sets".into(), "deck.counts".into()];
        let claimable: Vec<Card> = (0..FIRST_ACTION).filter(|&c| self.copies[c as usize] > 0).collect();
        let wilds: u32 = (COLOR_WILD..=ALL_SHAPES).map(|c| self.copies[c as usize]).sum();
        let mut keys = deck_keys();
        keys.push("payout.wild".into());
        let mut out = vec![ClaimCheck {
            claim: "a wild (one card)".into(),
            possible: wilds > 0,
            certain: !claimable.is_empty() && claimable.iter().all(|&c| is_wild(c)),
            keys,
        }];
        let most = self.max_matching();
        let every_card_matches_a_cell = (0..25).any(|cell| !claimable.is_empty() && claimable.iter().all(|&c| matches(c, cell)));
        for k in 2..=self.payout.max_claim() {
            let mut keys = deck_keys();
            keys.push(format!("payout.{k}"));
            keys.push("hand_size".into());
            out.push(ClaimCheck {
                claim: format!("a set of {k}"),
                possible: k as u32 <= most && k <= chroma::HAND_CAP,
                certain: every_card_matches_a_cell && k as u32 <= most,
                keys,
            });
        }
        out
    }
}
