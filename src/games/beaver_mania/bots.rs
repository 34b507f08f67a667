//! Beaver Mania's bots: `greedy` (exactly defined below, reproducible anywhere, no
//! allocation per decision) and `tactician` (a heuristic of its own that keeps the
//! Partybeaver for the end game, guards against being stabbed and ends the round when it
//! leads). `random` is the engine's. Both decide from their seat's [`View`] only.

use super::cards::{Card, HIPPIE, Hand, JOKER, NUMBER_BITS, PARTYBEAVER, SUPERBEAVER};
use super::plays::{Form, JOKERS_VALUE, Judged, MAX_RUN, MIN_RUN, NO_CARD, Play, for_each_play, stabs};
use super::{Action, BeaverMania, MAX_PLAYERS, Source, Step, View};
use crate::engine::OwnBots;
use crate::engine::{Bot, BotInfo, BotParamInfo, GameRng, Uniform};

/// The opponents of the deciding seat, leader first: by public score (pile minus hand)
/// from highest, ties in turn order from the seat's left. Returns the count and the order.
#[inline]
pub fn leaders(game: &BeaverMania, view: &View) -> (usize, [usize; MAX_PLAYERS]) {
    let mut order = [0usize; MAX_PLAYERS];
    let mut n = 0;
    for seat in game.others(view.seat) {
        let score = view.score(seat);
        let mut i = n;
        while i > 0 && view.score(order[i - 1]) < score {
            order[i] = order[i - 1];
            i -= 1;
        }
        order[i] = seat;
        n += 1;
    }
    (n, order)
}

/// The card `greedy` prefers among `source`'s cards: the joker; else the number card of
/// which `hand` holds the most copies (ties to the higher number); else the first action
/// card in canonical order. `source` must not be empty.
#[inline]
pub fn preferred_card(hand: &Hand, source: &Hand) -> Card {
    if source.has(JOKER) {
        return JOKER;
    }
    let nums = source.held() & NUMBER_BITS;
    if nums != 0 {
        return most_held(hand, nums);
    }
    source.held().trailing_zeros() as Card
}

/// Among the numbers in `mask` (non-empty), the one `hand` holds most copies of, ties to the
/// higher number.
#[inline]
pub fn most_held(hand: &Hand, mask: u32) -> Card {
    let mut best = NO_CARD;
    let mut best_count = 0;
    let mut m = mask;
    while m != 0 {
        let c = m.trailing_zeros() as Card;
        m &= m - 1;
        let k = hand.count(c);
        if best == NO_CARD || k >= best_count {
            best = c;
            best_count = k;
        }
    }
    best
}

/// Whether a stabbed top play "extends a group" of `hand`: it holds a joker or a number
/// card of which `hand` holds a copy.
#[inline]
pub fn extends_a_group(hand: &Hand, cards: &[Card]) -> bool {
    cards.iter().any(|&c| c == JOKER || (c < JOKER && hand.has(c)))
}

/// The top plays of every seat (the deciding seat's own included, never stabbed).
#[inline]
fn tops(view: &View) -> [Judged; MAX_PLAYERS] {
    let mut t = [Judged { form: Form::None, guard: true }; MAX_PLAYERS];
    for (seat, top) in t.iter_mut().enumerate().take(view.players) {
        if seat != view.seat {
            *top = view.pile(seat).top_judged();
        }
    }
    t
}

/// How many opponents' top plays `play` stabs.
#[inline]
fn stab_count(play: &Play, tops: &[Judged; MAX_PLAYERS]) -> u32 {
    if !play.stabs_at_all() {
        return 0;
    }
    let form = play.form();
    tops.iter().filter(|&&t| stabs(form, t)).count() as u32
}

/// Greedy's ordering of plays: more opponents' top plays stabbed, then more cards, then
/// fewer jokers, then a higher value ([`Play::value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key(u32, u32, u32, u32);

