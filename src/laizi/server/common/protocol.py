"""The WebSocket protocol: JSON text frames, one object each, validated with pydantic.

Client → server (``type``):

- ``hello``      ``{proto, token?, nickname?, rename?, tables?, room_patch?, have?}``: identify (a
  valid token) or become a new guest; ``tables``: the ``welcome`` carries the table frames'
  key table and event shapes (``keys``, ``shapes``) and the snapshots leave them out;
  ``have``: the ``tables_id`` and ``phrases_id`` of an earlier welcome whose tables and quick
  phrases the client keeps (across reconnects and page loads): this welcome leaves them out;
  ``room_patch``: a ``room`` message may be ``{p}``, a patch of the last room info the
  connection got (:mod:`laizi.server.tables.roomwire`).
  ``proto`` is the protocol version the client speaks (:data:`PROTOCOL`); an older one is
  answered with the error ``old_client`` ("reload the page") and the socket closed. None
  given (pages before protocol 2, scripts that only set a table up): served until the first
  table frame it would get, which is that error instead.
- ``create``     ``{settings}``: create a room (you join it and are its host: the host alone
  adds bots, kicks and starts; the role passes on when the host leaves). ``settings.private``
  rooms are not listed. ``settings.seed`` fixes the deal and is shown to everyone.
- ``join``       ``{room, spectate?}``: join a room by code (as a spectator when ``spectate``
  or when the match has started and you hold no seat).
- ``sit``        ``{seat}`` / ``stand`` ``{}``: take or leave a seat before the start.
- ``bot``        ``{seat, level|null}``: put a bot of a level on an empty seat (or remove it).
  Host only.
- ``ready``      ``{on?}``: ready (准备) or not before a match; standing up or leaving
  clears it. Bots are always ready.
- ``start``      ``{confirm?}``: start the match (all four seats filled — or ``settings.bots_fill``
  bots take the empty ones, a club table —, every seated human ready; the host's own start
  counts as the host's ready). Host only. With ``settings.ip_warning``, two seated players
  on one address or network stop it once: everyone gets ``same_network`` ``{pairs:
  [{seats, same}], unknown}`` (seats, never addresses), the host gets the error
  ``same_network``; ``confirm`` starts anyway.
- ``continue``   ``{}``: 继续 after a hand's settlement. The next hand is dealt once every
  seated human (not in 托管) pressed it, or after ``settings.continue_seconds``.
- ``rematch``    ``{force?}``: 再来一局 after the match: a new match with the same seats
  once every seated human accepted; ``force`` (host only) starts it at once.
- ``dissolve``   ``{on?}``: 解散 during a match: agree to end it now (``on`` false refuses,
  which drops the proposal). Once every seated human (not escaped) agreed, the match ends
  with the scores so far (a hand in play ends as a draw without payments).
- ``kick``       ``{player_id}``: remove a player (a seat before the start, or a spectator)
  from the room; they cannot come back. Host only.
- ``host``       ``{player_id}``: hand the host role to another player in the room. Host only.
- ``action``     ``{seq, action, version?}``: a game action. ``seq`` must grow by one per
  client identity and room; an action is applied at most once.
- ``resync``     ``{}``: ask for a snapshot.
- ``auto``       ``{on}``: 托管 on or off.
- ``hints``      ``{on}``: send hints (from the seat's own view) with each decision.
- ``chat``       ``{text}``, ``{phrase}`` or ``{emote}`` (one of them).
- ``mute``       ``{player_id, on?}``: stop (``on`` false: resume) receiving a player's chat
  at every table; answered by ``muted`` ``{players}`` (also sent after ``joined`` when the
  list is not empty). The muted player is not told.
- ``leave``      ``{}``: leave the room; during a match this is an escape (penalty, a bot
  takes the seat).
- ``ping``       ``{}``.

Server → client: ``welcome``, ``joined``, ``room`` (lobby state: ``host``, ``private``,
``fixed_deal``; ``{p}`` a patch of the room last got, to a client that said ``room_patch``),
``snapshot`` (join, reconnect, resync, a new match: the seat's whole
``view``, the key table ``keys``, the event shapes ``shapes`` and its last events ``e`` as
an update carries them), ``update`` (protocol 5: a new version ``v``, the
seat-filtered events ``e`` (an event of a known shape as ``[shape, *values]`` by the
snapshot's ``shapes``) and ``p``, the view's change since the frame before (after the
events' own effects), its keys numbered by ``keys``; ``from`` = ``v`` minus the events, and what did not change is left
out — :mod:`laizi.server.common.delta`, docs/server.md; a client whose version is not
``from`` lost a frame and asks ``resync``; both carry ``deadline`` — the seat's own seconds left, an update only when not null —, ``timer``
``{seat, left}`` — the turn seat's public countdown, or ``{seat: null, left}`` for a claim
window, which never says who may claim —, and between hands ``settle`` ``{left, waiting,
continued}``), ``ack`` (sent only once the action is stored), ``chat``, ``left``,
``kicked``, ``paused`` / ``resumed`` (the room waits for its database), ``settle``
``{left, waiting, continued}`` (someone pressed 继续, the next hand still waits), ``rematch``
``{accepted, waiting}`` (someone accepted 再来一局), ``dissolve`` ``{agreed, waiting, done,
refused?}`` (a 解散 vote: who agreed, who is still asked, whether the match ended, the seat
that refused), ``hints`` ``{v, hints}`` (the answer to
``hints`` switched on while the seat has a decision; later frames carry ``hints``), ``error``
``{code, message, ref?}``, ``pong``; in a cluster, ``owner`` ``{room, node, addr?}`` before
the ``joined`` of a join relayed to another node (where the room's owner is:
:mod:`laizi.server.cluster.affinity`).

A connection says ``hello`` once (within ``HELLO_TIMEOUT`` seconds); its identity is then
fixed. Limits (``laizi.server.common.config``, ``laizi.server.guard.limits``): a client that does not read
is dropped when its queue is full; connections in total and per player are capped; new
guests, rooms and joins are rate-limited per address and per player.
"""

