//! The replay page of one traced game (`playtest trace ... --html FILE`, and the typical game
//! `report` links from `index.html`): one self-contained HTML file (no server, no network,
//! opens from disk) holding the JSON trace and a small script that lays the table out as it
//! stands after each event.
//!
//! The trace is inside the page gzip-compressed and base64-encoded: a trace repeats the whole
//! table after every action, which compresses 10 to 50 times, so even the longest bundled
//! games fit a small page. The page unpacks it with the browser's own `DecompressionStream`
//! (Chrome and Edge 80, Firefox 113, Safari 16.4 or later); a browser without one gets a
//! message saying so instead of the table.
//!
//! The page knows no game by name. It draws what the trace's states hold: scalar fields as a
//! header (turn, phase, whose turn), `players` as one panel per seat, lists of card names as
//! cards (Chroma cards as small coloured shapes, playing cards and Beaver Mania's numbers as
//! numbers and suits), `dice` as dice and a `board` with `pegs`, `track` and `come_out` as a
//! board drawing (Bluffing Joker). Back / forward buttons, the arrow keys and a slider step
//! through the events; each step shows the decision with its legal alternatives beside the
//! chosen one, the chance events and the end, in words (actions and chance results in the
//! game's trace notation written out, cards drawn as cards, a legend for the icons drawn).
//! The view "every secret shown" shows the whole table; "seat k's view" hides what seat k
//! cannot see (the trace's `secrets`, as `replay` and the decisions' views hide them), the
//! other seats' alternatives, their choices unless public (what they name comes into view or
//! leaves it), the cards other seats draw or are dealt in the chance events, and the new
//! order of a reshuffled pile. A trace that stops before the game's end (a game `play` saved
//! part-way) ends with a step saying it was abandoned.
//!
//! The page's script sets `window.replayReady`, a promise settled once the trace is unpacked
//! and the first step shown (rejected when it cannot be), for scripts that drive the page
//! (`tests/replay_page.rs`).

use std::io::Write;
use std::path::Path;

use base64::Engine;
use flate2::Compression;
use flate2::write::GzEncoder;

use crate::error::Error;

/// Writes the replay page of the JSON Lines trace `trace` into `file`, titled `title`, with
/// the game's words for every step when given (see [`page_with_words`]).
pub fn write(file: &Path, title: &str, trace: &str, words: Option<&serde_json::Value>) -> Result<(), Error> {
    std::fs::write(file, page_with_words(title, trace, words)).map_err(|e| Error::output(file, e))
}

/// Writes the replay page of the JSON Lines trace `trace` read from `source` into `file`
/// (`replay --html`), titled from its `start` line as `trace --html` titles one.
pub fn write_trace(file: &Path, source: &Path, trace: &str, words: Option<&serde_json::Value>) -> Result<(), Error> {
    let start = trace.lines().find(|l| !l.trim().is_empty()).and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok());
    let title = match start {
        Some(s) if s["type"] == "start" => {
            format!("{} / {}: game seed {}", s["game"].as_str().unwrap_or("?"), s["variant_name"].as_str().unwrap_or("?"), s["game_seed"])
        }
        _ => source.display().to_string(),
    };
    write(file, &title, trace, words)
}

/// The page's HTML text (see the module doc).
pub fn page(title: &str, trace: &str) -> String {
    page_with_words(title, trace, None)
}

/// The page's HTML text with the game's words for every step (the sentences of the text
/// trace, the alternatives in words, the table in the game's words and the scores: what the
/// game's handle makes of the trace, [`crate::games::GameHandle::trace_words`]), packed as
/// the trace is; without them the page draws the trace's states field by field.
pub fn page_with_words(title: &str, trace: &str, words: Option<&serde_json::Value>) -> String {
    let title = title.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let words = words.map_or(String::new(), |w| {
        format!(r#"<script type="application/octet-stream" id="words" data-encoding="gzip+base64">{}</script>"#, packed(&w.to_string()))
    });
    TEMPLATE
        .replace("{{TITLE}}", &title)
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT)
        .replace("{{WORDS}}", &words)
        .replace("{{DATA}}", &packed(trace))
}

