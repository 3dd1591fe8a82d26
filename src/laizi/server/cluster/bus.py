"""Messages between nodes over Redis pub/sub: one channel per node (``laizi:node:{name}``).

A node only ever receives what is addressed to it: the frames of the connections it
holds (a relayed seat's frames go to the one node that seat's socket is on, never to a
shared channel), and the commands of the connections in the rooms it owns. Messages are
dicts (``k``: their kind); the ones queued for a node in the same loop turn go out as one
``PUBLISH``, all of them in one pipelined round trip, in the order they were queued
(pub/sub keeps it on one connection).

On the wire a message is ``k US node US conn US room US body`` (US = 0x1F) and a batch
joins them with RS (0x1E): the body of a frame or a command is its JSON text as it is, not
quoted again (JSON never holds a raw control character, so the separators cannot occur).

**Signed.** Every ``PUBLISH`` is signed by its sender with the cluster key
(``LAIZI_CLUSTER_KEY``, shared by the nodes through their configuration, never through
Redis): ``mac GS sender GS boot GS seq GS ms GS batch`` (GS = 0x1D), the MAC an HMAC-SHA256
over the destination channel, the sender, its boot id, a sequence number, the time in ms
and the batch. A receiver refuses (and logs) a message whose MAC is wrong (forged, or
meant for another channel), whose time is more than :data:`MAX_SKEW` seconds away from its
own clock, whose sequence number is not above the last one it took from that sender's boot
(a replay), or whose inner messages name another sender. Anyone who can reach Redis can
publish, so nothing a node does rests on an unsigned word (docs/security.md).

**Compressed where it pays.** A batch of :data:`ZIP_MIN` bytes or more goes out compressed
(zlib, level :data:`ZIP_LEVEL`: its body is FS (0x1C) and the deflated batch; signed as
it travels, so the MAC is checked before anything is inflated, and a batch inflating past
:data:`MAX_BATCH` bytes is refused) — but only to a node known to read it: a node's boot
id ends in ``z`` when it does, and a sender compresses to a node only once it has taken a
message from that node's current boot (an owner always has: a relayed connection's frames
follow its ``join``). A node of an older release never gets one: during a rolling deploy
the two kinds talk in text. The frames of one room's seats share most of their text (the
public patch, the countdowns), and a frame's JSON is repetitive: 0.3–0.4 of the bytes on
Redis and between machines, for ~20 µs of CPU per action; Redis's own CPU, spent per
command more than per byte, does not fall (docs/deploy.md, "The relay compressed").

Pub/sub is at most once: what is published to a node while its subscription is cut (Redis
away or restarted) is lost. The bus then subscribes anew (every 0.1 s until Redis answers)
and, once Redis confirms the subscription, calls ``on_back`` (also after a publish that
failed while the subscription held): the node resyncs the connections it relays and asks
the others to resync those they relay into its rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
import zlib
from collections.abc import Callable
from typing import Any

__all__ = ["KEY_ENV", "MAX_BATCH", "MIN_KEY", "ZIP_MIN", "BadBatch", "Bus", "ClusterKeyError", "channel",
           "cluster_key", "decode", "encode", "sign", "sign_zipped", "verify"]

US, RS, GS = "\x1f", "\x1e", "\x1d"
_GS = GS.encode()
_ZIPPED = b"\x1c"   # FS: a compressed batch's body starts with it (JSON never holds one)
ZIP_MIN = 512       # bytes of a batch from which it is sent compressed (to a node that reads it)
ZIP_LEVEL = 1       # zlib's fastest level: nearly all of the bytes saved, a fraction of the CPU
MAX_BATCH = 64 * 2**20  # bytes a compressed batch may inflate to (else refused)
ZIP_BOOT = "z"      # the last character of the boot id of a node that reads compressed batches
KEY_ENV = "LAIZI_CLUSTER_KEY"
MIN_KEY = 32        # characters of a cluster key at least
MAX_SKEW = 60.0     # seconds a signed message's clock may differ from the receiver's
SEEN_KEEP = 600.0   # seconds a sender boot's last sequence number is remembered
_BODY = {"out": "t", "in": "m"}  # kinds whose body is a text (else: the other fields, as JSON)
_HEAD = ("k", "n", "c", "room")

log = logging.getLogger("laizi.server")

RESUBSCRIBE_EVERY = 0.1  # seconds between tries to subscribe again while Redis is away


def channel(node: str) -> str:
    return f"laizi:node:{node}"


class ClusterKeyError(ValueError):
    """No usable cluster key: a node does not start."""


def cluster_key(raw: str | None = None) -> bytes:
    """The cluster key (``raw``, else ``LAIZI_CLUSTER_KEY``): at least :data:`MIN_KEY`
    characters, the same on every node."""
    raw = os.environ.get(KEY_ENV) if raw is None else raw
    raw = (raw or "").strip()
    if len(raw) < MIN_KEY:
        raise ClusterKeyError(
            f"a cluster node needs {KEY_ENV}: a secret of at least {MIN_KEY} characters, the "
            f"same on every node (e.g. {KEY_ENV}=$(python3 -c 'import secrets; "
            "print(secrets.token_hex(32))'), or --cluster-key-file)"
            if not raw else f"{KEY_ENV} is too short: at least {MIN_KEY} characters")
    return raw.encode()


def _mac(key: bytes, chan: str, signed: bytes) -> str:
    return hmac.new(key, chan.encode() + _GS + signed, hashlib.sha256).hexdigest()


def sign(key: bytes, chan: str, sender: str, boot: str, seq: int, text: str,
         now_ms: int | None = None) -> str:
    """A batch ``text`` for channel ``chan``, signed (see the module's doc)."""
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    signed = f"{sender}{GS}{boot}{GS}{seq}{GS}{ms}{GS}{text}"
    return f"{_mac(key, chan, signed.encode())}{GS}{signed}"


def sign_zipped(key: bytes, chan: str, sender: str, boot: str, seq: int, text: str,
                now_ms: int | None = None) -> bytes:
    """:func:`sign`, the batch compressed (for a node that reads it: the module's doc)."""
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    signed = (f"{sender}{GS}{boot}{GS}{seq}{GS}{ms}{GS}".encode() + _ZIPPED
              + zlib.compress(text.encode(), ZIP_LEVEL))
    return _mac(key, chan, signed).encode() + _GS + signed


class BadBatch(ValueError):
    """A batch signed with the cluster key that cannot be read (cut, or too large)."""


def _inflate(raw: bytes) -> bytes:
    d = zlib.decompressobj()
    try:
        out = d.decompress(raw, MAX_BATCH)
    except zlib.error as exc:
        raise BadBatch(f"a compressed batch that does not inflate ({exc})") from None
    if d.unconsumed_tail:
        raise BadBatch(f"a compressed batch above {MAX_BATCH} bytes")
    if not d.eof:
        raise BadBatch("a compressed batch cut short")
    return out


def verify(key: bytes, chan: str, data: str | bytes) -> tuple[str, str, int, float, str]:
    """``(sender, boot, seq, time in s, batch)`` of a signed message for ``chan`` (its batch
    inflated if it came compressed); raises ValueError when it is not signed with ``key``
    for that channel (:class:`BadBatch` when it is but cannot be read). The MAC is checked
    first: nothing unsigned is inflated."""
    raw = data.encode() if isinstance(data, str) else data
    mac, sep, signed = raw.partition(_GS)
    if not sep or not hmac.compare_digest(mac, _mac(key, chan, signed).encode()):
        raise ValueError("bad signature")
    parts = signed.split(_GS, 4)
    if len(parts) != 5:
        raise BadBatch("a batch without its header")
    sender, boot, seq, ms = (x.decode() for x in parts[:4])
    body = parts[4]
    if body[:1] == _ZIPPED:
        body = _inflate(body[1:])
    try:
        return sender, boot, int(seq), int(ms) / 1000, body.decode()
    except ValueError:  # (UnicodeDecodeError too)
        raise BadBatch("a batch that is not UTF-8 text, or a bad header") from None


def encode(msg: dict[str, Any]) -> str:
    k = msg["k"]
    text_key = _BODY.get(k)
    if text_key is not None:
        body = msg[text_key]
    else:
        rest = {key: v for key, v in msg.items() if key not in _HEAD}
        body = json.dumps(rest, ensure_ascii=False, separators=(",", ":")) if rest else ""
    c = msg.get("c")
    return f"{k}{US}{msg['n']}{US}{'' if c is None else c}{US}{msg.get('room') or ''}{US}{body}"


def decode(record: str) -> dict[str, Any]:
    k, n, c, room, body = record.split(US, 4)
    msg: dict[str, Any] = {"k": k, "n": n, "room": room}
    if c:
        msg["c"] = int(c)
    text_key = _BODY.get(k)
    if text_key is not None:
        msg[text_key] = body
    elif body:
        msg.update(json.loads(body))
    return msg


class Bus:
    """Send (:meth:`send`, never blocks) and receive (``handler``, called in order)."""

    def __init__(self, redis: Any, node: str, handler: Callable[[dict[str, Any]], None], *,
                 key: bytes | None = None) -> None:
        self.r = redis
        self.node = node
        self.handler = handler
        self.key = cluster_key() if key is None else key
        # this run of the node (its sequence numbers start at 1); the "z": it reads compressed
        self.boot = secrets.token_hex(8) + ZIP_BOOT
        self.zip_min: int | None = ZIP_MIN  # None: never compress (what an older release did)
        self._zips: dict[str, bool] = {}  # node → its current boot reads compressed batches
        self._seq = 0
        self._seen: dict[tuple[str, str], tuple[int, float]] = {}  # (sender, boot) → last seq, when
        self._refused_logged = 0
        self._out: dict[str, list[dict[str, Any]]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._down = False  # Redis away (logged once)
        self._lapsed = False  # messages to or from this node were lost since the last on_back
        self._confirmed = False  # Redis confirmed the current subscription
        self._again = False      # ... and a second confirmation of it means it was cut
        # Called once the bus works both ways again after messages were lost (the node
        # resyncs what it relays, and asks the others to resync what they relay to it)
        self.on_back: Callable[[], None] | None = None
        self.stats: dict[str, int] = {"routed_out": 0, "routed_in": 0, "bus_bytes_out": 0,
                                      "bus_bytes_in": 0, "bus_publishes": 0, "bus_refused": 0,
                                      "bus_zipped": 0, "bus_text_bytes_out": 0}

    async def start(self) -> None:
        await self._subscribe()
        self._tasks = [asyncio.ensure_future(self._receive()), asyncio.ensure_future(self._publish())]

    async def _subscribe(self) -> None:
        """A new subscription to this node's channel (its confirmation is the first message)."""
        ps = self.r.pubsub()
        try:
            await ps.subscribe(channel(self.node))
        except BaseException:
            with contextlib.suppress(Exception):
                await ps.aclose()
            raise
        self._pubsub = ps
        self._confirmed = False
        self._again = False

    async def stop(self) -> None:
        await self.flush()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()

    def send(self, node: str, msg: dict[str, Any]) -> None:
        """Queue ``msg`` for ``node`` (sent in order, in the next batch)."""
        msg["n"] = self.node
        self._out.setdefault(node, []).append(msg)
        self._wake.set()

    async def flush(self) -> None:
        """Send what is queued now (used before a node lets its rooms go)."""
        while self._out:
            await self._send_batch()

    async def _send_batch(self) -> None:
        out, self._out = self._out, {}
        if not out:
            return
        pipe = self.r.pipeline(transaction=False)
        for node, msgs in out.items():
            self._seq += 1
            chan = channel(node)
            batch = RS.join(encode(m) for m in msgs)
            self.stats["bus_text_bytes_out"] += len(batch)
            if self.zip_min is not None and len(batch) >= self.zip_min and self._zips.get(node):
                data = sign_zipped(self.key, chan, self.node, self.boot, self._seq, batch)
                self.stats["bus_zipped"] += 1
            else:  # (as bytes: what is published, and counted)
                data = sign(self.key, chan, self.node, self.boot, self._seq, batch).encode()
            self.stats["bus_bytes_out"] += len(data)
            self.stats["routed_out"] += len(msgs)
            pipe.publish(chan, data)
        self.stats["bus_publishes"] += 1
        await pipe.execute()

    async def _publish(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self._send_batch()
                self._down = False
            except Exception as exc:  # noqa: BLE001 - Redis away: lost, like a cut socket
                self._report(exc, "publishing")
                self._lapsed = True
                await asyncio.sleep(0.2)
            else:
                self._maybe_back()

    def _report(self, exc: Exception, what: str) -> None:
        """Log a failure: once per outage when Redis is away, else with its traceback."""
        from redis.exceptions import RedisError

        if not isinstance(exc, RedisError | OSError):
            log.error("node %s: %s failed", self.node, what, exc_info=exc)
        elif not self._down:
            self._down = True
            log.warning("node %s: %s failed (%s); retrying", self.node, what,
                        (str(exc) or type(exc).__name__).splitlines()[0][:200])

    async def _receive(self) -> None:
        while True:
            if self._pubsub is None and not await self._resubscribe():
                await asyncio.sleep(RESUBSCRIBE_EVERY)
                continue
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away: subscribe again
                self._report(exc, "receiving")
                await self._drop_subscription()
                continue
            if msg is None:
                continue
            kind = msg.get("type")
            if kind == "subscribe":
                self._subscribed()
            elif kind == "message":
                self._deliver(msg["data"])

    async def _resubscribe(self) -> bool:
        try:
            await self._subscribe()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - Redis still away: try again shortly
            self._report(exc, "subscribing")
            return False
        return True

    async def _drop_subscription(self) -> None:
        """The subscription broke (Redis went away, or restarted): a new one is made (see
        :meth:`_receive`) rather than trusting the client library to restore this one."""
        self._lapsed = True
        self._confirmed = False
        ps, self._pubsub = self._pubsub, None
        if ps is not None:
            with contextlib.suppress(Exception):
                await ps.aclose()

    def _subscribed(self) -> None:
        """Redis confirmed the subscription: from now on nothing sent here is lost. A second
        confirmation of the same subscription means it was cut too: the client library
        found its connection closed, connected again and subscribed anew by itself."""
        if self._again:
            self._lapsed = True
        self._again = self._confirmed = True
        self._maybe_back()

    def _maybe_back(self) -> None:
        """Once messages were lost (a publish failed, the subscription was cut) and the bus
        works both ways again (subscribed, and publishing), ``on_back`` resyncs."""
        if not (self._lapsed and self._confirmed):
            return
        self._lapsed = False
        self._down = False
        log.warning("node %s: the bus is back after Redis was away; messages sent meanwhile "
                    "are lost (the relayed connections resync)", self.node)
        if self.on_back is not None:
            try:
                self.on_back()
            except Exception:  # noqa: BLE001 - the bus goes on
                log.exception("node %s: resync after the bus came back failed", self.node)

    def _refuse(self, why: str, sender: str = "?") -> None:
        """A message not taken: counted, and logged (the first 20, then every 1000th)."""
        self.stats["bus_refused"] += 1
        n = self.stats["bus_refused"]
        if n <= 20 or n % 1000 == 0:
            log.warning("node %s: bus message refused (%s; claimed sender %s; %d refused so far)",
                        self.node, why, sender[:64], n)

    def _open(self, data: bytes | str) -> list[dict[str, Any]] | None:
        """The messages of a signed batch, or None (refused, logged)."""
        try:
            sender, boot, seq, at, body = verify(self.key, channel(self.node), data)
        except BadBatch as exc:
            self._refuse(str(exc))
            return None
        except ValueError:
            self._refuse("not signed with the cluster key")
            return None
        now = time.time()
        if abs(now - at) > MAX_SKEW:
            self._refuse(f"signed {now - at:+.0f} s ago", sender)
            return None
        last = self._seen.get((sender, boot))
        if last is not None and seq <= last[0]:
            self._refuse(f"replayed (sequence {seq}, last {last[0]})", sender)
            return None
        try:
            batch = [decode(rec) for rec in body.split(RS)]
        except ValueError:
            self._refuse("malformed", sender)
            return None
        if any(m.get("n") != sender for m in batch):
            self._refuse("an inner message names another sender", sender)
            return None
        self._seen[(sender, boot)] = (seq, now)
        self._zips[sender] = boot.endswith(ZIP_BOOT)  # (its latest boot: a node may restart older)
        if len(self._seen) > 64:
            self._seen = {k: v for k, v in self._seen.items() if now - v[1] < SEEN_KEEP}
        return batch

    def _deliver(self, data: bytes | str) -> None:
        self.stats["bus_bytes_in"] += len(data)
        batch = self._open(data)
        if batch is None:
            return
        for m in batch:
            self.stats["routed_in"] += 1
            try:
                self.handler(m)
            except Exception:  # noqa: BLE001 - one bad message must not stop the bus
                log.exception("node %s: bus message %r failed", self.node, m.get("k"))
