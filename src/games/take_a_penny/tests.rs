//! Take a Penny tests: the rulebook's examples, every resolution step, legality, victory
//! conditions, parameters, property tests of the invariants, and the exact solver against
//! an independent computation and against Monte Carlo.
#![allow(clippy::needless_range_loop)] // seat and card loops index several arrays at once

use crate::engine::OwnBots;
use std::collections::HashMap;

use proptest::prelude::*;

use super::exact::{self, Model};
use super::params::{MAX_CARDS, Params, Setup};
use super::rules::{self, Effect, NO_SPOT, SPOT_GIVE, SPOT_TAKE_FROM, legal, resolve, winners};
use super::{Action, END_REASONS, TakeAPenny};
use crate::engine::{Bot, EventLog, Game, GameRng, PlayOptions, SeedFrom, ToMove, play, rng::below};
use crate::sim::{self, RunConfig, SeatPlan};

use Action::*;

fn game(players: u32, total: Option<u32>) -> TakeAPenny {
    TakeAPenny::new(Params { players, total_pennies: total, ..Params::default() }).expect("valid set-up")
}

/// Resolves one round from a hand-made table.
fn round(players: usize, pennies: [u32; MAX_CARDS], pot: u32, acts: &[Action]) -> ([u32; MAX_CARDS], u32, [Effect; MAX_CARDS]) {
    let mut a = [BlockSelf; MAX_CARDS];
    a[..acts.len()].copy_from_slice(acts);
    let mut p = pennies;
    let mut pot = pot;
    let (e, _) = resolve(players, &mut p, &mut pot, &a);
    (p, pot, e)
}

// ---- The rulebook's examples ----

#[test]
fn rulebook_two_take2_with_three_in_the_pot_split_one_each_and_leave_one() {
    let (p, pot, e) = round(3, [1, 1, 1, 4], 3, &[Take2, Take2, BlockSelf]);
    assert_eq!(p, [2, 2, 1, 4]);
    assert_eq!(pot, 1);
    assert_eq!(&e[..2], &[Effect::Partial, Effect::Partial]);
}

#[test]
fn rulebook_split_holds_even_when_another_returns_one_afterwards() {
    // return1 resolves after take2: it does not add to what the takers split.
    let (p, pot, _) = round(3, [1, 1, 1, 4], 3, &[Take2, Take2, Return1]);
    assert_eq!(p, [2, 2, 0, 4]);
    assert_eq!(pot, 2);
}

#[test]
fn rulebook_three_take2_with_two_in_the_pot_nobody_takes() {
    let (p, pot, e) = round(4, [1, 1, 1, 1], 2, &[Take2, Take2, Take2, BlockSelf]);
    assert_eq!(p, [1, 1, 1, 1]);
    assert_eq!(pot, 2);
    assert_eq!(&e[..3], &[Effect::Short; 3]);
}

#[test]
fn rulebook_dummy_wins_as_the_only_one_with_no_pennies() {
    assert_eq!(winners(&[2, 3, 1, 0]), 1 << 3);
    // And in play: 3 players, the dummy (yellow) holds 1; red takes it, blue takes the last
    // penny of the pot, green blocks. The pot is empty: the game ends and the dummy wins.
    let g = game(3, None);
    let mut s = TakeAPenny::state_at(&g.setup, [5, 4, 4, 1], 1);
    let mut rng = GameRng::seed_from(1);
    let mut log = EventLog::new(false);
    for (seat, a) in [TakeFrom(3), Take1Block, BlockSelf].into_iter().enumerate() {
        assert!(g.is_legal(&g.view(&s, seat), &a.into()), "{a} legal for seat {seat}");
        g.apply(&mut s, seat, a.into(), &mut rng, &mut log);
    }
    assert_eq!(g.to_move(&s), ToMove::Over);
    let o = g.outcome(&s);
    assert_eq!(END_REASONS[o.end_reason as usize], "pot_empty");
    assert_eq!(&o.scores[..4], &[6, 5, 4, 0]);
    assert_eq!(o.winners, 1 << 3);
    assert_eq!(g.check_invariants(&s), Ok(()));
}

// ---- Each resolution step ----

