//! Beaver Mania tests: every legal-play form and illegal ones, every stab rule (display,
//! piles, put away, Bodyguard, Partybeaver, Hippie runs, jokers on lone action cards),
//! every action card, refills and the victims' draws, both end conditions, scoring, the
//! turn cap, matches, parameter checks, the rulebook's worked examples, greedy's definition,
//! and property tests (cards conserved, every choice legal, every game ends).

use crate::engine::Traces;
use proptest::prelude::*;

use super::cards::*;
use super::plays::*;
use super::*;
use crate::engine::{Bot, EventLog, Game, GameRng, PlayOptions, SeedFrom, ToMove, play};
use crate::variant::Variant;

// ---------------------------------------------------------------------------------------
// Helpers

fn game_with(f: impl FnOnce(&mut Params)) -> BeaverMania {
    let mut p = Params::default();
    f(&mut p);
    BeaverMania::new(p).expect("valid test parameters")
}

fn standard() -> BeaverMania {
    game_with(|_| {})
}

/// The card of number `v`.
fn n(v: u8) -> Card {
    number(v)
}

/// A table: the given hands, display, stock and piles (each pile a list of plays, bottom
/// first); every other card in the draw pile in canonical order, `draw_top` on top (last
/// element on top); seat 0 to play its first turn.
struct Table<'a> {
    hands: &'a [&'a [Card]],
    display: &'a [Card],
    stock: &'a [Card],
    piles: &'a [&'a [Play]],
    draw_top: &'a [Card],
}

const EMPTY: Table = Table { hands: &[], display: &[], stock: &[], piles: &[], draw_top: &[] };

fn table(g: &BeaverMania, t: Table) -> State {
    let mut rng = GameRng::seed_from(0);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    let mut left = g.copies;
    let mut take = |c: Card| {
        assert!(left[c as usize] > 0, "test table uses more {} than the deck has", card_name(c));
        left[c as usize] -= 1;
    };
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    for (seat, h) in t.hands.iter().enumerate() {
        for &c in *h {
            take(c);
            s.hands[seat].add(c);
        }
    }
    s.display = Hand::EMPTY;
    for &c in t.display {
        take(c);
        s.display.add(c);
    }
    s.stock = Hand::EMPTY;
    for &c in t.stock {
        take(c);
        s.stock.add(c);
    }
    for p in s.piles.iter_mut() {
        p.cards.clear();
        p.plays.clear();
    }
    for (seat, plays) in t.piles.iter().enumerate() {
        for p in *plays {
            let cards = p.cards();
            for c in cards.kinds() {
                for _ in 0..cards.count(c) {
                    take(c);
                }
            }
            s.piles[seat].push_play(p);
        }
    }
    for &c in t.draw_top {
        take(c);
    }
    s.draw.clear();
    for (c, &k) in left.iter().enumerate() {
        s.draw.extend(std::iter::repeat_n(c as Card, k as usize));
    }
    s.draw.extend_from_slice(t.draw_top);
    s.current = 0;
    s.step = Step::Play;
    s
}

/// Applies `action` for whoever must decide, checking legality and the invariants.
fn act(g: &BeaverMania, s: &mut State, action: Action) {
    let seat = match g.to_move(s) {
        ToMove::Seat(seat) => seat,
        ToMove::Over => panic!("game over"),
    };
    let view = g.view(s, seat);
    assert!(g.is_legal(&view, &action), "{action:?} must be legal at {:?}", view.step);
    let mut legal = Vec::new();
    g.legal_actions(&view, &mut legal);
    assert!(legal.contains(&action), "{action:?} must be listed at {:?}: {legal:?}", view.step);
    g.apply(s, seat, action, &mut GameRng::seed_from(1), &mut EventLog::new(false));
}

/// Like [`act`] but the invariants must hold afterwards (a full table built by [`table`]).
fn act_checked(g: &BeaverMania, s: &mut State, action: Action) {
    act(g, s, action);
    g.check_invariants(s).expect("invariants hold");
}

fn legal(g: &BeaverMania, s: &State) -> Vec<Action> {
    let seat = match g.to_move(s) {
        ToMove::Seat(seat) => seat,
        ToMove::Over => return Vec::new(),
    };
    let mut out = Vec::new();
    g.legal_actions(&g.view(s, seat), &mut out);
    out
}

fn plays_of(g: &BeaverMania, hand: &[Card], targets: &HippieTargets) -> Vec<Play> {
    let mut out = Vec::new();
    for_each_play(&Hand::from_cards(hand), g.numbers, targets, |p| out.push(p));
    out
}

const NO_TARGETS: HippieTargets = [u8::MAX; 8];

fn group(v: u8, count: u8) -> Play {
    Play::Group { number: n(v), count, jokers: 0, action: NO_CARD }
}

fn group_with(v: u8, count: u8, action: Card) -> Play {
    Play::Group { number: n(v), count, jokers: 0, action }
}

fn bot(name: &str) -> Box<dyn Bot<BeaverMania>> {
    let g = standard();
    let info = crate::engine::all_bots(&g).into_iter().find(|b| b.name == name).expect("bot exists");
    let v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    (info.build)(&g, &v)
}

// ---------------------------------------------------------------------------------------
// Legal plays

