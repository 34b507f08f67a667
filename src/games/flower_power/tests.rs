//! Flower Power tests: the rulebook's examples (a completed flower, one flower per color),
//! the docs/games/flower-power.md arithmetic of k petals plus m cards, drawing to the hand size, the play
//! limits, passing over, the end, the cap and shared wins, parameter checks, the exact
//! `greedy` definition, `cautious`, the `random` sampler against `legal_actions`, hidden
//! information, and many checked games of every bot (cards conserved, legal choices, the
//! end reached).

use crate::engine::HiddenInfo;
use proptest::prelude::*;

use super::bots::{CautiousBot, at_least};
use super::*;
use crate::engine::{Bot, EventLog, Game, GameRng, Outcome, PlayOptions, SeedFrom, ToMove, all_bots, game_seed, play};
use crate::games::Registered;
use crate::variant::Variant;

// ---------------------------------------------------------------------------------------
// Helpers

fn game_with(f: impl FnOnce(&mut Params)) -> FlowerPower {
    let mut p = Params::default();
    f(&mut p);
    FlowerPower::new(p).expect("valid test parameters")
}

fn standard() -> FlowerPower {
    game_with(|_| {})
}

const RED: usize = 0;
const ORANGE: usize = 1;
const YELLOW: usize = 2;
const GREEN: usize = 3;
const BLUE: usize = 4;

/// The base card of `color` and `shape`.
fn card(color: usize, shape: usize) -> Card {
    (color * 5 + shape) as Card
}

/// `n` cards of `color` with shapes 0, 1, 2, ... (wrapping).
fn of(color: usize, n: usize) -> Vec<Card> {
    (0..n).map(|i| card(color, i % 5)).collect()
}

/// A table where `hands` are held (seats beyond the list are empty), the garden holds
/// `garden` petals, and every other card lies in the draw pile (canonical order, so the
/// pile's top is the last blue card) unless `pile` is given; seat `current` is to play.
fn table(g: &FlowerPower, hands: &[Vec<Card>], garden: [u16; COLORS], pile: Option<Vec<Card>>, current: usize) -> State {
    let mut s = g.deal(&mut GameRng::seed_from(0), &mut EventLog::new(false));
    let mut left = g.deck.clone();
    let remove = |c: Card, left: &mut Vec<Card>| {
        let i = left.iter().position(|&x| x == c).expect("card available");
        left.remove(i);
    };
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    for (seat, h) in hands.iter().enumerate() {
        s.hands[seat] = Hand::from_cards(h);
        for &c in h {
            remove(c, &mut left);
        }
    }
    for (c, &k) in garden.iter().enumerate() {
        for _ in 0..k {
            let i = left.iter().position(|&x| color_of(x) == c).expect("color available");
            left.remove(i);
        }
    }
    let mut flowers_by_color = [0u32; COLORS];
    s.pile = match pile {
        Some(p) => {
            // Cards neither held, in the garden nor in the given pile were taken as flowers
            // by seat 0 (whole flowers of one color).
            for &c in &p {
                remove(c, &mut left);
            }
            for &c in &left {
                flowers_by_color[color_of(c)] += 1;
            }
            for f in flowers_by_color.iter_mut() {
                assert_eq!(*f % g.petals, 0, "leftover cards must make whole flowers");
                *f /= g.petals;
            }
            p
        }
        None => left,
    };
    s.garden = garden.into();
    s.starter = [0; COLORS];
    s.flowers = [0; MAX_PLAYERS];
    s.flowers[0] = flowers_by_color.iter().sum::<u32>() as i64;
    s.flowers_by_color = flowers_by_color;
    s.finished_by_other = 0;
    s.current = current as u8;
    s.turns = 0;
    s.passes = 0;
    s.left = (s.pile.len() + s.hands.iter().map(Hand::len).sum::<usize>()) as u32;
    s.over = false;
    s.end_reason = END_ALL_PLAYED;
    s
}

/// A table where seat 0, to play, holds the cards given as (color, shape) and the garden
/// holds `garden` petals; the rest is in the pile.
fn alone(g: &FlowerPower, cards: &[(usize, usize)], garden: [u16; COLORS]) -> State {
    let hand: Vec<Card> = cards.iter().map(|&(c, sh)| card(c, sh)).collect();
    table(g, &[hand], garden, None, 0)
}

/// Plays the positions in `mask` for the seat to move, checking legality and the invariants.
fn apply(g: &FlowerPower, s: &mut State, mask: u16) {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("game over") };
    let view = g.view(s, seat);
    let mask = Action(mask);
    assert!(g.is_legal(&view, &mask), "{:b} must be legal", mask.0);
    g.apply(s, seat, mask, &mut GameRng::seed_from(1), &mut EventLog::new(false));
    g.check_invariants(s).expect("invariants hold");
}

/// The mask of the first `n` positions.
fn first(n: usize) -> u16 {
    ((1u32 << n) - 1) as u16
}

fn bot(name: &str) -> Box<dyn Bot<FlowerPower>> {
    let g = standard();
    let info = all_bots(&g).into_iter().find(|b| b.name == name).expect("bot exists");
    let v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    (info.build)(&g, &v)
}

/// Every seat played by bot `info` with its default parameters.
fn lineup(g: &FlowerPower, info: &crate::engine::BotInfo<FlowerPower>) -> Vec<Box<dyn Bot<FlowerPower>>> {
    let values: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    (0..g.players).map(|_| (info.build)(g, &values)).collect()
}

/// One game through the engine in checked mode (legal choices, invariants after each step).
fn checked(g: &FlowerPower, bots: &mut Vec<Box<dyn Bot<FlowerPower>>>, seed: u64) -> Outcome {
    play(g, bots, seed, PlayOptions { checked: true }, None, None).unwrap_or_else(|v| panic!("seed {seed}: {v:?}"))
}

fn decide(g: &FlowerPower, s: &State, b: &mut dyn Bot<FlowerPower>) -> Action {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("game over") };
    b.new_game(g, seat);
    b.decide(g, &g.view(s, seat), &mut GameRng::seed_from(5))
}

