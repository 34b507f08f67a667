//! Pig Farm tests: the rulebook's scoring examples and every table row, the bonuses, the
//! butcher (both dice, the logo, first and second card, dealt hands), selling and drawing
//! legality, the turn cap, matches, parameter checks, the threshold bot's definition, and
//! property tests (cards conserved, scores equal the table applied to the final hands,
//! every round ends by the cap, no illegal choice).

use proptest::prelude::*;
use rand::RngExt;

use super::*;
use crate::engine::{Bot, EventLog, Game, GameRng, Outcome, PlayOptions, SeedFrom, ToMove, play};
use crate::variant::Variant;

// ---------------------------------------------------------------------------------------
// Helpers

fn game_with(f: impl FnOnce(&mut Params)) -> PigFarm {
    let mut p = Params::default();
    f(&mut p);
    PigFarm::new(p).expect("valid test parameters")
}

fn standard() -> PigFarm {
    game_with(|_| {})
}

/// A hand from (pig, copies) pairs.
fn hand(groups: &[(Card, u8)]) -> Hand {
    let mut h = Hand::EMPTY;
    for &(p, c) in groups {
        for _ in 0..c {
            h.add(p);
        }
    }
    h
}

/// A hand of `sets` pairs plus `singles` unmatched pigs (distinct kinds).
fn pairs(sets: u8, singles: u8) -> Hand {
    let mut groups: Vec<(Card, u8)> = (0..sets).map(|k| (k, 2)).collect();
    groups.extend((sets..sets + singles).map(|k| (k, 1)));
    hand(&groups)
}

fn bot(name: &str, values: &[f64]) -> Box<dyn Bot<PigFarm>> {
    let g = standard();
    let info = crate::engine::all_bots(&g).into_iter().find(|b| b.name == name).expect("bot exists");
    let mut v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    for (i, x) in values.iter().enumerate() {
        v[i] = *x;
    }
    (info.build)(&g, &v)
}

/// A table with the given hands (seats beyond the list are empty); every other card lies in
/// the draw pile in canonical order; seat 0 starts its first turn.
fn table(g: &PigFarm, hands: &[Hand]) -> State {
    let mut rng = GameRng::seed_from(0);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    let mut left = [g.copies(); KINDS];
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    for (seat, h) in hands.iter().enumerate() {
        s.hands[seat] = *h;
        for (k, l) in left.iter_mut().enumerate() {
            *l -= h.count(k as Card);
        }
    }
    s.draw.clear();
    for (k, &n) in left.iter().enumerate() {
        s.draw.extend(std::iter::repeat_n(k as Card, n as usize));
    }
    s.draw.extend(std::iter::repeat_n(BUTCHER, g.params.deck.butchers as usize));
    s.discard.clear();
    s.butchers_held = [0; MAX_PLAYERS];
    s.current = 0;
    s.phase = Phase::Start;
    s.round_turns = 1;
    s.turns = 1;
    g.check_invariants(&s).expect("test table is consistent");
    s
}

/// Moves one copy of `card` from inside the draw pile to its top.
fn to_top(s: &mut State, card: Card) {
    let i = s.draw.iter().position(|&c| c == card).expect("card in the draw pile");
    let c = s.draw.remove(i);
    s.draw.push(c);
}

/// A seed whose first die roll of a fresh `GameRng` shows `face`.
fn seed_for_face(face: u8) -> u64 {
    (0..10_000u64).find(|&sd| GameRng::seed_from(sd).random_range(0..FACES) == face).expect("every face appears")
}

fn apply(g: &PigFarm, s: &mut State, action: Action, rng: &mut GameRng) {
    let seat = match g.to_move(s) {
        ToMove::Seat(seat) => seat,
        ToMove::Over => panic!("game over"),
    };
    let view = g.view(s, seat);
    assert!(g.is_legal(&view, &action), "{action:?} must be legal in {:?}", view.decision());
    g.apply(s, seat, action, rng, &mut EventLog::new(false));
    g.check_invariants(s).expect("invariants hold");
}

/// The rulebook's scoring written out independently of the implementation (defaults).
fn reference_points(h: &Hand, seller: bool) -> i64 {
    let counts = h.counts();
    let sets = counts.iter().filter(|&&c| c >= 2).count() as i64;
    if seller {
        let table = [0, 0, 0, 30, 50, 70, 100, 150, 200, 250];
        let mut p = if sets <= 9 { table[sets as usize] } else { 250 + 50 * (sets - 9) };
        for &c in counts {
            p += match c {
                3 => 50,
                4 => 150,
                c if c >= 5 => 250,
                _ => 0,
            };
        }
        if !counts.contains(&1) {
            p += 100;
        }
        p
    } else {
        let table = [0, 5, 15, 30, 0, -30, -50, -100, -150, -200];
        if sets <= 9 { table[sets as usize] } else { -200 - 50 * (sets - 9) }
    }
}

/// What one played match showed.
struct Played {
    outcome: Outcome,
    rounds: Vec<RoundRecord>,
    rolls: Vec<RollRecord>,
    events: Vec<Event>,
}