impl Key {
    /// The key of `play` stabbing `stabbed` top plays.
    #[inline]
    pub fn of(stabbed: u32, play: &Play) -> Key {
        Key(stabbed, play.size(), u32::MAX - play.jokers(), play.value())
    }
}

/// `greedy`, exactly:
/// - Play: among the legal plays in canonical play order ([`for_each_play`]), the one that
///   stabs the most opponents' top plays; among those, the one putting the most cards on
///   its pile; then the one using the fewest jokers; then the highest value (a number's
///   value is the number, jokers alone are above every number, a run counts its highest
///   number, Partybeaver plays and lone action cards 0); remaining ties to the first in
///   canonical play order.
/// - Display stab: the number of which it holds the most copies in hand, ties to the
///   higher number.
/// - Stabbed top play: takes it when it holds a joker or a number card of which the hand
///   holds a copy ([`extends_a_group`]); otherwise puts it away.
/// - Actions go to the leader: opponents ranked by public score (pile minus hand, highest
///   first, ties in turn order from its left) ([`leaders`]). Steal: from the first ranked
///   opponent whose pile is not empty, the [`preferred_card`] of its top play; with no such
///   pile, the preferred card of the display, else of the stock. Fairy: the leader, naming
///   the number it holds most copies of (ties to the higher); holding no number, the
///   joker (a deck without jokers: its first card kind in canonical order). Bad guy: the leader; each card from the draw pile, or (draw pile empty) the
///   first stock card in canonical order.
/// - Drawing a lost pile card: the joker from the stock if there is one, else the stock's
///   number card of which it holds the most copies when it holds at least one (ties to
///   the higher), else the draw pile; with the draw pile empty, the first stock card in
///   canonical order.
#[derive(Default)]
pub struct GreedyBot;

/// The `greedy` entry.
pub fn greedy_info() -> BotInfo<BeaverMania> {
    BotInfo {
        name: "greedy",
        // Reads the deck's numbers and card kinds (plays it can make, the Fairy's wish).
        reads: &["deck.*"],
        aliases: &[],
        doc: "plays the play that stabs most piles, then the largest; takes stabbed cards that extend its groups; actions on the leader",
        params: &[],
        build: |_, _| Box::new(GreedyBot),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|_| GreedyBot).collect()))),
    }
}

/// What greedy can stab on the other seats' piles: the sizes of their stabbable groups (one
/// bit per size), whether a lone action card lies open, the stabbable top plays, and per run
/// length the lowest high card of an opponent's Hippie run.
struct StabTargets {
    /// Bit `size` set when an opponent's unguarded top is a group of that size.
    group_sizes: u32,
    /// An opponent's unguarded top is a lone action card.
    lone: bool,
    /// The unguarded tops (groups, lone cards, runs); the first `t` are used.
    targets: [Judged; MAX_PLAYERS],
    /// Tops in `targets`.
    t: usize,
    /// Per run length, the lowest high card of an opponent's top Hippie run (guarded or not).
    hippie_targets: [u8; 8],
}

impl StabTargets {
    /// The opponents' top plays as greedy reads them from `view`.
    #[inline]
    fn of(game: &BeaverMania, view: &View) -> StabTargets {
        let mut st =
            StabTargets { group_sizes: 0, lone: false, targets: [Judged { form: Form::None, guard: true }; MAX_PLAYERS], t: 0, hippie_targets: [u8::MAX; 8] };
        for seat in game.others(view.seat) {
            let top = view.pile(seat).top_judged();
            if let Form::Run { len, high, hippie: true } = top.form {
                st.hippie_targets[len as usize] = st.hippie_targets[len as usize].min(high);
            }
            if top.guard {
                continue;
            }
            match top.form {
                Form::Group { value, size } if value != JOKERS_VALUE => st.group_sizes |= 1 << size.min(31),
                Form::Lone => st.lone = true,
                Form::Run { .. } => {}
                _ => continue,
            }
            st.targets[st.t] = top;
            st.t += 1;
        }
        st
    }

