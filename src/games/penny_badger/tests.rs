//! Penny Badger rule tests: the rulebook's worked examples, every payment rule, the bots'
//! exact definitions, and property tests of conservation, legality and termination.

use std::path::Path;

use proptest::prelude::*;

use super::bots::{best_set, best_set_bit_sliced, best_set_by_every_cell, prob_at_least};
use super::rules::{END_BANK_EMPTY, Hand, Phase, State};
use super::*;
use crate::engine::{Bot, EventLog, Game, GameRng, PlayOptions, SeedFrom, ToMove, play};
use crate::variant::Variant;

const STANDARD: &str = include_str!("../../../variants/penny-badger/standard.toml");

fn standard() -> PennyBadger {
    let v = Variant::from_toml_str(Path::new("standard.toml"), STANDARD).expect("standard variant loads");
    PennyBadger::new(v.game_params().expect("params")).expect("valid")
}

fn cell(color: usize, shape: usize) -> Cell {
    (color * 5 + shape) as Cell
}

const RED_SQUARE: Card = 0;
const YELLOW_CIRCLE: Card = 11;
const BLUE_STAR: Card = 22;
const GREEN_CROSS: Card = 18;
const YELLOW_WILD: Card = chroma::COLOR_WILD + 2;
const CIRCLE_WILD: Card = chroma::SHAPE_WILD + 1;

/// A dealt table whose hands are replaced by the given ones (the cards are not conserved;
/// these tests check payments, not the deck).
fn table(game: &PennyBadger, hands: &[&[Card]]) -> (State, GameRng, EventLog<Event>) {
    let mut rng = GameRng::seed_from(7);
    let mut log = EventLog::new(false);
    let mut s = game.deal(&mut rng, &mut log);
    for (seat, h) in hands.iter().enumerate() {
        s.hands[seat] = Hand::from_cards(h);
    }
    (s, rng, log)
}

fn mask_of(hand: &Hand, cards: &[Card]) -> u32 {
    let mut mask = 0;
    for &c in cards {
        let i = (0..hand.len()).find(|&i| hand.cards()[i] == c && mask & (1 << i) == 0).expect("card in hand");
        mask |= 1 << i;
    }
    mask
}

#[allow(clippy::too_many_arguments)]
/// Plays `seat`'s discard and then the challenge answers in the order asked.
fn claim(game: &PennyBadger, s: &mut State, rng: &mut GameRng, log: &mut EventLog<Event>, seat: usize, cards: &[Card], what: Claim, challengers: &[usize]) {
    assert_eq!(game.to_move(s), ToMove::Seat(seat));
    let mask = mask_of(&s.hands[seat], cards);
    game.apply(s, seat, Action::Discard { cards: mask, claim: what }, rng, log);
    while s.phase == Phase::Challenge {
        let ToMove::Seat(asked) = game.to_move(s) else { panic!("a seat is asked") };
        game.apply(s, asked, Action::Challenge(challengers.contains(&asked)), rng, log);
    }
}

fn savings(s: &State) -> [u32; 4] {
    [s.savings[0], s.savings[1], s.savings[2], s.savings[3]]
}

