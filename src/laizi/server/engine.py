"""The server's handle on one match of the game engine (:mod:`laizi.game`).

:class:`GameSession` owns a :class:`laizi.game.Match` (``auto_next=False``: the room
starts each next hand after a pause) and a **journal** of every operation applied to
it — seat actions, 托管 changes, escapes and hand starts. The match seed plus the
journal rebuild the match exactly (:meth:`GameSession.rebuild`), which is how a
restarted server resumes every match; the rebuilt event log is checked against the
stored one.

Everything a client receives is built per seat: the seat's projection of each event
(:func:`laizi.game.events.project`, renumbered 1, 2, 3… per seat so the numbering
reveals nothing hidden) and the seat's view (:meth:`GameSession.view`, from
:func:`laizi.views.view`). Spectators are seat ``None`` and see public information only.

Frames are built from texts cached per version of the match: the public part of the
views (the spectator view) is built and serialised once, each seat adds its
:func:`private_view`; each event is serialised once for the seats that see it whole and
once for those that see its redacted twin (:class:`SeatStream`).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from laizi.game import Action, Match
from laizi.game.actions import TILE_STR
from laizi.game.events import project
from laizi.rules import RuleSet
from laizi.tiles import parse_tiles
from laizi.views import view as seat_view

__all__ = ["GameSession", "OpError", "SeatStream", "dumps", "seed_from_text", "view_of"]

SEATS: tuple[int | None, ...] = (0, 1, 2, 3, None)
STREAM_KEEP = 256  # events of each seat's stream kept for catching up (older: a snapshot)

_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def dumps(obj: Any) -> str:
    """Compact JSON text (UTF-8 as is), as sent on the wire."""
    return _encode(obj)


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


def _tiles_ordered(counts: list[int]) -> list[str]:
    return [TILE_STR[k] for k in range(34) for _ in range(counts[k])]


def _meld(m: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"type": m.type, "tile": TILE_STR[m.tile], "tiles": [TILE_STR[k] for k in m.tiles()]}
    if m.from_seat is not None:
        d["from"] = m.from_seat
    return d


def history_json(match: Match, cache: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The match table (one row per finished hand); ``cache`` is extended in place."""
    out = [] if cache is None else cache
    for h in match.history[len(out):]:
        out.append({"hand": h["hand"], "dealer": h["dealer"], "winner": h["winner"],
                    "deltas": list(h["deltas"])})
    return out