/// Plays one match under the invariant harness (every choice, legal list and invariant checked
/// at every step) and records its rounds and rolls.
fn drive(g: &PigFarm, bots: &mut [Box<dyn Bot<PigFarm>>], seed: u64) -> Played {
    let (mut rounds, mut rolls) = (Vec::new(), Vec::new());
    let (mut rounds_done, mut rolls_done) = (0, 0);
    let mut record = |s: &State, _: usize, _: &Action| {
        if s.rolls > rolls_done {
            rolls.push(s.last_roll.expect("a roll"));
        }
        if s.rounds_done > rounds_done {
            rounds.push(s.last_round.expect("a round"));
        }
        (rounds_done, rolls_done) = (s.rounds_done, s.rolls);
    };
    let bound = (g.params.turn_cap as u64 + 2) * g.params.rounds as u64 * 4 + 100;
    let game = crate::sim::harness::play_checked(g, bots, seed, bound, &mut 0, &mut record).unwrap_or_else(|(step, e)| panic!("step {step}: {e}"));
    Played { outcome: game.outcome, rounds, rolls, events: game.events }
}

// ---------------------------------------------------------------------------------------
// Scoring

#[test]
fn rulebook_seller_examples() {
    let g = standard();
    // Two sets of 3 and one pair (and an unmatched pig): 30 + 2 x 50.
    let h = hand(&[(0, 3), (7, 3), (12, 2), (20, 1)]);
    assert_eq!(g.scoring.seller_points(&h), 130);
    // Five sets including one of 3 and one of 4 (and an unmatched pig): 70 + 50 + 150.
    let h = hand(&[(0, 3), (1, 4), (2, 2), (3, 2), (4, 2), (24, 1)]);
    assert_eq!(g.scoring.seller_points(&h), 270);
}

#[test]
fn rulebook_non_seller_examples() {
    let g = standard();
    // 3 sets (one of 3 pigs: no bonus for non-sellers), 4 sets, 5 sets.
    assert_eq!(g.scoring.other_points(&hand(&[(0, 3), (5, 2), (6, 2), (9, 1)])), 30);
    assert_eq!(g.scoring.other_points(&hand(&[(0, 2), (5, 2), (6, 2), (9, 2)])), 0);
    assert_eq!(g.scoring.other_points(&hand(&[(0, 3), (5, 3), (6, 2), (9, 2), (11, 2), (13, 1)])), -30);
}

#[test]
fn every_seller_row_and_the_continuation() {
    let g = standard();
    let expected = [(3, 30), (4, 50), (5, 70), (6, 100), (7, 150), (8, 200), (9, 250), (10, 300), (11, 350), (12, 400), (20, 800)];
    for (sets, points) in expected {
        assert_eq!(g.scoring.seller_points(&pairs(sets, 1)), points, "{sets} sets");
    }
}

#[test]
fn every_non_seller_row_and_the_continuation() {
    let g = standard();
    let expected = [(0, 0), (1, 5), (2, 15), (3, 30), (4, 0), (5, -30), (6, -50), (7, -100), (8, -150), (9, -200), (10, -250), (12, -350)];
    for (sets, points) in expected {
        assert_eq!(g.scoring.other_points(&pairs(sets, 1)), points, "{sets} sets");
        assert_eq!(g.scoring.other_points(&pairs(sets, 0)), points, "{sets} sets, no unmatched pig");
    }
}

#[test]
fn set_size_bonuses_for_the_seller_only() {
    let g = game_with(|p| p.deck.base_sets = 6);
    let base = g.scoring.seller_points(&pairs(3, 1));
    assert_eq!(base, 30);
    for (size, bonus) in [(2u8, 0), (3, 50), (4, 150), (5, 250), (6, 250)] {
        let h = hand(&[(0, size), (1, 2), (2, 2), (3, 1)]);
        assert_eq!(g.scoring.seller_points(&h), 30 + bonus, "set of {size}");
        assert_eq!(g.scoring.other_points(&h), 30, "non-seller, set of {size}");
    }
}

#[test]
fn all_pigs_bonus_needs_every_pig_matched() {
    let g = standard();
    assert_eq!(g.scoring.seller_points(&hand(&[(0, 3), (7, 3), (12, 2)])), 230);
    assert_eq!(g.scoring.seller_points(&pairs(3, 0)), 130);
    assert_eq!(g.scoring.seller_points(&pairs(3, 2)), 30);
}

#[test]
fn designer_tables_and_increments_apply() {
    let g = game_with(|p| {
        p.scoring.others = [("0", -5), ("1", 5), ("2", 10)].iter().map(|(k, v)| (k.to_string(), *v)).collect();
        p.scoring.others_increment = -20;
        p.scoring.set_bonus = [("2", 1), ("3", 7)].iter().map(|(k, v)| (k.to_string(), *v)).collect();
        p.scoring.all_pigs_bonus = 0;
    });
    assert_eq!(g.scoring.other_points(&Hand::EMPTY), -5);
    assert_eq!(g.scoring.other_points(&pairs(2, 0)), 10);
    assert_eq!(g.scoring.other_points(&pairs(5, 0)), 10 - 60);
    // Sets of 2 earn 1 each, of 3 or more the last row's 7.
    assert_eq!(g.scoring.seller_points(&hand(&[(0, 2), (1, 2), (2, 3)])), 30 + 1 + 1 + 7);
}

