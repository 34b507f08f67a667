//! Penny Badger: a bluffing game of claims on a shared bank (docs/games/penny-badger.md).
//!
//! Readings fixed here where the rulebook is silent (also in docs/games/penny-badger.md; a player at the table would expect them):
//! - "Clockwise" for odd pennies means increasing seat number, whatever the direction of
//!   play; challengers are asked in the current direction of play from the claimer's next
//!   seat.
//! - A skipped turn is not a turn played: it does not count towards `turn_cap` or the
//!   game length. A skip lands on the next live player at the moment the card is played.
//! - A player whose turn comes with an empty hand (cards removed, piles exhausted) makes
//!   no claim and pays nothing; they refill and play moves on.
//! - trade-one-card: the card to give is chosen when the card is played, from the cards
//!   other than the action card; the target's random card is taken before the given card
//!   joins their hand. Action cards target live opponents only.
//! - A penalty of "savings" (the 8-card row) is the payer's whole savings, paid to the bank
//!   first, so the players owed get nothing (the payment rule: bank first).
//! - Hands never exceed 12 cards: an add-card play that would pass that is illegal.
//! - `random` picks uniformly among legal actions where a discard is a set of hand
//!   positions with a claim, so it rarely plays action cards.

mod audit;
mod bots;
mod determinize;
pub mod keys;
mod metrics;
pub mod params;
mod piles;
pub mod rules;
#[cfg(test)]
mod tests;
mod trace;
mod turns;
mod view;

use std::fmt;

use crate::engine::{EventLog, Game, GameEvent, GameInfo, GameRng, Lineup, MAX_SEATS, Outcome, SearchDefaults, ToMove};
use crate::games::chroma::{self, ActionCard, BADGER_ACTIONS, Card, Cell, card_name, cards_text, cell_name, is_action, is_wild, matches};
use crate::variant::Invalid;

pub use metrics::BadgerMetrics;
pub use params::{Amount, Params, Payout};
use params::{HAND_CAP, MAX_PLAYERS};
pub use rules::{END_REASONS, Hand, Phase, State};
pub use view::View;

/// What a discard claims; in traces `nothing`, `wild` or a card such as `blue star`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Claim {
    /// One card, "nothing": pay 1 to the bank, no challenge.
    Nothing,
    /// One card claimed to be a wild.
    Wild,
    /// k >= 2 cards claimed to match this (color, shape).
    Set(Cell),
}

/// One decision of a Penny Badger seat (trace notation: `trace.rs`'s module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Play an action card (`target` for the targeted ones, `give` for trade-one-card).
    Play {
        /// The action card.
        #[serde(with = "chroma::by_name")]
        card: Card,
        /// Target seat (ignored by untargeted cards).
        target: u8,
        /// Card given with trade-one-card (ignored otherwise).
        #[serde(with = "chroma::by_name")]
        give: Card,
    },
    /// Discard the hand positions in the bit mask face down and claim.
    Discard {
        /// Bit i = hand position i (in traces: the list of positions).
        #[serde(with = "chroma::positions")]
        cards: u32,
        /// The claim.
        claim: Claim,
    },
    /// Answer whether to challenge the claim on the table.
    Challenge(bool),
}

/// What is being decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The seat's own turn: play action cards or discard and claim.
    Turn,
    /// Whether to challenge `claimer`'s claim of `count` cards.
    Challenge {
        /// Who claimed.
        claimer: u8,
        /// What.
        claim: Claim,
        /// How many cards were discarded for it.
        count: u8,
        /// Seats that already challenged (asked earlier).
        earlier: u16,
    },
}

/// Penny Badger with one variant's parameters, ready to play.
pub struct PennyBadger {
    /// The variant's parameters.
    pub params: Params,
    /// The checked payout table.
    pub payout: Payout,
    /// The deck in canonical order (shuffled copies are dealt).
    pub deck: Vec<Card>,
    /// Copies of each card in the deck.
    pub copies: [u32; chroma::CARD_KINDS],
    /// `payout` as plain numbers, by claim size and kind (`rules::settle_rows`).
    settle_rows: Vec<rules::SettleRow>,
}

