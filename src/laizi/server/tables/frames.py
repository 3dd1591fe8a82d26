"""The web client's view of a table: a :class:`~laizi.views.MatchView` snapshot rendered
for ``src/laizi/web/app.js`` (a ``snapshot`` frame carries it whole, an ``update`` a patch
of it: :mod:`laizi.server.common.delta`).

A frame's ``view`` object is::

    {"seat", "hand_no", "round", "rounds", "max_hands", "dealer", "scores", "auto", "escaped",
     "match_over", "preset", "history",                       # always
     "phase", "turn", "indicator", "laizi", "special", "pizi", "wall_remaining",
     "commitment", "rules", "pending",                         # once a hand is dealt ("rules"
                                                               # not in the snapshots of a client
                                                               # that holds the room's: hello
                                                               # room_patch)
     "players": [{"seat", "melds": [{"type", "tile", "tiles": [..], "from"?, "claimed"?}],
                  "river", "special_kongs", "special_discards", "concealed",
                  "opened", "fan", "fan_items", "standing",    # 番 on the table (laizi.views.fan)
                  "hand"?} × 4],                               # "hand": revealed hands
     "hand", "legal", "last_draw", "my_decision", "waits",     # a seat's own (not spectators);
                                                               # waits scored (laizi.hints.ready_waits);
                                                               # after its own draw, those of its hand
                                                               # before the draw (a client shows them
                                                               # on a 3n+1 hand only)
     "acting",                                                 # who is to act, as the seat may know
     "result", "payments", "seed", "drawn"?,                   # once the hand is over;
                                                               # "drawn": why no win (解散: "dissolved")
     "match_end"?}                                             # once the match is over: why

:func:`read_view` is the inverse (a client that plays with a bot, e.g.
``benchmarks/bench_server.py``, reads a frame back into a snapshot).

Everything is rendered from the seat's snapshot (which holds only what the seat may
know), the public rules and the public match table. The part that differs between
seats (:data:`PRIVATE_KEYS`, :func:`private_part`) is split from the part every seat
shares (:func:`public_part`, the spectator's), so a server can build the shared part
once per change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from laizi.game.actions import TILE_STR, Action, tile_from_str
from laizi.hints import WaitsMemo, may_wait, ready_waits
from laizi.rules import RuleSet
from laizi.scoring import Meld
from laizi.tiles import NUM_KINDS
from laizi.views import MatchView, Reveal, SeatView, meld_from_json, meld_to_json
from laizi.views.fan import seat_fan

__all__ = ["EVENT_SHAPES", "KEY_INDEX", "PRIVATE_KEYS", "TABLES_ID", "TABLE_KEYS", "VIEW_KEYS", "FansMemo", "PrivateMemo",
           "frame_view", "private_part", "public_part", "read_view", "seat_private", "seat_table"]

PRIVATE_KEYS = ("seat", "hand", "legal", "last_draw", "my_decision", "acting", "waits")
# The wire's key table (sent with every snapshot as ``keys``): a patch names these keys by
# their index (laizi.server.common.delta); clients read the table from the snapshot, so
# the order is free; a key missing here still travels, as text.
VIEW_KEYS = (
    "hand_no", "round", "rounds", "max_hands", "dealer", "scores", "auto", "escaped", "match_over",
    "preset", "history", "match_end", "phase", "turn", "indicator", "laizi", "special", "pizi",
    "wall_remaining", "commitment", "rules", "pending", "players", "result", "payments", "seed",
    "drawn", *PRIVATE_KEYS, "melds", "river", "special_kongs", "special_discards", "concealed",
    "opened", "fan", "fan_items", "standing", "type", "tile", "tiles", "from",
    "unseen", "self_draw", "discard", "enough", "ok", "reason", "total", "big_hands", "breakdown",
    "claimed")
KEY_INDEX = {k: i for i, k in enumerate(VIEW_KEYS)}
# The wire's event shapes (sent with every snapshot as ``shapes``): an update carries an event
# of one of these (its type, then its keys; no ``v``, no public ``vis``) as the array
# ``[shape, *values]`` — ``{"type":"discard","seat":1,"tile":"8s"}`` as ``[0,1,"8s"]``;
# any other event travels as an object.
EVENT_SHAPES = (
    ("discard", "seat", "tile"), ("draw", "seat", "src"), ("draw", "seat", "tile", "src", "vis"),
    ("chi", "seat", "tile", "from", "run"), ("peng", "seat", "tile", "from"),
    ("special_kong", "seat", "tile"), ("laizi_kong", "seat", "tile"), ("deal", "seat", "count"),
    ("response", "seat", "action", "vis"), ("kong", "seat", "tile", "from"), ("addkong", "seat", "tile"),
    ("ankong", "seat", "tile"), ("tsumo", "seat"))
# Which tables these are (a node's welcome gave a connection the tables: ``Conn.tables``, its
# id; a node of another version, in a rolling deploy, sends its own in its snapshots).
TABLES_ID = hashlib.sha256(json.dumps([VIEW_KEYS, EVENT_SHAPES]).encode()).hexdigest()[:12]
_TURN_PHASES = ("turn", "haidi", "replace")  # phases where the turn seat (alone, publicly) acts


_RUNS = tuple(tuple([TILE_STR[k]] * n for n in range(5)) for k in range(NUM_KINDS))  # kind, copies -> tiles


def _ordered(counts: list[int]) -> list[str]:
    out: list[str] = []
    for k, n in enumerate(counts):
        if n:
            out += _RUNS[k][n] if n < 5 else [TILE_STR[k]] * n
    return out


def _tiles(ks: list[int]) -> list[str]:
    return [TILE_STR[k] for k in ks]


FansMemo = dict[int, tuple[tuple[Any, ...], dict[str, Any]]]
"""Each seat's :func:`seat_table` last counted, with what it was counted from (a server
keeps one per match: a seat's 番 changes only with its own melds, kongs and laid-aside
tiles)."""

#: a seat's keys in the view that follow from its table by the rules (:func:`seat_table`),
#: not from the events: a server sends them as values (in the view's order)
TABLE_KEYS = ("opened", "fan", "fan_items", "standing")


def seat_table(rules: RuleSet, laizi: int, s: int, melds: Sequence[Meld], special_kongs: Sequence[int],
               special_discards: Sequence[int], memo: FansMemo | None = None) -> dict[str, Any]:
    """Seat ``s``'s :data:`TABLE_KEYS` (public: the same in every seat's frame): whether it
    is open and its :func:`~laizi.views.fan.seat_fan`. With ``memo``, the same dict while
    the seat's table is the same (never changed after)."""
    key = (laizi, tuple(melds), tuple(special_kongs), tuple(special_discards))  # (one match: one rule set)
    if memo is not None:
        got = memo.get(s)
        if got is not None and got[0] == key:
            return got[1]
    fan = seat_fan(rules, laizi, melds, special_kongs, special_discards)
    out = {"opened": any(m.opens for m in melds), "fan": fan["fan"], "fan_items": fan["items"],
           "standing": fan["standing"]}
    if memo is not None:
        memo[s] = (key, out)
    return out


