//! Team games in team terms, through the built binary: the first-player advantage is the
//! first mover's team's, there is no per-seat fairness test, shared wins are wins several
//! teams share, and each seat is compared with its teammates.

use std::process::{Command, Output};

fn playtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").output().expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

const JOKER: &str = "variants/bluffing-joker/standard.toml";

#[test]
fn a_team_game_is_summarised_by_team_in_the_json_and_on_the_terminal() {
    let o = playtest(&["simulate", JOKER, "--games", "120", "--json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let teams = &v["teams"];
    // The first-player advantage is team 0's share against 50%.
    assert_eq!(v["first_player_advantage"], teams["first_team_advantage"]);
    let team0 = teams["teams"][0]["win_share"].as_f64().expect("a share");
    assert!((v["first_player_advantage"]["value"].as_f64().expect("a value") - (team0 - 0.5)).abs() < 1e-12);
    assert!(v["seat_fairness_p"].is_null(), "{}", v["seat_fairness_p"]);
    assert!(v["shared_win_rate"].as_f64().expect("a share") < 1.0);
    let gaps = teams["teammate_gaps"].as_array().expect("a gap per seat");
    assert_eq!(gaps.len(), 4);
    for g in gaps {
        let (value, [lo, hi]) = (g["gap"]["value"].as_f64().unwrap(), [g["gap"]["ci95"][0].as_f64().unwrap(), g["gap"]["ci95"][1].as_f64().unwrap()]);
        assert!(lo <= value && value <= hi, "{g}");
    }
    // Partners' gaps are opposite.
    assert!((gaps[0]["gap"]["value"].as_f64().unwrap() + gaps[1]["gap"]["value"].as_f64().unwrap()).abs() < 1e-9, "{gaps:?}");
    let o = playtest(&["simulate", JOKER, "--games", "120"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("first-player advantage (a team game: team 0 (seats 0 and 2) against a fair 50.0%)"), "{out}");
    assert!(out.contains("team fairness chi-square p") && out.contains("seat against its teammates"), "{out}");
    assert!(!out.contains("seat fairness") && !out.contains("shared wins: 100.0%"), "{out}");
}

#[test]
fn a_rotated_team_game_gives_each_bot_its_teams_share() {
    let o = playtest(&["simulate", JOKER, "--games", "120", "--bots", "honest,bluffer,honest,bluffer", "--rotate", "--json"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let bots = v["rotation"]["bots"].as_array().expect("bots");
    let total: f64 = bots.iter().map(|b| b["win_share"].as_f64().unwrap()).sum();
    // Two teams, one bot each at every deal: the bots' team shares add up to the games won.
    let no_winner = 1.0 - v["teams"]["teams"].as_array().unwrap().iter().map(|t| t["win_share"].as_f64().unwrap()).sum::<f64>();
    assert!((total - (1.0 - no_winner)).abs() < 1e-9, "{bots:?}");
    assert_eq!(v["rotation"]["teams"], true);
    assert!(v["teams"].get("teammate_gaps").is_none(), "a rotated run has no teammate gaps");
}