// ---------------------------------------------------------------------------------------
// The butcher

/// Hands for butcher tests: colors and shapes spread over seats.
fn butcher_hands() -> Vec<Hand> {
    vec![
        hand(&[(0, 2), (1, 1), (20, 1)]), // red square x2, red circle, blue square
        hand(&[(2, 1), (15, 2), (6, 1)]), // red star, green square x2, orange circle
        hand(&[(5, 1)]),                  // orange square
        hand(&[(24, 2), (11, 1)]),        // blue pentagon x2, yellow circle
    ]
}

#[test]
fn butcher_on_both_dice_and_the_logo() {
    let g = standard();
    for die in [Die::Colors, Die::Shapes] {
        for face in 0..FACES {
            let mut s = table(&g, &butcher_hands());
            // Seat 1 draws the butcher as its first card.
            s.current = 1;
            to_top(&mut s, BUTCHER);
            let before = s.hands;
            let mut rng = GameRng::seed_from(seed_for_face(face));
            apply(&g, &mut s, Action::DrawPile, &mut rng);
            assert_eq!(s.phase, Phase::Butcher { dealt: false });
            assert_eq!(s.current, 1);
            {
                let view = g.view(&s, 1);
                let mut legal = Vec::new();
                g.legal_actions(&view, &mut legal);
                assert_eq!(legal, vec![Action::Roll(Die::Colors), Action::Roll(Die::Shapes)]);
            }
            apply(&g, &mut s, Action::Roll(die), &mut rng);
            let roll = s.last_roll.expect("a roll");
            assert_eq!((roll.die, roll.face, roll.seat), (die, face, 1));
            let mask = die.face_mask(face);
            let mut expected_discard = Vec::new();
            for seat in [1usize, 2, 3, 0] {
                for k in 0..KINDS as Card {
                    let taken = mask & (1 << k) != 0;
                    let c = before[seat].count(k);
                    assert_eq!(s.hands[seat].count(k), if taken { 0 } else { c }, "{die} {face}: seat {seat} pig {k}");
                    if taken {
                        expected_discard.extend(std::iter::repeat_n(k, c as usize));
                    }
                }
            }
            expected_discard.push(BUTCHER);
            assert_eq!(s.discard, expected_discard, "{die} face {face}: roller's pigs first, then turn order, butcher on top");
            if face == LOGO {
                assert_eq!(s.hands, before, "the logo takes nothing");
            }
            // The turn ended at once: seat 2 starts, nothing discarded by seat 1.
            assert_eq!((s.phase, s.current, s.round_turns), (Phase::Start, 2, 2));
            assert_eq!(s.hands[1].len(), before[1].len() - roll.lost[1] as usize);
        }
    }
}

#[test]
fn butcher_as_the_second_card_ends_the_turn_without_a_discard() {
    let g = standard();
    let mut s = table(&g, &butcher_hands());
    to_top(&mut s, BUTCHER);
    to_top(&mut s, 13); // yellow cross, drawn first
    let before = s.hands[0];
    let mut rng = GameRng::seed_from(seed_for_face(LOGO));
    apply(&g, &mut s, Action::DrawPile, &mut rng);
    assert_eq!(s.phase, Phase::SecondDraw);
    apply(&g, &mut s, Action::DrawPile, &mut rng);
    assert_eq!(s.phase, Phase::Butcher { dealt: false });
    apply(&g, &mut s, Action::Roll(Die::Shapes), &mut rng);
    assert_eq!(s.last_roll.map(|r| r.face), Some(LOGO));
    assert_eq!((s.phase, s.current), (Phase::Start, 1));
    assert_eq!(s.hands[0].len(), before.len() + 1, "kept the first card, discarded nothing");
    assert_eq!(s.discard, vec![BUTCHER]);
}

#[test]
fn never_a_butcher_from_the_discard_pile() {
    let g = standard();
    let mut s = table(&g, &butcher_hands());
    let i = s.draw.iter().position(|&c| c == BUTCHER).expect("a butcher");
    s.draw.remove(i);
    s.discard.push(BUTCHER);
    let view = g.view(&s, 0);
    assert!(!g.is_legal(&view, &Action::TakeDiscard));
    let mut legal = Vec::new();
    g.legal_actions(&view, &mut legal);
    assert_eq!(legal, vec![Action::DrawPile]);
}

