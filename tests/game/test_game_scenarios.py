"""Scenario tests on hand-built walls (indicator 1z 东 → laizi 2z 南, special 7z 中)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from laizi.game import PASS, Action, HandState, IllegalActionError, Match, MatchOverError
from laizi.game.replay import dump_log, parse_log, replay
from laizi.game.wall import arrange_wall
from laizi.rules import RuleSet
from support.game_helpers import act, do, hand, settle_windows, t, tsumogiri

KKF = RuleSet.preset("kaikoufan")


def rot(d: int, rel: list[str]) -> list[str]:
    """Hands given relative to the dealer -> by absolute seat."""
    out = [""] * 4
    for i, h in enumerate(rel):
        out[(d + i) % 4] = h
    return out


def check_replay(state: HandState) -> None:
    again = replay(parse_log(dump_log(state.log)))
    assert isinstance(again, HandState)
    assert again.hash() == state.hash()


# --------------------------------------------------------------------------- robbing
ROB_HANDS = [
    "8m 55s 111p 999p 3z 4z 5z 6z 1s",
    "111m 999m 3z 4z 5z 6z 7s 9s 1s",
    "88m 234p 567p 22m 4s6s 3z",
    "5s 444m 666m 3z 4z 5z 6z 7s 9s",
]


def rob_setup(rules: RuleSet = KKF) -> HandState:
    s = hand(rules, ROB_HANDS, front="1z 1z 1z 9s 5s")
    do(s, 0, "discard 8m")
    do(s, 2, "peng 8m")
    do(s, 2, "discard 3z")
    do(s, 3, "discard 5s")
    # Seat 2 waits on 5s but a small hand on a discard stays below the minimum.
    assert Action("ron", t("5s")) not in s.legal_actions(2)
    do(s, 0, "peng 5s")
    do(s, 0, "discard 4z")
    do(s, 1, "discard 1z")
    do(s, 2, "discard 1z")
    do(s, 3, "discard 9s")
    settle_windows(s)
    assert s.turn == 0 and s.last_draw == t("5s")
    assert Action("addkong", t("5s")) in s.legal_actions(0)
    do(s, 0, "addkong 5s")
    return s


def test_rob_kong_wins_and_robbed_seat_pays() -> None:
    s = rob_setup()
    assert s.phase == "rob"
    assert s.to_act() == [2]
    assert s.legal_actions(2) == [Action("ron", t("5s")), PASS]
    s.apply(2, act("ron 5s"))
    assert s.over and s.result is not None
    assert s.result["winner"] == 2 and s.result["by"] == "rob_kong" and s.result["from"] == 0
    sc = s.result["score"]
    assert "qianggang" in sc["big_hands"]
    assert sc["liable"] == 0
    assert s.payments is not None and s.payments[0] < 0 and s.payments[1] == s.payments[3] == 0
    assert sum(s.payments) == 0
    # The robbed 蓄杠 is no kong: seat 0 keeps its peng.
    assert [m.type for m in s.melds[0]] == ["peng"]
    assert s.tile_total() == [4] * 34
    check_replay(s)


def test_rob_kong_passed_completes_the_kong() -> None:
    s = rob_setup()
    s.apply(2, PASS)
    assert s.phase == "turn" and s.turn == 0 and s.after_kong
    assert [m.type for m in s.melds[0]] == ["addkong"]
    assert s.log[-1]["type"] == "draw" and s.log[-1]["src"] == "back"
    assert s.tile_total() == [4] * 34


def test_concealed_kong_cannot_be_robbed() -> None:
    hands = [
        "8m 111p 999p 3z 4z 5z 6z 1s 7s 9s",
        "111m 999m 3z 4z 5z 6z 7s 9s 1s",
        "88m 234p 567p 22m 4s6s 3z",
        "555s 444m 666m 3z 4z 5z 6z",
    ]
    s = hand(KKF, hands, front="5s")
    do(s, 0, "discard 8m")
    do(s, 2, "peng 8m")
    do(s, 2, "discard 3z")
    settle_windows(s)
    assert s.turn == 3 and s.last_draw == t("5s")
    do(s, 3, "ankong 5s")
    assert s.phase == "turn" and s.turn == 3 and s.after_kong  # no rob window for seat 2
    assert s.melds[3][0].type == "ankong"


# --------------------------------------------------------------------------- 杠上开花
def gangkai_hands(d: int, kong_tile: str) -> list[str]:
    return rot(d, [
        "8m 111p 999p 3z 4z 5z 6z 1s 3s 9s",
        f"88m {kong_tile} 234p 567p 22m 4s6s",
        "111m 999m 3z 4z 5z 6z 7s 9s 1s",
        "444m 666m 3z 4z 5z 6z 1s 7s 9s",
    ])


@pytest.mark.parametrize(("kong_tile", "kong"), [("7z", "special_kong"), ("2z", "laizi_kong")])
def test_gangkai_after_special_or_laizi_kong(kong_tile: str, kong: str) -> None:
    s = hand(KKF, gangkai_hands(0, kong_tile), back="5s")
    assert s.setup.laizi == t("2z") and t("7z") in s.setup.special
    do(s, 0, "discard 8m")
    do(s, 1, "peng 8m")
    assert Action(kong, t(kong_tile)) in s.legal_actions(1)  # type: ignore[arg-type]
    do(s, 1, f"{kong} {kong_tile}")
    assert s.after_kong and s.last_draw == t("5s")
    assert s.legal_actions(1)[0] == Action("tsumo")
    do(s, 1, "tsumo")
    assert s.result is not None and s.result["after_kong"] and s.result["by"] == "self_draw"
    assert "gangkai" in s.result["score"]["big_hands"]
    assert s.special_kongs[1] == [t(kong_tile)]
    assert s.payments is not None and sum(s.payments) == 0 and s.payments[1] > 0
    check_replay(s)


def test_no_self_draw_win_right_after_a_claim() -> None:
    hands = gangkai_hands(0, "7z")
    hands[1] = "88m 234p 567p 456s 22m"  # complete as soon as it pengs 8m
    s = hand(KKF, hands)
    do(s, 0, "discard 8m")
    do(s, 1, "peng 8m")
    assert s.after_claim
    assert all(a.type != "tsumo" for a in s.legal_actions(1))


# --------------------------------------------------------------------------- haidi
HAIDI_HANDS = [
    "8m 5s 111p 999p 3z 4z 5z 6z 1s 9s",
    "88m 234p 567p 22m 4s6s 3z",
    "5s 111m 999m 3z 4z 5z 6z 7s 9s",
    "5s 444m 666m 3z 4z 5z 6z 7s 1s",
]


def haidi_setup(win: bool) -> HandState:
    hands = list(HAIDI_HANDS)
    at = {121: "9m"}  # the last normal draw: seat 1 discards it just before the haidi
    if win:
        at[125] = "5s"  # seat 1's haidi tile (draw #71 goes to seat (2 + 71) % 4 = 1)
    else:
        hands[0] = "8m 55s 111p 999p 3z 4z 5z 6z 1s"
        at[125] = "9p"  # not a laizi: seat 1 cannot win on it
    s = hand(KKF, hands, at=at)
    do(s, 0, "discard 8m")
    do(s, 1, "peng 8m")
    do(s, 1, "discard 3z")
    # Everyone discards what it draws until the last normal discard.
    while not (s.phase == "claim" and s.wall_remaining == 14):
        if s.phase in ("claim", "rob"):
            settle_windows(s)
            continue
        seat = s.to_act()[0]
        legal = s.legal_actions(seat)
        if s.wall_remaining < 15:
            assert not any("kong" in a.type for a in legal), legal
        assert s.last_draw is not None
        s.apply(seat, Action("discard", s.last_draw))
    return s


@pytest.mark.parametrize("win", [True, False])
def test_haidi_phase(win: bool) -> None:
    s = haidi_setup(win)
    # The discard just before the haidi can still be claimed (peng), but not kong'ed.
    assert s.pending == t("9m") and s.turn == 1
    opts = s.legal_actions(2)
    assert Action("peng", t("9m")) in opts and Action("kong", t("9m")) not in opts
    settle_windows(s)
    if win:
        assert s.phase == "haidi" and s.to_act() == [1]
        assert s.legal_actions(1) == [Action("tsumo"), PASS]
        assert s.legal_actions(2) == []
        with pytest.raises(IllegalActionError):
            s.apply(1, Action("discard", t("5s")))
        s.apply(1, Action("tsumo"))
        assert s.result is not None and s.result["haidi"] and "haidi" in s.result["score"]["big_hands"]
        assert s.wall_remaining == 10
    else:
        assert s.over and s.result is None
        assert s.payments == [0.0, 0.0, 0.0, 0.0]
        assert s.log[-2]["type"] == "ryukyoku"
        assert s.wall_remaining == 10  # the last 10 tiles are never drawn
    haidi_draws = [e for e in s.log if e["type"] == "draw" and e["src"] == "haidi"]
    assert [e["seat"] for e in haidi_draws] == [2, 3, 0, 1]
    assert s.tile_total() == [4] * 34
    check_replay(s)


# --------------------------------------------------------------------------- one winner
TWO_HANDS = [
    "3z 1m 2m 5m 6m 9m 1p 2p 5p 6p 2s 3s 7s 9s",
    "3z3z 4z 444m 777m 111s 8p",
    "3m 8m 3p 4p 7p 9p 4s 5s 8s 9s 5z 6z 6z",
    "4z4z 5z 999m 333p 666s 8p",
]


def two_setup(rules: RuleSet) -> HandState:
    s = hand(rules, TWO_HANDS, front="1m 9p 8p")
    do(s, 0, "discard 3z")
    do(s, 1, "peng 3z")
    do(s, 1, "discard 4z")
    do(s, 3, "peng 4z")
    do(s, 3, "discard 5z")
    do(s, 0, "discard 1m")
    do(s, 1, "discard 9p")
    do(s, 2, "discard 8p")
    return s


@pytest.mark.parametrize(("priority", "winner"), [("dealer", 1), ("discarder", 3)])
def test_two_winners_one_discard(priority: str, winner: int) -> None:
    s = two_setup(KKF.replace(win_priority=priority))
    assert s.phase == "claim" and s.to_act() == [1, 3]
    assert Action("ron", t("8p")) in s.legal_actions(1)
    assert Action("ron", t("8p")) in s.legal_actions(3)
    s.apply(3, act("ron 8p"))
    assert not s.over  # waits for every seat that may claim
    s.apply(1, act("ron 8p"))
    assert s.over and s.result is not None and s.result["winner"] == winner
    assert s.result["from"] == 2 and s.result["by"] == "discard"
    assert s.payments is not None and s.payments[winner] > 0 and sum(s.payments) == 0
    check_replay(s)


def test_guoshou_blocks_a_second_ron_before_the_next_draw() -> None:
    for guoshou, offered in ((True, False), (False, True)):
        s = hand(KKF.replace(guoshou=guoshou), TWO_HANDS, front="8p")
        do(s, 0, "discard 3z")
        do(s, 1, "peng 3z")
        do(s, 1, "discard 4z")
        do(s, 3, "peng 4z")
        do(s, 3, "discard 8p")  # seat 1 may win, passes
        assert Action("ron", t("8p")) in s.legal_actions(1)
        s.apply(1, PASS)
        settle_windows(s)
        do(s, 0, "discard 8p")  # pays less than the passed win
        assert (Action("ron", t("8p")) in s.legal_actions(1)) is offered


# --------------------------------------------------------------------------- peng > chi
def test_peng_beats_chi() -> None:
    hands = [
        "5m 1p 2p 5p 6p 9p 2s 3s 7s 9s 3z 4z 5z 6z",
        "4m 6m 111p 999s 3z 4z 5z 6z 1s",
        "5m5m 444p 888s 3z 4z 5z 6z 1s",
        "",
    ]
    for peng in (True, False):
        s = hand(KKF, hands)
        do(s, 0, "discard 5m")
        assert s.to_act() == [1, 2]
        assert Action.chi(t("4m")) in s.legal_actions(1)
        assert Action("peng", t("5m")) in s.legal_actions(2)
        s.apply(1, Action.chi(t("4m")))
        s.apply(2, Action("peng", t("5m")) if peng else PASS)
        taker = 2 if peng else 1
        assert s.phase == "turn" and s.turn == taker and s.after_claim
        assert s.melds[taker][0].type == ("peng" if peng else "chi")
        assert s.melds[3 - taker] == []
        assert s.rivers[0] == []
        assert s.tile_total() == [4] * 34


def test_a_chi_knows_the_tile_it_took() -> None:
    """The table turns a chi's taken tile sideways (TABLE.md): the meld says which it was, in
    every view; the notation, the scoring's equality and the state's hash do not see it."""
    from laizi.scoring import Meld
    from laizi.views import meld_from_json, meld_to_json, seat_view, to_json

    hands = ["5m 1p 2p 5p 6p 9p 2s 3s 7s 9s 3z 4z 5z 6z", "4m 6m 111p 999s 3z 4z 5z 6z 1s", "", ""]
    s = hand(KKF, hands)
    do(s, 0, "discard 5m")
    s.apply(1, Action.chi(t("4m")))
    m = s.melds[1][0]
    assert (m.type, m.tile, m.from_seat, m.claimed) == ("chi", t("4m"), 0, t("5m"))
    assert str(m) == "chi 456m from 0" and Meld.parse(str(m)) == m
    assert s.to_dict()["melds"][1] == ["chi 456m from 0"]
    for seat in (0, 1, 2, 3, None):
        (js,) = to_json(seat_view(s, seat))["seats"][1]["melds"]
        assert js == {"type": "chi", "tile": "4m", "tiles": "4m5m6m", "from": 0, "claimed": "5m"}
        assert meld_from_json(js).claimed == t("5m")
    assert "claimed" not in meld_to_json(Meld.parse("chi 456m from 0"))
    with pytest.raises(ValueError, match="claimed"):
        meld_from_json({"type": "chi", "tile": "4m", "from": 0, "claimed": "7m"})
    check_replay(s)


def test_chi_only_for_the_next_seat() -> None:
    hands = ["5m 1p 2p 5p 6p 9p 2s 3s 7s 9s 3z 4z 5z 6z", "", "4m 6m 111p 999s 3z 4z 5z 6z 1s", ""]
    s = hand(KKF, hands)
    do(s, 0, "discard 5m")
    assert all(a.type != "chi" for a in s.legal_actions(2))


# --------------------------------------------------------------------------- special / laizi
def test_special_tile_discard_counts_as_kong_without_claims() -> None:
    hands = ["7z 2z 1p 2p 5p 6p 9p 2s 3s 7s 9s 3z 4z 5z", "7z7z 2z2z 444p 888s 1s", "", ""]
    s = hand(KKF, hands)
    do(s, 0, "discard 7z")
    assert s.phase == "turn" and s.turn == 1  # nobody may claim a 中, no window
    assert s.special_discards[0] == [t("7z")] and s.rivers[0] == []
    assert s.log[-2]["type"] == "discard" and s.log[-2]["as"] == "special"
    do(s, 1, f"discard {s.log[-1]['tile']}")
    settle_windows(s)
    # A laizi discard (default laizi_discard=kong) also counts as a kong, no claim.
    s2 = hand(KKF, hands)
    do(s2, 0, "discard 2z")
    assert s2.phase == "turn" and s2.turn == 1 and s2.special_discards[0] == [t("2z")]


def test_laizi_discard_forbidden_in_jiayu() -> None:
    hands = ["7z 2z 1p 2p 5p 6p 9p 2s 3s 7s 9s 3z 4z 5z", "", "", ""]
    s = hand(RuleSet.preset("jiayu"), hands)
    assert s.setup.laizi == t("2z")
    assert Action("discard", t("2z")) not in s.legal_actions(0)
    assert Action("laizi_kong", t("2z")) in s.legal_actions(0)
    before = s.hash()
    with pytest.raises(IllegalActionError):
        s.apply(0, Action("discard", t("2z")))
    assert s.hash() == before


# --------------------------------------------------------------------------- 见字胡
JIANZI_HANDS = [
    "3z 1m 2m 5m 6m 9m 1p 2p 5p 6p 2s 3s 8s 9s",
    "3z3z 4z 111m 999p 777s 2z",
    "5z 3m 4m 8m 3p 4p 7p 8p 4s 5s 6z 6z 9s",
    "",
]


@pytest.mark.parametrize("jianzi", [True, False])
def test_jianzi_refused_on_discard(jianzi: bool) -> None:
    s = hand(KKF.replace(jianzi_hu=jianzi), JIANZI_HANDS, front="5z 5m 6p 6z")
    do(s, 0, "discard 3z")
    do(s, 1, "peng 3z")
    do(s, 1, "discard 4z")
    do(s, 2, "discard 5z")
    hand_counts = list(s.hands[1])
    res = s.checker.score(s, 1, t("5z"), "discard", 2, hand_counts)
    if jianzi:
        assert res.reason == "jianzi_on_discard"
        assert 1 not in s.to_act()
        assert Action("ron", t("5z")) not in s.legal_actions(1)
    else:
        assert res.ok
        assert s.legal_actions(1)[0] == Action("ron", t("5z"))
        return
    do(s, 3, "discard 5m")
    do(s, 0, "discard 6p")
    settle_windows(s)
    assert s.turn == 1 and s.last_draw == t("6z")
    assert s.legal_actions(1)[0] == Action("tsumo")  # a self-draw may win
    do(s, 1, "tsumo")
    assert s.result is not None and s.result["winner"] == 1


# --------------------------------------------------------------------------- errors
def test_illegal_actions_change_nothing() -> None:
    s = hand(KKF, ROB_HANDS, front="1z")
    before = s.hash()
    for seat, a in ((1, Action("discard", t("1m"))), (0, Action("discard", t("7z"))),
                    (0, Action("tsumo")), (0, Action("peng", t("8m"))), (0, PASS)):
        with pytest.raises(IllegalActionError) as info:
            s.apply(seat, a)
        assert isinstance(info.value, ValueError)
    assert s.hash() == before
    tsumogiri(s)
    with pytest.raises(MatchOverError):
        s.apply(0, Action("discard", t("1m")))


# --------------------------------------------------------------------------- match
def dealer_win_hands(d: int) -> list[str]:
    return rot(d, [
        "88m 7z 234p 567p 22m 4s6s 9p",
        "111m 999m 3z 4z 5z 6z 7s 9s 1s",
        "444m 666m 3z 4z 5z 6z 7s 9s 1s",
        "8m 111p 3z 4z 5z 6z 1s 3s 7s 7m 9m",
    ])


def play_dealer_win(m: Match, d: int) -> None:
    s = m.hand
    assert s is not None
    do(s, d, "discard 9p")
    for i in (1, 2):
        do(s, (d + i) % 4, "discard 1z")
    do(s, (d + 3) % 4, "discard 8m")
    do(s, d, "peng 8m")
    do(s, d, "special_kong 7z")
    m.apply(d, Action("tsumo"))


def play_gangkai(m: Match, d: int) -> None:
    s = m.hand
    assert s is not None
    do(s, d, "discard 8m")
    do(s, (d + 1) % 4, "peng 8m")
    do(s, (d + 1) % 4, "special_kong 7z")
    m.apply((d + 1) % 4, Action("tsumo"))


def play_drawn(m: Match) -> None:
    s = m.hand
    assert s is not None
    while not s.over:
        if s.phase in ("claim", "rob", "haidi"):
            for seat in s.to_act():
                m.apply(seat, PASS)
            continue
        seat = s.to_act()[0]
        assert s.last_draw is not None
        m.apply(seat, Action("discard", s.last_draw))


def test_dealer_continuation_and_rotation() -> None:
    plan = {1: ("dealer_win", 0), 2: ("drawn", 0), 3: ("gangkai", 0), 4: ("gangkai", 1),
            5: ("gangkai", 2), 6: ("gangkai", 3)}

    def source(n: int) -> tuple[bytes | None, tuple[int, ...]]:
        kind, d = plan[n]
        if kind == "dealer_win":
            return None, arrange_wall(dealer_win_hands(d), "1z", dealer=d, front="1z 1z 1z", back="5s")
        if kind == "drawn":
            hs = list(HAIDI_HANDS)
            hs[0] = "8m 55s 111p 999p 3z 4z 5z 6z 1s"
            return None, arrange_wall(rot(d, hs), "1z", dealer=d, at={125: "9p"})
        return None, arrange_wall(gangkai_hands(d, "7z"), "1z", dealer=d, back="5s")

    m = Match(KKF, deal_source=source)
    seen = []
    while not m.over:
        kind, d = plan[m.hand_no]
        assert m.dealer == d, (m.hand_no, m.dealer)
        seen.append((m.hand_no, m.round, m.dealer))
        if kind == "dealer_win":
            play_dealer_win(m, d)
        elif kind == "drawn":
            play_drawn(m)
        else:
            play_gangkai(m, d)
        assert sum(m.scores) == 0
    assert m.hand_no == 6 and m.deal_passes == 4
    assert [h["winner"] for h in m.history] == [0, None, 1, 2, 3, 0]
    assert m.log[-1]["type"] == "end_match" and m.log[-1]["reason"] == "rounds"
    again = replay(parse_log(dump_log(m.log)))
    assert isinstance(again, Match) and again.hash() == m.hash()


def test_escape_penalty_split_and_auto() -> None:
    m = Match(RuleSet.preset("kaikoufan"), seed=b"e" * 32, max_hands=2)
    m.escape(2)
    assert m.scores == [Fraction(400, 3), Fraction(400, 3), Fraction(-400), Fraction(400, 3)]
    assert sum(m.scores) == 0
    assert m.auto[2] and m.escaped[2]
    with pytest.raises(ValueError):
        m.escape(2)
    with pytest.raises(ValueError):
        m.set_auto(2, False)
    ev = m.log[-1]
    assert ev["type"] == "escape" and ev["penalty"] == 400 and ev["deltas"][2] == -400
    from laizi.game.play import auto_action

    while not m.over:
        assert m.hand is not None
        seat = m.to_act()[0]
        m.apply(seat, auto_action(m.hand, seat))
    assert sum(m.scores) == 0
    again = replay(parse_log(dump_log(m.log)))
    assert isinstance(again, Match) and again.hash() == m.hash()
    with pytest.raises(MatchOverError):
        m.escape(0)
