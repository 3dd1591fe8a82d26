"""The server's handle on one match of the game engine (:mod:`laizi.game`).

:class:`GameSession` owns a :class:`laizi.game.Match` (``auto_next=False``: the room
starts each next hand after a pause) and a **journal** of every operation applied to
it — seat actions, 托管 changes, escapes and hand starts. The match seed plus the
journal rebuild the match exactly (:meth:`GameSession.rebuild`), which is how a
restarted server resumes every match; the rebuilt event log is checked against the
stored one.

Everything a client receives is built per seat: the seat's projection of each event
(:func:`laizi.views.project_event`, numbered 1, 2, 3… per seat — its only version
number — so the numbering reveals nothing hidden) and the seat's view
(:meth:`GameSession.view`: the seat's snapshot :func:`laizi.views.match_view` rendered by
:mod:`laizi.server.tables.frames`). Spectators are seat ``None`` and see public information only.

Frames are built from texts cached per version of the match: the public part of the
views (the spectator's) is built and serialised once, each seat adds its
:func:`~laizi.server.tables.frames.private_part`; each event is serialised once for the seats
that see it whole and once for those that see its redacted twin (:class:`SeatStream`).
Between snapshots a connection gets patches (:meth:`GameSession.view_patch`,
:mod:`laizi.server.common.delta`): the public part's patch from a version is computed and
serialised once for everyone, each seat adds its private part's; the texts of the last
:data:`VIEW_KEEP` versions are kept as the bases (a connection further behind: a snapshot).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import orjson

from laizi.game import Action, Match
from laizi.game.actions import TILE_STR
from laizi.hints import WaitsMemo
from laizi.rules import RuleSet
from laizi.server.common.delta import SET, diff, drawer_of, predict, predict_drawer, unshape
from laizi.server.common.protocol import dumps
from laizi.server.tables.frames import (
    EVENT_SHAPES,
    KEY_INDEX,
    PRIVATE_KEYS,
    FansMemo,
    PrivateMemo,
    frame_view,
    private_part,
    public_part,
    seat_private,
    seat_table,
)
from laizi.views import (
    MARK_KEYS,
    MatchView,
    SeatView,
    history_rows,
    match_view,
    own_key,
    project_event,
    public_key,
    public_moves,
    seat_view,
)

__all__ = ["GameSession", "OpError", "SeatStream", "dumps", "hand_frames", "seed_from_text"]

SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)
STREAM_KEEP = 256  # events of each seat's stream kept for catching up (older: a snapshot)
VIEW_KEEP = 4      # versions whose views are kept as the bases of patches



class OpError(ValueError):
    """An operation the engine refused (illegal action, wrong phase...)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def seed_from_text(text: str | None) -> bytes:
    """A 32-byte match seed: fresh from the OS, or derived from a text (tests, benchmarks)."""
    if text is None:
        return secrets.token_bytes(32)
    return hashlib.sha256(b"laizi-match-seed:" + text.encode()).digest()


_SHAPES: dict[tuple[Any, frozenset[str]], tuple[int, tuple[str, ...]]] = {
    (shape[0], frozenset(("type", *shape[1:]))): (i, shape[1:]) for i, shape in enumerate(EVENT_SHAPES)}


def _body(event: dict[str, Any]) -> str:
    """An event's JSON as an ``update`` frame carries it: without the log's global ``v`` (a
    seat's stream numbers its events itself: the global index would reveal how many hidden
    events — other seats' claim answers — happened in between), without ``vis`` when it
    is ``"public"``, and as ``[shape, *values]`` when it has one of the
    :data:`~laizi.server.tables.frames.EVENT_SHAPES` (the applier makes it whole:
    :func:`laizi.server.common.delta.expand_update`)."""
    e = {k: val for k, val in event.items() if k != "v" and not (k == "vis" and val == "public")}
    if e.get("type") == "start_match":  # its rules are the view's ``rules``: not twice on the wire
        e.pop("rules", None)
    shape = _SHAPES.get((e.get("type"), frozenset(e)))
    if shape is not None:
        return dumps([shape[0], *(e[k] for k in shape[1])])
    return dumps(e)