#[test]
fn step1_single_take1_block_takes_and_blocks_the_pot_for_the_others() {
    let (p, pot, e) = round(4, [1, 1, 1, 1], 5, &[Take1Block, Take2, Return1, BlockSelf]);
    assert_eq!(p, [2, 1, 1, 1]);
    assert_eq!(pot, 4);
    assert_eq!(&e[..3], &[Effect::Done, Effect::Blocked, Effect::Blocked]);
}

#[test]
fn step1_two_take1_block_block_each_other_and_everyone() {
    let (p, pot, e) = round(3, [1, 1, 1, 4], 5, &[Take1Block, Take1Block, Take2]);
    assert_eq!(p, [1, 1, 1, 4]);
    assert_eq!(pot, 5);
    assert_eq!(&e[..3], &[Effect::Blocked; 3]);
}

#[test]
fn step2_take2_gives_two_each_when_the_pot_suffices() {
    let (p, pot, e) = round(3, [0, 0, 0, 4], 4, &[Take2, Take2, BlockSelf]);
    assert_eq!(p, [2, 2, 0, 4]);
    assert_eq!(pot, 0);
    assert_eq!(&e[..2], &[Effect::Done; 2]);
    // One penny, one taker: gets 1.
    let (p, pot, _) = round(2, [0, 0, 4, 0], 1, &[Take2, BlockSelf]);
    assert_eq!((p[0], pot), (1, 0));
}

#[test]
fn step3_return1_returns_unless_the_pot_is_blocked() {
    let (p, pot, _) = round(2, [2, 1, 4, 0], 3, &[Return1, BlockSelf]);
    assert_eq!((p[0], pot), (1, 4));
    let (p, pot, e) = round(2, [2, 1, 4, 0], 3, &[Return1, Take1Block]);
    assert_eq!((p[0], p[1], pot), (2, 2, 2));
    assert_eq!(e[0], Effect::Blocked);
}

#[test]
fn step4_block_self_stops_take_from_and_give() {
    let (p, _, e) = round(3, [1, 1, 1, 4], 3, &[BlockSelf, TakeFrom(0), Give(0)]);
    assert_eq!(p, [1, 1, 1, 4]);
    assert_eq!(&e[..3], &[Effect::Done, Effect::Blocked, Effect::Blocked]);
    let (_, _, e) = round(3, [1, 1, 1, 4], 3, &[BlockSelf, Take2, Take2]);
    assert_eq!(e[0], Effect::Idle);
}

#[test]
fn step5_take_from_uses_balances_at_the_start_of_the_step() {
    // Blue has 0 but takes 2 from the pot in step 2; red then takes 1 from blue in step 5.
    let (p, _, _) = round(3, [0, 0, 1, 4], 5, &[TakeFrom(1), Take2, BlockSelf]);
    assert_eq!(&p[..2], &[1, 1]);
    // Two takers on a card with 1: nobody gets anything. On a card with 2: 1 each.
    let (p, _, e) = round(3, [0, 0, 1, 1], 5, &[TakeFrom(3), TakeFrom(3), BlockSelf]);
    assert_eq!(p, [0, 0, 1, 1]);
    assert_eq!(&e[..2], &[Effect::Short; 2]);
    let (p, _, _) = round(3, [0, 0, 1, 2], 5, &[TakeFrom(3), TakeFrom(3), BlockSelf]);
    assert_eq!(p, [1, 1, 1, 0]);
    // Taking from each other at once: both collect, both pay.
    let (p, _, _) = round(2, [1, 1, 4, 0], 5, &[TakeFrom(1), TakeFrom(0)]);
    assert_eq!(&p[..3], &[1, 1, 4]);
}

#[test]
fn step6_give_needs_a_penny_at_the_start_of_the_step_and_an_unblocked_target() {
    // Red's only penny is taken in step 5, so red gives nothing in step 6.
    let (p, _, e) = round(3, [1, 0, 1, 4], 5, &[Give(3), TakeFrom(0), BlockSelf]);
    assert_eq!(p, [0, 1, 1, 4]);
    assert_eq!(e[0], Effect::Short);
    // Give to the dummy: always possible (the dummy never blocks).
    let (p, _, _) = round(2, [1, 1, 4, 0], 5, &[Give(2), Give(0)]);
    assert_eq!(&p[..3], &[1, 0, 5]);
}

