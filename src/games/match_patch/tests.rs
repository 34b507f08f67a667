//! Match Patch tests: every worked example and general note of the rulebook, every rule of
//! docs/games/match-patch.md (the deal, the draw sources, the pair loop with its redraws, canonical order and
//! the copies held longest, the end check, the placement, the cap, shared wins), parameter
//! checks, what events show to whom, the exactly defined `memory` bot step by step, the
//! `random` sampler, and many checked games of every bot (cards conserved, every choice
//! legal, every game ends).

use crate::engine::HiddenInfo;
use proptest::prelude::*;

use super::bots::FORGOTTEN;
use super::*;
use crate::engine::{Bot, EventLog, Game, GameEvent, GameRng, Metrics, PlayOptions, SeedFrom, ToMove, all_bots, game_seed, play};
use crate::games::Registered;

// ---------------------------------------------------------------------------------------
// Helpers

fn game_with(f: impl FnOnce(&mut Params)) -> MatchPatch {
    let mut p = Params::default();
    f(&mut p);
    MatchPatch::new(p).expect("valid test parameters")
}

fn standard() -> MatchPatch {
    game_with(|_| {})
}

/// Card `color * 5 + shape` by names' indices.
const RED_SQUARE: Card = 0;
const RED_CIRCLE: Card = 1;
const RED_STAR: Card = 2;
const ORANGE_SQUARE: Card = 5;
const YELLOW_STAR: Card = 12;
const GREEN_CROSS: Card = 18;
const BLUE_PENTAGON: Card = 24;

/// Where the cards not placed by a test table go.
#[derive(Clone, Copy)]
enum Rest {
    /// Under the given pile cards, in canonical order.
    Pile,
    /// Laid as pairs by this seat (every leftover count must be even).
    Laid(usize),
}

/// A table with the given hands (in arrival order), patch (oldest first) and pile top
/// (`pile_top`, top card last); every other card goes by `rest`. Seat 0 is to draw the
/// first card of turn 1.
fn table(g: &MatchPatch, hands: &[&[Card]], patch: &[Card], pile_top: &[Card], rest: Rest) -> State {
    let mut s = g.deal(&mut GameRng::seed_from(0), &mut EventLog::new(false));
    let mut left = [g.params.deck.base_sets; KINDS];
    let mut take = |c: Card| {
        assert!(left[c as usize] > 0, "too many copies of card {c} in the test table");
        left[c as usize] -= 1;
    };
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    for (seat, h) in hands.iter().enumerate() {
        for &c in *h {
            take(c);
        }
        s.hands[seat] = Hand::from_cards(h);
    }
    s.patch = patch
        .iter()
        .enumerate()
        .map(|(i, &card)| {
            take(card);
            Slot { card, serial: i as u32 }
        })
        .collect();
    s.placed = patch.len() as u32;
    for &c in pile_top {
        take(c);
    }
    s.pile.clear();
    s.pairs = [0; MAX_PLAYERS];
    s.laid = [0; KINDS];
    match rest {
        Rest::Pile => {
            for (k, &n) in left.iter().enumerate() {
                s.pile.extend(std::iter::repeat_n(k as Card, n as usize));
            }
        }
        Rest::Laid(seat) => {
            for (k, &n) in left.iter().enumerate() {
                assert!(n % 2 == 0, "odd leftover of card {k}");
                s.laid[k] = (n / 2) as u8;
                s.pairs[seat] += n / 2;
            }
        }
    }
    s.pile.extend_from_slice(pile_top);
    s.current = 0;
    s.turns = 1;
    s.phase = if s.can_draw() { Phase::Draw { left: 1, after_pair: false } } else { Phase::Place };
    g.check_invariants(&s).expect("test table is consistent");
    s
}

/// Applies `action` for the deciding seat after checking that it is legal; returns the
/// events it produced.
fn act(g: &MatchPatch, s: &mut State, action: Action) -> Vec<Event> {
    let seat = match g.to_move(s) {
        ToMove::Seat(seat) => seat,
        ToMove::Over => panic!("game over"),
    };
    let view = g.view(s, seat);
    assert!(g.is_legal(&view, &action), "{action:?} must be legal in {:?}", view.decision);
    let mut log = EventLog::new(true);
    g.apply(s, seat, action, &mut GameRng::seed_from(0), &mut log);
    g.check_invariants(s).expect("invariants hold");
    log.drain().collect()
}

fn legal(g: &MatchPatch, s: &State) -> Vec<Action> {
    let ToMove::Seat(seat) = g.to_move(s) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    g.legal_actions(&g.view(s, seat), &mut out);
    out
}

fn decision(g: &MatchPatch, s: &State) -> Option<Decision> {
    match g.to_move(s) {
        ToMove::Seat(seat) => Some(g.view(s, seat).decision),
        ToMove::Over => None,
    }
}

/// The cards of the pairs laid in `events`, in order.
fn laid_cards(events: &[Event]) -> Vec<Card> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Laid { card, .. } => Some(card),
            _ => None,
        })
        .collect()
}

fn patch_cards(s: &State) -> Vec<Card> {
    s.patch.iter().map(|slot| slot.card).collect()
}

fn bot(name: &str, values: &[f64]) -> Box<dyn Bot<MatchPatch>> {
    let g = standard();
    let info = all_bots(&g).into_iter().find(|b| b.name == name).expect("bot exists");
    let mut v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    v[..values.len()].copy_from_slice(values);
    (info.build)(&g, &v)
}

// ---------------------------------------------------------------------------------------
// The deal and the rulebook's turn, step by step

#[test]
fn the_deal_gives_each_seat_its_cards_in_deal_order_and_seat_0_draws_first() {
    let g = standard();
    let mut rng = GameRng::seed_from(5);
    let mut log = EventLog::new(true);
    let s = g.deal(&mut rng, &mut log);
    assert_eq!(s.pile.len(), 50 - 4 * 3);
    assert!(s.patch.is_empty());
    for seat in 0..4 {
        assert_eq!(s.hands[seat].len(), 3);
    }
    // Each hand in the order its cards were dealt (the Dealt events, seen by that seat).
    let events: Vec<Event> = log.drain().collect();
    for seat in 0..4 {
        let dealt: Vec<Card> = events
            .iter()
            .filter_map(|e| match *e {
                Event::Dealt { seat: s, card } if s as usize == seat => Some(card),
                _ => None,
            })
            .collect();
        assert_eq!(dealt, s.hands[seat].cards());
        for e in events.iter().filter(|e| matches!(e, Event::Dealt { .. })) {
            let Event::Dealt { seat: owner, .. } = e else { unreachable!() };
            assert_eq!(e.visible_to(seat), *owner as usize == seat);
        }
    }
    assert_eq!(g.to_move(&s), ToMove::Seat(0));
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: false }));
    assert_eq!(s.turns, 1);
    g.check_invariants(&s).expect("consistent");
}

/// Rulebook, step (1): the player draws a card from the draw pile or the Match Patch and
/// should now have 4 cards; step (3): it places one of the 4 cards into the patch,
/// announcing it and showing it to all players.
#[test]
fn rulebook_a_turn_draw_to_four_cards_then_place_one_announced() {
    let g = standard();
    let mut s = table(&g, &[&[RED_SQUARE, RED_CIRCLE, RED_STAR]], &[GREEN_CROSS], &[YELLOW_STAR], Rest::Pile);
    // Either source may be drawn from: the pile or any slot.
    assert_eq!(legal(&g, &s), vec![Action::Pile, Action::Take(0)]);
    act(&g, &mut s, Action::Pile);
    assert_eq!(s.hands[0].cards(), &[RED_SQUARE, RED_CIRCLE, RED_STAR, YELLOW_STAR]);
    assert_eq!(decision(&g, &s), Some(Decision::Place));
    // Any of the 4 cards may be placed.
    assert_eq!(legal(&g, &s), [RED_SQUARE, RED_CIRCLE, RED_STAR, YELLOW_STAR].map(Action::Place).to_vec());
    let events = act(&g, &mut s, Action::Place(RED_CIRCLE));
    assert_eq!(s.hands[0].cards(), &[RED_SQUARE, RED_STAR, YELLOW_STAR]);
    assert_eq!(patch_cards(&s), vec![GREEN_CROSS, RED_CIRCLE], "a new slot at the end");
    let placed = events.iter().find(|e| matches!(e, Event::Placed { .. })).expect("announced");
    assert!(matches!(placed, Event::Placed { seat: 0, card: RED_CIRCLE, serial: 1 }));
    assert!((0..4).all(|seat| placed.visible_to(seat)), "shown to all players");
    // The next player's turn.
    assert_eq!(g.to_move(&s), ToMove::Seat(1));
    assert_eq!(s.turns, 2);
}

