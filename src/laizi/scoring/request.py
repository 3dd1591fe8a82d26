"""The JSON contract of ``laizi score`` (SCORE_API.md): request → WinContext, result → JSON.

Every impossible input raises :class:`IllegalHandError` naming the field.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from laizi.errors import IllegalHandError, LaiziError
from laizi.rules import RuleSet, TableSetup
from laizi.scoring.model import Meld, PlayerTable, ScoreResult, WinBy, WinContext
from laizi.tiles import NUM_KINDS, Tile, parse_tiles

__all__ = ["check_meld", "context_from_json", "result_to_json", "score_json"]

_TOP = {"preset", "options", "laizi", "indicator", "dealer", "winner", "win", "players"}
_WIN = {"tile", "by", "from", "after_kong", "haidi"}
_PLAYER = {"hand", "melds", "special_kongs", "special_discards", "ready", "fanbao"}


def _check_keys(obj: dict[str, Any], allowed: set[str], where: str) -> None:
    for k in obj:
        if k not in allowed and not k.startswith("_") and k not in ("comment", "note"):
            raise IllegalHandError(f"{where}{k}", "unknown field")


def _seat(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise IllegalHandError(field, f"must be a seat 0-3, got {value!r}")
    return value


def _tiles(value: Any, field: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, str):
        raise IllegalHandError(field, "must be a tile string like '123m77z'")
    try:
        return [t.index for t in parse_tiles(value)]
    except LaiziError as exc:
        raise IllegalHandError(field, str(exc)) from None


def _tile(value: Any, field: str) -> int:
    tiles = _tiles(value, field)
    if len(tiles) != 1:
        raise IllegalHandError(field, f"must be exactly one tile, got {value!r}")
    return tiles[0]


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise IllegalHandError(field, f"must be true or false, got {value!r}")
    return value


class _Win(NamedTuple):
    """The validated ``win`` object."""

    tile: int
    by: WinBy
    from_seat: int | None
    after_kong: bool
    haidi: bool


def context_from_json(data: Any) -> WinContext:
    """Validate a score request (a parsed JSON object) and build the scorer's context.

    Checked in this order (the first problem found is the one reported): the top-level
    keys, the rules, the laizi, the seats, the win, each player, then the whole table.
    """
    if not isinstance(data, dict):
        raise IllegalHandError("input", "must be a JSON object")
    _check_keys(data, _TOP, "")
    rules = _rules_of(data)
    setup = _setup_of(data, rules)
    dealer, winner = _seats_of(data)
    win = _win_of(data.get("win"), winner, setup)
    players_data = data.get("players")
    if not isinstance(players_data, list) or len(players_data) != 4:
        raise IllegalHandError("players", "must be a list of 4 seats")
    players = [_player_of(pd, seat, setup, rules) for seat, pd in enumerate(players_data)]
    _check_table(players, winner, win, setup)
    return WinContext(
        rules=rules, setup=setup, dealer=dealer, winner=winner, tile=win.tile, by=win.by,
        players=(players[0], players[1], players[2], players[3]),
        from_seat=win.from_seat, after_kong=win.after_kong, haidi=win.haidi,
    )


def _rules_of(data: dict[str, Any]) -> RuleSet:
    preset = data.get("preset", "kaikoufan")
    options = data.get("options", {}) or {}
    if not isinstance(options, dict):
        raise IllegalHandError("options", "must be an object of rule options")
    if not isinstance(preset, str):
        raise IllegalHandError("preset", "must be a preset name")
    try:
        return RuleSet.preset(preset, **options)
    except LaiziError as exc:
        field = "preset" if "preset" in str(exc) else "options"
        raise IllegalHandError(field, str(exc)) from None


def _setup_of(data: dict[str, Any], rules: RuleSet) -> TableSetup:
    indicator = _tile(data["indicator"], "indicator") if data.get("indicator") is not None else None
    laizi = _tile(data["laizi"], "laizi") if data.get("laizi") is not None else None
    if indicator is None and laizi is None:
        raise IllegalHandError("laizi", "give the laizi or the indicator")
    try:
        return rules.setup(indicator=indicator, laizi=laizi)
    except LaiziError as exc:
        raise IllegalHandError("laizi", str(exc)) from None


def _seats_of(data: dict[str, Any]) -> tuple[int, int]:
    """(dealer, winner)."""
    if "dealer" not in data:
        raise IllegalHandError("dealer", "missing")
    if "winner" not in data:
        raise IllegalHandError("winner", "missing")
    return _seat(data["dealer"], "dealer"), _seat(data["winner"], "winner")


def _win_of(win: Any, winner: int, setup: TableSetup) -> _Win:
    if not isinstance(win, dict):
        raise IllegalHandError("win", "must be an object with tile and by")
    _check_keys(win, _WIN, "win.")
    if "tile" not in win:
        raise IllegalHandError("win.tile", "missing")
    tile = _tile(win["tile"], "win.tile")
    by = win.get("by")
    if by not in ("discard", "self_draw", "rob_kong"):
        raise IllegalHandError("win.by", f"must be discard, self_draw or rob_kong, got {by!r}")
    from_seat = _from_seat_of(win, by, winner)
    after_kong = _bool(win.get("after_kong", False), "win.after_kong")
    haidi = _bool(win.get("haidi", False), "win.haidi")
    if after_kong and haidi:
        raise IllegalHandError("win.after_kong", "cannot be combined with haidi", code="score_gangkai_haidi")
    if (after_kong or haidi) and by != "self_draw":
        raise IllegalHandError("win.after_kong" if after_kong else "win.haidi",
                               "only a self-drawn win can be 杠上开花 or 海底捞", code="score_only_self_draw")
    if by == "discard" and tile == setup.laizi:
        raise IllegalHandError("win.tile", "a discarded laizi is never won on", code="score_win_laizi")
    if by != "self_draw" and tile in setup.special:
        raise IllegalHandError("win.tile", "a special tile can never be claimed", code="score_win_special")
    return _Win(tile, by, from_seat, after_kong, haidi)


def _from_seat_of(win: dict[str, Any], by: WinBy, winner: int) -> int | None:
    if by == "self_draw":
        if win.get("from") is not None:
            raise IllegalHandError("win.from", "a self-drawn win has no 'from'", code="score_from_self_draw")
        return None
    if win.get("from") is None:
        raise IllegalHandError("win.from", f"required when win.by is {by}", code="score_from_needed")
    from_seat = _seat(win["from"], "win.from")
    if from_seat == winner:
        raise IllegalHandError("win.from", "names the winner", code="score_from_winner")
    return from_seat


def _player_of(pd: Any, seat: int, setup: TableSetup, rules: RuleSet) -> PlayerTable:
    where = f"players[{seat}]"
    if not isinstance(pd, dict):
        raise IllegalHandError(where, "must be an object")
    _check_keys(pd, _PLAYER, f"{where}.")
    hand = _tiles(pd.get("hand", ""), f"{where}.hand")
    melds = _melds_of(pd.get("melds", []) or [], seat, setup)
    sk = _tiles(pd.get("special_kongs", ""), f"{where}.special_kongs")
    sd = _tiles(pd.get("special_discards", ""), f"{where}.special_discards")
    for name, lst in (("special_kongs", sk), ("special_discards", sd)):
        for t in lst:
            if t not in setup.special and t != setup.laizi:
                raise IllegalHandError(f"{where}.{name}", f"{Tile(t)} is neither special nor the laizi",
                                       code="score_not_special", params={"tile": str(Tile(t))})
    if sd and setup.laizi in sd and not rules.laizi_discardable:
        raise IllegalHandError(f"{where}.special_discards", "discarding a laizi is forbidden by these rules",
                               code="score_laizi_discard")
    ready = _bool(pd.get("ready", False), f"{where}.ready")
    fanbao = _bool(pd.get("fanbao", False), f"{where}.fanbao")
    return PlayerTable(tuple(hand), tuple(melds), tuple(sk), tuple(sd), ready, fanbao)


def _melds_of(melds_data: Any, seat: int, setup: TableSetup) -> list[Meld]:
    where = f"players[{seat}].melds"
    if not isinstance(melds_data, list):
        raise IllegalHandError(where, "must be a list of meld strings")
    melds: list[Meld] = []
    for i, md in enumerate(melds_data):
        field = f"{where}[{i}]"
        if not isinstance(md, str):
            raise IllegalHandError(field, "must be a string like 'peng 9p from 3'")
        try:
            meld = Meld.parse(md)
        except LaiziError as exc:
            raise IllegalHandError(field, str(exc)) from None
        check_meld(meld, seat, setup, field)
        melds.append(meld)
    return melds


def check_meld(meld: Meld, seat: int, setup: TableSetup, field: str) -> None:
    """What a meld of ``seat`` must be wherever one is given (a score request, a hand for
    hints): taken from another seat, a chi from the 上家, no special tile or laizi in it.
    Raises :class:`IllegalHandError` on ``field``."""
    if meld.from_seat is not None:
        _seat(meld.from_seat, f"{field}.from")
        if meld.from_seat == seat:
            raise IllegalHandError(field, "a meld cannot be taken from oneself", code="score_meld_self")
        if meld.type == "chi" and meld.from_seat != (seat - 1) % 4:
            raise IllegalHandError(
                field, f"a chi must be taken from the 上家 (seat {(seat - 1) % 4})",
                code="score_chi_upstream", params={"seat": (seat - 1) % 4})
    if any(t in setup.special or t == setup.laizi for t in meld.tiles()):
        raise IllegalHandError(field, "special tiles and laizi are never melded", code="score_meld_special")


def _check_table(players: list[PlayerTable], winner: int, win: _Win, setup: TableSetup) -> None:
    """Checks on the whole table: copies per kind, the winner's 14 tiles, kongs, the robbed peng."""
    on_table = [0] * NUM_KINDS
    for p in players:
        for t in p.hand + p.special_kongs + p.special_discards:
            on_table[t] += 1
        for m in p.melds:
            for t in m.tiles():
                on_table[t] += 1
    on_table[win.tile] += 1
    if setup.indicator is not None:
        on_table[setup.indicator] += 1
    for k, n in enumerate(on_table):
        if n > 4:
            raise IllegalHandError("players", f"{n} copies of {Tile(k)} on the table (at most 4)",
                                   code="score_copies", params={"n": n, "tile": str(Tile(k))})
    wt = players[winner]
    size = len(wt.hand) + 1 + 3 * len(wt.melds)
    if size != 14:
        raise IllegalHandError(
            f"players[{winner}].hand",
            f"the winner's tiles make {size}, not 14 (hand without the winning tile, kongs count 3)",
            code="score_tile_count", params={"n": size})
    if win.after_kong and not (wt.special_kongs or any(m.is_kong for m in wt.melds)):
        raise IllegalHandError("win.after_kong", "the winner has no kong", code="score_no_kong")
    if win.by == "rob_kong":
        assert win.from_seat is not None
        robbed = players[win.from_seat]
        if not any(m.type == "peng" and m.tile == win.tile for m in robbed.melds):
            raise IllegalHandError("win.from", f"seat {win.from_seat} has no peng of {Tile(win.tile)} to rob",
                                   code="score_no_peng_to_rob",
                                   params={"seat": win.from_seat, "tile": str(Tile(win.tile))})


def result_to_json(res: ScoreResult) -> dict[str, Any]:
    return {
        "ok": res.ok,
        "reason": res.reason,
        "big_hands": list(res.big_hands),
        "small": res.small,
        "hard": res.hard,
        "base": res.base,
        "winner_fan": res.winner_fan,
        "loser_fan": list(res.loser_fan),
        "raw": list(res.raw),
        "payments": list(res.payments),
        "liable": res.liable,
        "topped_out": res.topped_out,
        "breakdown": list(res.breakdown),
    }


def score_json(data: Any) -> dict[str, Any]:
    """Validate and score a request; the answer as a JSON-ready dict."""
    from laizi.scoring.score import score

    return result_to_json(score(context_from_json(data)))
