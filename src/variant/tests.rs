//! Bad variants and their messages: every rejection names the file, line:column, key and
//! what is allowed. Files are written to a temporary folder so `extends` is exercised.

use std::path::{Path, PathBuf};

use super::*;
use crate::games::Registered;
use crate::games::penny_badger::PennyBadger;

const STANDARD: &str = include_str!("../../variants/penny-badger/standard.toml");

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("playtest-variant-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("standard.toml"), STANDARD).unwrap();
        Dir(d)
    }
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The error text of loading `text` (extending standard.toml) and building the game.
fn error_of(name: &str, text: &str, sets: &[&str]) -> String {
    let dir = Dir::new(name);
    let path = dir.file("v.toml", text);
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    match Variant::load(&path, &sets) {
        Err(e) => e.to_string(),
        Ok(v) => match PennyBadger::from_variant(&v) {
            Err(e) => e.to_string(),
            Ok(g) => match crate::games::seat_plans(&g, &v, None, "basic") {
                Err(e) => e.to_string(),
                Ok(_) => panic!("expected {name} to be rejected"),
            },
        },
    }
}

fn has(msg: &str, parts: &[&str]) {
    for p in parts {
        assert!(msg.contains(p), "message {msg:?} lacks {p:?}");
    }
}

#[test]
fn the_standard_variant_loads_with_every_key() {
    let dir = Dir::new("ok");
    let v = Variant::load(&dir.0.join("standard.toml"), &[]).unwrap();
    assert_eq!((v.game.as_str(), v.name.as_str()), ("penny-badger", "standard"));
    let g = PennyBadger::from_variant(&v).unwrap();
    assert_eq!((g.params.players, g.params.bank, g.deck.len()), (4, 100, 90));
}

#[test]
fn extends_inherits_and_overrides() {
    let dir = Dir::new("extends");
    let p = dir.file("v.toml", "extends = \"standard.toml\"\nname = \"rich\"\nbank = 300\n[deck]\naction_sets = 0\n");
    let v = Variant::load(&p, &[]).unwrap();
    let g = PennyBadger::from_variant(&v).unwrap();
    assert_eq!((g.params.bank, g.params.starting_savings, g.deck.len()), (300, 20, 74));
    assert_eq!(v.name, "rich");
}

#[test]
fn set_overrides_any_key_including_dotted_ones() {
    let dir = Dir::new("set");
    let sets = vec!["deck.action_sets=0".to_string(), "payout.3.withdrawal=9".to_string(), "players=3".to_string()];
    let v = Variant::load(&dir.0.join("standard.toml"), &sets).unwrap();
    let g = PennyBadger::from_variant(&v).unwrap();
    assert_eq!((g.deck.len(), g.payout.withdrawal[3], g.params.players), (74, params_amount(9), 3));
}

fn params_amount(n: u32) -> crate::games::penny_badger::Amount {
    crate::games::penny_badger::Amount::Pennies(n)
}

#[test]
fn unknown_keys_are_named_with_their_place_and_the_allowed_keys() {
    let m = error_of("unknown", "extends = \"standard.toml\"\n\nbankk = 3\n", &[]);
    has(&m, &["v.toml:3:1", "`bankk`", "allowed:", "`bank`"]);
    let m = error_of("unknown-deck", "extends = \"standard.toml\"\n[deck]\nwilds = 2\n", &[]);
    has(&m, &["v.toml:3:1", "deck.wilds", "base_sets"]);
}

#[test]
fn wrong_types_say_what_was_expected() {
    let m = error_of("type", "extends = \"standard.toml\"\nplayers = \"four\"\n", &[]);
    has(&m, &["v.toml:2:1", "`players`", "expected a whole number"]);
}

#[test]
fn too_few_players_are_rejected() {
    for n in [0, 1] {
        let m = error_of("players", &format!("extends = \"standard.toml\"\nplayers = {n}\n"), &[]);
        has(&m, &["v.toml:2:1", "`players`", "allowed: 2 to 8"]);
    }
}

#[test]
fn a_deck_too_small_to_deal_is_rejected() {
    let m = error_of(
        "deck",
        "extends = \"standard.toml\"\nplayers = 8\nhand_size = 10\n[deck]\nbase_sets = 1\ncolors_sets = 0\nshapes_sets = 0\naction_sets = 0\n",
        &[],
    );
    has(&m, &["`deck`", "25 cards", "80"]);
}

