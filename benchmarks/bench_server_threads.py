"""Where one process's server CPU per action goes, thread by thread (issue 24), on PostgreSQL.

    python benchmarks/bench_server_threads.py --rooms 100 --seconds 20 --json

Starts a private PostgreSQL and ``laizi serve`` on it (:mod:`benchsvc`), plays
``bench_server.py --url … --rooms N`` against it, and in the middle of the play (after
``--warm`` seconds, for ``--window`` seconds: the match starts left out) reads the CPU time
(user + system, from ``/proc``) of each of the server's threads and of PostgreSQL. Reported
per client action: each thread's CPU — named by ``py-spy dump`` when py-spy is installed
(``MainThread``: the event loop; ``laizi-db-writer``: the database writer; ``uvloop_N``: the
loop's default executor), else by its thread id — and PostgreSQL's; and of the server's
whole CPU, the part spent in the kernel (``server_system_cpu_ms_per_action``: the sockets'
system calls, the loop's polls and wake-ups). Linux only.

``--profile FILE`` also samples the server with ``py-spy record`` in the window and reports the
event loop's samples by part of an action.

``--meter`` runs the server through ``metered_serve.py``, which adds up the event loop's CPU
inside the parts of an action (building the frames, of which the private parts; the move
applied; parsing; the sends and the socket writes), and reports them per action too, with
the process's CPU per action without the frames' part: a floor that no way of building
frames goes under while the rest stays (the meters' own cost, a few microseconds an action,
is in that figure).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import benchsvc  # noqa: E402

HERE = Path(__file__).resolve().parent


def thread_cpu(pid: int, system: dict[int, float] | None = None) -> dict[int, float]:
    """CPU seconds (user + system) of each thread of ``pid`` (``system``: filled with the
    system part alone)."""
    out: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended
            continue
        out[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick
        if system is not None:
            system[int(task.name)] = int(fields[12]) / tick
    return out


def thread_names(pid: int) -> dict[int, str]:
    """Python's names of the threads (``py-spy dump``), or {} without py-spy."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not os.path.exists(spy):
        return {}
    dump = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True, text=True,
                          timeout=60).stdout
    names: dict[int, str] = {}
    for line in dump.splitlines():  # Thread 6537 (active+gil): "MainThread"
        if line.startswith("Thread ") and '"' in line:
            head, name = line.split('"', 2)[:2]
            tid = head.split()[1]
            if tid.isdigit():
                names[int(tid)] = name
    return names


def read_meters(pid: int, path: Path, timeout: float = 30.0) -> dict[str, Any]:
    """The totals of :mod:`metered_serve` now: asks the server (its signal) and waits for
    the file it writes."""
    path.unlink(missing_ok=True)
    os.kill(pid, signal.SIGRTMIN + 1)  # metered_serve.SIGNAL
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit("the metered server wrote no totals")
        time.sleep(0.02)
    return dict(json.loads(path.read_text()))


PROFILE_RATE = 250  # samples a second


