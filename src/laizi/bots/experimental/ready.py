"""Experiment (switched off): ready hands priced exactly, what each wait would pay,
from the scorer (registry name ``expert-ready``; measured within noise of ``expert``).

``strong`` rates a ready hand by a rough value (its fan estimate times a factor for
its live waits). When a discard leaves the hand ready (听牌), the expert prices it
exactly instead: for every tile that would complete it, the scorer
(:func:`laizi.scoring.score`) gives what a self-drawn win and a win on each other
seat's discard would pay — minimum score (起胡), big hands, hard/soft, caps and
liability included — weighted by the copies still unseen, times the calibrated
chance to win (:func:`laizi.bots.outlook.hand_outlook`), minus the expected cost of
the discard feeding someone else (:func:`laizi.bots.outlook.danger_of`). Everything
reads the :class:`~laizi.views.SeatView` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laizi.bots.base import SeatView
from laizi.bots.outlook import danger_of, hand_outlook
from laizi.bots.toolkit import completing_kinds
from laizi.game.actions import Action
from laizi.scoring import PlayerTable, WinContext, score
from laizi.tiles import NUM_KINDS

__all__ = ["SELF_DRAW_SHARE", "ReadyPrice", "completing_kinds", "ready_choice", "ready_price",
           "wait_payment"]

#: Share of wins that are self-drawn (simulated kaikoufan hands of four ``strong``
#: bots: 317 of 995 wins); the rest are won on a discard.
SELF_DRAW_SHARE = 0.32


@dataclass(frozen=True, slots=True)
class ReadyPrice:
    """A ready hand's prospects in points."""

    win_prob: float  # calibrated chance to win the hand (outlook model)
    payment: float  # mean payment of a win, weighted by the unseen copies of each wait
    danger: float  # expected loss of the discard that leaves it (points)
    live: int  # unseen copies of the waits that pay

    @property
    def value(self) -> float:
        return self.win_prob * self.payment - self.danger


def _tables(view: SeatView, hand: Sequence[int]) -> tuple[PlayerTable, PlayerTable,
                                                          PlayerTable, PlayerTable]:
    me = view.seat
    tiles = tuple(k for k in range(NUM_KINDS) for _ in range(hand[k]))
    t = [PlayerTable(hand=tiles if s == me else (), melds=tuple(view.melds[s]),
                     special_kongs=tuple(view.special_kongs[s]),
                     special_discards=tuple(view.special_discards[s])) for s in range(4)]
    return t[0], t[1], t[2], t[3]


def wait_payment(view: SeatView, hand: Sequence[int], tile: int) -> tuple[float, float]:
    """(self-drawn payment, mean payment on a discard over the other seats) of a win on
    ``tile`` with the concealed ``hand`` (3n+1 tiles); 0 where the win is not allowed."""
    me = view.seat
    players = _tables(view, hand)
    sd = score(WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer, winner=me,
                          tile=tile, by="self_draw", players=players))
    self_draw = float(sd.payments[me]) if sd.ok else 0.0
    if not sd.ok and sd.reason == "not_a_win":
        return 0.0, 0.0
    total = 0.0
    seen: dict[PlayerTable, float] = {}
    for d in range(4):
        if d == me:
            continue
        if d != view.dealer and players[d] in seen:
            total += seen[players[d]]
            continue
        r = score(WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer,
                             winner=me, tile=tile, by="discard", players=players, from_seat=d))
        got = float(r.payments[me]) if r.ok else 0.0
        if d != view.dealer:
            seen[players[d]] = got
        total += got
    return self_draw, total / 3.0


def ready_price(view: SeatView, hand: Sequence[int], discarded: int | None) -> ReadyPrice | None:
    """The price of the 3n+1 concealed ``hand`` left by discarding ``discarded`` (None
    when the hand is not ready)."""
    kinds = completing_kinds(view, hand)
    if not kinds:
        return None
    unseen = view.unseen()
    weighted = 0.0
    copies = 0
    live = 0
    for k in kinds:
        n = unseen[k]
        if n == 0:
            continue
        sd, dc = wait_payment(view, hand, k)
        # a copy that pays only when self-drawn counts with the self-draw share alone
        pay = SELF_DRAW_SHARE * sd + (1.0 - SELF_DRAW_SHARE) * dc
        weighted += pay * n
        copies += n
        if pay > 0:
            live += n
    if copies == 0:
        return ReadyPrice(0.0, 0.0, _danger(view, discarded), 0)
    win_prob = hand_outlook(view, hand).win_prob if live else 0.0
    return ReadyPrice(win_prob, weighted / copies, _danger(view, discarded), live)


def _danger(view: SeatView, discarded: int | None) -> float:
    if discarded is None:
        return 0.0
    return danger_of(view, discarded).expected_loss


def ready_choice(view: SeatView, default: Action, *, margin: float = 0.0,
                 loss: float = 0.0) -> Action:
    """Among the discards that leave the hand ready, the best priced, when the
    default choice leaves it ready too (else the default). ``margin``: how much better
    (points) a ready discard must price than the default; ``loss``: what a ready hand
    that does not win is expected to pay as a loser (a higher win chance also saves it)."""
    lz = view.laizi
    special = view.special
    hand = list(view.hand)
    priced: list[tuple[float, Action]] = []
    default_value: float | None = None
    seen: set[int] = set()
    for a in view.legal:
        k = a.tile
        if a.type != "discard" or k is None or k == lz or k in special or k in seen:
            continue
        seen.add(k)
        hand[k] -= 1
        price = ready_price(view, hand, k)
        hand[k] += 1
        if price is None:
            continue
        value = price.win_prob * (price.payment + loss) - price.danger
        priced.append((value, a))
        if a == default:
            default_value = value
    if default_value is None or len(priced) < 2:
        return default
    best_value, best = max(priced, key=lambda x: (x[0], x[1] == default))
    if best_value > default_value + margin:
        return best
    return default
