//! Rainbow Rush tests: the rulebook's sabotage example (player A needs one card before, two
//! after, and cannot take the replaced card back), the draw and its locks, the three
//! options, the full row, the reshuffle, the win check and the cap, parameter checks, the
//! exact `builder` and the `saboteur`, hidden information, and property tests (every card
//! accounted for, every choice legal, locks respected, every game ends) for every bot.

use proptest::prelude::*;

use super::*;
use crate::engine::{Bot, EventLog, Game, GameEvent, GameRng, Outcome, PlayOptions, SeedFrom, ToMove, all_bots, game_seed, play};
use crate::games::chroma::{ALL_COLORS, ALL_SHAPES, COLOR_WILD, SHAPE_WILD};
use crate::variant::Variant;

// ---------------------------------------------------------------------------------------
// Helpers

const RED: Card = 0;
const ORANGE: Card = 1;
const YELLOW: Card = 2;
const GREEN: Card = 3;
const BLUE: Card = 4;
const SQUARE: Card = 0;
const CIRCLE: Card = 1;
const STAR: Card = 2;
const CROSS: Card = 3;
const PENTAGON: Card = 4;

/// The base card of `color` and `shape`.
fn card(color: Card, shape: Card) -> Card {
    color * 5 + shape
}

fn game_with(f: impl FnOnce(&mut Params)) -> RainbowRush {
    let mut p = Params::default();
    f(&mut p);
    RainbowRush::new(p).expect("valid test parameters")
}

fn standard() -> RainbowRush {
    game_with(|_| {})
}

fn bot(name: &str, values: &[f64]) -> Box<dyn Bot<RainbowRush>> {
    let g = standard();
    let info = all_bots(&g).into_iter().find(|b| b.name == name).expect("bot exists");
    let mut v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    for (i, x) in values.iter().enumerate() {
        v[i] = *x;
    }
    (info.build)(&g, &v)
}

/// A table with the given hands and rows (seats beyond the lists are empty); every other
/// card lies in the draw pile in canonical order (so the last one is drawn first); seat 0
/// starts turn 1.
fn table(g: &RainbowRush, hands: &[&[Card]], rows: &[&[Card]]) -> State {
    let mut s = g.deal(&mut GameRng::seed_from(0), &mut EventLog::new(false));
    let mut left = g.copies;
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    s.rows = [Row::EMPTY; MAX_PLAYERS];
    for (seat, h) in hands.iter().enumerate() {
        s.hands[seat] = Hand::of(h);
        for &c in h.iter() {
            left[c as usize] -= 1;
        }
    }
    for (seat, r) in rows.iter().enumerate() {
        s.rows[seat] = Row::of(r);
        for &c in r.iter() {
            left[c as usize] -= 1;
        }
    }
    s.draw.clear();
    for (k, &n) in left.iter().enumerate() {
        s.draw.extend(std::iter::repeat_n(k as Card, n as usize));
    }
    s.discard.clear();
    s.locks.clear();
    s.current = 0;
    s.phase = Phase::Draw;
    s.turn = 1;
    g.check_invariants(&s).expect("test table is consistent");
    s
}

/// Moves one copy of `c` from the draw pile onto the discard pile (unlocked).
fn to_discard(s: &mut State, c: Card) {
    let i = s.draw.iter().position(|&x| x == c).expect("card in the draw pile");
    s.draw.remove(i);
    s.discard.push(c);
    s.locks.push(0);
}

/// Moves one copy of `c` inside the draw pile to its top.
fn to_top(s: &mut State, c: Card) {
    let i = s.draw.iter().position(|&x| x == c).expect("card in the draw pile");
    let x = s.draw.remove(i);
    s.draw.push(x);
}

fn legal(g: &RainbowRush, s: &State) -> Vec<Action> {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("game over") };
    let mut out = Vec::new();
    g.legal_actions(&g.view(s, seat), &mut out);
    out
}

fn apply(g: &RainbowRush, s: &mut State, action: Action) {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("game over") };
    let view = g.view(s, seat);
    assert!(g.is_legal(&view, &action), "{action:?} must be legal in {:?}", view.decision);
    let mut rng = GameRng::seed_from(99);
    g.apply(s, seat, action, &mut rng, &mut EventLog::new(false));
    g.check_invariants(s).expect("invariants hold");
}

fn is_legal(g: &RainbowRush, s: &State, action: Action) -> bool {
    let ToMove::Seat(seat) = g.to_move(s) else { return false };
    g.is_legal(&g.view(s, seat), &action)
}

fn decide(g: &RainbowRush, s: &State, b: &mut Box<dyn Bot<RainbowRush>>) -> Action {
    let ToMove::Seat(seat) = g.to_move(s) else { panic!("game over") };
    b.decide(g, &g.view(s, seat), &mut GameRng::seed_from(1))
}

/// Plays one game step by step with the given bots, checking every choice against
/// `legal_actions` and `is_legal`, the invariants after every step, that a taken discard
/// top was neither a wild nor locked, and that the game ends within its cap.
fn drive(g: &RainbowRush, bots: &mut [Box<dyn Bot<RainbowRush>>], seed: u64) -> (Outcome, State, Vec<Event>) {
    let mut rng = GameRng::seed_from(seed);
    let mut bot_rng = GameRng::seed_from(seed ^ 0x5eed);
    let mut log = EventLog::new(true);
    let mut s = g.deal(&mut rng, &mut log);
    for (seat, b) in bots.iter_mut().enumerate() {
        b.new_game(g, seat);
    }
    let mut events = Vec::new();
    let mut legal = Vec::new();
    let mut steps = 0u64;
    loop {
        for e in log.drain() {
            for (seat, b) in bots.iter_mut().enumerate() {
                if b.listens() && e.visible_to(seat) {
                    b.observe(seat, &e);
                }
            }
            events.push(e);
        }
        let ToMove::Seat(seat) = g.to_move(&s) else { break };
        let view = g.view(&s, seat);
        let action = bots[seat].decide(g, &view, &mut bot_rng);
        legal.clear();
        g.legal_actions(&view, &mut legal);
        assert!(legal.contains(&action), "seat {seat} chose {action:?}, legal: {legal:?}");
        for a in &legal {
            assert!(g.is_legal(&view, a), "{a:?} listed but not legal");
        }
        if action == Action::TakeDiscard {
            let (&top, &lock) = (s.discard.last().expect("a top"), s.locks.last().expect("its lock"));
            assert!(!crate::games::chroma::is_wild(top) && lock < s.turn, "took a wild or a locked card");
        }
        g.apply(&mut s, seat, action, &mut rng, &mut log);
        g.check_invariants(&s).unwrap_or_else(|e| panic!("step {steps}: {e}"));
        steps += 1;
        assert!(steps <= 2 * g.params.turn_cap as u64 + 2, "the game did not end within its cap");
    }
    events.extend(log.drain());
    (g.outcome(&s), s, events)
}

