"""A player's hand figures recomputed from the raw event log (figures_from_events), to check the
profile's SQL against."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import select

from laizi.server.persistence import db


def figures_from_events(url: str, match_ids: list[int], seat_of: dict[int, int]) -> dict[str, Any]:
    """A player's hand figures recomputed from the raw event log (not from ``scores``)."""
    eng = db.make_engine(url)
    out: Counter[str] = Counter()
    big: Counter[str] = Counter()
    points = 0.0
    liable = 0.0
    try:
        with eng.connect() as conn:
            for mid in match_ids:
                seat = seat_of[mid]
                rows = conn.execute(select(db.EventRow.kind, db.EventRow.data)
                                    .where(db.EventRow.match_id == mid,
                                           db.EventRow.kind.in_(("win", "end_hand", "escape")))
                                    .order_by(db.EventRow.n)).all()
                win: dict[str, Any] | None = None
                gone = False  # the player escaped: its bot's hands are not its own
                for kind, data in rows:
                    if kind == "win":
                        win = data
                    elif kind == "end_hand" and gone:
                        win = None
                    elif kind == "end_hand":
                        out["hands"] += 1
                        points += data["deltas"][seat]
                        if data["winner"] == seat:
                            out["wins"] += 1
                            assert win is not None
                            out["self_draws"] += win["by"] == "self_draw"
                            big.update(win["score"]["big_hands"])
                        if win is not None and win["score"].get("liable") == seat:
                            liable += -data["deltas"][seat]
                        win = None
                    elif kind == "escape" and data["seat"] == seat:
                        out["escapes"] += 1
                        gone = True
    finally:
        eng.dispose()
    return {**out, "points": round(points, 2), "liability_paid": round(liable, 2),
            "big_hand_counts": dict(sorted(big.items()))}
