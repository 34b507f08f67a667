//! Tests of the rules language: the seed games written in it play the same distribution of
//! games as the built-in ones, every rules file passes the invariant harness, and mistakes are
//! named with their place.

use crate::engine::Traces;
use std::path::Path;

use rayon::prelude::*;

use super::RulesGame;
use crate::engine::{Bot, Game, PlayOptions, RandomBot, game_seed, play};
use crate::games::{GameVisitor, Registered, visit};
use crate::sim::harness::HarnessPlan;
use crate::variant::Variant;

/// Length, win shares per seat and end reason shares of `games` games with `random` at every
/// seat: per game (length, win share of each seat, end reason).
fn sample<G: Game>(game: &G, games: u64, seed: u64) -> Vec<(f64, Vec<f64>, String)> {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let mut bots: Vec<Box<dyn Bot<G>>> = (0..game.acting_seats()).map(|_| Box::new(RandomBot::<G>::new()) as Box<dyn Bot<G>>).collect();
            let o = play(game, &mut bots, game_seed(seed, i), PlayOptions::default(), None, None).expect("legal");
            (o.length as f64, (0..game.seats()).map(|s| o.win_share(s)).collect(), game.end_reasons()[o.end_reason as usize].to_string())
        })
        .collect()
}

fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, v)
}

/// Checks that two samples agree within 4 standard errors of the difference on the mean
/// length, every seat's win share and every end reason's share; returns the worst z.
fn agree(a: &[(f64, Vec<f64>, String)], b: &[(f64, Vec<f64>, String)], what: &str) -> f64 {
    let mut worst: f64 = 0.0;
    let mut check = |name: String, xa: Vec<f64>, xb: Vec<f64>| {
        let (ma, va) = mean_var(&xa);
        let (mb, vb) = mean_var(&xb);
        let se = (va / xa.len() as f64 + vb / xb.len() as f64).sqrt();
        let z = if se == 0.0 { if (ma - mb).abs() < 1e-12 { 0.0 } else { f64::INFINITY } } else { (ma - mb).abs() / se };
        assert!(z < 4.0, "{what}: {name} differs: built-in {ma:.4}, rules file {mb:.4} ({z:.1} standard errors)");
        worst = worst.max(z);
    };
    check("mean length".into(), a.iter().map(|g| g.0).collect(), b.iter().map(|g| g.0).collect());
    for s in 0..a[0].1.len() {
        check(format!("seat {s}'s win share"), a.iter().map(|g| g.1[s]).collect(), b.iter().map(|g| g.1[s]).collect());
    }
    let mut reasons: Vec<&String> = a.iter().map(|g| &g.2).chain(b.iter().map(|g| &g.2)).collect();
    reasons.sort();
    reasons.dedup();
    for r in reasons {
        check(
            format!("end reason {r}"),
            a.iter().map(|g| f64::from(u8::from(&g.2 == r))).collect(),
            b.iter().map(|g| f64::from(u8::from(&g.2 == r))).collect(),
        );
    }
    worst
}

fn load(path: &str, sets: &[&str]) -> Variant {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Variant::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join(path), &sets).expect("loads")
}

/// Plays the built-in game of `builtin` and the rules file `rules` with the same `--set`
/// values, 20,000 games a side.
fn compare(builtin: &str, rules: &str, sets: &[&str]) {
    struct Sample(Variant, u64);
    impl GameVisitor for Sample {
        type Output = Vec<(f64, Vec<f64>, String)>;
        fn visit<G: Registered>(self) -> Self::Output {
            sample(&G::from_variant(&self.0).expect("builds"), 20_000, self.1)
        }
    }
    let bv = load(builtin, sets);
    let a = visit(&bv.game.clone(), Sample(bv, 11)).expect("registered");
    let game = RulesGame::from_variant(&load(rules, sets)).expect("compiles");
    let b = sample(&game, 20_000, 29);
    let worst = agree(&a, &b, &format!("{rules} with {sets:?}"));
    eprintln!("{rules} with {sets:?}: worst z {worst:.2}");
}

#[test]
fn flower_power_as_a_rules_file_plays_like_the_built_in_game() {
    compare("variants/flower-power/standard.toml", "examples/rules/flower-power.toml", &[]);
    compare("variants/flower-power/standard.toml", "examples/rules/flower-power.toml", &["players=3", "hand_size=3"]);
    compare("variants/flower-power/standard.toml", "examples/rules/flower-power.toml", &["players=6", "max_play=2", "petals=4"]);
}

/// Every bundled rules file passes the invariant harness (conservation, legality,
/// termination, determinism, determinizations that show the seat its own view) with every
/// bot it offers.
#[test]
fn every_bundled_rules_file_passes_the_invariant_harness() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rules");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("examples/rules").flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let v = Variant::load(&file, &[]).expect("loads");
        let plan = HarnessPlan { games: 6, ..HarnessPlan::default() };
        match crate::games::check_rules(&v, plan).expect("builds") {
            Ok(n) => assert!(n > 0, "{}", file.display()),
            Err(f) => panic!("{}: {f:?}", file.display()),
        }
    }
}