class SeatStream:
    """One seat's event stream as JSON texts (``v`` = 1, 2, 3…), the last few hundred kept.

    Stored as text, not dicts, in the form ``update`` and ``snapshot`` frames carry
    (:func:`_body`): serialised once (shared between the seats that see
    the same event) and invisible to the cyclic garbage collector.
    """

    __slots__ = ("base", "draws", "items")

    def __init__(self) -> None:
        self.base = 0          # events dropped from the front
        self.items: list[str] = []
        self.draws: list[int] = []  # per item: the seat that drew, -1 for other events

    @property
    def v(self) -> int:
        return self.base + len(self.items)

    def append(self, body: str, drawer: int = -1) -> None:
        """``body``: an event's JSON as :func:`_body` makes it; ``drawer``: the seat of a
        draw (its ``seat``), else -1."""
        self.items.append(body)
        self.draws.append(drawer)
        if len(self.items) > 2 * STREAM_KEEP:
            drop = len(self.items) - STREAM_KEEP
            del self.items[:drop], self.draws[:drop]
            self.base += drop

    def last_drawer(self, v: int) -> tuple[bool, int | None]:
        """Whether the events after version ``v`` are kept, and the seat of the last draw
        among them (:func:`laizi.server.common.delta.last_drawer` of :meth:`since`, without
        reading their texts), or None."""
        if v < self.base:
            return False, None
        draws = self.draws
        for i in range(len(draws) - 1, v - self.base - 1, -1):
            if draws[i] >= 0:
                return True, draws[i]
        return True, None

    def since(self, v: int) -> list[str] | None:
        """The events after version ``v`` as an update carries them (None: no longer kept)."""
        if v < self.base:
            return None
        return self.items[v - self.base:]

    def last(self, n: int) -> list[str]:
        """The last ``n`` events as an update carries them (a snapshot's ``e``: the client
        numbers them up to the snapshot's ``v`` and makes them whole)."""
        return self.items[-n:]