/// Rulebook, step (2): with a match (same color and shape) the pair goes on the table and
/// the player draws 2 more cards, from the pile or the patch; repeat until no match.
#[test]
fn rulebook_a_match_is_laid_then_two_more_cards_are_drawn_until_no_match() {
    let g = standard();
    // Pile top last: red square (pairs), then orange square and blue pentagon... the
    // second redraw takes the patch's red circle, which pairs again.
    let mut s = table(&g, &[&[RED_SQUARE, RED_CIRCLE, YELLOW_STAR]], &[GREEN_CROSS, RED_CIRCLE], &[BLUE_PENTAGON, ORANGE_SQUARE, RED_SQUARE], Rest::Pile);
    let events = act(&g, &mut s, Action::Pile);
    assert!(events.iter().any(|e| matches!(e, Event::Laid { seat: 0, card: RED_SQUARE })));
    assert_eq!(s.pairs[0], 1, "one point per pair");
    assert_eq!(s.laid[RED_SQUARE as usize], 1, "laid face up: public");
    assert_eq!(s.hands[0].cards(), &[RED_CIRCLE, YELLOW_STAR]);
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }));
    act(&g, &mut s, Action::Pile);
    assert_eq!(s.hands[0].cards(), &[RED_CIRCLE, YELLOW_STAR, ORANGE_SQUARE]);
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }), "the second redraw");
    // The second redraw from the patch: the red circle pairs, so two more draws follow.
    act(&g, &mut s, Action::Take(1));
    assert_eq!(s.pairs[0], 2);
    assert_eq!(s.hands[0].cards(), &[YELLOW_STAR, ORANGE_SQUARE]);
    act(&g, &mut s, Action::Pile);
    act(&g, &mut s, Action::Take(0));
    assert_eq!(s.hands[0].cards(), &[YELLOW_STAR, ORANGE_SQUARE, BLUE_PENTAGON, GREEN_CROSS]);
    // No match: the player places one of its 4 cards.
    assert_eq!(decision(&g, &s), Some(Decision::Place));
    assert!(s.patch.is_empty());
    act(&g, &mut s, Action::Place(GREEN_CROSS));
    assert_eq!(patch_cards(&s), vec![GREEN_CROSS]);
    assert_eq!(g.to_move(&s), ToMove::Seat(1));
}

/// A pair made by the first redraw is laid after the second redraw (pairs are looked for
/// after each batch of draws).
#[test]
fn a_pair_made_by_the_first_redraw_is_laid_after_the_second() {
    let g = standard();
    let mut s = table(&g, &[&[RED_SQUARE, YELLOW_STAR, RED_CIRCLE]], &[], &[GREEN_CROSS, YELLOW_STAR, RED_SQUARE], Rest::Pile);
    act(&g, &mut s, Action::Pile); // red square: pair
    assert_eq!(s.pairs[0], 1);
    act(&g, &mut s, Action::Pile); // yellow star: a pair in hand, not laid yet
    assert_eq!(s.pairs[0], 1);
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }));
    act(&g, &mut s, Action::Pile); // green cross; then the yellow pair is laid
    assert_eq!(s.pairs[0], 2);
    assert_eq!(s.hands[0].cards(), &[RED_CIRCLE, GREEN_CROSS]);
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }));
}

/// docs/games/match-patch.md: with several pairs in hand the first in canonical order is laid first; with
/// three copies of a card the two held longest are laid.
#[test]
fn several_pairs_go_in_canonical_order_and_three_copies_lose_the_two_held_longest() {
    let g = game_with(|p| {
        p.deck.base_sets = 4;
        p.deal = 5;
    });
    // Dealt: yellow star, red circle, yellow star, red circle, red star; draws a yellow
    // star (three copies) and the pile then gives red star, ...
    let mut s = table(
        &g,
        &[&[YELLOW_STAR, RED_CIRCLE, YELLOW_STAR, RED_CIRCLE, RED_STAR]],
        &[],
        &[BLUE_PENTAGON, GREEN_CROSS, ORANGE_SQUARE, GREEN_CROSS, YELLOW_STAR],
        Rest::Pile,
    );
    let events = act(&g, &mut s, Action::Pile);
    let laid = laid_cards(&events);
    // Red circle (1) comes before yellow star (12) in canonical order; the second pair
    // waits for the redraws.
    assert_eq!(laid, vec![RED_CIRCLE]);
    act(&g, &mut s, Action::Pile); // green cross
    let events = act(&g, &mut s, Action::Pile); // orange square; then yellow star pair
    assert!(events.iter().any(|e| matches!(e, Event::Laid { card: YELLOW_STAR, .. })));
    // The two yellow stars held longest (dealt 1st and 3rd) are gone; the one drawn stays,
    // in its place after the dealt red star.
    assert_eq!(s.hands[0].cards(), &[RED_STAR, YELLOW_STAR, GREEN_CROSS, ORANGE_SQUARE]);
    act(&g, &mut s, Action::Pile); // green cross: pair
    act(&g, &mut s, Action::Pile); // blue pentagon
    assert_eq!(s.pairs[0], 3);
}

/// A pair dealt in a starting hand is laid in the first turn, after the first draw.
#[test]
fn a_dealt_pair_is_laid_after_the_first_draw() {
    let g = standard();
    let mut s = table(&g, &[&[GREEN_CROSS, RED_STAR, GREEN_CROSS]], &[], &[ORANGE_SQUARE], Rest::Pile);
    assert_eq!(s.pairs[0], 0);
    act(&g, &mut s, Action::Pile);
    assert_eq!(s.pairs[0], 1);
    assert_eq!(s.hands[0].cards(), &[RED_STAR, ORANGE_SQUARE]);
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }));
}

/// Rulebook, "Ending the Game": once the draw pile is empty the players go on with cards
/// from the patch; the game is over when the patch is empty (cards usually remain in
/// hands). docs/games/match-patch.md: the end is checked after the player's draws (redraws included), and
/// the player places nothing.
#[test]
fn rulebook_the_game_ends_when_pile_and_patch_are_empty_after_the_draws() {
    let g = standard();
    // Empty pile (every card not shown is laid by seat 3), two slots in the patch.
    let mut s = table(
        &g,
        &[&[RED_SQUARE, YELLOW_STAR, GREEN_CROSS], &[ORANGE_SQUARE, RED_SQUARE, YELLOW_STAR], &[GREEN_CROSS, BLUE_PENTAGON]],
        &[ORANGE_SQUARE, BLUE_PENTAGON],
        &[],
        Rest::Laid(3),
    );
    // Only the patch can be drawn from.
    assert_eq!(legal(&g, &s), vec![Action::Take(0), Action::Take(1)]);
    act(&g, &mut s, Action::Take(1));
    act(&g, &mut s, Action::Place(BLUE_PENTAGON));
    assert_eq!(patch_cards(&s), vec![ORANGE_SQUARE, BLUE_PENTAGON]);
    // Seat 1 takes the orange square: a pair; its first redraw takes the last slot, the
    // second finds nothing; no pair is left and both sources are empty: the game is over.
    act(&g, &mut s, Action::Take(0));
    assert_eq!(s.pairs[1], 1);
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }));
    let events = act(&g, &mut s, Action::Take(0));
    assert_eq!(g.to_move(&s), ToMove::Over);
    assert!(events.iter().any(|e| matches!(e, Event::GameOver { reason: END_PATCH_EMPTY, turns: 2 })));
    assert!(!events.iter().any(|e| matches!(e, Event::Placed { .. })), "no placement after the end");
    assert_eq!(s.hands[1].cards(), &[RED_SQUARE, YELLOW_STAR, BLUE_PENTAGON], "cards stay in hand");
    let o = g.outcome(&s);
    assert_eq!(o.length, 2, "the turn that ends the game counts");
    assert_eq!(o.end_reason, END_PATCH_EMPTY);
    // Cards left in hands count nothing: the scores are the pairs.
    assert_eq!(&o.scores[..3], &[0, 1, 0]);
    assert_eq!(o.scores[3], s.pairs[3] as i64);
    assert_eq!(o.winners, 0b1000);
}

/// The last card taken makes a pair; no redraw is possible, a second pair still held is
/// laid too (canonical order first), and the game ends at once.
#[test]
fn redraws_from_empty_sources_are_skipped_and_the_game_ends() {
    let g = standard();
    let mut s = table(&g, &[&[YELLOW_STAR, RED_SQUARE, YELLOW_STAR]], &[RED_SQUARE], &[], Rest::Laid(1));
    let events = act(&g, &mut s, Action::Take(0));
    let laid = laid_cards(&events);
    assert_eq!(laid, vec![RED_SQUARE, YELLOW_STAR]);
    assert_eq!(s.pairs[0], 2);
    assert!(s.hands[0].is_empty());
    assert_eq!(g.to_move(&s), ToMove::Over);
    assert_eq!(s.end_reason, END_PATCH_EMPTY);
}

