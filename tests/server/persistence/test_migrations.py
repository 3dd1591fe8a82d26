"""Alembic migrations (laizi.server.persistence.schema, laizi/server/persistence/migrations) on SQLite and PostgreSQL.

- A database made by the pre-Alembic ``migrate()`` — each schema version it ever created,
  kept as SQL in ``legacy_schema/`` — with rows in every table upgrades when the store
  opens: the rows are kept, ``alembic_version`` is at the head, the schema equals the models.
- A fresh database migrated to the head agrees with the models (``compare_metadata`` finds
  no difference), so a model change without a revision fails here.
- Every module that declares tables is imported by ``laizi.server.persistence.models.all_models``.
"""

from __future__ import annotations

import ast
import asyncio
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine

import laizi.server
from laizi.server.persistence import db, schema
from laizi.server.persistence.models import all_models
from laizi.server.persistence.store import Store

LEGACY = Path(__file__).parent / "legacy_schema"
# name -> laizi_meta schema_version the old migrate() recorded
VERSIONS = {"v1": 1, "v2": 2, "v2k": 2, "v3": 3}


@pytest.fixture
def url(db_url: str) -> str:
    """:func:`db_url`: SQLite, then PostgreSQL."""
    return db_url


def schema_diffs(eng: Engine) -> list[Any]:
    """What ``alembic revision --autogenerate`` would put in a new revision."""
    return schema.diffs(eng, all_models())


def load_legacy(eng: Engine, name: str) -> None:
    sql = (LEGACY / f"{name}.{eng.dialect.name}.sql").read_text()
    body = "\n".join(line for line in sql.splitlines() if not line.startswith("--"))
    with eng.begin() as conn:
        for stmt in body.split(";"):
            if stmt.strip():
                conn.execute(text(stmt))


NOW = "CURRENT_TIMESTAMP"
COMMON_ROWS = [
    "INSERT INTO laizi_meta (key, value) VALUES ('schema_version', '{version}')",
    "INSERT INTO laizi_meta (key, value) VALUES ('token_gen:p_old', '4')",
    f"INSERT INTO players (id, nickname, created_at, last_seen) VALUES ('p_old', '老王', {NOW}, {NOW})",
    f"INSERT INTO players (id, nickname, created_at, last_seen) VALUES ('p_two', 'two', {NOW}, {NOW})",
    "INSERT INTO rooms (code, owner_id, status, settings, seats, match_id, created_at, updated_at) "
    f"VALUES ('OLD01', 'p_old', 'finished', '{{\"preset\":\"wuhan\"}}', '[\"p_old\",null,null,null]', 7, {NOW}, {NOW})",
    "INSERT INTO matches (id, room_code, status, rules, seed, max_hands, seats, scores, penalties, "
    f"result, created_at, finished_at) VALUES (7, 'OLD01', 'finished', '{{}}', 'ab12', 4, '[]', "
    f"'[12,-4,-4,-4]', '[0,0,0,0]', '{{\"ranking\":[0,1,2,3]}}', {NOW}, {NOW})",
    "INSERT INTO hands (match_id, number, dealer, commitment, seed, result, started_at, ended_at) "
    f"VALUES (7, 1, 0, 'c0ffee', 'beef', '{{}}', {NOW}, {NOW})",
    "INSERT INTO actions (match_id, n, seat, action, source, player_id, client_seq, version, "
    f"created_at) VALUES (7, 1, 0, '{{\"type\":\"discard\"}}', 'player', 'p_old', 5, 3, {NOW})",
    "INSERT INTO events (match_id, n, hand, kind, data) VALUES (7, 1, 1, 'deal', '{}')",
    "INSERT INTO scores (match_id, hand, seat, player_id, kind, delta) "
    "VALUES (7, 1, 0, 'p_old', 'hand', '12.0')",
    "INSERT INTO chat (room_code, player_id, nickname, text, created_at) "
    f"VALUES ('OLD01', 'p_old', '老王', '你好', {NOW})",
]
V2K_ROWS = ["UPDATE rooms SET banned = '[\"p_bad\"]' WHERE code = 'OLD01'"]
V3_ROWS = [
    "UPDATE scores SET won = 1, self_draw = 1, big = 'qingyise', liable_paid = 0",
    "INSERT INTO accounts (player_id, username, username_key, password_hash, created_at, "
    f"password_changed_at) VALUES ('p_old', 'OldUser', 'olduser', '$argon2id$x', {NOW}, {NOW})",
    "INSERT INTO sessions (id_hash, player_id, created_at, expires_at) "
    f"VALUES ('{'a' * 64}', 'p_old', {NOW}, {NOW})",
    "INSERT INTO match_players (match_id, seat, player_id, escaped, score, place, rated, "
    f"finished_at) VALUES (7, 0, 'p_old', 0, 12.0, 1, 1, {NOW})",
    f"INSERT INTO ratings (player_id, mu, sigma, ordinal, matches, updated_at) VALUES ('p_old', 27.1, 7.9, 3.4, 1, {NOW})",
    "INSERT INTO rating_changes (match_id, player_id, place, mu_before, sigma_before, mu_after, "
    "sigma_after) VALUES (7, 'p_old', 1, 25.0, 8.3, 27.1, 7.9)",
]


