"""复盘 over HTTP: ``GET /api/matches/{id}/review?seat=N`` (:mod:`laizi.review`).

A review of a seat replays the whole match and rates each of its decisions with the hints
(about 150 decisions a second: a few seconds for a long match), so it is

- **only for a finished match** (409 while it is in play: a seat's choices say what it
  holds), under the same gates as the match's replay (:attr:`ReplayService.gates
  <laizi.server.tables.replays.ReplayService.gates>`: a duplicate round in play is withheld);
- **computed in a worker process** (one, spawned on first use), never on the event loop;
  a request waits at most :data:`WAIT` seconds for it, then answers ``202`` with
  ``{"pending": true, "progress": 0-1}`` and ``Retry-After: 1`` (the client asks again:
  a long match shows its progress); requests for the same review share one build;
- **cached**: finished matches do not change, so a review is kept (JSON, least recently used
  first out) within :data:`CACHE_BYTES`;
- **rate-limited per client IP**: :data:`REQUESTS_PER_MINUTE` requests (the polls of a build
  included) and :data:`BUILDS_PER_MINUTE` builds (cache misses) a minute, else ``429`` with
  ``Retry-After``; at most :data:`MAX_PENDING` builds wait at once (else ``503``). The web
  client waits out a 429 or 503 by its Retry-After and asks again, as it does a 202.

``GET /api/matches/{id}/card`` is the 战绩 card's data for a finished match (the players, their
totals, the rule card line in zh and en, when it ended): a small read in a thread, counted
against the same per-IP request limit; the browser draws the card (``web/js/card.js``).
``GET /api/matches/{id}/hands/{n}/card`` is the big-hand card's of hand ``n`` (won; the
winner's tiles and melds, the 番 and its breakdown, the payments): the journal replayed to the
hand's end in a thread, read through :mod:`laizi.views` — 404 for a hand not played, 409 for a
hand not over yet or not won; any finished hand of a match, in play or not (its replay shows it).

The review's answer: ``match_id``, ``seat``, ``hands``, ``decisions``, ``mean_loss``, ``total_loss``,
``accuracy``, ``agreement``, ``costliest`` (each with ``hand``, ``v`` — the log event the
decision became —, ``played``/``expert`` and ``why`` in zh and en) and ``all`` (every
decision, without ``why``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.server.common.chat import RateLimiter
from laizi.server.common.errors import ApiError, coded, wait_seconds
from laizi.server.common.workers import exit_with_parent

__all__ = ["BUILDS_PER_MINUTE", "CACHE_BYTES", "MAX_PENDING", "REQUESTS_PER_MINUTE", "WAIT",
           "ReviewService", "build_review", "note_result", "read_accuracy"]

log = logging.getLogger("laizi.server")

REQUESTS_PER_MINUTE = 60  # review requests (polls included) per client IP per minute
ACCURACY_PAGE = 100      # matches of a profile it looks at, at most
BUILDS_PER_MINUTE = 6     # of which cache misses (builds) per client IP per minute
MAX_PENDING = 4           # builds queued at once (all clients)
CACHE_BYTES = 16 * 1024 * 1024  # reviews kept in memory (JSON)
WAIT = 2.0                # seconds a request waits for a build before answering 202
HAND_MAX = 10_000         # the highest hand number a big-hand card is asked for
HAND_CARDS_KEEP = 256     # big-hand cards' data kept (a few kB each), least recently used out

# ----------------------------------------------------------------- worker side
_ENGINES: dict[str, Any] = {}
_PROGRESS: Any = None  # shared with the server: [key, done, total] of the build under way


def _init_worker(shared: Any) -> None:
    global _PROGRESS
    _PROGRESS = shared
    exit_with_parent()


def _key(match_id: int, seat: int) -> int:
    return match_id * 4 + seat


def build_review(db_url: str, match_id: int, seat: int) -> dict[str, Any] | None:
    """Review one seat of a stored match (in the worker process): the answer's JSON, or
    ``{"in_play": True}`` for a match not finished, None for no such match."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from laizi.review import review_events
    from laizi.rules import RuleSet
    from laizi.server.persistence import db
    from laizi.server.tables.engine import GameSession

    engine = _ENGINES.get(db_url)
    if engine is None:
        engine = _ENGINES[db_url] = db.make_engine(db_url)
    with Session(engine) as s:
        m = s.get(db.MatchRow, match_id)
        if m is None:
            return None
        if m.status != "finished":
            return {"in_play": True}
        journal = [a.action for a in s.scalars(
            select(db.ActionRow).where(db.ActionRow.match_id == m.id).order_by(db.ActionRow.n))]
        rules, seed, max_hands = dict(m.rules), bytes.fromhex(m.seed), m.max_hands
        fixed, seats = bool(m.fixed_dealers), m.seats
    g = GameSession(RuleSet(**rules), seed, max_hands=max_hands, fixed_dealers=fixed)
    for op in journal:
        g.apply_op(op)
    key = _key(match_id, seat)

    def progress(done: int, total: int) -> None:
        if _PROGRESS is not None:
            _PROGRESS[0], _PROGRESS[1], _PROGRESS[2] = key, done, total

    games = review_events(list(g.match.log), seats=[seat], progress=progress)
    r = games[0].seats[seat]
    data = r.to_json(decisions=True)
    for d in data["all"]:
        d.pop("why", None)
    return {"match_id": match_id, "seat": seat, "players": seats, "hands": games[0].hands, **data}


ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-]{1,80}(:[0-9]{1,5})?")  # ?origin= of the card


