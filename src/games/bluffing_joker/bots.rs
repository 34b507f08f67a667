//! Bluffing Joker's bots, both defined exactly (ties in canonical order) and free of
//! allocation per decision: `honest` (always declares the truth) and `bluffer` (declares a
//! better value when its cards move badly, doubts scarce declarations). `random` is the
//! engine's.
//!
//! Shared definitions:
//! - A move's **score** is the change it makes to the mover's team's total progress minus
//!   the change to the other team's ([`Geometry::step_score`]; both parts of a split 7).
//!   A peg's progress is 0 in start, `track` minus the holes left to its in-spot on the
//!   track, `track` + depth in home.
//! - The **best truthful play**: over the ranks held in canonical order (A, 2, ..., K,
//!   joker) and, for each, the legal moves of that value in canonical move order
//!   ([`Geometry::for_each_move`]), the one with the highest score; ties go to the first.
//! - The **discard** (when the bot does not play): the first non-joker rank held in
//!   canonical order (a joker only when the hand holds nothing else).
//! - The **penalty** choice: the victim's track peg with the highest progress for its owner.

use super::board::{Geometry, Move, Movers, on_track};
use super::cards::{Hand, JOKER, RANKS, Rank};
use super::params::MAX_PEGS;
use super::{Action, BluffingJoker, Decision, View};
use crate::engine::OwnBots;
use crate::engine::rng::Chance;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};

/// The best move of each declared value (A, 2, ..., K, joker) for the deciding seat on one
/// board, with its score: the first of highest score in canonical move order, `None` when
/// the value has no legal move (or was not asked for).
pub type ValueBests = [Option<(Move, i32)>; RANKS];

/// Bit set of the face cards' values (J, Q, K), whose moves are the same: an ace's come-out
/// and a 10's forward move.
const FACES: u16 = 0b111 << 10;

/// [`ValueBests`] of the values in `mask` (bit v for value v) written to `out` (the caller's
/// table: no copy of it on return), each computed once: the come-out shared by the ace and
/// the faces, the 10's forward move shared by the 10 and the faces, one enumeration for
/// every other value.
#[inline]
pub fn value_bests(game: &BluffingJoker, view: &View, ctx: &Movers, mask: u16, out: &mut ValueBests) {
    let (geo, board) = (&game.geo, view.board);
    *out = [None; RANKS];
    let want = |v: usize| mask & (1 << v) != 0;
    let forward = |steps: u8| {
        let mut best: Option<(Move, i32)> = None;
        geo.for_each_forward(board, ctx, steps, &mut |mv, score| {
            if best.is_none_or(|b| score > b.1) {
                best = Some((mv, score));
            }
            false
        });
        best
    };
    // The come-out comes first in canonical order: a forward move replaces it only when
    // it scores strictly more.
    let with_come_out = |come_out: Option<i32>, fwd: Option<(Move, i32)>| match (come_out, fwd) {
        (Some(c), Some(f)) if f.1 > c => Some(f),
        (Some(c), _) => Some((Move::ComeOut, c)),
        (None, f) => f,
    };
    let come_out = if want(0) || mask & FACES != 0 { geo.come_out_move(board, ctx) } else { None };
    if want(0) {
        out[0] = with_come_out(come_out, forward(1));
    }
    if want(9) || mask & FACES != 0 {
        let ten = forward(10);
        out[9] = if want(9) { ten } else { None };
        let face = with_come_out(come_out, ten);
        for (k, slot) in out[10..13].iter_mut().enumerate() {
            if want(10 + k) {
                *slot = face;
            }
        }
    }
    if want(13) {
        out[13] = geo.best_jump(board, ctx);
    }
    // The values 2 to 9 asked for, in canonical order (bit by bit).
    let mut rest = mask & 0b1_1111_1110;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut best: Option<(Move, i32)> = None;
        geo.for_each_move_with(board, view.seat, ctx, v as Rank, &mut |mv, score| {
            if best.is_none_or(|b| score > b.1) {
                best = Some((mv, score));
            }
            false
        });
        out[v] = best;
    }
}

/// The first value of `mask` with the highest best score in canonical order: (value, move,
/// score).
#[inline]
fn best_of(bests: &ValueBests, mask: u16) -> Option<(Rank, Move, i32)> {
    let mut best: Option<(Rank, Move, i32)> = None;
    // The values of `mask` in canonical order, bit by bit.
    let mut rest = mask & ((1 << RANKS) - 1);
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if let Some((mv, score)) = bests[v]
            && best.is_none_or(|x| score > x.2)
        {
            best = Some((v as Rank, mv, score));
        }
    }
    best
}

