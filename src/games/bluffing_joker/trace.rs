//! Bluffing Joker as data: the state, action and chance records of `playtest trace --json`.
//!
//! Cards are named as the rulebook says them (`7 of hearts`, `queen of spades`, `joker`);
//! ranks and declared values by their short names (`A`, `2` ... `10`, `J`, `Q`, `K`,
//! `joker`); board positions as `start`, `hole 17` (track holes from 0) or `home 2` (home
//! depth from 1), `none` for the unused second peg of a split that ended the game.
//!
//! State (`start` and every `state` line):
//! - `turn`: turns begun (extra turns included); `round`: rounds begun; `current`: the
//!   active seat; `phase`: `play`, `doubt` (opponent `asked` answers), `penalty` (`chooser`
//!   picks which of `victim`'s track pegs goes to start, `cause`: `right_doubt` or
//!   `wrong_doubt`) or `over`; `winner` (team: seat mod 2) and `end_reason` (`home`, `cap`)
//!   once over;
//! - `board`: `track` holes, `home` depth, `come_out` and `in_spot` holes per player, and
//!   `pegs` per player (positions, in peg order);
//! - `players`: per seat its `team`, `hand` (card names, canonical order) and `extra`
//!   turns owed;
//! - `pending`: the card played face down (`card`, hidden from the other seats), its
//!   `declared` value and `move`, while doubts are asked;
//! - `draw`: the draw pile, top first (hidden); `discard`: the discard pile, top first
//!   (face down: hidden); `revealed`: the ranks of shown (doubted) cards in the discard pile
//!   since the last reshuffle, with their counts.
//!
//! Actions: `{"play": {"card": "7", "declared": "8", "mv": {"forward": {"from": "hole 3",
//! "steps": 8}}}}` (the rank played, the value declared and the move: `"come_out"`,
//! `{"forward": {"from", "steps"}}`, `{"back": {"from"}}`, `{"split": {"first", "a",
//! "second", "b"}}`, `{"jump": {"from", "to"}}`), `{"discard": {"card": "K"}}`, `"pass"`,
//! `"doubt"`, `{"send_back": {"hole": "hole 12"}}`.
//!
//! Chance: `deal` (a seat's starting hand), `draw` (a card from the draw pile) and
//! `reshuffle` (the discard pile shuffled into a new draw pile: `cards`, its size, and
//! `order`, the new pile top first, which no seat sees).

use serde::Serialize;

use super::cards::{RANK_NAMES, RANKS, card_name, rank_name};
use super::rules::{Cause, END_REASONS, Phase, State};
use super::{BluffingJoker, Event, Move, Pos, pos_name};
use crate::engine::Traces;
use crate::games::chance::{CardChance, NoOwnChance};

/// serde of a rank or declared value by its short name: `#[serde(with = "by_rank")]`.
pub mod by_rank {
    use super::{RANK_NAMES, rank_name};
    use crate::games::bluffing_joker::Rank;

    /// Writes the rank's name.
    pub fn serialize<S: serde::Serializer>(r: &Rank, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(rank_name(*r))
    }

    /// Reads a rank's name.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let n = <String as serde::Deserialize>::deserialize(d)?;
        RANK_NAMES
            .iter()
            .position(|r| *r == n)
            .map(|r| r as Rank)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown rank `{n}`; allowed: {}", RANK_NAMES.join(", "))))
    }
}

/// The board.
#[derive(Serialize)]
pub struct TracedBoard {
    /// Holes on the track.
    pub track: usize,
    /// Depth of each home.
    pub home: u8,
    /// Each player's come-out hole.
    pub come_out: Vec<Pos>,
    /// Each player's in-spot.
    pub in_spot: Vec<Pos>,
    /// Each player's pegs.
    pub pegs: Vec<Vec<String>>,
}

/// One seat of the traced table.
#[derive(Serialize)]
pub struct Player {
    /// Its team (seat mod 2).
    pub team: u8,
    /// Cards in hand, canonical order.
    pub hand: Vec<String>,
    /// Extra turns owed.
    pub extra: u16,
}

/// The card played face down and its declaration.
#[derive(Serialize)]
pub struct TracedPending {
    /// The card (hidden from the other seats).
    pub card: String,
    /// The declared value.
    pub declared: &'static str,
    /// The declared move.
    #[serde(rename = "move")]
    pub mv: Move,
}

