//! A Dice Factor hand as counts per card with the number of cards counting toward each of
//! the ten concrete targets kept up to date (one add per card, no heap), and the targets the
//! two dice allow.

use std::fmt;

use crate::games::chroma::{CARD_KINDS, COLORS, Card, SHAPES, card_name};

/// Concrete targets: 0..5 the colors (canonical order), 5..10 the shapes.
pub const TARGETS: usize = 10;
/// Bits per target field of [`Hand::toward`].
const FIELD: u32 = 6;
/// One field's mask.
const FIELD_MASK: u64 = (1 << FIELD) - 1;

/// The logo face of either die (faces 0..5 are the colors or shapes in canonical order).
pub const LOGO: u8 = 5;
/// Faces of either die.
pub const DIE_FACES: u32 = 6;

/// Whether card `card` counts toward target `t` (docs/games/dice-factor.md: a color counts its base cards, its
/// color wild, every shape wild and the all-wilds; a shape likewise).
pub const fn counts_toward(card: usize, t: usize) -> bool {
    if t < 5 {
        let c = t;
        match card {
            0..25 => card / 5 == c,
            25..30 => card - 25 == c,
            30..37 => true,
            _ => false,
        }
    } else {
        let s = t - 5;
        match card {
            0..25 => card % 5 == s,
            25..30 => true,
            30..35 => card - 30 == s,
            35 | 36 => true,
            _ => false,
        }
    }
}

/// Per card: 1 in the field of every target it counts toward.
const TOWARD_INC: [u64; CARD_KINDS] = {
    let mut m = [0u64; CARD_KINDS];
    let mut card = 0;
    while card < CARD_KINDS {
        let mut t = 0;
        while t < TARGETS {
            if counts_toward(card, t) {
                m[card] |= 1 << (FIELD * t as u32);
            }
            t += 1;
        }
        card += 1;
    }
    m
};

/// Per target: bit k set when card k counts toward it.
pub const TOWARD_MASK: [u64; TARGETS] = {
    let mut m = [0u64; TARGETS];
    let mut t = 0;
    while t < TARGETS {
        let mut card = 0;
        while card < CARD_KINDS {
            if counts_toward(card, t) {
                m[t] |= 1 << card;
            }
            card += 1;
        }
        t += 1;
    }
    m
};

/// Per 5-bit group of targets: bit 6t set for every target t of the group (first field 0).
const FIELD_STARTS: [u64; 32] = {
    let mut t = [0u64; 32];
    let mut x = 0;
    while x < 32 {
        let mut b = 0;
        while b < 5 {
            if x & (1 << b) != 0 {
                t[x] |= 1 << (FIELD * b);
            }
            b += 1;
        }
        x += 1;
    }
    t
};

/// [`Hand::reaches`] for one set of targets and one goal, ready to test many hands: the
/// allowed targets' fields plus 64 - goal each carry out of their field exactly when they
/// reach the goal (fields hold at most 63), and the carries are read back with two XORs.
/// A carry into the next field can only make that field carry too when it reaches the
/// goal less one: a false hit there rides on a true one below, so "any carry" is exact.
#[derive(Clone, Copy, Debug)]
pub struct Reach {
    /// The allowed targets' fields.
    fields: u64,
    /// 64 - goal in every allowed target's field.
    bias: u64,
    /// Bit 6(t + 1) for every allowed target t: where its carry lands.
    carries: u64,
}

impl Reach {
    /// The test of `goal` (1 to 64) cards toward a target in `allowed`.
    #[inline(always)]
    pub fn new(allowed: u16, goal: u32) -> Reach {
        let starts = FIELD_STARTS[(allowed & 31) as usize] | FIELD_STARTS[(allowed >> 5 & 31) as usize] << (5 * FIELD);
        Reach { fields: starts * FIELD_MASK, bias: starts * (64 - u64::from(goal)), carries: starts << FIELD }
    }

    /// Whether `hand` holds the goal toward an allowed target: six operations, no branch.
    #[inline(always)]
    pub fn hit(self, hand: &Hand) -> bool {
        let held = hand.toward & self.fields;
        ((held + self.bias) ^ held ^ self.bias) & self.carries != 0
    }
}

