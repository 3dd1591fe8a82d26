"""The game server: Starlette app, rooms, WebSocket protocol, persistence (``laizi serve``)."""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(*args, **kwargs):  # type: ignore[no-untyped-def]
    from laizi.server.net.app import create_app as _create

    return _create(*args, **kwargs)
