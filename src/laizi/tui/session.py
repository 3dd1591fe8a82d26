"""One human seat against bots: the match, the bots and what the human may see.

The :class:`Session` owns a :class:`~laizi.game.match.Match` (hands are dealt one at a
time, so a finished hand stays on the table for its settlement) and a
:class:`~laizi.bots.autoplay.SeatControl` playing the bot seats — and the human seat
while 托管 is on. Everything shown to the player is read through :mod:`laizi.views`
(``view`` and ``events_for``): the seat's own view and its own event stream, in which
the other seats' draws are redacted.

Drivers (the textual app, the line-mode fallback) call :meth:`Session.bot_seat` /
:meth:`Session.step_bot` one action at a time (so every bot move can be shown),
:meth:`Session.apply` for the human, :meth:`Session.new_events` for the log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from laizi.bots.autoplay import SeatControl
from laizi.bots.base import SeatView
from laizi.game.actions import Action
from laizi.game.events import Event
from laizi.game.match import Match
from laizi.hints import ready_waits
from laizi.rules import RuleSet
from laizi.tui.words import Lang, W, bot_name, position_name
from laizi.views import events_for, seat_view, view
from laizi.views.fan import table_fans

__all__ = ["HandRecord", "Session"]


@dataclass
class HandRecord:
    """What the player learned about one finished hand (from its public events)."""

    hand: int
    dealer: int
    win: Event | None = None
    end: Event | None = None
    deltas: list[float] = field(default_factory=lambda: [0.0] * 4)
    scores: list[float] = field(default_factory=lambda: [0.0] * 4)


class Session:
    """A match: ``human`` against three bots (``bots`` names, in seat order)."""

    def __init__(self, rules: RuleSet, *, seed: int | str = 0, hands: int = 4, human: int = 0,
                 bots: Sequence[str] = ("strong", "strong", "strong"), lang: Lang = "zh") -> None:
        self.rules = rules
        self.human = human
        self.lang: Lang = lang
        match_seed = hashlib.sha256(f"laizi-play:{seed}".encode()).digest()
        self.match = Match(rules, seed=match_seed, max_hands=hands, auto_next=False)
        others = [s for s in range(4) if s != human]
        self.bot_names = {s: b for s, b in zip(others, bots, strict=False)}
        self.control = SeatControl(dict(self.bot_names), seed=int.from_bytes(match_seed[:4], "big"),
                                   match=self.match)
        self.names = [W[lang]["you"] if s == human else position_name(s, human, lang)
                      for s in range(4)]
        self.levels = {s: bot_name(b, lang) for s, b in self.bot_names.items()}
        self.seen = 0
        self.dealer = self.match.dealer
        self.records: list[HandRecord] = []
        self.moves = 0

    # ------------------------------------------------------------ reading
    def view(self) -> dict[str, Any]:
        """The human's view of the match (:func:`laizi.views.view`)."""
        return view(self.match, self.human)

    def hand_view(self) -> dict[str, Any]:
        hv: dict[str, Any] | None = self.view()["hand_view"]
        assert hv is not None
        return hv

    def seat_view(self) -> SeatView:
        return SeatView.from_json(self.view(), self.rules)

    def fans(self) -> list[dict[str, Any]]:
        """Every seat's public 番 and 阳光/金顶 standing (:func:`laizi.views.fan.table_fans`)."""
        return table_fans(self.seat_view())

    def waits(self) -> list[dict[str, Any]]:
        """The human's ready hand: each wait with what a win on it scores and 够番 (the scorer's,
        from the human's view only); [] when not ready."""
        if self.hand_over:
            return []
        return ready_waits(self.seat_view(), scores=True)

    def legal(self) -> list[Action]:
        me = self.hand_view().get("me") or {}
        return [Action.from_json(a) for a in me.get("legal_actions", [])]

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def hand_over(self) -> bool:
        return bool(self.hand_view()["phase"] == "over")

    @property
    def auto(self) -> bool:
        return self.control.is_auto(self.human)

    def human_to_act(self) -> bool:
        return not self.match.over and not self.auto and bool(self.legal())

    def new_events(self) -> list[Event]:
        """The human's events since the last call; keeps the hand records up to date."""
        evs = events_for(self.match, self.human, since=self.seen)
        self.seen += len(evs)
        for e in evs:
            t = e["type"]
            if t == "start_hand":
                self.dealer = int(e["dealer"])
                self.records.append(HandRecord(hand=int(e["hand"]), dealer=self.dealer))
            elif t == "win" and self.records:
                self.records[-1].win = e
            elif t == "end_hand" and self.records:
                self.records[-1].end = e
                self.records[-1].deltas = [float(x) for x in e["deltas"]]
            elif t == "scores" and self.records:
                self.records[-1].scores = [float(x) for x in e["scores"]]
        return evs

    # ------------------------------------------------------------ acting
    def bot_seat(self) -> int | None:
        """The next seat a bot plays now (the human's too under 托管), or ``None``."""
        hand = self.match.hand
        if self.match.over or hand is None or hand.over:
            return None
        seats = self.control.pending(hand.to_act())
        return seats[0] if seats else None

    def step_bot(self) -> bool:
        """Apply one bot action; ``False`` when no bot must act."""
        seat = self.bot_seat()
        if seat is None:
            return False
        hand = self.match.hand
        assert hand is not None
        self.match.apply(seat, self.control.decide(seat_view(hand, seat)))
        self.moves += 1
        return True

    def apply(self, action: Action) -> None:
        """The human's action (must be legal: the engine refuses others)."""
        self.match.apply(self.human, action)
        self.moves += 1

    def bot_choice(self) -> Action:
        """What the 托管 bot would play for the human now."""
        hand = self.match.hand
        assert hand is not None
        return self.control.decide(seat_view(hand, self.human))

    def set_auto(self, on: bool) -> None:
        if self.match.over:
            return
        self.control.set_auto(self.human, on, "strong" if on else None)

    def next_hand(self) -> None:
        """Deal the next hand after a settlement (no-op when the match is over)."""
        if not self.match.over and self.hand_over:
            self.match.start_next_hand()

    def scores(self) -> list[int | float]:
        return list(self.view()["match"]["scores"])

    def tile_total(self) -> int:
        """Tiles accounted for in the human's view: must always be 136."""
        hv = self.hand_view()
        n = hv["wall_remaining"] + 1  # the indicator
        for s in hv["seats"]:
            n += sum(4 if m["type"] in ("kong", "addkong", "ankong") else 3 for m in s["melds"])
            n += len(s["river"]) + len(s["special_kongs"]) + len(s["special_discards"])
            n += s["concealed"]
        return int(n)
