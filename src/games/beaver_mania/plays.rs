//! What a play is: the legal forms of docs/games/beaver-mania.md ([`Play`]), how a pile's top play is judged
//! ([`judge`], also for what steals leave of it), which form stabs which ([`stabs`]), and
//! the enumeration of every legal play of a hand in canonical play order ([`for_each_play`]).

use std::fmt;

use super::cards::{BODYGUARD, Card, HIPPIE, Hand, JOKER, KINDS, NUMBER_BITS, PARTYBEAVER, card_name, is_action};

/// The name of `card` in traces (see the `trace` module doc); `none` for no card.
pub fn name(card: Card) -> String {
    if card == NO_CARD { "none".into() } else { card_name(card) }
}

/// serde of a Beaver Mania card by name: `#[serde(with = "by_name")]`.
pub mod by_name {
    use super::{Card, KINDS, NO_CARD, name};

    /// Writes the name.
    pub fn serialize<S: serde::Serializer>(card: &Card, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&name(*card))
    }

    /// Reads a name.
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let n = <String as serde::Deserialize>::deserialize(d)?;
        if n == "none" {
            return Ok(NO_CARD);
        }
        (0..KINDS as Card)
            .find(|&c| name(c) == n)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown card `{n}`; cards are `1` to `20`, `joker`, `thief`, `bad guy`, ... or `none`")))
    }
}

/// The value of jokers alone: above every number.
pub const JOKERS_VALUE: u8 = 100;
/// "No card" in a [`Play`] field.
pub const NO_CARD: Card = u8::MAX;
/// Shortest run.
pub const MIN_RUN: u8 = 3;
/// Longest run.
pub const MAX_RUN: u8 = 7;

/// What a top play (or a play being made) is for stabbing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// No legal play (what steals left of one): nothing stabs it.
    None,
    /// Identical numbers (with jokers or one action card), or jokers alone
    /// (`value` = [`JOKERS_VALUE`]); `value` is the number's card index.
    Group {
        /// Card index of the number, or [`JOKERS_VALUE`].
        value: u8,
        /// Cards in the play.
        size: u8,
    },
    /// A run of consecutive numbers.
    Run {
        /// Its length.
        len: u8,
        /// Card index of its highest number.
        high: u8,
        /// Whether the Hippie stands in it.
        hippie: bool,
    },
    /// The Partybeaver with 3 unrelated numbers: never stabbed, stabs nothing.
    Party,
    /// One action card played alone.
    Lone,
}

/// A top play as judged: its form and whether it still holds a Bodyguard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The form.
    pub form: Form,
    /// Holds a Bodyguard (cannot be stabbed).
    pub guard: bool,
}

/// Whether a play of form `stabber` stabs a top play judged `target` (docs/games/beaver-mania.md, stabbing 2).
#[inline]
pub fn stabs(stabber: Form, target: Judged) -> bool {
    if target.guard {
        return false;
    }
    match (stabber, target.form) {
        (Form::Group { value: v, size: k }, Form::Group { value: w, size: k2 }) => k == k2 && w < v && w != JOKERS_VALUE,
        (Form::Group { value: JOKERS_VALUE, size: 1 }, Form::Lone) => true,
        (Form::Run { len, high, .. }, Form::Run { len: l2, high: h2, .. }) => len == l2 && h2 < high,
        _ => false,
    }
}

/// Judges a multiset of cards lying as one play. `decl` is the number the Hippie was
/// declared to stand for ([`NO_CARD`] when none); `original` is false for what steals left
/// of a play, where a lone action card forms no play (docs/games/beaver-mania.md).
pub fn judge(cards: &Hand, decl: Card, original: bool) -> Judged {
    let guard = cards.has(BODYGUARD);
    let form = judge_form(cards, decl, original);
    Judged { form, guard }
}

