//! Dice Factor tests: the rulebook's examples (the two dice examples, the wild cards,
//! add-a-card with a hand trade, trade-one-card), every turn option and d8 face, every action
//! card, skips and the direction, the lazy reshuffle, the win check's order, the cap, the
//! parameter checks, the collector's exact definition, and property tests (cards conserved,
//! every choice legal, every game ends) for every bot.

use crate::engine::HiddenInfo;
use proptest::prelude::*;

use super::*;
use crate::engine::{Bot, EventLog, Game, GameRng, PlayOptions, SeedFrom, ToMove, all_bots, game_seed, play};
use crate::games::chroma::{ALL_COLORS, ALL_SHAPES, COLOR_WILD, SHAPE_WILD};
use crate::variant::Variant;

// ---------------------------------------------------------------------------------------
// Helpers

const RED: u8 = 0;
const ORANGE: u8 = 1;
const YELLOW: u8 = 2;
const GREEN: u8 = 3;
const BLUE: u8 = 4;
const SQUARE: u8 = 0;
const CIRCLE: u8 = 1;
const STAR: u8 = 2;
const CROSS: u8 = 3;
const PENTAGON: u8 = 4;

const SKIP: Card = ActionCard::Skip as Card;
const REVERSE: Card = ActionCard::Reverse as Card;
const TRADE_ONE: Card = ActionCard::TradeOneCard as Card;
const TRADE_HANDS: Card = ActionCard::TradeHands as Card;
const ADD: Card = ActionCard::AddACard as Card;
const DICE: Card = ActionCard::Dice as Card;

use crate::games::chroma::ActionCard;

/// The base card of (color, shape).
fn base(color: u8, shape: u8) -> Card {
    color * 5 + shape
}

/// Cards by their names, comma separated (`"red star, blue wild, all-colors, skip"`).
fn cards(names: &str) -> Vec<Card> {
    names
        .split(',')
        .map(|n| {
            let n = n.trim();
            (0..crate::games::chroma::CARD_KINDS as Card).find(|&c| crate::games::chroma::card_name(c) == n).unwrap_or_else(|| panic!("no card named `{n}`"))
        })
        .collect()
}

/// [`table`] with hands given by card names (`""` for an empty hand).
fn table_named(g: &DiceFactor, hands: &[&str], dice: [u8; 2]) -> State {
    let hands: Vec<Vec<Card>> = hands.iter().map(|h| if h.is_empty() { Vec::new() } else { cards(h) }).collect();
    let slices: Vec<&[Card]> = hands.iter().map(|h| h.as_slice()).collect();
    table(g, &slices, dice)
}

/// The standard game with `n` copies of `card`.
fn standard_with(card: Card, n: u32) -> DiceFactor {
    let mut g = standard();
    let more = n - g.copies[card as usize];
    g.copies[card as usize] = n;
    g.deck.extend(std::iter::repeat_n(card, more as usize));
    g
}

fn game_with(f: impl FnOnce(&mut Params)) -> DiceFactor {
    let mut p = Params::default();
    f(&mut p);
    DiceFactor::new(p).expect("valid test parameters")
}

fn standard() -> DiceFactor {
    game_with(|_| {})
}

/// A table with the given hands and dice; every other card lies in the draw pile in
/// canonical order (the last card in canonical order on top); seat 0 starts turn 1.
fn table(g: &DiceFactor, hands: &[&[Card]], dice: [u8; 2]) -> State {
    let mut rng = GameRng::seed_from(0);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    let mut left = g.copies;
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    for (seat, h) in hands.iter().enumerate() {
        for &c in h.iter() {
            s.hands[seat].add(c);
            left[c as usize] -= 1;
        }
    }
    s.draw.clear();
    for (k, &n) in left.iter().enumerate() {
        s.draw.extend(std::iter::repeat_n(k as Card, n as usize));
    }
    s.discard.clear();
    s.dice = dice;
    // New hands: the first win check looks at every one.
    s.settled = false;
    g.check_invariants(&s).expect("test table is consistent");
    s
}

/// Takes one copy of `card` out of the draw pile.
fn from_draw(s: &mut State, card: Card) -> Card {
    let i = s.draw.iter().position(|&c| c == card).expect("card in the draw pile");
    s.draw.remove(i)
}

/// Moves one copy of `card` from the draw pile to the top of the draw pile.
fn to_top(s: &mut State, card: Card) {
    let c = from_draw(s, card);
    s.draw.push(c);
}

/// Moves one copy of `card` from the draw pile onto the discard pile.
fn to_discard(s: &mut State, card: Card) {
    let c = from_draw(s, card);
    s.discard.push(c);
}

fn legal(g: &DiceFactor, s: &State) -> Vec<Action> {
    let ToMove::Seat(seat) = g.to_move(s) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    g.legal_actions(&g.view(s, seat), &mut out);
    out
}

fn apply(g: &DiceFactor, s: &mut State, action: Action, rng: &mut GameRng) {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("game over") };
    let view = g.view(s, seat);
    assert!(g.is_legal(&view, &action), "{action:?} must be legal in {:?}", view.decision);
    let mut listed = Vec::new();
    g.legal_actions(&view, &mut listed);
    assert!(listed.contains(&action), "{action:?} must be listed in {listed:?}");
    g.apply(s, seat, action, rng, &mut EventLog::new(false));
    g.check_invariants(s).expect("invariants hold");
}

/// A seed whose first `below(n)` draw of a fresh `GameRng` is `k`.
fn seed_for(n: u32, k: u32) -> u64 {
    (0..10_000u64).find(|&sd| crate::engine::rng::below(n, &mut GameRng::seed_from(sd)) == k).expect("every value appears")
}

fn bot(name: &str) -> Box<dyn Bot<DiceFactor>> {
    let g = standard();
    let info = all_bots(&g).into_iter().find(|b| b.name == name).expect("bot exists");
    let v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    (info.build)(&g, &v)
}

fn collector_decides(g: &DiceFactor, s: &State) -> Action {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("over") };
    CollectorBot.decide(g, &g.view(s, seat), &mut GameRng::seed_from(0))
}

// ---------------------------------------------------------------------------------------
// The rulebook's examples

#[test]
fn rulebook_green_circle_and_pentagon_example() {
    // Dice "green" and "pentagon": 5 green cards of any shape, or 5 pentagons of any color.
    let allowed = allowed_targets([GREEN, PENTAGON]);
    let greens = Hand::from_cards(&cards("green square, green circle, green star, green cross, green circle"));
    assert!(greens.highest(allowed) >= 5);
    let pentagons = Hand::from_cards(&cards("red pentagon, orange pentagon, yellow pentagon, blue pentagon, red pentagon"));
    assert!(pentagons.highest(allowed) >= 5);
    let circles = Hand::from_cards(&cards("red circle, orange circle, yellow circle, blue circle, red circle"));
    assert_eq!(circles.highest(allowed), 0, "no green card, no pentagon");
    assert_eq!(circles.highest(allowed_targets([RED, CIRCLE])), 5);
}

