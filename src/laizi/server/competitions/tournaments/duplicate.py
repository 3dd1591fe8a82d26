"""Walls of a round, their commitments, the duplicate comparison and the checks anyone can run.

**Walls.** Every table gets a 32-byte seed from :mod:`secrets`; hand *n* of the table is
dealt from ``hand_seed(seed, n)`` (:func:`laizi.game.wall.hand_seed`, as every match on
the server). In a duplicate round all tables share **one** seed, so hand *n* has the same
wall at every table. Before a round starts, each table's commitments are published — for
hand *n*, ``commitment(hand_seed(seed, n), wall)``, the same value the hand's own
``start_hand`` event carries; the seeds are published when the round is over.

**Checks** (:func:`verify_table`, :func:`verify_round`): the commitments published before
play are those of the hands the table really played (its ``hands`` rows, written from the
``start_hand`` events); once the round is over, the revealed seed derives those
commitments and the seeds revealed at each hand's end; in a duplicate round, every table
has the same commitments and the same seed.

**Duplicate points.** Seat ``s`` of a hand dealt by ``d`` holds the wall's position
``(s - d) % 4`` (0: the dealer's 14 tiles, 1: 下家's, 2: 对家's, 3: 上家's). An entrant's
duplicate points for a round are its final table score minus, for each hand it played,
the field's average result of the same position of the same deal — what it did with its
tiles compared with everyone who held them. They add up to zero over the field.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from laizi.game.wall import commitment, derive_wall, hand_seed

__all__ = ["dup_points", "hand_commitments", "position", "verify_round", "verify_table"]


def hand_commitments(seed: bytes, hands: int) -> list[str]:
    """The commitments of hands 1..``hands`` dealt from a match seed."""
    out = []
    for n in range(1, hands + 1):
        hs = hand_seed(seed, n)
        out.append(commitment(hs, derive_wall(hs)))
    return out


def position(seat: int, dealer: int) -> int:
    """The wall position seat ``seat`` holds in a hand dealt by ``dealer`` (0 = dealer's)."""
    return (seat - dealer) % 4


def dup_points(tables: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    """Duplicate points of one round. ``tables``: ``{"entrants": [4 ids by seat],
    "scores": [4 final scores], "hands": [{"hand", "dealer", "deltas"}]}``."""
    sums: dict[tuple[int, int], float] = defaultdict(float)
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for t in tables:
        for h in t["hands"]:
            for seat in range(4):
                k = (int(h["hand"]), position(seat, int(h["dealer"])))
                sums[k] += float(h["deltas"][seat])
                counts[k] += 1
    out: dict[int, float] = {}
    for t in tables:
        for seat, eid in enumerate(t["entrants"]):
            par = sum(sums[k] / counts[k] for k in
                      ((int(h["hand"]), position(seat, int(h["dealer"]))) for h in t["hands"]))
            out[int(eid)] = out.get(int(eid), 0.0) + float(t["scores"][seat]) - par
    return out


def verify_table(published: Sequence[str], played: Sequence[Mapping[str, Any]],
                 seed_hex: str | None) -> list[str]:
    """Problems found at one table (empty: all good). ``played``: its hands as
    ``{"number", "commitment", "seed"}`` (the seed revealed at the hand's end, if over)."""
    problems = []
    for h in played:
        n = int(h["number"])
        if not 1 <= n <= len(published):
            problems.append(f"hand {n} was not announced")
        elif h.get("commitment") != published[n - 1]:
            problems.append(f"hand {n}: its commitment differs from the one published before play")
    if seed_hex is not None:
        seed = bytes.fromhex(seed_hex)
        if hand_commitments(seed, len(published)) != list(published):
            problems.append("the revealed seed does not derive the published commitments")
        for h in played:
            revealed = h.get("seed")
            if revealed and revealed != hand_seed(seed, int(h["number"])).hex():
                problems.append(f"hand {h['number']}: the seed revealed at its end does not "
                                "derive from the table's seed")
    return problems


def verify_round(tables: Sequence[Mapping[str, Any]], duplicate: bool) -> dict[str, Any]:
    """Check a round: ``tables`` as ``{"number", "commitments", "played", "seed"}``
    (``seed`` None while the round is in play)."""
    problems: list[str] = []
    for t in tables:
        problems += [f"table {t['number']}: {p}" for p in
                     verify_table(t["commitments"], t["played"], t.get("seed"))]
    same = len({tuple(t["commitments"]) for t in tables}) <= 1
    if duplicate and not same:
        problems.append("the tables were not dealt the same walls")
    revealed = all(t.get("seed") is not None for t in tables)
    if duplicate and revealed and len({t["seed"] for t in tables}) > 1:
        problems.append("the tables' seeds differ")
    hands = sum(len(t["played"]) for t in tables)
    return {"ok": not problems, "problems": problems, "same_walls": same, "revealed": revealed,
            "hands_checked": hands}