// ---------------------------------------------------------------------------------------
// The rulebook's example

/// Player A (seat 2) collects stars: yellow, blue, red, orange stars and a blue square.
const A_ROW: [Card; 5] = [card_c(YELLOW, STAR), card_c(BLUE, STAR), card_c(RED, STAR), card_c(ORANGE, STAR), card_c(BLUE, SQUARE)];

const fn card_c(color: Card, shape: Card) -> Card {
    color * 5 + shape
}

#[test]
fn rulebook_sabotage_example_one_card_to_win_before_two_after() {
    let g = standard();
    let yellow_wild = COLOR_WILD + YELLOW;
    // Player B is seat 1 and holds the yellow colors card; player A is seat 2.
    let mut s = table(&g, &[&[], &[yellow_wild], &[]], &[&[], &[], &A_ROW]);
    assert_eq!(need(s.rows[2].cards()), 1, "all player A needs is a green star");
    // With a green star in place of the blue square, A would hold a rainbow of stars.
    let mut won = s.rows[2];
    won.replace(4, card(GREEN, STAR));
    assert!(won.cover().is_rainbow());
    s.current = 1;
    s.phase = Phase::Play;
    apply(&g, &mut s, Action::Sabotage { wild: yellow_wild, target: 2, slot: 1 });
    assert_eq!(
        s.rows[2].cards(),
        &[card(YELLOW, STAR), yellow_wild, card(RED, STAR), card(ORANGE, STAR), card(BLUE, SQUARE)],
        "the wild takes the blue star's place"
    );
    assert_eq!(need(s.rows[2].cards()), 2, "two yellow cards: A now needs two cards");
    assert_eq!(s.discard, vec![card(BLUE, STAR)]);
    assert_eq!(s.last_sabotage.map(|r| (r.need_before, r.need_after)), Some((1, 2)));
    // Player A's turn comes next: the blue star may not be picked up.
    assert_eq!((s.current, s.turn, s.phase), (2, 2, Phase::Draw));
    assert!(!is_legal(&g, &s, Action::TakeDiscard), "the Important Rule");
    assert_eq!(legal(&g, &s), vec![Action::DrawPile]);
}

#[test]
fn a_replaced_card_may_be_taken_from_the_second_turn_after() {
    for lock_turns in [0u32, 1, 2, 3] {
        let g = game_with(|p| {
            p.lock_turns = lock_turns;
            p.players = 2;
        });
        let wild = COLOR_WILD + RED;
        let mut s = table(&g, &[&[wild, card(RED, CIRCLE)], &[card(RED, SQUARE)]], &[&[], &A_ROW]);
        s.phase = Phase::Play;
        apply(&g, &mut s, Action::Sabotage { wild, target: 1, slot: 4 });
        assert_eq!(s.discard, vec![card(BLUE, SQUARE)]);
        assert_eq!(s.locks, vec![if lock_turns > 0 { 1 + lock_turns } else { 0 }]);
        for turn in 2..10 {
            s.turn = turn;
            s.current = (turn % 2) as u8;
            assert_eq!(is_legal(&g, &s, Action::TakeDiscard), turn >= 2 + lock_turns, "lock_turns {lock_turns}, turn {turn}");
        }
    }
}

#[test]
fn the_lock_belongs_to_the_card_when_it_resurfaces() {
    let g = game_with(|p| {
        p.lock_turns = 3;
        p.players = 2;
        p.row_size = 7;
    });
    let wild = ALL_COLORS;
    let mut s = table(&g, &[&[wild], &[card(RED, SQUARE)]], &[&[], &A_ROW]);
    s.phase = Phase::Play;
    apply(&g, &mut s, Action::Sabotage { wild, target: 1, slot: 0 });
    // Turn 2: seat 1 draws and discards a card onto the locked yellow star.
    to_top(&mut s, card(GREEN, CIRCLE));
    apply(&g, &mut s, Action::DrawPile);
    apply(&g, &mut s, Action::Discard(card(GREEN, CIRCLE)));
    // Turn 3: seat 0 takes that card: the yellow star is on top again, still locked.
    apply(&g, &mut s, Action::TakeDiscard);
    apply(&g, &mut s, Action::Add(card(GREEN, CIRCLE)));
    assert_eq!(s.discard, vec![card(YELLOW, STAR)]);
    assert_eq!(s.turn, 4);
    assert!(!is_legal(&g, &s, Action::TakeDiscard), "locked through turn 1 + 3");
    apply(&g, &mut s, Action::DrawPile);
    apply(&g, &mut s, Action::Add(card(RED, SQUARE)));
    assert_eq!(s.turn, 5);
    assert!(is_legal(&g, &s, Action::TakeDiscard), "free from turn 5");
}

// ---------------------------------------------------------------------------------------
// Drawing

#[test]
fn a_wild_is_never_taken_from_the_discard_pile() {
    let g = standard();
    for wild in COLOR_WILD..=ALL_SHAPES {
        let mut s = table(&g, &[&[card(RED, SQUARE)]], &[]);
        to_discard(&mut s, wild);
        assert!(!is_legal(&g, &s, Action::TakeDiscard), "wild {wild}");
        assert_eq!(legal(&g, &s), vec![Action::DrawPile]);
    }
    let mut s = table(&g, &[&[card(RED, SQUARE)]], &[]);
    assert!(!is_legal(&g, &s, Action::TakeDiscard), "an empty discard pile");
    to_discard(&mut s, card(BLUE, CROSS));
    assert_eq!(legal(&g, &s), vec![Action::DrawPile, Action::TakeDiscard]);
    apply(&g, &mut s, Action::TakeDiscard);
    assert_eq!(s.hands[0].count(card(BLUE, CROSS)), 1);
    assert!(s.discard.is_empty());
    assert_eq!(s.phase, Phase::Play);
}