def fill(eng: Engine, name: str) -> dict[str, int]:
    rows = [r.replace("{version}", str(VERSIONS[name])) if "{version}" in r else r
            for r in COMMON_ROWS]
    if name in ("v2k", "v3"):
        rows += V2K_ROWS
    if name == "v3":
        rows += V3_ROWS
    with eng.begin() as conn:
        for stmt in rows:
            conn.execute(text(stmt))
        tables = [r[0] for r in conn.execute(text(
            "SELECT name FROM sqlite_master WHERE type = 'table'" if eng.dialect.name == "sqlite"
            else "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"))]
        return {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in tables}


async def open_and_close(url: str) -> None:
    store = await Store.open(url)
    assert store.load_players() == {"p_old": "老王", "p_two": "two"}
    await store.close()


@pytest.mark.parametrize("name", list(VERSIONS))
def test_a_pre_alembic_database_upgrades_with_its_rows(url: str, name: str) -> None:
    eng = db.make_engine(url)
    try:
        load_legacy(eng, name)
        before = fill(eng, name)
        assert "alembic_version" not in before and schema.current_revision(eng) is None
        if name != "v3":  # (v3 is revision 0001; the models may have grown since)
            assert schema_diffs(eng), "the old schema should differ from the models"

        asyncio.run(open_and_close(url))  # the server's own start-up path

        assert schema.current_revision(eng) == schema.head_revision()
        assert schema_diffs(eng) == []
        with eng.begin() as conn:
            for table, n in before.items():  # every row kept
                assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() == n, table
            meta = dict(conn.execute(text("SELECT key, value FROM laizi_meta")).all())
            assert meta == {"schema_version": "3", "token_gen:p_old": "4"}
            room = conn.execute(text("SELECT owner_id, status, match_id FROM rooms")).one()
            assert tuple(room) == ("p_old", "finished", 7)
            banned = conn.execute(text("SELECT banned FROM rooms")).scalar_one()
            assert (banned is None) == (name in ("v1", "v2"))
            seq = conn.execute(text("SELECT client_seq FROM actions WHERE n = 1")).scalar_one()
            assert seq == 5
            # v1 stored client_seq as INTEGER on PostgreSQL: the upgrade widened it
            conn.execute(text("INSERT INTO actions (match_id, n, seat, action, source, client_seq, "
                              f"version, created_at) VALUES (7, 2, 0, '{{}}', 'bot', {2**31}, 4, {NOW})"))
            from laizi.server.accounts.players import profile

            p = profile(conn, "p_old")
        assert p is not None and p["figures"]["hands"] == 1 and p["figures"]["points"] == 12.0
        assert p["figures"]["wins"] == (1 if name == "v3" else 0)
        asyncio.run(open_and_close(url))  # a second start: nothing to do
        assert schema.current_revision(eng) == schema.head_revision()
    finally:
        eng.dispose()