/// The rulebook's round of four badgers, with badger 3's three cards true and badger 1's
/// wild real (the first reading of each example).
#[test]
fn four_badger_round_truthful() {
    let g = standard();
    let (mut s, mut rng, mut log) = table(
        &g,
        &[
            &[RED_SQUARE, RED_SQUARE, YELLOW_WILD, BLUE_STAR, GREEN_CROSS],
            &[BLUE_STAR, GREEN_CROSS, RED_SQUARE, 1, 2],
            &[YELLOW_CIRCLE, YELLOW_WILD, CIRCLE_WILD, 3, 4],
            &[5, 6, 7, 8, 9],
        ],
    );
    // Badger 1: a pair, nobody challenges: withdraws 4.
    claim(&g, &mut s, &mut rng, &mut log, 0, &[RED_SQUARE, RED_SQUARE], Claim::Set(cell(0, 0)), &[]);
    assert_eq!((savings(&s), s.bank), ([24, 20, 20, 20], 96));
    // Badger 2: nothing, pays 1.
    let first = s.hands[1].cards()[0];
    claim(&g, &mut s, &mut rng, &mut log, 1, &[first], Claim::Nothing, &[]);
    assert_eq!((savings(&s), s.bank), ([24, 19, 20, 20], 97));
    // Badger 3: three yellow circles, challenged by badgers 1 and 4, and true.
    claim(&g, &mut s, &mut rng, &mut log, 2, &[YELLOW_CIRCLE, YELLOW_WILD, CIRCLE_WILD], Claim::Set(cell(2, 1)), &[3, 0]);
    // +8 from the bank; each accuser pays 4 to the bank and 4 to badger 3.
    assert_eq!((savings(&s), s.bank), ([16, 19, 36, 12], 97));
    // Badger 4: nothing.
    let first = s.hands[3].cards()[0];
    claim(&g, &mut s, &mut rng, &mut log, 3, &[first], Claim::Nothing, &[]);
    assert_eq!((savings(&s), s.bank), ([16, 19, 36, 11], 98));
    // Badger 1: a wild, challenged by badger 3, and it is a wild.
    let wild = *s.hands[0].cards().iter().find(|&&c| chroma::is_wild(c)).expect("badger 1 kept its wild");
    claim(&g, &mut s, &mut rng, &mut log, 0, &[wild], Claim::Wild, &[2]);
    // +3 from the bank; badger 3 pays 1 to the bank and 1 to badger 1.
    assert_eq!((savings(&s), s.bank), ([20, 19, 34, 11], 96));
    assert_eq!(s.savings[..4].iter().sum::<u32>() + s.bank, 180);
}

/// The same round with badger 3's three cards false and badger 1's "wild" not a wild.
#[test]
fn four_badger_round_bluffs_caught() {
    let g = standard();
    let (mut s, mut rng, mut log) = table(
        &g,
        &[
            &[RED_SQUARE, RED_SQUARE, BLUE_STAR, GREEN_CROSS, 3],
            &[BLUE_STAR, GREEN_CROSS, RED_SQUARE, 1, 2],
            &[YELLOW_CIRCLE, BLUE_STAR, GREEN_CROSS, 3, 4],
            &[5, 6, 7, 8, 9],
        ],
    );
    claim(&g, &mut s, &mut rng, &mut log, 0, &[RED_SQUARE, RED_SQUARE], Claim::Set(cell(0, 0)), &[]);
    let first = s.hands[1].cards()[0];
    claim(&g, &mut s, &mut rng, &mut log, 1, &[first], Claim::Nothing, &[]);
    assert_eq!((savings(&s), s.bank), ([24, 19, 20, 20], 97));
    // Three "yellow circles" that are not: no withdrawal, 4 to the bank and 4 to each accuser.
    claim(&g, &mut s, &mut rng, &mut log, 2, &[YELLOW_CIRCLE, BLUE_STAR, GREEN_CROSS], Claim::Set(cell(2, 1)), &[3, 0]);
    assert_eq!((savings(&s), s.bank), ([28, 19, 8, 24], 101));
    let first = s.hands[3].cards()[0];
    claim(&g, &mut s, &mut rng, &mut log, 3, &[first], Claim::Nothing, &[]);
    // A "wild" that is a base card, challenged by badger 3: 2 to the bank and 2 to badger 3.
    let plain = *s.hands[0].cards().iter().find(|&&c| !chroma::is_wild(c) && !chroma::is_action(c)).expect("a plain card");
    let before = savings(&s);
    let bank = s.bank;
    claim(&g, &mut s, &mut rng, &mut log, 0, &[plain], Claim::Wild, &[2]);
    assert_eq!(s.savings[0], before[0] - 4);
    assert_eq!(s.savings[2], before[2] + 2);
    assert_eq!(s.bank, bank + 2);
}

#[test]
fn a_payer_who_cannot_pay_the_bank_pays_it_all_and_accusers_get_nothing() {
    let g = standard();
    let (mut s, _, mut log) = table(&g, &[]);
    s.savings[1] = 3;
    g.pay(&mut s, 1, 4, &[0, 2], 4, &mut log);
    assert_eq!((s.savings[0], s.savings[1], s.savings[2], s.bank), (20, 0, 20, 103));
    assert!(!g.seat_active(&s, 1), "a payer left with 0 is eliminated");
    assert!(s.hands[1].is_empty(), "an eliminated player's hand goes to the discard pile");
}

