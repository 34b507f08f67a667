//! Pig Farm's bots: `threshold` (exactly specified in issue 4, reproducible anywhere, no
//! allocation per decision) and `greedy` (sells when selling now beats its estimate of
//! waiting one more turn, judged from what it has seen). `random` is the engine's.

use super::params::{KINDS, MAX_PLAYERS};
use super::rules::Hand;
use super::{Action, BUTCHER, Decision, Die, Event, LOGO, PigFarm, View};
use crate::engine::OwnBots;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};
use crate::games::chroma::Card;

/// `threshold`'s discard: the first unmatched pig in canonical order; with none, the first
/// pig of its largest set (ties to the earlier kind). The hand must not be empty.
/// The hand's bit sets make it a bit scan (`threshold_discard_plain` is the same rule
/// read off the counts, kept to test it).
#[inline]
pub fn threshold_discard(hand: &Hand) -> Card {
    if hand.singles() != 0 {
        return hand.singles().trailing_zeros() as Card;
    }
    let mut largest = 0u32;
    let mut pick = 0;
    for k in hand.kinds() {
        let c = hand.count(k);
        if c > largest {
            largest = c;
            pick = k;
        }
    }
    pick
}

impl OwnBots for PigFarm {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![threshold_info(), greedy_info()]
    }
}

/// [`threshold_discard`] as a scan of the counts in canonical order.
#[cfg(test)]
pub fn threshold_discard_plain(hand: &Hand) -> Card {
    let counts = hand.counts();
    let mut largest = 0u8;
    let mut pick = 0;
    for (k, &c) in counts.iter().enumerate() {
        if c == 1 {
            return k as Card;
        }
        if c > largest {
            largest = c;
            pick = k;
        }
    }
    pick as Card
}

/// `threshold`'s die: for each die, the most pigs of its hand one face could take; the die
/// where that is smaller, the colors die on a tie.
#[inline]
pub fn threshold_die(hand: &Hand) -> Die {
    let c = hand.counts();
    let mut colors = 0u32;
    let mut shapes = 0u32;
    for i in 0..5 {
        let color: u32 = (0..5).map(|j| c[i * 5 + j] as u32).sum();
        let shape: u32 = (0..5).map(|j| c[j * 5 + i] as u32).sum();
        colors = colors.max(color);
        shapes = shapes.max(shape);
    }
    if shapes < colors { Die::Shapes } else { Die::Colors }
}

/// `threshold`: sells at the start of its turn with at least max(`sell_at`,
/// `min_sets_to_sell`) sets; each draw takes the discard top when it is a pig identical to
/// one in hand, else draws from the pile; discards by [`threshold_discard`]; rolls by
/// [`threshold_die`].
pub struct ThresholdBot {
    sell_at: u32,
}

const THRESHOLD_PARAMS: &[BotParamInfo] =
    &[BotParamInfo { name: "sell_at", default: 3.0, min: 1.0, max: 25.0, doc: "sets at which it sells (never below min_sets_to_sell)" }];

/// The `threshold` entry.
pub fn threshold_info() -> BotInfo<PigFarm> {
    BotInfo {
        name: "threshold",
        // Reads only the sets needed to sell: never the scoring tables.
        reads: &["min_sets_to_sell"],
        aliases: &[],
        doc: "sells with max(sell_at, min_sets_to_sell) sets; takes the discard top only to match a pig; discards the first unmatched pig",
        params: THRESHOLD_PARAMS,
        build: |_, v| Box::new(ThresholdBot::new(v[0] as u32)),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| ThresholdBot::new(v[0] as u32)).collect()))),
    }
}

impl ThresholdBot {
    /// A threshold bot selling at `sell_at` sets.
    pub fn new(sell_at: u32) -> Self {
        ThresholdBot { sell_at }
    }