/// The whole table (module doc).
#[derive(Serialize)]
pub struct Table {
    /// Turns begun.
    pub turn: u32,
    /// Rounds begun.
    pub round: u32,
    /// The active seat.
    pub current: u8,
    /// `play`, `doubt`, `penalty` or `over`.
    pub phase: &'static str,
    /// The opponent asked (doubt phase).
    pub asked: Option<u8>,
    /// Who chooses the peg sent back (penalty phase).
    pub chooser: Option<u8>,
    /// Whose peg goes back (penalty phase).
    pub victim: Option<u8>,
    /// Why (penalty phase).
    pub cause: Option<&'static str>,
    /// The board.
    pub board: TracedBoard,
    /// Every seat.
    pub players: Vec<Player>,
    /// The card played while doubts are asked.
    pub pending: Option<TracedPending>,
    /// Draw pile, top first.
    pub draw: Vec<String>,
    /// Discard pile, top first.
    pub discard: Vec<String>,
    /// Shown ranks in the discard pile, with counts.
    pub revealed: std::collections::BTreeMap<&'static str, u8>,
    /// The winning team once over by `home`.
    pub winner: Option<u8>,
    /// End reason once over.
    pub end_reason: Option<&'static str>,
}

/// A random event of the game as the trace records it (module doc): a deal, a draw or a
/// reshuffle, as every card game records them.
type Chance = CardChance<String, NoOwnChance>;

fn hand_names(cards: &[super::CardId]) -> Vec<String> {
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    sorted.into_iter().map(card_name).collect()
}

/// What `state` paths a seat does not see (see [`crate::engine::Traces::trace_secrets`]).
pub(super) const SECRETS: &[&str] = &["players/*/hand", "draw", "discard", "pending/card"];

impl Traces for BluffingJoker {
    /// The traced table of `s` (module doc).
    fn trace_state(&self, s: &State) -> serde_json::Value {
        let g = &self.geo;
        let (phase, asked, chooser, victim, cause) = match s.phase {
            Phase::Play => ("play", None, None, None, None),
            Phase::Doubt { seat } => ("doubt", Some(seat), None, None, None),
            Phase::Penalty { chooser, victim, cause } => (
                "penalty",
                None,
                Some(chooser),
                Some(victim),
                Some(match cause {
                    Cause::RightDoubt => "right_doubt",
                    Cause::WrongDoubt => "wrong_doubt",
                }),
            ),
            Phase::Over => ("over", None, None, None, None),
        };
        serde_json::to_value(Table {
            turn: s.turns,
            round: s.rounds,
            current: s.current,
            phase,
            asked,
            chooser,
            victim,
            cause,
            board: TracedBoard {
                track: g.track,
                home: g.home,
                come_out: g.come[..self.players].to_vec(),
                in_spot: g.spot[..self.players].to_vec(),
                pegs: (0..self.players).map(|p| s.board.pegs[p][..g.pegs].iter().map(|&q| pos_name(q)).collect()).collect(),
            },
            players: (0..self.players).map(|seat| Player { team: (seat % 2) as u8, hand: hand_names(s.hands[seat].cards()), extra: s.extra[seat] }).collect(),
            pending: s.pending.map(|p| TracedPending { card: card_name(p.card), declared: rank_name(p.declared), mv: p.mv }),
            draw: s.draw.iter().rev().map(|&c| card_name(c)).collect(),
            discard: s.discard.iter().rev().map(|&c| card_name(c)).collect(),
            revealed: (0..RANKS).filter(|&r| s.revealed[r] > 0).map(|r| (RANK_NAMES[r], s.revealed[r])).collect(),
            winner: s.winner,
            end_reason: (s.phase == Phase::Over).then(|| END_REASONS[s.end_reason as usize]),
        })
        .expect("serialises")
    }