#[test]
fn short_payments_are_shared_with_odd_pennies_clockwise_from_the_payers_left() {
    let g = standard();
    let (mut s, _, mut log) = table(&g, &[]);
    // Seat 1 owes 4 to the bank and 4 to each of seats 0, 2, 3 but holds 9: after the bank,
    // 5 remain for three accusers: 1 each, and the 2 odd pennies go to seats 2 then 3.
    s.savings[1] = 9;
    g.pay(&mut s, 1, 4, &[0, 2, 3], 4, &mut log);
    assert_eq!(savings(&s), [21, 0, 22, 22]);
    assert_eq!(s.bank, 104);
    // Seat 3 paying seats 0 and 1: clockwise from seat 3's left is seat 0 first.
    let (mut s, _, mut log) = table(&g, &[]);
    s.savings[3] = 1 + 3;
    g.pay(&mut s, 3, 1, &[1, 0], 2, &mut log);
    assert_eq!(savings(&s), [22, 21, 20, 0]);
}

#[test]
fn the_bank_is_paid_first_then_players_in_full_when_possible() {
    let g = standard();
    let (mut s, _, mut log) = table(&g, &[]);
    g.pay(&mut s, 0, 4, &[1, 2], 4, &mut log);
    assert_eq!(savings(&s), [8, 24, 24, 20]);
    assert_eq!(s.bank, 104);
    assert!(g.seat_active(&s, 0));
}

#[test]
fn a_withdrawal_is_capped_at_the_bank_and_an_empty_bank_ends_the_game() {
    let g = standard();
    let (mut s, mut rng, mut log) = table(&g, &[&[RED_SQUARE, RED_SQUARE, 1, 2, 3]]);
    s.bank = 2;
    claim(&g, &mut s, &mut rng, &mut log, 0, &[RED_SQUARE, RED_SQUARE], Claim::Set(0), &[]);
    assert_eq!((s.savings[0], s.bank), (22, 0));
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(s.end_reason, END_BANK_EMPTY);
}

#[test]
fn wrong_accusers_refill_an_emptied_bank_and_the_game_goes_on() {
    let g = standard();
    let (mut s, mut rng, mut log) = table(&g, &[&[RED_SQUARE, RED_SQUARE, 1, 2, 3]]);
    s.bank = 3;
    claim(&g, &mut s, &mut rng, &mut log, 0, &[RED_SQUARE, RED_SQUARE], Claim::Set(0), &[1]);
    // Withdrawal 3 (all the bank), then seat 1 pays 2 to the bank and 2 to seat 0.
    assert_eq!((s.savings[0], s.savings[1], s.bank), (25, 16, 2));
    assert_ne!(s.phase, Phase::Over);
}

#[test]
fn an_eight_card_claim_takes_the_whole_bank_and_a_caught_one_costs_all_savings() {
    let g = standard();
    let eight =
        [RED_SQUARE, RED_SQUARE, chroma::COLOR_WILD, chroma::COLOR_WILD, chroma::SHAPE_WILD, chroma::ALL_COLORS, chroma::ALL_SHAPES, chroma::ALL_SHAPES];
    let (mut s, mut rng, mut log) = table(&g, &[&eight]);
    claim(&g, &mut s, &mut rng, &mut log, 0, &eight, Claim::Set(0), &[]);
    assert_eq!((s.savings[0], s.bank), (120, 0));
    let mut bluff = eight;
    bluff[7] = BLUE_STAR;
    let (mut s, mut rng, mut log) = table(&g, &[&bluff]);
    claim(&g, &mut s, &mut rng, &mut log, 0, &bluff, Claim::Set(0), &[2]);
    // Whole savings to the bank first: the accuser gets nothing, the bluffer is out.
    assert_eq!((s.savings[0], s.savings[2], s.bank), (0, 20, 120));
    assert!(!g.seat_active(&s, 0));
}

#[test]
fn challengers_are_asked_in_turn_order_from_the_claimers_next_seat() {
    let g = standard();
    let (mut s, mut rng, mut log) = table(&g, &[&[1, 2, 3, 4, 5], &[RED_SQUARE, RED_SQUARE, 7, 8, 9]]);
    let first = s.hands[0].cards()[0];
    claim(&g, &mut s, &mut rng, &mut log, 0, &[first], Claim::Nothing, &[]);
    let mask = mask_of(&s.hands[1], &[RED_SQUARE, RED_SQUARE]);
    g.apply(&mut s, 1, Action::Discard { cards: mask, claim: Claim::Set(0) }, &mut rng, &mut log);
    let mut asked = Vec::new();
    while s.phase == Phase::Challenge {
        let ToMove::Seat(seat) = g.to_move(&s) else { panic!() };
        asked.push(seat);
        g.apply(&mut s, seat, Action::Challenge(false), &mut rng, &mut log);
    }
    assert_eq!(asked, vec![2, 3, 0]);
}

