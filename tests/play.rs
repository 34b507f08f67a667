//! `playtest play` through its HTTP interface: every registered game played to its end by a
//! "person" choosing the first legal action, the saved trace replayed by `playtest replay`'s
//! checker; refused requests (token, host, turn, malformed, illegal, stale) leave the game
//! as it was; the advice reads only what the seat sees; and the page in headless Chromium
//! (skipped, with a note, where no Chromium is installed).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use playtest::cli::{json_trace_of, replay_text};
use playtest::engine::{Bot, GameRng, SeedFrom};
use playtest::error::Error;
use playtest::games::{GAME_IDS, GameVisitor, Registered, seat_plans, visit};
use playtest::play::hints::hints;
use playtest::play::server::{self, Running, ServerOptions};
use playtest::play::{Seating, Session, open};
use playtest::variant::Variant;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The variant every test plays of game `id`: its `standard.toml`, else its first file.
fn variant_of(id: &str) -> PathBuf {
    let dir = root().join("variants").join(id);
    let standard = dir.join("standard.toml");
    if standard.exists() {
        return standard;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")).collect();
    files.sort();
    files.remove(0)
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("playtest-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn serve(variant: &Path, seat: usize, bots: Option<&str>, seed: u64, save: &Path, extra: &str) -> Running {
    let v = Variant::load(variant, &[]).expect("loads");
    let table = open(&v, &Seating { seat, bots: bots.map(str::to_string), seed }).expect("opens");
    server::start(table, ServerOptions { port: 0, save: Some(save.to_path_buf()), hints: false, page_extra: extra.to_string() }).expect("serves")
}

/// One HTTP request; (status, body) with the body as JSON (or a string for the page).
fn raw(addr: SocketAddr, request: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.write_all(request.as_bytes()).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    let status: u16 = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or_else(|_| Value::String(body.to_string())))
}

fn http(r: &Running, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let sep = if path.contains('?') { '&' } else { '?' };
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    raw(
        r.addr(),
        &format!(
            "{method} {path}{sep}token={} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            r.token(),
            r.addr(),
            body.len()
        ),
    )
}

/// Plays the game on `r` to its end: the first legal action on the person's turns, one bot
/// action per `advance` otherwise. Returns the decisions the person took.
fn play_out(r: &Running, id: &str) -> u64 {
    let mut mine = 0;
    for _ in 0..200_000 {
        let (code, s) = http(r, "GET", "/api/state", None);
        assert_eq!(code, 200, "{id}: {s}");
        if s["over"] == json!(true) {
            assert!(s["end"].is_object(), "{id}: an end: {s}");
            return mine;
        }
        if s["your_turn"] == json!(true) {
            let first = &s["legal"][0];
            let (code, e) = http(r, "POST", "/api/action", Some(&json!({ "action": first["action"], "step": s["step"] })));
            assert_eq!(code, 200, "{id}: {e}");
            assert_eq!(e["action"], first["label"], "{id}: the own action is narrated in words");
            mine += 1;
        } else {
            let (code, e) = http(r, "POST", "/api/advance", None);
            assert_eq!(code, 200, "{id}: {e}");
        }
    }
    panic!("{id}: no end after 200000 requests");
}

#[test]
fn every_registered_game_plays_to_its_end_through_http_and_its_saved_trace_replays() {
    for (i, id) in GAME_IDS.iter().enumerate() {
        let save = temp(&format!("{id}.jsonl"));
        let seat = i % 2;
        let r = serve(&variant_of(id), seat, Some("random"), 11 + i as u64, &save, "");
        let mine = play_out(&r, id);
        assert!(mine > 0, "{id}: the person decided");
        let (_, events) = http(&r, "GET", "/api/events?since=0", None);
        let (_, s) = http(&r, "GET", "/api/state", None);
        assert_eq!(events["events"].as_array().unwrap().len() as u64, s["events"].as_u64().unwrap(), "{id}");
        // The view never shows another seat's hand.
        if let Some(players) = s["view"]["players"].as_array() {
            for (k, p) in players.iter().enumerate() {
                if k != seat && p.get("hand").is_some() {
                    assert!(p["hand"].get("hidden").is_some() || p["hand"] == json!("hidden"), "{id}: seat {k}'s hand is shown: {p}");
                }
            }
        }
        let finished = r.stop().expect("stops");
        assert!(finished.over, "{id}");
        let text = std::fs::read_to_string(&save).expect("saved");
        let said = replay_text(&save, &text).unwrap_or_else(|e| panic!("{id}: the saved game does not replay: {e}"));
        assert!(said.contains("replays"), "{id}: {said}");
        assert!(text.lines().any(|l| l.contains("\"bot\":\"human\"")), "{id}: the person's seat is named");
        std::fs::remove_file(&save).ok();
    }
}

#[test]
fn the_same_seed_deals_the_same_game_and_an_abandoned_game_keeps_its_trace() {
    let v = variant_of("pig-farm");
    let (a, b) = (temp("same-a.jsonl"), temp("same-b.jsonl"));
    let ra = serve(&v, 0, None, 5, &a, "");
    let rb = serve(&v, 0, None, 5, &b, "");
    assert_eq!(http(&ra, "GET", "/api/state", None).1["view"], http(&rb, "GET", "/api/state", None).1["view"]);
    // A few actions, then stopped: the trace so far is on disk and replays up to its end.
    for r in [&ra, &rb] {
        for _ in 0..6 {
            let (_, s) = http(r, "GET", "/api/state", None);
            if s["your_turn"] == json!(true) {
                http(r, "POST", "/api/action", Some(&json!({ "action": s["legal"][0]["action"] })));
            } else {
                http(r, "POST", "/api/advance", None);
            }
        }
    }
    let (fa, fb) = (ra.stop().unwrap(), rb.stop().unwrap());
    assert_eq!(fa, fb);
    let (ta, tb) = (std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap());
    assert_eq!(ta, tb, "the same seed and the same actions give the same game");
    assert_eq!(ta.lines().filter(|l| l.contains("\"type\":\"decision\"")).count() as u64, fa.decisions);
    let said = replay_text(&a, &ta).unwrap_or_else(|e| panic!("an abandoned game replays up to where it stopped: {e}"));
    assert!(said.ends_with(&format!("abandoned after {} decisions; the game was not finished", fa.decisions)), "{said}");
    // Cut inside an action (its decision line kept, its state line lost), the trace is broken.
    let cut: String = ta.lines().take_while(|l| !l.contains("\"type\":\"state\"")).map(|l| format!("{l}\n")).collect();
    assert!(cut.contains("\"type\":\"decision\""));
    let err = replay_text(&a, &cut).unwrap_err();
    assert_eq!(err.exit_code(), 1, "{err}");
    // The replay page says so too.
    let page = temp("same-a.html");
    let out = Command::new(env!("CARGO_BIN_EXE_playtest")).arg("replay").arg(&a).arg("--html").arg(&page).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("abandoned after") && stdout.contains(&format!("wrote {}", page.display())), "{stdout}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(playtest::report::replay_page::trace_in(&html).as_deref(), Some(ta.as_str()));
    assert!(html.contains("the game was not finished"), "the page's script names an abandoned game");
}

/// Every action `game`'s bots took in a traced game of `variant`, in trace notation.
fn actions_seen(path: &Path) -> Vec<Value> {
    // A short game (every bundled variant of the games below has `turn_cap`): a traced game
    // of random bots to Bluffing Joker's cap of 5000 turns takes minutes in a debug build.
    let v = Variant::load(path, &["turn_cap=40".to_string()]).unwrap();
    let (text, _) = json_trace_of(&v, Some("random"), 3).unwrap();
    let mut seen: Vec<Value> = Vec::new();
    for line in text.lines() {
        let l: Value = serde_json::from_str(line).unwrap();
        if l["type"] == json!("decision") {
            for a in l["legal"].as_array().unwrap() {
                if !seen.contains(a) {
                    seen.push(a.clone());
                }
            }
        }
    }
    seen
}

#[test]
fn refused_requests_name_the_rule_and_change_nothing() {
    for id in ["pig-farm", "bluffing-joker", "take-a-penny"] {
        let path = variant_of(id);
        let save = temp(&format!("refuse-{id}.jsonl"));
        // Seat 1: seat 0 moves first, so the person's first action is out of turn.
        let r = serve(&path, 1, Some("random"), 21, &save, "");
        let before = http(&r, "GET", "/api/state", None).1;
        let trace_before = std::fs::read_to_string(&save).unwrap();
        let unchanged = |what: &str| {
            assert_eq!(http(&r, "GET", "/api/state", None).1, before, "{id}: {what} changed the game");
            assert_eq!(std::fs::read_to_string(&save).unwrap(), trace_before, "{id}: {what} changed the trace");
        };
        let any = &actions_seen(&path)[0];
        // No token, a wrong token, another host.
        let (code, e) = raw(r.addr(), &format!("GET /api/state HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", r.addr()));
        assert_eq!(code, 401, "{id}: {e}");
        assert!(e["error"].as_str().unwrap().contains("token"), "{e}");
        let (code, e) =
            raw(r.addr(), &format!("POST /api/advance?token=0123 HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", r.addr()));
        assert_eq!(code, 403, "{id}: {e}");
        assert!(e["error"].as_str().unwrap().contains("wrong token"), "{e}");
        let (code, e) = raw(
            r.addr(),
            &format!("POST /api/advance?token={} HTTP/1.1\r\nHost: attacker.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", r.token()),
        );
        assert_eq!(code, 403, "{id}: {e}");
        assert!(e["error"].as_str().unwrap().contains("Host"), "{e}");
        unchanged("a request without the right token or host");
        // Out of turn: seat 0 decides first.
        assert_eq!(before["to_move"], json!(0), "{id}");
        let (code, e) = http(&r, "POST", "/api/action", Some(&json!({ "action": any })));
        assert_eq!(code, 409, "{id}: {e}");
        assert!(e["error"].as_str().unwrap().contains("not yours"), "{e}");
        let (code, e) = http(&r, "POST", "/api/hints", None);
        assert_eq!(code, 409, "{id}: advice out of turn: {e}");
        unchanged("an action out of turn");
        // Bots play until the person's turn.
        let mut s = before.clone();
        while s["your_turn"] != json!(true) {
            assert_eq!(http(&r, "POST", "/api/advance", None).0, 200);
            s = http(&r, "GET", "/api/state", None).1;
        }
        let (code, e) = http(&r, "POST", "/api/advance", None);
        assert_eq!(code, 409, "{id}: the bots wait for the person: {e}");
        let mine = http(&r, "GET", "/api/state", None).1;
        let trace_mine = std::fs::read_to_string(&save).unwrap();
        let unchanged = |what: &str| {
            assert_eq!(http(&r, "GET", "/api/state", None).1, mine, "{id}: {what} changed the game");
            assert_eq!(std::fs::read_to_string(&save).unwrap(), trace_mine, "{id}: {what} changed the trace");
        };
        // Malformed: not JSON, no action, not an action of this game, a bad step.
        for (body, what) in [("{not json", "not JSON"), ("{\"act\": 1}", "`action`"), ("{\"action\": {\"fly\": 3}}", "unknown action `fly`; allowed: ")] {
            let (code, e) = raw(
                r.addr(),
                &format!(
                    "POST /api/action?token={} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    r.token(),
                    r.addr(),
                    body.len()
                ),
            );
            assert_eq!(code, 400, "{id} {body}: {e}");
            assert!(e["error"].as_str().unwrap().contains(what), "{id}: {e}");
            assert!(!e["error"].as_str().unwrap().contains("variant"), "{id}: serde's word: {e}");
        }
        let legal: Vec<Value> = mine["legal"].as_array().unwrap().iter().map(|a| a["action"].clone()).collect();
        let (code, e) = http(&r, "POST", "/api/action", Some(&json!({ "action": legal[0], "step": 0 })));
        if mine["step"] != json!(0) {
            assert_eq!(code, 409, "{id}: a stale step: {e}");
            assert!(e["error"].as_str().unwrap().contains("moved on"), "{e}");
        }
        unchanged("a malformed action");
        // Illegal: an action of this game that is not legal now, refused with the game's reason.
        let illegal = actions_seen(&path).into_iter().find(|a| !legal.contains(a)).expect("some action is not legal now");
        let (code, e) = http(&r, "POST", "/api/action", Some(&json!({ "action": illegal })));
        assert_eq!(code, 422, "{id}: {e}");
        let why = e["error"].as_str().unwrap();
        assert!(why.starts_with("illegal action") && why.len() > 30, "{id}: the rule broken is named: {why}");
        unchanged("an illegal action");
        // Unknown pages and methods.
        assert_eq!(http(&r, "GET", "/api/nothing", None).0, 404);
        assert_eq!(http(&r, "GET", "/api/action", None).0, 405);
        assert_eq!(http(&r, "POST", "/api/hints?iterations=0", None).0, 400);
        unchanged("an unknown page");
        r.stop().unwrap();
    }
}

/// The advice at the first decision of seat `seat` with two or more legal actions (after the
/// first step), from the real state and from another state that agrees with the seat's view
/// (a determinization of it), with the same seed; and whether the game's determinization is
/// a function of the seat's view alone (the two states give the same samples).
struct SameView<'a> {
    seat: usize,
    iterations: u32,
    variant: &'a Variant,
}

