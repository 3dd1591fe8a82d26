"""The game engine: hand state machine, match, events, fair shuffle, replay.

Driving a game::

    from laizi.game import Match, Action
    from laizi.rules import RuleSet

    m = Match(RuleSet.preset("kaikoufan"))
    while not m.over:
        for seat in m.to_act():
            legal = m.legal_actions(seat)
            m.apply(seat, legal[0])
"""

from laizi.game.actions import ACTION_TYPES, PASS, TSUMO, Action, ActionType
from laizi.game.errors import (
    GameError,
    IllegalActionError,
    LogError,
    MatchOverError,
    ReplayError,
)
from laizi.game.events import Event, project
from laizi.game.match import Match
from laizi.game.state import HandState, Phase
from laizi.game.wall import arrange_wall, commitment, derive_wall, hand_seed, new_seed

__all__ = [
    "ACTION_TYPES", "PASS", "TSUMO", "Action", "ActionType", "Event", "GameError", "HandState",
    "IllegalActionError", "LogError", "Match", "MatchOverError", "Phase", "ReplayError",
    "arrange_wall", "commitment", "derive_wall", "hand_seed", "new_seed", "project",
]
