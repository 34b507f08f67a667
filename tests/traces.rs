//! JSON traces (`playtest trace --json`) and their replay (`playtest replay`): a trace
//! replays; a hand-edited one is refused at the line it breaks (an illegal action with the
//! rule it breaks, a state, a chance result such as a reshuffle's new order, a missing
//! line); a malformed file names its line and column; the exit codes of the command; a
//! gzip-compressed trace file (`trace --out FILE.jsonl.gz`, `check --traces`) holds exactly
//! the text `trace --json` prints and replays the same, and a cut one is refused. The
//! round trip of every game and bundled variant is in the invariant harness
//! (`tests/harness.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use playtest::Error;
use playtest::cli::{json_trace_of, replay_text};
use playtest::output::trace_file;
use playtest::variant::Variant;
use serde_json::Value;

fn variant(rel: &str) -> Variant {
    Variant::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel), &[]).expect("loads")
}

fn trace(rel: &str, seed: u64) -> Vec<Value> {
    let (text, broken) = json_trace_of(&variant(rel), None, seed).expect("traces");
    assert!(broken.is_none(), "{broken:?}");
    text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

fn text(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn replay(lines: &[Value]) -> Result<String, Error> {
    replay_text(Path::new("t.jsonl"), &text(lines))
}

/// The 1-based line a replay error names, and its message.
fn failing_line(e: Error) -> (usize, String) {
    let Error::CheckFailed(m) = e else { panic!("expected a differing trace, got {e}") };
    let rest = m.strip_prefix("t.jsonl:").expect("names the file");
    let (n, what) = rest.split_once(": ").expect("line: what");
    (n.parse().expect("a line number"), what.to_string())
}

#[test]
fn a_trace_has_its_lines_in_order_and_replays() {
    let lines = trace("variants/pig-farm/standard.toml", 5);
    assert_eq!(lines[0]["type"], "start");
    assert_eq!(lines.last().unwrap()["type"], "end");
    let keys: Vec<&str> = lines[0].as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["type", "game", "variant_name", "variant", "seats", "game_seed", "length_unit", "secrets", "state"]);
    // Cards by the rulebook's names, not indices.
    let hand = &lines[0]["state"]["players"][0]["hand"];
    assert!(hand.as_array().unwrap().iter().all(|c| c.as_str().is_some_and(|s| s.contains(' '))), "{hand}");
    // Every decision lists its legal actions and chooses one of them; a state follows it.
    for (i, l) in lines.iter().enumerate().filter(|(_, l)| l["type"] == "decision") {
        assert!(l["legal"].as_array().unwrap().contains(&l["action"]), "line {}", i + 1);
        let next = lines[i + 1..].iter().find(|n| n["type"] != "chance").unwrap();
        assert_eq!(next["type"], "state");
        // The view hides the other hands and the draw pile.
        let seat = l["seat"].as_u64().unwrap() as usize;
        for (s, p) in l["view"]["players"].as_array().unwrap().iter().enumerate() {
            assert_eq!(p["hand"].get("hidden").is_some(), s != seat, "line {}", i + 1);
        }
        assert!(l["view"]["draw"].get("hidden").is_some());
    }
    assert!(lines.iter().any(|l| l["type"] == "chance" && l["event"].get("roll").is_some() || l["event"].get("draw").is_some()));
    let said = replay(&lines).expect("replays");
    assert!(said.contains("agree"), "{said}");
}

#[test]
fn an_illegal_action_slipped_in_is_refused_at_its_line_with_the_rule() {
    let mut lines = trace("variants/pig-farm/standard.toml", 5);
    // A discard of a pig the seat does not hold.
    let (i, pig) = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l["type"] == "decision" && l["action"].get("discard").is_some())
        .find_map(|(i, l)| {
            let held: Vec<&Value> = l["legal"].as_array().unwrap().iter().filter_map(|a| a.get("discard")).collect();
            ["red square", "blue pentagon", "green star", "yellow cross"].iter().find(|p| !held.iter().any(|h| h == *p)).map(|p| (i, *p))
        })
        .expect("a discard decision");
    lines[i]["action"] = serde_json::json!({ "discard": pig });
    let (n, what) = failing_line(replay(&lines).unwrap_err());
    assert_eq!(n, i + 1, "{what}");
    assert!(what.contains("illegal action") && what.contains(pig), "{what}");
    assert!(what.contains("does not hold"), "the rule it breaks: {what}");
}