#[test]
fn an_empty_draw_pile_is_refilled_from_the_discard_pile_but_its_top() {
    let g = standard();
    let mut s = table(&g, &[&[card(RED, SQUARE)]], &[]);
    // Every card of the draw pile but three goes to seat 3's row is not possible (5 max):
    // park them in the discard pile; the top is a locked card.
    let rest: Vec<Card> = s.draw.drain(..).collect();
    for &c in &rest {
        s.discard.push(c);
        s.locks.push(0);
    }
    *s.locks.last_mut().expect("a top") = 2;
    let top = *s.discard.last().expect("a top");
    let before = s.discard.len();
    let mut rng = GameRng::seed_from(5);
    g.apply(&mut s, 0, Action::DrawPile, &mut rng, &mut EventLog::new(false));
    g.check_invariants(&s).expect("conserved");
    assert_eq!(s.discard, vec![top], "the top card stays");
    assert_eq!(s.locks, vec![2], "with its lock");
    assert_eq!(s.draw.len(), before - 2, "the rest became the draw pile, one card drawn");
    assert_eq!(s.hands[0].len(), 2);
}

#[test]
fn without_reshuffle_or_cards_the_draw_gives_nothing_and_an_empty_hand_passes() {
    for reshuffle in [true, false] {
        let g = game_with(|p| p.reshuffle_discard = reshuffle);
        let mut s = table(&g, &[&[]], &[]);
        let rest: Vec<Card> = s.draw.drain(..).collect();
        // One card in the discard pile only: nothing to reshuffle under it.
        s.discard.push(rest[0]);
        s.locks.push(0);
        for &c in &rest[1..] {
            s.hands[3].add(c);
        }
        s.current = 0;
        let mut rng = GameRng::seed_from(5);
        g.apply(&mut s, 0, Action::DrawPile, &mut rng, &mut EventLog::new(false));
        assert!(s.hands[0].is_empty(), "nothing to draw");
        assert_eq!((s.current, s.turn, s.phase), (1, 2, Phase::Draw), "seat 0 passed; the turn counted");
    }
    let g = game_with(|p| p.reshuffle_discard = false);
    let mut s = table(&g, &[&[card(RED, SQUARE)]], &[]);
    let rest: Vec<Card> = s.draw.drain(..).collect();
    for &c in &rest {
        s.discard.push(c);
        s.locks.push(0);
    }
    let mut rng = GameRng::seed_from(5);
    g.apply(&mut s, 0, Action::DrawPile, &mut rng, &mut EventLog::new(false));
    assert_eq!(s.hands[0].len(), 1, "no reshuffle: nothing drawn");
    assert_eq!(s.discard.len(), rest.len());
    assert_eq!(s.phase, Phase::Play, "the hand is not empty: the seat plays");
}

// ---------------------------------------------------------------------------------------
// The three options

#[test]
fn adding_to_a_full_row_moves_a_chosen_card_out_unlocked() {
    let g = standard();
    let row = [card(RED, SQUARE), card(RED, CIRCLE), card(RED, STAR), card(RED, CROSS), card(RED, PENTAGON)];
    let mut s = table(&g, &[&[card(BLUE, STAR)]], &[&row]);
    apply(&g, &mut s, Action::DrawPile);
    assert!(!is_legal(&g, &s, Action::Add(card(BLUE, STAR))), "the row is full");
    assert!(!is_legal(&g, &s, Action::Replace { card: card(BLUE, STAR), slot: 5 }));
    let replaces = legal(&g, &s).iter().filter(|a| matches!(a, Action::Replace { card: c, .. } if *c == card(BLUE, STAR))).count();
    assert_eq!(replaces, 5, "any of the five row cards may leave");
    apply(&g, &mut s, Action::Replace { card: card(BLUE, STAR), slot: 1 });
    assert_eq!(s.rows[0].cards(), &[card(RED, SQUARE), card(RED, STAR), card(RED, CROSS), card(RED, PENTAGON), card(BLUE, STAR)]);
    assert_eq!(s.discard, vec![card(RED, CIRCLE)]);
    assert_eq!(s.locks, vec![0]);
    // The next seat may take the card moved out at once.
    assert!(is_legal(&g, &s, Action::TakeDiscard));
}

#[test]
fn a_wild_may_be_added_to_the_own_row_and_a_card_discarded() {
    let g = standard();
    let mut s = table(&g, &[&[ALL_SHAPES, card(GREEN, CROSS)]], &[&[card(RED, SQUARE)]]);
    apply(&g, &mut s, Action::DrawPile);
    apply(&g, &mut s, Action::Add(ALL_SHAPES));
    assert_eq!(s.rows[0].cards(), &[card(RED, SQUARE), ALL_SHAPES]);
    s.current = 0;
    s.phase = Phase::Play;
    apply(&g, &mut s, Action::Discard(card(GREEN, CROSS)));
    assert_eq!(s.discard.last(), Some(&card(GREEN, CROSS)));
    assert_eq!(s.locks.last(), Some(&0));
}

#[test]
fn sabotage_needs_a_wild_an_opponent_and_a_card_to_replace() {
    let g = standard();
    let mut s = table(&g, &[&[COLOR_WILD, card(RED, SQUARE)]], &[&[card(RED, CIRCLE)], &[card(BLUE, CIRCLE)], &[]]);
    s.phase = Phase::Play;
    assert!(!is_legal(&g, &s, Action::Sabotage { wild: card(RED, SQUARE), target: 1, slot: 0 }), "not a wild");
    assert!(!is_legal(&g, &s, Action::Sabotage { wild: COLOR_WILD, target: 0, slot: 0 }), "not the own row");
    assert!(!is_legal(&g, &s, Action::Sabotage { wild: COLOR_WILD, target: 2, slot: 0 }), "an empty row");
    assert!(!is_legal(&g, &s, Action::Sabotage { wild: COLOR_WILD, target: 1, slot: 1 }), "no such card");
    assert!(!is_legal(&g, &s, Action::Sabotage { wild: SHAPE_WILD, target: 1, slot: 0 }), "not held");
    assert!(is_legal(&g, &s, Action::Sabotage { wild: COLOR_WILD, target: 1, slot: 0 }));
    let sabotages: Vec<Action> = legal(&g, &s).into_iter().filter(|a| matches!(a, Action::Sabotage { .. })).collect();
    assert_eq!(sabotages, vec![Action::Sabotage { wild: COLOR_WILD, target: 1, slot: 0 }]);
    let off = game_with(|p| p.sabotage = false);
    let mut s2 = table(&off, &[&[COLOR_WILD, card(RED, SQUARE)]], &[&[], &[card(BLUE, CIRCLE)]]);
    s2.phase = Phase::Play;
    assert!(!is_legal(&off, &s2, Action::Sabotage { wild: COLOR_WILD, target: 1, slot: 0 }), "sabotage = false");
    assert!(legal(&off, &s2).iter().all(|a| !matches!(a, Action::Sabotage { .. })));
}