/// A redraw batch stops early when the last card is drawn by its first draw.
#[test]
fn a_redraw_batch_is_shorter_when_the_cards_run_out() {
    let g = standard();
    let mut s = table(&g, &[&[RED_SQUARE, RED_STAR, BLUE_PENTAGON], &[RED_STAR, BLUE_PENTAGON, GREEN_CROSS]], &[], &[GREEN_CROSS, RED_SQUARE], Rest::Laid(2));
    act(&g, &mut s, Action::Pile); // pair of red squares; one card left
    assert_eq!(decision(&g, &s), Some(Decision::Draw { after_pair: true }));
    act(&g, &mut s, Action::Pile); // the last card: the batch stops, the game ends
    assert_eq!(g.to_move(&s), ToMove::Over);
    assert_eq!(s.hands[0].cards(), &[RED_STAR, BLUE_PENTAGON, GREEN_CROSS]);
}

/// Rulebook, "General Notes": a player may draw from the patch and place a different card
/// back (announcing it), or place the same card back in a different location; cards never
/// slide around in the patch.
#[test]
fn rulebook_general_notes_take_a_slot_and_place_another_card_or_the_same_one_elsewhere() {
    let g = standard();
    let mut s = table(
        &g,
        &[&[RED_SQUARE, RED_CIRCLE, RED_STAR], &[YELLOW_STAR, GREEN_CROSS, ORANGE_SQUARE]],
        &[BLUE_PENTAGON, GREEN_CROSS, YELLOW_STAR],
        &[],
        Rest::Pile,
    );
    let serials: Vec<u32> = s.patch.iter().map(|x| x.serial).collect();
    let events = act(&g, &mut s, Action::Take(1));
    let took = events.iter().find(|e| matches!(e, Event::Took { .. })).expect("public take");
    assert!(matches!(took, Event::Took { seat: 0, index: 1, serial: 1 }));
    // The others keep their places (no sliding): the slots around keep their numbers.
    assert_eq!(patch_cards(&s), vec![BLUE_PENTAGON, YELLOW_STAR]);
    assert_eq!(s.patch.iter().map(|x| x.serial).collect::<Vec<_>>(), vec![serials[0], serials[2]]);
    // A different card goes back.
    act(&g, &mut s, Action::Place(RED_STAR));
    assert_eq!(patch_cards(&s), vec![BLUE_PENTAGON, YELLOW_STAR, RED_STAR]);
    // Seat 1 takes the blue pentagon and places the same card back: a new location.
    act(&g, &mut s, Action::Take(0));
    let events = act(&g, &mut s, Action::Place(BLUE_PENTAGON));
    assert!(events.iter().any(|e| matches!(e, Event::Placed { seat: 1, card: BLUE_PENTAGON, serial: 4 })));
    assert_eq!(patch_cards(&s), vec![YELLOW_STAR, RED_STAR, BLUE_PENTAGON]);
}

/// The card drawn is shown to its drawer only; a take says which slot, not the card.
#[test]
fn drawn_cards_are_seen_by_the_drawer_only() {
    let g = standard();
    let mut s = table(&g, &[&[RED_SQUARE, RED_CIRCLE, RED_STAR]], &[GREEN_CROSS], &[YELLOW_STAR], Rest::Pile);
    let events = act(&g, &mut s, Action::Take(0));
    for e in &events {
        match e {
            Event::Drew { seat: 0, card, pile: false } => {
                assert_eq!(*card, GREEN_CROSS);
                assert!(e.visible_to(0) && !e.visible_to(1));
            }
            Event::Took { .. } => assert!((0..4).all(|seat| e.visible_to(seat))),
            other => panic!("unexpected event {other:?}"),
        }
    }
    act(&g, &mut s, Action::Place(RED_SQUARE));
    let events = act(&g, &mut s, Action::Pile);
    assert_eq!(events.len(), 1);
    assert!(matches!(events[0], Event::Drew { seat: 1, card: YELLOW_STAR, pile: true }));
    assert!(events[0].visible_to(1) && !events[0].visible_to(0) && !events[0].visible_to(2));
}

#[test]
fn only_available_sources_can_be_drawn_from() {
    let g = standard();
    let s = table(&g, &[&[RED_SQUARE, RED_CIRCLE, RED_STAR]], &[], &[YELLOW_STAR], Rest::Pile);
    assert_eq!(legal(&g, &s), vec![Action::Pile], "empty patch: the pile only");
    let view = g.view(&s, 0);
    assert!(!g.is_legal(&view, &Action::Take(0)));
    assert!(!g.is_legal(&view, &Action::Place(RED_SQUARE)), "no placement before the draw");
    let s = table(&g, &[&[RED_SQUARE], &[RED_SQUARE, GREEN_CROSS, BLUE_PENTAGON]], &[GREEN_CROSS, BLUE_PENTAGON], &[], Rest::Laid(2));
    assert_eq!(legal(&g, &s), vec![Action::Take(0), Action::Take(1)], "empty pile: the patch only");
    assert!(!g.is_legal(&g.view(&s, 0), &Action::Pile));
    assert!(!g.is_legal(&g.view(&s, 0), &Action::Take(2)));
}

#[test]
fn a_deal_of_the_whole_deck_ends_the_first_turn_with_its_pairs() {
    // 5 players x 10 cards = the whole 50-card deck: seat 0 draws nothing, lays its dealt
    // pairs (no redraw is possible) and the end check ends the game in turn 1.
    let g = game_with(|p| {
        p.players = 5;
        p.deal = 10;
    });
    for seed in 0..20 {
        let s = g.deal(&mut GameRng::seed_from(seed), &mut EventLog::new(false));
        assert!(!s.can_draw());
        assert_eq!(g.to_move(&s), ToMove::Over);
        assert_eq!(s.turns, 1);
        assert_eq!(s.hands[0].pair_mask(), 0);
        assert_eq!(s.hands[0].len(), 10 - 2 * s.pairs[0] as usize);
        g.check_invariants(&s).expect("consistent");
        assert_eq!(g.outcome(&s).end_reason, END_PATCH_EMPTY);
    }
}

#[test]
fn pair_draws_sets_the_redraws_after_a_pair() {
    for (draws, want) in [(0u32, Some(Decision::Place)), (1, Some(Decision::Draw { after_pair: true }))] {
        let g = game_with(|p| p.pair_draws = draws);
        let mut s = table(&g, &[&[RED_SQUARE, RED_STAR, BLUE_PENTAGON]], &[], &[GREEN_CROSS, RED_SQUARE], Rest::Pile);
        act(&g, &mut s, Action::Pile);
        assert_eq!(s.pairs[0], 1);
        assert_eq!(decision(&g, &s), want, "pair_draws = {draws}");
        if draws == 1 {
            act(&g, &mut s, Action::Pile);
            assert_eq!(decision(&g, &s), Some(Decision::Place), "one redraw only");
        }
    }
}

#[test]
fn the_turn_cap_stops_the_game_and_pairs_decide() {
    let g = game_with(|p| p.turn_cap = 2);
    let mut s = table(
        &g,
        &[&[RED_SQUARE, RED_CIRCLE, RED_STAR], &[YELLOW_STAR, GREEN_CROSS, ORANGE_SQUARE]],
        &[],
        &[BLUE_PENTAGON, ORANGE_SQUARE, RED_SQUARE],
        Rest::Pile,
    );
    act(&g, &mut s, Action::Pile); // red square pair
    act(&g, &mut s, Action::Pile);
    act(&g, &mut s, Action::Pile);
    act(&g, &mut s, Action::Place(RED_CIRCLE));
    assert_eq!(s.turns, 2);
    act(&g, &mut s, Action::Take(0));
    let events = act(&g, &mut s, Action::Place(YELLOW_STAR));
    assert!(events.iter().any(|e| matches!(e, Event::GameOver { reason: END_CAP, turns: 2 })));
    assert_eq!(g.to_move(&s), ToMove::Over);
    let o = g.outcome(&s);
    assert_eq!((o.length, o.end_reason), (2, END_CAP));
    assert_eq!(o.winners, 0b0001, "most pairs wins at the cap too");
}

