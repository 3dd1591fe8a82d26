"""The command line under bad input: one line saying what is wrong, exit status 2, never a
traceback (README: "Errors a user can cause"). Run as real processes: a closed standard
input, a log nested 100,000 levels deep, logs that hold no game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _laizi(*args: str, closed_stdin: bool = False) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "laizi", *args]
    if closed_stdin:  # the shell's <&-: Python then has sys.stdin = None
        cmd = ["sh", "-c", 'exec "$@" <&-', "sh", *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          stdin=None if closed_stdin else subprocess.DEVNULL)


def _one_line(p: subprocess.CompletedProcess[str], command: str) -> str:
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith(f"laizi {command}: error: "), p.stderr
    return p.stderr


@pytest.mark.parametrize("args", [["score", "-"], ["play"], ["play", "--plain"]])
def test_a_closed_standard_input(args: list[str]) -> None:
    """(was AttributeError: 'NoneType' object has no attribute 'read' / 'isatty')"""
    assert "standard input is closed" in _one_line(_laizi(*args, closed_stdin=True), args[0])


@pytest.mark.parametrize("command", ["replay", "verify", "review"])
def test_a_log_nested_too_deeply_is_refused_as_score_refuses_it(command: str,
                                                                tmp_path: Path) -> None:
    """(was RecursionError: an internal error) — the limit ``laizi score`` applies."""
    from laizi.server.common.inputs import MAX_JSON_DEPTH

    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "\n")
    err = _one_line(_laizi(command, str(log)), command)
    assert f"line 1: JSON nested 100000 levels deep (at most {MAX_JSON_DEPTH})" in err
    deep_event = '{"type": "start_match", "x": ' + "[" * 40 + "]" * 40 + "}"
    log.write_text(deep_event + "\n")
    assert "line 1: JSON nested 41 levels deep" in _one_line(_laizi(command, str(log)), command)


@pytest.mark.parametrize(("text", "message"), [
    ("[]\n", "line 1: an empty array, no event"),
    ('{"type":"deal"}\n', "line 1: deal event: missing 'count', missing 'seat'"),
    ('\n\n"deal"\n', "line 3: not an event"),
    ('{"type": "teleport"}\n', "line 1: teleport event: unknown event type 'teleport'"),
    ('{"type":"deal","v":1,"vis":"public","seat":0,"count":13}\n',
     "line 1: a log starts with start_match or start_hand, not deal"),
])
@pytest.mark.parametrize("command", ["replay", "review", "verify"])
def test_a_log_without_a_game_is_refused_naming_the_line(command: str, text: str, message: str,
                                                         tmp_path: Path) -> None:
    """(``[]`` made replay and review end with status 0 and no output; ``{"type":"deal"}``
    made replay print "deal seat None: None tiles")"""
    log = tmp_path / "junk.jsonl"
    log.write_text(text)
    assert message in _one_line(_laizi(command, str(log)), command)


def test_ctrl_c_while_the_subcommands_load_is_no_traceback(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C while ``laizi`` loads its subcommands' modules (before any runs) ends it as
    one at work does: "interrupted", exit 130 — it printed a KeyboardInterrupt traceback."""
    import laizi.cli as cli

    def load(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_load", load)
    assert cli.main(["score", "--help"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"
