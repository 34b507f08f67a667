//! Dice Factor's bots: `collector` (defined exactly in issue 13, reproducible anywhere, no
//! allocation per decision) and `gambler` (reads what opponents take from the discard pile,
//! plays the d8 when it pays and refuses to feed a player close to winning). `random` is
//! the engine's.

use super::hand::{DIE_FACES, Hand, TARGETS, TOWARD_MASK, allowed_targets};
use super::params::MAX_PLAYERS;
use super::{Action, DiceFactor, Die, Event, Phase, View};
use crate::engine::OwnBots;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};
use crate::games::chroma::{ActionCard, CARD_KINDS, Card, FIRST_ACTION, action_of};

/// Bits of the action cards in a held-cards mask.
const ACTION_BITS: u64 = !((1u64 << FIRST_ACTION) - 1);

/// `collector`'s discard from `hand` (not empty) under the targets `allowed`: its first action
/// card in canonical order; else the first card in canonical order that does not count
/// toward its best target; if every card counts, the last card in canonical order. Inlined
/// into its callers (the play loop's discard, a search's reading of a discard): out of line
/// it was a call per discard that spilled the hand's words (43 instructions a call).
#[inline(always)]
pub fn collector_discard(hand: &Hand, allowed: u16) -> Card {
    let held = hand.held();
    let actions = held & ACTION_BITS;
    if actions != 0 {
        return actions.trailing_zeros() as Card;
    }
    first_off(held, hand.best_target(allowed))
}

/// [`collector_discard`] from a hand holding the cards of `held` (not empty), none of them an
/// action card, whose best target is `t`: the first card in canonical order that does not
/// count toward `t`; if every card counts, the last card in canonical order.
#[inline(always)]
pub fn first_off(held: u64, t: usize) -> Card {
    debug_assert_eq!(held & ACTION_BITS, 0, "an action card is discarded first");
    let off = held & !TOWARD_MASK[t];
    if off != 0 { off.trailing_zeros() as Card } else { (63 - held.leading_zeros()) as Card }
}

impl OwnBots for DiceFactor {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![collector_info(), gambler_info()]
    }
}

/// Whether a hand holding the cards of `held` holds an action card (the collector discards
/// the first one; the tests' check of [`first_off`]).
#[cfg(test)]
pub fn holds_action(held: u64) -> bool {
    held & ACTION_BITS != 0
}

/// The opponent holding the most cards; ties to the first in turn order from `seat` (the
/// current direction of play). Inlined, so that the view the play loop builds for
/// `collector` stays in registers (a call taking `&View` made every decision store it).
#[inline(always)]
fn most_cards(game: &DiceFactor, view: &View) -> u8 {
    let mut best = None;
    let mut t = game.next_seat(view.seat, view.reversed());
    while t != view.seat {
        if best.is_none_or(|(_, n)| view.hand_size(t) > n) {
            best = Some((t, view.hand_size(t)));
        }
        t = game.next_seat(t, view.reversed());
    }
    best.map_or(0, |(t, _)| t as u8)
}

/// The reroll that most raises the expected highest score of `hand` (averaged over the six
/// faces of the rerolled die); declines when no reroll raises it; ties to the colors die.
fn best_reroll(hand: &Hand, dice: [u8; 2]) -> Action {
    let now = 6 * hand.highest(allowed_targets(dice));
    let mut pick = Action::Decline;
    let mut best = now;
    for die in [Die::Colors, Die::Shapes] {
        let mut sum = 0;
        for face in 0..DIE_FACES as u8 {
            let mut d = dice;
            d[die as usize] = face;
            sum += hand.highest(allowed_targets(d));
        }
        if sum > best {
            best = sum;
            pick = Action::Reroll(die);
        }
    }
    pick
}

/// `collector`: takes the discard top when it raises the highest score of its hand (over
/// every target the dice allow), else draws; never rolls the d8; discards by
/// [`collector_discard`]. Action cards (discarded first) are resolved to its advantage:
/// trade_hands and trade_one_card aim at the opponent holding the most cards (ties to the
/// first in turn order), trade_one_card gives the card [`collector_discard`] would discard,
/// and the dice card rerolls the die that most raises its expected highest score (averaged
/// over the six faces), declining when none does (ties: decline, then colors).
#[derive(Clone, Copy, Debug, Default)]
pub struct CollectorBot;