#[test]
fn every_legal_play_form() {
    let g = standard();
    let hand = [n(5), n(5), n(6), n(7), n(9), JOKER, THIEF, HIPPIE, PARTYBEAVER];
    let plays = plays_of(&g, &hand, &NO_TARGETS);
    // Identical numbers, with jokers, with one action card (not the Partybeaver).
    assert!(plays.contains(&group(5, 2)));
    assert!(plays.contains(&Play::Group { number: n(5), count: 2, jokers: 1, action: NO_CARD }));
    assert!(plays.contains(&group_with(5, 2, THIEF)));
    assert!(plays.contains(&group_with(5, 1, HIPPIE)), "the Hippie may join identical numbers");
    assert!(!plays.contains(&group_with(5, 2, PARTYBEAVER)), "the Partybeaver never joins identical numbers");
    // Jokers alone.
    assert!(plays.contains(&Play::Jokers { count: 1 }));
    // Hippie runs: 5-6-7 plus the Hippie as 4 or 8; 5-7 with the Hippie as 6; 7-9 with it as 8.
    for p in [
        Play::HippieRun { low: n(4), len: 4, hippie: n(4) },
        Play::HippieRun { low: n(5), len: 4, hippie: n(8) },
        Play::HippieRun { low: n(5), len: 3, hippie: n(7) },
        Play::HippieRun { low: n(6), len: 4, hippie: n(8) },
        Play::HippieRun { low: n(7), len: 3, hippie: n(8) },
    ] {
        assert!(plays.contains(&p), "{p} must be legal");
    }
    // The Partybeaver with three unrelated numbers: 5, 7, 9 (not 5, 6, ...).
    assert!(plays.contains(&Play::Party { a: n(5), b: n(7), c: n(9) }));
    assert!(!plays.iter().any(|p| matches!(p, Play::Party { b, .. } if *b == n(6))));
    // Action cards alone.
    for card in [THIEF, HIPPIE, PARTYBEAVER] {
        assert!(plays.contains(&Play::Lone { card }));
    }
    // A plain run 5-6-7 stabs no Hippie run here: illegal.
    assert!(!plays.iter().any(|p| matches!(p, Play::PlainRun { .. })));
    // Every listed play is legal and sizes are right.
    for p in &plays {
        assert!(is_legal_play(p, &Hand::from_cards(&hand), g.numbers, &NO_TARGETS), "{p:?}");
    }
    assert_eq!(group_with(5, 2, THIEF).size(), 3);
    assert_eq!(Play::Group { number: n(5), count: 2, jokers: 1, action: NO_CARD }.size(), 3);
}

#[test]
fn illegal_plays_are_refused() {
    let g = standard();
    let hand = Hand::from_cards(&[n(5), n(5), n(6), JOKER, THIEF, KING, PARTYBEAVER]);
    let ok = |p: Play| is_legal_play(&p, &hand, g.numbers, &NO_TARGETS);
    assert!(!ok(Play::Group { number: n(5), count: 1, jokers: 1, action: THIEF }), "jokers never with action cards");
    assert!(!ok(group(5, 3)), "more copies than held");
    assert!(!ok(group_with(5, 1, PARTYBEAVER)));
    assert!(!ok(Play::Group { number: n(5), count: 0, jokers: 1, action: NO_CARD }));
    assert!(!ok(Play::Jokers { count: 2 }));
    assert!(!ok(Play::HippieRun { low: n(4), len: 3, hippie: n(4) }), "no Hippie held");
    assert!(!ok(Play::PlainRun { low: n(4), len: 3 }));
    assert!(!ok(Play::Party { a: n(5), b: n(6), c: n(9) }), "consecutive numbers");
    assert!(!ok(Play::Lone { card: FAIRY }), "not held");
    assert!(!ok(Play::Lone { card: n(5) }), "a number is not an action card");
    // Two different numbers, or two action cards, are no play at all.
    let plays = plays_of(&g, &[n(5), n(6), THIEF, KING], &NO_TARGETS);
    assert!(plays.iter().all(|p| p.cards().numbers() <= 1 || matches!(p, Play::PlainRun { .. } | Play::HippieRun { .. } | Play::Party { .. })));
    assert!(plays.iter().all(|p| p.cards().actions() <= 1));
    // Runs longer than 7 or shorter than 3 do not exist.
    let long = [n(1), n(2), n(3), n(4), n(5), n(6), n(7), n(8), HIPPIE];
    assert!(plays_of(&g, &long, &NO_TARGETS).iter().all(|p| match p {
        Play::HippieRun { len, .. } => (3..=7).contains(len),
        _ => true,
    }));
    let h = Hand::from_cards(&[n(5), n(6), HIPPIE]);
    assert!(!is_legal_play(&Play::HippieRun { low: n(5), len: 2, hippie: n(6) }, &h, g.numbers, &NO_TARGETS));
    assert!(!is_legal_play(&Play::HippieRun { low: n(11), len: 3, hippie: n(13) }, &h, g.numbers, &NO_TARGETS), "beyond the highest number");
}

#[test]
fn a_plain_run_needs_a_hippie_run_to_stab_or_to_be_the_last_cards() {
    let g = game_with(|p| p.players = 2);
    let hand = [n(5), n(6), n(7), n(1)];
    let mut targets = NO_TARGETS;
    targets[3] = n(6); // a Hippie run 4-6 on another pile
    let plays = plays_of(&g, &hand, &targets);
    assert!(plays.contains(&Play::PlainRun { low: n(5), len: 3 }), "5-7 stabs the Hippie run 4-6");
    targets[3] = n(8);
    assert!(!plays_of(&g, &hand, &targets).contains(&Play::PlainRun { low: n(5), len: 3 }), "a lower run cannot stab 6-8");
    assert!(plays_of(&g, &hand[..3], &NO_TARGETS).contains(&Play::PlainRun { low: n(5), len: 3 }), "the last cards");
    // Through the table: a Hippie run on seat 1's pile makes the plain run legal for seat 0.
    let mut s = table(&g, Table { hands: &[&hand, &[n(2)]], piles: &[&[], &[Play::HippieRun { low: n(4), len: 3, hippie: n(4) }]], ..EMPTY });
    act_checked(&g, &mut s, Action::Play(Play::PlainRun { low: n(5), len: 3 }));
    assert_eq!(s.step, Step::Pile { seat: 1 });
    act_checked(&g, &mut s, Action::Take(false));
    assert!(s.piles[1].is_empty());
    assert_eq!(s.put_away.len(), 3);
}

