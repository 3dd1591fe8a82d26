"""The dispatch table names a handler for every client message type, exactly once."""

from __future__ import annotations

from laizi.server.common.protocol import TYPES
from laizi.server.net.handlers import CONN_HANDLERS, ROOM_HANDLERS


def test_every_message_type_has_one_handler() -> None:
    assert not set(CONN_HANDLERS) & set(ROOM_HANDLERS)
    assert set(CONN_HANDLERS) | set(ROOM_HANDLERS) == set(TYPES)
