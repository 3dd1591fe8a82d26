import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from laizi.errors import RuleError
from laizi.rules import OPTION_RANGES, OPTION_SETS, PRESETS, RuleSet
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


# ------------------------------------------------------------------ ranges (issue 9, finding 9)
NON_FINITE = [math.nan, math.inf, -math.inf]


def _numeric_fields() -> set[str]:
    out = set()
    for name, f in RuleSet.model_fields.items():
        if f.annotation in (int, float):
            out.add(name)
    return out


def test_every_numeric_option_has_a_range() -> None:
    assert _numeric_fields() == set(OPTION_RANGES)


@pytest.mark.parametrize("name", sorted(OPTION_RANGES))
def test_option_range_table(name: str) -> None:
    lo, hi, lo_excluded = OPTION_RANGES[name]
    is_float = RuleSet.model_fields[name].annotation is float
    bad: list[object] = [*NON_FINITE, hi + 1, lo - 1, "1", True, None]
    if lo_excluded:
        bad.append(lo)
    if not is_float:
        bad.append(float(lo) + 0.5)
    for value in bad:
        with pytest.raises(RuleError, match=name):
            RuleSet.preset("kaikoufan", **{name: value})
        with pytest.raises(ValidationError):  # direct construction checks the same
            RuleSet(**{name: value})
    good = [hi, lo + (1 if lo_excluded else 0), (lo + hi) // 2]
    for value in good:
        assert getattr(RuleSet.preset("kaikoufan", **{name: value}), name) == value


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(OPTION_RANGES)),
       value=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                       st.integers(min_value=-10**12, max_value=10**12)))
def test_numeric_options_accept_exactly_their_range(name: str, value: float) -> None:
    lo, hi, lo_excluded = OPTION_RANGES[name]
    is_float = RuleSet.model_fields[name].annotation is float
    in_range = (math.isfinite(value) and (lo < value if lo_excluded else lo <= value)
                and value <= hi and (is_float or isinstance(value, int)))
    if in_range:
        r = RuleSet.preset("jiayu", **{name: value})
        assert getattr(r, name) == value and math.isfinite(getattr(r, name))
    else:
        with pytest.raises(RuleError):
            RuleSet.preset("jiayu", **{name: value})


@pytest.mark.parametrize("name", ["fanbao", "guoshou", "jiayu_hands"])
def test_bool_options_are_strict(name: str) -> None:
    for value in (1, "yes", None):
        with pytest.raises(RuleError, match=name):
            RuleSet.preset("kaikoufan", **{name: value})


# ------------------------------------------------------------------ repr
def test_repr_is_compact_and_pasteable() -> None:
    assert repr(RuleSet.preset("jiayu")) == "RuleSet.preset('jiayu')"
    r = RuleSet.preset("kaikoufan", guoshou=True, cap=500)
    assert repr(r) == "RuleSet.preset('kaikoufan', guoshou=True, cap=500)"
    assert str(r) == repr(r)
    cases = [RuleSet.preset(p) for p in PRESETS]
    cases += [RuleSet.preset(p, **opts) for p in PRESETS for opts in OPTION_SETS.values()]
    for rules in cases:  # a preset plus a few options: short
        assert len(repr(rules)) < 120, repr(rules)
    # odd ones (a name that is no preset; a preset's name with the default options)
    cases += [RuleSet(preset_name="house", min_points=8), RuleSet(preset_name="jiayu")]
    for rules in cases:
        again = eval(repr(rules), {"RuleSet": RuleSet})  # noqa: S307 - the repr is code
        assert again == rules, repr(rules)


# ------------------------------------------------------------------ saved form
def test_from_dict_round_trip_and_errors() -> None:
    import json

    for name in PRESETS:
        r = RuleSet.preset(name, guoshou=True)
        assert RuleSet.from_dict(r.model_dump()) == r
        assert RuleSet.from_dict(json.loads(json.dumps(r.model_dump(mode="json")))) == r
        legacy = {**r.model_dump(mode="json"), "seating_ceremony": False, "rounds_per_wind": 4}
        assert RuleSet.from_dict(legacy) == r
    bad: list[tuple[object, str]] = [
        (None, "object"), ([1], "object"), ({1: 2}, "object"), ({"x": 1}, "unknown rule option 'x'"),
        ({"claim_seconds": math.nan}, "claim_seconds"), ({"cap": "300"}, "cap"),
        ({"seating_ceremony": 1}, "seating_ceremony"), ({"rounds_per_wind": 6}, "rounds_per_wind"),
        ({"winds": 2, "rounds": 3}, "rounds or in winds"), ({"haidi_start": "six_stacks"}, "haidi_start"),
    ]
    for data, word in bad:
        with pytest.raises(RuleError, match=word) as info:
            RuleSet.from_dict(data)
        assert "\n" not in str(info.value)
