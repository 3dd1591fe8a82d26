"""``laizi play`` from a shell: line mode through a pipe, the full-screen table in a pty."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

CMD = [sys.executable, "-m", "laizi", "play"]
CJK = re.compile(r"[\u3400-\u9fff]")


def _run(keys: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    return subprocess.run([*CMD, *args], input=keys, capture_output=True, text=True,
                          timeout=120, env=env)


def test_play_a_whole_hand_by_keystrokes() -> None:
    # hints, bad inputs (each re-prompts), then always the first menu entry
    keys = "h\nzz\n99\n9z\n\n" + "1\n" * 600
    r = _run(keys, "--hands", "1", "--seed", "5", "--lang", "en")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "laizi" in out and "indicator" in out and "tiles left" in out
    assert "not understood" in out and "no option 99" in out
    assert "★" in out  # hints shown
    assert "East·You discards" in out and "South·Right draws a tile" in out  # the log
    assert "hand 1 over" in out and "Hand 1 settlement" in out
    assert "payment" in out
    assert "Match table" in out  # the final table
    assert not CJK.search(out), CJK.findall(out)[:10]
    assert "Traceback" not in r.stderr


def test_chinese_is_the_default() -> None:
    r = _run("1\n" * 600, "--hands", "1", "--seed", "5")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for word in ("剩余", "翻牌", "赖子", "东·你", "打出", "第1局 结算", "比分表"):
        assert word in out, word


def test_discard_by_typing_a_tile() -> None:
    r = _run("q\n", "--hands", "1", "--seed", "2", "--lang", "en")  # learn the hand
    hand_line = next(ln for ln in r.stdout.splitlines() if ln.startswith("your hand:"))
    tile = hand_line.split(":")[1].split()[0]
    r2 = _run(f"{tile}\n" + "1\n" * 600, "--hands", "1", "--seed", "2", "--lang", "en")
    assert r2.returncode == 0
    assert "hand 1 over" in r2.stdout
    first = r2.stdout.split(">")[1]
    assert "not legal" not in first and "not understood" not in first
    assert "East·You discards" in first


def test_eof_and_quit_exit_cleanly() -> None:
    for keys in ("", "q\n", "5m\n"):
        r = _run(keys, "--hands", "2")
        assert r.returncode == 0
        assert "Traceback" not in r.stderr


def test_bad_options_are_one_line_errors() -> None:
    for args in (["--lang", "fr"], ["--hands", "0"], ["--bots", "a,b"], ["--delay", "-1"]):
        r = _run("", *args)
        assert r.returncode == 2, args
        assert "Traceback" not in r.stderr


def test_auto_play_finishes_the_hand() -> None:
    r = _run("a\n" + "1\n" * 400, "--hands", "2", "--seed", "9")
    assert r.returncode == 0
    out = r.stdout
    assert "托管" in out
    assert "第1局 结束" in out
    assert "取消托管" in out  # the seat comes back to the player for hand 2
    assert "第2局 结束" in out
    # the bot's moves for the human seat are announced too
    auto = out.split("东·你 托管")[1].split("第1局 结束")[0]
    assert "东·你 打出" in auto


def _pty_run(args: list[str], answer: bytes, *, every: float | None = None,
             first: bytes | None = None) -> tuple[int | None, str]:
    """Run ``laizi play`` in a pseudo-terminal (120×40); send ``first`` once the table is
    up, then ``answer`` at each ``>`` prompt (line mode) or every ``every`` seconds."""
    pty = pytest.importorskip("pty")
    import fcntl
    import select
    import struct
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "COLUMNS": "120", "LINES": "40", "TERM": "xterm-256color"}
    proc = subprocess.Popen([*CMD, *args], stdin=slave, stdout=slave, stderr=slave, env=env,
                            close_fds=True)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + 90
    last = time.monotonic()
    sent_first = first is None
    try:
        while time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 0.5)
            if r:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            elif proc.poll() is not None:
                break
            if not sent_first and len(out) > 2000:
                time.sleep(0.5)
                os.write(master, first or b"")
                sent_first = True
                last = time.monotonic()
            if every is None and out.rstrip().endswith(b">"):
                os.write(master, answer)
            elif every is not None and sent_first and time.monotonic() - last > every:
                os.write(master, answer)
                last = time.monotonic()
        proc.wait(timeout=30)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out.decode("utf-8", "replace")


def test_line_mode_in_a_pty() -> None:
    """``--plain`` in a real terminal: the game reads lines from a pseudo-terminal."""
    code, text = _pty_run(["--plain", "--hands", "1", "--seed", "1", "--lang", "en"], b"1\n")
    assert code == 0, text[-2000:]
    assert "hand 1 over" in text
    assert "Traceback" not in text


@pytest.mark.slow
def test_full_screen_table_in_a_pty() -> None:
    """A real terminal gets the full-screen table: 托管 plays the hand, Enter goes on."""
    code, text = _pty_run(["--hands", "1", "--seed", "1", "--delay", "0.01"], b"\r",
                          every=1.0, first=b"a")
    assert code == 0, text[-3000:]
    assert "Traceback" not in text
    assert "\x1b[?1049h" in text  # the alternate screen: a full-screen app
    for word in ("剩余", "赖子", "托管", "结算", "比分表"):
        assert word in text, word
    tail = text.split("\x1b[?1049l")[-1]  # after the full screen: the match table stays
    assert "比分表" in tail


def test_the_terminal_table_shows_each_seats_fan_and_the_scored_waits() -> None:
    """番 on the table in the terminal too (issue 23): every seat's public fan and standing by
    its label, and the own ready hand's waits with the scorer's points and 够番."""
    from laizi.hints import ready_waits
    from laizi.rules import RuleSet
    from laizi.scoring import table_fan
    from laizi.tui.render import seat_text, waits_text
    from laizi.tui.session import Session

    s = Session(RuleSet.preset("kaikoufan"), seed=3, hands=1, lang="zh")
    seen_fan = seen_waits = 0
    while not s.hand_over and s.moves < 400:
        hv, sv = s.hand_view(), s.seat_view()
        fans = s.fans()
        for seat in range(4):
            text = seat_text(hv, seat, s.names, s.scores(), "zh", fan=fans[seat]).plain
            n = table_fan(s.rules, sv.setup.laizi, sv.melds[seat], sv.special_kongs[seat],
                          sv.special_discards[seat])
            assert f"{n}番·" in text and ("阳光" in text or "金顶" in text)
            seen_fan += n > 0
        waits = s.waits()
        assert waits == ready_waits(sv, scores=True)
        if waits:
            seen_waits += 1
            line = waits_text(waits, "zh").plain
            for w in waits:
                assert f"×{w['unseen']} 自摸 " in line
                if w["self_draw"]["ok"]:
                    assert f"自摸 {w['self_draw']['total']:g}分" in line
            assert ("够番" in line) == any(w["enough"] for w in waits)
        if s.legal():
            s.apply(s.bot_choice())
        else:
            s.step_bot()
    assert seen_fan and seen_waits
