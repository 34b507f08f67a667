//! The replay page (`playtest trace ... --html FILE`) in a real browser: headless Chromium
//! loads it from disk, and a script the test adds clicks through it: the page loads without
//! errors, stepping (button, arrow key, slider) changes the table shown, the "seen by seat k"
//! switch hides every other seat's hand and the new order of a reshuffle, and Bluffing
//! Joker's board is drawn.
//!
//! Skipped (with a note on stderr) when no Chromium is installed, as on CI machines without
//! one: set `PLAYTEST_CHROMIUM` to a browser binary, or install `chromium`.

use std::path::PathBuf;
use std::process::Command;

use playtest::cli::json_trace_of;
use playtest::report::replay_page;
use playtest::variant::Variant;

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("PLAYTEST_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].iter().find_map(|name| {
        let out = Command::new("which").arg(name).output().ok()?;
        out.status.success().then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim().to_string()))
    })
}

/// What the test script found on the page, one `key=value` per line, once the page has
/// unpacked its trace (`window.replayReady`).
const PROBE: &str = r###"<script>
window.replayReady.then(probe, e => probe(e));
function probe(failed) {
  const out = [];
  if (failed) window.__errors.push('the page did not load its trace: ' + String(failed));
  const table = () => document.getElementById('table').innerHTML;
  const pos = () => document.getElementById('position').textContent;
  const handsHidden = () => [...document.querySelectorAll('.player .hand')].map(h => h.querySelector('.hidden') !== null);
  try {
    out.push('start_pos=' + pos());
    const t0 = table();
    document.getElementById('forward').click();
    out.push('forward_changes=' + (table() !== t0));
    out.push('forward_pos=' + pos());
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    out.push('arrow_pos=' + pos());
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft' }));
    document.getElementById('back').click();
    out.push('back_pos=' + pos());
    const slider = document.getElementById('slider');
    slider.value = 3; slider.dispatchEvent(new Event('input'));
    out.push('slider_pos=' + pos());
    out.push('chosen=' + document.querySelectorAll('#decision .chip.chosen').length);
    out.push('everyone_hidden=' + JSON.stringify(handsHidden()));
    const seat = document.getElementById('seat');
    seat.value = '1'; seat.dispatchEvent(new Event('change'));
    out.push('seat1_hidden=' + JSON.stringify(handsHidden()));
    out.push('cards=' + document.querySelectorAll('.card svg, .card').length);
    // Seat 1 sees no card another seat drew or was dealt among the chance events, nor the
    // new order of a reshuffled pile, at any step.
    let leaks = 0, reshuffles = 0;
    for (let i = 0; i <= Number(slider.max); i++) {
      slider.value = i; slider.dispatchEvent(new Event('input'));
      for (const c of document.querySelectorAll('.chance')) {
        const ev = JSON.parse(c.dataset.event);
        for (const body of Object.values(ev)) {
          if (body && body.seat !== undefined && body.seat !== 1 && (body.card || body.hand) && body.card !== 'hidden' && body.hand !== 'hidden') leaks++;
          if (body && body.order !== undefined) { reshuffles++; if (Array.isArray(body.order)) leaks++; }
        }
      }
    }
    out.push('chance_leaks=' + leaks);
    out.push('reshuffles=' + reshuffles);
    out.push('board=' + document.querySelectorAll('svg.board circle').length);
    out.push('view_names=' + JSON.stringify([...seat.options].map(o => o.textContent)));
    // Every step in words: no JSON braces in the decision, chance and end panels; the turn
    // in the decision's heading is the table's, or the heading says which turn begins; the
    // other seats' public plays shown in seat 1's view, their secret ones not.
    let json = 0, turns = 0, shown = 0, secret = 0, piles = 0, tall = 0, legends = 0, alternatives = 0, none = 0;
    for (const view of ['all', '1']) {
      seat.value = view; seat.dispatchEvent(new Event('change'));
      for (let i = 1; i <= Number(slider.max); i++) {
        slider.value = i; slider.dispatchEvent(new Event('input'));
        const text = document.getElementById('decision').textContent;
        if (text.includes('it could instead')) alternatives++;
        if (text.includes('it could instead (0)')) none++;
        if (/[{}]|"|winners:/.test(text)) { json++; if (json === 1) out.push('json_at=' + text.slice(0, 300)); }
        const h = document.querySelector('#decision h3');
        const turn = [...document.querySelectorAll('#table .kv')].find(k => k.textContent.startsWith('turn: '));
        if (h && turn) {
          const t = turn.textContent.slice(6), m = /turn (\d+)(; turn (\d+) begins)?/.exec(h.textContent);
          if (!m || (m[3] || m[1]) !== t) { turns++; if (turns === 1) out.push('turn_at=' + h.textContent + ' / ' + t); }
        }
        if (view === '1' && !/^step \d+ \(turn \d+.*\): seat 1 /.test(h ? h.textContent : '')) {
          if (document.querySelector('#decision .chip.chosen')) shown++; else if (h && h.textContent.startsWith('step')) secret++;
        }
        const pile = document.querySelector('#table [data-key="discard"]');
        if (pile) { piles++; if (pile.querySelectorAll('.kv').length > 0) tall++; }
        if (document.querySelector('#table .legend')) legends++;
      }
    }
    out.push('json=' + json); out.push('turns=' + turns); out.push('others_shown=' + shown); out.push('others_secret=' + secret);
    out.push('piles=' + piles); out.push('tall_piles=' + tall); out.push('legends=' + legends);
    out.push('alternatives=' + alternatives); out.push('no_alternatives=' + none);
    slider.value = slider.max; slider.dispatchEvent(new Event('input'));
    const end = document.querySelector('#decision .end');
    out.push('end=' + (end ? end.textContent : ''));
  } catch (e) { window.__errors.push(String(e)); }
  out.push('errors=' + JSON.stringify(window.__errors));
  const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = out.join('\n');
  document.body.appendChild(pre);
}
</script>"###;

fn probe(browser: &PathBuf, variant: &str, seed: u64) -> std::collections::HashMap<String, String> {
    let v = Variant::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(variant), &[]).expect("loads");
    let (text, broken) = json_trace_of(&v, None, seed).expect("traces");
    assert!(broken.is_none());
    let page = replay_page::page("test", &text);
    assert!(!page.contains("http://") && !page.contains("https://"), "the page must need no network");
    // Errors of the page's own script are caught from the first line of the head on.
    let page = page
        .replacen("<head>", "<head><script>window.__errors = []; addEventListener('error', e => window.__errors.push(String(e.message)));</script>", 1)
        .replacen("</body>", &format!("{PROBE}</body>"), 1);
    let dir = std::env::temp_dir().join(format!("playtest-page-{}-{seed}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("page.html");
    std::fs::write(&file, page).unwrap();
    let out = Command::new(browser)
        // The virtual time budget lets the page's asynchronous unpacking finish before the dump.
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=30000", "--dump-dom"])
        .arg(format!("file://{}", file.display()))
        .output()
        .expect("chromium runs");
    std::fs::remove_dir_all(&dir).ok();
    let dom = String::from_utf8_lossy(&out.stdout);
    let found = dom.split("<pre id=\"probe\">").nth(1).and_then(|r| r.split("</pre>").next()).unwrap_or_else(|| panic!("no probe output: {dom:.2000}"));
    found.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.to_string(), v.replace("&quot;", "\""))).collect()
}

