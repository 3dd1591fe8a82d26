// The table's wire deltas (the twin of src/laizi/server/common/delta.py): an update frame's
// patch `p` turns the view of the previous frame into the new one. Operations, each an array
// of its kind, the path from the root (dict keys and list indices; none: the whole view) and
// its value:  [0, ...path, value] set   [1, ...path] delete a key   [2, ...path, items] append
// [3, ...path, i, n, items] replace the n items from index i by items
// [4, ...path, rows] set, [5, ...path, rows] append a list of like records as rows
// [[key, ...], [value, ...], ...] (a header entry [key, value]: that plain value in every
// record; [key, header]: the cells are the rows of records with the same keys; with one
// column left in the header, a row is that cell itself).
// A number stepping into an object is a key of the snapshot's key table (`keys`). The patch
// applies to the view with the update's events' own effects (predict: a draw, a discard).
// applyPatch never changes its input: the containers on a changed path are copied, the rest
// shared (the previous view stays as it was: the settlement and the fairness sheet keep it).

/** Frame keys an update leaves out when unchanged (carried on from the frames before). */
const STICKY = ["seat", "match_id", "fixed_deal", "last_seq"];
const isInt = x => Number.isInteger(x);
const isObj = x => x !== null && typeof x === "object" && !Array.isArray(x);
const TAIL = { 0: 1, 1: 0, 2: 1, 3: 3, 4: 1, 5: 1 };  // an operation's values after its path

/** One row as its record: a header entry is a key (the next cell), [key, value] (that
 *  value, not in the row) or [key, header] (the next cell is a record's row, by that header). */
function record(head, row, keys) {
  if (!Array.isArray(head)) throw new Error("bad rows");
  // one column left in the header (the others the same in every record): the row is its cell
  const cells = head.filter(k => !(Array.isArray(k) && k.length === 2 && !Array.isArray(k[1]))).length;
  if (cells === 1) row = [row];
  else if (!Array.isArray(row)) throw new Error("bad rows");
  const rec = {};
  let i = 0;
  for (const k of head) {
    const spec = Array.isArray(k);
    if (spec && k.length !== 2) throw new Error("bad rows");
    const n = spec ? k[0] : k;
    const name = isInt(n) && n >= 0 ? keys[n] : n;
    if (typeof name !== "string") throw new Error("bad rows");
    if (spec && !Array.isArray(k[1])) { rec[name] = k[1]; continue; }
    if (i >= row.length) throw new Error("bad rows");
    rec[name] = spec ? record(k[1], row[i], keys) : row[i];
    i += 1;
  }
  if (i !== row.length) throw new Error("bad rows");
  return rec;
}

/** Rows [[key, ...], [value, ...], ...] (keys by number or name) as records. */
function unrows(rows, keys) {
  if (!Array.isArray(rows) || rows.length < 2 || !Array.isArray(rows[0])) throw new Error("bad rows");
  return rows.slice(1).map(row => record(rows[0], row, keys));
}

function own(c, fresh) {
  if (fresh.has(c)) return c;
  let copy;
  if (Array.isArray(c)) copy = c.slice();
  else if (c && typeof c === "object") copy = Object.assign({}, c);
  else throw new Error("not a container");
  fresh.add(copy);
  return copy;
}