// ---------------------------------------------------------------------------------------
// Winning and the cap

#[test]
fn a_rainbow_wins_at_the_end_of_the_turn() {
    let g = standard();
    let row = [card(RED, CROSS), card(ORANGE, CROSS), COLOR_WILD + YELLOW, card(BLUE, CROSS)];
    let mut s = table(&g, &[&[SHAPE_WILD + CROSS]], &[&row]);
    apply(&g, &mut s, Action::DrawPile);
    apply(&g, &mut s, Action::Add(SHAPE_WILD + CROSS));
    assert_eq!(s.phase, Phase::Over);
    let o = g.outcome(&s);
    assert_eq!((o.winners, o.end_reason, o.length), (1, END_RAINBOW, 1));
    assert_eq!(o.scores[0], 5);
}

#[test]
fn five_of_a_longer_row_win() {
    let g = game_with(|p| p.row_size = 7);
    let row = [card(RED, PENTAGON), card(GREEN, SQUARE), card(ORANGE, PENTAGON), card(YELLOW, PENTAGON), card(GREEN, PENTAGON)];
    let mut s = table(&g, &[&[card(BLUE, PENTAGON)]], &[&row]);
    apply(&g, &mut s, Action::DrawPile);
    assert!(is_legal(&g, &s, Action::Add(card(BLUE, PENTAGON))), "6 of 7 slots");
    apply(&g, &mut s, Action::Add(card(BLUE, PENTAGON)));
    assert_eq!(s.winner, Some(0));
}

#[test]
fn a_wild_that_completes_the_victims_rainbow_makes_it_win_on_the_saboteurs_turn() {
    let g = standard();
    // Seat 2's row lacks a green circle; its fifth card is useless. Seat 0 replaces it with
    // the green wild (a poor sabotage, but legal).
    let row = [card(RED, CIRCLE), card(ORANGE, CIRCLE), card(YELLOW, CIRCLE), card(BLUE, CIRCLE), card(BLUE, SQUARE)];
    let mut s = table(&g, &[&[COLOR_WILD + GREEN]], &[&[], &[], &row]);
    s.phase = Phase::Play;
    apply(&g, &mut s, Action::Sabotage { wild: COLOR_WILD + GREEN, target: 2, slot: 4 });
    assert_eq!((s.phase, s.winner, s.current), (Phase::Over, Some(2), 0));
    assert_eq!(g.outcome(&s).winners, 0b100);
}

#[test]
fn the_cap_ends_the_game_with_no_winner() {
    let g = game_with(|p| {
        p.turn_cap = 9;
        p.deck.colors_sets = 0;
        p.deck.shapes_sets = 0;
    });
    let mut bots: Vec<_> = (0..4).map(|_| bot("random", &[])).collect();
    let mut capped = 0;
    for seed in 0..40 {
        let (o, s, events) = drive(&g, &mut bots, seed);
        if o.end_reason == END_CAP {
            capped += 1;
            assert_eq!((o.length, o.winners, s.turn), (9, 0, 9));
            assert!(matches!(events.last(), Some(Event::Capped { turns: 9 })));
        } else {
            assert_eq!(o.winners.count_ones(), 1);
        }
    }
    assert!(capped > 30, "nine random turns rarely build a rainbow");
}

#[test]
fn turns_count_every_seat_and_the_length_is_turns_played() {
    let g = standard();
    let mut bots: Vec<_> = (0..4).map(|_| bot("builder", &[])).collect();
    let (o, s, events) = drive(&g, &mut bots, 3);
    let starts: Vec<(u32, u8)> = events.iter().filter_map(|e| if let Event::TurnStarts { turn, seat } = e { Some((*turn, *seat)) } else { None }).collect();
    assert_eq!(starts.len() as u32, o.length);
    for (i, &(turn, seat)) in starts.iter().enumerate() {
        assert_eq!((turn, seat as usize), (i as u32 + 1, i % 4));
    }
    assert_eq!(s.turn, o.length);
}

// ---------------------------------------------------------------------------------------
// Parameters and variants

fn problems(f: impl FnOnce(&mut Params)) -> Vec<Invalid> {
    let mut p = Params::default();
    f(&mut p);
    p.check().err().unwrap_or_default()
}

#[test]
fn defaults_are_rules_md_and_the_standard_variant() {
    assert!(Params::default().check().is_ok());
    assert_eq!(standard().deck.len(), 87);
    let v = Variant::load(std::path::Path::new("variants/rainbow-rush/standard.toml"), &[]).expect("standard loads");
    let p: Params = v.game_params().expect("standard parses");
    assert_eq!(p, Params::default());
}

#[test]
fn bundled_variants_load() {
    let dir = std::path::Path::new("variants/rainbow-rush");
    let mut n = 0;
    for f in std::fs::read_dir(dir).expect("variants folder") {
        let path = f.expect("entry").path();
        let v = Variant::load(&path, &[]).expect("variant loads");
        let p: Params = v.game_params().expect("variant parses");
        assert!(RainbowRush::new(p).is_ok(), "{}", path.display());
        n += 1;
    }
    assert!(n >= 3, "standard plus at least two designer variants");
}

