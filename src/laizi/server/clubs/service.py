"""The clubs service (亲友圈): clubs, members and roles, rule templates, the ranking.

- Only registered players (accounts) take part: a guest is refused (403).
- Roles: ``owner`` (one; hands the club over with ``transfer``), ``admin`` (approves, rejects,
  invites, kicks members, makes templates), ``member``. ``pending``: asked to join a club
  that wants approval; ``invited``: asked by an owner or admin, until the player accepts.
- Joining: by the club's code (``join``: a member at once, or pending when the club asks for
  approval), or by accepting an invitation (never needs approval).
- A private club (the default) shows its members, tables and ranking to its members only;
  a stranger gets 403.
- Limits (numbers in ``docs/security.md``): :data:`CLUBS_PER_PLAYER` memberships (pending
  and invitations not counted; ``LAIZI_MAX_CLUBS``), :data:`CLUBS_OWNED_PER_PLAYER`,
  :data:`MEMBERS_PER_CLUB` (owner included; ``LAIZI_CLUB_MEMBERS``),
  :data:`PENDING_PER_CLUB`, :data:`TEMPLATES_PER_CLUB`, :data:`JOINS_PER_HOUR` code
  attempts per player (found or not: no guessing codes), :data:`CREATES_PER_DAY`.
- The ranking of a season sums the stored scores of the matches played at the club's
  tables opened in that season (points, matches, hands won / hands played, big hands).
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from laizi.server.clubs.fields import (
    MEMBER_ROLES,
    ClubError,
    bot_level,
    card,
    env_int,
    flag,
    template_settings,
    text_field,
)
from laizi.server.clubs.ranking import player_names, season_opened_tables, season_ranking
from laizi.server.common.chat import RateLimiter
from laizi.server.persistence import db
from laizi.server.persistence.clubdb import ClubMemberRow, ClubRow, ClubTableRow, ClubTemplateRow

if TYPE_CHECKING:
    from laizi.server.accounts.site import Site

__all__ = ["AVATARS", "CLUBS_OWNED_PER_PLAYER", "CLUBS_PER_PLAYER", "CREATES_PER_DAY",
           "JOINS_PER_HOUR", "MEMBERS_PER_CLUB", "OPEN_TABLES_PER_CLUB", "PENDING_PER_CLUB",
           "TEMPLATES_PER_CLUB", "ClubError", "Clubs"]

CLUBS_PER_PLAYER = 10        # clubs a player belongs to (owner, admin or member)
CLUBS_OWNED_PER_PLAYER = 3   # clubs a player owns
MEMBERS_PER_CLUB = 200       # members of a club, its owner included
PENDING_PER_CLUB = 50        # requests to join awaiting approval (and open invitations)
TEMPLATES_PER_CLUB = 10      # rule templates of a club
OPEN_TABLES_PER_CLUB = 20    # club tables not finished at once
JOINS_PER_HOUR = 20          # join-by-code attempts per player per hour
CREATES_PER_DAY = 5          # clubs one player may create per day
NAME_MAX = 24                # characters of a club or template name
DESCRIPTION_MAX = 200        # characters of a description
CODE_LEN = 6
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
AVATARS = ("zhong", "bai", "tong", "tiao", "dice", "tower", "bridge", "noodles", "lotus", "plum",
           "crane", "lantern", "fan", "cat", "panda", "fox")  # accounts.avatars.DRAWN's keys
RANKING_MAX = 200
STAFF = ("owner", "admin")


WriteFn = Callable[[Session], Any]


class Clubs:
    """The clubs of one server (its store, identities and nicknames from ``site``)."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.joins = RateLimiter(JOINS_PER_HOUR, 3600.0)
        self.creates = RateLimiter(CREATES_PER_DAY, 86400.0)
        self.max_clubs = env_int("LAIZI_MAX_CLUBS", CLUBS_PER_PLAYER)
        self.max_members = env_int("LAIZI_CLUB_MEMBERS", MEMBERS_PER_CLUB)
        self.max_pending = env_int("LAIZI_CLUB_PENDING", PENDING_PER_CLUB)
        self.max_tables = env_int("LAIZI_CLUB_TABLES", OPEN_TABLES_PER_CLUB)

    # ------------------------------------------------------------- helpers
    def registered(self, pid: str) -> None:
        if pid not in self.site.auth.accounts:
            raise ClubError("clubs are for registered players: register first (guests cannot "
                            "join or create clubs)", 403, code="clubs_guest")

    async def _write(self, fn: WriteFn) -> Any:
        try:
            out = await self.site.store.writer.write(fn)
        except IntegrityError:  # the same request twice at once (a double tap, two nodes)
            raise ClubError("that changed meanwhile: look again and retry", 409) from None
        if isinstance(out, ClubError):
            raise out
        return out

    async def _read(self, fn: WriteFn) -> Any:
        def run() -> Any:
            with Session(self.site.store.engine) as s:
                return fn(s)

        out = await asyncio.to_thread(run)
        if isinstance(out, ClubError):
            raise out
        return out

    def _nick(self, s: Session, pid: str) -> str:
        """A player's name as stored (made or renamed on another node of a cluster too), else
        as this node knows it, else its username (:func:`player_names`)."""
        return str(player_names(s, [pid], self.site.players.get)[pid]["nickname"])

    @staticmethod
    def _club(s: Session, cid: int) -> ClubRow | ClubError:
        club = s.get(ClubRow, cid)
        return club if club is not None else ClubError(f"no club {cid}", 404, code="no_club")

    @staticmethod
    def _role(s: Session, cid: int, pid: str) -> str | None:
        return s.scalar(select(ClubMemberRow.role).where(ClubMemberRow.club_id == cid,
                                                         ClubMemberRow.player_id == pid))

    @staticmethod
    def _count(s: Session, cid: int, roles: tuple[str, ...]) -> int:
        return s.scalar(select(func.count()).select_from(ClubMemberRow).where(
            ClubMemberRow.club_id == cid, ClubMemberRow.role.in_(roles))) or 0

    def _memberships(self, s: Session, pid: str) -> int:
        return s.scalar(select(func.count()).select_from(ClubMemberRow).where(
            ClubMemberRow.player_id == pid, ClubMemberRow.role.in_(MEMBER_ROLES))) or 0

    def _room_for_member(self, s: Session, pid: str) -> ClubError | None:
        if self._memberships(s, pid) >= self.max_clubs:
            return ClubError(f"you are in {self.max_clubs} clubs already (at most "
                             f"{self.max_clubs}): leave one first", 409)
        return None

    def _room_in_club(self, s: Session, cid: int) -> ClubError | None:
        if self._count(s, cid, MEMBER_ROLES) >= self.max_members:
            return ClubError(f"the club is full (at most {self.max_members} members)", 409, code="club_full", params={"max": self.max_members})
        return None

    def _find_player(self, s: Session, target: object) -> str | ClubError:
        if not isinstance(target, str) or not 0 < len(target.strip()) <= 40:
            return ClubError("name a player: a username or player id (1-40 characters)")
        raw = target.strip()
        key = unicodedata.normalize("NFKC", raw).casefold()
        pid = s.scalar(select(db.AccountRow.player_id).where(
            (db.AccountRow.username_key == key) | (db.AccountRow.player_id == raw)))
        return pid if pid is not None else ClubError(f"no registered player {raw[:40]!r}", 404, code="no_registered_player", params={"name": raw[:40]})

    def _club_json(self, s: Session, club: ClubRow, role: str | None, members: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": club.id, "name": club.name, "avatar": club.avatar,
            "picture": f"/clubs/{club.id}/picture/{club.picture}" if club.picture else None,
            "description": club.description, "private": club.private,
            "approval": club.approval, "bots": club.bots, "season": club.season,
            "ip_warning": bool(club.ip_warning),
            "owner": {"player_id": club.owner_id, "nickname": self._nick(s, club.owner_id)},
            "members": members, "role": role}
        if role in MEMBER_ROLES:
            out["code"] = club.code  # a member may pass the code on
        return out

    def visible(self, s: Session, cid: int, pid: str) -> tuple[ClubRow, str | None] | ClubError:
        """The club and the caller's role, if the caller may see its tables, members and
        ranking: a member, or anyone for a club that is not private."""
        club = self._club(s, cid)
        if isinstance(club, ClubError):
            return club
        role = self._role(s, cid, pid)
        if club.private and role not in MEMBER_ROLES:
            return ClubError("this club is private: its members only", 403, code="club_private")
        return club, role

    def need_role(self, s: Session, cid: int, pid: str,
                  roles: tuple[str, ...]) -> tuple[ClubRow, str] | ClubError:
        club = self._club(s, cid)
        if isinstance(club, ClubError):
            return club
        role = self._role(s, cid, pid)
        if role not in roles:
            who = {("owner",): "the club's owner", STAFF: "the club's owner or an admin"}.get(
                roles, "a member of the club")
            return ClubError(f"only {who} may do that", 403)
        return club, role

    async def read(self, fn: WriteFn) -> Any:
        """``fn`` on a read session (a ClubError it answers is raised): the clubs' other parts."""
        return await self._read(fn)

    async def write(self, fn: WriteFn) -> Any:
        """``fn`` in a write (a ClubError it answers is raised)."""
        return await self._write(fn)

    async def read_check(self, fn: WriteFn) -> None:
        """Run ``fn`` (a check that answers a :class:`ClubError` or None) on a read session."""
        await self._read(fn)

    async def member(self, pid: str, cid: int, what: str = "that") -> None:
        """Refused (403, 404) unless ``pid`` is a member (owner, admin, member) of the club."""
        self.registered(pid)

        def check(s: Session) -> ClubError | None:
            club = self._club(s, cid)
            if isinstance(club, ClubError):
                return club
            if self._role(s, cid, pid) not in MEMBER_ROLES:
                return ClubError(f"{what} is for the club's members only", 403)
            return None

        await self._read(check)

    async def sees(self, pid: str | None, cid: int) -> None:
        """Refused (403, 404) unless ``pid`` may see the club's tables and events: a member,
        or anyone (a guest too) for a club that is not private."""
        def check(s: Session) -> ClubError | None:
            club = self._club(s, cid)
            if isinstance(club, ClubError):
                return club
            if club.private and (pid is None or self._role(s, cid, pid) not in MEMBER_ROLES):
                return ClubError("this club is private: its members only", 403, code="club_private")
            return None

        await self._read(check)

    async def staff(self, pid: str, cid: int) -> None:
        """Refused (:class:`ClubError` 403/404) unless ``pid`` is the club's owner or an admin."""
        self.registered(pid)
        await self._read(lambda s: self.need_role(s, cid, pid, STAFF))

    # ------------------------------------------------------------- clubs
    async def create(self, pid: str, d: dict[str, Any]) -> dict[str, Any]:
        self.registered(pid)
        name = text_field(d.get("name"), "name", NAME_MAX, required=True)
        description = text_field(d.get("description"), "description", DESCRIPTION_MAX, required=False)
        avatar = d.get("avatar", AVATARS[0])
        if avatar not in AVATARS:
            raise ClubError(f"avatar must be one of the drawn set ({', '.join(AVATARS)})")
        approval = flag(d.get("approval"), "approval", False)
        private = flag(d.get("private"), "private", True)
        ip_warning = flag(d.get("ip_warning"), "ip_warning", False)
        bots = bot_level(d.get("bots"))
        if not self.creates.allow(pid):
            raise ClubError(f"at most {CREATES_PER_DAY} new clubs per day", 429,
                            self.creates.retry_after(pid))

        def write(s: Session) -> Any:
            owned = s.scalar(select(func.count()).select_from(ClubRow).where(
                ClubRow.owner_id == pid)) or 0
            if owned >= CLUBS_OWNED_PER_PLAYER:
                return ClubError(f"you own {CLUBS_OWNED_PER_PLAYER} clubs already (at most "
                                 f"{CLUBS_OWNED_PER_PLAYER})", 409)
            full = self._room_for_member(s, pid)
            if full is not None:
                return full
            for _ in range(20):
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LEN))
                if s.scalar(select(ClubRow.id).where(ClubRow.code == code)) is None:
                    break
            club = ClubRow(name=name, avatar=avatar, description=description, code=code,
                           owner_id=pid, approval=approval, private=private, bots=bots,
                           ip_warning=ip_warning)
            s.add(club)
            s.flush()
            s.add(ClubMemberRow(club_id=club.id, player_id=pid, role="owner"))
            return self._club_json(s, club, "owner", 1)

        return dict(await self._write(write))

    async def mine(self, pid: str) -> dict[str, Any]:
        """The caller's clubs, its invitations and its requests awaiting approval."""
        self.registered(pid)

        def read(s: Session) -> dict[str, Any]:
            rows = s.execute(select(ClubRow, ClubMemberRow.role).join(
                ClubMemberRow, ClubMemberRow.club_id == ClubRow.id).where(
                ClubMemberRow.player_id == pid).order_by(ClubRow.id)).all()
            out: dict[str, Any] = {"clubs": [], "invited": [], "pending": []}
            for club, role in rows:
                n = self._count(s, club.id, MEMBER_ROLES)
                key = "clubs" if role in MEMBER_ROLES else role
                out[key].append(self._club_json(s, club, role, n))
            out["limits"] = {"clubs": self.max_clubs, "owned": CLUBS_OWNED_PER_PLAYER,
                             "members": self.max_members}
            return out

        return dict(await self._read(read))

    async def show(self, pid: str, cid: int) -> dict[str, Any]:
        """A club's card with its templates: members see everything; a stranger sees a club
        that is not private, or one it is invited to or asked to join."""
        self.registered(pid)

        def read(s: Session) -> Any:
            club = self._club(s, cid)
            if isinstance(club, ClubError):
                return club
            role = self._role(s, cid, pid)
            if club.private and role is None:
                return ClubError("this club is private: its members only", 403, code="club_private")
            out = self._club_json(s, club, role, self._count(s, cid, MEMBER_ROLES))
            out["templates"] = [self._template_json(t) for t in s.scalars(
                select(ClubTemplateRow).where(ClubTemplateRow.club_id == cid)
                .order_by(ClubTemplateRow.id))]
            if role in STAFF:
                out["requests"] = self._count(s, cid, ("pending",))
            return out

        return dict(await self._read(read))

    async def configure(self, pid: str, cid: int, d: dict[str, Any]) -> dict[str, Any]:
        """The owner changes the club's name, avatar, description, approval, privacy, bots."""
        self.registered(pid)
        changes: dict[str, Any] = {}
        if "name" in d:
            changes["name"] = text_field(d["name"], "name", NAME_MAX, required=True)
        if "description" in d:
            changes["description"] = text_field(d["description"], "description", DESCRIPTION_MAX,
                                           required=False)
        if "avatar" in d:
            if d["avatar"] not in AVATARS:
                raise ClubError(f"avatar must be one of the drawn set ({', '.join(AVATARS)})")
            changes["avatar"] = d["avatar"]
        for key in ("approval", "private", "ip_warning"):
            if key in d:
                changes[key] = flag(d[key], key, False)
        if "bots" in d:
            changes["bots"] = bot_level(d["bots"])

        def write(s: Session) -> Any:
            got = self.need_role(s, cid, pid, ("owner",))
            if isinstance(got, ClubError):
                return got
            club = got[0]
            for k, v in changes.items():
                setattr(club, k, v)
            return self._club_json(s, club, "owner", self._count(s, cid, MEMBER_ROLES))

        return dict(await self._write(write))

    # ------------------------------------------------------------- joining
    async def join(self, pid: str, code: object) -> dict[str, Any]:
        """Join by the club's code: a member at once, or a request when it wants approval."""
        self.registered(pid)
        if not self.joins.allow(pid):
            raise ClubError(f"at most {JOINS_PER_HOUR} join attempts per hour", 429,
                            self.joins.retry_after(pid))
        if not isinstance(code, str) or not 0 < len(code.strip()) <= CODE_LEN + 2:
            raise ClubError(f"code must be the club's {CODE_LEN}-character code")
        key = code.strip().upper()

        def write(s: Session) -> Any:
            club = s.scalar(select(ClubRow).where(ClubRow.code == key))
            if club is None:
                return ClubError(f"no club with code {key!r}", 404)
            row = s.scalar(select(ClubMemberRow).where(ClubMemberRow.club_id == club.id,
                                                       ClubMemberRow.player_id == pid))
            if row is not None and row.role in MEMBER_ROLES:
                return ClubError("you are a member of this club already", 409, code="club_member_already")
            if row is not None and row.role == "pending":
                return ClubError("your request awaits the owner's approval", 409, code="club_request_waiting")
            refusal = self._room_for_member(s, pid) or self._room_in_club(s, club.id)
            if refusal is not None:
                return refusal
            if row is not None:  # invited: the code is as good as accepting
                row.role = "member"
            elif club.approval:
                if self._count(s, club.id, ("pending", "invited")) >= self.max_pending:
                    return ClubError(f"the club has {self.max_pending} requests waiting "
                                     "already; try later", 409)
                s.add(ClubMemberRow(club_id=club.id, player_id=pid, role="pending"))
            else:
                s.add(ClubMemberRow(club_id=club.id, player_id=pid, role="member"))
            s.flush()
            role = self._role(s, club.id, pid)
            return {"club": self._club_json(s, club, role, self._count(s, club.id, MEMBER_ROLES)),
                    "status": role}

        return dict(await self._write(write))

    async def answer_invite(self, pid: str, cid: int, accept: bool) -> dict[str, Any]:
        self.registered(pid)

        def write(s: Session) -> Any:
            row = s.scalar(select(ClubMemberRow).where(ClubMemberRow.club_id == cid,
                                                       ClubMemberRow.player_id == pid))
            if row is None or row.role != "invited":
                return ClubError("no invitation to this club", 404, code="club_no_invitation")
            if not accept:
                s.delete(row)
                return {"ok": True, "status": None}
            refusal = self._room_for_member(s, pid) or self._room_in_club(s, cid)
            if refusal is not None:
                return refusal
            row.role = "member"
            return {"ok": True, "status": "member"}

        return dict(await self._write(write))

    async def leave(self, pid: str, cid: int) -> dict[str, Any]:
        self.registered(pid)

        def write(s: Session) -> Any:
            row = s.scalar(select(ClubMemberRow).where(ClubMemberRow.club_id == cid,
                                                       ClubMemberRow.player_id == pid))
            if row is None:
                return ClubError("you are not in this club", 404, code="club_not_member")
            if row.role == "owner":
                return ClubError("the owner cannot leave: hand the club over first (transfer)", 409)
            s.delete(row)
            return {"ok": True}

        return dict(await self._write(write))

    # ------------------------------------------------------------- members
    async def members(self, pid: str, cid: int) -> dict[str, Any]:
        self.registered(pid)

        def read(s: Session) -> Any:
            got = self.visible(s, cid, pid)
            if isinstance(got, ClubError):
                return got
            club, role = got
            rows = s.scalars(select(ClubMemberRow).where(ClubMemberRow.club_id == cid)
                             .order_by(ClubMemberRow.id)).all()
            names = player_names(s, [r.player_id for r in rows], self.site.players.get)
            order = {"owner": 0, "admin": 1, "member": 2, "pending": 3, "invited": 4}

            def one(r: ClubMemberRow) -> dict[str, Any]:
                return {"player_id": r.player_id, **names[r.player_id], "role": r.role,
                        "since": r.created_at.isoformat()}

            staff = role in STAFF
            return {"club": club.id, "role": role,
                    "members": [one(r) for r in sorted(rows, key=lambda r: order[r.role])
                                if r.role in MEMBER_ROLES],
                    "pending": [one(r) for r in rows if r.role == "pending"] if staff else [],
                    "invited": [one(r) for r in rows if r.role == "invited"] if staff else [],
                    "limit": self.max_members}

        return dict(await self._read(read))

    async def manage(self, pid: str, cid: int, action: object, target: object,
                     role: object = None) -> dict[str, Any]:
        """``approve`` | ``reject`` a request, ``invite`` a player, ``kick`` a member (owner,
        or an admin for members), ``role`` (the owner makes a member ``admin`` or back),
        ``transfer`` (the owner hands the club over to a member; it stays as an admin)."""
        self.registered(pid)
        acts = ("approve", "reject", "invite", "kick", "role", "transfer")
        if action not in acts:
            raise ClubError(f"action must be one of {', '.join(acts)}")
        if action == "role" and role not in ("admin", "member"):
            raise ClubError("role must be admin or member")
        needs = ("owner",) if action in ("role", "transfer") else STAFF

        def write(s: Session) -> Any:
            got = self.need_role(s, cid, pid, needs)
            if isinstance(got, ClubError):
                return got
            club, mine = got
            who = self._find_player(s, target)
            if isinstance(who, ClubError):
                return who
            if who == pid:
                return ClubError("not on yourself (leave the club instead)", 400)
            row = s.scalar(select(ClubMemberRow).where(ClubMemberRow.club_id == cid,
                                                       ClubMemberRow.player_id == who))
            if action == "invite":
                if row is not None:
                    return ClubError(f"that player is {row.role} of this club already", 409)
                if self._count(s, cid, ("pending", "invited")) >= self.max_pending:
                    return ClubError(f"at most {self.max_pending} open requests and "
                                     "invitations per club", 409)
                s.add(ClubMemberRow(club_id=cid, player_id=who, role="invited", invited_by=pid))
                return {"ok": True, "player_id": who, "role": "invited"}
            if action in ("approve", "reject"):
                if row is None or row.role != "pending":
                    return ClubError("no request from that player", 404)
                if action == "reject":
                    s.delete(row)
                    return {"ok": True, "player_id": who, "role": None}
                refusal = self._room_in_club(s, cid) or self._room_for_member(s, who)
                if refusal is not None:
                    return refusal
                row.role = "member"
                return {"ok": True, "player_id": who, "role": "member"}
            if row is None or row.role not in MEMBER_ROLES:
                return ClubError("that player is not a member of this club", 404)
            if action == "kick":
                if row.role == "owner" or (row.role == "admin" and mine != "owner"):
                    return ClubError("only the owner may remove an admin (and nobody the owner)", 403)
                s.delete(row)
                return {"ok": True, "player_id": who, "role": None}
            if action == "role":
                row.role = str(role)
                return {"ok": True, "player_id": who, "role": row.role}
            me = s.scalar(select(ClubMemberRow).where(ClubMemberRow.club_id == cid,
                                                      ClubMemberRow.player_id == pid))
            owned = s.scalar(select(func.count()).select_from(ClubRow).where(
                ClubRow.owner_id == who)) or 0
            if owned >= CLUBS_OWNED_PER_PLAYER:
                return ClubError(f"that player owns {CLUBS_OWNED_PER_PLAYER} clubs already", 409)
            assert me is not None
            me.role, row.role, club.owner_id = "admin", "owner", who
            return {"ok": True, "player_id": who, "role": "owner"}

        return dict(await self._write(write))

    # ------------------------------------------------------------- templates
    @staticmethod
    def _template_json(t: ClubTemplateRow) -> dict[str, Any]:
        return {"id": t.id, "name": t.name, "settings": t.settings,
                "card": card(t.settings), "card_en": card(t.settings, "en")}

    async def add_template(self, pid: str, cid: int, d: dict[str, Any]) -> dict[str, Any]:
        self.registered(pid)
        name = text_field(d.get("name"), "name", NAME_MAX, required=True)
        settings = template_settings(d.get("settings"))
        stored = settings.model_dump(mode="json", exclude={"seed", "private", "rated", "bots_fill", "club"},
                                     exclude_none=True)

        def write(s: Session) -> Any:
            got = self.need_role(s, cid, pid, STAFF)
            if isinstance(got, ClubError):
                return got
            n = s.scalar(select(func.count()).select_from(ClubTemplateRow).where(
                ClubTemplateRow.club_id == cid)) or 0
            if n >= TEMPLATES_PER_CLUB:
                return ClubError(f"at most {TEMPLATES_PER_CLUB} templates per club: "
                                 "delete one first", 409)
            t = ClubTemplateRow(club_id=cid, name=name, settings=stored)
            s.add(t)
            s.flush()
            return self._template_json(t)

        return dict(await self._write(write))

    async def delete_template(self, pid: str, cid: int, tid: int) -> dict[str, Any]:
        self.registered(pid)

        def write(s: Session) -> Any:
            got = self.need_role(s, cid, pid, STAFF)
            if isinstance(got, ClubError):
                return got
            t = s.get(ClubTemplateRow, tid)
            if t is None or t.club_id != cid:
                return ClubError(f"no template {tid} in this club", 404)
            s.delete(t)
            return {"ok": True}

        return dict(await self._write(write))

    async def template_for_table(self, pid: str, cid: int, tid: object) -> dict[str, Any]:
        """The club's bots and season and a template's settings, for a member opening a table (checks the
        open-table limit too)."""
        self.registered(pid)
        if isinstance(tid, bool) or not isinstance(tid, int) or not 1 <= tid <= 2**31 - 1:
            raise ClubError("template must be a template id")  # (2**63: a 500 from the database)

        def read(s: Session) -> Any:
            got = self.need_role(s, cid, pid, MEMBER_ROLES)
            if isinstance(got, ClubError):
                return got
            t = s.get(ClubTemplateRow, tid)
            if t is None or t.club_id != cid:
                return ClubError(f"no template {tid} in this club", 404)
            if len(self._open_tables(s, cid)) >= self.max_tables:
                return ClubError(f"at most {self.max_tables} open tables per club", 409)
            return {"bots": got[0].bots, "season": got[0].season, "template": t.id,
                    "ip_warning": bool(got[0].ip_warning),
                    "settings": dict(t.settings), "nickname": self._seat_name(s, pid)}

        return dict(await self._read(read))

    async def note_table(self, cid: int, code: str, tid: int | None, pid: str, season: int) -> None:
        await self._write(lambda s: s.add(ClubTableRow(room_code=code, club_id=cid, template_id=tid,
                                                       season=season, opened_by=pid)))

    # ------------------------------------------------------------- tables
    @staticmethod
    def _open_tables(s: Session, cid: int) -> list[tuple[ClubTableRow, db.RoomRow]]:
        rows = s.execute(select(ClubTableRow, db.RoomRow).join(
            db.RoomRow, db.RoomRow.code == ClubTableRow.room_code).where(
            ClubTableRow.club_id == cid, db.RoomRow.status.in_(("lobby", "playing")))
            .order_by(ClubTableRow.created_at)).all()
        return [(t, r) for t, r in rows]

    async def tables(self, pid: str, cid: int) -> dict[str, Any]:
        """The club's open tables (lobby or playing) with their seats and rule cards."""
        self.registered(pid)

        def read(s: Session) -> Any:
            got = self.visible(s, cid, pid)
            if isinstance(got, ClubError):
                return got
            names = {t.id: t.name for t in s.scalars(select(ClubTemplateRow).where(
                ClubTemplateRow.club_id == cid))}
            out = []
            for t, r in self._open_tables(s, cid):
                seats = [{"player_id": x.get("player_id"), "bot": x.get("bot"),
                          "nickname": x.get("nickname")} if x and (x.get("player_id") or x.get("bot"))
                         else None for x in (r.seats or [])]
                out.append({"code": r.code, "status": r.status, "template": t.template_id,
                            "template_name": names.get(t.template_id or 0),
                            "opened_by": t.opened_by, "seats": seats,
                            "free": sum(1 for x in seats if x is None),
                            "card": card(r.settings), "card_en": card(r.settings, "en")})
            return {"club": cid, "role": got[1], "tables": out}

        return dict(await self._read(read))

    async def lobby_tables(self, pid: str, cid: int) -> tuple[list[str], str]:
        """The codes of the club's tables in their lobby, oldest first (quick-seat), for a
        member, and the name it sits under."""
        self.registered(pid)

        def read(s: Session) -> Any:
            got = self.need_role(s, cid, pid, MEMBER_ROLES)
            if isinstance(got, ClubError):
                return got
            return ([r.code for _, r in self._open_tables(s, cid) if r.status == "lobby"],
                    self._seat_name(s, pid))

        codes, name = await self._read(read)
        return list(codes), str(name)

    async def stored_seat(self, pid: str, code: str) -> int | None:
        """Room ``code``'s seat for ``pid`` as stored (a table another node holds): the seat
        it has, else the first free one; None when the room is full, not in its lobby, or
        banned ``pid``."""

        def read(s: Session) -> int | None:
            row = s.get(db.RoomRow, code)
            if row is None or row.status != "lobby" or pid in (row.banned or []):
                return None
            seats = list(row.seats or [])
            seats += [None] * (4 - len(seats))
            mine = [i for i, x in enumerate(seats) if x and x.get("player_id") == pid]
            free = [i for i, x in enumerate(seats) if not x or not (x.get("player_id") or x.get("bot"))]
            return (mine + free)[0] if mine or free else None

        out: int | None = await self._read(read)
        return out

    def _seat_name(self, s: Session, pid: str) -> str:
        """A member's name at a table: its nickname on this node, else (a cluster node it has
        not come to yet) its username."""
        nick = self.site.players.get(pid)
        if nick:
            return nick
        name = s.scalar(select(db.AccountRow.username).where(db.AccountRow.player_id == pid))
        return str(name or "?")

    # ------------------------------------------------------------- ranking
    async def ranking(self, pid: str, cid: int, season: int | None) -> dict[str, Any]:
        """A season's ranking: the stored scores of the matches at the club's tables of that
        season (a table closed by 解散 counts with the hands it played)."""
        self.registered(pid)

        def read(s: Session) -> Any:
            got = self.visible(s, cid, pid)
            if isinstance(got, ClubError):
                return got
            club = got[0]
            want = season or club.season
            if not 1 <= want <= club.season:
                return ClubError(f"season must be from 1 to {club.season}")
            return {"club": cid, "season": want, "current_season": club.season,
                    "season_started_at": club.season_started_at.isoformat()
                    if want == club.season else None,
                    "ranking": season_ranking(s, cid, want, self.site.players.get)[:RANKING_MAX]}

        return dict(await self._read(read))

    async def new_season(self, pid: str, cid: int) -> dict[str, Any]:
        """The owner starts a new season: the ranking starts over (the old one stays readable)."""
        self.registered(pid)

        def write(s: Session) -> Any:
            got = self.need_role(s, cid, pid, ("owner",))
            if isinstance(got, ClubError):
                return got
            club = got[0]
            if not season_opened_tables(s, cid, club.season):  # (asked in a loop: 900 seasons)
                return ClubError(f"season {club.season} has no table yet: nothing to start over",
                                 409, code="season_empty")
            club.season += 1
            club.season_started_at = datetime.now(UTC)
            return {"ok": True, "season": club.season}

        return dict(await self._write(write))