def profile_start(pid: int, seconds: float, out: Path) -> subprocess.Popen[str] | None:
    """``py-spy record`` of the server's threads for ``seconds``, its stacks collapsed
    (``--format raw``) into ``out``; None without py-spy. Blocking (the server is paused
    for each sample: py-spy's non-blocking mode counted the loop's idle waits as work), so
    a sample is a moment the thread was running or runnable: on a loaded machine the
    samples add up to more than its CPU, and the parts are shares."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not os.path.exists(spy):
        print("warning: py-spy not installed: no profile", file=sys.stderr)
        return None
    return subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(round(seconds)),
                             "--rate", str(PROFILE_RATE), "--format", "raw", "--threads",
                             "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            text=True)


# Where a sample of the event loop is counted: the innermost of these found in its stack. A
# sample whose innermost frame is the loop's runner is the loop's own C code (uvloop: polling,
# socket reads, timers, callbacks' scheduling) or the loop waiting: py-spy cannot tell the
# two apart there, so those are left out and the rest is reported in milliseconds per action.
PROFILE_PARTS = (
    ("frames", ("RoomFrames.frame", "_timers_json")),
    ("step", ("Room._step",)),
    ("persist", ("Store.", "journal", "DbWriter", "Room._persist")),
    ("parse", ("parse_client_message",)),
    ("send", ("Conn.send", "DirectWriter", "Conn.sender")),
    ("receive", ("data_received", "handle_events", "receive_data", "WebSocket.receive")),
    ("dispatch", ("_receive_loop", "dispatch")),
)
RUNNER = "Runner.run (asyncio/runners.py"


def profile_summary(path: Path, actions: float) -> dict[str, Any]:
    """The event loop's (``MainThread``'s) samples as CPU milliseconds per action, by part of
    an action (:data:`PROFILE_PARTS`; ``other``: none of them, e.g. timers' callbacks, the
    room's queue), and its 25 hottest Python leaf functions; the samples in the runner
    itself (uvloop's C code or idle) apart."""
    parts: dict[str, int] = {}
    leaves: dict[str, int] = {}
    runner = total = 0
    for line in path.read_text().splitlines():
        stack, _, count_s = line.rpartition(" ")
        if not count_s.isdigit() or "MainThread" not in stack.split(";", 1)[0]:
            continue
        n = int(count_s)
        frames = stack.split(";")[1:]
        if not frames or frames[-1].startswith(RUNNER):
            runner += n
            continue
        total += n
        part = "other"
        for fr in frames:  # outermost first: the innermost match wins
            for name, keys in PROFILE_PARTS:
                if any(k in fr for k in keys):
                    part = name
                    break
        parts[part] = parts.get(part, 0) + n
        leaves[frames[-1]] = leaves.get(frames[-1], 0) + n
    ms = 1000.0 / PROFILE_RATE / max(actions, 1e-9)
    return {"python_samples": total, "runner_samples": runner,
            "python_ms_per_action": round(total * ms, 3),
            "parts_ms_per_action": {k: round(v * ms, 3) for k, v in sorted(parts.items(), key=lambda kv: -kv[1])},
            "leaves_ms_per_action": {k[:120]: round(v * ms, 4)
                                     for k, v in sorted(leaves.items(), key=lambda kv: -kv[1])[:25]}}


def measure(rooms: int, seconds: float, warm: float, window: float, meter: bool = False,
            bot: str = "random", profile: Path | None = None) -> dict[str, Any]:
    if warm + window > seconds:
        raise SystemExit("--warm + --window must fit in --seconds")
    pg = benchsvc.Postgres().start()
    srv = None
    meters: list[dict[str, Any]] = []
    out_file = Path(tempfile.mkdtemp(prefix="laizi-meter-")) / "meters.json"
    try:
        db = pg.fresh_db("threads")
        port = benchsvc.free_port()
        if meter:
            srv = benchsvc.serve(port, db, entry=(str(HERE / "metered_serve.py"),),
                                 env={"LAIZI_METER_OUT": str(out_file)})
        else:
            srv = benchsvc.serve(port, db)
        bench = subprocess.Popen(
            [sys.executable, str(HERE / "bench_server.py"), "--url", f"ws://127.0.0.1:{port}/ws",
             "--rooms", str(rooms), "--seconds", str(seconds), "--bot", bot, "--json"],
            stdout=subprocess.PIPE, text=True)
        time.sleep(warm)  # (a sampling window of a running load, not a wait for a condition)
        if meter:
            meters.append(read_meters(srv.pid, out_file))
        sys_before: dict[int, float] = {}
        sys_after: dict[int, float] = {}
        before, pg_before = thread_cpu(srv.pid, sys_before), pg.cpu_seconds() or 0.0
        spy = profile_start(srv.pid, window, profile) if profile is not None else None
        time.sleep(window)
        after, pg_after = thread_cpu(srv.pid, sys_after), pg.cpu_seconds() or 0.0
        if meter:
            meters.append(read_meters(srv.pid, out_file))
        if spy is not None:
            spy.wait(timeout=120)
        names = thread_names(srv.pid)
        out_text, _ = bench.communicate(timeout=seconds + 300)
        if bench.returncode != 0:
            raise SystemExit(f"bench_server.py failed ({bench.returncode})")
        res = json.loads(out_text.strip().splitlines()[-1])
    finally:
        benchsvc.stop(srv)
        pg.stop()
        shutil.rmtree(out_file.parent, ignore_errors=True)
    actions = res["actions_per_s"] * window  # (the load's steady rate)
    threads: dict[str, float] = {}
    for tid, cpu in after.items():
        used = cpu - before.get(tid, 0.0)
        if used > 0:
            name = names.get(tid, f"thread {tid}")
            threads[name] = threads.get(name, 0.0) + used
    per = {k: round(1000 * v / actions, 3) for k, v in sorted(threads.items(), key=lambda kv: -kv[1])}
    out = {"rooms": rooms, "bot": bot, "window_s": window, "actions_per_s": res["actions_per_s"],
           "p99_ms": res["p99_ms"], "server_cpu_ms_per_action_by_thread": per,
           "server_cpu_ms_per_action": round(sum(per.values()), 3),
           # (of it, in the kernel: the sockets' system calls, the loop's polls, wake-ups)
           "server_system_cpu_ms_per_action": round(
               1000 * sum(v - sys_before.get(t, 0.0) for t, v in sys_after.items()) / actions, 3),
           "pg_cpu_ms_per_action": round(1000 * (pg_after - pg_before) / actions, 3),
           "load_average": os.getloadavg()[0], "setup_s": res.get("setup_s")}
    if (res.get("setup_s") or 0) + 1 > warm:
        # the rooms were still being set up (seated, dealt) in the window: not steady play
        out["window_overlaps_setup"] = True
        print(f"warning: set-up took {res.get('setup_s')} s, the window began at {warm} s: "
              "raise --warm (and --seconds)", file=sys.stderr)
    if profile is not None and profile.exists():
        out["profile"] = profile_summary(profile, actions)
    if meter:
        b, a = meters
        parts = {k: round(1000 * (v - b["seconds"].get(k, 0.0)) / actions, 3)
                 for k, v in sorted(a["seconds"].items())}
        out["metered_ms_per_action"] = parts
        # what the process spends on everything but building frames: what any frame
        # design leaves (the sends, the writer, parsing, the engine, the loop itself)
        out["server_cpu_ms_per_action_without_frames"] = round(
            out["server_cpu_ms_per_action"] - parts.get("frames", 0.0), 3)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0, help="the load's play time")
    ap.add_argument("--warm", type=float, default=8.0, help="seconds of play before the window")
    ap.add_argument("--window", type=float, default=10.0, help="seconds measured")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="JSON lines only")
    ap.add_argument("--bot", default="random",
                    help="the bot the clients play with (bench_server.py --bot; strong: hands "
                         "that get ready, as players' do)")
    ap.add_argument("--meter", action="store_true",
                    help="run the server with metered_serve.py's CPU meters (frames, step, "
                         "parse, send, write) and report them per action")
    ap.add_argument("--profile", type=Path, default=None, metavar="FILE",
                    help="also sample the server with py-spy in the window: its collapsed "
                         "stacks in FILE (round N: FILE.N), and the event loop's samples by "
                         "part of an action in the report")
    args = ap.parse_args(argv)
    if args.rooms < 1 or args.window <= 0 or args.rounds < 1:
        ap.error("--rooms and --rounds must be at least 1, --window positive")
    for n in range(args.rounds):
        prof = None if args.profile is None else args.profile.with_name(f"{args.profile.name}.{n + 1}")
        res = measure(args.rooms, args.seconds, args.warm, args.window, args.meter, args.bot, prof)
        res["round"] = n + 1
        if args.json:
            print(json.dumps(res), flush=True)
        else:
            print(f"round {n + 1}: {res['actions_per_s']} actions/s, p99 {res['p99_ms']} ms; "
                  f"server CPU ms/action {res['server_cpu_ms_per_action']} "
                  f"({res['server_cpu_ms_per_action_by_thread']}), PostgreSQL {res['pg_cpu_ms_per_action']}"
                  + (f"; metered {res['metered_ms_per_action']}, without frames "
                     f"{res['server_cpu_ms_per_action_without_frames']}" if args.meter else ""),
                  flush=True)
            if "profile" in res:  # (the report says by part of an action, as promised)
                print(f"round {n + 1} profile ({prof}): event loop's samples, ms/action by part "
                      f"{res['profile']['parts_ms_per_action']}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
