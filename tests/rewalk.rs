//! Rows of a new user's re-walk, through the built binary: negative numbers, `list GAME`, a
//! table row that can never be used, `compare` without `--out`, `check --checked`.

use std::process::{Command, Output};

fn playtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").output().expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

const PIG: &str = "variants/pig-farm/standard.toml";

#[test]
fn a_negative_number_for_a_flag_is_a_usage_error_in_words() {
    let o = playtest(&["simulate", PIG, "--seed", "-1"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--seed -1: --seed takes no negative number"), "{err}");
    assert!(!err.contains("-- -1"), "no tip to pass it as a positional: {err}");
    // Other clap errors stay clap's.
    let o = playtest(&["simulate", PIG, "--nonsense"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("unexpected argument '--nonsense'"));
}

#[test]
fn list_game_names_its_figures() {
    let o = playtest(&["list", "pig-farm"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    for name in ["first_player_advantage", "seat0_win_share", "mean_length", "variants/pig-farm/standard.toml", "threshold"] {
        assert!(out.contains(name), "{name}: {out}");
    }
    assert!(!out.contains("bluffing-joker"), "{out}");
    assert!(out.contains("elimination_rate (does not apply to this game)"), "{out}");
    let o = playtest(&["list", "bluffing-joker"]);
    assert!(text(&o).0.contains("seat0_teammate_gap"));
    let o = playtest(&["list", "no-such-game"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("unknown game `no-such-game`; allowed: "));
}

#[test]
fn a_seller_row_below_the_minimum_sets_is_warned_of() {
    let o = playtest(&["validate", PIG, "--set", "scoring.seller.2=10"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("warning: variants/pig-farm/standard.toml: scoring.seller.2 can never be used: min_sets_to_sell = 3"), "{out}");
    let o = playtest(&["validate", PIG]);
    assert!(!text(&o).0.contains("warning"));
    let o = playtest(&["simulate", PIG, "--games", "100", "--set", "scoring.seller.2=10"]);
    assert!(text(&o).1.contains("scoring.seller.2 can never be used"));
}

#[test]
fn compare_without_out_says_how_to_get_the_page() {
    let o = playtest(&["compare", PIG, "--set-b", "hand_size=4", "--games", "200"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("add --out DIR for the page"), "{out}");
}

#[test]
fn check_says_that_checked_changes_nothing() {
    let o = playtest(&["check", PIG, "--games", "100", "--checked"]);
    let (_, err) = text(&o);
    assert!(err.contains("check always checks the invariants"), "{err}");
}
