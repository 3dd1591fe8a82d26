"""Skill ratings of rated rooms: ``openskill``'s Plackett-Luce model, one update per match.

A room created with ``settings.rated`` (and no fixed deal: whoever chose the seed knows every
wall) is rated: when its match finishes, the **registered** players' final places (by final
score, ties sharing a place) update their ratings. Guests, bots and 托管 seats of nobody are
not rated and do not count as opponents (one account with three throwaway guests gains
nothing); a match changes ratings only when at least two registered players played it to the
end. A registered player who escaped is rated last, whatever its score.

A rating is ``(mu, sigma)``, starting at the model's defaults (25, 25/3); the leaderboard
orders by ``ordinal = mu - 3 sigma`` (openskill's conservative estimate). The update runs in
the same transaction that stores the match's end (:mod:`laizi.server.persistence.store`) and at most
once per match (``rating_changes`` is unique per match and player).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from laizi.server.accounts.ranks import rank_json, rank_of
from laizi.server.persistence import db
from laizi.server.persistence.store import Progress, Store, places

__all__ = ["LEADERBOARD_MAX", "MODEL", "apply_match", "leaderboard", "places", "rate", "rate_finished",
           "register"]

MODEL = PlackettLuce()
LEADERBOARD_MAX = 100  # rows per leaderboard page

_T = db.Base.metadata.tables
RATINGS = _T["ratings"]
ROOMS = _T["rooms"]
ACCOUNTS = _T["accounts"]
CHANGES = _T["rating_changes"]


def register(store: Store) -> None:
    """Rate finished rated matches in the transaction that stores their end."""
    store.hooks.rate = rate_finished


def rate_finished(conn: Connection, p: Progress, seats: list[dict[str, Any]],
                  scores: list[float], place: list[int]) -> set[int]:
    """The store's rating hook: a match just finished (``seats`` as stored, final
    ``scores`` and ``place``): if its room is rated, the ratings of its rated seats are
    updated (:func:`apply_match`); the seats rated."""
    settings = conn.execute(select(ROOMS.c.settings).where(ROOMS.c.code == p.room_code)).scalar()
    settings = settings if isinstance(settings, dict) else {}
    rated = bool(settings.get("rated")) and settings.get("seed") is None
    # Rated: registered players only (a throwaway guest neither gains nor feeds a rating),
    # and only when at least two of them played to the end; one who escaped is rated last.
    pids = [st.get("player_id") for st in seats]
    registered = set(conn.execute(select(ACCOUNTS.c.player_id)
                                  .where(ACCOUNTS.c.player_id.in_([x for x in pids if x]))).scalars())
    rated_seats = [i for i, st in enumerate(seats)
                   if pids[i] in registered and (st.get("escaped") or not st.get("bot"))]
    finished = [i for i in rated_seats if not seats[i].get("escaped")]
    if not (rated and len({pids[i] for i in finished}) >= 2):
        return set()
    last = len(seats)
    humans = [(str(pids[i]), last if seats[i].get("escaped") else place[i]) for i in rated_seats]
    apply_match(conn, p.match_id, humans)
    return set(rated_seats)


def rate(before: Sequence[tuple[float, float] | None], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` of each player (``None``: a new player) after one match in which
    they finished at ``ranks`` (1 = first; ties allowed). Each player is a team of one."""
    teams = [[MODEL.rating() if b is None else MODEL.rating(mu=b[0], sigma=b[1])] for b in before]
    out = MODEL.rate(teams, ranks=list(ranks))
    return [(float(t[0].mu), float(t[0].sigma)) for t in out]


def ordinal(mu: float, sigma: float) -> float:
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def apply_match(conn: Connection, match_id: int, humans: Sequence[tuple[str, int]]) -> int:
    """Update the ratings of ``humans`` (player id, place) after match ``match_id``; the
    number of ratings changed (0 when fewer than two humans, or already applied)."""
    by_pid: dict[str, int] = {}
    for pid, place in humans:
        by_pid[pid] = min(place, by_pid.get(pid, place))  # one player on two seats: best place
    if len(by_pid) < 2:
        return 0
    done = conn.execute(select(func.count()).select_from(CHANGES)
                        .where(CHANGES.c.match_id == match_id)).scalar()
    if done:
        return 0
    pids = sorted(by_pid)
    have = {r.player_id: (r.mu, r.sigma, r.matches) for r in conn.execute(
        select(RATINGS.c.player_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.matches)
        .where(RATINGS.c.player_id.in_(pids)))}
    before = [(have[p][0], have[p][1]) if p in have else None for p in pids]
    after = rate(before, [by_pid[p] for p in pids])
    now = datetime.now(UTC)
    default = MODEL.rating()
    changes: list[dict[str, Any]] = []
    for pid, b, (mu, sigma) in zip(pids, before, after, strict=True):
        values = {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "updated_at": now}
        if pid in have:
            conn.execute(RATINGS.update().where(RATINGS.c.player_id == pid)
                         .values(**values, matches=have[pid][2] + 1))
        else:
            conn.execute(RATINGS.insert().values(player_id=pid, matches=1, **values))
        mu0, sigma0 = b if b is not None else (float(default.mu), float(default.sigma))
        changes.append({"match_id": match_id, "player_id": pid, "place": by_pid[pid],
                        "mu_before": mu0, "sigma_before": sigma0, "mu_after": mu,
                        "sigma_after": sigma})
    conn.execute(CHANGES.insert(), changes)
    return len(changes)


def leaderboard(conn: Connection, limit: int = LEADERBOARD_MAX, offset: int = 0) -> list[dict[str, Any]]:
    """The rated players by ordinal, best first (one indexed range scan plus a join by key)."""
    players = _T["players"]
    accounts = _T["accounts"]
    q = (select(RATINGS.c.player_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.ordinal,
                RATINGS.c.matches, players.c.nickname, accounts.c.username)
         .join(players, players.c.id == RATINGS.c.player_id, isouter=True)
         .join(accounts, accounts.c.player_id == RATINGS.c.player_id, isouter=True)
         .order_by(RATINGS.c.ordinal.desc(), RATINGS.c.player_id)
         .limit(limit).offset(offset))
    return [{"rank": offset + i + 1, "player_id": r.player_id, "nickname": r.nickname,
             "username": r.username, "rating": round(r.ordinal, 2), "mu": round(r.mu, 3),
             "sigma": round(r.sigma, 3), "matches": r.matches, "tier": rank_json(rank_of(r.ordinal))}
            for i, r in enumerate(conn.execute(q))]