from __future__ import annotations

import json
import secrets
from enum import StrEnum
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from laizi.server.common.inputs import JSONInputError, loads_strict

__all__ = [
    "PROTOCOL", "RoomStatus", "ack", "chat", "error_msg", "internal_error", "joined", "kicked", "left",
    "old_client",
    "dissolve", "muted", "paused", "same_network", "pong", "rematch", "resumed", "room_msg", "settle_msg", "welcome",
    "MAX_FRAME_BYTES", "MAX_FRAME_DEPTH", "SEQ_MAX", "ClientMessage", "ProtocolError", "RoomSettings", "parse_client_message",
]

PROTOCOL = 5                 # the table protocol (1: whole views; 2: versioned deltas; 3: compact deltas;
                             # 4: a snapshot's events as an update's, one-column rows bare;
                             # 5: the client applies claims, 暗杠 and tiles laid aside itself)
MAX_FRAME_BYTES = 8192
MAX_FRAME_DEPTH = 8          # nesting of a frame (the deepest valid one, create.settings.options, is 3)
MAX_OPTIONS = 64             # entries in create.settings.options
SEQ_MAX = 2**31              # action seq and version (actions.client_seq is BIGINT)
CLAIM_SECONDS_MIN, CLAIM_SECONDS_MAX = 0.5, 120.0   # room claim window
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 0.5, 600.0     # room turn timer
BOT_LEVELS = ("random", "greedy", "strong", "expert")
CONTINUE_SECONDS = 15.0                             # settlement: the next hand is dealt after this ...
CONTINUE_SECONDS_MIN, CONTINUE_SECONDS_MAX = 0.0, 300.0   # ... unless every seated human pressed 继续
AUTO_AFTER_LAPSES = 2                               # timer lapses in a row that switch a seat to 托管
AUTO_AFTER_LAPSES_MIN, AUTO_AFTER_LAPSES_MAX = 1, 20
RANK_INDEX_MAX = 10  # the highest 段位 (laizi.server.accounts.ranks.RANKS: 雀圣)


class ProtocolError(ValueError):
    def __init__(self, code: str, message: str, option: str | None = None) -> None:
        self.code = code
        self.message = message
        self.option = option  # bad_settings: the rule option at fault (the client names it in words)
        super().__init__(message)


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _check_option(key: object, value: object) -> None:
    """A rule option override: a short name and one finite JSON scalar (RuleSet checks ranges)."""
    if not isinstance(key, str) or not 0 < len(key) <= 40:
        raise ValueError("option names are 1-40 characters")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > 10**9:
            raise ValueError(f"option {key!r} is out of range")
        return
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or abs(value) > 1e9:
            raise ValueError(f"option {key!r} must be a finite number")
        return
    if isinstance(value, str):
        if len(value) > 32:
            raise ValueError(f"option {key!r} is too long")
        return
    raise ValueError(f"option {key!r} must be a number, true/false or text")


