"""Players among players: friends, invitations, presence (who is online, and where)."""

from __future__ import annotations
