"""The WebSocket command loop and one handler per client message type (an explicit table).

:func:`serve_ws` reads frames, parses them (:mod:`laizi.server.common.protocol`) and calls the
handler for the frame's type. ``hello``, ``ping``, ``create`` and ``join`` need no room;
every other command runs under its room's lock. A handler parses, checks what needs the
connection or the server (a 段位 range, the seat cool-down, the chat rate, mutes, the count
of bot tables), then runs the room's command (:class:`laizi.server.tables.room.Room`:
``play``, ``escape``, ``set_auto``, and the lobby's ``sit``, ``stand``, ``set_bot``,
``start``, ``kick``, ``hand_over_host``, ``say``...), which checks the room's own rules,
changes it, stores it and tells the room; a handler never changes a room itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from laizi.game import Action
from laizi.server.clubs.etiquette import MuteError
from laizi.server.common import protocol as p
from laizi.server.common.chat import (
    EMOTES,
    PHRASES_ID,
    QUICK_PHRASES,
    RATE_COUNT,
    RATE_WINDOW,
    ChatError,
    clean_text,
)
from laizi.server.common.connection import Conn
from laizi.server.common.protocol import (
    ProtocolError,
    RoomStatus,
    new_request_id,
    parse_client_message,
)
from laizi.server.guard.limits import CHAT
from laizi.server.net.flowcmds import FLOW_HANDLERS
from laizi.server.net.wsdirect import direct_writer, owner_of
from laizi.server.tables.engine import dumps
from laizi.server.tables.frames import EVENT_SHAPES, TABLES_ID, VIEW_KEYS
from laizi.server.tables.hub import Hub
from laizi.server.tables.room import Room
from laizi.server.tables.roomwire import as_sent, remember

__all__ = ["CONN_HANDLERS", "ROOM_HANDLERS", "dispatch", "serve_ws"]

log = logging.getLogger("laizi.server")

SENDER_DRAIN = 2.0  # seconds a closing connection's queue may take to flush
ACTION_KEYS = frozenset({"type", "tile"})  # an action's keys on the wire (Action.to_json)


async def serve_ws(hub: Hub, ws: WebSocket) -> None:
    await ws.accept()
    if not await hub.ops.caps.admit():
        hub.stats["conns_refused"] += 1
        with contextlib.suppress(Exception):
            await ws.send_text(dumps(p.error_msg("server_full", "the server is full; try again later")))
            await ws.close(code=1013)
        return
    _bound_send_buffer(ws, hub.cfg.socket_send_buffer)
    peer = ws.client.host if ws.client else ""
    conn = Conn(ws, queue_max=hub.cfg.send_queue_max, queue_bytes=hub.cfg.send_queue_bytes,
                msg_rate=hub.cfg.msg_rate, peer=peer)
    if hub.cfg.direct_send:  # frames written at once when the socket takes them (wsdirect)
        conn.direct = direct_writer(getattr(ws, "_send", None), hub.stats)
        if conn.direct is not None:
            hub.stats["conns_direct"] += 1
    task = asyncio.current_task()
    assert task is not None
    conn.on_drop = lambda: _cut(hub, ws, task)
    hub.conns.add(conn)
    sender = asyncio.ensure_future(conn.sender())
    hello_timer = asyncio.get_running_loop().call_later(hub.cfg.hello_timeout, _hello_deadline, conn)
    try:
        await _receive_loop(hub, conn, ws)
    except asyncio.CancelledError:
        if not conn.dropped:
            raise
        task.uncancel()  # we cut this socket ourselves (a client that does not read)
    finally:
        hello_timer.cancel()
        hub.conns.discard(conn)
        await hub.ops.caps.release(conn.player_id)
        await hub.disconnected(conn)
        conn.close()
        if conn.dropped:
            sender.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, SENDER_DRAIN)


async def _receive_loop(hub: Hub, conn: Conn, ws: WebSocket) -> None:
    while not conn.closed:
        try:
            msg = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            break
        if msg["type"] == "websocket.disconnect":
            break
        raw = msg.get("text")
        if raw is None:
            raw = msg.get("bytes")
        if raw is None:
            continue
        if not conn.throttle():
            conn.error("rate_limited", "too many messages; slow down")
            continue
        t0 = time.perf_counter()
        try:
            m = parse_client_message(raw)
            await dispatch(hub, conn, m)
            hub.ops.metrics.message(m.type, time.perf_counter() - t0)
        except ProtocolError as exc:
            hub.stats["errors"] += 1
            conn.error(exc.code, exc.message, option=exc.option)
        except Exception:  # noqa: BLE001 - one bad command must not drop the socket
            hub.stats["errors"] += 1
            rid = new_request_id()  # in the log and the client's error frame
            log.exception("conn %s: command failed (request %s)", conn.id, rid)
            conn.send(p.internal_error(rid))


def _hello_deadline(conn: Conn) -> None:
    if conn.player_id is None and not conn.closed:
        conn.error("hello_timeout", "no hello: closing")
        conn.close()


def _bound_send_buffer(ws: WebSocket, size: int) -> None:
    """Cap what the kernel holds for this socket (``SO_SNDBUF``). Left alone, Linux grows a
    socket's send buffer to 4 MB for a peer that does not read: thousands of compact frames
    (over a minute of a fast table) before our own queue, and its limit, see any of them;
    and 4 MB of kernel memory per such socket."""
    transport = _transport_of(getattr(ws, "_send", None)) if size > 0 else None
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


def _cut(hub: Hub, ws: WebSocket, task: asyncio.Task[Any]) -> None:
    """Cut a dropped connection's socket now. ASGI has no way to abort a connection (a
    close waits behind the frames the peer does not read, and the socket would linger),
    so the transport is found behind the ``send`` callable uvicorn gave us; failing that,
    the connection's task is cancelled (our queue is freed either way)."""
    hub.stats["conns_dropped"] += 1
    transport = _transport_of(getattr(ws, "_send", None))
    if transport is not None:
        sock = transport.get_extra_info("socket")
        if sock is not None:  # reset, not a close: the kernel drops the unread frames too
            with contextlib.suppress(Exception):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    else:
        task.cancel()


