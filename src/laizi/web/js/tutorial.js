// 新手教程 (/static/tutorial.html): a guided first hand on a fixed, announced deal against three
// bots. The hand (tutorial-hand.json, made by scripts/make_tutorial.py from the engine: seat 0's
// own frames, with each seat's move) is shown on the real table; at each of the learner's turns
// the page waits for that move (the tile to tap twice or the button, marked), and a coach card
// explains, the first time each comes up: the laizi, 红中杠, discarding, 开口 (碰), 吃, the ready
// hand with its 2/5/8 pair and 够番, the laizi kong, passing, 胡 and the settlement.
// Text only (textContent); words from W below and the table's word tables.
import { t, getLang, setLang, toggleLang, onLang, applyI18n, tileName, actionLabel, wordPack } from "./i18n.js";
import { buildTable, renderTable } from "./table.js";
import { tileEl } from "./tiles.js";
import { describe } from "./words.js";
import { renderSettlement } from "./settle.js";
import { cardFor, cardText } from "./rules.js";

const W = {
  zh: {
    title: "新手教程", ok: "知道了", start: "开始", again: "重来", lobby: "回大厅", howto: "玩法说明",
    intro_h: "新手教程 · 第一手牌",
    intro: "这是一手固定的牌（公开的种子 {0}，开口番规则），对手是三个机器人。你坐东，是庄家。每一步照提示操作，几分钟就能打完。",
    laizi_h: "赖子",
    laizi: "开局翻一张牌（翻牌）：{0}。它的下一张 {1} 就是赖子，带金边和星标，可以当任何牌用。",
    red_h: "红中杠",
    red: "红中不能留在手里（有红中不能胡）：摸到就杠出来，算 1 番，再补一张。点两下红中。",
    discard_h: "打牌", discard: "轮到你时，点一下牌把它抬起，再点一下打出去。现在打 {0}。",
    open_h: "开口（碰）",
    open: "别人打出你有一对的牌，可以碰。吃、碰、明杠叫开口：每手牌都必须开口才能胡。开口也算番，看名字旁的「番」。点「碰」。",
    chi_h: "吃", chi: "上家打的牌能和你手里的两张连成顺子时可以吃（只能吃上家的）。点「吃」。",
    ready_h: "听牌了",
    ready: "你的牌只差一张就能胡（听牌）。名字旁列出能胡的每张牌、胡了得多少分、够不够起胡（够番才能胡）。小胡的将（对子）必须是二、五、八。点一张听的牌可以看算分明细。",
    lzkong_h: "赖子杠", lzkong: "把赖子亮出来放一边叫赖子杠，算 2 番，再补一张。点两下 {0}。",
    kong_h: "杠", kong: "四张一样的牌可以杠：明杠 1 番，暗杠 2 番，杠完补一张。按提示杠。",
    pass_h: "过", pass: "这张牌你不需要：点「过」，让牌局继续。",
    win_h: "胡", win: "这张牌能让你胡！点「胡」。",
    settle_h: "结算", settle: "这就是结算：谁胡、怎么胡、每家的番和付的分。教程完成！",
    do_tile: "点两下 {0}", do_btn: "点「{0}」", watch: "机器人出牌中…", nudge: "教程里请按提示来：{0}",
    done: "教程完成", learner: "新手",
  },
  en: {
    title: "Tutorial", ok: "Got it", start: "Start", again: "Restart", lobby: "Back to lobby", howto: "How to play",
    intro_h: "Tutorial · your first hand",
    intro: "One fixed hand (public seed {0}, open-fan rules) against three bots. You sit East and deal. Follow each prompt: it takes a few minutes.",
    laizi_h: "The laizi",
    laizi: "A tile is flipped at the start (the indicator): {0}. The next tile, {1}, is the laizi: gold border and star; it stands for any tile.",
    red_h: "Red Dragon kong",
    red: "A Red Dragon may not stay in your hand (holding one you cannot win): lay it aside at once for 1 fan and draw a replacement. Tap the Red Dragon twice.",
    discard_h: "Discarding", discard: "On your turn tap a tile to raise it, tap it again to discard it. Discard {0} now.",
    open_h: "Opening (pung)",
    open: "When someone discards a tile you hold a pair of, you may pung it. A chow, pung or exposed kong opens your hand: every hand must be open to win. Opening adds fan: see the fan by each name. Tap Pung.",
    chi_h: "Chow", chi: "When the player before you discards a tile that makes a run with two of yours, you may chow it (only theirs). Tap Chow.",
    ready_h: "You are ready",
    ready: "One tile from a win. By your name: every tile that wins, what it would score and whether it reaches the minimum (enough, or below it: no win). The pair of a small hand must be 2, 5 or 8. Tap a wait for how it is scored.",
    lzkong_h: "Laizi kong", lzkong: "Laying a laizi aside is a laizi kong: 2 fan, then a replacement. Tap {0} twice.",
    kong_h: "Kong", kong: "Four of a kind make a kong: exposed 1 fan, concealed 2, then draw a replacement. Follow the prompt.",
    pass_h: "Pass", pass: "You do not need this tile: tap Pass and play goes on.",
    win_h: "Win", win: "This tile wins for you! Tap Win.",
    settle_h: "Settlement", settle: "The settlement: who won and how, each seat's fan and payment. Tutorial complete!",
    do_tile: "Tap {0} twice", do_btn: "Tap “{0}”", watch: "The bots are playing…", nudge: "In the tutorial, follow the prompt: {0}",
    done: "Tutorial complete", learner: "Learner",
  },
};
const w = wordPack(W);
const $ = id => document.getElementById(id);
const TAP = new Set(["discard", "special_kong", "laizi_kong"]);
const ORDER = ["chi", "peng", "kong", "ankong", "addkong", "ron", "tsumo", "pass"];
const LESSON_OF = { discard: "discard", peng: "open", chi: "chi", special_kong: "red", laizi_kong: "lzkong",
  kong: "kong", ankong: "kong", addkong: "kong", pass: "pass", ron: "win", tsumo: "win" };
