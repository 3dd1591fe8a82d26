"""The batching writer: one thread, many callers' writes committed together (group commit).

``await writer.write(fn)`` runs ``fn(session)`` in the writer thread and resolves once the
batch holding it is committed; a caller awaits its write before anything it describes is
shown to a client, so what a client saw is stored. Two options keep the hot path of play
(one write per action of every room) cheap whatever the number of rooms:

- ``rows``: rows to insert (``[(table, [row, ...]), ...]``) before ``fn`` runs. The rows
  of consecutive writes of a batch go to the database together, one ``INSERT`` per table
  (an action's journal entry and events: a batch of fifty actions is two statements, not
  a hundred). Order is kept: a write's rows are in before its own ``fn`` and before any
  later write's ``fn`` runs.
- ``fence``: ``(room code, token)`` — the write belongs to a room this node owns in a
  cluster (:mod:`laizi.server.persistence.fencing`). The fences of every room written in a batch
  are checked and raised in the batch's transaction before its writes run, by one
  statement (:attr:`Writer.fence_check`); the writes of a room whose fence moved on are
  refused (their callers get the checker's exception) and the rest are committed.

If a batch fails, its writes are retried one by one (each with its own fence check) so one
bad write only fails its own caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import orjson
from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, Integer, Table
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

__all__ = ["FenceCheck", "Rows", "WriteFn", "Writer"]

# Seconds a busy writer waits for more writes before it opens a batch's transaction:
# a little latency for fewer transactions (LAIZI_DB_GATHER_MS; 0 turns it off).
def _gather_ms(raw: str | None, default: float = 5.0) -> float:
    try:
        value = float(raw) if raw is not None else default
    except ValueError:
        return default
    return min(max(value, 0.0), 50.0) if value == value else default  # NaN: the default


GATHER = _gather_ms(os.environ.get("LAIZI_DB_GATHER_MS")) / 1000

WriteFn = Callable[[Session], Any]
Rows = Sequence[tuple[Table, list[dict[str, Any]]]]


class FenceCheck(Protocol):
    """How the writer checks room fences (:mod:`laizi.server.persistence.fencing` gives one)."""

    def many(self, s: Session, fences: dict[str, int]) -> set[str]:
        """Check and raise every ``code: token`` fence in one go; the codes that passed."""

    def one(self, s: Session, code: str, token: int) -> None:
        """Check one fence; raise when the room moved on."""

    def refused(self, code: str, token: int) -> BaseException:
        """The exception a refused write's caller gets."""


@dataclass(slots=True)
class _Item:
    fn: WriteFn | None
    fut: asyncio.Future[Any] | None
    loop: Any  # the caller's event loop, or a threading.Event for flush()
    fence: tuple[str, int] | None = None
    rows: Rows = ()