    /// How many of the tops a play of `form` stabs.
    #[inline]
    fn count(&self, form: Form) -> u32 {
        self.targets[..self.t].iter().filter(|&&x| stabs(form, x)).count() as u32
    }
}

/// Offers greedy's group plays: per number held, the sizes that can matter (its largest and
/// the sizes of stabbable groups), each with the fewest jokers (an action card standing in
/// for one when it has one); then jokers alone likewise.
#[inline]
fn offer_groups(hand: &Hand, stab: &StabTargets, offer: &mut impl FnMut(Key, Play)) {
    let jokers = hand.count(JOKER);
    let action_mask = hand.held() & !(NUMBER_BITS | 1 << JOKER | 1 << PARTYBEAVER);
    let first_action = if action_mask == 0 { NO_CARD } else { action_mask.trailing_zeros() as Card };
    let extra = jokers.max(u32::from(first_action != NO_CARD));
    let mut nums = hand.held() & NUMBER_BITS;
    while nums != 0 {
        let number = nums.trailing_zeros() as Card;
        nums &= nums - 1;
        let c = hand.count(number);
        let max = c + extra;
        let mut sizes = (stab.group_sizes & ((2u32 << max.min(30)) - 1)) | 1 << max.min(31);
        while sizes != 0 {
            let size = sizes.trailing_zeros();
            sizes &= sizes - 1;
            let play = if first_action != NO_CARD && size >= 2 && size - 1 <= c {
                Play::Group { number, count: (size - 1) as u8, jokers: 0, action: first_action }
            } else if size <= c {
                Play::Group { number, count: size as u8, jokers: 0, action: NO_CARD }
            } else if size - c <= jokers {
                Play::Group { number, count: c as u8, jokers: (size - c) as u8, action: NO_CARD }
            } else {
                continue;
            };
            offer(Key::of(stab.count(play.form()), &play), play);
        }
    }
    if jokers > 0 {
        let mut sizes = (stab.group_sizes & ((2u32 << jokers) - 1)) | 1 << jokers | u32::from(stab.lone) << 1;
        while sizes != 0 {
            let size = sizes.trailing_zeros();
            sizes &= sizes - 1;
            let play = Play::Jokers { count: size as u8 };
            offer(Key::of(stab.count(play.form()), &play), play);
        }
    }
}

/// Offers greedy's runs over `numbers` numbers: one Hippie run per (lowest number, length)
/// when it holds the Hippie, then the plain runs it holds that stab a Hippie run or empty
/// its hand.
#[inline]
fn offer_runs(hand: &Hand, numbers: u8, stab: &StabTargets, offer: &mut impl FnMut(Key, Play)) {
    let held = hand.held() & NUMBER_BITS;
    if hand.has(HIPPIE) {
        for low in 0..numbers.saturating_sub(MIN_RUN - 1) {
            for len in MIN_RUN..=MAX_RUN.min(numbers - low) {
                let need = ((1u32 << len) - 1) << low;
                let missing = need & !held;
                let hippie = match missing.count_ones() {
                    0 => low,
                    1 => missing.trailing_zeros() as Card,
                    _ => continue,
                };
                let play = Play::HippieRun { low, len, hippie };
                offer(Key::of(stab.count(play.form()), &play), play);
            }
        }
    }
    for low in 0..numbers.saturating_sub(MIN_RUN - 1) {
        for len in MIN_RUN..=MAX_RUN.min(numbers - low) {
            let need = ((1u32 << len) - 1) << low;
            if need & !held != 0 {
                break;
            }
            if stab.hippie_targets[len as usize] < low + len - 1 || hand.len() == len as usize {
                let play = Play::PlainRun { low, len };
                offer(Key::of(stab.count(play.form()), &play), play);
            }
        }
    }
}