#[test]
fn ties_for_the_most_pairs_share_the_win() {
    let g = standard();
    let mut s = table(&g, &[&[RED_SQUARE]], &[], &[], Rest::Pile);
    s.phase = Phase::Over;
    s.pairs[..4].copy_from_slice(&[2, 3, 3, 1]);
    let o = g.outcome(&s);
    assert_eq!(o.winners, 0b0110);
    assert_eq!(o.win_share(1), 0.5);
    assert_eq!(&o.scores[..4], &[2, 3, 3, 1]);
}

// ---------------------------------------------------------------------------------------
// Parameters

fn problems(f: impl FnOnce(&mut Params)) -> Vec<crate::variant::Invalid> {
    let mut p = Params::default();
    f(&mut p);
    p.check().expect_err("invalid")
}

#[test]
fn the_defaults_are_rules_md() {
    let p = Params::default();
    assert_eq!((p.players, p.deal, p.pair_draws, p.turn_cap, p.deck.base_sets), (4, 3, 2, 1000, 2));
    assert!(p.check().is_ok());
    assert_eq!(standard().deck.len(), 50);
}

#[test]
fn bad_parameters_name_the_key_and_what_is_allowed() {
    let bad = problems(|p| p.deck.base_sets = 3);
    assert_eq!(bad[0].key, "deck.base_sets");
    assert!(bad[0].message.contains("even"), "{}", bad[0].message);
    assert_eq!(problems(|p| p.deck.base_sets = 0)[0].key, "deck.base_sets");
    assert_eq!(problems(|p| p.deck.base_sets = 22)[0].key, "deck.base_sets");
    assert_eq!(problems(|p| p.players = 1)[0].key, "players");
    assert_eq!(problems(|p| p.players = 9)[0].key, "players");
    assert_eq!(problems(|p| p.turn_cap = 0)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.turn_cap = 100_001)[0].key, "turn_cap");
    assert_eq!(problems(|p| p.pair_draws = 3)[0].key, "pair_draws");
    assert_eq!(problems(|p| p.deal = 25)[0].key, "deal");
    let bad = problems(|p| {
        p.players = 8;
        p.deal = 7;
    });
    assert_eq!(bad[0].key, "deal");
    assert!(bad[0].message.contains("56") && bad[0].message.contains("50"), "{}", bad[0].message);
    let bad = problems(|p| {
        p.players = 0;
        p.turn_cap = 0;
    });
    assert_eq!(bad.len(), 2, "every problem is listed");
}

#[test]
fn unknown_keys_in_toml_name_the_key() {
    let path = std::path::Path::new("test.toml");
    let v = crate::variant::Variant::from_toml_str(path, "game = \"match-patch\"\n[deck]\ncolors_sets = 1\n").expect("parses");
    let e = MatchPatch::from_variant(&v).err().expect("unknown key").to_string();
    assert!(e.contains("deck.colors_sets") && e.contains("base_sets"), "{e}");
    let v = crate::variant::Variant::from_toml_str(path, "game = \"match-patch\"\n[deck]\nbase_sets = 5\n").expect("parses");
    let e = MatchPatch::from_variant(&v).err().expect("odd").to_string();
    assert!(e.contains("deck.base_sets") && e.contains("even"), "{e}");
    let v = crate::variant::Variant::from_toml_str(path, "game = \"match-patch\"\ndeal = -1\n").expect("parses");
    assert!(MatchPatch::from_variant(&v).is_err());
}

#[test]
fn the_bundled_variants_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(MatchPatch::INFO.id);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("variants/match-patch exists") {
        let path = entry.expect("entry").path();
        let v = crate::variant::Variant::load(&path, &[]).expect("loads");
        let g = MatchPatch::from_variant(&v).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        crate::games::seat_plans(&g, &v, None, MatchPatch::INFO.default_bot).expect("bots resolve");
        n += 1;
    }
    assert!(n >= 3, "standard and at least two designer variants");
}

// ---------------------------------------------------------------------------------------
// The memory bot

#[test]
fn memory_takes_a_remembered_slot_that_pairs_first_card_in_canonical_order_then_oldest() {
    let hand = Hand::from_cards(&[YELLOW_STAR, RED_CIRCLE, GREEN_CROSS]);
    let f = FORGOTTEN;
    // a. Remembered: slot 1 yellow star, slot 3 red circle, slot 4 red circle.
    let slots = [BLUE_PENTAGON, YELLOW_STAR, f, RED_CIRCLE, RED_CIRCLE];
    assert_eq!(memory_choice(&hand, 10, &slots), Action::Take(3), "red circle before yellow star; oldest slot");
    // A remembered card not in hand does not count; b. the pile.
    let slots = [BLUE_PENTAGON, f, RED_STAR];
    assert_eq!(memory_choice(&hand, 10, &slots), Action::Pile);
    // c. Empty pile: the oldest slot it does not remember.
    assert_eq!(memory_choice(&hand, 0, &slots), Action::Take(1));
    // ... or the oldest slot when it remembers them all.
    assert_eq!(memory_choice(&hand, 0, &[BLUE_PENTAGON, RED_STAR]), Action::Take(0));
    // a. also with an empty pile.
    assert_eq!(memory_choice(&hand, 0, &[f, BLUE_PENTAGON, GREEN_CROSS]), Action::Take(2));
    assert_eq!(memory_place(&hand), YELLOW_STAR, "the card held longest");
}

/// The bot's memory comes from the events its seat sees: it remembers announced
/// placements (all of them at recall 1, none at recall 0), forgets a slot once taken, and
/// follows the patch's positions as slots are taken.
#[test]
fn memory_remembers_announced_placements_until_taken() {
    let g = standard();
    let mut s = table(
        &g,
        &[&[RED_SQUARE, RED_CIRCLE, RED_STAR], &[YELLOW_STAR, GREEN_CROSS, ORANGE_SQUARE], &[BLUE_PENTAGON, RED_STAR, GREEN_CROSS]],
        &[],
        &[],
        Rest::Pile,
    );
    let mut perfect = bot("memory", &[1.0]);
    let mut none = bot("memory", &[0.0]);
    perfect.new_game(&g, 2);
    none.new_game(&g, 2);
    let mut rng = GameRng::seed_from(1);
    let play_turn = |s: &mut State, actions: &[Action], bots: &mut [&mut Box<dyn Bot<MatchPatch>>]| {
        for &a in actions {
            for e in act(&g, s, a) {
                for b in bots.iter_mut() {
                    if e.visible_to(2) {
                        b.observe(2, &e);
                    }
                }
            }
        }
    };
    // Seat 0 draws from the pile and places the red square; seat 1 takes that slot and
    // places its green cross.
    play_turn(&mut s, &[Action::Pile, Action::Place(RED_SQUARE)], &mut [&mut perfect, &mut none]);
    play_turn(&mut s, &[Action::Take(0), Action::Place(GREEN_CROSS)], &mut [&mut perfect, &mut none]);
    // Seat 1 took the red square slot; the green cross is now at position 0.
    assert_eq!(patch_cards(&s), vec![GREEN_CROSS]);
    assert_eq!(g.to_move(&s), ToMove::Seat(2));
    let view = g.view(&s, 2);
    assert_eq!(perfect.decide(&g, &view, &mut rng), Action::Take(0), "the remembered green cross pairs its own");
    assert_eq!(none.decide(&g, &view, &mut rng), Action::Pile, "recall 0 remembers nothing");
    // Placing: the card held longest.
    let mut s2 = s.clone();
    act(&g, &mut s2, Action::Pile);
    let view = g.view(&s2, 2);
    if view.decision == Decision::Place {
        assert_eq!(perfect.decide(&g, &view, &mut rng), Action::Place(s2.hands[2].cards()[0]));
    }
}

/// The memory bot never learns a card drawn by another seat from the pile (it is not in
/// any event that seat sees), and its recall draw is made once per placement.
#[test]
fn memory_learns_only_what_its_seat_sees() {
    let g = standard();
    for seed in 0..30 {
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..4).map(|_| bot("memory", &[0.5])).collect();
        let o = play(&g, &mut bots, game_seed(9, seed), PlayOptions { checked: true }, None, None).expect("legal");
        assert!(o.length >= 1);
    }
    // The events a memory bot reads are public ones.
    let placed = Event::Placed { seat: 1, card: 3, serial: 0 };
    let took = Event::Took { seat: 1, index: 0, serial: 0 };
    assert!((0..8).all(|s| placed.visible_to(s) && took.visible_to(s)));
}

/// Recall 1 and recall 0 bots against each other: perfect memory wins more often.
#[test]
fn perfect_memory_beats_no_memory() {
    let g = standard();
    let mut wins = [0.0; 2];
    for i in 0..2000 {
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..4).map(|s| bot("memory", &[if s % 2 == 0 { 1.0 } else { 0.0 }])).collect();
        let o = play(&g, &mut bots, game_seed(4, i), PlayOptions::default(), None, None).expect("legal");
        for s in 0..4 {
            wins[s % 2] += o.win_share(s);
        }
    }
    assert!(wins[0] > wins[1] * 1.2, "recall 1 {} vs recall 0 {}", wins[0], wins[1]);
}