#[test]
fn the_game_ends_only_when_the_pot_is_empty_after_the_round() {
    // take2 empties the pot but return1 refills it in step 3: the game goes on.
    let g = game(2, None);
    let mut s = TakeAPenny::state_at(&g.setup, [6, 3, 4, 0], 1);
    let mut rng = GameRng::seed_from(1);
    let mut log = EventLog::new(false);
    g.apply(&mut s, 0, Take2.into(), &mut rng, &mut log);
    g.apply(&mut s, 1, Return1.into(), &mut rng, &mut log);
    assert_eq!((s.pot, s.over), (1, false));
    assert_eq!(g.check_invariants(&s), Ok(()));
}

#[test]
fn the_turn_cap_ends_the_game_with_reason_cap() {
    let g = TakeAPenny::new(Params { players: 2, turn_cap: 3, ..Params::default() }).unwrap();
    let mut s = TakeAPenny::initial_state(&g.setup);
    let mut rng = GameRng::seed_from(1);
    let mut log = EventLog::new(false);
    let plays = [[BlockSelf, Take1Block], [Take1Block, BlockSelf], [BlockSelf, Take1Block]];
    for acts in plays {
        for (seat, a) in acts.into_iter().enumerate() {
            g.apply(&mut s, seat, a.into(), &mut rng, &mut log);
        }
    }
    assert_eq!(g.to_move(&s), ToMove::Over);
    assert_eq!(END_REASONS[g.outcome(&s).end_reason as usize], "cap");
    assert_eq!(g.outcome(&s).length, 3);
}

// ---- Legality and secrecy ----

#[test]
fn legality_at_selection() {
    let g = game(3, None);
    let st = &g.setup;
    let p = [0, 2, 0, 4];
    assert!(!legal(st, &p, 0, 0, NO_SPOT, Take1Block));
    assert!(!legal(st, &p, 0, 0, NO_SPOT, Take2));
    assert!(legal(st, &p, 1, 0, NO_SPOT, Take2));
    assert!(!legal(st, &p, 1, 0, NO_SPOT, Return1));
    assert!(!legal(st, &p, 1, 0, NO_SPOT, Give(1)));
    assert!(legal(st, &p, 1, 1, NO_SPOT, Give(0)));
    assert!(!legal(st, &p, 1, 1, NO_SPOT, Give(1)), "no giving to oneself");
    assert!(!legal(st, &p, 1, 0, NO_SPOT, TakeFrom(2)), "green holds nothing");
    assert!(legal(st, &p, 1, 0, NO_SPOT, TakeFrom(3)), "the dummy can be taken from");
    assert!(!legal(st, &p, 1, 1, NO_SPOT, TakeFrom(1)), "no taking from oneself");
    assert!(legal(st, &p, 0, 0, NO_SPOT, BlockSelf));
}

#[test]
fn no_repeat_is_per_spot() {
    let g = game(4, None);
    let st = &g.setup;
    let p = [2, 2, 2, 2];
    assert!(!legal(st, &p, 3, 0, SPOT_GIVE, Give(2)), "give then give to another color is the same spot");
    assert!(!legal(st, &p, 3, 0, SPOT_TAKE_FROM + 1, TakeFrom(1)));
    assert!(legal(st, &p, 3, 0, SPOT_TAKE_FROM + 1, TakeFrom(2)), "take_from(blue) then take_from(green) is allowed");
    assert!(!legal(st, &p, 3, 0, rules::SPOT_BLOCK_SELF, BlockSelf));
    let mut out = Vec::new();
    rules::legal_actions(st, &p, 3, 0, SPOT_GIVE, &mut out);
    assert!(out.iter().all(|a| !matches!(a, Give(_))));
    assert_eq!(out.len(), 4 + 3);
}

#[test]
fn views_hide_the_choices_of_the_round_in_progress() {
    let g = game(4, None);
    let mut s = TakeAPenny::initial_state(&g.setup);
    let before = format!("{:?}", g.view(&s, 1));
    let mut rng = GameRng::seed_from(1);
    g.apply(&mut s, 0, Take2.into(), &mut rng, &mut EventLog::new(false));
    assert_eq!(g.to_move(&s), ToMove::Seat(1));
    assert_eq!(format!("{:?}", g.view(&s, 1)), before, "seat 1 sees the same table whatever seat 0 chose");
}