def view_of(match: Match, seat: int | None, *, reveal: bool = False,
            history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What ``seat`` may know now (``None``: a spectator). ``reveal``: show every hand
    (only for finished hands: replays)."""
    hand = match.hand
    out: dict[str, Any] = {
        "seat": seat,
        "hand_no": match.hand_no,
        "round": match.round,
        "rounds": match.rules.rounds,
        "dealer": match.dealer,
        "scores": match.score_values(),
        "auto": list(match.auto),
        "escaped": list(match.escaped),
        "match_over": match.over,
        "history": history_json(match) if history is None else history,
    }
    if hand is None:
        return out
    over = hand.over
    show_all = reveal or over
    out.update({
        "dealer": hand.dealer,
        "phase": hand.phase,
        "turn": hand.turn,
        "indicator": TILE_STR[hand.indicator],
        "laizi": TILE_STR[hand.setup.laizi],
        "special": [TILE_STR[k] for k in sorted(hand.setup.special)],
        "pizi": [TILE_STR[k] for k in sorted(hand.setup.pizi)],
        "wall_remaining": hand.wall_remaining,
        "commitment": hand.commitment,
        "pending": None if hand.pending is None else TILE_STR[hand.pending],
        "rules": match.rules.model_dump(mode="json"),
    })
    players = []
    for s in range(4):
        p: dict[str, Any] = {
            "seat": s,
            "melds": [_meld(m) for m in hand.melds[s]],
            "river": [TILE_STR[k] for k in hand.rivers[s]],
            "special_kongs": [TILE_STR[k] for k in hand.special_kongs[s]],
            "special_discards": [TILE_STR[k] for k in hand.special_discards[s]],
            "concealed": hand.concealed_count(s),
        }
        if show_all:
            p["hand"] = _tiles_ordered(hand.hands[s])
        players.append(p)
    out["players"] = players
    if seat is not None:
        out["hand"] = _tiles_ordered(hand.hands[seat])
        mine = hand.phase in ("turn", "haidi") and hand.turn == seat
        out["last_draw"] = (TILE_STR[hand.last_draw]
                            if mine and hand.last_draw is not None and not hand.after_claim else None)
        out["after_claim"] = bool(mine and hand.after_claim)
        out["legal"] = [a.to_json() for a in hand.legal_actions(seat)] if not match.over else []
        out["my_decision"] = bool(out["legal"])
    if hand.phase in ("turn", "haidi"):
        out["acting"] = [hand.turn]
    elif over:
        out["acting"] = []
    else:
        # Who may claim is private: a seat only learns whether it may claim itself.
        out["acting"] = [seat] if seat is not None and seat in hand.to_act() else []
    if over:
        out["result"] = hand.result
        out["payments"] = hand.payments
        out["seed"] = None if hand.seed is None else hand.seed.hex()
    return out


def _split(tiles: str | list[str] | None) -> list[str]:
    if not tiles:
        return []
    if isinstance(tiles, list):
        return list(tiles)
    return [TILE_STR[t.index] for t in parse_tiles(tiles)]


def client_view(sv: dict[str, Any], seat: int | None, rules: dict[str, Any],
                history: list[dict[str, Any]]) -> dict[str, Any]:
    """Reshape a :func:`laizi.views.view` seat view for the web client.

    Uses nothing but the seat view itself, the (public) rules and the (public) match
    table, so a frame can never carry more than the seat may know.
    """
    m = sv["match"]
    out: dict[str, Any] = {
        "seat": seat, "hand_no": m["hand_no"], "round": m["round"], "rounds": m["rounds"],
        "dealer": m["dealer"], "scores": m["scores"], "auto": m["auto"], "escaped": m["escaped"],
        "match_over": m["over"], "preset": m.get("preset"), "history": history,
    }
    hv = sv.get("hand_view")
    if not hv:
        return out
    over = hv["phase"] == "over"
    out.update({
        "dealer": hv["dealer"], "phase": hv["phase"], "turn": hv["turn"],
        "indicator": hv["indicator"], "laizi": hv["laizi"], "special": hv["special"],
        "pizi": hv["pizi"], "wall_remaining": hv["wall_remaining"],
        "commitment": hv["commitment"], "rules": rules,
    })
    pending = hv.get("pending")
    out["pending"] = pending["tile"] if pending else None
    hands = hv.get("hands") if over else None
    players = []
    for p in hv["seats"]:
        q = {
            "seat": p["seat"],
            "melds": [{**md, "tiles": _split(md.get("tiles"))} for md in p["melds"]],
            "river": p["river"], "special_kongs": p["special_kongs"],
            "special_discards": p["special_discards"], "concealed": p["concealed"],
            "opened": p.get("opened"),
        }
        if hands is not None:
            q["hand"] = _split(hands[p["seat"]])
        players.append(q)
    out["players"] = players
    me = hv.get("me")
    if me is not None:
        out["hand"] = list(me["tiles"])
        out["legal"] = list(me["legal_actions"]) if not m["over"] else []
        out["last_draw"] = me.get("drawn")
        out["my_decision"] = bool(out["legal"])
    if hv["phase"] in ("turn", "haidi"):
        out["acting"] = [hv["turn"]]
    elif me is not None and out["legal"]:
        out["acting"] = [seat]
    else:
        out["acting"] = []  # who may claim is private
    if over:
        out["result"] = hv.get("result")
        out["payments"] = hv.get("payments")
        out["seed"] = hv.get("seed")
    return out


PRIVATE_KEYS = ("seat", "hand", "legal", "last_draw", "my_decision", "acting")


def private_view(match: Match, seat: int | None) -> dict[str, Any]:
    """The fields of :func:`client_view` that differ between seats: exactly the seat's own
    concealed tiles, its legal actions, its own draw, and whether it is to act.

    Everything else in a seat's view is public and the same for every seat (the
    spectator view): :meth:`GameSession.frame_view` joins the two. A test checks the
    result equals :meth:`GameSession.view` (built from :func:`laizi.views.view`).
    """
    out: dict[str, Any] = {"seat": seat}
    hand = match.hand
    if hand is None:
        return out
    phase = hand.phase
    turn_phase = phase in ("turn", "haidi")
    if seat is not None:
        counts = hand.hands[seat]
        out["hand"] = [TILE_STR[k] for k in range(34) for _ in range(counts[k])]
        legal = [] if match.over else [a.to_json() for a in hand.legal_actions(seat)]
        out["legal"] = legal
        drawn = hand.last_draw if turn_phase and hand.turn == seat else None
        out["last_draw"] = None if drawn is None else TILE_STR[drawn]
        out["my_decision"] = bool(legal)
        out["acting"] = [hand.turn] if turn_phase else ([seat] if legal else [])
    else:
        out["acting"] = [hand.turn] if turn_phase else []
    return out


class SeatStream:
    """One seat's event stream as JSON texts (``v`` = 1, 2, 3…), the last few hundred kept.

    Stored as text, not dicts: serialised once (shared between the seats that see the
    same event) and invisible to the cyclic garbage collector.
    """

    __slots__ = ("base", "items")

    def __init__(self) -> None:
        self.base = 0          # events dropped from the front
        self.items: list[str] = []

    @property
    def v(self) -> int:
        return self.base + len(self.items)

    def append(self, body: str) -> None:
        """``body``: an event's JSON without its closing brace."""
        self.items.append(f'{body},"v":{self.v + 1}}}')
        if len(self.items) > 2 * STREAM_KEEP:
            drop = len(self.items) - STREAM_KEEP
            del self.items[:drop]
            self.base += drop

    def since(self, v: int) -> list[str] | None:
        """The events after version ``v`` (None: no longer kept)."""
        if v < self.base:
            return None
        return self.items[v - self.base:]

    def last(self, n: int) -> list[str]:
        return self.items[-n:]


