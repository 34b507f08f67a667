//! Test support for the keys a bot declares it reads ([`super::BotInfo::reads`]): a bot's
//! choices under a game and under the same game with one undeclared key changed, asked at the
//! same states with the same view and the same random stream, must be the same.
//!
//! Only states where the two games offer the same legal actions are compared: a key that
//! changes what is legal (the sets needed to sell) changes every bot's choices through the
//! rules, which is not reading it. Everything here plays `a`'s rules; `b` is only asked.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{Bot, EventLog, Game, GameEvent, Sampler, ToMove, game_seed, streams};

/// What [`compare_choices`] saw.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Compared {
    /// Decisions where both games offered the same legal actions and both choices were asked.
    pub compared: u64,
    /// Decisions skipped because the legal actions differ (or `b` cannot read `a`'s state).
    pub skipped: u64,
}

/// Plays `games` games of `a` (seeds `game_seed(seed, i)`) with `bots_a` (one per acting seat)
/// and, at every decision, asks the same seat's bot of `bots_b` (built for `b`) the same
/// question with `b`'s view and a copy of the same stream. Both line-ups see the same events.
/// `Err` names the first decision where the two choices differ.
pub fn compare_choices<G: Game>(
    a: &G,
    b: &G,
    bots_a: &mut [Box<dyn Bot<G>>],
    bots_b: &mut [Box<dyn Bot<G>>],
    seed: u64,
    games: u64,
    max_steps: u64,
) -> Result<Compared, String> {
    let mut seen = Compared::default();
    let (mut legal_a, mut legal_b) = (Vec::new(), Vec::new());
    for index in 0..games {
        let seed = game_seed(seed, index);
        let (mut rng, mut seat_rngs) = streams(seed, bots_a.len());
        let mut log = EventLog::new(true);
        let mut state = a.deal(&mut rng, &mut log);
        for (seat, bot) in bots_a.iter_mut().enumerate() {
            bot.new_game(a, seat);
        }
        for (seat, bot) in bots_b.iter_mut().enumerate() {
            bot.new_game(b, seat);
        }
        let mut step = 0u64;
        loop {
            for event in log.drain() {
                for (seat, (x, y)) in bots_a.iter_mut().zip(bots_b.iter_mut()).enumerate() {
                    if event.visible_to(seat) {
                        if x.listens() {
                            x.observe(seat, &event);
                        }
                        if y.listens() {
                            y.observe(seat, &event);
                        }
                    }
                }
            }
            let ToMove::Seat(seat) = a.to_move(&state) else { break };
            if step >= max_steps {
                break;
            }
            let action = {
                let view = a.view(&state, seat);
                legal_a.clear();
                a.legal_actions(&view, &mut legal_a);
                let before = seat_rngs[seat].clone();
                let action = bots_a[seat].decide_with(a, &view, &Sampler::new(&state, seat), &mut seat_rngs[seat]);
                // `b` may not be able to read a state of `a` at all (a table of another size):
                // such a state is skipped, as one whose legal actions differ.
                let same_rules = catch_unwind(AssertUnwindSafe(|| {
                    let view_b = b.view(&state, seat);
                    legal_b.clear();
                    b.legal_actions(&view_b, &mut legal_b);
                    legal_a == legal_b
                }))
                .unwrap_or(false);
                if same_rules {
                    let mut stream = before;
                    let view_b = b.view(&state, seat);
                    let other = bots_b[seat].decide_with(b, &view_b, &Sampler::new(&state, seat), &mut stream);
                    if other != action {
                        return Err(format!(
                            "game seed {seed}, decision {step}: `{}` chose {action:?} under the variant as written and {other:?} with the key changed",
                            bots_a[seat].name()
                        ));
                    }
                    seen.compared += 1;
                } else {
                    seen.skipped += 1;
                }
                action
            };
            a.apply(&mut state, seat, action, &mut rng, &mut log);
            step += 1;
        }
    }
    Ok(seen)
}

/// Plays `games` games of `a` and of `b` side by side from the same seeds with `bots` (asked
/// under `a`), applying every choice to both: `Err` names the first decision where the two
/// games differ in who moves or what is legal. A key that passes changes only the scores.
pub fn compare_play<G: Game>(a: &G, b: &G, bots: &mut [Box<dyn Bot<G>>], seed: u64, games: u64, max_steps: u64) -> Result<u64, String> {
    let mut decisions = 0;
    let (mut legal_a, mut legal_b) = (Vec::new(), Vec::new());
    for index in 0..games {
        let seed = game_seed(seed, index);
        let (mut rng, mut seat_rngs) = streams(seed, bots.len());
        let mut rng_b = rng.clone();
        let mut state = a.deal(&mut rng, &mut EventLog::new(false));
        let mut state_b = b.deal(&mut rng_b, &mut EventLog::new(false));
        for (seat, bot) in bots.iter_mut().enumerate() {
            bot.new_game(a, seat);
        }
        for step in 0..max_steps {
            let (who, who_b) = (a.to_move(&state), b.to_move(&state_b));
            if who != who_b {
                return Err(format!("game seed {seed}, decision {step}: {who:?} under the variant as written, {who_b:?} with the key changed"));
            }
            let ToMove::Seat(seat) = who else { break };
            let action = {
                let view = a.view(&state, seat);
                legal_a.clear();
                a.legal_actions(&view, &mut legal_a);
                legal_b.clear();
                b.legal_actions(&b.view(&state_b, seat), &mut legal_b);
                if legal_a != legal_b {
                    return Err(format!("game seed {seed}, decision {step}: the legal actions differ ({legal_a:?} and {legal_b:?})"));
                }
                bots[seat].decide_with(a, &view, &Sampler::new(&state, seat), &mut seat_rngs[seat])
            };
            a.apply(&mut state, seat, action, &mut rng, &mut EventLog::new(false));
            b.apply(&mut state_b, seat, action, &mut rng_b, &mut EventLog::new(false));
            decisions += 1;
        }
    }
    Ok(decisions)
}