/// Offers the first Partybeaver play in canonical order: three held numbers `a < b < c`,
/// no two adjacent.
#[inline]
fn offer_party(held: u32, offer: &mut impl FnMut(Key, Play)) {
    let mut ma = held;
    while ma != 0 {
        let a = ma.trailing_zeros() as Card;
        ma &= ma - 1;
        let mb = held & !((1u32 << (a + 2)) - 1);
        let mut m = mb;
        while m != 0 {
            let b = m.trailing_zeros() as Card;
            m &= m - 1;
            let mc = held & !((1u32 << (b + 2)) - 1);
            if mc != 0 {
                let play = Play::Party { a, b, c: mc.trailing_zeros() as Card };
                offer(Key::of(0, &play), play);
                return;
            }
        }
    }
}

impl GreedyBot {
    /// Greedy's play by its definition: every legal play scored, the best kept (the
    /// reference for [`GreedyBot::choose_play`], which reaches the same play faster).
    pub fn choose_play_by_enumeration(game: &BeaverMania, view: &View) -> Play {
        let tops = tops(view);
        let mut best: Option<(Key, Play)> = None;
        for_each_play(view.hand, game.numbers, &view.hippie_targets(), |p| {
            let key = Key::of(stab_count(&p, &tops), &p);
            if best.is_none_or(|b| key > b.0) {
                best = Some((key, p));
            }
        });
        best.expect("a non-empty hand always has a legal play").1
    }

    /// Greedy's play (see the type's doc), without listing every play: per number only
    /// the sizes that can matter (its largest play and the sizes of stabbable top plays),
    /// each made with the fewest jokers and the first way in canonical play order; jokers
    /// alone likewise; one Hippie run per (lowest number, length); the first Partybeaver
    /// play; the first lone action card. Categories and numbers are visited in canonical
    /// play order and only a strictly better key replaces the best, so ties go to the first
    /// play in canonical order exactly as in [`GreedyBot::choose_play_by_enumeration`].
    #[inline]
    pub fn choose_play(game: &BeaverMania, view: &View) -> Play {
        let hand = view.hand;
        let stab = StabTargets::of(game, view);
        let mut best: Option<(Key, Play)> = None;
        let mut offer = |key: Key, play: Play| {
            if best.is_none_or(|b| key > b.0) {
                best = Some((key, play));
            }
        };
        offer_groups(hand, &stab, &mut offer);
        offer_runs(hand, game.numbers, &stab, &mut offer);
        if hand.has(PARTYBEAVER) {
            offer_party(hand.held() & NUMBER_BITS, &mut offer);
        }
        let actions = hand.held() & !(NUMBER_BITS | 1 << JOKER);
        if actions != 0 {
            let play = Play::Lone { card: actions.trailing_zeros() as Card };
            offer(Key::of(0, &play), play);
        }
        best.expect("a non-empty hand always has a legal play").1
    }

    /// Greedy's steal.
    #[inline]
    pub fn choose_steal(game: &BeaverMania, view: &View) -> Action {
        let (n, order) = leaders(game, view);
        for &seat in &order[..n] {
            let top = view.pile(seat).top_hand();
            if !top.is_empty() {
                return Action::Steal { from: Source::Pile, seat: seat as u8, card: preferred_card(view.hand, &top) };
            }
        }
        let from = if view.display().is_empty() { Source::Stock } else { Source::Display };
        let h = if from == Source::Display { view.display() } else { view.stock() };
        Action::Steal { from, seat: view.seat as u8, card: preferred_card(view.hand, h) }
    }

    /// Greedy's steal, wish, Bad guy and draw decisions (every step but the play, the
    /// display stab and take-or-put-away).
    #[inline]
    pub fn choose_other(game: &BeaverMania, view: &View) -> Action {
        match view.step {
            Step::Steal { .. } => Self::choose_steal(game, view),
            Step::Fairy => Action::Fairy { seat: leaders(game, view).1[0] as u8, card: fairy_wish(game, view.hand) },
            Step::BadGuyVictim => Action::BadGuy { seat: leaders(game, view).1[0] as u8 },
            Step::BadGuyCard { .. } => supply_default(view),
            Step::Draw { .. } => Self::choose_draw(view),
            step => unreachable!("greedy decides {step:?} itself"),
        }
    }