/// The `collector` entry.
pub fn collector_info() -> BotInfo<DiceFactor> {
    BotInfo {
        name: "collector",
        // Reads nothing: its hand, the discard top and the targets the dice allow.
        reads: &[],
        aliases: &[],
        doc: "takes the discard top when it raises its highest score, else draws; never rolls the d8; discards action cards first, then the first card off its best target",
        params: &[],
        build: |_, _| Box::new(CollectorBot),
        uniform: Some(|_, seats| Box::new(Uniform::new(vec![CollectorBot; seats.len()]))),
    }
}

impl Bot<DiceFactor> for CollectorBot {
    fn name(&self) -> &str {
        "collector"
    }

    /// `collector` is deterministic (`collector_never_draws`): a table of it needs no seat
    /// streams.
    fn draws(&self) -> bool {
        false
    }

    #[inline(always)]
    fn decide(&mut self, game: &DiceFactor, view: &View<'_>, _rng: &mut GameRng) -> Action {
        let hand = view.hand;
        match view.decision {
            Phase::Start => match view.discard_top() {
                Some(top) => {
                    if hand.raised_by(top, view.allowed) {
                        Action::TakeDiscard
                    } else {
                        Action::Draw
                    }
                }
                None => Action::Draw,
            },
            Phase::Discard => Action::Discard(collector_discard(hand, view.allowed)),
            Phase::TradeHandsCard => Action::TradeHands(most_cards(game, view)),
            Phase::TradeOneCard => Action::Give { card: collector_discard(hand, view.allowed), target: most_cards(game, view) },
            Phase::DiceCard | Phase::D8Reroll => best_reroll(hand, view.dice),
            Phase::D8Swap | Phase::D8Trade | Phase::Over => Action::Decline,
        }
    }
}

/// `gambler`: a collector that counts cards and reads the table.
///
/// It remembers every card it has seen leave play (the face-up discard pile) and, per
/// opponent, the cards that opponent is known to hold (taken from the discard pile, received
/// in a swap with it, or its hand before a trade) until they are discarded or traded away.
/// It values a hand by how likely it is to complete a current target soon: for each target
/// the dice allow, (share of unseen cards counting toward it) ^ (cards still missing),
/// summed. Then:
/// - the discard is the card whose loss costs the least value, with a penalty (`defense`)
///   for a card that would lift the next player to a win by what it is known to hold;
///   action cards are valued by what they do (skip and add_a_card are worth playing at once,
///   trade_hands only when an opponent's hand is worth more than its own);
/// - it takes the discard top when keeping it (after its best discard) beats the expected
///   value of a draw;
/// - it rolls the d8 when the expected value of the roll (a trade with the opponent whose
///   known cards are worth the most, a reroll that may make its strongest target current)
///   beats drawing, weighted by `boldness`;
/// - d8 and dice-card choices: trade with the opponent worth the most if worth more than its
///   own hand, swap its least useful card with the opponent known to hold most of its best
///   target, reroll the die that most raises its value less `defense` times the biggest
///   threat (the opponent worth the most under the new dice by what is known of its hand),
///   or decline.
pub struct GamblerBot {
    seat: usize,
    boldness: f64,
    defense: f64,
    spread: f64,
    /// Cards each seat is known to hold (its own row unused).
    known: [[u8; CARD_KINDS]; MAX_PLAYERS],
    /// Its own hand at its last decision (what a trade partner now holds).
    last_hand: Hand,
}

const GAMBLER_PARAMS: &[BotParamInfo] = &[
    BotParamInfo { name: "boldness", default: 2.0, min: 0.0, max: 4.0, doc: "weight on the d8's expected value against drawing (0: never rolls)" },
    BotParamInfo { name: "defense", default: 1.0, min: 0.0, max: 4.0, doc: "weight of the penalty for discarding a card the next player is known to need" },
    BotParamInfo {
        name: "spread",
        default: 0.5,
        min: 0.0,
        max: 1.0,
        doc: "weight of the targets other than its best one when it values a hand (0: only the best)",
    },
];

