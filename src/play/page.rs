//! The page of `playtest play`: the table from the person's seat, drawn by the replay page's
//! own drawing ([`crate::report::replay_page::SCRIPT`]: cards, piles, board, dice, scores),
//! its legal actions as buttons in the game's words, the bots' turns narrated one action at a
//! time at the pace the person sets (step, or run on), and the search bot's advice on request.
//!
//! The page holds no game: it asks the server ([`super::server`]) for everything, sending the
//! token of its own address with every request. It sets `window.playReady`, a promise
//! settled once the first table is drawn, for scripts that drive it (`tests/play.rs`).

use crate::report::replay_page::{SCRIPT as DRAWING, STYLE as REPLAY_STYLE};

/// The page's HTML: titled `title`, showing the advice at every decision when `hints`, with
/// `extra` added at the end of the body (tests). The token is not written into the page (the
/// script reads it from the address), so a saved copy of the page holds no token.
pub fn page(title: &str, _token: &str, hints: bool, extra: &str) -> String {
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    TEMPLATE
        .replace("{{TITLE}}", &title)
        .replace("{{STYLE}}", &format!("{REPLAY_STYLE}{STYLE}"))
        .replace("{{DRAWING}}", DRAWING)
        .replace("{{SCRIPT}}", &SCRIPT.replace("{{HINTS}}", if hints { "true" } else { "false" }))
        .replace("{{EXTRA}}", extra)
}

const TEMPLATE: &str = r###"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>{{TITLE}}: your seat</title>
<style>{{STYLE}}</style>
</head>
<body>
<header>
  <h1>{{TITLE}} <span id="whoami" class="muted"></span></h1>
  <div id="controls">
    <span id="turn"></span>
    <label title="step: one bot action per click; run on: the bots play on by themselves">pace
      <select id="pace"><option value="step">step</option><option value="run">run on</option></select></label>
    <button id="next" title="show the next bot action (space)">next &#9654;</button>
    <button id="hint" title="the search bot's estimate of your win chance after each action">advice</button>
    <label>iterations <input id="iterations" type="number" min="1" max="200000" value="2000" style="width:6em"></label>
    <label><input id="autohint" type="checkbox"> advice at every turn</label>
  </div>
</header>
<main>
  <div id="message"></div>
  <section id="you"></section>
  <section id="advice"></section>
  <div id="layout">
    <section id="table"></section>
    <section id="log"><h3>what you saw happen</h3><ol id="entries"></ol></section>
  </div>
</main>
<script>{{DRAWING}}</script>
<script>{{SCRIPT}}</script>
{{EXTRA}}
</body>
</html>
"###;