MAX_WINDS_ONLINE = 4  # a room's match in 风 (winds × 4 or 5 rounds): at most 东南西北


class RoomSettings(_Msg):
    preset: str = "kaikoufan"
    options: dict[str, Any] = Field(default_factory=dict)
    rounds: int = Field(1, ge=1, le=16)
    max_hands: int | None = Field(None, ge=1, le=400)
    claim_seconds: float | None = Field(None, ge=CLAIM_SECONDS_MIN, le=CLAIM_SECONDS_MAX)
    turn_seconds: float = Field(20.0, ge=TURN_SECONDS_MIN, le=TURN_SECONDS_MAX)
    bot_delay: float | None = Field(None, ge=0, le=10)
    seed: str | None = Field(None, max_length=64)
    private: bool = False  # not listed by GET /api/rooms (joined by its code)
    rated: bool = False    # players' ratings change with the result (laizi.server.accounts.ratings)
    continue_seconds: float = Field(CONTINUE_SECONDS, ge=CONTINUE_SECONDS_MIN, le=CONTINUE_SECONDS_MAX)
    auto_after_lapses: int = Field(AUTO_AFTER_LAPSES, ge=AUTO_AFTER_LAPSES_MIN, le=AUTO_AFTER_LAPSES_MAX)
    # the 段位 allowed to sit (indexes of laizi.server.accounts.ranks.RANKS; None: no bound)
    rank_min: int | None = Field(None, ge=0, le=RANK_INDEX_MAX)
    rank_max: int | None = Field(None, ge=0, le=RANK_INDEX_MAX)

    @model_validator(mode="after")
    def _rank_range(self) -> RoomSettings:
        if self.rank_min is not None and self.rank_max is not None and self.rank_min > self.rank_max:
            raise ValueError("rank_min must not be above rank_max")
        return self
    # clubs: bots of this level take the seats still empty when the host starts (a club table)
    bots_fill: Literal["random", "greedy", "strong", "expert"] | None = None
    # clubs: the club whose table this is: only its members join (opened by the club's API)
    club: int | None = Field(None, ge=1, le=2**31 - 1)
    # clubs: warn before the start when two seated players share an address or a network
    # (laizi.server.guard.netcheck); the host starts again (confirm) to play anyway
    ip_warning: bool = False

    @field_validator("options")
    @classmethod
    def _options(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > MAX_OPTIONS:
            raise ValueError(f"at most {MAX_OPTIONS} options")
        for key, item in value.items():
            _check_option(key, item)
        claim = value.get("claim_seconds")
        if claim is not None and (isinstance(claim, bool) or not isinstance(claim, int | float)
                                  or not CLAIM_SECONDS_MIN <= claim <= CLAIM_SECONDS_MAX):
            raise ValueError(f"options.claim_seconds must be a number from {CLAIM_SECONDS_MIN} "
                             f"to {CLAIM_SECONDS_MAX}")
        rounds = value.get("rounds")
        if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                                   or not 1 <= rounds <= 16):
            raise ValueError("options.rounds must be an integer from 1 to 16")
        winds = value.get("winds")  # a match in 风: at most a whole game of four winds online
        if winds is not None and (isinstance(winds, bool) or not isinstance(winds, int)
                                  or not 0 <= winds <= MAX_WINDS_ONLINE):
            raise ValueError(f"options.winds must be an integer from 0 to {MAX_WINDS_ONLINE}")
        return value


class Hello(_Msg):
    type: Literal["hello"]
    proto: int | None = Field(None, ge=0, le=SEQ_MAX)
    token: str | None = Field(None, max_length=512)
    nickname: str | None = Field(None, max_length=64)
    # the nickname renames the player its token names only when asked: otherwise it is the
    # page's remembered name, for a new guest (a page on one device renamed back a player
    # renamed on another, and the other device's name was lost)
    rename: bool = False
    # the client keeps the frames' key table and event shapes from the ``welcome`` (which
    # then carries them): its snapshots leave them out
    tables: bool = False
    # what of a welcome the client holds already (``tables_id``, ``phrases_id`` of an earlier
    # one): the welcome leaves them out
    have: list[Annotated[str, Field(max_length=32)]] = Field(default_factory=list, max_length=4)
    # the client takes a ``room`` message that is a patch of the last room it got
    # (laizi.server.tables.roomwire)
    room_patch: bool = False


