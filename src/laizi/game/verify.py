"""Check the fair shuffle of a log (RULES.md §10) without trusting the server.

For every hand: the seed revealed in ``end_hand`` must re-derive the wall
(:func:`laizi.game.wall.derive_wall`), the wall and seed must hash to the
commitment published in ``start_hand``, the indicator must be ``wall[53]``, every
seat's deal must be its slice of the wall and every draw the next tile from the
front (normal and haidi draws) or from the back (replacement draws).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from laizi.game.events import Event
from laizi.game.wall import (
    DEAD_START,
    INDICATOR_POS,
    LIVE_START,
    commitment,
    deal_slices,
    derive_wall,
    wall_to_str,
)
from laizi.tiles import TILE_STR, parse_tiles, tile_from_str

__all__ = ["HandCheck", "VerifyReport", "verify_events"]


@dataclass(slots=True)
class HandCheck:
    """The verdict on one hand: ``label`` names it (its place in the file)."""

    label: str
    ok: bool
    message: str = ""


@dataclass(slots=True)
class VerifyReport:
    hands: list[HandCheck] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(h.ok for h in self.hands)

    @property
    def first_bad(self) -> HandCheck | None:
        return next((h for h in self.hands if not h.ok), None)

    @property
    def checked(self) -> int:
        return len(self.hands)

    def summary(self) -> str:
        bad = self.first_bad
        if bad is not None:
            return f"{bad.label}: {bad.message}"
        text = f"{self.checked} hands checked: every wall derives from its seed and matches its commitment, deals and draws"
        if self.unfinished:
            text += f"; {len(self.unfinished)} unfinished hand(s) not checkable yet"
        return text


class _Bad(Exception):
    pass


def _check_hand(start: Event, events: list[Event], end: Event) -> None:
    seed_hex = end.get("seed")
    if not isinstance(seed_hex, str) or not seed_hex:
        raise _Bad("no seed revealed at the end of the hand")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise _Bad("the revealed seed is not hex") from None
    wall = derive_wall(seed)
    if "wall" in end and end["wall"] != wall_to_str(wall):
        raise _Bad("the revealed wall does not derive from the revealed seed")
    if start.get("commitment") != commitment(seed, wall):
        raise _Bad("the commitment does not match the revealed seed and wall")
    if start.get("indicator") != TILE_STR[wall[INDICATOR_POS]]:
        raise _Bad("the indicator is not the wall's indicator tile")
    dealer = start.get("dealer")
    if not isinstance(dealer, int) or not 0 <= dealer < 4:
        raise _Bad("bad dealer")
    slices = deal_slices(dealer)
    dealt: set[int] = set()
    front, back = LIVE_START, DEAD_START
    for e in events:
        t = e["type"]
        if t == "secret":
            if e.get("seed") not in (None, seed_hex) or e.get("wall") not in (None, wall_to_str(wall)):
                raise _Bad("the secret seed or wall differs from the revealed one")
        elif t == "deal":
            seat = e.get("seat")
            if not isinstance(seat, int) or seat not in slices or seat in dealt:
                raise _Bad(f"bad deal event v={e.get('v')}")
            a, b = slices[seat]
            tiles = e.get("tiles")
            if not isinstance(tiles, str):
                raise _Bad(f"deal to seat {seat} without its tiles (a redacted log cannot be verified)")
            got = [x.index for x in parse_tiles(tiles)]
            if got != list(wall[a:b]):
                raise _Bad(f"seat {seat}'s deal does not match the wall")
            dealt.add(seat)
        elif t == "draw":
            tile = e.get("tile")
            if not isinstance(tile, str):
                raise _Bad(f"draw v={e.get('v')} without its tile (a redacted log cannot be verified)")
            src = e.get("src")
            if src in ("front", "haidi"):
                pos = front
                front += 1
            elif src == "back":
                pos = back
                back -= 1
            else:
                raise _Bad(f"draw v={e.get('v')} from an unknown place {src!r}")
            if front > back + 1:
                raise _Bad("more draws than tiles in the wall")
            if tile_from_str(tile) != wall[pos]:
                raise _Bad(f"draw v={e.get('v')} (seat {e.get('seat')}) is not the wall's tile at {pos}")
    if len(dealt) != 4:
        raise _Bad("not every seat was dealt")


def verify_events(events: Sequence[Event]) -> VerifyReport:
    """Verify every hand of a log (or of several logs concatenated)."""
    report = VerifyReport()
    start: Event | None = None
    body: list[Event] = []
    count = 0
    match_no = 0
    label = ""
    for e in events:
        t = e["type"]
        if t == "start_match":
            match_no += 1
        if t == "start_hand":
            if start is not None:
                report.unfinished.append(label)
            count += 1
            where: Any = f"match {match_no}, " if match_no else ""
            label = f"hand #{count} ({where}hand {e.get('hand')}, event v={e.get('v')})"
            start = e
            body = []
        elif t == "end_hand":
            if start is None:
                report.hands.append(HandCheck(f"end_hand v={e.get('v')}", False, "end_hand without start_hand"))
                continue
            try:
                _check_hand(start, body, e)
                report.hands.append(HandCheck(label, True))
            except _Bad as exc:
                report.hands.append(HandCheck(label, False, str(exc)))
            except (ValueError, KeyError, TypeError) as exc:
                report.hands.append(HandCheck(label, False, f"malformed hand: {exc}"))
            start = None
        elif start is not None:
            body.append(e)
    if start is not None:
        report.unfinished.append(label)
    return report
