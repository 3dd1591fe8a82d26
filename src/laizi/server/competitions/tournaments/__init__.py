"""Tournaments (比赛): Swiss rounds of tables of four, optional duplicate deals (docs/tournaments.md).

Their tables are declared in :mod:`laizi.server.persistence.tournamentdb`; their routes
are :mod:`laizi.server.net.tournamentapi`.
"""

from __future__ import annotations