class Create(_Msg):
    type: Literal["create"]
    settings: RoomSettings = Field(default_factory=lambda: RoomSettings.model_validate({}))


class Join(_Msg):
    type: Literal["join"]
    room: str = Field(max_length=16)
    spectate: bool = False


class Sit(_Msg):
    type: Literal["sit"]
    seat: int = Field(ge=0, le=3)


class Stand(_Msg):
    type: Literal["stand"]


class Bot(_Msg):
    type: Literal["bot"]
    seat: int = Field(ge=0, le=3)
    level: str | None = Field(None, max_length=16)


class Start(_Msg):
    type: Literal["start"]
    confirm: bool = False  # start although the same-network warning was given


class Action(_Msg):
    type: Literal["action"]
    seq: int = Field(ge=1, le=SEQ_MAX)
    action: dict[str, Any] = Field(max_length=16)
    version: int | None = Field(None, ge=0, le=SEQ_MAX)


class Resync(_Msg):
    type: Literal["resync"]


class Auto(_Msg):
    type: Literal["auto"]
    on: bool


class Hints(_Msg):
    type: Literal["hints"]
    on: bool


class Chat(_Msg):
    type: Literal["chat"]
    text: str | None = Field(None, max_length=1000)
    phrase: str | None = Field(None, max_length=32)
    emote: str | None = Field(None, max_length=32)  # clubs: an emote of chat.EMOTES


class Leave(_Msg):
    type: Literal["leave"]


class Kick(_Msg):
    type: Literal["kick"]
    player_id: str = Field(max_length=32)


class Host(_Msg):
    type: Literal["host"]
    player_id: str = Field(max_length=32)


class Ready(_Msg):
    type: Literal["ready"]
    on: bool = True


class Continue(_Msg):
    type: Literal["continue"]


class Rematch(_Msg):
    type: Literal["rematch"]
    force: bool = False


class Dissolve(_Msg):
    type: Literal["dissolve"]
    on: bool = True  # agree to 解散; false: refuse (the proposal is dropped)


class Mute(_Msg):
    type: Literal["mute"]
    player_id: str = Field(max_length=32)
    on: bool = True  # mute; false: unmute


class Ping(_Msg):
    type: Literal["ping"]
    t: float | None = Field(None, ge=-1e15, le=1e15)


ClientMessage = Annotated[
    Hello | Create | Join | Sit | Stand | Bot | Start | Action | Resync | Auto | Hints | Chat | Leave
    | Ping | Kick | Host | Ready | Continue | Rematch | Dissolve | Mute,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)
TYPES = ("hello", "create", "join", "sit", "stand", "bot", "start", "action", "resync",
         "auto", "hints", "chat", "leave", "ping", "kick", "host", "ready", "continue", "rematch",
         "dissolve", "mute")


def parse_client_message(raw: str | bytes) -> Any:
    """Parse and validate one client frame; raise :class:`ProtocolError` with a clear message.

    Every client mistake (binary or non-UTF-8 data, bad JSON, nesting deeper than
    :data:`MAX_FRAME_DEPTH`, ``NaN``/``Infinity``/overflowing numbers, wrong types, values
    out of range) is a :class:`ProtocolError`, never another exception.
    """
    if isinstance(raw, bytes | bytearray):
        if len(raw) > MAX_FRAME_BYTES:
            raise ProtocolError("frame_too_large", f"frame larger than {MAX_FRAME_BYTES} bytes")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_frame", "frame is not UTF-8 text") from None
    if len(raw) > MAX_FRAME_BYTES or len(raw.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError("frame_too_large", f"frame larger than {MAX_FRAME_BYTES} bytes")
    try:
        data = loads_strict(raw, MAX_FRAME_DEPTH)
    except JSONInputError as exc:
        raise ProtocolError("bad_json", f"frame is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_frame", "a frame must be a JSON object")
    t = data.get("type")
    if not isinstance(t, str):
        raise ProtocolError("bad_frame", "a frame needs a string 'type'")
    if t not in TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {t[:32]!r}")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"][1:]) or "frame"
        raise ProtocolError("bad_message", f"{t}: {loc[:64]}: {str(err['msg'])[:160]}") from None