def share_qr(link: str) -> dict[str, Any]:
    """The QR code of ``link`` (``segno``, error correction M): its modules, one string of
    ``0``/``1`` per row, without the quiet zone (4 modules: the drawer leaves it white)."""
    import segno

    qr = segno.make(link, error="m", micro=False)
    return {"link": link, "rows": ["".join("1" if v else "0" for v in row) for row in qr.matrix]}


def read_card(engine: Any, match_id: int, *, finished: bool = True) -> dict[str, Any] | None:
    """The 战绩 card's data of a match (a thread of the server): None for no such match;
    ``{"in_play": True}`` for a match in play when ``finished``."""
    from sqlalchemy.orm import Session

    from laizi.rulecatalog import rule_card
    from laizi.rules import RuleSet
    from laizi.server.persistence import db

    with Session(engine) as s:
        m = s.get(db.MatchRow, match_id)
        if m is None:
            return None
        if finished and m.status != "finished":
            return {"in_play": True}
        rules = RuleSet(**dict(m.rules))
        seats = [{"nickname": x.get("nickname"), "bot": x.get("bot"), "player_id": x.get("player_id")}
                 if isinstance(x, dict) else {"nickname": None} for x in (m.seats or [])]
        return {"match_id": m.id, "room": m.room_code, "seats": seats, "scores": list(m.scores or []),
                "preset": rules.preset_name,
                "rule_card": {"zh": rule_card(rules, "zh"), "en": rule_card(rules, "en")},
                "finished_at": m.finished_at.isoformat() if m.finished_at else None}


def _refused(status: int, why: str, *, code: str) -> dict[str, Any]:
    """A refusal :func:`read_hand_card` returns (raised as :class:`ReviewError` by the service)."""
    return {"refused": (status, why, code)}