    /// Greedy's draw of a lost pile card.
    #[inline]
    pub fn choose_draw(view: &View) -> Action {
        let stock = view.stock();
        if stock.has(JOKER) {
            return Action::Supply { from: Source::Stock, card: JOKER };
        }
        let useful = stock.held() & view.hand.held() & NUMBER_BITS;
        if useful != 0 {
            return Action::Supply { from: Source::Stock, card: most_held(view.hand, useful) };
        }
        supply_default(view)
    }
}

/// The draw pile when it has cards, else the first stock card in canonical order.
#[inline]
fn supply_default(view: &View) -> Action {
    if view.draw_pile() > 0 {
        Action::Supply { from: Source::DrawPile, card: NO_CARD }
    } else {
        Action::Supply { from: Source::Stock, card: view.stock().held().trailing_zeros() as Card }
    }
}

/// The number of `hand` with the most copies (ties to the higher); with no number, the
/// joker, or (a deck without jokers) the first card kind of the deck in canonical order.
#[inline]
fn fairy_wish(game: &BeaverMania, hand: &Hand) -> Card {
    let nums = hand.held() & NUMBER_BITS;
    if nums != 0 {
        most_held(hand, nums)
    } else if game.kinds & (1 << JOKER) != 0 {
        JOKER
    } else {
        game.kinds.trailing_zeros() as Card
    }
}

impl Bot<BeaverMania> for GreedyBot {
    fn name(&self) -> &str {
        "greedy"
    }

    #[inline]
    fn decide(&mut self, game: &BeaverMania, view: &View<'_>, _rng: &mut GameRng) -> Action {
        match view.step {
            Step::Play => Action::Play(Self::choose_play(game, view)),
            Step::StabDisplay => Action::StabDisplay(most_held(view.hand, view.display_options(game))),
            Step::Pile { seat } => Action::Take(extends_a_group(view.hand, view.pile(seat as usize).top_cards())),
            _ => Self::choose_other(game, view),
        }
    }
}

/// `tactician`: scores every legal play by the cards it sheds, the opponents' pile cards it
/// stabs (more for the leader), the cards a forced display stab would put in its hand (less
/// when they extend a group it holds), the action it brings, the jokers it spends and the
/// risk that the new top play is stabbed before its next turn (none for a Bodyguard, jokers
/// alone or a Partybeaver play). It keeps the Partybeaver until its hand is small
/// (`party_at` cards) or the supply runs low, and ends the round by emptying its hand only
/// when that wins. It takes stabbed cards only when they extend a group and the supply is
/// not running out, draws stock cards that extend a group, and aims its actions at the
/// leader like `greedy`.
pub struct TacticianBot {
    w: TacticianWeights,
}

/// The tactician's parameters (see [`TACTICIAN_PARAMS`]).
#[derive(Clone, Copy, Debug)]
struct TacticianWeights {
    party_at: u32,
    caution: f64,
    display_cost: f64,
    joker_cost: f64,
    stab_weight: f64,
}

/// The tactician's parameters: names, defaults (tuned against `greedy` on the standard
/// variant) and ranges.
pub const TACTICIAN_PARAMS: &[BotParamInfo] = &[
    BotParamInfo { name: "party_at", default: 8.0, min: 0.0, max: 30.0, doc: "hand size at or below which it plays the Partybeaver with three numbers" },
    BotParamInfo { name: "caution", default: 0.0, min: 0.0, max: 4.0, doc: "weight of the risk that its new top play is stabbed" },
    BotParamInfo {
        name: "display_cost",
        default: 2.0,
        min: 0.0,
        max: 4.0,
        doc: "points per card a forced display stab puts in its hand (a third when it extends a group)",
    },
    BotParamInfo { name: "joker_cost", default: 0.6, min: 0.0, max: 4.0, doc: "points a joker spent in a play costs" },
    BotParamInfo { name: "stab_weight", default: 0.5, min: 0.0, max: 4.0, doc: "weight of the opponents' pile cards a play stabs" },
];

