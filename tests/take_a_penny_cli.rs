//! Command-line smoke tests of Take a Penny: `simulate --json` schema (rounds, dummy seat,
//! end reasons), `exact --json`, and the refusals (too big, bad set-up) with exit code 2.

use std::process::Command;

fn playtest(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("run playtest");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn simulate_json_has_rounds_a_dummy_seat_and_the_end_reasons() {
    let (code, out, err) = playtest(&["simulate", "variants/take-a-penny/three-players.toml", "--games", "3000", "--json", "--checked"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["length"]["unit"], "rounds");
    assert_eq!(v["players"], 3);
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    assert_eq!(seats[3]["bot"], "dummy");
    let reasons = v["end_reasons"].as_object().unwrap();
    assert!(reasons.contains_key("pot_empty") && reasons.contains_key("cap"));
    // The dummy bank card is no player: the fair share is the three acting seats' mean.
    let share = |s: usize| seats[s]["win_share"].as_f64().unwrap();
    let fair = (share(0) + share(1) + share(2)) / 3.0;
    let fpa = v["first_player_advantage"]["value"].as_f64().unwrap();
    assert!((fpa - (share(0) - fair)).abs() < 1e-12);
    let ci = v["first_player_advantage"]["ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() < fpa && fpa < ci[1].as_f64().unwrap());
}

/// Issue 10's two-player figures: seat 0 and seat 1 differ by well under a point, so the
/// first-player advantage over the acting seats is small and the fairness test does not
/// reject, whatever the dummy bank card wins.
#[test]
fn two_player_fairness_leaves_the_dummy_out() {
    let (code, out, err) = playtest(&["simulate", "variants/take-a-penny/two-players.toml", "--games", "20000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let seats = v["seats"].as_array().unwrap();
    let (s0, s1) = (seats[0]["win_share"].as_f64().unwrap(), seats[1]["win_share"].as_f64().unwrap());
    let fpa = v["first_player_advantage"]["value"].as_f64().unwrap();
    assert!((fpa - (s0 - s1) / 2.0).abs() < 1e-12, "fpa {fpa}, seats {s0} {s1}");
    assert!(fpa.abs() < 0.01, "fpa {fpa}");
    assert!(v["seat_fairness_p"].as_f64().unwrap() > 0.001);
}

#[test]
fn exact_json_on_the_two_player_variant() {
    let (code, out, err) = playtest(&["exact", "variants/take-a-penny/two-players.toml", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let shares: Vec<f64> = v["seats"].as_array().unwrap().iter().map(|s| s["win_share"].as_f64().unwrap()).collect();
    assert_eq!(shares.len(), 3);
    assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert_eq!(v["seats"][2]["bot"], "dummy");
    assert!(v["expected_length"].as_f64().unwrap() > 1.0);
    assert_eq!(v["states"], 27441);
    assert_eq!(v["skill_headroom"].as_array().unwrap().len(), 1);
}

#[test]
fn exact_refuses_the_four_player_variant_with_its_size() {
    let (code, _, err) = playtest(&["exact", "variants/take-a-penny/standard.toml"]);
    assert_eq!(code, 2);
    assert!(err.contains("too big") && err.contains("12533761 states"), "{err}");
}

#[test]
fn impossible_set_ups_exit_2_naming_the_key() {
    let (code, _, err) = playtest(&["simulate", "variants/take-a-penny/standard.toml", "--set", "total_pennies=4", "--games", "10"]);
    assert_eq!(code, 2);
    assert!(err.contains("total_pennies") && err.contains("at least 5"), "{err}");
    let (code, _, err) = playtest(&["simulate", "variants/take-a-penny/standard.toml", "--bots", "best-response", "--games", "10"]);
    assert_eq!(code, 2);
    assert!(err.contains("best-response") && err.contains("too big"), "{err}");
}

#[test]
fn a_round_of_the_text_trace_lists_its_actions_in_the_order_the_rules_resolve_them() {
    let (code, out, err) = playtest(&["trace", "variants/take-a-penny/three-players.toml", "--bots", "greedy,random,random", "--seed", "3", "--game", "2"]);
    assert_eq!(code, 0, "{err}");
    // Round 2: red take2, blue give(green), green take_from(blue); the take_from (step 5)
    // that empties blue resolves before blue's give (step 6), which finds no penny.
    let round: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("-- round 2:")).skip(1).take(3).collect();
    assert_eq!(round, ["  red take2: moved 2", "  green take_from(blue): moved 1", "  blue give(green): not enough pennies: moved 0"], "{out}");
    // Every round: the steps of the resolution never go back.
    let step = |l: &str| ["take1_block", "take2", "return1", "block_self", "take_from", "give"].iter().position(|a| l.split(':').next().unwrap().contains(a));
    let mut last = 0;
    for l in out.lines() {
        if l.starts_with("-- round") {
            last = 0;
        } else if l.starts_with("  ")
            && !l.contains("secretly")
            && !l.contains("after round")
            && let Some(s) = step(l)
        {
            assert!(s >= last, "{l} after a later step: {out}");
            last = s;
        }
    }
}
