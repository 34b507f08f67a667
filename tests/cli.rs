//! Tests of the built binary: the JSON contract, determinism across thread counts, exit
//! codes and messages for bad input, and the files `report` and `--out` write.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn playtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("playtest-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const STANDARD: &str = "variants/penny-badger/standard.toml";

fn json(args: &[&str]) -> serde_json::Value {
    let o = playtest(args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.trim().lines().count(), 1, "exactly one JSON object: {text}");
    serde_json::from_str(text.trim()).expect("valid JSON")
}

#[test]
fn simulate_json_has_the_documented_schema() {
    let v = json(&["simulate", STANDARD, "--games", "2000", "--json"]);
    for key in [
        "game",
        "variant",
        "games",
        "seed",
        "players",
        "bots",
        "length",
        "end_reasons",
        "seats",
        "first_player_advantage",
        "seat_fairness_p",
        "elimination_rate",
        "games_per_second",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["game"], "penny-badger");
    assert_eq!(v["games"], 2000);
    assert_eq!(v["length"]["unit"], "turns");
    for key in ["mean", "sd", "median", "p5", "p95", "min", "max"] {
        assert!(v["length"][key].is_number(), "length.{key}");
    }
    for key in ["bank_empty", "last_standing", "cap"] {
        assert!(v["end_reasons"][key].is_number(), "end_reasons.{key}");
    }
    let seats = v["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    let total: f64 = seats.iter().map(|s| s["win_share"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9, "win shares (ties shared) sum to 1: {total}");
    for s in seats {
        let (lo, hi) = (s["ci95"][0].as_f64().unwrap(), s["ci95"][1].as_f64().unwrap());
        let w = s["win_share"].as_f64().unwrap();
        assert!(lo <= w && w <= hi);
    }
    let fpa = v["first_player_advantage"]["value"].as_f64().unwrap();
    assert!((fpa - (seats[0]["win_share"].as_f64().unwrap() - 0.25)).abs() < 1e-12);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads: &str| {
        let mut v = json(&["simulate", STANDARD, "--games", "3000", "--seed", "9", "--threads", threads, "--json"]);
        v.as_object_mut().unwrap().remove("games_per_second");
        v
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn a_different_seed_gives_different_games() {
    let a = json(&["simulate", STANDARD, "--games", "500", "--seed", "1", "--json"]);
    let b = json(&["simulate", STANDARD, "--games", "500", "--seed", "2", "--json"]);
    assert_ne!(a["length"]["mean"], b["length"]["mean"]);
}

#[test]
fn bots_flag_sets_one_or_every_seat() {
    let v = json(&["simulate", STANDARD, "--games", "200", "--bots", "random", "--json"]);
    assert_eq!(v["bots"], serde_json::json!(["random", "random", "random", "random"]));
    let v = json(&["simulate", STANDARD, "--games", "200", "--bots", "honest,counter,basic:bluff=0.5,random", "--json"]);
    assert_eq!(v["bots"], serde_json::json!(["honest", "counter", "basic:bluff=0.5", "random"]));
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let dir = temp("bad");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, format!("extends = \"{}\"\nplayers = 1\n", Path::new(env!("CARGO_MANIFEST_DIR")).join(STANDARD).display())).unwrap();
    let o = playtest(&["simulate", bad.to_str().unwrap(), "--games", "10"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.toml:2:1") && e.contains("`players`") && e.contains("allowed: 2 to 8"), "{e}");
    assert!(!e.contains("panicked"));

    let o = playtest(&["simulate", STANDARD, "--bots", "wizard"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown bot `wizard`"), "{}", stderr(&o));

    let o = playtest(&["simulate", STANDARD, "--games", "0"]);
    assert_eq!(o.status.code(), Some(2));

    let o = playtest(&["simulate", STANDARD, "--frobnicate"]);
    assert_eq!(o.status.code(), Some(2));

    let o = playtest(&["simulate", "no/such/file.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.toml"));

    let o = playtest(&["simulate", STANDARD, "--set", "deck.base_sets=-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--set deck.base_sets=-1"), "{}", stderr(&o));
}

#[test]
fn every_bundled_variant_validates() {
    let mut files = Vec::new();
    for game in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants")).unwrap() {
        for f in std::fs::read_dir(game.unwrap().path()).unwrap() {
            files.push(f.unwrap().path().to_string_lossy().into_owned());
        }
    }
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let o = playtest(&args);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn trace_prints_a_play_by_play() {
    let o = playtest(&["trace", STANDARD, "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = stdout(&o);
    for part in ["turn 1: seat 0 holds", "claims", "game over"] {
        assert!(t.contains(part), "trace lacks {part:?}");
    }
}

#[test]
fn report_writes_charts_markdown_and_json() {
    let dir = temp("report");
    let o = playtest(&["report", STANDARD, "--games", "1000", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["game_length.png", "seat_win_shares.png", "survival.png", "end_reasons.png", "money_by_turn.png", "claim_sizes.png", "report.md", "summary.json"]
    {
        let p = dir.join(f);
        assert!(p.exists() && std::fs::metadata(&p).unwrap().len() > 1000, "{f} missing or empty");
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("![") && md.contains("playtest report"));
}

#[test]
fn out_writes_one_row_per_game() {
    let dir = temp("rows");
    let o = playtest(&["simulate", STANDARD, "--games", "700", "--out", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    assert_eq!(csv.lines().count(), 701);
    assert!(csv.lines().next().unwrap().starts_with("game,seed,length,end_reason,winners,seat0_bot"));
    assert!(std::fs::metadata(dir.join("games.parquet")).unwrap().len() > 100);
}

#[test]
fn trace_html_says_what_it_wrote() {
    let dir = temp("said");
    let page = dir.join("page.html");
    let page_arg = page.to_str().unwrap();
    let o = playtest(&["trace", "variants/rainbow-rush/builders-vs-saboteurs.toml", "--seed", "2", "--game", "5", "--html", page_arg]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(&format!("wrote {page_arg}: the replay page of game seed ")), "{}", stdout(&o));
    // Beside --json, standard output holds the JSON Lines only; the note goes to standard error.
    let o = playtest(&["trace", "variants/rainbow-rush/builders-vs-saboteurs.toml", "--seed", "2", "--game", "5", "--html", page_arg, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().all(|l| l.starts_with('{')), "{}", stdout(&o));
    assert!(stderr(&o).contains(&format!("wrote {page_arg}")), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}