/// The `tactician` entry.
pub fn tactician_info() -> BotInfo<BeaverMania> {
    BotInfo {
        name: "tactician",
        // Reads the deck's numbers and copies (the risk that a play is beaten).
        reads: &["deck.*"],
        aliases: &[],
        doc: "scores plays by cards shed, piles stabbed, forced display stabs, actions and jokers spent; keeps the Partybeaver for the end game",
        params: TACTICIAN_PARAMS,
        build: |_, v| Box::new(TacticianBot::new(v)),
        uniform: Some(|_, seats| Box::new(Uniform::new(seats.iter().map(|v| TacticianBot::new(v)).collect()))),
    }
}

impl TacticianBot {
    /// A tactician with parameter values in [`TACTICIAN_PARAMS`] order.
    pub fn new(v: &[f64]) -> Self {
        TacticianBot { w: TacticianWeights { party_at: v[0] as u32, caution: v[1], display_cost: v[2], joker_cost: v[3], stab_weight: v[4] } }
    }

    /// Chance that some opponent stabs a new top play of `play`'s form before this seat
    /// moves again: a rough count of the ways (higher numbers in the same size), with the
    /// decision's odds read from `at` ([`AtDecision`]).
    fn risk(game: &BeaverMania, at: &AtDecision, play: &Play) -> f64 {
        if play.guard() {
            return 0.0;
        }
        match play.form() {
            Form::Group { value: JOKERS_VALUE, .. } | Form::Party | Form::None => 0.0,
            Form::Group { value, size } => {
                let higher = (game.numbers as f64 - 1.0 - value as f64) / game.numbers as f64;
                let per_size = match size {
                    1 => 0.9,
                    2 => 0.55,
                    3 => 0.25,
                    4 => 0.08,
                    _ => 0.02,
                };
                (per_size * (higher + at.jokers * 4.0)).min(1.0) * at.some_opponent
            }
            Form::Run { high, .. } => 0.15 * (game.numbers as f64 - 1.0 - high as f64) / game.numbers as f64,
            Form::Lone => 0.15,
        }
    }

    /// Cards left to draw before the round ends by the supply.
    fn supply(view: &View) -> usize {
        view.draw_pile() + view.stock().len()
    }