// ---- Victory conditions ----

#[test]
fn victory_conditions_in_order() {
    assert_eq!(winners(&[0, 3, 2, 1]), 0b0001, "the only one with none");
    assert_eq!(winners(&[0, 0, 5, 1]), 0b0100, "two at 0: the unique most");
    assert_eq!(winners(&[5, 5, 2, 1]), 0b0100, "tie for most: the unique second most");
    assert_eq!(winners(&[5, 5, 2, 2]), 0b1100, "second most tied: shared");
    assert_eq!(winners(&[3, 3, 3, 3]), 0b1111, "all equal: all share");
    assert_eq!(winners(&[0, 0, 4, 4]), 0b0011, "the shared second most can be the zeros");
    assert_eq!(winners(&[4, 4, 5]), 0b100);
}

// ---- Parameters ----

#[test]
fn set_ups_of_rules_md() {
    let s4 = game(4, None).setup;
    assert_eq!((s4.cards, s4.pot, s4.total), (4, 11, 15));
    let s3 = game(3, None).setup;
    assert_eq!((s3.cards, s3.pot, s3.start), (4, 8, [1, 1, 1, 4]));
    let s2 = game(2, None).setup;
    assert_eq!((s2.cards, s2.pot, s2.total, s2.start), (3, 8, 14, [1, 1, 4, 0]));
    assert!(s3.is_dummy(3) && !s3.is_dummy(2));
}

#[test]
fn impossible_set_ups_are_rejected_with_their_key() {
    let bad = |p: Params| p.check().unwrap_err();
    let e = bad(Params { players: 3, total_pennies: Some(6), ..Params::default() });
    assert_eq!(e[0].key, "total_pennies");
    assert!(e[0].message.contains("more pennies on the bank cards than exist") && e[0].message.contains("at least 8"), "{}", e[0].message);
    let e = bad(Params { players: 4, total_pennies: Some(4), ..Params::default() });
    assert!(e[0].message.contains("nothing left for the pot"), "{}", e[0].message);
    let e = bad(Params { players: 5, ..Params::default() });
    assert_eq!(e[0].key, "players");
    let e = bad(Params { turn_cap: 0, ..Params::default() });
    assert_eq!(e[0].key, "turn_cap");
}

#[test]
fn unknown_keys_are_rejected() {
    let v = crate::variant::Variant::from_toml_str(std::path::Path::new("t.toml"), "game = \"take-a-penny\"\nplayers = 3\npenies = 4\n").unwrap();
    let e = v.game_params::<Params>().unwrap_err().to_string();
    assert!(e.contains("penies") && e.contains("total_pennies"), "{e}");
}

// ---- Property tests ----

fn plan(name: &str) -> SeatPlan<TakeAPenny> {
    let infos = crate::engine::all_bots(&game(2, None));
    let (info, values) = crate::engine::BotSpec::parse(name).unwrap().resolve(&infos).unwrap();
    SeatPlan { label: name.into(), values, build: info.build }
}

