//! The search bot, seat rotation and the ladder through the built binary: `ismcts` beats
//! Take a Penny's and Flower Power's best hand-written bots with a short search (its
//! interval above the fair share; the other games' strength runs take minutes and are in
//! the README),
//! a rotated run tells a planted bot effect from the seat order, and `ladder` ranks bots on
//! one scale. (Determinization is checked for every game by the invariant harness.)

use std::process::{Command, Output};

fn playtest(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_playtest")).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("CI", "true").output().expect("the binary runs")
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = playtest(args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).expect("one JSON object")
}

fn bot_share(summary: &serde_json::Value, bot: &str) -> (f64, f64, f64) {
    let b = summary["rotation"]["bots"].as_array().unwrap().iter().find(|b| b["name"] == bot).expect("the bot is listed");
    (b["win_share"].as_f64().unwrap(), b["ci95"][0].as_f64().unwrap(), b["ci95"][1].as_f64().unwrap())
}

#[test]
fn ismcts_beats_three_greedy_take_a_penny_players() {
    let s = json(&[
        "simulate",
        "variants/take-a-penny/standard.toml",
        "--bots",
        "ismcts:iterations=300,greedy,greedy,greedy",
        "--rotate",
        "--games",
        "240",
        "--json",
    ]);
    let (share, low, _) = bot_share(&s, "ismcts:iterations=300");
    assert!(low > 0.25, "ismcts wins {share} (95% CI from {low}), not clearly above the fair 25%");
}

#[test]
fn modelling_the_table_makes_the_search_stronger_in_flower_power() {
    // Flower Power's `ismcts:model=default` plays the opponents with `greedy` (the game's
    // default) and rolls out with it; searched opponents (`opponents=0`) and random rollouts measured weaker.
    let run = |bot: &str| {
        let line_up = format!("{bot},greedy,greedy,greedy");
        let s = json(&["simulate", "variants/flower-power/standard.toml", "--bots", &line_up, "--rotate", "--games", "400", "--json"]);
        bot_share(&s, bot)
    };
    let (modelled, low, _) = run("ismcts:iterations=200:model=default");
    assert!(low > 0.3, "ismcts wins {modelled} (95% CI from {low}) against three greedy players");
    let (searched, _, high) = run("ismcts:iterations=200:model=default:opponents=0:rollout=0");
    assert!(high < low, "searching the opponents ({searched}, CI up to {high}) is not weaker than modelling them ({modelled}, from {low})");
}

#[test]
fn a_search_too_short_to_tell_actions_apart_plays_the_default_bot() {
    // With two iterations the default bot's choice (tried first) and one other action have one
    // visit each: `trust` keeps the bot's choice, so the games are the bot's own, number for
    // number (the bots here draw nothing from their streams).
    for (variant, bot) in [("flower-power", "greedy"), ("dice-factor", "collector"), ("penny-badger", "basic:bluff=0:challenge=0")] {
        let path = format!("variants/{variant}/standard.toml");
        let run = |first: &str| {
            let line_up = format!("{first},{bot},{bot},{bot}");
            let s = json(&["simulate", &path, "--bots", &line_up, "--games", "200", "--json"]);
            let shares: Vec<f64> = s["seats"].as_array().unwrap().iter().map(|seat| seat["win_share"].as_f64().unwrap()).collect();
            (shares, s["length"].to_string())
        };
        assert_eq!(run("ismcts:iterations=2:policy=0:model=default"), run(bot), "{variant}");
    }
}

#[test]
fn rotation_separates_bot_strength_from_seat_order() {
    // counter is far stronger than basic in Penny Badger: rotated, its per-bot share is far
    // above the fair 25% while every seat's share, bots averaged out, stays near 25%.
    let s = json(&["simulate", "variants/penny-badger/standard.toml", "--bots", "counter,basic,basic,basic", "--rotate", "--games", "4000", "--json"]);
    let (counter, low, _) = bot_share(&s, "counter");
    assert!(low > 0.5, "counter wins {counter}");
    let seats = s["rotation"]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 4);
    for seat in seats {
        let v = seat["win_share"].as_f64().unwrap();
        assert!((0.2..0.3).contains(&v), "a seat's share with bots averaged out: {seat}");
    }
    assert_eq!(s["rotation"]["blocks"], 1000);
    // The same line-up without rotation has no rotation figures, and a run that is not whole
    // blocks is refused with a usage error.
    let plain = json(&["simulate", "variants/penny-badger/standard.toml", "--bots", "counter,basic,basic,basic", "--games", "400", "--json"]);
    assert!(plain.get("rotation").is_none());
    let o = playtest(&["simulate", "variants/penny-badger/standard.toml", "--rotate", "--games", "401", "-q"]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn rotated_numbers_do_not_depend_on_threads() {
    let args = |t: &'static str| {
        ["simulate", "variants/pig-farm/standard.toml", "--bots", "threshold,random,random,random", "--rotate", "--games", "2000", "--threads", t, "--json"]
    };
    let mut one = json(&args("1"));
    let mut two = json(&args("2"));
    one["games_per_second"] = 0.into();
    two["games_per_second"] = 0.into();
    assert_eq!(one, two);
}

