"""The bot interface: a seat's view in, an action out.

A bot never touches the engine's state. It is handed a :class:`SeatView` — what one
seat may know: its own concealed tiles, the public table (melds, rivers, special and
laizi kongs, hand sizes, wall size), the indicator and laizi, and its legal actions —
and returns one of those legal actions.

Build a view with :meth:`SeatView.from_state` (the simulator's fast path: it copies
only the seat's own and the public fields of a :class:`~laizi.game.HandState`) or
:meth:`SeatView.from_json` (the JSON view the server sends to a seat, see
:func:`laizi.views.view`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from laizi.game.actions import Action, tile_from_str
from laizi.rules import RuleSet, TableSetup
from laizi.scoring.model import Meld

if TYPE_CHECKING:
    from laizi.game.state import HandState

__all__ = ["Bot", "SeatView"]


@dataclass(slots=True)
class SeatView:
    """What one seat knows at a decision point."""

    seat: int
    rules: RuleSet
    setup: TableSetup
    dealer: int
    phase: str  # turn | claim | rob | haidi
    turn: int  # whose turn (the discarder in a claim window, the konger in a rob window)
    hand: list[int]  # own concealed counts (34)
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

    # ------------------------------------------------------------- building
    @classmethod
    def from_state(
        cls, state: HandState, seat: int, legal: Sequence[Action] | None = None, *,
        copy: bool = True,
    ) -> SeatView:
        """The view of ``seat`` in a live hand (own and public information only).

        ``copy=False`` (the simulator's fast path) shares the state's public lists
        instead of copying them: the view is then only valid until the next action.
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
        # Field by field rather than through __init__ (the simulator's hot path);
        # every field of the class is set here.
        v = cls.__new__(cls)
        v.seat = seat
        v.rules = state.rules
        v.setup = state.setup
        v.dealer = state.dealer
        v.phase = ph
        v.turn = state.turn
        v.hand = list(state.hands[seat])
        v.melds = melds
        v.rivers = rivers
        v.special_kongs = sk
        v.special_discards = sd
        hs = state.hands
        v.hand_sizes = [sum(hs[0]), sum(hs[1]), sum(hs[2]), sum(hs[3])]
        v.wall_remaining = state.wall_remaining
        v.legal = acts
        v.pending = state.pending if (ph == "claim" or ph == "rob") else None
        v.last_draw = state.last_draw if own_turn else None
        v.after_claim = state.after_claim if own_turn else False
        v.indicator = state.indicator
        v._visible = None
        return v

    @classmethod
    def from_json(cls, view: Mapping[str, Any], rules: RuleSet | None = None) -> SeatView:
        """From a JSON seat view: :func:`laizi.views.view` of a hand or a match.

        The view carries no rule set: pass ``rules`` (else the match view's
        ``preset``, else ``kaikoufan``). Also accepts a flat variant (``seat``,
        ``hand``, ``players``, ``legal``, ``pending`` as a tile) for hand-made views.
        """
        return _from_json(view, rules)

    # ------------------------------------------------------------- queries
    @property
    def laizi(self) -> int:
        return self.setup.laizi

    @property
    def special(self) -> frozenset[int]:
        return self.setup.special

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


class Bot(ABC):
    """A player: ``act(view) -> action``, one of ``view.legal``."""

    name: str = "bot"

    @abstractmethod
    def act(self, view: SeatView) -> Action:
        """Choose one of ``view.legal``."""

    def reset(self) -> None:  # noqa: B027 - optional hook
        """Called at the start of each hand."""


# ---------------------------------------------------------------------- JSON views
def _tiles(value: Any) -> list[int]:
    if value is None:
        return []
    if isinstance(value, str):
        from laizi.tiles import parse_tiles

        return [t.index for t in parse_tiles(value)]
    out: list[int] = []
    for v in value:
        out.append(int(v) if isinstance(v, int) else tile_from_str(str(v)))
    return out


def _tile(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, int):
        return value
    return tile_from_str(str(value))


def _meld(value: Any) -> Meld:
    if isinstance(value, Meld):
        return value
    if isinstance(value, str):
        return Meld.parse(value)
    t = tile_from_str(str(value["tile"])) if not isinstance(value["tile"], int) else value["tile"]
    mtype = value["type"]
    if mtype == "chi" and "run" in value:
        t = _tile(value["run"]) or t
    return Meld(mtype, t, value.get("from"))


def _from_json(view: Mapping[str, Any], rules: RuleSet | None) -> SeatView:
    match = view.get("match") if isinstance(view.get("match"), Mapping) else None
    if "hand_view" in view:
        inner = view["hand_view"]
        if not isinstance(inner, Mapping):
            raise ValueError("the view has no hand in play")
        view = inner
    if rules is None:
        r = view.get("rules")
        if isinstance(r, Mapping):
            rules = RuleSet(**dict(r))
        else:
            preset = view.get("preset") or (match or {}).get("preset") or "kaikoufan"
            rules = RuleSet.preset(str(preset))
    indicator = _tile(view.get("indicator"))
    laizi = _tile(view.get("laizi"))
    setup = rules.setup(indicator=indicator) if indicator is not None else rules.setup(laizi=laizi)
    me = view.get("me")
    me = me if isinstance(me, Mapping) else view
    seat = int(me.get("seat", view.get("seat", 0)))
    hand_v = me.get("hand")
    hand = [0] * 34
    if isinstance(hand_v, list) and len(hand_v) == 34 and all(isinstance(x, int) for x in hand_v):
        hand = list(hand_v)
    else:
        for k in _tiles(hand_v):
            hand[k] += 1
    players = view.get("seats") or view.get("players") or [{} for _ in range(4)]
    melds: list[list[Meld]] = []
    rivers: list[list[int]] = []
    sk: list[list[int]] = []
    sd: list[list[int]] = []
    sizes: list[int] = []
    for i, p in enumerate(players):
        melds.append([_meld(m) for m in p.get("melds", [])])
        rivers.append(_tiles(p.get("river", p.get("discards"))))
        sk.append(_tiles(p.get("special_kongs")))
        sd.append(_tiles(p.get("special_discards")))
        size = p.get("concealed", p.get("hand_size"))
        if size is None:
            size = sum(hand) if i == seat else 13 - 3 * len(melds[-1])
        sizes.append(int(size))
    legal_v = me.get("legal_actions", me.get("legal", view.get("legal", [])))
    legal = [a if isinstance(a, Action) else Action.from_json(a) for a in legal_v]
    pending_v = view.get("pending")
    pending = _tile(pending_v.get("tile")) if isinstance(pending_v, Mapping) else _tile(pending_v)
    phase = str(view.get("phase", "turn"))
    return SeatView(
        seat=seat, rules=rules, setup=setup, dealer=int(view.get("dealer", 0)),
        phase=phase, turn=int(view.get("turn", seat)),
        hand=hand, melds=melds, rivers=rivers, special_kongs=sk, special_discards=sd,
        hand_sizes=sizes, wall_remaining=int(view.get("wall_remaining", 70)),
        legal=legal, pending=pending if phase in ("claim", "rob") else None,
        last_draw=_tile(me.get("drawn", me.get("last_draw"))),
        after_claim=bool(view.get("after_claim", False)), indicator=indicator,
    )
