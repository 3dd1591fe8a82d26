"""The library API: action text round-trip, pasteable reprs, specific errors, the
event kinds and their fields, string enums."""

from __future__ import annotations

import random

import pytest

import laizi.errors as errors_mod
import laizi.game as game_mod
from laizi.game import (
    ACTION_TYPES,
    EVENT_SCHEMAS,
    EVENT_TYPES,
    PASS,
    TSUMO,
    Action,
    ActionError,
    ActionParseError,
    EndReason,
    HandState,
    IllegalActionError,
    Match,
    Phase,
    WinCheck,
)
from laizi.game.actions import ACT
from laizi.game.events import event_problems, project
from laizi.game.play import auto_action, play_match
from laizi.rules import RuleSet
from laizi.sim import simulate
from support.policies import greedy_policy, random_policy

ALL_ACTIONS = [PASS, TSUMO] + [a for acts in ACT.values() for a in acts]


# --------------------------------------------------------------------- actions
def test_every_action_round_trips_through_text_and_repr() -> None:
    assert len(ALL_ACTIONS) == 2 + 9 * 34
    for a in ALL_ACTIONS:
        assert Action.parse(str(a)) == a
        assert eval(repr(a), {"Action": Action}) == a  # noqa: S307 - the repr is code
        assert Action.from_json(a.to_json()) == a


@pytest.mark.parametrize(("text", "expected"), [
    ("discard 5m", Action("discard", 4)),
    ("  DISCARD   5m ", Action("discard", 4)),
    ("peng 中", Action("peng", 33)),
    ("kong 7z", Action("kong", 33)),
    ("chi 345m", Action("chi", 2)),
    ("chi 543m", Action("chi", 2)),
    ("chi 3m", Action("chi", 2)),
    ("chi 789s", Action("chi", 24)),
    ("ron 1p", Action("ron", 9)),
    ("tsumo", TSUMO),
    ("pass", PASS),
])
def test_parse(text: str, expected: Action) -> None:
    assert Action.parse(text) == expected


def test_chi_text_names_the_run() -> None:
    assert str(Action("chi", 2)) == "chi 345m"
    assert repr(Action("discard", 33)) == "Action.parse('discard 7z')"


@pytest.mark.parametrize("text", [
    "", "   ", "foo 5m", "discard", "discard 5m 6m", "discard 5m6m", "pass 5m", "tsumo 1m",
    "discard 0m", "discard 8z", "chi 357m", "chi 123z", "chi 89m1p", "chi 12m", "peng x",
])
def test_parse_errors(text: str) -> None:
    with pytest.raises(ActionParseError) as info:
        Action.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize("data", [
    None, 3, "discard 5m", {}, {"type": 5}, {"type": "fly"}, {"type": "discard"},
    {"type": "discard", "tile": "9z"}, {"type": "discard", "tile": 40},
    {"type": "discard", "tile": True}, {"type": "pass", "tile": "1m"}, {"type": "peng", "tile": [1]},
])
def test_from_json_errors(data: object) -> None:
    with pytest.raises(ActionParseError):
        Action.from_json(data)


def test_bad_action_values() -> None:
    for args in (("fly",), ("discard",), ("discard", 34), ("discard", -1), ("pass", 1),
                 ("discard", True), ("discard", 1.0)):
        with pytest.raises(ActionError):
            Action(*args)  # type: ignore[arg-type]


# --------------------------------------------------------------------- errors
def test_errors_are_value_errors_exported_twice() -> None:
    names = ["ActionError", "ActionParseError", "GameError", "IllegalActionError", "LogError",
             "MatchOverError", "ReplayError", "WallError"]
    for name in names:
        cls = getattr(errors_mod, name)
        assert getattr(game_mod, name) is cls
        assert issubclass(cls, errors_mod.LaiziError) and issubclass(cls, ValueError)
    for name in errors_mod.__all__:
        assert issubclass(getattr(errors_mod, name), ValueError)


def test_illegal_action_names_seat_and_options() -> None:
    st = HandState.new(RuleSet.preset("kaikoufan"), 0, seed=b"a" * 32)
    with pytest.raises(IllegalActionError) as info:
        st.apply(1, Action.parse("discard 1m"))
    assert info.value.seat == 1 and "not this seat's decision" in str(info.value)
    with pytest.raises(IllegalActionError, match="legal:"):
        st.apply(0, Action.parse("peng 1m"))


