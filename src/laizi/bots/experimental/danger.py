"""A learned danger model (issue 28, stop 68; an experiment, not a shipped bot).

``benchmarks/ab_defence_oracle.py`` measured what perfect knowledge of who waits on what is
worth to ``expert``'s discards: about +11 points/hand. This module learns part of that
from the seat's view alone: for a discard of kind ``k`` and an opponent ``o``, the chance
that ``o`` may win on it at once, from :func:`features` (``o``'s openings and melds, its
river, the tile's kind and copies in sight, the wall). The labels are exact — the true
table says whether ``o`` may win on ``k`` — so the fit needs no playouts
(``scripts/fit_danger.py``). :class:`DangerVeto` is ``expert`` whose discard may give way
to one less likely to feed a win, by one of several rules (a veto over a chance ``tau``,
a penalty, the safest of equally efficient discards, the outlook model's expected points
less the chance × the cost of a feed); docs/learned.md, round 10, races them: none beats
``expert``.

Reads the :class:`~laizi.views.SeatView` only; numpy at play time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from laizi.analysis.profiles import shanten258
from laizi.bots.base import Bot, SeatView
from laizi.bots.expert import ExpertBot
from laizi.bots.outlook import hand_outlook, improving_258
from laizi.bots.toolkit import natural
from laizi.game.actions import Action
from laizi.tiles import is_jiang

__all__ = ["N_CUT", "N_FEATURES", "N_RIVER", "DangerModel", "DangerVeto", "cut_features",
           "efficiency", "features", "river_features"]


def _suit(k: int) -> int:
    return k // 9 if k < 27 else 3


def features(view: SeatView, k: int, o: int, unseen: list[int]) -> list[float]:
    """The features of discarding kind ``k`` towards opponent ``o`` (see the module)."""
    ms = view.melds[o]
    openings = sum(1 for m in ms if m.opens)
    river = view.rivers[o]
    wall = view.wall_remaining / 84.0
    su = _suit(k)
    meld_tiles = [t for m in ms for t in m.tiles()]
    in_suit = sum(1 for t in meld_tiles if _suit(t) == su)
    one_suit = bool(meld_tiles) and len(ms) >= 2 and all(_suit(t) == su for t in meld_tiles)
    chis = sum(1 for m in ms if m.type == "chi")
    pengs = sum(1 for m in ms if m.type == "peng")
    kongs = len(ms) - chis - pengs
    num = k % 9 if k < 27 else -1
    rc = [0] * 34
    for t in river:
        rc[t] += 1
    early = river[:6]
    late = river[-6:]
    # the tiles around k (its suit, offsets -2..+2): in o's river, and unseen by this seat
    around_r = [float(rc[k + d]) if k < 27 and 0 <= num + d < 9 else 0.0 for d in (-2, -1, 0, 1, 2)]
    around_u = [unseen[k + d] / 4.0 if k < 27 and 0 <= num + d < 9 else 0.0
                for d in (-2, -1, 0, 1, 2)]
    suji = k < 27 and any(0 <= num + d < 9 and rc[k + d] > 0 for d in (-3, 3))
    u = unseen[k]
    f = [
        1.0,
        *(float(openings == i) for i in range(5)),
        wall, wall * wall, wall * wall * wall,
        *(float(num == i) for i in range(9)), float(k >= 27),
        float(k < 27 and is_jiang(k)),
        *around_r, *around_u, float(suji),
        *(float(u == i) for i in range(5)),
        in_suit / 12.0, float(one_suit), chis / 4.0, pengs / 4.0, kongs / 4.0,
        float(view.hand_sizes[o] == 1), float(view.hand_sizes[o] == 1 and k < 27 and is_jiang(k)),
        view.hand_sizes[o] / 13.0,
        sum(1 for t in river if _suit(t) == su) / max(1, len(river)), len(river) / 24.0,
        sum(1 for t in early if _suit(t) == su) / 6.0, sum(1 for t in late if _suit(t) == su) / 6.0,
        float(bool(late) and late[-1] < 27 and _suit(late[-1]) == su and abs(late[-1] - k) <= 2),
        float(o == view.dealer), len(view.special_kongs[o]) / 4.0, len(view.special_discards[o]) / 4.0,
        float(k == view.setup.laizi + 1 or k == view.setup.laizi - 1),
    ]
    return f


N_FEATURES = 53
N_CUT = 9


def cut_features(river: Sequence[int], cuts: Sequence[bool], k: int) -> list[float]:
    """What 手切/摸切 says of opponent's river towards kind ``k``: ``cuts[i]`` is whether
    ``river[i]`` came from the hand (手切) rather than straight from the draw (摸切). A
    player who stops changing its hand is likely ready; the last tile it cut from its
    hand is what it broke to get there, so the kinds beside that tile are where it waits
    more often (round 11 measures whether the model learns this)."""
    n = len(river)
    if n == 0:
        return [0.0] * N_CUT
    trailing = 0
    for c in reversed(cuts):
        if c:
            break
        trailing += 1
    last3 = cuts[-3:]
    last_cut = next((i for i in range(n - 1, -1, -1) if cuts[i]), None)
    near = far = same = 0.0
    age = 1.0
    if last_cut is not None:
        t = river[last_cut]
        age = (n - 1 - last_cut) / 6.0
        if t < 27 and k < 27 and t // 9 == k // 9:
            d = abs(t - k)
            near, far, same = float(1 <= d <= 2), float(d == 3), float(d == 0)
        elif t == k:
            same = 1.0
    return [float(not cuts[-1]), sum(1 for c in last3 if not c) / 3.0, min(trailing, 6) / 6.0,
            sum(1 for c in cuts if not c) / n, near, far, same, min(age, 1.0),
            float(last_cut is not None and n - 1 - last_cut <= 1)]
N_RIVER = 39


def river_features(view: SeatView, k: int, o: int, unseen: Sequence[int]) -> list[float]:
    """The whole pattern of ``o``'s table in kind ``k``'s suit, by offset from ``k`` (round
    12): for each of the offsets -4 … +4, the copies in ``o``'s river, in its last four
    discards and in its melds, and the copies this seat cannot see; then where in the river
    the suit was first and last discarded. :func:`features` sums these up (around ``k``
    only, early and late by suit); here a model may learn the order of ``o``'s discards
    against the tiles it could have used — the opponents' policy, inverted by the data."""
    river = view.rivers[o]
    n = len(river)
    out: list[float] = []
    su = _suit(k)
    num = k % 9 if k < 27 else 0
    late = river[-4:]
    melds = [t for m in view.melds[o] for t in m.tiles()]
    for d in range(-4, 5):
        j = k + d
        if (k >= 27 and d != 0) or not 0 <= num + d < 9:
            out += [0.0, 0.0, 0.0, 0.0]
            continue
        out += [river.count(j) / 2.0, late.count(j) / 2.0, melds.count(j) / 3.0, unseen[j] / 4.0]
    first = next((i for i in range(n) if _suit(river[i]) == su), None)
    last = next((i for i in range(n - 1, -1, -1) if _suit(river[i]) == su), None)
    out += [1.0 if first is None else first / 24.0,
            1.0 if last is None else (n - 1 - last) / 24.0,
            float(first is None)]
    return out


