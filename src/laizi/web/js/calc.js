// Score calculator: build a SCORE_API.md request by tapping tiles (no typing), POST it to
// /api/score (the same score_json as `laizi score`), show the answer.
import { t, applyI18n, setLang, getLang, toggleLang, onLang, tileName, windOf, bigHandName, presetName, runName, localizeLine, apiErrorText } from "./i18n.js";
import { tileEl, TILE_CODES } from "./tiles.js";

const $ = id => document.getElementById(id);
const KIND = code => "mpsz".indexOf(code[1]) * 9 + (+code[0] - 1);

const EXAMPLE = {
  preset: "kaikoufan", laizi: "6m", dealer: 0, winner: 1, win: { tile: "3z", by: "discard", from: 2 },
  players: [
    { hand: [], melds: [{ type: "peng", tile: "8m", from: 2 }], spk: [] },
    { hand: ["4m", "4m", "4m", "3z"], melds: [{ type: "peng", tile: "9p", from: 3 }, { type: "peng", tile: "2s", from: 0 },
      { type: "peng", tile: "1z", from: 2 }], spk: ["7z", "7z", "7z"] },
    { hand: [], melds: [{ type: "chi", tile: "5p", from: 1 }], spk: [] },
    { hand: [], melds: [], spk: ["7z"] },
  ],
};

const F = {
  preset: "kaikoufan", laizi: "6m", win: "3z", seat: 1, target: "hand",
  players: [0, 1, 2, 3].map(() => ({ hand: [], melds: [], spk: [] })),
};

function parseTiles(s) { // "444m3z" → ["4m","4m","4m","3z"]
  const out = [];
  let digits = "";
  for (const ch of s || "") {
    if (/\d/.test(ch)) digits += ch;
    else if ("mpsz".includes(ch)) { for (const d of digits) out.push(`${d}${ch}`); digits = ""; }
  }
  return out;
}

function compact(tiles) { // ["4m","4m","3z"] → "44m3z"
  const sorted = tiles.slice().sort((a, b) => KIND(a) - KIND(b));
  let out = "", run = "", suit = "";
  for (const c of sorted) {
    if (c[1] !== suit && run) { out += run + suit; run = ""; }
    suit = c[1]; run += c[0];
  }
  return out + (run ? run + suit : "");
}

function meldText(m) {
  if (m.type === "chi") { const n = +m.tile[0]; return `chi ${n}${n + 1}${n + 2}${m.tile[1]} from ${m.from}`; }
  if (m.type === "ankong") return `ankong ${m.tile}`;
  return `${m.type} ${m.tile} from ${m.from}`;
}

function seatOptions(sel, withNone) {
  const cur = sel.value;
  sel.textContent = "";
  if (withNone) sel.add(new Option("—", ""));
  for (let i = 0; i < 4; i++) sel.add(new Option(`${windOf(i, 0)} (${t("seat_n", i + 1)})`, String(i)));
  if (cur !== "") sel.value = cur;
}

function collect() {
  const win = { tile: F.win, by: $("wby").value };
  if (win.by !== "self_draw" && $("wfrom").value !== "") win.from = +$("wfrom").value;
  if ($("after_kong").checked) win.after_kong = true;
  if ($("haidi").checked) win.haidi = true;
  return {
    preset: $("preset").value || F.preset, laizi: F.laizi, dealer: +$("dealer").value, winner: +$("winner").value, win,
    players: F.players.map(p => ({ hand: compact(p.hand), melds: p.melds.map(meldText), special_kongs: compact(p.spk) })),
  };
}

function load(req) {
  $("preset").value = req.preset || "kaikoufan";
  F.laizi = req.laizi; F.win = req.win.tile;
  $("dealer").value = String(req.dealer ?? 0);
  $("winner").value = String(req.winner ?? 0);
  $("wby").value = req.win.by;
  $("wfrom").value = req.win.from == null ? "" : String(req.win.from);
  $("after_kong").checked = !!req.win.after_kong;
  $("haidi").checked = !!req.win.haidi;
  F.players = req.players.map(p => ({
    hand: Array.isArray(p.hand) ? p.hand.slice() : parseTiles(p.hand),
    melds: (p.melds || []).map(m => typeof m === "string" ? parseMeld(m) : { ...m }).filter(Boolean),
    spk: Array.isArray(p.spk) ? p.spk.slice() : parseTiles(p.special_kongs),
  }));
  F.seat = +$("winner").value;
  render();
}

