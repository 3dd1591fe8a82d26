"""The one error a request of the HTTP API is refused with (:class:`ApiError`): a message
for the client, an HTTP status, and for a rate limit the seconds to wait. Each service's
own error (accounts, avatars, coins, friends, quick match, tournaments, replays) is one;
the app turns any of them into the one JSON error answer (:mod:`laizi.server.net.httpin`)."""

from __future__ import annotations

from typing import Any

from laizi.errors import IllegalHandError

__all__ = ["ApiError", "coded", "wait_seconds"]


class ApiError(Exception):
    """A refused request: ``message`` for the client, an HTTP ``status``, ``retry_after``
    seconds (a rate limit: the ``Retry-After`` header). A refusal a player meets in the web
    client also has a ``code`` and its ``params`` (numbers, a name), which the client puts in
    the player's language (``web/js/i18n.js`` ``API_ERRORS``); ``message`` stays English, for
    programs and logs."""

    def __init__(self, message: str, status: int = 400, retry_after: float | None = None, *,
                 code: str | None = None, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.code = code
        self.params = params


def wait_seconds(retry_after: float) -> int:
    """Whole seconds to wait (at least 1), as a refusal's ``Retry-After`` says them: the
    ``wait`` param of a ``rate_limited`` refusal."""
    return max(1, int(retry_after + 0.999))


def coded(exc: ApiError | IllegalHandError) -> dict[str, Any]:
    """A refusal's ``code`` and ``params`` as fields of its JSON answer (none without a code):
    the API's own, or the calculator's impossible table (:class:`laizi.errors.IllegalHandError`)."""
    if exc.code is None:
        return {}
    return {"code": exc.code, "params": exc.params} if exc.params else {"code": exc.code}
