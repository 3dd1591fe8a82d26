"""The flow's bookkeeping (:class:`laizi.server.tables.flow.Flow`) without a server: when the next hand
is due, lapses, public countdowns."""

from __future__ import annotations

from laizi.server.common.protocol import AUTO_AFTER_LAPSES, CONTINUE_SECONDS, RoomSettings
from laizi.server.tables.flow import Flow


def test_defaults_are_the_named_constants() -> None:
    s = RoomSettings()
    assert s.continue_seconds == CONTINUE_SECONDS == 15 and s.auto_after_lapses == AUTO_AFTER_LAPSES == 2


def test_settlement_waits_for_the_humans_or_the_countdown() -> None:
    f = Flow(continue_seconds=15, auto_after_lapses=2)
    assert f.arm(100.0, [0, 2], pause=4) == 115.0
    assert f.arm(101.0, [0, 2], pause=4) == 115.0  # armed once per settlement
    assert not f.settled(101.0, [0, 2])
    f.continued.add(0)
    assert not f.settled(101.0, [0, 2])
    f.continued.add(2)
    assert f.settled(101.0, [0, 2])
    assert f.settled(115.0, [0, 2]) and Flow(15, 2).settled(0.0, []) is False
    f.dealt()
    assert f.next_hand_at is None and f.continued == set()


def test_nobody_to_wait_for_keeps_the_short_pause() -> None:
    f = Flow(continue_seconds=15, auto_after_lapses=2)
    assert f.arm(10.0, [], pause=4) == 14.0
    assert not f.settled(12.0, []) and f.settled(14.0, [])


def test_lapses_in_a_row_switch_to_auto_and_an_own_move_resets_them() -> None:
    f = Flow(continue_seconds=15, auto_after_lapses=2)
    assert f.lapse(1) is False
    f.acted(1)
    assert f.lapse(1) is False and f.lapse(1) is True
    assert f.lapses == [0, 2, 0, 0]


def test_claim_window_timer_names_no_seat() -> None:
    f = Flow(continue_seconds=15, auto_after_lapses=2)
    turn = f.timers("turn", False, False, {2: 30.0}, [], 10.0)
    assert turn == {"timer": {"seat": 2, "left": 20.0}}
    claim = f.timers("claim", False, False, {1: 18.0, 3: 18.0}, [], 10.0)
    assert claim == {"timer": {"seat": None, "left": 8.0}}
    assert f.timers("claim", False, False, {3: 18.0}, [], 10.0) == claim  # one claimant or two: same
    f.arm(10.0, [0], pause=1)
    assert f.timers("over", True, False, {}, [0], 12.0) == {"settle": {"left": 13.0, "waiting": [0], "continued": []}}
    f.rematch.add(0)
    assert f.timers("over", True, True, {}, [0], 12.0) == {"rematch": [0]}