fn judge_form(cards: &Hand, decl: Card, original: bool) -> Form {
    let total = cards.len() as u32;
    if total == 0 {
        return Form::None;
    }
    let nums = cards.held() & NUMBER_BITS;
    let jokers = cards.count(JOKER);
    let actions = cards.actions();
    let numbers = cards.numbers();
    if nums == 0 {
        return if actions == 0 {
            Form::Group { value: JOKERS_VALUE, size: jokers as u8 }
        } else if total == 1 && original {
            Form::Lone
        } else {
            Form::None
        };
    }
    let action = if actions == 1 { cards.kinds().find(|&c| is_action(c)).unwrap_or(NO_CARD) } else { NO_CARD };
    if nums.count_ones() == 1 {
        let value = nums.trailing_zeros() as u8;
        return match (jokers, actions) {
            (_, 0) => Form::Group { value, size: total as u8 },
            (0, 1) if action != PARTYBEAVER => Form::Group { value, size: total as u8 },
            _ => Form::None,
        };
    }
    if jokers > 0 || actions > 1 || numbers != nums.count_ones() {
        return Form::None;
    }
    match (actions, action) {
        (0, _) => run_of(nums, false),
        (1, HIPPIE) if decl != NO_CARD && nums & (1 << decl) == 0 => run_of(nums | 1 << decl, true),
        (1, PARTYBEAVER) if numbers == 3 && unrelated(nums) => Form::Party,
        _ => Form::None,
    }
}

/// The run formed by the numbers in `mask`, if they are 3 to 7 consecutive numbers.
fn run_of(mask: u32, hippie: bool) -> Form {
    let low = mask.trailing_zeros();
    let len = mask.count_ones();
    if (MIN_RUN as u32..=MAX_RUN as u32).contains(&len) && mask >> low == (1 << len) - 1 {
        Form::Run { len: len as u8, high: (low + len - 1) as u8, hippie }
    } else {
        Form::None
    }
}

/// Whether the numbers in `mask` are pairwise different and no two consecutive.
#[inline]
pub fn unrelated(mask: u32) -> bool {
    mask & (mask >> 1) == 0
}

/// One legal play: a set of hand cards and the Hippie's declaration (trace notation: the
/// `trace` module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Play {
    /// `count` cards of one number plus `jokers` jokers or one `action` card (never both).
    Group {
        /// The number's card.
        #[serde(with = "by_name")]
        number: Card,
        /// Copies of it, at least 1.
        count: u8,
        /// Jokers added.
        jokers: u8,
        /// The action card added, or [`NO_CARD`].
        #[serde(with = "by_name")]
        action: Card,
    },
    /// Jokers alone.
    Jokers {
        /// How many, at least 1.
        count: u8,
    },
    /// The Hippie with numbers forming the run `low..low + len`, standing for `hippie`.
    HippieRun {
        /// Card of the lowest number.
        #[serde(with = "by_name")]
        low: Card,
        /// Length, 3 to 7.
        len: u8,
        /// The number the Hippie stands for.
        #[serde(with = "by_name")]
        hippie: Card,
    },
    /// A run of number cards alone (legal only when it stabs a Hippie run, or as the last
    /// cards of the hand).
    PlainRun {
        /// Card of the lowest number.
        #[serde(with = "by_name")]
        low: Card,
        /// Length, 3 to 7.
        len: u8,
    },
    /// The Partybeaver with three unrelated numbers `a < b < c`.
    Party {
        /// Lowest number.
        #[serde(with = "by_name")]
        a: Card,
        /// Middle number.
        #[serde(with = "by_name")]
        b: Card,
        /// Highest number.
        #[serde(with = "by_name")]
        c: Card,
    },
    /// One action card alone.
    Lone {
        /// The card.
        #[serde(with = "by_name")]
        card: Card,
    },
}

impl Play {
    /// The hand cards it uses.
    pub fn cards(&self) -> Hand {
        let mut h = Hand::EMPTY;
        match *self {
            Play::Group { number, count, jokers, action } => {
                h.add_n(number, count as u32);
                h.add_n(JOKER, jokers as u32);
                if action != NO_CARD {
                    h.add(action);
                }
            }
            Play::Jokers { count } => h.add_n(JOKER, count as u32),
            Play::HippieRun { low, len, hippie } => {
                for c in low..low + len {
                    h.add(if c == hippie { HIPPIE } else { c });
                }
            }
            Play::PlainRun { low, len } => {
                for c in low..low + len {
                    h.add(c);
                }
            }
            Play::Party { a, b, c } => {
                for x in [a, b, c, PARTYBEAVER] {
                    h.add(x);
                }
            }
            Play::Lone { card } => h.add(card),
        }
        h
    }