#[test]
fn an_edited_state_chance_or_missing_line_is_named() {
    let lines = trace("variants/pig-farm/standard.toml", 5);
    // A state line with one penny... one card more in seat 0's hand.
    let mut edited = lines.clone();
    let i = edited.iter().position(|l| l["type"] == "state").unwrap();
    edited[i]["state"]["players"][0]["hand"].as_array_mut().unwrap().push("red square".into());
    let (n, what) = failing_line(replay(&edited).unwrap_err());
    assert_eq!(n, i + 1);
    assert!(what.contains("/players/0/hand"), "{what}");
    // A chance result changed.
    let mut edited = lines.clone();
    let i = edited.iter().position(|l| l["type"] == "chance" && l["event"].get("draw").is_some()).unwrap();
    let drawn = edited[i]["event"]["draw"]["card"].as_str().unwrap().to_string();
    edited[i]["event"]["draw"]["card"] = (if drawn == "red square" { "blue star" } else { "red square" }).into();
    let (n, what) = failing_line(replay(&edited).unwrap_err());
    assert_eq!(n, i + 1);
    assert!(what.contains("chance"), "{what}");
    // A missing decision: the replay expects a decision where the trace has the next line.
    let mut edited = lines.clone();
    let i = edited.iter().position(|l| l["type"] == "decision").unwrap();
    edited.remove(i);
    let (n, _) = failing_line(replay(&edited).unwrap_err());
    assert_eq!(n, i + 1);
    // A trace cut inside an action (its decision kept, the state it led to lost) differs.
    let last_state = lines.iter().rposition(|l| l["type"] == "state").unwrap();
    let cut = &lines[..last_state];
    let (n, what) = failing_line(replay(cut).unwrap_err());
    assert_eq!(n, cut.len() + 1, "{what}");
    // A trace cut between two actions, where a seat must decide, is an abandoned game: it
    // replays to where it stops and says so.
    let last_decision = lines.iter().rposition(|l| l["type"] == "decision").unwrap();
    let cut = &lines[..last_decision];
    let decisions = cut.iter().filter(|l| l["type"] == "decision").count();
    let said = replay(cut).unwrap();
    assert!(said.ends_with(&format!("abandoned after {decisions} decisions; the game was not finished")), "{said}");
}

#[test]
fn a_reshuffle_records_the_new_order_and_an_edited_order_is_refused() {
    let lines = trace("variants/penny-badger/standard.toml", 1);
    let i = lines.iter().position(|l| l["type"] == "chance" && l["event"].get("reshuffle").is_some()).expect("a reshuffle");
    let event = &lines[i]["event"]["reshuffle"];
    let order = event["order"].as_array().expect("the new order").clone();
    assert_eq!(order.len() as u64, event["cards"].as_u64().unwrap());
    // Top first: the cards drawn after it in the same step come off its top, the rest is the
    // next state's draw pile.
    let mut expected = Vec::new();
    let mut j = i + 1;
    while lines[j]["type"] == "chance" {
        if let Some(card) = lines[j]["event"].get("draw").map(|d| d["card"].clone()) {
            expected.push(card);
        }
        j += 1;
    }
    assert_eq!(lines[j]["type"], "state");
    expected.extend(lines[j]["state"]["draw"].as_array().unwrap().iter().cloned());
    assert_eq!(order, expected);
    // Two cards of the new order swapped: refused at the reshuffle's line.
    let mut edited = lines.clone();
    let k = order.iter().position(|c| *c != order[0]).expect("two different cards");
    let pile = edited[i]["event"]["reshuffle"]["order"].as_array_mut().unwrap();
    pile.swap(0, k);
    let (n, what) = failing_line(replay(&edited).unwrap_err());
    assert_eq!(n, i + 1, "{what}");
    assert!(what.contains("chance result differs at /reshuffle/order/0"), "{what}");
}