def _players(hv: SeatView, fans_memo: FansMemo | None = None) -> list[dict[str, Any]]:
    revealed = hv.revealed
    players = []
    laizi = hv.setup.laizi
    for s in range(4):
        p: dict[str, Any] = {
            "seat": s,
            "melds": [meld_to_json(m, tiles_as_list=True) for m in hv.melds[s]],
            "river": _tiles(hv.rivers[s]),
            "special_kongs": _tiles(hv.special_kongs[s]),
            "special_discards": _tiles(hv.special_discards[s]),
            "concealed": hv.hand_sizes[s],
            **seat_table(hv.rules, laizi, s, hv.melds[s], hv.special_kongs[s], hv.special_discards[s],
                         fans_memo),
        }
        if revealed is not None:
            p["hand"] = _ordered(revealed.hands[s])
        players.append(p)
    return players


def public_part(mv: MatchView, rules: dict[str, Any], *, fans_memo: FansMemo | None = None) -> dict[str, Any]:
    """The keys of :func:`frame_view` that are the same for every seat (``rules``: the
    rule set as JSON; ``fans_memo``: the match's :data:`FansMemo`, shared values)."""
    out: dict[str, Any] = {
        "hand_no": mv.hand_no, "round": mv.round, "rounds": mv.rounds, "max_hands": mv.max_hands,
        "dealer": mv.dealer, "scores": mv.scores, "auto": mv.auto, "escaped": mv.escaped,
        "match_over": mv.over, "preset": mv.preset, "history": mv.history,
    }
    if mv.end_reason is not None:
        out["match_end"] = mv.end_reason  # "dissolved": ended by a 解散 vote
    hv = mv.hand
    if hv is None:
        return out
    setup = hv.setup
    out.update({
        "dealer": hv.dealer, "phase": hv.phase, "turn": hv.turn,
        "indicator": None if hv.indicator is None else TILE_STR[hv.indicator],
        "laizi": TILE_STR[setup.laizi],
        "special": [TILE_STR[k] for k in sorted(setup.special)],
        "pizi": [TILE_STR[k] for k in sorted(setup.pizi)],
        "wall_remaining": hv.wall_remaining, "commitment": hv.commitment, "rules": rules,
        "pending": None if hv.pending is None else TILE_STR[hv.pending],
        "players": _players(hv, fans_memo),
    })
    r = hv.revealed
    if hv.phase == "over" and r is not None:
        out["result"] = r.result
        out["payments"] = r.payments
        out["seed"] = None if r.seed is None else r.seed.hex()
        if r.drawn is not None:
            out["drawn"] = r.drawn
    return out


