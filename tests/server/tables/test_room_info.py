"""The room info's ``spectators`` counts the people in the room without a seat — not the
seated players in the lobby (issue 21: "观众 2" with one host seated and nobody watching)."""

from __future__ import annotations

from typing import Any

from support.srvhelpers import connect, new_room, room_state


def test_spectators_are_the_unseated(client: Any) -> None:
    host, _ = connect(client, "房主")
    code = new_room(host)
    host.send(type="sit", seat=0)
    assert room_state(host, lambda r: r["seats"][0]["player_id"] is not None)["spectators"] == 0
    guest, _ = connect(client, "观众")
    guest.send(type="join", room=code)
    joined = guest.until("joined")
    assert joined["room"]["spectators"] == 1  # the newcomer, not the seated host
    guest.send(type="sit", seat=2)
    assert room_state(host, lambda r: r["seats"][2]["player_id"] is not None)["spectators"] == 0
