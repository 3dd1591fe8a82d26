import pytest

from laizi.errors import RuleError
from laizi.rules import PRESETS, RuleSet
from laizi.tiles import Tile


def lz(preset: str, indicator: str) -> str:
    return str(Tile(RuleSet.preset(preset).setup(indicator=Tile.parse(indicator)).laizi))


@pytest.mark.parametrize(
    ("indicator", "laizi"),
    [("5m", "6m"), ("9m", "1m"), ("9p", "1p"), ("1z", "2z"), ("4z", "6z"), ("7z", "6z"),
     ("6z", "5z"), ("5z", "1z")],
)
def test_laizi_cycle_only_zhong_special(indicator, laizi):
    assert lz("kaikoufan", indicator) == laizi


@pytest.mark.parametrize("indicator", ["4z", "7z", "6z"])
def test_laizi_cycle_zhong_fa_special(indicator):
    assert lz("kaikoufan_fa", indicator) == "5z"


def test_qipisilai_pizi():
    r = RuleSet.preset("qipisilai")
    s = r.setup(indicator=Tile.parse("4p"))
    assert str(Tile(s.laizi)) == "5p"
    assert {str(Tile(k)) for k in s.pizi} == {"3p", "4p"}
    assert s.special == s.pizi | {33}
    s = r.setup(indicator=Tile.parse("1m"))
    assert {str(Tile(k)) for k in s.pizi} == {"9m", "1m"}
    s = r.setup(indicator=Tile.parse("7z"))  # 中 read as 北
    assert str(Tile(s.laizi)) == "6z"
    assert {str(Tile(k)) for k in s.pizi} == {"3z", "4z"}
    # From the laizi alone the same pizi are derived.
    assert r.setup(laizi=Tile.parse("5p")).special == r.setup(indicator=Tile.parse("4p")).special


def test_presets_table():
    assert set(PRESETS) == {"kaikoufan", "kaikoufan_fa", "qipisilai", "koukoufan", "jiayu"}
    k = RuleSet.preset("koukoufan")
    assert (k.min_points, k.cap, k.golden, k.sunshine, k.ha, k.escape_penalty) == (64, 300, 500, 600, 700, 500)
    q = RuleSet.preset("qipisilai")
    assert q.min_points == 32 and q.opening_fan == "once"
    j = RuleSet.preset("jiayu")
    assert (j.min_points, j.min_rule, j.cap, j.golden, j.big_stack, j.liable_pays) == (
        20, "two_sum", 160, 200, "add", "golden")
    d = RuleSet.preset("kaikoufan")
    assert (d.min_points, d.cap, d.golden, d.sunshine, d.ha, d.escape_penalty) == (16, 300, 400, 500, 600, 400)


def test_overrides_and_immutability():
    r = RuleSet.preset("kaikoufan", min_points=32, fanbao=True)
    assert r.min_points == 32 and r.fanbao
    assert r.replace(cap=500).cap == 500
    with pytest.raises(Exception):  # noqa: B017 - frozen model
        r.cap = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [({"nonsense": 1}, "nonsense"), ({"min_rule": "most"}, "min_rule"), ({"cap": -1}, "cap"),
     ({"laizi_discard": "maybe"}, "laizi_discard")],
)
def test_bad_option_named(kwargs, word):
    with pytest.raises(RuleError, match=word):
        RuleSet.preset("kaikoufan", **kwargs)


def test_unknown_preset():
    with pytest.raises(RuleError, match="unknown preset"):
        RuleSet.preset("tokyo")


def test_option_sets_apply():
    from laizi.rules import OPTION_SETS

    r = RuleSet.preset("koukoufan", **OPTION_SETS["s2_koukoufan_caps"])
    assert (r.cap, r.golden, r.sunshine, r.ha) == (1000, 1500, 2500, 5500)
    assert r.min_points == 64
    assert RuleSet.preset("kaikoufan", **OPTION_SETS["s0_strict"]).sunshine_double