/// A mistake inside an expression is named at its character: file, line and column.
#[test]
fn an_unknown_name_in_an_expression_is_named_at_its_column() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rules/flower-power.toml")).expect("reads");
    let broken = text.replace("value = \"sum_seats(flowers)\"", "value = \"sum_seats(flowrs)\"");
    let v = Variant::from_toml_str(Path::new("fp.toml"), &broken).expect("toml");
    let err = RulesGame::from_variant(&v).err().expect("refused").to_string();
    let line = broken.lines().position(|l| l.contains("sum_seats(flowrs)")).expect("there") + 1;
    let column = broken.lines().nth(line - 1).expect("line").find("flowrs").expect("there") + 1;
    assert!(err.starts_with(&format!("fp.toml:{line}:{column}:")), "{err}");
    assert!(err.contains("did you mean `flowers`"), "{err}");
}

#[test]
fn take_a_penny_as_a_rules_file_plays_like_the_built_in_game() {
    compare("variants/take-a-penny/standard.toml", "examples/rules/take-a-penny.toml", &[]);
    compare("variants/take-a-penny/standard.toml", "examples/rules/take-a-penny.toml", &["players=3"]);
    compare("variants/take-a-penny/standard.toml", "examples/rules/take-a-penny.toml", &["players=2", "bank_card_start=2"]);
}

/// Deep-merges `fragment` into `base` (a fragment's tables add to and replace the base's).
fn merge(base: &mut toml::Table, fragment: toml::Table) {
    for (k, v) in fragment {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(f)) => merge(b, f),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

/// Every TOML block of docs/rules-language.md compiles: a whole file (it has
/// `rules_language`) as it is, a fragment merged into the tutorial's game.
#[test]
fn every_toml_block_of_the_rules_language_page_compiles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/rules-language.md")).expect("reads");
    let base_text = std::fs::read_to_string(root.join("examples/rules/color-match.toml")).expect("reads");
    let mut blocks = 0;
    let mut rest = page.as_str();
    while let Some(start) = rest.find("```toml\n") {
        let body_start = start + "```toml\n".len();
        let end = rest[body_start..].find("```").expect("closed") + body_start;
        let block = &rest[body_start..end];
        rest = &rest[end + 3..];
        blocks += 1;
        let fragment: toml::Table = block.parse().unwrap_or_else(|e| panic!("block {blocks} is not TOML: {e}\n{block}"));
        let text = if fragment.contains_key("rules_language") {
            // The tutorial's first block is the head of the file: complete it with the rest
            // of the tutorial's game.
            let mut base: toml::Table = base_text.parse().expect("toml");
            merge(&mut base, fragment);
            toml::to_string(&base).expect("writes")
        } else {
            let mut base: toml::Table = base_text.parse().expect("toml");
            merge(&mut base, fragment);
            toml::to_string(&base).expect("writes")
        };
        let v = Variant::from_toml_str(Path::new("docs/rules-language.md"), &text).unwrap_or_else(|e| panic!("block {blocks}: {e}\n{block}"));
        if let Err(e) = RulesGame::from_variant(&v) {
            panic!("block {blocks} does not compile: {e}\n{block}");
        }
    }
    assert!(blocks >= 10, "{blocks} blocks");
}

/// No rules file makes the loader or the machine panic or hang: the bundled files with
/// characters deleted, repeated or replaced are refused with an error or play to their end.
#[test]
fn broken_rules_files_are_refused_or_played_never_a_panic() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let texts: Vec<String> = ["color-match", "take-a-penny", "flower-power"]
        .iter()
        .map(|f| std::fs::read_to_string(root.join(format!("examples/rules/{f}.toml"))).expect("reads"))
        .collect();
    let mut runner = TestRunner::new(Config { cases: 96, failure_persistence: None, ..Config::default() });
    let edits = (
        0usize..3,
        0usize..100_000,
        0usize..3,
        proptest::sample::select(vec!["0", "-1", "99999999", "(", ")", "x", "\"", "[", "]", "==", "hand", "seat", "..", "{", "}", ",", " "]),
    );
    runner
        .run(&edits, |(file, at, kind, insert)| {
            let text = &texts[file];
            let mut chars: Vec<char> = text.chars().collect();
            let i = at % chars.len();
            match kind {
                0 => {
                    chars.remove(i);
                }
                1 => chars.splice(i..i, insert.chars()).for_each(drop),
                _ => {
                    let j = (i + 7).min(chars.len());
                    chars.splice(i..j, insert.chars()).for_each(drop);
                }
            }
            let broken: String = chars.into_iter().collect();
            let Ok(v) = Variant::from_toml_str(Path::new("broken.toml"), &broken) else { return Ok(()) };
            let Ok(game) = RulesGame::from_variant(&v) else { return Ok(()) };
            // Plays a few games with a small cap on decisions: must end or be stopped, never panic.
            for seed in 0..3 {
                let mut bots: Vec<Box<dyn Bot<RulesGame>>> =
                    (0..game.acting_seats()).map(|_| Box::new(RandomBot::<RulesGame>::new()) as Box<dyn Bot<RulesGame>>).collect();
                let _ = play(&game, &mut bots, game_seed(seed, 0), PlayOptions { checked: true }, None, None);
            }
            prop_assert!(true);
            Ok(())
        })
        .expect("no panic");
}

#[test]
fn pig_farm_as_a_rules_file_plays_like_the_built_in_game() {
    compare("variants/pig-farm/standard.toml", "examples/rules/pig-farm.toml", &[]);
    compare(
        "variants/pig-farm/standard.toml",
        "examples/rules/pig-farm.toml",
        &["players=2", "hand_size=6", "min_sets_to_sell=2", "scoring.seller.2=10", "reshuffle_discard=false"],
    );
    compare(
        "variants/pig-farm/standard.toml",
        "examples/rules/pig-farm.toml",
        &["players=5", "rounds=3", "deck.butchers=8", "scoring.seller.3=200", "scoring.set_bonus.2=40"],
    );
}