#[test]
fn out_of_range_keys_are_rejected_with_their_key() {
    assert_eq!(problems(|p| p.players = 1)[0].key, "players");
    assert_eq!(problems(|p| p.players = 9)[0].key, "players");
    assert_eq!(problems(|p| p.row_size = 4)[0].key, "row_size");
    assert_eq!(problems(|p| p.row_size = 13)[0].key, "row_size");
    assert_eq!(problems(|p| p.deal = 21)[0].key, "deal");
    assert_eq!(problems(|p| p.turn_cap = 0)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.turn_cap = 100_001)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.lock_turns = 1001)[0].key, "lock_turns");
    assert_eq!(problems(|p| p.deck.base_sets = 11)[0].key, "deck.base_sets");
    assert_eq!(problems(|p| p.deck.counts.all_colors = Some(21))[0].key, "deck.counts.all_colors");
    let bad = problems(|p| p.deck.action_sets = 1);
    assert_eq!(bad[0].key, "deck.action_sets");
    assert!(bad[0].message.contains("no action cards"), "{}", bad[0].message);
    assert_eq!(problems(|p| p.deck.counts.skip = Some(2))[0].key, "deck.counts.skip");
    let bad = problems(|p| {
        p.deck.base_sets = 0;
        p.deck.colors_sets = 0;
        p.deck.shapes_sets = 1;
        p.players = 8;
    });
    assert_eq!(bad[0].key, "deck");
    assert!(bad[0].message.contains("24"), "{}", bad[0].message);
    assert!(problems(|p| p.deck.counts.skip = Some(0)).is_empty());
}

#[test]
fn unknown_keys_in_toml_name_the_key() {
    let path = std::path::Path::new("test.toml");
    let v = Variant::from_toml_str(path, "game = \"rainbow-rush\"\nrow = 6\n").expect("parses");
    let e = v.game_params::<Params>().expect_err("unknown key").to_string();
    assert!(e.contains("row") && e.contains("row_size"), "{e}");
    let v = Variant::from_toml_str(path, "game = \"rainbow-rush\"\nlock_turns = -1\n").expect("parses");
    assert!(v.game_params::<Params>().is_err());
}

// ---------------------------------------------------------------------------------------
// builder

fn builder_play(g: &RainbowRush, hand: &[Card], row: &[Card]) -> Action {
    builder_choice(&Row::of(row), &Hand::of(hand), g.row_size())
}

#[test]
fn builder_targets_the_shape_its_row_covers_best() {
    // Row: two circles, one star; hand: three stars. Circles win on the row.
    let row = Row::of(&[card(RED, CIRCLE), card(BLUE, CIRCLE), card(RED, STAR)]);
    let hand = Hand::of(&[card(ORANGE, STAR), card(YELLOW, STAR), card(GREEN, STAR)]);
    assert_eq!(target_shape(row.cover(), hand.add_to(row.cover())), CIRCLE as usize);
    // A tie on the row goes to the higher coverage of row + hand.
    let row = Row::of(&[card(RED, CIRCLE), card(RED, STAR)]);
    assert_eq!(target_shape(row.cover(), hand.add_to(row.cover())), STAR as usize);
    // A full tie goes to canonical order.
    let row = Row::of(&[card(RED, CROSS), card(RED, STAR)]);
    let hand = Hand::of(&[card(BLUE, CROSS), card(BLUE, STAR)]);
    assert_eq!(target_shape(row.cover(), hand.add_to(row.cover())), STAR as usize);
    assert_eq!(target_shape(Cover::EMPTY, Cover::EMPTY), SQUARE as usize);
}

#[test]
fn builder_takes_the_discard_top_only_when_it_raises_coverage() {
    let row = Row::of(&[card(RED, STAR), card(BLUE, STAR)]);
    let hand = Hand::of(&[card(GREEN, STAR), card(RED, CIRCLE), card(RED, SQUARE)]);
    assert_eq!(builder_draw(&row, &hand, Some(card(YELLOW, STAR))), Action::TakeDiscard);
    assert_eq!(builder_draw(&row, &hand, Some(card(GREEN, STAR))), Action::DrawPile, "green already covered by the hand");
    assert_eq!(builder_draw(&row, &hand, Some(card(YELLOW, CIRCLE))), Action::DrawPile, "not the target shape");
    assert_eq!(builder_draw(&row, &hand, None), Action::DrawPile);
}

#[test]
fn builder_adds_the_first_card_that_raises_coverage() {
    let g = standard();
    // Target stars (the row has 2). Hand in canonical order: red square, orange star,
    // yellow star: the orange star is the first that raises coverage.
    let row = [card(RED, STAR), card(BLUE, STAR)];
    let hand = [card(YELLOW, STAR), card(RED, SQUARE), card(ORANGE, STAR)];
    assert_eq!(builder_play(&g, &hand, &row), Action::Add(card(ORANGE, STAR)));
    // A wild raises it too, but comes later in canonical order.
    assert_eq!(builder_play(&g, &[ALL_COLORS, card(GREEN, STAR)], &row), Action::Add(card(GREEN, STAR)));
    assert_eq!(builder_play(&g, &[ALL_COLORS, card(GREEN, SQUARE)], &row), Action::Add(ALL_COLORS));
}

#[test]
fn builder_replaces_the_first_row_card_that_lets_coverage_rise() {
    let g = standard();
    // The rulebook's player A, holding the green star: the blue square makes way.
    assert_eq!(builder_play(&g, &[card(GREEN, STAR)], &A_ROW), Action::Replace { card: card(GREEN, STAR), slot: 4 });
    // Two useless cards in the row: the first in row order leaves.
    let row = [card(RED, STAR), card(GREEN, SQUARE), card(ORANGE, STAR), card(BLUE, CIRCLE), card(YELLOW, STAR)];
    assert_eq!(builder_play(&g, &[card(RED, SQUARE), card(BLUE, STAR)], &row), Action::Replace { card: card(BLUE, STAR), slot: 1 });
    // A duplicate color in the row: replacing either copy raises coverage; the first leaves.
    let row = [card(RED, STAR), COLOR_WILD + RED, card(ORANGE, STAR), card(YELLOW, STAR), card(GREEN, STAR)];
    assert_eq!(builder_play(&g, &[card(BLUE, STAR)], &row), Action::Replace { card: card(BLUE, STAR), slot: 0 });
}