#[test]
fn dealt_butchers_are_resolved_in_seat_order_before_turn_one_and_not_replaced() {
    let g = game_with(|p| {
        p.deck.base_sets = 2;
        p.deck.butchers = 30;
        p.hand_size = 4;
    });
    let mut checked = 0;
    for seed in 0..200u64 {
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        let dealt = s.butchers_held;
        let total: u8 = dealt.iter().sum();
        let mut expected_order = Vec::new();
        for (seat, &d) in dealt.iter().enumerate().take(4) {
            expected_order.extend(std::iter::repeat_n(seat as u8, d as usize));
        }
        let mut order = Vec::new();
        let mut lost = [0usize; MAX_PLAYERS];
        while let Phase::Butcher { dealt: true } = s.phase {
            assert_eq!(s.turns, 0, "no turn before the dealt butchers are resolved");
            order.push(s.current);
            let die = if seed % 2 == 0 { Die::Colors } else { Die::Shapes };
            apply(&g, &mut s, Action::Roll(die), &mut rng);
            let r = s.last_roll.expect("a roll");
            assert!(r.dealt);
            for (l, x) in lost.iter_mut().zip(r.lost) {
                *l += x as usize;
            }
        }
        assert_eq!(order, expected_order, "seed {seed}");
        assert_eq!((s.phase, s.current, s.turns), (Phase::Start, 0, 1));
        for seat in 0..4 {
            assert_eq!(s.hands[seat].len(), 4 - dealt[seat] as usize - lost[seat], "seed {seed} seat {seat}: not replaced");
        }
        assert_eq!(s.discard.iter().filter(|&&c| c == BUTCHER).count(), total as usize);
        checked += usize::from(total > 1);
    }
    assert!(checked > 20, "the seeds must exercise several dealt butchers");
}

// ---------------------------------------------------------------------------------------
// Selling, drawing, the cap, matches

#[test]
fn selling_only_at_the_start_of_a_turn_with_enough_sets() {
    let g = standard();
    let mut s = table(&g, &[pairs(3, 1)]);
    let mut rng = GameRng::seed_from(1);
    assert!(g.is_legal(&g.view(&s, 0), &Action::Sell));
    apply(&g, &mut s, Action::DrawPile, &mut rng);
    assert!(!g.is_legal(&g.view(&s, 0), &Action::Sell), "not in a turn where the player drew");
    if s.phase == Phase::SecondDraw {
        apply(&g, &mut s, Action::DrawPile, &mut rng);
    }
    if s.phase == Phase::Discard {
        assert!(!g.is_legal(&g.view(&s, 0), &Action::Sell));
    }
    let s2 = table(&g, &[pairs(2, 3)]);
    assert!(!g.is_legal(&g.view(&s2, 0), &Action::Sell), "2 sets are not enough");
    let g1 = game_with(|p| {
        p.min_sets_to_sell = 2;
        p.scoring.seller.insert("2".into(), 10);
    });
    let s3 = table(&g1, &[pairs(2, 3)]);
    assert!(g1.is_legal(&g1.view(&s3, 0), &Action::Sell));
}

#[test]
fn a_sale_scores_every_player_and_ends_the_round() {
    let g = standard();
    let hands = [
        hand(&[(0, 3), (7, 3), (12, 2), (20, 1)]),
        hand(&[(1, 2), (2, 2), (3, 2)]),
        hand(&[(4, 2), (5, 2), (6, 2), (8, 2), (9, 1)]),
        hand(&[(10, 2), (11, 2), (13, 2), (14, 2), (15, 2)]),
    ];
    let mut s = table(&g, &hands);
    let mut rng = GameRng::seed_from(1);
    apply(&g, &mut s, Action::Sell, &mut rng);
    assert_eq!(s.phase, Phase::Over);
    assert_eq!(s.end_reason, END_SOLD);
    let o = g.outcome(&s);
    assert_eq!(&o.scores[..4], &[130, 30, 0, -30]);
    assert_eq!(o.winners, 1);
    assert_eq!(o.length, 1, "the selling turn counts");
}

#[test]
fn drawing_from_the_discard_pile_twice_and_discarding_the_pig_taken() {
    let g = standard();
    let mut s = table(&g, &[pairs(1, 1)]);
    // Move two pigs from the draw pile to the discard pile.
    for pig in [9, 8] {
        let i = s.draw.iter().position(|&c| c == pig).expect("in the pile");
        s.draw.remove(i);
        s.discard.push(pig);
    }
    let mut rng = GameRng::seed_from(1);
    apply(&g, &mut s, Action::TakeDiscard, &mut rng);
    apply(&g, &mut s, Action::TakeDiscard, &mut rng);
    assert_eq!(s.phase, Phase::Discard);
    assert!(s.discard.is_empty());
    apply(&g, &mut s, Action::Discard(9), &mut rng);
    assert_eq!(s.discard, vec![9]);
    assert_eq!((s.phase, s.current), (Phase::Start, 1));
}

#[test]
fn reshuffle_rule_and_empty_piles() {
    for reshuffle in [true, false] {
        let g = game_with(|p| p.reshuffle_discard = reshuffle);
        let mut s = table(&g, &[pairs(1, 1)]);
        let cards: Vec<Card> = s.draw.drain(..).collect();
        // Park the cards in other hands and the discard pile: only 2 cards to shuffle.
        s.discard.extend_from_slice(&cards[..2]);
        for &c in &cards[2..] {
            if c == BUTCHER {
                s.butchers_held[3] += 1;
            } else {
                s.hands[3].add(c);
            }
        }
        s.phase = Phase::Start;
        // Seat 3 holding butchers is not a legal table mid-turn; check conservation only.
        let mut rng = GameRng::seed_from(3);
        let before = s.hands[0].len();
        g.apply(&mut s, 0, Action::DrawPile, &mut rng, &mut EventLog::new(false));
        if reshuffle {
            assert_eq!(s.hands[0].len() + s.discard.len() + s.draw.len(), before + 2);
            assert!(s.discard.is_empty(), "the discard pile became the draw pile");
            assert_eq!(s.draw.len(), 1);
        } else {
            assert_eq!(s.hands[0].len(), before, "an empty draw pile gives nothing");
            assert_eq!(s.discard.len(), 2);
            assert_eq!(s.phase, Phase::SecondDraw);
        }
    }
}