#[test]
fn judging_top_plays_and_remnants() {
    let j = |cards: &[Card], decl: Card, original: bool| judge(&Hand::from_cards(cards), decl, original);
    assert_eq!(j(&[n(7), n(7), JOKER], NO_CARD, true).form, Form::Group { value: n(7), size: 3 });
    // A lone joker left of 7, 7, joker counts as jokers alone.
    assert_eq!(j(&[JOKER], NO_CARD, false).form, Form::Group { value: JOKERS_VALUE, size: 1 });
    // A lone thief left of a play forms no play; played alone it is a lone action card.
    assert_eq!(j(&[THIEF], NO_CARD, false).form, Form::None);
    assert_eq!(j(&[THIEF], NO_CARD, true).form, Form::Lone);
    // A run with a gap, a Partybeaver without its three numbers: no play.
    assert_eq!(j(&[n(4), n(6), n(7)], NO_CARD, false).form, Form::None);
    assert_eq!(j(&[n(3), n(8), PARTYBEAVER], NO_CARD, false).form, Form::None);
    assert_eq!(j(&[n(3), n(8), n(11), PARTYBEAVER], NO_CARD, true).form, Form::Party);
    // A Hippie run keeps its declaration; 4(h)-5-6 minus nothing, minus 6 is 5 + hippie.
    assert_eq!(j(&[n(5), n(6), HIPPIE], n(4), false).form, Form::Run { len: 3, high: n(6), hippie: true });
    assert_eq!(j(&[n(5), n(7), HIPPIE], n(4), false).form, Form::None);
    assert_eq!(j(&[n(5), HIPPIE], n(4), false).form, Form::Group { value: n(5), size: 2 });
    // A Bodyguard protects whatever is left of its play.
    let g = j(&[n(7), BODYGUARD], NO_CARD, false);
    assert!(g.guard);
    assert_eq!(g.form, Form::Group { value: n(7), size: 2 });
}

// ---------------------------------------------------------------------------------------
// Stabbing: the rulebook's examples

#[test]
fn rulebook_a_5_stabs_a_4_and_two_6_stab_two_3() {
    let top = |p: Play| Judged { form: p.form(), guard: p.guard() };
    assert!(stabs(group(5, 1).form(), top(group(4, 1))));
    assert!(stabs(group(6, 2).form(), top(group(3, 2))));
    assert!(!stabs(group(6, 2).form(), top(group(3, 1))), "same number of cards only");
    assert!(!stabs(group(4, 1).form(), top(group(5, 1))), "higher numbers stab lower");
    assert!(!stabs(group(5, 1).form(), top(group(5, 1))), "equal does not stab");
    // Action cards take the value of their numbers: 6 + thief stabs 5 + 5.
    assert!(stabs(group_with(6, 1, THIEF).form(), top(group(5, 2))));
    // 2 x 5 + joker = 3 x 5: stabs three 4s.
    let two_fives_joker = Play::Group { number: n(5), count: 2, jokers: 1, action: NO_CARD };
    assert_eq!(two_fives_joker.form(), Form::Group { value: n(5), size: 3 });
    assert!(stabs(two_fives_joker.form(), top(group(4, 3))));
    // Jokers alone are above every number and are stabbed by nothing.
    assert!(stabs(Play::Jokers { count: 2 }.form(), top(group(12, 2))));
    assert!(!stabs(Play::Jokers { count: 2 }.form(), top(Play::Jokers { count: 1 })));
    assert!(!stabs(Play::Jokers { count: 2 }.form(), Judged { form: Form::Group { value: JOKERS_VALUE, size: 2 }, guard: false }));
    // An action card alone is stabbed by a single joker alone (and nothing else).
    assert!(stabs(Play::Jokers { count: 1 }.form(), top(Play::Lone { card: FAIRY })));
    assert!(!stabs(group(12, 1).form(), top(Play::Lone { card: FAIRY })));
    assert!(!stabs(Play::Jokers { count: 1 }.form(), top(Play::Lone { card: BODYGUARD })), "a lone Bodyguard");
    // Bodyguard and Partybeaver plays are never stabbed.
    assert!(!stabs(group(9, 2).form(), top(group_with(3, 1, BODYGUARD))));
    assert!(!stabs(Play::Jokers { count: 4 }.form(), top(Play::Party { a: n(1), b: n(3), c: n(5) })));
    // Runs stab only runs of the same length with a lower highest number.
    let hr = Play::HippieRun { low: n(3), len: 4, hippie: n(4) };
    assert!(stabs(Play::PlainRun { low: n(4), len: 4 }.form(), top(hr)));
    assert!(!stabs(Play::PlainRun { low: n(4), len: 3 }.form(), top(hr)));
    assert!(!stabs(group(12, 4).form(), top(hr)));
    assert!(!stabs(Play::HippieRun { low: n(4), len: 4, hippie: n(5) }.form(), top(group(2, 4))));
    // Partybeaver plays and lone action cards stab nothing.
    assert!(!Play::Party { a: n(1), b: n(3), c: n(5) }.stabs_at_all());
    assert!(!Play::Lone { card: THIEF }.stabs_at_all());
}

#[test]
fn rulebook_display_two_7s_or_two_10s_the_player_chooses_one() {
    let g = game_with(|p| p.players = 2);
    let display = [n(7), n(7), n(10), n(10), n(10), n(12), n(12), n(3), JOKER];
    let hand = [n(11), n(11), n(2)];
    let mut s = table(&g, Table { hands: &[&hand, &[n(1)]], display: &display, ..EMPTY });
    act_checked(&g, &mut s, Action::Play(group(11, 2)));
    assert_eq!(s.step, Step::StabDisplay);
    assert_eq!(legal(&g, &s), vec![Action::StabDisplay(n(7)), Action::StabDisplay(n(10))], "not the 3 (only one), not the 12s (higher)");
    act_checked(&g, &mut s, Action::StabDisplay(n(10)));
    assert_eq!(s.hands[0].count(n(10)), 2, "takes exactly k of the number");
    assert_eq!(s.hands[0].count(n(2)), 1);
    // The display was refilled to 9.
    assert_eq!(s.display.len(), 9);
    assert_eq!(s.display.count(n(7)), 2);
    assert_eq!((s.current, s.step), (1, Step::Play));
}

