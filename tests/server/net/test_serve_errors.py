"""`laizi serve` with a database or a port it cannot use: one line saying why, exit status 2,
no traceback, and nothing started (before: SQLAlchemy's traceback from the app's start-up,
or, for ``--port 99999``, the address announced and then a hang)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from laizi.cli import main


def _serve(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["serve", *argv]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert text.startswith("laizi serve: error: ") and text.count("\n") == 1, text
    assert "Traceback" not in text
    return text


@pytest.mark.parametrize(("argv", "message"), [
    (["--port", "99999"], "--port must be from 1 to 65535"),
    (["--port", "0"], "--port must be from 1 to 65535"),
    (["--port", "-1"], "--port must be from 1 to 65535"),
    # the message says what the check does (it said "from 0 to 100000" while refusing 0)
    (["--msg-rate", "0"], "--msg-rate must be more than 0 and at most 100000"),
    (["--msg-rate", "100001"], "--msg-rate must be more than 0 and at most 100000"),
    (["--db", "mysql://user@db.example/laizi"], "unsupported database 'mysql'"),
    (["--db", "/proc/laizi-test.db"], "cannot open the database /proc/laizi-test.db"),
])
def test_a_port_or_database_it_cannot_use(argv: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert message in _serve(argv, capsys)


def test_a_sqlite_file_in_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nowhere" / "laizi.db"
    text = _serve(["--db", str(path)], capsys)
    assert f"no folder {path.parent}" in text
    assert not path.parent.exists()  # nothing made on the way


def test_postgresql_that_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing listens on port 1: refused at once; the password is not repeated."""
    text = _serve(["--db", "postgresql://laizi:s3cret-pw@127.0.0.1:1/laizi"], capsys)
    assert "cannot open the database 127.0.0.1:1/laizi" in text and "refused" in text.lower()
    assert "s3cret-pw" not in text


@pytest.mark.postgres
def test_postgresql_with_a_wrong_user(pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from sqlalchemy.engine import make_url

    wrong = make_url(pg_url).set(username="nobody_here", password="not-the-password")
    text = _serve(["--db", wrong.render_as_string(hide_password=False)], capsys)
    assert "cannot open the database" in text and "nobody_here" in text, text
    assert "not-the-password" not in text


def test_a_good_sqlite_file_gets_past_the_checks(tmp_path: Path) -> None:
    """The same checks pass a usable database: the server starts (a real process), and a bad
    port in another process still exits 2 by itself (what a shell script sees)."""
    proc = subprocess.run([sys.executable, "-m", "laizi", "serve", "--port", "70000",
                           "--db", str(tmp_path / "ok.db")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--port must be from 1 to 65535" in proc.stdout
    from laizi.server.persistence.db import check_database

    assert check_database(str(tmp_path / "ok.db")) is None
    assert (tmp_path / "ok.db").exists()
