//! Rainbow Rush's bots: `builder` (defined exactly in issue 13, reproducible anywhere, no
//! allocation per decision) and `saboteur` (a builder that keeps its wilds to break the
//! opponent closest to a rainbow). `random` is the engine's.

use super::cover::Cover;
use super::rules::{Hand, Row};
use super::{Action, Decision, RainbowRush, View};
use crate::engine::OwnBots;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};
use crate::games::chroma::{COLOR_WILD, Card};

/// Bits of the wild kinds in a hand's kind mask.
const WILD_KINDS: u64 = ((1u64 << 37) - 1) & !((1u64 << COLOR_WILD) - 1);

/// The builder's target shape S*: the highest coverage(S, row), ties to the highest
/// coverage(S, row + hand), then the first shape in canonical order.
#[inline]
pub fn target_shape(row: Cover, row_and_hand: Cover) -> usize {
    #[cfg(target_arch = "x86_64")]
    return Cover::first_best_sse2(row, row_and_hand);
    // Both coverages are at most 5: row * 8 + all orders shapes by row, then by all.
    #[cfg(not(target_arch = "x86_64"))]
    return super::cover::first_max((row.lanes() << 3) | row_and_hand.lanes()).0;
}

/// [`target_shape`] of `row` and `all` (the cover of row + hand), read off the row when one
/// shape alone has the row's highest coverage: that coverage decides before the hand's.
#[inline(always)]
pub fn row_target_shape(row: &Row, all: Cover) -> usize {
    let shapes = row.best_shapes();
    if shapes & (shapes - 1) == 0 { shapes.trailing_zeros() as usize } else { target_shape(row.cover(), all) }
}

/// The builder's draw: the discard top when it may be taken and coverage(S*, row + hand +
/// top) > coverage(S*, row + hand), else the draw pile.
#[inline(always)]
pub fn builder_draw(row: &Row, hand: &Hand, top: Option<Card>) -> Action {
    // Nothing to take: no target shape to pick.
    let Some(top) = top else { return Action::DrawPile };
    let all = hand.add_to(row.cover());
    let s = row_target_shape(row, all);
    // coverage(S*, row + hand + top) > coverage(S*, row + hand).
    if all.raising(s) >> top & 1 != 0 { Action::TakeDiscard } else { Action::DrawPile }
}

/// The builder's play with S* picked again on the hand it holds:
/// 1. add the first hand card x (canonical order) with coverage(S*, row + x) >
///    coverage(S*, row) when the row is not full; with a full row, the first x and for it
///    the first row card y (row order) with coverage(S*, row − y + x) > coverage(S*, row):
///    add x, move y out;
/// 2. else discard the first x with coverage(S*, row + hand − x) = coverage(S*, row +
///    hand), or if there is none the last hand card in canonical order.
///
/// The hand must not be empty.
#[inline(always)]
pub fn builder_choice(row: &Row, hand: &Hand, row_size: usize) -> Action {
    let row_cover = row.cover();
    let all = hand.add_to(row_cover);
    let s = row_target_shape(row, all);
    // S* has the row's highest coverage.
    let now = row.best();
    if row.len() < row_size {
        // The first x with coverage(S*, row + x) > coverage(S*, row).
        let raising = hand.kind_mask() & row_cover.raising_from(s, now);
        if raising != 0 {
            return Action::Add(raising.trailing_zeros() as Card);
        }
    } else if now < 5 {
        let mut without = [Cover::EMPTY; super::MAX_ROW];
        for (y, w) in without.iter_mut().enumerate().take(row.len()) {
            *w = row.cover_without(y);
        }
        for x in hand.kinds() {
            if let Some(y) = (0..row.len()).find(|&y| without[y].with(x).get(s) > now) {
                return Action::Replace { card: x, slot: y as u8 };
            }
        }
    }
    let x = first_spare(row, hand, all, s);
    Action::Discard(x.unwrap_or_else(|| 63 - hand.kind_mask().leading_zeros() as Card))
}