# --------------------------------------------------------------------- enums, win check
def test_phase_and_end_reason_are_string_enums() -> None:
    st = HandState.new(RuleSet.preset("kaikoufan"), 0, seed=b"b" * 32)
    assert st.phase is Phase.TURN and st.phase == "turn"
    assert {p.value for p in Phase} == {"turn", "claim", "rob", "haidi", "replace", "over"}
    assert st.to_dict()["phase"] == "turn" and type(st.to_dict()["phase"]) is str
    check = st.tsumo_check()
    assert isinstance(check, WinCheck) and check.ok == (TSUMO in st.legal_actions(0))
    m = Match(RuleSet.preset("kaikoufan"), seed=b"c" * 32, max_hands=2)
    play_match(m, lambda h, s, legal: auto_action(h, s))
    assert m.end_reason is EndReason.MAX_HANDS
    assert m.log[-1]["reason"] == "max_hands" and type(m.log[-1]["reason"]) is str


# --------------------------------------------------------------------- events
def test_event_kinds_listed() -> None:
    assert len(EVENT_TYPES) == 23 and set(EVENT_SCHEMAS) == set(EVENT_TYPES)
    assert event_problems({"type": "teleport"}) == ["unknown event type 'teleport'"]
    assert event_problems({"type": "tsumo", "v": 1, "vis": "public"}) == ["missing 'seat'"]
    assert event_problems({"type": "tsumo", "v": 1, "vis": "public", "seat": 0, "x": 1}) == [
        "unexpected 'x'"]


def _check_log(log: list[dict[str, object]], seen: set[str]) -> None:
    for e in log:
        assert event_problems(e) == [], (e, event_problems(e))
        seen.add(str(e["type"]))
        for seat in (None, 0, 1, 2, 3):
            p = project(e, seat)
            if p is not None:
                assert event_problems(p) == [], p


def test_every_event_matches_its_schema() -> None:
    seen: set[str] = set()
    rng = random.Random(7)
    for preset in ("kaikoufan", "qipisilai", "jiayu"):
        # kong_draw_choice on one preset: the replace event (补 or 不补 after a kong)
        m = Match(RuleSet.preset(preset, rounds=2, kong_draw_choice=preset == "qipisilai"),
                  seed=rng.randbytes(32), max_hands=12)
        m.set_auto(1)
        m.escape(3)
        play_match(m, random_policy(rng, claim=0.6, kong=0.9))
        _check_log(m.log, seen)
    lines: list[str] = []
    simulate(60, preset="kaikoufan", bots=["greedy", "random", "random", "greedy"], seed=3,
             log_lines=lines)
    import json
    _check_log([json.loads(x) for x in lines], seen)
    assert seen == set(EVENT_TYPES), set(EVENT_TYPES) - seen


def test_action_types_table() -> None:
    assert ACTION_TYPES == ("discard", "tsumo", "ankong", "addkong", "special_kong",
                            "laizi_kong", "ron", "kong", "peng", "chi", "pass", "draw", "nodraw")


# --------------------------------------------------------------------- older logs
NEW_OPTIONS = ("seating_ceremony", "rounds_per_wind", "winds", "kuangfeng_baoyu", "xiaoyu_258",
               "qianggang_fixed", "fengyise_golden", "pay_min_fan", "haidi_start", "haidi_kongs",
               "kong_draw_choice")


def _rewrite_rules(log: list[dict[str, object]], drop: tuple[str, ...] = (),
                   **extra: object) -> list[dict[str, object]]:
    out = []
    for e in log:
        e = dict(e)
        if isinstance(e.get("rules"), dict):
            rules = {k: v for k, v in e["rules"].items() if k not in drop}  # type: ignore[attr-defined]
            e["rules"] = {**rules, **extra}
        out.append(e)
    return out


