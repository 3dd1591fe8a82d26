"""Standings from table results (pure; no database).

Order: **points** (the sum of an entrant's final table scores, escape penalties included;
in a duplicate tournament the duplicate points, :func:`laizi.server.competitions.tournaments.duplicate.dup_points`),
then **best hand** (the biggest single hand it won), then **head-to-head** among the entrants
still tied (at each table two of them shared, the higher final score beats the lower:
wins minus losses), then entry number (earlier entry first), so the order is total.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["head_to_head", "rank"]


def head_to_head(group: set[int], results: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Wins minus losses of each entrant of ``group`` against the others of ``group``, at
    the tables they shared (equal scores count for neither)."""
    by_table: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    for r in results:
        if r["entrant_id"] in group:
            by_table[(r["round"], r["table"])].append((r["entrant_id"], float(r["score"])))
    out = dict.fromkeys(group, 0)
    for rows in by_table.values():
        for a, sa in rows:
            for b, sb in rows:
                if a != b and sa > sb:
                    out[a] += 1
                    out[b] -= 1
    return out


def rank(entrants: Sequence[Mapping[str, Any]], results: Sequence[Mapping[str, Any]],
         dup: Mapping[int, float] | None = None) -> list[dict[str, Any]]:
    """The standings: one row per entrant, best first, with ``rank`` (1, 2, 3…)."""
    rows: dict[int, dict[str, Any]] = {}
    for e in entrants:
        rows[e["id"]] = {"entrant_id": e["id"], "number": e["number"], "nickname": e["nickname"],
                         "player_id": e.get("player_id"), "bot": e.get("bot"),
                         "points": 0.0, "best_hand": 0.0, "rounds": {}, "escapes": 0,
                         "tables": 0}
    for r in results:
        row = rows.get(r["entrant_id"])
        if row is None:
            continue
        row["points"] += float(r["score"])
        row["best_hand"] = max(row["best_hand"], float(r["best_hand"]))
        row["rounds"][r["round"]] = float(r["score"])
        row["escapes"] += int(bool(r.get("escaped")))
        row["tables"] += 1
    for row in rows.values():
        row["points"] = round(row["points"], 4)
        if dup is not None:
            row["dup_points"] = round(float(dup.get(row["entrant_id"], 0.0)), 4)
    primary = "dup_points" if dup is not None else "points"

    def key(row: dict[str, Any]) -> tuple[float, float]:
        return (-row[primary], -row["best_hand"])

    groups: dict[tuple[float, float], set[int]] = defaultdict(set)
    for eid, row in rows.items():
        groups[key(row)].add(eid)
    for group in groups.values():
        h2h = head_to_head(group, results) if len(group) > 1 else dict.fromkeys(group, 0)
        for eid in group:
            rows[eid]["h2h"] = h2h[eid]
    out = sorted(rows.values(), key=lambda r: (*key(r), -r["h2h"], r["number"]))
    for i, row in enumerate(out, 1):
        row["rank"] = i
        row["rounds"] = [row["rounds"].get(k) for k in sorted(row["rounds"])]
    return out
