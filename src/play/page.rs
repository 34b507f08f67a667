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
#you .actions { max-height: 220px; overflow: auto; }
#you .group { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 2px 0; }
#you .verb { font-size: 12px; color: #777; min-width: 50px; }
.card.picked { outline: 3px solid #1565c0; outline-offset: 1px; transform: translateY(-3px); }
#turn { font-size: 14px; }
.sentence.end { font-size: 15px; margin: 4px 0; }
button.act { font-size: 12px; border: 1px solid #d08000; background: #fff7e6; border-radius: 12px; padding: 3px 9px; cursor: pointer; }
button.act:hover { background: #ffd27a; }
button.act:disabled { opacity: 0.5; cursor: default; }
button.act.best { border-width: 2px; font-weight: 600; }
#advice table { border-collapse: collapse; font-size: 12px; }
#advice td, #advice th { padding: 2px 6px; text-align: left; border-bottom: 1px solid #eee; }
.bar { display: inline-block; height: 9px; background: #d08000; vertical-align: middle; }
.bar.ci { background: #f0c070; }
#advice tr.pick td { background: #fff3d6; }
#advice tr.level td { background: #fbf8ef; }
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

// The name of seat k on this page: "you", or "seat k (its bot)".
function seatName(k) { return k === status.seat ? 'you (seat ' + k + ')' : 'seat ' + k + ' (' + status.seats[k] + ')'; }
// The base form of a verb in the third person ("plays" play, "passes" pass, "is" are).
function baseForm(v) {
  const irregular = { is: 'are', was: 'were', has: 'have', does: 'do', goes: 'go' };
  if (irregular[v]) return irregular[v];
  if (/ies$/.test(v)) return v.slice(0, -3) + 'y';
  if (/(ss|sh|ch|x|z)es$/.test(v)) return v.slice(0, -2);
  return /[^s]s$/.test(v) ? v.slice(0, -1) : v;
}
// A sentence of the text trace as the person reads it: the trace's layout marks dropped, and
// the person's own seat as "you" ("seat 0 plays 7" reads "you play 7", "seat 0's" and
// "cup of seat 0" "your").
function logSentence(t) {
  const k = status.seat;
  t = t.replace(/^[-=]+\s*/, '');
  t = t.replace(new RegExp('\\bseat ' + k + "'s\\b", 'g'), 'your');
  // A rules file names a seat's zone "cup of seat 0": the person's own reads "your cup".
  t = t.replace(new RegExp('\\b([a-z_]+) of seat ' + k + '\\b', 'g'), (m, zone) => 'your ' + zone.replace(/_/g, ' '));
  t = t.replace(new RegExp('(^|; |: )seat ' + k + ' ([A-Za-z]+)([^;]*)', 'g'), (m, pre, verb, rest) =>
    pre + 'you ' + (verb === verb.toUpperCase() ? baseForm(verb.toLowerCase()) : baseForm(verb)) +
    rest.replace(/\bits\b/g, 'your').replace(/ (and|or) ([a-z]+) (it|them|the|a)\b/g, (x, c, v, o) => ' ' + c + ' ' + baseForm(v) + ' ' + o));
  return t.replace(new RegExp('\\bseat ' + k + '\\b', 'g'), 'you');
}
function entryText(e) {
  const said = e.events.map(logSentence).filter(t => t);
  if (e.seat === status.seat && e.action && !said.some(t => t.startsWith('you ') || t.startsWith('your '))) said.unshift('you: ' + e.action);
  if (e.seat === null) return said.length ? said.join('; ') : 'the cards are dealt';
  return said.length ? said.join('; ') : seatName(e.seat) + ' decided (nothing you can see)';
}
// The team of seat k (its seats), or null in a game without teams.
function teamOf(k) { return (status.teams || []).find(t => t.includes(k)) || null; }
// The end as a sentence: why, who wins (a team as a team), the final scores.
function endSentence() {
  const e = status.end || {};
  if (e.violation) return 'The game stopped: a rule broke after step ' + e.step + ': ' + e.violation + '.';
  const w = (e.winners || []).map(x => x.seat);
  const words = status.words || {};
  let who;
  const team = w.length ? teamOf(w[0]) : null;
  const name = k => k === status.seat ? 'you' : 'seat ' + k;
  if (w.length === 0) who = 'nobody wins';
  else if (team && w.length === team.length && w.every(x => team.includes(x))) who = 'the team of ' + seatsText(team.map(name)) + ' wins' + (team.includes(status.seat) ? ' (your team)' : '');
  else if (w.length === 1) who = w[0] === status.seat ? 'you win' : 'seat ' + w[0] + ' wins';
  else who = seatsText(w.map(name)) + ' share the win';
  const why = words.end ? words.end : String(e.reason || '').replace(/_/g, ' ');
  const scores = (e.scores || []).map((x, k) => name(k) + ' ' + x).join(', ');
  return `The game is over after ${e.length} ${status.length_unit}: ${why}. ${who.charAt(0).toUpperCase() + who.slice(1)}. Final scores: ${scores}.`;
}

function drawTable(view, words, scores, active) {
  if (words) return renderWords(view, words, scores, active, seatName, status.standing_unit);
  return renderTable(view, active);
}
// The choices, grouped by their first word ("play", "stab", "draw"), in the game's words.
function choicesHtml() {
  const groups = new Map();
  for (const a of status.legal) {
    const verb = a.label.split(' ')[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(a);
  }
  let html = '';
  for (const [verb, list] of groups) {
    html += `<div class="group"><span class="verb">${esc(verb)}</span>` + list.map(a => `<button class="act" data-index="${a.index}">${esc(a.label)}</button>`).join('') + '</div>';
  }
  return html;
}
// Cards picked in your hand: the choices shown are those that name them all ("play [2 x 7]"
// names 7 twice). Reset when the table moves on.
let picked = [], pickedStep = -1;
function nameCount(label, name) {
  const q = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let n = 0;
  for (const m of label.matchAll(new RegExp('(?:(\\d+) x )?(?<![\\w-])' + q + '(?![\\w-])(?! x )', 'g'))) n += m[1] ? Number(m[1]) : 1;
  return n;
}
function filterChoices() {
  const need = {};
  for (const name of picked) need[name] = (need[name] || 0) + 1;
  let shown = 0;
  for (const b of document.querySelectorAll('#you button.act')) {
    const ok = Object.keys(need).every(n => nameCount(b.textContent, n) >= need[n]);
    b.style.display = ok ? '' : 'none';
    if (ok) shown++;
  }
  for (const g of document.querySelectorAll('#you .group')) g.style.display = [...g.querySelectorAll('button.act')].some(b => b.style.display !== 'none') ? '' : 'none';
  const note = $('picknote');
  if (note) note.textContent = picked.length ? `${shown} of ${status.legal.length} choices use the picked cards (${picked.join(', ')}); click a picked card again to put it back` : (status.legal.length > 8 ? 'pick cards in your hand to see the choices that play them' : '');
}
function wirePicking() {
  if (pickedStep !== status.step) { picked = []; pickedStep = status.step; }
  const cards = [...document.querySelectorAll('#table .player[data-seat="' + status.seat + '"] .zone.hand .card[title]')];
  cards.forEach((c, i) => {
    c.style.cursor = 'pointer';
    c.addEventListener('click', () => {
      const name = c.getAttribute('title');
      if (c.classList.toggle('picked')) picked.push(name); else picked.splice(picked.indexOf(name), 1);
      filterChoices();
    });
  });
  filterChoices();
}
function render() {
  const turn = $('turn');
  $('whoami').textContent = '— you play seat ' + status.seat + (teamOf(status.seat) ? ' (your team: ' + seatsText(teamOf(status.seat).map(k => 'seat ' + k)) + ')' : '') + ', game seed ' + status.seed;
  const e = pending() ? entries[shown - 1] : null;
  const view = e ? e.view : status.view;
  const words = e ? e.words : status.words;
  const scores = e ? e.scores : status.scores;
  const active = pending() ? -1 : (status.to_move === null ? -1 : status.to_move);
  $('table').innerHTML = drawTable(view, words, scores, active);
  const list = $('entries');
  // The last 200 entries (a long game's whole log would be redrawn at every action).
  const first = Math.max(0, shown - 200);
  list.start = first + 1;
  list.innerHTML = entries.slice(first, shown).map((e, j) => `<li class="${e.seat === status.seat ? 'mine' : ''}${first + j === shown - 1 ? ' latest' : ''}">${esc(entryText(e))}</li>`).join('');
  $('log').scrollTop = $('log').scrollHeight;
  const you = $('you');
  const now = words && words.now ? words.now : '';
  if (status.over && !pending()) {
    turn.textContent = 'game over';
    you.innerHTML = `<div class="panel" style="display:block"><h3>the game is over</h3><div class="sentence end">${esc(endSentence())}</div><div class="muted">The game is saved as a trace: replay it with <code>playtest replay FILE</code>. The server keeps serving this page until you stop it with Ctrl-C in the terminal.</div></div>`;
  } else if (status.your_turn && !pending()) {
    turn.innerHTML = '<b>your turn</b>' + (now ? ': ' + esc(logSentence(now)) : '');
    you.innerHTML = `<div class="panel" style="display:block"><h3>your choices (${status.legal.length})</h3><div id="picknote" class="muted"></div><div class="actions">` + choicesHtml() + '</div></div>';
    for (const b of you.querySelectorAll('button.act')) b.addEventListener('click', () => play(Number(b.dataset.index)));
    wirePicking();
  } else {
    turn.textContent = pending() ? `the bots are playing (${entries.length - shown} action(s) to show)` : `waiting for ${seatName(status.to_move)}` + (now ? ': ' + logSentence(now) : '');
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

// The advice rows: the search's pick first, then the others by estimate; each in the game's
// words; a team game's chances as the team's (a seat's share of a team win times the team's size).
function adviceRows(h) {
  const team = teamOf(status.seat), scale = team ? team.length : 1;
  const wordsOf = a => { const j = JSON.stringify(a); const l = status.legal.find(x => JSON.stringify(x.action) === j); return l ? l.label : actionText(a); };
  const pick = JSON.stringify(h.choice);
  const rows = h.actions.map(r => ({
    label: wordsOf(r.action), action: r.action, iterations: r.iterations, pick: JSON.stringify(r.action) === pick,
    win: r.win === null ? null : Math.min(1, r.win * scale), interval: r.interval ? [Math.min(1, r.interval[0] * scale), Math.min(1, r.interval[1] * scale)] : null,
  }));
  rows.sort((x, y) => (y.pick - x.pick) || ((y.win ?? -1) - (x.win ?? -1)));
  const best = rows[0];
  for (const r of rows) r.level = !r.pick && r.interval !== null && best.interval !== null && r.interval[1] >= best.interval[0] && r.interval[0] <= best.interval[1];
  return rows;
}
function adviceHtml(h, note) {
  const team = teamOf(status.seat);
  const rows = adviceRows(h);
  const pct = x => (100 * x).toFixed(1) + '%';
  const level = rows.filter(r => r.level).length;
  const whose = team ? "your team's" : 'your';
  let html = `<div class="panel" style="display:block"><h3>advice: the search bot's estimate of ${whose} win chance after each action</h3>`;
  if (h.iterations === 0) return html + '<div class="muted">your only legal action: nothing to weigh</div></div>';
  html += `<div class="sentence">The search would play <b>${esc(rows[0].label)}</b>` +
    (level ? `, but <b>${level + 1} actions are level</b> (these ${level + 1}: their 95% intervals overlap the pick's, so the search cannot tell them apart at ${h.iterations} iterations).` : ': no other action\'s interval overlaps its own.') + '</div>';
  if (note) html += `<div class="sentence">${esc(note)}</div>`;
  if (level) html += `<button id="more" title="search again with four times the iterations, until the pick separates or ${MORE_LIMIT} iterations">more iterations until it separates</button>`;
  html += `<div class="muted">${h.iterations} iterations in ${h.millis} ms, each on a sample of what you cannot see (never the real hidden cards); 95% intervals over each action's iterations${team ? '; a team win counts for the whole team' : ''}.</div><table><tr><th>action</th><th>win chance</th><th>95% interval</th><th>iterations</th><th></th></tr>`;
  for (const r of rows.slice(0, 12)) {
    const bar = r.win === null ? '' : `<span class="bar" style="width:${Math.round(120 * r.win)}px"></span>`;
    const tag = r.pick ? '<b>the pick</b>' : r.level ? 'level with the pick' : '';
    html += `<tr class="${r.pick ? 'pick' : r.level ? 'level' : ''}"><td>${esc(r.label)}</td><td>${r.win === null ? '<span class="muted">not tried</span>' : pct(r.win)} ${bar}</td><td>${r.interval ? pct(r.interval[0]) + ' – ' + pct(r.interval[1]) : ''}</td><td>${r.iterations}</td><td>${tag}</td></tr>`;
  }
  if (rows.length > 12) html += `<tr><td colspan="5" class="muted">and ${rows.length - 12} more actions, each at most ${pct(rows[12].win ?? 0)}</td></tr>`;
  return html + '</table></div>';
}
const MORE_LIMIT = 64000;
async function hint(more) {
  if (busy || !status.your_turn) return;
  busy = true; render();
  $('advice').innerHTML = '<div class="muted">the search bot is thinking...</div>';
  try {
    let n = Math.max(1, Math.min(200000, Number($('iterations').value) || 2000));
    let h = await api('POST', '/api/hints?iterations=' + n), note = '';
    if (more === true) {
      // Four times the iterations each round, until no action is level with the pick or the limit.
      while (adviceRows(h).some(r => r.level) && n < MORE_LIMIT) {
        n = Math.min(MORE_LIMIT, n * 4);
        $('advice').innerHTML = `<div class="muted">the search bot is thinking again with ${n} iterations...</div>`;
        h = await api('POST', '/api/hints?iterations=' + n);
      }
      $('iterations').value = String(n);
      note = adviceRows(h).some(r => r.level) ? `Stopped at the limit of ${MORE_LIMIT} iterations: the pick has not separated; the level actions are about as good.` : `The pick separated from every other action at ${n} iterations.`;
    }
    $('advice').innerHTML = adviceHtml(h, note);
    $('advice').dataset.step = String(status.step);
    const m = $('more');
    if (m) m.addEventListener('click', () => hint(true));
    const best = JSON.stringify(h.choice);
    for (const b of document.querySelectorAll('button.act')) if (JSON.stringify(status.legal[Number(b.dataset.index)].action) === best) b.classList.add('best');
  } catch (e) { $('advice').innerHTML = ''; say('advice refused: ' + e.message, true); }
  busy = false;
  $('next').disabled = !(pending() || (!status.your_turn && !status.over));
  $('hint').disabled = false;
}

$('next').addEventListener('click', next);
$('hint').addEventListener('click', () => hint(false));
$('pace').addEventListener('change', afterChange);
$('autohint').checked = {{HINTS}};
$('autohint').addEventListener('change', afterChange);
document.addEventListener('keydown', e => { if (e.key === ' ' && e.target === document.body) { next(); e.preventDefault(); } });
window.playReady = refresh().then(() => { render(); afterChange(); }, e => { say('cannot reach the table: ' + e.message, true); throw e; });
"###;