/// The next live seat by walking the table one seat at a time, as the rules read.
fn next_alive_by_walking(n: usize, alive: u16, direction: i8, from: usize) -> usize {
    let mut seat = from;
    for _ in 0..n {
        seat = if direction > 0 { (seat + 1) % n } else { (seat + n - 1) % n };
        if alive & (1 << seat) != 0 {
            return seat;
        }
    }
    from
}

#[test]
fn next_live_seat_and_challenge_order_match_walking_the_table() {
    let base = standard();
    for n in 2..=MAX_PLAYERS {
        let mut params = base.params.clone();
        params.players = n as u32;
        let g = PennyBadger::new(params).expect("valid");
        let (mut s, _, _) = table(&g, &[]);
        for alive in 0..(1u16 << n) {
            for direction in [1i8, -1] {
                s.alive = alive;
                s.direction = direction;
                for from in 0..n {
                    let expected = next_alive_by_walking(n, alive, direction, from);
                    assert_eq!(g.next_alive(&s, from), expected, "{n} players, alive {alive:b}, direction {direction}, from {from}");
                    if alive & (1 << from) == 0 {
                        continue;
                    }
                    let mut walked = Vec::new();
                    let mut other = next_alive_by_walking(n, alive, direction, from);
                    while other != from {
                        walked.push(other as u8);
                        other = next_alive_by_walking(n, alive, direction, other);
                    }
                    let (order, len) = g.challenge_order(&s, from);
                    assert_eq!(g.challenge_order_by_bits(&s, from), (order, len), "{n} players, alive {alive:b}, direction {direction}, claimer {from}");
                    assert_eq!(&order[..len as usize], &walked[..], "{n} players, alive {alive:b}, direction {direction}, claimer {from}");
                }
            }
        }
    }
}

#[test]
fn skip_and_reverse_change_who_plays_next() {
    let g = standard();
    let skip = chroma::ActionCard::Skip as Card;
    let reverse = chroma::ActionCard::Reverse as Card;
    let (mut s, mut rng, mut log) = table(&g, &[&[skip, reverse, 1, 2, 3]]);
    g.apply(&mut s, 0, Action::Play { card: skip, target: 0, give: 0 }, &mut rng, &mut log);
    assert_eq!(s.skips[1], 1);
    g.apply(&mut s, 0, Action::Play { card: reverse, target: 0, give: 0 }, &mut rng, &mut log);
    assert_eq!(s.direction, -1);
    assert_eq!(s.hands[0].len(), 5, "each played action card is replaced at once");
    let c = s.hands[0].cards()[0];
    claim(&g, &mut s, &mut rng, &mut log, 0, &[c], Claim::Nothing, &[]);
    // Reversed: seat 3 plays next; seat 1's skip waits for its turn.
    assert_eq!(g.to_move(&s), ToMove::Seat(3));
}

#[test]
fn add_and_remove_cards_change_hand_sizes() {
    let g = standard();
    let add2 = chroma::ActionCard::AddTwoCards as Card;
    let remove2 = chroma::ActionCard::RemoveTwoCards as Card;
    let (mut s, mut rng, mut log) = table(&g, &[&[add2, remove2, 1, 2, 3]]);
    g.apply(&mut s, 0, Action::Play { card: add2, target: 0, give: 0 }, &mut rng, &mut log);
    assert_eq!(s.hands[0].len(), 7);
    g.apply(&mut s, 0, Action::Play { card: remove2, target: 2, give: 0 }, &mut rng, &mut log);
    assert_eq!(s.hands[0].len(), 7);
    assert_eq!(s.hands[2].len(), 3);
}

