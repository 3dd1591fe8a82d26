// 玩法说明 (/static/howto.html?rules=<JSON>): the rules page of any rule set — the room's own from
// the table's menu, or a preset chosen here. Generated from the rule set in the rule card's words
// (GET /api/rules?rules=…: laizi.rulecatalog.card_of, every option's value in words) with examples
// drawn in the project's SVG tiles (howto-examples.json: score requests, scored by the tests).
// Text only (textContent); every word from W below or from the server's catalogue.
// The glossary (术语, #glossary: TABLE.md "Words"): each game term in the table's own word (i18n.js,
// the page's language), in English with the Chinese term beside it, and one line of meaning.
import { getLang, setLang, toggleLang, onLang, applyI18n, tileName, bigHandName, wordPack, t, winBy } from "./i18n.js";
import { tileEl } from "./tiles.js";

const W = {
  zh: {
    title: "玩法说明", choose: "玩法", this_table: "这一桌", card: "规则卡",
    s_basics: "基本规则", s_hands: "胡牌与大胡", s_points: "起胡与封顶", s_all: "本桌全部规则",
    tiles: "一副牌 136 张：万、筒、条各 1-9，东南西北中发白各 4 张。每人 13 张，庄家 14 张。",
    laizi: "赖子：开局翻一张牌（翻牌），它的下一张就是赖子（例：翻{0}，赖子是{1}）。赖子可以当任何牌用。",
    laizi_kong: "赖子杠：把赖子亮出来放在一边，算 2 番，再补一张。{0}也要杠出来（{0}杠 1 番），手里有就不能胡。",
    open: "开口：吃、碰、明杠叫开口。{0}",
    open_need: "每一手牌都必须开口才能胡，大胡也一样。",
    open_need_jy: "除了门前清和七对，每一手牌都必须开口才能胡。",
    pair: "将（对子）：小胡的将必须是二、五、八（二五八将），例如：",
    claim: "吃只能吃上家打的牌；碰、明杠任何人打的都可以；胡优先于碰杠，碰杠优先于吃。",
    kongs: "杠：明杠（别人打的）1 番，蓄杠（碰后自己摸到）1 番，暗杠 2 番。杠后从牌尾补一张。",
    hard_soft: "没用赖子、或赖子都当本身用的胡叫硬胡，多 1 番。",
    hands_intro: "大胡的底分比屁胡高；几个大胡同时成立时，底分{0}。",
    min: "起胡：{0}。不够起胡的牌不能胡（够番才能胡）。",
    caps: "封顶：每家最多付 {0}。三家都到封顶时：开过口的付金顶 {1}，没开口（阳光）的付阳光顶 {2}，三家都没开口各付哈顶 {3}。",
    cap_example: "封顶的例子：下面这手碰碰胡三家都到封顶，开口的两家付金顶，没开口的一家付阳光顶。",
    example: "例", win_on: "胡", laid: "杠出", self_draw: "自摸", discard: "放冲", rob: "抢杠", after_kong: "杠上开花", last_tile: "海底",
    ex_pair258: "二五八将：五条对子做将（屁胡，已开口）",
    ex_laizi_kong: "亮出的赖子（赖子杠，2 番）和红中杠",
    bh_pengpeng: "碰碰胡：四副都是刻子（碰或杠）加一对将。",
    bh_qingyise: "清一色：全部是同一门花色。",
    bh_fengyise: "风一色：全部是风牌和箭牌。",
    bh_jiangyise: "将一色：全部是二、五、八。",
    bh_quanqiuren: "全求人：吃碰了四副，手里只剩一张，胡别人打的牌。",
    bh_gangkai: "杠上开花：杠后补的牌自摸胡。",
    bh_qianggang: "抢杠：别人蓄杠时胡他加的那张牌。",
    bh_haidi: "海底捞月：最后几张牌（海底）自摸胡。",
    bh_menqing: "门前清：没有吃、碰、明杠，不开口也能胡（本桌算大胡）。",
    bh_qidui: "七对：七个对子（本桌算大胡）。",
    bad: "规则有误：{0}", back: "返回", lobby: "大厅",
    bad_link: "这个链接里的规则读不出来，下面是默认的开口番。", bad_option: "这个链接里的规则有一项不对（{0}），下面是默认的开口番。",
    s_words: "术语", words_link: "术语 ↓",
    gg_tiles: "牌", gg_claims: "吃、碰、杠", gg_win: "胡牌", gg_score: "算分", gg_table: "牌桌上",
    gw_minggang: "明杠", gw_kaikou: "开口",
    gm_dealer: "拿 14 张、先出牌的人，坐东。", gm_indicator: "开局翻开的一张牌，它的下一张就是赖子。",
    gm_laizi: "翻牌的下一张，胡牌时可以当任何牌。", gm_pizi: "七皮四赖：翻牌那种牌和它前一种牌，要像红中一样杠出来。",
    gm_chi: "拿上家打的牌，凑成顺子。", gm_peng: "拿任何人打的牌，凑成三张一样的。", gm_kong: "四张一样的牌；杠后从牌尾补一张。",
    gm_minggang: "手里三张，杠别人打的第四张，1 番。", gm_ankong: "自己摸齐四张一样的，2 番。",
    gm_addkong: "碰了以后摸到第四张加上去，1 番。", gm_special_kong: "把红中亮出来放一边，1 番，再补一张；手里有红中不能胡。",
    gm_fa_kong: "红中发财杠的玩法里，发财也这样杠出来，1 番。", gm_laizi_kong: "把赖子亮出来放一边，2 番，再补一张。",
    gm_pizi_kong: "把皮子亮出来放一边，1 番，再补一张。", gm_pass: "不吃、不碰、不胡，让这张牌过去。",
    gm_ting: "再来一张就能胡。", gm_ron: "牌成了：四副牌加一对将，或者大胡。", gm_tsumo: "胡自己摸到的牌，三家都付。",
    gm_discard: "你打出的牌被别人胡了。", gm_rob: "别人蓄杠时，胡他加上的那张牌。",
    gm_gangkai: "杠后补的牌自摸胡，是大胡。", gm_haidi: "最后几张牌自摸胡，是大胡。",
    gm_small_hand: "没有大胡的胡牌，将要二、五、八。", gm_big_hands: "碰碰胡、清一色等，底分比屁胡高。",
    gm_hard: "没用赖子当别的牌，多 1 番。", gm_soft: "用了赖子当别的牌。", gm_fan: "每 1 番，付的分数翻一倍。",
    gm_kaikou: "吃、碰或明杠过；一般要开口才能胡。", gm_cap: "每家最多付的分数。",
    gm_golden: "三家都到封顶时，开过口的付金顶。", gm_sunshine: "三家都到封顶时，没开口的付阳光顶。",
    gm_ha: "三家都到封顶又都没开口时，各付哈顶。", gm_liable: "一家替三家付（例如被抢杠的人）。",
    gm_ready: "开局前点准备，四家都准备好就开始。", gm_auto: "让电脑替你打，点取消托管收回。",
  },
  en: {
    title: "How to play", choose: "Rules", this_table: "this table", card: "Rule card",
    s_basics: "Basics", s_hands: "Winning and the big hands", s_points: "Minimum and caps", s_all: "Every rule of this table",
    tiles: "136 tiles: Characters, Dots and Bamboo 1-9, the four winds and three dragons, 4 of each. 13 tiles each, the dealer 14.",
    laizi: "The laizi: a tile is flipped at the start (the indicator); the next tile is the laizi (e.g. indicator {0}, laizi {1}). A laizi stands for any tile.",
    laizi_kong: "Laizi kong: lay a laizi aside for 2 fan and draw a replacement. {0} must be laid aside too (1 fan); holding one, you cannot win.",
    open: "Opening: a chow, a pung or an exposed kong opens the hand. {0}",
    open_need: "Every hand must be open to win, big hands too.",
    open_need_jy: "Every hand but a concealed hand or seven pairs must be open to win.",
    pair: "The pair of a small hand must be 2, 5 or 8, for example:",
    claim: "Chow only the discard of the player before you; pung or kong anyone's; a win beats a pung or kong, which beats a chow.",
    kongs: "Kongs: exposed (a discard) 1 fan, added (to your pung) 1 fan, concealed 2 fan; then draw a replacement from the end of the wall.",
    hard_soft: "A win without a laizi standing for another tile is hard: one more fan.",
    hands_intro: "Big hands have a higher base than a small hand; several at once {0}.",
    min: "Minimum to win: {0}. A win that does not reach it cannot be declared.",
    caps: "Cap: a loser pays at most {0}. When all three reach it, an opened loser pays the golden cap {1}, an unopened one the sunshine cap {2}, and if none opened each pays the ha cap {3}.",
    cap_example: "A cap: all three reach it on this all-pungs hand; the two opened losers pay the golden cap, the unopened one the sunshine cap.",
    example: "e.g.", win_on: "wins on", laid: "laid aside", self_draw: "self-draw", discard: "deal-in", rob: "robbing a kong", after_kong: "after a kong", last_tile: "last tile",
    ex_pair258: "The 2-5-8 pair: a pair of 5 Bamboo (small hand, opened)",
    ex_laizi_kong: "A laid-aside laizi (laizi kong, 2 fan) and a Red Dragon kong",
    bh_pengpeng: "All pungs: four pungs or kongs and a pair.",
    bh_qingyise: "Full flush: every tile of one suit.",
    bh_fengyise: "All honours: only winds and dragons.",
    bh_jiangyise: "All 2-5-8: only twos, fives and eights.",
    bh_quanqiuren: "All melded: four melds claimed, one tile left, won on a discard.",
    bh_gangkai: "Win after a kong: a self-draw on the replacement tile.",
    bh_qianggang: "Robbing a kong: win on the tile another player adds to a pung.",
    bh_haidi: "Last tile: a self-draw among the last tiles of the wall.",
    bh_menqing: "Concealed hand: no chow, pung or exposed kong; it may win unopened (a big hand at this table).",
    bh_qidui: "Seven pairs (a big hand at this table).",
    bad: "Bad rules: {0}", back: "Back", lobby: "Lobby",
    bad_link: "The rules in this link cannot be read; the default open-fan rules are shown below.",
    bad_option: "One of the rules in this link is wrong ({0}); the default open-fan rules are shown below.",
    s_words: "Words", words_link: "Words ↓",
    gg_tiles: "Tiles", gg_claims: "Chow, pung, kong", gg_win: "Winning", gg_score: "Scoring", gg_table: "At the table",
    gw_minggang: "Exposed kong", gw_kaikou: "opened",
    gm_dealer: "Holds 14 tiles, plays first and sits East.", gm_indicator: "The tile turned up at the start; the next tile is the laizi.",
    gm_laizi: "The tile after the indicator; in a win it stands for any tile.", gm_pizi: "Seven pizi, four laizi: the indicator's tiles and those of the tile before it, laid aside like a Red Dragon.",
    gm_chi: "Take the discard of the player before you to make a run.", gm_peng: "Take anyone's discard to make three of a kind.", gm_kong: "Four of a kind; then draw a replacement from the end of the wall.",
    gm_minggang: "Three in hand and the fourth from a discard: 1 fan.", gm_ankong: "Four of a kind drawn yourself: 2 fan.",
    gm_addkong: "The fourth tile drawn and added to your pung: 1 fan.", gm_special_kong: "A Red Dragon laid aside: 1 fan, then a replacement. Holding one, you cannot win.",
    gm_fa_kong: "With the Red and Green Dragon kongs, a Green Dragon is laid aside the same way: 1 fan.", gm_laizi_kong: "A laizi laid aside: 2 fan, then a replacement.",
    gm_pizi_kong: "A pizi laid aside: 1 fan, then a replacement.", gm_pass: "Let the discard go: no chow, pung, kong or win.",
    gm_ting: "One tile away from a win.", gm_ron: "A complete hand: four sets and a pair, or a big hand.", gm_tsumo: "Win on a tile you drew yourself; all three pay.",
    gm_discard: "Your discard is the tile another player wins on.", gm_rob: "Win on the tile another player adds to a pung.",
    gm_gangkai: "A self-draw on a kong's replacement tile: a big hand.", gm_haidi: "A self-draw among the last tiles of the wall: a big hand.",
    gm_small_hand: "A win with no big hand; its pair must be 2, 5 or 8.", gm_big_hands: "All pungs, full flush and the like: a higher base than a small hand.",
    gm_hard: "No laizi stands for another tile: one more fan.", gm_soft: "A laizi stands for another tile.", gm_fan: "Each fan doubles the payment.",
    gm_kaikou: "Made a chow, pung or exposed kong; a hand must be open to win (most rules).", gm_cap: "The most one loser pays.",
    gm_golden: "When all three reach the cap, an opened loser pays this.", gm_sunshine: "When all three reach the cap, an unopened loser pays this.",
    gm_ha: "When all three reach the cap and none opened, each pays this.", gm_liable: "One loser pays for all three (e.g. the player robbed of a kong).",
    gm_ready: "Tap before a hand; it starts when all four are in.", gm_auto: "The computer plays for you until you stop it.",
  },
};
const w = wordPack(W);
const $ = id => document.getElementById(id);
// The glossary's rows by group: [id, the term (TABLE.md's Chinese word), the table's word for it in
// the page's language]. The word is i18n.js's — what the table's buttons and lines say (听's
// "Ready:" without its colon); a term the table has no word of (明杠: its button says 杠; 开口)
// has the page's own (gw_…). The Chinese term is shown beside the English once, here; i18n.js
// keeps no table by language to read it from, so tests/web/test_glossary.py checks that each
// term is i18n.js's Chinese word.
const TERMS = [
  ["gg_tiles", [["dealer", "庄", () => t("dealer")], ["indicator", "翻牌", () => t("indicator")],
    ["laizi", "赖子", () => t("laizi")], ["pizi", "皮子", () => t("pizi")]]],
  ["gg_claims", [["chi", "吃", () => t("chi")], ["peng", "碰", () => t("peng")], ["kong", "杠", () => t("kong")],
    ["minggang", "明杠", () => w("gw_minggang")], ["ankong", "暗杠", () => t("ankong")], ["addkong", "蓄杠", () => t("addkong")],
    ["special_kong", "红中杠", () => t("special_kong")], ["fa_kong", "发财杠", () => t("fa_kong")],
    ["laizi_kong", "赖子杠", () => t("laizi_kong")], ["pizi_kong", "皮子杠", () => t("pizi_kong")], ["pass", "过", () => t("pass")]]],
  ["gg_win", [["ting", "听牌", () => t("ting").replace(/[:：]\s*$/, "")], ["ron", "胡", () => t("ron")],
    ["tsumo", "自摸", () => t("tsumo")], ["discard", "放冲（点炮）", () => winBy("discard")], ["rob", "抢杠", () => winBy("rob_kong")],
    ["gangkai", "杠上开花", () => t("gangkai")], ["haidi", "海底捞月", () => t("haidi")],
    ["small_hand", "屁胡", () => t("small_hand")], ["big_hands", "大胡", () => t("big_hands")],
    ["hard", "硬胡", () => t("hard")], ["soft", "软胡", () => t("soft")]]],
  ["gg_score", [["fan", "番", () => t("fan")], ["kaikou", "开口", () => w("gw_kaikou")], ["cap", "封顶", () => t("cap_cap")],
    ["golden", "金顶", () => t("cap_golden")], ["sunshine", "阳光顶", () => t("cap_sunshine")], ["ha", "哈顶", () => t("cap_ha")],
    ["liable", "承包", () => t("liable")]]],
  ["gg_table", [["ready", "准备", () => t("ready")], ["auto", "托管", () => t("auto")]]],
];
const BIG = ["pengpeng", "qingyise", "fengyise", "jiangyise", "quanqiuren", "gangkai", "qianggang", "haidi", "menqing", "qidui"];