/// The targets the dice allow, as a 10-bit mask: a color face allows that color, the logo
/// on the colors die every color; likewise the shapes die. Two table reads; the tests
/// compare it with `allowed_targets_plain` for every pair of bytes.
#[inline(always)]
pub fn allowed_targets(dice: [u8; 2]) -> u16 {
    FACE_TARGETS[dice[0] as usize] | (FACE_TARGETS[dice[1] as usize] << 5)
}

/// [`allowed_targets`] read from the rule: a face below the logo allows its own target, the
/// logo (or anything above) all five.
#[cfg(test)]
pub fn allowed_targets_plain(dice: [u8; 2]) -> u16 {
    let colors = if dice[0] >= LOGO { 0b11111 } else { 1 << dice[0] };
    let shapes = if dice[1] >= LOGO { 0b11111 } else { 1 << dice[1] };
    colors | (shapes << 5)
}

/// Per die face (any byte): the five targets of its die it allows, as [`allowed_targets_plain`]
/// reads them.
const FACE_TARGETS: [u16; 256] = {
    let mut t = [0b11111u16; 256];
    let mut f = 0;
    while f < LOGO as usize {
        t[f] = 1 << f;
        f += 1;
    }
    t
};

/// The two targets of `allowed` (lower first) when it holds exactly two, as it does when
/// neither die shows the logo; `None` otherwise.
#[inline(always)]
pub fn pair(allowed: u16) -> Option<(usize, usize)> {
    let rest = allowed & allowed.wrapping_sub(1);
    // `&`, not `&&`: one branch (on the dice's shape, the same all game long), not two.
    ((rest != 0) & (rest & rest.wrapping_sub(1) == 0)).then(|| (allowed.trailing_zeros() as usize, rest.trailing_zeros() as usize))
}

/// The targets `allowed` when exactly one die shows the logo, as `(die, other)`: `die` 0
/// when the colors die shows it (every color and the shape `other` are allowed), 1 when the
/// shapes die does (the color `other` and every shape); `None` otherwise.
#[inline(always)]
pub fn one_logo(allowed: u16) -> Option<(usize, usize)> {
    let (colors, shapes) = (allowed & 31, allowed >> 5);
    // `&`, not `&&`: fewer branches on the dice's shape.
    let single = |m: u16| (m != 0) & (m & m.wrapping_sub(1) == 0);
    if (colors == 31) & single(shapes) {
        Some((0, 5 + shapes.trailing_zeros() as usize))
    } else if (shapes == 31) & single(colors) {
        Some((1, colors.trailing_zeros() as usize))
    } else {
        None
    }
}

/// The six targets of [`one_logo`] in canonical order: the five of the die showing the logo
/// (`LOGO` 0 colors, 1 shapes) and `other`. Five of them are constants, so a loop over them
/// reads fields at fixed places.
#[inline(always)]
const fn logo_targets<const LOGO: usize>(other: usize) -> [usize; 6] {
    if LOGO == 0 { [0, 1, 2, 3, 4, other] } else { [other, 5, 6, 7, 8, 9] }
}

/// The ten targets in canonical order: what the dice allow when both show the logo.
const ALL_TARGETS: [usize; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/// A target's name: `red`, `star`.
pub fn target_name(t: usize) -> &'static str {
    if t < 5 { COLORS[t] } else { SHAPES[t - 5] }
}

/// What the everyday choices read of a hand, in two words: which cards it holds and how
/// many cards count toward each target. A [`Hand`] keeps it up to date card by card;
/// [`Holding::plus`] gives the one after a draw, in registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holding {
    /// Bit k set when card k is held.
    pub held: u64,
    /// Cards counting toward each target, one [`FIELD`]-bit field per target.
    toward: u64,
}

impl Holding {
    /// This holding with one more `card`.
    #[inline(always)]
    pub fn plus(self, card: Card) -> Holding {
        Holding { held: self.held | 1 << card, toward: self.toward + TOWARD_INC[card as usize] }
    }

