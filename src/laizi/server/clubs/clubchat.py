"""Club chat (亲友圈聊天): a chat channel of the club's members, in the club lobby.

``GET /api/clubs/{id}/chat[?after=N]``: the messages after id ``N`` (oldest first; at most
:data:`PAGE` — the newest of them), without the players the caller muted
(:class:`laizi.server.clubs.etiquette.Mutes`); ``POST /api/clubs/{id}/chat {text}``: say
something. Members only (owner, admin, member: a stranger, a pending or invited player
and a guest are refused, even at a public club). The text is checked like table chat
(:func:`laizi.server.common.chat.clean_text`: :data:`~laizi.server.common.chat.MAX_CHARS`
characters) and shares the player's chat budget with the tables
(:data:`laizi.server.guard.limits.CHAT`: 5 messages per 10 s, the whole cluster); each club
keeps its newest :data:`KEEP` messages. The page polls (every few seconds): no socket.
"""

from __future__ import annotations

import asyncio
from datetime import UTC
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from laizi.server.clubs.fields import MEMBER_ROLES, ClubError
from laizi.server.common.chat import RATE_COUNT, RATE_WINDOW, ChatError, clean_text
from laizi.server.guard.limits import CHAT
from laizi.server.persistence import db
from laizi.server.persistence.etiquettedb import ChatMuteRow, ClubChatRow

if TYPE_CHECKING:
    from laizi.server.clubs.service import Clubs

__all__ = ["KEEP", "PAGE", "ClubChat"]

PAGE = 50     # messages one read returns at most
KEEP = 500    # messages a club keeps (the older ones are deleted)


class ClubChat:
    def __init__(self, clubs: Clubs) -> None:
        self.clubs = clubs

    def _member(self, s: Session, cid: int, pid: str) -> ClubError | None:
        got = self.clubs.need_role(s, cid, pid, MEMBER_ROLES)
        return got if isinstance(got, ClubError) else None

    async def read(self, pid: str, cid: int, after: int) -> dict[str, Any]:
        self.clubs.registered(pid)
        nick = self.clubs.site.players

        def run() -> Any:
            with Session(self.clubs.site.store.engine) as s:
                refused = self._member(s, cid, pid)
                if refused is not None:
                    return refused
                muted = select(ChatMuteRow.muted_id).where(ChatMuteRow.player_id == pid)
                rows = list(s.scalars(select(ClubChatRow).where(
                    ClubChatRow.club_id == cid, ClubChatRow.id > after,
                    ClubChatRow.player_id.not_in(muted)).order_by(ClubChatRow.id.desc()).limit(PAGE)))
                names = {p: u for p, u in s.execute(select(
                    db.AccountRow.player_id, db.AccountRow.username).where(
                    db.AccountRow.player_id.in_({r.player_id for r in rows})))}
                return {"messages": [{  # the username, as in the members list (else the nickname)
                    "id": r.id, "player_id": r.player_id,
                    "nickname": names.get(r.player_id) or nick.get(r.player_id, "?"),
                    "text": r.text, "at": (r.created_at if r.created_at.tzinfo else
                                           r.created_at.replace(tzinfo=UTC)).isoformat()}
                    for r in reversed(rows)]}

        out = await asyncio.to_thread(run)
        if isinstance(out, ClubError):
            raise out
        return dict(out)

    async def say(self, pid: str, cid: int, raw: object) -> dict[str, Any]:
        self.clubs.registered(pid)
        try:
            text = clean_text(raw)
        except ChatError as exc:
            raise ClubError(str(exc)) from None

        def check(s: Session) -> ClubError | None:
            return self._member(s, cid, pid)

        await self.clubs.read_check(check)
        wait = await self.clubs.site.limits.hit(CHAT, "chat", pid)  # the table chat's budget
        if wait is not None:
            raise ClubError(f"at most {RATE_COUNT} chat messages per {RATE_WINDOW:g} seconds; "
                            f"wait {wait:.1f} s", 429, wait)

        def write(s: Session) -> Any:
            row = ClubChatRow(club_id=cid, player_id=pid, text=text)
            s.add(row)
            s.flush()
            old = s.scalar(select(ClubChatRow.id).where(ClubChatRow.club_id == cid)
                           .order_by(ClubChatRow.id.desc()).offset(KEEP).limit(1))
            if old is not None:
                s.execute(delete(ClubChatRow).where(ClubChatRow.club_id == cid,
                                                    ClubChatRow.id <= old))
            return {"id": row.id, "text": text}

        return dict(await self.clubs.site.store.writer.write(write))