class GameSession:
    """A running match plus its journal and per-seat event streams."""

    #: skip building the public part of a change of draws and discards alone (_refresh);
    #: False: build it at every change (a test compares the two)
    lazy_public = True

    def __init__(self, rules: RuleSet, seed: bytes, *, first_dealer: int = 0,
                 max_hands: int | None = None, fixed_dealers: bool = False) -> None:
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.max_hands = max_hands
        self.match = Match(rules, seed=seed, first_dealer=first_dealer, auto_next=False,
                           max_hands=max_hands, fixed_dealers=fixed_dealers)
        self._history: list[dict[str, Any]] = []
        self._rules_json = rules.model_dump(mode="json")
        self._rules_text = dumps(self._rules_json)
        self.journal: list[dict[str, Any]] = []
        self._streams: dict[int | None, SeatStream] = {s: SeatStream() for s in SEATS}
        self._cursor = 0  # log entries projected into the streams
        self._views: dict[tuple[int | None, bool], str] = {}  # view JSON per seat (and lean), at _views_at
        self._views_at = -1
        self._public: str | None = None  # at _views_at, once built (_render)
        self._public_lean: str | None = None  # ... without the rules (a client that holds the room's)
        self.key = object()  # names this match in a connection's view_base
        self._pub_now: dict[str, Any] | None = None  # the public part at _views_at, parsed
        # (on demand; let go once the frames are sent: :meth:`trim` — kept, hundreds of
        # rooms' parsed parts made the collector's passes longer: p99)
        self._privs: dict[int | None, dict[str, Any]] = {}  # at _views_at
        self._bases: dict[int, str] = {}       # version -> public part's JSON (the last few)
        self._anchor_ev: dict[int, int] = {}   # ... and the spectator's stream version then
        # version -> the built version whose public view, with the events since, is this one's
        # (a change of draws and discards alone: _refresh)
        self._lazy: dict[int, int] = {}
        self._pk: tuple[Any, ...] = ()        # public_key at _views_at: the key, the moves,
        self._pk_moves: tuple[Any, ...] = ()  # the hand, the log's length then
        self._pk_hand: object = None
        self._pk_log = 0
        self._marks: dict[int, tuple[Any, ...]] = {}  # version -> its public_key marks and the
        # seats' tables then (_refresh; the kept ones)
        self._tables: tuple[dict[str, Any], ...] = ()  # the seats' seat_table at _views_at
        self._priv_bases: dict[int, dict[int | None, dict[str, Any]]] = {}  # version -> seat -> private part
        self._spectator: SeatView | None = None  # the public snapshot of the hand at _views_at
        self._pub_patches: dict[int, str] = {}   # base version -> public patch ops (at _views_at)
        self._drawers: dict[int, int | None] = {}  # base version -> the last drawer since (acting)
        self._ev_at: dict[int, int] = {}  # version -> the spectator's stream version then (the last VIEW_KEEP: the bases)
        self._waits = WaitsMemo()  # the seats' scored 听 lines, this table's own
        self._fans: FansMemo = {}  # the seats' table 番, this match's own
        self._privmemo = PrivateMemo()  # the seats' private parts last built

    @property
    def version(self) -> int:
        """Grows with every change of the match (each is one journal entry)."""
        return len(self.journal)

    # ----------------------------------------------------------- state
    @property
    def log(self) -> list[dict[str, Any]]:
        return self.match.log

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def hand_over(self) -> bool:
        return self.match.hand_over

    @property
    def hand_no(self) -> int:
        return self.match.hand_no

    @property
    def phase(self) -> str:
        hand = self.match.hand
        return "none" if hand is None else hand.phase

    def to_act(self) -> list[int]:
        return self.match.to_act()

    def legal(self, seat: int) -> list[Action]:
        return self.match.legal_actions(seat)

    def snapshot(self, seat: int | None) -> MatchView:
        """The seat's snapshot of the match (:func:`laizi.views.match_view`)."""
        return match_view(self.match, seat, history=history_rows(self.match, self._history))

    def seat_view(self, seat: int) -> SeatView | None:
        """The seat's snapshot of the hand in play (None before the first hand)."""
        hand = self.match.hand
        return None if hand is None else seat_view(hand, seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view for the web client (:func:`laizi.server.tables.frames.frame_view`)."""
        mv = match_view(self.match, seat, copy=False,
                        history=history_rows(self.match, self._history))
        return frame_view(mv, self._rules_json)

    # ----------------------------------------------------------- operations
    def act(self, seat: int, action: Action | dict[str, Any]) -> Action:
        if not isinstance(action, Action):
            try:
                action = Action.from_json(action)
            except ValueError as exc:
                raise OpError("bad_action", str(exc)) from None
        if self.match.over:
            raise OpError("match_over", "the match is over")
        if self.match.hand_over:
            raise OpError("between_hands", "the hand is over; the next one starts shortly")
        if seat not in self.match.to_act():
            raise OpError("not_your_turn", "it is not your decision now")
        try:
            self.match.apply(seat, action)
        except ValueError as exc:
            raise OpError("illegal_action", str(exc)) from None
        self.journal.append({"op": "act", "seat": seat, "action": action.to_json()})
        return action

    def next_hand(self) -> None:
        if self.match.over or not self.match.hand_over:
            raise OpError("not_between_hands", "no hand to start")
        self.match.start_next_hand()
        self.journal.append({"op": "next"})

    def set_auto(self, seat: int, on: bool) -> bool:
        """Change 托管; False when nothing changed."""
        if self.match.over or self.match.auto[seat] == on:
            return False
        if self.match.escaped[seat] and not on:
            return False
        self.match.set_auto(seat, on)
        self.journal.append({"op": "auto", "seat": seat, "on": on})
        return True

    def escape(self, seat: int) -> None:
        if self.match.over:
            raise OpError("match_over", "the match is over")
        try:
            self.match.escape(seat)
        except ValueError as exc:
            raise OpError("escape", str(exc)) from None
        self.journal.append({"op": "escape", "seat": seat})

    def dissolve(self) -> None:
        """解散 by vote: the match ends now, the scores so far standing (:meth:`Match.dissolve`)."""
        if self.match.over:
            raise OpError("match_over", "the match is over")
        self.match.dissolve()
        self.journal.append({"op": "dissolve"})

    def apply_op(self, op: dict[str, Any]) -> None:
        kind = op["op"]
        if kind == "act":
            self.act(op["seat"], op["action"])
        elif kind == "next":
            self.next_hand()
        elif kind == "auto":
            self.set_auto(op["seat"], op["on"])
        elif kind == "escape":
            self.escape(op["seat"])
        elif kind == "dissolve":
            self.dissolve()
        else:
            raise OpError("bad_journal", f"unknown journal op {kind!r}")

    @classmethod
    def rebuild(cls, rules: RuleSet, seed: bytes, journal: list[dict[str, Any]], *,
                first_dealer: int = 0, max_hands: int | None = None,
                fixed_dealers: bool = False) -> GameSession:
        g = cls(rules, seed, first_dealer=first_dealer, max_hands=max_hands,
                fixed_dealers=fixed_dealers)
        for op in journal:
            g.apply_op(op)
        return g

    # ----------------------------------------------------------- streams
    def _sync_streams(self) -> None:
        """Project the new log entries into every seat's stream (each event serialised
        once for the seats that see it whole, once for those that see its redacted twin)."""
        log = self.match.log
        n = len(log)
        i = self._cursor
        if i == n:
            return
        streams = self._streams
        while i < n:
            ev = log[i]
            i += 1
            full: str | None = None
            twin: str | None = None
            drawer = drawer_of(ev)
            for seat in SEATS:
                p = project_event(ev, seat)
                if p is None:
                    continue
                if p is ev:
                    if full is None:
                        full = _body(ev)
                    body = full
                else:
                    if twin is None:
                        twin = _body(p)
                    body = twin
                # per-seat numbering (the only version an event carries): reveals
                # nothing about hidden events
                streams[seat].append(body, drawer)
        self._cursor = n

    def stream(self, seat: int | None) -> SeatStream:
        """The seat's event stream so far (JSON texts numbered ``v`` 1, 2, 3…)."""
        self._sync_streams()
        return self._streams[seat]

    def stream_v(self, seat: int | None) -> int:
        return self.stream(seat).v

    # ----------------------------------------------------------- frames
    def _refresh(self) -> None:
        """Start this version's views (once per version). Its public part is built now —
        unless the change's events say by themselves all that changed in public
        (:func:`laizi.views.public_moves`: draws, discards, claims, 暗杠 and tiles laid aside)
        but the claim window's marks (the phase, the tile pending) and what follows from the
        seats' tables (:func:`~laizi.server.tables.frames.seat_table`: 番, open): then the
        public view is the one before with what the events say
        (:func:`~laizi.server.common.delta.predict`) and those values now, its public patch
        is the values that changed (:func:`_mark_ops`), and it is built only if a snapshot
        or an older base asks for it (:meth:`_render`). About nineteen changes in twenty
        (docs/deploy.md)."""
        v = self.version
        if self._views_at == v:
            return
        match = self.match
        self._sync_streams()
        hand = match.hand
        key, moves, marks = public_key(match)
        if hand is not None:  # (the seats' tables: counted again only when they changed)
            if hand is self._pk_hand and self._pk_moves[4:] == moves[4:]:
                tables = self._tables
            else:
                tables = tuple(seat_table(hand.rules, hand.setup.laizi, s, moves[4][s], moves[5][s],
                                          moves[6][s], self._fans) for s in range(4))
            self._tables = tables
            marks = (*marks, tables)
        anchor = None
        prev = self._views_at
        if (self.lazy_public and hand is not None and hand is self._pk_hand and key == self._pk and prev >= 0
                and public_moves(self._pk_moves, match.log[self._pk_log:]) == moves):
            anchor = self._lazy.get(prev, prev)
        self._pk, self._pk_moves, self._pk_hand, self._pk_log = key, moves, hand, len(match.log)
        self._views, self._privs, self._pub_patches, self._drawers = {}, {}, {}, {}
        self._views_at = v
        self._ev_at[v] = self._streams[None].v
        self._marks[v] = marks
        self._priv_bases[v] = {}
        self._pub_now = None
        self._spectator = None
        self._public = self._public_lean = None
        if anchor is not None and anchor in self._bases:
            self._lazy[v] = anchor
        else:
            self._render()
        while len(self._ev_at) > VIEW_KEEP:  # the versions kept as bases
            old = next(iter(self._ev_at))
            del self._ev_at[old]
            self._priv_bases.pop(old, None)
            self._lazy.pop(old, None)
            self._marks.pop(old, None)
        needed = {*self._ev_at, *self._lazy.values()}  # (a kept lazy base's anchor too)
        for old in [u for u in self._bases if u not in needed]:
            del self._bases[old], self._anchor_ev[old]

    def _render(self) -> None:
        """Build and write this version's public part (the spectator's view but its private
        keys), once; the version is then a base of its own."""
        if self._public is not None:
            return
        v = self._views_at
        match = self.match
        mv = match_view(match, None, copy=False, history=history_rows(match, self._history))
        self._spectator = mv.hand  # (shares the match's lists: valid for this version only)
        pub = public_part(mv, self._rules_json, fans_memo=self._fans)
        for k in PRIVATE_KEYS:
            pub.pop(k, None)
        # (the rules last: a lean view is the same text without them)
        has_rules = pub.pop("rules", None) is not None
        lean = dumps(pub)
        raw = f'{lean[:-1]},"rules":{self._rules_text}}}' if has_rules else lean
        self._public = raw[:-1]
        self._public_lean = lean[:-1]
        self._bases[v] = raw
        self._anchor_ev[v] = self._ev_at[v]
        self._lazy.pop(v, None)

    def _private(self, seat: int | None) -> dict[str, Any]:
        """The seat's private part at this version (kept as a base; its JSON is made only
        for a whole view: most frames are patches)."""
        got = self._privs.get(seat)
        if got is None:
            match = self.match
            hand = match.hand
            # (fresh containers, JSON values of one type per place, never changed after:
            # kept as the base of the next patches as it is)
            if hand is None:
                priv = private_part(seat, None, match_over=match.over)
            elif seat is None:
                if self._spectator is None:
                    self._spectator = seat_view(hand, None, copy=False)
                priv = private_part(None, self._spectator, match_over=match.over)
            else:  # (built again only when it may have changed: frames.seat_private)
                key = own_key(hand, seat)  # (its legal actions, found once: the view takes them)
                priv = seat_private(seat, lambda: seat_view(hand, seat, key[1], copy=False),
                                    hand=hand, key=key, phase=hand.phase, turn=hand.turn,
                                    match_over=match.over, memo=self._privmemo, waits=self._waits)
            got = self._privs[seat] = priv
            self._priv_bases[self._views_at][seat] = priv
        return got

    def view_json(self, seat: int | None, lean: bool = False) -> str:
        """:meth:`view` as JSON text, cached per version: the public part (the spectator's)
        is built and serialised once per version, each seat adds only its
        :func:`~laizi.server.tables.frames.private_part`. ``lean``: without ``rules`` (a
        client that holds the room's: they never change within a match, and a patch never
        names them)."""
        self._refresh()
        out = self._views.get((seat, lean))
        if out is None:
            self._render()
            pub = self._public_lean if lean else self._public
            assert pub is not None
            out = self._views[seat, lean] = f"{pub},{dumps(self._private(seat))[1:]}"
        return out

    def _parsed_now(self) -> dict[str, Any]:
        """This version's public part as JSON values (diffed against a parsed base)."""
        if self._pub_now is None:
            self._render()
            self._pub_now = orjson.loads(self._bases[self._views_at])
        return self._pub_now

    def trim(self) -> None:
        """Let go of what only the frames of this version needed (a room's memory between
        changes: the texts of the kept versions stay)."""
        self._pub_now = None

    def _events_since(self, ev: int) -> list[dict[str, Any]] | None:
        """The public events after the spectator's stream version ``ev``, whole."""
        texts = self._streams[None].since(ev)
        if texts is None:
            return None
        return [unshape(e, EVENT_SHAPES) for e in orjson.loads(f"[{','.join(texts)}]")]

    def view_patch(self, seat: int | None, base: int) -> str | None:
        """The patch (JSON text, :func:`laizi.server.common.delta.diff`) from the seat's view
        at version ``base`` to its view now; None when that version is no longer kept."""
        self._refresh()
        old_priv = self._priv_bases.get(base, {}).get(seat)
        if old_priv is None:
            return None
        pub_ops = self._pub_patches.get(base)
        if pub_ops is None:  # once per base version, for every connection
            now = self._views_at
            anchor = self._lazy.get(base, base)
            if base == now:
                pub_ops = ""
            elif anchor not in self._bases:
                return None
            else:
                # The public events since the base are every seat's (its own draw too, with
                # its tile): what they say by themselves is left out of the patch.
                kept, drawer = self._streams[None].last_drawer(self._ev_at[base])
                if not kept:
                    return None
                ops = (_mark_ops(self._marks[base], self._marks[now])
                       if self._lazy.get(now) == anchor else None)
                if ops is not None:
                    # the view now is the base's with its events and the marks now: nothing
                    # beyond them
                    pub_ops = dumps(ops)[1:-1]
                else:
                    events = self._events_since(self._ev_at[base])
                    if events is None:
                        return None
                    old = orjson.loads(self._bases[anchor])
                    if anchor != base:  # (the base's view: its anchor's, with the events between
                        # and the base's marks)
                        between = self._events_since(self._anchor_ev[anchor])
                        if between is None:
                            return None
                        old = _with_marks(predict(old, between[:len(between) - len(events)]),
                                          self._marks[base])
                    old, drawer = predict_drawer(old, events)
                    pub_ops = dumps(diff(old, self._parsed_now(), KEY_INDEX))[1:-1]
                self._drawers[base] = drawer
            self._pub_patches[base] = pub_ops
        drawer = self._drawers.get(base)
        if drawer is not None and "acting" in old_priv:  # the client predicts it (delta.predict)
            old_priv = {**old_priv, "acting": [drawer]}
        priv_ops = dumps(diff(old_priv, self._private(seat), KEY_INDEX))[1:-1]
        return f"[{pub_ops}{',' if pub_ops and priv_ops else ''}{priv_ops}]"