#[test]
fn trading_moves_cards_between_hands() {
    let g = standard();
    let trade_one = chroma::ActionCard::TradeOneCard as Card;
    let trade_hands = chroma::ActionCard::TradeHands as Card;
    let (mut s, mut rng, mut log) = table(&g, &[&[trade_one, trade_hands, BLUE_STAR, 2, 3], &[5, 5, 5, 5, 5]]);
    g.apply(&mut s, 0, Action::Play { card: trade_one, target: 1, give: BLUE_STAR }, &mut rng, &mut log);
    assert!(s.hands[1].cards().contains(&BLUE_STAR));
    assert!(s.hands[0].cards().contains(&5));
    assert_eq!((s.hands[0].len(), s.hands[1].len()), (5, 5));
    let theirs = s.hands[2];
    g.apply(&mut s, 0, Action::Play { card: trade_hands, target: 2, give: 0 }, &mut rng, &mut log);
    assert_eq!(s.hands[0], theirs, "seat 0 now holds seat 2's hand");
    assert_eq!(s.hands[2].len(), 5, "seat 2 holds seat 0's hand after its replacement draw");
    assert!(!s.hands[2].cards().contains(&trade_hands));
}

#[test]
fn best_set_prefers_size_then_fewer_wilds_then_canonical_order() {
    // Two red squares beat one red square + red wild (fewer wilds), and come first.
    let hand = Hand::from_cards(&[RED_SQUARE, RED_SQUARE, BLUE_STAR, BLUE_STAR, 30]);
    let best = best_set(hand.cards(), 8).expect("a set");
    // Square wild (30) matches both red square and blue square; red square has 2 base + 1 wild = 3.
    assert_eq!((best.cell, best.size), (0, 3));
    let hand = Hand::from_cards(&[BLUE_STAR, BLUE_STAR, YELLOW_CIRCLE, YELLOW_CIRCLE]);
    assert_eq!(best_set(hand.cards(), 8).map(|b| (b.cell, b.size)), Some((YELLOW_CIRCLE, 2)));
    let only_actions = [chroma::ActionCard::Skip as Card];
    assert_eq!(best_set(&only_actions, 8), None);
}

#[test]
fn basic_claims_truthfully_without_bluff_and_discards_an_action_card_as_nothing() {
    let g = standard();
    let infos = crate::engine::all_bots(&g);
    let basic = infos.iter().find(|b| b.name == "basic").unwrap();
    let mut bot = (basic.build)(&g, &[0.0, 0.0]);
    let skip = chroma::ActionCard::Skip as Card;
    let (mut s, mut rng, _) = table(&g, &[&[RED_SQUARE, RED_SQUARE, BLUE_STAR, skip, 3]]);
    let v = g.view(&s, 0);
    let a = bot.decide(&g, &v, &mut rng);
    assert_eq!(a, Action::Discard { cards: 0b11, claim: Claim::Set(0) });
    s.hands[0] = Hand::from_cards(&[RED_SQUARE, BLUE_STAR, skip, 3, 7]);
    let v = g.view(&s, 0);
    let a = bot.decide(&g, &v, &mut rng);
    assert_eq!(a, Action::Discard { cards: 1 << 4, claim: Claim::Nothing }, "nothing is an action card when one is held");
}

#[test]
fn basic_with_bluff_one_adds_the_first_non_matching_card() {
    let g = standard();
    let mut bot = (crate::engine::all_bots(&g).iter().find(|b| b.name == "basic").unwrap().build)(&g, &[1.0, 0.0]);
    let (s, mut rng, _) = table(&g, &[&[1, RED_SQUARE, 3, RED_SQUARE, 4]]);
    // Sorted hand: [0, 0, 1, 3, 4]: the set is positions 0, 1; the first other card is position 2.
    let a = bot.decide(&g, &g.view(&s, 0), &mut rng);
    assert_eq!(a, Action::Discard { cards: 0b111, claim: Claim::Set(0) });
}

#[test]
fn hypergeometric_tail_matches_direct_sums() {
    // 2 draws from 10 with 3 good: P(X>=1) = 1 - C(7,2)/C(10,2) = 1 - 21/45.
    assert!((prob_at_least(10, 3, 2, 1) - (1.0 - 21.0 / 45.0)).abs() < 1e-12);
    assert!((prob_at_least(10, 3, 2, 2) - 3.0 / 45.0).abs() < 1e-12);
    assert_eq!(prob_at_least(10, 1, 5, 2), 0.0);
    // All cards good.
    assert!((prob_at_least(5, 5, 3, 3) - 1.0).abs() < 1e-12);
}

#[test]
fn the_default_deck_lets_at_most_ten_cards_match_one_cell() {
    // docs/games/penny-badger.md's note says 6; with Deck A + Deck B each cell has 2 base cards, 2 color wilds,
    // 2 shape wilds, 2 all-colors and 2 all-shapes.
    assert_eq!(standard().max_matching(), 10);
}