    /// Cards it puts on the pile.
    #[inline]
    pub fn size(&self) -> u32 {
        match *self {
            Play::Group { count, jokers, action, .. } => count as u32 + jokers as u32 + u32::from(action != NO_CARD),
            Play::Jokers { count } => count as u32,
            Play::HippieRun { len, .. } | Play::PlainRun { len, .. } => len as u32,
            Play::Party { .. } => 4,
            Play::Lone { .. } => 1,
        }
    }

    /// Jokers it uses.
    #[inline]
    pub fn jokers(&self) -> u32 {
        match *self {
            Play::Group { jokers, .. } => jokers as u32,
            Play::Jokers { count } => count as u32,
            _ => 0,
        }
    }

    /// Its form as a new top play.
    #[inline]
    pub fn form(&self) -> Form {
        match *self {
            Play::Group { number, .. } => Form::Group { value: number, size: self.size() as u8 },
            Play::Jokers { count } => Form::Group { value: JOKERS_VALUE, size: count },
            Play::HippieRun { low, len, .. } => Form::Run { len, high: low + len - 1, hippie: true },
            Play::PlainRun { low, len } => Form::Run { len, high: low + len - 1, hippie: false },
            Play::Party { .. } => Form::Party,
            Play::Lone { .. } => Form::Lone,
        }
    }

    /// Whether it holds a Bodyguard.
    #[inline]
    pub fn guard(&self) -> bool {
        matches!(*self, Play::Group { action: BODYGUARD, .. } | Play::Lone { card: BODYGUARD })
    }

    /// The Hippie's declared number, or [`NO_CARD`].
    #[inline]
    pub fn decl(&self) -> Card {
        match *self {
            Play::HippieRun { hippie, .. } => hippie,
            _ => NO_CARD,
        }
    }

    /// The action card whose action happens after stabbing, if any (the Hippie of a run and
    /// the Partybeaver of a Partybeaver play act as nothing).
    #[inline]
    pub fn action(&self) -> Card {
        match *self {
            Play::Group { action, .. } => action,
            Play::Lone { card } => card,
            _ => NO_CARD,
        }
    }

    /// The action card the play lays, whatever its form ([`NO_CARD`] for none): the card of
    /// a group or a lone card, the Partybeaver of a Partybeaver play, the Hippie of a Hippie
    /// run (what the counts of action cards played count).
    #[inline]
    pub fn action_card(&self) -> Card {
        match *self {
            Play::Party { .. } => PARTYBEAVER,
            Play::HippieRun { .. } => HIPPIE,
            _ => self.action(),
        }
    }

    /// Whether it stabs (every play except an action card alone and a Partybeaver play).
    #[inline]
    pub fn stabs_at_all(&self) -> bool {
        !matches!(*self, Play::Party { .. } | Play::Lone { .. })
    }

    /// Its value for ordering: the number (card index + 1), [`JOKERS_VALUE`] for jokers
    /// alone, a run's highest number, 0 for Partybeaver plays and lone action cards.
    #[inline]
    pub fn value(&self) -> u32 {
        match self.form() {
            Form::Group { value: JOKERS_VALUE, .. } => JOKERS_VALUE as u32,
            Form::Group { value, .. } => value as u32 + 1,
            Form::Run { high, .. } => high as u32 + 1,
            _ => 0,
        }
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Play::HippieRun { low, len, hippie } => {
                write!(f, "run {}-{} with the hippie as {}", low + 1, low + len, hippie + 1)
            }
            Play::PlainRun { low, len } => write!(f, "run {}-{}", low + 1, low + len),
            Play::Party { a, b, c } => write!(f, "partybeaver with {}, {}, {}", a + 1, b + 1, c + 1),
            Play::Lone { card } => write!(f, "{} alone", card_name(card)),
            _ => write!(f, "[{}]", self.cards()),
        }
    }
}

/// What decides whether a plain run is legal: for each run length, the lowest highest number
/// (card index) of another player's top play that is a Hippie run of that length
/// (`u8::MAX`: none).
pub type HippieTargets = [u8; MAX_RUN as usize + 1];

