//! Take a Penny's bots besides the generic `random`: `greedy` (an exactly specified,
//! deterministic heuristic) and `best-response` (the exact optimal policy against random
//! or greedy opponents, from the value iteration of [`super::exact`]).

use std::sync::Arc;

use super::exact::{self, Policy};
use super::params::{MAX_CARDS, Setup};
use super::rules;
use super::{Action, Choice, TakeAPenny, View};
use crate::engine::OwnBots;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};

/// Default `zero_at` of `greedy`.
pub const GREEDY_DEFAULT_ZERO_AT: u32 = 1;

const GREEDY_PARAMS: &[BotParamInfo] = &[BotParamInfo {
    name: "zero_at",
    default: GREEDY_DEFAULT_ZERO_AT as f64,
    min: 0.0,
    max: 20.0,
    doc: "plays for the only-zero win when it holds at most this many pennies and no other card is at 0",
}];

/// The `greedy` entry.
pub fn greedy_info() -> BotInfo<TakeAPenny> {
    BotInfo {
        name: "greedy",
        // Reads nothing: the pennies on the table.
        reads: &[],
        aliases: &[],
        doc: "deterministic: spoils a lone zero near the end, plays for the only-zero win when at `zero_at` or below, \
              guards a lead near the end, else takes (take2, take1_block, take_from the richest)",
        params: GREEDY_PARAMS,
        build: |_, v| Box::new(GreedyBot { zero_at: v[0] as u32 }),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| GreedyBot { zero_at: v[0] as u32 }).collect()))),
    }
}

/// `greedy`: see [`greedy_choice`].
pub struct GreedyBot {
    /// Pennies at or below which it plays for the only-zero win.
    pub zero_at: u32,
}

/// `greedy`'s choice, a function of the public table only (so the exact solver can model
/// it). Rules in order; a rule whose action is illegal (no-repeat, legality at selection)
/// passes to the next rule:
/// 1. Spoil: exactly one other card holds 0 and the pot is at most 2: give to it.
/// 2. Only-zero: own <= `zero_at` and no other card holds 0: with 0 pennies `block_self`,
///    then `take1_block`; with some, `return1`, then give to the poorest other card (ties:
///    the first color), then `block_self`.
/// 3. Guard the lead: own is more than every other card and the pot is at most 2:
///    `block_self`.
/// 4. `take2` when the pot holds at least 2.
/// 5. `take1_block`.
/// 6. `take_from` the richest other card (ties: the first color) that it may take from.
/// 7. `block_self`.
/// 8. The first legal action in the order take1_block, take2, return1, block_self,
///    take_from by color, give by color.
pub fn greedy_choice(setup: &Setup, pennies: &[u32; MAX_CARDS], pot: u32, seat: usize, last: u8, zero_at: u32) -> Action {
    let ok = |a: Action| rules::legal(setup, pennies, pot, seat, last, a);
    let own = pennies[seat];
    let others = || (0..setup.cards).filter(move |&c| c != seat);
    let zeros = others().filter(|&c| pennies[c] == 0).count();
    // 1. Spoil a lone zero when the game may end this round.
    if zeros == 1
        && pot <= 2
        && let Some(z) = others().find(|&c| pennies[c] == 0)
        && ok(Action::Give(z as u8))
    {
        return Action::Give(z as u8);
    }
    // 2. Play for the only-zero win.
    if own <= zero_at && zeros == 0 {
        if own == 0 {
            for a in [Action::BlockSelf, Action::Take1Block] {
                if ok(a) {
                    return a;
                }
            }
        } else {
            if ok(Action::Return1) {
                return Action::Return1;
            }
            let poorest = others().min_by_key(|&c| (pennies[c], c));
            if let Some(c) = poorest.filter(|&c| ok(Action::Give(c as u8))) {
                return Action::Give(c as u8);
            }
            if ok(Action::BlockSelf) {
                return Action::BlockSelf;
            }
        }
    }
    // 3. Guard the lead near the end.
    if pot <= 2 && others().all(|c| pennies[c] < own) && ok(Action::BlockSelf) {
        return Action::BlockSelf;
    }
    // 4.-5. Take from the pot.
    if pot >= 2 && ok(Action::Take2) {
        return Action::Take2;
    }
    if ok(Action::Take1Block) {
        return Action::Take1Block;
    }
    // 6. Take from the richest card it may take from.
    let richest = others().filter(|&c| ok(Action::TakeFrom(c as u8))).max_by_key(|&c| (pennies[c], std::cmp::Reverse(c)));
    if let Some(c) = richest {
        return Action::TakeFrom(c as u8);
    }
    // 7.-8.
    if ok(Action::BlockSelf) {
        return Action::BlockSelf;
    }
    let mut all = Vec::with_capacity(10);
    rules::legal_actions(setup, pennies, pot, seat, last, &mut all);
    all.first().copied().unwrap_or(Action::BlockSelf)
}