# ------------------------------------------------------------- server → client
# The messages the server sends, typed like the client's (one constructor each; the
# frames ``update`` / ``snapshot`` / ``hints`` are built as text by laizi.server.tables.room).
class RoomStatus(StrEnum):
    """A room's life: ``lobby`` → ``playing`` → ``finished`` (再来一局: ``playing`` again);
    ``closed``: an idle lobby closed by the server. Stored and sent as its value."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"


class ErrorMsg(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    ref: NotRequired[Any]
    option: NotRequired[str]
    request_id: NotRequired[str]


class AckMsg(TypedDict):
    type: Literal["ack"]
    seq: int
    duplicate: NotRequired[bool]
    v: int


class RoomMsg(TypedDict):
    type: Literal["room"]
    room: dict[str, Any]


class JoinedMsg(TypedDict):
    type: Literal["joined"]
    room: dict[str, Any]
    seat: int | None
    chat: list[dict[str, Any]]


class LeftMsg(TypedDict):
    type: Literal["left", "kicked"]
    room: str


# ("from" is a keyword: the functional form)
ChatMsg = TypedDict("ChatMsg", {"type": Literal["chat"], "from": str, "player_id": str | None,
                                  "seat": int | None, "text": str, "phrase": str | None,
                                  "t": float, "emote": NotRequired[str]})


class SettleMsg(TypedDict, total=False):
    type: Literal["settle"]
    left: float | None
    waiting: list[int]
    continued: list[int]


class RematchMsg(TypedDict):
    type: Literal["rematch"]
    accepted: list[int]
    waiting: list[int]
    refused: NotRequired[str]


class DissolveMsg(TypedDict):
    type: Literal["dissolve"]
    agreed: list[int]    # seats that agreed
    waiting: list[int]   # seated humans still to agree
    done: bool           # the match ended (解散)
    refused: NotRequired[int]  # the seat that refused (the proposal is dropped)


class SameNetworkMsg(TypedDict):
    type: Literal["same_network"]
    pairs: list[dict[str, Any]]  # {seats: [a, b], same: "address" | "network"}
    unknown: list[int]           # seated players whose address is not known (not compared)


class MutedMsg(TypedDict):
    type: Literal["muted"]
    players: list[str]   # the player ids whose chat this player does not receive


class PausedMsg(TypedDict):
    type: Literal["paused", "resumed"]
    room: str
    reason: NotRequired[str]
    message: NotRequired[str]


def error_msg(code: str, message: str, *, ref: Any = None, option: str | None = None,
              request_id: str | None = None) -> ErrorMsg:
    msg = ErrorMsg(type="error", code=code, message=message)
    if ref is not None:
        msg["ref"] = ref
    if option is not None:
        msg["option"] = option
    if request_id is not None:
        msg["request_id"] = request_id
    return msg


_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_FAST = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any) -> str:
    """Compact JSON text (UTF-8 as is), as sent on the wire: orjson (several times faster
    than the standard library, the same text for the frames' values), the standard
    encoder for what orjson refuses (integers beyond 64 bits)."""
    try:
        return orjson.dumps(obj, option=_FAST).decode()
    except orjson.JSONEncodeError:
        return _encode(obj)


def new_request_id() -> str:
    """A short random id naming one request (or WebSocket command) in the log and to the client."""
    return secrets.token_hex(6)


def old_client(proto: int | None) -> ErrorMsg:
    """A client of an older table protocol (None: it named none, protocol 1): reload the page."""
    return error_msg("old_client", f"this server speaks table protocol {PROTOCOL}, the client "
                                   f"{proto or 1}: reload the page")


def internal_error(rid: str) -> ErrorMsg:
    """A command failed on the server: the request id is in its log and in the message."""
    return ErrorMsg(type="error", code="internal", request_id=rid,
                    message=f"the server could not process that message (request {rid})")


def ack(seq: int, v: int, *, duplicate: bool = False) -> AckMsg:
    """An action stored (``duplicate``: it was, before)."""
    if duplicate:
        return AckMsg(type="ack", seq=seq, duplicate=True, v=v)
    return AckMsg(type="ack", seq=seq, v=v)


def pong(t: float | None) -> dict[str, Any]:
    return {"type": "pong", "t": t}


def welcome(info: dict[str, Any], bot_levels: list[str],
            phrases: dict[str, list[str]] | None, tables: dict[str, Any] | None = None,
            ids: dict[str, str] | None = None) -> dict[str, Any]:
    """``welcome``: the identity (``player_id``, ``nickname``, ``token``...), the bot levels,
    the quick chat phrases and, for a client that asked (``hello`` ``tables``), the table
    frames' key table and event shapes (``keys``, ``shapes``: its snapshots leave them out).
    ``ids`` (``phrases_id``, ``tables_id``) name them: a client that keeps them says so in its
    next ``hello`` (``have``), and that welcome leaves them out (None here)."""
    out: dict[str, Any] = {"type": "welcome", **info, "bot_levels": bot_levels}
    if phrases is not None:
        out["phrases"] = phrases
    return {**out, **(tables or {}), **(ids or {})}


def room_msg(info: dict[str, Any]) -> RoomMsg:
    return RoomMsg(type="room", room=info)


def joined(info: dict[str, Any], seat: int | None, chat: list[dict[str, Any]]) -> JoinedMsg:
    return JoinedMsg(type="joined", room=info, seat=seat, chat=chat)


def left(code: str) -> LeftMsg:
    return LeftMsg(type="left", room=code)


def kicked(code: str) -> LeftMsg:
    return LeftMsg(type="kicked", room=code)


def chat(nickname: str, player_id: str | None, seat: int | None, text: str,
         phrase: str | None, t: float, emote: str | None = None) -> ChatMsg:
    msg: ChatMsg = {"type": "chat", "from": nickname, "player_id": player_id, "seat": seat,
                    "text": text, "phrase": phrase, "t": t}
    if emote is not None:
        msg["emote"] = emote  # text then holds its Chinese name, for a client without pictures
    return msg


def settle_msg(timers: dict[str, Any]) -> SettleMsg:
    """``settle``: seconds left, who must press 继续, who did (:meth:`laizi.server.tables.flow.Flow.timers`)."""
    msg = SettleMsg(type="settle")
    msg.update(timers)  # type: ignore[typeddict-item]
    return msg


def rematch(accepted: list[int], waiting: list[int], refused: str | None = None) -> RematchMsg:
    msg = RematchMsg(type="rematch", accepted=accepted, waiting=waiting)
    if refused is not None:
        msg["refused"] = refused
    return msg


def dissolve(agreed: list[int], waiting: list[int], done: bool = False,
             refused: int | None = None) -> DissolveMsg:
    msg = DissolveMsg(type="dissolve", agreed=agreed, waiting=waiting, done=done)
    if refused is not None:
        msg["refused"] = refused
    return msg


def same_network(pairs: list[dict[str, Any]], unknown: list[int]) -> SameNetworkMsg:
    return SameNetworkMsg(type="same_network", pairs=pairs, unknown=unknown)


def muted(players: list[str]) -> MutedMsg:
    return MutedMsg(type="muted", players=players)


def paused(code: str) -> PausedMsg:
    return PausedMsg(type="paused", room=code, reason="storage",
                     message="the game's database is not answering; the table waits and goes "
                             "on by itself")


def resumed(code: str) -> PausedMsg:
    return PausedMsg(type="resumed", room=code)


# pushed to a player's connections wherever they are (laizi.server.social.presence)
def quick_match(room: str, level: str, label: str, stake: int, seat: int,
                preset: str = "kaikoufan") -> dict[str, Any]:
    """A quick-match table is ready: join ``room`` (seat ``seat``) of level ``level``,
    rule set ``preset``."""
    return {"type": "quick_match", "room": room, "level": level, "label": label,
            "stake": stake, "seat": seat, "preset": preset}


def coins(match_id: int | None, reason: str, hand: int, stake: int, coins: list[int],
          balance: int | None) -> dict[str, Any]:
    """What a coin table's settlement gave each seat, and the receiver's balance after it."""
    return {"type": "coins", "match_id": match_id, "reason": reason, "hand": hand,
            "stake": stake, "coins": coins, "balance": balance}


def friends(event: str, who: dict[str, Any]) -> dict[str, Any]:
    """A friend request, an acceptance or a removal by ``who`` (``{player_id, nickname}``)."""
    return {"type": "friends", "event": event, "from": who}


def invite(inv: dict[str, Any]) -> dict[str, Any]:
    """An invitation to a room."""
    return {"type": "invite", "invite": inv}


def invite_reply(invite_id: int, who: dict[str, Any], accepted: bool) -> dict[str, Any]:
    """The answer of the invited player."""
    return {"type": "invite_reply", "id": invite_id, "from": who, "accepted": accepted}


def owner(room: str, node: str, addr: str | None = None) -> dict[str, Any]:
    """In a cluster: the node that owns ``room`` (and its direct address, if it gives one)."""
    msg: dict[str, Any] = {"type": "owner", "room": room, "node": node}
    if addr:
        msg["addr"] = addr
    return msg