impl PennyBadger {
    /// Checks the parameters and builds the game.
    pub fn new(params: Params) -> Result<Self, Vec<Invalid>> {
        let payout = params.check()?;
        let deck = params.deck.cards(&BADGER_ACTIONS);
        let copies = params.deck.copies(&BADGER_ACTIONS);
        let settle_rows = rules::settle_rows(&payout);
        Ok(PennyBadger { params, payout, deck, copies, settle_rows })
    }

    /// Most cards of the deck that can match one (color, shape): claims above this are
    /// always bluffs.
    pub fn max_matching(&self) -> u32 {
        (0..25).map(|cell| (0..chroma::CARD_KINDS).filter(|&c| matches(c as Card, cell)).map(|c| self.copies[c]).sum()).max().unwrap_or(0)
    }

    /// Whether `seat` may aim a targeted action card at `target`.
    fn can_target(view: &View, target: usize) -> bool {
        target != view.seat && view.alive() & (1 << target) != 0
    }

    /// Whether the action card may be played now (add-cards must not overflow the hand).
    fn playable(view: &View, action: ActionCard) -> bool {
        let after = view.hand.len(); // -1 for the card, +1 replacement
        match action {
            ActionCard::AddACard => after < HAND_CAP,
            ActionCard::AddTwoCards => after + 1 < HAND_CAP,
            ActionCard::TradeOneCard => view.hand.len() >= 2,
            ActionCard::Dice => false,
            _ => true,
        }
    }

    /// Whether `give` is held apart from the played `card` (trade-one-card).
    fn can_give(hand: &[Card], card: Card, give: Card) -> bool {
        let held = hand.iter().filter(|&&c| c == give).count();
        held > usize::from(give == card)
    }

    fn targeted(action: ActionCard) -> bool {
        matches!(action, ActionCard::TradeOneCard | ActionCard::TradeHands | ActionCard::RemoveACard | ActionCard::RemoveTwoCards)
    }
}

impl Game for PennyBadger {
    type State = State;
    type Action = Action;
    type View<'a> = View<'a>;
    type Event = Event;
    type Metrics = BadgerMetrics;
    const INFO: GameInfo = GameInfo {
        id: "penny-badger",
        name: "Penny Badger",
        end_reasons: END_REASONS,
        length_unit: "turns",
        standing_unit: "pennies",
        default_cap: 1000,
        default_bot: "basic",
        search: SearchDefaults {
            // Savings mid-game mislead the search (a cut-off at 20 or 60 actions wins less often
            // than playing to the end: README, "ismcts"), so iterations play to the end.
            depth: 0,
            // `ismcts` models the table with `basic` and rolls out with it: measured stronger
            // than searching the opponents' choices (docs/skill.md).
            rollout: 1,
            opponents: 1,
            ..SearchDefaults::ENGINE
        },
        deals_in_place: true,
        has_elimination: true,
        ..GameInfo::DEFAULTS
    };

    fn seats(&self) -> usize {
        self.params.players as usize
    }

    fn turn_cap(&self) -> u32 {
        self.params.turn_cap
    }

    fn deal(&self, rng: &mut GameRng, log: &mut EventLog<Event>) -> State {
        self.new_state(rng, log)
    }

    fn deal_into(&self, rng: &mut GameRng, log: &mut EventLog<Event>, state: &mut State) {
        self.reset_state(state, rng, log);
    }

    #[inline]
    fn to_move(&self, s: &State) -> ToMove {
        match s.phase {
            Phase::Over => ToMove::Over,
            Phase::Main => ToMove::Seat(s.current as usize),
            Phase::Challenge => ToMove::Seat(Self::challenger_to_ask(s)),
        }
    }

