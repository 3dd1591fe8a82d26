"""The tables: the hub (rooms in memory, connections' whereabouts, identities), the room
actor (its commands, timers and bots), the seating of a match about to start (the one home
of "seat these players and start"), the room directory interface (one process or a
cluster), the match session over the engine, frames, seats, the match flow, the recorder,
room info, replays and the coin audit."""

from __future__ import annotations