    fn play_score(&self, game: &BeaverMania, view: &View, play: &Play, at: &AtDecision) -> f64 {
        let w = &self.w;
        let size = play.size() as f64;
        let hand_after = view.hand.len() as u32 - play.size();
        let me = view.seat;
        if hand_after == 0 {
            // The round ends now: my score is my pile; the others keep theirs.
            let mine = view.pile(me).len() as i64 + play.size() as i64;
            let best_other = game.others(me).map(|o| view.score(o)).max().unwrap_or(0);
            return if mine > best_other {
                1e6
            } else if mine == best_other {
                1e3
            } else {
                -1e3 + size
            };
        }
        let mut score = 2.0 * size;
        if play.stabs_at_all() {
            let form = play.form();
            for (seat, t) in at.tops.iter().enumerate() {
                if stabs(form, *t) {
                    let k = view.pile(seat).top_cards().len() as f64;
                    score += w.stab_weight * 2.0 * k * if seat == at.leader { 1.5 } else { 1.0 };
                }
            }
            if let Form::Group { value, size: k } = form {
                let below = if value == JOKERS_VALUE { NUMBER_BITS } else { (1u32 << value) - 1 };
                let mut m = view.display().held() & below;
                let mut best_cost = f64::INFINITY;
                while m != 0 {
                    let c = m.trailing_zeros() as Card;
                    m &= m - 1;
                    if view.display().count(c) >= k as u32 {
                        best_cost = best_cost.min(if view.hand.has(c) { 0.33 } else { 1.0 });
                    }
                }
                if best_cost.is_finite() {
                    score -= w.display_cost * best_cost * k as f64;
                }
            }
        }
        // With no caution the term is 0 and leaves the score as it is.
        if w.caution != 0.0 {
            score -= w.caution * 2.0 * size * Self::risk(game, at, play);
        }
        score -= w.joker_cost * play.jokers() as f64;
        let action = play.action();
        if action != NO_CARD {
            score += match action - SUPERBEAVER {
                0 => 3.0,
                1 => 1.5,
                2 => 0.5,
                5 => 1.5,
                7 => match *play {
                    Play::Group { number, .. } => 1.2 * (view.players - 1) as f64 * game.copies[number as usize] as f64 / 8.0,
                    _ => -1.0,
                },
                6 => 0.0,
                _ => -1.0,
            };
        }
        match *play {
            Play::Party { .. } if view.hand.len() as u32 > w.party_at && !at.late => score -= 6.0,
            Play::Lone { card: PARTYBEAVER } => score -= 4.0,
            _ => {}
        }
        if let Play::Group { number, count, .. } = *play
            && count as u32 == view.hand.count(number)
        {
            score += 0.3;
        }
        score
    }

    fn choose_play(&self, game: &BeaverMania, view: &View) -> Play {
        let at = AtDecision::of(game, view);
        let mut best: Option<(f64, Play)> = None;
        for_each_play(view.hand, game.numbers, &view.hippie_targets(), |p| {
            let s = self.play_score(game, view, &p, &at);
            if best.is_none_or(|b| s > b.0) {
                best = Some((s, p));
            }
        });
        best.expect("a non-empty hand always has a legal play").1
    }
}

/// What `tactician` reads at every play it scores, the same for all plays of one decision:
/// worked out once per decision rather than once per play.
struct AtDecision {
    /// The top plays of every seat ([`tops`]).
    tops: [Judged; MAX_PLAYERS],
    /// The leading opponent ([`leaders`]).
    leader: usize,
    /// The round nears its end: the supply is low or an opponent holds 3 cards or fewer.
    late: bool,
    /// The deck's share of jokers.
    jokers: f64,
    /// 1 - 0.55 to the power of the opponents: how likely some opponent holds an answer.
    some_opponent: f64,
}

impl AtDecision {
    /// The decision at `view`.
    fn of(game: &BeaverMania, view: &View) -> AtDecision {
        let opponents = (view.players - 1) as f64;
        AtDecision {
            tops: tops(view),
            leader: leaders(game, view).1[0],
            late: TacticianBot::supply(view) <= 4 * view.players || game.others(view.seat).map(|o| view.hand_size(o)).min().unwrap_or(99) <= 3,
            jokers: game.copies[JOKER as usize] as f64 / game.deck.len() as f64,
            some_opponent: 1.0 - 0.55f64.powf(opponents),
        }
    }
}

impl Bot<BeaverMania> for TacticianBot {
    fn name(&self) -> &str {
        "tactician"
    }

    fn decide(&mut self, game: &BeaverMania, view: &View<'_>, _rng: &mut GameRng) -> Action {
        match view.step {
            Step::Play => Action::Play(self.choose_play(game, view)),
            Step::StabDisplay => Action::StabDisplay(most_held(view.hand, view.display_options(game))),
            Step::Pile { seat } => {
                let late = Self::supply(view) <= 4 * view.players;
                Action::Take(!late && extends_a_group(view.hand, view.pile(seat as usize).top_cards()))
            }
            _ => GreedyBot::choose_other(game, view),
        }
    }
}

impl OwnBots for BeaverMania {
    fn bots(&self) -> Vec<BotInfo<Self>> {
        vec![greedy_info(), tactician_info()]
    }
}