const AUTO_MS = 450;  // a bot's move shows this long

const TU = { data: null, i: 0, table: null, selected: null, taught: new Set(), timer: null, card: null, waiting: false };
const SEATS = () => [{ nickname: w("learner"), connected: true },  // no account: no avatar to fetch
  { bot: true }, { bot: true }, { bot: true }];

function el(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function step() { return TU.data.steps[TU.i]; }
function mine(s) { return s.seat === 0 && s.action; }
const label = actionLabel;

// ------------------------------------------------------------------ the coach card
function coach(id, { extra = null, last = false } = {}) {
  return new Promise(resolve => {
    $("coach-h").textContent = w(`${id}_h`);
    const body = $("coach-body");
    body.textContent = "";
    const v = step().view;
    const args = { intro: [TU.data.seed], laizi: [tileName(v.indicator), tileName(v.laizi)],
      discard: [mine(step()) ? tileName(step().action.tile) : ""], lzkong: [tileName(v.laizi)] }[id] || [];
    el("p", "", w(id, ...args), body);
    if (extra) body.appendChild(extra);
    $("coach-ok").textContent = last ? w("again") : w(id === "intro" ? "start" : "ok");
    $("coach-lobby").classList.toggle("hidden", !last);
    $("coach-howto").classList.toggle("hidden", !last);
    $("coach-lobby").textContent = w("lobby");
    $("coach-howto").textContent = w("howto");
    $("sheet-coach").dataset.lesson = id;
    $("sheet-coach").classList.remove("hidden");
    $("sheet-coach").querySelector(".sheet-body").scrollTop = 0;
    $("coach-ok").onclick = () => { $("sheet-coach").classList.add("hidden"); resolve(); };
  });
}

function laiziTiles(v) {
  const row = el("div", "hx-tiles coach-tiles");
  row.append(tileEl(v.indicator, { size: "meld" }), " → ", tileEl(v.laizi, { size: "meld", laizi: v.laizi }));
  return row;
}

// ------------------------------------------------------------------ the table
function ctx(s) {
  const a = mine(s);
  const prev = TU.i > 0 ? TU.data.steps[TU.i - 1] : null;
  const ev = prev && prev.action ? { ...prev.action, seat: prev.seat } : null;
  return {
    me: 0, seats: SEATS(), live: true, deadlineLeft: null, selected: TU.selected, onTile,
    lastLine: ev ? describe(ev, SEATS(), s.view.dealer) || "" : "", hint: a && TAP.has(a.type) ? { tile: a.tile } : null,
  };
}

function render() {
  const s = step();
  renderTable(TU.table, s.view, ctx(s));
  renderActions(s);
  const a = mine(s);
  const prompt = $("status-line");
  if (s.view.phase === "over") prompt.textContent = w("done");
  else if (!a) prompt.textContent = w("watch");
  else prompt.textContent = TAP.has(a.type) ? w("do_tile", tileName(a.tile)) : w("do_btn", label(a));
  document.body.dataset.step = String(TU.i);
}

function renderActions(s) {
  const box = $("actions");
  box.textContent = "";
  const want = mine(s);
  const legal = (s.seat === 0 ? s.view.legal || [] : []).filter(a => ORDER.includes(a.type));
  legal.sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
  for (const a of legal) {
    const b = el("button", `act act-${a.type}` + (a.type === "ron" || a.type === "tsumo" ? " win" : ""), actionLabel(a), box);
    b.type = "button";
    b.dataset.act = a.type;
    if (a.tile) b.dataset.tile = a.tile;
    const right = want && a.type === want.type && (a.tile || null) === (want.tile || null);
    if (right) b.classList.add("coach-mark");
    b.addEventListener("click", () => (right ? advance() : nudge()));
  }
  box.classList.toggle("empty", !box.childElementCount);
}

function nudge() {
  const a = mine(step());
  if (!a) return;
  $("status-line").textContent = w("nudge", TAP.has(a.type) ? w("do_tile", tileName(a.tile)) : w("do_btn", label(a)));
}

function onTile(i, a, direct) {
  const want = mine(step());
  if (!want || !TAP.has(want.type) || a.tile !== want.tile) { TU.selected = null; render(); nudge(); return; }
  if (direct || TU.selected === i) { TU.selected = null; advance(); return; }
  TU.selected = i;
  render();
}

// ------------------------------------------------------------------ the steps
function advance() {
  if (TU.i >= TU.data.steps.length - 1) return;
  TU.i += 1;
  TU.selected = null;
  show();
}

async function show() {
  clearTimeout(TU.timer);
  const s = step();
  render();
  const v = s.view;
  // (ready: waits on a 3n+1 hand; after a draw the frame keeps the waits of the hand before it)
  const ready = (v.waits || []).length && (v.hand || []).length % 3 === 1;
  if (ready && !TU.taught.has("ready")) { TU.taught.add("ready"); await coach("ready"); }
  if (v.phase === "over") { await finish(); return; }
  const a = mine(s);
  if (a) {
    const lesson = LESSON_OF[a.type];
    if (lesson && !TU.taught.has(lesson)) { TU.taught.add(lesson); await coach(lesson); }
    render();
    return;  // the learner's move: a tap advances
  }
  TU.timer = setTimeout(advance, AUTO_MS);
}

async function finish() {
  const s = step();
  const box = el("div", "coach-settle");
  renderSettlement(box, s.view, { seats: SEATS(), me: 0, card: cardText(TU.card) });
  await coach("settle", { extra: box, last: true });
  restart();
}

async function restart() {
  clearTimeout(TU.timer);
  TU.i = 0;
  TU.selected = null;
  TU.taught = new Set();
  render();
  await coach("intro");
  await coach("laizi", { extra: laiziTiles(step().view) });
  show();
}

async function boot() {
  setLang(getLang());
  applyI18n();
  const words = () => {
    document.title = `${w("title")} · laizi`;
    $("tu-home").textContent = t("lobby");
    $("tu-again").textContent = w("again");
    $("tu-lang").textContent = t("lang");
  };
  words();
  $("tu-lang").addEventListener("click", toggleLang);
  $("tu-again").addEventListener("click", restart);
  for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", () => $(b.dataset.close).classList.add("hidden"));
  TU.data = await (await fetch("/static/tutorial-hand.json")).json();
  TU.table = buildTable($("game-table"), { live: true });
  applyI18n(TU.table);
  TU.table.querySelector(".seat.pos-bottom").appendChild($("actions"));
  onLang(() => { words(); render(); });
  TU.card = await cardFor({ preset_name: TU.data.preset });
  restart();
}

boot();