#[test]
fn rulebook_yellow_and_logo_example() {
    // Dice "yellow" and the logo on the shapes die: 5 yellow cards, or 5 cards of one shape
    // (any shape, colors do not matter, but all the same shape).
    let allowed = allowed_targets([YELLOW, LOGO]);
    let yellows = Hand::from_cards(&cards("yellow square, yellow circle, yellow star, yellow cross, yellow pentagon"));
    assert_eq!(yellows.highest(allowed), 5);
    for shape in [SQUARE, CIRCLE, STAR, CROSS, PENTAGON] {
        let same_shape = Hand::from_cards(&[base(RED, shape), base(ORANGE, shape), base(GREEN, shape), base(BLUE, shape), base(RED, shape)]);
        assert_eq!(same_shape.highest(allowed), 5, "shape {shape}");
    }
    let mixed = Hand::from_cards(&cards("red square, orange circle, green star, blue cross, red pentagon"));
    assert_eq!(mixed.highest(allowed), 1);
    // The logo on the colors die: 5 cards of any one color.
    let reds = Hand::from_cards(&cards("red square, red circle, red star, red cross, red square"));
    assert_eq!(reds.highest(allowed_targets([LOGO, STAR])), 5);
    assert_eq!(reds.highest(allowed_targets([BLUE, STAR])), 1);
}

#[test]
fn rulebook_wild_cards() {
    // A red colors card is any red shape: it counts toward red and toward every shape.
    let red_wild = COLOR_WILD + RED;
    assert!(hand::counts_toward(red_wild as usize, RED as usize));
    assert!(!hand::counts_toward(red_wild as usize, BLUE as usize));
    for shape in 0..5 {
        assert!(hand::counts_toward(red_wild as usize, 5 + shape));
    }
    // A star shapes card is a star of any color: it counts toward star and every color.
    let star_wild = SHAPE_WILD + STAR;
    assert!(hand::counts_toward(star_wild as usize, 5 + STAR as usize));
    assert!(!hand::counts_toward(star_wild as usize, 5 + CROSS as usize));
    for color in 0..5 {
        assert!(hand::counts_toward(star_wild as usize, color));
    }
    // The all-colors and all-shapes cards are wilds among wilds; action cards count for nothing.
    for t in 0..TARGETS {
        assert!(hand::counts_toward(ALL_COLORS as usize, t));
        assert!(hand::counts_toward(ALL_SHAPES as usize, t));
        for a in [SKIP, REVERSE, TRADE_ONE, TRADE_HANDS, ADD, DICE] {
            assert!(!hand::counts_toward(a as usize, t));
        }
    }
    // Four wilds and one blue star make 5 blue (dice blue / circle).
    let h = Hand::from_cards(&cards("blue wild, square wild, all-colors, all-shapes, blue star"));
    assert_eq!(h.highest(allowed_targets([BLUE, CIRCLE])), 5);
    assert_eq!(h.score(5 + CIRCLE as usize), 3, "blue wild and the two all-wilds count toward circle");
}

#[test]
fn rulebook_add_a_card_then_a_hand_trade() {
    // Player A (seat 0) plays add-a-card: it goes in front of A, A draws 2 (7 cards), discards
    // 1, leaving 6. Player B (seat 1) then trades hands with A (trade_hands card): B gets the
    // 6-card hand with the add-a-card in front of it, A a 5-card hand.
    let g = standard();
    let a: &[Card] = &cards("red square, red circle, blue star, green cross, add-a-card");
    let b: &[Card] = &cards("orange square, orange circle, yellow star, yellow cross, trade-hands");
    let c: &[Card] = &cards("blue square, blue circle, green star, yellow pentagon, red pentagon");
    let d: &[Card] = &cards("green square, green circle, orange star, orange cross, blue pentagon");
    let mut s = table(&g, &[a, b, c, d], [RED, STAR]);
    let mut rng = GameRng::seed_from(1);
    apply(&g, &mut s, Action::Draw, &mut rng);
    assert_eq!(s.hands[0].len(), 6);
    apply(&g, &mut s, Action::Discard(ADD), &mut rng);
    assert_eq!(s.hands[0].len(), 7, "add-a-card: 2 more cards");
    assert_eq!(s.hands[0].extra, 1);
    assert!(s.discard.is_empty(), "the add-a-card lies in front of A, not on the discard pile");
    assert_eq!(s.phase, Phase::Discard);
    apply(&g, &mut s, Action::Discard(base(GREEN, CROSS)), &mut rng);
    assert_eq!(s.hands[0].len(), 6);
    // Seats 1 plays its turn: draws and discards the trade_hands card, trading with A.
    assert_eq!(s.current, 1);
    apply(&g, &mut s, Action::Draw, &mut rng);
    apply(&g, &mut s, Action::Discard(TRADE_HANDS), &mut rng);
    assert_eq!(s.phase, Phase::TradeHandsCard);
    apply(&g, &mut s, Action::TradeHands(0), &mut rng);
    assert_eq!((s.hands[1].len(), s.hands[1].extra), (6, 1), "B now holds the 6-card hand and the add-a-card");
    assert_eq!((s.hands[0].len(), s.hands[0].extra), (5, 0), "A now has a normal 5-card hand");
    // B keeps 6 cards through its later turns: draw one, discard one.
    assert_eq!(s.current, 2);
}

#[test]
fn a_second_add_a_card_raises_the_hand_to_seven() {
    let g = standard_with(ADD, 2);
    let mut s = table(&g, &[&cards("add-a-card, add-a-card, red square, red circle, red star")], [RED, STAR]);
    let mut rng = GameRng::seed_from(2);
    apply(&g, &mut s, Action::Draw, &mut rng);
    apply(&g, &mut s, Action::Discard(ADD), &mut rng);
    apply(&g, &mut s, Action::Discard(ADD), &mut rng);
    assert_eq!((s.hands[0].len(), s.hands[0].extra), (8, 2));
    let c = s.hands[0].nth(7);
    apply(&g, &mut s, Action::Discard(c), &mut rng);
    assert_eq!(s.hands[0].len(), 7);
}

#[test]
fn rulebook_trade_one_card_takes_a_random_card_other_than_the_one_given() {
    let g = standard();
    let a: &[Card] = &cards("red square, red circle, red star, green cross, trade-one-card");
    let b: &[Card] = &cards("blue square, blue circle, blue star, blue cross, blue pentagon");
    for k in 0..5 {
        let mut s = table(&g, &[a, b, &cards("yellow square"), &cards("yellow circle")], [RED, STAR]);
        let mut rng = GameRng::seed_from(3);
        apply(&g, &mut s, Action::Draw, &mut rng);
        apply(&g, &mut s, Action::Discard(TRADE_ONE), &mut rng);
        assert_eq!(s.phase, Phase::TradeOneCard);
        let mut rng = GameRng::seed_from(seed_for(5, k));
        apply(&g, &mut s, Action::Give { card: base(GREEN, CROSS), target: 1 }, &mut rng);
        let took = base(BLUE, k as u8);
        assert_eq!(s.hands[1].count(base(GREEN, CROSS)), 1, "B holds the card given");
        assert_eq!(s.hands[1].count(took), 0);
        assert_eq!(s.hands[0].count(took), 1, "A took B's card number {k} (never the card given)");
        assert_eq!(s.hands[1].len(), 5);
    }
}

// ---------------------------------------------------------------------------------------
// Turn options and the d8