/// Calls `f` with every legal play of `hand` in canonical play order: groups (by number,
/// then count, then with 0, 1, ... jokers, then with each action card in canonical order),
/// jokers alone (by count), Hippie runs (by lowest number, length, the Hippie's number),
/// plain runs (by lowest number, length), Partybeaver plays (lexicographic), lone action
/// cards (canonical order). `numbers` is the deck's highest number.
#[inline]
pub fn for_each_play(hand: &Hand, numbers: u8, targets: &HippieTargets, mut f: impl FnMut(Play)) {
    let nums = hand.held() & NUMBER_BITS;
    let jokers = hand.count(JOKER) as u8;
    let action_mask = hand.held() & !(NUMBER_BITS | 1 << JOKER) & !(1 << PARTYBEAVER);
    let mut m = nums;
    while m != 0 {
        let number = m.trailing_zeros() as Card;
        m &= m - 1;
        for count in 1..=hand.count(number) as u8 {
            for j in 0..=jokers {
                f(Play::Group { number, count, jokers: j, action: NO_CARD });
            }
            let mut a = action_mask;
            while a != 0 {
                let action = a.trailing_zeros() as Card;
                a &= a - 1;
                f(Play::Group { number, count, jokers: 0, action });
            }
        }
    }
    for count in 1..=jokers {
        f(Play::Jokers { count });
    }
    if hand.has(HIPPIE) {
        for low in 0..numbers.saturating_sub(MIN_RUN - 1) {
            for len in MIN_RUN..=MAX_RUN.min(numbers - low) {
                let need = ((1u32 << len) - 1) << low;
                let missing = need & !nums;
                match missing.count_ones() {
                    0 => {
                        for hippie in low..low + len {
                            f(Play::HippieRun { low, len, hippie });
                        }
                    }
                    1 => f(Play::HippieRun { low, len, hippie: missing.trailing_zeros() as Card }),
                    _ => {}
                }
            }
        }
    }
    for low in 0..numbers.saturating_sub(MIN_RUN - 1) {
        for len in MIN_RUN..=MAX_RUN.min(numbers - low) {
            let need = ((1u32 << len) - 1) << low;
            if need & !nums != 0 {
                break;
            }
            let high = low + len - 1;
            if targets[len as usize] < high || hand.len() == len as usize {
                f(Play::PlainRun { low, len });
            }
        }
    }
    if hand.has(PARTYBEAVER) {
        let mut ma = nums;
        while ma != 0 {
            let a = ma.trailing_zeros() as Card;
            ma &= ma - 1;
            let mut mb = nums & !((1u32 << (a + 2)) - 1);
            while mb != 0 {
                let b = mb.trailing_zeros() as Card;
                mb &= mb - 1;
                let mut mc = nums & !((1u32 << (b + 2)) - 1);
                while mc != 0 {
                    let c = mc.trailing_zeros() as Card;
                    mc &= mc - 1;
                    f(Play::Party { a, b, c });
                }
            }
        }
    }
    let mut a = hand.held() & !(NUMBER_BITS | 1 << JOKER);
    while a != 0 {
        let card = a.trailing_zeros() as Card;
        a &= a - 1;
        f(Play::Lone { card });
    }
}

/// Whether `play` is legal for `hand` (the same test as membership in [`for_each_play`]).
pub fn is_legal_play(play: &Play, hand: &Hand, numbers: u8, targets: &HippieTargets) -> bool {
    let shape_ok = match *play {
        Play::Group { number, count, jokers, action } => {
            number < numbers && count >= 1 && (action == NO_CARD || (jokers == 0 && is_action(action) && action != PARTYBEAVER))
        }
        Play::Jokers { count } => count >= 1,
        Play::HippieRun { low, len, hippie } => {
            (MIN_RUN..=MAX_RUN).contains(&len) && low as u32 + len as u32 <= numbers as u32 && (low..low + len).contains(&hippie)
        }
        Play::PlainRun { low, len } => {
            (MIN_RUN..=MAX_RUN).contains(&len)
                && low as u32 + len as u32 <= numbers as u32
                && (targets[len as usize] < low + len - 1 || hand.len() == len as usize)
        }
        Play::Party { a, b, c } => a < numbers && b < numbers && c < numbers && b >= a + 2 && c >= b + 2,
        Play::Lone { card } => is_action(card) && (card as usize) < super::cards::KINDS,
    };
    if !shape_ok {
        return false;
    }
    let need = play.cards();
    need.kinds().all(|c| hand.count(c) >= need.count(c))
}