#[test]
fn display_stab_is_forced_and_single_options_resolve_themselves() {
    let g = game_with(|p| p.players = 2);
    let display = [n(4), n(9), JOKER, THIEF, n(1), n(1), n(2), n(2), n(3)];
    let mut s = table(&g, Table { hands: &[&[n(5), n(8)], &[n(1)]], display: &display, ..EMPTY });
    act_checked(&g, &mut s, Action::Play(group(5, 1)));
    // 1, 2, 3 and 4 qualify: a choice.
    assert_eq!(legal(&g, &s).len(), 4);
    act_checked(&g, &mut s, Action::StabDisplay(n(4)));
    assert!(s.hands[0].has(n(4)));
    // Jokers and action cards in the display are never stabbed; two 5s with only single
    // lower numbers in the display stab nothing there.
    let display = [n(9), JOKER, THIEF, n(1), n(2), n(3), n(4), n(10), n(11)];
    let mut s = table(&g, Table { hands: &[&[n(5), n(5), n(8)], &[n(1)]], display: &display, ..EMPTY });
    act_checked(&g, &mut s, Action::Play(group(5, 2)));
    assert_eq!((s.current, s.step), (1, Step::Play), "nothing to stab: the turn ends");
    assert_eq!(s.hands[0].len(), 1);
    // Exactly one option: taken at once.
    let display = [n(3), n(3), n(9), JOKER, THIEF, n(10), n(11), n(12), n(12)];
    let mut s = table(&g, Table { hands: &[&[n(5), n(5), n(8)], &[n(1)]], display: &display, ..EMPTY });
    act_checked(&g, &mut s, Action::Play(group(5, 2)));
    assert_eq!(s.hands[0].count(n(3)), 2);
    assert_eq!(s.step, Step::Play);
    // Jokers alone stab any number; runs never stab the display.
    let display = [n(12), n(12), n(9), n(9), n(1), n(2), n(3), n(4), n(5)];
    let mut s = table(&g, Table { hands: &[&[JOKER, JOKER, n(8)], &[n(1)]], display: &display, ..EMPTY });
    act_checked(&g, &mut s, Action::Play(Play::Jokers { count: 2 }));
    assert_eq!(legal(&g, &s), vec![Action::StabDisplay(n(9)), Action::StabDisplay(n(12))]);
    let mut s = table(&g, Table { hands: &[&[n(6), n(7), HIPPIE, n(11)], &[n(1)]], display: &[n(1), n(1), n(1), n(2), n(2), n(2), n(3), n(3), n(3)], ..EMPTY });
    act_checked(&g, &mut s, Action::Play(Play::HippieRun { low: n(5), len: 3, hippie: n(5) }));
    assert_eq!((s.current, s.display.len()), (1, 9), "a run stabs nothing in the display");
}

#[test]
fn piles_are_stabbed_when_possible_taken_or_put_away_each_at_most_once() {
    let g = game_with(|p| p.players = 4);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(9), n(9), n(1)], &[n(2)], &[n(2)], &[n(2)]],
            display: &[JOKER, THIEF, FAIRY, n(12), n(12), n(11), n(11), n(10), n(10)],
            piles: &[&[], &[group(3, 2), group(4, 2)], &[group(8, 2)], &[group(9, 2)]],
            stock: &[n(1), n(2), n(3), JOKER, KING],
            ..EMPTY
        },
    );
    let before = s.draw.len();
    act_checked(&g, &mut s, Action::Play(group(9, 2)));
    // Seat 1's 4+4 and seat 2's 8+8 are stabbed; seat 3's 9+9 is not (equal).
    assert_eq!(s.step, Step::Pile { seat: 1 });
    act_checked(&g, &mut s, Action::Take(true));
    assert_eq!(s.step, Step::Pile { seat: 2 }, "seat 1's exposed 3+3 is not stabbed again");
    act_checked(&g, &mut s, Action::Take(false));
    assert_eq!(s.hands[0].count(n(4)), 2, "taken into the hand");
    assert_eq!(s.put_away.count(n(8)), 2, "put away, out of the game");
    assert_eq!(s.piles[1].len(), 2);
    assert!(s.piles[2].is_empty());
    assert_eq!(s.piles[3].len(), 2);
    // Seats 1 and 2 lost 2 cards each: they draw (the stock offers choices, so they decide).
    assert_eq!(s.step, Step::Draw { seat: 1, left: 2 });
    for _ in 0..2 {
        act_checked(&g, &mut s, Action::Supply { from: Source::DrawPile, card: NO_CARD });
    }
    assert_eq!(s.step, Step::Draw { seat: 2, left: 2 });
    act_checked(&g, &mut s, Action::Supply { from: Source::DrawPile, card: NO_CARD });
    act_checked(&g, &mut s, Action::Supply { from: Source::DrawPile, card: NO_CARD });
    assert_eq!((s.current, s.step), (1, Step::Play));
    assert_eq!(s.hands[1].len(), 3);
    assert_eq!(s.hands[2].len(), 3);
    assert_eq!(before - s.draw.len(), 4);
}

#[test]
fn bodyguard_and_partybeaver_plays_cannot_be_stabbed_but_can_be_stolen_from() {
    let g = game_with(|p| p.players = 3);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(9), n(9), THIEF, n(1)], &[n(2)], &[n(2)]],
            display: &[JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10), n(10), KING],
            piles: &[&[], &[group_with(3, 2, BODYGUARD)], &[Play::Party { a: n(1), b: n(3), c: n(5) }]],
            stock: &[n(1), n(2), JOKER, KING, FAIRY],
            ..EMPTY
        },
    );
    act_checked(&g, &mut s, Action::Play(group_with(9, 2, THIEF)));
    assert_eq!(s.step, Step::Steal { left: 1 }, "nothing stabbed; the thief steals");
    // Steal the Bodyguard itself: the 3+3 left can now be stabbed (by a later play).
    act_checked(&g, &mut s, Action::Steal { from: Source::Pile, seat: 1, card: BODYGUARD });
    assert!(s.hands[0].has(BODYGUARD));
    let top = s.piles[1].top_judged();
    assert_eq!(top, Judged { form: Form::Group { value: n(3), size: 2 }, guard: false });
    // Seat 1 draws the stolen card.
    assert!(matches!(s.step, Step::Draw { seat: 1, left: 1 }));
}

#[test]
fn hippie_runs_are_stabbed_by_runs_of_the_same_length() {
    let g = game_with(|p| p.players = 3);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(5), n(7), n(8), HIPPIE, n(1)], &[n(2)], &[n(2)]],
            piles: &[&[], &[Play::HippieRun { low: n(3), len: 4, hippie: n(3) }], &[Play::PlainRun { low: n(4), len: 4 }]],
            display: &[JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10), n(10), KING],
            ..EMPTY
        },
    );
    act_checked(&g, &mut s, Action::Play(Play::HippieRun { low: n(5), len: 4, hippie: n(6) }));
    assert_eq!(s.step, Step::Pile { seat: 1 }, "3-6 (Hippie) and 4-7 (plain) are both lower runs of 4");
    act_checked(&g, &mut s, Action::Take(false));
    assert_eq!(s.step, Step::Pile { seat: 2 });
    act_checked(&g, &mut s, Action::Take(true));
    assert_eq!(s.hands[0].count(n(4)), 1);
}

