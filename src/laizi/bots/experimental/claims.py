"""Experiment (switched off): the expert's claim rule with its own numbers — eager or
late opening (:class:`RuleParams`); at ``strong``'s numbers it is ``strong``'s rule.
Measured within noise of ``expert`` on the tuning seeds."""

from __future__ import annotations

from dataclasses import dataclass

from laizi.bots import tuning as T
from laizi.bots.base import SeatView
from laizi.bots.strong import StrongBot
from laizi.bots.toolkit import claimed_hand, natural
from laizi.game.actions import Action

__all__ = ["RuleParams", "claim_choice"]


@dataclass(frozen=True, slots=True)
class RuleParams:
    """Knobs of the expert's claim rule (defaults: measured in the arena)."""

    #: The first opening (an unopened hand's chi/peng/kong) only this close to ready
    #: after the claim, unless it advances a big hand.
    open_max_distance: int = 99
    #: ... a big-hand target (碰碰胡, 清一色 …) is exempt from that limit.
    open_big_exempt: bool = True
    #: Value kept by an unopened hand (it still has to open).
    unopened_discount: float = T.UNOPENED_DISCOUNT
    #: A claim must raise the hand's value by this factor.
    min_gain: float = T.CLAIM_MIN_GAIN
    #: chi only (not peng/kong) from the first opening on this far.
    chi_max_distance: int = 99


def claim_choice(strong: StrongBot, view: SeatView, p: RuleParams) -> Action:
    """The claim (or pass) for a claim decision, ``strong``'s valuation, ``p``'s rule."""
    t = view.pending
    assert t is not None
    nat, wilds = natural(view)
    melds = view.melds[view.seat]
    opened = any(m.opens for m in melds)
    before, _tg, _d = strong.hand_value(view, nat, wilds, melds)
    if not opened and not view.rules.jiayu_hands:
        before *= p.unopened_discount
    best: tuple[float, Action] | None = None
    for a in view.legal:
        if a.type not in ("kong", "peng", "chi"):
            continue
        c, new = claimed_hand(nat, a, t, view.turn)
        after, target, d2 = strong.hand_value(view, c, wilds, [*melds, new])
        if a.type == "kong":
            if d2 > strong.p.kong_max_distance:
                continue
            after *= T.KONG_CLAIM_BONUS
        if not opened and d2 > p.open_max_distance and not (
                p.open_big_exempt and target != "regular"):
            continue
        if a.type == "chi" and d2 > p.chi_max_distance:
            continue
        if after > before * p.min_gain and (best is None or after > best[0]):
            best = (after, a)
    if best is not None:
        return best[1]
    for a in view.legal:
        if a.type == "pass":
            return a
    return view.legal[0]
