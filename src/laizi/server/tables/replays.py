"""Replays (``GET /api/matches/{id}/replay``) without stalling the game.

Building a long match's replay replays its whole journal and renders a view per public
event: about a second of CPU and tens of MB for a long match. So a replay is

- **built in a worker process** (one, spawned on first use): the event loop only awaits
  it, and since it is another process it does not even compete for the GIL;
- **cached compressed** (gzip) in a least-recently-used cache bounded by bytes
  (:data:`CACHE_BYTES`); a finished match is cached until evicted, a match still in
  play for :data:`LIVE_TTL` seconds (its finished hands grow);
- **paged**: ``?hand=N`` returns one hand's frames, ``?index=1`` the match with its hand
  numbers and frame counts only, no parameter the whole match (as before); every answer
  is sent gzip-compressed (``Content-Encoding: gzip``) when the client accepts it,
  in 64 KiB pieces;
- **rate-limited per client IP**: :data:`REQUESTS_PER_MINUTE` requests (cached or not)
  and :data:`BUILDS_PER_MINUTE` builds (cache misses); over the limit the answer is 429
  with ``Retry-After``. At most :data:`MAX_PENDING` builds wait at once (else 503), and
  concurrent requests for the same replay share one build.

Nothing hidden is ever returned: hands still in play are cut off at their start
(:func:`laizi.server.tables.engine.hand_frames` only renders finished hands).
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
import multiprocessing
import time
import zlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from laizi.server.common.chat import RateLimiter
from laizi.server.common.errors import ApiError, wait_seconds
from laizi.server.common.workers import exit_with_parent

__all__ = [
    "BUILDS_PER_MINUTE", "CACHE_BYTES", "LIVE_TTL", "MAX_PENDING", "REQUESTS_PER_MINUTE",
    "ReplayService", "build_replay",
]

log = logging.getLogger("laizi.server")

CACHE_BYTES = 64 * 1024 * 1024   # compressed replays kept in memory
LIVE_TTL = 10.0                  # seconds a replay of a match still in play stays cached
REQUESTS_PER_MINUTE = 120        # replay requests per client IP per minute
BUILDS_PER_MINUTE = 12           # of which cache misses (builds) per client IP per minute
MAX_PENDING = 8                  # builds queued at once (all clients)
CHUNK = 64 * 1024                # bytes per piece of a streamed answer
BUILD_TIMEOUT = 120.0            # seconds one build may take


# ----------------------------------------------------------------- worker side
_ENGINES: dict[str, Any] = {}


def _gz(obj: Any) -> bytes:
    raw = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()
    return gzip.compress(raw, compresslevel=6, mtime=0)


def build_replay(db_url: str, match_id: int) -> dict[str, Any] | None:
    """Build a match's replay (in the worker process): gzip-compressed JSON documents
    ``full``, ``index`` and one per hand, plus the match status; None for no such match."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from laizi.rules import RuleSet
    from laizi.server.persistence import db
    from laizi.server.tables.engine import hand_frames

    engine = _ENGINES.get(db_url)
    if engine is None:
        engine = _ENGINES[db_url] = db.make_engine(db_url)
    with Session(engine) as s:
        m = s.get(db.MatchRow, match_id)
        if m is None:
            return None
        journal = [a.action for a in s.scalars(
            select(db.ActionRow).where(db.ActionRow.match_id == m.id).order_by(db.ActionRow.n))]
        head = {"match_id": m.id, "room": m.room_code, "status": m.status,
                "seats": m.seats, "scores": m.scores}
        rules, seed, max_hands = dict(m.rules), bytes.fromhex(m.seed), m.max_hands
        fixed = bool(m.fixed_dealers)
    frames = hand_frames(RuleSet(**rules), seed, journal, max_hands=max_hands, fixed_dealers=fixed)
    ordered = sorted(frames.items())
    hands = [{"hand": h, "frames": f} for h, f in ordered]
    return {
        "status": head["status"],
        "full": _gz({**head, "hands": hands}),
        "index": _gz({**head, "hands": [{"hand": h, "frames": len(f)} for h, f in ordered]}),
        "hands": {h: _gz({**head, "hands": [{"hand": h, "frames": f}]}) for h, f in ordered},
    }


# ----------------------------------------------------------------- server side
@dataclass
class _Entry:
    status: str
    full: bytes
    index: bytes
    hands: dict[int, bytes]
    built: float = field(default_factory=time.monotonic)

    @property
    def size(self) -> int:
        return len(self.full) + len(self.index) + sum(len(b) for b in self.hands.values())


