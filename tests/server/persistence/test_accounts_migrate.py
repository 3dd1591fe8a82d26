"""A database of the schema before accounts (version 2) upgrades in place with ``migrate()``:
its rows are kept, the new tables, columns and index appear — on SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import inspect, text

from laizi.server.persistence import db
from support.prealembic import as_pre_alembic

NEW_TABLES = ("accounts", "sessions", "match_players", "ratings", "rating_changes")
NEW_SCORE_COLUMNS = ("won", "self_draw", "big", "liable_paid")


def downgrade_to_v2(url: str) -> None:
    """The version-2 schema with one match, hand score and player in it."""
    eng = db.make_engine(url)
    db.Base.metadata.drop_all(eng)
    db.migrate(eng)
    with eng.begin() as conn:
        for t in NEW_TABLES:
            conn.execute(text(f"DROP TABLE {t}"))
        conn.execute(text("DROP INDEX ix_scores_player"))
        for c in NEW_SCORE_COLUMNS:
            conn.execute(text(f'ALTER TABLE scores DROP COLUMN "{c}"'))
        conn.execute(text("UPDATE laizi_meta SET value = '2' WHERE key = 'schema_version'"))
        as_pre_alembic(conn)  # the old schema predates Alembic
        conn.execute(text("INSERT INTO players (id, nickname, created_at, last_seen) VALUES "
                          "('p_old', 'old', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))
        conn.execute(text("INSERT INTO rooms (code, status, settings, seats, created_at, updated_at) "
                          "VALUES ('OLD01', 'finished', '{}', '[]', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))
        conn.execute(text("INSERT INTO matches (id, room_code, status, rules, seed, seats, scores, "
                          "penalties, created_at) VALUES (7, 'OLD01', 'finished', '{}', '00', '[]', "
                          "'[0,0,0,0]', '[0,0,0,0]', CURRENT_TIMESTAMP)"))
        conn.execute(text("INSERT INTO scores (match_id, hand, seat, player_id, kind, delta) "
                          "VALUES (7, 1, 0, 'p_old', 'hand', '12.0')"))
    eng.dispose()


def check_upgrade(url: str) -> None:
    downgrade_to_v2(url)
    eng = db.make_engine(url)
    try:
        insp = inspect(eng)
        assert not set(NEW_TABLES) & set(insp.get_table_names())
        db.migrate(eng)
        insp = inspect(eng)
        assert set(NEW_TABLES) <= set(insp.get_table_names())
        cols = {c["name"] for c in insp.get_columns("scores")}
        assert set(NEW_SCORE_COLUMNS) <= cols
        assert "ix_scores_player" in {i["name"] for i in insp.get_indexes("scores")}
        with eng.connect() as conn:
            from laizi.server.accounts.players import profile

            p = profile(conn, "p_old")
            assert conn.execute(text("SELECT value FROM laizi_meta WHERE key = 'schema_version'")
                                ).scalar() == str(db.SCHEMA_VERSION)
        assert p is not None and p["figures"]["hands"] == 1 and p["figures"]["points"] == 12.0
        assert p["figures"]["wins"] == 0  # rows from before have no per-hand figures
        db.migrate(eng)  # idempotent
    finally:
        eng.dispose()


def test_upgrade(db_url: str) -> None:
    check_upgrade(db_url)
