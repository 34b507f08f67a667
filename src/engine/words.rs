//! A game's table in its own words, for a person at the table (`playtest play`, the replay
//! page): what decides the game, what the seat to move is deciding, the public facts of the
//! moment, and where each zone of the traced table ([`super::Traces::trace_state`]) lies and
//! what the rulebook calls it. The page draws the zones from the traced state with what the
//! seat may not see already hidden ([`super::trace::seen_by`]), so the words never need to
//! hide anything themselves: they name places, and say only what every seat knows.
//!
//! [`super::Traces::table_words`] gives them; a game that gives none is drawn field by field.

use serde::Serialize;

/// How a zone's cards lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Lay {
    /// A hand or a row: every card shown (or as backs with a count where hidden).
    Cards,
    /// A pile, top first: its top card marked (backs with a count where face down).
    Pile,
    /// A pile of plays, top play first, each an object with its `cards` (the top play marked).
    Plays,
    /// Dice faces.
    Dice,
    /// A number or a short value, shown as it is.
    Value,
    /// A peg board (`track`, `pegs`, `come_out`, `in_spot`, `home`).
    Board,
}

/// What a zone holds, for the words of a hidden zone ("3 cards face down", "5 dice hidden").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pieces {
    /// Cards (every built-in game).
    #[default]
    Cards,
    /// Dice: a hidden die shows its place, not its face.
    Dice,
}

impl Pieces {
    /// Whether these are cards (the default, left out of the traced words).
    pub fn is_cards(&self) -> bool {
        *self == Pieces::Cards
    }
}

/// One zone of the traced table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Zone {
    /// Where it lies in the traced state, `/`-separated; in a seat's zones `*` is the seat's
    /// number (`players/*/hand`).
    pub path: String,
    /// Its name as the rulebook says it ("the display", "hand").
    pub name: String,
    /// How its cards lie.
    pub lay: Lay,
    /// What it holds (cards unless said otherwise).
    #[serde(skip_serializing_if = "Pieces::is_cards")]
    pub pieces: Pieces,
}

impl Zone {
    /// The zone at `path` called `name`, laid as `lay`, holding cards.
    pub fn new(path: &str, name: &str, lay: Lay) -> Zone {
        Zone { path: path.to_string(), name: name.to_string(), lay, pieces: Pieces::Cards }
    }

    /// The same zone holding `pieces`.
    pub fn holding(self, pieces: Pieces) -> Zone {
        Zone { pieces, ..self }
    }
}

/// The table in the game's words (module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableWords {
    /// What decides the game, one sentence ("The first to empty their hand ends the round;
    /// the highest match total wins").
    pub goal: String,
    /// What the seat to move is deciding now, from what every seat knows ("seat 2 decides
    /// whether to take seat 1's stabbed top play or put it away"); empty once over.
    pub now: String,
    /// The public facts of the moment, short ("round 2 of at most 5", "pot: 4 pennies").
    pub facts: Vec<String>,
    /// The shared zones.
    pub zones: Vec<Zone>,
    /// Each seat's zones (paths with `*` for the seat) and facts.
    pub seat_zones: Vec<Zone>,
    /// One line per seat of public facts about it ("2 turns to skip", "out of the game"),
    /// empty for none.
    pub seat_facts: Vec<String>,
    /// The game's end in words (empty while it goes on): why it ended, in the rulebook's terms.
    pub end: String,
}

/// A list of seats in words: "seat 0", "seats 0 and 2", "seats 0, 1 and 3".
pub fn seats_text(seats: &[usize]) -> String {
    match seats {
        [] => "nobody".into(),
        [one] => format!("seat {one}"),
        [rest @ .., last] => format!("seats {} and {last}", rest.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_as_a_list() {
        assert_eq!(seats_text(&[1]), "seat 1");
        assert_eq!(seats_text(&[0, 2]), "seats 0 and 2");
        assert_eq!(seats_text(&[0, 1, 3]), "seats 0, 1 and 3");
    }
}
