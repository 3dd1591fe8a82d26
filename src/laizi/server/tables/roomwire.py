"""A room's ``room`` messages on the wire, per connection.

A room tells its connections its new state (``room``, :func:`laizi.server.tables.roominfo.live_info`)
at every seat taken, 准备, start, 托管… — 2 KB or more each, mostly what the connection already
holds (the settings, the rules, the rule card). A connection that asked (``hello``
``room_patch``, as the web client does) gets the change instead: ``{"type": "room", "p":
patch}``, a :func:`laizi.server.common.delta.diff` of the last room info it got (its key
names as text), computed once per base for all the connections that hold it. Anything that
gives a connection a room whole — ``joined``, a ``room`` on ``resync``, a connection that did
not ask, another room's — records that base (:func:`remember`); a client that cannot apply a
patch asks ``resync``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from laizi.server.common.connection import Conn
from laizi.server.common.delta import diff
from laizi.server.common.protocol import dumps

__all__ = ["as_sent", "remember", "send_room"]


def as_sent(info: dict[str, Any]) -> dict[str, Any]:
    """``info`` as JSON values (what a client holds once it read it: tuples become lists),
    a fresh object that nobody changes: the base of the next patches."""
    out: dict[str, Any] = orjson.loads(dumps(info))
    return out


def remember(conn: Conn, code: str, sent: dict[str, Any]) -> None:
    """``conn`` was given room ``code``'s info ``sent`` (:func:`as_sent`) whole."""
    conn.room_base = (code, sent) if conn.room_patch else None


def send_room(conns: Iterable[Conn], code: str, info: dict[str, Any]) -> None:
    """Room ``code``'s ``room`` message to each of ``conns``: a patch to those that asked and
    hold an earlier state of this room (nothing when it is this one), else the info whole."""
    text = dumps(info)
    new: dict[str, Any] = orjson.loads(text)  # (as_sent's, from the text sent whole)
    whole = f'{{"type":"room","room":{text}}}'  # (protocol.room_msg's form)
    patches: dict[int, str] = {}  # id of a base -> its patch (the bases are shared objects)
    for c in conns:
        base = c.room_base
        if c.room_patch and base is not None and base[0] == code:
            msg = patches.get(id(base[1]))
            if msg is None:
                ops = diff(base[1], new)
                msg = patches[id(base[1])] = f'{{"type":"room","p":{dumps(ops)}}}' if ops else ""
            if not msg:  # it holds this very room: nothing to tell
                continue
        else:
            msg = whole
        c.send(msg)
        remember(c, code, new)