/// The `gambler` entry.
pub fn gambler_info() -> BotInfo<DiceFactor> {
    BotInfo {
        name: "gambler",
        // Reads the goal, the d8's faces and the deck's copies (cards it has not seen).
        reads: &["goal", "d8", "deck.*"],
        aliases: &[],
        doc: "counts cards, reads opponents' takes from the discard pile, rolls the d8 when a trade or reroll pays, never feeds a player close to winning",
        params: GAMBLER_PARAMS,
        build: |_, v| Box::new(GamblerBot::new(v[0], v[1], v[2])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| GamblerBot::new(v[0], v[1], v[2])).collect()))),
    }
}

/// Unseen cards (draw pile and unknown cards of opponents) as the gambler counts them.
struct Unseen {
    /// Copies of each card not seen.
    cards: [f64; CARD_KINDS],
    /// Their sum.
    total: f64,
    /// Per target: share of unseen cards counting toward it.
    share: [f64; TARGETS],
    /// Per target: that share (at least 2%) to the power k, for k cards missing.
    pow: [[f64; POW]; TARGETS],
    /// Weight of the targets other than the best one in a hand's value.
    spread: f64,
}

/// Value of a winning hand (above any sum of chances over the ten targets).
const WIN_VALUE: f64 = 10.0;

/// Powers kept per target (more missing cards than this count as this many).
const POW: usize = 12;

impl GamblerBot {
    /// A gambler with the given weights.
    pub fn new(boldness: f64, defense: f64, spread: f64) -> Self {
        GamblerBot { seat: 0, boldness, defense, spread, known: [[0; CARD_KINDS]; MAX_PLAYERS], last_hand: Hand::EMPTY }
    }

    fn unseen(&self, game: &DiceFactor, view: &View) -> Unseen {
        let mut cards = [0f64; CARD_KINDS];
        let mut seen = [0u32; CARD_KINDS];
        for &c in view.discard {
            seen[c as usize] += 1;
        }
        for (o, known) in self.known.iter().enumerate().take(view.players) {
            if o == self.seat {
                continue;
            }
            for (s, &k) in seen.iter_mut().zip(known) {
                *s += k as u32;
            }
            seen[ActionCard::AddACard as usize] += view.extra(o) as u32;
        }
        seen[ActionCard::AddACard as usize] += view.hand.extra as u32;
        let mut total = 0.0;
        for (k, c) in cards.iter_mut().enumerate() {
            *c = game.copies[k].saturating_sub(seen[k] + view.hand.count(k as Card)) as f64;
            total += *c;
        }
        let mut share = [0f64; TARGETS];
        for (t, sh) in share.iter_mut().enumerate() {
            let mut n = 0.0;
            let mut bits = TOWARD_MASK[t];
            while bits != 0 {
                n += cards[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            *sh = if total > 0.0 { n / total } else { 0.0 };
        }
        let mut pow = [[1.0; POW]; TARGETS];
        for (row, &sh) in pow.iter_mut().zip(&share) {
            for k in 1..POW {
                row[k] = row[k - 1] * sh.max(0.02);
            }
        }
        Unseen { cards, total, share, pow, spread: self.spread }
    }

    /// Value of holding these per-target scores under `allowed`.
    fn value_scores(scores: &[f64; TARGETS], allowed: u16, goal: u32, u: &Unseen) -> f64 {
        let mut v = 0.0;
        let mut bits = allowed;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let need = goal as f64 - scores[t];
            v += if need <= 0.0 { 1.0 } else { u.share[t].max(0.02).powf(need) };
        }
        v
    }

    fn value(hand: &Hand, allowed: u16, goal: u32, u: &Unseen) -> f64 {
        let mut sum = 0.0;
        let mut max: f64 = 0.0;
        let mut bits = allowed;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let need = goal.saturating_sub(hand.score(t)) as usize;
            if need == 0 {
                return WIN_VALUE;
            }
            let v = u.pow[t][need.min(POW - 1)];
            sum += v;
            max = max.max(v);
        }
        max + u.spread * (sum - max)
    }