type Advice = (Value, Value, bool);

impl GameVisitor for SameView<'_> {
    type Output = Result<Option<Advice>, Error>;
    fn visit<G: Registered>(self) -> Self::Output {
        let variant = self.variant;
        let game = G::from_variant(variant)?;
        let plans = seat_plans(&game, variant, Some(&[playtest::engine::BotSpec::named("random")]), G::INFO.default_bot)?;
        let header = playtest::sim::trace_header(variant, &plans);
        let bots: Vec<Box<dyn Bot<G>>> = plans.iter().map(|p| (p.build)(&game, &p.values)).collect();
        let mut s = Session::new(game, self.seat, bots, 4, &header).map_err(Error::Usage)?;
        for _ in 0..400 {
            if s.to_move().is_none() {
                return Ok(None);
            }
            if !s.your_turn() {
                s.advance().unwrap();
                continue;
            }
            if s.legal().len() >= 2 && s.step() > 0 {
                let game = s.game();
                let a = s.state().clone();
                let mut b = a.clone();
                game.determinize(&a, self.seat, &mut GameRng::seed_from(77), &mut b);
                assert_eq!(game.observation(&a, self.seat), game.observation(&b, self.seat), "{}: a determinization keeps the view", game.id());
                let canonical = (0..5).all(|r| {
                    let (mut x, mut y) = (a.clone(), a.clone());
                    game.determinize(&a, self.seat, &mut GameRng::seed_from(r), &mut x);
                    game.determinize(&b, self.seat, &mut GameRng::seed_from(r), &mut y);
                    format!("{x:?}") == format!("{y:?}")
                });
                let ha = serde_json::to_value(hints(game, &a, self.seat, self.iterations, 9)).unwrap();
                let hb = serde_json::to_value(hints(game, &b, self.seat, self.iterations, 9)).unwrap();
                return Ok(Some((ha, hb, canonical)));
            }
            let first = s.legal()[0].action.clone();
            s.act(&first, None).unwrap();
        }
        Ok(None)
    }
}