#[test]
fn legal_actions_are_all_legal_and_cover_the_bots_choices() {
    let g = standard();
    let skip = chroma::ActionCard::Skip as Card;
    let trade_one = chroma::ActionCard::TradeOneCard as Card;
    let (s, _, _) = table(&g, &[&[RED_SQUARE, RED_SQUARE, skip, trade_one, 3]]);
    let v = g.view(&s, 0);
    let mut all = Vec::new();
    g.legal_actions(&v, &mut all);
    assert!(all.iter().all(|a| g.is_legal(&v, a)));
    // 5 singles x 2 + 26 multi-card subsets x 25 cells, plus skip, plus trade-one: 3
    // targets x 3 distinct cards to give (red square, skip, 3).
    assert_eq!(all.len(), 10 + 26 * 25 + 1 + 9);
    assert!(!g.is_legal(&v, &Action::Challenge(true)));
    assert!(!g.is_legal(&v, &Action::Play { card: trade_one, target: 0, give: 3 }), "no trading with oneself");
    assert!(!g.is_legal(&v, &Action::Play { card: trade_one, target: 1, give: trade_one }), "the played card cannot be given");
}

fn any_params() -> impl Strategy<Value = Params> {
    (2u32..=8, 1u32..=7, 0u32..300, 1u32..40, 1u32..400, any::<bool>(), (1u32..=3, 0u32..=2, 0u32..=2, 0u32..=3), 1u32..=4).prop_map(
        |(players, hand_size, bank, savings, turn_cap, reshuffle, (base, colors, shapes, actions), scale)| {
            let mut p = standard().params;
            p.players = players;
            p.hand_size = hand_size;
            p.bank = bank;
            p.starting_savings = savings;
            p.turn_cap = turn_cap;
            p.reshuffle_discard = reshuffle;
            p.deck.base_sets = base.max((players * hand_size).div_ceil(25));
            p.deck.colors_sets = colors;
            p.deck.shapes_sets = shapes;
            p.deck.action_sets = actions;
            for row in p.payout.values_mut() {
                if let Amount::Pennies(w) = row.withdrawal {
                    row.withdrawal = Amount::Pennies(w * scale / 2);
                }
            }
            p
        },
    )
}