    /// Estimated per-target scores of opponent `o`: known cards plus its unknown cards spread
    /// by the unseen shares.
    fn opponent_scores(&self, view: &View, o: usize, u: &Unseen) -> [f64; TARGETS] {
        let known = &self.known[o];
        let n_known: u32 = known.iter().map(|&k| k as u32).sum();
        let unknown = (view.hand_size(o) as f64 - n_known as f64).max(0.0);
        let mut scores = [0f64; TARGETS];
        for (t, s) in scores.iter_mut().enumerate() {
            let mut k = 0u32;
            let mut bits = TOWARD_MASK[t];
            while bits != 0 {
                k += known[bits.trailing_zeros() as usize] as u32;
                bits &= bits - 1;
            }
            *s = k as f64 + unknown * u.share[t];
        }
        scores
    }

    fn opponent_value(&self, game: &DiceFactor, view: &View, o: usize, u: &Unseen) -> f64 {
        Self::value_scores(&self.opponent_scores(view, o, u), view.allowed, game.goal(), u)
    }

    /// The opponent whose hand is worth the most by what is known of it.
    fn best_opponent(&self, game: &DiceFactor, view: &View, u: &Unseen) -> (usize, f64) {
        let mut best = (usize::MAX, f64::NEG_INFINITY);
        let mut t = game.next_seat(view.seat, view.reversed());
        while t != view.seat {
            let v = self.opponent_value(game, view, t, u);
            if v > best.1 {
                best = (t, v);
            }
            t = game.next_seat(t, view.reversed());
        }
        best
    }

    /// Penalty for putting `card` on the discard pile: the next player may take it; the
    /// penalty grows with how close its known cards bring it to a win.
    fn feed_penalty(&self, game: &DiceFactor, view: &View, card: Card, u: &Unseen) -> f64 {
        if self.defense == 0.0 || action_of(card).is_some() {
            return 0.0;
        }
        let next = game.next_seat(view.seat, view.reversed());
        let known = &self.known[next];
        let mut worst: f64 = 0.0;
        let scores = self.opponent_scores(view, next, u);
        let mut bits = view.allowed;
        while bits != 0 {
            let t = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if TOWARD_MASK[t] & (1 << card) == 0 {
                continue;
            }
            let mut k = 0u32;
            let mut m = TOWARD_MASK[t];
            while m != 0 {
                k += known[m.trailing_zeros() as usize] as u32;
                m &= m - 1;
            }
            let missing = game.goal() as f64 - scores[t].max(k as f64);
            worst = worst.max(if missing <= 1.0 { 1.0 } else { 0.5f64.powf(missing) });
        }
        self.defense * worst
    }

    /// The value kept when discarding `card` from `hand`, the card's own effect included.
    fn discard_value(&self, game: &DiceFactor, view: &View, hand: &Hand, taken: Option<Card>, card: Card, u: &Unseen) -> f64 {
        let mut h = *hand;
        h.remove(card);
        let base = Self::value(&h, view.allowed, game.goal(), u);
        let effect = if taken == Some(card) && hand.count(card) < 2 { None } else { action_of(card) };
        match effect {
            None => base - self.feed_penalty(game, view, card, u),
            Some(ActionCard::Skip) | Some(ActionCard::AddACard) => base * 1.5 + 0.05,
            Some(ActionCard::TradeHands) => {
                let (_, v) = self.best_opponent(game, view, u);
                v.max(base * 0.5)
            }
            Some(_) => base + 0.01,
        }
    }

    fn best_discard(&self, game: &DiceFactor, view: &View, hand: &Hand, taken: Option<Card>, u: &Unseen) -> (Card, f64) {
        let mut best = (0, f64::NEG_INFINITY);
        let mut bits = hand.held();
        while bits != 0 {
            let c = bits.trailing_zeros() as Card;
            bits &= bits - 1;
            let v = self.discard_value(game, view, hand, taken, c, u);
            if v > best.1 {
                best = (c, v);
            }
        }
        best
    }