def _mark_values(marks: tuple[Any, ...]) -> dict[str, Any]:
    """The claim window's marks of a version (:func:`laizi.views.public_marks`) as the
    snapshot's values, by :data:`~laizi.views.MARK_KEYS`."""
    phase, pending = marks[0], marks[1]
    return {"phase": str(phase), "pending": None if pending is None else TILE_STR[pending]}


def _with_marks(view: dict[str, Any], marks: tuple[Any, ...]) -> dict[str, Any]:
    """``view`` with the marks of a version (:meth:`GameSession._refresh`: the claim
    window's and the seats' :func:`~laizi.server.tables.frames.seat_table`) as the
    snapshot's values (a new value; none: no hand)."""
    if not marks:
        return view
    players = list(view["players"])
    for s, t in enumerate(marks[2]):
        players[s] = {**players[s], **t}
    return {**view, **_mark_values(marks), "players": players}


_PLAYERS = KEY_INDEX["players"]


def _mark_ops(old: tuple[Any, ...], new: tuple[Any, ...]) -> list[list[Any]] | None:
    """The patch from a view with the marks ``old`` to the same view with ``new``, as
    :func:`~laizi.server.common.delta.diff` makes it (a set per claim-window mark changed,
    then the seats' table values, in the view's order); None when diff would make it
    otherwise (more than two seats' tables changed: it sets the players whole)."""
    if not old or not new:
        return None if old or new else []
    was, now = _mark_values(old), _mark_values(new)
    out: list[list[Any]] = [[SET, KEY_INDEX[k], now[k]] for k in MARK_KEYS if was[k] != now[k]]
    changed = [s for s in range(4) if old[2][s] is not new[2][s]]
    if 2 * len(changed) > 4:
        return None
    for s in changed:
        out.extend([op[0], _PLAYERS, s, *op[1:]] for op in diff(old[2][s], new[2][s], KEY_INDEX))
    return out


