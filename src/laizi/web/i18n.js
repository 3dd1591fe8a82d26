// Chinese by default, English switch (remembered in localStorage).
const I18N = {
  zh: {
    title: "武汉麻将 · 红中赖子杠", lobby: "大厅", calc: "算分器", lang: "English",
    nickname: "昵称", save: "确定", create_room: "创建房间", join_room: "加入房间", room_code: "房间号",
    preset: "玩法", rounds: "圈数", claim_seconds: "抢牌秒数", turn_seconds: "出牌秒数", options: "规则选项 (JSON)",
    join: "加入", spectate: "观战", open_rooms: "房间列表", no_rooms: "暂无房间", seat: "座位",
    sit: "坐下", stand: "起身", add_bot: "加机器人", remove_bot: "移除机器人", start: "开始",
    empty: "空位", bot: "机器人", host: "房主", leave: "离开", chat: "聊天", send: "发送",
    auto: "托管", auto_on: "托管中", hints: "提示", replay: "回放", spectator: "观众",
    winds: ["东", "南", "西", "北"], dealer: "庄", wall: "牌墙", indicator: "翻牌", laizi: "赖子",
    your_turn: "轮到你了", waiting: "等待其他玩家…", hand: "手牌", discards: "弃牌", melds: "副露",
    special_kongs: "杠出", scores: "分数", match_table: "比分表", hand_no: "局", total: "合计",
    hand_over: "本局结束", match_over: "比赛结束", next_hand: "继续", close: "关闭",
    drawn: "荒庄", winner: "胡牌", payments: "得分", seed: "种子", commitment: "承诺",
    reconnecting: "正在重连…", connected: "已连接", version: "版本",
    discard: "打出", tsumo: "自摸", ron: "胡", peng: "碰", chi: "吃", kong: "杠", ankong: "暗杠",
    addkong: "蓄杠", special_kong: "红中杠", laizi_kong: "赖子杠", pass: "过",
    voice: "语音", level: "等级", easy: "简单", normal: "普通", hard: "困难",
    escape_confirm: "比赛进行中，离开将被扣逃跑分，确定吗？", copy_link: "复制链接",
    calc_title: "算分器", calc_submit: "算分", raw_json: "原始 JSON", result: "结果",
    ok_win: "可以胡", not_win: "不能胡", big_hands: "大胡", small_hand: "屁胡", hard_win: "硬胡",
    liable: "包牌", topped: "封顶", load_example: "示例",
    win_tile: "胡的牌", win_by: "方式", from_seat: "放冲/被抢", after_kong: "杠上开花", haidi: "海底",
    by_discard: "点炮", by_self_draw: "自摸", by_rob_kong: "抢杠",
    players: "玩家", concealed: "手牌(不含胡的牌)", melds_lines: "副露 (每行一个, 如 peng 9p from 3)",
    spk: "杠出的红中/赖子", ready: "听牌", quick: "快捷语", replay_of: "回放：比赛",
    prev: "上一步", next: "下一步", play: "播放", pause: "暂停", events: "事件",
  },
  en: {
    title: "Wuhan Mahjong · Red-Dragon Laizi", lobby: "Lobby", calc: "Calculator", lang: "中文",
    nickname: "Nickname", save: "OK", create_room: "Create room", join_room: "Join room", room_code: "Room code",
    preset: "Preset", rounds: "Rounds", claim_seconds: "Claim seconds", turn_seconds: "Turn seconds", options: "Rule options (JSON)",
    join: "Join", spectate: "Watch", open_rooms: "Rooms", no_rooms: "No rooms yet", seat: "Seat",
    sit: "Sit", stand: "Stand up", add_bot: "Add bot", remove_bot: "Remove bot", start: "Start",
    empty: "empty", bot: "bot", host: "host", leave: "Leave", chat: "Chat", send: "Send",
    auto: "Auto-play", auto_on: "Auto-playing", hints: "Hints", replay: "Replay", spectator: "Spectator",
    winds: ["East", "South", "West", "North"], dealer: "Dealer", wall: "Wall", indicator: "Indicator", laizi: "Laizi",
    your_turn: "Your turn", waiting: "Waiting for others…", hand: "Hand", discards: "Discards", melds: "Melds",
    special_kongs: "Kongs out", scores: "Scores", match_table: "Match table", hand_no: "Hand", total: "Total",
    hand_over: "Hand over", match_over: "Match over", next_hand: "Continue", close: "Close",
    drawn: "Drawn hand", winner: "Winner", payments: "Payments", seed: "Seed", commitment: "Commitment",
    reconnecting: "Reconnecting…", connected: "Connected", version: "version",
    discard: "Discard", tsumo: "Self-draw win", ron: "Win", peng: "Pung", chi: "Chow", kong: "Kong", ankong: "Concealed kong",
    addkong: "Added kong", special_kong: "Special kong", laizi_kong: "Laizi kong", pass: "Pass",
    voice: "Voice", level: "Level", easy: "easy", normal: "normal", hard: "hard",
    escape_confirm: "The match is running: leaving charges the escape penalty. Leave?", copy_link: "Copy link",
    calc_title: "Score calculator", calc_submit: "Score", raw_json: "Raw JSON", result: "Result",
    ok_win: "Valid win", not_win: "Not a win", big_hands: "Big hands", small_hand: "Small hand", hard_win: "Hard win",
    liable: "Liable", topped: "Topped out", load_example: "Example",
    win_tile: "Winning tile", win_by: "By", from_seat: "From seat", after_kong: "After kong", haidi: "Haidi",
    by_discard: "discard", by_self_draw: "self-draw", by_rob_kong: "robbing a kong",
    players: "Players", concealed: "Concealed (without the winning tile)", melds_lines: "Melds (one per line, e.g. peng 9p from 3)",
    spk: "Special/laizi kongs", ready: "Ready", quick: "Quick phrases", replay_of: "Replay: match",
    prev: "Back", next: "Step", play: "Play", pause: "Pause", events: "Events",
  },
};
let LANG = localStorage.getItem("laizi.lang") || "zh";
function t(key) { return (I18N[LANG] && I18N[LANG][key]) ?? I18N.zh[key] ?? key; }
function setLang(l) { LANG = l; localStorage.setItem("laizi.lang", l); applyI18n(); document.documentElement.lang = l === "zh" ? "zh-CN" : "en"; if (window.onLangChange) window.onLangChange(); }
function toggleLang() { setLang(LANG === "zh" ? "en" : "zh"); }
function applyI18n(root = document) {
  root.querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-ph]").forEach(el => { el.placeholder = t(el.dataset.i18nPh); });
}
// Tiles: "5m" -> element
const NUM_CN = "一二三四五六七八九", HONOR_CN = "东南西北白发中", SUIT_CN = { m: "万", p: "筒", s: "条" };
const HONOR_EN = ["E", "S", "W", "N", "Wh", "G", "R"], SUIT_EN = { m: "char", p: "dot", s: "bam" };
function tileLabel(code) {
  const n = +code[0], s = code[1];
  if (s === "z") return LANG === "zh" ? [HONOR_CN[n - 1], ""] : [HONOR_EN[n - 1], ""];
  return LANG === "zh" ? [NUM_CN[n - 1], SUIT_CN[s]] : [String(n), SUIT_EN[s]];
}
function tileEl(code, opts = {}) {
  const el = document.createElement("span");
  if (!code || code === "?") { el.className = "tile back" + (opts.small ? " small" : ""); return el; }
  const [a, b] = tileLabel(code);
  el.className = `tile ${code[1]} ${code[1]}${code[0]}` + (opts.small ? " small" : "");
  el.dataset.tile = code;
  el.title = code;
  el.innerHTML = `<span class="n">${a}</span><span class="s">${b}</span>`;
  if (opts.laizi && code === opts.laizi) el.classList.add("laizi");
  if (opts.special && opts.special.includes(code)) el.classList.add("special");
  return el;
}
function parseTiles(text) { // "123m77z" -> ["1m","2m","3m","7z","7z"]
  const out = []; let digits = "";
  for (const ch of text || "") {
    if (ch >= "0" && ch <= "9") digits += ch;
    else if ("mpsz".includes(ch)) { for (const d of digits) out.push(d + ch); digits = ""; }
  }
  return out;
}
function speak(text) {
  try {
    if (!window.speechSynthesis || localStorage.getItem("laizi.voice") !== "1") return;
    const u = new SpeechSynthesisUtterance(text); u.lang = "zh-CN"; speechSynthesis.speak(u);
  } catch (e) { /* voice is optional */ }
}
function escapeHtml(s) { return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c])); }
