"""Who plays: guest and account identities (tokens, sessions), accounts and passwords,
profiles and figures, ratings (the store's rating hook), avatars."""

from __future__ import annotations
