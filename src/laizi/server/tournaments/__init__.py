"""Tournaments (比赛): Swiss rounds of tables of four, optional duplicate deals (docs/tournaments.md).

Importing the package registers its tables on :class:`laizi.server.db.Base` (``model``).
"""

from __future__ import annotations

from laizi.server.tournaments import model as model

__all__ = ["model"]
