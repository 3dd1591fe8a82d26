"""Terminal play driven by keystrokes on standard input (a subprocess, and a pty)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

CMD = [sys.executable, "-m", "laizi", "play"]


def _run(keys: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run([*CMD, *args], input=keys, capture_output=True, text=True,
                          timeout=120, env=env)


def test_play_a_whole_hand_by_keystrokes() -> None:
    # hints, bad inputs (each re-prompts), then always the first menu entry
    keys = "h\nzz\n99\n9z\n\n" + "1\n" * 600
    r = _run(keys, "--hands", "1", "--seed", "5")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "laizi" in out and "indicator" in out
    assert "not understood" in out and "no option 99" in out
    assert "★" in out  # hints shown
    assert "hand 1 over" in out
    assert "payments:" in out
    assert "match" in out  # the final table
    assert "Traceback" not in r.stderr


def test_discard_by_typing_a_tile() -> None:
    r = _run("1\n", "--hands", "1", "--seed", "2")  # learn the hand from the first screen
    hand_line = next(ln for ln in r.stdout.splitlines() if ln.startswith("your hand:"))
    tile = hand_line.split(":")[1].split()[0].rstrip("*!")
    r2 = _run(f"{tile}\n" + "1\n" * 600, "--hands", "1", "--seed", "2")
    assert r2.returncode == 0
    assert "hand 1 over" in r2.stdout
    assert "not legal" not in r2.stdout.split(">")[1]


def test_eof_and_quit_exit_cleanly() -> None:
    for keys in ("", "q\n", "5m\n"):
        r = _run(keys, "--hands", "2")
        assert r.returncode == 0
        assert "Traceback" not in r.stderr


def test_auto_play_finishes_the_hand() -> None:
    r = _run("a\n" + "1\n" * 400, "--hands", "2", "--seed", "9")
    assert r.returncode == 0
    assert "托管" in r.stdout
    assert "hand 1 over" in r.stdout
    assert "托管 ends" in r.stdout  # the seat comes back to the player for hand 2
    assert "hand 2 over" in r.stdout


def test_play_in_a_pty() -> None:
    """A real terminal: the game reads keystrokes from a pseudo-terminal."""
    pty = pytest.importorskip("pty")
    import select
    import time

    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "140", "LINES": "50", "TERM": "xterm"}
    proc = subprocess.Popen([*CMD, "--hands", "1", "--seed", "1"], stdin=slave, stdout=slave,
                            stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = b""
    sent_hint = False
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 5)
            if not r:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            if out.rstrip().endswith(b">"):
                os.write(master, b"1\n" if sent_hint else b"h\n")
                sent_hint = True
        proc.wait(timeout=30)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 0, text[-2000:]
    assert "hand 1 over" in text
    assert "Traceback" not in text