#[test]
fn builder_discards_the_first_card_it_does_not_need_else_the_last() {
    let g = standard();
    let row = [card(RED, STAR), card(BLUE, STAR)];
    // Nothing raises the row: the first card (canonical order) whose loss keeps
    // coverage(S*, row + hand) is the red square.
    let hand = [card(RED, STAR), card(RED, SQUARE), card(GREEN, SQUARE)];
    assert_eq!(builder_play(&g, &hand, &row), Action::Discard(card(RED, SQUARE)));
    // Not full, nothing raises: with only a duplicate, that goes.
    assert_eq!(builder_play(&g, &[card(BLUE, STAR)], &row), Action::Discard(card(BLUE, STAR)));
    // A full row covering 4 stars, the hand's stars cannot help: the first goes.
    let full = [card(RED, STAR), card(ORANGE, STAR), card(YELLOW, STAR), card(GREEN, STAR), card(GREEN, STAR)];
    assert_eq!(builder_play(&g, &[card(ORANGE, STAR), card(RED, STAR)], &full), Action::Discard(card(RED, STAR)));
    // A full row of three red stars, the circle wild and the blue circle: circles (2) are
    // the target; the yellow circle replaces the first red star.
    let dup = [card(RED, STAR), card(RED, STAR), card(RED, STAR), SHAPE_WILD + CIRCLE, card(BLUE, CIRCLE)];
    assert_eq!(builder_play(&g, &[card(YELLOW, CIRCLE), card(GREEN, CIRCLE)], &dup), Action::Replace { card: card(YELLOW, CIRCLE), slot: 0 });
}

// ---------------------------------------------------------------------------------------
// saboteur

#[test]
fn saboteur_breaks_the_opponent_one_card_from_winning() {
    let g = standard();
    let yellow_wild = COLOR_WILD + YELLOW;
    // The rulebook's player B (seat 1) holds the yellow wild and two useless cards; player
    // A (seat 2) needs one card.
    let mut s = table(&g, &[&[], &[yellow_wild, card(RED, SQUARE), card(GREEN, CROSS)], &[]], &[&[], &[], &A_ROW]);
    s.current = 1;
    s.phase = Phase::Play;
    let mut b = bot("saboteur", &[]);
    let a = decide(&g, &s, &mut b);
    // Every replacement of a star by the yellow wild leaves coverage 3 except the yellow
    // star's (the wild covers yellow again) and the blue square's: the first star that
    // sets A back is the blue star (slot 1, the yellow star in slot 0 keeps coverage 4).
    assert_eq!(a, Action::Sabotage { wild: yellow_wild, target: 2, slot: 1 });
    let mut builder = bot("builder", &[]);
    assert!(!matches!(decide(&g, &s, &mut builder), Action::Sabotage { .. }), "builder never sabotages");
    // Nobody close: it builds, keeping the wild.
    let far = [card(RED, STAR), card(BLUE, CIRCLE)];
    let mut s2 = table(&g, &[&[], &[yellow_wild, card(RED, SQUARE), card(GREEN, CROSS)], &[]], &[&[], &[], &far]);
    s2.current = 1;
    s2.phase = Phase::Play;
    let a = decide(&g, &s2, &mut b);
    assert!(matches!(a, Action::Add(c) | Action::Discard(c) if c != yellow_wild), "{a:?}");
    // With hoard = 0 (the default) it builds with the wild as the builder does; with
    // hoard = 1 it sets the wild aside.
    assert_eq!(decide(&g, &s2, &mut b), decide(&g, &s2, &mut builder));
    let row = [card(RED, CROSS), card(ORANGE, CROSS)];
    let mut s4 = table(&g, &[&[], &[yellow_wild, card(RED, SQUARE)], &[]], &[&[], &row, &far]);
    s4.current = 1;
    s4.phase = Phase::Play;
    assert_eq!(decide(&g, &s4, &mut b), Action::Add(yellow_wild), "the yellow wild is a yellow cross");
    let mut hoarder = bot("saboteur", &[1.0, 1.0]);
    assert_eq!(decide(&g, &s4, &mut hoarder), Action::Discard(card(RED, SQUARE)), "keeps the wild");
    // With sabotage off it is the builder.
    let off = game_with(|p| p.sabotage = false);
    let mut s3 = table(&off, &[&[], &[yellow_wild, card(RED, SQUARE), card(GREEN, CROSS)], &[]], &[&[], &[], &A_ROW]);
    s3.current = 1;
    s3.phase = Phase::Play;
    assert_eq!(decide(&off, &s3, &mut b), decide(&off, &s3, &mut builder));
}

#[test]
fn saboteur_completes_its_own_rainbow_first() {
    let g = standard();
    let row = [card(RED, CROSS), card(ORANGE, CROSS), card(YELLOW, CROSS), card(BLUE, CROSS)];
    let mut s = table(&g, &[&[], &[ALL_COLORS, card(GREEN, SQUARE)], &[]], &[&[], &row, &A_ROW]);
    s.current = 1;
    s.phase = Phase::Play;
    let mut b = bot("saboteur", &[]);
    assert_eq!(decide(&g, &s, &mut b), Action::Add(ALL_COLORS));
}

// ---------------------------------------------------------------------------------------
// Hidden information, determinism, the engine's fast paths

#[test]
fn bots_decide_from_what_their_seat_sees() {
    // Shuffle every hidden card (the other hands and the draw pile) and the decisions stay.
    let g = standard();
    for name in ["builder", "saboteur"] {
        let mut b = bot(name, &[]);
        for seed in 0..60u64 {
            let mut rng = GameRng::seed_from(seed);
            let mut s = g.deal(&mut rng, &mut EventLog::new(false));
            let mut builders: Vec<_> = (0..4).map(|_| bot("builder", &[])).collect();
            for _ in 0..(seed % 40) {
                let ToMove::Seat(seat) = g.to_move(&s) else { break };
                let a = builders[seat].decide(&g, &g.view(&s, seat), &mut rng);
                g.apply(&mut s, seat, a, &mut rng, &mut EventLog::new(false));
            }
            let ToMove::Seat(seat) = g.to_move(&s) else { continue };
            let before = b.decide(&g, &g.view(&s, seat), &mut rng);
            let mut hidden: Vec<Card> = s.draw.clone();
            for o in (0..4).filter(|&o| o != seat) {
                hidden.extend(s.hands[o].cards());
            }
            hidden.reverse();
            let mut t = s.clone();
            let mut it = hidden.into_iter();
            t.draw.iter_mut().for_each(|c| *c = it.next().expect("same count"));
            for o in (0..4).filter(|&o| o != seat) {
                let n = t.hands[o].len();
                t.hands[o] = Hand::of(&it.by_ref().take(n).collect::<Vec<_>>());
            }
            g.check_invariants(&t).expect("same cards");
            assert_eq!(b.decide(&g, &g.view(&t, seat), &mut rng), before, "{name} seed {seed}");
        }
    }
}

