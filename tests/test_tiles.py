import pytest
from hypothesis import given
from hypothesis import strategies as st

from laizi.errors import TileParseError
from laizi.tiles import Tile, counts_from_str, counts_to_str, parse_tiles, tiles_to_str


def test_index_order_matches_mahjong_package():
    assert Tile.parse("1m").index == 0
    assert Tile.parse("9m").index == 8
    assert Tile.parse("1p").index == 9
    assert Tile.parse("1s").index == 18
    assert Tile.parse("1z").index == 27
    assert Tile.parse("7z").index == 33


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("一万", "1m"), ("五条", "5s"), ("八筒", "8p"), ("东", "1z"), ("中", "7z"),
        ("发", "6z"), ("白", "5z"), ("E", "1z"), ("S", "2z"), ("W", "3z"), ("N", "4z"),
        ("P", "5z"), ("F", "6z"), ("C", "7z"), ("红中", "7z"), ("九萬", "9m"),
    ],
)
def test_chinese_and_letters(text, expected):
    assert str(Tile.parse(text)) == expected


def test_hand_round_trip():
    assert tiles_to_str(parse_tiles("123m456p55s77z")) == "123m456p55s77z"
    assert tiles_to_str(parse_tiles("77z 一万 E")) == "1m17z7z".replace("17z7z", "177z")


def test_repr_pastes_back():
    t = Tile.parse("5p")
    assert eval(repr(t)) == t  # noqa: S307


@pytest.mark.parametrize(
    ("text", "pos"),
    [("12x", 2), ("8z", 0), ("m", 0), ("123", 0), ("05m", 0), ("1m 2", 3), ("1m龙", 2)],
)
def test_bad_notation_says_where(text, pos):
    with pytest.raises(TileParseError) as info:
        parse_tiles(text)
    assert info.value.position == pos
    assert isinstance(info.value, ValueError)
    assert str(pos) in str(info.value)


def test_unicode_and_chinese_display():
    assert Tile.parse("7z").chinese == "中"
    assert Tile.parse("3s").chinese == "三条"
    assert Tile.parse("1z").unicode == "\U0001F000"
    assert Tile.parse("1m").unicode == "\U0001F007"


@given(st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_counts_round_trip(counts):
    assert counts_from_str(counts_to_str(counts)) == counts


def test_one_tile_name_table() -> None:
    import laizi.game.actions as actions
    import laizi.game.wall as wall
    from laizi.tiles import NUM_KINDS, TILE_STR, tile_from_str

    assert len(TILE_STR) == NUM_KINDS == 34
    assert actions.TILE_STR is TILE_STR and wall._TILE_STR is TILE_STR
    assert actions.tile_from_str is tile_from_str
    for k, name in enumerate(TILE_STR):
        assert name == str(Tile(k)) and tile_from_str(name) == k
    assert tile_from_str("中") == 33 and tile_from_str("五万") == 4
    with pytest.raises(TileParseError):
        tile_from_str("0m")