class GameSession:
    """A running match plus its journal and per-seat event streams."""

    def __init__(self, rules: RuleSet, seed: bytes, *, first_dealer: int = 0,
                 max_hands: int | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.first_dealer = first_dealer
        self.max_hands = max_hands
        self.match = Match(rules, seed=seed, first_dealer=first_dealer, auto_next=False,
                           max_hands=max_hands)
        self._history: list[dict[str, Any]] = []
        self._rules_json = rules.model_dump(mode="json")
        self.journal: list[dict[str, Any]] = []
        self._streams: dict[int | None, SeatStream] = {s: SeatStream() for s in SEATS}
        self._cursor = 0  # log entries projected into the streams
        self._views: dict[int | None, str] = {}  # view JSON per seat, at _views_at
        self._views_at = -1
        self._public = ""

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

    def view(self, seat: int | None) -> dict[str, Any]:
        """The seat's view: :func:`laizi.views.view` reshaped for the web client."""
        return client_view(seat_view(self.match, seat), seat, self._rules_json,
                           history_json(self.match, self._history))

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
        else:
            raise OpError("bad_journal", f"unknown journal op {kind!r}")

    @classmethod
    def rebuild(cls, rules: RuleSet, seed: bytes, journal: list[dict[str, Any]], *,
                first_dealer: int = 0, max_hands: int | None = None) -> GameSession:
        g = cls(rules, seed, first_dealer=first_dealer, max_hands=max_hands)
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
            for seat in SEATS:
                p = project(ev, seat)
                if p is None:
                    continue
                if p is ev:
                    if full is None:
                        full = dumps(ev)[:-1]
                    body = full
                else:
                    if twin is None:
                        twin = dumps(p)[:-1]
                    body = twin
                # per-seat numbering: reveals nothing about hidden events
                streams[seat].append(body)
        self._cursor = n

    def stream(self, seat: int | None) -> SeatStream:
        """The seat's event stream so far (JSON texts numbered ``v`` 1, 2, 3…)."""
        self._sync_streams()
        return self._streams[seat]

    def stream_events(self, seat: int | None) -> list[dict[str, Any]]:
        """The kept part of the seat's stream, decoded (tests, tools)."""
        return [json.loads(t) for t in self.stream(seat).items]

    def stream_v(self, seat: int | None) -> int:
        return self.stream(seat).v

    # ----------------------------------------------------------- frames
    def view_json(self, seat: int | None) -> str:
        """:meth:`view` as JSON text, cached per version: the public part (the spectator
        view) is built and serialised once per version, each seat adds only
        :func:`private_view`."""
        v = self.version
        if self._views_at != v:
            pub = client_view(seat_view(self.match, None), None, self._rules_json,
                              history_json(self.match, self._history))
            for k in PRIVATE_KEYS:
                pub.pop(k, None)
            self._public = dumps(pub)[:-1]
            self._views = {}
            self._views_at = v
        out = self._views.get(seat)
        if out is None:
            out = self._views[seat] = f"{self._public},{dumps(private_view(self.match, seat))[1:]}"
        return out


def hand_frames(rules: RuleSet, seed: bytes, journal: list[dict[str, Any]], *,
                first_dealer: int = 0, max_hands: int | None = None,
                upto_hand: int | None = None) -> dict[int, list[dict[str, Any]]]:
    """Replay frames for every **finished** hand: after each public event, the open view
    (all hands shown: the hand is over, its log is public)."""
    g = GameSession(rules, seed, first_dealer=first_dealer, max_hands=max_hands)
    frames: dict[int, list[dict[str, Any]]] = {}
    current: list[dict[str, Any]] = []

    def snap(label: dict[str, Any] | None) -> None:
        v = view_of(g.match, None, reveal=True, history=[])
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