def _before_draw(hv: SeatView) -> SeatView:
    """The seat's view with its hand as it was before its draw (``hv.last_draw`` taken out)."""
    assert hv.last_draw is not None
    hand = list(hv.hand)
    hand[hv.last_draw] -= 1
    return replace(hv, hand=hand, last_draw=None, legal=[], _visible=None)


def private_part(seat: int | None, hv: SeatView | None, *, match_over: bool,
                 memo: WaitsMemo | None = None) -> dict[str, Any]:
    """The keys of :func:`frame_view` that differ between seats (:data:`PRIVATE_KEYS`):
    exactly the seat's own concealed tiles, its legal actions, its own draw, its scored
    waits, and whether it (or, on a turn, whom) is to act. ``hv``: the seat's hand snapshot;
    ``memo``: the table's scored waits (:class:`laizi.hints.WaitsMemo`)."""
    out: dict[str, Any] = {"seat": seat}
    if hv is None:
        return out
    turn_phase = hv.phase in _TURN_PHASES
    if seat is None or hv.spectator:
        out["acting"] = [hv.turn] if turn_phase else []
        return out
    legal = [] if match_over else [a.to_json() for a in hv.legal]
    out["hand"] = _ordered(hv.hand)
    out["legal"] = legal
    out["last_draw"] = None if hv.last_draw is None else TILE_STR[hv.last_draw]
    out["my_decision"] = bool(legal)
    # 听牌: winning tiles, scored. After its own draw (3n+2 tiles) a seat holds no waits; its
    # frame keeps those of its hand before the draw (what it was waiting on: the same, from
    # the memo), so a ready seat's every turn does not send its waits away and back.
    wv: SeatView | None = hv
    if hv.last_draw is not None and hv.phase != "over" and sum(hv.hand) % 3 == 2:
        before = list(hv.hand)
        before[hv.last_draw] -= 1
        # (most hands before the draw wait on nothing: no snapshot of them is built)
        wv = _before_draw(hv) if may_wait(hv, before, memo) else None
    out["waits"] = [] if match_over or wv is None else ready_waits(wv, scores=True, memo=memo)
    out["acting"] = _acting(hv.phase, hv.turn, seat, bool(legal))
    return out


def _acting(phase: str, turn: int, seat: int, deciding: bool) -> list[int]:
    """Who is to act, as ``seat`` may know: the turn seat on a turn; else only itself, if it
    has a decision (who may claim is private: a seat only learns whether it may claim)."""
    return [turn] if phase in _TURN_PHASES else ([seat] if deciding else [])