#[test]
fn the_replay_page_steps_through_the_game_and_hides_other_hands_in_chromium() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: no chromium found (install `chromium` or set PLAYTEST_CHROMIUM) — the replay page was not tested in a browser");
        return;
    };
    let r = probe(&browser, "variants/pig-farm/standard.toml", 5);
    assert_eq!(r["errors"], "[]", "{r:?}");
    assert!(r["start_pos"].starts_with("step 0 of "), "{r:?}");
    assert_eq!(r["forward_changes"], "true", "{r:?}");
    assert!(r["forward_pos"].starts_with("step 1 of ") && r["arrow_pos"].starts_with("step 2 of ") && r["back_pos"].starts_with("step 0 of "), "{r:?}");
    assert!(r["slider_pos"].starts_with("step 3 of "), "{r:?}");
    assert_eq!(r["chosen"], "1", "a decision shows its chosen action: {r:?}");
    // Everyone sees every hand; seat 1 sees its own only.
    let everyone: Vec<bool> = serde_json::from_str(&r["everyone_hidden"]).unwrap();
    let seat1: Vec<bool> = serde_json::from_str(&r["seat1_hidden"]).unwrap();
    assert!(everyone.len() >= 2 && everyone.iter().all(|h| !h), "{r:?}");
    assert_eq!(seat1, (0..everyone.len()).map(|s| s != 1).collect::<Vec<_>>(), "{r:?}");
    assert!(r["cards"].parse::<usize>().unwrap() > 10, "{r:?}");
    assert_eq!(r["chance_leaks"], "0", "{r:?}");
    // This game has decisions with one legal action (6 of 89): they list no alternatives,
    // while the others list theirs.
    assert_eq!(r["no_alternatives"], "0", "a decision with one legal action shows no \"it could instead (0)\": {r:?}");
    assert!(r["alternatives"].parse::<usize>().unwrap() > 10, "{r:?}");

    // A game with a reshuffle: its new order is hidden from seat 1 too.
    let r = probe(&browser, "variants/penny-badger/standard.toml", 1);
    assert_eq!(r["errors"], "[]", "{r:?}");
    assert!(r["reshuffles"].parse::<usize>().unwrap() >= 1, "{r:?}");
    assert_eq!(r["chance_leaks"], "0", "{r:?}");

    // The issue's game: every step in words, a compact discard pile, a legend for the wilds,
    // one turn number, views named for what they show, public plays seen by every seat.
    let r = probe(&browser, "variants/rainbow-rush/builders-vs-saboteurs.toml", playtest::engine::game_seed(2, 5));
    assert_eq!(r["errors"], "[]", "{r:?}");
    assert_eq!(r["json"], "0", "no raw JSON in the panels: {r:?}");
    assert_eq!(r["turns"], "0", "one turn number in the panels: {r:?}");
    assert!(r["view_names"].starts_with("[\"every secret shown\",\"seat 0's view"), "{r:?}");
    assert!(r["others_shown"].parse::<usize>().unwrap() > 10, "other seats' public plays are shown to seat 1: {r:?}");
    assert!(r["piles"].parse::<usize>().unwrap() > 0 && r["tall_piles"] == "0", "the discard pile as one row of cards: {r:?}");
    assert!(r["legends"].parse::<usize>().unwrap() > 0, "a legend for the wilds: {r:?}");
    assert!(r["end"].contains("The game ends by rainbow after 17 turns (34 decisions): seat 0 wins. Scores: seat 0 5"), "{r:?}");
    // Take a Penny's choices are secret until the round is revealed.
    let r = probe(&browser, "variants/take-a-penny/standard.toml", 3);
    assert_eq!(r["errors"], "[]", "{r:?}");
    assert_eq!(r["json"], "0", "{r:?}");
    assert!(r["others_secret"].parse::<usize>().unwrap() > 0, "another seat's secret choice is hidden from seat 1: {r:?}");

    let r = probe(&browser, "variants/bluffing-joker/no-bluffing.toml", 3);
    assert_eq!(r["errors"], "[]", "{r:?}");
    assert_eq!(r["forward_changes"], "true", "{r:?}");
    assert!(r["board"].parse::<usize>().unwrap() > 20, "the board is drawn: {r:?}");
}