/** The view with the patch applied (throws on a patch that does not fit it). */
export function applyPatch(doc, ops, keys = []) {
  if (!Array.isArray(ops)) throw new Error("a patch is a list of operations");
  const fresh = new Set();
  const root = [doc];
  for (const op of ops) {
    const kind = op[0];
    const tail = TAIL[kind];
    if (!Number.isInteger(kind) || tail === undefined || op.length < 1 + tail) throw new Error("bad operation");
    const path = op.slice(1, op.length - tail);
    let cont = root;
    let key = 0;
    for (let step of path) {
      if (cont[key] === undefined) throw new Error("no such path");
      const child = own(cont[key], fresh);
      cont[key] = child;
      if (typeof step === "number") {
        if (!Number.isInteger(step) || step < 0) throw new Error("bad path step");
        if (!Array.isArray(child)) {
          if (step >= keys.length) throw new Error("no such key");
          step = keys[step];
        }
      } else if (typeof step !== "string") throw new Error("bad path step");
      cont = child; key = step;
    }
    let value = op[op.length - 1];
    let k = kind;
    if (k === 4 || k === 5) { value = unrows(value, keys); k = k === 4 ? 0 : 2; }
    if (k === 0) {
      if (Array.isArray(cont) && cont !== root && !(key < cont.length)) throw new Error("no such index");
      cont[key] = value;
    } else if (k === 1) {
      if (Array.isArray(cont)) throw new Error("delete from a list");
      delete cont[key];
    } else if (k === 2) {
      const target = own(cont[key], fresh);
      if (!Array.isArray(target) || !Array.isArray(value)) throw new Error("append to a non-list");
      target.push(...value);
      cont[key] = target;
    } else if (k === 3) {
      const target = own(cont[key], fresh);
      const [i, n] = [op[op.length - 3], op[op.length - 2]];
      if (!Array.isArray(target) || !Array.isArray(value) || !Number.isInteger(i) || !Number.isInteger(n)
          || i < 0 || n < 0 || i + n > target.length) throw new Error("a splice that does not fit");
      target.splice(i, n, ...value);
      cont[key] = target;
    } else throw new Error("unknown operation");
  }
  return root[0];
}

const TAKES = { chi: 2, peng: 2, kong: 3 };  // concealed tiles a claim of a discard takes

/** The meld a claim or an 暗杠 adds, as a snapshot shows it; null for an event that does not
 *  say one (the twin of delta.py's _meld). */
function meldOf(ev, kind, tile, from) {
  if (kind !== "chi") {
    const out = { type: kind, tile, tiles: Array(kind === "peng" ? 3 : 4).fill(tile) };
    if (from !== null) out.from = from;
    return out;
  }
  const run = ev.run;
  if (typeof run !== "string" || run.length !== 2 || !"1234567".includes(run[0]) || !"mps".includes(run[1])) return null;
  const tiles = [0, 1, 2].map(i => `${Number(run[0]) + i}${run[1]}`);
  return { type: "chi", tile: run, tiles, from, claimed: tile };
}

/** What an update's event says of the view by itself as patch operations: a draw, a discard
 *  (a laizi or 红中, `as`, among the tiles laid aside), a chi, peng or kong of a discard, an
 *  暗杠, a tile laid aside as a kong (the twin of delta.py's _effects). */
function effects(view, ev) {
  const players = isObj(view) ? view.players : null;
  const seat = isObj(ev) ? ev.seat : null;
  if (!Array.isArray(players) || !isInt(seat) || seat < 0 || seat >= players.length) return [];
  const p = players[seat];
  const n = isObj(p) ? p.concealed : null;
  if (!isInt(n)) return [];
  const kind = ev.type, tile = ev.tile;
  if (kind === "discard" && typeof tile === "string") {
    const where = ev.as === undefined || ev.as === null ? "river" : "special_discards";
    if (!Array.isArray(p[where])) return [];
    return [[2, "players", seat, where, [tile]], [0, "players", seat, "concealed", n - 1]];
  }
  const wall = view.wall_remaining;
  if (kind === "draw" && isInt(wall)) {
    const ops = [[0, "players", seat, "concealed", n + 1], [0, "wall_remaining", wall - 1], [0, "turn", seat]];
    if (Object.prototype.hasOwnProperty.call(view, "acting")) ops.push([0, "acting", [seat]]);  // the drawer acts
    return ops;
  }
  if (typeof tile !== "string") return [];
  if (Object.prototype.hasOwnProperty.call(TAKES, kind)) {
    const d = ev.from;
    const q = isInt(d) && d >= 0 && d < players.length ? players[d] : null;
    const river = isObj(q) ? q.river : null;
    const meld = meldOf(ev, kind, tile, d);
    if (!Array.isArray(river) || !river.length || meld === null || !Array.isArray(p.melds)) return [];
    const ops = [[3, "players", d, "river", river.length - 1, 1, []], [2, "players", seat, "melds", [meld]],
      [0, "players", seat, "concealed", n - TAKES[kind]]];
    if (kind !== "kong") ops.push([0, "turn", seat]);  // (after a kong: the replacement draw's)
    return ops;
  }
  if (kind === "ankong" && Array.isArray(p.melds))
    return [[2, "players", seat, "melds", [meldOf(ev, kind, tile, null)]], [0, "players", seat, "concealed", n - 4]];
  if ((kind === "special_kong" || kind === "laizi_kong") && Array.isArray(p.special_kongs))
    return [[2, "players", seat, "special_kongs", [tile]], [0, "players", seat, "concealed", n - 1]];
  return [];
}

