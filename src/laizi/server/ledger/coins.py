"""Game coins (游戏币): levels (场次), balances kept as a ledger, the settlement of hands
and escapes at coin tables, the welcome grant and the free daily top-up. No real money.

- **Levels** (:data:`LEVELS`): 新手场 ``novice`` (stake 0: no coins change hands; guests
  welcome), 初级场 ``junior`` and 高级场 ``senior`` (a stake per point and a minimum balance
  to enter; registered players only — a guest has no coins).
- **Balance** = the sum of the player's ``coin_ledger`` entries; each entry also stores the
  balance after it. Entries have a unique ``key`` (``h:{match}:{hand}:{player}``,
  ``e:{match}:{seat}:{player}``, ``daily:{player}:{day}``, ``welcome:{player}``), so nothing is
  applied twice, and a settlement is written in the same transaction as the hand's scores
  (:func:`settle_progress`, called by :mod:`laizi.server.persistence.store`).
- **Settlement** of a hand at a coin table: each seat is owed ``points × stake`` (rounded).
  A human pays at most its balance (never below zero: 扣尽); the winners then share what
  was paid, in proportion to what they were owed. Bots have no coins: a bot seat (or the
  bot playing for a player who escaped) settles against the **house** account
  (:data:`HOUSE`), which also takes rounding remainders — so humans + house are exactly
  zero-sum, and among four humans the house never moves.
- **Escape** (逃跑) at a coin table: the rules' escape penalty × stake, taken down to zero
  at most (扣尽, as the sources say: 扣相应的游戏币(扣尽)), shared by the other seats.
- **Welcome** :data:`WELCOME_COINS` once per account (on its first coin call), **daily**
  :data:`DAILY_COINS` once per UTC day (``POST /api/coins/daily``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import delete, func, select, text
from sqlalchemy.engine import Connection

from laizi.server.common import protocol as proto
from laizi.server.common.errors import ApiError
from laizi.server.persistence import socialdb

if TYPE_CHECKING:
    from laizi.server.persistence.store import Store


class Progress(Protocol):
    """What :func:`settle_progress` reads of :class:`laizi.server.persistence.store.Progress`."""

    match_id: int
    room_code: str
    hands: list[dict[str, Any]]
    escapes: list[tuple[int, list[Any]]]
    hand_no: int
    seat_pids: list[str | None]
    escaped: frozenset[int]
    over: bool
    coin_results: list[dict[str, Any]]

__all__ = [
    "DAILY_COINS", "HOUSE", "LEVELS", "WELCOME_COINS", "CoinError", "Level", "balances",
    "claim_daily", "grant_welcome", "ledger", "level_json", "lock_players", "post", "register",
    "release_seats", "seat_of", "settle", "settle_progress", "split", "table_info", "take_seats",
]

HOUSE = "_house"        # the account bots settle against (not a player)
WELCOME_COINS = 5000    # once per account
DAILY_COINS = 2000      # once per UTC day per account
LEDGER_MAX = 100        # entries per ledger page

LEDGER = socialdb.Base.metadata.tables["coin_ledger"]
TABLES = socialdb.Base.metadata.tables["coin_tables"]
SEATS = socialdb.Base.metadata.tables["coin_seats"]


class CoinError(ApiError):
    """A refused coin request: ``message`` for the client, an HTTP ``status``; ``refused``:
    the players it was refused for (a coin seat)."""

    def __init__(self, message: str, status: int = 400, refused: Sequence[str] = ()) -> None:
        super().__init__(message, status)
        self.refused = list(refused)


@dataclass(frozen=True)
class Level:
    name: str
    label: str          # shown in the lobby
    stake: int          # coins per point (0: no coins)
    min_balance: int    # coins needed to enter
    guests: bool        # guests may play here


LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("novice", "新手场", 0, 0, True),
    Level("junior", "初级场", 10, 1000, False),
    Level("senior", "高级场", 50, 10000, False),
)}


def level_json(lv: Level) -> dict[str, Any]:
    return {"name": lv.name, "label": lv.label, "stake": lv.stake, "min_balance": lv.min_balance,
            "guests": lv.guests}


def table_info(name: str) -> dict[str, Any]:
    """The 场次 of a quick-match table as the room info shows it (``Room.coin``)."""
    lv = LEVELS[name]
    return {"level": lv.name, "label": lv.label, "stake": lv.stake}


# ---------------------------------------------------------------------- pure
def split(owed: Sequence[int], caps: Sequence[int | None]) -> list[int]:
    """Coins each seat gets (+) or pays (-): ``owed`` (zero-sum) capped by what the payers
    hold (``caps[i]``: the most seat ``i`` can pay; ``None``: no limit). Winners share what
    was paid in proportion to what they were owed (floors; the remainder to the first
    winner). The result is zero-sum and no payer pays beyond its cap."""
    if sum(owed) != 0:
        raise ValueError(f"owed must be zero-sum: {list(owed)}")
    paid = []
    for o, cap in zip(owed, caps, strict=True):
        want = -o if o < 0 else 0
        paid.append(want if cap is None else min(want, max(0, cap)))
    total_paid = sum(paid)
    total_won = sum(o for o in owed if o > 0)
    if total_paid >= total_won:
        gains = [max(o, 0) for o in owed]
    else:
        gains = [o * total_paid // total_won if o > 0 else 0 for o in owed]
        rest = total_paid - sum(gains)
        first = next(i for i, o in enumerate(owed) if o > 0)
        gains[first] += rest
    return [g - p for g, p in zip(gains, paid, strict=True)]


# ---------------------------------------------------------------------- SQL
def lock_players(conn: Connection, pids: Sequence[str]) -> None:
    """Hold the balances of ``pids`` until the transaction ends: every read-then-write of a
    balance (a settlement, a grant, a coin seat's stake check) goes through here first, so
    two nodes settling for one player at once take turns. PostgreSQL: transaction-level
    advisory locks, in a fixed order (no deadlock); SQLite has one writer at a time."""
    if conn.dialect.name != "postgresql":
        return
    for pid in sorted(set(pids)):
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
                     {"k": f"laizi:coins:{pid}"})


def balances(conn: Connection, pids: Sequence[str]) -> dict[str, int]:
    """Current balances (0 for a player without entries)."""
    out = dict.fromkeys(pids, 0)
    if not pids:
        return out
    rows = conn.execute(select(LEDGER.c.player_id, func.sum(LEDGER.c.delta))
                        .where(LEDGER.c.player_id.in_(list(set(pids))))
                        .group_by(LEDGER.c.player_id)).all()
    for pid, total in rows:
        out[pid] = int(total or 0)
    return out


def post(conn: Connection, entries: Sequence[dict[str, Any]]) -> bool:
    """Insert ledger entries (``player_id, delta, reason, match_id?, hand?, key``), all or
    none: False (nothing written) when any key is there already."""
    if not entries:
        return False
    keys = [e["key"] for e in entries]
    lock_players(conn, [e["player_id"] for e in entries if e["player_id"] != HOUSE])
    if conn.execute(select(LEDGER.c.key).where(LEDGER.c.key.in_(keys)).limit(1)).first():
        return False
    bal = balances(conn, [e["player_id"] for e in entries])
    now = datetime.now(UTC)
    rows = []
    for e in entries:
        bal[e["player_id"]] += int(e["delta"])
        rows.append({"player_id": e["player_id"], "delta": int(e["delta"]),
                     "balance": bal[e["player_id"]], "reason": e["reason"],
                     "match_id": e.get("match_id"), "hand": e.get("hand"), "key": e["key"],
                     "created_at": now})
    conn.execute(LEDGER.insert(), rows)
    return True


def settle(conn: Connection, points: Sequence[Any], pids: Sequence[str | None], stake: int, *,
           reason: str, match_id: int, hand: int | None, key: str) -> list[int]:
    """Settle one hand or escape: ``points[i]`` of seat ``i`` held by ``pids[i]`` (None: a
    bot, settled with the house). The coins each seat got (+) or paid (-); written once
    (``key`` names the settlement: ``h:{match}:{hand}`` or ``e:{match}:{seat}``)."""
    owed = [int(round(float(p) * stake)) for p in points]
    humans = [p for p in pids if p is not None]
    lock_players(conn, humans)
    bal = balances(conn, humans)
    caps: list[int | None] = [None if p is None else bal[p] for p in pids]
    residual = -sum(owed)  # rounding: the house takes it
    if residual:
        owed.append(residual)
        caps.append(None)
    coins = split(owed, caps)
    per: dict[str, int] = {}
    for i, c in enumerate(coins):
        pid = pids[i] if i < len(pids) else None
        who = HOUSE if pid is None else pid
        per[who] = per.get(who, 0) + c
    entries = [{"player_id": who, "delta": c, "reason": reason, "match_id": match_id,
                "hand": hand, "key": f"{key}:{who}"} for who, c in per.items() if c]
    if not entries and any(owed):
        # Points were owed but nothing moved (the losers held no coins): the house's zero
        # entry records that the settlement ran, so `laizi check` tells it from one missed.
        entries = [{"player_id": HOUSE, "delta": 0, "reason": reason, "match_id": match_id,
                    "hand": hand, "key": f"{key}:{HOUSE}"}]
    if entries:
        post(conn, entries)
    return coins[:len(pids)]


def seat_of(conn: Connection, pid: str) -> str | None:
    """The coin table ``pid`` sits at while its match is in play (None: none)."""
    v = conn.execute(select(SEATS.c.room_code).where(SEATS.c.player_id == pid)).scalar()
    return None if v is None else str(v)


def take_seats(conn: Connection, room_code: str, pids: Sequence[str], min_balance: int) -> None:
    """Seat ``pids`` at coin table ``room_code`` for a new match: each must hold
    ``min_balance`` and no coin seat at another table — checked and taken in this one
    transaction, the balances locked (:func:`lock_players`), so two nodes cannot both seat
    one player. Raises :class:`CoinError` (``refused``: who) and takes nothing otherwise."""
    pids = sorted(set(pids))
    if not pids:
        return
    lock_players(conn, pids)
    bal = balances(conn, pids)
    held = dict(conn.execute(select(SEATS.c.player_id, SEATS.c.room_code)
                             .where(SEATS.c.player_id.in_(pids))).all())
    elsewhere = [p for p in pids if held.get(p) not in (None, room_code)]
    poor = [p for p in pids if bal[p] < min_balance]
    if elsewhere or poor:
        why = []
        if elsewhere:
            why.append("already at another coin table: " + ", ".join(
                f"{p} (room {held[p]})" for p in elsewhere))
        if poor:
            why.append(f"below the table's {min_balance} coins: " + ", ".join(
                f"{p} ({bal[p]})" for p in poor))
        raise CoinError("; ".join(why), 409, refused=elsewhere + poor)
    new = [p for p in pids if held.get(p) is None]
    if new:
        now = datetime.now(UTC)
        conn.execute(SEATS.insert(), [{"player_id": p, "room_code": room_code, "created_at": now}
                                      for p in new])


def release_seats(conn: Connection, room_code: str, pids: Sequence[str] | None = None) -> None:
    """Let go of the coin seats at ``room_code`` (its match ended), or of ``pids`` only (they
    escaped)."""
    q = delete(SEATS).where(SEATS.c.room_code == room_code)
    if pids is not None:
        q = q.where(SEATS.c.player_id.in_(list(pids)))
    conn.execute(q)


def table_stake(conn: Connection, room_code: str) -> int:
    """The stake of a coin table (0: not one)."""
    v = conn.execute(select(TABLES.c.stake).where(TABLES.c.room_code == room_code)).scalar()
    return int(v or 0)


def settle_progress(conn: Connection, p: Progress) -> None:
    """The hook in :func:`laizi.server.persistence.store._progress_rest`: the hands that ended and the
    escapes in ``p`` settle in coins, in the same transaction, when the room is a coin table;
    the coin seats of a match that ended, and of a player who escaped, are let go."""
    p.coin_results.clear()  # a batch retried write by write runs this again: only the last counts
    ends = [h for h in p.hands if h.get("end") is not None]
    over = p.over
    if not ends and not p.escapes and not over:
        return
    stake = table_stake(conn, p.room_code)
    if stake <= 0:
        return
    for seat, deltas in p.escapes:
        pids = [p.seat_pids[s] if s == seat or s not in p.escaped else None for s in range(4)]
        got = settle(conn, deltas, pids, stake, reason="escape", match_id=p.match_id,
                     hand=p.hand_no, key=f"e:{p.match_id}:{seat}")
        _note(conn, p, "escape", p.hand_no, got, pids, stake)
        who = p.seat_pids[seat]
        if who is not None:
            release_seats(conn, p.room_code, [who])
    for hr in ends:
        deltas = hr["end"].get("deltas") or []
        if len(deltas) != 4:
            continue
        pids = [None if s in p.escaped else p.seat_pids[s] for s in range(4)]
        got = settle(conn, deltas, pids, stake, reason="hand", match_id=p.match_id,
                     hand=hr["number"], key=f"h:{p.match_id}:{hr['number']}")
        _note(conn, p, "hand", int(hr["number"]), got, pids, stake)
    if over:
        release_seats(conn, p.room_code)


def _note(conn: Connection, p: Progress, reason: str, hand: int, got: Sequence[int],
          pids: Sequence[str | None], stake: int) -> None:
    """What a settlement gave each seat, and each player's balance after it (for the table:
    :meth:`laizi.server.tables.room.Room._persist` tells the seats)."""
    humans = [x for x in pids if x is not None]
    p.coin_results.append({"reason": reason, "hand": hand, "stake": stake, "coins": list(got),
                           "balances": balances(conn, humans) if humans else {}})


def news(res: dict[str, Any], match_id: int, pid: str | None) -> dict[str, Any]:
    """The ``coins`` message of one settlement for the connection of ``pid``: every seat's
    coins (public, like the points), and the balance after it of ``pid`` only."""
    return proto.coins(match_id, res["reason"], res["hand"], res["stake"], res["coins"],
                   res["balances"].get(pid) if pid is not None else None)


def grant_welcome(conn: Connection, pid: str) -> bool:
    """The one welcome grant of an account (False: granted before)."""
    return post(conn, [{"player_id": pid, "delta": WELCOME_COINS, "reason": "welcome",
                        "key": f"welcome:{pid}"}])


def claim_daily(conn: Connection, pid: str, day: date) -> bool:
    """The daily top-up of ``day`` (UTC); False when it was claimed already."""
    return post(conn, [{"player_id": pid, "delta": DAILY_COINS, "reason": "daily",
                        "key": f"daily:{pid}:{day.isoformat()}"}])


def claimed(conn: Connection, pid: str, day: date) -> bool:
    k = f"daily:{pid}:{day.isoformat()}"
    return conn.execute(select(LEDGER.c.id).where(LEDGER.c.key == k)).first() is not None


def ledger(conn: Connection, pid: str, limit: int = 50, before: int | None = None) -> list[dict[str, Any]]:
    """The player's newest entries first (``before``: entries with a smaller id)."""
    q = select(LEDGER).where(LEDGER.c.player_id == pid)
    if before is not None:
        q = q.where(LEDGER.c.id < before)
    rows = conn.execute(q.order_by(LEDGER.c.id.desc()).limit(min(limit, LEDGER_MAX))).mappings()
    return [{"id": r["id"], "delta": r["delta"], "balance": r["balance"], "reason": r["reason"],
             "match_id": r["match_id"], "hand": r["hand"],
             "at": r["created_at"].isoformat() if r["created_at"] else None} for r in rows]


def next_day_in(now: datetime) -> int:
    """Seconds until the next UTC day (when the daily top-up can be claimed again)."""
    nxt = datetime(now.year, now.month, now.day, tzinfo=UTC).timestamp() + 86400
    return max(0, math.ceil(nxt - now.timestamp()))


def register(store: Store) -> None:
    """Settle coin tables in the transaction that stores their hands and escapes."""
    store.hooks.progress.append(settle_progress)