    /// Takes the discard top when it matches a pig in hand: read from the hand's bit set of
    /// kinds held (the same as `count(top) > 0`, without a bounds check on the counts).
    #[inline]
    fn draw(view: &View) -> Action {
        match view.discard_top_pig() {
            Some(top) if view.hand.held() >> (top & 31) & 1 == 1 => Action::TakeDiscard,
            _ => Action::DrawPile,
        }
    }
}

impl Bot<PigFarm> for ThresholdBot {
    fn name(&self) -> &str {
        "threshold"
    }

    /// `threshold` is deterministic (`threshold_never_draws`).
    fn draws(&self) -> bool {
        false
    }

    #[inline(always)]
    fn decide(&mut self, game: &PigFarm, view: &View<'_>, _rng: &mut GameRng) -> Action {
        match view.decision() {
            Decision::Start if view.hand.sets() >= self.sell_at.max(game.min_sets()) => Action::Sell,
            Decision::Start | Decision::SecondDraw => Self::draw(view),
            Decision::Discard => Action::Discard(threshold_discard(view.hand)),
            Decision::Butcher { .. } => Action::Roll(threshold_die(view.hand)),
        }
    }
}

/// `greedy`: in the last round of a match it sells whenever that wins the match outright
/// (the scores are public); otherwise it estimates, from the discard pile and the public
/// takes, discards and culls, how likely an opponent is to sell before its next turn, and
/// sells when the points of selling now are at least the expected points of waiting one
/// more turn.
pub struct GreedyBot {
    seat: usize,
    /// Multiplies the estimated chance that an opponent sells before its next turn.
    risk: f64,
    /// Pigs each opponent is known to hold (taken from the discard pile, not since lost).
    known: [[u8; KINDS]; MAX_PLAYERS],
}

const GREEDY_PARAMS: &[BotParamInfo] = &[BotParamInfo {
    name: "risk",
    default: 1.0,
    min: 0.0,
    max: 4.0,
    doc: "weight on the estimated chance that an opponent sells first (higher sells earlier)",
}];

/// The `greedy` entry.
pub fn greedy_info() -> BotInfo<PigFarm> {
    BotInfo {
        name: "greedy",
        // Reads the scoring tables, the sets to sell, the last round, the reshuffle and the deck's copies.
        reads: &["scoring.*", "min_sets_to_sell", "rounds", "reshuffle_discard", "deck.*"],
        aliases: &[],
        doc: "sells when selling now beats its estimate of waiting a turn, judged from the discard pile, takes and culls it has seen",
        params: GREEDY_PARAMS,
        build: |_, v| Box::new(GreedyBot::new(v[0])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| GreedyBot::new(v[0])).collect()))),
    }
}

/// What `greedy` believes about the cards it cannot see.
struct Unseen {
    /// Copies of each pig it has not seen (draw pile or unknown opponent cards).
    pigs: [f64; KINDS],
    /// Sum of `pigs`.
    pig_total: f64,
    /// Butchers not in the discard pile.
    butchers: f64,
}

impl GreedyBot {
    /// A greedy bot with the given risk weight.
    pub fn new(risk: f64) -> Self {
        GreedyBot { seat: 0, risk, known: [[0; KINDS]; MAX_PLAYERS] }
    }

    fn unseen(&self, game: &PigFarm, view: &View) -> Unseen {
        let mut seen = [0u32; KINDS + 1];
        for &c in view.discard {
            seen[c as usize] += 1;
        }
        let mut pigs = [0.0; KINDS];
        let mut pig_total = 0.0;
        for (k, p) in pigs.iter_mut().enumerate() {
            let mut s = seen[k] + view.hand.count(k as Card);
            for o in (0..view.players).filter(|&o| o != self.seat) {
                s += self.known[o][k] as u32;
            }
            *p = game.copies().saturating_sub(s) as f64;
            pig_total += *p;
        }
        let butchers = game.params.deck.butchers.saturating_sub(seen[KINDS]) as f64;
        Unseen { pigs, pig_total, butchers }
    }

