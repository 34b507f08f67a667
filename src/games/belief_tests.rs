//! The search's belief about the table ([`crate::engine::belief`]) on every game: after a
//! game's worth of decisions the posterior of each opponent rests on the bot it really is,
//! and the belief and its samples come from the seat's view only.

use std::path::Path;

use crate::engine::belief::{TableBelief, watch_game};
use crate::engine::{Bot, BotSpec, Game, roster::all_bots};
use crate::variant::Variant;

/// The game of a bundled variant file.
fn load<G: Game>(text: &str, make: impl Fn(&Variant) -> G) -> G {
    let v = Variant::from_toml_str(Path::new("standard.toml"), text).expect("standard variant loads");
    make(&v)
}

/// Bots from specs (`counter`, `basic:bluff=0.2`).
fn bots<G: Game>(game: &G, specs: &[&str]) -> Vec<Box<dyn Bot<G>>> {
    let roster = all_bots(game);
    specs
        .iter()
        .map(|s| {
            let (info, values) = BotSpec::parse(s).expect("spec").resolve(&roster).expect("known bot");
            (info.build)(game, &values)
        })
        .collect()
}

/// Posterior mass of `seat` on the candidates whose label starts with `prefix`.
fn mass<G: Game>(belief: &TableBelief<G>, seat: usize, prefix: &str) -> f64 {
    belief.posterior(seat).iter().filter(|(label, _)| label == prefix || label.starts_with(&format!("{prefix}:"))).map(|(_, p)| p).sum()
}

/// Prints each seat's three most likely models (shown with `--nocapture`).
fn show<G: Game>(belief: &TableBelief<G>, seats: usize) {
    for seat in 1..seats {
        let mut p = belief.posterior(seat);
        p.sort_by(|a, b| b.1.total_cmp(&a.1));
        eprintln!("seat {seat}: {:?}", &p[..3.min(p.len())]);
    }
}

#[test]
fn penny_badger_belief_finds_each_bot() {
    use crate::games::penny_badger::PennyBadger;
    let game = load(include_str!("../../variants/penny-badger/standard.toml"), |v| PennyBadger::new(v.game_params().expect("params")).expect("valid"));
    let mut table = bots(&game, &["basic", "counter", "basic:bluff=0.2:challenge=0.2", "random"]);
    let belief = watch_game(&game, &mut table, 0, 3);
    show(&belief, 4);
    assert!(mass(&belief, 1, "counter") > 0.9, "counter");
    // The challenge rate shows at every claim; one game's few bluff chances leave the bluff
    // rate less sure (0.2 or 0), so the test asks for the challenge cell.
    let challenge: f64 = belief.posterior(2).iter().filter(|(l, _)| l.starts_with("basic:") && l.ends_with(":challenge=0.2")).map(|(_, p)| p).sum();
    assert!(challenge > 0.9, "basic 0.2/0.2: {challenge:.3} on challenge 0.2");
    // `random` and `basic` challenging half the time answer claims alike; its turns tell
    // them apart, one game leaves about 0.65 on `random` (seed 3).
    assert!(mass(&belief, 3, "random") > 0.5, "random");
}

/// A model of a card counter plays in the search from what its seat has heard at the table:
/// at every decision of another seat, each candidate that listens decides as its judge,
/// which heard the same events (a model reset at every search iteration would play
/// Penny Badger's `counter` from a blank memory: no discards known, no bluffs seen).
#[test]
fn listening_models_play_from_what_their_seat_heard() {
    use crate::games::penny_badger::PennyBadger;
    let game = load(include_str!("../../variants/penny-badger/standard.toml"), |v| PennyBadger::new(v.game_params().expect("params")).expect("valid"));
    let mut table = bots(&game, &["basic:bluff=0.2:challenge=0.2", "counter", "counter", "basic:bluff=0.2:challenge=0.2"]);
    let mut beliefs = vec![TableBelief::new(&game)];
    let (mut same, mut listening) = (0, 0);
    let count = |_: usize, belief: &mut TableBelief<PennyBadger>, state: &_, seat| {
        let (s, l) = belief.listening_players_match_judges(&game, state, seat);
        same += s;
        listening += l;
    };
    crate::engine::belief::watch_game_with(&game, &mut table, 0, 3, &mut beliefs, |_, s| s.clone(), |_, _, _| {}, count);
    assert!(listening > 100, "{listening} listening decisions");
    assert_eq!(same, listening, "listening models that decided otherwise than their judges");
}

