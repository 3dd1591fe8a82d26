"""Every SQL statement of the tournaments (synchronous: run in a thread or in the store's
writer thread). Reads build plain dicts; writes are functions of a :class:`Session`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from laizi.server.persistence import db
from laizi.server.persistence.tournamentdb import (
    EntrantRow,
    ResultRow,
    RoundRow,
    TableRow,
    TournamentRow,
)

__all__ = [
    "entrants", "finish_table", "played_hands", "results", "round_rows", "table_rows",
    "tournament", "tournaments",
]

LIST_MAX = 100


def _iso(d: datetime | None) -> str | None:
    if d is None:
        return None
    if d.tzinfo is None:  # SQLite gives naive datetimes back
        d = d.replace(tzinfo=UTC)
    return d.isoformat()


def tournament_json(t: TournamentRow, count: int = 0, bots: int = 0) -> dict[str, Any]:
    """``entrants``: the players who entered; ``bots``: the bots that took the places left
    empty at the start (``bots_fill``) — the list says both (it said 2/8 of a full field)."""
    return {"id": t.id, "name": t.name, "status": t.status, "organiser_id": t.organiser_id,
            "settings": dict(t.settings), "current_round": t.current_round,
            "start_at": _iso(t.start_at), "created_at": _iso(t.created_at),
            "started_at": _iso(t.started_at), "finished_at": _iso(t.finished_at),
            "entrants": count, "bots": bots, "club": t.club_id}


def tournaments(engine: Engine, status: str | None = None, club: int | None = None) -> list[dict[str, Any]]:
    """The latest tournaments: the public ones, or one club's events (``club``)."""
    with Session(engine) as s:
        q = select(TournamentRow).order_by(TournamentRow.id.desc()).limit(LIST_MAX).where(
            TournamentRow.club_id.is_(None) if club is None else TournamentRow.club_id == club)
        # (without a status, not the cancelled: created and cancelled in a loop, they pushed
        # every other tournament off the list)
        q = q.where(TournamentRow.status == status if status else TournamentRow.status != "cancelled")
        rows = list(s.scalars(q))
        counts: dict[tuple[int, bool], int] = {}
        if rows:
            bot = EntrantRow.player_id.is_(None)
            counts = {(tid, bool(is_bot)): n for tid, is_bot, n in s.execute(
                select(EntrantRow.tournament_id, bot, func.count()).where(
                    EntrantRow.tournament_id.in_([r.id for r in rows]))
                .group_by(EntrantRow.tournament_id, bot))}
        return [tournament_json(r, counts.get((r.id, False), 0), counts.get((r.id, True), 0))
                for r in rows]


def tournament(s: Session, tid: int) -> TournamentRow | None:
    return s.get(TournamentRow, tid)


def entrants(s: Session, tid: int, playing_only: bool = False) -> list[dict[str, Any]]:
    q = select(EntrantRow).where(EntrantRow.tournament_id == tid).order_by(EntrantRow.number)
    if playing_only:
        q = q.where(EntrantRow.checked_in == 1)
    return [{"id": e.id, "number": e.number, "player_id": e.player_id, "bot": e.bot,
             "nickname": e.nickname, "checked_in": bool(e.checked_in),
             "registered_at": _iso(e.registered_at)} for e in s.scalars(q)]


def results(s: Session, tid: int) -> list[dict[str, Any]]:
    q = select(ResultRow).where(ResultRow.tournament_id == tid).order_by(ResultRow.round, ResultRow.table,
                                                                          ResultRow.seat)
    return [{"round": r.round, "table": r.table, "entrant_id": r.entrant_id, "seat": r.seat,
             "score": r.score, "best_hand": r.best_hand, "escaped": bool(r.escaped),
             "match_id": r.match_id} for r in s.scalars(q)]


def round_rows(s: Session, tid: int) -> list[RoundRow]:
    return list(s.scalars(select(RoundRow).where(RoundRow.tournament_id == tid).order_by(RoundRow.number)))


def table_rows(s: Session, tid: int, rnd: int | None = None) -> list[TableRow]:
    q = select(TableRow).where(TableRow.tournament_id == tid)
    if rnd is not None:
        q = q.where(TableRow.round == rnd)
    return list(s.scalars(q.order_by(TableRow.round, TableRow.number)))


def played_hands(s: Session, match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The hands each match dealt: number, commitment (from ``start_hand``), dealer, the
    seed revealed at its end and its deltas."""
    out: dict[int, list[dict[str, Any]]] = {m: [] for m in match_ids}
    if not match_ids:
        return out
    rows = s.execute(select(db.HandRow.match_id, db.HandRow.number, db.HandRow.commitment,
                            db.HandRow.dealer, db.HandRow.seed, db.HandRow.result)
                     .where(db.HandRow.match_id.in_(match_ids)).order_by(db.HandRow.match_id,
                                                                          db.HandRow.number))
    for mid, number, com, dealer, seed, result in rows:
        out[mid].append({"number": number, "commitment": com, "dealer": dealer, "seed": seed,
                         "deltas": (result or {}).get("deltas")})
    return out


def finish_table(s: Session, table_id: int) -> bool:
    """Record the result of a table whose match is over (in the writer thread: one
    transaction). False while the match's end is not stored yet; True once recorded."""
    t = s.get(TableRow, table_id)
    if t is None or t.match_id is None:
        return False
    if t.status == "finished":
        return True
    mps = list(s.execute(select(db.MatchPlayerRow.seat, db.MatchPlayerRow.score, db.MatchPlayerRow.escaped,
                                db.MatchPlayerRow.player_id, db.MatchPlayerRow.bot)
                         .where(db.MatchPlayerRow.match_id == t.match_id)
                         .order_by(db.MatchPlayerRow.seat)))
    if len(mps) != 4:
        return False
    best = [0.0] * 4
    for seat, pid, delta in s.execute(select(db.ScoreRow.seat, db.ScoreRow.player_id, db.ScoreRow.delta)
                                      .where(db.ScoreRow.match_id == t.match_id,
                                             db.ScoreRow.kind == "hand")):
        mp = mps[seat]
        if mp.bot is None and pid != mp.player_id:
            continue  # played by the bot after the player escaped
        best[seat] = max(best[seat], float(delta))
    hands = played_hands(s, [t.match_id])[t.match_id]
    t.hands = [{"hand": h["number"], "dealer": h["dealer"], "deltas": h["deltas"]}
               for h in hands if h["deltas"] is not None]
    for seat, eid in enumerate(t.entrants):
        s.add(ResultRow(tournament_id=t.tournament_id, round=t.round, table=t.number,
                        entrant_id=int(eid), seat=seat, score=float(mps[seat].score),
                        best_hand=best[seat], escaped=int(mps[seat].escaped), match_id=t.match_id))
    t.status = "finished"
    return True
