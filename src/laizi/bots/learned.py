"""The ``learned`` bot: ``expert``'s policy with a learned critic over its choices.

At a discard or a claim decision the bot lists a few **candidates** — ``expert``'s own
choice, ``strong``'s best-valued other discards (for a claim: passing and every claim
on offer) — describes each by a fixed vector of numbers computed from the
:class:`~laizi.bots.base.SeatView` alone (:func:`discard_features`,
:func:`claim_features`: distance to ready, tile acceptance, live waits, danger, the
tile's kind, big-hand distances, the wall, the table's openings …) and scores them
with a small multilayer perceptron (one hidden tanh layer) whose weights ship in
``laizi/data/learned_policy.json``. It plays the best-scored candidate when its score
beats ``expert``'s choice by more than the model's ``margin``, else ``expert``'s
choice. Wins, forced moves, kongs and every other decision are ``expert``'s (with the
weights file's tuned knobs, which since round 5 include its laizi, 红中/皮子 and kong
rules; the shipped file sets none), and so is
every decision of a kind the weights have no head for, and every decision under another
rule preset than the one the weights were trained on (kaikoufan): the shipped weights
have the claim head only (with the discard head too the bot lost 9.2 points/hand to ``expert``
in the arena, ``docs/learned.md``).

The weights are trained by ``scripts/train_policy.py`` (see ``docs/learned.md``): the
teacher plays each candidate out to the end of the hand in several worlds consistent
with the view (``expert`` at every seat afterwards) and the network learns, per
decision, each candidate's mean points relative to the other candidates.

Inference is plain Python (a few hundred multiply-adds per candidate): no numpy, no
torch at play time. The features read only the view, so hidden tiles cannot change a
decision.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from functools import cache
from importlib import resources
from typing import Any

from laizi.analysis.fast import waits
from laizi.analysis.profiles import HandEval, shanten258
from laizi.bots.base import Bot, SeatView
from laizi.bots.bighands import reachable_targets, target_distance
from laizi.bots.expert import ExpertBot, ExpertConfig
from laizi.bots.greedy import natural
from laizi.bots.outlook import danger_of, improving_258
from laizi.bots.strong import StrongBot, StrongParams, claimed_hand
from laizi.game.actions import Action
from laizi.scoring.model import Meld

__all__ = [
    "CLAIM_FEATURES", "DISCARD_FEATURES", "Knobs", "LearnedBot", "Model", "candidates",
    "claim_features", "discard_features", "laizi_timing", "load_model", "special_timing",
    "tuned_expert",
]

MAX_DISCARDS = 4  # discard candidates compared at one decision (expert's choice included)
FULL_WALL = 82.0  # the wall after a deal (136 − 53 dealt − the indicator)
WEIGHTS = "learned_policy.json"

DISCARD_FEATURES: tuple[str, ...] = (
    "is_expert", "value_gap", "rank", "shanten258", "shanten", "shanten258_worse",
    "acceptance", "live_waits", "ready", "feed_prob", "feed_loss", "honour", "terminal",
    "jiang258", "middle", "visible", "held", "suit_share", "big_dist", "big_dist_worse",
    "wall", "own_openings", "max_openings", "threats", "wilds", "dealer",
    "wall_x_shanten", "feed_x_far", "accept_x_wall", "gap_x_wall",
)
CLAIM_FEATURES: tuple[str, ...] = (
    "is_expert", "is_pass", "is_chi", "is_peng", "is_kong", "value_ratio", "target_big",
    "shanten_after", "shanten_before", "shanten_gain", "first_opening", "wall",
    "own_openings", "max_openings", "from_upper", "honour", "jiang258", "wilds",
    "dealer", "claim_x_wall", "claim_x_first", "big_dist_gain",
)


def _openings(melds: Sequence[Meld]) -> int:
    return sum(1 for m in melds if m.opens)


def _table(view: SeatView) -> tuple[float, float, float, float]:
    """(wall fraction, own openings, most openings of another seat, threatening seats)."""
    me = view.seat
    others = [_openings(view.melds[s]) for s in range(4) if s != me]
    return (min(1.0, view.wall_remaining / FULL_WALL), _openings(view.melds[me]) / 4.0,
            max(others) / 4.0, sum(1 for o in others if o >= 2) / 3.0)


def _big_distance(view: SeatView, nat: Sequence[int], wilds: int, melds: Sequence[Meld]) -> int:
    n = 4 - len(melds)
    best = 8
    for t in reachable_targets(nat, wilds, melds, luan_feng_jiang=view.rules.luan_feng_jiang):
        best = min(best, target_distance(t, nat, wilds, n))
    return best


@dataclass(frozen=True, slots=True)
class Candidates:
    """A decision's candidates, their feature rows and which one is ``expert``'s."""

    kind: str  # "discard" or "claim"
    actions: list[Action]
    rows: list[list[float]]
    default: int


def discard_features(view: SeatView, strong: StrongBot, default: Action) -> Candidates | None:
    """The discard candidates of a turn decision and their features (None: no choice)."""
    lz = view.setup.laizi
    special = view.setup.special
    discards = [a for a in view.legal if a.type == "discard" and a.tile is not None
                and a.tile != lz and a.tile not in special]
    if len(discards) < 2 or default not in discards:
        return None
    nat, wilds = natural(view)
    melds = view.melds[view.seat]
    n = 4 - len(melds)
    ranked = strong.rank_discards_strong(view, discards, nat, wilds)
    acts = [default] + [a for _s, a in ranked if a != default][: MAX_DISCARDS - 1]
    score = {a: s for s, a in ranked}
    top = ranked[0][0]
    scale = max(1e-6, abs(top))
    rank = {a: i for i, (_s, a) in enumerate(ranked)}
    unseen = view.unseen()
    visible = view.visible()
    wall, own_op, max_op, threats = _table(view)
    total = max(1, sum(nat))
    before_big = _big_distance(view, nat, wilds, melds)
    best258 = 99
    info: list[tuple[int, int, int, int, int]] = []
    for a in acts:
        k = a.tile or 0
        nat[k] -= 1
        sh258 = max(0, shanten258(nat, wilds, n))
        sh = max(0, HandEval(nat, wilds, n).shanten)
        acc = sum(unseen[x] for x in improving_258(nat, wilds, n, sh258))
        live = sum(unseen[x] for x in waits(nat, wilds, pair258=True)) if sh258 == 0 else 0
        big = _big_distance(view, nat, wilds, melds)
        nat[k] += 1
        best258 = min(best258, sh258)
        info.append((sh258, sh, acc, live, big))
    rows = []
    for a, (sh258, sh, acc, live, big) in zip(acts, info, strict=True):
        k = a.tile or 0
        d = danger_of(view, k)
        suit = k // 9 if k < 27 else 3
        suit_share = sum(nat[x] for x in range(len(nat)) if (x // 9 if x < 27 else 3) == suit)
        gap = (score[a] - top) / scale
        far = 1.0 if sh258 >= 2 else 0.0
        rows.append([
            1.0 if a == default else 0.0, max(-3.0, gap), rank[a] / 8.0,
            min(sh258, 6) / 6.0, min(sh, 6) / 6.0, float(sh258 > best258),
            min(acc, 40) / 40.0, min(live, 12) / 12.0, float(sh258 == 0),
            d.feed_prob, min(d.expected_loss, 50.0) / 50.0,
            float(k >= 27), float(k < 27 and k % 9 in (0, 8)),
            float(k < 27 and k % 9 in (1, 4, 7)), float(k < 27 and 2 <= k % 9 <= 6),
            visible[k] / 4.0, nat[k] / 4.0, suit_share / total,
            min(big, 8) / 8.0, float(big > before_big),
            wall, own_op, max_op, threats, min(wilds, 3) / 3.0,
            float(view.seat == view.dealer),
            wall * min(sh258, 6) / 6.0, d.feed_prob * far, wall * min(acc, 40) / 40.0,
            wall * max(-3.0, gap),
        ])
    return Candidates("discard", acts, rows, 0)


def claim_features(view: SeatView, strong: StrongBot, default: Action) -> Candidates | None:
    """The options of a claim decision (pass and every claim) and their features."""
    t = view.pending
    if t is None:
        return None
    acts = [a for a in view.legal if a.type in ("pass", "chi", "peng", "kong")]
    if len(acts) < 2 or default not in acts or any(a.type in ("ron",) for a in view.legal):
        return None
    nat, wilds = natural(view)
    melds = view.melds[view.seat]
    n = 4 - len(melds)
    opened = any(m.opens for m in melds)
    before, _tg, _d = strong.hand_value(view, nat, wilds, melds)
    sh_before = max(0, shanten258(nat, wilds, n))
    big_before = _big_distance(view, nat, wilds, melds)
    wall, own_op, max_op, _threats = _table(view)
    upper = float(view.turn == (view.seat + 3) % 4)
    rows = []
    for a in acts:
        is_claim = a.type != "pass"
        ratio = sh_after = big_gain = 0.0
        big_target = 0.0
        if is_claim:
            c, new = claimed_hand(nat, a, t, view.turn)
            ms = [*melds, new]
            after, target, d2 = strong.hand_value(view, c, wilds, ms)
            ratio = max(-3.0, min(3.0, math.log((after + 1e-9) / (before + 1e-9))))
            big_target = float(target != "regular")
            sh_after = float(max(0, d2))
            big_gain = float(big_before - _big_distance(view, c, wilds, ms))
        cl = 1.0 if is_claim else 0.0
        rows.append([
            1.0 if a == default else 0.0, 1.0 - cl, float(a.type == "chi"),
            float(a.type == "peng"), float(a.type == "kong"), ratio, big_target,
            cl * min(sh_after, 6) / 6.0, cl * min(sh_before, 6) / 6.0,
            cl * (sh_before - sh_after) / 3.0, cl * float(not opened), wall * cl,
            own_op * cl, max_op * cl, upper * cl, cl * float(t >= 27),
            cl * float(t < 27 and t % 9 in (1, 4, 7)), cl * min(wilds, 3) / 3.0,
            cl * float(view.seat == view.dealer), cl * wall * ratio, cl * float(not opened) * ratio,
            cl * max(-4.0, min(4.0, big_gain)) / 4.0,
        ])
    return Candidates("claim", acts, rows, acts.index(default))


_CLAIM_TYPES = ("pass", "chi", "peng", "kong")


def candidates(view: SeatView, expert: ExpertBot, default: Action) -> Candidates | None:
    """The candidates the model compares at this decision (None: ``expert`` decides)."""
    if view.phase == "turn" and default.type == "discard":
        return discard_features(view, expert.strong, default)
    if view.phase == "claim" and default.type in _CLAIM_TYPES:
        return claim_features(view, expert.strong, default)
    return None


_EXPERT = ExpertConfig()
_STRONG = StrongParams()
NO_FOLD = 99  # Knobs.fold_distance: no fold (``strong``'s ``fold_distance=None``)


@dataclass(frozen=True, slots=True)
class Knobs:
    """The scalar settings tuned whole in duplicate arenas (``train_policy.py --phase
    tune``, ``docs/learned.md`` rounds 3 and 5–7): the critic's claim margin and pass
    bias, the knobs of the ``expert`` it plays with, and (round 5) its kong-like moves: the
    laizi kong (``laizi_policy``, ``keep_two_for_big``), the 红中/皮子 kong
    (``special_policy``), concealed and added kongs (``kong_max_distance``,
    ``rob_risk_scale``, ``kong_eager``); round 6's laizi timing, round 7's 红中/皮子 kept
    in hopeless hands late and ``strong``'s late fold. The defaults are ``expert``'s own
    settings and the weights file's margin (``claim_margin=None``)."""

    claim_margin: float | None = None  # None: the claim head's own margin
    pass_bias: float = 0.0  # added to passing's score at a claim decision
    q: float = _EXPERT.q
    q_big: float = _EXPERT.q_big
    ready_defence: float = _EXPERT.ready_defence
    acceptance_tolerance: float = _EXPERT.acceptance_tolerance
    kong_max_distance: int = _EXPERT.kong_max_distance
    big_weight: float = _STRONG.big_weight
    defence_scale: float = _STRONG.defence_scale
    #: laizi kong: "keep_one" (``expert``), "kong" (always, at once), "smart" (keep a
    #: single laizi only while a soft small win still reaches the minimum)
    laizi_policy: str = _STRONG.laizi_policy
    keep_two_for_big: bool = _EXPERT.keep_two_for_big  # keep a 2nd laizi while a big hand is close
    #: 红中/皮子 kong: "always" (``expert``) or "when_close" (keep the tile while the hand is
    #: more than ``special_shanten`` from ready and the wall is long)
    special_policy: str = _STRONG.special_policy
    special_shanten: int = _STRONG.special_shanten
    rob_risk_scale: float = 1.0  # × ``strong``'s rob risk of an added kong (0: always add)
    kong_eager: bool = False  # declare every concealed / added kong on offer
    #: round 6, finer laizi timing on top of ``expert``'s rule (:func:`laizi_timing`):
    #: "expert" (off), "ready" (lay a single laizi aside when the natural tiles without
    #: it are within ``laizi_steps`` of ready and the wall has ≥ ``laizi_wall`` tiles),
    #: "big" (keep a second laizi while a big hand is within ``laizi_steps``), "hopeless"
    #: (keep every laizi while ≥ ``laizi_steps`` from ready and the wall < ``laizi_wall``)
    laizi_timing: str = "expert"
    laizi_steps: int = 0
    laizi_wall: int = 0
    #: round 7, a 红中/皮子 kept late in a hopeless hand (:func:`special_timing`):
    #: "expert" (off) or "hopeless" (keep the tile — neither lay it aside nor discard it
    #: — while the natural tiles are ≥ ``special_steps`` from ready, the wall has fewer
    #: than ``special_wall`` tiles and, when ``special_threat`` > 0, another seat has
    #: opened at least ``special_threat`` times; a laid-aside tile doubles what the seat
    #: pays as a loser)
    special_timing: str = "expert"
    special_steps: int = 0
    special_wall: int = 0
    special_threat: int = 0
    #: round 7, ``strong``'s late fold (off in ``expert``): a hand at least
    #: ``fold_distance`` from ready (``NO_FOLD``: never) with fewer than ``fold_wall``
    #: tiles in the wall weighs the danger of its discards to seats that have opened ×10
    fold_distance: int = NO_FOLD
    fold_wall: int = _STRONG.fold_wall

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Knobs:
        """Knobs from a weights file's ``tuned.knobs`` (unknown names are an error)."""
        if not d:
            return cls()
        names = {f.name for f in fields(cls)}
        bad = sorted(set(d) - names)
        if bad:
            raise ValueError(f"learned: unknown tuned knobs {bad}")
        kw: dict[str, Any] = {}
        for k, v in d.items():
            kw[k] = (None if v is None else str(v) if k in _STR_KNOBS else bool(v)
                     if k in _BOOL_KNOBS else int(v) if k in _INT_KNOBS else float(v))
        return cls(**kw)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_STR_KNOBS = frozenset({"laizi_policy", "special_policy", "laizi_timing", "special_timing"})
