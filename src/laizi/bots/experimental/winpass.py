"""Experiment (switched off): passing a small win on a discard to wait for a bigger one
(a field of :class:`~laizi.bots.experimental.expert.Experiments`, registry name
``expert-winpass``; issue 28, measured within noise of ``expert``: docs/learned.md).

``expert`` takes every win it is offered. The rules let a seat pass a win on a discard
and win later on the same waits (RULES.md §5, "Passing a win"; unless the table plays
``guoshou``). That pays when the hand is ready on several tiles and some of them make a
big hand (×10 the base and more) while the tile on offer makes only a small one: taking
the small win now forgoes the big one. This rule prices both sides from the seat's view
alone:

- **now**: what the win on offer pays this seat (the scorer, with the discarder known);
- **later**: for each wait with unseen copies, what a win on it would pay (self-drawn and
  on a discard, :func:`laizi.bots.experimental.ready.wait_payment`), weighted by its
  unseen copies, times the calibrated chance that a ready hand like this one still wins
  (:func:`laizi.bots.outlook.hand_outlook`), less what the seat is expected to pay when
  someone else wins instead (``loss`` points, times the chance it does not win).

It passes when *later* beats *now* by the factor ``ratio``, with at least ``min_wall``
tiles left in the wall and only when a big-hand wait is among the live ones
(``big_only``). Self-drawn wins are always taken (passing one means a discard, which
feeds the others). Everything reads the :class:`~laizi.views.SeatView` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from laizi.bots.base import SeatView
from laizi.bots.experimental.ready import SELF_DRAW_SHARE, _tables, wait_payment
from laizi.bots.outlook import hand_outlook
from laizi.bots.toolkit import completing_kinds
from laizi.scoring import WinContext, score

__all__ = ["PassPrice", "WinPass", "pass_price", "passes"]


@dataclass(frozen=True, slots=True)
class WinPass:
    """The rule's settings."""

    ratio: float = 1.5  # later must beat now by this factor
    min_wall: int = 20  # tiles left in the wall, at least
    big_only: bool = True  # pass only when a live wait makes a big hand
    loss: float = 60.0  # points paid, on average, when someone else wins instead


@dataclass(frozen=True, slots=True)
class PassPrice:
    """Both sides of a win on offer, in points."""

    now: float  # what the win on offer pays this seat
    later: float  # the expected value of passing it
    big_live: int  # unseen copies of waits that make a big hand


def pass_price(view: SeatView, tile: int, from_seat: int, loss: float) -> PassPrice | None:
    """The price of taking the win on ``tile`` discarded by ``from_seat`` against passing it
    (None when the win on offer is not allowed by the scorer)."""
    hand = list(view.hand)
    players = _tables(view, hand)
    r = score(WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer, winner=view.seat,
                         tile=tile, by="discard", players=players, from_seat=from_seat))
    if not r.ok:
        return None
    now = float(r.payments[view.seat])
    unseen = view.unseen()
    weighted = 0.0
    copies = 0
    big_live = 0
    for k in completing_kinds(view, hand):
        n = unseen[k]
        if n == 0:
            continue
        sd, dc = wait_payment(view, hand, k)
        weighted += (SELF_DRAW_SHARE * sd + (1.0 - SELF_DRAW_SHARE) * dc) * n
        copies += n
        sd_r = score(WinContext(rules=view.rules, setup=view.setup, dealer=view.dealer,
                                winner=view.seat, tile=k, by="self_draw", players=players))
        if sd_r.ok and sd_r.big_hands:
            big_live += n
    if copies == 0:
        return PassPrice(now, -loss, 0)
    p = hand_outlook(view, hand).win_prob
    return PassPrice(now, p * weighted / copies - (1.0 - p) * loss, big_live)


def passes(view: SeatView, rule: WinPass) -> bool:
    """Whether ``rule`` passes the win on offer in the claim ``view`` (the pending tile,
    discarded by the seat whose turn it is)."""
    tile = view.pending
    if tile is None or view.wall_remaining < rule.min_wall:
        return False
    price = pass_price(view, tile, view.turn, rule.loss)
    if price is None or (rule.big_only and price.big_live == 0):
        return False
    return price.later > rule.ratio * price.now