#[test]
fn the_three_options_at_the_start_of_a_turn() {
    let g = standard();
    let mut s = table_named(&g, &["red square", "red circle"], [RED, STAR]);
    assert_eq!(legal(&g, &s), vec![Action::Draw, Action::RollD8], "no take from an empty discard pile");
    to_discard(&mut s, base(BLUE, STAR));
    assert_eq!(legal(&g, &s), vec![Action::Draw, Action::TakeDiscard, Action::RollD8]);
    let mut rng = GameRng::seed_from(1);
    apply(&g, &mut s, Action::TakeDiscard, &mut rng);
    assert_eq!(legal(&g, &s), vec![Action::Discard(base(RED, SQUARE)), Action::Discard(base(BLUE, STAR))], "the card just taken may be discarded");
    apply(&g, &mut s, Action::Discard(base(BLUE, STAR)), &mut rng);
    assert_eq!(s.discard, vec![base(BLUE, STAR)]);
    assert_eq!((s.current, s.turns, s.phase), (1, 2, Phase::Start));
    // Option 1 draws the top of the draw pile.
    to_top(&mut s, base(GREEN, CROSS));
    apply(&g, &mut s, Action::Draw, &mut rng);
    assert_eq!(s.hands[1].count(base(GREEN, CROSS)), 1);
}

#[test]
fn every_d8_face_and_declining() {
    let g = standard();
    let hands: [&[Card]; 4] = [
        &cards("red square, red circle, red star, blue star, green star"),
        &cards("orange square, orange circle, orange star, orange cross, yellow cross"),
        &cards("yellow square"),
        &cards("green square"),
    ];
    for face in 0..8u32 {
        let mut s = table(&g, &hands, [RED, STAR]);
        let mut rng = GameRng::seed_from(seed_for(8, face));
        apply(&g, &mut s, Action::RollD8, &mut rng);
        match face {
            0..5 => assert_eq!((s.current, s.phase), (1, Phase::Start), "faces 1-5: nothing, the turn ends"),
            5 => {
                assert_eq!(s.phase, Phase::D8Swap);
                let l = legal(&g, &s);
                assert_eq!(l.len(), 5 * 3 + 1, "5 cards x 3 players + decline");
                assert!(l.contains(&Action::Decline));
                apply(&g, &mut s, Action::Give { card: base(GREEN, STAR), target: 1 }, &mut rng);
                assert_eq!((s.hands[0].len(), s.hands[1].len()), (5, 5));
                assert_eq!(s.hands[1].count(base(GREEN, STAR)), 1);
            }
            6 => {
                assert_eq!(s.phase, Phase::D8Trade);
                assert_eq!(legal(&g, &s), vec![Action::TradeHands(1), Action::TradeHands(2), Action::TradeHands(3), Action::Decline]);
                apply(&g, &mut s, Action::TradeHands(1), &mut rng);
                assert_eq!(s.hands[0], Hand::from_cards(hands[1]));
                assert_eq!(s.hands[1], Hand::from_cards(hands[0]));
            }
            _ => {
                assert_eq!(s.phase, Phase::D8Reroll);
                assert_eq!(legal(&g, &s), vec![Action::Reroll(Die::Colors), Action::Reroll(Die::Shapes), Action::Decline]);
                let mut s2 = s.clone();
                let mut rng2 = GameRng::seed_from(seed_for(6, 4));
                apply(&g, &mut s2, Action::Reroll(Die::Shapes), &mut rng2);
                assert_eq!(s2.dice, [RED, PENTAGON]);
                assert_eq!(s2.tally.rerolls, 1);
                apply(&g, &mut s, Action::Decline, &mut rng);
                assert_eq!(s.dice, [RED, STAR]);
            }
        }
        assert_eq!(s.current, 1, "face {face}: the roll was the whole turn");
        assert_eq!(s.tally.d8_rolls.iter().sum::<u32>(), 1);
    }
}

#[test]
fn a_d8_swap_needs_cards_on_both_sides() {
    let g = standard();
    // Only seat 0 holds cards: the swap cannot be done and the turn ends.
    let mut s = table_named(&g, &["red square", "", "", ""], [RED, STAR]);
    let mut rng = GameRng::seed_from(seed_for(8, 5));
    apply(&g, &mut s, Action::RollD8, &mut rng);
    assert_eq!((s.current, s.phase), (1, Phase::Start));
    assert_eq!(s.tally.d8_rolls[D8Face::Swap.index()], 1);
}

#[test]
fn the_d8_table_is_a_key() {
    let g = game_with(|p| p.d8 = vec![D8Face::Trade]);
    let mut s = table_named(&g, &["red square", "red circle"], [RED, STAR]);
    apply(&g, &mut s, Action::RollD8, &mut GameRng::seed_from(5));
    assert_eq!(s.phase, Phase::D8Trade, "a one-face die of trades always trades");
}

// ---------------------------------------------------------------------------------------
// Action cards

fn play_action(g: &DiceFactor, s: &mut State, card: Card, rng: &mut GameRng) {
    apply(g, s, Action::Draw, rng);
    apply(g, s, Action::Discard(card), rng);
}

#[test]
fn skips_add_up_and_follow_the_direction() {
    let g = standard_with(SKIP, 2);
    let mut s = table_named(&g, &["skip, skip, red square", "red circle", "red star", "red cross"], [BLUE, CROSS]);
    let mut rng = GameRng::seed_from(4);
    play_action(&g, &mut s, SKIP, &mut rng);
    assert_eq!((s.current, s.turns), (2, 2), "seat 1 lost its turn; a skipped turn is not a turn");
    assert_eq!(s.tally.skipped, 1);
    // Seat 2, 3 draw and discard; then seat 0 skips seat 1 again.
    for _ in 0..2 {
        let c = s.hands[s.current as usize].nth(0);
        apply(&g, &mut s, Action::Draw, &mut rng);
        let _ = c;
        let c = s.hands[s.current as usize].nth(0);
        apply(&g, &mut s, Action::Discard(c), &mut rng);
    }
    assert_eq!(s.current, 0);
    s.skips[1] = 1; // one more pending skip: two skips now cost seat 1 two turns
    play_action(&g, &mut s, SKIP, &mut rng);
    assert_eq!(s.current, 2);
    assert_eq!(s.skips[1], 1, "the second skip waits for seat 1's next turn");
}

#[test]
fn reverse_flips_the_direction_and_the_next_skip_target() {
    let g = standard();
    let mut s = table_named(&g, &["reverse, red square", "red circle", "red star", "skip, red cross"], [BLUE, CROSS]);
    let mut rng = GameRng::seed_from(4);
    play_action(&g, &mut s, REVERSE, &mut rng);
    assert!(s.reversed);
    assert_eq!(s.current, 3, "after a reverse, seat 0 is followed by seat 3");
    play_action(&g, &mut s, SKIP, &mut rng);
    assert_eq!(s.current, 1, "seat 3 skips seat 2 (next in the current direction)");
}

#[test]
fn a_dice_card_rerolls_or_is_declined() {
    let g = standard();
    let mut s = table_named(&g, &["dice, red square", "red circle"], [BLUE, CROSS]);
    let mut rng = GameRng::seed_from(4);
    play_action(&g, &mut s, DICE, &mut rng);
    assert_eq!(s.phase, Phase::DiceCard);
    assert_eq!(s.discard, vec![DICE]);
    let mut rng = GameRng::seed_from(seed_for(6, LOGO as u32));
    apply(&g, &mut s, Action::Reroll(Die::Colors), &mut rng);
    assert_eq!(s.dice, [LOGO, CROSS]);
}