fn seat_bots(g: &PennyBadger, choice: &[u8], bluff: f64, challenge: f64) -> Vec<Box<dyn Bot<PennyBadger>>> {
    // The search bot is played by the harness (a short search); its default search is too
    // slow for thousands of generated games.
    let infos: Vec<_> = crate::engine::all_bots(g).into_iter().filter(|b| b.name != crate::engine::ismcts::ISMCTS).collect();
    (0..g.seats())
        .map(|s| {
            let info = &infos[choice[s % choice.len()] as usize % infos.len()];
            let values: Vec<f64> = match info.name {
                "basic" => vec![bluff, challenge],
                _ => info.params.iter().map(|p| p.default).collect(),
            };
            (info.build)(g, &values)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Inserting keeps canonical order (the SSE2 path and the portable one alike).
    #[test]
    fn inserted_cards_stay_in_canonical_order(cards in proptest::collection::vec(0u8..chroma::CARD_KINDS as u8, 0..=HAND_CAP)) {
        let mut sorted = cards.clone();
        sorted.sort_unstable();
        let hand = Hand::from_cards(&cards);
        prop_assert_eq!(hand.cards(), &sorted[..]);
        let mut portable = Hand::EMPTY;
        for (n, &c) in cards.iter().enumerate() {
            portable.insert_u128(c, n);
        }
        prop_assert_eq!(&portable.slots()[..cards.len()], &sorted[..]);
    }

    /// The fast best-set search agrees with scoring every cell.
    #[test]
    fn best_set_agrees_with_the_plain_definition(cards in proptest::collection::vec(0u8..chroma::CARD_KINDS as u8, 0..=HAND_CAP), max_claim in 2usize..9) {
        let hand = Hand::from_cards(&cards);
        prop_assert_eq!(best_set(hand.cards(), max_claim), best_set_by_every_cell(hand.cards(), max_claim));
        prop_assert_eq!(best_set_bit_sliced(hand.cards(), max_claim), best_set_by_every_cell(hand.cards(), max_claim));
    }

    /// The SSE2 lane comparisons find the same cards as the slot-by-slot loops, whatever the
    /// slots past the hand's length hold.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn lane_masks_agree_with_the_slot_loops(slots in proptest::array::uniform12(0u8..chroma::CARD_KINDS as u8), len in 0usize..=HAND_CAP, cell in 0u8..25) {
        let (plain, fast) = super::bots::matching_both_ways(&slots, len, cell);
        prop_assert_eq!(plain, fast);
        let [wilds, actions, fast_wilds, fast_actions] = super::bots::wilds_and_actions_both_ways(&slots, len);
        prop_assert_eq!((wilds, actions), (fast_wilds, fast_actions));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// The discard pile's block append is the plain append, whatever room the pile has.
    #[test]
    fn append_block_is_the_plain_append(start in proptest::collection::vec(any::<u16>(), 0..40), room in 0usize..40, block in proptest::array::uniform16(any::<u16>()), n in 0usize..=16, bytes in proptest::array::uniform16(any::<u8>())) {
        let (mut fast, mut plain) = (start.clone(), start.clone());
        fast.reserve_exact(room);
        crate::games::simd::append_block(&mut fast, &block, n);
        plain.extend_from_slice(&block[..n]);
        prop_assert_eq!(&fast, &plain);
        let (mut fast, mut plain): (Vec<u8>, Vec<u8>) = (start.iter().map(|&x| x as u8).collect(), start.iter().map(|&x| x as u8).collect());
        fast.reserve_exact(room);
        crate::games::simd::append_block(&mut fast, &bytes, n);
        plain.extend_from_slice(&bytes[..n]);
        prop_assert_eq!(&fast, &plain);
    }

    /// Appending copies of one value by one block store is the plain append, whatever room
    /// the pile has.
    #[test]
    fn append_fill_is_the_plain_append(start in proptest::collection::vec(any::<u16>(), 0..40), room in 0usize..40, value in any::<u16>(), n in 0usize..=16) {
        let (mut fast, mut plain) = (start.clone(), start.clone());
        fast.shrink_to_fit();
        fast.reserve_exact(room);
        crate::games::simd::append_fill::<_, 16>(&mut fast, value, n);
        plain.extend(std::iter::repeat_n(value, n));
        prop_assert_eq!(&fast, &plain);
        // What a later append sees past the end is what it writes, not the block's copies.
        fast.push(7);
        plain.push(7);
        prop_assert_eq!(&fast, &plain);
    }

    /// Filling the top of a pile by one block store is the plain fill, and leaves the rest.
    #[test]
    fn fill_top_is_the_plain_fill(start in proptest::collection::vec(any::<u16>(), 0..40), room in 0usize..40, n in 0usize..=40, value in any::<u16>()) {
        let n = n.min(start.len());
        let (mut fast, mut plain) = (start.clone(), start.clone());
        fast.shrink_to_fit();
        fast.reserve_exact(room);
        crate::games::simd::fill_top::<_, 16>(&mut fast, n, value);
        let top = plain.len() - n;
        plain[top..].fill(value);
        prop_assert_eq!(&fast, &plain);
        // What a later append sees past the end is what it writes, not the fill's copies.
        fast.push(7);
        plain.push(7);
        prop_assert_eq!(&fast, &plain);
    }

    /// A claim's settlement without branches (falling back on the plain one where it does
    /// not apply) leaves the table exactly as the rules step by step: reveal, withdrawal,
    /// penalties in turn order, short payments, eliminations.
    #[test]
    fn fast_settlement_is_the_plain_one(
        players in 2u32..=8,
        savings in proptest::array::uniform8(0u32..30),
        bank in 0u32..150,
        claimer in 0usize..8,
        challengers in 0u16..256,
        truthful in any::<bool>(),
        wild in any::<bool>(),
        size in 2u8..=8,
        whole_savings in any::<bool>(),
        room in 0usize..40,
        seed in any::<u64>(),
    ) {
        let mut params = standard().params;
        params.players = players;
        params.bank = bank;
        if whole_savings {
            let wild_row = params.payout.get_mut("wild").expect("a wild row");
            wild_row.accuser_penalty = Some(Amount::All);
            wild_row.bluffer_penalty = Some(Amount::All);
            params.payout.get_mut("3").expect("a row 3").penalty = Some(Amount::All);
        }
        let g = PennyBadger::new(params).expect("valid");
        let n = players as usize;
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        let claimer = claimer % n;
        s.alive = 0;
        for (seat, &start) in savings.iter().enumerate().take(n) {
            s.savings[seat] = if seat == claimer { start.max(1) } else { start };
            if s.savings[seat] > 0 {
                s.alive |= 1 << seat;
            } else {
                s.hands[seat] = Hand::EMPTY;
            }
        }
        let count = if wild { 1 } else { size };
        for _ in 0..count {
            let c = s.draw.pop().expect("cards to claim");
            s.discard.push(c);
            s.discard_seen.push(1 << claimer);
        }
        s.discard_seen.shrink_to(s.discard_seen.len() + room);
        let (order, order_len) = g.challenge_order(&s, claimer);
        let challengers = challengers & s.alive & !(1 << claimer);
        let claim = if wild { Claim::Wild } else { Claim::Set(3) };
        s.claim = Some(super::rules::TableClaim { claimer: claimer as u8, claim, count, truthful, challengers, asked: order_len, order, order_len });
        s.phase = Phase::Challenge;
        let (fast, plain) = g.settle_both_ways(&s);
        prop_assert_eq!(format!("{fast:?}"), format!("{plain:?}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Pennies and cards are conserved after every action, eliminated players never act,
    /// every bot choice is legal (all checked by `PlayOptions::checked`), and every game ends
    /// by the cap.
    #[test]
    fn games_keep_every_invariant(params in any_params(), seeds in proptest::collection::vec(any::<u64>(), 4), choice in proptest::collection::vec(0u8..3, 8), bluff in 0.0f64..1.0, challenge in 0.0f64..1.0) {
        let cap = params.turn_cap;
        let g = PennyBadger::new(params).expect("generated parameters are valid");
        let mut bots = seat_bots(&g, &choice, bluff, challenge);
        for seed in seeds {
            let outcome = play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None);
            let outcome = outcome.map_err(|v| TestCaseError::fail(format!("seed {seed}: {}", v.what)))?;
            prop_assert!(outcome.length <= cap);
            prop_assert!(outcome.winners != 0);
        }
    }
}

/// A [`Uniform`](crate::engine::Uniform) table of `basic` with these (bluff, challenge)
/// values per seat.
fn basic_table(values: &[(f64, f64)]) -> crate::engine::Uniform<super::bots::BasicBot> {
    crate::engine::Uniform::new(values.iter().map(|&(b, c)| super::bots::BasicBot::new(&[b, c])).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// The game's own loop for a table of `basic` plays the plain loop's game, from the deal
    /// or from any later decision (a turn, or a claim with answers still to come), on any
    /// parameters, with any bluff and challenge rates per seat (0 and 1 included: a rate of 0
    /// draws nothing): the same final state and the same streams.
    #[test]
    fn play_out_is_the_plain_loop(
        params in any_params(),
        rates in proptest::collection::vec((prop::sample::select(vec![0.0, 0.3, 1.0]), 0.0f64..1.0, prop::sample::select(vec![0.0, 0.3, 1.0]), 0.0f64..1.0, any::<bool>()), 8),
        seed in any::<u64>(),
        steps in 0usize..200,
    ) {
        let g = PennyBadger::new(params).expect("generated parameters are valid");
        let values: Vec<(f64, f64)> =
            rates[..g.seats()].iter().map(|&(b, rb, c, rc, fixed)| if fixed { (b, c) } else { (rb, rc) }).collect();
        let (mut a, mut b) = (basic_table(&values), basic_table(&values));
        crate::engine::check_play_out(&g, &mut a, &mut b, seed, steps).map_err(TestCaseError::fail)?;
    }
}

/// The game's own loop plays the bench's table (no action cards) and the standard one as
/// the plain loop does, from the deal and from a few decisions in.
#[test]
fn play_out_is_the_plain_loop_on_the_bench_table() {
    let mut bench = standard();
    bench.params.deck.action_sets = 0;
    let bench = PennyBadger::new(bench.params).expect("valid");
    for g in [&bench, &standard()] {
        let values = vec![(0.3, 0.3); g.seats()];
        for seed in 0..2_000u64 {
            let (mut a, mut b) = (basic_table(&values), basic_table(&values));
            crate::engine::check_play_out(g, &mut a, &mut b, seed, (seed % 7) as usize).expect("the same game");
        }
    }
}