#[test]
fn the_advice_reads_only_what_the_seat_sees() {
    let mut compared = Vec::new();
    for id in GAME_IDS {
        let v = Variant::load(&variant_of(id), &[]).unwrap();
        let Some((a, b, canonical)) = visit(id, SameView { seat: 1, iterations: 400, variant: &v }).expect("registered").unwrap() else { continue };
        for h in [&a, &b] {
            assert_eq!(h["iterations"], json!(400), "{id}");
            let tried: u64 = h["actions"].as_array().unwrap().iter().map(|x| x["iterations"].as_u64().unwrap()).sum();
            assert_eq!(tried, 400, "{id}: every iteration starts with one of the seat's actions");
            for x in h["actions"].as_array().unwrap() {
                if let (Some(w), Some(ci)) = (x["win"].as_f64(), x["interval"].as_array()) {
                    let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
                    assert!((0.0..=1.0).contains(&w) && lo <= w && w <= hi, "{id}: {x}");
                }
            }
        }
        // The game's samples depend on the seat's view and the stream only (no hidden order
        // of a pile or a hand leaks into them): the advice is the same, bit for bit.
        assert!(canonical, "{id}: two tables that agree on seat 1's view give different samples");
        assert!(a == b, "{id}: two tables that agree on seat 1's view give different advice");
        compared.push(*id);
    }
    assert_eq!(compared.len(), GAME_IDS.len(), "advice compared on {compared:?} only");
}