/// A push-your-luck dice game written from the docs alone: a seat that rolls again chooses
/// inside the action it chose, as deep as its luck lasts; every game ends by its own rule,
/// never stopped for nesting too deep.
#[test]
fn a_seat_may_choose_again_inside_its_action_as_often_as_it_likes() {
    let v = Variant::from_toml_str(Path::new("pig-dice.toml"), include_str!("pig-dice-test.toml")).expect("toml");
    let game = RulesGame::from_variant(&v).expect("compiles");
    let samples = sample(&game, 2_000, 3);
    assert!(samples.iter().all(|g| g.2 == "reached"), "every game reaches the goal");
}

/// The legal choices are shown to the choosing seat, so a precondition that reads what the
/// seat cannot see (the face-down draw pile, another seat's hand, another seat's secret
/// choice) is refused when the file loads, with the key's line.
#[test]
fn a_precondition_that_reads_what_the_seat_cannot_see_is_refused() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rules/color-match.toml")).expect("reads");
    let refused = |from: &str, to: &str, says: &str| {
        let broken = text.replacen(from, to, 1);
        assert_ne!(broken, text, "{from}");
        let v = Variant::from_toml_str(Path::new("cm.toml"), &broken).expect("toml");
        let err = RulesGame::from_variant(&v).err().unwrap_or_else(|| panic!("{to}: accepted")).to_string();
        let line = broken.lines().position(|l| l.contains(to.lines().next().expect("a line"))).expect("there") + 1;
        assert!(err.starts_with(&format!("cm.toml:{line}:")), "{err}");
        assert!(err.contains(says), "{err}");
    };
    // The face-down draw pile's cards.
    refused(
        "if = \"count(hand, card.color == top(pile).color or card.shape == top(pile).shape) == 0 and size(draw)",
        "if = \"count(draw, card.color == top(pile).color) == 0 and size(draw)",
        "the cards of `draw`",
    );
    // Another seat's hand.
    refused(
        "if = \"count(hand, card.color == top(pile).color or card.shape == top(pile).shape) == 0 and size(draw)",
        "if = \"count(hand[next(seat)], card.color == top(pile).color) == 0 and size(draw)",
        "`hand` of another seat",
    );
    // Choosing cards of the draw pile by what they are.
    refused("cards = { from = \"hand\", count = \"1\",", "cards = { from = \"draw\", count = \"1\",", "cards it chooses from");
    // What the seat sees is accepted: its own hand, the pile's top, any zone's size, and
    // every seat's hand size.
    let fine = text.replacen(
        "if = \"count(hand, card.color == top(pile).color or card.shape == top(pile).shape) == 0 and size(draw)",
        "if = \"count(hand, card.color == top(pile).color or card.shape == top(pile).shape) == 0 and sum_seats(size(hand)) > 0 and size(draw)",
        1,
    );
    let v = Variant::from_toml_str(Path::new("cm.toml"), &fine).expect("toml");
    assert!(RulesGame::from_variant(&v).is_ok());
}

#[test]
fn penny_badger_as_a_rules_file_plays_like_the_built_in_game_without_action_cards() {
    compare("variants/penny-badger/standard.toml", "examples/rules/penny-badger.toml", &["deck.action_sets=0"]);
    compare(
        "variants/penny-badger/standard.toml",
        "examples/rules/penny-badger.toml",
        &["deck.action_sets=0", "players=3", "hand_size=4", "payout.3.withdrawal=12", "payout.wild.bluffer_penalty=savings"],
    );
    compare(
        "variants/penny-badger/standard.toml",
        "examples/rules/penny-badger.toml",
        &["deck.action_sets=0", "players=6", "hand_size=3", "payout.2.penalty=5", "payout.3.withdrawal=bank", "starting_savings=12"],
    );
    // A ninth payout row: claims of 9 cards become legal.
    compare(
        "variants/penny-badger/standard.toml",
        "examples/rules/penny-badger.toml",
        &["deck.action_sets=0", "players=3", "hand_size=9", "payout.9.withdrawal=all", "payout.9.penalty=150"],
    );
}

/// At a person's table (`playtest play`) a claim reads as the cards it discards and the
/// claim's color and shape by name, and the file's working values (`shown = false`) are not
/// listed: a search bot's samples keep the seat's own hand in place, so a choice of hand
/// positions names the same cards in every sample.
#[test]
fn a_claim_at_the_table_names_its_cards_and_its_color_and_shape() {
    use crate::engine::{EventLog, GameRng, SeedFrom, ToMove};
    let game = RulesGame::from_variant(&load("examples/rules/penny-badger.toml", &[])).expect("compiles");
    let mut rng = GameRng::seed_from(5);
    let state = game.deal(&mut rng, &mut EventLog::new(false));
    let ToMove::Seat(seat) = game.to_move(&state) else { panic!("a seat moves first") };
    let mut legal = Vec::new();
    game.legal_actions(&game.view(&state, seat), &mut legal);
    let claim = *legal.iter().rev().find(|a| game.program().actions[a.action as usize].name == "claim_set").expect("a set claim is legal");
    let words = crate::sim::words::action_words(&game, &state, seat, claim).expect("the claim is said");
    assert!(!words.contains('?'), "every word of the seat's own claim is known: {words}");
    let colors = ["red", "orange", "yellow", "green", "blue"];
    let claimed = words.split(" face down as ").nth(1).unwrap_or("");
    assert!(claimed.split(' ').nth(1).is_some_and(|w| colors.contains(&w)), "the claim names its color: {words}");
    assert!(words.starts_with("discard ") && !words.contains("discard a card"), "the seat reads its own cards: {words}");
    let table = game.table_words(&state).expect("a table");
    let facts = format!("{:?} {:?}", table.facts, table.seat_facts);
    assert!(facts.contains("savings 20") && facts.contains("vault: 100"), "{facts}");
    assert!(!facts.contains("odd") && !facts.contains("truthful"), "working values are not listed: {facts}");
}