class Writer:
    """One thread that applies queued writes and commits them in batches (group commit)."""

    def __init__(self, engine: Engine, max_batch: int = 256, gather: float = GATHER) -> None:
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        # The connection the batches run on, held from one batch to the next (a checkout
        # per batch pinged the database first: one round trip more per batch); let go when
        # a batch fails, and the retries check out afresh (the pool pings those).
        self._conn: Connection | None = None
        # On PostgreSQL a batch of rows alone (the play's journal entries and events, no
        # function, no fence: most batches) is one statement (:func:`_pg_insert`), atomic by
        # itself: it runs on a second held connection in autocommit — one round trip, not
        # BEGIN, INSERT, COMMIT. (Batches run one after the other: the order holds.)
        self._alone_ok = engine.dialect.name == "postgresql"
        self._ac: Connection | None = None
        self._ac_cursor: Any = None  # (its psycopg cursor)
        self.max_batch = max_batch
        self.gather = gather
        self._last = 0  # writes in the previous batch
        self.fence_check: FenceCheck | None = None
        # (SimpleQueue: a put from the event loop takes no Condition, so it never waits on
        # the writer thread holding the queue's lock; FIFO, unbounded, as before)
        self._q: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="laizi-db-writer", daemon=True)
        self._thread.start()
        self.batches = 0
        self.writes = 0
        self.busy_seconds = 0.0

    def write(self, fn: WriteFn | None, *, fence: tuple[str, int] | None = None,
              rows: Rows = ()) -> asyncio.Future[Any]:
        """Queue a write (``rows`` inserted, then ``fn(session)``); the future gets ``fn``'s
        result once the batch is committed, or the exception that stopped it."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._q.put(_Item(fn, fut, loop, fence, rows))
        return fut

    def flush(self, timeout: float = 10.0) -> None:
        """Block until every write queued so far is committed."""
        done = threading.Event()
        self._q.put(_Item(None, None, done))
        done.wait(timeout)

    def close(self) -> None:
        self._q.put(None)
        self._thread.join(timeout=10)

    @staticmethod
    def _resolve(item: _Item, ok: bool, value: Any) -> None:
        fut, loop = item.fut, item.loop
        if fut is None:
            if isinstance(loop, threading.Event):
                loop.set()
            return

        with contextlib.suppress(RuntimeError):  # loop closed
            loop.call_soon_threadsafe(_settle, [(fut, ok, value)])

    @classmethod
    def _resolve_all(cls, done: list[tuple[_Item, bool, Any]]) -> None:
        """Tell a committed batch's callers: one wake-up per event loop, not one per write."""
        by_loop: dict[Any, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for item, ok, value in done:
            if item.fut is None:
                cls._resolve(item, ok, value)
            else:
                by_loop.setdefault(item.loop, []).append((item.fut, ok, value))
        for loop, outcomes in by_loop.items():
            with contextlib.suppress(RuntimeError):  # loop closed
                loop.call_soon_threadsafe(_settle, outcomes)

    def _run(self) -> None:
        while True:
            first = self._q.get()
            if first is None:
                self._let_go()
                return
            batch = [first]
            stop = self._drain(batch)
            if not stop and self.gather > 0 and self._last > 1 and len(batch) < self.max_batch:
                # Busy (the previous batch held several writes): wait a moment for more, so
                # that one transaction carries them (group commit; idle, nothing waits).
                time.sleep(self.gather)
                stop = self._drain(batch)
            self._last = len(batch)
            t0 = time.perf_counter()
            try:
                if self._alone_ok and all(i.fn is None and i.fence is None for i in batch):
                    self._insert_alone(batch)
                    done = [(item, True, None) for item in batch]
                else:
                    with self._batch_session() as s:
                        done = self._apply(s, batch)
                        s.commit()
                self._resolve_all(done)
            except Exception:  # retry one by one
                self._let_go()
                for item in batch:
                    self._retry(item)
            self.batches += 1
            self.writes += len(batch)
            self.busy_seconds += time.perf_counter() - t0
            if stop:
                self._let_go()
                return

    def _batch_session(self) -> Session:
        """A session on the held connection (connected now if there is none)."""
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self.engine.connect()
        if conn.in_transaction():  # (never after a commit; a session must begin its own)
            conn.rollback()
        return Session(bind=conn, expire_on_commit=False)

    def _insert_alone(self, batch: list[_Item]) -> None:
        """A batch of rows alone, as one statement in autocommit (PostgreSQL)."""
        pending: dict[Table, list[dict[str, Any]]] = {}
        for item in batch:
            for table, rows in item.rows:
                pending.setdefault(table, []).extend(rows)
        todo = [(t, rows) for t, rows in pending.items() if rows]
        if not todo:
            return
        conn = self._ac
        if conn is None or conn.closed or conn.invalidated:
            conn = self._ac = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            self._ac_cursor = None
        if self._ac_cursor is None:
            # (psycopg's own cursor, kept: SQLAlchemy's execution context around each
            # statement cost a quarter of a batch's CPU; the connection stays SQLAlchemy's)
            self._ac_cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        _pg_execute(self._ac_cursor, todo)

    def _let_go(self) -> None:
        self._ac_cursor = None
        for conn in (self._conn, self._ac):
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
        self._conn = self._ac = None

    def _drain(self, batch: list[_Item]) -> bool:
        """Add what is queued to ``batch`` (up to ``max_batch``); True when told to stop."""
        while len(batch) < self.max_batch:
            try:
                nxt = self._q.get_nowait()
            except queue.Empty:
                return False
            if nxt is None:
                return True
            batch.append(nxt)
        return False

    def _apply(self, s: Session, batch: list[_Item]) -> list[tuple[_Item, bool, Any]]:
        """Run a batch in one transaction: the fences, then each write in order (rows of
        consecutive writes inserted together). What to tell each caller after the commit."""
        refused = self._check_fences(s, batch)
        out: list[tuple[_Item, bool, Any]] = []
        pending: dict[Table, list[dict[str, Any]]] = {}
        for item in batch:
            if item.fence is not None and item.fence[0] in refused:
                out.append((item, False, refused[item.fence[0]]))
                continue
            for table, rows in item.rows:
                pending.setdefault(table, []).extend(rows)
            result = None
            if item.fn is not None:
                _insert(s, pending)
                result = item.fn(s)
            out.append((item, True, result))
        _insert(s, pending)
        return out

    def _check_fences(self, s: Session, batch: list[_Item]) -> dict[str, BaseException]:
        """Check the fence of every room written in ``batch`` (one statement); the rooms
        refused, with the exception their writes get. A room written with two different
        tokens in one batch (it was taken again meanwhile) is checked write by write."""
        check = self.fence_check
        fences: dict[str, int] = {}
        mixed: set[str] = set()
        for item in batch:
            if item.fence is not None:
                code, token = item.fence
                if fences.setdefault(code, token) != token:
                    mixed.add(code)
        if not fences:
            return {}
        if check is None:
            raise RuntimeError("fenced writes need a fence check")
        for code in mixed:
            del fences[code]
        passed = check.many(s, fences) if fences else set()
        refused = {c: check.refused(c, t) for c, t in fences.items() if c not in passed}
        if mixed:  # rare: wrap those writes in their own checks, in order
            for i, item in enumerate(batch):
                if item.fence is not None and item.fence[0] in mixed:
                    batch[i] = _Item(_fenced(check, item), item.fut, item.loop, None, item.rows)
        return refused

    def _retry(self, item: _Item) -> None:
        try:
            with self.sessions() as s:
                if item.fence is not None:
                    if self.fence_check is None:
                        raise RuntimeError("fenced writes need a fence check")
                    self.fence_check.one(s, *item.fence)
                pending = {t: list(r) for t, r in item.rows}
                _insert(s, pending)
                res = item.fn(s) if item.fn is not None else None
                s.commit()
            self._resolve(item, True, res)
        except Exception as exc:  # noqa: BLE001 - reported to the caller
            self._resolve(item, False, exc)


def _settle(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for fut, ok, value in outcomes:
        if fut.done():
            continue
        if ok:
            fut.set_result(value)
        else:
            fut.set_exception(value)


def _fenced(check: FenceCheck, item: _Item) -> WriteFn:
    """``item``'s write with its own fence check first (its rows are inserted before the
    wrapped function runs, as the rows of any write; the check then covers them too, since
    a refusal raises and fails the batch, which is retried write by write)."""
    fn, (code, token) = item.fn, item.fence  # type: ignore[misc]

    def write(s: Session) -> Any:
        check.one(s, code, token)
        return fn(s) if fn is not None else None

    return write


def _insert(s: Session, pending: dict[Table, list[dict[str, Any]]]) -> None:
    """Insert the rows gathered so far and clear them: on PostgreSQL one statement for
    every table (one round trip for the batch's journal entries and events), elsewhere one
    executemany per table."""
    if not any(pending.values()):
        return
    s.flush()  # ORM writes earlier in the batch land first
    conn = s.connection()
    todo = [(t, rows) for t, rows in pending.items() if rows]
    pending.clear()
    if conn.dialect.name == "postgresql":  # (on the transaction's own psycopg connection)
        with conn.connection.driver_connection.cursor() as cur:  # type: ignore[union-attr]
            _pg_execute(cur, todo)
        return
    for table, rows in todo:
        conn.execute(table.insert(), rows)


def _pg_type(t: Any) -> str:
    if isinstance(t, JSON):
        return "json"
    if isinstance(t, BigInteger):
        return "bigint"
    if isinstance(t, Integer):
        return "integer"
    if isinstance(t, Float):
        return "double precision"
    if isinstance(t, DateTime):
        return "timestamptz" if t.timezone else "timestamp"
    if isinstance(t, Boolean):
        return "boolean"
    return "text"


def _jsonable_default(v: Any) -> Any:
    """What the JSON encoders do not know: datetimes as ISO 8601 (orjson writes its own)."""
    if isinstance(v, datetime):
        return v.isoformat()
    raise TypeError(f"not JSON: {type(v).__name__}")


@dataclass(frozen=True, slots=True)
class _Plan:
    """How the rows of one table with given keys are inserted (:func:`_pg_insert`)."""

    names: tuple[str, ...]  # the columns, in the table's order: the rows' own and those with a Python default
    defaults: tuple[tuple[str, Any], ...]  # (column, SQLAlchemy default) not in the rows
    part: str  # its INSERT ... SELECT, with the placeholder %(tN)s


_PLANS: dict[tuple[Any, ...], tuple[str, tuple[_Plan, ...]]] = {}
MAX_PLANS = 256  # (the writes of the code give a handful of shapes; past this, start again)


def _plan(table: Table, given: Sequence[str], key: str) -> _Plan:
    names: list[str] = []
    types: list[str] = []
    defaults: list[tuple[str, Any]] = []
    for c in table.columns:
        if c.name not in given:
            if c.default is None or c.primary_key:
                continue
            defaults.append((c.name, c.default))
        names.append(c.name)
        types.append(f'"{c.name}" {_pg_type(c.type)}')
    cols = ", ".join(f'"{n}"' for n in names)
    part = (f'INSERT INTO "{table.name}" ({cols}) SELECT {cols} '
            f'FROM json_to_recordset(CAST(%({key})s AS json)) AS x({", ".join(types)})')
    return _Plan(tuple(names), tuple(defaults), part)


def _pg_insert(todo: list[tuple[Table, list[dict[str, Any]]]]) -> tuple[str, dict[str, Any]]:
    """One PostgreSQL statement inserting every table's rows: each table an ``INSERT ...
    SELECT ... FROM json_to_recordset(<its rows as one JSON text>)``, all but the last as
    data-modifying ``WITH`` parts — one parameter per table, encoded by orjson and decoded
    by the server's JSON reader. The columns are those the rows give plus those with a
    Python-side default (filled in here, as an INSERT through SQLAlchemy would); the text
    stays the same from batch to batch (psycopg prepares it once), and is built once per
    tables and keys (kept in ``_PLANS``)."""
    sig = tuple((t, tuple(rows[0])) for t, rows in todo)
    got = _PLANS.get(sig)
    if got is None:
        plans = tuple(_plan(t, given, f"t{i}") for i, (t, given) in enumerate(sig))
        parts = [p.part for p in plans]
        if len(parts) == 1:
            sql = parts[0]
        else:
            ctes = ", ".join(f"w{i} AS ({p})" for i, p in enumerate(parts[:-1]))
            sql = f"WITH {ctes} {parts[-1]}"
        if len(_PLANS) >= MAX_PLANS:
            _PLANS.clear()
        got = _PLANS[sig] = (sql, plans)
    sql, plans = got
    params: dict[str, Any] = {}
    for ti, ((_, rows), plan) in enumerate(zip(todo, plans, strict=True)):
        defaults = {name: d.arg(None) if d.is_callable else d.arg if d.is_scalar else None
                    for name, d in plan.defaults}
        # (json_to_recordset reads a missing key as NULL and ignores a key it was not given:
        # rows without defaults to fill in go as they are)
        recs = [{**defaults, **r} for r in rows] if defaults else rows
        params[f"t{ti}"] = _dumps(recs)
    return sql, params


def _pg_execute(cur: Any, todo: list[tuple[Table, list[dict[str, Any]]]]) -> None:
    """Run :func:`_pg_insert`'s statement on a psycopg cursor."""
    sql, params = _pg_insert(todo)
    cur.execute(sql, params)


def _dumps(recs: list[dict[str, Any]]) -> str:
    """The rows as one JSON text (orjson; the standard encoder for what it refuses)."""
    try:
        return orjson.dumps(recs, default=_jsonable_default).decode()
    except TypeError:
        return json.dumps(recs, default=_jsonable_default)