    #[inline]
    fn view<'a>(&self, s: &'a State, seat: usize) -> View<'a> {
        let decision = match (s.phase, &s.claim) {
            (Phase::Challenge, Some(c)) => Decision::Challenge { claimer: c.claimer, claim: c.claim, count: c.count, earlier: c.challengers },
            _ => Decision::Turn,
        };
        View::new(seat, decision, s)
    }

    fn legal_actions(&self, view: &View, out: &mut Vec<Action>) {
        if let Decision::Challenge { .. } = view.decision {
            out.extend([Action::Challenge(false), Action::Challenge(true)]);
            return;
        }
        let hand = view.hand;
        let n = self.params.players as usize;
        for (i, &card) in hand.iter().enumerate() {
            if i > 0 && hand[i - 1] == card {
                continue;
            }
            let Some(action) = chroma::action_of(card) else { continue };
            if !Self::playable(view, action) {
                continue;
            }
            if !Self::targeted(action) {
                out.push(Action::Play { card, target: 0, give: 0 });
                continue;
            }
            for target in (0..n).filter(|&t| Self::can_target(view, t)) {
                if action == ActionCard::TradeOneCard {
                    for (j, &give) in hand.iter().enumerate() {
                        if (j > 0 && hand[j - 1] == give) || !Self::can_give(hand, card, give) {
                            continue;
                        }
                        out.push(Action::Play { card, target: target as u8, give });
                    }
                } else {
                    out.push(Action::Play { card, target: target as u8, give: 0 });
                }
            }
        }
        let max = self.payout.max_claim().min(hand.len());
        for mask in 1u32..(1 << hand.len()) {
            let k = mask.count_ones() as usize;
            if k > max {
                continue;
            }
            if k == 1 {
                out.push(Action::Discard { cards: mask, claim: Claim::Nothing });
                out.push(Action::Discard { cards: mask, claim: Claim::Wild });
            } else {
                out.extend((0..25).map(|cell| Action::Discard { cards: mask, claim: Claim::Set(cell) }));
            }
        }
    }

    fn is_legal(&self, view: &View, action: &Action) -> bool {
        match (*action, view.decision) {
            (Action::Challenge(_), Decision::Challenge { .. }) => true,
            (Action::Play { card, target, give }, Decision::Turn) => {
                if !view.hand.contains(&card) {
                    return false;
                }
                let Some(a) = chroma::action_of(card) else { return false };
                if !Self::playable(view, a) {
                    return false;
                }
                if Self::targeted(a) && !Self::can_target(view, target as usize) {
                    return false;
                }
                if a == ActionCard::TradeOneCard {
                    return Self::can_give(view.hand, card, give);
                }
                true
            }
            (Action::Discard { cards, claim }, Decision::Turn) => {
                let k = cards.count_ones() as usize;
                let in_hand = view.hand.len() >= 32 || cards >> view.hand.len() == 0;
                let size_ok = match claim {
                    Claim::Nothing | Claim::Wild => k == 1,
                    Claim::Set(cell) => (2..=self.payout.max_claim()).contains(&k) && cell < 25,
                };
                in_hand && size_ok && k >= 1
            }
            _ => false,
        }
    }

    #[inline]
    fn apply(&self, s: &mut State, seat: usize, action: Action, rng: &mut GameRng, log: &mut EventLog<Event>) {
        self.step(s, seat, action, rng, log);
    }

    /// A turn, its claim's answers and their settlement as one piece, for any line-up
    /// (`turns.rs`).
    #[inline(always)]
    fn play_out<L: Lineup<Self> + ?Sized>(&self, state: &mut State, bots: &mut L, rng: &mut GameRng, seat_rngs: &mut [GameRng; MAX_SEATS]) {
        self.play_turns(state, bots, rng, seat_rngs);
    }

    fn outcome(&self, s: &State) -> Outcome {
        let n = self.params.players as usize;
        let mut o = Outcome::new();
        o.length = s.turns;
        o.end_reason = s.end_reason;
        for seat in 0..n {
            o.scores[seat] = s.savings[seat] as i64;
            o.eliminated_at[seat] = s.eliminated_at[seat];
        }
        o.set_winners_by_max_score(n);
        o
    }

    fn check_invariants(&self, s: &State) -> Result<(), String> {
        let n = self.params.players as usize;
        let money: u64 = s.bank as u64 + s.savings[..n].iter().map(|&x| x as u64).sum::<u64>();
        let start = self.params.bank as u64 + n as u64 * self.params.starting_savings as u64;
        if money != start {
            return Err(format!("pennies not conserved: bank {} + savings {:?} = {money}, started with {start}", s.bank, &s.savings[..n]));
        }
        let cards = s.draw.len() + s.discard.len() + s.hands[..n].iter().map(|h| h.len()).sum::<usize>();
        if cards != self.deck.len() {
            return Err(format!("cards not conserved: {cards} on the table, the deck has {}", self.deck.len()));
        }
        let mut counts = [0u32; chroma::CARD_KINDS];
        for &c in s.draw.iter().chain(&s.discard).chain(s.hands[..n].iter().flat_map(|h| h.cards())) {
            counts[c as usize] += 1;
        }
        if counts != self.copies {
            return Err("the multiset of cards changed".into());
        }
        for seat in 0..n {
            let alive = Self::is_alive(s, seat);
            if alive && s.savings[seat] == 0 {
                return Err(format!("seat {seat} has 0 savings but is still in the game"));
            }
            if !alive && (!s.hands[seat].is_empty() || s.savings[seat] != 0) {
                return Err(format!("eliminated seat {seat} still holds cards or pennies"));
            }
        }
        if s.discard_seen.len() != s.discard.len() {
            return Err(format!("{} discards but {} records of who saw them", s.discard.len(), s.discard_seen.len()));
        }
        if let (Phase::Challenge, Some(c)) = (s.phase, &s.claim) {
            // Until the answers are in, only the claimer has seen the claim's cards (the
            // claim's settlement rewrites these marks either way: `rules::settle_claim_fast`).
            let top = s.discard_seen.len().checked_sub(c.count as usize).ok_or("the claim's cards are not on the discard pile")?;
            if let Some(&seen) = s.discard_seen[top..].iter().find(|&&seen| seen != 1 << c.claimer) {
                return Err(format!("a claimed card on the discard pile is marked {seen:#x}, not as seen by the claimer (seat {}) alone", c.claimer));
            }
        }
        if s.turns > self.params.turn_cap {
            return Err(format!("turn {} passed the cap {}", s.turns, self.params.turn_cap));
        }
        Ok(())
    }

    fn seat_active(&self, s: &State, seat: usize) -> bool {
        Self::is_alive(s, seat)
    }

    fn observation(&self, state: &State, seat: usize) -> String {
        determinize::observation(self, state, seat)
    }

    /// Standing: the seat's savings (pennies), the figure that decides the winner.
    fn standing(&self, s: &State, seat: usize) -> i64 {
        s.savings[seat] as i64
    }
}