function el(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text != null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

/** "345p5s" -> ["3p","4p","5p","5s"]; "7z7z" -> ["7z","7z"]. */
function codes(text) {
  const out = [];
  let digits = "";
  for (const ch of text || "") {
    if (/\d/.test(ch)) digits += ch;
    else { for (const d of digits) out.push(d + ch); digits = ""; }
  }
  return out;
}

function meldTiles(m) {
  const [type, what] = m.split(" ");
  const c = codes(what);
  if (type === "chi") return c;
  return Array(type === "peng" ? 3 : 4).fill(c[0]);
}

/** One example: the winner's melds, laid-aside kongs, concealed tiles and the winning tile. */
function drawExample(ex, caption) {
  const r = ex.request;
  const p = r.players[r.winner];
  const fig = el("figure", "hx-example");
  fig.dataset.example = ex.id;
  const row = el("div", "hx-tiles", null, fig);
  for (const m of p.melds) {
    const box = el("span", "meld", null, row);
    box.dataset.meld = m.split(" ")[0];
    for (const c of meldTiles(m)) box.appendChild(tileEl(c, { size: "meld", laizi: r.laizi }));
  }
  if (p.special_kongs) {
    const box = el("span", "meld spk", null, row);
    box.setAttribute("aria-label", w("laid"));
    for (const c of codes(p.special_kongs)) box.appendChild(tileEl(c, { size: "meld", laizi: r.laizi }));
  }
  const hand = el("span", "hx-hand", null, row);
  for (const c of codes(p.hand)) hand.appendChild(tileEl(c, { size: "meld", laizi: r.laizi }));
  const win = tileEl(r.win.tile, { size: "meld", laizi: r.laizi });
  win.classList.add("win-tile");
  row.appendChild(win);
  const how = r.win.after_kong ? w("after_kong") : r.win.haidi ? w("last_tile")
    : { self_draw: w("self_draw"), discard: w("discard"), rob_kong: w("rob") }[r.win.by];
  el("figcaption", "", `${caption} — ${w("win_on")} ${tileName(r.win.tile)} · ${how}`, fig);
  return fig;
}

function section(title, parent) {
  const s = el("section", "card hx-section", null, parent);
  el("h2", "", title, s);
  return s;
}

/** 术语 / Words (#glossary): in English each term's word with the Chinese term beside it (the one
 *  place the Chinese is shown); in Chinese the term alone. A line of meaning under each. */
function glossary(parent) {
  const zh = getLang() === "zh";
  const s = section(w("s_words"), parent);
  s.id = "glossary";
  s.dataset.testid = "glossary";
  for (const [group, rows] of TERMS) {
    el("h3", "", w(group), s);
    const dl = el("dl", "hx-opts hx-words", null, s);
    for (const [id, term, word] of rows) {
      const pair = el("div", "hx-word", null, dl);  // a term and its meaning kept together (style.css's columns)
      const dt = el("dt", "", zh ? term : word(), pair);
      dt.dataset.term = id;
      if (!zh) {
        dt.append(" · ");
        el("span", "hx-zh", term, dt).lang = "zh-CN";
      }
      el("dd", "", w(`gm_${id}`), pair);
    }
  }
}

// this module's state, in one place (tests/test_architecture.py: no module-level let)
// (BAD: the server's refusal of the link's rule set, shown above the default preset's page)
const ST = { CAT: null, EXAMPLES: [], RULES: null, CARD: null, FROM_URL: false, JUMPED: false, BAD: null };

async function load(rules) {
  let d = null, status = 0;
  try {
    const r = await fetch(`/api/rules?rules=${encodeURIComponent(JSON.stringify(rules))}`);
    status = r.status;
    d = await r.json();
    if (r.ok) ST.BAD = null;
    else { ST.BAD = { ...d, status }; d = null; }
  } catch (e) { ST.BAD = { error: String(e), status }; }
  if (!d) {  // a link's rules refused: the default preset's page below the refusal
    if (ST.FROM_URL) { ST.FROM_URL = false; const bad = ST.BAD; await load({ preset_name: "kaikoufan" }); ST.BAD = bad; }
    showBad();
    return;
  }
  ST.CAT = d;
  ST.CARD = d.card;
  ST.RULES = d.card.rules;
  render();
}

/** The link's refused rule set in the page's words (its option by the catalogue's name for it). */
function showBad() {
  const box = $("hx-error"), d = ST.BAD;
  box.classList.toggle("hidden", !d);
  if (!d) return;
  const name = d.params && d.params.option;
  const o = name && ST.CAT ? ST.CAT.options.find(x => x.name === name) : null;
  const label = o ? (getLang() === "zh" ? o.zh : o.en) : name;
  box.textContent = d.code === "bad_rules" ? (label ? w("bad_option", label) : w("bad_link")) : w("bad", d.error || d.status);
}

function render() {
  showBad();
  if (!ST.CAT) return;
  const zh = getLang() === "zh";
  const L = getLang();
  document.title = `${w("title")} · laizi`;
  $("hx-title").textContent = w("title");
  $("hx-choose").textContent = w("choose");
  const sel = $("hx-preset");
  const keep = ST.FROM_URL ? "" : ST.RULES.preset_name;
  sel.textContent = "";
  if (ST.FROM_URL) sel.add(new Option(w("this_table"), ""));
  for (const p of ST.CAT.presets) sel.add(new Option(zh ? p.zh : p.en, p.id));
  sel.value = keep;
  $("hx-card-h").textContent = w("card");
  $("hx-card").textContent = ST.CARD[L];
  const body = $("hx-body");
  body.textContent = "";
  const vals = ST.CARD.values[L];
  const val = name => vals[name];
  const special = val("special_tiles");
  const ex = id => ST.EXAMPLES.find(e => e.id === id);

  // basics: the tiles, the laizi, the laizi kong, opening, the 2/5/8 pair, claims, kongs
  const b = section(w("s_basics"), body);
  el("p", "", w("tiles"), b);
  const lzRow = el("p", "hx-laizi", w("laizi", tileName("5m"), tileName("6m")), b);
  const pair = el("span", "hx-pair", null, lzRow);
  pair.append(tileEl("5m", { size: "meld" }), " → ", tileEl("6m", { size: "meld", laizi: "6m" }));
  // (the English sentence begins with the card's value: "Red Dragons must be laid aside too")
  el("p", "", w("laizi_kong", L === "en" && special ? special[0].toUpperCase() + special.slice(1) : special), b);
  if (ex("laizi_kong")) b.appendChild(drawExample(ex("laizi_kong"), w("ex_laizi_kong")));
  el("p", "", w("open", w(ST.RULES.jiayu_hands ? "open_need_jy" : "open_need")), b);
  el("p", "", w("pair"), b);
  if (ex("pair258")) b.appendChild(drawExample(ex("pair258"), w("ex_pair258")));
  el("p", "", w("claim"), b);
  el("p", "", w("kongs"), b);
  el("p", "", w("hard_soft"), b);

  // the big hands this rule set has, each drawn
  const h = section(w("s_hands"), body);
  el("p", "", w("hands_intro", val("big_stack")), h);
  for (const id of BIG) {
    if ((id === "menqing" || id === "qidui") && !ST.RULES.jiayu_hands) continue;
    const e = ex(id);
    if (!e) continue;
    const box = el("div", "hx-big", null, h);
    box.dataset.big = id;
    el("h3", "", bigHandName(id), box);
    el("p", "", w(`bh_${id}`), box);
    box.appendChild(drawExample(e, bigHandName(id)));
  }

  // the minimum and the caps, with this table's numbers
  const pt = section(w("s_points"), body);
  el("p", "", w("min", `${val("min_points")} (${val("min_rule")})`), pt);
  el("p", "", w("caps", val("cap"), val("golden"), val("sunshine"), val("ha")), pt);
  if (ex("cap")) { el("p", "", w("cap_example"), pt); pt.appendChild(drawExample(ex("cap"), bigHandName("pengpeng"))); }

  // every option of this rule set: its name, its value here, what it means
  const all = section(w("s_all"), body);
  for (const g of ST.CAT.groups) {
    const opts = ST.CAT.options.filter(o => o.group === g.id);
    if (!opts.length) continue;
    el("h3", "", zh ? g.zh : g.en, all);
    const dl = el("dl", "hx-opts", null, all);
    for (const o of opts) {
      const dt = el("dt", "", zh ? o.zh : o.en, dl);
      dt.dataset.option = o.name;
      const dd = el("dd", "", null, dl);
      el("b", "hx-val", vals[o.name], dd);
      dd.append(" — ", zh ? o.help_zh : o.help_en);
      if (ST.CARD.items[L].some(it => it.name === o.name)) dt.classList.add("changed");
    }
  }

  glossary(body);
  $("hx-words-link").textContent = w("words_link");
  // a link to #glossary: the section exists only now, after the rules came
  if (!ST.JUMPED && location.hash === "#glossary") $("glossary").scrollIntoView();
  ST.JUMPED = true;
}

async function boot() {
  setLang(getLang());
  applyI18n();
  $("langbtn").addEventListener("click", toggleLang);
  onLang(render);
  try { ST.EXAMPLES = (await (await fetch("/static/howto-examples.json")).json()).examples; } catch (e) { ST.EXAMPLES = []; }
  const q = new URLSearchParams(location.search);
  let rules = { preset_name: "kaikoufan" };
  if (q.get("rules")) {
    try { rules = JSON.parse(q.get("rules")); ST.FROM_URL = true; } catch (e) { /* a bad link: the default preset */ }
  } else if (q.get("preset")) rules = { preset_name: q.get("preset") };
  $("hx-preset").addEventListener("change", () => {
    const v = $("hx-preset").value;
    if (!v) return;
    ST.FROM_URL = false;
    history.replaceState(null, "", `?preset=${encodeURIComponent(v)}`);
    load({ preset_name: v });
  });
  await load(rules);
}

boot();
