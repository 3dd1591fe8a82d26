"""复盘 (laizi.review, ``laizi review``): calibrated on simulated play, seat view only."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pytest

from laizi.cli import main
from laizi.game import Event, HandState
from laizi.game.events import ACTION_EVENTS
from laizi.game.replay import _action, dump_log, parse_log, replay, split_logs
from laizi.game.wall import HAND_SIZES_OFFSET, LIVE_START, wall_from_str
from laizi.review import COSTLIEST, review_events
from laizi.rules import RuleSet
from laizi.sim import simulate
from laizi.tiles import parse_tiles

BOTS = ("random", "greedy", "strong", "expert")
TILE_CODE = re.compile(r"\b[1-9][mps]\b|\b[1-7]z\b")


@cache
def _log(shift: int, hands: int = 12, seed: str = "review") -> tuple[Event, ...]:
    lines: list[str] = []
    names = [BOTS[(s + shift) % 4] for s in range(4)]
    simulate(hands, bots=names, seed=f"{seed}-{shift}", log_lines=lines, count_refusals=False)
    return tuple(parse_log("\n".join(lines)))


def _pooled(shifts: Sequence[int]) -> dict[str, tuple[float, int]]:
    loss = dict.fromkeys(BOTS, 0.0)
    n = dict.fromkeys(BOTS, 0)
    for shift in shifts:
        for g in review_events(_log(shift)):
            for s, r in g.seats.items():
                name = BOTS[(s + shift) % 4]
                loss[name] += r.total_loss
                n[name] += len(r.rated)
    return {b: (loss[b] / n[b], n[b]) for b in BOTS}


def test_the_review_orders_random_greedy_strong_expert() -> None:
    # every bot at every seat, 48 hands (benchmarks/bench_review.py: the same on 192)
    pooled = _pooled([0, 1, 2, 3])
    means = [pooled[b][0] for b in BOTS]
    assert all(pooled[b][1] >= 200 for b in BOTS), pooled
    assert means[0] > means[1] > means[2] > means[3], pooled
    assert means[0] > 3 * means[1]  # random is far off
    assert means[3] < 0.05  # expert reviewing its own play


def test_expert_reviewing_itself_finds_near_zero_loss() -> None:
    games = review_events(_log(1))
    seat = next(s for s in range(4) if BOTS[(s + 1) % 4] == "expert")
    decisions = [d for g in games for d in g.seats[seat].decisions]
    assert len(decisions) > 30
    assert sum(d.loss or 0.0 for d in decisions) / len(decisions) < 0.05
    assert sum(d.agrees for d in decisions) / len(decisions) > 0.95


def test_costliest_decisions_have_a_sentence_in_both_languages() -> None:
    games = review_events(_log(0))
    random_seat = 0
    for g in games:
        r = g.seats[random_seat]
        worst = r.costliest()
        assert len(worst) <= COSTLIEST
        losses = sorted((d.loss or 0.0 for d in r.rated), reverse=True)
        if worst:
            assert max(d.loss or 0.0 for d in worst) == losses[0]
        for d in worst:
            assert d.why is not None and d.why["zh"] and d.why["en"]
            assert "专家" in d.why["zh"] and "expert" in d.why["en"]
            # tiles by name, never by code (docs/design: the words a player reads)
            assert not TILE_CODE.search(d.why["en"]) and not TILE_CODE.search(d.why["zh"]), d.why
        data = g.to_json()
        json.dumps(data, ensure_ascii=False)
        assert 0 <= data["seats"][0]["accuracy"] <= 100


# ------------------------------------------------------------------ seat view only
def _first_hand_log() -> list[Event]:
    return [dict(e) for e in split_logs(list(_log(0)))[0]]


def _rebuild(events: Sequence[Event], wall: Sequence[int]) -> list[Event] | None:
    """The same decisions played on another wall; None when they no longer fit."""
    start = events[0]
    st = HandState.new(RuleSet.from_dict(start["rules"]), int(start["dealer"]), wall=wall,
                       hand_no=int(start.get("hand", 1)))
    try:
        for e in events:
            if e["type"] in ACTION_EVENTS:
                st.apply(int(e["seat"]), _action(e))
    except ValueError:
        return None
    return list(st.log) if st.over else None


def _dealt_positions(seat: int, dealer: int) -> range:
    rel = (seat - dealer) % 4
    start = HAND_SIZES_OFFSET[rel]
    return range(start, start + (14 if rel == 0 else 13))


def _hidden_variants(events: list[Event], me: int) -> tuple[list[Event], list[Event]]:
    """Two variants of a hand log that differ only in tiles ``me`` never sees: (1) two
    undrawn wall tiles swapped, (2) two tiles swapped between other seats' concealed hands
    (tiles they still hold at the end)."""
    secret = next(e for e in events if e["type"] == "secret")
    end = next(e for e in events if e["type"] == "end_hand")
    wall = list(wall_from_str(secret["wall"]))
    dealer = int(events[0]["dealer"])
    front = sum(1 for e in events if e["type"] == "draw" and e.get("src") != "back")
    back = sum(1 for e in events if e["type"] == "draw" and e.get("src") == "back")
    undrawn = list(range(LIVE_START + front, 136 - back))
    a, b = next((i, j) for i in undrawn for j in undrawn if i < j and wall[i] != wall[j])
    w1 = list(wall)
    w1[a], w1[b] = w1[b], w1[a]
    v1 = _rebuild(events, w1)
    assert v1 is not None
    winner = next((e["seat"] for e in events if e["type"] == "win"), None)
    others = [s for s in range(4) if s != me and s != winner]
    finals = {s: [t.index for t in parse_tiles(end["hands"][s])] for s in others}
    for x in others:
        for y in others:
            if x >= y:
                continue
            for i in _dealt_positions(x, dealer):
                for j in _dealt_positions(y, dealer):
                    if wall[i] == wall[j] or wall[i] not in finals[x] or wall[j] not in finals[y]:
                        continue
                    w2 = list(wall)
                    w2[i], w2[j] = w2[j], w2[i]
                    v2 = _rebuild(events, w2)
                    if v2 is not None:
                        return v1, v2
    raise AssertionError("no swap of other seats' tiles replays the same decisions")


def test_hidden_tiles_change_nothing_in_a_seats_review() -> None:
    events = _first_hand_log()
    me = 0
    base = review_events(events, seats=[me])[0].to_json()
    assert base["seats"][0]["decisions"] > 3
    v1, v2 = _hidden_variants(events, me)
    for variant in (v1, v2):
        assert variant != events
        replay(variant)  # a real log: it replays
        assert review_events(variant, seats=[me])[0].to_json() == base
    # the swap really changed another seat's hand (and so, for that seat, its review input)
    hands = [next(e for e in log if e["type"] == "end_hand")["hands"] for log in (events, v2)]
    assert hands[0][me] == hands[1][me] and hands[0] != hands[1]


# ---------------------------------------------------------------------------- CLI
def test_cli_pools_a_file_of_hands_in_the_bots_order(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hands.jsonl"
    log.write_text(dump_log(_log(0)), encoding="utf-8")  # random, greedy, strong, expert at 0-3
    assert main(["review", str(log), "--json", "--no-progress"]) == 0
    total = json.loads(capsys.readouterr().out)["all_games"]
    assert len(total) == 4 and all(t["decisions"] > 50 for t in total)
    assert total[0]["mean_loss"] > total[1]["mean_loss"] and total[3]["mean_loss"] < 0.05
    assert main(["review", str(log), "--no-progress"]) == 0
    assert "# all 12 games" in capsys.readouterr().out


def test_cli_review_text_json_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "hands.jsonl"
    log.write_text(dump_log(split_logs(list(_log(0)))[0]), encoding="utf-8")
    assert main(["review", str(log), "--seat", "0", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "seat 0:" in out and "accuracy" in out and "expert would" in out
    assert main(["review", str(log), "--json", "--lang", "zh"]) == 0
    data = json.loads(capsys.readouterr().out)
    seats = data["games"][0]["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert all("all" in s and "costliest" in s for s in seats)
    assert [s["seat"] for s in data["all_games"]] == [0, 1, 2, 3]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "start_hand"\n', encoding="utf-8")
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "laizi review: error:" in err and "Traceback" not in err
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(log.read_text(encoding="utf-8").splitlines(True)[:5]), encoding="utf-8")
    assert main(["review", str(cut)]) == 2
    assert "laizi review: error:" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_decisions_taken_by_auto_play_are_not_rated() -> None:
    from laizi.bots import make_bot
    from laizi.game import Match
    from laizi.views import seat_view

    m = Match(RuleSet.preset("kaikoufan"), seed=b"auto", max_hands=1)
    bots = [make_bot("random", s) for s in range(4)]
    mine = 0
    while not m.over:
        seat = m.to_act()[0]
        v = seat_view(m.hand, seat)
        if seat == 1 and len(v.legal) > 1:
            mine += 1
            if mine == 5:
                m.set_auto(1, True)  # 托管 from the fifth choice on
        m.apply(seat, bots[seat].act(v) if len(v.legal) > 1 else v.legal[0])
    g = review_events(list(m.log))[0]
    assert g.kind == "match"
    assert len(g.seats[1].decisions) == 4 and g.seats[1].auto_played == mine - 4 > 0
    assert all(g.seats[s].auto_played == 0 and len(g.seats[s].decisions) > 10 for s in (0, 2, 3))
    assert g.seats[1].to_json()["auto_played"] == mine - 4


def test_actions_in_words_name_tiles_as_the_table_does() -> None:
    from laizi.game.actions import Action
    from laizi.review import action_words

    def words(j: dict[str, str]) -> dict[str, str]:
        return action_words(Action.from_json(j))

    assert words({"type": "discard", "tile": "5m"}) == {"zh": "打 五万", "en": "discard 5 Characters"}
    assert words({"type": "discard", "tile": "1p"})["en"] == "discard 1 Dot"
    assert words({"type": "chi", "tile": "3s"}) == {"zh": "吃 三四五条", "en": "chow 3-4-5 Bamboo"}
    assert words({"type": "peng", "tile": "7z"}) == {"zh": "碰 红中", "en": "pung Red Dragon"}
    assert words({"type": "discard", "tile": "1z"}) == {"zh": "打 东", "en": "discard East"}
    assert words({"type": "tsumo"}) == {"zh": "自摸", "en": "self-draw"}
    # the table's words (TABLE.md "Words"): 胡 and 赖子杠, a special tile 杠出 / laid aside
    assert words({"type": "ron", "tile": "5s"}) == {"zh": "胡 五条", "en": "win 5 Bamboo"}
    assert words({"type": "laizi_kong", "tile": "6m"}) == {"zh": "赖子杠 六万", "en": "laizi kong 6 Characters"}
    assert words({"type": "special_kong", "tile": "7z"}) == {"zh": "杠出 红中", "en": "lay aside Red Dragon"}


def test_review_md_shows_what_the_command_prints(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """docs/review.md's quoted output — the four hands' summary and the sentences it quotes —
    is what its own commands print today, word for word (it said 加一番 for a discarded laizi
    after the code took +2 from the scorer)."""
    import shlex

    doc = (Path(__file__).resolve().parents[1] / "docs" / "review.md").read_text(encoding="utf-8")
    command = next(line for line in doc.splitlines() if line.startswith("laizi sim "))
    argv = shlex.split(command)[1:]
    log = tmp_path / "hands.jsonl"
    argv[argv.index("--log") + 1] = str(log)
    assert main([*argv, "--no-progress"]) == 0
    capsys.readouterr()
    printed = ""
    for lang in ("en", "zh"):
        assert main(["review", str(log), "--lang", lang, "--no-progress"]) == 0
        printed += capsys.readouterr().out
    shown = printed.splitlines()
    summary = doc.split("```\n# all 4 games\n", 1)[1].split("```", 1)[0].splitlines()
    assert summary and all(ln in shown for ln in summary), summary
    quoted = [ln[2:] for ln in doc.splitlines() if ln.startswith("> ")]
    assert len(quoted) >= 2
    sentences = {ln.split("] ", 1)[1] for ln in shown if ln.startswith("    - [")}
    for q in quoted:
        assert q in sentences, f"docs/review.md quotes a sentence the review does not print: {q}"
    assert any("（算作杠，加" in q for q in quoted)  # the laizi discard's fan, as the scorer counts it