/// Cards per color that bot `name` plays from seat 0's hand at `s`.
fn plays(g: &FlowerPower, s: &State, name: &str) -> [u8; COLORS] {
    colors_of(&s.hands[0], decide(g, s, bot(name).as_mut()))
}

/// Cards per color of a play.
fn colors_of(hand: &Hand, mask: Action) -> [u8; COLORS] {
    let mut out = [0u8; COLORS];
    for (i, &c) in hand.cards().iter().enumerate() {
        if mask.0 & (1 << i) != 0 {
            out[color_of(c)] += 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Rulebook examples and docs/games/flower-power.md

#[test]
fn rulebook_completed_flower_five_petals_of_one_color_score_one_point() {
    // "The player that places the 5th, or last, pedal on a flower gets to pick the flower
    // ... They have just earned 1 point." Four red petals in the garden; seat 1 lays the 5th.
    let g = standard();
    let mut s = table(&g, &[of(BLUE, 5), vec![card(RED, 2), card(GREEN, 0)]], [4, 0, 0, 4, 0], Some(Vec::new()), 1);
    s.flowers[0] = 0;
    s.flowers[1] = 0;
    s.flowers[2] = 7;
    apply(&g, &mut s, 0b01);
    assert_eq!(s.flowers[1], 1, "the 5th petal takes the flower");
    assert_eq!(s.flowers[0], 0);
    assert_eq!(s.garden[RED], 0, "the color's count restarts at 0");
    assert_eq!(s.flowers_by_color[RED], 2);
    assert_eq!(s.finished_by_other, 1, "seat 0 (the table's starter) laid the first petal");
}

#[test]
fn rulebook_shapes_do_not_matter_and_one_flower_per_color() {
    // "There may only be 1 flower of any given color at any time ... All the blue pedals must
    // be combined into one flower." Yellow, red and blue flowers in progress; blue petals of
    // any shape join the one blue flower.
    let g = standard();
    let mut s = table(&g, &[vec![card(BLUE, 0), card(BLUE, 3)], vec![card(BLUE, 4), card(YELLOW, 1)]], [1, 0, 1, 0, 1], None, 0);
    apply(&g, &mut s, 0b11);
    assert_eq!(s.garden, [1, 0, 1, 0, 3], "both blue cards join the blue flower");
    assert_eq!(s.hands[1].cards()[0], card(BLUE, 4));
    apply(&g, &mut s, 0b01);
    assert_eq!(s.garden, [1, 0, 1, 0, 4], "still one blue flower");
    assert_eq!(s.flowers[..2], [0, 0]);
}

#[test]
fn k_petals_plus_m_cards_give_floor_flowers_and_leave_the_remainder() {
    // docs/games/flower-power.md: k petals plus m cards of one color give floor((k+m)/5) flowers and leave
    // (k+m) mod 5 petals.
    for (k, m, flowers, left) in
        [(3u16, 7usize, 2i64, 0u16), (4, 3, 1, 2), (0, 5, 1, 0), (2, 2, 0, 4), (4, 6, 2, 0), (1, 9, 2, 0), (0, 10, 2, 0), (3, 1, 0, 4), (4, 11, 3, 0)]
    {
        let g = game_with(|p| {
            p.hand_size = 12;
            p.max_play = 12;
            p.deck.base_sets = 3;
        });
        let mut s = table(&g, &[of(GREEN, m)], [0, 0, 0, k, 0], None, 0);
        apply(&g, &mut s, first(m));
        assert_eq!(s.flowers[0], flowers, "k = {k}, m = {m}");
        assert_eq!(u16::from(s.garden[GREEN]), left, "k = {k}, m = {m}");
        assert_eq!(s.flowers_by_color[GREEN] as i64, flowers);
    }
}

#[test]
fn a_turn_draws_up_to_the_hand_size_first() {
    let g = standard();
    let mut rng = GameRng::seed_from(3);
    let s = g.deal(&mut rng, &mut EventLog::new(false));
    assert_eq!(s.hands[0].len(), 5, "nobody is dealt: seat 0 draws 5 when its turn starts");
    assert!(s.hands[1..].iter().all(Hand::is_empty));
    assert_eq!(s.pile.len(), 45);
    assert_eq!(s.garden, [0; COLORS], "the garden starts empty");
    let mut s = s;
    apply(&g, &mut s, 0b1);
    assert_eq!(s.current, 1);
    assert_eq!(s.hands[0].len(), 4, "seat 0 keeps what it did not play");
    assert_eq!(s.hands[1].len(), 5, "seat 1 drew 5");
    assert_eq!(s.pile.len(), 40);
    // Back to seat 0 after the others: it draws 1 to get back to 5.
    for _ in 0..3 {
        apply(&g, &mut s, 0b1);
    }
    assert_eq!(s.current, 0);
    assert_eq!(s.hands[0].len(), 5);
    assert_eq!(s.pile.len(), 45 - 15 - 1);
}

#[test]
fn a_short_pile_gives_what_it_has() {
    let g = standard();
    let mut s = table(&g, &[of(RED, 1), of(BLUE, 2)], [4, 0, 0, 3, 3], Some(vec![card(GREEN, 1), card(GREEN, 2)]), 0);
    // Seat 0 plays its red card; seat 1 draws the 2 left (not 3) and holds 4.
    apply(&g, &mut s, 0b1);
    assert_eq!(s.current, 1);
    assert_eq!(s.hands[1].len(), 4);
    assert!(s.pile.is_empty());
}

#[test]
fn play_between_one_and_max_play_cards() {
    let g = game_with(|p| p.max_play = 2);
    let s = table(&g, &[of(RED, 5)], [0; COLORS], None, 0);
    let view = g.view(&s, 0);
    assert!(!g.is_legal(&view, &Action(0)), "at least one card");
    assert!(g.is_legal(&view, &Action(0b1)), "one card is enough even with playable cards");
    assert!(g.is_legal(&view, &Action(0b10010)));
    assert!(!g.is_legal(&view, &Action(0b111)), "more than max_play");
    assert!(!g.is_legal(&view, &Action(0b100000)), "no card at position 5");
    let mut legal = Vec::new();
    g.legal_actions(&view, &mut legal);
    assert_eq!(legal.len(), 5 + 10);
    assert!(legal.iter().all(|a| g.is_legal(&view, a)));
}

#[test]
fn empty_handed_seats_are_passed_over_without_a_turn() {
    let g = game_with(|p| p.players = 4);
    // Pile empty; seat 1 and 2 hold nothing; seat 3 holds a card.
    let mut s = table(&g, &[of(RED, 2), vec![], vec![], of(BLUE, 1)], [3, 0, 0, 0, 4], Some(Vec::new()), 0);
    apply(&g, &mut s, 0b1);
    assert_eq!(s.current, 3, "seats 1 and 2 are passed over");
    assert_eq!(s.turns, 1, "passing over counts no turn");
    assert_eq!(s.passes, 2);
    apply(&g, &mut s, 0b1);
    assert_eq!(s.current, 0, "back to seat 0 (the only one left with a card)");
    apply(&g, &mut s, 0b1);
    assert!(s.over);
    assert_eq!(s.end_reason, END_ALL_PLAYED);
    assert_eq!(s.turns, 3);
}

#[test]
fn the_game_ends_when_pile_and_hands_are_empty_and_most_flowers_win() {
    let g = game_with(|p| p.players = 3);
    // Seat 0 already took 2 flowers (the table helper credits whole flowers outside the
    // hands, garden and pile to seat 0); seat 1 takes the red one now.
    let mut s = table(&g, &[vec![], of(RED, 1), vec![]], [4, 0, 0, 0, 0], Some(Vec::new()), 1);
    assert!(s.flowers[0] > 0);
    apply(&g, &mut s, 0b1);
    assert!(s.over, "pile and every hand empty after the turn");
    let o = g.outcome(&s);
    assert_eq!(o.end_reason, END_ALL_PLAYED);
    assert_eq!(o.winners, 0b001, "most flowers wins");
    assert_eq!(o.scores[1], 1);
}

#[test]
fn ties_share_the_win_and_petals_left_score_nothing() {
    let g = game_with(|p| p.players = 2);
    // 8 whole flowers lie outside hands and garden: 4 each.
    let mut s = table(&g, &[of(RED, 1), of(BLUE, 1)], [4, 0, 0, 0, 4], Some(Vec::new()), 0);
    s.flowers[..2].copy_from_slice(&[4, 4]);
    apply(&g, &mut s, 0b1);
    apply(&g, &mut s, 0b1);
    assert!(s.over);
    let o = g.outcome(&s);
    assert_eq!(o.scores[..2], [5, 5]);
    assert_eq!(o.winners, 0b11, "a tie shares the win");
    assert_eq!(o.win_share(0), 0.5);
    // Petals in progress at the end are lost: red 3 + 1 and blue 3 + 1 score nothing.
    // With 4 petals, each color's 10 cards make 2 flowers and leave 2 petals, which nobody
    // scores: 10 flowers in all, 10 petals left.
    let g = game_with(|p| p.petals = 4);
    for seed in 0..20 {
        let mut bots: Vec<Box<dyn Bot<FlowerPower>>> = (0..4).map(|_| bot("greedy")).collect();
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let a = bots[seat].decide(&g, &g.view(&s, seat), &mut rng);
            g.apply(&mut s, seat, a, &mut rng, &mut EventLog::new(false));
        }
        assert_eq!(s.garden, [2; COLORS]);
        assert_eq!(g.outcome(&s).scores.iter().sum::<i64>(), 10);
    }
    // With 5 petals (docs/games/flower-power.md) every card is played, so every color makes exactly 2 flowers.
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<FlowerPower>>> = (0..4).map(|_| bot("random")).collect();
    for seed in 0..20 {
        let o = checked(&g, &mut bots, seed);
        assert_eq!(o.scores.iter().sum::<i64>(), 10);
    }
}

#[test]
fn the_turn_cap_ends_the_game_and_most_flowers_win() {
    let g = game_with(|p| p.turn_cap = 3);
    let mut s = table(&g, &[of(RED, 5)], [0; COLORS], None, 0);
    apply(&g, &mut s, first(5));
    assert_eq!(s.flowers[0], 1);
    apply(&g, &mut s, 0b1);
    assert!(!s.over);
    apply(&g, &mut s, 0b1);
    assert!(s.over);
    assert_eq!(s.end_reason, END_CAP);
    let o = g.outcome(&s);
    assert_eq!(o.length, 3);
    assert_eq!(o.winners, 0b1);
    // A game whose last card is played in the cap's turn ends `all_played`.
    let g = game_with(|p| p.turn_cap = 1);
    let mut s = table(&g, &[of(RED, 1)], [4, 0, 0, 0, 0], Some(Vec::new()), 0);
    apply(&g, &mut s, 0b1);
    assert!(s.over);
    assert_eq!(s.end_reason, END_ALL_PLAYED);
}

#[test]
fn every_game_ends_within_the_deck_in_turns() {
    for players in 2..=8 {
        let g = game_with(|p| p.players = players);
        for seed in 0..50 {
            let mut bots: Vec<Box<dyn Bot<FlowerPower>>> = (0..players).map(|_| bot("greedy")).collect();
            let o = checked(&g, &mut bots, seed);
            assert_eq!(o.end_reason, END_ALL_PLAYED);
            assert!(o.length as usize <= g.deck.len());
            assert!(o.scores[..players as usize].iter().sum::<i64>() <= 10);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Parameters

fn problems(f: impl FnOnce(&mut Params)) -> Vec<String> {
    let mut p = Params::default();
    f(&mut p);
    match p.check() {
        Ok(()) => Vec::new(),
        Err(bad) => bad.into_iter().map(|i| format!("{}: {}", i.key, i.message)).collect(),
    }
}

#[test]
fn defaults_are_rules_md_and_valid() {
    let p = Params::default();
    assert_eq!((p.players, p.hand_size, p.max_play, p.petals, p.deck.base_sets), (4, 5, 5, 5, 2));
    assert!(problems(|_| {}).is_empty());
    assert_eq!(standard().deck.len(), 50);
}

#[test]
fn out_of_range_keys_are_refused_with_their_key() {
    let one = |f: fn(&mut Params), key: &str| {
        let bad = problems(f);
        assert!(bad.iter().any(|b| b.starts_with(&format!("{key}:"))), "{key}: {bad:?}");
    };
    one(|p| p.players = 1, "players");
    one(|p| p.players = 9, "players");
    one(|p| p.hand_size = 0, "hand_size");
    one(|p| p.hand_size = 17, "hand_size");
    one(|p| p.max_play = 0, "max_play");
    one(|p| p.max_play = 17, "max_play");
    one(|p| p.petals = 0, "petals");
    one(|p| p.petals = 11, "petals");
    one(|p| p.turn_cap = 0, "turn_cap");
    one(|p| p.turn_cap = 100_001, "turn_cap");
    one(|p| p.deck.base_sets = 0, "deck.base_sets");
    one(|p| p.deck.base_sets = 41, "deck.base_sets");
    one(|p| p.deck.colors_sets = 1, "deck.colors_sets");
    one(|p| p.deck.shapes_sets = 2, "deck.shapes_sets");
    one(|p| p.deck.action_sets = 1, "deck.action_sets");
    one(|p| p.deck.counts.all_colors = Some(1), "deck.counts.all_colors");
    one(|p| p.deck.counts.skip = Some(3), "deck.counts.skip");
    one(|p| p.deck.counts.base = Some(0), "deck.counts.base");
    assert!(problems(|p| p.petals = 10).is_empty(), "10 petals: 10 cards of a color in 2 sets");
    assert!(problems(|p| p.deck.counts.skip = Some(0)).is_empty(), "an explicit 0 is fine");
    assert!(problems(|p| p.max_play = 9).is_empty(), "max_play above hand_size plays as hand_size");
}

fn load(text: &str) -> Result<FlowerPower, String> {
    let v = Variant::from_toml_str(std::path::Path::new("test.toml"), text).map_err(|e| e.to_string())?;
    FlowerPower::from_variant(&v).map_err(|e| e.to_string())
}

#[test]
fn toml_keys_unknown_keys_and_wilds_are_reported() {
    let g = load("game = \"flower-power\"\n[deck]\nbase_sets = 3\n").expect("only base_sets");
    assert_eq!(g.deck.len(), 75);
    let e = load("game = \"flower-power\"\npetal = 4\n").err().expect("unknown key");
    assert!(e.contains("petal"), "{e}");
    let e = load("game = \"flower-power\"\n[deck]\ncolors_sets = 1\n").err().expect("wilds");
    assert!(e.contains("deck.colors_sets") && e.contains("base cards only"), "{e}");
    let e = load("game = \"flower-power\"\nplayers = -2\n").err().expect("negative");
    assert!(e.contains("players"), "{e}");
}

#[test]
fn bundled_variants_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/flower-power");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("variants folder") {
        let path = entry.expect("entry").path();
        let v = Variant::load(&path, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        FlowerPower::from_variant(&v).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n += 1;
    }
    assert!(n >= 3, "standard and at least two designer variants");
    let v = Variant::load(&dir.join("standard.toml"), &[]).expect("standard");
    let g = FlowerPower::from_variant(&v).expect("valid");
    assert_eq!(g.params, Params::default(), "standard.toml is RULES.md");
}

// ---------------------------------------------------------------------------------------
// greedy, exactly as issue 12 defines it

/// (cards held per color, garden, petals, max_play, greedy's play per color, why).
type GreedyCase = ([u8; 5], [u16; 5], u32, u32, [u8; 5], &'static str);

#[rustfmt::skip]
const GREEDY_CASES: &[GreedyCase] = &[
    // 1. Completions in canonical order within a budget of max_play cards.
    ([2, 1, 0, 0, 2], [3, 4, 0, 0, 0], 5, 5, [2, 1, 0, 0, 0], "red needs 2, orange 1: both fit"),
    ([2, 1, 1, 0, 0], [3, 4, 4, 0, 0], 5, 2, [2, 0, 0, 0, 0], "red uses the budget of 2; orange no longer fits"),
    ([4, 1, 1, 0, 0], [1, 4, 4, 0, 0], 5, 3, [0, 1, 1, 0, 0], "red needs 4 > 3: skipped; orange and yellow fit"),
    ([7, 0, 0, 0, 0], [3, 0, 0, 0, 0], 5, 16, [7, 0, 0, 0, 0], "a second flower: 5 still held, budget allows"),
    ([6, 0, 0, 0, 0], [3, 0, 0, 0, 0], 5, 16, [2, 0, 0, 0, 0], "4 left < 5: no second flower"),
    ([7, 0, 0, 0, 0], [3, 0, 0, 0, 0], 5, 6, [2, 0, 0, 0, 0], "budget 4 < 5: no second flower"),
    ([5, 0, 0, 0, 0], [0; 5], 5, 5, [5, 0, 0, 0, 0], "five of a color from an empty flower"),
    ([6, 1, 0, 0, 0], [4, 4, 0, 0, 0], 5, 6, [6, 0, 0, 0, 0], "second flowers of a color before the next color"),
    // 2. Otherwise one card: fewest petals, then held most, then canonical order.
    ([1, 1, 1, 0, 1], [3, 1, 2, 0, 2], 5, 5, [0, 1, 0, 0, 0], "the held color with fewest petals"),
    ([1, 0, 2, 0, 0], [2, 0, 2, 0, 0], 5, 5, [0, 0, 1, 0, 0], "orange (0 petals) is not held; tie: held most"),
    ([0, 2, 0, 2, 1], [0, 1, 0, 1, 1], 5, 5, [0, 1, 0, 0, 0], "tie on petals and held: canonical order"),
    ([4, 1, 0, 0, 0], [0, 1, 0, 0, 0], 5, 3, [1, 0, 0, 0, 0], "a completion that does not fit is none"),
];

#[test]
fn greedy_is_the_issue_definition() {
    for &(held, garden, petals, max_play, want, why) in GREEDY_CASES {
        assert_eq!(greedy_play(&held, &garden, petals, max_play), want, "{why}");
    }
}

#[test]
fn greedy_bot_plays_those_cards_from_its_hand() {
    let g = standard();
    let s = alone(&g, &[(BLUE, 0), (RED, 1), (RED, 2), (ORANGE, 0), (RED, 3)], [2, 0, 0, 0, 0]);
    assert_eq!(plays(&g, &s, "greedy"), [3, 0, 0, 0, 0]);
    assert_eq!(decide(&g, &s, bot("greedy").as_mut()), Action(0b10110));
}

// ---------------------------------------------------------------------------------------
// cautious

#[test]
fn cautious_completes_the_most_flowers() {
    // max_play 2: greedy takes red (2 cards); cautious takes orange and yellow (2 flowers).
    let g = game_with(|p| p.max_play = 2);
    let s = alone(&g, &[(RED, 0), (RED, 1), (ORANGE, 0), (YELLOW, 0), (BLUE, 0)], [3, 4, 4, 0, 0]);
    assert_eq!(plays(&g, &s, "cautious"), [0, 1, 1, 0, 0]);
    assert_eq!(plays(&g, &s, "greedy"), [2, 0, 0, 0, 0]);
}

#[test]
fn cautious_does_not_set_up_the_next_player() {
    // Red stands at 3: a 4th red petal leaves a flower any red card completes. Cautious
    // lays a petal elsewhere.
    let g = standard();
    let s = alone(&g, &[(RED, 0), (GREEN, 0), (BLUE, 0), (BLUE, 1), (ORANGE, 0)], [3, 0, 0, 1, 2]);
    let played = plays(&g, &s, "cautious");
    assert_eq!(played.iter().sum::<u8>(), 1, "one card when nothing completes");
    assert_eq!(played[RED], 0, "never the 4th red petal");
    // Red (a 4th petal: any red card completes) or blue (a 2nd petal: 3 more needed): blue.
    let s = alone(&g, &[(RED, 0), (BLUE, 2), (BLUE, 0), (BLUE, 1)], [3, 0, 0, 0, 1]);
    let played = plays(&g, &s, "cautious");
    assert_eq!(played, [0, 0, 0, 0, 1]);
    assert!(at_least(1, 5, 10, 40) > at_least(2, 5, 10, 40));
}

#[test]
fn hypergeometric_tail_matches_the_formula() {
    // P(X >= 2), 5 draws from 20 cards of which 6 are of the kind.
    let c = |n: u64, k: u64| -> f64 { (0..k).fold(1.0, |a, i| a * (n - i) as f64 / (i + 1) as f64) };
    let exact = 1.0 - (c(14, 5) + 6.0 * c(14, 4)) / c(20, 5);
    assert!((at_least(2, 5, 6, 20) - exact).abs() < 1e-12);
    assert_eq!(at_least(3, 5, 2, 20), 0.0);
    assert!((at_least(2, 2, 2, 2) - 1.0).abs() < 1e-12);
    let _ = CautiousBot::new(0.5);
}

// ---------------------------------------------------------------------------------------
// random, hidden information, determinism

#[test]
fn random_draws_uniformly_over_legal_actions() {
    // Every rank unranks to a different legal play, and every legal play has a rank: a
    // uniform rank is a uniform pick over `legal_actions`.
    for max_play in 1..=MAX_HAND as u32 {
        let g = game_with(|p| {
            p.hand_size = 16;
            p.max_play = max_play;
            p.deck.base_sets = 4;
        });
        for n in 1..=MAX_HAND {
            let s = table(&g, &[of(RED, n.min(20))], [0; COLORS], None, 0);
            let view = g.view(&s, 0);
            let mut legal = Vec::new();
            g.legal_actions(&view, &mut legal);
            let mut seen: Vec<Action> = (0..legal.len() as u32).map(|r| g.unrank(n, r)).collect();
            seen.sort_unstable();
            legal.sort_unstable();
            assert_eq!(seen, legal, "max_play {max_play}, {n} cards");
        }
    }
    // And the sampler itself stays within them.
    let g = standard();
    let s = table(&g, &[of(RED, 5)], [0; COLORS], None, 0);
    let mut rng = GameRng::seed_from(4);
    let mut counts = std::collections::HashMap::new();
    for _ in 0..31_000 {
        let a = g.random_action(&g.view(&s, 0), &mut rng, &mut Vec::new());
        assert!(g.is_legal(&g.view(&s, 0), &a));
        *counts.entry(a).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 31);
    assert!(counts.values().all(|&c| (800..1200).contains(&c)), "{counts:?}");
}

#[test]
fn bots_decide_from_their_view_only() {
    // Changing the opponents' hidden cards (same sizes) changes no bot's decision.
    let g = standard();
    let a =
        table(&g, &[vec![card(RED, 0), card(ORANGE, 1), card(YELLOW, 2), card(BLUE, 0), card(BLUE, 1)], of(GREEN, 5), of(RED, 3)], [3, 1, 0, 2, 0], None, 0);
    let b = table(
        &g,
        &[vec![card(RED, 0), card(ORANGE, 1), card(YELLOW, 2), card(BLUE, 0), card(BLUE, 1)], of(ORANGE, 5), of(YELLOW, 3)],
        [3, 1, 0, 2, 0],
        None,
        0,
    );
    for name in ["greedy", "cautious"] {
        let mut x = bot(name);
        let mut y = bot(name);
        assert_eq!(decide(&g, &a, x.as_mut()), decide(&g, &b, y.as_mut()), "{name}");
    }
}

#[test]
fn same_seed_same_game() {
    let g = standard();
    for info in all_bots(&g).into_iter().filter(|b| b.name != crate::engine::ismcts::ISMCTS) {
        for seed in 0..20 {
            let first = checked(&g, &mut lineup(&g, &info), seed);
            assert_eq!(first, checked(&g, &mut lineup(&g, &info), seed), "{}", info.name);
        }
    }
}

/// `greedy` says it never draws from its stream (so a table of it gets no seat streams): its
/// decisions leave the stream untouched.
#[test]
fn greedy_never_draws() {
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<FlowerPower>>> = (0..g.players).map(|_| bot("greedy")).collect();
    crate::engine::check_never_draws(&g, &mut bots, 200).unwrap();
}

#[test]
fn uniform_tables_play_the_same_games_as_boxed_bots() {
    // The simulator's fast path (one bot kind, no dynamic dispatch, unchecked) against the
    // boxed bots in checked mode, for every bot with its defaults.
    let g = game_with(|p| p.players = 3);
    // (The engine's search bot, `ismcts`, has no uniform table: its cost is the search.)
    for info in all_bots(&g).into_iter().filter(|b| b.name != crate::engine::ismcts::ISMCTS) {
        let defaults = vec![info.params.iter().map(|p| p.default).collect::<Vec<f64>>(); 3];
        let mut fast = (info.uniform.expect("every bot has a uniform table"))(&g, &defaults);
        let mut boxed = lineup(&g, &info);
        for seed in (0..200).map(|i| game_seed(11, i)) {
            let quick = fast.play(&g, seed, PlayOptions::default(), None, None);
            assert_eq!(quick.ok(), Some(checked(&g, &mut boxed, seed)), "{}", info.name);
        }
    }
}

/// `cautious` asserting at every decision that [`CautiousBot::risks`] equals
/// [`CautiousBot::risks_by_definition`] bit for bit.
struct RisksChecked(CautiousBot);

impl Bot<FlowerPower> for RisksChecked {
    fn name(&self) -> &str {
        "cautious"
    }

    fn new_game(&mut self, game: &FlowerPower, seat: usize) {
        self.0.new_game(game, seat);
    }

    fn decide(&mut self, game: &FlowerPower, view: &View<'_>, rng: &mut GameRng) -> Action {
        let fast = self.0.risks(game, view).map(f64::to_bits);
        assert_eq!(fast, self.0.risks_by_definition(game, view).map(f64::to_bits), "garden {:?}, hand {}", view.garden(), view.hand);
        self.0.decide(game, view, rng)
    }

    fn listens(&self) -> bool {
        self.0.listens()
    }

    fn observe(&mut self, seat: usize, event: &Event) {
        self.0.observe(seat, event);
    }
}

// ---------------------------------------------------------------------------------------
// Many checked games

fn arb_params() -> impl Strategy<Value = Params> {
    (2u32..=8, 1u32..=8, 1u32..=8, 1u32..=4, 1u32..=12, 1u32..=200).prop_map(|(players, hand_size, max_play, base_sets, petals, turn_cap)| Params {
        players,
        hand_size,
        max_play,
        petals: petals.min(base_sets * 5),
        turn_cap,
        deck: DeckParams { base_sets, ..DeckParams::default() },
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `cautious`'s risks with remembered distributions are its risks by definition, bit
    /// for bit, at every decision of games at any parameters and lookahead (its choices,
    /// and so every simulated and searched number, stay the same).
    #[test]
    fn cautious_risks_match_the_definition(params in arb_params(), seed in any::<u64>(), look in 0usize..4) {
        let g = FlowerPower::new(params).expect("valid");
        let mut bots: Vec<Box<dyn Bot<FlowerPower>>> =
            (0..g.players).map(|i| Box::new(RisksChecked(CautiousBot::new([0.0, 0.2, 0.5, 1.0][(look + i) % 4]))) as Box<dyn Bot<FlowerPower>>).collect();
        play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None).map_err(|v| TestCaseError::fail(format!("{v:?}")))?;
    }

    /// Cards conserved, bookkeeping consistent, every choice legal after every step, and
    /// the game over within the deck's size in turns (or at the cap), for every bot.
    #[test]
    fn checked_games_of_every_bot(params in arb_params(), seed in any::<u64>()) {
        let g = FlowerPower::new(params).expect("valid");
        for info in all_bots(&g).into_iter().filter(|b| b.name != crate::engine::ismcts::ISMCTS) {
            let o = play(&g, &mut lineup(&g, &info), seed, PlayOptions { checked: true }, None, None)
                .map_err(|v| TestCaseError::fail(format!("{}: {v:?}", info.name)))?;
            prop_assert!(o.length as usize <= g.deck.len().min(g.params.turn_cap as usize));
            prop_assert!(o.winners != 0);
            if o.end_reason == END_CAP {
                prop_assert_eq!(o.length, g.params.turn_cap);
            }
        }
    }
}

#[test]
fn many_standard_games_for_every_bot_and_table_size() {
    for players in [2u32, 3, 4, 8] {
        let g = game_with(|p| p.players = players);
        for info in all_bots(&g).into_iter().filter(|b| b.name != crate::engine::ismcts::ISMCTS) {
            let mut bots = lineup(&g, &info);
            for i in 0..300 {
                let o = checked(&g, &mut bots, game_seed(3, i));
                assert_eq!(o.end_reason, END_ALL_PLAYED);
                assert!(o.length <= 50);
            }
        }
    }
}

proptest! {
    /// The greedy bot's fast path plays exactly [`greedy_play`] (the issue's definition).
    #[test]
    fn greedy_bot_is_greedy_play(
        hand in prop::collection::vec(0u8..25, 1..=16),
        garden in prop::array::uniform5(0u16..5),
        petals in 2u32..=6,
        max_play in 1u32..=16,
    ) {
        let g = game_with(|p| {
            p.hand_size = 16;
            p.max_play = max_play;
            p.petals = petals;
            p.deck.base_sets = 16;
        });
        let garden = garden.map(|k| k.min(petals as u16 - 1));
        let s = table(&g, std::slice::from_ref(&hand), garden, None, 0);
        let mask = decide(&g, &s, bot("greedy").as_mut());
        let want = greedy_play(s.hands[0].colors(), &garden, petals, max_play);
        prop_assert_eq!(colors_of(&s.hands[0], mask), want);
        prop_assert_eq!(mask, super::bots::pick(&s.hands[0], want));
    }
}

/// `greedy`'s single-card questions read from the rule, color by color: which colors
/// complete a flower, and the first card of the held color with the fewest petals (ties to
/// the most held, then canonical order; 0 when no color is held). The oracle
/// [`super::bots::single_card`] is tested against.
fn single_card_oracle(hand: &Hand, garden: &[u16; COLORS], petals: u32) -> (u32, u16) {
    let held = hand.colors();
    let completing = (0..COLORS).filter(|&c| garden[c] as u32 + held[c] as u32 >= petals).fold(0, |m, c| m | 1 << c);
    let best = (0..COLORS).filter(|&c| held[c] > 0).min_by_key(|&c| (garden[c], std::cmp::Reverse(held[c]), c));
    (completing, best.map_or(0, |c| hand.first_of(c)))
}

proptest! {
    /// `greedy`'s completion test and single-card position ([`super::bots::single_card`],
    /// the five colors at once on x86-64) are the rule's, over hands of every size with the
    /// stale slots plays leave, and every garden a variant allows.
    #[test]
    fn single_card_is_the_rule(
        cards in prop::collection::vec(0u8..25, 0..=16),
        played in any::<u16>(),
        garden in prop::array::uniform5(0u16..200),
        petals in 1u32..=200,
    ) {
        let mut hand = Hand::from_cards(&cards);
        hand.take_fast(if cards.len() == 16 { played } else { played & ((1 << cards.len()) - 1) });
        let garden = garden.map(|k| k.min(petals as u16 - 1));
        let lanes = rules::Garden::from(garden);
        prop_assert_eq!(super::bots::single_card(&hand, lanes.word(), petals), single_card_oracle(&hand, &garden, petals));
    }
}

proptest! {
    /// [`rules::Garden::set`] (one word write) changes exactly its color's byte, as the
    /// plain array write does, and leaves the bytes past the five colors at 0.
    #[test]
    fn garden_set_is_one_byte(petals in prop::array::uniform5(0u16..200), writes in prop::collection::vec((0usize..COLORS, 0u16..200), 0..8)) {
        let mut garden = rules::Garden::from(petals);
        let mut plain = petals;
        for &(c, k) in &writes {
            garden.set(c, k);
            plain[c] = k;
            prop_assert_eq!(garden, plain);
            prop_assert_eq!(garden.word() >> (8 * COLORS), 0);
        }
    }

    /// [`Hand::take_one`] leaves the hand [`Hand::take_fast`] leaves for the same card, and
    /// returns that card's color.
    #[test]
    fn take_one_is_take_fast(hand in prop::collection::vec(0u8..25, 1..=16), at in 0usize..16) {
        let h = Hand::from_cards(&hand);
        let mask = 1u16 << (at % hand.len());
        let (mut one, mut fast) = (h, h);
        let c = one.take_one(mask);
        let (taken, colors) = fast.take_fast(mask);
        prop_assert_eq!(colors, 1 << c);
        prop_assert_eq!(taken, 1 << (8 * c));
        prop_assert_eq!(c, color_of(hand[at % hand.len()]));
        prop_assert_eq!(one, fast);
    }

    /// [`Hand::draw`] leaves the hand and the pile that drawing one card at a time (pop, then
    /// push) leaves.
    #[test]
    fn draw_is_pop_and_push(hand in prop::collection::vec(0u8..25, 0..=16), pile in prop::collection::vec(0u8..25, 0..=20), n in 0usize..=16) {
        let h = Hand::from_cards(&hand);
        let n = n.min(pile.len()).min(MAX_HAND - hand.len());
        let (mut one, mut all) = (h, h);
        let (mut one_pile, mut all_pile) = (pile.clone(), pile);
        for _ in 0..n {
            one.push(one_pile.pop().expect("n is at most the pile"));
        }
        all.draw(&mut all_pile, n);
        prop_assert_eq!(one, all);
        prop_assert_eq!(one_pile, all_pile);
    }

    /// Cards pushed one by one (one 16-byte write each) are the hand, in order, whatever
    /// plays came before.
    #[test]
    fn pushed_cards_are_the_hand(hand in prop::collection::vec(0u8..25, 0..=16), mask in any::<u16>(), more in prop::collection::vec(0u8..25, 0..=16)) {
        let mut h = Hand::from_cards(&hand);
        prop_assert_eq!(h.cards(), &hand[..]);
        let mask = if hand.len() == 16 { mask } else { mask & ((1 << hand.len()) - 1) };
        h.take_fast(mask);
        let mut want: Vec<Card> = hand.iter().enumerate().filter(|(i, _)| mask & (1 << i) == 0).map(|(_, &c)| c).collect();
        for &c in more.iter().take(16 - want.len()) {
            h.push(c);
            want.push(c);
        }
        prop_assert_eq!(h.cards(), &want[..]);
    }
}

proptest! {
    /// [`Hand::take_fast`] (one 128-bit shift per card taken) leaves exactly the hand of the
    /// plain [`Hand::take`] and reports the same cards per color.
    #[test]
    fn take_fast_is_take(hand in prop::collection::vec(0u8..25, 0..=16), mask in any::<u16>()) {
        let h = Hand::from_cards(&hand);
        let mask = if hand.len() == 16 { mask } else { mask & ((1 << hand.len()) - 1) };
        let (mut plain, mut fast) = (h, h);
        let want = plain.take(mask);
        let (got, colors) = fast.take_fast(mask);
        prop_assert_eq!(got, u64::from_le_bytes([want[0], want[1], want[2], want[3], want[4], 0, 0, 0]));
        prop_assert_eq!(colors, (0..COLORS).filter(|&c| want[c] > 0).fold(0, |m, c| m | 1 << c));
        // Slots past the length are not part of the hand (the plain version leaves stale cards).
        prop_assert_eq!(fast.cards(), plain.cards());
        prop_assert_eq!(fast.colors(), plain.colors());
        for c in 0..COLORS {
            prop_assert_eq!(fast.positions_of(c), plain.positions_of(c));
            prop_assert_eq!(fast.positions_of(c), fast.positions_of_plain(c));
            prop_assert_eq!(plain.positions_of(c), plain.positions_of_plain(c));
        }
    }

    /// [`Hand::positions_of`] (SSE2 on x86-64, the stale slots past the length masked),
    /// [`Hand::first_of`] (the lowest slot of the color, stale slots unmasked) and
    /// [`Hand::first_of_color`] (the first n slots of the color) agree with the
    /// card-by-card reading, for hands left by a series of plays of either kind and draws.
    #[test]
    fn positions_are_read_from_the_cards(hand in prop::collection::vec(0u8..25, 0..=16), masks in prop::collection::vec(any::<u16>(), 0..4), refill in prop::collection::vec(0u8..25, 0..=16), fast in any::<bool>()) {
        let mut h = Hand::from_cards(&hand);
        for m in masks {
            let m = m & ((1u32 << h.len()) - 1) as u16;
            if fast { h.take_fast(m); } else { h.take(m); }
            for &c in refill.iter().take(MAX_HAND - h.len()) {
                h.push(c);
            }
            for c in 0..COLORS {
                let plain = h.positions_of_plain(c);
                prop_assert_eq!(h.positions_of(c), plain);
                prop_assert_eq!(h.first_of(c), plain & plain.wrapping_neg());
                for n in 0..=h.color(c) {
                    prop_assert_eq!(h.first_of_color(c, n), h.first_of_color_plain(c, n));
                }
            }
        }
    }
}

#[test]
fn invariants_catch_lost_cards_and_bad_bookkeeping() {
    let g = standard();
    let s = g.deal(&mut GameRng::seed_from(2), &mut EventLog::new(false));
    assert!(g.check_invariants(&s).is_ok());
    let mut lost = s.clone();
    lost.pile.pop();
    assert!(g.check_invariants(&lost).unwrap_err().contains("not conserved"));
    let mut scored = s.clone();
    scored.flowers[1] = 1;
    assert!(g.check_invariants(&scored).is_err(), "a flower nobody took");
    let mut full = s.clone();
    full.garden.set(0, 5);
    assert!(g.check_invariants(&full).is_err(), "a flower not taken at 5 petals");
    let mut over = s;
    over.over = true;
    assert!(g.check_invariants(&over).is_err(), "ended with cards left");
}

// ---------------------------------------------------------------------------------------
// Trace notation

#[test]
fn a_play_is_written_as_its_hand_positions_and_read_from_them_or_from_its_mask() {
    let play = Action(0b101);
    assert_eq!(serde_json::to_value(play).unwrap(), serde_json::json!([0, 2]));
    assert_eq!(serde_json::from_value::<Action>(serde_json::json!([0, 2])).unwrap(), play);
    // The bit mask itself, as traces wrote plays before.
    assert_eq!(serde_json::from_value::<Action>(serde_json::json!(5)).unwrap(), play);
    assert_eq!(serde_json::from_value::<Action>(serde_json::json!([15])).unwrap(), Action(1 << 15));
    for bad in [serde_json::json!([16]), serde_json::json!(65536), serde_json::json!(-1), serde_json::json!("0, 2")] {
        let e = serde_json::from_value::<Action>(bad.clone()).expect_err("not a play");
        assert!(e.to_string().contains("hand position"), "{bad}: {e}");
    }
}

// ---------------------------------------------------------------------------------------
// Determinization (search bots)

use crate::sim::harness::check_determinizations;

#[test]
fn determinizations_keep_what_the_seat_saw_and_redeal_the_rest() {
    for players in [2, 4, 6] {
        let g = game_with(|p| p.players = players);
        let (differed, drawn) = check_determinizations(&g, 11, 4, 3, 4);
        assert!(differed * 2 > drawn, "{players} players: only {differed} of {drawn} samples differ from the real deal");
    }
}

#[test]
fn a_determinization_keeps_the_own_hand_and_the_sizes() {
    let g = standard();
    let s = table(&g, &[of(RED, 5), of(BLUE, 5), of(GREEN, 5)], [2, 0, 0, 0, 0], None, 0);
    let mut out = s.clone();
    let mut rng = GameRng::seed_from(5);
    let mut moved = 0;
    for _ in 0..20 {
        g.determinize(&s, 0, &mut rng, &mut out);
        assert_eq!(out.hands[0], s.hands[0]);
        assert_eq!(out.pile.len(), s.pile.len());
        assert_eq!((out.hands[1].len(), out.hands[2].len(), out.hands[3].len()), (5, 5, 0));
        g.check_invariants(&out).expect("conserved");
        moved += usize::from(out.hands[1] != s.hands[1]);
    }
    assert!(moved > 15, "seat 1's hand was re-dealt only {moved} times of 20");
}

// ---------------------------------------------------------------------------------------
// The game's own loop (`play_out` in `rules.rs`) against the engine's plain loop

/// The bots a mixed table picks from.
const BOTS: [&str; 3] = ["greedy", "cautious", "random"];

/// `n` boxed bots named by `picks` (indices into [`BOTS`]), seat by seat.
fn boxed(picks: &[usize], n: usize) -> Vec<Box<dyn Bot<FlowerPower>>> {
    picks[..n].iter().map(|&i| bot(BOTS[i])).collect()
}

/// A `greedy` on every seat, as the bench line-up's uniform table (inlined).
fn greedies(n: usize) -> crate::engine::Uniform<GreedyBot> {
    crate::engine::Uniform::new((0..n).map(|_| GreedyBot).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The quick loop plays the same game as the engine's plain loop (the same final state,
    /// every draw of every stream), from the deal or from any later decision, for any valid
    /// parameters, mixed boxed tables of every bot and a uniform `greedy` table.
    #[test]
    fn play_out_is_the_plain_loop(params in arb_params(), picks in prop::collection::vec(0usize..3, 8), seed in any::<u64>(), lead in 0usize..80) {
        let g = FlowerPower::new(params).expect("valid");
        let n = g.players;
        let mixed = crate::engine::check_play_out(&g, &mut boxed(&picks, n), &mut boxed(&picks, n), seed, lead);
        prop_assert!(mixed.is_ok(), "mixed table: {:?}", mixed.err());
        let uniform = crate::engine::check_play_out(&g, &mut greedies(n), &mut greedies(n), seed, lead);
        prop_assert!(uniform.is_ok(), "greedies: {:?}", uniform.err());
    }
}

/// The same on the bench line-up's games (four players, two base sets, five cards a hand,
/// five a play, five petals, four `greedy`s) and the standard variant, from the deal, for
/// 2,000 seeds each.
#[test]
fn play_out_is_the_plain_loop_on_the_bench_tables() {
    let bench = game_with(|p| {
        p.players = 4;
        p.deck.base_sets = 2;
        p.max_play = 5;
        p.hand_size = 5;
        p.petals = 5;
    });
    for g in [bench, standard()] {
        for index in 0..2_000u64 {
            let seed = game_seed(7, index);
            let n = g.players;
            crate::engine::check_play_out(&g, &mut greedies(n), &mut greedies(n), seed, 0).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}