#[test]
fn negative_amounts_are_rejected() {
    let m = error_of("negative", "extends = \"standard.toml\"\nbank = -5\n", &[]);
    has(&m, &["v.toml:2:1", "`bank`", "-5 is negative"]);
    let m = error_of("negative-payout", "extends = \"standard.toml\"\n[payout.3]\nwithdrawal = -8\npenalty = 4\n", &[]);
    has(&m, &["payout.3.withdrawal", "-8"]);
}

#[test]
fn a_payout_table_with_a_gap_is_rejected() {
    let text = STANDARD.replace("[payout.4]\nwithdrawal = 16\npenalty = 8\n", "");
    let m = error_of("gap", &text, &[]);
    has(&m, &["payout.5", "gap", "row 4 is missing"]);
}

#[test]
fn unknown_bots_and_parameters_list_what_is_allowed() {
    let m = error_of("bot", "extends = \"standard.toml\"\nbots = \"clever\"\n", &[]);
    has(&m, &["v.toml:2:1", "`bots`", "unknown bot `clever`", "basic", "counter", "random"]);
    let m = error_of("param", "extends = \"standard.toml\"\nbots = \"basic:bluf=0.3\"\n", &[]);
    has(&m, &["no parameter `bluf`", "bluff", "challenge"]);
    let m = error_of("seats", "extends = \"standard.toml\"\nbots = []\n[[seats]]\nbot = \"basic\"\nbluff = 2\n", &[]);
    has(&m, &["`seats`"]);
}

#[test]
fn seat_tables_carry_bot_parameters() {
    let dir = Dir::new("seat-tables");
    let text = STANDARD.replace("bots = \"basic:bluff=0.2:challenge=0.2\"\n", "")
        + "\n[[seats]]\nbot = \"basic\"\nbluff = 0.3\n[[seats]]\nbot = \"honest\"\n[[seats]]\nbot = \"random\"\n[[seats]]\nbot = \"counter\"\n";
    let p = dir.file("seats.toml", &text);
    let v = Variant::load(&p, &[]).unwrap();
    let g = PennyBadger::from_variant(&v).unwrap();
    let plans = crate::games::seat_plans(&g, &v, None, "basic").unwrap();
    let labels: Vec<&str> = plans.iter().map(|p| p.label.as_str()).collect();
    assert_eq!(labels, ["basic:bluff=0.3", "honest", "random", "counter"]);
    assert_eq!(plans[0].values, vec![0.3, 0.0]);
    let text = text.replace("bluff = 0.3", "bluff = 3");
    let p = dir.file("bad-seat.toml", &text);
    let v = Variant::load(&p, &[]).unwrap();
    let e = crate::games::seat_plans(&g, &v, None, "basic").err().unwrap().to_string();
    has(&e, &["seats.0.bot", "out of range", "0 to 1"]);
}

#[test]
fn an_extends_cycle_is_rejected() {
    let dir = Dir::new("cycle");
    dir.file("a.toml", "extends = \"b.toml\"\n");
    let b = dir.file("b.toml", "extends = \"a.toml\"\n");
    let e = Variant::load(&b, &[]).unwrap_err().to_string();
    has(&e, &["cycle", "a.toml", "b.toml"]);
}

#[test]
fn syntax_errors_name_line_and_column() {
    let e = Variant::from_toml_str(Path::new("broken.toml"), "game = \"penny-badger\"\nplayers = = 4\n").unwrap_err().to_string();
    has(&e, &["broken.toml:2:", "not valid TOML"]);
}

#[test]
fn unknown_games_list_the_games() {
    let v = Variant::from_toml_str(Path::new("x.toml"), "game = \"chess\"\n").unwrap();
    let e = crate::games::handle(&v).err().expect("an unknown game is refused").to_string();
    has(&e, &["x.toml:1:1", "unknown game `chess`", "penny-badger"]);
}

#[test]
fn set_flags_are_located_on_the_command_line() {
    let m = error_of("set", "extends = \"standard.toml\"\n", &["players=1"]);
    has(&m, &["--set players=1", "allowed: 2 to 8"]);
    let dir = Dir::new("set-bad");
    let e = Variant::load(&dir.0.join("standard.toml"), &["players".to_string()]).unwrap_err().to_string();
    has(&e, &["--set players", "KEY=VALUE"]);
}
