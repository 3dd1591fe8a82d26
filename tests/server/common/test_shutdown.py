"""A shutdown step that never ends is cut off at its limit and logged with the stack it
waited in; a step that ends is awaited; its error is the caller's."""

from __future__ import annotations

import asyncio
import logging

import pytest

from laizi.server.common.shutdown import bounded


async def _forever() -> None:
    await asyncio.Event().wait()  # nobody sets it: the stuck step


async def _quick(out: list[int]) -> None:
    await asyncio.sleep(0)
    out.append(1)


async def _broken() -> None:
    raise ValueError("step failed")


def test_a_stuck_step_is_cut_off_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, "laizi.server")

    async def main() -> tuple[bool, float]:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        ok = await bounded("the stuck step", _forever(), seconds=0.2)
        return ok, loop.time() - t0

    ok, took = asyncio.run(main())
    assert ok is False
    assert took < 5.0  # cut off near its limit, not waited for
    text = caplog.text
    assert "the stuck step did not end within" in text
    assert "_forever" in text  # where it waited


def test_a_step_that_ends_is_awaited_and_its_error_raised() -> None:
    out: list[int] = []

    async def main() -> bool:
        return await bounded("quick", _quick(out), seconds=5)

    assert asyncio.run(main()) is True and out == [1]

    async def broken() -> None:
        await bounded("broken", _broken(), seconds=5)

    with pytest.raises(ValueError, match="step failed"):
        asyncio.run(broken())
