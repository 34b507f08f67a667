//! Test support shared by the games' tests: a bot that says it never draws, and a game's own
//! play-out loop checked against the plain one.

use super::{Bot, EventLog, Game, GameRng, Lineup, MAX_SEATS, Sampler, SeedFrom, ToMove, play_decisions, streams};

/// Test support for a bot that says it never draws ([`Bot::draws`] false, so a table of it
/// gets no seat streams): `bots` (one per seat) play `g`'s games from seeds `0..games`, and
/// `Err` names the first decision after which the stream its bot was handed had moved.
pub(crate) fn check_never_draws<G: Game>(g: &G, bots: &mut [Box<dyn Bot<G>>], games: u64) -> Result<(), String> {
    if let Some(bot) = bots.iter().find(|b| b.draws()) {
        return Err(format!("{} says it draws", bot.name()));
    }
    for seed in 0..games {
        let mut rng = GameRng::seed_from(seed);
        let mut s = g.deal(&mut rng, &mut EventLog::new(false));
        for (seat, bot) in bots.iter_mut().enumerate() {
            bot.new_game(g, seat);
        }
        let mut stream = GameRng::seed_from(!seed);
        while let ToMove::Seat(seat) = g.to_move(&s) {
            let before = stream.clone();
            let action = bots[seat].decide(g, &g.view(&s, seat), &mut stream);
            if stream != before {
                return Err(format!("seed {seed}: {} drew from its stream", bots[seat].name()));
            }
            g.apply(&mut s, seat, action, &mut rng, &mut EventLog::new(false));
        }
    }
    Ok(())
}

/// Test support for a game's own [`Game::play_out`]: a dealt game from `seed`'s streams,
/// played `steps` decisions on by the plain loop (`a` and `b` asked the same questions, which
/// must give the same answers), then to its end by `play_out` with `a` and by
/// [`play_decisions`] with `b` from the same point. `Err` names the first difference: the
/// game not over, the final state, or any stream afterwards.
pub(crate) fn check_play_out<G: Game, L: Lineup<G> + ?Sized>(g: &G, a: &mut L, b: &mut L, seed: u64, steps: usize) -> Result<(), String> {
    let (mut rng, mut seat_rngs) = streams(seed, MAX_SEATS);
    let mut s = g.deal(&mut rng, &mut EventLog::new(false));
    a.new_game(g);
    b.new_game(g);
    let mut log = EventLog::new(false);
    for _ in 0..steps {
        let ToMove::Seat(seat) = g.to_move(&s) else { break };
        let mut stream = seat_rngs[seat].clone();
        let action = a.decide(seat, g, &g.view(&s, seat), &Sampler::new(&s, seat), &mut seat_rngs[seat]);
        let again = b.decide(seat, g, &g.view(&s, seat), &Sampler::new(&s, seat), &mut stream);
        if action != again {
            return Err(format!("seed {seed}: two bots answered {action:?} and {again:?}"));
        }
        g.apply(&mut s, seat, action, &mut rng, &mut log);
    }
    let (mut s2, mut rng2, mut seat_rngs2) = (s.clone(), rng.clone(), seat_rngs.clone());
    g.play_out(&mut s, a, &mut rng, &mut seat_rngs);
    play_decisions(g, &mut s2, b, &mut rng2, &mut seat_rngs2);
    if !matches!(g.to_move(&s), ToMove::Over) {
        return Err(format!("seed {seed}: play_out stopped before the end"));
    }
    if format!("{s:?}") != format!("{s2:?}") {
        return Err(format!("seed {seed}: play_out left\n{s:?}\nthe plain loop\n{s2:?}"));
    }
    if format!("{rng:?} {seat_rngs:?}") != format!("{rng2:?} {seat_rngs2:?}") {
        return Err(format!("seed {seed}: the streams differ after play_out"));
    }
    Ok(())
}
