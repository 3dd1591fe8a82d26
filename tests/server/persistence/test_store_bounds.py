"""Finding 4: the schema holds every value the protocol accepts. A client's ``seq`` may be
up to 2**31; on PostgreSQL a 32-bit ``actions.client_seq`` broke the room. Every stored
column is checked against the range validated before it is written."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from sqlalchemy import BigInteger, String, inspect, text

from laizi.server.accounts.auth import NICK_MAX, new_player_id
from laizi.server.common import protocol
from laizi.server.common.chat import MAX_CHARS, QUICK_PHRASES
from laizi.server.persistence import db
from laizi.server.tables.hub import CODE_LEN
from support.prealembic import as_pre_alembic
from support.srvhelpers import Client, LiveServer, seated_room

pytestmark = pytest.mark.timeout(180)

SEQ_MAX: int = next(m.le for m in protocol.Action.model_fields["seq"].metadata
                    if getattr(m, "le", None) is not None)  # the protocol's upper bound


def _len(table: str, col: str) -> int:
    t = db.Base.metadata.tables[table].c[col].type
    assert isinstance(t, String) and t.length is not None
    return t.length


def test_every_stored_column_holds_its_validated_range() -> None:
    assert SEQ_MAX >= 2**31
    assert isinstance(db.ActionRow.__table__.c.client_seq.type, BigInteger)  # 64-bit everywhere
    pid = len(new_player_id())
    for table, col in (("players", "id"), ("rooms", "owner_id"), ("actions", "player_id"),
                       ("scores", "player_id"), ("chat", "player_id")):
        assert _len(table, col) >= pid, (table, col)
    for table, col in (("rooms", "code"), ("matches", "room_code"), ("chat", "room_code")):
        assert _len(table, col) >= CODE_LEN, (table, col)
    assert _len("players", "nickname") >= NICK_MAX and _len("chat", "nickname") >= NICK_MAX
    assert _len("chat", "text") >= MAX_CHARS
    assert _len("chat", "phrase") >= max(map(len, QUICK_PHRASES))
    assert _len("matches", "seed") >= 64 and _len("hands", "seed") >= 64  # 32 bytes in hex
    assert _len("hands", "commitment") >= 64                               # a SHA-256 in hex
    assert _len("scores", "kind") >= len("escape3")
    assert _len("actions", "source") >= max(map(len, ("player", "bot", "auto", "escape",
                                                      "disconnect", "timeout", "server")))
    assert _len("events", "kind") >= max(map(len, ("start_match", "start_hand", "end_match")))


def top_seq_survives_a_restart(db_url: str, tmp: Path) -> None:
    srv = LiveServer(db_url, tmp, bot_delay=0.0, hand_pause=0.0).start()
    clients: list[Client] = []
    try:
        clients, code = seated_room(srv.port, 1, max_hands=1, turn_seconds=600)
        me = clients[0]
        assert me.last is not None
        legal = me.last["view"]["legal"]
        discard = next(a for a in legal if a["type"] == "discard")
        ack = me.request({"type": "action", "seq": SEQ_MAX, "action": discard}, "ack")
        assert ack["type"] == "ack" and ack["seq"] == SEQ_MAX, ack
        token = me.token
        me.close()
        srv.kill()
        srv.start()
        again = Client(srv.port, token=token)
        clients.append(again)
        again.send({"type": "join", "room": code})
        snap = again.until("snapshot")
        assert snap["last_seq"] == SEQ_MAX
    finally:
        for c in clients:
            c.close()
        srv.stop()


def test_top_seq(db_url: str, tmp_path: Path) -> None:
    top_seq_survives_a_restart(db_url, tmp_path)


@pytest.mark.slow
def test_migrate_widens_an_old_postgres_client_seq(pg_url: str) -> None:
    eng = db.make_engine(pg_url)
    try:
        db.migrate(eng)
        with eng.begin() as conn:
            conn.execute(text("ALTER TABLE actions ALTER COLUMN client_seq TYPE INTEGER"))
            as_pre_alembic(conn)  # the old schema predates Alembic
        db.migrate(eng)
        cols = {c["name"]: c["type"] for c in inspect(eng).get_columns("actions")}
        assert isinstance(cols["client_seq"], BigInteger)
    finally:
        with contextlib.suppress(Exception):
            db.Base.metadata.drop_all(eng)
        eng.dispose()