// ---------------------------------------------------------------------------------------
// The random bot and whole games

#[test]
fn random_action_draws_exactly_as_a_uniform_pick_from_the_legal_actions() {
    let g = standard();
    for seed in 0..200u64 {
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        let mut brng = GameRng::seed_from(seed ^ 77);
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let view = g.view(&s, seat);
            let mut list = Vec::new();
            g.legal_actions(&view, &mut list);
            let mut a_rng = brng.clone();
            let expected = list[crate::engine::rng::below(list.len() as u32, &mut a_rng) as usize];
            let got = g.random_action(&view, &mut brng, &mut Vec::new());
            assert_eq!(got, expected);
            assert_eq!(a_rng, brng, "same draws consumed");
            g.apply(&mut s, seat, got, &mut rng, &mut EventLog::new(false));
        }
    }
}

fn all_bot_specs() -> Vec<(&'static str, f64)> {
    vec![("random", 0.0), ("memory", 1.0), ("memory", 0.0), ("memory", 0.5), ("memory", 0.9)]
}

fn build(spec: (&str, f64)) -> Box<dyn Bot<MatchPatch>> {
    if spec.0 == "random" { bot("random", &[]) } else { bot(spec.0, &[spec.1]) }
}

#[test]
fn many_checked_games_of_every_bot_end_legally_with_cards_conserved() {
    for (variant, g) in [
        ("standard", standard()),
        ("2 players", game_with(|p| p.players = 2)),
        (
            "8 players, 4 sets",
            game_with(|p| {
                p.players = 8;
                p.deck.base_sets = 4;
            }),
        ),
        ("deal 0", game_with(|p| p.deal = 0)),
        (
            "deal 12, pair_draws 1",
            game_with(|p| {
                p.deal = 12;
                p.pair_draws = 1;
            }),
        ),
        ("cap 7", game_with(|p| p.turn_cap = 7)),
        (
            "2 players, deal 24 (hands of 25)",
            game_with(|p| {
                p.players = 2;
                p.deal = 24;
            }),
        ),
    ] {
        for spec in all_bot_specs() {
            let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..g.players).map(|_| build(spec)).collect();
            for i in 0..150 {
                let o = play(&g, &mut bots, game_seed(1, i), PlayOptions { checked: true }, None, None)
                    .unwrap_or_else(|v| panic!("{variant}, {spec:?}, game {i}: {v:?}"));
                assert!(o.length >= 1 && o.length <= g.params.turn_cap);
                assert!(o.winners != 0);
                let pairs: i64 = o.scores[..g.players].iter().sum();
                assert!(pairs <= 25 * g.params.deck.base_sets as i64 / 2);
            }
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let g = standard();
    for spec in all_bot_specs() {
        let run = || {
            let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..4).map(|_| build(spec)).collect();
            (0..50).map(|i| play(&g, &mut bots, game_seed(3, i), PlayOptions::default(), None, None).expect("legal")).collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}

/// The uniform table of `memory` (the simulator's fast path) plays exactly the games of the
/// boxed bots, with a different recall at every seat.
#[test]
fn the_memory_table_plays_the_same_games_as_boxed_bots() {
    let g = standard();
    let info = all_bots(&g).into_iter().find(|b| b.name == "memory").expect("memory");
    let values: Vec<Vec<f64>> = (0..4).map(|s| vec![1.0 - s as f64 * 0.3]).collect();
    let mut table = (info.uniform.expect("uniform"))(&g, &values);
    let mut boxed: Vec<Box<dyn Bot<MatchPatch>>> = values.iter().map(|v| (info.build)(&g, v)).collect();
    for i in 0..300 {
        let seed = game_seed(8, i);
        let a = play(&g, &mut boxed, seed, PlayOptions::default(), None, None).expect("legal");
        let b = table.play(&g, seed, PlayOptions { checked: true }, None, None).expect("legal");
        assert_eq!(a, b, "game {i}");
    }
}

/// A turn's decisions, counted in a whole game against the turn count: the length is the
/// number of turns and every placement but the last turn's ends a turn.
#[test]
fn the_length_counts_turns() {
    let g = standard();
    for i in 0..100 {
        let mut rng = GameRng::seed_from(game_seed(2, i));
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..4).map(|_| bot("random", &[])).collect();
        let mut brng = GameRng::seed_from(i);
        let mut placements = 0;
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let a = bots[seat].decide(&g, &g.view(&s, seat), &mut brng);
            placements += u32::from(matches!(a, Action::Place(_)));
            g.apply(&mut s, seat, a, &mut rng, &mut EventLog::new(false));
        }
        let o = g.outcome(&s);
        assert_eq!(o.length, placements + 1, "every turn places but the last");
        assert_eq!(o.end_reason, END_PATCH_EMPTY);
    }
}

#[test]
fn metrics_merge_exactly_and_survive_a_save() {
    let g = standard();
    let mut whole = MatchMetrics::default();
    let mut parts = [MatchMetrics::default(), MatchMetrics::default()];
    for i in 0..200u64 {
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..4).map(|_| bot("memory", &[0.7])).collect();
        let seed = game_seed(6, i);
        play(&g, &mut bots, seed, PlayOptions::default(), Some(&mut whole), None).expect("legal");
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..4).map(|_| bot("memory", &[0.7])).collect();
        play(&g, &mut bots, seed, PlayOptions::default(), Some(&mut parts[(i % 2) as usize]), None).expect("legal");
    }
    let [a, b] = parts;
    let saved = a.save_state().expect("saves");
    let mut merged = MatchMetrics::load_state(&saved).expect("loads");
    merged.merge(b);
    assert_eq!(merged.save_state(), whole.save_state());
    let summary = whole.summary(200);
    let pairs = summary.iter().find(|(k, _)| k == "mean_pairs_per_game").expect("pairs").1;
    assert!(pairs > 10.0 && pairs <= 25.0, "{pairs}");
    assert_eq!(whole.charts(200).len(), 4);
}

#[test]
fn the_recall_sweep_has_one_point_per_recall_over_every_seat() {
    let g = game_with(|p| p.players = 3);
    let sweep = &<MatchPatch as crate::games::Registered>::SEAT_SWEEPS[0];
    let points = crate::games::seat_sweep::run(&g, sweep, 300, 5, 1).expect("runs");
    assert_eq!(points.len(), RECALLS.len());
    for p in &points {
        assert_eq!(p.games, 300);
        assert!(p.wins >= 0.0 && p.wins <= p.games as f64);
    }
    // At recall 1 every seat is the same bot: about a fair share.
    let last = points.last().expect("recall 1");
    assert!((last.wins / last.games as f64 - 1.0 / 3.0).abs() < 0.1);
    let chart = crate::games::seat_sweep::chart(&g, sweep, 300, 5, 1).expect("chart");
    assert_eq!(chart.file(), "win_share_vs_recall");
}

/// The hand's counts and its masks of kinds held once and twice are those of `cards`.
fn counts_agree(hand: &Hand, cards: &[Card]) -> Result<(), proptest::test_runner::TestCaseError> {
    let mut counts = [0u8; KINDS];
    for &c in cards {
        counts[c as usize] += 1;
    }
    let mask = |least: u8| (0..KINDS).filter(|&k| counts[k] >= least).fold(0u32, |m, k| m | 1 << k);
    prop_assert_eq!(hand.counts(), &counts);
    prop_assert_eq!(hand.kinds_mask(), mask(1));
    prop_assert_eq!(hand.pair_mask(), mask(2));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any accepted parameters and any line-up: every game ends within the cap, every choice
    /// is legal and the cards are conserved after every step.
    #[test]
    fn any_parameters_and_bots_play_legal_games(
        players in 2u32..=8,
        sets in 1u32..=3,
        deal in 0u32..=8,
        pair_draws in 0u32..=2,
        turn_cap in 1u32..=300,
        specs in prop::collection::vec(0usize..5, 8),
        seed in any::<u64>(),
    ) {
        let mut p = Params { players, deal, pair_draws, turn_cap, ..Params::default() };
        p.deck.base_sets = sets * 2;
        prop_assume!(p.check().is_ok());
        let g = MatchPatch::new(p).expect("valid");
        let all = all_bot_specs();
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = specs[..g.players].iter().map(|&i| build(all[i])).collect();
        let o = play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None);
        prop_assert!(o.is_ok(), "{:?}", o.err());
        let o = o.expect("checked");
        prop_assert!(o.length <= turn_cap);
    }
}