// ---- The page in a browser -------------------------------------------------------------

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("PLAYTEST_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].iter().find_map(|name| {
        let out = Command::new("which").arg(name).output().ok()?;
        out.status.success().then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_string()))
    })
}

/// Plays by clicking: the first action button on the person's turns (three times), `next` on
/// the bots' turns, then asks for advice; writes what it found into `<pre id="probe">`.
const PROBE: &str = r###"<script>
window.__errors = [];
addEventListener('error', e => window.__errors.push(String(e.message)));
const sleep = ms => new Promise(r => setTimeout(r, ms));
async function until(test, ms) { for (let t = 0; t < ms; t += 50) { if (test()) return true; await sleep(50); } return false; }
window.playReady.then(async () => {
  const out = [];
  let clicks = 0, nexts = 0;
  try {
    out.push('cards_at_start=' + document.querySelectorAll('#table .card').length);
    for (let i = 0; i < 400 && clicks < 3; i++) {
      const act = document.querySelector('button.act:not([disabled])');
      const next = document.getElementById('next');
      if (act) { const before = status.step; act.click(); clicks++; await until(() => status.step > before && !busy, 5000); }
      else if (!next.disabled) { next.click(); nexts++; await until(() => !busy, 5000); }
      else if (status.over) break;
      else await sleep(50);
    }
    out.push('clicks=' + clicks);
    out.push('nexts=' + nexts);
    out.push('step=' + status.step);
    out.push('entries=' + document.querySelectorAll('#entries li').length);
    out.push('mine=' + document.querySelectorAll('#entries li.mine').length);
    out.push('message=' + document.getElementById('message').textContent);
    await until(() => document.querySelector('button.act:not([disabled])') || status.over, 5000);
    for (let i = 0; i < 400 && !status.your_turn && !status.over; i++) { document.getElementById('next').click(); await until(() => !busy, 5000); }
    await until(() => !busy, 5000);
    if (status.your_turn) {
      document.getElementById('iterations').value = '500';
      document.getElementById('hint').click();
      await until(() => document.querySelectorAll('#advice tr').length > 1, 20000);
    }
    out.push('advice_rows=' + document.querySelectorAll('#advice tr').length);
    out.push('advice_text=' + (document.getElementById('advice').textContent || '').slice(0, 120));
    out.push('hidden_hands=' + document.querySelectorAll('.player .zone.hand .back').length);
  } catch (e) { window.__errors.push(String(e)); }
  out.push('errors=' + JSON.stringify(window.__errors));
  const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = out.join('\n');
  document.body.appendChild(pre);
}, e => { const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = 'errors=' + JSON.stringify([String(e)]); document.body.appendChild(pre); });
</script>"###;