impl OwnBots for BluffingJoker {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![honest_info(), bluffer_info()]
    }
}

/// The best truthful play: (card rank, move, score): over the held ranks in canonical
/// order, each rank's best move ([`value_bests`]), the highest score, ties to the first.
/// `best_truthful_plain` (tests) is the plain reading it is checked against.
#[cfg(test)]
pub fn best_truthful(game: &BluffingJoker, view: &View) -> Option<(Rank, Move, i32)> {
    let ctx = game.geo.movers(view.board, view.seat)?;
    let held = view.hand.rank_mask();
    let mut bests = [None; RANKS];
    value_bests(game, view, &ctx, held, &mut bests);
    best_of(&bests, held)
}

/// [`best_truthful`] read plainly: every move of every held rank, by the move
/// generator, value by value.
#[cfg(test)]
pub fn best_truthful_plain(game: &BluffingJoker, view: &View) -> Option<(Rank, Move, i32)> {
    let mut best: Option<(Rank, Move, i32)> = None;
    for r in view.hand.ranks() {
        game.geo.for_each_move(view.board, view.seat, r, &mut |mv, score| {
            if best.is_none_or(|b| score > b.2) {
                best = Some((r, mv, score));
            }
            false
        });
    }
    best
}

/// The bots' discard: the first non-joker rank held, else the joker.
#[inline]
pub fn discard_choice(hand: &Hand) -> Rank {
    hand.ranks().find(|&r| r != JOKER).unwrap_or(JOKER)
}

/// The bots' penalty choice: the victim's track peg with the highest progress.
#[inline]
pub fn penalty_choice(geo: &Geometry, view: &View, victim: u8) -> Action {
    let v = victim as usize;
    let mut best = (i32::MIN, 0);
    for &p in &view.board.pegs[v][..geo.pegs] {
        if on_track(p) {
            let g = geo.progress(v, p);
            if g > best.0 {
                best = (g, p);
            }
        }
    }
    Action::SendBack { hole: best.1 }
}

/// What the bot does when it plays truthfully, from the best moves of its held ranks
/// (`held`, [`value_bests`]): the best truthful play, or the discard when it has none or
/// when discarding is allowed (no held non-joker rank has a legal move) and that play
/// scores 0 or less.
#[inline]
fn honest_play(view: &View, bests: &ValueBests, held: u16) -> Action {
    let mut non_jokers = held & !(1 << JOKER);
    let mut must_play = false;
    while non_jokers != 0 && !must_play {
        must_play = bests[non_jokers.trailing_zeros() as usize].is_some();
        non_jokers &= non_jokers - 1;
    }
    match best_of(bests, held) {
        Some((card, mv, score)) if score > 0 || must_play => Action::Play { card, declared: card, mv },
        _ => Action::Discard { card: discard_choice(view.hand) },
    }
}

/// [`honest_play`] read plainly (tests): the best truthful play and the game's forced-play
/// rule.
#[cfg(test)]
fn honest_play_plain(game: &BluffingJoker, view: &View, best: Option<(Rank, Move, i32)>) -> Action {
    match best {
        Some((card, mv, score)) if score > 0 || game.must_play(view.board, view.seat, view.hand) => Action::Play { card, declared: card, mv },
        _ => Action::Discard { card: discard_choice(view.hand) },
    }
}

/// The honest play of `view`'s seat (see [`HonestBot`]).
#[inline]
pub fn honest_choice(game: &BluffingJoker, view: &View) -> Action {
    match game.geo.movers(view.board, view.seat) {
        Some(ctx) => {
            let held = view.hand.rank_mask();
            let mut bests = [None; RANKS];
            value_bests(game, view, &ctx, held, &mut bests);
            honest_play(view, &bests, held)
        }
        None => Action::Discard { card: discard_choice(view.hand) },
    }
}

/// [`honest_choice`] read plainly (tests).
#[cfg(test)]
pub fn honest_choice_plain(game: &BluffingJoker, view: &View) -> Action {
    honest_play_plain(game, view, best_truthful_plain(game, view))
}

