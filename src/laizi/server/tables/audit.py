"""``laizi check --db URL``: an integrity audit of a server's database, runnable at any time
(the server may be running; it only reads). Where two reads are compared, the one a live
server's next commit can only lengthen harmlessly is read last (a match's events before its
journal, the hands' scores before the coin ledger): a commit landing between them is never
taken for damage.

What it checks (each problem is one line; :func:`audit` returns them):

- **journal → events**: every match's journal (``actions``, numbered 1..N without a gap)
  replays through the engine to exactly its stored ``events`` (numbered 1..M), event for
  event; a match in play may have fewer stored events than its replay only if none is
  missing in between (the writer stores a journal entry and its events together, so in
  practice they are equal).
- **hands**: every hand begun in the events has its ``hands`` row, every hand ended has its
  result; a finished match ended its last hand.
- **coins**: every hand or escape settlement at a coin table (ledger entries of one key
  ``h:{match}:{hand}`` / ``e:{match}:{seat}``) is zero-sum with the house; every hand that
  ended at a coin table settled; every player's ledger runs: each entry's ``balance`` is
  the sum of the player's deltas up to it, and never below zero (the house excepted).
- **coin seats**: no player holds two coin seats (``coin_seats``), and no player sits (not
  escaped) in two unfinished matches of coin tables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.engine import Engine

from laizi.server.ledger import coins
from laizi.server.persistence import db

__all__ = ["audit"]


def audit(engine: Engine, *, progress: Callable[[int, int], None] | None = None) -> list[str]:
    """Every integrity problem of the database (empty: none). ``progress(done, total)``
    is called as matches are replayed."""
    problems: list[str] = []
    with engine.connect() as conn:
        have = set(inspect(conn).get_table_names())
        if "matches" not in have:
            return [f"not a laizi database (no matches table; tables: {', '.join(sorted(have)) or 'none'})"]
        problems += list(_matches(conn, progress))
        if {"coin_ledger", "coin_tables"} <= have:
            problems += list(_coins(conn))
        if {"coin_seats", "coin_tables"} <= have:  # revision 0007 on
            problems += list(_coin_seats(conn))
    return problems


def _matches(conn: Any, progress: Callable[[int, int], None] | None) -> Iterator[str]:
    from laizi.game.errors import GameError
    from laizi.rules import RuleSet
    from laizi.server.tables.engine import GameSession

    m = db.MatchRow.__table__
    cols = [m.c.id, m.c.status, m.c.rules, m.c.seed, m.c.max_hands]
    fixed_col = "fixed_dealers" in {c["name"] for c in inspect(conn).get_columns("matches")}
    rows = conn.execute(select(*cols, *([m.c.fixed_dealers] if fixed_col else []))
                        .order_by(m.c.id)).all()
    a, e, h = db.ActionRow.__table__, db.EventRow.__table__, db.HandRow.__table__
    for done, (mid, status, rules, seed, max_hands, *fixed) in enumerate(rows, 1):
        if progress is not None:
            progress(done, len(rows))
        # The events first, then the journal: a live server may commit an action and its
        # events between the two reads, and read in this order that only makes the journal
        # longer than the events (a match in play may be), never the events longer.
        evs = conn.execute(select(e.c.n, e.c.data).where(e.c.match_id == mid).order_by(e.c.n)).all()
        acts = conn.execute(select(a.c.n, a.c.action).where(a.c.match_id == mid)
                            .order_by(a.c.n)).all()
        if [n for n, _ in acts] != list(range(1, len(acts) + 1)):
            yield f"match {mid}: journal entries are not numbered 1..{len(acts)} (a gap or a repeat)"
            continue
        if [n for n, _ in evs] != list(range(1, len(evs) + 1)):
            yield f"match {mid}: events are not numbered 1..{len(evs)} (a gap or a repeat)"
            continue
        try:
            g = GameSession.rebuild(RuleSet(**rules), bytes.fromhex(seed), [x for _, x in acts],
                                    max_hands=max_hands, fixed_dealers=bool(fixed and fixed[0]))
        except (GameError, ValueError, KeyError, TypeError) as exc:
            yield f"match {mid}: its journal does not replay ({type(exc).__name__}: {exc})"
            continue
        log = g.log
        stored = [x for _, x in evs]
        if len(stored) > len(log):
            yield f"match {mid}: {len(stored)} events stored, its journal replays to {len(log)}"
        elif status == "finished" and len(stored) != len(log):
            yield f"match {mid}: finished with {len(stored)} events stored of {len(log)} replayed"
        else:
            for i, (ev, want) in enumerate(zip(stored, log, strict=False), 1):
                if ev != want:
                    yield f"match {mid}: event {i} differs from its replay ({ev.get('type')} vs {want.get('type')})"
                    break
        if status == "finished" and not g.over:
            yield f"match {mid}: finished, but its journal replays to a match not over"
        hands = {n: (res, dealer) for n, res, dealer in conn.execute(
            select(h.c.number, h.c.result, h.c.dealer).where(h.c.match_id == mid)).all()}
        for ev in stored:
            if ev.get("type") == "start_hand" and ev["hand"] not in hands:
                yield f"match {mid}: hand {ev['hand']} begun but has no hands row"
            elif ev.get("type") == "end_hand":
                res = hands.get(ev["hand"], (None, None))[0]
                if res is None:
                    yield f"match {mid}: hand {ev['hand']} ended but its hands row has no result"


def _coins(conn: Any) -> Iterator[str]:
    # What the ended hands owe first, then the ledger: a hand's scores and its coins are
    # committed together, so read in this order a live server's next hand can only add
    # ledger entries the owed hands do not know of, never an owed hand without its coins.
    T, m, sc = coins.TABLES, db.MatchRow.__table__, db.ScoreRow.__table__
    q = (select(m.c.id, sc.c.hand, sc.c.delta, T.c.stake).join(sc, sc.c.match_id == m.c.id)
         .join(T, T.c.room_code == m.c.room_code)
         .where(T.c.stake > 0, sc.c.kind == "hand", sc.c.player_id.is_not(None)))
    owed: set[tuple[int, int]] = set()
    for mid, hand, delta, stake in conn.execute(q).all():
        if int(round(float(delta) * int(stake))):
            owed.add((int(mid), int(hand)))
    L = coins.LEDGER
    rows = conn.execute(select(L.c.id, L.c.player_id, L.c.delta, L.c.balance, L.c.reason,
                               L.c.match_id, L.c.hand, L.c.key).order_by(L.c.id)).all()
    running: dict[str, int] = defaultdict(int)
    settlements: dict[str, int] = defaultdict(int)
    settled_hands: set[tuple[int, int]] = set()
    for _id, pid, delta, balance, reason, mid, hand, key in rows:
        running[pid] += int(delta)
        if pid != coins.HOUSE:
            if int(balance) != running[pid]:
                yield (f"coins: {pid}: entry {_id} ({key}) says balance {balance}, "
                       f"the sum of the ledger up to it is {running[pid]}")
            if running[pid] < 0:
                yield f"coins: {pid}: balance {running[pid]} below zero after entry {_id} ({key})"
        if reason in ("hand", "escape"):
            settlements[key.rsplit(":", 1)[0]] += int(delta)
            if reason == "hand" and mid is not None and hand is not None:
                settled_hands.add((int(mid), int(hand)))
    for key, total in settlements.items():
        if total:
            yield f"coins: settlement {key} is not zero-sum ({total:+d})"
    # every ended hand at a coin table where a player (not a bot, not one who had escaped)
    # won or lost coins settled
    for mid, number in sorted(owed - settled_hands):
        yield f"coins: match {mid} hand {number} ended at a coin table but settled no coins"


def _coin_seats(conn: Any) -> Iterator[str]:
    S = coins.SEATS
    held: dict[str, list[str]] = defaultdict(list)
    for pid, code in conn.execute(select(S.c.player_id, S.c.room_code)).all():
        held[pid].append(code)
    for pid, codes in held.items():
        if len(codes) > 1:
            yield f"coin seats: {pid} holds {len(codes)} coin seats ({', '.join(sorted(codes))})"
    r, T = db.RoomRow.__table__, coins.TABLES
    sitting: dict[str, list[str]] = defaultdict(list)
    q = (select(r.c.code, r.c.seats).join(T, T.c.room_code == r.c.code)
         .where(T.c.stake > 0, r.c.status == "playing"))
    for code, seats in conn.execute(q).all():
        for s in seats or []:
            pid = s.get("player_id") if isinstance(s, dict) else None
            if pid and not s.get("escaped") and not s.get("bot"):
                sitting[pid].append(code)
    for pid, codes in sitting.items():
        if len(codes) > 1:
            yield f"coin seats: {pid} sits at {len(codes)} coin tables in play ({', '.join(sorted(codes))})"


def check_url(url: str, *, progress: Callable[[int, int], None] | None = None) -> list[str]:
    """:func:`audit` of the database at ``url`` (a path is a SQLite file)."""
    engine = db.make_engine(url)
    try:
        return audit(engine, progress=progress)
    finally:
        engine.dispose()
