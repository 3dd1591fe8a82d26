"""The engine's named values: hand phases and end reasons (string enums, so each
compares equal to, and serialises as, its plain string: ``Phase.TURN == "turn"``)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DrawReason", "EndReason", "Phase"]


class Phase(StrEnum):
    """Where a hand is (:attr:`laizi.game.state.HandState.phase`)."""

    TURN = "turn"  #: seat ``turn`` acts on its own turn (after a draw or a chi/peng)
    CLAIM = "claim"  #: seats with a legal claim on ``pending`` answer (claim or pass)
    ROB = "rob"  #: seats that can rob the 蓄杠 of ``pending`` answer
    HAIDI = "haidi"  #: seat ``turn`` drew a haidi tile and may only win or pass
    #: seat ``turn`` declared a kong and chooses: draw its replacement or not (``kong_draw_choice``)
    REPLACE = "replace"
    OVER = "over"  #: the hand ended (``result``, ``payments``)


class EndReason(StrEnum):
    """Why a match ended (the ``end_match`` event's ``reason``)."""

    ROUNDS = "rounds"  #: the deal went round ``rules.match_rounds`` times
    MAX_HANDS = "max_hands"  #: the ``max_hands`` cap was reached
    DISSOLVED = "dissolved"  #: the players ended it by vote (解散, :meth:`Match.dissolve`)


class DrawReason(StrEnum):
    """Why a hand ended without a winner (the ``ryukyoku`` event's ``reason``)."""

    EXHAUSTED = "exhausted"  #: no haidi tile won
    DISSOLVED = "dissolved"  #: the players ended the match by vote (解散) during the hand
