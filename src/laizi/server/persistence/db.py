"""Persistence: SQLAlchemy 2 models and a batching writer.

One schema for SQLite (default, a file) and PostgreSQL (``postgresql://`` URLs are
mapped to the psycopg 3 driver). The schema is created and upgraded on start by
:func:`migrate`: Alembic revisions in ``laizi/server/persistence/migrations`` (:mod:`laizi.server.persistence.schema`).
Every module with tables on :class:`Base` is listed in :func:`laizi.server.persistence.models.all_models`.

What is stored: players (guests), rooms (settings and seats), matches (rules,
seed, running scores), hands (seed commitment, revealed seed, result), the
per-match **action log** (every applied action with its seat, source and the
client's sequence number — replaying it rebuilds a match after a restart), the
per-match **event log** (full engine events, server side only; the replay
viewer filters them), per-hand scores and chat.

Writes go through :class:`Writer` (:mod:`laizi.server.persistence.writer`): one thread, one connection,
many callers' writes committed together (group commit). A caller awaits its write before
anything it describes is shown to a client, so what a client saw is on disk.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    select,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from laizi.server.persistence.writer import Writer

__all__ = [
    "SCHEMA_VERSION", "AccountRow", "ActionRow", "AvatarRow", "Base", "ChatRow", "EventRow", "HandRow",
    "MatchPlayerRow", "MatchRow", "Meta", "PlayerRow", "RatingChangeRow", "RatingRow", "RoomRow",
    "ScoreRow", "SessionRow", "Writer", "make_engine", "migrate", "normalize_url",
]

# The last schema version of the pre-Alembic migrate() (laizi_meta "schema_version"; frozen —
# Alembic's revision 0001 is this schema): 2: actions.client_seq BIGINT; 3: accounts, sessions,
# match_players, ratings, per-hand figures.
SCHEMA_VERSION = 3


def _now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Meta(Base):
    __tablename__ = "laizi_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class PlayerRow(Base):
    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    nickname: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RoomRow(Base):
    __tablename__ = "rooms"
    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    owner_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="lobby")  # lobby|playing|finished|closed
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    banned: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)  # player ids kicked out
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class MatchRow(Base):
    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(String(8), ForeignKey("rooms.code"), index=True)
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing|finished
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(128))
    max_hands: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seats: Mapped[list[Any]] = mapped_column(JSON)  # who sat where at the start
    scores: Mapped[list[Any]] = mapped_column(JSON)  # running totals per seat
    penalties: Mapped[list[Any]] = mapped_column(JSON)  # escape penalties per seat
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # hand n dealt by seat n-1 mod 4, no 连庄 (a duplicate round; Match.fixed_dealers)
    fixed_dealers: Mapped[bool | None] = mapped_column(Boolean, nullable=True)


class HandRow(Base):
    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("match_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(128), nullable=True)
    seed: Mapped[str | None] = mapped_column(String(128), nullable=True)  # revealed at the end
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "n"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                    primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))  # (match_id, n) is unique: its index serves match_id too
    n: Mapped[int] = mapped_column(Integer)  # order within the match
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(16))  # player|bot|auto|escape
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The client's sequence number: the protocol allows 1..2**31 (``protocol.Action.seq``).
    client_seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    version: Mapped[int] = mapped_column(Integer)  # room version after the action
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class EventRow(Base):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("match_id", "n"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"),
                                    primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))  # (match_id, n) is unique: its index serves match_id too
    n: Mapped[int] = mapped_column(Integer)
    hand: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


class ScoreRow(Base):
    __tablename__ = "scores"
    __table_args__ = (UniqueConstraint("match_id", "hand", "seat", "kind"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    hand: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    kind: Mapped[str] = mapped_column(String(16), default="hand")  # hand|escape
    delta: Mapped[float] = mapped_column(JSON)
    # Per-hand figures of this seat (schema 3; NULL on rows stored before): it won the hand,
    # by self-draw, the big hands (大胡) it won with (comma-separated), what it paid as the
    # liable seat (包).
    won: Mapped[int | None] = mapped_column(Integer, nullable=True)
    self_draw: Mapped[int | None] = mapped_column(Integer, nullable=True)
    big: Mapped[str | None] = mapped_column(String(200), nullable=True)
    liable_paid: Mapped[float | None] = mapped_column(Float, nullable=True)


Index("ix_scores_player", ScoreRow.player_id, ScoreRow.kind)


class AccountRow(Base):
    """A registered player: a username and a password hash for a player id (a guest who
    registers keeps its id, so its history stays its own)."""

    __tablename__ = "accounts"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32), unique=True)  # NFKC + casefold
    password_hash: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    password_changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SessionRow(Base):
    """A login session: the SHA-256 of its id (the id itself is only in the signed token)."""

    __tablename__ = "sessions"
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MatchPlayerRow(Base):
    """Who sat where in a finished match, the final score and place (1-4, ties share)."""

    __tablename__ = "match_players"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    escaped: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[float] = mapped_column(Float)
    place: Mapped[int] = mapped_column(Integer)
    rated: Mapped[int] = mapped_column(Integer, default=0)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatingRow(Base):
    """A player's current skill rating (openskill Plackett-Luce); ``ordinal`` = mu - 3 sigma,
    the leaderboard's order (indexed)."""

    __tablename__ = "ratings"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ReviewResultRow(Base):
    """The figures of a built 复盘 (review) of one seat of a finished match (revision 0010):
    what the profile's accuracy is made of, the same on every node."""

    __tablename__ = "review_results"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    accuracy: Mapped[float] = mapped_column(Float)
    rated: Mapped[int] = mapped_column(Integer)
    built_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class RatingChangeRow(Base):
    """One player's rating before and after one rated match (applied once per match)."""

    __tablename__ = "rating_changes"
    __table_args__ = (UniqueConstraint("match_id", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), index=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)