#[test]
fn an_action_card_taken_from_the_discard_pile_and_discarded_again_has_no_effect() {
    let g = standard();
    let mut s = table_named(&g, &["red square", "red circle", "red star", "red cross"], [BLUE, CROSS]);
    to_discard(&mut s, SKIP);
    let mut rng = GameRng::seed_from(4);
    apply(&g, &mut s, Action::TakeDiscard, &mut rng);
    assert_eq!(s.taken, Some(SKIP));
    apply(&g, &mut s, Action::Discard(SKIP), &mut rng);
    assert_eq!(s.current, 1, "no skip: seat 1 plays");
    assert_eq!(s.skips, [0; MAX_PLAYERS]);
    assert_eq!(s.discard, vec![SKIP]);
    // The same card discarded in a later turn resolves.
    let mut s = table_named(&g, &["skip, red square", "red circle", "red star", "red cross"], [BLUE, CROSS]);
    play_action(&g, &mut s, SKIP, &mut rng);
    assert_eq!(s.current, 2);
}

#[test]
fn with_an_older_copy_the_player_chooses_which_copy_to_discard() {
    let g = standard_with(SKIP, 2);
    let mut s = table_named(&g, &["skip, red square", "red circle", "red star", "red cross"], [BLUE, CROSS]);
    to_discard(&mut s, SKIP);
    let mut rng = GameRng::seed_from(4);
    apply(&g, &mut s, Action::TakeDiscard, &mut rng);
    assert!(legal(&g, &s).contains(&Action::DiscardTaken));
    let mut quiet = s.clone();
    apply(&g, &mut quiet, Action::DiscardTaken, &mut rng);
    assert_eq!(quiet.current, 1, "the copy just taken: no effect");
    apply(&g, &mut s, Action::Discard(SKIP), &mut rng);
    assert_eq!(s.current, 2, "the older copy: seat 1 is skipped");
}

#[test]
fn trade_hands_card_is_resolved_and_moves_the_add_a_card() {
    let g = standard();
    let mut s = table_named(&g, &["trade-hands, red square", "red circle, red star"], [BLUE, CROSS]);
    s.hands[1].extra = 1;
    // Keep conservation: the add-a-card in front of seat 1 comes from the draw pile.
    from_draw(&mut s, ADD);
    let mut rng = GameRng::seed_from(4);
    play_action(&g, &mut s, TRADE_HANDS, &mut rng);
    assert_eq!(legal(&g, &s), vec![Action::TradeHands(1), Action::TradeHands(2), Action::TradeHands(3)], "no decline: the card must be resolved");
    apply(&g, &mut s, Action::TradeHands(1), &mut rng);
    assert_eq!(s.hands[0].extra, 1);
    assert_eq!(s.hands[1].extra, 0);
    assert_eq!(s.hands[0].count(base(RED, STAR)), 1);
}

// ---------------------------------------------------------------------------------------
// Piles, the win check, the cap

#[test]
fn the_discard_pile_is_reshuffled_lazily_and_empty_piles_give_nothing() {
    for reshuffle in [true, false] {
        let g = game_with(|p| p.reshuffle_discard = reshuffle);
        let mut s = table_named(&g, &["red square", "red circle"], [BLUE, CROSS]);
        let rest: Vec<Card> = s.draw.drain(..).collect();
        // Park everything but 3 cards in seat 2's hand; 3 cards on the discard pile.
        s.discard.extend_from_slice(&rest[..3]);
        for &c in &rest[3..] {
            s.hands[2].add(c);
        }
        let mut rng = GameRng::seed_from(3);
        apply(&g, &mut s, Action::Draw, &mut rng);
        if reshuffle {
            assert_eq!(s.hands[0].len(), 2);
            assert!(s.discard.is_empty(), "the whole discard pile became the draw pile");
            assert_eq!(s.draw.len(), 2);
            assert_eq!(s.tally.reshuffles, 1);
        } else {
            assert_eq!(s.hands[0].len(), 1, "nothing drawn");
            assert_eq!(s.discard.len(), 3);
        }
        assert_eq!(s.phase, Phase::Discard, "the player still discards");
    }
    // Both piles empty: nothing drawn, the discard still happens.
    let g = standard();
    let mut s = table_named(&g, &["red square", "red circle"], [BLUE, CROSS]);
    let rest: Vec<Card> = s.draw.drain(..).collect();
    for &c in &rest {
        s.hands[2].add(c);
    }
    let mut rng = GameRng::seed_from(3);
    apply(&g, &mut s, Action::Draw, &mut rng);
    assert_eq!(s.hands[0].len(), 1);
    apply(&g, &mut s, Action::Discard(base(RED, SQUARE)), &mut rng);
    assert!(s.hands[0].is_empty());
    assert_eq!(s.discard, vec![base(RED, SQUARE)], "the player still discarded");
}

#[test]
fn the_win_check_runs_after_the_turn_active_player_first_then_turn_order() {
    let g = standard();
    let five_red: &[Card] = &cards("red square, red circle, red star, red cross, red pentagon");
    let five_green: &[Card] = &cards("green square, green circle, green star, green cross, green pentagon");
    let four_blue: &[Card] = &cards("blue square, blue circle, blue star, blue cross, yellow square");
    // Seats 1 and 3 hold winning hands (colors die logo); seat 0 plays: seat 1 is first in
    // turn order after the active seat 0 and wins on seat 0's turn.
    let mut s = table(&g, &[four_blue, five_red, &cards("yellow circle"), five_green], [LOGO, CROSS]);
    assert_eq!(s.winner, None, "no check before the first turn");
    let mut rng = GameRng::seed_from(1);
    to_top(&mut s, base(ORANGE, STAR));
    apply(&g, &mut s, Action::Draw, &mut rng);
    apply(&g, &mut s, Action::Discard(base(ORANGE, STAR)), &mut rng);
    assert_eq!(s.phase, Phase::Over);
    assert_eq!((s.winner, s.won_in_turn_of, s.win_target), (Some(1), 0, RED));
    let o = g.outcome(&s);
    assert_eq!((o.winners, o.length, o.end_reason), (0b10, 1, END_FIVE));
    // After a reverse, seat 3 comes before seat 1.
    let mut s = table(&g, &[four_blue, five_red, &cards("yellow circle"), five_green], [LOGO, CROSS]);
    s.reversed = true;
    apply(&g, &mut s, Action::Draw, &mut rng);
    let c = s.hands[0].nth(4);
    apply(&g, &mut s, Action::Discard(c), &mut rng);
    assert_eq!(s.winner, Some(3));
    // The active player is checked first: seat 0 completes blue and wins before seat 1.
    let mut s = table(&g, &[four_blue, five_red, &cards("yellow circle"), five_green], [LOGO, CROSS]);
    to_top(&mut s, base(BLUE, PENTAGON));
    apply(&g, &mut s, Action::Draw, &mut rng);
    apply(&g, &mut s, Action::Discard(base(YELLOW, SQUARE)), &mut rng);
    assert_eq!((s.winner, s.won_in_turn_of), (Some(0), 0));
}

