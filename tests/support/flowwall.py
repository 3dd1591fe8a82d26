"""The fixed test wall of the flow tests: a room seed (``settings.seed``, announced) on which
the human at seat 0, playing against bots of one level, is offered a claim (碰/吃) and later a
win — found by search, replaying exactly what the server does (the same :class:`GameSession`,
the same seat bots with the same seeds).

Seat 0's moves are those of a greedy bot (seeded here) except that it takes every claim and
every win it is offered; :func:`plan` returns them in order, so a browser test can make
exactly these moves by tapping and the bots (deterministic given the room seed) answer the
same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from laizi.game import Action
from laizi.server.common.config import room_rules
from laizi.server.common.protocol import RoomSettings
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.room import _bot_seed
from laizi.server.tables.seats import SeatBot

CLAIMS = ("peng", "chi")
WINS = ("ron", "tsumo")
LEVEL = "greedy"


@dataclass
class Plan:
    seed: str
    moves: list[dict[str, Any]]       # seat 0's actions of hand 1, in order
    claim_at: int                     # index in moves of the first claim taken
    win_at: int                       # index of the win


def _kind(a: Action) -> str:
    return str(a.to_json()["type"])


def simulate(seed_text: str, level: str = LEVEL, max_steps: int = 2000) -> Plan | None:
    """Hand 1 of a room with ``settings.seed = seed_text``; a Plan when seat 0 claims and wins."""
    settings = RoomSettings(seed=seed_text, max_hands=2, claim_seconds=8, turn_seconds=20)  # the lobby form's
    seed = seed_from_text(seed_text)
    g = GameSession(room_rules(settings), seed, max_hands=settings.max_hands)
    bots = {i: SeatBot(level, _bot_seed(seed, i)) for i in (1, 2, 3)}
    me = SeatBot(level, 12345)
    moves: list[dict[str, Any]] = []
    claim_at = -1
    for _ in range(max_steps):
        if g.hand_over:
            break
        acting = g.to_act()
        s = acting[0]
        if s != 0:
            g.act(s, bots[s].choose(g, s))
            continue
        legal = g.legal(0)
        choice = me.choose(g, 0)
        kinds = {_kind(a): a for a in legal}
        pick = next((kinds[k] for k in (*WINS, *CLAIMS) if k in kinds), choice)
        if _kind(pick) in CLAIMS and claim_at < 0:
            if sum(1 for a in legal if _kind(a) == _kind(pick)) > 1:
                return None  # keep the wall simple: one way to claim
            claim_at = len(moves)
        moves.append(pick.to_json())
        g.act(0, pick)
    if not g.hand_over or not moves or _kind(Action.from_json(moves[-1])) not in WINS or claim_at < 0:
        return None
    return Plan(seed_text, moves, claim_at, len(moves) - 1)


def find(prefix: str = "flow-wall-", tries: int = 400, level: str = LEVEL) -> Plan:
    for i in range(tries):
        p = simulate(f"{prefix}{i}", level)
        if p is not None:
            return p
    raise AssertionError(f"no fixed wall found in {tries} seeds")