#[test]
fn the_page_plays_by_clicking_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: no chromium found (install `chromium` or set PLAYTEST_CHROMIUM) — the play page was not tested in a browser");
        return;
    };
    let save = temp("browser.jsonl");
    let r = serve(&variant_of("pig-farm"), 1, None, 8, &save, PROBE);
    let out = Command::new(&browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=60000", "--dump-dom"])
        .arg(r.url())
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout);
    let found = dom.split("<pre id=\"probe\">").nth(1).and_then(|r| r.split("</pre>").next()).unwrap_or_else(|| panic!("no probe output: {dom:.3000}"));
    let p: std::collections::HashMap<String, String> =
        found.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.replace("&quot;", "\""))).collect();
    assert_eq!(p["errors"], "[]", "{p:?}");
    assert_eq!(p["clicks"], "3", "three actions played by clicking: {p:?}");
    assert!(p["nexts"].parse::<u32>().unwrap() >= 1, "the bots' turns were stepped through: {p:?}");
    assert_eq!(p["mine"], "3", "{p:?}");
    assert!(p["cards_at_start"].parse::<u32>().unwrap() >= 2, "the table is drawn with cards: {p:?}");
    assert!(p["hidden_hands"].parse::<u32>().unwrap() >= 1, "the other hands are hidden: {p:?}");
    assert_eq!(p["message"], "", "{p:?}");
    assert!(p["advice_rows"].parse::<u32>().unwrap() >= 2, "the advice is shown: {p:?}");
    // The server saw the same game: three of the person's decisions.
    let finished = r.stop().unwrap();
    let text = std::fs::read_to_string(&save).unwrap();
    let person = text.lines().filter(|l| l.contains("\"type\":\"decision\"") && l.contains("\"seat\":1,")).count();
    assert!(person >= 3, "{person} decisions of seat 1 in the trace ({} in all)", finished.decisions);
}

