//! Beaver Mania as data: the state, action and chance records of `playtest trace --json`.
//!
//! Cards are named as the rulebook says them: numbers `1` to `20`, `joker`, and the action
//! cards `superbeaver`, `thief`, `fairy`, `partybeaver`, `hippie`, `bad guy`, `bodyguard`,
//! `king`; `none` where an action names no card.
//!
//! State (`start` and every `state` line):
//! - `round` (from 0), `first_seat`, `round_turns` (the current one included), `turns` over
//!   all rounds, `rounds_done`; `current`: the active player; `step`: what is being decided
//!   (`play`, `stab_display`, `pile` (take or put away the stabbed top play of `step_seat`),
//!   `steal` (`left`), `fairy`, `bad_guy_victim`, `bad_guy_card` (victim `step_seat`,
//!   `left`), `draw` (drawer `step_seat`, `left`) or `over`); `end_reason` (`hand_empty`,
//!   `supply_empty`, `cap`) and `winners` once over;
//! - `players`: per seat its `hand` (canonical order, one entry per card), its `pile` (plays
//!   top first, each its `cards` and the Hippie's declared number `declared`), match
//!   `total` and `owed` (cards it draws this turn for lost pile cards);
//! - `display` and `stock` (face up), `put_away` (out of the game), `draw` (the draw pile,
//!   top first, hidden from every seat).
//!
//! Actions: `{"play": {...}}` with a play `{"group": {"number": "7", "count": 2, "jokers": 0,
//! "action": "none"}}`, `{"jokers": {"count": 2}}`, `{"hippie_run": {"low": "3", "len": 4,
//! "hippie": "5"}}`, `{"plain_run": {"low": "3", "len": 3}}`, `{"party": {"a": "1", "b":
//! "4", "c": "9"}}` or `{"lone": {"card": "thief"}}`; `{"stab_display": "7"}`,
//! `{"take": true}` (take the stabbed top play; false puts it away), `{"steal": {"from":
//! "display" | "stock" | "pile", "seat": 2, "card": "5"}}`, `{"fairy": {"seat": 1, "card":
//! "joker"}}`, `{"bad_guy": {"seat": 1}}`, `{"supply": {"from": "draw_pile", "card": "none"}}`
//! or `{"supply": {"from": "stock", "card": "8"}}`.
//!
//! Chance: `deal` (a seat's starting hand), `draw` (a card from the draw pile, to whom),
//! `refill` (cards turned up from the draw pile into the display and the stock: they are
//! the next state's `display` and `stock`).

use serde::Serialize;

use super::cards::Hand;
use super::plays::name;
use super::rules::{END_REASONS, State, Step};
use super::{BeaverMania, Event, Source, card_name};
use crate::engine::Game;
use crate::engine::Traces;
use crate::games::chance::CardChance;

fn cards_of(hand: &Hand) -> Vec<String> {
    hand.kinds().flat_map(|c| std::iter::repeat_n(name(c), hand.count(c) as usize)).collect()
}

/// One play on a pile.
#[derive(Serialize)]
pub struct PilePlay {
    /// Its cards.
    pub cards: Vec<String>,
    /// The Hippie's declared number, if any.
    pub declared: Option<String>,
}

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Cards in hand, canonical order.
    pub hand: Vec<String>,
    /// Its pile, top play first.
    pub pile: Vec<PilePlay>,
    /// Match total.
    pub total: i64,
    /// Cards it draws this turn.
    pub owed: u8,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Round index.
    pub round: u32,
    /// The round's first seat.
    pub first_seat: u8,
    /// Turns this round.
    pub round_turns: u32,
    /// Turns over all rounds.
    pub turns: u32,
    /// Rounds finished.
    pub rounds_done: u32,
    /// The active player.
    pub current: u8,
    /// What is being decided.
    pub step: &'static str,
    /// The seat the step is about (pile owner, victim, drawer).
    pub step_seat: Option<u8>,
    /// Steals, cards or draws left in the step.
    pub left: Option<u8>,
    /// Every seat.
    pub players: Vec<Player>,
    /// The display.
    pub display: Vec<String>,
    /// The stock.
    pub stock: Vec<String>,
    /// Cards out of the game.
    pub put_away: Vec<String>,
    /// Draw pile, top first.
    pub draw: Vec<String>,
    /// Winners once over.
    pub winners: Option<Vec<u8>>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of Beaver Mania (module doc).
