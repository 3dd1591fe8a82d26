"""The dispatch table names a handler for every client message type, exactly once."""

from __future__ import annotations

from laizi.server.handlers import CONN_HANDLERS, ROOM_HANDLERS
from laizi.server.protocol import TYPES


def test_every_message_type_has_one_handler() -> None:
    assert not set(CONN_HANDLERS) & set(ROOM_HANDLERS)
    assert set(CONN_HANDLERS) | set(ROOM_HANDLERS) == set(TYPES)