_BOOL_KNOBS = frozenset({"keep_two_for_big", "kong_eager"})
_INT_KNOBS = frozenset({"kong_max_distance", "special_shanten", "laizi_steps", "laizi_wall",
                        "special_steps", "special_wall", "special_threat", "fold_distance",
                        "fold_wall"})
_LAIZI_TIMINGS = ("expert", "ready", "big", "hopeless")
_SPECIAL_TIMINGS = ("expert", "hopeless")


def laizi_timing(view: SeatView, knobs: Knobs, default: Action) -> bool | None:
    """Round 6: lay a laizi aside now (True), keep it (False), or ``expert``'s choice
    (None), by ``knobs.laizi_timing`` at a turn where a laizi kong is legal."""
    rule = knobs.laizi_timing
    if rule == "expert":
        return None
    if rule not in _LAIZI_TIMINGS:
        raise ValueError(f"learned: unknown laizi_timing {rule!r}")
    nat, wilds = natural(view)
    melds = view.melds[view.seat]
    n = 4 - len(melds)
    kong = default.type == "laizi_kong"
    if rule == "ready":
        if kong or wilds != 1 or view.wall_remaining < knobs.laizi_wall:
            return None
        # the natural tiles alone (3n+1 of them): the replacement draw keeps the turn
        return True if max(0, shanten258(nat, 0, n)) <= knobs.laizi_steps else None
    if rule == "big":
        if not kong or wilds < 2:
            return None
        for t in reachable_targets(nat, wilds, melds, luan_feng_jiang=view.rules.luan_feng_jiang):
            if target_distance(t, nat, wilds, n) <= knobs.laizi_steps:
                return False
        return None
    # "hopeless": a laizi kong doubles what this seat pays too
    if not kong or view.wall_remaining >= knobs.laizi_wall:
        return None
    return False if max(0, shanten258(nat, wilds, n)) >= knobs.laizi_steps else None