/** The view with what the events say by themselves applied (the patch holds the rest). */
export function predict(view, events) {
  for (const ev of events) {
    const ops = effects(view, ev);
    if (ops.length) view = applyPatch(view, ops);
  }
  return view;
}

/** An update's event whole: [shape, ...values] by the snapshot's shapes, an object as it is. */
function unshape(e, shapes) {
  if (isObj(e)) return e;
  if (!Array.isArray(e) || !e.length || !isInt(e[0]) || e[0] < 0 || e[0] >= shapes.length) throw new Error("bad event");
  const shape = shapes[e[0]];
  if (e.length !== shape.length) throw new Error("bad event");
  const out = { type: shape[0] };
  for (let i = 1; i < shape.length; i++) out[shape[i]] = e[i];
  return out;
}

/** What a client holds of its frame stream: the version, the view, the key table, the event
 *  shapes, the sticky keys. */
export function newHeld() { return { v: null, view: null, keys: [], shapes: [], sticky: {} }; }

/** The key table and event shapes of a welcome (the hello asked for them: `tables`); the
 *  snapshots then leave them out. */
export function takeTables(held, m) {
  if (Array.isArray(m.keys)) held.keys = m.keys;
  if (Array.isArray(m.shapes)) held.shapes = m.shapes;
}

/** A snapshot frame taken: it replaces what is held. Its events `e` (the last ones, as an update
 *  carries them) come out whole as `events`, numbered up to its `v` (the twin of delta.py's
 *  expand_snapshot). Throws on an event that does not fit. */
export function takeSnapshot(held, m) {
  if (m.keys || m.shapes) { held.keys = m.keys || []; held.shapes = m.shapes || []; }  // (else the welcome's)
  const shapes = held.shapes;
  const raw = Array.isArray(m.e) ? m.e : [];
  const first = m.v - raw.length;
  const events = raw.map((e, i) => Object.assign({ vis: "public" }, unshape(e, shapes), { v: first + i + 1 }));
  held.v = m.v; held.view = m.view;
  held.sticky = {};
  for (const k of STICKY) if (m[k] !== undefined) held.sticky[k] = m[k];
  const out = Object.assign({}, m, { events });
  delete out.e;
  return out;
}

/** An update frame made whole (view patched, `from`, events unshaped and numbered with their `vis`, `timer`
 *  from `t`, the sticky keys carried on) and taken; null when it does not follow the version held (a lost
 *  frame: ask for a resync). Throws on a patch that does not fit. */
export function takeUpdate(held, m) {
  if (!Array.isArray(m.e) || !m.e.length || !Number.isInteger(m.v)) throw new Error("bad update");
  const events = m.e.map(e => unshape(e, held.shapes));
  const from = m.v - events.length;
  if (held.view == null || from !== held.v) return null;
  const view = applyPatch(predict(held.view, events), m.p || [], held.keys);
  const out = Object.assign({}, held.sticky);
  for (const k in m) if (k !== "p" && k !== "e" && k !== "t") out[k] = m[k];
  if (m.t !== undefined) {  // the public countdown, short: [seat, left]
    if (!Array.isArray(m.t) || m.t.length !== 2) throw new Error("bad timer");
    out.timer = { seat: m.t[0], left: m.t[1] };
  }
  out.from = from; out.view = view;
  out.events = events.map((e, i) => Object.assign({ vis: "public" }, e, { v: from + i + 1 }));
  held.v = m.v; held.view = view;
  for (const k of STICKY) if (m[k] !== undefined) held.sticky[k] = m[k];
  return out;
}