    fn trace_secrets(&self) -> &'static [&'static str] {
        SECRETS
    }

    /// The chance record of `event`, if it is one (module doc).
    fn trace_chance(&self, event: &Event) -> Option<serde_json::Value> {
        let chance = match *event {
            Event::Dealt { seat, ref hand } => Chance::Deal { seat, hand: hand_names(hand.cards()) },
            Event::Drew { seat, card } => Chance::Draw { seat, card: card_name(card) },
            Event::Reshuffled { ref order } => Chance::reshuffle(order, card_name),
            _ => return None,
        };
        chance.record()
    }

    /// The rule `action` breaks at `view`, where a specific one applies (else the generic
    /// reason of [`crate::engine::Traces::why_illegal`]).
    fn why_illegal(&self, view: &super::View<'_>, action: &super::Action) -> Option<String> {
        use super::{Action, Decision};
        Some(match (*action, view.decision) {
            (Action::Play { card, .. } | Action::Discard { card }, Decision::Play) if (card as usize) >= RANKS || view.hand.count(card) == 0 => {
                format!("seat {} holds no {}", view.seat, rank_name(card))
            }
            (Action::Play { card, declared, .. }, Decision::Play) if !self.may_declare(card, declared) => {
                format!("a {} may not be declared as {}", rank_name(card), rank_name(declared))
            }
            (Action::Play { declared, mv, .. }, Decision::Play) => format!("the move `{mv}` is not legal for a declared {} on this board", rank_name(declared)),
            (Action::Discard { .. }, Decision::Play) => "a card is discarded only when no card in the hand has a legal move for its true value".into(),
            (Action::SendBack { hole }, Decision::Penalty { victim }) => format!("player {victim} has no peg on {}", pos_name(hole)),
            _ => return None,
        })
    }

    /// The table of `s` in the game's words (see [`crate::engine::Traces::table_words`]).
    fn table_words(&self, s: &State) -> Option<crate::engine::words::TableWords> {
        use crate::engine::words::{Lay, TableWords, Zone, seats_text};
        let teams: Vec<String> = (0..2).map(|t| seats_text(&(t..self.players).step_by(2).collect::<Vec<_>>())).collect();
        let goal = format!(
            "Two teams ({} against {}) race their pegs around the board into home: each turn a card is played face down and declared with a move, and any opponent may doubt it; the first team with every peg home wins, each seat's score is its team's progress.",
            teams[0], teams[1]
        );
        let seat = s.current;
        let declared = s.pending.map(|p| format!("seat {seat} declared {}", rank_name(p.declared)));
        let now = match s.phase {
            Phase::Play => format!("seat {seat} plays a card face down and declares a value with a move, or discards"),
            Phase::Doubt { seat: asked } => format!("{}: seat {asked} decides whether to doubt it", declared.clone().unwrap_or_default()),
            Phase::Penalty { chooser, victim, cause: Cause::RightDoubt } => {
                format!("the doubt was right: seat {chooser} picks which of seat {victim}'s pegs goes back to start")
            }
            Phase::Penalty { chooser, victim, .. } => format!("the doubt was wrong: seat {chooser} picks which of seat {victim}'s pegs goes back to start"),
            Phase::Over => String::new(),
        };
        let mut facts = vec![format!("turn {}", s.turns), format!("round {}", s.rounds)];
        if let Some(d) = declared {
            facts.push(format!("on the table: {d}"));
        }
        Some(TableWords {
            goal,
            now,
            facts,
            zones: vec![
                Zone::new("board", "the board", Lay::Board),
                Zone::new("draw", "draw pile", Lay::Pile),
                Zone::new("discard", "discard pile (face down)", Lay::Pile),
            ],
            seat_zones: vec![Zone::new("players/*/hand", "hand", Lay::Cards)],
            seat_facts: (0..self.players)
                .map(|q| {
                    let team = format!("team {}", if q % 2 == 0 { &teams[0] } else { &teams[1] });
                    if s.extra[q] > 0 { format!("{team}; {} extra turn(s) owed", s.extra[q]) } else { team }
                })
                .collect(),
            end: match (s.phase, END_REASONS[s.end_reason as usize]) {
                (Phase::Over, "home") => "a team has every peg home".into(),
                (Phase::Over, _) => "the turn cap was reached".into(),
                _ => String::new(),
            },
        })
    }

    fn describe(&self, s: &State) -> String {
        let mut out = format!(
            "end: {} after {} turns ({} rounds){}\n",
            END_REASONS[s.end_reason as usize],
            s.turns,
            s.rounds,
            match s.winner {
                Some(t) => format!(", team {t} wins"),
                None => String::new(),
            }
        );
        for seat in 0..self.players {
            let mut pegs: Vec<String> = s.board.pegs[seat][..self.geo.pegs].iter().map(|&p| pos_name(p)).collect();
            pegs.sort();
            out.push_str(&format!("  seat {seat} (team {}): pegs [{}]; hand [{}]\n", seat % 2, pegs.join(", "), s.hands[seat]));
        }
        let c = &s.counters;
        out.push_str(&format!(
            "  doubts {} (right {}), bluffs {}, sent to start by landing {} / by doubt {}, discards {}, extra turns {}\n",
            c.doubts, c.right_doubts, c.bluffs, c.sent_by_landing, c.sent_by_doubt, c.discards, c.extra_turns
        ));
        out
    }
}
