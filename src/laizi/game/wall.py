"""The fair shuffle (RULES.md §10): seeded wall, commitment, and hand-built walls.

Anyone can re-derive a wall from its seed:

1. **Random stream.** Block *i* (i = 0, 1, 2, …) is
   ``HMAC-SHA256(key=seed, msg=b"laizi-wall-v1" + i as 8 bytes big-endian)``;
   the stream is the concatenation of the blocks, read as big-endian unsigned
   32-bit integers.
2. **Shuffle.** Start from the 136 tiles sorted by kind (``0,0,0,0,1,1,1,1,…,33``,
   kinds as in :mod:`laizi.tiles`). For ``i`` from 135 down to 1: take the next
   stream integer ``u``, reject it while ``u >= 2**32 - (2**32 % (i + 1))``
   (no modulo bias), set ``j = u % (i + 1)`` and swap positions ``i`` and ``j``
   (Fisher-Yates).
3. **Commitment.** ``SHA-256(b"laizi-wall-v1" + seed + bytes(wall))`` as hex,
   where ``bytes(wall)`` is the 136 kinds as one byte each. It is published in
   the ``start_hand`` event; the seed (and the wall) are revealed in ``end_hand``.

Seeds are 32 bytes from :func:`secrets.token_bytes`, or derived from a match seed
with :func:`hand_seed` for reproducible simulations.

**Layout of a hand** (:mod:`laizi.game.state`): the dealer takes ``wall[0:14]``,
then its 下家 ``wall[14:27]``, the next ``wall[27:40]``, the last ``wall[40:53]``;
``wall[53]`` is the indicator; normal draws take ``wall[54]``, ``wall[55]``, … from
the front; replacement draws take ``wall[135]``, ``wall[134]``, … from the back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from laizi.errors import WallError
from laizi.tiles import NUM_KINDS, TILE_STR, Tile, parse_tiles

__all__ = [
    "DEAD_START", "HAND_SIZES_OFFSET", "INDICATOR_POS", "LIVE_START", "WALL_SIZE",
    "arrange_wall", "commitment", "derive_wall", "deal_slices", "hand_seed", "new_seed",
    "wall_from_str", "wall_to_str",
]

WALL_SIZE: Final = 136
INDICATOR_POS: Final = 53
LIVE_START: Final = 54
DEAD_START: Final = 135
HAND_SIZES_OFFSET: Final = (0, 14, 27, 40)  # dealer, 下家, 对家, 上家
_DOMAIN: Final = b"laizi-wall-v1"
_TILE_STR = TILE_STR  # old private name
_SORTED: Final = tuple(k for k in range(NUM_KINDS) for _ in range(4))
# rejection bound of the unbiased draw from n: the largest multiple of n below 2**32
_LIMIT: Final = tuple((1 << 32) - ((1 << 32) % n) if n else 0 for n in range(WALL_SIZE + 1))


def new_seed() -> bytes:
    """A fresh 32-byte seed from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def hand_seed(match_seed: bytes, hand_no: int) -> bytes:
    """The seed of hand ``hand_no`` of a reproducible match: HMAC-SHA256(match_seed, b"hand" + n)."""
    return hmac.digest(match_seed, b"hand" + hand_no.to_bytes(8, "big"), "sha256")


def derive_wall(seed: bytes) -> tuple[int, ...]:
    """The 136-tile wall (kinds) for a seed (module docstring, steps 1-2)."""
    tiles = list(_SORTED)
    words: list[int] = []
    block = 0
    pos = 0

    def more(count: int) -> None:  # the next HMAC blocks as big-endian 32-bit words
        nonlocal block
        data = b"".join([
            hmac.digest(seed, _DOMAIN + b.to_bytes(8, "big"), "sha256")
            for b in range(block, block + count)
        ])
        block += count
        words.extend(struct.unpack(f">{8 * count}I", data))

    for i in range(WALL_SIZE - 1, 0, -1):
        n = i + 1
        limit = _LIMIT[n]
        while True:
            if pos == len(words):
                more(18 if not block else 2)  # 135 draws, a few rejected
            u = words[pos]
            pos += 1
            if u < limit:
                break
        j = u % n
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tuple(tiles)


def commitment(seed: bytes | None, wall: Sequence[int]) -> str:
    """SHA-256 hex of the domain tag, the seed (empty for a hand-built wall) and the wall."""
    return hashlib.sha256(_DOMAIN + (seed or b"") + bytes(wall)).hexdigest()


