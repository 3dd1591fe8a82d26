"""The simulator: play N hands with given bots, collect statistics, optionally in parallel.

Reproducibility: hand *i* (0-based) of a run with seed *S* is dealt from
``hand_seed(sha256("laizi-sim:" + S), i + 1)`` with dealer ``i % 4``, and each seat's
bot for that hand is created fresh with a seed derived from (S, i, seat). A hand
therefore depends only on (S, i, preset, bots), never on which worker played it or
in which order, so the statistics are identical for any ``workers``.

>>> from laizi.sim import simulate
>>> res = simulate(200, bots=["strong", "greedy", "greedy", "random"], seed=1)  # doctest: +SKIP
>>> res.to_json()["seats"][0]["points"]                                        # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, Final

from laizi.bots.base import Bot, SeatView
from laizi.bots.registry import make_bot
from laizi.game.actions import Action
from laizi.game.enums import Phase
from laizi.game.play import Policy, play_hand
from laizi.game.state import HandState
from laizi.game.wall import hand_seed
from laizi.rules import RuleSet
from laizi.scoring.patterns import BIG_HAND_IDS

__all__ = [
    "HandRecord",
    "SimResult",
    "bot_policy",
    "bot_seed",
    "record_hand",
    "run_hands",
    "sim_hand_seed",
    "simulate",
]

# enum members as module constants (member lookup is slow on the hot path)
_TURN: Final = Phase.TURN

CHUNK: Final = 25  # hands per work unit (results are merged in hand order)


# ------------------------------------------------------------------------ seeds
def _master(seed: int | str) -> bytes:
    return hashlib.sha256(f"laizi-sim:{seed}".encode()).digest()


def sim_hand_seed(seed: int | str, index: int) -> bytes:
    """The wall seed of hand ``index`` (0-based) of a simulation with ``seed``."""
    return hand_seed(_master(seed), index + 1)


def bot_seed(seed: int | str, index: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in hand ``index``."""
    h = hashlib.sha256(_master(seed) + b"bot" + index.to_bytes(8, "big") + bytes([seat]))
    return int.from_bytes(h.digest()[:8], "big")


# ------------------------------------------------------------------------ records
@dataclass(slots=True)
class HandRecord:
    """What the statistics need from one finished hand."""

    index: int
    dealer: int
    winner: int | None
    by: str | None
    from_seat: int | None
    big_hands: list[str]
    payments: list[float]
    liable: int | None
    topped_out: bool
    capped: bool
    refusals: list[int]  # per seat: complete hands that were not legal wins (own turn)
    decisions: int
    refusal_reasons: dict[str, int] = field(default_factory=dict)

    def to_tuple(self) -> tuple[Any, ...]:
        return (self.index, self.dealer, self.winner, self.by, self.from_seat, self.big_hands,
                self.payments, self.liable, self.topped_out, self.capped, self.refusals,
                self.decisions, self.refusal_reasons)


