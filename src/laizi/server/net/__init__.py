"""The outside: the Starlette app and the wiring (``app.create_app``: the room directory
picked once), the WebSocket command loop and its handlers (parse → authorize → the room's
command), HTTP routes of every feature, middleware and HTTP input. Nothing imports it but
the command line."""

from __future__ import annotations