def deal_slices(dealer: int) -> dict[int, tuple[int, int]]:
    """Wall slice (start, end) dealt to each seat."""
    ends = (14, 27, 40, 53)
    return {(dealer + i) % 4: (HAND_SIZES_OFFSET[i], ends[i]) for i in range(4)}


def wall_to_str(wall: Sequence[int]) -> str:
    """The wall in order, two characters per tile: ``"5m1z9p…"``."""
    return "".join([TILE_STR[k] for k in wall])


def wall_from_str(text: str) -> tuple[int, ...]:
    tiles = tuple(t.index for t in parse_tiles(text))
    check_wall(tiles)
    return tiles


def check_wall(wall: Sequence[int]) -> None:
    if len(wall) != WALL_SIZE:
        raise WallError(f"a wall has {WALL_SIZE} tiles, got {len(wall)}")
    counts = [0] * NUM_KINDS
    for k in wall:
        counts[k] += 1
    bad = [k for k in range(NUM_KINDS) if counts[k] != 4]
    if bad:
        raise WallError(f"a wall holds four of each kind; {Tile(bad[0])} appears {counts[bad[0]]} times")


def _tiles(spec: str | Iterable[int]) -> list[int]:
    if isinstance(spec, str):
        return [t.index for t in parse_tiles(spec)]
    return [int(t) for t in spec]


def arrange_wall(
    hands: Sequence[str | Iterable[int]],
    indicator: str | int,
    *,
    dealer: int = 0,
    front: str | Iterable[int] = "",
    back: str | Iterable[int] = "",
    at: Mapping[int, str | int] | None = None,
) -> tuple[int, ...]:
    """Build a wall for a scenario: ``hands[s]`` is seat *s*'s deal (14 tiles for the
    dealer, 13 for the others, or fewer: the rest is filled), ``front`` the next normal
    draws in order, ``back`` the replacement draws in order, ``at`` tiles at absolute
    wall positions (e.g. ``{122: "5s"}``: the first haidi tile when no kong was made).
    Unnamed tiles fill the remaining places in kind order.
    """
    counts = [4] * NUM_KINDS
    def take(ts: list[int]) -> list[int]:
        for t in ts:
            counts[t] -= 1
            if counts[t] < 0:
                raise WallError(f"arrange_wall: more than four {Tile(t)}")
        return ts

    seat_tiles = [take(_tiles(h)) for h in hands]
    while len(seat_tiles) < 4:
        seat_tiles.append([])
    ind = take([indicator if isinstance(indicator, int) else Tile.parse(indicator).index])
    fr = take(_tiles(front))
    bk = take(_tiles(back))
    fixed: dict[int, int] = {}
    for pos, t in (at or {}).items():
        if not LIVE_START <= pos <= DEAD_START:
            raise WallError(f"arrange_wall: position {pos} is not in the live wall")
        fixed[pos] = take([t if isinstance(t, int) else Tile.parse(t).index])[0]
    pool = [k for k in range(NUM_KINDS) for _ in range(counts[k])]
    # Fill the hands first from the pool's end (so fronts drawn later stay predictable).
    wall: list[int] = [0] * WALL_SIZE
    slices = deal_slices(dealer)
    for seat in range(4):
        a, b = slices[seat]
        need = (b - a) - len(seat_tiles[seat])
        if need < 0:
            raise WallError(f"arrange_wall: seat {seat} gets {b - a} tiles, {len(seat_tiles[seat])} given")
        fill = [pool.pop() for _ in range(need)]
        wall[a:b] = seat_tiles[seat] + fill
    wall[INDICATOR_POS] = ind[0]
    free = [p for p in range(LIVE_START, DEAD_START + 1) if p not in fixed]
    if len(fr) + len(bk) > len(free):
        raise WallError("arrange_wall: too many front/back tiles")
    back_pos = free[len(free) - len(bk):][::-1] if bk else []
    for p, t in zip(back_pos, bk, strict=True):
        wall[p] = t
    rest = fr + pool
    for p, t in zip(free[: len(free) - len(bk)], rest, strict=True):
        wall[p] = t
    for p, t in fixed.items():
        wall[p] = t
    check_wall(wall)
    return tuple(wall)
