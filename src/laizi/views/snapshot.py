"""The per-seat snapshot: :class:`SeatView`, built by :func:`seat_view`.

A :class:`SeatView` is everything one seat may know at one moment: its own concealed
tiles, draw and legal actions, the public table (melds, rivers, special and laizi
kongs, hand sizes, wall size), the indicator and laizi — and, once the hand is over
(or for the replay of a finished hand), the revealed hands, result, seed and wall
(:class:`Reveal`). A spectator's snapshot (``spectator=True``) has no own tiles and no
legal actions. Bots decide from it, hints rate its actions, the RL env encodes it, the
server renders its frames from it and :mod:`laizi.views.codec` writes and reads it as
JSON. It is the only object through which game state leaves the engine.

:func:`seat_view` is also the simulator's hot path: it copies only what it must
(``copy=False`` shares the state's public lists; the view is then valid until the
next action) and sets the fields one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from laizi.game.actions import Action
from laizi.rules import RuleSet, TableSetup
from laizi.scoring.model import Meld

if TYPE_CHECKING:
    from laizi.game import HandState, Match

__all__ = ["MatchView", "Reveal", "SeatView", "match_view", "seat_view"]

_NO_TILES: list[int] = [0] * 34


@dataclass(frozen=True, slots=True)
class Reveal:
    """What becomes public when a hand ends (``hands`` also for a replay's reveal)."""

    hands: list[list[int]]  # every seat's concealed counts (34 each)
    result: dict[str, Any] | None = None
    payments: list[float] | None = None
    seed: bytes | None = None
    wall: tuple[int, ...] | None = None


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
        """:func:`seat_view` of ``seat`` in a live hand (kept for the bots' callers)."""
        return seat_view(state, seat, legal, copy=copy)

    @classmethod
    def from_json(cls, view: Any, rules: RuleSet | None = None) -> SeatView:
        """Read a JSON view written by :func:`laizi.views.view` (see :mod:`laizi.views.codec`)."""
        from laizi.views.codec import from_json

        return from_json(view, rules)

    def to_json(self) -> dict[str, Any]:
        """The JSON view (:func:`laizi.views.codec.to_json`)."""
        from laizi.views.codec import to_json

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
                  payments=state.payments, seed=state.seed, wall=state.wall)


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
    ph = state.phase
    spectator = seat is None
    me = 0 if seat is None else seat
    own_turn = not spectator and state.turn == me and (ph == "turn" or ph == "haidi")
    if copy:
        melds = [list(m) for m in state.melds]
        rivers = [list(r) for r in state.rivers]
        sk = [list(x) for x in state.special_kongs]
        sd = [list(x) for x in state.special_discards]
    else:
        melds, rivers = state.melds, state.rivers
        sk, sd = state.special_kongs, state.special_discards
    if spectator:
        acts: list[Action] = []
    elif legal is None:
        acts = state.legal_actions(me)
        if copy:
            acts = list(acts)
    else:
        acts = legal if (not copy and isinstance(legal, list)) else list(legal)
    # Field by field rather than through __init__ (the simulator's hot path);
    # every field of the class is set here.
    v = SeatView.__new__(SeatView)
    v.seat = me
    v.rules = state.rules
    v.setup = state.setup
    v.dealer = state.dealer
    v.phase = ph
    v.turn = state.turn
    v.hand = list(_NO_TILES if spectator else state.hands[me])
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
    v.hand_no = state.hand_no
    v.commitment = state.commitment
    v.spectator = spectator
    v.answered = None if spectator else state.responses.get(me)
    v.revealed = _reveal(state) if (reveal or ph == "over") else None
    return v


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
        seat=seat, hand_no=match.hand_no, round=match.round, rounds=match.rules.rounds,
        dealer=match.dealer, scores=match.score_values(), auto=list(match.auto),
        escaped=list(match.escaped), over=match.over, preset=match.rules.preset_name,
        history=history_rows(match) if history is None else history, hand=sv,
    )
