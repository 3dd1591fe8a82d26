"""The table's wire deltas: a small generic JSON diff and its inverse (pure, no I/O).

A client keeps the view of its last frame; an ``update`` frame carries a patch ``p`` that
turns it into the new one. A patch is a list of operations, each an array: its kind, then
the path from the root (dict keys and list indices; none: the whole view), then its value::

    [0, *path, value]   set (a dict key, a list index, or the whole view)
    [1, *path]          delete a dict key
    [2, *path, items]   append items to the list at path (a list that only grew: a river)
    [3, *path, i, n, items]  replace the n items from index i by items (a hand: a tile in or out)
    [4, *path, rows]    set, [5, *path, rows] append, a list of records with the same keys
                        as rows ``[[key, ...], [value, ...], ...]``; in the header, a column
                        with the same plain value in every record is ``[key, value]`` (left
                        out of the rows: the legal actions ``[[[type, "discard"], tile],
                        ["1m"], ["3p"], ...]``) and one of records with the same keys is
                        ``[key, header]`` (its cells: their rows, so keys travel once);
                        with one column left in the header, a row is that cell itself, not a
                        list of one (``[[[type, "discard"], tile], "1m", "3p", ...]``)

A path step into a dict may be a number: the index of the key in the frame's key table
(``keys``, sent with the snapshot: :data:`laizi.server.tables.frames.VIEW_KEYS`), so that
``["players", 1, "concealed"]`` travels as ``[14, 1, 9]``; a step into a list is an index.

:func:`diff` makes one, :func:`patch` applies one without touching its input (the
containers on a changed path are copied, the rest shared), :class:`Mirror` follows a
frame stream (``snapshot``, then ``update`` frames: :func:`expand_update`). The web
client's twin is ``src/laizi/web/js/delta.js``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["STICKY", "Diverged", "Gap", "Mirror", "canonical", "diff", "diff_keys",
           "drawer_of", "expand_snapshot", "expand_update", "last_drawer", "patch", "predict",
           "predict_drawer", "unshape"]

SET, DELETE, APPEND, SPLICE, SET_ROWS, APPEND_ROWS = 0, 1, 2, 3, 4, 5
_TAIL = {SET: 1, DELETE: 0, APPEND: 1, SPLICE: 3, SET_ROWS: 1, APPEND_ROWS: 1}  # values after the path
_SCALARS = (str, int, float, bool, type(None))
# Frame keys an ``update`` leaves out when they are what the frame before said (the applier
# carries them on): who the view is for, the match, its fixed deal, the last applied seq.
STICKY = ("seat", "match_id", "fixed_deal", "last_seq")

Path = list[str | int]
Index = Mapping[str, int]


def _same(a: Any, b: Any) -> bool:
    # (containers compare with Python's ==, where true == 1: a view holds one type per place)
    return a is b or (type(a) is type(b) and a == b)


def _columns(items: list[Any], index: Index) -> list[Any] | None:
    """Records with the same keys as ``[header, *rows]``, else None. A header entry is a key
    (a column in the rows), ``[key, value]`` (a plain value the same in every record: not in
    the rows) or ``[key, header]`` (records with the same keys in every record: the column
    holds their rows)."""
    first = items[0]
    if type(first) is not dict:
        return None
    keys = list(first)
    for it in items:
        if type(it) is not dict or list(it) != keys:
            return None
    head: list[Any] = []
    cols: list[list[Any]] = []
    for k in keys:
        name = index.get(k, k)
        vals = [it[k] for it in items]
        v0 = vals[0]
        # (every value _same as the first, in C: equal — count() tries identity first —
        # and of one type, where true == 1)
        if type(v0) in _SCALARS and vals.count(v0) == len(vals) and len(set(map(type, vals))) == 1:
            head.append([name, v0])
            continue
        sub = _columns(vals, index) if type(v0) is dict and v0 else None
        if sub is None:
            head.append(name)
            cols.append(vals)
        else:
            head.append([name, sub[0]])
            cols.append(sub[1:])
    if len(cols) == 1:  # one column: each row is its cell
        return [head, *cols[0]]
    return [head, *(list(row) for row in zip(*cols, strict=True))] if cols else [head, *([] for _ in items)]


def _rows(items: list[Any], index: Index) -> list[Any] | None:
    """``items`` as rows (see the module docstring) when they are records with the same keys
    (one is enough: its keys travel by number); else None."""
    if not items:
        return None
    return _columns(items, index)


def _run(items: list[Any]) -> int:
    """How many records lead ``items`` with the same plain value of the first one's first
    key (the legal actions: the discards, then a kong or two)."""
    first = items[0]
    if type(first) is not dict or not first:
        return 0
    k = next(iter(first))
    v = first[k]
    if type(v) not in _SCALARS:
        return 0
    n = 1
    while n < len(items) and type(items[n]) is dict and k in items[n] and _same(items[n][k], v):
        n += 1
    return n


def _put(out: list[list[Any]], kind: int, path: Path, value: Any, index: Index) -> None:
    """A set or an append, as rows when the value is a list of like records. Records that
    start with a run of three or more alike in their first key (the discards among the
    legal actions) are that run's rows, then the rest appended: the run's value travels
    once, in its header."""
    if type(value) is list and len(value) >= 4:
        n = _run(value)
        if 3 <= n < len(value):
            head = _columns(value[:n], index)
            if head is not None:
                out.append([SET_ROWS if kind == SET else APPEND_ROWS, *path, head])
                _put(out, APPEND, path, value[n:], index)
                return
    rows = _rows(value, index) if type(value) is list else None
    if rows is None:
        out.append([kind, *path, value])
    else:
        out.append([SET_ROWS if kind == SET else APPEND_ROWS, *path, rows])


def _diff(a: Any, b: Any, path: Path, out: list[list[Any]], index: Index) -> None:
    ta, tb = type(a), type(b)
    if ta is dict and tb is dict:
        for k, bv in b.items():
            if k not in a:
                _put(out, SET, [*path, index.get(k, k)], bv, index)
            elif not _same(a[k], bv):
                _diff(a[k], bv, [*path, index.get(k, k)], out, index)
        for k in a:
            if k not in b:
                out.append([DELETE, *path, index.get(k, k)])
        return
    if ta is list and tb is list:
        n = len(a)
        if len(b) > n and b[:n] == a:
            _put(out, APPEND, path, b[n:], index)
            return
        if len(b) == n and any(type(x) in (dict, list) for x in b):
            changed = [i for i in range(n) if not _same(a[i], b[i])]
            if 2 * len(changed) <= n:  # a list of records, few changed (the players): per record
                for i in changed:
                    _diff(a[i], b[i], [*path, i], out, index)
                return
        m = len(b)
        if n and m:  # a few items taken out or put in (a hand after a draw or a discard)
            lo = 0
            top = min(n, m)
            while lo < top and _same(a[lo], b[lo]):
                lo += 1
            hi = 0
            while hi < top - lo and _same(a[n - 1 - hi], b[m - 1 - hi]):
                hi += 1
            if 2 * ((n - lo - hi) + (m - lo - hi)) <= m:
                out.append([SPLICE, *path, lo, n - lo - hi, b[lo:m - hi]])
                return
    _put(out, SET, path, b, index)


_NO_INDEX: dict[str, int] = {}


def diff(old: Any, new: Any, index: Index | None = None) -> list[list[Any]]:
    """The patch that turns ``old`` into ``new`` (JSON values; ``[]`` when equal).
    ``index``: key -> its number in the key table (keys not in it travel as text)."""
    out: list[list[Any]] = []
    if not _same(old, new):
        _diff(old, new, [], out, _NO_INDEX if index is None else index)
    return out


def diff_keys(old: dict[str, Any], new: dict[str, Any], index: Index | None = None) -> list[list[Any]]:
    """:func:`diff` of two dicts by their keys only: a changed value is set whole (a seat's
    private part: its hand, legal actions and waits change whole)."""
    ix = _NO_INDEX if index is None else index
    out: list[list[Any]] = []
    for k, v in new.items():
        if k not in old or not _same(old[k], v):
            _put(out, SET, [ix.get(k, k)], v, ix)
    out.extend([DELETE, ix.get(k, k)] for k in old if k not in new)
    return out


def _own(c: Any, fresh: set[int]) -> Any:
    """``c`` itself if this patch made it, else a shallow copy (then made here)."""
    if id(c) in fresh:
        return c
    if type(c) is dict:
        c = dict(c)
    elif type(c) is list:
        c = list(c)
    else:
        raise TypeError(f"not a container: {type(c).__name__}")
    fresh.add(id(c))
    return c


def _cells(head: list[Any]) -> int:
    """How many cells a row of this header has (its entries but the ``[key, value]`` ones)."""
    return sum(1 for k in head if not (type(k) is list and len(k) == 2 and type(k[1]) is not list))


def _record(head: Any, row: Any, keys: Sequence[str]) -> dict[str, Any]:
    if type(head) is not list:
        raise TypeError("bad rows")
    if _cells(head) == 1:  # one column: the row is its cell
        row = [row]
    elif type(row) is not list:
        raise TypeError("bad rows")
    out: dict[str, Any] = {}
    i = 0
    for k in head:
        spec = type(k) is list
        if spec and len(k) != 2:
            raise TypeError("bad rows")
        name = k[0] if spec else k
        name = keys[name] if type(name) is int and name >= 0 else name
        if type(name) is not str:
            raise TypeError("bad rows")
        if spec and type(k[1]) is not list:  # the same in every record
            out[name] = k[1]
            continue
        if i >= len(row):
            raise TypeError("bad rows")
        out[name] = _record(k[1], row[i], keys) if spec else row[i]
        i += 1
    if i != len(row):
        raise TypeError("bad rows")
    return out


def _unrows(rows: Any, keys: Sequence[str]) -> list[dict[str, Any]]:
    if not isinstance(rows, list) or len(rows) < 2 or not isinstance(rows[0], list):
        raise TypeError("bad rows")
    return [_record(rows[0], row, keys) for row in rows[1:]]


def patch(doc: Any, ops: Any, keys: Sequence[str] = ()) -> Any:
    """``doc`` with the patch ``ops`` applied (a new value; ``doc`` is not changed).
    ``keys``: the key table of the frame stream. Raises ValueError on a patch that does
    not fit the document."""
    if not isinstance(ops, list):
        raise ValueError("a patch is a list of operations")
    fresh: set[int] = set()
    root: list[Any] = [doc]
    try:
        for op in ops:
            kind = op[0]
            tail = _TAIL.get(kind) if type(kind) is int else None
            if tail is None or len(op) < 1 + tail:
                raise TypeError(f"bad operation {op!r}")
            path = op[1:len(op) - tail]
            cont: Any = root
            key: Any = 0
            for step in path:
                child = _own(cont[key], fresh)
                cont[key] = child
                if type(step) is int:
                    if step < 0:
                        raise IndexError(step)
                    if type(child) is dict:
                        step = keys[step]
                elif type(step) is not str:
                    raise TypeError(f"bad path step {step!r}")
                cont, key = child, step
            value = op[-1]
            if kind in (SET_ROWS, APPEND_ROWS):
                value = _unrows(value, keys)
                kind = SET if kind == SET_ROWS else APPEND
            if kind == SET:
                if type(cont) is list and key >= len(cont):
                    raise IndexError(key)
                cont[key] = value
            elif kind == DELETE:
                if type(cont) is not dict:
                    raise TypeError("delete from a list")
                del cont[key]
            elif kind == APPEND:
                target = _own(cont[key], fresh)
                if type(target) is not list or not isinstance(value, list):
                    raise TypeError("append to a non-list")
                target.extend(value)
                cont[key] = target
            elif kind == SPLICE:
                target = _own(cont[key], fresh)
                i, n, items = op[-3], op[-2], op[-1]
                if (type(target) is not list or type(i) is not int or type(n) is not int
                        or not isinstance(items, list) or i < 0 or n < 0 or i + n > len(target)):
                    raise TypeError("a splice that does not fit")
                target[i:i + n] = items
                cont[key] = target
            else:
                raise TypeError(f"unknown operation {kind!r}")
    except (KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"the patch does not fit the view: {exc!r}") from None
    return root[0]


_TAKES = {"chi": 2, "peng": 2, "kong": 3}  # concealed tiles a claim of a discard takes


def _meld(ev: dict[str, Any], kind: str, tile: str, frm: int | None) -> dict[str, Any] | None:
    """The meld a claim or an 暗杠 adds, as a snapshot shows it (``meld_to_json``); None for
    an event that does not say one."""
    if kind != "chi":
        out: dict[str, Any] = {"type": kind, "tile": tile, "tiles": [tile] * (3 if kind == "peng" else 4)}
        if frm is not None:
            out["from"] = frm
        return out
    run = ev.get("run")
    if type(run) is not str or len(run) != 2 or run[0] not in "1234567" or run[1] not in "mps":
        return None
    tiles = [f"{int(run[0]) + i}{run[1]}" for i in range(3)]
    return {"type": "chi", "tile": run, "tiles": tiles, "from": frm, "claimed": tile}


def _effects(view: Any, ev: Any) -> list[list[Any]]:
    """What an update's event says of the view by itself, as patch operations
    (:func:`laizi.views.public_moves` says the same of a match): a draw, a discard (a laizi
    or 红中, ``as``, among the tiles laid aside), a chi, peng or kong of a discard (the
    river's last tile into the meld; a chi or peng gives the turn), an 暗杠, a tile laid
    aside as a kong; [] for any other event, or a view it does not fit. What the rules
    make of a table (its 番, whether it is open) is not said here: the patch holds it."""
    players = view.get("players") if type(view) is dict else None
    seat = ev.get("seat") if type(ev) is dict else None
    if type(players) is not list or type(seat) is not int or not 0 <= seat < len(players):
        return []
    p = players[seat]
    n = p.get("concealed") if type(p) is dict else None
    if type(n) is not int:
        return []
    kind = ev.get("type")
    tile = ev.get("tile")
    if kind == "discard" and type(tile) is str:
        where = "river" if ev.get("as") is None else "special_discards"
        if type(p.get(where)) is not list:
            return []
        return [[APPEND, "players", seat, where, [tile]], [SET, "players", seat, "concealed", n - 1]]
    wall = view.get("wall_remaining")
    if kind == "draw" and type(wall) is int:
        ops = [[SET, "players", seat, "concealed", n + 1], [SET, "wall_remaining", wall - 1],
               [SET, "turn", seat]]
        if "acting" in view:  # the drawer is to act
            ops.append([SET, "acting", [seat]])
        return ops
    if type(tile) is not str:
        return []
    if kind in _TAKES:
        d = ev.get("from")
        q = players[d] if type(d) is int and 0 <= d < len(players) else None
        river = q.get("river") if type(q) is dict else None
        meld = _meld(ev, kind, tile, d)
        if not river or type(river) is not list or meld is None or type(p.get("melds")) is not list:
            return []
        ops = [[SPLICE, "players", d, "river", len(river) - 1, 1, []],
               [APPEND, "players", seat, "melds", [meld]],
               [SET, "players", seat, "concealed", n - _TAKES[kind]]]
        if kind != "kong":  # (after a kong: the replacement draw's, or the rules')
            ops.append([SET, "turn", seat])
        return ops
    if kind == "ankong" and type(p.get("melds")) is list:
        meld = _meld(ev, kind, tile, None)
        return [[APPEND, "players", seat, "melds", [meld]], [SET, "players", seat, "concealed", n - 4]]
    if (kind == "special_kong" or kind == "laizi_kong") and type(p.get("special_kongs")) is list:
        return [[APPEND, "players", seat, "special_kongs", [tile]], [SET, "players", seat, "concealed", n - 1]]
    return []


def predict(view: Any, events: Sequence[Any]) -> Any:
    """``view`` with what the ``events`` say by themselves applied (a draw: one more
    concealed tile, one less in the wall, the drawer's turn and ``acting``; a discard: the tile on the
    river, one less concealed; a claim: the meld; ...: :func:`_effects`). The server diffs the new view against this, the client
    patches this: the patch holds only what the events did not say. A new value."""
    return predict_drawer(view, events)[0]


def predict_drawer(view: Any, events: Sequence[Any]) -> tuple[Any, int | None]:
    """:func:`predict`, and the seat it makes ``acting`` (the last draw it applied) or None:
    for a server that predicts the public part of a view (without ``acting``, a private key)
    and then the private part by this."""
    seat = None
    for ev in events:
        ops = _effects(view, ev)
        if ops:
            view = patch(view, ops)
            if ev.get("type") == "draw":
                seat = ev["seat"]
    return view, seat


def drawer_of(ev: Any) -> int:
    """The seat that drew, when ``ev`` is a draw (its seat is public: a redacted twin keeps
    it); else -1."""
    if type(ev) is dict and ev.get("type") == "draw" and type(ev.get("seat")) is int:
        return int(ev["seat"])
    return -1


def last_drawer(events: Sequence[Any]) -> int | None:
    """The seat of the last draw among ``events`` (the one :func:`predict_drawer` makes
    ``acting``, for a view the events fit), or None."""
    seat = None
    for ev in events:
        d = drawer_of(ev)
        if d >= 0:
            seat = d
    return seat


def unshape(e: Any, shapes: Sequence[Sequence[str]]) -> dict[str, Any]:
    """An update's event whole: ``[shape, *values]`` (its type and keys from ``shapes``, the
    snapshot's) as the object; an object as it is. Raises ValueError on one that does not fit."""
    if type(e) is dict:
        return e
    if type(e) is not list or not e or type(e[0]) is not int or not 0 <= e[0] < len(shapes):
        raise ValueError(f"bad event {e!r}")
    shape = shapes[e[0]]
    if len(e) != len(shape):
        raise ValueError(f"bad event {e!r}")
    out = {"type": shape[0]}
    out.update(zip(shape[1:], e[1:], strict=True))
    return out


def canonical(doc: Any) -> str:
    """JSON text with sorted keys (equal texts: equal values, types included)."""
    return json.dumps(doc, sort_keys=True, ensure_ascii=False)


class Diverged(ValueError):
    """A patched view that is not the snapshot of the same version."""


class Gap(ValueError):
    """An ``update`` frame that does not follow the version held (a frame was lost)."""


def expand_update(msg: Mapping[str, Any], v: int | None, view: Any, keys: Sequence[str],
                  sticky: Mapping[str, Any], shapes: Sequence[Sequence[str]] = ()) -> dict[str, Any]:
    """An ``update`` frame as a whole one, given what the client holds (version ``v``, its
    ``view``, the key table, the :data:`STICKY` keys of the frames before): ``view``
    patched, ``from`` (= ``v`` minus the number of events), ``events`` numbered and with
    their ``vis`` (left out on the wire when ``"public"``), the sticky keys carried on.
    The patch applies to the view with its events' own effects (:func:`predict`). Raises
    :class:`Gap` when the frame does not follow ``v``, ValueError when its patch does not fit."""
    raw = msg.get("e")
    if not isinstance(raw, list) or not raw or not isinstance(msg.get("v"), int):
        raise ValueError("an update carries its version and events")
    events = [unshape(e, shapes) for e in raw]
    frm = msg["v"] - len(events)
    if view is None or frm != v:
        raise Gap(f"update from {frm} but version {v} held")
    out = dict(sticky)
    out.update((k, val) for k, val in msg.items() if k not in ("p", "e", "t"))
    t = msg.get("t")
    if t is not None:  # the public countdown, short
        if not isinstance(t, list) or len(t) != 2:
            raise ValueError("bad timer")
        out["timer"] = {"seat": t[0], "left": t[1]}
    out["from"] = frm
    out["view"] = patch(predict(view, events), msg.get("p", []), keys)
    out["events"] = _numbered(events, frm)
    return out


def _numbered(events: Sequence[Mapping[str, Any]], first: int) -> list[dict[str, Any]]:
    """Events as a client holds them: numbered after ``first``, ``vis`` public unless said."""
    return [{"vis": "public", **e, "v": first + i} for i, e in enumerate(events, 1)]


def expand_snapshot(msg: Mapping[str, Any], shapes: Sequence[Sequence[str]]) -> dict[str, Any]:
    """A ``snapshot`` frame with its ``events`` whole: its ``e`` (the last events, as an
    update carries them) numbered up to its ``v`` and given their ``vis``. Raises ValueError
    on an event that does not fit."""
    raw = msg.get("e", [])
    if not isinstance(raw, list) or not isinstance(msg.get("v"), int):
        raise ValueError("a snapshot carries its version and events")
    first = msg["v"] - len(raw)
    out = {k: val for k, val in msg.items() if k != "e"}
    out["events"] = _numbered([unshape(e, shapes) for e in raw], first)
    return out


class Mirror:
    """A client's copy of its table view, kept by the frames it receives (tests, benchmarks).

    :meth:`take` also takes a ``welcome``: its key table and event shapes, when it carries
    them (``hello`` ``tables``), serve the snapshots that leave them out; and a ``joined``
    or ``room``, whose ``room`` it keeps (:attr:`room`): a ``room`` that is a patch ``p``
    (``hello`` ``room_patch``) comes out whole.
    :meth:`take` returns the frame whole (:func:`expand_update`: an update's ``view``
    patched onto the previous one, its events numbered, the sticky keys carried on) and
    raises :class:`Gap` when an update does not follow the version held. ``check``: a
    snapshot of the version held must equal the view the patches built (else
    :class:`Diverged`); ``checked`` counts those comparisons. ``kept``: the tables by their
    id (a welcome's ``tables_id``), shared by the mirrors of one client's connections — what
    the web client keeps in localStorage: a welcome that leaves them out (the hello said
    ``have``) names the ones to use."""

    def __init__(self, check: bool = False,
                 kept: dict[str, tuple[list[str], list[list[str]]]] | None = None) -> None:
        self.kept = kept
        self.v: int | None = None
        self.view: dict[str, Any] | None = None
        self.keys: list[str] = []
        self.shapes: list[list[str]] = []
        self.sticky: dict[str, Any] = {}
        self.room: dict[str, Any] | None = None
        self.check = check
        self.checked = 0

    def take(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg.get("type")
        if kind == "welcome" and "keys" in msg:  # a client that asked for the tables once (hello ``tables``)
            self.keys = list(msg.get("keys") or [])
            self.shapes = list(msg.get("shapes") or [])
            if self.kept is not None and isinstance(msg.get("tables_id"), str):
                self.kept[msg["tables_id"]] = (self.keys, self.shapes)
        elif kind == "welcome" and self.kept is not None and msg.get("tables_id") in self.kept:
            keys, shapes = self.kept[msg["tables_id"]]  # (hello ``have``)
            self.keys, self.shapes = list(keys), [list(x) for x in shapes]
        elif kind == "joined" or (kind == "room" and "p" not in msg):
            self.room = msg.get("room")
        elif kind == "room":
            if self.room is None:
                raise Gap("a room patch without a room")
            self.room = patch(self.room, msg["p"])
            msg = {**{k: v for k, v in msg.items() if k != "p"}, "room": self.room}
        elif kind == "snapshot":
            if self.check and self.view is not None and msg["v"] == self.v:
                if canonical(self.view) != canonical(msg["view"]):
                    raise Diverged(f"version {self.v}: the patched view differs from the snapshot")
                self.checked += 1
            self.view, self.v = msg["view"], msg["v"]
            if "keys" in msg or "shapes" in msg:  # (else those of the welcome, kept)
                self.keys = list(msg.get("keys") or [])
                self.shapes = list(msg.get("shapes") or [])
            self.sticky = {k: msg[k] for k in STICKY if k in msg}
            msg = expand_snapshot(msg, self.shapes)
        elif kind == "update":
            msg = expand_update(msg, self.v, self.view, self.keys, self.sticky, self.shapes)
            self.view, self.v = msg["view"], msg["v"]
            self.sticky.update((k, msg[k]) for k in STICKY if k in msg)
        return msg

    def reset(self) -> None:
        self.v = self.view = None
