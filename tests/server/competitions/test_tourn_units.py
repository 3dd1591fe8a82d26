"""Tournaments without a server: Swiss seating (hypothesis, against a brute force), standings
and their tie-breaks, duplicate points, commitments and their checks, settings limits."""

from __future__ import annotations

import itertools
import secrets

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.game.wall import commitment, derive_wall, hand_seed
from laizi.server.competitions.tournaments.duplicate import (
    dup_points,
    hand_commitments,
    verify_round,
    verify_table,
)
from laizi.server.competitions.tournaments.settings import SettingsError, parse_settings
from laizi.server.competitions.tournaments.standings import rank
from laizi.server.competitions.tournaments.swiss import random_tables, repeated, swiss_tables


def partitions(items: tuple[int, ...]) -> list[list[frozenset[int]]]:
    """Every way to cut ``items`` into tables of four (brute force, small fields only)."""
    if not items:
        return [[]]
    lead, rest = items[0], items[1:]
    out = []
    for picks in itertools.combinations(rest, 3):
        left = tuple(x for x in rest if x not in picks)
        for tail in partitions(left):
            out.append([frozenset((lead, *picks)), *tail])
    return out


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from([4, 8, 12]), data=st.data())
def test_swiss_avoids_a_repeated_four_whenever_possible(n: int, data: st.DataObject) -> None:
    players = list(range(n))
    all_tables = [frozenset(c) for c in itertools.combinations(players, 4)]
    met = set(data.draw(st.lists(st.sampled_from(all_tables), max_size=12)))
    order = data.draw(st.permutations(players))
    tables = swiss_tables(order, met)
    assert sorted(x for t in tables for x in t) == players  # everyone seated once
    assert all(len(t) == 4 for t in tables)
    possible = any(not any(g in met for g in p) for p in partitions(tuple(players)))
    fresh = not any(frozenset(t) in met for t in tables)
    assert fresh == possible
    # the leader plays at the first table; each table lists its entrants in standing order
    assert tables[0][0] == order[0]
    assert all(list(t) == sorted(t, key=order.index) for t in tables)


def test_swiss_lets_leaders_meet_and_rounds_never_repeat() -> None:
    order = list(range(16))
    first = swiss_tables(order, [])
    assert first == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    second = swiss_tables(order, [frozenset(t) for t in first])
    assert second[0] == [0, 1, 2, 4]  # the closest four that is new
    rounds = [first, second]
    met = [frozenset(t) for r in rounds for t in r]
    rounds.append(swiss_tables(order, met))
    assert repeated(rounds) == 0
    # four entrants: a repeat cannot be avoided, the table is the standing order
    assert swiss_tables([3, 1, 2, 0], [frozenset({0, 1, 2, 3})]) == [[3, 1, 2, 0]]
    # eight entrants who met in every way but one: the fresh table is still taken
    eight = list(range(8))
    every = [frozenset(c) for c in itertools.combinations(eight, 4)]
    keep = frozenset({0, 2, 5, 7})
    met8 = [g for g in every if g != keep]
    tables = swiss_tables(eight, met8)
    assert frozenset(tables[0]) == keep and sorted(x for t in tables for x in t) == eight
    # out of search steps: the greedy seating still avoids what it can
    assert swiss_tables(eight, [frozenset({0, 1, 2, 3})], budget=1)[0] == [0, 1, 2, 4]


def test_random_round_one() -> None:
    tables = random_tables(list(range(16)), secrets.SystemRandom())
    assert sorted(x for t in tables for x in t) == list(range(16))
    with pytest.raises(ValueError):
        random_tables([1, 2, 3])


def _e(i: int) -> dict[str, object]:
    return {"id": i, "number": i, "nickname": f"p{i}", "player_id": f"p{i}", "bot": None}