def read_hand_card(engine: Any, match_id: int, hand_no: int) -> dict[str, Any] | None:
    """The big-hand card's data of hand ``hand_no`` of a match (a thread of the server): the
    match's journal replayed to that hand's end, the hand read through :mod:`laizi.views`
    (the revealed snapshot of the finished hand, as its replay shows it). None for no such
    match; ``{"refused": (status, why, code)}`` for a hand not over yet (409,
    ``hand_not_over``), not played (404, ``unknown_hand``) or not won (409, ``hand_not_won``)."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from laizi.rules import RuleSet
    from laizi.server.persistence import db
    from laizi.server.tables.engine import GameSession
    from laizi.tiles import TILE_STR
    from laizi.views import match_view, meld_to_json

    head = read_card(engine, match_id, finished=False)
    if head is None:
        return None
    with Session(engine) as s:
        m = s.get(db.MatchRow, match_id)
        if m is None:
            return None
        # the hand's row first: a hand not played, not over or not won costs no replay
        row = s.scalars(select(db.HandRow).where(db.HandRow.match_id == match_id,
                                                 db.HandRow.number == hand_no)).first()
        if row is None and m.status == "finished":
            return _refused(404, f"no hand {hand_no} in match {match_id}", code="unknown_hand")
        if row is None or row.ended_at is None:
            return _refused(409, f"hand {hand_no} is not over yet: its card comes when it is", code="hand_not_over")
        if (row.result or {}).get("winner") is None:
            return _refused(409, f"hand {hand_no} was not won (a draw): no card", code="hand_not_won")
        journal = [a.action for a in s.scalars(
            select(db.ActionRow).where(db.ActionRow.match_id == m.id).order_by(db.ActionRow.n))]
        rules, seed, max_hands = dict(m.rules), bytes.fromhex(m.seed), m.max_hands
        fixed, finished = bool(m.fixed_dealers), m.status == "finished"
    g = GameSession(RuleSet(**rules), seed, max_hands=max_hands, fixed_dealers=fixed)
    sv = None
    for op in journal:
        g.apply_op(op)
        if g.match.hand_no > hand_no:
            break
        if g.match.hand_no == hand_no and g.match.hand_over:
            sv = match_view(g.match, None, reveal=True, history=[]).hand
            break
    if sv is None or sv.revealed is None:
        if finished or g.match.hand_no > hand_no:
            return _refused(404, f"no hand {hand_no} in match {match_id}", code="unknown_hand")
        return _refused(409, f"hand {hand_no} is not over yet: its card comes when it is", code="hand_not_over")
    res = sv.revealed.result
    if not res:
        return _refused(409, f"hand {hand_no} was not won (a draw): no card", code="hand_not_won")
    w = int(res["winner"])
    sc = dict(res.get("score") or {})
    return {
        "match_id": match_id, "hand": hand_no, "seats": head["seats"], "preset": head["preset"],
        "rule_card": head["rule_card"], "dealer": sv.dealer, "laizi": TILE_STR[sv.setup.laizi],
        "winner": w, "by": res.get("by"), "from": res.get("from"), "tile": res.get("tile"),
        "after_kong": bool(res.get("after_kong")), "haidi": bool(res.get("haidi")),
        "score": {k: sc.get(k) for k in ("big_hands", "hard", "base", "winner_fan", "loser_fan",
                                          "breakdown", "topped_out", "liable")},
        "payments": list(sv.revealed.payments or [0.0] * 4),
        "tiles": [TILE_STR[k] for k in range(len(TILE_STR)) for _ in range(sv.revealed.hands[w][k])],
        "melds": [meld_to_json(x, tiles_as_list=True) for x in sv.melds[w]],
        "special_kongs": [TILE_STR[k] for k in sv.special_kongs[w]],
    }


def note_result(engine: Any, match_id: int, seat: int, accuracy: float, rated: int) -> None:
    """Store a built review's figures (``review_results``; a thread of the server). A review
    built again (another node, after eviction) writes the same figures: the first stays."""
    from sqlalchemy.exc import IntegrityError
    from sqlalchemy.orm import Session

    from laizi.server.persistence import db

    with Session(engine) as s:
        if s.get(db.ReviewResultRow, (match_id, seat)) is not None:
            return
        s.add(db.ReviewResultRow(match_id=match_id, seat=seat, accuracy=accuracy, rated=rated))
        try:
            s.commit()
        except IntegrityError:  # another node stored it a moment ago
            s.rollback()


def read_accuracy(engine: Any, seats: list[tuple[int, int]]) -> dict[str, Any] | None:
    """The profile's accuracy over the stored reviews of ``seats`` (a thread of the server)."""
    from sqlalchemy import select

    from laizi.server.persistence import db

    if not seats:
        return None
    want = set(seats)
    t = db.ReviewResultRow
    with engine.connect() as conn:
        rows = conn.execute(select(t.match_id, t.seat, t.accuracy, t.rated)
                            .where(t.match_id.in_(sorted({m for m, _ in want})))).all()
    got = [(float(a), int(r)) for m, s, a, r in rows if (m, s) in want]
    rated = sum(r for _, r in got)
    if not got or rated == 0:
        return None
    return {"accuracy": round(sum(a * r for a, r in got) / rated, 1), "matches": len(got),
            "decisions": rated}


