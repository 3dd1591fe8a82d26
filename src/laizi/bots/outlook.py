"""A hand's outlook in numbers, from one seat's view: shanten, improving tiles, the
chance to win before the wall runs out, expected points, and a discard's danger.

The chances and points come from a model fitted on simulated hands (four ``strong``
bots, kaikoufan, seeded: ``scripts/fit_outlook.py``), shipped as package data
(``laizi/data/outlook.json``) and loaded on first use, never at import time.

**Win model.** A 3n+1 hand (after a discard, a claim's discard, or before a draw) is
described by :class:`Features`: its shanten with a 2/5/8 pair (small hands need one),
the unseen copies of the tiles that lower it, the tiles left in the wall, the
seat's openings (an unopened hand cannot win in most presets), the fan already on
the table (kongs, laid-aside tiles: they double what is won and lost), the dealer
and the laizi held.  A logistic model over
those (:func:`design`) gives the chance that a seat in that situation goes on to win
the hand, and a linear one its mean settlement for the hand (the net points, losses
to other winners included).  The file also keeps the raw cell counts (``win``: per
cell ``[n, wins, points]``), from which :meth:`Model.win` gives the table estimate.

**Danger model.** Per opponent, the chance that a discarded tile is won on at once,
by the tile's category (honour, 1/9, 2/5/8, other), the stage of the hand, the
opponent's openings and whether the tile is in that opponent's river; and the mean
loss of the discarder when it feeds a win.  (The ``strong`` bot's own threat estimate,
read as a chance, says 4.8 % where 1.7 % of discards fed a win on the same kind of
simulated play: fine for ranking its discards, not as a number to show.)

**Calibration** (``tests/bots/test_outlook_calibration.py``: 240 hands of a seed
the model never saw, 9,574 positions): mean predicted win chance 0.243 vs 0.248
observed, every decile within 0.032 (0.07 → 0.62 observed from the lowest decile to
the highest); expected points −1.5 vs −0.6 overall, every quintile within 22 (−66 →
+121 observed); chance to feed a win 0.017 vs 0.016, every quintile within 0.007.

Everything here reads the :class:`~laizi.views.SeatView` only.  The figures assume
the rest of the hand is played about as well as the ``strong`` bot plays it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from laizi.analysis.profiles import sets_missing, shanten258, suit_keys
from laizi.bots.base import SeatView
from laizi.bots.toolkit import natural, near_kinds
from laizi.scoring import table_fan
from laizi.tiles import JIANG_KINDS, is_honor, is_jiang, is_terminal

__all__ = [
    "DATA_FILE", "Danger", "Features", "Model", "Outlook", "danger_key", "danger_of", "design",
    "features", "hand_outlook", "improving_258", "kong_fan", "load_model", "win_keys",
]

DATA_FILE = "outlook.json"
WALL_EDGES = (8, 16, 24, 32, 44, 56, 70)  # tiles left in the wall: 8 buckets
LIVE_EDGES = (0, 4, 8, 14, 22)  # unseen improving copies: 0, 1-4, 5-8, 9-14, 15-22, 23+
STAGE_EDGES = (20, 40, 60)  # danger: the stage of the hand, 4 buckets
MAX_SHANTEN = 4
SHRINK = 30.0  # pseudo-count of the parent cell when a cell is sparse


def _bucket(x: int, edges: Sequence[int]) -> int:
    for i, e in enumerate(edges):
        if x <= e:
            return i
    return len(edges)


@dataclass(frozen=True, slots=True)
class Features:
    """What the win model reads of a 3n+1 hand."""

    shanten: int  # with a 2/5/8 pair, 0 = ready (听牌)
    improving: tuple[int, ...]  # kinds whose draw lowers it
    live: int  # unseen copies of those kinds
    wall: int  # tiles left in the wall
    openings: int  # the seat's opening melds (开口)
    fan: int = 0  # the seat's fan from kongs and laid-aside tiles (they double both ways)
    others_fan: int = 0  # the same, summed over the other seats
    dealer: bool = False
    wilds: int = 0  # laizi held


_SEEN: dict[tuple[tuple[int, ...], int, int], tuple[int, tuple[int, ...]]] = {}
_SEEN_MAX = 50_000


def _shanten_improving(nat: list[int], wilds: int, n: int) -> tuple[int, tuple[int, ...]]:
    """(2/5/8-pair shanten, improving kinds) of a 3n+1 hand, memoised by hand."""
    key = (tuple(nat), wilds, n)
    got = _SEEN.get(key)
    if got is None:
        sh = max(0, shanten258(nat, wilds, n))
        got = (sh, tuple(improving_258(nat, wilds, n, sh)))
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[key] = got
    return got


def improving_258(nat: list[int], wilds: int, n: int, sh: int) -> list[int]:
    """Kinds whose draw lowers the 2/5/8-pair shanten ``sh`` of ``nat`` (3n+1 tiles).

    Candidates are the kinds near the held ones (held, or a suited neighbour within
    two) and the 2/5/8 kinds (a pair).  A 2/5/8 kind with nothing held near it can
    only start the pair, and then every such kind does the same: one check decides
    them all (the sets from the hand as it is, the pair one tile short).
    """
    near = near_kinds(nat)
    out = []
    for k in near:
        if nat[k] >= 4:
            continue
        nat[k] += 1
        if shanten258(nat, wilds, n) < sh:
            out.append(k)
        nat[k] -= 1
    near_set = set(near)
    lone = [j for j in JIANG_KINDS if j not in near_set]
    if lone and sets_missing(suit_keys(nat), n) - wilds < sh:
        out.extend(lone)
    return sorted(out)


def _improving_258_slow(nat: list[int], wilds: int, n: int, sh: int) -> list[int]:
    """:func:`improving_258` by trying every candidate (the tests' reference)."""
    out = []
    for k in sorted(set(near_kinds(nat)) | set(JIANG_KINDS)):
        if nat[k] >= 4:
            continue
        nat[k] += 1
        if shanten258(nat, wilds, n) < sh:
            out.append(k)
        nat[k] -= 1
    return out


def features(view: SeatView, hand: Sequence[int], *, n_sets: int | None = None,
             openings: int | None = None) -> Features:
    """The features of the seat's concealed ``hand`` (34 counts, 3n+1 tiles).

    ``n_sets`` (sets the concealed part needs) and ``openings`` default to the seat's
    melds in the view; pass them for a hypothetical claim.
    """
    melds = view.melds[view.seat]
    n = 4 - len(melds) if n_sets is None else n_sets
    op = sum(1 for m in melds if m.opens) if openings is None else openings
    nat, wilds = natural(view, hand)
    sh, imp = _shanten_improving(nat, wilds, n)
    unseen = view.unseen()
    live = sum(unseen[k] for k in imp)
    others = sum(kong_fan(view, s) for s in range(4) if s != view.seat)
    return Features(sh, imp, live, view.wall_remaining, op, kong_fan(view, view.seat), others,
                    view.seat == view.dealer, wilds)


def kong_fan(view: SeatView, seat: int) -> int:
    """A seat's fan from its kongs and laid-aside special tiles and laizi (public): its
    table fan without the opening (:func:`laizi.scoring.table_fan`), so a discarded
    laizi counts as the rules' ``laizi_discard`` says."""
    return table_fan(view.rules, view.setup.laizi, view.melds[seat], view.special_kongs[seat],
                     view.special_discards[seat], opening=False)


def design(f: Features) -> list[float]:
    """The smooth win model's inputs for ``f`` (a logistic model for the chance, a
    linear one for the points, over the same inputs): shanten steps, the wall's
    fraction and log(1 + live copies), their interactions, the openings, the fan on
    the table (own and the others'), the dealer and the laizi held."""
    sh = min(f.shanten, MAX_SHANTEN)
    s1, s2, s3 = float(sh == 1), float(sh == 2), float(sh >= 3)
    w = max(0.0, min(1.0, f.wall / 84.0))
    lv = math.log1p(f.live)
    u = float(f.openings == 0)
    o2, o3 = float(f.openings == 2), float(f.openings >= 3)
    fz = min(f.fan, 6) / 2.0
    ofz = min(f.others_fan, 8) / 4.0
    s0 = float(sh == 0)
    return [1.0, s1, s2, s3, float(sh >= 4),
            w, w * s1, w * s2, w * s3,
            lv, lv * s1, lv * s2, lv * s3, w * lv,
            u, u * w, u * s0, u * lv,
            o2, o3, (o2 + o3) * w, (o2 + o3) * s0,
            fz, fz * s0, fz * w, ofz, ofz * w, float(f.dealer), float(f.dealer) * s0,
            float(f.wilds == 0), float(f.wilds >= 2), float(f.wilds == 0) * s0]


def win_keys(f: Features) -> list[str]:
    """The model's cells for ``f``, finest first (each coarser one its parent)."""
    sh = min(f.shanten, MAX_SHANTEN)
    wb = _bucket(f.wall, WALL_EDGES)
    lb = _bucket(f.live, LIVE_EDGES)
    op = min(f.openings, 3)
    return [f"{sh}|{wb}|{lb}|{op}", f"{sh}|{wb}|{op}", f"{sh}|{wb}", f"{sh}", ""]


def danger_key(kind: int, wall: int, openings: int, in_river: bool) -> list[str]:
    """The danger model's cells for one (discard, opponent), finest first."""
    if is_honor(kind):
        cat = 0
    elif is_terminal(kind):
        cat = 1
    elif is_jiang(kind):
        cat = 2
    else:
        cat = 3
    st = _bucket(wall, STAGE_EDGES)
    op = min(openings, 3)
    return [f"{cat}|{st}|{op}|{int(in_river)}", f"{cat}|{st}|{op}", f"{st}|{op}", f"{op}", ""]


# ------------------------------------------------------------------------ the model
class Model:
    """The fitted model: :meth:`smooth` (what the hints use) and :meth:`feed` /
    :meth:`cost` (danger); :meth:`win` is the raw table estimate with shrinkage."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.meta: dict[str, Any] = data.get("meta", {})
        self._win: dict[str, list[float]] = data["win"]
        self._logit: list[float] = data["logit"]
        self._linear: list[float] = data["linear"]
        self._feed: dict[str, list[float]] = data["feed"]
        self._cost: dict[str, list[float]] = data["cost"]
        self._cache: dict[str, tuple[float, float]] = {}
        self._dcache: dict[str, float] = {}

    def win(self, keys: Sequence[str]) -> tuple[float, float]:
        """(chance to win the hand, mean settlement) of the finest cell ``keys[0]``."""
        got = self._cache.get(keys[0])
        if got is not None:
            return got
        p, pts = 0.0, 0.0
        for key in reversed(keys):  # coarse to fine: each shrinks towards its parent
            cell = self._win.get(key)
            if cell is None:
                continue
            n, wins, total = cell
            if key == "":
                p, pts = wins / n, total / n
            else:
                p = (wins + SHRINK * p) / (n + SHRINK)
                pts = (total + SHRINK * pts) / (n + SHRINK)
        self._cache[keys[0]] = (p, pts)
        return p, pts

    def smooth(self, x: Sequence[float]) -> tuple[float, float]:
        """(chance to win, mean settlement) from the smooth models (:func:`design`)."""
        z = sum(a * b for a, b in zip(self._logit, x, strict=True))
        p = 1.0 / (1.0 + math.exp(-z)) if z > -50 else 0.0
        pts = sum(a * b for a, b in zip(self._linear, x, strict=True))
        return p, pts

    def feed(self, keys: Sequence[str]) -> float:
        """Chance that a discard in cell ``keys[0]`` is won on by that opponent."""
        got = self._dcache.get(keys[0])
        if got is not None:
            return got
        p = 0.0
        for key in reversed(keys):
            cell = self._feed.get(key)
            if cell is None:
                continue
            n, fed = cell
            p = fed / n if key == "" else (fed + SHRINK * p) / (n + SHRINK)
        self._dcache[keys[0]] = p
        return p

    def cost(self, winner_openings: int, own_openings: int) -> float:
        """Mean loss (points, positive) of a discarder who feeds a win."""
        for key in (f"{min(winner_openings, 3)}|{min(own_openings, 3)}", ""):
            cell = self._cost.get(key)
            if cell is not None and cell[0] >= 20:
                return cell[1] / cell[0]
        return 0.0


_MODEL: Model | None = None


def load_model() -> Model:
    """The shipped model (loaded once, on first use)."""
    global _MODEL
    if _MODEL is None:
        raw = resources.files("laizi").joinpath("data", DATA_FILE).read_text(encoding="utf-8")
        _MODEL = Model(json.loads(raw))
    return _MODEL


# ------------------------------------------------------------------------ outlooks
@dataclass(frozen=True, slots=True)
class Outlook:
    """A hand's prospects: the features plus the model's chance and points."""

    features: Features
    win_prob: float
    expected_points: float

    @property
    def shanten(self) -> int:
        return self.features.shanten

    def improving(self, view: SeatView) -> list[tuple[int, int, int]]:
        """(kind, copies not in the seat's own hand and melds, copies unseen)."""
        unseen = view.unseen()
        own = list(view.hand)
        for m in view.melds[view.seat]:
            for t in m.tiles():
                own[t] += 1
        return [(k, max(0, 4 - own[k]), unseen[k]) for k in self.features.improving]


def hand_outlook(view: SeatView, hand: Sequence[int], *, n_sets: int | None = None,
                 openings: int | None = None) -> Outlook:
    """The outlook of the seat's 3n+1 concealed ``hand`` (see :func:`features`)."""
    f = features(view, hand, n_sets=n_sets, openings=openings)
    if f.openings == 0 and view.rules.jiayu_hands:
        f_key = replace(f, openings=1)  # may win unopened
    else:
        f_key = f
    p, pts = load_model().smooth(design(f_key))
    return Outlook(f, p, pts)


@dataclass(frozen=True, slots=True)
class Danger:
    """A discard's danger: the chance it feeds a win at once and what that costs."""

    feed_prob: float
    cost: float  # mean loss if it does (points)

    @property
    def expected_loss(self) -> float:
        return self.feed_prob * self.cost

    @property
    def level(self) -> str:
        """``low`` (< 2 %), ``medium`` (< 6 %) or ``high``."""
        if self.feed_prob < 0.02:
            return "low"
        return "medium" if self.feed_prob < 0.06 else "high"


def danger_of(view: SeatView, kind: int) -> Danger:
    """The danger of the seat discarding ``kind`` now (laizi and special tiles are
    never claimed: no danger)."""
    if kind == view.setup.laizi or kind in view.setup.special:
        return Danger(0.0, 0.0)
    model = load_model()
    own = sum(1 for m in view.melds[view.seat] if m.opens)
    safe = 1.0
    cost = 0.0
    for s in range(4):
        if s == view.seat:
            continue
        op = sum(1 for m in view.melds[s] if m.opens)
        p = model.feed(danger_key(kind, view.wall_remaining, op, kind in view.rivers[s]))
        safe *= 1.0 - p
        cost += p * model.cost(op, own)
    feed = 1.0 - safe
    return Danger(feed, cost / feed if feed > 0 else 0.0)