#[test]
fn ctrl_c_ends_play_cleanly_and_keeps_the_trace() {
    use std::io::BufRead;
    let save = temp("ctrl-c.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_playtest"))
        .args(["play", "variants/pig-farm/standard.toml", "--seed", "5", "--save"])
        .arg(&save)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let said: Vec<String> = (0..3).map(|_| lines.next().unwrap().unwrap()).collect();
    assert!(said[2].contains("press Ctrl-C to stop"), "{said:?}");
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("stopping the game; the trace so far is kept") && !stderr.contains("batch"), "{stderr}");
    assert!(rest.iter().any(|l| l.starts_with("stopped: 0 decisions, the game was not finished")), "{rest:?}");
    let text = std::fs::read_to_string(&save).unwrap();
    let said = replay_text(&save, &text).unwrap();
    assert!(said.ends_with("abandoned after 0 decisions; the game was not finished"), "{said}");
    std::fs::remove_file(&save).ok();
}

/// Plays a whole game by clicking (the first choice on the person's turns, `next` on the
/// bots'), keeping what the page showed at each of the person's turns and at the end.
const WHOLE_GAME: &str = r###"<script>
window.__errors = [];
addEventListener('error', e => window.__errors.push(String(e.message)));
const sleep = ms => new Promise(r => setTimeout(r, ms));
async function until(test, ms) { for (let t = 0; t < ms; t += 20) { if (test()) return true; await sleep(20); } return false; }
window.playReady.then(async () => {
  const out = [], seen = new Set();
  const look = () => { for (const id of ['turn', 'you', 'table', 'log']) seen.add(document.getElementById(id).innerText); };
  let clicks = 0, nexts = 0;
  try {
    look();
    for (let i = 0; i < 100000 && !(status.over && !pending()); i++) {
      const act = document.querySelector('button.act:not([disabled])');
      const next = document.getElementById('next');
      if (act) { look(); const before = status.step; act.click(); clicks++; await until(() => status.step > before && !busy, 5000); }
      else if (!next.disabled) { next.click(); nexts++; await until(() => !busy, 5000); }
      else await sleep(20);
    }
    look();
    out.push('over=' + status.over);
    out.push('clicks=' + clicks);
    out.push('nexts=' + nexts);
    out.push('end=' + (document.querySelector('#you .end') || { textContent: '' }).textContent);
    out.push('scores=' + document.querySelectorAll('#table .player .score').length);
    out.push('cards=' + document.querySelectorAll('#table .card').length);
  } catch (e) { window.__errors.push(String(e)); }
  out.push('errors=' + JSON.stringify(window.__errors));
  const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = out.join('\n');
  const shown = document.createElement('pre'); shown.id = 'shown'; shown.textContent = [...seen].join('\n');
  document.body.appendChild(shown);
  document.body.appendChild(pre);
}, e => { const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = 'errors=' + JSON.stringify([String(e)]); document.body.appendChild(pre); });
</script>"###;