/// At a person's table a file whose deck is dice only calls its zones' pieces dice (the page
/// says "5 dice hidden" of another cup, not "5 cards face down"); a file of cards keeps cards.
#[test]
fn a_dice_only_file_says_its_zones_hold_dice() {
    use crate::engine::words::Pieces;
    use crate::engine::{EventLog, GameRng, SeedFrom};
    for (file, pieces) in [("examples/rules/liars-dice.toml", Pieces::Dice), ("examples/rules/penny-badger.toml", Pieces::Cards)] {
        let game = RulesGame::from_variant(&load(file, &[])).expect("compiles");
        let state = game.deal(&mut GameRng::seed_from(5), &mut EventLog::new(false));
        let table = game.table_words(&state).expect("a table");
        let zones: Vec<_> = table.zones.iter().chain(&table.seat_zones).collect();
        assert!(!zones.is_empty() && zones.iter().all(|z| z.pieces == pieces), "{file}: {zones:?}");
    }
}

/// Color Clash's action cards do what its file writes, checked at two seats (where the next
/// seat is always the other one): after a skip or an add_two_cards the player who played it
/// moves again, and an add_two_cards gives the other player two cards; after a reverse or any
/// other card the other player moves.
#[test]
fn color_clash_action_cards_skip_reverse_and_give_two() {
    use crate::engine::{EventLog, GameRng, SeedFrom, ToMove};
    let game = RulesGame::from_variant(&load("examples/rules/color-clash.toml", &["players=2"])).expect("compiles");
    let b = &game.bound;
    let zone = |name: &str| b.program.zones.iter().find(|z| z.name == name).expect("a zone").first as usize;
    let (pile, hand) = (zone("pile"), zone("hand"));
    let action = b.program.attrs.iter().position(|a| a.name == "action").expect("the kit's action attribute");
    let values = &b.program.attrs[action].values;
    let named = |c: u16| values[b.attrs[c as usize][action] as usize].as_str();
    let mut seen = [0u32; 3];
    let mut legal = Vec::new();
    for seed in 0..300 {
        let mut rng = GameRng::seed_from(seed);
        let mut st = game.deal(&mut rng, &mut EventLog::new(false));
        while let ToMove::Seat(seat) = game.to_move(&st) {
            legal.clear();
            game.legal_actions(&game.view(&st, seat), &mut legal);
            let choice = legal[crate::engine::rng::below(legal.len() as u32, &mut rng) as usize];
            let (pile_before, other_before) = (st.zones[pile].len(), st.zones[hand + 1 - seat].len());
            game.apply(&mut st, seat, choice, &mut rng, &mut EventLog::new(false));
            let played = st.zones[pile].len() == pile_before + 1 && game.program().actions[choice.action as usize].name == "play";
            let card = if played { named(*st.zones[pile].last().expect("a top card")) } else { "" };
            let ToMove::Seat(next) = game.to_move(&st) else { break };
            match card {
                "skip" => {
                    seen[0] += 1;
                    assert_eq!(next, seat, "seed {seed}: a skip gives the player who played it another turn");
                }
                "add_two_cards" => {
                    seen[1] += 1;
                    assert_eq!(next, seat, "seed {seed}: add_two_cards skips the other player");
                    assert_eq!(st.zones[hand + 1 - seat].len(), other_before + 2, "seed {seed}: the other player draws two");
                }
                _ => {
                    seen[2] += u32::from(card == "reverse");
                    assert_eq!(next, 1 - seat, "seed {seed}: after {card:?} the other player moves");
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 50), "each action card was played often enough to check: {seen:?}");
}

/// An integer-or-word parameter takes a number in its range or one of its words (read below
/// the range); anything else is refused with the key and what is allowed.
#[test]
fn an_integer_or_word_parameter_takes_a_number_or_a_word() {
    let game = |sets: &[&str]| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Variant::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rules/penny-badger.toml"), &sets).and_then(|v| RulesGame::from_variant(&v))
    };
    let p = |g: &RulesGame, key: &str| g.bound.params[g.program().params.iter().position(|d| d.key == key).expect("declared")];
    let standard = game(&[]).expect("plays");
    assert_eq!(p(&standard, "payout.8.withdrawal"), -1, "the default word `bank` reads as -1");
    assert_eq!(p(&standard, "payout.7.withdrawal"), 128);
    let set = game(&["payout.2.withdrawal=bank", "payout.8.withdrawal=40"]).expect("plays");
    assert_eq!((p(&set, "payout.2.withdrawal"), p(&set, "payout.8.withdrawal")), (-1, 40));
    let err = game(&["payout.2.withdrawal=bnk"]).err().expect("refused").to_string();
    assert!(err.contains("payout.2.withdrawal") && err.contains("did you mean `bank`"), "{err}");
    let err = game(&["payout.2.withdrawal=-1"]).err().expect("refused").to_string();
    assert!(err.contains("out of range"), "{err}");
}

/// The trick recipe on the rules-language page is the bundled file's own text, and the file
/// plays it: a follower holding the led suit is offered only cards of that suit, and each of
/// the 13 tricks is taken once.
#[test]
fn plain_tricks_follows_suit_and_the_recipe_is_the_files_text() {
    use crate::engine::{EventLog, GameRng, SeedFrom, ToMove, rng};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/rules-language.md")).expect("reads");
    let file = std::fs::read_to_string(root.join("examples/rules/plain-tricks.toml")).expect("reads");
    let recipe = &page[page.find("## Recipe: a trick").expect("the recipe")..];
    let block = recipe.split("```\n").nth(1).expect("a block");
    assert!(file.contains(block), "the page's recipe differs from examples/rules/plain-tricks.toml:\n{block}");

    let game = RulesGame::from_variant(&load("examples/rules/plain-tricks.toml", &[])).expect("compiles");
    let b = &game.bound;
    let p = b.p();
    let counter = |name: &str| p.counters.iter().find(|c| c.name == name).expect("counter").first as usize;
    let (led, tricks) = (counter("led"), counter("tricks"));
    let hand = p.zones.iter().find(|z| z.name == "hand").expect("hand").first as usize;
    let suit_attr = p.attrs.iter().position(|a| a.name == "suit").expect("suit");
    let suit = |c: u16| i64::from(b.attrs[c as usize][suit_attr]);
    let mut follows = 0;
    for g in 0..200u64 {
        let mut rng = GameRng::seed_from(g);
        let mut st = game.deal(&mut rng, &mut EventLog::new(false));
        let mut legal = Vec::new();
        while let ToMove::Seat(seat) = game.to_move(&st) {
            legal.clear();
            game.legal_actions(&game.view(&st, seat), &mut legal);
            let cards = &st.zones[hand + seat];
            let holds_led = st.counters[led] >= 0 && cards.iter().any(|&c| suit(c) == st.counters[led]);
            if holds_led {
                follows += 1;
                for a in &legal {
                    let picked: Vec<u16> = (0..cards.len()).filter(|i| a.cards & (1 << i) != 0).map(|i| cards[i]).collect();
                    assert!(
                        picked.iter().all(|&c| suit(c) == st.counters[led]),
                        "game {g}: seat {seat} may play off suit while holding the led suit: led {} hand {cards:?} suits {:?} choice {a:?} legal {legal:?}",
                        st.counters[led],
                        cards.iter().map(|&c| suit(c)).collect::<Vec<_>>()
                    );
                }
            }
            let pick = legal[rng::below(legal.len() as u32, &mut rng) as usize];
            game.apply(&mut st, seat, pick, &mut rng, &mut EventLog::new(false));
        }
        let taken: i64 = (0..4).map(|s| st.counters[tricks + s]).sum();
        assert_eq!(taken, 13, "game {g}: every trick is taken once");
    }
    assert!(follows > 1000, "{follows} decisions with the led suit in hand");
}

/// A misspelt attribute in a `say` text (`{colr: ...}`) is named at its place with the
/// nearest name and what is allowed before `:`.
#[test]
fn a_misspelt_attribute_in_a_text_gets_did_you_mean() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/rules/penny-badger.toml")).expect("reads");
    let broken = text.replacen("{color: number / 5}", "{colr: number / 5}", 1);
    assert_ne!(broken, text);
    let v = Variant::from_toml_str(Path::new("pb.toml"), &broken).expect("toml");
    let err = RulesGame::from_variant(&v).err().expect("refused").to_string();
    let line = broken.lines().position(|l| l.contains("{colr:")).expect("there") + 1;
    assert!(err.starts_with(&format!("pb.toml:{line}:")), "{err}");
    assert!(err.contains("did you mean `color`") && err.contains("allowed before `:` in a text: card, seat, color, shape"), "{err}");
}

