"""Rebuild a hand or match from its log, and check the log against the engine.

A log is a list of events (:mod:`laizi.game.events`), stored as JSON lines. A
match log starts with ``start_match``; a stand-alone hand log with a
``start_hand`` that carries the ``rules``. :func:`replay` re-applies every
recorded decision (``discard``, ``tsumo``, kongs, ``response``, ``replace``,
``escape``, ``auto``) to a fresh engine dealt from the log's ``secret``/``end_hand`` seed and
wall, and requires every event the engine produces to equal the recorded one, so
the rebuilt state (and :meth:`~laizi.game.state.HandState.hash`) is exactly the
recorded game's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from laizi.errors import RuleError
from laizi.game.actions import DRAW, NODRAW, TSUMO, Action, tile_from_str
from laizi.game.errors import GameError, LogError, ReplayError
from laizi.game.events import ACTION_EVENTS, Event, event_problems
from laizi.game.match import Match
from laizi.game.state import HandState
from laizi.game.wall import wall_from_str
from laizi.rules import RuleSet

__all__ = ["BeforeAction", "dump_log", "load_log", "parse_log", "replay", "replay_all", "split_logs"]


def parse_log(text: str, loads: Callable[[str], Any] = json.loads) -> list[Event]:
    """Events from JSON lines (or one JSON array). Raises :class:`LogError` naming the line
    (or, in an array, the event) and what is wrong with it: not JSON, not an event, an
    event without its fields (:func:`~laizi.game.events.event_problems`), no event at all or
    a first one that starts no match or hand.

    ``loads`` reads one line (or the array); the command line passes its strict reader
    (``loads_strict``: nesting at most ``MAX_JSON_DEPTH``, as for ``laizi score``)."""
    stripped = text.lstrip()
    if not stripped:
        raise LogError("empty log")
    numbered: list[tuple[str, Any]] = []
    if stripped.startswith("["):  # one JSON array of events
        first = text[:len(text) - len(stripped)].count("\n") + 1
        data = _read(loads, text, f"line {first}")
        if not isinstance(data, list):
            raise LogError("a log is a JSON array of events or JSON lines")
        if not data:
            raise LogError(f"line {first}: an empty array, no event")
        numbered = [(f"event {n}", e) for n, e in enumerate(data, 1)]
    else:
        numbered = [(f"line {n}", _read(loads, line, f"line {n}"))
                    for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    for where, e in numbered:
        if not isinstance(e, dict) or not isinstance(e.get("type"), str):
            raise LogError(f"{where}: not an event (a JSON object with a 'type')")
        problems = event_problems(e)
        if problems:
            raise LogError(f"{where}: {e['type']} event: {', '.join(problems)}")
    where, e = numbered[0]
    if e["type"] not in ("start_match", "start_hand"):
        raise LogError(f"{where}: a log starts with start_match or start_hand, not {e['type']}")
    return [e for _, e in numbered]


def _read(loads: Callable[[str], Any], text: str, where: str) -> Any:
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{where}: bad JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise LogError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:  # the strict reader's refusals (nesting, numbers)
        raise LogError(f"{where}: {exc}") from None


def load_log(path: str, loads: Callable[[str], Any] = json.loads) -> list[Event]:
    """Read a log file (JSON lines) with :func:`parse_log`. Raises :class:`LogError` for
    unreadable files and bad logs."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise LogError(f"{path} is not UTF-8 text") from None
    return parse_log(text, loads)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dump_log(events: Iterable[Event]) -> str:
    """JSON lines, one event per line."""
    return "".join([_ENCODER.encode(e) + "\n" for e in events])


def split_logs(events: Sequence[Event]) -> list[list[Event]]:
    """Split a file holding several logs (matches or stand-alone hands) into logs."""
    out: list[list[Event]] = []
    for e in events:
        t = e["type"]
        if t == "start_match" or (t == "start_hand" and "rules" in e) or not out:
            out.append([])
        out[-1].append(e)
    return out


def _rules(data: Any) -> RuleSet:
    if not isinstance(data, dict):
        raise LogError("start event without rules")
    try:
        return RuleSet.from_dict(data)
    except RuleError as exc:
        raise LogError(f"bad rules in the log: {exc}") from None


def _deal(events: Sequence[Event]) -> dict[int, tuple[bytes | None, tuple[int, ...] | None]]:
    """hand number -> (seed, wall) from ``secret`` events (else ``end_hand`` reveals)."""
    out: dict[int, tuple[bytes | None, tuple[int, ...] | None]] = {}
    for e in events:
        if e["type"] in ("secret", "end_hand") and "hand" in e:
            hand = int(e["hand"])
            if hand in out:
                continue
            try:
                seed = bytes.fromhex(e["seed"]) if e.get("seed") else None
                wall = wall_from_str(e["wall"]) if e.get("wall") else None
            except (ValueError, TypeError) as exc:
                raise LogError(f"hand {hand}: bad seed or wall: {exc}") from None
            if seed is None and wall is None:
                continue
            out[hand] = (seed, wall)
    return out


