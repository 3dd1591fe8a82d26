"""``laizi serve`` prints its address once it accepts connections (it used to print it 6-10 s
before, while the database opened and rooms resumed): the moment the line appears, a
request to that address is answered — no retry."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from support.srvhelpers import free_port

pytestmark = pytest.mark.timeout(120)


def test_the_address_is_printed_when_the_server_answers(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "laizi", "serve", "--port", str(port),
                             "--db", str(tmp_path / "r.db")], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert proc.stdout is not None
        end = time.monotonic() + 90
        line = ""
        while "laizi serve: http" not in line:
            assert time.monotonic() < end and proc.poll() is None, line
            line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line and "database:" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200  # the first try: it accepts connections already
    finally:
        proc.terminate()
        proc.wait(20)
