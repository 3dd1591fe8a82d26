"""Clubs (亲友圈): a host gathers friends, fixes the house rules once (rule templates), opens
tables for them and keeps a ranking per season — membership, roles, templates and the
ranking here (:mod:`laizi.server.clubs.service`); the tables are opened through the room
machinery by the routes (:mod:`laizi.server.net.clubapi`). ``docs/clubs.md``."""