function parseMeld(s) {
  const m = /^\s*(chi|peng|kong|addkong|ankong)\s+(\S+?)(?:\s+from\s+(\d))?\s*$/.exec(s);
  if (!m) return null;
  const tiles = parseTiles(m[2]);
  return { type: m[1], tile: tiles[0], from: m[3] == null ? null : +m[3] };
}

function tapTile(code) {
  const p = F.players[F.seat];
  if (F.target === "hand") p.hand.push(code);
  else if (F.target === "spk") p.spk.push(code);
  else if (F.target === "laizi") F.laizi = code;
  else if (F.target === "win") F.win = code;
  else if (F.target === "meld") {
    const type = $("meld-type").value;
    const from = type === "ankong" ? null : +$("meld-from").value;
    if (type === "chi" && +code[0] > 7) return;
    if (type === "chi" && code[1] === "z") return;
    p.melds.push({ type, tile: code, from });
  }
  render();
}

function tileButton(code, label, onClick, extra = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile-btn";
  b.setAttribute("aria-label", label);
  b.appendChild(tileEl(code, { size: extra.size || "meld", laizi: extra.laizi }));
  b.addEventListener("click", onClick);
  if (extra.data) for (const [k, v] of Object.entries(extra.data)) b.dataset[k] = v;
  return b;
}

function render() {
  // picker
  const picker = $("picker");
  picker.textContent = "";
  for (const c of TILE_CODES) picker.appendChild(tileButton(c, tileName(c), () => tapTile(c), { size: "hand", laizi: F.laizi, data: { pick: c } }));
  // targets
  const targets = $("targets");
  targets.textContent = "";
  for (const [id, key] of [["hand", "t_hand"], ["meld", "melds"], ["spk", "spk_short"], ["win", "t_win"], ["laizi", "laizi"]]) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = t(key);
    b.dataset.target = id;
    b.setAttribute("role", "radio");
    b.setAttribute("aria-checked", String(F.target === id));
    b.classList.toggle("on", F.target === id);
    b.addEventListener("click", () => { F.target = id; render(); });
    targets.appendChild(b);
  }
  // seat tabs
  const tabs = $("seat-tabs");
  tabs.textContent = "";
  for (let i = 0; i < 4; i++) {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("role", "tab");
    b.setAttribute("aria-selected", String(F.seat === i));
    b.classList.toggle("on", F.seat === i);
    b.textContent = `${windOf(i, 0)}${+$("winner").value === i ? " ★" : ""}`;
    b.dataset.seat = String(i);
    b.addEventListener("click", () => { F.seat = i; render(); });
    tabs.appendChild(b);
  }
  const p = F.players[F.seat];
  const hand = $("ed-hand");
  hand.textContent = "";
  p.hand.slice().sort((a, b) => KIND(a) - KIND(b)).forEach(c => hand.appendChild(
    tileButton(c, `${t("remove")} ${tileName(c)}`, () => { p.hand.splice(p.hand.indexOf(c), 1); render(); }, { laizi: F.laizi })));
  const kongs = p.melds.filter(m => m.type !== "chi" && m.type !== "peng").length;
  $("hand-count").textContent = `${p.hand.length + p.melds.length * 3 + (F.seat === +$("winner").value ? 1 : 0)}/14` + (kongs ? "" : "");
  const melds = $("ed-melds");
  melds.textContent = "";
  p.melds.forEach((m, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "meld-chip";
    const label = m.type === "chi" ? `${t("chi")} ${runName(m.tile)}` : `${t(m.type)} ${tileName(m.tile)}`;
    b.textContent = m.from == null ? label : `${label} ← ${windOf(m.from, 0)}`;
    b.setAttribute("aria-label", `${t("remove")} ${b.textContent}`);
    b.addEventListener("click", () => { p.melds.splice(i, 1); render(); });
    melds.appendChild(b);
  });
  const spk = $("ed-spk");
  spk.textContent = "";
  p.spk.forEach((c, i) => spk.appendChild(tileButton(c, `${t("remove")} ${tileName(c)}`, () => { p.spk.splice(i, 1); render(); }, { laizi: F.laizi })));
  for (const [id, code] of [["slot-laizi", F.laizi], ["slot-win", F.win]]) {
    const b = $(id);
    b.textContent = "";
    b.appendChild(tileEl(code, { size: "meld", laizi: id === "slot-laizi" ? F.laizi : null }));
    b.setAttribute("aria-label", tileName(code));
    b.classList.toggle("on", F.target === b.dataset.target);
  }
  $("raw").value = JSON.stringify(collect(), null, 2);
}