#[test]
fn a_single_joker_stabs_a_lone_action_card() {
    let g = game_with(|p| p.players = 2);
    let mut s = table(
        &g,
        Table {
            hands: &[&[JOKER, n(1)], &[n(2)]],
            piles: &[&[], &[Play::Lone { card: FAIRY }]],
            display: &[JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10), n(10), KING],
            ..EMPTY
        },
    );
    act_checked(&g, &mut s, Action::Play(Play::Jokers { count: 1 }));
    // The joker also stabs one number in the display (a choice among several).
    assert_eq!(s.step, Step::StabDisplay);
    act_checked(&g, &mut s, Action::StabDisplay(n(12)));
    assert_eq!(s.step, Step::Pile { seat: 1 });
    act_checked(&g, &mut s, Action::Take(true));
    assert!(s.hands[0].has(FAIRY));
}

// ---------------------------------------------------------------------------------------
// Actions

#[test]
fn superbeaver_steals_two_and_the_second_may_come_from_the_exposed_play() {
    let g = game_with(|p| p.players = 2);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(9), SUPERBEAVER, n(1)], &[n(2)]],
            piles: &[&[], &[group(6, 2), Play::Lone { card: KING }]],
            display: &[JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10), n(10), n(8)],
            stock: &[n(1), n(2), n(3), n(4), n(5)],
            ..EMPTY
        },
    );
    act_checked(&g, &mut s, Action::Play(group_with(9, 1, SUPERBEAVER)));
    // 9 + superbeaver (size 2) stabs no display pair below 9 (none) and not the lone king.
    assert_eq!(s.step, Step::Steal { left: 2 });
    act_checked(&g, &mut s, Action::Steal { from: Source::Pile, seat: 1, card: KING });
    assert_eq!(s.step, Step::Steal { left: 1 });
    act_checked(&g, &mut s, Action::Steal { from: Source::Pile, seat: 1, card: n(6) });
    assert_eq!(s.hands[0].count(KING) + s.hands[0].count(n(6)), 2);
    assert_eq!(s.piles[1].len(), 1);
    assert_eq!(s.piles[1].top_judged().form, Form::Group { value: n(6), size: 1 });
    assert_eq!(s.step, Step::Draw { seat: 1, left: 2 }, "seat 1 draws for both stolen cards");
}

#[test]
fn rulebook_trick_steal_stab_then_steal_from_beneath() {
    let g = game_with(|p| p.players = 2);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(9), THIEF, n(1)], &[n(2)]],
            piles: &[&[], &[group(10, 3), group(5, 2)]],
            display: &[JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10), n(8), n(8)],
            stock: &[n(1), n(2), n(3), n(4), n(5)],
            ..EMPTY
        },
    );
    act_checked(&g, &mut s, Action::Play(group_with(9, 1, THIEF)));
    // Two 8s in the display are stabbed at once (the only option).
    assert_eq!(s.hands[0].count(n(8)), 2);
    assert_eq!(s.step, Step::Pile { seat: 1 });
    act_checked(&g, &mut s, Action::Take(false));
    // The exposed 10-10-10 can be stolen from.
    act_checked(&g, &mut s, Action::Steal { from: Source::Pile, seat: 1, card: n(10) });
    assert_eq!(s.piles[1].len(), 2);
    assert_eq!(s.step, Step::Draw { seat: 1, left: 3 });
}

#[test]
fn thief_steals_from_the_display_or_the_stock_and_steals_nothing_when_nothing_is_there() {
    let g = game_with(|p| {
        p.players = 2;
        p.display_size = 0;
    });
    let mut s = table(&g, Table { hands: &[&[n(9), THIEF, n(1)], &[n(2)]], stock: &[n(4), n(4), JOKER, KING, n(1)], ..EMPTY });
    act_checked(&g, &mut s, Action::Play(group_with(9, 1, THIEF)));
    assert_eq!(legal(&g, &s).len(), 4, "four kinds in the stock, nothing else");
    act_checked(&g, &mut s, Action::Steal { from: Source::Stock, seat: 0, card: JOKER });
    assert!(s.hands[0].has(JOKER));
    assert_eq!(s.stock.len(), 5, "the stock is refilled");
}

#[test]
fn fairy_wishes_a_card_and_the_wish_expires_when_not_held() {
    let g = game_with(|p| p.players = 3);
    let mut s = table(&g, Table { hands: &[&[FAIRY, n(1), n(1)], &[n(7), n(3)], &[n(2)]], ..EMPTY });
    act_checked(&g, &mut s, Action::Play(Play::Lone { card: FAIRY }));
    assert_eq!(s.step, Step::Fairy);
    assert_eq!(legal(&g, &s).len(), 2 * 21, "2 players x (12 numbers, the joker, 8 action cards)");
    act_checked(&g, &mut s, Action::Fairy { seat: 1, card: n(7) });
    assert!(s.hands[0].has(n(7)));
    assert_eq!(s.hands[1].len(), 1, "given, and not drawn back");
    assert_eq!((s.current, s.step), (1, Step::Play));
    let mut s = table(&g, Table { hands: &[&[FAIRY, n(1), n(1)], &[n(7), n(3)], &[n(2)]], ..EMPTY });
    act_checked(&g, &mut s, Action::Play(Play::Lone { card: FAIRY }));
    act_checked(&g, &mut s, Action::Fairy { seat: 2, card: n(7) });
    assert_eq!(s.hands[0].len(), 2);
    assert_eq!(s.hands[2].len(), 1);
}

#[test]
fn the_fairy_emptying_a_hand_ends_the_round() {
    let g = game_with(|p| p.players = 2);
    let mut s = table(&g, Table { hands: &[&[FAIRY, n(1), n(1)], &[n(7)]], ..EMPTY });
    act(&g, &mut s, Action::Play(Play::Lone { card: FAIRY }));
    act(&g, &mut s, Action::Fairy { seat: 1, card: n(7) });
    assert_eq!(s.step, Step::Over);
    assert_eq!(s.end_reason, END_HAND);
    let o = g.outcome(&s);
    assert_eq!(&o.scores[..2], &[1 - 3, 0]);
    assert_eq!(o.winners, 0b10);
}