#[test]
fn flower_power_plays_are_lists_of_hand_positions_and_older_bit_masks_still_replay() {
    let lines = trace("variants/flower-power/standard.toml", 3);
    let decisions: Vec<usize> = (0..lines.len()).filter(|&i| lines[i]["type"] == "decision").collect();
    for &i in &decisions {
        for play in lines[i]["legal"].as_array().unwrap().iter().chain([&lines[i]["action"]]) {
            let positions: Vec<u64> = play.as_array().expect("a list of positions").iter().map(|p| p.as_u64().unwrap()).collect();
            assert!(!positions.is_empty() && positions.windows(2).all(|w| w[0] < w[1]), "line {}: {play}", i + 1);
        }
    }
    // The same trace with every play written as its bit mask (bit i = position i).
    let mask = |v: &Value| Value::from(v.as_array().unwrap().iter().map(|p| 1u64 << p.as_u64().unwrap()).sum::<u64>());
    let mut old = lines.clone();
    for &i in &decisions {
        old[i]["legal"] = old[i]["legal"].as_array().unwrap().iter().map(mask).collect();
        old[i]["action"] = mask(&old[i]["action"]);
    }
    assert!(replay(&old).expect("replays").contains("agree"));
    // A play naming a position past the hand is refused with the rule, in either notation.
    let i = decisions[0];
    let held = lines[i]["view"]["players"][lines[i]["seat"].as_u64().unwrap() as usize]["hand"].as_array().unwrap().len();
    for play in [serde_json::json!([held]), serde_json::json!(1u64 << held)] {
        let mut edited = lines.clone();
        edited[i]["action"] = play.clone();
        let (n, what) = failing_line(replay(&edited).unwrap_err());
        assert_eq!(n, i + 1, "{what}");
        assert!(what.contains("illegal action") && what.contains(&format!("the hand holds {held} cards")), "{play}: {what}");
    }
}