#[test]
fn uniform_tables_play_the_same_games_as_boxed_bots() {
    for g in [standard(), game_with(|p| p.players = 3), game_with(|p| p.deck.colors_sets = 3)] {
        for info in all_bots(&g).iter().filter(|b| b.uniform.is_some()) {
            let n = g.players;
            let values: Vec<Vec<f64>> = (0..n).map(|_| info.params.iter().map(|p| p.default).collect()).collect();
            let mut boxed: Vec<Box<dyn Bot<RainbowRush>>> = values.iter().map(|v| (info.build)(&g, v)).collect();
            let mut uniform = (info.uniform.expect("filtered"))(&g, &values);
            for i in 0..100 {
                let seed = game_seed(11, i);
                let a = play(&g, &mut boxed, seed, PlayOptions { checked: true }, None, None).expect("legal");
                let b = uniform.play(&g, seed, PlayOptions::default(), None, None).expect("legal");
                assert_eq!(a, b, "{} game {i}", info.name);
            }
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let g = standard();
    let mut a: Vec<_> = (0..4).map(|_| bot("saboteur", &[])).collect();
    let mut b: Vec<_> = (0..4).map(|_| bot("saboteur", &[])).collect();
    for seed in 0..50 {
        let x = play(&g, &mut a, seed, PlayOptions::default(), None, None).expect("plays");
        let y = play(&g, &mut b, seed, PlayOptions::default(), None, None).expect("plays");
        assert_eq!(x, y);
    }
}

#[test]
fn metrics_count_sabotages_and_save_their_state() {
    use crate::engine::Metrics;
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<RainbowRush>>> = (0..4).map(|_| bot("saboteur", &[])).collect();
    let mut m = RushMetrics::default();
    let mut plays = 0u64;
    for seed in 0..300 {
        let mut one = RushMetrics::default();
        let o = play(&g, &mut bots, seed, PlayOptions { checked: true }, Some(&mut one), None).expect("legal");
        assert!(o.end_reason == END_RAINBOW || o.end_reason == END_CAP);
        m.merge(one);
        let (_, s, _) = drive(&g, &mut bots, seed);
        plays += s.sabotages as u64;
    }
    let summary: std::collections::BTreeMap<String, f64> = m.summary(300).into_iter().collect();
    assert!(summary["sabotage_per_game"] > 0.0, "saboteurs sabotage");
    assert!(summary["sabotage_one_card_share"] > 0.5, "default threshold 1: mostly one-card victims");
    assert!(plays > 0);
    let saved = m.save_state().expect("saves");
    let back = RushMetrics::load_state(&saved).expect("loads");
    assert_eq!(back.save_state(), Some(saved));
    assert!(m.charts(300).iter().any(|c| c.file() == "sabotage_effect"));
}

// ---------------------------------------------------------------------------------------
// Properties

fn arb_params() -> impl Strategy<Value = Params> {
    (2u32..=8, 0u32..=4, 5u32..=7, 0u32..=3, 1u32..=200, any::<bool>(), any::<bool>(), (0u32..=3, 0u32..=2, 0u32..=2)).prop_map(
        |(players, deal, row_size, lock_turns, turn_cap, reshuffle, sabotage, (base, colors, shapes))| {
            let mut p = Params { players, deal, row_size, lock_turns, turn_cap, reshuffle_discard: reshuffle, sabotage, ..Params::default() };
            p.deck.base_sets = base;
            p.deck.colors_sets = colors;
            p.deck.shapes_sets = shapes;
            if p.check().is_err() {
                p.deck.base_sets = 3;
            }
            p
        },
    )
}

fn arb_bot() -> impl Strategy<Value = (&'static str, f64, f64)> {
    prop_oneof![Just(("random", 0.0, 0.0)), Just(("builder", 0.0, 0.0)), (1u32..=5, 0u32..=1).prop_map(|(t, h)| ("saboteur", t as f64, h as f64)),]
}

fn build(bots: &[(&str, f64, f64)], n: usize) -> Vec<Box<dyn Bot<RainbowRush>>> {
    bots[..n].iter().map(|&(name, a, b)| if name == "saboteur" { bot(name, &[a, b]) } else { bot(name, &[]) }).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Cards conserved, locks respected, every choice legal after every step (through the
    /// engine's checked mode and the step-by-step driver), every game ends by its cap with
    /// a rainbow or no winner.
    #[test]
    fn no_illegal_choice_and_cards_conserved(params in arb_params(), bots in prop::collection::vec(arb_bot(), 8), seed in any::<u64>()) {
        let g = RainbowRush::new(params).expect("valid");
        let n = g.players;
        let o = play(&g, &mut build(&bots, n), seed, PlayOptions { checked: true }, None, None);
        prop_assert!(o.is_ok(), "{:?}", o.err());
        let (o, s, _) = drive(&g, &mut build(&bots, n), seed);
        prop_assert!(o.length <= g.params.turn_cap);
        match o.end_reason {
            END_RAINBOW => {
                prop_assert_eq!(o.winners.count_ones(), 1);
                prop_assert!(s.rows[o.winners.trailing_zeros() as usize].cover().is_rainbow());
            }
            _ => {
                prop_assert_eq!(o.winners, 0);
                prop_assert_eq!(o.length, g.params.turn_cap);
            }
        }
    }
}

#[test]
fn many_checked_games_for_every_bot() {
    for players in [2u32, 4, 8] {
        let g = game_with(|p| p.players = players);
        for info in all_bots(&g).into_iter().filter(|b| b.name != crate::engine::ismcts::ISMCTS) {
            let values: Vec<f64> = info.params.iter().map(|p| p.default).collect();
            let mut bots: Vec<Box<dyn Bot<RainbowRush>>> = (0..g.players).map(|_| (info.build)(&g, &values)).collect();
            for i in 0..300 {
                play(&g, &mut bots, game_seed(3, i), PlayOptions { checked: true }, None, None)
                    .unwrap_or_else(|v| panic!("{} {players} players game {i}: {v:?}", info.name));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Determinization (search bots)

use crate::sim::harness::check_determinizations;

#[test]
fn determinizations_keep_what_the_seat_saw_and_redeal_the_rest() {
    for players in [2, 4, 6] {
        let g = game_with(|p| p.players = players);
        let (differed, drawn) = check_determinizations(&g, 13, 4, 5, 4);
        assert!(differed * 2 > drawn, "{players} players: only {differed} of {drawn} samples differ from the real deal");
    }
}

#[test]
fn determinizations_keep_cards_taken_from_the_discard_pile() {
    use crate::sim::harness::{check_samples_keep, random_bots};
    let g = standard();
    let known_kept = check_samples_keep(
        &g,
        22,
        6,
        4,
        || random_bots(&g),
        |s, out, seat| {
            assert_eq!((&out.discard, &out.locks, &out.rows), (&s.discard, &s.locks, &s.rows), "public cards stay");
            let mut kept = 0;
            for o in (0..g.players).filter(|&o| o != seat) {
                for k in 0..KINDS {
                    assert!(out.hands[o].count(k as Card) >= s.known[o][k] as u32, "seat {o} took a {k} from the discard pile");
                    kept += s.known[o][k] as u32;
                }
            }
            kept
        },
    );
    assert!(known_kept > 50, "few cards taken from the discard pile ({known_kept}): the test checks little");
}

proptest! {
    /// The builder's discard candidate from one count per color ([`first_spare`]) is the
    /// one of the plain definition, a cover per candidate ([`first_spare_plain`]).
    #[test]
    fn first_spare_is_the_plain_one(
        row in prop::collection::vec(0u8..KINDS as u8, 0..=MAX_ROW),
        hand in prop::collection::vec(0u8..KINDS as u8, 1..=params::MAX_HAND),
        s in 0usize..5,
    ) {
        let (row, hand) = (Row::of(&row), Hand::of(&hand));
        let all = hand.add_to(row.cover());
        prop_assert_eq!(first_spare(&row, &hand, all, s), first_spare_plain(&hand, row.cover(), all, s));
    }

    /// S* read off the row's kept shapes of highest coverage ([`row_target_shape`]) is the
    /// one of the covers ([`target_shape`]), and the kept highest coverage the cover's, after
    /// pushes, replacements, cards moved out and removals alike.
    #[test]
    fn row_target_shape_is_the_target_shape(
        cards in prop::collection::vec(0u8..KINDS as u8, 1..=MAX_ROW),
        hand in prop::collection::vec(0u8..KINDS as u8, 0..=params::MAX_HAND),
        wild in 25u8..KINDS as u8,
        slot in 0usize..MAX_ROW,
    ) {
        let hand = Hand::of(&hand);
        let mut row = Row::of(&cards);
        for step in 0..4 {
            let all = hand.add_to(row.cover());
            prop_assert_eq!(row_target_shape(&row, all), target_shape(row.cover(), all));
            prop_assert_eq!((row.best(), row.is_rainbow()), (row.cover().best(), row.cover().is_rainbow()));
            if row.is_empty() {
                break;
            }
            let at = slot % row.len();
            match step {
                0 => drop(row.replace(at, wild)),
                1 => drop(row.push_out(at, wild)),
                _ => drop(row.remove(at)),
            }
        }
    }
}

proptest! {
    /// A hand's cover, updated card by card as cards come and go, is always the cover of
    /// the cards it holds.
    #[test]
    fn hand_cover_follows_adds_and_removes(cards in prop::collection::vec(0u8..KINDS as u8, 1..=params::MAX_HAND), order in any::<u64>()) {
        let mut h = Hand::of(&cards);
        let mut left = cards.clone();
        let mut x = order | 1;
        while !left.is_empty() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let card = left.swap_remove((x % left.len() as u64) as usize);
            h.remove(card);
            prop_assert_eq!(h.cover(), Cover::of(&left));
            prop_assert_eq!(h.len(), left.len());
        }
    }

    /// A hand without the kinds of a mask ([`Hand::without`]) is the hand of the cards left,
    /// its cover included.
    #[test]
    fn a_hand_without_kinds_is_the_hand_of_the_cards_left(cards in prop::collection::vec(0u8..KINDS as u8, 0..=params::MAX_HAND), mask in any::<u64>()) {
        let left: Vec<Card> = cards.iter().copied().filter(|&c| mask >> c & 1 == 0).collect();
        let without = Hand::of(&cards).without(mask);
        prop_assert_eq!(without.cover(), Cover::of(&left));
        prop_assert_eq!(without, Hand::of(&left));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The game's own loop (`RainbowRush::play_out`: a turn's draw and play as straight-line
    /// code) plays the same game as the engine's plain loop, from the deal or from any later
    /// decision, for mixed boxed tables (random, builder, saboteur) and for a uniform
    /// builder table (the bot inlined into the loop).
    #[test]
    fn play_out_is_the_plain_loop(params in arb_params(), bots in prop::collection::vec(arb_bot(), 8), seed in any::<u64>(), steps in 0usize..80) {
        let g = RainbowRush::new(params).expect("valid");
        let n = g.players;
        let mixed = crate::engine::check_play_out(&g, &mut build(&bots, n), &mut build(&bots, n), seed, steps);
        prop_assert!(mixed.is_ok(), "mixed table: {:?}", mixed.err());
        let builders = || crate::engine::Uniform::new(vec![BuilderBot; n]);
        let uniform = crate::engine::check_play_out(&g, &mut builders(), &mut builders(), seed, steps);
        prop_assert!(uniform.is_ok(), "builders: {:?}", uniform.err());
    }
}

/// The same on the bench line-up's games (the standard variant, four `builder`s inlined),
/// from the deal, for 2,000 seeds.
#[test]
fn play_out_is_the_plain_loop_on_the_bench_table() {
    let g = standard();
    for index in 0..2_000u64 {
        let seed = game_seed(7, index);
        let builders = || crate::engine::Uniform::new(vec![BuilderBot; g.players]);
        crate::engine::check_play_out(&g, &mut builders(), &mut builders(), seed, 0).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}