def bot_policy(bots: Sequence[Bot]) -> Policy:
    """Four bots (seat 0-3) as one policy for :func:`laizi.game.play.play_hand` /
    :func:`~laizi.game.play.play_match`; a bot is asked only when it has a choice."""

    def policy(state: HandState, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return bots[seat].act(SeatView.from_state(state, seat, legal))

    return policy


def record_hand(
    rules: RuleSet,
    bots: Sequence[Bot],
    *,
    seed: bytes,
    dealer: int = 0,
    index: int = 0,
    count_refusals: bool = True,
) -> tuple[HandState, HandRecord]:
    """Play one stand-alone hand to its end and record it; the state keeps the full
    event log. A bot is asked only when it has a choice."""
    st = HandState.new(rules, dealer, seed=seed, hand_no=1)
    refusals = [0, 0, 0, 0]
    reasons: dict[str, int] = {}
    decisions = 0

    def policy(state: HandState, seat: int, legal: list[Action]) -> Action:
        nonlocal decisions
        if len(legal) == 1:
            action = legal[0]
        else:
            action = bots[seat].act(SeatView.from_state(state, seat, legal, copy=False))
            decisions += 1
        if count_refusals and state.phase == _TURN and legal[0].type != "tsumo":
            why = state.tsumo_refusal()
            if why is not None:
                refusals[seat] += 1
                reasons[why] = reasons.get(why, 0) + 1
        return action

    play_hand(st, policy)
    res = st.result
    if res is None:
        rec = HandRecord(index, dealer, None, None, None, [], [0.0] * 4, None, False, False,
                         refusals, decisions, reasons)
    else:
        sc = res["score"]
        raw = [abs(float(x)) for x in sc["raw"]]
        rec = HandRecord(
            index, dealer, int(res["winner"]), str(res["by"]), res["from"],
            list(sc["big_hands"]), [float(p) for p in (st.payments or [0.0] * 4)],
            sc["liable"], bool(sc["topped_out"]), any(x > rules.cap for x in raw),
            refusals, decisions, reasons,
        )
    return st, rec


def run_hands(
    rules: RuleSet,
    bot_names: Sequence[str],
    seed: int | str,
    indices: Sequence[int],
    *,
    want_log: bool = False,
    count_refusals: bool = True,
    bot_factory: Callable[[str, int], Bot] = make_bot,
) -> tuple[list[HandRecord], list[str]]:
    """Play the hands ``indices`` of a simulation; (records, JSON log lines)."""
    records: list[HandRecord] = []
    lines: list[str] = []
    for i in indices:
        bots = [bot_factory(bot_names[s], bot_seed(seed, i, s)) for s in range(4)]
        st, rec = record_hand(rules, bots, seed=sim_hand_seed(seed, i), dealer=i % 4, index=i,
                              count_refusals=count_refusals)
        records.append(rec)
        if want_log:
            lines.extend(json.dumps(e, ensure_ascii=False, separators=(",", ":")) for e in st.log)
    return records, lines


def _worker(args: tuple[dict[str, Any], list[str], int | str, list[int], bool, bool]) -> tuple[
        list[tuple[Any, ...]], list[str]]:
    rules_d, names, seed, idx, want_log, refusals = args
    recs, lines = run_hands(RuleSet(**rules_d), names, seed, idx, want_log=want_log,
                            count_refusals=refusals)
    return [r.to_tuple() for r in recs], lines


# ------------------------------------------------------------------------ statistics
_PAY_BUCKETS: Final = (0, 16, 32, 64, 128, 300, 600, 900, 1200, 1800)


@dataclass
class SimResult:
    """Statistics of a simulation (:meth:`to_json` for the CLI's ``--json``)."""

    preset: str
    bots: list[str]
    seed: int | str
    workers: int
    records: list[HandRecord] = field(default_factory=list)
    seconds: float = 0.0

    # ---------------------------------------------------------------- figures
    @property
    def hands(self) -> int:
        return len(self.records)

    def zero_sum(self) -> bool:
        return all(abs(sum(r.payments)) < 1e-6 for r in self.records)

    def winner_totals(self) -> list[float]:
        return [r.payments[r.winner] for r in self.records if r.winner is not None]

    def to_json(self, *, timing: bool = True) -> dict[str, Any]:
        """The statistics as one JSON object (``timing``: add workers and speed)."""
        n = max(1, self.hands)
        recs = self.records
        wins = [r for r in recs if r.winner is not None]
        totals = self.winner_totals()
        liability = _liability(wins)
        out: dict[str, Any] = {
            "hands": self.hands,
            "preset": self.preset,
            "bots": list(self.bots),
            "seed": self.seed,
            "zero_sum": self.zero_sum(),
            "wins": len(wins),
            "win_rate": len(wins) / n,
            "draw_rate": (self.hands - len(wins)) / n,
            **_win_kinds(wins),
            "small_hands": sum(1 for r in wins if not r.big_hands),
            "big_hands": {k: v for k, v in _big_hand_counts(wins, BIG_HAND_IDS).items() if v},
            "big_hand_rate": sum(1 for r in wins if r.big_hands) / max(1, len(wins)),
            "refusals": sum(sum(r.refusals) for r in recs),
            "refusal_reasons": _merge_reasons(recs),
            "payment_avg": (sum(totals) / len(totals)) if totals else 0.0,
            "payment_max": _num(max(totals, default=0.0)),
            "payment_min": _num(min(totals, default=0.0)),
            "payment_histogram": _histogram(totals),
            "capped": sum(1 for r in wins if r.capped),
            "topped_out": sum(1 for r in wins if r.topped_out),
            "liability": dict(sorted(liability.items())),
            "liability_events": sum(liability.values()),
            "decisions_per_hand": sum(r.decisions for r in recs) / n,
            "seats": [self._seat_json(s, wins) for s in range(4)],
        }
        if timing:
            out["workers"] = self.workers
            out["seconds"] = round(self.seconds, 3)
            out["hands_per_second"] = round(self.hands / self.seconds, 1) if self.seconds else 0.0
        return out

    def _seat_json(self, s: int, wins: list[HandRecord]) -> dict[str, Any]:
        """One seat's figures."""
        n = max(1, self.hands)
        recs = self.records
        sw = [r for r in wins if r.winner == s]
        pays = [r.payments[s] for r in recs]
        points = sum(pays)
        return {
            "seat": s,
            "bot": self.bots[s],
            "wins": len(sw),
            "win_rate": len(sw) / n,
            **_win_kinds(sw),
            "big_hand_wins": sum(1 for r in sw if r.big_hands),
            "big_hands": dict(sorted(_big_hand_counts(sw, ()).items())),
            "dealt_in": sum(1 for r in wins if r.from_seat == s and r.by == "discard"),
            "liable": sum(1 for r in wins if r.liable == s),
            "refusals": sum(r.refusals[s] for r in recs),
            "points": _num(points),
            "points_per_hand": points / n,
            "max_win": _num(max(pays, default=0.0)),
            "max_loss": _num(min(pays, default=0.0)),
        }

    def points_by_bot(self) -> dict[str, float]:
        """Average points per hand-seat of each bot level."""
        tot: dict[str, float] = {}
        cnt: dict[str, int] = {}
        for s, name in enumerate(self.bots):
            tot[name] = tot.get(name, 0.0) + sum(r.payments[s] for r in self.records)
            cnt[name] = cnt.get(name, 0) + self.hands
        return {k: tot[k] / max(1, cnt[k]) for k in tot}


def _win_kinds(wins: list[HandRecord]) -> dict[str, int]:
    """Wins by self-draw, on a discard, by robbing a kong."""
    return {
        "self_draw_wins": sum(1 for r in wins if r.by == "self_draw"),
        "discard_wins": sum(1 for r in wins if r.by == "discard"),
        "rob_kong_wins": sum(1 for r in wins if r.by == "rob_kong"),
    }


def _big_hand_counts(wins: list[HandRecord], ids: Sequence[str]) -> dict[str, int]:
    """How often each big hand was won (``ids`` first, in their order, from zero)."""
    big: dict[str, int] = {b: 0 for b in ids}
    for r in wins:
        for b in r.big_hands:
            big[b] = big.get(b, 0) + 1
    return big


def _liability(wins: list[HandRecord]) -> dict[str, int]:
    """Wins paid by a liable seat, by kind (抢杠, 清一色 or 全求人)."""
    out: dict[str, int] = {}
    for r in wins:
        if r.liable is not None:
            kind = ("qianggang" if r.by == "rob_kong"
                    else "qingyise" if "qingyise" in r.big_hands else "quanqiuren")
            out[kind] = out.get(kind, 0) + 1
    return out


def _histogram(totals: list[float]) -> dict[str, int]:
    """Winners' takings in the buckets of ``_PAY_BUCKETS``."""
    hist = {f"{lo}-{hi}": 0 for lo, hi in zip(_PAY_BUCKETS, _PAY_BUCKETS[1:], strict=False)}
    hist[f"{_PAY_BUCKETS[-1]}+"] = 0
    for t in totals:
        for lo, hi in zip(_PAY_BUCKETS, _PAY_BUCKETS[1:], strict=False):
            if lo <= t < hi:
                hist[f"{lo}-{hi}"] += 1
                break
        else:
            hist[f"{_PAY_BUCKETS[-1]}+"] += 1
    return hist


def _merge_reasons(recs: list[HandRecord]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in recs:
        for k, v in r.refusal_reasons.items():
            out[k] = out.get(k, 0) + v
    return dict(sorted(out.items()))


def _num(x: float) -> int | float:
    r = round(x, 2)
    return int(r) if r == int(r) else r


def _chunks(n: int, size: int) -> Iterator[list[int]]:
    for start in range(0, n, size):
        yield list(range(start, min(n, start + size)))


def simulate(
    hands: int,
    *,
    preset: str = "kaikoufan",
    rules: RuleSet | None = None,
    bots: Sequence[str] = ("greedy", "greedy", "greedy", "greedy"),
    seed: int | str = 0,
    workers: int = 1,
    log_lines: list[str] | None = None,
    log_writer: Callable[[list[str]], None] | None = None,
    progress: Callable[[int], None] | None = None,
    count_refusals: bool = True,
    ray: bool = False,
    ray_address: str | None = None,
) -> SimResult:
    """Play ``hands`` hands and return their statistics.

    ``bots``: four bot names (seat 0-3). ``workers`` > 1 uses that many processes;
    ``ray=True`` spreads the hands over a Ray cluster (``ray_address``, or a local
    instance when it is ``None``; :mod:`laizi.distributed`); the result depends on
    neither. ``log_writer`` receives each chunk's JSON log
    lines in hand order (``log_lines`` collects them instead). ``progress`` is
    called with the number of hands just finished.
    """
    if len(bots) != 4:
        raise ValueError(f"need four bots (one per seat), got {len(bots)}")
    for name in bots:
        make_bot(name, 0)  # validates the name
    if hands < 0:
        raise ValueError("hands must be >= 0")
    if workers < 1:
        raise ValueError("workers must be >= 1")
    rules = rules or RuleSet.preset(preset)
    names = list(bots)
    want_log = log_lines is not None or log_writer is not None
    result = SimResult(rules.preset_name, names, seed, workers)
    t0 = time.perf_counter()

    def take(recs: list[HandRecord], lines: list[str]) -> None:
        result.records.extend(recs)
        if lines:
            if log_writer is not None:
                log_writer(lines)
            elif log_lines is not None:
                log_lines.extend(lines)
        if progress is not None:
            progress(len(recs))

    if ray:
        from laizi.distributed import ray_map

        rules_d = rules.model_dump()
        jobs = [(rules_d, names, seed, idx, want_log, count_refusals)
                for idx in _chunks(hands, CHUNK)]
        with closing(ray_map(_worker, jobs, address=ray_address)) as results:
            for tuples, lines in results:
                take([HandRecord(*t) for t in tuples], lines)
    elif workers == 1 or hands <= CHUNK:
        for idx in _chunks(hands, CHUNK):
            recs, lines = run_hands(rules, names, seed, idx, want_log=want_log,
                                      count_refusals=count_refusals)
            take(recs, lines)
    else:
        from laizi.distributed import local_pool

        rules_d = rules.model_dump()
        jobs = [(rules_d, names, seed, idx, want_log, count_refusals)
                for idx in _chunks(hands, CHUNK)]
        with local_pool(workers) as pool:
            for tuples, lines in pool.imap(_worker, jobs):
                take([HandRecord(*t) for t in tuples], lines)
    result.seconds = time.perf_counter() - t0
    return result