def hand_frames(rules: RuleSet, seed: bytes, journal: list[dict[str, Any]], *,
                first_dealer: int = 0, max_hands: int | None = None,
                upto_hand: int | None = None,
                fixed_dealers: bool = False) -> dict[int, list[dict[str, Any]]]:
    """Replay frames for every **finished** hand: after each public event, the open view
    (the spectator's snapshot with every hand revealed: the hand is over, its log is
    public)."""
    g = GameSession(rules, seed, first_dealer=first_dealer, max_hands=max_hands,
                    fixed_dealers=fixed_dealers)
    frames: dict[int, list[dict[str, Any]]] = {}
    current: list[dict[str, Any]] = []

    def snap(label: dict[str, Any] | None) -> None:
        v = frame_view(match_view(g.match, None, reveal=True, history=[]), g._rules_json)
        v["event"] = label
        current.append(v)

    seen = 0

    def drain() -> None:
        nonlocal seen
        log = g.match.log
        while seen < len(log):
            ev = log[seen]
            seen += 1
            if ev.get("vis") == "server" or ev["type"] in ("secret", "deal", "response"):
                continue
            snap({k: v for k, v in ev.items() if k != "vis"})

    drain()
    hand_no = g.match.hand_no
    for op in journal:
        g.apply_op(op)
        if g.match.hand_no != hand_no:
            current = []
            hand_no = g.match.hand_no
        drain()
        if g.match.hand_over and current:
            frames[hand_no] = current
        if upto_hand is not None and hand_no > upto_hand:
            break
    return {h: f for h, f in frames.items() if h <= g.match.hand_no and
            (h < g.match.hand_no or g.match.hand_over)}