    /// Chance that at least one opponent holds enough sets to sell at its next turn.
    fn opponent_sells(&self, game: &PigFarm, view: &View, u: &Unseen) -> f64 {
        let need = game.min_sets();
        let mut none = 1.0;
        for o in (0..view.players).filter(|&o| o != self.seat) {
            let known: u32 = self.known[o].iter().map(|&c| c as u32).sum();
            let m = (view.hand_size(o) as u32).saturating_sub(known) as i32;
            let mut expected = 0.0;
            for k in 0..KINDS {
                if m == 0 {
                    expected += f64::from(u8::from(self.known[o][k] >= 2));
                    continue;
                }
                let q = if u.pig_total > 0.0 { u.pigs[k] / u.pig_total } else { 0.0 };
                let miss = (1.0 - q).powi(m);
                expected += match self.known[o][k] {
                    0 => 1.0 - miss - m as f64 * q * (1.0 - q).powi(m - 1),
                    1 => 1.0 - miss,
                    _ => 1.0,
                };
            }
            let p = poisson_at_least(expected, need);
            none *= 1.0 - (self.risk * p).clamp(0.0, 1.0);
        }
        1.0 - none
    }

    /// Expected seller points lost to a butcher rolled with the best die.
    fn butcher_loss(game: &PigFarm, hand: &Hand) -> f64 {
        let now = game.scoring.seller_points(hand) as f64;
        [Die::Colors, Die::Shapes]
            .iter()
            .map(|&die| (0..LOGO).map(|f| now - game.scoring.seller_points(&culled(hand, die, f)) as f64).sum::<f64>() / 6.0)
            .fold(f64::INFINITY, f64::min)
    }

    fn should_sell(&self, game: &PigFarm, view: &View) -> bool {
        let hand = view.hand;
        if view.round + 1 == game.params.rounds && Self::sale_wins_the_match(game, view) {
            return true;
        }
        let now = game.scoring.seller_points(hand) as f64;
        let if_other_sells = game.scoring.other_points(hand) as f64;
        let u = self.unseen(game, view);
        let all = u.pig_total + u.butchers;
        if all <= 0.0 {
            return true;
        }
        // One draw from the pile: the expected rise of the selling score (a useless pig is
        // discarded again, so it costs nothing).
        let mut per_draw = 0.0;
        for k in 0..KINDS as Card {
            if u.pigs[k as usize] > 0.0 {
                let mut h = *hand;
                h.add(k);
                let delta = game.scoring.seller_points(&h) as f64 - now;
                per_draw += u.pigs[k as usize] / all * delta.max(0.0);
            }
        }
        let p_butcher = (2.0 * u.butchers / all).min(1.0);
        let later = now + 2.0 * per_draw - p_butcher * Self::butcher_loss(game, hand);
        let p = self.opponent_sells(game, view, &u);
        let wait = (1.0 - p) * later + p * if_other_sells;
        now >= wait
    }

    /// Whether selling now wins the match outright whatever the others hold (scores are
    /// public; no non-seller can score more than the best row of the non-seller table).
    fn sale_wins_the_match(game: &PigFarm, view: &View) -> bool {
        let best_other = game.scoring.others.iter().copied().max().unwrap_or(0);
        let mine = view.scores[view.seat] + game.scoring.seller_points(view.hand);
        (0..view.players).filter(|&o| o != view.seat).all(|o| mine > view.scores[o] + best_other)
    }

    fn draw(view: &View, game: &PigFarm) -> Action {
        match view.discard_top_pig() {
            Some(top) if view.hand.count(top) > 0 => Action::TakeDiscard,
            Some(_) if view.draw_pile == 0 && !game.params.reshuffle_discard => Action::TakeDiscard,
            _ => Action::DrawPile,
        }
    }