/// What happened, for traces and for bots that count cards.
#[derive(Clone, Debug)]
pub enum Event {
    /// A seat's starting hand (seen by that seat only).
    Dealt { seat: u8, hand: Hand },
    /// A turn begins.
    TurnStarts { turn: u32, seat: u8, hand: Hand, bank: u32 },
    /// A seat lost its turn to a skip.
    Skipped { seat: u8 },
    /// A seat had no cards at its turn.
    EmptyHand { seat: u8 },
    /// A seat drew a card (seen by that seat only).
    Drew { seat: u8, card: Card },
    /// The discard pile became the draw pile: `order` is the new pile as the state holds it,
    /// bottom first (the last card is drawn first). No seat sees it: traces record it, bots
    /// must not read it.
    Reshuffled { order: Vec<Card> },
    /// An action card was played.
    PlayedAction { seat: u8, action: ActionCard, target: u8 },
    /// trade-one-card: seen by the two seats involved.
    TradedOne { seat: u8, target: u8, gave: Card, took: Option<Card> },
    /// trade-hands: each seat sees its new hand.
    TradedHands { seat: u8, target: u8, now: Hand, their: Hand },
    /// A card removed from the target's hand to the discard pile (face down: nobody sees it).
    Removed { target: u8, card: Card },
    /// A discard and claim (the cards are face down: only the claimer sees them).
    Claimed { seat: u8, claim: Claim, count: u8, cards: Hand },
    /// A seat answered whether it challenges.
    Answered { seat: u8, challenge: bool },
    /// The claim's cards turned over after a challenge.
    Revealed { seat: u8, cards: Hand, truthful: bool },
    /// The claimer took a withdrawal.
    Withdrew { seat: u8, pennies: u32 },
    /// A payment: to the bank and to each player.
    Paid { payer: u8, bank: u32, players: [u32; MAX_PLAYERS] },
    /// A seat left the game.
    Eliminated { seat: u8, turn: u32 },
    /// The game ended.
    GameOver { reason: u8, turns: u32 },
}

impl GameEvent for Event {
    fn visible_to(&self, seat: usize) -> bool {
        let seat = seat as u8;
        match self {
            Event::Dealt { seat: s, .. } | Event::Drew { seat: s, .. } | Event::Claimed { seat: s, .. } => *s == seat,
            Event::TurnStarts { .. } => true,
            Event::TradedOne { seat: s, target, .. } | Event::TradedHands { seat: s, target, .. } => *s == seat || *target == seat,
            Event::Removed { .. } => false,
            _ => true,
        }
    }
}

