//! Bluffing Joker tests: every move rule (come out, passing, landing on an opponent and a
//! teammate, the occupied in-spot, the split 7 both ways, the 8 backwards, the joker, home
//! entry by exact count, the blocked home), every doubt outcome (right and wrong, no peg
//! on the track, the extra turn, the penalty choice), the forced play and the
//! discard-and-draw, the finished player's help, the end of the game and the cap, the
//! rulebook's examples, the parameter checks, the bots' definitions, and the invariant
//! harness (pegs and cards conserved, legal choices, termination) for every bot, bundled
//! variant and random parameters.

use crate::engine::HiddenInfo;
use proptest::prelude::*;

use super::board::{in_home, on_track};
use super::*;
use crate::engine::{Bot, EventLog, Game, GameRng, PlayOptions, SeedFrom, ToMove, play};
use crate::games::Registered;
use crate::variant::Variant;

// ---------------------------------------------------------------------------------------
// Helpers

fn game_with(f: impl FnOnce(&mut Params)) -> BluffingJoker {
    let mut p = Params::default();
    f(&mut p);
    BluffingJoker::new(p).expect("valid test parameters")
}

fn standard() -> BluffingJoker {
    game_with(|_| {})
}

/// The first card (clubs) of a rank given as its value: 1 = ace, ..., 13 = king, 14 = joker.
fn card(value: u8) -> CardId {
    if value == 14 { cards::JOKER_CARD } else { (value - 1) * 4 }
}

/// Rank of a value (1 = ace ... 13 = king, 14 = joker).
fn rank(value: u8) -> Rank {
    value - 1
}

fn home(k: u8) -> Pos {
    HOME + k
}

/// A board with the given pegs per player (unlisted pegs in start).
fn board(g: &BluffingJoker, pegs: &[(usize, &[Pos])]) -> Board {
    let mut b = g.geo.empty_board();
    for &(c, ps) in pegs {
        for (i, &p) in ps.iter().enumerate() {
            b.pegs[c][i] = p;
            if on_track(p) {
                b.occ[p as usize] = c as u8 + 1;
            } else if in_home(p) {
                b.home[c] |= 1 << (p - HOME);
                b.home_count[c] += 1;
            }
        }
    }
    b
}

/// A table with this board and hands, seat `current` to play; every other card lies in
/// the draw pile in canonical order (the top is the last).
fn table(g: &BluffingJoker, b: Board, hands: &[&[CardId]], current: usize) -> State {
    let mut rng = GameRng::seed_from(1);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    s.board = b;
    s.hands = [Hand::EMPTY; MAX_PLAYERS];
    let mut left = vec![0u32; cards::CARD_IDS];
    for &c in &g.stock {
        left[c as usize] += 1;
    }
    for (seat, h) in hands.iter().enumerate() {
        s.hands[seat] = Hand::from_cards(h);
        for &c in *h {
            left[c as usize] -= 1;
        }
    }
    s.draw.clear();
    for (id, &n) in left.iter().enumerate() {
        s.draw.extend(std::iter::repeat_n(id as CardId, n as usize));
    }
    s.discard.clear();
    s.revealed = [0; RANKS];
    s.phase = Phase::Play;
    s.current = current as u8;
    s.pending = None;
    s.extra = [0; MAX_PLAYERS];
    s.turns = 1;
    g.check_invariants(&s).expect("test table is consistent");
    s
}

fn apply(g: &BluffingJoker, s: &mut State, action: Action) {
    let seat = match g.to_move(s) {
        ToMove::Seat(seat) => seat,
        ToMove::Over => panic!("game over"),
    };
    let view = g.view(s, seat);
    assert!(g.is_legal(&view, &action), "illegal {action:?} for seat {seat}");
    let mut rng = GameRng::seed_from(5);
    g.apply(s, seat, action, &mut rng, &mut EventLog::new(false));
    g.check_invariants(s).expect("invariants hold");
}

/// Every legal move of declared value `value` (1 = ace .. 14 = joker) for `seat`.
fn moves(g: &BluffingJoker, b: &Board, seat: usize, value: u8) -> Vec<Move> {
    let mut out = Vec::new();
    g.geo.for_each_move(b, seat, rank(value), &mut |m, _| {
        out.push(m);
        false
    });
    out
}

/// The board after `seat` makes `mv` of value `value`, checking that it was legal.
fn after(g: &BluffingJoker, b: &Board, seat: usize, value: u8, mv: Move) -> Board {
    assert!(g.geo.is_legal_move(b, seat, rank(value), mv), "{mv:?} is not legal for value {value}: legal are {:?}", moves(g, b, seat, value));
    let mut b = *b;
    g.geo.make_move(&mut b, seat, rank(value), mv);
    b
}

fn sorted_pegs(g: &BluffingJoker, b: &Board, c: usize) -> Vec<Pos> {
    let mut v = b.pegs[c][..g.geo.pegs].to_vec();
    v.sort();
    v
}

fn fwd(from: Pos, steps: u8) -> Move {
    Move::Forward { from, steps }
}

// Standard geometry: 72 holes; player p's come-out hole 18p + 8, in-spot 18p + 3.
// Teams: {0, 2} and {1, 3}. Player 2's in-spot is 39, player 1's is 21.

// ---------------------------------------------------------------------------------------
// Set-up and cards

#[test]
fn standard_set_up_matches_rules() {
    let g = standard();
    assert_eq!(g.geo.track, 72);
    assert_eq!(g.geo.come[..4], [8, 26, 44, 62]);
    assert_eq!(g.geo.spot[..4], [3, 21, 39, 57]);
    assert_eq!(g.stock.len(), 162, "3 decks + 6 jokers");
    let eight = game_with(|p| p.players = 8);
    assert_eq!(eight.stock.len(), 216, "4 decks + 8 jokers with 8 players");
    assert_eq!(eight.geo.track, 144);
    let six = game_with(|p| p.players = 6);
    assert_eq!(six.stock.len(), 162);
    let mut rng = GameRng::seed_from(3);
    let s = g.deal(&mut rng, &mut EventLog::new(false));
    // Seat 0 has drawn up to 6 for its first turn; the others hold the 5 dealt.
    assert_eq!(s.hands[0].len(), 6);
    for seat in 1..4 {
        assert_eq!(s.hands[seat].len(), 5);
    }
    assert_eq!(s.current, 0);
    assert_eq!(g.to_move(&s), ToMove::Seat(0));
    g.check_invariants(&s).expect("dealt state is consistent");
}

#[test]
fn card_names_and_canonical_order() {
    assert_eq!(card_name(0), "ace of clubs");
    assert_eq!(card_name(6 * 4 + 2), "7 of hearts");
    assert_eq!(card_name(11 * 4 + 3), "queen of spades");
    assert_eq!(card_name(cards::JOKER_CARD), "joker");
    assert_eq!(rank_of(10 * 4 + 1), 10, "jack");
    let mut h = Hand::from_cards(&[27, 24, 25]);
    assert_eq!(h.count(6), 3);
    assert_eq!(h.remove_rank(6), 24, "the first card of the rank in canonical order");
    assert_eq!(h.remove_rank(6), 25);
    assert_eq!(h.len(), 1);
}