#[test]
fn bad_guy_makes_another_player_take_two_cards() {
    let g = game_with(|p| p.players = 3);
    let mut s = table(&g, Table { hands: &[&[BAD_GUY, n(1), n(1)], &[n(7)], &[n(2)]], stock: &[n(4), n(4), JOKER, KING, n(1)], draw_top: &[n(12)], ..EMPTY });
    act_checked(&g, &mut s, Action::Play(Play::Lone { card: BAD_GUY }));
    assert_eq!(legal(&g, &s), vec![Action::BadGuy { seat: 1 }, Action::BadGuy { seat: 2 }]);
    act_checked(&g, &mut s, Action::BadGuy { seat: 2 });
    assert_eq!(s.step, Step::BadGuyCard { victim: 2, left: 2 });
    assert_eq!(g.to_move(&s), ToMove::Seat(0), "the bad guy's player chooses");
    act_checked(&g, &mut s, Action::Supply { from: Source::Stock, card: JOKER });
    act_checked(&g, &mut s, Action::Supply { from: Source::DrawPile, card: NO_CARD });
    assert_eq!(s.hands[2].len(), 3);
    assert!(s.hands[2].has(JOKER) && s.hands[2].has(n(12)));
    assert_eq!((s.current, s.step), (1, Step::Play), "receiving cards causes no draw");
}

#[test]
fn king_makes_the_others_add_a_card_of_its_number_in_turn_order() {
    let g = game_with(|p| p.players = 4);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(6), KING, n(1)], &[n(6), n(6), n(2)], &[n(3)], &[n(6)]],
            display: &[JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10), n(10), n(8)],
            ..EMPTY
        },
    );
    act(&g, &mut s, Action::Play(group_with(6, 1, KING)));
    // Seat 1 adds one 6 (not two), seat 2 has none, seat 3 adds its last card: the round
    // ends at once.
    assert_eq!(s.hands[1].count(n(6)), 1);
    assert_eq!(s.step, Step::Over);
    assert_eq!(s.end_reason, END_HAND);
    assert_eq!(s.piles[0].len(), 4);
    assert_eq!(s.piles[0].top_judged().form, Form::Group { value: n(6), size: 4 });
    // A King alone does nothing.
    let mut s = table(&g, Table { hands: &[&[KING, n(1)], &[n(6)], &[n(3)], &[n(6)]], ..EMPTY });
    act(&g, &mut s, Action::Play(Play::Lone { card: KING }));
    assert_eq!(s.hands[1].len(), 1);
    assert_eq!(s.step, Step::Play);
}

// ---------------------------------------------------------------------------------------
// End of the round and scoring

#[test]
fn emptying_the_hand_ends_the_round_at_once_and_scores() {
    let g = game_with(|p| p.players = 3);
    let mut s = table(
        &g,
        Table {
            hands: &[&[n(9), n(9)], &[n(2), n(3)], &[n(4)]],
            piles: &[&[group(5, 1)], &[group(8, 2)], &[group(1, 3)]],
            display: &[n(4), n(4), JOKER, FAIRY, n(12), n(12), n(11), n(11), n(10)],
            ..EMPTY
        },
    );
    act(&g, &mut s, Action::Play(group(9, 2)));
    assert_eq!(s.step, Step::Over);
    assert_eq!(s.end_reason, END_HAND);
    assert_eq!(s.piles[1].len(), 2, "no stab after the last card");
    assert_eq!(s.display.count(n(4)), 2);
    let o = g.outcome(&s);
    // +1 per pile card, -1 per hand card.
    assert_eq!(&o.scores[..3], &[3, 2 - 2, 3 - 1]);
    assert_eq!(o.winners, 0b001);
    assert_eq!(o.length, 1);
}

#[test]
fn ties_share_the_win() {
    let g = game_with(|p| p.players = 3);
    let mut s = table(&g, Table { hands: &[&[n(9)], &[n(2)], &[n(4)]], piles: &[&[], &[group(8, 2)], &[]], ..EMPTY });
    act(&g, &mut s, Action::Play(group(9, 1)));
    let o = g.outcome(&s);
    assert_eq!(&o.scores[..3], &[1, 1, -1]);
    assert_eq!(o.winners, 0b011);
}

#[test]
fn the_round_ends_when_the_draw_pile_and_the_stock_are_used_up() {
    let g = game_with(|p| {
        p.players = 2;
        p.display_size = 0;
    });
    // The draw pile is empty (its cards put away for the test); the stock holds a joker.
    let fresh = || {
        let mut s = table(&g, Table { hands: &[&[n(9), THIEF, n(1)], &[n(2), n(2)]], stock: &[JOKER], ..EMPTY });
        let rest: Vec<Card> = s.draw.drain(..).collect();
        for c in rest {
            s.put_away.add(c);
        }
        g.check_invariants(&s).expect("consistent");
        s
    };
    // The thief's only steal takes the last stock card: the round ends at once.
    let mut s = fresh();
    act(&g, &mut s, Action::Play(group_with(9, 1, THIEF)));
    assert_eq!(s.step, Step::Over);
    assert_eq!(s.end_reason, END_SUPPLY);
    assert_eq!(&g.outcome(&s).scores[..2], &[2 - 2, -2]);
    // A drawer taking the last stock card ends it too.
    let mut s = fresh();
    s.piles[1].push_play(&group(4, 1));
    s.put_away.remove(n(4));
    g.check_invariants(&s).expect("consistent");
    act(&g, &mut s, Action::Play(group(9, 1)));
    act(&g, &mut s, Action::Take(false));
    assert_eq!(s.step, Step::Over, "seat 1 draws its stabbed card from the stock (the only source)");
    assert_eq!(s.end_reason, END_SUPPLY);
    assert!(s.hands[1].has(JOKER));
}

#[test]
fn the_turn_cap_ends_a_round_scored_as_usual() {
    let g = game_with(|p| p.turn_cap = 3);
    let mut bots: Vec<Box<dyn Bot<BeaverMania>>> = (0..4).map(|_| bot("greedy")).collect();
    let o = play(&g, &mut bots, 5, PlayOptions { checked: true }, None, None).expect("legal");
    assert_eq!(o.end_reason, END_CAP);
    assert_eq!(o.length, 3);
    assert_ne!(o.winners, 0, "a capped round is scored as usual");
}