    /// Cards counting toward target `t`.
    #[inline(always)]
    pub fn score(self, t: usize) -> u32 {
        ((self.toward >> (FIELD * t as u32)) & FIELD_MASK) as u32
    }

    /// The best target the dice allow (`allowed`, from [`allowed_targets`]): highest score,
    /// ties to colors before shapes, then canonical order (the lowest index). Read by the
    /// dice's shape: two targets without a loop, else [`Holding::best_of`] over the six
    /// (one logo) or the ten (two logos) targets; the tests compare it with a plain loop
    /// over the targets.
    #[inline(always)]
    pub fn best_target(self, allowed: u16) -> usize {
        match (pair(allowed), one_logo(allowed)) {
            (Some((a, b)), _) => self.best_of_two(allowed, a, b),
            (None, Some((0, other))) => self.best_under_logo::<0>(other),
            (None, Some((_, other))) => self.best_under_logo::<1>(other),
            (None, None) => {
                debug_assert_eq!(allowed, 0x3ff, "dice allow two, six or ten targets");
                self.best_of(ALL_TARGETS)
            }
        }
    }

    /// The best of `targets` (in canonical order, not empty): the highest score, ties to the
    /// first. A fixed number of targets, so the loop is unrolled with the fields' places.
    #[inline(always)]
    pub fn best_of<const N: usize>(self, targets: [usize; N]) -> usize {
        let (mut pick, mut best) = (targets[0], 0);
        for t in targets {
            let s = self.score(t);
            if s > best {
                best = s;
                pick = t;
            }
        }
        pick
    }

    /// The highest score over `targets` (0 when there are none).
    #[inline(always)]
    pub fn highest_of<const N: usize>(self, targets: [usize; N]) -> u32 {
        targets.iter().fold(0, |best, &t| best.max(self.score(t)))
    }

    /// [`Holding::best_target`] when one die shows the logo ([`one_logo`]).
    #[inline(always)]
    pub fn best_under_logo<const LOGO: usize>(self, other: usize) -> usize {
        self.best_of(logo_targets::<LOGO>(other))
    }

    /// The highest score when one die shows the logo ([`one_logo`]).
    #[inline(always)]
    pub fn highest_under_logo<const LOGO: usize>(self, other: usize) -> u32 {
        self.highest_of(logo_targets::<LOGO>(other))
    }

    /// [`Holding::best_target`] when the dice allow exactly the targets `a` < `b` (`allowed`):
    /// the lowest target of `allowed`, or of `allowed` without it when `b` leads. Arithmetic,
    /// not a select: which of two targets leads is a coin toss from one discard to the next,
    /// and the compiler made both a branch and `select_unpredictable` a branch (a fifth of a
    /// game's mispredicted branches, cachegrind).
    #[inline(always)]
    pub fn best_of_two(self, allowed: u16, a: usize, b: usize) -> usize {
        let b_leads = u16::from(self.score(b) > self.score(a));
        (allowed & allowed.wrapping_sub(b_leads)).trailing_zeros() as usize
    }
}