def test_a_fresh_database_agrees_with_the_models(url: str) -> None:
    eng = db.make_engine(url)
    try:
        assert schema.current_revision(eng) is None
        db.migrate(eng)
        assert schema.current_revision(eng) == schema.head_revision()
        diffs = schema_diffs(eng)
        assert diffs == [], (
            "the models differ from the migrations; add a revision "
            f"(docs/server.md, 'Schema migrations'): {diffs}")
        with eng.connect() as conn:
            assert conn.execute(text("SELECT value FROM laizi_meta WHERE key = 'schema_version'")
                                ).scalar() == "3"
        db.migrate(eng)  # idempotent
        assert schema_diffs(eng) == []
    finally:
        eng.dispose()


@pytest.mark.slow
def test_servers_starting_together_migrate_postgres_once(pg_url: str) -> None:
    engines = [db.make_engine(pg_url) for _ in range(3)]
    errors: list[BaseException] = []

    def run(eng: Engine) -> None:
        try:
            db.migrate(eng)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(e,)) for e in engines]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        assert schema.current_revision(engines[0]) == schema.head_revision()
        assert schema_diffs(engines[0]) == []
    finally:
        for e in engines:
            e.dispose()


def test_dropping_the_schema_drops_the_stamp(tmp_path: Path) -> None:
    eng = db.make_engine(str(tmp_path / "drop.db"))
    try:
        db.migrate(eng)
        db.Base.metadata.drop_all(eng)
        assert schema.current_revision(eng) is None
        db.migrate(eng)  # creates the schema again
        assert schema_diffs(eng) == []
    finally:
        eng.dispose()


def test_a_database_of_a_newer_laizi_is_left_alone(tmp_path: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    url = str(tmp_path / "newer.db")
    eng = db.make_engine(url)
    try:
        db.migrate(eng)
        with eng.begin() as conn:  # as if a newer laizi had added a table in revision 9999
            conn.execute(text("CREATE TABLE future_things (id INTEGER PRIMARY KEY)"))
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
        with caplog.at_level("WARNING", logger="laizi.server"):
            assert schema.upgrade(eng) is False
        assert "revision 9999" in caplog.text

        async def start_and_stop() -> None:  # an older server still starts on it
            store = await Store.open(url)
            await store.close()

        asyncio.run(start_and_stop())
        assert schema.current_revision(eng) == "9999"
    finally:
        eng.dispose()


def model_modules() -> set[str]:
    """Modules under laizi.server whose classes derive from ``Base`` / ``db.Base``."""
    pkg = Path(laizi.server.__file__).parent
    found: set[str] = set()
    for f in pkg.rglob("*.py"):
        if "migrations" in f.parts:
            continue
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    ast.unparse(b) in ("Base", "db.Base") for b in node.bases):
                rel = f.relative_to(pkg.parent.parent).with_suffix("")
                found.add(".".join(rel.parts))
                break
    return found


def test_every_model_module_is_in_all_models() -> None:
    mods = model_modules()
    assert "laizi.server.persistence.db" in mods
    code = ("import sys; from laizi.server.persistence.models import all_models; all_models(); "
            f"print(sorted(m for m in {sorted(mods)!r} if m not in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"add these to laizi.server.persistence.models.all_models: {out.stdout}"


def test_migrations_ship_with_the_package() -> None:
    assert (schema.MIGRATIONS_DIR / "env.py").is_file()
    assert (schema.MIGRATIONS_DIR / "script.py.mako").is_file()
    assert schema.head_revision()


def test_the_command_line_checks_and_upgrades(tmp_path: Path) -> None:
    url = str(tmp_path / "cli.db")
    run = [sys.executable, "-m", "laizi.server.persistence.migrations", url]
    out = subprocess.run([*run, "check"], capture_output=True, text=True)
    assert out.returncode == 1 and "add_table players" in out.stdout, out.stdout + out.stderr
    out = subprocess.run([*run, "upgrade"], capture_output=True, text=True, check=True)
    head = schema.head_revision()
    assert f"revision {head} (newest {head})" in out.stdout
    out = subprocess.run([*run, "check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.skipif(not (ROOT / "alembic.ini").is_file(), reason="not a source checkout")
def test_the_developers_alembic_ini_works(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "LAIZI_DB_URL": str(tmp_path / "dev.db")}
    alembic = [sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini")]
    subprocess.run([*alembic, "upgrade", "head"], env=env, capture_output=True, check=True)
    out = subprocess.run([*alembic, "check"], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and "No new upgrade operations detected" in out.stdout + out.stderr, \
        out.stdout + out.stderr