#[test]
fn ladder_ranks_bots_on_one_scale() {
    let dir = std::env::temp_dir().join(format!("playtest-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.display().to_string();
    let r = json(&["ladder", "variants/penny-badger/standard.toml", "--bots", "basic,counter", "--games", "800", "--out", &out, "--json"]);
    assert_eq!(r["matrix"].as_array().unwrap().len(), 2);
    let levels = r["levels"].as_array().unwrap();
    assert_eq!(levels[0]["rating"]["elo"], 0.0);
    assert!(levels[1]["rating"]["ci95"][0].as_f64().unwrap() > 0.0, "counter is rated above basic: {}", levels[1]);
    assert_eq!(r["strongest"], "counter");
    for f in ["ladder.json", "matrix.csv", "ratings.csv", "ladder_matrix.png", "skill_curve.png"] {
        assert!(dir.join(f).is_file(), "{f} written");
    }
    let o = playtest(&["ladder", "variants/penny-badger/standard.toml", "--bots", "basic"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_and_check_rotate_with_the_variants_rotate_key() {
    // counter-vs-basic.toml sets `rotate = true`: compare pairs blocks and reports the bots'
    // shares wherever they sit; a count that is not whole blocks is a usage error.
    let c = json(&[
        "compare",
        "variants/penny-badger/counter-vs-basic.toml",
        "--bots-b",
        "basic:bluff=0.2:challenge=0.2,basic:bluff=0.2:challenge=0.2,basic:bluff=0.2:challenge=0.2,basic:bluff=0.2:challenge=0.2",
        "--games",
        "800",
        "--json",
    ]);
    assert_eq!(c["rotation_block"], 4);
    let m = c["metrics"].as_array().unwrap().iter().find(|m| m["name"] == "bot1_win_share").expect("bot1_win_share is compared");
    assert!(m["a"].as_f64().unwrap() > 0.5, "the counter wins most games wherever it sits: {m}");
    assert!(m["diff"].as_f64().unwrap() < -0.3, "replaced by a basic bot it falls to about a quarter: {m}");
    let o = playtest(&["check", "variants/penny-badger/counter-vs-basic.toml", "--games", "802", "-q"]);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn ismcts_comes_close_to_the_exact_best_response_in_two_player_take_a_penny() {
    // The exact best response to a random opponent wins 99.95% (`playtest exact
    // variants/take-a-penny/two-players.toml --bots best-response,random`); ismcts, which
    // knows nothing of its opponent, must come within a few points of it.
    let s = json(&["simulate", "variants/take-a-penny/two-players.toml", "--bots", "ismcts:iterations=300,random", "--rotate", "--games", "200", "--json"]);
    let (share, _, high) = bot_share(&s, "ismcts:iterations=300");
    assert!(high > 0.9995 - 0.03, "ismcts wins {share} (95% CI up to {high}) against random; the exact optimum is 99.95%");
}

#[test]
fn report_ladder_adds_the_skill_curve_to_the_report() {
    let dir = std::env::temp_dir().join(format!("playtest-report-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.display().to_string();
    let o = playtest(&[
        "report",
        "variants/take-a-penny/two-players.toml",
        "--games",
        "300",
        "--ladder",
        "random,greedy",
        "--ladder-games",
        "100",
        "--out",
        &out,
        "-q",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["ladder.json", "matrix.csv", "ratings.csv", "ladder_matrix.png", "skill_curve.png", "report.md", "index.html"] {
        assert!(dir.join(f).is_file(), "{f} written");
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("### Skill ladder") && md.contains("| greedy |"), "{md}");
    assert!(md.contains("--ladder random,greedy --ladder-games 100"), "the command reproduces the ladder");
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("<h3>Skill ladder") && html.contains("skill_curve.png"));
    // A ladder of one bot is refused before anything is played or written.
    let bad = dir.join("bad");
    let o = playtest(&["report", "variants/take-a-penny/two-players.toml", "--ladder", "greedy", "--out", &bad.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!bad.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