/// Seat 0 plays the game's first own bot; seats 1.. play its own bots in turn (defaults).
/// After one game the posterior of each opponent puts more than `threshold` on its bot kind
/// (every parameter cell of it); `twins` (kind, imitator): at a seat of that kind the
/// imitator's mass is pooled with it, the imitator deciding alike at every decision such a
/// seat shows (the imitator's own seats are read alone).
fn converges<G: Game>(game: &G, seed: u64, threshold: f64, twins: &[(&str, &str)]) {
    let own: Vec<&str> = game.bots().iter().map(|b| b.name).collect();
    let seats = game.acting_seats();
    let specs: Vec<&str> = (0..seats).map(|s| if s == 0 { own[0] } else { own[(s - 1) % own.len()] }).collect();
    let mut table = bots(game, &specs);
    let belief = watch_game(game, &mut table, 0, seed);
    show(&belief, seats);
    for (seat, kind) in specs.iter().enumerate().skip(1) {
        let twin = twins.iter().find(|(a, _)| a == kind).map(|(_, b)| *b);
        let m = mass(&belief, seat, kind) + twin.map_or(0.0, |t| mass(&belief, seat, t));
        assert!(m > threshold, "{}: seat {seat} ({kind}) has {m:.3} on its kind", game.id());
    }
}

macro_rules! converges_on {
    ($name:ident, $game:ty, $module:ident $(, $twins:expr)?) => {
        #[test]
        fn $name() {
            use crate::games::$module::Params;
            let game = <$game>::new(Params::default()).expect("default parameters");
            converges(&game, 5, 0.5, &[$($twins)?]);
        }
    };
}

// Seed 5, one game each; `--nocapture` prints each posterior. Where a parameter changes no
// decision the game shows, its cells split the mass of their kind (Pig Farm's `sell_at` and
// `risk`, Beaver Mania's `party_at`, Match Patch's `recall` above 0.2): the test asks for the
// kind. Kinds that decide alike are named as twins, checked by a belief that reads each
// seat's real hand (2026-11-28): equal likelihoods at every decision of the seat.
converges_on!(match_patch_belief_finds_each_bot, crate::games::match_patch::MatchPatch, match_patch);
converges_on!(beaver_mania_belief_finds_each_bot, crate::games::beaver_mania::BeaverMania, beaver_mania);
converges_on!(bluffing_joker_belief_finds_each_bot, crate::games::bluffing_joker::BluffingJoker, bluffing_joker);
// Dice Factor and Pig Farm: one seed is a lottery. A seat shows 8 to 13 decisions in a Dice
// Factor game, each judged on hands the belief can only guess (a deterministic bot's choice on
// a guessed hand is 1 or 0), so the read of one game swings with the samples. These tests ask
// for a rate over seeds 1 to 36 instead: each bot kind read as its kind (more than 0.5 on it)
// in more than half of the games it sits in (three kinds, `random` and the game's two bots,
// make a third the rate of a guess). Measured (2026-11-29): Dice Factor `collector` 46 of 72,
// `gambler` 23 of 36; Pig Farm `threshold` 53 of 72, `greedy` 27 of 36. Before the particles
// were mended past the watching seat's own draws ([`crate::engine::HiddenInfo::mend`]) they died
// there (64 of 78 to 3 at one Pig Farm turn), the pool was refilled from fresh deals every
// round, and a seat's discards were judged on near-random hands: `gambler` 18 of 36 (the
// test failed), `collector` 46 of 72, `greedy` 24 of 36, `threshold` 52 of 72.

/// Fails when a kind of `rates` ([`read_rates`]) is read right in no more than half its games.
fn most_read_right(game: &str, rates: &[(String, usize, usize)]) {
    eprintln!("{game}: {rates:?}");
    for (kind, right, games) in rates {
        assert!(2 * right > *games, "{game}: {kind} read as its kind in {right} of {games} games");
    }
}

#[test]
fn dice_factor_belief_finds_each_bot() {
    use crate::games::dice_factor::{DiceFactor, Params};
    let game = DiceFactor::new(Params::default()).expect("default parameters");
    most_read_right("dice-factor", &read_rates(&game, 1..=36));
}
// A Flower Power play is judged by the cards it lays (`HiddenInfo::seen`), not by the hand
// positions that held them (different cards in every sample). Counted with each seat's real
// hand (seed 5, 2026-11-28): a `cautious` cell decides as `greedy` at every decision of greedy seat
// 1 (its read is the priors' split, 0.53 greedy), and differs at 2 of the 10 decisions of the
// cautious seat 2 and of the 10 of greedy seat 3: the cautious seat reads as cautious (0.69).
converges_on!(flower_power_belief_finds_each_bot, crate::games::flower_power::FlowerPower, flower_power, ("greedy", "cautious"));
// Pig Farm: a rate over seeds 1 to 36, as Dice Factor above.
#[test]
fn pig_farm_belief_finds_each_bot() {
    use crate::games::pig_farm::{Params, PigFarm};
    let game = PigFarm::new(Params::default()).expect("default parameters");
    most_read_right("pig-farm", &read_rates(&game, 1..=36));
}
// A `saboteur` cell decides as `builder` at every decision of the builder seats 1 and 3
// (counted with their real hands: 0 of 24 and 0 of 22 differ, 2026-11-28), and differs at 3
// of the 24 of the saboteur seat 2, which reads as saboteur.
converges_on!(rainbow_rush_belief_finds_each_bot, crate::games::rainbow_rush::RainbowRush, rainbow_rush, ("builder", "saboteur"));