impl OwnBots for RainbowRush {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![builder_info(), saboteur_info()]
    }
}

/// The builder's discard candidate: the first hand card x (canonical order) with
/// coverage(`s`, row + hand − x) = coverage(`s`, row + hand); `all` is the cover of row +
/// hand. The plain version of [`first_spare`].
#[cfg(test)]
pub fn first_spare_plain(hand: &Hand, row_cover: Cover, all: Cover, s: usize) -> Option<Card> {
    let full = all.get(s);
    hand.kinds().find(|&x| hand.add_to_except(row_cover, x).get(s) == full)
}

/// `first_spare_plain` without a cover per candidate: in shape `s` one copy of x stands
/// for one color, for any color, or for nothing. Taking it out keeps the coverage when it
/// stands for nothing, when the cards without it still cover 5 or more before the cap, or
/// when another card of row + hand gives the same color in `s` (another copy, the base card
/// of that color and shape, or that color's wild).
#[inline(always)]
pub fn first_spare(row: &Row, hand: &Hand, all: Cover, s: usize) -> Option<Card> {
    if all.uncapped_in(s) >= 6 {
        return hand.kinds().next();
    }
    for x in hand.kinds() {
        let (color, any) = Cover::card_in(x, s);
        if any {
            continue;
        }
        if color == 0 {
            return Some(x);
        }
        let c = color.trailing_zeros() as Card;
        let (base, wild) = (c * 5 + s as Card, COLOR_WILD + c);
        let givers = hand.count(base) + hand.count(wild) + row.cards().iter().filter(|&&y| y == base || y == wild).count() as u32;
        if givers >= 2 {
            return Some(x);
        }
    }
    None
}

/// `builder` (issue 13, exact): picks a target shape S* at the start of its turn
/// ([`target_shape`]), draws by [`builder_draw`], then plays by [`builder_choice`]. It never
/// plays a wild on an opponent's row.
#[derive(Clone, Copy, Debug, Default)]
pub struct BuilderBot;

/// The `builder` entry.
pub fn builder_info() -> BotInfo<RainbowRush> {
    BotInfo {
        name: "builder",
        // Reads the row's length.
        reads: &["row_size"],
        aliases: &[],
        doc: "aims at the shape its row covers best; takes the discard top only when it raises that coverage; adds the first card that raises it (replacing the first row card that allows it), else discards the first card it does not need",
        params: &[],
        build: |_, _| Box::new(BuilderBot),
        uniform: Some(|_, seats| Box::new(Uniform::new(vec![BuilderBot; seats.len()]))),
    }
}

impl Bot<RainbowRush> for BuilderBot {
    fn name(&self) -> &str {
        "builder"
    }

    #[inline(always)]
    fn decide(&mut self, game: &RainbowRush, view: &View<'_>, _rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Draw => builder_draw(view.own_row(), view.hand, view.takeable_top()),
            Decision::Play => builder_choice(view.own_row(), view.hand, game.row_size()),
        }
    }
}

/// `saboteur`: a builder that spends a wild to break the opponent closest to winning.
///
/// - Draw: as `builder`.
/// - Play, in this order:
///   1. when the builder's play would complete its own rainbow, that play;
///   2. when sabotage is allowed and it holds a wild: the opponents with a non-empty row
///      that need at most `threshold` cards (need = 5 − the highest coverage of their
///      row), fewest needed first, ties to the one who plays soonest after it; for the
///      first of them where some wild can raise the need: over its wilds in canonical
///      order and that row's cards in row order, the first (wild, card) whose replacement
///      leaves the lowest highest coverage: play that wild there;
///   3. else as `builder`: with `hoard = 0` (the default) on its whole hand, so a wild
///      that raises its own coverage goes on its own row; with `hoard = 1` on its hand with
///      the wilds set aside (it keeps them for sabotage; a hand of only wilds is played
///      whole).
///
/// With sabotage off (the variant's `sabotage = false`) it is exactly `builder`.
#[derive(Clone, Copy, Debug)]
pub struct SaboteurBot {
    threshold: u32,
    hoard: bool,
}