#[test]
fn a_malformed_trace_names_line_and_column_and_the_command_exits_0_1_2() {
    let dir = std::env::temp_dir().join(format!("playtest-traces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = trace("variants/take-a-penny/standard.toml", 2);
    let good = dir.join("good.jsonl");
    std::fs::write(&good, text(&lines)).unwrap();
    let mut bad_lines = lines.clone();
    let i = bad_lines.iter().position(|l| l["type"] == "state").unwrap();
    bad_lines[i]["state"]["pot"] = 99.into();
    let differs = dir.join("differs.jsonl");
    std::fs::write(&differs, text(&bad_lines)).unwrap();
    let mut broken = text(&lines);
    let at = broken.match_indices('\n').nth(2).unwrap().0 + 1;
    broken.insert_str(at, "{\"type\": \"state\", \"step\": }\n");
    let malformed = dir.join("malformed.jsonl");
    std::fs::write(&malformed, &broken).unwrap();
    // A decision whose action is no action of the game: bad input, pointed at by column.
    let mut no_action = lines.clone();
    let j = no_action.iter().position(|l| l["type"] == "decision").unwrap();
    no_action[j]["action"] = "fly".into();
    let no_action_text = text(&no_action);
    let column = no_action_text.lines().nth(j).unwrap().rfind("\"action\":").unwrap() + "\"action\":".len() + 1;
    let unreadable = dir.join("unreadable.jsonl");
    std::fs::write(&unreadable, &no_action_text).unwrap();
    let run = |file: &Path| Command::new(env!("CARGO_BIN_EXE_playtest")).arg("replay").arg(file).output().expect("runs");
    let ok = run(&good);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    let out = run(&differs);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("differs.jsonl:{}: ", i + 1)) && err.contains("/pot"), "{err}");
    let out = run(&malformed);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("malformed.jsonl:4:27"), "{err}");
    let out = run(&unreadable);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("unreadable.jsonl:{}:{column}: key `action`: \"fly\" is not an action of take-a-penny: unknown action `fly`; allowed: ", j + 1)),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_writes_the_traces_of_capped_games_at_most_twenty_and_each_replays() {
    let dir = std::env::temp_dir().join(format!("playtest-check-traces-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_playtest"))
        .args(["check", "variants/flower-power/standard.toml", "--set", "turn_cap=12", "--games", "30", "-q", "--traces"])
        .arg(&dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    // Every game reaches the cap of 12 turns: the [expect] bounds fail, the traces are written.
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("20 JSON trace(s)") && stdout.contains("10 more not written"), "{stdout}");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    assert_eq!(files.len(), 20);
    assert!(files[0].file_name().unwrap().to_string_lossy().starts_with("flower-power-standard-game-000000-seed-"));
    for f in &files {
        assert!(f.to_string_lossy().ends_with("-cap.jsonl.gz"));
        assert_eq!(std::fs::read(f).unwrap()[..2], [0x1f, 0x8b], "gzip-compressed");
        let said = replay_text(f, &trace_file::read(f).unwrap()).expect("replays");
        assert!(said.contains("ended `cap` after 12 turns"), "{said}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_trace_ending_in_a_broken_rule_is_replayed_up_to_it_and_refused_there() {
    let lines = trace("variants/take-a-penny/standard.toml", 3);
    let i = lines.iter().position(|l| l["type"] == "state").unwrap();
    let mut cut = lines[..=i].to_vec();
    cut.push(serde_json::json!({ "type": "violation", "step": 1, "what": "seat 1 chose an illegal action" }));
    let (n, what) = failing_line(replay(&cut).unwrap_err());
    assert_eq!(n, i + 2);
    assert!(what.contains("broken rule") && what.contains("seat 1 chose an illegal action"), "{what}");
}

fn gzip(text: &str) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap()
}

#[test]
fn a_gzip_trace_file_holds_what_json_prints_and_replays_and_a_cut_or_edited_one_is_refused() {
    let dir = std::env::temp_dir().join(format!("playtest-gz-traces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let playtest = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_playtest"));
        c.current_dir(env!("CARGO_MANIFEST_DIR"));
        c
    };
    let trace_args = ["trace", "variants/pig-farm/standard.toml", "--game-seed", "5", "--json"];
    let printed = playtest().args(trace_args).output().expect("runs");
    assert_eq!(printed.status.code(), Some(0));
    let gz = dir.join("t.jsonl.gz");
    let plain = dir.join("t.jsonl");
    for file in [&gz, &plain] {
        let out = playtest().args(trace_args).arg("--out").arg(file).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.starts_with(&format!("wrote {}: ", file.display())) && !said.contains("\"type\""), "only a note on stdout: {said}");
    }
    // The compressed file is gzip, smaller, and decompresses to the printed text byte for byte.
    let bytes = std::fs::read(&gz).unwrap();
    assert_eq!(bytes[..2], [0x1f, 0x8b]);
    assert!(bytes.len() * 5 < printed.stdout.len(), "{} of {}", bytes.len(), printed.stdout.len());
    assert!(String::from_utf8_lossy(&playtest().args(trace_args).arg("--out").arg(&gz).output().unwrap().stdout).contains("gzip-compressed"));
    let text = trace_file::read(&gz).unwrap();
    assert!(text.as_bytes() == printed.stdout.as_slice(), "the decompressed trace is what --json prints");
    assert!(std::fs::read(&plain).unwrap() == printed.stdout, "a plain --out file is what --json prints");
    let leftovers: Vec<String> =
        std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with('.')).collect();
    assert!(leftovers.is_empty(), "no lock or temporary folder left: {leftovers:?}");
    let replay = |file: &Path| playtest().arg("replay").arg(file).output().expect("runs");
    let ok = replay(&gz);
    assert_eq!(ok.status.code(), Some(0), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("agree"));
    // A hand-edited state inside a gzip file: refused at its line of the decompressed text.
    let mut lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let i = lines.iter().position(|l| l["type"] == "state").unwrap();
    lines[i]["state"]["players"][0]["hand"].as_array_mut().unwrap().push("red square".into());
    let edited = dir.join("edited.jsonl.gz");
    std::fs::write(&edited, gzip(&self::text(&lines))).unwrap();
    let out = replay(&edited);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("edited.jsonl.gz:{}: ", i + 1)) && err.contains("/players/0/hand"), "{err}");
    // A malformed line inside a gzip file: its line and column.
    let mut broken = text.clone();
    let at = broken.match_indices('\n').nth(2).unwrap().0 + 1;
    broken.insert_str(at, "{\"type\": \"state\", \"step\": }\n");
    let malformed = dir.join("malformed.jsonl.gz");
    std::fs::write(&malformed, gzip(&broken)).unwrap();
    let out = replay(&malformed);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed.jsonl.gz:4:27"), "{}", String::from_utf8_lossy(&out.stderr));
    // A cut gzip file: exit 2 with a clear message, no panic.
    let cut = dir.join("cut.jsonl.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let out = replay(&cut);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cut.jsonl.gz: cannot decompress the trace: the gzip stream is cut short"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn beaver_mania_records_the_refill_that_deals_the_last_card_of_the_draw_pile() {
    // `trace variants/beaver-mania/standard.toml --seed 78 --game 108 --bots random` with a
    // one-card stock and a big display: the stock is already empty when the display's refill
    // takes the draw pile's last card, which ends the round. The refill must be recorded (a
    // `refill` chance line before the end), and the trace must replay.
    let sets: Vec<String> = ["stock_size=1", "display_size=12", "deck.bad_guy=8", "deck.superbeaver=8", "deck.thief=8"].map(String::from).to_vec();
    let v = Variant::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants/beaver-mania/standard.toml"), &sets).expect("loads");
    let (text, broken) = json_trace_of(&v, Some("random"), playtest::engine::game_seed(78, 108)).expect("traces");
    assert!(broken.is_none(), "{broken:?}");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let end = lines.iter().rposition(|l| l["type"] == "state").expect("a last state");
    let last = &lines[end]["state"];
    assert_eq!(last["end_reason"], "supply_empty", "the seed still reaches the case: {last}");
    assert!(last["draw"].as_array().unwrap().is_empty() && last["stock"].as_array().unwrap().is_empty());
    // The last decision's chance lines: a refill of the display that emptied the draw pile.
    let decision = lines[..end].iter().rposition(|l| l["type"] == "decision").expect("a decision");
    let refills: Vec<&Value> = lines[decision..end].iter().filter(|l| l["type"] == "chance" && l["event"].get("refill").is_some()).collect();
    assert_eq!(refills.len(), 1, "{:?}", &lines[decision..=end]);
    let added = refills[0]["event"]["refill"]["display"].as_u64().expect("cards to the display");
    let before = lines[..decision].iter().rposition(|l| l["type"] == "state" || l["type"] == "start").expect("a state before");
    assert_eq!(lines[before]["state"]["draw"].as_array().unwrap().len() as u64, added, "the refill took the whole draw pile");
    let said = replay(&lines).expect("replays");
    assert!(said.contains("agree"), "{said}");
}

#[test]
fn a_beaver_mania_match_that_reaches_its_target_after_a_capped_round_ends_by_its_target() {
    // `trace variants/beaver-mania/match-250.toml --seed 41 --game 12 --set turn_cap=40 --set
    // match_target=60`: an early round stops at the turn cap, a later one takes a total to the
    // target; the match ends by that round's reason, not `cap`.
    let sets: Vec<String> = ["turn_cap=40", "match_target=60"].map(String::from).to_vec();
    let v = Variant::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants/beaver-mania/match-250.toml"), &sets).expect("loads");
    let (text, broken) = json_trace_of(&v, None, playtest::engine::game_seed(41, 12)).expect("traces");
    assert!(broken.is_none(), "{broken:?}");
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    let last = &lines[lines.iter().rposition(|l| l["type"] == "state").expect("a last state")]["state"];
    let totals: Vec<i64> = last["players"].as_array().unwrap().iter().map(|p| p["total"].as_i64().unwrap()).collect();
    assert!(totals.iter().any(|&t| t >= 60), "the target is reached: {totals:?}");
    assert!(last["round"].as_u64().unwrap() > 0, "more than one round");
    assert_ne!(last["end_reason"], "cap", "{last}");
    // Some earlier round did stop at the cap: it reached its 40th turn and the next round
    // began.
    let capped_round = lines
        .iter()
        .filter(|l| l["type"] == "state" && l["state"]["round_turns"] == 40)
        .map(|l| l["state"]["round"].as_u64().unwrap())
        .next()
        .expect("a round reached the turn cap");
    assert!(capped_round < last["round"].as_u64().unwrap(), "the capped round came before the last one");
    let said = replay(&lines).expect("replays");
    assert!(said.contains("agree"), "{said}");
}
