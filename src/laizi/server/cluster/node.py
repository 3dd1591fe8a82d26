"""One node of a cluster: the rooms it owns (leases), taking rooms over, the shared room
list, relayed connections both ways, and handing its rooms over when it stops (drain).

The hub calls it as its room directory (``Hub.directory``,
:class:`laizi.server.tables.directory.RoomDirectory`): :meth:`claim` (a new room), :meth:`hold`,
:meth:`locate` (a join of a room not in memory here), :meth:`relay`, :meth:`unbind`,
:meth:`room_gone`, :meth:`lead`, :meth:`list_rooms`, :meth:`sync_identities`,
:meth:`start` / :meth:`stop` / :meth:`drain`. Every ``tick`` seconds (``ttl / 6``) the
node says it is alive and renews its leases (a lost one: the room is given up at once), in
a loop of their own that no other work delays; and in another loop it takes
over the rooms nobody holds (the rendezvous-preferred node at once, any node on the next
tick), and moves its relayed connections after rooms that changed hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from laizi.server.cluster.affinity import Affinity  # affinity hook
from laizi.server.cluster.authsync import AuthSync, apply
from laizi.server.cluster.bus import Bus
from laizi.server.cluster.drain import hand_over
from laizi.server.cluster.leader import lead
from laizi.server.cluster.lease import KEY_ACTIVE, PREFIX, Leases, rendezvous
from laizi.server.cluster.lines import RedisLines
from laizi.server.cluster.remote import RemoteConn, RemoteConns
from laizi.server.cluster.router import Binding, Router
from laizi.server.cluster.takeover import raise_above
from laizi.server.common.connection import Conn
from laizi.server.persistence.fencing import FENCES, Fenced
from laizi.server.tables.room import Room

if TYPE_CHECKING:
    from laizi.server.tables.hub import Hub

__all__ = ["LEASE_TTL", "Node"]

log = logging.getLogger("laizi.server")

LEASE_TTL = 3.0            # seconds a lease lives without renewal (takeover < 5 s)
KEY_ROOMLIST = PREFIX + "roomlist"  # hash code → the room's lobby summary (and its node)
OLD_COMMAND_WAIT = 5.0     # seconds a takeover waits for the command of a copy given up here
PEER_MEMORY = 300.0       # seconds a node seen live is still told when this bus was cut
TAKE_TRIES = 3            # lease + fence tries of one takeover (a token behind the fence)
TAKES_PER_TICK = 64        # rooms one node takes over per tick (a big failover spreads)
# A sync asked for by a token this node does not know starts at most this often: a flood
# of well-signed but stale tokens (a session that ended) cannot keep the database busy.
TRIGGER_GAP = 0.05
REFRESH_TICKS = 20         # every this many ticks: the room list rewritten, the active set
                           # refilled from the database (a Redis that restarted empty)
ANNOUNCE_WAIT = 1.0        # seconds a node waits for the others to confirm an identity change
ANNOUNCE_KEEP = 10.0       # seconds an identity change is kept to tell a node seen only later


class Node:
    def __init__(self, hub: Hub, redis_url: str, name: str, ttl: float = LEASE_TTL, *,
                 dispatch: Callable[[Hub, Conn, Any], Awaitable[None]] | None = None) -> None:
        from laizi.server.guard.redisconn import async_client

        self.hub = hub
        self.name = name
        self.url = redis_url
        self.r: Any = async_client(redis_url)
        self.leases = Leases(self.r, name, ttl)
        self.tick = ttl / 6
        self.bus = Bus(self.r, name, self._on_bus)
        self.bus.on_back = self._bus_back
        self.lines = RedisLines(self.r, name, self.push, self.bus.send)  # quick match's queues
        self.router = Router(hub, self.bus)
        self.remotes = RemoteConns(hub, self.bus, dispatch)
        self.affinity = Affinity(self.r, name)  # affinity hook: owner hints (cluster/affinity.py)
        self.live: list[str] = [name]
        self.draining = False
        self.stats: dict[str, int] = {"takeovers": 0, "rooms_given_up": 0, "rooms_handed_over": 0}
        self._taking: dict[str, asyncio.Future[Room | None]] = {}
        self._orphans: set[str] = set()
        self._seen_owner: dict[str, tuple[str, int]] = {}  # locate → relay: the lease seen
        self._broken: set[str] = set()  # rooms that could not be resumed: not tried again
        self._given_up: dict[str, Room] = {}  # rooms lost while a command of theirs ran
        self._peers: dict[str, float] = {}  # nodes seen live lately → when (told of a bus cut)
        self._redis_down = False
        self._listed: dict[str, str] = {}
        self.room_list: list[dict[str, Any]] = []  # every node's public rooms (a tick old)
        self._loops: list[asyncio.Task[None]] = []  # the leases' beat, the other work
        self._auth: AuthSync | None = None
        self._auth_lock = asyncio.Lock()
        self._ticks = 0
        self._pings = 0
        self._told: list[tuple[float, str, Any, set[str]]] = []  # recent announcements: when, what, data, to whom
        self._pongs: dict[str, dict[str, asyncio.Future[bool]]] = {}  # ping id → node → answered

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        store = self.hub.store
        # rooms are taken over one by one (below), not all loaded here
        self.hub.players.update(await asyncio.to_thread(store.load_players))
        store.use_fences(FENCES, self.name, self._fenced)
        codes = await asyncio.to_thread(store.unfinished_codes)
        if codes:  # rooms of an earlier run: whoever is preferred takes them
            await self.r.sadd(KEY_ACTIVE, *codes)
        self.live = await self.leases.beat()
        with contextlib.suppress(RedisError, OSError):
            await self.affinity.refresh()  # affinity hook
        self._auth = AuthSync(store.engine, self.hub.auth)
        self.hub.auth.on_change = self._announce
        await self.bus.start()
        self._loops = [asyncio.ensure_future(self._keep()), asyncio.ensure_future(self._run())]

    async def stop(self) -> None:
        await self.drain()
        for t in self._loops:
            t.cancel()
        for t in self._loops:
            with contextlib.suppress(BaseException):
                await t
        await self.bus.stop()
        with contextlib.suppress(Exception):
            await self.affinity.leave()  # affinity hook
        with contextlib.suppress(Exception):
            await self.leases.leave()
        with contextlib.suppress(Exception):
            await self.r.aclose()

    def status(self) -> dict[str, Any]:
        """This node's figures (GET /cluster; plain numbers for the metrics exporter)."""
        return {"node": self.name, "pid": os.getpid(), "live_nodes": self.live, "draining": self.draining,
                "leases_held": len(self.leases.held), "rooms": sorted(self.leases.held),
                "relayed_out": len(self.router.bound), "relayed_in": len(self.remotes.conns),
                "fenced_writes": self.hub.store.fenced_writes,
                "identity_syncs": self._auth.syncs if self._auth else 0,
                "identity_syncs_asked": self._auth.asked if self._auth else 0,
                **self.stats, **self.leases.stats, **self.bus.stats, **self.affinity.stats}

    # ------------------------------------------------------------- hooks of the hub
    async def lead(self, job: str) -> bool:
        """Whether this node does the cluster-wide ``job`` now (cluster/leader.py)."""
        try:
            return not self.draining and await lead(self.r, job, self.name)
        except (RedisError, OSError):
            return False

    async def hold(self, code: str) -> bool:
        """Own room ``code``: True if this node holds its lease already, else as :meth:`claim`."""
        if code in self.leases.held:
            return True
        return await self.claim(code)

    async def claim(self, code: str) -> bool:
        """Own a new room ``code`` (False: the code is in use somewhere)."""
        token = await self.leases.acquire(code)
        if token is None:
            return False
        self.hub.store.fences[code] = token  # type: ignore[index]
        try:
            await self._raise_fence(code, token)
        except Fenced as exc:
            self.hub.store.fences.pop(code, None)  # type: ignore[union-attr]
            await self.leases.release(code)
            if exc.newer is not None:
                await self.leases.catch_up(code, exc.newer)
            return False
        await self.r.sadd(KEY_ACTIVE, code)
        return True

    async def locate(self, code: str) -> Room | str | None:
        """Room ``code`` is not in memory here: take it over if nobody holds it (the
        Room), else the name of the node that owns it; None when it runs nowhere."""
        owner = await self.leases.owner(code)
        if owner is not None and owner[0] == self.name and code not in self.hub.rooms:
            await self._drop_stale(code, owner[1])  # an earlier process of this name
            owner = None  # (or a take in flight here: awaited below)
        if owner is None and not self.draining:
            room = await self.take(code)
            if room is not None:
                return room
            owner = await self.leases.owner(code)
        if owner is None:
            return None
        if owner[0] == self.name:
            return self.hub.rooms.get(code)
        self._seen_owner[code] = owner
        return owner[0]

    def relay(self, conn: Conn, code: str, owner: str, spectate: bool) -> None:
        """Relay ``conn`` to room ``code`` on node ``owner`` (joining it there)."""
        self.affinity.hint(conn, code, owner, self.live)  # affinity hook: where the owner is
        seen = self._seen_owner.pop(code, None)
        token = seen[1] if seen is not None and seen[0] == owner else 0
        self.router.bind(conn, code, owner, spectate, token)

    def unbind(self, conn: Conn, *, closing: bool = False) -> None:
        """A relayed connection leaves its room (or its socket closes): the owner is told."""
        if closing:
            self.router.forget(conn)
        elif conn.relay is not None:
            self.router.unbind(conn)

    def room_gone(self, code: str) -> None:
        """Room ``code`` left memory for good (finished, or a closed lobby)."""
        if self.hub.store.fences is not None:
            self.hub.store.fences.pop(code, None)
        asyncio.ensure_future(self._forget_room(code))

    async def _forget_room(self, code: str) -> None:
        with contextlib.suppress(Exception):
            await self.leases.release(code)
            await self.r.srem(KEY_ACTIVE, code)
            await self.r.hdel(KEY_ROOMLIST, code)
        self._listed.pop(code, None)

    def list_rooms(self, limit: int) -> list[dict[str, Any]]:
        """Every node's public rooms (refreshed every other tick), at most ``limit``."""
        return self.room_list[:limit]

    async def find_player(self, player_id: str) -> str | None:
        """A player made on another node (its nickname), from the database."""
        return await asyncio.to_thread(self.hub.store.load_player, player_id)

    async def sync_identities(self, after: float) -> bool:
        """Catch up with the other nodes' logins and token changes (:meth:`sync_auth`)."""
        return await self.sync_auth(after=after)

    async def _fetch_rooms(self) -> list[dict[str, Any]]:
        """Every node's public rooms (the shared room list)."""
        raw = await self.r.hgetall(KEY_ROOMLIST)
        live = set(self.live)
        out = []
        for v in raw.values():
            d = json.loads(v)
            if d.pop("node", None) in live:
                out.append(d)
        out.sort(key=lambda d: (d["status"] != "lobby", d["code"]))
        return out

    # ------------------------------------------------------------- taking over, giving up
    async def take(self, code: str) -> Room | None:
        """Take room ``code`` over (its lease, then its fence, then its state from the
        database); None if another node has it or it is not running."""
        room = self.hub.rooms.get(code)
        if room is not None:
            return room
        fut = self._taking.get(code)
        if fut is not None:
            return await asyncio.shield(fut)
        fut = asyncio.get_running_loop().create_future()
        self._taking[code] = fut
        try:
            room = await self._take(code)
        except (RedisError, OSError) as exc:  # Redis away: another tick
            log.warning("node %s: taking room %s over failed (%s)", self.name, code,
                        (str(exc) or type(exc).__name__).splitlines()[0][:200])
            room = None
        except Exception:  # noqa: BLE001 - the database away, or a bug: another tick
            log.exception("node %s: taking room %s over failed", self.name, code)
            room = None
        finally:
            self._taking.pop(code, None)
        fut.set_result(room)
        return room

    async def _drop_stale(self, code: str, token: int) -> None:
        """Delete the lease of room ``code`` in this node's name (``token``) left by an
        earlier process of this name — never the lease of a take in flight here. A take
        marks the room (``_taking``) before it asks Redis for the lease, and learns its
        token (``leases.held``) only once Redis answers: a read of the lease answered in
        between shows this node's name and a token this process does not hold yet. Deleting
        it (as locate did, for a relayed seat rejoining a drained node's room while the
        drain's ``take`` of it ran here) let another node take the room over: this node's
        copy was fenced at its first write and given up, and the seat that joined it was
        left in a closed room (no snapshot, a frozen table)."""
        if code in self._taking or code in self.hub.rooms:
            return
        await self.leases.drop_stale(code, token)

    async def _take(self, code: str) -> Room | None:
        old = self._given_up.pop(code, None)
        if old is not None:  # its command in progress ends first (its write is refused)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(old.lock.acquire(), OLD_COMMAND_WAIT)
                old.lock.release()
        # A token counter behind the database's fence (Redis restarted empty): caught up
        # with it by the first try, the second gets a token above it.
        for _ in range(TAKE_TRIES):
            if self.draining:
                return None
            token = await self.leases.acquire(code)
            if token is None:
                return None
            try:
                return await self._load(code, token)
            except Fenced as exc:
                if exc.newer is None:
                    raise
        return None

    async def _load(self, code: str, token: int) -> Room | None:
        """Raise room ``code``'s fence to ``token`` (the lease just taken), then load it."""
        store = self.hub.store
        assert store.fences is not None
        store.fences[code] = token
        try:
            await self._raise_fence(code, token)  # no older owner can write from here on
            rec = await asyncio.to_thread(store.load_resumable_room, code)
            try:
                room = None if rec is None else Room.resume(rec, **self.hub.room_kw())
            except Exception:  # noqa: BLE001 - a broken room must not stop the node
                log.exception("room %s could not be resumed", code)
                self._broken.add(code)
                room = None
        except BaseException as exc:
            store.fences.pop(code, None)
            await self.leases.release(code)
            if isinstance(exc, Fenced) and exc.newer is not None:
                await self.leases.catch_up(code, exc.newer)  # the next try gets a newer token
            raise
        if room is None:  # finished or closed meanwhile
            store.fences.pop(code, None)
            await self.leases.release(code)
            await self.r.srem(KEY_ACTIVE, code)
            return None
        self.hub.rooms[code] = room
        self.stats["takeovers"] += 1
        log.warning("node %s: took room %s over (token %d, %s)", self.name, code, token, room.status)
        if room.status == "playing":
            room.schedule()
        return room

    async def _raise_fence(self, code: str, token: int) -> None:
        """Raise room ``code``'s fence to ``token``: above the one in the database, not
        equal (:mod:`laizi.server.cluster.takeover`: a Redis restarted empty)."""
        await raise_above(self.hub.store, code, token, self.name)

    def _fenced(self, code: str) -> None:
        """A write of room ``code`` was refused. While this node is taking the room (again)
        that was a write of the room's earlier copy here, given up already: the take goes
        on (its new lease and token are not touched)."""
        if code in self._taking and code not in self.hub.rooms:
            return
        self.lost(code)

    def lost(self, code: str) -> None:
        """This node may no longer write room ``code`` (its lease lapsed, or a write was
        fenced): the room leaves memory, its connections follow it to its new owner."""
        if self.hub.store.fences is not None:
            self.hub.store.fences.pop(code, None)
        self.leases.forget(code)
        room = self.hub.rooms.pop(code, None)
        if room is None:
            return
        self.stats["rooms_given_up"] += 1
        if room.lock.locked():
            self._given_up[code] = room
        log.warning("node %s: lost room %s; giving it up", self.name, code)
        if room.status in ("lobby", "playing"):  # it must run somewhere (Redis may have lost it)
            asyncio.ensure_future(self._reactivate(code))
        self.let_go(room)
        for c in [c for c in room.conns if not c.remote and not c.closed]:
            asyncio.ensure_future(self.router._rejoin(Binding(c, code, "", False)))
        room.close()

    async def _reactivate(self, code: str) -> None:
        with contextlib.suppress(Exception):
            await self.r.sadd(KEY_ACTIVE, code)

    def let_go(self, room: Room) -> None:
        """Tell the nodes relaying into ``room`` that it moved."""
        for c in list(room.conns):
            if isinstance(c, RemoteConn):
                c.quiet = True
                self.bus.send(c.node, {"k": "moved", "c": c.cid, "room": room.code})
        self._listed.pop(room.code, None)

    # ------------------------------------------------------------- drain
    async def drain(self, before: Callable[[], None] | None = None) -> None:
        """Hand every room over (SIGTERM; :func:`laizi.server.cluster.drain.hand_over`);
        ``before``: stop taking connections first (the proxy sends them elsewhere)."""
        if before is not None:
            before()
        if self.draining:
            return
        self.draining = True
        await hand_over(self)

    # ------------------------------------------------------------- the bus
    def _bus_back(self) -> None:
        """The bus lost messages (Redis away or restarted) and works again: frames of the
        owners for this node's relayed connections, their commands, a ``moved``, a
        ``join``. Each relayed connection here joins its room again wherever it runs now
        (a fresh ``joined`` + snapshot), and the other nodes are asked to do the same with
        theirs relayed into this node's rooms (``back``): whichever node's bus comes back
        last, its resync runs while both ends are subscribed."""
        n = self.router.resync()
        if n:
            log.warning("node %s: %d relayed connections resynced", self.name, n)
        now = time.monotonic()
        self._peers = {p: t for p, t in self._peers.items() if now - t < PEER_MEMORY}
        for peer in self._peers:
            if peer != self.name:
                self.bus.send(peer, {"k": "back"})

    def push(self, pid: str, msg: Any) -> int:
        """Send ``msg`` to every open connection of ``pid`` on this node."""
        n = 0
        for c in list(self.hub.conns):
            if c.player_id == pid and not c.closed and not c.remote:
                c.send(msg)
                n += 1
        return n

    def _announce(self, what: str, data: Any) -> None:
        """Tell every other live node of an identity change made here (kept a few seconds:
        a node this one has not seen yet is told when :meth:`announced` finds it)."""
        now = time.monotonic()
        self._told = [t for t in self._told if now - t[0] < ANNOUNCE_KEEP]
        to = {n for n in self.live if n != self.name}
        self._told.append((now, what, data, to))
        for n in to:
            self.bus.send(n, {"k": "auth", "what": what, "data": data})

    async def announced(self, timeout: float = ANNOUNCE_WAIT) -> bool:
        """Wait until every other live node handled what this node sent it so far — the
        identity changes announced (a session ended, a guest become an account): a ``ping``
        each, answered ``pong`` after everything sent before it (the bus keeps each
        sender's order). At most ``timeout`` seconds (a node that does not answer catches
        up by its auth sync within a second); True when every node answered."""
        self.live = await self.leases.beat()  # a node started since the last tick counts too
        others = [n for n in self.live if n != self.name]
        now = time.monotonic()
        for t, what, data, to in self._told:  # what a newly seen node was not told yet
            for n in others:
                if n not in to and now - t < ANNOUNCE_KEEP:
                    to.add(n)
                    self.bus.send(n, {"k": "auth", "what": what, "data": data})
        if not others:
            return True
        self._pings += 1
        pid = f"{self.bus.boot}:{self._pings}"
        waiting = {n: asyncio.get_running_loop().create_future() for n in others}
        self._pongs[pid] = waiting
        for n in others:
            self.bus.send(n, {"k": "ping", "id": pid})
        try:
            await asyncio.wait_for(asyncio.gather(*waiting.values()), timeout)
            return True
        except TimeoutError:
            log.warning("node %s: nodes %s did not confirm an identity change within %.1f s",
                        self.name, sorted(n for n, f in waiting.items() if not f.done()), timeout)
            return False
        finally:
            self._pongs.pop(pid, None)

    def _on_bus(self, env: dict[str, Any]) -> None:
        k = env.get("k")
        if k == "auth":
            apply(self.hub.auth, str(env["what"]), list(env["data"]))
            return
        if k == "ping":
            self.bus.send(str(env["n"]), {"k": "pong", "id": str(env["id"])[:64]})
            return
        if k == "pong":
            f = self._pongs.get(str(env["id"]), {}).get(str(env["n"]))
            if f is not None and not f.done():
                f.set_result(True)
            return
        if k == "qtell":  # a quick-match table made on another node for a player waiting here
            self.push(str(env["pid"]), env["msg"])
            return
        if k in ("join", "in", "gone"):
            self.remotes.on_message(env)
        elif k in ("out", "unbind", "close", "moved"):
            self.router.on_message(env)
        elif k == "take":
            asyncio.ensure_future(self.take(str(env["room"])))
        elif k == "back":  # its bus lost messages: resync what is relayed into its rooms
            n = self.router.resync(str(env["n"]))
            if n:
                log.warning("node %s: %d relayed connections into node %s's rooms resynced",
                            self.name, n, env["n"])

    # ------------------------------------------------------------- the loop
    async def _keep(self) -> None:
        """Beat and renew the leases every tick, in a loop of their own: a slow step of
        the other work (a database read, taking rooms over) never lets a lease lapse."""
        await self._every_tick(self._renew)

    async def _renew(self) -> None:
        self.live = await self.leases.beat()
        now = time.monotonic()
        self._peers.update((n, now) for n in self.live)
        for code in await self.leases.renew():
            self.lost(code)
        self.remotes.drop_node(set(self.live))

    async def _run(self) -> None:
        await self._every_tick(self._tick)

    async def _every_tick(self, work: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await work()
                if self._redis_down:
                    self._redis_down = False
                    log.warning("node %s: Redis is back", self.name)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:  # Redis away: the next tick tries again
                if not self._redis_down:
                    self._redis_down = True
                    log.warning("node %s: Redis unreachable (%s); its rooms go on, leases "
                                "lapse", self.name, str(exc).splitlines()[0][:200])
            except Exception:  # noqa: BLE001 - a bug: logged, the next tick tries again
                log.exception("node %s: tick failed", self.name)
            await asyncio.sleep(self.tick)

    async def sync_auth(self, *, after: float | None = None, soon: float = 0.5) -> bool:
        """Catch up with the logins, logouts and token rotations of the other nodes: when
        ``after`` (a time.monotonic()) is given, unless a sync started since then (a token
        this node did not know: the sync sees every commit made before the token arrived);
        else unless one started within ``soon`` seconds. True when the data is fresh. Syncs
        asked for by tokens start at most every :data:`TRIGGER_GAP` seconds."""
        a = self._auth
        if a is None:
            return False
        async with self._auth_lock:
            if after is not None and a.last >= after:
                return True
            if after is None and time.monotonic() - a.last < soon:
                return False
            if after is not None:  # asked for by a token: at most one every TRIGGER_GAP
                wait = a.last + TRIGGER_GAP - time.monotonic()
                if wait > 0:  # (the requests arriving meanwhile share this one)
                    await asyncio.sleep(wait)
                a.asked += 1
            a.last = time.monotonic()
            await asyncio.to_thread(a.sync)
            return True

    async def _tick(self) -> None:
        self._ticks += 1
        self._given_up = {c: r for c, r in self._given_up.items() if r.lock.locked()}
        if self._ticks % 2 == 0:
            await self.sync_auth()
        if self._ticks % REFRESH_TICKS == 0:
            await self._refresh()
        await self._scavenge()
        bound = self.router.rooms()
        if bound:
            await self.router.check(await self.leases.owners(bound))
        await self._publish_rooms()
        if self._ticks % 2 == 0:
            self.room_list = await self._fetch_rooms()
            await self.affinity.refresh()  # affinity hook

    async def _refresh(self) -> None:
        """Put back what a Redis restarted without its data lost: the rooms that should
        run (from the database) and this node's entries of the room list."""
        codes = await asyncio.to_thread(self.hub.store.unfinished_codes)
        if codes:
            await self.r.sadd(KEY_ACTIVE, *codes)
        self._listed = {}

    async def _scavenge(self) -> None:
        """Take over the rooms that should run and that nobody holds."""
        if self.draining:
            return
        active = [c.decode() if isinstance(c, bytes) else str(c)
                  for c in await self.r.smembers(KEY_ACTIVE)]
        cands = [c for c in active if c not in self.leases.held and c not in self.hub.rooms
                 and c not in self._broken]
        owners = await self.leases.owners(cands)
        for c, o in owners.items():
            if o is not None and o[0] == self.name:  # an earlier process of this name
                await self._drop_stale(c, o[1])
                owners[c] = None
        orphans = {c for c, o in owners.items() if o is None}
        # A dead node's rooms: its lease lapsed, and by then it has not beaten for longer
        # than a live node ever waits, so it is no longer preferred (leases.fresh).
        mine = [c for c in sorted(orphans)
                if c in self._orphans or rendezvous(c, self.leases.fresh) == self.name]
        self._orphans = orphans
        for code in mine[:TAKES_PER_TICK]:
            await self.take(code)

    async def _publish_rooms(self) -> None:
        """Put this node's public rooms in the shared room list (those that changed)."""
        now: dict[str, str] = {}
        for code, r in self.hub.rooms.items():
            if not r.listed() or code not in self.leases.held:
                continue
            d = {**r.summary(), "node": self.name}
            now[code] = json.dumps(d, ensure_ascii=False, separators=(",", ":"))
        changed = {c: v for c, v in now.items() if self._listed.get(c) != v}
        gone = [c for c in self._listed if c not in now]
        if changed or gone:
            pipe = self.r.pipeline(transaction=False)
            if changed:
                pipe.hset(KEY_ROOMLIST, mapping=changed)
            if gone:
                pipe.hdel(KEY_ROOMLIST, *gone)
            await pipe.execute()
            self.leases.stats["redis_round_trips"] += 1
        self._listed = now