/// A hand: copies per card, which cards are held, how many cards count toward each target,
/// and the add_a_card cards lying in front of it (they move with the hand in a trade).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Hand {
    counts: [u8; CARD_KINDS],
    held: u64,
    toward: u64,
    len: u8,
    /// add_a_card cards in front of this hand (each raised its size by one).
    pub extra: u8,
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; CARD_KINDS], held: 0, toward: 0, len: 0, extra: 0 };

    /// A hand holding `cards`.
    pub fn from_cards(cards: &[Card]) -> Hand {
        let mut h = Hand::EMPTY;
        for &c in cards {
            h.add(c);
        }
        h
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies of `card` held.
    #[inline]
    pub fn count(&self, card: Card) -> u32 {
        self.counts[card as usize] as u32
    }

    /// Bit k set when card k is held.
    #[inline]
    pub fn held(&self) -> u64 {
        self.held
    }

    /// Adds one card.
    #[inline]
    pub fn add(&mut self, card: Card) {
        self.counts[card as usize] += 1;
        self.held |= 1 << card;
        self.toward += TOWARD_INC[card as usize];
        self.len += 1;
    }

    /// Makes this hand hold exactly `cards`, no add_a_card in front: what [`Hand::EMPTY`]
    /// with [`Hand::add`] of each card in turn holds (the tests compare the two), written
    /// without reading the masks the hand held: they are summed in registers and stored
    /// once, with the length (a new deal's first reads of a hand the engine had cleared with
    /// a wide store waited for that store: 30% of the deal).
    #[inline(always)]
    pub fn deal(&mut self, cards: &[Card]) {
        self.counts = [0; CARD_KINDS];
        let (mut held, mut toward) = (0, 0);
        for &card in cards {
            self.counts[card as usize] += 1;
            held |= 1 << card;
            toward += TOWARD_INC[card as usize];
        }
        self.held = held;
        self.toward = toward;
        self.len = cards.len() as u8;
        self.extra = 0;
    }

    /// Removes one card; the caller checks that it is held.
    #[inline]
    pub fn remove(&mut self, card: Card) {
        let c = &mut self.counts[card as usize];
        debug_assert!(*c > 0, "removing a card that is not held");
        *c -= 1;
        // Without a branch: whether the last copy left is the hand's to tell, not the code's.
        self.held &= !(u64::from(*c == 0) << card);
        self.toward -= TOWARD_INC[card as usize];
        self.len -= 1;
    }

    /// The `k`-th card (from 0) in canonical order, copies counted: a uniform random card is
    /// `nth(below(len))`.
    #[inline]
    pub fn nth(&self, mut k: usize) -> Card {
        let mut bits = self.held;
        while bits != 0 {
            let card = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let c = self.counts[card] as usize;
            if k < c {
                return card as Card;
            }
            k -= c;
        }
        panic!("nth past the end of the hand");
    }

    /// Cards counting toward target `t` (`Holding::score`).
    #[inline]
    pub fn score(&self, t: usize) -> u32 {
        self.holding().score(t)
    }

    /// The highest score over the targets the dice allow (`allowed`, from
    /// [`allowed_targets`]). Two targets (the dice show no logo) are read without a loop,
    /// six (one logo) or ten (two logos) with fields at fixed places
    /// (`Holding::highest_of`); the tests compare it with a plain loop over the targets.
    #[inline]
    pub fn highest(&self, allowed: u16) -> u32 {
        match (pair(allowed), one_logo(allowed)) {
            (Some((a, b)), _) => self.score(a).max(self.score(b)),
            (None, Some((0, other))) => self.holding().highest_under_logo::<0>(other),
            (None, Some((_, other))) => self.holding().highest_under_logo::<1>(other),
            (None, None) => {
                debug_assert_eq!(allowed, 0x3ff, "dice allow two, six or ten targets");
                self.holding().highest_of(ALL_TARGETS)
            }
        }
    }

    /// [`Hand::highest`] of each of `hands`, in order, handed to `each` with its index: the
    /// targets' shape (two, one logo, more) is found once for all of them.
    #[inline]
    pub fn highest_each(hands: &[Hand], allowed: u16, mut each: impl FnMut(usize, u32)) {
        match (pair(allowed), one_logo(allowed)) {
            (Some((a, b)), _) => hands.iter().enumerate().for_each(|(i, h)| each(i, h.score(a).max(h.score(b)))),
            (None, Some((0, other))) => hands.iter().enumerate().for_each(|(i, h)| each(i, h.holding().highest_under_logo::<0>(other))),
            (None, Some((_, other))) => hands.iter().enumerate().for_each(|(i, h)| each(i, h.holding().highest_under_logo::<1>(other))),
            (None, None) => hands.iter().enumerate().for_each(|(i, h)| each(i, h.holding().highest_of(ALL_TARGETS))),
        }
    }

    /// Whether some target in `allowed` has at least `goal` cards (1 to 64): `highest(allowed)
    /// >= goal`, the plain version the tests compare it with, without a loop ([`Reach`]).
    #[inline(always)]
    pub fn reaches(&self, allowed: u16, goal: u32) -> bool {
        Reach::new(allowed, goal).hit(self)
    }

    /// Whether adding `card` raises the highest score over the targets the dice allow
    /// (`allowed`, from [`allowed_targets`]): the highest score with the card added against
    /// [`Hand::highest`]. Two targets (the dice show no logo) are read without a loop; the
    /// tests compare it with that definition. Always inlined: out of line (as the compiler
    /// chose), the bot's every draw paid a call and the play loop's bit instructions were
    /// not used in it.
    #[inline(always)]
    pub fn raised_by(&self, card: Card, allowed: u16) -> bool {
        match (pair(allowed), one_logo(allowed)) {
            (Some((a, b)), _) => self.raised_by_two(card, a, b),
            (None, Some((0, other))) => self.raised_under_logo::<0>(card, other),
            (None, Some((_, other))) => self.raised_under_logo::<1>(card, other),
            (None, None) => {
                debug_assert_eq!(allowed, 0x3ff, "dice allow two, six or ten targets");
                self.raised_over(card, ALL_TARGETS)
            }
        }
    }

    /// [`Hand::raised_by`] when one die shows the logo (`one_logo`): over six targets five
    /// of which are constants.
    #[inline(always)]
    pub fn raised_under_logo<const LOGO: usize>(&self, card: Card, other: usize) -> bool {
        self.raised_over(card, logo_targets::<LOGO>(other))
    }

    /// Whether adding `card` raises the highest score over `targets`: the highest score with
    /// the card against the highest score without it.
    #[inline(always)]
    fn raised_over<const N: usize>(&self, card: Card, targets: [usize; N]) -> bool {
        let now = self.holding();
        now.plus(card).highest_of(targets) > now.highest_of(targets)
    }

    /// [`Hand::raised_by`] when the dice allow exactly the targets `a` and `b`.
    #[inline(always)]
    pub fn raised_by_two(&self, card: Card, a: usize, b: usize) -> bool {
        let inc = TOWARD_INC[card as usize];
        let (sa, sb) = (self.score(a), self.score(b));
        // The card raises the highest score when it counts toward a target holding it.
        let counts_a = (inc >> (FIELD * a as u32)) & 1 != 0;
        let counts_b = (inc >> (FIELD * b as u32)) & 1 != 0;
        (counts_a & (sa >= sb)) | (counts_b & (sb >= sa))
    }

    /// The best target the dice allow (`Holding::best_target`).
    #[inline]
    pub fn best_target(&self, allowed: u16) -> usize {
        self.holding().best_target(allowed)
    }

    /// What the everyday choices read of this hand (`Holding`).
    #[inline(always)]
    pub fn holding(&self) -> Holding {
        Holding { held: self.held, toward: self.toward }
    }

    /// [`Hand::add`] of `card`, then [`Hand::remove`] of `out` (held after the add): one
    /// exchange with the length unchanged, and no count read back after its own write (the
    /// tests compare it with the add and the remove).
    #[inline(always)]
    pub fn exchange(&mut self, card: Card, out: Card) {
        let (i, o) = (card as usize, out as usize);
        let (count_in, count_out) = (self.counts[i], self.counts[o]);
        debug_assert!(o == i || count_out > 0, "exchanging out a card that is not held");
        // After the add and the remove: `out`'s copies less one, or as many as before when
        // `out` is `card` (then `count_out` is `count_in`). Arithmetic, not a select: the
        // compiler made the select a branch, and whether the card drawn is the card
        // discarded is a coin toss.
        let out_after = count_out.wrapping_sub(u8::from(o != i));
        self.counts[i] = count_in + 1;
        self.counts[o] = out_after;
        self.held = (self.held | 1 << card) & !(u64::from(out_after == 0) << out);
        self.toward = self.toward + TOWARD_INC[i] - TOWARD_INC[o];
    }

    /// The cards in canonical order.
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        for (card, &c) in self.counts.iter().enumerate() {
            out.extend(std::iter::repeat_n(card as Card, c as usize));
        }
        out
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{self}]")
    }
}

impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.cards().into_iter().map(card_name).collect();
        f.write_str(&names.join(", "))?;
        if self.extra > 0 {
            write!(f, "; {} add-a-card in front", self.extra)?;
        }
        Ok(())
    }
}
