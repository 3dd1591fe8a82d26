#!/usr/bin/env python
"""The ceiling of defence (issue 28, stop 68): ``expert`` that never feeds a win it could avoid.

A variant here is ``expert`` with an oracle: before each discard it looks at the true table
(the other seats' concealed tiles, which no real bot sees) and, when ``expert``'s discard
would be won on at once, plays instead the best discard of ``strong``'s ranking that would
not (when there is one). Nothing else changes: its claims, kongs and wins are ``expert``'s.
Raced against three ``expert`` on duplicate deals (the arena's deals, rotations and bot
seeds), its margin is what perfect knowledge of *who waits on what* is worth to ``expert``'s
discards — a ceiling on any danger model, learned or hand-written: a bot that reads the
table better can gain at most this from its discards' defence.

    python benchmarks/ab_defence_oracle.py --deals 2000 --seed t9a --workers 2 --json

``--min-loss P``: veto only feeds that would cost the discarder at least P points (cheap
feeds are let through; a ceiling of a defence that minds only big hands). ``--variant
expert``: the check (no oracle: margin exactly 0). ``--variant model --weights W --tau T``:
the same veto from the seat's view alone, by the learned danger model
(:class:`laizi.bots.experimental.danger.DangerVeto`: a discard whose chance to feed a win
is above ``T`` gives way), raced the same way; ``--weights random`` draws the chances at
random instead (round 12: what the switches cost with no knowledge behind them).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
import sys
import time
from typing import Any

from laizi.analysis.profiles import shanten258
from laizi.arena import rotation_seats
from laizi.bots.base import Bot, SeatView
from laizi.bots.experimental.danger import N_FEATURES, DangerModel, DangerVeto, efficiency
from laizi.bots.expert import ExpertBot
from laizi.bots.toolkit import natural
from laizi.distributed import local_pool
from laizi.game.actions import PASS, Action
from laizi.game.play import play_hand
from laizi.game.state import HandState
from laizi.rules import RuleSet
from laizi.sim import bot_seed, sim_hand_seed

CHUNK = 25
Z95 = 1.959964


def feed_loss(state: HandState, seat: int, action: Action) -> float:
    """What ``seat`` loses if it plays ``action`` and a seat that may win on it does (the
    first that may, in the state's order; 0: nobody may)."""
    st = state.clone()
    st.apply(seat, action)
    if st.over:
        return 0.0
    for s in st.to_act():
        for a in st.legal_actions(s):
            if a.type == "ron":
                st.apply(s, a)
                for t in st.to_act():  # (others still to answer pass: the win stands)
                    if not st.over and st.legal_actions(t):
                        st.apply(t, PASS)
                if st.over and st.payments is not None:
                    return max(0.0, -float(st.payments[seat]))
                return 0.0
    return 0.0


def shanten_after(view: SeatView, nat: list[int], wilds: int, k: int) -> int:
    """The 2/5/8-pair shanten of the seat's natural tiles ``nat`` (with ``wilds`` laizi) once
    kind ``k`` is discarded (``nat`` is left as it was)."""
    nat[k] -= 1
    sh = shanten258(nat, wilds, 4 - len(view.melds[view.seat]))
    nat[k] += 1
    return sh


class OracleDefence(Bot):
    """``expert`` whose discard is replaced when it would feed a win (see the module)."""

    name = "oracle"

    def __init__(self, seed: int | None, min_loss: float, far: int = 0,
                 keep_shanten: bool = False, keep_improving: float | None = None) -> None:
        self.inner = ExpertBot(seed)
        self.min_loss = min_loss
        self.far = far  # veto only while expert's hand is this many steps from ready or more
        self.keep_shanten = keep_shanten  # a replacement leaves the hand as near to ready
        # a replacement leaves the hand exactly as near to ready, with at least (1 - this) of
        # the improving tiles expert's discard leaves (DangerVeto's ``equiv`` rule)
        self.keep_improving = keep_improving
        self.state: HandState | None = None
        self.vetoes = 0
        self.feeds_left = 0

    def act(self, view: SeatView) -> Action:
        a = self.inner.act(view)
        st = self.state
        if a.type != "discard" or st is None:
            return a
        if feed_loss(st, view.seat, a) < max(self.min_loss, 1e-9):
            return a
        discards = [x for x in view.legal if x.type == "discard"]
        nat, wilds = natural(view)

        def after(x: Action) -> int:
            if x.tile is None or x.tile == view.setup.laizi:
                return 99
            return shanten_after(view, nat, wilds, x.tile)

        sh_a = after(a)
        if self.far and sh_a < self.far:
            return a
        unseen = view.unseen()
        eff_a = efficiency(view, nat, wilds, unseen, a.tile) if a.tile is not None else (99, 0)
        for _score, b in self.inner.strong.rank_discards_strong(view, discards, nat, wilds):
            if self.keep_shanten and after(b) > sh_a:
                continue
            if self.keep_improving is not None:
                if after(b) == 99 or b.tile is None:
                    continue
                sh_b, live_b = efficiency(view, nat, wilds, unseen, b.tile)
                if sh_b != eff_a[0] or live_b < (1.0 - self.keep_improving) * eff_a[1]:
                    continue
            if b != a and feed_loss(st, view.seat, b) < max(self.min_loss, 1e-9):
                self.vetoes += 1
                return b
        self.feeds_left += 1
        return a


_MODEL: dict[str, DangerModel] = {}


class _KnowsWhoIsReady:
    """A danger model fitted ``--oracle-shanten``, given each opponent's true distance from
    ready by the race (``state``, set before each decision): how much knowing who is ready
    is worth to ``DangerVeto`` — the most a model of the opponents' policy could infer of it."""

    def __init__(self, model: DangerModel) -> None:
        self.model = model
        self.state: HandState | None = None

    def feed_chance(self, view: SeatView, kinds: list[int]) -> dict[int, float]:
        from danger_calibration import _chances  # (a sibling benchmark)

        assert self.state is not None
        return _chances(self.model, view, kinds, [[], [], [], []], self.state)


class RandomChance:
    """In place of a danger model (``--weights random``): a chance drawn at random for each
    kind, so that ``DangerVeto`` switches to a random one of the discards its rule admits.
    What a switch costs the hand by itself, with no knowledge of danger behind it (round 12)."""

    reads_cuts = False
    reads_river = False

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def feed_chance(self, view: SeatView, kinds: list[int]) -> dict[int, float]:
        return {k: self.rng.random() for k in kinds}


class RandomPick(DangerVeto):
    """``DangerVeto`` that switches where the model says, but to a discard drawn at random
    among those its rule admits rather than to the one the model rates safest (``--pick
    random``, rule ``equiv`` only): raced beside the model, what its choice of discard is
    worth in the very positions where it acts (round 12)."""

    def __init__(self, seed: int, *args: Any) -> None:
        super().__init__(seed, *args)
        self.pick = random.Random(seed)

    def _equally_efficient(self, view: SeatView, a: Action, discards: list[Action],
                           chance: dict[int, float]) -> Action:
        if super()._equally_efficient(view, a, discards, chance) == a:
            return a
        return self.pick.choice(self.equally_efficient(view, a, discards))


FAR = 0  # --far (set before the workers are forked)
KEEP_SHANTEN = False  # --keep-shanten (the same)
KEEP_IMPROVING: float | None = None  # --keep-improving (the same)
PICK = "model"  # --pick (the same)
READY_ONLY = False  # --ready-only (the same)
EV_MARGIN: float | None = None  # --ev-margin (the same)


def _deal(rules: RuleSet, variant: str, seed: int | str, deal: int, min_loss: float,
          weights: str = "", tau: float = 0.0, keep: float | None = None,
          soft: float | None = None, equiv: float | None = None) -> tuple[float, int, int]:
    """The variant's points per hand over the three ``expert`` seats on one deal (its four
    rotations), with its vetoes and unavoidable feeds."""
    margin = 0.0
    vetoes = feeds = 0
    for r in range(4):
        seats = rotation_seats(r)
        bots: dict[int, Bot] = {}
        oracle: OracleDefence | None = None
        veto: DangerVeto | None = None
        for place in range(4):
            s = bot_seed(seed, 4 * deal + r, place)
            if place == 0 and variant == "oracle":
                oracle = OracleDefence(s, min_loss, FAR, KEEP_SHANTEN, KEEP_IMPROVING)
                bots[seats[place]] = oracle
            elif place == 0 and variant == "model":
                if weights != "random" and weights not in _MODEL:
                    _MODEL[weights] = DangerModel.load(weights)
                model: Any = RandomChance(s) if weights == "random" else _MODEL[weights]
                if isinstance(model, DangerModel) and not (
                        model.reads_cuts or model.reads_river) and model.w1.shape[0] > N_FEATURES:
                    model = _KnowsWhoIsReady(model)
                veto = (RandomPick if PICK == "random" else DangerVeto)(
                    s, model, tau, keep, soft, equiv, READY_ONLY, EV_MARGIN)
                bots[seats[place]] = veto
            else:
                bots[seats[place]] = ExpertBot(s)
        st = HandState.new(rules, deal % 4, seed=sim_hand_seed(seed, deal), hand_no=1)

        def policy(state: HandState, seat: int, legal: list[Action],
                   bots: dict[int, Bot] = bots, oracle: OracleDefence | None = oracle) -> Action:
            if len(legal) == 1:
                return legal[0]
            bot = bots[seat]
            if oracle is not None and bot is oracle:
                oracle.state = state
            if isinstance(bot, DangerVeto) and isinstance(bot.model, _KnowsWhoIsReady):
                bot.model.state = state
            return bot.act(SeatView.from_state(state, seat, legal, copy=False))

        play_hand(st, policy)
        pay = [float(x) for x in (st.payments or [0.0] * 4)]
        mine = pay[seats[0]]
        others = [pay[seats[p]] for p in range(1, 4)]
        margin += (mine - sum(others) / 3) / 4
        if oracle is not None:
            vetoes += oracle.vetoes
            feeds += oracle.feeds_left
        if veto is not None:
            vetoes += veto.vetoes
    return margin, vetoes, feeds


def _work(args: tuple[str, str, int | str, list[int], float, str, float, float | None,
                      float | None, float | None]) -> list[tuple[float, int, int]]:
    variant, preset, seed, deals, min_loss, weights, tau, keep, soft, equiv = args
    rules = RuleSet.preset(preset)
    return [_deal(rules, variant, seed, d, min_loss, weights, tau, keep, soft, equiv)
            for d in deals]


def race(variant: str, *, deals: int, seed: int | str, preset: str, workers: int,
         min_loss: float = 0.0, weights: str = "", tau: float = 0.0,
         keep: float | None = None, soft: float | None = None,
         equiv: float | None = None) -> dict[str, Any]:
    jobs = [(variant, preset, seed, list(range(i, min(deals, i + CHUNK))), min_loss, weights, tau,
             keep, soft, equiv) for i in range(0, deals, CHUNK)]
    rows: list[tuple[float, int, int]] = []
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        stream = (map(_work, jobs) if workers <= 1
                  else stack.enter_context(local_pool(workers)).imap(_work, jobs))
        for got in stream:
            rows.extend(got)
            print(f"  {variant}: {len(rows)}/{deals} deals, {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    xs = [m for m, _v, _f in rows]
    mean = statistics.fmean(xs)
    half = Z95 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return {"variant": variant, "min_loss": min_loss, "tau": tau, "keep": keep, "soft": soft, "equiv": equiv,
            "weights": weights, "preset": preset, "seed": seed,
            "deals": deals, "margin": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "vetoes_per_hand": round(sum(v for _m, v, _f in rows) / (4 * deals), 4),
            "unavoidable_feeds_per_hand": round(sum(f for _m, _v, f in rows) / (4 * deals), 4),
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", choices=("oracle", "expert", "model"), action="append")
    ap.add_argument("--far", type=int, default=0,
                    help="--variant oracle: veto only while expert's hand, after its discard, is "
                         "this many steps from ready or more (0: always)")
    ap.add_argument("--keep-shanten", action="store_true",
                    help="--variant oracle: a replacement discard must leave the hand as near "
                         "to ready as expert's (no hand is broken to avoid a feed)")
    ap.add_argument("--keep-improving", type=float, default=None, metavar="E",
                    help="--variant oracle: a replacement must leave the hand exactly as near to "
                         "ready, with at least (1 - E) of the improving tiles expert's discard "
                         "leaves (the model's --equiv rule: switches that cost the hand little)")
    ap.add_argument("--pick", choices=("model", "random"), default="model",
                    help="--variant model --equiv: switch to the discard the model rates "
                         "safest (model), or to one drawn at random among those the rule "
                         "admits, in the same positions (random)")
    ap.add_argument("--ready-only", action="store_true",
                    help="--variant model --equiv: only while expert's discard leaves the hand "
                         "ready")
    ap.add_argument("--ev-margin", type=float, default=None,
                    help="--variant model --tau T: over T, expert's discard gives way to one "
                         "whose expected points (the outlook model) less its chance to feed a "
                         "win x 135 are higher by more than this")
    ap.add_argument("--weights", default="",
                    help="--variant model: the danger model (JSON), or 'random' (chances drawn "
                         "at random: what the rule's switches cost by themselves)")
    ap.add_argument("--tau", type=float, action="append", dest="taus",
                    help="--variant model: the veto threshold (repeat for more)")
    ap.add_argument("--keep", type=float, action="append", dest="keeps",
                    help="--variant model: only discards valued within this share of the best "
                         "may replace (repeat for more; none: any)")
    ap.add_argument("--soft", type=float, action="append", dest="softs",
                    help="--variant model: no veto; each discard's value less SOFT × its chance "
                         "to feed a win (repeat for more)")
    ap.add_argument("--equiv", type=float, action="append", dest="equivs",
                    help="--variant model: over --tau, the least likely to feed among the "
                         "discards as close to ready with at least (1 - EQUIV) of the improving "
                         "tiles of expert's (repeat for more)")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", default="t9a", help="the arena seed (digits: a number)")
    ap.add_argument("--preset", default="kaikoufan")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--min-loss", type=float, action="append", dest="min_losses")
    ap.add_argument("--json", action="store_true", help="one JSON line per race")
    args = ap.parse_args(argv)
    if args.deals < 1:
        raise SystemExit("ab_defence_oracle: --deals must be at least 1")
    seed: int | str = int(args.seed) if args.seed.isdigit() else args.seed
    global FAR, READY_ONLY, EV_MARGIN, KEEP_SHANTEN, KEEP_IMPROVING, PICK
    FAR, READY_ONLY = args.far, args.ready_only  # (the workers are forked after this)
    KEEP_SHANTEN, KEEP_IMPROVING, PICK = args.keep_shanten, args.keep_improving, args.pick
    if args.pick == "random" and not args.equivs:
        raise SystemExit("ab_defence_oracle: --pick random needs --equiv")
    EV_MARGIN = args.ev_margin
    min_losses = args.min_losses or [0.0]
    if "model" in (args.variant or []) and not (args.weights and (args.taus or args.softs)):
        raise SystemExit("ab_defence_oracle: --variant model needs --weights and --tau or --soft")
    modes: list[tuple[float, float | None, float | None]] = [
        (t, None, e) for t in args.taus or [] for e in args.equivs or [None]]
    modes += [(0.0, x, None) for x in args.softs or []]
    runs = [(v, m, t, k, x, e) for v in (args.variant or ["oracle"])
            for m in (min_losses if v == "oracle" else [0.0])
            for t, x, e in (modes if v == "model" else [(0.0, None, None)])
            for k in (args.keeps or [None] if v == "model" else [None])]
    for variant, min_loss, tau, keep, soft, equiv in runs:
        row = race(variant, deals=args.deals, seed=seed, preset=args.preset,
                   workers=args.workers, min_loss=min_loss, weights=args.weights, tau=tau,
                   keep=keep, soft=soft, equiv=equiv)
        if variant == "oracle":
            row["far"] = FAR
            row["keep_shanten"] = KEEP_SHANTEN
            row["keep_improving"] = KEEP_IMPROVING
        if variant == "model" and equiv is not None:
            row["ready_only"] = READY_ONLY
            row["pick"] = PICK
        if variant == "model" and EV_MARGIN is not None:
            row["ev_margin"] = EV_MARGIN
        row["command"] = " ".join(["python", "benchmarks/ab_defence_oracle.py", *sys.argv[1:]])
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            lo, hi = row["ci95"]
            print(f"{variant} (min loss {min_loss:g}, tau {tau:g}): {row['margin']:+.2f} [{lo:+.2f}, {hi:+.2f}]"
                  f" points/hand over expert; vetoes {row['vetoes_per_hand']}/hand, "
                  f"feeds left {row['unavoidable_feeds_per_hand']}/hand, {row['seconds']} s",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