impl Bot<TakeAPenny> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    #[inline]
    fn decide(&mut self, game: &TakeAPenny, view: &View<'_>, _rng: &mut GameRng) -> Choice {
        greedy_choice(&game.setup, &view.pennies(), view.pot(), view.seat, view.last()[view.seat], self.zero_at).into()
    }
}

const BEST_PARAMS: &[BotParamInfo] = &[BotParamInfo {
    name: "vs",
    default: 0.0,
    min: 0.0,
    max: 1.0,
    doc: "the opponents it is the best response to: 0 = every other player random, 1 = every other player greedy (default zero_at)",
}];

/// The `best-response` entry.
pub fn best_response_info() -> BotInfo<TakeAPenny> {
    BotInfo {
        name: "best-response",
        // Reads every key: it solves the variant exactly.
        reads: &["*"],
        aliases: &[],
        doc: "the exact policy maximising its expected win share against opponents that all play random (vs=0) or all greedy (vs=1), \
              by value iteration over (pennies, pot, last spots); only for variants of at most 5,000,000 states (2 and 3 players)",
        params: BEST_PARAMS,
        build: |_, v| Box::new(BestResponseBot { vs: v[0].round() as u32, policy: None }),
        uniform: None,
    }
}

/// `best-response`: looks its action up in a policy computed once per process.
pub struct BestResponseBot {
    vs: u32,
    policy: Option<Arc<Policy>>,
}

impl Bot<TakeAPenny> for BestResponseBot {
    fn name(&self) -> &str {
        "best-response"
    }

    fn new_game(&mut self, game: &TakeAPenny, seat: usize) {
        if self.policy.as_ref().is_some_and(|p| p.seat() == seat) {
            return;
        }
        // Refused set-ups are caught by `check_bots` before play; fall back to greedy then.
        self.policy = exact::best_response_policy(&game.setup, seat, self.vs).ok();
    }

    #[inline]
    fn decide(&mut self, game: &TakeAPenny, view: &View<'_>, _rng: &mut GameRng) -> Choice {
        let (pennies, pot, lasts) = (view.pennies(), view.pot(), view.last());
        let last = lasts[view.seat];
        if let Some(a) = self.policy.as_ref().and_then(|p| p.action(&pennies, pot, &lasts))
            && rules::legal(&game.setup, &pennies, pot, view.seat, last, a)
        {
            return a.into();
        }
        debug_assert!(self.policy.is_none(), "the best-response policy has no legal action for this view");
        greedy_choice(&game.setup, &pennies, pot, view.seat, last, GREEDY_DEFAULT_ZERO_AT).into()
    }
}

impl OwnBots for TakeAPenny {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![greedy_info(), best_response_info()]
    }

    fn check_bots(&self, bots: &[String]) -> Result<(), String> {
        // A best-response seat's policy is computed here (once per process, then shared by
        // every batch), so a line-up it cannot serve is refused before play.
        for (seat, label) in bots.iter().enumerate() {
            if let Some(vs) = exact::best_response_vs(self, label) {
                exact::best_response_policy(&self.setup, seat, vs).map_err(|e| format!("seat {seat} bot `{label}`: {e}"))?;
            }
        }
        Ok(())
    }
}