proptest! {
    /// The hand's rank set, kept with the counts, is the set read from the counts after any
    /// adds and removals, and a removal takes the card the plain reading picks (the lowest
    /// id of the rank, the first position on ties: three decks repeat every id).
    #[test]
    fn hand_rank_set_and_removal_are_the_plain_ones(cards in prop::collection::vec(0u8..=cards::JOKER_CARD, 1..=8), picks in prop::collection::vec(0usize..8, 0..8)) {
        let mut h = Hand::from_cards(&cards);
        prop_assert_eq!(h.rank_mask(), h.rank_mask_plain());
        for pick in picks {
            if h.is_empty() {
                break;
            }
            let rank = rank_of(h.cards()[pick % h.len()]);
            let at = h.remove_rank_position_plain(rank).expect("the rank is held");
            let want = h.cards()[at];
            let mut plain: Vec<u8> = h.cards().to_vec();
            let last = plain.pop().expect("not empty");
            if at < plain.len() {
                plain[at] = last;
            }
            prop_assert_eq!(h.remove_rank(rank), want);
            prop_assert_eq!(h.cards(), &plain[..]);
            prop_assert_eq!(h.rank_mask(), h.rank_mask_plain());
            prop_assert_eq!(h.ranks().collect::<Vec<_>>(), (0..cards::RANKS as u8).filter(|&r| h.count(r) > 0).collect::<Vec<_>>());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Move rules

#[test]
fn ace_and_faces_bring_a_peg_out_to_the_come_out_hole() {
    let g = standard();
    let b = board(&g, &[]);
    for value in [1, 11, 12, 13] {
        assert_eq!(moves(&g, &b, 0, value), vec![Move::ComeOut], "value {value}");
        let a = after(&g, &b, 0, value, Move::ComeOut);
        assert_eq!(sorted_pegs(&g, &a, 0)[0], 8);
    }
    for value in [2, 3, 4, 5, 6, 7, 8, 9, 10, 14] {
        assert!(moves(&g, &b, 0, value).is_empty(), "value {value} cannot come out");
    }
    // Ace moves one, faces ten.
    let b = board(&g, &[(0, &[20])]);
    assert!(moves(&g, &b, 0, 1).contains(&fwd(20, 1)));
    assert!(moves(&g, &b, 0, 13).contains(&fwd(20, 10)));
    let a = after(&g, &b, 0, 12, fwd(20, 10));
    assert_eq!(a.pegs[0][0], 30);
}

#[test]
fn come_out_blocked_by_own_peg_and_landing_on_an_opponent_there() {
    let g = standard();
    let b = board(&g, &[(0, &[8])]);
    assert!(!moves(&g, &b, 0, 1).contains(&Move::ComeOut));
    let b = board(&g, &[(1, &[8])]);
    let a = after(&g, &b, 0, 1, Move::ComeOut);
    assert_eq!(a.pegs[1][0], START, "the opponent on the come-out hole goes to start");
    assert_eq!(a.occ[8], 1);
}

#[test]
fn numbers_move_forward_by_their_value() {
    let g = standard();
    let b = board(&g, &[(0, &[10])]);
    for value in [2, 3, 4, 5, 6, 9, 10] {
        assert_eq!(moves(&g, &b, 0, value), vec![fwd(10, value)]);
        let a = after(&g, &b, 0, value, fwd(10, value));
        assert_eq!(a.pegs[0][0], 10 + value);
    }
    // Around the end of the track.
    let b = board(&g, &[(0, &[70])]);
    let a = after(&g, &b, 0, 5, fwd(70, 5));
    assert_eq!(a.pegs[0][0], 3, "70 + 5 wraps to hole 3");
}

#[test]
fn no_passing_or_landing_on_an_own_peg_but_others_may_be_passed() {
    let g = standard();
    let b = board(&g, &[(0, &[10, 13])]);
    assert!(!moves(&g, &b, 0, 5).contains(&fwd(10, 5)), "passing own peg");
    assert!(!moves(&g, &b, 0, 3).contains(&fwd(10, 3)), "landing on own peg");
    assert!(moves(&g, &b, 0, 2).contains(&fwd(10, 2)));
    let b = board(&g, &[(0, &[10]), (1, &[12]), (2, &[13])]);
    let a = after(&g, &b, 0, 5, fwd(10, 5));
    assert_eq!((a.pegs[0][0], a.pegs[1][0], a.pegs[2][0]), (15, 12, 13), "passing does nothing");
}

#[test]
fn landing_on_an_opponent_sends_it_to_start() {
    let g = standard();
    let b = board(&g, &[(0, &[10]), (3, &[15])]);
    let a = after(&g, &b, 0, 5, fwd(10, 5));
    assert_eq!(a.pegs[3][0], START);
    assert_eq!(a.occ[15], 1);
}

#[test]
fn landing_on_a_teammate_sends_it_to_its_in_spot() {
    let g = standard();
    let b = board(&g, &[(0, &[10]), (2, &[15])]);
    let a = after(&g, &b, 0, 5, fwd(10, 5));
    assert_eq!(a.pegs[2][0], 39, "player 2's in-spot");
    assert_eq!(a.occ[39], 3);
    assert_eq!(a.occ[15], 1);
}

#[test]
fn teammate_in_spot_occupied() {
    let g = standard();
    // By the teammate's own peg: the move is illegal.
    let b = board(&g, &[(0, &[10]), (2, &[15, 39])]);
    assert!(!moves(&g, &b, 0, 5).contains(&fwd(10, 5)));
    // By an opponent: it goes to its start.
    let b = board(&g, &[(0, &[10]), (2, &[15]), (1, &[39])]);
    let a = after(&g, &b, 0, 5, fwd(10, 5));
    assert_eq!((a.pegs[2][0], a.pegs[1][0]), (39, START));
    // A teammate standing on its own in-spot has nowhere to go.
    let b = board(&g, &[(0, &[35]), (2, &[39])]);
    assert!(!moves(&g, &b, 0, 4).contains(&fwd(35, 4)));
    // By the mover's own other peg: it goes on to the mover's in-spot (chain).
    let b = board(&g, &[(0, &[10, 39]), (2, &[15])]);
    let a = after(&g, &b, 0, 5, fwd(10, 5));
    assert_eq!(sorted_pegs(&g, &a, 0)[..2], [3, 15]);
    assert_eq!(a.pegs[2][0], 39);
}

#[test]
fn seven_moves_one_peg_seven_or_splits_exactly() {
    let g = standard();
    let b = board(&g, &[(0, &[10, 20])]);
    let ms = moves(&g, &b, 0, 7);
    assert!(ms.contains(&fwd(10, 7)) && ms.contains(&fwd(20, 7)));
    let split = Move::Split { first: 10, a: 3, second: 20, b: 4 };
    assert!(ms.contains(&split));
    assert!(!ms.contains(&Move::Split { first: 10, a: 2, second: 20, b: 4 }), "exact: a + b = 7");
    // 10 then 20: a in 1..=6 except a = 7 - ... every a works (no blocking): 6; the other order: 6.
    assert_eq!(ms.iter().filter(|m| matches!(m, Move::Split { .. })).count(), 12);
    let a = after(&g, &b, 0, 7, split);
    assert_eq!(sorted_pegs(&g, &a, 0)[..2], [13, 24]);
    // Each part checked when made: 10 by 3 lands on 13; then 11 -> 15 passes nothing.
    let b = board(&g, &[(0, &[10, 14])]);
    let ms = moves(&g, &b, 0, 7);
    assert!(!ms.contains(&Move::Split { first: 10, a: 5, second: 14, b: 2 }), "passes own peg at 14");
    assert!(ms.contains(&Move::Split { first: 14, a: 2, second: 10, b: 5 }), "order matters");
    // A single peg cannot split.
    let b = board(&g, &[(0, &[10])]);
    assert!(moves(&g, &b, 0, 7).iter().all(|m| !matches!(m, Move::Split { .. })));
}

#[test]
fn seven_split_up_to_allows_less_than_seven() {
    let g = game_with(|p| p.seven_split = SevenSplit::UpTo);
    let b = board(&g, &[(0, &[10, 20])]);
    let ms = moves(&g, &b, 0, 7);
    assert!(ms.contains(&Move::Split { first: 10, a: 2, second: 20, b: 3 }));
    assert!(!ms.contains(&Move::Split { first: 10, a: 4, second: 20, b: 4 }));
    assert!(!ms.contains(&fwd(10, 5)), "one peg moves exactly 7");
}

#[test]
fn eight_moves_backward_and_never_into_home() {
    let g = standard();
    let b = board(&g, &[(0, &[20])]);
    assert_eq!(moves(&g, &b, 0, 8), vec![Move::Back { from: 20 }]);
    let a = after(&g, &b, 0, 8, Move::Back { from: 20 });
    assert_eq!(a.pegs[0][0], 12);
    let b = board(&g, &[(0, &[5])]);
    let a = after(&g, &b, 0, 8, Move::Back { from: 5 });
    assert_eq!(a.pegs[0][0], 69, "wraps backward past the in-spot, never into home");
    let b = board(&g, &[(0, &[20, 15])]);
    assert!(!moves(&g, &b, 0, 8).contains(&Move::Back { from: 20 }), "own peg in the way");
    let b = board(&g, &[(0, &[20]), (1, &[12])]);
    let a = after(&g, &b, 0, 8, Move::Back { from: 20 });
    assert_eq!(a.pegs[1][0], START, "landing backward on an opponent");
    let b = board(&g, &[(0, &[home(1)])]);
    assert!(moves(&g, &b, 0, 8).is_empty(), "home pegs do not move backward");
}

#[test]
fn joker_jumps_onto_another_players_peg() {
    let g = standard();
    let b = board(&g, &[(0, &[10]), (1, &[30]), (2, &[50])]);
    let ms = moves(&g, &b, 0, 14);
    assert_eq!(
        ms,
        vec![Move::Jump { from: START, to: 30 }, Move::Jump { from: START, to: 50 }, Move::Jump { from: 10, to: 30 }, Move::Jump { from: 10, to: 50 },]
    );
    let a = after(&g, &b, 0, 14, Move::Jump { from: START, to: 30 });
    assert_eq!(a.pegs[1][0], START);
    assert_eq!(a.occ[30], 1);
    let a = after(&g, &b, 0, 14, Move::Jump { from: 10, to: 50 });
    assert_eq!(a.pegs[2][0], 39, "a teammate goes to its in-spot");
    assert_eq!(a.occ[10], 0);
    // Passing is not checked: own pegs in between do not matter.
    let b = board(&g, &[(0, &[10, 11]), (1, &[12])]);
    assert!(ms_contains(&g, &b, 14, Move::Jump { from: 10, to: 12 }));
    // Nothing to jump on: no joker move.
    let b = board(&g, &[(0, &[10])]);
    assert!(moves(&g, &b, 0, 14).is_empty());
    // A teammate on its own in-spot cannot be jumped on.
    let b = board(&g, &[(2, &[39])]);
    assert!(moves(&g, &b, 0, 14).is_empty());
}

fn ms_contains(g: &BluffingJoker, b: &Board, value: u8, mv: Move) -> bool {
    moves(g, b, 0, value).contains(&mv)
}

#[test]
fn home_entry_by_exact_count() {
    let g = standard();
    // d = 2 holes before the in-spot (3): 4 passes it by 2 and enters at depth 2.
    let b = board(&g, &[(0, &[1])]);
    let a = after(&g, &b, 0, 4, fwd(1, 4));
    assert_eq!(a.pegs[0][0], home(2));
    // On the in-spot: 5 enters at the back.
    let b = board(&g, &[(0, &[3])]);
    assert_eq!(after(&g, &b, 0, 5, fwd(3, 5)).pegs[0][0], home(5));
    // Too far for the home: goes on around the track.
    assert_eq!(after(&g, &b, 0, 6, fwd(3, 6)).pegs[0][0], 9);
    // Exactly reaching the in-spot stays on the track.
    let b = board(&g, &[(0, &[1])]);
    assert_eq!(after(&g, &b, 0, 2, fwd(1, 2)).pegs[0][0], 3);
    // No lap needed: a peg just out backs up with an 8 and enters.
    let b = board(&g, &[(0, &[8])]);
    let a = after(&g, &b, 0, 8, Move::Back { from: 8 });
    assert_eq!(a.pegs[0][0], 0);
    assert_eq!(after(&g, &a, 0, 4, fwd(0, 4)).pegs[0][0], home(1));
    // A home peg moves inside home by exact value, never beyond the last hole.
    let b = board(&g, &[(0, &[home(1)])]);
    assert_eq!(after(&g, &b, 0, 3, fwd(home(1), 3)).pegs[0][0], home(4));
    assert!(!ms_contains(&g, &b, 5, fwd(home(1), 5)));
}

#[test]
fn blocked_home() {
    let g = standard();
    // An own peg at depth 1 blocks entering deeper: the peg goes on around instead.
    let b = board(&g, &[(0, &[1, home(1)])]);
    assert_eq!(after(&g, &b, 0, 4, fwd(1, 4)).pegs[0][0], 5);
    // A peg at depth 3 blocks depth 4 but not depth 2.
    let b = board(&g, &[(0, &[1, home(3)])]);
    assert_eq!(after(&g, &b, 0, 4, fwd(1, 4)).pegs[0][0], home(2));
    assert_eq!(after(&g, &b, 0, 6, fwd(1, 6)).pegs[0][0], 7, "depth 4 is behind the peg at 3");
    // Inside home no passing or landing on an own peg.
    let b = board(&g, &[(0, &[home(1), home(3)])]);
    assert!(!ms_contains(&g, &b, 3, fwd(home(1), 3)));
    assert!(!ms_contains(&g, &b, 2, fwd(home(1), 2)));
    assert!(ms_contains(&g, &b, 2, fwd(home(3), 2)));
    // An own peg on the in-spot blocks passing it into home.
    let b = board(&g, &[(0, &[1, 3])]);
    assert!(!ms_contains(&g, &b, 4, fwd(1, 4)));
}

#[test]
fn rulebook_past_the_in_spot_go_around_or_back_up() {
    // "If you are forced to move past your in-spot you must go around the entire board
    // again or use a card to back up behind it."
    let g = standard();
    let b = board(&g, &[(0, &[2])]);
    let a = after(&g, &b, 0, 10, fwd(2, 10));
    assert_eq!(a.pegs[0][0], 12, "past the in-spot: on around the track");
    let a = after(&g, &a, 0, 8, Move::Back { from: 12 });
    assert_eq!(a.pegs[0][0], 4);
    let a = after(&g, &a, 0, 8, Move::Back { from: 4 });
    assert_eq!(a.pegs[0][0], 68, "backed up behind the in-spot");
    assert_eq!(after(&g, &a, 0, 10, fwd(68, 10)).pegs[0][0], home(3));
}

#[test]
fn rulebook_home_not_filled_to_the_back_blocks_others() {
    // "if you don't move it all the way into the back of the home area other pegs cannot
    // move past it"
    let g = standard();
    let b = board(&g, &[(0, &[3, home(2)])]);
    assert_eq!(after(&g, &b, 0, 3, fwd(3, 3)).pegs[0][0], 6, "depth 3 is past the peg at 2: on around");
    assert_eq!(after(&g, &b, 0, 1, fwd(3, 1)).pegs[0][0], home(1), "depth 1 is before it");
    let b2 = after(&g, &b, 0, 3, fwd(home(2), 3));
    assert_eq!(after(&g, &b2, 0, 3, fwd(3, 3)).pegs[0][0], home(3), "once it moved on, the way is free");
}

// ---------------------------------------------------------------------------------------
// Turns, doubts and penalties

const FIVE: u8 = 5;

#[test]
fn no_doubt_the_move_happens() {
    let g = standard();
    let b = board(&g, &[(0, &[10])]);
    let mut s = table(&g, b, &[&[card(5), card(2)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(5), declared: rank(5), mv: fwd(10, 5) });
    assert_eq!(g.to_move(&s), ToMove::Seat(1), "doubts from the left");
    apply(&g, &mut s, Action::Pass);
    assert_eq!(g.to_move(&s), ToMove::Seat(3), "the next opponent, never the teammate");
    apply(&g, &mut s, Action::Pass);
    assert_eq!(s.board.pegs[0][0], 15);
    assert_eq!(s.current, 1, "next seat's turn");
    assert_eq!(s.hands[1].len(), 6, "it drew up to 6");
    assert_eq!(s.counters.doubts, 0);
}

#[test]
fn right_doubt_sends_the_liars_peg_to_start_and_it_does_not_move() {
    let g = standard();
    let b = board(&g, &[(0, &[10])]);
    let mut s = table(&g, b, &[&[card(2)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(2), declared: rank(FIVE), mv: fwd(10, 5) });
    assert_eq!(s.counters.bluffs, 1);
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(s.board.pegs[0][0], START, "the only track peg goes at once");
    assert_eq!(s.counters.right_doubts, 1);
    assert_eq!(s.revealed[rank(2) as usize], 1, "the card was shown");
    assert_eq!(s.current, 1);
}

#[test]
fn right_doubt_with_no_peg_out_gives_the_doubter_an_extra_turn_after_its_next() {
    let g = standard();
    let b = board(&g, &[(0, &[home(1)]), (1, &[30])]);
    // Seat 0 bluffs a 2 as a 3 to move its home peg; seat 1 doubts.
    let mut s = table(&g, b, &[&[card(2)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(2), declared: rank(3), mv: fwd(home(1), 3) });
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(s.extra[1], 1);
    assert_eq!(s.board.pegs[0][0], home(1), "no move");
    // Seat 1's next turn is the regular one right now; after it, the extra turn.
    assert_eq!(s.current, 1);
    let turns = s.turns;
    play_out_turn(&g, &mut s);
    assert_eq!(s.current, 1, "the extra turn follows");
    assert_eq!(s.turns, turns + 1);
    assert_eq!(s.extra[1], 0);
    play_out_turn(&g, &mut s);
    assert_eq!(s.current, 2);
}

/// Plays the current turn with honest choices and passes.
fn play_out_turn(g: &BluffingJoker, s: &mut State) {
    let seat = s.current;
    let turns = s.turns;
    let mut bot = HonestBot::new(0.0);
    let mut rng = GameRng::seed_from(9);
    while s.turns == turns && s.current == seat && g.to_move(s) != ToMove::Over {
        let ToMove::Seat(who) = g.to_move(s) else { break };
        let a = bot.decide(g, &g.view(s, who), &mut rng);
        apply(g, s, a);
    }
}

#[test]
fn wrong_doubt_the_move_happens_then_a_doubter_peg_goes_to_start() {
    let g = standard();
    let b = board(&g, &[(0, &[10]), (1, &[30, 40])]);
    let mut s = table(&g, b, &[&[card(5)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(5), declared: rank(5), mv: fwd(10, 5) });
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(s.board.pegs[0][0], 15, "the declared move was made");
    assert_eq!(s.phase, Phase::Penalty { chooser: 0, victim: 1, cause: Cause::WrongDoubt }, "two pegs out: the active seat chooses");
    assert_eq!(g.to_move(&s), ToMove::Seat(0));
    let view = g.view(&s, 0);
    let mut legal = Vec::new();
    g.legal_actions(&view, &mut legal);
    assert_eq!(legal, vec![Action::SendBack { hole: 30 }, Action::SendBack { hole: 40 }]);
    apply(&g, &mut s, Action::SendBack { hole: 40 });
    assert_eq!(sorted_pegs(&g, &s.board, 1)[0], 30);
    assert_eq!(s.board.pegs[1][..5].iter().filter(|&&p| p == START).count(), 4);
    assert_eq!(s.counters.sent_by_doubt, 1);
    assert_eq!(s.current, 1);
}

#[test]
fn wrong_doubt_with_no_doubter_peg_out_gives_the_active_player_an_extra_turn() {
    let g = standard();
    let b = board(&g, &[(0, &[10])]);
    let mut s = table(&g, b, &[&[card(5)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(5), declared: rank(5), mv: fwd(10, 5) });
    apply(&g, &mut s, Action::Pass);
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(s.board.pegs[0][0], 15);
    assert_eq!(s.current, 0, "the extra turn comes right after this one");
    assert_eq!(s.turns, 2);
    assert_eq!(s.counters.extra_turns, 1);
    // Off by the key: no extra turn.
    let g = game_with(|p| p.extra_turns = false);
    let mut s = table(&g, b, &[&[card(5)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(5), declared: rank(5), mv: fwd(10, 5) });
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(s.current, 1);
}

#[test]
fn right_doubt_may_leave_the_move_by_key() {
    let g = game_with(|p| p.doubt.right_doubt_stops_move = false);
    let b = board(&g, &[(0, &[10, 20])]);
    let mut s = table(&g, b, &[&[card(2)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(2), declared: rank(5), mv: fwd(10, 5) });
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(sorted_pegs(&g, &s.board, 0)[..2], [15, 20], "moved first");
    assert!(matches!(s.phase, Phase::Penalty { chooser: 1, victim: 0, .. }));
}

#[test]
fn no_bluffing_key_allows_only_true_declarations() {
    let g = game_with(|p| p.doubt.bluffing = false);
    let b = board(&g, &[(0, &[10])]);
    let s = table(&g, b, &[&[card(2)]], 0);
    let view = g.view(&s, 0);
    assert!(!g.is_legal(&view, &Action::Play { card: rank(2), declared: rank(5), mv: fwd(10, 5) }));
    assert!(g.is_legal(&view, &Action::Play { card: rank(2), declared: rank(2), mv: fwd(10, 2) }));
}

#[test]
fn forced_play_and_discard_and_draw() {
    let g = standard();
    // A 5 moves the peg: the seat must play (any declaration), no discard.
    let b = board(&g, &[(0, &[10])]);
    let s = table(&g, b, &[&[card(5), card(14)]], 0);
    let view = g.view(&s, 0);
    assert!(!g.is_legal(&view, &Action::Discard { card: rank(5) }));
    assert!(g.is_legal(&view, &Action::Play { card: rank(14), declared: rank(3), mv: fwd(10, 3) }));
    // Every peg in start and only numbers and a joker: may discard (the joker is never forced).
    let b = board(&g, &[(1, &[30])]);
    let mut s = table(&g, b, &[&[card(5), card(14)]], 0);
    let view = g.view(&s, 0);
    assert!(g.is_legal(&view, &Action::Discard { card: rank(5) }));
    assert!(g.is_legal(&view, &Action::Play { card: rank(14), declared: rank(14), mv: Move::Jump { from: START, to: 30 } }));
    let draw = s.draw.len();
    apply(&g, &mut s, Action::Discard { card: rank(5) });
    assert_eq!(s.discard.len(), 1);
    assert_eq!(s.draw.len(), draw - 1 - 6, "one drawn by the discarder, then seat 1 draws up to 6");
    assert_eq!(s.hands[0].len(), 2);
    assert_eq!(s.counters.discards, 1);
    assert_eq!(s.current, 1, "the turn ended, no doubt asked");
}

#[test]
fn draw_pile_reshuffles_the_discard_pile() {
    let g = standard();
    let b = board(&g, &[]);
    let mut s = table(&g, b, &[&[card(5)]], 0);
    let all: Vec<CardId> = s.draw.drain(..).collect();
    s.discard = all;
    s.revealed[rank(5) as usize] = 1;
    g.check_invariants(&s).expect("consistent");
    apply(&g, &mut s, Action::Discard { card: rank(5) });
    assert!(s.discard.is_empty(), "the pile became the draw pile");
    assert_eq!(s.revealed, [0; RANKS], "shown cards went back into the draw pile");
    assert_eq!(s.hands[0].len(), 1);
}

#[test]
fn finished_player_moves_its_teammates_pegs() {
    let g = standard();
    let all_home: &[Pos] = &[home(1), home(2), home(3), home(4), home(5)];
    let b = board(&g, &[(0, all_home), (2, &[40])]);
    assert_eq!(g.geo.mover(&b, 0), Some(2));
    assert_eq!(moves(&g, &b, 0, 5), vec![fwd(40, 5)]);
    let a = after(&g, &b, 0, 5, fwd(40, 5));
    assert_eq!(a.pegs[2][0], 45);
    // The must-play rule uses the teammate's pegs.
    let s = table(&g, b, &[&[card(5)]], 0);
    assert!(!g.is_legal(&g.view(&s, 0), &Action::Discard { card: rank(5) }));
    // Penalties touch the teammate's pegs.
    let mut s = table(&g, b, &[&[card(2)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(2), declared: rank(5), mv: fwd(40, 5) });
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(s.board.pegs[2][0], START);
}

#[test]
fn split_seven_finishing_own_pegs_uses_the_rest_on_the_teammate() {
    let g = standard();
    let b = board(&g, &[(0, &[home(2), home(3), home(4), home(5), 2]), (2, &[40])]);
    // 2 -> in-spot (3) is 1 hole; 2 steps enter at depth 1: the last peg is home.
    let mv = Move::Split { first: 2, a: 2, second: 40, b: 5 };
    assert!(ms_contains(&g, &b, 7, mv));
    let a = after(&g, &b, 0, 7, mv);
    assert_eq!(a.home_count[0], 5);
    assert_eq!(a.pegs[2][0], 45);
}

#[test]
fn the_first_team_home_wins_at_once_even_mid_split() {
    let g = standard();
    let five: &[Pos] = &[home(1), home(2), home(3), home(4), home(5)];
    let b = board(&g, &[(0, &[home(2), home(3), home(4), home(5), 2]), (2, five), (1, &[30])]);
    let mv = Move::Split { first: 2, a: 2, second: NONE, b: 0 };
    assert!(ms_contains(&g, &b, 7, mv), "{:?}", moves(&g, &b, 0, 7));
    let mut s = table(&g, b, &[&[card(7)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(7), declared: rank(7), mv });
    apply(&g, &mut s, Action::Pass);
    apply(&g, &mut s, Action::Pass);
    assert_eq!(g.to_move(&s), ToMove::Over);
    let o = g.outcome(&s);
    assert_eq!(o.winners, 0b0101, "both seats of team 0");
    assert_eq!(o.end_reason, END_HOME);
    assert_eq!(o.win_share(0), 0.5);
    assert_eq!(o.scores[0], 5);
}

#[test]
fn wrong_doubt_on_the_winning_move_ends_the_game_without_penalty() {
    let g = standard();
    let five: &[Pos] = &[home(1), home(2), home(3), home(4), home(5)];
    let b = board(&g, &[(0, &[home(2), home(3), home(4), home(5), 1]), (2, five), (1, &[30, 31])]);
    let mut s = table(&g, b, &[&[card(3)]], 0);
    apply(&g, &mut s, Action::Play { card: rank(3), declared: rank(3), mv: fwd(1, 3) });
    apply(&g, &mut s, Action::Doubt);
    assert_eq!(g.to_move(&s), ToMove::Over);
    assert_eq!(s.winner, Some(0));
    g.check_invariants(&s).expect("consistent");
}

#[test]
fn turn_cap_ends_with_no_winner() {
    let g = game_with(|p| p.turn_cap = 7);
    let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..4).map(|_| bot(&g, "honest", &[])).collect();
    let o = play(&g, &mut bots, 11, PlayOptions { checked: true }, None, None).expect("legal");
    assert_eq!(o.length, 7);
    assert_eq!(o.end_reason, END_CAP);
    assert_eq!(o.winners, 0);
}

// ---------------------------------------------------------------------------------------
// Bots

fn bot(g: &BluffingJoker, name: &str, values: &[f64]) -> Box<dyn Bot<BluffingJoker>> {
    let info = crate::engine::all_bots(g).into_iter().find(|b| b.name == name).expect("bot exists");
    let mut v: Vec<f64> = info.params.iter().map(|p| p.default).collect();
    for (i, x) in values.iter().enumerate() {
        v[i] = *x;
    }
    (info.build)(g, &v)
}

#[test]
fn honest_plays_the_true_card_that_advances_its_team_most() {
    let g = standard();
    // A 3 lands on an opponent at 13 (+3 and the opponent loses its progress); a 10 moves 10.
    let b = board(&g, &[(0, &[10]), (1, &[13])]);
    let s = table(&g, b, &[&[card(10), card(3)]], 0);
    let mut h = bot(&g, "honest", &[0.0]);
    let a = h.decide(&g, &g.view(&s, 0), &mut GameRng::seed_from(1));
    assert_eq!(a, Action::Play { card: rank(3), declared: rank(3), mv: fwd(10, 3) });
    // Ties go to the first rank in canonical order: a 5 and a 5-equivalent do not exist, so
    // check a plain tie between two pegs: the lower hole first.
    let b = board(&g, &[(0, &[10, 30])]);
    let s = table(&g, b, &[&[card(4)]], 0);
    let a = h.decide(&g, &g.view(&s, 0), &mut GameRng::seed_from(1));
    assert_eq!(a, Action::Play { card: rank(4), declared: rank(4), mv: fwd(10, 4) });
    // No true move: discards the first non-joker rank.
    let b = board(&g, &[]);
    let s = table(&g, b, &[&[card(14), card(9), card(5)]], 0);
    let a = h.decide(&g, &g.view(&s, 0), &mut GameRng::seed_from(1));
    assert_eq!(a, Action::Discard { card: rank(5) });
}

#[test]
fn bluffer_bluffs_its_worst_card_when_its_cards_move_badly() {
    let g = standard();
    // Every peg in start; no ace or face: with bluff = 1 it declares an ace to come out,
    // playing its worst card.
    let b = board(&g, &[]);
    let s = table(&g, b, &[&[card(9), card(5)]], 0);
    let mut bl = bot(&g, "bluffer", &[1.0, 0.0]);
    let a = bl.decide(&g, &g.view(&s, 0), &mut GameRng::seed_from(1));
    assert_eq!(a, Action::Play { card: rank(5), declared: rank(1), mv: Move::ComeOut });
    // bluff = 0: plays as honest (here: discards).
    let mut bl = bot(&g, "bluffer", &[0.0, 0.0]);
    let a = bl.decide(&g, &g.view(&s, 0), &mut GameRng::seed_from(1));
    assert_eq!(a, Action::Discard { card: rank(5) });
}

#[test]
fn bluffer_doubts_for_certain_when_every_copy_is_seen() {
    let g = game_with(|p| {
        p.decks = Some(1);
        p.jokers = Some(2);
    });
    let b = board(&g, &[(0, &[10])]);
    // Seat 1 holds all four 5s: a declared 5 must be a lie.
    let mut s = table(&g, b, &[&[card(2)], &[16, 17, 18, 19]], 0);
    apply(&g, &mut s, Action::Play { card: rank(2), declared: rank(5), mv: fwd(10, 5) });
    let view = g.view(&s, 1);
    let bb = BluffBot::new(0.0, 0.1);
    assert_eq!(bb.doubt_chance(&g, &view, rank(5)), 1.0);
    assert!((bb.doubt_chance(&g, &view, rank(6)) - 0.1).abs() < 1e-12, "every 6 unseen");
    let mut bl = bot(&g, "bluffer", &[0.0, 0.1]);
    assert_eq!(bl.decide(&g, &view, &mut GameRng::seed_from(1)), Action::Doubt);
}

// ---------------------------------------------------------------------------------------
// Parameters

#[test]
fn parameter_checks_name_the_key() {
    let bad = |f: fn(&mut Params), key: &str| {
        let mut p = Params::default();
        f(&mut p);
        let errs = p.check().expect_err("must be rejected");
        assert!(errs.iter().any(|e| e.key == key), "{key}: {errs:?}");
    };
    bad(|p| p.players = 5, "players");
    bad(|p| p.track_per_side = 30, "track_per_side");
    bad(|p| p.come_out = 18, "come_out");
    bad(|p| p.in_spot = p.come_out, "come_out");
    bad(|p| p.pegs = 9, "pegs");
    bad(|p| p.home_size = 4, "home_size");
    bad(|p| p.decks = Some(9), "decks");
    bad(|p| p.jokers = Some(33), "jokers");
    bad(|p| p.hand_size = 13, "hand_size");
    bad(|p| p.deal = 7, "deal");
    bad(|p| p.turn_cap = 0, "turn_cap");
    bad(
        |p| {
            p.players = 8;
            p.decks = Some(1);
            p.jokers = Some(0);
            p.hand_size = 12;
        },
        "decks",
    );
    assert!(Params::default().check().is_ok());
}

#[test]
fn bundled_variants_load_and_unknown_keys_are_rejected() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/bluffing-joker");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("variants folder") {
        let path = entry.expect("entry").path();
        let v = Variant::load(&path, &[]).expect("loads");
        BluffingJoker::from_variant(&v).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        n += 1;
    }
    assert!(n >= 4);
    let v = Variant::from_toml_str(std::path::Path::new("x.toml"), "game = \"bluffing-joker\"\nname = \"x\"\nplayer = 4\n").expect("parses");
    assert!(BluffingJoker::from_variant(&v).is_err());
}

// ---------------------------------------------------------------------------------------
// Invariant harness

fn run_checked(g: &BluffingJoker, lineup: &[&str], games: u64) {
    for seed in 0..games {
        let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..g.players).map(|s| bot(g, lineup[s % lineup.len()], &[])).collect();
        let o = play(g, &mut bots, seed, PlayOptions { checked: true }, None, None).unwrap_or_else(|v| panic!("{lineup:?} seed {seed}: {v:?}"));
        assert!(o.length <= g.params.turn_cap);
        if o.end_reason == END_HOME {
            assert_eq!(o.winners.count_ones() as usize, g.players / 2);
        }
    }
}

#[test]
fn every_bot_plays_legal_games_that_conserve_pegs_and_cards() {
    let g = standard();
    run_checked(&g, &["honest"], 60);
    run_checked(&g, &["bluffer"], 60);
    run_checked(&g, &["honest", "bluffer"], 40);
    run_checked(&game_with(|p| p.turn_cap = 400), &["random"], 10);
    for players in [6, 8] {
        let g = game_with(|p| p.players = players);
        run_checked(&g, &["bluffer", "honest"], 15);
        run_checked(
            &game_with(|p| {
                p.players = players;
                p.turn_cap = 200;
            }),
            &["random"],
            3,
        );
    }
    let g = game_with(|p| {
        p.seven_split = SevenSplit::UpTo;
        p.doubt.right_doubt_stops_move = false;
    });
    run_checked(&g, &["bluffer"], 30);
    let g = game_with(|p| p.doubt.bluffing = false);
    run_checked(&g, &["bluffer", "honest"], 30);
}

#[test]
fn honest_games_usually_end_home() {
    let g = standard();
    let mut home = 0;
    for seed in 0..100 {
        let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..4).map(|_| bot(&g, "honest", &[])).collect();
        let o = play(&g, &mut bots, seed, PlayOptions::default(), None, None).expect("ok");
        home += u32::from(o.end_reason == END_HOME);
    }
    assert!(home >= 95, "{home} of 100 ended home");
}

#[test]
fn legal_actions_are_all_legal_and_is_legal_agrees() {
    let g = standard();
    let mut rng = GameRng::seed_from(4);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    let mut buf = Vec::new();
    let mut bots =
        [crate::engine::RandomBot::<BluffingJoker>::new(), crate::engine::RandomBot::new(), crate::engine::RandomBot::new(), crate::engine::RandomBot::new()];
    for _ in 0..3000 {
        let ToMove::Seat(seat) = g.to_move(&s) else { break };
        let view = g.view(&s, seat);
        buf.clear();
        g.legal_actions(&view, &mut buf);
        assert!(!buf.is_empty());
        for a in &buf {
            assert!(g.is_legal(&view, a), "{a:?}");
        }
        let mut dedup = buf.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), buf.len(), "no duplicate choices");
        let a = bots[seat].decide(&g, &view, &mut rng);
        g.apply(&mut s, seat, a, &mut rng, &mut EventLog::new(false));
        g.check_invariants(&s).expect("invariants");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold_under_random_parameters(
        players in prop::sample::select(vec![4u32, 6, 8]),
        side in 8u32..=24,
        come in 0u32..8,
        spot in 0u32..8,
        pegs in 1u32..=8,
        extra_home in 0u32..=4,
        hand in 1u32..=8,
        split_up_to in any::<bool>(),
        extra in any::<bool>(),
        bluffing in any::<bool>(),
        stops in any::<bool>(),
        seed in 0u64..1000,
    ) {
        prop_assume!(come != spot);
        let p = Params {
            players,
            track_per_side: side,
            come_out: come,
            in_spot: spot,
            pegs,
            home_size: (pegs + extra_home).min(12),
            deal: hand.min(5),
            hand_size: hand,
            seven_split: if split_up_to { SevenSplit::UpTo } else { SevenSplit::Exact },
            extra_turns: extra,
            turn_cap: 600,
            doubt: params::DoubtParams { bluffing, right_doubt_stops_move: stops },
            ..Params::default()
        };
        let g = BluffingJoker::new(p).expect("valid");
        for name in ["honest", "bluffer"] {
            let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> =
                (0..g.players).map(|_| bot(&g, name, &[])).collect();
            let o = play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None);
            prop_assert!(o.is_ok(), "{:?}", o.err());
        }
    }
}

// Every bot's `uniform` table against the boxed bots: `games::tests` over the registry.

#[test]
fn split_sevens_match_a_fresh_board_per_first_part() {
    // The split enumeration reuses one scratch board; every split it lists must be made by
    // `make_move` (which works on the real board) into a consistent board, and every legal
    // two-peg split found by brute force on fresh copies must be listed.
    let g = standard();
    let mut rng = GameRng::seed_from(8);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..4).map(|_| bot(&g, "bluffer", &[])).collect();
    let mut checked = 0;
    for _ in 0..4000 {
        let ToMove::Seat(seat) = g.to_move(&s) else { break };
        if s.phase == Phase::Play {
            let listed = moves(&g, &s.board, seat, 7);
            let m = g.geo.mover(&s.board, seat).expect("playing");
            for &mv in &listed {
                let mut b = s.board;
                g.geo.make_move(&mut b, seat, 6, mv);
                let mut t = s.clone();
                t.board = b;
                g.check_invariants(&t).expect("a listed split leaves a consistent board");
            }
            for &first in s.board.pegs[m][..5].iter().filter(|&&p| p != START) {
                for a in 1..=6u8 {
                    let mut fresh = s.board;
                    let Some(to) = g.geo.forward_target(&fresh, m, first, a) else { continue };
                    let Some(st) = g.geo.step(&fresh, m, first, to) else { continue };
                    g.geo.apply_step(&mut fresh, &st);
                    if g.geo.mover(&fresh, seat) != Some(m) {
                        continue;
                    }
                    for &second in s.board.pegs[m][..5].iter().filter(|&&p| p != START && p != first) {
                        let idx = g.geo.peg_at(&s.board, m, second).expect("peg");
                        let now = fresh.pegs[m][idx];
                        let ok = now != START && g.geo.forward_target(&fresh, m, now, 7 - a).and_then(|to2| g.geo.step(&fresh, m, now, to2)).is_some();
                        let mv = Move::Split { first, a, second, b: 7 - a };
                        assert_eq!(ok, listed.contains(&mv), "{mv:?}");
                        checked += 1;
                    }
                }
            }
        }
        let a = bots[seat].decide(&g, &g.view(&s, seat), &mut rng);
        g.apply(&mut s, seat, a, &mut rng, &mut EventLog::new(false));
    }
    assert!(checked > 1000, "{checked}");
}

/// The legal plays read plainly: card by card, every value it may be declared as, every
/// move of that value enumerated on its own; the discards when no card must be played.
fn legal_actions_plain(g: &BluffingJoker, view: &View, out: &mut Vec<Action>) {
    for card in view.hand.ranks() {
        for declared in 0..RANKS as Rank {
            if !g.may_declare(card, declared) {
                continue;
            }
            g.geo.for_each_move(view.board, view.seat, declared, &mut |mv, _| {
                out.push(Action::Play { card, declared, mv });
                false
            });
        }
    }
    if !g.must_play(view.board, view.seat, view.hand) {
        out.extend(view.hand.ranks().map(|card| Action::Discard { card }));
    }
}

/// The mover's team progress minus the other team's, over every peg of `b`: what a move's
/// score changes.
fn team_balance(geo: &Geometry, b: &Board, m: usize) -> i32 {
    let mut sum = 0;
    for c in 0..geo.players {
        let side = if geo.team(c) == geo.team(m) { 1 } else { -1 };
        for &p in &b.pegs[c][..geo.pegs] {
            sum += side * geo.progress(c, p);
        }
    }
    sum
}

/// The moves of declared value `value` for `seat` found without the move generator: every
/// move the rules name for that value (docs/games/bluffing-joker.md), in the generator's
/// documented canonical order, kept when [`Geometry::make_move`] makes it, scored by
/// the change of [`team_balance`] it makes.
fn moves_by_making(g: &BluffingJoker, b: &Board, seat: usize, value: Rank) -> Vec<(Move, i32)> {
    let geo = &g.geo;
    let Some(m) = geo.mover(b, seat) else { return Vec::new() };
    let mut placed = [0; params::MAX_PEGS];
    let n = geo.placed_plain(b, m, &mut placed);
    let placed = &placed[..n];
    let mut candidates = Vec::new();
    match value {
        0 | 10..=12 => {
            candidates.push(Move::ComeOut);
            let steps = if value == 0 { 1 } else { 10 };
            candidates.extend(placed.iter().map(|&from| Move::Forward { from, steps }));
        }
        6 => {
            candidates.extend(placed.iter().map(|&from| Move::Forward { from, steps: 7 }));
            for &first in placed {
                for a in 1..=6u8 {
                    let Some(to) = geo.forward_target(b, m, first, a) else { continue };
                    let Some(s1) = geo.step(b, m, first, to) else { continue };
                    let mut after = *b;
                    geo.apply_step(&mut after, &s1);
                    let Some(m2) = geo.mover(&after, seat) else {
                        candidates.push(Move::Split { first, a, second: NONE, b: 0 });
                        continue;
                    };
                    let mut placed2 = [0; params::MAX_PEGS];
                    let n2 = geo.placed_plain(b, m2, &mut placed2);
                    for &second in &placed2[..n2] {
                        if m2 == m && second == first {
                            continue;
                        }
                        let parts = match geo.split {
                            SevenSplit::Exact => (7 - a)..=(7 - a),
                            SevenSplit::UpTo => 1..=(7 - a),
                        };
                        candidates.extend(parts.map(|bb| Move::Split { first, a, second, b: bb }));
                    }
                }
            }
        }
        7 => candidates.extend(placed.iter().map(|&from| Move::Back { from })),
        cards::JOKER => {
            let own = m as u8 + 1;
            let mut sources = vec![START];
            sources.extend(placed.iter().copied().filter(|&p| on_track(p)));
            for from in sources {
                for to in 0..geo.track {
                    if b.occ[to] != 0 && b.occ[to] != own {
                        candidates.push(Move::Jump { from, to: to as Pos });
                    }
                }
            }
        }
        v => candidates.extend(placed.iter().map(|&from| Move::Forward { from, steps: v + 1 })),
    }
    let before = team_balance(geo, b, m);
    let mut made = Vec::new();
    for mv in candidates {
        let mut after = *b;
        let steps = geo.make_move(&mut after, seat, value, mv);
        let whole = match mv {
            Move::Split { second, .. } if second != NONE => steps[0].is_some() && steps[1].is_some(),
            _ => steps[0].is_some(),
        };
        if whole {
            made.push((mv, team_balance(geo, &after, m) - before));
        }
    }
    made
}

#[test]
fn move_generator_lists_what_make_move_makes_and_bots_pick_the_best() {
    // `for_each_move` against the moves `make_move` can make (the same moves, in canonical
    // order, each scored by the team balance it changes), and the bots' shortcuts (the
    // best jump, `best_truthful`'s face-card shortcut, the bluffer's one pass over every
    // value) against plain readings over the generator, on the states of games by mixed
    // bots under several set-ups.
    use rand::Rng as _;
    let setups: [fn(&mut Params); 6] = [
        |_| {},
        |p| p.doubt.bluffing = false,
        |p| p.players = 6,
        |p| {
            p.players = 8;
            p.seven_split = SevenSplit::UpTo;
        },
        |p| {
            p.track_per_side = 8;
            p.come_out = 1;
            p.in_spot = 6;
            p.pegs = 8;
            p.home_size = 9;
        },
        |p| {
            p.pegs = 2;
            p.home_size = 2;
            p.seven_split = SevenSplit::UpTo;
        },
    ];
    let (mut compared, mut splits, mut jumps) = (0, 0, 0);
    for (k, setup) in setups.iter().enumerate() {
        let g = game_with(*setup);
        let names = ["bluffer", "random", "honest", "random", "bluffer", "random", "honest", "bluffer"];
        for game in 0..6u64 {
            let mut rng = GameRng::seed_from(100 * k as u64 + game);
            let mut s = g.deal(&mut rng, &mut EventLog::new(false));
            let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..g.players).map(|i| bot(&g, names[(i + game as usize) % 8], &[])).collect();
            for _ in 0..1500 {
                let ToMove::Seat(seat) = g.to_move(&s) else { break };
                let view = g.view(&s, seat);
                if s.phase == Phase::Play {
                    for c in 0..g.players {
                        let (mut fast, mut plain) = ([0; params::MAX_PEGS], [0; params::MAX_PEGS]);
                        let (n, n_plain) = (g.geo.placed(&s.board, c, &mut fast), g.geo.placed_plain(&s.board, c, &mut plain));
                        assert_eq!(&fast[..n], &plain[..n_plain], "color {c}, board {:?}", s.board);
                    }
                    for probe in 0..g.players {
                        for value in 0..RANKS as Rank {
                            let mut fast = Vec::new();
                            g.geo.for_each_move(&s.board, probe, value, &mut |m, sc| {
                                fast.push((m, sc));
                                false
                            });
                            let plain = moves_by_making(&g, &s.board, probe, value);
                            assert_eq!(fast, plain, "value {value}, seat {probe}, board {:?}", s.board);
                            if value == 6 {
                                splits += fast.len();
                            }
                            if value == cards::JOKER {
                                let first_max =
                                    plain.iter().fold(None, |b: Option<(Move, i32)>, &(m, sc)| if b.is_none_or(|b| sc > b.1) { Some((m, sc)) } else { b });
                                let best = g.geo.movers(&s.board, probe).and_then(|c| g.geo.best_jump(&s.board, &c));
                                assert_eq!(best, first_max, "seat {probe}, board {:?}", s.board);
                                jumps += plain.len();
                            }
                        }
                    }
                    assert_eq!(bots::best_truthful(&g, &view), bots::best_truthful_plain(&g, &view));
                    assert_eq!(bots::honest_choice(&g, &view), bots::honest_choice_plain(&g, &view));
                    let (mut listed, mut plain) = (Vec::new(), Vec::new());
                    g.legal_actions(&view, &mut listed);
                    legal_actions_plain(&g, &view, &mut plain);
                    assert_eq!(listed, plain, "board {:?}", s.board);
                    for bluff in [0.0, 0.5, 1.0] {
                        let mut bluffer = bots::BluffBot::new(bluff, 0.1);
                        let (mut r1, mut r2) = (rng.clone(), rng.clone());
                        let fast = bluffer.play(&g, &view, &mut r1);
                        assert_eq!(fast, bluffer.play_plain(&g, &view, &mut r2), "bluff {bluff}, board {:?}", s.board);
                        assert_eq!(r1.next_u64(), r2.next_u64(), "the same draws");
                    }
                    compared += 1;
                }
                let a = bots[seat].decide(&g, &view, &mut rng);
                g.apply(&mut s, seat, a, &mut rng, &mut EventLog::new(false));
            }
        }
    }
    assert!(compared > 5000 && splits > 20_000 && jumps > 20_000, "{compared} {splits} {jumps}");
}

#[test]
fn progress_table_and_path_check_match_their_plain_versions() {
    for players in [4, 6, 8] {
        let g = game_with(|p| p.players = players);
        let mut positions: Vec<Pos> = (0..g.geo.track as Pos).collect();
        positions.extend((1..=g.geo.home).map(home));
        positions.push(START);
        for c in 0..g.players {
            for &p in &positions {
                assert_eq!(g.geo.progress(c, p), g.geo.progress_by_rule(c, p), "color {c} at {p}");
            }
        }
        let mut rng = GameRng::seed_from(players as u64);
        for _ in 0..300 {
            let mut b = g.geo.empty_board();
            for x in 0..g.geo.track {
                if crate::engine::rng::below(3, &mut rng) == 0 {
                    b.occ[x] = 1 + crate::engine::rng::below(g.players as u32, &mut rng) as u8;
                }
            }
            for c in 0..g.players {
                for h in 0..g.geo.track as Pos {
                    for n in 0..=12 {
                        for back in [false, true] {
                            assert_eq!(g.geo.path_clear(&b, c, h, n, back), g.geo.path_clear_plain(&b, c, h, n, back));
                        }
                    }
                }
            }
        }
    }
}
// ---------------------------------------------------------------------------------------
// Determinization (search bots)

use crate::sim::harness::check_determinizations;

#[test]
fn determinizations_keep_what_the_seat_saw_and_redeal_the_rest() {
    for players in [4, 6] {
        let g = game_with(|p| p.players = players);
        let (differed, drawn) = check_determinizations(&g, 15, 2, 151, 3);
        assert!(differed * 2 > drawn, "{players} players: only {differed} of {drawn} samples differ from the real deal");
    }
}

#[test]
fn a_doubter_samples_the_pending_card_and_keeps_the_shown_ones() {
    use crate::engine::{all_bots, game_seed};
    use crate::sim::harness::play_checked;
    let g = standard();
    let mut rng = GameRng::seed_from(6);
    let (mut doubts, mut other_card, mut shown_kept) = (0, 0, 0);
    let random = all_bots(&g).into_iter().find(|b| b.name == "random").expect("random bot");
    for index in 0..3 {
        let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..g.players).map(|_| (random.build)(&g, &[])).collect();
        let mut out: Option<State> = None;
        let mut each = |s: &State, _: usize, _: &Action| {
            let ToMove::Seat(seat) = g.to_move(s) else { return };
            let out = out.get_or_insert_with(|| s.clone());
            g.determinize(s, seat, &mut rng, out);
            assert_eq!(out.board, s.board, "the board is public");
            assert_eq!(out.hands[seat], s.hands[seat], "the own hand stays");
            let ranks = |pile: &[u8]| {
                pile.iter().fold([0u8; RANKS], |mut n, &c| {
                    n[rank_of(c) as usize] += 1;
                    n
                })
            };
            let in_discard = ranks(&out.discard);
            assert!((0..RANKS).all(|r| in_discard[r] >= s.revealed[r]), "shown cards stay in the discard pile");
            shown_kept += s.revealed.iter().map(|&r| r as u32).sum::<u32>();
            if let (Phase::Doubt { .. }, Some(p), Some(q)) = (s.phase, s.pending, out.pending) {
                assert_eq!((p.declared, p.mv), (q.declared, q.mv), "the declaration is public");
                doubts += 1;
                other_card += u32::from(p.card != q.card);
            }
        };
        play_checked(&g, &mut bots, game_seed(24, index), 5_000_000, &mut 0, &mut each).expect("a checked game");
    }
    assert!(doubts > 100 && other_card * 2 > doubts, "{other_card} of {doubts} doubters' samples hold another pending card");
    assert!(shown_kept > 100, "few shown cards checked ({shown_kept})");
}

#[test]
fn the_observation_writes_the_board_as_its_debug_text() {
    use crate::engine::{all_bots, game_seed};
    use crate::sim::harness::play_checked;
    let random = all_bots(&standard()).into_iter().find(|b| b.name == "random").expect("random bot");
    for players in [4, 6] {
        let g = game_with(|p| p.players = players);
        let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..g.players).map(|_| (random.build)(&g, &[])).collect();
        let mut checked = 0;
        let mut each = |s: &State, _: usize, _: &Action| {
            let mut t = String::new();
            super::determinize::board_text(&mut t, &s.board);
            assert_eq!(t, format!("{:?}", s.board));
            checked += 1;
        };
        play_checked(&g, &mut bots, game_seed(25, players as u64), 5_000_000, &mut 0, &mut each).expect("a checked game");
        assert!(checked > 50, "{players} players: only {checked} boards checked");
    }
}

#[test]
fn the_random_action_is_the_listed_action_of_the_same_draw() {
    use crate::engine::{all_bots, game_seed};
    use crate::sim::harness::play_checked;
    let random = all_bots(&standard()).into_iter().find(|b| b.name == "random").expect("random bot");
    for bluffing in [true, false] {
        let g = game_with(|p| p.doubt.bluffing = bluffing);
        let mut bots: Vec<Box<dyn Bot<BluffingJoker>>> = (0..g.players).map(|_| (random.build)(&g, &[])).collect();
        let (mut checked, mut scratch, mut listed) = (0, Vec::new(), Vec::new());
        let mut each = |s: &State, _: usize, _: &Action| {
            let ToMove::Seat(seat) = g.to_move(s) else { return };
            let view = g.view(s, seat);
            listed.clear();
            g.legal_actions(&view, &mut listed);
            for draw in 0..4u64 {
                let mut a = GameRng::seed_from(draw + checked);
                let mut b = a.clone();
                let expected = listed[crate::engine::rng::below(listed.len() as u32, &mut b) as usize];
                assert_eq!(g.random_action(&view, &mut a, &mut scratch), expected, "bluffing {bluffing}");
            }
            checked += 1;
        };
        play_checked(&g, &mut bots, game_seed(26, u64::from(bluffing)), 5_000_000, &mut 0, &mut each).expect("a checked game");
        assert!(checked > 50, "only {checked} decisions checked");
    }
}