/// Two rules files loaded in one process each offer their own file's bots and only those:
/// the list is read from the game value, so neither file sees the other's (a compare of two
/// files, tests on parallel threads).
#[test]
fn two_rules_files_in_one_process_each_offer_their_own_bots() {
    let matching = crate::games::handle(&load("examples/rules/color-match.toml", &[])).expect("compiles");
    let tricks = crate::games::handle(&load("examples/rules/plain-tricks.toml", &[])).expect("compiles");
    let names = |h: &dyn crate::games::GameHandle| h.bots().iter().map(|b| b.0).collect::<Vec<_>>();
    assert_eq!(names(&*matching), ["random", "ismcts", "greedy", "matcher"]);
    assert_eq!(names(&*tricks), ["random", "ismcts", "greedy", "high"]);
    let spec = |s: &str| crate::engine::BotSpec::parse(s).expect("a spec");
    assert!(matching.resolve_bot(&spec("matcher")).is_ok());
    assert!(tricks.resolve_bot(&spec("matcher")).is_err(), "plain-tricks must not offer color-match's bot");
    assert!(matching.resolve_bot(&spec("high")).is_err(), "color-match must not offer plain-tricks's bot");
    // Loading a third file changes neither list.
    let _again = crate::games::handle(&load("examples/rules/color-match.toml", &[])).expect("compiles");
    assert_eq!(names(&*tricks), ["random", "ismcts", "greedy", "high"]);
}

