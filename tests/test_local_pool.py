"""The local process pool the simulator and the arena share (``laizi.distributed.local_pool``).

Its workers each talk to the parent over a pipe of their own. ``multiprocessing.Pool`` shared a
result queue and its lock between them: leaving it while a worker wrote a result larger than
the pipe's buffer could hang the parent for ever (``laizi sim --log`` results are ~500 KB; it
hung once in CI on a Ctrl-C, and once in 200 early exits on this machine)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from laizi.distributed import WorkerDiedError, local_pool
from support.interrupt import running

BIG = 300_000  # bytes per result: more than a pipe's buffer (64 KiB)


def _big(i: int) -> tuple[int, bytes]:
    return i, bytes([i % 256]) * BIG


def _slow_big(i: int) -> tuple[int, bytes]:
    time.sleep((i * 7 % 5) / 1000)  # answers come back out of order
    return _big(i)


def _fails_at_3(i: int) -> int:
    if i == 3:
        raise ValueError("job 3 is bad")
    return i


def _dies_at_3(i: int) -> int:
    if i == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return i


def test_results_come_in_job_order_with_results_larger_than_a_pipe() -> None:
    with local_pool(2) as pool:
        got = list(pool.imap(_slow_big, range(40)))
    assert [i for i, _ in got] == list(range(40))
    assert all(b == bytes([i % 256]) * BIG for i, b in got)


def test_leaving_early_while_big_results_are_in_flight_stops_every_worker() -> None:
    for stop in range(12):  # at each point, results in the pipes and being written
        with local_pool(2) as pool:
            pids = [p.pid for p in pool._procs]
            for k, (i, _) in enumerate(pool.imap(_big, range(10_000))):
                assert i == k
                if k == stop:
                    break
        assert not any(running(p) for p in pids)


def test_a_workers_error_is_raised_in_the_parent() -> None:
    with pytest.raises(ValueError, match="job 3 is bad"), local_pool(2) as pool:
        list(pool.imap(_fails_at_3, range(10)))


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    with pytest.raises(WorkerDiedError, match="ended without answering"), \
            local_pool(2) as pool:
        list(pool.imap(_dies_at_3, range(10)))


def test_an_empty_job_list_gives_nothing() -> None:
    with local_pool(3) as pool:
        assert list(pool.imap(_big, [])) == []
        assert [i for i, _ in pool.imap(_big, [5])] == [5]  # a pool serves a second map


def test_a_map_left_unfinished_is_not_mixed_into_the_next() -> None:
    with local_pool(2) as pool:
        for _ in pool.imap(_big, range(100)):
            break  # answers still on their way
        with pytest.raises(RuntimeError, match="left unfinished"):
            next(iter(pool.imap(_big, range(3))))


_STATE: list[str] = []


def _init(tag: str) -> None:
    _STATE[:] = [tag]


def _tagged(i: int) -> tuple[int, str, int]:
    return i, _STATE[0] if _STATE else "", os.getpid()


def _bad_init() -> None:
    raise OSError("no weights here")


def test_an_initializer_runs_in_every_worker_before_its_jobs() -> None:
    with local_pool(2, initializer=_init, initargs=("w",)) as pool:
        got = list(pool.imap(_tagged, range(20)))
    assert [i for i, _, _ in got] == list(range(20))
    assert {t for _, t, _ in got} == {"w"}


def test_an_initializers_error_is_raised_at_the_first_job() -> None:
    with pytest.raises(OSError, match="no weights here"), \
            local_pool(2, initializer=_bad_init) as pool:
        list(pool.imap(_tagged, range(5)))


def test_max_tasks_gives_each_process_that_many_jobs_then_a_fresh_one() -> None:
    """``maxtasksperchild`` as ``multiprocessing.Pool`` has it: the training script's workers
    give back what a shard left in memory. The renewed workers ran the initializer too."""
    with local_pool(2, initializer=_init, initargs=("x",), max_tasks=3) as pool:
        got = list(pool.imap(_tagged, range(25)))
        pids = [p.pid for p in pool._procs]
    assert [i for i, _, _ in got] == list(range(25))
    assert {t for _, t, _ in got} == {"x"}
    per_pid: dict[int, int] = {}
    for _, _, pid in got:
        per_pid[pid] = per_pid.get(pid, 0) + 1
    assert max(per_pid.values()) <= 3
    assert len(per_pid) >= 9  # 25 jobs, at most 3 per process
    assert not any(running(p) for p in pids)
    assert not any(running(p) for p in per_pid)


def test_max_tasks_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        local_pool(2, max_tasks=0).__enter__()