/// Every key of the traced state that is an internal name (written with `_`), and `phase`.
fn internal_names(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if k.contains('_') || k == "phase" {
                    out.insert(k.clone());
                }
                internal_names(x, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|x| internal_names(x, out)),
        _ => {}
    }
}

#[test]
fn every_game_is_played_to_its_end_by_clicking_and_shows_no_internal_name_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: no chromium found (install `chromium` or set PLAYTEST_CHROMIUM) — the nine games were not played in a browser");
        return;
    };
    for id in GAME_IDS {
        let save = temp(&format!("whole-{id}.jsonl"));
        // Bluffing Joker's rulebook game lasts about 930 turns: one peg each (about 33 turns)
        // keeps the clicking short and the table the same.
        let sets: &[&str] = if *id == "bluffing-joker" { &["pegs=1"] } else { &[] };
        let v = Variant::load(&variant_of(id), &sets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).expect("loads");
        let table = open(&v, &Seating { seat: 0, bots: None, seed: 17 }).expect("opens");
        let r = server::start(table, ServerOptions { port: 0, save: Some(save.clone()), hints: false, page_extra: WHOLE_GAME.to_string() }).expect("serves");
        let (_, state) = http(&r, "GET", "/api/state", None);
        let mut names = std::collections::BTreeSet::new();
        internal_names(&state["view"], &mut names);
        for extra in ["step_seat", "end_reason", "first_seat", "round_turns", "dealt_butcher"] {
            names.insert(extra.to_string());
        }
        let out = Command::new(&browser)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3600000", "--dump-dom"])
            .arg(r.url())
            .output()
            .expect("chromium runs");
        let dom = String::from_utf8_lossy(&out.stdout);
        let part = |id: &str| dom.split(&format!("<pre id=\"{id}\">")).nth(1).and_then(|r| r.split("</pre>").next()).map(str::to_string);
        let found = part("probe").unwrap_or_else(|| panic!("{id}: no probe output: {dom:.3000}"));
        let p: std::collections::HashMap<String, String> =
            found.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.replace("&quot;", "\"").replace("&#39;", "'"))).collect();
        assert_eq!(p["errors"], "[]", "{id}: {p:?}");
        assert_eq!(p["over"], "true", "{id}: the game was played to its end by clicking: {p:?}");
        assert!(p["clicks"].parse::<u32>().unwrap() >= 1, "{id}: {p:?}");
        assert!(p["end"].starts_with("The game is over after") && p["end"].contains("Final scores:"), "{id}: the end as a sentence: {p:?}");
        assert!(p["scores"].parse::<u32>().unwrap() >= 2, "{id}: every seat's score on the table: {p:?}");
        let shown = part("shown").unwrap_or_default();
        for name in &names {
            let word = regex_free_word(&shown, name);
            assert!(!word, "{id}: the internal name `{name}` is on screen: {}", context(&shown, name));
        }
        for raw in ["{\"", "\":", "true / ", "take true", "take false"] {
            assert!(!shown.contains(raw), "{id}: `{raw}` is on screen: {}", context(&shown, raw));
        }
        let finished = r.stop().unwrap();
        assert!(finished.over, "{id}");
        let text = std::fs::read_to_string(&save).unwrap();
        replay_text(&save, &text).unwrap_or_else(|e| panic!("{id}: the game played by clicking replays: {e}"));
        std::fs::remove_file(&save).ok();
    }
}

/// Whether `name` stands in `text` as a word of its own (not inside a longer word).
fn regex_free_word(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back().is_none_or(|c| !word(c));
        let after = text[i + name.len()..].chars().next().is_none_or(|c| !word(c));
        before && after
    })
}

fn context(text: &str, needle: &str) -> String {
    let i = text.find(needle).unwrap_or(0);
    let start = text[..i].char_indices().rev().nth(80).map_or(0, |(j, _)| j);
    text[start..].chars().take(200).collect()
}