/// Checks that a rules file's per-game values agree with an independent simulation's mean and
/// variance over `reference_games` games, within 4 standard errors of the difference.
fn agrees_with_reference(what: &str, xs: Vec<f64>, (reference, reference_var): (f64, f64), reference_games: f64) {
    let (m, var) = mean_var(&xs);
    let z = (m - reference).abs() / (var / xs.len() as f64 + reference_var / reference_games).sqrt();
    assert!(z < 4.0, "{what}: rules file {m:.4}, independent simulation {reference:.4} ({z:.1} standard errors)");
}

/// The mean and variance of a share (a value between 0 and 1 per game) whose mean is `share`:
/// the variance of a yes/no value, an upper bound for shares split by ties.
fn share(share: f64) -> (f64, f64) {
    (share, share * (1.0 - share))
}

/// A simultaneous-bidding game written from the docs alone (secret choices of every seat,
/// then `reveal choices`, then the steps that resolve them) plays the distribution of an
/// independent simulation of the same rules: five seats with 4 to 8 coins bid 0 to all their
/// coins for six prizes, the single highest bid pays and takes the prize, a tie takes nothing.
/// The reference is 1,000,000 games of tests/fixtures/rules/sealed-bids-reference.py, a Python
/// simulation written apart from the engine.
#[test]
fn a_sealed_bid_game_plays_like_an_independent_simulation() {
    const WIN_SHARES: [f64; 5] = [0.1251, 0.1674, 0.2028, 0.2352, 0.2695];
    let v = Variant::from_toml_str(Path::new("sealed-bids.toml"), include_str!("sealed-bids-test.toml")).expect("toml");
    let game = RulesGame::from_variant(&v).expect("compiles");
    let games = sample(&game, 20_000, 17);
    for (s, &w) in WIN_SHARES.iter().enumerate() {
        agrees_with_reference(&format!("seat {s}'s win share"), games.iter().map(|g| g.1[s]).collect(), share(w), 1e6);
    }
    let shared = games.iter().map(|g| f64::from(u8::from(g.1.iter().filter(|&&w| w > 0.0).count() > 1))).collect();
    agrees_with_reference("shared wins", shared, share(0.055983), 1e6);
    assert!(games.iter().all(|g| g.0 == 6.0 && g.2 == "prizes_gone"), "six prizes, six turns");
}

/// A bid-and-challenge game written from the docs alone: each seat holds two cards of faces 1
/// to 6, bids "at least q cards of face f among all hands" above the last bid or challenges it;
/// the challenge turns every hand over and the bidder or the challenger loses. The turn of the
/// challenge, which ends the game with `end game`, counts in the game's length. The reference
/// is 1,000,000 games of tests/fixtures/rules/liars-cards-reference.py.
#[test]
fn a_bid_and_challenge_game_plays_like_an_independent_simulation() {
    const LOSE_SHARES: [f64; 3] = [0.3357, 0.3517, 0.3126];
    let v = Variant::from_toml_str(Path::new("liars-cards.toml"), include_str!("liars-cards-test.toml")).expect("toml");
    let game = RulesGame::from_variant(&v).expect("compiles");
    let games = sample(&game, 20_000, 19);
    agrees_with_reference("mean length", games.iter().map(|g| g.0).collect(), (4.291797, 1.5378399f64.powi(2)), 1e6);
    for (s, &lose) in LOSE_SHARES.iter().enumerate() {
        // The two other seats share the win: a seat's win share is 0 or 1/2.
        let lost = games.iter().map(|g| f64::from(u8::from(g.1[s] == 0.0))).collect();
        agrees_with_reference(&format!("seat {s}'s share of losses"), lost, share(lose), 1e6);
    }
    assert!(games.iter().all(|g| g.2 == "challenged"), "every game ends by a challenge");
}

/// The tutorial's game plays the distribution of an independent simulation of its rules as
/// docs/rules-language.md states them, on its own setting and on three players with seven
/// cards each. The references are 1,000,000 games each of
/// tests/fixtures/rules/color-match-reference.py, a Python simulation written apart from the
/// engine.
#[test]
fn the_tutorials_color_match_plays_like_an_independent_simulation() {
    let check = |sets: &[&str], length: (f64, f64), wins: &[f64], seed: u64| {
        plays_like_reference(("examples/rules/color-match.toml", sets), length, wins, seed, "hand_empty");
    };
    check(&[], (27.4116, 11.0943), &[0.311, 0.2672, 0.2278, 0.194], 23);
    check(&["players=3", "hand_size=7"], (30.4875, 12.1043), &[0.3857, 0.3321, 0.2822], 31);
}

/// Plays 20,000 games of a bundled rules file with `--set` values `sets` and checks them
/// against 1,000,000 games of an independent simulation: the mean length (mean, standard
/// deviation), each seat's win share, and every game ending by `reason`.
fn plays_like_reference((file, sets): (&str, &[&str]), length: (f64, f64), wins: &[f64], seed: u64, reason: &str) {
    let game = RulesGame::from_variant(&load(file, sets)).expect("compiles");
    let games = sample(&game, 20_000, seed);
    agrees_with_reference(&format!("{sets:?}: mean length"), games.iter().map(|g| g.0).collect(), (length.0, length.1 * length.1), 1e6);
    for (s, &w) in wins.iter().enumerate() {
        agrees_with_reference(&format!("{sets:?}: seat {s}'s win share"), games.iter().map(|g| g.1[s]).collect(), share(w), 1e6);
    }
    assert!(games.iter().all(|g| g.2 == reason), "{file} {sets:?}: every game ends by {reason}");
}