const STYLE: &str = r###"
#layout { display: flex; gap: 12px; align-items: flex-start; }
#table { flex: 3; }
#log { flex: 2; max-height: 70vh; overflow: auto; background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 6px 8px; font-size: 12px; }
#log h3 { font-size: 13px; margin: 0 0 4px; }
#entries { padding-left: 22px; margin: 0; }
#entries li { margin: 2px 0; }
#entries li.mine { color: #8a4b00; font-weight: 600; }
#entries li.latest { background: #fff3d6; }
#message { min-height: 18px; font-size: 13px; }
#message.error { color: #b00020; font-weight: 600; }
#you .actions { display: flex; flex-wrap: wrap; gap: 4px; max-height: 180px; overflow: auto; }
button.act { font-size: 12px; border: 1px solid #d08000; background: #fff7e6; border-radius: 12px; padding: 3px 9px; cursor: pointer; }
button.act:hover { background: #ffd27a; }
button.act:disabled { opacity: 0.5; cursor: default; }
button.act.best { border-width: 2px; font-weight: 600; }
#advice table { border-collapse: collapse; font-size: 12px; }
#advice td, #advice th { padding: 2px 6px; text-align: left; border-bottom: 1px solid #eee; }
.bar { display: inline-block; height: 9px; background: #d08000; vertical-align: middle; }
.bar.ci { background: #f0c070; }
"###;

const SCRIPT: &str = r###"
'use strict';
const TOKEN = new URLSearchParams(location.search).get('token') || '';
let status = null;          // the server's last /api/state
let entries = [];           // the narration fetched so far
let shown = 0;              // how many of them are on the page
let busy = false;           // a request is in flight
let runTimer = null;
const $ = id => document.getElementById(id);

async function api(method, path, body) {
  const url = path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(TOKEN);
  const r = await fetch(url, { method, headers: { 'Content-Type': 'application/json', 'X-Playtest-Token': TOKEN }, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  let data;
  try { data = await r.json(); } catch (e) { data = { error: 'the server gave no JSON answer (' + r.status + ')' }; }
  if (!r.ok) { const err = new Error(data.error || String(r.status)); err.status = r.status; throw err; }
  return data;
}
function say(text, error) { const m = $('message'); m.textContent = text || ''; m.className = error ? 'error' : ''; }

async function refresh() {
  status = await api('GET', '/api/state');
  // The replay page's drawing reads the seats' names from `start`.
  start = { game: status.game, variant_name: status.variant, seats: status.seats.map((bot, seat) => ({ seat, bot: seat === status.seat ? 'you' : bot })) };
  const fresh = await api('GET', '/api/events?since=' + entries.length);
  entries = entries.concat(fresh.events);
  if (shown === 0) shown = entries.length;   // a page (re)opened shows the game so far at once
}
function pending() { return shown < entries.length; }

function entryText(e) {
  const who = e.seat === null ? 'the deal' : (e.seat === status.seat ? 'you' : 'seat ' + e.seat + ' (' + e.who + ')');
  let t = who + ': ';
  if (e.action) t += e.action + (e.events.length ? ' — ' : '');
  t += e.events.length ? e.events.join('; ') : (e.action ? '' : 'decided (nothing you can see)');
  if (e.chance.length) t += ' [chance: ' + e.chance.map(c => actionText(c)).join('; ') + ']';
  return t;
}

function render() {
  const turn = $('turn');
  const seatName = 'seat ' + status.seat;
  $('whoami').textContent = '— you play ' + seatName + ', game seed ' + status.seed;
  const view = pending() ? entries[shown - 1].view : status.view;
  const active = pending() ? -1 : (status.to_move === null ? -1 : status.to_move);
  $('table').innerHTML = renderTable(view, active);
  const list = $('entries');
  list.innerHTML = entries.slice(0, shown).map((e, i) => `<li class="${e.seat === status.seat ? 'mine' : ''}${i === shown - 1 ? ' latest' : ''}">${esc(entryText(e))}</li>`).join('');
  $('log').scrollTop = $('log').scrollHeight;
  const you = $('you');
  if (status.over && !pending()) {
    turn.textContent = 'game over';
    you.innerHTML = `<div class="panel"><h3>the game is over</h3>${valueHtml(status.end)}<div class="muted">saved as a trace: replay it with <code>playtest replay FILE</code></div></div>`;
  } else if (status.your_turn && !pending()) {
    turn.innerHTML = '<b>your turn</b> (step ' + status.step + ')';
    you.innerHTML = `<div class="panel" style="display:block"><h3>your choices (${status.legal.length})</h3><div class="actions">` +
      status.legal.map(a => `<button class="act" data-index="${a.index}" title="${esc(JSON.stringify(a.action))}">${esc(a.label)}</button>`).join('') + '</div></div>';
    for (const b of you.querySelectorAll('button.act')) b.addEventListener('click', () => play(Number(b.dataset.index)));
  } else {
    turn.textContent = pending() ? `bots are playing (${entries.length - shown} action(s) to show)` : `seat ${status.to_move}'s turn (${status.seats[status.to_move]})`;
    you.innerHTML = '';
  }
  $('next').disabled = busy || !(pending() || (!status.your_turn && !status.over));
  $('hint').disabled = busy || !status.your_turn || pending();
  if (!(status.your_turn && !pending())) $('advice').innerHTML = '';
}

async function play(index) {
  if (busy) return;
  const a = status.legal.find(x => x.index === index);
  busy = true;
  for (const b of document.querySelectorAll('button.act')) b.disabled = true;
  try {
    await api('POST', '/api/action', { action: a.action, step: status.step });
    say('');
    await refresh();
    shown = entries.length;
  } catch (e) { say('refused: ' + e.message, true); await refresh(); }
  busy = false;
  render();
  afterChange();
}

// One step of the narration: show the next fetched entry, or ask for the next bot action.
async function next() {
  if (busy) return;
  if (pending()) { shown++; render(); afterChange(); return; }
  if (status.your_turn || status.over) return;
  busy = true; render();
  try { await api('POST', '/api/advance'); await refresh(); if (pending()) shown++; say(''); }
  catch (e) { say('refused: ' + e.message, true); await refresh(); }
  busy = false;
  render();
  afterChange();
}

function afterChange() {
  if ($('pace').value === 'run' && !busy && (pending() || (!status.your_turn && !status.over))) {
    clearTimeout(runTimer);
    runTimer = setTimeout(next, 700);
  }
  if ($('autohint').checked && status.your_turn && !pending() && !busy && $('advice').dataset.step !== String(status.step)) hint();
}

async function hint() {
  if (busy || !status.your_turn) return;
  busy = true; render();
  $('advice').innerHTML = '<div class="muted">the search bot is thinking...</div>';
  try {
    const n = Math.max(1, Math.min(200000, Number($('iterations').value) || 2000));
    const h = await api('POST', '/api/hints?iterations=' + n);
    const rows = h.actions.slice().sort((x, y) => (y.win ?? -1) - (x.win ?? -1));
    const pct = x => (100 * x).toFixed(1) + '%';
    let html = `<div class="panel" style="display:block"><h3>advice: the search bot's estimate of your win chance after each action</h3>` +
      `<div class="muted">${h.iterations} iterations in ${h.millis} ms, each on a sample of what you cannot see (never the real hidden cards); 95% intervals over each action's iterations. The search bot would play: <b>${esc((h.actions.find(x => JSON.stringify(x.action) === JSON.stringify(h.choice)) || { label: actionText(h.choice) }).label)}</b></div><table><tr><th>action</th><th>win chance</th><th>95% interval</th><th>iterations</th></tr>`;
    for (const r of rows.slice(0, 12)) {
      const bar = r.win === null ? '' : `<span class="bar" style="width:${Math.round(120 * r.win)}px"></span>`;
      html += `<tr><td>${esc(r.label)}</td><td>${r.win === null ? '<span class="muted">not tried</span>' : pct(r.win)} ${bar}</td><td>${r.interval ? pct(r.interval[0]) + ' – ' + pct(r.interval[1]) : ''}</td><td>${r.iterations}</td></tr>`;
    }
    if (rows.length > 12) html += `<tr><td colspan="4" class="muted">and ${rows.length - 12} more actions, each at most ${pct(rows[12].win ?? 0)}</td></tr>`;
    if (h.iterations === 0) html += '<tr><td colspan="4" class="muted">your only legal action: nothing to weigh</td></tr>';
    $('advice').innerHTML = html + '</table></div>';
    $('advice').dataset.step = String(status.step);
    const best = JSON.stringify(h.choice);
    for (const b of document.querySelectorAll('button.act')) if (JSON.stringify(status.legal[Number(b.dataset.index)].action) === best) b.classList.add('best');
  } catch (e) { $('advice').innerHTML = ''; say('advice refused: ' + e.message, true); }
  busy = false;
  $('next').disabled = !(pending() || (!status.your_turn && !status.over));
  $('hint').disabled = false;
}

$('next').addEventListener('click', next);
$('hint').addEventListener('click', hint);
$('pace').addEventListener('change', afterChange);
$('autohint').checked = {{HINTS}};
$('autohint').addEventListener('change', afterChange);
document.addEventListener('keydown', e => { if (e.key === ' ' && e.target === document.body) { next(); e.preventDefault(); } });
window.playReady = refresh().then(() => { render(); afterChange(); }, e => { say('cannot reach the table: ' + e.message, true); throw e; });
"###;