#[test]
fn a_match_rotates_the_first_seat_and_adds_only_the_winners_scores() {
    let g = game_with(|p| p.match_target = 40);
    let mut bots: Vec<Box<dyn Bot<BeaverMania>>> = (0..4).map(|_| bot("greedy")).collect();
    for seed in 0..20 {
        let mut rng = GameRng::seed_from(seed);
        let mut log = EventLog::new(false);
        let mut s = g.deal(&mut rng, &mut log);
        let mut totals = [0i64; MAX_PLAYERS];
        let mut rounds = 0;
        let mut bot_rng = GameRng::seed_from(seed + 99);
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let a = bots[seat].decide(&g, &g.view(&s, seat), &mut bot_rng);
            let before = s.rounds_done;
            g.apply(&mut s, seat, a, &mut rng, &mut log);
            g.check_invariants(&s).expect("invariants");
            if s.rounds_done > before {
                let r = s.last_round.expect("a round");
                assert_eq!(r.first_seat as u32, rounds % 4);
                for (t, total) in totals.iter_mut().enumerate().take(4) {
                    if r.winners & (1 << t) != 0 {
                        *total += r.scores[t];
                    }
                }
                rounds += 1;
            }
        }
        let o = g.outcome(&s);
        assert_eq!(&o.scores[..4], &totals[..4]);
        assert!(totals.iter().any(|&t| t >= 40));
        let best = *totals[..4].iter().max().expect("seats");
        assert_eq!(o.winners, (0..4).filter(|&t| totals[t] == best).fold(0, |m, t| m | 1 << t));
    }
}

// ---------------------------------------------------------------------------------------
// Parameters and variants

fn problems(f: impl FnOnce(&mut Params)) -> Vec<crate::variant::Invalid> {
    let mut p = Params::default();
    f(&mut p);
    p.check().err().unwrap_or_default()
}

#[test]
fn defaults_are_rules_md_and_bad_values_name_their_key() {
    assert!(Params::default().check().is_ok());
    assert_eq!(standard().deck.len(), 116);
    assert_eq!(problems(|p| p.players = 6)[0].key, "players");
    assert_eq!(problems(|p| p.deck.numbers = 2)[0].key, "deck.numbers");
    assert_eq!(problems(|p| p.deck.king = 9)[0].key, "deck.king");
    assert_eq!(problems(|p| p.stock_size = 0)[0].key, "stock_size");
    assert_eq!(problems(|p| p.turn_cap = 0)[0].key, "turn_cap");
    let bad = problems(|p| {
        p.deck.numbers = 3;
        p.deck.copies = 2;
    });
    assert_eq!(bad[0].key, "deck");
    assert!(bad[0].message.contains("need 66"), "{}", bad[0].message);
    assert_eq!(game_with(|p| p.players = 5).params.dealt(), 10);
}

#[test]
fn bundled_variants_load() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/beaver-mania");
    let mut found = 0;
    for entry in std::fs::read_dir(&dir).expect("variants folder") {
        let path = entry.expect("entry").path();
        let v = Variant::load(&path, &[]).expect("variant loads");
        let p: Params = v.game_params().expect("variant parses");
        assert!(BeaverMania::new(p).is_ok(), "{}", path.display());
        found += 1;
    }
    assert!(found >= 3);
    let v = Variant::load(&dir.join("standard.toml"), &[]).expect("standard");
    assert_eq!(v.game_params::<Params>().expect("parses"), Params::default());
}

#[test]
fn unknown_keys_name_the_key() {
    let path = std::path::Path::new("test.toml");
    let v = Variant::from_toml_str(path, "game = \"beaver-mania\"\n[deck]\nthiefs = 3\n").expect("parses");
    let e = v.game_params::<Params>().expect_err("unknown key").to_string();
    assert!(e.contains("deck.thiefs") && e.contains("thief"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Bots

#[test]
fn greedy_prefers_stabs_then_size_then_fewer_jokers_then_value() {
    let g = game_with(|p| p.players = 2);
    let mut rng = GameRng::seed_from(1);
    let mut b = bot("greedy");
    // No pile to stab: the largest play, 3 x 5 + thief (4 cards) over 3 x 5 + joker (also 4:
    // fewer jokers wins).
    let s = table(&g, Table { hands: &[&[n(5), n(5), n(5), JOKER, THIEF, n(9)], &[n(1)]], ..EMPTY });
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Play(group_with(5, 3, THIEF)));
    // A pile to stab: 9 alone stabs seat 1's 8 although smaller.
    let s = table(&g, Table { hands: &[&[n(5), n(5), n(5), JOKER, THIEF, n(9)], &[n(1)]], piles: &[&[], &[group(8, 1)]], ..EMPTY });
    // 9 + thief or 5 + joker (size 2) stab nothing; 9 alone stabs the 8.
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Play(group(9, 1)));
    // Equal size: the higher value.
    let s = table(&g, Table { hands: &[&[n(5), n(5), n(9), n(9)], &[n(1)]], ..EMPTY });
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Play(group(9, 2)));
}

#[test]
fn greedy_takes_stabbed_cards_only_when_they_extend_a_group() {
    let g = game_with(|p| p.players = 2);
    let mut rng = GameRng::seed_from(1);
    let mut b = bot("greedy");
    let mut s = table(&g, Table { hands: &[&[n(9), n(9), n(4), n(1)], &[n(2)]], piles: &[&[], &[group(8, 2)]], ..EMPTY });
    act(&g, &mut s, Action::Play(group(9, 2)));
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Take(false), "no 8 in hand");
    let mut s = table(&g, Table { hands: &[&[n(9), n(9), n(8), n(1)], &[n(2)]], piles: &[&[], &[group(8, 2)]], ..EMPTY });
    act(&g, &mut s, Action::Play(group(9, 2)));
    assert_eq!(b.decide(&g, &g.view(&s, 0), &mut rng), Action::Take(true));
}

// ---------------------------------------------------------------------------------------
// Properties