/// A game with hidden dice (each seat rolls in a cup only it sees, bids on the faces under every
/// cup, a challenge lifts the cups and the loser gives up a die) plays the distribution of an
/// independent simulation of its rules, on its own setting and on three players with three
/// dice each, ones not wild. The references are 1,000,000 games each of
/// tests/fixtures/rules/liars-dice-reference.py, a Python simulation written apart from the
/// engine.
#[test]
fn a_hidden_dice_game_plays_like_an_independent_simulation() {
    let check = |sets: &[&str], length: (f64, f64), wins: &[f64], seed: u64| {
        plays_like_reference(("examples/rules/liars-dice.toml", sets), length, wins, seed, "last_standing");
    };
    check(&[], LIARS_DICE_STANDARD.0, &LIARS_DICE_STANDARD.1, 37);
    check(&["players=3", "dice=3", "ones_wild=false"], LIARS_DICE_SMALL.0, &LIARS_DICE_SMALL.1, 41);
}

/// What a seat knows of dice: its own cup's faces stay in every sampled state; every other
/// cup keeps its number of dice, and their faces are rolled again, fairly (each face about a
/// sixth of the time over many samples); once the cups are lifted (`reveal`), every face is
/// known until the dice are rolled again.
#[test]
fn a_seat_knows_its_own_dice_and_samples_the_others_fairly() {
    use crate::engine::{EventLog, GameRng, HiddenInfo, SeedFrom};
    let game = RulesGame::from_variant(&load("examples/rules/liars-dice.toml", &[])).expect("compiles");
    let b = &game.bound;
    let cup = b.program.zones.iter().find(|z| z.name == "cup").expect("a cup").first as usize;
    let mut rng = GameRng::seed_from(5);
    let st = game.deal(&mut rng, &mut EventLog::new(false));
    let face = |c: u16| b.attrs[c as usize][0] as usize;
    let mut counts = [0u32; 6];
    let mut differs = 0;
    let mut out = st.clone();
    for _ in 0..3000 {
        game.determinize(&st, 0, &mut rng, &mut out);
        game.check_invariants(&out).expect("a sampled state keeps every die once");
        assert_eq!(out.zones[cup], st.zones[cup], "seat 0's own dice stay as they are");
        for s in 1..4 {
            assert_eq!(out.zones[cup + s].len(), st.zones[cup + s].len(), "every cup keeps its number of dice");
            for (i, &c) in out.zones[cup + s].iter().enumerate() {
                counts[face(c)] += 1;
                differs += usize::from(face(c) != face(st.zones[cup + s][i]));
            }
        }
    }
    let n = f64::from(counts.iter().sum::<u32>());
    for (f, &k) in counts.iter().enumerate() {
        let z = (f64::from(k) - n / 6.0).abs() / (n * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
        assert!(z < 5.0, "face {} shows {k} times in {n} sampled dice ({z:.1} standard errors from a fair die)", f + 1);
    }
    assert!(differs as f64 > n * 0.7, "the other seats' faces are drawn again ({differs} of {n} differ)");
    // After a challenge lifted the cups, the next sample keeps every face that was shown until
    // the dice are rolled again: here, right after the reveal step, before the roll.
    let mut lifted = st.clone();
    for s in 0..4 {
        for &c in &st.zones[cup + s] {
            lifted.know_zone[c as usize] = 0b1111;
            lifted.know_pos[c as usize] = 0b1111;
        }
    }
    game.determinize(&lifted, 0, &mut rng, &mut out);
    assert_eq!(out.zones, lifted.zones, "faces every seat saw are kept");
}

/// `roll chosen` rolls only the dice the action chose, and the chosen cards are then the rolled
/// dice (a later `move chosen` moves them): a game that rerolls some of its dice and sets them
/// aside keeps every die once, with the others unchanged.
#[test]
fn rolling_the_chosen_dice_rolls_only_those() {
    use crate::engine::{EventLog, GameRng, SeedFrom, ToMove, rng};
    const FILE: &str = r#"
rules_language = 1
game = "reroll"
title = "Reroll"
setup = ["deal 5 from tray to cup", { each = "seat", do = ["roll cup"] }]
[parameters]
players = { default = 2, min = 2, max = 2, meaning = "Players." }
[cards.attributes]
face = { from = 1, to = 6 }
[[cards.group]]
face = "all"
die = "face"
copies = 10
zone = "tray"
[zones]
tray = { see = "everyone" }
cup = { per = "seat", see = "owner" }
kept = { per = "seat", see = "everyone" }
[counters]
rolls = { per = "seat" }
[turn]
steps = [{ choose = ["reroll", "keep"] }]
[actions.reroll]
cards = { from = "cup", count = "1..size(cup)" }
if = "rolls < 2"
do = ["roll chosen", "rolls += 1", "move chosen to kept"]
[actions.keep]
if = "size(cup) > 0"
do = ["move all from cup to kept"]
[end]
when = [{ if = "every(size(cup) == 0)", reason = "done" }]
cap = 100
winners = [{ most = "sum(kept, card.face)" }]
"#;
    let v = Variant::from_toml_str(Path::new("reroll.toml"), FILE).expect("toml");
    let game = RulesGame::from_variant(&v).expect("compiles");
    let b = &game.bound;
    let cup = b.program.zones.iter().find(|z| z.name == "cup").expect("a cup").first as usize;
    let kept = b.program.zones.iter().find(|z| z.name == "kept").expect("kept").first as usize;
    let mut rolled_faces = [0u32; 6];
    for g in 0..400u64 {
        let mut rng = GameRng::seed_from(g);
        let mut st = game.deal(&mut rng, &mut EventLog::new(false));
        let mut legal = Vec::new();
        while let ToMove::Seat(seat) = game.to_move(&st) {
            legal.clear();
            game.legal_actions(&game.view(&st, seat), &mut legal);
            let pick = legal[rng::below(legal.len() as u32, &mut rng) as usize];
            let before = st.zones[cup + seat].clone();
            let kept_before = st.zones[kept + seat].len();
            game.apply(&mut st, seat, pick, &mut rng, &mut EventLog::new(false));
            game.check_invariants(&st).expect("every die once");
            if pick.cards != 0 {
                let stayed: Vec<u16> = before.iter().enumerate().filter(|(i, _)| pick.cards & (1 << i) == 0).map(|(_, &c)| c).collect();
                assert_eq!(st.zones[cup + seat], stayed, "dice not chosen keep their faces and places");
                let moved = &st.zones[kept + seat][kept_before..];
                let chosen: Vec<u16> = before.iter().enumerate().filter(|(i, _)| pick.cards & (1 << i) != 0).map(|(_, &c)| c).collect();
                assert_eq!(moved.len(), chosen.len(), "the rolled dice are the ones moved");
                for (&m, &c) in moved.iter().zip(&chosen) {
                    assert_eq!(b.dice[m as usize].0, b.dice[c as usize].0, "the same die, showing its new face");
                    rolled_faces[b.attrs[m as usize][0] as usize] += 1;
                }
            }
        }
    }
    let n = f64::from(rolled_faces.iter().sum::<u32>());
    assert!(n > 1000.0, "{n} dice rolled");
    for &k in &rolled_faces {
        assert!((f64::from(k) - n / 6.0).abs() < 5.0 * (n * 5.0 / 36.0).sqrt(), "rolled faces {rolled_faces:?}");
    }
}

/// `python3 tests/fixtures/rules/liars-dice-reference.py 1000000 4 5 1 7`: (mean length, its
/// standard deviation) and each seat's win share.
const LIARS_DICE_STANDARD: ((f64, f64), [f64; 4]) = ((85.9711, 8.1151), [0.2513, 0.2497, 0.2482, 0.2508]);
/// `python3 tests/fixtures/rules/liars-dice-reference.py 1000000 3 3 0 7`.
const LIARS_DICE_SMALL: ((f64, f64), [f64; 3]) = ((30.7049, 4.8265), [0.3323, 0.331, 0.3366]);

/// The Chroma Cards kit by name: a deck of `set = "base"`, `"colors"`, `"shapes"` and
/// `"actions"` holds the kit's 45 cards (Deck A), named as the built-in games name them, and
/// the match rule docs/rules-language.md gives (`card.color == C or card.color == color.any`,
/// the same for shapes) agrees with the built-in games' for every card and claimed cell.
#[test]
fn the_chroma_kit_by_name_is_the_built_in_deck_and_matches_as_it_does() {
    use crate::engine::{EventLog, GameRng, SeedFrom};
    use crate::games::chroma::{COLORS, SHAPES};
    let mut text = String::from(
        r#"
rules_language = 1
game = "kit-test"
title = "Kit test"
setup = []
[parameters]
players = { default = 2, min = 2, max = 2, meaning = "Players." }
[cards]
kit = "chroma"
[[cards.group]]
set = "base"
[[cards.group]]
set = "colors"
[[cards.group]]
set = "shapes"
[[cards.group]]
set = "actions"
zone = "draw"
[zones]
draw = { see = "nobody" }
[turn]
steps = [{ choose = ["pass"] }]
[actions.pass]
say = "passes"
[end]
cap = 1
winners = [{ all = "true" }]
"#,
    );
    for c in COLORS {
        for s in SHAPES {
            text.push_str(&format!(
                "[figures.{c}_{s}]\nvalue = \"count(draw, (card.color == color.{c} or card.color == color.any) and (card.shape == shape.{s} or card.shape == shape.any))\"\nmeaning = \"x\"\n"
            ));
        }
    }
    let v = Variant::from_toml_str(Path::new("kit.toml"), &text).expect("toml");
    let game = RulesGame::from_variant(&v).unwrap_or_else(|e| panic!("{e}"));
    let b = &game.bound;
    let mut names: Vec<String> = (0..b.attrs.len() as u16).map(|c| b.card_name(c)).collect();
    let mut built_in: Vec<String> = (0..45).map(crate::games::chroma::card_name).collect();
    names.sort();
    built_in.sort();
    assert_eq!(names, built_in, "the kit's four sets are Deck A");
    let st = game.deal(&mut GameRng::seed_from(1), &mut EventLog::new(false));
    for (i, f) in b.program.figures.iter().enumerate() {
        let super::program::FigureKind::Value(e) = &f.kind else { panic!("a value") };
        let mut binds = super::machine::BINDS_FRESH;
        let counted = b.eval(e, &st, &mut binds);
        let expected = (0..45u8).filter(|&card| crate::games::chroma::matches(card, i as u8)).count() as i64;
        assert_eq!(counted, expected, "cards matching {} (the built-in rule: {expected})", f.name);
    }
}