async function post(req) {
  const box = $("result");
  box.textContent = "…";
  try {
    const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const data = await r.json();
    if (!r.ok) { box.textContent = ""; const e = document.createElement("p"); e.className = "neg"; e.id = "verdict"; e.textContent = refusal(data, r); box.appendChild(e); return; }
    showResult(data, req);
  } catch (e) { box.textContent = String(e); }
}

/** A request the scorer cannot take, in the page's language: a table that cannot exist has a
 *  code (its tile and seat put in words here), anything else the server's message. */
function refusal(data, r) {
  const params = { ...(data.params || {}) };
  if (params.tile) params.tile = tileName(params.tile);
  if (params.seat != null) params.seat = windOf(params.seat, 0);
  return apiErrorText(data.code, params, data.error || r.statusText);
}

function showResult(d, req) {
  const box = $("result");
  box.textContent = "";
  const p = document.createElement("p");
  p.id = "verdict";
  const head = document.createElement("b");
  head.className = d.ok ? "pos" : "neg";
  head.textContent = d.ok ? t("ok_win") : t("not_win");
  p.appendChild(head);
  const bits = [];
  if (!d.ok && d.reason) bits.push(t(`reason_${d.reason}`));
  bits.push(d.big_hands.length ? `${t("big_hands")}: ${d.big_hands.map(bigHandName).join(" · ")}` : t("small_hand"));
  bits.push(d.hard ? t("hard") : t("soft"));
  if (d.liable != null) bits.push(`${t("liable")}: ${windOf(d.liable, 0)}`);
  if (d.topped_out) bits.push(t("topped"));
  p.append(` · ${bits.join(" · ")}`);
  box.appendChild(p);
  const table = document.createElement("table");
  table.className = "grid";
  const rows = [["", [0, 1, 2, 3].map(i => windOf(i, 0))], [t("fan"), (d.loser_fan || []).map((f, i) => i === req.winner ? String(d.winner_fan ?? "") : String(f))],
    [t("payments"), d.payments.map(x => (x > 0 ? "+" : "") + x)]];
  for (const [label, cells] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = label;
    tr.appendChild(th);
    cells.forEach(c => { const td = document.createElement(label ? "td" : "th"); td.textContent = c; if (label === t("payments")) td.className = c.startsWith("+") ? "pos" : c.startsWith("-") ? "neg" : ""; tr.appendChild(td); });
    table.appendChild(tr);
  }
  box.appendChild(table);
  if (d.breakdown && d.breakdown.length) { // the scorer's lines mix both languages: localizeLine
    const ul = document.createElement("ul");
    ul.className = "breakdown";
    for (const line of d.breakdown) { const li = document.createElement("li"); li.textContent = localizeLine(line); ul.appendChild(li); }
    box.appendChild(ul);
  }
}

async function boot() {
  setLang(getLang());
  $("langbtn").addEventListener("click", toggleLang);
  for (const id of ["dealer", "winner", "meld-from"]) seatOptions($(id), false);
  seatOptions($("wfrom"), true);
  try {
    const d = await (await fetch("/api/presets")).json();
    for (const name of d.presets) $("preset").add(new Option(presetName(name), name));
  } catch (e) { $("preset").add(new Option("kaikoufan", "kaikoufan")); }
  $("winner").addEventListener("change", () => { F.seat = +$("winner").value; render(); });
  for (const id of ["dealer", "wby", "wfrom", "after_kong", "haidi", "preset"]) $(id).addEventListener("change", render);
  $("slot-laizi").addEventListener("click", () => { F.target = "laizi"; render(); });
  $("slot-win").addEventListener("click", () => { F.target = "win"; render(); });
  $("btn-clear").addEventListener("click", () => { F.players[F.seat] = { hand: [], melds: [], spk: [] }; render(); });
  $("btn-example").addEventListener("click", () => load(EXAMPLE));
  $("submit").addEventListener("click", () => post(collect()));
  $("submitraw").addEventListener("click", () => {
    let req;
    try { req = JSON.parse($("raw").value); } catch (e) { $("result").textContent = `JSON: ${e.message}`; return; }
    post(req);
  });
  onLang(() => { for (const id of ["dealer", "winner", "meld-from", "wfrom"]) seatOptions($(id), id === "wfrom"); render(); });
  applyI18n();
  load(EXAMPLE);
}

boot();
