"""ConnSet: a set of connections indexed by player, and a room's set kept in step with the
hub's index of connections in rooms (laizi.server.common.connset)."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.server.common.connset import ConnSet


@dataclass(eq=False)
class Sock:
    player_id: str | None = None
    closed: bool = False


PLAYERS = ["ann", "bob", "cat", None]
# an operation: (what, connection number, room number, player number)
OPS = st.lists(st.tuples(st.sampled_from(["join", "leave", "close", "identify", "clear"]),
                         st.integers(0, 7), st.integers(0, 2), st.integers(0, 3)), max_size=60)


@given(OPS)
@settings(max_examples=300, deadline=None)
def test_the_index_answers_as_a_pass_over_the_connections_would(ops: list[tuple[str, int, int, int]]) -> None:
    """The hub's open connections, and rooms' sets with the hub's index of connections in
    rooms as their parent, under identities, joins, leaves (also of a connection that joined
    a second room first), closes and a room cleared: every answer equals the naive pass."""
    live: ConnSet[Sock] = ConnSet()  # the hub's open sockets
    in_rooms: ConnSet[Sock] = ConnSet()
    rooms = [ConnSet(in_rooms) for _ in range(3)]
    socks = [Sock() for _ in range(8)]
    for s in socks:
        live.add(s)
    for what, i, r, p in ops:
        s = socks[i]
        if what == "join" and s.player_id is not None:  # (hello first)
            rooms[r].add(s)
        elif what == "leave":
            rooms[r].discard(s)
        elif what == "close":
            s.closed = True
            live.discard(s)
        elif what == "identify" and s.player_id is None and PLAYERS[p] is not None:
            live.identify(s, PLAYERS[p])
        elif what == "clear":
            rooms[r].clear()
        inside = {c for room in rooms for c in room}
        assert set(in_rooms) == inside and len(in_rooms) == len(inside)
        for pid in PLAYERS:
            mine = {c for c in socks if pid is not None and c.player_id == pid and not c.closed}
            assert set(live.of(pid)) == mine
            assert set(in_rooms.of(pid)) == mine & inside
            for room in rooms:
                assert set(room.of(pid)) == mine & set(room)


def test_a_connection_is_indexed_under_its_player_once_it_says_who_it_is() -> None:
    conns: ConnSet[Sock] = ConnSet()
    a, b = Sock(), Sock("bob")
    conns.add(a)
    conns.add(b)
    conns.add(b)  # (once)
    assert len(conns) == 2 and conns.of("ann") == [] and conns.of("bob") == [b]
    conns.identify(a, "ann")
    assert a.player_id == "ann" and conns.of("ann") == [a]
    a.closed = True
    assert conns.of("ann") == []  # closed: not open any more, though not yet taken out
    conns.discard(a)
    conns.discard(a)
    assert a not in conns and list(conns) == [b] and bool(conns)
    conns.clear()
    assert not conns and conns.of("bob") == []