const SABOTEUR_PARAMS: &[BotParamInfo] = &[
    BotParamInfo { name: "threshold", default: 1.0, min: 1.0, max: 5.0, doc: "sabotages an opponent that needs at most this many cards" },
    BotParamInfo {
        name: "hoard",
        default: 0.0,
        min: 0.0,
        max: 1.0,
        doc: "0: builds with its wilds as the builder does, sabotaging with those it still holds; 1: keeps them for sabotage (builds with the other cards)",
    },
];

/// The `saboteur` entry.
pub fn saboteur_info() -> BotInfo<RainbowRush> {
    BotInfo {
        name: "saboteur",
        // Reads the row's length and whether wilds may be played on an opponent's row.
        reads: &["row_size", "sabotage"],
        aliases: &[],
        doc: "a builder that plays a wild it holds onto the row of the opponent closest to a rainbow (needing at most `threshold` cards), replacing the card that sets it back most; `hoard=1` keeps its wilds for that",
        params: SABOTEUR_PARAMS,
        build: |_, v| Box::new(SaboteurBot::new(v[0], v[1])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| SaboteurBot::new(v[0], v[1])).collect()))),
    }
}

impl SaboteurBot {
    /// A saboteur with the given parameters (`threshold` 1 to 5, `hoard` 0 or 1).
    pub fn new(threshold: f64, hoard: f64) -> Self {
        SaboteurBot { threshold: threshold.round().clamp(1.0, 5.0) as u32, hoard: hoard >= 0.5 }
    }

    /// The sabotage of step 2, if any.
    fn sabotage(&self, view: &View, wilds: u64) -> Option<Action> {
        let n = view.players();
        let mut best: Option<(u32, Action)> = None;
        for need in 1..=self.threshold {
            for k in 1..n {
                let target = (view.seat + k) % n;
                let row = view.row(target);
                if row.is_empty() || 5 - row.best() != need {
                    continue;
                }
                for wild in super::rules::Kinds::of(wilds) {
                    for slot in 0..row.len() {
                        let after = row.cover_without(slot).with(wild).best();
                        if best.is_none_or(|(b, _)| after < b) {
                            best = Some((after, Action::Sabotage { wild, target: target as u8, slot: slot as u8 }));
                        }
                    }
                }
                if let Some((after, action)) = best
                    && 5 - after > need
                {
                    return Some(action);
                }
                best = None;
            }
        }
        None
    }
}

impl Bot<RainbowRush> for SaboteurBot {
    fn name(&self) -> &str {
        "saboteur"
    }

    #[inline]
    fn decide(&mut self, game: &RainbowRush, view: &View<'_>, _rng: &mut GameRng) -> Action {
        let row = view.own_row();
        match view.decision {
            Decision::Draw => builder_draw(row, view.hand, view.takeable_top()),
            Decision::Play => {
                let whole = builder_choice(row, view.hand, game.row_size());
                let wilds = view.hand.kind_mask() & WILD_KINDS;
                if !game.sabotage_allowed() || wilds == 0 {
                    return whole;
                }
                let completes = match whole {
                    Action::Add(x) => row.cover().with(x).is_rainbow(),
                    Action::Replace { card, slot } => row.cover_without(slot as usize).with(card).is_rainbow(),
                    _ => false,
                };
                if completes {
                    return whole;
                }
                if let Some(action) = self.sabotage(view, wilds) {
                    return action;
                }
                if !self.hoard || view.hand.kind_mask() == wilds {
                    return whole;
                }
                builder_choice(row, &view.hand.without(wilds), game.row_size())
            }
        }
    }
}