def _transport_of(send: Any) -> Any:
    """The transport (asyncio's or uvloop's) behind an ASGI ``send`` (uvicorn's protocol's),
    or None."""
    proto = owner_of(send, _has_transport)
    return None if proto is None else proto.transport


def _has_transport(owner: Any) -> bool:
    t = getattr(owner, "transport", None)
    return callable(getattr(t, "abort", None)) and callable(getattr(t, "get_extra_info", None))


async def dispatch(hub: Hub, conn: Conn, m: Any) -> None:
    """Run the handler of ``m.type``: from :data:`CONN_HANDLERS` (no room needed) or
    :data:`ROOM_HANDLERS` (under the lock of the connection's room)."""
    t: str = m.type
    if t not in BEFORE_HELLO and conn.player_id is None:
        raise ProtocolError("hello_first", "say hello first (with your token or a nickname)")
    conn_handler = CONN_HANDLERS.get(t)
    if conn_handler is not None:
        await conn_handler(hub, conn, m)
        return
    if conn.relay is not None:  # the room lives on another node (laizi.server.cluster)
        await conn.relay(m)
        return
    handler = ROOM_HANDLERS[t]
    room = hub.room_of(conn)
    if room is None:
        raise ProtocolError("no_room", "join a room first")
    async with room.lock:
        if conn not in room.conns:  # left while waiting
            raise ProtocolError("no_room", "join a room first")
        await handler(hub, conn, room, m)


async def on_ping(hub: Hub, conn: Conn, m: p.Ping) -> None:
    conn.send(p.pong(m.t))


async def on_create(hub: Hub, conn: Conn, m: p.Create) -> None:
    await hub.create_room(conn, m.settings)


async def on_join(hub: Hub, conn: Conn, m: p.Join) -> None:
    await hub.limits.check("join", conn.peer, conn.player_id)
    await hub.join(conn, m.room, m.spectate)


