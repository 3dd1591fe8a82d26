"""The per-seat snapshot: :class:`SeatView`, built by :func:`seat_view`.

A :class:`SeatView` is everything one seat may know at one moment: its own concealed
tiles, draw and legal actions, the public table (melds, rivers, special and laizi
kongs, hand sizes, wall size), the indicator and laizi — and, once the hand is over
(or for the replay of a finished hand), the revealed hands, result, seed and wall
(:class:`Reveal`). A spectator's snapshot (``spectator=True``) has no own tiles and no
legal actions. Bots decide from it, hints rate its actions, the RL env encodes it, the
server renders its frames from it and :func:`to_json` / :func:`from_json` write and read it as
JSON. It is the only object through which game state leaves the engine.

The JSON form has one writer (:func:`to_json`, :func:`match_to_json`) and one reader
(:func:`from_json`). The schema (what :func:`laizi.views.view` returns)::

    {"hand": 1, "dealer": 0, "phase": "turn", "turn": 0, "wall_remaining": 70,
     "indicator": "5m", "laizi": "6m", "special": [...], "pizi": [...],
     "commitment": "...", "pending": {"seat", "tile", "kind"}?,
     "seats": [{"seat", "melds": [MELD], "river", "special_kongs",
                "special_discards", "concealed", "opened"} × 4],
     "me": {"seat", "hand", "tiles", "legal_actions", "drawn"?, "after_claim"?,
            "answered"?}?,                               # absent for a spectator
     "to_act": true | false | null,
     "result", "payments", "hands", "seed", "wall"}      # the last five once revealed

with ``MELD = {"type", "tile", "tiles", "from"?, "claimed"?}`` (:func:`meld_to_json`; ``claimed``: a
chi's tile taken from 上家). A match view
wraps it: ``{"match": {...}, "hand_view": HAND | null}``. Tiles are written as text
(``"5m"``); concealed hands as compact text (``"123m55z"``) and, for the seat itself,
also as a list of tiles.

:func:`seat_view` is also the simulator's hot path: it copies only what it must
(``copy=False`` shares the state's public lists; the view is then valid until the
next action) and sets the fields one by one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from laizi.game.actions import TILE_STR, Action, tile_from_str
from laizi.rules import RuleSet, TableSetup
from laizi.scoring.model import Meld
from laizi.tiles import NUM_KINDS, counts_to_str, parse_tiles

if TYPE_CHECKING:
    from laizi.game import HandState, Match

__all__ = [
    "MARK_KEYS", "MatchView", "Reveal", "SeatView", "from_json", "history_rows", "match_to_json",
    "match_view", "meld_from_json", "meld_to_json", "own_key", "public_key", "public_marks",
    "public_moves", "seat_view", "to_json",
]


@dataclass(frozen=True, slots=True)
class Reveal:
    """What becomes public when a hand ends (``hands`` also for a replay's reveal)."""

    hands: list[list[int]]  # every seat's concealed counts (34 each)
    result: dict[str, Any] | None = None
    payments: list[float] | None = None
    seed: bytes | None = None
    wall: tuple[int, ...] | None = None
    drawn: str | None = None  # a hand over with no win: why (``exhausted`` 荒庄, ``dissolved`` 解散)


@dataclass(slots=True)
class SeatView:
    """What one seat knows at a decision point (the per-seat snapshot)."""

    seat: int  # the seat (0 for a spectator: see ``spectator``)
    rules: RuleSet
    setup: TableSetup
    dealer: int
    phase: str  # turn | claim | rob | haidi | over
    turn: int  # whose turn (the discarder in a claim window, the konger in a rob window)
    hand: list[int]  # own concealed counts (34; zeros for a spectator)
    melds: list[list[Meld]]
    rivers: list[list[int]]
    special_kongs: list[list[int]]
    special_discards: list[list[int]]
    hand_sizes: list[int]
    wall_remaining: int
    legal: list[Action]
    pending: int | None = None  # the tile under claim / being robbed
    last_draw: int | None = None  # own last drawn tile (on own turn)
    after_claim: bool = False
    indicator: int | None = None
    _visible: list[int] | None = field(default=None, repr=False)
    hand_no: int = 0
    commitment: str = ""
    spectator: bool = False
    answered: Action | None = None  # own answer in an open claim window
    revealed: Reveal | None = None  # after the hand (or a replay's reveal)

    # ------------------------------------------------------------- building
    @classmethod
    def from_state(
        cls, state: HandState, seat: int, legal: Sequence[Action] | None = None, *,
        copy: bool = True,
    ) -> SeatView:
        """The snapshot of ``seat`` in a hand (:func:`seat_view`; this is its fast path,
        the one the simulator calls for every decision).

        ``copy=False`` shares the state's public lists instead of copying them: the
        view is then only valid until the next action.
        """
        ph = state.phase
        own_turn = state.turn == seat and (ph == "turn" or ph == "haidi")
        if copy:
            melds = [list(m) for m in state.melds]
            rivers = [list(r) for r in state.rivers]
            sk = [list(x) for x in state.special_kongs]
            sd = [list(x) for x in state.special_discards]
            acts = list(state.legal_actions(seat) if legal is None else legal)
        else:
            melds, rivers = state.melds, state.rivers
            sk, sd = state.special_kongs, state.special_discards
            acts = (state.legal_actions(seat) if legal is None
                    else legal if isinstance(legal, list) else list(legal))
        # Through __init__ (not ``cls.__new__`` and field by field: a compiled
        # SeatView is a native class, which cannot be created that way).
        hs = state.hands
        v = cls(
            seat=seat,
            rules=state.rules,
            setup=state.setup,
            dealer=state.dealer,
            phase=ph,
            turn=state.turn,
            hand=list(hs[seat]),
            melds=melds,
            rivers=rivers,
            special_kongs=sk,
            special_discards=sd,
            hand_sizes=[sum(hs[0]), sum(hs[1]), sum(hs[2]), sum(hs[3])],
            wall_remaining=state.wall_remaining,
            legal=acts,
            pending=public_marks(state)[1],
            last_draw=state.last_draw if own_turn else None,
            after_claim=state.after_claim if own_turn else False,
            indicator=state.indicator,
            _visible=None,
            hand_no=state.hand_no,
            commitment=state.commitment,
            spectator=False,
            answered=state.responses.get(seat),
            revealed=None if ph != "over" else _reveal(state),
        )
        return v

    @classmethod
    def from_json(cls, view: Any, rules: RuleSet | None = None) -> SeatView:
        """Read a JSON view written by :func:`laizi.views.view` (:func:`from_json`)."""
        return from_json(view, rules)

    def to_json(self) -> dict[str, Any]:
        """The JSON view (:func:`to_json`)."""
        return to_json(self)

    # ------------------------------------------------------------- queries
    @property
    def laizi(self) -> int:
        return self.setup.laizi

    @property
    def special(self) -> frozenset[int]:
        return self.setup.special

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def visible(self) -> list[int]:
        """Copies of each kind this seat can see (own hand, melds, rivers, kongs, indicator)."""
        if self._visible is None:
            c = list(self.hand)
            for s in range(4):
                for m in self.melds[s]:  # Meld.tiles(), unrolled
                    t = m.tile
                    if m.type == "chi":
                        c[t] += 1
                        c[t + 1] += 1
                        c[t + 2] += 1
                    else:
                        c[t] += 3 if m.type == "peng" else 4
                for lst in (self.rivers[s], self.special_kongs[s], self.special_discards[s]):
                    for k in lst:
                        c[k] += 1
            if self.indicator is not None:
                c[self.indicator] += 1
            if self.pending is not None and self.phase == "rob":
                c[self.pending] += 1
            self._visible = c
        return self._visible

    def unseen(self) -> list[int]:
        """Copies of each kind this seat cannot see (in the wall or others' hands)."""
        return [4 - v if v < 4 else 0 for v in self.visible()]

    def opened(self, seat: int | None = None) -> bool:
        s = self.seat if seat is None else seat
        return any(m.opens for m in self.melds[s])


def _reveal(state: HandState) -> Reveal:
    if state.phase != "over":
        return Reveal(hands=[list(h) for h in state.hands])
    return Reveal(hands=[list(h) for h in state.hands], result=state.result,
                  payments=state.payments, seed=state.seed, wall=state.wall,
                  drawn=None if state.result is not None else _draw_reason(state))


def _draw_reason(state: HandState) -> str | None:
    """The reason of the hand's ``ryukyoku`` event (in its log: from ``log_start`` on)."""
    for e in reversed(state.log[state.log_start:]):
        if e.get("type") == "ryukyoku":
            return str(e.get("reason", "exhausted"))
    return None


def seat_view(
    state: HandState, seat: int | None, legal: Sequence[Action] | None = None, *,
    copy: bool = True, reveal: bool = False,
) -> SeatView:
    """The snapshot of ``seat`` (``None``: a spectator) in a hand.

    ``legal``: the seat's legal actions if already known. ``copy=False`` (the
    simulator's fast path) shares the state's public lists instead of copying them:
    the view is then only valid until the next action. ``reveal``: show every hand
    although the hand is still being played — only for the replay of a hand that is
    over (its full log is public); a finished hand is always revealed.
    """
    if seat is None:
        v = SeatView.from_state(state, 0, (), copy=copy)
        v.hand = [0] * NUM_KINDS
        v.last_draw = None
        v.after_claim = False
        v.answered = None
        v.spectator = True
    else:
        v = SeatView.from_state(state, seat, legal, copy=copy)
    if reveal and v.revealed is None:
        v.revealed = _reveal(state)
    return v


def own_key(state: HandState, seat: int) -> tuple[Any, ...]:
    """What the seat's own parts of its :func:`seat_view` are made of — its concealed hand,
    its legal actions, its own draw, whether the hand is over: within one hand, an equal key
    means an equal ``hand``, ``legal`` and ``last_draw`` (a server builds a seat's private
    frame part again only when this changes). Cheaper than the snapshot itself."""
    ph = state.phase
    own_turn = state.turn == seat and (ph == "turn" or ph == "haidi")
    return (tuple(state.hands[seat]), tuple(state.legal_actions(seat)),
            state.last_draw if own_turn else None, ph == "over")


@dataclass(slots=True)
class MatchView:
    """A seat's snapshot of a match: the public match state plus the hand's :class:`SeatView`."""

    seat: int | None
    hand_no: int
    round: int
    rounds: int
    dealer: int
    scores: list[int | float]
    auto: list[bool]
    escaped: list[bool]
    over: bool
    preset: str | None
    history: list[dict[str, Any]]  # one row per finished hand: hand, dealer, winner, deltas
    hand: SeatView | None  # None before the first hand
    max_hands: int | None = None  # the match's cap on hands (None: it ends by rounds)
    end_reason: str | None = None  # once over: ``rounds``, ``max_hands`` or ``dissolved`` (解散)


def history_rows(match: Match, cache: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The match table (one row per finished hand); ``cache`` is extended in place."""
    out = [] if cache is None else cache
    for h in match.history[len(out):]:
        out.append({"hand": h["hand"], "dealer": h["dealer"], "winner": h["winner"],
                    "deltas": list(h["deltas"])})
    return out


def match_view(match: Match, seat: int | None, *, copy: bool = True, reveal: bool = False,
               history: list[dict[str, Any]] | None = None) -> MatchView:
    """The snapshot of ``seat`` (``None``: a spectator) in a match (see :func:`seat_view`).

    ``history``: the match table if already built (else built here).
    """
    hand = match.hand
    sv = None if hand is None else seat_view(hand, seat, copy=copy, reveal=reveal)
    return MatchView(
        seat=seat, hand_no=match.hand_no, round=match.round, rounds=match.rules.match_rounds,
        dealer=match.dealer, scores=match.score_values(), auto=list(match.auto),
        escaped=list(match.escaped), over=match.over, preset=match.rules.preset_name,
        history=history_rows(match) if history is None else history, hand=sv,
        max_hands=match.max_hands,
        end_reason=None if match.end_reason is None else match.end_reason.value,
    )


def public_key(match: Match) -> tuple[tuple[Any, ...], tuple[Any, ...], tuple[Any, ...]]:
    """What the public snapshot of a match (a spectator's :func:`match_view`) is made of, in
    three parts: ``(key, moves, marks)``. ``moves`` is what a hand's events change by
    themselves — the rivers, each seat's count of concealed tiles, the wall, the turn, the
    melds and the tiles laid aside (:func:`public_moves`) —, ``marks`` what a claim window
    opening and closing changes — the hand's ``phase`` and the tile ``pending``, as the
    snapshot shows them (:func:`public_marks`) —, ``key`` all the rest but the hand itself
    (compare its identity) and what follows from the seats' tables by the rules (their
    table 番, whether they are open: a server sends those as values). Within one hand,
    equal keys and moves that :func:`public_moves` predicts from the events between mean
    public snapshots that differ at most in their marks and in what follows from the
    tables (a server then knows a change's public patch holds nothing else)."""
    k: tuple[Any, ...] = (match.hand_no, match.round, match.dealer, tuple(match.score_values()),
                          tuple(match.auto), tuple(match.escaped), match.over, match.end_reason,
                          len(match.history))
    hand = match.hand
    if hand is None:
        return k, (), ()
    k += (hand.indicator, hand.commitment, hand.dealer)
    moves = (tuple(tuple(r) for r in hand.rivers), tuple(sum(h) for h in hand.hands),
             hand.wall_remaining, hand.turn, tuple(tuple(m) for m in hand.melds),
             tuple(tuple(x) for x in hand.special_kongs), tuple(tuple(x) for x in hand.special_discards))
    return k, moves, public_marks(hand)


#: the snapshot's keys that :func:`public_marks` gives, in their order in it
MARK_KEYS: Final = ("phase", "pending")


def public_marks(state: HandState) -> tuple[str, int | None]:
    """The hand's ``phase`` and ``pending`` as every snapshot of it shows them
    (:meth:`SeatView.from_state`: the tile pending only in a claim window or a 抢杠 one)."""
    ph = state.phase
    return ph, (state.pending if (ph == "claim" or ph == "rob") else None)


_TAKES: Final = {"chi": 2, "peng": 2, "kong": 3}  # concealed tiles a claim of a discard takes


def public_moves(moves: tuple[Any, ...], events: Sequence[Mapping[str, Any]]) -> tuple[Any, ...] | None:
    """The ``moves`` part of :func:`public_key` after ``events`` (a match's log entries),
    as the events say it by themselves (what :func:`laizi.server.common.delta.predict`
    applies to a view):

    - a discard puts its tile on the seat's river — a laizi or 红中 (``as``) among its tiles
      laid aside (``special_discards``) — and takes one concealed tile;
    - a draw adds one, takes one from the wall and gives the seat the turn;
    - a chi, peng or kong of a discard takes the last tile of the discarder's river, adds
      the meld and takes two concealed tiles (three: a kong); a chi or peng gives the seat
      the turn;
    - an 暗杠 adds the meld and takes four; a 红中 or laizi laid aside (``special_kong``,
      ``laizi_kong``) goes among the seat's ``special_kongs`` and takes one;
    - the seats' answers to a claim window (``response``) change nothing public.

    None for any other event (a 蓄杠, whose meld changes only once its 抢杠 window has
    closed; a win; ...)."""
    if not moves:
        return None
    # (each seat's tuple replaced when an event touches it: few objects made per change)
    rivers = list(moves[0])
    sizes = list(moves[1])
    wall: int = moves[2]
    turn: int = moves[3]
    melds = list(moves[4])
    laid = list(moves[5])
    discarded = list(moves[6])
    for ev in events:
        kind = ev.get("type")
        if kind == "response":  # a seat's answer to a claim window: its own, never public
            continue
        seat = ev.get("seat")
        if type(seat) is not int or not 0 <= seat < 4:
            return None
        if kind == "draw":
            sizes[seat] += 1
            wall -= 1
            turn = seat
            continue
        tile = ev.get("tile")
        if type(tile) is not str:
            return None
        k = tile_from_str(tile)
        if kind == "discard":
            if ev.get("as") is None:
                rivers[seat] = (*rivers[seat], k)
            else:
                discarded[seat] = (*discarded[seat], k)
            sizes[seat] -= 1
        elif kind in _TAKES:
            d = ev.get("from")
            if type(d) is not int or not 0 <= d < 4 or not rivers[d]:
                return None
            rivers[d] = rivers[d][:-1]
            if kind == "chi":
                run = ev.get("run")
                if type(run) is not str:
                    return None
                meld = Meld("chi", tile_from_str(run), d, k)
            else:
                meld = Meld("peng", k, d) if kind == "peng" else Meld("kong", k, d)
            melds[seat] = (*melds[seat], meld)
            if kind != "kong":
                turn = seat
            sizes[seat] -= _TAKES[kind]
        elif kind == "ankong":
            melds[seat] = (*melds[seat], Meld("ankong", k))
            sizes[seat] -= 4
        elif kind == "special_kong" or kind == "laizi_kong":
            laid[seat] = (*laid[seat], k)
            sizes[seat] -= 1
        else:
            return None
    return (tuple(rivers), tuple(sizes), wall, turn, tuple(melds), tuple(laid), tuple(discarded))


# ---------------------------------------------------------------------- JSON
_MELD_TYPES: Final = frozenset({"chi", "peng", "kong", "addkong", "ankong"})


def meld_to_json(m: Meld, *, tiles_as_list: bool = False) -> dict[str, Any]:
    """A meld as JSON: ``type``, ``tile`` (the lowest for a chi), ``tiles``, ``from`` (if any),
    ``claimed`` (a chi's tile taken from 上家, when known).

    ``tiles`` is compact text (``"123m"``), or a list of tiles with ``tiles_as_list``.
    """
    ts = [TILE_STR[k] for k in m.tiles()]
    d: dict[str, Any] = {"type": m.type, "tile": TILE_STR[m.tile],
                         "tiles": ts if tiles_as_list else "".join(ts)}
    if m.from_seat is not None:
        d["from"] = m.from_seat
    if m.claimed is not None and m.type == "chi":
        d["claimed"] = TILE_STR[m.claimed]
    return d


def meld_from_json(d: Any) -> Meld:
    """The inverse of :func:`meld_to_json`."""
    if not isinstance(d, Mapping) or d.get("type") not in _MELD_TYPES:
        raise ValueError(f"bad meld {d!r}")
    frm = d.get("from")
    if frm is not None and not (isinstance(frm, int) and 0 <= frm < 4):
        raise ValueError(f"bad meld {d!r}: 'from' must be a seat 0-3")
    tile = tile_from_str(str(d.get("tile")))
    claimed = d.get("claimed")
    if claimed is None or d["type"] != "chi":
        return Meld(d["type"], tile, frm)
    took = tile_from_str(str(claimed))
    if not tile <= took <= tile + 2:
        raise ValueError(f"bad meld {d!r}: 'claimed' must be one of the chi's tiles")
    return Meld("chi", tile, frm, took)


def _tiles(ks: list[int]) -> list[str]:
    return [TILE_STR[k] for k in ks]


def _hand_json(v: SeatView) -> dict[str, Any]:
    phase = v.phase
    out: dict[str, Any] = {
        "hand": v.hand_no,
        "dealer": v.dealer,
        "phase": phase,
        "turn": v.turn,
        "wall_remaining": v.wall_remaining,
        "indicator": None if v.indicator is None else TILE_STR[v.indicator],
        "laizi": TILE_STR[v.setup.laizi],
        "special": [TILE_STR[k] for k in sorted(v.setup.special)],
        "pizi": [TILE_STR[k] for k in sorted(v.setup.pizi)],
        "commitment": v.commitment,
    }
    if v.pending is not None:
        out["pending"] = {"seat": v.turn, "tile": TILE_STR[v.pending],
                          "kind": "discard" if phase == "claim" else "addkong"}
    out["seats"] = [{
        "seat": s,
        "melds": [meld_to_json(m) for m in v.melds[s]],
        "river": _tiles(v.rivers[s]),
        "special_kongs": _tiles(v.special_kongs[s]),
        "special_discards": _tiles(v.special_discards[s]),
        "concealed": v.hand_sizes[s],
        "opened": v.opened(s),
    } for s in range(4)]
    return out


def _me_json(v: SeatView) -> dict[str, Any]:
    hand = v.hand
    me: dict[str, Any] = {
        "seat": v.seat,
        "hand": counts_to_str(hand),
        "tiles": [TILE_STR[k] for k in range(NUM_KINDS) for _ in range(hand[k])],
        "legal_actions": [a.to_json() for a in v.legal],
    }
    if v.last_draw is not None:
        me["drawn"] = TILE_STR[v.last_draw]
    if v.after_claim:
        me["after_claim"] = True
    if v.answered is not None:
        me["answered"] = v.answered.to_json()
    return me


def to_json(v: SeatView) -> dict[str, Any]:
    """The JSON view of a hand snapshot (the schema in the module docstring)."""
    out = _hand_json(v)
    if v.spectator:
        out["to_act"] = None  # spectators see whose own turn it is, never who may claim
    else:
        me = _me_json(v)
        out["me"] = me
        out["to_act"] = bool(me["legal_actions"])
    r = v.revealed
    if r is not None:
        out["result"] = r.result
        out["payments"] = r.payments
        out["hands"] = [counts_to_str(h) for h in r.hands]
        out["seed"] = None if r.seed is None else r.seed.hex()
        out["wall"] = None if r.wall is None else "".join(TILE_STR[k] for k in r.wall)
    return out


def match_to_json(mv: MatchView) -> dict[str, Any]:
    """The JSON view of a match snapshot: ``{"match": {...}, "hand_view": ...}``."""
    return {
        "match": {
            "hand_no": mv.hand_no, "round": mv.round, "rounds": mv.rounds,
            "dealer": mv.dealer, "scores": mv.scores, "auto": mv.auto,
            "escaped": mv.escaped, "over": mv.over, "preset": mv.preset,
        },
        "hand_view": None if mv.hand is None else to_json(mv.hand),
    }


# ---------------------------------------------------------------------- reading
def _tile(value: Any) -> int | None:
    return None if value is None else tile_from_str(str(value))


def _tile_list(value: Any) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"expected a list of tiles, got {value!r}")
    return [tile_from_str(str(x)) for x in value]


def _counts(text: Any) -> list[int]:
    c = [0] * NUM_KINDS
    for t in parse_tiles(str(text)) if text else []:
        c[t.index] += 1
    return c


def _reveal_from(hv: Mapping[str, Any]) -> Reveal | None:
    if "hands" not in hv:
        return None
    seed = hv.get("seed")
    wall = hv.get("wall")
    return Reveal(
        hands=[_counts(h) for h in hv["hands"]], result=hv.get("result"),
        payments=hv.get("payments"), seed=None if seed is None else bytes.fromhex(seed),
        wall=None if wall is None else tuple(t.index for t in parse_tiles(wall)),
    )


def _rules_for(view: Mapping[str, Any], rules: RuleSet | None) -> RuleSet:
    if rules is not None:
        return rules
    match = view.get("match")
    preset = match.get("preset") if isinstance(match, Mapping) else None
    return RuleSet.preset(str(preset or "kaikoufan"))


def from_json(view: Any, rules: RuleSet | None = None) -> SeatView:
    """Read a hand or match view written by :func:`to_json` / :func:`match_to_json`.

    The JSON carries no rule set: pass ``rules`` (else the match view's ``preset``,
    else ``kaikoufan``). Raises ``ValueError`` on anything else.
    """
    if not isinstance(view, Mapping):
        raise ValueError("a view is a JSON object")
    try:
        r = _rules_for(view, rules)
        hv = view.get("hand_view", view) if "match" in view else view
        if not isinstance(hv, Mapping):
            raise ValueError("the view has no hand in play")
        return _read_hand(hv, r)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"bad view: {exc!r}") from None


def _read_hand(hv: Mapping[str, Any], rules: RuleSet) -> SeatView:
    indicator = _tile(hv.get("indicator"))
    setup = (rules.setup(indicator=indicator) if indicator is not None
             else rules.setup(laizi=_tile(hv["laizi"])))
    seats = hv["seats"]
    if not isinstance(seats, list) or len(seats) != 4:
        raise ValueError("a view has four seats")
    me = hv.get("me")
    pending = hv.get("pending")
    return SeatView(
        seat=0 if me is None else int(me["seat"]), rules=rules, setup=setup,
        dealer=int(hv["dealer"]), phase=str(hv["phase"]), turn=int(hv["turn"]),
        hand=[0] * NUM_KINDS if me is None else _counts(me["hand"]),
        melds=[[meld_from_json(m) for m in p["melds"]] for p in seats],
        rivers=[_tile_list(p["river"]) for p in seats],
        special_kongs=[_tile_list(p["special_kongs"]) for p in seats],
        special_discards=[_tile_list(p["special_discards"]) for p in seats],
        hand_sizes=[int(p["concealed"]) for p in seats],
        wall_remaining=int(hv["wall_remaining"]),
        legal=[] if me is None else [Action.from_json(a) for a in me["legal_actions"]],
        pending=None if pending is None else _tile(pending["tile"]),
        last_draw=None if me is None else _tile(me.get("drawn")),
        after_claim=me is not None and bool(me.get("after_claim", False)), indicator=indicator,
        hand_no=int(hv["hand"]), commitment=str(hv.get("commitment", "")),
        spectator=me is None,
        answered=None if me is None or "answered" not in me else Action.from_json(me["answered"]),
        revealed=_reveal_from(hv),
    )