class ReplayError(ApiError):
    """A replay request that cannot be served now: HTTP status, message, Retry-After."""

    def __init__(self, status: int, message: str, retry_after: float | None = None, *,
                 code: str | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(message, status, retry_after, code=code, params=params)


class ReplayService:
    """Builds (in a worker process), caches and rate-limits replays of one database."""

    def __init__(self, db_url: str, cache_bytes: int = CACHE_BYTES,
                 requests_per_minute: int = REQUESTS_PER_MINUTE,
                 builds_per_minute: int = BUILDS_PER_MINUTE, max_pending: int = MAX_PENDING,
                 live_ttl: float = LIVE_TTL) -> None:
        self.db_url = db_url
        self.cache_bytes = cache_bytes
        self.live_ttl = live_ttl
        self.max_pending = max_pending
        self.requests = RateLimiter(requests_per_minute, 60.0)
        self.builds = RateLimiter(builds_per_minute, 60.0)
        self._cache: OrderedDict[int, _Entry] = OrderedDict()
        self._cached_bytes = 0
        self._pending: dict[int, asyncio.Future[_Entry | None]] = {}
        self._pool: ProcessPoolExecutor | None = None
        # Asked before a replay is served: a reason to withhold it now, or None.
        self.gates: list[Callable[[int], Awaitable[str | None]]] = []
        self.stats = {"hits": 0, "builds": 0, "limited": 0}

    # ------------------------------------------------------------- lifecycle
    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the server has threads (the database writer); forking them is unsafe.
            self._pool = ProcessPoolExecutor(max_workers=1,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=exit_with_parent)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def cache_info(self) -> dict[str, int]:
        return {"entries": len(self._cache), "bytes": self._cached_bytes, **self.stats}

    # ------------------------------------------------------------- requests
    async def get(self, match_id: int, client: str, *, hand: int | None = None,
                  index: bool = False) -> bytes | None:
        """The gzip-compressed JSON answer, or None for an unknown match (or hand).
        Raises :class:`ReplayError` when the client is over its limits or the server busy."""
        if not self.requests.allow(client):
            self.stats["limited"] += 1
            wait = self.requests.retry_after(client)
            raise ReplayError(429, "too many replay requests; slow down", wait,
                              code="rate_limited", params={"wait": wait_seconds(wait)})
        for gate in self.gates:  # e.g. a duplicate round in play (laizi.server.competitions.tournaments)
            why = await gate(match_id)
            if why is not None:
                raise ReplayError(403, why, code="replay_withheld")
        entry = self._cached(match_id)
        if entry is None:
            entry = await self._build(match_id, client)
            if entry is None:
                return None
        else:
            self.stats["hits"] += 1
        if index:
            return entry.index
        if hand is not None:
            return entry.hands.get(hand)
        return entry.full

    def _cached(self, match_id: int) -> _Entry | None:
        entry = self._cache.get(match_id)
        if entry is None:
            return None
        if entry.status != "finished" and time.monotonic() - entry.built > self.live_ttl:
            self._drop(match_id)
            return None
        self._cache.move_to_end(match_id)
        return entry

    async def _build(self, match_id: int, client: str) -> _Entry | None:
        shared = self._pending.get(match_id)
        if shared is not None:
            return await asyncio.shield(shared)
        if not self.builds.allow(client):
            self.stats["limited"] += 1
            wait = self.builds.retry_after(client)
            raise ReplayError(429, "too many replay requests; slow down", wait,
                              code="rate_limited", params={"wait": wait_seconds(wait)})
        if len(self._pending) >= self.max_pending:
            raise ReplayError(503, "replays are busy; try again shortly", 2.0, code="server_busy")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[_Entry | None] = loop.create_future()
        self._pending[match_id] = fut
        try:
            raw = await asyncio.wait_for(
                loop.run_in_executor(self._executor(), build_replay, self.db_url, match_id),
                BUILD_TIMEOUT)
            entry = None if raw is None else _Entry(raw["status"], raw["full"], raw["index"],
                                                    dict(raw["hands"]))
            if entry is not None:
                self.stats["builds"] += 1
                self._store(match_id, entry)
            fut.set_result(entry)
            return entry
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: waiters re-raise it, nobody else needs to
            raise
        finally:
            del self._pending[match_id]

    def _store(self, match_id: int, entry: _Entry) -> None:
        if entry.size > self.cache_bytes:
            return
        self._drop(match_id)
        self._cache[match_id] = entry
        self._cached_bytes += entry.size
        while self._cached_bytes > self.cache_bytes:
            old, _ = next(iter(self._cache.items()))
            self._drop(old)

    def _drop(self, match_id: int) -> None:
        entry = self._cache.pop(match_id, None)
        if entry is not None:
            self._cached_bytes -= entry.size


async def stream(data: bytes, gzip_ok: bool) -> AsyncIterator[bytes]:
    """The answer in :data:`CHUNK` pieces: as stored (gzip) or decompressed on the way."""
    if gzip_ok:
        for i in range(0, len(data), CHUNK):
            yield data[i:i + CHUNK]
        return
    d = zlib.decompressobj(wbits=31)
    for i in range(0, len(data), CHUNK // 8):
        piece = d.decompress(data[i:i + CHUNK // 8])
        if piece:
            yield piece
        await asyncio.sleep(0)
    with contextlib.suppress(zlib.error):
        tail = d.flush()
        if tail:
            yield tail