#[test]
fn a_round_at_the_turn_cap_scores_nothing() {
    let g = game_with(|p| {
        p.turn_cap = 7;
        p.rounds = 2;
    });
    let mut bots: Vec<_> = (0..4).map(|_| bot("threshold", &[25.0])).collect();
    let p = drive(&g, &mut bots, 9);
    assert_eq!(p.outcome.end_reason, END_CAP);
    assert_eq!(p.outcome.length, 14);
    assert_eq!(&p.outcome.scores[..4], &[0, 0, 0, 0]);
    assert_eq!(p.outcome.winners, 0b1111, "all tied");
    assert!(p.rounds.iter().all(|r| r.seller.is_none() && r.turns == 7));
}

#[test]
fn matches_rotate_the_first_seat() {
    let g = game_with(|p| {
        p.rounds = 6;
        p.players = 4;
    });
    let mut bots: Vec<_> = (0..4).map(|_| bot("threshold", &[])).collect();
    let p = drive(&g, &mut bots, 5);
    assert_eq!(p.rounds.len(), 6);
    for (i, r) in p.rounds.iter().enumerate() {
        assert_eq!((r.round, r.first_seat), (i as u32, (i % 4) as u8));
    }
    let mut first_turns = Vec::new();
    let mut expect_first = false;
    for e in &p.events {
        match e {
            Event::RoundStarts { .. } => expect_first = true,
            Event::TurnStarts { seat, turn } if expect_first => {
                assert_eq!(*turn, 1);
                first_turns.push(*seat);
                expect_first = false;
            }
            _ => {}
        }
    }
    assert_eq!(first_turns, vec![0, 1, 2, 3, 0, 1]);
    let total: Vec<i64> = (0..4).map(|t| p.rounds.iter().map(|r| r.scores[t]).sum()).collect();
    assert_eq!(&p.outcome.scores[..4], &total[..]);
    assert_eq!(p.outcome.length, p.rounds.iter().map(|r| r.turns).sum::<u32>());
}

// ---------------------------------------------------------------------------------------
// Parameters and variants

fn problems(f: impl FnOnce(&mut Params)) -> Vec<Invalid> {
    let mut p = Params::default();
    f(&mut p);
    p.check().err().unwrap_or_default()
}

#[test]
fn defaults_are_valid_and_the_standard_variant_is_rules_md() {
    assert!(Params::default().check().is_ok());
    let v = Variant::load(std::path::Path::new("variants/pig-farm/standard.toml"), &[]).expect("standard loads");
    let p: Params = v.game_params().expect("standard parses");
    assert_eq!(p, Params::default());
    assert_eq!(standard().deck.len(), 78);
}

#[test]
fn bundled_variants_load() {
    for name in ["standard", "harsh-penalty", "more-butchers", "three-rounds"] {
        let v = Variant::load(std::path::Path::new(&format!("variants/pig-farm/{name}.toml")), &[]).expect("variant loads");
        let p: Params = v.game_params().expect("variant parses");
        assert!(PigFarm::new(p).is_ok(), "{name}");
    }
}

#[test]
fn a_table_with_a_gap_is_rejected_with_its_key() {
    let bad = problems(|p| {
        p.scoring.others.remove("6");
    });
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert_eq!(bad[0].key, "scoring.others.7");
    assert!(bad[0].message.contains("gap"), "{}", bad[0].message);
    let bad = problems(|p| {
        p.scoring.set_bonus.remove("4");
    });
    assert_eq!(bad[0].key, "scoring.set_bonus.5");
}

#[test]
fn negative_and_non_numeric_set_counts_are_rejected() {
    let bad = problems(|p| {
        p.scoring.seller.insert("-1".into(), 5);
        p.scoring.others.insert("many".into(), 5);
    });
    let keys: Vec<&str> = bad.iter().map(|b| b.key.as_str()).collect();
    assert!(keys.contains(&"scoring.seller.-1"), "{bad:?}");
    assert!(keys.contains(&"scoring.others.many"), "{bad:?}");
    assert!(bad.iter().any(|b| b.message.contains("negative")));
    let bad = problems(|p| {
        p.scoring.set_bonus.insert("1".into(), 5);
    });
    assert_eq!(bad[0].key, "scoring.set_bonus.1");
}