fn claim_text(claim: Claim, count: u8) -> String {
    match claim {
        Claim::Nothing => "nothing".into(),
        Claim::Wild => "a wild".into(),
        Claim::Set(cell) => format!("{count} x {}", cell_name(cell)),
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Dealt { seat, hand } => write!(f, "seat {seat} is dealt [{}]", cards_text(hand.cards())),
            Event::TurnStarts { turn, seat, hand, bank } => write!(f, "\n-- turn {turn}: seat {seat} holds [{}]; bank {bank}", cards_text(hand.cards())),
            Event::Skipped { seat } => write!(f, "seat {seat} is skipped"),
            Event::EmptyHand { seat } => write!(f, "seat {seat} has no cards and cannot discard"),
            Event::Drew { seat, card } => write!(f, "  seat {seat} draws {}", card_name(*card)),
            Event::Reshuffled { order } => write!(f, "  the discard pile is shuffled into a new draw pile of {} cards", order.len()),
            Event::PlayedAction { seat, action, target } => {
                let name = card_name(*action as Card);
                if PennyBadger::targeted(*action) { write!(f, "  seat {seat} plays {name} on seat {target}") } else { write!(f, "  seat {seat} plays {name}") }
            }
            Event::TradedOne { seat, target, gave, took } => write!(
                f,
                "  seat {seat} gives {} to seat {target} and takes {}",
                card_name(*gave),
                took.map(card_name).unwrap_or_else(|| "nothing (empty hand)".into())
            ),
            Event::TradedHands { seat, target, now, their } => {
                write!(
                    f,
                    "  seat {seat} and seat {target} swap hands: seat {seat} now [{}], seat {target} [{}]",
                    cards_text(now.cards()),
                    cards_text(their.cards())
                )
            }
            Event::Removed { target, card } => write!(f, "  {} is removed from seat {target}'s hand", card_name(*card)),
            Event::Claimed { seat, claim, count, cards } => {
                let truth = match claim {
                    Claim::Nothing => "",
                    Claim::Wild => {
                        if is_wild(cards.cards()[0]) {
                            " (true)"
                        } else {
                            " (a bluff)"
                        }
                    }
                    Claim::Set(cell) => {
                        if cards.cards().iter().all(|&c| matches(c, *cell)) {
                            " (true)"
                        } else {
                            " (a bluff)"
                        }
                    }
                };
                write!(f, "  seat {seat} discards [{}] and claims {}{truth}", cards_text(cards.cards()), claim_text(*claim, *count))
            }
            Event::Answered { seat, challenge } => write!(f, "  seat {seat} {}", if *challenge { "CHALLENGES" } else { "lets it stand" }),
            Event::Revealed { seat, cards, truthful } => {
                write!(f, "  seat {seat} reveals [{}]: {}", cards_text(cards.cards()), if *truthful { "the claim was true" } else { "caught bluffing" })
            }
            Event::Withdrew { seat, pennies } => write!(f, "  seat {seat} withdraws {pennies} from the bank"),
            Event::Paid { payer, bank, players } => {
                write!(f, "  seat {payer} pays {bank} to the bank")?;
                for (s, &p) in players.iter().enumerate().filter(|(_, p)| **p > 0) {
                    write!(f, ", {p} to seat {s}")?;
                }
                Ok(())
            }
            Event::Eliminated { seat, turn } => write!(f, "  seat {seat} is ELIMINATED in turn {turn}"),
            Event::GameOver { reason, turns } => write!(f, "\n== game over after {turns} turns: {}", END_REASONS[*reason as usize]),
        }
    }
}

/// Whether a card is of no use to a claim (an action card).
#[inline]
pub fn is_dead_weight(card: Card) -> bool {
    is_action(card)
}

impl crate::games::Registered for PennyBadger {
    const KEYS: &'static [crate::games::key_table::VariantKey] = keys::KEYS;
    fn from_variant(variant: &crate::variant::Variant) -> Result<Self, crate::error::VariantError> {
        let params = variant.game_params()?;
        PennyBadger::new(params).map_err(|p| variant.invalid(p))
    }
    fn bench_lineup() -> crate::games::BenchLineup {
        crate::games::BenchLineup { bots: "basic:bluff=0.3:challenge=0.3", sets: &["deck.action_sets=0"] }
    }
}
