"""A retried write is idempotent (the first attempt may have committed without saying so),
and a room whose writes fail waits, says so, and goes on when they succeed (real SQLite)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from laizi.server.persistence import db
from laizi.server.persistence.store import Progress, RoomRecord, Store
from laizi.server.tables.recorder import Recorder


def progress(mid: int, code: str) -> Progress:
    return Progress(match_id=mid, room_code=code,
                    actions=[{"match_id": mid, "n": 1, "seat": 0, "action": {"type": "pass"},
                              "source": "player", "player_id": "p_x", "client_seq": 1, "version": 1}],
                    events=[{"match_id": mid, "n": 1, "hand": 1, "kind": "pass", "data": {"type": "pass"}}],
                    hands=[], escapes=[], hand_no=1, seat_pids=[None] * 4, match_values=None,
                    over=False, room_values=None)


def test_a_retried_progress_write_is_not_applied_twice(tmp_path: Path) -> None:
    async def run() -> None:
        store = await Store.open(str(tmp_path / "retry.db"))
        try:
            rec = RoomRecord(code="ABCDE", owner_id=None, status="lobby", settings={}, seats=[{}] * 4)
            mid = await store.create_match(rec, {}, b"\0" * 32, None)
            p = progress(mid, rec.code)
            await store.write_progress(p)
            await store.write_progress(p, retry=True)  # the first one did commit: a no-op
            with pytest.raises(IntegrityError):
                await store.write_progress(p)           # without the check it would clash
            with Session(store.engine) as s:
                assert s.scalar(select(func.count()).select_from(db.ActionRow)) == 1
                assert s.scalar(select(func.count()).select_from(db.EventRow)) == 1
        finally:
            await store.close()

    asyncio.run(run())


def test_failing_writes_pause_then_resume(tmp_path: Path) -> None:
    told: list[dict[str, Any]] = []
    attempts: list[bool] = []

    async def flaky(retry: bool) -> str:
        attempts.append(retry)
        if len(attempts) < 3:
            raise RuntimeError("write failed")
        return "stored"

    async def run() -> str:
        store = await Store.open(str(tmp_path / "pause.db"))
        try:
            return await Recorder("ROOM1", store, told.append).durably(flaky)
        finally:
            await store.close()

    assert asyncio.run(run()) == "stored"
    assert attempts == [False, True, True]
    assert [m["type"] for m in told] == ["paused", "resumed"]
