// Protocol client: one WebSocket, JSON frames (src/laizi/server/common/protocol.py), hello on every
// (re)connect, action sequence numbers kept per room and identity, gap detection → resync.
import { S, store } from "./state.js";

/** The table protocol this client speaks (laizi.server.common.protocol.PROTOCOL). */
export const PROTOCOL = 5;
const handlers = {};
// The connection's own state. Owner affinity (docs/cluster.md): a join relayed through another
// node is preceded by an "owner" hint; the next reconnect asks the proxy for that node
// (/ws?node=NAME, same origin). generation: one per opened socket — per-connection server state
// (hints) is asked once each.
const SOCK = { ws: null, retry: 0, ownerNode: null, hinted: null, generation: 0, helloTimer: 0, unanswered: 0 };
// A hello the server has not answered (no welcome, no error) in this long: the socket is given up
// and opened again — 6 s, 12 s, … up to 30 s when it keeps happening (a busy server is not pressed).
const HELLO_WAIT_MS = 6000;
// Refusals of a hello that a new socket would meet again (a page out of date, a nickname refused,
// a second identity on one socket): the page says so and waits for the player.
const HELLO_FINAL = new Set(["old_client", "bad_nickname", "identity_locked"]);

/** Which socket this is (grows by one per open): a server's per-connection switches reset with it. */
export function socketGeneration() { return SOCK.generation; }

export function on(type, fn) { handlers[type] = fn; }

function emitStatus(status) {
  S.conn = status;
  store.emit("conn");
}

export function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = SOCK.ownerNode ? `?node=${encodeURIComponent(SOCK.ownerNode)}` : "";
  const sock = new WebSocket(`${proto}//${location.host}/ws${q}`);
  SOCK.ws = sock;
  emitStatus(S.everConnected ? "lost" : "connecting");
  sock.addEventListener("open", () => {
    SOCK.retry = 0;
    SOCK.generation += 1;
    sayHello(sock);
    clearTimeout(SOCK.helloTimer);
    SOCK.helloTimer = setTimeout(() => {
      if (SOCK.ws !== sock) return;
      SOCK.unanswered += 1;
      connect();     // a new socket at once (the old one's close, however late, is ignored)
      sock.close();
    }, Math.min(HELLO_WAIT_MS * (1 + SOCK.unanswered), 30000));
  });
  sock.addEventListener("message", ev => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (!m || typeof m.type !== "string") return;
    // the hello answered: by its welcome, or by a refusal that asking again would not change. An
    // error the server may not say next time (internal, busy, a rate limit) leaves the hello's
    // wait running: the socket is opened again and says hello again (6 s, 12 s … up to 30 s)
    if (SOCK.ws === sock && (m.type === "welcome" || (m.type === "error" && HELLO_FINAL.has(m.code)))) {
      clearTimeout(SOCK.helloTimer);
      if (m.type === "welcome") SOCK.unanswered = 0;
    }
    if (m.type === "owner") {
      SOCK.hinted = typeof m.node === "string" && /^[A-Za-z0-9._-]{1,40}$/.test(m.node) ? m.node : null;
    } else if (m.type === "joined") {
      SOCK.ownerNode = SOCK.hinted;
      SOCK.hinted = null;
    }
    const fn = handlers[m.type];
    if (fn) fn(m);
  });
  sock.addEventListener("close", () => {
    if (SOCK.ws !== sock) return;
    clearTimeout(SOCK.helloTimer);  // (this close reconnects: the hello's wait must not open a second socket)
    emitStatus("lost");
    SOCK.retry = Math.min(SOCK.retry + 1, 6);
    setTimeout(connect, 250 * SOCK.retry);
  });
}

/** Say hello on ``sock`` with this page's token and nickname (``rename``: a new nickname for the
 * same player, on the socket open now); the token it carried is kept (S.helloToken): a welcome
 * tells this page's own renewed token from one another page saved (main.js). */
export function sayHello(sock = SOCK.ws, rename = false) {
  if (!sock || sock.readyState !== 1) return false;
  // the frames' tables once, in the welcome; a room's changes as patches of the room held
  const hello = { type: "hello", proto: PROTOCOL, tables: true, room_patch: true };
  if (S.token) hello.token = S.token;
  S.helloToken = S.token || null;
  if (S.nick) hello.nickname = S.nick;
  if (rename) hello.rename = true;
  const have = [S.kept.tables_id, S.kept.phrases_id].filter(x => typeof x === "string");
  if (have.length) hello.have = have;  // (what the welcome need not carry again)
  sock.send(JSON.stringify(hello));
  return true;
}

/** Mark the connection usable again (after welcome, or after the resync that follows a join). */
export function markSynced() {
  S.everConnected = true;
  emitStatus("ok");
}

export function isOpen() { return !!SOCK.ws && SOCK.ws.readyState === 1; }

export function send(msg) {
  if (!isOpen()) return false;
  SOCK.ws.send(JSON.stringify(msg));
  return true;
}

function seqKey() { return `laizi.seq.${S.room && S.room.code}.${S.pid}`; }

export function noteSeq(n) {
  if (n == null || n <= S.seq) return;
  S.seq = n;
  try { localStorage.setItem(seqKey(), String(n)); } catch (e) { /* ignore */ }
}

function nextSeq() {
  let stored = 0;
  try { stored = +(localStorage.getItem(seqKey()) || 0); } catch (e) { /* ignore */ }
  S.seq = Math.max(S.seq, stored) + 1;
  try { localStorage.setItem(seqKey(), String(S.seq)); } catch (e) { /* ignore */ }
  return S.seq;
}

export function act(action) {
  if (S.conn !== "ok") return false;
  return send({ type: "action", seq: nextSeq(), action, version: S.v });
}

/** Test hook and a real need on flaky networks: drop the socket, the client reconnects. */
export function dropConnection() { if (SOCK.ws) SOCK.ws.close(); }