def _action(e: Event) -> Action:
    t = e["type"]
    if t == "response":
        return Action.from_json(e.get("action"))
    if t == "tsumo":
        return TSUMO
    if t == "replace":
        return DRAW if e["draw"] is True else NODRAW
    return Action(t, tile_from_str(e["tile"]))


BeforeAction = Callable[[Match | HandState, int, int, Action], None]


def replay(events: Sequence[Event], *, before_action: BeforeAction | None = None) -> Match | HandState:
    """Rebuild the match (log starting with ``start_match``) or stand-alone hand.

    ``before_action(engine, index, seat, action)`` is called before each recorded
    decision is applied (``index``: the event's position in ``events``), with the
    engine as it stood when the seat chose — for a look back at each decision
    (:mod:`laizi.review`), through :mod:`laizi.views` only.

    Raises :class:`ReplayError` naming the first event that differs from what the
    engine produces, :class:`LogError` for an unusable log.
    """
    if not events:
        raise LogError("empty log")
    first = events[0]
    deals = _deal(events)
    engine: Match | HandState
    try:
        if first["type"] == "start_match":
            def source(n: int) -> tuple[bytes | None, Sequence[int] | None]:
                if n not in deals:
                    raise LogError(f"hand {n}: no seed or wall in the log")
                return deals[n]

            engine = Match(
                _rules(first.get("rules")), first_dealer=int(first.get("first_dealer", 0)),
                max_hands=first.get("max_hands"), auto_next=bool(first.get("auto_next", True)),
                deal_source=source, fixed_dealers=bool(first.get("fixed_dealers", False)),
                seating=first.get("seating"),
            )
        elif first["type"] == "start_hand" and "rules" in first:
            hand_no = int(first.get("hand", 1))
            if hand_no not in deals:
                raise LogError(f"hand {hand_no}: no seed or wall in the log")
            seed, wall = deals[hand_no]
            engine = HandState.new(
                _rules(first["rules"]), int(first["dealer"]), seed=seed, wall=wall, hand_no=hand_no,
            )
        else:
            raise LogError("a log starts with start_match or a start_hand carrying the rules")
    except (KeyError, TypeError, GameError) as exc:
        raise LogError(f"bad start event: {exc}") from None
    log = engine.log
    i = 0
    n = len(events)
    while i < n:
        e = events[i]
        if i < len(log):
            if log[i] != e and not _same_start(log[i], e):
                raise ReplayError(e.get("v"), _diff(log[i], e))
            i += 1
            continue
        t = e["type"]
        if before_action is not None and t in ACTION_EVENTS:
            try:
                seat, action = int(e["seat"]), _action(e)
            except (GameError, KeyError, TypeError, ValueError) as exc:
                raise ReplayError(e.get("v"), f"cannot apply {t!r}: {exc}") from None
            before_action(engine, i, seat, action)
        try:
            if t in ACTION_EVENTS:
                engine.apply(int(e["seat"]), _action(e))
            elif isinstance(engine, Match) and t == "escape":
                engine.escape(int(e["seat"]))
            elif isinstance(engine, Match) and t == "auto":
                engine.set_auto(int(e["seat"]), bool(e["on"]))
            elif isinstance(engine, Match) and t == "start_hand":
                engine.start_next_hand()
            elif isinstance(engine, Match) and e.get("reason") == "dissolved" and t in (
                    "ryukyoku", "end_match"):
                engine.dissolve()  # 解散: mid-hand (the hand's draw first) or between hands
            else:
                raise ReplayError(e.get("v"), f"the engine did not produce this {t!r} event")
        except ReplayError:
            raise
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise ReplayError(e.get("v"), f"cannot apply {t!r}: {exc}") from None
        if len(log) <= i:  # pragma: no cover - every action emits an event
            raise ReplayError(e.get("v"), f"{t!r} produced no event")
    if len(log) > n:
        raise ReplayError(log[n].get("v"), f"the log stops before the engine's {log[n]['type']!r} event")
    return engine


def replay_all(events: Sequence[Event]) -> list[Match | HandState]:
    """Replay every log of a file (see :func:`split_logs`)."""
    return [replay(part) for part in split_logs(events)]


def _same_start(engine: Event, recorded: Event) -> bool:
    """A start event equals the engine's when only the spelling of its rules differs: a log
    written before an option existed (or while ``seating_ceremony`` and ``rounds_per_wind``
    were out of the RuleSet) lacks it, and its rules load with the option's default."""
    rules = recorded.get("rules")
    if not isinstance(rules, dict) or set(engine) != set(recorded):
        return False
    if any(engine[k] != recorded[k] for k in engine if k != "rules"):
        return False
    try:
        return RuleSet.from_dict(rules) == RuleSet.from_dict(engine["rules"])
    except RuleError:
        return False


def _diff(expected: Event, got: Event) -> str:
    keys = sorted(set(expected) | set(got))
    for k in keys:
        if expected.get(k) != got.get(k):
            return (f"{got.get('type')!r} event differs from the engine's at {k!r}: "
                    f"log has {got.get(k)!r}, engine {expected.get(k)!r}")
    return "events differ"  # pragma: no cover
