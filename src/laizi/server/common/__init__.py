"""What every part of the server speaks: the WebSocket protocol (client and server
messages, room settings, ``ProtocolError``, ``RoomStatus``), strict JSON input, user text
(chat, nicknames' rules), one connection's outgoing queue, the server configuration.
Imports nothing else of the server."""

from __future__ import annotations
