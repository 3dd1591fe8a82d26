"""How a node connects to Redis: the URL (``redis://[:PASSWORD@]host:port/db``,
``rediss://`` for TLS, ``unix://``) and, when the URL carries none, the password in
``LAIZI_REDIS_PASSWORD`` (so it need not appear on a command line). :func:`check_redis`
is run by ``laizi serve`` before a node starts: a wrong password is one clear line."""

from __future__ import annotations

import logging
import os
from typing import Any
from urllib.parse import urlsplit

__all__ = ["PASSWORD_ENV", "REDIS_TIMEOUT", "async_client", "check_redis", "connect_kwargs",
           "describe"]

PASSWORD_ENV = "LAIZI_REDIS_PASSWORD"
REDIS_TIMEOUT = 5.0        # seconds a Redis command or connect may take

log = logging.getLogger("laizi.server")


def connect_kwargs(url: str) -> dict[str, Any]:
    """Extra arguments for ``redis.from_url(url, ...)``: the password from the environment
    when the URL has none."""
    pw = os.environ.get(PASSWORD_ENV)
    if pw and not urlsplit(url).password:
        return {"password": pw}
    return {}


def async_client(url: str, timeout: float = REDIS_TIMEOUT) -> Any:
    """The node's asyncio Redis client. A command on a pooled connection Redis closed (it
    restarted) is sent once more on a new one at once, rather than failing (a bus batch
    sent twice is refused by its sequence number); a Redis that stops answering fails a
    command within ``timeout`` instead of hanging the caller."""
    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    return aioredis.from_url(url, retry=Retry(NoBackoff(), 1), socket_timeout=timeout,
                             socket_connect_timeout=timeout, **connect_kwargs(url))


def describe(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    u = urlsplit(url)
    host = u.hostname or ""
    port = f":{u.port}" if u.port else ""
    return f"{u.scheme}://{host}{port}{u.path}"


def check_redis(url: str, timeout: float = 5.0) -> str | None:
    """None when Redis answers ``url`` with its credentials; else why not, in one line.
    Redis without a password is allowed but logged: anyone who reaches it could publish
    (the bus refuses what is not signed with the cluster key) and touch the leases."""
    import redis
    from redis.exceptions import AuthenticationError, ConnectionError, ResponseError

    where = describe(url)
    try:
        r = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                 **connect_kwargs(url))
        try:
            r.ping()
        finally:
            r.close()
    except AuthenticationError:
        if not urlsplit(url).password and not os.environ.get(PASSWORD_ENV):
            return f"Redis at {where} needs a password: redis://:PASSWORD@host:port or {PASSWORD_ENV}"
        return f"Redis at {where} refused the password; check the URL or {PASSWORD_ENV}"
    except ResponseError as exc:
        if "NOAUTH" in str(exc) or "WRONGPASS" in str(exc):
            return f"Redis at {where} needs a password: redis://:PASSWORD@host:port or {PASSWORD_ENV}"
        return f"Redis at {where} answered an error: {exc}"
    except (ConnectionError, OSError) as exc:
        return f"cannot reach Redis at {where}: {str(exc).splitlines()[0][:200]}"
    if not urlsplit(url).password and not os.environ.get(PASSWORD_ENV):
        log.warning("Redis at %s has no password: anyone who reaches it can touch the cluster's "
                    "leases (bus messages are signed, docs/cluster.md)", where)
    return None