/// The trace as the page holds it: gzip (best compression; the header carries no time or
/// name, so the same trace always gives the same page) in base64, which HTML takes verbatim.
fn packed(trace: &str) -> String {
    let mut gz = GzEncoder::new(Vec::with_capacity(trace.len() / 8), Compression::best());
    // Writing into memory cannot fail.
    gz.write_all(trace.as_bytes()).expect("gzip into memory");
    let bytes = gz.finish().expect("gzip into memory");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The JSON Lines trace inside a page [`page`] wrote (unpacked as the page's script unpacks
/// it), or `None` for a text that holds no such trace.
pub fn trace_in(html: &str) -> Option<String> {
    let (_, rest) = html.split_once(r#"id="trace" data-encoding="gzip+base64">"#)?;
    let (data, _) = rest.split_once("</script>")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data.trim()).ok()?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(bytes.as_slice()), &mut text).ok()?;
    Some(text)
}

const TEMPLATE: &str = r###"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>{{STYLE}}</style>
</head>
<body>
<header>
  <h1>{{TITLE}}</h1>
  <div id="controls">
    <button id="back" title="back (left arrow)">&#9664; back</button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="event">
    <button id="forward" title="forward (right arrow)">forward &#9654;</button>
    <span id="position"></span>
    <label>jump to turn <input id="turnjump" type="number" min="0" style="width:5em"></label>
    <label>view <select id="seat"><option value="all">every secret shown</option></select></label>
  </div>
</header>
<main>
  <section id="decision"></section>
  <section id="table"></section>
</main>
<script type="application/octet-stream" id="trace" data-encoding="gzip+base64">{{DATA}}</script>
{{WORDS}}
<script>{{SCRIPT}}</script>
</body>
</html>
"###;

/// The page's style sheet (also the `play` page's, which draws the table the same way).
pub const STYLE: &str = r###"
body { font-family: system-ui, sans-serif; margin: 0; color: #222; background: #f6f5f1; }
header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; padding: 6px 12px; z-index: 2; }
h1 { font-size: 16px; margin: 2px 0 6px; }
#controls { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
#slider { flex: 1; min-width: 200px; }
main { padding: 10px 12px; }
section { margin-bottom: 12px; }
.panel { background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: 6px 8px; margin: 4px; display: inline-block; vertical-align: top; }
.panel.active { border: 2px solid #d08000; }
.panel h3 { font-size: 13px; margin: 0 0 4px; }
.kv { font-size: 12px; margin: 1px 0; }
.kv b { font-weight: 600; }
.cards { display: flex; flex-wrap: wrap; gap: 2px; align-items: center; }
.card { display: inline-flex; align-items: center; justify-content: center; min-width: 22px; height: 30px; padding: 0 3px; border: 1px solid #999; border-radius: 4px; background: #fff; font-size: 12px; }
.card svg { display: block; }
.card.red { color: #c00; }
.card.hidden, .hidden { background: repeating-linear-gradient(45deg, #889 0 4px, #aab 4px 8px); color: #fff; font-size: 11px; padding: 0 4px; border-radius: 4px; }
.chip { display: inline-block; font-size: 12px; border: 1px solid #bbb; border-radius: 10px; padding: 1px 6px; margin: 1px; background: #fafafa; }
.chip.chosen { background: #ffd27a; border-color: #d08000; font-weight: 600; }
.chance { font-size: 12px; color: #225; }
.die { display: inline-block; border: 2px solid #444; border-radius: 5px; padding: 3px 6px; margin: 2px; background: #fff; font-size: 12px; }
#decision .legal { max-height: 160px; overflow: auto; }
.muted { color: #777; font-size: 12px; }
.tagged { display: inline-flex; flex-direction: column; align-items: center; }
.tagged small { font-size: 9px; color: #a40; }
.sentence { font-size: 13px; margin: 2px 0; }
.legend .kv { display: flex; gap: 6px; align-items: center; }
.card.back { background: repeating-linear-gradient(45deg, #35508a 0 4px, #4a67a8 4px 8px); border-color: #2a3f6e; min-width: 18px; }
.tagged.top .card, .play.top { outline: 2px solid #d08000; outline-offset: 1px; }
.play { display: inline-flex; align-items: center; gap: 1px; border: 1px solid #ddd; border-radius: 5px; padding: 2px; margin-right: 4px; }
.play small { font-size: 9px; color: #a40; margin-left: 2px; }
.words .goal { font-size: 13px; }
.words .facts { margin-top: 4px; }
.zones, .seats { display: flex; flex-wrap: wrap; align-items: flex-start; }
.zone .zname { display: inline-block; min-width: 90px; color: #555; }
.player .score { font-size: 14px; margin: 2px 0 4px; }
.turnmark { font-size: 11px; background: #d08000; color: #fff; border-radius: 8px; padding: 1px 6px; }
"###;

/// The page's script: the drawing of a state (`renderTable`, `valueHtml`, `cardHtml`, ...)
/// and, on a page holding a trace, its start-up. The `play` page includes it for the drawing
/// (it has no trace element, so the start-up is skipped).
pub const SCRIPT: &str = r###"
'use strict';
// The trace, unpacked: base64, then gzip through the browser's own DecompressionStream.
async function unpack(id) {
  if (typeof DecompressionStream === 'undefined') throw new Error('this browser has no DecompressionStream to unpack the trace: open the page in Chrome or Edge 80, Firefox 113, Safari 16.4 or later');
  const packed = atob(document.getElementById(id).textContent.trim());
  const bytes = new Uint8Array(packed.length);
  for (let i = 0; i < packed.length; i++) bytes[i] = packed.charCodeAt(i);
  return await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}
async function readTrace() {
  const text = await unpack('trace');
  return text.split('\n').filter(l => l.trim()).map(l => JSON.parse(l));
}
// The game's words for every step (the sentences, the alternatives, the table, the scores),
// when the page holds them; null otherwise (the states are then drawn field by field).
let said = null;
async function readWords() { return document.getElementById('words') ? JSON.parse(await unpack('words')) : null; }
let start = null, secrets = [];
// Steps: 0 = the table after set-up; then one per state line, with the decision and chance
// events that led to it.
let steps = [];
function load(lines) {
  start = lines[0];
  secrets = (start.secrets || []).map(p => p.split('/').filter(x => x));
  steps = [{ state: start.state, decision: null, chance: [], label: 'set-up' }];
  let pendingDecision = null, pendingChance = [];
  for (const l of lines.slice(1)) {
    if (l.type === 'chance') {
      if (steps.length === 1 && !pendingDecision) steps[0].chance.push(l); else pendingChance.push(l);
    } else if (l.type === 'decision') { pendingDecision = l; }
    else if (l.type === 'state') {
      steps.push({ state: l.state, decision: pendingDecision, chance: pendingChance, label: 'step ' + l.step });
      pendingDecision = null; pendingChance = [];
    } else if (l.type === 'end' || l.type === 'violation') { steps[steps.length - 1].end = l; }
  }
  // A trace that stops between two actions with no end (a game `play` saved before its end).
  if (!steps[steps.length - 1].end && !pendingDecision) steps[steps.length - 1].end = { type: 'abandoned', decisions: lines.filter(l => l.type === 'decision').length };
}
let current = 0;
let seat = 'all';

function hide(v, parts, k) {
  if (parts.length === 0) return Array.isArray(v) ? { hidden: v.length } : 'hidden';
  const [first, ...rest] = parts;
  if (v === null || typeof v !== 'object') return v;
  if (first === '*' || first === '[]') {
    if (Array.isArray(v)) return v.map((x, i) => (first === '*' && i === k) ? x : hide(x, rest, k));
    const out = {};
    for (const key of Object.keys(v)) out[key] = (first === '*' && Number(key) === k) ? v[key] : hide(v[key], rest, k);
    return out;
  }
  if (Array.isArray(v)) { const i = Number(first); if (!(i < v.length)) return v; const c = v.slice(); c[i] = hide(c[i], rest, k); return c; }
  if (!(first in v)) return v;
  const c = Object.assign({}, v); c[first] = hide(c[first], rest, k); return c;
}
function seenBy(state) {
  if (seat === 'all') return state;
  let s = state;
  for (const p of secrets) s = hide(s, p, Number(seat));
  return s;
}

const COLORS = { red: '#d32f2f', orange: '#f57c00', yellow: '#e6c200', green: '#388e3c', blue: '#1565c0' };
const SHAPES = ['square', 'circle', 'star', 'cross', 'pentagon'];
const SUITS = { clubs: '\u2663', diamonds: '\u2666', hearts: '\u2665', spades: '\u2660' };
function shapeSvg(shape, fill) {
  const s = 18, h = s / 2;
  let body;
  if (shape === 'square') body = `<rect x="3" y="3" width="12" height="12" fill="${fill}"/>`;
  else if (shape === 'circle') body = `<circle cx="${h}" cy="${h}" r="7" fill="${fill}"/>`;
  else if (shape === 'star') {
    const pts = [];
    for (let i = 0; i < 10; i++) { const r = i % 2 ? 3.4 : 8, a = Math.PI / 5 * i - Math.PI / 2; pts.push((h + r * Math.cos(a)).toFixed(1) + ',' + (h + r * Math.sin(a)).toFixed(1)); }
    body = `<polygon points="${pts.join(' ')}" fill="${fill}"/>`;
  } else if (shape === 'cross') body = `<path d="M7 2h4v5h5v4h-5v5h-4v-5h-5v-4h5z" fill="${fill}"/>`;
  else if (shape === 'pentagon') {
    const pts = [];
    for (let i = 0; i < 5; i++) { const a = 2 * Math.PI / 5 * i - Math.PI / 2; pts.push((h + 8 * Math.cos(a)).toFixed(1) + ',' + (h + 1 + 8 * Math.sin(a)).toFixed(1)); }
    body = `<polygon points="${pts.join(' ')}" fill="${fill}"/>`;
  } else body = '';
  return `<svg width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">${body}</svg>`;
}
function esc(t) { return String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'); }
// A card name as a small drawing, or null when the string is no card.
// The icons drawn since the last `renderTable`, for its legend.
const used = new Set();
const LEGEND = {
  'color wild': ['yellow wild', 'a color wild: stands for any shape of its color'],
  'shape wild': ['pentagon wild', 'a shape wild: stands for its shape in any color'],
  'all-colors': ['all-colors', 'all-colors (AC): a wild that stands for any card'],
  'all-shapes': ['all-shapes', 'all-shapes (AS): a wild that stands for any card'],
  'joker': ['joker', 'JK: the joker'],
};
function cardHtml(name) {
  if (typeof name !== 'string') return null;
  const w = name.split(' ');
  if (w.length === 2 && COLORS[w[0]] && SHAPES.includes(w[1])) return `<span class="card" title="${esc(name)}">${shapeSvg(w[1], COLORS[w[0]])}</span>`;
  if (w.length === 2 && w[1] === 'wild' && COLORS[w[0]]) { used.add('color wild'); return `<span class="card" title="${esc(name)}" style="background:${COLORS[w[0]]};color:#fff">W</span>`; }
  if (w.length === 2 && w[1] === 'wild' && SHAPES.includes(w[0])) { used.add('shape wild'); return `<span class="card" title="${esc(name)}">${shapeSvg(w[0], '#777')}W</span>`; }
  if (name === 'all-colors' || name === 'all-shapes') { used.add(name); return `<span class="card" title="${esc(name)}" style="background:linear-gradient(90deg,#d32f2f,#f57c00,#e6c200,#388e3c,#1565c0);color:#fff">${name === 'all-colors' ? 'AC' : 'AS'}</span>`; }
  const m = name.match(/^(ace|[2-9]|10|jack|queen|king) of (clubs|diamonds|hearts|spades)$/);
  if (m) {
    const rank = { ace: 'A', jack: 'J', queen: 'Q', king: 'K' }[m[1]] || m[1];
    const red = m[2] === 'hearts' || m[2] === 'diamonds';
    return `<span class="card${red ? ' red' : ''}" title="${esc(name)}">${rank}${SUITS[m[2]]}</span>`;
  }
  if (name === 'joker') { used.add('joker'); return `<span class="card" title="joker" style="color:#6a1b9a">JK</span>`; }
  if (/^(1?[0-9]|20)$/.test(name)) return `<span class="card" title="${esc(name)}"><b>${name}</b></span>`;
  if (['skip', 'reverse', 'trade-one-card', 'trade-hands', 'add-a-card', 'add-two-cards', 'remove-a-card', 'remove-two-cards', 'dice',
       'butcher', 'superbeaver', 'thief', 'fairy', 'partybeaver', 'hippie', 'bad guy', 'bodyguard', 'king'].includes(name))
    return `<span class="card" title="${esc(name)}" style="font-size:10px">${esc(name)}</span>`;
  return null;
}
function isCardList(v) { return Array.isArray(v) && v.length > 0 && v.every(x => cardHtml(x) !== null); }
function cardsHtml(list) {
  const shown = list.slice(0, 60).map(cardHtml).join('');
  return `<span class="cards">${shown}${list.length > 60 ? `<span class="muted">+${list.length - 60} more</span>` : ''}</span>`;
}
// A list of objects that each hold a `card` (a discard pile of cards with locks): drawn as one
// row of cards, each other field that is set written small under its card.
function isTaggedCardList(v) { return Array.isArray(v) && v.length > 0 && v.every(x => x && typeof x === 'object' && !Array.isArray(x) && cardHtml(x.card) !== null); }
function taggedCardsHtml(list) {
  const one = x => {
    const extra = Object.keys(x).filter(k => k !== 'card' && x[k] !== null && x[k] !== 0 && x[k] !== false).map(k => `${nameText(k)} ${esc(x[k])}`).join(', ');
    return extra ? `<span class="tagged">${cardHtml(x.card)}<small>${extra}</small></span>` : cardHtml(x.card);
  };
  return `<span class="cards">${list.map(one).join('')}</span>`;
}
function hiddenHtml(v) { return `<span class="hidden">hidden${typeof v.hidden === 'number' ? ' (' + v.hidden + ')' : ''}</span>`; }
function valueHtml(v) {
  if (v === 'hidden') return hiddenHtml({});
  if (v && typeof v === 'object' && !Array.isArray(v) && 'hidden' in v && Object.keys(v).length === 1) return hiddenHtml(v);
  const c = cardHtml(v);
  if (c !== null && typeof v === 'string' && v.includes(' ') ) return c;
  if (isCardList(v)) return cardsHtml(v);
  if (isTaggedCardList(v)) return taggedCardsHtml(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '<span class="muted">none</span>';
    if (v.every(x => x === null || typeof x !== 'object')) return esc(v.map(x => x === null ? '-' : x).join(', '));
    return v.map((x, i) => `<div class="kv"><b>${i}</b>: ${valueHtml(x)}</div>`).join('');
  }
  if (v && typeof v === 'object') return Object.keys(v).map(k => `<div class="kv"><b>${esc(k)}</b>: ${valueHtml(v[k])}</div>`).join('');
  if (v === null) return '<span class="muted">-</span>';
  return esc(v);
}
function boardSvg(b) {
  const n = b.track, size = 360, cx = size / 2, cy = size / 2, R = size / 2 - 30;
  const legend = 16 * (b.pegs || []).length + 8;
  const players = (b.pegs || []).length;
  const palette = ['#d32f2f', '#1565c0', '#388e3c', '#f57c00', '#6a1b9a', '#00838f', '#5d4037', '#c2185b'];
  const at = i => { const a = 2 * Math.PI * i / n - Math.PI / 2; return [cx + R * Math.cos(a), cy + R * Math.sin(a)]; };
  let svg = `<svg class="board" width="${size}" height="${size + legend}" viewBox="0 0 ${size} ${size + legend}"><circle cx="${cx}" cy="${cy}" r="${R}" fill="none" stroke="#ddd" stroke-width="10"/>`;
  for (let i = 0; i < n; i++) { const [x, y] = at(i); svg += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3" fill="#bbb"><title>hole ${i}</title></circle>`; }
  const holeOf = p => { const m = /^hole (\d+)$/.exec(p); return m ? Number(m[1]) : null; };
  for (let p = 0; p < players; p++) {
    const col = palette[p % palette.length];
    const co = (b.come_out || [])[p], sp = (b.in_spot || [])[p];
    if (co !== undefined) { const [x, y] = at(co); svg += `<rect x="${(x - 5).toFixed(1)}" y="${(y - 5).toFixed(1)}" width="10" height="10" fill="none" stroke="${col}" stroke-width="2"><title>player ${p} comes out here</title></rect>`; }
    let startCount = 0, home = [];
    for (const pos of b.pegs[p]) {
      const h = holeOf(pos);
      if (h !== null) { const [x, y] = at(h); svg += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="7" fill="${col}" stroke="#000"><title>player ${p}: ${pos}</title></circle>`; }
      else if (pos === 'start') startCount++;
      else if (pos.startsWith('home')) home.push(Number(pos.split(' ')[1]));
    }
    if (sp !== undefined) {
      const a = 2 * Math.PI * sp / n - Math.PI / 2;
      for (let d = 1; d <= (b.home || 0); d++) {
        const r = R - 14 * d, x = cx + r * Math.cos(a), y = cy + r * Math.sin(a);
        svg += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${home.includes(d) ? 6 : 3}" fill="${home.includes(d) ? col : '#fff'}" stroke="${col}"><title>player ${p} home ${d}</title></circle>`;
      }
    }
    svg += `<text x="8" y="${size + 14 + 16 * p}" font-size="12" fill="${col}">player ${p}: ${startCount} at start, ${home.length} home</text>`;
  }
  return svg + '</svg>';
}
function diceHtml(d) { return (Array.isArray(d) ? d : [d]).map(f => `<span class="die">${esc(f)}</span>`).join(''); }
function nameText(k) { return esc(String(k).replace(/_/g, ' ')); }
// A value of the trace notation (an action, a chance result) in words, the play page's way
// (`discard` + a card drawn as a card, fields as `name value`, lists joined by commas).
function words(v) {
  if (v === 'hidden') return hiddenHtml({});
  if (typeof v === 'string') return (v.includes(' ') || v.includes('-')) && cardHtml(v) !== null ? cardHtml(v) : nameText(v);
  if (Array.isArray(v)) return v.length === 0 ? 'none' : isCardList(v) ? cardsHtml(v) : v.map(words).join(', ');
  if (v && typeof v === 'object') {
    if ('hidden' in v && Object.keys(v).length === 1) return hiddenHtml(v);
    const ks = Object.keys(v);
    if (ks.length === 1) return v[ks[0]] === null ? nameText(ks[0]) : `${nameText(ks[0])} ${words(v[ks[0]])}`;
    return ks.map(k => `${nameText(k)} ${words(v[k])}`).join(', ');
  }
  return v === null ? '-' : esc(v);
}
// A chance result as a sentence: the seat it concerns first (`seat 0: draw card ...`).
function chanceWords(ev) {
  if (!ev || typeof ev !== 'object') return words(ev);
  return Object.entries(ev).map(([kind, body]) => {
    if (body && typeof body === 'object' && !Array.isArray(body) && typeof body.seat === 'number') {
      const rest = Object.assign({}, body); delete rest.seat;
      return `seat ${body.seat}: ${nameText(kind)}${Object.keys(rest).length ? ' ' + words(rest) : ''}`;
    }
    return body === null ? nameText(kind) : `${nameText(kind)}: ${words(body)}`;
  }).join('; ');
}
// A value of the trace notation in plain words (no drawing), for text (the play page's log).
function plain(v) {
  if (typeof v === 'string') return v.replace(/_/g, ' ');
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map(plain).join(', ');
  if (v && typeof v === 'object') {
    if ('hidden' in v && Object.keys(v).length === 1) return `hidden (${v.hidden})`;
    const ks = Object.keys(v);
    if (ks.length === 1) return v[ks[0]] === null ? plain(ks[0]) : `${plain(ks[0])} ${plain(v[ks[0]])}`;
    return ks.map(k => `${plain(k)} ${plain(v[k])}`).join(', ');
  }
  return v === null ? '-' : String(v);
}
// A chance result (or an action) in plain words, the seat it concerns first.
function actionText(ev) {
  if (!ev || typeof ev !== 'object' || Array.isArray(ev)) return plain(ev);
  return Object.entries(ev).map(([kind, body]) => {
    if (body && typeof body === 'object' && !Array.isArray(body) && typeof body.seat === 'number') {
      const rest = Object.assign({}, body); delete rest.seat;
      return `seat ${body.seat}: ${plain(kind)}${Object.keys(rest).length ? ' ' + plain(rest) : ''}`;
    }
    return body === null ? plain(kind) : `${plain(kind)}: ${plain(body)}`;
  }).join('; ');
}
function seatsText(list) { return list.length < 2 ? String(list[0]) : list.slice(0, -1).join(', ') + ' and ' + list[list.length - 1]; }
// The end of the game (or why it stopped) as a sentence.
function endWords(e, tw) {
  if (e.type === 'violation') return `A rule broke after step ${e.step}: ${esc(e.what)}.`;
  if (e.type === 'abandoned') return `Abandoned after ${e.decisions} decisions; the game was not finished.`;
  const w = e.winners || [];
  const who = w.length === 0 ? 'nobody wins' : w.length === 1 ? `seat ${w[0].seat} wins`
    : `seats ${seatsText(w.map(x => x.seat))} share the win${w.every(x => x.share === w[0].share) ? ` (1/${w.length} each)` : ''}`;
  const scores = (e.scores || []).map((s, i) => `seat ${i} ${s}`).join(', ');
  const team = (said && said.teams || []).find(t => w.length === t.length && w.every(x => t.includes(x.seat)));
  const whoSaid = team ? `the team of ${seatsText(team.map(k => 'seat ' + k))} wins` : who;
  if (tw && tw.end) return `The game ends after ${e.length} ${esc(start.length_unit || 'turns')}: ${esc(tw.end)}; ${whoSaid}. Final scores: ${scores}.`;
  return `The game ends by <b>${nameText(e.reason)}</b> after ${e.length} ${esc(start.length_unit || 'turns')} (${e.decisions} decisions): ${who}. Scores: ${scores}.`;
}

function renderTable(state, active, title) {
  const s = seenBy(state);
  used.clear();
  let html = `<div class="panel"><h3>${esc(title || 'table')}</h3>`;
  const big = [];
  for (const k of Object.keys(s)) {
    const v = s[k];
    if (k === 'players' || k === 'board') continue;
    if (v !== null && typeof v === 'object') { big.push(k); continue; }
    html += `<div class="kv"><b>${esc(k)}</b>: ${valueHtml(v)}</div>`;
  }
  html += '</div>';
  if (s.board && typeof s.board === 'object' && s.board.pegs) html += `<div class="panel"><h3>board</h3>${boardSvg(s.board)}</div>`;
  for (const k of big) {
    const v = s[k];
    html += `<div class="panel" data-key="${esc(k)}"><h3>${esc(k)}${Array.isArray(v) ? ' (' + v.length + ')' : ''}</h3>${k === 'dice' ? diceHtml(v) : valueHtml(v)}</div>`;
  }
  if (Array.isArray(s.players)) {
    html += '<div>';
    s.players.forEach((p, i) => {
      html += `<div class="panel player${i === active ? ' active' : ''}" data-seat="${i}"><h3>seat ${i} <span class="muted">${esc((start.seats[i] || {}).bot || '')}</span></h3>`;
      if (p && typeof p === 'object' && !('hidden' in p)) {
        for (const k of Object.keys(p)) html += `<div class="kv ${esc(k)}"><b>${esc(k)}</b>: ${valueHtml(p[k])}</div>`;
      } else html += valueHtml(p);
      html += '</div>';
    });
    html += '</div>';
  }
  return html + legendHtml();
}
// ---- The table in the game's words (a game's `table_words`): zones as cards, scores, facts.
function atPath(v, path, k) {
  for (const part of path.split('/').filter(x => x)) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[part === '*' ? k : part];
  }
  return v;
}
// One card: drawn when the drawing knows it, else its name on a card.
function anyCard(x, cls) {
  const c = typeof x === 'string' ? cardHtml(x) : null;
  const html = c !== null ? c : `<span class="card" title="${esc(typeof x === 'string' ? x : plain(x))}" style="font-size:11px">${esc(typeof x === 'string' ? x : plain(x))}</span>`;
  return cls ? `<span class="${cls}">${html}</span>` : html;
}
function backsHtml(n, pieces) {
  const shown = Math.min(n, 8);
  const words = pieces === 'dice' ? `${n} ${n === 1 ? 'die' : 'dice'} hidden` : `${n} card${n === 1 ? '' : 's'} face down`;
  return `<span class="cards">${'<span class="card back"></span>'.repeat(shown)}<span class="muted">&nbsp;${words}</span></span>`;
}
function isHidden(v) { return v === 'hidden' || (v && typeof v === 'object' && !Array.isArray(v) && 'hidden' in v && Object.keys(v).length === 1); }
function zoneHtml(v, lay, pieces) {
  if (v === undefined || v === null) return '<span class="muted">-</span>';
  if (isHidden(v)) return typeof v.hidden === 'number' ? backsHtml(v.hidden, pieces) : `<span class="card back"></span> <span class="muted">${pieces === 'dice' ? 'hidden' : 'face down'}</span>`;
  if (lay === 'value') return v && typeof v === 'object' && Object.keys(v).length === 0 ? '<span class="muted">none</span>' : `<b>${esc(plain(v))}</b>`;
  if (lay === 'dice') return diceHtml(v);
  if (lay === 'board') return boardSvg(v);
  if (!Array.isArray(v)) return esc(plain(v));
  if (v.length === 0) return '<span class="muted">empty</span>';
  const card = x => (x && typeof x === 'object' && 'card' in x) ? x.card : x;
  if (lay === 'pile') {
    const rest = v.length - 1;
    return `<span class="cards"><span class="tagged top">${anyCard(card(v[0]))}<small>top</small></span>` +
      (rest ? `<span class="muted">&nbsp;+ ${rest} below</span>` : '') + '</span>';
  }
  if (lay === 'plays') {
    return '<span class="cards">' + v.map((play, i) => {
      const cards = Array.isArray(play) ? play : (play.cards || []);
      const extra = play && play.declared ? ` <small>as ${esc(play.declared)}</small>` : '';
      return `<span class="play${i === 0 ? ' top' : ''}">${cards.map(c => anyCard(c)).join('')}${extra}${i === 0 ? '<small>top play</small>' : ''}</span>`;
    }).join('') + '</span>';
  }
  return `<span class="cards">${v.slice(0, 60).map(x => anyCard(card(x))).join('')}${v.length > 60 ? `<span class="muted">+${v.length - 60} more</span>` : ''}</span>`;
}
// `seatName(k)`: how a seat is called ("you", "seat 1 (basic)"); `scores`: each seat's score or
// null (hidden); `unit`: the score's unit.
function renderWords(state, w, scores, active, seatName, unit) {
  const s = seenBy(state);
  used.clear();
  let html = `<div class="panel words"><div class="goal"><b>How the game is won:</b> ${esc(w.goal)}</div>`;
  if (w.facts.length) html += `<div class="facts">${w.facts.map(f => `<span class="chip">${esc(f)}</span>`).join('')}</div>`;
  html += '</div>';
  if (w.zones.length) {
    html += '<div class="zones">';
    for (const z of w.zones) {
      const v = atPath(s, z.path);
      if (v === undefined) continue;
      html += `<div class="panel zone"><h3>${esc(z.name)}${Array.isArray(v) && z.lay !== 'value' ? ` <span class="muted">(${v.length})</span>` : isHidden(v) && typeof v.hidden === 'number' ? ` <span class="muted">(${v.hidden})</span>` : ''}</h3>${zoneHtml(v, z.lay, z.pieces)}</div>`;
    }
    html += '</div>';
  }
  const seats = (start && start.seats) ? start.seats.length : (scores || []).length;
  html += '<div class="seats">';
  for (let k = 0; k < seats; k++) {
    const score = scores && k < scores.length ? scores[k] : undefined;
    html += `<div class="panel player${k === active ? ' active' : ''}" data-seat="${k}"><h3>${esc(seatName(k))}${k === active ? ' <span class="turnmark">to move</span>' : ''}</h3>`;
    if (score !== undefined) html += `<div class="score">score: ${score === null ? '<span class="muted">hidden (it counts cards you cannot see)</span>' : `<b>${esc(score)}</b> ${esc(unit || '')}`}</div>`;
    if (w.seat_facts[k]) html += `<div class="kv">${esc(w.seat_facts[k])}</div>`;
    for (const z of w.seat_zones) {
      const v = atPath(s, z.path, k);
      if (v === undefined) continue;
      html += `<div class="kv zone ${esc(z.path.split('/').pop())}"><span class="zname">${esc(z.name)}${Array.isArray(v) && z.lay !== 'value' ? ' (' + v.length + ')' : ''}</span> ${zoneHtml(v, z.lay, z.pieces)}</div>`;
    }
    html += '</div>';
  }
  return html + '</div>' + legendHtml();
}
// What the icons drawn on the table stand for (only those drawn).
function legendHtml() {
  const keys = Object.keys(LEGEND).filter(k => used.has(k));
  if (!keys.length) return '';
  const rows = keys.map(k => `<div class="kv">${cardHtml(LEGEND[k][0])}<span>${esc(LEGEND[k][1])}</span></div>`).join('');
  return `<div class="panel legend"><h3>legend</h3>${rows}</div>`;
}

// A chance event as seat k sees it: the cards another seat drew or was dealt are hidden
// (a random card taken from a hand is seen by the two seats involved), and so is the new
// order of a reshuffled pile.
function chanceSeen(ev) {
  if (seat === 'all' || !ev || typeof ev !== 'object') return ev;
  const k = Number(seat), out = {};
  for (const [kind, body] of Object.entries(ev)) {
    // The new order of a reshuffled pile is seen by no seat.
    if (body && typeof body === 'object' && Array.isArray(body.order)) out[kind] = Object.assign({}, body, { order: { hidden: body.order.length } });
    else if (body && typeof body === 'object' && 'seat' in body && body.seat !== k && body.from !== k) {
      const b = Object.assign({}, body);
      for (const f of ['card', 'hand', 'cards']) if (f in b) b[f] = 'hidden';
      out[kind] = b;
    } else out[kind] = body;
  }
  return out;
}
// How often the text `name` is a value in `v` (a card in a hand, a row, a pile).
function occurrences(v, name) {
  if (typeof v === 'string') return v === name ? 1 : 0;
  if (v && typeof v === 'object') return Object.values(v).reduce((n, x) => n + occurrences(x, name), 0);
  return 0;
}
function textLeaves(v, out) {
  if (typeof v === 'string') out.push(v);
  else if (v && typeof v === 'object') Object.values(v).forEach(x => textLeaves(x, out));
  return out;
}
// Whether the action `d` of another seat is public to the seat viewing: every card (or
// other value) it names that lies somewhere on the table comes into view or leaves it with
// the action (a card played face up, a card taken from the discard pile). A card moved from
// one hidden place to another (face down, a secret choice) keeps the action hidden.
function publicAction(d, before, after) {
  return textLeaves(d.action, []).every(name => {
    const onTable = occurrences(before, name) + occurrences(after, name) > 0;
    return !onTable || occurrences(seenBy(before), name) !== occurrences(seenBy(after), name);
  });
}
function renderDecision(step, before) {
  let html = '';
  const d = step.decision;
  if (d) {
    const who = `seat ${d.seat} <span class="muted">${esc((start.seats[d.seat] || {}).bot || '')}</span>`;
    const mine = seat === 'all' || Number(seat) === d.seat;
    const turnAfter = step.state && typeof step.state.turn === 'number' && step.state.turn !== d.turn ? `; turn ${step.state.turn} begins after it` : '';
    html += `<div class="panel"><h3>step ${d.step + 1} (turn ${d.turn}${turnAfter}): ${who}</h3>`;
    if (mine || publicAction(d, before, step.state)) {
      html += `<div class="sentence">seat ${d.seat} chose <span class="chip chosen">${words(d.action)}</span></div>`;
    } else {
      const kind = typeof d.action === 'string' ? '' : ' ' + nameText(Object.keys(d.action)[0] || '');
      html += `<div class="sentence">seat ${d.seat} chose${kind ? ' to' + kind : ''} <span class="muted">(what it chose is hidden from seat ${esc(seat)})</span></div>`;
    }
    if (mine) {
      const others = d.legal.filter(a => JSON.stringify(a) !== JSON.stringify(d.action));
      if (others.length) html += `<div class="kv"><b>it could instead</b> (${others.length}):</div><div class="legal">` +
        others.slice(0, 300).map(a => `<span class="chip">${words(a)}</span>`).join('') +
        (others.length > 300 ? `<span class="muted"> and ${others.length - 300} more</span>` : '') + '</div>';
    } else html += `<div class="muted">seat ${esc(seat)} does not see seat ${d.seat}'s alternatives</div>`;
    html += '</div>';
  } else html += `<div class="panel"><h3>${esc(step.label)}</h3><div class="muted">${esc(start.game)} / ${esc(start.variant_name)}: the table after set-up</div></div>`;
  if (step.chance.length) html += '<div class="panel"><h3>chance</h3>' + step.chance.map(c => { const ev = chanceSeen(c.event); return `<div class="chance sentence" data-event="${esc(JSON.stringify(ev)).replace(/"/g, '&quot;')}">${chanceWords(ev)}</div>`; }).join('') + '</div>';
  if (step.end) html += `<div class="panel end"><h3>${{ end: 'end', violation: 'a broken rule', abandoned: 'abandoned' }[step.end.type]}</h3><div class="sentence">${endWords(step.end)}</div></div>`;
  return html;
}

// Whether the seat viewing sees a sentence of the text trace (`who`: the seats that see it, null: all).
function sees(who) { return seat === 'all' || who === null || who.includes(Number(seat)); }
function sentenceText(t) { return t.replace(/^[-=]+\s*/, ''); }
function seatLabel(k) { return 'seat ' + k + ((start.seats[k] || {}).bot ? ' (' + start.seats[k].bot + ')' : ''); }
// The decision of step i in the game's words (the page holds `said`).
function renderSaid(i) {
  const step = steps[i], w = said.steps[i] || {};
  const d = step.decision;
  let html = '';
  const lines = (w.said || []).filter(([t, who]) => sees(who)).map(([t]) => sentenceText(t)).filter(t => t);
  if (d) {
    html += `<div class="panel"><h3>step ${i} (turn ${d.turn}): ${esc(seatLabel(d.seat))}</h3>`;
    html += lines.length ? lines.map(t => `<div class="sentence">${esc(t)}</div>`).join('') : `<div class="sentence muted">${esc(seatLabel(d.seat))} decided (what it chose is hidden from seat ${esc(seat)})</div>`;
    const mine = seat === 'all' || Number(seat) === d.seat;
    const others = w.legal || [];
    if (mine && others.length) html += `<div class="kv"><b>it could instead</b> (${others.length}):</div><div class="legal">` +
      others.slice(0, 300).map(a => `<span class="chip">${esc(a)}</span>`).join('') + (others.length > 300 ? `<span class="muted"> and ${others.length - 300} more</span>` : '') + '</div>';
    else if (!mine) html += `<div class="muted">seat ${esc(seat)} does not see seat ${d.seat}'s alternatives</div>`;
    html += '</div>';
  } else {
    html += `<div class="panel"><h3>the deal</h3>${lines.map(t => `<div class="sentence">${esc(t)}</div>`).join('') || '<div class="muted">the table after set-up</div>'}</div>`;
  }
  if (step.end) html += `<div class="panel end"><h3>${{ end: 'the end', violation: 'a broken rule', abandoned: 'abandoned' }[step.end.type]}</h3><div class="sentence">${endWords(step.end, w.words)}</div></div>`;
  return html;
}
function activeSeat(i) {
  const next = steps[i + 1];
  if (next && next.decision) return next.decision.seat;
  const s = steps[i].state || {};
  return typeof s.current === 'number' ? s.current : -1;
}
function show(i) {
  current = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[current];
  const w = said ? said.steps[current] : null;
  document.getElementById('decision').innerHTML = w ? renderSaid(current) : renderDecision(step, current > 0 ? steps[current - 1].state : step.state);
  const title = current === 0 ? 'the table after set-up' : `the table after step ${current}`;
  if (w && w.words) {
    const viewer = seat === 'all' ? null : Number(seat);
    const scores = w.scores.map((x, k) => viewer === null || (w.seen[viewer] || [])[k] ? x : null);
    document.getElementById('table').innerHTML = `<div class="panel"><h3>${esc(title)}</h3>${w.words.now ? `<div class="sentence"><b>now:</b> ${esc(w.words.now)}</div>` : ''}</div>` +
      renderWords(step.state, w.words, scores, activeSeat(current), seatLabel, said.unit);
  } else document.getElementById('table').innerHTML = renderTable(step.state, activeSeat(current), title);
  document.getElementById('slider').value = current;
  document.getElementById('position').innerHTML = `step ${current} of ${steps.length - 1} <a id="link" href="#step-${current}" title="a link to this step">link</a>`;
  if (location.hash !== '#step-' + current && history.replaceState) history.replaceState(null, '', '#step-' + current);
}
// The first step of turn t (its first decision), or the last step.
function stepOfTurn(t) {
  for (let i = 1; i < steps.length; i++) if (steps[i].decision && steps[i].decision.turn >= t) return i;
  return steps.length - 1;
}
function wire() {
  const seatSelect = document.getElementById('seat');
  start.seats.forEach(s => { const o = document.createElement('option'); o.value = s.seat; o.textContent = `seat ${s.seat}'s view (${s.bot})`; seatSelect.appendChild(o); });
  seatSelect.addEventListener('change', () => { seat = seatSelect.value; show(current); });
  document.getElementById('slider').max = steps.length - 1;
  document.getElementById('slider').addEventListener('input', e => show(Number(e.target.value)));
  document.getElementById('back').addEventListener('click', () => show(current - 1));
  document.getElementById('forward').addEventListener('click', () => show(current + 1));
  document.getElementById('turnjump').addEventListener('change', e => show(stepOfTurn(Number(e.target.value) || 0)));
  addEventListener('hashchange', () => { const m = /^#step-(\d+)$/.exec(location.hash); if (m && Number(m[1]) !== current) show(Number(m[1])); });
  document.addEventListener('keydown', e => {
    if (e.target && e.target.tagName === 'INPUT' && e.target.type === 'number') return;
    if (e.key === 'ArrowLeft') { show(current - 1); e.preventDefault(); }
    if (e.key === 'ArrowRight') { show(current + 1); e.preventDefault(); }
  });
}
if (document.getElementById('trace')) {
document.getElementById('table').innerHTML = '<div class="muted">unpacking the trace...</div>';
window.replayReady = Promise.all([readTrace(), readWords()]).then(([lines, w]) => {
  said = w;
  load(lines); wire();
  const m = /^#step-(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) : 0);
}, e => {
  document.getElementById('table').innerHTML = `<div class="panel"><h3>cannot show the game</h3>${esc(e && e.message ? e.message : e)}</div>`;
  throw e;
});
}
"###;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_the_trace_compressed_and_gives_it_back() {
        let trace = "{\"type\":\"start\",\"game\":\"g\"}\n{\"type\":\"end\"}\n".repeat(50);
        let html = page("a <game> & more", &trace);
        assert!(html.contains("<title>a &lt;game&gt; &amp; more</title>"));
        assert!(!html.contains("\"type\":\"start\""), "the trace is inside compressed");
        assert!(html.len() < trace.len() + TEMPLATE.len() + STYLE.len() + SCRIPT.len());
        assert_eq!(trace_in(&html).as_deref(), Some(trace.as_str()));
        // The same trace gives the same page (no time in the gzip header).
        assert_eq!(page("a <game> & more", &trace), html);
        assert_eq!(trace_in("<html>no trace</html>"), None);
    }
}
