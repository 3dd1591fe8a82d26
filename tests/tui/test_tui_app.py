"""The full-screen terminal table, driven by key presses through textual's pilot."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest

pytest.importorskip("textual")

from laizi.rules import RuleSet  # noqa: E402
from laizi.tui.app import TableApp  # noqa: E402
from laizi.tui.session import Session  # noqa: E402
from laizi.tui.widgets import ResultScreen, SettlementScreen  # noqa: E402
from laizi.tui.words import describe_event  # noqa: E402
from laizi.views import hand_log  # noqa: E402

CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
CLAIMS = ("chi", "peng", "kong")
# A seed whose first hand has bot claims when the human discards the drawn tile and
# passes every claim (the test checks that it still does).
SEED = 5


def _log_text(app: TableApp) -> str:
    log = app.query_one("#log")
    return "\n".join("".join(seg.text for seg in strip) for strip in log.lines)  # type: ignore[attr-defined]


async def _play(lang: str, *, seed: int = SEED, hands: int = 1) -> dict[str, Any]:
    """Play whole hands by keys: Enter discards the raised (drawn) tile, the number of
    过 passes a claim; Enter continues after the settlement and closes the result."""
    session = Session(RuleSet.preset("kaikoufan"), seed=seed, hands=hands, lang=lang)  # type: ignore[arg-type]
    app = TableApp(session, delay=0)
    out: dict[str, Any] = {"session": session, "app": app, "totals": set(), "screens": [],
                           "settlements": 0, "decisions": 0}
    t0 = time.monotonic()
    async with app.run_test(size=(140, 45)) as pilot:
        while app.return_code is None:
            assert time.monotonic() - t0 < 60, "the game did not finish"
            await pilot.pause(0.005)
            screen = app.screen
            if isinstance(screen, SettlementScreen):
                out["settlements"] += 1
                out["screens"].append(app.export_screenshot())
                out["settle_text"] = out["screens"][-1]
                out["log"] = _log_text(app)
                await pilot.press("enter")
                await pilot.pause(0.02)
            elif isinstance(screen, ResultScreen):
                out["screens"].append(app.export_screenshot())
                await pilot.press("enter")
            elif app.awaiting:
                out["totals"].add(session.tile_total())
                out["decisions"] += 1
                if out["decisions"] == 1:
                    await pilot.press("h")  # hints go to the log pane
                if out["decisions"] == 3:
                    out["screens"].append(app.export_screenshot())
                if app.discards:
                    await pilot.press("enter")
                else:
                    labels = [a.type for a in app.actions]
                    await pilot.press(str(labels.index("pass") + 1))
    out["return_code"] = app.return_code
    return out


@pytest.mark.slow
def test_a_whole_hand_by_keys_shows_bot_claims_and_the_settlement() -> None:
    got = asyncio.run(_play("zh"))
    session: Session = got["session"]
    assert got["return_code"] == 0
    assert got["decisions"] >= 5
    assert got["totals"] == {136}  # every tile accounted for at every decision
    assert got["settlements"] == 1
    assert "结算" in got["settle_text"]
    # The bots' claims of the hand, from the full (public once over) hand log ...
    events = hand_log(session.match, 1)
    claims = [e for e in events if e["type"] in CLAIMS and e["seat"] != session.human]
    assert claims, "pick a seed with a bot claim"
    # ... each announced in the log pane, in the words of the table.
    log = got["log"]
    for e in claims:
        line = describe_event(e, session.human, session.dealer, session.names, "zh")
        assert line and line in log.replace("\n", ""), line
    assert any(w in log for w in ("碰", "吃", "杠"))
    assert "打出" in log and "摸牌" in log  # other seats' draws announced, hidden
    assert "胡" in log or "荒庄" in log
    assert "提示" in log and "★" in log and "向听" in log
    # The table itself: wall count, the laizi and the seat winds.
    table = got["screens"][0]
    assert "剩余" in table and "赖子" in table and "东" in table


@pytest.mark.slow
def test_english_mode_has_no_chinese_left() -> None:
    got = asyncio.run(_play("en", seed=SEED))
    assert got["return_code"] == 0
    log = got["log"]
    assert "discards" in log and "draws a tile" in log
    assert "Hints" in log and "from ready" in log
    assert any(w in log for w in ("pungs", "chows", "kongs"))
    for text in [log, got["settle_text"], *got["screens"]]:
        found = CJK.findall(text)
        assert not found, found[:10]
    assert "settlement" in got["settle_text"]


def _mine(line: str, what: str) -> bool:
    """A log line of the human's seat (its wind label moves with the dealer: 东·你, 南·你 …)."""
    return len(line) > 3 and line[1:3] == "·你" and line[3:].startswith(f" {what}")


