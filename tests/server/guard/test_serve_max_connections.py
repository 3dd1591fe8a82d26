"""`laizi serve --max-connections N`: the cap on open WebSockets set from the command line
(a real server process; the default cap is tested in test_room_limits)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from support.srvhelpers import Client, LiveServer


def test_the_cap_from_the_command_line(serve: Callable[..., LiveServer]) -> None:
    port = serve(plain=True, args=["--max-connections", "2"]).port
    opened: list[Client] = []
    try:
        opened += [Client(port, "a"), Client(port, "b")]
        full = Client(port, hello=False)
        opened.append(full)
        assert full.until("error")["code"] == "server_full"
    finally:
        for c in opened:
            c.close()


@pytest.mark.parametrize("value", ["0", "-5", "1000001"])
def test_a_cap_out_of_range_exits_2(value: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "laizi", "serve", "--max-connections", value],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--max-connections must be from 1 to 1000000" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr



def test_docs_security_gives_the_caps_the_code_has() -> None:
    """docs/security.md said `MAX_CONNECTIONS` = 2,000; the code has had 3000."""
    import re
    from pathlib import Path

    from laizi.server.common import config

    doc = (Path(__file__).resolve().parents[3] / "docs" / "security.md").read_text(encoding="utf-8")
    for name in ("MAX_CONNECTIONS", "MAX_CONNS_PER_PLAYER"):
        said = re.search(rf"`{name}` = ([\d,]+)", doc)
        assert said, name
        assert int(said.group(1).replace(",", "")) == getattr(config, name), name