def _gives_up_special(view: SeatView, a: Action) -> bool:
    """Does ``a`` lay a 红中/皮子 aside or discard it (both count as its fan)?"""
    return a.type == "special_kong" or (a.type == "discard" and a.tile in view.setup.special)


def special_timing(view: SeatView, knobs: Knobs, default: Action) -> bool | None:
    """Round 7: keep the 红中/皮子 in hand (False) or ``expert``'s choice (None), by
    ``knobs.special_timing`` at a turn where ``expert`` gives a special tile up."""
    rule = knobs.special_timing
    if rule == "expert":
        return None
    if rule not in _SPECIAL_TIMINGS:
        raise ValueError(f"learned: unknown special_timing {rule!r}")
    if not _gives_up_special(view, default) or view.wall_remaining >= knobs.special_wall:
        return None
    if knobs.special_threat > 0:
        me = view.seat
        if max(_openings(view.melds[s]) for s in range(4) if s != me) < knobs.special_threat:
            return None
    nat, wilds = natural(view)
    n = 4 - len(view.melds[view.seat])
    return False if max(0, shanten258(nat, wilds, n)) >= knobs.special_steps else None


def tuned_expert(seed: int | None, knobs: Knobs) -> ExpertBot:
    """``expert`` playing with ``knobs`` (``ExpertBot(seed)`` itself at the defaults)."""
    if knobs == Knobs(claim_margin=knobs.claim_margin, pass_bias=knobs.pass_bias):
        return ExpertBot(seed)
    cfg = ExpertConfig(q=knobs.q, q_big=knobs.q_big, ready_defence=knobs.ready_defence,
                       kong_max_distance=knobs.kong_max_distance,
                       keep_two_for_big=knobs.keep_two_for_big,
                       acceptance_tolerance=knobs.acceptance_tolerance)
    bot = ExpertBot(seed, cfg)
    params = replace(cfg.strong_params(), big_weight=knobs.big_weight,
                     defence_scale=knobs.defence_scale, laizi_policy=knobs.laizi_policy,
                     special_policy=knobs.special_policy,
                     special_shanten=knobs.special_shanten, rob_risk_scale=knobs.rob_risk_scale,
                     kong_eager=knobs.kong_eager,
                     fold_distance=None if knobs.fold_distance >= NO_FOLD else knobs.fold_distance,
                     fold_wall=knobs.fold_wall)
    bot.strong = StrongBot(seed, params)
    return bot