async def on_hello(hub: Hub, conn: Conn, m: p.Hello) -> None:
    """Identify the connection. Its identity is fixed from then on: a later ``hello`` may
    only rename the same player (its own token), never become someone else."""
    if conn.player_id is not None and await hub.identify(m.token) != conn.player_id:
        raise ProtocolError("identity_locked", "this connection already has an identity; "
                                               "open a new connection to be someone else")
    if m.proto is not None and m.proto < p.PROTOCOL:  # an old page (cached, or open across an upgrade)
        conn.send(p.old_client(m.proto))
        conn.close()
        return
    # No protocol said: a page before protocol 2, or a script that sets a table up and reads
    # no table frames (../shared/tools/screens.py). Served until its first table frame,
    # which is the error old_client instead (RoomFrames.frame).
    conn.legacy = m.proto is None
    first = conn.player_id is None
    try:
        info = await hub.guest(m.token, m.nickname, rename=m.rename, peer=conn.peer)
    except ProtocolError:
        raise
    except ValueError as exc:
        raise ProtocolError("bad_nickname", str(exc)) from None
    if first and not await hub.ops.caps.identify(info["player_id"]):
        conn.error("too_many_connections", f"at most {hub.cfg.max_conns_per_player} connections "
                                           "per player; close another one first")
        conn.close()
        return
    hub.conns.identify(conn, info["player_id"])
    conn.credential = hub.auth.credential(info["token"])  # closed when it ends (Hub._sweep_sessions)
    conn.nickname = info["nickname"]
    conn.tables = TABLES_ID if m.tables and m.proto is not None else ""
    if m.room_patch != conn.room_patch:  # (a second hello may say otherwise)
        conn.room_patch, conn.room_base = m.room_patch, None
    have = set(m.have)
    conn.send(p.welcome(info, hub.bot_levels(),
                        None if PHRASES_ID in have else _PHRASES,
                        _TABLES if conn.tables and TABLES_ID not in have else None,
                        {"phrases_id": PHRASES_ID, **({"tables_id": TABLES_ID} if conn.tables else {})}))


_PHRASES = {k: list(v) for k, v in QUICK_PHRASES.items()}
_TABLES = {"keys": list(VIEW_KEYS), "shapes": [list(x) for x in EVENT_SHAPES]}


# ------------------------------------------------------------- lobby commands
async def on_sit(hub: Hub, conn: Conn, room: Room, m: p.Sit) -> None:
    if not room.may_sit(conn.player_id, m.seat):
        return
    await hub.check_rank(conn.player_id, room.settings)  # (under the room's lock: the seat stays free)
    if room.seat_of(conn.player_id) is None and conn.player_id is not None:
        await hub.limits.seat_check(conn.player_id)  # a new seat (not a move): the cool-down
    await room.sit(conn.player_id, conn.nickname, m.seat)


async def on_stand(hub: Hub, conn: Conn, room: Room, m: p.Stand) -> None:
    if await room.stand(conn.player_id) and conn.player_id is not None:
        await hub.limits.seat_left(conn.player_id)  # counts toward the cool-down


async def on_bot(hub: Hub, conn: Conn, room: Room, m: p.Bot) -> None:
    await room.set_bot(conn.player_id, m.seat, m.level, hub.bot_levels())


def _bot_tables(hub: Hub, peer: str) -> int | None:
    """The tables of four bots ``peer`` started that play now (None: an exempt address)."""
    if peer in hub.limits.exempt:
        return None
    return sum(1 for r in hub.rooms.values()
               if r.status == RoomStatus.PLAYING and r.started_by == peer and all(s.bot for s in r.seats))


async def on_start(hub: Hub, conn: Conn, room: Room, m: p.Start) -> None:
    await room.start(conn.player_id, started_by=conn.peer, confirm=m.confirm,
                     bot_tables=_bot_tables(hub, conn.peer))


async def on_kick(hub: Hub, conn: Conn, room: Room, m: p.Kick) -> None:
    await room.kick(conn.player_id, m.player_id)


async def on_host(hub: Hub, conn: Conn, room: Room, m: p.Host) -> None:
    await room.hand_over_host(conn.player_id, m.player_id)


# ------------------------------------------------------------- game commands
def _seated(conn: Conn, room: Room) -> int:
    """The sender's seat in the match in play (players act, spectators watch)."""
    if room.game is None or room.status == RoomStatus.LOBBY:
        raise ProtocolError("not_started", "the match has not started")
    seat = room.seat_of(conn.player_id)
    if seat is None or conn.seat is None:
        raise ProtocolError("not_seated", "spectators cannot act")
    return seat


async def on_action(hub: Hub, conn: Conn, room: Room, m: p.Action) -> None:
    seat = _seated(conn, room)
    pid = conn.player_id
    assert pid is not None
    extra = sorted(set(m.action) - ACTION_KEYS)
    if extra:  # (as every message's own keys: a "seat" in it was silently dropped)
        raise ProtocolError("bad_action", f"unknown key {extra[0][:32]!r} in the action "
                                          "(an action has 'type' and 'tile')")
    try:
        action = Action.from_json(m.action)
    except ValueError as exc:
        raise ProtocolError("bad_action", str(exc)) from None
    res = await room.play(seat, action, m.seq, pid, version=m.version)
    if res.stale_version:
        conn.error("stale_version", f"your table is at version {m.version}, the server at "
                                    f"{res.v}; resynchronising", ref=m.seq)
        room.send_snapshot(conn)
        return
    conn.send(p.ack(m.seq, res.v, duplicate=res.duplicate))