/// `honest`: plays its best truthful play (see the module doc; when discarding is allowed
/// and that play scores 0 or less, or it has none, it discards); doubts each declaration
/// with probability `doubt` (one draw per question, none when `doubt` is 0); sends back
/// the victim's most advanced track peg.
pub struct HonestBot {
    doubt: Chance,
}

const HONEST_PARAMS: &[BotParamInfo] =
    &[BotParamInfo { name: "doubt", default: 0.1, min: 0.0, max: 1.0, doc: "probability of doubting each declaration it is asked about" }];

/// The `honest` entry.
pub fn honest_info() -> BotInfo<BluffingJoker> {
    BotInfo {
        name: "honest",
        // Reads the board's geometry (which move is best).
        reads: &["track_per_side", "come_out", "in_spot", "home_size", "pegs", "seven_split"],
        aliases: &[],
        doc: "plays the true card that advances its team most, declared truthfully; doubts with probability `doubt`",
        params: HONEST_PARAMS,
        build: |_, v| Box::new(HonestBot::new(v[0])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| HonestBot::new(v[0])).collect()))),
    }
}

impl HonestBot {
    /// An honest bot doubting with probability `doubt`.
    pub fn new(doubt: f64) -> Self {
        HonestBot { doubt: Chance::new(doubt) }
    }
}

impl Bot<BluffingJoker> for HonestBot {
    fn name(&self) -> &str {
        "honest"
    }

    #[inline]
    fn decide(&mut self, game: &BluffingJoker, view: &View<'_>, rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Play => honest_choice(game, view),
            Decision::Doubt => {
                if self.doubt.hit(rng) {
                    Action::Doubt
                } else {
                    Action::Pass
                }
            }
            Decision::Penalty { victim } => penalty_choice(&game.geo, view, victim),
            Decision::Over => Action::Pass,
        }
    }
}

/// `bluffer`:
/// - Play: let T be its best truthful play and B the best declared play over every value
///   (A, 2, ..., K, joker in that order, each value's moves in canonical order, highest
///   score, ties to the first). When bluffing is allowed and T does not exist or B scores
///   strictly more than T, it bluffs with probability `bluff` (one draw, none when `bluff`
///   is 0): it plays its **worst card** declaring B's value and move. The worst card is
///   the held rank whose best truthful score is lowest (a rank with no legal truthful move
///   counts lowest), jokers only when the hand holds nothing else, ties to the first in
///   canonical order. Otherwise it plays as `honest`.
/// - Doubt: with u = copies of the declared rank in the stock − copies in its hand −
///   copies shown in the discard pile since the last reshuffle, it doubts for certain when
///   u = 0, else with probability min(1, `doubt` x copies / u) (one draw).
/// - Penalty: as `honest`.
pub struct BluffBot {
    bluff: Chance,
    doubt: f64,
}

const BLUFFER_PARAMS: &[BotParamInfo] = &[
    BotParamInfo { name: "bluff", default: 0.5, min: 0.0, max: 1.0, doc: "probability of declaring a better value when its true cards move badly" },
    BotParamInfo { name: "doubt", default: 0.1, min: 0.0, max: 1.0, doc: "base probability of doubting; raised as the declared rank gets scarce" },
];

/// The `bluffer` entry.
pub fn bluffer_info() -> BotInfo<BluffingJoker> {
    BotInfo {
        name: "bluffer",
        // Reads the board, the copies of each rank (how scarce a declared rank is) and whether bluffing is allowed.
        reads: &["track_per_side", "come_out", "in_spot", "home_size", "pegs", "seven_split", "decks", "jokers", "doubt.*"],
        aliases: &[],
        doc: "declares a better value with probability `bluff` when its true cards move badly; doubts more when the declared rank is scarce",
        params: BLUFFER_PARAMS,
        build: |_, v| Box::new(BluffBot::new(v[0], v[1])),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| BluffBot::new(v[0], v[1])).collect()))),
    }
}

impl BluffBot {
    /// A bluffer with its bluff and base doubt probabilities.
    pub fn new(bluff: f64, doubt: f64) -> Self {
        BluffBot { bluff: Chance::new(bluff), doubt }
    }

    /// The chance of doubting a declaration of `declared` seen from `view`.
    pub fn doubt_chance(&self, game: &BluffingJoker, view: &View, declared: Rank) -> f64 {
        let copies = game.copies[declared as usize];
        let u = copies.saturating_sub(view.hand.count(declared)).saturating_sub(view.revealed[declared as usize] as u32);
        if u == 0 { 1.0 } else { (self.doubt * copies as f64 / u as f64).min(1.0) }
    }