@pytest.mark.slow
def test_auto_play_keeps_playing_visibly_and_can_be_cancelled() -> None:
    async def run() -> tuple[list[str], bool, bool]:
        # (hands enough that 托管 cannot end the match before it is cancelled: seed 9's hands
        # are short, and with 3 a loaded machine let it play the last one out — the result
        # screen then never gave the seat back)
        session = Session(RuleSet.preset("kaikoufan"), seed=9, hands=16, lang="zh")
        app = TableApp(session, delay=0.002, settle_seconds=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            while not app.awaiting:
                await pilot.pause(0.005)
            await pilot.press("a")  # 托管 on
            start = len(app.log_lines)
            t0 = time.monotonic()
            while time.monotonic() - t0 < 30:
                await pilot.pause(0.005)
                new = app.log_lines[start:]
                if sum(_mine(ln, "打出") for ln in new) >= 2:
                    break
            was_auto = session.auto
            # 取消托管 — a key pressed while a settlement screen is being pushed may land on
            # the outgoing screen: press again (only while 托管 is still on) until it took
            for _ in range(10):
                if not session.auto:
                    break
                await pilot.press("a")
                t1 = time.monotonic()
                while session.auto and time.monotonic() - t1 < 1.0:
                    await pilot.pause(0.01)
            # back to the player: a hand that ended meanwhile shows its settlement, which (托管
            # off) waits for 继续 — press it, as the player would
            t0 = time.monotonic()
            while not app.awaiting and time.monotonic() - t0 < 30:
                if isinstance(app.screen, SettlementScreen) and not session.auto:
                    await pilot.press("enter")
                await pilot.pause(0.005)
            lines = list(app.log_lines)
            back = not session.auto and app.awaiting
            await pilot.press("q")
        return lines, was_auto, back

    lines, was_auto, back = asyncio.run(run())
    assert was_auto and back
    i = next(k for k, ln in enumerate(lines) if _mine(ln, "托管"))
    j = next(k for k, ln in enumerate(lines) if _mine(ln, "取消托管"))
    between = lines[i:j]
    assert sum(_mine(ln, "打出") for ln in between) >= 2  # the bot played the seat
    assert any(not _mine(ln, "") for ln in between)  # and the others went on


def test_mouse_raises_then_discards_a_tile() -> None:
    async def run() -> tuple[str, str]:
        session = Session(RuleSet.preset("kaikoufan"), seed=2, hands=1, lang="en")
        app = TableApp(session, delay=0)
        async with app.run_test(size=(140, 45)) as pilot:
            while not (app.awaiting and app.discards):
                await pilot.pause(0.005)
            bar = app.query_one("#hand")
            row, start, _end, item = next(sp for sp in bar.spans if sp[3] == 0 and sp[0] == 1)  # type: ignore[attr-defined]
            tile = app.hand_tiles[0]
            await pilot.click("#hand", offset=(start + 1 + 1, row))  # padding 1
            assert app.cursor == 0
            before = len(app.log_lines)
            await pilot.click("#hand", offset=(start + 1 + 1, 0))  # the raised tile
            await pilot.pause(0.05)
            new = app.log_lines[before:]
            await pilot.press("q")
        return tile, "\n".join(new)

    tile, new = asyncio.run(run())
    from laizi.tui.words import tile_long

    assert f"East·You discards {tile_long(tile, 'en')}" in new


def test_typed_tile_and_bad_input_messages() -> None:
    async def run() -> tuple[list[str], str]:
        session = Session(RuleSet.preset("kaikoufan"), seed=2, hands=1, lang="en")
        app = TableApp(session, delay=0)
        async with app.run_test(size=(140, 45)) as pilot:
            while not (app.awaiting and app.discards):
                await pilot.pause(0.005)
            await pilot.press("9", "z", "enter")  # not a tile
            msg = app.status_plain
            tile = app.hand_tiles[1]
            before = len(app.log_lines)
            await pilot.press(*tile, "enter")
            await pilot.pause(0.05)
            new = app.log_lines[before:]
            await pilot.press("q")
        return new, msg + "|" + tile

    new, msg = asyncio.run(run())
    status, tile = msg.split("|")
    assert "not understood" in status
    from laizi.tui.words import tile_long

    assert any(ln == f"East·You discards {tile_long(tile, 'en')}" for ln in new), new


def test_clicking_an_action_takes_it() -> None:
    async def run() -> tuple[str, list[str]]:
        session = Session(RuleSet.preset("kaikoufan"), seed=5, hands=1, lang="en")
        app = TableApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            while not app.awaiting:
                await pilot.pause(0.005)
            assert app.actions, "seed 5 starts with a kong on offer"
            label = app.actions[0]
            before = len(app.log_lines)
            await pilot.click("#actions", offset=(3, 0))
            await pilot.pause(0.05)
            new = app.log_lines[before:]
            await pilot.press("q")
        from laizi.tui.words import action_label

        return action_label(label, "en"), new

    label, new = asyncio.run(run())
    assert label == "Laizi kong North"
    assert new[0] == "East·You laizi kong North", new


def test_help_page_opens_and_closes() -> None:
    async def run() -> tuple[str, bool, bool]:
        session = Session(RuleSet.preset("kaikoufan"), seed=2, hands=1, lang="en")
        app = TableApp(session, delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            while not app.awaiting:
                await pilot.pause(0.005)
            await pilot.press("question_mark")
            await pilot.pause(0.05)
            from laizi.tui.widgets import HelpScreen

            shown = isinstance(app.screen, HelpScreen)
            text = app.export_screenshot()
            await pilot.press("enter")
            await pilot.pause(0.05)
            back = app.screen is app.screen_stack[0] and app.awaiting
            await pilot.press("q")
        return text, shown, back

    text, shown, back = asyncio.run(run())
    assert shown and back
    assert "Glossary" in text and "chow" in text and "吃" in text  # the term shown once, here


def test_q_asks_before_it_quits() -> None:
    """``q`` once asks (the game is not saved); another key takes the question back; ``q``
    twice quits (issue 21: ``laizi play`` quit on one ``q`` without asking)."""
    async def run() -> tuple[str, bool, bool, int | None]:
        session = Session(RuleSet.preset("kaikoufan"), seed=2, hands=1, lang="en")
        app = TableApp(session, delay=0)
        async with app.run_test(size=(140, 45)) as pilot:
            while not app.awaiting:
                await pilot.pause(0.005)
            await pilot.press("q")
            await pilot.pause(0.05)
            asked = app.status_plain
            still = app.is_running
            await pilot.press("left", "q")  # another key between: asked again, not quit
            await pilot.pause(0.05)
            again = app.is_running
            await pilot.press("q")
            await pilot.pause(0.1)
        return asked, still, again, app.return_code

    asked, still, again, code = asyncio.run(run())
    assert "Press q again to quit" in asked and still and again
    assert code == 0