#[test]
fn impossible_decks_and_ranges_are_rejected() {
    let bad = problems(|p| {
        p.players = 8;
        p.hand_size = 10;
    });
    assert_eq!(bad[0].key, "deck");
    assert!(bad[0].message.contains("80"), "{}", bad[0].message);
    assert_eq!(problems(|p| p.deck.base_sets = 1)[0].key, "deck.base_sets");
    assert_eq!(problems(|p| p.players = 1)[0].key, "players");
    assert_eq!(problems(|p| p.turn_cap = 0)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.rounds = 0)[0].key, "rounds");
    assert_eq!(problems(|p| p.min_sets_to_sell = 0)[0].key, "min_sets_to_sell");
    let bad = problems(|p| p.min_sets_to_sell = 2);
    assert_eq!(bad[0].key, "scoring.seller");
    assert!(bad[0].message.contains("min_sets_to_sell"));
    assert_eq!(problems(|p| p.scoring.all_pigs_bonus = i64::MAX)[0].key, "scoring.all_pigs_bonus");
}

#[test]
fn unknown_and_negative_keys_in_toml_name_the_key() {
    let path = std::path::Path::new("test.toml");
    let v = Variant::from_toml_str(path, "game = \"pig-farm\"\n[deck]\nbutcher = 3\n").expect("parses");
    let e = v.game_params::<Params>().expect_err("unknown key").to_string();
    assert!(e.contains("deck.butcher") && e.contains("butchers"), "{e}");
    let v = Variant::from_toml_str(path, "game = \"pig-farm\"\nrounds = -2\n").expect("parses");
    let e = v.game_params::<Params>().expect_err("negative").to_string();
    assert!(e.contains("rounds") && e.contains("negative"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Bots

#[test]
fn threshold_discards_the_first_unmatched_pig_else_from_its_largest_set() {
    assert_eq!(threshold_discard(&hand(&[(0, 2), (3, 1), (7, 1)])), 3);
    assert_eq!(threshold_discard(&hand(&[(0, 2), (4, 3), (9, 3), (12, 2)])), 4);
    assert_eq!(threshold_discard(&hand(&[(6, 1)])), 6);
}

#[test]
fn threshold_rolls_the_die_that_can_take_fewer_pigs() {
    // Red square x2, red circle, blue square: one color takes 3, one shape takes 3: tie.
    assert_eq!(threshold_die(&hand(&[(0, 2), (1, 1), (20, 1)])), Die::Colors);
    // Three red pigs of different shapes: a color takes 3, a shape 1.
    assert_eq!(threshold_die(&hand(&[(0, 1), (1, 1), (2, 1)])), Die::Shapes);
    // Three squares of different colors: a shape takes 3, a color 1.
    assert_eq!(threshold_die(&hand(&[(0, 1), (5, 1), (10, 1)])), Die::Colors);
}

#[test]
fn threshold_sells_at_max_of_sell_at_and_min_sets_and_draws_to_match() {
    let g = standard();
    let mut rng = GameRng::seed_from(1);
    let mut b = bot("threshold", &[2.0]);
    let s = table(&g, &[pairs(2, 1)]);
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::DrawPile, "2 sets < min_sets_to_sell 3");
    let s = table(&g, &[pairs(3, 1)]);
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Sell);
    let mut b4 = bot("threshold", &[4.0]);
    assert_eq!(b4.decide(&g, &g.view(&s, 0), &mut rng), Action::DrawPile);
    // The discard top matches a pig in hand: take it; otherwise draw.
    let mut s = table(&g, &[pairs(1, 1)]);
    for (pig, want) in [(1, Action::TakeDiscard), (9, Action::DrawPile)] {
        let i = s.draw.iter().position(|&c| c == pig).expect("in the pile");
        s.draw.remove(i);
        s.discard.push(pig);
        assert_eq!(b4.decide(&g, &g.view(&s, 0), &mut rng), want, "discard top {pig}");
    }
}

#[test]
fn greedy_sells_a_big_farm_when_opponents_are_close() {
    let g = standard();
    let mut rng = GameRng::seed_from(1);
    let mut b = bot("greedy", &[]);
    b.new_game(&g, 0);
    // Opponents hold big hands (many sets likely): a 5-set farm with bonuses is sold.
    let s = table(
        &g,
        &[
            hand(&[(0, 3), (1, 3), (2, 2), (3, 2), (4, 2)]),
            hand(&[(5, 2), (6, 2), (7, 2), (8, 2), (9, 1), (10, 1)]),
            hand(&[(11, 2), (12, 2), (13, 2), (14, 2), (15, 1), (16, 1)]),
            hand(&[(17, 2), (18, 2), (19, 2), (20, 2), (21, 1), (22, 1)]),
        ],
    );
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Sell);
    // With 3 sets it loses little by waiting (a non-seller with 3 sets scores 30 too).
    let s = table(&g, &[pairs(3, 1), hand(&[(5, 1), (6, 1)]), hand(&[(7, 1), (8, 1)]), hand(&[(9, 1), (10, 1)])]);
    assert_ne!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Sell);
}

// ---------------------------------------------------------------------------------------
// Properties

fn arb_params() -> impl Strategy<Value = Params> {
    (2u32..=8, 2u32..=4, 0u32..=6, 0u32..=5, 1u32..=4, 1u32..=3, 1u32..=150, any::<bool>()).prop_map(
        |(players, base_sets, butchers, hand_size, min_sets, rounds, turn_cap, reshuffle)| {
            let mut p = Params { players, hand_size, min_sets_to_sell: min_sets, rounds, turn_cap, reshuffle_discard: reshuffle, ..Params::default() };
            p.deck.base_sets = base_sets;
            p.deck.butchers = butchers;
            // Rows for selling with fewer than 3 sets when the variant allows it.
            for k in min_sets..3 {
                p.scoring.seller.insert(k.to_string(), 0);
            }
            p
        },
    )
}

