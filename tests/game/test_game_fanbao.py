"""反包 (option ``fanbao``): the engine marks the seat that kept the suit and makes it liable."""

from __future__ import annotations

from laizi.game import Action
from laizi.rules import RuleSet
from laizi.scoring import Meld
from laizi.tiles import Tile, counts_from_str
from support.game_helpers import hand


def t(s: str) -> int:
    return Tile.parse(s).index


def _setup(fanbao: bool):
    rules = RuleSet.preset("kaikoufan", fanbao=fanbao)
    # Seat 0 (dealer) will discard 1z while holding bamboo and not ready.
    st = hand(
        rules,
        ["1z3z5z7p9p1m4m7m9m2p5p8p9s2z", "1112223334445s", "19m19p19s1234567z", "23468m2468p2468s"],
        indicator="1z",
    )
    # Give seat 1 three exposed bamboo pengs (the third fed by seat 3), leaving 4445s in hand.
    h1 = st.hands[1]
    for k in ("1s", "2s", "3s"):
        h1[t(k)] -= 3
    st.melds[1] = [Meld("peng", t("1s"), 2), Meld("peng", t("2s"), 2), Meld("peng", t("3s"), 3)]
    return st


def test_kept_suit_makes_seat_liable() -> None:
    st = _setup(fanbao=True)
    assert st.fanbao == [None, None, None, None]
    st.apply(0, Action("discard", t("1z")))
    assert st.fanbao[1] == 0  # held 9s, discarded a wind, not ready
    # A 清一色 win by seat 1 is then paid by seat 0 alone.
    res = st.checker.score(st, 1, t("5s"), "self_draw", None, counts_from_str("4445s"))
    assert "qingyise" in res.big_hands
    assert res.liable == 0


def test_without_option_the_feeder_pays() -> None:
    st = _setup(fanbao=False)
    st.apply(0, Action("discard", t("1z")))
    assert st.fanbao == [None, None, None, None]
    res = st.checker.score(st, 1, t("5s"), "self_draw", None, counts_from_str("4445s"))
    assert res.liable == 3  # 正包: the feeder of the third opening