    /// The play decision: every value's best move computed once (`value_bests`), then
    /// the truthful play, the best declared play and the worst card read from them.
    pub fn play(&mut self, game: &BluffingJoker, view: &View, rng: &mut GameRng) -> Action {
        let Some(ctx) = game.geo.movers(view.board, view.seat) else {
            return Action::Discard { card: discard_choice(view.hand) };
        };
        let held = view.hand.rank_mask();
        let bluffing = game.params.doubt.bluffing;
        let mut bests = [None; RANKS];
        value_bests(game, view, &ctx, if bluffing { ALL_VALUES } else { held }, &mut bests);
        if bluffing && let Some((declared, mv, score)) = best_of(&bests, ALL_VALUES) {
            let badly = best_of(&bests, held).is_none_or(|t| score > t.2);
            if badly && self.bluff.hit(rng) {
                return Action::Play { card: worst_of(held, &bests), declared, mv };
            }
        }
        honest_play(view, &bests, held)
    }

    /// [`BluffBot::play`] read plainly (tests): each value enumerated on its own.
    #[cfg(test)]
    pub fn play_plain(&mut self, game: &BluffingJoker, view: &View, rng: &mut GameRng) -> Action {
        let truthful = best_truthful_plain(game, view);
        if game.params.doubt.bluffing {
            let mut best: Option<(Rank, Move, i32)> = None;
            for v in 0..RANKS as Rank {
                game.geo.for_each_move(view.board, view.seat, v, &mut |mv, score| {
                    if best.is_none_or(|b| score > b.2) {
                        best = Some((v, mv, score));
                    }
                    false
                });
            }
            if let Some((declared, mv, score)) = best {
                let badly = truthful.is_none_or(|t| score > t.2);
                if badly && self.bluff.hit(rng) {
                    return Action::Play { card: worst_card_plain(game, view), declared, mv };
                }
            }
        }
        honest_play_plain(game, view, truthful)
    }
}

/// Every declared value (A to joker).
const ALL_VALUES: u16 = (1 << RANKS) - 1;

/// The bluffer's worst card (see [`BluffBot`]) from the best moves of its held ranks.
#[inline]
fn worst_of(held: u16, bests: &ValueBests) -> Rank {
    let only_jokers = held & !(1 << JOKER) == 0;
    let mut worst: Option<(Rank, i64)> = None;
    for (r, b) in bests.iter().enumerate() {
        if held & (1 << r) == 0 || (r == JOKER as usize && !only_jokers) {
            continue;
        }
        let best = b.map_or(i64::MIN, |b| b.1 as i64);
        if worst.is_none_or(|w| best < w.1) {
            worst = Some((r as Rank, best));
        }
    }
    worst.map_or(JOKER, |w| w.0)
}

/// The bluffer's worst card read plainly (tests).
#[cfg(test)]
pub fn worst_card_plain(game: &BluffingJoker, view: &View) -> Rank {
    let only_jokers = view.hand.ranks().all(|r| r == JOKER);
    let mut worst: Option<(Rank, i64)> = None;
    for r in view.hand.ranks() {
        if r == JOKER && !only_jokers {
            continue;
        }
        let mut best = i64::MIN;
        game.geo.for_each_move(view.board, view.seat, r, &mut |_, score| {
            best = best.max(score as i64);
            false
        });
        if worst.is_none_or(|w| best < w.1) {
            worst = Some((r, best));
        }
    }
    worst.map_or(JOKER, |w| w.0)
}

impl Bot<BluffingJoker> for BluffBot {
    fn name(&self) -> &str {
        "bluffer"
    }

    #[inline]
    fn decide(&mut self, game: &BluffingJoker, view: &View<'_>, rng: &mut GameRng) -> Action {
        match view.decision {
            Decision::Play => self.play(game, view, rng),
            Decision::Doubt => {
                let declared = view.declared.map_or(0, |d| d.0);
                if Chance::new(self.doubt_chance(game, view, declared)).hit(rng) { Action::Doubt } else { Action::Pass }
            }
            Decision::Penalty { victim } => penalty_choice(&game.geo, view, victim),
            Decision::Over => Action::Pass,
        }
    }
}

const _: () = assert!(MAX_PEGS <= 8);