// ---------------------------------------------------------------------------------------
// Determinization (search bots)

use crate::sim::harness::check_determinizations;

#[test]
fn determinizations_keep_what_the_seat_saw_and_redeal_the_rest() {
    for (players, sets) in [(2, 2), (4, 2), (4, 4), (6, 2)] {
        let g = game_with(|p| {
            p.players = players;
            p.deck.base_sets = sets;
        });
        let (differed, drawn) = check_determinizations(&g, 12, 4, 3, 4);
        assert!(differed * 5 > drawn, "{players} players: only {differed} of {drawn} samples differ from the real deal");
    }
}

#[test]
fn determinizations_keep_public_cards_and_pair_free_hands() {
    use crate::sim::harness::{check_samples_keep, random_bots};
    let g = standard();
    // Random bots at even seats, perfect memory at odd ones.
    let bots = || -> Vec<Box<dyn Bot<MatchPatch>>> {
        random_bots(&g).into_iter().enumerate().map(|(seat, random)| if seat % 2 == 0 { random } else { Box::new(MemoryBot::new(1.0)) as _ }).collect()
    };
    let known_kept = check_samples_keep(&g, 21, 6, 3, bots, |s, out, seat| {
        assert_eq!(out.patch, s.patch, "the patch was announced card by card");
        let mut kept = 0;
        for o in (0..g.players).filter(|&o| o != seat) {
            for k in 0..KINDS {
                assert!(out.hands[o].count(k as Card) >= s.known[o][k] as u32, "seat {o} took a {k} from the patch");
                kept += s.known[o][k] as u32;
            }
            if o != s.current as usize && s.turns as usize > o {
                assert_eq!(out.hands[o].pair_mask(), 0, "seat {o} has laid its pairs: [{}]", out.hands[o]);
                assert_eq!(out.hands[o].kinds_mask() & s.excluded[o], 0, "seat {o} placed those kinds");
            }
        }
        kept
    });
    assert!(known_kept > 50, "few cards taken from the patch ({known_kept}): the test checks little");
}

/// A perfect-memory player never draws from the pile holding the twin of a patch card, so
/// the passed-up kinds (`Hand::passed_up`) never rule out a real card of a memory table, and
/// the samples of a search honour them.
#[test]
fn passed_up_kinds_hold_for_perfect_memory_and_samples_honour_them() {
    use crate::sim::harness::play_checked;
    let g = standard();
    let mut rng = GameRng::seed_from(5);
    let (mut beliefs, mut honoured) = (0u32, 0u32);
    for index in 0..8 {
        let seed = game_seed(22, index);
        let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..g.players).map(|_| Box::new(MemoryBot::new(1.0)) as Box<dyn Bot<MatchPatch>>).collect();
        let mut out: Option<State> = None;
        let mut each = |s: &State, _: usize, _: &Action| {
            for o in 0..g.players {
                let cards = s.hands[o].cards();
                for (i, &c) in cards.iter().enumerate() {
                    assert_eq!(s.hands[o].passed_up(i) >> c & 1, 0, "seat {o} passed up a {c} it held: [{}]", s.hands[o]);
                }
            }
            let ToMove::Seat(seat) = g.to_move(s) else { return };
            let out = out.get_or_insert_with(|| s.clone());
            g.determinize(s, seat, &mut rng, out);
            for o in (0..g.players).filter(|&o| o != seat) {
                for (i, &c) in out.hands[o].cards().iter().enumerate() {
                    let passed = s.hands[o].passed_up(i);
                    assert_eq!(out.hands[o].passed_up(i), passed, "a sample keeps the passed-up kinds by position");
                    beliefs += passed.count_ones().min(1);
                    honoured += u32::from(passed >> c & 1 == 0 && passed != 0);
                }
            }
        };
        play_checked(&g, &mut bots, seed, 1_000_000, &mut 0, &mut each).expect("a checked game");
    }
    assert!(beliefs > 200, "few cards with passed-up kinds ({beliefs}): the test checks little");
    assert_eq!(honoured, beliefs, "a sample dealt a card its holder passed up");
}

#[test]
fn the_public_record_follows_takes_placements_and_pairs() {
    let g = standard();
    let red_square = RED_SQUARE;
    let mut s = table(&g, &[&[RED_CIRCLE, RED_STAR, ORANGE_SQUARE], &[YELLOW_STAR, GREEN_CROSS, BLUE_PENTAGON]], &[red_square], &[7], Rest::Pile);
    g.apply(&mut s, 0, Action::Take(0), &mut GameRng::seed_from(0), &mut EventLog::new(false));
    assert_eq!(s.known[0][red_square as usize], 1);
    g.apply(&mut s, 0, Action::Place(red_square), &mut GameRng::seed_from(0), &mut EventLog::new(false));
    assert_eq!((s.known[0][red_square as usize], s.excluded[0]), (0, 1 << red_square));
    g.check_invariants(&s).expect("consistent record");
}

// ---------------------------------------------------------------------------------------
// Standing

/// One traced game (2 memory bots, `game_seed(16, 0)`): its standings are the pairs made,
/// turn by turn, and the generic figures come out as computed by hand from them.
#[test]
fn a_traced_game_gives_the_hand_computed_standing_figures() {
    let g = game_with(|p| p.players = 2);
    let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..2).map(|_| Box::new(bots::MemoryBot::new(1.0)) as Box<dyn Bot<MatchPatch>>).collect();
    let mut metrics = <MatchPatch as Game>::Metrics::default();
    let mut trace = crate::engine::StandingTrace::new(2);
    let o = crate::engine::play_watched(&g, &mut bots, game_seed(16, 0), PlayOptions { checked: true }, &mut metrics, &mut trace).unwrap();
    assert_eq!(o, play(&g, &mut bots, game_seed(16, 0), PlayOptions::default(), None, None).unwrap(), "watching changes nothing");
    let rows: Vec<[i64; 2]> = trace.rows.iter().map(|r| [r[0], r[1]]).collect();
    #[rustfmt::skip]
    let expected = [[0, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [3, 0], [3, 0], [3, 0], [3, 2], [3, 2], [3, 2], [4, 2], [4, 2], [4, 2], [4, 9], [9, 9], [9, 13]];
    assert_eq!(rows, expected);
    assert_eq!((o.length, o.winners, o.scores[0], o.scores[1]), (18, 0b10, 9, 13));
    let f = crate::stats::standing::figures(&trace, o.winners);
    // Leaders: seat 0 in turns 1-15, seat 1 in 16, both in 17, seat 1 in 18: 3 changes.
    assert_eq!((f.turns, f.lead_changes), (18, 3));
    let w = f.winner.unwrap();
    // Seat 1 trails by 3 at worst (turns 7-9, seat 0 on 3 pairs: 100% of the leader's pairs),
    // trails at the halfway turn 9, leads for good from turn 18 (17/18 of the game played)
    // and wins 13 to 9.
    assert_eq!((w.drama, w.drama_share, w.lead_from, w.trailed_at_half, w.margin), (3, Some(1.0), 18, true, 4));
    assert_eq!(w.decisiveness, 17.0 / 18.0);
}

// ---------------------------------------------------------------------------------------
// The table's memory bot against the plain one

/// [`TableMemoryBot`] (the view, no events: what a table of memory bots plays) makes every
/// choice and every recall draw of the plain event-following [`MemoryBot`]: whole games
/// traced line by line, over table sizes, recalls (mixed at one table), pair draws and
/// seeds, and the quick loop's outcomes.
#[test]
fn the_table_memory_bot_plays_the_plain_memory_bot() {
    let recalls = [1.0, 0.0, 0.5, 0.9, 0.25, 1.0, 0.75, 0.1];
    for (case, &(players, pair_draws)) in [(2u32, 2u32), (3, 1), (4, 2), (4, 0), (6, 2)].iter().enumerate() {
        let g = game_with(|p| {
            p.players = players;
            p.pair_draws = pair_draws;
        });
        for round in 0..3 {
            let recall = |seat: usize| if round == 0 { 1.0 } else { recalls[(seat + round + case) % recalls.len()] };
            let mut plain: Vec<Box<dyn Bot<MatchPatch>>> =
                (0..g.players).map(|seat| Box::new(MemoryBot::new(recall(seat))) as Box<dyn Bot<MatchPatch>>).collect();
            let mut table = crate::engine::Uniform::new((0..g.players).map(|seat| TableMemoryBot::new(recall(seat))).collect());
            for i in 0..40 {
                let seed = game_seed((case * 10 + round) as u64, i);
                let (mut a, mut b) = (String::new(), String::new());
                let oa = play(&g, &mut plain, seed, PlayOptions::default(), None, Some(&mut |t: &str| a.push_str(t))).unwrap();
                let ob = play(&g, &mut table, seed, PlayOptions { checked: true }, None, Some(&mut |t: &str| b.push_str(t))).unwrap();
                assert_eq!(a, b, "{players} players, pair_draws {pair_draws}, round {round}, game {i}");
                assert_eq!(oa, ob);
                assert_eq!(play(&g, &mut table, seed, PlayOptions::default(), None, None).unwrap(), oa, "the quick loop");
            }
        }
    }
}

