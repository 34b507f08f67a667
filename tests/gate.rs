//! Tests of the built binary for issue 38's honest verdicts: one interval per number (width
//! at 0% and 100%, block intervals under rotation), games with no winner in the fair share,
//! `check` as a gate (held / undecided / failed, `--strict`, one-sided bounds at a share's
//! edge, units), and `validate` reporting what `check` would refuse.

use std::path::PathBuf;
use std::process::{Command, Output};

fn playtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").output().expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = playtest(args);
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// A variant extending a bundled one, in a scratch folder: its path.
fn copy_of(name: &str, base: &str, body: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("playtest-gate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(base);
    let path = d.join("v.toml");
    std::fs::write(&path, format!("extends = \"{}\"\nname = \"{name}\"\n{body}", base.display())).unwrap();
    path
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

#[test]
fn games_with_no_winner_lower_the_fair_share_of_the_first_player_figure() {
    let args = ["simulate", "variants/rainbow-rush/standard.toml", "--bots", "random", "--games", "200", "--threads", "1"];
    let v = json(&[&args[..], &["--json"]].concat());
    let seats = v["seats"].as_array().unwrap();
    let shares: Vec<f64> = seats.iter().map(|s| f(&s["win_share"])).collect();
    let won: f64 = shares.iter().sum();
    assert!(won < 0.9, "most random games end at the cap: {won}");
    let fpa = &v["first_player_advantage"];
    // Seat 0 against the seats' mean, not against 25%.
    assert!((f(&fpa["value"]) - (shares[0] - won / shares.len() as f64)).abs() < 1e-12, "{fpa}");
    assert!(f(&fpa["value"]).abs() < 0.06, "{fpa}");
    assert!(f(&fpa["ci95"][0]) < f(&fpa["value"]) && f(&fpa["value"]) < f(&fpa["ci95"][1]), "{fpa}");
    let table = text(&playtest(&args));
    assert!(table.contains("had no winner: the fair share is the seats' mean win share"), "{table}");
    assert!(table.contains("warning:") && table.contains("ended at the cap"), "{table}");
}

#[test]
fn a_run_that_always_reaches_the_cap_says_so() {
    let o = playtest(&["simulate", "variants/take-a-penny/standard.toml", "--bots", "greedy", "--games", "100", "--threads", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("warning: 100.0% of games ended at the cap"), "{t}");
}

#[test]
fn a_rotated_run_has_one_block_interval_per_number() {
    let v = json(&["simulate", "variants/dice-factor/gambler-vs-collectors.toml", "--rotate", "--games", "400", "--threads", "1", "--json"]);
    let seat0 = &v["seats"][0];
    let rotated = &v["rotation"]["seats"][0];
    assert_eq!(seat0["ci95"], rotated["ci95"], "the seat table uses the block interval");
    let fpa = &v["first_player_advantage"];
    let fair = 1.0 / v["seats"].as_array().unwrap().len() as f64;
    for i in 0..2 {
        assert!((f(&fpa["ci95"][i]) - (f(&seat0["ci95"][i]) - fair)).abs() < 1e-12, "{fpa} vs {seat0}");
    }
    assert!(f(&v["rotation"]["design_effect"]) > 0.0);
}

#[test]
fn check_counts_undecided_bounds_and_strict_fails_on_them() {
    let v = copy_of("undecided", "variants/pig-farm/standard.toml", "[expect]\nfirst_player_advantage = [-0.01, 0.01]\nmean_length = [1, 10000]\n");
    let path = v.to_str().unwrap();
    let o = playtest(&["check", path, "--games", "300", "--threads", "1"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    // Two bounds of the copy and two inherited from the standard variant.
    assert!(t.contains("4 bound(s): 3 held, 1 undecided, 0 failed"), "{t}");
    let o = playtest(&["check", path, "--games", "300", "--threads", "1", "--strict"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("--strict"), "{}", text(&o));
}

#[test]
fn a_bound_at_a_shares_edge_is_decided_by_the_one_sided_bound() {
    // The standard Pig Farm never reaches its cap: [0, 0] holds, and says how sure it is.
    let o = playtest(&["check", "variants/pig-farm/standard.toml", "--games", "300", "--threads", "1"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("ok    cap_share") && t.contains("none in 300 games; below 0.994% at 95%"), "{t}");
    // A game's own share of rounds never seen is judged as a share of the games.
    assert!(t.contains("ok    round_cap_share = 0.00% (0 of 300 games; below 0.994% at 95%"), "{t}");
}

#[test]
fn bounds_in_the_wrong_unit_or_without_an_interval_are_refused_with_the_fix() {
    let v = copy_of(
        "units",
        "variants/pig-farm/standard.toml",
        "[expect]\nfirst_player_advantage = [-1, 1]\ncap_share = [0, 5]\nseat_fairness_p = [0.05, 1]\nmean_length = [20, 10]\nfun = [0, 1]\n",
    );
    let path = v.to_str().unwrap();
    for cmd in ["check", "validate"] {
        let o = playtest(&[cmd, path, "--games", "100"][..if cmd == "check" { 4 } else { 2 }]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {t}");
        assert!(t.contains("can never fail") && t.contains("[-0.01, 0.01]"), "{cmd}: {t}");
        assert!(t.contains("a share is a fraction from 0 to 1: write [0, 0.05]"), "{cmd}: {t}");
        assert!(t.contains("a p-value is not an estimate"), "{cmd}: {t}");
        assert!(t.contains("reversed"), "{cmd}: {t}");
        assert!(t.contains("unknown metric `fun`"), "{cmd}: {t}");
    }
}

#[test]
fn precision_is_checked_against_the_figures_unit_and_interval() {
    let o = playtest(&["simulate", "variants/pig-farm/standard.toml", "--precision", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("a share's precision is a fraction, e.g. 0.005"), "{}", text(&o));
    let o = playtest(&["simulate", "variants/pig-farm/standard.toml", "--precision", "0.01", "--precision-metric", "seat_fairness_p"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("has no interval"), "{}", text(&o));
}

#[test]
fn compare_says_why_an_interval_is_missing() {
    let o = playtest(&["compare", "variants/pig-farm/standard.toml", "variants/pig-farm/standard.toml", "--games", "300", "--threads", "1"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("-: no paired CI for") && t.contains("seat_fairness_p") && t.contains("a p-value has no interval"), "{t}");
}