async def on_resync(hub: Hub, conn: Conn, room: Room, m: p.Resync) -> None:
    info = as_sent(room.lobby_json())
    conn.send(p.room_msg(info))  # (whole: a client that lost its room asks this)
    remember(conn, room.code, info)
    room.send_snapshot(conn)


async def on_auto(hub: Hub, conn: Conn, room: Room, m: p.Auto) -> None:
    seat = _seated(conn, room)
    if room.seats[seat].escaped:
        raise ProtocolError("escaped", "you left this match")
    await room.set_auto(seat, m.on, conn.player_id)


async def on_hints(hub: Hub, conn: Conn, room: Room, m: p.Hints) -> None:
    """Switch hints on or off for this connection; frames then carry them. Switched on while
    the seat has a decision, the hints for it come at once in a small ``hints`` frame
    ``{v, hints}`` (not a snapshot: a reply that looks like a frame must not invite another
    request — issue 21)."""
    conn.hints = m.on
    if m.on:
        room.send_hints(conn)


async def on_chat(hub: Hub, conn: Conn, room: Room, m: p.Chat) -> None:
    if [m.text, m.phrase, m.emote].count(None) != 2:
        raise ProtocolError("bad_chat", "send one of text, a quick phrase or an emote")
    try:
        if m.phrase is not None:
            if m.phrase not in QUICK_PHRASES:
                raise ChatError("bad_phrase", f"unknown quick phrase {m.phrase!r}")
            text = QUICK_PHRASES[m.phrase][0]
        elif m.emote is not None:
            if m.emote not in EMOTES:
                raise ChatError("bad_emote", f"unknown emote {m.emote[:32]!r}")
            text = f"[{EMOTES[m.emote][0]}]"
        else:
            text = clean_text(m.text)
    except ChatError as exc:
        raise ProtocolError(exc.code, str(exc)) from None
    # The limit follows the player (every room, every socket) and the connection.
    # (A connection's identity is fixed: the player's budget is the connection's too.)
    wait = await hub.limits.hit(CHAT, "chat", conn.player_id or f"conn:{conn.id}")
    if wait is not None:
        raise ProtocolError("chat_rate", f"at most {RATE_COUNT} chat messages per "
                                         f"{RATE_WINDOW:g} seconds; wait {wait:.1f} s")
    await room.say(conn.player_id, conn.nickname, text, phrase=m.phrase, emote=m.emote,
                   muted_by=hub.mutes.of)


async def on_mute(hub: Hub, conn: Conn, room: Room, m: p.Mute) -> None:
    """Mute (or unmute) a player met at this table: its chat is not delivered to this
    player any more, at any table (stored: :class:`laizi.server.clubs.etiquette.Mutes`)."""
    pid = conn.player_id
    assert pid is not None
    here = {s.player_id for s in room.seats} | {c.player_id for c in room.conns}
    if m.on and m.player_id not in here:
        raise ProtocolError("bad_mute", "that player is not at this table")
    try:
        players = await hub.mutes.set(hub, pid, m.player_id, m.on)
    except MuteError as exc:
        raise ProtocolError(exc.code, str(exc)) from None
    conn.send(p.muted(sorted(players)))


async def on_leave(hub: Hub, conn: Conn, room: Room, m: p.Leave) -> None:
    gave_up = await room.give_up_seat(conn.player_id)  # a seat given up before or during a match
    if gave_up and conn.player_id is not None:
        await hub.limits.seat_left(conn.player_id)  # the cool-down
    await hub.detach(conn, room)
    conn.send(p.left(room.code))
    room.broadcast_lobby()


ConnHandler = Callable[[Hub, Conn, Any], Awaitable[None]]
RoomHandler = Callable[[Hub, Conn, Room, Any], Awaitable[None]]

BEFORE_HELLO = frozenset({"hello", "ping"})  # what a connection may send before saying hello

CONN_HANDLERS: dict[str, ConnHandler] = {
    "hello": on_hello,
    "ping": on_ping,
    "create": on_create,
    "join": on_join,
}

ROOM_HANDLERS: dict[str, RoomHandler] = {
    "sit": on_sit,
    "stand": on_stand,
    "bot": on_bot,
    "start": on_start,
    "action": on_action,
    "resync": on_resync,
    "auto": on_auto,
    "hints": on_hints,
    "chat": on_chat,
    "mute": on_mute,
    "leave": on_leave,
    "kick": on_kick,
    "host": on_host,
    **FLOW_HANDLERS,
}