    /// Expected value of drawing one unseen card, then discarding at best (without effects).
    fn draw_value(&self, game: &DiceFactor, view: &View, u: &Unseen) -> f64 {
        if u.total <= 0.0 {
            return Self::value(view.hand, view.allowed, game.goal(), u);
        }
        let mut ev = 0.0;
        for k in 0..CARD_KINDS {
            if u.cards[k] <= 0.0 {
                continue;
            }
            let mut h = *view.hand;
            h.add(k as Card);
            let v = if action_of(k as Card).is_some() {
                Self::value(view.hand, view.allowed, game.goal(), u)
            } else {
                let mut best = f64::NEG_INFINITY;
                let mut bits = h.held() & !ACTION_BITS;
                while bits != 0 {
                    let c = bits.trailing_zeros() as Card;
                    bits &= bits - 1;
                    let mut g = h;
                    g.remove(c);
                    best = best.max(Self::value(&g, view.allowed, game.goal(), u));
                }
                best
            };
            ev += u.cards[k] / u.total * v;
        }
        ev
    }

    /// The reroll that most raises the expected value of its hand less `defense` times the
    /// biggest threat (the opponent worth the most by its known cards under the new dice), or
    /// decline; with the gain in value.
    fn reroll_value(&self, game: &DiceFactor, view: &View, u: &Unseen) -> (Action, f64) {
        let mut opponents = [[0f64; TARGETS]; MAX_PLAYERS];
        for (o, row) in opponents.iter_mut().enumerate().take(view.players) {
            if o != view.seat {
                *row = self.opponent_scores(view, o, u);
            }
        }
        // Its own value under these dice, less `defense` times the biggest threat: the
        // opponent whose known cards are worth the most under them.
        let worth = |dice: [u8; 2]| {
            let allowed = allowed_targets(dice);
            let mut threat: f64 = 0.0;
            for (o, row) in opponents.iter().enumerate().take(view.players) {
                if o != view.seat {
                    threat = threat.max(Self::value_scores(row, allowed, game.goal(), u));
                }
            }
            Self::value(view.hand, allowed, game.goal(), u) - self.defense * threat
        };
        let current = worth(view.dice);
        let mut best = (Action::Decline, current);
        for die in [Die::Colors, Die::Shapes] {
            let mut sum = 0.0;
            for face in 0..DIE_FACES as u8 {
                let mut d = view.dice;
                d[die as usize] = face;
                sum += worth(d);
            }
            let ev = sum / DIE_FACES as f64;
            if ev > best.1 + 1e-9 {
                best = (Action::Reroll(die), ev);
            }
        }
        (best.0, best.1 - current)
    }

    /// The swap: its least useful card to the opponent known to hold most cards toward its
    /// best target; `None` when no opponent holds a card.
    fn swap_choice(&self, game: &DiceFactor, view: &View, u: &Unseen) -> Option<Action> {
        let (card, _) = self.best_discard(game, view, view.hand, view.taken, u);
        let t = view.hand.best_target(view.allowed);
        let mut best: Option<(usize, f64)> = None;
        for o in (0..view.players).filter(|&o| o != view.seat && view.hand_size(o) > 0) {
            let scores = self.opponent_scores(view, o, u);
            let p = scores[t] / view.hand_size(o) as f64;
            if best.is_none_or(|(_, b)| p > b) {
                best = Some((o, p));
            }
        }
        best.map(|(o, _)| Action::Give { card, target: o as u8 })
    }

    fn start(&self, game: &DiceFactor, view: &View, u: &Unseen) -> Action {
        let draw = self.draw_value(game, view, u);
        let take = view.discard_top().map(|top| {
            let mut h = *view.hand;
            h.add(top);
            self.best_discard(game, view, &h, action_of(top).map(|_| top), u).1
        });
        if self.boldness > 0.0 {
            let faces = game.params.d8.len() as f64;
            let now = Self::value(view.hand, view.allowed, game.goal(), u);
            let mut roll = 0.0;
            for &f in &game.params.d8 {
                roll += match f {
                    super::D8Face::Nothing | super::D8Face::Swap => now,
                    super::D8Face::Trade => {
                        let (_, v) = self.best_opponent(game, view, u);
                        now.max(v)
                    }
                    super::D8Face::Reroll => now + self.reroll_value(game, view, u).1,
                };
            }
            roll /= faces;
            let gain = (roll - now) * self.boldness;
            let best_other = take.unwrap_or(f64::NEG_INFINITY).max(draw);
            if now + gain > best_other {
                return Action::RollD8;
            }
        }
        match take {
            Some(v) if v > draw => Action::TakeDiscard,
            _ => Action::Draw,
        }
    }
}