fn arb_bot() -> impl Strategy<Value = (&'static str, f64)> {
    prop_oneof![Just(("random", 0.0)), (1u32..=6).prop_map(|k| ("threshold", k as f64)), (0u32..=3).prop_map(|r| ("greedy", r as f64))]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Cards conserved, bookkeeping consistent and every choice legal after every step
    /// (through the engine's checked mode and the step-by-step driver).
    #[test]
    fn no_illegal_choice_and_cards_conserved(params in arb_params(), bots in prop::collection::vec(arb_bot(), 8), seed in any::<u64>()) {
        let g = PigFarm::new(params).expect("valid");
        let n = g.players;
        let build = |bots: &[(&str, f64)]| -> Vec<Box<dyn Bot<PigFarm>>> {
            bots[..n].iter().map(|(name, v)| if *name == "random" { bot(name, &[]) } else { bot(name, &[*v]) }).collect()
        };
        let mut engine_bots = build(&bots);
        let o = play(&g, &mut engine_bots, seed, PlayOptions { checked: true }, None, None);
        prop_assert!(o.is_ok(), "{:?}", o.err());
        let mut driven = build(&bots);
        let _ = drive(&g, &mut driven, seed);
    }

    /// Every round ends by the cap, and the match scores are the table applied to the hands
    /// held when each round was sold (nothing for a capped round).
    #[test]
    fn scores_are_the_table_applied_to_the_final_hands(params in arb_params(), bots in prop::collection::vec(arb_bot(), 8), seed in any::<u64>()) {
        let g = PigFarm::new(params).expect("valid");
        let n = g.players;
        let mut bs: Vec<Box<dyn Bot<PigFarm>>> = bots[..n].iter().map(|(name, v)| if *name == "random" { bot(name, &[]) } else { bot(name, &[*v]) }).collect();
        let p = drive(&g, &mut bs, seed);
        prop_assert_eq!(p.rounds.len() as u32, g.params.rounds);
        let mut totals = [0i64; MAX_PLAYERS];
        for r in &p.rounds {
            prop_assert!(r.turns <= g.params.turn_cap);
            match r.seller {
                None => {
                    prop_assert_eq!(r.turns, g.params.turn_cap);
                    prop_assert!(r.scores.iter().all(|&x| x == 0));
                }
                Some(w) => {
                    prop_assert!(r.hands[w as usize].sets() >= g.params.min_sets_to_sell);
                    for t in 0..n {
                        let want = reference_points(&r.hands[t], t == w as usize);
                        prop_assert_eq!(r.scores[t], want, "round {} seat {} seller {}", r.round, t, w);
                    }
                }
            }
            for (total, score) in totals.iter_mut().zip(r.scores).take(n) {
                *total += score;
            }
        }
        prop_assert_eq!(&p.outcome.scores[..n], &totals[..n]);
        prop_assert_eq!(p.outcome.length, p.rounds.iter().map(|r| r.turns).sum::<u32>());
        prop_assert!(p.outcome.length <= g.params.turn_cap * g.params.rounds);
        let capped = p.rounds.iter().any(|r| r.seller.is_none());
        prop_assert_eq!(p.outcome.end_reason, if capped { END_CAP } else { END_SOLD });
        for roll in &p.rolls {
            if roll.face == LOGO {
                prop_assert!(roll.lost.iter().all(|&l| l == 0));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Fast paths against their plain versions

/// The seller's points read from the hand's bit sets agree with the scan of the counts on
/// random hands (up to 10 of a kind, past the largest set bonus row), with the standard
/// scoring and with a bonus for every set size and a large all-pigs bonus.
#[test]
fn seller_points_matches_the_plain_scan() {
    let bonus_everywhere = game_with(|p| {
        for size in 2..=10i64 {
            p.scoring.set_bonus.insert(size.to_string(), 7 * size - 3);
        }
        p.scoring.all_pigs_bonus = 1_000;
    });
    let games = [standard(), bonus_everywhere];
    let mut rng = GameRng::seed_from(22);
    for _ in 0..20_000 {
        let mut h = Hand::EMPTY;
        for _ in 0..rng.random_range(0..40) {
            let pig: Card = rng.random_range(0..KINDS as u8);
            if h.count(pig) < 10 {
                h.add(pig);
            }
        }
        for g in &games {
            assert_eq!(g.scoring.seller_points(&h), g.scoring.seller_points_plain(&h), "{h:?}");
        }
    }
}

/// The hand's bit sets and the bit-scan discard agree with the counts on random hands built
/// by random adds, removes and culls.
#[test]
fn hand_bit_sets_and_fast_discard_match_the_counts() {
    let mut rng = GameRng::seed_from(21);
    for _ in 0..2_000 {
        let mut h = Hand::EMPTY;
        for _ in 0..rng.random_range(1..40) {
            let pig: Card = rng.random_range(0..KINDS as u8);
            match rng.random_range(0..6) {
                0 if h.count(pig) > 0 => h.remove(pig),
                1 => {
                    h.remove_all(pig);
                }
                _ => h.add(pig),
            }
            let held: u32 = (0..KINDS).filter(|&k| h.counts()[k] > 0).fold(0, |m, k| m | 1 << k);
            let singles: u32 = (0..KINDS).filter(|&k| h.counts()[k] == 1).fold(0, |m, k| m | 1 << k);
            assert_eq!((h.held(), h.singles()), (held, singles), "{h:?}");
            assert_eq!(h.kinds().collect::<Vec<_>>(), (0..KINDS as Card).filter(|&k| h.count(k) > 0).collect::<Vec<_>>());
            assert_eq!(h.pigs_in(0x155_5555), (0..KINDS).step_by(2).map(|k| h.counts()[k] as u32).sum::<u32>());
            if !h.is_empty() {
                assert_eq!(bots::threshold_discard(&h), bots::threshold_discard_plain(&h), "{h:?}");
            }
        }
    }
}

/// `threshold` says it never draws from its stream (so the simulator leaves the seats'
/// streams unseeded): its decisions leave the stream untouched.
#[test]
fn threshold_never_draws() {
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<PigFarm>>> = (0..4).map(|_| bot("threshold", &[])).collect();
    crate::engine::check_never_draws(&g, &mut bots, 200).unwrap();
}

/// `n` seats' bots from (name, value) specs, boxed as a mixed table plays them.
fn boxed_bots(specs: &[(&'static str, f64)], n: usize) -> Vec<Box<dyn Bot<PigFarm>>> {
    specs[..n].iter().map(|(name, v)| if *name == "random" { bot(name, &[]) } else { bot(name, &[*v]) }).collect()
}

/// [`crate::engine::check_play_out`] (the quick loop against the plain one from the same
/// point), as a proptest failure.
fn check_play_out<L: crate::engine::Lineup<PigFarm> + ?Sized>(g: &PigFarm, a: &mut L, b: &mut L, seed: u64, steps: usize) -> Result<(), TestCaseError> {
    crate::engine::check_play_out(g, a, b, seed, steps).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The game's own loop (`turns.rs`: a turn's decisions as straight-line code) plays the same
    /// game as the engine's plain loop, from the deal or from any later decision (a second
    /// draw, a discard, a butcher to roll for), for mixed boxed tables (random, greedy,
    /// threshold) and for a uniform threshold table (the bot inlined into the loop).
    #[test]
    fn play_out_is_the_plain_loop(params in arb_params(), bots in prop::collection::vec(arb_bot(), 8), seed in any::<u64>(), steps in 0usize..80, sell_at in 1u32..=6) {
        let g = PigFarm::new(params).expect("valid");
        let n = g.players;
        check_play_out(&g, &mut boxed_bots(&bots, n), &mut boxed_bots(&bots, n), seed, steps)?;
        let uniform = || crate::engine::Uniform::new((0..n).map(|_| ThresholdBot::new(sell_at)).collect());
        check_play_out(&g, &mut uniform(), &mut uniform(), seed, steps)?;
    }
}

/// The quick loop plays the bundled standard variant's games as the plain loop does, from
/// the deal, for its bench table (`threshold` on every seat, inlined).
#[test]
fn play_out_is_the_plain_loop_on_the_standard_table() {
    let g = standard();
    for seed in 0..2_000u64 {
        let uniform = || crate::engine::Uniform::new((0..g.players).map(|_| ThresholdBot::new(3)).collect());
        check_play_out(&g, &mut uniform(), &mut uniform(), seed, 0).expect("the same game");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// A butcher's cull without branches (`rules::cull_hand`: each kind of the face written
    /// as a block, the pile keeping as many as were held) leaves the same hand, `known`,
    /// discard pile (its order included) and loss as the plain cull (`cull_hand_plain`: the
    /// kinds held, one push per pig), for any hand up to 10 of a kind (the most a variant
    /// can deal), any face of either die, and discard piles at and below their capacity.
    #[test]
    fn cull_hand_matches_the_plain_cull(
        counts in prop::collection::vec(0u8..=10, KINDS),
        known in prop::collection::vec(0u8..=10, KINDS),
        discard in prop::collection::vec(0u8..=25, 0..80),
        colors in any::<bool>(),
        face in 0u8..5,
        t in 0usize..4,
    ) {
        let g = standard();
        let mut s = g.deal(&mut GameRng::seed_from(1), &mut EventLog::new(false));
        let mut h = Hand::EMPTY;
        for (k, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                h.add(k as Card);
            }
            s.known[t][k] = known[k].min(c);
        }
        s.hands[t] = h;
        s.discard = discard;
        let mask = if colors { Die::Colors } else { Die::Shapes }.face_mask(face);
        let mut plain = s.clone();
        let lost = rules::cull_hand(&mut s, t, mask);
        let plain_lost = rules::cull_hand_plain(&mut plain, t, mask);
        prop_assert_eq!(lost, plain_lost);
        prop_assert_eq!(format!("{s:?}"), format!("{plain:?}"));
    }
}