# ----------------------------------------------------------------- server side
class ReviewError(ApiError):
    """A review or card request that cannot be served now: HTTP status, message, Retry-After,
    and the ``code`` (``params``) the web client words in the player's language."""

    def __init__(self, status: int, message: str, retry_after: float | None = None, *,
                 code: str | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(message, status, retry_after, code=code, params=params)


def _limited(message: str, retry_after: float) -> ReviewError:
    return ReviewError(429, message, retry_after, code="rate_limited",
                       params={"wait": wait_seconds(retry_after)})


class ReviewService:
    """Builds (in a worker process), caches and rate-limits the reviews of one database.
    ``gates``: the replay's gates (the same list: what withholds a replay withholds its
    review)."""

    def __init__(self, db_url: str, *, gates: list[Callable[[int], Awaitable[str | None]]] | None = None,
                 requests_per_minute: int = REQUESTS_PER_MINUTE,
                 builds_per_minute: int = BUILDS_PER_MINUTE, max_pending: int = MAX_PENDING,
                 cache_bytes: int = CACHE_BYTES, wait: float = WAIT) -> None:
        self.db_url = db_url
        self.gates = gates if gates is not None else []
        self.requests = RateLimiter(requests_per_minute, 60.0)
        self.builds = RateLimiter(builds_per_minute, 60.0)
        self.max_pending = max_pending
        self.cache_bytes = cache_bytes
        self.wait = wait
        self._cache: OrderedDict[int, bytes] = OrderedDict()
        self._cached_bytes = 0
        self._hand_cards: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        self._pending: dict[int, asyncio.Task[bytes | None]] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._progress: Any = None
        self._engine: Any = None  # the card's reads (a thread of this process)
        self.stats = {"hits": 0, "builds": 0, "limited": 0}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")  # the server has threads: no fork
            self._progress = ctx.Array("q", 3, lock=False)
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx,
                                             initializer=_init_worker, initargs=(self._progress,))
        return self._pool

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def progress(self, match_id: int, seat: int) -> float:
        p = self._progress
        if p is None or p[0] != _key(match_id, seat) or p[2] <= 0:
            return 0.0
        return round(min(1.0, float(p[1]) / float(p[2])), 3)

    async def get(self, match_id: int, seat: int, client: str) -> bytes | None:
        """The review's JSON, None for an unknown match; raises :class:`ReviewError` (429, 403,
        409, 503, and 202 while it is being built)."""
        if not self.requests.allow(client):
            self.stats["limited"] += 1
            raise _limited("too many review requests; slow down", self.requests.retry_after(client))
        for gate in self.gates:
            why = await gate(match_id)
            if why is not None:
                raise ReviewError(403, why, code="replay_withheld")
        key = _key(match_id, seat)
        data = self._cache.get(key)
        if data is not None:
            self._cache.move_to_end(key)
            self.stats["hits"] += 1
            return data
        task = self._pending.get(key)
        if task is None:
            if not self.builds.allow(client):
                self.stats["limited"] += 1
                raise _limited("too many reviews; slow down", self.builds.retry_after(client))
            if len(self._pending) >= self.max_pending:
                raise ReviewError(503, "reviews are busy; try again shortly", 2.0, code="server_busy")
            task = asyncio.get_running_loop().create_task(self._build(match_id, seat))
            # a client gone after its 202 never awaits it: the outcome is retrieved here
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            self._pending[key] = task
        done, _ = await asyncio.wait({task}, timeout=self.wait)
        if not done:
            raise ReviewError(202, "the review is being built", 1.0)
        return task.result()

    async def _build(self, match_id: int, seat: int) -> bytes | None:
        key = _key(match_id, seat)
        try:
            loop = asyncio.get_running_loop()
            try:
                raw = await loop.run_in_executor(self._executor(), build_review, self.db_url, match_id, seat)
            except BrokenProcessPool:  # the worker died (killed, out of memory): a new one next time
                self._pool = None
                raise
            if raw is None:
                return None
            if raw.get("in_play"):
                raise ReviewError(409, "the match is still in play: a review comes when it is over",
                                  code="match_in_play")
            data = json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode()
            self.stats["builds"] += 1
            self._store(key, data)
            try:  # the profile's accuracy: in the database, the same on every node
                await asyncio.to_thread(note_result, self._db(), match_id, seat,
                                        float(raw.get("accuracy", 0.0)), int(raw.get("rated", 0)))
            except Exception:  # noqa: BLE001 - the review stands; its figure is missed
                log.exception("review of match %s seat %s: its accuracy not stored", match_id, seat)
            return data
        finally:
            self._pending.pop(key, None)

    def _store(self, key: int, data: bytes) -> None:
        if len(data) > self.cache_bytes:
            return
        old = self._cache.pop(key, None)
        if old is not None:
            self._cached_bytes -= len(old)
        self._cache[key] = data
        self._cached_bytes += len(data)
        while self._cached_bytes > self.cache_bytes:
            _, dropped = self._cache.popitem(last=False)
            self._cached_bytes -= len(dropped)

    def _db(self) -> Any:
        if self._engine is None:
            from laizi.server.persistence import db

            self._engine = db.make_engine(self.db_url)
        return self._engine

    async def accuracy_of(self, seats: list[tuple[int, int]]) -> dict[str, Any] | None:
        """The accuracy over the reviews of ``seats`` ((match id, seat), at most a profile
        page) built so far by any node (``review_results``) — nothing is built for it: the
        mean of their accuracies weighted by rated decisions, and how many matches it
        counts; None if none."""
        return await asyncio.to_thread(read_accuracy, self._db(), seats[:ACCURACY_PAGE])

    def cache_info(self) -> dict[str, int]:
        return {"entries": len(self._cache), "bytes": self._cached_bytes, **self.stats}

    # ------------------------------------------------------------- HTTP
    async def endpoint(self, request: Request) -> Response:
        """GET /api/matches/{match_id}/review?seat=N."""
        rid = request.scope.get("state", {}).get("request_id")

        def error(message: str, status: int = 400, retry_after: float | None = None,
                  **extra: Any) -> JSONResponse:
            resp = JSONResponse({"error": message, **extra, "request_id": rid}, status_code=status)
            if retry_after is not None:
                resp.headers["Retry-After"] = str(max(1, int(retry_after + 0.999)))
            return resp

        try:
            mid = int(request.path_params["match_id"])
            if not 1 <= mid <= 2**31 - 1:
                raise ValueError
        except ValueError:
            return error("bad match id")
        try:
            seat = int(request.query_params.get("seat", ""))
            if not 0 <= seat <= 3:
                raise ValueError
        except ValueError:
            return error("seat must be 0-3")
        client = request.client.host if request.client else "?"
        try:
            data = await self.get(mid, seat, client)
        except ReviewError as exc:
            if exc.status == 202:
                resp = JSONResponse({"pending": True, "progress": self.progress(mid, seat)},
                                    status_code=202, headers={"Retry-After": "1"})
                return resp
            return error(exc.message, exc.status, exc.retry_after, **coded(exc))
        except Exception:  # noqa: BLE001 - a journal that does not replay: logged, not shown
            log.exception("review of match %s seat %s failed", mid, seat)
            return error("the review failed", 500, code="review_failed")
        if data is None:
            return error("unknown match", 404, code="unknown_match")
        return Response(data, media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    async def card(self, match_id: int, client: str) -> dict[str, Any] | None:
        """The 战绩 card's data; raises :class:`ReviewError` (429, 403, 409)."""
        if not self.requests.allow(client):
            self.stats["limited"] += 1
            raise _limited("too many requests; slow down", self.requests.retry_after(client))
        for gate in self.gates:
            why = await gate(match_id)
            if why is not None:
                raise ReviewError(403, why, code="replay_withheld")
        data = await asyncio.to_thread(read_card, self._db(), match_id)
        if data is not None and data.get("in_play"):
            raise ReviewError(409, "the match is still in play: its card comes when it is over",
                              code="match_in_play")
        return data

    async def hand_card(self, match_id: int, hand: int, client: str) -> dict[str, Any] | None:
        """The big-hand card's data of a won hand; raises :class:`ReviewError` (429, 403,
        404 for a hand not played, 409 for a hand not over or not won)."""
        if not self.requests.allow(client):
            self.stats["limited"] += 1
            raise _limited("too many requests; slow down", self.requests.retry_after(client))
        for gate in self.gates:
            why = await gate(match_id)
            if why is not None:
                raise ReviewError(403, why, code="replay_withheld")
        key = (match_id, hand)
        data = self._hand_cards.get(key)
        if data is not None:  # a finished hand does not change
            self._hand_cards.move_to_end(key)
            return data
        data = await asyncio.to_thread(read_hand_card, self._db(), match_id, hand)
        if data is not None and "refused" in data:
            status, why, code = data["refused"]
            raise ReviewError(status, why, code=code)
        if data is not None:
            self._hand_cards[key] = data
            while len(self._hand_cards) > HAND_CARDS_KEEP:
                self._hand_cards.popitem(last=False)
        return data

    async def card_endpoint(self, request: Request) -> Response:
        """GET /api/matches/{match_id}/card and /api/matches/{match_id}/hands/{hand}/card."""
        rid = request.scope.get("state", {}).get("request_id")
        try:
            mid = int(request.path_params["match_id"])
            if not 1 <= mid <= 2**31 - 1:
                raise ValueError
        except ValueError:
            return JSONResponse({"error": "bad match id", "request_id": rid}, status_code=400)
        hand = request.path_params.get("hand")
        if hand is not None:
            try:
                hand = int(hand)
                if not 1 <= hand <= HAND_MAX:
                    raise ValueError
            except ValueError:
                return JSONResponse({"error": f"hand must be 1-{HAND_MAX}", "request_id": rid},
                                    status_code=400)
        client = request.client.host if request.client else "?"
        try:
            data = await (self.card(mid, client) if hand is None else self.hand_card(mid, hand, client))
        except ReviewError as exc:
            resp = JSONResponse({"error": exc.message, **coded(exc), "request_id": rid},
                                status_code=exc.status)
            if exc.retry_after is not None:
                resp.headers["Retry-After"] = str(max(1, int(exc.retry_after + 0.999)))
            return resp
        if data is None:
            return JSONResponse({"error": "unknown match", "code": "unknown_match", "request_id": rid},
                                status_code=404)
        origin = request.query_params.get("origin")
        if origin is not None:  # the share link's QR code, drawn on the card by the browser
            if not ORIGIN.fullmatch(origin):
                return JSONResponse({"error": "origin must be http(s)://host[:port]",
                                     "request_id": rid}, status_code=400)
            link = f"{origin}/replay/{mid}?card=1" if hand is None else \
                f"{origin}/replay/{mid}?hand={hand}&card=hand"
            data = {**data, "qr": share_qr(link)}
        return JSONResponse(data)

    def routes(self) -> list[Route]:
        return [Route("/api/matches/{match_id}/review", self.endpoint),
                Route("/api/matches/{match_id}/card", self.card_endpoint),
                Route("/api/matches/{match_id}/hands/{hand}/card", self.card_endpoint)]