    /// The unmatched pig least likely to be paired; with none, the pig whose loss costs
    /// the fewest selling points (ties to the larger set, then the earlier kind).
    fn discard(&self, game: &PigFarm, view: &View) -> Card {
        let hand = view.hand;
        let u = self.unseen(game, view);
        let mut best: Option<(f64, Card)> = None;
        for k in hand.kinds().filter(|&k| hand.count(k) == 1) {
            if best.is_none_or(|(b, _)| u.pigs[k as usize] < b) {
                best = Some((u.pigs[k as usize], k));
            }
        }
        if let Some((_, k)) = best {
            return k;
        }
        let now = game.scoring.seller_points(hand);
        let mut pick: Option<(i64, u32, Card)> = None;
        for k in hand.kinds() {
            let mut h = *hand;
            h.remove(k);
            let loss = now - game.scoring.seller_points(&h);
            let c = hand.count(k);
            if pick.is_none_or(|(l, pc, _)| loss < l || (loss == l && c > pc)) {
                pick = Some((loss, c, k));
            }
        }
        pick.map_or(0, |p| p.2)
    }

    /// The die with the smaller expected loss of hand value; colors on a tie.
    fn die(game: &PigFarm, hand: &Hand) -> Die {
        let value = |h: &Hand| game.scoring.seller_points(h) as f64 + 10.0 * h.sets() as f64 + 2.0 * h.len() as f64;
        let now = value(hand);
        let loss = |die: Die| (0..LOGO).map(|f| now - value(&culled(hand, die, f))).sum::<f64>();
        if loss(Die::Shapes) < loss(Die::Colors) { Die::Shapes } else { Die::Colors }
    }
}

/// `hand` after a butcher roll of `face` on `die`.
fn culled(hand: &Hand, die: Die, face: u8) -> Hand {
    let mut h = *hand;
    let mut bits = die.face_mask(face);
    while bits != 0 {
        h.remove_all(bits.trailing_zeros() as Card);
        bits &= bits - 1;
    }
    h
}

/// P(X >= k) for X ~ Poisson(mean).
fn poisson_at_least(mean: f64, k: u32) -> f64 {
    let mut term = (-mean).exp();
    let mut below = 0.0;
    for j in 0..k {
        below += term;
        term *= mean / (j + 1) as f64;
    }
    (1.0 - below).clamp(0.0, 1.0)
}

impl Bot<PigFarm> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    fn new_game(&mut self, _game: &PigFarm, seat: usize) {
        self.seat = seat;
        self.known = [[0; KINDS]; MAX_PLAYERS];
    }

    fn decide(&mut self, game: &PigFarm, view: &View<'_>, _rng: &mut GameRng) -> Action {
        match view.decision() {
            Decision::Start if view.hand.sets() >= game.min_sets() && self.should_sell(game, view) => Action::Sell,
            Decision::Start | Decision::SecondDraw => Self::draw(view, game),
            Decision::Discard => Action::Discard(self.discard(game, view)),
            Decision::Butcher { .. } => Action::Roll(Self::die(game, view.hand)),
        }
    }

    fn listens(&self) -> bool {
        true
    }

    fn observe(&mut self, _seat: usize, event: &Event) {
        match *event {
            Event::RoundStarts { .. } => self.known = [[0; KINDS]; MAX_PLAYERS],
            Event::TookDiscard { seat, card } if seat as usize != self.seat && card != BUTCHER => {
                self.known[seat as usize][card as usize] += 1;
            }
            Event::Discarded { seat, card } if seat as usize != self.seat => {
                let k = &mut self.known[seat as usize][card as usize];
                *k = k.saturating_sub(1);
            }
            Event::Culled { seat, die, face, .. } => {
                let mut bits = die.face_mask(face);
                while bits != 0 {
                    self.known[seat as usize][bits.trailing_zeros() as usize] = 0;
                    bits &= bits - 1;
                }
            }
            _ => {}
        }
    }
}