/// An `ismcts` bot of `iterations` a decision whose rollouts play the default `memory` bot.
fn memory_search(g: &MatchPatch, iterations: u32) -> Box<dyn Bot<MatchPatch>> {
    use crate::engine::ismcts::{Bar, Ismcts, Model, Rollout, SearchParams};
    let params = SearchParams {
        iterations,
        exploration: 0.7,
        rollout: Rollout::DefaultBot,
        depth: 0,
        opponents: false,
        trust: 1.0,
        policy: true,
        model: Model::Default,
        bar: Bar::Luck,
    };
    Box::new(Ismcts::new(g, params))
}

/// A search bot whose rollouts play the default `memory` bot from the middle of a game
/// (`rollout=1`): the rollout bots start from the sampled patch (the table version needs no
/// history), every choice is legal, and the games end.
#[test]
fn search_rollouts_with_the_memory_bot_start_mid_game() {
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = vec![memory_search(&g, 40)];
    bots.extend((1..g.seats()).map(|_| (bots::memory_info().build)(&g, &[0.5])));
    for i in 0..3 {
        let o = play(&g, &mut bots, game_seed(11, i), PlayOptions { checked: true }, None, None).expect("legal play");
        assert!(o.length > 0);
    }
}

/// The simulator's quick loop drops the public record that only samples read when no seat
/// samples, and keeps it (the search's samples read it) when one does: a table of `memory`
/// bots, then the same table with a search at seat 0, dealing into the same state.
#[test]
fn the_quick_loop_keeps_the_sample_record_only_for_a_table_that_samples() {
    let g = standard();
    use crate::engine::Table;
    let memory = || (bots::memory_info().build)(&g, &[1.0]);
    let mut plain: Vec<Box<dyn Bot<MatchPatch>>> = (0..g.seats()).map(|_| memory()).collect();
    let mut scratch = None;
    plain.play_reusing(&g, game_seed(3, 0), PlayOptions::default(), &mut scratch).expect("legal play");
    assert!(!scratch.as_ref().expect("dealt").records, "nobody samples: no record kept");
    let mut searching: Vec<Box<dyn Bot<MatchPatch>>> = vec![memory_search(&g, 20)];
    searching.extend((1..g.seats()).map(|_| memory()));
    searching.play_reusing(&g, game_seed(3, 1), PlayOptions::default(), &mut scratch).expect("legal play");
    let s = scratch.as_ref().expect("dealt");
    assert!(s.records, "a search samples: the record is kept");
    assert!(g.check_invariants(s).is_ok(), "and it fits the hands");
}

// ---------------------------------------------------------------------------------------
// Fast paths against their plain versions (issue 21)

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The patch's counts per kind follow any series of placements and takes.
    #[test]
    fn the_patch_counts_follow_its_slots(
        steps in proptest::collection::vec((any::<bool>(), 0..KINDS as Card, 0usize..64), 0..80),
    ) {
        let mut patch = Patch::with_capacity(4);
        let mut serial = 0;
        for (place, card, at) in steps {
            if place || patch.is_empty() {
                patch.push(Slot { card, serial });
                serial += 1;
            } else {
                let i = at % patch.len();
                let expected = patch[i];
                let mut plain = patch.clone();
                prop_assert_eq!(patch.take(i), expected);
                prop_assert_eq!(plain.take_plain(i), expected);
                prop_assert_eq!(&plain, &patch);
                prop_assert_eq!(format!("{plain:?}"), format!("{patch:?}"));
            }
            for card in 0..KINDS as Card {
                prop_assert_eq!(patch.first_of(card), patch.first_of_plain(card));
            }
            let mut counts = [0u8; KINDS];
            for slot in patch.iter() {
                counts[slot.card as usize] += 1;
            }
            prop_assert_eq!(patch.counts(), &counts);
            prop_assert_eq!(patch.kinds(), patch.kinds_plain());
        }
        let copy: Patch = patch.iter().copied().collect();
        prop_assert_eq!(&copy, &patch);
        let mut reused = Patch::with_capacity(0);
        reused.push(Slot { card: 3, serial: 0 });
        reused.clone_from(&patch);
        prop_assert_eq!(&reused, &patch);
    }

    /// A hand (its window in room to spare, passed-up kinds kept as differences, gaps closed
    /// from either side) follows any series of additions, pile draws, removals and laid pairs
    /// exactly as the plain list does: the same cards in order, the same counts and masks,
    /// the same passed-up kinds per card, also after a determinization's re-deal.
    #[test]
    fn the_hand_is_the_plain_hand(
        steps in proptest::collection::vec((0u8..5, 0..KINDS as Card, any::<u32>(), 0usize..64), 0..160),
        cap in 1usize..=HAND_CAP,
    ) {
        let mut hand = Hand::EMPTY;
        let mut plain = PlainHand::default();
        for (op, card, shown, at) in steps {
            let shown = shown & ((1 << KINDS) - 1);
            match op {
                0 | 1 if plain.cards.len() < cap => {
                    hand.push(card);
                    plain.push(card);
                }
                2 => {
                    hand.pass_up(shown);
                    plain.pass_up(shown);
                }
                3 if hand.pair_mask() != 0 => {
                    let card = hand.pair_mask().trailing_zeros() as Card;
                    hand.remove_pair(card);
                    plain.remove(card);
                    plain.remove(card);
                }
                _ if !plain.cards.is_empty() => {
                    let card = plain.cards[at % plain.cards.len()];
                    if op == 4 {
                        hand.remove(card);
                    } else {
                        hand.remove_at(plain.cards.iter().position(|&c| c == card).unwrap());
                    }
                    plain.remove(card);
                }
                _ => {}
            }
            prop_assert_eq!(hand.cards(), &plain.cards[..]);
            let passed: Vec<u32> = (0..hand.len()).map(|i| hand.passed_up(i)).collect();
            prop_assert_eq!(&passed, &plain.passed);
            counts_agree(&hand, &plain.cards)?;
            let other: Vec<Card> = plain.cards.iter().map(|&c| (c + 7) % KINDS as Card).collect();
            let redealt = hand.redealt(&other);
            prop_assert_eq!(redealt.cards(), &other[..]);
            prop_assert_eq!((0..redealt.len()).map(|i| redealt.passed_up(i)).collect::<Vec<_>>(), passed);
        }
        hand.clear();
        prop_assert_eq!(hand, Hand::EMPTY);
        prop_assert_eq!(format!("{hand:?}"), format!("{:?}", Hand::EMPTY));
    }

    /// A hand whose removals leave the passed-up kinds stale ([`Hand::remove_unrecorded`],
    /// word operations in a small hand) holds the plain list's cards in order, with its
    /// counts and masks, whatever the window's place in the buffers and the hand's size.
    #[test]
    fn the_unrecorded_hand_is_the_plain_hand(
        steps in proptest::collection::vec((0u8..4, 0..KINDS as Card, 0usize..64), 0..200),
        cap in 1usize..=HAND_CAP,
    ) {
        let mut hand = Hand::EMPTY;
        let mut plain = PlainHand::default();
        for (op, card, at) in steps {
            match op {
                0 | 1 if plain.cards.len() < cap => {
                    hand.push(card);
                    plain.push(card);
                }
                2 if !plain.cards.is_empty() => {
                    let card = plain.cards[at % plain.cards.len()];
                    hand.remove_unrecorded(card);
                    plain.remove(card);
                }
                _ if !plain.cards.is_empty() => {
                    // Memory's placement: the oldest card, which moves the window up.
                    let card = plain.cards[0];
                    hand.remove(card);
                    plain.remove(card);
                }
                _ => {}
            }
            prop_assert_eq!(hand.cards(), &plain.cards[..]);
            counts_agree(&hand, &plain.cards)?;
        }
    }

    /// A hand dealt from a pile's top is the hand its cards popped and pushed one by one make.
    #[test]
    fn a_dealt_hand_is_the_pushed_hand(top in proptest::collection::vec(0..KINDS as Card, 0..=HAND_CAP)) {
        let mut dealt = Hand::EMPTY;
        dealt.deal_from_top(&top);
        let popped: Vec<Card> = top.iter().rev().copied().collect();
        prop_assert_eq!(dealt, Hand::from_cards(&popped));
    }

    /// The perfect-memory choice from the patch's kinds is [`memory_choice`] with every slot
    /// remembered.
    #[test]
    fn the_perfect_memory_choice_is_memory_choice(
        cards in proptest::collection::vec(0..KINDS as Card, 1..6),
        slots in proptest::collection::vec(0..KINDS as Card, 0..30),
        pile in 0usize..3,
    ) {
        prop_assume!(pile > 0 || !slots.is_empty());
        let hand = Hand::from_cards(&cards);
        let patch: Patch = slots.iter().enumerate().map(|(i, &card)| Slot { card, serial: i as u32 }).collect();
        let fast = TableMemoryBot::choose_perfect(&hand, pile, &patch);
        prop_assert_eq!(fast, memory_choice(&hand, pile, &slots));
        for card in 0..KINDS as Card {
            prop_assert_eq!(patch.first_of(card), patch.first_of_plain(card));
        }
    }

    /// [`Patch::first_of`] (by the bits of placement numbers while they are tracked) is
    /// [`Patch::first_of_plain`] after any placements and takes, with placement numbers in
    /// order (as the rules place them, past 64 too) or in any order, through clones too.
    #[test]
    fn first_of_is_the_plain_search_whatever_the_placement_numbers(
        steps in proptest::collection::vec((0u8..4, 0..KINDS as Card, 0usize..64, 0u32..80), 0..120),
        ordered in any::<bool>(),
    ) {
        let mut patch = Patch::with_capacity(2);
        let mut serial = 0;
        for (op, card, at, jump) in steps {
            match op {
                0 | 1 => {
                    let next = if ordered { serial + jump % 3 } else { jump };
                    patch.push(Slot { card, serial: next });
                    serial = next + 1;
                }
                2 if !patch.is_empty() => {
                    patch.take(at % patch.len());
                }
                _ => {
                    let mut copy = Patch::with_capacity(0);
                    copy.clone_from(&patch);
                    patch = copy.clone();
                }
            }
            for card in 0..KINDS as Card {
                prop_assert_eq!(patch.first_of(card), patch.first_of_plain(card));
            }
        }
        patch.clear();
        patch.push(Slot { card: 5, serial: 0 });
        prop_assert_eq!(patch.first_of(5), Some(0));
    }
}