///
/// The draws, deals and reshuffles every card game records are [`CardChance`]'s; these are
/// this game's own.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OwnChance {
    /// Cards turned up into the display and the stock.
    Refill {
        /// Cards added to the display.
        display: u32,
        /// Cards added to the stock.
        stock: u32,
    },
}

/// A random event as the trace records it.
type Chance = CardChance<String, OwnChance>;

/// What `state` paths a seat does not see (see [`Traces::trace_secrets`](crate::engine::Traces::trace_secrets)).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "draw"];

impl Traces for BeaverMania {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        let (step, step_seat, left) = match s.step {
            Step::Play => ("play", None, None),
            Step::StabDisplay => ("stab_display", None, None),
            Step::Pile { seat } => ("pile", Some(seat), None),
            Step::Steal { left } => ("steal", None, Some(left)),
            Step::Fairy => ("fairy", None, None),
            Step::BadGuyVictim => ("bad_guy_victim", None, None),
            Step::BadGuyCard { victim, left } => ("bad_guy_card", Some(victim), Some(left)),
            Step::Draw { seat, left } => ("draw", Some(seat), Some(left)),
            Step::Over => ("over", None, None),
        };
        let over = s.step == Step::Over;
        let n = self.seats();
        serde_json::to_value(Table {
            round: s.round,
            first_seat: s.first_seat,
            round_turns: s.round_turns,
            turns: s.turns,
            rounds_done: s.rounds_done,
            current: s.current,
            step,
            step_seat,
            left,
            players: (0..n)
                .map(|seat| {
                    let pile = &s.piles[seat];
                    let mut end = pile.cards.len();
                    let plays = pile
                        .plays
                        .iter()
                        .rev()
                        .map(|p| {
                            let cards = pile.cards[p.start as usize..end].iter().map(|&c| name(c)).collect();
                            end = p.start as usize;
                            PilePlay { cards, declared: (p.decl != super::plays::NO_CARD).then(|| name(p.decl)) }
                        })
                        .collect();
                    Player { hand: cards_of(&s.hands[seat]), pile: plays, total: s.totals[seat], owed: s.owed[seat] }
                })
                .collect(),
            display: cards_of(&s.display),
            stock: cards_of(&s.stock),
            put_away: cards_of(&s.put_away),
            draw: s.draw.iter().rev().map(|&c| name(c)).collect(),
            winners: over.then(|| (0..n as u8).filter(|&w| s.winners & (1 << w) != 0).collect()),
            end_reason: over.then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The chance record of `event`, if it is one (module doc).
    fn trace_chance(&self, event: &Event) -> Option<serde_json::Value> {
        let chance = match *event {
            Event::Dealt { seat, ref hand } => Chance::Deal { seat, hand: cards_of(hand) },
            Event::Took { seat, from: Source::DrawPile, card, .. } => Chance::Draw { seat, card: name(card) },
            Event::Refilled { display, stock } => Chance::Own(OwnChance::Refill { display, stock }),
            _ => return None,
        };
        chance.record()
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`Traces::why_illegal`](crate::engine::Traces::why_illegal)).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::Action;
        Some(match (view.step, *action) {
            (Step::Play, Action::Play(p)) => {
                let needed = p.cards();
                match needed.kinds().find(|&c| view.hand.count(c) < needed.count(c)) {
                    Some(c) => format!("seat {} holds {} {} but the play needs {}", view.seat, view.hand.count(c), name(c), needed.count(c)),
                    None => "these cards form no legal play here (a group, a run, the partybeaver with three unrelated numbers, or one action card; a plain run only against a hippie run or as the last cards)".into(),
                }
            }
            (Step::Steal { .. }, Action::Steal { card, from, .. }) => format!("there is no {} to steal from {from}", name(card)),
            (Step::BadGuyCard { .. } | Step::Draw { .. }, Action::Supply { card, from: Source::Stock }) => format!("the stock holds no {}", name(card)),
            (Step::BadGuyCard { .. } | Step::Draw { .. }, Action::Supply { from: Source::DrawPile, .. }) => {
                "the draw pile is empty, or a draw from it names no card (`none`)".into()
            }
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`Traces::table_words`](crate::engine::Traces::table_words)).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone};
        let p = &self.params;
        let goal = if p.match_target > 0 {
            format!(
                "A round ends when a player empties their hand or the supply runs out; each seat scores +1 per card in its pile and -1 per card in its hand, only the round's winners add their score, and the first to {} points wins (the highest total after {} rounds).",
                p.match_target, p.max_rounds
            )
        } else {
            "The round ends when a player empties their hand or the supply runs out; each seat scores +1 per card in its pile and -1 per card in its hand; the highest score wins (ties share).".into()
        };
        let seat = s.current;
        let now = match s.step {
            Step::Play => format!("seat {seat} plays cards from its hand onto its pile"),
            Step::StabDisplay => format!("seat {seat} may stab cards of the display"),
            Step::Pile { seat: owner } => format!("seat {seat} stabbed seat {owner}'s top play: it takes it into its hand or puts it away"),
            Step::Steal { left } => format!("seat {seat}'s thief steals ({left} left)"),
            Step::Fairy => format!("seat {seat}'s fairy wishes a card from another seat"),
            Step::BadGuyVictim => format!("seat {seat}'s bad guy picks a victim"),
            Step::BadGuyCard { victim, left } => format!("seat {seat}'s bad guy picks the cards seat {victim} must take ({left} left)"),
            Step::Draw { seat: drawer, left } => format!("seat {drawer} draws {left} card(s) for its lost pile cards, from the stock or the draw pile"),
            Step::Over => String::new(),
        };
        let mut facts = vec![format!("turn {} of round {}", s.round_turns, s.round + 1)];
        if p.match_target > 0 {
            facts.push(format!("first to {} points", p.match_target));
        }
        let end = if s.step == Step::Over {
            match END_REASONS[s.end_reason as usize] {
                "hand_empty" => "a player emptied their hand".into(),
                "supply_empty" => "the supply ran out".into(),
                _ => "the turn cap was reached".into(),
            }
        } else {
            String::new()
        };
        Some(TableWords {
            goal,
            now,
            facts,
            zones: vec![
                Zone::new("display", "the display", Lay::Cards),
                Zone::new("stock", "the stock", Lay::Cards),
                Zone::new("draw", "draw pile", Lay::Pile),
                Zone::new("put_away", "put away (out of the game)", Lay::Cards),
            ],
            seat_zones: [
                Zone::new("players/*/hand", "hand", Lay::Cards),
                Zone::new("players/*/pile", "pile (top play first)", Lay::Plays),
                Zone::new("players/*/total", "match total", Lay::Value),
            ]
            .into_iter()
            .take(if p.match_target > 0 { 3 } else { 2 })
            .collect(),
            seat_facts: (0..self.players).map(|q| if s.owed[q] > 0 { format!("draws {} card(s) this turn", s.owed[q]) } else { String::new() }).collect(),
            end,
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out = format!(
            "end: {} after {} turns over {} round(s)\n  display [{}], stock [{}], draw pile {} cards, put away {}\n",
            END_REASONS[s.end_reason as usize],
            s.turns,
            s.rounds_done,
            s.display,
            s.stock,
            s.draw.len(),
            s.put_away.len()
        );
        for seat in 0..self.players {
            let top: Vec<String> = s.piles[seat].top_cards().iter().map(|&c| card_name(c)).collect();
            out.push_str(&format!(
                "  seat {seat}: total {}; round score {} (pile {} cards, top [{}]); hand [{}]\n",
                s.totals[seat],
                s.score(seat),
                s.piles[seat].len(),
                top.join(", "),
                s.hands[seat]
            ));
        }
        out
    }
}