/// Take a Penny's choices are secret until the round is revealed, so a seat that watches
/// another choose learns nothing ([`crate::engine::HiddenInfo::public_action`]): the belief stays
/// at its prior for every seat (it moved, by a choice not yet revealed, before the fix).
#[test]
fn take_a_penny_belief_learns_nothing_from_secret_choices() {
    use crate::games::take_a_penny::{Params, TakeAPenny};
    let game = TakeAPenny::new(Params::default()).expect("default parameters");
    let mut table = bots(&game, &["greedy", "greedy", "best-response", "random"]);
    let belief = watch_game(&game, &mut table, 0, 5);
    let priors: Vec<f64> = belief.candidates().iter().map(|c| c.prior).collect();
    for seat in 1..4 {
        for ((label, p), prior) in belief.posterior(seat).iter().zip(&priors) {
            assert!((p - prior).abs() < 1e-12, "seat {seat}: {label} at {p}, prior {prior}");
        }
    }
}

/// Checks (b) of issue 42 on one game: two beliefs watch the same game for seat 0, one handed
/// samplers of the real state, the other of a different real state at every decision (a
/// fresh determinization of it from seat 0: the same view, other hidden cards). At each of
/// seat 0's decisions both must hold the same posteriors, the same effective sample size and
/// give the same samples. Returns how many decisions were compared.
struct ViewOnly;

impl super::GameVisitor for ViewOnly {
    type Output = usize;
    fn visit<G: super::Registered>(self) -> usize {
        use crate::engine::{GameRng, Sampler, SeedFrom};
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants").join(G::INFO.id).join("standard.toml");
        let text = std::fs::read_to_string(&path).expect("bundled variant");
        let variant = Variant::from_toml_str(&path, &text).expect("standard variant loads");
        let game = G::from_variant(&variant).expect("valid");
        let own: Vec<&str> = game.bots().iter().map(|b| b.name).collect();
        let specs: Vec<&str> = (0..game.acting_seats()).map(|s| own[s % own.len()]).collect();
        let mut table = bots(&game, &specs);
        let mut beliefs = vec![TableBelief::new(&game), TableBelief::new(&game)];
        let mut other = GameRng::seed_from(99);
        let mut seen: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        let stand_in = |i: usize, state: &G::State| if i == 0 { state.clone() } else { Sampler::new(state, 0).sample(&game, &mut other) };
        let searched = |i: usize, belief: &TableBelief<G>, state: &G::State| {
            let sampler = Sampler::new(state, 0);
            let mut record = format!("{:?} ess {}", (1..game.acting_seats()).map(|s| belief.posterior(s)).collect::<Vec<_>>(), belief.effective_samples());
            let mut rng = GameRng::seed_from(seen[i].len() as u64);
            let mut sample = state.clone();
            for _ in 0..4 {
                belief.sample_into(&game, &sampler, &mut rng, &mut sample);
                // Compared as every seat sees it: card ids that no seat tells apart (two
                // copies of a Bluffing Joker rank) may differ, nothing else.
                for seat in 0..game.seats() {
                    record += &format!(" | {}", game.observation(&sample, seat));
                }
            }
            seen[i].push(record);
        };
        crate::engine::belief::watch_game_with(&game, &mut table, 0, 7, &mut beliefs, stand_in, searched, |_, _, _, _| {});
        for (n, (a, b)) in seen[0].iter().zip(&seen[1]).enumerate() {
            assert_eq!(a, b, "{}: decision {n} of seat 0: the belief or its samples depend on hidden cards", G::INFO.id);
        }
        assert_eq!(seen[0].len(), seen[1].len());
        seen[0].len()
    }
}

/// (b) of issue 42, every game of the registry: the belief and its samples come from the
/// seat's view and the public record only, never from the real hidden state.
#[test]
fn belief_and_samples_depend_on_the_view_only() {
    for id in super::GAME_IDS {
        let decisions = super::visit(id, ViewOnly).expect("registered");
        assert!(decisions > 0, "{id}: seat 0 never decided");
    }
}

/// Per bot kind at the opponents' seats of [`converges`]' table, over `seeds`: (kind, games in
/// which the seat's posterior put more than 0.5 on that kind, games).
fn read_rates<G: Game>(game: &G, seeds: std::ops::RangeInclusive<u64>) -> Vec<(String, usize, usize)> {
    let own: Vec<&str> = game.bots().iter().map(|b| b.name).collect();
    let seats = game.acting_seats();
    let specs: Vec<&str> = (0..seats).map(|s| if s == 0 { own[0] } else { own[(s - 1) % own.len()] }).collect();
    let mut out: Vec<(String, usize, usize)> = Vec::new();
    for seed in seeds {
        let mut table = bots(game, &specs);
        let belief = watch_game(game, &mut table, 0, seed);
        for (seat, kind) in specs.iter().enumerate().skip(1) {
            let right = mass(&belief, seat, kind) > 0.5;
            match out.iter_mut().find(|(k, _, _)| k == kind) {
                Some(row) => {
                    row.1 += usize::from(right);
                    row.2 += 1;
                }
                None => out.push((kind.to_string(), usize::from(right), 1)),
            }
        }
    }
    out
}