fn arb_params() -> impl Strategy<Value = Params> {
    (2u32..=5, 3u32..=14, 1u32..=8, 0u32..=6, 0u32..=3, 1u32..=13, 0u32..=10, 1u32..=6, prop::bool::ANY, 1u32..=300).prop_map(
        |(players, numbers, copies, jokers, actions, hand, display, stock, matched, cap)| {
            let mut p = Params {
                players,
                hand_size: hand,
                hand_size_five_players: hand.min(10),
                display_size: display,
                stock_size: stock,
                turn_cap: cap,
                ..Params::default()
            };
            p.deck = params::DeckParams {
                numbers,
                copies,
                jokers,
                superbeaver: actions,
                thief: actions,
                fairy: actions,
                partybeaver: actions,
                hippie: actions + 1,
                bad_guy: actions,
                bodyguard: actions,
                king: actions,
            };
            if matched {
                p.match_target = 30;
                p.max_rounds = 5;
            }
            // Keep the deck big enough to deal.
            while p.check().is_err() && p.deck.copies < 12 {
                p.deck.copies += 1;
            }
            while p.check().is_err() && p.hand_size > 1 {
                p.hand_size -= 1;
                p.hand_size_five_players = p.hand_size_five_players.min(p.hand_size);
            }
            p
        },
    )
}

fn arb_bot() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("random"), Just("greedy"), Just("tactician")]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// Cards conserved, bookkeeping consistent, every choice legal and listed, every listed
    /// choice legal, and every game ends, for random parameters and bots.
    #[test]
    fn no_illegal_choice_and_cards_conserved(params in arb_params(), bots in prop::collection::vec(arb_bot(), 5), seed in any::<u64>()) {
        prop_assume!(params.check().is_ok());
        let g = BeaverMania::new(params).expect("valid");
        let mut rng = GameRng::seed_from(seed);
        let mut bot_rng = GameRng::seed_from(seed ^ 7);
        let mut log = EventLog::new(true);
        let mut s = g.deal(&mut rng, &mut log);
        let mut bs: Vec<Box<dyn Bot<BeaverMania>>> = bots[..g.players].iter().map(|b| bot(b)).collect();
        let mut legal = Vec::new();
        let mut steps = 0u64;
        while let ToMove::Seat(seat) = g.to_move(&s) {
            for e in log.drain() {
                let _ = e.to_string();
            }
            let view = g.view(&s, seat);
            let a = bs[seat].decide(&g, &view, &mut bot_rng);
            legal.clear();
            g.legal_actions(&view, &mut legal);
            prop_assert!(legal.len() >= 2 || view.step == Step::Play, "a decision with {} options at {:?}", legal.len(), view.step);
            prop_assert!(legal.contains(&a), "seat {} chose {:?}, legal {:?}", seat, a, legal);
            for x in &legal {
                prop_assert!(g.is_legal(&view, x), "{:?} listed but not legal", x);
            }
            g.apply(&mut s, seat, a, &mut rng, &mut log);
            let ok = g.check_invariants(&s);
            prop_assert!(ok.is_ok(), "step {}: {:?}", steps, ok);
            steps += 1;
            prop_assert!(steps < 2_000_000, "the game must end");
        }
        let o = g.outcome(&s);
        prop_assert!(o.winners != 0);
        let _ = g.describe(&s);
    }

    /// The engine's checked mode agrees for every bot.
    #[test]
    fn checked_games_for_every_bot(seed in any::<u64>(), which in 0usize..3, players in 2u32..=5) {
        let g = game_with(|p| p.players = players);
        let name = ["random", "greedy", "tactician"][which];
        let mut bs: Vec<Box<dyn Bot<BeaverMania>>> = (0..g.players).map(|_| bot(name)).collect();
        let o = play(&g, &mut bs, seed, PlayOptions { checked: true }, None, None);
        prop_assert!(o.is_ok(), "{:?}", o.err());
        prop_assert!(o.expect("ok").end_reason != END_CAP, "a standard round never reaches the cap");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Greedy's fast play choice equals its definition (every legal play scored) at every
    /// play decision of games played by random bots on random parameters.
    #[test]
    fn greedy_fast_play_equals_its_definition(params in arb_params(), seed in any::<u64>()) {
        prop_assume!(params.check().is_ok());
        let g = BeaverMania::new(params).expect("valid");
        let mut rng = GameRng::seed_from(seed);
        let mut bot_rng = GameRng::seed_from(seed ^ 3);
        let mut log = EventLog::new(false);
        let mut s = g.deal(&mut rng, &mut log);
        let mut random = bot("random");
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let view = g.view(&s, seat);
            if view.step == Step::Play {
                let fast = bots::GreedyBot::choose_play(&g, &view);
                let reference = bots::GreedyBot::choose_play_by_enumeration(&g, &view);
                prop_assert_eq!(fast, reference, "hand [{}]", view.hand);
            }
            let a = random.decide(&g, &view, &mut bot_rng);
            g.apply(&mut s, seat, a, &mut rng, &mut log);
        }
    }
}

// Every bot's `uniform` table against the boxed bots: `games::tests` over the registry.

// ---------------------------------------------------------------------------------------
// Determinization (search bots)

use crate::sim::harness::check_determinizations;

#[test]
fn determinizations_keep_what_the_seat_saw_and_redeal_the_rest() {
    for (players, target) in [(2, 0), (4, 0), (5, 0), (3, 10)] {
        let g = game_with(|p| {
            p.players = players;
            p.match_target = target;
        });
        let (differed, drawn) = check_determinizations(&g, 16, 4, 3, 4);
        assert!(differed * 2 > drawn, "{players} players: only {differed} of {drawn} samples differ from the real deal");
    }
}

#[test]
fn determinizations_keep_cards_taken_face_up() {
    use crate::sim::harness::{check_samples_keep, random_bots};
    let g = standard();
    let known_kept = check_samples_keep(
        &g,
        25,
        6,
        4,
        || random_bots(&g),
        |s, out, seat| {
            assert_eq!((out.display, out.stock, out.put_away), (s.display, s.stock, s.put_away), "public cards stay");
            let mut kept = 0;
            for o in (0..g.players).filter(|&o| o != seat) {
                assert_eq!(out.piles[o].cards, s.piles[o].cards, "piles are face up");
                for c in s.known[o].kinds() {
                    assert!(out.hands[o].count(c) >= s.known[o].count(c), "seat {o} took a {} face up", card_name(c));
                    kept += s.known[o].count(c);
                }
            }
            kept
        },
    );
    assert!(known_kept > 50, "few cards taken face up ({known_kept}): the test checks little");
}
