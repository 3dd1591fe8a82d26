"""A player's profile: figures over the stored hands and matches, and the match list.

Everything is aggregated in SQL (SQLite and PostgreSQL alike) from

- ``scores`` rows of kind ``hand`` (one per seat per finished hand, with the per-hand figures
  ``won``, ``self_draw``, ``big``, ``liable_paid``; rows stored before schema 3 have none of
  those and count as hands without a win), and rows of kind ``escape<seat>`` (an escape of
  ``seat``: the player escaped when it sat on that seat);
- ``match_players`` (one row per seat of each finished match: final score and place);
- ``ratings`` / ``rating_changes`` (rated rooms, :mod:`laizi.server.accounts.ratings`);
- ``avatars`` (the picture shown beside the name, :mod:`laizi.server.accounts.avatars`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Float, String, Text, and_, case, cast, func, literal, select
from sqlalchemy.engine import Connection

from laizi.server.accounts.avatars import DRAWN, default_choice
from laizi.server.accounts.ranks import rank_json, rank_of
from laizi.server.accounts.ratings import ordinal
from laizi.server.persistence import db

__all__ = ["MATCH_LIST_MAX", "avatar_of", "profile"]

MATCH_LIST_MAX = 100  # matches listed per request

_T = db.Base.metadata.tables
SCORES = _T["scores"]
MP = _T["match_players"]
MATCHES = _T["matches"]
ROOMS = _T["rooms"]
CHANGES = _T["rating_changes"]
AVATARS = _T["avatars"]


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def _hand_figures(conn: Connection, pid: str) -> dict[str, Any]:
    delta = cast(cast(SCORES.c.delta, Text), Float)
    mine = and_(SCORES.c.player_id == pid, SCORES.c.kind == "hand")
    row = conn.execute(select(
        func.count(), func.coalesce(func.sum(SCORES.c.won), 0),
        func.coalesce(func.sum(SCORES.c.self_draw), 0), func.coalesce(func.sum(delta), 0.0),
        func.coalesce(func.sum(SCORES.c.liable_paid), 0.0),
    ).where(mine)).one()
    hands, wins, tsumo, points, liable = int(row[0]), int(row[1]), int(row[2]), float(row[3]), float(row[4])
    big: Counter[str] = Counter()
    for (names,) in conn.execute(select(SCORES.c.big).where(mine, SCORES.c.big.is_not(None))):
        big.update(n for n in str(names).split(",") if n)
    escapes = conn.execute(select(func.count()).where(
        SCORES.c.player_id == pid,
        SCORES.c.kind == literal("escape", String) + cast(SCORES.c.seat, String))).scalar() or 0
    return {"hands": hands, "wins": wins, "win_rate": _ratio(wins, hands),
            "self_draws": tsumo, "self_draw_share": _ratio(tsumo, wins),
            "points": round(points, 2), "points_per_hand": _ratio(points, hands),
            "liability_paid": round(liable, 2), "big_hands": sum(big.values()),
            "big_hand_counts": dict(sorted(big.items())), "escapes": int(escapes)}


def _match_figures(conn: Connection, pid: str) -> dict[str, Any]:
    row = conn.execute(select(
        func.count(), func.coalesce(func.sum(case((MP.c.place == 1, 1), else_=0)), 0),
        func.avg(MP.c.place), func.coalesce(func.sum(MP.c.rated), 0),
    ).where(MP.c.player_id == pid)).one()
    return {"matches": int(row[0]), "firsts": int(row[1]),
            "average_place": None if row[2] is None else round(float(row[2]), 3),
            "rated_matches": int(row[3])}


@dataclass(frozen=True)
class MatchFilter:
    """What the profile's match list keeps: a rule set (preset), a result (``win``: first
    place, ``loss``: any other, ``escaped``), finished on or after ``since`` / before ``until``
    (UTC datetimes)."""

    preset: str | None = None
    result: str | None = None
    since: datetime | None = None
    until: datetime | None = None


RESULTS = ("win", "loss", "escaped")


def match_list(conn: Connection, pid: str, limit: int = 20, before: int | None = None,
               only: MatchFilter | None = None) -> list[dict[str, Any]]:
    """The player's finished matches, newest first (``before``: match ids below it;
    ``only``: a filter, all in SQL on indexed keys: one page at most is read)."""
    preset = func.coalesce(ROOMS.c.settings["preset"].as_string(), "kaikoufan")
    q = (select(MP.c.match_id, MP.c.seat, MP.c.score, MP.c.place, MP.c.rated, MP.c.escaped,
                MATCHES.c.room_code, MATCHES.c.finished_at, preset.label("preset"),
                CHANGES.c.mu_before, CHANGES.c.sigma_before, CHANGES.c.mu_after, CHANGES.c.sigma_after)
         .join(MATCHES, MATCHES.c.id == MP.c.match_id)
         .join(ROOMS, ROOMS.c.code == MATCHES.c.room_code, isouter=True)
         .join(CHANGES, and_(CHANGES.c.match_id == MP.c.match_id, CHANGES.c.player_id == pid),
               isouter=True)
         .where(MP.c.player_id == pid)
         .order_by(MP.c.match_id.desc()).limit(min(max(limit, 1), MATCH_LIST_MAX)))
    if before is not None:
        q = q.where(MP.c.match_id < before)
    if only is not None:
        if only.preset is not None:
            q = q.where(preset == only.preset)
        if only.result == "win":
            q = q.where(MP.c.place == 1)
        elif only.result == "loss":
            q = q.where(MP.c.place > 1)
        elif only.result == "escaped":
            q = q.where(MP.c.escaped != 0)
        if only.since is not None:
            q = q.where(MATCHES.c.finished_at >= only.since)
        if only.until is not None:
            q = q.where(MATCHES.c.finished_at < only.until)
    out = []
    for r in conn.execute(q):
        item: dict[str, Any] = {
            "match_id": r.match_id, "room": r.room_code, "preset": r.preset, "seat": r.seat, "score": r.score,
            "place": r.place, "rated": bool(r.rated), "escaped": bool(r.escaped),
            "finished_at": r.finished_at.isoformat() if r.finished_at else None,
            "replay": f"/replay/{r.match_id}", "replay_api": f"/api/matches/{r.match_id}/replay"}
        if r.mu_after is not None:
            item["rating_change"] = round(ordinal(r.mu_after, r.sigma_after)
                                          - ordinal(r.mu_before, r.sigma_before), 3)
        out.append(item)
    return out


def avatar_of(conn: Connection, pid: str) -> dict[str, Any]:
    """The player's avatar as ``GET /api/avatar`` describes it: ``kind`` (``upload``, ``drawn``
    or ``default``), ``choice`` (the drawn picture shown, or None for an upload) and ``url``
    (``/avatars/{id}?v=<version>``: a new URL after each change, so caches never show an old one)."""
    row = conn.execute(select(AVATARS.c.choice, AVATARS.c.etag, AVATARS.c.image.is_not(None).label("up"))
                       .where(AVATARS.c.player_id == pid)).first()
    if row is not None and row.up:
        return {"kind": "upload", "choice": None, "url": f"/avatars/{pid}?v={row.etag}"}
    choice = row.choice if row is not None and row.choice in DRAWN else None
    shown = choice or default_choice(pid)
    return {"kind": "drawn" if choice else "default", "choice": shown, "url": f"/avatars/{pid}?v=d-{shown}"}


def profile(conn: Connection, pid: str, limit: int = 20, before: int | None = None,
            only: MatchFilter | None = None) -> dict[str, Any] | None:
    """Everything shown of a player (None: no such player)."""
    players, accounts, ratings = _T["players"], _T["accounts"], _T["ratings"]
    p = conn.execute(select(players.c.id, players.c.nickname, players.c.created_at,
                            accounts.c.username)
                     .join(accounts, accounts.c.player_id == players.c.id, isouter=True)
                     .where(players.c.id == pid)).first()
    if p is None:
        return None
    r = conn.execute(select(ratings.c.mu, ratings.c.sigma, ratings.c.ordinal, ratings.c.matches)
                     .where(ratings.c.player_id == pid)).first()
    rating = None
    if r is not None:
        # the leaderboard's place: by rating, equal ratings by player id (accounts.ratings)
        rank = conn.execute(select(func.count()).select_from(ratings)
                            .where((ratings.c.ordinal > r.ordinal)
                                   | ((ratings.c.ordinal == r.ordinal)
                                      & (ratings.c.player_id < pid)))).scalar() or 0
        rating = {"rating": round(r.ordinal, 2), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                  "matches": r.matches, "rank": int(rank) + 1}
    tier = rank_json(rank_of(None if r is None else float(r.ordinal)))  # 段位 (accounts.ranks)
    return {"player_id": p.id, "nickname": p.nickname, "username": p.username,
            "registered": p.username is not None, "avatar": avatar_of(conn, p.id),
            "since": p.created_at.isoformat() if p.created_at else None,
            "figures": {**_match_figures(conn, pid), **_hand_figures(conn, pid)},
            "rating": rating, "tier": tier, "recent": match_list(conn, pid, limit, before, only)}