#[test]
fn a_hand_dealt_winning_wins_at_the_check_after_turn_one() {
    // Without action cards, so that turn 1 cannot trade the winning hand away.
    let g = game_with(|p| p.deck.action_sets = 0);
    let mut found = 0;
    for index in 0..20_000u64 {
        let seed = game_seed(11, index);
        let mut rng = GameRng::seed_from(seed);
        let s = g.deal(&mut rng, &mut EventLog::new(false));
        if !s.dealt_winning {
            continue;
        }
        found += 1;
        assert_eq!(g.to_move(&s), ToMove::Seat(0), "the game starts even with a winning hand");
        let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = (0..4).map(|_| bot("collector")).collect();
        let o = play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None).expect("legal");
        assert_eq!(o.length, 1, "won at the check after turn 1");
        if found > 20 {
            break;
        }
    }
    assert!(found > 5, "about 1% of deals are winning");
}

#[test]
fn the_cap_ends_the_game_with_no_winner_after_the_last_check() {
    let g = game_with(|p| p.turn_cap = 3);
    let mut s = table_named(&g, &["red square", "red circle", "red star", "red cross"], [BLUE, CROSS]);
    let mut rng = GameRng::seed_from(1);
    for _ in 0..3 {
        apply(&g, &mut s, Action::RollD8, &mut GameRng::seed_from(seed_for(8, 0)));
    }
    assert_eq!(s.phase, Phase::Over);
    let o = g.outcome(&s);
    assert_eq!((o.end_reason, o.winners, o.length), (END_CAP, 0, 3));
    // A win at the check after the last turn still counts.
    let four_blue: &[Card] = &cards("blue square, blue circle, blue star, blue pentagon, red square");
    let mut s = table(&g, &[&cards("red circle"), &cards("red star"), four_blue], [BLUE, CROSS]);
    apply(&g, &mut s, Action::RollD8, &mut GameRng::seed_from(seed_for(8, 0)));
    apply(&g, &mut s, Action::RollD8, &mut GameRng::seed_from(seed_for(8, 0)));
    to_top(&mut s, base(BLUE, CROSS));
    apply(&g, &mut s, Action::Draw, &mut rng);
    apply(&g, &mut s, Action::Discard(base(RED, SQUARE)), &mut rng);
    let o = g.outcome(&s);
    assert_eq!((o.end_reason, o.winners, o.length), (END_FIVE, 0b100, 3));
}

// ---------------------------------------------------------------------------------------
// The collector

#[test]
fn collector_discards_the_first_card_off_its_best_target() {
    let allowed = allowed_targets([RED, STAR]);
    // Red 2 (red square, red circle), star 2 (blue star, green star): tie, colors first, so
    // the best target is red; the first card in canonical order not counting toward red is
    // the yellow cross (yellow comes before green and blue).
    let h = Hand::from_cards(&cards("red square, red circle, green star, blue star, yellow cross"));
    assert_eq!(h.best_target(allowed), RED as usize);
    assert_eq!(collector_discard(&h, allowed), base(YELLOW, CROSS));
    let h = Hand::from_cards(&cards("red square, green star, blue star, orange star, yellow cross"));
    assert_eq!(h.best_target(allowed), 5 + STAR as usize);
    assert_eq!(collector_discard(&h, allowed), base(RED, SQUARE));
    // Every card counts: the last card in canonical order.
    let h = Hand::from_cards(&cards("red square, red cross, red wild, all-shapes, circle wild"));
    assert_eq!(collector_discard(&h, allowed), ALL_SHAPES);
    // Action cards go first, in canonical order.
    let h = Hand::from_cards(&cards("red square, dice, trade-hands, blue cross"));
    assert_eq!(collector_discard(&h, allowed), TRADE_HANDS);
    // Logo: any color; ties to the first color in canonical order.
    let h = Hand::from_cards(&cards("blue square, blue circle, green cross, green square, orange cross"));
    let logo = allowed_targets([LOGO, STAR]);
    assert_eq!(h.best_target(logo), GREEN as usize);
    assert_eq!(collector_discard(&h, logo), base(ORANGE, CROSS));
}

#[test]
fn collector_takes_the_discard_top_only_when_it_raises_the_highest_score() {
    let g = standard();
    let hand: &[Card] = &cards("red square, red circle, green star, yellow cross, blue cross");
    let mut s = table(&g, &[hand, &cards("orange square")], [RED, STAR]);
    assert_eq!(collector_decides(&g, &s), Action::Draw, "empty discard pile");
    to_discard(&mut s, base(RED, PENTAGON));
    assert_eq!(collector_decides(&g, &s), Action::TakeDiscard, "red 2 -> 3");
    // A star raises star from 1 to 2, but the highest score stays 2: draw.
    let mut s = table(&g, &[hand, &cards("orange square")], [RED, STAR]);
    to_discard(&mut s, base(BLUE, STAR));
    assert_eq!(collector_decides(&g, &s), Action::Draw);
    // The highest over every allowed target, not only its best one: with the logo on the
    // shapes die, a cross raises cross from 2 to 3 above red's 2.
    let mut s = table(&g, &[hand, &cards("orange square")], [RED, LOGO]);
    to_discard(&mut s, base(ORANGE, CROSS));
    assert_eq!(collector_decides(&g, &s), Action::TakeDiscard);
    // Never an action card.
    let mut s = table(&g, &[hand, &cards("orange square")], [RED, STAR]);
    to_discard(&mut s, SKIP);
    assert_eq!(collector_decides(&g, &s), Action::Draw);
}

#[test]
fn collector_never_rolls_and_resolves_action_cards_as_documented() {
    let g = standard();
    let mut s = table_named(&g, &["trade-hands, red square", "red circle", "red star, red cross", "blue star, blue cross"], [RED, STAR]);
    let mut rng = GameRng::seed_from(1);
    assert_eq!(collector_decides(&g, &s), Action::Draw);
    apply(&g, &mut s, Action::Draw, &mut rng);
    assert_eq!(collector_decides(&g, &s), Action::Discard(TRADE_HANDS));
    apply(&g, &mut s, Action::Discard(TRADE_HANDS), &mut rng);
    assert_eq!(collector_decides(&g, &s), Action::TradeHands(2), "most cards, ties to the first in turn order");
    // The dice card: reroll the die that raises the expected highest score most.
    let s = State { phase: Phase::DiceCard, ..table_named(&g, &["red square, red circle, red star"], [BLUE, CROSS]) };
    assert_eq!(collector_decides(&g, &s), Action::Reroll(Die::Colors));
    let s = State { phase: Phase::DiceCard, ..table_named(&g, &["red square, red circle, red star"], [RED, CROSS]) };
    assert_eq!(collector_decides(&g, &s), Action::Decline, "already on its best target");
}

// ---------------------------------------------------------------------------------------
// Parameters and variants

fn problems(f: impl FnOnce(&mut Params)) -> Vec<crate::variant::Invalid> {
    let mut p = Params::default();
    f(&mut p);
    p.check().err().unwrap_or_default()
}