impl Bot<DiceFactor> for GamblerBot {
    fn name(&self) -> &str {
        "gambler"
    }

    fn new_game(&mut self, _game: &DiceFactor, seat: usize) {
        self.seat = seat;
        self.known = [[0; CARD_KINDS]; MAX_PLAYERS];
        self.last_hand = Hand::EMPTY;
    }

    fn decide(&mut self, game: &DiceFactor, view: &View<'_>, _rng: &mut GameRng) -> Action {
        self.last_hand = *view.hand;
        let u = self.unseen(game, view);
        match view.decision {
            Phase::Start => self.start(game, view, &u),
            Phase::Discard => Action::Discard(self.best_discard(game, view, view.hand, view.taken, &u).0),
            Phase::TradeHandsCard => Action::TradeHands(self.best_opponent(game, view, &u).0 as u8),
            Phase::D8Trade => {
                let (o, v) = self.best_opponent(game, view, &u);
                if v > Self::value(view.hand, view.allowed, game.goal(), &u) { Action::TradeHands(o as u8) } else { Action::Decline }
            }
            Phase::TradeOneCard => {
                let (card, _) = self.best_discard(game, view, view.hand, view.taken, &u);
                let target = self.swap_choice(game, view, &u).map_or_else(
                    || game.next_seat(view.seat, view.reversed()) as u8,
                    |a| match a {
                        Action::Give { target, .. } => target,
                        _ => 0,
                    },
                );
                Action::Give { card, target }
            }
            Phase::D8Swap => self.swap_choice(game, view, &u).unwrap_or(Action::Decline),
            Phase::DiceCard | Phase::D8Reroll => self.reroll_value(game, view, &u).0,
            Phase::Over => Action::Decline,
        }
    }

    fn listens(&self) -> bool {
        true
    }

    fn observe(&mut self, _seat: usize, event: &Event) {
        match *event {
            Event::TookDiscard { seat, card } if seat as usize != self.seat => {
                self.known[seat as usize][card as usize] += 1;
            }
            Event::Discarded { seat, card, .. } if seat as usize == self.seat && self.last_hand.count(card) > 0 => {
                self.last_hand.remove(card);
            }
            Event::Discarded { seat, card, .. } if seat as usize != self.seat => {
                let k = &mut self.known[seat as usize][card as usize];
                *k = k.saturating_sub(1);
            }
            Event::SwapDetail { seat, target, gave, took } => {
                let me = self.seat as u8;
                if seat == me {
                    if self.last_hand.count(gave) > 0 {
                        self.last_hand.remove(gave);
                    }
                    if let Some(c) = took {
                        self.last_hand.add(c);
                    }
                    self.known[target as usize][gave as usize] += 1;
                    if let Some(c) = took {
                        let k = &mut self.known[target as usize][c as usize];
                        *k = k.saturating_sub(1);
                    }
                } else if target == me {
                    self.last_hand.add(gave);
                    if let Some(c) = took
                        && self.last_hand.count(c) > 0
                    {
                        self.last_hand.remove(c);
                    }
                    if let Some(c) = took {
                        self.known[seat as usize][c as usize] += 1;
                    }
                    let k = &mut self.known[seat as usize][gave as usize];
                    *k = k.saturating_sub(1);
                }
            }
            Event::TradedHands { seat, target } => {
                let (a, b) = (seat as usize, target as usize);
                if a == self.seat || b == self.seat {
                    let other = if a == self.seat { b } else { a };
                    let mut row = [0u8; CARD_KINDS];
                    for c in self.last_hand.cards() {
                        row[c as usize] += 1;
                    }
                    self.known[other] = row;
                } else {
                    self.known.swap(a, b);
                }
            }
            _ => {}
        }
    }
}