/// The table sampler draws exactly what the counting sampler draws: for every 12-bit mask,
/// on streams until every legal action has been drawn, the same action and the same state
/// of the stream afterwards.
#[test]
fn draw_ranked_matches_random_action() {
    for mask in 1u16..1 << 12 {
        let mut seen = 0u16;
        let mut seed = 0u64;
        while seen != mask {
            assert!(seed < 10_000, "mask {mask:#x}: codes {:#x} never drawn", mask & !seen);
            let mut plain = GameRng::seed_from(seed * 4096 + mask as u64);
            let mut ranked = plain.clone();
            let a = rules::random_action(mask, &mut plain);
            let b = rules::draw_ranked(mask, &mut ranked);
            assert_eq!(a, b, "mask {mask:#x} seed {seed}");
            assert_eq!(plain, ranked, "mask {mask:#x} seed {seed}: the streams drew differently");
            assert!(mask >> b.code() & 1 == 1, "mask {mask:#x}: drew an illegal code {}", b.code());
            seen |= 1 << b.code();
            seed += 1;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Pennies conserved and no repeated spot (check_invariants), legal bot choices (checked
    /// mode), no balance below 0, and every game ends by the cap.
    #[test]
    fn random_and_greedy_games_keep_every_invariant(
        players in 2u32..=4,
        extra in 1u32..20,
        start in 0u32..3,
        dummy in 0u32..6,
        cap in 1u32..80,
        greedy_seats in 0u8..16,
        zero_at in 0u32..3,
        seed in any::<u64>(),
    ) {
        let on_cards = players * start + if players < 4 { dummy } else { 0 };
        let params = Params { players, total_pennies: Some(on_cards + extra), bank_card_start: start, dummy_start: dummy, turn_cap: cap };
        let g = TakeAPenny::new(params).unwrap();
        let mut bots: Vec<Box<dyn Bot<TakeAPenny>>> = (0..players as usize)
            .map(|s| if greedy_seats & (1 << s) != 0 { plan(&format!("greedy:zero_at={zero_at}")) } else { plan("random") })
            .map(|p| (p.build)(&g, &p.values))
            .collect();
        for k in 0..4u64 {
            let o = play(&g, &mut bots, seed.wrapping_add(k), PlayOptions { checked: true }, None, None);
            let o = o.map_err(|v| TestCaseError::fail(format!("{v:?}")))?;
            prop_assert!(o.length <= cap);
            prop_assert!(o.length >= 1);
            prop_assert!(o.winners != 0 && o.winners >> g.setup.cards == 0);
            let total: i64 = o.scores[..g.setup.cards].iter().sum();
            prop_assert!(total <= g.setup.total as i64);
            prop_assert!(o.scores.iter().all(|&x| x >= 0));
            if END_REASONS[o.end_reason as usize] == "pot_empty" {
                prop_assert_eq!(total, g.setup.total as i64);
            } else {
                prop_assert_eq!(o.length, cap);
            }
        }
    }

    /// Every resolution of legal choices conserves pennies and keeps balances >= 0.
    #[test]
    fn resolution_conserves_pennies(
        players in 2usize..=4,
        p in proptest::array::uniform4(0u32..4),
        pot in 1u32..6,
        picks in proptest::array::uniform4(0usize..64),
        lasts in proptest::array::uniform4(0u8..10),
        seed in any::<u64>(),
    ) {
        let g = game(players as u32, None);
        let cards = g.setup.cards;
        let mut pennies = p;
        for x in pennies[cards..].iter_mut() { *x = 0; }
        let mut acts = [BlockSelf; MAX_CARDS];
        // The last round's choices as lanes (spot `s` < 8 is code `s`; a give is any give).
        let revealed = (0..players).filter(|&seat| lasts[seat] != 9).fold(0u64, |m, seat| m | 1 << (16 * seat + lasts[seat] as usize));
        let lanes = rules::legal_lanes(rules::pack(pennies), pot, cards, rules::repeat_lanes(revealed));
        for seat in 0..players {
            let mut out = Vec::new();
            let last = if lasts[seat] == 9 { NO_SPOT } else { lasts[seat] };
            // Every seat's mask at once agrees with the seat's own.
            let mask = rules::legal_mask(&g.setup, &pennies, pot, seat, last);
            prop_assert_eq!((lanes >> (16 * seat)) as u16, mask);
            prop_assert_eq!((rules::running_counts(lanes) >> (16 * seat)) as u16, rules::running_counts(mask as u64) as u16);
            rules::legal_actions(&g.setup, &pennies, pot, seat, last, &mut out);
            // The list is exactly the actions `legal` accepts, each once.
            let all: Vec<Action> = (0..12u8).map(Action::from_code).collect();
            let expect: Vec<Action> = all.iter().copied().filter(|&a| legal(&g.setup, &pennies, pot, seat, last, a)).collect();
            prop_assert_eq!(&out, &expect);
            // The mask sampler draws the action the list would give for the same number.
            let mut by_mask = GameRng::seed_from(seed);
            let mut by_list = by_mask.clone();
            let mask = rules::legal_mask(&g.setup, &pennies, pot, seat, last);
            prop_assert_eq!(rules::random_action(mask, &mut by_mask).action(), out[below(out.len() as u32, &mut by_list) as usize]);
            acts[seat] = out[picks[seat] % out.len()];
        }
        let before: u32 = pennies.iter().sum::<u32>() + pot;
        let mut q = pennies;
        let mut qpot = pot;
        resolve(players, &mut q, &mut qpot, &acts);
        prop_assert_eq!(q.iter().sum::<u32>() + qpot, before);
        prop_assert!(q[cards..].iter().all(|&x| x == 0));
        // The branch-free hot path agrees with the step-by-step resolution.
        let mut f = pennies;
        let mut fpot = pot;
        rules::resolve_quick(players, &mut f, &mut fpot, &acts);
        prop_assert_eq!((f, fpot), (q, qpot));
    }
}

#[test]
fn best_response_plays_legally_in_checked_mode() {
    let g = game(2, None);
    let mut bots: Vec<Box<dyn Bot<TakeAPenny>>> = ["best-response", "random"].iter().map(|n| plan(n)).map(|p| (p.build)(&g, &p.values)).collect();
    for seed in 0..300 {
        play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None).unwrap();
    }
    let mut bots: Vec<Box<dyn Bot<TakeAPenny>>> = ["greedy", "best-response:vs=1"].iter().map(|n| plan(n)).map(|p| (p.build)(&g, &p.values)).collect();
    for seed in 0..300 {
        play(&g, &mut bots, seed, PlayOptions { checked: true }, None, None).unwrap();
    }
}

// ---- Exact solver ----

/// An independent exact computation: the distribution over full states, pushed forward
/// round by round over every joint action (no tensor contraction), until the mass still in
/// play is below 1e-15.
fn forward(setup: &Setup, greedy: &[bool]) -> (f64, Vec<f64>) {
    let n = setup.players;
    type Key = ([u32; MAX_CARDS], u32, [u8; MAX_CARDS]);
    let mut dist: HashMap<Key, f64> = HashMap::new();
    dist.insert((setup.start, setup.pot, [NO_SPOT; MAX_CARDS]), 1.0);
    let mut rounds = 0.0;
    let mut shares = vec![0.0; setup.cards];
    let mut r = 0u32;
    while dist.values().sum::<f64>() > 1e-15 && r < 5000 {
        r += 1;
        let mut next: HashMap<Key, f64> = HashMap::new();
        for ((p, pot, last), mass) in dist {
            let options: Vec<Vec<Action>> = (0..n)
                .map(|seat| {
                    if greedy[seat] {
                        vec![super::greedy_choice(setup, &p, pot, seat, last[seat], super::GREEDY_DEFAULT_ZERO_AT)]
                    } else {
                        let mut out = Vec::new();
                        rules::legal_actions(setup, &p, pot, seat, last[seat], &mut out);
                        out
                    }
                })
                .collect();
            let combos: usize = options.iter().map(|o| o.len()).product();
            for mut j in 0..combos {
                let mut acts = [BlockSelf; MAX_CARDS];
                let mut prob = mass;
                let mut spots = [NO_SPOT; MAX_CARDS];
                for seat in 0..n {
                    let o = &options[seat];
                    acts[seat] = o[j % o.len()];
                    j /= o.len();
                    prob /= o.len() as f64;
                    spots[seat] = rules::spot(acts[seat]);
                }
                let mut q = p;
                let mut qpot = pot;
                resolve(n, &mut q, &mut qpot, &acts);
                if qpot == 0 {
                    rounds += prob * r as f64;
                    let w = winners(&q[..setup.cards]);
                    for (c, s) in shares.iter_mut().enumerate() {
                        if w & (1 << c) != 0 {
                            *s += prob / w.count_ones() as f64;
                        }
                    }
                } else {
                    *next.entry((q, qpot, spots)).or_insert(0.0) += prob;
                }
            }
        }
        dist = next;
    }
    (rounds, shares)
}

#[test]
fn exact_solver_agrees_with_an_independent_forward_computation() {
    for (players, total, greedy) in [(2, 7, vec![false, false]), (2, 8, vec![true, false]), (3, 6, vec![false, true, false])] {
        let g = TakeAPenny::new(Params { players, total_pennies: Some(total), bank_card_start: 1, dummy_start: 2, turn_cap: 1000 }).unwrap();
        let models: Vec<Model> = greedy.iter().map(|&gr| if gr { Model::Greedy(super::GREEDY_DEFAULT_ZERO_AT) } else { Model::Random }).collect();
        let sol = exact::solve(&g.setup, &models, u64::MAX).unwrap();
        let (rounds, shares) = forward(&g.setup, &greedy);
        assert!((sol.expected_rounds - rounds).abs() < 1e-9, "{players}p/{total}: rounds {} vs {rounds}", sol.expected_rounds);
        for c in 0..g.setup.cards {
            assert!((sol.win_share[c] - shares[c]).abs() < 1e-9, "{players}p/{total}: card {c}: {} vs {}", sol.win_share[c], shares[c]);
        }
        assert!((sol.win_share.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}

#[test]
fn exact_solver_agrees_with_monte_carlo_on_the_two_player_variant() {
    let g = game(2, None);
    let random = exact::solve(&g.setup, &[Model::Random, Model::Random], exact::DEFAULT_MAX_STATES).unwrap();
    let plans = vec![plan("random"), plan("random")];
    let games = 200_000;
    let r = sim::run(&g, &plans, RunConfig::new(games, 7)).unwrap();
    let (mean, sd) = r.tally.length_mean_sd();
    let se = sd / (games as f64).sqrt();
    assert!((mean - random.expected_rounds).abs() < 4.5 * se, "rounds: MC {mean} vs exact {}", random.expected_rounds);
    for c in 0..3 {
        let p = random.win_share[c];
        let mc = r.tally.wins[c] / games as f64;
        let se = (p * (1.0 - p) / games as f64).sqrt();
        assert!((mc - p).abs() < 4.5 * se, "card {c}: MC {mc} vs exact {p}");
    }
    // Sanity: the two players are symmetric, the dummy is not.
    assert!((random.win_share[0] - random.win_share[1]).abs() < 1e-12);
    assert!((random.win_share[2] - random.win_share[0]).abs() > 0.05);
}

#[test]
fn best_response_beats_random_and_its_exact_share_matches_monte_carlo() {
    let g = game(2, None);
    let random = exact::solve(&g.setup, &[Model::Random, Model::Random], exact::DEFAULT_MAX_STATES).unwrap();
    let best = exact::solve(&g.setup, &[Model::Best, Model::Random], exact::DEFAULT_MAX_STATES).unwrap();
    assert!(best.win_share[0] > random.win_share[0] + 0.1);
    let plans = vec![plan("best-response"), plan("random")];
    let games = 20_000;
    let r = sim::run(&g, &plans, RunConfig::new(games, 3)).unwrap();
    let p = best.win_share[0];
    let mc = r.tally.wins[0] / games as f64;
    let se = (p * (1.0 - p) / games as f64).sqrt().max(1e-4);
    assert!((mc - p).abs() < 4.5 * se, "best response: MC {mc} vs exact {p}");
}

#[test]
fn exact_refuses_big_chains_saying_how_big() {
    let g = game(4, None);
    let e = exact::solve(&g.setup, &[Model::Random, Model::Random, Model::Random, Model::Random], exact::DEFAULT_MAX_STATES).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("12533761 states") && text.contains("--max-states"), "{text}");
    let e = g.check_bots(&["best-response".into(), "random".into(), "random".into(), "random".into()]).unwrap_err();
    assert!(e.contains("too big") && e.contains("12533761"), "{e}");
    assert!(g.check_bots(&["greedy".into(), "random".into(), "random".into(), "random".into()]).is_ok());
}

/// The fixed-lane winners agree with the plain reading of the victory conditions on every
/// table of 2 to 4 cards holding 0 to 6 pennies each.
#[test]
fn winners_quick_matches_winners() {
    for cards in 2..=4usize {
        for code in 0..7u32.pow(cards as u32) {
            let mut p = [0u32; super::params::MAX_CARDS];
            for (c, slot) in p.iter_mut().enumerate().take(cards) {
                *slot = code / 7u32.pow(c as u32) % 7;
            }
            assert_eq!(rules::winners_quick(&p, cards), winners(&p[..cards]), "{p:?} over {cards} cards");
        }
    }
}