class AvatarRow(Base):
    """A player's avatar (:mod:`laizi.server.accounts.avatars`): one of the drawn set (``choice``) or
    an uploaded picture, re-encoded (``image``, ``media_type``); ``etag`` names the version."""

    __tablename__ = "avatars"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    choice: Mapped[str | None] = mapped_column(String(32), nullable=True)
    image: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    media_type: Mapped[str | None] = mapped_column(String(32), nullable=True)
    etag: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class ChatRow(Base):
    __tablename__ = "chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_code: Mapped[str] = mapped_column(String(8), index=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    nickname: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(280))
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


# ---------------------------------------------------------------------- engine
def normalize_url(url: str) -> str:
    """Map plain ``postgresql://`` / ``postgres://`` to psycopg 3; a bare path to SQLite."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url[len("postgresql://"):]
    if "://" not in url:
        return "sqlite:///" + url
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _rec: Any) -> None:
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={os.environ.get('LAIZI_SQLITE_SYNC', 'NORMAL')}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return eng
    eng = create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)
    # The rows of a writer batch (laizi.server.persistence.writer) as one multi-row INSERT per table
    # (SQLAlchemy's "insertmanyvalues", as for psycopg2) rather than psycopg 3's pipeline
    # of one INSERT per row: one statement for PostgreSQL to plan and run, not fifty.
    eng.dialect.use_insertmanyvalues_wo_returning = True
    return eng


def _where(norm: str) -> str:
    """The database a normalised URL names, for a message: the file, or the host part without
    the password."""
    if norm.startswith("sqlite"):
        return norm.split("///", 1)[-1]  # the file, as it was given
    return norm.split("@")[-1] if "@" in norm else norm


def unsupported_database(url: str) -> str | None:
    """Why ``url`` names no database laizi can use (not SQLite, not PostgreSQL), in one line;
    None when it is one of those. ``laizi serve`` and ``laizi check`` both ask this."""
    norm = normalize_url(url)
    scheme = norm.split("://", 1)[0]
    if scheme.startswith(("sqlite", "postgresql")):
        return None
    return (f"unsupported database {scheme!r} in {_where(norm)}: give a SQLite file path or "
            "postgresql://user:password@host:port/name")


def check_database(url: str, timeout: float = 5.0) -> str | None:
    """None when the database at ``url`` opens (a SQLite file is created if missing, as the
    server would); else why not, in one line without the password — so ``laizi serve`` stops
    with that line instead of a traceback from its start-up."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    unsupported = unsupported_database(url)
    if unsupported:
        return unsupported
    norm = normalize_url(url)
    scheme = norm.split("://", 1)[0]
    where = _where(norm)
    if scheme.startswith("sqlite") and ":memory:" not in norm:
        folder = os.path.dirname(os.path.abspath(where))
        if not os.path.isdir(folder):
            return f"cannot open the database {where}: no folder {folder}"
    try:
        eng = make_engine(url) if scheme.startswith("sqlite") else create_engine(
            norm, connect_args={"connect_timeout": max(1, int(timeout))})
    except (ArgumentError, NoSuchModuleError, ModuleNotFoundError) as exc:
        return f"cannot use the database {where}: {str(exc).splitlines()[0][:200]}"
    try:
        with eng.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except (SQLAlchemyError, OSError) as exc:
        first = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        return f"cannot open the database {where}: {(first[0] if first else type(exc).__name__)[:200]}"
    finally:
        eng.dispose()
    return None


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (:func:`laizi.server.persistence.schema.upgrade`):
    create it on an empty database, upgrade one made by an older laizi, keeping its rows."""
    from laizi.server.persistence.schema import upgrade

    upgrade(engine)


@event.listens_for(Base.metadata, "after_drop")
def _drop_version_stamp(_target: Any, connection: Any, **_kw: Any) -> None:
    """Dropping the schema drops its Alembic stamp too, so a later :func:`migrate` creates
    the schema again instead of taking the empty database for an up-to-date one."""
    connection.execute(text("DROP TABLE IF EXISTS alembic_version"))


def set_meta_if_missing(engine: Engine, key: str, value: str) -> str:
    """Store ``value`` under ``key`` unless a value is there; return the stored value."""
    with Session(engine) as s:
        old = s.scalar(select(Meta.value).where(Meta.key == key))
        if old is not None:
            return old
        s.add(Meta(key=key, value=value))
        s.commit()
        return value


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