def efficiency(view: SeatView, nat: list[int], wilds: int, unseen: Sequence[int],
               k: int) -> tuple[int, int]:
    """After discarding kind ``k`` from the seat's natural tiles ``nat`` (``wilds`` laizi;
    ``nat`` is left as it was): the distance from ready (2/5/8 pair) and the unseen copies
    of the kinds that would bring it nearer."""
    n = 4 - len(view.melds[view.seat])
    nat[k] -= 1
    sh = max(0, shanten258(nat, wilds, n))
    live = sum(unseen[x] for x in improving_258(nat, wilds, n, sh))
    nat[k] += 1
    return sh, live


SOFT_MIN = 0.02  # DangerVeto(soft=...): the least drop in the chance to feed a win worth a move


class DangerModel:
    """A small MLP (one hidden layer, ReLU, logistic output) over :func:`features`."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.w1 = np.asarray(params["w1"], dtype=np.float64)
        self.b1 = np.asarray(params["b1"], dtype=np.float64)
        self.w2 = np.asarray(params["w2"], dtype=np.float64)
        self.b2 = float(params["b2"])

    @classmethod
    def load(cls, path: str | Path) -> DangerModel:
        return cls(json.loads(Path(path).read_text()))

    def prob(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(0.0, x @ self.w1 + self.b1)
        z = h @ self.w2 + self.b2
        return 1.0 / (1.0 + np.exp(-z))

    @property
    def reads_cuts(self) -> bool:
        """Whether the model was fitted with :func:`cut_features` beside :func:`features`."""
        return int(self.w1.shape[0]) == N_FEATURES + N_CUT

    @property
    def reads_river(self) -> bool:
        """Whether the model was fitted with :func:`river_features` beside :func:`features`."""
        return int(self.w1.shape[0]) == N_FEATURES + N_RIVER

    def feed_chance(self, view: SeatView, kinds: list[int],
                    cuts: Sequence[Sequence[bool]] | None = None) -> dict[int, float]:
        """Per kind, the chance that some opponent may win on it (the opponents taken as
        independent). A model that :attr:`reads_cuts` needs ``cuts``: per seat, whether
        each tile of its river was cut from the hand."""
        unseen = view.unseen()
        opps = [o for o in range(4) if o != view.seat]
        if self.w1.shape[0] not in (N_FEATURES, N_FEATURES + N_CUT, N_FEATURES + N_RIVER):
            raise ValueError(f"a danger model reads {N_FEATURES} features, {N_FEATURES + N_CUT} "
                             f"with 手切/摸切 or {N_FEATURES + N_RIVER} with the river's pattern; "
                             f"this one reads {self.w1.shape[0]} (a fit with --oracle-shanten is "
                             "a measurement, not a player)")
        if self.reads_cuts and cuts is None:
            raise ValueError("this danger model reads 手切/摸切: pass cuts")
        river = self.reads_river
        rows = [features(view, k, o, unseen)
                + (cut_features(view.rivers[o], cuts[o], k) if cuts is not None and self.reads_cuts
                   else [])
                + (river_features(view, k, o, unseen) if river else []) for k in kinds for o in opps]
        if not rows:
            return {}
        p = self.prob(np.asarray(rows)).reshape(len(kinds), len(opps))
        return {k: float(1.0 - np.prod(1.0 - p[i])) for i, k in enumerate(kinds)}


class DangerVeto(Bot):
    """``expert`` whose discard may give way to a discard less likely to feed a win. By
    default (a veto), when its chance is above ``tau``, to the best of ``strong``'s ranking
    under ``tau``; with ``soft``, ``equiv`` or ``ev_margin``, by the rule of that mode
    (docs/learned.md, round 10, raced each)."""

    name = "danger_veto"

    def __init__(self, seed: int | None, model: DangerModel, tau: float,
                 keep: float | None = None, soft: float | None = None,
                 equiv: float | None = None, ready_only: bool = False,
                 ev_margin: float | None = None, feed_cost: float = 135.0) -> None:
        self.inner = ExpertBot(seed)
        self.model = model
        self.tau = tau
        self.keep = keep  # only discards valued within this share of the best may replace
        self.soft = soft  # instead of a veto: each discard's value less soft × its chance
        # instead: the least likely to feed among the discards as close to ready (2/5/8
        # pair) as expert's, with at least (1 - equiv) × its improving tiles, if over tau
        self.equiv = equiv
        self.ready_only = ready_only  # equiv: only while expert's discard leaves the hand ready
        # instead: each discard's expected points by the outlook model less its chance to feed
        # a win × feed_cost; expert's gives way to one better by more than ev_margin, when
        # its own chance is over tau
        self.ev_margin = ev_margin
        self.feed_cost = feed_cost
        self.vetoes = 0

    def act(self, view: SeatView) -> Action:
        a = self.inner.act(view)
        if a.type != "discard" or a.tile is None:
            return a
        lz = view.setup.laizi
        discards = [x for x in view.legal if x.type == "discard" and x.tile is not None
                    and x.tile != lz and x.tile not in view.setup.special]
        if len(discards) < 2 or a not in discards:
            return a
        chance = self.model.feed_chance(view, sorted({x.tile or 0 for x in discards}))
        pa = chance.get(a.tile, 0.0)
        if self.ev_margin is not None:
            best = a if pa <= self.tau else self._by_outlook(view, a, discards, chance)
        elif self.equiv is not None:
            best = a if pa <= self.tau else self._equally_efficient(view, a, discards, chance)
        elif self.soft is not None:
            best = a if pa < SOFT_MIN else self._penalised(view, a, discards, chance)
        else:
            best = a if pa <= self.tau else self._vetoed(view, a, discards, chance)
        if best != a:
            self.vetoes += 1
        return best

    def _by_outlook(self, view: SeatView, a: Action, discards: list[Action],
                    chance: dict[int, float]) -> Action:
        """The discard whose expected points (the outlook model) less its chance to feed a
        win × ``feed_cost`` beat ``a``'s by more than ``ev_margin``, among the safer ones."""
        hand = list(view.hand)

        def ev(k: int) -> float:
            hand[k] -= 1
            pts = hand_outlook(view, hand).expected_points
            hand[k] += 1
            return pts - chance.get(k, 1.0) * self.feed_cost

        pa = chance.get(a.tile or 0, 0.0)
        best, best_v = a, ev(a.tile or 0) + (self.ev_margin or 0.0)
        for b in discards:
            k = b.tile or 0
            if k != a.tile and chance.get(k, 1.0) < pa:
                vb = ev(k)
                if vb > best_v:
                    best, best_v = b, vb
        return best

    def equally_efficient(self, view: SeatView, a: Action, discards: list[Action]) -> list[Action]:
        """The discards other than ``a`` that leave the hand as near to ready (2/5/8 pair),
        with at least (1 − ``equiv``) × the improving tiles ``a`` leaves (none with
        ``ready_only`` while ``a`` leaves the hand not ready)."""
        nat, wilds = natural(view)
        unseen = view.unseen()
        sa, la = efficiency(view, nat, wilds, unseen, a.tile or 0)
        if self.ready_only and sa != 0:
            return []
        out = []
        for b in discards:
            k = b.tile or 0
            if k == a.tile:
                continue
            sb, lb = efficiency(view, nat, wilds, unseen, k)
            if sb == sa and lb >= (1.0 - (self.equiv or 0.0)) * la:
                out.append(b)
        return out

    def _equally_efficient(self, view: SeatView, a: Action, discards: list[Action],
                           chance: dict[int, float]) -> Action:
        """The least likely to feed among :meth:`equally_efficient`'s discards."""
        best, bp = a, chance.get(a.tile or 0, 0.0)
        for b in self.equally_efficient(view, a, discards):
            pb = chance.get(b.tile or 0, 1.0)
            if pb <= bp - SOFT_MIN:
                best, bp = b, pb
        return best

    def _penalised(self, view: SeatView, a: Action, discards: list[Action],
                   chance: dict[int, float]) -> Action:
        """A discard less likely to feed (by SOFT_MIN at least) whose ``strong`` value less
        ``soft`` × its chance is higher than ``a``'s (within ``keep`` of the best)."""
        soft = self.soft or 0.0
        pa = chance.get(a.tile or 0, 0.0)
        nat, wilds = natural(view)
        ranked = self.inner.strong.rank_discards_strong(view, discards, nat, wilds)
        score = {b: sc for sc, b in ranked}
        top = ranked[0][0]
        best, best_v = a, score.get(a, top) - soft * pa
        for sc, b in ranked:
            pb = chance.get(b.tile or 0, 1.0)
            if pb <= pa - SOFT_MIN and sc - soft * pb > best_v and (
                    self.keep is None or sc >= top - self.keep * abs(top)):
                best, best_v = b, sc - soft * pb
        return best

    def _vetoed(self, view: SeatView, a: Action, discards: list[Action],
                chance: dict[int, float]) -> Action:
        """The best of ``strong``'s ranking (within ``keep`` of its best) under ``tau``."""
        nat, wilds = natural(view)
        ranked = self.inner.strong.rank_discards_strong(view, discards, nat, wilds)
        if self.keep is not None and ranked:
            top = ranked[0][0]
            ranked = [(sc, b) for sc, b in ranked if sc >= top - self.keep * abs(top)]
        for _score, b in ranked:
            if chance.get(b.tile or 0, 1.0) <= self.tau:
                return b
        return a
