"""The game engine: hand state machine, match, events, fair shuffle, replay.

Driving a game::

    from laizi.game import Match, Action
    from laizi.rules import RuleSet

    m = Match(RuleSet.preset("kaikoufan"))
    while not m.over:
        for seat in m.to_act():
            legal = m.legal_actions(seat)
            m.apply(seat, legal[0])

Actions have a text form (``Action.parse("chi 345m")`` / ``str(action)``); errors are
specific :class:`ValueError` subclasses (:mod:`laizi.errors`); the 23 event kinds and
their fields are in :mod:`laizi.game.events`.
"""

from laizi.game.actions import ACTION_TYPES, DRAW, NODRAW, PASS, TSUMO, Action, ActionType
from laizi.game.enums import DrawReason, EndReason, Phase
from laizi.game.errors import (
    ActionError,
    ActionParseError,
    GameError,
    IllegalActionError,
    LogError,
    MatchOverError,
    ReplayError,
    WallError,
)
from laizi.game.events import EVENT_SCHEMAS, EVENT_TYPES, AnyEvent, Event, EventType, project
from laizi.game.match import Match
from laizi.game.state import HandState
from laizi.game.wall import arrange_wall, commitment, derive_wall, hand_seed, new_seed
from laizi.game.wincheck import WinCheck

__all__ = [
    "ACTION_TYPES", "DRAW", "EVENT_SCHEMAS", "EVENT_TYPES", "NODRAW", "PASS", "TSUMO", "Action",
    "ActionError", "ActionParseError", "ActionType", "AnyEvent", "DrawReason", "EndReason", "Event",
    "EventType", "GameError", "HandState", "IllegalActionError", "LogError", "Match",
    "MatchOverError", "Phase", "ReplayError", "WallError", "WinCheck", "arrange_wall",
    "commitment", "derive_wall", "hand_seed", "new_seed", "project",
]