class Model:
    """A one-hidden-layer perceptron per decision kind, in plain Python:
    ``score(x) = w2 · tanh(W1 (x − mu) / sd + b1) + lin · (x − mu) / sd``."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.heads: dict[str, dict[str, Any]] = spec["heads"]

    def scores(self, kind: str, rows: Sequence[Sequence[float]]) -> list[float] | None:
        head = self.heads.get(kind)
        if head is None:
            return None
        mu: list[float] = head["mu"]
        sd: list[float] = head["sd"]
        w1: list[list[float]] = head["w1"]  # hidden × features
        b1: list[float] = head["b1"]
        w2: list[float] = head["w2"]
        lin: list[float] = head["lin"]
        out = []
        for row in rows:
            z = [(x - m) / s for x, m, s in zip(row, mu, sd, strict=True)]
            v = sum(w * x for w, x in zip(lin, z, strict=True))
            for wr, b, w in zip(w1, b1, w2, strict=True):
                v += w * math.tanh(b + sum(a * x for a, x in zip(wr, z, strict=True)))
            out.append(v)
        return out

    @property
    def preset(self) -> str | None:
        """The rule preset the weights were trained on (None: any)."""
        trained = self.spec.get("trained") or {}
        preset = trained.get("preset")
        return str(preset) if preset is not None else None

    def margin(self, kind: str) -> float:
        return float(self.heads[kind].get("margin", 0.0)) if kind in self.heads else 0.0

    @property
    def knobs(self) -> Knobs:
        """The tuned knobs (``tuned.knobs`` in the weights file; defaults without)."""
        tuned = self.spec.get("tuned") or {}
        return Knobs.from_dict(tuned.get("knobs"))


@cache
def load_model(name: str = WEIGHTS) -> Model | None:
    """The shipped weights (None when the package has none)."""
    try:
        text = resources.files("laizi.data").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None
    return Model(json.loads(text))


class LearnedBot(Bot):
    """``expert`` with a learned critic over its discard and claim choices, playing
    with the tuned knobs under the preset the weights were made for (``expert`` itself
    under any other)."""

    name = "learned"

    def __init__(self, seed: int | None = None, model: Model | None = None,
                 knobs: Knobs | None = None) -> None:
        self.model = model if model is not None else load_model()
        if knobs is None:
            knobs = self.model.knobs if self.model is not None else Knobs()
        self.knobs = knobs
        self.plain = ExpertBot(seed)  # every other preset: expert as it is
        self.expert = tuned_expert(seed, knobs)
        self.overrides = 0  # decisions where the model changed expert's choice

    def __repr__(self) -> str:
        return f"LearnedBot(seed={self.expert.seed})"

    def reset(self) -> None:
        self.expert.reset()
        self.plain.reset()

    def _laizi_timing(self, view: SeatView, default: Action) -> Action:
        kongs = [a for a in view.legal if a.type == "laizi_kong"]
        if not kongs:
            return default
        want = laizi_timing(view, self.knobs, default)
        if want is True and default.type != "laizi_kong":
            self.overrides += 1
            return kongs[0]
        if want is False and default.type == "laizi_kong":
            rest = [a for a in view.legal if a.type != "laizi_kong"]
            if rest:
                self.overrides += 1
                return self.expert.act(replace(view, legal=rest))
        return default

    def _special_timing(self, view: SeatView, default: Action) -> Action:
        if special_timing(view, self.knobs, default) is not False:
            return default
        rest = [a for a in view.legal if not _gives_up_special(view, a)]
        if not any(a.type == "discard" for a in rest):
            return default
        self.overrides += 1
        return self.expert.act(replace(view, legal=rest))

    def act(self, view: SeatView) -> Action:
        preset = self.model.preset if self.model is not None else None
        if preset is not None and view.rules.preset_name != preset:
            # neither the critic nor the tuned knobs transfer to other rules (docs/learned.md)
            return self.plain.act(view)
        default = self.expert.act(view)
        if self.knobs.laizi_timing != "expert" and view.phase == "turn":
            default = self._laizi_timing(view, default)
        if self.knobs.special_timing != "expert" and view.phase == "turn":
            default = self._special_timing(view, default)
        if self.model is None or len(view.legal) < 2 or default.type in ("tsumo", "ron"):
            return default
        kind = ("discard" if view.phase == "turn" and default.type == "discard" else
                "claim" if view.phase == "claim" and default.type in _CLAIM_TYPES else None)
        if kind is None or kind not in self.model.heads:
            return default  # no head for this kind of decision: no features to compute
        c = candidates(view, self.expert, default)
        if c is None:
            return default
        s = self.model.scores(c.kind, c.rows)
        if s is None:
            return default
        margin = self.model.margin(c.kind)
        if c.kind == "claim":
            if self.knobs.claim_margin is not None:
                margin = self.knobs.claim_margin
            if self.knobs.pass_bias:
                s = [v + self.knobs.pass_bias if a.type == "pass" else v
                     for v, a in zip(s, c.actions, strict=True)]
        best = max(range(len(s)), key=lambda i: (s[i], i == c.default))
        if best != c.default and s[best] - s[c.default] > margin:
            self.overrides += 1
            return c.actions[best]
        return default
