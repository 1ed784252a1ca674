"""The gateway's kinds of path, shared by the router and its middlewares."""

from __future__ import annotations

HEALTH_PATHS = ("/healthz", "/readyz")
GAMES_PREFIX = "/games/"
# Every Connect path: /menagerie.<package>.v1.<Service>/<Method>, or a game's under GAMES_PREFIX.
CONNECT_PREFIXES = ("/menagerie.", GAMES_PREFIX)


def route(path: str) -> str:
    """The kind of path: connect, health or static (a file of the built app)."""
    if path in HEALTH_PATHS:
        return "health"
    if path.startswith(CONNECT_PREFIXES):
        return "connect"
    return "static"
