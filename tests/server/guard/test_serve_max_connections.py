"""`laizi serve --max-connections N`: the cap on open WebSockets set from the command line
(a real server process; the default cap is tested in test_room_limits)."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from support.srvhelpers import Client


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_cap_from_the_command_line(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "laizi", "serve", "--port", str(port),
                             "--db", str(tmp_path / "m.db"), "--max-connections", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    opened: list[Client] = []
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                if time.time() > deadline:
                    pytest.fail("server did not start")
                time.sleep(0.1)
        opened += [Client(port, "a"), Client(port, "b")]
        full = Client(port, hello=False)
        opened.append(full)
        assert full.until("error")["code"] == "server_full"
    finally:
        for c in opened:
            c.close()
        proc.terminate()
        proc.wait(30)


@pytest.mark.parametrize("value", ["0", "-5", "1000001"])
def test_a_cap_out_of_range_exits_2(value: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "laizi", "serve", "--max-connections", value],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--max-connections must be from 1 to 1000000" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr

