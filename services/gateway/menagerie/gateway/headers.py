"""Browser security headers on every answer, and caching by kind of file (issue 29, item 5).

The built app (clients/web/dist) has no inline script or style: index.html loads one hashed
module and one hashed stylesheet from /assets, and React sets styles through the DOM, which
`style-src 'self'` allows. So the policy allows the gateway's own origin only.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from menagerie.gateway.paths import route

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self';"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
# Vite names every built asset after its content's hash: a new build is a new name.
HASHED_ASSETS = "/assets/"
IMMUTABLE = b"public, max-age=31536000, immutable"
# index.html (and the other unhashed files) are checked with the server on each use (ETag).
REVALIDATE = b"no-cache"
# Connect answers and health are never stored.
NO_STORE = b"no-store"


def cache_control(path: str, static: bool) -> bytes:
    """The Cache-Control of an answer at `path` (`static`: a file of the built app)."""
    if not static:
        return NO_STORE
    return IMMUTABLE if path.startswith(HASHED_ASSETS) else REVALIDATE


class SecurityHeaders:
    """Adds SECURITY_HEADERS and a Cache-Control to every response start (ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Runs the application, adding the headers to what it sends."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        static = route(path) == "static"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                headers.extend(pair for pair in SECURITY_HEADERS if pair[0] not in names)
                if b"cache-control" not in names:
                    cacheable = static and message["status"] in (200, 304)
                    headers.append((b"cache-control", cache_control(path, static) if cacheable else NO_STORE))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