def test_standings_points_then_best_hand_then_head_to_head() -> None:
    ents = [_e(i) for i in range(1, 5)]
    res = [
        {"round": 1, "table": 1, "entrant_id": 1, "score": 10, "best_hand": 8},
        {"round": 1, "table": 1, "entrant_id": 2, "score": 10, "best_hand": 12},
        {"round": 1, "table": 1, "entrant_id": 3, "score": -10, "best_hand": 4},
        {"round": 1, "table": 1, "entrant_id": 4, "score": -10, "best_hand": 4},
        {"round": 2, "table": 1, "entrant_id": 3, "score": 5, "best_hand": 0},
        {"round": 2, "table": 1, "entrant_id": 4, "score": -5, "best_hand": 0},
        {"round": 2, "table": 1, "entrant_id": 1, "score": 0, "best_hand": 0},
        {"round": 2, "table": 1, "entrant_id": 2, "score": 0, "best_hand": 0},
    ]
    table = rank(ents, res)
    assert [r["entrant_id"] for r in table] == [2, 1, 3, 4]  # 2 beats 1 on best hand
    assert [r["points"] for r in table] == [10, 10, -5, -15]
    assert table[0]["rounds"] == [10, 0]
    # 3 and 4 tied on points and best hand: head-to-head decides (3 beat 4 in round 2,
    # 4 and 3 tied in round 1)
    res2 = [dict(r) for r in res]
    res2[5]["score"] = 5  # now both +5: 3 and 4 tie on points and best hand
    res2[4]["score"] = -5
    res2[2]["score"] = -10
    res2[3]["score"] = -10
    res2[2]["best_hand"] = res2[3]["best_hand"] = 4
    res2.append({"round": 3, "table": 1, "entrant_id": 4, "score": 1, "best_hand": 0})
    res2.append({"round": 3, "table": 1, "entrant_id": 3, "score": -1, "best_hand": 0})
    t2 = rank(ents, res2)
    three, four = next(r for r in t2 if r["entrant_id"] == 3), next(r for r in t2 if r["entrant_id"] == 4)
    assert three["points"] == -16 and four["points"] == -4  # not tied any more: points decide
    # an exact tie on points and best hand: head-to-head
    res3 = [{"round": 1, "table": 1, "entrant_id": 1, "score": 5, "best_hand": 5},
            {"round": 1, "table": 1, "entrant_id": 2, "score": -5, "best_hand": 5},
            {"round": 2, "table": 2, "entrant_id": 2, "score": 10, "best_hand": 5},
            {"round": 2, "table": 3, "entrant_id": 1, "score": 0, "best_hand": 5}]
    t3 = rank(ents[:2], res3)
    assert [r["entrant_id"] for r in t3] == [1, 2] and t3[0]["h2h"] == 1 and t3[1]["h2h"] == -1


def test_duplicate_points_compare_the_same_tiles() -> None:
    # two tables, one deal; the dealer is seat 0 at both. Table A's dealer won 6 (others -2),
    # table B's dealer lost 6 to its 下家.
    a = {"entrants": [1, 2, 3, 4], "scores": [6, -2, -2, -2],
         "hands": [{"hand": 1, "dealer": 0, "deltas": [6, -2, -2, -2]}]}
    b = {"entrants": [5, 6, 7, 8], "scores": [-6, 6, 0, 0],
         "hands": [{"hand": 1, "dealer": 0, "deltas": [-6, 6, 0, 0]}]}
    d = dup_points([a, b])
    assert d[1] == 6 and d[5] == -6 and d[2] == -4 and d[6] == 4
    assert abs(sum(d.values())) < 1e-9
    # a different dealer: position is relative to the dealer
    c = {"entrants": [9, 10, 11, 12], "scores": [0, 6, -2, -4],
         "hands": [{"hand": 1, "dealer": 1, "deltas": [-4, 6, -2, 0]}]}
    d2 = dup_points([a, c])
    assert d2[10] == 0  # held the dealer's tiles at table C and did as well as table A's dealer