/// The rules applied with a recording log and with a disabled one (the quick loop's
/// version of [`MatchPatch::step`]) leave the same state after every action, on every
/// bundled variant's parameters and a few more.
#[test]
fn the_quiet_step_is_the_recording_step() {
    let games = [
        standard(),
        game_with(|p| p.players = 2),
        game_with(|p| {
            p.players = 6;
            p.pair_draws = 1;
        }),
        game_with(|p| {
            p.deal = 20;
            p.players = 2;
            p.deck.base_sets = 4;
        }),
    ];
    for (k, g) in games.iter().enumerate() {
        for i in 0..30 {
            let seed = game_seed(k as u64, i);
            let mut rng = GameRng::seed_from(seed);
            let mut loud = g.deal(&mut rng.clone(), &mut EventLog::new(true));
            let mut quiet = g.deal(&mut rng, &mut EventLog::new(false));
            assert_eq!(format!("{loud:?}"), format!("{quiet:?}"));
            let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..g.players).map(|_| bot("memory", &[0.7])).collect();
            for (seat, b) in bots.iter_mut().enumerate() {
                b.new_game(g, seat);
            }
            let mut bot_rng = GameRng::seed_from(seed ^ 1);
            while let ToMove::Seat(seat) = g.to_move(&loud) {
                let action = bots[seat].decide(g, &g.view(&loud, seat), &mut bot_rng);
                let mut log = EventLog::new(true);
                g.apply(&mut loud, seat, action, &mut bot_rng.clone(), &mut log);
                g.apply(&mut quiet, seat, action, &mut bot_rng.clone(), &mut EventLog::new(false));
                assert_eq!(format!("{loud:?}"), format!("{quiet:?}"), "variant {k}, game {i}");
                g.check_invariants(&quiet).expect("invariants hold");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The game's own loop for a perfect-memory table against the engine's plain loop

/// Valid parameters of every kind: table sizes, deals up to the deck, redraws, decks and
/// caps low enough to be reached.
fn arb_game() -> impl Strategy<Value = Params> {
    (2u32..=8, 0u32..=24, 0u32..=2, prop::sample::select(vec![2u32, 4, 6]), 1u32..=120).prop_map(|(players, deal, pair_draws, base_sets, turn_cap)| {
        let mut p = Params { players, deal: deal.min(base_sets * KINDS as u32 / players), pair_draws, turn_cap, ..Params::default() };
        p.deck.base_sets = base_sets;
        p
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The table's memory bot (placement bits while the patch keeps them, a scan of the
    /// slots after: decks of 6 sets place more than 64 cards) plays the plain event-following
    /// [`MemoryBot`]'s game on any parameters, with any recalls mixed at one table: the same
    /// trace line by line, the same outcome, and checked play (each choice is also compared
    /// with [`memory_choice`] in debug builds).
    #[test]
    fn the_table_memory_bot_plays_the_plain_one_on_any_table(params in arb_game(), recalls in prop::collection::vec(prop::sample::select(vec![0.0, 0.3, 0.9, 1.0]), 8), seed in any::<u64>()) {
        let g = MatchPatch::new(params).expect("valid");
        let mut plain: Vec<Box<dyn Bot<MatchPatch>>> = recalls[..g.players].iter().map(|&r| Box::new(MemoryBot::new(r)) as Box<dyn Bot<MatchPatch>>).collect();
        let mut table = crate::engine::Uniform::new(recalls[..g.players].iter().map(|&r| TableMemoryBot::new(r)).collect());
        let (mut a, mut b) = (String::new(), String::new());
        let oa = play(&g, &mut plain, seed, PlayOptions::default(), None, Some(&mut |t: &str| a.push_str(t))).unwrap();
        let ob = play(&g, &mut table, seed, PlayOptions { checked: true }, None, Some(&mut |t: &str| b.push_str(t))).unwrap();
        prop_assert_eq!(a, b);
        prop_assert_eq!(&oa, &ob);
        prop_assert_eq!(&play(&g, &mut table, seed, PlayOptions::default(), None, None).unwrap(), &oa, "the quick loop");
    }
}

#[test]
fn perfect_memory_never_draws() {
    // The table's own bot with perfect memory says it never draws (its table gets no seat
    // streams) and leaves the stream it is handed alone; with any forgetting it draws.
    let g = standard();
    let mut bots: Vec<Box<dyn Bot<MatchPatch>>> = (0..g.players).map(|_| Box::new(TableMemoryBot::new(1.0)) as Box<dyn Bot<MatchPatch>>).collect();
    crate::engine::check_never_draws(&g, &mut bots, 300).unwrap();
    assert!(TableMemoryBot::new(0.99).draws());
}

// ---------------------------------------------------------------------------------------
// The game's own loop (`play_out` in `rules.rs`) against the engine's plain loop

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// The game's own loop plays the same game as the engine's plain loop (the same final
    /// state, every draw of every stream), from the deal or from any later decision, for any
    /// valid parameters, boxed tables of mixed recalls and random seats, and a uniform
    /// table of memory bots (inlined).
    #[test]
    fn play_out_is_the_plain_loop(params in arb_game(), recalls in prop::collection::vec(prop::sample::select(vec![0.0, 0.3, 0.9, 1.0, -1.0]), 8), seed in any::<u64>(), lead in 0usize..80) {
        let g = MatchPatch::new(params).expect("valid");
        let n = g.players;
        let boxed = || -> Vec<Box<dyn Bot<MatchPatch>>> {
            recalls[..n].iter().map(|&r| if r < 0.0 { Box::new(crate::engine::RandomBot::<MatchPatch>::new()) as Box<dyn Bot<MatchPatch>> } else { Box::new(TableMemoryBot::new(r)) }).collect()
        };
        let mixed = crate::engine::check_play_out(&g, &mut boxed(), &mut boxed(), seed, lead);
        prop_assert!(mixed.is_ok(), "mixed table: {:?}", mixed.err());
        let uniform = || crate::engine::Uniform::new(recalls[..n].iter().map(|&r| TableMemoryBot::new(r.max(0.0))).collect());
        let table = crate::engine::check_play_out(&g, &mut uniform(), &mut uniform(), seed, lead);
        prop_assert!(table.is_ok(), "memory table: {:?}", table.err());
    }
}
