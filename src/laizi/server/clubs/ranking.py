"""A club's ranking of one season (积分榜), from the stored scores of the matches played at
the club's tables opened in that season: points (the sum of every hand's and escape's
deltas), matches, hands played and won (the win rate), big hands (大胡) won. A match ended
by 解散 counts with the hands it finished (the hand it cut short is not counted)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from laizi.server.persistence import db
from laizi.server.persistence.clubdb import ClubTableRow

__all__ = ["player_names", "season_opened_tables", "season_ranking"]


def player_names(s: Session, pids: Collection[str],
                 nick: Callable[[str], str | None]) -> dict[str, dict[str, str | None]]:
    """Each player's ``username`` (None: no account) and ``nickname``: the name it chose, the
    one the tables show — as stored (a rename made on another node of a cluster too), else as
    this node knows it (``nick``), else its username."""
    ids = list(set(pids))
    users = dict(s.execute(select(db.AccountRow.player_id, db.AccountRow.username).where(
        db.AccountRow.player_id.in_(ids))).all())
    nicks = dict(s.execute(select(db.PlayerRow.id, db.PlayerRow.nickname).where(
        db.PlayerRow.id.in_(ids))).all())
    return {p: {"username": users.get(p), "nickname": nicks.get(p) or nick(p) or users.get(p) or "?"}
            for p in ids}


def season_opened_tables(s: Session, cid: int, season: int) -> int:
    """How many tables club ``cid`` opened in ``season`` (a season without one has nothing
    for a new season to start over)."""
    return s.scalar(select(func.count()).select_from(ClubTableRow).where(
        ClubTableRow.club_id == cid, ClubTableRow.season == season)) or 0


def season_ranking(s: Session, cid: int, season: int,
                   nick: Callable[[str], str | None]) -> list[dict[str, Any]]:
    """The players of club ``cid``'s tables of ``season``, best first (points, then wins),
    by their nicknames (:func:`player_names`)."""
    codes = select(ClubTableRow.room_code).where(ClubTableRow.club_id == cid,
                                                 ClubTableRow.season == season)
    mids = select(db.MatchRow.id).where(db.MatchRow.room_code.in_(codes))
    rows = s.execute(select(db.ScoreRow.player_id, db.ScoreRow.match_id, db.ScoreRow.hand,
                            db.ScoreRow.kind, db.ScoreRow.delta, db.ScoreRow.won, db.ScoreRow.big).where(
        db.ScoreRow.match_id.in_(mids), db.ScoreRow.player_id.is_not(None))).all()
    # a hand cut short by 解散 paid nothing and is no hand played (the win rate)
    dissolved = {(mid, hand) for mid, hand, data in s.execute(
        select(db.EventRow.match_id, db.EventRow.hand, db.EventRow.data).where(
            db.EventRow.match_id.in_(mids), db.EventRow.kind == "ryukyoku"))
        if isinstance(data, dict) and data.get("reason") == "dissolved"}
    acc: dict[str, dict[str, Any]] = {}
    for player, mid, hand, kind, delta, won, big in rows:
        a = acc.setdefault(str(player), {"points": 0.0, "matches": set(), "hands": 0,
                                         "wins": 0, "big": 0})
        a["points"] += float(delta or 0)
        a["matches"].add(mid)
        if kind == "hand" and (mid, hand) not in dissolved:
            a["hands"] += 1
            a["wins"] += int(won or 0)
            a["big"] += 1 if big else 0
    names = player_names(s, acc, nick)
    table = [{"player_id": p, **names[p],
              "points": round(a["points"], 2), "matches": len(a["matches"]),
              "hands": a["hands"], "wins": a["wins"],
              "win_rate": round(a["wins"] / a["hands"], 3) if a["hands"] else 0.0,
              "big_hands": a["big"]} for p, a in acc.items()]
    table.sort(key=lambda r: (-r["points"], -r["wins"], r["player_id"]))
    for i, r in enumerate(table, 1):
        r["rank"] = i
    return table
