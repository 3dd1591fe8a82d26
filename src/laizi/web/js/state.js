// Client state: one object, plain data, with a tiny event emitter for the views.
export function load(key, fallback = null) {
  try { return localStorage.getItem(key) ?? fallback; } catch (e) { return fallback; }
}

/** What of a welcome this browser keeps (localStorage "laizi.kept"): the frame tables and the
 *  quick phrases with their ids — a hello names them (``have``) and the welcome leaves them out. */
function loadKept() {
  try {
    const k = JSON.parse(load("laizi.kept") || "{}");
    const out = {};
    if (k && typeof k.tables_id === "string" && Array.isArray(k.keys) && Array.isArray(k.shapes)) {
      out.tables_id = k.tables_id; out.keys = k.keys; out.shapes = k.shapes;
    }
    if (k && typeof k.phrases_id === "string" && k.phrases && typeof k.phrases === "object") {
      out.phrases_id = k.phrases_id; out.phrases = k.phrases;
    }
    return out;
  } catch (e) { return {}; }
}

export const S = {
  kept: loadKept(),
  token: load("laizi.token"), pid: null, nick: load("laizi.nick", ""),
  helloToken: null,      // the token the socket's last hello carried (net.js)
  conn: "connecting", everConnected: false,
  room: null, seat: null, v: 0, view: null, seq: 0, deadlineAt: null, matchId: null,
  phrases: {}, botLevels: [], wantRoom: null, wantSpectate: false,
  log: [], logV: 0,      // the log: events (each once, by its version logV)
  hints: load("laizi.hints") === "1", hintsData: null,
  selected: null,        // index of the raised tile in the own hand
  choosing: null,        // "chi" / "kong": the action bar shows that claim's choices as tile groups
  settleHand: null,      // hand number whose settlement is open (null: none)
  settleClosed: new Set(),
  settleView: null,      // the view of the finished hand shown in the settlement
  timer: null,           // the public countdown {seat (null: a claim window), at}
  settle: null,          // between hands: {left, waiting, continued, at}
  rematch: null,         // after the match: the seats that accepted 再来一局
};

/** The lobby's social state (quick match, coins, friends: quick.js, friends.js). */
export const SOC = {
  registered: false, balance: null, levels: [], quick: null, me: null, presets: [],
  queues: {},            // quick match: level -> {preset: players waiting}
  pollTimer: null,       // quick match: the next poll of the queue
  coinsTries: 0,         // GET /api/coins failed this many times in a row (retried, up to 3)
  friends: null,         // GET /api/friends {friends, incoming, outgoing}
  invites: [],           // open invites to me, newest first
  inviteCards: new Map(),  // room code -> its rule card {zh, en} (GET /api/rooms/{code}, once per room)
};

/** The live table page's own state (main.js): what is on screen, beside the game state in S. */
export const PAGE = {
  table: null,           // the table element (built at the first frame)
  lastOver: null,        // the view of the last finished hand (fairness panel)
  unread: 0,             // chat lines that came while the chat sheet was closed
  announce: [],          // 碰!/杠!/胡! words waiting for the next render: [seat, word]
  hintsAsked: null,      // the socket and room hints were switched on for ("generation:code")
  lastShown: null,       // the countdowns the last tick showed
  logShown: [],          // the log items on screen, oldest first (renderLog appends the new ones)
  dissolve: null,        // clubs: the last "dissolve" message of an open proposal (dissolve.js)
  muted: new Set(),      // clubs: the players this one muted (etiquette.js)
  reporting: null,       // clubs: the player id whose report form is open
  resyncing: false,      // a resync asked for: updates wait for its snapshot
  tableGone: false,      // the finished room left the server (再来一局 too late): no 再来一局 offered
  leaving: false,        // 回大厅 pressed: its leave is on its way
  resyncs: 0,            // resyncs asked on this page (body[data-resyncs], for tests)
  dissolveDisarm: 0,     // the timer that puts 确定解散？ back to 申请解散 (dissolve.js)
  staleMove: false,      // a move refused as stale_version: its snapshot says whether to show 请重试
  logPizi: null,         // the 皮子 of the hand the log's events belong to (its last start_hand)
};

const subs = {};
export const store = {
  on(ev, fn) { (subs[ev] = subs[ev] || []).push(fn); },
  emit(ev, ...a) { for (const fn of subs[ev] || []) fn(...a); },
};

export function save(key, value) {
  try { if (value == null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch (e) { /* ignore */ }
}