def test_logs_written_before_an_option_existed_still_replay() -> None:
    from laizi.game import LogError, ReplayError
    from laizi.game.replay import replay

    m = Match(RuleSet.preset("kaikoufan"), seed=b"d" * 32, max_hands=2)
    play_match(m, lambda h, s, legal: auto_action(h, s))
    assert set(NEW_OPTIONS) <= m.log[0]["rules"].keys()
    # a log from before these options: its rules load with their defaults
    old = _rewrite_rules(m.log, drop=NEW_OPTIONS)
    assert not set(NEW_OPTIONS) & old[0]["rules"].keys()  # type: ignore[attr-defined]
    again = replay(old)
    assert isinstance(again, Match) and again.hash() == m.hash()
    st = HandState.new(RuleSet.preset("jiayu"), 1, seed=b"e" * 32)
    assert replay(_rewrite_rules(st.log, drop=NEW_OPTIONS)).hash() == st.hash()
    # a log that says another value of an option is another game (here it ends sooner:
    # the engine, dealt the same walls, starts the haidi 4 tiles later)
    with pytest.raises(ReplayError):
        replay(_rewrite_rules(m.log, haidi_start="five_stacks"))
    with pytest.raises(LogError, match="rounds_per_wind"):
        replay(_rewrite_rules(m.log, rounds_per_wind=6))


# --------------------------------------------------------------------- win checks
def test_win_checks_say_what_they_found() -> None:
    from laizi.game.play import play_hand
    from laizi.scoring import REASONS

    rng = random.Random(11)
    found = {"ok": 0, "refused": 0, "shape_only": 0}
    inner = greedy_policy(rng, claim=0.5)

    def policy(st: HandState, seat: int, legal: list[Action]) -> Action:
        if st.phase == "turn" and st.last_draw is not None and not st.after_claim:
            check = st.tsumo_check()
            fresh = st.checker.check(st, seat, st.last_draw, "self_draw", None,
                                     after_kong=st.after_kong, in_hand=True)
            assert fresh == check
            assert check.ok == (TSUMO in legal)
            if check.ok:
                assert check.result is not None and check.result.ok and check.refused is None
                found["ok"] += 1
            elif check.refused is not None:
                assert not check.refused.ok and check.refused.reason in REASONS
                found["refused"] += 1
            elif check.shape:
                found["shape_only"] += 1
        for o in range(4):  # a win on the tile under claim is offered exactly when checked ok
            if st.phase == "claim" and o != st.turn and st.pending is not None:
                got = st.checker.check(st, o, st.pending, "discard", st.turn)
                offered = any(a.type == "ron" for a in st.options.get(o, ()))
                assert offered == got.ok or (st.rules.guoshou and got.ok)
        return inner(st, seat, legal)

    for i in range(120):
        preset = ("kaikoufan", "jiayu", "qipisilai")[i % 3]
        st = HandState.new(RuleSet.preset(preset), i % 4, seed=rng.randbytes(32))
        play_hand(st, policy)
    assert found["ok"] > 5 and found["shape_only"] > 0, found


def test_other_integer_types_become_int() -> None:
    np = pytest.importorskip("numpy")
    a = Action("peng", np.int64(33))
    assert type(a.tile) is int and a == Action.parse("peng 7z") and hash(a) == hash(Action("peng", 33))


# --------------------------------------------------------------------- duplicate rounds
def test_fixed_dealers_deal_hand_n_from_seat_n_minus_1_and_replay_exactly() -> None:
    """A duplicate round's match (``fixed_dealers``): hand n is dealt by seat n-1 whoever won
    before — no 连庄 — so every table deals each wall with the same dealer; its log says so
    and replays to the same events. Without it the dealer follows the Wuhan rule."""
    from laizi.game.replay import replay

    rng = random.Random(11)
    seen_keep = False
    for seed in (rng.randbytes(32) for _ in range(6)):
        # the deal passes every hand: a round (圈) is four hands
        m = Match(RuleSet.preset("kaikoufan", rounds=2), seed=seed, max_hands=6, fixed_dealers=True)
        play_match(m, random_policy(rng, claim=0.5, kong=0.9))
        dealers = [e["dealer"] for e in m.log if e["type"] == "start_hand"]
        assert dealers == [n % 4 for n in range(len(dealers))] and len(dealers) == 6
        assert m.log[0]["fixed_dealers"] is True
        assert replay(m.log).log == m.log
        free = Match(RuleSet.preset("kaikoufan", rounds=2), seed=seed, max_hands=6)
        play_match(free, random_policy(random.Random(1), claim=0.5, kong=0.9))
        assert "fixed_dealers" not in free.log[0]  # other logs are as they were
        ends = [e for e in free.log if e["type"] == "scores"]
        seen_keep = seen_keep or any(e["next_dealer"] == h["dealer"] for e, h in zip(
            ends, free.history, strict=False))
    assert seen_keep  # the Wuhan rule kept a dealer (连庄) somewhere: the two differ