class PrivateMemo:
    """Each seat's private part last built, with what it was built from (a server keeps one
    per match: :func:`seat_private`)."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        # seat -> (the hand it was built in, its laizi.views.own_key, the part)
        self.last: dict[int, tuple[object, tuple[Any, ...], dict[str, Any]]] = {}


def seat_private(seat: int, view: Callable[[], SeatView], *, hand: object, key: tuple[Any, ...],
                 phase: str, turn: int, match_over: bool, memo: PrivateMemo,
                 waits: WaitsMemo | None = None) -> dict[str, Any]:
    """:func:`private_part` of ``seat``, built again (from ``view()``, its snapshot) only
    when it may have changed. ``hand``: the hand in play (its identity); ``key``: the seat's
    :func:`laizi.views.own_key` now; ``phase``, ``turn``: the hand's.

    Most changes of a table (another seat's draw or discard) leave a seat's hand, legal
    actions and own draw as they were, and a seat waiting on nothing then still waits on
    nothing (its waits follow from its hand and its own melds, which take tiles from its
    hand). Its ``acting`` (the turn seat) is made anew; the other values are the same lists
    as before (never changed after: a frame's diff finds them the same at once). A seat
    with waits is built again at every change (their unseen copies and scores follow the
    whole table)."""
    key = (*key, match_over)
    got = memo.last.get(seat)
    if got is not None and got[0] is hand and got[1] == key and not got[2]["waits"]:
        out = dict(got[2])
        out["acting"] = _acting(phase, turn, seat, bool(out["legal"]))
        return out
    out = private_part(seat, view(), match_over=match_over, memo=waits)
    memo.last[seat] = (hand, key, out)
    return out


def frame_view(mv: MatchView, rules: dict[str, Any]) -> dict[str, Any]:
    """The web client's view for ``mv.seat`` (see the module docstring)."""
    out = public_part(mv, rules)
    out.update(private_part(mv.seat, mv.hand, match_over=mv.over))
    return out


# ---------------------------------------------------------------------- reading
def _kinds(tiles: Any) -> list[int]:
    if not isinstance(tiles, list):
        raise ValueError(f"expected a list of tiles, got {tiles!r}")
    return [tile_from_str(str(t)) for t in tiles]


def _count(tiles: Any) -> list[int]:
    c = [0] * NUM_KINDS
    for k in _kinds(tiles):
        c[k] += 1
    return c


def _read_reveal(view: Mapping[str, Any], players: list[Any]) -> Reveal | None:
    if not all("hand" in p for p in players):
        return None
    seed = view.get("seed")
    return Reveal(hands=[_count(p["hand"]) for p in players], result=view.get("result"),
                  payments=view.get("payments"),
                  seed=None if seed is None else bytes.fromhex(seed))


def read_view(view: Any, rules: RuleSet | None = None) -> SeatView:
    """The seat's hand snapshot from a frame's ``view`` (the inverse of :func:`frame_view`
    for the fields a frame carries). ``rules``: else the frame's own ``rules``."""
    if not isinstance(view, Mapping) or not isinstance(view.get("players"), list):
        raise ValueError("the frame has no hand in play")
    try:
        if rules is None:
            rules = RuleSet(**dict(view["rules"]))
        ind = view.get("indicator")
        setup = (rules.setup(indicator=tile_from_str(ind)) if ind is not None
                 else rules.setup(laizi=tile_from_str(view["laizi"])))
        players = view["players"]
        seat = view.get("seat")
        pending = view.get("pending")
        last_draw = view.get("last_draw")
        return SeatView(
            seat=0 if seat is None else int(seat), rules=rules, setup=setup,
            dealer=int(view["dealer"]), phase=str(view["phase"]), turn=int(view["turn"]),
            hand=[0] * NUM_KINDS if seat is None else _count(view["hand"]),
            melds=[[meld_from_json(m) for m in p["melds"]] for p in players],
            rivers=[_kinds(p["river"]) for p in players],
            special_kongs=[_kinds(p["special_kongs"]) for p in players],
            special_discards=[_kinds(p["special_discards"]) for p in players],
            hand_sizes=[int(p["concealed"]) for p in players],
            wall_remaining=int(view["wall_remaining"]),
            legal=[] if seat is None else [Action.from_json(a) for a in view["legal"]],
            pending=None if pending is None else tile_from_str(pending),
            last_draw=None if last_draw is None else tile_from_str(last_draw),
            indicator=None if ind is None else tile_from_str(ind),
            hand_no=int(view["hand_no"]), commitment=str(view.get("commitment", "")),
            spectator=seat is None, revealed=_read_reveal(view, players),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"bad frame view: {exc!r}") from None