#[test]
fn defaults_are_rules_md_and_the_standard_variant_matches() {
    assert!(Params::default().check().is_ok());
    assert_eq!(standard().deck.len(), 93);
    let v = Variant::load(std::path::Path::new("variants/dice-factor/standard.toml"), &[]).expect("standard loads");
    let p: Params = v.game_params().expect("standard parses");
    assert_eq!(p, Params::default());
}

#[test]
fn bundled_variants_load() {
    for entry in std::fs::read_dir("variants/dice-factor").expect("folder") {
        let path = entry.expect("entry").path();
        let v = Variant::load(&path, &[]).expect("variant loads");
        let p: Params = v.game_params().expect("variant parses");
        assert!(DiceFactor::new(p).is_ok(), "{}", path.display());
    }
    let v = Variant::load(std::path::Path::new("variants/dice-factor/standard.toml"), &["deck.action_sets=0".into()]).expect("loads");
    let g = DiceFactor::new(v.game_params().expect("parses")).expect("valid");
    assert_eq!(g.deck.len(), 87);
}

#[test]
fn bad_keys_are_rejected_with_their_names() {
    assert_eq!(problems(|p| p.players = 9)[0].key, "players");
    assert_eq!(problems(|p| p.players = 1)[0].key, "players");
    assert_eq!(problems(|p| p.hand_size = 0)[0].key, "hand_size");
    assert_eq!(problems(|p| p.hand_size = 11)[0].key, "hand_size");
    assert_eq!(problems(|p| p.goal = 21)[0].key, "goal");
    assert_eq!(problems(|p| p.goal = 0)[0].key, "goal");
    assert!(problems(|p| p.hand_size = 4).is_empty(), "a goal above the hand size is allowed");
    assert_eq!(problems(|p| p.turn_cap = 0)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.turn_cap = 1_000_000)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.d8.clear())[0].key, "d8");
    assert_eq!(problems(|p| p.d8 = vec![D8Face::Nothing; 21])[0].key, "d8");
    assert_eq!(problems(|p| p.deck.base_sets = 11)[0].key, "deck.base_sets");
    assert_eq!(problems(|p| p.deck.counts.skip = Some(50))[0].key, "deck.counts.skip");
    let bad = problems(|p| p.deck.counts.remove_a_card = Some(1));
    assert_eq!(bad[0].key, "deck.counts.remove_a_card");
    assert!(bad[0].message.contains("not a Dice Factor card"), "{}", bad[0].message);
    let bad = problems(|p| {
        p.deck.base_sets = 0;
        p.deck.colors_sets = 0;
        p.deck.shapes_sets = 0;
        p.players = 8;
        p.hand_size = 10;
    });
    assert_eq!(bad[0].key, "deck");
    let path = std::path::Path::new("test.toml");
    let v = Variant::from_toml_str(path, "game = \"dice-factor\"\nd8 = [\"nothing\", \"explode\"]\n").expect("parses");
    let e = v.game_params::<Params>().expect_err("unknown face").to_string();
    assert!(e.contains("d8") && e.contains("explode"), "{e}");
    let v = Variant::from_toml_str(path, "game = \"dice-factor\"\nhandsize = 5\n").expect("parses");
    let e = v.game_params::<Params>().expect_err("unknown key").to_string();
    assert!(e.contains("handsize") && e.contains("hand_size"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Whole games

const BOTS: [&str; 3] = ["random", "collector", "gambler"];

// Every bot's `uniform` table against the boxed bots: `games::tests` over the registry.

#[test]
fn every_bot_plays_legal_games_that_end_in_every_variant_shape() {
    let games = [
        standard(),
        game_with(|p| p.deck.action_sets = 3),
        game_with(|p| {
            p.deck.colors_sets = 0;
            p.deck.shapes_sets = 0;
            p.turn_cap = 300;
        }),
        game_with(|p| {
            p.players = 8;
            p.reshuffle_discard = false;
            p.turn_cap = 200;
        }),
        game_with(|p| {
            p.players = 2;
            p.deck.counts.add_a_card = Some(4);
            p.deck.counts.trade_hands = Some(3);
        }),
    ];
    for g in &games {
        for name in BOTS {
            let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = (0..g.players).map(|_| bot(name)).collect();
            for index in 0..150 {
                let o = play(g, &mut bots, game_seed(3, index), PlayOptions { checked: true }, None, None).unwrap_or_else(|v| panic!("{name}: {v:?}"));
                assert!(o.length <= g.params.turn_cap);
            }
        }
    }
}

#[test]
fn same_seed_same_game() {
    let g = standard();
    let mut a: Vec<Box<dyn Bot<DiceFactor>>> = (0..4).map(|_| bot("gambler")).collect();
    let mut b: Vec<Box<dyn Bot<DiceFactor>>> = (0..4).map(|_| bot("gambler")).collect();
    for index in 0..50 {
        let seed = game_seed(5, index);
        assert_eq!(play(&g, &mut a, seed, PlayOptions::default(), None, None), play(&g, &mut b, seed, PlayOptions::default(), None, None));
    }
}

#[test]
fn metrics_merge_like_one_run_and_save_their_state() {
    use crate::engine::Metrics;
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = vec![bot("gambler"), bot("collector"), bot("random"), bot("collector")];
    let mut whole = DiceMetrics::default();
    let mut parts = [DiceMetrics::default(), DiceMetrics::default()];
    for index in 0..200u64 {
        let seed = game_seed(9, index);
        play(&g, &mut bots, seed, PlayOptions::default(), Some(&mut whole), None).expect("legal");
        play(&g, &mut bots, seed, PlayOptions::default(), Some(&mut parts[(index % 2) as usize]), None).expect("legal");
    }
    let [mut a, b] = parts;
    let saved = a.save_state().expect("saved");
    a = DiceMetrics::load_state(&saved).expect("loads");
    a.merge(b);
    assert_eq!(a.summary(200), whole.summary(200));
    assert!(!whole.charts(200).is_empty());
}

fn arb_params() -> impl Strategy<Value = Params> {
    (2u32..=8, 1u32..=7, 0u32..=4, 0u32..=2, 0u32..=2, 0u32..=3, 1u32..=200, any::<bool>(), 1usize..=9).prop_map(
        |(players, hand_size, base_sets, colors, shapes, actions, turn_cap, reshuffle, faces)| {
            let mut p = Params { players, hand_size, goal: hand_size.min(5), turn_cap, reshuffle_discard: reshuffle, ..Params::default() };
            p.deck.base_sets = base_sets;
            p.deck.colors_sets = colors;
            p.deck.shapes_sets = shapes;
            p.deck.action_sets = actions;
            p.d8 = (0..faces).map(|i| [D8Face::Nothing, D8Face::Swap, D8Face::Trade, D8Face::Reroll][i % 4]).collect();
            if p.check().is_err() {
                p.deck.base_sets = 4;
            }
            p
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Cards conserved, bookkeeping consistent, every choice legal, every game ends, for any
    /// mix of bots and any valid parameters.
    #[test]
    fn no_illegal_choice_and_cards_conserved(params in arb_params(), picks in prop::collection::vec(0usize..3, 8), seed in any::<u64>()) {
        let g = DiceFactor::new(params).expect("valid");
        let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = picks[..g.players].iter().map(|&i| bot(BOTS[i])).collect();
        let o = play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None);
        prop_assert!(o.is_ok(), "{:?}", o.err());
        let o = o.expect("ok");
        prop_assert!(o.length <= g.params.turn_cap);
        prop_assert!(o.winners.count_ones() <= 1);
    }
}

// ---------------------------------------------------------------------------------------
// Determinization (search bots)

use crate::sim::harness::check_determinizations;

#[test]
fn determinizations_keep_what_the_seat_saw_and_redeal_the_rest() {
    for players in [2, 4, 6] {
        let g = game_with(|p| p.players = players);
        let (differed, drawn) = check_determinizations(&g, 14, 4, 5, 4);
        assert!(differed * 2 > drawn, "{players} players: only {differed} of {drawn} samples differ from the real deal");
    }
}

#[test]
fn determinizations_keep_cards_taken_from_the_discard_pile() {
    use crate::sim::harness::{check_samples_keep, random_bots};
    let g = standard();
    let known_kept = check_samples_keep(
        &g,
        23,
        6,
        4,
        || random_bots(&g),
        |s, out, seat| {
            assert_eq!((&out.discard, out.dice), (&s.discard, s.dice), "public cards stay");
            let mut kept = 0;
            for o in (0..g.players).filter(|&o| o != seat) {
                assert_eq!(out.hands[o].extra, s.hands[o].extra, "add_a_card cards lie in front of the hand");
                for k in 0..CARD_KINDS {
                    assert!(out.hands[o].count(k as Card) >= s.known[o][k] as u32, "seat {o} took a {k} from the discard pile");
                    kept += s.known[o][k] as u32;
                }
            }
            kept
        },
    );
    assert!(known_kept > 50, "few cards taken from the discard pile ({known_kept}): the test checks little");
}

/// The highest score of `h` over the targets in `allowed`, target by target: the oracle the
/// hand's reads by the dice's shape are tested against.
fn highest_oracle(h: &Hand, allowed: u16) -> u32 {
    (0..10).filter(|t| allowed >> t & 1 != 0).map(|t| h.score(t)).max().unwrap_or(0)
}

/// The best target of `h` in `allowed` (not empty), target by target: the highest score,
/// ties to the lowest index.
fn best_oracle(h: &Hand, allowed: u16) -> usize {
    let best = highest_oracle(h, allowed);
    (0..10).find(|&t| allowed >> t & 1 != 0 && h.score(t) == best).expect("a target is allowed")
}

proptest! {
    /// The loop-free [`Hand::reaches`] agrees with the plain `highest(allowed) >= goal`, for
    /// any hand (up to 63 cards toward one target), targets and goal.
    #[test]
    fn fast_hand_checks_are_the_plain_ones(
        cards in prop::collection::vec(0u8..CARD_KINDS as u8, 0..=63),
        allowed in 0u16..1024,
        goal in 1u32..=64,
    ) {
        let h = Hand::from_cards(&cards);
        prop_assert_eq!(h.reaches(allowed, goal), highest_oracle(&h, allowed) >= goal);
    }

    /// The reads by the dice's shape (two targets, one logo, two logos) are the plain loops
    /// over the targets, for every pair of dice, on hands of up to 63 cards.
    #[test]
    fn two_target_shortcuts_are_the_plain_loops(
        cards in prop::collection::vec(0u8..CARD_KINDS as u8, 0..=63),
        dice in prop::array::uniform2(0u8..6),
        card in 0u8..CARD_KINDS as u8,
    ) {
        let h = Hand::from_cards(&cards);
        let allowed = allowed_targets(dice);
        let mut with = h;
        with.add(card);
        prop_assert_eq!(h.highest(allowed), highest_oracle(&h, allowed));
        prop_assert_eq!(h.raised_by(card, allowed), highest_oracle(&with, allowed) > highest_oracle(&h, allowed));
        prop_assert_eq!(h.best_target(allowed), best_oracle(&h, allowed));
        let mut each = Vec::new();
        Hand::highest_each(&[h, with], allowed, |i, highest| each.push((i, highest)));
        prop_assert_eq!(each, vec![(0, highest_oracle(&h, allowed)), (1, highest_oracle(&with, allowed))]);
    }
}

/// A `collector` table's last discards never rule out a real hand (the belief holds for
/// the model it assumes), and the search's samples (`model=default`: determinized, then
/// [`crate::engine::HiddenInfo::honour_default_model`]) honour them almost always.
#[test]
fn last_discards_hold_for_collectors_and_samples_honour_them() {
    use crate::sim::harness::play_checked;
    let g = standard();
    let mut rng = GameRng::seed_from(5);
    let (mut beliefs, mut honoured) = (0u32, 0u32);
    for index in 0..12 {
        let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = (0..g.players).map(|_| bot("collector")).collect();
        let mut out: Option<State> = None;
        let mut each = |s: &State, _: usize, _: &Action| {
            for o in 0..g.players {
                assert!(g.fits_last_discard(s, o, &s.hands[o]), "seat {o}'s real hand [{}] does not explain its discard {:?}", s.hands[o], s.last_discard[o]);
            }
            let ToMove::Seat(seat) = g.to_move(s) else { return };
            let out = out.get_or_insert_with(|| s.clone());
            g.determinize(s, seat, &mut rng, out);
            g.honour_default_model(s, seat, &mut rng, out);
            for o in (0..g.players).filter(|&o| o != seat && s.last_discard[o].is_some()) {
                beliefs += 1;
                honoured += u32::from(g.fits_last_discard(s, o, &out.hands[o]));
            }
        };
        play_checked(&g, &mut bots, game_seed(23, index), 1_000_000, &mut 0, &mut each).expect("a checked game");
    }
    assert!(beliefs > 300, "few last discards to honour ({beliefs}): the test checks little");
    assert!(honoured as f64 >= 0.98 * beliefs as f64, "samples honoured {honoured} of {beliefs} last discards");
}

#[test]
fn allowed_targets_table_is_the_rule() {
    use super::hand::allowed_targets_plain;
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            assert_eq!(allowed_targets([a, b]), allowed_targets_plain([a, b]), "dice {a} {b}");
        }
    }
}

proptest! {
    /// The branch-free win check picks the same seat and target as the seat-by-seat one,
    /// for every table size, direction, active seat, dice and goal.
    #[test]
    fn find_winner_is_the_plain_check(
        players in 2u32..=8,
        goal in 1u32..=6,
        hands in prop::collection::vec(prop::collection::vec(0u8..46, 0..9), 8),
        dice in prop::array::uniform2(0u8..6),
        current in 0u8..8,
        reversed in any::<bool>(),
    ) {
        let g = game_with(|p| {
            p.players = players;
            p.goal = goal;
        });
        let mut s = g.deal(&mut GameRng::seed_from(1), &mut EventLog::new(false));
        for (seat, cards) in hands.iter().enumerate() {
            s.hands[seat] = if seat < players as usize { super::hand::Hand::from_cards(cards) } else { super::hand::Hand::EMPTY };
        }
        s.dice = dice;
        s.current = current % players as u8;
        s.reversed = reversed;
        prop_assert_eq!(g.find_winner(&s), g.find_winner_plain(&s));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The everyday turn's end (`end_plain_turn`, one hand tested in a settled state) does
    /// exactly what the full `end_turn` does: every action of mixed-bot games, on any valid
    /// parameters, applied once as played and once to a copy made unsettled (every hand
    /// checked), gives the same state, draws and events.
    #[test]
    fn ending_a_plain_turn_is_end_turn(params in arb_params(), picks in prop::collection::vec(0usize..3, 8), seed in any::<u64>()) {
        let g = DiceFactor::new(params).expect("valid");
        let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = picks[..g.players].iter().map(|&i| bot(BOTS[i])).collect();
        let mut rng = GameRng::seed_from(seed);
        let mut bot_rng = GameRng::seed_from(!seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let action = bots[seat].decide(&g, &g.view(&s, seat), &mut bot_rng);
            let (mut plain, mut plain_rng) = (s.clone(), rng.clone());
            plain.settled = false;
            let (mut log, mut plain_log) = (EventLog::new(true), EventLog::new(true));
            g.apply(&mut s, seat, action, &mut rng, &mut log);
            g.apply(&mut plain, seat, action, &mut plain_rng, &mut plain_log);
            prop_assert_eq!(&rng, &plain_rng);
            let events: Vec<String> = log.drain().map(|e| e.to_string()).collect();
            let plain_events: Vec<String> = plain_log.drain().map(|e| e.to_string()).collect();
            prop_assert_eq!(events, plain_events);
            // An unsettled state settles at its first full check; until then the flags differ.
            plain.settled = s.settled;
            prop_assert_eq!(format!("{s:?}"), format!("{plain:?}"));
            prop_assert!(g.check_invariants(&s).is_ok(), "{:?}", g.check_invariants(&s));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The game's own loop (`play_out` in `rules.rs`) against the engine's plain loop

/// `n` boxed bots named by `picks` (indices into [`BOTS`]), seat by seat.
fn boxed(picks: &[usize], n: usize) -> Vec<Box<dyn Bot<DiceFactor>>> {
    picks[..n].iter().map(|&i| bot(BOTS[i])).collect()
}

/// A `collector` on every seat, as the bench line-up's uniform table (inlined).
fn collectors(n: usize) -> crate::engine::Uniform<CollectorBot> {
    crate::engine::Uniform::new(vec![CollectorBot; n])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The quick loop plays the same game as the engine's plain loop (the same final state,
    /// every draw of every stream), from the deal or from any later decision (a discard, an
    /// action card's choice, a d8 outcome), for any valid parameters, mixed boxed tables of
    /// every bot and a uniform `collector` table.
    #[test]
    fn play_out_is_the_plain_loop(params in arb_params(), picks in prop::collection::vec(0usize..3, 8), seed in any::<u64>(), lead in 0usize..60) {
        let g = DiceFactor::new(params).expect("valid");
        let n = g.players;
        let mixed = crate::engine::check_play_out(&g, &mut boxed(&picks, n), &mut boxed(&picks, n), seed, lead);
        prop_assert!(mixed.is_ok(), "mixed table: {:?}", mixed.err());
        let uniform = crate::engine::check_play_out(&g, &mut collectors(n), &mut collectors(n), seed, lead);
        prop_assert!(uniform.is_ok(), "collectors: {:?}", uniform.err());
    }
}

/// The same on the bench line-up's games (standard variant without action cards, four
/// `collector`s) and the standard variant with them, from the deal, for 2,000 seeds each.
#[test]
fn play_out_is_the_plain_loop_on_the_bench_tables() {
    for g in [game_with(|p| p.deck.action_sets = 0), standard()] {
        for index in 0..2_000u64 {
            let seed = game_seed(7, index);
            let n = g.players;
            crate::engine::check_play_out(&g, &mut collectors(n), &mut collectors(n), seed, 0).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// [`Hand::deal`] leaves, from any hand, what an empty hand with [`Hand::add`] of each
    /// card in turn holds (every field: counts, held mask, target counts, length, no
    /// add_a_card cards).
    #[test]
    fn deal_is_add_one_by_one(
        start in prop::collection::vec(0u8..CARD_KINDS as u8, 0..=20),
        extra in 0u8..3,
        added in prop::collection::vec(0u8..CARD_KINDS as u8, 0..=20),
    ) {
        let mut one_by_one = Hand::EMPTY;
        for &c in &added {
            one_by_one.add(c);
        }
        let mut all = Hand::from_cards(&start);
        all.extra = extra;
        all.deal(&added);
        prop_assert!(all == one_by_one, "{all:?} against {one_by_one:?}");
        prop_assert_eq!(all.extra, 0);
        prop_assert_eq!(all.len(), added.len());
    }
}

/// `collector` says it never draws from its stream (so a table of it gets no seat streams):
/// its decisions leave the stream untouched, action cards' choices included.
#[test]
fn collector_never_draws() {
    for g in [standard(), game_with(|p| p.deck.action_sets = 3)] {
        let mut bots: Vec<Box<dyn Bot<DiceFactor>>> = (0..g.players).map(|_| bot("collector")).collect();
        crate::engine::check_never_draws(&g, &mut bots, 500).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// [`Hand::exchange`] leaves the hand [`Hand::add`] then [`Hand::remove`] leave, for any
    /// hand, any card in and any card out held after the add (the card in itself included),
    /// and the collector's discard from [`Hand::holding`] plus the card is its discard from
    /// the hand with the card added.
    #[test]
    fn exchange_is_add_then_remove(start in prop::collection::vec(0u8..CARD_KINDS as u8, 0..=12), card in 0u8..CARD_KINDS as u8, pick in any::<prop::sample::Index>(), dice in (0u8..6, 0u8..6)) {
        let mut plain = Hand::from_cards(&start);
        plain.add(card);
        let held = plain.cards();
        let out = held[pick.index(held.len())];
        let mut exchanged = Hand::from_cards(&start);
        let allowed = allowed_targets([dice.0, dice.1]);
        let before = exchanged.holding().plus(card);
        prop_assert_eq!(before, plain.holding());
        if !bots::holds_action(before.held) {
            prop_assert_eq!(bots::first_off(before.held, before.best_target(allowed)), collector_discard(&plain, allowed));
        }
        if let Some((a, b)) = hand::pair(allowed) {
            prop_assert_eq!(before.best_of_two(allowed, a, b), best_oracle(&plain, allowed));
            prop_assert_eq!(exchanged.raised_by_two(card, a, b), highest_oracle(&plain, allowed) > highest_oracle(&exchanged, allowed));
        }
        if let Some((die, other)) = hand::one_logo(allowed) {
            let (best, raised) = if die == 0 {
                (before.best_under_logo::<0>(other), exchanged.raised_under_logo::<0>(card, other))
            } else {
                (before.best_under_logo::<1>(other), exchanged.raised_under_logo::<1>(card, other))
            };
            prop_assert_eq!(best, best_oracle(&plain, allowed));
            prop_assert_eq!(raised, highest_oracle(&plain, allowed) > highest_oracle(&exchanged, allowed));
        }
        plain.remove(out);
        exchanged.exchange(card, out);
        prop_assert!(exchanged == plain, "{exchanged:?} against {plain:?}");
        prop_assert_eq!(exchanged.holding(), plain.holding());
        prop_assert_eq!(exchanged.len(), plain.len());
    }
}