def test_commitments_and_checks() -> None:
    seed = secrets.token_bytes(32)
    coms = hand_commitments(seed, 3)
    hs = hand_seed(seed, 2)
    assert coms[1] == commitment(hs, derive_wall(hs))
    played = [{"number": n, "commitment": coms[n - 1], "seed": hand_seed(seed, n).hex()} for n in (1, 2)]
    assert verify_table(coms, played, seed.hex()) == []
    assert verify_table(coms, played, None) == []
    bad = [dict(played[0]), {**played[1], "commitment": "00" * 32}]
    assert "hand 2" in verify_table(coms, bad, None)[0]
    other = secrets.token_bytes(32)
    assert verify_table(coms, played, other.hex())  # a wrong seed is caught
    tables = [{"number": 1, "commitments": coms, "played": played, "seed": seed.hex()},
              {"number": 2, "commitments": coms, "played": played, "seed": seed.hex()}]
    assert verify_round(tables, True)["ok"]
    tables[1] = {"number": 2, "commitments": hand_commitments(other, 3), "played": [], "seed": other.hex()}
    r = verify_round(tables, True)
    assert not r["ok"] and not r["same_walls"]
    assert verify_round(tables, False)["ok"]  # a normal round has a seed per table


@pytest.mark.parametrize(("data", "needle"), [
    ({"name": ""}, "name"),
    ({"name": "x", "rounds": 0}, "rounds"),
    ({"name": "x", "rounds": 11}, "rounds"),
    ({"name": "x", "hands_per_round": 33}, "hands_per_round"),
    ({"name": "x", "seats": 10}, "multiple of 4"),
    ({"name": "x", "seats": 68}, "seats"),
    ({"name": "x", "preset": "nope"}, "rules"),
    ({"name": "x", "turn_seconds": 1}, "turn_seconds"),
    ({"name": "x", "no_show_seconds": 9999}, "no_show_seconds"),
    ({"name": "x", "bot_level": "god"}, "bot_level"),
    ({"name": "x", "what": 1}, "what"),
    ({"name": "x", "options": {"seating_ceremony": True}}, "seating_ceremony"),  # the director seats
    ({"name": "x", "options": {"winds": 1}}, "winds"),  # the director sets the hands per round
    ([1, 2], "JSON object"),
])
def test_settings_limits(data: object, needle: str) -> None:
    with pytest.raises(SettingsError, match=needle):
        parse_settings(data)


def test_settings_ok() -> None:
    s = parse_settings({"name": "  周末  杯 ", "seats": 10, "bots_fill": True, "duplicate": True})
    assert s.name == "周末 杯" and s.tables_max == 3
    rs = s.room_settings(1)
    assert rs.private and not rs.rated and rs.max_hands == s.hands_per_round


def test_bot_entrants_are_named_like_the_table_names_them() -> None:
    """A tournament's bots are 机器人甲, 机器人乙 … (the table's own bot names), then 机器人11 …:
    the standings and the tables say the same name (issue 21: standings said 机器人1/2)."""
    from laizi.server.competitions.tournaments.director import bot_nickname

    assert [bot_nickname(k) for k in range(4)] == ["机器人甲", "机器人乙", "机器人丙", "机器人丁"]
    assert bot_nickname(9) == "机器人癸" and bot_nickname(10) == "机器人11"
    assert len({bot_nickname(k) for k in range(64)}) == 64  # distinct in any field


def test_a_tables_rule_card_does_not_promise_sixteen_rounds() -> None:
    """A tournament table's match ends at hands_per_round hands; its rounds are the fewest that
    hold them (a 圈 is 4 hands at least), so its rule card said 圈数：16 圈 for a one-hand round."""
    from laizi.rulecatalog import rule_card
    from laizi.server.common.config import room_rules
    from laizi.server.competitions.tournaments.settings import TournamentSettings

    for hands, rounds in ((1, 1), (4, 1), (5, 2), (8, 2), (32, 8)):
        rs = TournamentSettings(name="x", hands_per_round=hands).room_settings(0)
        assert (rs.rounds, rs.max_hands) == (rounds, hands)
        card = rule_card(room_rules(rs), "zh")
        assert ("圈数" in card) == (rounds > 1) and "16 圈" not in card, card
